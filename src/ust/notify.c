// SPDX-License-Identifier: LGPL-2.1-only
/*
 * notify.c - notifiers: a trigger's event-rule-matches condition, evaluated
 * in the program (NOTIFIER_ADD, app-proto.h).
 *
 * A notifier embeds a channel that is never recorded into
 * (UST_CHAN_NOTIFY, no stream), so that the events its rule takes point
 * to it as they point to channels: EVENT_FILTER, EVENT_ENABLE and
 * EVENT_DISABLE name it by its key (ust_channel_find_target()), the
 * registry shows it in the call view only (a notifier needs the event's
 * arguments), and the probe's slow walk runs its filters.  When they
 * accept, ust_notify() sends one message on the daemon's socket, an
 * AF_UNIX SOCK_SEQPACKET pair (one record a message): the event's name
 * and the captured values, resolved by field name against the event's
 * encoded description.
 *
 * ust_notify() runs in the probe: in any thread, in signal handlers,
 * inside the read-side critical section.  It builds the message on its
 * stack (LTT_APP_NOTIFY_MAX bytes, one record: sent whole or not at all),
 * allocates nothing, takes no lock and makes one system call, send()
 * with MSG_DONTWAIT | MSG_NOSIGNAL: it never waits, and a daemon whose
 * end is closed (it crashed, it dropped the program) costs an error,
 * never a SIGPIPE.  A message the socket cannot take (full: the daemon is
 * behind; or its end closed) is dropped and counted; the next message
 * sent carries the count, so that the daemon knows how many it missed.
 *
 * What no later message carried is flushed when the notifier goes: after
 * its grace period (NOTIFIER_REMOVE, the daemon's connection ending:
 * ust_notifiers_flush_retired()) and at exit (ust_notifiers_stop(), then
 * ust_notifiers_flush_all()), as a count-only message, the event name
 * empty and no capture, sent with room made for it past the socket's
 * usual limit (raise_sndbuf(): a daemon that reads nothing for a while
 * still gets it) and a short bounded wait for room (FLUSH_WAIT_MS).
 * So, for a notifier, messages received plus the counts they carry is
 * every matching event emitted, but in the races told at
 * ust_notifiers_flush_all().  A fork()ed child closes its copies without
 * flushing: the counts are its parent's.
 *
 * Notifiers are a list of their own, under the ust lock: what walks the
 * channels (the state dump, exit's quiesce, events_lost) never meets one.
 * One is freed only after a grace period once no event points to it
 * (struct ust_retire), so a probe that still sees it sends on an open fd.
 *
 * A counter (COUNTER_ADD: a trigger's incr-map-value) is a notifier with
 * no socket and a mapped counter area instead: ust_notify() adds 1 to its
 * CPU's counter of the slot the event was enabled with (its id), with an
 * atomic add, while the area's active word is set, and sends nothing.
 * The area stays mapped until the notifier is freed, after its grace
 * period, so a probe that still sees it adds to mapped memory.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "common/base/sock.h"
#include "common/model/trigger.h"
#include "common/proto/app-proto.h"
#include "common/proto/trigger-proto.h"
#include "ust/notify.h"
#include "ust/ust.h"

struct ust_notifier {
	struct ust_notifier *next;		/* the list, ust lock */
	struct ust_notifier *retired_next;	/* in a struct ust_retire */
	int fd;					/* the socket, O_NONBLOCK; -1: a counter */
	uint64_t *area;				/* a counter's mapping, NULL */
	size_t area_len;
	uint32_t nr_cpus, nr_slots;		/* a counter's layout */
	size_t stride;				/* u64 counters of a CPU's row */
	uint64_t dropped;			/* messages lost since the last sent (atomic) */
	uint32_t nr_captures;
	struct ltt_capture_expr *captures;	/* parsed once, at NOTIFIER_ADD */
	bool minor8;				/* the daemon takes ARRAY and enum captures */
	/* last: a channel ends in its array of streams (none here) */
	struct ust_channel chan;
};

static struct ust_notifier *notifiers;	/* under the ust lock */
static bool stopped;			/* exit: ust_notify() sends and counts nothing (atomic) */

static struct ust_notifier *of_chan(const struct ust_channel *chan)
{
	return (struct ust_notifier *)((uintptr_t)chan - offsetof(struct ust_notifier, chan));
}

/* ---- the objects (ust lock, but create) ---- */

