/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kabi-tracefs.h - inside the tracefs backend, its files from the top
 * layer down (each calls only those listed after it):
 * kabi-tracefs.c: its table; kabi-tracefs-probe.c: probes placed from
 * outside; kabi-tracefs-map.c: kernel map channels (histogram triggers); kabi-tracefs-inst.c: sessions, channels as ftrace instances,
 * streams, events; kabi-tracefs-eprobe.c: event probes, the strings of
 * system calls; kabi-tracefs-bpf.c: the BPF system call source, those
 * strings where event probes are refused; kabi-tracefs-catalog.c: the
 * tracer's state, its catalog, event layouts (the BPF records' too), the
 * system call formats' string arguments and the dynamic events files; kabi-tracefs-statedump.c:
 * the state dump; kabi-tracefs-track.c: the pid tracker.
 * Kernel thread only.
 *
 * The tracer's state is shared by every object made from it and freed
 * with the last of them (kabi.c releases objects in no set order).
 */
#ifndef LTT_SESSIOND_KABI_TRACEFS_H
#define LTT_SESSIOND_KABI_TRACEFS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/types.h>

#include "common/bpf/bpf-abi.h"
#include "common/ftrace/ftrace-format.h"
#include "common/base/paths.h"	/* ltt_write_control(): tracefs' control files */
#include "sessiond/kabi/kabi-backend.h"

/* Instances are named ltt-PID-N: a daemon's own, found again after it died. */
#define TRACEFS_INSTANCE_PREFIX "ltt-"
#define TRACEFS_INSTANCE_MAX 48

/* Dynamic events (kabi-tracefs-probe.c, kabi-tracefs-eprobe.c): group ltt_PID. */
#define TRACEFS_DYNAMIC_EVENTS "dynamic_events"	/* every kind; event probes (e:) only there */
#define TRACEFS_PROBE_GROUP "ltt_"
/* "p:" group '/' event, place (path:0xOFF(0xREF)), then each argument */
#define TRACEFS_PROBE_DEF_MAX (LTT_KABI_PATH_MAX + 128 + LTT_KABI_PROBE_MAX_ARGS * 64)

/* One event of the catalog: its LTTng name and where tracefs has it. */
struct tracefs_event {
	char name[LTT_KABI_NAME_MAX];		/* "sched_switch", "syscall_entry_read" */
	char system[LTT_FTRACE_NAME_MAX];	/* "sched", "syscalls" */
	char event[LTT_FTRACE_NAME_MAX];	/* "sched_switch", "sys_enter_read" */
	bool probe;				/* a probe's (kabi-tracefs-probe.c): not listed */
	/*
	 * A system call's entry recorded through an event probe of ours
	 * (system and event then the probe's: its path and name arguments
	 * read as strings), or tried and left as it is.
	 */
	bool eprobe, eprobe_tried;
	char *eprobe_args;	/* eprobe: its definition's arguments (each channel's copy) */
	/*
	 * A system call's entry recorded by the BPF program instead
	 * (kabi-tracefs-bpf.c; system and event stay ftrace's), or tried
	 * and left as it is: its call's number, arguments, strings (bit i),
	 * the structure it reads (LTT_BPF_PAYLOAD_*, common/bpf/bpf-abi.h;
	 * ACCEPT: the event is the call's exit, sys_exit_X).
	 */
	bool bpf, bpf_tried;
	uint16_t bpf_nr;
	uint8_t bpf_nargs, bpf_mask, bpf_payload;
};

/* A channel's copy of a system call's event probe (kabi-tracefs-probe.c). */
struct tf_eprobe_copy {
	char name[LTT_KABI_NAME_MAX];		/* the catalog's: syscall_entry_X */
	char event[LTT_FTRACE_NAME_MAX];	/* its event in the probes' group */
};

