// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_consumerd_threads.c - ltt-consumerd's data threads (--data-threads).
 *
 * The test plays the session daemon (consumerd-harness.h).  A channel
 * written to files has one part per data thread, up to the configured
 * CPUs, CPU c's stream on part c modulo their number (doc/consumerd.md,
 * "Threads"), so six streams spread over three threads (two on a 2-CPU
 * host).  Checked, with one thread and with three:
 *
 *   - the option: bad values refused (status 1, a message naming it),
 *     the environment's default too; the threads it asks for run;
 *     without either, one per CPU it may run on (pinned to one: one);
 *   - placement: the consumer's log (-vv) puts each stream on its thread;
 *   - what needs the channel as a whole: a memory read by a stream of
 *     another thread, and a stream id other than the channel's first
 *     stream's on another thread, are refused;
 *   - every event written is recorded once or counted lost (writers flat
 *     out on wakeups alone), CHANNEL_STATS sums every part (bytes written
 *     = the files' sizes, events lost = the writers' drops); writers
 *     without wakeups overflow on every part, so that sum is not 0 = 0;
 *     a failing output on one part (a directory where CPU 1's file goes)
 *     is the channel's failure;
 *   - a rotation moves every part's streams: each event in exactly one
 *     chunk; DESTROY_CHANNEL's final flush writes every part's last
 *     events.
 *
 * Nothing waits with a blind sleep: replies are synchronous, exits are
 * waited for on a pidfd or a pipe with a bound.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../unit/tap.h"
#include "common/base/codec.h"
#include "common/proto/consumer-proto.h"
#include "common/proto/msg.h"
#include "consumerd-harness.h"

#define NR_STREAMS 6
#define CHAN_KEY 10
#define OVF_KEY 13
#define BAD_KEY 14

/*
 * Run the consumer with "--data-threads @arg" (none when NULL) and
 * LTT_CONSUMERD_DATA_THREADS=@env (unset when NULL), its command socket
 * closed at once: a consumer that accepts its options exits 0 as soon as
 * it sees that.  Its exit status, or -1; its stderr in @err.
 */
static int run_consumer(const char *arg, const char *env, char *err, size_t len)
{
	struct pollfd pfd;
	char fdarg[16];
	int sv[2], ep[2], status;
	bool ended = false;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	err[0] = '\0';
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	if (pipe2(ep, O_CLOEXEC)) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		fcntl(sv[1], F_SETFD, 0);
		dup2(ep[1], 2);
		snprintf(fdarg, sizeof(fdarg), "%d", sv[1]);
		if (env)
			setenv("LTT_CONSUMERD_DATA_THREADS", env, 1);
		else
			unsetenv("LTT_CONSUMERD_DATA_THREADS");
		execl(ch_consumerd_path, "ltt-consumerd", "--cmd-fd", fdarg,
		      arg ? "--data-threads" : NULL, arg, (char *)NULL);
		_exit(127);
	}
	close(sv[0]);
	close(sv[1]);
	close(ep[1]);
	/* its stderr ends when it exits */
	pfd = (struct pollfd){ .fd = ep[0], .events = POLLIN };
	while (pid > 0 && poll(&pfd, 1, WAIT_MS) > 0) {
		n = read(ep[0], err + got, len - 1 - got);
		if (n <= 0) {
			ended = n == 0;
			break;
		}
		got += (size_t)n;
		if (got == len - 1)
			got = 0;	/* only the end matters: start over */
	}
	err[got] = '\0';
	close(ep[0]);
	if (pid < 0)
		return -1;
	if (!ended)
		kill(pid, SIGKILL);	/* still running after WAIT_MS: fails below */
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return ended && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_option(void)
{
	static const char *const bad[] = { "0", "65", "-1", "x", "3x", "", " 2" };
	char err[1024], what[64];
	unsigned int i;
	int st;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		st = run_consumer(bad[i], NULL, err, sizeof(err));
		snprintf(what, sizeof(what), "--data-threads '%s'", bad[i]);
		tap_ok(st == 1 && strstr(err, "--data-threads needs a number from 1 to 64"),
		       "%s is refused, status 1 (%d), with a message", what, st);
	}
	st = run_consumer(NULL, "0", err, sizeof(err));
	tap_ok(st == 1 && strstr(err, "LTT_CONSUMERD_DATA_THREADS must be a number"),
	       "LTT_CONSUMERD_DATA_THREADS=0 is refused, status 1 (%d), with a message", st);
	tap_is_int(run_consumer("64", NULL, err, sizeof(err)), 0,
		   "--data-threads 64 starts (and exits 0 when the socket closes)");
	tap_is_int(run_consumer("2", "x", err, sizeof(err)), 0,
		   "--data-threads wins over the environment");
}

