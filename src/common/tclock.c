/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tclock.c - choosing and calibrating the clock of user-space events.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/tclock.h"

#define PAIR_TRIES 16

const char *ltt_tclock_name(uint32_t kind)
{
	return ltt_tclock_is_tsc(kind) ? "tsc" : "monotonic";
}

const char *ltt_tclock_read_name(uint32_t kind)
{
	switch (kind) {
	case LTT_TCLOCK_TSC:
		return "rdtscp";
	case LTT_TCLOCK_TSC_LFENCE:
		return "lfence; rdtsc";
	default:
		return "clock_gettime";
	}
}

/* The first line of @path, without its newline, in @buf; false if none. */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* Whether the "flags" line of @cpuinfo holds each of @flags (NULL-ended). */
static bool cpu_has(const char *cpuinfo, const char *const *flags, const char **missing)
{
	char line[8192];
	bool found = false, all = true;
	FILE *f = fopen(cpuinfo, "re");
	size_t i, n;

	*missing = NULL;
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		found = true;
		break;
	}
	fclose(f);
	if (!found)
		return false;
	for (i = 0; flags[i]; i++) {
		const char *p = line;

		n = strlen(flags[i]);
		all = false;
		while ((p = strstr(p, flags[i]))) {
			if (p[-1] == ' ' && (p[n] == ' ' || p[n] == '\n' || p[n] == '\0')) {
				all = true;
				break;
			}
			p += n;
		}
		if (!all) {
			*missing = flags[i];
			return false;
		}
	}
	return true;
}

uint32_t ltt_tclock_tsc_kind(const char *cpuinfo)
{
	static const char *const rdtscp[] = { "rdtscp", NULL };
	const char *missing;

	return cpu_has(cpuinfo, rdtscp, &missing) ? LTT_TCLOCK_TSC : LTT_TCLOCK_TSC_LFENCE;
}

/*
 * Why the TSC cannot serve here, in @why; true when it can, with how
 * writers read it in @ret_kind.
 */
static bool tsc_usable(const char *sysfs, const char *cpuinfo, char *why, size_t len,
		       uint32_t *ret_kind)
{
	static const char *const flags[] = { "constant_tsc", "nonstop_tsc", NULL };
	char path[512], cs[64];
	const char *missing;

	if (!LTT_TCLOCK_HAVE_TSC) {
		snprintf(why, len, "this CPU architecture has no TSC");
		return false;
	}
	snprintf(path, sizeof(path), "%s/devices/system/clocksource/clocksource0/current_clocksource",
		 sysfs);
	if (!read_line(path, cs, sizeof(cs))) {
		snprintf(why, len, "the kernel's clocksource is unknown (no current_clocksource in %.40s)", sysfs);
		return false;
	}
	if (strcmp(cs, "tsc")) {
		snprintf(why, len, "the kernel keeps time with %s, not the TSC", cs);
		return false;
	}
	if (!cpu_has(cpuinfo, flags, &missing)) {
		if (missing)
			snprintf(why, len, "the CPU lacks %s", missing);
		else
			snprintf(why, len, "%s has no flags line", cpuinfo);
		return false;
	}
	*ret_kind = ltt_tclock_tsc_kind(cpuinfo);
	snprintf(why, len, "the kernel keeps time with the TSC%s",
		 *ret_kind == LTT_TCLOCK_TSC ? "" :
		 "; the CPU lacks rdtscp: read with lfence; rdtsc, the CPU from rseq");
	return true;
}

int ltt_tclock_choose(const char *want, const char *sysfs, const char *cpuinfo,
		      struct ltt_tclock *ret, char *err, size_t errlen)
{
	char why[sizeof(ret->why)];
	uint32_t kind = LTT_TCLOCK_MONO;
	bool usable;

