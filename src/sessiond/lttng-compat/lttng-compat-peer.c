// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-peer.c - which generation of LTTng's client protocol a
 * client speaks.  Its requests do not say (lttng-client-proto.h), but the
 * liblttng-ctl it runs does: each lttng-tools release added functions to
 * the library, whose names are in its dynamic string table.  The client's
 * mapping of liblttng-ctl.so is found in /proc/PID/maps, the mapped file
 * itself opened through /proc/PID/map_files (what the process maps, not
 * a path it could have bent), and read once per file: kept by what
 * fstat() says of it (device, inode, size, change time).
 *
 * A client without liblttng-ctl (a program writing LTTng's requests
 * itself) is taken as a 2.13 client, as before generations were told
 * apart.  One the daemon could not look at (its pid unknown, its maps
 * unreadable, too many mappings, its library unreadable) is unknown:
 * nothing it asks is run (lttng-compat.c), since 2.16's numbers mean
 * other commands of 2.13's.  A root daemon that gave root's rights up
 * asks its privileged part (LTTNG_GEN, with the client's connection: the
 * part reads the pid there).  The library is read with pread(), never
 * mapped: its owner may cut it meanwhile.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/log.h"
#include "sessiond/lttng-compat/lttng-compat.h"
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
#define LIB_MAX (16u << 20)
/* The mappings read at most: a client of more is unknown. */
#define MAPS_MAX 65536
#define CACHE_SIZE 8
#define CHUNK (64u << 10)
#define NEEDLE_MAX 64	/* a mark with its two NULs */

static struct {
	pthread_mutex_t lock;
	struct {
		dev_t dev;
		ino_t ino;
		off_t size;
		struct timespec ctime;
		enum ltt_lttng_gen gen;
	} e[CACHE_SIZE];
	unsigned int nr, next;
} cache = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Is mark @i's name, NUL on each side, in @p? */
static bool has_mark(const uint8_t *p, size_t len, size_t i)
{
	char needle[NEEDLE_MAX];
	int n = snprintf(needle, sizeof(needle), "%c%s%c", 0, marks[i].symbol, 0);

	return n > 0 && (size_t)n < sizeof(needle) && memmem(p, len, needle, (size_t)n);
}

/*
 * The generation of the library open at @fd (@st: its fstat()), read in
 * chunks, the last bytes of each kept before the next (a name across
 * two); -1 on a read error.
 */
static int gen_of_fd(int fd, const struct stat *st)
{
	static const size_t nr_marks = sizeof(marks) / sizeof(marks[0]);
	uint8_t *buf = malloc(CHUNK + NEEDLE_MAX);	/* once per library: not kept */
	bool seen[sizeof(marks) / sizeof(marks[0])] = { false };
	size_t have = 0, i;
	off_t off = 0;
	ssize_t n;

	if (!buf)
		return -1;
	while (off < st->st_size) {
		n = pread(fd, buf + have, CHUNK, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return -1;
		}
		if (n == 0)
			break;	/* cut meanwhile: what was read is what it holds */
		off += n;
		have += (size_t)n;
		for (i = 0; i < nr_marks; i++)
			seen[i] = seen[i] || has_mark(buf, have, i);
		if (have > NEEDLE_MAX - 1) {
			memmove(buf, buf + have - (NEEDLE_MAX - 1), NEEDLE_MAX - 1);
			have = NEEDLE_MAX - 1;
		}
	}
	free(buf);
	for (i = 0; i < nr_marks; i++)
		if (seen[i])
			return (int)marks[i].gen;
	return LTT_LTTNG_GEN_2_13;
}

static bool same_file(unsigned int i, const struct stat *st)
{
	return cache.e[i].dev == st->st_dev && cache.e[i].ino == st->st_ino &&
	       cache.e[i].size == st->st_size && cache.e[i].ctime.tv_sec == st->st_ctim.tv_sec &&
	       cache.e[i].ctime.tv_nsec == st->st_ctim.tv_nsec;
}

