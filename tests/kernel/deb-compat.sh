# tests/kernel/deb-compat.sh - test_deb.sh's part on ltt-lttng-compat, the
# package that puts ltt in LTTng's place (doc/lttng-packaging.md).
# Sourced by test_deb.sh after sysroot.sh; deb_compat_root before its
# plan, deb_compat_checks once the packages are built.
#
# 1. In a throwaway root (Debian's, with Debian's lttng-tools,
#    liblttng-ust1 and python3-lttng installed), by chroot, without
#    systemd: dpkg -i puts ltt's lttng, lttng-sessiond, lttng-relayd and
#    liblttng-ust*.so.1 in the place of Debian's, which are diverted, and
#    ld.so finds ltt's library for a program built with Debian's headers;
#    dpkg -r puts every one of Debian's files back as it was.
# 2. That root, the package installed again, booted with systemd as PID 1
#    (deb-compat-check.sh): the root daemon answers on LTTng's socket as
#    lttng-sessiond, a program a unit starts records into ltt; then
#    dpkg -r ltt-lttng-compat under systemd, and Debian's LTTng records.

DEB_COMPAT_PKGS=lttng-tools,liblttng-ust1,python3-lttng
DEB_COMPAT_N=25

# deb_compat_root: the Debian root with Debian's LTTng (cached), in
# DEB_COMPAT_TAR; skips the test where it can't be made.
deb_compat_root() {
	sysd_root "$DEB_COMPAT_PKGS"
	DEB_COMPAT_TAR=$SYSD_TAR
}

# What Debian's LTTng files are in ROOT: a line per file the package
# diverts, its link's target or its content's checksum.
deb_compat_files() {
	local r=$1 f
	for f in /usr/bin/lttng /usr/bin/lttng-sessiond /usr/bin/lttng-relayd \
		/lib/systemd/system/lttng-sessiond.service \
		/usr/lib/"$MA"/liblttng-ust{,-common,-tracepoint}.so.1{,.0.0}; do
		if [ -L "$r$f" ]; then
			echo "$f -> $(readlink "$r$f")"
		else
			echo "$f $(sha256sum <"$r$f" 2>&1 | cut -c1-16)"
		fi
	done
}

# deb_compat_tracer TRACE: the tracer names in the env of TRACE's metadata
deb_compat_tracer() {
	local m
	m=$(find "$1" -name metadata | head -n 1)
	[ -n "$m" ] && babeltrace2 --output-format=ctf-metadata "${m%/metadata}" 2>/dev/null |
		grep -E '^\s*(ltt_)?tracer_name ' | tr -d '\t\n'
}

