/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * priv.h - the root daemon's privileged part (doc/sessiond.md, "Privilege
 * separation"): a process forked at start-up, before any thread, that
 * keeps what needs root and answers a narrow, typed request set over a
 * socketpair; the daemon's other code asks it through ltt_priv_call().
 * Its files:
 *   priv.h         this map, and the link's and the loop's functions
 *   priv-link.c    the daemon's end of the link (unprivileged side): start
 *                  the process, one call, stop it
 *   priv-server.c  the privileged process's loop over a table of requests
 * The table of allowed requests is the daemon's (daemon/priv-table.c,
 * above every folder, run in the privileged process); their ends: kabi/kabi-remote.c and kabi/kabi-serve.c (the
 * kernel tracer), kernel/kmodule.c (the module).
 *
 * Framing: common/proto/msg.h with LTT_PRIV_MAGIC; a request's type is one of
 * LTT_PRIV_REQUESTS, its reply has the same type and seq and begins with
 * {i32 status} (0 or a negative errno), fds passed as SCM_RIGHTS.
 * Little-endian, as every ltt protocol.  The privileged process checks
 * every request (type, size, ranges, the kernel objects it names and
 * their kinds) as it would a stranger's: the other end reads client.sock
 * and app.sock.
 */
#ifndef LTT_SESSIOND_PRIV_PRIV_H
#define LTT_SESSIOND_PRIV_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/base/codec.h"
#include "common/proto/msg.h"

#define LTT_PRIV_MAGIC 0x4c545050u		/* "LTPP" */
#define LTT_PRIV_MAX_PAYLOAD (32u << 20)	/* a LIST of 65,536 events, and room */

/*
 * The requests (their table, with each one's least payload: daemon/priv-table.c);
 * retired numbers are never reused.  Payloads (replies after the status):
 *   KABI_OPEN {u32 backend (0 module, 1 tracefs), u8 has_path, str path}
 *       -> {u32 object}: the tracer
 *   KABI_RUN {u32 op (enum ltt_kabi_op), u32 object, u32 arg_size, the
 *       argument, then what its user pointers point at (in order, each
 *       element's own after it)} -> {u32 arg_size, the argument, what its
 *       out pointer points at; an object it creates: u32 object, and its
 *       fd when a consumer reads it (a stream; a channel's event map)}
 *   KABI_RELEASE {u32 object} -> {}
 *   KMOD_LOAD {str name (ltt-tracer only), u8 has_probes, str probes}
 *       -> {u8 loaded (by this call), str why}
 *   KMOD_UNLOAD {str name (ltt-tracer only)} -> {}
 *   CONSUMER_SPAWN {u8 as_user, u32 uid, u32 gid, u8 lttng_health (its
 *       LTTng health socket's kind, consumer.h)}, the consumer's end of
 *       its command socket (SCM_RIGHTS) -> {u32 pid}, a pidfd of it: the
 *       program and its options are the ones fixed at start-up
 *   CONSUMER_KILL {u32 pid} (a consumer this process spawned) -> {}
 *   OWNER_FILES {u8 job (1 archive, 2 remove, 3 repair, 4 list), u32 uid,
 *       u32 gid, str output, str path, i64 begin, i64 end, u64 id} -> {str
 *       path (the archive), u32 dirs, u32 busy, u32 cut, u64 bytes, u32
 *       errors (the repair's)}, or for a list {u32 n, n x str name}: done
 *       with uid's rights (chunk/chunk-owner.c)

 *   AGENT_PORT {u32 port} -> {}: LTTng's agents' port file (the one set
 *       at start-up: daemon/priv-table.h) written with @port, removed at a clean
 *       stop; accepted once (sent before any client or program is heard)
 *   TIME_NS {u32 pid} -> {u8 same}: does process @pid see the daemon's
 *       CLOCK_MONOTONIC (ltt_app_same_clock()), asked only where the
 *       daemon can't read /proc/PID/timens_offsets itself (hidepid)
 *   OWNER_ADD {u64 id, str output, str shm}, the connection of the client that
 *       created session @id (SCM_RIGHTS) -> {u32 uid, u32 gid}: its
 *       credentials (SO_PEERCRED), the only owners OWNER_FILES serves
 *       once the daemon is not root (chunk/chunk-owner.c)
 *   OWNER_DROP {u64 id} -> {}: session @id is gone
 *   STOPPING {} -> {}: the daemon stops cleanly (ltt_priv_stop()): what
 *       it could not remove, the privileged part removes as it ends
 *   JOURNAL_WRITE {u64 id, str text} -> {}: session @id's chunk journal,
 *       kept if it names an admitted session's owner and output
 *   JOURNAL_REMOVE {u64 id} -> {}: forget it (chunk/chunk-journal.c)
 *   SAVE_LTTNG {str session ("": all), str dir ("": the default), u8
 *       force}, root's client's connection (SCM_RIGHTS) -> {}, the read
 *       end of a pipe (SCM_RIGHTS) on which a process of root's, detached
 *       at once, writes its struct ltt_priv_save_result once it saved
 *       (ltt_lib_save_lttng(), through the daemon's client socket): LTTng's
 *       `lttng save` of a root client, which a dropped daemon can neither
 *       list nor write
 *   SHM_FILE {u64 id, u8 job, u64 keep, str path} -> {}, and for jobs 1
 *       and 2 the file: a --shm-path file of admitted session @id, made,
 *       opened or removed with its owner's rights (ust/ust-shm.h's jobs:
 *       1 create a stream file, 2 open the metadata to append, 3 remove
 *       a trace's files and the directories they leave empty), below
 *       the shared memory path it was admitted with only, never a
 *       directory above it removed
 *   OWNER_SHM {u64 id, str shm}, the connection of session @id's owner
 *       (SCM_RIGHTS) -> {}: the shared memory path of a session admitted
 *       without one (LTTng's SET_SESSION_SHM_PATH), set once
 *   CLIENT_PROBE_FILE {str path}, a client's connection (SCM_RIGHTS) ->
 *       {}, the file: a user-space probe's ELF file opened with that
 *       client's rights (a trigger's probe: no session owns it)
 *   LTTNG_GEN {}, a client's connection (SCM_RIGHTS) -> {u8 gen}: the
 *       generation of LTTng's client protocol that client speaks (its pid
 *       read there), told by the liblttng-ctl it maps (/proc/PID/maps,
 *       which only root reads of another user's process;
 *       lttng-compat-peer.c)
 */