/* The consumer's threads named "data-N". */
static int data_threads_of(pid_t pid)
{
	char path[PATH_MAX], comm[32];
	struct dirent *d;
	int n = 0;
	FILE *f;
	DIR *dir;

	ch_pathf(path, "/proc/%ld/task", (long)pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		ch_pathf(path, "/proc/%ld/task/%s/comm", (long)pid, d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "data-", 5))
			n++;
		fclose(f);
	}
	closedir(dir);
	return n;
}

/*
 * Without the option or the environment, one data thread per CPU the
 * consumer may run on: pinned to one CPU (the affinity it inherits), it
 * runs one, whatever the online CPUs.
 */
static void test_default(void)
{
	cpu_set_t saved, one;
	const char *env = getenv("LTT_CONSUMERD_DATA_THREADS");
	char *env_copy = env ? strdup(env) : NULL;
	struct ch_cons c;
	int n = -1;

	if (sched_getaffinity(0, sizeof(saved), &saved)) {
		tap_skip("sched_getaffinity: %s", strerror(errno));
		free(env_copy);
		return;
	}
	CPU_ZERO(&one);
	for (n = 0; n < CPU_SETSIZE && !CPU_ISSET(n, &saved); n++)
		;
	CPU_SET(n, &one);
	n = -1;
	unsetenv("LTT_CONSUMERD_DATA_THREADS");
	if (!sched_setaffinity(0, sizeof(one), &one) && ch_start(&c) == 0) {
		n = data_threads_of(c.pid);
		close(c.fd);
		ch_wait(&c, WAIT_MS);
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	if (env_copy)
		setenv("LTT_CONSUMERD_DATA_THREADS", env_copy, 1);
	free(env_copy);
	tap_is_int(n, 1, "by default, a consumer allowed one CPU of %d online runs one data thread",
		   (int)sysconf(_SC_NPROCESSORS_ONLN));
}

static int rotate(struct ch_cons *c, uint64_t trace_key, const char *dir)
{
	struct ltt_consumer_rotate_trace m = { .trace_key = trace_key, .dir = dir };
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_consumer_put_rotate_trace(&w, &m);
	return ch_call(c, LTT_CONSUMER_MSG_ROTATE_TRACE, &w);
}

/* What needs the whole channel, whichever thread runs the stream. */
static void test_channel_checks(struct ch_cons *c, const struct ch_tstream *ts0)
{
	struct ch_chan_args ca = { .key = 11, .trace_key = 1, .name = "other" };
	struct ch_ts_args a = { .num_subbuf = 4, .wakeups = true, .seal = true };
	struct ch_tstream t0, t1;

	tap_is_int(ch_add_channel(c, &ca), 0, "ADD_CHANNEL other");
	/* cpu 1's part: another thread than the one reading ts0 (cpu 0), if several */
	tap_is_int(ch_add_stream(c, 11, 1, ts0), -EEXIST,
		   "ADD_STREAM: memory another channel's stream reads (another thread's) is refused");
	ca = (struct ch_chan_args){ .key = 12, .trace_key = 1, .name = "ids" };
	tap_is_int(ch_add_channel(c, &ca), 0, "ADD_CHANNEL ids");
	a.cpu = 0;
	a.stream_id = 4;
	ch_tstream_init(&t0, &a, 300);
	a.cpu = 1;
	a.stream_id = 5;
	ch_tstream_init(&t1, &a, 301);
	tap_is_int(ch_add_stream(c, 12, 0, &t0), 0, "ADD_STREAM ids cpu 0 (stream id 4)");
	tap_is_int(ch_add_stream(c, 12, 1, &t1), -EINVAL,
		   "ADD_STREAM ids cpu 1, stream id 5 (another part, if several): refused, one id a channel");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 12), 0, "DESTROY_CHANNEL ids");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 11), 0, "DESTROY_CHANNEL other");
	ch_tstream_fini(&t0);
	ch_tstream_fini(&t1);
}