struct tracefs {
	unsigned int refs;		/* the tracer object and each object made from it */
	int root_fd;			/* O_PATH, the mount's root */
	char root[PATH_MAX];
	struct ltt_ftrace_page_layout page;	/* events/header_page */
	struct tracefs_event *events;	/* sorted by name */
	size_t nr_events;
	unsigned int next_instance;	/* N of the next ltt-PID-N */
	unsigned int next_probe;	/* N of the next probe ltt_PID/pN */
	bool eprobes;			/* the kernel takes event probes (e:) */
	bool bpf;			/* else the BPF program reads system call strings */
	bool bpf_chosen;		/* bpf where event probes would do: LTT_KERNEL_BPF=on */
	char (*doomed)[TRACEFS_INSTANCE_MAX];	/* instances to remove once unused */
	size_t nr_doomed;
};

struct tf_chan;

/* The pid tracker of a session (kabi-tracefs-track.c). */
struct tf_pids {
	uint32_t policy;		/* enum ltt_kabi_tracker_policy */
	uint32_t *ids;			/* SET: nr ids, increasing */
	uint32_t nr;
};

/* A session: its channels (ftrace instances) and its pid tracker. */
struct tf_session {
	struct tracefs *t;
	struct tf_chan *chans;		/* its channels, newest first */
	struct tf_pids pids;
	bool started;
};

/* A channel: an ftrace instance. */
struct tf_chan {
	struct tracefs *t;
	struct tf_session *s;		/* NULL once the session was released */
	struct tf_chan *next;
	int dir_fd;			/* the instance's directory (O_PATH) */
	char name[TRACEFS_INSTANCE_MAX];
	struct ltt_ftrace_map_shm *map;	/* writable; the object's fd is its memfd */
	unsigned int sd_events;		/* the state dump events it enabled (bit per event) */
	bool tasks;			/* process contexts: the task table's events are on */
	/*
	 * Its copies of event probes: the kernel records an event probe
	 * enabled in two instances in the first only (6.1), so each
	 * channel enables copies of its own.
	 */
	struct tf_eprobe_copy *copies;
	size_t nr_copies;
	/* The BPF program recording its system calls' strings (t->bpf), or NULL. */
	struct ltt_bpf_sc *bpf;
	unsigned int bpf_calls;			/* entries and exits enabled there */
};

/*
 * ---- the state dump (kabi-tracefs-statedump.c) ----
 * The module's state dump events, written by the session daemon into an
 * instance's trace_marker_raw: records of ftrace:raw_data whose id (the
 * first 4 bytes written) says which event (common/ftrace/ftrace-map.h's raw ids).
 */
#define TRACEFS_RAW_SYSTEM "ftrace"
#define TRACEFS_RAW_EVENT "raw_data"
#define TRACEFS_SD_NR 3		/* start, process_state, end */
#define TRACEFS_SD_RAW_ID_FIRST 0x4c545301u	/* "\1STL": start's; then process_state's, end's */

/* A channel that enabled state dump events. */
struct tracefs_sd_target {
	int dir_fd;		/* its instance's directory (borrowed) */
	unsigned int events;	/* bit i: the event of raw id FIRST + i enabled */
	const char *name;	/* the instance's, for messages */
};

/* kabi-tracefs-inst.c: its sessions, channels and streams in ftrace instances */

/* A reference to @t for a new object. */
struct tracefs *tracefs_get(struct tracefs *t);

/* Drop a reference; the last removes what instances it can and frees @t. */
void tracefs_put(struct tracefs *t);

/* Remove instance @name now, or once it is unused (a reader holds it). */
void tracefs_doom(struct tracefs *t, const char *name);

/* Remove the instances left to remove; those still in use stay listed. */
void tracefs_reap(struct tracefs *t);

/* Remove the instances of daemons that are gone (and this one's, from before). */
void tracefs_reap_stale(struct tracefs *t);

/*
 * The programs of @ef (borrowed from it) into @code and @len, each
 * validated against @layout's fields.  Returns 0 or -EINVAL.
 */
int tracefs_programs_get(const struct ltt_kabi_event_filter *ef,
			 const struct ltt_ftrace_event *layout, const uint8_t **code, uint32_t *len);

/*
 * The operations on sessions, channels and streams (kabi-tracefs-inst.c),
 * as ltt_kabi_backend.run; -ENOTTY for another.
 */
int tracefs_inst_run(enum ltt_kabi_op op, struct ltt_kabi_obj *obj, void *arg,
		     struct ltt_kabi_obj *ret_new);

/* Release a session, channel or stream. */
void tracefs_inst_release(struct ltt_kabi_obj *obj);

