# ust_clock_step: a user-space session keeps its time line while the
# system's realtime clock steps (date -s, as an NTP step or an operator
# does): the example program runs three times, with a step of an hour
# forward, then two back, between the runs; with --clock=monotonic, then
# the default (test_vm_clock.sh reads the traces on the host).
# The guest's clock is stepped back to about where it was at the end;
# its uptime (which no step moves) says how long the session ran.

# step SECONDS: move the realtime clock by SECONDS (negative: back).
step() {
	local now
	now=$(date +%s) || return 1
	date -s "@$((now + $1))" >/dev/null
}

# run_hello KEY: the example program, 3 loops; its pid into KEY.pid.
run_hello() {
	hello 3 >"$LTT_OUT/$1" 2>&1 &
	result "$1.pid" $!
	wait $!
	echo $? >"$LTT_OUT/$1.rc"
}

result clocksource "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
for clock in monotonic auto; do
	start_sessiond -v --clock=$clock || exit 1
	result ${clock}_before "$(date +%s)"
	result ${clock}_up0 "$(cut -d' ' -f1 /proc/uptime)"
	capture ${clock}_create lttctl create step_$clock -o "$LTT_OUT/$clock" || exit 1
	capture ${clock}_enable lttctl enable-event -u 'hello_world:*' || exit 1
	capture ${clock}_context lttctl add-context -u -t vpid || exit 1
	capture ${clock}_start lttctl start || exit 1
	run_hello ${clock}_run1
	step 3600 || exit 1
	result ${clock}_stepped_forward "$(date +%s)"
	run_hello ${clock}_run2
	step -7200 || exit 1
	result ${clock}_stepped_back "$(date +%s)"
	run_hello ${clock}_run3
	step 3600 || exit 1
	result ${clock}_up1 "$(cut -d' ' -f1 /proc/uptime)"
	capture ${clock}_stop lttctl stop || exit 1
	capture ${clock}_destroy lttctl destroy step_$clock
	stop_sessiond
done