/* Each stream's events over the chunks @dirs: all present once, packets in order. */
static void verify(const char *const *dirs, unsigned int nr_dirs, struct ch_tstream *ts)
{
	char what[32], data[PATH_MAX], idx[PATH_MAX];
	unsigned int cpu, d, bad = 0;
	struct ch_expect e;

	for (cpu = 0; cpu < NR_STREAMS; cpu++) {
		snprintf(what, sizeof(what), "par_%u", cpu);
		ch_expect_init(&e, what, 0, &ts[cpu], cpu);
		for (d = 0; d < nr_dirs; d++) {
			ch_pathf(data, "%s/%s", dirs[d], what);
			ch_pathf(idx, "%s/index/%s.idx", dirs[d], what);
			if (ch_check_file(&e, data, idx) < 0)
				bad++;
		}
		bad += e.errors;
		ch_check_all_seen(&e, false);
		ch_expect_fini(&e);
	}
	tap_is_int(bad, 0, "every stream's packets, headers and index entries valid over %u chunk(s)",
		   nr_dirs);
}

static off_t files_size(const char *const *dirs, unsigned int nr_dirs)
{
	char path[PATH_MAX];
	unsigned int cpu, d;
	off_t sum = 0;

	for (d = 0; d < nr_dirs; d++)
		for (cpu = 0; cpu < NR_STREAMS; cpu++)
			sum += ch_file_size(ch_pathf(path, "%s/par_%u", dirs[d], cpu));
	return sum;
}

/*
 * ch_spawn_args(), the consumer's stderr in @log: with -vv its debug lines
 * say which data thread each stream went to.
 */
static int spawn_logged(struct ch_cons *c, const char *const *extra, const char *log)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int saved = dup(2), ret = -1;

	if (fd >= 0 && saved >= 0 && dup2(fd, 2) == 2) {
		ret = ch_spawn_args(c, extra);
		dup2(saved, 2);
	}
	if (fd >= 0)
		close(fd);
	if (saved >= 0)
		close(saved);
	return ret;
}

/*
 * The streams of "par" on their data threads, as the consumer's log says:
 * CPU c's on thread c mod P, where P = min(threads, configured CPUs) is
 * the channel's parts (doc/consumerd.md, "Placement").
 */
static void check_placement(const char *log, unsigned int nr_threads)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	unsigned int parts = conf > 0 && (unsigned long)conf < nr_threads ? (unsigned int)conf
									    : nr_threads;
	unsigned int cpu, bad = 0, used = 0;
	char line[64];
	uint8_t *text;
	ssize_t len;

	len = ch_slurp(log, &text);
	for (cpu = 0; cpu < NR_STREAMS && len >= 0; cpu++) {
		snprintf(line, sizeof(line), "channel par cpu %u: on data thread %u\n", cpu,
			 cpu % parts);
		if (!memmem(text, (size_t)len, line, strlen(line)))
			bad++;
		else if (cpu < parts)
			used++;
	}
	tap_ok(len >= 0 && !bad && used == parts,
	       "the log puts CPU c's stream on data thread c mod %u, %u thread(s) in use (%u misplaced)",
	       parts, parts, len < 0 ? NR_STREAMS : bad);
	if (len >= 0)
		free(text);
}

/*
 * Writers that overflow on every part: streams without wakeups, written
 * past their 4 x 4 KiB before anything reads them, so each drops.  The
 * channel's events lost must be the sum of every part's.
 */
