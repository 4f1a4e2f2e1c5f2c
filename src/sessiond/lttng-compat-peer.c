// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-peer.c - which generation of LTTng's client protocol a
 * client speaks.  Its requests do not say (lttng-client-proto.h), but the
 * liblttng-ctl it runs does: each lttng-tools release added functions to
 * the library, whose names are in its dynamic string table.  The client's
 * mapping of liblttng-ctl.so is found in /proc/PID/maps and the library
 * read once per file (device and inode); a client without one (a program
 * that writes LTTng's requests itself) or that the daemon may not look at
 * (another user's process, for a daemon that is not root) is taken as a
 * 2.13 client, as before generations were told apart.  A root daemon that
 * gave root's rights up asks its privileged part (LTTNG_GEN).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/log.h"
#include "sessiond/lttng-compat.h"
#include "sessiond/priv/priv.h"

/* A function each release added to liblttng-ctl, newest first. */
static const struct {
	enum ltt_lttng_gen gen;
	const char *symbol;
} marks[] = {
	{ LTT_LTTNG_GEN_2_16, "lttng_action_increment_map_value_create" },
	{ LTT_LTTNG_GEN_2_15, "lttng_channel_get_watchdog_timer_interval" },
	{ LTT_LTTNG_GEN_2_14, "lttng_channel_get_allocation_policy" },
};

/* A library larger than this is not liblttng-ctl (1.5 MiB in 2.16). */
#define LIB_MAX (64u << 20)
/* The mappings read at most: a client of more is taken as a 2.13 one. */
#define MAPS_MAX 65536
#define CACHE_SIZE 8

static struct {
	pthread_mutex_t lock;
	struct {
		uint64_t dev, ino;
		enum ltt_lttng_gen gen;
	} e[CACHE_SIZE];
	unsigned int nr, next;
} cache = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The names in @p's dynamic string table, as memory (NUL before and after each). */
static enum ltt_lttng_gen gen_of_image(const uint8_t *p, size_t len)
{
	char needle[96];
	size_t i;
	int n;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		n = snprintf(needle, sizeof(needle), "%c%s%c", 0, marks[i].symbol, 0);
		if (n > 0 && (size_t)n < sizeof(needle) && memmem(p, len, needle, (size_t)n))
			return marks[i].gen;
	}
	return LTT_LTTNG_GEN_2_13;
}

/* The generation of the library open at @fd; -1 when it is not a library ltt reads. */
static int gen_of_fd(int fd)
{
	struct stat st;
	void *p;
	int gen;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 64 ||
	    (uint64_t)st.st_size > LIB_MAX)
		return -1;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	gen = (int)gen_of_image(p, (size_t)st.st_size);
	munmap(p, (size_t)st.st_size);
	return gen;
}

/*
 * The mapped file of @pid at @range ("START-END"), @path as maps shows it:
 * map_files (root's daemon), else the path within the client's root.
 */
static int open_mapped(pid_t pid, const char *range, const char *path)
{
	char buf[LTT_PATH_MAX];
	int fd = -1;

	if (snprintf(buf, sizeof(buf), "/proc/%d/map_files/%s", (int)pid, range) < (int)sizeof(buf))
		fd = open(buf, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && path[0] == '/' &&
	    snprintf(buf, sizeof(buf), "/proc/%d/root%s", (int)pid, path) < (int)sizeof(buf))
		fd = open(buf, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	return fd;
}

static bool cached(uint64_t dev, uint64_t ino, enum ltt_lttng_gen *ret)
{
	unsigned int i;
	bool found = false;

	pthread_mutex_lock(&cache.lock);
	for (i = 0; i < cache.nr && !found; i++) {
		if (cache.e[i].dev == dev && cache.e[i].ino == ino) {
			*ret = cache.e[i].gen;
			found = true;
		}
	}
	pthread_mutex_unlock(&cache.lock);
	return found;
}

static void remember(uint64_t dev, uint64_t ino, enum ltt_lttng_gen gen)
{
	unsigned int i;

	pthread_mutex_lock(&cache.lock);
	i = cache.nr < CACHE_SIZE ? cache.nr++ : cache.next++ % CACHE_SIZE;
	cache.e[i].dev = dev;
	cache.e[i].ino = ino;
	cache.e[i].gen = gen;
	pthread_mutex_unlock(&cache.lock);
}

/* Is @path's last component liblttng-ctl.so or one of its versions? */
static bool is_ctl_lib(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, "liblttng-ctl.so", 15) && (base[15] == '\0' || base[15] == '.');
}

enum ltt_lttng_gen ltt_lttng_peer_gen_here(pid_t pid)
{
	enum ltt_lttng_gen gen = LTT_LTTNG_GEN_2_13;
	char maps[64], line[LTT_PATH_MAX + 128], range[64], path[LTT_PATH_MAX];
	unsigned int major, minor;
	unsigned long long ino;
	unsigned int lines = 0;
	FILE *f;
	int fd, g;

	if (pid <= 0 || snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid) >= (int)sizeof(maps))
		return gen;
	f = fopen(maps, "re");
	if (!f) {
		LTT_DBG("LTTng client pid %d: can't read %s (%s): taken as an LTTng 2.13 client",
			(int)pid, maps, strerror(errno));
		return gen;
	}
	while (lines++ < MAPS_MAX && fgets(line, sizeof(line), f)) {
		path[0] = '\0';
		if (sscanf(line, "%63s %*s %*s %x:%x %llu %4095[^\n]", range, &major, &minor, &ino,
			   path) != 5 || !is_ctl_lib(path))
			continue;
		if (cached(((uint64_t)major << 32) | minor, ino, &gen))
			break;
		fd = open_mapped(pid, range, path);
		g = fd >= 0 ? gen_of_fd(fd) : -1;
		if (fd >= 0)
			close(fd);
		if (g < 0) {
			LTT_DBG("LTTng client pid %d: can't read its %s: taken as an LTTng 2.13 client",
				(int)pid, path);
			break;
		}
		gen = (enum ltt_lttng_gen)g;
		remember(((uint64_t)major << 32) | minor, ino, gen);
		break;
	}
	fclose(f);
	return gen;
}

enum ltt_lttng_gen ltt_lttng_peer_gen(pid_t pid)
{
	/* a daemon that gave root's rights up may not read root's clients' maps */
	int ret = ltt_priv_lttng_gen(pid);

	if (ret > 0 && ret - 1 <= LTT_LTTNG_GEN_2_16)
		return (enum ltt_lttng_gen)(ret - 1);
	if (ret < 0)
		LTT_DBG("LTTng client pid %d: the privileged part could not tell its version (%s): read here",
			(int)pid, strerror(-ret));
	return ltt_lttng_peer_gen_here(pid);
}
