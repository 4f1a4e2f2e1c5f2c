# kernel_track_bench: the test probe's cost per event in a snapshot session with every tracker at "all", with the writer's pid tracked, and with another pid tracked (the writer's events refused), and with no session; RUNS runs of N events each, interleaved (ktrack_bench=N,RUNS on the kernel command line, default 5000,3) (test_kernel_track.sh, bench/README.md).
start_sessiond || exit 1
W=/tmp/ktrack-bench
mkdir -p $W
arg=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^ktrack_bench=//p')
IFS=, read -r N RUNS <<EOT
${arg:-5000,3}
EOT
echo "N=$N RUNS=$RUNS"

# wait_lines FILE N: until FILE has N lines (100 s of guest time at most).
wait_lines() {
	local up end
	read -r up _ </proc/uptime
	end=$((${up%.*} + 100))
	while [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -lt "$2" ]; do
		read -r up _ </proc/uptime
		[ "${up%.*}" -ge $end ] && { echo "wait_lines $1 $2: timed out"; return 1; }
		usleep 10000
	done
}

mkfifo $W/in || exit 1
exec 3<>$W/in
kemit <$W/in >$W/out 2>$W/err 3>&- &
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
while [ $i -lt "$RUNS" ]; do
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
i=0
while [ $i -lt "$RUNS" ]; do
	run none
	i=$((i + 1))
done
exec 3>&-
wait_pid_exit "$P" 30
stop_sessiond
