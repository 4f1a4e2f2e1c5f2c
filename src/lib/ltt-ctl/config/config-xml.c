// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-xml.c - saved session configurations: the words of xml/session.xsd
 * and a file read into the model of config-xml.h (parse, validate, then
 * config-check.c checks it); config-xml-write.c writes the format out.
 * Both are the XML module's (config-module.h), which exports the table at
 * the end of this file and nothing else.
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

#include "common/model/attr.h"
#include "common/model/uri.h"
#include "lib/ltt-ctl/config/config-check.h"
#include "lib/ltt-ctl/config/config-lttng-write.h"
#include "lib/ltt-ctl/config/config-lttng.h"
#include "lib/ltt-ctl/config/config-module.h"
#include "lib/ltt-ctl/config/config-rd.h"
#include "lib/ltt-ctl/config/config-xml-write.h"
#include "lib/ltt-ctl/config/config-xml.h"

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

/* libxml2 2.12 made the error a structured handler is given const. */
#if LIBXML_VERSION >= 21200
typedef const xmlError *ltt_xml_error_t;
#else
typedef xmlError *ltt_xml_error_t;
#endif

static void xml_error(void *data, ltt_xml_error_t e)
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
		ltt_cfg_err(err, errlen, "%s: %s", path, strerror(errno));
		return -LTT_ERR_CONFIG_IO;
	}
	if (fstat(fd, &st)) {
		ltt_cfg_err(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -LTT_ERR_CONFIG_IO;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > CFG_FILE_MAX) {
		ltt_cfg_err(err, errlen, "%s: %s", path,
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
		ltt_cfg_err(err, errlen, "%s: %s", path, strerror(errno));
		free(buf);
		return -LTT_ERR_CONFIG_IO;
	}
	buf[len] = '\0';
	*ret_buf = buf;
	*ret_len = len;
	return 0;
}

/*
 * Parse @path and validate it against ltt's schema, unless it is LTTng's
 * format (@ret_lttng: config-lttng.c checks each element as it reads it):
 * the document, or the first error in @err.
 */
static int parse_valid(const char *path, xmlDocPtr *ret_doc, bool *ret_lttng, char *err,
		       size_t errlen)
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
		ltt_cfg_err(err, errlen, "the library's schema does not load");
		return -LTT_ERR_NOMEM;
	}
	xmlSetStructuredErrorFunc(&st, xml_error);
	doc = xmlReadMemory(buf, (int)len, path, NULL, XML_PARSE_NONET | XML_PARSE_NOBLANKS);
	free(buf);
	if (!doc || st.set) {
		xmlSetStructuredErrorFunc(NULL, NULL);
		xmlFreeDoc(doc);
		ltt_cfg_err(err, errlen, "%s:%ld: not well-formed XML: %s", path,
			st.line > 0 ? st.line : 1,
			st.set ? st.msg : "empty document");
		return -LTT_ERR_CONFIG_MALFORMED;
	}
	*ret_lttng = ltt_cfg_lttng_is(doc);
	if (*ret_lttng) {
		xmlSetStructuredErrorFunc(NULL, NULL);
		*ret_doc = doc;
		return 0;
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
		ltt_cfg_err(err, errlen, "%s:%ld: invalid (session.xsd): %s", path, st.line,
			st.set ? st.msg : "does not follow the schema");
		return -LTT_ERR_CONFIG_INVALID;
	}
	*ret_doc = doc;
	return 0;
}

static void read_rule(struct ltt_cfg_rd *rd, xmlNodePtr ev, enum ltt_domain domain,
		      struct ltt_cfg_rule *r)
{
	xmlNodePtr lv = ltt_cfg_rd_child(ev, "loglevel");
	char level[32];

