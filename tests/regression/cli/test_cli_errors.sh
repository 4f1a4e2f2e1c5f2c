#!/bin/bash
# Every command's errors: the exit status (1 failure, 2 usage), the exact
# message on stderr, nothing on stdout, and nothing changed: the daemon's
# whole state (every session with its channels and rules, as the protocol
# returns it) and .lttrc are the same before and after.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
need_proto_client

rc_file="$LTT_HOME/.lttrc"
sock="$LTT_RUNDIR/client.sock"

start_sessiond "$LTT_RUNDIR" --no-kernel || { echo "Bail out! ltt-sessiond did not start"; exit 1; }

# --- Fixture.  a: user channel0 (rules ev1, ev2 disabled), c1 enabled, c2
# disabled; b: active; e: empty.  The current session is a.  No kernel
# channel: this daemon serves no kernel domain (test_cli_refused.sh).
setup_ok=0
for cmd in "create b --no-output" "enable-event -u x" "start" \
	"create e --no-output" \
	"create a -o $TEST_TMP/out/a" "enable-event -u ev1" "enable-event -u ev2" \
	"disable-event -u ev2" "enable-channel -u c1" "enable-channel -u c2" \
	"disable-channel -u c2"; do
	# shellcheck disable=SC2086
	lttctl -q $cmd || setup_ok=1
done
ok $setup_ok "fixture: sessions a, b (active) and e, channels and rules"
run lttctl list a
unlike "$STDOUT" "Domain: Kernel" "fixture: no kernel domain in session a"
like "$STDOUT" $'- c2: \\[disabled\\]' "fixture: c2 is disabled"
like "$STDOUT" $'ev2 \\(loglevel: any\\) \\[disabled\\]' "fixture: ev2 is disabled"

state() {
	"$PROTO_CLIENT" "$sock" dump
	echo "lttrc: $(cat "$rc_file" 2>/dev/null)"
}
STATE=$(state)
matches "$STATE" "^LIST [0-9a-f]+"$'\n'"SESSION b [0-9a-f]+"$'\n'"SESSION e [0-9a-f]+"$'\n'"SESSION a [0-9a-f]+"$'\n'"lttrc: session=a\$" \
	"the state dump sees b, e and a, and a is current"

