// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lagent-proto.c - LTTng's agent protocol: encoding and checks
 * (lagent-proto.h).
 *
 * Big-endian field tables (codec.h) describe REGISTER, the commands'
 * header, ENABLE's and DISABLE's payloads and the replies' heads; what
 * they decode, code checks (a domain LTTng has, a pid, the major).  By
 * hand: a LIST reply's names, count NUL-terminated strings that fill
 * data_size with no length of their own, which no row type says.  The
 * protocol has one version (2.0): no table has a minor.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/proto/lagent-proto.h"

#define LTT_MSG struct ltt_lagent_register
LTT_CODEC(lagent_register, LTT_CODEC_BE,
	  LTT_ROW_U32(domain), LTT_ROW_U32(pid), LTT_ROW_U32(major), LTT_ROW_U32(minor));
#undef LTT_MSG

/* A daemon command's header: data_size bytes of payload follow. */
struct cmd_hdr {
	uint64_t data_size;
	uint32_t cmd;
	uint32_t cmd_version;	/* 0 */
};

#define LTT_MSG struct cmd_hdr
LTT_CODEC(lagent_cmd_hdr, LTT_CODEC_BE,
	  LTT_ROW_U64(data_size), LTT_ROW_U32(cmd), LTT_ROW_U32(cmd_version));
#undef LTT_MSG

struct enable {
	int32_t loglevel;
	uint32_t loglevel_type;
	char name[LTT_LAGENT_NAME_SIZE];
	const char *filter;
};

/*
 * No filter goes as length 0 and no byte, as LTTng sends it; ltt only
 * sends ENABLE, so the length has no limit of ltt's.
 */
#define LTT_MSG struct enable
LTT_CODEC(lagent_enable, LTT_CODEC_BE,
	  LTT_ROW_U32(loglevel), LTT_ROW_U32(loglevel_type), LTT_ROW_FIXSTR(name),
	  LTT_ROW_MAX(filter, STRREF, 0, LTT_ROW_EMPTY_ZERO, UINT32_MAX));
#undef LTT_MSG

struct disable {
	char name[LTT_LAGENT_NAME_SIZE];
};

#define LTT_MSG struct disable
LTT_CODEC(lagent_disable, LTT_CODEC_BE, LTT_ROW_FIXSTR(name));
#undef LTT_MSG

/* A reply's head: every reply's status, and LIST's count of names and their bytes. */
struct reply_head {
	uint32_t status;
	uint32_t data_size;
	uint32_t count;
};

#define LTT_MSG struct reply_head
LTT_CODEC(lagent_status, LTT_CODEC_BE, LTT_ROW_U32(status));
LTT_CODEC(lagent_list_head, LTT_CODEC_BE,
	  LTT_ROW_U32(status), LTT_ROW_U32(data_size), LTT_ROW_U32(count));
#undef LTT_MSG

int ltt_lagent_register_decode(const uint8_t *buf, struct ltt_lagent_register *ret_reg)
{
	struct ltt_lagent_register reg;
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, buf, LTT_LAGENT_REGISTER_SIZE);
	if (ltt_codec_get_msg(&r, &lagent_register, &reg) ||
	    !strcmp(ltt_lagent_domain_name(reg.domain), "?") || !reg.pid || reg.pid > INT32_MAX)
		return -EPROTO;
	*ret_reg = reg;
	return reg.major == LTT_LAGENT_MAJOR ? 0 : -EPROTONOSUPPORT;
}

const char *ltt_lagent_domain_name(uint32_t domain)
{
	switch (domain) {
#define LTT_LAGENT_DOMAIN_CASE(name, num, text) case num: return text;
	LTT_LAGENT_DOMAINS(LTT_LAGENT_DOMAIN_CASE)
#undef LTT_LAGENT_DOMAIN_CASE
	}
	return "?";
}

const char *ltt_lagent_cmd_name(uint32_t cmd)
{
	switch (cmd) {
#define LTT_LAGENT_CMD_CASE(name, num, size, reply) case num: return #name;
	LTT_LAGENT_CMDS(LTT_LAGENT_CMD_CASE)
#undef LTT_LAGENT_CMD_CASE
	}
	return "?";
}

/* The least a reply to @cmd holds; 0: none comes. */
static size_t reply_min(uint32_t cmd)
{
	switch (cmd) {
#define LTT_LAGENT_CMD_REPLY(name, num, size, reply) case num: return reply;
	LTT_LAGENT_CMDS(LTT_LAGENT_CMD_REPLY)
#undef LTT_LAGENT_CMD_REPLY
	}
	return 0;
}

int ltt_lagent_reply_size(uint32_t cmd, const uint8_t *buf, size_t len, size_t *ret_size)
{
	size_t size = reply_min(cmd);
	struct reply_head h;
	struct ltt_rbuf r;

	if (cmd == LTT_LAGENT_LIST && len >= LTT_LAGENT_LIST_HDR_SIZE) {
		ltt_rbuf_init(&r, buf, LTT_LAGENT_LIST_HDR_SIZE);
		ltt_codec_get_msg(&r, &lagent_list_head, &h);	/* cannot fail */
		if (h.status == LTT_LAGENT_STATUS_SUCCESS) {
			if (h.data_size > LTT_LAGENT_LIST_MAX)
				return -EPROTO;
			size += h.data_size;
		}
	}
	*ret_size = size;
	return 0;
}

uint32_t ltt_lagent_status_decode(const uint8_t *buf)
{
	struct reply_head h;
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, buf, LTT_LAGENT_STATUS_SIZE);
	ltt_codec_get_msg(&r, &lagent_status, &h);	/* cannot fail */
	return h.status;
}

