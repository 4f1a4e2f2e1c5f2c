#!/bin/bash
# Many sessions at once, every output form, automatic names, the current
# session (.lttrc), set-session, status and destroy: each checked on what
# list shows afterwards.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
plan 106

rc_file="$LTT_HOME/.lttrc"
stamp_re='[0-9]{8}-[0-9]{6}'
N=100

start_sessiond || { echo "Bail out! ltt-sessiond did not start"; exit 1; }

# --- 100 sessions, every tenth with a rule and started.
name() { printf 's%03d' "$1"; }
fails=0
for i in $(seq 1 $N); do
	lttctl -q create "$(name "$i")" -o "$TEST_TMP/out/$(name "$i")" || fails=$((fails + 1))
done
is "$fails" 0 "$N creates succeeded"
for i in $(seq 10 10 $N); do
	{ lttctl -q enable-event -u "ev$i" -s "$(name "$i")" &&
		lttctl -q start "$(name "$i")"; } || fails=$((fails + 1))
done
is "$fails" 0 "a rule enabled in every tenth session, and the session started"

expected=""
for i in $(seq 1 $N); do
	state=inactive
	[ $((i % 10)) = 0 ] && state=active
	expected+="  $i) $(name "$i") ($TEST_TMP/out/$(name "$i")) [$state]"$'\n'
done
expected=${expected%$'\n'}
run lttctl list
is "$RC" 0 "list of $N sessions: exit 0"
is "$(grep -c ')' <<<"$STDOUT")" "$N" "list shows exactly $N sessions"
is "$STDOUT" "$expected" "list: every name, output and state, in creation order"
is "$(cat "$rc_file")" "session=s100" ".lttrc: the last session created is current"

run lttctl list s070
is "$(head -n 1 <<<"$STDOUT")" "Session s070 ($TEST_TMP/out/s070) [active]" "list s070: header"
is "$(tail -n 1 <<<"$STDOUT")" "      ev70 (loglevel: any) [enabled]" "list s070: its own rule only"
is "$(grep -c 'loglevel' <<<"$STDOUT")" 1 "list s070: exactly one rule"

# --- set-session and status
run lttctl set-session s050
is "$RC" 0 "set-session s050: exit 0"
is "$OUT" "Session set to s050." "set-session: says so"
is "$(cat "$rc_file")" "session=s050" ".lttrc: s050 is current"
run lttctl status
is "$(head -n 1 <<<"$STDOUT")" "Session s050 ($TEST_TMP/out/s050) [active]" "status shows s050"

# Other lines of .lttrc are kept when the current session changes.
printf 'editor=vi\nsession=s050\n# comment\n' >"$rc_file"
run lttctl set-session s040
is "$(cat "$rc_file")" $'editor=vi\n# comment\nsession=s040' \
	".lttrc: other lines kept, one session line"

# --- destroy: the current one clears .lttrc, another one leaves it.
run lttctl destroy s030
is "$RC" 0 "destroy s030 (not current): exit 0"
is "$OUT" "Session s030 destroyed." "destroy s030: says so"
is "$(cat "$rc_file")" $'editor=vi\n# comment\nsession=s040' ".lttrc unchanged by destroying another session"
run lttctl destroy
is "$RC" 0 "destroy with no NAME (the current s040): exit 0"
is "$OUT" "Session s040 destroyed." "destroy: destroyed the current session"
is "$(cat "$rc_file")" $'editor=vi\n# comment' ".lttrc: session line gone, other lines kept"
run lttctl start
is "$RC" 1 "start with no current session: exit 1"

# Destroy every odd session: the even ones are intact.
for i in $(seq 1 2 $N); do
	lttctl -q destroy "$(name "$i")" || fails=$((fails + 1))
done
is "$fails" 0 "every odd session destroyed"
expected=""
n=0
for i in $(seq 2 2 $N); do
	[ "$i" = 30 ] || [ "$i" = 40 ] && continue
	n=$((n + 1))
	state=inactive
	[ $((i % 10)) = 0 ] && state=active
	expected+="  $n) $(name "$i") ($TEST_TMP/out/$(name "$i")) [$state]"$'\n'
