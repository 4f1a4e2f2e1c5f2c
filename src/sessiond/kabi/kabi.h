/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kabi.h - the session daemon's only access to the kernel tracer: one
 * thread that owns every kernel object and runs requests from a table of
 * allowed operations (those of src/abi/ltt-abi.h), through a backend
 * (kabi-backend.h): the module's ioctls, or the files of tracefs on a
 * kernel that can't load the module.  The thread runs an event loop
 * (common/base/evloop.h) to which each request is posted.
 *
 * Its files (each one's functions declared in its own header, or in this
 * one under its name):
 *   kabi.[ch]      the kernel thread: the only code that acts on the kernel tracer
 *   kabi-backend.h what a kernel tracer backend gives that thread
 *   kabi-ops.c     the table of allowed operations, which the thread,
 *                  the backends and the privileged part's ends read
 *   kabi-module.c  the module backend: the tracer's ioctls
 *   kabi-tracefs.[ch] the tracefs backend: the kernel's own tracing buffers
 *   kabi-tracefs-catalog.c its tracer state: the mount, the event catalog, layouts
 *   kabi-tracefs-inst.c its sessions, channels and streams in ftrace instances
 *   kabi-tracefs-track.c its process trackers (the pid filters of instances)
 *   kabi-tracefs-statedump.c its state dump, recorded through trace_marker_raw
 *   kabi-tracefs-probe.c its probes placed from outside (uprobe_events, kprobe_events)
 *   kabi-tracefs-eprobe.c its event probes: system calls' strings (dynamic_events)
 *   kabi-tracefs-bpf.c its BPF system call source: those strings where event probes are refused
 *   kabi-tracefs-map.c its kernel map channels: counters kept by histogram triggers
 *   kabi-remote.[ch] the backend's open, run and release sent to the root
 *                  daemon's privileged part (priv/priv.h), generic over
 *                  the operation table
 *   kabi-serve.c   their privileged end: the backends run there
 *
 * The threads that parse untrusted input (clients, programs) never issue
 * an ioctl: they call the typed functions below, which hand a request to
 * the kernel thread and wait for its answer.  Objects are named by
 * handles; the thread checks each request against its table (which kind
 * of object accepts which ioctl, the argument's size, what kind of object
 * it returns) before the ioctl, so a confused caller cannot aim an ioctl
 * at the wrong fd.
 *
 *   tracer (/proc/ltt, or a tracefs mount, opened here)
 *    └─ session ─► channel ─► stream      (handles, released explicitly)
 *
 * Every function is thread-safe (calls are serialized) and returns 0 or a
 * negative errno: the tracer's own answer (see src/abi/ltt-abi.h), -EINVAL
 * for a handle of the wrong kind or already released, -ENOMEM.
 */
#ifndef LTT_SESSIOND_KABI_H
#define LTT_SESSIOND_KABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/ltt-abi.h"
#include "sessiond/kabi/kabi-backend.h"

struct ltt_kabi;

/* A kernel object; 0 is never a valid handle. */
typedef uint32_t ltt_khandle;

/**
 * ltt_kabi_open() - open the tracer and start the kernel thread
 * @backend: how (&ltt_kabi_module, ...); borrowed for the kabi's life
 * @path: NULL for the backend's default place (/proc/ltt for the module)
 * @ret_kabi: to release with ltt_kabi_close()
 * @ret_version: the tracer's version
 *
 * Returns 0, -ENOENT (no tracer there: the module is not loaded),
 * -EACCES/-EPERM, -EPROTO (the tracer's ABI major differs from ours: the
 * version is still set so that the caller can say which), -ENOMEM or
 * another -errno.
 */
int ltt_kabi_open(const struct ltt_kabi_backend *backend, const char *path,
		  struct ltt_kabi **ret_kabi, struct ltt_kabi_version *ret_version);

/**
 * ltt_kabi_close() - release every object, close the tracer, join the
 * thread; accepts NULL
 *
 * Requests already posted run first; no call may start once it is called.
 */
void ltt_kabi_close(struct ltt_kabi *kabi);

