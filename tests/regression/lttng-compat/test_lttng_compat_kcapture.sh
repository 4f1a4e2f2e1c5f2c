#!/bin/bash
# test_lttng_compat_kcapture.sh - a kernel trigger's capture of an array
# field whole (kernel-notify.c, through tracefs): raw_syscalls:sys_enter's
# `unsigned long args[6]` of kload's getppid calls given six arguments
# (1, 22, 333, 4444, 55555, -2), filtered on the call's number and two
# elements, arrives as an array of its six elements, as a user-space one
# does (doc/triggers.md, "Captures"):
#  - lttctl wait-trigger prints args=[1, 22, ...], its MI an <elements>
#    list, an element (args[5]) and the call's number (id) beside it;
#  - a C program linked to Debian's liblttng-ctl (lttng_notif_client.c,
#    on LTTng's notification channel of ltt-sessiond --lttng-compat) gets
#    LTTng's MessagePack array of the six, the element and the number.
# Root, tracefs, in its own mount namespace (/var/run/lttng), as
# test_lttng_compat_kfilter.sh.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run "$0" "$@"
grep -qw tracefs /proc/filesystems || skip_all "needs a kernel with tracefs"
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
[ -r "$tfs/events/raw_syscalls/sys_enter/format" ] ||
	skip_all "tracefs has no raw_syscalls:sys_enter (the array field this test captures)"
test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 12 --lttng-compat

N=20
# the six arguments kload gives each call, as unsigned longs
ARGS="1, 22, 333, 4444, 55555, 18446744073709551614"
# getppid's number: the kernel's own filter takes id (not an element), so
# the buffer sees getppid's calls alone, not every system call's
read -r _ _ _ nr < <("$KLOAD" args 0)
FILTER="id == ${nr:-0} && args[3] == 4444 && args[4] == 55555"

# --- lttctl: text and MI
ok_cmd "a trigger on raw_syscalls_sys_enter capturing args whole, args[5] and id" \
	lttctl add-trigger --name ka --condition=event-rule-matches --type=kernel:tracepoint \
	--name=raw_syscalls_sys_enter --filter="$FILTER" --capture=args --capture='args[5]' \
	--capture=id --capture=nosuch --action=notify
start_waiter ka ka
ok $? "wait-trigger ka is subscribed"
AWAITER=$WAITER
start_waiter kmi ka --mi xml
ok $? "wait-trigger --mi xml ka is subscribed"
read -r _ tid _ nr < <("$KLOAD" args $N)
wait $AWAITER
is $? 0 "kload's calls notified (tid ${tid:-none}, getppid ${nr:-none})"
is "$(cat "$TEST_TMP/ka.out")" \
	"Trigger ka fired (#1): event raw_syscalls_sys_enter, pid $tid; captures: args=[$ARGS], args[5]=18446744073709551614, id=$nr, nosuch=unavailable" \
	"the array's six elements, unsigned as the field; its element and id beside it"
wait $WAITER
elements=$(tr -d '\n\t ' <"$TEST_TMP/kmi.out" | grep -o '<elements>.*</elements>')
is "$(grep -o '<value>[0-9-]*</value>' <<<"$elements" | sed 's/<[^>]*>//g' | paste -sd, -)" \
	"$(tr -d ' ' <<<"$ARGS")" "its MI lists the six elements" || diag "$(cat "$TEST_TMP/kmi.out")"
deadline=$((SECONDS + TEST_TIMEOUT))
until [ "$(($(trigger_count ka fired) + $(trigger_count ka dropped)))" -ge $N ] ||
	[ $SECONDS -ge $deadline ]; do :; done
is "$(trigger_count ka fired):$(trigger_count ka dropped)" "$N:0" "fired once a call ($N), none dropped"
lttctl -q remove-trigger ka

# --- Debian's liblttng-ctl on LTTng's notification channel
CLIENT="$TEST_TMP/lttng_notif_client"
cc -o "$CLIENT" "$LTT_TOP_SRCDIR/tests/regression/lttng-compat/lttng_notif_client.c" \
	-llttng-ctl 2>"$TEST_TMP/client-cc.err"
ok $? "the notification client builds against Debian's liblttng-ctl" ||
	diag "$(cat "$TEST_TMP/client-cc.err")"
mkfifo "$TEST_TMP/kc.ready"
timeout "$TEST_TIMEOUT" "$CLIENT" kernel "$TEST_TMP/kc.ready" kc raw_syscalls_sys_enter "$FILTER" \
	args 'args[5]' id >"$TEST_TMP/kc.out" 2>"$TEST_TMP/kc.err" &
CLIENT_PID=$!
read -r -t "$TEST_TIMEOUT" line <"$TEST_TMP/kc.ready"
is "$line" ready "the client registered a kernel trigger capturing args, args[5], id and subscribed" ||
	diag "$(cat "$TEST_TMP/kc.err")"
read -r _ tid _ nr < <("$KLOAD" args 1)
wait $CLIENT_PID
is $? 0 "the client received a notification" || diag "$(cat "$TEST_TMP/kc.err")"
is "$(cat "$TEST_TMP/kc.out")" "trigger kc captures [ $ARGS ] 18446744073709551614 $nr" \
	"LTTng's array of the six elements, the element and the number, as liblttng-ctl reads them"
