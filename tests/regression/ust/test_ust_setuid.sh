#!/bin/bash
# test_ust_setuid.sh - a set-user-ID program linked to libltt-ust, run by
# another user, registers with the root daemon alone: LTT_RUNDIR, LTT_HOME
# and HOME in its environment are the invoking user's choice, and a
# daemon they name would command a privileged process (doc/lttng-ust.md,
# "Set-user-ID programs"; LTTng-UST reads neither HOME nor LTTNG_HOME
# there).  The same program without the bit, run by the same user with
# the same environment, registers with the daemon LTT_RUNDIR names.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

ust_setup --log
can_switch_user || skip_all "needs root, setpriv and the user nobody"
command -v "${LTT_TEST_CC:-cc}" >/dev/null || skip_all "needs a C compiler"
# a file system mounted nosuid (a hardened /tmp) runs the copy as its
# caller: set-user-ID can't be shown there
findmnt -n -o OPTIONS -T "$TEST_TMP" 2>/dev/null | tr , '\n' | grep -qx nosuid &&
	skip_all "$TEST_TMP is on a file system mounted nosuid: set TMPDIR to another"
plan 7

UST_LIBS="$LTT_TOP_BUILDDIR/src/ust/.libs"
# an instrumented program (it registers in its constructor), says so, and
# waits for its standard input to close; built with the build's flags (a
# sanitizer's runtime must be in the program: a set-user-ID program
# preloads nothing)
cflags=$(sed -n 's/^CFLAGS = //p' "$LTT_TOP_BUILDDIR/Makefile")
ldflags=$(sed -n 's/^LDFLAGS = //p' "$LTT_TOP_BUILDDIR/Makefile")
dir="$TEST_TMP/bin"
mkdir -p "$dir"
chmod 711 "$TEST_TMP"
chmod 755 "$dir"
cat >"$dir/prog.c" <<'EOF'
#include <stdio.h>
#include <unistd.h>

#include "test_tp.h"

int main(void)
{
	char c;

	ltt_tracepoint(ltt_test, seq, "setuid", 0, 0);
	printf("ready %d %d\n", (int)getpid(), (int)geteuid());
	fflush(stdout);
	return read(0, &c, 1) < 0;
}
EOF
# (by the build's compiler: its flags may be that compiler's own, as a
# sanitizer build's -gline-tables-only is clang's)
# shellcheck disable=SC2086
${LTT_TEST_CC:-cc} $cflags $ldflags -o "$dir/plain" "$dir/prog.c" -I"$LTT_TOP_SRCDIR/include" -I"$LTT_TOP_BUILDDIR/include" \
	-I"$LTT_TOP_SRCDIR/tests/regression/app" -L"$UST_LIBS" -lltt-ust \
	-Wl,-rpath,"$UST_LIBS" 2>"$TEST_TMP/cc.err"
ok $? "a program linked to libltt-ust built" || diag "$(cat "$TEST_TMP/cc.err")"
cp "$dir/plain" "$dir/suid"
chown root:root "$dir/suid" && chmod 4755 "$dir/suid"
ok $? "a set-user-ID root copy of it"

# run NAME: NAME run by nobody with LTT_RUNDIR, HOME and LTT_HOME naming
# this test's daemon and a home of nobody's; its pid and euid in PID, EUID
# once registered (the constructor returned); held until done NAME
declare -A IN PID EUID_OF
nobody_home
run_prog() {
	local in out word
	mkfifo "$TEST_TMP/$1.in" "$TEST_TMP/$1.out"
	as_nobody env LTT_RUNDIR="$LTT_RUNDIR" HOME="$nhome" LTT_HOME="$nhome" \
		"$dir/$1" <"$TEST_TMP/$1.in" >"$TEST_TMP/$1.out" 2>"$TEST_TMP/$1.err" &
	exec {in}>"$TEST_TMP/$1.in" {out}<"$TEST_TMP/$1.out"
	IN[$1]=$in
	read -r -t "$TEST_TIMEOUT" -u "$out" word PID[$1] EUID_OF[$1]
	[ "$word" = ready ] || { echo "Bail out! $1 did not start: $(cat "$TEST_TMP/$1.err")"; exit 1; }
}
done_prog() {
	local fd=${IN[$1]}
	exec {fd}>&-
}

run_prog plain
run lttctl list -u
like "$STDOUT" "^PID: ${PID[plain]} - Name: " "without the bit: registered with the daemon LTT_RUNDIR names"
done_prog plain

run_prog suid
is "${EUID_OF[suid]}" 0 "the set-user-ID copy runs as root for nobody"
run lttctl list -u
unlike "$STDOUT" "^PID: ${PID[suid]} " "with the bit: not registered with the daemon its user's LTT_RUNDIR names"
unlike "$(cat "$SESSIOND_LOG")" "pid ${PID[suid]}[^0-9]" "... the daemon never heard of it"
ls "$nhome" >"$TEST_TMP/nhome.ls" 2>&1
is "$(cat "$TEST_TMP/nhome.ls")" "" "... nor did it make anything in the HOME its user gave it"
done_prog suid
wait
stop_sessiond
done_testing
