/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chunk-owner.h - what is done with a session's owner's rights on its
 * output (chunk-owner.c): a chunk archived, a tree removed, the traces a
 * dead daemon left repaired.  In this process when it may take the
 * owner's rights (root without a privileged part) or needs none (a
 * personal daemon: it is the owner); else by the privileged part
 * (priv.h: OWNER_FILES), which checks the paths against the output and
 * takes the owner's rights for it, so the kernel's own checks apply.
 */
#ifndef LTT_SESSIOND_CHUNK_OWNER_H
#define LTT_SESSIOND_CHUNK_OWNER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct ucred;

#include "common/base/codec.h"
#include "common/trace/trace-repair.h"

/* "20261122T173000+0000": LTTng's ISO 8601 form of a chunk's times. */
#define LTT_CHUNK_STAMP_MAX 32

/* A session's owner and its output directory (an absolute path). */
struct ltt_chunk_owner {
	uid_t uid;
	gid_t gid;
	const char *output;
};

/* ltt_chunk_stamp() - @when as a chunk's name has it, into @buf */
void ltt_chunk_stamp(int64_t when, char buf[LTT_CHUNK_STAMP_MAX]);

/**
 * ltt_chunk_owner_archive() - archive the chunk in @dir (the output
 * itself for chunk 0), begun at @begin and ended at @end, numbered @id:
 * into OUTPUT/archives/BEGIN-END-ID (@ret_path, LTT_PATH_MAX bytes)
 *
 * Returns 0 or a negative errno.
 */
int ltt_chunk_owner_archive(const struct ltt_chunk_owner *o, const char *dir, int64_t begin,
			    uint64_t id, int64_t end, char *ret_path);

/** ltt_chunk_owner_remove() - remove @path (below the output) and what it holds */
int ltt_chunk_owner_remove(const struct ltt_chunk_owner *o, const char *path);

/**
 * ltt_chunk_owner_list() - @fn(@arg, name) for each entry of directory
 * @dir (below the output), read with the owner's rights: 0 (also when
 * @dir does not exist) or a negative errno.  The names come whole before
 * the first call.
 */
int ltt_chunk_owner_list(const struct ltt_chunk_owner *o, const char *dir,
			 void (*fn)(void *arg, const char *name), void *arg);

/**
 * ltt_chunk_owner_repair() - repair the traces in the output
 * (ltt_trace_repair()); -EPERM: the owner's rights could not be taken
 */
int ltt_chunk_owner_repair(const struct ltt_chunk_owner *o, struct ltt_repair_stats *st);

/**
 * ltt_chunk_owner_admit() - tell the privileged part that session @id,
 * output @output, shared memory path @shm ("" for none), exists,
 * created by the client on connection @client_fd (borrowed), whose
 * credentials it reads there (OWNER_ADD): once the daemon gave root's
 * rights up, OWNER_FILES serves only the owners and outputs of sessions
 * so admitted, SHM_FILE only their files below @shm.  Nothing without a
 * privileged part or a client (-1).  Returns 0, -EPERM when the
 * connection's credentials are not @uid's and @gid's, or a negative errno.
 */
int ltt_chunk_owner_admit(int client_fd, uint64_t id, const char *output, const char *shm,
			  uid_t uid, gid_t gid);

/**
 * ltt_chunk_owner_set_shm() - session @id, admitted without one, gets
 * shared memory path @shm (LTTng's SET_SESSION_SHM_PATH), asked by its
 * owner on connection @client_fd (OWNER_SHM: the privileged part checks
 * the credentials there).  Nothing without a privileged part or a client.
 * Returns 0, -EPERM (not the owner, or a path set already), or -errno.
 */
int ltt_chunk_owner_set_shm(int client_fd, uint64_t id, const char *shm);

/**
 * ltt_chunk_owner_serve_shm() - the privileged end's check for SHM_FILE:
 * admitted session @id has a shared memory path, @path is it or below it
 * (no "." or ".." on the way) and @keep (how much of @path a removal
 * keeps) covers it; its owner into @ret_uid, @ret_gid.  0 or -EPERM.
 */
