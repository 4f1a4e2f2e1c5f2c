# tests/kernel/lib.sh - run scenarios inside Debian's packaged kernel under
# QEMU (software emulation), with the project's module and programs in the
# initramfs, and bring their outputs back to the host (sourced, bash).
#
# A test file sources this, calls kvm_init (which skips the whole test with
# a reason when QEMU, the kernel image or headers, or the module are not
# there), then kvm_boot SCENARIO... once: one boot runs every scenario
# given, each a guest script tests/kernel/scenarios/NAME.sh writing into its
# own directory, which comes back to $KVM_OUT/NAME on the host.  The test
# then asserts on those files with the TAP helpers of tests/regression/lib.sh.
# tests/kernel/README.md explains how to add a scenario.
#
# Cached in the build directory (tests/kernel/cache), rebuilt when their
# inputs change: the uncompressed kernel, the module built against that
# kernel's headers, the base initramfs (busybox, kmod, the installed
# programs and their libraries, the modules).  Each boot only adds a small
# archive with /init and its scenarios.

# shellcheck source=../regression/lib.sh
. "${LTT_TOP_SRCDIR:-${LTT_TOP_BUILDDIR:?run through make check}}/tests/regression/lib.sh"

KVM_SRC=$LTT_TOP_SRCDIR/tests/kernel
KVM_CACHE=$LTT_TOP_BUILDDIR/tests/kernel/cache
# The programs as 'make install' puts them (tests/kernel/local.mk).
KVM_STAGE=$LTT_TOP_BUILDDIR/tests/kernel/stage
# The module's sources: kmod/ unless LTT_KMOD_SRC names another directory
# (to try the harness with another module).
KVM_KMOD_SRC=${LTT_KMOD_SRC:-$LTT_TOP_SRCDIR/kmod}
# Seconds for a whole boot (QEMU is killed after), and for one scenario in
# the guest.  Guest work runs ~15x slower than native under TCG.
KVM_TIMEOUT=${KVM_TIMEOUT:-300}
KVM_SCENARIO_TIMEOUT=${KVM_SCENARIO_TIMEOUT:-120}
# Seconds a test waits for the cache lock, held by the test that builds the
# module for the guest's kernel (minutes on a loaded 2-core machine): a
# wait for other work, not a bound on this test's own.
KVM_LOCK_TIMEOUT=${KVM_LOCK_TIMEOUT:-1200}
KVM_QEMU=${KVM_QEMU:-qemu-system-x86_64}
# Debian modules the guest needs (with their dependencies); virtio_blk for
# the scratch disk of KVM_DISK_MB.
KVM_DEBIAN_MODULES="virtio_pci virtio_console virtio_blk"
# Set by a test before kvm_boot: the guest gets a zeroed scratch disk of
# that many MiB as /dev/vda (once the scenario loads virtio_blk).
KVM_DISK_MB=${KVM_DISK_MB:-}
# QEMU's exit status once every scenario ran and the results were sent:
# the guest writes 0x2a to isa-debug-exit (guest/init), QEMU exits with
# (0x2a << 1) | 1.
KVM_DONE_STATUS=85
# Programs of the build the guest gets in /ltt/bin besides the installed
# ones, when they are built (tests add theirs with KVM_EXTRA_BINS before
# kvm_init).
KVM_TEST_BINS="examples/hello/hello tests/kernel/kabi_client kmod/tests/ltt-ktest
	kmod/tests/ltt-ptest tests/kernel/kfilter_client"

# The kernel of another Debian release: with LTT_KRELEASE (trixie, sid)
# set, the guest boots that release's kernel, taken with its headers,
# compiler and modules from a root scripts/debian-root.sh makes (cached
# like the other tests' roots: trixie's is the one that builds ltt), and
# the module is built in that root by the compiler its kernel was built
# with.  KVM_KROOT: that root ('' for this machine's kernel); the
# kernel's files are under it.
# shellcheck source=../regression/root-lib.sh
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"
KVM_KROOT=""

