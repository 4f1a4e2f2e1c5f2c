#!/bin/bash
# test_ust_env_dates.sh - a user-space trace's metadata env gives its
# dates as LTTng's does, so a reader rebuilds the trace's path from the
# env alone (LTTng's tools/metadata test does): trace_creation_datetime
# in ISO 8601's basic form ("20240501T120000+0200"), whose date and time
# are the session directory's "NAME-20240501-120000"; and, per PID,
# vpid_datetime, the date in the program's directory name
# "PROCNAME-VPID-DATE".  (Before, the creation date was in the extended
# form, "2024-05-01T12:00:00+0200", and a per-PID trace had no
# vpid_datetime: neither path could be rebuilt.)

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 14

N=20
# env_value FILE KEY: the value of "KEY = VALUE;" in the env block, unquoted.
env_value() {
	sed -n "/^env {/,/^};/s/^	$2 = \"\{0,1\}\([^\";]*\)\"\{0,1\};\$/\1/p" "$1"
}
# dir_date ISO: the directory form of an env date: 20240501T120000+0200 -> 20240501-120000.
dir_date() {
	local d=${1/T/-}
	echo "${d:0:-5}"
}
ISO_RE='^[0-9]{8}T[0-9]{6}[-+][0-9]{4}$'

# Per UID, in the default output: HOME/ltt-traces/NAME-DATE/ust/uid/UID/BITS-bit.
ok_cmd "create per-uid (default output)" lttctl create peruid
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "start" lttctl start
(close_fifos; exec timeout "$TEST_TIMEOUT" "$UST_APP" -n $N -r u)
ok_cmd "destroy" lttctl destroy peruid

meta=("$HOME"/ltt-traces/peruid-*/ust/uid/*/*-bit/metadata)
babeltrace2 --output-format=ctf-metadata "$(dirname "${meta[0]}")" >"$TEST_TMP/uid.tsdl" 2>&1
created=$(env_value "$TEST_TMP/uid.tsdl" trace_creation_datetime)
[[ $created =~ $ISO_RE ]]
ok $? "trace_creation_datetime is ISO 8601's basic form ($created)"
path="$HOME/ltt-traces/$(env_value "$TEST_TMP/uid.tsdl" trace_name)-$(dir_date "$created")"
path+="/$(env_value "$TEST_TMP/uid.tsdl" domain)/$(env_value "$TEST_TMP/uid.tsdl" tracer_buffering_scheme)"
path+="/$(env_value "$TEST_TMP/uid.tsdl" tracer_buffering_id)/$(env_value "$TEST_TMP/uid.tsdl" architecture_bit_width)-bit"
test -f "$path/metadata"
ok $? "the per-UID path rebuilt from the env is the trace's ($path)" || diag "wrote: ${meta[*]}"

# Per PID: ust/pid/PROCNAME-VPID-DATE.
ok_cmd "create per-pid" lttctl create perpid -o "$TEST_TMP/pid"
ok_cmd "per-PID channel" lttctl enable-channel -u channel0 --buffers-pid
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq -c channel0
ok_cmd "start" lttctl start
(close_fifos; exec timeout "$TEST_TIMEOUT" "$UST_APP" -n $N -r p)
ok_cmd "stop" lttctl stop

dirs=("$TEST_TMP"/pid/ust/pid/*)
babeltrace2 --output-format=ctf-metadata "${dirs[0]}" >"$TEST_TMP/pid.tsdl" 2>&1
registered=$(env_value "$TEST_TMP/pid.tsdl" vpid_datetime)
[[ $registered =~ $ISO_RE ]]
ok $? "vpid_datetime is there, in ISO 8601's basic form ($registered)"
path="$TEST_TMP/pid/$(env_value "$TEST_TMP/pid.tsdl" domain)/$(env_value "$TEST_TMP/pid.tsdl" tracer_buffering_scheme)"
path+="/$(env_value "$TEST_TMP/pid.tsdl" procname)-$(env_value "$TEST_TMP/pid.tsdl" tracer_buffering_id)-$(dir_date "$registered")"
test -f "$path/metadata"
ok $? "the per-PID path rebuilt from the env is the trace's (${path#"$TEST_TMP"/})" ||
	diag "wrote: ${dirs[*]}"
bt "$TEST_TMP/pid" "$TEST_TMP/pid.txt"
is "$(count_events "$TEST_TMP/pid.txt" ltt_test:seq)" $N "babeltrace2 reads its $N events"

term_sessiond
done_testing