/* The int socket option @opt (SOL_SOCKET) of @fd, or -1. */
static int sockopt_int(int fd, int opt)
{
	socklen_t len = sizeof(int);
	int v;

	if (getsockopt(fd, SOL_SOCKET, opt, &v, &len) || len != sizeof(int))
		return -1;
	return v;
}

/*
 * Is @fd a connected AF_UNIX SOCK_SEQPACKET socket (the program's end of
 * the daemon's pair)?  Then make it non-blocking (a probe must never wait
 * for the daemon; each send() says MSG_DONTWAIT too) and close-on-exec.
 * 0 or -EINVAL.
 */
static int socket_check(int fd)
{
	struct sockaddr_storage peer;
	socklen_t len = sizeof(peer);
	struct stat st;
	int fl;

	if (fd < 0 || fstat(fd, &st) || !S_ISSOCK(st.st_mode))
		return -EINVAL;
	if (sockopt_int(fd, SO_DOMAIN) != AF_UNIX || sockopt_int(fd, SO_TYPE) != SOCK_SEQPACKET ||
	    getpeername(fd, (struct sockaddr *)&peer, &len))
		return -EINVAL;		/* another family or type, or not connected */
	fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return -EINVAL;
	if (!(fl & O_NONBLOCK) && fcntl(fd, F_SETFL, fl | O_NONBLOCK))
		return -EINVAL;
	if (fcntl(fd, F_SETFD, FD_CLOEXEC))
		return -EINVAL;
	return 0;
}

int ust_notifier_create(const void *owner, uint64_t key, uint32_t nr, const char *const *captures,
			bool minor8, int fd, struct ust_notifier **ret)
{
	struct ust_notifier *n = NULL;
	int err = -EINVAL;
	uint32_t i;

	if (!(key & LTT_APP_NOTIFIER_KEY_BIT) || nr > LTT_TRIGGER_CAPTURES_LIMIT ||
	    (nr && !captures) || socket_check(fd))
		goto fail;
	err = -ENOMEM;
	n = calloc(1, sizeof(*n));
	if (!n || (nr && !(n->captures = calloc(nr, sizeof(*n->captures)))))
		goto fail;
	for (i = 0; i < nr; i++) {
		if (!captures[i] || ltt_capture_parse(captures[i], &n->captures[i])) {
			ust_debug("notifier %llx: capture \"%s\" refused", (unsigned long long)key,
				  captures[i] ? captures[i] : "(null)");
			err = -EINVAL;
			goto fail;
		}
	}
	n->fd = fd;
	ltt_ust_fd_own(fd);
	n->nr_captures = nr;
	n->minor8 = minor8;
	n->chan.owner = owner;
	n->chan.key = key;
	n->chan.enabled = UST_CHAN_NOTIFY;	/* for good: no CHANNEL_* reaches it */
	*ret = n;
	return 0;
fail:
	if (n)
		free(n->captures);
	free(n);
	if (fd >= 0)
		close(fd);
	return err;
}

static struct ust_notifier *notifier_find(const void *owner, uint64_t key)
{
	struct ust_notifier *n;

	for (n = notifiers; n; n = n->next)
		if (n->chan.owner == owner && n->chan.key == key)
			return n;
	return NULL;
}

int ust_notifier_insert(struct ust_notifier *n)
{
	if (notifier_find(n->chan.owner, n->chan.key))
		return -EEXIST;
	n->next = notifiers;
	notifiers = n;
	return 0;
}

int ust_notifier_add(struct ust_notifier *n)
{
	int ret;

	ust_lock();
	ret = ust_notifier_insert(n);
	ust_unlock();
	if (ret)
		ust_notifier_destroy(n);
	return ret;
}

struct ust_channel *ust_notifier_find(const void *owner, uint64_t key)
{
	struct ust_notifier *n = notifier_find(owner, key);

	return n ? &n->chan : NULL;
}

/* Drop @n's rules, unlink it and queue it on @retire; 0 or -ENOMEM. */
static int notifier_remove(struct ust_notifier *n, struct ust_retire *retire)
{
	struct ust_notifier **pn;

	if (ust_events_drop_channel(&n->chan, retire))
		return -ENOMEM;
	for (pn = &notifiers; *pn; pn = &(*pn)->next) {
		if (*pn == n) {
			*pn = n->next;
			break;
		}
	}
	n->retired_next = retire->notifiers;
	retire->notifiers = n;
	return 0;
}

