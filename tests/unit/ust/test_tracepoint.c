// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_tracepoint.c - libltt-ust in a real program (test_tracepoint_app,
 * linked to the shared library) against a fake session daemon that speaks
 * app-proto.h from this process: start-up without a daemon, with a dead or
 * silent one, registration and the commands, a daemon that dies, fork() and
 * dlopen().  Each run gets its own run directory (LTT_RUNDIR).
 */
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/trace/ringbuf.h"
#include "tests/unit/fake-app.h"
#include "tests/unit/tap.h"

#define WAIT_MS FAKE_WAIT_MS
#define CHAN_KEY 77
#define SD_START_ID 5	/* lttng_ust_statedump:start, enabled alone: no payload */

static char plugin_path[PATH_MAX];

/* ---- the tests ---- */

/*
 * No daemon at all: runs at once, tracepoints off, start-up cost small.
 * "At once" is shown by events, not by a wall-clock bound a loaded
 * machine stretches: a program given an hour's registration timeout ends
 * (bounded reap), so it waited for no daemon.
 */
static void test_no_daemon(void)
{
	const char *args[] = { "quick", NULL };
	char line[64] = "";
	unsigned long long ns = 0, best_ns = ULLONG_MAX;
	struct fake f;
	int i, ok = 0;

	fake_init(&f, false);
	for (i = 0; i < 5; i++) {
		int out = -1;
		pid_t pid;
		FILE *fp;

		pid = fake_spawn(&f, NULL, args, &out);
		fp = fdopen(out, "r");
		if (fp && fgets(line, sizeof(line), fp) && sscanf(line, "startup_ns %llu", &ns) == 1 &&
		    ns < best_ns)
			best_ns = ns;
		if (fp)
			fclose(fp);
		ok += fake_reap(pid, WAIT_MS) == 0;
	}
	tap_is_int(ok, 5, "no daemon: the program runs, its disabled tracepoints stay off");
	tap_is_int(fake_reap(fake_spawn(&f, "3600000", args, NULL), WAIT_MS), 0,
		   "no daemon: no wait (given an hour's timeout, the program ends)");
	/* A figure, not a pass/fail time: the benches under bench/ measure it. */
	tap_ok(best_ns != ULLONG_MAX, "the program reports its start-up cost (%llu us)",
	       best_ns / 1000);
	fake_fini(&f);
}

/* A socket file nobody listens on: refused at once, no wait either (as above). */
static void test_dead_socket(void)
{
	const char *args[] = { "quick", NULL };
	struct fake f;
	int status;

	fake_init(&f, true);
	close(f.lfd);	/* the file stays, the listener is gone */
	f.lfd = -1;
	status = fake_reap(fake_spawn(&f, "3600000", args, NULL), WAIT_MS);
	tap_is_int(status, 0, "dead daemon socket: the program runs");
	tap_ok(status == 0, "dead daemon socket: no wait (given an hour's timeout, it ends)");
	fake_fini(&f);
}

/*
 * A daemon that never answers: the wait is LTT_UST_REGISTER_TIMEOUT.  No
 * upper bound on the wall-clock time, which a loaded machine stretches:
 * a second program, started first against the same silent daemon with an
 * hour's timeout, is still waiting when the first has given up, which only
 * the timeout each was given can explain (ignored, both would wait the
 * default 3 s, and the first started would end first).  The lower bound
 * holds however slow the machine: t0 is taken before the program starts.
 */
static void test_silent_daemon(void)
{
	const char *args[] = { "quick", NULL };
	pid_t slow, quick;
	struct fake f;
	uint64_t t0, took;
	int status;

	fake_init(&f, true);
	slow = fake_spawn(&f, "3600000", args, NULL);
	t0 = fake_now_ms();
	quick = fake_spawn(&f, "300", args, NULL);
	/* bounded: a program that waited for ever would fail here */
	status = fake_reap(quick, WAIT_MS);
	took = fake_now_ms() - t0;
	tap_is_int(status, 0, "silent daemon: the program runs");
	tap_ok(took >= 300 && slow > 0 && waitpid(slow, &status, WNOHANG) == 0,
	       "silent daemon: waited LTT_UST_REGISTER_TIMEOUT (%llu ms), while one given an hour still waits",
	       (unsigned long long)took);
	if (slow > 0) {
		kill(slow, SIGKILL);
		waitpid(slow, &status, 0);
	}
	fake_fini(&f);
}

