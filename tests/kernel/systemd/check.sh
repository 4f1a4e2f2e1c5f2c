#!/bin/bash
# check.sh - test_systemd.sh's guest side, run by ltt-check.service once
# systemd (PID 1) started ltt-sessiond.service as `make install` laid it
# out.  It records facts as files in /out, which go back to the host as a
# tar through the virtio-serial port; QEMU then exits through
# isa-debug-exit with 85 (results sent) or 87 (not sent).  The host
# asserts (tests/kernel/test_systemd.sh).  Nothing waits with sleep
# alone: each wait polls a condition, bounded.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/ltt/bin
export HOME=/root LANG=C
OUT=/out
UNIT=ltt-sessiond.service
AUTO=/usr/local/etc/ltt/sessions/auto
mkdir -p "$OUT"
cd "$OUT" || exit 1
# result KEY VALUE, capture KEY CMD...: the scenarios' helpers
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

prop() {
	systemctl show -p "$1" --value "$UNIT"
}

# the results' way out (the kernel adds the port once the driver binds)
modprobe virtio_pci
modprobe virtio_console
until_true 10 test -c /dev/vport0p1

# --- started at boot, ready before this unit (ordered after it) ran
result active_at_start "$(systemctl is-active "$UNIT")"
result unit_type "$(prop Type)"
result sessiond_ready_us "$(prop ActiveEnterTimestampMonotonic)"
result check_start_us "$(systemctl show -p ExecMainStartTimestampMonotonic --value ltt-check.service)"
result sessiond_pid_at_start "$(prop MainPID)"
capture root_list lttctl list

# --- a member of the tracing group drives the root daemon; a non-member
# can't reach its socket
mkdir -p /home/tracer/t && chown -R tracer: /home/tracer
capture t_create runuser -u tracer -- lttctl create mt -o /home/tracer/t/trace
capture t_enable runuser -u tracer -- lttctl enable-event -u 'hello_world:*'
capture t_start runuser -u tracer -- lttctl start
capture t_hello runuser -u tracer -- hello 100
capture t_stop runuser -u tracer -- lttctl stop
capture t_destroy runuser -u tracer -- lttctl destroy mt
cp -a /home/tracer/t/trace "$OUT/member-trace" 2>/dev/null
capture o_root runuser -u other -- env LTT_RUNDIR=/run/ltt lttctl list
capture root_sessions lttctl list

# --- killed (SIGKILL): systemd restarts it; the autoloaded session is back
capture auto_create lttctl create auto1 -o /var/tmp/auto1
capture auto_enable lttctl enable-event -u 'hello_world:*' -s auto1
mkdir -p "$AUTO"
capture auto_save lttctl save auto1 -o "$AUTO"
lttctl destroy auto1 >/dev/null 2>&1
pid0=$(prop MainPID)
capture kill systemctl kill -s KILL "$UNIT"
restarted() {
	local p
	p=$(prop MainPID)
	[ "$p" != 0 ] && [ "$p" != "$pid0" ] && [ "$(systemctl is-active "$UNIT")" = active ]
}
until_true 60 restarted
result restarted $?
result nrestarts "$(prop NRestarts)"
capture after_restart_list lttctl list
rm -f "$AUTO"/*.ltt

# --- systemctl stop: every running session flushed, then a clean stop
capture f_create lttctl create flush -o "$OUT/flush-trace"
capture f_enable lttctl enable-event -u 'hello_world:*' -s flush
capture f_start lttctl start flush
capture f_hello hello 1000
consumer=$(pgrep -x ltt-consumerd | head -1)
result consumer_before_stop "$consumer"
capture stop systemctl stop "$UNIT"
result active_after_stop "$(systemctl is-active "$UNIT")"
result stop_result "$(prop Result)"
result exec_status "$(prop ExecMainStatus)"
result consumers_after_stop "$(pgrep -x ltt-consumerd | wc -l)"
result rundir_after_stop "$(ls /run/ltt 2>/dev/null | tr '\n' ' ')"

# --- the journal has the daemon's messages
journalctl -b -u "$UNIT" -o cat --no-pager >"$OUT/journal" 2>&1

# back to the host, then QEMU's exit: (CODE << 1) | 1, 85 once sent
if tar -cf /dev/vport0p1 -C "$OUT" . && sync; then
	code='\052'
else
	code='\053'
fi
printf "$code" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
systemctl poweroff --force --force
