#!/bin/bash
# test_ust_context.sh - lttctl add-context: every user-space context type
# in the trace with its exact value (pids and tids of known threads,
# thread names, namespace inode numbers, ids), read back by babeltrace2;
# a perf counter (moving where the machine counts, refused clearly where
# it can't); the refusals (unknown type, twice, after start, kernel);
# --list; list and its MI output.  c3's fields are all a thread keeps
# (no ip, cpu_id or counter): the path that writes them without a call.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

CTX_APP="$LTT_TOP_BUILDDIR/tests/regression/app/ust_ctx_app"
[ -x "$LTT_TOP_BUILDDIR/tests/regression/app/.libs/ust_ctx_app" ] &&
	[ "$UST_APP" != "$LTT_TOP_BUILDDIR/tests/regression/app/ust_app" ] &&
	CTX_APP="$LTT_TOP_BUILDDIR/tests/regression/app/.libs/ust_ctx_app"

ust_setup
plan 62

T=3 N=50
OUTDIR="$TEST_TMP/trace"
NS="cgroup_ns ipc_ns mnt_ns net_ns pid_ns time_ns user_ns uts_ns"
IDS="vuid veuid vsuid vgid vegid vsgid"

# --list: every type of the issue, and the perf counters.
run lttctl add-context --list
is "$RC" 0 "add-context --list"
missing=""
for t in vpid vtid procname ip pthread_id cpu_id $NS $IDS perf:thread:instructions \
	perf:thread:cache-misses perf:thread:raw:rN:NAME; do
	grep -qx -- "$t" <<<"$STDOUT" || missing="$missing $t"
done
is "$missing" "" "--list names every context type"

ok_cmd "create" lttctl create s1 -o "$OUTDIR"
ok_cmd "channel c1" lttctl enable-channel -u c1
ok_cmd "channel c2" lttctl enable-channel -u c2
ok_cmd "ltt_test:seq in c1" lttctl enable-event -u ltt_test:seq -c c1
ok_cmd "ltt_test:seq in c2" lttctl enable-event -u ltt_test:seq -c c2
ok_cmd "channel c3" lttctl enable-channel -u c3
ok_cmd "ltt_test:seq in c3" lttctl enable-event -u ltt_test:seq -c c3

# Refusals change nothing.
run lttctl add-context -u -t nosuch
ok "$([ "$RC" != 0 ]; echo $?)" "an unknown type is refused"
like "$ERR" "'nosuch': unknown context type" "  saying which and what to do"
run lttctl add-context -u -t perf:thread:raw:rxyz:foo
ok "$([ "$RC" != 0 ]; echo $?)" "a malformed raw counter is refused"
run lttctl add-context -u -t pid
ok "$([ "$RC" != 0 ]; echo $?)" "a kernel-only type is refused in user space"
like "$ERR" "'pid' is not a user-space context: .*--list -k" "  with a sentence"
run lttctl add-context -k -t ip
like "$RC $ERR" "^2 .*'ip' is not a kernel context" "a user-space-only type is refused in the kernel domain"
run lttctl add-context -k -t perf:cpu:cycles
like "$RC $ERR" "^1 .*a perf counter context in the kernel domain .*is not supported by ltt: add the counter to a user-space channel" "perf:cpu: counters: refused with the gap sentence"
run lttctl add-context --list -u
like "$(grep -cx 'pid\|ip\|hostname' <<<"$STDOUT")" "^1$" "--list -u: ip, not pid or hostname"
run lttctl add-context --list -k
like "$(grep -cx 'pid\|tid\|hostname\|prio\|ip\|pthread_id\|perf:thread:instructions' <<<"$STDOUT")" "^4$" \
	"--list -k: pid, tid, prio, hostname, not ip, pthread_id or perf"
run lttctl add-context -u
ok "$([ "$RC" != 0 ]; echo $?)" "no -t: refused"

