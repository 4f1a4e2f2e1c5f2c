// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_map.c - map channels (counters without events): the daemon's map
 * registry (sessiond/model/map.c) and the counters libltt-ust adds to in
 * its areas (COUNTER_ADD, played in-process with ust-internal.h), checked
 * on the values the registry reads back, decoded from its wire form:
 *
 *   - key templates: {event_name} and {provider_name} expanded, anything
 *     else in braces, a lone brace, control characters, empty or too long
 *     refused; map attributes checked;
 *   - value types: a 32-bit map shows a sum that does not fit wrapped,
 *     with its overflow flag;
 *   - the registry: a name twice refused, a session's 64 maps at most,
 *     slots given in order, the same key the same slot, keys past
 *     --max-key-count to the overflow slot, dropped with the session;
 *   - counting: N events of 3 names emitted by 4 threads give exactly N
 *     per key, the third name's counted as key overflow when the table
 *     holds 2 keys; nothing counted while the session is stopped; clear
 *     brings every counter to 0 and counting resumes exactly; a filter
 *     that rejects counts nothing; COUNTER_ADD's checks (key bit, layout,
 *     an fd that is no sealed memfd or is too small);
 *   - kernel maps: refused (-EOPNOTSUPP) with no kernel hooks, or when
 *     the hooks refuse; else made through them (active as the session),
 *     started, stopped, cleared, read (the kernel's values per slot as
 *     its entries, overflow slot included), not an area for programs,
 *     listed only to clients that know them, removed through them with
 *     the session; a key given back only while it is the newest.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ltt/tracepoint.h>

#include "common/proto/app-proto.h"
#include "common/model/map.h"
#include "sessiond/model/map.h"
#include "ust/ust-internal.h"
#include "tests/unit/tap.h"

LTT_TRACEPOINT_EVENT(mapt, alpha, LTT_TP_ARGS(int v), LTT_TP_FIELDS(ltt_field_integer(int, v, v)))
LTT_TRACEPOINT_EVENT(mapt, beta, LTT_TP_ARGS(int v), LTT_TP_FIELDS(ltt_field_integer(int, v, v)))
LTT_TRACEPOINT_EVENT(other, gamma, LTT_TP_ARGS(int v), LTT_TP_FIELDS(ltt_field_integer(int, v, v)))

#define CKEY (LTT_APP_NOTIFIER_KEY_BIT | 0x4d)
#define THREADS 4
#define PER_THREAD 25000	/* events of each name a thread emits */
#define OWNER 1000
#define UID 1001