int ust_notifier_remove(const void *owner, uint64_t key, struct ust_retire *retire)
{
	struct ust_notifier *n = notifier_find(owner, key);

	return n ? notifier_remove(n, retire) : -ENOENT;
}

unsigned int ust_notifiers_remove_owner(const void *owner, struct ust_retire *retire)
{
	struct ust_notifier *n, *next;
	unsigned int failed = 0;

	for (n = notifiers; n; n = next) {
		next = n->next;
		if (n->chan.owner == owner && notifier_remove(n, retire))
			failed++;
	}
	return failed;
}

/* Is @fd a memfd sealed against shrinking of @len bytes at least?  0 or -EINVAL. */
static int area_check(int fd, size_t len)
{
	int seals = fcntl(fd, F_GET_SEALS);
	struct stat st;

	if (seals < 0 || !(seals & F_SEAL_SHRINK) || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size < 0 || (uint64_t)st.st_size < len)
		return -EINVAL;
	return 0;
}

int ust_counter_create(const void *owner, uint64_t key, uint32_t nr_cpus, uint32_t nr_slots,
		       int fd, struct ust_notifier **ret)
{
	size_t len = ltt_app_counter_size(nr_cpus, nr_slots);
	struct ust_notifier *n = NULL;
	void *area = MAP_FAILED;
	int err = -EINVAL;

	if (!(key & LTT_APP_NOTIFIER_KEY_BIT) || !nr_cpus || nr_cpus > LTT_APP_COUNTER_MAX_CPUS ||
	    !nr_slots ||
	    (uint64_t)nr_cpus * ltt_app_counter_stride(nr_slots) > LTT_APP_COUNTER_MAX_CELLS ||
	    fd < 0 || area_check(fd, len))
		goto fail;
	area = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	err = area == MAP_FAILED ? -errno : -ENOMEM;
	if (area == MAP_FAILED || !(n = calloc(1, sizeof(*n))))
		goto fail;
	close(fd);
	n->fd = -1;
	n->area = area;
	n->area_len = len;
	n->nr_cpus = nr_cpus;
	n->nr_slots = nr_slots;
	n->stride = ltt_app_counter_stride(nr_slots);
	n->chan.owner = owner;
	n->chan.key = key;
	n->chan.enabled = UST_CHAN_NOTIFY;
	*ret = n;
	return 0;
fail:
	if (area != MAP_FAILED)
		munmap(area, len);
	if (fd >= 0)
		close(fd);
	return err;
}

void ust_notifier_destroy(struct ust_notifier *n)
{
	if (!n)
		return;
	if (n->area)
		munmap(n->area, n->area_len);
	else
		ust_fd_close(n->fd);
	free(n->captures);
	free(n);
}

struct ust_notifier *ust_notifier_next_retired(const struct ust_notifier *n)
{
	return n->retired_next;
}

void ust_notifiers_fork_child(void)
{
	struct ust_notifier *n, *next;

	for (n = notifiers; n; n = next) {
		next = n->next;
		ust_notifier_destroy(n);
	}
	notifiers = NULL;
}

/* ---- the message (fast path: no lock, no allocation) ---- */

/*
 * The message is built in the caller's stack buffer, a fixed ltt_wbuf:
 * a put that does not fit sets its error, and the message is then not
 * sent (what the room left for each capture makes that impossible, but a
 * cut message must never reach the socket).
 */

/* A capture other than a string takes at most this: type and u64. */
#define CAPTURE_MAX_FIXED 9

/*
 * The head of a message: @key, @event's name and the number of captures
 * that follow; its length and count are sealed last (ltt_app_seal_notify()).
 */
static void put_head(struct ltt_wbuf *w, uint64_t key, const char *event, uint32_t nr_captures)
{
	struct ltt_app_notify m;	/* its captures[] are not read: not set */

	m.key = key;
	m.dropped = 0;		/* the count, taken just before the send */
	m.event = event;
	m.nr_captures = nr_captures;
	ltt_app_put_notify_head(w, &m);
}

/*
 * Send @len bytes from @buf as one record on @fd, without waiting and
 * without SIGPIPE.  0, -EAGAIN (full), -EIO (cut: a SOCK_SEQPACKET send
 * never is) or -errno (-EPIPE, -ECONNRESET...: the daemon's end closed).
 * errno is left changed.
 */
