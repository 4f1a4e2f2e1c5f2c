/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tclock.h - the clock of user-space events (doc/clock.md).
 *
 * A session's user-space ring buffers count time in one of two units,
 * each kind saying also how writers read it:
 *
 *  - The CPU's time-stamp counter (a few nanoseconds, no vDSO call),
 *    where the kernel keeps its own time with the TSC (current
 *    clocksource "tsc": it found the counters of all CPUs in step and
 *    constant-rate), or with a paravirtual clock whose hypervisor
 *    promises one stable TSC for every vCPU, as the vDSO itself relies
 *    on (KVM's pvclock with its stable bit, Hyper-V's reference TSC
 *    page).  The trace's clock says the counter's frequency and
 *    an offset that puts it on CLOCK_MONOTONIC's time line, so readers
 *    convert it; ltt does not.  Two reads of the same counter:
 *     - LTT_TCLOCK_TSC: RDTSCP, which gives the CPU with the count;
 *     - LTT_TCLOCK_TSC_LFENCE: LFENCE then RDTSC, where the CPU does not
 *       advertise RDTSCP (some AMD EPYC guests); the writer takes its CPU
 *       from the rseq area instead.
 *  - LTT_TCLOCK_MONO: CLOCK_MONOTONIC in ns (clock_gettime()), everywhere
 *    else.
 *
 * The kind lives in each ring buffer's header (struct ltt_rb_shm.clock),
 * so writers and the reader of one buffer always read the same clock, and
 * no writer runs an instruction the daemon did not find advertised.
 */
#ifndef LTT_COMMON_TCLOCK_H
#define LTT_COMMON_TCLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "common/trace/tclock-plugin.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define LTT_TCLOCK_HAVE_TSC 1
#else
#define LTT_TCLOCK_HAVE_TSC 0
#endif

enum ltt_tclock_kind {
	LTT_TCLOCK_MONO = 0,
	LTT_TCLOCK_TSC = 1,
	LTT_TCLOCK_TSC_LFENCE = 2,
	/*
	 * LTTng-UST's clock plugin (LTTNG_UST_CLOCK_PLUGIN): the counts of
	 * the plugin's read64(), at its freq(); a process that loaded no
	 * plugin reads CLOCK_MONOTONIC instead, as an LTTng-UST program
	 * without the variable does.
	 */
	LTT_TCLOCK_PLUGIN = 3,
	LTT_TCLOCK_KIND_MAX = LTT_TCLOCK_PLUGIN,
};

/* Whether @kind counts TSC cycles (whichever instruction reads them). */
static inline bool ltt_tclock_is_tsc(uint32_t kind)
{
	return kind == LTT_TCLOCK_TSC || kind == LTT_TCLOCK_TSC_LFENCE;
}

/*
 * @ns nanoseconds as counts of a clock of @freq Hz (0: ns), saturated:
 * an age in the units of a ring buffer's timestamps.
 */
static inline uint64_t ltt_tclock_counts(uint64_t ns, uint64_t freq)
{
	uint64_t s = ns / LTT_TCLOCK_NS_FREQ, rest = ns % LTT_TCLOCK_NS_FREQ, c;

	if (!freq || freq == LTT_TCLOCK_NS_FREQ)
		return ns;
	if (freq > UINT64_MAX / LTT_TCLOCK_NS_FREQ || (s && s > UINT64_MAX / freq))
		return UINT64_MAX;
	c = s * freq;	/* whole seconds; the rest's product fits: both < 2^34 */
	return c + rest * freq / LTT_TCLOCK_NS_FREQ < c ? UINT64_MAX :
							 c + rest * freq / LTT_TCLOCK_NS_FREQ;
}

/*
 * Read clock @kind: TSC cycles, or CLOCK_MONOTONIC ns, or the clock
 * plugin's counts.  RDTSCP waits for
 * every earlier instruction and load, as the vDSO's ordered read does: a
 * timestamp read after a load that saw another thread's store is not
 * older than the timestamp that thread read before its store.  LFENCE
 * before RDTSC gives the same order where RDTSCP is missing (the kernel's
 * rdtsc_ordered() reads it so on both vendors).
 *
 * @cpu gets the CPU the TSC was read on, which RDTSCP returns with it for
 * free: Linux keeps each CPU's number in its TSC_AUX register (the low 12
 * bits; the NUMA node above), as the vDSO's getcpu() reads it.  For the
 * other reads, LTT_TCLOCK_NO_CPU.
 */
