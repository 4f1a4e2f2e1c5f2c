// SPDX-License-Identifier: LGPL-2.1-only
/*
 * trace-repair.c - cut what a crash left torn at the end of a trace's
 * files (see trace-repair.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/trace/trace-repair.h"

#define REPAIR_MAX_DEPTH 10
/* where a metadata packet's packet_size (bits, host order) lies */
#define META_PACKET_SIZE_OFF 28

int ltt_index_last_whole(int idx_fd, uint64_t idx_len, uint64_t data_len,
			 uint64_t *ret_entries, struct ltt_ctf_index_entry *ret)
{
	uint8_t hdr[LTT_CTF_INDEX_HEADER_SIZE], rec[LTT_CTF_INDEX_ENTRY_SIZE];
	uint64_t n;
	uint32_t esize;

	*ret_entries = 0;
	if (idx_len < sizeof(hdr))
		return 0;
	if (pread(idx_fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr))
		return -EIO;
	if (ltt_ctf_index_header_decode(hdr, &esize) || esize != LTT_CTF_INDEX_ENTRY_SIZE)
		return -EPROTO;
	for (n = (idx_len - sizeof(hdr)) / sizeof(rec); n; n--) {
		if (pread(idx_fd, rec, sizeof(rec), (off_t)(sizeof(hdr) + (n - 1) * sizeof(rec))) !=
		    (ssize_t)sizeof(rec))
			return -EIO;
		if (ltt_ctf_index_entry_decode(rec, sizeof(rec), ret))
			return -EPROTO;
		if (ret->offset <= data_len && ret->packet_size / 8 <= data_len - ret->offset)
			break;
	}
	*ret_entries = n;
	return 0;
}

int ltt_metadata_whole_len(int fd, uint64_t len, uint64_t *ret_len)
{
	uint8_t hdr[LTT_CTF_METADATA_HEADER_SIZE];
	uint32_t magic, bits;
	uint64_t off = 0;

	while (len - off >= sizeof(hdr)) {
		if (pread(fd, hdr, sizeof(hdr), (off_t)off) != (ssize_t)sizeof(hdr))
			return -EIO;
		memcpy(&magic, hdr, sizeof(magic));
		memcpy(&bits, hdr + META_PACKET_SIZE_OFF, sizeof(bits));
		if (magic != LTT_CTF_METADATA_MAGIC || bits < sizeof(hdr) * 8 || bits % 8 ||
		    bits / 8 > len - off)
			break;
		off += bits / 8;
	}
	*ret_len = off;
	return 0;
}

/* Open @name in @dir_fd read-write: a regular file, no link followed; its size. */
static int open_regular(int dir_fd, const char *name, int *ret_fd, uint64_t *ret_size)
{
	struct stat st;
	int fd = openat(dir_fd, name, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EPERM;
	}
	*ret_fd = fd;
	*ret_size = (uint64_t)st.st_size;
	return 0;
}

/* Cut @fd (file @what of trace @trace) from @len to @to bytes, logged. */
static void cut(int fd, uint64_t len, uint64_t to, const char *trace, const char *what,
		struct ltt_repair_stats *stats)
{
	if (to >= len)
		return;
	if (ftruncate(fd, (off_t)to)) {
		LTT_ERR("trace %s: can't cut %s back to its whole packets (%" PRIu64 " of %" PRIu64
			" bytes): %s", trace, what, to, len, strerror(errno));
		stats->errors++;
		return;
	}
	LTT_WARN("trace %s: %s cut from %" PRIu64 " to %" PRIu64
		 " bytes: its end was torn by a crash", trace, what, len, to);
	stats->cut++;
	stats->bytes += len - to;
}

/* Does @fd begin with a metadata packet's magic? */
static bool starts_with_magic(int fd)
{
	uint32_t magic;

	return pread(fd, &magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) &&
	       magic == LTT_CTF_METADATA_MAGIC;
}

/* The length of CTF 2 metadata @fd's whole fragments (@len bytes), or -EIO. */
static int ctf2_whole_len(int fd, uint64_t len, uint64_t *ret_len)
{
	struct ltt_ctf2_scan scan;
	uint8_t buf[65536];
	uint64_t off;
	ssize_t n;

	ltt_ctf2_scan_init(&scan);
	for (off = 0; off < len && !scan.broken; off += (uint64_t)n) {
		n = pread(fd, buf, len - off < sizeof(buf) ? (size_t)(len - off) : sizeof(buf),
			  (off_t)off);
		if (n <= 0)
			return -EIO;
		ltt_ctf2_scan_feed(&scan, buf, (size_t)n);
	}
	*ret_len = scan.whole;
	return 0;
}

/* Does @fd begin with CTF 2's record separator? */
static bool starts_ctf2(int fd)
{
	uint8_t c;

	return pread(fd, &c, 1, 0) == 1 && c == LTT_CTF2_RS;
}

