/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source-tracefs-events.h - a tracefs channel's copy of its event map
 * (struct ltt_tfs_events): the layouts the session daemon published, and
 * each event's latest filter programs from the map's filter log, copied
 * by the channel's sources (source-tracefs.c) before each page they
 * convert and borrowed by their converters.  source-tracefs.h has the
 * design; the struct is here for source-tracefs.c, which links its
 * sources into it.
 */
#ifndef LTT_CONSUMERD_SOURCE_TRACEFS_EVENTS_H
#define LTT_CONSUMERD_SOURCE_TRACEFS_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/ftrace/ftrace-conv.h"
#include "common/ftrace/ftrace-map.h"

struct tracefs_source;

/*
 * The latest programs of one event from the map's filter log, borrowed by
 * the converters.  One a later record replaces is retired, not freed: it
 * judges the records stamped before the later one's time.
 */
struct tfs_filter {
	struct ltt_ftrace_map_filter f;		/* first: f.prev is a tfs_filter's; f.buf owned */
	int checked;				/* 0: not yet; 1: valid; -1: rejects all */
	struct tfs_filter *next;		/* in the list of current or retired ones */
};

/* The channel's copy of its event map: layouts borrowed by its converters. */
struct ltt_tfs_events {
	const struct ltt_ftrace_map_shm *shm;	/* read-only mapping */
	dev_t dev;				/* the memfd's identity */
	ino_t ino;
	uint32_t nr;				/* entries copied */
	uint32_t ctf_id[LTT_FTRACE_MAP_CAPACITY];
	uint32_t raw_id[LTT_FTRACE_MAP_CAPACITY];	/* 0: an ordinary event */
	struct ltt_ftrace_event *layout[LTT_FTRACE_MAP_CAPACITY];	/* owned */
	bool warned;				/* a bad entry was logged */
	uint32_t filter_cursor;			/* bytes of the filter log copied */
	struct tfs_filter *filters;		/* the current ones, one per event */
	struct tfs_filter *retired;
	bool filters_warned;			/* a bad filter record was logged */
	uint64_t gen;				/* bumped by each new entry or filter */
	struct ltt_ftrace_tasks *tasks;		/* the process contexts' tasks, or NULL */
	struct tracefs_source *sources;		/* the channel's, linked by sib */
	struct tracefs_source *converting;	/* the one in ltt_ftrace_conv_page() */
};

/**
 * ltt_tfs_events_open() - the channel's copy of an event map, or a check
 * that @map_fd is the same map as the one it has
 * @map_fd: borrowed (a mapping of it is kept)
 * @ret: *@ret NULL: set to a new copy, to free with ltt_tfs_events_free();
 *       else the channel's, which @map_fd must be the map of
 *
 * Data thread.  Returns 0, -EINVAL (not a map, or another map than the
 * channel's), -ENOMEM, or mmap's or fstat's negative errno.
 */
int ltt_tfs_events_open(int map_fd, struct ltt_tfs_events **ret);

/**
 * ltt_tfs_events_free() - unmap and free; accepts NULL
 *
 * Once no source borrows it.
 */
void ltt_tfs_events_free(struct ltt_tfs_events *ev);

/**
 * ltt_tfs_events_sync() - copy the filter records and the entries the map
 * published since the last sync into @ev; a bad one stops the copy (said
 * once, with @label, borrowed).  A failed allocation leaves the rest for
 * the next sync.  Data thread of the channel's part.
 */
void ltt_tfs_events_sync(struct ltt_tfs_events *ev, const char *label);

/**
 * ltt_tfs_events_layout() - the layout of the event (@ftrace_id, @raw_id)
 * in @ev's copy (borrowed, lives as long as @ev), or NULL
 */
const struct ltt_ftrace_event *ltt_tfs_events_layout(const struct ltt_tfs_events *ev,
						     uint32_t ftrace_id, uint32_t raw_id);

/**
 * ltt_tfs_events_filter_check() - validate the programs of @tf and of
 * those before it (its prev chain) against the fields of @layout, once
 * each; one that fails becomes a program that rejects every record, said
 * once with @label.  Data thread of the channel's part.
 */
void ltt_tfs_events_filter_check(struct tfs_filter *tf, const struct ltt_ftrace_event *layout,
				 const char *label);

#endif /* LTT_CONSUMERD_SOURCE_TRACEFS_EVENTS_H */