#define LTT_TCLOCK_NO_CPU UINT32_MAX

static inline uint64_t ltt_tclock_read_cpu(uint32_t kind, uint32_t *cpu)
{
#if LTT_TCLOCK_HAVE_TSC
	if (__builtin_expect(kind == LTT_TCLOCK_TSC, 1)) {
		/*
		 * Not __rdtscp(): GCC stores its TSC_AUX through the pointer,
		 * a store to the stack nothing reads.  The "memory" clobber
		 * keeps the compiler from moving the read before the loads
		 * it must follow (RDTSCP keeps the CPU from it).
		 */
#if defined(__x86_64__)
		/* RDTSCP zeroes the registers' upper halves: no extension */
		uint64_t lo, hi, aux;
#else
		uint32_t lo, hi, aux;
#endif

		__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
		*cpu = (uint32_t)aux & 0xfff;
		return (uint64_t)hi << 32 | lo;
	}
#endif
	*cpu = LTT_TCLOCK_NO_CPU;
	/*
	 * One test for CLOCK_MONOTONIC's path, as when LFENCE's was the
	 * only other kind: the plugin's costs no instruction to the others.
	 */
	if (__builtin_expect(kind != LTT_TCLOCK_MONO, 0)) {
#if LTT_TCLOCK_HAVE_TSC
		if (kind == LTT_TCLOCK_TSC_LFENCE) {
			_mm_lfence();
			return __rdtsc();
		}
#endif
		return ltt_tclock_plugin_now();
	}
	return ltt_tclock_mono();
}

static inline uint64_t ltt_tclock_read(uint32_t kind)
{
	uint32_t cpu;

	return ltt_tclock_read_cpu(kind, &cpu);
}

/* A TSC value and a CLOCK_MONOTONIC value read at (nearly) one instant. */
struct ltt_tclock_pair {
	uint64_t tsc;
	uint64_t mono_ns;
};

/*
 * The clock a session daemon gives its sessions, chosen once at start:
 * @kind, the first pair of its calibration (TSC), and why (a sentence
 * for the trace's env and `lttctl list`).
 */
struct ltt_tclock {
	uint32_t kind;
	struct ltt_tclock_pair origin;	/* TSC: the calibration's first pair */
	struct ltt_tclock_pair last;	/* TSC: the last ltt_tclock_recheck()'s, or 0s */
	char why[256];
};

/**
 * ltt_tclock_choose() - choose the clock for user-space events
 * @want: "auto" (or NULL): TSC where usable, else monotonic; "tsc": TSC or
 *        an error; "monotonic": CLOCK_MONOTONIC
 * @sysfs: root of the clocksource files ("/sys"; tests give another)
 * @cpuinfo: the cpuinfo file ("/proc/cpuinfo")
 * @vclock: a file holding the paravirtual clock pages (tests), or NULL:
 *          this process's own, the vDSO's [vvar_vclock] (read in a child
 *          process: an absent page is a SIGBUS there, not here)
 * @ret: the choice; for TSC, its calibration starts now (the first pair)
 *       and each ltt_tclock_freq() measures from there
 * @err: why "tsc" cannot be had, or what is wrong with @want
 *
 * Returns 0, -EINVAL for an unknown @want, or -ENOTSUP for "tsc" where
 * the kernel does not keep time with it.
 */
int ltt_tclock_choose(const char *want, const char *sysfs, const char *cpuinfo,
		      const char *vclock, struct ltt_tclock *ret, char *err, size_t errlen);

/*
 * The vDSO's paravirtual clock pages ([vvar_vclock], kernel 6.13 on; the
 * second page of [vvar] before): KVM's pvclock of vCPU 0, then Hyper-V's
 * reference TSC page.  Only the words the choice reads.
 */
#define LTT_TCLOCK_PVCLOCK_FLAGS 29	/* byte offset of pvclock's flags */
#define LTT_TCLOCK_PVCLOCK_STABLE 0x01	/* PVCLOCK_TSC_STABLE_BIT */
#define LTT_TCLOCK_VCLOCK_PAGE 4096

/**
 * ltt_tclock_pair() - read the TSC and CLOCK_MONOTONIC together: the
 * narrowest of several brackets (TSC, clock_gettime(), TSC), the TSC at
 * its middle; the TSC read with LFENCE; RDTSC, which every x86-64 CPU has
 */
