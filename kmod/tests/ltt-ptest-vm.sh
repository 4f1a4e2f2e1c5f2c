#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ltt-ptest-vm.sh KO PTEST OUTDIR - boot Debian's packaged kernel under
# QEMU (software emulation) with busybox, ltt-tracer.ko (KO) and the static
# ltt-ptest binary (PTEST), run "ltt-ptest /out /dev/vda" (a scratch
# virtio disk) in the guest, bring /out back into OUTDIR, then run
# ltt-ptest-check.sh on it.  A developer's runner until tests/kernel/
# wires ltt-ptest in; the kernel is the newest -amd64 in /lib/modules
# (LTT_KVER overrides).  Exit status: that of the checks (1 on any error).
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: $0 KO PTEST OUTDIR" >&2; exit 2; }
ko=$(realpath "$1") ptest=$(realpath "$2") out=$(realpath -m "$3")
here=$(cd "$(dirname "$0")" && pwd)
kver=${LTT_KVER:-$(ls /lib/modules | grep -- '-amd64$' | sort -V | tail -1)}
tmp=$(mktemp -d)
qpid=""
cleanup() {
	[ -z "$qpid" ] || kill "$qpid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# The kernel: its xz payload uncompressed (boots faster under TCG).
cache=${XDG_CACHE_HOME:-$HOME/.cache}/ltt-ptest
vmlinux=$cache/vmlinux-$kver
if [ ! -s "$vmlinux" ]; then
	mkdir -p "$cache"
	python3 - "/boot/vmlinuz-$kver" "$vmlinux.tmp" <<'EOF'
import lzma, struct, sys
img = open(sys.argv[1], 'rb').read()
setup = ((img[0x1f1] or 4) + 1) * 512
off, length = struct.unpack_from('<II', img, 0x248)
payload = img[setup + off:setup + off + length]
if payload[:6] != b'\xfd7zXZ\x00':
    sys.exit('not an xz payload')
open(sys.argv[2], 'wb').write(lzma.LZMADecompressor().decompress(payload))
EOF
	mv "$vmlinux.tmp" "$vmlinux"
fi

# The initramfs: busybox, the virtio modules, the tracer, the test.
root=$tmp/root
mkdir -p "$root"/{bin,proc,sys,dev,tmp,out,mods}
cp /bin/busybox "$root/bin/busybox"
mods=""
for m in virtio_pci virtio_blk virtio_console; do
	for p in $(modprobe -S "$kver" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'); do
		b=$(basename "$p")
		case " $mods " in *" $b "*) continue ;; esac
		cp "$p" "$root/mods/"
		mods="$mods $b"
	done
done
cp "$ko" "$root/mods/ltt-tracer.ko"
cp "$ptest" "$root/bin/ltt-ptest"
cat >"$root/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $mods; do insmod /mods/\$m; done
ip link set lo up
dmesg -c >/dev/null
insmod /mods/ltt-tracer.ko && echo LTT_MODULE_LOADED
(cd /out && ltt-ptest /out /dev/vda) >/out/log 2>&1
echo \$? >/out/rc
rmmod ltt-tracer && echo LTT_MODULE_UNLOADED
dmesg >/out/dmesg
cat /out/log
tar cf /dev/vport0p1 -C / out
echo LTT_GUEST_DONE
poweroff -f
EOF
chmod 755 "$root/init"
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) >"$tmp/initrd.cpio"
truncate -s 16M "$tmp/disk.img"

timeout 300 qemu-system-x86_64 -accel tcg -cpu max -m 1G -smp 2 -nographic -no-reboot \
	-kernel "$vmlinux" -initrd "$tmp/initrd.cpio" -nic none \
	-append 'console=ttyS0 quiet panic=-1' \
	-drive file="$tmp/disk.img",format=raw,if=virtio,cache=unsafe \
	-device virtio-serial-pci -chardev file,id=vs0,path="$tmp/out.tar" \
	-device virtserialport,chardev=vs0,name=out0 \
	</dev/null >"$tmp/console.log" 2>&1 &
qpid=$!
wait "$qpid" || true
qpid=""
grep -q LTT_GUEST_DONE "$tmp/console.log" || {
	echo "ltt-ptest-vm: the guest did not finish:" >&2
	tail -n 30 "$tmp/console.log" >&2
	exit 1
}
rm -rf "$out"
mkdir -p "$out"
tar xf "$tmp/out.tar" -C "$out" --strip-components=1
cp "$tmp/console.log" "$out/console.log"
"$here/ltt-ptest-check.sh" "$out"
