#!/bin/bash
# The "done when" scenario of the control plane, as a user types it with no
# daemon running:
#   lttctl create a; lttctl create b; lttctl enable-event -u 'app:*' -s a
#   lttctl list a; lttctl start a; lttctl destroy -a
# Every step is checked on what it printed and on what it left behind
# (the daemon, the current session in .lttrc, what list shows).
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
plan 49

rc_file="$LTT_HOME/.lttrc"
stamp_re='[0-9]{8}-[0-9]{6}'

# --- create a: no daemon yet, so lttctl starts one and says so.
ok "$([ ! -e "$LTT_RUNDIR/client.sock" ]; echo $?)" "no daemon before the first create"
before=$(date +%Y%m%d-%H%M%S)
run lttctl create a
after=$(date +%Y%m%d-%H%M%S)
is "$RC" 0 "create a: exit 0"
is "$ERR" "" "create a: nothing on stderr"
is "$(sed -n 1p <<<"$STDOUT")" "Spawned a session daemon (run directory $LTT_RUNDIR)" \
	"create a: says it spawned a daemon, and where"
is "$(sed -n 2p <<<"$STDOUT")" "Session a created." "create a: 'Session a created.'"
out_a=$(sed -n 's/^Traces will be written in //p' <<<"$STDOUT")
like "$out_a" "^$LTT_HOME/ltt-traces/a-$stamp_re\$" \
	"create a: default output under \$LTT_HOME/ltt-traces/a-DATE"
stamp=${out_a##*/a-}
ok "$([[ ! "$stamp" < "$before" && ! "$stamp" > "$after" ]]; echo $?)" \
	"create a: the output's date ($stamp) is the creation time"
is "$(wc -l <<<"$STDOUT")" 3 "create a: exactly three lines of output"
pid=$(sessiond_pid)
ok "$(proc_alive "$pid"; echo $?)" "the spawned daemon runs (pid file: '$pid')"
ok "$([ -S "$LTT_RUNDIR/client.sock" ]; echo $?)" "its socket is in the run directory"
is "$(cat "$rc_file" 2>/dev/null)" "session=a" ".lttrc: a is the current session"

# --- create b: the daemon is there now; b becomes current.
run lttctl create b
is "$RC" 0 "create b: exit 0"
out_b=$(sed -n 's/^Traces will be written in //p' <<<"$STDOUT")
is "$STDOUT" "Session b created."$'\n'"Traces will be written in $out_b" \
	"create b: no second daemon spawned, two lines"
like "$out_b" "^$LTT_HOME/ltt-traces/b-$stamp_re\$" "create b: default output for b"
is "$(sessiond_pid)" "$pid" "create b: same daemon"
is "$(cat "$rc_file" 2>/dev/null)" "session=b" ".lttrc: b is now the current session"

# --- enable-event -u 'app:*' -s a: channel0 appears in a, not in the current b.
run lttctl enable-event -u 'app:*' -s a
is "$RC" 0 "enable-event: exit 0"
is "$OUT" "Event rule app:* enabled in channel channel0 of session a (user)." \
	"enable-event: names the rule, the default channel, the session and the domain"
is "$(cat "$rc_file")" "session=b" ".lttrc: -s a did not change the current session"

# --- list a: the whole listing.
expected_list_a="Session a ($out_a) [inactive]

=== Domain: User space ===

Buffering scheme: per-uid

$(listed_channel channel0)
      app:* (loglevel: any) [enabled]"
run_noclock lttctl list a
is "$RC" 0 "list a: exit 0"
is "$STDOUT" "$expected_list_a" "list a: session, user domain, channel0 with defaults, the rule"
is "$ERR" "" "list a: nothing on stderr"
unlike "$STDOUT" "Kernel" "list a: no kernel domain shown (it has no kernel channel)"

run_noclock lttctl list b
is "$RC" 0 "list b: exit 0"
is "$STDOUT" "Session b ($out_b) [inactive]"$'\n\n'"No channels." "list b: no channels"

run lttctl list
is "$RC" 0 "list: exit 0"
is "$STDOUT" "  1) a ($out_a) [inactive]"$'\n'"  2) b ($out_b) [inactive]" \
	"list: both sessions, in creation order, inactive"

# --- start a
run lttctl start a
is "$RC" 0 "start a: exit 0"
is "$OUT" "Tracing started for session a." "start a: says so"
run lttctl list
is "$STDOUT" "  1) a ($out_a) [active]"$'\n'"  2) b ($out_b) [inactive]" \
	"list: a is active, b still inactive"
run lttctl list a
is "$(head -n 1 <<<"$STDOUT")" "Session a ($out_a) [active]" "list a: header says active"
is "$(tail -n 1 <<<"$STDOUT")" "      app:* (loglevel: any) [enabled]" "list a: the rule is still there"

# status: the current session (b) in full.
run_noclock lttctl status
is "$RC" 0 "status: exit 0"
is "$STDOUT" "Session b ($out_b) [inactive]"$'\n\n'"No channels." "status shows the current session, b"

# --- destroy -a
run lttctl destroy -a
is "$RC" 0 "destroy -a: exit 0"
is "$OUT" "Session a destroyed."$'\n'"Session b destroyed." "destroy -a: one line per session"
run lttctl list
is "$RC" 0 "list after destroy -a: exit 0"
is "$OUT" "No sessions." "list after destroy -a: 'No sessions.'"
ok "$([ ! -e "$rc_file" ]; echo $?)" ".lttrc removed: the current session was destroyed"
ok "$(proc_alive "$pid"; echo $?)" "the daemon still runs after destroy -a"
is "$(sessiond_pid)" "$pid" "same daemon pid file"

run lttctl status
is "$RC" 1 "status with no current session: exit 1"
is "$OUT" "Error: no session given and no current session; create one or use 'lttctl set-session NAME'" \
	"status: NO_SESSION message"
run lttctl destroy -a
is "$RC" 0 "destroy -a with nothing left: exit 0"
is "$OUT" "No sessions." "destroy -a with nothing left: 'No sessions.'"

# The names are free again: the same scenario works a second time.
run lttctl create a
is "$RC" 0 "create a again after destroy: exit 0"
is "$(head -n 1 <<<"$STDOUT")" "Session a created." "create a again: same daemon, no spawn"

ok "$(stop_sessiond; echo $?)" "the daemon exits on SIGTERM"
ok "$([ ! -e "$LTT_RUNDIR/client.sock" ]; echo $?)" "and removes its socket"
done_testing