	memset(r, 0, sizeof(*r));
	r->line = xmlGetLineNo(ev);
	ltt_cfg_rd_text(rd, ltt_cfg_rd_child(ev, "pattern"), r->attr.pattern, sizeof(r->attr.pattern));
	r->attr.type = (enum ltt_event_type)LTT_CFG_RD_LOOKUP(rd, ltt_cfg_rd_child(ev, "type"),
							      ltt_cfg_xml_event_types);
	r->attr.loglevel_type = (enum ltt_loglevel_type)LTT_CFG_RD_LOOKUP(
		rd, ltt_cfg_rd_child(ev, "loglevel_type"), ltt_cfg_xml_loglevel_types);
	r->attr.loglevel = 0;
	/* -1, refused by the check: a level with "all", none with range or single. */
	if (lv && ltt_cfg_rd_token(rd, lv, level, sizeof(level))) {
		if (r->attr.loglevel_type == LTT_LOGLEVEL_ALL ||
		    ltt_loglevel_parse_domain(domain, level, &r->attr.loglevel))
			r->attr.loglevel = -1;
	} else if (r->attr.loglevel_type != LTT_LOGLEVEL_ALL)
		r->attr.loglevel = -1;
	r->enabled = ltt_cfg_rd_bool(rd, ltt_cfg_rd_child(ev, "enabled"));
	ltt_cfg_rd_filter(rd, ev, &r->attr);
	ltt_cfg_rd_probe(rd, ev, &r->attr);
}

/* <contexts>: each <type> parsed; a name that is no type is kept with type 0. */
static void read_contexts(struct ltt_cfg_rd *rd, xmlNodePtr list, struct ltt_cfg_channel *c)
{
	char name[LTT_CTX_NAME_MAX];
	xmlNodePtr n;

	if (list)
		c->context_line = xmlGetLineNo(list);
	for (n = ltt_cfg_rd_child(list, "context"); n; n = ltt_cfg_rd_next(n)) {
		struct ltt_ctx *x = &c->contexts[c->nr_contexts];

		if (c->nr_contexts++ >= LTT_CTX_MAX)
			continue;
		name[0] = '\0';
		ltt_cfg_rd_text(rd, ltt_cfg_rd_child(n, "type"), name, sizeof(name));
		if (ltt_ctx_parse(name, x)) {
			memset(x, 0, sizeof(*x));
			snprintf(x->name, sizeof(x->name), "%s", name);
		}
	}
}

/* The number in @parent's child @name, within its type. */
static uint64_t u64(struct ltt_cfg_rd *rd, xmlNodePtr parent, const char *name)
{
	return ltt_cfg_rd_number(rd, ltt_cfg_rd_child(parent, name), UINT64_MAX);
}

static uint32_t u32(struct ltt_cfg_rd *rd, xmlNodePtr parent, const char *name)
{
	return (uint32_t)ltt_cfg_rd_number(rd, ltt_cfg_rd_child(parent, name), UINT32_MAX);
}

/* <buffer_preallocation>, by enum ltt_buffer_preallocation (DEFAULT: never written) */
static const char *const preallocations[] = { NULL, "PREALLOCATE", "ON_DEMAND" };
/* <allocation_policy>, LTTng 2.14's, by enum ltt_buffer_allocation */
static const char *const allocations[] = { "PER_CPU", "PER_CHANNEL" };

static void read_channel(struct ltt_cfg_rd *rd, xmlNodePtr ch, enum ltt_domain domain,
			 struct ltt_cfg_channel *c)
{
	xmlNodePtr ev, opt;
	size_t n = 0;

