# /ltt/sysd-lib.sh - what the guest checks of the systemd tests share
# (check.sh: test_systemd.sh; deb-check.sh: test_deb.sh), sourced first.
# ltt-check.service runs the check once systemd (PID 1) started
# ltt-sessiond.service.  It records facts as files in /out (result,
# capture: the scenarios' helpers), which sysd_finish sends to the host
# as a tar through the virtio-serial port; QEMU then exits through
# isa-debug-exit with 85 (results sent) or 87 (not sent).  The host
# asserts.  Nothing waits with sleep alone: each wait polls a condition,
# bounded.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/ltt/bin
export HOME=/root LANG=C
OUT=/out
UNIT=ltt-sessiond.service
mkdir -p "$OUT"
cd "$OUT" || exit 1
LTT_OUT=$OUT
. /ltt/guest-lib.sh

# until_true SECONDS CMD...: poll CMD every 50 ms until it succeeds.
until_true() {
	local n=0 max=$(($1 * 20))
	shift
	until "$@"; do
		[ $n -ge $max ] && return 1
		sleep 0.05
		n=$((n + 1))
	done
}

# prop PROPERTY: the session daemon's unit's PROPERTY, as systemd has it.
prop() {
	systemctl show -p "$1" --value "$UNIT"
}

# the results' way out (the kernel adds the port once the driver binds)
modprobe virtio_pci
modprobe virtio_console
until_true 10 test -c /dev/vport0p1

# sysd_finish: the results back to the host, then QEMU's exit:
# (CODE << 1) | 1, 85 once sent.
sysd_finish() {
	local code
	if tar -cf /dev/vport0p1 -C "$OUT" . && sync; then
		code='\052'
	else
		code='\053'
	fi
	printf "$code" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	systemctl poweroff --force --force
}
