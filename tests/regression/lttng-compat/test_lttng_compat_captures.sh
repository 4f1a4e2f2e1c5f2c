#!/bin/bash
# Captures of an LTTng-UST program's fields (lttng-ust/compat_app.c, built
# with Debian's headers, recorded through ltt's liblttng-ust.so.1): whole
# arrays and sequences as arrays of their elements, text ones as strings,
# network (big endian) integers as their values, as LTTng captures them.
#  - compat:arrays and compat:ints of round i = 1: v = {1, -1000003,
#    2147483646, -2147483647}; ns16 = -300, nu32 = 0x01020305.
#  - network arrays: LTTng swaps each element it reads from the program's
#    memory (lttng-ust's capture of a reversed byte order), so anet's 1
#    is 16777216 and its -1000003 (0xfff0bdbd) 3183341823 (0xbdbdf0ff), as
#    ltt gives them too.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

compat_require
ust_setup
plan 8

compat_build
ok_cmd "a trigger capturing compat:arrays whole" lttctl add-trigger --name carr \
	--condition=event-rule-matches --type=user --name=compat:arrays --filter='after == 1' \
	--capture=a32 --capture=a8 --capture=atext --capture=anet --capture=after --action=notify
ok_cmd "and one capturing compat:ints' network integers" lttctl add-trigger --name cnet \
	--condition=event-rule-matches --type=user --name=compat:ints --filter='s8 == -91' \
	--capture=ns16 --capture=nu32 --capture=ns64 --action=notify
start_waiter w carr && AWAITER=$WAITER && start_waiter n cnet
ok $? "both waiters subscribed"
compat_run 2
wait $AWAITER
is $? 0 "carr notified"
like "$(cat "$TEST_TMP/w.out")" \
	'captures: a32=\[1, -1000003, 2147483646\], a8=\[1, 0, 0, 0\], atext="b", anet=\[16777216, 3183341823\], after=1$' \
	"the arrays' elements, the text a string, the network array as LTTng captures it"
wait $WAITER
is $? 0 "cnet notified"
like "$(cat "$TEST_TMP/n.out")" 'captures: ns16=-300, nu32=16909061, ns64=-1000000000003$' \
	"network integers: their values"
