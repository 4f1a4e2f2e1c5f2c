#!/bin/bash
# test_lttng_tools_suite.sh - lttng-tools 2.13.9's own regression tests
# that pass whole against ltt (doc/lttng-tools-tests.md), one TAP check
# each, run by tests/lttng-tools/run.sh: LTTng's scripts drive lttctl,
# ltt-sessiond and ltt-relayd through LTTng's command lines (the daemon
# started as lttng-sessiond serves LTTng's client protocol too, which the
# tests' liblttng-ctl programs use: trigger/start-stop's
# notification-client, trigger/hidden's and rotation/schedule_api's
# programs), and their
# programs, built with LTTng-UST's headers, record through ltt's
# liblttng-ust.so.1.  A check passes when every check of its LTTng test
# passed, as many as the test planned, within LIMIT seconds.  The source
# is LTT_LTTNG_TOOLS_SRC, or fetched from Debian's source package into
# the build directory (tests/lttng-tools/fetch-src.sh).  Only tests that
# pass reliably are here, and the whole takes under 8 minutes on the
# 2-CPU development machine (doc/lttng-tools-tests.md says what each
# took).  Skipped without root (run.sh's namespaces), in a sanitizer
# build (LTTng's programs would load ltt's sanitized libraries without
# the sanitizer's runtime) or when the source can't be had.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"

# Those that passed whole in every run, in under a minute each (alone on the
# 2-CPU machine: doc/lttng-tools-tests.md); each may take LIMIT seconds,
# several times that, and the whole run WHOLE seconds, so that the test
# ends within 8 minutes however loaded the machine is.
TESTS=(
	ust/before-after/test_before_after
	ust/buffers-pid/test_buffers_pid
	ust/multi-session/test_multi_session
	ust/namespaces/test_ns_contexts
	ust/overlap/test_overlap
	ust/periodical-metadata-flush/test_periodical_metadata_flush
	ust/rotation-destroy-flush/test_rotation_destroy_flush
	ust/test_event_basic
	ust/test_event_tracef
	tools/channel/test_channel
	tools/trigger/start-stop/test_start_stop
	tools/trigger/hidden/test_hidden_trigger
	tools/rotation/test_schedule_api
	tools/exclusion/test_exclusion
	tools/filtering/test_invalid_filter
	tools/filtering/test_unsupported_op
	tools/live/test_lttng_ust
	tools/live/test_ust
	tools/live/test_ust_tracefile_count
	tools/regen-statedump/test_ust
	tools/rotation/test_save_load_mi
	tools/streaming/test_ust
	tools/tracefile-limits/test_tracefile_count
	tools/tracefile-limits/test_tracefile_size
	tools/snapshots/test_ust_fast
	tools/save-load/test_save
	tools/working-directory/test_relayd_working_directory
)
LIMIT=120 WHOLE=420
# three at a time: most of their time is waits (the whole run took 32% of
# one CPU one at a time), and each runs in namespaces of its own
JOBS=3

test_init
lttng_tools_src_or_skip
plan $((${#TESTS[@]} + 3))

# --list: the 53 of the main list, then, under a line of its own, the 8
# that python3-lttng drives (run by name or with 'python', not here).
list=$(bash "$LTT_TOP_SRCDIR/tests/lttng-tools/run.sh" --list)
is "$(sed '/^#/,$d' <<<"$list" | grep -c .)" 53 "run.sh --list: 53 tests in its main list"
is "$(sed '1,/^# driven by python3-lttng/d' <<<"$list" | grep -c '^ust/')" 8 \
	"run.sh --list: the 8 python3-lttng tests of ust/ after it, under their own line"

out="$TEST_TMP/run.out"
LTT_BUILDDIR=$LTT_TOP_BUILDDIR TMPDIR=$TEST_TMP timeout -k 10 "$WHOLE" \
	bash "$LTT_TOP_SRCDIR/tests/lttng-tools/run.sh" -k -t "$LIMIT" -j "$JOBS" "$src" "${TESTS[@]}" >"$out" 2>&1
for t in "${TESTS[@]}"; do
	line=$(grep -E "^(PASS|FAIL) $t " "$out")
	: "${line:=NOT RUN $t (the whole run passed its $WHOLE s)}"
	like "$line" "^PASS " "lttng-tools' $t passes whole: ${line#* $t }"
	if [[ $line == FAIL* ]]; then
		log=$(sed -n 's/.*; \(.*\.log\))$/\1/p' <<<"$line")
		diag "its log's last lines:"
		[ -f "$log" ] && diag "$(tail -n 30 "$log")"
	fi
done
grep '^# could not build' "$out" | while read -r l; do diag "$l"; done
# the `lttng` the tests ran: lttctl (run.sh's stand-in execs it), not Debian's
like "$(cat "$TEST_TMP"/ltt-lttng-tools.*/src/bin/lttng/lttng 2>&1)" "exec -a \"\\\$0\" \"$LTT_TOP_BUILDDIR/src/ctl/(\.libs/)?lttctl\"" \
	"run.sh's lttng stand-in runs this build's lttctl"
done_testing
