// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-tracefs-map.c - the tracefs backend's kernel map channels
 * (kabi-backend.h, MAP): counters the kernel keeps by itself with
 * ftrace's histogram triggers, no record read per event.
 *
 * A MAP object is an ftrace instance of its own (named as the channels'
 * are, so a daemon that died leaves none for long).  Each event it counts
 * gets, in that instance, one histogram trigger keyed on the event's type
 * (so one entry: its hit count is the count), with the rule's filter as
 * the trigger's "if" (counters of the same event and filter share its
 * trigger, each adding its hit count).  Paused, continued and zeroed by the trigger
 * file's :pause, :cont and :clear of that same trigger; read from the
 * event's hist file (each trigger's section, its "Hits:").  The trigger
 * files are written without truncation: an O_TRUNC open removes every
 * trigger of the event.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/ftrace/ftrace-prefilter.h"
#include "sessiond/kabi/kabi-tracefs.h"

#define HIST_SPEC "hist:keys=common_type:vals=hitcount"
/*
 * The least table ftrace takes (2^7 entries): one entry is used.  Given
 * in every command, though :pause, :cont, :clear and ! do not match on
 * it: ftrace builds each command's table before it looks for the
 * trigger, 2048 entries by default (slow for the ~1,400 triggers of a
 * rule on every system call).
 */
#define HIST_SIZE ":size=128"
#define HIST_TEXT_MAX (64 << 10)	/* what of an event's hist file is read */

/* An event counted: where tracefs has it, its filter, its counter. */
struct tf_mev {
	char name[LTT_KABI_NAME_MAX];
	char path[3 * LTT_FTRACE_NAME_MAX];	/* events/SYS/EVENT/ (in the instance) */
	char filter[LTT_FTRACE_PREFILTER_MAX];
	uint32_t counter;
	uint64_t base;		/* its shared trigger's hits before it joined (0 after a clear) */
};

struct tf_map {
	struct tracefs *t;
	int dir_fd;			/* the instance's directory (O_PATH) */
	char name[TRACEFS_INSTANCE_MAX];
	bool paused;
	struct tf_mev *evs;
	size_t nr_evs;
};

bool tracefs_map_offered(const struct tracefs *t)
{
	char path[3 * LTT_FTRACE_NAME_MAX];
	size_t i;

	for (i = 0; i < t->nr_events; i++) {
		if (t->events[i].probe || t->events[i].eprobe)
			continue;
		snprintf(path, sizeof(path), "events/%s/%s/hist", t->events[i].system,
			 t->events[i].event);
		return !faccessat(t->root_fd, path, R_OK, 0);
	}
	return false;
}

/*
 * @cmd ("", ":pause", ":cont", ":clear"; @remove: the trigger taken
 * out) of @e's trigger into its trigger file.
 */
static int trigger_write(const struct tf_map *m, const struct tf_mev *e, const char *cmd,
			 bool remove)
{
	char path[sizeof(e->path) + 8];
	char text[sizeof(HIST_SPEC HIST_SIZE) + 16 + LTT_FTRACE_PREFILTER_MAX];

	snprintf(path, sizeof(path), "%strigger", e->path);
	snprintf(text, sizeof(text), "%s" HIST_SPEC HIST_SIZE "%s%s%s", remove ? "!" : "", cmd,
		 e->filter[0] ? " if " : "", e->filter);
	return ltt_append_control(m->dir_fd, path, text);
}

