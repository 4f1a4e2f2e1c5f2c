// SPDX-License-Identifier: LGPL-2.1-only
/*
 * tracefile.c - a stream's files: names, rotation, file count (see tracefile.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/trace/ctf.h"
#include "common/trace/tracefile.h"

int ltt_tracefile_name(const char *base, bool rotating, uint64_t no, bool index, char *buf,
		       size_t len)
{
	int n;

	if (rotating)
		n = snprintf(buf, len, "%s_%" PRIu64 "%s", base, no, index ? ".idx" : "");
	else
		n = snprintf(buf, len, "%s%s", base, index ? ".idx" : "");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Is @s "_N", N a decimal number as printf's %u writes it (no leading 0)? */
static bool is_number_suffix(const char *s)
{
	if (s[0] != '_' || s[1] < '0' || s[1] > '9' || (s[1] == '0' && s[2]))
		return false;
	for (s++; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/*
 * Files are BASE_CPU (not rotating) or BASE_CPU_N (rotating).  A rotating
 * A and a non-rotating B share a name exactly when B is A_M: A_M_N is
 * A's file N of CPU M and B's file of CPU N.  Two channels that rotate
 * alike never share one: equal shapes need equal bases.
 */
static bool clash_one_way(const char *rot, const char *plain)
{
	size_t len = strlen(rot);

	return !strncmp(rot, plain, len) && is_number_suffix(plain + len);
}

bool ltt_tracefile_names_clash(const char *a, bool a_rotating, const char *b, bool b_rotating)
{
	if (a_rotating == b_rotating)
		return false;
	return a_rotating ? clash_one_way(a, b) : clash_one_way(b, a);
}

/* Delete file @no of @base in @dir_fd, or its index (@index); logged when it can't be. */
static void remove_file(int dir_fd, const char *base, bool rotating, uint64_t no, bool index)
{
	char name[NAME_MAX + 1];

	if (!ltt_tracefile_name(base, rotating, no, index, name, sizeof(name)) &&
	    unlinkat(dir_fd, name, 0) && errno != ENOENT)
		LTT_WARN("can't delete the old %s file %s: %s", index ? "index" : "stream", name,
			 strerror(errno));
}

void ltt_tracefile_close(struct ltt_tracefile_files *f)
{
	if (f->fd >= 0)
		close(f->fd);
	if (f->idx_fd >= 0)
		close(f->idx_fd);
	f->fd = f->idx_fd = -1;
}

uint64_t ltt_tracefile_rotate(struct ltt_tracefile_files *f, int fd, int idx_fd, int dir_fd,
			      int index_dir_fd, const char *base)
{
	uint64_t n = 0;

	ltt_tracefile_close(f);
	f->fd = fd;
	f->idx_fd = idx_fd;
	f->file_no++;
	f->size = 0;
	f->idx_size = LTT_CTF_INDEX_HEADER_SIZE;
	for (; f->max_count && f->file_no - f->oldest_no + 1 > f->max_count; f->oldest_no++, n++) {
		remove_file(dir_fd, base, f->max_size != 0, f->oldest_no, false);
		if (index_dir_fd >= 0)
			remove_file(index_dir_fd, base, f->max_size != 0, f->oldest_no, true);
	}
	return n;
}
