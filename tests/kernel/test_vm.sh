#!/bin/bash
# The test guest itself: Debian's kernel boots, results come back intact,
# and the installed daemons trace a program in user space inside it, the
# trace read back on the host with babeltrace2.  Needs no module.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot guest_basics ust_in_guest
plan 24

# guest_basics
kvm_scenario_ok guest_basics
is "$(kvm_file guest_basics release)" "$KVER" "the guest runs the packaged kernel $KVER"
is "$(cat "$KVM_OUT/kernel-release")" "$KVER" "the runner reports the same release"
n=$(kvm_file guest_basics tracefs_events)
ok $(( ${n:-0} > 50 ? 0 : 1 )) "tracefs is mounted with its event directories ($n)"
like "$(kvm_file guest_basics id_tracer)" 'uid=1000\(tracer\).*groups=.*tracing' \
	"the guest has a user in the tracing group"
is "$(sha256sum <"$KVM_OUT/guest_basics/blob" | cut -d' ' -f1)" \
	"$(kvm_file guest_basics blob.sha256)" "1 MiB of data came back byte for byte"
is "$(kvm_file guest_basics lttctl_version.rc)" 0 "the installed lttctl runs in the guest"
like "$(kvm_file guest_basics lttctl_version)" '[0-9]+\.[0-9]+' "lttctl version prints a version"
is "$(kvm_file guest_basics sessiond_help.rc)" 0 "the installed ltt-sessiond runs in the guest"
like "$(kvm_file guest_basics modprobe_deps)" 'insmod .*/virtio_console.ko' "kmod's modprobe finds modules through depmod's index"
kvm_kernel_clean guest_basics

# ust_in_guest
kvm_scenario_ok ust_in_guest
like "$(kvm_file ust_in_guest sessiond_pid)" '^[0-9]+$' "the root daemon wrote /run/ltt/sessiond.pid"
is "$(kvm_file ust_in_guest hello)" "hello: 5 iterations" "the example program ran"
like "$(kvm_file ust_in_guest consumerd)" '^[0-9]+' "the daemon started the installed ltt-consumerd"
like "$(kvm_file ust_in_guest list)" 'hello_world:\*' "lttctl list shows the enabled events"
is "$(kvm_file ust_in_guest destroy.rc)" 0 "lttctl destroy succeeds"
is "$(kvm_file ust_in_guest sessiond_gone)" yes "the daemon stopped and removed its pid file"
trace=$KVM_OUT/ust_in_guest/trace
ok $([ -d "$trace" ] && echo 0 || echo 1) "the trace directory came back"
run babeltrace2 "$trace"
is "$RC" 0 "babeltrace2 reads the guest's trace"
[ "$RC" = 0 ] || diag "$ERR"
is "$(grep -c 'hello_world:my_first_tracepoint:' <<<"$STDOUT")" 5 "5 my_first_tracepoint events"
is "$(grep -c 'hello_world:odd_iteration:' <<<"$STDOUT")" 2 "2 odd_iteration events"
like "$(grep 'hello_world:starting:' <<<"$STDOUT")" 'loops = 5, program = "hello"' \
	"starting records loops = 5 and the program's name"
like "$(grep 'my_first_tracepoint:.*iteration = 2,' <<<"$STDOUT")" \
	'text = "tracing".*values = \[ \[0\] = 20, \[1\] = 21, \[2\] = 22 \]' \
	"iteration 2 records its text and its 3 values"
done_testing