void ltt_tclock_pair(struct ltt_tclock_pair *ret);

/**
 * ltt_tclock_freq() - @c's frequency (Hz) measured from its first pair to
 * now, waiting until LTT_TCLOCK_CAL_MIN_NS have passed since the first
 * pair: the longer the daemon has run, the closer it is.  Measured against
 * CLOCK_MONOTONIC, so that it includes the rate NTP gives the kernel's
 * clock, which the kernel's events follow.  For LTT_TCLOCK_MONO, 10^9.
 */
#define LTT_TCLOCK_CAL_MIN_NS 20000000ULL
uint64_t ltt_tclock_freq(const struct ltt_tclock *c);

/**
 * ltt_tclock_recheck() - for a TSC clock, whether the TSC still runs at
 * the rate it had: a virtual machine moved to a host of another TSC rate
 * without scaling, or a hypervisor that stopped keeping its promise,
 * would have the trace convert its counts with a wrong frequency.  Over
 * the span since the last recheck (once it is at least
 * LTT_TCLOCK_RECHECK_NS), the TSC's rate against CLOCK_MONOTONIC is
 * compared with its rate from the origin to that recheck; if they differ
 * by more than 1/LTT_TCLOCK_RATE_SLACK, @c becomes CLOCK_MONOTONIC and
 * @c->why says why.
 *
 * Not thread-safe (the caller serializes).  Returns true when @c changed.
 */
#define LTT_TCLOCK_RECHECK_NS 1000000000ULL
#define LTT_TCLOCK_RATE_SLACK 1000
bool ltt_tclock_recheck(struct ltt_tclock *c);

/**
 * ltt_tclock_base() - what a session's streams subtract from each TSC read,
 * so that a count c is CLOCK_MONOTONIC's c / @freq seconds: the TSC less
 * @at's CLOCK_MONOTONIC in cycles (modulo 2^64)
 * @freq: the TSC's frequency
 * @at: a pair read at one instant
 */
uint64_t ltt_tclock_base(uint64_t freq, const struct ltt_tclock_pair *at);

/**
 * ltt_tclock_offset() - the CTF clock offset of a trace whose counts are
 * CLOCK_MONOTONIC's time (ns, or TSC cycles less the base), on the
 * realtime time line
 * @kind: the clock
 * @freq: its frequency
 * @realtime_minus_mono_ns: CLOCK_REALTIME - CLOCK_MONOTONIC, in ns (>= 0)
 * @ret_s, @ret_cycles: offset_s and offset.  LTT_TCLOCK_MONO: 0 and the
 *      ns, the one offset line ltt always wrote.  LTT_TCLOCK_TSC: the
 *      seconds, and the rest in cycles (< @freq), rounded up so that a
 *      reader converting it to ns and truncating gets the same offset as
 *      the kernel trace's to the ns (babeltrace 1, which lttng-analyses
 *      uses, keeps one offset for all the traces it reads together)
 */
void ltt_tclock_offset(uint32_t kind, uint64_t freq, int64_t realtime_minus_mono_ns,
		       int64_t *ret_s, uint64_t *ret_cycles);

/* "tsc" or "monotonic": the unit, for the trace's clock */
const char *ltt_tclock_name(uint32_t kind);

/* how writers read @kind: "rdtscp", "lfence; rdtsc" or "clock_gettime" */
const char *ltt_tclock_read_name(uint32_t kind);

/**
 * ltt_tclock_tsc_kind() - how this machine's writers read the TSC:
 * LTT_TCLOCK_TSC where the "flags" line of @cpuinfo ("/proc/cpuinfo")
 * holds rdtscp, else LTT_TCLOCK_TSC_LFENCE
 */
uint32_t ltt_tclock_tsc_kind(const char *cpuinfo);

/*
 * ltt_tclock_plugin_choose() - load the plugin LTTNG_UST_CLOCK_PLUGIN
 * names (secure_getenv(): not in a process with more privileges than its
 * user's), once per process; when it is enabled and @c is not NULL, @c
 * becomes LTT_TCLOCK_PLUGIN.  Returns 0 (no variable, or loaded), or -1
 * after saying on stderr, after "@who: ", why not (@c unchanged).
 */
int ltt_tclock_plugin_choose(struct ltt_tclock *c, const char *who);

#endif /* LTT_COMMON_TCLOCK_H */
