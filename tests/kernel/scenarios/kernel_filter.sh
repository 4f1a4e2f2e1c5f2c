# kernel_filter: filters and exclusions of kernel rules end to end (one
# session per case, each recording the same 1000 test events, written by
# kfilter_client so that $ctx.procname is known), the refusals of what the
# kernel can't evaluate, list / MI / save-load of kernel filters, then the
# tracer's own checks through the raw ABI: hostile programs, mutants, a
# filter swapped while the event fires, and the probe's cost
# (test_kernel_filter.sh).
# The tracer alone first, through the raw ABI (loaded here, so the daemon
# leaves it loaded).
modprobe ltt-tracer || exit 1
capture hostile kfilter_client hostile
capture swap kfilter_client swap 300
capture bench kfilter_client bench 50000

ltt-sessiond --background -v 2>>"$LTT_OUT/sessiond.log" || exit 1
trap stop_sessiond EXIT

# session NAME RULE-OPTIONS...: a session recording one kernel rule
session() {
	local s=$1
	shift
	capture create_$s lttctl create $s -o "$LTT_OUT/$s" &&
		capture enable_$s lttctl enable-event -k -s $s "$@"
}
session fa ltt_test_event --filter 'seq < 100'
session fb ltt_test_event --filter 'value >= 0 && (flags & 1) == 1'
session fc ltt_test_event --filter 'name == "ltt-test-1*"'
session fd ltt_test_event --filter '!(seq >= 10) || tag == "t99*"'
session fe ltt_test_event --filter 'bytes[1] == 8'
session ff ltt_test_event --filter 'seq < 5'
capture enable_ff2 lttctl enable-event -k -s ff ltt_test_event --filter 'seq >= 995'
session fg ltt_test_event --filter 'neg == -50 && $ctx.procname == "kfilter_client" && $ctx.vtid == $ctx.vpid && $ctx.pid == $ctx.tid && $ctx.cpu_id >= 0 && $ctx.vuid == 0'
session fh 'ltt_*' -x ltt_logger
session fi ltt_test_event --filter 'seq < 3'
capture enable_fi2 lttctl enable-event -k -s fi ltt_test_event
session fj ltt_test_event --filter '(seq ^ 1) << 1 == 6 || (seq >> 3) == 100'
session fk 'sched_*' --filter 'prev_tid == 1 || next_comm == "ltt*"'
session fl ltt_test_event --filter 'seq < 10'
session fm ltt_test_event --filter 'nosuchfield == 1'
session fn 'ltt_*' -x 'ltt_test*' --filter 'msg == "filtered*"'
capture list_fa lttctl list fa
capture list_ff lttctl list ff
capture list_fh lttctl list fh
capture mi_fa lttctl --mi xml list fa
for s in fa fb fc fd fe ff fg fh fi fj fk fl fm fn; do
	lttctl -q start $s || result start_failed $s
done
capture emit kfilter_client emit 1000
echo "filtered out" >/proc/ltt-logger
for s in fa fb fc fd fe ff fg fh fi fj fk fm fn; do
	lttctl -q stop $s || result stop_failed $s
done
# fl: a second rule while it records (EVENT_SET_FILTER), then the first
# one disabled (the set changes again): 10 + 20 + 10
capture enable_fl2 lttctl enable-event -k -s fl 'ltt_test*' --filter 'seq >= 990'
capture emit2 kfilter_client emit 1000
capture disable_fl lttctl disable-event -k -s fl ltt_test_event
capture emit3 kfilter_client emit 1000
lttctl -q stop fl || result stop_failed fl

# Save / destroy / load: the same rules
capture save_fa lttctl save fa -o "$LTT_OUT/saved"
capture list_before lttctl list fh
capture save_fh lttctl save fh -o "$LTT_OUT/saved"
for s in fa fb fc fd fe ff fg fh fi fj fk fl fm fn; do
	lttctl -q destroy $s || result destroy_failed $s
done
capture load lttctl load -a -i "$LTT_OUT/saved"
capture list_fa_loaded lttctl list fa
capture list_fh_loaded lttctl list fh
lttctl -q destroy fa
lttctl -q destroy fh

# Refusals: what the kernel can't evaluate, types, syntax
capture create_r lttctl create refusals -o "$LTT_OUT/unused"
capture float_k lttctl enable-event -k ltt_test_event --filter 'seq > 1.5'
capture app_k lttctl enable-event -k ltt_test_event --filter '$app.a:b == 1'
capture pthread_k lttctl enable-event -k ltt_test_event --filter '$ctx.pthread_id == 1'
capture type_k lttctl enable-event -k ltt_test_event --filter 'name == 5'
capture syntax_k lttctl enable-event -k ltt_test_event --filter 'seq <'
capture excl_noglob_k lttctl enable-event -k ltt_test_event -x ltt_logger
capture list_r lttctl list refusals
lttctl -q destroy refusals
stop_sessiond
exit 0
