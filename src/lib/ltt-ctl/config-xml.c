// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-xml.c - saved session configurations: xml/session.xsd read into
 * the model of config-xml.h (parse, validate, check) and written out.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlwriter.h>

#include "common/attr.h"
#include "common/durable.h"
#include "common/uri.h"
#include "lib/ltt-ctl/config-xml.h"

/* The schema, compiled in from xml/session.xsd (session-xsd.c, generated). */
extern const char ltt_session_xsd[];

/* A configuration file larger than this is refused unread. */
#define CFG_FILE_MAX (16U << 20)

/* The first error libxml2 reports during a call. */
struct xml_errors {
	bool set;
	char msg[512];
	char file[LTT_PATH_MAX];
	long line;
};

static void xml_error(void *data, xmlErrorPtr e)
{
	struct xml_errors *st = data;
	size_t n;

	if (!st || st->set || !e)
		return;
	st->set = true;
	st->line = e->line;
	snprintf(st->msg, sizeof(st->msg), "%s", e->message ? e->message : "error");
	n = strlen(st->msg);
	while (n && (st->msg[n - 1] == '\n' || st->msg[n - 1] == ' '))
		st->msg[--n] = '\0';
	snprintf(st->file, sizeof(st->file), "%s", e->file ? e->file : "");
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static pthread_once_t schema_once = PTHREAD_ONCE_INIT;
static xmlSchemaPtr schema;

static void schema_load(void)
{
	xmlSchemaParserCtxtPtr pctxt;

	xmlInitParser();
	pctxt = xmlSchemaNewMemParserCtxt(ltt_session_xsd, (int)strlen(ltt_session_xsd));
	if (!pctxt)
		return;
	schema = xmlSchemaParse(pctxt);
	xmlSchemaFreeParserCtxt(pctxt);
}

void ltt_cfg_session_fini(struct ltt_cfg_session *s)
{
	size_t i;

	for (i = 0; s->channels && i < s->nr_channels; i++)
		free(s->channels[i].rules);
	free(s->channels);
	free(s->snap_outputs);
	s->channels = NULL;
	s->snap_outputs = NULL;
	s->nr_channels = 0;
	s->nr_snap_outputs = 0;
}

void ltt_cfg_set_fini(struct ltt_cfg_set *set)
{
	size_t i;

	if (!set)
		return;
	for (i = 0; i < set->nr; i++)
		ltt_cfg_session_fini(&set->v[i]);
	free(set->v);
	for (i = 0; i < set->nr_files; i++)
		free(set->files[i]);
	free(set->files);
	memset(set, 0, sizeof(*set));
}

/* Read the whole file at @path (NUL-terminated). */
static int slurp(const char *path, char **ret_buf, size_t *ret_len, char *err, size_t errlen)
{
	struct stat st;
	size_t len = 0;
	char *buf;
	ssize_t n;
	int fd;

	/* O_NONBLOCK: a FIFO given as a file must not hang us (refused below). */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		return -LTT_ERR_CONFIG_IO;
	}
	if (fstat(fd, &st)) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -LTT_ERR_CONFIG_IO;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > CFG_FILE_MAX) {
		set_err(err, errlen, "%s: %s", path,
			!S_ISREG(st.st_mode) ? "not a regular file" : "larger than 16 MiB");
		close(fd);
		return -LTT_ERR_CONFIG_IO;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -LTT_ERR_NOMEM;
	}
	while ((n = read(fd, buf + len, (size_t)st.st_size - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (n < 0) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		free(buf);
		return -LTT_ERR_CONFIG_IO;
	}
	buf[len] = '\0';
	*ret_buf = buf;
	*ret_len = len;
	return 0;
}

/* Parse and validate @path: the document, or the first error in @err. */
static int parse_valid(const char *path, xmlDocPtr *ret_doc, char *err, size_t errlen)
{
	struct xml_errors st = { 0 };
	xmlSchemaValidCtxtPtr vctxt;
	xmlDocPtr doc;
	size_t len;
	char *buf;
	int ret;

	ret = slurp(path, &buf, &len, err, errlen);
	if (ret)
		return ret;
	pthread_once(&schema_once, schema_load);
	if (!schema) {
		free(buf);
		set_err(err, errlen, "the library's schema does not load");
		return -LTT_ERR_NOMEM;
	}
	xmlSetStructuredErrorFunc(&st, xml_error);
	doc = xmlReadMemory(buf, (int)len, path, NULL, XML_PARSE_NONET | XML_PARSE_NOBLANKS);
	free(buf);
	if (!doc || st.set) {
		xmlSetStructuredErrorFunc(NULL, NULL);
		xmlFreeDoc(doc);
		set_err(err, errlen, "%s:%ld: not well-formed XML: %s", path,
			st.line > 0 ? st.line : 1,
			st.set ? st.msg : "empty document");
		return -LTT_ERR_CONFIG_MALFORMED;
	}
	vctxt = xmlSchemaNewValidCtxt(schema);
	if (!vctxt) {
		xmlSetStructuredErrorFunc(NULL, NULL);
		xmlFreeDoc(doc);
		return -LTT_ERR_NOMEM;
	}
	xmlSchemaSetValidStructuredErrors(vctxt, xml_error, &st);
	ret = xmlSchemaValidateDoc(vctxt, doc);
	xmlSchemaFreeValidCtxt(vctxt);
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (ret) {
		xmlFreeDoc(doc);
		set_err(err, errlen, "%s:%ld: invalid (session.xsd): %s", path, st.line,
			st.set ? st.msg : "does not follow the schema");
		return -LTT_ERR_CONFIG_INVALID;
	}
	*ret_doc = doc;
	return 0;
}

/* The first element child of @parent called @name, or NULL. */
static xmlNodePtr child(xmlNodePtr parent, const char *name)
{
	xmlNodePtr n;

	for (n = parent ? parent->children : NULL; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name))
			return n;
	return NULL;
}

