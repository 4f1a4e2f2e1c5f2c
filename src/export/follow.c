// SPDX-License-Identifier: GPL-2.0-only
/*
 * follow.c - ltt-export --follow: traces that are still being written (a
 * relay's output as hosts stream to it, a local session) exported as
 * they grow, round after round, until SIGINT or SIGTERM.
 *
 * A packet is exported once its index entry is written: the relay and
 * the consumer write a packet's entry after its data, so what the index
 * lists is whole.  Each round copies, per stream file, the packets listed
 * since the last round into a round directory (with the trace's metadata
 * up to its last whole packet, or whole CTF 2 fragment), preceded by the
 * last packet exported before: babeltrace2 then counts the events and
 * packets lost between them from that packet's counters, not from zero,
 * and rows.c reads that packet past (it is in ltt_packets).  The round
 * is read as any export, and committed; only then do the streams'
 * positions move on, so a round that failed is done again, whole.  The
 * export never touches the files it follows: the relay's disk path does
 * not wait on it, whatever the database does.
 *
 * An engine that fails (a ClickHouse restarted, a disk full) is closed
 * and opened again at the next round, which recovers what the failed
 * round half wrote (doc/sql.md, "Each packet once").
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/base/paths.h"
#include "common/trace/ctf.h"
#include "export/export.h"

/* Where a stream file stands. */
struct followed {
	char *path;
	uint64_t done;		/* bytes exported (whole packets) */
	uint64_t base;		/* where the last of them starts */
	bool has_base;
	uint64_t next_done, next_base;	/* this round's, kept once it is committed */
	bool in_round;
};

struct follow {
	struct followed *streams;
	size_t nr, cap;
	uint64_t behind;	/* bytes whole but not exported when the round began */
};

static volatile sig_atomic_t stop_asked;

static void on_stop(int sig)
{
	(void)sig;
	stop_asked = 1;
}

static struct followed *find_stream(struct follow *f, const char *path)
{
	struct followed *s;
	size_t i;

	for (i = 0; i < f->nr; i++) {
		if (!strcmp(f->streams[i].path, path))
			return &f->streams[i];
	}
	if (f->nr == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16;

		s = realloc(f->streams, cap * sizeof(*s));
		if (!s)
			return NULL;
		f->streams = s;
		f->cap = cap;
	}
	s = &f->streams[f->nr];
	memset(s, 0, sizeof(*s));
	s->path = strdup(path);
	if (!s->path)
		return NULL;
	f->nr++;
	return s;
}

