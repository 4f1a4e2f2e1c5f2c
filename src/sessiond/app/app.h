/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * app.h - registered programs: the map of app/.
 *
 * Its files (each one's functions declared in its own header, or in this
 * one under its name):
 *   app.h          the map of app/: the application object, file by file
 *   app-thread.c   registered applications and the app thread (app.sock)
 *   app-done.c     a TRACEPOINTS message's answer, held for the work it needs
 *   app-tpcache.c  the last TRACEPOINTS messages, decoded: copied when sent again
 *   app-object.c   an application's last reference, its channel records
 *   app-out.c      commands to applications: never blocking, queued, acks
 *   app-notify.c   programs' notification sockets (triggers): made, read
 *
 * app-thread.c: registered applications and the app thread, which accepts them
 * on RUNDIR/app.sock and reads what they send (registration, tracepoint
 * lists, acks).  Commands to applications are sent by whichever thread
 * runs a flow (ust-push.c), under the application's lock, through
 * app-out.c.  What programs
 * mean to tracing is the listener's business (the user-space domain): the
 * thread tells it when one registers, announces tracepoints, and leaves.
 */
#ifndef LTT_SESSIOND_APP_H
#define LTT_SESSIOND_APP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <urcu/list.h>

#include "common/base/evloop.h"
#include "common/base/name-index.h"
#include "common/proto/app-proto.h"
#include "common/base/codec.h"

/* Defaults of the per-user bounds (ltt-sessiond options override them). */
#define LTT_APP_MAX_PER_UID 512		/* program connections of one user, root not limited */
#define LTT_APP_MAX_UNREGISTERED_PER_UID 16	/* of which not registered yet */
#define LTT_APP_METADATA_MAX (4U << 20)	/* bytes of event descriptions per program */


/* One event enabled in one channel of an application. */
struct ltt_app_event {
	const char *name;	/* borrowed from the application's tracepoints */
	uint64_t layout;	/* which description of @name (ltt_app_layout_of()) */
	uint32_t id;
	uint64_t filter_sig;	/* of the EVENT_FILTER programs it has (ust-filter.h); 0: none */
};

/* A channel the application was given (CHANNEL_ADD). */
struct ltt_app_chan {
	struct cds_list_head node;	/* in ltt_app.chans */
	uint64_t key;
	uint64_t session_id;
	bool enabled;
	uint64_t agent_sig;	/* of the AGENT_RULES it has (python channel); 0: none */
	size_t nr_events;
	size_t cap_events;
	struct ltt_app_event *events;
	struct ltt_name_index by_name;	/* positions in events, by name and layout */
};

struct ltt_app {
	struct cds_list_head node;	/* the listener's (its program list) */
	unsigned int refcount;		/* atomic */
	int fd;
	pid_t pid;
	pid_t ppid;
	uid_t uid;
	gid_t gid;
	uint32_t bits_per_long;
	uint32_t minor;			/* the app protocol minor both use */
	bool said_no_contexts;		/* logged that it can't get channels with contexts */
	bool filter_warned;		/* under the listener's lock: told once it can't filter */
	char procname[17];
	time_t registered_at;
	/* Under the listener's lock (ust->apps.lock). */
	size_t nr_tps;
	struct ltt_app_tracepoint **tps;
	size_t nr_loggers;		/* its python agent's (LOGGERS), at most LTT_APP_MAX_LOGGERS */
	char **loggers;
	struct cds_list_head chans;	/* ltt_app_chan */
	/* Under lock: sending and acks. */
	pthread_mutex_t lock;
	pthread_cond_t acked_cond;
	uint32_t seq_sent;
	uint32_t seq_acked;
	bool dead;
	/* Under lock: the commands the program has not taken yet (app-thread.c). */
	struct ltt_app_out *outq;
	struct ltt_app_out **outq_tail;
	size_t outq_bytes;
	bool flush_posted;		/* flush_job is with the app thread */
	struct ltt_evloop_job flush_job;
	struct ltt_evloop *loop;	/* the app thread's */
	void *conn;			/* the app thread's record; NULL once closed */
	/*
	 * Under lock: the socket pair its notifiers write to (triggers: a
	 * SOCK_SEQPACKET pair, one record per message, so a program whose
	 * daemon went gets EPIPE, never SIGPIPE), made on first need
	 * (ltt_app_notify_fd()); -1 until then.  The app thread reads
	 * @notify_rd; @notify_wr is the end given to the program.
	 */
	int notify_rd;
	int notify_wr;
};

