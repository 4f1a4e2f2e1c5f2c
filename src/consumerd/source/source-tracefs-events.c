// SPDX-License-Identifier: GPL-2.0-only
/*
 * source-tracefs-events.c - a tracefs channel's copy of its event map:
 * opened once per channel, synced (entries, then filter records) by its
 * sources before each page, filters checked against their event's
 * fields.  See source-tracefs-events.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/base/log.h"
#include "common/filter/filter-compile.h"
#include "common/ftrace/ftrace-conv.h"
#include "common/ftrace/ftrace-map.h"
#include "consumerd/source/source-tracefs-events.h"
#include "filter-vm/filter-vm.h"

int ltt_tfs_events_open(int map_fd, struct ltt_tfs_events **ret)
{
	const struct ltt_ftrace_map_shm *shm;
	struct ltt_tfs_events *ev;
	struct stat st;
	int err;

	if (fstat(map_fd, &st))
		return -errno;
	if (*ret)
		return (*ret)->dev == st.st_dev && (*ret)->ino == st.st_ino ? 0 : -EINVAL;
	err = ltt_ftrace_map_open(map_fd, &shm);
	if (err)
		return err;
	ev = calloc(1, sizeof(*ev));
	if (!ev) {
		ltt_ftrace_map_unmap(shm);
		return -ENOMEM;
	}
	ev->shm = shm;
	ev->dev = st.st_dev;
	ev->ino = st.st_ino;
	*ret = ev;
	return 0;
}

static void filters_free(struct tfs_filter *f)
{
	struct tfs_filter *next;

	for (; f; f = next) {
		next = f->next;
		free(f->f.buf);
		free(f);
	}
}

void ltt_tfs_events_free(struct ltt_tfs_events *ev)
{
	uint32_t i;

	if (!ev)
		return;
	filters_free(ev->filters);
	filters_free(ev->retired);
	if (ev->tasks) {
		struct ltt_ftrace_tasks_stats st;

		ltt_ftrace_tasks_stats(ev->tasks, &st);
		LTT_INFO("tracefs: the process contexts' task table: %" PRIu64 " tasks, %" PRIu64 " read from /proc, %" PRIu64 " gone from /proc when met (ids guessed), %" PRIu64 " not kept (full)",
			 st.tasks, st.proc_reads, st.guessed, st.full);
	}
	ltt_ftrace_tasks_destroy(ev->tasks);
	for (i = 0; i < ev->nr; i++)
		free(ev->layout[i]);
	ltt_ftrace_map_unmap(ev->shm);
	free(ev);
}

/*
 * Make @nf its event's current filter, retiring the one it replaces,
 * which judges the records before @nf's time (its prev).
 */
static void filter_install(struct ltt_tfs_events *ev, struct tfs_filter *nf)
{
	struct tfs_filter **p;

	for (p = &ev->filters; *p; p = &(*p)->next)
		if ((*p)->f.ftrace_id == nf->f.ftrace_id && (*p)->f.raw_id == nf->f.raw_id) {
			struct tfs_filter *old = *p;

			*p = old->next;
			old->next = ev->retired;
			ev->retired = old;
			nf->f.prev = &old->f;
			break;
		}
	nf->next = ev->filters;
	ev->filters = nf;
	ev->gen++;
}

/* Copy the filter records published since the last sync; a bad one stops the copy. */
static void filters_sync(struct ltt_tfs_events *ev, const char *label)
{
	struct tfs_filter *nf;
	int err = 0;

	while (!err) {
		nf = calloc(1, sizeof(*nf));
		if (!nf)
			return;		/* tried again at the next page */
		err = ltt_ftrace_map_filter_next(ev->shm, &ev->filter_cursor, &nf->f);
		if (err) {
			free(nf);
			break;
		}
		filter_install(ev, nf);
	}
	if (err == -EINVAL && !ev->filters_warned) {
		LTT_ERR("%s: the event map's filter log is invalid at byte %" PRIu32 ": later filters are not applied",
			label, ev->filter_cursor);
		ev->filters_warned = true;
	}
}

/* Copy the entries published since the last sync; a bad one stops the copy. */
void ltt_tfs_events_sync(struct ltt_tfs_events *ev, const char *label)
{
	uint32_t pub = ltt_ftrace_map_published(ev->shm);
	struct ltt_ftrace_map_entry e;

	filters_sync(ev, label);
	while (ev->nr < pub) {
		if (ltt_ftrace_map_entry_get(ev->shm, ev->nr, &e)) {
			if (!ev->warned)
				LTT_ERR("%s: entry %" PRIu32 " of the event map is invalid: its records and those of later entries are not converted",
					label, ev->nr);
			ev->warned = true;
			return;
		}
		ev->layout[ev->nr] = malloc(sizeof(e.layout));
		if (!ev->layout[ev->nr])
			return;		/* tried again at the next page */
		memcpy(ev->layout[ev->nr], &e.layout, sizeof(e.layout));
		ev->ctf_id[ev->nr] = e.ctf_id;
		ev->raw_id[ev->nr] = e.raw_id;
		ev->nr++;
		ev->gen++;
	}
}

/* The layout of the event (@ftrace_id, @raw_id) in @ev's copy, or NULL. */
const struct ltt_ftrace_event *ltt_tfs_events_layout(const struct ltt_tfs_events *ev,
						     uint32_t ftrace_id, uint32_t raw_id)
{
	uint32_t i;

	for (i = 0; i < ev->nr; i++)
		if (ev->layout[i]->id == ftrace_id && ev->raw_id[i] == raw_id)
			return ev->layout[i];
	return NULL;
}

/*
 * Validate the programs of @tf and of those before it (its prev chain)
 * against the fields of @layout, once each.  One that fails (the session
 * daemon compiled it for other fields) becomes a program that rejects
 * every record, said once.
 */
void ltt_tfs_events_filter_check(struct tfs_filter *tf, const struct ltt_ftrace_event *layout,
				 const char *label)
{
	/*
	 * On the stack (2.7 KB): tracefs channels on different data
	 * threads check their filters at once, each against its own fields.
	 */
	struct ltt_kabi_event_desc desc;
	struct ltt_filter_field_desc fields[LTT_KABI_MAX_FIELDS];
	bool have_fields = false;
	uint32_t i;

	for (; tf && !tf->checked;
	     tf = (struct tfs_filter *)(uintptr_t)tf->f.prev) {	/* f is the first member */
		if (!have_fields)
			have_fields = !ltt_ftrace_filter_fields(layout, &desc, fields);
		tf->checked = have_fields ? 1 : -1;
		for (i = 0; i < tf->f.nr && tf->checked > 0; i++)
			if (ltt_filter_validate(tf->f.code[i], tf->f.len[i], fields, desc.nr_fields))
				tf->checked = -1;
		if (tf->checked > 0)
			continue;
		LTT_ERR("%s: a filter of event %s:%s fails validation against its fields: its records are rejected",
			label, layout->system, layout->name);
		tf->f.nr = 1;
		/* a program that accepts nothing (the filter VM does not write it) */
		tf->f.code[0] = (uint8_t *)(uintptr_t)ltt_ftrace_map_reject_code;
		tf->f.len[0] = LTT_FTRACE_MAP_REJECT_LEN;
	}
}