/* kabi-tracefs-probe.c: the probes placed from outside (dynamic events) */

/* The probes @t can place: ltt_kabi_version.probes (uprobe_events, kprobe_events). */
uint32_t tracefs_probe_offered(const struct tracefs *t);

/*
 * PROBE: place the probe @arg says and add its event to the catalog
 * (arg->event set); @ret_new is the probe object.  Returns 0, -EINVAL
 * (a bad argument, or the kernel refused the definition: logged),
 * -EOPNOTSUPP (tracefs has no such probes), -E2BIG, -ENOMEM.
 */
int tracefs_probe_create(struct tracefs *t, struct ltt_kabi_probe *arg,
			 struct ltt_kabi_obj *ret_new);

/* Release a probe object: disabled in every instance, removed. */
void tracefs_probe_release(struct ltt_kabi_obj *obj);

/* Remove the probes of daemons that are gone (and this one's, from before). */
void tracefs_probe_reap_stale(const struct tracefs *t);

/*
 * ltt_kabi_backend.lacks for the probe features (0 for the others):
 * -EOPNOTSUPP with a sentence naming the kernel's missing file.
 */
int tracefs_probe_lacks(const struct ltt_kabi_version *version, enum ltt_kabi_feature feature,
			const char *what, char *why, size_t why_size);

/* kabi-tracefs-map.c: kernel map channels, counted by histogram triggers */

/* Has @t's kernel histogram triggers (an event's hist file)? ltt_kabi_version.maps */
bool tracefs_map_offered(const struct tracefs *t);

/*
 * MAP (on the tracer), MAP_EVENT, MAP_READ, MAP_CTL (on a map), as
 * ltt_kabi_backend.run (kabi-backend.h says what each returns).
 */
int tracefs_map_run(enum ltt_kabi_op op, struct ltt_kabi_obj *obj, void *arg,
		    struct ltt_kabi_obj *ret_new);

/* Release a map: its histogram triggers removed, its instance with them. */
void tracefs_map_release(struct ltt_kabi_obj *obj);

/* kabi-tracefs-eprobe.c: its event probes, the strings of system calls */

/* Does the kernel take event probes (dynamic_events' e:)?  Sets t->eprobes. */
void tracefs_eprobe_check(struct tracefs *t);

/*
 * System call entry event @ev, if its call has path or name arguments and
 * the kernel takes event probes: defined once as an event probe of ours
 * with the same fields, those read as strings from the process, and
 * recorded in its place (@ev's system and event become the probe's).
 * Anything else, or a refusal: @ev unchanged (logged).
 */
void tracefs_eprobe_strings(const struct tracefs *t, struct tracefs_event *ev);

/* The bases (hex pointers) of @ev's original fields onto @layout, its probe's. */
void tracefs_eprobe_bases(const struct tracefs *t, const struct tracefs_event *ev,
			  struct ltt_ftrace_event *layout);

/* Remove the event probes of tracefs_eprobe_strings() (the last put of @t). */
void tracefs_eprobes_remove(const struct tracefs *t);

/*
 * @ev as channel @c records it, into @ret_ev: @ev itself, or for a system
 * call with an event probe, @c's copy of the probe (defined on first
 * use when @define).  Returns 0, -ENOENT (no copy and not @define), or
 * the definition's -errno.
 */
int tracefs_eprobe_copy(struct tf_chan *c, const struct tracefs_event *ev, bool define,
			struct tracefs_event *ret_ev);

/* Disable and remove @c's copies (its release). */
void tracefs_eprobe_copies_remove(struct tf_chan *c);

/*
 * tracefs_layout() of @ev, and when @ev is an event probe, the bases
 * (hex pointers) of the system call's fields onto its probe's.
 */
int tracefs_eprobe_layout(const struct tracefs *t, const struct tracefs_event *ev,
			  struct ltt_ftrace_event *ret);

/*
 * The catalog's event called @name (*@ret_ev) and its layout (*@ret_layout,
 * allocated: the caller frees it).  Returns 0, -ENOENT (no such event),
 * -ENOMEM or tracefs_layout()'s error.
 */