	memset(c, 0, sizeof(*c));
	c->domain = domain;
	c->line = xmlGetLineNo(ch);
	ltt_cfg_rd_text(rd, ltt_cfg_rd_child(ch, "name"), c->attr.name, sizeof(c->attr.name));
	c->enabled = ltt_cfg_rd_bool(rd, ltt_cfg_rd_child(ch, "enabled"));
	c->attr.overwrite = ltt_cfg_rd_bool(rd, ltt_cfg_rd_child(ch, "overwrite"));
	c->attr.subbuf_size = u64(rd, ch, "subbuf_size");
	c->attr.num_subbuf = u64(rd, ch, "num_subbuf");
	c->attr.switch_timer_us = u32(rd, ch, "switch_timer_us");
	c->attr.read_timer_us = u32(rd, ch, "read_timer_us");
	c->attr.tracefile_size = u64(rd, ch, "tracefile_size");
	c->attr.tracefile_count = u64(rd, ch, "tracefile_count");
	c->attr.buffer_type = (enum ltt_buffer_type)LTT_CFG_RD_LOOKUP(
		rd, ltt_cfg_rd_child(ch, "buffer_type"), ltt_cfg_xml_buffer_types);
	c->attr.fsync = ltt_cfg_rd_bool(rd, ltt_cfg_rd_child(ch, "fsync"));
	opt = ltt_cfg_rd_child(ch, "buffer_preallocation");
	if (opt)
		c->attr.preallocation = (uint8_t)LTT_CFG_RD_LOOKUP(rd, opt, preallocations);
	opt = ltt_cfg_rd_child(ch, "allocation_policy");
	if (opt)
		c->attr.allocation = (uint8_t)LTT_CFG_RD_LOOKUP(rd, opt, allocations);
	opt = ltt_cfg_rd_child(ch, "reclaim_policy");
	if (opt)
		ltt_cfg_rd_reclaim(rd, opt, &c->attr);
	opt = ltt_cfg_rd_child(ch, "blocking_timeout");
	if (opt)
		ltt_cfg_rd_blocking(rd, opt, &c->attr);
	n = ltt_cfg_rd_count(ltt_cfg_rd_child(ch, "events"), "event");
	c->rules = ltt_cfg_rd_calloc(rd, n, sizeof(*c->rules));
	if (!c->rules)
		return;
	for (ev = ltt_cfg_rd_child(ltt_cfg_rd_child(ch, "events"), "event"); ev && !rd->ret;
	     ev = ltt_cfg_rd_next(ev))
		read_rule(rd, ev, LTT_CFG_RULE_DOMAIN(c), &c->rules[c->nr_rules++]);
	read_contexts(rd, ltt_cfg_rd_child(ch, "contexts"), c);
}

/* The output of a session: <local>, <default/>, <net> or <none/>. */
static void read_output(struct ltt_cfg_rd *rd, xmlNodePtr out, struct ltt_session_conf *a)
{
	xmlNodePtr n;

	if ((n = ltt_cfg_rd_child(out, "local"))) {
		a->output_type = LTT_OUTPUT_LOCAL;
		ltt_cfg_rd_text(rd, n, a->output, sizeof(a->output));
	} else if ((n = ltt_cfg_rd_child(out, "net"))) {
		a->output_type = LTT_OUTPUT_NET;
		ltt_cfg_rd_token(rd, n, a->output, sizeof(a->output));
	} else if (ltt_cfg_rd_child(out, "none")) {
		a->output_type = LTT_OUTPUT_NONE;
	} else {
		a->output_type = LTT_OUTPUT_LOCAL;	/* <default/>: the daemon resolves it */
	}
}

/* <snapshot_outputs>: each <snapshot_output> with its name, directory or URL, max_size. */
static void read_snap_outputs(struct ltt_cfg_rd *rd, xmlNodePtr list, struct ltt_cfg_session *s)
{
	xmlNodePtr o;
	size_t n = 0;

	n = ltt_cfg_rd_count(list, "snapshot_output");
	if (!n)
		return;
	s->snap_outputs = ltt_cfg_rd_calloc(rd, n, sizeof(*s->snap_outputs));
	if (!s->snap_outputs)
		return;
	for (o = ltt_cfg_rd_child(list, "snapshot_output"); o && !rd->ret; o = ltt_cfg_rd_next(o)) {
		struct ltt_cfg_snap_output *so = &s->snap_outputs[s->nr_snap_outputs++];

		so->line = xmlGetLineNo(o);
		ltt_cfg_rd_text(rd, ltt_cfg_rd_child(o, "name"), so->attr.name, sizeof(so->attr.name));
		so->attr.output_type = ltt_cfg_rd_child(o, "net") ? LTT_OUTPUT_NET : LTT_OUTPUT_LOCAL;
		ltt_cfg_rd_text(rd, ltt_cfg_rd_child(o, so->attr.output_type == LTT_OUTPUT_NET ? "net" : "local"),
		     so->attr.output, sizeof(so->attr.output));
		so->attr.max_size = ltt_cfg_rd_number(rd, ltt_cfg_rd_child(o, "max_size"), UINT64_MAX);
	}
}

/* <rotation_schedules>: <timer_us> and/or <size>. */
static void read_rotation(struct ltt_cfg_rd *rd, xmlNodePtr rot, struct ltt_cfg_session *s)
{
	if (!rot)
		return;
	s->rotation_line = xmlGetLineNo(rot);
	s->rotate_timer_us = ltt_cfg_rd_number(rd, ltt_cfg_rd_child(rot, "timer_us"), UINT64_MAX);
	s->rotate_size = ltt_cfg_rd_number(rd, ltt_cfg_rd_child(rot, "size"), UINT64_MAX);
}

