// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sink_file.c - the consumer's file sink through the sink interface:
 * packets from memory, packets spliced from a descriptor (through a pipe
 * smaller than the packet), the fall-back to memory when splice() refuses
 * the descriptor, a descriptor that ends inside a packet, and the index
 * entries of each, read back from the files.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/trace/ctf.h"
#include "consumerd/sink/sink-file.h"
#include "tests/unit/tap.h"

#define BIG (3u << 20)	/* larger than the sink's pipe */

static char tmpdir[PATH_MAX];

static void fill(uint8_t *p, size_t len, uint8_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 7 + (i >> 12));
}

/* A descriptor whose next @len bytes are @data: a memfd at offset 0. */
static int data_fd(const uint8_t *data, size_t len)
{
	int fd = memfd_create("pkt", MFD_CLOEXEC);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET))
		return -1;
	return fd;
}

static struct ltt_sink_packet packet(uint8_t *mem, size_t len, int splice_fd, uint64_t seq)
{
	struct ltt_sink_packet p = {
		.len = len,
		.iov = { { .iov_base = mem, .iov_len = 100 },
			 { .iov_base = mem + 100, .iov_len = len - 100 } },
		.iovcnt = 2,
		.splice_fd = splice_fd,
		.entry = { .packet_size = len * 8, .content_size = len * 8, .timestamp_begin = seq,
			   .timestamp_end = seq + 1, .stream_id = 3, .packet_seq_num = seq },
	};

	return p;
}

static uint8_t *slurp(const char *path, size_t *ret_len)
{
	struct stat st;
	uint8_t *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st))
		return NULL;
	buf = malloc((size_t)st.st_size + 1);
	if (buf && read(fd, buf, (size_t)st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*ret_len = (size_t)st.st_size;
	return buf;
}

/* Index entry @i of @idx (a whole index file) has this offset and sequence number. */
static void check_entry(const uint8_t *idx, size_t idx_len, unsigned int i, uint64_t offset,
			uint64_t seq)
{
	size_t at = LTT_CTF_INDEX_HEADER_SIZE + (size_t)i * LTT_CTF_INDEX_ENTRY_SIZE;
	struct ltt_ctf_index_entry e;

	if (!tap_ok(at + LTT_CTF_INDEX_ENTRY_SIZE <= idx_len, "index entry %u is there", i))
		return;
	ltt_ctf_index_entry_decode(idx + at, LTT_CTF_INDEX_ENTRY_SIZE, &e);
	tap_ok(e.offset == offset && e.packet_seq_num == seq && e.stream_id == 3,
	       "index entry %u: offset %llu, packet %llu", i, (unsigned long long)e.offset,
	       (unsigned long long)e.packet_seq_num);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/*
 * A spliced packet that fails half-way (the file may not grow: EFBIG) is
 * lost whole, and none of its bytes left in the pipe start the next one.
 */
static void test_splice_failure(struct ltt_output *out, uint8_t *mem, uint8_t *big)
{
	struct rlimit old, small;
	struct ltt_sink_packet p;
	struct ltt_sink *sink;
	char path[PATH_MAX + 32];
	uint8_t *file;
	size_t len;
	int fd;

	if (ltt_output_open_sink(out, "chan_1", &sink))
		return (void)tap_ok(false, "sink chan_1 opened");
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	fill(mem, 4096, 7);
	fd = data_fd(mem, 4096);
	p = packet(mem, 4096, fd, 0);
	tap_is_int(ltt_sink_write(sink, &p), 0, "chan_1: packet 0 spliced");
	close(fd);
	fill(big, BIG, 8);
	fd = data_fd(big, BIG);	/* before the limit: it holds for memfds too */
	small = old;
	small.rlim_cur = 3 * 4096;
	setrlimit(RLIMIT_FSIZE, &small);
	p = packet(mem, BIG, fd, 1);
	tap_is_int(ltt_sink_write(sink, &p), -EFBIG, "chan_1: a packet the file can't hold: EFBIG");
	close(fd);
	setrlimit(RLIMIT_FSIZE, &old);
	fill(mem, 4096, 9);
	fd = data_fd(mem, 4096);
	p = packet(mem, 4096, fd, 2);
	tap_is_int(ltt_sink_write(sink, &p), 0, "chan_1: the next packet spliced");
	tap_is_u64(p.entry.offset, 4096, "chan_1: right after packet 0 (the failed one cut back)");
	close(fd);
	ltt_sink_destroy(sink);
	snprintf(path, sizeof(path), "%s/chan_1", tmpdir);
	file = slurp(path, &len);
	tap_ok(file && len == 8192 && !memcmp(file + 4096, mem, 4096),
	       "chan_1: packet 2 is whole, with nothing of the failed packet before it");
	free(file);
	signal(SIGXFSZ, SIG_DFL);
}

/* Append @len bytes of 0xee to @dir/@name: what a consumer killed mid-write leaves. */
static void tear(const char *dir, const char *name, size_t len)
{
	char path[PATH_MAX + 64], junk[4096];
	int fd;

	memset(junk, 0xee, sizeof(junk));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 || write(fd, junk, len) != (ssize_t)len)
		tap_ok(0, "tear %s", name);
	if (fd >= 0)
		close(fd);
}

static off_t size_of(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) ? -1 : st.st_size;
}

