#!/bin/sh
# The test suite again under sanitizers, each build in its own directory
# (doc/fuzzing.md):
#   asan  AddressSanitizer (with LeakSanitizer) + UndefinedBehaviorSanitizer,
#         clang, in build-asan: the whole suite but tests/kernel (their QEMU
#         guest has no sanitizer runtime; they run in the plain pass), the
#         fuzz targets as libFuzzer binaries for LTT_FUZZ_SECONDS each;
#   tsan  ThreadSanitizer, clang, in build-tsan: the unit tests whose
#         threads share memory (the ring buffer, the event loop, the relay
#         sink, the tracer library's threads) and the consumer's data
#         threads (test_consumerd_threads runs a TSan ltt-consumerd with 1
#         and 3); scripts/tsan.supp says what TSan cannot see
#         (synchronization through a forked process).  Not the tracer's
#         RCU (test_ust_rcu): its readers are ordered by membarrier(2),
#         which TSan does not model.
# Usage: scripts/sanitize.sh [asan|tsan]... (default: both); set
# LTT_SAN_TESTS="tests/..." to run only those tests of the asan pass, or
# LTT_SAN_DIRS="tests/unit tests/regression/sessiond ..." only the tests
# under those folders (.ci/run's set: doc/reliability.md).  The builds
# carry line tables only (-gline-tables-only): a report's stack names
# files and lines as with -g, and the tree builds faster.  Ends with
# one line "N passed, N failed, N skipped" over the passes run.  A report
# of a sanitizer in any process (daemons' included, whose stderr nobody
# reads) fails the pass: reports are written under BUILD/sanitizer-logs/.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
"$top/scripts/deps.sh" --sanitize || exit 1
cc=${LTT_SAN_CC:-$(command -v clang-14 || command -v clang || echo clang)}
# each fuzz target's libFuzzer run in the asan pass
LTT_FUZZ_SECONDS=${LTT_FUZZ_SECONDS:-5}
export LTT_FUZZ_SECONDS
passes=${*:-asan tsan}
[ -x "$top/configure" ] || (cd "$top" && ./bootstrap >/dev/null 2>&1) ||
	{ echo "sanitize.sh: ./bootstrap failed; run it by hand to see why" >&2; exit 1; }

TSAN_TESTS="tests/unit/trace/test_ringbuf tests/unit/trace/test_ringbuf_overwrite tests/unit/trace/test_ringbuf_blocking tests/unit/base/test_evloop tests/unit/base/test_evloop_threads tests/unit/consumerd/test_sink_relay \
tests/unit/ust/test_tracepoint_ser tests/unit/ust/test_tracepoint_cpu tests/regression/consumerd/test_consumerd_threads"

# configure_san DIR FLAGS: a clang build of the tree with FLAGS, once.
configure_san() {
	[ -f "$1/Makefile" ] && return 0
	mkdir -p "$1" && (cd "$1" && "$top/configure" --quiet --enable-werror --without-kmod CC="$cc" \
		CFLAGS="-gline-tables-only -O1 -fno-omit-frame-pointer $2 -Wno-cast-align" LDFLAGS="$2") ||
		{ echo "sanitize.sh: configure failed in $1" >&2; return 1; }
}

# count LOG: "PASS FAIL SKIP" from an automake test-suite.log.
count() {
	for k in PASS FAIL SKIP; do
		v=$(sed -n "s/^# $k: *//p" "$1" | head -n 1)
		[ "$k" = PASS ] && v=$((${v:-0} + $(sed -n 's/^# XFAIL: *//p' "$1" | head -n 1)))
		[ "$k" = FAIL ] && v=$((${v:-0} + $(sed -n 's/^# XPASS: *//p' "$1" | head -n 1) + \
			$(sed -n 's/^# ERROR: *//p' "$1" | head -n 1)))
		printf '%s ' "${v:-0}"
	done
}

total_pass=0 total_fail=0 total_skip=0

# make_var DIR VAR [MAKE-ARGS...]: the value of VAR in DIR's Makefile
make_var() {
	mv_dir=$1 mv_var=$2
	shift 2
	printf 'san-var: ; @echo $(%s)\n' "$mv_var" |
		make -s --no-print-directory -C "$mv_dir" -f Makefile -f - san-var "$@"
}