/* A channel whose region is garbage, and commands that are wrong. */
static void check_refusals(struct fake *f)
{
	struct ltt_wbuf w;
	int fds[2], status;

	fds[0] = memfd_create("ltt-bad", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	fds[1] = eventfd(0, EFD_CLOEXEC);
	if (ftruncate(fds[0], 3 * 4096) == 0 && write(fds[0], "garbage", 7) == 7 &&
	    !fcntl(fds[0], F_ADD_SEALS, F_SEAL_SHRINK)) {
		ltt_wbuf_init(&w);
		ltt_wbuf_put_u64(&w, CHAN_KEY + 1);
		ltt_wbuf_put_u64(&w, 1);
		ltt_wbuf_put_u32(&w, 0);
		ltt_wbuf_put_u8(&w, 1);
		ltt_wbuf_put_u32(&w, 1);
		status = fake_command(f, LTT_APP_MSG_CHANNEL_ADD, &w, fds, 2);
		tap_ok(status < 0 && status != INT_MIN, "a corrupt region is refused (%d)", status);
		ltt_wbuf_fini(&w);
	}
	close(fds[0]);
	close(fds[1]);
	/* a good region, but not sealed: it could shrink under the program */
	fds[0] = memfd_create("ltt-unsealed", MFD_CLOEXEC);
	fds[1] = eventfd(0, EFD_CLOEXEC);
	if (!ftruncate(fds[0], (off_t)f->streams[0].len)) {
		ltt_wbuf_init(&w);
		ltt_wbuf_put_u64(&w, CHAN_KEY + 2);
		ltt_wbuf_put_u64(&w, 1);
		ltt_wbuf_put_u32(&w, 0);
		ltt_wbuf_put_u8(&w, 1);
		ltt_wbuf_put_u32(&w, 1);
		tap_is_int(fake_command(f, LTT_APP_MSG_CHANNEL_ADD, &w, fds, 2), -EPERM,
			   "a region not sealed against shrinking is refused");
		ltt_wbuf_fini(&w);
	}
	close(fds[0]);
	close(fds[1]);
	tap_is_int(fake_command(f, 99, NULL, NULL, 0), -ENOSYS, "an unknown command: ENOSYS");
	tap_is_int(fake_event_enable(f, CHAN_KEY, "app:nosuch", 3), -ENOENT,
		   "an unknown event: ENOENT");
	tap_is_int(fake_event_enable(f, CHAN_KEY + 5, "app:first", 3), -ENOENT,
		   "an unknown channel: ENOENT");
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, 1);	/* too short for CHANNEL_ENABLE */
	tap_is_int(fake_command(f, LTT_APP_MSG_CHANNEL_ENABLE, &w, NULL, 0), -EPROTO,
		   "a malformed command: EPROTO");
	ltt_wbuf_fini(&w);
}

/* Registration, the commands, an event enabled before main(). */
static void test_register(void)
{
	const char *args[] = { "first", NULL };
	uint32_t ids[16];
	int values[16], i, status;
	struct fake f;
	unsigned int n;
	pid_t pid;

	fake_init(&f, true);
	pid = fake_spawn(&f, NULL, args, NULL);
	if (!tap_ok(fake_register(&f), "REGISTER, REGISTER_OK, TRACEPOINTS")) {
		fake_reap(pid, WAIT_MS);
		fake_fini(&f);
		return;
	}
	tap_is_int(f.pid, pid, "REGISTER: the pid");
	tap_is_int(f.nr_cpus, 0, "REGISTER: no CPU count (no sysfs read at start; the daemon counts its own)");
	tap_ok(f.procname[0] != '\0', "REGISTER: the process name (%s)", f.procname);
	i = fake_find_tp(&f, "app:warn");
	tap_ok(fake_find_tp(&f, "app:first") >= 0 && i >= 0 && f.loglevels[i] == 4 &&
	       fake_find_tp(&f, "lttng_ust_tracef:event") >= 0, "TRACEPOINTS: names and levels, in one message");
	tap_is_int(fake_channel_add(&f, CHAN_KEY), 0, "CHANNEL_ADD acknowledged");
	check_refusals(&f);
	tap_is_int(fake_event_enable(&f, CHAN_KEY, "app:first", 0), 0, "EVENT_ENABLE acknowledged");
	tap_is_int(fake_event_enable(&f, CHAN_KEY, "lttng_ust_tracef:event", TRACEF_ID), 0,
		   "EVENT_ENABLE of tracef");
	tap_ok(fake_done(&f), "REGISTER_DONE");
	status = fake_reap(pid, WAIT_MS);
	tap_is_int(status, 0, "the program ran and exited");
	n = fake_read_events(&f, ids, values, 16);
	tap_ok(n == 2 && ids[0] == 0 && values[0] == 42,
	       "the first call of main() was recorded, after exit (%u events)", n);
	tap_ok(n == 2 && ids[1] == TRACEF_ID && values[1] == 43, "and ltt_tracef() after it");
	fake_fini(&f);
}


