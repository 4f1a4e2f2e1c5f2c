// SPDX-License-Identifier: LGPL-2.1-only
/*
 * registry.c - the tracepoints libltt-ust knows: modules, events and the
 * targets each event is recorded into.
 *
 * An event is a name and a description (its fields, its log level: the
 * bytes ltt_app_put_tracepoint() encodes).  Every file that includes a
 * provider's header has its own descriptor of each event, so an event may
 * have many descriptors, in several modules; they share one target array.
 * Two providers of one name with other fields (dlopen()ed libraries) make
 * two events of the name, each with its own targets, event ids and
 * filters; the daemons name each by its layout (ltt_app_layout_of() of its
 * description: app-proto.h, minor 8).  The event keeps its own copy of the
 * description (as encoded for the daemons): descriptors go away with their
 * module (dlclose()), the event does not, so a daemon that was told about
 * it, and its targets, stay valid if the module comes back.
 *
 * Everything here runs under the ust lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define _LGPL_SOURCE

#include "common/proto/app-proto.h"
#include "ust/ust.h"

struct ust_event {
	struct ust_event *hnext;	/* hash chain */
	const char *name;		/* a copy; the library's own: its descriptor's */
	const uint8_t *enc;		/* ltt_app_put_tracepoint(); NULL: event_described() */
	size_t enc_len;
	uint64_t layout;		/* ltt_app_layout_of(enc); 0: not yet */
	uint64_t order;			/* its place in reg.by_order */
	struct ltt_ust_tracepoint **descs;	/* &desc0 until a second one comes */
	size_t nr_descs;
	size_t cap_descs;
	struct ltt_ust_tracepoint *desc0;
	struct ust_target *rules;	/* the authoritative targets */
	uint32_t nr_rules;
	struct ust_targets *published;	/* what descs' priv point to, or NULL */
	struct ust_event_filter *filt;	/* per channel: its programs, or refused */
	uint32_t nr_filt;
	int8_t valid;			/* -1 unknown, 0 refused, 1 accepted */
};

/* The filter of an event on one channel (EVENT_FILTER). */
struct ust_event_filter {
	struct ust_channel *chan;
	struct ust_filters *set;	/* NULL when refused */
	bool refused;			/* the last EVENT_FILTER failed: stays disabled */
};

struct ust_module {
	struct ust_module *next;
	struct ltt_ust_tracepoint *const *start;
	struct ltt_ust_tracepoint *const *stop;
	unsigned int refs;
};

/* The first hash's buckets: the library's 26 events and a program's (256: a page more of heap) */
#define HASH_MIN 64

static struct {
	struct ust_event **buckets;
	size_t nr_buckets;		/* power of two */
	struct ust_event **by_order;	/* registration order */
	uint64_t nr_events;
	size_t cap_order;
	struct ust_module *modules;
} reg;

static size_t hash_name(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h;
}

/* The first event of @name's hash chain, whatever its name; NULL when none. */
static struct ust_event *chain_of(const char *name)
{
	return reg.nr_buckets ? reg.buckets[hash_name(name) & (reg.nr_buckets - 1)] : NULL;
}

/* lib-desc.c's, which lib-desc-gen (linked with this file) writes: it has none */
#pragma weak ust_lib_desc_bytes
#pragma weak ust_lib_desc_off
#pragma weak ust_nr_lib_descs

