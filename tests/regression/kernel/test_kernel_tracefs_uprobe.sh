#!/bin/bash
# test_kernel_tracefs_uprobe.sh - user-space probes placed from outside a
# program, through the tracefs kernel backend (uprobe_events), natively:
# enable-event -k --userspace-probe on an ELF function, on SDT probes
# with and without a semaphore (their arguments recorded with their
# types), and on a shared library's function (libc's getppid), each
# event named as the user named it; a program started after start is
# probed; the semaphore is set only while the probe is placed (and its
# rule enabled); a filter on a probe's arguments; nothing
# of ltt's is left in uprobe_events or dynamic_events after destroy, nor
# after a daemon killed with SIGKILL (the next one removes its probes);
# a missing path, function or SDT probe refused at enable-event with
# exit 1 and nothing placed; save keeps the probe rules.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
export LTT_CONSUMERD_PATH="$LTT_TOP_BUILDDIR/src/consumerd/ltt-consumerd"

test_init
uprobe_setup 51
LIBC=$(ldd "$PROG" | awk '$1 ~ /^libc\.so/ { print $3 }')
LIBC=$(readlink -f "$LIBC")
N=100

sessiond_log() {
	LOG="$TEST_TMP/sessiond.$(date +%s%N).log"
	timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" -vv "$@" \
		</dev/null >/dev/null 2>"$LOG"
}
count() {
	timeout "$BT_TIMEOUT" babeltrace2 "$1" 2>/dev/null | grep -cE -- "$2" || true
}
# ours PID: the probes of daemon PID defined in uprobe_events and dynamic_events.
ours() {
	cat "$tfs/uprobe_events" "$tfs/dynamic_events" 2>/dev/null | grep -c ":ltt_$1/" || true
}

sessiond_log --kernel-backend=tracefs
ok $? "a root daemon with --kernel-backend=tracefs started"
spid=$(sessiond_pid)
before=$("$PROG" 1)
like "$before" "^pid [0-9]+ sem 0 guarded 0 " "before any probe: the semaphore is 0, the guarded probe never fires"

# Refusals: exit 1, the sentence, nothing placed, no rule.
lttctl -q create s -o "$TEST_TMP/s"
run lttctl enable-event -k --userspace-probe="elf:$TEST_TMP/nothing:main" p1 -s s
is "$RC" 1 "a missing file: exit 1"
like "$ERR" "no such probe point: the file is missing" "... saying so"
run lttctl enable-event -k --userspace-probe="$PROG:no_such_function" p1 -s s
is "$RC" 1 "a missing function: exit 1"
like "$ERR" "it has no such function \\(nm -D FILE\\)" "... saying so"
run lttctl enable-event -k --userspace-probe="sdt:$PROG:ltt_test:nope" p1 -s s
is "$RC" 1 "a missing SDT probe: exit 1"
run lttctl enable-event -k --userspace-probe="sdt:$PROG:plain" p1 -s s
is "$RC" 2 "an SDT location without its provider: a usage error, exit 2"
like "$ERR" "give sdt:PATH:PROVIDER:NAME" "... saying what to give"
run lttctl enable-event -u --userspace-probe="$PROG:uprobe_target" p1 -s s
is "$RC" 2 "--userspace-probe without -k: a usage error, exit 2"
run lttctl enable-event -k --userspace-probe="$PROG:uprobe_target" 'p*' -s s
is "$RC" 2 "a probe named with a glob: a usage error, exit 2"
run lttctl list s
unlike "$OUT" "p1|userspace-probe" "no rule was added"
is "$(ours "$spid")" 0 "nothing placed in uprobe_events"

# The probes: named as the user names them.
lttctl -q enable-event -k --userspace-probe="elf:$PROG:uprobe_target" target -s s
ok $? "an ELF function"
lttctl -q enable-event -k --userspace-probe="sdt:$PROG:ltt_test:plain" plain -s s
ok $? "an SDT probe without semaphore"
lttctl -q enable-event -k --userspace-probe="sdt:$PROG:ltt_test:guarded" guarded -s s
ok $? "an SDT probe with a semaphore"
lttctl -q enable-event -k --userspace-probe="$LIBC:getppid" libc_getppid -s s
ok $? "a function of a shared library (libc's getppid, no elf: prefix)"
lttctl -q add-context -k -t tid -s s
run lttctl list s
like "$OUT" "guarded \\(type: userspace-probe, location: sdt:$PROG:ltt_test:guarded\\)" \
	"list shows a probe's type and location"
