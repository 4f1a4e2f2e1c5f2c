#!/bin/bash
# test_deb.sh - ltt's Debian packages (debian/), as a user of Debian
# gets them:
# - dpkg-buildpackage -b -us -uc builds them from the tree `make dist`
#   ships: ltt-tools, libltt-ctl1 and libltt-ust0 with their -dev
#   packages, ltt-modules-dkms, python3-ltt; lintian finds no error and no warning;
#   the libraries have the sonames their packages are named after, and
#   their symbols files hold (dpkg-gensymbols fails the build otherwise);
# - DKMS builds the module from ltt-modules-dkms's sources for Debian's
#   kernel (dkms build, its trees in the test's directory), and in roots
#   of Debian 13 and sid for theirs, by their DKMS and compilers;
# - the example program of libltt-ust-dev builds with its pkg-config;
# - installed with dpkg in a Debian root booted with systemd as PID 1
#   (tests/kernel/sysroot.sh), with the module where DKMS installs it:
#   the session daemon runs at boot from the package's unit (enabled by
#   its postinst; the relay daemon's is not), the tracing group and the
#   system user ltt exist,
#   the demo records the example's events, the kernel is traced with
#   the DKMS module, and dpkg -r stops the daemon.
# - ltt-lttng-compat, in a root with Debian's LTTng, by chroot then
#   booted with systemd: tests/kernel/deb-compat.sh says what it checks.
# Skips where QEMU, the kernel, mmdebstrap or the packaging tools
# (scripts/deps.sh --kernel) are missing, or no package mirror answers.
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

kvm_init
for t in dpkg-buildpackage dh dh_dkms lintian dkms babeltrace2 lttng-gen-tp; do
	command -v $t >/dev/null || skip_all "$t is not installed (scripts/deps.sh --kernel)"
done
dpkg-checkbuilddeps "$LTT_TOP_SRCDIR/debian/control" 2>"$TEST_TMP/bdeps" ||
	skip_all "$(cat "$TEST_TMP/bdeps") (scripts/deps.sh --kernel)"
. "$KVM_SRC/sysroot.sh"
. "$KVM_SRC/deb-compat.sh"
deb_compat_root
sysd_root
plan 74

VER=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' "$LTT_TOP_BUILDDIR/config.h")
ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
# make, not as a part of make check's own
NOMAKE=(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL)

# --- the packages, from what make dist ships
SRC=$TEST_TMP/ltt-$VER
run timeout 300 "${NOMAKE[@]}" make -C "$LTT_TOP_BUILDDIR" distdir distdir="$SRC"
[ "$RC" = 0 ] || { echo "Bail out! make distdir failed"; tail -n 20 <<<"$OUT" | sed 's/^/# /'; exit 1; }
(cd "$SRC" && timeout 900 "${NOMAKE[@]}" dpkg-buildpackage -b -us -uc -j2) >"$TEST_TMP/build.log" 2>&1
rc=$?
is "$rc" 0 "dpkg-buildpackage -b -us -uc builds them"
[ "$rc" = 0 ] || { tail -n 30 "$TEST_TMP/build.log" | sed 's/^/# /'; echo "Bail out! no packages"; exit 1; }
D=$TEST_TMP
pkgs="ltt-tools libltt-ctl1 libltt-ctl-dev libltt-ust0 libltt-ust-dev python3-ltt ltt-lttng-compat"
got=""
for p in $pkgs; do
	[ -s "$D/${p}_${VER}_$ARCH.deb" ] && got="$got $p"
done
[ -s "$D/ltt-modules-dkms_${VER}_all.deb" ] && got="$got ltt-modules-dkms"
is "$got" " $pkgs ltt-modules-dkms" "the programs, two libraries, their -dev packages, the Python package, LTTng's place and the module's DKMS package"
lintian "$D/ltt_${VER}_$ARCH.changes" >"$TEST_TMP/lintian" 2>&1
is "$(grep -cE '^[EW]: ' "$TEST_TMP/lintian")" 0 "lintian reports no error and no warning"
grep -E '^[EW]: ' "$TEST_TMP/lintian" | head -n 20 | sed 's/^/# /'

# contents: what each package holds
x() {
	rm -rf "$TEST_TMP/x.$1"
	dpkg-deb -x "$2" "$TEST_TMP/x.$1" && echo "$TEST_TMP/x.$1"
}
T=$(x tools "$D/ltt-tools_${VER}_$ARCH.deb")
ok "$([ -x "$T/usr/bin/lttctl" ] && [ -x "$T/usr/bin/ltt-sessiond" ] && [ -x "$T/usr/bin/ltt-relayd" ] &&
	[ -x "$T/usr/lib/$MA/ltt/libexec/ltt-consumerd" ]; echo $?)" \
	"ltt-tools: lttctl, ltt-sessiond, ltt-relayd, and ltt-consumerd in the multiarch libexec directory"
ok "$([ -f "$T/lib/systemd/system/ltt-sessiond.service" ] && [ -f "$T/usr/share/man/man1/lttctl.1.gz" ] &&
	[ -f "$T/usr/share/man/man8/ltt-sessiond.8.gz" ] && [ -f "$T/usr/share/bash-completion/completions/lttctl" ]; echo $?)" \
	"its systemd units, man pages and bash completion"
