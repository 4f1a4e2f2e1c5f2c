# kernel_track: kernel process trackers (pid, vpid, uid, vuid, gid, vgid) on three known writers of /proc/ltt-test (root, tracer, nobody), one session per tracker at once; tracking and untracking while active; the raw ABI's checks; list and --mi xml (test_kernel_track.sh).
#
# Each writer is a kemit (tests/kernel/kemit.c) reading counts from its
# FIFO: root writes 1000 events, tracer 2000, nobody 4000 (seq 0..N-1),
# so what a session recorded says exactly which writers it let in.
start_sessiond -v || exit 1
# the raw ABI's validation first (kemit abi: its own session)
capture abi kemit abi
W=/tmp/ktrack
mkdir -p $W

# wait_lines FILE N [PID]: until FILE has N lines (60 s of guest time at
# most), or process PID is gone.
wait_lines() {
	local up end
	read -r up _ </proc/uptime
	end=$((${up%.*} + 60))
	while [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -lt "$2" ]; do
		read -r up _ </proc/uptime
		[ "${up%.*}" -ge $end ] && { echo "wait_lines $1 $2: timed out"; return 1; }
		[ -n "${3:-}" ] && ! kill -0 "$3" 2>/dev/null && [ "$(wc -l <"$1")" -lt "$2" ] &&
			{ echo "wait_lines $1 $2: process $3 is gone"; return 1; }
		usleep 10000
	done
}

# writer NAME UID GID FD: a kemit of UID and GID reading FIFO $W/NAME.in,
# held open (read-write: never blocks) on descriptor FD of this shell;
# NAME's pid in $W/NAME.out line 1.
writer() {
	echo "writer $*"
	mkfifo $W/$1.in || return 1
	eval "exec $4<>$W/$1.in"
	# not the shell's ends of the FIFOs: each kemit sees EOF when they close
	kemit $2 $3 <$W/$1.in >$W/$1.out 2>$W/$1.err 3>&- 4>&- 5>&- &
	wait_lines $W/$1.out 1 $! || { cat $W/$1.err; return 1; }
}

# emit NAME FD N: NAME writes N events; returns once it did.
emit() {
	local want=$(($(wc -l <$W/$1.out) + 1))
	echo "emit $*"
	eval "echo $3 >&$2"
	wait_lines $W/$1.out $want || { cat $W/$1.err; return 1; }
}

# pid_of NAME: NAME's pid, as it printed it.
pid_of() {
	sed -n '1s/^pid=\([0-9]*\) .*/\1/p' $W/$1.out
}

writer root 0 0 3 || exit 1
writer tracer 1000 1000 4 || exit 1
writer nobody 65534 65534 5 || exit 1
P_ROOT=$(pid_of root)
P_TRACER=$(pid_of tracer)
P_NOBODY=$(pid_of nobody)
cat $W/root.out $W/tracer.out $W/nobody.out >writers

# session NAME TRACK-ARGS...: a kernel session recording the test probe,
# its trackers set by 'lttctl track -k ARGS' (none when ARGS is empty).
session() {
	local s=$1
	shift
	capture create_$s lttctl create $s -o "$LTT_OUT/$s" || return 1
	capture enable_$s lttctl enable-event -k -s $s ltt_test_event || return 1
	[ $# = 0 ] || capture track_$s lttctl track -k -s $s "$@" || return 1
}

session t_all || exit 1
session t_pid --pid $P_TRACER || exit 1
session t_vpid --vpid $P_ROOT,$P_NOBODY || exit 1
session t_uid --uid root,nobody || exit 1
session t_vuid --vuid 1000 || exit 1
session t_gid --gid nogroup || exit 1
session t_vgid --vgid 0,tracer || exit 1
session t_and --pid $P_ROOT,$P_TRACER --uid tracer || exit 1
session t_none || exit 1
capture untrack_t_none lttctl untrack -k -s t_none --all --pid || exit 1
for s in t_all t_pid t_vpid t_uid t_vuid t_gid t_vgid t_and t_none; do
	capture start_$s lttctl start $s || exit 1
done
capture list_t_and lttctl list t_and
capture list_t_and_k lttctl list -k t_and
capture mi_t_and lttctl --mi xml list t_and
emit root 3 1000 || exit 1
emit tracer 4 2000 || exit 1
emit nobody 5 4000 || exit 1
for s in t_all t_pid t_vpid t_uid t_vuid t_gid t_vgid t_and t_none; do
	capture stop_$s lttctl stop $s || exit 1
done

# --- while active: one session, its pid tracker changed between rounds ---
session t_live --pid $P_ROOT || exit 1
capture live_start lttctl start t_live || exit 1
emit root 3 1000 || exit 1			# tracked: recorded
capture live_untrack lttctl untrack -k -s t_live --pid $P_ROOT || exit 1
emit root 3 2000 || exit 1			# the set is empty (none): not recorded
capture live_track lttctl track -k -s t_live --pid $P_ROOT || exit 1
emit root 3 4000 || exit 1			# recorded
capture live_all lttctl track -k -s t_live --all --pid || exit 1
emit tracer 4 8000 || exit 1			# every process: recorded
capture live_none lttctl untrack -k -s t_live --all --pid || exit 1
emit tracer 4 16000 || exit 1			# none: not recorded
capture live_stop lttctl stop t_live || exit 1
capture live_list lttctl list t_live

exec 3>&- 4>&- 5>&-
for w in root tracer nobody; do
	wait_pid_exit "$(pid_of $w)" 30
	cp $W/$w.out $W/$w.err "$LTT_OUT/" 2>/dev/null
done
for s in t_all t_pid t_vpid t_uid t_vuid t_gid t_vgid t_and t_none t_live; do
	lttctl destroy $s >/dev/null 2>&1
done
stop_sessiond
