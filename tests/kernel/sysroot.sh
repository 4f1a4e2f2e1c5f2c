# tests/kernel/sysroot.sh - a Debian root with systemd as PID 1 for the
# tests that boot one under QEMU (test_systemd.sh: ltt by make install;
# test_deb.sh: ltt by its Debian packages).  Sourced after lib.sh and
# kvm_init.  The root comes from Debian's packages (mmdebstrap), cached
# in the build; the guest's checks run from ltt-check.service and send
# their results back as guest/init does (kvm_run).

# Debian's packages of the root: systemd, what ltt's programs link,
# adduser (ltt-tools' postinst makes the tracing group with it) and
# python3 (python3-ltt's).
SYSD_PKGS="systemd,systemd-sysv,kmod,procps,adduser,python3,libpopt0,libxml2,libkmod2,liburcu8,libuuid1,libbpf1"

# sysd_root [PKG,...]: the Debian root as a tar, cached (SYSD_TAR), made
# again when the package list, mmdebstrap or the apt sources change; with
# PKGs, Debian's packages added to SYSD_PKGS, in a tar of its own (named
# after them).  Skips the test (skip_all) where it can't be made: no
# package mirror answers.
sysd_root() {
	SYSD_EXTRA=${1:-}
	command -v mmdebstrap >/dev/null ||
		skip_all "mmdebstrap is not installed (scripts/deps.sh --kernel)"
	kvm_lock || { echo "Bail out! $KVM_CACHE/lock held too long"; exit 1; }
	if ! sysd_root_make; then
		kvm_unlock
		tail -n 5 "$KVM_CACHE/systemd-root.log" | sed 's/^/# /'
		skip_all "mmdebstrap could not make a Debian root (no package mirror?)"
	fi
	kvm_unlock
}

sysd_root_make() {
	local key sources f
	sources=$(ls /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null)
	SYSD_TAR=$KVM_CACHE/systemd-root${SYSD_EXTRA:+-$(echo "$SYSD_EXTRA" | cksum | cut -d' ' -f1)}.tar
	key=$(
		echo "$SYSD_PKGS${SYSD_EXTRA:+,$SYSD_EXTRA}"
		mmdebstrap --version
		for f in $sources; do sha256sum "$f"; done
	)
	[ -s "$SYSD_TAR" ] && [ "$(cat "$SYSD_TAR.key" 2>/dev/null)" = "$key" ] && return 0
	# shellcheck disable=SC2086
	if ! timeout 900 mmdebstrap --variant=minbase --include="$SYSD_PKGS${SYSD_EXTRA:+,$SYSD_EXTRA}" \
		"$(. /etc/os-release && echo "$VERSION_CODENAME")" "${SYSD_TAR%.tar}.new.tar" $sources \
		>"$KVM_CACHE/systemd-root.log" 2>&1; then
		rm -rf "${SYSD_TAR%.tar}.new.tar"
		return 1
	fi
	mv "${SYSD_TAR%.tar}.new.tar" "$SYSD_TAR"
	echo "$key" >"$SYSD_TAR.key"
}

# sysd_unpack DIR CHECK: the Debian root in DIR, with the guest's modules
# (the base initramfs's, indexed), the users tracer (uid 1000) and other
# (1001), /ltt/check.sh (the test's guest side, CHECK) run by
# ltt-check.service once the session daemon is up, and no login prompt.
sysd_unpack() {
	local r=$1
	mkdir -p "$r"
	tar -xf "$SYSD_TAR" -C "$r" || { echo "Bail out! the Debian root does not unpack"; exit 1; }
	(cd "$r" && cpio -idmu --quiet "lib/modules/$KVER/*" <"$KVM_BASE") && depmod -b "$r" "$KVER" ||
		{ echo "Bail out! no guest modules"; exit 1; }
	cat >>"$r/etc/passwd" <<EOF2
tracer:x:1000:1000:tracer:/home/tracer:/bin/bash
other:x:1001:1001:other:/home/other:/bin/bash
EOF2
	printf 'tracer:x:1000:\nother:x:1001:\n' >>"$r/etc/group"
	printf 'tracer:*:19000:0:99999:7:::\nother:*:19000:0:99999:7:::\n' >>"$r/etc/shadow"
	mkdir -p "$r/home/tracer" "$r/home/other" "$r/ltt/bin" "$r/out"
	chown 1000:1000 "$r/home/tracer"
	chown 1001:1001 "$r/home/other"
	install -m 0755 "$2" "$r/ltt/check.sh"
	cp "$KVM_SRC/guest/lib.sh" "$r/ltt/guest-lib.sh"
	cp "$KVM_SRC/systemd/lib.sh" "$r/ltt/sysd-lib.sh"
	cp "$KVM_SRC/systemd/ltt-check.service" "$r/etc/systemd/system/"
	echo ltt-guest >"$r/etc/hostname"
	for u in serial-getty@ttyS0.service getty@tty1.service; do
		ln -sf /dev/null "$r/etc/systemd/system/$u"
	done
}

# sysd_initrd DIR: DIR, with systemd as /init, as the guest's whole
# initramfs ($TEST_TMP/initrd.cpio, what kvm_run boots); DIR is removed.
sysd_initrd() {
	local r=$1
	ln -sf /lib/systemd/systemd "$r/init"
	ldconfig -r "$r"
	(cd "$r" && find . ! -name . -print0 | cpio --null -o -H newc --quiet -R 0:0) >"$TEST_TMP/initrd.cpio" ||
		{ echo "Bail out! no initramfs"; exit 1; }
	rm -rf "$r"
}

# sysd_boot: boot that initramfs (kvm_run), systemd as PID 1, with 2 GiB
# and one CPU: these boots check packaging and units, not per-CPU paths,
# and a CI run saw a two-CPU systemd boot hang (a soft lockup of CPU 1
# while CPU 0 took no timer interrupts: one emulated CPU starved on a
# loaded host, which a cross-CPU call then waits for).
sysd_boot() {
	KVM_SMP=1 KVM_MEM=2G KVM_APPEND="systemd.show_status=false" kvm_run
}
