# kernel_meta_stalled: new kernel events enabled while the kernel consumer
# is stopped (SIGSTOP): their metadata waits in the daemon and reaches the
# trace once the consumer runs, with every event (test_kernel_stalled.sh).
N1=1000	# ltt_test_event before the stall: channel c only
N2=1000	# during it: channels c and d
M=50	# ltt_logger lines during it: channel c
result emitted $((N1 + 2 * N2 + M))
# --background keeps its log (and its consumer's) in sessiond.log
ltt-sessiond --background -v 2>>"$LTT_OUT/sessiond.log" || exit 1
trap stop_sessiond EXIT

# wait_log TEXT: until the daemon's log says TEXT, bounded (60 s)
wait_log() {
	local i=0
	until grep -q "$1" "$LTT_OUT/sessiond.log"; do
		[ $i -ge 6000 ] && return 1
		usleep 10000
		i=$((i + 1))
	done
}

# stalled_session NAME: channels c and d, ltt_test_event in c, started,
# N1 events; then the consumer stopped and two new events enabled: the
# first's metadata is sent (its reply late), the second finds the
# consumer owing it and waits in the daemon; then N2 test events and M
# logger lines.  Files NAME.*.
stalled_session() {
	local s=$1 i
	capture $s.create lttctl create $s -o "$LTT_OUT/$s" || return 1
	capture $s.chan_c lttctl enable-channel -k c --subbuf-size 64k --num-subbuf 8 || return 1
	capture $s.chan_d lttctl enable-channel -k d --subbuf-size 64k --num-subbuf 8 || return 1
	capture $s.enable lttctl enable-event -k ltt_test_event -c c || return 1
	capture $s.start lttctl start || return 1
	echo $N1 >/proc/ltt-test || return 1
	cons=$(pidof ltt-consumerd)
	result $s.consumer "$cons"
	kill -STOP $cons
	wait_state $cons T || { result $s.not_stopped 1; return 1; }
	capture $s.enable_logger lttctl enable-event -k ltt_logger -c c
	capture $s.enable_d lttctl enable-event -k ltt_test_event -c d
	echo $N2 >/proc/ltt-test || return 1
	i=0
	while [ $i -lt $M ]; do
		echo "line $i" >/proc/ltt-logger || return 1
		i=$((i + 1))
	done
	grep -c "trace $LTT_OUT/$s/kernel: metadata waits for its stalled consumer daemon" \
		"$LTT_OUT/sessiond.log" >"$LTT_OUT/$s.waits" || :
}

# classes NAME: the event classes in NAME's metadata file so far
classes() {
	grep -c 'name = "ltt_test_event"\|name = "ltt_logger"' "$LTT_OUT/$1/kernel/metadata" 2>/dev/null
}

# kms: SIGCONT; the daemon sends the metadata that waited without a
# command (3 classes in the file), then stop: the trace reads whole
stalled_session kms || exit 1
classes kms >"$LTT_OUT/kms.classes_stalled"
kill -CONT $cons
i=0
until [ "$(classes kms)" = 3 ] || [ $i -ge 6000 ]; do
	usleep 10000
	i=$((i + 1))
done
classes kms >"$LTT_OUT/kms.classes"
capture kms.stop lttctl stop kms
capture kms.list lttctl list kms
capture kms.destroy lttctl destroy kms

# kms2: stop and destroy while the consumer is still stopped, then SIGCONT:
# the daemon has it write the trace without a command
stalled_session kms2 || exit 1
capture kms2.stop lttctl stop kms2
capture kms2.destroy_stalled lttctl destroy kms2
capture kms2.list_stalled lttctl list kms2
kill -CONT $cons
wait_log "session 'kms2': kernel trace .*: written whole, the flush its stop owed done"
result kms2.settled $?
capture kms2.list lttctl list kms2
capture kms2.destroy lttctl destroy kms2
stop_sessiond
