#!/bin/bash
# scripts/debian-roots.sh: every Debian root the suite uses, made (or
# found in the cache) by scripts/debian-root.sh, side by side: the sid
# root of LTTng 2.16 and babeltrace2 2.1 (ROOT_PKGS), Debian 13's that
# builds ltt and boots its kernel (ROOT_BUILD_PKGS), sid's that boots its
# kernel (ROOT_SID_KERNEL_PKGS): tests/regression/root-lib.sh's lists.
# scripts/test.sh runs it while the tree builds: on a fresh machine the
# tests made them, each in a make slot, the other tests needing that root
# waiting on its lock meanwhile.  Prints each root, or why it could not
# be made (the tests then skip, saying so); exits 0 either way.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/regression/root-lib.sh
. "$top/tests/regression/root-lib.sh"
pids=()
for r in "sid $ROOT_PKGS" "trixie $ROOT_BUILD_PKGS" "sid $ROOT_SID_KERNEL_PKGS"; do
	# shellcheck disable=SC2086 # "RELEASE PKGS", split
	set -- $r
	"$top/scripts/debian-root.sh" "$1" "$2" 2>&1 | tail -n 1 | sed "s/^/debian-roots.sh: $1: /" &
	pids+=($!)
done
wait "${pids[@]}"
exit 0
