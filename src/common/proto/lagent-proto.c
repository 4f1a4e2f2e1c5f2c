// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lagent-proto.c - LTTng's agent protocol: encoding and checks
 * (lagent-proto.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/proto/lagent-proto.h"

int ltt_lagent_register_decode(const uint8_t *buf, struct ltt_lagent_register *ret_reg)
{
	struct ltt_lagent_register reg;
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, buf, LTT_LAGENT_REGISTER_SIZE);
	reg.domain = ltt_rbuf_get_be32(&r);
	reg.pid = ltt_rbuf_get_be32(&r);
	reg.major = ltt_rbuf_get_be32(&r);
	reg.minor = ltt_rbuf_get_be32(&r);
	if (ltt_rbuf_end(&r) || !strcmp(ltt_lagent_domain_name(reg.domain), "?") || !reg.pid ||
	    reg.pid > INT32_MAX)
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
	struct ltt_rbuf r;
	uint32_t data_size;

	if (cmd == LTT_LAGENT_LIST && len >= LTT_LAGENT_LIST_HDR_SIZE &&
	    ltt_lagent_status_decode(buf) == LTT_LAGENT_STATUS_SUCCESS) {
		ltt_rbuf_init(&r, buf + LTT_LAGENT_STATUS_SIZE, 4);
		data_size = ltt_rbuf_get_be32(&r);
		if (data_size > LTT_LAGENT_LIST_MAX)
			return -EPROTO;
		size += data_size;
	}
	*ret_size = size;
	return 0;
}

uint32_t ltt_lagent_status_decode(const uint8_t *buf)
{
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, buf, LTT_LAGENT_STATUS_SIZE);
	return ltt_rbuf_get_be32(&r);
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
	uint32_t status, data_size, count, i;
	const char *names, *p, *end;
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, buf, len);
	status = ltt_rbuf_get_be32(&r);
	if (status != LTT_LAGENT_STATUS_SUCCESS) {
		/* an agent that refused: its head only, as LTTng reads it */
		*ret_status = status;
		return len == LTT_LAGENT_LIST_HDR_SIZE ? 0 : -EPROTO;
	}
	data_size = ltt_rbuf_get_be32(&r);
	count = ltt_rbuf_get_be32(&r);
	names = ltt_rbuf_get_bytes(&r, data_size);
	if (ltt_rbuf_end(&r) || count > LTT_LAGENT_LIST_NAMES_MAX)
		return -EPROTO;
	/* every name checked before any is handed on */
	end = names + data_size;
	for (i = 0, p = names; i < count; i++) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));

		if (!nul || !name_ok(p, (size_t)(nul - p)))
			return -EPROTO;
		p = nul + 1;
	}
	if (p != end)
		return -EPROTO;
	for (i = 0, p = names; i < count; i++) {
		fn(arg, p);
		p += strlen(p) + 1;
	}
	*ret_status = status;
	return 0;
}

static void put_hdr(struct ltt_wbuf *w, enum ltt_lagent_cmd cmd, uint64_t data_size)
{
	ltt_wbuf_put_be64(w, data_size);
	ltt_wbuf_put_be32(w, cmd);
	ltt_wbuf_put_be32(w, 0);
}

void ltt_lagent_put_cmd(struct ltt_wbuf *w, enum ltt_lagent_cmd cmd)
{
	put_hdr(w, cmd, 0);
}

void ltt_lagent_put_enable(struct ltt_wbuf *w, int32_t loglevel, uint32_t loglevel_type,
			   const char *name, const char *filter)
{
	size_t flen = filter && *filter ? strlen(filter) + 1 : 0;

	put_hdr(w, LTT_LAGENT_ENABLE, 8 + LTT_LAGENT_NAME_SIZE + 4 + flen);
	ltt_wbuf_put_be32(w, (uint32_t)loglevel);
	ltt_wbuf_put_be32(w, loglevel_type);
	ltt_wbuf_put_fixed_str(w, name, LTT_LAGENT_NAME_SIZE);
	ltt_wbuf_put_be32(w, (uint32_t)flen);
	if (flen)
		ltt_wbuf_put_bytes(w, filter, flen);
}

void ltt_lagent_put_disable(struct ltt_wbuf *w, const char *name)
{
	put_hdr(w, LTT_LAGENT_DISABLE, LTT_LAGENT_NAME_SIZE);
	ltt_wbuf_put_fixed_str(w, name, LTT_LAGENT_NAME_SIZE);
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
