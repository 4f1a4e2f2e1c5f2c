#!/bin/bash
# The agent port's limits per user and per agent (issue 61, 4 and 5),
# with fake LTTng agents (lttng_agent_fake.py), one of them run as
# nobody, the user who does not trace: nobody's 70 connections get 64
# registrations, the limit per user, and 6 closed at accept, with a log
# line that says which limit; root's agent that connects after them is
# registered (it was told REGISTRATION_DONE).  In `lttctl list -j` an
# agent that answers LIST with 5,000 loggers shows 4,096, the limit per
# agent; nobody's 64 agents, 100 loggers of 200 bytes each, fill their
# 256 KiB of the listing (as many whole entries as fit) and no more, root's
# other agent's 3 loggers are there; each cut is logged with its limit.
# Before, every connection of any user was registered up to 1,024 in all,
# and every name kept: four agents of 65,536 names took the reply past
# what a client takes, and list -j failed for everyone.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

. "$LTT_TOP_SRCDIR/tests/regression/agent-fake-lib.sh"
agent_fake_init 14

like "$PORT" '^[0-9]+$' "the daemon's agent port"
fake_agent root 1 5000 20 root.
is "$LINE" "registered 1 closed 0" "root's agent registered"
fake_agent nb nobody 70 100 200 nb.
is "$LINE" "registered 64 closed 6" \
	"nobody's 70 connections: 64 registered (the limit per user), 6 closed at accept"
like "$(cat "$SESSIOND_LOG")" "uid $(id -u nobody) has 64 LTTng agents connected, the limit per user: another one refused" \
	"the log says which limit refused them"
fake_agent late 1 3 20 late.
is "$LINE" "registered 1 closed 0" "root's agent that came after them: registered, its slot not taken"

run lttctl list -j
is "$RC" 0 "list -j answers"
is "$(grep -c '^ *root\.x*\.[0-9]*$' <<<"$STDOUT")" 4096 \
	"root's agent of 5,000 loggers: 4,096 listed, the limit per agent"
is "$(grep -c '^ *late\.x*\.[0-9]*$' <<<"$STDOUT")" 3 "root's other agent: its 3 loggers"
# an entry: u32 pid, the program's name (its process name, which list
# shows as the path it was started by) and the logger's, each with its
# NUL, two u32s
comm=$(sed -n 's/^PID: [0-9]* - Name: //p' <<<"$STDOUT" | sort -u)
comm=${comm##*/}
entry=$((4 + ${#comm} + 1 + 200 + 1 + 8))
is "$(grep -c '^ *nb\.x*\.[0-9]*$' <<<"$STDOUT")" $((262144 / entry)) \
	"nobody's 64 agents' 6,400 loggers of 200 bytes: the $((262144 / entry)) entries of $entry bytes that fill 256 KiB"
like "$(cat "$SESSIOND_LOG")" "LTTng JUL agents of uid 0: 904 loggers left out of the listing, past the 4,096 loggers one agent may list" \
	"the log says which limit cut root's agent"
like "$(cat "$SESSIOND_LOG")" "LTTng JUL agents of uid $(id -u nobody): $((6400 - 262144 / entry)) loggers left out of the listing, past the 256 KiB of loggers one user's agents may list" \
	"and which cut nobody's"

# the agents leave: their slots are free again
eval "exec ${IN_nb}>&-"
eval "wait $PID_nb"
fake_agent nb2 nobody 1 1 20 nb2.
is "$LINE" "registered 1 closed 0" "nobody's agents gone: another of nobody's registers"
eval "exec ${IN_root}>&- ${IN_late}>&- ${IN_nb2}>&-"
wait
run lttctl list -j
is "$RC:$(grep -c 'x\.[0-9]*$' <<<"$STDOUT")" "0:0" "every agent gone: list -j lists no logger"
stop_sessiond
ok $? "the daemon stops"
done_testing