/*
 * One round trip: the program sends its descriptions right after REGISTER,
 * before any REGISTER_OK (a daemon that held REGISTER_OK back would get
 * nothing more without this), and does not send them again after it.
 */
static void test_one_round_trip(void)
{
	const char *args[] = { "first", NULL };
	unsigned int tracepoints = 0, n, i, lib = 0;
	uint32_t ids[4];
	int values[4];
	struct ltt_msg m;
	struct fake f;
	int status;
	pid_t pid;

	fake_init(&f, true);
	pid = fake_spawn(&f, NULL, args, NULL);
	if (!tap_ok(fake_accept(&f) && fake_recv(&f, LTT_APP_MSG_REGISTER, &m), "REGISTER")) {
		fake_reap(pid, WAIT_MS);
		fake_fini(&f);
		return;
	}
	ltt_msg_fini(&m);
	f.nr_tps = 0;
	if (tap_ok(fake_recv(&f, LTT_APP_MSG_TRACEPOINTS, &m),
		   "TRACEPOINTS follows REGISTER before the daemon answered")) {
		tracepoints++;
		ltt_msg_fini(&m);
	}
	tap_ok(fake_find_tp(&f, "app:first") >= 0, "its descriptions (%u)", f.nr_tps);
	/* the library does not check its own at start: the daemon's decoder here does */
	for (i = 0; i < f.nr_tps; i++)
		lib += !strncmp(f.names[i], "lttng_ust_", 10);
	tap_ok(!f.bad_tps && lib == 26,
	       "the library's own 26 descriptions, each valid to the daemon's decoder (%u, %u refused)",
	       lib, f.bad_tps);
	tap_ok(fake_register_ok(&f) && fake_channel_add(&f, CHAN_KEY) == 0 &&
	       fake_event_enable(&f, CHAN_KEY, "app:first", 0) == 0 && fake_done(&f),
	       "REGISTER_OK, the channel, the event, REGISTER_DONE");
	status = fake_reap(pid, WAIT_MS);
	tap_is_int(status, 0, "the program ran and exited");
	/* what it sent after REGISTER_OK, to its end: no second TRACEPOINTS */
	while (ltt_msg_recv(f.fd, LTT_APP_MAGIC, LTT_APP_MSG_MAX - LTT_MSG_HDR_SIZE,
			    LTT_APP_MAX_FDS, &m) == 0) {
		tracepoints += m.hdr.type == LTT_APP_MSG_TRACEPOINTS;
		ltt_msg_fini(&m);
	}
	tap_is_int(tracepoints, 1, "the descriptions were sent once");
	n = fake_read_events(&f, ids, values, 4);
	tap_ok(n == 1 && ids[0] == 0 && values[0] == 42,
	       "the event right after the constructor was recorded (%u events)", n);
	fake_fini(&f);
}

