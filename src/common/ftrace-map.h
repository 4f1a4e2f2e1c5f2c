/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ftrace-map.h - the events a tracefs channel records, shared by the
 * session daemon (the one writer) and the kernel consumer (readers)
 * through a sealed memfd: for each event, its CTF id in the channel and
 * its record layout, parsed once from its format file by the session
 * daemon.  The same parse writes the event's metadata (TSDL) and lays out
 * the consumer's conversion of its records, so the two cannot differ.
 *
 * The memfd is sealed against shrinking and growing, LTT_FTRACE_MAP_SIZE
 * bytes, mapped shared: a header, then up to LTT_FTRACE_MAP_CAPACITY
 * entries.  Entries are append-only: the writer fills entry @nr, then
 * stores @nr + 1 into the header's @nr with release; readers load @nr
 * with acquire and never look past it.  A published entry never changes.
 * The session daemon publishes an event's entry before it enables the
 * event in ftrace, so a record of it never reaches a reader before its
 * entry.  An (ftrace id, raw id) pair appears at most once.
 *
 * Raw entries: records the session daemon writes itself through an
 * instance's trace_marker_raw are all of one ftrace event, ftrace:raw_data
 * (a u32 id at offset 8, then the bytes written after it).  An entry
 * whose @raw_id is not 0 stands for the records of layout.id (raw_data's
 * ftrace id) whose u32 at offset 8 is @raw_id, laid out by @layout (its
 * fields at 12 and after).  An ordinary entry has @raw_id 0 and stands
 * for every record of its ftrace id.
 *
 * Readers treat the memory as another process's: they copy each entry
 * out and check it (ltt_ftrace_map_entry_get()) before use.
 */
#ifndef LTT_COMMON_FTRACE_MAP_H
#define LTT_COMMON_FTRACE_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "common/ftrace-format.h"

#define LTT_FTRACE_MAP_MAGIC	0x4d46544cu	/* "LTFM" */
#define LTT_FTRACE_MAP_VERSION	1u
#define LTT_FTRACE_MAP_CAPACITY	4096u		/* events one channel records */

struct ltt_ftrace_map_entry {
	uint32_t ctf_id;		/* its CTF event id in the channel */
	uint32_t raw_id;		/* 0: an ordinary event; else: the raw_data id it stands for */
	struct ltt_ftrace_event layout;	/* layout.id: the ftrace id */
};

struct ltt_ftrace_map_shm {
	uint32_t magic;
	uint32_t version;
	uint32_t capacity;		/* LTT_FTRACE_MAP_CAPACITY */
	uint32_t nr;			/* entries published (release/acquire) */
	struct ltt_ftrace_page_layout page;	/* the kernel's page header */
	uint32_t reserved[8];
	struct ltt_ftrace_map_entry entries[];
};

#define LTT_FTRACE_MAP_SIZE \
	(sizeof(struct ltt_ftrace_map_shm) + \
	 LTT_FTRACE_MAP_CAPACITY * sizeof(struct ltt_ftrace_map_entry))

/**
 * ltt_ftrace_map_create() - a new, empty map
 * @page: the kernel's page header (events/header_page), copied
 * @ret_fd: the sealed memfd (close-on-exec), the caller's
 * @ret_map: its writable mapping, released with ltt_ftrace_map_unmap()
 *
 * Returns 0 or a negative errno (memfd_create, ftruncate, sealing, mmap).
 */
int ltt_ftrace_map_create(const struct ltt_ftrace_page_layout *page, int *ret_fd,
			  struct ltt_ftrace_map_shm **ret_map);

/**
 * ltt_ftrace_map_publish() - add the event @layout as CTF id @ctf_id
 * @map: the writer's
 *
 * Publishing an ftrace id that is there with the same CTF id does
 * nothing.  Returns 0; -EEXIST for an ftrace id published with another
 * CTF id; -ENOSPC when the map is full.  One writer thread.
 */
int ltt_ftrace_map_publish(struct ltt_ftrace_map_shm *map, uint32_t ctf_id,
			   const struct ltt_ftrace_event *layout);

/**
 * ltt_ftrace_map_publish_raw() - add the records of ftrace event
 * @layout->id whose raw id (the u32 at offset 8) is @raw_id as CTF id
 * @ctf_id (@raw_id 0: ltt_ftrace_map_publish())
 * @map: the writer's
 *
 * Returns as ltt_ftrace_map_publish(), for the pair (ftrace id, @raw_id).
 */
int ltt_ftrace_map_publish_raw(struct ltt_ftrace_map_shm *map, uint32_t ctf_id,
			       uint32_t raw_id, const struct ltt_ftrace_event *layout);

/**
 * ltt_ftrace_map_open() - map a map's memfd read-only (a reader)
 * @fd: borrowed
 * @ret_map: released with ltt_ftrace_map_unmap()
 *
 * Checks the seals (shrink and grow), the size, the magic, the version
 * and the capacity.  Returns 0, -EINVAL (not a map) or mmap's errno.
 */
int ltt_ftrace_map_open(int fd, const struct ltt_ftrace_map_shm **ret_map);

/**
 * ltt_ftrace_map_published() - how many entries @map has published
 * (an acquire load, capped at the capacity)
 */
uint32_t ltt_ftrace_map_published(const struct ltt_ftrace_map_shm *map);

/**
 * ltt_ftrace_map_entry_get() - a copy of entry @i (< published) into @ret,
 * checked: its ftrace id within 16 bits, at most LTT_FTRACE_MAX_FIELDS
 * fields, names NUL-terminated (the converter checks the fields' bounds
 * when it maps the layout).  Returns 0 or -EINVAL.
 */
int ltt_ftrace_map_entry_get(const struct ltt_ftrace_map_shm *map, uint32_t i,
			     struct ltt_ftrace_map_entry *ret);

/**
 * ltt_ftrace_map_unmap() - release a mapping of either side; accepts NULL
 */
void ltt_ftrace_map_unmap(const struct ltt_ftrace_map_shm *map);

#endif /* LTT_COMMON_FTRACE_MAP_H */
