#!/bin/bash
# test_kernel_tracefs_snapshot.sh - kernel snapshot sessions through
# tracefs, natively (no VM).  Reading trace_pipe_raw consumes and this
# kernel has no ftrace snapshot, so the consumer keeps each CPU's newest
# converted packets itself (source-tracefs.h); a snapshot copies them
# and consumes nothing.  As test_kernel_snapshot.sh checks for the
# module: records in a row (each holds the earlier calls and the new
# ones), -m keeps the newest packets, a lapped buffer keeps the newest
# events, a record after stop holds the same, nothing counted lost;
# kernel and user space in one snapshot; a snapshot sent to a relay;
# records between small bursts (a record reads part of the page the
# kernel is writing, the next one the rest of it and the pages behind).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/relayd-lib.sh"

test_init
relayd_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 30

# load N: N getcpu calls on CPU 0 (a system call nothing else makes:
# programs read the CPU from the vDSO; getppid is made by sanitizers' runtimes
# at exit); TID is the caller's tid.
load() {
	TID=$(taskset -c 0 "$KLOAD" getcpu "$1" | sed -n 's/^tid //p')
	[ -n "$TID" ] || { echo "Bail out! kload getcpu $1 failed"; exit 1; }
}

# snap NAME: the directory of snapshot NAME (NAME-DATE-N), read by
# babeltrace2 into $TEST_TMP/NAME.txt (its getcpu events only, without
# the time since the previous event: the first one's depends on where
# the snapshot starts).
snap() {
	local d
	d=$(find "$TEST_TMP/snaps" -mindepth 1 -maxdepth 1 -type d -name "$1-*" | head -1)
	timeout "$BT_TIMEOUT" babeltrace2 "$d/kernel" 2>"$TEST_TMP/$1.err" |
		grep -E ' syscall_(entry|exit)_getcpu: ' | sed 's/ (+[^)]*)//' >"$TEST_TMP/$1.txt"
	echo "$d"
}

# calls NAME TID: "ENTRIES:EXITS" of TID's getcpu in snapshot NAME.
calls() {
	echo "$(grep -c "syscall_entry_getcpu: .*{ tid = $2 }" "$TEST_TMP/$1.txt"):$(grep -c "syscall_exit_getcpu: .*{ tid = $2 }" "$TEST_TMP/$1.txt")"
}

lttctl -q create ks --snapshot -o "$TEST_TMP/snaps" &&
	lttctl -q enable-channel -k snapchan --subbuf-size 4k --num-subbuf 16 -s ks &&
	lttctl -q enable-event -k --syscall getcpu -c snapchan -s ks &&
	lttctl -q add-context -k -t tid -c snapchan -s ks || { echo "Bail out! session ks"; exit 1; }
ok_cmd "start a kernel snapshot session through tracefs" lttctl start ks
load 300
t1=$TID
ok_cmd "snapshot record -n first" lttctl snapshot record -n first -s ks
first=$(snap first)
ok "$([ -f "$first/kernel/metadata" ]; echo $?)" "the snapshot is its own directory: OUTPUT/first-DATE-0/kernel"
is "$(calls first "$t1")" "300:300" "it holds the program's 300 getcpu, entry and exit"
load 200
t2=$TID
lttctl -q snapshot record -n second -s ks
snap second >/dev/null
is "$(calls second "$t1") $(calls second "$t2")" "300:300 200:200" \
	"the second holds the first's and the 200 new ones: nothing was consumed"
is "$(head -600 "$TEST_TMP/second.txt")" "$(cat "$TEST_TMP/first.txt")" \
	"... the first's records first, as they were"
# -m of one packet a stream (one per possible CPU): the newest of each
ncpu=$(awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); c += n == 2 ? r[2] - r[1] + 1 : 1 } }
	END { print c }' /sys/devices/system/cpu/possible)
lttctl -q snapshot record -n small -m $((4 * ncpu))k -s ks
small=$(snap small)
n_small=$(wc -l <"$TEST_TMP/small.txt")
ok "$([ "$n_small" -gt 0 ] && [ "$n_small" -lt 1000 ]; echo $?)" \
	"-m one packet a stream keeps part of the 1000 records ($n_small)"
is "$(cat "$TEST_TMP/small.txt")" "$(tail -n "$n_small" "$TEST_TMP/second.txt")" \
	"... the newest ones: the tail of the second snapshot"
