/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * journal.h - the session directories a relay writes, kept in a file of
 * its state directory (relayd-writing.PID, held by an exclusive flock()
 * while the relay lives; the run directory unless $LTT_STATEDIR names
 * one on disk, which a reboot does not empty), so that the next relay
 * started with it cuts what a death left torn in them before it serves:
 * a packet's data written and its index entry not, a torn index entry, a
 * torn metadata packet (ltt_trace_repair(), as the session daemon does
 * for its consumers' traces).  doc/relayd.md, "A relay's death: the
 * next relay repairs".
 */
#ifndef LTT_RELAYD_JOURNAL_H
#define LTT_RELAYD_JOURNAL_H

#include <stdint.h>

struct ltt_relay_journal;

/* What ltt_relay_journal_recover() did. */
struct ltt_relay_recovered {
	unsigned int journals;		/* dead relays' journals read (and removed) */
	unsigned int sessions;		/* session directories looked at */
	unsigned int cut;		/* files cut back */
	uint64_t bytes;			/* bytes cut */
	unsigned int busy;		/* trace directories a live writer holds: left */
	unsigned int errors;		/* files or directories not readable or not cut */
};

/**
 * ltt_relay_journal_recover() - repair the session directories of every
 * dead relay's journal in @statedir, then remove those journals; a live
 * relay's (its flock held) is left to it.  Each cut is logged.  At
 * start, before serving.  @ret: what was done.  Returns 0, or -errno
 * when @statedir can't be read.
 */
int ltt_relay_journal_recover(const char *statedir, struct ltt_relay_recovered *ret);

/**
 * ltt_relay_journal_open() - this relay's journal in @statedir, empty, its
 * flock held: into *@ret.  Returns 0 or -errno.
 */
int ltt_relay_journal_open(const char *statedir, struct ltt_relay_journal **ret);

/**
 * ltt_relay_journal_add() - @dir (absolute) is a session directory this
 * relay writes from now on.  Any thread; its lock is a leaf (taken under
 * the model's, which ltt_relay_journal_remove() is called with).
 * Returns 0, or -errno (logged): @dir is not in the journal, and would
 * not be repaired after a death.
 */
int ltt_relay_journal_add(struct ltt_relay_journal *j, const char *dir);

/**
 * ltt_relay_journal_remove() - @dir is written whole: out of the
 * journal.  Any thread, the model's lock held or not (a session is freed
 * under it): the journal's lock is a leaf, held for one rewrite of a
 * small file.
 */
void ltt_relay_journal_remove(struct ltt_relay_journal *j, const char *dir);

/**
 * ltt_relay_journal_close() - a clean exit: the journal removed and
 * freed.  NULL is accepted.
 */
void ltt_relay_journal_close(struct ltt_relay_journal *j);

#endif /* LTT_RELAYD_JOURNAL_H */