/* <map_channels>: each <map_channel>'s attributes, checked by config-check.c. */
static void read_maps(struct ltt_cfg_rd *rd, xmlNodePtr list, struct ltt_cfg_session *s)
{
	static const char *const types[] = {
		[LTT_MAP_VALUE_S32] = "signed-int-32", [LTT_MAP_VALUE_S64] = "signed-int-64",
	};
	static const char *const owners[] = {
		[LTT_MAP_OWNER_USER] = "user", [LTT_MAP_OWNER_PROCESS] = "process",
		[LTT_MAP_OWNER_KERNEL] = "kernel",
	};
	static const char *const policies[] = {
		[LTT_MAP_DEAD_DROP] = "drop", [LTT_MAP_DEAD_SUM] = "sum-into-shared",
	};
	xmlNodePtr m, x;
	size_t n = 0;

	n = ltt_cfg_rd_count(list, "map_channel");
	if (!n)
		return;
	s->maps_line = xmlGetLineNo(list);
	s->maps = ltt_cfg_rd_calloc(rd, n, sizeof(*s->maps));
	if (!s->maps)
		return;
	for (m = ltt_cfg_rd_child(list, "map_channel"); m && !rd->ret; m = ltt_cfg_rd_next(m)) {
		struct ltt_map_attr *a = &s->maps[s->nr_maps++];

		ltt_cfg_rd_text(rd, ltt_cfg_rd_child(m, "name"), a->name, sizeof(a->name));
		a->value_type = (uint32_t)LTT_CFG_RD_LOOKUP(rd, ltt_cfg_rd_child(m, "value_type"),
							    types);
		a->max_keys = (uint32_t)ltt_cfg_rd_number(rd, ltt_cfg_rd_child(m, "max_key_count"),
							  LTT_MAP_MAX_KEYS);
		if ((x = ltt_cfg_rd_child(m, "buffer_ownership")))
			a->ownership = (uint32_t)LTT_CFG_RD_LOOKUP(rd, x, owners);
		if ((x = ltt_cfg_rd_child(m, "dead_process_policy")))
			a->dead_policy = (uint32_t)LTT_CFG_RD_LOOKUP(rd, x, policies);
	}
}

/*
 * The <trackers> of a domain into @t (its domain's row).  What the schema
 * leaves open (ids with all or none, a set without ids, an id twice) is
 * marked for the check: policy SET with nr 0, or nr over the maximum.
 */