# kvm_release_root RELEASE: the root with RELEASE's kernel (trixie, sid),
# made or taken from the cache, on standard output; the reason on
# standard output and status 1 where it can't be made.
kvm_release_root() {
	local pkgs
	if [ "$(id -u)" != 0 ]; then
		echo "Debian $1's kernel is taken from a root made by debootstrap: that needs root"
		return 1
	fi
	case $1 in
	trixie) pkgs=$ROOT_BUILD_PKGS ;;
	*) pkgs=$ROOT_SID_KERNEL_PKGS ;;
	esac
	mkdir -p "$KVM_CACHE"
	"$LTT_TOP_SRCDIR/scripts/debian-root.sh" "$1" "$pkgs" 2>"$KVM_CACHE/kroot-$1.err" || {
		echo "no Debian $1 root with its kernel: $(tail -n 1 "$KVM_CACHE/kroot-$1.err")"
		return 1
	}
}

# kvm_kroot: KVM_KROOT, the root of LTT_KRELEASE's kernel; KVM_KROOT_WHY:
# why it can't be made, or ''.
kvm_kroot() {
	local out
	KVM_KROOT_WHY=""
	[ -n "${LTT_KRELEASE:-}" ] || return 0
	if out=$(kvm_release_root "$LTT_KRELEASE"); then
		KVM_KROOT=$out
	else
		KVM_KROOT_WHY=$out
	fi
}

# kvm_in_kroot CMD...: CMD in KVM_KROOT (in_root), with the sources and
# the cache at their paths (the module's copy links to the sources).
kvm_in_kroot() {
	local ROOT=$KVM_KROOT ROOT_BINDS=("$LTT_TOP_SRCDIR" "$KVM_CACHE")
	in_root "$@"
}

# kvm_kver: the kernel to boot: $LTT_KVER, else the one the linux-image-amd64
# metapackage installs (what scripts/deps.sh --kernel gives CI; in
# KVM_KROOT, its release's), else the newest plain -amd64 kernel (not -rt,
# not -cloud) with an image in /boot.
kvm_kver() {
	local k
	if [ -n "${LTT_KVER:-}" ]; then
		echo "$LTT_KVER"
		return
	fi
	k=$(dpkg-query --admindir="$KVM_KROOT/var/lib/dpkg" -W -f='${Depends}' linux-image-amd64 2>/dev/null |
		sed -n 's/^linux-image-\([^ ,]*-amd64\).*/\1/p')
	if [ -n "$k" ] && [ -f "$KVM_KROOT/boot/vmlinuz-$k" ]; then
		echo "$k"
		return
	fi
	# shellcheck disable=SC2010
	for k in $(ls "$KVM_KROOT/lib/modules" 2>/dev/null | grep -- '-amd64$' |
		grep -v -- '-rt-amd64$\|-cloud-amd64$' | sort -V -r); do
		[ -f "$KVM_KROOT/boot/vmlinuz-$k" ] && { echo "$k"; return; }
	done
}

# kvm_missing: why this machine cannot boot the test kernel, or nothing.
kvm_missing() {
	local c
	command -v "$KVM_QEMU" >/dev/null ||
		{ echo "$KVM_QEMU not installed (scripts/deps.sh --kernel installs it)"; return; }
	[ -n "$KVER" ] ||
		{ echo "no Debian -amd64 kernel in $KVM_KROOT/lib/modules (install linux-image-amd64)"; return; }
	[ -f "$KVM_KROOT/boot/vmlinuz-$KVER" ] ||
		{ echo "$KVM_KROOT/boot/vmlinuz-$KVER missing (install linux-image-$KVER)"; return; }
	[ -r "$KVM_KROOT/boot/vmlinuz-$KVER" ] ||
		{ echo "$KVM_KROOT/boot/vmlinuz-$KVER is not readable by this user (run as root)"; return; }
	[ -f "$KVM_KROOT/usr/src/linux-headers-$KVER/Makefile" ] ||
		{ echo "kernel headers $KVM_KROOT/usr/src/linux-headers-$KVER missing (install linux-headers-amd64)"; return; }
	[ -x /bin/busybox ] ||
		{ echo "/bin/busybox missing (install busybox-static)"; return; }
	for c in kmod depmod cpio ldconfig xz od; do
		command -v $c >/dev/null ||
			{ echo "$c not installed (scripts/deps.sh --kernel)"; return; }
	done
	[ -d "$KVM_STAGE/usr" ] ||
		{ echo "$KVM_STAGE missing: run the kernel tests through make check"; return; }
}

