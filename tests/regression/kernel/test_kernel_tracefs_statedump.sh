#!/bin/bash
# test_kernel_tracefs_statedump.sh - the state dump through tracefs,
# natively (no VM): a root daemon started with --kernel-backend=tracefs
# records the module's lttng_statedump_start, one
# lttng_statedump_process_state per thread, lttng_statedump_end at start, and
# again at `regenerate statedump`, into the channels that enabled them.
# A helper with a known name and thread count is found whole; the dump
# covers every thread /proc showed around the start; a session without
# the events gets none, one with process_state only gets no start/end.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

test_init
if [ "$(id -u)" != 0 ] || ! grep -qw tracefs /proc/filesystems; then
	skip_all "needs root and a kernel with tracefs"
fi
plan 26
kernel_lock

LOG="$TEST_TMP/sessiond.log"
timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -vv \
	--kernel-backend=tracefs </dev/null >/dev/null 2>"$LOG"
ok $? "a root daemon with --kernel-backend=tracefs started"
KLOAD="$LTT_TOP_BUILDDIR/tests/regression/kload"
[ -x "$KLOAD" ] || { echo "Bail out! $KLOAD not built"; exit 1; }

run lttctl list -k
is "$(grep -cE '^    lttng_statedump_(start|process_state|end) \(type: tracepoint\)$' <<<"$OUT")" 3 \
	"list -k: the three state dump events"

# The helper: N threads besides its main one, named sdhelper, alive
# until its stdin closes; it says its pid and tids once all run.
N=4
coproc KL { exec "$KLOAD" threads "$N" sdhelper; }
coproc_hold KL kl_out kl_in
read -r -t "$TEST_TIMEOUT" -u "$kl_out" line
hpid=$(sed -n 's/^pid \([0-9]*\) tids .*/\1/p' <<<"$line")
htids=$(sed -n 's/^pid [0-9]* tids //p' <<<"$line" | tr ' ' '\n' | sort -n)
hppid=$(awk '{ print $4 }' "/proc/$hpid/stat" 2>/dev/null)
is "$(wc -w <<<"$htids")" $((N + 1)) "the helper runs $((N + 1)) threads (pid ${hpid:-none})"

# s: the state dump and getppid; p: process_state only; g: getppid only.
for x in s p g; do
	lttctl -q create "$x" -o "$TEST_TMP/$x"
done
ok_cmd "enable-event -k 'lttng_statedump_*'" lttctl enable-event -k 'lttng_statedump_*' -s s
lttctl -q enable-event -k --syscall getppid -s s
lttctl -q enable-event -k lttng_statedump_process_state -s p
lttctl -q enable-event -k --syscall getppid -s g
lttctl -q start g