# fails RC MESSAGE ARG...: lttctl ARG... exits RC, prints MESSAGE as the first
# line of stderr (then the command's usage for RC 2), nothing on stdout, and
# changes nothing.
# quoted WORD: WORD as an error quotes it: whole up to 67 bytes, else its
# first 64 and "..." (ltt_escape_vasprintf(), LTT_ESCAPE_CAP_QUOTED).
quoted() {
	if [ ${#1} -gt 67 ]; then printf '%s...' "${1:0:64}"; else printf '%s' "$1"; fi
}

fails() {
	local want_rc=$1 want_msg=$2 desc now rest
	shift 2
	desc="lttctl $*"
	desc=${desc//[^[:print:]]/?}
	[ ${#desc} -gt 72 ] && desc="${desc:0:69}..."
	run lttctl "$@"
	is "$RC" "$want_rc" "$desc: exit $want_rc"
	is "${ERR%%$'\n'*}" "$want_msg" "$desc: message"
	if [ "$want_rc" = 2 ]; then
		rest=${ERR#*$'\n'}
		ok "$([[ "$rest" == "Usage: lttctl "* && "$rest" != *$'\n'* ]]; echo $?)" \
			"$desc: then the usage line"
	else
		ok "$([[ "$ERR" != *$'\n'* ]]; echo $?)" "$desc: one line on stderr"
	fi
	is "$STDOUT" "" "$desc: nothing on stdout"
	now=$(state)
	is "$now" "$STATE" "$desc: nothing changed"
	STATE=$now
}

m_not_found="no session by that name; 'lttctl list' shows the existing sessions"
m_name="invalid session name: use 1 to 255 printable characters, no '/' and no leading '.' or '-'"
m_url="invalid URL: use file:///ABS/PATH, net://HOST[:CTRL[:DATA]][/PATH] or net6://[ADDR][:CTRL[:DATA]]"
m_subbuf="invalid sub-buffer size: use a power of two of at least one page (k, M, G suffixes)"
m_count="invalid sub-buffer count: use a power of two of at least 2"
m_chan_nf="no channel by that name in this domain; 'lttctl list SESSION' shows the channels"
m_chan_name="invalid channel name: use 1 to 219 letters, digits, '_', '-' or '.', not starting with '.' or '-' ('metadata' is reserved)"
m_ev_name="invalid event name or pattern: use letters, digits, '_', ':', '.', '-' and '*' globs"
m_ev_nf="no event rule matches in this channel; 'lttctl list SESSION' shows the rules"
m_no_session="Error: no session given and no current session; create one or use 'lttctl set-session NAME'"
m_conflict="Error: conflicting output options: choose one of -o, --set-url and --no-output"
m_domain="Error: a domain is needed: -k (kernel) or -u (user space)"
if [ "$(id -u)" = 0 ]; then
	m_kernel_off="kernel tracing is disabled in this session daemon (--no-kernel); restart it without that option"
else
	m_kernel_off="kernel tracing needs the root session daemon; run lttctl as root or as a member of the tracing group"
fi

# --- lttctl itself
fails 2 "Error: unknown command 'bogus'; 'lttctl help' lists them" bogus
fails 2 "Error: no command given; 'lttctl help' lists them"
fails 2 "Error: --bogus: unknown option" --bogus list
fails 2 "Error: unknown command 'bogus'" help bogus
fails 2 "Error: unexpected argument 'b'" help list b

# --- unknown options and extra arguments, command by command
for cmd in create destroy start stop list status set-session enable-channel \
	disable-channel enable-event disable-event version; do
	fails 2 "Error: --bogus: unknown option" $cmd --bogus
done
fails 2 "Error: -Z: unknown option" create -Z x
fails 2 "Error: unexpected argument 'b'" create a b
fails 2 "Error: unexpected argument 'b'" start a b
fails 2 "Error: unexpected argument 'b'" stop a b
fails 2 "Error: unexpected argument 'b'" destroy a b
fails 2 "Error: unexpected argument 'b'" list a b
fails 2 "Error: unexpected argument 'a'" status a
fails 2 "Error: unexpected argument 'x'" version x
fails 2 "Error: unexpected argument 'b'" set-session a b
fails 2 "Error: a session name is needed" set-session
fails 2 "Error: give a session name or -a, not both" destroy -a a
fails 2 "Error: -f lists the fields of available events: use it with -k or -u" list -f

# --- missing -u/-k, both, missing names
fails 2 "$m_domain" enable-channel c9 -s a
fails 2 "$m_domain" disable-channel c1 -s a
m_rule_domain="Error: a domain is needed: -k (kernel), -u (user space), -p (python), -j (JUL) or -l (log4j)"
fails 2 "$m_rule_domain" enable-event ev9 -s a
fails 2 "$m_rule_domain" disable-event ev1 -s a
fails 2 "Error: choose one domain: -k or -u, not both" enable-channel -u -k c9 -s a
fails 2 "Error: choose one domain of -k, -u, -p, -j and -l, not two" enable-event -u -k ev9 -s a
fails 2 "Error: a channel name is needed" enable-channel -u -s a
fails 2 "Error: a channel name is needed" disable-channel -u -s a
fails 2 "Error: an event pattern (or -a) is needed" enable-event -u -s a
fails 2 "Error: an event pattern (or -a) is needed" disable-event -u -s a
fails 2 "Error: give event patterns or -a, not both" enable-event -u ev9 -a -s a
fails 2 "Error: give event patterns or -a, not both" disable-event -u ev1 -a -s a
fails 2 "Error: unexpected argument 'ev10'" enable-event -u ev9 ev10 -s a
fails 2 "Error: -s: missing argument" enable-event -u ev9 -s

# --- unknown session, for every command that names one
for cmd in start stop destroy list set-session; do
	fails 1 "Error: session 'nope': $m_not_found" $cmd nope
done
fails 1 "Error: session 'nope': $m_not_found" enable-channel -u c9 -s nope
fails 1 "Error: session 'nope': $m_not_found" disable-channel -u c1 -s nope
fails 1 "Error: session 'nope': $m_not_found" enable-event -u ev9 -s nope
fails 1 "Error: session 'nope': $m_not_found" disable-event -u ev1 -s nope

# --- create: duplicate, invalid names
fails 1 "Error: session 'a': a session with that name already exists; pick another name or destroy it first" create a
fails 1 "Error: session 'b': a session with that name already exists; pick another name or destroy it first" create b -o "$TEST_TMP/other"
long=$(printf 'x%.0s' $(seq 256))
for bad in x/y / .hidden . .. -dash; do
	fails 1 "Error: session '$bad': $m_name" create -- "$bad"
done
# A user's word is quoted in an error up to 64 bytes, then "...": a
# 10,000-byte argument is not echoed whole.
fails 1 "Error: session '${long:0:64}...': $m_name" create -- "$long"
huge=$(printf 'y%.0s' $(seq 10000))
fails 1 "Error: session '${huge:0:64}...': $m_name" create -- "$huge"
fails 1 "Error: channel '${huge:0:64}...': $m_chan_name" enable-channel -u "$huge" -s a
fails 1 "Error: session '${huge:0:64}...': $m_name" enable-event -u ev1 -s "$huge"
slash67="/$(printf 'x%.0s' $(seq 66))"	# 67 bytes: whole, as short as cut
fails 1 "Error: session '$slash67': $m_name" create -- "$slash67"
fails 1 "Error: session '${slash67:0:64}...': $m_name" create -- "${slash67}x"

# Control characters and bytes that are not UTF-8 are printed escaped.
fails 1 "Error: session 'tab\\x09here': $m_name" create -- $'tab\there'
fails 1 "Error: session '\\xff\\xfe': $m_name" create -- $'\xff\xfe'
fails 1 "Error: session 'del\\x7f': $m_name" create -- $'del\x7f'
fails 1 "Error: session '': $m_name" create ''
# Bidirectional controls and invisible characters: the message names the
# character; the name is printed with it escaped, so it can't reorder the line.
m_hidden="invalid session name: it holds U+%s (%s), so it could pass for another name on screen; remove that character"
# shellcheck disable=SC2059
for hc in 'e2 80 ae:202E:right-to-left override, a bidirectional control' \
	'e2 80 8f:200F:right-to-left mark, a bidirectional control' \
	'e2 80 8b:200B:zero width space, an invisible character' \
	'e2 81 a6:2066:left-to-right isolate, a bidirectional control' \
	'ef bb bf:FEFF:zero width no-break space, an invisible character' \
	'd8 9c:061C:arabic letter mark, a bidirectional control'; do
	IFS=: read -r bytes code what <<<"$hc"
	raw=$(printf "\\x${bytes// /\\x}")
	esc="\\x${bytes// /\\x}"
	fails 1 "Error: session 'adm${esc}in': $(printf "$m_hidden" "$code" "$what")" create -- "adm${raw}in"
done
fails 1 "Error: session 'a\\xe2\\x80\\xae': $(printf "$m_hidden" 202E "right-to-left override, a bidirectional control")" \
	destroy $'a\xe2\x80\xae'
fails 1 "Error: session '1000/a\\xe2\\x80\\x8b': $(printf "$m_hidden" 200B "zero width space, an invisible character")" \
	set-session $'1000/a\xe2\x80\x8b'
fails 1 "Error: session 'x/y': $m_name" start x/y
fails 1 "Error: session '.x': $m_name" set-session .x
fails 1 "Error: session '${long:0:64}...': $m_name" destroy "$long"
fails 1 "Error: session 'x/y': $m_name" enable-event -u ev9 -s x/y

# --- create: outputs
for url in http://h file://rel file:///a/../b net://h:0 net://h:1:1 net://h:70000 \
	net://bad_host 'net6://::1' net://1.2.3 tcp://h net:// '' 'net://h/../x'; do
	fails 1 "Error: URL '$url': $m_url" create x -U "$url"
done
fails 1 "Error: output directory '': invalid output directory: give an absolute path of at most 4095 bytes" create x -o ''
fails 2 "$m_conflict" create x -o /tmp/x --no-output
fails 2 "$m_conflict" create x -o /tmp/x -U net://h
fails 2 "$m_conflict" create x -U net://h --no-output
fails 2 "Error: a session can't be both a snapshot and a live session" create x --snapshot --live
fails 2 "Error: a session can't be both a snapshot and a live session" create x --live=100 --snapshot
live_msg="Error: a live session streams to a relay daemon: give a net:// URL (or none for the local relay)"
fails 2 "$live_msg" create x --live -o "$TEST_TMP/live"
fails 2 "$live_msg" create x --live -U "file://$TEST_TMP/live"
fails 2 "$live_msg" create x --live --no-output
fails 2 "Error: invalid live timer period '0': use microseconds from 1000 to 4294967295, or a value with a unit: us, ms, s, m, h (\"1s\")" create x --live=0
fails 2 "Error: invalid live timer period 'abc': use microseconds from 1000 to 4294967295, or a value with a unit: us, ms, s, m, h (\"1s\")" create x --live=abc
fails 2 "Error: invalid live timer period '4294967296': use microseconds from 1000 to 4294967295, or a value with a unit: us, ms, s, m, h (\"1s\")" create x --live=4294967296
fails 2 "Error: -o: missing argument" create x -o
ok "$([ ! -e "$TEST_TMP/live" ] && [ ! -e "$TEST_TMP/other" ]; echo $?)" "no output directory was made by a failed create"

# --- enable-channel: sizes and counts
fails 1 "Error: channel 'c9' of session 'a': $m_subbuf" enable-channel -u c9 -s a --subbuf-size 3k
fails 1 "Error: channel 'c9' of session 'a': $m_subbuf" enable-channel -u c9 -s a --subbuf-size 0
fails 1 "Error: channel 'c9' of session 'a': $m_subbuf" enable-channel -u c9 -s a --subbuf-size 12k
fails 1 "Error: channel 'c9' of session 'a': $m_subbuf" enable-channel -u c9 -s a --subbuf-size 2048
fails 1 "Error: channel 'c9' of session 'a': $m_subbuf" enable-channel -u c9 -s a --subbuf-size 8G
for junk in junk 4q -4k '' 1.5M 0x 'k' '4 k'; do
	fails 2 "Error: invalid --subbuf-size '$junk': give bytes, with an optional k, M or G suffix" \
		enable-channel -u c9 -s a --subbuf-size "$junk"
done
fails 1 "Error: channel 'c9' of session 'a': $m_count" enable-channel -u c9 -s a --num-subbuf 1
fails 1 "Error: channel 'c9' of session 'a': $m_count" enable-channel -u c9 -s a --num-subbuf 3
fails 1 "Error: channel 'c9' of session 'a': $m_count" enable-channel -u c9 -s a --num-subbuf 0
fails 2 "Error: invalid --num-subbuf 'x': give a decimal number" enable-channel -u c9 -s a --num-subbuf x
fails 2 "Error: invalid --num-subbuf '-2': give a decimal number" enable-channel -u c9 -s a --num-subbuf -2
fails 2 "Error: -W/--tracefile-count needs -C/--tracefile-size: without a size limit a stream has one file, and a count of files changes nothing" \
	enable-channel -u c9 -s a --tracefile-count 4
fails 2 "Error: -W/--tracefile-count needs -C/--tracefile-size: without a size limit a stream has one file, and a count of files changes nothing" \
	enable-channel -u c9 -s a -W 4 -C 0
fails 2 "Error: invalid --switch-timer '4294967296': use microseconds from 0 to 4294967295, or a value with a unit: us, ms, s, m, h (\"1s\")" \
	enable-channel -u c9 -s a --switch-timer 4294967296
fails 2 "Error: invalid --read-timer '1sec': use microseconds from 0 to 4294967295, or a value with a unit: us, ms, s, m, h (\"1s\")" \
	enable-channel -u c9 -s a --read-timer 1sec
fails 2 "Error: invalid --switch-timer '4295s': use microseconds from 0 to 4294967295, or a value with a unit: us, ms, s, m, h (\"1s\")" \
	enable-channel -u c9 -s a --switch-timer 4295s
fails 2 "Error: invalid --tracefile-count 'many': give a decimal number" \
	enable-channel -u c9 -s a --tracefile-count many
fails 2 "Error: choose --discard or --overwrite, not both" enable-channel -u c9 -s a --discard --overwrite
fails 2 "Error: choose one of --buffers-uid, --buffers-pid, --buffers-global and --buffer-ownership" \
	enable-channel -u c9 -s a --buffers-uid --buffers-pid

# --- enable-channel / disable-channel: channel states
fails 1 "Error: channel 'c1' of session 'a': the channel is already enabled" enable-channel -u c1 -s a
fails 1 "Error: channel 'channel0' of session 'a': the channel is already enabled" enable-channel -u channel0 -s a
fails 1 "Error: channel 'k1' of session 'a': $m_kernel_off" enable-channel -k k1 -s a
fails 1 "Error: channel 'c2' of session 'a': channel attributes can't change once the channel exists; create a channel with another name" \
	enable-channel -u c2 -s a --subbuf-size 8k
fails 1 "Error: channel 'c2' of session 'a': channel attributes can't change once the channel exists; create a channel with another name" \
	enable-channel -u c2 -s a --overwrite
fails 1 "Error: channel 'c2' of session 'a': the channel is already disabled" disable-channel -u c2 -s a
fails 1 "Error: channel 'nope' of session 'a': $m_chan_nf" disable-channel -u nope -s a
fails 1 "Error: channel 'c1' of session 'a': $m_kernel_off" disable-channel -k c1 -s a
fails 1 "Error: channel 'c9' of session 'a': all channels of a domain in a session must use the same buffer ownership" \
	enable-channel -u c9 -s a --buffers-pid
fails 1 "Error: channel 'c9' of session 'a': invalid buffer ownership for this domain: user channels take per-uid or per-pid, kernel channels global" \
	enable-channel -u c9 -s a --buffers-global
fails 1 "Error: channel 'k9' of session 'a': invalid buffer ownership for this domain: user channels take per-uid or per-pid, kernel channels global" \
	enable-channel -k k9 -s a --buffers-uid
for bad in .hid -dash 'a b' 'a/b' "$long" 'é'; do
	fails 1 "Error: channel '$(quoted "$bad")': $m_chan_name" enable-channel -u -s a -- "$bad"
done
# metadata: reserved, but for LTTng's user space metadata channel (test_cli_sessions)
fails 1 "Error: channel 'metadata': $m_chan_name" enable-channel -k -s a -- metadata
fails 1 "Error: channel 'metadata': $m_chan_name" enable-event -u ev9 -s a -c metadata
fails 1 "Error: channel 'bad/c': $m_chan_name" enable-event -u ev9 -s a -c bad/c
fails 1 "Error: channel 'c9' of session 'b': a channel can't be added to a session that was started once, as in LTTng (the layout of its traces is fixed): add channels before the first 'lttctl start', or create another session" \
	enable-channel -u c9 -s b
fails 1 "Error: event rule 'kev' in channel 'channel0' of session 'b': $m_kernel_off" \
	enable-event -k kev -s b

# --- enable-event / disable-event
for bad in 'a b' 'a!b' 'ev/x' 'é' "$long"; do
	fails 1 "Error: event rule '$(quoted "$bad")': $m_ev_name" enable-event -u -s a -- "$bad"
done
fails 1 "Error: event rule 'a b': $m_ev_name" disable-event -u -s a -- 'a b'
fails 1 "Error: event rule 'ev1' in channel 'channel0' of session 'a': an identical event rule is already enabled in this channel" \
	enable-event -u ev1 -s a -c channel0
fails 1 "Error: event rule 'x' in channel 'channel0' of session 'b': an identical event rule is already enabled in this channel" \
	enable-event -u x -s b
fails 1 "Error: channel 'nope' of session 'a': $m_chan_nf" disable-event -u ev1 -s a -c nope
fails 1 "Error: channel 'channel0' of session 'e': $m_chan_nf" disable-event -u ev1 -s e
fails 1 "Error: event rule 'nope' in channel 'channel0' of session 'a': $m_ev_nf" disable-event -u nope -s a -c channel0
fails 1 "Error: event rule 'ev*' in channel 'channel0' of session 'a': $m_ev_nf" disable-event -u 'ev*' -s a -c channel0
fails 1 "Error: channel 'c1' of session 'a': $m_ev_nf" disable-event -u -a -c c1 -s a
# session a has c1 and c2 besides channel0: a rule without -c is ambiguous (as LTTng)
m_need="the domain has a channel other than channel0, so a rule's channel must be named: give -c CHANNEL (-c channel0 for the default one)"
fails 1 "Error: session 'a', user domain (it has channel 'c1'): $m_need" enable-event -u ev9 -s a
fails 1 "Error: session 'a', user domain (it has channel 'c1'): $m_need" disable-event -u ev1 -s a
fails 1 "Error: log level 'BOGUS': invalid log level: use a name (EMERG ... DEBUG) or a number from 0 to 14" \
	enable-event -u ev9 -s a --loglevel BOGUS
fails 1 "Error: log level '15': invalid log level: use a name (EMERG ... DEBUG) or a number from 0 to 14" \
	enable-event -u ev9 -s a --loglevel-only 15
fails 2 "Error: choose --loglevel or --loglevel-only, not both" enable-event -u ev9 -s a --loglevel ERR --loglevel-only ERR
fails 2 "Error: choose --tracepoint or --syscall, not both" enable-event -k ev9 -s a --tracepoint --syscall
fails 2 "Error: --syscall names kernel system calls: use it with -k" enable-event -u ev9 -s a --syscall
fails 2 "Error: --syscall lists the kernel's system calls: use it with -k alone" list -u --syscall
fails 2 "Error: --syscall lists the kernel's system calls: use it with -k alone" list a --syscall

# --- start / stop
fails 1 "Error: session 'b': the session is already started" start b
fails 1 "Error: session 'a': the session is not started" stop a
fails 1 "Error: session 'e': the session has no channel; enable an event or a channel first" start e
fails 1 "Error: session 'e': the session is not started" stop e --no-wait

# --- comma lists: one bad item and nothing of the list is done
fails 1 "Error: channel 'c1' of session 'a': the channel is already enabled" enable-channel -u n1,n2,c1 -s a
fails 1 "Error: channel 'bad/x': $m_chan_name" enable-channel -u n1,bad/x -s a
fails 1 "Error: channel 'n1' of session 'a': $m_subbuf" enable-channel -u n1,n2 -s a --subbuf-size 3k
fails 2 "Error: channel 'n1' is twice in the list" enable-channel -u n1,n2,n1 -s a
fails 2 "Error: empty channel name in the list 'n1,,n2'" enable-channel -u n1,,n2 -s a
fails 2 "Error: empty channel name in the list 'n1,'" enable-channel -u n1, -s a
fails 1 "Error: channel 'nope' of session 'a': $m_chan_nf" disable-channel -u c1,nope -s a
fails 1 "Error: channel 'c2' of session 'a': the channel is already disabled" disable-channel -u c1,c2 -s a
fails 1 "Error: event rule 'a b': $m_ev_name" enable-event -u -s a -- 'n1,a b'
fails 2 "Error: event rule 'n1' is twice in the list" enable-event -u n1,n1 -s a
# --- disable-event of a list, as LTTng: one by one, exit 1 when one failed
run lttctl disable-event -u ev2 -s a -c channel0
is "$RC:$STDOUT:$ERR" "0:Event rule ev2 disabled in channel channel0 of session a (user).:" \
	"disable-event of a rule disabled already: succeeds, as LTTng"
run lttctl disable-event -u nope,ev1,ev2 -s a -c channel0
is "$RC" 1 "disable-event nope,ev1,ev2: exit 1 (nope has no rule)"
is "$ERR" "Error: event rule 'nope' in channel 'channel0' of session 'a': $m_ev_nf" \
	"disable-event nope,ev1,ev2: the error names nope alone"
is "$STDOUT" "Event rule ev1 disabled in channel channel0 of session a (user).
Event rule ev2 disabled in channel channel0 of session a (user)." \
	"disable-event nope,ev1,ev2: ev1 and ev2 disabled all the same, as LTTng"
like "$(lttctl list a)" "ev1 \(loglevel: any\) \[disabled\]" "disable-event nope,ev1,ev2: ev1 is disabled"
lttctl -q enable-event -u ev1 -s a -c channel0
ok $? "ev1 enabled again"
# --- enable-event of a list with a rule enabled already, as LTTng: the
# others enabled, that one said to have failed, exit 1
run lttctl enable-event -u m1,ev1,m2 -s a -c channel0
is "$RC:$STDOUT" "1:Event rule m1 enabled in channel channel0 of session a (user).
Event rule m2 enabled in channel channel0 of session a (user)." \
	"enable-event m1,ev1,m2 (ev1 enabled already): exit 1, m1 and m2 enabled all the same"
is "$ERR" "Error: event rule 'ev1' in channel 'channel0' of session 'a': an identical event rule is already enabled in this channel" \
	"enable-event m1,ev1,m2: the error names ev1 alone"
like "$(lttctl list a)" "m2 \(loglevel: any\) \[enabled\]" "enable-event m1,ev1,m2: m2 is enabled"
STATE=$(state)

# --- no session given and no current session
mv "$rc_file" "$rc_file.saved"
STATE=$(state)
for cmd in start stop destroy status; do
	fails 1 "$m_no_session" $cmd
done
fails 1 "$m_no_session" enable-channel -u c9
fails 1 "$m_no_session" disable-channel -u c1
fails 1 "$m_no_session" enable-event -u ev9
fails 1 "$m_no_session" disable-event -u ev1
# An .lttrc without a session line is no current session either.
printf 'editor=vi\n' >"$rc_file"
STATE=$(state)
fails 1 "$m_no_session" start
# A corrupt current session is reported as such.
printf 'session=bad/name\n' >"$rc_file"
STATE=$(state)
fails 1 "Error: current session file $rc_file: it holds an invalid session name; use 'lttctl set-session NAME'" start
fails 1 "Error: current session file $rc_file: it holds an invalid session name; use 'lttctl set-session NAME'" enable-event -u ev9
mv "$rc_file.saved" "$rc_file"
STATE=$(state)
# The current session exists no more (destroyed by another client).
printf 'session=gone\n' >"$rc_file"
STATE=$(state)
fails 1 "Error: session 'gone': $m_not_found" start
fails 1 "Error: session 'gone': $m_not_found" status
printf 'session=a\n' >"$rc_file"
STATE=$(state)

# --- no daemon on the run directory
empty="$TEST_TMP/empty-run"
m_none="Error: session daemon (run directory $empty): no session daemon is running; start one with 'ltt-sessiond -d' or let 'lttctl create' start it"
for args in "list" "start a" "stop a" "destroy a" "destroy -a" "enable-event -u ev9 -s a" \
	"enable-channel -u c9 -s a" "set-session a" "list a"; do
	# shellcheck disable=SC2086
	fails 1 "$m_none" --rundir "$empty" $args
done
fails 1 "Error: session daemon (run directory $empty): none is running, and -n forbids starting one" \
	-n --rundir "$empty" create z
ok "$([ ! -e "$empty" ]; echo $?)" "no daemon was started for any of them"

# --- kernel domain on a personal daemon (not root)
if can_switch_user; then
	nhome="$TEST_TMP/nobody-home"
	nrun="$TEST_TMP/nobody-run"
	nobody_dir "$nhome"
	nobody_dir "$nrun"
	nctl() { as_nobody env HOME="$nhome" LTT_HOME="$nhome" LTT_RUNDIR="$nrun" "$LTTCTL_BIN" "$@"; }
	as_nobody "$SESSIOND" --daemonize --rundir "$nrun"
	ok $? "a personal daemon runs as nobody"
	run nctl create k --no-output
	is "$RC" 0 "nobody creates session k on its daemon"
	m_kernel="kernel tracing needs the root session daemon; run lttctl as root or as a member of the tracing group"
	for args in "enable-channel -k kc -s k" "enable-event -k sched_switch -s k" \
		"enable-event -k -a -s k"; do
		# shellcheck disable=SC2086
		run nctl $args
		is "$RC" 1 "nobody: lttctl $args: exit 1"
		like "$ERR" "^Error: (channel 'kc'|event rule '(sched_switch|\\*)' in channel 'channel0') of session 'k': $m_kernel\$" \
			"nobody: lttctl $args: KERNEL_NEEDS_ROOT"
	done
	run_noclock nctl list k
	is "$STDOUT" "Session k (no output) [inactive]"$'\n\n'"No channels." \
		"nothing was created in the kernel domain, nor a user channel"
	# Root talking to the personal daemon gets the same answer: it is about
	# the daemon, not the client.
	run lttctl --rundir "$nrun" enable-channel -k kc -s k
	is "$ERR" "Error: channel 'kc' of session 'k': $m_kernel" "root client, personal daemon: KERNEL_NEEDS_ROOT"
	run nctl enable-event -u ev -s k
	is "$RC" 0 "the user domain works on the personal daemon"
	term_sessiond "$nrun"
else
	skip 11 "needs root and setpriv to run a daemon as nobody"
fi

# After all of it, the root daemon still serves, with the fixture intact.
run lttctl list
is "$STDOUT" "  1) b (no output) [active]
  2) e (no output) [inactive]
  3) a ($TEST_TMP/out/a) [inactive]" "list: the three fixture sessions, nothing more"

term_sessiond
done_testing
