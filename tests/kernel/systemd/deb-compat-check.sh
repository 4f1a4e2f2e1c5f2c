#!/bin/bash
# deb-compat-check.sh - test_deb.sh's second boot, run by ltt-check.service:
# a Debian root with Debian's LTTng (lttng-tools, liblttng-ust1,
# python3-lttng) and ltt's packages with ltt-lttng-compat, installed by
# dpkg in the root; systemd (PID 1) started ltt-sessiond.service with the
# package's drop-in.  Records what LTTng's tools find, a recording of a
# program a unit starts (compat-app.service), then the same after
# `dpkg -r ltt-lttng-compat`, with Debian's LTTng back.  How results go
# back: sysd-lib.sh.
. /ltt/sysd-lib.sh
MA=$(ls -d /usr/lib/*-linux-gnu | head -n 1)

# facts about a root daemon: the unit's main pid, its name, the pid file
daemon_facts() { # PREFIX UNIT
	local pid
	pid=$(systemctl show -p MainPID --value "$2")
	result "$1_active" "$(systemctl is-active "$2")"
	result "$1_comm" "$(cat "/proc/$pid/comm" 2>/dev/null)"
	result "$1_exe" "$(readlink "/proc/$pid/exe" 2>/dev/null)"
	result "$1_pidfile" "$([ "$(cat /var/run/lttng/lttng-sessiond.pid 2>/dev/null)" = "$pid" ] && echo main)"
}

# record PREFIX: LTTng's commands by their names, the program by its unit
record() {
	capture "$1_create" lttng create "$1" -o "$OUT/$1-trace"
	capture "$1_enable" lttng enable-event -u compat:basic
	capture "$1_start" lttng start
	capture "$1_app" systemctl start compat-app.service
	capture "$1_stop" lttng stop
	capture "$1_destroy" lttng destroy "$1"
}

# --- with ltt-lttng-compat
daemon_facts c "$UNIT"
result c_alias "$(systemctl show -p Id --value lttng-sessiond.service)"
result c_dropin "$(prop DropInPaths)"
result c_sock "$(stat -c %F /var/run/lttng/client-lttng-sessiond 2>&1)"
result c_links "$(readlink -f /usr/bin/lttng /usr/bin/lttng-sessiond /usr/bin/lttng-relayd | tr '\n' ' ')"
result c_lib "$(readlink -f "$MA/liblttng-ust.so.1")"
capture c_python python3 -c 'import lttng; print(lttng.session_daemon_alive())'
record c

# --- removed: Debian's LTTng back
capture r_remove dpkg -r ltt-lttng-compat
result r_diversions "$(dpkg-divert --list | grep -c ltt-lttng-compat)"
result r_lib "$(readlink -f "$MA/liblttng-ust.so.1")"
capture r_version lttng --version
daemon_facts r "$UNIT"
daemon_facts d lttng-sessiond.service
result d_unit "$(systemctl show -p FragmentPath --value lttng-sessiond.service)"
until_true 60 lttng list >/dev/null 2>&1
record r
result r_ldd "$(ldd /ltt/bin/compat_app | grep liblttng-ust)"

journalctl -b -u "$UNIT" -o cat --no-pager >"$OUT/journal" 2>&1
sysd_finish
