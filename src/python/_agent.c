// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ltt._agent - the C half of ltt.agent (src/python/ltt/agent.py): the
 * user-space event lttng_python:event that each wanted record of Python's
 * logging module becomes (LTTng's fields and types), and libltt-ust's
 * agent interface (src/ust/agent.h): the rules of the channels this
 * program records in, and the loggers it reports.
 *
 * Importing it loads libltt-ust, which registers the program with the
 * session daemons (bounded, as any program's start).  No function here
 * raises for a daemon's absence or death: event() records or does not,
 * wait() returns the generation, rules() what is known.  On Python's
 * limited API of 3.10 (METH_FASTCALL).
 *
 * Handler is the base of ltt.agent's logging handler: its handle() (and
 * emit()) is the whole of a record's way into the event, in C, so that a
 * recorded logging call costs the record's rule, its message and the
 * event, without a Python frame (bench/README.md, "Python agent").  The
 * agent gives it its state with setup() and wants(); one handler a
 * process.
 */
#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "python/lttng-python-tp.h"
#include "ust/agent.h"

/* A str's UTF-8 (borrowed from it), "" for anything else. */
static const char *text(PyObject *o)
{
	const char *s;

	if (!PyUnicode_Check(o))
		return "";
	s = PyUnicode_AsUTF8AndSize(o, NULL);
	if (!s)
		PyErr_Clear();
	return s ? s : "";
}

/*
 * An int as the event's 32 bits (LTTng's: truncated, a negative one's
 * two's complement), 0 for anything else.
 */
static unsigned int number(PyObject *o)
{
	unsigned long long v;
	long long small;
	int over;

	if (!PyLong_Check(o))
		return 0;
	/* the mask's value for an int that fits, by the shorter path */
	small = PyLong_AsLongLongAndOverflow(o, &over);
	if (!over && (small != -1 || !PyErr_Occurred()))
		return (unsigned int)small;
	PyErr_Clear();
	v = PyLong_AsUnsignedLongLongMask(o);
	if (v == (unsigned long long)-1 && PyErr_Occurred()) {
		PyErr_Clear();
		return 0;
	}
	return (unsigned int)v;
}

/*
 * event(asctime, msg, logger_name, funcName, lineno, int_loglevel,
 * thread, threadName): record one lttng_python:event in every channel
 * whose rules take it (filters run here, in libltt-ust).  Never raises.
 */
static PyObject *agent_event(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
	(void)self;
	if (nargs != 8)
		Py_RETURN_NONE;
	if (ltt_tracepoint_enabled(lttng_python, event))
		ltt_tracepoint(lttng_python, event, text(args[0]), text(args[1]), text(args[2]),
			       text(args[3]), number(args[4]), number(args[5]), number(args[6]),
			       text(args[7]));
	Py_RETURN_NONE;
}

/* wait(generation, timeout_ms): the rules' generation once it differs, or at the timeout. */
static PyObject *agent_wait(PyObject *self, PyObject *args)
{
	unsigned long long gen;
	int timeout_ms;
	uint64_t now;

	(void)self;
	if (!PyArg_ParseTuple(args, "Ki", &gen, &timeout_ms))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	now = ltt_ust_agent_wait(gen, timeout_ms);
	Py_END_ALLOW_THREADS
	return PyLong_FromUnsignedLongLong(now);
}

/* rules(): (generation, [(pattern, loglevel_type, loglevel, exclusions), ...]) */
static PyObject *agent_rules(PyObject *self, PyObject *unused)
{
	struct ltt_ust_agent_rule *rules = NULL;
	PyObject *list, *ret = NULL;
	size_t nr = 0, i;
	uint64_t gen = 0;
	int err;

	(void)self;
	(void)unused;
	Py_BEGIN_ALLOW_THREADS
	err = ltt_ust_agent_rules(&rules, &nr, &gen);
	Py_END_ALLOW_THREADS
	if (err)
		return PyErr_NoMemory();
	list = PyList_New((Py_ssize_t)nr);
	for (i = 0; list && i < nr; i++) {
		PyObject *t = Py_BuildValue("(siis)", rules[i].pattern, rules[i].loglevel_type,
					    rules[i].loglevel, rules[i].exclusions);

		if (!t) {
			Py_CLEAR(list);
			break;
		}
		PyList_SetItem(list, (Py_ssize_t)i, t);
	}
	free(rules);
	if (list) {
		ret = Py_BuildValue("(KO)", (unsigned long long)gen, list);
		Py_DECREF(list);
	}
	return ret;
}

/* loggers(names): report these loggers (a list of str) to the daemons. */
static PyObject *agent_loggers(PyObject *self, PyObject *arg)
{
	const char **names;
	Py_ssize_t n, i;
	int err;

	(void)self;
	if (!PyList_Check(arg)) {
		PyErr_SetString(PyExc_TypeError, "loggers() takes a list of str");
		return NULL;
	}
	n = PyList_Size(arg);
	names = calloc(n ? (size_t)n : 1, sizeof(*names));
	if (!names)
		return PyErr_NoMemory();
	for (i = 0; i < n; i++)
		names[i] = text(PyList_GetItem(arg, i));
	err = ltt_ust_agent_add_loggers(names, (size_t)n);
	free(names);
	if (err)
		return PyErr_NoMemory();
	Py_RETURN_NONE;
}

/*
 * The handler's state, given by ltt.agent (setup(), wants()); the GIL
 * guards it.  The date and time of the last whole second a record was
 * made in is kept as text: a record's asctime is that text and its
 * milliseconds, as logging.Formatter's "%s,%03d" gives them.
 */
static struct {
	PyObject *wants;	/* logger name -> (lowest level, frozenset of single levels) */
	PyObject *want;		/* want(name): that pair, computed and kept in wants */
	PyObject *second;	/* second(created): its second's date and time, None if not "%s,%03d" */
	PyObject *asctime;	/* asctime(record): the Formatter's, when second() says None */
	PyObject *record_type;	/* logging.LogRecord: its getMessage() is done here */
	long long sec;		/* the second sec_text is of */
	size_t sec_len;		/* strlen(sec_text) */
	char sec_text[96];	/* "" until a second is known */
	/*
	 * The rule of the last record's logger, known by its name's str
	 * object (a logger's records share it): a logger's records one after
	 * another cost no dictionary lookup.  wants() forgets it.
	 */
	unsigned long gen;	/* wants() calls: a rule found before one is not kept */
	PyObject *last_name;	/* a reference: its address stays its own */
	long long last_lowest;
	PyObject *last_singles;	/* NULL: no single level */
} hs;

/* The record's attributes the handler reads, interned once. */
enum { K_NAME, K_LEVELNO, K_CREATED, K_MSECS, K_MSG, K_ARGS, K_FUNCNAME, K_LINENO,
       K_THREAD, K_THREADNAME, K_GETMESSAGE, K_NR };
static const char *const key_names[K_NR] = {
	"name", "levelno", "created", "msecs", "msg", "args", "funcName", "lineno",
	"thread", "threadName", "getMessage",
};
static PyObject *keys[K_NR];

/* *slot = o (a new reference, or NULL), the old one released after. */
static void replace(PyObject **slot, PyObject *o)
{
	PyObject *old = *slot;

	Py_XINCREF(o);
	*slot = o;
	Py_XDECREF(old);
}

/*
 * The rule of the logger called name: its lowest level and its single
 * levels (a new reference, NULL for none), kept as hs.last_name's unless
 * the rules changed meanwhile.  -1 with an exception set.
 */
static int learn(PyObject *name, long long *lowest, PyObject **singles)
{
	unsigned long gen = hs.gen;
	PyObject *wants = hs.wants, *want;
	Py_ssize_t n;

	Py_INCREF(wants);	/* want() may run Python code that replaces it */
	want = PyDict_GetItemWithError(wants, name);
	if (want)
		Py_INCREF(want);
	else if (!PyErr_Occurred())
		want = PyObject_CallFunctionObjArgs(hs.want, name, NULL);
	Py_DECREF(wants);
	if (!want)
		return -1;
	if (!PyTuple_Check(want) || PyTuple_Size(want) != 2) {
		Py_DECREF(want);
		PyErr_SetString(PyExc_TypeError, "want() gives (level, levels)");
		return -1;
	}
	*lowest = PyLong_AsLongLong(PyTuple_GetItem(want, 0));
	*singles = PyTuple_GetItem(want, 1);
	n = PySet_Size(*singles);
	if ((*lowest == -1 || n < 0) && PyErr_Occurred()) {
		Py_DECREF(want);
		return -1;
	}
	*singles = n > 0 ? *singles : NULL;
	Py_XINCREF(*singles);
	if (gen == hs.gen) {
		hs.last_lowest = *lowest;
		replace(&hs.last_singles, *singles);
		replace(&hs.last_name, name);
	}
	Py_DECREF(want);
	return 0;
}

/*
 * Does the logger's rule take this level (its value in *level)?  -1 with
 * an exception set.
 */
static int wanted(PyObject *name, PyObject *levelno, long long *level_out)
{
	long long level, lowest;
	PyObject *singles;
	int ret;

	level = PyLong_AsLongLong(levelno);
	if (level == -1 && PyErr_Occurred())
		return -1;
	*level_out = level;
	if (name == hs.last_name) {
		lowest = hs.last_lowest;
		singles = hs.last_singles;
		Py_XINCREF(singles);
	} else if (learn(name, &lowest, &singles)) {
		return -1;
	}
	ret = level >= lowest ? 1 : singles ? PySet_Contains(singles, levelno) : 0;
	Py_XDECREF(singles);
	return ret;
}

/* A float attribute of the record; -1 with an exception set. */
static int number_attr(PyObject *record, int k, double *v)
{
	PyObject *o = PyObject_GetAttr(record, keys[k]);

	if (!o)
		return -1;
	*v = PyFloat_AsDouble(o);
	Py_DECREF(o);
	return *v == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/*
 * The record's asctime into buf; 0, or -1 with an exception set.  Python
 * code runs (second(), asctime(), which another thread's handle() may
 * interleave with) before hs.sec_text is written and read, not between.
 */
static int asctime_of(PyObject *record, char *buf, size_t size)
{
	double created, msecs;
	long long sec, ms;
	const char *t;
	PyObject *o;
	int whole;

	if (number_attr(record, K_CREATED, &created) || number_attr(record, K_MSECS, &msecs))
		return -1;
	/* NaN or out of any date: as the Formatter takes it, whole */
	whole = !(created > -1e15 && created < 1e15 && msecs > -1e15 && msecs < 1e15);
	sec = whole ? 0 : (long long)created;	/* int(created), as the converter takes it */
	ms = whole ? 0 : (long long)msecs;	/* "%03d" % msecs */
	if (!whole && (sec != hs.sec || !hs.sec_text[0])) {
		o = PyObject_CallFunction(hs.second, "d", created);
		if (!o)
			return -1;
		t = PyUnicode_Check(o) ? PyUnicode_AsUTF8AndSize(o, NULL) : NULL;
		hs.sec_text[0] = '\0';
		if (t && strlen(t) < sizeof(hs.sec_text)) {
			hs.sec_len = strlen(t);
			memcpy(hs.sec_text, t, hs.sec_len + 1);
			hs.sec = sec;
		}
		Py_DECREF(o);
		if (PyErr_Occurred())
			return -1;
	}
	if (whole || !hs.sec_text[0]) {	/* another format: the Formatter's */
		o = PyObject_CallFunctionObjArgs(hs.asctime, record, NULL);
		if (!o)
			return -1;
		snprintf(buf, size, "%s", text(o));
		Py_DECREF(o);
		return 0;
	}
	if (ms < 0 || ms > 999 || hs.sec_len + 5 > size) {	/* not 3 digits */
		snprintf(buf, size, "%s,%03lld", hs.sec_text, ms);
		return 0;
	}
	/* "%s,%03d" by hand, without snprintf()'s parsing of its format */
	memcpy(buf, hs.sec_text, hs.sec_len);
	buf += hs.sec_len;
	buf[0] = ',';
	buf[1] = (char)('0' + ms / 100);
	buf[2] = (char)('0' + ms / 10 % 10);
	buf[3] = (char)('0' + ms % 10);
	buf[4] = '\0';
	return 0;
}

/*
 * The decimal digits of an int that fits in a long long at the end of
 * buf[0..size); their start, NULL for another object or value.
 */
static char *decimal(PyObject *o, char *end)
{
	unsigned long long u;
	long long v;
	int over;

	if (!PyLong_CheckExact(o))	/* a bool's %s is its name; a subclass its own */
		return NULL;
	v = PyLong_AsLongLongAndOverflow(o, &over);
	if (over || (v == -1 && PyErr_Occurred())) {
		PyErr_Clear();
		return NULL;
	}
	u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	do
		*--end = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--end = '-';
	return end;
}

/*
 * str % args as Python gives it, into buf as UTF-8, for a message whose
 * conversions are all %s of a str or an int, %d, %i or %u of an int, and
 * %% (no flag, width, precision or key), args a tuple that they use
 * whole: a logging call's common case, without the str Python would
 * build.  0, or -1 for any other case (Python formats it, or raises).
 */
static int format_fast(PyObject *str, PyObject *args, char *buf, size_t size)
{
	Py_ssize_t len, n = PyTuple_Size(args), used = 0;
	const char *s = PyUnicode_AsUTF8AndSize(str, &len), *end, *pct, *piece;
	char *out = buf, *limit = buf + size - 1, digits[24];
	PyObject *arg;

	if (!s) {
		PyErr_Clear();
		return -1;
	}
	for (end = s + len; s < end; s = pct + 2) {
		pct = memchr(s, '%', (size_t)(end - s));
		if (!pct)
			pct = end;
		if ((size_t)(limit - out) < (size_t)(pct - s))
			return -1;
		memcpy(out, s, (size_t)(pct - s));
		out += pct - s;
		if (pct == end)
			break;
		if (pct + 1 == end)
			return -1;
		if (pct[1] == '%') {
			piece = "%";
			len = 1;
		} else {
			if ((pct[1] != 's' && pct[1] != 'd' && pct[1] != 'i' && pct[1] != 'u') ||
			    used == n)
				return -1;
			arg = PyTuple_GetItem(args, used++);
			if (pct[1] == 's' && PyUnicode_CheckExact(arg)) {
				piece = PyUnicode_AsUTF8AndSize(arg, &len);
				if (!piece) {
					PyErr_Clear();
					return -1;
				}
			} else {
				piece = decimal(arg, digits + sizeof(digits));
				if (!piece)
					return -1;
				len = digits + sizeof(digits) - piece;
			}
		}
		if (limit - out < len)
			return -1;
		memcpy(out, piece, (size_t)len);
		out += len;
	}
	*out = '\0';
	return used == n ? 0 : -1;	/* "not all arguments converted": Python's error */
}

/*
 * LogRecord.getMessage(): str(msg), % args when there are some, as
 * text(): in buf when format_fast() made it, else borrowed from *str_out
 * (a new reference to release).  NULL with an exception set.
 */
static const char *message_of(PyObject *record, char *buf, size_t size, PyObject **str_out)
{
	PyObject *msg, *args, *str, *out;
	int some;

	if (Py_TYPE(record) != (PyTypeObject *)hs.record_type) {	/* a factory's own class */
		*str_out = PyObject_CallMethodObjArgs(record, keys[K_GETMESSAGE], NULL);
		return *str_out ? text(*str_out) : NULL;
	}
	msg = PyObject_GetAttr(record, keys[K_MSG]);
	if (!msg)
		return NULL;
	str = PyUnicode_CheckExact(msg) ? (Py_INCREF(msg), msg) : PyObject_Str(msg);
	Py_DECREF(msg);
	if (!str)
		return NULL;
	args = PyObject_GetAttr(record, keys[K_ARGS]);
	if (!args) {
		Py_DECREF(str);
		return NULL;
	}
	/* a str subclass of the message's __str__() may have its own % (__mod__) */
	if (PyUnicode_CheckExact(str) && PyTuple_CheckExact(args) && PyTuple_Size(args) > 0 &&
	    !format_fast(str, args, buf, size)) {
		Py_DECREF(args);
		Py_DECREF(str);
		return buf;
	}
	some = PyObject_IsTrue(args);
	/* msg % args as Python's getMessage() makes it: a subclass's __mod__ or __rmod__ too */
	out = some > 0 ? PyNumber_Remainder(str, args) : some == 0 ? (Py_INCREF(str), str) : NULL;
	Py_DECREF(args);
	Py_DECREF(str);
	*str_out = out;
	return out ? text(out) : NULL;
}

/*
 * Handler.handle(record) (and emit()): lttng_python:event for a record
 * the logger's rules take, with the fields lttngust gives it; nothing for
 * one whose message fails to format.  Returns True; raises only what is
 * no Exception (KeyboardInterrupt, SystemExit) that the Python code it
 * calls raised.
 */
static PyObject *handler_handle(PyObject *self, PyObject *record)
{
	/* the attributes kept to the event: name and levelno first */
	enum { A_NAME, A_LEVELNO, A_FUNCNAME, A_LINENO, A_THREAD, A_THREADNAME, A_NR };
	static const int key_of[A_NR] = { K_NAME, K_LEVELNO, K_FUNCNAME, K_LINENO, K_THREAD,
					  K_THREADNAME };
	PyObject *f[A_NR] = { NULL }, *msg = NULL;
	const char *msg_text;
	char asctime[128], text_buf[2048];
	long long level;
	int i;

	(void)self;
	if (!hs.wants)
		Py_RETURN_TRUE;
	f[A_NAME] = PyObject_GetAttr(record, keys[K_NAME]);
	f[A_LEVELNO] = f[A_NAME] ? PyObject_GetAttr(record, keys[K_LEVELNO]) : NULL;
	if (!f[A_LEVELNO] || wanted(f[A_NAME], f[A_LEVELNO], &level) != 1 ||
	    !ltt_tracepoint_enabled(lttng_python, event))
		goto out;
	if (asctime_of(record, asctime, sizeof(asctime)) ||
	    !(msg_text = message_of(record, text_buf, sizeof(text_buf), &msg)))
		goto out;
	for (i = A_FUNCNAME; i < A_NR; i++)
		if (!(f[i] = PyObject_GetAttr(record, keys[key_of[i]])))
			goto out;
	/* int_loglevel: the level wanted() read, as number() gives an int */
	ltt_tracepoint(lttng_python, event, asctime, msg_text, text(f[A_NAME]),
		       text(f[A_FUNCNAME]), number(f[A_LINENO]), (unsigned int)level,
		       number(f[A_THREAD]), text(f[A_THREADNAME]));
out:
	Py_XDECREF(msg);
	for (i = 0; i < A_NR; i++)
		Py_XDECREF(f[i]);
	if (PyErr_Occurred()) {
		/* a KeyboardInterrupt or SystemExit raised in Python code it ran */
		if (!PyErr_ExceptionMatches(PyExc_Exception))
			return NULL;
		PyErr_Clear();
	}
	Py_RETURN_TRUE;
}

/* setup(want, second, asctime, LogRecord): the handler's functions (see hs). */
static PyObject *agent_setup(PyObject *self, PyObject *args)
{
	PyObject *want, *second, *asctime, *record_type;

	(void)self;
	if (!PyArg_ParseTuple(args, "OOOO", &want, &second, &asctime, &record_type))
		return NULL;
	if (!PyCallable_Check(want) || !PyCallable_Check(second) || !PyCallable_Check(asctime) ||
	    !PyType_Check(record_type)) {
		PyErr_SetString(PyExc_TypeError, "setup() takes three callables and a type");
		return NULL;
	}
	replace(&hs.want, want);
	replace(&hs.second, second);
	replace(&hs.asctime, asctime);
	replace(&hs.record_type, record_type);
	hs.sec_text[0] = '\0';
	Py_RETURN_NONE;
}

/* wants(dict): the handler's logger name -> (lowest level, single levels). */
static PyObject *agent_wants(PyObject *self, PyObject *arg)
{
	(void)self;
	if (!PyDict_Check(arg) || !hs.want) {
		PyErr_SetString(PyExc_TypeError, "wants() takes a dict, after setup()");
		return NULL;
	}
	replace(&hs.wants, arg);
	hs.gen++;
	replace(&hs.last_name, NULL);
	replace(&hs.last_singles, NULL);
	Py_RETURN_NONE;
}

static PyMethodDef handler_methods[] = {
	{ "handle", handler_handle, METH_O, "handle(record) -> True: record it if a rule takes it" },
	{ "emit", handler_handle, METH_O, "emit(record): as handle()" },
	{ NULL, NULL, 0, NULL },
};

static PyType_Slot handler_slots[] = {
	{ Py_tp_doc, (void *)"The base of ltt.agent's handler: handle() in C" },
	{ Py_tp_methods, handler_methods },
	{ 0, NULL },
};

static PyType_Spec handler_spec = {
	"ltt._agent.Handler", 0, 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, handler_slots,
};

static PyMethodDef methods[] = {
	{ "event", (PyCFunction)(void (*)(void))agent_event, METH_FASTCALL,
	  "event(asctime, msg, logger_name, funcName, lineno, int_loglevel, thread, threadName)" },
	{ "wait", agent_wait, METH_VARARGS, "wait(generation, timeout_ms) -> generation" },
	{ "rules", agent_rules, METH_NOARGS, "rules() -> (generation, [rule, ...])" },
	{ "loggers", agent_loggers, METH_O, "loggers([name, ...])" },
	{ "setup", agent_setup, METH_VARARGS, "setup(want, second, asctime, LogRecord)" },
	{ "wants", agent_wants, METH_O, "wants({logger name: (lowest level, single levels)})" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT, "ltt._agent",
	"libltt-ust for ltt.agent: the event lttng_python:event and the agent's rules",
	-1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__agent(void);
PyMODINIT_FUNC PyInit__agent(void)
{
	PyObject *m, *type;
	size_t i;

	for (i = 0; i < K_NR; i++)
		if (!keys[i] && !(keys[i] = PyUnicode_InternFromString(key_names[i])))
			return NULL;
	m = PyModule_Create(&module);
	if (!m)
		return NULL;
	type = PyType_FromSpec(&handler_spec);
	if (!type || PyModule_AddObject(m, "Handler", type)) {
		Py_XDECREF(type);
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
