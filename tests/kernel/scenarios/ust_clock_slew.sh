# ust_clock_slew: a session of both domains keeps one time line while
# adjtimex(2) slews the kernel clock as NTP does, 1000 ppm fast, then
# 1000 ppm slow, with each kernel backend in turn (the module, then
# tracefs; test_vm_clock.sh reads the traces on the host).
#
# The clock is slewed before the session is created: ADJ_FREQUENCY
# +500 ppm and an adjtime(3) slew of +1 s in progress (500 ppm more), so
# CLOCK_MONOTONIC runs 1000 ppm fast.  A program emits a user event, calls
# getppid, emits the next, 100 times; then the slew turns to -500 ppm and
# -1 s (1000 ppm slow) and the program runs again, in the same session.
# kslew reads the clocks (CLOCK_MONOTONIC against CLOCK_MONOTONIC_RAW,
# which no slew changes; CLOCK_REALTIME; adjtimex's state) before and
# after each run and around the session.  The clock's rate is set back to
# normal at the end (on a failure too).

# slew_read KEY: the clocks and adjtimex's state into KEY.
slew_read() {
	capture "$1" kslew read
}

# run_app KEY: the program, whose events and calls the host orders, between
# two reads of the clocks (KEY_start, KEY_end).
run_app() {
	slew_read "$1_start" || return 1
	capture "$1" ust_app -n 101 -G -e 5
	slew_read "$1_end"
}

for backend in module tracefs; do
	start_sessiond --kernel-backend=$backend || exit 1
	# (on a failure too: the clock's rate back to normal)
	trap 'stop_sessiond; kslew set 0 0 >/dev/null' EXIT
	capture ${backend}_slew_fast kslew set 500 1000000 || exit 1
	slew_read ${backend}_before || exit 1
	capture ${backend}_create lttctl create slew -o "$LTT_OUT/$backend" || exit 1
	capture ${backend}_enable_u lttctl enable-event -u ltt_test:seq -s slew || exit 1
	capture ${backend}_context_u lttctl add-context -u -t vtid -s slew || exit 1
	capture ${backend}_enable_k lttctl enable-event -k --syscall getppid -s slew || exit 1
	capture ${backend}_context_k lttctl add-context -k -t tid -s slew || exit 1
	capture ${backend}_start lttctl start slew || exit 1
	run_app ${backend}_fast || exit 1
	capture ${backend}_slew_slow kslew set -500 -1000000 || exit 1
	run_app ${backend}_slow || exit 1
	capture ${backend}_stop lttctl stop slew || exit 1
	capture ${backend}_destroy lttctl destroy slew
	slew_read ${backend}_after || exit 1
	stop_sessiond
	capture ${backend}_slew_none kslew set 0 0 || exit 1
done
