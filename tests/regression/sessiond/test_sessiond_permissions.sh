#!/bin/bash
# Who may use which daemon: the modes of the run directory and socket of a
# personal and of a root daemon, the socket refusing a user outside the
# tracing group, the daemon's own credential check behind it, members of
# the group, and each user seeing only their own sessions.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"

test_init
need_proto_client
can_switch_user || skip_all "needs root, setpriv and the user nobody to test other users"

# A group that nobody is not in (neither primary nor listed as a member).
pick_group() {
	local g entry gid members
	for g in daemon bin sys adm users staff; do
		entry=$(getent group "$g") || continue
		gid=$(cut -d: -f3 <<<"$entry")
		members=$(cut -d: -f4 <<<"$entry")
		[ "$gid" != "$(id -g nobody)" ] && [[ ",$members," != *,nobody,* ]] &&
			{ echo "$g"; return 0; }
	done
	return 1
}
G=$(pick_group) || skip_all "no group without nobody in it"

m_perm() {
	echo "Error: session daemon (run directory $1): permission denied on the session daemon's socket; join the tracing group or use a personal daemon"
}
nhome="$TEST_TMP/nobody-home"
nobody_dir "$nhome"
# lttctl as nobody with the given setpriv group options, on run directory $1.
ctl_as() {
	local dir=$1
	shift
	local -a ids=()
	while [ "$1" != -- ]; do
		ids+=("$1")
		shift
	done
	shift
	timeout "$TEST_TIMEOUT" setpriv --reuid=nobody "${ids[@]}" \
		env HOME="$nhome" LTT_HOME="$nhome" LTT_RUNDIR="$dir" "$LTTCTL_BIN" "$@"
}
plain=(--regid=nogroup --clear-groups)	# nobody, in no other group
member=(--regid="$G" --clear-groups)	# primary group G
supp=(--regid=nogroup --groups="$G")	# G as a supplementary group

# --- a personal daemon (nobody's)
prun="$TEST_TMP/personal"
mkdir -p "$prun"
chown nobody:nogroup "$prun"
chmod 755 "$prun"
as_nobody "$SESSIOND" --daemonize --rundir "$prun"
ok $? "personal daemon as nobody: started"
is "$(stat -c '%a %U' "$prun")" "700 nobody" "personal daemon: closes its run directory (0700)"
is "$(stat -c '%a %U:%G' "$prun/client.sock")" "600 nobody:nogroup" "personal daemon: socket 0600, its owner's"
run ctl_as "$prun" "${plain[@]}" -- create mine --no-output
is "$RC" 0 "its owner uses it"
run lttctl --rundir "$prun" list
is "$OUT" "  1) $(id -u nobody)/mine (no output) [inactive]" \
	"root may use a personal daemon too, and sees its sessions (another user's: UID/NAME)"
# Another user: the socket is closed to it...
run timeout "$TEST_TIMEOUT" setpriv --reuid=daemon --regid=daemon --clear-groups \
	"$LTTCTL_BIN" --rundir "$prun" list
is "$RC" 1 "another user: exit 1"
is "$OUT" "$(m_perm "$prun")" "another user: SESSIOND_PERM"
# ...and opened by hand, the daemon itself refuses it.
chmod 711 "$prun"
chmod 666 "$prun/client.sock"
perm_all=0
for i in $(seq 10); do
	out=$(timeout "$TEST_TIMEOUT" setpriv --reuid=daemon --regid=daemon --clear-groups \
		"$LTTCTL_BIN" --rundir "$prun" list 2>&1)
	[ "$out" = "$(m_perm "$prun")" ] || { perm_all=1; diag "attempt $i: $out"; }
done
ok $perm_all "another user through a socket opened by hand: the daemon refuses it, SESSIOND_PERM every time (10 tries)"
run ctl_as "$prun" "${plain[@]}" -- list
is "$OUT" "  1) mine (no output) [inactive]" "the refusals changed nothing"
term_sessiond "$prun"

# A personal daemon does not take a run directory that is not its own.
rootdir="$TEST_TMP/rootowned"
mkdir -p "$rootdir"
run as_nobody "$SESSIOND" --daemonize --rundir "$rootdir"
is "$RC" 1 "personal daemon on root's directory: exit 1"
like "$ERR" "run directory $rootdir belongs to uid 0, not to us \\(uid $(id -u nobody)\\)" \
	"personal daemon on root's directory: says whose it is"
ok "$([ ! -e "$rootdir/client.sock" ] && [ ! -e "$rootdir/sessiond.pid" ]; echo $?)" \
	"personal daemon on root's directory: left nothing there"

# --- a root daemon with --group nogroup
ngrun="$TEST_TMP/ngrun"
run start_sessiond "$ngrun" --group nogroup
is "$RC" 0 "root daemon --group nogroup: started"
is "$(stat -c '%a %U:%G' "$ngrun/client.sock")" "660 root:nogroup" "root daemon: socket 0660 root:GROUP"
is "$(stat -c '%a %U' "$ngrun")" "755 root" "root daemon: run directory 0755"
run ctl_as "$ngrun" "${plain[@]}" -- list
is "$OUT" "No sessions." "nobody (primary group nogroup) is a member: allowed"
term_sessiond "$ngrun"

