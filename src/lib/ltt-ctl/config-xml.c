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

void ltt_cfg_set_fini(struct ltt_cfg_set *set)
{
	size_t i, j;

	if (!set)
		return;
	for (i = 0; i < set->nr; i++) {
		for (j = 0; j < set->v[i].nr_channels; j++)
			free(set->v[i].channels[j].rules);
		free(set->v[i].channels);
	}
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

/* The text of @n, copied whole into @buf; whitespace around kept as is (names are exact). */
static int text(xmlNodePtr n, char *buf, size_t len)
{
	xmlChar *s = n ? xmlNodeGetContent(n) : NULL;
	int ret = 0;

	if (!s || strlen((const char *)s) >= len)
		ret = -1;
	else
		strcpy(buf, (const char *)s);
	xmlFree(s);
	return ret;
}

/* The collapsed text of a schema-typed value (boolean, number, enumeration). */
static int token(xmlNodePtr n, char *buf, size_t len)
{
	char *p, *q;

	if (text(n, buf, len))
		return -1;
	for (p = buf; *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'; p++)
		;
	memmove(buf, p, strlen(p) + 1);
	q = buf + strlen(buf);
	while (q > buf && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\n' || q[-1] == '\r'))
		*--q = '\0';
	return 0;
}

static bool boolean(xmlNodePtr n)
{
	char buf[16];

	return !token(n, buf, sizeof(buf)) && (!strcmp(buf, "true") || !strcmp(buf, "1"));
}

static uint64_t number(xmlNodePtr n)
{
	char buf[32];

	return token(n, buf, sizeof(buf)) ? 0 : strtoull(buf, NULL, 10);
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
static int lookup(xmlNodePtr n, const char *const *names, int nr)
{
	char buf[32];
	int i;

	if (token(n, buf, sizeof(buf)))
		return 0;
	for (i = 0; i < nr; i++)
		if (names[i] && !strcmp(names[i], buf))
			return i;
	return 0;
}

#define LOOKUP(n, names) lookup((n), (names), (int)(sizeof(names) / sizeof((names)[0])))

/*
 * A rule's <filter> and <exclusions> into @a; what does not fit or is not
 * valid is left for ltt_attr_check_rule() to refuse (its check names it).
 */
static void read_filter(xmlNodePtr ev, struct ltt_rule_conf *a)
{
	char name[LTT_NAME_MAX];
	size_t used = 0, len;
	xmlNodePtr x;

	if (child(ev, "filter") && text(child(ev, "filter"), a->filter, sizeof(a->filter)))
		memset(a->filter, 'x', sizeof(a->filter));	/* too long: no NUL, refused */
	for (x = child(child(ev, "exclusions"), "exclusion"); x; x = next_like(x)) {
		if (token(x, name, sizeof(name)) ||
		    used + !!used + (len = strlen(name)) >= sizeof(a->exclusions)) {
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

static void read_rule(xmlNodePtr ev, struct ltt_cfg_rule *r)
{
	char level[32];

	memset(r, 0, sizeof(*r));
	r->line = xmlGetLineNo(ev);
	text(child(ev, "pattern"), r->attr.pattern, sizeof(r->attr.pattern));
	r->attr.type = (enum ltt_event_type)LOOKUP(child(ev, "type"), event_types);
	r->attr.loglevel_type = (enum ltt_loglevel_type)LOOKUP(child(ev, "loglevel_type"),
							       loglevel_types);
	r->attr.loglevel = 0;
	/* -1, refused by the check: a level with "all", none with range or single. */
	if (!token(child(ev, "loglevel"), level, sizeof(level))) {
		if (r->attr.loglevel_type == LTT_LOGLEVEL_ALL ||
		    ltt_loglevel_parse(level, &r->attr.loglevel))
			r->attr.loglevel = -1;
	} else if (r->attr.loglevel_type != LTT_LOGLEVEL_ALL)
		r->attr.loglevel = -1;
	r->enabled = boolean(child(ev, "enabled"));
	read_filter(ev, &r->attr);
}

static int read_channel(xmlNodePtr ch, enum ltt_domain domain, struct ltt_cfg_channel *c)
{
	xmlNodePtr ev;
	size_t n = 0;

	memset(c, 0, sizeof(*c));
	c->domain = domain;
	c->line = xmlGetLineNo(ch);
	text(child(ch, "name"), c->attr.name, sizeof(c->attr.name));
	c->enabled = boolean(child(ch, "enabled"));
	c->attr.overwrite = boolean(child(ch, "overwrite"));
	c->attr.subbuf_size = number(child(ch, "subbuf_size"));
	c->attr.num_subbuf = number(child(ch, "num_subbuf"));
	c->attr.switch_timer_us = (uint32_t)number(child(ch, "switch_timer_us"));
	c->attr.read_timer_us = (uint32_t)number(child(ch, "read_timer_us"));
	c->attr.tracefile_size = number(child(ch, "tracefile_size"));
	c->attr.tracefile_count = number(child(ch, "tracefile_count"));
	c->attr.buffer_type = (enum ltt_buffer_type)LOOKUP(child(ch, "buffer_type"), buffer_types);
	for (ev = child(child(ch, "events"), "event"); ev; ev = next_like(ev))
		n++;
	c->rules = calloc(n ? n : 1, sizeof(*c->rules));
	if (!c->rules)
		return -LTT_ERR_NOMEM;
	for (ev = child(child(ch, "events"), "event"); ev; ev = next_like(ev))
		read_rule(ev, &c->rules[c->nr_rules++]);
	return 0;
}

/* The output of a session: <local>, <default/>, <net> or <none/>. */
static void read_output(xmlNodePtr out, struct ltt_session_conf *a)
{
	xmlNodePtr n;

	if ((n = child(out, "local"))) {
		a->output_type = LTT_OUTPUT_LOCAL;
		text(n, a->output, sizeof(a->output));
	} else if ((n = child(out, "net"))) {
		a->output_type = LTT_OUTPUT_NET;
		token(n, a->output, sizeof(a->output));
	} else if (child(out, "none")) {
		a->output_type = LTT_OUTPUT_NONE;
	} else {
		a->output_type = LTT_OUTPUT_LOCAL;	/* <default/>: the daemon resolves it */
	}
}

static int read_session(xmlNodePtr se, struct ltt_cfg_session *s)
{
	xmlNodePtr dom, ch;
	enum ltt_domain domain;
	size_t n = 0;
	int ret;

	memset(s, 0, sizeof(*s));
	s->line = xmlGetLineNo(se);
	text(child(se, "name"), s->attr.name, sizeof(s->attr.name));
	read_output(child(se, "output"), &s->attr);
	s->attr.snapshot = boolean(child(se, "snapshot"));
	s->attr.live_timer_us = (uint32_t)number(child(se, "live_timer_us"));
	s->started = boolean(child(se, "started"));
	for (dom = child(child(se, "domains"), "domain"); dom; dom = next_like(dom))
		for (ch = child(child(dom, "channels"), "channel"); ch; ch = next_like(ch))
			n++;
	s->channels = calloc(n ? n : 1, sizeof(*s->channels));
	if (!s->channels)
		return -LTT_ERR_NOMEM;
	for (dom = child(child(se, "domains"), "domain"); dom; dom = next_like(dom)) {
		char type[16];

		token(child(dom, "type"), type, sizeof(type));
		domain = !strcmp(type, "kernel") ? LTT_DOMAIN_KERNEL : LTT_DOMAIN_USER;
		for (ch = child(child(dom, "channels"), "channel"); ch; ch = next_like(ch)) {
			ret = read_channel(ch, domain, &s->channels[s->nr_channels]);
			s->nr_channels++;
			if (ret)
				return ret;
		}
	}
	return 0;
}

static bool same_rule(const struct ltt_rule_conf *a, const struct ltt_rule_conf *b)
{
	return !strcmp(a->pattern, b->pattern) && a->type == b->type &&
	       a->loglevel_type == b->loglevel_type && a->loglevel == b->loglevel &&
	       !strcmp(a->filter, b->filter) && !strcmp(a->exclusions, b->exclusions);
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
	return check_rules(s, c, err, errlen);
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
	return 0;
}

/* Read and check the sessions of @doc into @v (room for all); @file names them. */
static int read_doc(xmlDocPtr doc, const char *file, const struct ltt_cfg_set *set,
		    struct ltt_cfg_session *v, size_t *nr, char *err, size_t errlen)
{
	xmlNodePtr se;
	size_t i;
	int ret;

	for (se = child(xmlDocGetRootElement(doc), "session"); se; se = next_like(se)) {
		struct ltt_cfg_session *s = &v[*nr];

		ret = read_session(se, s);
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
	for (i = 0; v && i < nr; i++) {
		size_t j;

		for (j = 0; j < v[set->nr + i].nr_channels; j++)
			free(v[set->nr + i].channels[j].rules);
		free(v[set->nr + i].channels);
	}
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

static void write_channel(struct writer *wr, const struct ltt_session_detail *d,
			  const struct ltt_channel_info *c)
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
	close_el(wr);
}

static void write_session(struct writer *wr, const struct ltt_session_detail *d)
{
	static const enum ltt_domain domains[] = { LTT_DOMAIN_KERNEL, LTT_DOMAIN_USER };
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
		if (!any)
			continue;
		open_el(wr, "domain");
		put(wr, "type", "%s", ltt_domain_name(domains[i]));
		open_el(wr, "channels");
		for (j = 0; j < d->nr_channels; j++)
			if (d->channels[j].domain == domains[i])
				write_channel(wr, d, &d->channels[j]);
		close_el(wr);
		close_el(wr);
	}
	close_el(wr);
	close_el(wr);
}

int ltt_cfg_xml_write(const char *path, struct ltt_session_detail *const *details, size_t n,
		      char *err, size_t errlen)
{
	struct writer wr = { .ret = 0 };
	char tmp[LTT_PATH_MAX + 16];
	size_t i;
	int fd;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", path) >= sizeof(tmp)) {
		set_err(err, errlen, "%s: path too long", path);
		return -LTT_ERR_CONFIG_IO;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		return -LTT_ERR_CONFIG_IO;
	}
	close(fd);
	wr.w = xmlNewTextWriterFilename(tmp, 0);
	if (!wr.w) {
		unlink(tmp);
		set_err(err, errlen, "%s: can't write", tmp);
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
		write_session(&wr, details[i]);
	close_el(&wr);
	if (wr.ret >= 0)
		wr.ret = xmlTextWriterEndDocument(wr.w);
	if (wr.ret >= 0)
		wr.ret = xmlTextWriterFlush(wr.w);
	xmlFreeTextWriter(wr.w);	/* flushes and closes the file */
	if (wr.ret < 0 || rename(tmp, path)) {
		set_err(err, errlen, "%s: %s", path, wr.ret < 0 ? "write failed" : strerror(errno));
		unlink(tmp);
		return -LTT_ERR_CONFIG_IO;
	}
	return 0;
}
