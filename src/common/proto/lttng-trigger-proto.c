// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lttng-trigger-proto.c - LTTng 2.13's serialized triggers on ltt's
 * (lttng-trigger-proto.h): the fixed headers as field tables, the
 * variable parts (strings, nested objects) by hand around them.  What
 * the notification channel and error queries carry beside a trigger is
 * lttng-eval-proto.c's; the type numbers both use, lttng-trigger-wire.h's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/uri.h"
#include "common/probe/probe-loc.h"
#include "common/proto/lttng-client-proto.h"
#include "common/proto/lttng-trigger-proto.h"
#include "common/proto/lttng-trigger-wire.h"

/* ---- the fixed headers ---- */

struct trigger_hdr {
	uint64_t uid;
	uint32_t length;
	uint32_t name_len;
	uint8_t hidden;
};

struct usage_hdr {
	uint8_t in_bytes;
	uint64_t bytes;
	uint64_t ratio_bits;	/* a double */
	uint32_t session_len;
	uint32_t channel_len;
	uint8_t domain;
};

/* The event rules' headers: at most five u32 lengths. */
struct rule_hdr {
	uint32_t a, b, c, d, e;
};

struct llr {
	uint8_t type;
	uint8_t pad[3];
	uint32_t level;
};

struct rate {
	uint8_t type;
	uint64_t value;
};

struct snapshot_hdr {
	uint32_t session_len;
	uint32_t output_len;
	uint32_t policy_len;
};

#define LTT_MSG struct trigger_hdr
LTT_CODEC(trigger_hdr, LTTNG_ORDER, LTT_ROW_U64(uid), LTT_ROW_U32(length), LTT_ROW_U32(name_len),
	  LTT_ROW_U8(hidden));
#undef LTT_MSG
#define LTT_MSG struct usage_hdr
LTT_CODEC(usage_hdr, LTTNG_ORDER, LTT_ROW_U8(in_bytes), LTT_ROW_U64(bytes), LTT_ROW_U64(ratio_bits),
	  LTT_ROW_U32(session_len), LTT_ROW_U32(channel_len), LTT_ROW_U8(domain));
#undef LTT_MSG
#define LTT_MSG struct rule_hdr
LTT_CODEC(rule_hdr2, LTTNG_ORDER, LTT_ROW_U32(a), LTT_ROW_U32(b));
LTT_CODEC(rule_hdr3, LTTNG_ORDER, LTT_ROW_U32(a), LTT_ROW_U32(b), LTT_ROW_U32(c));
LTT_CODEC(rule_hdr5, LTTNG_ORDER, LTT_ROW_U32(a), LTT_ROW_U32(b), LTT_ROW_U32(c), LTT_ROW_U32(d),
	  LTT_ROW_U32(e));
#undef LTT_MSG
#define LTT_MSG struct llr
LTT_CODEC(llr, LTTNG_ORDER, LTT_ROW_U8(type), LTT_ROW_BYTES(pad), LTT_ROW_U32(level));
#undef LTT_MSG
#define LTT_MSG struct rate
LTT_CODEC(rate, LTTNG_ORDER, LTT_ROW_U8(type), LTT_ROW_U64(value));
#undef LTT_MSG
#define LTT_MSG struct snapshot_hdr
LTT_CODEC(snapshot_hdr, LTTNG_ORDER, LTT_ROW_U32(session_len), LTT_ROW_U32(output_len),
	  LTT_ROW_U32(policy_len));
#undef LTT_MSG

/* ---- decoding ---- */

/* A decoding's state: the first failure wins. */
struct dec {
	struct ltt_rbuf *r;
	enum ltt_lttng_gen gen;	/* the client's: 2.16's kprobe rule has its site */
	int err;		/* 0, -EPROTO, -ENOTSUP */
	const char *why;	/* -ENOTSUP: what ltt lacks */
};

static void malformed(struct dec *d)
{
	ltt_rbuf_fail(d->r);
	if (!d->err)
		d->err = -EPROTO;
}

static void lacks(struct dec *d, const char *why)
{
	if (!d->err) {
		d->err = -ENOTSUP;
		d->why = why;
	}
}

static bool failed(struct dec *d)
{
	if (d->r->err && !d->err)
		d->err = -EPROTO;
	return d->err != 0;
}

