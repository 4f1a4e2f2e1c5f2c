# tests/regression/lttng-ust-lib.sh - helpers of the tests that compare
# what ltt's LTTng-UST libraries record with what Debian's LTTng records
# of the same binary (sourced after lib.sh and ust-lib.sh).
#
# compat_require skips the test without LTTng's tools; compat_build
# builds lttng-ust/compat_app.c as an LTTng user would; compat_run runs
# it under ltt-run; lttng_run runs a script beside Debian's own
# lttng-sessiond, as root in a mount namespace with its own /run, so that
# it meets no other session daemon.

COMPAT="$LTT_TOP_BUILDDIR/src/lttng-ust"

# compat_require: skip the whole test unless LTTng's tools and a compiler
# are here, and in an AddressSanitizer build (scripts/sanitize.sh): the
# compatible libraries are instrumented there, and the programs that load
# them, built with Debian's headers (or Debian's python3 and java), are
# not; the plain pass tests them.
compat_require() {
	local t
	unsanitized_or_skip
	for t in lttng lttng-sessiond lttng-gen-tp cc; do
		command -v $t >/dev/null ||
			skip_all "$t is not installed (Debian's lttng-tools, liblttng-ust-dev)"
	done
}

# unsanitized_or_skip: skip the whole test in a sanitizer build (compat_require's reason)
unsanitized_or_skip() {
	[[ $(sed -n 's/^CFLAGS = //p' "$LTT_TOP_BUILDDIR/Makefile") != *-fsanitize=* ]] ||
		skip_all "a sanitizer build: the programs that load the LTTng-UST compatible libraries are not instrumented (the plain pass runs this test)"
}

# compat_build: build compat_app in $TEST_TMP/build (APP) with LTTng's
# headers and lttng-gen-tp, and dup_app (DUP_APP: two libraries with the
# probes of one provider); one TAP result.
compat_build() {
	local src="$LTT_TOP_SRCDIR/tests/regression/lttng-ust"
	APP="$TEST_TMP/build/compat_app" DUP_APP="$TEST_TMP/build/dup_app"
	mkdir -p "$TEST_TMP/build"
	cp "$src/compat_tp.tp" "$src/compat_app.c" "$TEST_TMP/build/"
	(cd "$TEST_TMP/build" &&
		lttng-gen-tp compat_tp.tp -o compat_tp.h -o compat_tp.c >/dev/null &&
		cc -I. -o compat_app compat_app.c compat_tp.c -llttng-ust -ldl &&
		cc -fPIC -shared -I. -o libdupa.so compat_tp.c -llttng-ust &&
		cc -fPIC -shared -I. -o libdupb.so compat_tp.c -llttng-ust &&
		cc -I. -o dup_app "$src/dup_app.c" -L. -ldupa -ldupb -llttng-ust -ldl \
			-Wl,-rpath,"$TEST_TMP/build") 2>"$TEST_TMP/cc.err"
	ok $? "the program builds with LTTng-UST's headers and lttng-gen-tp" ||
		diag "$(cat "$TEST_TMP/cc.err")"
}

# multi_build TPB WHAT: in $TEST_TMP/build (B), libprova.so with
# compat_tp.tp's providers, libprovb.so with TPB's (compat_tp.tp again,
# or compat_tp_b.tp: compat:basic with other fields), and multi_app, the
# call sites alone (lttng-ust/multi_app.c); one TAP result saying WHAT.
multi_build() {
	local src="$LTT_TOP_SRCDIR/tests/regression/lttng-ust" tpb=${1%.tp}
	B="$TEST_TMP/build"
	mkdir -p "$B"
	cp "$src/compat_tp.tp" "$src/$tpb.tp" "$src/multi_app.c" "$B/"
	(cd "$B" && lttng-gen-tp compat_tp.tp -o compat_tp.h -o compat_tp.c >/dev/null &&
		lttng-gen-tp "$tpb.tp" -o "$tpb.h" -o "$tpb.c" >/dev/null &&
		cc -fPIC -shared -I. -o libprova.so compat_tp.c -llttng-ust &&
		cc -fPIC -shared -I. -o libprovb.so "$tpb.c" -llttng-ust &&
		cc -I. -o multi_app multi_app.c -ldl) 2>"$TEST_TMP/cc.err"
	ok $? "$2" || diag "$(cat "$TEST_TMP/cc.err")"
}

