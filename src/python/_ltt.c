// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ltt._ltt - libltt-ctl for Python: the module under `import ltt`
 * (src/python/ltt/__init__.py), which gives it its objects and errors.
 *
 * Each function connects to the session daemon of `rundir` (None: the
 * caller's default, as lttctl), makes one call of libltt-ctl and
 * disconnects.  Results are plain dicts and lists.  A failure raises
 * ltt._ltt.Failure(code, detail): code the public error code (positive,
 * enum ltt_error), detail the daemon's extra lines (a filter's caret) or
 * "".  Built on Python's limited API: one binary serves every Python 3
 * from 3.9.
 */
#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-ctl.h>

#include "common/model/attr.h"	/* the live timer's bounds, the live URL */

/* Python before 3.13 takes the keywords' names as char *[]. */
#define KW_LIST(list) ((char **)(uintptr_t)(list))

static PyObject *failure_type;

/* Raise Failure(@code, @detail): @code a public error code, either sign. */
static PyObject *raise_failure(int code, const char *detail)
{
	PyObject *args = Py_BuildValue("(is)", code < 0 ? -code : code, detail ? detail : "");

	if (args) {
		PyErr_SetObject(failure_type, args);
		Py_DECREF(args);
	}
	return NULL;
}

/* Raise Failure for a libltt-ctl return value, with @ctl's detail if any. */
static PyObject *fail(int ret, struct ltt_ctl *ctl)
{
	return raise_failure(ret, ctl ? ltt_ctl_error_detail(ctl) : NULL);
}

/*
 * Connect to the daemon of @rundir (NULL: the default); with @spawn,
 * start a personal one first where none runs (as lttctl create does).
 * The connection is made outside the GIL.  Returns NULL with Failure
 * raised.
 */
static struct ltt_ctl *open_ctl(const char *rundir, int spawn)
{
	struct ltt_ctl *ctl = NULL;
	int ret;

	Py_BEGIN_ALLOW_THREADS
	ret = ltt_ctl_connect(rundir, &ctl);
	if (ret == -LTT_ERR_SESSIOND_NOT_RUNNING && spawn) {
		ret = ltt_ctl_spawn_sessiond(rundir);
		if (ret >= 0)
			ret = ltt_ctl_connect(rundir, &ctl);
	}
	Py_END_ALLOW_THREADS
	if (ret) {
		fail(ret, NULL);
		return NULL;
	}
	return ctl;
}

/* Close the connection after a call that returned @ret: 0, or -1 with Failure raised. */
static int close_ctl(struct ltt_ctl *ctl, int ret)
{
	if (ret)
		fail(ret, ctl);
	ltt_ctl_disconnect(ctl);
	return ret ? -1 : 0;
}

/*
 * @call(ctl, @arg) on a connection to the daemon of @rundir (open_ctl(),
 * @spawn), made without the GIL; the connection is closed.  0, or -1
 * with the exception raised.
 */
static int call_ctl(const char *rundir, int spawn, int (*call)(struct ltt_ctl *, void *),
		    void *arg)
{
	struct ltt_ctl *ctl = open_ctl(rundir, spawn);
	int ret;

	if (!ctl)
		return -1;
	Py_BEGIN_ALLOW_THREADS
	ret = call(ctl, arg);
	Py_END_ALLOW_THREADS
	return close_ctl(ctl, ret);
}

/* The result of call_ctl() @ret: None, or NULL with the exception raised. */
static PyObject *none_or_null(int ret)
{
	if (ret)
		return NULL;
	Py_RETURN_NONE;
}

/* Copy a Python str into a fixed field; ValueError when it does not fit. */
static int copy_str(char *dst, size_t size, const char *src, const char *what)
{
	if (strlen(src) >= size) {
		PyErr_Format(PyExc_ValueError, "%s is longer than %zu bytes", what, size - 1);
		return -1;
	}
	memcpy(dst, src, strlen(src) + 1);
	return 0;
}