static int send_msg(int fd, const void *buf, size_t len)
{
	ssize_t w = send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);

	if (w == (ssize_t)len)
		return 0;
	if (w >= 0)
		return -EIO;
	return errno == EWOULDBLOCK ? -EAGAIN : -errno;
}

static void cap_unavailable(struct ltt_wbuf *w)
{
	const struct ltt_capture_desc c = { .type = LTT_CAPTURE_UNAVAILABLE };

	ltt_capture_put(w, &c);
}

static void cap_bits(struct ltt_wbuf *w, uint8_t type, uint64_t bits)
{
	const struct ltt_capture_desc c = { .type = type, .bits = bits };

	ltt_capture_put(w, &c);
}

/* An enum field's value: a number marked an enum's (LTTng's clients tell them apart). */
static void cap_enum(struct ltt_wbuf *w, uint8_t type, uint64_t bits)
{
	const struct ltt_capture_desc c = { .type = type, .bits = bits, .is_enum = true };

	ltt_capture_put(w, &c);
}

/*
 * A STRING capture of @s (@n bytes, or up to a NUL among them), cut to
 * what a captured string keeps and to what the message has room for
 * before @end, on a UTF-8 character's boundary: ltt_capture_put()'s form
 * of the cut string, written from its bytes as they are.
 */
static void cap_string(struct ltt_wbuf *w, const uint8_t *end, const char *s, size_t n)
{
	const uint8_t *at = w->data + w->len;
	size_t room = end > at ? (size_t)(end - at) : 0, max;
	const char *nul;

	if (!s) {
		s = "";
		n = 0;
	}
	nul = memchr(s, '\0', n);
	if (nul)
		n = (size_t)(nul - s);
	if (room < 6) {		/* type, length, NUL: can't happen (CAPTURE_MAX_FIXED) */
		w->err = -ENOSPC;
		return;
	}
	max = room - 6 < LTT_CAPTURE_STR_MAX - 1 ? room - 6 : LTT_CAPTURE_STR_MAX - 1;
	if (n > max) {
		n = max;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;	/* not inside a character */
	}
	ltt_wbuf_put_u8(w, LTT_CAPTURE_STRING);
	ltt_wbuf_put_u32(w, (uint32_t)n + 1);
	ltt_wbuf_put_bytes(w, s, n);
	ltt_wbuf_put_u8(w, 0);
}

/*
 * The integer of @size bytes at @p (big endian when @big, else the host's
 * order), sign-extended when @is_signed.
 */
static uint64_t load_int(const void *p, uint8_t size, bool is_signed, bool big)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1:
		memcpy(&u8, p, 1);
		return is_signed ? (uint64_t)(int64_t)(int8_t)u8 : u8;
	case 2:
		memcpy(&u16, p, 2);
		u16 = big ? be16toh(u16) : u16;
		return is_signed ? (uint64_t)(int64_t)(int16_t)u16 : u16;
	case 4:
		memcpy(&u32, p, 4);
		u32 = big ? be32toh(u32) : u32;
		return is_signed ? (uint64_t)(int64_t)(int32_t)u32 : u32;
	default:
		memcpy(&u64, p, 8);
		return big ? be64toh(u64) : u64;
	}
}

