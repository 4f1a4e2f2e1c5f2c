// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_paths.c - unit tests of common/base/paths.c's ltt_path_join().
 */
#include <errno.h>
#include <string.h>

#include "common/base/paths.h"
#include "tests/unit/tap.h"

static void test_join(void)
{
	char buf[16];

	memset(buf, 'x', sizeof(buf));
	tap_ok(!ltt_path_join(buf, sizeof(buf), "/run/ltt", "app.so") &&
	       !strcmp(buf, "/run/ltt/app.so"), "dir/name (%s)", buf);
	/* "/run/ltt/app.soc" and its NUL: 17 bytes, one too many */
	memset(buf, 'x', sizeof(buf));
	tap_is_int(ltt_path_join(buf, sizeof(buf), "/run/ltt", "app.soc"), -ENAMETOOLONG,
		   "one byte too long: -ENAMETOOLONG");
	tap_is_int(ltt_path_join(buf, sizeof(buf), "/a-directory-too-long", "x"), -ENAMETOOLONG,
		   "a directory longer than the buffer: -ENAMETOOLONG");
	tap_is_int(ltt_path_join(buf, sizeof(buf), "/sixteen-bytes!!", ""), -ENAMETOOLONG,
		   "a directory of the buffer's size: -ENAMETOOLONG");
	tap_ok(!ltt_path_join(buf, sizeof(buf), "/fourteen-byte", "") && !strcmp(buf, "/fourteen-byte/"),
	       "an empty name: dir/ (%s)", buf);
	tap_ok(!ltt_path_join(buf, sizeof(buf), "", "name") && !strcmp(buf, "/name"),
	       "an empty directory: /name");
	strcpy(buf, "/run");
	tap_ok(!ltt_path_join(buf, sizeof(buf), buf, "ltt") && !strcmp(buf, "/run/ltt"),
	       "into the directory's own buffer (%s)", buf);
}

int main(void)
{
	test_join();
	return tap_done();
}