static void get_hdr(struct dec *d, const struct ltt_codec *c, void *ret)
{
	if (!failed(d) && ltt_codec_get(d->r, c, ret))
		malformed(d);
}

/*
 * A string of @len bytes, NUL included (0: none, when @optional) into
 * @dst of @size bytes.  One longer than ltt keeps is refused (@what).
 */
static void get_string(struct dec *d, uint32_t len, bool optional, char *dst, size_t size,
		       const char *what)
{
	const char *s;

	dst[0] = '\0';
	if (failed(d))
		return;
	if (!len) {
		if (!optional)
			malformed(d);
		return;
	}
	s = ltt_rbuf_get_bytes(d->r, len);
	if (!s || s[len - 1] || strlen(s) != len - 1u) {
		malformed(d);
		return;
	}
	if (len > size) {
		lacks(d, what);
		return;
	}
	memcpy(dst, s, len);
}

/* LTTng's {u32 len} string. */
static void get_lstring(struct dec *d, char *dst, size_t size, const char *what)
{
	uint32_t len = get32(d->r);

	get_string(d, len, false, dst, size, what);
}

static void get_llr(struct dec *d, uint32_t len, struct ltt_rule_conf *rule)
{
	struct llr l;

	rule->loglevel_type = LTT_LOGLEVEL_ALL;
	rule->loglevel = 0;
	if (!len || failed(d))
		return;
	if (len != LLR_SIZE) {
		malformed(d);
		return;
	}
	get_hdr(d, &llr, &l);
	if (failed(d))
		return;
	if (l.type == LLR_EXACTLY)
		rule->loglevel_type = LTT_LOGLEVEL_SINGLE;
	else if (l.type == LLR_AT_LEAST)
		rule->loglevel_type = LTT_LOGLEVEL_RANGE;
	else
		malformed(d);
	rule->loglevel = (int32_t)l.level;
}

static void get_exclusions(struct dec *d, uint32_t count, uint32_t bytes, char *dst, size_t size)
{
	size_t start = d->r->pos, used = 0;
	char name[LTT_NAME_MAX];
	uint32_t i;

	dst[0] = '\0';
	for (i = 0; i < count && !failed(d); i++) {
		get_lstring(d, name, sizeof(name), "an exclusion longer than ltt's 255 bytes");
		if (failed(d))
			return;
		if (!name[0] || strchr(name, ',')) {
			lacks(d, "an empty exclusion, or one with a ','");
			return;
		}
		if (used + strlen(name) + 2 > size) {
			lacks(d, "exclusions longer than ltt's 4,095 bytes");
			return;
		}
		used += (size_t)snprintf(dst + used, size - used, "%s%s", used ? "," : "", name);
	}
	if (!failed(d) && d->r->pos - start != bytes)
		malformed(d);
}

static void get_kprobe_location(struct dec *d, uint32_t len, struct ltt_rule_conf *rule)
{
	struct ltt_probe_loc loc = { .kind = LTT_PROBE_KSYM };
	size_t start = d->r->pos;
	char why[128];
	uint8_t type = ltt_rbuf_get_u8(d->r);

	if (type == KPROBE_SYMBOL) {
		uint32_t slen = get32(d->r);

		loc.offset = get64(d->r);
		get_string(d, slen, false, loc.symbol, sizeof(loc.symbol),
			   "a probe symbol longer than ltt's 255 bytes");
	} else if (type == KPROBE_ADDRESS) {
		loc.kind = LTT_PROBE_KADDR;
		loc.addr = get64(d->r);
	} else {
		malformed(d);
	}
	if (failed(d))
		return;
	if (d->r->pos - start != len) {
		malformed(d);
		return;
	}
	if (ltt_probe_loc_format(&loc, false, rule->location, sizeof(rule->location)) ||
	    ltt_probe_loc_parse(LTT_EVENT_KPROBE, rule->location, &loc, why, sizeof(why)))
		lacks(d, "this probe location");
}

/* A rule's pattern (@pattern_len bytes) and filter (@filter_len, 0: none). */
static void get_pattern_filter(struct dec *d, uint32_t pattern_len, uint32_t filter_len,
			       struct ltt_rule_conf *rule)
{
	get_string(d, pattern_len, false, rule->pattern, sizeof(rule->pattern),
		   "a pattern longer than ltt's 255 bytes");
	get_string(d, filter_len, true, rule->filter, sizeof(rule->filter),
		   "a filter longer than ltt's 4,096 bytes");
}

