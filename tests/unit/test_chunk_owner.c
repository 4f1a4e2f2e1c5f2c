// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_chunk_owner.c - the privileged end of OWNER_FILES
 * (ltt_chunk_owner_serve(), chunk/chunk-owner.c), fed requests as the
 * daemon's other process could send them: a path outside the output it
 * names, one with "..", a relative output, an unknown job, a short
 * request are refused and change nothing; an archive is made with the
 * owner's rights (owned by the owner); and, run as root, a removal as a
 * user who may not remove gets the kernel's EACCES and removes nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/proto/codec.h"
#include "sessiond/chunk/chunk-owner.h"
#include "tap.h"

#define USER 4133	/* a uid nobody has: its rights are only "others'" */

/* One OWNER_FILES request's payload through the privileged end. */
static int serve(uint8_t job, uid_t uid, const char *output, const char *path, uint64_t id,
		 char *ret_path, size_t len)
{
	struct ltt_wbuf w, reply;
	struct ltt_rbuf r;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ltt_wbuf_put_u8(&w, job);
	ltt_wbuf_put_u32(&w, (uint32_t)uid);
	ltt_wbuf_put_u32(&w, (uint32_t)uid);
	ltt_wbuf_put_str(&w, output);
	ltt_wbuf_put_str(&w, path);
	ltt_wbuf_put_u64(&w, 1000);
	ltt_wbuf_put_u64(&w, 2000);
	ltt_wbuf_put_u64(&w, id);
	ltt_rbuf_init(&r, w.data, w.len);
	ret = ltt_chunk_owner_serve(&r, &reply);
	if (!ret && ret_path) {
		ltt_rbuf_init(&r, reply.data, reply.len);
		snprintf(ret_path, len, "%s", ltt_rbuf_get_str(&r, 4096));
	}
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&reply);
	return ret;
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

int main(void)
{
	char tmpl[] = "/tmp/ltt-chunk-owner.XXXXXX", out[64], victim[64], chunk[128],
	     path[4096], up[128], link[128];
	struct ltt_wbuf w, reply;
	struct ltt_rbuf r;
	struct stat st;
	bool root = geteuid() == 0;
	uid_t owner = root ? USER : geteuid();
	char *top = mkdtemp(tmpl);

	tap_plan(14);
	if (!top)
		return 1;
	snprintf(out, sizeof(out), "%s/out", top);
	snprintf(victim, sizeof(victim), "%s/victim", top);
	snprintf(chunk, sizeof(chunk), "%s/19700101T000000+0000-1", out);
	snprintf(up, sizeof(up), "%s/../victim", out);
	if (chmod(top, 0711) || mkdir(out, 0770) || mkdir(victim, 0700) || mkdir(chunk, 0770) ||
	    (root && (chown(out, USER, USER) || chown(chunk, USER, USER))))
		return 1;

	tap_is_int(serve(2, owner, out, victim, 0, NULL, 0), -EINVAL,
		   "remove a path outside the output: EINVAL");
	tap_is_int(serve(2, owner, out, up, 0, NULL, 0), -EINVAL,
		   "remove OUTPUT/../victim: EINVAL");
	tap_is_int(serve(2, owner, "out", "out/x", 0, NULL, 0), -EINVAL,
		   "a relative output: EINVAL");
	tap_is_int(serve(2, owner, out, "", 0, NULL, 0), -EINVAL, "remove an empty path: EINVAL");
	snprintf(path, sizeof(path), "%s/.", out);
	tap_is_int(serve(2, owner, out, path, 0, NULL, 0), -EINVAL, "remove OUTPUT/.: EINVAL");
	snprintf(path, sizeof(path), "%s/./x/..", out);
	tap_is_int(serve(2, owner, out, path, 0, NULL, 0), -EINVAL, "remove OUTPUT/./x/..: EINVAL");
	tap_is_int(serve(9, owner, out, chunk, 0, NULL, 0), -EPROTO, "job 9: EPROTO");
	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ltt_wbuf_put_u8(&w, 2);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_chunk_owner_serve(&r, &reply), -EPROTO, "a request cut short: EPROTO");
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&reply);
	tap_ok(exists(victim), "the directory outside the output is still there");

	tap_is_int(serve(1, owner, out, chunk, 1, path, sizeof(path)), 0,
		   "archive chunk 1 as its owner (%s)", path);
	tap_ok(!stat(path, &st) && S_ISDIR(st.st_mode) && st.st_uid == owner && !exists(chunk),
	       "the chunk moved into archives/, owned by the owner (uid %u)", (unsigned int)owner);
	if (root) {
		snprintf(path, sizeof(path), "%s/rootonly", out);
		if (mkdir(path, 0755) || mknod(strcat(path, "/f"), S_IFREG | 0600, 0))
			return 1;
		tap_ok(serve(2, USER, out, path, 0, NULL, 0) == -EACCES && exists(path),
		       "as the owner, removing root's file in root's directory below the output: EACCES, kept");
	} else {
		tap_skip("not root: no owner's rights to take");
	}
	/* a root owner's job: no symlink below the output followed */
	snprintf(path, sizeof(path), "%s/f", victim);
	snprintf(link, sizeof(link), "%s/link", out);
	if (mknod(path, S_IFREG | 0600, 0) || symlink(victim, link))
		return 1;
	snprintf(path, sizeof(path), "%s/link/f", out);
	tap_ok(serve(2, 0, out, path, 0, NULL, 0) < 0 && !access(strcat(strcpy(path, victim), "/f"), F_OK),
	       "as root, removing OUTPUT/link/f where link leads out of the output: refused, kept");
	snprintf(path, sizeof(path), "%s/d", out);
	if (mkdir(path, 0700) || mknod(strcat(path, "/f"), S_IFREG | 0600, 0))
		return 1;
	tap_ok(serve(2, 0, out, path, 0, NULL, 0) == 0 && !exists(path),
	       "as root, removing OUTPUT/d/f: removed");
	snprintf(path, sizeof(path), "rm -rf '%s'", top);
	if (system(path))
		tap_diag("can't remove %s", top);
	return tap_done();
}