# c1: everything but perf; c2: vtid only (no -c: both get it).
ok_cmd "vtid to every channel" lttctl add-context -u -t vtid
run lttctl add-context -u -t vtid -c c1
like "$RC $ERR" "^1 .*already has this context" "the same context twice is refused (exit 1)"
ok_cmd "the other contexts to c1" lttctl add-context -u -c c1 -t vpid -t procname -t ip \
	-t pthread_id -t cpu_id $(for t in $NS $IDS; do printf -- '-t %s ' "$t"; done)

ok_cmd "the kept contexts to c3" lttctl add-context -u -c c3 -t vpid -t procname -t pthread_id \
	-t net_ns -t vuid

# A perf counter: counted where the machine can, else a clear refusal.
run lttctl add-context -u -c c2 -t perf:thread:instructions
if [ "$RC" = 0 ]; then
	PERF=perf_thread_instructions
	ok 0 "perf:thread:instructions added (this machine counts it)"
else
	like "$RC $ERR" "^4 .*(can't count that perf counter|perf_event_paranoid)" \
		"perf:thread:instructions refused, exit 4 (LTTng's), with the reason: ${ERR##*: }"
	run lttctl add-context -u -c c2 -t perf:thread:task-clock
	PERF=perf_thread_task_clock
	if [ "$RC" = 0 ]; then
		ok 0 "a software counter (perf:thread:task-clock) instead"
	else
		# perf_event_open() forbidden altogether (a container's seccomp, paranoid 3)
		like "$RC $ERR" "^4 .*(perf_event_paranoid|can't count)" \
			"perf:thread:task-clock refused too, exit 4, saying why"
		PERF=""
	fi
fi

run lttctl list s1
like "$STDOUT" "Contexts:" "list shows the contexts"
c1=$(sed -n '/^- c1:/,/^- c2:/p' <<<"$STDOUT" | sed -n '/Contexts:/,/Event rules:/p' | grep -c '^      [a-z]')
is "$c1" 20 "  c1 has its 20 contexts"
run lttctl --mi xml list s1
is "$RC" 0 "list --mi xml"
unlike "$STDOUT" "<context>" \
	"  MI has no contexts in list (LTTng's channel element has no place for them; add-context's document does)"

ok_cmd "start" lttctl start
run lttctl add-context -u -t vpid -c c2
like "$ERR" "was started once" "no context once the session started"

run "$CTX_APP" $T $N
is "$RC" 0 "the program ran $T threads x $N events"
APPOUT=$STDOUT
pid=$(awk '/^pid / {print $2}' <<<"$APPOUT")
ok_cmd "stop" lttctl stop
run lttctl add-context -u -t vpid -c c2
like "$ERR" "was started once" "nor once it stopped"
run lttctl add-context -u -t vpid -t vtid -t procname -c c2
is "$RC:$(grep -c "was started once" <<<"$ERR")" 1:1 \
	"  three types then: one error, for the first (a refusal every type would get ends the list)"

bt "$OUTDIR" "$TEST_TMP/out"
is $? 0 "babeltrace2 reads the trace"
is "$(cat "$TEST_TMP/out.err")" "" "  with no warning"
is "$(grep -c ' ltt_test:seq: ' "$TEST_TMP/out")" $((3 * T * N)) "every event, in the three channels"

# One line per event: its channel's stream (by its context) and fields.
c1out=$(grep 'vpid = .* ip = 0x' "$TEST_TMP/out")
c3out=$(grep 'vpid = ' "$TEST_TMP/out" | grep -v ' ip = 0x')
c2out=$(grep -v 'vpid = ' "$TEST_TMP/out" | grep ' ltt_test:seq: ')
is "$(wc -l <<<"$c1out")" $((T * N)) "c1's events carry vpid"
is "$(grep -c "vpid = $pid," <<<"$c1out")" $((T * N)) "  vpid = the program's pid ($pid)"