static void read_trackers(struct ltt_cfg_rd *rd, xmlNodePtr trs, struct ltt_cfg_tracker *t)
{
	xmlNodePtr tr, id;
	struct ltt_cfg_tracker *x;
	uint32_t k;

	for (tr = ltt_cfg_rd_child(trs, "tracker"); tr; tr = ltt_cfg_rd_next(tr)) {
		x = &t[LTT_CFG_RD_LOOKUP(rd, ltt_cfg_rd_child(tr, "type"), ltt_cfg_xml_tracker_types)];
		x->policy = (enum ltt_tracker_policy)LTT_CFG_RD_LOOKUP(rd, ltt_cfg_rd_child(tr, "policy"),
							     ltt_cfg_xml_tracker_policies);
		x->line = xmlGetLineNo(tr);
		x->nr = 0;
		for (id = ltt_cfg_rd_child(tr, "id"); id; id = ltt_cfg_rd_next(id)) {
			if (x->policy != LTT_TRACKER_SET || x->nr == LTT_TRACKER_MAX_IDS) {
				x->nr = LTT_TRACKER_MAX_IDS + 1;	/* refused by the check */
				break;
			}
			x->ids[x->nr] = (uint32_t)ltt_cfg_rd_number(rd, id, UINT32_MAX);
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

/* A trigger's ratio: millionths, above LTT_TRIGGER_PPM (refused by the check) when out of 0..1. */
static uint32_t read_ratio(struct ltt_cfg_rd *rd, xmlNodePtr n)
{
	char text[32], *end;
	double r;

	if (!ltt_cfg_rd_token(rd, n, text, sizeof(text)))
		return 0;
	r = strtod(text, &end);
	if (*end || end == text || !(r >= 0.0 && r <= 1.0))
		return LTT_TRIGGER_PPM + 1;
	return (uint32_t)(r * LTT_TRIGGER_PPM + 0.5);
}

static void read_condition(struct ltt_cfg_rd *rd, xmlNodePtr co, struct ltt_trigger_conf *c)
{
	static const char *const domains[] = {
		[LTT_DOMAIN_KERNEL] = "kernel", [LTT_DOMAIN_USER] = "user",
		[LTT_DOMAIN_PYTHON] = "python", [LTT_DOMAIN_JUL] = "jul", [LTT_DOMAIN_LOG4J] = "log4j",
	};
	struct ltt_cfg_rule rule;
	char type[64];
	xmlNodePtr n;

	if (ltt_cfg_rd_token(rd, ltt_cfg_rd_child(co, "type"), type, sizeof(type)) &&
	    !(c->cond = ltt_condition_type_parse(type)))
		ltt_cfg_rd_fail(rd, ltt_cfg_rd_child(co, "type"), "no condition type '%s'", type);
	if ((n = ltt_cfg_rd_child(co, "domain")))
		c->domain = (uint32_t)LTT_CFG_RD_LOOKUP(rd, n, domains);
	if ((n = ltt_cfg_rd_child(co, "event"))) {
		read_rule(rd, n, (enum ltt_domain)c->domain, &rule);
		c->rule = rule.attr;
	}
	/* a system call rule's site: ltt_trigger_check() says if it is one */
	if ((n = ltt_cfg_rd_child(co, "emission_site")))
		ltt_cfg_rd_text(rd, n, c->rule.location, sizeof(c->rule.location));
	for (n = ltt_cfg_rd_child(ltt_cfg_rd_child(co, "captures"), "capture"); n;
	     n = ltt_cfg_rd_next(n)) {
		if (c->nr_captures < LTT_TRIGGER_CAPTURES_LIMIT)
			ltt_cfg_rd_token(rd, n, c->captures[c->nr_captures++], LTT_CAPTURE_MAX);
		else
			ltt_cfg_rd_refuse(rd, n, "a trigger of more than %d captures: %s",
					  LTT_TRIGGER_CAPTURES_LIMIT,
					  ltt_strerror(LTT_ERR_TRIGGER_CAPTURES));
	}
	ltt_cfg_rd_text(rd, ltt_cfg_rd_child(co, "session"), c->session, sizeof(c->session));
	ltt_cfg_rd_text(rd, ltt_cfg_rd_child(co, "channel"), c->channel, sizeof(c->channel));
	if ((n = ltt_cfg_rd_child(co, "threshold_size")))
		c->threshold_size = ltt_cfg_rd_number(rd, n, UINT64_MAX);
	if ((n = ltt_cfg_rd_child(co, "threshold_ratio")))
		c->threshold_ppm = read_ratio(rd, n);
}

static void read_action(struct ltt_cfg_rd *rd, xmlNodePtr ac, struct ltt_action_conf *a)
{
	static const char *const policies[] = {
		[LTT_RATE_EVERY] = "every", [LTT_RATE_ONCE_AFTER] = "once-after",
	};
	struct ltt_snapshot_output_conf *o = &a->output;
	char type[64];
	xmlNodePtr n;

	if (ltt_cfg_rd_token(rd, ltt_cfg_rd_child(ac, "type"), type, sizeof(type)) &&
	    !(a->type = ltt_action_type_parse(type)))
		ltt_cfg_rd_fail(rd, ltt_cfg_rd_child(ac, "type"), "no action type '%s'", type);
	ltt_cfg_rd_text(rd, ltt_cfg_rd_child(ac, "session"), a->session, sizeof(a->session));
	a->rate_policy = (uint32_t)LTT_CFG_RD_LOOKUP(rd, ltt_cfg_rd_child(ac, "rate_policy"), policies);
	a->rate_count = ltt_cfg_rd_number(rd, ltt_cfg_rd_child(ac, "rate_count"), UINT64_MAX);
	if (a->type == LTT_ACTION_INCR_MAP_VALUE) {
		ltt_cfg_rd_text(rd, ltt_cfg_rd_child(ac, "map_channel"), a->map, sizeof(a->map));
		ltt_cfg_rd_text(rd, ltt_cfg_rd_child(ac, "key"), a->key, sizeof(a->key));
	}
	if (!(n = ltt_cfg_rd_child(ac, "snapshot_output")))
		return;
	a->has_output = true;
	if (ltt_cfg_rd_bool(rd, ltt_cfg_rd_child(ac, "output_pair")))
		a->output_flags = LTT_TRIGGER_OUTPUT_PAIR;
	ltt_cfg_rd_text(rd, ltt_cfg_rd_child(n, "name"), o->name, sizeof(o->name));
	o->output_type = ltt_cfg_rd_child(n, "net") ? LTT_OUTPUT_NET : LTT_OUTPUT_LOCAL;
	ltt_cfg_rd_text(rd, ltt_cfg_rd_child(n, o->output_type == LTT_OUTPUT_NET ? "net" : "local"),
			o->output, sizeof(o->output));
	o->max_size = ltt_cfg_rd_number(rd, ltt_cfg_rd_child(n, "max_size"), UINT64_MAX);
}

/* <triggers>: each <trigger> into the session's, checked by config-check.c. */
static void read_triggers(struct ltt_cfg_rd *rd, xmlNodePtr list, struct ltt_cfg_session *s)
{
	struct ltt_trigger_conf *c;
	xmlNodePtr t, ac;
	size_t n = 0;

	n = ltt_cfg_rd_count(list, "trigger");
	if (!n)
		return;
	s->triggers = ltt_cfg_rd_calloc(rd, n, sizeof(*s->triggers));
	s->trigger_lines = ltt_cfg_rd_calloc(rd, n, sizeof(*s->trigger_lines));
	if (!s->triggers || !s->trigger_lines)
		return;
	for (t = ltt_cfg_rd_child(list, "trigger"); t && !rd->ret; t = ltt_cfg_rd_next(t)) {
		s->trigger_lines[s->nr_triggers] = xmlGetLineNo(t);
		c = &s->triggers[s->nr_triggers++];
		c->owner_uid = -1;	/* the loader's */
		ltt_cfg_rd_text(rd, ltt_cfg_rd_child(t, "name"), c->name, sizeof(c->name));
		read_condition(rd, ltt_cfg_rd_child(t, "condition"), c);
		for (ac = ltt_cfg_rd_child(ltt_cfg_rd_child(t, "actions"), "action"); ac && !rd->ret;
		     ac = ltt_cfg_rd_next(ac))
			if (c->nr_actions < LTT_TRIGGER_MAX_ACTIONS)
				read_action(rd, ac, &c->actions[c->nr_actions++]);
	}
}

static int read_session(struct ltt_cfg_rd *rd, xmlNodePtr se, struct ltt_cfg_session *s)
{
	xmlNodePtr dom, ch;
	enum ltt_domain domain;
	size_t n = 0;

	memset(s, 0, sizeof(*s));
	s->line = xmlGetLineNo(se);
	ltt_cfg_rd_text(rd, ltt_cfg_rd_child(se, "name"), s->attr.name, sizeof(s->attr.name));
	read_output(rd, ltt_cfg_rd_child(se, "output"), &s->attr);
	s->attr.snapshot = ltt_cfg_rd_bool(rd, ltt_cfg_rd_child(se, "snapshot"));
	if (ltt_cfg_rd_child(se, "live_timer_us"))
		s->attr.live_timer_us =
			(uint32_t)ltt_cfg_rd_number(rd, ltt_cfg_rd_child(se, "live_timer_us"), UINT32_MAX);
	if (ltt_cfg_rd_child(se, "tls")) {
		xmlNodePtr tls = ltt_cfg_rd_child(se, "tls");

		ltt_cfg_rd_text(rd, ltt_cfg_rd_child(tls, "cert"), s->attr.tls_cert,
				sizeof(s->attr.tls_cert));
		ltt_cfg_rd_text(rd, ltt_cfg_rd_child(tls, "key"), s->attr.tls_key,
				sizeof(s->attr.tls_key));
		ltt_cfg_rd_text(rd, ltt_cfg_rd_child(tls, "ca"), s->attr.tls_ca, sizeof(s->attr.tls_ca));
	}
	ltt_cfg_rd_text(rd, ltt_cfg_rd_child(se, "shm_path"), s->attr.shm_path,
			sizeof(s->attr.shm_path));
	s->started = ltt_cfg_rd_bool(rd, ltt_cfg_rd_child(se, "started"));
	for (dom = ltt_cfg_rd_child(ltt_cfg_rd_child(se, "domains"), "domain"); dom;
	     dom = ltt_cfg_rd_next(dom))
		for (ch = ltt_cfg_rd_child(ltt_cfg_rd_child(dom, "channels"), "channel"); ch;
		     ch = ltt_cfg_rd_next(ch))
			n++;
	s->channels = ltt_cfg_rd_calloc(rd, n, sizeof(*s->channels));
	if (!s->channels)
		return rd->ret;
	for (dom = ltt_cfg_rd_child(ltt_cfg_rd_child(se, "domains"), "domain"); dom && !rd->ret;
	     dom = ltt_cfg_rd_next(dom)) {
		char type[16];

		ltt_cfg_rd_token(rd, ltt_cfg_rd_child(dom, "type"), type, sizeof(type));
		domain = !strcmp(type, "kernel") ? LTT_DOMAIN_KERNEL : LTT_DOMAIN_USER;
		read_trackers(rd, ltt_cfg_rd_child(dom, "trackers"),
			      s->trackers.t[domain == LTT_DOMAIN_KERNEL ? 0 : 1]);
		for (ch = ltt_cfg_rd_child(ltt_cfg_rd_child(dom, "channels"), "channel"); ch && !rd->ret;
		     ch = ltt_cfg_rd_next(ch))
			read_channel(rd, ch, domain, &s->channels[s->nr_channels++]);
	}
	read_snap_outputs(rd, ltt_cfg_rd_child(se, "snapshot_outputs"), s);
	read_rotation(rd, ltt_cfg_rd_child(se, "rotation_schedules"), s);
	read_maps(rd, ltt_cfg_rd_child(se, "map_channels"), s);
	read_triggers(rd, ltt_cfg_rd_child(se, "triggers"), s);
	return rd->ret;
}

/* Read and check the sessions of @doc into @v (room for all); @file names them. */
static int read_doc(xmlDocPtr doc, bool lttng, const char *file, const struct ltt_cfg_set *set,
		    struct ltt_cfg_session *v, size_t *nr, char *err, size_t errlen)
{
	struct ltt_cfg_rd rd = { .file = file, .err = err, .errlen = errlen };
	xmlNodePtr se;
	size_t i;
	int ret;

	for (se = ltt_cfg_rd_child(xmlDocGetRootElement(doc), "session"); se;
	     se = ltt_cfg_rd_next(se)) {
		struct ltt_cfg_session *s = &v[*nr];

		ret = lttng ? ltt_cfg_lttng_read_session(&rd, se, s) : read_session(&rd, se, s);
		s->file = file;
		(*nr)++;
		if (!ret)
			ret = ltt_cfg_check_session(s, err, errlen);
		if (ret)
			return ret;
		for (i = 0; i < set->nr; i++)
			if (!strcmp(set->v[i].attr.name, s->attr.name)) {
				ltt_cfg_err(err, errlen, "%s:%ld: session '%s' is also in %s (line %ld)",
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
	size_t i, n = 0, nr = 0;
	xmlNodePtr se;
	bool lttng;
	int ret;

	ret = parse_valid(path, &doc, &lttng, err, errlen);
	if (ret)
		return ret;
	for (se = ltt_cfg_rd_child(xmlDocGetRootElement(doc), "session"); se;
	     se = ltt_cfg_rd_next(se))
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
	ret = read_doc(doc, lttng, file, set, v + set->nr, &nr, err, errlen);
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

/* The module's one export (config-module.h), found by libltt-ctl's dlsym(). */
extern const struct ltt_cfg_module ltt_cfg_xml_module;
const struct ltt_cfg_module ltt_cfg_xml_module = {
	.head = { .version = PACKAGE_VERSION },
	.read = ltt_cfg_xml_read,
	.write = ltt_cfg_xml_write,
	.write_lttng = ltt_cfg_lttng_write,
};