/* The event rule of an event-rule-matches condition into @c's domain and rule. */
static void get_rule(struct dec *d, struct ltt_trigger_conf *c)
{
	struct ltt_rule_conf *rule = &c->rule;
	uint8_t type = ltt_rbuf_get_u8(d->r);
	struct rule_hdr h = { 0 };

	switch (type) {
	case RULE_SYSCALL:
		get_hdr(d, &rule_hdr3, &h);
		if (!failed(d) && !ltt_syscall_site_name((int)h.a))
			malformed(d);
		c->domain = LTT_DOMAIN_KERNEL;
		rule->type = LTT_EVENT_SYSCALL;
		get_pattern_filter(d, h.b, h.c, rule);
		if (!failed(d))	/* the entries or the exits alone: its location says */
			strcpy(rule->location, ltt_syscall_site_name((int)h.a));
		return;
	case RULE_KPROBE:
		/* 2.16's adds the instrumentation site: 0 the location, 1 a function's entry and exit */
		get_hdr(d, d->gen == LTT_LTTNG_GEN_2_16 ? &rule_hdr3 : &rule_hdr2, &h);
		if (!failed(d) && h.c > 1)
			malformed(d);
		else if (!failed(d) && h.c == 1)
			lacks(d, "a kernel function's entry and exit (a kretprobe) as a trigger's rule");
		c->domain = LTT_DOMAIN_KERNEL;
		rule->type = LTT_EVENT_KPROBE;
		get_string(d, h.a, false, rule->pattern, sizeof(rule->pattern),
			   "an event name longer than ltt's 255 bytes");
		if (!failed(d))
			get_kprobe_location(d, h.b, rule);
		/* named by its location (no --event-name): '_' for what names lack */
		ltt_probe_event_name(rule->pattern, rule->pattern, sizeof(rule->pattern));
		return;
	case RULE_KERNEL_TP:
		get_hdr(d, &rule_hdr2, &h);
		c->domain = LTT_DOMAIN_KERNEL;
		rule->type = LTT_EVENT_TRACEPOINT;
		get_pattern_filter(d, h.a, h.b, rule);
		return;
	case RULE_UPROBE:	/* its binary's descriptor: read past (lttng-compat.c) */
		get_hdr(d, &rule_hdr2, &h);
		c->domain = LTT_DOMAIN_KERNEL;
		rule->type = LTT_EVENT_UPROBE;
		get_string(d, h.a, false, rule->pattern, sizeof(rule->pattern),
			   "an event name longer than ltt's 255 bytes");
		if (!failed(d) && ltt_lttng_get_uprobe(d->r, h.b, rule->location,
						       sizeof(rule->location)) == -ENAMETOOLONG)
			lacks(d, "a user-space probe location longer than ltt's 4,095 bytes");
		else if (!failed(d) && d->r->err)
			malformed(d);
		/* named by its location (no --event-name): '_' for what names lack */
		ltt_probe_event_name(rule->pattern, rule->pattern, sizeof(rule->pattern));
		return;
	case RULE_USER_TP:
		get_hdr(d, &rule_hdr5, &h);
		c->domain = LTT_DOMAIN_USER;
		break;
	case RULE_JUL:
	case RULE_LOG4J:
	case RULE_PYTHON:
		get_hdr(d, &rule_hdr3, &h);
		c->domain = type == RULE_JUL ? LTT_DOMAIN_JUL :
			    type == RULE_LOG4J ? LTT_DOMAIN_LOG4J : LTT_DOMAIN_PYTHON;
		break;
	default:
		malformed(d);
		return;
	}
	rule->type = LTT_EVENT_TRACEPOINT;
	get_pattern_filter(d, h.a, h.b, rule);
	get_llr(d, h.c, rule);
	if (type == RULE_USER_TP && !failed(d))
		get_exclusions(d, h.d, h.e, rule->exclusions, sizeof(rule->exclusions));
}

