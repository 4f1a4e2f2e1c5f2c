// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-ktest-errors.c - every ioctl's refusals (errno by errno), that a
 * refused request changes nothing, and a fuzz loop over every fd kind.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ltt-ktest.h"

/* ioctl(@fd, @cmd, @arg) must fail with @err. */
static void refuse(int fd, unsigned long cmd, void *arg, int err, const char *what)
{
	int ret = ioctl(fd, cmd, arg);

	check(ret < 0 && errno == err, "%s: %s (got %d, %s)", what, strerror(err), ret,
	      ret < 0 ? strerror(errno) : "success");
	if (ret >= 0 && (cmd == LTT_KABI_SESSION || cmd == LTT_KABI_CHANNEL ||
			 cmd == LTT_KABI_STREAM))
		close(ret);
}

static struct ltt_kabi_channel good_channel(void)
{
	return (struct ltt_kabi_channel){ .subbuf_size = 4096, .num_subbuf = 2 };
}

static void channel_refusals(int sfd)
{
	static const struct {
		uint64_t sb, n;
		uint32_t ow, swt, rdt, res;
		const char *what;
	} bad[] = {
		{ 3000, 2, 0, 0, 0, 0, "CHANNEL subbuf_size 3000" },
		{ 12288, 2, 0, 0, 0, 0, "CHANNEL subbuf_size 3 pages" },
		{ 2048, 2, 0, 0, 0, 0, "CHANNEL subbuf_size 2048" },
		{ 128ULL << 20, 2, 0, 0, 0, 0, "CHANNEL subbuf_size 128 MiB" },
		{ 4096, 1, 0, 0, 0, 0, "CHANNEL num_subbuf 1" },
		{ 4096, 6, 0, 0, 0, 0, "CHANNEL num_subbuf 6" },
		{ 4096, 8192, 0, 0, 0, 0, "CHANNEL num_subbuf 8192" },
		{ 64ULL << 20, 32, 0, 0, 0, 0, "CHANNEL 2 GiB per CPU" },
		{ 4096, 2, 2, 0, 0, 0, "CHANNEL overwrite 2" },
		{ 4096, 2, 0, 99, 0, 0, "CHANNEL switch timer 99 us" },
		{ 4096, 2, 0, 0, 1, 0, "CHANNEL read timer 1 us" },
		{ 4096, 2, 0, 0, 0, 1, "CHANNEL reserved not zero" },
	};
	struct ltt_kabi_channel c;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c = good_channel();
		c.subbuf_size = bad[i].sb;
		c.num_subbuf = bad[i].n;
		c.overwrite = bad[i].ow;
		c.switch_timer_us = bad[i].swt;
		c.read_timer_us = bad[i].rdt;
		c.reserved[7] = bad[i].res;
		refuse(sfd, LTT_KABI_CHANNEL, &c, EINVAL, bad[i].what);
	}
	refuse(sfd, LTT_KABI_CHANNEL, (void *)16, EFAULT, "CHANNEL bad pointer");
}

static void event_refusals(int cfd)
{
	struct ltt_kabi_event ev;

	memset(&ev, 'a', sizeof(ev.name));
	ev.id = 0;
	memset(ev.reserved, 0, sizeof(ev.reserved));
	refuse(cfd, LTT_KABI_EVENT_ENABLE, &ev, EINVAL, "EVENT_ENABLE name not NUL-terminated");
	memset(&ev, 0, sizeof(ev));
	refuse(cfd, LTT_KABI_EVENT_ENABLE, &ev, EINVAL, "EVENT_ENABLE empty name");
	strcpy(ev.name, "no_such_event");
	refuse(cfd, LTT_KABI_EVENT_ENABLE, &ev, ENOENT, "EVENT_ENABLE unknown event");
	strcpy(ev.name, "ltt_test_event");
	ev.reserved[2] = 1;
	refuse(cfd, LTT_KABI_EVENT_ENABLE, &ev, EINVAL, "EVENT_ENABLE reserved not zero");
	ev.reserved[2] = 0;
	ev.id = UINT32_MAX;
	refuse(cfd, LTT_KABI_EVENT_ENABLE, &ev, EINVAL, "EVENT_ENABLE id 2^32-1");
	ev.id = 0;
	check(!ioctl(cfd, LTT_KABI_EVENT_ENABLE, &ev), "EVENT_ENABLE after the refusals works");
	refuse(cfd, LTT_KABI_EVENT_ENABLE, &ev, EEXIST, "EVENT_ENABLE twice");
	strcpy(ev.name, "ltt_logger");
	refuse(cfd, LTT_KABI_EVENT_ENABLE, &ev, EINVAL, "EVENT_ENABLE an id already used");
	refuse(cfd, LTT_KABI_EVENT_DISABLE, &ev, ENOENT, "EVENT_DISABLE not enabled");
	strcpy(ev.name, "ltt_test_event");
	ev.id = 3;
	refuse(cfd, LTT_KABI_EVENT_DISABLE, &ev, EINVAL, "EVENT_DISABLE id not zero");
	refuse(cfd, LTT_KABI_EVENT_ENABLE, (void *)16, EFAULT, "EVENT_ENABLE bad pointer");
}

