// SPDX-License-Identifier: GPL-2.0-only
/*
 * lagent-port.c - LTTng's agent port: the loopback TCP socket the agents
 * connect to, and the port file they find its number in, where LTTng's
 * session daemon writes it (lagent.h).
 */
#include <arpa/inet.h>
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

int ltt_lagent_port_file(bool root_daemon, char *buf, size_t len)
{
	if (!root_daemon)
		return ltt_home_find(LTT_HOME_AGENT_PORT, buf, len);
	if (strlen(LTT_LAGENT_ROOT_PORT_FILE) >= len)
		return -ENAMETOOLONG;
	strcpy(buf, LTT_LAGENT_ROOT_PORT_FILE);
	return 0;
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
	char text[16] = "";
	ssize_t n;
	int fd;

	/* the file of a daemon that started since is that daemon's */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n > 0 && (unsigned int)strtoul(text, NULL, 10) == port)
		unlink(path);
}

int ltt_lagent_peer_uid(int fd, uid_t *ret_uid)
{
	struct sockaddr_in self, peer;
	socklen_t slen = sizeof(self), plen = sizeof(peer);
	char want[64], line[512], local[32], remote[32];
	unsigned long uid;
	int ret = -ENOENT;
	FILE *f;

	if (getsockname(fd, (struct sockaddr *)&self, &slen) ||
	    getpeername(fd, (struct sockaddr *)&peer, &plen))
		return -errno;
	if (self.sin_family != AF_INET || peer.sin_family != AF_INET)
		return -EAFNOSUPPORT;
	/* the peer's socket: its local end is our peer, its remote end us */
	snprintf(want, sizeof(want), "%08X:%04X %08X:%04X", (unsigned int)peer.sin_addr.s_addr,
		 (unsigned int)ntohs(peer.sin_port), (unsigned int)self.sin_addr.s_addr,
		 (unsigned int)ntohs(self.sin_port));
	f = fopen("/proc/net/tcp", "re");
	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		/* sl local rem st tx:rx tr:when retrnsmt uid ... */
		if (sscanf(line, " %*s %31s %31s %*s %*s %*s %*s %lu", local, remote, &uid) != 3)
			continue;
		snprintf(line, sizeof(line), "%s %s", local, remote);
		if (!strcmp(line, want)) {
			*ret_uid = (uid_t)uid;
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}