/* One capture descriptor as ltt's capture text. */
static void get_capture(struct dec *d, char *dst, size_t size, int depth)
{
	char name[LTT_CAPTURE_MAX], type_name[LTT_CAPTURE_MAX], inner[LTT_CAPTURE_MAX];
	uint8_t type = ltt_rbuf_get_u8(d->r);
	const char *too_long = "a capture longer than ltt's 255 bytes", *ctx_name;
	uint32_t index;
	int n = 0;

	switch (type) {
	case EXPR_PAYLOAD:
	case EXPR_CONTEXT:
		get_lstring(d, name, sizeof(name), too_long);
		/* LTTng-UST takes a context named with its "$ctx." prefix as the context */
		ctx_name = name;
		if (type == EXPR_CONTEXT && !strncmp(name, "$ctx.", 5))
			ctx_name += 5;
		if (!failed(d))
			n = snprintf(dst, size, "%s%s", type == EXPR_CONTEXT ? "$ctx." : "", ctx_name);
		break;
	case EXPR_APP_CONTEXT:
		get_lstring(d, name, sizeof(name), too_long);
		get_lstring(d, type_name, sizeof(type_name), too_long);
		if (!failed(d))
			n = snprintf(dst, size, "$app.%s:%s", name, type_name);
		break;
	case EXPR_ELEMENT:
		index = get32(d->r);
		if (depth) {	/* LTTng's parser makes no element of an element */
			if (!failed(d))
				lacks(d, "captures of an element of an element");
			return;
		}
		get_capture(d, inner, sizeof(inner), depth + 1);
		if (!failed(d))
			n = snprintf(dst, size, "%s[%u]", inner, index);
		break;
	default:
		malformed(d);
		return;
	}
	if (!failed(d) && n >= (int)size)
		lacks(d, too_long);
}

static void get_condition(struct dec *d, struct ltt_trigger_conf *c)
{
	uint8_t type = ltt_rbuf_get_u8(d->r);
	struct usage_hdr u;
	uint32_t i, n;
	double ratio;

	switch (type) {
	case COND_RULE_MATCHES:
		c->cond = LTT_CONDITION_EVENT_RULE_MATCHES;
		get_rule(d, c);
		n = get32(d->r);
		if (failed(d))
			return;
		if (n > LTT_TRIGGER_CAPTURES_LIMIT) {
			lacks(d, "more than ltt's 64 captures (LTT_TRIGGER_CAPTURES_LIMIT)");
			return;
		}
		c->nr_captures = n;
		for (i = 0; i < n && !failed(d); i++) {
			struct ltt_capture_expr e;

			get_capture(d, c->captures[i], sizeof(c->captures[i]), 0);
			if (!failed(d) && ltt_capture_parse(c->captures[i], &e))
				lacks(d, "a capture ltt does not take (a field's name, NAME[INDEX], $ctx.NAME or $app.PROVIDER:TYPE)");
		}
		return;
	case COND_CONSUMED:
		c->cond = LTT_CONDITION_SESSION_CONSUMED_SIZE_GE;
		c->threshold_size = get64(d->r);
		get_lstring(d, c->session, sizeof(c->session), "a session name longer than ltt's");
		return;
	case COND_USAGE_HIGH:
	case COND_USAGE_LOW:
		c->cond = type == COND_USAGE_HIGH ? LTT_CONDITION_BUFFER_USAGE_GE :
						    LTT_CONDITION_BUFFER_USAGE_LE;
		get_hdr(d, &usage_hdr, &u);
		if (failed(d))
			return;
		c->domain = u.domain;
		if (u.in_bytes && u.bytes) {
			c->threshold_size = u.bytes;
		} else if (u.in_bytes) {
			/*
			 * 0 bytes: ltt's conditions keep a ratio instead
			 * (threshold_size 0), and a ratio of 0 is the same
			 * condition (usage at least, or at most, nothing); it is
			 * listed back as that ratio
			 */
			c->threshold_ppm = 0;
		} else {
			memcpy(&ratio, &u.ratio_bits, sizeof(ratio));
			if (!(ratio >= 0.0 && ratio <= 1.0))
				malformed(d);
			else
				c->threshold_ppm = (uint32_t)(ratio * LTT_TRIGGER_PPM + 0.5);
		}
		get_string(d, u.session_len, false, c->session, sizeof(c->session),
			   "a session name longer than ltt's");
		get_string(d, u.channel_len, false, c->channel, sizeof(c->channel),
			   "a channel name longer than ltt's");
		return;
	case COND_ROT_ONGOING:
	case COND_ROT_COMPLETED:
		c->cond = type == COND_ROT_ONGOING ? LTT_CONDITION_SESSION_ROTATION_STARTS :
						     LTT_CONDITION_SESSION_ROTATION_FINISHES;
		get_lstring(d, c->session, sizeof(c->session), "a session name longer than ltt's");
		return;
	default:
		malformed(d);
	}
}