static PyObject *session_dict(const struct ltt_session_info *s)
{
	return Py_BuildValue("{s:s,s:K,s:s,s:l,s:O,s:O,s:I,s:i,s:s,s:L,s:i}",
			     "name", s->name, "id", (unsigned long long)s->id, "uuid", s->uuid,
			     "uid", (long)s->uid, "active", s->active ? Py_True : Py_False,
			     "snapshot", s->snapshot ? Py_True : Py_False,
			     "live_timer_us", (unsigned int)s->live_timer_us,
			     "output_type", (int)s->output_type, "output", s->output,
			     "creation_time", (long long)s->creation_time,
			     "trace_format", (int)s->trace_format);
}

static PyObject *channel_dict(const struct ltt_channel_info *c)
{
	const struct ltt_channel_attr *a = &c->attr;

	return Py_BuildValue("{s:i,s:s,s:K,s:K,s:O,s:I,s:I,s:K,s:K,s:i,s:O,s:i,s:O,s:K,s:K,s:i,s:K,s:K,s:K}",
			     "domain", (int)c->domain, "name", a->name,
			     "subbuf_size", (unsigned long long)a->subbuf_size,
			     "num_subbuf", (unsigned long long)a->num_subbuf,
			     "overwrite", a->overwrite ? Py_True : Py_False,
			     "switch_timer_us", (unsigned int)a->switch_timer_us,
			     "read_timer_us", (unsigned int)a->read_timer_us,
			     "tracefile_size", (unsigned long long)a->tracefile_size,
			     "tracefile_count", (unsigned long long)a->tracefile_count,
			     "buffer_type", (int)a->buffer_type,
			     "fsync", a->fsync ? Py_True : Py_False,
			     "allocation", (int)a->allocation,
			     "enabled", c->enabled ? Py_True : Py_False,
			     "discarded_events", (unsigned long long)c->discarded_events,
			     "lost_packets", (unsigned long long)c->lost_packets,
			     "output_error", c->output_error,
			     "error_events", (unsigned long long)c->error_events,
			     "error_packets", (unsigned long long)c->error_packets,
			     "classes_refused", (unsigned long long)c->classes_refused);
}

static PyObject *rule_dict(const struct ltt_event_rule_info *r)
{
	const struct ltt_event_rule_attr *a = &r->attr;

	return Py_BuildValue("{s:i,s:s,s:s,s:i,s:i,s:i,s:z,s:z,s:z,s:O}",
			     "domain", (int)r->domain, "channel", r->channel,
			     "pattern", a->pattern, "loglevel_type", (int)a->loglevel_type,
			     "loglevel", a->loglevel, "type", (int)a->type,
			     "filter", a->filter && a->filter[0] ? a->filter : NULL,
			     "exclusions", a->exclusions && a->exclusions[0] ? a->exclusions : NULL,
			     "location", a->location && a->location[0] ? a->location : NULL,
			     "enabled", r->enabled ? Py_True : Py_False);
}

/* A list of @n dicts made by @make from @items of @size bytes each. */
static PyObject *dict_list(const void *items, size_t n, size_t size,
			   PyObject *(*make)(const void *))
{
	PyObject *list = PyList_New((Py_ssize_t)n);
	size_t i;

	for (i = 0; list && i < n; i++) {
		PyObject *d = make((const char *)items + i * size);

		if (!d || PyList_SetItem(list, (Py_ssize_t)i, d)) {
			Py_DECREF(list);
			return NULL;
		}
	}
	return list;
}

static PyObject *make_session(const void *p)
{
	return session_dict(p);
}

static PyObject *make_channel(const void *p)
{
	return channel_dict(p);
}

static PyObject *make_rule(const void *p)
{
	return rule_dict(p);
}

struct create_call {
	struct ltt_session_attr attr;
	struct ltt_session_info info;
};

