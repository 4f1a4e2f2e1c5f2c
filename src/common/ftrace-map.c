// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ftrace-map.c - a tracefs channel's event map in a sealed memfd.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/ftrace-map.h"

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

int ltt_ftrace_map_publish_raw(struct ltt_ftrace_map_shm *map, uint32_t ctf_id,
			       uint32_t raw_id, const struct ltt_ftrace_event *layout)
{
	uint32_t i, nr = map->nr;

	for (i = 0; i < nr; i++)
		if (map->entries[i].layout.id == layout->id && map->entries[i].raw_id == raw_id)
			return map->entries[i].ctf_id == ctf_id ? 0 : -EEXIST;
	if (nr >= map->capacity)
		return -ENOSPC;
	map->entries[nr].ctf_id = ctf_id;
	map->entries[nr].raw_id = raw_id;
	map->entries[nr].layout = *layout;
	__atomic_store_n(&map->nr, nr + 1, __ATOMIC_RELEASE);
	return 0;
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

void ltt_ftrace_map_unmap(const struct ltt_ftrace_map_shm *map)
{
	if (map)
		munmap((void *)map, LTT_FTRACE_MAP_SIZE);
}
