#!/bin/bash
# bench/python_agent.sh BUILD [N] [RUNS] [ROUNDS]: ns per Python logging
# call (logger.warning("record %d", i)), ltt's agent beside LTTng's in one
# run, both daemons recording at once.  ROUNDS rounds (default 10), each
# running every program below once in turn, so that a load that changes
# weighs on all alike; each program times RUNS runs (default 100) of N
# calls (default 200):
#   none           plain logging (a NullHandler on the root logger)
#   ltt, no rule   import ltt.agent, logging on qa.other, which no rule names
#                  (the session's rule on qa.app lets records reach the
#                  handler, whose rule lookup refuses them)
#   ltt            import ltt.agent, recorded (enable-event -p qa.app)
#   lttng, no rule import lttngust (Debian's python3-lttngust), qa.other
#   lttng          import lttngust, recorded (lttng enable-event --python qa.app)
#   stages         ltt.agent's handler cut short at each step (python_agent.py;
#                  STAGES=0 leaves them out; with BEFORE, the older one's too)
#   ltt, before    BEFORE=DIR only: the package DIR/ltt (another tree's
#                  agent.py, __init__.py, _agent.so and _ltt.so), recorded,
#                  and on qa.other ("ltt, before, no rule")
# Prints per mode the ns/call of all its runs: min, 10th percentile,
# median, 90th percentile; then ltt's and lttng's excess over none and
# their ratio round by round (median over the rounds, min-max), of each
# program's 10th percentile and of its median.  On a loaded machine a run
# the scheduler preempts is many times longer: the 10th percentile is
# the call's cost, the median how often the load struck.  LTTng's root
# session daemon is the system-wide one: as root the script runs itself
# again in a mount namespace with a /run of its own.  The LTTng rows need python3-lttngust
# and lttng-tools (left out without them).  Figures: bench/README.md,
# "Python agent".
set -u
BUILD=$(cd "${1:?usage: $0 BUILD [N] [RUNS] [ROUNDS]}" && pwd)
N=${2:-200} RUNS=${3:-100} ROUNDS=${4:-10}
SRC=$(cd "$(dirname "$0")/.." && pwd)
LTTNG=0
PY=$(sed -n 's/^PYTHON3 = //p' "$BUILD/Makefile") # Debian's, which finds lttngust too
if "$PY" -c 'import lttngust' 2>/dev/null && command -v lttng-sessiond >/dev/null; then
	LTTNG=1
	if [ "$(id -u)" = 0 ] && [ -z "${LTT_PYBENCH_NS:-}" ]; then
		exec env LTT_PYBENCH_NS=1 unshare -m bash -c \
			'mount --make-rprivate / && mount -t tmpfs -o mode=755 ltt-pybench /run &&
			mkdir /run/lttng && exec bash "$0" "$@"' "$0" "$@"
	fi
