#!/bin/bash
# tests/lttng-tools/run.sh - run lttng-tools' own regression tests for
# user space against ltt: `lttng` runs lttctl, `lttng-sessiond` runs
# ltt-sessiond, and their test programs (built here with LTTng-UST's
# headers, Debian's liblttng-ust-dev) run on ltt's liblttng-ust.so.1.
# Results: doc/lttng-tools-tests.md.  It fetches nothing: give it the
# path of an lttng-tools source tree (2.13.9's, as doc/ says).
#
#   tests/lttng-tools/run.sh [-k] LTTNG_TOOLS_SRC [TEST...]
#
# LTT_LTTNG_CLIENT=debian: `lttng` is Debian's own /usr/bin/lttng, and
# `lttng-sessiond` ltt-sessiond --lttng-compat, which it drives over
# LTTng's client protocol (doc/lttng-compat.md).
#
# TEST: a path under tests/regression (default: the list below).  Each
# runs in a scratch directory (mktemp -d; -k keeps it) and in its own
# mount, PID and network namespaces (the relay's ports its own), with a
# private /run, `lttng-relayd` running ltt-relayd: the tests look for
# their daemons with pgrep and kill what they find, so they must see
# no other `lttng-sessiond` of the machine.  Needs root, unshare, cc,
# babeltrace (1) and an ltt build (LTT_BUILDDIR, default ./build next
# to this script's tree) or installed ltt (LTT_BUILDDIR=installed).
set -u
keep=false
[ "${1:-}" = -k ] && keep=true && shift
if [ $# -lt 1 ] || [ ! -f "$1/tests/utils/utils.sh" ]; then
	echo "usage: $0 [-k] LTTNG_TOOLS_SRC [TEST...]: LTTNG_TOOLS_SRC must be an lttng-tools source tree (with tests/utils/utils.sh)" >&2
	exit 2
fi
SRC=$(readlink -f "$1")
shift
TESTS=("$@")
[ ${#TESTS[@]} -gt 0 ] || TESTS=(ust/test_event_basic ust/before-after/test_before_after
	ust/test_event_tracef tools/wildcard/test_event_wildcard ust/buffers-pid/test_buffers_pid
	ust/multi-session/test_multi_session tools/filtering/test_valid_filter
	tools/filtering/test_invalid_filter tools/filtering/test_unsupported_op
	tools/exclusion/test_exclusion tools/regen-statedump/test_ust ust/nprocesses/test_nprocesses
	ust/namespaces/test_ns_contexts_change)
[ "$(id -u)" = 0 ] && unshare -m -p -f --mount-proc true 2>/dev/null || {
	echo "$0: needs root and unshare -m -p (the tests' pgrep and kill must see only their own daemons)" >&2
	exit 2
}

TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=${LTT_BUILDDIR:-$TOP/build}
if [ "$B" = installed ]; then
	LTTCTL=$(command -v lttctl) SESSIOND=$(command -v ltt-sessiond) CONSUMERD=
	RELAYD=$(command -v ltt-relayd)
	LTTRUN=$(command -v ltt-run) COMPAT_LIBDIR= CONFIG_XML=
else
	LTTCTL=$B/src/ctl/lttctl SESSIOND=$B/src/sessiond/ltt-sessiond RELAYD=$B/src/relayd/ltt-relayd
	CONSUMERD=$B/src/consumerd/ltt-consumerd LTTRUN=$B/src/lttng-ust/ltt-run
	COMPAT_LIBDIR=$B/src/lttng-ust/.libs
	# save and load's XML module, from the build tree as tests/regression/lib.sh
	CONFIG_XML=$B/src/lib/ltt-ctl/.libs/config-xml.so
fi
for f in "$LTTCTL" "$SESSIOND" "$LTTRUN"; do
	[ -x "$f" ] || { echo "$0: ltt is not built: '$f' (build it, or set LTT_BUILDDIR)" >&2; exit 2; }
done

S=$(mktemp -d "${TMPDIR:-/tmp}/ltt-lttng-tools.XXXXXX")
$keep || trap 'rm -rf "$S"' EXIT
cp -r "$SRC/tests" "$S/tests"
mkdir -p "$S/src/bin/lttng" "$S/src/bin/lttng-sessiond" "$S/src/bin/lttng-consumerd" "$S/src/bin/lttng-relayd" \
	"$S/home" "$S/tmp" "$S/build"

# The stand-ins.  lttng-sessiond: LTTng's options that ltt takes
# otherwise (its consumer paths) left out, and words that are no option
# (utils.sh's start_lttng_sessiond passes a stray "1", which LTTng's
# daemon ignores and ltt's refuses); argv[0] stays lttng-sessiond so
# that the tests' pgrep finds the daemon.
CLIENT=$LTTCTL COMPAT=
[ "${LTT_LTTNG_CLIENT:-}" = debian ] && CLIENT=/usr/bin/lttng COMPAT=--lttng-compat
cat >"$S/src/bin/lttng/lttng" <<SHIM
#!/bin/bash
exec "$CLIENT" "\$@"
SHIM
cat >"$S/src/bin/lttng-sessiond/lttng-sessiond" <<SHIM
#!/bin/bash
args=() value=false
for a in "\$@"; do
	\$value && args+=("\$a") && value=false && continue
	case \$a in
	--load | -l) args+=("\$a") value=true ;;
	--consumerd32-path=* | --consumerd64-path=* | --consumerd32-libdir=* | --consumerd64-libdir=*) ;;
	-*) args+=("\$a") ;;
	esac
