// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ftrace-map.c - a tracefs channel's event map in a sealed memfd.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/ftrace/ftrace-map.h"
#include "filter-vm/filter-bytecode.h"

#define PAD4(n) (((n) + 3u) & ~3u)

static uint8_t *filter_log(const struct ltt_ftrace_map_shm *map)
{
	return (uint8_t *)map + LTT_FTRACE_MAP_FILTER_OFFSET;
}

int ltt_ftrace_map_create(const struct ltt_ftrace_page_layout *page, int *ret_fd,
			  struct ltt_ftrace_map_shm **ret_map)
{
	struct ltt_ftrace_map_shm *map;
	int fd, err;

	fd = memfd_create("ltt-ftrace-map", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)LTT_FTRACE_MAP_SIZE) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL))
		goto fail;
	map = mmap(NULL, LTT_FTRACE_MAP_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		goto fail;
	map->magic = LTT_FTRACE_MAP_MAGIC;
	map->version = LTT_FTRACE_MAP_VERSION;
	map->capacity = LTT_FTRACE_MAP_CAPACITY;
	map->page = *page;
	__atomic_store_n(&map->nr, 0, __ATOMIC_RELEASE);
	*ret_fd = fd;
	*ret_map = map;
	return 0;
fail:
	err = -errno;
	close(fd);
	return err;
}

int ltt_ftrace_map_publish(struct ltt_ftrace_map_shm *map, uint32_t ctf_id,
			   const struct ltt_ftrace_event *layout)
{
	return ltt_ftrace_map_publish_raw(map, ctf_id, 0, layout);
}

/* The index of the latest entry of (@ftrace_id, @raw_id) in the writer's @map, or -1. */
static long entry_find(const struct ltt_ftrace_map_shm *map, uint32_t ftrace_id, uint32_t raw_id)
{
	uint32_t i;

	for (i = map->nr; i-- > 0;)
		if (map->entries[i].layout.id == ftrace_id && map->entries[i].raw_id == raw_id)
			return (long)i;
	return -1;
}

bool ltt_ftrace_map_recorded(const struct ltt_ftrace_map_shm *map, uint32_t ftrace_id)
{
	long i = entry_find(map, ftrace_id, 0);

	return i >= 0 && map->entries[i].ctf_id != LTT_FTRACE_CTF_TASKS_ONLY;
}

bool ltt_ftrace_map_has(const struct ltt_ftrace_map_shm *map, uint32_t ftrace_id,
			uint32_t raw_id)
{
	return entry_find(map, ftrace_id, raw_id) >= 0;
}

int ltt_ftrace_map_publish_raw(struct ltt_ftrace_map_shm *map, uint32_t ctf_id,
			       uint32_t raw_id, const struct ltt_ftrace_event *layout)
{
	long i = entry_find(map, layout->id, raw_id);
	uint32_t nr = map->nr;

	if (i >= 0 && map->entries[i].ctf_id == ctf_id)
		return 0;
	/* an event read for the task table only may become written, once */
	if (i >= 0 && (raw_id || map->entries[i].ctf_id != LTT_FTRACE_CTF_TASKS_ONLY))
		return -EEXIST;
	if (nr >= map->capacity)
		return -ENOSPC;
	map->entries[nr].ctf_id = ctf_id;
	map->entries[nr].raw_id = raw_id;
	map->entries[nr].layout = *layout;
	__atomic_store_n(&map->nr, nr + 1, __ATOMIC_RELEASE);
	return 0;
}

/* A program that accepts nothing: push 0, return it. */
const uint8_t ltt_ftrace_map_reject_code[LTT_FTRACE_MAP_REJECT_LEN] = {
	'L', 'T', 'T', 'F', LTT_FILTER_VERSION, 1, 0, 0, 10, 0, 0, 0,
	LTT_FOP_PUSH_S64, 0, 0, 0, 0, 0, 0, 0, 0, LTT_FOP_RETURN,
};

int ltt_ftrace_map_publish_reject(struct ltt_ftrace_map_shm *map, uint32_t ftrace_id,
				  uint32_t raw_id, uint64_t since_ns)
{
	const uint8_t *code = ltt_ftrace_map_reject_code;
	uint32_t len = LTT_FTRACE_MAP_REJECT_LEN;

	return ltt_ftrace_map_publish_filter(map, ftrace_id, raw_id, since_ns, &code, &len, 1);
}

int ltt_ftrace_map_publish_filter(struct ltt_ftrace_map_shm *map, uint32_t ftrace_id,
				  uint32_t raw_id, uint64_t since_ns, const uint8_t *const *code,
				  const uint32_t *len, uint32_t nr)
{
	struct ltt_ftrace_map_filter_hdr h = { 0, ftrace_id, raw_id, nr, since_ns };
	uint32_t used = map->filter_used, i;
	uint64_t size = sizeof(h) + (uint64_t)nr * 4;
	uint8_t *at;

	if (nr > LTT_FTRACE_MAP_FILTER_PROGRAMS)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		if (!len[i] || len[i] > LTT_FILTER_MAX_LEN)
			return -EINVAL;
		size += PAD4(len[i]);
	}
	if (size > LTT_FTRACE_MAP_FILTER_BYTES - used)
		return -ENOSPC;
	h.size = (uint32_t)size;
	at = filter_log(map) + used;
	memcpy(at, &h, sizeof(h));
	if (nr)
		memcpy(at + sizeof(h), len, (size_t)nr * 4);	/* @len may be NULL with none */
	at += sizeof(h) + (size_t)nr * 4;
	for (i = 0; i < nr; i++) {
		memcpy(at, code[i], len[i]);
		memset(at + len[i], 0, PAD4(len[i]) - len[i]);
		at += PAD4(len[i]);
	}
	__atomic_store_n(&map->filter_used, used + h.size, __ATOMIC_RELEASE);
	return 0;
}