/* The daemon goes away mid-run, then comes back: the program carries on. */
static void test_daemon_dies(void)
{
	const char *args[] = { "loop", "1500", NULL };
	uint32_t ids[4096];
	int values[4096], status;
	struct fake f;
	unsigned int n;
	pid_t pid;

	fake_init(&f, true);
	pid = fake_spawn(&f, NULL, args, NULL);
	if (!fake_register(&f) || fake_channel_add(&f, CHAN_KEY) ||
	    fake_event_enable(&f, CHAN_KEY, "app:first", 0) || !fake_done(&f)) {
		tap_ok(false, "registration for the dying-daemon test");
		fake_reap(pid, WAIT_MS);
		fake_fini(&f);
		return;
	}
	/* Over 20 events in: a packet header per stream, then at most 16 bytes each. */
	tap_ok(fake_wait_written(&f, f.nr_streams * LTT_RB_PACKET_HEADER_SIZE + 20 * 16, WAIT_MS),
	       "the program records events");
	close(f.fd);		/* the daemon "dies" */
	f.fd = -1;
	tap_ok(fake_register(&f) && f.pid == (uint32_t)pid,
	       "after the daemon's death, the program registers again");
	tap_ok(fake_done(&f), "second registration done");
	status = fake_reap(pid, WAIT_MS);
	tap_is_int(status, 0, "the program survived and exited normally");
	n = fake_read_events(&f, ids, values, 4096);
	tap_ok(n > 10 && n < 1500, "events recorded until the daemon died, not after (%u)", n);
	fake_fini(&f);
}

/* fork(): the child registers as itself, with nothing of its parent's. */
static void test_fork(void)
{
	const char *args[] = { "fork", NULL };
	uint32_t ids[16];
	int values[16], status;
	struct fake f;
	unsigned int n;
	pid_t pid;
	int parent_fd;

	fake_init(&f, true);
	pid = fake_spawn(&f, NULL, args, NULL);
	if (!fake_register(&f) || fake_channel_add(&f, CHAN_KEY) ||
	    fake_event_enable(&f, CHAN_KEY, "app:first", 0) || !fake_done(&f)) {
		tap_ok(false, "registration for the fork test");
		fake_reap(pid, WAIT_MS);
		fake_fini(&f);
		return;
	}
	parent_fd = f.fd;
	f.fd = -1;
	tap_ok(fake_register(&f), "the child registers");
	tap_ok(f.ppid == (uint32_t)pid && f.pid != (uint32_t)pid,
	       "as itself (pid %u, parent %u)", f.pid, f.ppid);
	tap_ok(fake_find_tp(&f, "app:first") >= 0, "with its tracepoints");
	fake_done(&f);
	status = fake_reap(pid, WAIT_MS);
	tap_is_int(status, 0, "parent and child ran (the child's tracepoints were off)");
	n = fake_read_events(&f, ids, values, 16);
	tap_ok(n == 2 && values[0] + values[1] == 4,
	       "only the parent's events are in the parent's buffers (%u)", n);
	close(parent_fd);
	fake_fini(&f);
}

/*
 * Run the program with @args (after fake_init(@f)), registered with a
 * channel and answered: its pid, or -1 (a failure said for @what, the
 * program reaped).
 */
static pid_t start_registered(struct fake *f, const char *timeout, const char *const *args,
			      const char *what)
{
	pid_t pid = fake_spawn(f, timeout, args, NULL);

	if (!fake_register(f) || fake_channel_add(f, CHAN_KEY) || !fake_done(f)) {
		tap_ok(false, "registration for %s", what);
		fake_reap(pid, WAIT_MS);
		return -1;
	}
	return pid;
}

/* dlopen(): the module's tracepoints are reported and can be enabled. */
static void test_dlopen(void)
{
	const char *args[] = { "dlopen", plugin_path, NULL };
	uint32_t ids[16];
	int values[16], status;
	struct fake f;
	struct ltt_msg m;
	unsigned int n;
	pid_t pid;

	fake_init(&f, true);
	/* an hour's timeout: ending at all shows it did not wait for it */
	pid = start_registered(&f, "3600000", args, "the dlopen test");
	if (pid < 0) {
		fake_fini(&f);
		return;
	}
	tap_ok(fake_find_tp(&f, "plugin:hello") < 0, "the plugin's events are not known before");
	f.nr_tps = 0;
	tap_ok(fake_recv(&f, LTT_APP_MSG_TRACEPOINTS, &m), "dlopen(): a new TRACEPOINTS message");
	ltt_msg_fini(&m);
	tap_ok(fake_find_tp(&f, "plugin:hello") >= 0 && fake_find_tp(&f, "app:first") < 0,
	       "with the plugin's events only");
	tap_ok(fake_find_tp(&f, "lttng_ust_statedump:end") >= 0 &&
	       fake_find_tp(&f, "lttng_ust_statedump:start") < 0,
	       "the library's names declared again: another layout is announced, the same "
	       "description is the library's event");
	tap_is_int(fake_event_enable(&f, CHAN_KEY, "plugin:hello", 1), 0, "enable the plugin's event");
	tap_ok(fake_done(&f), "REGISTER_DONE answers it");
	status = fake_reap(pid, WAIT_MS);
	tap_is_int(status, 0, "dlopen() returned with the event enabled (%d)", status);
	tap_ok(status == 0, "as soon as REGISTER_DONE came, not at the timeout (an hour)");
	n = fake_read_events(&f, ids, values, 16);
	tap_ok(n == 1 && ids[0] == 1 && values[0] == 7, "the plugin's event was recorded");
	fake_fini(&f);
}