int tracefs_event_layout(const struct tracefs *t, const char *name,
			 const struct tracefs_event **ret_ev, struct ltt_ftrace_event **ret_layout);

/* kabi-tracefs-bpf.c: the BPF system call source, where event probes are refused */

/* Can the BPF program read system call strings here (no event probes)?  Sets t->bpf. */
void tracefs_bpf_check(struct tracefs *t);

/*
 * System call entry event @ev, if its call has path or name arguments and
 * t->bpf: marked as recorded by the BPF program (its number, arguments,
 * strings).  Anything else: @ev unchanged.
 */
void tracefs_bpf_strings(const struct tracefs *t, struct tracefs_event *ev);

/* CHANNEL: the program loaded for @c (t->bpf), recording nothing yet.  0 or -errno. */
int tracefs_bpf_chan_open(struct tf_chan *c, const struct ltt_kabi_channel *attr);

/* Unload @c's program (accepts none). */
void tracefs_bpf_chan_close(struct tf_chan *c);

/* START, STOP: @c's program records while its session does.  0 or -errno. */
int tracefs_bpf_switch(struct tf_chan *c);

/*
 * Record (@on) @ev, a BPF event, in @c with id @id (its layout's), or not.
 * Returns 0, -EOPNOTSUPP (no program) or the map's -errno.
 */
int tracefs_bpf_enable(struct tf_chan *c, const struct tracefs_event *ev, uint32_t id, bool on);

/* The pid tracker @p given to @c's program (its instance's: kabi-tracefs-track.c).  0 or -errno. */
int tracefs_bpf_track(struct tf_chan *c, const struct tf_pids *p);

/* BPF_RING on @c: the fd of a ring or of the lost counts (kabi-backend.h). */
int tracefs_bpf_ring(struct tf_chan *c, const struct ltt_kabi_bpf_ring *arg,
		     struct ltt_kabi_obj *ret_new);

/* kabi-tracefs-catalog.c: the tracer's state: the mount, its event catalog, the layouts */

/*
 * The tracer's state of the tracefs found at @path (NULL: the system's,
 * else its usual place, mounted there): its catalog read, the page
 * layout known, one reference.  Returns 0 or -errno (-ENOENT: no tracefs
 * there, -ENOSYS: the kernel has none).
 */
int tracefs_catalog_open(const char *path, struct tracefs **ret_t);

/* The catalog's event called @name, or NULL. */
const struct tracefs_event *tracefs_find(const struct tracefs *t, const char *name);

/*
 * The layout of @ev (its format file) into @ret.  Returns 0, the parser's
 * error (-EINVAL, -ENOTSUP, -E2BIG, -ENAMETOOLONG) or the read's; the
 * reason is logged.
 */
int tracefs_layout(const struct tracefs *t, const struct tracefs_event *ev,
		   struct ltt_ftrace_event *ret);

/*
 * Back to the kernel's names, the fields of @layout (tracefs_layout()'s,
 * of @ev) that lttng-modules' names renamed: what the kernel's own filter
 * of the event calls them.
 */
void tracefs_kernel_names(const struct tracefs_event *ev, struct ltt_ftrace_event *layout);

/* Pointer arguments that are strings: an identifier after "const char * ", not buf, msg_ptr... (the module's table). */
bool tracefs_string_arg(const char *name);

/* Does format @text declare @field a string argument (const char *, tracefs_string_arg())? */
bool tracefs_string_field(const char *text, const char *field);

/*
 * The format of system call entry event @ev (syscalls/sys_enter_X): its
 * text, NUL-ended, and its layout, both allocated (the caller frees
 * them).  Returns 0, -ENOENT (not a system call's entry), -ENOMEM, or
 * the read's or the parse's error.
 */
int tracefs_entry_format(const struct tracefs *t, const struct tracefs_event *ev, char **ret_text,
			 struct ltt_ftrace_event **ret_orig);

/* The same of system call exit event @ev (syscalls/sys_exit_X). */
int tracefs_exit_format(const struct tracefs *t, const struct tracefs_event *ev, char **ret_text,
			struct ltt_ftrace_event **ret_orig);

/*
 * The layout of @ev's BPF records from its format file's @text (@len
 * bytes): the format's, the strings as __data_loc, the fields of the
 * structure it reads after the arguments; ltt_ftrace_format_parse()'s
 * return and @why.
 */