/* Copy [@from, @from + @len) of @in to the end of @out. */
static int copy_range(int in, int out, uint64_t from, uint64_t len)
{
	char buf[65536];

	while (len) {
		ssize_t n = pread(in, buf, len < sizeof(buf) ? (size_t)len : sizeof(buf), (off_t)from);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		if (write(out, buf, (size_t)n) != n)
			return -EIO;
		from += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return 0;
}

/*
 * The bytes of metadata file @fd (@size) that are whole: CTF 1.8 packets
 * (each its header's packet_size), CTF 2 fragments, or TSDL text whole.
 */
static uint64_t whole_metadata(int fd, uint64_t size)
{
	unsigned char head[LTT_CTF_METADATA_HEADER_SIZE];
	uint64_t pos = 0, psize;
	uint32_t magic, bits;

	if (pread(fd, head, 4, 0) != 4)
		return 0;
	memcpy(&magic, head, 4);
	if (magic != LTT_CTF_METADATA_MAGIC && __builtin_bswap32(magic) != LTT_CTF_METADATA_MAGIC) {
		struct ltt_ctf2_scan scan;
		char buf[65536];
		ssize_t n;

		if (head[0] != 0x1e)	/* not CTF 2's record separator: TSDL text */
			return size;
		ltt_ctf2_scan_init(&scan);
		while (pos < size && (n = pread(fd, buf, sizeof(buf), (off_t)pos)) > 0) {
			ltt_ctf2_scan_feed(&scan, buf, (size_t)n);
			pos += (uint64_t)n;
		}
		return scan.whole;
	}
	while (pos + sizeof(head) <= size &&
	       pread(fd, head, sizeof(head), (off_t)pos) == (ssize_t)sizeof(head)) {
		memcpy(&bits, head + 28, 4);	/* packet_size, in the packet's byte order */
		if (magic != LTT_CTF_METADATA_MAGIC)
			bits = __builtin_bswap32(bits);
		psize = bits / 8;
		if (psize < sizeof(head) || pos + psize > size)
			break;
		pos += psize;
	}
	return pos;
}

/* Read index @idx_path: the end of its last whole packet and where that packet starts. */
static int index_end(const char *idx_path, uint64_t file_size, uint64_t *ret_end,
		     uint64_t *ret_last)
{
	uint8_t head[LTT_CTF_INDEX_HEADER_SIZE], rec[LTT_CTF_INDEX_ENTRY_SIZE];
	struct ltt_ctf_index_entry e;
	uint32_t entry_size;
	uint64_t end = 0, last = 0;
	off_t pos;
	int fd = open(idx_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return -errno;
	if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    ltt_ctf_index_header_decode(head, &entry_size) || entry_size > sizeof(rec)) {
		close(fd);
		return -EPROTO;
	}
	for (pos = sizeof(head);
	     pread(fd, rec, entry_size, pos) == (ssize_t)entry_size &&
	     !ltt_ctf_index_entry_decode(rec, entry_size, &e);
	     pos += entry_size) {
		if (e.offset > file_size || e.packet_size / 8 > file_size - e.offset)
			break;	/* listed before its data is all there (or wrong): not yet */
		last = e.offset;
		end = e.offset + e.packet_size / 8;
	}
	close(fd);
	*ret_end = end;
	*ret_last = last;
	return 0;
}

/* Stream file @name of trace @src into the round's trace @dst: what is new, after its base. */
static int round_stream(struct follow *f, const char *src, const char *dst, const char *name,
			bool *ret_new)
{
	char path[PATH_MAX], idx[PATH_MAX], out[PATH_MAX];
	struct followed *s;
	uint64_t end = 0, last = 0;
	struct stat st;
	int in, o, ret;

	if (snprintf(path, sizeof(path), "%s/%s", src, name) >= (int)sizeof(path) ||
	    snprintf(idx, sizeof(idx), "%s/index/%s.idx", src, name) >= (int)sizeof(idx) ||
	    snprintf(out, sizeof(out), "%s/%s", dst, name) >= (int)sizeof(out))
		return -ENAMETOOLONG;
	in = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (in < 0)
		return -errno;
	ret = fstat(in, &st) ? -errno : index_end(idx, (uint64_t)st.st_size, &end, &last);
	s = ret ? NULL : find_stream(f, path);
	if (ret == -ENOENT) {
		ret = 0;	/* no index (yet): nothing of it is known whole */
	} else if (!ret && !s) {
		ret = -ENOMEM;
	} else if (!ret && end > s->done) {
		o = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (o < 0) {
			ret = -errno;
		} else {
			if (s->has_base)
				ret = copy_range(in, o, s->base, s->done - s->base);
			if (!ret)
				ret = copy_range(in, o, s->done, end - s->done);
			close(o);
		}
		s->next_done = end;
		s->next_base = last;
		s->in_round = !ret;
		*ret_new = *ret_new || !ret;
	}
	if (!ret && s && end > s->done)
		f->behind += end - s->done;
	close(in);
	return ret;
}

/* Copy @src's metadata, up to its last whole packet or fragment, to @dst's; 0 for none yet. */
static int copy_metadata(const char *src, const char *dst, uint64_t *ret_whole)
{
	char path[PATH_MAX];
	uint64_t whole;
	struct stat st;
	int in, o, ret;

	if (snprintf(path, sizeof(path), "%s/metadata", src) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	in = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (in < 0)
		return -errno;
	whole = fstat(in, &st) ? 0 : whole_metadata(in, (uint64_t)st.st_size);
	ret = snprintf(path, sizeof(path), "%s/metadata", dst) >= (int)sizeof(path) ? -ENAMETOOLONG : 0;
	if (!ret && whole) {
		o = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		ret = o < 0 ? -errno : copy_range(in, o, 0, whole);
		if (o >= 0)
			close(o);
	}
	close(in);
	*ret_whole = whole;
	return ret;
}

/*
 * Trace @src (its directory) into the round's directory @dst, made: its
 * stream files' new packets first, then its metadata (which, read after
 * them, describes every event they hold).  A trace with no whole
 * metadata yet waits.
 */
static int round_trace(struct follow *f, const char *src, const char *dst, bool *ret_new)
{
	char path[PATH_MAX];
	uint64_t whole;
	struct dirent *de;
	struct stat st;
	bool is_new = false;
	int ret;
	DIR *d;

	ret = copy_metadata(src, dst, &whole);
	if (ret || !whole)
		return ret;	/* none whole yet: the trace waits */
	d = opendir(src);
	if (!d)
		return -errno;
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "metadata") ||
		    snprintf(path, sizeof(path), "%s/%s", src, de->d_name) >= (int)sizeof(path) ||
		    lstat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		ret = round_stream(f, src, dst, de->d_name, &is_new);
	}
	closedir(d);
	if (!ret && is_new)
		ret = copy_metadata(src, dst, &whole);	/* as long as the packets need */
	*ret_new = is_new;
	return ret;
}