/* A logger name as an agent may report it: printable, bounded. */
static bool name_ok(const char *name, size_t len)
{
	size_t i;

	if (!len || len >= LTT_LAGENT_NAME_SIZE)
		return false;
	for (i = 0; i < len; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return false;
	return true;
}

int ltt_lagent_list_decode(const uint8_t *buf, size_t len, uint32_t *ret_status,
			   void (*fn)(void *arg, const char *name), void *arg)
{
	const char *names, *p, *end;
	struct reply_head h;
	struct ltt_rbuf r;
	uint32_t i;

	if (len < LTT_LAGENT_STATUS_SIZE)
		return -EPROTO;
	h.status = ltt_lagent_status_decode(buf);
	if (h.status != LTT_LAGENT_STATUS_SUCCESS) {
		/* an agent that refused: its head only, as LTTng reads it */
		*ret_status = h.status;
		return len == LTT_LAGENT_LIST_HDR_SIZE ? 0 : -EPROTO;
	}
	ltt_rbuf_init(&r, buf, len);
	if (ltt_codec_get(&r, &lagent_list_head, &h))
		return -EPROTO;
	names = ltt_rbuf_get_bytes(&r, h.data_size);
	if (ltt_rbuf_end(&r) || h.count > LTT_LAGENT_LIST_NAMES_MAX)
		return -EPROTO;
	/* every name checked before any is handed on */
	end = names + h.data_size;
	for (i = 0, p = names; i < h.count; i++) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));

		if (!nul || !name_ok(p, (size_t)(nul - p)))
			return -EPROTO;
		p = nul + 1;
	}
	if (p != end)
		return -EPROTO;
	for (i = 0, p = names; i < h.count; i++) {
		fn(arg, p);
		p += strlen(p) + 1;
	}
	*ret_status = h.status;
	return 0;
}

/*
 * Command @cmd: its header, then @payload laid out by @c (NULL: none),
 * the header's data_size the payload's bytes.
 */
static void put_command(struct ltt_wbuf *w, enum ltt_lagent_cmd cmd, const struct ltt_codec *c,
			const void *payload)
{
	struct cmd_hdr h = { .cmd = cmd };
	size_t start = w->len, end;

	ltt_codec_put(w, &lagent_cmd_hdr, &h);
	if (!c)
		return;
	ltt_codec_put(w, c, payload);
	if (w->err)
		return;
	/* The header again, over itself, with the size now known. */
	end = w->len;
	h.data_size = end - start - LTT_LAGENT_CMD_HDR_SIZE;
	w->len = start;
	ltt_codec_put(w, &lagent_cmd_hdr, &h);
	w->len = end;
}

/* @name into @dst (LTT_LAGENT_NAME_SIZE bytes, NUL-padded): false when too long. */
static bool copy_name(char *dst, const char *name)
{
	size_t len = name ? strnlen(name, LTT_LAGENT_NAME_SIZE) : 0;

	if (len == LTT_LAGENT_NAME_SIZE)
		return false;
	memset(dst, 0, LTT_LAGENT_NAME_SIZE);
	memcpy(dst, name ? name : "", len);
	return true;
}

void ltt_lagent_put_cmd(struct ltt_wbuf *w, enum ltt_lagent_cmd cmd)
{
	put_command(w, cmd, NULL, NULL);
}

void ltt_lagent_put_enable(struct ltt_wbuf *w, int32_t loglevel, uint32_t loglevel_type,
			   const char *name, const char *filter)
{
	struct enable m = { .loglevel = loglevel, .loglevel_type = loglevel_type, .filter = filter };

	if (!copy_name(m.name, name)) {
		ltt_wbuf_fail(w, -EINVAL);
		return;
	}
	put_command(w, LTT_LAGENT_ENABLE, &lagent_enable, &m);
}

void ltt_lagent_put_disable(struct ltt_wbuf *w, const char *name)
{
	struct disable m;

	if (!copy_name(m.name, name)) {
		ltt_wbuf_fail(w, -EINVAL);
		return;
	}
	put_command(w, LTT_LAGENT_DISABLE, &lagent_disable, &m);
}

/* @buf = "(@buf) && (@term)", or @term when @buf is empty. */
static int add_term(char *buf, size_t size, const char *term)
{
	size_t plen = strlen(buf), tlen = strlen(term);

	if (!plen) {
		if (tlen >= size)
			return -E2BIG;
		memcpy(buf, term, tlen + 1);
		return 0;
	}
	if (plen + tlen + 8 >= size)	/* "(" ") && (" ")" and the NUL */
		return -E2BIG;
	memmove(buf + 1, buf, plen);
	buf[0] = '(';
	sprintf(buf + 1 + plen, ") && (%s)", term);
	return 0;
}

int ltt_lagent_filter(char *buf, size_t size, const char *user, const char *name,
		      uint32_t loglevel_type, int32_t loglevel)
{
	char term[LTT_LAGENT_NAME_SIZE + 32];
	int ret = 0;

	if (!size)
		return -E2BIG;
	buf[0] = '\0';
	if (user && *user)
		ret = add_term(buf, size, user);
	if (!ret && strcmp(name, "*")) {
		snprintf(term, sizeof(term), "logger_name == \"%.*s\"",
			 LTT_LAGENT_NAME_SIZE - 1, name);
		ret = add_term(buf, size, term);
	}
	if (!ret && (loglevel_type == 1 || loglevel_type == 2)) {
		snprintf(term, sizeof(term), "int_loglevel %s %d",
			 loglevel_type == 1 ? ">=" : "==", (int)loglevel);
		ret = add_term(buf, size, term);
	}
	if (ret)
		buf[0] = '\0';
	return ret;
}
