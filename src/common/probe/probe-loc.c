// SPDX-License-Identifier: LGPL-2.1-only
/*
 * probe-loc.c - parse the location of a probe (see probe-loc.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/probe/probe-loc.h"

/* A symbol as ELF files and the kernel write them: [A-Za-z_.][A-Za-z0-9_.$@]*. */
static bool symbol_valid(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len >= LTT_PROBE_SYMBOL_MAX || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '$' || c == '@'))
			return false;
	}
	return true;
}

/* An unsigned number, decimal or 0x hexadecimal, the whole of @s. */
static bool number(const char *s, uint64_t *ret)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	*ret = strtoull(s, &end, 0);
	return !errno && !*end;
}

static int fail(char *why, size_t size, const char *text)
{
	snprintf(why, size, "%s", text);
	return -EINVAL;
}

/* SYMBOL[+OFFSET] or 0xADDR. */
static int parse_kernel(const char *text, struct ltt_probe_loc *ret, char *why, size_t size)
{
	const char *plus = strchr(text, '+');
	size_t len = plus ? (size_t)(plus - text) : strlen(text);

	if (!strncmp(text, "0x", 2) || !strncmp(text, "0X", 2)) {
		ret->kind = LTT_PROBE_KADDR;
		if (plus || !number(text, &ret->addr) || !ret->addr)
			return fail(why, size, "an address is 0x and hexadecimal digits, not 0");
		return 0;
	}
	ret->kind = LTT_PROBE_KSYM;
	if (!symbol_valid(text, len))
		return fail(why, size, "give SYMBOL, SYMBOL+OFFSET or 0xADDR (a symbol is letters, digits, '_' and '.', at most 255 bytes)");
	memcpy(ret->symbol, text, len);
	ret->symbol[len] = '\0';
	if (plus && !number(plus + 1, &ret->offset))
		return fail(why, size, "the offset after '+' is a number (decimal or 0x hexadecimal)");
	return 0;
}

/* The last @n ':'-separated names of @rest into @names, the path before them into ret->path. */
static int split_names(const char *rest, int n, char *names[2], struct ltt_probe_loc *ret,
		       char *why, size_t size)
{
	const char *end = rest + strlen(rest);
	const char *seps[2];
	int i;

	for (i = 0; i < n; i++) {
		while (end > rest && end[-1] != ':')
			end--;
		if (end == rest)
			return fail(why, size, n == 1 ?
				    "give [elf:]PATH:FUNCTION" : "give sdt:PATH:PROVIDER:NAME");
		seps[i] = --end;
	}
	for (i = 0; i < n; i++) {
		const char *from = seps[i] + 1;
		const char *to = i ? seps[i - 1] : rest + strlen(rest);

		if (!symbol_valid(from, (size_t)(to - from)))
			return fail(why, size, n == 1 ?
				    "the function is a symbol: letters, digits, '_' and '.', at most 255 bytes" :
				    "the provider and the name are symbols: letters, digits, '_' and '.', at most 255 bytes");
		memcpy(names[n - 1 - i], from, (size_t)(to - from));
		names[n - 1 - i][to - from] = '\0';
	}
	if ((size_t)(end - rest) >= sizeof(ret->path) || rest[0] != '/')
		return fail(why, size, "the path is absolute (it starts with '/') and at most 4095 bytes");
	for (i = 0; rest + i < end; i++)
		if ((unsigned char)rest[i] <= ' ' || rest[i] == 0x7f)
			return fail(why, size, "the path holds no space or control character "
				    "(the kernel's uprobe_events splits a line there)");
	memcpy(ret->path, rest, (size_t)(end - rest));
	ret->path[end - rest] = '\0';
	return 0;
}

static int parse_user(const char *text, struct ltt_probe_loc *ret, char *why, size_t size)
{
	char *names[2];

	if (!strncmp(text, "sdt:", 4)) {
		ret->kind = LTT_PROBE_SDT;
		names[0] = ret->provider;
		names[1] = ret->symbol;
		return split_names(text + 4, 2, names, ret, why, size);
	}
	ret->kind = LTT_PROBE_ELF;
	names[0] = ret->symbol;
	return split_names(!strncmp(text, "elf:", 4) ? text + 4 : text, 1, names, ret, why, size);
}

int ltt_probe_loc_parse(int type, const char *text, struct ltt_probe_loc *ret, char *why,
			size_t why_size)
{
	memset(ret, 0, sizeof(*ret));
	if (!text || !*text)
		return fail(why, why_size, "a probe needs its location");
	if (strlen(text) >= LTT_LOCATION_MAX)
		return fail(why, why_size, "a location is at most 4607 bytes");
	switch (type) {
	case LTT_EVENT_UPROBE:
		return parse_user(text, ret, why, why_size);
	case LTT_EVENT_KPROBE:
	case LTT_EVENT_FUNCTION:
		return parse_kernel(text, ret, why, why_size);
	default:
		return fail(why, why_size, "only probe rules have a location");
	}
}

int ltt_probe_loc_format(const struct ltt_probe_loc *loc, bool elf_prefix, char *buf,
			 size_t size)
{
	int n;

	switch (loc->kind) {
	case LTT_PROBE_KSYM:
		n = loc->offset ? snprintf(buf, size, "%s+%" PRIu64, loc->symbol, loc->offset)
				: snprintf(buf, size, "%s", loc->symbol);
		break;
	case LTT_PROBE_KADDR:
		n = snprintf(buf, size, "0x%" PRIx64, loc->addr);
		break;
	case LTT_PROBE_SDT:
		n = snprintf(buf, size, "sdt:%s:%s:%s", loc->path, loc->provider, loc->symbol);
		break;
	default:
		n = snprintf(buf, size, "%s%s:%s", elf_prefix ? "elf:" : "", loc->path,
			     loc->symbol);
		break;
	}
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

void ltt_probe_event_name(const char *location, char *buf, size_t size)
{
	size_t i, n = 0;

	/* the characters an event name takes (names.h), and '_' for the others; in place too */
	for (i = 0; location[i] && n + 1 < size; i++)
		buf[n++] = strchr("_:.-", location[i]) || (location[i] >= '0' && location[i] <= '9') ||
			   (location[i] >= 'a' && location[i] <= 'z') ||
			   (location[i] >= 'A' && location[i] <= 'Z') ? location[i] : '_';
	if (size)
		buf[n] = '\0';
}
