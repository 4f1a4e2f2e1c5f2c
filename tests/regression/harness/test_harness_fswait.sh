#!/bin/bash
# lib.sh's wait_fs (tests/regression/fswait.c), the suite's wait on files:
# it returns 0 once its condition holds, woken by the change that made it
# hold (a file created two directories below what existed, a line
# appended, a file matching a pattern, a directory removed), 1 at its bound, saying what it waited
# for; between changes it runs nothing: a 2 s wait that never holds runs
# its condition once and takes almost no CPU time.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
test_init
plan 20
[ -x "$FSWAIT" ] || { echo "Bail out! $FSWAIT not built (make check builds it)"; exit 1; }
d="$TEST_TMP/w"
mkdir -p "$d"
runs="$TEST_TMP/runs"

# runs_reach N: until the condition of the wait in the background has run
# N times (it appends a line to $runs each time): the wait is watching.
runs_reach() {
	wait_fs "$runs" -- bash -c '[ "$(wc -l <"$0" 2>/dev/null)" -ge "$1" ]' "$runs" "$1"
}

# counted PATH SCRIPT ARG: wait_fs PATH until bash -c SCRIPT (its $0 ARG)
# holds, in the background (its pid in w), each run of SCRIPT a line of
# $runs; returns once SCRIPT ran the first time.
counted() {
	: >"$runs"
	wait_fs "$1" -- bash -c 'echo >>"$1"; '"$2" "$3" "$runs" &
	w=$!
	runs_reach 1
}

# A file that appears two directories below the nearest that exists.
counted "$d/a/b/f" '[ -e "$0" ]' "$d/a/b/f"
ok $? "the wait ran its condition once, false"
mkdir "$d/a"
runs_reach 2
ok $? "a directory on the way woke it"
mkdir "$d/a/b" && echo x >"$d/a/b/f"
wait $w
is $? 0 "it returned 0 once the file appeared"
n=$(wc -l <"$runs")
ok "$([ "$n" -ge 3 ] && [ "$n" -le 5 ]; echo $?)" "its condition ran once a change ($n runs)"

# A line appended to a file that exists.
echo first >"$d/log"
counted "$d/log" 'grep -q "^second$" "$0"' "$d/log"
echo other >>"$d/log"
runs_reach 2
ok $? "a line appended woke it"
echo second >>"$d/log"
wait $w
is $? 0 "it returned 0 once the line was there"

# A pattern: a file in a directory its wildcard matches, made beside one
# that matched before.
mkdir -p "$d/g/old"
counted "$d/g/*/f" '[ -e "$0" ]' "$d/g/new/f"
mkdir "$d/g/new" && : >"$d/g/new/f"
wait $w
is $? 0 "a pattern: it returned 0 once a file matched in a new directory"

# A directory that goes away.
mkdir -p "$d/gone/sub"
counted "$d/gone" '[ ! -e "$0" ]' "$d/gone"
rm -r "$d/gone"
wait $w
is $? 0 "it returned 0 once the directory was removed"

# A condition that never holds: 1 at the bound, said, and idle meanwhile.
: >"$runs"
/usr/bin/time -f "%e %U %S" -o "$TEST_TMP/time" "$FSWAIT" 2 "$d/never" -- \
	bash -c 'echo >>"$1"; [ -e "$0" ]' "$d/never" "$runs" 2>"$TEST_TMP/err"
is $? 1 "a wait that never holds returns 1"
like "$(cat "$TEST_TMP/err")" "fswait: not true within 2 s: bash -c .* $d/never" "and says what it waited for"
like "$(cat "$TEST_TMP/err")" "watched $d/never" "and where"
read -r wall user sys <<<"$(tail -n1 "$TEST_TMP/time")"
ok "$(awk -v w="$wall" 'BEGIN { exit !(w >= 1.9 && w < 10) }'; echo $?)" "it waited its 2 s ($wall s)"
ok "$(awk -v u="$user" -v s="$sys" 'BEGIN { exit !(u ~ /^[0-9.]+$/ && s ~ /^[0-9.]+$/ && u + s < 0.3) }'; echo $?)" \
	"with almost no CPU time (user $user s, system $sys s)"
is "$(wc -l <"$runs")" 1 "its condition ran once in the 2 s"

# A condition still running at the bound is stopped there: one that
# waits on a FIFO nobody opens.
mkfifo "$d/fifo"
begin=$(date +%s)
"$FSWAIT" 1 "$d" -- bash -c 'read -r x <"$0"' "$d/fifo" 2>/dev/null
is $? 1 "a condition that hangs ends at the bound"
ok "$([ $(($(date +%s) - begin)) -le 5 ]; echo $?)" "within it"
# ... the whole of it: a pipeline's reader of the FIFO too, which read
# on, holding the output open (a $(wait_fs ...) waited on it without end)
"$FSWAIT" 1 "$d" -- bash -c 'read -r x <"$0" | cat; exit 1' "$d/fifo" >/dev/null 2>&1
is $? 1 "a pipeline that hangs ends at the bound"
# a writer opens the FIFO only while a reader waits on it (bounded)
timeout 2 bash -c ': >"$0"' "$d/fifo"
is $? 124 "... nothing of it reads on"

# Bad usage.
"$FSWAIT" 2 "$d" 2>/dev/null
is $? 2 "no command: usage"
"$FSWAIT" x "$d" -- true 2>/dev/null
is $? 2 "a timeout that is no number: usage"
