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
 * entry.  An (ftrace id, raw id) pair appears once, but for an ordinary
 * event that a channel's task table needs (common/ftrace/ftrace-tasks.h) and
 * the user did not enable: first LTT_FTRACE_CTF_TASKS_ONLY (read, not
 * written), then its CTF id if the user enables it (a later entry
 * replaces an earlier one; which of its records are written from when
 * is the filter log's to say: ltt_ftrace_map_publish_reject()).
 *
 * Raw entries: records the session daemon writes itself through an
 * instance's trace_marker_raw are all of one ftrace event, ftrace:raw_data
 * (a u32 id at offset 8, then the bytes written after it).  An entry
 * whose @raw_id is not 0 stands for the records of layout.id (raw_data's
 * ftrace id) whose u32 at offset 8 is @raw_id, laid out by @layout (its
 * fields at 12 and after).  An ordinary entry has @raw_id 0 and stands
 * for every record of its ftrace id.
 *
 * Filters: after the entries lies a log of filter records, append-only
 * as the entries are (its bytes published with release in the header's
 * @filter_used).  A record names an event, (ftrace id, raw id), and the
 * programs (filter-vm/filter-bytecode.h, compiled against the fields of
 * the event's layout as ltt_ftrace_filter_fields() gives them) that
 * decide which of its records the consumer keeps: it keeps a record when
 * one of them accepts it; with no program, every record.  A record holds
 * from its @since_ns on (CLOCK_MONOTONIC, the instances' clock): a
 * record of the event stamped before that is judged by the programs
 * before it (none before the first), whenever the consumer reads it, so
 * a filter changes from the moment of the change as the module's does.
 * The session daemon publishes an event's programs before it enables
 * the event (and before its entry).
 *
 * Readers treat the memory as another process's: they copy each entry
 * and each filter record out and check it (ltt_ftrace_map_entry_get(),
 * ltt_ftrace_map_filter_next()) before use.
 */
#ifndef LTT_COMMON_FTRACE_MAP_H
#define LTT_COMMON_FTRACE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/ftrace/ftrace-format.h"

#define LTT_FTRACE_MAP_MAGIC	0x4d46544cu	/* "LTFM" */
#define LTT_FTRACE_MAP_VERSION	3u	/* 3: a field's bias */
#define LTT_FTRACE_MAP_CAPACITY	4096u		/* events one channel records */
#define LTT_FTRACE_MAP_FILTER_BYTES (4u << 20)	/* the filter log */
#define LTT_FTRACE_MAP_FILTER_PROGRAMS 64u	/* programs of one record */
/* An entry's ctf_id for an event read for the task table only (no CTF event). */
#define LTT_FTRACE_CTF_TASKS_ONLY UINT32_MAX

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
	uint32_t filter_used;		/* bytes of the filter log published (release/acquire) */
	uint32_t reserved[7];
	struct ltt_ftrace_map_entry entries[];
};

/*
 * A filter record in the log, 4-byte aligned: this header, @nr_programs
 * u32 lengths, then each program, each padded to 4 bytes; @size counts
 * it all.
 */
struct ltt_ftrace_map_filter_hdr {
	uint32_t size;
	uint32_t ftrace_id;
	uint32_t raw_id;
	uint32_t nr_programs;		/* 0..LTT_FTRACE_MAP_FILTER_PROGRAMS; 0: no filter */
	uint64_t since_ns;		/* CLOCK_MONOTONIC: records from then on */
};

#define LTT_FTRACE_MAP_FILTER_OFFSET \
	(sizeof(struct ltt_ftrace_map_shm) + \
	 LTT_FTRACE_MAP_CAPACITY * sizeof(struct ltt_ftrace_map_entry))
#define LTT_FTRACE_MAP_SIZE (LTT_FTRACE_MAP_FILTER_OFFSET + LTT_FTRACE_MAP_FILTER_BYTES)

/* A filter record as a reader copied it out: the programs are its own. */
struct ltt_ftrace_map_filter {
	uint32_t ftrace_id;
	uint32_t raw_id;
	uint64_t since_ns;
	/* the reader's: the event's record before this one (NULL: none) */
	const struct ltt_ftrace_map_filter *prev;
	uint32_t nr;				/* programs; 0: every record kept */
	uint32_t len[LTT_FTRACE_MAP_FILTER_PROGRAMS];
	uint8_t *code[LTT_FTRACE_MAP_FILTER_PROGRAMS];	/* into @buf */
	uint8_t *buf;				/* malloc()ed: free() it */
};

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
 * Publishing an ftrace id whose latest entry has the same CTF id does
 * nothing; one whose latest entry is LTT_FTRACE_CTF_TASKS_ONLY appends
 * an entry that replaces it.  Returns 0; -EEXIST for an ftrace id
 * published with another CTF id; -ENOSPC when the map is full.  One
 * writer thread.
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
 * ltt_ftrace_map_publish_filter() - set the programs of the event
 * (@ftrace_id, @raw_id) from @since_ns on: append a filter record to
 * @map's log
 * @code: @nr programs (borrowed), each of @len[i] bytes; @nr 0: no filter
 *
 * The programs are not checked here (the caller validated them against
 * the event's fields).  Returns 0; -EINVAL for more than
 * LTT_FTRACE_MAP_FILTER_PROGRAMS programs or one of 0 bytes or more than
 * LTT_FILTER_MAX_LEN; -ENOSPC when the log has no room left.  One writer
 * thread.
 */
int ltt_ftrace_map_publish_filter(struct ltt_ftrace_map_shm *map, uint32_t ftrace_id,
				  uint32_t raw_id, uint64_t since_ns, const uint8_t *const *code,
				  const uint32_t *len, uint32_t nr);

/* A program that accepts no record (filter-vm/filter-bytecode.h). */
#define LTT_FTRACE_MAP_REJECT_LEN 22u
extern const uint8_t ltt_ftrace_map_reject_code[LTT_FTRACE_MAP_REJECT_LEN];

/**
 * ltt_ftrace_map_publish_reject() - no record of the event (@ftrace_id,
 * @raw_id) kept from @since_ns on: a filter record of one program that
 * accepts none (a task table's event read on while the user does not
 * record it).  Returns as ltt_ftrace_map_publish_filter().
 */
int ltt_ftrace_map_publish_reject(struct ltt_ftrace_map_shm *map, uint32_t ftrace_id,
				  uint32_t raw_id, uint64_t since_ns);

/**
 * ltt_ftrace_map_filtered() - does the latest filter record of the event
 * (@ftrace_id, @raw_id) in @map's log hold a program? (the writer's
 * question before it enables the event unfiltered)
 */
bool ltt_ftrace_map_filtered(const struct ltt_ftrace_map_shm *map, uint32_t ftrace_id,
			     uint32_t raw_id);

/**
 * ltt_ftrace_map_recorded() - is the ordinary event @ftrace_id's latest
 * entry in @map written into the trace (not LTT_FTRACE_CTF_TASKS_ONLY)?
 * (the writer's)
 */
bool ltt_ftrace_map_recorded(const struct ltt_ftrace_map_shm *map, uint32_t ftrace_id);

/**
 * ltt_ftrace_map_has() - is the event (@ftrace_id, @raw_id) published in
 * @map? (the writer's)
 */
bool ltt_ftrace_map_has(const struct ltt_ftrace_map_shm *map, uint32_t ftrace_id,
			uint32_t raw_id);

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
 * ltt_ftrace_map_filter_next() - copy out the filter record at *@cursor
 * (a byte offset into the log, 0 at first) and move @cursor past it
 * @ret: filled on success; free ret->buf (also after a later failure:
 *       NULL then)
 *
 * Checks the record's sizes against the published bytes and the limits,
 * never the programs (ltt_filter_validate() does, against the event).
 * Returns 0, -ENODATA when @cursor is at the published end, -EINVAL for
 * a record that lies (the log is unusable from there on), -ENOMEM.
 */
int ltt_ftrace_map_filter_next(const struct ltt_ftrace_map_shm *map, uint32_t *cursor,
			       struct ltt_ftrace_map_filter *ret);

/**
 * ltt_ftrace_map_unmap() - release a mapping of either side; accepts NULL
 */
void ltt_ftrace_map_unmap(const struct ltt_ftrace_map_shm *map);

#endif /* LTT_COMMON_FTRACE_MAP_H */