static int create(struct ltt_ctl *ctl, void *arg)
{
	struct create_call *c = arg;

	return ltt_ctl_create_session(ctl, &c->attr, &c->info);
}

static PyObject *py_create_session(PyObject *self, PyObject *args, PyObject *kw)
{
	static const char *const kwlist[] = { "name", "output_type", "output", "snapshot", "live_timer_us",
				  "rundir", "trace_format", NULL };
	const char *name, *output, *rundir = NULL;
	int output_type, snapshot, format = LTT_TRACE_FORMAT_DEFAULT;
	unsigned int live;
	struct create_call c;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "sispI|zi", KW_LIST(kwlist), &name, &output_type,
					 &output, &snapshot, &live, &rundir, &format))
		return NULL;
	ltt_ctl_session_attr_init(&c.attr);
	if (copy_str(c.attr.name, sizeof(c.attr.name), name, "the session name") ||
	    copy_str(c.attr.output, sizeof(c.attr.output), output, "the output"))
		return NULL;
	c.attr.output_type = (enum ltt_output_type)output_type;
	c.attr.snapshot = snapshot;
	c.attr.live_timer_us = live;
	c.attr.trace_format = (uint8_t)format;	/* checked by ltt/__init__.py */
	if (call_ctl(rundir, 1, create, &c))
		return NULL;
	return session_dict(&c.info);
}

/* A call on one session: call(ctl, session, arg). */
struct session_call {
	int (*call)(struct ltt_ctl *, const char *, void *);
	const char *session;
	void *arg;
};

static int call_session(struct ltt_ctl *ctl, void *arg)
{
	const struct session_call *c = arg;

	return c->call(ctl, c->session, c->arg);
}

/*
 * A call on one session, its arguments {session, rundir}: @call(ctl,
 * session, @arg) made without the GIL.  0, or -1 with the exception raised;
 * the connection is closed.
 */
static int session_call_with(PyObject *args, PyObject *kw,
			     int (*call)(struct ltt_ctl *, const char *, void *), void *arg)
{
	static const char *const kwlist[] = { "session", "rundir", NULL };
	struct session_call c = { call, NULL, arg };
	const char *rundir = NULL;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "s|z", KW_LIST(kwlist), &c.session, &rundir))
		return -1;
	return call_ctl(rundir, 0, call_session, &c);
}

/* The calls that take a session name only: destroy, start, clear. */
struct name_only {
	int (*call)(struct ltt_ctl *, const char *);
};

static int call_name_only(struct ltt_ctl *ctl, const char *session, void *arg)
{
	return ((const struct name_only *)arg)->call(ctl, session);
}

static PyObject *session_call(PyObject *args, PyObject *kw,
			      int (*call)(struct ltt_ctl *, const char *))
{
	struct name_only c = { call };

	return none_or_null(session_call_with(args, kw, call_name_only, &c));
}

static PyObject *py_destroy_session(PyObject *self, PyObject *args, PyObject *kw)
{
	return session_call(args, kw, ltt_ctl_destroy_session);
}

static PyObject *py_start_session(PyObject *self, PyObject *args, PyObject *kw)
{
	return session_call(args, kw, ltt_ctl_start_session);
}

static PyObject *py_clear_session(PyObject *self, PyObject *args, PyObject *kw)
{
	return session_call(args, kw, ltt_ctl_clear_session);
}

static int stop(struct ltt_ctl *ctl, const char *session, void *wait)
{
	return ltt_ctl_stop_session(ctl, session, *(const int *)wait);
}

static PyObject *py_stop_session(PyObject *self, PyObject *args, PyObject *kw)
{
	static const char *const kwlist[] = { "session", "wait", "rundir", NULL };
	const char *rundir = NULL;
	int wait = 1;
	struct session_call c = { stop, NULL, &wait };

	if (!PyArg_ParseTupleAndKeywords(args, kw, "s|pz", KW_LIST(kwlist), &c.session, &wait,
					 &rundir))
		return NULL;
	return none_or_null(call_ctl(rundir, 0, call_session, &c));
}

