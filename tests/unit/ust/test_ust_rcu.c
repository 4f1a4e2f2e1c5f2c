// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ust_rcu.c - libltt-ust's read-side critical sections and grace
 * periods (src/ust/rcu.c): a grace period waits for a section that began
 * before it; readers racing a writer that replaces, waits and poisons an
 * object never see it poisoned, with sections nested by signal handlers;
 * threads that come and go, and a child forked while another thread is
 * inside a section, do not hold a grace period up; a child forked inside
 * a section whose kernel refuses membarrier(2) fences; a grace period
 * with no other registered thread needs no fence; and all of it again
 * where the kernel refuses membarrier(2) (a seccomp filter), the readers
 * then fencing themselves.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ust/rcu.h"
#include "ust/ust.h"
#include "tests/unit/tap.h"

#define LIVE 0x1111beefull
#define DEAD 0xdeaddeadull
#define READERS 3
#define GRACE_PERIODS 3000
#define CHURN_THREADS 200

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* ---- a grace period waits for a section begun before it ---- */

static int started, done;

static void *sync_thread(void *arg)
{
	(void)arg;
	__atomic_store_n(&started, 1, __ATOMIC_SEQ_CST);
	ust_rcu_synchronize();
	__atomic_store_n(&done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/*
 * Start a grace period on thread @t; true if it ended within 100 ms (the
 * callers hold a section it must wait for).
 */
static bool grace_period_ends_early(pthread_t *t)
{
	bool early = false;
	uint64_t end;

	__atomic_store_n(&started, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&done, 0, __ATOMIC_SEQ_CST);
	pthread_create(t, NULL, sync_thread, NULL);
	while (!__atomic_load_n(&started, __ATOMIC_SEQ_CST))
		sched_yield();
	for (end = now_ms() + 100; now_ms() < end; )
		if (__atomic_load_n(&done, __ATOMIC_SEQ_CST))
			early = true;
	return early;
}

static void test_waits(void)
{
	pthread_t t;

	tap_ok(!ust_rcu_read_ongoing(), "outside a section: not ongoing");
	ust_rcu_lock();
	ust_rcu_lock();		/* nested */
	tap_ok(ust_rcu_read_ongoing(), "inside a nested section: ongoing");
	ust_rcu_unlock();
	tap_ok(ust_rcu_read_ongoing(), "still inside the outer one");
	tap_ok(!grace_period_ends_early(&t),
	       "a grace period does not end while a section begun before it runs");
	ust_rcu_unlock();
	tap_ok(!ust_rcu_read_ongoing(), "out of the outer section: not ongoing");
	pthread_join(t, NULL);
	tap_ok(__atomic_load_n(&done, __ATOMIC_SEQ_CST), "it ends once the section does");
}

/* ---- a reader of the phase before: the first wait's ---- */

static int old_reader_state;	/* 1: inside, in the other phase; 2: leave */

static void *old_phase_reader(void *arg)
{
	(void)arg;
	ust_rcu_lock();		/* registered */
	ust_rcu_unlock();
	/*
	 * As a reader that loaded the phase just before a flip and stored
	 * it after: inside a section of the phase other than the current.
	 */
	__atomic_store_n(&ust_rcu_ctr, (__atomic_load_n(&ust_rcu_gp, __ATOMIC_SEQ_CST) ^
					UST_RCU_PHASE) | 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&old_reader_state, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&old_reader_state, __ATOMIC_SEQ_CST) != 2)
		sched_yield();
	ust_rcu_unlock();
	return NULL;
}

static void test_old_phase(void)
{
	pthread_t r, t;

	pthread_create(&r, NULL, old_phase_reader, NULL);
	while (__atomic_load_n(&old_reader_state, __ATOMIC_SEQ_CST) != 1)
		sched_yield();
	tap_ok(!grace_period_ends_early(&t),
	       "a grace period waits for a reader of the phase before the current one");
	__atomic_store_n(&old_reader_state, 2, __ATOMIC_SEQ_CST);
	pthread_join(r, NULL);
	pthread_join(t, NULL);
	tap_ok(__atomic_load_n(&done, __ATOMIC_SEQ_CST), "and ends once it left");
}

/* ---- readers race a writer that replaces, waits, poisons ---- */

struct obj {
	uint64_t magic;
	uint64_t seq;
	struct obj *retired;	/* poisoned, freed only at the end */
};

static struct obj *published, *retired;
static int stop_readers;
static uint64_t poisoned_seen, sections, nested_sections;

/* One section: the published object must stay alive throughout. */
static void read_once(uint64_t *count)
{
	struct obj *o;
	int i;

	ust_rcu_lock();
	o = __atomic_load_n(&published, __ATOMIC_CONSUME);
	for (i = 0; i < 8; i++)
		if (__atomic_load_n(&o->magic, __ATOMIC_RELAXED) != LIVE)
			__atomic_fetch_add(&poisoned_seen, 1, __ATOMIC_RELAXED);
	ust_rcu_unlock();
	__atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
}

static void on_signal(int sig)
{
	(void)sig;
	read_once(&nested_sections);
}

static int readers_started;

static void *reader(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&readers_started, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&stop_readers, __ATOMIC_RELAXED)) {
		ust_rcu_lock();		/* the handler's sections nest in this one */
		read_once(&sections);
		ust_rcu_unlock();
	}
	return NULL;
}