# run_pass NAME DIR FLAGS TARGET MAKE-ARGS...: make TARGET MAKE-ARGS in
# DIR (check: the whole tree, then its tests; check-TESTS: the tests, and
# the check programs they name, alone: what else they need built first,
# PREBUILD's targets, with the generated sources)
run_pass() {
	name=$1 dir=$2 flags=$3 target=$4
	shift 4
	begin=$(date +%s)
	configure_san "$dir" "$flags" || { total_fail=$((total_fail + 1)); return; }
	# shellcheck disable=SC2046 # targets, split
	if [ -n "${PREBUILD:-}" ] &&
		! make -C "$dir" -j"$jobs" $(make_var "$dir" BUILT_SOURCES) $PREBUILD >"$dir/prebuild.log" 2>&1; then
		tail -n 30 "$dir/prebuild.log"
		echo "sanitize.sh: $name: make $PREBUILD failed in $dir"
		total_fail=$((total_fail + 1))
		return
	fi
	logs=$dir/sanitizer-logs
	# world-writable (sticky): consumers running as a session's owner write here too
	rm -rf "$logs" && mkdir -p "$logs" && chmod 1777 "$logs"
	rm -f "$dir/test-suite.log"
	# LTT_SAN_DIRS: the suite's tests under those folders
	if [ -n "${LTT_SAN_DIRS:-}" ] && [ "$target" = check ] && [ -z "${LTT_SAN_TESTS:-}" ]; then
		set -- "$@" TESTS="$(make_var "$dir" TESTS KERNEL_TESTS= |
			tr ' ' '\n' | while read -r t; do
				for d in $LTT_SAN_DIRS; do
					case $t in "${d%/}"/*) echo "$t"; break ;; esac
				done
			done | tr '\n' ' ')"
	fi
	ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:log_path=$logs/report:${ASAN_OPTIONS:-}" \
	UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$top/scripts/ubsan.supp:log_path=$logs/report:${UBSAN_OPTIONS:-}" \
	TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:die_after_fork=0:suppressions=$top/scripts/tsan.supp:log_path=$logs/report:${TSAN_OPTIONS:-}" \
		make -C "$dir" -j"$jobs" "$target" "$@" >"$dir/check.log" 2>&1
	status=$?
	if [ -f "$dir/test-suite.log" ]; then
		set -- $(count "$dir/test-suite.log")
	else
		tail -n 30 "$dir/check.log"
		set -- 0 1 0
	fi
	pass=$1 fail=$2 skip=$3
	# LeakSanitizer's own warnings that it could not stop or read a thread
	# are no finding by themselves:
	# - clang 14 keeps a threaded program's threads in its forked child's
	#   registry: a child that calls exit() warns that they "were not
	#   suspended";
	# - a thread still leaving the kernel when its program exits (joined:
	#   its tid is cleared before it is gone) cannot give its registers;
	#   LeakSanitizer then scans its whole stack.
	# A leak it finds all the same is an "ERROR: LeakSanitizer" in the
	# same file, which keeps the file.
	for f in "$logs"/*; do
		[ -f "$f" ] && ! grep -qvE 'Running thread [0-9]+ was not suspended|Unable to get registers from thread [0-9]+\.' "$f" ||
			continue
		echo "sanitize.sh: $name: note: $f: LeakSanitizer's warning alone (a thread it could not stop or read): $(head -n 1 "$f")"
		rm -f "$f"
	done
	reports=$(ls "$logs" | wc -l)
	if [ "$reports" != 0 ]; then
		echo "sanitize.sh: $name: $reports sanitizer report(s) in $logs:"
		for f in "$logs"/*; do
			echo "--- $f"
			head -n 40 "$f"
		done
		fail=$((fail + reports))
	fi
	[ "$status" = 0 ] || [ "$fail" != 0 ] || fail=1
	"$top/scripts/slowest.sh" "$dir" 10 | sed "s/^/sanitize.sh: $name: /"
	[ "$fail" = 0 ] || grep -E '^(FAIL|ERROR|XPASS)' "$dir/test-suite.log" 2>/dev/null | head -50
	[ "$fail" = 0 ] || "$top/scripts/failed-logs.sh" "$dir"
	echo "sanitize.sh: $name: $pass passed, $fail failed, $skip skipped in $(($(date +%s) - begin))s"
	total_pass=$((total_pass + pass)) total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))
}

for p in $passes; do
	case $p in
	asan)
		# Sanitized programs run 2-5 times slower: the tests' bounded
		# waits (TEST_TIMEOUT, lib.sh) and their "at once" bounds
		# (LTT_TEST_TIME_SCALE) are scaled, never their deadlines.
		TEST_TIMEOUT=${TEST_TIMEOUT:-60} LTT_TEST_TIME_SCALE=${LTT_TEST_TIME_SCALE:-3}
		export TEST_TIMEOUT LTT_TEST_TIME_SCALE
		PREBUILD='' run_pass asan "${LTT_ASAN_BUILDDIR:-$top/build-asan}" \
			"-fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize-recover=alignment" \
			check KERNEL_TESTS= ${LTT_SAN_TESTS:+TESTS="$LTT_SAN_TESTS"} ;;
	tsan)
		# not the whole tree (its build took as long as the tests):
		# the generated sources, and the consumer test_consumerd_threads
		# runs
		PREBUILD=src/consumerd/ltt-consumerd run_pass tsan "${LTT_TSAN_BUILDDIR:-$top/build-tsan}" "-fsanitize=thread" \
			check-TESTS TESTS="$TSAN_TESTS" check_PROGRAMS="$TSAN_TESTS" \
			check_LTLIBRARIES=tests/unit/ust/test_tracepoint_plugin.la check_DATA= ;;
	*)
		echo "sanitize.sh: unknown pass '$p' (asan, tsan)" >&2
		exit 2 ;;
	esac
done
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" = 0 ]