done
expected=${expected%$'\n'}
run lttctl list
is "$(grep -c ')' <<<"$STDOUT")" 48 "48 sessions left"
is "$STDOUT" "$expected" "the even sessions are intact: names, outputs, states"
run lttctl list s080
is "$(tail -n 1 <<<"$STDOUT")" "      ev80 (loglevel: any) [enabled]" "s080 still has its rule"
lttctl -q destroy -a
run lttctl list
is "$OUT" "No sessions." "destroy -a: nothing left"

# --- automatic names
before=$(date +%Y%m%d-%H%M%S)
run lttctl create
after=$(date +%Y%m%d-%H%M%S)
is "$RC" 0 "create with no name: exit 0"
auto=$(sed -n 's/^Session \(.*\) created\.$/\1/p' <<<"$STDOUT")
like "$auto" "^auto-$stamp_re\$" "automatic name: auto-YYYYmmdd-HHMMSS ($auto)"
ok "$([[ ! "${auto#auto-}" < "$before" && ! "${auto#auto-}" > "$after" ]]; echo $?)" \
	"automatic name: the creation time"
is "$(sed -n 2p <<<"$STDOUT")" "Traces will be written in $LTT_HOME/ltt-traces/$auto" \
	"automatic name: output \$LTT_HOME/ltt-traces/NAME, no second date"
is "$(cat "$rc_file")" $'editor=vi\n# comment\nsession='"$auto" ".lttrc: the automatic session is current"
run lttctl list
is "$STDOUT" "  1) $auto ($LTT_HOME/ltt-traces/$auto) [inactive]" "list shows the automatic session"
lttctl -q destroy -a
# in a home of LTTng's layout ($LTTNG_HOME alone) the library names it, as the daemon would
run timeout "$TEST_TIMEOUT" env -u LTT_HOME LTTNG_HOME="$TEST_TMP/lh" "$LTTCTL_BIN" create
auto=$(sed -n 's/^Session \(.*\) created\.$/\1/p' <<<"$STDOUT")
like "$RC:$auto" "^0:auto-$stamp_re\$" "\$LTTNG_HOME: automatic name auto-YYYYmmdd-HHMMSS ($auto)" ||
	diag "$OUT"
is "$(sed -n 2p <<<"$STDOUT")" "Traces will be written in $TEST_TMP/lh/lttng-traces/$auto" \
	"... output \$LTTNG_HOME/lttng-traces/NAME, no second date"
run timeout "$TEST_TIMEOUT" env -u LTT_HOME LTTNG_HOME="$TEST_TMP/lh" "$LTTCTL_BIN" create lhnamed
like "$(sed -n 2p <<<"$STDOUT")" "^Traces will be written in $TEST_TMP/lh/lttng-traces/lhnamed-$stamp_re\$" \
	"... a named one's: \$LTTNG_HOME/lttng-traces/NAME-DATE" || diag "$OUT"
lttctl -q destroy -a
# lttctl run as lttng (ltt-lttng-compat's name for it): LTTng's
# lttng-traces, in a home of ltt's layout too, as LTTng's own lttng
mkdir -p "$TEST_TMP/asl"
ln -s "$LTTCTL_BIN" "$TEST_TMP/asl/lttng"
run timeout "$TEST_TIMEOUT" "$TEST_TMP/asl/lttng" create asnamed
like "$RC:$(sed -n 2p <<<"$STDOUT")" "^0:Traces will be written in $LTT_HOME/lttng-traces/asnamed-$stamp_re\$" \
	"run as lttng: a named session's output \$HOME/lttng-traces/NAME-DATE, as LTTng's" || diag "$OUT"
run timeout "$TEST_TIMEOUT" "$TEST_TMP/asl/lttng" create
auto=$(sed -n 's/^Session \(.*\) created\.$/\1/p' <<<"$STDOUT")
is "$RC:$(sed -n 2p <<<"$STDOUT")" "0:Traces will be written in $LTT_HOME/lttng-traces/$auto" \
	"... an automatic one's \$HOME/lttng-traces/NAME, no second date" || diag "$OUT"
lttctl -q destroy -a

# --- outputs
mkdir -p "$TEST_TMP/work"
cd "$TEST_TMP/work" || exit 1
run lttctl create rel -o traces/x
is "$OUT" "Session rel created."$'\n'"Traces will be written in $TEST_TMP/work/traces/x" \
	"-o relative: made absolute from the current directory"
run lttctl create dot -o ./y/
is "$(sed -n 2p <<<"$OUT")" "Traces will be written in $TEST_TMP/work/y" "-o ./y/: ./ and trailing / dropped"
run lttctl create here -o .
is "$(sed -n 2p <<<"$OUT")" "Traces will be written in $TEST_TMP/work" "-o .: the current directory"
run lttctl create none --no-output
is "$OUT" "Session none created."$'\n'"No output: the traces stay in the tracing buffers." \
	"--no-output: says there is no output"
run lttctl create file --set-url "file://$TEST_TMP/f"
is "$OUT" "Session file created."$'\n'"Traces will be written in $TEST_TMP/f" \
	"--set-url file://: a local directory"
# Relays: listeners that answer the session daemon's VERSION check.
stub="$LTT_TOP_BUILDDIR/tests/regression/relay_stub"
stub_pids=()
trap 'kill -KILL "${stub_pids[@]}" 2>/dev/null; _cleanup' EXIT
stub_pids+=("$(timeout "$TEST_TIMEOUT" "$stub" relay "$TEST_TMP/relay4.port")")
stub_pids+=("$(timeout "$TEST_TIMEOUT" "$stub" relay "$TEST_TMP/relay6.port" 6)")
P4=$(cat "$TEST_TMP/relay4.port")
P6=$(cat "$TEST_TMP/relay6.port")
run lttctl create net -U "net://localhost:$P4"
is "$OUT" "Session net created."$'\n'"Traces will be sent to net://localhost:$P4" \
	"-U net://: sent to the relay"
run lttctl create net6 -U "net6://[::1]:$P6:6001/sub"
is "$(sed -n 2p <<<"$OUT")" "Traces will be sent to net6://[::1]:$P6:6001/sub" "-U net6:// with ports and path"
run lttctl create snap --snapshot
is "$RC" 0 "--snapshot: a snapshot session (exit 0)"
is "$OUT" "Session snap created."$'\n'"Snapshot mode: events stay in the buffers until 'lttctl snapshot record' writes them ('lttctl snapshot list-output' shows where)." \
	"--snapshot: it says so"
run lttctl create live -C "tcp://127.0.0.1:$P4" -D tcp://127.0.0.1 --live
is "$OUT" "Session live created."$'\n'"Traces will be sent to net://127.0.0.1:$P4:5343"$'\n'"Live timer interval set to 1000000 us" \
	"--live -C -D: the live timer by default"
run lttctl create live2 --live=2000 -U "net://127.0.0.1:$P4:7000"
is "$(sed -n 2p <<<"$OUT")" "Traces will be sent to net://127.0.0.1:$P4:7000" "--live=2000 -U: the given relay"
run lttctl create live3 --live -U "net4://localhost:$P4" # a bare --live before other options
is "$RC" 0 "--live followed by -U: exit 0"

expected="  1) rel ($TEST_TMP/work/traces/x) [inactive]
  2) dot ($TEST_TMP/work/y) [inactive]
  3) here ($TEST_TMP/work) [inactive]
  4) none (no output) [inactive]
  5) file ($TEST_TMP/f) [inactive]
  6) net (net://localhost:$P4) [inactive]
  7) net6 (net6://[::1]:$P6:6001/sub) [inactive]
  8) snap (snapshots only) [inactive] [snapshot]
  9) live (net://127.0.0.1:$P4:5343) [inactive] [live, 1000000 us]
  10) live2 (net://127.0.0.1:$P4:7000) [inactive] [live, 2000 us]
  11) live3 (net4://localhost:$P4) [inactive] [live, 1000000 us]"
run lttctl list
is "$STDOUT" "$expected" "list: every output form, a snapshot session, [live, US us]"
run lttctl list none
is "$(head -n 1 <<<"$STDOUT")" "Session none (no output) [inactive]" "list none: (no output)"
run lttctl list live2
is "$(head -n 1 <<<"$STDOUT")" "Session live2 (net://127.0.0.1:$P4:7000) [inactive] [live, 2000 us]" \
	"list live2: header with the live period"
# LTTng's spelling: the period as the word after --live (its tests'
# "create NAME --live 2000000 -U URL"), when that word reads as a period
run lttctl create live4 --live 2000000 -U "net://127.0.0.1:$P4"
is "$RC:$(sed -n 3p <<<"$OUT")" "0:Live timer interval set to 2000000 us" "--live 2000000: the period, as LTTng takes it"
run lttctl create live5 --live 2s -U "net://127.0.0.1:$P4"
is "$RC:$(sed -n 3p <<<"$OUT")" "0:Live timer interval set to 2000000 us" "--live 2s: a period with a unit"
run lttctl create --live live6 -U "net://127.0.0.1:$P4"
is "$RC:$OUT" "0:Session live6 created."$'\n'"Traces will be sent to net://127.0.0.1:$P4"$'\n'"Live timer interval set to 1000000 us" \
	"--live NAME: a word that is no period stays the name (default period)"
run lttctl create live7 --live 500 -U "net://127.0.0.1:$P4"
like "$RC:$OUT" "^2:Error: invalid live timer period '500': use microseconds from 1000" \
	"--live 500: the word is the period, and too short: refused"
is "$(lttctl list | grep -c ') live[4-7] ')" 3 "live4, live5, live6 listed, not live7"
run lttctl list live4
is "$(head -n 1 <<<"$STDOUT")" "Session live4 (net://127.0.0.1:$P4) [inactive] [live, 2000000 us]" \
	"list live4: the period of --live 2000000"
lttctl -q destroy live4 && lttctl -q destroy live5 && lttctl -q destroy live6
ok $? "destroy live4, live5, live6"
cd "$TEST_TMP" || exit 1

# --- -q, --rundir
run lttctl -q create quiet
is "$RC" 0 "-q create: exit 0"
is "$OUT" "" "-q create: prints nothing"
run env LTT_RUNDIR="$TEST_TMP/nowhere" "$LTTCTL_BIN" --rundir "$LTT_RUNDIR" list quiet
is "$RC" 0 "--rundir overrides LTT_RUNDIR: exit 0"
like "$(head -n 1 <<<"$STDOUT")" "^Session quiet \($LTT_HOME/ltt-traces/quiet-$stamp_re\) \[inactive\]\$" \
	"--rundir: talks to the daemon of that directory"
run env LTT_RUNDIR="$TEST_TMP/nowhere" "$LTTCTL_BIN" list
is "$RC" 1 "LTT_RUNDIR to a directory without daemon: exit 1"
is "$OUT" "Error: session daemon (run directory $TEST_TMP/nowhere): no session daemon is running; start one with 'ltt-sessiond -d' or let 'lttctl create' start it" \
	"no daemon there: SESSIOND_NOT_RUNNING, naming the run directory"
ok "$([ ! -e "$TEST_TMP/nowhere" ]; echo $?)" "list did not start a daemon there"

# --- names: the longest, and non-ASCII
long=$(printf 'n%.0s' $(seq 255))
run lttctl create "$long" --no-output
is "$RC" 0 "a 255-byte name is accepted"
run lttctl list "$long"
is "$(head -n 1 <<<"$STDOUT")" "Session $long (no output) [inactive]" "list shows the 255-byte name whole"
run lttctl create 'séance-été_1.2' --no-output
is "$RC" 0 "a UTF-8 name with '.', '-', '_' is accepted"
run lttctl list
like "$STDOUT" "\) séance-été_1\.2 \(no output\) \[inactive\]" "list shows the UTF-8 name"

# --- channels and rules: attributes, log levels, disable and enable again
lttctl -q destroy -a
lttctl -q create c --no-output
run lttctl enable-channel -u big --buffers-pid --subbuf-size 64k --num-subbuf 8 --overwrite \
	--switch-timer 1000 --read-timer 200 --tracefile-size 1M --tracefile-count 4
is "$OUT" "Channel big enabled for session c." "enable-channel with every attribute"
run lttctl enable-event -u ev
is "$RC" 1 "enable-event without -c while the domain has channel big: refused, as LTTng does"
lttctl -q enable-channel -u channel0
run lttctl enable-event -u ev -c channel0
is "$OUT" "Event rule ev enabled in channel channel0 of session c (user)." \
	"enable-event -c channel0: in channel0, made next to big"
run lttctl enable-event -u -a -c channel0
is "$OUT" "Event rule * enabled in channel channel0 of session c (user)." "enable-event -a: the pattern *"
lttctl -q enable-event -u w --loglevel warning -c channel0
lttctl -q enable-event -u w --loglevel-only LTT_LOGLEVEL_ERR -c channel0
lttctl -q enable-event -u x --loglevel-only 14 -c big
run lttctl enable-event -u w --loglevel 4 -c channel0
is "$RC" 1 "--loglevel 4 is --loglevel warning: the identical rule is refused"
lttctl -q enable-channel -u small1,small2 --subbuf-size 16k
run lttctl disable-channel -u small1,small2
is "$OUT" "Channel small1 disabled for session c."$'\n'"Channel small2 disabled for session c." \
	"disable-channel of a list: one line each"
lttctl -q disable-channel -u big
run lttctl enable-channel -u big
is "$OUT" "Channel big enabled for session c." "enable-channel NAME re-enables a disabled channel, whatever its attributes"
run lttctl disable-event -u -a -c channel0
is "$OUT" "All event rules disabled in channel channel0 of session c (user)." "disable-event -a: says so"
run lttctl enable-event -u ev -c channel0
is "$RC" 0 "enable-event of a disabled rule enables it again"
user_part="=== Domain: User space ===

Buffering scheme: per-pid

$(listed_channel big enabled '64 KiB' 8 overwrite '1000 us' '200 us' '1 MiB' 4)
      x (loglevel: DEBUG only) [enabled]

$(listed_channel channel0)
      ev (loglevel: any) [enabled]
      * (loglevel: any) [disabled]
      w (loglevel: WARNING or more severe) [disabled]
      w (loglevel: ERR only) [disabled]

$(listed_channel small1 disabled '16 KiB')
      none

$(listed_channel small2 disabled '16 KiB')
      none"
run_noclock lttctl list c
is "$STDOUT" "Session c (no output) [inactive]

$user_part" "list c: every attribute, rule and state (no kernel channel: none can be made)"
run_noclock lttctl list c -u
is "$STDOUT" "Session c (no output) [inactive]

$user_part" "list c -u: the user domain only"
run_noclock lttctl list c -k
is "$STDOUT" "Session c (no output) [inactive]

No channels." "list c -k: the kernel domain only, empty"

# LTTng's -C/-W (--tracefile-size, --tracefile-count), and its rounding of
# a trace file size under the sub-buffer size up to it (a file holds whole
# sub-buffers), with a warning; a count without a size refused, as LTTng.
lttctl -q create tf --no-output
run lttctl enable-channel -u t1 -C 4k -W 3
is "$RC:$STDOUT" "0:Channel t1 enabled for session tf." "enable-channel -C 4k -W 3: enabled"
is "$ERR" "Warning: channel 't1': --tracefile-size 4096 rounded up to the sub-buffer size, 524288: a trace file holds whole sub-buffers, so a trace file size under the sub-buffer size is taken as the sub-buffer size, as LTTng takes it: give -C/--tracefile-size of at least --subbuf-size to choose the size yourself" \
	"-C under the sub-buffer size: the warning says what was taken"
run lttctl enable-channel -u t2 --subbuf-size 64k --tracefile-size 32k --tracefile-count 2
like "$RC:$ERR" "^0:Warning: channel 't2': --tracefile-size 32768 rounded up to the sub-buffer size, 65536: " \
	"--tracefile-size 32k, sub-buffers of 64k: rounded to 64k"
run lttctl enable-channel -u t3 -C 1M
is "$RC:$ERR" "0:" "-C 1M (over the sub-buffer size): no warning"
run lttctl enable-channel -u t4 -W 10
is "$RC:$STDOUT" "2:" "-W without -C: a usage error, as LTTng refuses it"
is "${ERR%%$'\n'*}" "Error: -W/--tracefile-count needs -C/--tracefile-size: without a size limit a stream has one file, and a count of files changes nothing" \
	"-W without -C: why"
run_noclock lttctl list tf
is "$(grep -A10 '^- t1:' <<<"$STDOUT" | grep -A1 'tracefile size')" "      tracefile size: 512 KiB
      tracefile count: 3" "list: t1's files of one sub-buffer (512 KiB), 3 of them"
is "$(grep -A10 '^- t2:' <<<"$STDOUT" | grep -A1 'tracefile size')" "      tracefile size: 64 KiB
      tracefile count: 2" "list: t2's files of 64 KiB, 2 of them"
is "$(grep -A10 '^- t3:' <<<"$STDOUT" | grep 'tracefile size')" "      tracefile size: 1 MiB" "list: t3's 1 MiB"
unlike "$STDOUT" "- t4:" "list: no t4"
lttctl -q destroy tf

# LTTng's user-space "metadata" channel (its periodical-metadata-flush
# tests): checked as a channel, taken with a warning, nothing made
lttctl -q create md --no-output
run lttctl enable-channel --buffers-pid -u metadata -s md --switch-timer 200000
is "$RC:$STDOUT" "0:Channel metadata enabled for session md." "enable-channel -u metadata --switch-timer: taken"
like "$ERR" "^Warning: channel 'metadata' of session 'md': ltt has no metadata ring buffer to size or time" \
	"... with a warning saying why it sets nothing"
ok_cmd "a per-PID channel next to it" lttctl enable-channel --buffers-pid -u channel0 -s md --switch-timer 100000
run lttctl enable-channel -u metadata -s md --buffers-uid
like "$RC:$ERR" "^1:Error: channel 'metadata' of session 'md': all channels of a domain in a session must use the same buffer ownership" \
	"metadata per UID in a per-PID session: refused, as LTTng refuses it"
run lttctl enable-channel -u metadata -s md --subbuf-size 3000
like "$RC:$ERR" "^1:Error: channel 'metadata' of session 'md': invalid sub-buffer size" \
	"metadata with a sub-buffer size a channel can't have: refused"
run lttctl enable-channel -k metadata -s md
like "$RC:$ERR" "^1:Error: channel 'metadata': invalid channel name" "-k metadata: still a reserved name"
run lttctl list md
is "$(grep -c '^- ' <<<"$STDOUT"):$(grep -c 'metadata' <<<"$STDOUT")" "1:0" \
	"list md: channel0 alone, no metadata channel (as LTTng lists none)"
lttctl -q destroy md

# Names that look like format strings or hold spaces are names like others.
for n in '%s%n%x' 'my session'; do
	run lttctl create "$n" --no-output
	is "$OUT" "Session $n created."$'\n'"No output: the traces stay in the tracing buffers." "create '$n'"
	run lttctl list "$n"
	is "$(head -n 1 <<<"$STDOUT")" "Session $n (no output) [inactive]" "list '$n'"
done

# The longest output directory: 4095 bytes.
long_dir=/$(printf 'd%.0s' $(seq 4094))
run lttctl create longout -o "$long_dir"
is "$RC" 0 "-o with a 4095-byte path: accepted"
run lttctl list longout
is "$(head -n 1 <<<"$STDOUT")" "Session longout ($long_dir) [inactive]" "list shows the 4095-byte output whole"
run lttctl create longer -o "${long_dir}d"
is "$OUT" "Error: output directory '${long_dir:0:64}...': invalid output directory: give an absolute path of at most 4095 bytes" \
	"-o with a 4096-byte path: OUTPUT_PATH"

term_sessiond
done_testing
