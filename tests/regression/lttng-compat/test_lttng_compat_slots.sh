#!/bin/bash
# test_lttng_compat_slots.sh - ltt-sessiond --event-notifier-error-buffer-size-userspace
# (and -kernel), LTTng's options: the error counter slots of a domain,
# one an event-rule-matches trigger, so at most that many such triggers
# of user space (its agents' domains too), all users together, as LTTng
# 2.13's daemon (tools/notification/test_notification_notifier_discarded_count's
# max_bucket test): with 3, Debian's lttng adds three and the fourth and
# fifth are refused with LTTng's EVENT_NOTIFIER_ERROR_ACCOUNTING_FULL,
# lttctl's with ltt's sentence; a trigger of another condition takes no
# slot; a removed trigger gives its slot back; a value out of LTTng's
# range (1 to 65534) is refused at start.  As root in its own mount
# namespace (/var/run/lttng), as test_lttng_compat.sh.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run "$0" "$@"
ust_setup --log --lttng-compat --event-notifier-error-buffer-size-userspace=3
plan 18

lttng_client

# add NAME [DOMAIN]: lttng add-trigger of an event rule NAME matches
add() {
	run lttng add-trigger --name "$1" --condition event-rule-matches --type="${2:-user}" \
		--name="never_$1" --action notify
}

for i in 1 2 3; do
	add "t$i"
	ok $RC "lttng add-trigger t$i: slot $i of 3" || diag "$OUT"
done
for i in 4 5; do
	add "t$i"
	like "$RC:$OUT" "^[1-9][0-9]*:.*No index available in event notifier error accounting" \
		"lttng add-trigger t$i: refused, LTTng's EVENT_NOTIFIER_ERROR_ACCOUNTING_FULL"
done
is "$(lttng list-triggers | grep -c '^- name: ')" 3 "lttng list-triggers: the three triggers only"
run lttctl add-trigger --name l4 --condition event-rule-matches --type=user --name='never_l4' --action notify
like "$RC:$ERR" "^1:Error: .*error counter slots for .*--event-notifier-error-buffer-size-userspace" \
	"lttctl add-trigger, a fourth: refused, ltt's sentence names the option"
run lttng add-trigger --name agent4 --condition event-rule-matches --type=python \
	--name=never_agent4 --action notify
like "$RC:$OUT" "^[1-9][0-9]*:.*No index available" "... a python logging rule too (user space's slots)"
lttctl create s1 -o "$TEST_TMP/s1" >/dev/null
# (LTTng 2.13's lttng adds event-rule-matches triggers only)
run lttctl add-trigger --name size --condition=session-consumed-size-ge --session=s1 \
	--threshold-size=1M --action=notify
ok $RC "a trigger of another condition (session consumed size): no slot taken" || diag "$OUT"
run lttng remove-trigger t2
ok $RC "lttng remove-trigger t2"
add t6
ok $RC "lttng add-trigger t6: t2's slot, given back" || diag "$OUT"
add t7
like "$RC:$OUT" "^[1-9][0-9]*:.*No index available" "... and no other"
is "$(lttctl list-triggers | grep -c '^- name: ')" 4 "lttctl list-triggers: t1, t3, t6 and size"

# --- LTTng's range, refused at start
for v in 0 65535 x; do
	run timeout "$TEST_TIMEOUT" "$SESSIOND" --rundir "$TEST_TMP/bad-$v" \
		--event-notifier-error-buffer-size-userspace="$v"
	like "$RC:$ERR" "^1:.*--event-notifier-error-buffer-size-userspace=$v: give a number from 1 to 65534" \
		"--event-notifier-error-buffer-size-userspace=$v: refused, the daemon does not start"
done
run timeout "$TEST_TIMEOUT" "$SESSIOND" --rundir "$TEST_TMP/bad-k" \
	--event-notifier-error-buffer-size-kernel=65535
like "$RC:$ERR" "^1:.*--event-notifier-error-buffer-size-kernel=65535: give a number from 1 to 65534" \
	"--event-notifier-error-buffer-size-kernel=65535: refused the same way"
run env LTT_SESSIOND_EVENT_NOTIFIER_ERROR_BUFFER_SIZE_USERSPACE=x timeout "$TEST_TIMEOUT" \
	"$SESSIOND" --rundir "$TEST_TMP/bad-env"
like "$RC:$ERR" "^1:.*LTT_SESSIOND_EVENT_NOTIFIER_ERROR_BUFFER_SIZE_USERSPACE=x: give a number from 1 to 65534" \
	"its variable, LTT_SESSIOND_EVENT_NOTIFIER_ERROR_BUFFER_SIZE_USERSPACE=x: refused the same way"