static void test_templates(void)
{
	static const char *const bad[] = { "", "{event}", "{event_name", "a}b", "{", "x\ty",
					   "{EVENT_NAME}" };
	struct ltt_map_attr a = { .name = "m", .value_type = LTT_MAP_VALUE_S64, .max_keys = 1 };
	char buf[LTT_MAP_KEY_MAX], big[LTT_MAP_KEY_MAX + 1];
	size_t i;

	tap_ok(ltt_map_key_valid("{event_name}") && ltt_map_key_valid("p={provider_name} e={event_name}") &&
	       ltt_map_key_valid("constant"), "key templates with the two fields, or none, taken");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_ok(!ltt_map_key_valid(bad[i]), "key template '%s' refused", bad[i]);
	memset(big, 'k', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	tap_ok(!ltt_map_key_valid(big), "a key template of %zu bytes refused", strlen(big));
	tap_is_str(ltt_map_key_expand("{event_name}", "mapt:alpha", buf, sizeof(buf)), "mapt:alpha",
		   "{event_name} is the whole name");
	tap_is_str(ltt_map_key_expand("{provider_name}/{event_name}!", "mapt:alpha", buf, sizeof(buf)),
		   "mapt/mapt:alpha!", "{provider_name} is what comes before ':'");
	tap_is_str(ltt_map_key_expand("<{provider_name}>", "plain", buf, 6), "<plai",
		   "an expansion is cut to its buffer");
	tap_ok(ltt_map_attr_valid(&a), "a map of 1 key is valid");
	a.max_keys = LTT_MAP_MAX_KEYS + 1;
	tap_ok(!ltt_map_attr_valid(&a), "%u keys refused", a.max_keys);
	a.max_keys = 1;
	a.value_type = 3;
	tap_ok(!ltt_map_attr_valid(&a), "value type 3 refused");
	a.value_type = LTT_MAP_VALUE_S32;
	a.dead_policy = LTT_MAP_DEAD_SUM;
	tap_ok(!ltt_map_attr_valid(&a), "sum-into-shared of a per-user map refused");
	a.ownership = LTT_MAP_OWNER_PROCESS;
	tap_ok(ltt_map_attr_valid(&a), "sum-into-shared of a per-process map taken");
	a.ownership = 2;
	tap_ok(!ltt_map_attr_valid(&a), "ownership 2 refused");
}

static void test_values(void)
{
	bool of;

	tap_ok(ltt_map_value(INT32_MAX, LTT_MAP_VALUE_S32, &of) == INT32_MAX && !of,
	       "INT32_MAX fits a 32-bit map");
	tap_ok(ltt_map_value((uint64_t)INT32_MAX + 1, LTT_MAP_VALUE_S32, &of) == INT32_MIN && of,
	       "INT32_MAX + 1 wraps in a 32-bit map, flagged");
	tap_ok(ltt_map_value((uint64_t)INT32_MAX + 1, LTT_MAP_VALUE_S64, &of) == (int64_t)INT32_MAX + 1 &&
	       !of, "and fits a 64-bit one");
}

/*
 * The description of the session's map @name, decoded from the registry's
 * wire form; with @cpus >= 0 from its by-CPU form (LIST_MAP_CPUS), whose
 * entries of @name must each have @cpus counts (0: the value alone)
 * summing to their value.
 */
static bool read_map(struct ltt_maps *maps, const char *name, int cpus, struct ltt_map_desc *ret)
{
	struct ltt_map_desc d;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t n, i, e, c, nc;
	uint64_t sum;
	bool found = false, mine, sums = true;

	ltt_wbuf_init(&w);
	if (ltt_maps_put_session(maps, OWNER, "s", true, cpus >= 0, &w)) {
		ltt_wbuf_fini(&w);
		return false;
	}
	ltt_rbuf_init(&r, w.data, w.len);
	n = ltt_rbuf_get_u32(&r);
	for (i = 0; i < n && !r.err; i++) {
		ltt_map_desc_get(&r, &d);
		mine = !found && !r.err && !strcmp(d.attr.name, name);
		for (e = 0; cpus >= 0 && e < d.nr_entries && !r.err; e++) {
			nc = ltt_rbuf_get_u32(&r);
			for (c = 0, sum = 0; c < nc && !r.err; c++)
				sum += ltt_rbuf_get_u64(&r);
			if (mine && (nc != (uint32_t)cpus || (nc && (int64_t)sum != d.entries[e].value)))
				sums = false;
		}
		if (mine) {
			*ret = d;
			found = true;
		} else {
			free(d.entries);
		}
	}
	if (found && (!sums || ltt_rbuf_end(&r))) {
		free(ret->entries);
		found = false;
	}
	ltt_wbuf_fini(&w);
	return found;
}

/* The by-CPU form: does each entry of map @name have @cpus counts summing to its value? */
static bool by_cpu_sums(struct ltt_maps *maps, const char *name, uint32_t cpus)
{
	struct ltt_map_desc d;

	if (!read_map(maps, name, (int)cpus, &d))
		return false;
	free(d.entries);
	return d.nr_entries > 0;
}

/* The value of @key in @d (-1 when absent). */
static int64_t value_of(const struct ltt_map_desc *d, const char *key)
{
	uint32_t i;

	for (i = 0; i < d->nr_entries; i++)
		if (!strcmp(d->entries[i].key, key))
			return d->entries[i].value;
	return -1;
}

static void test_registry(struct ltt_maps *maps)
{
	struct ltt_map_attr a = { .name = "m", .value_type = LTT_MAP_VALUE_S64, .max_keys = 2 };
	char name[32];
	unsigned int i;
	int ret = 0;

	tap_is_int(ltt_maps_add(maps, OWNER, "s", &a, false), 0, "map m added to session s");
	tap_is_int(ltt_maps_add(maps, OWNER, "s", &a, false), -EEXIST, "m again: -EEXIST");
	tap_is_int(ltt_maps_add(maps, OWNER + 1, "s", &a, false), 0,
		   "another user's session s may have its m");
	tap_ok(ltt_maps_exists(maps, OWNER, "s", "m") && !ltt_maps_exists(maps, OWNER, "t", "m"),
	       "m is session s's, not t's");
	tap_is_int(ltt_maps_slot(maps, OWNER, "s", "m", "mapt:alpha"), 0, "first key: slot 0");
	tap_is_int(ltt_maps_slot(maps, OWNER, "s", "m", "mapt:beta"), 1, "second key: slot 1");
	tap_is_int(ltt_maps_slot(maps, OWNER, "s", "m", "other:gamma"), 2,
		   "third key of a 2-key map: the overflow slot, 2");
	tap_is_int(ltt_maps_slot(maps, OWNER, "s", "m", "mapt:alpha"), 0, "first key again: slot 0");
	tap_is_int(ltt_maps_slot(maps, OWNER, "s", "x", "k"), -ENOENT, "an unknown map: -ENOENT");
	for (i = 0; i < LTT_MAP_MAX_PER_SESSION && !ret; i++) {
		snprintf(name, sizeof(name), "many%u", i);
		snprintf(a.name, sizeof(a.name), "%s", name);
		ret = ltt_maps_add(maps, OWNER, "t", &a, false);
	}
	tap_ok(!ret && i == LTT_MAP_MAX_PER_SESSION, "%u maps added to session t", i);
	snprintf(a.name, sizeof(a.name), "one-more");
	tap_is_int(ltt_maps_add(maps, OWNER, "t", &a, false), -ENOSPC,
		   "one more than %d: -ENOSPC", LTT_MAP_MAX_PER_SESSION);
	ltt_maps_drop_session(maps, OWNER, "t");
	tap_is_int(ltt_maps_count(maps, OWNER, "t"), 0, "session t's maps dropped with it");
	tap_is_int(ltt_maps_count(maps, OWNER, "s"), 1, "session s's map stays");
}

static void *emit(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < PER_THREAD; i++) {
		ltt_tracepoint(mapt, alpha, i);
		ltt_tracepoint(mapt, beta, i);
		ltt_tracepoint(other, gamma, i);
	}
	return NULL;
}