const uint8_t *ust_lib_desc(const char *name, size_t *ret_len)
{
	uint32_t lo = 0, hi = &ust_nr_lib_descs ? ust_nr_lib_descs : 0;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const uint8_t *d = ust_lib_desc_bytes + ust_lib_desc_off[mid];
		int c = strcmp(name, (const char *)d + 4);

		if (!c) {
			*ret_len = ust_lib_desc_off[mid + 1] - ust_lib_desc_off[mid];
			return d;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* The description of @tp as the daemons receive it; NULL on failure. */
static uint8_t *encode_desc(const struct ltt_ust_tracepoint *tp, size_t *ret_len)
{
	struct ltt_wbuf w;
	uint8_t *copy = NULL;

	ltt_wbuf_init(&w);
	ltt_app_put_tracepoint(&w, tp);
	if (!w.err && w.len) {
		copy = malloc(w.len);
		if (copy) {
			memcpy(copy, w.data, w.len);
			*ret_len = w.len;
		}
	}
	ltt_wbuf_fini(&w);
	return copy;
}

/*
 * @ev's description, if desc_attach() left it for later: its first
 * descriptor is the library's own (never removed), described when the
 * library was built (ust_lib_desc()), else made now; and with @layout its
 * layout, hashed when first asked for (a report needs none: the daemon
 * hashes what it gets).  False: out of memory, the event is not reported
 * (tried again at the next report).
 */
static bool event_described(struct ust_event *ev, bool layout)
{
	if (!ev->enc && ev->nr_descs)
		ev->enc = ust_lib_desc(ev->name, &ev->enc_len);
	if (!ev->enc && ev->nr_descs)
		ev->enc = encode_desc(ev->descs[0], &ev->enc_len);
	if (ev->enc && layout && !ev->layout)
		ev->layout = ltt_app_layout_of(ev->enc, ev->enc_len);
	return ev->enc != NULL;
}

/* The event of @name described by @enc (@len bytes, layout @layout), or NULL. */
static struct ust_event *event_find_desc(const char *name, const uint8_t *enc, size_t len,
					 uint64_t layout)
{
	struct ust_event *ev;

	for (ev = chain_of(name); ev; ev = ev->hnext)
		if (!strcmp(ev->name, name) && event_described(ev, true) && ev->layout == layout &&
		    ev->enc_len == len && !memcmp(ev->enc, enc, len))
			return ev;
	return NULL;
}

static bool event_valid(struct ust_event *ev);

/* The first event of @name the daemons were told of (registration order), or NULL. */
static struct ust_event *event_first_reported(const char *name)
{
	struct ust_event *ev, *first = NULL;

	for (ev = chain_of(name); ev; ev = ev->hnext)
		if (!strcmp(ev->name, name) && event_valid(ev) && (!first || ev->order < first->order))
			first = ev;
	return first;
}

/*
 * Call @fn(ev, @arg) on each event a daemon's command addresses (ust.h:
 * ust_events_enable()).  Returns -ENOENT when none is addressed or @fn
 * returned -ENOENT for each, else the first other error of @fn, or 0.
 */
static int events_apply(const char *name, uint64_t layout, bool every,
			int (*fn)(struct ust_event *ev, void *arg), void *arg)
{
	struct ust_event *ev;
	int ret = -ENOENT, r;

	if (!layout && !every) {
		ev = event_first_reported(name);
		return ev ? fn(ev, arg) : -ENOENT;
	}
	for (ev = chain_of(name); ev; ev = ev->hnext) {
		/* described first: a library event no daemon was told of yet has no layout */
		if (strcmp(ev->name, name) || !event_described(ev, layout != 0) ||
		    (layout && ev->layout != layout))
			continue;
		r = fn(ev, arg);
		/* what one description lacks (a rule it never had) is no failure */
		if (r == -ENOENT)
			continue;
		if (ret == -ENOENT || !ret)
			ret = r;	/* the first result, then the first error */
	}
	return ret;
}

static int grow_hash(void)
{
	size_t n = reg.nr_buckets ? reg.nr_buckets * 2 : HASH_MIN, i;
	struct ust_event **b = calloc(n, sizeof(*b));

	if (!b)
		return -ENOMEM;
	for (i = 0; i < reg.nr_events; i++) {
		struct ust_event *ev = reg.by_order[i];
		size_t h = hash_name(ev->name) & (n - 1);

		ev->hnext = b[h];
		b[h] = ev;
	}
	free(reg.buckets);
	reg.buckets = b;
	reg.nr_buckets = n;
	return 0;
}

/* Room for one more event in both indexes. */
static int reserve_event_slot(void)
{
	if (reg.nr_events >= LTT_APP_MAX_TRACEPOINTS)
		return -ENOSPC;
	if (reg.nr_events >= reg.cap_order) {
		size_t cap = reg.cap_order ? reg.cap_order * 2 : HASH_MIN;
		struct ust_event **o = realloc(reg.by_order, cap * sizeof(*o));

		if (!o)
			return -ENOMEM;
		reg.by_order = o;
		reg.cap_order = cap;
	}
	if (reg.nr_events >= reg.nr_buckets)
		return grow_hash();
	return 0;
}

static struct ust_event *event_create(const struct ltt_ust_tracepoint *tp, uint8_t *enc,
				      size_t enc_len, uint64_t layout, bool checked)
{
	struct ust_event *ev;
	size_t h;

	if (reserve_event_slot())
		return NULL;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return NULL;
	/* the library's descriptors are never removed: no copy of their names */
	ev->name = checked ? tp->name : strdup(tp->name);
	if (!ev->name) {
		free(ev);
		return NULL;
	}
	ev->descs = &ev->desc0;
	ev->cap_descs = 1;
	ev->enc = enc;
	ev->enc_len = enc_len;
	ev->layout = layout;
	ev->valid = checked ? 1 : -1;	/* -1: not checked yet (event_valid()) */
	h = hash_name(ev->name) & (reg.nr_buckets - 1);
	ev->hnext = reg.buckets[h];
	reg.buckets[h] = ev;
	ev->order = reg.nr_events;
	reg.by_order[reg.nr_events++] = ev;
	return ev;
}

/* Any target of @ev in an enabled channel? */
static int event_state(const struct ust_event *ev)
{
	uint32_t i;

	for (i = 0; i < ev->nr_rules; i++)
		if (__atomic_load_n(&ev->rules[i].chan->enabled, __ATOMIC_RELAXED))
			return 1;
	return 0;
}

/* The descriptors' state: event_state(), and whether a target needs the call. */
static int event_full_state(const struct ust_event *ev)
{
	int state = event_state(ev);

	if (state && ev->published && ev->published->fview)
		state |= LTT_UST_STATE_CALL;
	return state;
}

/* Set @tp's state and tell the LTTng-UST layer, whose call sites read their own. */
static void desc_set_state(struct ltt_ust_tracepoint *tp, int state)
{
	tp->state = state;
	if (tp->state_changed)
		tp->state_changed(tp);
}

/*
 * Point @tp at @targets, or at their old view for a descriptor of ABI 1
 * (ust.h), then set its state.
 */
static void desc_publish(struct ltt_ust_tracepoint *tp, struct ust_targets *targets, int state)
{
	if (tp->abi == 1 && targets && targets->oview)
		targets = targets->oview;
	__atomic_store_n(&tp->priv, targets, __ATOMIC_RELEASE);
	desc_set_state(tp, state);
}

/* Sanity of a descriptor handed to us by a program (not validated by
 * the daemon yet: that one sees only what is encoded). */
static bool desc_usable(const struct ltt_ust_tracepoint *tp)
{
	return tp && (tp->abi == LTT_UST_TRACEPOINT_ABI || tp->abi == 1) && tp->name &&
	       (tp->fields || !tp->nr_fields) && tp->nr_fields <= LTT_APP_MAX_FIELDS;
}

/* The event @tp's description joins (a known name, the same bytes) or makes; NULL: no memory. */
static struct ust_event *event_of_desc(const struct ltt_ust_tracepoint *tp, bool checked)
{
	struct ust_event *ev;
	size_t enc_len = 0;
	uint64_t layout;
	uint8_t *enc;

	enc = encode_desc(tp, &enc_len);
	if (!enc)
		return NULL;
	layout = ltt_app_layout_of(enc, enc_len);
	ev = event_find_desc(tp->name, enc, enc_len, layout);
	if (!ev)
		ev = event_create(tp, enc, enc_len, layout, checked);
	if (!ev || ev->enc != enc)	/* an event that has its own, or none */
		free(enc);
	return ev;
}

/*
 * Attach one descriptor to its event (its name and description), creating
 * the event on first sight: a descriptor of a known name with other fields
 * or level makes an event of its own, described to the daemons as such.
 * The library's own (@checked) of a new name are described when first
 * reported: a start without a daemon needs none of them.
 */
static int desc_attach(struct ltt_ust_tracepoint *tp, bool checked)
{
	struct ust_event *ev;

	if (!desc_usable(tp))
		return 0;
	desc_publish(tp, NULL, 0);
	ev = checked && !ust_event_known(tp->name) ? event_create(tp, NULL, 0, 0, true) :
						     event_of_desc(tp, checked);
	if (!ev)
		return -ENOMEM;
	if (ev->nr_descs == ev->cap_descs) {
		size_t cap = ev->cap_descs * 2;
		bool inline_one = ev->descs == &ev->desc0;
		struct ltt_ust_tracepoint **d = realloc(inline_one ? NULL : ev->descs,
							cap * sizeof(*d));

		if (!d)
			return -ENOMEM;
		if (inline_one)
			d[0] = ev->desc0;
		ev->descs = d;
		ev->cap_descs = cap;
	}
	ev->descs[ev->nr_descs++] = tp;
	desc_publish(tp, ev->published, event_full_state(ev));
	return 0;
}

static void desc_detach(struct ltt_ust_tracepoint *tp)
{
	struct ust_event *ev;
	size_t i;

	if (!desc_usable(tp))
		return;
	desc_publish(tp, NULL, 0);
	for (ev = chain_of(tp->name); ev; ev = ev->hnext) {
		if (strcmp(ev->name, tp->name))
			continue;
		for (i = 0; i < ev->nr_descs; i++) {
			if (ev->descs[i] == tp) {
				ev->descs[i] = ev->descs[--ev->nr_descs];
				return;
			}
		}
	}
}

static struct ust_module *module_find(struct ltt_ust_tracepoint *const *start)
{
	struct ust_module *m;

	for (m = reg.modules; m; m = m->next)
		if (m->start == start)
			return m;
	return NULL;
}

int ust_registry_add_module(struct ltt_ust_tracepoint *const *start,
			    struct ltt_ust_tracepoint *const *stop, bool checked)
{
	struct ltt_ust_tracepoint *const *p;
	struct ust_module *m;
	int ret = 0;

	if (!start || stop <= start)
		return 0;
	m = module_find(start);
	if (m) {
		m->refs++;
		return 0;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->start = start;
	m->stop = stop;
	m->refs = 1;
	m->next = reg.modules;
	reg.modules = m;
	/* An allocation failure leaves some events unknown, never half-made. */
	for (p = start; p < stop; p++)
		if (desc_attach(*p, checked))
			ret = -ENOMEM;
	return ret ? ret : 1;
}

void ust_registry_remove_module(struct ltt_ust_tracepoint *const *start)
{
	struct ust_module **pm, *m;
	struct ltt_ust_tracepoint *const *p;

	for (pm = &reg.modules; (m = *pm) != NULL; pm = &m->next)
		if (m->start == start)
			break;
	if (!m || --m->refs)
		return;
	*pm = m->next;
	for (p = m->start; p < m->stop; p++)
		desc_detach(*p);
	free(m);
}

uint64_t ust_registry_nr_events(void)
{
	return reg.nr_events;
}

/*
 * Would the daemon accept @ev's description?  Checked once, with the
 * daemon's own decoder, so that one bad declaration (say an enum label out
 * of its field's range) is left out rather than spoil the whole message.
 * The library's own events are not (ust_registry_add_module()'s @checked):
 * decoding their 26 descriptions was a third of a start's instructions.
 */
static bool event_valid(struct ust_event *ev)
{
	struct ltt_app_tracepoint *tp = NULL;
	struct ltt_rbuf r;

	if (!event_described(ev, false))
		return false;
	if (ev->valid < 0) {
		ltt_rbuf_init(&r, ev->enc, ev->enc_len);
		ev->valid = !ltt_app_get_tracepoint(&r, &tp) && !ltt_rbuf_end(&r);
		free(tp);
		if (!ev->valid)
			ust_debug("event %s: invalid description, not reported", ev->name);
	}
	return ev->valid;
}

uint64_t ust_registry_encode(struct ltt_wbuf *w, uint64_t first, size_t max_bytes,
			     uint32_t *ret_count)
{
	uint64_t i = first;
	uint32_t count = 0;

	for (; i < reg.nr_events; i++) {
		struct ust_event *ev = reg.by_order[i];

		if (!event_valid(ev))
			continue;
		if (w->len + ev->enc_len > max_bytes) {
			if (!count) {
				ust_debug("event %s: description too large to send", ev->name);
				i++;
			}
			break;
		}
		ltt_wbuf_put_bytes(w, ev->enc, ev->enc_len);
		count++;
	}
	*ret_count = count;
	return i;
}

static struct ust_event_filter *filter_find(const struct ust_event *ev,
					    const struct ust_channel *chan)
{
	uint32_t i;

	for (i = 0; i < ev->nr_filt; i++)
		if (ev->filt[i].chan == chan)
			return &ev->filt[i];
	return NULL;
}

static struct ust_targets *targets_alloc(uint32_t nr, bool call)
{
	struct ust_targets *t = malloc(sizeof(*t) + nr * sizeof(t->t[0]));

	if (t) {
		t->retired_next = NULL;
		t->nr = nr;
		t->call = call;
		t->fview = NULL;
		t->oview = NULL;
	}
	return t;
}

void ust_targets_free(struct ust_targets *t)
{
	if (t) {
		free(t->fview);
		free(t->oview);
	}
	free(t);
}

/* What the probe must pass for @ev to be recorded by rule @i. */
#define NEED_ARGS 1u	/* the channel filters @ev, or is a notifier's */
#define NEED_IP 2u	/* the channel records the ip context */

static unsigned int rule_needs(const struct ust_event *ev, uint32_t i)
{
	const struct ust_channel *chan = ev->rules[i].chan;
	const struct ust_event_filter *f = filter_find(ev, chan);

	/* a notifier captures the arguments: the call view only, filtered or not */
	if (chan->enabled == UST_CHAN_NOTIFY)
		return NEED_ARGS;
	return (f && f->set ? NEED_ARGS : 0) | (chan->ctx_ip ? NEED_IP : 0);
}

/*
 * A view of @ev's rules (ust.h): the targets whose needs meet @hide are
 * shown on ust_chan_hidden; those of the call view keep their filters.
 */
static struct ust_targets *view_build(const struct ust_event *ev, unsigned int hide, bool call)
{
	struct ust_targets *t = targets_alloc(ev->nr_rules, call);
	const struct ust_event_filter *f;
	uint32_t i;

	if (!t)
		return NULL;
	t->enc = ev->enc;
	t->enc_len = ev->enc_len;
	for (i = 0; i < ev->nr_rules; i++) {
		t->t[i] = ev->rules[i];
		f = call ? filter_find(ev, ev->rules[i].chan) : NULL;
		t->t[i].filters = f ? f->set : NULL;
		if (rule_needs(ev, i) & hide)
			t->t[i].chan = &ust_chan_hidden;
	}
	return t;
}

/*
 * The published copy of @ev's rules: the plain view, with the call view
 * when a target needs the call and the old view when one needs the call
 * site (ust.h); NULL on failure.
 */
static struct ust_targets *targets_build(const struct ust_event *ev)
{
	struct ust_targets *t = view_build(ev, NEED_ARGS | NEED_IP, false);
	unsigned int needs = 0;
	uint32_t i;

	if (!t)
		return NULL;
	for (i = 0; i < ev->nr_rules; i++)
		needs |= rule_needs(ev, i);
	if (needs) {
		t->fview = view_build(ev, 0, true);
		if (!t->fview)
			goto fail;
	}
	if (needs & NEED_IP) {
		t->oview = view_build(ev, NEED_ARGS, false);
		if (!t->oview)
			goto fail;
	}
	return t;
fail:
	ust_targets_free(t);
	return NULL;
}

/* Publish a fresh copy of @ev's rules to its descriptors; retire the old. */
static int event_republish(struct ust_event *ev, struct ust_retire *retire)
{
	struct ust_targets *t = NULL, *old = ev->published;
	int state;
	size_t i;

	if (ev->nr_rules) {
		t = targets_build(ev);
		if (!t)
			return -ENOMEM;
	}
	ev->published = t;
	state = event_full_state(ev);
	for (i = 0; i < ev->nr_descs; i++)
		desc_publish(ev->descs[i], t, state);
	if (old) {
		old->retired_next = retire->targets;
		retire->targets = old;
	}
	return 0;
}

static int rule_index(const struct ust_event *ev, const struct ust_channel *chan)
{
	uint32_t i;

	for (i = 0; i < ev->nr_rules; i++)
		if (ev->rules[i].chan == chan)
			return (int)i;
	return -1;
}

/* Can every descriptor of @ev pass its arguments (to a filter, a notifier)? */
static bool event_filterable(const struct ust_event *ev)
{
	size_t i;

	for (i = 0; i < ev->nr_descs; i++)
		if (ev->descs[i]->abi < 2)
			return false;
	return true;
}

int ust_event_enable(struct ust_event *ev, struct ust_channel *chan, uint32_t id,
		     struct ust_retire *retire)
{
	int i = rule_index(ev, chan), ret;
	const struct ust_event_filter *f = filter_find(ev, chan);
	struct ust_target *r;

	if (f && f->refused)
		return -EINVAL;	/* its filter was refused: it stays disabled */
	if (chan->enabled == UST_CHAN_NOTIFY && !event_filterable(ev)) {
		ust_debug("event %s: declared with a header too old to notify", ev->name);
		return -EOPNOTSUPP;
	}
	if (i >= 0) {
		uint32_t old = ev->rules[i].id;

		if (old == id)
			return 0;
		ev->rules[i].id = id;
		ret = event_republish(ev, retire);
		if (ret)
			ev->rules[i].id = old;
		return ret;
	}
	r = realloc(ev->rules, (ev->nr_rules + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	ev->rules = r;
	r[ev->nr_rules].chan = chan;
	r[ev->nr_rules].id = id;
	r[ev->nr_rules].filters = NULL;
	ev->nr_rules++;
	ret = event_republish(ev, retire);
	if (ret)
		ev->nr_rules--;
	return ret;
}

int ust_event_disable(struct ust_event *ev, struct ust_channel *chan, struct ust_retire *retire)
{
	int i = rule_index(ev, chan), ret;
	struct ust_target saved;

	if (i < 0)
		return -ENOENT;
	saved = ev->rules[i];
	ev->rules[i] = ev->rules[ev->nr_rules - 1];
	ev->nr_rules--;
	ret = event_republish(ev, retire);
	if (ret) {
		ev->rules[ev->nr_rules++] = ev->rules[i];
		ev->rules[i] = saved;
	}
	return ret;
}

/* Forget @ev's filter entry on @chan (its set retired); no republish. */
static void filter_forget(struct ust_event *ev, struct ust_channel *chan,
			  struct ust_retire *retire)
{
	struct ust_event_filter *f = filter_find(ev, chan);

	if (f) {
		ust_filters_retire(f->set, retire);
		*f = ev->filt[--ev->nr_filt];
	}
}

int ust_events_drop_channel(struct ust_channel *chan, struct ust_retire *retire)
{
	uint64_t i;
	int ret = 0;

	for (i = 0; i < reg.nr_events; i++) {
		struct ust_event *ev = reg.by_order[i];

		if (rule_index(ev, chan) >= 0 && ust_event_disable(ev, chan, retire))
			ret = -ENOMEM;
		else
			filter_forget(ev, chan, retire);
	}
	return ret;
}

/* The event's fields as the validator sees them, from its own description. */
static int event_fields(const struct ust_event *ev, struct ltt_app_tracepoint **ret_tp,
			struct ltt_filter_field_desc *fields)
{
	struct ltt_app_tracepoint *tp = NULL;
	struct ltt_rbuf r;
	int ret;

	ltt_rbuf_init(&r, ev->enc, ev->enc_len);
	ret = ltt_app_get_tracepoint(&r, &tp);
	if (ret)
		return ret == -ENOMEM ? ret : -EINVAL;
	ltt_app_filter_fields(tp, fields);
	*ret_tp = tp;
	return 0;
}

/* The programs' set for @ev, or NULL for none; -errno on refusal. */
static int filter_make(const struct ust_event *ev, uint32_t nr,
		       const struct ltt_app_filter_program *progs, struct ust_filters **ret)
{
	struct ltt_filter_field_desc fields[LTT_APP_MAX_FIELDS];
	struct ltt_app_tracepoint *tp = NULL;
	int err;

	*ret = NULL;
	if (!nr)
		return 0;
	if (!event_filterable(ev)) {
		ust_debug("event %s: declared with a header too old to filter", ev->name);
		return -EOPNOTSUPP;
	}
	err = event_fields(ev, &tp, fields);
	if (!err)
		err = ust_filters_create(nr, progs, fields, tp->nr_fields, ret);
	free(tp);
	return err;
}

/* Room for one more filter entry; NULL on failure. */
static struct ust_event_filter *filter_add(struct ust_event *ev, struct ust_channel *chan)
{
	struct ust_event_filter *f = realloc(ev->filt, (ev->nr_filt + 1) * sizeof(*f));

	if (!f)
		return NULL;
	ev->filt = f;
	f = &ev->filt[ev->nr_filt++];
	f->chan = chan;
	f->set = NULL;
	f->refused = false;
	return f;
}

int ust_event_set_filter(struct ust_event *ev, struct ust_channel *chan, uint32_t nr,
			 const struct ltt_app_filter_program *progs, struct ust_retire *retire)
{
	struct ust_event_filter *f = filter_find(ev, chan), saved;
	struct ust_filters *set;
	int err = filter_make(ev, nr, progs, &set), ret;

	if (err == -ENOMEM)
		return err;
	if (!f) {
		if (!err && !set)
			return 0;	/* no filter, and none before */
		f = filter_add(ev, chan);
		if (!f) {
			ust_filters_free(set);
			return -ENOMEM;
		}
	}
	saved = *f;
	f->set = set;
	f->refused = err != 0;
	if (err && rule_index(ev, chan) >= 0)
		ret = ust_event_disable(ev, chan, retire);
	else
		ret = event_republish(ev, retire);
	if (ret) {
		*f = saved;
		if (!f->set && !f->refused)
			*f = ev->filt[--ev->nr_filt];	/* the entry just added */
		ust_filters_free(set);
		return ret;
	}
	ust_filters_retire(saved.set, retire);
	if (!f->set && !f->refused)
		*f = ev->filt[--ev->nr_filt];
	return err;
}

void ust_events_refresh(void)
{
	uint64_t i;
	size_t j;

	for (i = 0; i < reg.nr_events; i++) {
		struct ust_event *ev = reg.by_order[i];
		int state = event_full_state(ev);

		for (j = 0; j < ev->nr_descs; j++)
			desc_set_state(ev->descs[j], state);
	}
}

void ust_registry_fork_child(void)
{
	uint64_t i;
	size_t j;

	for (i = 0; i < reg.nr_events; i++) {
		struct ust_event *ev = reg.by_order[i];

		for (j = 0; j < ev->nr_descs; j++)
			desc_publish(ev->descs[j], NULL, 0);
		ust_targets_free(ev->published);
		ev->published = NULL;
		free(ev->rules);
		ev->rules = NULL;
		ev->nr_rules = 0;
		while (ev->nr_filt)
			ust_filters_free(ev->filt[--ev->nr_filt].set);
		free(ev->filt);
		ev->filt = NULL;
	}
}

/* What a command does to each event it addresses (events_apply()). */
struct event_cmd {
	struct ust_channel *chan;
	uint32_t id;
	uint32_t nr;
	const struct ltt_app_filter_program *progs;
	struct ust_retire *retire;
};

static int cmd_enable(struct ust_event *ev, void *arg)
{
	struct event_cmd *c = arg;

	return ust_event_enable(ev, c->chan, c->id, c->retire);
}

static int cmd_disable(struct ust_event *ev, void *arg)
{
	struct event_cmd *c = arg;

	return ust_event_disable(ev, c->chan, c->retire);
}

static int cmd_filter(struct ust_event *ev, void *arg)
{
	struct event_cmd *c = arg;

	return ust_event_set_filter(ev, c->chan, c->nr, c->progs, c->retire);
}

int ust_events_enable(const char *name, uint64_t layout, bool every, struct ust_channel *chan,
		      uint32_t id, struct ust_retire *retire)
{
	struct event_cmd c = { .chan = chan, .id = id, .retire = retire };

	return events_apply(name, layout, every, cmd_enable, &c);
}

int ust_events_disable(const char *name, uint64_t layout, bool every, struct ust_channel *chan,
		       struct ust_retire *retire)
{
	struct event_cmd c = { .chan = chan, .retire = retire };

	return events_apply(name, layout, every, cmd_disable, &c);
}

int ust_events_set_filter(const char *name, uint64_t layout, bool every,
			  struct ust_channel *chan, uint32_t nr,
			  const struct ltt_app_filter_program *progs, struct ust_retire *retire)
{
	struct event_cmd c = { .chan = chan, .nr = nr, .progs = progs, .retire = retire };

	return events_apply(name, layout, every, cmd_filter, &c);
}

bool ust_event_known(const char *name)
{
	struct ust_event *ev;

	for (ev = chain_of(name); ev; ev = ev->hnext)
		if (!strcmp(ev->name, name))
			return true;
	return false;
}
