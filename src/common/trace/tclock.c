/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tclock.c - choosing and calibrating the clock of user-space events.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/trace/tclock.h"

#define PAIR_TRIES 16

const char *ltt_tclock_name(uint32_t kind)
{
	if (kind == LTT_TCLOCK_PLUGIN)
		return "plugin";
	return ltt_tclock_is_tsc(kind) ? "tsc" : "monotonic";
}

const char *ltt_tclock_read_name(uint32_t kind)
{
	switch (kind) {
	case LTT_TCLOCK_TSC:
		return "rdtscp";
	case LTT_TCLOCK_TSC_LFENCE:
		return "lfence; rdtsc";
	case LTT_TCLOCK_PLUGIN:
		return "read64()";	/* the clock plugin's */
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

/* Where this process's vclock pages start ([vvar_vclock], or [vvar]'s second page); 0: none. */
static uintptr_t own_vclock(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned long lo, hi;
	uintptr_t at = 0;
	char line[512];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		if (strstr(line, "[vvar_vclock]")) {
			at = lo;
			break;
		}
		/* before 6.13: vvar, pvclock, hvclock, timens pages */
		if (strstr(line, "[vvar]") && hi - lo == 4 * LTT_TCLOCK_VCLOCK_PAGE)
			at = lo + LTT_TCLOCK_VCLOCK_PAGE;
	}
	fclose(f);
	return at;
}

/*
 * The first @n bytes of vclock page @page (0 pvclock, 1 Hyper-V's) into
 * @buf: from the file @vclock, or from this process's own mapping, read
 * by a child (a page the hypervisor did not give is a SIGBUS: the child's
 * death, not ours).  False when there is none.
 */
static bool read_vclock(const char *vclock, unsigned int page, uint8_t *buf, size_t n)
{
	uintptr_t at;
	int pfd[2], status;
	bool ok = false;
	pid_t pid;
	FILE *f;

	if (vclock) {
		f = fopen(vclock, "re");
		if (!f)
			return false;
		ok = !fseek(f, (long)page * LTT_TCLOCK_VCLOCK_PAGE, SEEK_SET) &&
		     fread(buf, 1, n, f) == n;
		fclose(f);
		return ok;
	}
	at = own_vclock();
	if (!at || pipe2(pfd, O_CLOEXEC))
		return false;
	pid = fork();
	if (pid == 0) {
		ssize_t w = write(pfd[1], (const void *)(at + page * LTT_TCLOCK_VCLOCK_PAGE), n);

		_exit(w == (ssize_t)n ? 0 : 1);
	}
	close(pfd[1]);
	if (pid > 0) {
		ok = read(pfd[0], buf, n) == (ssize_t)n;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	close(pfd[0]);
	return ok;
}

/*
 * What the paravirtual clock @cs promises: one stable TSC for every vCPU,
 * the way the vDSO reads it (a sentence in @how), or false.
 */
static bool paravirt_tsc(const char *cs, const char *vclock, char *how, size_t len)
{
	uint8_t page[32];
	uint32_t seq;

	if (!strcmp(cs, "kvm-clock")) {
		if (!read_vclock(vclock, 0, page, sizeof(page)) ||
		    !(page[LTT_TCLOCK_PVCLOCK_FLAGS] & LTT_TCLOCK_PVCLOCK_STABLE)) {
			snprintf(how, len, "the kernel keeps time with kvm-clock, whose host does not promise one stable TSC for every vCPU (no pvclock stable bit)");
			return false;
		}
		snprintf(how, len, "kvm-clock, whose host promises one stable TSC for every vCPU (pvclock's stable bit)");
		return true;
	}
	if (!strcmp(cs, "hyperv_clocksource_tsc_page")) {
		if (!read_vclock(vclock, 1, page, sizeof(page)) ||
		    (memcpy(&seq, page, sizeof(seq)), seq == 0)) {
			snprintf(how, len, "the kernel keeps time with Hyper-V's reference TSC page, which is not valid now");
			return false;
		}
		snprintf(how, len, "Hyper-V's reference TSC page, one TSC for every vCPU");
		return true;
	}
	snprintf(how, len, "the kernel keeps time with %s, not the TSC", cs);
	return false;
}

/*
 * Why the TSC cannot serve here, in @why; true when it can, with how
 * writers read it in @ret_kind.
 */
static bool tsc_usable(const char *sysfs, const char *cpuinfo, const char *vclock, char *why,
		       size_t len, uint32_t *ret_kind)
{
	static const char *const flags[] = { "constant_tsc", "nonstop_tsc", NULL };
	char path[512], cs[64], how[128];
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
	if (!strcmp(cs, "tsc")) {
		snprintf(how, sizeof(how), "the TSC");
	} else if (!paravirt_tsc(cs, vclock, how, sizeof(how))) {
		snprintf(why, len, "%s", how);
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
	snprintf(why, len, "the kernel keeps time with %s%s", how,
		 *ret_kind == LTT_TCLOCK_TSC ? "" :
		 "; the CPU lacks rdtscp: read with lfence; rdtsc, the CPU from rseq");
	return true;
}

int ltt_tclock_choose(const char *want, const char *sysfs, const char *cpuinfo,
		      const char *vclock, struct ltt_tclock *ret, char *err, size_t errlen)
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
	usable = tsc_usable(sysfs, cpuinfo, vclock, why, sizeof(why), &kind);
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

	if (c->kind == LTT_TCLOCK_PLUGIN) {
		struct ltt_tclock_plugin_info p;

		return ltt_tclock_plugin_info(&p) && p.freq ? p.freq : LTT_TCLOCK_NS_FREQ;
	}
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

/* @to less @from's TSC count per second of CLOCK_MONOTONIC; 0 for no span. */
static double rate(const struct ltt_tclock_pair *from, const struct ltt_tclock_pair *to)
{
	if (to->mono_ns <= from->mono_ns)
		return 0;
	return (double)(to->tsc - from->tsc) * 1e9 / (double)(to->mono_ns - from->mono_ns);
}

bool ltt_tclock_recheck(struct ltt_tclock *c)
{
	struct ltt_tclock_pair now;
	double before, since;

	if (!ltt_tclock_is_tsc(c->kind))
		return false;
	ltt_tclock_pair(&now);
	if (!c->last.mono_ns) {
		c->last = now;
		return false;
	}
	if (now.mono_ns - c->last.mono_ns < LTT_TCLOCK_RECHECK_NS)
		return false;
	before = rate(&c->origin, &c->last);
	since = rate(&c->last, &now);
	if (before > 0 && since > 0 &&
	    (since > before * (1 + 1.0 / LTT_TCLOCK_RATE_SLACK) ||
	     since < before * (1 - 1.0 / LTT_TCLOCK_RATE_SLACK))) {
		snprintf(c->why, sizeof(c->why),
			 "the TSC's rate changed from %.0f to %.0f Hz (a virtual machine moved to another host?): CLOCK_MONOTONIC since",
			 before, since);
		c->kind = LTT_TCLOCK_MONO;
		return true;
	}
	c->last = now;
	return false;
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

int ltt_tclock_plugin_choose(struct ltt_tclock *c, const char *who)
{
	const char *path = secure_getenv("LTTNG_UST_CLOCK_PLUGIN");
	struct ltt_tclock_plugin_info p;
	char err[512];

	if (!path || !*path)
		return 0;
	if (ltt_tclock_plugin_info(&p) || !ltt_tclock_plugin_load(path, err, sizeof(err))) {
		if (c && ltt_tclock_plugin_info(&p)) {
			c->kind = LTT_TCLOCK_PLUGIN;
			memset(&c->origin, 0, sizeof(c->origin));
			memset(&c->last, 0, sizeof(c->last));
			snprintf(c->why, sizeof(c->why), "LTTNG_UST_CLOCK_PLUGIN: %s's clock %s",
				 path, p.name);
		}
		return 0;
	}
	fprintf(stderr, "%s: LTTNG_UST_CLOCK_PLUGIN: %s; ltt's own clock counts the events: give "
		"the path of a clock plugin, or unset it.\n", who, err);
	return -1;
}