# The known workloads of the kernel tracing scenarios.
KVM_TEST_BINS="$KVM_TEST_BINS tests/kernel/kworkload"
# The known process of the kernel context test.
KVM_TEST_BINS="$KVM_TEST_BINS tests/kernel/kctxload"
# The clock slewer of the slewing scenario (adjtimex(2); the guest only).
KVM_TEST_BINS="$KVM_TEST_BINS tests/kernel/kslew"

# kvm_lock: serialize cache updates between tests run in parallel.
kvm_lock() {
	mkdir -p "$KVM_CACHE"
	exec {KVM_LOCK_FD}>"$KVM_CACHE/lock"
	flock -w "$KVM_LOCK_TIMEOUT" "$KVM_LOCK_FD"
}

kvm_unlock() {
	exec {KVM_LOCK_FD}>&-
}

# kvm_key FILE...: a digest of the files' names, sizes and times.
kvm_key() {
	stat -L -c '%n %s %Y' "$@" 2>&1 | sha256sum | cut -c1-16
}

# kvm_vmlinux: the kernel to boot, uncompressed once (a PVH-capable ELF
# boots ~3 s faster under TCG than bzImage's own decompressor).  Falls back
# to the compressed image when its payload is not xz.
kvm_vmlinux() {
	local img=$KVM_KROOT/boot/vmlinuz-$KVER out=$KVM_CACHE/vmlinux-$KVER ss pm off len key
	KVM_KERNEL=$out
	key=$(kvm_key "$img")
	[ -s "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$key" ] && return 0
	rm -f "$out" "$out.key"
	ss=$(od -An -tu1 -j $((0x1f1)) -N1 "$img" | tr -d ' ')
	[ "$ss" = 0 ] && ss=4
	pm=$(((ss + 1) * 512))
	# shellcheck disable=SC2046
	set -- $(od -An -tu4 -j $((0x248)) -N8 "$img")
	off=$1 len=$2
	if tail -c +$((pm + off + 1)) "$img" | head -c "$len" |
		xz -dcq --single-stream >"$out.tmp" 2>/dev/null &&
		[ "$(head -c 4 "$out.tmp" | od -An -c | tr -d ' ')" = '177ELF' ]; then
		mv "$out.tmp" "$out"
		echo "$key" >"$out.key"
	else
		rm -f "$out.tmp"
		KVM_KERNEL=$img
	fi
}

# kvm_sources DIR: DIR's source files (not build products), NUL-separated.
kvm_sources() {
	(cd "$1" && find . -type f ! -name '*.o' ! -name '*.ko' ! -name '*.mod' \
		! -name '*.mod.c' ! -name '.*' ! -name Module.symvers ! -name modules.order \
		-print0)
}

