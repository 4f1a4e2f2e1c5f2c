# kernel_timeline: user-space and kernel events on one time line, with
# each kernel backend in turn (the module, then tracefs): a program emits
# a user event, calls getppid, emits the next, 100 times, in a session
# recording both domains (test_kernel_workload.sh checks the order).
for backend in module tracefs; do
	start_sessiond --kernel-backend=$backend || exit 1
	capture ${backend}_create lttctl create tl -o "$LTT_OUT/$backend" || exit 1
	capture ${backend}_enable_u lttctl enable-event -u ltt_test:seq -s tl || exit 1
	capture ${backend}_context_u lttctl add-context -u -t vtid -s tl || exit 1
	capture ${backend}_enable_k lttctl enable-event -k --syscall getppid -s tl || exit 1
	capture ${backend}_context_k lttctl add-context -k -t tid -s tl || exit 1
	capture ${backend}_start lttctl start tl || exit 1
	capture ${backend}_app ust_app -n 101 -G -e 5
	capture ${backend}_stop lttctl stop tl || exit 1
	capture ${backend}_destroy lttctl destroy tl
	stop_sessiond
done
