# kernel_lttng_test: lttng-test.ko, LTTng's test module's interface on
# ltt's tracer: loaded and removed by LTTng's name while the daemon runs,
# its event there only meanwhile (the daemon's catalog follows), its
# /proc/lttng-test-filter-event recording lttng_test_filter_event with
# lttng-modules' fields, which filters read as LTTng's do (network byte
# order converted; a bit array is no field of theirs), written by other
# users too (test_kernel_lttng_test.sh).
ltt-sessiond --background -v 2>>"$LTT_OUT/sessiond.log" || exit 1
trap stop_sessiond EXIT
capture list_before lttctl list -k
capture create_early lttctl create early -o "$LTT_OUT/early"
capture enable_early lttctl enable-event -k -s early lttng_test_filter_event
# a glob that takes the event once it is there, in a session already started
capture create_lazy lttctl create lazy -o "$LTT_OUT/lazy"
capture enable_lazy lttctl enable-event -k -s lazy 'lttng_test_*'
capture start_lazy lttctl start lazy
capture modprobe modprobe lttng-test
# the daemon follows the module's uevent on its own, no command asked
result lazy_followed "$(wait_for_line "$LTT_OUT/sessiond.log" \
	"a module came or went: the sessions' rules follow" && echo yes || echo no)"
capture emit_lazy sh -c 'echo -n 3 >/proc/lttng-test-filter-event'
capture stop_lazy lttctl stop lazy
capture modules cat /proc/modules
capture proc_mode stat -c %a /proc/lttng-test-filter-event
capture list_kf lttctl list -k -f

# session NAME RULE-OPTIONS...: a session recording one kernel rule
session() {
	local s=$1
	shift
	capture create_$s lttctl create $s -o "$LTT_OUT/$s" &&
		capture enable_$s lttctl enable-event -k -s $s lttng_test_filter_event "$@"
}
session all
session net --filter 'netintfield == 7 || netintfieldhex == 8'
session arr --filter 'arrfield3[1] == 2 && seqfield3[2] == 3 && intfield < 4'
session str --filter 'stringfield == "test" && arrfield2 == "te*" && seqfield2 == "test" && intfield >= 9'
session neg --filter 'signedfield == -1 && intfield2 == 5 && longfield == 5'
session bits --filter 'bitfield_array[0] == 1 || intfield == 3'
capture create_glob lttctl create glob -o "$LTT_OUT/glob" &&
	capture enable_glob lttctl enable-event -k -s glob 'lttng_test_fil*'
for s in all net arr str neg bits glob; do
	lttctl -q start $s || result start_failed $s
done
capture emit sh -c 'echo -n 10 >/proc/lttng-test-filter-event'
capture emit_user as_user tracer sh -c 'echo 2 >/proc/lttng-test-filter-event'
capture emit_bad sh -c 'echo -n ten >/proc/lttng-test-filter-event'
capture emit_big sh -c 'echo -n 4000000000 >/proc/lttng-test-filter-event'
for s in all net arr str neg bits glob; do
	lttctl -q stop $s || result stop_failed $s
	lttctl -q destroy $s || result destroy_failed $s
done
capture rmmod modprobe --remove lttng-test
capture modules_after cat /proc/modules
result proc_gone "$([ -e /proc/lttng-test-filter-event ] && echo no || echo yes)"
capture list_after lttctl list -k
