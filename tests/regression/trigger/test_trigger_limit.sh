#!/bin/bash
# The number of triggers a user may have (ltt-sessiond
# --max-triggers-per-uid): each user's own budget, a refusal past it that
# adds nothing and says what to do, room again after a removal; the
# option's bad values refused before the daemon starts.  A kernel rule
# in a daemon without kernel tracing is refused with the reason.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"

test_init
plan 15

for bad in 0 4097 x; do
	run timeout "$TEST_TIMEOUT" "$SESSIOND" --rundir "$LTT_RUNDIR" --max-triggers-per-uid "$bad"
	like "$RC:$OUT" "^1:.*max-triggers-per-uid" "--max-triggers-per-uid $bad: refused, naming the option"
done
ok "$([ ! -e "$LTT_RUNDIR/sessiond.pid" ]; echo $?)" "no daemon was left running"

sessiond_or_bail "$LTT_RUNDIR" --no-kernel --max-triggers-per-uid 2

# add NAME OWNER: an event-rule trigger of OWNER that notifies
add() {
	run lttctl add-trigger --name "$1" --owner-uid "$2" --condition=event-rule-matches \
		--type=user --name=ltt_test:seq --action=notify
}
names() {
	lttctl --mi xml list-triggers | grep -o '<name>[a-z0-9]*</name>' | sed 's/<[/a-z]*>//g' |
		sort | tr '\n' ' '
}
add a 65534 && add b 65534
is "$RC" 0 "uid 65534 gets 2 triggers, as many as allowed"
add c 65534
like "$RC:$OUT" "^1:.*as many triggers as the session daemon allows.*remove one first" \
	"its third is refused: TRIGGER_LIMIT, with what to do"
is "$(names)" "a b " "the refusal added nothing"
add r1 0 && add r2 0 && add r3 0
is "$RC" 0 "root is not held to the per-user limit: 3 triggers"
ok_cmd "remove uid 65534's a" lttctl remove-trigger a
add c 65534
is "$RC" 0 "after a removal, uid 65534 has room again"
add d 65534
like "$RC:$OUT" "^1:.*as many triggers" "and is at its limit again"
is "$(names)" "b c r1 r2 r3 " "the daemon holds b, c, r1, r2 and r3"
# a daemon that does not trace the kernel says why a kernel rule is refused
run lttctl add-trigger --condition=event-rule-matches --type=kernel:syscall --name=getppid \
	--action=notify
like "$RC:$OUT" "^1:.*kernel tracing is disabled in this session daemon \(--no-kernel\)" \
	"a kernel event rule in a --no-kernel daemon: refused with KERNEL_DISABLED"
is "$(names)" "b c r1 r2 r3 " "and nothing added"
stop_sessiond
ok $? "the daemon stops"
