// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_size.c - unit tests of common/base/size.c.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "common/base/size.h"
#include "tests/unit/tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define KIB ((uint64_t)1 << 10)
#define MIB ((uint64_t)1 << 20)
#define GIB ((uint64_t)1 << 30)

static const struct {
	const char *text;
	uint64_t want;
} valid[] = {
	{ "0", 0 },
	{ "1", 1 },
	{ "007", 7 },
	{ "4096", 4096 },
	{ "4k", 4 * KIB },
	{ "4K", 4 * KIB },
	{ "4kB", 4 * KIB },
	{ "4KB", 4 * KIB },
	{ "4KiB", 4 * KIB },
	{ "4kiB", 4 * KIB },
	{ "1M", MIB },
	{ "1MB", MIB },
	{ "1MiB", MIB },
	{ "3G", 3 * GIB },
	{ "3GiB", 3 * GIB },
	{ "0k", 0 },
	{ "0x0", 0 },
	{ "0x1000", 4096 },
	{ "0X1000", 4096 },
	{ "0xff", 255 },
	{ "0xFF", 255 },
	{ "0xaBcD", 0xabcd },
	{ "0x1B", 0x1b },
	{ "0xfB", 0xfb },
	{ "0x1KB", KIB },
	{ "0x10k", 16 * KIB },
	{ "0x2M", 2 * MIB },
	{ "0x1GiB", GIB },
	{ "16777216G", (uint64_t)1 << 54 },
	{ "17179869183G", UINT64_MAX - GIB + 1 },
	{ "17592186044415M", UINT64_MAX - MIB + 1 },
	{ "18014398509481983k", UINT64_MAX - KIB + 1 },
	{ "18446744073709551615", UINT64_MAX },
	{ "0xffffffffffffffff", UINT64_MAX },
	{ "0x000000000000000000000001", 1 },
	{ "00000000000000000000000000018446744073709551615", UINT64_MAX },
	{ "0x3ffffffffG", UINT64_MAX - GIB + 1 },
};

static const char *const invalid[] = {
	"",
	" ",
	" 1",
	"1 ",
	"1 k",
	"+1",
	"-1",
	"-0",
	"k",
	"K",
	"B",
	"iB",
	"0x",
	"0X",
	"0xk",
	"0x-1",
	"x10",
	"1x10",
	"0x0x1",
	"1.5",
	"1,5",
	"1e3",
	"12a",
	"4m",
	"4g",
	"4T",
	"4P",
	"4KK",
	"4kb",
	"4KIB",
	"4Kib",
	"4KiBB",
	"4Ki",
	"4KBB",
	"4B",
	"0xfi",
	"4\n",
	"4\t",
	"18446744073709551616",
	"18446744073709551625",
	"99999999999999999999",
	"100000000000000000000000000000",
	"0x10000000000000000",
	"0x1ffffffffffffffff",
	"17179869184G",
	"17592186044416M",
	"18014398509481984k",
	"0x400000000G",
	"0x3fffffffffffffffG",
	"18446744073709551615k",
};

static void test_parse(void)
{
	uint64_t v;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(valid); i++) {
		v = 12345;
		ret = ltt_size_parse(valid[i].text, &v);
		tap_is_int(ret, 0, "\"%s\" parses", valid[i].text);
		tap_is_u64(v, valid[i].want, "\"%s\" is %llu", valid[i].text,
			   (unsigned long long)valid[i].want);
	}
	for (i = 0; i < ARRAY_SIZE(invalid); i++) {
		v = 12345;
		ret = ltt_size_parse(invalid[i], &v);
		tap_is_int(ret, -EINVAL, "\"%s\" is refused", invalid[i]);
		tap_is_u64(v, 12345, "\"%s\" leaves the result untouched", invalid[i]);
	}
	tap_is_int(ltt_size_parse(NULL, &v), -EINVAL, "NULL text is refused");
	tap_is_int(ltt_size_parse("1", NULL), -EINVAL, "NULL result is refused");
}

static void test_pow2(void)
{
	unsigned int bit;
	bool all = true;

	tap_ok(!ltt_is_pow2(0), "0 is not a power of two");
	tap_ok(ltt_is_pow2(1), "1 is a power of two");
	tap_ok(ltt_is_pow2(2), "2 is a power of two");
	tap_ok(!ltt_is_pow2(3), "3 is not a power of two");
	tap_ok(ltt_is_pow2(4096), "4096 is a power of two");
	tap_ok(!ltt_is_pow2(4095), "4095 is not a power of two");
	tap_ok(!ltt_is_pow2(4097), "4097 is not a power of two");
	tap_ok(!ltt_is_pow2(UINT64_MAX), "2^64-1 is not a power of two");
	tap_ok(!ltt_is_pow2(((uint64_t)1 << 63) + 1), "2^63+1 is not a power of two");
	for (bit = 0; bit < 64; bit++) {
		uint64_t p = (uint64_t)1 << bit;

		if (!ltt_is_pow2(p))
			all = false;
		if (bit >= 2 && (ltt_is_pow2(p - 1) || ltt_is_pow2(p + 1)))
			all = false;
	}
	tap_ok(all, "every 2^n is a power of two, and its neighbours are not");
}

static void test_format(void)
{
	static const struct {
		uint64_t size;
		const char *want;
	} cases[] = {
		{ 0, "0 B" },
		{ 1, "1 B" },
		{ 3000, "3000 B" },
		{ 1023, "1023 B" },
		{ KIB, "1 KiB" },
		{ 1536, "1536 B" },
		{ 512 * KIB, "512 KiB" },
		{ 1025 * KIB, "1025 KiB" },
		{ 4 * MIB, "4 MiB" },
		{ 1536 * KIB, "1536 KiB" },
		{ GIB, "1 GiB" },
		{ 2048 * GIB, "2048 GiB" },
		{ (uint64_t)1 << 63, "8589934592 GiB" },
		{ UINT64_MAX, "18446744073709551615 B" },
		{ UINT64_MAX - GIB + 1, "17179869183 GiB" },
	};
	char buf[32], small[4];
	uint64_t back;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(buf, 'x', sizeof(buf));
		ltt_size_format(cases[i].size, buf, sizeof(buf));
		tap_is_str(buf, cases[i].want, "%llu formats as \"%s\"",
			   (unsigned long long)cases[i].size, cases[i].want);
	}

	memset(small, 'x', sizeof(small));
	ltt_size_format(4 * MIB, small, sizeof(small));
	tap_is_str(small, "4 M", "a short buffer gets truncated, terminated text");
	small[0] = 'x';
	ltt_size_format(4 * MIB, small, 0);
	tap_ok(small[0] == 'x', "a zero-length buffer is not written");

	/* "N UNIT" parses back as "NUNIT" ("N" for bytes). */
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char text[32];
		size_t digits;

		ltt_size_format(cases[i].size, buf, sizeof(buf));
		digits = strspn(buf, "0123456789");
		memcpy(text, buf, digits);
		text[digits] = '\0';
		if (strcmp(buf + digits, " B"))
			strcat(text, buf + digits + 1);
		back = 0;
		tap_ok(ltt_size_parse(text, &back) == 0 && back == cases[i].size,
		       "\"%s\" parses back to %llu", text, (unsigned long long)cases[i].size);
	}
}

int main(void)
{
	test_parse();
	test_pow2();
	test_format();
	return tap_done();
}