/**
 * ltt_kabi_run_points() - have the kernel thread run LTTng's kernel
 * thread's test point (sessiond_thread_manage_kernel), when LTTng's test
 * points are on (common/base/testpoint.h)
 *
 * Once, after the daemon's start has made its own calls: stuck there,
 * later calls wait until it returns, and the thread's health slot is in
 * bad health past the delta; failed, the slot is in bad health for good
 * and every later call returns -ECANCELED.  Returns at once.
 */
void ltt_kabi_run_points(struct ltt_kabi *kabi);

/**
 * ltt_kabi_catalog() - the tracer's tracepoint events, when they changed
 * @known: the catalog generation the caller holds, or NULL: none
 * @ret_gen: the generation now (ltt_kabi_version.catalog, kernel ABI
 *           1.11: another value than before means LIST's events changed;
 *           0 from older tracers and tracefs)
 * @ret_entries: @ret_count entries (ltt_kabi_list()'s) when @ret_gen is
 *               not *@known, else NULL and 0
 */
int ltt_kabi_catalog(struct ltt_kabi *kabi, const uint32_t *known, uint32_t *ret_gen,
		     struct ltt_kabi_list_entry **ret_entries, size_t *ret_count);

/**
 * ltt_kabi_list() - the tracer's tracepoint events or system calls
 * @ret_entries: @ret_count entries, malloc'd (free() them), names
 *               NUL-terminated
 */
int ltt_kabi_list(struct ltt_kabi *kabi, enum ltt_kabi_list_kind kind,
		  struct ltt_kabi_list_entry **ret_entries, size_t *ret_count);

/**
 * ltt_kabi_event_desc() - the fields of the event named @name
 * @ret_desc: filled on success; its field names are NUL-terminated and
 *            nr_fields is at most LTT_KABI_MAX_FIELDS
 */
int ltt_kabi_event_desc(struct ltt_kabi *kabi, const char *name,
			struct ltt_kabi_event_desc *ret_desc);

/**
 * ltt_kabi_session_create() - a new kernel session
 */
int ltt_kabi_session_create(struct ltt_kabi *kabi, ltt_khandle *ret_session);

/**
 * ltt_kabi_channel_create() - a new channel of @session
 * @attr: borrowed; reserved fields must be zero
 */
int ltt_kabi_channel_create(struct ltt_kabi *kabi, ltt_khandle session,
			    const struct ltt_kabi_channel *attr, ltt_khandle *ret_channel);

/**
 * ltt_kabi_stream_create() - the stream of @cpu in @channel
 * @flags: 0, or LTT_KABI_STREAM_IF_ALLOCATED where the backend does not
 *         lack LTT_KABI_FEAT_HOTPLUG: -EAGAIN for a CPU not online since
 *         the channel was made, rather than its buffer made now
 */
int ltt_kabi_stream_create(struct ltt_kabi *kabi, ltt_khandle channel, uint32_t cpu,
			   uint32_t flags, ltt_khandle *ret_stream);

/**
 * ltt_kabi_bpf_ring() - BPF_RING on @channel (kabi-backend.h): an object
 * whose fd a consumer reads (ltt_kabi_dup()), CPU @cpu's BPF ring (@which
 * LTT_KABI_BPF_RING) or the channel's lost counts (LTT_KABI_BPF_LOST);
 * released by the caller.  Returns 0 or -errno (-EOPNOTSUPP: no BPF).
 */
int ltt_kabi_bpf_ring(struct ltt_kabi *kabi, ltt_khandle channel, uint32_t cpu, uint32_t which,
		      ltt_khandle *ret_obj);

/**
 * ltt_kabi_stream_usage() - the bytes @stream holds that its reader has
 * not read yet (channel-buffer-usage triggers), and the events it could
 * not keep so far (kernel-notify.c); answers at once
 *
 * Returns 0, or -ENOTTY (a module older than ABI 1.2, without snapshots).
 */
int ltt_kabi_stream_usage(struct ltt_kabi *kabi, ltt_khandle stream,
			  struct ltt_kabi_stream_usage *ret);