static int map_new(struct tracefs *t, struct ltt_kabi_obj *ret_new)
{
	char path[sizeof("instances/") + TRACEFS_INSTANCE_MAX];
	struct tf_map *m;
	int fd, err;

	if (!tracefs_map_offered(t))
		return -EOPNOTSUPP;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->paused = true;
	snprintf(m->name, sizeof(m->name), TRACEFS_INSTANCE_PREFIX "%s-%u", tracefs_name_tag(),
		 t->next_instance++);
	snprintf(path, sizeof(path), "instances/%s", m->name);
	if (mkdirat(t->root_fd, path, 0700)) {
		err = -errno;
		free(m);
		return err;
	}
	m->dir_fd = openat(t->root_fd, path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	fd = m->dir_fd < 0 ? -1 : fcntl(t->root_fd, F_DUPFD_CLOEXEC, 3);
	if (fd < 0) {
		err = -errno;
		if (m->dir_fd >= 0)
			close(m->dir_fd);
		tracefs_doom(t, m->name);
		free(m);
		return err;
	}
	/* nothing is recorded there: the smallest buffers (a failure costs memory only) */
	(void)ltt_write_control(m->dir_fd, "buffer_size_kb", "4");
	m->t = tracefs_get(t);
	*ret_new = (struct ltt_kabi_obj){ .fd = fd, .priv = m };
	return 0;
}

static struct tf_mev *find_mev(struct tf_map *m, const char *name, uint32_t counter)
{
	size_t i;

	for (i = 0; i < m->nr_evs; i++)
		if (!strcmp(m->evs[i].name, name) && m->evs[i].counter == counter)
			return &m->evs[i];
	return NULL;
}

/* Where tracefs has @ev itself (a system call's, not the event probe recorded in its place). */
static void event_path(const struct tracefs_event *ev, char *buf, size_t len)
{
	const char *call = ev->name + strlen("syscall_entry_");

	if (ev->eprobe)
		snprintf(buf, len, "events/syscalls/sys_enter_%s/", call);
	else
		snprintf(buf, len, "events/%s/%s/", ev->system, ev->event);
}

/*
 * The kernel filter of @e that says @ef's programs exactly ("": none).
 * 0, -ENOENT (no such event), -EOPNOTSUPP (ftrace's grammar can't say
 * them, or a system call read through an event probe), -EINVAL, -ENOMEM.
 */
static int mev_filter(const struct tf_map *m, const struct ltt_kabi_event_filter *ef,
		      struct tf_mev *e)
{
	const uint8_t *code[LTT_KABI_FILTER_MAX_PROGRAMS];
	uint32_t len[LTT_KABI_FILTER_MAX_PROGRAMS];
	const struct tracefs_event *ev;
	struct ltt_ftrace_event *layout;
	int ret = tracefs_event_layout(m->t, ef->event.name, &ev, &layout);

	if (ret)
		return ret == -ENOMEM ? ret : -ENOENT;
	event_path(ev, e->path, sizeof(e->path));
	if (ev->probe)
		ret = -ENOENT;
	else if (ef->nr_programs && ev->eprobe)
		ret = -EOPNOTSUPP;	/* its strings are the probe's, not the event's */
	else if (ef->nr_programs)
		ret = tracefs_programs_get(ef, layout, code, len);
	if (!ret && ef->nr_programs) {
		tracefs_kernel_names(ev, layout);
		if (!ltt_ftrace_filter_exact(layout, code, len, ef->nr_programs, e->filter,
					     sizeof(e->filter)))
			ret = -EOPNOTSUPP;
	}
	free(layout);
	return ret;
}

/* Has @m another event than @e counted with the same trigger (its name and filter)? */
static bool shares(const struct tf_map *m, const struct tf_mev *e)
{
	size_t i;

	for (i = 0; i < m->nr_evs; i++)
		if (&m->evs[i] != e && !strcmp(m->evs[i].name, e->name) &&
		    !strcmp(m->evs[i].filter, e->filter))
			return true;
	return false;
}

/* Is @m's event @i the first of those counted with its trigger (whose commands it writes)? */
static bool writes(const struct tf_map *m, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!strcmp(m->evs[j].name, m->evs[i].name) &&
		    !strcmp(m->evs[j].filter, m->evs[i].filter))
			return false;
	return true;
}

static int mev_base(const struct tf_map *m, struct tf_mev *e);

