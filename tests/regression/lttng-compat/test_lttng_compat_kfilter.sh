#!/bin/bash
# test_lttng_compat_kfilter.sh - a kernel event rule whose filter no event
# of the rule type-checks against (a system call rule of getcpu filtered
# on a field 'a' it lacks): LTTng adds such a trigger, never matching.
# Debian's lttng gets that from ltt-sessiond --lttng-compat: added, listed
# as LTTng lists it (text and MI), never firing while an unfiltered
# trigger of the same calls fires for each; lttctl's add-trigger of the
# same rule keeps ltt's refusal (FILTER_KERNEL_TYPE), adding nothing;
# lttctl run as lttng adds it as LTTng does (ADD_TRIGGER's flag, client
# protocol 1.35), never firing either.
# Root, tracefs, in its own mount namespace (/var/run/lttng), as
# test_lttng_compat_triggers.sh.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_private_run "$0" "$@"
grep -qw tracefs /proc/filesystems || skip_all "needs a kernel with tracefs"
test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 18 --lttng-compat

lttng_client

# --- LTTng's spelling: added, listed as LTTng lists it
run lttng add-trigger --name kf --condition event-rule-matches --type=syscall \
	--filter 'a > 2' --name=getcpu --action notify
like "$RC:$STDOUT" "^0:Added trigger \`kf\`\\." \
	"lttng add-trigger of a syscall rule filtered on a field it lacks: added, as LTTng" ||
	diag "$OUT"
like "$(cat "$LOG")" "trigger 'kf' of uid 0: its kernel filter applies to none of its rule's events: added as LTTng adds it, never firing" \
	"... the daemon's log says it never fires"
run lttng list-triggers
like "$STDOUT" "- name: kf
  owner uid: 0
  condition: event rule matches
    rule: getcpu \\(type: kernel:syscall:entry\\+exit, filter: a > 2\\)
    errors: none
  actions:
    notify
      errors: none
  errors: none" "lttng list-triggers lists it as LTTng does" || diag "$OUT"
run lttng --mi xml list-triggers
like "$STDOUT" "<filter_expression>a &gt; 2</filter_expression>" "... and its MI, the filter included" ||
	diag "$OUT"

# --- lttctl's spelling: refused, nothing added
run lttctl add-trigger --name kf2 --condition event-rule-matches --type=kernel:syscall \
	--filter 'a > 2' --name=getcpu --action notify
like "$RC:$ERR" "^1:Error: .*the filter does not type-check against the kernel event's fields" \
	"lttctl add-trigger of the same rule is refused (FILTER_KERNEL_TYPE)"
run lttctl list-triggers
like "$STDOUT" "- name: kf" "lttctl lists kf"
unlike "$STDOUT" "kf2" "... and not kf2"

# --- lttctl by LTTng's name: LTTng's behaviour, over ltt's own protocol
mkdir -p "$TEST_TMP/bin" && ln -s "$LTTCTL_BIN" "$TEST_TMP/bin/lttng"
run "$TEST_TMP/bin/lttng" add-trigger --name kf3 --condition event-rule-matches --type=syscall \
	--filter 'a > 2' --name=getcpu --action notify
like "$RC:$STDOUT" "^0:Added trigger \`kf3\`\\." \
	"lttctl run as lttng adds the same rule, as LTTng" || diag "$OUT"
like "$(cat "$LOG")" "trigger 'kf3' of uid 0: its kernel filter applies to none of its rule's events: added as LTTng adds it, never firing" \
	"... the daemon's log says it never fires"
run lttctl list-triggers
like "$STDOUT" "- name: kf3
  owner uid: 0
  condition: event rule matches
    rule: getcpu \\(type: kernel:syscall:entry\\+exit, filter: a > 2\\)" "lttctl lists kf3" ||
	diag "$OUT"

# --- never firing: an unfiltered trigger of the same calls fires for each
run lttng add-trigger --name all --condition event-rule-matches --type=syscall:entry \
	--name=getcpu --action notify
like "$RC:$STDOUT" "^0:Added trigger \`all\`\\." "lttng adds an unfiltered trigger of getcpu's entries"
open_fifo W "$TEST_TMP/w"
lttctl wait-trigger all --count 5 --timeout "$TEST_TIMEOUT" >"$TEST_TMP/w.out" 2>&"$W" &
WAITER=$!
read_line "$W" && [[ $LINE == "Waiting for trigger "* ]]
ok $? "wait-trigger all is subscribed"
"$KLOAD" getcpu 5 >/dev/null
is $? 0 "a program made 5 getcpu calls"
wait $WAITER
is $? 0 "the unfiltered trigger notified 5 times"
is "$(trigger_count all fired)" 5 "it fired 5 times"
is "$(trigger_count kf fired)" 0 "kf, over the same calls, never fired"
is "$(trigger_count kf3 fired)" 0 "kf3, added by lttctl run as lttng, never fired"
