#!/bin/bash
# test_lttng_tools_kernel.sh - lttng-tools 2.13.9's own tests whose kernel
# halves load lttng-modules' lttng-test module, run whole against ltt in
# a guest whose kernel loads ltt's modules: Debian's kernel under QEMU
# boots a Debian root holding ltt as `make install` lays it out (its
# ltt-tracer.ko and lttng-test.ko among it); tests/lttng-tools/run.sh
# --prepare builds the tests' tree here, --prepared runs it there, each
# test in its own namespaces, its daemons its own.  A check passes when
# every check of its LTTng test passed, as many as the test planned.
#
# Which tests: LTT_LTTNG_KERNEL_TESTS (default tools/wildcard/test_event_wildcard,
# about 1 minute under QEMU's emulation on a quiet machine, 4 to 9 in a
# loaded suite); "all" adds tools/tracker/test_event_tracker (2 minutes
# quiet, past its 600 s in a guest beside a loaded suite: the suite's
# time no longer has room for it) and tools/filtering/test_valid_filter (about
# 28 minutes more: give the test the time, LTT_TEST_WALL=3000;
# doc/lttng-tools-tests.md gives each one's result and time); a list of
# tests runs those.  Skips as
# test_systemd.sh does (no QEMU, kernel or mmdebstrap; no package
# mirror), and as test_lttng_tools_suite.sh does (not root, a sanitizer
# build, no lttng-tools source).
TESTS=(tools/wildcard/test_event_wildcard)
[ "${LTT_LTTNG_KERNEL_TESTS:-}" = all ] && TESTS+=(tools/tracker/test_event_tracker tools/filtering/test_valid_filter)
[ -n "${LTT_LTTNG_KERNEL_TESTS:-}" ] && [ "$LTT_LTTNG_KERNEL_TESTS" != all ] &&
	read -ra TESTS <<<"$LTT_LTTNG_KERNEL_TESTS"
# a test's seconds in the guest (the wildcard test's 57 s ten times
# over, the tracker test's 132 s four times; "all": the filter test's
# about 1,700), and the boot's: the tests, their set-up
LIMIT=600
[ "${LTT_LTTNG_KERNEL_TESTS:-}" = all ] && LIMIT=2400
LIMIT=${LTT_LTTNG_KERNEL_LIMIT:-$LIMIT}
KVM_TIMEOUT=${KVM_TIMEOUT:-$((LIMIT * ${#TESTS[@]} + 300))}
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

kvm_init
lttng_tools_src_or_skip
. "$KVM_SRC/sysroot.sh"
# what LTTng's scripts run beside ltt: bash, pgrep and ps, ip and
# unshare (run.sh's namespaces), babeltrace (1, the filter test's) and
# babeltrace2, perl (babelstats.pl)
sysd_root "procps,iproute2,babeltrace,babeltrace2,perl"
plan $((${#TESTS[@]} + 2))

R=$TEST_TMP/sysroot
sysd_unpack "$R" "$KVM_SRC/systemd/lttng-tools-check.sh"
run timeout 600 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$LTT_TOP_BUILDDIR" install DESTDIR="$R"
[ "$RC" = 0 ] || { echo "Bail out! make install DESTDIR=$R failed"; tail -n 20 <<<"$OUT" | sed 's/^/# /'; exit 1; }
prefix=$(sed -n 's/^prefix = //p' "$LTT_TOP_BUILDDIR/Makefile")
# the tests' tree, made here for ltt installed under $prefix there, at
# the path it will run at in the guest (not under /tmp, which the
# guest's systemd-tmpfiles empties at boot)
P=/ltt-lttng-tools-$$
_outside_dir=$P	# removed at exit, however the test ends, until it is below
run env LTT_PREFIX="$prefix" "$LTT_TOP_SRCDIR/tests/lttng-tools/run.sh" --prepare "$P" "$src"
[ "$RC" = 0 ] ||
	{ rm -rf "$P"; echo "Bail out! run.sh --prepare failed"; tail -n 20 <<<"$OUT" | sed 's/^/# /'; exit 1; }
mkdir -p "$R$P" && cp -a "$P/." "$R$P/" && cp "$LTT_TOP_SRCDIR/tests/lttng-tools/run.sh" "$R/ltt/run.sh"
ret=$?
rm -rf "$P"
_outside_dir=
[ "$ret" = 0 ] || { echo "Bail out! can't copy the tests' tree into the guest's root"; exit 1; }
echo "$P" >"$R/ltt/lttng-tools-dir"
echo "${TESTS[*]}" >"$R/ltt/lttng-tools-tests"
echo "$LIMIT" >"$R/ltt/lttng-tools-limit"
run systemctl --root="$R" enable ltt-check.service
[ "$RC" = 0 ] || { echo "Bail out! systemctl enable: $OUT"; exit 1; }
sysd_initrd "$R"

sysd_boot
diag "boot, set-up and tests: ${KVM_BOOT_MS} ms"
is "$(cat "$KVM_OUT/modprobe_dry.rc" 2>/dev/null)" 0 "the guest's modprobe finds lttng-test (make install, depmod)"
out=$(cat "$KVM_OUT/run" 2>/dev/null)
like "$out" "^[0-9]+ passed, [0-9]+ failed" "run.sh ran the tests in the guest"
for t in "${TESTS[@]}"; do
	line=$(grep -E "^(PASS|FAIL) $t " <<<"$out")
	like "$line" "^PASS $t " "LTTng's $t, whole (its kernel half on lttng-test.ko)"
	if [[ $line != PASS* ]]; then
		diag "$line"
		grep -m 10 '^not ok' "$KVM_OUT/logs/$(tr / _ <<<"$t").log" 2>/dev/null | sed 's/^/# /'
	fi
done