static int rotate(struct ltt_ctl *ctl, const char *session, void *archive)
{
	return ltt_ctl_rotate_session(ctl, session, archive, LTT_PATH_MAX);
}

static PyObject *py_rotate_session(PyObject *self, PyObject *args, PyObject *kw)
{
	char archive[LTT_PATH_MAX];

	if (session_call_with(args, kw, rotate, archive))
		return NULL;
	return PyUnicode_FromString(archive);
}

struct snapshot_call {
	const char *session;
	struct ltt_snapshot_output out;
	bool whole;		/* the session's own snapshot output, whole: not out */
	struct ltt_snapshot_result res;
};

static int snapshot(struct ltt_ctl *ctl, void *arg)
{
	struct snapshot_call *c = arg;

	return ltt_ctl_snapshot_record(ctl, c->session, c->whole ? NULL : &c->out, &c->res);
}

static PyObject *py_snapshot_record(PyObject *self, PyObject *args, PyObject *kw)
{
	static const char *const kwlist[] = { "session", "output_type", "output", "max_size", "rundir",
				  NULL };
	const char *session, *output, *rundir = NULL;
	unsigned long long max_size;
	struct snapshot_call c;
	int output_type;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "sisK|z", KW_LIST(kwlist), &session, &output_type,
					 &output, &max_size, &rundir))
		return NULL;
	memset(&c.out, 0, sizeof(c.out));
	if (copy_str(c.out.output, sizeof(c.out.output), output, "the snapshot output"))
		return NULL;
	c.out.output_type = (enum ltt_output_type)output_type;
	c.out.max_size = max_size;
	c.session = session;
	/* neither given: the session's own snapshot output, whole */
	c.whole = !output[0] && !max_size;
	if (call_ctl(rundir, 0, snapshot, &c))
		return NULL;
	return Py_BuildValue("{s:s,s:K,s:K,s:K}", "path", c.res.path,
			     "packets", (unsigned long long)c.res.packets,
			     "bytes", (unsigned long long)c.res.bytes,
			     "packets_dropped", (unsigned long long)c.res.packets_dropped);
}

struct list_call {
	struct ltt_session_info *sessions;
	size_t n;
};

static int list_sessions(struct ltt_ctl *ctl, void *arg)
{
	struct list_call *c = arg;

	return ltt_ctl_list_sessions(ctl, &c->sessions, &c->n);
}

static PyObject *py_list_sessions(PyObject *self, PyObject *args, PyObject *kw)
{
	static const char *const kwlist[] = { "rundir", NULL };
	const char *rundir = NULL;
	struct list_call c = { NULL, 0 };
	PyObject *list;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|z", KW_LIST(kwlist), &rundir))
		return NULL;
	if (call_ctl(rundir, 0, list_sessions, &c))
		return NULL;
	list = dict_list(c.sessions, c.n, sizeof(*c.sessions), make_session);
	free(c.sessions);
	return list;
}

static int get_session(struct ltt_ctl *ctl, const char *session, void *ret_detail)
{
	return ltt_ctl_get_session(ctl, session, ret_detail);
}

static PyObject *py_get_session(PyObject *self, PyObject *args, PyObject *kw)
{
	struct ltt_session_detail *d = NULL;
	PyObject *info, *channels = NULL, *rules = NULL, *res = NULL;

	if (session_call_with(args, kw, get_session, &d))
		return NULL;
	info = session_dict(&d->info);
	if (info)
		channels = dict_list(d->channels, d->nr_channels, sizeof(*d->channels),
				     make_channel);
	if (channels)
		rules = dict_list(d->rules, d->nr_rules, sizeof(*d->rules), make_rule);
	if (rules && !PyDict_SetItemString(info, "channels", channels) &&
	    !PyDict_SetItemString(info, "rules", rules))
		res = info;
	else
		Py_XDECREF(info);
	Py_XDECREF(channels);
	Py_XDECREF(rules);
	free(d);
	return res;
}

