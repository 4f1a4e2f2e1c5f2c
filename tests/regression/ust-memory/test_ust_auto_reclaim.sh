#!/bin/bash
# test_ust_auto_reclaim.sh - enable-channel --auto-reclaim-memory: the
# consumer gives back the pages of what it read by itself.  One program
# pinned to CPU 0 writes a burst into three sessions of the same channel
# geometry (8 x 64 KiB): without automatic reclaim its CPU 0 buffer keeps
# every page; with `consumed`, and with `older-than:AGE` once AGE passed,
# it falls back to the writer's two sub-buffers (the one it writes, the
# next) and the header, as list --mem-usage and the memfds say; every
# session records what was emitted, recorded + discarded == emitted.  The
# policy is listed, saved and loaded (LTTng 2.15's <reclaim_policy>), and
# refused where it has no meaning.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 37
command -v taskset >/dev/null || { echo "Bail out! taskset is not installed"; exit 1; }

SUB=65536
N=30000

# cpu0_bytes SESSION: the bytes the CPU 0 buffer of its channel ch holds now.
cpu0_bytes() {
	lttctl list "$1" --mem-usage=full |
		sed -n 's/^  user space ch, uid [0-9]*, CPU 0: \([0-9]*\) bytes.*/\1/p'
}

# wait_fall SESSION BYTES: wait (bounded, polling) until CPU 0's buffer
# holds at most BYTES; prints what it holds then.
wait_fall() {
	local end=$((SECONDS + TEST_TIMEOUT)) now
	now=$(cpu0_bytes "$1")
	while [ "${now:-0}" -gt "$2" ] && [ $SECONDS -lt $end ]; do
		now=$(cpu0_bytes "$1")
	done
	echo "$now"
}

# at_most A B: is A (a number) at most B?
at_most() {
	[ -n "$1" ] && [ "$1" -le "$2" ]
	echo $?
}

for s in plain rec aged; do
	lttctl create $s -o "$TEST_TMP/$s" >/dev/null || echo "Bail out! create $s"
done
ok_cmd "plain: no automatic reclaim" lttctl enable-channel -u -s plain ch \
	--subbuf-size 64k --num-subbuf 8
ok_cmd "rec: --auto-reclaim-memory=consumed" lttctl enable-channel -u -s rec ch \
	--subbuf-size 64k --num-subbuf 8 --auto-reclaim-memory=consumed
ok_cmd "aged: --auto-reclaim-memory=older-than:200ms" lttctl enable-channel -u -s aged ch \
	--subbuf-size 64k --num-subbuf 8 --auto-reclaim-memory=older-than:200ms
for s in plain rec aged; do
	# with the vpid: the two programs' events apart
	lttctl enable-event -u -s $s ltt_test:seq -c ch >/dev/null &&
		lttctl add-context -u -s $s -c ch -t vpid >/dev/null &&
		lttctl start $s >/dev/null || echo "Bail out! start $s"
done
run lttctl list rec
like "$STDOUT" "automatic memory reclaim: consumed \\(a sub-buffer's pages once read\\)" \
	"list shows consumed"
run lttctl list aged
like "$STDOUT" "automatic memory reclaim: older-than 200000 us" "list shows older-than in us"
run lttctl list plain
unlike "$STDOUT" "automatic memory reclaim" "and nothing for a channel without it"

(
	close_fifos
	exec taskset -c 0 timeout "$(ust_guard -e "$TEST_TIMEOUT")" "$UST_APP" -e "$TEST_TIMEOUT" \
		-n $N
)
is $? 0 "a burst of $N events on CPU 0, into the three sessions"
plain=$(cpu0_bytes plain)
header=$((plain - 8 * SUB))
diag "plain: CPU 0's buffer holds $plain bytes (header $header)"
ok "$([ "$header" -ge 0 ] && [ "$header" -lt "$SUB" ]; echo $?)" \
	"without automatic reclaim the burst left every page of CPU 0's buffer ($plain bytes)"
rec=$(wait_fall rec $((2 * SUB + header)))
diag "rec: CPU 0's buffer holds $rec bytes"
ok "$(at_most "$rec" $((2 * SUB + header)))" \
	"consumed: the buffer fell back to the writer's sub-buffer, its next and the header ($rec)"
aged=$(wait_fall aged $((2 * SUB + header)))
diag "aged: CPU 0's buffer holds $aged bytes"
ok "$(at_most "$aged" $((2 * SUB + header)))" \
	"older-than:200ms: the buffer fell back too once the stream was idle ($aged)"
is "$(cpu0_bytes plain)" "$plain" "plain kept its pages all along"

# a second burst writes into the pages given back: nothing lost uncounted
(
	close_fifos
	exec taskset -c 0 timeout "$(ust_guard -e "$TEST_TIMEOUT")" "$UST_APP" -e "$TEST_TIMEOUT" \
		-t 2 -n $N
)
is $? 0 "a second burst: 2 threads x $N events"
rec=$(wait_fall rec $((2 * SUB + header)))
ok "$(at_most "$rec" $((2 * SUB + header)))" \
	"consumed: fallen back again after the second burst ($rec)"
