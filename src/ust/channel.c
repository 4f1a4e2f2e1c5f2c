// SPDX-License-Identifier: LGPL-2.1-only
/*
 * channel.c - the channels a session daemon gives the program: one ring
 * buffer per CPU, each in a shared-memory region mapped here and checked by
 * ltt_rb_attach() before anything writes to it.
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "ust/notify.h"
#include "ust/ust.h"

static struct ust_channel *channels;	/* under the ust lock */
static bool channels_stopped;		/* exit() under way: never enable again */

struct ltt_rb_wrec ust_untracked_wrecs[LTT_RB_WRECS + 1];
__thread uint32_t ust_wrec_idx = UST_WREC_UNSET;

static uint32_t wrec_used;		/* bit i: index i is a thread's */
static pthread_key_t wrec_key;
static pthread_once_t wrec_once = PTHREAD_ONCE_INIT;
static bool wrec_key_ok;

_Static_assert(LTT_RB_WRECS <= 32, "wrec_used is 32 bits");

/* A thread that had an index exits: its records hold nothing in flight. */
static void wrec_release(void *arg)
{
	uint32_t idx = (uint32_t)((uintptr_t)arg - 1);

	if (idx < LTT_RB_WRECS)
		__atomic_fetch_and(&wrec_used, ~((uint32_t)1 << idx), __ATOMIC_RELEASE);
}

static void wrec_init(void)
{
	wrec_key_ok = !pthread_key_create(&wrec_key, wrec_release);
}

