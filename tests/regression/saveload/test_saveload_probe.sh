#!/bin/bash
# test_saveload_probe.sh - probe rules saved and loaded (issue 46): a
# session with user-space probes (an ELF function given with and without
# elf:, an SDT probe) and, where the kernel has kprobe_events, a kernel
# probe at SYMBOL+OFFSET and a kernel function, saved (each location in
# LTTng's elements: probe_attributes, userspace_probe_function_attributes,
# userspace_probe_tracepoint_attributes), destroyed and loaded: lttctl list
# shows the same rules.  A file LTTng writes (its session.xsd's shape,
# validated against Debian's schema when installed) with USERSPACE_PROBE
# events loads too; LTTng's PROBE and FUNCTION fixtures load where the
# kernel has kprobe_events and are refused by the daemon in one sentence
# where it lacks them; a probe without its location and ftrace's
# FUNCTION_ENTRY are refused with the line, nothing created.
. "$LTT_TOP_SRCDIR/tests/regression/lib.sh"
export LTT_CONSUMERD_PATH="$LTT_TOP_BUILDDIR/src/consumerd/ltt-consumerd"

test_init
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/self/mounts)
tfs=${tfs:-/sys/kernel/tracing}
if [ "$(id -u)" != 0 ] || [ ! -w "$tfs/uprobe_events" ]; then
	skip_all "needs root and a kernel with uprobe_events"
fi
kernel_lock

PROG=$(readlink -f "$LTT_TOP_BUILDDIR/tests/regression/uprobe_prog")
[ -x "$PROG" ] || { echo "Bail out! $PROG not built"; exit 1; }
FIX="$LTT_TOP_SRCDIR/tests/regression/saveload-lttng"
LTTNG_XSD=/usr/share/xml/lttng/session.xsd
kprobes=0
[ -e "$tfs/kprobe_events" ] && kprobes=1

timeout "$TEST_TIMEOUT" "$SESSIOND" --background --rundir "$LTT_RUNDIR" \
	--kernel-backend=tracefs </dev/null >/dev/null 2>"$TEST_TMP/sessiond.log"
ok $? "a root daemon with --kernel-backend=tracefs started"
sessions_now() { lttctl list 2>&1 | sed 's/^ *[0-9]*) //' | sort; }

# --- ltt's own file: save, destroy, load, the same listing
lttctl -q create s -o "$TEST_TMP/s" &&
	lttctl -q enable-event -k --userspace-probe="elf:$PROG:uprobe_target" target -s s &&
	lttctl -q enable-event -k --userspace-probe="$PROG:uprobe_target" target2 -s s &&
	lttctl -q enable-event -k --userspace-probe="sdt:$PROG:ltt_test:plain" plain -s s &&
	lttctl -q enable-event -k sched_switch -s s
ok $? "fixture: session s with an ELF function (elf: and not), an SDT probe, a tracepoint"
if [ $kprobes = 1 ]; then
	lttctl -q enable-event -k --probe=__x64_sys_getppid+4 kp -s s &&
		lttctl -q enable-event -k --function=__x64_sys_getppid kf -s s
	ok $? "a kernel probe at SYMBOL+OFFSET and a kernel function"
else
	skip 1 "this kernel has no kprobe_events"
fi
before=$(lttctl list s)
like "$before" "plain \\(type: userspace-probe, location: sdt:$PROG:ltt_test:plain\\)" \
	"list shows the SDT probe's location"
# ltt's format (a .ltt file; a directory would get LTTng's, s.lttng)
mkdir -p "$TEST_TMP/saved"
run lttctl save s -o "$TEST_TMP/saved/s.ltt"
is "$RC" 0 "a session with probe rules is saved"
F="$TEST_TMP/saved/s.ltt"
valid=$(xmllint --noout --schema "$LTT_TOP_SRCDIR/xml/session.xsd" "$F" 2>&1)
is "$valid" "$F validates" "the file validates against ltt's session.xsd"
fn=$(xmllint --xpath 'string(//event[pattern="target"]/attributes/userspace_probe_function_attributes/lookup_method)' "$F")
fn2=$(xmllint --xpath 'string(//event[pattern="target2"]/attributes/userspace_probe_function_attributes/lookup_method)' "$F")
is "$fn/$fn2" "ELF/DEFAULT" "an ELF function: lookup_method ELF with elf:, DEFAULT without, as LTTng"
is "$(xmllint --xpath 'string(//event[pattern="target"]/attributes/userspace_probe_function_attributes/function_name)' "$F")|$(xmllint --xpath 'string(//event[pattern="target"]/attributes/userspace_probe_function_attributes/binary_path)' "$F")" \
	"uprobe_target|$PROG" "... its function_name and binary_path"
is "$(xmllint --xpath 'string(//event[pattern="plain"]/attributes/userspace_probe_tracepoint_attributes/provider_name)' "$F"):$(xmllint --xpath 'string(//event[pattern="plain"]/attributes/userspace_probe_tracepoint_attributes/probe_name)' "$F")" \
	"ltt_test:plain" "the SDT probe: provider_name and probe_name"
is "$(xmllint --xpath 'count(//event[pattern="sched_switch"]/attributes)' "$F")" 0 "a tracepoint has no attributes"
if [ $kprobes = 1 ]; then
	is "$(xmllint --xpath 'string(//event[pattern="kp"]/attributes/probe_attributes/offset)' "$F")" 4 \
		"the kernel probe: its offset"
else
	skip 1 "this kernel has no kprobe_events"