static bool int_size(uint8_t size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* One field of an event's description: what a capture needs of it. */
struct field {
	uint32_t idx;		/* its argument's index */
	uint8_t type;		/* enum ltt_ust_type */
	uint8_t flags;		/* LTT_UST_FIELD_* */
	uint8_t size;
	uint8_t is_signed;
	uint8_t encoding;
};

/*
 * An integer of field @f (or one of its elements) at @p; NULL: zero.  An
 * enum's when @is_enum.
 */
static void cap_int(struct ltt_wbuf *w, const void *p, const struct field *f, bool is_enum)
{
	uint64_t v = p ? load_int(p, f->size, f->is_signed,
				  f->flags & LTT_UST_FIELD_BIG_ENDIAN) : 0;

	(is_enum ? cap_enum : cap_bits)(w, f->is_signed ? LTT_CAPTURE_SIGNED :
							  LTT_CAPTURE_UNSIGNED, v);
}

/*
 * Field @name of the event whose description (app-proto.h's encoding) is
 * @enc: a walk with the codec's bounded cursor, which allocates nothing.
 * True when found, with its layout in @ret.
 */
static bool field_find(const uint8_t *enc, size_t len, const char *name, struct field *ret)
{
	struct ltt_rbuf r;
	uint32_t nr, i, e, nr_entries;
	const char *fname;

	ltt_rbuf_init(&r, enc, len);
	ltt_rbuf_get_str(&r, SIZE_MAX);		/* the event's name */
	ltt_rbuf_get_u32(&r);			/* its log level */
	nr = ltt_rbuf_get_u32(&r);
	for (i = 0; i < nr && !r.err; i++) {
		fname = ltt_rbuf_get_str(&r, SIZE_MAX);
		ret->type = ltt_rbuf_get_u8(&r);
		ret->flags = (uint8_t)(ret->type >> LTT_APP_FIELD_FLAGS_SHIFT);
		ret->type &= LTT_APP_FIELD_TYPE_MASK;
		ret->size = ltt_rbuf_get_u8(&r);
		ret->is_signed = ltt_rbuf_get_u8(&r);
		ltt_rbuf_get_u8(&r);		/* base */
		ret->encoding = ltt_rbuf_get_u8(&r);
		ltt_rbuf_get_u32(&r);		/* length: the argument has the count */
		if (r.err)
			return false;
		if (!strcmp(fname, name)) {
			ret->idx = i;
			return true;
		}
		nr_entries = ltt_rbuf_get_u32(&r);
		for (e = 0; e < nr_entries && !r.err; e++) {
			ltt_rbuf_get_u64(&r);
			ltt_rbuf_get_u64(&r);
			ltt_rbuf_get_str(&r, SIZE_MAX);
		}
		ltt_rbuf_get_str(&r, SIZE_MAX);	/* enum_name */
	}
	return false;
}

/* FLOAT: the double's bits, a float widened. */
static void cap_float(struct ltt_wbuf *w, const void *p, const struct field *fl)
{
	/* its bits as an integer of its size, big endian ones swapped */
	uint64_t bits = load_int(p, fl->size, false, fl->flags & LTT_UST_FIELD_BIG_ENDIAN);
	uint32_t u32 = (uint32_t)bits;
	double d;
	float f;

	if (fl->size == 4) {
		memcpy(&f, &u32, 4);
		d = f;
		memcpy(&bits, &d, 8);
	}
	cap_bits(w, LTT_CAPTURE_FLOAT, bits);
}

/*
 * The ARRAY of argument @a's @a->n integers (field @f): what LTTng writes
 * for a NAME capture of an array or sequence of numbers.  One that does not
 * fit whole before @end is UNAVAILABLE, as LTTng writes nil for a capture
 * its buffer has no room for.
 */
static void cap_array(struct ltt_wbuf *w, const uint8_t *end, const struct ltt_ust_arg *a,
		      const struct field *f)
{
	const uint8_t *at = w->data + w->len;
	size_t room = end > at ? (size_t)(end - at) : 0;
	uint32_t i;

	if (room < 5 + (size_t)a->n * CAPTURE_MAX_FIXED) {
		cap_unavailable(w);
		return;
	}
	ltt_wbuf_put_u8(w, LTT_CAPTURE_ARRAY);
	ltt_wbuf_put_u32(w, a->n);
	for (i = 0; i < a->n; i++)
		cap_int(w, a->p ? (const uint8_t *)a->p + (size_t)i * f->size : NULL, f, false);
}

/* NAME or NAME[INDEX]: the value of the call's argument for that field. */
static void cap_payload(struct ltt_wbuf *w, const uint8_t *end, const struct ltt_capture_expr *e,
			const struct ust_targets *ts, const struct ltt_ust_call *call, bool minor8)
{
	const struct ltt_ust_arg *a;
	struct field f;
	bool whole = e->index < 0;

	if (!call || !field_find(ts->enc, ts->enc_len, e->field, &f) || f.idx >= call->nr_args) {
		cap_unavailable(w);
		return;
	}
	a = &call->args[f.idx];
	switch (f.type) {
	case LTT_UST_TYPE_INTEGER:
	case LTT_UST_TYPE_ENUM:
		if (whole && int_size(f.size) && a->p) {
			/* an enum's to a daemon that tells them (minor 8) */
			cap_int(w, a->p, &f, f.type == LTT_UST_TYPE_ENUM && minor8);
			return;
		}
		break;
	case LTT_UST_TYPE_FLOAT:
		if (whole && (f.size == 4 || f.size == 8) && a->p) {
			cap_float(w, a->p, &f);
			return;
		}
		break;
	case LTT_UST_TYPE_STRING:
		if (whole) {
			cap_string(w, end, a->p, a->n);
			return;
		}
		break;
	case LTT_UST_TYPE_ARRAY:
	case LTT_UST_TYPE_SEQUENCE:
		/* text (1-byte UTF-8 elements) is a string whole */
		if (whole && f.size == 1 && f.encoding == LTT_UST_ENCODING_UTF8) {
			cap_string(w, end, a->p, a->n);
			return;
		}
		if (!whole && (uint64_t)e->index < a->n && int_size(f.size)) {
			cap_int(w, a->p ? (const uint8_t *)a->p + (size_t)e->index * f.size : NULL,
				&f, false);
			return;
		}
		if (whole && minor8 && int_size(f.size)) {
			cap_array(w, end, a, &f);
			return;
		}
		break;
	default:
		break;
	}
	cap_unavailable(w);	/* a type the expression does not fit */
}

/* $ctx.NAME: the value a filter reads. */
static void cap_context(struct ltt_wbuf *w, const uint8_t *end, const struct ltt_capture_expr *e)
{
	struct ltt_filter_value v;

	if (ust_filter_read_ctx(e->ctx, &v)) {
		cap_unavailable(w);	/* unknown: /proc could not tell */
		return;
	}
	switch (v.type) {
	case LTT_FTYPE_S64:
		cap_bits(w, LTT_CAPTURE_SIGNED, (uint64_t)v.v.s);
		break;
	case LTT_FTYPE_U64:
		cap_bits(w, LTT_CAPTURE_UNSIGNED, v.v.u);
		break;
	case LTT_FTYPE_STR:
		cap_string(w, end, v.v.str.p, v.v.str.n);
		break;
	default:
		cap_unavailable(w);
		break;
	}
}

/* Counter @n took the event of slot @slot: one more, on this CPU's row. */
static void count(const struct ust_notifier *n, uint32_t slot)
{
	const volatile uint32_t *active = (const volatile uint32_t *)n->area;
	int saved_errno = errno;
	int cpu;

	if (slot >= n->nr_slots || !__atomic_load_n(active, __ATOMIC_RELAXED))
		return;
	cpu = sched_getcpu();
	if (cpu < 0)
		cpu = 0;
	__atomic_fetch_add(&n->area[LTT_APP_COUNTER_HDR / 8 +
				    (size_t)((uint32_t)cpu % n->nr_cpus) * n->stride + slot],
			   1, __ATOMIC_RELAXED);
	errno = saved_errno;
}

void ust_notify(const struct ust_channel *chan, uint32_t id, const struct ust_targets *ts,
		const struct ltt_ust_call *call)
{
	struct ust_notifier *n = of_chan(chan);
	uint8_t buf[LTT_APP_NOTIFY_MAX];
	uint64_t dropped;
	struct ltt_rbuf r;
	struct ltt_wbuf w;
	const char *event;
	uint32_t i;
	int saved_errno = errno;

	if (__atomic_load_n(&stopped, __ATOMIC_RELAXED))
		return;		/* exit: the counts are flushed, nothing more goes */
	if (n->area) {
		count(n, id);
		return;
	}
	ltt_rbuf_init(&r, ts->enc, ts->enc_len);
	event = ltt_rbuf_get_str(&r, LTT_APP_NAME_MAX);
	if (r.err)
		return;		/* a description the daemon refused: it can't enable it */
	ltt_wbuf_init_fixed(&w, buf, sizeof(buf));
	put_head(&w, n->chan.key, event, n->nr_captures);
	/* each capture leaves room for those after it: a string is cut instead */
	for (i = 0; i < n->nr_captures; i++) {
		const struct ltt_capture_expr *e = &n->captures[i];
		const uint8_t *end = buf + sizeof(buf) - CAPTURE_MAX_FIXED * (n->nr_captures - 1 - i);

		if (e->kind == LTT_CAPTURE_KIND_CONTEXT)
			cap_context(&w, end, e);
		else if (e->kind == LTT_CAPTURE_KIND_UNAVAILABLE)
			cap_unavailable(&w);
		else
			cap_payload(&w, end, e, ts, call, n->minor8);
	}
	dropped = __atomic_exchange_n(&n->dropped, 0, __ATOMIC_RELAXED);
	if (!w.err) {
		ltt_app_seal_notify(buf, w.len, dropped);
		if (!send_msg(n->fd, buf, w.len))
			goto out;
	}
	/* full (EAGAIN), or the daemon's end closed: lost, and those it carried */
	__atomic_fetch_add(&n->dropped, dropped + 1, __ATOMIC_RELAXED);
out:
	errno = saved_errno;
}

/* ---- the final count (the notifier goes, or the program) ---- */

/* How long the flush of a set of notifiers may wait for room, in all. */
#define FLUSH_WAIT_MS 200

/* A count-only message: the head, an empty event name, no capture. */
#define COUNT_MSG_SIZE (4 + 4 + 8 + 8 + 5 + 4)

/* Put @fd's limit back to @before (what SO_SNDBUF read: the kernel doubles what is set). */
static void restore_sndbuf(int fd, int before)
{
	int half = before / 2;

	if (before > 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &half, sizeof(half));
}

/*
 * Room for a count on @fd: a socket the daemon does not read (it is
 * behind, or LTTng's test point paused it) holds as much as its sending
 * end's buffer allows, and the notifications filled it; the count sent
 * last must still get in, or what was dropped would go uncounted.  The
 * limit is raised as far as the system lets any process
 * (net.core.wmem_max, doubled as the kernel does) for that one message;
 * returns the limit to put back (0: none, it was not raised).
 */
static int raise_sndbuf(int fd)
{
	int before, after, want = INT_MAX;
	socklen_t len = sizeof(before);

	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &before, &len) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &want, sizeof(want)))
		return 0;
	len = sizeof(after);
	if (!getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &after, &len) && after >= before)
		return before;
	restore_sndbuf(fd, before);	/* a lower maximum: the limit as it was */
	return 0;
}