uint32_t ust_wrec_assign(void)
{
	uint32_t used, idx = LTT_RB_WRECS;
	sigset_t old;

	pthread_once(&wrec_once, wrec_init);
	/*
	 * No signal handler's probe between taking an index and keeping it:
	 * it would take a second one, whose key we would then overwrite,
	 * and that index would never be given back.  One may have run
	 * before: its index is ours.
	 */
	ltt_signals_block_all(&old);
	if (ust_wrec_idx != UST_WREC_UNSET) {
		ltt_signals_restore(&old);
		return ust_wrec_idx;
	}
	used = __atomic_load_n(&wrec_used, __ATOMIC_RELAXED);
	/* no index without the key: it could never be given back */
	while (wrec_key_ok && used != UINT32_MAX >> (32 - LTT_RB_WRECS)) {
		idx = (uint32_t)__builtin_ctz(~used);
		if (__atomic_compare_exchange_n(&wrec_used, &used, used | ((uint32_t)1 << idx),
						false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			pthread_setspecific(wrec_key, (void *)(uintptr_t)(idx + 1));
			break;
		}
		idx = LTT_RB_WRECS;
	}
	ust_wrec_idx = idx;
	ltt_signals_restore(&old);
	return idx;
}

unsigned int ust_wrec_in_use(void)
{
	return (unsigned int)__builtin_popcount(__atomic_load_n(&wrec_used, __ATOMIC_RELAXED));
}

/*
 * Take a writer block of the stream for this process: an OFD lock on byte
 * k of the region's file, from a description of our own, on a block no
 * dead writer left records in.  @fd is that description when @own (a
 * daemon of app minor 10 made it for us: app-proto.h, CHANNEL_ADD), and
 * is taken (kept, or closed); else it shares its description with the
 * daemons, and we open one.  Without a block, the stream's slots are
 * untracked.
 */
static void stream_claim(struct ust_stream *s, int fd, bool own)
{
	struct flock fl;
	unsigned int b;
	int lfd;

	s->wrecs = ust_untracked_wrecs;
	ltt_ust_fd_lock();
	lfd = own ? fd : ltt_rb_own_fd(fd);
	ltt_ust_fd_own(lfd);
	ltt_ust_fd_unlock();
	if (lfd < 0) {
		ust_debug("no writer block (%s): a crash mid-event would cost a packet",
			  strerror(-lfd));
		return;
	}
	for (b = 0; b < LTT_RB_WBLOCKS; b++) {
		memset(&fl, 0, sizeof(fl));
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		fl.l_start = b;
		fl.l_len = 1;
		if (fcntl(lfd, F_OFD_SETLK, &fl))
			continue;
		if (ltt_rb_writer_block_clean(&s->rb, b)) {
			s->wrecs = ltt_rb_writer_block(&s->rb, b);
			/* threads beyond the records: untracked (before any event) */
			__atomic_store_n(&s->wrecs[LTT_RB_WRECS].pos, UST_WREC_NONE,
					 __ATOMIC_RELAXED);
			s->lock_fd = lfd;
			return;
		}
		fl.l_type = F_UNLCK;
		fcntl(lfd, F_OFD_SETLK, &fl);
	}
	ust_debug("every writer block of a stream is taken: a crash mid-event would cost a packet");
	ust_fd_close(lfd);
}

/*
 * The slots of a channel of @nr_streams streams: as many, but for a
 * channel of one stream on a host of several CPUs (a per-channel one,
 * --buffer-allocation=per-channel), which gets one slot per CPU, all the
 * same stream (channel_share()), so that the fast path indexes it by CPU
 * exactly as it does per-CPU streams.
 */
int ust_possible_cpus(void)
{
	static int cpus;	/* 0: not read yet; a race reads it twice, alike */
	int n = __atomic_load_n(&cpus, __ATOMIC_RELAXED);

	if (!n) {
		n = get_nprocs_conf();
		__atomic_store_n(&cpus, n, __ATOMIC_RELAXED);
	}
	return n;
}

static uint32_t channel_slots(uint32_t nr_streams)
{
	int cpus;

	if (nr_streams != 1)
		return nr_streams;	/* per-CPU: no sysfs read */
	cpus = ust_possible_cpus();
	if (cpus <= 1)
		return nr_streams;
	return cpus < UST_MAX_STREAMS ? (uint32_t)cpus : UST_MAX_STREAMS;
}

static struct ust_channel *channel_alloc(const void *owner, uint64_t key, uint32_t nr_streams)
{
	uint32_t i, slots = channel_slots(nr_streams);
	struct ust_channel *chan;

	chan = calloc(1, sizeof(*chan) + slots * sizeof(chan->streams[0]));
	if (!chan)
		return NULL;
	chan->owner = owner;
	chan->key = key;
	chan->nr_streams = slots;
	chan->nr_owned = nr_streams;
	for (i = 0; i < slots; i++) {
		chan->streams[i].wakeup_fd = -1;
		chan->streams[i].lock_fd = -1;
		chan->streams[i].wrecs = ust_untracked_wrecs;
	}
	for (i = 0; i <= LTT_RB_WRECS; i++)
		__atomic_store_n(&ust_untracked_wrecs[i].pos, UST_WREC_NONE, __ATOMIC_RELAXED);
	return chan;
}

/*
 * Map @fd (taken: closed here, or kept as the writer block's lock,
 * stream_claim()) whole and validate it as a ring buffer.  It must be a
 * memfd sealed against shrinking: a region cut short under our feet would
 * make the program's own stores fault; or a file with a name (a session's
 * --shm-path: its size is the session owner's to keep).  @own: a memfd's
 * description is ours (a file's never is: app-proto.h, CHANNEL_ADD).
 */
static int stream_map(struct ust_stream *s, int fd, bool own)
{
	struct stat st;
	void *mem;
	int ret, seals = fcntl(fd, F_GET_SEALS);

	if (fstat(fd, &st) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	if (seals < 0 || !(seals & F_SEAL_SHRINK)) {
		own = false;
		if (!S_ISREG(st.st_mode) || !st.st_nlink) {
			close(fd);
			return -EPERM;
		}
	}
	if (st.st_size <= 0 || (uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return -EINVAL;
	}
	mem = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ret = mem == MAP_FAILED ? -errno : 0;
	if (ret) {
		close(fd);
		return ret;
	}
	s->mem = mem;
	s->len = (size_t)st.st_size;
	s->mapped = true;
	ret = ltt_rb_attach(&s->rb, mem, s->len);
	if (ret) {
		close(fd);
		return ret;
	}
	stream_claim(s, fd, own);
	if (!own)
		close(fd);
	return 0;
}

/*
 * A per-channel channel: its other slots are its one stream's, copied
 * once it is set up.  The copies own nothing (slot 0 maps, locks and
 * closes); their handles are the same as slot 0's, which writers never
 * change.
 */
static void channel_share(struct ust_channel *chan)
{
	uint32_t i;

	for (i = chan->nr_owned; i < chan->nr_streams; i++) {
		chan->streams[i] = chan->streams[0];
		chan->streams[i].mapped = false;
		chan->streams[i].wakeup_fd = -1;
		chan->streams[i].lock_fd = -1;
	}
}

/*
 * Do all of @chan's streams count one clock?  The fast path takes the
 * first stream's for the channel's (ust_channel_set_enabled()): a stream
 * of another would get timestamps of two units.
 */
static bool one_clock(const struct ust_channel *chan)
{
	uint32_t i;

	for (i = 1; i < chan->nr_streams; i++)
		if (chan->streams[i].rb.clock != chan->streams[0].rb.clock)
			return false;
	return true;
}

int ust_channel_map(const void *owner, uint64_t key, uint64_t session_id, uint32_t stream_id,
		    bool enabled, uint32_t nr_streams, int *fds, bool own_fds,
		    struct ust_channel **ret_chan)
{
	struct ust_channel *chan = NULL;
	uint32_t i;
	int ret = -EINVAL;

	/* Every fd is consumed, whatever happens. */
	if (nr_streams && nr_streams <= UST_MAX_STREAMS) {
		chan = channel_alloc(owner, key, nr_streams);
		if (!chan)
			ret = -ENOMEM;
	}
	for (i = 0; i < nr_streams; i++) {
		struct ust_stream *s;

		if (!chan) {
			close(fds[2 * i]);
			close(fds[2 * i + 1]);
			continue;
		}
		s = &chan->streams[i];
		s->wakeup_fd = fds[2 * i + 1];
		ltt_ust_fd_own(s->wakeup_fd);
		ret = stream_map(s, fds[2 * i], own_fds);
		if (ret) {
			ust_channel_destroy(chan);
			chan = NULL;
			continue;
		}
		ltt_rb_set_wakeup_fd(&s->rb, s->wakeup_fd);
	}
	if (!chan)
		return ret;
	channel_share(chan);
	if (!one_clock(chan)) {
		ust_debug("channel %" PRIu64 ": its streams count different clocks", key);
		ust_channel_destroy(chan);
		return -EINVAL;
	}
	chan->session_id = session_id;
	chan->stream_id = stream_id;
	ust_channel_set_enabled(chan, enabled && !channels_stopped);
	*ret_chan = chan;
	return 0;
}

int ust_channel_wrap(const void *owner, uint64_t key, uint32_t nr_streams, void *const *mems,
		     const size_t *lens, struct ust_channel **ret_chan)
{
	struct ust_channel *chan;
	uint32_t i;

	if (!nr_streams || nr_streams > UST_MAX_STREAMS)
		return -EINVAL;
	chan = channel_alloc(owner, key, nr_streams);
	if (!chan)
		return -ENOMEM;
	for (i = 0; i < nr_streams; i++) {
		if (ltt_rb_attach(&chan->streams[i].rb, mems[i], lens[i])) {
			ust_channel_destroy(chan);
			return -EINVAL;
		}
		/*
		 * The caller's own memory, no file to lock: block 0 is ours,
		 * so that events take the tracked path, as on a mapped stream.
		 */
		chan->streams[i].wrecs = ltt_rb_writer_block(&chan->streams[i].rb, 0);
		__atomic_store_n(&chan->streams[i].wrecs[LTT_RB_WRECS].pos, UST_WREC_NONE,
				 __ATOMIC_RELAXED);
	}
	channel_share(chan);
	if (!one_clock(chan)) {
		ust_channel_destroy(chan);
		return -EINVAL;
	}
	ust_channel_set_enabled(chan, true);
	*ret_chan = chan;
	return 0;
}

/*
 * May this program's events wait for room in a full channel that has a
 * blocking timeout (lttctl enable-channel --blocking-timeout)?  Only when
 * asked: LTT_UST_ALLOW_BLOCKING non-empty and not "0"; when it is not
 * set, LTTng-UST's LTTNG_UST_ALLOW_BLOCKING, set to anything (as
 * LTTng-UST reads it).  Read here, after the constructors, so that the
 * LTTng-UST libraries need not map it (doc/lttng-ust.md).
 */
static bool blocking_allowed(void)
{
	/* not in a set-user-ID program, as LTTng-UST */
	const char *v = secure_getenv("LTT_UST_ALLOW_BLOCKING");

	if (v)
		return v[0] && strcmp(v, "0");
	return secure_getenv("LTTNG_UST_ALLOW_BLOCKING") != NULL;
}

/*
 * Let @chan's writers wait for room (@on and allowed), or stop them
 * waiting: a writer blocked in a stream of a channel being disabled,
 * removed or quiesced gives up its event, so that the grace period the
 * caller waits for next ends.
 */
static void channel_set_blocking(struct ust_channel *chan, bool on)
{
	uint32_t i;

	if (on && !chan->streams[0].rb.block_timeout_us)
		return;	/* the channel never blocks: no getenv() */
	on = on && blocking_allowed();
	for (i = 0; i < chan->nr_streams; i++)
		ltt_rb_set_blocking(&chan->streams[i].rb, on);
}

void ust_channel_set_enabled(struct ust_channel *chan, bool on)
{
	int enabled = UST_CHAN_OFF;

	if (on && chan->ctx_len)
		enabled = UST_CHAN_ON_CTX;
	else if (on)	/* its streams share the session's clock: RDTSCP's is inline */
		enabled = chan->nr_streams && chan->streams[0].rb.clock == LTT_TCLOCK_TSC ?
			  UST_CHAN_ON : UST_CHAN_ON_READ;
	__atomic_store_n(&chan->enabled, enabled, __ATOMIC_RELAXED);
	if (chan->nr_streams)
		channel_set_blocking(chan, on);
}

void ust_channels_quiesce(void)
{
	struct ust_channel *c;

	channels_stopped = true;
	for (c = channels; c; c = c->next)
		ust_channel_set_enabled(c, false);
	ust_events_refresh();
}

bool ust_channels_stopped(void)
{
	return channels_stopped;
}

void ust_channel_destroy(struct ust_channel *chan)
{
	uint32_t i;

	if (!chan)
		return;
	for (i = 0; i < chan->nr_streams; i++) {
		struct ust_stream *s = &chan->streams[i];

		if (s->mapped)
			munmap(s->mem, s->len);
		ust_fd_close(s->wakeup_fd);
		/* nothing in flight (a grace period passed): the block is free */
		ust_fd_close(s->lock_fd);
	}
	free(chan);
}

struct ust_channel *ust_channel_find(const void *owner, uint64_t key)
{
	struct ust_channel *c;

	for (c = channels; c; c = c->next)
		if (c->owner == owner && c->key == key)
			return c;
	return NULL;
}

unsigned int ust_channels_enabled_of(const void *owner, struct ust_channel **out,
				     unsigned int max)
{
	struct ust_channel *c;
	unsigned int n = 0;

	for (c = channels; c && n < max; c = c->next)
		if (c->owner == owner && c->enabled != UST_CHAN_OFF)
			out[n++] = c;
	return n;
}

unsigned int ust_channel_count(void)
{
	struct ust_channel *c;
	unsigned int n = 0;

	for (c = channels; c; c = c->next)
		n++;
	return n;
}

uint64_t ust_channels_events_lost(void)
{
	uint64_t lost = 0;
	struct ust_channel *c;
	uint32_t i;

	for (c = channels; c; c = c->next)
		for (i = 0; i < c->nr_owned; i++)
			lost += ltt_rb_events_lost(&c->streams[i].rb);
	return lost;
}

struct ust_channel *ust_channel_find_target(const void *owner, uint64_t key)
{
	if (key & LTT_APP_NOTIFIER_KEY_BIT)
		return ust_notifier_find(owner, key);
	return ust_channel_find(owner, key);
}

/* @chan's hint_streams (ust.h) under the getcpu plugin of the moment; ust lock held */
static void channel_hint_cpu(struct ust_channel *chan)
{
	uint32_t n = __atomic_load_n(&ust_getcpu_fn, __ATOMIC_RELAXED) ? 0 : chan->nr_streams;

	__atomic_store_n(&chan->hint_streams, n, __ATOMIC_RELAXED);
}

int ust_channel_insert(struct ust_channel *chan)
{
	if (chan->key & LTT_APP_NOTIFIER_KEY_BIT)
		return -EINVAL;
	if (ust_channel_find(chan->owner, chan->key))
		return -EEXIST;
	channel_hint_cpu(chan);
	chan->next = channels;
	channels = chan;
	return 0;
}

/*
 * The getcpu plugin (getcpu.c): set, then every channel told under the
 * ust lock, as ust_channel_insert() tells a new one, so that no channel
 * is left taking its CPU hints from RDTSCP while the plugin is set.
 */
void ltt_ust_getcpu_set(int (*getcpu)(void))
{
	struct ust_channel *c;

	ust_lock();
	__atomic_store_n(&ust_getcpu_fn, getcpu, __ATOMIC_RELAXED);
	for (c = channels; c; c = c->next)
		channel_hint_cpu(c);
	ust_unlock();
}

int ust_channel_add(struct ust_channel *chan)
{
	int ret;

	ust_lock();
	ret = ust_channel_insert(chan);
	ust_unlock();
	if (ret)
		ust_channel_destroy(chan);
	return ret;
}

int ust_channel_remove(struct ust_channel *chan, struct ust_retire *retire)
{
	struct ust_channel **pc;

	ust_channel_set_enabled(chan, false);
	if (ust_events_drop_channel(chan, retire)) {
		ust_events_refresh();
		return -ENOMEM;
	}
	for (pc = &channels; *pc; pc = &(*pc)->next) {
		if (*pc == chan) {
			*pc = chan->next;
			break;
		}
	}
	chan->retired_next = retire->channels;
	retire->channels = chan;
	return 0;
}

unsigned int ust_channels_remove_owner(const void *owner, struct ust_retire *retire)
{
	struct ust_channel *c, *next;
	unsigned int failed = 0;

	for (c = channels; c; c = next) {
		next = c->next;
		if (c->owner == owner && ust_channel_remove(c, retire))
			failed++;
	}
	return failed;
}

void ust_channels_fork_child(void)
{
	struct ust_channel *c, *next;

	for (c = channels; c; c = next) {
		next = c->next;
		ust_channel_destroy(c);
	}
	channels = NULL;
}
