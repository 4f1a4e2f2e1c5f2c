// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace-names.c - the tag in the names of a daemon's tracefs instances
 * and probe groups (ftrace-names.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "common/ftrace/ftrace-names.h"

/* The inode of the initial PID namespace (Linux's PROC_PID_INIT_INO). */
#define PIDNS_INIT_INO 0xEFFFFFFCULL

uint64_t ltt_ftrace_pidns(void)
{
	struct stat st;

	if (stat("/proc/self/ns/pid", &st))
		return LTT_FTRACE_PIDNS_UNKNOWN;
	return st.st_ino == PIDNS_INIT_INO ? 0 : (uint64_t)st.st_ino;
}

void ltt_ftrace_tag(char *buf, size_t size, pid_t pid, uint64_t ns)
{
	if (ns)
		snprintf(buf, size, "%d_ns%" PRIu64, (int)pid, ns);
	else
		snprintf(buf, size, "%d", (int)pid);
}

/* Digits at @s as a number no larger than @max: their count, 0 if none or too large. */
static size_t number(const char *s, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;
	size_t n = 0;

	for (; s[n] >= '0' && s[n] <= '9'; n++) {
		if (v > (max - (uint64_t)(s[n] - '0')) / 10)
			return 0;
		v = v * 10 + (uint64_t)(s[n] - '0');
	}
	*ret = v;
	return n;
}

size_t ltt_ftrace_tag_parse(const char *s, pid_t *ret_pid, uint64_t *ret_ns)
{
	uint64_t pid, ns = 0;
	size_t n = number(s, INT32_MAX, &pid), m;

	if (!n || !pid || s[0] == '0')
		return 0;
	if (s[n] == '_' && s[n + 1] == 'n' && s[n + 2] == 's') {
		m = number(s + n + 3, UINT64_MAX - 1, &ns);
		if (!m || !ns || s[n + 3] == '0' || ns == PIDNS_INIT_INO)
			return 0;
		n += 3 + m;
	}
	*ret_pid = (pid_t)pid;
	*ret_ns = ns;
	return n;
}

bool ltt_ftrace_tag_stale(pid_t pid, uint64_t ns, pid_t own_pid, uint64_t own_ns)
{
	if (own_ns == LTT_FTRACE_PIDNS_UNKNOWN || ns != own_ns)
		return false;
	return pid == own_pid || (kill(pid, 0) && errno == ESRCH);
}