bool ltt_ftrace_map_filtered(const struct ltt_ftrace_map_shm *map, uint32_t ftrace_id,
			     uint32_t raw_id)
{
	struct ltt_ftrace_map_filter_hdr h;
	bool filtered = false;
	uint32_t at;

	for (at = 0; at < map->filter_used; at += h.size) {
		memcpy(&h, filter_log(map) + at, sizeof(h));
		if (h.ftrace_id == ftrace_id && h.raw_id == raw_id)
			filtered = h.nr_programs != 0;
	}
	return filtered;
}

int ltt_ftrace_map_open(int fd, const struct ltt_ftrace_map_shm **ret_map)
{
	const int seals = F_SEAL_SHRINK | F_SEAL_GROW;
	struct ltt_ftrace_map_shm *map;
	struct stat st;
	int have = fcntl(fd, F_GET_SEALS);

	if (have < 0 || (have & seals) != seals || fstat(fd, &st) ||
	    st.st_size != (off_t)LTT_FTRACE_MAP_SIZE)
		return -EINVAL;
	map = mmap(NULL, LTT_FTRACE_MAP_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	if (map->magic != LTT_FTRACE_MAP_MAGIC || map->version != LTT_FTRACE_MAP_VERSION ||
	    map->capacity != LTT_FTRACE_MAP_CAPACITY) {
		munmap(map, LTT_FTRACE_MAP_SIZE);
		return -EINVAL;
	}
	*ret_map = map;
	return 0;
}

uint32_t ltt_ftrace_map_published(const struct ltt_ftrace_map_shm *map)
{
	uint32_t nr = __atomic_load_n(&map->nr, __ATOMIC_ACQUIRE);

	return nr < LTT_FTRACE_MAP_CAPACITY ? nr : LTT_FTRACE_MAP_CAPACITY;
}

static bool name_ok(const char *name)
{
	return memchr(name, '\0', LTT_FTRACE_NAME_MAX) != NULL;
}

int ltt_ftrace_map_entry_get(const struct ltt_ftrace_map_shm *map, uint32_t i,
			     struct ltt_ftrace_map_entry *ret)
{
	uint32_t f;

	if (i >= ltt_ftrace_map_published(map))
		return -EINVAL;
	memcpy(ret, &map->entries[i], sizeof(*ret));
	if (ret->layout.id > UINT16_MAX || ret->layout.nr_fields > LTT_FTRACE_MAX_FIELDS ||
	    !name_ok(ret->layout.system) || !name_ok(ret->layout.name))
		return -EINVAL;
	for (f = 0; f < ret->layout.nr_fields; f++)
		if (!name_ok(ret->layout.fields[f].name))
			return -EINVAL;
	return 0;	/* the converter checks the fields' bounds when mapping */
}

/* The programs of the record of @size bytes at @rec (a private copy) into @ret. */
static int filter_parse(uint8_t *rec, uint32_t size, struct ltt_ftrace_map_filter *ret)
{
	struct ltt_ftrace_map_filter_hdr h;
	uint32_t i, at;

	memcpy(&h, rec, sizeof(h));
	if (h.size != size || h.nr_programs > LTT_FTRACE_MAP_FILTER_PROGRAMS ||
	    h.ftrace_id > UINT16_MAX || sizeof(h) + (uint64_t)h.nr_programs * 4 > size)
		return -EINVAL;
	ret->ftrace_id = h.ftrace_id;
	ret->raw_id = h.raw_id;
	ret->since_ns = h.since_ns;
	ret->prev = NULL;
	ret->nr = h.nr_programs;
	memcpy(ret->len, rec + sizeof(h), (size_t)h.nr_programs * 4);
	at = (uint32_t)sizeof(h) + h.nr_programs * 4;
	for (i = 0; i < h.nr_programs; i++) {
		if (!ret->len[i] || ret->len[i] > LTT_FILTER_MAX_LEN ||
		    PAD4(ret->len[i]) > size - at)
			return -EINVAL;
		ret->code[i] = rec + at;
		at += PAD4(ret->len[i]);
	}
	return at == size ? 0 : -EINVAL;
}

int ltt_ftrace_map_filter_next(const struct ltt_ftrace_map_shm *map, uint32_t *cursor,
			       struct ltt_ftrace_map_filter *ret)
{
	uint32_t used = __atomic_load_n(&map->filter_used, __ATOMIC_ACQUIRE), size;
	int err;

	ret->buf = NULL;
	if (used > LTT_FTRACE_MAP_FILTER_BYTES || *cursor > used || (*cursor & 3))
		return -EINVAL;
	if (*cursor == used)
		return -ENODATA;
	if (used - *cursor < sizeof(struct ltt_ftrace_map_filter_hdr))
		return -EINVAL;
	memcpy(&size, filter_log(map) + *cursor, 4);
	if (size < sizeof(struct ltt_ftrace_map_filter_hdr) || size > used - *cursor || (size & 3))
		return -EINVAL;
	ret->buf = malloc(size);
	if (!ret->buf)
		return -ENOMEM;
	memcpy(ret->buf, filter_log(map) + *cursor, size);	/* the writer's memory: copied first */
	err = filter_parse(ret->buf, size, ret);
	if (err) {
		free(ret->buf);
		ret->buf = NULL;
		return err;
	}
	*cursor += size;
	return 0;
}

void ltt_ftrace_map_unmap(const struct ltt_ftrace_map_shm *map)
{
	if (map)
		munmap((void *)map, LTT_FTRACE_MAP_SIZE);
}