# multi_hold: multi_app (multi_build's) with both libraries loaded, in the
# background (HOLD_PID) until multi_release; one TAP result.
multi_hold() {
	open_fifo HOLD_OUT "$TEST_TMP/hold.out"
	open_fifo HOLD_GO "$TEST_TMP/hold.go"
	compat_run -p "$B/multi_app" -w "$B/libprova.so" "$B/libprovb.so" <&$HOLD_GO >&$HOLD_OUT &
	HOLD_PID=$!
	read_line $HOLD_OUT
	is "$LINE" ready "a program with both providers loaded, waiting"
}

multi_release() {
	echo go >&$HOLD_GO
	wait $HOLD_PID
}

# listed_layouts FILE EVENT: each entry of EVENT in FILE (the text of
# `list -u -f`, lttctl's or LTTng's) a line: its fields' names, in order.
listed_layouts() {
	awk -v ev="$2" '/\(loglevel: / { cur = ($1 == ev); n += cur; next }
		cur && $1 == "field:" { f[n] = f[n] (f[n] == "" ? "" : " ") $2 }
		END { for (i = 1; i <= n; i++) print f[i] }' "$1"
}

# compat_run [-p PROGRAM] ARGS...: compat_app (or PROGRAM) ARGS under
# ltt-run, on the libraries of the build tree (stderr in $TEST_TMP/app.err).
compat_run() {
	local prog=${APP:-}
	[ "$1" = -p ] && prog=$2 && shift 2
	LTT_LTTNG_UST_LIBDIR="$COMPAT/.libs" \
		LD_LIBRARY_PATH="$LTT_TOP_BUILDDIR/src/ust/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		timeout "$TEST_TIMEOUT" "$COMPAT/ltt-run" "$prog" "$@" 2>"$TEST_TMP/app.err"
}

