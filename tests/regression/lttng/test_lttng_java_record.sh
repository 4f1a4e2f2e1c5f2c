#!/bin/bash
# test_lttng_java_record.sh - Debian's own Java agents (JUL and log4j 1.2,
# liblttng-ust-agent-java, whose JNI libraries liblttng-ust-jul-jni.so and
# liblttng-ust-log4j-jni.so link liblttng-ust.so.1), run under ltt-run
# with java/LttngJavaApp.java, record lttng_jul:event and
# lttng_log4j:event into ltt's trace, and `lttctl enable-event -j/-l`
# (logger names and patterns, --loglevel, --loglevel-only, --filter, -a,
# rules that overlap, two sessions) selects exactly the records Debian's
# LTTng records from the same program with the same rules: the same
# events, field by field (the time stamps, long_millis and timestamp, left
# out).

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/lttng-ust-lib.sh"

JARS=/usr/share/java
CP="$JARS/lttng-ust-agent-common.jar:$JARS/lttng-ust-agent-jul.jar:$JARS/lttng-ust-agent-log4j.jar:$JARS/log4j-1.2.jar"
JNI=/usr/lib/x86_64-linux-gnu/jni
compat_require
command -v babeltrace >/dev/null || skip_all "babeltrace (1) is not installed"
command -v javac >/dev/null || skip_all "no Java compiler (default-jdk-headless)"
for j in ${CP//:/ } $JNI/liblttng-ust-jul-jni.so $JNI/liblttng-ust-log4j-jni.so; do
	[ -f "$j" ] || skip_all "$j is missing: scripts/deps.sh installs liblttng-ust-agent-java(-jni) and liblog4j1.2-java"
done
lttng_can_run || skip_all "LTTng's root session daemon needs root and a mount namespace (unshare -m)"
ust_setup
plan 15

LTT_AGENT_HOME=$HOME	# LTTNG_HOME of the agents, which ltt-run points at the daemon (lttng_run sets its own)
mkdir -p "$TEST_TMP/classes"
javac -d "$TEST_TMP/classes" -cp "$CP" "$LTT_TOP_SRCDIR/tests/regression/java/LttngJavaApp.java" ||
	{ echo "Bail out! LttngJavaApp.java does not compile"; exit 1; }
CP="$TEST_TMP/classes:$CP" N=4
export CP JNI N
# the program's input: wait for the rules, N rounds of records, exit
printf 'enabled qa.app yes\nrecord %d\nexit\n' $N >"$TEST_TMP/input"

# fields: the events' fields, without the time stamps
fields() {
	bt1 "$1" "$2.all"
	sed -e 's/long_millis = [0-9]*, //' -e 's/timestamp = [0-9]*, //' "$2.all" >"$2"
}

# compare jul|log4j OPT WARN CONFIG SEVERE INFO: the same rules in both
# tracers (each level named as LTTng names it), the program under each,
# then the two sessions' events compared; 7 TAP results.
compare() {
	local fw=$1 opt=$2 warn=$3 mid=$4 top=$5 info=$6 s r args script= n m rc=0
	local rules=(
		"a|qa.app --loglevel $warn"
		"a|qa.other --loglevel-only $mid"
		"a|\"qa.fmt.*\" --filter 'msg == \"keep*\"'"
		"a|\"qa.*\" --loglevel $top"
		"b|-a --loglevel $info"
		"b|qa.app"
	)
	for s in a b; do
		lttctl create $fw$s -o "$TEST_TMP/ltt/$fw$s" >/dev/null || rc=1
		script+="lttng create $fw$s -o \"\$TEST_TMP/lttng/$fw$s\" >/dev/null || exit 1
"
	done
	for r in "${rules[@]}"; do
		s=$fw${r%%|*} args=${r#*|}
		eval "lttctl enable-event $opt -s $s $args" >/dev/null || rc=1
		script+="lttng enable-event $opt -s $s $args >/dev/null || exit 1
"
	done
	ok $rc "$fw: ltt: two sessions, ${#rules[@]} rules"
	lttctl start ${fw}a >/dev/null && lttctl start ${fw}b >/dev/null
	LTTNG_HOME=$LTT_AGENT_HOME compat_run -p java -cp "$CP" -Djava.library.path="$JNI" LttngJavaApp $fw \
		<"$TEST_TMP/input" >"$TEST_TMP/ltt.$fw.out"
	echo "exit status $?" >>"$TEST_TMP/ltt.$fw.out"
	like "$(grep -v '^rule ' "$TEST_TMP/ltt.$fw.out" | tr '\n' ' ')" "^ready enabled qa.app yes recorded exit status 0 $" \
		"$fw: the program, with Debian's agent, runs under ltt-run" ||
		diag "$(cat "$TEST_TMP/app.err")"
	lttctl stop ${fw}a >/dev/null && lttctl stop ${fw}b >/dev/null
	lttng_run "$script""lttng start ${fw}a >/dev/null && lttng start ${fw}b >/dev/null || exit 1
timeout \"\$TEST_TIMEOUT\" java -cp \"\$CP\" -Djava.library.path=\"\$JNI\" LttngJavaApp $fw \
	<\"\$TEST_TMP/input\" >\"\$TEST_TMP/lttng.$fw.out\" || exit 1
lttng stop ${fw}a >/dev/null && lttng stop ${fw}b >/dev/null"
	ok $? "$fw: LTTng records the same program with the same rules" ||
		diag "$(cat "$TEST_TMP/lttng.log")"
	for s in a b; do
		fields "$TEST_TMP/ltt/$fw$s" "$TEST_TMP/ltt.$fw$s"
		fields "$TEST_TMP/lttng/$fw$s" "$TEST_TMP/lttng.$fw$s"
		same_events "lttng_$fw:event" "$fw$s" "$fw, session $s"
	done
}

compare jul -j JUL_WARNING JUL_CONFIG JUL_SEVERE JUL_INFO
compare log4j -l LOG4J_WARN LOG4J_DEBUG LOG4J_FATAL LOG4J_INFO
like "$(grep -m1 'msg = "keep 1 at 900"' "$TEST_TMP/ltt.jula")" \
	'logger_name = "qa.app", class_name = "LttngJavaApp\$Jul", method_name = "levels", .*int_loglevel = 900' \
	"jul: a record's fields as the handler gave them"
done_testing
