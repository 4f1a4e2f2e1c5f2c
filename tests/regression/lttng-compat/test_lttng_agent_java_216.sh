#!/bin/bash
# test_lttng_agent_java_216.sh - LTTng 2.16's Java agents as Debian sid
# ships them (liblttng-ust-agent-java and its JNI libraries, JUL and
# log4j 1.2, on sid's Java; installed in an overlay of the sid root made
# by scripts/debian-root.sh) record into ltt: java/LttngJavaApp.java,
# compiled there against 2.16's jars, registers with ltt-sessiond
# --lttng-compat on LTTng's agent port, takes the session's rules (a
# logger, a log level), and its records reach ltt's trace through ltt's
# liblttng-ust.so.1; LTTng 2.16's own daemons in the same root record
# the same program with the same rules, and babeltrace2 2.1 shows the
# same events, field by field (the time stamps left out).  As root in
# its own mount namespace (/var/run/lttng), as test_lttng_agent_216.sh.
. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/root-lib.sh"

compat_private_run "$0" "$@"
ust_setup --log --lttng-compat
unsanitized_or_skip
root_or_skip sid
plan 18
N=4

# sid's agents, Java and a compiler in an overlay: the cached root stays as it is
ROOT_OVERLAY=$TEST_TMP/overlay
root_apt_install "$TEST_TMP/install.log" liblttng-ust-agent-java liblttng-ust-agent-java-jni \
	liblog4j1.2-java default-jdk-headless
ok $? "sid's Java agents, log4j 1.2 and Java installed in an overlay of the root" ||
	{ tail -n 20 "$TEST_TMP/install.log" | sed 's/^/# /'; echo "Bail out! no agent"; exit 1; }
like "$(in_root dpkg-query -W -f '${Version}' liblttng-ust-agent-java)" '^2\.16\.' \
	"... LTTng-UST 2.16's Java agents"

ltt_ust_lib
J=/usr/share/java
CP="$J/lttng-ust-agent-common.jar:$J/lttng-ust-agent-jul.jar:$J/lttng-ust-agent-log4j.jar:$J/log4j-1.2.jar"
JNI=/usr/lib/x86_64-linux-gnu/jni
mkdir -p "$TEST_TMP/classes"
cp "$LTT_TOP_SRCDIR/tests/regression/java/LttngJavaApp.java" "$TEST_TMP/"
in_root javac -d "$TEST_TMP/classes" -cp "$CP" "$TEST_TMP/LttngJavaApp.java" >"$TEST_TMP/javac.log" 2>&1
ok $? "LttngJavaApp.java compiles against LTTng-UST 2.16's agent jars" ||
	{ sed 's/^/# /' "$TEST_TMP/javac.log"; echo "Bail out! no program"; exit 1; }
CP="$TEST_TMP/classes:$CP"
# the program's input: wait for both rules, N rounds of records, exit
printf 'enabled qa.app yes\nenabled qa.fmt.sub yes\nrecord %d\nexit\n' $N >"$TEST_TMP/input"
# a run's bound: the program itself waits 30 s at most for each rule
RUN_LIMIT=$((TEST_TIMEOUT * 5))

# events DIR OUT: babeltrace2 2.1's lines of the agent's events, without
# the time stamps
events() {
	bt21 "$1" "$2.raw"
	norm "$2.raw" | grep '^lttng_\(jul\|log4j\):event: ' |
		sed -e 's/long_millis = [0-9]*, //' -e 's/timestamp = [0-9]*, //' >"$2"
}

