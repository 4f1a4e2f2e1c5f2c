#!/bin/bash
# Kernel map channels and buffer memory with ltt's module as the kernel
# backend (kernel ABI 1.9): scenario kernel_map_module.  kworkload's N
# getppid() calls give exactly N under each of syscall_entry_getppid and
# syscall_exit_getppid ({event_name}) and 2N under the key of a filter
# the module runs, through export-maps | sqlite3 and show-maps; the same
# event under the same key twice is refused in one sentence; nothing
# counted while stopped; clear back to 0, then counting exactly again.
# list --mem-usage: each CPU buffer of a 4 x 64 KiB channel as the module
# counts it (its 5 sub-buffers' pages and their bookkeeping), labelled
# so, its pages those /proc/vmallocinfo shows, and in the MI document.
# A map counting and --mem-usage through the privileged part
# (--privsep-user).  (The tracefs backend: test_kernel_map.sh.)
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v sqlite3 >/dev/null || skip_all "sqlite3 is not installed (scripts/deps.sh)"
kvm_boot kernel_map_module
plan 23

s=kernel_map_module
n=$(kvm_file $s n)
# sql FILE [MAP [KEY]]: the rows of kernel map MAP (calls) in the export FILE
sql() { kvm_map_sql "$s" "$@"; }
t=$((2 * n))
kvm_scenario_ok $s
is "$(kvm_file $s add_map.rc)" 0 "add-map-channel --type=kernel on the module backend"
like "$(kvm_file $s add_map)" "Kernel map channel calls added to session mm" "... saying so"
is "$(kvm_file $s add_all.rc) $(kvm_file $s add_tid.rc)" "0 0" \
	"counting triggers: a system call rule, and one with a filter the module runs"
like "$(kvm_file $s add_twice.rc):$(kvm_file $s add_twice)" "^1:.*a kernel map counts an event once under a key" \
	"the same events under the same key again: refused in one sentence"
is "$(sql export)" "syscall_entry_getppid $n syscall_exit_getppid $n tid_over_1 $t " \
	"export-maps | sqlite3: exactly $n under each event, $t under the filter's key"
like "$(kvm_file $s show)" "Map channel calls \\(kernel, signed-int-64, 3 of 4096 keys, per kernel, counting\\)" \
	"show-maps: a kernel map, counting"
like "$(kvm_file $s show)" "syscall_entry_getppid +$n +kernel" "show-maps: $n, the module's"
is "$(sql export_stopped)" "syscall_entry_getppid $n syscall_exit_getppid $n tid_over_1 $t " \
	"stopped: 50 more calls not counted"
is "$(sql export_cleared)" "syscall_entry_getppid 0 syscall_exit_getppid 0 tid_over_1 0 " \
	"clear: every counter back to 0"
is "$(sql export2)" "syscall_entry_getppid 30 syscall_exit_getppid 30 tid_over_1 60 " \
	"started again: exactly 30 more"
is "$(kvm_file $s destroy.rc)" 0 "destroy: the map's fd closed with it"
# --- list --mem-usage: 5 sub-buffers of 64 KiB a CPU (the reader's
# spare one), and the page table and counters beside them
cpus=$(kvm_file $s cpus)
mem=$(kvm_file $s mem)
data=$((5 * 65536))
lines=$(grep -c "^  kernel kch, uid 0, CPU [0-9]*: [0-9]* bytes .* of 262144 .*, the module's count (allocated whole)\$" <<<"$mem")
is "$lines" "$cpus" "--mem-usage=full: one line a CPU buffer, labelled as the module's count"
bytes=$(sed -n 's/^  kernel kch, uid 0, CPU [0-9]*: \([0-9]*\) bytes .*/\1/p' <<<"$mem" | sort -u)
is "$(wc -l <<<"$bytes" | tr -d ' ')" 1 "... the same figure for each CPU ($bytes)"
ok "$([ "${bytes:-0}" -ge $data ] && [ "${bytes:-0}" -lt $((data + 8192)) ]; echo $?)" \
	"... its $data bytes of sub-buffer pages and under 8 KiB of bookkeeping"
vm=$(kvm_file $s vmallocinfo)
is "$(grep -c . <<<"$vm")" "$cpus" "/proc/vmallocinfo: one vmap()ed area of the module a CPU"
# an area's size is its pages' and one guard page
is "$(awk '{ print $2 - 4096 }' <<<"$vm" | sort -u | tr '\n' ' ')" "$data " \
	"... each of the $data bytes of pages the module's count holds as its sub-buffers'"
mi=$(tr -d ' \n' <"$KVM_OUT/$s/mem_mi")
is "$(grep -o '<data_stream_info>' <<<"$mi" | wc -l | tr -d ' ')" "$cpus" \
	"--mi xml: a data_stream_info a CPU buffer"
like "$mi" "<total_memory_usage_bytes>$((bytes * cpus))</total_memory_usage_bytes></data_stream_info_set>" \
	"... with the module's figures"
# --- through the privileged part
is "$(kvm_file $s padd.rc) $(kvm_file $s ptrigger.rc) $(kvm_file $s pstart.rc)" "0 0 0" \
	"--privsep-user=nobody: a kernel map and its trigger added, started"
is "$(sql pexport)" "syscall_entry_getppid 40 syscall_exit_getppid 40 " \
	"... counting exactly through the privileged part"
like "$(kvm_file $s pmem)" "  kernel kch: $((bytes * cpus)) bytes .* in $cpus buffers, the module's count" \
	"... and --mem-usage's module count through it"
kvm_kernel_clean $s
done_testing