/* The streams of trace @src out of the round: their positions stay. */
static void undo_trace(struct follow *f, const char *src)
{
	size_t i, len = strlen(src);

	for (i = 0; i < f->nr; i++) {
		if (!strncmp(f->streams[i].path, src, len) && f->streams[i].path[len] == '/')
			f->streams[i].in_round = false;
	}
}

/* What is in @dir, removed (@dir stays: no one else may take its name meanwhile). */
static void rm_contents(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' && (!de->d_name[1] || !strcmp(de->d_name, "..")))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		if (!lstat(path, &st) && S_ISDIR(st.st_mode)) {
			rm_contents(path);
			rmdir(path);
		} else {
			unlink(path);
		}
	}
	if (d)
		closedir(d);
}

static void rm_tree(const char *dir)
{
	rm_contents(dir);
	rmdir(dir);
}

/* The round's positions kept (@ok) or dropped. */
static void settle(struct follow *f, bool ok)
{
	size_t i;

	for (i = 0; i < f->nr; i++) {
		struct followed *s = &f->streams[i];

		if (s->in_round && ok) {
			s->done = s->next_done;
			s->base = s->next_base;
			s->has_base = true;
		}
		s->in_round = false;
	}
}

int exp_follow(const struct exp_follow_args *a)
{
	struct exp_traces found, round = { 0 };
	struct exp_engine *engine = NULL;
	struct exp_rows *rows = NULL;
	struct follow f = { 0 };
	struct sigaction sa = { .sa_handler = on_stop };
	struct timespec pause = { (time_t)a->interval_ms / 1000,
				  (long)(a->interval_ms % 1000) * 1000000 };
	char tmp[PATH_MAX], dst[PATH_MAX], err[512], said[512] = "";
	const char *tmpdir = getenv("TMPDIR");
	uint64_t total = 0, before = 0, rounds = 0;	/* before: of engines closed */
	size_t i;
	int ret = 0;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (snprintf(tmp, sizeof(tmp), "%s/ltt-export.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") >=
	    (int)sizeof(tmp) || !mkdtemp(tmp)) {
		fprintf(stderr, "ltt-export: a round directory in %s: %s\n",
			tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
		return -errno;
	}
	while (!stop_asked) {
		bool is_new = false, any = false;

		if (!engine) {
			if (a->ops->open(a->where, &engine, err, sizeof(err))) {
				if (strcmp(err, said))	/* once, not every round */
					fprintf(stderr, "ltt-export: %s; again every %u ms\n", err,
						a->interval_ms);
				snprintf(said, sizeof(said), "%s", err);
				engine = NULL;
				nanosleep(&pause, NULL);
				continue;
			}
			if (said[0])
				fprintf(stderr, "ltt-export: %s: open again, catching up\n", a->where);
			said[0] = '\0';
			rows = exp_rows_create(engine, a->roots, a->nr_roots);
			if (!rows) {
				ret = -ENOMEM;
				break;
			}
			exp_rows_set_prefix(rows, tmp);
		}
		memset(&found, 0, sizeof(found));
		f.behind = 0;
		ret = exp_find_traces(&found, a->roots, a->nr_roots);
		for (i = 0; !ret && i < found.nr; i++) {
			int tret;

			is_new = false;
			tret = snprintf(dst, sizeof(dst), "%s%s", tmp, found.dirs[i]) >= (int)sizeof(dst) ?
				-ENAMETOOLONG : ltt_mkdir_p(dst, 0700);
			if (!tret)
				tret = round_trace(&f, found.dirs[i], dst, &is_new);
			if (!tret && is_new)
				ret = exp_add_trace(&round, dst);
			if (tret) {
				/* this trace waits; the others go on */
				undo_trace(&f, found.dirs[i]);
				is_new = false;
				fprintf(stderr, "ltt-export: %s: %s; again next round\n", found.dirs[i],
					strerror(-tret));
			}
			any = any || is_new;
		}
		if (!ret && any) {
			ret = exp_read_traces(&round, rows, NULL);
			if (!ret)
				ret = exp_rows_commit(rows, true);
		}
		settle(&f, !ret);
		if (ret && engine) {
			/*
			 * The engine's error, or babeltrace2's (said: a packet that needs
			 * metadata not read yet, a torn trace): the round again, whole,
			 * from an engine opened anew (what this one half wrote recovered).
			 */
			if (ret != -ECANCELED)
				fprintf(stderr, "ltt-export: round %" PRIu64 ": %s; the round again in "
					"%u ms (behind: %" PRIu64 " bytes)\n", rounds,
					engine->err[0] ? engine->err : strerror(-ret), a->interval_ms,
					f.behind);
			before += exp_rows_counts(rows)->events;
			exp_rows_destroy(rows);
			engine->ops->close(engine);
			rows = NULL;
			engine = NULL;
			ret = 0;
		} else if (any) {
			struct timespec now;
			int64_t last = exp_rows_counts(rows)->last_ts;

			clock_gettime(CLOCK_REALTIME, &now);
			total = before + exp_rows_counts(rows)->events;
			if (!a->quiet)
				fprintf(stderr, "ltt-export: %" PRIu64 " events exported, %zu traces followed; "
					"this round took %" PRIu64 " bytes, the newest event %.1f s old\n",
					total, found.nr, f.behind,
					((double)now.tv_sec * 1e9 + (double)now.tv_nsec - (double)last) / 1e9);
		}
		if (rows)
			exp_rows_round_end(rows);
		exp_free_traces(&round);
		exp_free_traces(&found);
		memset(&round, 0, sizeof(round));
		rm_contents(tmp);
		rounds++;
		if (!stop_asked)
			nanosleep(&pause, NULL);
	}
	if (rows && !ret)
		ret = exp_rows_finish(rows);
	exp_rows_destroy(rows);
	if (engine)
		engine->ops->close(engine);
	rm_tree(tmp);
	for (i = 0; i < f.nr; i++)
		free(f.streams[i].path);
	free(f.streams);
	if (!a->quiet)
		fprintf(stderr, "ltt-export: stopped after %" PRIu64 " rounds, %" PRIu64
			" events exported\n", rounds, total);
	return ret;
}
