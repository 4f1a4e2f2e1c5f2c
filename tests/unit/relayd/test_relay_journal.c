// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_relay_journal.c - the relay's journal of the session directories
 * it writes (relayd/journal.h): its lines as sessions come and go
 * (several of one directory too), a line refused, the file of a clean
 * exit gone; the recovery of a dead relay's journal: a torn stream file
 * of a directory named there cut back to its indexed packets, lines cut
 * short or naming nothing passed over, a live relay's journal and
 * another user's left alone, a journal a relay died making removed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/trace/ctf.h"
#include "relayd/journal.h"
#include "tests/unit/tap.h"

static char tmpdir[256], run[300];

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The text of @path (a static buffer), "" when absent. */
static const char *text_of(const char *path)
{
	static char buf[8192];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? 0 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		tap_diag("write %s: %s", path, strerror(errno));
	if (fd >= 0) {
		fchmod(fd, mode);
		close(fd);
	}
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* This process's journal in the making's name (a static buffer). */
static const char *run_new(void)
{
	static char path[400];

	snprintf(path, sizeof(path), "%s/relayd-writing-new.%ld", run, (long)getpid());
	return path;
}

/* This process's journal's lines as sessions come and go. */
static void test_lines(void)
{
	struct ltt_relay_journal *j = NULL;
	char path[400];

	snprintf(path, sizeof(path), "%s/relayd-writing.%ld", run, (long)getpid());
	char missing[400];
	struct ltt_relay_journal *again = NULL;

	snprintf(missing, sizeof(missing), "%s/no-such-dir", tmpdir);
	tap_is_int(ltt_relay_journal_open(missing, &again), -ENOENT, "no run directory: ENOENT");
	tap_is_int(ltt_relay_journal_open(run, &j), 0, "a journal opened");
	tap_ok(exists(path) && !*text_of(path), "relayd-writing.PID, empty");
	ltt_relay_journal_add(j, "/out/h/a");
	tap_is_int(ltt_relay_journal_open(run, &again), -EEXIST,
		   "a second of the same name: refused, the first not replaced");
	tap_is_str(text_of(path), "/out/h/a\n", "the first intact");
	ltt_relay_journal_add(j, "/out/h/b");
	ltt_relay_journal_add(j, "/out/h/a");	/* a second session of one directory */
	tap_ok(!exists(run_new()), "no relayd-writing-new.PID left by either");
	tap_is_str(text_of(path), "/out/h/a\n/out/h/b\n/out/h/a\n", "one line a session, in order");
	ltt_relay_journal_remove(j, "/out/h/a");
	tap_is_str(text_of(path), "/out/h/b\n/out/h/a\n", "one session of a gone: the other stays");
	tap_is_int(ltt_relay_journal_add(j, "relative/dir"), -EINVAL, "a relative path refused");
	tap_is_int(ltt_relay_journal_add(j, "/two\nlines"), -EINVAL, "a path of two lines refused");
	ltt_relay_journal_remove(j, "/never/added");
	ltt_relay_journal_remove(j, "/out/h/b");
	ltt_relay_journal_remove(j, "/out/h/a");
	tap_is_str(text_of(path), "", "every session gone: empty");
	ltt_relay_journal_close(j);
	tap_ok(!exists(path), "a clean exit removes it");
}

/* A trace directory under @sess: stream chan_0 of 2 packets, its index holding the first (@ret_stream: its path). */
static void torn_trace(const char *sess, char ret_stream[600])
{
	uint8_t idx[LTT_CTF_INDEX_HEADER_SIZE + LTT_CTF_INDEX_ENTRY_SIZE];
	struct ltt_ctf_index_entry e = { 0 };
	char dir[500], p[600];
	static char pkt[2 * 4096];
	int fd;

	snprintf(dir, sizeof(dir), "%s/trace", sess);
	mkdir(sess, 0750);
	mkdir(dir, 0750);
	snprintf(p, sizeof(p), "%s/index", dir);
	mkdir(p, 0750);
	snprintf(ret_stream, 600, "%s/chan_0", dir);
	fd = open(ret_stream, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	if (fd < 0 || write(fd, pkt, sizeof(pkt)) != (ssize_t)sizeof(pkt))
		tap_diag("stream: %s", strerror(errno));
	close(fd);
	e.packet_size = 8 * 4096;
	e.content_size = 8 * 4096;
	ltt_ctf_index_header(idx);
	ltt_ctf_index_entry(&e, idx + LTT_CTF_INDEX_HEADER_SIZE);
	snprintf(p, sizeof(p), "%s/index/chan_0.idx", dir);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	if (fd < 0 || write(fd, idx, sizeof(idx)) != (ssize_t)sizeof(idx))
		tap_diag("index: %s", strerror(errno));
	close(fd);
	snprintf(p, sizeof(p), "%s/metadata", dir);
	write_file(p, "", 0640);
}

/* Dead relays' journals recovered; a live one's, another user's left. */
static void test_recover(void)
{
	char sess[400], stream[600], dead[400], line[1200];
	char loose[400], unborn[400], live_path[400];
	struct ltt_relay_recovered rec;
	struct ltt_relay_journal *live = NULL;
	struct stat st;

	snprintf(sess, sizeof(sess), "%s/out-s", tmpdir);
	torn_trace(sess, stream);
	snprintf(dead, sizeof(dead), "%s/relayd-writing.999999001", run);
	/* the session's line, one naming nothing, and one cut short by the death */
	snprintf(line, sizeof(line), "%s\n/nonexistent/dir\n%s/out", sess, tmpdir);
	write_file(dead, line, 0600);
	snprintf(loose, sizeof(loose), "%s/relayd-writing.999999002", run);
	write_file(loose, line, 0666);	/* others may write it: not ours */
	snprintf(unborn, sizeof(unborn), "%s/relayd-writing-new.999999003", run);
	write_file(unborn, "", 0600);
	tap_is_int(ltt_relay_journal_open(run, &live), 0, "a live relay's journal");
	ltt_relay_journal_add(live, sess);
	snprintf(live_path, sizeof(live_path), "%s/relayd-writing.%ld", run, (long)getpid());

	tap_is_int(ltt_relay_journal_recover(run, &rec), 0, "recovered");
	tap_is_int(rec.journals, 1, "one dead relay's journal read");
	tap_is_int(rec.sessions, 1, "one session directory looked at: the line naming nothing and the one cut short passed over");
	tap_is_int(rec.cut, 1, "one file cut");
	if (stat(stream, &st))
		st.st_size = -1;
	tap_is_int(st.st_size, 4096, "the stream file cut to its indexed packet");
	tap_ok(!exists(dead), "the dead relay's journal removed");
	tap_ok(exists(loose), "a journal others may write: passed over, left");
	tap_ok(!exists(unborn), "a journal a relay died making: removed");
	snprintf(line, sizeof(line), "%s\n", sess);
	tap_is_str(text_of(live_path), line, "a live relay's journal: left");
	ltt_relay_journal_close(live);
	unlink(loose);
	tap_is_int(ltt_relay_journal_recover(run, &rec), 0, "recovered again");
	tap_is_int(rec.journals, 0, "nothing left to recover");
}

int main(void)
{
	ltt_log_init("test_relay_journal", LTT_LOG_ERROR);
	snprintf(tmpdir, sizeof(tmpdir), "%s/ltt-journal-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir))
		return 1;
	snprintf(run, sizeof(run), "%s/run", tmpdir);
	mkdir(run, 0700);
	test_lines();
	test_recover();
	nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