# --- a root daemon whose group does not exist: root only
nxrun="$TEST_TMP/nxrun"
run start_sessiond "$nxrun" --group ltt-no-such-group
is "$RC" 0 "root daemon with a group that does not exist: started"
is "$(stat -c '%a %U:%G' "$nxrun/client.sock")" "600 root:root" "root daemon without its group: socket 0600 root:root"
run ctl_as "$nxrun" --regid=root --clear-groups -- list
is "$OUT" "$(m_perm "$nxrun")" "without the group, even a user of gid 0 is refused"
term_sessiond "$nxrun"

# --- a root daemon with --group G
grun="$TEST_TMP/grun"
start_sessiond "$grun" --group "$G" --no-kernel
is "$(stat -c '%a %U:%G' "$grun/client.sock")" "660 root:$G" "root daemon --group $G: socket 0660 root:$G"
lttctl -q --rundir "$grun" create rootsess --no-output
state() { "$PROTO_CLIENT" "$grun/client.sock" dump; }
STATE=$(state)

run ctl_as "$grun" "${plain[@]}" -- list
is "$RC" 1 "a user outside $G: exit 1"
is "$OUT" "$(m_perm "$grun")" "a user outside $G: SESSIOND_PERM, naming the tracing group"
run ctl_as "$grun" "${plain[@]}" -- create intruder --no-output
is "$OUT" "$(m_perm "$grun")" "a user outside $G can't create either"

# A member (primary group G).
run ctl_as "$grun" "${member[@]}" -- create nb
is "$RC" 0 "a member of $G (primary): create works"
like "$(sed -n 2p <<<"$STDOUT")" "^Traces will be written in $nhome/ltt-traces/nb-[0-9]{8}-[0-9]{6}\$" \
	"a member: the default output is under the member's own LTT_HOME"
is "$(cat "$nhome/.lttrc")" "session=nb" "a member: the current session is in the member's .lttrc"
run ctl_as "$grun" "${member[@]}" -- list
like "$OUT" "^  1\\) nb \\(" "a member sees their own session"
unlike "$OUT" "rootsess" "a member does not see root's session"
for args in "list rootsess" "start rootsess" "destroy rootsess" "enable-event -u ev -s rootsess" \
	"set-session rootsess"; do
	# shellcheck disable=SC2086
	run ctl_as "$grun" "${member[@]}" -- $args
	is "$ERR" "Error: session 'rootsess': no session by that name; 'lttctl list' shows the existing sessions" \
		"a member: lttctl $args on root's session: not found"
done
run ctl_as "$grun" "${member[@]}" -- enable-channel -k kc -s nb
is "$ERR" "Error: channel 'kc' of session 'nb': kernel tracing is disabled in this session daemon (--no-kernel); restart it without that option" \
	"a member gets the root daemon's kernel domain as root does (disabled here), not KERNEL_NEEDS_ROOT"
run lttctl --rundir "$grun" list
matches "$OUT" "^  1\\) rootsess \\(no output\\) \\[inactive\\]"$'\n'"  2\\) $(id -u nobody)/nb \\(" \
	"root sees every session, another user's as UID/NAME"
run ctl_as "$grun" "${member[@]}" -- destroy -a
is "$OUT" "Session nb destroyed." "a member's destroy -a destroys their own sessions only"
run lttctl --rundir "$grun" list
is "$OUT" "  1) rootsess (no output) [inactive]" "root's session survived the member's destroy -a"

# A member through a supplementary group.
run ctl_as "$grun" "${supp[@]}" -- create nbsupp --no-output
is "$RC" 0 "a member of $G (supplementary group of the process): create works"
is "$OUT" "Session nbsupp created."$'\n'"No output: the traces stay in the tracing buffers." \
	"a member (supplementary): the session is created"
lttctl -q --rundir "$grun" destroy nbsupp 2>/dev/null

# Outside the group, through a socket opened by hand: the daemon refuses.
STATE=$(state)
chmod 666 "$grun/client.sock"
perm_all=0
for i in $(seq 10); do
	out=$(ctl_as "$grun" "${plain[@]}" -- create intruder --no-output 2>&1)
	[ "$out" = "$(m_perm "$grun")" ] || { perm_all=1; diag "attempt $i: $out"; }
done
ok $perm_all "outside $G, socket opened by hand: the daemon's check refuses, SESSIOND_PERM every time (10 tries)"
run timeout "$TEST_TIMEOUT" setpriv --reuid=nobody "${plain[@]}" "$PROTO_CLIENT" "$grun/client.sock" \
	"reply" "expect-eof"
is "$OUT" "cmd=0 PERM len=0
EOF" "at the wire: the refused peer gets one PERM reply, then the daemon closes"
now=$(state)
is "$now" "$STATE" "the refused user changed nothing"
chmod 660 "$grun/client.sock"

term_sessiond "$grun"
done_testing
