// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tclock.c - the clock of user-space events (src/common/trace/tclock.c,
 * doc/clock.md): the choice from the kernel's clocksource and the CPU's
 * flags, the CTF offset, the calibration, and ring buffers counting TSC
 * cycles (per stream in order under racing writers; across streams in
 * the order of a token handed between threads on two CPUs).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/trace/ringbuf.h"
#include "common/trace/tclock.h"
#include "tests/unit/rb-harness.h"
#include "tests/unit/tap.h"

#define HANDOFFS 20000u

static char tmp[64];

static void put_file(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* A fake /sys whose clocksource is @cs, and a cpuinfo whose flags are @flags. */
/*
 * The paravirtual clock pages choose() gives: pvclock's flags byte and
 * Hyper-V's sequence (0: not valid).
 */
static uint8_t pv_flags;
static uint32_t hv_sequence;

static void put_vclock(const char *path)
{
	static uint8_t pages[2 * LTT_TCLOCK_VCLOCK_PAGE];
	FILE *f = fopen(path, "we");

	memset(pages, 0, sizeof(pages));
	pages[LTT_TCLOCK_PVCLOCK_FLAGS] = pv_flags;
	memcpy(pages + LTT_TCLOCK_VCLOCK_PAGE, &hv_sequence, sizeof(hv_sequence));
	if (!f || fwrite(pages, 1, sizeof(pages), f) != sizeof(pages) || fclose(f))
		abort();
}

static int choose(const char *want, const char *cs, const char *flags, struct ltt_tclock *c,
		  char *err, size_t len)
{
	char sys[128], cpuinfo[128], vclock[128], line[512];

	snprintf(sys, sizeof(sys), "%s/sys", tmp);
	snprintf(cpuinfo, sizeof(cpuinfo), "%s/cpuinfo", tmp);
	if (cs) {
		snprintf(line, sizeof(line), "%s\n", cs);
		put_file("sys/devices/system/clocksource/clocksource0/current_clocksource", line);
	} else {
		snprintf(line, sizeof(line), "%s/sys/devices/system/clocksource/clocksource0/"
			 "current_clocksource", tmp);
		unlink(line);
	}
	snprintf(line, sizeof(line), "processor\t: 0\nflags\t\t: %s\n\n", flags);
	put_file("cpuinfo", line);
	snprintf(vclock, sizeof(vclock), "%s/vclock", tmp);
	put_vclock(vclock);
	err[0] = '\0';
	return ltt_tclock_choose(want, sys, cpuinfo, vclock, c, err, len);
}

static void test_choose(void)
{
	const char *good = "fpu tsc msr rdtscp constant_tsc nonstop_tsc tsc_known_freq";
	struct ltt_tclock c;
	char err[256];
	int ret;

	ret = choose(NULL, "tsc", good, &c, err, sizeof(err));
	if (LTT_TCLOCK_HAVE_TSC) {
		tap_ok(!ret && c.kind == LTT_TCLOCK_TSC && c.origin.tsc && c.origin.mono_ns,
		       "auto, clocksource tsc, the flags: the TSC, its first pair read");
		tap_is_str(c.why, "the kernel keeps time with the TSC", "... saying why");
	} else {
		tap_ok(!ret && c.kind == LTT_TCLOCK_MONO, "auto: monotonic (no TSC here)");
		tap_skip("no TSC on this architecture");
	}
	ret = choose("auto", "kvm-clock", good, &c, err, sizeof(err));
	tap_ok(!ret && c.kind == LTT_TCLOCK_MONO, "auto, clocksource kvm-clock: monotonic");
	if (LTT_TCLOCK_HAVE_TSC)
		tap_is_str(c.why, "the kernel keeps time with kvm-clock, whose host does not promise one stable TSC for every vCPU (no pvclock stable bit)",
			   "... saying why (no pvclock stable bit)");
	else
		tap_skip("no TSC on this architecture");
	ret = choose("tsc", "hpet", good, &c, err, sizeof(err));
	tap_ok(ret == -ENOTSUP && strstr(err, "hpet"), "tsc asked for, clocksource hpet: refused (%s)",
	       err);
	ret = choose("auto", "tsc", "fpu tsc rdtscp constant_tsc", &c, err, sizeof(err));
	tap_ok(!ret && c.kind == LTT_TCLOCK_MONO &&
	       (!LTT_TCLOCK_HAVE_TSC || !strcmp(c.why, "the CPU lacks nonstop_tsc")),
	       "no nonstop_tsc: monotonic, saying which flag is missing (%s)", c.why);
	ret = choose("auto", "tsc", "fpu tsc my_rdtscp constant_tsc nonstop_tsc", &c, err,
		     sizeof(err));
	tap_ok(!ret && (!LTT_TCLOCK_HAVE_TSC || (c.kind == LTT_TCLOCK_TSC_LFENCE &&
	       !strcmp(c.why, "the kernel keeps time with the TSC; the CPU lacks rdtscp: "
		       "read with lfence; rdtsc, the CPU from rseq"))),
	       "a flag is a whole word: my_rdtscp is not rdtscp, the TSC is read with "
	       "lfence; rdtsc (%s)", c.why);
	/* an AMD EPYC guest's flags: no rdtscp, no rdpid */
	ret = choose("tsc", "tsc", "fpu tsc constant_tsc nonstop_tsc tsc_known_freq", &c, err,
		     sizeof(err));
	tap_ok(!ret && (!LTT_TCLOCK_HAVE_TSC || (c.kind == LTT_TCLOCK_TSC_LFENCE &&
						  c.origin.tsc && c.origin.mono_ns)),
	       "tsc asked for where the CPU lacks rdtscp: the TSC read with lfence; rdtsc (%s)",
	       ret ? err : c.why);
	ret = choose("auto", "kvm-clock", "fpu tsc constant_tsc nonstop_tsc tsc_known_freq", &c,
		     err, sizeof(err));
	tap_ok(!ret && c.kind == LTT_TCLOCK_MONO && (!LTT_TCLOCK_HAVE_TSC ||
	       !strcmp(c.why, "the kernel keeps time with kvm-clock, whose host does not promise one stable TSC for every vCPU (no pvclock stable bit)")),
	       "... the same guest with clocksource kvm-clock, no pvclock stable bit: monotonic (%s)",
	       c.why);
	pv_flags = LTT_TCLOCK_PVCLOCK_STABLE;
	ret = choose("auto", "kvm-clock", "fpu tsc constant_tsc nonstop_tsc tsc_known_freq", &c,
		     err, sizeof(err));
	tap_ok(!ret && (!LTT_TCLOCK_HAVE_TSC || (c.kind == LTT_TCLOCK_TSC_LFENCE &&
	       !strcmp(c.why, "the kernel keeps time with kvm-clock, whose host promises one stable TSC for every vCPU (pvclock's stable bit); the CPU lacks rdtscp: read with lfence; rdtsc, the CPU from rseq"))),
	       "... with the pvclock stable bit: the TSC, by lfence; rdtsc (%s)", c.why);
	ret = choose("auto", "kvm-clock", good, &c, err, sizeof(err));
	tap_ok(!ret && (!LTT_TCLOCK_HAVE_TSC || c.kind == LTT_TCLOCK_TSC),
	       "kvm-clock with the stable bit and rdtscp: the TSC by rdtscp (%s)", c.why);
	ret = choose("auto", "kvm-clock", "fpu tsc rdtscp constant_tsc", &c, err, sizeof(err));
	tap_ok(!ret && c.kind == LTT_TCLOCK_MONO,
	       "kvm-clock with the stable bit but no nonstop_tsc: monotonic (%s)", c.why);
	pv_flags = 0;
	ret = choose("auto", "hyperv_clocksource_tsc_page", good, &c, err, sizeof(err));
	tap_ok(!ret && c.kind == LTT_TCLOCK_MONO, "Hyper-V's TSC page not valid (sequence 0): monotonic (%s)",
	       c.why);
	hv_sequence = 7;
	ret = choose("auto", "hyperv_clocksource_tsc_page", good, &c, err, sizeof(err));
	tap_ok(!ret && (!LTT_TCLOCK_HAVE_TSC || (c.kind == LTT_TCLOCK_TSC &&
	       !strcmp(c.why, "the kernel keeps time with Hyper-V's reference TSC page, one TSC for every vCPU"))),
	       "Hyper-V's valid TSC page: the TSC (%s)", c.why);
	hv_sequence = 0;
	ret = choose("auto", NULL, good, &c, err, sizeof(err));
	tap_ok(!ret && c.kind == LTT_TCLOCK_MONO && (!LTT_TCLOCK_HAVE_TSC ||
						     strstr(c.why, "clocksource is unknown")),
	       "no clocksource file: monotonic (%s)", c.why);
	ret = choose("monotonic", "tsc", good, &c, err, sizeof(err));
	tap_ok(!ret && c.kind == LTT_TCLOCK_MONO &&
	       !strcmp(c.why, "asked for (--clock or LTT_CLOCK)"),
	       "monotonic asked for: monotonic, even where the TSC would do");
	ret = choose("TSC", "tsc", good, &c, err, sizeof(err));
	tap_ok(ret == -EINVAL && strstr(err, "give auto, tsc or monotonic"),
	       "an unknown clock is refused, saying what to give (%s)", err);
	tap_is_str(ltt_tclock_name(LTT_TCLOCK_TSC), "tsc", "the TSC's name");
	tap_is_str(ltt_tclock_name(LTT_TCLOCK_MONO), "monotonic", "CLOCK_MONOTONIC's name");
	tap_is_str(ltt_tclock_name(LTT_TCLOCK_TSC_LFENCE), "tsc",
		   "the TSC read with lfence; rdtsc has the TSC's name");
	tap_ok(!strcmp(ltt_tclock_read_name(LTT_TCLOCK_TSC), "rdtscp") &&
	       !strcmp(ltt_tclock_read_name(LTT_TCLOCK_TSC_LFENCE), "lfence; rdtsc") &&
	       !strcmp(ltt_tclock_read_name(LTT_TCLOCK_MONO), "clock_gettime"),
	       "the names of the three reads, for the trace's env");
}

static void test_offset(void)
{
	struct ltt_tclock_pair at = { .tsc = 5000000000ULL, .mono_ns = 3000000000ULL };
	uint64_t cyc;
	int64_t s;

	/* at 2 GHz, CLOCK_MONOTONIC's 3 s is 6e9 cycles: the TSC is 1e9 behind */
	tap_is_u64(ltt_tclock_base(2000000000ULL, &at), (uint64_t)-1000000000LL,
		   "base: the TSC less CLOCK_MONOTONIC in cycles, modulo 2^64");
	tap_is_u64(at.tsc - ltt_tclock_base(2000000000ULL, &at), 6000000000ULL,
		   "... so the pair's count is CLOCK_MONOTONIC's 3 s at 2 GHz");
	at = (struct ltt_tclock_pair){ .tsc = 123456789012345ULL, .mono_ns = 98765432101ULL };
	tap_is_u64(at.tsc - ltt_tclock_base(3700000000ULL, &at), 365432098773ULL,
		   "3.7 GHz, a day-old TSC: the count is 98.765432101 s in cycles (no overflow)");
	ltt_tclock_offset(LTT_TCLOCK_TSC, 2000000000ULL, 100000000000LL, &s, &cyc);
	tap_ok(s == 100 && cyc == 0, "2 GHz, 100 s: offset_s 100, offset 0");
	ltt_tclock_offset(LTT_TCLOCK_TSC, 3000000000ULL, 1795000000123456789LL, &s, &cyc);
	tap_ok(s == 1795000000 && cyc == 370370367,
	       "3 GHz: offset_s 1795000000, offset 370370367 cycles (.123456789 s)");
	tap_is_u64((uint64_t)((double)cyc * 1e9 / 3000000000.0), 123456789,
		   "... which a reader converting to ns and truncating reads as the kernel's offset");
	ltt_tclock_offset(LTT_TCLOCK_TSC, 2600000103ULL, 1795000000123456789LL, &s, &cyc);
	tap_is_u64((uint64_t)((double)cyc * 1e9 / 2600000103.0), 123456789,
		   "2600000103 Hz: offset %" PRIu64 " cycles reads as .123456789 s, truncated", cyc);
	ltt_tclock_offset(LTT_TCLOCK_MONO, LTT_TCLOCK_NS_FREQ, 1795000000000000000LL, &s, &cyc);
	tap_ok(s == 0 && cyc == 1795000000000000000ULL,
	       "CLOCK_MONOTONIC: offset_s 0, the whole offset in ns, as before");
}

static void test_freq(void)
{
	struct ltt_tclock c = { .kind = LTT_TCLOCK_TSC };
	struct ltt_tclock_pair a, b;
	uint64_t f;
	double d;

	if (!LTT_TCLOCK_HAVE_TSC) {
		tap_skip("no TSC on this architecture");
		tap_skip("no TSC on this architecture");
		return;
	}
	ltt_tclock_pair(&c.origin);
	a = c.origin;
	f = ltt_tclock_freq(&c);
	ltt_tclock_pair(&b);
	tap_ok(b.mono_ns - a.mono_ns >= LTT_TCLOCK_CAL_MIN_NS,
	       "the first measure waits out the calibration's %llu ms",
	       LTT_TCLOCK_CAL_MIN_NS / 1000000);
	/* an independent measure over the same span: the same rate, to 10^-4 */
	d = (double)(b.tsc - a.tsc) * 1e9 / (double)(b.mono_ns - a.mono_ns);
	tap_ok(f > 100000000ULL && (double)f > d * 0.9999 && (double)f < d * 1.0001,
	       "its frequency, %" PRIu64 " Hz, matches a second measure (%.0f)", f, d);
	ltt_tclock_freq(&(struct ltt_tclock){ .kind = LTT_TCLOCK_MONO });
}

/*
 * A TSC whose rate changes (a virtual machine moved to another host):
 * the recheck turns the clock to CLOCK_MONOTONIC and says why; one that
 * keeps its rate stays.  The history is made up around real reads.
 */
static void test_recheck(void)
{
	struct ltt_tclock c = { .kind = LTT_TCLOCK_TSC };
	struct ltt_tclock_pair now;
	double hz;

	ltt_tclock_pair(&c.origin);
	tap_ok(!ltt_tclock_recheck(&c) && c.last.mono_ns, "the first recheck only takes a pair");
	hz = (double)ltt_tclock_freq(&c);
	ltt_tclock_pair(&now);
	/* 1.5 s ago at the true rate, and 10 s before that at the same rate */
	c.last = (struct ltt_tclock_pair){ now.tsc - (uint64_t)(hz * 1.5), now.mono_ns - 1500000000ULL };
	c.origin = (struct ltt_tclock_pair){ c.last.tsc - (uint64_t)(hz * 10), c.last.mono_ns - 10000000000ULL };
	tap_ok(!ltt_tclock_recheck(&c) && c.kind == LTT_TCLOCK_TSC, "a TSC that keeps its rate stays");
	/* the same, but twice the rate before */
	ltt_tclock_pair(&now);
	c.last = (struct ltt_tclock_pair){ now.tsc - (uint64_t)(hz * 1.5), now.mono_ns - 1500000000ULL };
	c.origin = (struct ltt_tclock_pair){ c.last.tsc - (uint64_t)(hz * 20), c.last.mono_ns - 10000000000ULL };
	tap_ok(ltt_tclock_recheck(&c) && c.kind == LTT_TCLOCK_MONO &&
	       strstr(c.why, "the TSC's rate changed from ") &&
	       strstr(c.why, "(a virtual machine moved to another host?): CLOCK_MONOTONIC since"),
	       "a TSC whose rate halved: CLOCK_MONOTONIC, saying why (%s)", c.why);
	tap_ok(!ltt_tclock_recheck(&c), "... and a monotonic clock is never rechecked");
}

/* What race() saw. */
struct race {
	unsigned int errors;	/* the checker's */
	uint64_t written, read, retried, lost;
};

/*
 * Four writer threads (every other one with the timestamp API; @retry:
 * each retrying an event that finds the buffer full) write @n events each
 * into a region of 8 x 16 KiB on rbh_clock, which a reader thread reads
 * and checks.  False when the region or the reader can't be had (@what
 * names the region in those checks).
 */
static bool race(const char *what, uint64_t n, bool retry, struct race *ret)
{
	struct rbh_region r = { .fd = -1 };
	struct rbh_writer w[4];
	struct rbh_reader rd;
	struct ltt_rb wrb;
	unsigned int i;

	memset(ret, 0, sizeof(*ret));
	if (!tap_ok(rbh_region_create(&r, 16384, 8, false) == 0, "%s", what))
		return false;
	rbh_must_attach(&wrb, &r);
	if (!tap_ok(rbh_reader_start(&rd, &r, 16384, 4, true, false, false) == 0, "its reader"))
		return false;
	ltt_rb_set_wakeup_fd(&wrb, rd.efd);
	for (i = 0; i < 4; i++) {
		w[i] = (struct rbh_writer){ .rb = &wrb, .id = i, .n = n, .max = 300,
					.retry = retry, .ts_api = i & 1 };
		pthread_create(&w[i].thread, NULL, rbh_writer_main, &w[i]);
	}
	for (i = 0; i < 4; i++)
		pthread_join(w[i].thread, NULL);
	rbh_reader_finish(&rd, &wrb);
	for (i = 0; i < 4; i++) {
		ret->written += w[i].n;
		ret->read += rd.chk.events[i];
		ret->retried += w[i].retries;
	}
	ret->errors = (unsigned int)rd.chk.errors;
	ret->lost = ltt_rb_events_lost(&wrb);
	rbh_region_destroy(&r);
	return true;
}

/* Racing writers and a reader on one stream counting TSC cycles. */
static void test_racing_writers(void)
{
	struct race rc;

	rbh_clock = ltt_tclock_tsc_kind("/proc/cpuinfo");
	if (race("a TSC region", 100000, false, &rc)) {
		tap_is_int((int)rc.errors, 0, "4 writers: every timestamp in buffer order, within "
			   "its packet's, each short one within 2^bits cycles of the one before");
		tap_is_u64(rc.read + rc.lost, rc.written, "... read + lost == written");
	}
	rbh_clock = LTT_TCLOCK_MONO;
}

/*
 * Two threads, each on a CPU of its own and writing its own stream, hand
 * a token to each other: event k of one is written after event k - 1 of
 * the other was, so its timestamp is not older.
 */
struct handoff {
	struct ltt_rb rb[2];
	uint64_t ts[HANDOFFS];
	unsigned int token;	/* the next event's number */
	unsigned int errors;
	int cpu[2];
};

struct hand {
	struct handoff *h;
	unsigned int me;
};

static void *hand_main(void *arg)
{
	struct hand *hd = arg;
	struct handoff *h = hd->h;
	struct ltt_rb_slot slot;
	unsigned int k;
	cpu_set_t set;

	if (h->cpu[hd->me] >= 0) {
		CPU_ZERO(&set);
		CPU_SET(h->cpu[hd->me], &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	for (k = hd->me; k < HANDOFFS; k += 2) {
		while (__atomic_load_n(&h->token, __ATOMIC_ACQUIRE) != k)
			;
		if (ltt_rb_reserve(&h->rb[hd->me], 64, &slot)) {
			h->errors++;
		} else {
			memset(slot.data, 0, 64);
			ltt_rb_commit(&h->rb[hd->me], &slot);
			h->ts[k] = slot.ts;
		}
		__atomic_store_n(&h->token, k + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void test_handoff(void)
{
	struct handoff *h = calloc(1, sizeof(*h));
	struct rbh_region r[2] = { { .fd = -1 }, { .fd = -1 } };
	struct hand hd[2];
	pthread_t t[2];
	unsigned int i, back = 0;
	cpu_set_t set;
	int n = 0, c;

	if (!h)
		abort();
	h->cpu[0] = h->cpu[1] = -1;
	if (!sched_getaffinity(0, sizeof(set), &set))
		for (c = 0; c < CPU_SETSIZE && n < 2; c++)
			if (CPU_ISSET(c, &set))
				h->cpu[n++] = c;
	if (n < 2)
		h->cpu[0] = h->cpu[1] = -1;
	rbh_clock = ltt_tclock_tsc_kind("/proc/cpuinfo");
	for (i = 0; i < 2; i++) {
		/* overwrite mode: the streams never fill, nobody reads them */
		if (rbh_region_create(&r[i], 16384, 4, true)) {
			tap_ok(false, "a TSC region per thread");
			return;
		}
		rbh_must_attach(&h->rb[i], &r[i]);
	}
	for (i = 0; i < 2; i++) {
		hd[i] = (struct hand){ .h = h, .me = i };
		pthread_create(&t[i], NULL, hand_main, &hd[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (i = 1; i < HANDOFFS; i++)
		if (h->ts[i] < h->ts[i - 1])
			back++;
	tap_is_int(h->errors, 0, "%u events handed between CPUs %d and %d, all recorded", HANDOFFS,
		   h->cpu[0], h->cpu[1]);
	tap_is_int(back, 0, "each event's TSC timestamp is not older than the one handed to it");
	for (i = 0; i < 2; i++)
		rbh_region_destroy(&r[i]);
	rbh_clock = LTT_TCLOCK_MONO;
	free(h);
}

/* mkdir -p @path (below the test's own directory). */
static void make_dirs(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static uint64_t plugin_count = 40;
/*
 * Atomic; set: the plugin's clock is CLOCK_MONOTONIC less a jitter of up
 * to 4095 ns that changes at every read, so it steps back about one read
 * in two, and by more than 2^FIT_BITS (rb-harness.c): racing writers
 * (test_plugin_monotonic()).  Unset: a count by two from plugin_count.
 */
static int plugin_jitter;
static __thread uint64_t jitter_state = 88172645463325252ULL;

static uint64_t mono_ns(void);

static uint64_t plugin_read64(void)
{
	if (__atomic_load_n(&plugin_jitter, __ATOMIC_RELAXED)) {
		jitter_state ^= jitter_state << 13;	/* xorshift64 */
		jitter_state ^= jitter_state >> 7;
		jitter_state ^= jitter_state << 17;
		return mono_ns() - (jitter_state & 4095);
	}
	return plugin_count += 2;
}

static uint64_t plugin_freq(void)
{
	return 1000;
}

static const char *plugin_bad_name(void)
{
	return "not an identifier";
}

static const char *plugin_name(void)
{
	return "p_clock";
}

/*
 * The clock plugin's callbacks (what lttng_ust_trace_clock_set_*_cb()
 * call): ltt's own until enabled, the plugin's after; enabling needs
 * read64, freq and a name that maps in CTF; nothing changes once enabled.
 * Last: the process keeps its plugin.
 */
static void test_plugin(void)
{
	ltt_tclock_u64_fn read64 = plugin_read64, freq = plugin_freq, got = NULL;
	ltt_tclock_text_fn name = plugin_bad_name, got_name = NULL;
	struct ltt_tclock c = { .kind = LTT_TCLOCK_PLUGIN };
	struct ltt_tclock_plugin_info info;
	uint64_t a, b;

	tap_ok(!ltt_tclock_plugin_get(LTT_TCLOCK_CB_NAME, &got_name) && got_name &&
		       !strcmp(got_name(), "monotonic") && !ltt_tclock_plugin_info(&info),
	       "plugin: before one is enabled, get gives ltt's clock (monotonic), info nothing");
	tap_is_int(ltt_tclock_plugin_enable(), -EINVAL, "plugin: enabling nothing is refused");
	ltt_tclock_plugin_set(LTT_TCLOCK_CB_READ64, &read64);
	ltt_tclock_plugin_set(LTT_TCLOCK_CB_FREQ, &freq);
	ltt_tclock_plugin_set(LTT_TCLOCK_CB_NAME, &name);
	tap_is_int(ltt_tclock_plugin_enable(), -EINVAL,
		   "plugin: a name that is no C identifier is refused (the metadata maps by it)");
	name = plugin_name;
	ltt_tclock_plugin_set(LTT_TCLOCK_CB_NAME, &name);
	tap_is_int(ltt_tclock_plugin_enable(), 0, "plugin: read64, freq and a name: enabled");
	tap_is_int(ltt_tclock_plugin_set(LTT_TCLOCK_CB_READ64, &freq), -EBUSY,
		   "plugin: a callback set once enabled is refused");
	a = ltt_tclock_read(LTT_TCLOCK_PLUGIN);
	b = ltt_tclock_read(LTT_TCLOCK_PLUGIN);
	tap_ok(a == 42 && b == 44 && !ltt_tclock_plugin_get(LTT_TCLOCK_CB_READ64, &got) &&
		       got == plugin_read64,
	       "plugin: LTT_TCLOCK_PLUGIN reads its read64() (%llu, %llu), get gives it",
	       (unsigned long long)a, (unsigned long long)b);
	tap_ok(ltt_tclock_plugin_info(&info) && !strcmp(info.name, "p_clock") && info.freq == 1000 &&
		       !info.uuid[0] && !info.description[0] && ltt_tclock_freq(&c) == 1000,
	       "plugin: info gives its name and freq, no UUID or description it did not give");
}

/*
 * A region of 4 x 4 KiB on the clock plugin (rbh_clock, set back by the
 * caller) in @r, a writer's and a reader's handle on it; false when it
 * can't be had (@what names it in that check).
 */
static bool plugin_region(struct rbh_region *r, struct ltt_rb *wrb, struct ltt_rb *rrb,
			  const char *what)
{
	rbh_clock = LTT_TCLOCK_PLUGIN;
	if (!tap_ok(rbh_region_create(r, 4096, 4, false) == 0, "%s", what))
		return false;
	rbh_must_attach(wrb, r);
	rbh_must_attach(rrb, r);
	return true;
}

/* The writer of test_plugin_flush(): between its CAS and its store of last_ts. */
struct late_writer {
	struct ltt_rb *rb;
	struct ltt_rb_slot slot;
	int go;			/* atomic: the flush starts */
	int committed;		/* atomic: the event is */
	pthread_t thread;
};

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

static void *late_main(void *arg)
{
	struct late_writer *w = arg;
	uint64_t until;

	while (!__atomic_load_n(&w->go, __ATOMIC_ACQUIRE))
		;
	/* slow for a millisecond, as a writer preempted there (no sleep: it spins) */
	for (until = mono_ns() + 1000000; mono_ns() < until;)
		;
	__atomic_store_n(&w->rb->shm->last_ts, w->slot.ts, __ATOMIC_RELAXED);
	memset(w->slot.data, 0x5a, w->slot.len);
	ltt_rb_commit(w->rb, &w->slot);
	__atomic_store_n(&w->committed, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * A clock plugin's buffer (the reader's now is the writers' last
 * timestamp): a flush while a writer has reserved its event (CAS done)
 * but not stored its timestamp yet ends the packet at or after that
 * event, not at the timestamp before it: the flush waits for the
 * packet's writers to commit.
 */
static void test_plugin_flush(void)
{
	struct rbh_region r = { .fd = -1 };
	struct late_writer w = { 0 };
	struct ltt_rb wrb, rrb;
	struct ltt_rb_packet pkt;
	uint64_t before;
	int ret;

	if (!plugin_region(&r, &wrb, &rrb, "plugin flush: a region"))
		return;
	rbh_ev_write(&wrb, 0, 0, 32);		/* the packet opens, an event */
	before = __atomic_load_n(&wrb.shm->last_ts, __ATOMIC_RELAXED);
	ret = ltt_rb_reserve(&wrb, 32, &w.slot);
	/* as if its store of last_ts were still to come */
	__atomic_store_n(&wrb.shm->last_ts, before, __ATOMIC_RELAXED);
	w.rb = &wrb;
	pthread_create(&w.thread, NULL, late_main, &w);
	__atomic_store_n(&w.go, 1, __ATOMIC_RELEASE);
	ret = ret ? ret : ltt_rb_flush(&rrb, false);
	pthread_join(w.thread, NULL);
	tap_ok(!ret && w.slot.ts > before, "plugin flush: flushed while a writer's event (%llu) "
	       "was reserved, the last timestamp stored %llu", (unsigned long long)w.slot.ts,
	       (unsigned long long)before);
	ret = ltt_rb_get_next_subbuf(&rrb, &pkt);
	tap_ok(!ret && pkt.timestamp_end >= w.slot.ts,
	       "plugin flush: the packet ends at %llu, not before its last event (%llu)",
	       (unsigned long long)pkt.timestamp_end, (unsigned long long)w.slot.ts);
	if (!ret)
		ltt_rb_put_subbuf(&rrb, &pkt);
	rbh_region_destroy(&r);
	rbh_clock = LTT_TCLOCK_MONO;
}

/*
 * A clock plugin's buffer keeps the greatest timestamp its writers read
 * (last_ts, the reader's now): a writer whose store lands after a later
 * writer's, or a plugin clock that steps back, does not lower it, and a
 * flush ends the packet at or after its last event.  The clock steps back
 * here, which takes the store of the late writer's path (one thread, so
 * no race to win); before the max, last_ts went back to the lower value.
 */
static void test_plugin_max(void)
{
	struct rbh_region r = { .fd = -1 };
	struct ltt_rb wrb, rrb;
	struct ltt_rb_packet pkt;
	uint64_t high, last;
	int ret;

	if (!plugin_region(&r, &wrb, &rrb, "plugin max: a region"))
		return;
	plugin_count = 1000;
	rbh_ev_write(&wrb, 0, 0, 32);		/* the packet opens at 1002 */
	rbh_ev_write(&wrb, 0, 1, 32);		/* 1004, in it */
	high = plugin_count;
	plugin_count = 500;			/* the clock steps back */
	ret = rbh_ev_write(&wrb, 0, 2, 32);	/* 502 */
	last = __atomic_load_n(&wrb.shm->last_ts, __ATOMIC_RELAXED);
	tap_ok(!ret && last == high, "plugin max: after events at %llu then %llu, the last "
	       "timestamp is %llu", (unsigned long long)high, (unsigned long long)plugin_count,
	       (unsigned long long)last);
	ret = ltt_rb_flush(&rrb, false);
	ret = ret ? ret : ltt_rb_get_next_subbuf(&rrb, &pkt);
	tap_ok(!ret && pkt.timestamp_end == high && pkt.events == 3,
	       "plugin max: the flushed packet ends at %llu (its greatest, %llu), 3 events (%llu)",
	       ret ? 0ULL : (unsigned long long)pkt.timestamp_end, (unsigned long long)high,
	       ret ? 0ULL : (unsigned long long)pkt.events);
	if (!ret)
		ltt_rb_put_subbuf(&rrb, &pkt);
	rbh_region_destroy(&r);
	rbh_clock = LTT_TCLOCK_MONO;
}

/*
 * A clock plugin whose clock steps back does not put an event before the
 * one ahead of it in its buffer: a writer's timestamp is at least the
 * greatest its buffer's writers read before it (ltt_rb_shm.ts_floor),
 * raised before its CAS.  One thread first (the step is certain), then
 * racing writers with a jittering clock (each retrying an event that
 * finds the buffer full) and a reader that checks every event and
 * packet; committed = read + lost.  Before, the event after
 * the step kept its lower timestamp (the checker's "ts ... before"), and
 * so did a racing writer's.
 */
static void test_plugin_monotonic(void)
{
	struct rbh_region r = { .fd = -1 };
	struct rbh_checker chk;
	struct ltt_rb wrb, rrb;
	struct race rc;
	unsigned int i;

	if (!plugin_region(&r, &wrb, &rrb, "plugin monotonic: a region"))
		return;
	plugin_count = 3000;
	for (i = 0; i < 6; i++) {
		if (i == 3)
			plugin_count = 1000;	/* the clock steps back by 2000 */
		rbh_ev_write(&wrb, 0, i, 40);
	}
	ltt_rb_flush(&rrb, false);
	rbh_checker_init(&chk, 4096, 1, true, true);
	rbh_drain(&rrb, &chk);
	tap_ok(chk.errors == 0 && chk.total == 6 && chk.last_ts == 3006,
	       "plugin monotonic: one writer, its clock back by 2000 after 3 events: 6 events "
	       "read (%llu), in order, the last at 3006 (%llu), %llu errors",
	       (unsigned long long)chk.total, (unsigned long long)chk.last_ts,
	       (unsigned long long)chk.errors);
	rbh_region_destroy(&r);

	__atomic_store_n(&plugin_jitter, 1, __ATOMIC_RELAXED);
	if (race("plugin monotonic: a region", 5000, true, &rc)) {
		tap_is_int((int)rc.errors, 0, "plugin monotonic: 4 writers, a clock stepping back: "
			   "every timestamp in buffer order, each short one within 2^bits of the "
			   "one before");
		tap_ok(rc.read == rc.written && rc.lost == rc.retried,
		       "... all %llu read (%llu), the %llu drops retried counted lost (%llu)",
		       (unsigned long long)rc.written, (unsigned long long)rc.read,
		       (unsigned long long)rc.retried, (unsigned long long)rc.lost);
	}
	__atomic_store_n(&plugin_jitter, 0, __ATOMIC_RELAXED);
	rbh_clock = LTT_TCLOCK_MONO;
}

int main(void)
{
	char d[128], cmd[160], err[256];
	struct ltt_tclock host = { .why = "" };
	int i;

	snprintf(tmp, sizeof(tmp), "/tmp/ltt-test-tclock.XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	snprintf(d, sizeof(d), "%s/sys/devices/system/clocksource/clocksource0", tmp);
	make_dirs(d);
	tap_plan(LTT_TCLOCK_HAVE_TSC ? 60 : 54);
	test_choose();
	test_offset();
	test_freq();
	if (LTT_TCLOCK_HAVE_TSC)
		test_recheck();
	else
		for (i = 0; i < 4; i++)
			tap_skip("no TSC on this architecture");
	/*
	 * Streams counting TSC cycles only where the daemon would choose
	 * them: elsewhere (tsc=unstable) the CPUs' counters need not agree.
	 */
	if (LTT_TCLOCK_HAVE_TSC &&
	    (ltt_tclock_choose("auto", "/sys", "/proc/cpuinfo", NULL, &host, err, sizeof(err)) ||
	     !ltt_tclock_is_tsc(host.kind))) {
		for (i = 0; i < 6; i++)
			tap_skip("the TSC does not time events here: %s", host.why);
	} else if (LTT_TCLOCK_HAVE_TSC) {
		test_racing_writers();
		test_handoff();
	}
	test_plugin();
	test_plugin_flush();
	test_plugin_max();
	test_plugin_monotonic();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd))
		tap_diag("could not remove %s", tmp);
	return tap_done();
}