static int map_event(struct tf_map *m, struct ltt_kabi_event_filter *ef)
{
	struct tf_mev e = { .counter = ef->event.id }, *grown;
	int err;

	ef->event.name[sizeof(ef->event.name) - 1] = '\0';
	if (find_mev(m, ef->event.name, ef->event.id))
		return -EEXIST;
	snprintf(e.name, sizeof(e.name), "%s", ef->event.name);
	err = mev_filter(m, ef, &e);
	if (err)
		return err;
	grown = realloc(m->evs, (m->nr_evs + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	m->evs = grown;
	/*
	 * ftrace keeps one such trigger an event: counters of the same one
	 * share it, and a counter that joins counts from the hits it has now
	 */
	if (!shares(m, &e)) {
		err = trigger_write(m, &e, m->paused ? ":pause" : "", false);
	} else {
		err = mev_base(m, &e);
	}
	if (err) {
		LTT_WARN("kernel: ftrace instance %s: %s: the kernel refused the histogram trigger '" HIST_SPEC "%s%s': %s",
			 m->name, e.name, e.filter[0] ? " if " : "", e.filter, strerror(-err));
		return err == -ENOENT || err == -EEXIST ? err : -EINVAL;
	}
	m->evs[m->nr_evs++] = e;
	return 0;
}

static int map_unevent(struct tf_map *m, struct ltt_kabi_event *ev)
{
	struct tf_mev *e;
	int err;

	ev->name[sizeof(ev->name) - 1] = '\0';
	e = find_mev(m, ev->name, ev->id);
	if (!e)
		return -ENOENT;
	err = shares(m, e) ? 0 : trigger_write(m, e, "", true);
	if (err)
		LTT_WARN("kernel: ftrace instance %s: %s: its histogram trigger not removed: %s",
			 m->name, e->name, strerror(-err));
	*e = m->evs[--m->nr_evs];
	return 0;
}

/* Does the section of @info (a "# trigger info:" line) belong to @e's trigger? */
static bool section_of(const struct tf_mev *e, const char *info)
{
	const char *end = strchr(info, '\n');
	const char *cond = strstr(info, " if ");
	size_t n = strlen(e->filter);

	if (!strstr(info, HIST_SPEC) || (cond && end && cond > end))
		cond = NULL;
	if (!e->filter[0])
		return !cond;
	/* ftrace ends the line with " [active]" or " [paused]" after the filter */
	return cond && !strncmp(cond + 4, e->filter, n) && !strncmp(cond + 4 + n, " [", 2);
}

/* The hit count of @e's trigger in its hist file; 0 when none can be read (logged). */
static uint64_t mev_count(const struct tf_map *m, const struct tf_mev *e, char *text)
{
	char path[sizeof(e->path) + 8];
	unsigned long long hits;
	const char *p, *h;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%shist", e->path);
	fd = openat(m->dir_fd, path, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, text, HIST_TEXT_MAX - 1);
	if (fd >= 0)
		close(fd);
	if (n < 0) {
		LTT_WARN("kernel: ftrace instance %s: %s: its histogram not read: %s", m->name,
			 e->name, strerror(errno));
		return 0;
	}
	text[n] = '\0';
	for (p = strstr(text, "# trigger info:"); p; p = strstr(p + 1, "# trigger info:")) {
		if (!section_of(e, p))
			continue;
		h = strstr(p, "Hits:");
		if (h && sscanf(h, "Hits: %llu", &hits) == 1)
			return hits;
	}
	return 0;
}

/* @e joins a trigger another counter made: its hits so far are not @e's. */
static int mev_base(const struct tf_map *m, struct tf_mev *e)
{
	char *text = malloc(HIST_TEXT_MAX);

	if (!text)
		return -ENOMEM;
	e->base = mev_count(m, e, text);
	free(text);
	return 0;
}

static int map_read(struct tf_map *m, struct ltt_kabi_map_read *arg)
{
	char *text = malloc(HIST_TEXT_MAX);
	uint32_t top = 0;
	uint64_t count;
	size_t i;

	if (!text)
		return -ENOMEM;
	memset(arg->values, 0, sizeof(arg->values));
	for (i = 0; i < m->nr_evs; i++) {
		const struct tf_mev *e = &m->evs[i];

		if (e->counter < arg->first || e->counter - arg->first >= LTT_KABI_MAP_READ_MAX)
			continue;
		count = mev_count(m, e, text);
		arg->values[e->counter - arg->first] += count > e->base ? count - e->base : 0;
		if (e->counter - arg->first + 1 > top)
			top = e->counter - arg->first + 1;
	}
	arg->nr = top;
	free(text);
	return 0;
}

static int map_ctl(struct tf_map *m, const struct ltt_kabi_map_ctl *arg)
{
	const char *cmd = arg->cmd == LTT_KABI_MAP_PAUSE ? ":pause" :
			  arg->cmd == LTT_KABI_MAP_CONT ? ":cont" :
			  arg->cmd == LTT_KABI_MAP_CLEAR ? ":clear" : NULL;
	int err = 0, ret;
	size_t i;

	if (!cmd)
		return -EINVAL;
	for (i = 0; i < m->nr_evs; i++) {
		ret = writes(m, i) ? trigger_write(m, &m->evs[i], cmd, false) : 0;
		if (ret && !err)
			err = ret;
	}
	if (arg->cmd != LTT_KABI_MAP_CLEAR)
		m->paused = arg->cmd == LTT_KABI_MAP_PAUSE;
	for (i = 0; !err && arg->cmd == LTT_KABI_MAP_CLEAR && i < m->nr_evs; i++)
		m->evs[i].base = 0;	/* every trigger starts again from 0 */
	return err;
}

int tracefs_map_run(enum ltt_kabi_op op, struct ltt_kabi_obj *obj, void *arg,
		    struct ltt_kabi_obj *ret_new)
{
	switch (op) {
	case LTT_KABI_OP_MAP:
		return map_new(obj->priv, ret_new);
	case LTT_KABI_OP_MAP_EVENT:
		return map_event(obj->priv, arg);
	case LTT_KABI_OP_MAP_UNEVENT:
		return map_unevent(obj->priv, arg);
	case LTT_KABI_OP_MAP_READ:
		return map_read(obj->priv, arg);
	default:
		return map_ctl(obj->priv, arg);
	}
}

void tracefs_map_release(struct ltt_kabi_obj *obj)
{
	struct tf_map *m = obj->priv;
	size_t i;

	for (i = 0; i < m->nr_evs; i++)
		if (writes(m, i))
			(void)trigger_write(m, &m->evs[i], "", true);
	close(m->dir_fd);
	close(obj->fd);
	tracefs_doom(m->t, m->name);
	tracefs_put(m->t);
	free(m->evs);
	free(m);
}