/* app-object.c: an application's last reference, its channel records */

/**
 * ltt_app_get() / ltt_app_put() - references; the last put frees the
 * application (its fd closed, tracepoints and channel records freed)
 */
static inline void ltt_app_get(struct ltt_app *app)
{
	__atomic_fetch_add(&app->refcount, 1, __ATOMIC_RELAXED);
}

void ltt_app_put(struct ltt_app *app);

/**
 * ltt_app_find_chan() - the record of channel @key in @app, or NULL;
 * apps_lock held
 */
struct ltt_app_chan *ltt_app_find_chan(struct ltt_app *app, uint64_t key);

/**
 * ltt_app_chan_new() / ltt_app_chan_free() - a channel record without
 * events (NULL: no memory); one freed with its events (taken out of any
 * list first)
 */
struct ltt_app_chan *ltt_app_chan_new(void);
void ltt_app_chan_free(struct ltt_app_chan *ac);

/**
 * ltt_app_chan_event() - the event of description @tp (its name and
 * layout) in @ac, or NULL
 *
 * ltt_app_chan_event_add() - @ev (its name borrowed) added: 0, -EEXIST
 * (@ac has an event of that name and layout: nothing changed) or -ENOMEM
 * ltt_app_chan_event_remove() - @ev (one of @ac's) removed; the last one
 * takes its place
 *
 * apps_lock held; O(1) each, whatever the program's number of events.
 */
struct ltt_app_event *ltt_app_chan_event(const struct ltt_app_chan *ac,
					 const struct ltt_app_tracepoint *tp);
int ltt_app_chan_event_add(struct ltt_app_chan *ac, const struct ltt_app_event *ev);
void ltt_app_chan_event_remove(struct ltt_app_chan *ac, struct ltt_app_event *ev);

/* app-tpcache.c: the last TRACEPOINTS messages, decoded: copied when sent again */

struct ltt_app_tpcache;

/**
 * ltt_app_tpcache_decode() - ltt_app_get_tracepoints() of the @len bytes
 * @data (a TRACEPOINTS payload), or copies of what it returned for the
 * same bytes lately, kept in *@cache (made at the first call; NULL before)
 *
 * Returns 0 and sets *@ret_tps (the caller's, as ltt_app_get_tracepoints()
 * returns them) and *@ret_nr, or -EPROTO or -ENOMEM as that does.  The app
 * thread only.
 */
int ltt_app_tpcache_decode(struct ltt_app_tpcache **cache, const uint8_t *data, size_t len,
			   struct ltt_app_tracepoint ***ret_tps, uint32_t *ret_nr);

/** ltt_app_tpcache_free() - what the cache (NULL: none) holds, freed */
void ltt_app_tpcache_free(struct ltt_app_tpcache *cache);

/* app-done.c: a TRACEPOINTS message's answer, held for the work it needs */

/*
 * One TRACEPOINTS message's REGISTER_DONE (app-done.c): the program waits for
 * it before it records, so that its first events are recorded.  It is
 * sent once every piece of work the listener holds it for is done
 * (ltt_app_done_release()), except the work held by a consumer its
 * @stalled function says is stalled once the part the program needs is
 * done (ltt_app_done_arm(): it has its buffers): a program is not made to
 * wait for a user's stalled consumer, however many sessions want it, and
 * does not record before it has somewhere to record to.
 */