# kvm_module: build the module from $KVM_KMOD_SRC against $KVER's headers
# in a copy (the source tree stays clean), once per change of its sources
# (or of include/, or of the filter VM it shares with user space, which
# goes into the copy's filter-vm/ as the build tree's does: kmod/Kbuild).
# The copy sits in a tree of symbolic links to the rest of the sources, so
# relative paths out of kmod/ still resolve.  Sets KVM_KOS (the .ko
# files), or KVM_KMOD_SKIP (no module to build) or KVM_KMOD_ERROR (the
# build failed; its log in KVM_KMOD_LOG).
kvm_module() {
	local tree=$KVM_CACHE/kmod-$KVER dir=$KVM_CACHE/kmod-$KVER/kmod key e
	KVM_KOS="" KVM_KMOD_SKIP="" KVM_KMOD_ERROR="" KVM_KMOD_LOG=$tree.log
	if [ ! -f "$KVM_KMOD_SRC/Kbuild" ]; then
		KVM_KMOD_SKIP="kmod/ltt-tracer.ko not built: ${LTT_KMOD_SRC:-kmod/} has no Kbuild yet"
		return 1
	fi
	key=$( (kvm_sources "$KVM_KMOD_SRC" | sort -z | (cd "$KVM_KMOD_SRC" && xargs -0 sha256sum)
		kvm_sources "$LTT_TOP_SRCDIR/include" | sort -z |
			(cd "$LTT_TOP_SRCDIR/include" && xargs -0 sha256sum)
		# the filter VM and the ABI the module shares with user space
		# (src/abi: reached through the tree's link to src/)
		(cd "$LTT_TOP_SRCDIR" && sha256sum src/filter-vm/*.[ch] src/abi/*.h)
		echo "$KVM_KMOD_SRC") | sha256sum | cut -c1-16)
	if [ "$(cat "$tree/.key" 2>/dev/null)" != "$key" ]; then
		rm -rf "$tree"
		mkdir -p "$dir"
		for e in "$LTT_TOP_SRCDIR"/*; do
			[ "${e##*/}" = kmod ] || ln -s "$e" "$tree/${e##*/}"
		done
		kvm_sources "$KVM_KMOD_SRC" | (cd "$KVM_KMOD_SRC" && cpio -0pdm --quiet "$dir")
		mkdir -p "$dir/filter-vm"
		cp -p "$LTT_TOP_SRCDIR"/src/filter-vm/*.[ch] "$dir/filter-vm/"
		# kmod/Makefile when there is one, else Kbuild directly.
		if [ -f "$dir/Makefile" ]; then
			set -- make -C "$dir" KERNELDIR="/usr/src/linux-headers-$KVER" LTT_WERROR=1
		else
			set -- make -C "/usr/src/linux-headers-$KVER" M="$dir" LTT_WERROR=1 modules
		fi
		# Not the make check's jobserver or command-line variables; another
		# release's kernel: by its own compiler, in its root.
		if [ -n "$KVM_KROOT" ]; then
			set -- kvm_in_kroot env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
				PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"
		else
			set -- env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$@"
		fi
		if ! "$@" >"$KVM_KMOD_LOG" 2>&1; then
			KVM_KMOD_ERROR="the module did not build against $KVER"
			return 1
		fi
		echo "$key" >"$tree/.key"
	fi
	KVM_KOS=$(find "$dir" -name '*.ko' | sort | tr '\n' ' ')
	if [ ! -f "$dir/ltt-tracer.ko" ]; then
		KVM_KMOD_ERROR="make -C kmod built no ltt-tracer.ko"
		return 1
	fi
}

# kvm_copy_file ROOT PATH: PATH (symlinks followed) at the same place in ROOT.
kvm_copy_file() {
	mkdir -p "$1$(dirname "$2")"
	cp -L "$2" "$1$2"
}

# kvm_copy_libs ROOT BIN: the shared libraries BIN needs, from the host,
# except those the staged install provides.
kvm_copy_libs() {
	local root=$1 bin=$2 lib
	LD_LIBRARY_PATH=$KVM_STAGE$KVM_LIBDIR ldd "$bin" 2>/dev/null |
		awk '/=> \//{print $3} /^\t\/lib/{print $1}' | while read -r lib; do
		case $lib in "$KVM_STAGE"/*) continue ;; esac
		[ -e "$root$lib" ] || kvm_copy_file "$root" "$lib"
	done
}

# kvm_real_bin PATH: the program libtool's wrapper script PATH runs, or PATH.
kvm_real_bin() {
	local d=${1%/*} b=${1##*/}
	if [ -x "$d/.libs/$b" ] && ! head -c 4 "$1" | grep -q ELF; then
		echo "$d/.libs/$b"
	else
		echo "$1"
	fi
}

# kvm_base: the initramfs every boot starts from, in KVM_BASE.
kvm_base() {
	local out=$KVM_CACHE/base-$KVER.cpio key r f b m p rel kos_list bins=""
	KVM_BASE=$out
	KVM_LIBDIR=$(sed -n 's/^libdir=//p' "$LTT_TOP_BUILDDIR/src/ust/libltt-ust.la" 2>/dev/null |
		tr -d "'")
	KVM_LIBDIR=${KVM_LIBDIR:-/usr/local/lib}
	for b in $KVM_TEST_BINS ${KVM_EXTRA_BINS:-}; do
		f=$(kvm_real_bin "$LTT_TOP_BUILDDIR/$b")
		[ -x "$f" ] && bins="$bins $f"
	done
	kos_list=${KVM_KOS:-}
	# shellcheck disable=SC2086
	key=$(kvm_key /bin/busybox /usr/bin/kmod "$KVM_STAGE.stamp" $bins $kos_list \
		"$KVM_SRC/lib.sh" "$KVM_KROOT/lib/modules/$KVER/modules.dep")
	[ -s "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$key" ] && return 0
	r=$(mktemp -d "$KVM_CACHE/base.XXXXXX")
	mkdir -p "$r"/{bin,sbin,usr/bin,usr/sbin,lib64,proc,sys,dev,tmp,run,etc,mnt,root,out} \
		"$r/ltt/bin" "$r/lib/modules/$KVER/extra" "$r/var/tmp"
	chmod 1777 "$r/tmp" "$r/var/tmp"
	chmod 700 "$r/root"
	# busybox applets in /bin, except the module tools kmod provides.
	cp /bin/busybox "$r/bin/busybox"
	for b in $(/bin/busybox --list); do
		case $b in
		busybox | insmod | rmmod | modprobe | lsmod | modinfo | depmod | linuxrc | init) ;;
		*) ln -s busybox "$r/bin/$b" ;;
		esac
	done
	kvm_copy_libs "$r" /bin/busybox
	kvm_copy_file "$r" /usr/bin/kmod
	kvm_copy_libs "$r" /usr/bin/kmod
	for b in insmod rmmod modprobe lsmod modinfo depmod; do
		ln -s /usr/bin/kmod "$r/usr/sbin/$b"
	done
	# Debian's modules the guest needs, then the project's.
	for m in $KVM_DEBIAN_MODULES; do
		modprobe -d "$KVM_KROOT/" -S "$KVER" --show-depends "$m" | awk '$1 == "insmod" {print $2}' |
			while read -r p; do
				rel=${p#"$KVM_KROOT"/lib/modules/"$KVER"/}
				mkdir -p "$r/lib/modules/$KVER/$(dirname "$rel")"
				cp "$p" "$r/lib/modules/$KVER/$rel"
			done
	done
	cp "$KVM_KROOT/lib/modules/$KVER"/modules.{order,builtin,builtin.modinfo} "$r/lib/modules/$KVER/"
	for f in $kos_list; do
		cp "$f" "$r/lib/modules/$KVER/extra/"
	done
	depmod -b "$r" "$KVER"
	# The project as installed, and the test programs.
	cp -a "$KVM_STAGE/." "$r/"
	rm -rf "$r$KVM_LIBDIR"/*.la "$r$KVM_LIBDIR"/ltt/*.la "$r/usr/local/share/man" "$r/usr/local/include"
	# (ltt/*.so: libltt-ctl's XML module, which save and load dlopen())
	for f in "$r/usr/local/bin"/* "$r$KVM_LIBDIR"/*.so* "$r$KVM_LIBDIR"/ltt/*.so \
		"$r$KVM_LIBDIR"/ltt/libexec/*; do
		[ -f "$f" ] && kvm_copy_libs "$r" "$f"
	done
	for f in $bins; do
		cp "$f" "$r/ltt/bin/"
		kvm_copy_libs "$r" "$f"
	done
	[ -e "$r/lib64/ld-linux-x86-64.so.2" ] || cp -L /lib64/ld-linux-x86-64.so.2 "$r/lib64/"
	kvm_etc "$r"
	ldconfig -r "$r"
	(cd "$r" && find . ! -name . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --quiet -R 0:0) >"$out.tmp"
	rm -rf "$r"
	mv "$out.tmp" "$out"
	echo "$key" >"$out.key"
}

# kvm_etc ROOT: users, groups and the loader's configuration of the guest.
# 'tracer' (uid 1000) is in the tracing group, 'nobody' in none.
kvm_etc() {
	local group
	group=$(sed -n 's/^#define LTT_TRACING_GROUP "\(.*\)"/\1/p' "$LTT_TOP_BUILDDIR/config.h")
	cat >"$1/etc/passwd" <<EOF
root:x:0:0:root:/root:/bin/sh
tracer:x:1000:1000:tracer:/home/tracer:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/sh
EOF
	cat >"$1/etc/group" <<EOF
root:x:0:
${group:-tracing}:x:900:tracer
tracer:x:1000:
nogroup:x:65534:
EOF
	mkdir -p "$1/home/tracer"
	# For the shell of tests/kernel/vm.sh --shell: the scenarios' helpers.
	cat >"$1/etc/profile" <<'EOF'
export LTT_SCENARIO=shell LTT_OUT=/out/shell
mkdir -p "$LTT_OUT"
. /ltt/guest-lib.sh
EOF
	echo "$KVM_LIBDIR" >"$1/etc/ld.so.conf"
	echo ltt-guest >"$1/etc/hostname"
}

# kvm_init [--module]: TEST_TMP, the kernel, the base initramfs; skips the
# whole test (TAP 1..0 # SKIP) when this machine cannot run it.  --module:
# the test needs ltt-tracer.ko.
kvm_init() {
	local need_module=0 why
	[ "${1:-}" = --module ] && need_module=1
	mkdir -p "$KVM_CACHE"
	kvm_kroot
	[ -z "$KVM_KROOT_WHY" ] || skip_all "$KVM_KROOT_WHY"
	KVER=$(kvm_kver)
	why=$(kvm_missing)
	[ -z "$why" ] || skip_all "$why"
	test_init
	trap _kvm_cleanup EXIT
	kvm_lock || { echo "Bail out! $KVM_CACHE/lock held too long"; exit 1; }
	kvm_vmlinux
	KVM_KOS=""
	if ! kvm_module && [ $need_module = 1 ]; then
		kvm_unlock
		[ -z "$KVM_KMOD_SKIP" ] || skip_all "$KVM_KMOD_SKIP"
		echo "Bail out! $KVM_KMOD_ERROR (make -C kmod KERNELDIR=/usr/src/linux-headers-$KVER)"
		tail -n 30 "$KVM_KMOD_LOG" | sed 's/^/# /'
		exit 1
	fi
	kvm_base
	kvm_unlock
	KVM_OUT=$TEST_TMP/out
}

# kvm_initrd SCENARIO...: the base initramfs plus /init and the scenarios,
# in $TEST_TMP/initrd.cpio (the kernel unpacks concatenated archives).
kvm_initrd() {
	local r=$TEST_TMP/boot s
	rm -rf "$r"
	mkdir -p "$r/ltt/scenarios"
	install -m 0755 "$KVM_SRC/guest/init" "$r/init"
	cp "$KVM_SRC/guest/lib.sh" "$r/ltt/guest-lib.sh"
	: >"$r/ltt/scenarios/list"
	for s in "$@"; do
		[ -f "$KVM_SRC/scenarios/$s.sh" ] ||
			{ echo "Bail out! no scenario tests/kernel/scenarios/$s.sh"; exit 1; }
		cp "$KVM_SRC/scenarios/$s.sh" "$r/ltt/scenarios/"
		echo "$s" >>"$r/ltt/scenarios/list"
	done
	echo "$KVM_SCENARIO_TIMEOUT" >"$r/ltt/scenario-timeout"
	(cd "$r" && find . ! -name . -print0 | cpio --null -o -H newc --quiet -R 0:0) >"$r.cpio"
	cat "$KVM_BASE" "$r.cpio" >"$TEST_TMP/initrd.cpio"
}

# kvm_qemu_args: QEMU's command line in the array KVM_ARGS.  Software
# emulation (this kind of machine's /dev/kvm cannot run a stock kernel);
# -cpu max gives the guest RDRAND, so getrandom() does not block.
# no_timer_check: on a loaded host the emulated guest can miss the timer
# interrupts the kernel counts at boot to check the IO-APIC, and then
# panics ("IO-APIC + timer doesn't work", seen in a CI run); the check
# is for real hardware.
# KVM_SMP: the guest's CPUs (2; the per-CPU paths need more than one).
# thread=single: one host thread runs every emulated CPU in turn, so no
# emulated CPU starves while another spins waiting on it (a cross-CPU
# call): with a thread each, a loaded host once left CPU 0 taking no
# timer interrupt for minutes while CPU 1 waited on it (soft lockups, a
# CI run's systemd boot and this stop's kmod_core at a load of 10).  On
# this 2-core kind of machine it costs nothing measurable: kmod_core
# took 30.9 s of guest time so, 32.9 s with a thread each.
kvm_qemu_args() {
	rm -f "$TEST_TMP/out.tar"
	KVM_ARGS=(-accel tcg,thread=single -cpu max -m "${KVM_MEM:-1G}" -smp "${KVM_SMP:-2}" -nographic -no-reboot -nic none
		-kernel "$KVM_KERNEL" -initrd "$TEST_TMP/initrd.cpio"
		-append "console=ttyS0 quiet panic=-1 no_timer_check ${KVM_APPEND:-}"
		-device "isa-debug-exit,iobase=0xf4,iosize=0x04"
		-device virtio-serial-pci
		-chardev "file,id=out0,path=$TEST_TMP/out.tar"
		-device "virtserialport,chardev=out0,name=out0")
	if [ -n "$KVM_DISK_MB" ]; then
		rm -f "$TEST_TMP/disk.img"
		truncate -s "${KVM_DISK_MB}M" "$TEST_TMP/disk.img"
		KVM_ARGS+=(-drive "file=$TEST_TMP/disk.img,format=raw,if=virtio,cache=unsafe")
	fi
}

# kvm_boot SCENARIO...: one boot running the scenarios in order; their
# outputs land in $KVM_OUT/SCENARIO/.  Returns once QEMU has exited; bails
# out of the test (with the console's end) when the guest did not finish.
kvm_boot() {
	local up end
	kvm_initrd "$@"
	kvm_run
	up=$(sed -n 's/^userspace //p' "$KVM_OUT/boot-time")
	end=$(sed -n 's/^end //p' "$KVM_OUT/boot-time")
	diag "boot with $# scenario(s): ${KVM_BOOT_MS} ms; guest uptime at /init ${up} s, at the end ${end} s"
	diag "scenarios (guest seconds): $(kvm_times)"
}

# kvm_run: boot $TEST_TMP/initrd.cpio, whose guest sends its results as a
# tar through the virtio-serial port and then exits QEMU with
# KVM_DONE_STATUS (guest/init does); the results land in $KVM_OUT, the
# boot's wall time in KVM_BOOT_MS.  Bails out of the test (with the
# console's end) when the guest did not finish.
kvm_run() {
	local t0 t1 status attempt
	kvm_qemu_args
	mkdir -p "$KVM_OUT"
	t0=$(date +%s%N)
	for attempt in 1 2; do
		timeout -k 5 "$KVM_TIMEOUT" "$KVM_QEMU" "${KVM_ARGS[@]}" \
			</dev/null >"$TEST_TMP/console.log" 2>&1 &
		KVM_PID=$!
		wait "$KVM_PID"
		status=$?
		KVM_PID=""
		# QEMU itself crashed (SIGILL, SIGABRT, SIGBUS, SIGSEGV; CI saw
		# one in SeaBIOS): the host's emulator, not the guest (a guest
		# panic reboots, which -no-reboot turns into an exit), so once
		# more; a timeout (124, 137) or a second crash is reported
		case $status in 132|134|135|139) ;; *) break ;; esac
		[ "$attempt" = 1 ] || break
		diag "QEMU died of signal $((status - 128)) (emulator crash): booting again"
	done
	t1=$(date +%s%N)
	KVM_BOOT_MS=$(((t1 - t0) / 1000000))
	# (85 comes only after the results were sent: guest/init; its
	# console line LTT_GUEST_DONE may be lost as QEMU exits)
	if [ "$status" != "$KVM_DONE_STATUS" ] ||
		! tar -xf "$TEST_TMP/out.tar" -C "$KVM_OUT" 2>"$TEST_TMP/tar.err"; then
		echo "Bail out! the guest did not finish (qemu status $status after ${KVM_BOOT_MS} ms)"
		tail -n 40 "$TEST_TMP/console.log" | sed 's/^/# /'
		sed 's/^/# /' "$TEST_TMP/tar.err" 2>/dev/null
		exit 1
	fi
}

# kvm_shell SCENARIO...: like kvm_boot, but the console is this terminal and
# the guest gives a shell once the scenarios ran (tests/kernel/vm.sh
# --shell); its results are sent when that shell exits.
kvm_shell() {
	kvm_initrd "$@"
	KVM_APPEND="${KVM_APPEND:-} ltt.shell"
	kvm_qemu_args
	mkdir -p "$KVM_OUT"
	"$KVM_QEMU" "${KVM_ARGS[@]}"
	tar -xf "$TEST_TMP/out.tar" -C "$KVM_OUT" 2>/dev/null
}

# kvm_times: each scenario's guest time, "name 1.23s ...".
kvm_times() {
	local d t
	for d in "$KVM_OUT"/*/; do
		[ -f "$d/time" ] || continue
		t=$(cat "$d/time")
		printf '%s %ss ' "$(basename "$d")" "$t"
	done
}

# kvm_file SCENARIO NAME: the content of a file the scenario wrote.
kvm_file() {
	cat "$KVM_OUT/$1/$2" 2>/dev/null
}

# kvm_map_sql SCENARIO FILE [MAP [KEY]]: "key value ..." on one line, the
# rows of kernel map MAP (calls) whose key is LIKE KEY (any) in the
# export-maps output FILE of SCENARIO, read by sqlite3, ordered by key
kvm_map_sql() {
	{ cat "$KVM_OUT/$1/$2" && echo "SELECT key, value FROM vmap WHERE channel_type = 'kernel'
		AND group_type = 'kernel-global' AND channel_name = '${3:-calls}'
		AND key LIKE '${4:-%}' ORDER BY key;"; } |
		sqlite3 -batch -separator ' ' :memory: | tr '\n' ' '
}

# kvm_counts SCENARIO TRACE: babeltrace2 reads the kernel trace TRACE of
# SCENARIO; sets RC (its status, what it said shown otherwise), TEST_N
# (its ltt_test_event events) and LOGGER_N (its ltt_logger events)
kvm_counts() {
	run timeout "$BT_TIMEOUT" babeltrace2 "$KVM_OUT/$1/$2/kernel"
	[ "$RC" = 0 ] || diag "$ERR"
	TEST_N=$(grep -c ' ltt_test_event: ' <<<"$STDOUT")
	LOGGER_N=$(grep -c ' ltt_logger: ' <<<"$STDOUT")
}

# kvm_discarded SCENARIO FILE: the discarded events of every channel of the
# list output in FILE, summed (0 when it shows none)
kvm_discarded() {
	kvm_file "$1" "$2" | sed -n 's/^ *discarded events: //p' | awk '{ s += $1 } END { print s + 0 }'
}

# kvm_scenario_ok SCENARIO: one test: the scenario's script exited 0
# (shows its log and the kernel's messages otherwise).
kvm_scenario_ok() {
	local rc
	rc=$(kvm_file "$1" rc)
	is "$rc" 0 "scenario $1 ran to its end in the guest"
	[ -s "$KVM_OUT/$1/leftover" ] &&
		diag "scenario $1 left processes running (killed after it):" "$(cat "$KVM_OUT/$1/leftover")"
	[ "$rc" = 0 ] && return 0
	diag "--- $1 log:"
	sed 's/^/# /' "$KVM_OUT/$1/log" 2>/dev/null | tail -n 40
	diag "--- $1 kernel log:"
	sed 's/^/# /' "$KVM_OUT/$1/dmesg" 2>/dev/null | tail -n 20
	return 1
}

# kvm_kernel_clean SCENARIO: one test: the kernel logged no oops, BUG or
# warning while the scenario ran.
kvm_kernel_clean() {
	local bad
	bad=$(grep -E 'BUG:|Oops|WARNING:|general protection|Call Trace|KASAN|UBSAN|kernel BUG' \
		"$KVM_OUT/$1/dmesg" 2>/dev/null)
	is "$bad" "" "scenario $1: no kernel oops, BUG or warning"
}

# On exit: QEMU (through its timeout process) by pid, then the temp files.
_kvm_cleanup() {
	[ -n "${KVM_PID:-}" ] && kill -TERM "$KVM_PID" 2>/dev/null && wait "$KVM_PID"
	_cleanup
}