/*
 * Send @n's outstanding count, if any, as a count-only message, with room
 * made for it (raise_sndbuf()), waiting for room until @deadline all the
 * same; a count that could not be sent goes back to @n.  No thread may be
 * adding to it: it is the last message.
 */
static void flush_one(struct ust_notifier *n, int64_t deadline)
{
	uint8_t buf[COUNT_MSG_SIZE];
	uint64_t dropped;
	struct ltt_wbuf w;
	int before, ret;

	if (n->fd < 0 || !__atomic_load_n(&n->dropped, __ATOMIC_RELAXED))
		return;
	ltt_wbuf_init_fixed(&w, buf, sizeof(buf));
	put_head(&w, n->chan.key, "", 0);	/* no capture */
	if (w.err || w.len != sizeof(buf))
		return;		/* can't be: COUNT_MSG_SIZE is its size */
	dropped = __atomic_exchange_n(&n->dropped, 0, __ATOMIC_RELAXED);
	if (!dropped)
		return;
	ltt_app_seal_notify(buf, sizeof(buf), dropped);
	before = raise_sndbuf(n->fd);
	/* one record: a SOCK_SEQPACKET send is never partial */
	ret = ltt_io_write_all_until(n->fd, buf, sizeof(buf), deadline);
	restore_sndbuf(n->fd, before);	/* what is queued stays */
	if (ret) {
		__atomic_fetch_add(&n->dropped, dropped, __ATOMIC_RELAXED);
		ust_debug("notifier %llx: %llu dropped notifications not reported: %s",
			  (unsigned long long)n->chan.key, (unsigned long long)dropped,
			  strerror(-ret));
	}
}

/*
 * flush_one() each notifier of the list from @first (linked by next, or
 * by retired_next when @retired), FLUSH_WAIT_MS for them all.
 */
static void flush_list(struct ust_notifier *first, bool retired)
{
	int64_t deadline = ltt_deadline_ms(FLUSH_WAIT_MS);
	struct ust_notifier *n;
	int saved_errno = errno;

	for (n = first; n; n = retired ? n->retired_next : n->next)
		flush_one(n, deadline);
	errno = saved_errno;
}

void ust_notifiers_flush_retired(struct ust_notifier *first)
{
	flush_list(first, true);
}

void ust_notifiers_stop(void)
{
	__atomic_store_n(&stopped, true, __ATOMIC_RELAXED);
}

void ust_notifiers_flush_all(void)
{
	flush_list(notifiers, false);
}

int ust_notifier_dropped(const void *owner, uint64_t key, uint64_t *ret_dropped)
{
	struct ust_notifier *n = notifier_find(owner, key);

	if (!n)
		return -ENOENT;
	*ret_dropped = __atomic_load_n(&n->dropped, __ATOMIC_RELAXED);
	return 0;
}