is "$(stat -c %s "$small/kernel/snapchan_0" 2>/dev/null)" 4096 "... CPU 0's file is one packet"
# 5 programs of 800 calls overwrite the ring (16 packets of 4 KiB, about
# 1200 calls).  A record after each reads what the kernel holds, so its
# 64 KiB buffer takes one program's calls at most, whenever the consumer
# runs: the ring laps, the kernel's buffer never does.  A program must
# fit it with the consumer asleep (a loaded machine): a call is 72 bytes
# there (sys_enter_getcpu 44, sys_exit_getcpu 28), and the buffer holds
# 943 of them (1000 lapped it: their first 57 lost, counted discarded).
lap=()
for i in 1 2 3 4 5; do
	load 800
	lap+=("$TID")
	lttctl -q snapshot record -n "lap$i" -s ks
done
lttctl -q snapshot record -n lapped -s ks
snap lapped >/dev/null
# each record's program, 1..5, in trace order, repeats squeezed
order=$(sed -n 's/.*{ tid = \([0-9]*\) }.*/\1/p' "$TEST_TMP/lapped.txt" |
	awk -v l="${lap[*]}" 'BEGIN { n = split(l, t, " "); for (i = 1; i <= n; i++) k[t[i]] = i }
		{ print ($1 in k) ? k[$1] : "?" }' | uniq | tr -d '\n')
n_lap=$(grep -c "syscall_entry_getcpu: " "$TEST_TMP/lapped.txt")
like "$order" '^[2-5]*$' "the lapped ring holds the newest $n_lap calls: of the later programs only ($order)"
ok "$([ "${order: -1}" = 5 ] && [ "$order" = "$(fold -w1 <<<"$order" | sort -n | tr -d '\n')" ]; echo $?)" \
	"... in their order, the last one's last"
is "$(calls lapped "${lap[4]}") $(calls lapped "$t1") $(calls lapped "$t2")" "800:800 0:0 0:0" \
	"... the last program's 800 calls whole, none of the first ones'"
# entries and exits alternate (the oldest packet may start with an exit)
pairs=$(sed -E 's/.*syscall_entry_.*/E/; s/.*syscall_exit_.*/X/' "$TEST_TMP/lapped.txt" |
	tr -d '\n' | sed 's/^X//')
is "$pairs" "$(printf 'EX%.0s' $(seq "$n_lap"))" "... in a row, each entry with its exit"
ok_cmd "stop" lttctl stop ks
lttctl -q snapshot record -n stopped -s ks
snap stopped >/dev/null
is "$(cat "$TEST_TMP/stopped.txt")" "$(cat "$TEST_TMP/lapped.txt")" "a record after stop holds the same records"
is "$(lttctl list ks | sed -n 's/^ *discarded events: //p' | tr '\n' ' ')" "0 " \
	"nothing counted discarded: the ring's overwrites are a flight recorder's"
ok_cmd "destroy" lttctl destroy ks
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
is "$(ls "$tfs/instances" | grep -c "^ltt-$(sessiond_pid)-")" 0 "... removes its ftrace instance"

# Records between bursts of a few calls: each record's last read takes
# part of the kernel's current page; the next record's first read gives
# the rest of it, often less than half a page, with whole pages behind.
lttctl -q create bursts --snapshot -o "$TEST_TMP/bursts" &&
	lttctl -q enable-channel -k burstchan --subbuf-size 4k --num-subbuf 16 -s bursts &&
	lttctl -q enable-event -k --syscall getcpu -c burstchan -s bursts &&
	lttctl -q start bursts || { echo "Bail out! session bursts"; exit 1; }
total=0 short=""
for k in 3 5 7 11 13 17 19 23 29 31 37 41; do
	load "$k"
	total=$((total + k))
	lttctl -q snapshot record -n "b$k" -s bursts
	d=$(find "$TEST_TMP/bursts" -mindepth 1 -maxdepth 1 -type d -name "b$k-*" | head -1)
	n=$(timeout "$BT_TIMEOUT" babeltrace2 "$d/kernel" 2>/dev/null | grep -c ' syscall_exit_getcpu: ')
	[ "$n" = "$total" ] || short+=" b$k:$n/$total"
done
is "$short" "" "12 records between bursts of 3 to 41 calls: each holds every call made before it"
lttctl -q destroy bursts

# Its consumer killed: a snapshot trace is not taken over at once (it
# writes nothing but snapshots; LTTng's tools/health tests kill every
# consumer of a --no-output session and wait until none is left).  What
# the dead one's ring held went with it (doc/kernel-tracefs.md
# "Snapshots"); meanwhile the kernel's buffer (4 pages a CPU, discard
# mode) holds what fits of the next 3000 calls and drops the rest, which
# the consumer that takes the trace over at the stop counts: ftrace's
# "dropped events" are the channel's since it was made.
lttctl -q create died --snapshot -o "$TEST_TMP/died" &&
	lttctl -q enable-channel -k diedchan --discard --subbuf-size 4k --num-subbuf 4 -s died &&
	lttctl -q enable-event -k --syscall getcpu -c diedchan -s died &&
	lttctl -q add-context -k -t tid -c diedchan -s died &&
	lttctl -q start died || { echo "Bail out! session died"; exit 1; }
load 30
pids=$(pgrep -P "$(sessiond_pid)" -x ltt-consumerd)
kill -KILL $pids
for p in $pids; do wait_pid_exit "$p"; done
wait_for "$LOG" "session 'died': kernel trace [^ ]*: its consumer daemon died; it writes only snapshots"
ok $? "its consumer killed, the snapshot trace waits for a command that needs it, the log says" ||
	diag "$(grep -i consumer "$LOG" | tail -5)"
is "$(pgrep -P "$(sessiond_pid)" -x ltt-consumerd)" "" "... no consumer was started in its place"
load 3000
ok_cmd "stop after the consumer's death: a new one takes the trace over" lttctl stop died
ok_cmd "snapshot record" lttctl snapshot record -n after -s died
d=$(find "$TEST_TMP/died" -mindepth 1 -maxdepth 1 -type d -name 'after-*' | head -1)
run timeout "$BT_TIMEOUT" babeltrace2 "$d/kernel"
rec=$(grep -c "syscall_e[a-z]*_getcpu: .*{ tid = $TID }" <<<"$OUT")
disc=$(lttctl list died | sed -n 's/^ *discarded events: //p' | head -1)
ok "$([ "$rec" -gt 0 ] && [ $((rec + ${disc:-0})) = 6000 ]; echo $?)" \
	"... the snapshot holds what the kernel kept of the 6000 events ($rec), the rest counted discarded ($disc)"
lttctl -q destroy died

# Kernel and user space in one snapshot: DIR/kernel and DIR/ust.
lttctl -q create both --snapshot -o "$TEST_TMP/both" &&
	lttctl -q enable-event -k --syscall getcpu -s both &&
	lttctl -q add-context -k -t tid -s both &&
	lttctl -q enable-event -u ltt_test:seq -s both &&
	lttctl -q start both || { echo "Bail out! session both"; exit 1; }
load 40
ust_app -n 3 >/dev/null
ok_cmd "snapshot record of a session with kernel and user channels" lttctl snapshot record -s both
d=$(find "$TEST_TMP/both" -mindepth 1 -maxdepth 1 -type d | head -1)
is "$(ls "$d" | tr '\n' ' ')" "kernel ust " "... DIR/kernel and DIR/ust"
run timeout "$BT_TIMEOUT" babeltrace2 "$d"
is "$(grep -c "syscall_entry_getcpu: .*{ tid = $TID }" <<<"$OUT"):$(grep -c ' ltt_test:seq: ' <<<"$OUT")" "40:3" \
	"... read together: the 40 calls and the program's 3 events"

# A snapshot sent to a relay.
start_relayd -o "$TEST_TMP/relay" || { echo "Bail out! ltt-relayd did not start"; exit 1; }
ok_cmd "snapshot record to a net:// URL" \
	lttctl snapshot record -s both -n onrelay "net://127.0.0.1:$CPORT:$DPORT"
r=$(find "$TEST_TMP/relay" -mindepth 3 -maxdepth 3 -type d -name 'onrelay-*' | head -1)
run timeout "$BT_TIMEOUT" babeltrace2 "$r/kernel"
is "$RC:$(grep -c "syscall_entry_getcpu: .*{ tid = $TID }" <<<"$OUT")" "0:40" \
	"the relay wrote the snapshot: babeltrace2 reads its 40 calls"
lttctl -q destroy both