done
exec -a lttng-sessiond "$SESSIOND" $COMPAT "\${args[@]}"
SHIM
# lttng-relayd: ltt-relayd takes LTTng's -b, -d and -o; argv[0] stays
# lttng-relayd for the tests' pgrep.
cat >"$S/src/bin/lttng-relayd/lttng-relayd" <<SHIM
#!/bin/bash
exec -a lttng-relayd "$RELAYD" "\$@"
SHIM
chmod +x "$S/src/bin/lttng/lttng" "$S/src/bin/lttng-sessiond/lttng-sessiond" \
	"$S/src/bin/lttng-relayd/lttng-relayd"

# Their test programs, with LTTng-UST's headers, as their Makefile.am
# build them (utils.c wants lttng-tools' own headers and a config.h).
t=$S/tests
: >"$S/build/config.h"
build() {
	local out=$1
	shift
	cc -O1 -I"$S/build" -I"$SRC/include" -I"$SRC/src" -I"$t/utils" -I"$t/utils/testapp" \
		-I"$(dirname "$1")" -o "$out" "$@" -llttng-ust -llttng-ust-common -ldl 2>>"$S/build/cc.log" ||
		echo "# could not build $out (see $S/build/cc.log)"
}
u=$t/utils/testapp
build "$u/gen-ust-events/gen-ust-events" "$u/gen-ust-events/gen-ust-events.c" "$u/gen-ust-events/tp.c" "$t/utils/utils.c"
build "$u/gen-ust-nevents/gen-ust-nevents" "$u/gen-ust-nevents/gen-ust-nevents.c" "$u/gen-ust-nevents/tp.c" "$t/utils/utils.c"
build "$u/gen-ust-nevents-str/gen-ust-nevents-str" "$u/gen-ust-nevents-str/gen-ust-nevents-str.c" "$u/gen-ust-nevents-str/tp.c" "$t/utils/utils.c"
build "$u/gen-ust-tracef/gen-ust-tracef" "$u/gen-ust-tracef/gen-ust-tracef.c" "$t/utils/utils.c"
# (with LTTng-UST's fork helper, whose unshare() and setns() it calls)
build "$u/gen-ust-events-ns/gen-ust-events-ns" "$u/gen-ust-events-ns/gen-ust-events-ns.c" \
	"$u/gen-ust-events-ns/tp.c" "$t/utils/utils.c" -lpopt -llttng-ust-fork
f=$t/regression/tools/filtering
build "$f/gen-ust-events" "$f/gen-ust-events.c" "$f/tp.c" "$t/utils/utils.c"
m=$t/regression/ust/multi-session
build "$m/gen-nevents" "$m/gen-nevents.c" "$m/tp.c"
# multi-lib: providers of one event in libraries the program dlopen()s
# (probes_X: the X variant of multi:tp), call sites in the program (which
# loads LTTng-UST only through them) or in libraries of their own
m=$t/regression/ust/multi-lib
cc_ml() { cc -O1 -fPIC -I"$m" "$@" 2>>"$S/build/cc.log" || echo "# could not build multi-lib's $*"; }
mkdir -p "$m/.libs"
for x in a a_prime b c c_prime d e f g h i j k l m n o p; do
	X=$(echo "${x%_prime}" | tr a-p A-P)
	cc_ml -shared -DACTIVATE_PROBES_$X -o "$m/.libs/libprobes_$x.so" "$m/probes.c" -llttng-ust
done
for v in 1 2; do
	cc_ml -shared -DVALUE=$v$v$v$v$v -o "$m/.libs/libcallsites_$v.so" "$m/callsites.c" -llttng-ust
done
cc_ml -DHAS_CALLSITES=1 -o "$m/exec-with-callsites" "$m/multi-lib-test.c" "$m/callsites.c" -lpopt -ldl
cc_ml -DHAS_CALLSITES=0 -o "$m/exec-without-callsites" "$m/multi-lib-test.c" "$m/probes.c" \
	-lpopt -ldl -llttng-ust

pass=0 fail=0
for test in "${TESTS[@]}"; do
	log=$S/$(echo "$test" | tr / _).log
	# in their namespaces: a private /run (the root daemon's /run/ltt),
	# home and temporary directory; the programs on ltt's libraries
	# (utils.sh sets LTTNG_UST_REGISTER_TIMEOUT=-1 after ltt-run ran:
	# set here too, so that ltt-run gives ltt's libraries its equivalent)
	(cd "$t/regression/$(dirname "$test")" &&
		env -u LTT_RUNDIR -u LTT_HOME HOME="$S/home" TMPDIR="$S/tmp" LTTNG_UST_REGISTER_TIMEOUT=-1 \
			${CONSUMERD:+LTT_CONSUMERD_PATH="$CONSUMERD"} \
			${CONFIG_XML:+LTT_CONFIG_XML_PATH="$CONFIG_XML"} \
			${COMPAT_LIBDIR:+LTT_LTTNG_UST_LIBDIR="$COMPAT_LIBDIR"} \
			unshare -m -p -n -f --mount-proc bash -c '
			mount --make-rprivate / && mount -t tmpfs -o mode=755 ltt-lttng-tools /run || exit 1
			ip link set lo up || exit 1
			mkdir -p /run/lttng
			exec timeout 900 "$1" bash "$2"' run "$LTTRUN" "./$(basename "$test")") >"$log" 2>&1
	rc=$?
	nok=$(grep -c '^ok ' "$log") nnot=$(grep -c '^not ok ' "$log")
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$log" | head -1)
	if [ "$rc" = 0 ] && [ "$nnot" = 0 ] && [ "$nok" = "${plan:-x}" ]; then
		echo "PASS $test ($nok of $plan)"
		pass=$((pass + 1))
	else
		echo "FAIL $test (exit $rc, $nok ok, $nnot not ok, plan ${plan:-none}; $log)"
		grep -m5 '^not ok ' "$log" | sed 's/^/	/'
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
$keep && echo "kept $S"
[ "$fail" = 0 ]