soname() {
	objdump -p "$1" 2>/dev/null | awk '$1 == "SONAME" { print $2 }'
}
C=$(x ctl "$D/libltt-ctl1_${VER}_$ARCH.deb")
U=$(x ust "$D/libltt-ust0_${VER}_$ARCH.deb")
is "$(soname "$C"/usr/lib/"$MA"/libltt-ctl.so.1.*)/$(soname "$U"/usr/lib/"$MA"/libltt-ust.so.0.*)" \
	"libltt-ctl.so.1/libltt-ust.so.0" "libltt-ctl1 and libltt-ust0 hold the sonames they are named after"
dpkg-deb -e "$D/libltt-ctl1_${VER}_$ARCH.deb" "$TEST_TMP/ctl.control"
like "$(cat "$TEST_TMP/ctl.control/symbols" 2>/dev/null)" "ltt_ctl_create_session@LTT_CTL_1 " \
	"libltt-ctl1 carries its symbols file, with the symbol versions"

# --- DKMS builds the module from ltt-modules-dkms (its trees here;
# sign_file: DKMS makes no signing key on this machine)
K=$(x dkms "$D/ltt-modules-dkms_${VER}_all.deb")
like "$(cat "$K/usr/src/ltt-modules-$VER/dkms.conf" 2>/dev/null)" "PACKAGE_VERSION=\"$VER\"" \
	"ltt-modules-dkms: the sources in /usr/src/ltt-modules-$VER with their dkms.conf"
dpkg-deb -e "$D/ltt-modules-dkms_${VER}_all.deb" "$TEST_TMP/dkms.control"
like "$(cat "$TEST_TMP/dkms.control/postinst")" "dkms" "its postinst hands them to DKMS"
mkdir -p "$TEST_TMP/dkms-tree" "$TEST_TMP/dkms-inst"
(sign_file=/nonexistent timeout 600 dkms build -m ltt-modules -v "$VER" -k "$KVER" \
	--sourcetree "$K/usr/src" --dkmstree "$TEST_TMP/dkms-tree" --installtree "$TEST_TMP/dkms-inst") \
	>"$TEST_TMP/dkms.log" 2>&1
is "$?" 0 "dkms build ltt-modules/$VER for $KVER"
KO=$TEST_TMP/dkms-tree/ltt-modules/$VER/$KVER/x86_64/module/ltt-tracer.ko
is "$(modinfo -F vermagic "$KO" 2>/dev/null | awk '{ print $1 }')" "$KVER" "ltt-tracer.ko, for that kernel"
[ -s "$KO" ] || { tail -n 30 "$TEST_TMP/dkms.log" | sed 's/^/# /'; tail -n 30 "$TEST_TMP"/dkms-tree/ltt-modules/"$VER"/build/make.log 2>/dev/null | sed 's/^/# /'; }
# ... and in Debian 13 and sid, for their kernels, by their DKMS and
# compilers (the roots of tests/kernel/releases/, cached)
for rel in trixie sid; do
	if ! KVM_KROOT=$(kvm_release_root $rel); then
		skip 2 "$KVM_KROOT"
		continue
	fi
	kv=$(LTT_KVER="" kvm_kver)
	t=$TEST_TMP/dkms-$rel
	mkdir -p "$t/tree"
	# (DKMS 3 takes --installtree for /lib/modules: the headers named instead)
	kvm_in_kroot env sign_file=/nonexistent timeout 600 dkms build -m ltt-modules -v "$VER" -k "$kv" \
		--sourcetree "$K/usr/src" --dkmstree "$t/tree" \
		--kernelsourcedir "/usr/src/linux-headers-$kv" >"$t.log" 2>&1
	is "$?" 0 "$rel: dkms build ltt-modules/$VER for its kernel $kv"
	ko=$t/tree/ltt-modules/$VER/$kv/x86_64/module/ltt-tracer.ko
	[ -f "$ko" ] || ko=$(find "$t/tree/ltt-modules/$VER/$kv" -name 'ltt-tracer.ko*' 2>/dev/null | head -n 1)
	is "$(kvm_in_kroot modinfo -F vermagic "$ko" 2>/dev/null | awk '{ print $1 }')" "$kv" \
		"$rel: ltt-tracer.ko, for that kernel"
	[ -n "$ko" ] || tail -n 20 "$t.log" | sed 's/^/# /'
done
KVM_KROOT=""

# --- the example of libltt-ust-dev builds with its pkg-config file
V=$(x dev "$D/libltt-ust-dev_${VER}_$ARCH.deb")
cp -a "$U/." "$V/"
pc=$V/usr/lib/$MA/pkgconfig/ltt-ust.pc
is "$(sed -n 's/^prefix=//p' "$pc")" /usr "ltt-ust.pc: prefix /usr, its directories relative to it"
flags=$(PKG_CONFIG_PATH=$V/usr/lib/$MA/pkgconfig pkg-config --define-variable=prefix="$V/usr" --cflags --libs ltt-ust)
run cc -o "$TEST_TMP/hello" "$V/usr/share/doc/libltt-ust-dev/examples/hello.c" $flags
is "$RC" 0 "cc hello.c \$(pkg-config --cflags --libs ltt-ust) builds the example"
like "$(objdump -p "$TEST_TMP/hello" 2>/dev/null | awk '$1 == "NEEDED"')" "libltt-ust.so.0" "linked to libltt-ust.so.0"