enum ltt_priv_request {
	LTT_PRIV_KABI_OPEN = 1,
	LTT_PRIV_KABI_RUN = 2,
	LTT_PRIV_KABI_RELEASE = 3,
	LTT_PRIV_KMOD_LOAD = 4,
	LTT_PRIV_KMOD_UNLOAD = 5,
	LTT_PRIV_CONSUMER_SPAWN = 6,
	LTT_PRIV_CONSUMER_KILL = 7,
	LTT_PRIV_OWNER_FILES = 8,
	LTT_PRIV_AGENT_PORT = 9,
	LTT_PRIV_TIME_NS = 10,
	LTT_PRIV_OWNER_ADD = 11,
	LTT_PRIV_OWNER_DROP = 12,
	LTT_PRIV_STOPPING = 13,
	LTT_PRIV_JOURNAL_WRITE = 14,
	LTT_PRIV_JOURNAL_REMOVE = 15,
	LTT_PRIV_PROBE_FILE = 16,
	LTT_PRIV_TLS_FILE = 17,
	LTT_PRIV_SAVE_LTTNG = 18,
	LTT_PRIV_SHM_FILE = 19,
	LTT_PRIV_OWNER_SHM = 20,
	LTT_PRIV_CLIENT_PROBE_FILE = 21,
	LTT_PRIV_LTTNG_GEN = 22,
};

/* What SAVE_LTTNG's process writes on its pipe (one write). */
struct ltt_priv_save_result {
	int32_t ret;		/* ltt_lib_save_lttng()'s */
	uint32_t count;		/* sessions saved */
	char err[1024];		/* its error detail */
};

/* The largest files PROBE_FILE and TLS_FILE open (elf-probe.c reads 512 MiB) */
#define LTT_PRIV_PROBE_FILE_MAX ((off_t)512 << 20)
#define LTT_PRIV_TLS_FILE_MAX ((off_t)1 << 20)
/*
 * How long ltt-priv waits for a user-named file (TLS, probe) to open and
 * pass its checks, in a child of its own: past it, the child is killed
 * and the file refused (a file system that never answers, a stalled FUSE
 * mount, holds no one but that child).
 */
#define LTT_PRIV_OPEN_MS 2000
/*
 * How long SAVE_LTTNG's process may save: it is killed then (an alarm),
 * and its pipe reads its end; the daemon waits for it that long and a
 * second more (whole seconds: alarm()'s unit).
 */
#define LTT_PRIV_SAVE_MS 30000

struct ltt_priv;

/* priv-link.c: the daemon's end of the link */