/* A call on a channel or its rules, in a domain of a session. */
struct domain_call {
	const char *session;
	int domain;
	const char *channel;
	const void *what;	/* the channel's or the rule's attributes, a pattern, a context */
};

static int enable_channel(struct ltt_ctl *ctl, void *arg)
{
	const struct domain_call *c = arg;

	return ltt_ctl_enable_channel(ctl, c->session, (enum ltt_domain)c->domain, c->what);
}

static int enable_event(struct ltt_ctl *ctl, void *arg)
{
	const struct domain_call *c = arg;

	return ltt_ctl_enable_event(ctl, c->session, (enum ltt_domain)c->domain, c->channel,
				    c->what);
}

static int disable_event(struct ltt_ctl *ctl, void *arg)
{
	const struct domain_call *c = arg;

	return ltt_ctl_disable_event(ctl, c->session, (enum ltt_domain)c->domain, c->channel,
				     c->what);
}

static int add_context(struct ltt_ctl *ctl, void *arg)
{
	const struct domain_call *c = arg;

	return ltt_ctl_add_context(ctl, c->session, (enum ltt_domain)c->domain, c->channel,
				   c->what);
}

static PyObject *py_enable_channel(PyObject *self, PyObject *args, PyObject *kw)
{
	static const char *const kwlist[] = { "session", "domain", "name", "subbuf_size", "num_subbuf",
				  "overwrite", "switch_timer_us", "read_timer_us",
				  "tracefile_size", "tracefile_count", "buffer_type", "fsync",
				  "allocation", "rundir", NULL };
	const char *name, *rundir = NULL;
	unsigned long long subbuf_size = 0, num_subbuf = 0, tf_size = 0, tf_count = 0;
	unsigned int switch_us = 0, read_us = 0;
	int overwrite = 0, buffer_type = 0, fsync = 0, allocation = 0, ret;
	struct ltt_channel_attr attr;
	struct domain_call c = { NULL, 0, NULL, &attr };

	if (!PyArg_ParseTupleAndKeywords(args, kw, "sis|KKpIIKKipiz", KW_LIST(kwlist), &c.session,
					 &c.domain, &name, &subbuf_size, &num_subbuf, &overwrite,
					 &switch_us, &read_us, &tf_size, &tf_count, &buffer_type,
					 &fsync, &allocation, &rundir))
		return NULL;
	ret = ltt_ctl_channel_attr_init(&attr, (enum ltt_domain)c.domain);
	if (ret)
		return fail(ret, NULL);
	if (copy_str(attr.name, sizeof(attr.name), name, "the channel name"))
		return NULL;
	/* 0: the domain's default (ltt_ctl_channel_attr_init()) */
	if (subbuf_size)
		attr.subbuf_size = subbuf_size;
	if (num_subbuf)
		attr.num_subbuf = num_subbuf;
	attr.overwrite = overwrite;
	if (switch_us)
		attr.switch_timer_us = switch_us;
	if (read_us)
		attr.read_timer_us = read_us;
	attr.tracefile_size = tf_size;
	attr.tracefile_count = tf_count;
	attr.buffer_type = (enum ltt_buffer_type)buffer_type;
	attr.fsync = fsync;
	if (allocation < 0 || allocation > UINT8_MAX)
		return fail(-LTT_ERR_BUFFER_ALLOCATION, NULL);
	attr.allocation = (uint8_t)allocation;
	return none_or_null(call_ctl(rundir, 0, enable_channel, &c));
}

