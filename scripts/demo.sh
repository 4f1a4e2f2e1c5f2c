#!/bin/sh
# ltt's main job on the bundled example, from a fresh Debian 12 machine:
# install what is missing, build, then trace examples/hello with a
# private session daemon and show the events.
#
#   LOOPS=N     iterations of the example program (default 5)
#   KEEP=1      keep the daemon and the trace directory afterwards
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${LTT_BUILDDIR:-$top/build}

"$top/scripts/deps.sh"
"$top/scripts/build.sh"

# A private home and run directory, so the demo touches nothing of yours.
demo=$(mktemp -d "${TMPDIR:-/tmp}/ltt-demo.XXXXXX")
chmod 755 "$demo"
export LTT_HOME="$demo" LTT_RUNDIR="$demo/run"
export LTT_SESSIOND_PATH="$build/src/sessiond/ltt-sessiond"
export LTT_CONSUMERD_PATH="$build/src/consumerd/ltt-consumerd"
lttctl="$build/src/ctl/lttctl"

cleanup() {
	if [ "${KEEP:-0}" != 1 ]; then
		[ -f "$LTT_RUNDIR/sessiond.pid" ] && kill "$(cat "$LTT_RUNDIR/sessiond.pid")" 2>/dev/null
		rm -rf "$demo"
	fi
}
trap cleanup EXIT

run() {
	echo "\$ $*"
	"$@"
}

echo "== Tracing examples/hello with ltt (home and run directory: $demo)"
run "$lttctl" create demo
run "$lttctl" enable-event -u 'hello_world:*'
run "$lttctl" start
run "$build/examples/hello/hello" "${LOOPS:-5}"
run "$lttctl" stop
echo
echo "== The events, read by babeltrace2 (lttctl view):"
run "$lttctl" view
run "$lttctl" destroy
[ "${KEEP:-0}" = 1 ] && echo "Kept: trace under $demo/ltt-traces; daemon pid $(cat "$LTT_RUNDIR/sessiond.pid")"
exit 0