struct ltt_app_done;

struct ltt_app_done_hold {
	struct ltt_app_done_hold *next;		/* the app thread's */
	bool (*stalled)(void *arg);		/* any thread, no lock held */
	void *arg;
	int done;				/* atomic */
	int armed;				/* atomic: @stalled may end the wait */
};

/**
 * ltt_app_done_hold() - @d waits for one more piece of work; on the app
 * thread, in the listener's tracepoints call
 * @stalled: is that work held up by a stalled consumer? (borrowed with
 *           @arg until the message is answered)
 *
 * Returns the hold, to give to ltt_app_done_release() from any thread
 * once the work is done, or NULL (out of memory: nothing waits for it).
 * Each hold keeps @d alive until released.
 */
struct ltt_app_done_hold *ltt_app_done_hold(struct ltt_app_done *d, bool (*stalled)(void *arg),
					    void *arg);

/**
 * ltt_app_done_arm() - what the program needs of @h's work is done (it
 * has its buffers): from now on a stalled consumer ends its wait.  Any
 * thread, any lock context.  Accepts a NULL @h.
 */
void ltt_app_done_arm(struct ltt_app_done_hold *h);

/**
 * ltt_app_done_release() - the work of @h is done; any thread, no lock
 * held.  The last one answers the message.  Accepts a NULL @h.
 */
void ltt_app_done_release(struct ltt_app_done *d, struct ltt_app_done_hold *h);

/*
 * ltt_app_done_create() - the answer to one TRACEPOINTS message of @app
 * (a reference taken), held by the app thread until ltt_app_done_settle();
 * NULL when out of memory (the message is answered at once).  App thread.
 */
struct ltt_app_done *ltt_app_done_create(struct ltt_app *app);

/*
 * ltt_app_done_settle() - the app thread's hold on @d released, the
 * listener told: true when @d was answered and let go, false when its
 * work runs elsewhere (then ltt_app_done_queue() it).  App thread.
 */
bool ltt_app_done_settle(struct ltt_app_done *d);

/* ltt_app_done_queue() - @d into the app thread's @list of unanswered messages */
void ltt_app_done_queue(struct ltt_app_done **list, struct ltt_app_done *d);

/*
 * ltt_app_done_sweep() - answer the messages of @list that may be (their
 * holds released or stalled, or their program gone) and let go of those
 * answered; true while some remain.  App thread.
 */
bool ltt_app_done_sweep(struct ltt_app_done **list);

/* ltt_app_done_drop_all() - let go of every message of @list, unanswered (the thread stops) */
void ltt_app_done_drop_all(struct ltt_app_done **list);

/* app-thread.c: registered applications and the app thread (app.sock) */


/*
 * What the app thread tells of programs; called on the app thread, which
 * holds no lock then.
 */
struct ltt_app_listener {
	/* @app registered: 0 to keep it (take a reference), or -errno to refuse it. */
	int (*added)(void *arg, struct ltt_app *app);
	/*
	 * @app announced @nr tracepoints: @tps's elements are taken, not the
	 * array.  Work that must be done before the program records holds
	 * @done (ltt_app_done_hold()).
	 */
	void (*tracepoints)(void *arg, struct ltt_app *app, struct ltt_app_tracepoint **tps,
			    size_t nr, struct ltt_app_done *done);
	/* @app's agent reported @nr loggers (valid names, borrowed for the call). */
	void (*loggers)(void *arg, struct ltt_app *app, const char *const *names, size_t nr);
	/* @app's notifier @m->key fired (a valid message, borrowed for the call). */
	void (*notified)(void *arg, struct ltt_app *app, const struct ltt_app_notify *m);
	/*
	 * @app's event descriptions, @nr of them as its message said, were
	 * refused (over metadata_max or the budget): its events are not
	 * traced there.  The message's answer waits for the work that holds
	 * @done (ltt_app_done_hold()), so the refusal is counted before the
	 * program records.  NULL: not told.
	 */
	void (*refused)(void *arg, struct ltt_app *app, uint32_t nr, struct ltt_app_done *done);
	/* @app, which was added, is gone: drop its reference. */
	void (*removed)(void *arg, struct ltt_app *app);
	void *arg;
};

