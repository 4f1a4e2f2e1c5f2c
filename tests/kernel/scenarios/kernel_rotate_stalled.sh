# kernel_rotate_stalled: the kernel consumer stops on a rotation's
# ROTATE_TRACE (its fault point); the daemon takes the move as done later,
# stop fails and destroy refuses while the consumer owes it; after SIGCONT
# destroy archives every chunk (test_kernel_stalled.sh).
N1=3000
N2=2000
result emitted $((N1 + N2))
result n2 $N2
# the consumer stops itself on its first ROTATE_TRACE once the file exists
export LTT_FAULT="stop ROTATE_TRACE $LTT_OUT/fault"
# --background keeps its log (and its consumer's) in sessiond.log
ltt-sessiond --background -v 2>>"$LTT_OUT/sessiond.log" || exit 1
trap stop_sessiond EXIT
capture create lttctl create krs -o "$LTT_OUT/trace" || exit 1
capture enable lttctl enable-event -k ltt_test_event || exit 1
capture start lttctl start || exit 1
echo $N1 >/proc/ltt-test || exit 1
cons=$(pidof ltt-consumerd)
: >"$LTT_OUT/fault"
# the daemon waits for the move's deadline (30 s), then takes it as done later
lttctl rotate krs >"$LTT_OUT/rotate" 2>&1
echo $? >"$LTT_OUT/rotate.rc"
grep -q '^State:[[:space:]]*T' "/proc/$cons/status"
result consumer_stopped $?
echo $N2 >/proc/ltt-test || exit 1
capture stop lttctl stop krs
capture destroy_stalled lttctl destroy krs
capture list_stalled lttctl list krs
kill -CONT $cons
# once it answers, the daemon has it do the flush the stop could not
i=0
until grep -q "session 'krs': kernel trace .*: written whole, the flush its stop owed done" \
	"$LTT_OUT/sessiond.log" || [ $i -ge 6000 ]; do
	usleep 10000
	i=$((i + 1))
done
result settled $([ $i -lt 6000 ]; echo $?)
capture list lttctl list krs
capture destroy lttctl destroy krs
stop_sessiond
