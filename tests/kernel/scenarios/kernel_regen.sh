# kernel_regen: regenerate metadata of a kernel session after the wall
# clock jumped a day (the metadata written again whole, the new clock
# offset), then regenerate statedump (the state dump recorded again, each
# thread once) and the refusals (test_kernel_regen.sh).
# --background keeps its log in sessiond.log (what regenerate statedump asked)
ltt-sessiond --background -v 2>>"$LTT_OUT/sessiond.log" || exit 1
trap stop_sessiond EXIT
capture create lttctl create kregen -o "$LTT_OUT/trace" || exit 1
capture enable lttctl enable-event -k ltt_test_event || exit 1
capture enable_sd lttctl enable-event -k 'lttng_statedump_*' || exit 1
# gone: alive at the first state dump only; both: alive at the two
sleep 600 &
gone=$!
sleep 600 &
both=$!
result gone_pid $gone
result both_pid $both
capture start lttctl start || exit 1
kill $gone
wait $gone
sleep 600 &
late=$!
result late_pid $late
echo 1000 >/proc/ltt-test
cp "$LTT_OUT/trace/kernel/metadata" "$LTT_OUT/meta_before"
# the wall clock jumps a day ahead: the trace's clock offset is stale
now=$(date +%s)
capture date_ahead date -s "@$((now + 86400))"
capture regen_meta lttctl regenerate metadata
echo 1000 >/proc/ltt-test
cp "$LTT_OUT/trace/kernel/metadata" "$LTT_OUT/meta_after"
# every thread alive before and after the state dump is in it once
ls -d /proc/[0-9]*/task/[0-9]* | sed 's|.*/||' | sort -n >"$LTT_OUT/tids_before"
capture regen_sd lttctl regenerate statedump
ls -d /proc/[0-9]*/task/[0-9]* | sed 's|.*/||' | sort -n >"$LTT_OUT/tids_after"
capture regen_bad lttctl regenerate clocks
capture stop lttctl stop
capture regen_sd_stopped lttctl regenerate statedump
# a user-space-only session, started: regenerate statedump asks its
# programs for theirs (none runs here)
capture create_u lttctl create uonly --no-output
capture enable_u lttctl enable-event -u -s uonly 'x:*'
capture start_u lttctl start uonly
capture regen_sd_u lttctl regenerate statedump -s uonly
capture stop_u lttctl stop uonly
capture destroy_u lttctl destroy uonly
# a session without channels: nothing to record a state dump into
capture create_n lttctl create nochan --no-output
capture regen_sd_n lttctl regenerate statedump -s nochan
capture destroy_n lttctl destroy nochan
capture destroy lttctl destroy kregen
kill $both $late
wait $both $late
date -s "@$(( $(date +%s) - 86400 ))" >/dev/null
stop_sessiond
