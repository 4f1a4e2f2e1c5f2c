# /ltt/guest-lib.sh - helpers for the scenarios run in the test guest
# (busybox sh, sourced by /init before each scenario).
#
# A scenario runs as root in its output directory $LTT_OUT (/out/NAME);
# every file it leaves there comes back to the host.  Its stdout and stderr
# go to $LTT_OUT/log.  Nothing waits with sleep: wait on files and
# processes with the bounded helpers below.

# busybox sh runs its own applets before searching PATH: the module tools
# are kmod's (libkmod, modules.dep), as on a real system.
insmod() { /usr/sbin/insmod "$@"; }
rmmod() { /usr/sbin/rmmod "$@"; }
modprobe() { /usr/sbin/modprobe "$@"; }
lsmod() { /usr/sbin/lsmod "$@"; }
modinfo() { /usr/sbin/modinfo "$@"; }

# result KEY VALUE...: write VALUE into $LTT_OUT/KEY (one file a result).
result() {
	local key=$1
	shift
	printf '%s\n' "$*" >"$LTT_OUT/$key"
}

# capture KEY CMD...: CMD's stdout+stderr into $LTT_OUT/KEY, its exit
# status into $LTT_OUT/KEY.rc; returns that status.
capture() {
	local key=$1 rc
	shift
	"$@" >"$LTT_OUT/$key" 2>&1
	rc=$?
	echo $rc >"$LTT_OUT/$key.rc"
	return $rc
}

# wait_for_file PATH [SECONDS]: until PATH exists (default 30 s).
wait_for_file() {
	local n=0 max=$((${2:-30} * 100))
	while [ ! -e "$1" ]; do
		[ $n -ge $max ] && return 1
		usleep 10000
		n=$((n + 1))
	done
}

# wait_for_line FILE PATTERN [SECONDS]: until a line of FILE matches the
# basic regular expression PATTERN (default 30 s).
wait_for_line() {
	local n=0 max=$((${3:-30} * 100))
	until grep -q -e "$2" "$1" 2>/dev/null; do
		[ $n -ge $max ] && return 1
		usleep 10000
		n=$((n + 1))
	done
}

# wait_pid_exit PID [SECONDS]: until the process PID is gone (default 30 s).
wait_pid_exit() {
	local n=0 max=$((${2:-30} * 100))
	while [ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; do
		[ $n -ge $max ] && return 1
		usleep 10000
		n=$((n + 1))
	done
}

# wait_state PID STATE: until the process is in STATE (T: stopped), at most 30 s.
wait_state() {
	local i=0
	until grep -q "^State:[[:space:]]*$2" "/proc/$1/status" 2>/dev/null; do
		[ $i -ge 3000 ] && return 1
		usleep 10000
		i=$((i + 1))
	done
}

# wait_for_text FILE TEXT [SECONDS]: until FILE holds TEXT (default 30 s).
wait_for_text() {
	local n=0 max=$((${3:-30} * 100))
	until grep -q "$2" "$1" 2>/dev/null; do
		[ $n -ge $max ] && return 1
		usleep 10000
		n=$((n + 1))
	done
}

# The root session daemon: run directory /run/ltt, as installed.
LTT_GUEST_RUNDIR=/run/ltt

# start_sessiond [ARGS...]: the root ltt-sessiond, returning once it
# accepts connections (--daemonize); its log in $LTT_OUT/sessiond.log.
# stop_sessiond is called on exit of the scenario.
start_sessiond() {
	ltt-sessiond --daemonize "$@" 2>>"$LTT_OUT/sessiond.log" || return 1
	trap stop_sessiond EXIT
}

# stop_sessiond: SIGTERM to the root daemon, then wait for it to be gone.
stop_sessiond() {
	local pid
	pid=$(cat "$LTT_GUEST_RUNDIR/sessiond.pid" 2>/dev/null) || return 0
	kill -TERM "$pid" 2>/dev/null || return 0
	wait_pid_exit "$pid" 30
}

# start_relayd: ltt-relayd on loopback (ports of the kernel's choosing),
# writing under $LTT_OUT/relay, its log in $LTT_OUT/relayd.log; sets
# RELAY_URL (net://127.0.0.1:CONTROL:DATA) and RELAY_PID.  The caller
# stops it (stop_relayd).
start_relayd() {
	local cport dport
	ltt-relayd -b -p /run/ltt-relayd.pid -o "$LTT_OUT/relay" -C tcp://127.0.0.1:0 \
		-D tcp://127.0.0.1:0 -L tcp://127.0.0.1:0 </dev/null >/dev/null \
		2>>"$LTT_OUT/relayd.log" || return 1
	cport=$(cat "$LTT_GUEST_RUNDIR/relayd-control.port") || return 1
	dport=$(cat "$LTT_GUEST_RUNDIR/relayd-data.port") || return 1
	RELAY_URL="net://127.0.0.1:$cport:$dport"
	RELAY_PID=$(cat /run/ltt-relayd.pid)
}

# stop_relayd: SIGTERM to the relay start_relayd started, then wait for it.
stop_relayd() {
	kill -TERM "$RELAY_PID" 2>/dev/null || return 0
	wait_pid_exit "$RELAY_PID" 30
}

# as_user USER CMD...: CMD as USER, with its groups from /etc/group.
# (busybox su takes options anywhere before "--": CMD's own options after it.)
as_user() {
	local user=$1
	shift
	su -s /bin/sh -c 'exec "$0" "$@"' -- "$user" "$@"
}
