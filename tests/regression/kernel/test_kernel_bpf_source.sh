#!/bin/bash
# test_kernel_bpf_source.sh - the BPF system call source's program alone
# (doc/kernel-bpf.md), loaded as the privileged part loads it and read as
# the consumer reads it (tests/regression/bpf_sc): openat's filename, the
# path a program opened, exactly, once per call; a path longer than the
# bound cut and marked; a ring too small for the load counting what it
# could not take.  Needs root and a kernel that loads it (this one does).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
BPF_SC="$LTT_TOP_BUILDDIR/tests/regression/bpf_sc"
[ -x "$BPF_SC" ] || skip_all "built without the BPF source (configure: libbpf-dev, clang, bpftool)"
[ "$(id -u)" = 0 ] || skip_all "needs root"
run "$BPF_SC" strings 1 /nonexistent-ltt-bpfsrc
[ "$RC" = 77 ] && skip_all "BPF can't be loaded here: $ERR"
plan 7

run "$BPF_SC" strings 100 /nonexistent-ltt-bpfsrc
is "$RC" 0 "the program loaded, 100 openat recorded and read"
is "$(grep '^filename' <<<"$STDOUT")" "filename 100 /nonexistent-ltt-bpfsrc" \
	"100 records of this thread's openat, each with the filename exactly"
like "$STDOUT" "other dfd=-100 flags=0x80000 mode=0" "... and the other arguments as passed"

long=/$(printf 'x%.0s' $(seq 400))
run "$BPF_SC" strings 3 "$long"
got=$(sed -n 's/^filename 3 //p' <<<"$STDOUT")
cut=${long:0:252}$'\xe2\x80\xa6'
is "${#got}" "${#cut}" "a path of 401 bytes is cut to 255 bytes"
is "$got" "$cut" "... its first 252 bytes, then the mark (U+2026)"

run "$BPF_SC" lost 2000 /$(printf 'y%.0s' $(seq 200))
own=$(awk '{ print $2 }' <<<"$STDOUT")
lost=$(awk '{ print $4 }' <<<"$STDOUT")
[ "$RC" = 0 ] && [ "${own:-0}" -gt 0 ] && [ "${own:-0}" -lt 2000 ]
ok $? "4 KiB rings left unread keep some of 2,000 records ($own)"
[ "${lost:-0}" -ge $((2000 - ${own:-0})) ]
ok $? "... and count at least the rest lost ($lost, other processes' openat included)"