struct ltt_app_thread_config {
	int listen_fd;				/* taken */
	struct ltt_app_listener listener;
	unsigned int max_per_uid;		/* program connections per user (not root) */
	unsigned int max_unregistered_per_uid;	/* of which waiting to register */
	uint64_t metadata_max;			/* bytes of event descriptions per program */
	/*
	 * Borrowed, this thread's alone (the client thread has its own): the
	 * message bytes a user's programs (root's excepted) may hold at
	 * once; event descriptions that would pass it are read and dropped,
	 * as over metadata_max.  NULL: none.
	 */
	struct ltt_budget *budget;
	uint64_t health_tag;	/* its loop's heartbeat tag (ltt_evloop_set_tag()); 0: none */
};

struct ltt_app_thread;

/**
 * ltt_app_thread_start() - serve applications on @cfg->listen_fd
 * Returns 0 or a negative errno (the socket is closed, *@ret_thread NULL,
 * on error).
 */
int ltt_app_thread_start(const struct ltt_app_thread_config *cfg,
			 struct ltt_app_thread **ret_thread);

/**
 * ltt_app_thread_stop() - stop the thread and drop every application;
 * accepts NULL
 */
void ltt_app_thread_stop(struct ltt_app_thread *thread);

/**
 * ltt_app_thread_sync() - have the app thread read now what its programs
 * already sent, their ends included (a gone program's notification socket
 * drained, its last counts with it), and wait for it, 1 s at most
 *
 * So that counters read after it count what a program that exited before
 * sent: a trigger's dropped notifications, as LTTng's daemon reads them
 * from shared memory at once.  Any thread but the app thread.
 */
void ltt_app_thread_sync(struct ltt_app_thread *thread);

/**
 * ltt_app_same_clock() - does process @pid see our CLOCK_MONOTONIC?
 * Not when it lives in a time namespace whose monotonic offset is not
 * ours: its timestamps would not fit the traces' clock (the consumer
 * would reject its packets as coming from the future).  Another time
 * namespace of the same offset (none, as ours) is the same clock.  Read
 * from /proc/PID/timens_offsets, any user's to read.  Returns 1 (the
 * same, or nothing to compare: no time namespaces, no /proc), 0, or
 * -errno where it can't be read: -ENOENT for a process gone, or one a
 * /proc mounted with hidepid=invisible hides, -EACCES for hidepid=noaccess.
 * Any thread.
 */
int ltt_app_same_clock(pid_t pid);


/* app-notify.c: programs' notification sockets (triggers): made, read */

/**
 * ltt_app_notify_fd() - the program's end of @app's notification socket, made
 * on first call (the app thread then reads the other end and hands each
 * message to the listener's notified); app->lock not held, any thread
 *
 * Returns the fd (@app's: borrow it, as for ltt_app_send()), -EPIPE when
 * @app is gone, or socketpair()'s -errno.
 */
int ltt_app_notify_fd(struct ltt_app *app);

/*
 * What the app thread keeps of one program's notification socket: its
 * watch and what was read of it that is not a whole message yet.
 */
struct ltt_app_notify_reader {
	struct ltt_app *app;			/* borrowed: the connection's */
	const struct ltt_app_listener *listener;	/* borrowed: told each message */
	struct ltt_evloop_watch *watch;		/* NULL until the socket exists */
	struct ltt_evloop_timer *paused;	/* LTTng's test point paused it: its end */
	uint8_t buf[LTT_APP_NOTIFY_MAX];	/* one record: one message */
};

