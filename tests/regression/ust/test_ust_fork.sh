#!/bin/bash
# test_ust_fork.sh - fork() and fork()+exec(): the child's events are
# recorded, exactly, as its own; with per-PID buffers the parent and the
# child each get their own trace, holding only their own events; an
# exec'ed child that registers again within the same second (the same
# directory name, taken anew) makes no error in the daemons' log.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
plan 33

T=2 N=500
uid=$(id -u)
open_fifo ready "$TEST_TMP/ready"

# run_app ARGS...: ust_app -w, in the foreground; PARENT is its pid,
# CHILD the pid it printed for its child, APP_RC its exit status.
run_app() {
	ust_app -w "$TEST_TMP/ready" "$@" >"$TEST_TMP/app.out"
	APP_RC=$?
	wait_ready $ready
	PARENT=$READY_PIDS
	CHILD=$(sed -n 's/^child //p' "$TEST_TMP/app.out")
}

# --- per-UID buffers (the default) ---
ok_cmd "create (per-UID)" lttctl create uid -o "$TEST_TMP/uid"
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "start" lttctl start

run_app -f -t $T -n $N -r fmain
is $APP_RC 0 "-f: parent and child ran to completion"
like "$CHILD" '^[0-9]+$' "-f: the parent printed its child's pid"
ok "$([ "$CHILD" != "$PARENT" ]; echo $?)" "-f: the child is another process"
run_app -x -t $T -n $N -r xmain
is $APP_RC 0 "-x: parent and exec'ed child ran to completion"
ok_cmd "stop" lttctl stop

bt "$TEST_TMP/uid" "$TEST_TMP/out"
is "$(seq_check "$TEST_TMP/out" fmain $T $N)" "" "-f parent: $T x $N events, once each"
is "$(seq_check "$TEST_TMP/out" xmain $T $N)" "" "-x parent: $T x $N events, once each"
is "$(seq_check "$TEST_TMP/out" child $T $N)" "" "fork child: $T x $N events, once each"
is "$(seq_check "$TEST_TMP/out" exec $T $N)" "" "exec'ed child: $T x $N events, once each"
is "$(count_events "$TEST_TMP/out" ltt_test:seq)" $((4 * T * N)) "nothing else"
is "$(cd "$TEST_TMP/uid" && find . -name metadata)" "./ust/uid/$uid/64-bit/metadata" \
	"per-UID: parents and children share one trace"
ok_cmd "destroy" lttctl destroy uid

# --- per-PID buffers ---
ok_cmd "create (per-PID)" lttctl create pid -o "$TEST_TMP/pid"
ok_cmd "per-PID channel0" lttctl enable-channel -u channel0 --buffers-pid
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "start" lttctl start

run_app -f -t $T -n $N -r fparent
is $APP_RC 0 "-f: ran"
fparent=$PARENT fchild=$CHILD
run_app -x -t $T -n $N -r xparent
is $APP_RC 0 "-x: ran"
xparent=$PARENT xchild=$CHILD
ok_cmd "stop" lttctl stop

# pid_dirs PID: the per-PID trace directories of process PID.
pid_dirs() {
	find "$TEST_TMP/pid/ust/pid" -mindepth 1 -maxdepth 1 -name "ust_app-$1-*" | sort
}
d=$(pid_dirs "$fparent")
like "$d" "/ust/pid/ust_app-$fparent-[0-9]{8}-[0-9]{6}\$" "-f parent: ust/pid/ust_app-PID-DATE"
is "$(printf '%s\n' "$d" | wc -l)" 1 "-f parent: one trace"
babeltrace2 $d >"$TEST_TMP/fp" 2>&1
is "$(seq_check "$TEST_TMP/fp" fparent $T $N)$(grep -vc 'role = "fparent"' "$TEST_TMP/fp")" "0" \
	"-f parent's trace: its $T x $N events, nothing else"
d=$(pid_dirs "$fchild")
is "$(printf '%s\n' "$d" | grep -c .)" 1 "-f child: a trace of its own"
babeltrace2 $d >"$TEST_TMP/fc" 2>&1
is "$(seq_check "$TEST_TMP/fc" child $T $N)$(grep -vc 'role = "child"' "$TEST_TMP/fc")" "0" \
	"-f child's trace: its $T x $N events, nothing else"
d=$(pid_dirs "$xparent")
babeltrace2 $d >"$TEST_TMP/xp" 2>&1
is "$(seq_check "$TEST_TMP/xp" xparent $T $N)$(grep -vc 'role = "xparent"' "$TEST_TMP/xp")" "0" \
	"-x parent's trace: its $T x $N events, nothing else"
# The child registers between fork() and exec() too, then again as the
# new image: its events may be under one directory or two (same pid).
d=$(pid_dirs "$xchild")
ok "$([ -n "$d" ]; echo $?)" "-x child: a trace of its own"
babeltrace2 $d >"$TEST_TMP/xc" 2>&1
is "$(seq_check "$TEST_TMP/xc" exec $T $N)$(grep -vc 'role = "exec"' "$TEST_TMP/xc")" "0" \
	"-x child's trace: its $T x $N events, nothing else"
# Its second registration is usually in the same second as its first:
# the same directory name, which the daemon's retry takes as NAME-1.
# That retry loses nothing and is no error (before: the consumer logged
# "can't create its metadata file: File exists" as an Error each time).
is "$(grep -c ' Error: ' "$SESSIOND_LOG")" 0 \
	"the daemons logged no error (the exec'ed child's directory named anew in the same second)"
is "$(find "$TEST_TMP/pid/ust" -mindepth 2 -maxdepth 2 | grep -vc -e "-$fparent-" -e "-$fchild-" -e "-$xparent-" -e "-$xchild-")" 0 \
	"no other trace"
ok_cmd "destroy" lttctl destroy pid
done_testing