# compare jul|log4j OPT LEVEL: a session with the rules OPT qa.app
# --loglevel LEVEL and OPT "qa.fmt.*" in each tracer, the program under
# each, their events compared: N rounds give 36 of each framework's (qa.app
# from LEVEL up, qa.fmt.sub at every level); 7 TAP results.
compare() {
	local fw=$1 opt=$2 level=$3
	lttctl -q create $fw -o "$TEST_TMP/ltt/$fw" &&
		lttctl -q enable-event $opt qa.app --loglevel $level -s $fw &&
		lttctl -q enable-event $opt 'qa.fmt.*' -s $fw && lttctl -q start $fw
	ok $? "$fw: ltt's session, its two rules, started"
	# Java takes the home from the password file: LTTNG_HOME names the daemon's
	ROOT_RUN=/run LTTNG_HOME=$HOME in_root_ltt timeout $RUN_LIMIT java -cp "$CP" -Djava.library.path="$JNI" LttngJavaApp $fw \
		<"$TEST_TMP/input" >"$TEST_TMP/ltt.$fw.out" 2>"$TEST_TMP/ltt.$fw.err"
	echo "exit status $?" >>"$TEST_TMP/ltt.$fw.out"
	like "$(grep -v '^rule ' "$TEST_TMP/ltt.$fw.out" | tr '\n' ' ')" \
		"^ready enabled qa.app yes enabled qa.fmt.sub yes recorded exit status 0 $" \
		"$fw: the program, with sid's agent, runs on ltt's liblttng-ust.so.1" ||
		diag "$(tail -n 5 "$TEST_TMP/ltt.$fw.err")"
	lttctl -q stop $fw && lttctl -q destroy $fw
	# LTTng 2.16's daemons in a run directory of each framework's, each
	# step bounded, the daemon waited for once killed
	ROOT_RUN=$TEST_TMP/lttng-run-$fw in_root bash -c 'export HOME="$1" LTTNG_UST_REGISTER_TIMEOUT=5000
		fw=$2 opt=$3 level=$4 t=$7 limit=$8
		timeout $t lttng-sessiond -b --no-kernel >/dev/null 2>&1 || exit 1
		timeout $t lttng create $fw -o "$1/lttng/$fw" >/dev/null &&
			timeout $t lttng enable-event $opt qa.app --loglevel $level -s $fw >/dev/null &&
			timeout $t lttng enable-event $opt "qa.fmt.*" -s $fw >/dev/null &&
			timeout $t lttng start $fw >/dev/null &&
			timeout $limit java -cp "$5" -Djava.library.path="$6" LttngJavaApp $fw \
				<"$1/input" >"$1/lttng.$fw.out" &&
			timeout $t lttng stop $fw >/dev/null && timeout $t lttng destroy $fw >/dev/null
		rc=$?
		pid=$(cat /run/lttng/lttng-sessiond.pid)
		kill "$pid" && timeout $t tail --pid="$pid" -f /dev/null
		exit $rc' sh "$TEST_TMP" $fw $opt $level "$CP" "$JNI" "$TEST_TIMEOUT" $RUN_LIMIT \
		>"$TEST_TMP/lttng.$fw.log" 2>&1
	ok $? "$fw: LTTng 2.16 recorded the same program with its own daemons" ||
		diag "$(tail -n 5 "$TEST_TMP/lttng.$fw.log")"
	like "$(grep -v '^rule ' "$TEST_TMP/lttng.$fw.out" | tr '\n' ' ')" \
		"^ready enabled qa.app yes enabled qa.fmt.sub yes recorded $" \
		"$fw: ... its agent took both rules from LTTng's daemon"
	events "$TEST_TMP/ltt/$fw" "$TEST_TMP/ltt.$fw"
	events "$TEST_TMP/lttng/$fw" "$TEST_TMP/lttng.$fw"
	same_events "lttng_$fw:event" $fw "$fw"
	is "$(grep -c "^lttng_$fw:event: " "$TEST_TMP/ltt.$fw")" 36 \
		"$fw: ... the 36 records the rules take"
}

compare jul -j JUL_WARNING
compare log4j -l LOG4J_WARN
# what the rules took: qa.app from WARNING up, qa.fmt.sub all, in odd and even rounds
like "$(grep -m1 'msg = "keep 1 at 900"' "$TEST_TMP/ltt.jul")" \
	'logger_name = "qa.app", class_name = "LttngJavaApp\$Jul", method_name = "levels", .*int_loglevel = 900' \
	"jul: a record's fields as sid's handler gave them"
done_testing