int tracefs_bpf_parse(const struct tracefs_event *ev, const char *text, size_t len,
		      struct ltt_ftrace_event *ret, const char **why);

/* At most LTT_FTRACE_MAX_TEXT bytes of @path under tracefs into @buf: bytes or -errno. */
ssize_t tracefs_read_text(const struct tracefs *t, const char *path, char *buf);

/**
 * ltt_kabi_tracefs_name_pid() - name the tracefs instances after @pid,
 * the daemon's, rather than this process's (the privileged part's:
 * priv/priv.h), before the backend is opened
 */
void ltt_kabi_tracefs_name_pid(pid_t pid);

/* The tag in the names of this daemon's instances and probe groups (common/ftrace/ftrace-names.h). */
const char *tracefs_name_tag(void);

/*
 * Is the tag at @s a gone daemon's of this daemon's namespace (or this
 * daemon's, from before)?  *@ret_len: the tag's length, 0 if @s has none.
 */
bool tracefs_name_stale(const char *s, size_t *ret_len);

/* Append one command to dynamic events file @file (never truncated: other tools' probes live there). */
int tracefs_append(const struct tracefs *t, const char *file, const char *text);

/*
 * Remove dynamic event GROUP/EVENT defined in @file, disabled first in
 * every instance (the kernel refuses to remove an enabled one).  Returns
 * 0 or -errno.
 */
int tracefs_dyn_remove(const struct tracefs *t, const char *file, const char *group,
		       const char *event);

/* kabi-tracefs-statedump.c: its state dump, recorded through trace_marker_raw */

/* The name of state dump event @i (< TRACEFS_SD_NR, raw id FIRST + i), as the module's. */
const char *tracefs_statedump_name(unsigned int i);

/* Can @t record the state dump (raw_data's format, instances' trace_marker_raw)? */
bool tracefs_statedump_offered(const struct tracefs *t);

/* @ev's raw id when it is a state dump event of the catalog, else 0. */
uint32_t tracefs_statedump_raw_id(const struct tracefs_event *ev);

/*
 * The layout of state dump event @raw_id from the text of raw_data's
 * format file (@len bytes, changed) into @ret.  Returns 0 or -EINVAL /
 * -ENOTSUP with @why set when the format is not the one expected.
 */
int tracefs_statedump_layout(uint32_t raw_id, char *text, size_t len,
			     struct ltt_ftrace_event *ret, const char **why);

/*
 * Record the state dump into each of @n channels: start, one
 * process_state per thread of /proc, end, each only where enabled.
 * Returns 0, or -errno when a channel's trace_marker_raw could not be
 * written at all (the others are written; the reason is logged).
 */
int tracefs_statedump_run(const struct tracefs_sd_target *targets, size_t n);

/* kabi-tracefs-track.c: its process trackers (the pid filters of instances) */

/*
 * TRACKER_SET on @s (kabi-tracefs-track.c): the pid tracker given to
 * every channel's instance (set_event_pid, options/event-fork); another
 * type at ALL changes nothing, at NONE or SET is -EOPNOTSUPP.  Returns 0,
 * -EINVAL (a bad argument, as the module says), -ENOMEM or a write's
 * -errno.
 */
int tracefs_track_set(struct tf_session *s, const struct ltt_kabi_tracker *arg);

/* TRACKER_GET on @s: the pid tracker as set; another type is ALL. */
int tracefs_track_get(const struct tf_session *s, struct ltt_kabi_tracker *arg);

/*
 * The pid tracker of @s given to @c, a new instance of it (before it
 * records).  Returns 0 or a write's -errno.
 */
int tracefs_track_chan(const struct tf_session *s, struct tf_chan *c);

/* Free @s's pid tracker. */
void tracefs_track_fini(struct tf_session *s);

/*
 * 0 when tracefs tracks tracker @type (enum ltt_kabi_tracker_type): the
 * pid tracker only; else -EOPNOTSUPP with a sentence in @why naming @what.
 */
int tracefs_tracker_lacks(uint32_t type, const char *what, char *why, size_t why_size);

#endif /* LTT_SESSIOND_KABI_TRACEFS_H */