/* A file output in a new directory DIR/index, @resume or not. */
static struct ltt_output *output_in(const char *dir, bool resume, bool metadata,
				    uint64_t max_size)
{
	struct ltt_sink_file_cfg cfg = {
		.owner = { getuid(), getgid() }, .resume = resume, .metadata = metadata,
		.max_size = max_size,
	};
	char path[PATH_MAX + 32];
	struct ltt_output *out = NULL;

	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/index", dir);
	mkdir(path, 0700);
	cfg.dir_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cfg.index_dir_fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (ltt_sink_file_output_create(&cfg, &out))
		out = NULL;
	close(cfg.dir_fd);
	close(cfg.index_dir_fd);
	return out;
}

/* Write packets @from..@to (4096 bytes each) to a new sink @name of @out. */
static int write_seq(struct ltt_output *out, const char *name, uint64_t from, uint64_t to,
		     uint8_t *mem)
{
	struct ltt_sink_packet p;
	struct ltt_sink *sink;
	int ret = ltt_output_open_sink(out, name, &sink);

	for (; !ret && from <= to; from++) {
		fill(mem, 4096, (uint8_t)from);
		p = packet(mem, 4096, -1, from);
		ret = ltt_sink_write(sink, &p);
	}
	if (!ret)
		ltt_sink_destroy(sink);
	return ret;
}

/*
 * A consumer that takes over a dead one's files (resume): each stream
 * continues its newest file after the last packet its index holds whole,
 * torn bytes cut, packets already indexed not written twice.
 */