/**
 * ltt_kabi_channel_mem() - the bytes of memory the module holds for the
 * buffer of CPU @cpu of @channel, as it allocated them (kernel ABI 1.9,
 * CHANNEL_MEM); answers at once
 *
 * Returns 0, -ENOTTY (the tracefs backend, or a module older than 1.9),
 * -ENOENT (no such CPU).
 */
int ltt_kabi_channel_mem(struct ltt_kabi *kabi, ltt_khandle channel, uint32_t cpu,
			 uint64_t *ret_bytes);

/**
 * ltt_kabi_channel_wake_early() - readers of @channel's streams woken by
 * each stream's first record (kabi-backend.h, WAKE_EARLY)
 *
 * Returns 0, or -ENOTTY (the module).
 */
int ltt_kabi_channel_wake_early(struct ltt_kabi *kabi, ltt_khandle channel);

/**
 * ltt_kabi_dup() - a duplicate of a stream's fd, or of a channel's when
 * the backend hands channels to consumers (ltt_kabi_backend.pages), for
 * the consumer (the caller owns and closes it)
 *
 * Returns 0, -EINVAL for another object, or fcntl's errno.
 */
int ltt_kabi_dup(struct ltt_kabi *kabi, ltt_khandle handle, int *ret_fd);

/**
 * ltt_kabi_session_start() - start recording
 */
int ltt_kabi_session_start(struct ltt_kabi *kabi, ltt_khandle session);

/**
 * ltt_kabi_session_stop() - stop recording: no event is written after it
 * returns
 */
int ltt_kabi_session_stop(struct ltt_kabi *kabi, ltt_khandle session);

/**
 * ltt_kabi_session_statedump() - record the state dump again (kernel ABI
 * 1.6, LTT_KABI_STATEDUMP) into the session's channels that enabled it
 * Returns 0, -EBUSY (the session is stopped), -ENOTTY (a tracer older
 * than 1.6).
 */
int ltt_kabi_session_statedump(struct ltt_kabi *kabi, ltt_khandle session);

/**
 * ltt_kabi_event_enable() - record event @name as id @id in @channel
 * Returns 0, -ENOENT (no such event), -EEXIST (already enabled), ...
 */
int ltt_kabi_event_enable(struct ltt_kabi *kabi, ltt_khandle channel, const char *name,
			  uint32_t id);

/**
 * ltt_kabi_event_disable() - stop recording event @name in @channel
 */
int ltt_kabi_event_disable(struct ltt_kabi *kabi, ltt_khandle channel, const char *name);

/**
 * ltt_kabi_tracker_set() - replace tracker @type of @session (kernel ABI
 * 1.5, LTT_KABI_TRACKER_SET): @policy, and for LTT_KABI_TRACKER_POLICY_SET the
 * @nr ids at @ids (borrowed for the call; NULL and 0 otherwise)
 * Returns 0, -EINVAL (see ltt-abi.h), -ENOTTY (a tracer older than 1.5).
 */
int ltt_kabi_tracker_set(struct ltt_kabi *kabi, ltt_khandle session, uint32_t type,
			 uint32_t policy, const uint32_t *ids, uint32_t nr);

/**
 * ltt_kabi_tracker_get() - tracker @type of @session as the tracer has it
 * @ids: room for *@nr ids; on return *@nr is the number in the set (more
 *       than the room: only the room was filled)
 */
int ltt_kabi_tracker_get(struct ltt_kabi *kabi, ltt_khandle session, uint32_t type,
			 uint32_t *ret_policy, uint32_t *ids, uint32_t *nr);

/**
 * ltt_kabi_event_filter() - EVENT_ENABLE_FILTERED (@enable: record event
 * @name as id @id in @channel with these programs set at once) or
 * EVENT_SET_FILTER (replace the programs of the event enabled there)
 * @code: @nr programs (kernel ABI 1.3), borrowed; @nr 0: no filter
 * @len: their bytes
 *
 * Returns 0, -EINVAL (a program the tracer refused), -ENOTTY (the module
 * predates kernel ABI 1.3), or as ltt_kabi_event_enable().
 */