static void repair_metadata(int dir_fd, const char *trace, struct ltt_repair_stats *stats)
{
	uint64_t len, whole;
	int fd;

	if (open_regular(dir_fd, "metadata", &fd, &len))
		return;
	if (starts_ctf2(fd)) {
		/* CTF 2's fragments: a crash may have torn the last */
		if (ctf2_whole_len(fd, len, &whole))
			stats->errors++;
		else
			cut(fd, len, whole, trace, "metadata", stats);
	} else if (ltt_metadata_whole_len(fd, len, &whole)) {
		stats->errors++;
	} else if (starts_with_magic(fd)) {
		cut(fd, len, whole, trace, "metadata", stats);
	}
	/* else not packets of ours (text metadata, another file): left alone */
	close(fd);
}

/* Stream file @name (index @idx_name in @idx_dir_fd) cut to what its index holds whole. */
static void repair_stream(int dir_fd, int idx_dir_fd, const char *name, const char *idx_name,
			  const char *trace, struct ltt_repair_stats *stats)
{
	uint8_t hdr[LTT_CTF_INDEX_HEADER_SIZE];
	uint64_t len, idx_len, n = 0, whole;
	struct ltt_ctf_index_entry e;
	int fd, idx_fd, ret;

	if (open_regular(dir_fd, name, &fd, &len))
		return;
	if (open_regular(idx_dir_fd, idx_name, &idx_fd, &idx_len)) {
		close(fd);
		return;
	}
	ret = ltt_index_last_whole(idx_fd, idx_len, len, &n, &e);
	if (ret) {
		LTT_WARN("trace %s: index of %s unreadable (%s): left as it is", trace, name,
			 strerror(-ret));
		stats->errors++;
		goto out;
	}
	whole = n ? e.offset + e.packet_size / 8 : 0;
	cut(fd, len, whole, trace, name, stats);
	if (idx_len < sizeof(hdr)) {
		/* torn in its header: an index of no entry */
		ltt_ctf_index_header(hdr);
		if (pwrite(idx_fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr))
			stats->errors++;
		idx_len = sizeof(hdr) + 1;	/* cut to the header below */
	}
	cut(idx_fd, idx_len, sizeof(hdr) + n * LTT_CTF_INDEX_ENTRY_SIZE, trace, idx_name, stats);
out:
	close(idx_fd);
	close(fd);
}

/* Each index/NAME.idx of trace directory @dir_fd with its stream file NAME. */
static void repair_streams(int dir_fd, const char *trace, struct ltt_repair_stats *stats)
{
	char name[NAME_MAX + 1];
	struct dirent *de;
	size_t len;
	DIR *dir;
	int fd;

	fd = openat(dir_fd, "index", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	while ((de = readdir(dir))) {
		len = strlen(de->d_name);
		if (len <= 4 || len > NAME_MAX || strcmp(de->d_name + len - 4, ".idx"))
			continue;
		memcpy(name, de->d_name, len - 4);
		name[len - 4] = '\0';
		repair_stream(dir_fd, dirfd(dir), name, de->d_name, trace, stats);
	}
	closedir(dir);
}

static bool has(int dir_fd, const char *name)
{
	struct stat st;

	return !fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW);
}

static void repair_dir(int fd, const char *path, int depth, struct ltt_repair_stats *stats)
{
	char sub[PATH_MAX];
	struct dirent *de;
	DIR *dir;
	int cfd;

	if (has(fd, "metadata") || has(fd, "index")) {
		stats->dirs++;
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			LTT_INFO("trace %s: still written by a consumer: left to it", path);
			stats->busy++;
		} else {
			repair_metadata(fd, path, stats);
			repair_streams(fd, path, stats);
			flock(fd, LOCK_UN);
		}
	}
	dir = depth < REPAIR_MAX_DEPTH ? fdopendir(fd) : NULL;
	if (!dir) {
		close(fd);
		return;
	}
	while ((de = readdir(dir))) {
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, "index"))
			continue;
		cfd = openat(dirfd(dir), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			     O_CLOEXEC);
		if (cfd < 0)
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name) >= sizeof(sub)) {
			close(cfd);
			continue;
		}
		repair_dir(cfd, sub, depth + 1, stats);
	}
	closedir(dir);
}

int ltt_trace_repair(const char *path, struct ltt_repair_stats *stats)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	repair_dir(fd, path, 0, stats);
	return 0;
}

int ltt_trace_dir_hold(int dir_fd)
{
	return flock(dir_fd, LOCK_SH | LOCK_NB) ? -errno : 0;
}

int ltt_trace_dir_hold_alone(int dir_fd)
{
	if (flock(dir_fd, LOCK_EX | LOCK_NB))
		return -errno;
	return ltt_trace_dir_hold(dir_fd);	/* ours now: shared, for the others to come */
}