# vtid, pthread_id, procname of each thread, in c1 and c3 and vtid in c2.
net=$(stat -L -c %i /proc/self/ns/net)
bad=0
for ((i = 0; i < T; i++)); do
	read -r _ _ tid ptid < <(grep "^thread $i " <<<"$APPOUT")
	n=$(grep "thread = $i," <<<"$c3out" |
		grep -c "vtid = $tid, vpid = $pid, procname = \"ctxw$i\", pthread_id = $ptid, net_ns = $net, vuid = $(id -ru) }")
	[ "$n" = "$N" ] || { bad=1; echo "# thread $i: $n of $N events with its kept fields in c3"; }
	n=$(grep "thread = $i," <<<"$c1out" |
		grep -c "vtid = $tid, vpid = $pid, procname = \"ctxw$i\", ip = 0x[0-9A-F]*, pthread_id = $ptid, ")
	[ "$n" = "$N" ] || { bad=1; echo "# thread $i: $n of $N events with vtid $tid, ctxw$i, $ptid"; }
	n=$(grep "thread = $i," <<<"$c2out" | grep -c "vtid = $tid[,} ]")
	[ "$n" = "$N" ] || { bad=1; echo "# thread $i: $n of $N events with vtid $tid in c2"; }
done
is $bad 0 "each thread's vtid, procname and pthread_id as it printed them"
is "$(wc -l <<<"$c3out")" $((T * N)) "c3's events, each with its fields"

ncpu=$(getconf _NPROCESSORS_CONF)
cpus=$(grep -o 'cpu_id = [0-9]*, cgroup_ns' <<<"$c1out" | awk -v n="$ncpu" '$3+0 >= n' | wc -l)
is "$cpus" 0 "cpu_id within 0..$((ncpu - 1))"
ips=$(grep -o 'ip = 0x[0-9A-F]*' <<<"$c1out" | sort -u | wc -l)
is "$ips" 1 "ip: one call site"
ip=$(grep -o 'ip = 0x[0-9A-F]*' <<<"$c1out" | head -1 | cut -d' ' -f3)
code=$(awk '/^code / {print $2}' <<<"$APPOUT")
off=$((ip - code))
ok "$([ "$off" -gt 0 ] && [ "$off" -lt 4096 ]; echo $?)" \
	"  in the function that calls the tracepoint ($ip = worker + $off)"

# The namespace ids: the inode numbers of the program's /proc/PID/ns/*
# (the test's own: the program ran in them).
for ns in $NS; do
	f=/proc/self/ns/${ns%_ns}
	if [ -e "$f" ]; then
		want=$(stat -L -c %i "$f")
	else
		want=0
	fi
	is "$(grep -c "$ns = $want[,} ]" <<<"$c1out")" $((T * N)) "$ns = $want"
done
is "$(grep -c "vuid = $(id -ru), veuid = $(id -u), vsuid = $(id -u), vgid = $(id -rg), vegid = $(id -g), vsgid = $(id -g) }" <<<"$c1out")" \
	$((T * N)) "vuid ... vsgid: the program's ids"

# The perf counter: present in every c2 event, non-decreasing per thread
# and moving over each thread's events.
if [ -n "$PERF" ]; then
	is "$(grep -c "$PERF = " <<<"$c2out")" $((T * N)) "$PERF in every c2 event"
	mono=$(grep -o "$PERF = [0-9]*.*thread = [0-9]*" <<<"$c2out" |
		awk '{ v = $3 + 0; t = $NF; if (t in last && v < last[t]) bad++
		       if (!(t in first)) first[t] = v; last[t] = v }
		     END { for (t in first) if (last[t] <= first[t]) bad++; print bad + 0 }')
	is "$mono" 0 "  increasing over each thread's events"
else
	skip 2 "no perf counter can be opened here"
fi

ok_cmd "destroy" lttctl destroy s1

# No channel yet: add-context makes the default one, as LTTng.
ok_cmd "create s2" lttctl create s2 --no-output
ok_cmd "add-context without a channel" lttctl add-context -u -t vpid
run lttctl list s2
like "$STDOUT" "- channel0: " "  made the default channel"
like "$STDOUT" "Contexts:"$'\n'"      vpid" "  with the context"
ok_cmd "destroy s2" lttctl destroy s2
done_testing