static void get_rate(struct dec *d, struct ltt_action_conf *a)
{
	struct rate rp;

	get_hdr(d, &rate, &rp);
	if (failed(d))
		return;
	if ((rp.type != RATE_EVERY_N && rp.type != RATE_ONCE_AFTER_N) || !rp.value) {
		malformed(d);
		return;
	}
	a->rate_policy = rp.type == RATE_EVERY_N ? LTT_RATE_EVERY : LTT_RATE_ONCE_AFTER;
	a->rate_count = rp.value;
}

static void get_snapshot(struct dec *d, struct ltt_action_conf *a)
{
	struct ltt_lttng_snapshot_output *o;
	struct snapshot_hdr h;
	size_t start;

	get_hdr(d, &snapshot_hdr, &h);
	if (failed(d))
		return;
	get_string(d, h.session_len, false, a->session, sizeof(a->session),
		   "a session name longer than ltt's");
	if (h.output_len && !failed(d)) {
		if (h.output_len != SNAPSHOT_OUTPUT_SIZE) {
			malformed(d);
			return;
		}
		o = malloc(sizeof(*o));
		if (!o) {
			lacks(d, "memory");
			return;
		}
		ltt_lttng_get_snapshot_output(d->r, o);
		if (!failed(d)) {
			a->has_output = true;
			a->output.id = o->id;
			a->output.max_size = o->max_size;
			snprintf(a->output.name, sizeof(a->output.name), "%s", o->name);
			if (ltt_lttng_snapshot_output_to_ltt(o, &a->output))
				lacks(d, "this snapshot output URL (ltt takes a directory, a net:// URL, or tcp:// control and data URLs)");
			/* listed back as given: a net URL as typed, a pair as two URLs */
			else if (o->data_url[0])
				a->output_flags = LTT_TRIGGER_OUTPUT_PAIR;
			else if (a->output.output_type == LTT_OUTPUT_NET)
				snprintf(a->output.output, sizeof(a->output.output), "%s", o->ctrl_url);
		}
		free(o);
	}
	start = d->r->pos;
	get_rate(d, a);
	if (!failed(d) && d->r->pos - start != h.policy_len)
		malformed(d);
}

/* One action (@depth 0: the trigger's, which may be a list) into @c's actions. */
static void get_action(struct dec *d, struct ltt_trigger_conf *c, int depth)
{
	uint8_t type = ltt_rbuf_get_u8(d->r);
	struct ltt_action_conf *a;
	const char *why = NULL;
	uint32_t i, n;
	int err;

	if (failed(d))
		return;
	if (type == ACT_LIST) {
		n = get32(d->r);
		if (depth) {
			lacks(d, "a list of actions within a list");
			return;
		}
		if (n > LTT_TRIGGER_MAX_ACTIONS) {
			lacks(d, "more than ltt's 8 actions");
			return;
		}
		for (i = 0; i < n && !failed(d); i++)
			get_action(d, c, depth + 1);
		return;
	}
	if (c->nr_actions >= LTT_TRIGGER_MAX_ACTIONS) {
		lacks(d, "more than ltt's 8 actions");
		return;
	}
	a = &c->actions[c->nr_actions++];
	switch (type) {
	case ACT_NOTIFY:
		a->type = LTT_ACTION_NOTIFY;
		get_rate(d, a);
		return;
	case ACT_START:
	case ACT_STOP:
	case ACT_ROTATE:
		a->type = type == ACT_START ? LTT_ACTION_START_SESSION :
			  type == ACT_STOP ? LTT_ACTION_STOP_SESSION : LTT_ACTION_ROTATE_SESSION;
		get_lstring(d, a->session, sizeof(a->session), "a session name longer than ltt's");
		get_rate(d, a);
		return;
	case ACT_SNAPSHOT:
		a->type = LTT_ACTION_SNAPSHOT_SESSION;
		get_snapshot(d, a);
		return;
	case ACT_INCR_MAP:	/* lttng-map-proto.c; 2.13 has none */
		err = d->gen == LTT_LTTNG_GEN_2_16 ?
			      ltt_lttng_get_incr_map(d->r, c->domain == LTT_DOMAIN_KERNEL, a, &why) :
			      -EPROTO;
		if (err == -ENOTSUP)
			lacks(d, why);
		else if (err)
			malformed(d);
		return;
	default:
		malformed(d);
	}
}