static void stream_refusals(struct chan *c)
{
	int fd = c->streams[0];
	struct ltt_kabi_subbuf sb;
	void *p;

	refuse(fd, LTT_KABI_PUT_SUBBUF, NULL, EINVAL, "PUT_SUBBUF with none held");
	refuse(fd, LTT_KABI_GET_NEXT_SUBBUF, &sb, EAGAIN, "GET_NEXT_SUBBUF on an empty stream");
	refuse(fd, LTT_KABI_FLUSH, (void *)1, EINVAL, "FLUSH with an argument");
	refuse(fd, LTT_KABI_GET_NEXT_SUBBUF, (void *)16, EFAULT, "GET_NEXT_SUBBUF bad pointer");
	refuse(fd, _IO(LTT_KABI_IOC, 0x3f), NULL, ENOTTY, "stream: unknown ioctl");
	refuse(fd, LTT_KABI_SESSION, NULL, ENOTTY, "stream: a tracer ioctl");
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(p == MAP_FAILED && (errno == EPERM || errno == EACCES), "mmap writable refused");
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	check(p == MAP_FAILED && errno == EPERM, "mmap private writable refused");
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 4096);
	check(p == MAP_FAILED && errno == EINVAL, "mmap at an offset refused");
	p = mmap(NULL, 4 * 4096, PROT_READ, MAP_SHARED, fd, 0);
	check(p == MAP_FAILED && errno == EINVAL, "mmap beyond the buffer refused");
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	check(p != MAP_FAILED && mprotect(p, 4096, PROT_READ | PROT_WRITE) && errno == EACCES,
	      "mprotect to writable refused");
	if (p != MAP_FAILED)
		munmap(p, 4096);
	{
		int pfd[2];
		ssize_t n;

		if (pipe(pfd))
			die("pipe");
		n = splice(fd, NULL, pfd[1], NULL, 4096, 0);
		check(n < 0 && errno == EINVAL, "splice with no packet held refused");
		close(pfd[0]);
		close(pfd[1]);
	}
}

