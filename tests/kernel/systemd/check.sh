#!/bin/bash
# check.sh - test_systemd.sh's guest side, run by ltt-check.service once
# systemd (PID 1) started ltt-sessiond.service as `make install` laid it
# out (how results go back: sysd-lib.sh).
. /ltt/sysd-lib.sh
AUTO=/usr/local/etc/ltt/sessions/auto

# --- started at boot, ready before this unit (ordered after it) ran
result active_at_start "$(systemctl is-active "$UNIT")"
result unit_type "$(prop Type)"
result sessiond_ready_us "$(prop ActiveEnterTimestampMonotonic)"
result check_start_us "$(systemctl show -p ExecMainStartTimestampMonotonic --value ltt-check.service)"
result sessiond_pid_at_start "$(prop MainPID)"
# the daemon's process (the one that owns client.sock and app.sock) gave
# root's rights up, by default, to the user ltt: its effective uid's name
# and its effective capabilities
result sessiond_drop "$(ps -o user= -p "$(prop MainPID)")/$(sed -n 's/^CapEff:[[:space:]]*//p' "/proc/$(prop MainPID)/status")"
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
# a session recording when the daemon dies: its chunks' journal kept in
# the state directory (/var/lib/ltt), which a reboot does not empty
capture c_create lttctl create crashed -o /var/tmp/crashed
capture c_enable lttctl enable-event -u 'hello_world:*' -s crashed
capture c_start lttctl start crashed
result c_journals "$(ls /var/lib/ltt/chunks | wc -l) $(ls /run/ltt/chunks 2>/dev/null | wc -l)"
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
rm -f "$AUTO"/*.ltt "$AUTO"/*.lttng

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

# --- the relay's unit killed: systemd starts it again (its run directory
# emptied, as a reboot would), and the new relay finds the dead one's
# journal of the sessions it wrote in its state directory
RELAY=ltt-relayd.service
capture r_start systemctl start "$RELAY"
rpid0=$(systemctl show -p MainPID --value "$RELAY")
result r_journals_before "$rpid0: $(ls /var/lib/ltt-relayd | grep '^relayd-writing\.' | tr '\n' ' ')"
capture r_kill systemctl kill -s KILL "$RELAY"
relay_restarted() {
	local p
	p=$(systemctl show -p MainPID --value "$RELAY")
	[ "$p" != 0 ] && [ "$p" != "$rpid0" ] && [ "$(systemctl is-active "$RELAY")" = active ]
}
until_true 60 relay_restarted
result r_restarted $?
result r_journals_after "$(systemctl show -p MainPID --value "$RELAY"): $(ls /var/lib/ltt-relayd | grep '^relayd-writing\.' | tr '\n' ' ')"
capture r_stop systemctl stop "$RELAY"
journalctl -b -u "$RELAY" -o cat --no-pager >"$OUT/relay-journal" 2>&1

# --- the journal has the daemon's messages
journalctl -b -u "$UNIT" -o cat --no-pager >"$OUT/journal" 2>&1

sysd_finish