/*
 * One state dump per start, whatever the order in which the daemon's
 * threads send a registering program the start's messages and the answer
 * to its TRACEPOINTS, and none more at the answer to a later TRACEPOINTS
 * (dlopen()): the daemon adds the channel enabled, answers the
 * registration (a start racing it) before the channel's events are
 * enabled or, @events_first, after, then sends the CHANNEL_ENABLE that
 * follows a channel added enabled; the program's module then registers;
 * a regenerate statedump while it waits, then its answer.  (REGISTER_DONE dumped at each answer, into
 * every enabled channel: lttng-tools' regen-statedump/test_ust counted 3
 * dumps for 2 about half the time.)
 */
static void test_one_dump_per_start(bool events_first)
{
	const char *args[] = { "dlopen", plugin_path, NULL };
	const char *order = events_first ? "after" : "before";
	struct ltt_msg m;
	uint32_t ids[16];
	int values[16];
	struct fake f;
	unsigned int n;
	pid_t pid;
	bool ok;

	fake_init(&f, true);
	f.bare_id = SD_START_ID;
	/* an hour's timeout: its module waits for the daemon's answer */
	pid = fake_spawn(&f, "3600000", args, NULL);
	ok = fake_register(&f) && fake_channel_add(&f, CHAN_KEY) == 0;
	if (ok && events_first)
		ok = fake_event_enable(&f, CHAN_KEY, "lttng_ust_statedump:start", SD_START_ID) == 0;
	if (!tap_ok(ok && fake_done(&f), "the channel added enabled, then REGISTER_DONE %s its events",
		    order)) {
		fake_reap(pid, WAIT_MS);
		fake_fini(&f);
		return;
	}
	f.nr_tps = 0;
	tap_ok(fake_recv(&f, LTT_APP_MSG_TRACEPOINTS, &m) && fake_find_tp(&f, "plugin:hello") >= 0,
	       "%s: dlopen(): the module's TRACEPOINTS", order);
	ltt_msg_fini(&m);
	if (!events_first)
		fake_event_enable(&f, CHAN_KEY, "lttng_ust_statedump:start", SD_START_ID);
	tap_is_int(fake_key_command(&f, LTT_APP_MSG_CHANNEL_ENABLE, CHAN_KEY), 0,
		   "%s: the CHANNEL_ENABLE that follows the adding", order);
	n = fake_read_events(&f, ids, values, 16);
	tap_ok(n == 1 && ids[0] == SD_START_ID, "%s: the start's dump, once (%u)", order, n);
	/* while the module's constructor waits for its answer */
	tap_is_int(fake_key_command(&f, LTT_APP_MSG_CHANNEL_ENABLE, CHAN_KEY), 0,
		   "%s: a regenerate statedump", order);
	n = fake_read_events(&f, ids, values, 16);
	tap_ok(n == 1 && ids[0] == SD_START_ID, "%s: its dump, once (%u)", order, n);
	fake_done(&f);
	/* plugin:hello was not enabled: the module says so, exit status 5 */
	tap_is_int(fake_reap(pid, WAIT_MS), 5, "%s: REGISTER_DONE answers the module, the program ends",
		   order);
	n = fake_read_events(&f, ids, values, 16);
	tap_is_int(n, 0, "%s: no dump at that REGISTER_DONE", order);
	fake_fini(&f);
}

/*
 * One name, two layouts (the plugin's shared:other is another of the
 * program's): a daemon of minor 8 enables every layout of the name
 * (layout 0), one of minor 7, which sends no layout and knows the first
 * description only, the first the program reported.
 */