/* The generation of the library open at @fd, as known or read now; -1: none. */
static int gen_of_lib(int fd)
{
	struct stat st;
	unsigned int i;
	int gen = -1;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 64 ||
	    (uint64_t)st.st_size > LIB_MAX)
		return -1;
	pthread_mutex_lock(&cache.lock);
	for (i = 0; i < cache.nr && gen < 0; i++)
		if (same_file(i, &st))
			gen = (int)cache.e[i].gen;
	pthread_mutex_unlock(&cache.lock);
	if (gen >= 0)
		return gen;
	gen = gen_of_fd(fd, &st);
	if (gen < 0)
		return -1;
	pthread_mutex_lock(&cache.lock);
	i = cache.nr < CACHE_SIZE ? cache.nr++ : cache.next++ % CACHE_SIZE;
	cache.e[i].dev = st.st_dev;
	cache.e[i].ino = st.st_ino;
	cache.e[i].size = st.st_size;
	cache.e[i].ctime = st.st_ctim;
	cache.e[i].gen = (enum ltt_lttng_gen)gen;
	pthread_mutex_unlock(&cache.lock);
	return gen;
}

/* Is @path's last component liblttng-ctl.so or one of its versions? */
static bool is_ctl_lib(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, "liblttng-ctl.so", 15) && (base[15] == '\0' || base[15] == '.');
}

/* Is @range a mapping's "START-END", in lowercase hexadecimal? */
static bool is_range(const char *range)
{
	size_t a = strspn(range, "0123456789abcdef");

	return a && range[a] == '-' && strspn(range + a + 1, "0123456789abcdef") > 0 &&
	       range[a + 1 + strspn(range + a + 1, "0123456789abcdef")] == '\0';
}

/*
 * The file @pid maps at @range (@path as maps shows it): through
 * map_files, which a root daemon may open; a daemon that is not root
 * (a user's own, whose clients are that user's) opens the path within
 * the client's root instead.  -1 when neither opens.
 */
static int open_mapped(pid_t pid, const char *range, const char *path)
{
	char buf[LTT_PATH_MAX];
	int fd = -1;

	if (snprintf(buf, sizeof(buf), "/proc/%d/map_files/%s", (int)pid, range) < (int)sizeof(buf))
		fd = open(buf, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 && geteuid() != 0 && path[0] == '/' &&
	    snprintf(buf, sizeof(buf), "/proc/%d/root%s", (int)pid, path) < (int)sizeof(buf))
		fd = open(buf, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	return fd;
}

enum ltt_lttng_gen ltt_lttng_peer_gen_here(pid_t pid)
{
	char maps[64], line[LTT_PATH_MAX + 128], range[64], path[LTT_PATH_MAX];
	enum ltt_lttng_gen gen = LTT_LTTNG_GEN_2_13;
	unsigned int lines = 0;
	bool whole = true;
	size_t len;
	FILE *f;
	int fd, g;

	if (pid <= 0 || snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid) >= (int)sizeof(maps))
		return LTT_LTTNG_GEN_UNKNOWN;
	f = fopen(maps, "re");
	if (!f) {
		LTT_DBG("LTTng client pid %d: can't read %s: %s", (int)pid, maps, strerror(errno));
		return LTT_LTTNG_GEN_UNKNOWN;
	}
	while (fgets(line, sizeof(line), f)) {
		/* a line longer than the buffer: its pieces are no mappings (their text is the client's) */
		len = strlen(line);
		if (!whole || !len || line[len - 1] != '\n') {
			whole = len && line[len - 1] == '\n';
			continue;
		}
		if (++lines > MAPS_MAX) {
			gen = LTT_LTTNG_GEN_UNKNOWN;
			break;
		}
		path[0] = '\0';
		if (sscanf(line, "%63s %*s %*s %*s %*s %4095[^\n]", range, path) != 2 ||
		    !is_ctl_lib(path) || !is_range(range))
			continue;
		fd = open_mapped(pid, range, path);
		g = fd >= 0 ? gen_of_lib(fd) : -1;
		if (fd >= 0)
			close(fd);
		if (g < 0)
			LTT_DBG("LTTng client pid %d: can't read its %s", (int)pid, path);
		gen = g < 0 ? LTT_LTTNG_GEN_UNKNOWN : (enum ltt_lttng_gen)g;
		break;
	}
	fclose(f);
	return gen;
}

enum ltt_lttng_gen ltt_lttng_peer_gen(int client_fd, pid_t pid)
{
	/* a daemon that gave root's rights up may not read root's clients' maps */
	int ret = ltt_priv_lttng_gen(client_fd);

	if (ret > 0 && ret - 1 <= LTT_LTTNG_GEN_UNKNOWN)
		return (enum ltt_lttng_gen)(ret - 1);
	if (ret < 0) {
		LTT_WARN_RL("LTTng client pid %d: the privileged part could not tell its version: %s",
			    (int)pid, strerror(-ret));
		return LTT_LTTNG_GEN_UNKNOWN;
	}
	return ltt_lttng_peer_gen_here(pid);
}
