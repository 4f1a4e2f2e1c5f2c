// SPDX-License-Identifier: LGPL-2.1-only
/*
 * error.c - names and messages of the user-facing error codes, generated
 * from the table in include/ltt/ltt-error.h.
 */
#include <stdio.h>

#include <ltt/ltt-error.h>

#define NAME_(name, num, msg) [num] = #name,
static const char *const names[] = { LTT_ERROR_TABLE(NAME_) };
#undef NAME_

#define MSG_(name, num, msg) [num] = msg,
static const char *const messages[] = { LTT_ERROR_TABLE(MSG_) };
#undef MSG_

static unsigned int index_of(int code)
{
	/* Negate in unsigned arithmetic: -INT_MIN would overflow. */
	unsigned int i = code < 0 ? 0U - (unsigned int)code : (unsigned int)code;

	if (i >= sizeof(names) / sizeof(names[0]) || !names[i])
		return LTT_ERR_UNKNOWN;
	return i;
}

const char *ltt_strerror(int code)
{
	static __thread char unknown[160];
	unsigned int i = index_of(code);

	if (i != LTT_ERR_UNKNOWN || code == LTT_ERR_UNKNOWN || code == -LTT_ERR_UNKNOWN)
		return messages[i];
	/* -INT_MIN as a long long does not overflow */
	snprintf(unknown, sizeof(unknown),
		 "error %lld, unknown to this version of libltt-ctl (a newer session daemon's?): its description comes with a newer lttctl",
		 code < 0 ? -(long long)code : (long long)code);
	return unknown;
}

const char *ltt_error_name(int code)
{
	return names[index_of(code)];
}
