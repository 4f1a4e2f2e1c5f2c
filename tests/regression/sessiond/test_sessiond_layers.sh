#!/bin/bash
# test_sessiond_layers.sh - the session daemon's house against its maps
# (src/sessiond/sessiond.h, the folders; each folder's map header, its
# files): every file named, every prototype under the file that defines
# it, and no include or call from a folder up to one listed above it, so
# the layers (commands, domains, trace chunks, consumer traces, the
# consumer link, the session model) stay layers as the code grows; and
# the libraries (src/ust, src/lib/ltt-ctl, src/lttng-ust), ltt-consumerd,
# ltt-relayd and the kernel tracer (kmod) the same way, file by file:
# every file in its map header, listed from the top layer down, no call
# up the list (but each folder's few, counted) and no circle of files;
# src/common's wings (common.h) the same way as sessiond's folders; and
# every folder of src/ and kmod/, from what is built there: no circle of
# its own files, none between its subfolders and its own files.  No
# circle is excepted by name.  And each file's size follows its subject:
# none past 1,500 lines, no header that only joins the halves of a
# split, no split named for being one (each offender named; none excepted).
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"

command -v python3 >/dev/null || skip_all "python3 is not installed"
command -v nm >/dev/null || skip_all "nm is not installed"
plan 20
python3 "$LTT_TOP_SRCDIR/tests/regression/sessiond-layers.py" "$LTT_TOP_SRCDIR" \
	"$LTT_TOP_BUILDDIR" > "${TMPDIR:-/tmp}/layers.$$" 2>&1
while IFS= read -r line; do
	case $line in
	'not ok '*) ok 1 "${line#not ok }" ;;
	'ok '*) ok 0 "${line#ok }" ;;
	*) echo "$line" ;;
	esac
done < "${TMPDIR:-/tmp}/layers.$$"
rm -f "${TMPDIR:-/tmp}/layers.$$"
done_testing