# deb_compat_checks: 33 TAP results (APP: compat_app, built by compat_build)
deb_compat_checks() {
	local R=$TEST_TMP/compat-root p before ldd
	SYSD_TAR=$DEB_COMPAT_TAR sysd_unpack "$R" "$KVM_SRC/systemd/deb-compat-check.sh"
	# no service started from the chroot (invoke-rc.d, deb-systemd-invoke)
	printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
	chmod 0755 "$R/usr/sbin/policy-rc.d"
	cp "$APP" "$R/ltt/bin/compat_app"
	mkdir -p "$R/tmp/debs"
	for p in ltt-tools libltt-ctl1 libltt-ust0 python3-ltt ltt-lttng-compat; do
		cp "$D/${p}_${VER}_$ARCH.deb" "$R/tmp/debs/"
	done
	before=$(deb_compat_files "$R")
	is "$(grep -cE ' [0-9a-f]{16}$' <<<"$before")/$(grep -c ' -> ' <<<"$before")" 7/3 \
		"the root has Debian's LTTng: its 3 programs, unit and 3 libraries, and the libraries' links"

	# --- 1. installed and removed by dpkg in the root (chroot)
	run chroot "$R" sh -c 'dpkg -i /tmp/debs/*.deb'
	is "$RC" 0 "dpkg -i ltt-tools ltt-lttng-compat (and the libraries) beside Debian's LTTng" || diag "$OUT"
	is "$(chroot "$R" dpkg-divert --list | grep -c 'by ltt-lttng-compat$')" 11 \
		"the package diverted 11 of Debian's files (4 programs: lttng, lttng-sessiond, lttng-relayd, lttng-crash, the unit, 3 libraries and their links)"
	is "$(cd "$R/usr/bin" && readlink lttng lttng-sessiond lttng-relayd | tr '\n' ' ')" \
		"lttctl ltt-sessiond ltt-relayd " "lttng, lttng-sessiond, lttng-relayd are ltt's"
	is "$(readlink "$R/lib/systemd/system/lttng-sessiond.service")" ltt-sessiond.service \
		"lttng-sessiond.service is an alias of ltt-sessiond.service"
	like "$(cat "$R/lib/systemd/system/ltt-sessiond.service.d/lttng-compat.conf" 2>&1)" \
		"ExecStart=@/usr/bin/ltt-sessiond lttng-sessiond --lttng-compat" \
		"the unit's drop-in runs the daemon as lttng-sessiond, with --lttng-compat"
	is "$(ls "$R/usr/lib/$MA/ltt/lttng-ust.distrib" | tr '\n' ' ')" \
		"liblttng-ust-common.so.1 liblttng-ust-common.so.1.0.0 liblttng-ust-tracepoint.so.1 liblttng-ust-tracepoint.so.1.0.0 liblttng-ust.so.1 liblttng-ust.so.1.0.0 " \
		"Debian's libraries moved where ldconfig does not look"
	is "$(chroot "$R" ldconfig -p | grep -c 'liblttng-ust.so.1 ')" 1 "ld.so.cache: one liblttng-ust.so.1"
	ldd=$(chroot "$R" ldd /ltt/bin/compat_app 2>&1)
	like "$ldd" "libltt-ust.so.0 => " \
		"a program built with Debian's LTTng-UST headers loads ltt's liblttng-ust.so.1 (which needs libltt-ust.so.0)"
	is "$(readlink -f "$R/usr/lib/$MA/liblttng-ust.so.1")" "$R/usr/lib/$MA/ltt/lttng-ust/liblttng-ust.so.1.0.0" \
		"... the file ltt-run uses"
	run chroot "$R" dpkg -r ltt-lttng-compat
	is "$RC" 0 "dpkg -r ltt-lttng-compat" || diag "$OUT"
	is "$(chroot "$R" dpkg-divert --list | grep -c ltt-lttng-compat)" 0 "no diversion left"
	is "$(deb_compat_files "$R")" "$before" "every one of Debian's files is back as it was"
	ok "$([ ! -e "$R/usr/lib/$MA/ltt/lttng-ust.distrib" ] &&
		[ ! -e "$R/lib/systemd/system/ltt-sessiond.service.d/lttng-compat.conf" ]; echo $?)" \
		"nothing of the package is left"
	unlike "$(chroot "$R" ldd /ltt/bin/compat_app 2>&1)" "libltt-ust" "the program loads Debian's library again"

	# --- 2. under systemd: installed again, booted
	run chroot "$R" dpkg -i /tmp/debs/ltt-lttng-compat_"${VER}_$ARCH".deb
	is "$RC" 0 "dpkg -i ltt-lttng-compat again, for the boot" || diag "$OUT"
	rm -rf "$R/tmp/debs" "$R/usr/sbin/policy-rc.d"
	cp "$KVM_SRC/systemd/compat-app.service" "$R/etc/systemd/system/"
	run systemctl --root="$R" enable ltt-check.service
	[ "$RC" = 0 ] || { echo "Bail out! systemctl enable: $OUT"; exit 1; }
	sysd_initrd "$R"
	KVM_OUT=$TEST_TMP/out-compat
	sysd_boot
	diag "systemd boot and checks with ltt-lttng-compat: ${KVM_BOOT_MS} ms"
	local N=$DEB_COMPAT_N
	is "$(f c_active)/$(f c_alias)" active/ltt-sessiond.service \
		"at boot ltt-sessiond.service runs, lttng-sessiond.service its alias"
	like "$(f c_dropin)" "ltt-sessiond.service.d/lttng-compat.conf" "with the package's drop-in"
	is "$(f c_comm)/$(f c_pidfile)/$(f c_sock)" "lttng-sessiond/main/socket" \
		"its process is named lttng-sessiond, /var/run/lttng/lttng-sessiond.pid holds its pid, LTTng's socket is there"
	is "$(f c_links)" "/usr/bin/lttctl /usr/bin/ltt-sessiond /usr/bin/ltt-relayd " \
		"lttng, lttng-sessiond, lttng-relayd are ltt's"
	is "$(f c_python)" 1 "Debian's python3-lttng finds the session daemon alive"
	is "$(f c_create.rc)$(f c_enable.rc)$(f c_start.rc)$(f c_app.rc)$(f c_stop.rc)$(f c_destroy.rc)" 000000 \
		"lttng create, enable-event, start; systemctl start compat-app.service; lttng stop, destroy"
	bt "$KVM_OUT/c-trace" "$TEST_TMP/c.txt"
	is "$(grep -c ' compat:basic:' "$TEST_TMP/c.txt")/$(discarded "$TEST_TMP/c.txt.err")" "$N/0" \
		"the $N events of the program systemd started (no ltt-run) are in ltt's trace, none lost"
	like "$(deb_compat_tracer "$KVM_OUT/c-trace")" 'ltt_tracer_name = "ltt"' "... ltt's (its metadata says so)"
	is "$(f r_remove.rc)/$(f r_diversions)" 0/0 "dpkg -r ltt-lttng-compat under systemd: no diversion left"
	like "$(f r_version)" "^lttng \\(LTTng Trace Control\\) 2\\.13" "lttng is Debian's again"
	is "$(f r_active)/$(f r_comm)/$(f r_pidfile)" active/ltt-sessiond/ \
		"ltt-sessiond.service restarted without the drop-in: ltt-sessiond, LTTng's pid file not its own"
	is "$(f d_active)/$(f d_unit)/$(f d_exe)/$(f d_pidfile)" \
		"active//lib/systemd/system/lttng-sessiond.service//usr/bin/lttng-sessiond/main" \
		"Debian's lttng-sessiond.service started again, Debian's daemon with its pid file"
	is "$(f r_create.rc)$(f r_enable.rc)$(f r_start.rc)$(f r_app.rc)$(f r_stop.rc)$(f r_destroy.rc)" 000000 \
		"Debian's LTTng: lttng create ... stop, destroy, the program started by its unit"
	bt "$KVM_OUT/r-trace" "$TEST_TMP/r.txt"
	is "$(grep -c ' compat:basic:' "$TEST_TMP/r.txt")" "$N" "Debian's LTTng recorded its $N events"
	is "$(deb_compat_tracer "$KVM_OUT/r-trace")" 'tracer_name = "lttng-ust";' \
		"in LTTng-UST's own trace (its metadata names no ltt_tracer_name): Debian's library and daemon"
	like "$(f r_ldd)" "liblttng-ust.so.1 => /lib/$MA/liblttng-ust.so.1" "the program loads liblttng-ust.so.1 from the usual place"
	unlike "$(f journal)" "ERROR|Error:" "ltt-sessiond.service's journal has no error"
}