is "$(ours "$spid")" 0 "nothing placed before start"
lttctl -q start s
is "$(grep -c ":ltt_$spid/" "$tfs/uprobe_events")" 4 "start placed the 4 probes in uprobe_events"
# (the operand is where the compiler put it: %di with gcc -O2, a stack slot under ASan)
like "$(grep ":ltt_$spid/" "$tfs/uprobe_events")" "$PROG:0x[0-9a-f]+\\(0x[0-9a-f]+\\) arg1=[^ ]+:s64" \
	"the guarded probe carries its semaphore's offset and its argument's type"

# A program started after start.
out=$("$PROG" $N)
pid=$(sed -n 's/^pid \([0-9]*\) .*/\1/p' <<<"$out")
like "$out" "^pid $pid sem [1-9][0-9]* guarded $N " "while the probe is placed its semaphore is set: the guarded probe fired $N times"
lttctl -q stop s
bt=$TEST_TMP/s.txt
timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/s" >"$bt" 2>/dev/null
is "$(grep -cE " target: .*\\{ tid = $pid \\}" "$bt")" $N "the ELF function: $N events"
is "$(grep -cE " plain: .*\\{ tid = $pid \\}" "$bt")" $N "the SDT probe: $N events"
is "$(grep -cE " guarded: .*\\{ tid = $pid \\}" "$bt")" $N "the guarded SDT probe: $N events"
is "$(grep -cE " libc_getppid: .*\\{ tid = $pid \\}" "$bt")" $N "libc's getppid: $N events"
is "$(grep -E " plain: .*\\{ tid = $pid \\}" "$bt" | sed -n 's/.*ip = 0x[0-9a-fA-F]*, //p' | head -3 | tr '\n' '|')" \
	"arg1 = 1, arg2 = -1, arg3 = 3 }|arg1 = 2, arg2 = -2, arg3 = 6 }|arg1 = 3, arg2 = -3, arg3 = 9 }|" \
	"the SDT probe's arguments, with their signs: i, -i, 3i"
is "$(grep -E " plain: .*\\{ tid = $pid \\}" "$bt" | sed -n 's/.*arg1 = \([0-9]*\),.*/\1/p' | sort -n | uniq | wc -l)" $N \
	"... each value of i once"
is "$(grep -E " guarded: .*\\{ tid = $pid \\}" "$bt" | sed -n 's/.*arg1 = \([0-9]*\) .*/\1/p' | awk '{ s += $1 } END { print s }')" \
	$((N * (N + 1) / 2)) "the guarded probe's argument: 1..$N"

mkdir -p "$TEST_TMP/saved"
run lttctl save s -o "$TEST_TMP/saved/s.ltt"
is "$RC" 0 "a session with probe rules is saved (test_saveload_probe.sh loads them back)"
is "$(grep -c '<attributes>' "$TEST_TMP/saved/s.ltt")" 4 "... each probe with its location"
lttctl -q destroy s
is "$(ours "$spid")" 0 "destroy removed the probes from uprobe_events and dynamic_events"
like "$("$PROG" 1)" "^pid [0-9]+ sem 0 guarded 0 " "after destroy the semaphore is 0 again"

# A filter on a probe's arguments; a probe rule disabled: its semaphore
# drops with it (the kernel unregisters a uprobe no instance enables).
lttctl -q create f -o "$TEST_TMP/f"
lttctl -q enable-event -k --userspace-probe="sdt:$PROG:ltt_test:plain" plain -s f \
	--filter 'arg1 > 90 && arg2 != -95'
lttctl -q enable-event -k --userspace-probe="sdt:$PROG:ltt_test:guarded" guarded -s f
lttctl -q add-context -k -t tid -s f
lttctl -q start f
pid=$("$PROG" $N | sed -n 's/^pid \([0-9]*\) sem [1-9].*/\1/p')
lttctl -q disable-event -k guarded -s f
like "$("$PROG" 1)" "^pid [0-9]+ sem 0 guarded 0 " "a probe rule disabled: its semaphore is 0 again"
lttctl -q stop f
timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/f" >"$bt" 2>/dev/null
is "$(grep -E " plain: .*\{ tid = ${pid:-none} \}" "$bt" | sed -n 's/.*arg1 = \([0-9]*\),.*/\1/p' | tr '\n' ' ')" \
	"91 92 93 94 96 97 98 99 100 " "a filter on the arguments keeps the events it takes (arg1 > 90, arg2 != -95)"
is "$(grep -cE " guarded: " "$bt")" $N "the guarded probe recorded while enabled only"
lttctl -q destroy f

