#!/bin/bash
# tests/lttng-tools/run.sh - run lttng-tools' own regression tests for
# user space against ltt: `lttng` runs lttctl, `lttng-sessiond` runs
# ltt-sessiond, `lttng-relayd` runs ltt-relayd, `lttng-crash` runs
# ltt-crash, and their test programs
# (built here with LTTng-UST's headers, Debian's liblttng-ust-dev) run
# on ltt's liblttng-ust.so.1.  Results: doc/lttng-tools-tests.md.  It
# fetches nothing: give it the path of an lttng-tools source tree
# (2.13.9's; tests/lttng-tools/fetch-src.sh gets one).
#
#   tests/lttng-tools/run.sh [-k] [-t SECONDS] [-j N] LTTNG_TOOLS_SRC [TEST... | python]
#   tests/lttng-tools/run.sh --prepare DIR LTTNG_TOOLS_SRC
#   tests/lttng-tools/run.sh [-t SECONDS] [-j N] --prepared DIR [TEST... | python]
#   tests/lttng-tools/run.sh --list
#
# --prepare DIR builds the scratch tree in DIR (a new or empty
# directory: the tests, their programs, the stand-ins) and runs nothing;
# with LTT_PREFIX set, the stand-ins run ltt as installed under that
# prefix where the tree will run (PREFIX/bin/lttctl...), which need not
# exist here (LTT_LTTNG_CLIENT and LTT_LTTNG_DAEMONS too are the
# prepare's: its stand-ins).  --prepared DIR runs tests from such a tree,
# at the path it was made at, with nothing to build (the python tests
# need python3-lttng there): tests/kernel/test_lttng_tools_kernel.sh
# prepares one here and runs it in a guest whose kernel loads ltt's module
# (the kernel halves of LTTng's tests, on lttng-test.ko).
#
# `lttng-sessiond` is ltt-sessiond started by that name, which implies
# --lttng-compat as on a host where ltt's compat package puts it there:
# it serves LTTng's client protocol beside ltt's, so the tests' programs
# on liblttng-ctl (register-some-triggers, ...) reach it while `lttng`,
# lttctl, speaks ltt's.  LTT_LTTNG_CLIENT=debian: `lttng` is Debian's own
# /usr/bin/lttng, which drives that daemon over LTTng's client protocol
# (doc/lttng-compat.md).  LTT_LTTNG_DAEMONS=debian: the reference, every
# program Debian's LTTng (its daemons, consumer, client and liblttng-ust),
# run the same way.
#
# tools/notification's test point libraries (libpause_sessiond.so,
# libpause_consumer.so) are built too: ltt's daemons call them as LTTng's
# do (src/common/base/testpoint.h).  The tests of AS_USER_TESTS run as
# nobody (their kernel halves, which stop a root run, skipped).
#
# TEST: a path under tests/regression (default: every test of --list's
# main list, the tests of ust/ and tools/ a user-space host can run: not
# those of lttng-modules, of a program or Python module that drives the
# daemon through liblttng-ctl (but tools/health/test_thread_ok's
# health_check), or of Java); `python`: the 8 of PY_TESTS,
# on python3-lttng, which --list prints after the main list.  Each runs in a scratch directory
# (mktemp -d; -k keeps it), at most SECONDS (-t, default 900; the two
# tests that run long by design, at least their AT_LEAST below), in its
# own mount, PID and network namespaces with a private /run, its own
# home and temporary directory (-k keeps them: SCRATCH/run/N, N its
# place in the run): the tests look for their daemons with pgrep and
# kill what they find, so they must see no other daemon of the machine;
# the relay's ports and `tc` are the namespace's (loopback only).
# Nothing but the CPUs is shared, so -j N runs N tests at once (default
# 1; most of a test's time is its waits: lttng-tools' suite took 32% of
# one CPU); not with LTT_LTTNG_NO_PIDNS, whose tests share the machine's
# PID namespace.  Needs root, unshare, ip, cc, libxml2's headers, babeltrace (1) and
# an ltt build (LTT_BUILDDIR, default ./build next to this script's
# tree) or installed ltt (LTT_BUILDDIR=installed).  Prints one line a
# test, PASS or FAIL.
set -u

