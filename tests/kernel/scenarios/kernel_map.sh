# kernel_map: kernel map channels through the tracefs backend, counted by
# the kernel's histogram triggers (test_kernel_map.sh).  A map with two
# counting triggers on getppid: every system call event under its name
# ({event_name}), and the entries of a filter ftrace says exactly
# ($ctx.tid > 1) under one key; one whose filter it can't say, refused.
# N getppid() calls counted while started, none while stopped, clear
# back to 0, counting again; save; the instance gone after destroy; load
# brings the map and its triggers back, counting afresh.  (With ltt's
# module as the backend: kernel_map_module.)
N=200
result n $N
start_sessiond --kernel-backend=tracefs || exit 1
result hist "$(ls /sys/kernel/tracing/events/syscalls/sys_enter_getppid/hist 2>/dev/null | wc -l)"
capture create lttctl create km --no-output || exit 1
capture add_map lttctl add-map-channel --type=kernel -s km calls || exit 1
# counting TRIGGER MAP KEY NAME [ARGS...]: a trigger counting the system
# call(s) NAME in MAP of session km (its output under add_TRIGGER)
counting() {
	local t=$1 map=$2 key=$3 name=$4
	shift 4
	capture "add_$t" lttctl add-trigger --name "$t" --condition=event-rule-matches \
		--type=kernel:syscall --name="$name" "$@" --action=incr-map-value -s km \
		--map "$map" --key "$key"
}
counting all calls '{event_name}' getppid
counting tid calls tid_over_1 getppid --filter '$ctx.tid > 1'
counting again calls again getppid
counting twice calls '{event_name}' getppid
counting inexact calls never getppid --filter '$ctx.tid == $ctx.cpu_id'
capture add_every_map lttctl add-map-channel --type=kernel -s km every
counting every every '{event_name}' 'get*'
counting openat every '{event_name}' openat
capture triggers lttctl list-triggers
result instances "$(ls /sys/kernel/tracing/instances | grep -c '^ltt-')"
cat /sys/kernel/tracing/instances/ltt-*/events/syscalls/sys_enter_getppid/trigger \
	>"$LTT_OUT/hist_triggers" 2>&1
capture start lttctl start km
capture calls kworkload getppid $N
capture files kworkload files /tmp/ltt-map-openat
capture show lttctl show-maps -s km
capture export lttctl export-maps -s km
capture stop lttctl stop km
capture calls_stopped kworkload getppid 50
capture export_stopped lttctl export-maps -s km
capture show_stopped lttctl show-maps -s km
capture clear lttctl clear km
capture export_cleared lttctl export-maps -s km
capture start2 lttctl start km
capture calls2 kworkload getppid 30
capture export2 lttctl export-maps -s km
capture save lttctl save -o "$LTT_OUT/saved.ltt" km
capture destroy lttctl destroy km
result instances_left "$(ls /sys/kernel/tracing/instances | grep -c '^ltt-')"
capture remove lttctl remove-trigger all
capture remove2 lttctl remove-trigger tid
capture remove5 lttctl remove-trigger again
capture remove3 lttctl remove-trigger every
capture remove4 lttctl remove-trigger openat
capture load lttctl load -i "$LTT_OUT/saved.ltt"
capture calls3 kworkload getppid 10
capture export3 lttctl export-maps -s km
capture destroy2 lttctl destroy km
stop_sessiond
# the daemon that reads clients dropped to nobody: every MAP operation
# through the privileged part
start_sessiond --kernel-backend=tracefs --privsep-user=nobody || exit 1
capture pcreate lttctl create kp --no-output
capture padd lttctl add-map-channel --type=kernel -s kp calls
capture ptrigger lttctl add-trigger --name pv --condition=event-rule-matches \
	--type=kernel:syscall --name=getppid --action=incr-map-value -s kp --map calls \
	--key '{event_name}'
capture pstart lttctl start kp
capture pcalls kworkload getppid 40
capture pexport lttctl export-maps -s kp
# a second counter of getppid under another key joins pv's histogram
# trigger: it counts from then on, not the 40 calls before it
capture ptrigger2 lttctl add-trigger --name pv2 --condition=event-rule-matches \
	--type=kernel:syscall --name=getppid --action=incr-map-value -s kp --map calls \
	--key late
capture pcalls2 kworkload getppid 25
capture pexport2 lttctl export-maps -s kp
capture pdestroy lttctl destroy kp
capture premove lttctl remove-trigger pv
capture premove2 lttctl remove-trigger pv2
result pinstances_left "$(ls /sys/kernel/tracing/instances | grep -c '^ltt-')"
stop_sessiond