static void test_layouts(uint32_t minor)
{
	const char *args[] = { "layouts", plugin_path, NULL };
	uint32_t ids[16];
	int values[16], status;
	struct fake f;
	struct ltt_msg m;
	unsigned int n;
	pid_t pid;

	fake_init(&f, true);
	f.minor = minor;
	pid = start_registered(&f, NULL, args, "the layouts test");
	if (pid < 0) {
		fake_fini(&f);
		return;
	}
	f.nr_tps = 0;
	tap_ok(fake_recv(&f, LTT_APP_MSG_TRACEPOINTS, &m) && fake_find_tp(&f, "shared:other") >= 0,
	       "minor %u: dlopen(): the plugin's layout of shared:other is announced", minor);
	ltt_msg_fini(&m);
	tap_is_int(fake_event_enable(&f, CHAN_KEY, "shared:other", 1), 0,
		   "minor %u: EVENT_ENABLE of shared:other acked", minor);
	fake_done(&f);
	status = fake_reap(pid, WAIT_MS);
	n = fake_read_events(&f, ids, values, 16);
	if (minor >= LTT_APP_MINOR_LAYOUT)
		tap_ok(!status && n == 2 && values[0] == 1 && values[1] == 2 && ids[0] == 1 &&
		       ids[1] == 1, "minor %u: both layouts recorded (%u events)", minor, n);
	else
		tap_ok(!status && n == 1 && values[0] == 1 && ids[0] == 1,
		       "minor %u: the program's layout alone, the first reported (%u events)",
		       minor, n);
	fake_fini(&f);
}

/* The type of writer block lock another description holds on @fd's region, as @fd's sees it (F_UNLCK: none). */
static int block_lock_seen(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0,
			    .l_len = LTT_RB_WBLOCKS };

	return fcntl(fd, F_OFD_GETLK, &fl) ? -errno : fl.l_type;
}

/*
 * The program's writer block lock (ringbuf.h), from a daemon of @minor:
 * from minor 10 on the description CHANNEL_ADD gave it (it opens none:
 * no walk of its /proc entries at start-up), before on one it opened;
 * either way held while it runs and gone with it.
 */
static void test_writer_lock(uint32_t minor)
{
	const char *args[] = { "loop", "600000", NULL };
	struct fake f;
	int probe = -1, status;
	pid_t pid;

	fake_init(&f, true);
	f.minor = minor;
	f.keep_given = true;
	pid = start_registered(&f, NULL, args, "the writer lock test");
	if (pid < 0) {
		fake_fini(&f);
		return;
	}
	probe = ltt_rb_own_fd(f.streams[0].shm_fd);
	tap_ok(probe >= 0 && block_lock_seen(probe) == F_WRLCK,
	       "minor %u: the program holds a writer block of the stream", minor);
	if (minor >= LTT_APP_MINOR_OWN_FD)
		tap_ok(block_lock_seen(f.streams[0].given_fd) == F_UNLCK,
		       "minor %u: on the description the daemon gave it", minor);
	else
		tap_ok(f.streams[0].given_fd < 0 && block_lock_seen(f.streams[0].shm_fd) == F_WRLCK,
		       "minor %u: on a description it opened (not the shared one)", minor);
	kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) != pid || !WIFSIGNALED(status))
		status = -1;
	if (f.streams[0].given_fd >= 0) {
		close(f.streams[0].given_fd);	/* what the daemon never keeps */
		f.streams[0].given_fd = -1;
	}
	tap_ok(status != -1 && block_lock_seen(probe) == F_UNLCK,
	       "minor %u: the lock went with the program", minor);
	if (probe >= 0)
		close(probe);
	fake_fini(&f);
}

/* Append message @type (@seq, payload @w or none) to @buf, header and all. */
static void put_msg(struct ltt_wbuf *buf, uint16_t type, uint32_t seq, const struct ltt_wbuf *w)
{
	struct ltt_msg_hdr h = { .magic = LTT_APP_MAGIC, .type = type, .seq = seq,
				 .payload_len = w ? (uint32_t)w->len : 0 };
	uint8_t *p = ltt_wbuf_reserve(buf, LTT_MSG_HDR_SIZE);

	if (p)
		ltt_msg_hdr_encode(&h, p);
	if (w)
		ltt_wbuf_put_bytes(buf, w->data, w->len);
}

