#!/bin/bash
# test_kernel_bpf_payloads.sh - the structures the BPF system call source
# reads from user memory (doc/kernel-bpf.md, "Structures"), natively on a
# kernel that refuses event probes (this development machine's): a
# program of known calls (kload payloads: connect to its own listener on
# 127.0.0.1 and to [2001:db8::1:2]:4243, a connect whose length holds no
# family, writev of 3 iovecs, poll on 2 fds, on 600, on a bad address,
# ppoll on 2, epoll_ctl, epoll_wait and epoll_pwait, epoll_wait on 400,
# accept) and babeltrace2 reads exactly
# lttng-modules' fields: connect's family, dport, v4addr and v6addr;
# accept's exit's upeer_addrlen, family, sport, v4addr; poll's and ppoll's
# fds_length, overflow and fds, each pollfd's fd, raw_events and flags'
# bits exactly, at the entry (the events asked; 600 cut to 512 and
# marked, the 512th the last) and at the exit (the revents of those
# ready); epoll_ctl's event and epoll_wait's and epoll_pwait's exits'
# fds (data_union's u64 and fd, raw_events, the flags' bits; 400 events
# cut to 341 and marked); the other calls' arguments as
# ftrace gives them (writev's vlen 3, epoll_ctl's fd); epoll_ctl's op as
# lttng-modules' enumeration op_enum (ADD, then MOD and DEL).  babeltrace
# 1 reads the same structures and labels, lttng-syscallstats the trace,
# list -k -f their types.  A filter on an added field (family == 0,
# fds_length == 2) or the enumeration (op_enum == 3) keeps those calls
# alone; one naming a structure (fds == 1) takes none.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
export LTT_CONSUMERD_PATH="$LTT_TOP_BUILDDIR/src/consumerd/ltt-consumerd"

test_init
bpf_source_or_skip
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
plan 40
kernel_lock

tracefs_sessiond "$TEST_TMP/sessiond.log"
ok $? "a root daemon with --kernel-backend=tracefs started"
# lttng-syscallstats (below) names a CPU's task by its recorded switches:
# a trace where the kernel left out one into kload (lib.sh, switch_gaps)
# is recorded again, three times at most.  Each recording's switches are
# compared with a raw ftrace instance's (lib.sh, switch_watch_end): a gap ltt
# made would fail there, not be skipped below.
for try in 1 2 3; do
	[ "$try" = 1 ] || { lttctl -q destroy p; rm -rf "$TEST_TMP/p"; }
	switch_watch_begin
	lttctl -q create p -o "$TEST_TMP/p" &&
		lttctl -q enable-event -k --syscall connect,writev,poll,ppoll,epoll_ctl,epoll_wait,epoll_pwait,accept,accept4 -s p &&
		lttctl -q enable-event -k sched_switch,sched_process_fork,sched_process_exec -s p &&
		lttctl -q enable-event -k 'lttng_statedump_*' -s p &&
		lttctl -q add-context -k -t tid -s p &&
		lttctl -q start p
	started=$?
	out=$("$KLOAD" payloads)
	ran=$?
	lttctl -q stop p
	switch_watch_end "$TEST_TMP/p/kernel" "$try"
	read -r _ tid _ port _ rfd wfd _ tcp _ ep _ v6 _ cport <<<"$out"
	gaps=$(switch_gaps "$TEST_TMP/p/kernel" "$tid")
	[ "$gaps" = 0 ] && break
	diag "recording $try: $gaps records of kload follow no switch to it; again"
done
is "$SW_DROPPED" "" "each recording's switches, CPU by CPU, are those a raw ftrace instance got over the same time: ltt dropped none ($try recordings)"
ok $started "a session recording connect, writev, poll, ppoll, epoll_ctl, epoll_wait, epoll_pwait, accept, accept4 started"
ok $ran "kload payloads ran: $out"
TEXT=$(timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/p/kernel" | grep "tid = $tid }")
ENTRIES=$(grep -o 'syscall_entry_[a-z_0-9]*: .*' <<<"$TEXT")
EXITS=$(grep -o 'syscall_exit_[a-z_0-9]*: .*' <<<"$TEXT")