static void emit_all(void)
{
	pthread_t th[THREADS];
	int i;

	for (i = 0; i < THREADS; i++)
		if (pthread_create(&th[i], NULL, emit, NULL))
			exit(1);
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
}

/* m's three counters are @a, @b and a key overflow of @g. */
static void check_counts(struct ltt_maps *maps, int64_t a, int64_t b, uint64_t g,
			 const char *when)
{
	struct ltt_map_desc d;

	if (!tap_ok(read_map(maps, "m", -1, &d), "%s: m read back", when))
		return;
	tap_is_int(value_of(&d, "mapt:alpha"), a, "%s: mapt:alpha counted", when);
	tap_is_int(value_of(&d, "mapt:beta"), b, "%s: mapt:beta counted", when);
	tap_is_u64(d.key_overflow, g, "%s: other:gamma counted as key overflow", when);
	tap_is_int(d.nr_keys, 2, "%s: 2 keys of 2", when);
	free(d.entries);
}

static void test_counting(struct ltt_maps *maps)
{
	const int64_t n = (int64_t)THREADS * PER_THREAD;
	uint32_t cpus, slots;
	int fd, bad[2];

	if (!tap_ok(!ltt_maps_area(maps, OWNER, "s", "m", UID, 0, &fd, &cpus, &slots),
		    "an area of m for uid %d", UID))
		return;
	tap_is_int(slots, 3, "3 slots: 2 keys and the overflow");
	tap_is_int(ltt_ust_test_add_counter(CKEY & ~LTT_APP_NOTIFIER_KEY_BIT, cpus, slots,
					    fcntl(fd, F_DUPFD_CLOEXEC, 0)), -EINVAL,
		   "COUNTER_ADD without the key bit refused");
	tap_is_int(ltt_ust_test_add_counter(CKEY, cpus + 1, slots, fcntl(fd, F_DUPFD_CLOEXEC, 0)),
		   -EINVAL, "a layout larger than the area refused");
	if (pipe(bad))
		exit(1);
	close(bad[1]);
	tap_is_int(ltt_ust_test_add_counter(CKEY, cpus, slots, bad[0]), -EINVAL,
		   "a pipe for an area refused");
	tap_is_int(ltt_ust_test_add_counter(CKEY, cpus, slots, fd), 0, "counter added");
	tap_ok(!ltt_ust_test_enable_event(CKEY, "mapt:alpha",
					  (uint32_t)ltt_maps_slot(maps, OWNER, "s", "m", "mapt:alpha")) &&
	       !ltt_ust_test_enable_event(CKEY, "mapt:beta",
					  (uint32_t)ltt_maps_slot(maps, OWNER, "s", "m", "mapt:beta")) &&
	       !ltt_ust_test_enable_event(CKEY, "other:gamma",
					  (uint32_t)ltt_maps_slot(maps, OWNER, "s", "m", "other:gamma")),
	       "the three events enabled in it with their slots");
	emit_all();
	check_counts(maps, 0, 0, 0, "session stopped");
	ltt_maps_set_active(maps, OWNER, "s", true);
	emit_all();
	check_counts(maps, n, n, (uint64_t)n, "4 threads");
	tap_ok(by_cpu_sums(maps, "m", cpus), "by CPU: each key's %u counts sum to its value", cpus);
	ltt_maps_clear(maps, OWNER, "s");
	check_counts(maps, 0, 0, 0, "cleared");
	emit_all();
	emit_all();
	check_counts(maps, 2 * n, 2 * n, 2 * (uint64_t)n, "after the clear");
	ltt_maps_set_active(maps, OWNER, "s", false);
	emit_all();
	check_counts(maps, 2 * n, 2 * n, 2 * (uint64_t)n, "stopped again");
	tap_is_int(ltt_ust_test_remove_notifier(CKEY), 0, "counter removed");
	ltt_maps_set_active(maps, OWNER, "s", true);
	emit_all();
	check_counts(maps, 2 * n, 2 * n, 2 * (uint64_t)n, "after its removal");
}

