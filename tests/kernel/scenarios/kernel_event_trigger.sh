# kernel_event_trigger: a kernel event rule of a trigger while the module
# records (test_kernel_triggers.sh): ftrace evaluates it through tracefs
# beside the module.  A rule on sched_process_exec of kworkload, its
# filename captured; N execs of it, and one of another program: fired N
# times, none dropped; a session of the module records meanwhile.
N=20
result n $N
ltt-sessiond --background -vv 2>>"$LTT_OUT/sessiond.log" || exit 1
trap stop_sessiond EXIT
capture create lttctl create kr -o "$LTT_OUT/kr" || exit 1
capture enable lttctl enable-event -k ltt_test_event || exit 1
capture start lttctl start || exit 1
capture add lttctl add-trigger --name ke --condition=event-rule-matches \
	--type=kernel:tracepoint --name=sched_process_exec --filter='filename == "*/kworkload"' \
	--capture=filename --capture=tid --action=notify || exit 1
lttctl wait-trigger ke --timeout 60 >"$LTT_OUT/wait" 2>"$LTT_OUT/wait.err" &
waiter=$!
wait_for_text "$LTT_OUT/wait.err" "Waiting for trigger" || result not_subscribed 1
hello >/dev/null 2>&1	# another program: not taken
i=0
while [ $i -lt $N ]; do
	kworkload exit 0
	i=$((i + 1))
done
echo 100 >/proc/ltt-test
wait $waiter
result wait.rc $?
# every record read: until the trigger counts N (bounded, 30 s)
i=0
until lttctl list-triggers --counters | grep -Eq "^  fired: $N times?,"; do
	[ $i -ge 3000 ] && break
	usleep 10000
	i=$((i + 1))
done
capture triggers lttctl list-triggers --counters
capture triggers_mi lttctl --mi xml list-triggers
capture stop lttctl stop
capture list lttctl list kr
capture remove lttctl remove-trigger ke
ls /sys/kernel/tracing/instances | grep -c '^ltt-' >"$LTT_OUT/instances_left" || :
