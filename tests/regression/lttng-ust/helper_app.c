/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * helper_app.c - what Debian's LTTng-UST helper libraries record, run
 * preloaded: built with -finstrument-functions (cyg-profile), a build id,
 * and it dlopen()s helper_lib.so (its own build id and .gnu_debuglink).
 *
 *   helper_app LIB [close|close_range]
 *
 * Prints the addresses the events carry, as NAME=0xADDR lines, so a test
 * can tell this program's events from the tracer's own (the wrappers see
 * every malloc and mutex of the process): its functions, its mutex.
 * malloc'ed sizes are 1000 + n, easy to pick out.  It then forks: the
 * child mallocs 2000 bytes and exits.  With "close" it then closes every fd
 * from 3 up (as a daemon does; the fd helper keeps the tracer's: without
 * it LTTng 2.13 aborts at exit; with "close_range", in one
 * close_range(3, ~0U, 0), which LTTng-UST 2.16's fd helper wraps too, and
 * with LTTng-UST's own liblttng-ust-common refuses: EINVAL, helper_app
 * exits 1), prints how many sockets and eventfds are still open ("kept
 * sockets N", "kept eventfds N": the tracer's) and mallocs 1005.
 */
#define _GNU_SOURCE	/* close_range() */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) static int leaf(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) static int middle(int x)
{
	return leaf(x) + leaf(x + 1);
}

/* The fds still open from 3 up whose link starts with @kind. */
static int count_open(const char *kind)
{
	char path[64], link[256];
	int fd, n = 0;
	ssize_t len;

	for (fd = 3; fd < 1024; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		len = readlink(path, link, sizeof(link) - 1);
		if (len < 0)
			continue;
		link[len] = '\0';
		n += !strncmp(link, kind, strlen(kind));
	}
	return n;
}

int main(int argc, char **argv)
{
	void *p, *q, *r = NULL, *h;
	int i, s = 0, fd, status;
	pid_t pid;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: helper_app LIB [close|close_range]\n");
		return 2;
	}
	printf("main=%p\nmiddle=%p\nleaf=%p\nmutex=%p\n", (void *)main, (void *)middle,
	       (void *)leaf, (void *)&mutex);
	fflush(stdout);
	for (i = 0; i < 3; i++)
		s += middle(i);
	p = malloc(1001);
	p = realloc(p, 1002);
	q = calloc(1, 1003);
	if (posix_memalign(&r, 64, 1004))
		return 1;
	free(p);
	free(q);
	free(r);
	pthread_mutex_lock(&mutex);
	pthread_mutex_unlock(&mutex);
	if (pthread_mutex_trylock(&mutex) == 0)
		pthread_mutex_unlock(&mutex);
	fd = open("/dev/null", O_RDONLY);
	if (fd < 0 || close(fd))
		return 1;
	h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "helper_app: %s\n", dlerror());
		return 1;
	}
	dlclose(h);
	pid = fork();
	if (pid == 0) {
		free(malloc(2000));
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status)
		return 1;
	/* as a daemon does: the fd helper keeps the tracer's */
	if (argc == 3) {
		if (!strcmp(argv[2], "close_range")) {
			if (close_range(3, ~0U, 0))
				return 1;
		} else {
			for (fd = 3; fd < 1024; fd++)
				close(fd);
		}
		printf("kept sockets %d\n", count_open("socket:"));
		printf("kept eventfds %d\n", count_open("anon_inode:[eventfd]"));
		fflush(stdout);
		free(malloc(1005));
	}
	return s == 33 ? 0 : 1;
}