v4="_v4addr_length = 4, v4addr = \\[ \\[0\\] = 127, \\[1\\] = 0, \\[2\\] = 0, \\[3\\] = 1 \\]"
nov4="_v4addr_length = 0, v4addr = \\[ \\]"
nov6="_v6addr_length = 0, v6addr = \\[ \\]"
like "$(grep -m 1 "syscall_entry_connect: .*fd = $tcp," <<<"$ENTRIES")" \
	"fd = $tcp, uservaddr = 0x[0-9A-F]+, addrlen = 16, family = 2, dport = $port, $v4, $nov6 }" \
	"connect to 127.0.0.1:$port: family 2 (AF_INET), dport $port, v4addr 127.0.0.1, no v6addr"
if [ "$v6" = 1 ]; then
	like "$(grep 'syscall_entry_connect: .*addrlen = 28,' <<<"$ENTRIES")" \
		"family = 10, dport = 4243, $nov4, _v6addr_length = 8, v6addr = \\[ \\[0\\] = 8193, \\[1\\] = 3512, \\[2\\] = 0, \\[3\\] = 0, \\[4\\] = 0, \\[5\\] = 0, \\[6\\] = 1, \\[7\\] = 2 \\] }" \
		"connect to [2001:db8::1:2]:4243: family 10, dport 4243, v6addr's 8 groups in order"
else
	skip 1 "no IPv6 socket here"
fi
like "$(grep 'syscall_entry_connect: .*addrlen = 1,' <<<"$ENTRIES")" \
	"family = 0, dport = 0, $nov4, $nov6 }" \
	"a connect whose length (1) holds no family: family 0, no address, as lttng-modules"
is "$(grep -c 'syscall_entry_connect:' <<<"$ENTRIES")" "$((2 + v6))" "... one entry per connect, no other"
like "$(grep 'syscall_entry_writev:' <<<"$ENTRIES")" "{ fd = $wfd, vec = 0x[0-9A-F]+, vlen = 3 }" \
	"writev of 3 iovecs to the pipe: fd, vec, vlen 3 (lttng-modules reads no iovec)"
# pollfd FD RAW IN PRI OUT ERR HUP NVAL: one element of poll's fds, as babeltrace shows it
pollfd() {
	echo "{ fd = $1, raw_events = $2, events = { POLLIN = $3, POLLPRI = $4, POLLOUT = $5, POLLERR = $6, POLLHUP = $7, POLLNVAL = $8, padding = 0 } }"
}
# fds LINE: its fds' elements, one a line ("[N] = { ... }")
fds() {
	sed -n 's/.*fds = \[ \(.*\) \] }$/\1/p' <<<"$1" | sed 's/ }, \[/ }\n[/g'
}
# fds_some LINE SED RE: the elements sed -n SED prints, then ":" and how many match RE
fds_some() {
	echo "$(fds "$1" | sed -n "$2"):$(fds "$1" | grep -c "$3")"
}
two="[0] = $(pollfd "$rfd" 0x1 1 0 0 0 0 0)
[1] = $(pollfd "$tcp" 0x4 0 0 1 0 0 0)"
line=$(grep 'syscall_entry_poll: .*nfds = 2,' <<<"$ENTRIES" | grep -v 'ufds = 0x8,')
like "$line" "nfds = 2, timeout_msecs = 0, fds_length = 2, overflow = 0, fds = \\[" \
	"poll on 2 fds: fds_length 2, overflow 0"
is "$(fds "$line")" "$two" "... its fds: the pipe's read end (POLLIN: raw_events 0x1), the socket (POLLOUT: 0x4)"
line=$(grep 'syscall_entry_poll: .*nfds = 600,' <<<"$ENTRIES")
like "$line" "fds_length = 512, overflow = 1, fds = \\[" \
	"poll on 600: cut to 512 (a page of pollfds), overflow 1"
is "$(fds_some "$line" '1p;$p' '= { fd = -1, raw_events = 0x0, ')" \
	"[0] = $(pollfd "$rfd" 0x1 1 0 0 0 0 0)
[511] = $(pollfd -1 0xA 0 1 0 1 0 0):510" \
	"... 512 pollfds: the pipe's first, the 512th's POLLPRI|POLLERR (0xA) last, 510 of -1 between; the 513th's not"
