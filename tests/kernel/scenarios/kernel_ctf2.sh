# kernel_ctf2: two kernel sessions of the module, one created -F ctf-1.8,
# one -F ctf-2, record the same test probe events and system calls at
# once (test_kernel_ctf2.sh reads both with babeltrace2 2.1).
start_sessiond || exit 1
for f in 1.8 2; do
	capture "create_$f" lttctl create "k$f" -F "ctf-$f" -o "$LTT_OUT/k$f" || exit 1
	capture "enable_$f" lttctl enable-event -k -s "k$f" ltt_test_event || exit 1
	capture "enable_sys_$f" lttctl enable-event -k -s "k$f" --syscall openat,close,write || exit 1
	capture "context_$f" lttctl add-context -k -s "k$f" -t tid -t procname || exit 1
	capture "start_$f" lttctl start "k$f" || exit 1
done
capture list_2 lttctl list k2
echo 1000 >/proc/ltt-test
capture files taskset -c 0 kworkload files /tmp/kworkload.out
for f in 1.8 2; do
	capture "stop_$f" lttctl stop "k$f" || exit 1
done
capture destroy lttctl destroy -a
stop_sessiond
