#!/bin/bash
# Kernel map channels (add-map-channel --type=kernel) in a real kernel
# (Debian's, which has ftrace's histogram triggers), through the tracefs
# backend: scenario kernel_map.  kworkload's N getppid() calls give
# exactly N under each of syscall_entry_getppid and syscall_exit_getppid
# ({event_name}) and 2N (entries and exits) under the key of an
# exactly-said filter, through
# export-maps | sqlite3 and show-maps; a filter ftrace can't say exactly
# is refused; nothing counted while stopped; clear back to 0, then
# counting exactly again; save keeps the kernel map; the map's ftrace
# instance is gone after destroy; load brings it and its triggers back,
# counting exactly; the same through the privileged part (a daemon
# dropped to nobody, --privsep-user).  (Without histogram triggers:
# tests/regression/kernel/test_kernel_tracefs_map.sh; with ltt's module
# as the backend: test_kernel_map_module.sh.)
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v sqlite3 >/dev/null || skip_all "sqlite3 is not installed (scripts/deps.sh)"
kvm_boot kernel_map
plan 31

s=kernel_map
n=$(kvm_file $s n)
# sql FILE [MAP [KEY]]: the rows of kernel map MAP (calls) in the export FILE
sql() { kvm_map_sql "$s" "$@"; }
t=$((2 * n))
kvm_scenario_ok $s
is "$(kvm_file $s hist)" 1 "the guest kernel has histogram triggers"
is "$(kvm_file $s add_map.rc)" 0 "add-map-channel --type=kernel"
like "$(kvm_file $s add_map)" "Kernel map channel calls added to session km" "... saying so"
is "$(kvm_file $s add_all.rc) $(kvm_file $s add_tid.rc)" "0 0" \
	"counting triggers: a system call rule, and one with an exact filter"
is "$(kvm_file $s add_again.rc)" 0 "a second trigger on the same events and filter, another key: added"
like "$(kvm_file $s add_twice.rc):$(kvm_file $s add_twice)" "^1:.*a kernel map counts an event once under a key" \
	"a second trigger on the same events under the same key: refused in one sentence"
is "$(kvm_file $s add_inexact.rc)" 1 "a filter ftrace's grammar can't say exactly: refused"
like "$(kvm_file $s add_inexact)" "ftrace's filter grammar can't say this one" "... in one sentence"
is "$(kvm_file $s instances)" 2 "one ftrace instance a map"
like "$(kvm_file $s hist_triggers)" "hist:keys=common_type:vals=hitcount.*:size=128 if common_pid > 1 .*paused" \
	"... with the filter as the histogram trigger's if"
is "$(sql export)" "again $t syscall_entry_getppid $n syscall_exit_getppid $n tid_over_1 $t " \
	"export-maps | sqlite3: exactly $n under each event, $t under the filter's key"
is "$(kvm_file $s add_every_map.rc) $(kvm_file $s add_every.rc) $(kvm_file $s add_openat.rc)" \
	"0 0 0" "a second map: every get* system call (a glob), and openat"
is "$(sql export every syscall_entry_getppid)" "syscall_entry_getppid $n " "... $n getppid"
like "$(sql export every syscall_entry_openat)" "^syscall_entry_openat [1-9][0-9]* $" \
	"... and openat (a call whose strings an event probe reads: counted on its own event)"
like "$(kvm_file $s show)" "Map channel calls \\(kernel, signed-int-64, 4 of 4096 keys, per kernel, counting\\)" \
	"show-maps: a kernel map, counting"
like "$(kvm_file $s show)" "syscall_entry_getppid +$n +kernel" "show-maps: $n, the kernel's"
is "$(sql export_stopped)" "again $t syscall_entry_getppid $n syscall_exit_getppid $n tid_over_1 $t " \
	"stopped: 50 more calls not counted"
like "$(kvm_file $s show_stopped)" "not counting: the session is stopped" "show-maps says it is stopped"
is "$(sql export_cleared)" "again 0 syscall_entry_getppid 0 syscall_exit_getppid 0 tid_over_1 0 " \
	"clear: every counter back to 0"
is "$(sql export2)" "again 60 syscall_entry_getppid 30 syscall_exit_getppid 30 tid_over_1 60 " \
	"started again: exactly 30 more"
like "$(cat "$KVM_OUT/$s/saved.ltt" 2>/dev/null)" "<buffer_ownership>kernel</buffer_ownership>" \
	"save keeps the kernel map"
is "$(kvm_file $s instances_left)" 0 "no ftrace instance of ltt's left after destroy"
is "$(kvm_file $s load.rc)" 0 "load: the session back (saved started: started)"
[ "$(kvm_file $s load.rc)" = 0 ] || diag "$(kvm_file $s load)"
is "$(sql export3)" "again 20 syscall_entry_getppid 10 syscall_exit_getppid 10 tid_over_1 20 " \
	"loaded: the map and its triggers count exactly again"
is "$(kvm_file $s padd.rc) $(kvm_file $s ptrigger.rc) $(kvm_file $s pstart.rc)" "0 0 0" \
	"--privsep-user=nobody: the map and its trigger added, started"
is "$(sql pexport)" "syscall_entry_getppid 40 syscall_exit_getppid 40 " \
	"... counting exactly through the privileged part"
is "$(kvm_file $s ptrigger2.rc)" 0 "a second counter of getppid under another key: added"
is "$(sql pexport2)" "late 50 syscall_entry_getppid 65 syscall_exit_getppid 65 " \
	"... it shares the histogram trigger and counts from then on: 25 calls, not the 40 before"
is "$(kvm_file $s pinstances_left)" 0 "... its instance gone after destroy"
kvm_kernel_clean $s
done_testing