/* Read one ACK: 0 and its seq and status, or -1. */
static int recv_ack(struct fake *f, uint32_t *ret_seq, int32_t *ret_status)
{
	struct ltt_rbuf r;
	struct ltt_msg m;
	int ret;

	if (!fake_recv(f, LTT_APP_MSG_ACK, &m))
		return -1;
	ltt_rbuf_init(&r, m.payload, m.hdr.payload_len);
	*ret_seq = ltt_rbuf_get_u32(&r);
	*ret_status = (int32_t)ltt_rbuf_get_u32(&r);
	ret = ltt_rbuf_end(&r) || m.hdr.seq != *ret_seq ? -1 : 0;
	ltt_msg_fini(&m);
	return ret;
}

/*
 * Commands that come together, in one write, are acked together: the
 * successes before a failure in one ACK of the last seq, the failure in
 * its own, the successes after it in one more; and nothing else.
 */
static void test_acks_together(void)
{
	const char *args[] = { "loop", "600000", NULL };
	static const uint64_t keys[] = { CHAN_KEY, CHAN_KEY, CHAN_KEY, 999, CHAN_KEY, CHAN_KEY };
	static const uint16_t types[] = { LTT_APP_MSG_CHANNEL_DISABLE, LTT_APP_MSG_CHANNEL_ENABLE,
					  LTT_APP_MSG_CHANNEL_DISABLE, LTT_APP_MSG_CHANNEL_ENABLE,
					  LTT_APP_MSG_CHANNEL_ENABLE, LTT_APP_MSG_CHANNEL_DISABLE };
	uint32_t seq[3] = { 0 }, first = 0;
	int32_t status[3] = { 1, 1, 1 };
	struct ltt_wbuf buf, w;
	struct fake f;
	unsigned int i;
	int status_exit;
	pid_t pid;

	fake_init(&f, true);
	pid = start_registered(&f, NULL, args, "the acks test");
	if (pid < 0) {
		fake_fini(&f);
		return;
	}
	ltt_wbuf_init(&buf);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		ltt_wbuf_init(&w);
		ltt_app_put_channel_key(&w, keys[i]);
		put_msg(&buf, types[i], ++f.seq, &w);
		ltt_wbuf_fini(&w);
		if (!first)
			first = f.seq;
	}
	tap_ok(!buf.err && write(f.fd, buf.data, buf.len) == (ssize_t)buf.len,
	       "six commands sent in one write (the fourth of an unknown channel)");
	ltt_wbuf_fini(&buf);
	for (i = 0; i < 3; i++)
		if (recv_ack(&f, &seq[i], &status[i]))
			break;
	tap_ok(i == 3 && seq[0] == first + 2 && status[0] == 0,
	       "the first three: one ACK of the third's seq, status 0 (seq %u, %d)", seq[0], status[0]);
	tap_ok(i == 3 && seq[1] == first + 3 && status[1] == -ENOENT,
	       "the unknown channel's: an ACK of its own, -ENOENT (seq %u, %d)", seq[1], status[1]);
	tap_ok(i == 3 && seq[2] == first + 5 && status[2] == 0,
	       "the last two: one ACK of the last seq (seq %u, %d)", seq[2], status[2]);
	/* what comes next is the next command's ACK: nothing came between */
	tap_is_int(fake_key_command(&f, LTT_APP_MSG_CHANNEL_ENABLE, CHAN_KEY), 0,
		   "no other message follows: the next one is a later command's ACK");
	kill(pid, SIGKILL);
	waitpid(pid, &status_exit, 0);
	fake_fini(&f);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	fake_program_path("test_tracepoint_app", fake_app_path, sizeof(fake_app_path));
	fake_program_path(".libs/test_tracepoint_plugin.so", plugin_path, sizeof(plugin_path));
	test_no_daemon();
	test_dead_socket();
	test_silent_daemon();
	test_register();
	test_one_round_trip();
	test_daemon_dies();
	test_fork();
	test_dlopen();
	test_one_dump_per_start(false);
	test_one_dump_per_start(true);
	test_layouts(LTT_APP_MINOR_LAYOUT);
	test_layouts(LTT_APP_MINOR_LAYOUT - 1);
	test_writer_lock(LTT_APP_MINOR_OWN_FD);
	test_writer_lock(LTT_APP_MINOR_OWN_FD - 1);
	test_acks_together();
	return tap_done();
}
