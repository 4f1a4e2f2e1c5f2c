/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lagent.h - LTTng's agents: the map of lagent/.
 *
 * Its files:
 *   lagent.h       the map of lagent/: the module's functions
 *   lagent.c       the agent thread: the registered agents, what the
 *                  agent rules tell them, and the jobs other threads
 *                  post to it (the rules of a session or of the
 *                  triggers, a listing)
 *   lagent-port.c  LTTng's agent port (TCP, loopback) and its port file
 *
 * LTTng's Python agent (python3-lttngust) and Java agents find the
 * session daemon through a port file and speak LTTng's agent protocol
 * (common/proto/lagent-proto.h) on TCP.  The agent thread (one event loop)
 * accepts them, registers them, tells each the rules of its domain
 * (python, JUL, log4j) of the sessions, active or not, as LTTng's ENABLE and
 * DISABLE (the user-space domain
 * hands it each session's rules, ltt_lagent_sync(), and the triggers'
 * agent rules, ltt_lagent_sync_triggers()), asks them for their
 * loggers on demand (ltt_lagent_list()), and forgets them when they go.
 * An agent's records reach ltt's buffers through its tracepoint
 * (lttng_python:event, lttng_jul:event, lttng_log4j:event), which the
 * rules' filters select as for ltt's own agent (common/model/agent.h), through
 * ltt's liblttng-ust compatibility libraries; the agent thread only decides
 * whether the agent hands them on at all.
 *
 * Objects, all the agent thread's: the agents (connections), and per
 * session the rules it was last given.  Other threads reach it through
 * posted jobs only; no lock of this module is held while another
 * module's is taken.
 */
#ifndef LTT_SESSIOND_LAGENT_H
#define LTT_SESSIOND_LAGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/base/codec.h"
#include "sessiond/model/session.h"

#define LTT_LAGENT_ROOT_PORT_FILE "/var/run/lttng/agent.port"
/*
 * A daemon's own home for LTTng's agents, in its run directory: its port
 * file is LTT_LAGENT_HOME_NAME/.lttng/agent.port there, where an agent
 * whose LTTNG_HOME is that directory reads it (ltt-run sets it)
 */
#define LTT_LAGENT_HOME_NAME "lttng-agents"
#define LTT_LAGENT_HOME_FILE LTT_LAGENT_HOME_NAME "/.lttng/agent.port"
#define LTT_LAGENT_MAX_AGENTS 1024	/* connections, registered or not */
#define LTT_LAGENT_USER_AGENTS 64	/* connections of one user, registered or not */
#define LTT_LAGENT_AGENT_NAMES 4096	/* loggers one agent's answer to LIST adds */
/* bytes of a listing's reply one user's agents fill: 16 users' fill 4 MiB */
#define LTT_LAGENT_USER_LIST_BYTES ((size_t)256 << 10)
#define LTT_LAGENT_REGISTER_MS 5000	/* to send REGISTER once connected */
#define LTT_LAGENT_REPLY_MS 10000	/* to answer a command */
#define LTT_LAGENT_LIST_MS 3000		/* a listing waits this long for the agents */
#define LTT_LAGENT_SYNC_MS 3000		/* a change waits this long for their answers */

struct ltt_lagent;

/**
 * ltt_lagent_port_fn - writes the port file: ltt_lagent_port_write(), or
 * a request for it (a daemon that gave root's rights up asks ltt-priv)
 */
typedef int ltt_lagent_port_fn(const char *path, unsigned int port);

/**
 * ltt_lagent_start() - listen on 127.0.0.1 (a port the kernel picks),
 * write the port to @port_file (copied) and serve LTTng's agents on a
 * thread of its own
 * @write_port: writes the file; NULL: ltt_lagent_port_write(), and
 *              ltt_lagent_stop() removes it (else @write_port's end does)
 * @ret_lagent: for ltt_lagent_stop()
 *
 * Call with the signals the process handles blocked.  Returns 0 or a
 * negative errno (nothing left behind).  A port file that can't be
 * written is only warned about: the agents then don't find the daemon.
 */
int ltt_lagent_start(const char *port_file, ltt_lagent_port_fn *write_port,
		     struct ltt_lagent **ret_lagent);

/**
 * ltt_lagent_stop() - stop the thread, drop every agent, remove the port
 * file if it still names this daemon's port (and this module wrote it);
 * accepts NULL
 */
void ltt_lagent_stop(struct ltt_lagent *lagent);

/* lagent.c: the jobs other threads post to the agent thread */

/**
 * ltt_lagent_sync() - the agents follow @session's agent rules: those of
 * its enabled agent channels, whether it is active or not (as LTTng's
 * daemon tells its agents every session's), none once it is @gone
 * (destroyed); accepts a NULL @lagent
 *
 * Session lock held; never waits: the agent thread sends the ENABLEs and
 * DISABLEs that make each agent hold what the sessions want.
 */
void ltt_lagent_sync(struct ltt_lagent *lagent, struct ltt_session *session, bool gone);

/**
 * ltt_lagent_sync_wait() - ltt_lagent_sync() of @session (not gone),
 * and wait for the agents' answers to the ENABLEs and DISABLEs it
 * sends, as LTTng's daemon waits for them before it answers the command
 * that changed the rules, the session active or not; one without an
 * agent channel is ltt_lagent_sync()'s (no agent takes anything);
 * accepts a NULL @lagent
 *
 * Session lock held: the agent thread takes no lock of a session, and
 * the wait is bounded (LTT_LAGENT_SYNC_MS); it gives the session's state
 * lock back meanwhile (ltt_session_wait_begin(): list and the registry's
 * remove do not wait on the agents), the gate stays held.  Returns 0; -ENOMSG (an
 * agent knows no such logger), -EBADE (an agent refused it otherwise),
 * -ENOLINK (one did not answer: its connection failed, or not in time)
 * or -ENOMEM, the first failure; the agent thread logs which agent.
 * The caller undoes the change and syncs again.
 */
