#!/bin/bash
# ltt-tracer.ko's probes under a known workload (kmod/tests/ltt-ptest in
# the guest, a scratch virtio disk for the block events): the trace read
# with babeltrace2 here and every event's fields checked against what the
# workload knows (kmod/tests/ltt-ptest-check.sh), then again with every
# system call event enabled; each event's layout held to doc/ctf.md's
# table; Debian's lttng-iolatencytop and lttng-irqstats read the trace.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
KVM_DISK_MB=16
kvm_boot kmod_probes
plan 66

kvm_scenario_ok kmod_probes
like "$(kvm_file kmod_probes facts)" 'block_sector=[0-9]+' "the workload wrote to the scratch disk"
is "$(kvm_file kmod_probes attached_after)" 0 "no tracepoint probe attached after the sessions closed"
is "$(kvm_file kmod_probes loaded_after)" 0 "the module unloads after the test"
# ltt-ptest-check.sh's own checks, one assertion each (56 expected)
n=0
while IFS= read -r line; do
	case $line in
	"ok "*) ok 0 "${line#ok * - }"; n=$((n + 1)) ;;
	"not ok "*) ok 1 "${line#not ok * - }"; n=$((n + 1)) ;;
	"#"*) echo "$line" ;;
	esac
done < <("$LTT_TOP_SRCDIR/kmod/tests/ltt-ptest-check.sh" "$KVM_OUT/kmod_probes" 2>&1)
is "$n" 56 "ltt-ptest-check.sh made its 56 checks"
# the layout of every event, held to doc/ctf.md's table (the module's column)
babeltrace2 --output-format=ctf-metadata "$KVM_OUT/kmod_probes/trace" >"$TEST_TMP/meta.tsdl" &&
	/usr/bin/python3 "$LTT_TOP_SRCDIR/tests/ctf-kernel-table.py" check \
		"$LTT_TOP_SRCDIR/doc/ctf.md" module "$TEST_TMP/meta.tsdl" >"$TEST_TMP/table.txt"
is $? 0 "every event's fields as doc/ctf.md's table says ($(grep -c '^ok' "$TEST_TMP/table.txt") events)"
grep '^not ok' "$TEST_TMP/table.txt" | while IFS= read -r l; do diag "$l"; done
# the users' analyses of block requests and interrupts on the module's trace
if command -v lttng-iolatencytop >/dev/null; then
	# (they read the tracer's version in a directory named kernel, as a
	# session's output has it: ltt-ptest writes its trace elsewhere)
	mkdir -p "$TEST_TMP/la" && ln -s "$KVM_OUT/kmod_probes/trace" "$TEST_TMP/la/kernel"
	for a in iolatencytop irqstats; do
		timeout 300 "lttng-$a" --no-progress "$TEST_TMP/la/kernel" >"$TEST_TMP/$a.txt" 2>&1
		is $? 0 "lttng-$a reads the trace"
	done
	unlike "$(cat "$TEST_TMP/iolatencytop.txt" "$TEST_TMP/irqstats.txt")" "Error|Traceback" \
		"... neither says an error"
else
	skip 3 "lttng-analyses not installed (python3-lttnganalyses: scripts/deps.sh)"
fi
kvm_kernel_clean kmod_probes
done_testing