static PyObject *py_enable_event(PyObject *self, PyObject *args, PyObject *kw)
{
	static const char *const kwlist[] = { "session", "domain", "channel", "pattern", "loglevel_type",
				  "loglevel", "type", "filter", "exclusions", "rundir", "location",
				  NULL };
	const char *pattern, *filter = NULL, *excl = NULL, *rundir = NULL, *location = NULL;
	int ll_type = 0, ll = 0, type = 0;
	struct ltt_event_rule_attr attr;
	struct domain_call c = { NULL, 0, NULL, &attr };

	if (!PyArg_ParseTupleAndKeywords(args, kw, "sizs|iiizzzz", KW_LIST(kwlist), &c.session,
					 &c.domain, &c.channel, &pattern, &ll_type, &ll, &type, &filter, &excl,
					 &rundir, &location))
		return NULL;
	ltt_ctl_event_rule_attr_init(&attr);
	if (copy_str(attr.pattern, sizeof(attr.pattern), pattern, "the event pattern"))
		return NULL;
	attr.loglevel_type = (enum ltt_loglevel_type)ll_type;
	attr.loglevel = ll;
	attr.type = (enum ltt_event_type)type;
	attr.filter = filter;
	attr.exclusions = excl;
	attr.location = location;
	return none_or_null(call_ctl(rundir, 0, enable_event, &c));
}

static PyObject *py_disable_event(PyObject *self, PyObject *args, PyObject *kw)
{
	static const char *const kwlist[] = { "session", "domain", "channel", "pattern", "rundir", NULL };
	const char *pattern, *rundir = NULL;
	struct domain_call c = { NULL, 0, NULL, NULL };

	if (!PyArg_ParseTupleAndKeywords(args, kw, "sizs|z", KW_LIST(kwlist), &c.session, &c.domain,
					 &c.channel, &pattern, &rundir))
		return NULL;
	c.what = pattern;
	return none_or_null(call_ctl(rundir, 0, disable_event, &c));
}

static PyObject *py_add_context(PyObject *self, PyObject *args, PyObject *kw)
{
	static const char *const kwlist[] = { "session", "domain", "channel", "context", "rundir", NULL };
	const char *name, *rundir = NULL;
	struct ltt_context context;
	struct domain_call c = { NULL, 0, NULL, &context };
	int ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "sizs|z", KW_LIST(kwlist), &c.session, &c.domain,
					 &c.channel, &name, &rundir))
		return NULL;
	ret = ltt_ctl_context_parse(name, &context);
	if (ret)
		return fail(ret, NULL);
	return none_or_null(call_ctl(rundir, 0, add_context, &c));
}

static PyObject *py_filter_check(PyObject *self, PyObject *args)
{
	const char *filter;
	char msg[1024];
	int ret;

	if (!PyArg_ParseTuple(args, "s", &filter))
		return NULL;
	ret = ltt_ctl_filter_check(filter, msg, sizeof(msg));
	if (ret)
		return raise_failure(ret, msg);
	Py_RETURN_NONE;
}

static PyObject *py_strerror(PyObject *self, PyObject *args)
{
	int code;

	if (!PyArg_ParseTuple(args, "i", &code))
		return NULL;
	return Py_BuildValue("(ss)", ltt_error_name(code), ltt_strerror(code));
}

static PyObject *py_default_rundir(PyObject *self, PyObject *args)
{
	char buf[LTT_PATH_MAX];

	if (ltt_ctl_default_rundir(buf, sizeof(buf)))
		return PyUnicode_FromString("(unknown)");
	return PyUnicode_FromString(buf);
}

static PyObject *py_loglevel_parse(PyObject *self, PyObject *args)
{
	const char *text;
	int level, ret, domain = LTT_DOMAIN_USER;

	if (!PyArg_ParseTuple(args, "s|i", &text, &domain))
		return NULL;
	ret = ltt_loglevel_parse_domain((enum ltt_domain)domain, text, &level);
	if (ret)
		return fail(ret, NULL);
	return PyLong_FromLong(level);
}

#define KW(name) { #name, (PyCFunction)(void (*)(void))py_##name, \
		   METH_VARARGS | METH_KEYWORDS, NULL }
