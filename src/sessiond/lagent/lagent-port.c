// SPDX-License-Identifier: GPL-2.0-only
/*
 * lagent-port.c - LTTng's agent port: the loopback TCP socket the agents
 * connect to, and the port file they find its number in, where LTTng's
 * session daemon writes it (lagent.h).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/paths.h"
#include "sessiond/lagent/lagent.h"

int ltt_lagent_port_file(const char *rundir, bool lttng, bool root_daemon, char *buf,
			 size_t len)
{
	if (!lttng)
		return ltt_path_join(buf, len, rundir, LTT_LAGENT_HOME_FILE);
	if (!root_daemon)
		return ltt_home_find(LTT_HOME_AGENT_PORT, buf, len);
	if (strlen(LTT_LAGENT_ROOT_PORT_FILE) >= len)
		return -ENAMETOOLONG;
	strcpy(buf, LTT_LAGENT_ROOT_PORT_FILE);
	return 0;
}

/* The port @path names, 0: none (no file, not a number). */
static unsigned int port_in(const char *path)
{
	char text[16] = "", *end;
	unsigned long port;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	port = strtoul(text, &end, 10);
	return end != text && port <= 65535 ? (unsigned int)port : 0;
}

/* Does a line of @file (/proc/net/tcp or tcp6) listen on @port?  1, 0 or -errno. */
static int listens_in(const char *file, unsigned int port)
{
	unsigned int lport, state;
	char line[512];
	int ret = 0;
	FILE *f;

	f = fopen(file, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;	/* no IPv6 here */
	while (!ret && fgets(line, sizeof(line), f)) {
		/* sl local_address:port rem_address:port st ... (hex) */
		if (sscanf(line, " %*s %*[0-9A-Fa-f]:%x %*s %x", &lport, &state) != 2)
			continue;
		ret = lport == port && state == 0x0A;	/* TCP_LISTEN */
	}
	fclose(f);
	return ret;
}

int ltt_lagent_port_taken(const char *path, unsigned int *ret_port)
{
	unsigned int port = port_in(path);
	int ret;

	*ret_port = port;
	if (!port)
		return 0;
	ret = listens_in("/proc/net/tcp", port);
	return ret ? ret : listens_in("/proc/net/tcp6", port);
}

/* @path ends with "/" LTT_LAGENT_HOME_FILE: the length of its run directory, else 0. */
static size_t own_home(const char *path)
{
	size_t n = strlen(path), m = strlen("/" LTT_LAGENT_HOME_FILE);

	return n > m && !strcmp(path + n - m, "/" LTT_LAGENT_HOME_FILE) ? n - m : 0;
}

int ltt_lagent_listen(int *ret_fd, unsigned int *ret_port)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	socklen_t slen = sizeof(sin);
	int fd = -1, ret;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) || listen(fd, 64) ||
	    getsockname(fd, (struct sockaddr *)&sin, &slen)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	*ret_fd = fd;
	*ret_port = ntohs(sin.sin_port);
	return 0;
}

