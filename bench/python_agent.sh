#!/bin/bash
# bench/python_agent.sh BUILD [N]: ns per Python logging call (median of
# 5 runs of N, default 100000), beside LTTng's agent in one run:
#   none           plain logging (a NullHandler on the root logger)
#   ltt, no rule   import ltt.agent, a daemon, no session wants qa.app
#   ltt, enabled   a session records qa.app (enable-event -p qa.app)
#   lttng, no rule import lttngust (Debian's python3-lttngust), lttng-sessiond
#   lttng, enabled lttng enable-event --python qa.app, recording
# Needs python3-lttngust and lttng-tools for the LTTng rows (left out
# without them).  Figures: bench/README.md, "Python agent".
set -u
BUILD=$(cd "${1:?usage: $0 BUILD [N]}" && pwd)
N=${2:-100000}
SRC=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/ltt-pybench.XXXXXX)
trap 'lttctl destroy -a >/dev/null 2>&1; [ -f "$T/lttng.pid" ] && kill "$(cat "$T/lttng.pid")"; kill "$(cat "$T/run/sessiond.pid" 2>/dev/null)" 2>/dev/null; rm -rf "$T"' EXIT
mkdir -p "$T/py/ltt" "$T/run" "$T/home"
cp "$SRC"/src/python/ltt/*.py "$T/py/ltt/"
for m in _ltt _agent; do cp "$BUILD/src/python/.libs/$m.so" "$T/py/ltt/"; done
export LTT_RUNDIR=$T/run HOME=$T/home LTT_CONSUMERD_PATH=$BUILD/src/consumerd/ltt-consumerd
lttctl() { "$BUILD/src/ctl/lttctl" "$@"; }
# the python3 the build made the package for (Debian's), which finds lttngust too
PY=$(sed -n 's/^PYTHON3 = //p' "$BUILD/Makefile")
py() { PYTHONPATH=$T/py "$PY" -B "$SRC/bench/python_agent.py" "$@"; }
"$BUILD/src/sessiond/ltt-sessiond" --daemonize --rundir "$T/run" || exit 1
printf '%-16s %s\n' mode ns/call
printf '%-16s %s\n' none "$(py none "$N")"
printf '%-16s %s\n' "ltt, no rule" "$(py ltt "$N")"
lttctl create b -o "$T/trace" >/dev/null && lttctl enable-event -p qa.app >/dev/null &&
	lttctl start >/dev/null
printf '%-16s %s\n' "ltt, enabled" "$(py ltt "$N")"
lttctl stop >/dev/null
lttctl list b | grep -E 'discarded events' | head -1 | sed 's/^ */  ltt: /'
if "$PY" -c 'import lttngust' 2>/dev/null && command -v lttng-sessiond >/dev/null; then
	export LTTNG_HOME=$T/lttng
	mkdir -p "$LTTNG_HOME"
	lttng-sessiond --daemonize --no-kernel --pidfile="$T/lttng.pid" >/dev/null 2>&1
	printf '%-16s %s\n' "lttng, no rule" "$("$PY" -B "$SRC/bench/python_agent.py" lttng "$N")"
	lttng create b --output="$T/lttng-trace" >/dev/null && lttng enable-event --python qa.app >/dev/null &&
		lttng start >/dev/null
	printf '%-16s %s\n' "lttng, enabled" "$("$PY" -B "$SRC/bench/python_agent.py" lttng "$N")"
	lttng stop >/dev/null; lttng destroy >/dev/null
fi