static int dec_end(struct dec *d, const char **why)
{
	failed(d);
	if (d->err == -ENOTSUP && why)
		*why = d->why;
	return d->err;
}

int ltt_lttng_condition_get(struct ltt_rbuf *r, enum ltt_lttng_gen gen,
			    struct ltt_trigger_conf *ret, const char **why)
{
	struct dec d = { .r = r, .gen = gen };

	memset(ret, 0, sizeof(*ret));
	ret->owner_uid = -1;
	get_condition(&d, ret);
	return dec_end(&d, why);
}

int ltt_lttng_trigger_get(struct ltt_rbuf *r, enum ltt_lttng_gen gen,
			  struct ltt_trigger_conf *ret, bool *ret_hidden, const char **why)
{
	struct dec d = { .r = r, .gen = gen };
	struct trigger_hdr h;
	size_t start;

	memset(ret, 0, sizeof(*ret));
	get_hdr(&d, &trigger_hdr, &h);
	if (failed(&d))
		return dec_end(&d, why);
	start = r->pos;
	if (h.uid > UINT32_MAX - 1)
		malformed(&d);
	ret->owner_uid = (int64_t)h.uid;
	*ret_hidden = h.hidden;
	get_string(&d, h.name_len, true, ret->name, sizeof(ret->name),
		   "a trigger name longer than ltt's 255 bytes");
	get_condition(&d, ret);
	get_action(&d, ret, 0);
	if (!failed(&d) && r->pos - start != h.length)
		malformed(&d);
	return dec_end(&d, why);
}

/* ---- encoding ---- */

static void put_llr(struct ltt_wbuf *w, const struct ltt_rule_conf *rule)
{
	struct llr l = {
		.type = rule->loglevel_type == LTT_LOGLEVEL_SINGLE ? LLR_EXACTLY : LLR_AT_LEAST,
		.level = (uint32_t)rule->loglevel,
	};

	if (rule->loglevel_type != LTT_LOGLEVEL_ALL)
		ltt_codec_put(w, &llr, &l);
}

static int put_rule(struct ltt_wbuf *w, enum ltt_lttng_gen gen, const struct ltt_trigger_conf *c)
{
	const struct ltt_rule_conf *rule = &c->rule;
	struct rule_hdr h = { .a = slen(rule->pattern), .b = slen_opt(rule->filter) };
	uint8_t type;

	if (c->domain == LTT_DOMAIN_KERNEL) {
		switch (rule->type) {
		case LTT_EVENT_TRACEPOINT:
			ltt_wbuf_put_u8(w, RULE_KERNEL_TP);
			ltt_codec_put(w, &rule_hdr2, &h);
			break;
		case LTT_EVENT_SYSCALL:
			h = (struct rule_hdr){ .a = (uint32_t)ltt_syscall_site_parse(rule->location),
					       .b = slen(rule->pattern), .c = slen_opt(rule->filter) };
			if ((int32_t)h.a < 0)
				return -ENOTSUP;
			ltt_wbuf_put_u8(w, RULE_SYSCALL);
			ltt_codec_put(w, &rule_hdr3, &h);
			break;
		case LTT_EVENT_KPROBE:	/* lttng-probe-proto.c */
			return ltt_lttng_put_kprobe_rule(w, gen, rule);
		case LTT_EVENT_UPROBE:
			return ltt_lttng_put_uprobe_rule(w, rule);
		default:
			return -ENOTSUP;	/* functions */
		}
		put_string(w, rule->pattern);
		if (rule->filter[0])
			put_string(w, rule->filter);
		return 0;
	}
	switch (c->domain) {
	case LTT_DOMAIN_USER:
		type = RULE_USER_TP;
		break;
	case LTT_DOMAIN_JUL:
		type = RULE_JUL;
		break;
	case LTT_DOMAIN_LOG4J:
		type = RULE_LOG4J;
		break;
	case LTT_DOMAIN_PYTHON:
		type = RULE_PYTHON;
		break;
	default:
		return -ENOTSUP;
	}
	if (rule->type != LTT_EVENT_TRACEPOINT)
		return -ENOTSUP;
	h.c = rule->loglevel_type == LTT_LOGLEVEL_ALL ? 0 : LLR_SIZE;
	ltt_wbuf_put_u8(w, type);
	if (type == RULE_USER_TP) {
		h.d = ltt_lttng_exclusions_size(rule->exclusions, &h.e);
		ltt_codec_put(w, &rule_hdr5, &h);
	} else {
		ltt_codec_put(w, &rule_hdr3, &h);
	}
	put_string(w, rule->pattern);
	if (rule->filter[0])
		put_string(w, rule->filter);
	put_llr(w, rule);
	if (type == RULE_USER_TP)
		ltt_lttng_put_exclusions(w, rule->exclusions);
	return 0;
}