# Every thread of /proc as "pid tid", one a line, sorted.
threads() {
	local t
	for t in /proc/[0-9]*/task/[0-9]*; do
		t=${t#/proc/}
		echo "${t%%/*} ${t##*/}"
	done | sort
}
threads >"$TEST_TMP/before"
ok_cmd "start s" lttctl start s
threads >"$TEST_TMP/after"
lttctl -q start p
"$KLOAD" getppid 10 >/dev/null
ok_cmd "regenerate statedump -s s" lttctl regenerate statedump -s s
for x in s p g; do
	lttctl -q stop "$x"
done
exec {kl_in}>&-	# the helper's stdin ends: it exits
wait_pid_exit "$hpid"

bt() {
	timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/$1" >"$TEST_TMP/$1.txt" 2>"$TEST_TMP/$1.err"
}
bt s
is "$?" 0 "babeltrace2 reads the trace of s"
# s's state dump lines, in time order: S (start), P (process_state), E (end)
order=$(grep -oE " lttng_statedump_(start|process_state|end):" "$TEST_TMP/s.txt" |
	sed 's/.*_start:/S/; s/.*_process_state:/P/; s/.*_end:/E/' | tr -d '\n' | tr -s P)
is "$order" "SPESPE" \
	"two state dumps (start, regenerate), each start, process states, end in time order"

# The first dump's process_state records as "pid tid ppid name", sorted.
dump() {
	awk -v n="$1" '/ lttng_statedump_start:/ { d++ } d == n && / lttng_statedump_process_state:/' \
		"$TEST_TMP/s.txt" |
		sed -E 's/.*\{ tid = ([0-9]+), pid = ([0-9]+), ppid = ([0-9]+), name = "([^"]*)" \}$/\2 \1 \3 \4/' |
		sort
}
dump 1 >"$TEST_TMP/dump1"
dump 2 >"$TEST_TMP/dump2"
is "$(grep -c "^$hpid " "$TEST_TMP/dump1")" $((N + 1)) \
	"the helper's pid has exactly $((N + 1)) process states in the first dump"
is "$(awk -v p="$hpid" '$1 == p { print $2 }' "$TEST_TMP/dump1" | sort -n)" "$htids" \
	"... one per thread: its tids"
is "$(awk -v p="$hpid" '$1 == p { print $3 " " $4 }' "$TEST_TMP/dump1" | sort -u)" "$hppid sdhelper" \
	"... each with its parent's pid ($hppid) and its name (sdhelper)"
is "$(grep -c "^$hpid " "$TEST_TMP/dump2")" $((N + 1)) "the helper again whole in the second dump"
is "$(awk '{ print $2 }' "$TEST_TMP/dump1" | sort | uniq -d | wc -l)" 0 \
	"no thread twice in one dump"

# Around the start, /proc showed BEFORE and AFTER: the threads in both
# lived through the dump and are each in it; the dump holds no more than
# the threads in either, plus those born and gone between the listings
# (born after BEFORE, gone before AFTER: a busy machine makes a few).
both=$(comm -12 "$TEST_TMP/before" "$TEST_TMP/after" | wc -l)
either=$(sort -u "$TEST_TMP/before" "$TEST_TMP/after" | wc -l)
cut -d' ' -f1,2 "$TEST_TMP/dump1" | sort >"$TEST_TMP/dump1.ids"
missing=$(comm -23 <(comm -12 "$TEST_TMP/before" "$TEST_TMP/after") "$TEST_TMP/dump1.ids" | wc -l)
transient=$(comm -13 <(sort -u "$TEST_TMP/before" "$TEST_TMP/after") "$TEST_TMP/dump1.ids")
transient_alive=$(while read -r p t; do [ -e "/proc/$p/task/$t" ] && echo "$p $t"; done <<<"$transient")
total=$(wc -l <"$TEST_TMP/dump1")
diag "threads: $both in both listings, $either in either; first dump: $total process states"
is "$missing" 0 "every thread alive before and after the start is in the dump ($both)"
ok "$([ "$total" -ge "$both" ] && [ "$total" -le $((either + $(grep -c . <<<"$transient"))) ]; echo $?)" \
	"the dump's $total process states: between the threads of both listings ($both) and of either ($either) plus those born and gone in between ($(grep -c . <<<"$transient"))"
is "$transient_alive" "" "the threads in the dump that neither listing showed are gone"
ok "$([ "$(grep -c . <<<"$transient")" -le $((either / 10)) ]; echo $?)" \
	"... and they are few ($(grep -c . <<<"$transient") of $total)"
is "$(awk '$1 == 1 && $2 == 1 { print $3 }' "$TEST_TMP/dump1")" 0 "init's ppid is 0"
like "$(cat "$LOG")" "state dump: [0-9]+ records into 1 channels in [0-9]+ us" \
	"the daemon logs each dump, its records and how long it took"
diag "$(grep -o 'state dump: .*' "$LOG" | head -2 | tr '\n' ';')"

bt p
is "$?" 0 "babeltrace2 reads the trace of p (process_state only)"
is "$(grep -cE " lttng_statedump_(start|end):" "$TEST_TMP/p.txt")" 0 "p: no start, no end"
is "$(grep -c " lttng_statedump_process_state: .*pid = $hpid," "$TEST_TMP/p.txt")" $((N + 1)) \
	"p: its own dump at its start, the helper whole; s's regenerate added none"
bt g
is "$(grep -c " lttng_statedump_" "$TEST_TMP/g.txt")" 0 "g (getppid only): no state dump event"
ok "$([ "$(grep -c " syscall_exit_getppid:" "$TEST_TMP/g.txt")" -ge 10 ]; echo $?)" \
	"g: its getppid calls recorded all the same"

run lttctl list s
like "$OUT" "discarded events: 0" "list s: nothing discarded"
run lttctl regenerate statedump -s s
like "$RC:$ERR" "^1:.*not started" "regenerate statedump of a stopped session: refused, saying why"