# --- installed with dpkg in a Debian root, booted with systemd
R=$TEST_TMP/sysroot
sysd_unpack "$R" "$KVM_SRC/systemd/deb-check.sh"
mkdir -p "$R/tmp/debs"
for p in ltt-tools libltt-ctl1 libltt-ctl-dev libltt-ust0 python3-ltt; do
	cp "$D/${p}_${VER}_$ARCH.deb" "$R/tmp/debs/"
done
run chroot "$R" sh -c 'dpkg -i /tmp/debs/*.deb' 
is "$RC" 0 "dpkg -i installs them in Debian's root, their dependencies met by Debian's packages"
[ "$RC" = 0 ] || tail -n 20 <<<"$OUT" | sed 's/^/# /'
rm -rf "$R/tmp/debs"
# where DKMS installs the module (DEST_MODULE_LOCATION), indexed
install -D -m 0644 "$KO" "$R/lib/modules/$KVER/updates/dkms/ltt-tracer.ko"
depmod -b "$R" "$KVER"
cp "$TEST_TMP/hello" "$R/ltt/bin/hello"
run systemctl --root="$R" enable ltt-check.service
[ "$RC" = 0 ] || { echo "Bail out! systemctl enable: $OUT"; exit 1; }
sysd_initrd "$R"

sysd_boot
diag "systemd boot and checks: ${KVM_BOOT_MS} ms"
f() {
	cat "$KVM_OUT/$1" 2>/dev/null
}

is "$(f packages | tr '\n' ' ')" "libltt-ctl-dev installed libltt-ctl1 installed libltt-ust0 installed ltt-tools installed python3-ltt installed " \
	"the guest has them installed"
is "$(f active_at_start)/$(f enabled)" active/enabled "ltt-sessiond.service, enabled by the postinst, runs at boot"
is "$(f unit_path)" /lib/systemd/system/ltt-sessiond.service "from the package's unit"
is "$(f relayd_enabled)/$(f relayd_active)" disabled/inactive "the relay daemon, which listens on the network, is left off"
like "$(f group)" "^tracing:x:[0-9]+:" "the postinst made the tracing group"
like "$(f ltt_user)" "^ltt:x:[1-9][0-9]*:[1-9][0-9]*:" "and the system user ltt, which ltt-sessiond drops to"
is "$(f sessiond_drop)" "ltt/0000000000000000" \
	"the daemon's process dropped to ltt, with no capability (the default; ltt-priv keeps root's)"
like "$(f man)" "lttctl-enable-event.1.gz" "the man pages are there"

# the demo
is "$(f d_create.rc)$(f d_enable.rc)$(f d_start.rc)$(f d_hello.rc)$(f d_stop.rc)$(f d_destroy.rc)" 000000 \
	"the demo: create, enable-event, start, the example, stop, destroy"
bt "$KVM_OUT/demo-trace" "$TEST_TMP/demo.txt"
got=$(grep -c ' hello_world:' "$TEST_TMP/demo.txt")
lost=$(discarded "$TEST_TMP/demo.txt.err")
is "$got/$lost" "152/0" "the example's 152 events are in the trace, none lost"
is "$(f d_python)" "demo False ['hello_world:*']" "python3-ltt reads the session from the root daemon (import ltt)"
is "$(f t_list.rc)" 0 "a member of the tracing group drives the root daemon"

# the kernel, with the DKMS module
like "$(head -n 1 "$KVM_OUT/k_list")" "^Kernel tracer: module" "the session daemon traces the kernel with the module"
is "$(f k_module)" "/lib/modules/$KVER/updates/dkms/ltt-tracer.ko" "the one DKMS installed"
is "$(f k_create.rc)$(f k_enable.rc)$(f k_start.rc)$(f k_stop.rc)$(f k_destroy.rc)" 00000 "a kernel session records"
bt "$KVM_OUT/kernel-trace" "$TEST_TMP/kernel.txt"
n=$(grep -c ' sched_switch:' "$TEST_TMP/kernel.txt")
ok "$([ "$n" -gt 0 ]; echo $?)" "its trace has the scheduler's switches ($n)"
like "$(grep -m1 ' sched_switch:' "$TEST_TMP/kernel.txt")" "prev_comm = .*next_tid = " "with their fields"

# removal
is "$(f remove.rc)" 0 "dpkg -r ltt-tools"
is "$(f active_after_remove)/$(f sessiond_after_remove)" "inactive/0" "stops the session daemon"
is "$(f bins_after_remove)" 0 "and takes its programs"
unlike "$(f journal)" "ERROR|Error:" "the journal has no error"

# --- ltt-lttng-compat: ltt in LTTng's place, and LTTng back
compat_build
deb_compat_checks
done_testing