/* The condition of @c into @w; -ENOTSUP leaves @w's length as it was. */
static int put_condition(struct ltt_wbuf *w, enum ltt_lttng_gen gen,
			 const struct ltt_trigger_conf *c)
{
	struct usage_hdr u;
	double ratio;
	uint32_t i;
	int err = 0;

	switch (c->cond) {
	case LTT_CONDITION_EVENT_RULE_MATCHES:
		ltt_wbuf_put_u8(w, COND_RULE_MATCHES);
		err = put_rule(w, gen, c);
		put32(w, c->nr_captures);
		for (i = 0; i < c->nr_captures && !err; i++)
			err = ltt_lttng_capture_expr_put(w, c->captures[i]);
		return err;
	case LTT_CONDITION_SESSION_CONSUMED_SIZE_GE:
		ltt_wbuf_put_u8(w, COND_CONSUMED);
		put64(w, c->threshold_size);
		put_lstring(w, c->session);
		return 0;
	case LTT_CONDITION_BUFFER_USAGE_GE:
	case LTT_CONDITION_BUFFER_USAGE_LE:
		ltt_wbuf_put_u8(w, c->cond == LTT_CONDITION_BUFFER_USAGE_GE ? COND_USAGE_HIGH :
									     COND_USAGE_LOW);
		ratio = c->threshold_size ? 0.0 : (double)c->threshold_ppm / LTT_TRIGGER_PPM;
		u = (struct usage_hdr){
			.in_bytes = c->threshold_size != 0,
			.bytes = c->threshold_size,
			.session_len = slen(c->session),
			.channel_len = slen(c->channel),
			.domain = (uint8_t)c->domain,
		};
		memcpy(&u.ratio_bits, &ratio, sizeof(ratio));
		ltt_codec_put(w, &usage_hdr, &u);
		put_string(w, c->session);
		put_string(w, c->channel);
		return 0;
	case LTT_CONDITION_SESSION_ROTATION_STARTS:
	case LTT_CONDITION_SESSION_ROTATION_FINISHES:
		ltt_wbuf_put_u8(w, c->cond == LTT_CONDITION_SESSION_ROTATION_STARTS ?
					   COND_ROT_ONGOING : COND_ROT_COMPLETED);
		put_lstring(w, c->session);
		return 0;
	default:
		return -ENOTSUP;
	}
}

int ltt_lttng_condition_put(struct ltt_wbuf *w, enum ltt_lttng_gen gen,
			    const struct ltt_trigger_conf *c)
{
	size_t len = w->len;
	int err = put_condition(w, gen, c);

	if (err)
		w->len = len;
	return err;
}

static void put_rate(struct ltt_wbuf *w, const struct ltt_action_conf *a)
{
	struct rate rp = {
		.type = a->rate_policy == LTT_RATE_ONCE_AFTER ? RATE_ONCE_AFTER_N : RATE_EVERY_N,
		.value = a->rate_count ? a->rate_count : 1,
	};

	ltt_codec_put(w, &rate, &rp);
}

static void put_snapshot(struct ltt_wbuf *w, const struct ltt_action_conf *a)
{
	struct ltt_lttng_snapshot_output *o = NULL;
	struct snapshot_hdr h = { .session_len = slen(a->session), .policy_len = 9 };

	if (a->has_output) {
		o = calloc(1, sizeof(*o));
		if (!o) {
			w->err = -ENOMEM;
			return;
		}
		o->id = a->output.id;
		o->max_size = a->output.max_size;
		snprintf(o->name, sizeof(o->name), "%s", a->output.name);
		if (!(a->output_flags & LTT_TRIGGER_OUTPUT_PAIR) ||
		    ltt_uri_net_pair(a->output.output, o->ctrl_url, o->data_url,
				     sizeof(o->ctrl_url))) {
			snprintf(o->ctrl_url, sizeof(o->ctrl_url), "%s", a->output.output);
			o->data_url[0] = '\0';
		}
		h.output_len = SNAPSHOT_OUTPUT_SIZE;
	}
	ltt_codec_put(w, &snapshot_hdr, &h);
	put_string(w, a->session);
	if (o)
		ltt_lttng_put_snapshot_output(w, o);
	put_rate(w, a);
	free(o);
}

