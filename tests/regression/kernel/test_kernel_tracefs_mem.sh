#!/bin/bash
# test_kernel_tracefs_mem.sh - lttctl list --mem-usage of a kernel
# channel on the tracefs backend: one line per CPU buffer with the
# memory the kernel says it holds (its instance's per_cpu/cpuN/
# buffer_size_kb, read here on its own), labelled as the kernel's count;
# total adds them up; the MI document has the same figures (LTTng's has
# no kernel figure: ltt's are the kernel's count, so they are there).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
tracefs_setup 11

lttctl -q create s -o "$TEST_TMP/s" &&
	lttctl -q enable-channel -k kch --subbuf-size 64k --num-subbuf 4 &&
	lttctl -q enable-event -k sched_switch -c kch && lttctl -q start
ok $? "a kernel channel of 4 x 64 KiB, started"
run lttctl list s --mem-usage=full
is "$RC" 0 "list --mem-usage=full"
like "$STDOUT" "kernel: as each line says" "the heading says the kernel's figures are labelled"
lines=$(grep -c '^  kernel kch, uid 0, CPU [0-9]*: [0-9]* bytes .* of 262144 .*, the kernel.s count (buffer_size_kb)$' <<<"$STDOUT")
cpus=$(ls -d /sys/kernel/tracing/per_cpu/cpu* | wc -l)
is "$lines" "$cpus" "one line per CPU buffer, labelled as the kernel's count"
# the instance of the session's kernel channel: of this test's daemon (its
# pid in the name; another daemon's, a gone one's, may stay), with
# sched_switch enabled
inst=$(grep -l '^1$' /sys/kernel/tracing/instances/ltt-"$(sessiond_pid)"[-_]*/events/sched/sched_switch/enable 2>/dev/null |
	sed 's|/events/sched/sched_switch/enable$||' | head -1)
want=$(for d in "$inst"/per_cpu/cpu*; do
	echo "${d##*cpu} $(($(sed 's/ .*//' "$d/buffer_size_kb") * 1024))"
done | sort -n | tr '\n' ' ')
got=$(sed -n 's/^  kernel kch, uid 0, CPU \([0-9]*\): \([0-9]*\) bytes .*/\1 \2/p' <<<"$STDOUT" |
	sort -n | tr '\n' ' ')
diag "instance $inst: $want"
is "$got" "$want" "each CPU's figure is its buffer_size_kb, read independently"
total=$(awk '{ for (i = 2; i <= NF; i += 2) s += $i } END { print s + 0 }' <<<"$want")
run lttctl list s --mem-usage=total
like "$STDOUT" "  kernel kch: $total bytes .* in $cpus buffers, the kernel's count" \
	"total: one line, the sum of the CPUs'"
like "$STDOUT" "  total: $total bytes" "and the session's total"
lttctl --mi xml list s --mem-usage=full >"$TEST_TMP/mem.xml"
like "$(mi_valid "$TEST_TMP/mem.xml")" "validates" "--mi xml: valid against LTTng 2.15's schema"
is "$(grep -c '<data_stream_info>' "$TEST_TMP/mem.xml")" "$cpus" "... a data_stream_info a CPU buffer"
like "$(tr -d ' \n' <"$TEST_TMP/mem.xml")" "</sets><total_memory_usage_bytes>$total</total_memory_usage_bytes>" \
	"... whose total is the kernel's count"
lttctl -q destroy s