/* A fake kernel: what the registry asked of it. */
static struct {
	int creates, destroys, refuse;
	bool active;
	int clears;
	uint64_t values[4];
} fk;

static int fk_create(void *arg, uid_t owner, const char *session, const struct ltt_map_attr *a,
		     bool active, void **ret_km)
{
	(void)arg;
	(void)owner;
	(void)session;
	(void)a;
	if (fk.refuse)
		return fk.refuse;
	fk.creates++;
	fk.active = active;
	*ret_km = &fk;
	return 0;
}

static void fk_destroy(void *arg, void *km)
{
	(void)arg;
	fk.destroys += km == &fk;
}

static void fk_activate(void *arg, void *km, bool on)
{
	(void)arg;
	(void)km;
	fk.active = on;
}

static void fk_clear(void *arg, void *km)
{
	(void)arg;
	(void)km;
	fk.clears++;
}

static int fk_read(void *arg, void *km, uint64_t *values, uint32_t nr)
{
	(void)arg;
	(void)km;
	memcpy(values, fk.values, (nr < 4 ? nr : 4) * sizeof(*values));
	return 0;
}

static const struct ltt_maps_kernel fk_ops = {
	.create = fk_create, .destroy = fk_destroy, .activate = fk_activate,
	.clear = fk_clear, .read = fk_read,
};

