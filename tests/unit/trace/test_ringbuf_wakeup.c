// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ringbuf_wakeup.c - the reader's wakeups (src/common/trace/ringbuf.c,
 * ltt_rb_wakeup() and reader_sleep()), each interleaving played in one
 * thread, so each result is exact.
 *
 * The reader marks itself sleeping when it finds nothing to read; whoever
 * completes a sub-buffer then writes the eventfd of the handle it used,
 * once per sleep.  A flush completes a sub-buffer too (its padding is
 * the last commit when every writer of the packet has committed): through
 * a handle with the eventfd (a writer's, a flusher thread's) it wakes the
 * reader as a commit does; through one without (the reader's own: the
 * consumer's switch timer) it cannot, and its caller reads next.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/trace/ringbuf.h"
#include "tests/unit/tap.h"

#define S	4096u
#define NSUB	4u
#define EV	64u

struct fixture {
	void *mem;
	size_t len;
	struct ltt_rb writer;	/* with the eventfd */
	struct ltt_rb flusher;	/* another thread's handle, with the eventfd */
	struct ltt_rb reader;	/* the reader's own: no eventfd */
	int efd;
};

static int setup(struct fixture *f)
{
	struct ltt_rb_config cfg = { .subbuf_size = S, .num_subbuf = NSUB, .stream_id = 1 };

	memset(f, 0, sizeof(*f));
	f->len = ltt_rb_region_size(S, NSUB);
	f->mem = mmap(NULL, f->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	f->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (f->mem == MAP_FAILED || f->efd < 0 || ltt_rb_init_region(f->mem, f->len, &cfg) ||
	    ltt_rb_attach(&f->writer, f->mem, f->len) ||
	    ltt_rb_attach(&f->flusher, f->mem, f->len) ||
	    ltt_rb_attach(&f->reader, f->mem, f->len))
		return -1;
	ltt_rb_set_wakeup_fd(&f->writer, f->efd);
	ltt_rb_set_wakeup_fd(&f->flusher, f->efd);
	return 0;
}

static void teardown(struct fixture *f)
{
	if (f->mem != MAP_FAILED)
		munmap(f->mem, f->len);
	if (f->efd >= 0)
		close(f->efd);
}

/* The eventfd's count, reset to 0: the wakeups written since the last look. */
static uint64_t wakeups(const struct fixture *f)
{
	uint64_t v;

	return read(f->efd, &v, sizeof(v)) == (ssize_t)sizeof(v) ? v : 0;
}

static uint32_t sleeping(const struct fixture *f)
{
	return __atomic_load_n(&f->reader.shm->reader_waiting, __ATOMIC_RELAXED);
}

/* One event through the writer's handle; 0 or the reserve's -errno. */
static int write_event(struct fixture *f)
{
	struct ltt_rb_slot slot;
	int ret = ltt_rb_reserve(&f->writer, EV, &slot);

	if (ret)
		return ret;
	memset(slot.data, 0xab, EV);
	ltt_rb_commit(&f->writer, &slot);
	return 0;
}

/* The reader finds nothing and sleeps: -EAGAIN, marked sleeping. */
static bool reader_sleeps(struct fixture *f)
{
	struct ltt_rb_packet pkt;

	return ltt_rb_get_next_subbuf(&f->reader, &pkt) == -EAGAIN && sleeping(f) == 1;
}

/* The reader reads the next packet and puts it: its content size, or 0. */
static uint64_t read_packet(struct fixture *f)
{
	struct ltt_rb_packet pkt;

	if (ltt_rb_get_next_subbuf(&f->reader, &pkt) || ltt_rb_put_subbuf(&f->reader, &pkt))
		return 0;
	return pkt.content_size;
}

/* Fill the open packet to its end with events: the last commit completes it. */
static unsigned int fill_packet(struct fixture *f)
{
	unsigned int n = 0;
	uint64_t w;

	do {
		if (write_event(f))
			return 0;
		n++;
		w = __atomic_load_n(&f->writer.shm->offset, __ATOMIC_RELAXED);
	} while (w % S && w % S + EV <= S);
	return n;
}

/* A writer's commit completes the packet the reader sleeps on: one wakeup. */
static void test_commit(struct fixture *f)
{
	tap_ok(reader_sleeps(f), "commit: the reader finds nothing and sleeps");
	tap_ok(fill_packet(f) > 0, "commit: a writer fills the packet");
	/* the last event left less than EV bytes: the next one switches */
	tap_is_int(write_event(f), 0, "commit: the next event closes it with padding");
	tap_is_u64(wakeups(f), 1, "commit: the completion woke the reader once");
	tap_is_int(sleeping(f), 0, "commit: the wakeup took the reader's flag");
	tap_ok(read_packet(f) > 0, "commit: the reader reads the packet");
}

/* Another thread's flush completes the packet the reader sleeps on. */
static void test_flush_other(struct fixture *f)
{
	uint64_t content;

	/* the packet the previous case opened is open: read it first */
	tap_is_int(ltt_rb_flush(&f->flusher, false), 0, "flush: close the open packet");
	tap_is_u64(wakeups(f), 0, "flush: a completion while the reader is awake writes nothing");
	tap_ok(read_packet(f) > 0, "flush: read it");
	tap_is_int(write_event(f), 0, "flush: a writer commits one event in a new packet");
	tap_ok(reader_sleeps(f), "flush: the reader finds nothing and sleeps");
	tap_is_int(ltt_rb_flush(&f->flusher, false), 0,
		   "flush: a flusher thread closes the packet; its padding is the last commit");
	tap_is_u64(wakeups(f), 1, "flush: the flush woke the reader, through its handle's eventfd");
	tap_is_int(sleeping(f), 0, "flush: and took the reader's flag");
	content = read_packet(f);
	tap_is_u64(content, LTT_RB_PACKET_HEADER_SIZE + EV, "flush: the reader reads the packet");
}

/*
 * The reader's own flush (no eventfd) completes the packet it slept on:
 * no wakeup, the packet is there for its next read; the flag stays, so
 * the next completion by a writer signals (one spurious wakeup, absorbed
 * by the reader's look).
 */
static void test_flush_reader(struct fixture *f)
{
	tap_is_int(write_event(f), 0, "own flush: a writer commits one event");
	tap_ok(reader_sleeps(f), "own flush: the reader finds nothing and sleeps");
	tap_is_int(ltt_rb_flush(&f->reader, false), 0, "own flush: the reader closes the packet");
	tap_is_u64(wakeups(f), 0, "own flush: a handle without an eventfd writes none");
	tap_is_int(sleeping(f), 1, "own flush: the flag is left for a writer that can signal");
	tap_is_u64(read_packet(f), LTT_RB_PACKET_HEADER_SIZE + EV,
		   "own flush: the caller reads the packet next");
	tap_ok(fill_packet(f) > 0 && write_event(f) == 0, "own flush: a writer completes a packet");
	tap_is_u64(wakeups(f), 1, "own flush: the flag left set makes that completion signal");
	tap_ok(read_packet(f) > 0, "own flush: the reader reads it");
}

/* Two completions during one sleep: one write, the flag taken once. */
static void test_two_completions(struct fixture *f)
{
	tap_is_int(ltt_rb_flush(&f->flusher, false), 0, "two: close the open packet");
	tap_ok(read_packet(f) > 0, "two: read it");
	tap_is_u64(wakeups(f), 0, "two: nothing pending");
	tap_is_int(write_event(f), 0, "two: one event in a new packet");
	tap_ok(reader_sleeps(f), "two: the reader sleeps");
	tap_is_int(ltt_rb_flush(&f->flusher, false), 0, "two: a flush completes the packet");
	tap_ok(write_event(f) == 0 && ltt_rb_flush(&f->writer, false) == 0,
	       "two: a writer completes the next one");
	tap_is_u64(wakeups(f), 1, "two: one eventfd write for the sleep");
	tap_ok(read_packet(f) > 0 && read_packet(f) > 0, "two: both packets are read");
}

int main(void)
{
	struct fixture f;

	if (!tap_ok(setup(&f) == 0, "a 4 x 4 KiB region, three handles, one eventfd")) {
		teardown(&f);
		return tap_done();
	}
	test_commit(&f);
	test_flush_other(&f);
	test_flush_reader(&f);
	test_two_completions(&f);
	teardown(&f);
	return tap_done();
}