like "$(grep 'syscall_entry_poll: .*ufds = 0x8,' <<<"$ENTRIES")" \
	"nfds = 2, timeout_msecs = 0, fds_length = 0, overflow = 0, fds = \\[ \\] }" \
	"poll on an unreadable array: fds_length 0, no fds, as lttng-modules when its copy fails"
line=$(grep 'syscall_entry_ppoll:' <<<"$ENTRIES")
like "$line" \
	"nfds = 2, tsp = 0x[0-9A-F]+, sigmask = 0x0, sigsetsize = 8, fds_length = 2, overflow = 0, fds = \\[" \
	"ppoll on 2 fds: its arguments, fds_length 2, overflow 0"
is "$(fds "$line")" "$two" "... its fds as poll's"
# at the exits: the pollfds ready, their revents
line=$(grep 'syscall_exit_poll: .*nfds = 2,' <<<"$EXITS" | grep -v 'ret = -')
like "$line" "{ ret = 2, nfds = 2, fds_length = 2, fds = \\[" "poll's exit: 2 ready, fds_length 2"
is "$(fds "$line")" "$two" "... its fds: the pipe readable (revents POLLIN), the socket writable (POLLOUT)"
line=$(grep 'syscall_exit_poll: .*nfds = 600,' <<<"$EXITS")
like "$line" "{ ret = 1, nfds = 600, fds_length = 512, fds = \\[" \
	"poll on 600's exit: 1 ready, fds_length 512 (more than a page: lttng-modules' count)"
is "$(fds_some "$line" '1p;2p' '= { fd = 0, raw_events = 0x0, ')" \
	"[0] = $(pollfd "$rfd" 0x1 1 0 0 0 0 0)
[1] = $(pollfd 0 0x0 0 0 0 0 0 0):511" \
	"... the pipe readable, then 511 zeros, as lttng-modules"
like "$(grep 'syscall_exit_poll: ' <<<"$EXITS" | grep 'ret = -14,')" \
	"{ ret = -14, nfds = 2, fds_length = 0, fds = \\[ \\] }" "poll on an unreadable array's exit: EFAULT, no fds"