/**
 * ltt_priv_start() - fork the privileged process; the link becomes this
 * process's (ltt_priv_get()).  Call before any thread starts.  The child
 * keeps only the link and stderr (/dev/null too when @quiet: a daemon
 * that detaches and closes its stdio) and runs @serve (the daemon's
 * ltt_priv_serve(): this file needs none of the code it runs) until the
 * link closes, then exits.
 * @name: the child's process name (/proc/PID/comm): "ltt-priv", or the
 *        daemon's own where tools look for that name as root's
 *
 * Returns 0 or a negative errno (no process: the caller runs without).
 */
int ltt_priv_start(int (*serve)(int fd, pid_t daemon), bool quiet, const char *name);

/**
 * ltt_priv_get() - this process's link to its privileged part, NULL when
 * it has none (a personal daemon, --no-privsep, or the privileged
 * process itself)
 */
struct ltt_priv *ltt_priv_get(void);

/** ltt_priv_pid() - the privileged process's pid */
pid_t ltt_priv_pid(const struct ltt_priv *p);

/**
 * ltt_priv_call() - one request and its reply; any thread (calls are
 * serialized)
 * @req: the payload; borrowed
 * @ret_reply: the reply (release with ltt_msg_fini()), on success only
 * @ret_r: reads it after its status
 *
 * Returns the reply's status (0 or the request's negative errno), or a
 * transport error: -EPIPE (the privileged process is gone), -EPROTO.
 */
int ltt_priv_call(struct ltt_priv *p, enum ltt_priv_request type, const struct ltt_wbuf *req,
		  struct ltt_msg *ret_reply, struct ltt_rbuf *ret_r);

/**
 * ltt_priv_ask() - ltt_priv_call() of a request whose reply holds nothing
 * after its status; its status
 */
int ltt_priv_ask(struct ltt_priv *p, enum ltt_priv_request type, const struct ltt_wbuf *req);

/**
 * ltt_priv_call_fd() - ltt_priv_call() with @fd (borrowed) passed along
 * the request, as SCM_RIGHTS
 */
int ltt_priv_call_fd(struct ltt_priv *p, enum ltt_priv_request type, const struct ltt_wbuf *req,
		     int fd, struct ltt_msg *ret_reply, struct ltt_rbuf *ret_r);

/**
 * ltt_priv_drop() - become user @uid, group @gid, for good: no
 * supplementary group, the capability bounding set emptied (where this
 * process has CAP_SETPCAP: ltt_priv_bounding_set() says), no capability
 * left, PR_SET_NO_NEW_PRIVS.  The ids are every thread's
 * (glibc changes them all); the bounding set and no_new_privs are the
 * calling thread's and those it starts after, so call it before the
 * threads that read clients' and programs' messages start.
 *
 * Returns 0, -EINVAL for uid or gid 0, or a negative errno (then the
 * process must not go on: it may have changed some of its ids).
 */
int ltt_priv_drop(uid_t uid, gid_t gid);

/** ltt_priv_bounding_set() - how many capabilities the bounding set holds */
int ltt_priv_bounding_set(void);

/**
 * ltt_priv_daemon_uid() - whose daemon this is: root's (0) for a root
 * daemon, also once it gave root's rights up (ltt_priv_drop()), else
 * its user's.  Where the daemon asked "am I root?" to mean "the root
 * daemon", it asks this.
 */
uid_t ltt_priv_daemon_uid(void);

/**
 * ltt_priv_open_probe() - a user-space probe's ELF file @path
 * (absolute) opened with the owner's rights of session @id, into @ret_fd
 * (the caller's): once the daemon gave root's rights up, by the
 * privileged part (PROBE_FILE), which opens only a regular ELF file, for
 * an admitted session only.  Returns 1 (nothing opened: the caller reads
 * it with ltt_as_user_begin(), as a root daemon or a personal one does),
 * 0, or -EPERM (no admitted session @id), -ENOENT, -EACCES (the owner may
 * not read it), -ENOEXEC (not a regular ELF file), or another -errno.
 */
int ltt_priv_open_probe(uint64_t id, const char *path, int *ret_fd);

/**
 * ltt_priv_open_client_probe() - as ltt_priv_open_probe(), the file
 * opened with the rights of the client on connection @client_fd
 * (borrowed), whose credentials the privileged part reads there
 * (CLIENT_PROBE_FILE): a trigger's user-space probe.  1 when the daemon
 * kept root's rights (the caller reads it as the owner); -EPERM without
 * a client.
 */
int ltt_priv_open_client_probe(int client_fd, const char *path, int *ret_fd);