# lttng_can_run: can this test run LTTng's root session daemon?
lttng_can_run() {
	[ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null
}

# compat_private_run SCRIPT [ARGS...]: for a test of LTTng's root paths
# (/var/run/lttng): skips without LTTng's tools, root or a mount
# namespace; else runs SCRIPT again in a mount namespace with its own
# /run, and returns there.  Call it as compat_private_run "$0" "$@".
# With --pid first, in a PID namespace of its own too, with its own /proc:
# for a test that finds the daemons by name among all processes (pgrep),
# as the tools it runs do.
compat_private_run() {
	local pid=
	if [ "$1" = --pid ]; then
		pid="-p -f --mount-proc"
		shift
	fi
	compat_require
	lttng_can_run ||
		skip_all "as root LTTng's clients use /var/run/lttng: the test needs root and a mount namespace (unshare -m)"
	# shellcheck disable=SC2086 # the options, split
	[ -z "$pid" ] || [ -n "${LTT_COMPAT_NS:-}" ] || unshare -m $pid true 2>/dev/null ||
		skip_all "the test needs a PID namespace with its own /proc (unshare -p -f --mount-proc)"
	if [ -z "${LTT_COMPAT_NS:-}" ]; then
		# shellcheck disable=SC2086 # the options, split
		exec env LTT_COMPAT_NS=1 unshare -m $pid bash "$@"
	fi
	mount --make-rprivate / && mount -t tmpfs -o mode=755 ltt-compat-test /run ||
		{ echo "Bail out! no private /run in the mount namespace"; exit 1; }
}

# lttng_client: Debian's lttng for the test (LTTNG=/usr/bin/lttng, never
# ltt's), its home in the test's directory (LTTNG_HOME, made), and
# lttng() that runs it within the test's timeout.
lttng_client() {
	export LTTNG_HOME="$TEST_TMP/lttng-home"
	mkdir -p "$LTTNG_HOME"
	LTTNG=/usr/bin/lttng
	lttng() { timeout "$TEST_TIMEOUT" "$LTTNG" "$@"; }
}

# lttng_run SCRIPT: bash SCRIPT with a private lttng-sessiond running
# (LTTNG_HOME=$TEST_TMP/lttng-home; APP, DUP_APP, N, TEST_TMP, TEST_TIMEOUT
# exported); its output in $TEST_TMP/lttng.log.  Returns SCRIPT's status.
lttng_run() {
	export LTTNG_HOME="$TEST_TMP/lttng-home" APP DUP_APP N TEST_TMP TEST_TIMEOUT
	mkdir -p "$LTTNG_HOME"
	env -u LTT_RUNDIR -u LD_LIBRARY_PATH unshare -m bash -c '
		mount --make-rprivate / && mount -t tmpfs -o mode=755 ltt-test /run &&
		mkdir /run/lttng || exit 1
		timeout "$TEST_TIMEOUT" lttng-sessiond --daemonize --no-kernel \
			--pidfile="$TEST_TMP/lttng-sessiond.pid" || exit 1
		bash -c "$1"
		rc=$?
		kill "$(cat "$TEST_TMP/lttng-sessiond.pid")"
		exit $rc' lttng_run "$1" >"$TEST_TMP/lttng.log" 2>&1
}

# norm FILE: babeltrace's lines without timestamp, delta, host and contexts.
norm() {
	sed -e 's/^\[[^]]*\] ([^)]*) [^ ]* //' -e 's/{ cpu_id = [0-9]* }, //' "$1"
}

# bt1 DIR OUT: babeltrace 1's normalized lines of the trace(s) under DIR
# (it prints empty strings right, where babeltrace2 2.0 does not).
bt1() {
	timeout "$BT_TIMEOUT" babeltrace "$1" 2>"$2.err" >"$2.raw"
	norm "$2.raw" >"$2"
}

# LTTng-UST's helper libraries, preloaded into lttng-ust/helper_app.c
# (test_lttng_ust_helpers.sh, and its sid twin):
# helper_build DIR [RUNNER...]: helper_app (-finstrument-functions, a
# build id) and helper_lib.so (a build id, a .gnu_debuglink) built in DIR
# by RUNNER (in_root: the root's compiler; none: this machine's), what
# the compiler said in DIR/build.log.
helper_build() {
	local dir=$1
	shift
	cp "$LTT_TOP_SRCDIR"/tests/regression/lttng-ust/{helper_app.c,helper_lib.c} "$dir/"
	"$@" sh -c 'cd "$1" && cc -finstrument-functions -Wl,--build-id -o helper_app helper_app.c -ldl -lpthread &&
		cc -g -fPIC -shared -Wl,--build-id -o helper_lib.so helper_lib.c &&
		objcopy --only-keep-debug helper_lib.so helper_lib.debug &&
		objcopy --strip-debug --add-gnu-debuglink=helper_lib.debug helper_lib.so' sh "$dir" \
		>"$dir/build.log" 2>&1
}
# helper_runs H: the two runs' preloads of the helpers in H (PRELOAD1: the
# libc and pthread wrappers, cyg-profile, dl, fd and fork; PRELOAD2:
# cyg-profile-fast), the program's words (ARGS1: close every fd, which
# needs the fd helper) and the events both record (EVENTS).
helper_runs() {
	PRELOAD1="$1/liblttng-ust-libc-wrapper.so.1:$1/liblttng-ust-pthread-wrapper.so.1:$1/liblttng-ust-cyg-profile.so.1:$1/liblttng-ust-dl.so.1:$1/liblttng-ust-fd.so.1:$1/liblttng-ust-fork.so.1"
	PRELOAD2="$1/liblttng-ust-cyg-profile-fast.so.1"
	ARGS1=close ARGS2=
	EVENTS='lttng_ust_libc:* lttng_ust_pthread:* lttng_ust_cyg_profile:* lttng_ust_cyg_profile_fast:* lttng_ust_dl:* lttng_ust_lib:*'
}
# helper_ltt B RUNNER...: both runs into ltt's sessions h1 and h2 (traces
# $TEST_TMP/ltt1 and ltt2, the program's output ltt1.out and ltt2.out),
# the program in B run by RUNNER PRELOAD PROGRAM ARGS...; HELPER_RUNS: the
# runs done whole.
helper_ltt() {
	local b=$1 k e pre args
	shift
	HELPER_RUNS=0
	for k in 1 2; do
		lttctl create h$k -o "$TEST_TMP/ltt$k" >/dev/null || return
		for e in $EVENTS; do
			lttctl enable-event -u "$e" -s h$k >/dev/null || return
		done
		lttctl start h$k >/dev/null || return
		pre=PRELOAD$k
		args=ARGS$k
		# shellcheck disable=SC2086 # ARGSk: a word or none
		"$@" "${!pre}" "$b/helper_app" "$b/helper_lib.so" ${!args} >"$TEST_TMP/ltt$k.out" || return
		lttctl stop h$k >/dev/null && lttctl destroy h$k >/dev/null || return
		HELPER_RUNS=$((HELPER_RUNS + 1))
	done
}

# The events of lttng-ust/helper_app.c, which prints its addresses as
# NAME=0xADDR lines (its OUT), in a trace's normalized text TXT (either
# babeltrace's, whatever the case of its hexadecimal):
# helper_program OUT TXT: the program's own events (its sizes 1001 to 1005
# and 2000, its mutex, its functions, its library), its addresses by
# name, the others left out.
helper_program() {
	local subst baddr
	subst=$(sed -n 's/^\([a-z]*\)=0x\([0-9a-f]*\)$/s|0x0*\2\\b|<\1>|gi;/p' "$1")
	baddr=$(sed -n 's/^lttng_ust_dl:dlopen: { baddr = \(0x[0-9A-Fa-f]*\),.*helper_lib\.so".*/\1/p' "$2")
	sed -e "$subst" "$2" |
		grep -E "size = (100[1-5]|2000)[,} ]|<mutex>|addr = <(main|middle|leaf)>|baddr = ${baddr:-none}[ ,]" |
		sed -e 's/0x[0-9A-Fa-f]\{9,\}/<addr>/g'
}
# event_names TXT: the event names TXT holds, sorted, once each
event_names() {
	cut -d: -f1-2 "$1" | sort -u | tr '\n' ' '
}
# helper_kept N OUT: how many fds of kind N (sockets, eventfds) OUT says were left open
helper_kept() {
	sed -n "s/^kept $1 \([0-9]*\)$/\1/p" "$2"
}

# same_events EVENT KEY LABEL: $TEST_TMP/ltt.KEY and $TEST_TMP/lttng.KEY
# (each tracer's session, normalised by the test) hold the same non-zero
# count of EVENT and the same events field by field; two TAP results.
same_events() {
	local ev=$1 key=$2 label=$3 n m
	n=$(grep -c "^$ev: " "$TEST_TMP/ltt.$key")
	m=$(grep -c "^$ev: " "$TEST_TMP/lttng.$key")
	ok "$([ "$n" -gt 0 ] && [ "$n" = "$m" ] && echo 0 || echo 1)" \
		"$label: ltt recorded $n $ev, LTTng $m"
	diff "$TEST_TMP/lttng.$key" "$TEST_TMP/ltt.$key" >"$TEST_TMP/diff.$key"
	ok $? "$label: the same events, field by field" || diag "$(head -6 "$TEST_TMP/diff.$key")"
}

# health_client_build: lttng-compat/lttng_health_client.c built against
# Debian's liblttng-ctl (HEALTH_CLIENT), for health ARGS... (its answer, bounded;
# stderr with it); one TAP result.
health_client_build() {
	HEALTH_CLIENT="$TEST_TMP/lttng_health_client"
	cc -o "$HEALTH_CLIENT" "$LTT_TOP_SRCDIR/tests/regression/lttng-compat/lttng_health_client.c" \
		-llttng-ctl 2>"$TEST_TMP/client-cc.err"
	ok $? "the health client builds against Debian's liblttng-ctl" ||
		diag "$(cat "$TEST_TMP/client-cc.err")"
}

health() { timeout "$TEST_TIMEOUT" "$HEALTH_CLIENT" "$@" 2>&1; }

# own_app_finish: own_app (tests/regression/lttng-ust/own_app.c), started in
# the background (BG; its standing line on the FIFO OWN_IN; its pid
# own_pid) on LTTng-UST's own library, is told to go: it records its N
# events into that library and exits, the daemon logged it once for its
# two connections, and lttctl list -u no longer shows it.  Three checks.
own_app_finish() {
	echo go >&"$OWN_IN"
	wait "$BG"
	is $? 0 "it records its $N events into its own library and exits"
	is "$(grep -c "program pid $own_pid ('own_app')" "$SESSIOND_LOG")" 1 \
		"the daemon logged it once, for its two connections (command and notification)"
	run lttctl list -u
	unlike "$OUT" "PID: $own_pid " "gone, it is no longer listed"
}