/* The next element sibling of @n called like it, or NULL. */
static xmlNodePtr next_like(xmlNodePtr n)
{
	xmlNodePtr m;

	for (m = n->next; m; m = m->next)
		if (m->type == XML_ELEMENT_NODE && !strcmp((const char *)m->name, (const char *)n->name))
			return m;
	return NULL;
}

/*
 * Reading one file's values: the first that does not fit the model (too
 * long in bytes, a number out of its type) is the error, with its line.
 * The schema counts characters, the model bytes: a name of 255 characters
 * may be 1020 bytes of UTF-8, which only this sees.
 */
struct rd {
	const char *file;
	char *err;
	size_t errlen;
	int ret;
};

static void rd_fail(struct rd *rd, xmlNodePtr n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void rd_fail(struct rd *rd, xmlNodePtr n, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (rd->ret)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	set_err(rd->err, rd->errlen, "%s:%ld: <%s>: %s", rd->file, xmlGetLineNo(n),
		(const char *)n->name, what);
	rd->ret = -LTT_ERR_CONFIG_INVALID;
}

/*
 * The text of @n, copied whole into @buf (@len bytes, NUL included);
 * whitespace around kept as is (names are exact).  An absent @n is "".
 * Returns false (the error set in @rd) when it does not fit.
 */
static bool text(struct rd *rd, xmlNodePtr n, char *buf, size_t len)
{
	xmlChar *s;
	size_t l;

	buf[0] = '\0';
	if (rd->ret || !n)
		return false;
	s = xmlNodeGetContent(n);
	if (!s) {
		rd->ret = -LTT_ERR_NOMEM;
		return false;
	}
	l = strlen((const char *)s);
	if (l >= len)
		rd_fail(rd, n, "%zu bytes long; at most %zu bytes (UTF-8: a character may take up to 4)",
			l, len - 1);
	else
		memcpy(buf, s, l + 1);
	xmlFree(s);
	return !rd->ret;
}

/* The collapsed text of a schema-typed value (boolean, number, enumeration, URL). */
static bool token(struct rd *rd, xmlNodePtr n, char *buf, size_t len)
{
	char *p, *q;

	if (!text(rd, n, buf, len))
		return false;
	for (p = buf; *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'; p++)
		;
	memmove(buf, p, strlen(p) + 1);
	q = buf + strlen(buf);
	while (q > buf && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\n' || q[-1] == '\r'))
		*--q = '\0';
	return true;
}

static bool boolean(struct rd *rd, xmlNodePtr n)
{
	char buf[16];

	return token(rd, n, buf, sizeof(buf)) && (!strcmp(buf, "true") || !strcmp(buf, "1"));
}

/* A number of at most @max (the schema checked its form; leading zeros are allowed). */
static uint64_t number(struct rd *rd, xmlNodePtr n, uint64_t max)
{
	unsigned long long v;
	char buf[128];
	char *end;

	if (!token(rd, n, buf, sizeof(buf)))
		return 0;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || *end || buf[0] == '-' || v > max) {
		rd_fail(rd, n, "'%s' is not a number from 0 to %llu", buf, (unsigned long long)max);
		return 0;
	}
	return v;
}

static const char *const buffer_types[] = {
	[LTT_BUFFER_PER_UID] = "per-uid",
	[LTT_BUFFER_PER_PID] = "per-pid",
	[LTT_BUFFER_GLOBAL] = "global",
};
static const char *const loglevel_types[] = {
	[LTT_LOGLEVEL_ALL] = "all",
	[LTT_LOGLEVEL_RANGE] = "range",
	[LTT_LOGLEVEL_SINGLE] = "single",
};
static const char *const event_types[] = {
	[LTT_EVENT_TRACEPOINT] = "tracepoint",
	[LTT_EVENT_SYSCALL] = "syscall",
};

/* The index of @n's token in @names (the schema allows nothing else). */
static int lookup(struct rd *rd, xmlNodePtr n, const char *const *names, int nr)
{
	char buf[32];
	int i;

	if (!token(rd, n, buf, sizeof(buf)))
		return 0;
	for (i = 0; i < nr; i++)
		if (names[i] && !strcmp(names[i], buf))
			return i;
	rd_fail(rd, n, "'%s' is not one of the schema's values", buf);
	return 0;
}

#define LOOKUP(rd, n, names) lookup((rd), (n), (names), (int)(sizeof(names) / sizeof((names)[0])))

/*
 * A rule's <filter> and <exclusions> into @a; a value too long is refused
 * with its line, what is not valid is left for ltt_attr_check_rule() to
 * refuse (its check names it).
 */
static void read_filter(struct rd *rd, xmlNodePtr ev, struct ltt_rule_conf *a)
{
	char name[LTT_NAME_MAX];
	size_t used = 0, len;
	xmlNodePtr x;

	if (child(ev, "filter"))
		text(rd, child(ev, "filter"), a->filter, sizeof(a->filter));
	for (x = child(child(ev, "exclusions"), "exclusion"); x && !rd->ret; x = next_like(x)) {
		if (!token(rd, x, name, sizeof(name)))
			return;
		if (used + !!used + (len = strlen(name)) >= sizeof(a->exclusions)) {
			strcpy(a->exclusions, ",");	/* refused by the check */
			return;
		}
		if (used)
			a->exclusions[used++] = ',';
		memcpy(a->exclusions + used, name, len + 1);
		used += len;
	}
	if (used && ltt_attr_normalize_exclusions(a->pattern, a->exclusions, sizeof(a->exclusions)))
		strcpy(a->exclusions, ",");
}

static void read_rule(struct rd *rd, xmlNodePtr ev, struct ltt_cfg_rule *r)
{
	xmlNodePtr lv = child(ev, "loglevel");
	char level[32];

	memset(r, 0, sizeof(*r));
	r->line = xmlGetLineNo(ev);
	text(rd, child(ev, "pattern"), r->attr.pattern, sizeof(r->attr.pattern));
	r->attr.type = (enum ltt_event_type)LOOKUP(rd, child(ev, "type"), event_types);
	r->attr.loglevel_type = (enum ltt_loglevel_type)LOOKUP(rd, child(ev, "loglevel_type"),
							       loglevel_types);
	r->attr.loglevel = 0;
	/* -1, refused by the check: a level with "all", none with range or single. */
	if (lv && token(rd, lv, level, sizeof(level))) {
		if (r->attr.loglevel_type == LTT_LOGLEVEL_ALL ||
		    ltt_loglevel_parse(level, &r->attr.loglevel))
			r->attr.loglevel = -1;
	} else if (r->attr.loglevel_type != LTT_LOGLEVEL_ALL)
		r->attr.loglevel = -1;
	r->enabled = boolean(rd, child(ev, "enabled"));
	read_filter(rd, ev, &r->attr);
}

/* <contexts>: each <type> parsed; a name that is no type is kept with type 0. */
static void read_contexts(struct rd *rd, xmlNodePtr list, struct ltt_cfg_channel *c)
{
	char name[LTT_CTX_NAME_MAX];
	xmlNodePtr n;

	if (list)
		c->context_line = xmlGetLineNo(list);
	for (n = child(list, "context"); n; n = next_like(n)) {
		struct ltt_ctx *x = &c->contexts[c->nr_contexts];

		if (c->nr_contexts++ >= LTT_CTX_MAX)
			continue;
		name[0] = '\0';
		text(rd, child(n, "type"), name, sizeof(name));
		if (ltt_ctx_parse(name, x)) {
			memset(x, 0, sizeof(*x));
			snprintf(x->name, sizeof(x->name), "%s", name);
		}
	}
}

static void read_channel(struct rd *rd, xmlNodePtr ch, enum ltt_domain domain,
			 struct ltt_cfg_channel *c)
{
	xmlNodePtr ev;
	size_t n = 0;

	memset(c, 0, sizeof(*c));
	c->domain = domain;
	c->line = xmlGetLineNo(ch);
	text(rd, child(ch, "name"), c->attr.name, sizeof(c->attr.name));
	c->enabled = boolean(rd, child(ch, "enabled"));
	c->attr.overwrite = boolean(rd, child(ch, "overwrite"));
	c->attr.subbuf_size = number(rd, child(ch, "subbuf_size"), UINT64_MAX);
	c->attr.num_subbuf = number(rd, child(ch, "num_subbuf"), UINT64_MAX);
	c->attr.switch_timer_us = (uint32_t)number(rd, child(ch, "switch_timer_us"), UINT32_MAX);
	c->attr.read_timer_us = (uint32_t)number(rd, child(ch, "read_timer_us"), UINT32_MAX);
	c->attr.tracefile_size = number(rd, child(ch, "tracefile_size"), UINT64_MAX);
	c->attr.tracefile_count = number(rd, child(ch, "tracefile_count"), UINT64_MAX);
	c->attr.buffer_type =
		(enum ltt_buffer_type)LOOKUP(rd, child(ch, "buffer_type"), buffer_types);
	for (ev = child(child(ch, "events"), "event"); ev; ev = next_like(ev))
		n++;
	c->rules = calloc(n ? n : 1, sizeof(*c->rules));
	if (!c->rules) {
		rd->ret = rd->ret ? rd->ret : -LTT_ERR_NOMEM;
		return;
	}
	for (ev = child(child(ch, "events"), "event"); ev && !rd->ret; ev = next_like(ev))
		read_rule(rd, ev, &c->rules[c->nr_rules++]);
	read_contexts(rd, child(ch, "contexts"), c);
}

/* The output of a session: <local>, <default/>, <net> or <none/>. */
static void read_output(struct rd *rd, xmlNodePtr out, struct ltt_session_conf *a)
{
	xmlNodePtr n;

	if ((n = child(out, "local"))) {
		a->output_type = LTT_OUTPUT_LOCAL;
		text(rd, n, a->output, sizeof(a->output));
	} else if ((n = child(out, "net"))) {
		a->output_type = LTT_OUTPUT_NET;
		token(rd, n, a->output, sizeof(a->output));
	} else if (child(out, "none")) {
		a->output_type = LTT_OUTPUT_NONE;
	} else {
		a->output_type = LTT_OUTPUT_LOCAL;	/* <default/>: the daemon resolves it */
	}
}

/* <snapshot_outputs>: each <snapshot_output> with its name, directory or URL, max_size. */
static void read_snap_outputs(struct rd *rd, xmlNodePtr list, struct ltt_cfg_session *s)
{
	xmlNodePtr o;
	size_t n = 0;

	for (o = child(list, "snapshot_output"); o; o = next_like(o))
		n++;
	if (!n)
		return;
	s->snap_outputs = calloc(n, sizeof(*s->snap_outputs));
	if (!s->snap_outputs) {
		rd->ret = rd->ret ? rd->ret : -LTT_ERR_NOMEM;
		return;
	}
	for (o = child(list, "snapshot_output"); o && !rd->ret; o = next_like(o)) {
		struct ltt_cfg_snap_output *so = &s->snap_outputs[s->nr_snap_outputs++];

		so->line = xmlGetLineNo(o);
		text(rd, child(o, "name"), so->attr.name, sizeof(so->attr.name));
		so->attr.output_type = child(o, "net") ? LTT_OUTPUT_NET : LTT_OUTPUT_LOCAL;
		text(rd, child(o, so->attr.output_type == LTT_OUTPUT_NET ? "net" : "local"),
		     so->attr.output, sizeof(so->attr.output));
		so->attr.max_size = number(rd, child(o, "max_size"), UINT64_MAX);
	}
}

/* <rotation_schedules>: <timer_us> and/or <size>. */
static void read_rotation(struct rd *rd, xmlNodePtr rot, struct ltt_cfg_session *s)
{
	if (!rot)
		return;
	s->rotation_line = xmlGetLineNo(rot);
	s->rotate_timer_us = number(rd, child(rot, "timer_us"), UINT64_MAX);
	s->rotate_size = number(rd, child(rot, "size"), UINT64_MAX);
}

static const char *const tracker_types[] = { "vpid", "vuid", "vgid", "pid", "uid", "gid" };
static const char *const tracker_policies[] = {
	[LTT_TRACKER_ALL] = "all",
	[LTT_TRACKER_NONE] = "none",
	[LTT_TRACKER_SET] = "set",
};

/*
 * The <trackers> of a domain into @t (its domain's row).  What the schema
 * leaves open (ids with all or none, a set without ids, an id twice) is
 * marked for the check: policy SET with nr 0, or nr over the maximum.
 */
static void read_trackers(struct rd *rd, xmlNodePtr trs, struct ltt_cfg_tracker *t)
{
	xmlNodePtr tr, id;
	struct ltt_cfg_tracker *x;
	uint32_t k;

	for (tr = child(trs, "tracker"); tr; tr = next_like(tr)) {
		x = &t[LOOKUP(rd, child(tr, "type"), tracker_types)];
		x->policy = (enum ltt_tracker_policy)LOOKUP(rd, child(tr, "policy"), tracker_policies);
		x->line = xmlGetLineNo(tr);
		x->nr = 0;
		for (id = child(tr, "id"); id; id = next_like(id)) {
			if (x->policy != LTT_TRACKER_SET || x->nr == LTT_TRACKER_MAX_IDS) {
				x->nr = LTT_TRACKER_MAX_IDS + 1;	/* refused by the check */
				break;
			}
			x->ids[x->nr] = (uint32_t)number(rd, id, UINT32_MAX);
			for (k = 0; k < x->nr && x->ids[k] != x->ids[x->nr]; k++)
				;
			if (k < x->nr) {
				x->nr = LTT_TRACKER_MAX_IDS + 1;
				break;
			}
			x->nr++;
		}
	}
}

static int read_session(struct rd *rd, xmlNodePtr se, struct ltt_cfg_session *s)
{
	xmlNodePtr dom, ch;
	enum ltt_domain domain;
	size_t n = 0;

	memset(s, 0, sizeof(*s));
	s->line = xmlGetLineNo(se);
	text(rd, child(se, "name"), s->attr.name, sizeof(s->attr.name));
	read_output(rd, child(se, "output"), &s->attr);
	s->attr.snapshot = boolean(rd, child(se, "snapshot"));
	if (child(se, "live_timer_us"))
		s->attr.live_timer_us =
			(uint32_t)number(rd, child(se, "live_timer_us"), UINT32_MAX);
	s->started = boolean(rd, child(se, "started"));
	for (dom = child(child(se, "domains"), "domain"); dom; dom = next_like(dom))
		for (ch = child(child(dom, "channels"), "channel"); ch; ch = next_like(ch))
			n++;
	s->channels = calloc(n ? n : 1, sizeof(*s->channels));
	if (!s->channels)
		return rd->ret ? rd->ret : -LTT_ERR_NOMEM;
	for (dom = child(child(se, "domains"), "domain"); dom && !rd->ret; dom = next_like(dom)) {
		char type[16];

		token(rd, child(dom, "type"), type, sizeof(type));
		domain = !strcmp(type, "kernel") ? LTT_DOMAIN_KERNEL : LTT_DOMAIN_USER;
		read_trackers(rd, child(dom, "trackers"),
			      s->trackers.t[domain == LTT_DOMAIN_KERNEL ? 0 : 1]);
		for (ch = child(child(dom, "channels"), "channel"); ch && !rd->ret;
		     ch = next_like(ch))
			read_channel(rd, ch, domain, &s->channels[s->nr_channels++]);
	}
	read_snap_outputs(rd, child(se, "snapshot_outputs"), s);
	read_rotation(rd, child(se, "rotation_schedules"), s);
	return rd->ret;
}

static bool same_rule(const struct ltt_rule_conf *a, const struct ltt_rule_conf *b)
{
	return !strcmp(a->pattern, b->pattern) && a->type == b->type &&
	       a->loglevel_type == b->loglevel_type && a->loglevel == b->loglevel &&
	       !strcmp(a->filter, b->filter) && !strcmp(a->exclusions, b->exclusions);
}

/* The contexts of @c: each a known type of the channel's domain, none twice. */
static int check_contexts(const struct ltt_cfg_session *s, const struct ltt_cfg_channel *c,
			  char *err, size_t errlen)
{
	uint32_t i, j;

	if (!c->nr_contexts)
		return 0;
	if (c->nr_contexts > LTT_CTX_MAX) {
		set_err(err, errlen, "%s:%ld: channel '%s': more than %d contexts", s->file,
			c->context_line, c->attr.name, LTT_CTX_MAX);
		return -LTT_ERR_CONFIG_INVALID;
	}
	for (i = 0; i < c->nr_contexts; i++) {
		if (!c->contexts[i].type) {
			set_err(err, errlen, "%s:%ld: channel '%s': context '%s': %s", s->file,
				c->context_line, c->attr.name, c->contexts[i].name,
				ltt_strerror(-LTT_ERR_CONTEXT_TYPE));
			return -LTT_ERR_CONFIG_INVALID;
		}
		if (!(ltt_ctx_domains(&c->contexts[i]) & (c->domain == LTT_DOMAIN_KERNEL ?
							    LTT_CTX_DOMAIN_KERNEL : LTT_CTX_DOMAIN_USER))) {
			set_err(err, errlen, "%s:%ld: channel '%s': context '%s': %s", s->file,
				c->context_line, c->attr.name, c->contexts[i].name,
				ltt_strerror(-LTT_ERR_CONTEXT_DOMAIN));
			return -LTT_ERR_CONFIG_INVALID;
		}
		for (j = 0; j < i; j++) {
			if (ltt_ctx_same(&c->contexts[j], &c->contexts[i])) {
				set_err(err, errlen, "%s:%ld: channel '%s': context '%s' twice", s->file,
					c->context_line, c->attr.name, c->contexts[i].name);
				return -LTT_ERR_CONFIG_INVALID;
			}
		}
	}
	return 0;
}

/* The rules of @c: each valid for the domain, none twice. */
static int check_rules(const struct ltt_cfg_session *s, const struct ltt_cfg_channel *c,
		       char *err, size_t errlen)
{
	size_t i, j;
	int ret;

	for (i = 0; i < c->nr_rules; i++) {
		const struct ltt_cfg_rule *r = &c->rules[i];

		if (r->attr.loglevel < 0 ||
		    (r->attr.loglevel_type == LTT_LOGLEVEL_ALL && r->attr.loglevel))
			ret = -LTT_ERR_LOGLEVEL;
		else
			ret = ltt_attr_check_rule(&r->attr);
		if (!ret)
			ret = ltt_attr_check_rule_domain(&r->attr, c->domain);
		if (ret) {
			set_err(err, errlen, "%s:%ld: event rule '%s': %s", s->file, r->line,
				r->attr.pattern, ltt_strerror(ret));
			return -LTT_ERR_CONFIG_INVALID;
		}
		for (j = 0; j < i; j++)
			if (same_rule(&c->rules[j].attr, &r->attr)) {
				set_err(err, errlen, "%s:%ld: event rule '%s' is in channel '%s' twice (line %ld)",
					s->file, r->line, r->attr.pattern, c->attr.name,
					c->rules[j].line);
				return -LTT_ERR_CONFIG_INVALID;
			}
	}
	return 0;
}

/* A channel valid for its domain, named once, of its domain's buffer type. */
static int check_channel(const struct ltt_cfg_session *s, size_t i, char *err, size_t errlen)
{
	const struct ltt_cfg_channel *c = &s->channels[i];
	struct ltt_channel_conf attr = c->attr;
	size_t j;
	int ret;

	ret = ltt_attr_check_channel(&attr, c->domain);
	if (!ret && attr.buffer_type != c->attr.buffer_type)
		ret = -LTT_ERR_BUFFER_TYPE;
	if (ret) {
		set_err(err, errlen, "%s:%ld: channel '%s': %s", s->file, c->line, c->attr.name,
			ltt_strerror(ret));
		return -LTT_ERR_CONFIG_INVALID;
	}
	for (j = 0; j < i; j++) {
		const struct ltt_cfg_channel *o = &s->channels[j];

		if (o->domain != c->domain)
			continue;
		if (!strcmp(o->attr.name, c->attr.name)) {
			set_err(err, errlen, "%s:%ld: channel '%s' is in the %s domain twice (line %ld)",
				s->file, c->line, c->attr.name, ltt_domain_name(c->domain), o->line);
			return -LTT_ERR_CONFIG_INVALID;
		}
		if (o->attr.buffer_type != c->attr.buffer_type) {
			set_err(err, errlen, "%s:%ld: channel '%s': %s", s->file, c->line,
				c->attr.name, ltt_strerror(-LTT_ERR_BUFFER_TYPE_MISMATCH));
			return -LTT_ERR_CONFIG_INVALID;
		}
	}
	ret = check_contexts(s, c, err, errlen);
	return ret ? ret : check_rules(s, c, err, errlen);
}

/* The snapshot outputs of @s: a snapshot session's, whose own output is none. */
static int check_snap_outputs(const struct ltt_cfg_session *s, char *err, size_t errlen)
{
	const struct ltt_cfg_snap_output *o;
	int ret;

	if (!s->nr_snap_outputs)
		return 0;
	o = &s->snap_outputs[0];
	if (!s->attr.snapshot) {
		set_err(err, errlen, "%s:%ld: session '%s' has snapshot outputs but is not a snapshot session",
			s->file, o->line, s->attr.name);
		return -LTT_ERR_CONFIG_INVALID;
	}
	if (s->attr.output_type != LTT_OUTPUT_NONE) {
		set_err(err, errlen, "%s:%ld: session '%s': a snapshot session with <snapshot_outputs> has the output <none/> (the snapshot outputs are where it writes)",
			s->file, s->line, s->attr.name);
		return -LTT_ERR_CONFIG_INVALID;
	}
	if (s->nr_snap_outputs > 1) {
		set_err(err, errlen, "%s:%ld: session '%s': a snapshot session has one snapshot output (as LTTng's), this one %zu",
			s->file, s->snap_outputs[1].line, s->attr.name, s->nr_snap_outputs);
		return -LTT_ERR_CONFIG_INVALID;
	}
	ret = ltt_attr_check_snapshot_output(&o->attr, true);
	if (ret) {
		set_err(err, errlen, "%s:%ld: snapshot output '%s': %s", s->file, o->line,
			o->attr.name, ltt_strerror(ret));
		return -LTT_ERR_CONFIG_INVALID;
	}
	return 0;
}

/* The rotation schedule of @s: valid values, a session with an output (local or net://), not a snapshot one. */
static int check_rotation(const struct ltt_cfg_session *s, char *err, size_t errlen)
{
	int ret;

	if (!s->rotation_line)
		return 0;
	ret = ltt_attr_check_rotation(s->rotate_timer_us, s->rotate_size);
	if (!ret && s->attr.snapshot)
		ret = -LTT_ERR_ROTATE_SNAPSHOT;
	if (!ret && s->attr.output_type == LTT_OUTPUT_NONE)
		ret = -LTT_ERR_ROTATE_OUTPUT;
	if (ret) {
		set_err(err, errlen, "%s:%ld: session '%s': rotation schedule: %s", s->file,
			s->rotation_line, s->attr.name, ltt_strerror(ret));
		return -LTT_ERR_CONFIG_INVALID;
	}
	return 0;
}

/* Each tracker: a set of 1 to LTT_TRACKER_MAX_IDS ids, each once; no id otherwise. */
static int check_trackers(const struct ltt_cfg_session *s, char *err, size_t errlen)
{
	const struct ltt_cfg_tracker *t;
	size_t d, k;

	for (d = 0; d < 2; d++) {
		for (k = 0; k < LTT_TRACKER_NR; k++) {
			t = &s->trackers.t[d][k];
			if (d == 1 && k >= LTT_TRACKER_NR_USER && t->policy != LTT_TRACKER_ALL) {
				set_err(err, errlen, "%s:%ld: %s tracker: %s", s->file, t->line,
					tracker_types[k], ltt_strerror(LTT_ERR_TRACKER_DOMAIN));
				return -LTT_ERR_CONFIG_INVALID;
			}
			if (t->nr <= LTT_TRACKER_MAX_IDS && (t->policy == LTT_TRACKER_SET) == !!t->nr)
				continue;
			set_err(err, errlen, "%s:%ld: %s tracker: %s", s->file, t->line,
				tracker_types[k],
				t->policy != LTT_TRACKER_SET ? "'all' and 'none' list no id" :
				t->nr ? "an id is listed twice, or more than 1024 ids" :
				"a set lists at least one id ('none' for no process)");
			return -LTT_ERR_CONFIG_INVALID;
		}
	}
	return 0;
}

int ltt_cfg_xml_check_session(const struct ltt_cfg_session *s, char *err, size_t errlen)
{
	size_t i;
	int ret;

	ret = ltt_attr_check_session_request(&s->attr);
	if (!ret && !s->attr.name[0])
		ret = -LTT_ERR_SESSION_NAME;
	if (ret) {
		set_err(err, errlen, "%s:%ld: session '%s': %s", s->file, s->line, s->attr.name,
			ltt_strerror(ret));
		return -LTT_ERR_CONFIG_INVALID;
	}
	for (i = 0; i < s->nr_channels; i++) {
		ret = check_channel(s, i, err, errlen);
		if (ret)
			return ret;
	}
	ret = check_snap_outputs(s, err, errlen);
	if (!ret)
		ret = check_rotation(s, err, errlen);
	return ret ? ret : check_trackers(s, err, errlen);
}

/* Read and check the sessions of @doc into @v (room for all); @file names them. */
static int read_doc(xmlDocPtr doc, const char *file, const struct ltt_cfg_set *set,
		    struct ltt_cfg_session *v, size_t *nr, char *err, size_t errlen)
{
	struct rd rd = { .file = file, .err = err, .errlen = errlen };
	xmlNodePtr se;
	size_t i;
	int ret;

	for (se = child(xmlDocGetRootElement(doc), "session"); se; se = next_like(se)) {
		struct ltt_cfg_session *s = &v[*nr];

		ret = read_session(&rd, se, s);
		s->file = file;
		(*nr)++;
		if (!ret)
			ret = ltt_cfg_xml_check_session(s, err, errlen);
		if (ret)
			return ret;
		for (i = 0; i < set->nr; i++)
			if (!strcmp(set->v[i].attr.name, s->attr.name)) {
				set_err(err, errlen, "%s:%ld: session '%s' is also in %s (line %ld)",
					file, s->line, s->attr.name, set->v[i].file,
					set->v[i].line);
				return -LTT_ERR_CONFIG_INVALID;
			}
	}
	return 0;
}

int ltt_cfg_xml_read(struct ltt_cfg_set *set, const char *path, char *err, size_t errlen)
{
	struct ltt_cfg_session *v = NULL;
	char **files = NULL, *file = NULL;
	xmlDocPtr doc = NULL;
	xmlNodePtr se;
	size_t i, n = 0, nr = 0;
	int ret;

	ret = parse_valid(path, &doc, err, errlen);
	if (ret)
		return ret;
	for (se = child(xmlDocGetRootElement(doc), "session"); se; se = next_like(se))
		n++;
	file = strdup(path);
	files = realloc(set->files, (set->nr_files + 1) * sizeof(*files));
	if (files)
		set->files = files;
	v = calloc(set->nr + n, sizeof(*v));
	if (!file || !files || !v) {
		ret = -LTT_ERR_NOMEM;
		goto out;
	}
	ret = read_doc(doc, file, set, v + set->nr, &nr, err, errlen);
	if (ret)
		goto out;
	/* All read and checked: the set takes them. */
	if (set->nr)	/* set->v is NULL before the first file */
		memcpy(v, set->v, set->nr * sizeof(*v));
	free(set->v);
	set->v = v;
	set->nr += nr;
	set->files[set->nr_files++] = file;
	v = NULL;
	file = NULL;
	nr = 0;
out:
	for (i = 0; v && i < nr; i++)
		ltt_cfg_session_fini(&v[set->nr + i]);
	free(v);
	free(file);
	xmlFreeDoc(doc);
	return ret;
}

/* Writing: each call appends one element; any failure sticks in *ret. */
struct writer {
	xmlTextWriterPtr w;
	int ret;
};

static void put(struct writer *wr, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void put(struct writer *wr, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (wr->ret < 0)
		return;
	va_start(ap, fmt);
	wr->ret = xmlTextWriterWriteVFormatElement(wr->w, BAD_CAST name, fmt, ap);
	va_end(ap);
}

static void open_el(struct writer *wr, const char *name)
{
	if (wr->ret >= 0)
		wr->ret = xmlTextWriterStartElement(wr->w, BAD_CAST name);
}

static void close_el(struct writer *wr)
{
	if (wr->ret >= 0)
		wr->ret = xmlTextWriterEndElement(wr->w);
}

static const char *yes(bool b)
{
	return b ? "true" : "false";
}

static void write_rule(struct writer *wr, const struct ltt_event_rule_info *r)
{
	open_el(wr, "event");
	put(wr, "pattern", "%s", r->attr.pattern);
	put(wr, "type", "%s", event_types[r->attr.type == LTT_EVENT_SYSCALL]);
	put(wr, "loglevel_type", "%s",
	    loglevel_types[r->attr.loglevel_type <= LTT_LOGLEVEL_SINGLE ? r->attr.loglevel_type : 0]);
	if (r->attr.loglevel_type != LTT_LOGLEVEL_ALL)
		put(wr, "loglevel", "%s", ltt_loglevel_name(r->attr.loglevel));
	put(wr, "enabled", "%s", yes(r->enabled));
	if (r->attr.filter)
		put(wr, "filter", "%s", r->attr.filter);
	if (r->attr.exclusions) {
		const char *p = r->attr.exclusions;

		open_el(wr, "exclusions");
		while (*p) {
			int len = (int)strcspn(p, ",");

			put(wr, "exclusion", "%.*s", len, p);
			p += len + (p[len] == ',');
		}
		close_el(wr);
	}
	close_el(wr);
}

static void write_contexts(struct writer *wr, const struct ltt_cfg_contexts *ctxs,
			   const struct ltt_channel_info *c)
{
	size_t i, n = 0;

	for (i = 0; ctxs && i < ctxs->n; i++) {
		const struct ltt_context_info *x = &ctxs->v[i];

		if (x->domain != c->domain || strcmp(x->channel, c->attr.name))
			continue;
		if (!n++)
			open_el(wr, "contexts");
		open_el(wr, "context");
		put(wr, "type", "%s", x->context.name);
		close_el(wr);
	}
	if (n)
		close_el(wr);
}

static void write_channel(struct writer *wr, const struct ltt_session_detail *d,
			  const struct ltt_cfg_contexts *ctxs, const struct ltt_channel_info *c)
{
	enum ltt_buffer_type bt = c->attr.buffer_type;
	size_t i;

	if (bt == LTT_BUFFER_DEFAULT || bt > LTT_BUFFER_GLOBAL)
		bt = c->domain == LTT_DOMAIN_KERNEL ? LTT_BUFFER_GLOBAL : LTT_BUFFER_PER_UID;
	open_el(wr, "channel");
	put(wr, "name", "%s", c->attr.name);
	put(wr, "enabled", "%s", yes(c->enabled));
	put(wr, "overwrite", "%s", yes(c->attr.overwrite));
	put(wr, "subbuf_size", "%llu", (unsigned long long)c->attr.subbuf_size);
	put(wr, "num_subbuf", "%llu", (unsigned long long)c->attr.num_subbuf);
	put(wr, "switch_timer_us", "%u", c->attr.switch_timer_us);
	put(wr, "read_timer_us", "%u", c->attr.read_timer_us);
	put(wr, "tracefile_size", "%llu", (unsigned long long)c->attr.tracefile_size);
	put(wr, "tracefile_count", "%llu", (unsigned long long)c->attr.tracefile_count);
	put(wr, "buffer_type", "%s", buffer_types[bt]);
	open_el(wr, "events");
	for (i = 0; i < d->nr_rules; i++)
		if (d->rules[i].domain == c->domain && !strcmp(d->rules[i].channel, c->attr.name))
			write_rule(wr, &d->rules[i]);
	close_el(wr);
	write_contexts(wr, ctxs, c);
	close_el(wr);
}

/* A snapshot session's snapshot outputs and a rotation schedule, when set. */
static void write_extra(struct writer *wr, const struct ltt_cfg_extra *x)
{
	size_t i;

	if (x->nr_snap_outputs) {
		open_el(wr, "snapshot_outputs");
		for (i = 0; i < x->nr_snap_outputs; i++) {
			const struct ltt_snapshot_output *o = &x->snap_outputs[i];

			open_el(wr, "snapshot_output");
			put(wr, "name", "%s", o->name);
			put(wr, o->output_type == LTT_OUTPUT_NET ? "net" : "local", "%s", o->output);
			put(wr, "max_size", "%llu", (unsigned long long)o->max_size);
			close_el(wr);
		}
		close_el(wr);
	}
	if (x->rotate_timer_us || x->rotate_size) {
		open_el(wr, "rotation_schedules");
		if (x->rotate_timer_us)
			put(wr, "timer_us", "%llu", (unsigned long long)x->rotate_timer_us);
		if (x->rotate_size)
			put(wr, "size", "%llu", (unsigned long long)x->rotate_size);
		close_el(wr);
	}
}

/* A domain's trackers that do not include every process (row @t); is there one? */
static bool write_trackers(struct writer *wr, const struct ltt_cfg_tracker *t, bool write)
{
	bool any = false;
	size_t k, i;

	for (k = 0; k < LTT_TRACKER_NR; k++) {
		if (t[k].policy == LTT_TRACKER_ALL || t[k].policy > LTT_TRACKER_SET)
			continue;
		if (!write)
			return true;
		if (!any)
			open_el(wr, "trackers");
		any = true;
		open_el(wr, "tracker");
		put(wr, "type", "%s", tracker_types[k]);
		put(wr, "policy", "%s", tracker_policies[t[k].policy]);
		for (i = 0; t[k].policy == LTT_TRACKER_SET && i < t[k].nr; i++)
			put(wr, "id", "%lu", (unsigned long)t[k].ids[i]);
		close_el(wr);
	}
	if (any)
		close_el(wr);
	return any;
}

static void write_session(struct writer *wr, const struct ltt_session_detail *d,
			  const struct ltt_cfg_extra *x)
{
	static const enum ltt_domain domains[] = { LTT_DOMAIN_KERNEL, LTT_DOMAIN_USER };
	static const struct ltt_cfg_trackers all;	/* every process */
	const struct ltt_cfg_trackers *trackers = x->trackers ? x->trackers : &all;
	const struct ltt_session_info *s = &d->info;
	size_t i, j;

	open_el(wr, "session");
	put(wr, "name", "%s", s->name);
	open_el(wr, "output");
	if (s->output_type == LTT_OUTPUT_LOCAL)
		put(wr, "local", "%s", s->output);
	else if (s->output_type == LTT_OUTPUT_NET)
		put(wr, "net", "%s", s->output);
	else
		put(wr, "none", "%s", "");
	close_el(wr);
	put(wr, "snapshot", "%s", yes(s->snapshot));
	if (s->live_timer_us)
		put(wr, "live_timer_us", "%u", s->live_timer_us);
	put(wr, "started", "%s", yes(s->active));
	open_el(wr, "domains");
	for (i = 0; i < 2; i++) {
		bool any = false;

		for (j = 0; j < d->nr_channels; j++)
			any = any || d->channels[j].domain == domains[i];
		if (!any && !write_trackers(wr, trackers->t[i], false))
			continue;
		open_el(wr, "domain");
		put(wr, "type", "%s", ltt_domain_name(domains[i]));
		open_el(wr, "channels");
		for (j = 0; j < d->nr_channels; j++)
			if (d->channels[j].domain == domains[i])
				write_channel(wr, d, &x->contexts, &d->channels[j]);
		close_el(wr);
		write_trackers(wr, trackers->t[i], true);
		close_el(wr);
	}
	close_el(wr);
	write_extra(wr, x);
	close_el(wr);
}

int ltt_cfg_xml_write(const char *path, struct ltt_session_detail *const *details,
		      const struct ltt_cfg_extra *extras, size_t n, char *err, size_t errlen)
{
	struct writer wr = { .ret = 0 };
	xmlBufferPtr buf = xmlBufferCreate();
	size_t i;
	int ret;

	wr.w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	if (!wr.w) {
		xmlBufferFree(buf);
		set_err(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -LTT_ERR_CONFIG_IO;
	}
	xmlTextWriterSetIndent(wr.w, 1);
	xmlTextWriterSetIndentString(wr.w, BAD_CAST "  ");
	wr.ret = xmlTextWriterStartDocument(wr.w, NULL, "UTF-8", NULL);
	open_el(&wr, "sessions");
	if (wr.ret >= 0)
		wr.ret = xmlTextWriterWriteFormatAttribute(wr.w, BAD_CAST "version", "%d",
							   LTT_CFG_VERSION);
	for (i = 0; i < n; i++)
		write_session(&wr, details[i], &extras[i]);
	close_el(&wr);
	if (wr.ret >= 0)
		wr.ret = xmlTextWriterEndDocument(wr.w);
	xmlFreeTextWriter(wr.w);	/* flushes into buf */
	/* whole or not at all, even across a crash or a power loss */
	ret = wr.ret < 0 ? -ENOMEM : ltt_file_replace(path, xmlBufferContent(buf),
						       (size_t)xmlBufferLength(buf), 0600);
	xmlBufferFree(buf);
	if (ret) {
		set_err(err, errlen, "%s: %s", path, strerror(-ret));
		return -LTT_ERR_CONFIG_IO;
	}
	return 0;
}