static void test_kernel(void)
{
	struct ltt_map_attr a = { .name = "k", .value_type = LTT_MAP_VALUE_S64, .max_keys = 2,
				  .ownership = LTT_MAP_OWNER_KERNEL };
	struct ltt_maps maps;
	struct ltt_map_desc d;
	struct ltt_wbuf w;
	uint32_t cpus, slots;
	bool taken;
	int fd;

	ltt_maps_init(&maps);
	tap_ok(ltt_map_attr_valid(&a), "a kernel map's attributes are valid");
	tap_is_int(ltt_maps_add(&maps, OWNER, "s", &a, false), -EOPNOTSUPP,
		   "a kernel map without kernel hooks: -EOPNOTSUPP");
	ltt_maps_set_kernel(&maps, &fk_ops, NULL);
	fk.refuse = -EOPNOTSUPP;
	tap_ok(ltt_maps_add(&maps, OWNER, "s", &a, false) == -EOPNOTSUPP &&
	       !ltt_maps_exists(&maps, OWNER, "s", "k"), "the hooks refuse it: refused, not added");
	fk.refuse = 0;
	tap_ok(!ltt_maps_add(&maps, OWNER, "s", &a, true) && fk.creates == 1 && fk.active &&
	       ltt_maps_ownership(&maps, OWNER, "s", "k") == LTT_MAP_OWNER_KERNEL,
	       "added through the hooks, active as its session");
	ltt_maps_set_active(&maps, OWNER, "s", false);
	ltt_maps_clear(&maps, OWNER, "s");
	tap_ok(!fk.active && fk.clears == 1, "stop and clear reach the kernel");
	tap_is_int(ltt_maps_area(&maps, OWNER, "s", "k", UID, 0, &fd, &cpus, &slots), -ENOENT,
		   "no counter area for programs in a kernel map");
	tap_ok(ltt_maps_take_slot(&maps, OWNER, "s", "k", "a", &taken) == 0 && taken &&
	       ltt_maps_take_slot(&maps, OWNER, "s", "k", "b", &taken) == 1 && taken &&
	       ltt_maps_take_slot(&maps, OWNER, "s", "k", "a", &taken) == 0 && !taken,
	       "keys take slots in order, a key again its own");
	ltt_maps_untake_slot(&maps, OWNER, "s", "k", "a");	/* not the newest: kept */
	fk.values[0] = 7;
	fk.values[1] = 9;
	fk.values[2] = 3;	/* the overflow slot */
	tap_ok(read_map(&maps, "k", -1, &d) && d.nr_entries == 2 && value_of(&d, "a") == 7 &&
	       value_of(&d, "b") == 9 && d.key_overflow == 3 && !d.active &&
	       d.attr.ownership == LTT_MAP_OWNER_KERNEL,
	       "read: the kernel's value of each slot, its overflow slot, one set");
	tap_ok(by_cpu_sums(&maps, "k", 0), "by CPU: none (the kernel's sums alone)");
	free(d.entries);
	ltt_maps_untake_slot(&maps, OWNER, "s", "k", "b");
	tap_ok(read_map(&maps, "k", -1, &d) && d.nr_entries == 1 && value_of(&d, "b") == -1,
	       "a key given back while the newest: gone");
	free(d.entries);
	ltt_wbuf_init(&w);
	tap_ok(!ltt_maps_put_session(&maps, OWNER, "s", false, false, &w) && w.len == 4 &&
	       !w.data[0] && !w.data[1] && !w.data[2] && !w.data[3],
	       "not listed to a client that knows no kernel map");
	ltt_wbuf_fini(&w);
	ltt_maps_drop_session(&maps, OWNER, "s");
	tap_ok(fk.destroys == 1 && !ltt_maps_exists(&maps, OWNER, "s", "k"),
	       "removed through the hooks with its session");
	ltt_maps_fini(&maps);
}

int main(void)
{
	struct ltt_maps maps;

	test_templates();
	test_values();
	ltt_maps_init(&maps);
	test_registry(&maps);
	test_counting(&maps);
	ltt_maps_fini(&maps);
	test_kernel();
	return tap_done();
}
