#!/bin/bash
# test_ust_pid_procname.sh - programs whose names hold control characters
# (a line feed, an escape sequence), a backslash or a leading '.', in a
# per-PID session: each trace's directory and its metadata's procname hold
# the name escaped (\xHH, "\\"), so the directory name is printable and
# the metadata valid, and babeltrace2 reads every event of every trace.
# (Before, the raw bytes went into the directory name, the daemon could
# not write the metadata, and all of those programs' events were lost,
# uncounted.)

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup
plan 27

N=400
OUTDIR="$TEST_TMP/trace"
# A program's name (comm) is the name it was exec'd under: links to it.
names=($'sq\nx' $'sq\e[1m' 'back\slash' '.hidden' 'plain')
escaped=('sq\x0ax' 'sq\x1b[1m' 'back\\slash' '\x2ehidden' 'plain')
mkdir "$TEST_TMP/bin"
for n in "${names[@]}"; do
	ln -s "$UST_APP" "$TEST_TMP/bin/$n"
done
[ "$(basename "$(readlink -f "$UST_APP")")" = ust_app ] && ! grep -q '^#!' "$UST_APP" ||
	diag "warning: $UST_APP is a wrapper script: its name is not the program's"

ok_cmd "create" lttctl create p -o "$OUTDIR"
ok_cmd "per-PID channel" lttctl enable-channel -u channel0 --buffers-pid
ok_cmd "enable ltt_test:seq" lttctl enable-event -u ltt_test:seq
ok_cmd "start" lttctl start

for i in "${!names[@]}"; do
	(close_fifos; exec timeout "$TEST_TIMEOUT" "$TEST_TMP/bin/${names[i]}" -n $N -r "r$i")
	is $? 0 "program ${escaped[i]} ran"
done
ok_cmd "stop" lttctl stop

for i in "${!names[@]}"; do
	dirs=("$OUTDIR"/ust/pid/"${escaped[i]}"-[0-9]*-[0-9]*-[0-9]*)
	if [ ${#dirs[@]} -eq 1 ] && [ -d "${dirs[0]}" ]; then
		ok 0 "${escaped[i]}: its trace is in ${dirs[0]##*/}"
	else
		ok 1 "${escaped[i]}: its trace is in ${escaped[i]}-PID-DATE"
		diag "$(ls "$OUTDIR/ust/pid" | od -c)"
		continue
	fi
	bt "${dirs[0]}" "$TEST_TMP/out.$i"
	is "$(seq_check "$TEST_TMP/out.$i" "r$i" 1 $N)" "" "${escaped[i]}: babeltrace2 reads all its $N events"
	# TSDL quotes a backslash as "\\".
	is "$(babeltrace2 --output-format=ctf-metadata "${dirs[0]}" | grep '^	procname = ')" \
		"	procname = \"$(sed 's/\\/\\\\/g' <<<"${escaped[i]}")\";" \
		"${escaped[i]}: its metadata's procname is the escaped name"
done
# Nothing else: no directory with a raw control character in its name.
is "$(ls "$OUTDIR/ust/pid" | LC_ALL=C grep -c '[[:cntrl:]]')" 0 "no directory name holds a control character"
bt "$OUTDIR" "$TEST_TMP/all"
is "$(count_events "$TEST_TMP/all" ltt_test:seq)" $((5 * N)) "the whole output: all $((5 * N)) events"

term_sessiond
done_testing
