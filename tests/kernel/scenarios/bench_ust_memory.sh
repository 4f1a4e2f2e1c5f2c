# bench_ust_memory: the memory of a user-space session with as many CPUs
# as the guest has (KVM_SMP), as bench/memory.sh measures it natively:
# channel0 with the defaults, every event, started; idle, then after one
# small program (1000 events); ltt on-demand and preallocated, and LTTng
# 2.13 when its programs were added (KVM_EXTRA_BINS, bench/README.md).
rss_kib() { # PID...: their VmRSS, KiB
	local p
	for p in "$@"; do
		awk '/^VmRSS:/ { print $2 }' "/proc/$p/status" 2>/dev/null
	done | awk '{ s += $1 } END { print s + 0 }'
}
buffer_kib() { # PID...: the KiB of the ring buffer files they hold, each once
	local p fd
	for p in "$@"; do
		for fd in /proc/"$p"/fd/*; do
			case $(readlink "$fd" 2>/dev/null) in
			*memfd:ltt-ust-stream* | /dev/shm/*) stat -L -c '%d:%i %b' "$fd" 2>/dev/null ;;
			esac
		done
	done | sort -u | awk '{ s += $2 } END { print s * 512 / 1024 }'
}
row() { # NAME PIDS...
	local name=$1
	shift
	# shellcheck disable=SC2086
	echo "$name $(rss_kib "$@") $(buffer_kib "$@")" >>"$LTT_OUT/rows"
}
pids_of() { echo "$1" $(pidof "$2"); }
result cpus "$(grep -c ^processor /proc/cpuinfo)"
: >"$LTT_OUT/rows"
for pre in on-demand preallocate; do
	start_sessiond || exit 1
	lttctl create m -o "/tmp/t-$pre" >/dev/null &&
		lttctl enable-channel -u channel0 --buffer-preallocation=$pre >/dev/null &&
		lttctl enable-event -u -a >/dev/null && lttctl start >/dev/null || exit 1
	row "ltt-$pre-idle" $(pids_of "$(cat /run/ltt/sessiond.pid)" ltt-consumerd)
	/ltt/bin/ust_flood -n 1000 -t 1 >/dev/null || exit 1
	row "ltt-$pre-one" $(pids_of "$(cat /run/ltt/sessiond.pid)" ltt-consumerd)
	capture "ltt-$pre.mem" lttctl list m --mem-usage=compact
	lttctl destroy m >/dev/null
	stop_sessiond
done
# lttng STEP ARGS...: an LTTng command, its output kept as lttng-STEP; a
# failure says so in rows and ends the LTTng part
lttng_step() {
	local step=$1
	shift
	capture "lttng-$step" "$@" && return 0
	echo "lttng-failed-at-$step 0 0" >>"$LTT_OUT/rows"
	return 1
}
if [ -x /ltt/bin/lttng-sessiond ] && [ -x /ltt/bin/flood_lttng ]; then
	export LTTNG_HOME=/tmp/lh
	# the daemon loads saved sessions at start, and quits when it cannot
	# read the schema they are checked against: memory_cpus.sh puts it here
	export LTTNG_SESSION_CONFIG_XSD_PATH=/ltt/bin
	mkdir -p "$LTTNG_HOME" /var/run/lttng
	/ltt/bin/lttng-sessiond --no-kernel -vv --pidfile="$LTTNG_HOME/p.pid" \
		--consumerd64-path=/ltt/bin/lttng-consumerd >"$LTT_OUT/lttng-sessiond" 2>&1 &
	wait_for_file "$LTTNG_HOME/p.pid" 60 || echo "lttng-failed-at-sessiond 0 0" >>"$LTT_OUT/rows"
	[ -s "$LTTNG_HOME/p.pid" ] && lttng_step create /ltt/bin/lttng create m -o /tmp/lt &&
		lttng_step channel /ltt/bin/lttng enable-channel -u channel0 &&
		lttng_step event /ltt/bin/lttng enable-event -u -a -c channel0 &&
		lttng_step start /ltt/bin/lttng start &&
		row "lttng-idle" $(pids_of "$(cat "$LTTNG_HOME/p.pid")" lttng-consumerd) &&
		lttng_step flood /ltt/bin/flood_lttng -n 1000 &&
		row "lttng-one" $(pids_of "$(cat "$LTTNG_HOME/p.pid")" lttng-consumerd)
	/ltt/bin/lttng destroy m >/dev/null 2>&1
	[ -s "$LTTNG_HOME/p.pid" ] && kill "$(cat "$LTTNG_HOME/p.pid")"
fi
exit 0
