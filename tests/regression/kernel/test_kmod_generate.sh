#!/bin/bash
# The module's build fails when one of its generators fails (kmod/Kbuild's
# ltt_generate), and leaves no stale generated file behind.  Before, a
# quote in a comment of ltt-gen-syscalls.sh's awk program made the shell
# refuse the script, but Kbuild's set -e does not stop inside an && list:
# make said nothing, kept the old system call table, and linked the module
# with it.  A copy of the build tree's kmod/ (its objects, so that make
# only redoes what changed) is built with such a broken generator, then
# with a failing ltt-gen-tpfeatures.sh; the build tree's own module shows
# the rule's success path.
# Skipped where the build made no module (no kernel headers).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
B=$LTT_TOP_BUILDDIR
command -v make >/dev/null || skip_all "no make"
[ -f "$B/kmod/ltt-tracer.ko" ] || skip_all "the build made no kernel module (no kernel headers)"
KDIR=$(sed -n 's/^KERNELDIR = //p' "$B/Makefile")
[ -n "$KDIR" ] && [ -d "$KDIR" ] || skip_all "the build's KERNELDIR is not there"
plan 9

K="$TEST_TMP/kmod"
cp -a "$B/kmod" "$K" || { echo "Bail out! can't copy $B/kmod"; exit 1; }
TABLE="$K/generated/ltt-syscalls-table.h"
[ -s "$TABLE" ] || { echo "Bail out! $B/kmod has no generated system call table"; exit 1; }
# kbuild: make the module in the copy, its output in $TEST_TMP/log
kbuild() {
	timeout 300 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$K" KERNELDIR="$KDIR" \
		>"$TEST_TMP/log" 2>&1
}

# An apostrophe in a comment of the awk program: the shell no longer
# parses the script.
gen="$K/scripts/ltt-gen-syscalls.sh"
cp "$gen" "$TEST_TMP/gen-good.sh"
sed 's/^# The fixed-width type of a declared/# The kernel'"'"'s fixed-width type of a declared/' \
	"$TEST_TMP/gen-good.sh" >"$gen"
grep -q "^# The kernel's fixed-width" "$gen"
ok $? "the generator's copy has its broken comment"
ko_before=$(stat -c %Y "$K/ltt-tracer.ko")
kbuild
ok $((! $?)) "a generator the shell can't parse fails the module's build"
like "$(cat "$TEST_TMP/log")" "ltt-gen-syscalls.sh failed: .*ltt-syscalls-table.h not written" \
	"make says which generator failed and which file it did not write"
[ ! -e "$TABLE" ] && [ ! -e "$TABLE.tmp" ]
ok $? "the old system call table is removed, not kept stale (nor the partial output)"
is "$(stat -c %Y "$K/ltt-tracer.ko")" "$ko_before" "the module is not linked again"

# The build tree's own table came from the same rule, the generator's
# success path (its saved command is ltt_generate's).
grep -q 'ltt-gen-syscalls.sh failed' "$B/kmod/generated/.ltt-syscalls-table.h.cmd" &&
	grep -q 'X([0-9]*, openat,' "$B/kmod/generated/ltt-syscalls-table.h"
ok $? "the build tree's table was written by the same rule, openat in it"

# The tracepoint generator: a failure there fails the build too.
tp="$K/scripts/ltt-gen-tpfeatures.sh"
printf '#!/bin/sh\necho "#ifndef LTT_TPFEATURES_H"\nexit 3\n' >"$tp"
kbuild
ok $((! $?)) "a failing tracepoint generator fails the module's build"
like "$(cat "$TEST_TMP/log")" "ltt-gen-tpfeatures.sh failed: .*ltt-tpfeatures.h not written" \
	"make names the tracepoint generator"
[ ! -e "$K/generated/ltt-tpfeatures.h" ]
ok $? "its old output is removed"