ALL_TESTS=(
	ust/before-after/test_before_after
	ust/blocking/test_blocking
	ust/buffers-pid/test_buffers_pid
	ust/clock-override/test_clock_override
	ust/getcpu-override/test_getcpu_override
	ust/high-throughput/test_high_throughput
	ust/low-throughput/test_low_throughput
	ust/multi-lib/test_multi_lib
	ust/multi-session/test_multi_session
	ust/namespaces/test_ns_contexts
	ust/namespaces/test_ns_contexts_change
	ust/nprocesses/test_nprocesses
	ust/overlap/test_overlap
	ust/periodical-metadata-flush/test_periodical_metadata_flush
	ust/rotation-destroy-flush/test_rotation_destroy_flush
	ust/test_event_basic
	ust/test_event_perf
	ust/test_event_tracef
	tools/base-path/test_ust
	tools/channel/test_channel
	tools/clear/test_ust
	tools/crash/test_crash
	tools/exclusion/test_exclusion
	tools/filtering/test_invalid_filter
	tools/filtering/test_unsupported_op
	tools/filtering/test_valid_filter
	tools/health/test_thread_ok
	tools/live/test_lttng_ust
	tools/live/test_ust
	tools/live/test_ust_tracefile_count
	tools/metadata/test_ust
	tools/mi/test_mi
	tools/notification/test_notification_notifier_discarded_count
	tools/regen-metadata/test_ust
	tools/regen-statedump/test_ust
	tools/relayd-grouping/test_ust
	tools/rotation/test_save_load_mi
	tools/rotation/test_ust
	tools/save-load/test_autoload
	tools/save-load/test_load
	tools/save-load/test_save
	tools/snapshots/test_ust_fast
	tools/snapshots/test_ust_long
	tools/snapshots/test_ust_streaming
	tools/streaming/test_high_throughput_limits
	tools/streaming/test_ust
	tools/tracefile-limits/test_tracefile_count
	tools/tracefile-limits/test_tracefile_size
	tools/tracker/test_event_tracker
	tools/trigger/test_add_trigger_cli
	tools/trigger/test_remove_trigger_cli
	tools/wildcard/test_event_wildcard
	tools/working-directory/test_relayd_working_directory
)
# The tests of ust/ that python3-lttng drives (tests/utils/test_utils.py
# imports Debian's `lttng` module, on liblttng-ctl): run when named, or
# all of them with the word `python`; `--list` prints them after the
# main list, under a line of its own.
PY_TESTS=(
	ust/baddr-statedump/test_baddr-statedump
	ust/daemon/test_daemon
	ust/exit-fast/test_exit-fast
	ust/fork/test_fork
	ust/libc-wrapper/test_libc-wrapper
	ust/linking/test_linking
	ust/type-declarations/test_type_declarations
	ust/ust-dl/test_ust-dl
)

usage() {
	echo "usage: $0 [-k] [-t SECONDS] [-j N] LTTNG_TOOLS_SRC [TEST... | python] | $0 --list" >&2
	echo "$1" >&2
	exit 2
}

keep=false limit=900 jobs=1 prepare='' prepared=''
while [ $# -gt 0 ]; do
	case $1 in
	--prepare | --prepared)
		[ -n "${2:-}" ] || usage "$1: give the scratch tree's directory"
		if [ "$1" = --prepare ]; then prepare=$2; else prepared=$2; fi
		shift 2 ;;
	--list)
		printf '%s\n' "${ALL_TESTS[@]}" "# driven by python3-lttng (name them, or 'python'):" \
			"${PY_TESTS[@]}"
		exit 0 ;;
	-k) keep=true; shift ;;
	-t) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage "-t: give the seconds a test may run (a whole number)"
		limit=$2; shift 2 ;;
	-j) [[ ${2:-} =~ ^[1-9][0-9]?$ ]] || usage "-j: give how many tests may run at once (1 to 99)"
		jobs=$2; shift 2 ;;
	-*) usage "unknown option '$1'" ;;
	*) break ;;
	esac
done
if [ -n "$prepared" ]; then
	[ -f "$prepared/run.env" ] || usage "--prepared $prepared: no tree that --prepare made there"
	SRC=$(readlink -f "$prepared")	# its tests/ are the source's