static void test_resume(uint8_t *mem)
{
	char dir[PATH_MAX + 16], idxdir[PATH_MAX + 32];
	struct ltt_sink_packet p;
	struct ltt_output *out;
	struct ltt_sink *sink = NULL;
	uint64_t last = 0;
	uint8_t *idx;
	size_t idx_len;

	snprintf(dir, sizeof(dir), "%s/res", tmpdir);
	snprintf(idxdir, sizeof(idxdir), "%s/index", dir);
	out = output_in(dir, false, true, 0);
	tap_ok(out && !write_seq(out, "c_0", 0, 2, mem), "packets 0-2 written by the first consumer");
	ltt_output_metadata(out, mem, 4096);
	ltt_output_destroy(out);
	tear(dir, "c_0", 1000);		/* packet 3 torn in the data file */
	tear(idxdir, "c_0.idx", 30);	/* and an index entry torn */
	out = output_in(dir, true, true, 0);
	tap_ok(out != NULL, "resume: the output reopens the trace's files");
	tap_is_int((int)size_of(dir, "metadata"), 0, "resume: the metadata file is emptied");
	tap_is_int(out ? ltt_output_open_sink(out, "c_0", &sink) : -1, 0,
		   "resume: the stream's files are reopened");
	tap_is_int((int)size_of(dir, "c_0"), 3 * 4096, "resume: the torn packet is cut");
	tap_ok(sink && ltt_sink_resumed(sink, &last) && last == 2,
	       "resume: the sink says the files' last packet (2), for a source to number on");
	p = packet(mem, 4096, -1, 2);
	tap_is_int(ltt_sink_write(sink, &p), -EALREADY,
		   "packet 2 handed out again: already there, not written twice");
	fill(mem, 4096, 3);
	p = packet(mem, 4096, -1, 3);
	tap_is_int(ltt_sink_write(sink, &p), 0, "packet 3 written");
	tap_is_u64(p.entry.offset, 3 * 4096, "right after packet 2");
	ltt_sink_destroy(sink);
	ltt_output_destroy(out);
	snprintf(idxdir, sizeof(idxdir), "%s/index/c_0.idx", dir);
	idx = slurp(idxdir, &idx_len);
	if (tap_ok(idx && idx_len == LTT_CTF_INDEX_HEADER_SIZE + 4 * LTT_CTF_INDEX_ENTRY_SIZE,
		   "the index: four whole entries, the torn one gone")) {
		check_entry(idx, idx_len, 2, 2 * 4096, 2);
		check_entry(idx, idx_len, 3, 3 * 4096, 3);
	}
	free(idx);

	/* an index entry whose packet is not whole in the data file: dropped */
	snprintf(idxdir, sizeof(idxdir), "%s/c_0", dir);
	if (truncate(idxdir, 3 * 4096 + 100))
		tap_ok(0, "truncate");
	out = output_in(dir, true, false, 0);
	tap_is_int(out ? ltt_output_open_sink(out, "c_0", &sink) : -1, 0,
		   "resume after a data file shorter than its index says");
	p = packet(mem, 4096, -1, 3);
	tap_is_int(ltt_sink_write(sink, &p), 0, "packet 3, not whole on disk, is written again");
	tap_is_u64(p.entry.offset, 3 * 4096, "in its place");
	ltt_sink_destroy(sink);
	ltt_output_destroy(out);

	/* rotation: files of two packets; the newest one is continued */
	snprintf(dir, sizeof(dir), "%s/rot", tmpdir);
	out = output_in(dir, false, false, 8192);
	tap_ok(out && !write_seq(out, "r_0", 0, 4, mem), "rotation: packets 0-4 in r_0_0..r_0_2");
	ltt_output_destroy(out);
	out = output_in(dir, true, false, 8192);
	tap_is_int(out ? ltt_output_open_sink(out, "r_0", &sink) : -1, 0, "rotation: resumed");
	p = packet(mem, 4096, -1, 4);
	tap_is_int(ltt_sink_write(sink, &p), -EALREADY, "packet 4 is in r_0_2 already");
	p = packet(mem, 4096, -1, 5);
	tap_ok(!ltt_sink_write(sink, &p) && p.entry.offset == 4096,
	       "packet 5 continues r_0_2 (offset %llu)", (unsigned long long)p.entry.offset);
	p = packet(mem, 4096, -1, 6);
	tap_ok(!ltt_sink_write(sink, &p) && p.entry.offset == 0 && size_of(dir, "r_0_3") == 4096,
	       "packet 6 starts r_0_3");
	ltt_sink_destroy(sink);
	ltt_output_destroy(out);
	tap_ok(size_of(dir, "r_0_0") == 8192 && size_of(dir, "r_0_1") == 8192 &&
	       size_of(dir, "r_0_2") == 8192, "the older files are untouched, r_0_2 full");
}