# A daemon killed with SIGKILL leaves its probes; the next one removes them.
lttctl -q create k -o "$TEST_TMP/k"
lttctl -q enable-event -k --userspace-probe="sdt:$PROG:ltt_test:guarded" guarded -s k
lttctl -q enable-event -k --userspace-probe="$PROG:uprobe_target" target -s k
lttctl -q start k
is "$(ours "$spid")" 4 "a session's 2 probes placed (in uprobe_events and dynamic_events)"
kill -KILL "$spid"
wait_pid_exit "$spid"
# Any daemon removes a dead daemon's probes when it starts: a test beside
# this one (make check -j) may have done it first.
left=$(ours "$spid")
sessiond_log --kernel-backend=tracefs
ok $? "a new daemon started"
is "$(ours "$spid")" 0 "the dead daemon's probes are gone"
if [ "$left" = 4 ]; then
	like "$(cat "$LOG")" "removed probe ltt_$spid/p[0-9]+, left by a daemon that is gone" \
		"... removed by the new daemon, which says so"
else
	skip 1 "another test's daemon removed the dead daemon's probes first"
fi
like "$("$PROG" 1)" "^pid [0-9]+ sem 0 guarded 0 " "... and the semaphore with them"
spid=$(sessiond_pid)
stop_sessiond
is "$(ours "$spid")" 0 "a daemon that stops leaves no probe"

# A root daemon reads a probe's file only for a client who may read it: a
# tracing-group member naming a copy of the program in a directory only
# root enters is refused as for a missing file, nothing placed; a copy
# it may read is taken.
if can_switch_user; then
	R2="$TEST_TMP/grouprun"
	mkdir -p "$R2" "$TEST_TMP/rootonly" "$TEST_TMP/open"
	nobody_dir "$TEST_TMP/nbhome"
	chmod 700 "$TEST_TMP/rootonly"
	chmod 755 "$TEST_TMP" "$TEST_TMP/open"
	cp "$PROG" "$TEST_TMP/rootonly/prog"
	cp "$PROG" "$TEST_TMP/open/prog"
	chmod 755 "$TEST_TMP/rootonly/prog" "$TEST_TMP/open/prog"
	LOG="$TEST_TMP/grouprun.log"
	timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$R2" --group nogroup \
		--kernel-backend=tracefs </dev/null >/dev/null 2>"$LOG"
	ok $? "a root daemon for the group nogroup started"
	g_ctl() {
		timeout "$TEST_TIMEOUT" setpriv --reuid=nobody --regid=nogroup --clear-groups \
			env HOME="$TEST_TMP/nbhome" LTT_HOME="$TEST_TMP/nbhome" LTT_RUNDIR="$R2" \
			"$LTTCTL_BIN" "$@"
	}
	g_ctl -q create g -o "$TEST_TMP/nbhome/g"
	run g_ctl enable-event -k --userspace-probe="$TEST_TMP/rootonly/prog:uprobe_target" t1 -s g
	like "$RC:$ERR" "^1:.*no such probe point" \
		"a file in a directory only root enters: refused as a missing file"
	# (in the words of the daemon's process, or, dropped to nobody as by
	# default, of ltt-priv opening it with the session's owner's rights)
	like "$(cat "$LOG")" "probe t1 refused: (uid [0-9]+ may not read )?$TEST_TMP/rootonly/prog" \
		"... the daemon's log says why"
	run g_ctl enable-event -k --userspace-probe="$TEST_TMP/open/prog:uprobe_target" t2 -s g
	is "$RC:$ERR" "0:" "the same program where the user reads it: taken"
	run g_ctl list g
	like "$STDOUT" "t2" "... its rule listed"
	# a word of its own: t2's program path (the test directory's random name) may hold t1
	unlike "$STDOUT" "(^|[[:space:]])t1([[:space:]:]|$)" "... and not the refused one"
	# the directory closed to the user after enable-event: start reads the
	# file again with the owner's rights, and places nothing
	chmod 700 "$TEST_TMP/open"
	run g_ctl start g
	like "$(cat "$LOG")" "probe t2 not placed: $TEST_TMP/open/prog: Permission denied" \
		"a file the owner can no longer read at start: not placed, the log says why"
	is "$(ours "$(sessiond_pid "$R2")")" 0 "... no probe of that daemon's placed"
	g_ctl -q destroy g
	stop_sessiond "$R2"
	ok $? "that daemon stops"
else
	skip 9 "a group member's client needs root, setpriv, nobody and nogroup"
fi