	if (!want)
		want = "auto";
	if (strcmp(want, "auto") && strcmp(want, "tsc") && strcmp(want, "monotonic")) {
		snprintf(err, errlen, "unknown clock '%s': give auto, tsc or monotonic", want);
		return -EINVAL;
	}
	memset(ret, 0, sizeof(*ret));
	ret->kind = LTT_TCLOCK_MONO;
	if (!strcmp(want, "monotonic")) {
		snprintf(ret->why, sizeof(ret->why), "asked for (--clock or LTT_CLOCK)");
		return 0;
	}
	usable = tsc_usable(sysfs, cpuinfo, why, sizeof(why), &kind);
	if (!usable && !strcmp(want, "tsc")) {
		snprintf(err, errlen, "the TSC cannot time events here: %s", why);
		return -ENOTSUP;
	}
	snprintf(ret->why, sizeof(ret->why), "%s", why);
	if (usable) {
		ret->kind = kind;
		ltt_tclock_pair(&ret->origin);
	}
	return 0;
}

void ltt_tclock_pair(struct ltt_tclock_pair *ret)
{
	uint64_t best = UINT64_MAX;
	int i;

	ret->tsc = 0;
	ret->mono_ns = 0;
	for (i = 0; i < PAIR_TRIES; i++) {
		uint64_t a = ltt_tclock_read(LTT_TCLOCK_TSC_LFENCE);
		uint64_t ns = ltt_tclock_mono();
		uint64_t b = ltt_tclock_read(LTT_TCLOCK_TSC_LFENCE);

		if (b >= a && b - a < best) {
			best = b - a;
			ret->tsc = a + (b - a) / 2;
			ret->mono_ns = ns;
		}
	}
}

uint64_t ltt_tclock_freq(const struct ltt_tclock *c)
{
	struct ltt_tclock_pair now;
	unsigned __int128 hz;

	if (!ltt_tclock_is_tsc(c->kind))
		return LTT_TCLOCK_NS_FREQ;
	ltt_tclock_pair(&now);
	if (now.mono_ns - c->origin.mono_ns < LTT_TCLOCK_CAL_MIN_NS) {
		uint64_t left = LTT_TCLOCK_CAL_MIN_NS - (now.mono_ns - c->origin.mono_ns);
		struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)left };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		ltt_tclock_pair(&now);
	}
	hz = (unsigned __int128)(now.tsc - c->origin.tsc) * LTT_TCLOCK_NS_FREQ;
	hz += (now.mono_ns - c->origin.mono_ns) / 2;	/* rounded */
	hz /= now.mono_ns - c->origin.mono_ns;
	return (uint64_t)hz;
}

uint64_t ltt_tclock_base(uint64_t freq, const struct ltt_tclock_pair *at)
{
	unsigned __int128 mono = (unsigned __int128)at->mono_ns * freq / LTT_TCLOCK_NS_FREQ;

	return at->tsc - (uint64_t)mono;
}

void ltt_tclock_offset(uint32_t kind, uint64_t freq, int64_t realtime_minus_mono_ns,
		       int64_t *ret_s, uint64_t *ret_cycles)
{
	uint64_t ns;

	if (!ltt_tclock_is_tsc(kind) || !freq) {
		*ret_s = 0;
		*ret_cycles = (uint64_t)realtime_minus_mono_ns;
		return;
	}
	*ret_s = realtime_minus_mono_ns / (int64_t)LTT_TCLOCK_NS_FREQ;
	ns = (uint64_t)(realtime_minus_mono_ns % (int64_t)LTT_TCLOCK_NS_FREQ);
	*ret_cycles = (uint64_t)(((unsigned __int128)ns * freq + LTT_TCLOCK_NS_FREQ - 1) /
				 LTT_TCLOCK_NS_FREQ);
	/* a reader's double may land a hair below: one cycle more is < 1 ns */
	if ((uint64_t)((double)*ret_cycles * 1e9 / (double)freq) < ns)
		(*ret_cycles)++;
}