int main(void)
{
	struct ltt_sink_file_cfg cfg = { .owner = { getuid(), getgid() } };
	uint8_t *a = malloc(BIG), *b = malloc(BIG), *big = malloc(BIG), *file, *idx;
	char path[PATH_MAX + 32];
	struct ltt_sink_packet p;
	struct ltt_output *out;
	struct ltt_sink *sink;
	size_t len, idx_len;
	int fd, efd;

	snprintf(tmpdir, sizeof(tmpdir), "%s/ltt-sink-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!a || !b || !big || !mkdtemp(tmpdir))
		return 1;
	snprintf(path, sizeof(path), "%s/index", tmpdir);
	mkdir(path, 0700);
	cfg.dir_fd = open(tmpdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cfg.index_dir_fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	tap_is_int(ltt_sink_file_output_create(&cfg, &out), 0, "file output created");
	close(cfg.dir_fd);
	close(cfg.index_dir_fd);
	tap_is_int(ltt_output_open_sink(out, "chan_0", &sink), 0,
		   "sink opened after the trace's descriptors were closed (the output has its own)");
	tap_is_int(ltt_sink_ready(sink), 0, "a file sink is always ready");
	tap_is_int(sink->poll_fd, -1, "and has nothing to wait on");

	fill(a, 4096, 1);
	p = packet(a, 4096, -1, 0);
	tap_is_int(ltt_sink_write(sink, &p), 0, "packet 0 from memory");
	tap_is_u64(p.entry.offset, 0, "its offset is set");

	fill(b, 8192, 2);
	memset(a, 0, 8192);	/* the memory copy differs: the file must get b */
	fd = data_fd(b, 8192);
	p = packet(a, 8192, fd, 1);
	tap_is_int(ltt_sink_write(sink, &p), 0, "packet 1 spliced from a descriptor");
	tap_is_u64(p.entry.offset, 4096, "after packet 0");
	close(fd);

	fill(big, BIG, 3);
	fd = data_fd(big, BIG);
	p = packet(a, BIG, fd, 2);
	tap_is_int(ltt_sink_write(sink, &p), 0, "packet 2 of %u bytes spliced (larger than the pipe)",
		   BIG);
	tap_is_u64(sink->splice_fallbacks, 0, "no packet fell back to memory");
	close(fd);

	fd = data_fd(b, 100);	/* ends inside the packet */
	p = packet(a, 4096, fd, 3);
	tap_is_int(ltt_sink_write(sink, &p), -EIO, "a descriptor that ends inside a packet: EIO");
	close(fd);

	fill(a, 4096, 4);
	efd = eventfd(0, EFD_CLOEXEC);
	p = packet(a, 4096, efd, 4);
	tap_is_int(ltt_sink_write(sink, &p), 0, "packet 4: splice() refuses an eventfd, memory used");
	tap_is_u64(sink->splice_fallbacks, 1, "counted as a fall-back");
	fd = data_fd(b, 4096);
	p = packet(a, 4096, fd, 5);
	tap_is_int(ltt_sink_write(sink, &p), 0, "packet 5: the sink no longer splices");
	tap_is_u64(sink->splice_fallbacks, 2, "counted as a fall-back too");
	close(fd);
	close(efd);
	ltt_sink_destroy(sink);
	test_splice_failure(out, a, big);
	test_resume(big);	/* refilled below */
	fill(big, BIG, 3);	/* packet 2's bytes again, for the checks below */
	ltt_output_destroy(out);

	snprintf(path, sizeof(path), "%s/chan_0", tmpdir);
	file = slurp(path, &len);
	if (tap_ok(file && len == 4096 + 8192 + BIG + 2 * 4096,
		   "the stream file holds the written packets only (%zu bytes)", len)) {
		fill(a, 4096, 1);
		tap_ok(!memcmp(file, a, 4096), "packet 0: the memory's bytes");
		tap_ok(!memcmp(file + 4096, b, 8192), "packet 1: the descriptor's bytes");
		tap_ok(!memcmp(file + 12288, big, BIG), "packet 2: the descriptor's bytes");
		fill(a, 4096, 4);
		tap_ok(!memcmp(file + 12288 + BIG, a, 4096) &&
		       !memcmp(file + 16384 + BIG, a, 4096), "packets 4 and 5: the memory's bytes");
	}
	snprintf(path, sizeof(path), "%s/index/chan_0.idx", tmpdir);
	idx = slurp(path, &idx_len);
	if (tap_ok(idx && idx_len == LTT_CTF_INDEX_HEADER_SIZE + 5 * LTT_CTF_INDEX_ENTRY_SIZE,
		   "the index has five entries")) {
		check_entry(idx, idx_len, 0, 0, 0);
		check_entry(idx, idx_len, 1, 4096, 1);
		check_entry(idx, idx_len, 2, 12288, 2);
		check_entry(idx, idx_len, 3, 12288 + BIG, 4);
		check_entry(idx, idx_len, 4, 16384 + BIG, 5);
	}
	free(file);
	free(idx);
	free(a);
	free(b);
	free(big);
	nftw(tmpdir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