int ltt_lagent_sync_wait(struct ltt_lagent *lagent, struct ltt_session *session);

struct ltt_trigger;

/**
 * ltt_lagent_sync_triggers() - the agents follow the agent rules
 * (python, JUL, log4j) of the @n event-rule-matches triggers of @v (the
 * registry's, all of them; those of other conditions and domains are
 * passed over), in place of those they followed for triggers before
 * (none: @n 0); accepts a NULL @lagent
 *
 * No lock of a session held; while there are agent rules, waits for the
 * agents' answers as ltt_lagent_sync_wait() (LTTng's REGISTER_TRIGGER
 * fails on an agent's refusal), and returns what it returns (0 when
 * there are none).  As a session's, a trigger's rule is told to every
 * agent of its domain: the programs' notifiers (the trigger's owner's)
 * decide which records fire it.
 */
int ltt_lagent_sync_triggers(struct ltt_lagent *lagent, struct ltt_trigger *const *v, size_t n);

/**
 * ltt_lagent_list() - the loggers of the registered agents of LTTng
 * domain @domain (enum ltt_lagent_domain), each appended to @reply as
 * {u32 pid, str procname, str name, u32 0, u32 0} (domain.h's
 * list_loggers) and counted in @count; of user @uid's agents only, every
 * user's with LTT_LIST_EVERY_USER
 *
 * No lock held; waits for the agents' answers, at most
 * LTT_LAGENT_LIST_MS (an agent that has not answered by then is left
 * out).  Returns 0, -ENOMEM or -ETIMEDOUT; accepts a NULL @lagent (none).
 */
int ltt_lagent_list(struct ltt_lagent *lagent, uint32_t domain, uid_t uid,
		    struct ltt_wbuf *reply, uint32_t *count);

/* lagent-port.c: the agent port and its port file */

/**
 * ltt_lagent_port_file() - where this daemon writes its port for LTTng's
 * agents.  A daemon in LTTng's place (@lttng: --lttng-compat) writes it
 * where they look for LTTng's: LTT_LAGENT_ROOT_PORT_FILE for the daemon
 * of the root run directory (@root_daemon), else
 * $LTTNG_HOME/.lttng/agent.port ($HOME, then the passwd entry's home,
 * without LTTNG_HOME: ltt_home_find()'s LTT_HOME_AGENT_PORT).  Any other
 * writes nothing of LTTng's: @rundir/LTT_LAGENT_HOME_FILE, which the
 * agents of a program run under ltt-run read.
 *
 * Returns 0, -ENOENT (no home) or -ENAMETOOLONG.
 */
int ltt_lagent_port_file(const char *rundir, bool lttng, bool root_daemon, char *buf,
			 size_t len);

/**
 * ltt_lagent_port_taken() - does port file @path name a port some
 * process listens on (/proc/net/tcp, tcp6): another daemon's, alive?
 * Its port into *@ret_port.
 *
 * Returns 1, 0 (no file, no number, no listener), or -errno when the
 * system can't tell.
 */
int ltt_lagent_port_taken(const char *path, unsigned int *ret_port);

/**
 * ltt_lagent_listen() - a socket listening on 127.0.0.1, on a port the
 * kernel picks: *@ret_fd (close-on-exec) and *@ret_port
 *
 * Returns 0 or -errno.
 */
int ltt_lagent_listen(int *ret_fd, unsigned int *ret_port);

/**
 * ltt_lagent_peer() - the other end of accepted loopback TCP connection
 * @fd, as its socket's line in /proc/net/tcp says: the user that owns it
 * into *@ret_uid, its inode into *@ret_inode
 *
 * Returns 0, -ENOENT (no such line: the peer is gone, or in another
 * network namespace) or -errno.
 */
int ltt_lagent_peer(int fd, uid_t *ret_uid, unsigned long *ret_inode);

/* The descriptors of a process looked through for a socket, at most. */
#define LTT_LAGENT_PID_FDS 65536

/**
 * ltt_lagent_pid_check() - an agent's claimed @pid checked against its
 * connection, whose peer socket /proc/net/tcp gave (ltt_lagent_peer()):
 * owned by @uid, inode @inode.  Where this daemon may read the process's
 * descriptors (/proc/PID/fd: its own user's), the process must hold that
 * socket; where it may not, the process must be @uid's (/proc/PID/status).
 *
 * Returns 1 (checked), 0 (the claim is false), or -errno when the system
 * can't tell: -ENOENT (no such process here: gone, or in another PID
 * namespace; or no socket line), -EACCES (neither file readable).  A
 * process of over LTT_LAGENT_PID_FDS descriptors is checked by its user.
 */
int ltt_lagent_pid_check(uint32_t pid, uid_t uid, unsigned long inode);

/**
 * ltt_lagent_port_write() - @port as decimal text in @path, its directory
 * made (and, for a daemon's own LTT_LAGENT_HOME_FILE, the one above it),
 * the file replaced whole (written beside it, then renamed)
 *
 * Returns 0 or -errno.
 */
int ltt_lagent_port_write(const char *path, unsigned int port);

/**
 * ltt_lagent_port_remove() - remove port file @path if it still names
 * @port (a daemon that started since owns it otherwise), and the two
 * directories of a daemon's own LTT_LAGENT_HOME_FILE when empty
 */
void ltt_lagent_port_remove(const char *path, unsigned int port);

#endif /* LTT_SESSIOND_LAGENT_H */
