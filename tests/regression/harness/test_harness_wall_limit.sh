#!/bin/bash
# tests/wall-limit.sh, the suite's bound on one test's wall-clock time:
# a test that passes keeps its output and status; one that hangs is
# stopped at the bound, its traps run (its daemons go with it), and it
# ends as a failure that says so, instead of holding the suite.  What a
# test left running when it ended (a daemon its traps missed, or all of
# them when it was killed) is killed after it, and said.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
test_init
plan 13
wall="$LTT_TOP_SRCDIR/tests/wall-limit.sh"
d="$TEST_TMP/w"
mkdir -p "$d"

# A test that ends by itself: its output and status pass through.
cat > "$d/quick.sh" <<'T'
#!/bin/sh
echo "1..1"
echo "ok 1 - quick"
exit 3
T
chmod +x "$d/quick.sh"
out=$(LTT_TEST_WALL=60 sh "$wall" "$d/quick.sh")
is "$?" 3 "a test's own exit status passes through"
like "$out" "ok 1 - quick" "its output passes through"
unlike "$out" "Bail out" "and no failure is added to it"
like "$out" "^# wall-limit.sh: .*quick.sh took [0-9]+ s\$" "the time it took ends it, in a TAP comment"

# A test that waits forever: opening a FIFO no one writes.  Its TERM
# trap (lib.sh's) must run, as its daemons' cleanup does.
mkfifo "$d/never"
cat > "$d/hang.sh" <<T
#!/bin/bash
trap 'echo cleaned > "$d/cleaned"' EXIT
trap 'exit 143' TERM
echo "1..1"
read -r x < "$d/never"
T
chmod +x "$d/hang.sh"
begin=$(date +%s)
out=$(LTT_TEST_WALL=2 sh "$wall" "$d/hang.sh")
rc=$?
took=$(($(date +%s) - begin))
is "$rc" 1 "a test past its bound ends in failure"
like "$out" "^Bail out! .*hang.sh ran past its wall-clock bound of 2 s" "which says what happened, as TAP's Bail out"
[ "$took" -lt 30 ]; ok $? "it is stopped at the bound with SIGTERM, not left to the SIGKILL 30 s on (took ${took} s)"
is "$(cat "$d/cleaned" 2>/dev/null)" cleaned "the test's EXIT trap ran on the way out"

# A test that ends leaving a process of its own running (in a session
# of its own, as a daemon is): it is killed after the test, and said.
# It ends once tail runs: a process still inside its exec has no
# environment to read yet (ASan's load once showed it, found by nothing).
cat > "$d/leaky.sh" <<T
#!/bin/bash
echo "1..1"
setsid tail -f /dev/null </dev/null >/dev/null 2>&1 &
echo \$! > "$d/leaked.pid"
deadline=\$((SECONDS + 10))
until [ "\$(cat /proc/\$!/comm 2>/dev/null)" = tail ] || [ \$SECONDS -ge \$deadline ]; do :; done
echo "ok 1 - leaky"
T
chmod +x "$d/leaky.sh"
out=$(LTT_TEST_WALL=60 sh "$wall" "$d/leaky.sh")
is "$?" 0 "a test that left a process: its status passes through"
pid=$(cat "$d/leaked.pid")
like "$out" "^# wall-limit.sh: killed what .*leaky.sh left running: $pid \(tail\)\$" \
	"the process it left is said, in a TAP comment"
# killed: gone, or a zombie until its new parent reaps it (bounded)
deadline=$((SECONDS + 10))
until ! [ -d "/proc/$pid" ] || grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null ||
	[ $SECONDS -ge $deadline ]; do :; done
left=$( ([ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status") && echo "$pid")
kill -KILL "$pid" 2>/dev/null	# whatever the check says: none left by this test
is "$left" "" "and it is killed"

# The suite runs every test through it.
mk="$LTT_TOP_SRCDIR/tests/local.mk"
like "$(grep '^LOG_COMPILER' "$mk")" "tests/wall-limit.sh" "programs run under the bound"
like "$(grep '^SH_LOG_COMPILER' "$mk")" "LOG_COMPILER" "scripts run under the bound"