static void test_overflow(struct ch_cons *c)
{
	struct ch_chan_args ca = { .key = OVF_KEY, .trace_key = 1, .name = "ovf" };
	struct ch_ts_args a = { .num_subbuf = 4, .seal = true };
	struct ch_tstream ts[NR_STREAMS];
	unsigned int cpu, r = 0, dropped = 0;
	struct ch_stats st = { 0 };

	tap_is_int(ch_add_channel(c, &ca), 0, "ADD_CHANNEL ovf");
	for (cpu = 0; cpu < NR_STREAMS; cpu++) {
		a.cpu = cpu;
		ch_tstream_init(&ts[cpu], &a, 400 + cpu);
		r += ch_add_stream(c, OVF_KEY, cpu, &ts[cpu]) != 0;
	}
	tap_is_int(r, 0, "ADD_STREAM ovf cpu 0..%d (no wakeups)", NR_STREAMS - 1);
	for (cpu = 0, r = 0; cpu < NR_STREAMS; cpu++) {
		/* at least 24 bytes each: 1000 are more than 16 KiB */
		r = ch_put_events(&ts[cpu], 1000);
		dropped += r;
		if (!r)
			tap_diag("ovf cpu %u dropped nothing", cpu);
	}
	tap_is_int(ch_stats(c, OVF_KEY, &st), 0, "CHANNEL_STATS ovf");
	tap_ok(dropped > 0, "the writers of every part overflowed (%u events dropped)", dropped);
	tap_is_u64(st.events_lost, dropped, "events lost = the writers' drops, over every part (%u)",
		   dropped);
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, OVF_KEY), 0,
		   "DESTROY_CHANNEL ovf");
	for (cpu = 0; cpu < NR_STREAMS; cpu++)
		ch_tstream_fini(&ts[cpu]);
}

/*
 * An output that fails for one part only: CPU 1's file (on part 1 when
 * there are several) cannot be created, a directory stands in its place.
 * CHANNEL_STATS says the channel's output failed.
 */
static void test_part_failure(struct ch_cons *c, const char *dir)
{
	struct ch_chan_args ca = { .key = BAD_KEY, .trace_key = 1, .name = "bad" };
	struct ch_ts_args a = { .num_subbuf = 4, .wakeups = true, .seal = true };
	struct ch_stats st = { 0 };
	struct ch_tstream ts[2];
	char path[PATH_MAX];
	unsigned int cpu, r = 0;

	tap_is_int(mkdir(ch_pathf(path, "%s/bad_1", dir), 0700), 0,
		   "a directory where CPU 1's file of channel bad goes");
	tap_is_int(ch_add_channel(c, &ca), 0, "ADD_CHANNEL bad");
	for (cpu = 0; cpu < 2; cpu++) {
		a.cpu = cpu;
		ch_tstream_init(&ts[cpu], &a, 500 + cpu);
		r += ch_add_stream(c, BAD_KEY, cpu, &ts[cpu]) != 0;
		ch_put_events(&ts[cpu], 10);
	}
	tap_is_int(r, 0, "ADD_STREAM bad cpu 0 and 1 (kept, cpu 1's output failing)");
	tap_is_int(ch_flush(c, BAD_KEY, 0), 0, "FLUSH_CHANNEL bad");
	tap_is_int(ch_stats(c, BAD_KEY, &st), 0, "CHANNEL_STATS bad");
	tap_is_int(st.error, -EISDIR, "CHANNEL_STATS bad: the failure of CPU 1's part (EISDIR)");
	tap_ok(ch_file_size(ch_pathf(path, "%s/bad_0", dir)) > 0,
	       "CPU 0's part wrote its file all the same");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, BAD_KEY), 0,
		   "DESTROY_CHANNEL bad");
	for (cpu = 0; cpu < 2; cpu++)
		ch_tstream_fini(&ts[cpu]);
}

