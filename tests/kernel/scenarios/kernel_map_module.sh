# kernel_map_module: ltt's module as the kernel backend
# (test_kernel_map_module.sh).  A kernel map channel counted by the
# module's probes (kernel ABI 1.9 MAP): getppid's system call events
# under their names ({event_name}) and the entries of a filter the module
# runs ($ctx.vtid > 1) under one key; the same event under the same key
# again, refused; N calls counted while started, none while stopped,
# clear back to 0, counting again.  Then list --mem-usage of a kernel
# channel: the module's count of each CPU buffer (CHANNEL_MEM), beside
# the kernel's /proc/vmallocinfo.  The same through the privileged part
# (a daemon dropped to nobody, --privsep-user).
N=200
result n $N
start_sessiond --kernel-backend=module || exit 1
capture create lttctl create mm --no-output || exit 1
capture add_map lttctl add-map-channel --type=kernel -s mm calls || exit 1
# counting TRIGGER KEY NAME [ARGS...]: a trigger counting the system
# call(s) NAME in map calls of session mm (its output under add_TRIGGER)
counting() {
	local t=$1 key=$2 name=$3
	shift 3
	capture "add_$t" lttctl add-trigger --name "$t" --condition=event-rule-matches \
		--type=kernel:syscall --name="$name" "$@" --action=incr-map-value -s mm \
		--map calls --key "$key"
}
counting all '{event_name}' getppid
counting tid tid_over_1 getppid --filter '$ctx.vtid > 1'
counting twice '{event_name}' getppid
capture start lttctl start mm
capture calls kworkload getppid $N
capture show lttctl show-maps -s mm
capture export lttctl export-maps -s mm
capture stop lttctl stop mm
capture calls_stopped kworkload getppid 50
capture export_stopped lttctl export-maps -s mm
capture clear lttctl clear mm
capture export_cleared lttctl export-maps -s mm
capture start2 lttctl start mm
capture calls2 kworkload getppid 30
capture export2 lttctl export-maps -s mm
capture destroy lttctl destroy mm
capture remove lttctl remove-trigger all
capture remove2 lttctl remove-trigger tid
# the memory of a kernel channel's buffers, as the module counts it
capture mcreate lttctl create mem -o "$LTT_OUT/mem-trace" || exit 1
capture mchan lttctl enable-channel -k kch --subbuf-size 64k --num-subbuf 4 || exit 1
capture menable lttctl enable-event -k ltt_test_event -c kch || exit 1
capture mstart lttctl start mem || exit 1
capture mem lttctl list mem --mem-usage=full
capture mem_mi lttctl --mi xml list mem --mem-usage=full
# the kernel's own list of the module's vmap()ed data areas, one a CPU
grep '\[ltt_tracer\]' /proc/vmallocinfo | grep ' vmap' >"$LTT_OUT/vmallocinfo"
result cpus "$(grep -c '^processor' /proc/cpuinfo)"
capture mdestroy lttctl destroy mem
capture premove lttctl remove-trigger twice
stop_sessiond
# every MAP and CHANNEL_MEM operation through the privileged part
start_sessiond --kernel-backend=module --privsep-user=nobody || exit 1
capture pcreate lttctl create kp -o "$LTT_OUT/kp-trace"
capture padd lttctl add-map-channel --type=kernel -s kp calls
capture ptrigger lttctl add-trigger --name pv --condition=event-rule-matches \
	--type=kernel:syscall --name=getppid --action=incr-map-value -s kp --map calls \
	--key '{event_name}'
capture pchan lttctl enable-channel -k kch --subbuf-size 64k --num-subbuf 4 -s kp
capture penable lttctl enable-event -k ltt_test_event -c kch -s kp
capture pstart lttctl start kp
capture pcalls kworkload getppid 40
capture pexport lttctl export-maps -s kp
capture pmem lttctl list kp --mem-usage=total
capture pdestroy lttctl destroy kp
capture premove2 lttctl remove-trigger pv
stop_sessiond