int ltt_lagent_port_write(const char *path, unsigned int port)
{
	char dir[4096], tmp[4200], text[16];
	char *slash;
	int fd, len, ret = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	/* a daemon's own home for the agents: its two directories */
	if (own_home(dir)) {
		dir[own_home(dir) + strlen("/" LTT_LAGENT_HOME_NAME)] = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		snprintf(dir, sizeof(dir), "%s", path);
	}
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
	}
	snprintf(tmp, sizeof(tmp), "%s.ltt-%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	len = snprintf(text, sizeof(text), "%u\n", port);
	if (write(fd, text, (size_t)len) != len)
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

void ltt_lagent_port_remove(const char *path, unsigned int port)
{
	/* the file of a daemon that started since is that daemon's */
	if (port_in(path) == port)
		unlink(path);
	if (own_home(path)) {
		char dir[4096];
		char *slash;

		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		*slash = '\0';
		rmdir(dir);	/* .lttng, then lttng-agents: each if empty */
		slash = strrchr(dir, '/');
		*slash = '\0';
		rmdir(dir);
	}
}

/* The line of @file ("local remote" as @want) that names a socket: its owner and inode. */
static int peer_in(const char *file, const char *want, uid_t *ret_uid, unsigned long *ret_inode)
{
	char line[512], local[64], remote[64];
	unsigned long uid, inode;
	int ret = -ENOENT;
	FILE *f;

	f = fopen(file, "re");
	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		/* sl local rem st tx:rx tr:when retrnsmt uid timeout inode ... */
		if (sscanf(line, " %*s %63s %63s %*s %*s %*s %*s %lu %*s %lu", local, remote, &uid,
			   &inode) != 4)
			continue;
		snprintf(line, sizeof(line), "%s %s", local, remote);
		if (!strcmp(line, want)) {
			*ret_uid = (uid_t)uid;
			*ret_inode = inode;
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

int ltt_lagent_peer(int fd, uid_t *ret_uid, unsigned long *ret_inode)
{
	/* an IPv4 address as an IPv6 socket's line shows it: ::ffff:a.b.c.d */
	static const char mapped[] = "0000000000000000FFFF0000";
	struct sockaddr_in self, peer;
	socklen_t slen = sizeof(self), plen = sizeof(peer);
	char want[128];
	int ret;

	if (getsockname(fd, (struct sockaddr *)&self, &slen) ||
	    getpeername(fd, (struct sockaddr *)&peer, &plen))
		return -errno;
	if (self.sin_family != AF_INET || peer.sin_family != AF_INET)
		return -EAFNOSUPPORT;
	/* the peer's socket: its local end is our peer, its remote end us */
	snprintf(want, sizeof(want), "%08X:%04X %08X:%04X", (unsigned int)peer.sin_addr.s_addr,
		 (unsigned int)ntohs(peer.sin_port), (unsigned int)self.sin_addr.s_addr,
		 (unsigned int)ntohs(self.sin_port));
	ret = peer_in("/proc/net/tcp", want, ret_uid, ret_inode);
	if (ret != -ENOENT)
		return ret;
	/* a dual-stack IPv6 socket connected to our IPv4 port (Java's, by default) */
	snprintf(want, sizeof(want), "%s%08X:%04X %s%08X:%04X", mapped,
		 (unsigned int)peer.sin_addr.s_addr, (unsigned int)ntohs(peer.sin_port), mapped,
		 (unsigned int)self.sin_addr.s_addr, (unsigned int)ntohs(self.sin_port));
	return peer_in("/proc/net/tcp6", want, ret_uid, ret_inode);
}

/* Does process @pid hold socket @inode?  1, 0, or -errno: no verdict. */
static int pid_holds(uint32_t pid, unsigned long inode)
{
	char path[64], link[64], want[48];
	unsigned int n = 0;
	struct dirent *e;
	ssize_t len;
	int ret = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%u/fd", pid);
	d = opendir(path);
	if (!d)
		return -errno;	/* gone, another PID namespace's, or not ours to read */
	snprintf(want, sizeof(want), "socket:[%lu]", inode);
	errno = 0;
	while (ret == 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (++n > LTT_LAGENT_PID_FDS) {
			ret = -E2BIG;
			break;
		}
		len = readlinkat(dirfd(d), e->d_name, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (!strcmp(link, want))
			ret = 1;
	}
	if (!ret && errno)
		ret = -errno;	/* the listing failed */
	closedir(d);
	return ret;
}

/* Is @uid one of process @pid's (its status's Uid: line)?  1, 0 or -errno. */
static int pid_of_user(uint32_t pid, uid_t uid)
{
	unsigned long u[4];
	char path[64], line[256];
	int ret = -ENOENT, i;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (ret < 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Uid: %lu %lu %lu %lu", &u[0], &u[1], &u[2], &u[3]) != 4)
			continue;
		ret = 0;
		for (i = 0; i < 4; i++)
			ret |= u[i] == (unsigned long)uid;
	}
	fclose(f);
	return ret;
}

int ltt_lagent_pid_check(uint32_t pid, uid_t uid, unsigned long inode)
{
	int ret;

	if (!pid || !inode || uid == (uid_t)-1)
		return -ENOENT;		/* no line for its socket: nothing to check with */
	ret = pid_holds(pid, inode);
	if (ret >= 0 || ret == -ENOENT)
		return ret;		/* a verdict, or no such process here */
	/* its descriptors are not ours to read: its owner at least */
	return pid_of_user(pid, uid);
}