int cmd_errors(void)
{
	int tfd = tracer(), sfd, fd;
	struct ltt_kabi_event_desc *d = calloc(1, sizeof(*d));
	struct ltt_kabi_list l = { 0 };
	struct ltt_kabi_stream st = { 0 };
	struct ltt_kabi_channel c;
	struct chan ch;

	refuse(tfd, _IO(LTT_KABI_IOC, 0x7f), NULL, ENOTTY, "tracer: unknown ioctl");
	refuse(tfd, LTT_KABI_START, NULL, ENOTTY, "tracer: a session ioctl");
	refuse(tfd, LTT_KABI_VERSION, (void *)16, EFAULT, "VERSION bad pointer");
	refuse(tfd, LTT_KABI_SESSION, (void *)1, EINVAL, "SESSION with an argument");
	l.reserved[1] = 1;
	refuse(tfd, LTT_KABI_LIST, &l, EINVAL, "LIST reserved not zero");
	l.reserved[1] = 0;
	l.kind = 2;
	refuse(tfd, LTT_KABI_LIST, &l, EINVAL, "LIST unknown kind");
	l.kind = 0;
	l.capacity = 4;
	refuse(tfd, LTT_KABI_LIST, &l, EINVAL, "LIST room but no array");
	l.entries = 16;
	refuse(tfd, LTT_KABI_LIST, &l, EFAULT, "LIST bad array");
	memset(d->name, 'e', sizeof(d->name));
	refuse(tfd, LTT_KABI_EVENT_DESC, d, EINVAL, "EVENT_DESC name not NUL-terminated");
	strcpy(d->name, "nope");
	refuse(tfd, LTT_KABI_EVENT_DESC, d, ENOENT, "EVENT_DESC unknown event");
	strcpy(d->name, "ltt_test_event");
	d->reserved[0] = 5;
	refuse(tfd, LTT_KABI_EVENT_DESC, d, EINVAL, "EVENT_DESC reserved not zero");

	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	if (sfd < 0)
		die("SESSION");
	refuse(sfd, _IO(LTT_KABI_IOC, 0x1f), NULL, ENOTTY, "session: unknown ioctl");
	refuse(sfd, LTT_KABI_START, (void *)1, EINVAL, "START with an argument");
	refuse(sfd, LTT_KABI_STOP, NULL, EBUSY, "STOP a stopped session");
	refuse(sfd, LTT_KABI_STATEDUMP, (void *)1, EINVAL, "STATEDUMP with an argument");
	refuse(sfd, LTT_KABI_STATEDUMP, NULL, EBUSY, "STATEDUMP of a stopped session");
	channel_refusals(sfd);
	channel(sfd, 4096, 2, 0, &ch);
	check(ch.fd >= 0, "CHANNEL after the refusals works");
	refuse(ch.fd, LTT_KABI_START, NULL, ENOTTY, "channel: a session ioctl");
	st.cpu = 100000;
	refuse(ch.fd, LTT_KABI_STREAM, &st, ENOENT, "STREAM of no CPU");
	st.cpu = 0;
	st.reserved[1] = 1;
	refuse(ch.fd, LTT_KABI_STREAM, &st, EINVAL, "STREAM reserved not zero");
	st.reserved[1] = 0;
	st.flags = LTT_KABI_STREAM_IF_ALLOCATED << 1;
	refuse(ch.fd, LTT_KABI_STREAM, &st, EINVAL, "STREAM unknown flag");
	st.flags = LTT_KABI_STREAM_IF_ALLOCATED;
	refuse(ch.fd, LTT_KABI_STREAM, &st, EBUSY, "STREAM asked twice");
	event_refusals(ch.fd);
	stream_refusals(&ch);
	check(!ioctl(sfd, LTT_KABI_START, 0), "START");
	refuse(sfd, LTT_KABI_START, NULL, EBUSY, "START twice");
	check(!ioctl(sfd, LTT_KABI_STATEDUMP, 0), "STATEDUMP while recording");
	c = good_channel();
	refuse(sfd, LTT_KABI_CHANNEL, &c, EBUSY, "CHANNEL after START");
	{
		struct ltt_kabi_subbuf sb;

		fd = open("/proc/" LTT_KABI_TEST_PROC_NAME, O_WRONLY);
		if (fd < 0 || write(fd, "10", 2) != 2)
			die("/proc/ltt-test");
		check(write(fd, "x", 1) < 0 && errno == EINVAL, "/proc/ltt-test refuses \"x\"");
		close(fd);
		ioctl(sfd, LTT_KABI_STOP, 0);
		fd = -1;
		for (int cpu = 0; cpu < ch.nr && fd < 0; cpu++)
			if (!ioctl(ch.streams[cpu], LTT_KABI_GET_NEXT_SUBBUF, &sb))
				fd = ch.streams[cpu];
		check(fd >= 0, "a packet after 10 events");
		if (fd >= 0) {
			struct ltt_kabi_subbuf again, first = sb;

			/* the refused GET zeroes its argument (checked writable first) */
			refuse(fd, LTT_KABI_GET_NEXT_SUBBUF, &sb, EBUSY, "GET_NEXT_SUBBUF twice");
			memset(&again, 0xff, sizeof(again));
			check(!ioctl(fd, LTT_KABI_GET_HELD_SUBBUF, &again) &&
			      !memcmp(&again, &first, sizeof(first)),
			      "GET_HELD_SUBBUF describes the held packet again, the same");
			refuse(fd, LTT_KABI_GET_HELD_SUBBUF, (void *)16, EFAULT,
			       "GET_HELD_SUBBUF bad pointer");
			check(!ioctl(fd, LTT_KABI_PUT_SUBBUF, 0), "PUT_SUBBUF");
			refuse(fd, LTT_KABI_GET_HELD_SUBBUF, &again, ENOENT,
			       "GET_HELD_SUBBUF with none held");
		}
	}
	close_chan(&ch);
	close(sfd);
	close(tfd);
	free(d);
	return 0;
}

/* ---- fuzz ---- */