for s in plain rec aged; do
	lttctl stop $s >/dev/null
	lost=$(lttctl list $s | sed -n 's/^ *discarded events: //p')
	bt "$TEST_TMP/$s" "$TEST_TMP/$s.out"
	is $? 0 "$s: babeltrace2 reads the trace"
	recorded=$(count_events "$TEST_TMP/$s.out" ltt_test:seq)
	diag "$s: recorded $recorded, discarded $lost"
	is $((recorded + ${lost:-0})) $((3 * N)) "$s: recorded + discarded == emitted, exactly"
	is "$(awk '/ ltt_test:seq: / { match($0, /vpid = [0-9]+/); p = substr($0, RSTART, RLENGTH)
		match($0, /thread = [0-9]+, seq = [0-9]+/); print p, substr($0, RSTART, RLENGTH) }' \
		"$TEST_TMP/$s.out" | sort | uniq -d | wc -l)" \
		0 "$s: no event recorded twice"
done

# save and load: LTTng 2.15's element, in ltt's format (xml/session.xsd)
SAVED="$HOME/.lttng/sessions"
for s in rec aged; do
	lttctl save $s >/dev/null
	run xmllint --noout --schema "$LTT_TOP_SRCDIR/xml/session.xsd" "$SAVED/$s.ltt"
	is "$RC" 0 "$s: the saved file is valid against xml/session.xsd"
done
like "$(tr -d ' \t\n' <"$SAVED/rec.ltt")" "<reclaim_policy><consumed/></reclaim_policy>" \
	"rec's file has <reclaim_policy><consumed/>"
like "$(tr -d ' \t\n' <"$SAVED/aged.ltt")" \
	"<reclaim_policy><periodic><age_threshold>200000</age_threshold></periodic></reclaim_policy>" \
	"aged's file has <periodic> with its age in us"
for s in rec aged; do
	lttctl destroy $s >/dev/null
	lttctl load $s >/dev/null
done
run lttctl list rec
like "$STDOUT" "automatic memory reclaim: consumed" "loaded rec has consumed"
run lttctl list aged
like "$STDOUT" "automatic memory reclaim: older-than 200000 us" "loaded aged has older-than"

# LTTng 2.15's file: <preallocation_policy> and <reclaim_policy> as lttng save writes them
cat >"$TEST_TMP/lt215.lttng" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<sessions>
	<session>
		<name>lt215</name>
		<domains>
			<domain>
				<type>UST</type>
				<buffer_type>PER_UID</buffer_type>
				<channels>
					<channel>
						<name>ch</name>
						<enabled>true</enabled>
						<overwrite_mode>DISCARD</overwrite_mode>
						<subbuffer_size>65536</subbuffer_size>
						<subbuffer_count>8</subbuffer_count>
						<switch_timer_interval>0</switch_timer_interval>
						<read_timer_interval>0</read_timer_interval>
						<output_type>MMAP</output_type>
						<preallocation_policy>ON_DEMAND</preallocation_policy>
						<reclaim_policy><periodic><age_threshold>30000000</age_threshold></periodic></reclaim_policy>
					</channel>
				</channels>
			</domain>
		</domains>
		<started>false</started>
		<output><consumer_output><enabled>true</enabled><destination><path>$TEST_TMP/lt215</path></destination></consumer_output></output>
	</session>
</sessions>
EOF
run lttctl load -i "$TEST_TMP/lt215.lttng"
is "$RC" 0 "an LTTng 2.15 file with <reclaim_policy> loads"
run lttctl list lt215
like "$STDOUT" "automatic memory reclaim: older-than 30000000 us" "its <periodic> age, in us"

# where it has no meaning
run lttctl enable-channel -u -s plain c2 --auto-reclaim-memory=sometimes
is "$RC" 2 "an unknown policy is a usage error"
like "$ERR" "give off, consumed or older-than:AGE" "saying which it takes"
run lttctl enable-channel -u -s plain c2 --auto-reclaim-memory=older-than:0
is "$RC" 2 "older-than:0 is a usage error"
run lttctl enable-channel -u -s plain c2 --overwrite --auto-reclaim-memory=consumed
like "$ERR" "only on a user-space channel in discard mode" "an overwrite-mode channel is refused"
run lttctl enable-channel -k -s plain k2 --auto-reclaim-memory=older-than:1s
like "$ERR" "only on a user-space channel in discard mode" "so is a kernel channel"
lttctl create snap --snapshot -o "$TEST_TMP/snap" >/dev/null
run lttctl enable-channel -u -s snap c2 --discard --auto-reclaim-memory=consumed
like "$ERR" "a snapshot session's consumer reads nothing until a snapshot" \
	"consumed is refused in a snapshot session"
run lttctl list snap
# a word of its own: the snapshot output's path (the test directory's random name) may hold c2
unlike "$STDOUT" "(^|[[:space:]])c2([[:space:]:]|$)" "and nothing was created"
for s in plain rec aged snap lt215; do
	lttctl destroy $s >/dev/null
done
