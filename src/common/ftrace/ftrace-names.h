/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftrace-names.h - the tag in the names a daemon gives what it makes in
 * tracefs (instances ltt-TAG-N, probe groups ltt_TAG): the daemon's pid,
 * and outside the initial PID namespace "_ns" and that namespace's inode.
 *
 * tracefs is one for the whole machine, pids are not: a daemon in a PID
 * namespace of its own (a container, LTTng's tests under unshare -p)
 * sees other namespaces' daemons as gone and would take their instances
 * for leftovers, and two such daemons may have the same pid.  So a name
 * says whose namespace it comes from, and a daemon judges only the
 * names of its own namespace (Linux 6.18 oopsed when one daemon removed
 * an instance another was setting up).
 */
#ifndef LTT_COMMON_FTRACE_NAMES_H
#define LTT_COMMON_FTRACE_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define LTT_FTRACE_TAG_MAX 40
/* ltt_ftrace_pidns(): not known (no /proc of this namespace): judge nothing */
#define LTT_FTRACE_PIDNS_UNKNOWN UINT64_MAX

/* This process's PID namespace: 0 for the initial one, else its inode. */
uint64_t ltt_ftrace_pidns(void);

/* The tag of @pid in namespace @ns (0: the initial one) into @buf. */
void ltt_ftrace_tag(char *buf, size_t size, pid_t pid, uint64_t ns);

/* The tag at the start of @s: its length (0: none), with *ret_pid and *ret_ns. */
size_t ltt_ftrace_tag_parse(const char *s, pid_t *ret_pid, uint64_t *ret_ns);

/*
 * Was the tag (@pid, @ns) a gone daemon's, as judged by the daemon of
 * (@own_pid, @own_ns)?  A tag of its own namespace: its own pid (a daemon
 * of before) or a pid no process has.  A tag of another namespace is
 * judged from the initial namespace only, which sees every process: gone
 * when no process of namespace @ns has @pid there (/proc's NSpid), as when
 * the namespace itself is gone (a container's daemon killed with it).
 * Where a process's namespace can't be read, nothing is judged gone.
 */
bool ltt_ftrace_tag_stale(pid_t pid, uint64_t ns, pid_t own_pid, uint64_t own_ns);

#endif