int ltt_chunk_owner_serve_shm(uint64_t id, const char *path, size_t keep, uid_t *ret_uid,
			      gid_t *ret_gid);

/** ltt_chunk_owner_serve_set_shm() - the privileged end of OWNER_SHM; 0 or -errno */
int ltt_chunk_owner_serve_set_shm(struct ltt_rbuf *r, int fd);

/** ltt_chunk_owner_forget() - session @id is gone (OWNER_DROP) */
void ltt_chunk_owner_forget(uint64_t id);

/**
 * ltt_chunk_owner_serve_owner() - the privileged end's owner of admitted
 * session @id (OWNER_ADD), into @ret_uid, @ret_gid; -EPERM for none
 */
int ltt_chunk_owner_serve_owner(uint64_t id, uid_t *ret_uid, gid_t *ret_gid);

/**
 * ltt_chunk_owner_serve() - the privileged end of OWNER_FILES: @r the
 * request, @w the reply after its status.  Once the daemon named by
 * ltt_chunk_owner_serve_daemon() is not root, a request whose owner and
 * output are no admitted session's gets -EPERM.  Returns 0 or a negative
 * errno.
 */
int ltt_chunk_owner_serve(struct ltt_rbuf *r, struct ltt_wbuf *w);

/**
 * ltt_chunk_owner_serve_daemon() - the privileged end serves @daemon
 * (before the first request; 0, the default: a daemon trusted as root)
 */
void ltt_chunk_owner_serve_daemon(pid_t daemon);

/**
 * ltt_chunk_owner_serve_clients() - the path of the daemon's client.sock
 * (set before it drops; NULL or "": a daemon trusted as root, whose
 * connections are not checked), and of LTTng's client socket it serves
 * too (--lttng-compat; NULL or "": none)
 */
void ltt_chunk_owner_serve_clients(const char *path, const char *lttng_path);

/**
 * ltt_chunk_owner_client_cred() - the credentials of the client on @fd
 * (SO_PEERCRED), once @fd is known for a connection client.sock accepted
 * (not one the daemon connected itself, which reports its listener's
 * credentials); -EPERM otherwise, or a negative errno
 */
int ltt_chunk_owner_client_cred(int fd, struct ucred *ret_cred);

/**
 * ltt_chunk_owner_lttng_cred() - ltt_chunk_owner_client_cred(), a
 * connection on LTTng's notification channel's socket taken too: for
 * what any of LTTng's clients may ask (LTTNG_GEN, its version)
 */
int ltt_chunk_owner_lttng_cred(int fd, struct ucred *ret_cred);

/** ltt_chunk_owner_is() - was session @id admitted with owner @uid, @gid? */
bool ltt_chunk_owner_is(uint64_t id, uid_t uid, gid_t gid);

/**
 * ltt_chunk_owner_serve_admit() - the privileged end of OWNER_ADD: @r
 * {u64 id, str output}, @fd the client's connection; replies {u32 uid,
 * u32 gid}, the credentials it recorded.  Returns 0 or a negative errno.
 */
int ltt_chunk_owner_serve_admit(struct ltt_rbuf *r, int fd, struct ltt_wbuf *w);

/**
 * ltt_chunk_owner_admitted() - was a session of owner @uid, @gid and
 * output @output admitted (and not forgotten)?  The privileged end's.
 */
bool ltt_chunk_owner_admitted(uid_t uid, gid_t gid, const char *output);

/** ltt_chunk_owner_serve_forget() - OWNER_DROP's end: @r {u64 id} */
int ltt_chunk_owner_serve_forget(struct ltt_rbuf *r);

/** ltt_chunk_owner_serve_fini() - forget every admitted session */
void ltt_chunk_owner_serve_fini(void);

#endif /* LTT_SESSIOND_CHUNK_OWNER_H */