/*
 * Action @a of the trigger of condition @c in @gen's layout; -ENOTSUP
 * for an incr-map-value toward 2.13, which has none (its map's type:
 * its rule's domain's, as ltt's triggers count).
 */
static int put_action(struct ltt_wbuf *w, enum ltt_lttng_gen gen,
		      const struct ltt_trigger_conf *c, const struct ltt_action_conf *a)
{
	switch (a->type) {
	case LTT_ACTION_NOTIFY:
		ltt_wbuf_put_u8(w, ACT_NOTIFY);
		put_rate(w, a);
		return 0;
	case LTT_ACTION_START_SESSION:
	case LTT_ACTION_STOP_SESSION:
	case LTT_ACTION_ROTATE_SESSION:
		ltt_wbuf_put_u8(w, a->type == LTT_ACTION_START_SESSION ? ACT_START :
				   a->type == LTT_ACTION_STOP_SESSION ? ACT_STOP : ACT_ROTATE);
		put_lstring(w, a->session);
		put_rate(w, a);
		return 0;
	case LTT_ACTION_SNAPSHOT_SESSION:
		ltt_wbuf_put_u8(w, ACT_SNAPSHOT);
		put_snapshot(w, a);
		return 0;
	case LTT_ACTION_INCR_MAP_VALUE:	/* lttng-map-proto.c; 2.13 has none */
		return gen == LTT_LTTNG_GEN_2_16 ?
			       ltt_lttng_put_incr_map(w, c->domain == LTT_DOMAIN_KERNEL, a) : -ENOTSUP;
	default:
		return -ENOTSUP;
	}
}

int ltt_lttng_trigger_put(struct ltt_wbuf *w, enum ltt_lttng_gen gen,
			  const struct ltt_trigger_conf *c)
{
	struct trigger_hdr h = {
		.uid = c->owner_uid < 0 ? 0 : (uint64_t)c->owner_uid,
		.name_len = slen_opt(c->name),
	};
	size_t start = w->len, body;
	uint32_t i;
	int err;

	ltt_codec_put(w, &trigger_hdr, &h);
	body = w->len;
	if (c->name[0])
		put_string(w, c->name);
	err = put_condition(w, gen, c);
	ltt_wbuf_put_u8(w, ACT_LIST);
	put32(w, c->nr_actions);
	for (i = 0; i < c->nr_actions && !err; i++)
		err = put_action(w, gen, c, &c->actions[i]);
	if (err) {
		w->len = start;
		return err;
	}
	/* the length of what follows the header, now known */
	if (!w->err) {
		struct ltt_wbuf fix;

		ltt_wbuf_init_fixed(&fix, w->data + start + 8, 4);
		put32(&fix, (uint32_t)(w->len - body));
	}
	return 0;
}

/* ---- error queries ---- */

int ltt_lttng_error_query_get(struct ltt_rbuf *r, enum ltt_lttng_gen gen,
			      struct ltt_lttng_error_query *ret, const char **why)
{
	bool hidden;
	uint32_t i;
	int err;

	ret->target = ltt_rbuf_get_u8(r);
	if (r->err || ret->target > LTT_LTTNG_QUERY_ACTION) {
		ltt_rbuf_fail(r);
		return -EPROTO;
	}
	err = ltt_lttng_trigger_get(r, gen, &ret->trigger, &hidden, why);
	if (err)
		return err;
	ret->nr_path = 0;
	if (ret->target != LTT_LTTNG_QUERY_ACTION)
		return 0;
	ret->nr_path = get32(r);
	if (ret->nr_path > 2) {
		ltt_rbuf_fail(r);
		return -EPROTO;
	}
	for (i = 0; i < ret->nr_path; i++)
		ret->path[i] = get64(r);
	return r->err ? -EPROTO : 0;
}
