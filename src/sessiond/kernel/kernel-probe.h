/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel-probe.h - probe rules of the kernel domain (enable-event
 * --userspace-probe, --probe, --function): checked when the rule is
 * added, placed in the tracer for each session that records them, and
 * removed with the session (doc/kernel-tracefs.md, "Probes").
 * Session lock held for all but ltt_kernel_probe_check().
 */
#ifndef LTT_SESSIOND_KERNEL_PROBE_H
#define LTT_SESSIOND_KERNEL_PROBE_H

#include "common/probe/probe-loc.h"
#include "sessiond/kernel/kernel-internal.h"

/* One event of a placed probe, as ltt_kernel_probe_events() gives it. */
struct ltt_kernel_probe_event {
	const char *event;	/* the tracer's name (EVENT_DESC, EVENT_ENABLE) */
	const char *display;	/* in the trace: the rule's name (FUNCTION: NAME_entry, NAME_exit) */
	const char *match;	/* what rules match: the rule's name */
	int type;		/* enum ltt_event_type */
};

/* Whose rights the file of a user-space probe is read with. */
struct ltt_probe_owner {
	uint64_t session;	/* an admitted session's id (ltt_priv_open_probe()); 0: a trigger's */
	int client_fd;		/* a trigger's: the connection of the client adding it, -1 */
	uid_t uid;
	gid_t gid;
};

/**
 * ltt_probe_owner_of_trigger() - the owner of a trigger's probe: @uid,
 * with its group of the user database (@uid when it has no entry), the
 * client adding it on @client_fd (borrowed; -1: none), whose rights a
 * daemon that gave root's up opens the file with (ltt_priv_open_client_probe())
 */
void ltt_probe_owner_of_trigger(uid_t uid, int client_fd, struct ltt_probe_owner *ret);

/**
 * ltt_kernel_probe_check() - may probe rule @attr be added?  The tracer
 * places its kind (ltt_kabi_backend.lacks), and its file, function or SDT
 * probe is there.  Reads the file with this process's rights, not at all
 * once it gave root's rights up (ltt_kernel_probe_check_file() does, as
 * the owner).  Returns LTT_ERR_OK,
 * LTT_ERR_PROBE_TRACER, LTT_ERR_PROBE_LOCATION, LTT_ERR_PROBE_NOT_FOUND
 * or LTT_ERR_NOMEM; the reason is logged.
 */
enum ltt_error_code ltt_kernel_probe_check(struct ltt_kernel *k, const struct ltt_rule_conf *attr);

/**
 * ltt_kernel_probe_check_file() - is user-space probe rule @attr's
 * function or SDT probe in its file, read with the rights of @session's
 * owner (once the daemon gave root's rights up, opened by the privileged
 * part for that admitted session: ltt_priv_open_probe())?  What
 * ltt_kernel_probe_check() does not read in a daemon that gave root's
 * rights up.  LTT_ERR_OK for any other rule; else as
 * ltt_kernel_probe_check().  No lock needed: @session's id, uid and gid.
 */
enum ltt_error_code ltt_kernel_probe_check_file(const struct ltt_rule_conf *attr,
						const struct ltt_session *session);

/**
 * ltt_kernel_probe_code() - the ltt error code of probe placing's -errno
 * @err (ltt_kernel_probe_place(), the checks'): OK, NOMEM,
 * PROBE_LOCATION, PROBE_TRACER, TRIGGER_PROBE_FILE, else PROBE_NOT_FOUND
 */
enum ltt_error_code ltt_kernel_probe_code(int err);

/**
 * ltt_kernel_probe_check_tracefs() - may a trigger's probe rule @attr be
 * placed by the tracefs tracer of @version (kernel-notify.c's, whichever
 * backend records the sessions)?  TRIGGER_KPROBE_EVENTS or
 * TRIGGER_UPROBE_EVENTS where its kprobe_events or uprobe_events is
 * missing (said in the log), a kprobe's symbol checked in
 * /proc/kallsyms; a uprobe's file is read when placed (PROBE_NOT_FOUND).
 */
enum ltt_error_code ltt_kernel_probe_check_tracefs(const struct ltt_kabi_version *version,
						   const struct ltt_rule_conf *attr);

/**
 * ltt_kernel_probe_place() - place probe rule @attr in tracer @kabi, for
 * its session @session, its file (a uprobe's) read with @owner's rights:
 * the one way a session's probes
 * (ltt_kernel_probe_events()) and a trigger's (kernel-notify.c) are
 * placed.  Sets *@ret (ltt_kabi_release() removes it), the tracer's name
 * of its event in @event and of its return event in @event_return ("" but
 * for a FUNCTION rule).  Returns 0 or -errno (why is logged).
 */
int ltt_kernel_probe_place(struct ltt_kabi *kabi, ltt_khandle session,
			   const struct ltt_rule_conf *attr, const struct ltt_probe_owner *owner,
			   ltt_khandle *ret, char event[LTT_KABI_NAME_MAX],
			   char event_return[LTT_KABI_NAME_MAX]);

/**
 * ltt_kernel_probe_events() - call @fn for each event of @rule's probe
 * in @ks (one; two for FUNCTION), placing the probe in the tracer first
 * if @ks has none for the rule's type, name and location
 *
 * Returns 0, @fn's first non-zero return, or the tracer's -errno
 * (ltt_kabi_probe_create()).
 */
int ltt_kernel_probe_events(struct ltt_kernel *k, struct kernel_session *ks,
			    const struct ltt_event_rule *rule,
			    int (*fn)(void *arg, const struct ltt_kernel_probe_event *e), void *arg);

/**
 * ltt_kernel_probes_release() - remove @ks's probes from the tracer
 * (after its channels, before its session)
 */
void ltt_kernel_probes_release(struct ltt_kernel *k, struct kernel_session *ks);

#endif /* LTT_SESSIOND_KERNEL_PROBE_H */
