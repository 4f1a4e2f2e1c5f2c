// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace-names.c - the tag in the names of a daemon's tracefs instances
 * and probe groups (ftrace-names.h).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/*
 * The number process @dir of /proc has in its own PID namespace (NSpid's
 * last), and how deep that namespace is (NSpid's count: 1 for the
 * initial one); 0 where it can't be read.
 */
static unsigned int ns_pid(const char *dir, pid_t *ret_pid)
{
	char path[300], line[256], *tok, *save = NULL;
	unsigned int depth = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/status", dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "NSpid:", strlen("NSpid:"))) {
			for (tok = strtok_r(line + strlen("NSpid:"), " \t\n", &save); tok;
			     tok = strtok_r(NULL, " \t\n", &save), depth++)
				*ret_pid = (pid_t)atoi(tok);
			break;
		}
	fclose(f);
	return depth;
}

/*
 * Has a process of namespace @ns (not the initial one) the number @pid
 * there?  A process of the initial namespace (one NSpid) is not looked
 * at further; true where another's namespace can't be read (another
 * user's, to a daemon without the right): nothing is judged then.
 */
static bool alive_in(pid_t pid, uint64_t ns)
{
	DIR *proc = opendir("/proc");
	bool alive = proc == NULL;
	struct dirent *d;
	char path[300];
	struct stat st;
	pid_t inner;

	while (proc && !alive && (d = readdir(proc))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9' || ns_pid(d->d_name, &inner) < 2)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/pid", d->d_name);
		if (stat(path, &st))
			alive = errno != ENOENT;	/* gone meanwhile: no matter */
		else
			alive = (uint64_t)st.st_ino == ns && inner == pid;
	}
	if (proc)
		closedir(proc);
	return alive;
}

bool ltt_ftrace_tag_stale(pid_t pid, uint64_t ns, pid_t own_pid, uint64_t own_ns)
{
	if (own_ns == LTT_FTRACE_PIDNS_UNKNOWN)
		return false;
	if (ns != own_ns)
		return own_ns == 0 && !alive_in(pid, ns);
	return pid == own_pid || (kill(pid, 0) && errno == ESRCH);
}