/* One consumer of @nr_threads data threads: the whole scenario. */
static void test_threads(unsigned int nr_threads)
{
	struct ch_chan_args ca = { .key = CHAN_KEY, .trace_key = 1, .name = "par" };
	struct ch_ts_args a = { .num_subbuf = 4, .wakeups = true, .seal = true };
	static const char meta[] = "/* CTF 1.8 */\n";
	const char *dirs[2];
	char arg[16], dir0[PATH_MAX], dir1[PATH_MAX], log[PATH_MAX];
	const char *const extra[] = { "--data-threads", arg, "-vv", NULL };
	struct ch_tstream ts[NR_STREAMS];
	unsigned int i, r, cpu, dropped = 0, flush_fails = 0;
	struct ch_stats st = { 0 };
	struct ch_cons c;

	tap_diag("%u data thread(s)", nr_threads);
	snprintf(arg, sizeof(arg), "%u", nr_threads);
	ch_pathf(dir0, "%s/t%u/chunk0", ch_tmpdir, nr_threads);
	ch_pathf(dir1, "%s/t%u/chunk1", ch_tmpdir, nr_threads);
	ch_pathf(log, "%s/t%u.log", ch_tmpdir, nr_threads);
	dirs[0] = dir0;
	dirs[1] = dir1;
	if (!tap_ok(spawn_logged(&c, extra, log) == 0 && ch_hello(&c, LTT_CONSUMER_MAJOR) == 0,
		    "consumer with --data-threads %u started", nr_threads))
		return;
	tap_is_int(data_threads_of(c.pid), (int)nr_threads, "it runs %u data thread(s)",
		   nr_threads);
	tap_is_int(ch_add_trace(&c, 1, dir0, getuid(), getgid()), 0, "ADD_TRACE");
	tap_is_int(ch_metadata(&c, 1, meta, sizeof(meta) - 1), 0, "METADATA");
	tap_is_int(ch_add_channel(&c, &ca), 0, "ADD_CHANNEL par");
	for (cpu = 0, r = 0; cpu < NR_STREAMS; cpu++) {
		a.cpu = cpu;
		ch_tstream_init(&ts[cpu], &a, 100 + cpu);
		r += ch_add_stream(&c, CHAN_KEY, cpu, &ts[cpu]) != 0;
	}
	tap_is_int(r, 0, "ADD_STREAM par cpu 0..%d", NR_STREAMS - 1);
	check_placement(log, nr_threads);
	test_channel_checks(&c, &ts[0]);
	test_overflow(&c);
	test_part_failure(&c, dir0);

	/*
	 * Flat out on wakeups alone: 6 x 3000 events through 4 x 4 KiB
	 * each, interleaved; the writers drop what the threads did not read
	 * in time, and count it (often nothing: test_overflow() forces it).
	 */
	for (r = 0; r < 60; r++)
		for (cpu = 0; cpu < NR_STREAMS; cpu++)
			dropped += ch_put_events(&ts[cpu], 50);
	flush_fails += ch_flush(&c, CHAN_KEY, 0) != 0;
	tap_is_int(ch_stats(&c, CHAN_KEY, &st), 0, "CHANNEL_STATS");
	tap_is_u64(st.events_lost, dropped, "events lost = the writers' drops (%u)", dropped);
	tap_is_u64(st.packets_lost, 0, "no packet lost");
	tap_is_u64(st.bytes_written, (uint64_t)files_size(dirs, 1),
		   "bytes written = the stream files' sizes, over every part");

	/* a rotation: every part's streams move, each event in one chunk */
	for (cpu = 0; cpu < NR_STREAMS; cpu++)
		dropped += ch_put_events(&ts[cpu], 100);
	tap_is_int(rotate(&c, 1, dir1), 0, "ROTATE_TRACE to a new chunk");
	for (r = 0; r < 3; r++) {
		for (cpu = 0; cpu < NR_STREAMS; cpu++)
			dropped += ch_put_events(&ts[cpu], 100);
		flush_fails += ch_flush(&c, CHAN_KEY, 0) != 0;
	}
	/* the last events are written by DESTROY_CHANNEL's final flush alone */
	for (cpu = 0; cpu < NR_STREAMS; cpu++)
		dropped += ch_put_events(&ts[cpu], 30);
	tap_is_int(ch_stats(&c, CHAN_KEY, &st), 0, "CHANNEL_STATS after the rotation");
	tap_is_u64(st.events_lost, dropped, "events lost = the writers' drops (%u)", dropped);
	tap_is_int(flush_fails, 0, "every FLUSH_CHANNEL answered 0");
	tap_is_int(ch_key_cmd(&c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, CHAN_KEY), 0,
		   "DESTROY_CHANNEL par (final flush)");
	verify(dirs, 2, ts);
	close(c.fd);
	c.fd = -1;
	tap_is_int(ch_wait(&c, WAIT_MS), 0, "the consumer exits 0 when the socket closes");
	for (i = 0; i < NR_STREAMS; i++)
		ch_tstream_fini(&ts[i]);
}

int main(void)
{
	if (ch_setup())
		return 1;
	test_option();
	test_default();
	test_threads(1);
	test_threads(3);
	if (!getenv("LTT_TEST_KEEP"))
		nftw(ch_tmpdir, ch_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	else
		tap_diag("kept %s", ch_tmpdir);
	return tap_done();
}
