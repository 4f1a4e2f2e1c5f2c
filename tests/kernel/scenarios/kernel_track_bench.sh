# kernel_track_bench: the test probe's cost per event (N events a run: ktrack_bench=N on the kernel command line, default 100000) in a snapshot session with every tracker at "all", with the writer's pid tracked, and with another pid tracked (the writer's events refused); 3 runs each, interleaved (test_kernel_track.sh, bench/README.md).
start_sessiond || exit 1
W=/tmp/ktrack-bench
mkdir -p $W
N=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^ktrack_bench=//p')
N=${N:-100000}

# wait_lines FILE N: until FILE has N lines (100 s at most).
wait_lines() {
	local n=0
	while [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -lt "$2" ]; do
		[ $n -ge 10000 ] && { echo "wait_lines $1 $2: timed out"; return 1; }
		usleep 10000
		n=$((n + 1))
	done
}

mkfifo $W/in || exit 1
kemit <$W/in >$W/out 2>$W/err &
exec 3>$W/in
wait_lines $W/out 1 || exit 1
P=$(sed -n '1s/^pid=\([0-9]*\) .*/\1/p' $W/out)

# run CONFIG: one timed run of N events, "RUN cfg=CONFIG n=N ns=T" in runs.txt
run() {
	local want=$(($(wc -l <$W/out) + 1))
	echo $N >&3
	wait_lines $W/out $want || exit 1
	echo "RUN cfg=$1 $(tail -n 1 $W/out)" | tee -a runs.txt >/dev/console
}

# The buffers overwrite (snapshot session): nothing is written out, the
# writer never waits for a reader and nothing is discarded.
capture create lttctl create tb --snapshot -o "$LTT_OUT/unused" || exit 1
capture enable lttctl enable-event -k -s tb ltt_test_event || exit 1
capture start lttctl start tb || exit 1
: >runs.txt
run warmup
i=0
while [ $i -lt 3 ]; do
	capture all_$i lttctl track -k -s tb --all --pid || exit 1
	run all
	capture self_$i lttctl track -k -s tb --pid $P || exit 1
	run pid-tracked
	capture other_$i lttctl track -k -s tb --pid 1 || exit 1
	capture other_u_$i lttctl untrack -k -s tb --pid $P || exit 1
	run pid-other
	i=$((i + 1))
done
capture stop lttctl stop tb
capture destroy lttctl destroy tb
# No session: the event is enabled nowhere (the probe returns at once).
run none
exec 3>&-
wait
stop_sessiond