line=$(grep 'syscall_exit_ppoll:' <<<"$EXITS")
like "$line" "{ ret = 2, nfds = 2, fds_length = 2, overflow = 0, fds = \\[" "ppoll's exit: 2 ready, overflow 0"
is "$(fds "$line")" "$two" "... its fds as poll's"
# epoll_ctl's event: data 0xab in its high half, the fd in its low one; EPOLLIN|EPOLLET
evflags="events = { EPOLLIN = 1, EPOLLPRI = 0, EPOLLOUT = 0, EPOLLERR = 0, EPOLLHUP = 0, padding = 0 }"
data=$(printf 'data_union = { u64 = 0xAB%08X, fd = %d }' "$rfd" "$rfd")
# a line's payload: what follows its contexts
payload() {
	sed 's/.*{ tid = [0-9]* }, { /{ /'
}
# op_enum: lttng-modules' enumeration lttng_epoll_op, its labels
opnum() {
	echo "op_enum = ( \"EPOLL_CTL_$1\" : container = $2 )"
}
is "$(grep "syscall_entry_epoll_ctl: .*{ epfd = $ep," <<<"$ENTRIES" | payload)" \
	"{ epfd = $ep, $(opnum ADD 1), fd = $rfd, event = { $data, raw_events = 0x80000001, $evflags } }
{ epfd = $ep, $(opnum MOD 3), fd = $rfd, event = { $data, raw_events = 0x80000001, $evflags } }
{ epfd = $ep, $(opnum DEL 2), fd = $rfd, event = { $data, raw_events = 0x80000001, $evflags } }" \
	"epoll_ctl: epfd, op_enum lttng-modules' enumeration (EPOLL_CTL_ADD 1, then MOD 3, DEL 2), the pipe's fd, the event: its data's u64 and fd, raw_events EPOLLIN|EPOLLET, the flags' EPOLLIN"
is "$(grep 'syscall_exit_epoll_pwait: ' <<<"$EXITS" | payload)" \
	"{ ret = 1, fds_length = 1, overflow = 0, fds = [ [0] = { $data, raw_events = 0x1, $evflags } ] }" \
	"epoll_pwait's exit: the same event"
line=$(grep 'syscall_exit_epoll_wait: { .*ret = 400,' <<<"$EXITS" | payload)
like "$line" "^\\{ ret = 400, fds_length = 341, overflow = 1, fds = \\[" \
	"epoll_wait of 400 events: cut to 341 (a page of epoll_events), overflow 1"
is "$(fds_some "$line" '$p' 'raw_events = 0x4, events = { EPOLLIN = 0, EPOLLPRI = 0, EPOLLOUT = 1, ')" \
	"[340] = { data_union = { u64 = 0x154, fd = 340 }, raw_events = 0x4, events = { EPOLLIN = 0, EPOLLPRI = 0, EPOLLOUT = 1, EPOLLERR = 0, EPOLLHUP = 0, padding = 0 } }:341" \
	"... 341 events, each EPOLLOUT, the 341st of data 340"
is "$(grep 'syscall_exit_epoll_wait: ' <<<"$EXITS" | grep -v 'ret = 400,' | payload)" \
	"{ ret = 1, fds_length = 1, overflow = 0, fds = [ [0] = { $data, raw_events = 0x1, $evflags } ] }" \
	"epoll_wait's exit: 1 event, the pipe's data and EPOLLIN"
# babeltrace 1 reads the same structures
T1=$(timeout "$BT_TIMEOUT" babeltrace "$TEST_TMP/p/kernel" 2>&1 | grep "tid = $tid }")
is "$(grep 'syscall_entry_poll: .*nfds = 2,' <<<"$T1" | grep -v 'ufds = 0x8,' | grep -c \
	"fds = \[ \[0\] = { fd = $rfd, raw_events = 0x1, events = { POLLIN = 1, .* \[1\] = { fd = $tcp, raw_events = 0x4, events = { POLLIN = 0, POLLPRI = 0, POLLOUT = 1,"):$(grep -c \
	"syscall_exit_epoll_wait: .*fds = \[ \[0\] = { data_union = { u64 = 0xAB.*, fd = $rfd }, raw_events = 0x1, events = { EPOLLIN = 1," <<<"$T1")" \
	"1:1" "babeltrace 1: poll's 2 fds and epoll_wait's event, as babeltrace2"
is "$(grep "syscall_entry_epoll_ctl: .*{ epfd = $ep," <<<"$T1" | sed -n 's/.*\(op_enum = [^)]*)\).*/\1/p' | tr '\n' ';')" \
	"$(opnum ADD 1);$(opnum MOD 3);$(opnum DEL 2);" "babeltrace 1: epoll_ctl's op_enum, its labels"
# lttng-analyses (babeltrace 1's bindings) copies each event's fields, the structures too
if ! command -v lttng-syscallstats >/dev/null; then
	skip 1 "lttng-analyses not installed (python3-lttnganalyses: scripts/deps.sh)"
elif [ "$gaps" != 0 ]; then
	skip 1 "the kernel left out a switch into kload in 3 recordings: lttng-analyses can't name its task"
else
	timeout "$LA_TIMEOUT" lttng-syscallstats --no-progress "$TEST_TMP/p" \
		>"$TEST_TMP/syscallstats.txt" 2>&1
	is "$?:$(awk -v t="TID: $tid)" 'index($0, t) { on = 1; next } $1 == "Total:" { on = 0 }
		on && $1 == "-" && $2 ~ /^(poll|ppoll|epoll_ctl|epoll_wait|epoll_pwait)$/ { print $2, $3 }' \
		"$TEST_TMP/syscallstats.txt" | sort | tr '\n' ';')" \
		"0:epoll_ctl $(grep -c 'syscall_entry_epoll_ctl: ' <<<"$ENTRIES");epoll_pwait 1;epoll_wait 2;poll 3;ppoll 1;" \
		"lttng-syscallstats reads the trace: kload's 3 polls, its ppoll, its epoll_ctls (op_enum an enumeration), 2 epoll_waits and epoll_pwait" ||
		diag "$(cat "$TEST_TMP/syscallstats.txt")"
fi
like "$(grep 'syscall_exit_accept:' <<<"$EXITS")" \
	"{ ret = [0-9]+, upeer_addrlen = 16, family = 2, sport = $cport, $v4, $nov6 }" \
	"accept's exit: the peer 127.0.0.1:$cport (upeer_addrlen 16, family 2, sport, v4addr)"
like "$(grep 'syscall_exit_accept4:' <<<"$EXITS")" \
	"{ ret = -11, upeer_addrlen = 0, family = 0, sport = 0, " \
	"a failed accept4 (EAGAIN): no peer, not the buffers' stale one"
# list -k -f: the event's own fields, a structure by its type, its members not listed
is "$(lttctl list -k --syscall -f | awk '/^    [a-z]/ { on = ($1 == "poll" || $1 == "epoll_ctl") } on' |
	grep -E '^    [a-z]|field: (fds|event|fd|op_enum|POLLIN|raw_events) ')" \
	"    epoll_ctl (type: syscall)
        field: op_enum (enum)
        field: fd (integer)
        field: event (structure)
    poll (type: syscall)
        field: fds (sequence of structures)" \
	"list -k --syscall -f: poll's fds a sequence of structures, epoll_ctl's op_enum an enum, its event a structure, no member listed"
lttctl -q destroy p

# a filter on a field the program adds, run by the consumer
lttctl -q create f -o "$TEST_TMP/f" &&
	lttctl -q enable-event -k --syscall connect --filter 'family == 0' -s f &&
	lttctl -q enable-event -k --syscall epoll_ctl --filter 'op_enum == 3' -s f &&
	lttctl -q enable-event -k --syscall accept -s f &&
	lttctl -q disable-event -k --syscall accept -s f &&
	lttctl -q add-context -k -t tid -s f &&
	lttctl -q start f
# load_text SESSION: kload payloads run in SESSION, started; SESSION
# stopped, its events of kload's thread; kload's status
load_text() {
	local out tid rc
	out=$("$KLOAD" payloads)
	rc=$?
	lttctl -q stop "$1"
	read -r _ tid _ <<<"$out"
	timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/$1/kernel" | grep "tid = $tid }"
	return $rc
}
FTEXT=$(load_text f)
ok $? "kload payloads ran again, in a session recording connect with --filter 'family == 0' (accept enabled, then disabled)"
is "$(grep -c 'syscall_entry_connect:' <<<"$FTEXT"):$(grep -c 'syscall_entry_connect: .*addrlen = 1, family = 0,' <<<"$FTEXT")" \
	"1:1" "... its one connect whose length holds no family, no other"
is "$(grep -c 'syscall_e[a-z]*_accept' <<<"$FTEXT")" 0 "... no accept: its exit disabled is not recorded"
is "$(grep 'syscall_entry_epoll_ctl:' <<<"$FTEXT" | sed -n 's/.*\(op_enum = [^)]*)\).*/\1/p')" "$(opnum MOD 3)" \
	"... epoll_ctl with --filter 'op_enum == 3': its one EPOLL_CTL_MOD, no other"
lttctl -q destroy f

# a filter reads the count beside a structure, not the structure: a rule
# whose filter compares one takes no event (as a field the event lacks)
lttctl -q create s -o "$TEST_TMP/s" &&
	lttctl -q enable-event -k --syscall poll --filter 'fds_length == 2' -s s &&
	lttctl -q enable-event -k --syscall epoll_wait --filter 'fds == 1' -s s &&
	lttctl -q add-context -k -t tid -s s &&
	lttctl -q start s
STEXT=$(load_text s)
ok $? "kload payloads ran a third time: poll with --filter 'fds_length == 2', epoll_wait with --filter 'fds == 1'"
is "$(grep -c 'syscall_e[a-z]*_poll: .*nfds = 2, .*fds_length = 2, .*fds = \[ \[0\] = { fd = ' <<<"$STEXT"):$(grep -c 'syscall_e[a-z]*_poll:' <<<"$STEXT"):$(grep -c epoll_wait <<<"$STEXT")" \
	"2:2:0" "... the 2-fd poll's entry and exit alone (their fds written); no epoll_wait: a structure isn't compared"
lttctl -q destroy s