static struct obj *obj_new(uint64_t seq)
{
	struct obj *o = malloc(sizeof(*o));

	if (!o)
		abort();
	o->magic = LIVE;
	o->seq = seq;
	return o;
}

static void test_race(void)
{
	pthread_t r[READERS];
	struct sigaction sa;
	uint64_t i, deadline;
	int k;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, NULL);
	published = obj_new(0);
	for (k = 0; k < READERS; k++)
		pthread_create(&r[k], NULL, reader, NULL);
	/* every reader running first: on a loaded machine they may start late */
	for (deadline = now_ms() + 10000; now_ms() < deadline &&
	     __atomic_load_n(&readers_started, __ATOMIC_SEQ_CST) < READERS; )
		sched_yield();
	/* the grace periods, and as many as it takes for the readers to read */
	deadline = now_ms() + 10000;
	for (i = 1; i <= GRACE_PERIODS ||
	     (__atomic_load_n(&sections, __ATOMIC_RELAXED) < 10 * GRACE_PERIODS &&
	      now_ms() < deadline); i++) {
		struct obj *old = published;

		__atomic_store_n(&published, obj_new(i), __ATOMIC_RELEASE);
		if (i % 16 == 0)
			pthread_kill(r[i % READERS], SIGUSR1);
		ust_rcu_synchronize();
		/*
		 * No reader can still hold it: poison it, and keep it, so
		 * that no later allocation writes LIVE over the poison.
		 */
		__atomic_store_n(&old->magic, DEAD, __ATOMIC_RELAXED);
		old->retired = retired;
		retired = old;
	}
	__atomic_store_n(&stop_readers, 1, __ATOMIC_RELAXED);
	for (k = 0; k < READERS; k++)
		pthread_join(r[k], NULL);
	free(published);
	while (retired) {
		struct obj *next = retired->retired;

		free(retired);
		retired = next;
	}
	tap_is_u64(poisoned_seen, 0, "%" PRIu64 " grace periods beside %d readers: no reader saw a freed object",
		   i - 1, READERS);
	tap_ok(sections >= 10 * GRACE_PERIODS, "the readers ran (%" PRIu64 " sections)", sections);
	tap_ok(nested_sections > 0, "signal handlers nested sections in theirs (%" PRIu64 ")",
	       nested_sections);
}

/* ---- threads come and go ---- */

static void *short_lived(void *arg)
{
	(void)arg;
	ust_rcu_lock();
	ust_rcu_unlock();
	return NULL;
}

static void test_churn(void)
{
	pthread_t t;
	int i, n = 0;

	for (i = 0; i < CHURN_THREADS; i++) {
		if (pthread_create(&t, NULL, short_lived, NULL) == 0) {
			pthread_join(t, NULL);
			n++;
		}
		ust_rcu_synchronize();
	}
	tap_is_int(n, CHURN_THREADS, "threads registered and gone: every grace period ended");
}

/* ---- fork() while another thread is inside a section ---- */

static int park;

static void *parked(void *arg)
{
	(void)arg;
	ust_rcu_lock();
	__atomic_store_n(&park, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&park, __ATOMIC_SEQ_CST) == 1)
		sched_yield();
	ust_rcu_unlock();
	return NULL;
}