/*
 * Set by LTTng's test point sessiond_handle_notifier_event_pipe (its name
 * is LTTng's, exported for the point's function: common/base/testpoint.h):
 * programs' notification sockets are not read while it is, but for what
 * a gone program left (ltt_app_notify_close()).  Atomic.
 */
extern int notifier_consumption_paused;

/**
 * ltt_app_notify_watch() - watch @r's program's socket on @loop once it
 * has one (ltt_app_notify_fd() made it); nothing if it has none or is
 * watched already.  The app thread's.
 */
void ltt_app_notify_watch(struct ltt_app_notify_reader *r, struct ltt_evloop *loop);

/**
 * ltt_app_notify_close() - the program is gone: hand on what is left in
 * its socket (its last counts; bounded; paused or not), stop watching.
 * The app thread's.
 */
void ltt_app_notify_close(struct ltt_app_notify_reader *r);

/* app-out.c: commands to applications: never blocking, queued, acks */

#define LTT_APP_OUTQ_MAX (8U << 20)	/* bytes of commands a program has not taken */

struct ltt_app;
struct ltt_app_out;

/**
 * ltt_app_send() - send a command to an application; app->lock not held
 * @fds: @nr_fds descriptors to pass, borrowed (duplicated if the command
 *       must wait in the queue)
 * @ret_seq: the command's seq number, to wait for with ltt_app_wait_ack()
 *
 * Never blocks: what the socket does not take at once is queued, and the
 * app thread writes it as the program reads.  A program that leaves more
 * than LTT_APP_OUTQ_MAX bytes queued, or does not take a queued command in
 * time, is dropped; so is one whose socket fails.  Returns 0 or a negative
 * errno (-EPIPE: dropped already, -ENOBUFS: dropped now).
 */
int ltt_app_send(struct ltt_app *app, uint16_t type, const struct ltt_wbuf *payload,
		 const int *fds, unsigned int nr_fds, uint32_t *ret_seq);

/**
 * ltt_app_wait_ack() - wait until @seq is acknowledged, at most
 * @timeout_ms; no other lock may be held
 *
 * Returns 0, -ETIMEDOUT, or -EPIPE if the application died.
 */
int ltt_app_wait_ack(struct ltt_app *app, uint32_t seq, int timeout_ms);

/**
 * ltt_app_ended() - has @app's connection ended?  app->lock not held
 * @ret_seq: if not NULL, set to the seq of the last command sent to @app
 *
 * Both read at once under app->lock.  Returns true once @app is dropped or
 * gone: no command reaches it any more.
 */
bool ltt_app_ended(struct ltt_app *app, uint32_t *ret_seq);

/**
 * ltt_app_drop() - drop an application that does not answer (the app
 * thread then removes it); app->lock not held; @why is logged
 */
void ltt_app_drop(struct ltt_app *app, const char *why);

/**
 * ltt_app_mark_dead_locked() - mark @app dead: shut its socket down (the
 * app thread then removes it) and wake the threads waiting for its acks;
 * app->lock held
 */
void ltt_app_mark_dead_locked(struct ltt_app *app);

/**
 * ltt_app_outq_flush() - write what @app's socket takes of its queue,
 * without blocking; the app thread's, app->lock not held
 * @ret_progress: set when at least one whole command went
 * @ret_left: set when some of the queue is left
 *
 * Returns 0, -EPIPE if @app is dead, or the socket's error.
 */
int ltt_app_outq_flush(struct ltt_app *app, bool *ret_progress, bool *ret_left);

/**
 * ltt_app_post_flush() - have the app thread write @app's queue (and
 * watch its notification socket); app->lock held
 */
void ltt_app_post_flush(struct ltt_app *app);

/**
 * ltt_app_outq_free() - free @app's queued commands and close their fds;
 * for the application's last reference
 */
void ltt_app_outq_free(struct ltt_app *app);

#endif /* LTT_SESSIOND_APP_H */
