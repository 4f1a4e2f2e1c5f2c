#!/bin/bash
# deb-check.sh - test_deb.sh's guest side, run by ltt-check.service once
# systemd (PID 1) started ltt-sessiond.service as ltt's Debian packages
# installed it (dpkg -i in the root, the module where DKMS puts it; how
# results go back: sysd-lib.sh).
. /ltt/sysd-lib.sh

# --- what the packages installed, and started at boot
result packages "$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' 'ltt-*' 'libltt-*' 'python3-ltt' | awk '$2 == "installed"' | sort)"
result active_at_start "$(systemctl is-active "$UNIT")"
result enabled "$(systemctl is-enabled "$UNIT")"
result unit_path "$(prop FragmentPath)"
result relayd_enabled "$(systemctl is-enabled ltt-relayd.service)"
result relayd_active "$(systemctl is-active ltt-relayd.service)"
result group "$(getent group tracing)"
result ltt_user "$(getent passwd ltt)"
# the daemon's process (the one that owns client.sock and app.sock) gave
# root's rights up, by default, to the user ltt: its effective uid's name
# and its effective capabilities
result sessiond_drop "$(ps -o user= -p "$(prop MainPID)")/$(sed -n 's/^CapEff:[[:space:]]*//p' "/proc/$(prop MainPID)/status")"
result man "$(ls /usr/share/man/man1/lttctl-enable-event.1.gz)"

# --- the demo, from the packages: the example program of
# libltt-ust-dev, built against it on the host
capture d_create lttctl create demo -o "$OUT/demo-trace"
capture d_enable lttctl enable-event -u 'hello_world:*'
capture d_start lttctl start
capture d_hello hello 100
capture d_stop lttctl stop
# python3-ltt sees it
capture d_python python3 -c 'import ltt; s = ltt.get_session("demo"); print(s.name, s.active, [r.pattern for r in s.rules])'
capture d_destroy lttctl destroy demo
# a member of the group the postinst made drives the root daemon
usermod -a -G tracing tracer
capture t_list runuser -u tracer -- lttctl list

# --- the kernel tracer as DKMS installs it
capture k_list lttctl list -k
capture k_create lttctl create kern -o "$OUT/kernel-trace"
capture k_enable lttctl enable-event -k sched_switch
capture k_start lttctl start
capture k_hello hello 10
capture k_stop lttctl stop
capture k_destroy lttctl destroy kern
result k_module "$(modinfo -n ltt-tracer)"
result k_loaded "$(lsmod | grep -c '^ltt_tracer ')"

# --- removal stops the daemon and takes the programs
capture remove dpkg -r ltt-tools
result active_after_remove "$(systemctl is-active "$UNIT")"
result sessiond_after_remove "$(pgrep -x ltt-sessiond | wc -l)"
result bins_after_remove "$(ls /usr/bin | grep -c '^ltt')"

journalctl -b -u "$UNIT" -o cat --no-pager >"$OUT/journal" 2>&1
sysd_finish