static PyMethodDef methods[] = {
	KW(create_session), KW(destroy_session), KW(start_session), KW(stop_session),
	KW(clear_session), KW(rotate_session), KW(snapshot_record), KW(list_sessions),
	KW(get_session), KW(enable_channel), KW(enable_event), KW(disable_event),
	KW(add_context),
	{ "filter_check", py_filter_check, METH_VARARGS, NULL },
	{ "strerror", py_strerror, METH_VARARGS, NULL },
	{ "loglevel_parse", py_loglevel_parse, METH_VARARGS, NULL },
	{ "default_rundir", py_default_rundir, METH_NOARGS, NULL },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT, "ltt._ltt",
	"libltt-ctl, one call a function (the ltt package's own: use `import ltt`).",
	-1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__ltt(void);
PyMODINIT_FUNC PyInit__ltt(void)
{
	PyObject *m = PyModule_Create(&module);

	if (!m)
		return NULL;
	failure_type = PyErr_NewException("ltt._ltt.Failure", NULL, NULL);
	if (!failure_type || PyModule_AddObject(m, "Failure", failure_type)) {
		Py_XDECREF(failure_type);
		Py_DECREF(m);
		return NULL;
	}
	Py_INCREF(failure_type);	/* the module's reference, and ours */
	if (PyModule_AddIntConstant(m, "DOMAIN_KERNEL", LTT_DOMAIN_KERNEL) ||
	    PyModule_AddIntConstant(m, "DOMAIN_USER", LTT_DOMAIN_USER) ||
	    PyModule_AddIntConstant(m, "DOMAIN_PYTHON", LTT_DOMAIN_PYTHON) ||
	    PyModule_AddIntConstant(m, "OUTPUT_NONE", LTT_OUTPUT_NONE) ||
	    PyModule_AddIntConstant(m, "OUTPUT_LOCAL", LTT_OUTPUT_LOCAL) ||
	    PyModule_AddIntConstant(m, "OUTPUT_NET", LTT_OUTPUT_NET) ||
	    PyModule_AddIntConstant(m, "LOGLEVEL_ALL", LTT_LOGLEVEL_ALL) ||
	    PyModule_AddIntConstant(m, "LOGLEVEL_RANGE", LTT_LOGLEVEL_RANGE) ||
	    PyModule_AddIntConstant(m, "LOGLEVEL_SINGLE", LTT_LOGLEVEL_SINGLE) ||
	    PyModule_AddIntConstant(m, "EVENT_TRACEPOINT", LTT_EVENT_TRACEPOINT) ||
	    PyModule_AddIntConstant(m, "EVENT_SYSCALL", LTT_EVENT_SYSCALL) ||
	    PyModule_AddIntConstant(m, "EVENT_KPROBE", LTT_EVENT_KPROBE) ||
	    PyModule_AddIntConstant(m, "EVENT_FUNCTION", LTT_EVENT_FUNCTION) ||
	    PyModule_AddIntConstant(m, "EVENT_UPROBE", LTT_EVENT_UPROBE) ||
	    PyModule_AddIntConstant(m, "BUFFER_DEFAULT", LTT_BUFFER_DEFAULT) ||
	    PyModule_AddIntConstant(m, "BUFFER_PER_UID", LTT_BUFFER_PER_UID) ||
	    PyModule_AddIntConstant(m, "BUFFER_PER_PID", LTT_BUFFER_PER_PID) ||
	    PyModule_AddIntConstant(m, "BUFFER_GLOBAL", LTT_BUFFER_GLOBAL) ||
	    PyModule_AddIntConstant(m, "DEFAULT_LIVE_TIMER_US", LTT_DEFAULT_LIVE_TIMER_US) ||
	    PyModule_AddIntConstant(m, "MIN_LIVE_TIMER_US", LTT_MIN_LIVE_TIMER_US) ||
	    PyModule_AddStringConstant(m, "DEFAULT_LIVE_URL", LTT_DEFAULT_LIVE_URL)) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
