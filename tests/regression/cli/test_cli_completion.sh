#!/bin/bash
# The bash completion of lttctl (extras/bash-completion/lttctl), driven
# the way bash drives it: the script sourced, COMP_WORDS and COMP_CWORD
# set, _lttctl called, COMPREPLY checked.  Commands and options come from
# lttctl itself (compared with --list-commands and --list-options, not
# with a list kept here); session and channel names from a real daemon.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
SCRIPT="$LTT_TOP_SRCDIR/extras/bash-completion/lttctl"

# The script runs "lttctl" from PATH: the one under test.
mkdir -p "$TEST_TMP/bin"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$LTTCTL_BIN" >"$TEST_TMP/bin/lttctl"
chmod +x "$TEST_TMP/bin/lttctl"
PATH="$TEST_TMP/bin:$PATH"

ok_cmd "the script is valid bash" bash -n "$SCRIPT"
. "$SCRIPT"
is "$(complete -p lttctl)" "complete -F _lttctl lttctl" "sourcing it registers _lttctl for lttctl"

# comp WORD...: the completions of a line of these words, the last one
# being completed (bash splits "--opt=V" as "--opt" "=" "V"), sorted, one
# per line.
comp() {
	local COMP_WORDS=("$@") COMP_CWORD=$(($# - 1)) COMP_LINE="$*" COMP_POINT
	local -a COMPREPLY=()
	COMP_POINT=${#COMP_LINE}
	_lttctl
	[ ${#COMPREPLY[@]} = 0 ] || printf '%s\n' "${COMPREPLY[@]}" | sort
}

# only LIST PREFIX: the lines of LIST that start with PREFIX, sorted.
only() {
	grep -E -- "^$2" <<<"$1" | sort
}

COMMANDS=$(lttctl --list-commands | sort)
GLOBALS=$(lttctl --list-options | sort)

# --- commands and options, without a daemon
is "$(comp lttctl '')" "$COMMANDS" "a command: every command of --list-commands"
is "$(comp lttctl en)" "$(only "$COMMANDS" en)" "'en': the commands that start so"
is "$(comp lttctl -)" "$GLOBALS" "an option before the command: the global options"
is "$(comp lttctl --list-c)" "$(printf '%s\n' --list-channels --list-commands)" \
	"'--list-c': --list-channels and --list-commands"
is "$(comp lttctl --timeout 5 st)" "$(only "$COMMANDS" st)" \
	"a global option's value is not taken for the command"
is "$(comp lttctl -q --rundir=/nowhere st)" "$(only "$COMMANDS" st)" \
	"nor is a value given as --option=VALUE"
is "$(comp lttctl --rundir "$TEST_TMP/b")" "$TEST_TMP/bin" "--rundir: directories"
for cmd in $COMMANDS; do
	want=$(lttctl "$cmd" --list-options | grep -- '^--' | sort)
	is "$(comp lttctl "$cmd" --)" "$want" "$cmd --: its options, from $cmd --list-options"
done
is "$(comp lttctl -v enable-channel -u --s)" "$(printf '%s\n' --session --subbuf-size --switch-timer)" \
	"options after other options and global options"
is "$(comp lttctl enable-event -u --ex)" "--exclude" "enable-event --ex: --exclude"
is "$(comp lttctl enable-event -u --filter '')" "" "enable-event --filter: no value to propose"
is "$(comp lttctl help '')" "$COMMANDS" "help: a command"
is "$(comp lttctl help dis)" "$(only "$COMMANDS" dis)" "help 'dis': the commands that start so"
like "$(comp lttctl view -e bas)" '^bash$' "view -e: a program"
is "$(comp lttctl track -u --vuid nob)" "$(compgen -u nob | sort)" "track --vuid: user names"
is "$(comp lttctl untrack -u --vgid = nog)" "$(compgen -g nog | sort)" "untrack --vgid=: group names"
is "$(comp lttctl start '')" "" "no daemon: no session name, nothing printed"
# Sub-commands come from the usage line; these are of commands that other
# branches add (snapshot, regenerate) and of one without (enable-channel).
is "$(_lttctl_subcommands '(add-output [-n NAME] (URL | -o DIR) | del-output (ID | NAME) | list-output | record [-n NAME] [URL | -o DIR]) [-s SESSION]' | tr '\n' ' ')" \
	"add-output del-output list-output record " "sub-commands of a usage (snapshot's)"
is "$(_lttctl_subcommands '(metadata | statedump) [-s NAME]' | tr '\n' ' ')" \
	"metadata statedump " "sub-commands of a usage (regenerate's)"
is "$(_lttctl_subcommands '(-k | -u) NAME[,NAME...] [-s SESSION]')" "" \
	"no sub-command in (-k | -u) NAME"
# --mi's value, and the line after it: the lookups run without --mi
# (whose XML they can't read), as --rundir and --timeout are passed on.
is "$(comp lttctl --mi '')" "xml" "--mi: its one type, xml"
is "$(comp lttctl -m x)" "xml" "-m 'x': xml"
is "$(comp lttctl --mi xml '')" "$COMMANDS" "--mi xml: a command"
is "$(comp lttctl -m xml st)" "$(only "$COMMANDS" st)" "-m xml 'st': the commands that start so"
is "$(comp lttctl --mi = xml '')" "$COMMANDS" "--mi=xml: a command"
is "$(comp lttctl --mi xml enable-event --)" "$(lttctl enable-event --list-options | grep -- '^--' | sort)" \
	"--mi xml enable-event --: its options"
# view's reader: a program; save's output: a directory (not a file)
: >"$TEST_TMP/bfile"
like "$(comp lttctl view --viewer bas)" '^bash$' "view --viewer: a program"
like "$(comp lttctl view --viewer = bas)" '^bash$' "view --viewer=: a program"
is "$(comp lttctl save --output-path "$TEST_TMP/b")" "$TEST_TMP/bin" "save --output-path: directories"
is "$(comp lttctl save -o "$TEST_TMP/b")" "$TEST_TMP/bin" "save -o: directories"
is "$(comp lttctl save --output-path = "$TEST_TMP/b")" "$TEST_TMP/bin" "save --output-path=: directories"
is "$(comp lttctl load -i "$TEST_TMP/b")" "$(printf '%s\n' "$TEST_TMP/bfile" "$TEST_TMP/bin")" \
	"load -i: files and directories"

# --- names from a daemon
start_sessiond || { echo "Bail out! ltt-sessiond did not start"; exit 1; }
lttctl -q create s1 -o "$TEST_TMP/o1" &&
	lttctl -q enable-channel -u c1,c2 -s s1 &&
	lttctl -q create s2 -o "$TEST_TMP/o2" &&
	lttctl -q enable-channel -u c3,d4
ok $? "sessions s1 (channels c1, c2) and s2 (c3, d4, current)"
SESSIONS=$(printf '%s\n' s1 s2)

is "$(comp lttctl start '')" "$SESSIONS" "start: a session name"
is "$(comp lttctl destroy s)" "$SESSIONS" "destroy 's': the sessions that start so"
is "$(comp lttctl list s2)" "s2" "list 's2': that session"
is "$(comp lttctl create '')" "" "create: no existing name (its NAME is a new one)"
is "$(comp lttctl stop s1 '')" "" "stop: one session name, not two"
is "$(comp lttctl stop --no-wait '')" "$SESSIONS" "stop --no-wait: a session name"
is "$(comp lttctl add-context -u -t v)" "$(printf '%s\n' vegid veuid vgid vpid vsgid vsuid vtid vuid)" \
	"add-context -t v: the context types that start so"
is "$(comp lttctl add-context -k -t p)" "$(printf '%s\n' pid pid_ns ppid preemptible prio procname)" \
	"add-context -k -t p: the kernel domain's types that start so"
is "$(comp lttctl add-context -u -t pi)" "pid_ns" "add-context -u -t pi: user space's (no pid)"
is "$(comp lttctl add-context -u -s s1 -c '')" "$(printf '%s\n' c1 c2)" \
	"add-context -c after -s s1: the channels of s1"
is "$(comp lttctl enable-event -u -s '')" "$SESSIONS" "-s: a session name"
is "$(comp lttctl enable-event -u --session '')" "$SESSIONS" "--session: a session name"
is "$(comp lttctl enable-event -u -s s1 -c '')" "$(printf '%s\n' c1 c2)" \
	"-c after -s s1: the channels of s1"
is "$(comp lttctl enable-event -u --session = s1 -c '')" "$(printf '%s\n' c1 c2)" \
	"-c after --session=s1: the channels of s1"
is "$(comp lttctl enable-event -u -c '')" "$(printf '%s\n' c3 d4)" \
	"-c without -s: the channels of the current session"
is "$(comp lttctl disable-event -u --channel c)" "c3" "--channel 'c': those that start so"
is "$(comp lttctl --list-channels = '')" "$SESSIONS" "--list-channels=: a session name"
is "$(comp lttctl --list-channels = s)" "$SESSIONS" "--list-channels=s: the sessions that start so"
is "$(comp lttctl --mi xml start '')" "$SESSIONS" "--mi xml start: a session name"
is "$(comp lttctl --rundir "$TEST_TMP/none" start '')" "" \
	"--rundir before the command: names from that run directory's daemon (none)"
is "$(comp lttctl --rundir "$LTT_RUNDIR" start '')" "$SESSIONS" \
	"--rundir of this daemon: its sessions"
is "$(comp lttctl enable-channel -u -s s1 --subbuf-size '')" "" \
	"a value nothing can complete: nothing"

# --- what the script runs, directly
run lttctl --list-sessions
is "$STDOUT" "$SESSIONS" "--list-sessions: one name per line"
run lttctl --list-channels=s1
is "$STDOUT" "$(printf '%s\n' c1 c2)" "--list-channels=s1: its channels, one per line"
run lttctl --list-channels=nope
is "$RC" 1 "--list-channels of no session: exit 1"
like "$ERR" "^Error: session 'nope': " "with the reason"
run lttctl --list-sessions list
is "$RC" 2 "--list-sessions with a command: usage error"
for opt in --list-commands --list-options --list-sessions --list-channels; do
	run lttctl --mi xml $opt
	is "$RC" 1 "--mi xml $opt: refused, exit 1"
	like "$STDOUT:$ERR" "^:Error: $opt prints names for scripts, one per line, and has no machine interface output: run it without --mi" \
		"--mi xml $opt: no document (no command, as LTTng), the reason on stderr"
done
run lttctl --mi xml list --list-options
is "$RC" 1 "--mi xml list --list-options: refused too"
is "$(mi_xp /command/success <<<"$STDOUT"):$ERR" \
	"false:Error: --list-options prints names for scripts, one per line, and has no machine interface output: run it without --mi" \
	"--mi xml list --list-options: LTTng's document of list says it failed, the reason on stderr"

done_testing
