#!/bin/bash
# ltt-tracer.ko in a real kernel: loading by name, /proc/ltt and its
# permissions, the VERSION ioctl, unloading; a second load and an unload
# under an open session refused.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
kvm_boot module_load module_refusals
plan 24
abi_major=$(sed -n 's/^#define LTT_KABI_MAJOR[[:space:]]*\([0-9]*\).*/\1/p' "$LTT_TOP_SRCDIR/src/abi/ltt-abi.h")
abi_minor=$(sed -n 's/^#define LTT_KABI_MINOR[[:space:]]\+\([0-9]\+\).*/\1/p' "$LTT_TOP_SRCDIR/src/abi/ltt-abi.h")

# module_load
kvm_scenario_ok module_load
is "$(kvm_file module_load loaded)" 1 "modprobe ltt-tracer loads the module"
is "$(kvm_file module_load proc_mode)" "-rw------- root root" "/proc/ltt is root's alone (0600)"
is "$(kvm_file module_load version.rc)" 0 "LTT_KABI_VERSION answers root"
like "$(kvm_file module_load version)" "^major=$abi_major minor=$abi_minor tracer=[0-9]" \
	"the module speaks the ABI of src/abi/ltt-abi.h ($abi_major.$abi_minor) and names its version"
is "$(kvm_file module_load version_tracer.rc)" 1 "a tracing group member cannot open /proc/ltt"
like "$(kvm_file module_load version_tracer)" 'open /proc/ltt: Permission denied' \
	"... and is told permission denied"
is "$(kvm_file module_load version_nobody.rc)" 1 "nobody cannot open /proc/ltt"
like "$(kvm_file module_load modinfo)" '^GPL' "the module's license is GPL"
is "$(kvm_file module_load rmmod.rc)" 0 "rmmod ltt_tracer unloads it"
is "$(kvm_file module_load loaded_after)" 0 "... and it is gone from /proc/modules"
is "$(kvm_file module_load proc_after)" gone "... with /proc/ltt"
kvm_kernel_clean module_load

# module_refusals
kvm_scenario_ok module_refusals
is "$(kvm_file module_refusals insmod_again.rc)" 1 "a second insmod is refused"
like "$(kvm_file module_refusals insmod_again)" 'File exists|exists' "... because the module is loaded"
is "$(kvm_file module_refusals modprobe_again.rc)" 0 "modprobe of a loaded module does nothing and succeeds"
is "$(kvm_file module_refusals instances)" 1 "... one instance stays loaded"
is "$(kvm_file module_refusals version.rc)" 0 "the loaded module still answers"
hold=$(kvm_file module_refusals hold)
matches "$hold" $'rmmod_rc=1\n1\ncmd_status=0$' \
	"rmmod is refused while a session fd is open, and the module stays"
like "$hold" 'in use' "... because the module is in use"
is "$(kvm_file module_refusals rmmod_after.rc)" 0 "once the session fd is closed, rmmod succeeds"
is "$(kvm_file module_refusals loaded_after)" 0 "... and the module is gone"
kvm_kernel_clean module_refusals
done_testing
