/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ctl-internal.h - what the modules of libltt-ctl share and export to no
 * one (the export list, libltt-ctl.sym, keeps ltt_ctl_* names only), and
 * the map of its files, from the top layer down (a file calls only files
 * listed below it):
 *
 * config/: saved sessions (save and load), each file by its path:
 *   config/config.c   load: which sessions, which files, all or nothing;
 *                     drives the XML module through config-module.h.
 *   config/config-save.[ch]  save: which sessions, which files, what each
 *                     holds; what load shares of it.
 *   config/config-trigger.[ch]  the triggers saved with a session, added
 *                     back on load.
 *   config/config-module.[ch]  the boundary to the XML module
 *                     (config-xml.so), loaded on first use.
 *   config/config-xml.[ch]  the XML module: ltt's format (xml/session.xsd)
 *                     read.
 *   config/config-xml-write.[ch]  ... and written.
 *   config/config-lttng.[ch]  ... LTTng's .lttng files read as ltt's own.
 *   config/config-lttng-write.[ch]  ... and sessions written in LTTng's
 *                     format.
 *   config/config-xml-put.[ch]  ... the elements both writers put, one
 *                     file each.
 *   config/config-rd.[ch]  ... the values of a parsed document read into
 *                     the model.
 *   config/config-words.[ch]  ... the XML format's words, shared by its
 *                     reader and writer (LTTng's: common/model/lttng-words.h,
 *                     which lttctl's MI shares).
 *   config/config-check.[ch]  a saved session checked as a whole; what
 *                     LTTng's format can't hold of a session to save.
 *   config/config-model.[ch]  the model of saved sessions.
 * The calls of the client protocol (src/common/proto/client-proto.h):
 *   list.c            the sessions, one session in detail, the events offered.
 *   rule.c            event rules: enable, disable, filters, GET_SESSION's rules.
 *   stall.c           GET_SESSION's stalled consumers.
 *   session.c         create, destroy, start, stop, data pending, relay status.
 *   channel.c         a domain's channel defaults, enable, disable.
 *   context.c         context types, add-context, a session's contexts.
 *   tracker.c         process trackers.
 *   snapshot.c        a snapshot session's outputs and its snapshots.
 *   chunk.c           rotate, rotation schedule, clear, regenerate.
 *   trigger.c         triggers and notification channels.
 *   map.c             map channels: add one, list them with their counters.
 *   kernel-tracer.c   how the session daemon traces the kernel.
 *   spawn.c           starting a session daemon (ltt-sessiond --daemonize).
 * The transport:
 *   conn.c            connecting (run directory, timeout, HELLO) and one
 *                     request and its reply (ctl_transact()).
 *   ctl-internal.h    this header.
 */
#ifndef LTT_LIB_CTL_INTERNAL_H
#define LTT_LIB_CTL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl.h>

#include "common/proto/client-proto.h"
#include "common/base/codec.h"

/**
 * ctl_err() - @code as this library's functions return it (ltt-ctl.h):
 * 0, or the code negated.  The daemon's status and the shared checks
 * (common/model/attr.h) say a code; it is negated here, at the API, only.
 */
static inline int ctl_err(enum ltt_error_code code)
{
	return -(int)code;
}

/* Bytes of a connection's error detail, NUL included. */
#define LTT_LIB_DETAIL_MAX 1024

/**
 * ltt_lib_detail() - @ctl's error detail buffer (LTT_LIB_DETAIL_MAX
 * bytes), emptied, for a call to describe its failure in; see
 * ltt_ctl_error_detail().  Same thread as the call.
 */
char *ltt_lib_detail(struct ltt_ctl *ctl);

/**
 * ltt_lib_load_path() - load the saved sessions of @path on the daemon of
 * @rundir: ltt_ctl_load_sessions() for a session daemon loading at start
 * (src/sessiond/daemon/autoload.c), which thus names no public struct
 * @path: a file, or a directory of .ltt files
 * @loaded: called with each session loaded and its file (borrowed)
 * @err: receives what failed, with the file and line ("" if nothing to add)
 * @errlen: size of @err
 *
 * Connects (the daemon's client thread must serve), loads, disconnects.
 * Returns 0 or the load's (or the connection's) -LTT_ERR_* code.
 */
int ltt_lib_load_path(const char *rundir, const char *path,
		      void (*loaded)(const char *name, const char *file), char *err,
		      size_t errlen);

/**
 * ctl_transact() - send one request and read its reply (conn.c)
 * @ret_reply: NULL, or the reply payload (free() it), with @ret_len
 *
 * Returns 0 or -LTT_ERR_* (the daemon's status, or a connection error).
 */
int ctl_transact(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, const struct ltt_wbuf *req,
		 uint8_t **ret_reply, size_t *ret_len);

/**
 * ctl_session_call() - the request {str session} alone of @cmd, for a
 * daemon of minor @minor or later (as ctl_begin_session_req()), and its
 * reply (as ctl_transact())
 * @ret_reply: NULL (an empty reply), or receives the reply (free() it)
 * @r: NULL, or set to read that reply
 */
int ctl_session_call(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, const char *session,
		     uint32_t minor, uint8_t **ret_reply, struct ltt_rbuf *r);

/**
 * ctl_reply_array() - the array a reply at @r holds: its u32 count, at
 * most what the bytes left hold at @min_size each, and room for that many
 * elements of @size, zeroed (free() it)
 * @ret_n: receives the count (0 on failure)
 *
 * Returns the room, or NULL: @r's error set (a count the reply can't
 * hold), or no memory (ctl_reply_end() tells which).
 */
void *ctl_reply_array(struct ltt_rbuf *r, size_t min_size, size_t size, size_t *ret_n);

/**
 * ctl_reply_end() - the end of a reply read into @array (NULL: none):
 * 0, -LTT_ERR_NOMEM (no array, the reply sound) or -LTT_ERR_PROTOCOL (the
 * reply erred or has bytes left)
 */
int ctl_reply_end(struct ltt_rbuf *r, const void *array);

/*
 * A request {str session} whose reply is an array (ctl_session_list()):
 * its command and least daemon minor, an element's smallest encoding and
 * its size in memory, how one is read (@get, given the connection for its
 * minor), and how an array read in part is freed (NULL: free()).
 */
struct ctl_list_call {
	enum ltt_client_cmd cmd;
	uint32_t minor;
	size_t min_size, size;
	void (*get)(struct ltt_rbuf *r, void *element, const struct ltt_ctl *ctl);
	void (*drop)(void *array, size_t n);
};

/**
 * ctl_session_list() - @call on @session, its reply read into a new
 * array (ctl_reply_array(), free() it)
 * @ret_array: the address of the caller's pointer to its element type,
 *             set on success only, like *@ret_count
 *
 * Returns 0, -LTT_ERR_INVAL (@ret_array or @ret_count NULL), or the
 * call's or the reply's error.
 */
int ctl_session_list(struct ltt_ctl *ctl, const struct ctl_list_call *call, const char *session,
		     void *ret_array, size_t *ret_count);

/** ctl_minor() - the client protocol minor agreed with the daemon */
uint32_t ctl_minor(const struct ltt_ctl *ctl);

/** ctl_fd() - the connection's socket (a notification channel reads it) */
int ctl_fd(const struct ltt_ctl *ctl);

/**
 * ctl_begin_domain_req() - start a request {str session, u32 domain}
 * @w: initialized here on success; the caller sends it with
 *     ctl_send_req(), which finalizes it
 *
 * Returns 0, -LTT_ERR_INVAL or -LTT_ERR_DOMAIN.
 */
int ctl_begin_domain_req(struct ltt_wbuf *w, const struct ltt_ctl *ctl, const char *session,
			 enum ltt_domain domain);

/**
 * ctl_begin_session_req() - start a request {str session, ...} that a
 * daemon of client protocol minor @minor or later serves (0: any)
 * @w: initialized here on success; the caller sends it with ctl_send_req()
 *
 * Returns 0, -LTT_ERR_INVAL (no @ctl, no @session or too long a name) or
 * -LTT_ERR_NOT_SUPPORTED (an older daemon).
 */
int ctl_begin_session_req(struct ltt_wbuf *w, const struct ltt_ctl *ctl, const char *session,
			  uint32_t minor);

/**
 * ctl_send_req() - send @w, then finalized, and take the reply as
 * ctl_transact() does (@ret_reply NULL: an empty one)
 */
int ctl_send_req(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, struct ltt_wbuf *w,
		 uint8_t **ret_reply, size_t *ret_len);

/**
 * ctl_send_read() - ctl_send_req() of @w, its reply read whole by @get
 * (given the connection, for its minor) into @element
 *
 * Returns 0, the call's error, or -LTT_ERR_PROTOCOL (a reply @get did not
 * read to its end).
 */
int ctl_send_read(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, struct ltt_wbuf *w,
		  void (*get)(struct ltt_rbuf *r, void *element, const struct ltt_ctl *ctl),
		  void *element);

/**
 * ctl_session_read() - the request {str session} alone of @cmd, for a
 * daemon of minor @minor or later (as ctl_begin_session_req()), its
 * reply read whole by @get into @element (as ctl_send_read())
 *
 * Returns 0, the call's error, or -LTT_ERR_PROTOCOL (a reply @get did not
 * read to its end).
 */
int ctl_session_read(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, const char *session,
		     uint32_t minor,
		     void (*get)(struct ltt_rbuf *r, void *element, const struct ltt_ctl *ctl),
		     void *element);

/**
 * ctl_get_rules() - the @nr rules of a GET_SESSION reply at @r, into the
 * session's block
 * @detail: the block so far (detail and its nr_channels channels), grown
 *          by realloc() to hold the rules then their filter and exclusion
 *          strings; *@detail is updated even on failure (free it then)
 *
 * Returns 0, -LTT_ERR_NOMEM, or -LTT_ERR_PROTOCOL (@r's error set).
 */
int ctl_get_rules(struct ltt_rbuf *r, uint32_t minor, size_t nr,
		  struct ltt_session_detail **detail);

/* A session's block: the detail, room for this many stalls, the channels... */
#define CTL_STALLS_MAX 2

/**
 * ctl_get_stalls() - the stalled consumers that end a GET_SESSION reply
 * at @r (nothing before minor LTT_CLIENT_MINOR_CONSUMER_STALL), into the
 * room for CTL_STALLS_MAX right after @d in its block
 *
 * Returns 0 or -LTT_ERR_PROTOCOL (@r's error set).
 */
int ctl_get_stalls(struct ltt_rbuf *r, uint32_t minor, struct ltt_session_detail *d);

/**
 * ltt_lib_save_lttng() - save sessions of the daemon of @rundir in LTTng
 * 2.13's format, as LTTng's daemon does for `lttng save`: for a session
 * daemon serving LTTng's SAVE_SESSION (src/sessiond/lttng-compat.c)
 * @session: the session to save, or NULL for every one of the caller's
 * @dir: the directory of the files, created if missing (each session in
 *       DIR/NAME.lttng); NULL: $LTTNG_HOME/.lttng/sessions (else $HOME's)
 * @force: replace existing files
 * @ret_count: receives the number of sessions saved (those saved before
 *             a failure stay)
 * @err: receives what failed, with the file ("" if nothing to add)
 * @errlen: size of @err
 *
 * Connects as any client (the sessions are the caller's uid's), saves
 * no trigger (LTTng 2.13 saves none), refuses a session LTTng's format
 * can't hold (-LTT_ERR_CONFIG_LTTNG_FORMAT), disconnects.  Returns 0 or
 * -LTT_ERR_*.
 */
int ltt_lib_save_lttng(const char *rundir, const char *session, const char *dir, bool force,
		       size_t *ret_count, char *err, size_t errlen);

struct ltt_trigger_conf;
struct ltt_trigger_desc;
struct ltt_trigger_info;

/**
 * ltt_lib_add_trigger_conf() - add trigger @c (its internal form,
 * checked here) on @ctl's daemon, with @flags (LTT_TRIGGER_FLAG_*);
 * @ret_name (LTT_NAME_MAX bytes or NULL) gets the name it got.  Returns 0
 * or a negative ltt error code.
 */
int ltt_lib_add_trigger_conf(struct ltt_ctl *ctl, const struct ltt_trigger_conf *c,
			     uint32_t flags, char *ret_name);

/* ltt_ctl_list_triggers@LTT_CTL_1.4 (trigger.c): more_captures never set */
int ltt_lib_list_triggers_1_4(struct ltt_ctl *ctl, struct ltt_trigger_info **ret_triggers,
			      size_t *ret_count);

/**
 * ltt_lib_trigger_descs() - the internal form of ltt_ctl_list_triggers()'s
 * @n triggers @v: they follow the array, in the same block (NULL when
 * @v is: no trigger)
 */
const struct ltt_trigger_desc *ltt_lib_trigger_descs(const struct ltt_trigger_info *v, size_t n);

#endif /* LTT_LIB_CTL_INTERNAL_H */
