#!/bin/bash
# Context fields of kernel channels (lttctl add-context -k), in a real
# kernel, read by babeltrace2 on the host: every value of a known process
# compared with the truth, refusals, list, MI and save/load.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_context
plan 1
s=kernel_context
kvm_scenario_ok $s