int ltt_kabi_event_filter(struct ltt_kabi *kabi, ltt_khandle channel, const char *name,
			  uint32_t id, bool enable, uint8_t *const *code, const uint32_t *len,
			  uint32_t nr);

/**
 * ltt_kabi_context_add() - add context field @type (enum
 * ltt_kabi_context_type) to every event of @channel (kernel ABI 1.4)
 * @ret_size: the bytes the tracer writes for it in each event
 *
 * Returns 0, -EINVAL, -EOPNOTSUPP (this kernel lacks it), -EEXIST,
 * -EBUSY (the session was started), -ENOTTY (a tracer older than 1.4)...
 */
int ltt_kabi_context_add(struct ltt_kabi *kabi, ltt_khandle channel, uint32_t type,
			 uint32_t *ret_size);

/**
 * ltt_kabi_probe_create() - place a probe for @session (kernel ABI 1.7,
 * LTT_KABI_PROBE): a kernel or user-space probe where @probe says
 * @probe: borrowed; on success its event (and event_return) names are
 *         set, NUL-terminated: enable them in the session's channels
 *         under those names
 * @ret_probe: release it (ltt_kabi_release()) to remove the probe; a
 *             session's probes are released before the session
 *
 * Returns 0, -EINVAL, -ENOENT (no such symbol, file or offset),
 * -EOPNOTSUPP (the tracer can't place it: ltt_kabi_backend.lacks says
 * why), -ENOTTY (a module older than 1.7), -ENOSPC, -ENOMEM.
 */
int ltt_kabi_probe_create(struct ltt_kabi *kabi, ltt_khandle session,
			  struct ltt_kabi_probe *probe, ltt_khandle *ret_probe);

/**
 * ltt_kabi_map_create() - counters the kernel keeps by itself (kernel
 * ABI 1.8, MAP: kabi-backend.h), paused; released (ltt_kabi_release())
 * to remove them
 *
 * Returns 0, -ENOTTY (the module: no such operation), -EOPNOTSUPP (a
 * kernel without histogram triggers), -ENOMEM or tracefs' -errno.
 */
int ltt_kabi_map_create(struct ltt_kabi *kabi, ltt_khandle *ret_map);

/**
 * ltt_kabi_map_event() - @map counts event @name's occurrences that one
 * of @nr programs @code (of @len bytes; @nr 0: all) accepts under
 * counter @counter (MAP_EVENT), or stops counting them (@remove:
 * MAP_UNEVENT, no programs)
 *
 * Returns 0, -EEXIST (counted already), -ENOENT (no such event, or not
 * counted when @remove), -EOPNOTSUPP (programs the kernel's filter can't
 * say exactly), -EINVAL (the kernel refused them), -ENOMEM.
 */
int ltt_kabi_map_event(struct ltt_kabi *kabi, ltt_khandle map, const char *name,
		       uint32_t counter, bool remove, uint8_t *const *code, const uint32_t *len,
		       uint32_t nr);

/**
 * ltt_kabi_map_read() - the counts of @map's counters 0 to @nr - 1 into
 * @ret_values (a counter no event counts under: 0)
 */
int ltt_kabi_map_read(struct ltt_kabi *kabi, ltt_khandle map, uint64_t *ret_values, uint32_t nr);

/**
 * ltt_kabi_map_ctl() - pause, continue or zero (enum ltt_kabi_map_cmd
 * @cmd) every counter of @map
 */
int ltt_kabi_map_ctl(struct ltt_kabi *kabi, ltt_khandle map, uint32_t cmd);

/**
 * ltt_kabi_release() - close an object's fd and forget its handle;
 * accepts 0.  Releasing a channel finalizes its streams (the consumer
 * reads them to the end); releasing a session stops what is left of it.
 */
void ltt_kabi_release(struct ltt_kabi *kabi, ltt_khandle handle);

#endif /* LTT_SESSIOND_KABI_H */