fi
lttctl -q destroy s
run lttctl load -i "$F"
is "$RC" 0 "the file loads"
is "$(lttctl list s)" "$before" "lttctl list shows the same rules after load"
lttctl -q destroy s

# --- a file as LTTng writes one (its session.xsd), with user-space probes
L="$TEST_TMP/probes.lttng"
cat >"$L" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<sessions>
	<session>
		<name>lp</name>
		<domains>
			<domain>
				<type>KERNEL</type>
				<buffer_type>GLOBAL</buffer_type>
				<channels>
					<channel>
						<name>kchan</name>
						<enabled>true</enabled>
						<overwrite_mode>DISCARD</overwrite_mode>
						<subbuffer_size>262144</subbuffer_size>
						<subbuffer_count>4</subbuffer_count>
						<switch_timer_interval>0</switch_timer_interval>
						<read_timer_interval>200000</read_timer_interval>
						<output_type>SPLICE</output_type>
						<tracefile_size>0</tracefile_size>
						<tracefile_count>0</tracefile_count>
						<live_timer_interval>0</live_timer_interval>
						<monitor_timer_interval>1000000</monitor_timer_interval>
						<blocking_timeout>0</blocking_timeout>
						<events>
							<event>
								<name>lfunc</name>
								<enabled>true</enabled>
								<type>USERSPACE_PROBE</type>
								<attributes>
									<userspace_probe_function_attributes>
										<lookup_method>ELF</lookup_method>
										<binary_path>$PROG</binary_path>
										<function_name>uprobe_target</function_name>
									</userspace_probe_function_attributes>
								</attributes>
							</event>
							<event>
								<name>lsdt</name>
								<enabled>false</enabled>
								<type>USERSPACE_PROBE</type>
								<attributes>
									<userspace_probe_tracepoint_attributes>
										<lookup_method>SDT</lookup_method>
										<binary_path>$PROG</binary_path>
										<probe_name>guarded</probe_name>
										<provider_name>ltt_test</provider_name>
									</userspace_probe_tracepoint_attributes>
								</attributes>
							</event>
						</events>
						<contexts/>
					</channel>
				</channels>
			</domain>
		</domains>
		<started>false</started>
		<output>
			<consumer_output>
				<enabled>true</enabled>
				<destination>
					<path>$TEST_TMP/lp</path>
				</destination>
			</consumer_output>
		</output>
	</session>
</sessions>
EOF
if [ -r "$LTTNG_XSD" ]; then
	valid=$(xmllint --noout --schema "$LTTNG_XSD" "$L" 2>&1)
	is "$valid" "$L validates" "the LTTng file validates against LTTng's session.xsd"
else
	skip 1 "no $LTTNG_XSD"
fi
run lttctl load -i "$L"
is "$RC" 0 "LTTng's file with USERSPACE_PROBE events loads"
run lttctl list lp
like "$OUT" "lfunc \\(type: userspace-probe, location: elf:$PROG:uprobe_target\\) \\[enabled\\]" \
	"the ELF function (lookup_method ELF) with its location"
like "$OUT" "lsdt \\(type: userspace-probe, location: sdt:$PROG:ltt_test:guarded\\) \\[disabled\\]" \
	"the SDT probe with its location, disabled"
lttctl -q destroy lp

# --- LTTng's kernel probe and function (fixtures in LTTng's shape)
for f in probe-kprobe:myprobe:"do_sys_open" probe-function:myfunc:"vfs_read"; do
	IFS=: read -r name ev loc <<<"$f"
	if [ -r "$LTTNG_XSD" ]; then
		is "$(xmllint --noout --schema "$LTTNG_XSD" "$FIX/$name.lttng" 2>&1)" \
			"$FIX/$name.lttng validates" "$name.lttng: LTTng's schema"
	else
		skip 1 "no $LTTNG_XSD"
	fi
	before=$(sessions_now)
	run lttctl load -i "$FIX/$name.lttng" --override-url "file://$TEST_TMP/$name"
	if [ $kprobes = 1 ] && [ "$RC" = 0 ]; then
		like "$(lttctl list kern)" "$ev \\(type: (probe|function), location: $loc\\)" \
			"$name.lttng: the rule and its location"
		lttctl -q destroy kern
	else
		is "$RC:$(sessions_now)" "1:$before" "$name.lttng: refused by this daemon, nothing created"
		like "$ERR" "$name\\.lttng:13: the rules of kernel channel .kchan. can.t be set: the kernel tracer can.t place this kind of probe" \
			"$name.lttng: ... the line, and what the kernel lacks"
	fi
done

# --- what is refused: a probe without its location, ftrace's FUNCTION_ENTRY
sed -e '/<attributes>/,/<\/attributes>/d' "$F" >"$TEST_TMP/noloc.ltt"
before=$(sessions_now)
run lttctl load -i "$TEST_TMP/noloc.ltt"
is "$RC:$(sessions_now)" "1:$before" "an ltt file's probe without <attributes>: refused, nothing created"
like "$ERR" "noloc\\.ltt:[0-9]+: .*without its location" "... naming the line and what is missing"
sed -e 's|<type>USERSPACE_PROBE</type>|<type>FUNCTION_ENTRY</type>|' "$L" >"$TEST_TMP/fentry.lttng"
run lttctl load -i "$TEST_TMP/fentry.lttng"
is "$RC:$(sessions_now)" "1:$before" "LTTng's FUNCTION_ENTRY: refused, nothing created"
like "$ERR" "fentry\\.lttng:[0-9]+: event 'lfunc' of type FUNCTION_ENTRY, a kernel function entry probe \\(ftrace\\), is not supported by ltt" \
	"... in its sentence"
done_testing
