// SPDX-License-Identifier: GPL-2.0-only
/*
 * relay_stub - something listening where a relay daemon would, for the
 * session daemon's create-time check (test_relay_create.sh).
 *
 *   relay_stub MODE PORTFILE [6]
 *
 * Listens on 127.0.0.1 (with 6: ::1), port 0, writes "PORT\n" to PORTFILE (temporary
 * file, then rename), then goes to the background: it exits once
 * listening, printing the pid of the child that serves until killed.  On each
 * connection it reads the 32 bytes of a VERSION request, then:
 *   relay    answers VERSION {2, 11} (a relay of this protocol)
 *   old      answers VERSION {1, 0} (a relay of another major)
 *   garbage  answers an HTTP error line (no relay at all)
 *   silent   never answers (the connection stays open)
 * and counts the connection: "connections N" is rewritten to PORTFILE.n.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void write_file(const char *path, const char *text)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path)) {
		perror(path);
		exit(1);
	}
}

static int read_all(int fd, uint8_t *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = read(fd, buf, len);
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
}

int main(int argc, char **argv)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin), len6 = sizeof(sin6);
	bool v6 = argc == 4 && !strcmp(argv[3], "6");
	unsigned int port;
	unsigned long count = 0;
	char text[64], countfile[4096];
	uint8_t req[32], answer[8];
	int lfd, fd;
	pid_t pid;

	if (argc != 3 && !v6) {
		fprintf(stderr, "usage: relay_stub relay|old|garbage|silent PORTFILE [6]\n");
		return 2;
	}
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 ||
	    (v6 ? bind(lfd, (struct sockaddr *)&sin6, sizeof(sin6)) ||
		  getsockname(lfd, (struct sockaddr *)&sin6, &len6) :
		  bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) ||
		  getsockname(lfd, (struct sockaddr *)&sin, &len)) ||
	    listen(lfd, 16)) {
		perror("relay_stub");
		return 1;
	}
	port = ntohs(v6 ? sin6.sin6_port : sin.sin_port);
	snprintf(countfile, sizeof(countfile), "%s.n", argv[2]);
	write_file(countfile, "connections 0\n");
	snprintf(text, sizeof(text), "%u\n", port);
	write_file(argv[2], text);
	pid = fork();
	if (pid < 0) {
		perror("relay_stub: fork");
		return 1;
	}
	if (pid) {
		printf("%ld\n", (long)pid);
		return 0;
	}
	fclose(stdout);
	for (;;) {
		fd = accept(lfd, NULL, NULL);
		if (fd < 0)
			continue;
		snprintf(text, sizeof(text), "connections %lu\n", ++count);
		write_file(countfile, text);
		if (read_all(fd, req, sizeof(req))) {
			close(fd);
			continue;
		}
		if (!strcmp(argv[1], "silent"))
			continue;	/* kept open, never answered */
		if (!strcmp(argv[1], "garbage")) {
			static const char http[] = "HTTP/1.0 400 Bad Request\r\n\r\n";

			if (write(fd, http, sizeof(http) - 1) < 0)
				perror("relay_stub: write");
		} else {
			put_be32(answer, strcmp(argv[1], "old") ? 2 : 1);
			put_be32(answer + 4, strcmp(argv[1], "old") ? 11 : 0);
			if (write(fd, answer, sizeof(answer)) < 0)
				perror("relay_stub: write");
		}
		close(fd);
	}
}