fi
T=$(mktemp -d /tmp/ltt-pybench.XXXXXX)
trap '[ -f "$T/lttng.pid" ] && kill "$(cat "$T/lttng.pid")"; kill "$(cat "$T/run/sessiond.pid" 2>/dev/null)" 2>/dev/null; rm -rf "$T"' EXIT
mkdir -p "$T/py/ltt" "$T/run" "$T/home" "$T/out"
cp "$SRC"/src/python/ltt/*.py "$T/py/ltt/"
for m in _ltt _agent; do cp "$BUILD/src/python/.libs/$m.so" "$T/py/ltt/"; done
export LTT_RUNDIR=$T/run HOME=$T/home LTT_CONSUMERD_PATH=$BUILD/src/consumerd/ltt-consumerd
lttctl() { "$BUILD/src/ctl/lttctl" "$@"; }
py() { PYTHONPATH=$T/py "$PY" -B "$SRC/bench/python_agent.py" "$@"; }
"$BUILD/src/sessiond/ltt-sessiond" --daemonize --rundir "$T/run" || exit 1
lttctl create b -o "$T/trace" >/dev/null && lttctl enable-event -p qa.app >/dev/null &&
	lttctl start >/dev/null || exit 1
modes=(none "ltt, no rule" ltt)
[ -n "${BEFORE:-}" ] && modes+=("ltt, before, no rule" "ltt, before")
if [ $LTTNG = 1 ]; then
	export LTTNG_HOME=$T/lttng
	mkdir -p "$LTTNG_HOME"
	lttng-sessiond --daemonize --no-kernel --pidfile="$T/lttng.pid" >/dev/null 2>&1 &&
		lttng create b --output="$T/lttng-trace" >/dev/null &&
		lttng enable-event --python qa.app >/dev/null && lttng start >/dev/null || exit 1
	modes+=("lttng, no rule" lttng)
fi
for ((r = 0; r < ROUNDS; r++)); do
	for m in "${modes[@]}"; do
		case $m in
		none) py none "$N" "$RUNS" qa.app ;;
		"ltt, no rule") py ltt "$N" "$RUNS" qa.other ;;
		ltt) py ltt "$N" "$RUNS" qa.app ;;
		"ltt, before, no rule") PYTHONPATH=$BEFORE "$PY" -B "$SRC/bench/python_agent.py" ltt "$N" "$RUNS" qa.other ;;
		"ltt, before") PYTHONPATH=$BEFORE "$PY" -B "$SRC/bench/python_agent.py" ltt "$N" "$RUNS" qa.app ;;
		"lttng, no rule") "$PY" -B "$SRC/bench/python_agent.py" lttng "$N" "$RUNS" qa.other ;;
		lttng) "$PY" -B "$SRC/bench/python_agent.py" lttng "$N" "$RUNS" qa.app ;;
		esac | sed "s/^/$r|$m|/" >>"$T/out/runs"
	done
	[ "${STAGES:-1}" = 1 ] || continue
	py stages "$N" "$RUNS" qa.app | sed "s/^\([a-z]*\) /$r|stage \1|/" >>"$T/out/runs"
	[ -z "${BEFORE:-}" ] || PYTHONPATH=$BEFORE "$PY" -B "$SRC/bench/python_agent.py" stages "$N" "$RUNS" qa.app |
		sed "s/^\([a-z]*\) /$r|before: stage \1|/" >>"$T/out/runs"
done
lttctl stop b >/dev/null
lttctl list b | grep -E 'discarded events' | head -1 | sed 's/^ */ltt: /'
[ $LTTNG = 1 ] && lttng stop >/dev/null && lttng destroy >/dev/null
"$PY" - "$T/out/runs" <<'EOF'
import statistics as st, sys
runs, per_round = {}, {}
def q(v, p):
    return st.quantiles(v, n=20)[p] if len(v) > 1 else v[0]
for line in open(sys.argv[1]):
    r, mode, values = line.rstrip("\n").split("|")
    v = [float(x) for x in values.split()]
    runs.setdefault(mode, []).extend(v)
    per_round.setdefault(mode, {})[int(r)] = (q(v, 1), st.median(v))
print("%-22s %7s %7s %7s %7s %6s" % ("mode", "min", "p10", "median", "p90", "runs"))
for mode, v in runs.items():
    print("%-22s %7.0f %7.0f %7.0f %7.0f %6d" % (mode, min(v), q(v, 1), st.median(v), q(v, 17), len(v)))
def by_round(f, i, *modes):
    if not all(m in per_round for m in modes):
        return None
    rounds = sorted(set.intersection(*(set(per_round[m]) for m in modes)))
    return [f(*(per_round[m][r][i] for m in modes)) for r in rounds]
print("round by round, of each program's p10 (and of its median):")
for label, f, modes in (
        ("ltt - none, ns", lambda a, b: a - b, ("ltt", "none")),
        ("lttng - none, ns", lambda a, b: a - b, ("lttng", "none")),
        ("ltt / lttng", lambda a, b: a / b, ("ltt", "lttng")),
        ("ltt, before / lttng", lambda a, b: a / b, ("ltt, before", "lttng")),
        ("ltt / ltt, before", lambda a, b: a / b, ("ltt", "ltt, before")),
        ("no rule - before's, ns", lambda a, b: a - b, ("ltt, no rule", "ltt, before, no rule")),
        ("(ltt-none)/(lttng-none)", lambda a, b, c: (a - c) / (b - c), ("ltt", "lttng", "none"))):
    out = []
    for i in (0, 1):
        vals = by_round(f, i, *modes)
        if vals:
            fmt = "%.3f" if "/" in label else "%.0f"
            out.append("%s (%s-%s)" % (fmt % st.median(vals), fmt % min(vals), fmt % max(vals)))
    if out:
        print("%-24s %s, of medians %s" % (label, out[0], out[1]))
EOF
