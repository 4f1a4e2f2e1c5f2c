#!/bin/bash
# test_kernel_bpf_payloads.sh - the structures the BPF system call source
# reads from user memory (doc/kernel-bpf.md, "Structures"), natively on a
# kernel that refuses event probes (this development machine's): a
# program of known calls (kload payloads: connect to its own listener on
# 127.0.0.1 and to [2001:db8::1:2]:4243, a connect whose length holds no
# family, writev of 3 iovecs, poll on 2 fds, on 600, on a bad address,
# ppoll on 2, epoll_ctl, accept) and babeltrace2 reads exactly
# lttng-modules' fields: connect's family, dport, v4addr and v6addr;
# accept's exit's upeer_addrlen, family, sport, v4addr; poll's and ppoll's
# fds_length and overflow (600 cut to 512 and marked); the other calls'
# arguments as ftrace gives them (writev's vlen 3, epoll_ctl's op and
# fd).  A filter on an added field (family == 0) keeps that connect alone.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
export LTT_CONSUMERD_PATH="$LTT_TOP_BUILDDIR/src/consumerd/ltt-consumerd"

test_init
bpf_source_or_skip
. "$LTT_TOP_SRCDIR/tests/regression/kload-lib.sh"
plan 18
kernel_lock

tracefs_sessiond "$TEST_TMP/sessiond.log"
ok $? "a root daemon with --kernel-backend=tracefs started"
lttctl -q create p -o "$TEST_TMP/p" &&
	lttctl -q enable-event -k --syscall connect,writev,poll,ppoll,epoll_ctl,accept,accept4 -s p &&
	lttctl -q add-context -k -t tid -s p &&
	lttctl -q start p
ok $? "a session recording connect, writev, poll, ppoll, epoll_ctl, accept, accept4 started"
out=$("$KLOAD" payloads)
ok $? "kload payloads ran: $out"
lttctl -q stop p
read -r _ tid _ port _ rfd wfd _ tcp _ ep _ v6 _ cport <<<"$out"
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
like "$(grep 'syscall_entry_poll: .*nfds = 2,' <<<"$ENTRIES" | grep -v 'ufds = 0x8,')" \
	"nfds = 2, timeout_msecs = 0, fds_length = 2, overflow = 0 }" \
	"poll on 2 fds: fds_length 2, overflow 0"
like "$(grep 'syscall_entry_poll: .*nfds = 600,' <<<"$ENTRIES")" \
	"fds_length = 512, overflow = 1 }" "poll on 600: cut to 512 (a page of pollfds), overflow 1"
like "$(grep 'syscall_entry_poll: .*ufds = 0x8,' <<<"$ENTRIES")" \
	"nfds = 2, timeout_msecs = 0, fds_length = 0, overflow = 0 }" \
	"poll on an unreadable array: fds_length 0, as lttng-modules when its copy fails"
like "$(grep 'syscall_entry_ppoll:' <<<"$ENTRIES")" \
	"nfds = 2, tsp = 0x[0-9A-F]+, sigmask = 0x0, sigsetsize = 8, fds_length = 2, overflow = 0 }" \
	"ppoll on 2 fds: its arguments, fds_length 2, overflow 0"
like "$(grep 'syscall_entry_epoll_ctl:' <<<"$ENTRIES")" \
	"{ epfd = $ep, op = 1, fd = $rfd, event = 0x[0-9A-F]+ }" \
	"epoll_ctl: epfd, op 1 (EPOLL_CTL_ADD), the pipe's fd"
like "$(grep 'syscall_exit_accept:' <<<"$EXITS")" \
	"{ ret = [0-9]+, upeer_addrlen = 16, family = 2, sport = $cport, $v4, $nov6 }" \
	"accept's exit: the peer 127.0.0.1:$cport (upeer_addrlen 16, family 2, sport, v4addr)"
like "$(grep 'syscall_exit_accept4:' <<<"$EXITS")" \
	"{ ret = -11, upeer_addrlen = 0, family = 0, sport = 0, " \
	"a failed accept4 (EAGAIN): no peer, not the buffers' stale one"
lttctl -q destroy p

# a filter on a field the program adds, run by the consumer
lttctl -q create f -o "$TEST_TMP/f" &&
	lttctl -q enable-event -k --syscall connect --filter 'family == 0' -s f &&
	lttctl -q enable-event -k --syscall accept -s f &&
	lttctl -q disable-event -k --syscall accept -s f &&
	lttctl -q add-context -k -t tid -s f &&
	lttctl -q start f
out=$("$KLOAD" payloads)
ok $? "kload payloads ran again, in a session recording connect with --filter 'family == 0' (accept enabled, then disabled)"
lttctl -q stop f
read -r _ tid _ <<<"$out"
FTEXT=$(timeout "$BT_TIMEOUT" babeltrace2 "$TEST_TMP/f/kernel" | grep "tid = $tid }")
is "$(grep -c 'syscall_entry_connect:' <<<"$FTEXT"):$(grep -c 'syscall_entry_connect: .*addrlen = 1, family = 0,' <<<"$FTEXT")" \
	"1:1" "... its one connect whose length holds no family, no other"
is "$(grep -c 'syscall_e[a-z]*_accept' <<<"$FTEXT")" 0 "... no accept: its exit disabled is not recorded"
lttctl -q destroy f
