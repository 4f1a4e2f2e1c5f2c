// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_error.c - unit tests of common/base/error.c: every code of the table in
 * ltt-error.h has a distinct stable name and a message; and of
 * output-error.c: which errnos are an output's failure, and their codes.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <ltt/ltt-error.h>

#include "common/base/output-error.h"
#include "tests/unit/tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	int code;
	const char *name;
	const char *msg;
} table[] = {
#define ROW_(name, num, msg) { num, #name, msg },
	LTT_ERROR_TABLE(ROW_)
#undef ROW_
};

static void test_table(void)
{
	bool names_distinct = true, numbers_distinct = true;
	size_t i, j, out_of_order = 0;

	/* Helpers number new codes in ranges of their own: gaps are allowed. */
	tap_is_int(table[ARRAY_SIZE(table) - 1].code + 1, LTT_ERR_NR_,
		   "LTT_ERR_NR_ is one past the last code");
	for (i = 0; i < ARRAY_SIZE(table); i++) {
		if (i && table[i].code <= table[i - 1].code && !out_of_order)
			out_of_order = i;
		for (j = i + 1; j < ARRAY_SIZE(table); j++) {
			if (!strcmp(table[i].name, table[j].name))
				names_distinct = false;
			if (table[i].code == table[j].code)
				numbers_distinct = false;
		}
	}
	tap_ok(!out_of_order && table[0].code == 0, "codes ascend from 0 to %d", LTT_ERR_NR_ - 1);
	if (out_of_order)
		tap_diag("%s (%d) comes after %s (%d) in ltt-error.h", table[out_of_order].name,
			 table[out_of_order].code, table[out_of_order - 1].name,
			 table[out_of_order - 1].code);
	tap_ok(numbers_distinct, "codes are distinct");
	tap_ok(names_distinct, "names in the table are distinct");
	tap_is_int(LTT_ERR_OK, 0, "OK is 0");
	tap_is_int(LTT_ERR_UNKNOWN, 1, "UNKNOWN is 1");
}

static void test_codes(void)
{
	bool distinct = true;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(table); i++) {
		int code = table[i].code;
		const char *msg = ltt_strerror(code);

		tap_is_str(ltt_error_name(code), table[i].name, "code %d is named %s", code,
			   table[i].name);
		tap_ok(msg && msg[0] && !strcmp(msg, table[i].msg), "%s has its message",
		       table[i].name);
		tap_ok(ltt_error_name(-code) == ltt_error_name(code) &&
		       ltt_strerror(-code) == msg, "-%s gives the same name and message",
		       table[i].name);
	}
	for (i = 0; i < ARRAY_SIZE(table); i++) {
		for (j = i + 1; j < ARRAY_SIZE(table); j++) {
			if (!strcmp(ltt_error_name(table[i].code), ltt_error_name(table[j].code)) ||
			    !strcmp(ltt_strerror(table[i].code), ltt_strerror(table[j].code)))
				distinct = false;
		}
	}
	tap_ok(distinct, "names and messages of distinct codes differ");
}

static void test_unknown(void)
{
	static const int unknown[] = {
		LTT_ERR_NR_, -LTT_ERR_NR_, LTT_ERR_NR_ + 1, 1000, -1000, INT_MAX, -INT_MAX,
		INT_MIN,
	};
	char want[200];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		tap_is_str(ltt_error_name(unknown[i]), "UNKNOWN", "code %d is UNKNOWN",
			   unknown[i]);
		snprintf(want, sizeof(want),
			 "error %lld, unknown to this version of libltt-ctl (a newer session daemon's?): its description comes with a newer lttctl",
			 unknown[i] < 0 ? -(long long)unknown[i] : (long long)unknown[i]);
		tap_is_str(ltt_strerror(unknown[i]), want,
			   "code %d: a generic sentence with its number", unknown[i]);
	}
	tap_is_str(ltt_strerror(LTT_ERR_UNKNOWN), "unknown error", "UNKNOWN itself keeps its message");
	{
		bool gaps_unknown = true;
		int code;

		/* A number between two ranges names no code. */
		for (code = 0, i = 0; code < LTT_ERR_NR_; code++) {
			while (i < ARRAY_SIZE(table) && table[i].code < code)
				i++;
			if ((i == ARRAY_SIZE(table) || table[i].code != code) &&
			    strcmp(ltt_error_name(code), "UNKNOWN"))
				gaps_unknown = false;
		}
		tap_ok(gaps_unknown, "the numbers the table skips are UNKNOWN");
	}
	tap_is_str(ltt_error_name(0), "OK", "0 is OK");
	tap_is_str(ltt_strerror(-LTT_ERR_SESSION_NOT_FOUND),
		   ltt_strerror(LTT_ERR_SESSION_NOT_FOUND), "a negated code is the code");
}

/* An output's failures: each errno a file system gives a writer has its code. */
static void test_output(void)
{
	static const struct {
		int err;
		enum ltt_error_code code;
	} output[] = {
		{ ENOSPC, LTT_ERR_OUTPUT_NO_SPACE }, { EDQUOT, LTT_ERR_OUTPUT_NO_SPACE },
		{ EFBIG, LTT_ERR_OUTPUT_NO_SPACE }, { EACCES, LTT_ERR_OUTPUT_ACCESS },
		{ EPERM, LTT_ERR_OUTPUT_ACCESS }, { ENOENT, LTT_ERR_OUTPUT_GONE },
		{ ENOTDIR, LTT_ERR_OUTPUT_GONE }, { EMFILE, LTT_ERR_OUTPUT_FDS },
		{ ENFILE, LTT_ERR_OUTPUT_FDS }, { EROFS, LTT_ERR_OUTPUT_READ_ONLY },
		{ EIO, LTT_ERR_OUTPUT_IO },
	};
	static const int not_output[] = { 0, EEXIST, EINVAL, EPROTO, EPIPE, ETIMEDOUT,
					  EOPNOTSUPP, ENAMETOOLONG };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(output); i++) {
		tap_ok(ltt_output_errno(-output[i].err) && ltt_output_errno(output[i].err),
		       "%s is an output's failure", strerror(output[i].err));
		tap_is_str(ltt_error_name(ltt_output_error_code(-output[i].err)),
			   ltt_error_name(output[i].code), "%s: its code", strerror(output[i].err));
	}
	for (i = 0; i < ARRAY_SIZE(not_output); i++)
		tap_ok(!ltt_output_errno(-not_output[i]), "%s is not an output's failure",
		       not_output[i] ? strerror(not_output[i]) : "0");
}

int main(void)
{
	test_table();
	test_codes();
	test_unknown();
	test_output();
	return tap_done();
}