else
	[ $# -ge 1 ] && [ -f "$1/tests/utils/utils.sh" ] ||
		usage "LTTNG_TOOLS_SRC must be an lttng-tools source tree (with tests/utils/utils.sh)"
	SRC=$(readlink -f "$1")
	shift
fi
[ -z "$prepare" ] || [ $# = 0 ] || usage "--prepare runs no test: name them with --prepared"
[ -z "$prepare" ] || [ -z "$prepared" ] || usage "--prepare or --prepared, not both"
[ "$jobs" = 1 ] || [ "${LTT_LTTNG_NO_PIDNS:-}" != 1 ] ||
	usage "-j $jobs: with LTT_LTTNG_NO_PIDNS=1 the tests share one PID namespace: one at a time"
TESTS=()
for test in "$@"; do
	if [ "$test" = python ]; then TESTS+=("${PY_TESTS[@]}"); else TESTS+=("$test"); fi
done
# A built tree (configured, `make` run: lttng-tools 2.16's, whose test
# programs are C++ on its own libraries, built in a root of Debian sid by
# tests/lttng-tools/run-sid.sh) brings its programs; a source tree
# (2.13.9's) gets them built here.  The default list is the tests of
# --list that the tree has (2.16 moved one of them to Python).
BUILT=false
[ -z "$prepared" ] && [ -f "$SRC/config.status" ] && BUILT=true
if [ ${#TESTS[@]} = 0 ]; then
	for test in "${ALL_TESTS[@]}"; do
		[ -f "$SRC/tests/regression/$test" ] || [ -f "$SRC/tests/regression/$test.in" ] ||
			{ echo "# $test: not in this tree's tests" >&2; continue; }
		TESTS+=("$test")
	done
fi
for test in "${TESTS[@]}"; do
	# ust-dl's wrapper is made by configure, from test_ust-dl.in
	[ -f "$SRC/tests/regression/$test" ] || [ -f "$SRC/tests/regression/$test.in" ] ||
		usage "no test $test in $SRC/tests/regression (--list shows the tests)"
done
[ -n "$prepare" ] || { [ "$(id -u)" = 0 ] && unshare -m -p -n -f --mount-proc true 2>/dev/null; } || {
	echo "$0: needs root and unshare -m -p -n (the tests' pgrep and kill must see only their own daemons)" >&2
	exit 2
}

TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=${LTT_BUILDDIR:-$TOP/build}
if [ -n "$prepared" ]; then
	. "$prepared/run.env"
elif [ -n "$prepare" ] && [ -n "${LTT_PREFIX:-}" ]; then
	LTTCTL=$LTT_PREFIX/bin/lttctl SESSIOND=$LTT_PREFIX/bin/ltt-sessiond
	RELAYD=$LTT_PREFIX/bin/ltt-relayd LTTRUN=$LTT_PREFIX/bin/ltt-run CRASH=$LTT_PREFIX/bin/ltt-crash
	CONSUMERD='' COMPAT_LIBDIR='' CONFIG_XML=''
elif [ "$B" = installed ]; then
	LTTCTL=$(command -v lttctl) SESSIOND=$(command -v ltt-sessiond)
	RELAYD=$(command -v ltt-relayd) LTTRUN=$(command -v ltt-run) CRASH=$(command -v ltt-crash)
	CONSUMERD='' COMPAT_LIBDIR='' CONFIG_XML=''
else
	LTTCTL=$B/src/ctl/lttctl SESSIOND=$B/src/sessiond/ltt-sessiond
	RELAYD=$B/src/relayd/ltt-relayd LTTRUN=$B/src/lttng-ust/ltt-run CRASH=$B/src/crash/ltt-crash
	CONSUMERD=$B/src/consumerd/ltt-consumerd COMPAT_LIBDIR=$B/src/lttng-ust/.libs
	CONFIG_XML=$B/src/lib/ltt-ctl/.libs/config-xml.so	# save and load's module
fi
for f in "$LTTCTL" "$SESSIOND" "$RELAYD" "$LTTRUN" "$CRASH"; do
	[ -x "$f" ] || { [ -n "$prepare" ] && [ -n "${LTT_PREFIX:-}" ]; } ||
		{ echo "$0: ltt is not built: '$f' (build it, or set LTT_BUILDDIR)" >&2; exit 2; }
done

if [ -n "$prepared" ]; then
	S=$SRC
	# a run of its own: nothing of an earlier run's homes, files and logs
	rm -rf "$S/run" "$S"/*.log && mkdir -p "$S/run" || exit 2
elif [ -n "$prepare" ]; then
	mkdir -p "$prepare" && [ -z "$(ls -A "$prepare")" ] ||
		usage "--prepare $prepare: give a new or empty directory"
	S=$(readlink -f "$prepare")
else
	S=$(mktemp -d "${TMPDIR:-/tmp}/ltt-lttng-tools.XXXXXX")
	$keep || trap 'rm -rf "$S"' EXIT
fi
t=$S/tests
# ---- the scratch tree: made here, or by --prepare before ----
if [ -z "$prepared" ]; then
cp -r "$SRC/tests" "$S/tests"
mkdir -p "$S/src/bin/lttng" "$S/src/bin/lttng-sessiond" "$S/src/bin/lttng-relayd" \
	"$S/src/bin/lttng-consumerd" "$S/src/bin/lttng-crash" "$S/src/common/config" "$S/run" "$S/build"

# The schemas the tests validate LTTng's MI output and saved sessions
# with, where they look for them (in the scratch copy, not in ltt).
cp "$SRC"/src/common/mi-lttng-*.xsd "$S/src/common/"
cp "$SRC"/src/common/config/session.xsd "$S/src/common/config/" 2>/dev/null ||
	cp "$SRC/src/common/session.xsd" "$S/src/common/"	# 2.14's place

# The stand-ins; argv[0] stays LTTng's name, so that the tests' pgrep
# finds the daemons.  lttng-sessiond: LTTng's options that ltt takes
# otherwise (its consumer paths) left out, and words that are no option
# (utils.sh's start_lttng_sessiond passes a stray "1", which LTTng's
# daemon ignores and ltt's refuses).
# lttng: lttctl by LTTng's name (argv[0] the stand-in's path), which gives
# LTTng's behaviour where lttctl's own differs (doc/lttng-compat.md).
# libtool's wrapper of a build tree would lose the name: the program it
# wraps runs, with the library path the wrapper sets (as
# tests/regression/lib.sh runs it).
CLIENT=$LTTCTL CLIENT_ENV=
if [ "$LTTCTL" = "$B/src/ctl/lttctl" ] && [ -x "$B/src/ctl/.libs/lttctl" ] &&
	grep -q '^relink_command=""' "$LTTCTL" 2>/dev/null; then
	CLIENT=$B/src/ctl/.libs/lttctl
	CLIENT_ENV="export LD_LIBRARY_PATH=$B/src/lib/ltt-ctl/.libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
fi
[ "${LTT_LTTNG_CLIENT:-}" = debian ] && CLIENT=/usr/bin/lttng CLIENT_ENV=
cat >"$S/src/bin/lttng/lttng" <<STANDIN
#!/bin/bash
$CLIENT_ENV
exec -a "\$0" "$CLIENT" "\$@"
STANDIN
cat >"$S/src/bin/lttng-sessiond/lttng-sessiond" <<STANDIN
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
exec -a lttng-sessiond "$SESSIOND" "\${args[@]}"
STANDIN
# lttng-crash: ltt-crash takes lttng-crash's command line as it is.
cat >"$S/src/bin/lttng-crash/lttng-crash" <<STANDIN
#!/bin/bash
exec -a lttng-crash "$CRASH" "\$@"
STANDIN
# lttng-relayd: LTTng's options (getopt_long's, so a long one may be
# shortened) to ltt-relayd's; the options ltt-relayd lacks are refused,
# saying so.  ltt-relayd reads LTTNG_RELAYD_WORKING_DIRECTORY and
# LTTNG_RELAYD_DISALLOW_CLEAR itself.
cat >"$S/src/bin/lttng-relayd/lttng-relayd" <<STANDIN
#!/bin/bash
longs=(control-port data-port live-port daemonize background group fd-pool-size help
	output verbose config version working-directory group-output-by-session
	group-output-by-host disallow-clear pid-file sig-parent)
lacks() {
	echo "lttng-relayd (ltt's stand-in): ltt-relayd has no \$1; run it without" >&2
	exit 1
}
args=()
while [ \$# -gt 0 ]; do
	a=\$1 value=
	shift
	case \$a in
	--*=*) value=\${a#*=} a=\${a%%=*} ;;
	esac
	if [[ \$a == --?* ]]; then
		match=()
		for l in "\${longs[@]}"; do
			[[ \$l == "\${a#--}" ]] && match=("\$l") && break
			[[ \$l == "\${a#--}"* ]] && match+=("\$l")
		done
		[ \${#match[@]} = 1 ] || { echo "lttng-relayd: unknown or ambiguous option '\$a'" >&2; exit 1; }
		a=--\${match[0]}
	fi
	case \$a in
	-C | -D | -L | -o | -w | --control-port | --data-port | --live-port | --output | \
		--working-directory)
		[ -n "\$value" ] || { value=\$1; shift; }
		args+=("\$a" "\$value") ;;
	-[CDLow]?*) args+=("\$a") ;;
	-d | -b | -h | -V | -v* | --daemonize | --background | --help | --version | --verbose)
		args+=("\$a") ;;
	-p | --group-output-by-host) args+=(--group-output-by-host) ;;
	-s | --group-output-by-session) args+=(--group-output-by-session) ;;
	-g | --group) lacks "--group (its sockets are the network's)" ;;
	-x | --disallow-clear) args+=(--disallow-clear) ;;
	-S | --sig-parent) args+=(--sig-parent) ;;
	--pid-file) [ -n "\$value" ] || { value=\$1; shift; }
		args+=(--pidfile "\$value") ;;
	-f | --config) lacks "configuration file (--config)" ;;
	--fd-pool-size) lacks "--fd-pool-size" ;;
	*) echo "lttng-relayd: unknown option '\$a'" >&2; exit 1 ;;
	esac
done
exec -a lttng-relayd "$RELAYD" "\${args[@]}"
STANDIN
# LTT_LTTNG_DAEMONS=debian: the reference, Debian's LTTng 2.13.9 whole,
# its client, daemons and consumer (lttng-modules' kernel halves aside),
# the programs on Debian's liblttng-ust (no ltt-run): the same tests,
# programs and namespaces as ltt's runs, side by side.
if [ "${LTT_LTTNG_DAEMONS:-}" = debian ]; then
	for d in lttng:/usr/bin/lttng lttng-sessiond:/usr/bin/lttng-sessiond \
		lttng-relayd:/usr/bin/lttng-relayd lttng-crash:/usr/bin/lttng-crash \
		lttng-consumerd:/usr/lib/$(gcc -print-multiarch)/lttng/libexec/lttng-consumerd; do
		[ -x "${d#*:}" ] || { echo "$0: LTT_LTTNG_DAEMONS=debian: no ${d#*:} (Debian's lttng-tools)" >&2; exit 2; }
		printf '#!/bin/bash\nexec -a %s %s "$@"\n' "${d%%:*}" "${d#*:}" \
			>"$S/src/bin/${d%%:*}/${d%%:*}"
	done
	LTTRUN=env CONSUMERD='' COMPAT_LIBDIR='' CONFIG_XML=''
fi
chmod +x "$S"/src/bin/lttng*/lttng*
# python3 for PY_TESTS: one that imports python3-lttng's module (Debian's
# /usr/bin/python3, where a python3 earlier on PATH, a pyenv's, lacks it).
mkdir -p "$S/python"
for py in "$(command -v python3)" /usr/bin/python3; do
	[ -x "$py" ] && "$py" -c 'import lttng' 2>/dev/null && ln -sf "$py" "$S/python/python3" && break
done
[ -e "$S/python/python3" ] || echo "# no python3 imports lttng (python3-lttng): PY_TESTS will fail" >&2

# A built tree's programs came with its tests/ (its own `make`, against
# its LTTng-UST's headers): nothing to build here.
if ! $BUILT; then
# The test programs and libraries, with LTTng-UST's headers, as their
# Makefile.am build them; lttng-tools' own headers want a config.h, and
# its logging macros (live_test's) a few symbols of its libcommon.
cat >"$S/build/config.h" <<'EOF'
#define _GNU_SOURCE 1
#define VERSION_MAJOR 2
#define VERSION_MINOR 13
EOF
cat >"$S/build/logging.c" <<'EOF'
#include <common/error.h>
DEFINE_URCU_TLS(const char *, logger_thread_name);
const char *log_add_time(void) { return ""; }
void lttng_abort_on_error(void) { }
EOF
echo 'int lttng_opt_quiet = 1, lttng_opt_verbose, lttng_opt_mi;' >"$S/build/options.c"
ccflags=(-O1 -include "$S/build/config.h" -I"$SRC/include" -I"$SRC/src" -I"$t/utils" -I"$t/utils/testapp")
build() { # OUTPUT [CFLAG...] SOURCE... [-lLIB...]
	local out=$1 a dirs=()
	shift
	for a in "$@"; do
		[[ $a == *.c ]] && dirs+=(-I"$(dirname "$a")")
	done
	mkdir -p "$(dirname "$out")"
	cc "${ccflags[@]}" "${dirs[@]}" -o "$out" "$@" 2>"$S/build/cc.last" ||
		echo "# could not build $out (exit $?): $(tail -n 3 "$S/build/cc.last" | tr '\n' ' ')"
	cat "$S/build/cc.last" >>"$S/build/cc.log"
}
so() { # OUTPUT [CFLAG...] SOURCE...: a shared library with its tracepoints
	build "$@" -shared -fPIC -llttng-ust -ldl
}
ust=(-llttng-ust -llttng-ust-common -ldl)
u=$t/utils/testapp
for app in gen-ust-events gen-ust-nevents gen-ust-nevents-str; do
	build "$u/$app/$app" "$u/$app/$app.c" "$u/$app/tp.c" "$t/utils/utils.c" "${ust[@]}"
done
build "$u/gen-ust-events-ns/gen-ust-events-ns" "$u/gen-ust-events-ns/gen-ust-events-ns.c" \
	"$u/gen-ust-events-ns/tp.c" "$t/utils/utils.c" "${ust[@]}" -llttng-ust-fork -lpopt
build "$u/gen-ust-tracef/gen-ust-tracef" "$u/gen-ust-tracef/gen-ust-tracef.c" "$t/utils/utils.c" "${ust[@]}"
# the kernel halves' writer of /proc/lttng-test-filter-event (lttng-test.ko)
build "$u/gen-kernel-test-events/gen-kernel-test-events" \
	"$u/gen-kernel-test-events/gen-kernel-test-events.c" "$t/utils/utils.c"
# The ELF program the trigger tests place user-space probes on (its
# test_function, kept by -O0), and its library, where libtool puts them.
e=$u/userspace-probe-elf-binary
build "$e/.libs/libfoo.so" -O0 -shared -fPIC "$e/foo.c"
build "$e/.libs/userspace-probe-elf-binary" -O0 "$e/userspace-probe-elf-binary.c" -L"$e/.libs" \
	-Wl,-rpath,"$e/.libs" -lfoo
read -ra xml <<<"$(pkg-config --cflags libxml-2.0)"
for x in validate_xml extract_xml pretty_xml; do
	build "$t/utils/xml-utils/$x" "${xml[@]}" "$t/utils/xml-utils/$x.c" -lxml2
done
r=$t/regression
build "$r/tools/filtering/gen-ust-events" "$r/tools/filtering/gen-ust-events.c" "$r/tools/filtering/tp.c" \
	"$t/utils/utils.c" "${ust[@]}"
build "$r/tools/live/live_test" "$r/tools/live/live_test.c" "$t/utils/tap/tap.c" "$S/build/logging.c" \
	"$S/build/options.c"
n=$r/tools/notification
build "$n/default_pipe_size_getter" "$n/default_pipe_size_getter.c" "$SRC/src/common/pipe.c" \
	"$SRC/src/common/readwrite.c" "$S/build/logging.c"
# LTTng's test point functions, LD_PRELOADed into the session daemon
# (with LTTNG_TESTPOINT_ENABLE=1): ltt's daemons call them where LTTng's
# do, and export what they look up (src/common/base/testpoint.h).
for p in sessiond consumer; do
	build "$n/.libs/libpause_$p.so" -shared -fPIC "$n/${p}_testpoints.c" "$SRC/src/common/pipe.c" \
		"$SRC/src/common/readwrite.c" "$S/build/logging.c" -ldl
done
# The C programs of the trigger and notification tests, on Debian's
# liblttng-ctl (liblttng-ctl-dev): they drive the daemon as any LTTng
# program does, over LTTng's client protocol, which lttng-sessiond
# (ltt-sessiond by that name) serves in either mode.
g=$r/tools/trigger
build "$g/name/trigger_name" "$g/name/trigger_name.c" "$t/utils/tap/tap.c" -llttng-ctl
build "$g/hidden/hidden_trigger" "$g/hidden/hidden_trigger.c" "$t/utils/tap/tap.c" -llttng-ctl
build "$g/utils/notification-client" "$g/utils/notification-client.c" "$t/utils/utils.c" -llttng-ctl
build "$g/utils/register-some-triggers" "$g/utils/register-some-triggers.c" -llttng-ctl
build "$n/base_client" "$n/base_client.c" -llttng-ctl
build "$n/rotation" "$n/rotation.c" "$t/utils/tap/tap.c" -llttng-ctl
build "$r/tools/rotation/schedule_api" "$r/tools/rotation/schedule_api.c" "$t/utils/tap/tap.c" -llttng-ctl
build "$n/notification" "$n/notification.c" "$t/utils/tap/tap.c" -llttng-ctl -lm
# tools/health's client: liblttng-ctl's health queries (ltt-sessiond's
# sessiond-health, its consumers' and the relay's, doc/lttng-compat.md)
build "$r/tools/health/health_check" "$r/tools/health/health_check.c" -llttng-ctl
# and its test point libraries, LD_PRELOADed into the session daemon (its
# consumers inherit them) and the relay: ltt's loops run LTTng's threads'
# points (ltt_evloop_set_points()); a stalled one leaves that slot stuck,
# a failed one ends its loop in error.
# They include <urcu.h> and use nothing of it: an empty one stands in
# where liburcu's headers are not installed.
mkdir -p "$S/build/urcu"
[ -e /usr/include/urcu.h ] || : >"$S/build/urcu/urcu.h"
for h in stall:stall tpfail:fail; do
	build "$r/tools/health/.libs/libhealth${h%:*}.so" -shared -fPIC -I"$S/build/urcu" \
		"$r/tools/health/health_${h#*:}.c"
done
build "$r/ust/multi-session/gen-nevents" "$r/ust/multi-session/gen-nevents.c" "$r/ust/multi-session/tp.c" "${ust[@]}"
for d in low-throughput high-throughput; do
	build "$r/ust/$d/gen-events" "$r/ust/$d/main.c" "$r/ust/$d/tp.c" "${ust[@]}"
done
o=$r/ust/overlap/demo
build "$o/demo" "$o/demo.c" -ldl
so "$o/.libs/liblttng-ust-provider-ust-tests-demo.so" "$o/tp.c" "$o/tp2.c"
so "$o/.libs/liblttng-ust-provider-ust-tests-demo3.so" "$o/tp3.c"
so "$r/ust/clock-override/.libs/lttng-ust-clock-override-test.so" \
	"$r/ust/clock-override/lttng-ust-clock-override-test.c"
so "$r/ust/getcpu-override/.libs/lttng-ust-getcpu-override-test.so" \
	"$r/ust/getcpu-override/lttng-ust-getcpu-override-test.c"
m=$r/ust/multi-lib
build "$m/exec-with-callsites" -DHAS_CALLSITES=1 "$m/multi-lib-test.c" "$m/callsites.c" -ldl -lpopt
build "$m/exec-without-callsites" -DHAS_CALLSITES=0 "$m/multi-lib-test.c" "$m/probes.c" -lpopt "${ust[@]}"
for p in a a_prime b c c_prime d e f g h i j k l m n o p; do
	so "$m/.libs/libprobes_$p.so" "-DACTIVATE_PROBES_$(echo "${p%_prime}" | tr a-z A-Z)" "$m/probes.c"
done
so "$m/.libs/libcallsites_1.so" -DVALUE=11111 "$m/callsites.c"
so "$m/.libs/libcallsites_2.so" -DVALUE=22222 "$m/callsites.c"
# The programs of PY_TESTS, as their Makefile.am build them: only when
# one of them runs (some seconds of compiling that the others need not).
py_wanted() {
	local a b
	for a in "${TESTS[@]}"; do
		for b in "${PY_TESTS[@]}"; do
			[ "$a" = "$b" ] && return 0
		done
	done
	return 1
}
# baddr-statedump and ust-dl: objects stripped of their debug
# information, which a file beside them keeps (a .gnu_debuglink).
strip_debug() { # BUILT STRIPPED DEBUG
	objcopy --only-keep-debug "$1" "$3" && cp -f "$1" "$2" &&
		(cd "$(dirname "$3")" && objcopy --strip-debug --add-gnu-debuglink="$(basename "$3")" "$2") ||
		echo "# could not strip $1"
}
build_py_tests() {
	local a l p=$r/ust
	build "$p/daemon/daemon" "$p/daemon/daemon.c" "${ust[@]}" -llttng-ust-fork
	build "$p/exit-fast/exit-fast" "$p/exit-fast/exit-fast.c" "${ust[@]}"
	build "$p/fork/fork" "$p/fork/fork.c" "${ust[@]}" -llttng-ust-fork
	build "$p/fork/fork2" "$p/fork/fork2.c" "${ust[@]}" -llttng-ust-fork
	build "$p/libc-wrapper/prog" "$p/libc-wrapper/prog.c" "${ust[@]}" -llttng-ust-libc-wrapper
	build "$p/type-declarations/type-declarations" "$p/type-declarations/type-declarations.c" "${ust[@]}"
	a=$p/baddr-statedump
	build "$a/prog" -g "$a/prog.c" "$a/tp.c" "${ust[@]}"
	strip_debug "$a/prog" "$a/prog.strip" "$a/prog.debug"
	a=$p/ust-dl
	build "$a/prog" -g -DHAVE_DLMOPEN=1 "$a/prog.c" -ldl
	build "$a/.libs/libzzz.so" -g -shared -fPIC "$a/libzzz.c"
	build "$a/.libs/libbar.so" -g -shared -fPIC "$a/libbar.c" -L"$a/.libs" -lzzz
	build "$a/.libs/libfoo.so" -g -shared -fPIC "$a/libfoo.c" -L"$a/.libs" -lbar
	so "$a/.libs/libtp.so" -g "$a/libbar-tp.c" "$a/libfoo-tp.c" "$a/libzzz-tp.c"
	for l in foo bar zzz; do
		strip_debug "$a/.libs/lib$l.so" "$a/lib$l.so" "$a/lib$l.so.debug"
	done
	cp -f "$a/.libs/libtp.so" "$a/libtp.so" 2>/dev/null
	sed 's/@HAVE_DLMOPEN@/1/' "$a/test_ust-dl.in" >"$a/test_ust-dl"
	l=$p/linking
	build "$l/demo_builtin" -Werror=old-style-definition "$l/demo.c" "$l/tp.c" "$l/tp2.c" "$l/tp3.c" "${ust[@]}"
	build "$l/demo_static" "$l/demo.c" "$l/tp.c" "$l/tp2.c" "$l/tp3.c" "${ust[@]}"
	so "$l/.libs/liblttng-ust-provider-ust-tests-demo.so" "$l/tp.c" "$l/tp2.c"
	so "$l/.libs/liblttng-ust-provider-ust-tests-demo3.so" "$l/tp3.c"
	build "$l/demo" -DTEST_DYNAMIC_LINKAGE "$l/demo.c" -ldl
}
# (a tree prepared for later has them all: which tests it will run is said then)
{ [ -n "$prepare" ] || py_wanted; } && build_py_tests
fi	# ---- the programs built here ----
fi	# ---- the scratch tree ----
if [ -n "$prepare" ]; then
	# what --prepared needs of this run, at the paths the tree will run with
	declare -p LTTCTL SESSIOND RELAYD LTTRUN CRASH CONSUMERD COMPAT_LIBDIR CONFIG_XML \
		>"$S/run.env"
	echo "prepared $S"
	exit 0
fi

# One test: in its namespaces, a private /run (the root daemon's
# /run/ltt, LTTng's /run/lttng), its own home (HOME and LTTNG_HOME, where
# a user's daemon keeps its sockets) and temporary directory, nothing of
# them shared with another test, loopback up, the stand-in `lttng` first
# on PATH (so no test reaches Debian's /usr/bin/lttng by name); the programs
# on ltt's libraries (utils.sh sets LTTNG_UST_REGISTER_TIMEOUT=-1 after
# ltt-run ran: set here too, so that ltt-run gives ltt's libraries its
# equivalent).  The namespace's first process (timeout) is killed when
# unshare dies (--kill-child), and unshare when this script does
# (setpriv --pdeathsig, unshare a child of this shell: exec), even by
# SIGKILL: the kernel then kills every process of the namespace, so no
# daemon of a test outlives this script.  Without it, a run.sh killed
# left its test running in the namespace, daemons and all, up to -t.
# LTT_LTTNG_NO_PIDNS=1: no PID namespace of its own (the rest stays), for
# a machine that runs nothing else (tests/kernel/test_lttng_tools_kernel.sh's
# guest): the tracker test gives the kernel domain's --pid tracker the
# pids it sees, which are the kernel's own only there.
UNSHARE=(-m -p -n -f --kill-child --mount-proc)
[ "${LTT_LTTNG_NO_PIDNS:-}" = 1 ] && UNSHARE=(-m -n -f --kill-child)
# What a test's daemons leave when no PID namespace ends with it (a test
# that timed out, a daemon it did not stop): killed, so that the next
# test starts its own (utils.sh starts none while it finds one).
DAEMONS='ltt-sessiond|ltt-priv|ltt-consumerd|ltt-relayd|lttng-sessiond|lttng-consumerd|lttng-relayd'
leftovers() {
	local n=0
	pkill -KILL -x "$DAEMONS"
	while pgrep -x "$DAEMONS" >/dev/null; do
		[ $n -ge 100 ] && { echo "# daemons of the last test still here after 10 s" >&2; return 1; }
		sleep 0.1
		n=$((n + 1))
	done
}
run_one() { # TEST LOG SECONDS N: started, its pid in RUN_PID (returns 1, nothing started, where its directories could not be made)
	local own=$S/run/$4 user= clients=
	# short (N, the test's place in the run): a user's daemon's sockets are
	# in its home, and a Unix socket's path is at most 107 bytes
	mkdir -p "$own/home" "$own/tmp" && chmod 1777 "$own/tmp" || return 1
	if as_user "$1"; then
		user=$USER_IDS clients=$USER_CLIENTS
		chown "$USER_IDS" "$own/home" || return 1
	fi
	(cd "$t/regression/$(dirname "$1")" &&
		exec env -u LTT_RUNDIR -u LTT_HOME HOME="$own/home" LTTNG_HOME="$own/home" TMPDIR="$own/tmp" \
			PATH="$S/src/bin/lttng:$S/python:$PATH" LTTNG_UST_REGISTER_TIMEOUT=-1 \
			${clients:+LTT_SESSIOND_MAX_CLIENTS_PER_UID="$clients"} \
			${CONSUMERD:+LTT_CONSUMERD_PATH="$CONSUMERD"} \
			${COMPAT_LIBDIR:+LTT_LTTNG_UST_LIBDIR="$COMPAT_LIBDIR"} \
			${CONFIG_XML:+LTT_CONFIG_XML_PATH="$CONFIG_XML"} \
			setpriv --pdeathsig KILL \
			unshare "${UNSHARE[@]}" bash -c '
			mount --make-rprivate / && mount -t tmpfs -o mode=755 ltt-lttng-tools /run || exit 1
			mkdir -p /run/lttng
			ip link set lo up || exit 1
			if [ -n "$4" ]; then
				set -- "$1" "$2" "$3" setpriv --reuid="${4%:*}" --regid="${4#*:}" --clear-groups
			else
				set -- "$1" "$2" "$3"
			fi
			# by its own name, as LTTng runs it, so that its shell bears
			# the name (the kernel filter test reads it as $ctx.procname);
			# by bash when it is not executable (made from a .in file)
			test=("$3")
			[ -x "$3" ] || test=(bash "$3")
			# a child, not this shell'"'"'s exec (an exit follows it, so bash
			# forks): coreutils 9.10'"'"'s timeout (sid'"'"'s) fails at once as
			# a namespace'"'"'s first process (exit 125, nothing said)
			"${@:4}" timeout -k 10 "$1" "$2" "${test[@]}"
			exit $?' run "$3" "$LTTRUN" "./$(basename "$1")" \
			"$user") >"$2" 2>&1 &
	# (a child of this shell, which its --pdeathsig watches: waited for by
	# the caller, its pid in RUN_PID)
	RUN_PID=$!
}

# The tests that, as root, stop at their kernel half (lttng-modules'
# check) before or instead of finishing their user-space one, run as an
# unprivileged user (nobody), for whom they skip the kernel half as they
# say: test_notification_multi_app checks for the modules before any of
# its cases, test_notification_notifier_discarded_count after its
# user-space ones.  Their daemons are that user's; the scratch directory
# lets it read the tests and write its home and temporary files.
AS_USER_TESTS=(
	tools/notification/test_notification_multi_app
	tools/notification/test_notification_notifier_discarded_count
)
as_user() {
	local u
	for u in "${AS_USER_TESTS[@]}"; do
		[ "$u" = "$1" ] && return 0
	done
	return 1
}
USER_IDS="$(id -u nobody):$(id -g nobody)"
# LTTng's daemon has no bound on one user's clients; ltt-sessiond's (64 by
# default) would refuse some of test_notification_multi_app's 100
# notification clients: its whole budget (LTT_MAX_CLIENTS) for that user.
USER_CLIENTS=256
chmod 755 "$S"

# The tests that run long by design get their time whatever -t says:
# low-throughput's program runs 20 minutes; high_throughput_limits
# drains each round's burst through a link shaped down to 25 kbit/s
# (about 4,700 s here, LTTng's own daemons as long: doc/lttng-tools-tests.md).
declare -A AT_LEAST=(
	[ust/low-throughput/test_low_throughput]=1800
	[tools/streaming/test_high_throughput_limits]=7200
)

# report TEST LOG RC TOOK LIMIT: the test's line, PASS or FAIL, counted
report() {
	local nok nnot plan why
	nok=$(grep -c '^ok ' "$2") nnot=$(grep -c '^not ok ' "$2")
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$2" | head -1)
	if [ "$3" = 0 ] && [ "$nnot" = 0 ] && [ "$nok" = "${plan:-x}" ]; then
		echo "PASS $1 ($nok of $plan, $4 s)"
		pass=$((pass + 1))
	else
		why="exit $3"
		[ "$3" = 124 ] || [ "$3" = 137 ] && why="timed out after $5 s"
		echo "FAIL $1 ($why, $nok ok, $nnot not ok, plan ${plan:-none}, $4 s; $2)"
		grep -m5 '^not ok ' "$2" | sed 's/^/	/'
		fail=$((fail + 1))
	fi
}

# Up to -j tests run at once, each reported as it ends.
declare -A RUNNING RUN_LOG RUN_START RUN_LIMIT
# reap: wait for one running test to end, and report it
reap() {
	local pid rc
	wait -n -p pid "${!RUNNING[@]}"
	rc=$?
	[ "${LTT_LTTNG_NO_PIDNS:-}" = 1 ] && leftovers
	report "${RUNNING[$pid]}" "${RUN_LOG[$pid]}" "$rc" "$((SECONDS - RUN_START[$pid]))" "${RUN_LIMIT[$pid]}"
	unset "RUNNING[$pid]" "RUN_LOG[$pid]" "RUN_START[$pid]" "RUN_LIMIT[$pid]"
}
pass=0 fail=0 n=0
for test in "${TESTS[@]}"; do
	n=$((n + 1))
	log=$S/$(echo "$test" | tr / _).log
	tlimit=$limit
	[ "${AT_LEAST[$test]:-0}" -gt "$tlimit" ] && tlimit=${AT_LEAST[$test]}
	start=$SECONDS
	if ! run_one "$test" "$log" "$tlimit" "$n"; then
		echo "# $test: its scratch directories could not be made" >"$log"
		report "$test" "$log" 1 0 "$tlimit"
		continue
	fi
	RUNNING[$RUN_PID]=$test RUN_LOG[$RUN_PID]=$log RUN_START[$RUN_PID]=$start RUN_LIMIT[$RUN_PID]=$tlimit
	[ ${#RUNNING[@]} -lt "$jobs" ] || reap
done
while [ ${#RUNNING[@]} -gt 0 ]; do
	reap
done
echo "$pass passed, $fail failed"
$keep && echo "kept $S"
[ "$fail" = 0 ]
