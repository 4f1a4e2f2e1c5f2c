/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * fake-app.h - a fake session daemon for the tests of libltt-ust in a real
 * program (test_tracepoint, test_ust_filter): it listens on its own run
 * directory's app.sock, registers the program, hands it channels over ring
 * buffers it made itself, sends commands and reads back what the program
 * recorded.  Each run gets its own run directory (LTT_RUNDIR).
 */
#ifndef LTT_TESTS_FAKE_APP_H
#define LTT_TESTS_FAKE_APP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/proto/app-proto.h"
#include "common/proto/msg.h"

/*
 * The bound of every wait for what must happen (a message, a program's
 * exit): a passing run never waits it out, so it is as long as the shell
 * tests' TEST_TIMEOUT, for programs under a sanitizer on a loaded machine
 * (a 1500-iteration loop of 1 ms naps took over 5 s there).
 */
#define FAKE_WAIT_MS 20000
#define TRACEF_ID 2	/* the event id fake_read_events() reads as ltt_tracef()'s */

struct stream {
	void *mem;
	size_t len;
	int shm_fd;
	int wake_fd;
	int given_fd;		/* the description CHANNEL_ADD gave (keep_given), or -1 */
};

struct fake {
	char dir[64];
	char sock_path[128];
	int lfd;		/* listening */
	uint32_t minor;		/* the app protocol minor it speaks; 0: LTT_APP_MINOR */
	/*
	 * From minor 10, CHANNEL_ADD gives each memory as a description of
	 * the program's own, as the daemon does: kept in given_fd when set
	 * (the program's writer block lock then outlives it), else closed
	 */
	bool keep_given;
	int fd;			/* the application's connection */
	uint32_t seq;
	uint32_t nr_streams;
	struct stream *streams;
	/* what the application said */
	uint32_t pid, ppid, nr_cpus;
	char procname[17];
	unsigned int nr_tps;
	unsigned int bad_tps;	/* TRACEPOINTS messages the daemon's decoder refused */
	char names[64][LTT_APP_NAME_MAX];
	int loglevels[64];
	uint32_t bare_id;	/* an event id of no payload, for fake_read_events(); 0: none */
};

/* The program fake_spawn() runs (a path). */
extern char fake_app_path[PATH_MAX];

/** fake_program_path() - @name beside the running test program, into @out */
void fake_program_path(const char *name, char *out, size_t size);

/** fake_now_ms() - the monotonic clock in ms */
uint64_t fake_now_ms(void);
/** fake_init() - a run directory, listening on its app.sock when @listen */
void fake_init(struct fake *f, bool listen);
void fake_fini(struct fake *f);
/** fake_accept() - the program's connection (bounded wait) */
bool fake_accept(struct fake *f);
/** fake_recv() - the next message of @type; TRACEPOINTS met are recorded */
bool fake_recv(struct fake *f, uint16_t type, struct ltt_msg *ret);
bool fake_send(struct fake *f, uint16_t type, uint32_t seq, const struct ltt_wbuf *w,
	       const int *fds, unsigned int nr_fds);
/** fake_register() - accept, read REGISTER, accept it, read TRACEPOINTS */
bool fake_register(struct fake *f);
/** fake_register_ok() - REGISTER_OK of this protocol's version (@f->minor) */
bool fake_register_ok(struct fake *f);
/** fake_done() - REGISTER_DONE */
bool fake_done(struct fake *f);
/** fake_command() - send a command, return its ACK status (INT_MIN: none) */
int fake_command(struct fake *f, uint16_t type, struct ltt_wbuf *w, const int *fds,
		 unsigned int nr_fds);
/** fake_channel_add() - CHANNEL_ADD of @f's streams (made on first use) */
int fake_channel_add(struct fake *f, uint64_t key);
/** fake_key_command() - send a command of one channel key: its ACK status */
int fake_key_command(struct fake *f, uint16_t type, uint64_t key);
/** fake_event_enable() - EVENT_ENABLE of every layout of @name (minor 7: the first) */
int fake_event_enable(struct fake *f, uint64_t key, const char *name, uint32_t id);
/** fake_find_tp() - index of the tracepoint @name the program reported, or -1 */
int fake_find_tp(const struct fake *f, const char *name);
/**
 * fake_read_events() - the ids and v values of the events recorded in
 * every stream, in stream order: all of layout {int v, string s} but id
 * TRACEF_ID, {string msg}, whose v is the number after its space, and
 * f->bare_id, of no payload (v 0); those read are consumed: the next call
 * reads what was recorded since
 */
unsigned int fake_read_events(struct fake *f, uint32_t *ids, int *values, unsigned int max);
/** fake_spawn() - run fake_app_path with @args in @f's run directory */
pid_t fake_spawn(const struct fake *f, const char *timeout, const char *const *args,
		 int *out_fd);
/** fake_reap() - wait for @pid at most @ms: its exit status, or -1 (killed) */
int fake_reap(pid_t pid, int ms);
/** fake_wait_written() - wait (bounded) until more than @bytes are reserved */
bool fake_wait_written(struct fake *f, uint64_t bytes, int ms);

#endif /* LTT_TESTS_FAKE_APP_H */