static void test_fork(void)
{
	pthread_t t;
	uint64_t end;
	pid_t pid, got = 0;
	int status = -1;

	pthread_create(&t, NULL, parked, NULL);
	while (__atomic_load_n(&park, __ATOMIC_SEQ_CST) != 1)
		sched_yield();
	ust_rcu_fork_prepare();
	pid = fork();
	if (pid == 0) {
		ust_rcu_fork_child();
		/* the parked thread does not exist here */
		ust_rcu_synchronize();
		ust_rcu_lock();
		ust_rcu_unlock();
		_exit(0);
	}
	ust_rcu_fork_parent();
	for (end = now_ms() + 10000; now_ms() < end; ) {
		got = waitpid(pid, &status, WNOHANG);
		if (got != 0)
			break;
		sched_yield();
	}
	if (got == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	tap_ok(got == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "a child forked while another thread is inside a section ends its grace period");
	__atomic_store_n(&park, 2, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	ust_rcu_synchronize();
	tap_ok(true, "and the parent's, once that thread left its section");
}

/*
 * From now on, in this thread and the children it forks, membarrier(2)
 * fails with ENOSYS (a seccomp filter); 0, or -1 if it cannot be set.
 */
static int refuse_membarrier(void)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_membarrier, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -1;
	return 0;
}

/*
 * @body in a child forked as the library forks (the readers' lock held
 * across it), its return value the child's exit status; stdout flushed
 * first.  Returns that status, or -1 when the child did not exit.
 */
static int in_child(int (*body)(void))
{
	int status = -1;
	pid_t pid;

	fflush(stdout);
	ust_rcu_fork_prepare();
	pid = fork();
	if (pid == 0) {
		ust_rcu_fork_child();
		_exit(body());
	}
	ust_rcu_fork_parent();
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * A child forked inside a section (a signal handler's probe calling
 * fork()), whose kernel then refuses membarrier(2): its reader word keeps
 * the fenced bit through the unlock, so its next locks fence.  In a child
 * of ours, whose filter refuses membarrier from then on.
 */
static int unlock_fenced(void)
{
	ust_rcu_unlock();
	return __atomic_load_n(&ust_rcu_ctr, __ATOMIC_RELAXED) & UST_RCU_FENCED ? 0 : 1;
}

static int fork_in_section_fenced(void)
{
	int status;

	ust_rcu_lock();
	if (refuse_membarrier())
		return 3;
	status = in_child(unlock_fenced);
	ust_rcu_unlock();
	return status < 0 ? 4 : status;
}

static void test_fork_in_section_fenced(void)
{
	int status = in_child(fork_in_section_fenced);

	tap_ok(status == 0,
	       "a child forked inside a section, refused membarrier(2), fences after its unlock (status %d)",
	       status);
}

/*
 * A grace period waits only for the other threads that registered: with
 * none, it needs no fence, and ends even where the kernel refuses
 * membarrier(2) since the start; a registered thread (outside any
 * section) brings the fences back, which are refused, and the grace
 * period says it could not wait; once that thread exited, none again.
 * In a child of ours, whose filter refuses membarrier from then on.
 */
static int idle_state;	/* 1: registered, idle; 2: exit */

static void *idle_reader(void *arg)
{
	(void)arg;
	ust_rcu_lock();
	ust_rcu_unlock();
	__atomic_store_n(&idle_state, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&idle_state, __ATOMIC_SEQ_CST) == 1)
		sched_yield();
	return NULL;
}

static int alone(void)
{
	pthread_t t;

	ust_rcu_lock();
	ust_rcu_unlock();
	if (refuse_membarrier())
		return 3;
	if (!ust_rcu_synchronize())
		return 4;	/* alone: nothing to fence */
	if (pthread_create(&t, NULL, idle_reader, NULL))
		return 7;
	while (__atomic_load_n(&idle_state, __ATOMIC_SEQ_CST) != 1)
		sched_yield();
	if (ust_rcu_synchronize())
		return 5;	/* another reader: the refused fence is reported */
	__atomic_store_n(&idle_state, 2, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	return ust_rcu_synchronize() ? 0 : 6;
}

static void test_alone(void)
{
	int status = in_child(alone);

	tap_ok(status == 0,
	       "a grace period with no other registered thread needs no fence; with one, a refused fence is reported (status %d)",
	       status);
}

/* A grace period that never ends blocks every signal: fail, not hang. */
static void *watchdog(void *arg)
{
	(void)arg;
	for (uint64_t end = now_ms() + 120000; now_ms() < end; )
		usleep(100000);
	fprintf(stderr, "test_ust_rcu: still running after 120 s: a grace period never ended\n");
	_exit(1);
}

/*
 * The same checks where the kernel offers no membarrier(2): a seccomp
 * filter makes it fail with ENOSYS in a child, which runs this program
 * again (so that the library starts under the filter) with --fenced.  Its
 * TAP lines go to stderr, diagnostics here; its exit status is the check.
 */
static void test_fenced(char **argv)
{
	int status = -1;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *args[] = { argv[0], (char *)"--fenced", NULL };

		dup2(2, 1);
		if (refuse_membarrier())
			_exit(3);
		execv("/proc/self/exe", args);
		_exit(4);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "without membarrier(2), readers that fence themselves: every check passes (status %d)",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int main(int argc, char **argv)
{
	bool fenced = argc > 1 && !strcmp(argv[1], "--fenced");
	pthread_t w;

	pthread_create(&w, NULL, watchdog, NULL);
	pthread_detach(w);
	tap_plan(17);
	if (fenced) {
		ust_rcu_lock();
		ust_rcu_unlock();
		tap_ok(__atomic_load_n(&ust_rcu_ctr, __ATOMIC_RELAXED) & UST_RCU_FENCED,
		       "no membarrier(2): the readers fence themselves");
	}
	test_waits();
	test_old_phase();
	test_race();
	test_churn();
	test_fork();
	if (!fenced) {
		test_fork_in_section_fenced();
		test_alone();
		test_fenced(argv);
	} else {
		tap_skip("a child forked inside a section: this process fences already");
		tap_skip("a grace period alone: this process has no fence to refuse");
	}
	return tap_done();
}