static const unsigned long cmds[] = {
	LTT_KABI_VERSION, LTT_KABI_SESSION, LTT_KABI_LIST, LTT_KABI_EVENT_DESC,
	LTT_KABI_CHANNEL, LTT_KABI_START, LTT_KABI_STOP, LTT_KABI_STREAM,
	LTT_KABI_EVENT_ENABLE, LTT_KABI_EVENT_DISABLE, LTT_KABI_GET_NEXT_SUBBUF,
	LTT_KABI_PUT_SUBBUF, LTT_KABI_FLUSH, LTT_KABI_STREAM_STATS, LTT_KABI_GET_HELD_SUBBUF,
	LTT_KABI_SNAPSHOT_SPAN, LTT_KABI_SNAPSHOT_PEEK, LTT_KABI_MAP, LTT_KABI_MAP_EVENT,
	LTT_KABI_MAP_UNEVENT, LTT_KABI_MAP_READ, LTT_KABI_MAP_CTL, LTT_KABI_CHANNEL_MEM,
};

static uint64_t rnd(void)
{
	return (uint64_t)random() << 33 ^ (uint64_t)random() << 11 ^ random();
}

/* Random bytes, sometimes mostly zero (to get past the reserved checks). */
static void fill(uint8_t *buf, size_t len)
{
	size_t i;
	int mode = random() % 3;

	for (i = 0; i < len; i++)
		buf[i] = mode == 0 ? random() : (mode == 1 && random() % 16 == 0) ? random() : 0;
	if (mode == 2) {	/* plausible sizes at the front */
		uint64_t sb = 1ULL << (random() % 17), n = 1ULL << (random() % 7);

		memcpy(buf, &sb, 8);
		memcpy(buf + 8, &n, 8);
		buf[16] = random() % 2;
	}
}

int cmd_fuzz(unsigned long iters)
{
	uint8_t *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			     -1, 0);
	int fds[5], tfd = tracer(), ok_calls = 0, weird = 0;
	unsigned long i;
	struct chan ch;

	srandom(12345);
	fds[0] = tfd;
	fds[1] = ioctl(tfd, LTT_KABI_SESSION, 0);
	channel(fds[1], 4096, 4, 0, &ch);
	fds[2] = ch.fd;
	fds[3] = ch.streams[0];
	fds[4] = ioctl(tfd, LTT_KABI_MAP, 0);
	if (fds[4] < 0)
		die("LTT_KABI_MAP");
	if (page == MAP_FAILED)
		die("mmap");
	for (i = 0; i < iters; i++) {
		int fd = fds[random() % 5], ret;
		unsigned long cmd = random() % 4 ? cmds[random() % (sizeof(cmds) / sizeof(cmds[0]))]
						 : (unsigned long)rnd();
		void *arg;

		switch (random() % 4) {
		case 0:
			arg = NULL;
			break;
		case 1:
			arg = (void *)(uintptr_t)rnd();
			break;
		default:	/* a buffer, possibly straddling into nothing */
			fill(page, 8192);
			arg = page + random() % 8192;
			break;
		}
		ret = ioctl(fd, cmd, arg);
		if (ret >= 0) {
			ok_calls++;
			if (cmd == LTT_KABI_SESSION || cmd == LTT_KABI_CHANNEL ||
			    cmd == LTT_KABI_STREAM || cmd == LTT_KABI_MAP)
				close(ret);
			else if (cmd != LTT_KABI_VERSION && cmd != LTT_KABI_LIST &&
				 cmd != LTT_KABI_FLUSH && cmd != LTT_KABI_STREAM_STATS &&
				 cmd != LTT_KABI_START && cmd != LTT_KABI_STOP &&
				 cmd != LTT_KABI_GET_NEXT_SUBBUF && cmd != LTT_KABI_PUT_SUBBUF &&
				 cmd != LTT_KABI_EVENT_DESC && cmd != LTT_KABI_SNAPSHOT_SPAN &&
				 cmd != LTT_KABI_SNAPSHOT_PEEK && cmd != LTT_KABI_MAP_READ &&
				 cmd != LTT_KABI_MAP_CTL && cmd != LTT_KABI_CHANNEL_MEM)
				weird++;
		}
	}
	check(weird == 0, "fuzz: %lu calls, %d succeeded (only commands that may), %d unexpected",
	      iters, ok_calls, weird);
	close(fds[4]);
	close_chan(&ch);
	close(fds[1]);
	/* the tracer still works */
	fds[1] = ioctl(tfd, LTT_KABI_SESSION, 0);
	channel(fds[1], 4096, 2, 0, &ch);
	check(!enable(ch.fd, "ltt_test_event", 0) && !ioctl(fds[1], LTT_KABI_START, 0) &&
	      !ioctl(fds[1], LTT_KABI_STOP, 0), "fuzz: a new session works afterwards");
	close_chan(&ch);
	close(fds[1]);
	close(tfd);
	return 0;
}