/**
 * ltt_priv_open_tls() - a session's TLS file @path (absolute) opened with
 * the rights of the client on connection @client_fd (borrowed), whose
 * credentials the privileged part reads there, into @ret_fd (the
 * caller's): once the daemon gave root's rights up, by the privileged
 * part (TLS_FILE), which opens only a regular file of at most 1 MiB that
 * holds a PEM block.  Returns 1 (nothing opened: the caller reads it
 * with ltt_as_user_begin()), 0, -EPERM (no client), -ENOENT, -EACCES,
 * -ENOEXEC (not such a file), or another -errno.
 */
int ltt_priv_open_tls(int client_fd, const char *path, int *ret_fd);

/* The jobs on a --shm-path file (ust/ust-shm.h's ltt_ust_shm_job(), SHM_FILE's). */
enum {
	LTT_PRIV_SHM_STREAM = 1,	/* create a stream file, read-write */
	LTT_PRIV_SHM_METADATA = 2,	/* open the metadata file to append to */
	LTT_PRIV_SHM_REMOVE = 3,	/* a trace's files, and its emptied directories */
};

/**
 * ltt_priv_shm_file() - job @job (LTT_PRIV_SHM_*) on the
 * --shm-path file or directory @path of session @id, with its owner's
 * rights: once the daemon gave root's rights up, by the privileged part
 * (SHM_FILE), for an admitted session only; @keep and @ret_fd as
 * ltt_ust_shm_job()'s.  Returns 1 (nothing done: the caller does it with
 * ltt_as_user_begin()), 0, -EPERM (no admitted session @id), or as
 * ltt_ust_shm_job().
 */
int ltt_priv_shm_file(uint64_t id, unsigned int job, const char *path, size_t keep,
		      int *ret_fd);

/**
 * ltt_priv_save_lttng() - SAVE_LTTNG: a root daemon that gave root's
 * rights up has its privileged part save root's sessions for root's
 * client on @client_fd (@session NULL: all; @dir NULL: root's default),
 * into *@ret_fd the pipe its result comes on (the caller's to read and
 * close).  Returns 0, 1 when the daemon kept its rights (save it
 * yourself), or a negative errno (-EPERM: not root's client).
 */
int ltt_priv_save_lttng(int client_fd, const char *session, const char *dir, bool force,
			int *ret_fd);

/**
 * ltt_priv_agent_port() - AGENT_PORT: the privileged part writes the
 * agents' port file it was given at start-up (@path, the same, is not
 * sent) with @port, and removes it at a clean stop; an
 * ltt_lagent_port_fn.  Returns 0 or a negative errno (-EPIPE: no link).
 */
int ltt_priv_agent_port(const char *path, unsigned int port);

/**
 * ltt_priv_time_ns() - TIME_NS: does process @pid see our
 * CLOCK_MONOTONIC (where we can't read its /proc)?  1, 0, or a negative
 * errno (-EPIPE: no link).
 */
int ltt_priv_time_ns(pid_t pid);

/**
 * ltt_priv_lttng_gen() - LTTNG_GEN: the generation (enum ltt_lttng_gen)
 * of the LTTng client on connection @client_fd (borrowed) once the daemon
 * gave root's rights up; 1 + that, or 0 when the daemon reads it itself
 * (it kept its rights), or a negative errno.
 */
int ltt_priv_lttng_gen(int client_fd);

/**
 * ltt_priv_stop() - a clean stop: say so (STOPPING), close the link and
 * wait for the privileged process to release what it holds and exit; no
 * call may be under way
 */
void ltt_priv_stop(void);

/* priv-server.c: the privileged process's loop */

/* One request as its handler is given it. */
struct ltt_priv_call {
	void *state;		/* ltt_priv_serve()'s */
	struct ltt_rbuf *r;	/* the payload */
	int in_fd;		/* the fd the request passed (borrowed: closed after the
				   handler); -1 but for a request whose row takes one */
	struct ltt_wbuf *w;	/* the reply after its status, kept on success only */
	int *ret_fd;		/* the handler may set an fd to pass (borrowed) */
};

/*
 * One allowed request: its handler reads the call's payload and writes
 * its reply; it returns 0 or a negative errno.
 */
struct ltt_priv_handler {
	uint16_t type;			/* enum ltt_priv_request */
	const char *name;		/* in messages */
	uint32_t min;			/* the least payload */
	bool takes_fd;			/* the request passes one fd, always */
	int (*fn)(const struct ltt_priv_call *req);
};

/**
 * ltt_priv_serve() - serve requests on @fd until it closes (or breaks),
 * from @requests (@nr of them; any other gets -ENOSYS, a payload below
 * its least -EPROTO), each handler given @state
 */
void ltt_priv_serve(int fd, const struct ltt_priv_handler *requests, size_t nr, void *state);

#endif /* LTT_SESSIOND_PRIV_PRIV_H */
