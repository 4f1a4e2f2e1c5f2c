#!/bin/bash
# Map channels (issue 47, LTTng 2.16's counters without events): real
# daemons, a real program (ust_app -L: ltt_test:seq, crit and debug per
# event, 2 threads), its events counted in the program by triggers'
# incr-map-value actions, nothing recorded:
#  - exact counts per key through export-maps | sqlite3 (the vmap view)
#    and through show-maps; a key template with both fields; the action
#    as LTTng 2.16 writes it (--session, --channel, --type=user);
#  - --max-key-count: keys past it are counted as key overflow, none lost;
#  - nothing counted while the session is stopped;
#  - clear brings every counter to 0 and counting resumes exactly;
#  - save and load: the map channels and the triggers that count in them
#    come back, and count exactly again;
#  - a program running before the trigger gets its counter when the
#    trigger comes; its session destroyed and made again, the new map
#    counts it afresh; the trigger removed, it counts no more;
#  - per-process maps: a set per program, exact; once the programs are
#    gone, summed into the shared set (sum-into-shared) or dropped;
#  - refusals change nothing: bad types, ownership, options LTTng has and
#    ltt lacks, an unknown map, a bad key template, a counting trigger
#    with another action or a kernel rule.

. "${LTT_TOP_SRCDIR:-$(dirname "$0")/../../..}/tests/regression/lib.sh"
. "$LTT_TOP_SRCDIR/tests/regression/ust-lib.sh"

command -v sqlite3 >/dev/null || skip_all "sqlite3 is not installed (scripts/deps.sh)"
ust_setup --log
plan 108

N=20000			# events of each name per thread
T=2
ALL=$((N * T))

# sql SESSION QUERY: QUERY's rows over export-maps' script of SESSION
sql() {
	{ lttctl export-maps -s "$1" && echo "$2"; } | sqlite3 -batch -separator ' ' :memory:
}
# counts SESSION MAP: "key value" of MAP's ltt_test:{seq,crit,debug} in the vmap view
counts() {
	sql "$1" "SELECT key, SUM(value) FROM vmap WHERE channel_name = '$2' AND key IN
		('ltt_test:seq', 'ltt_test:crit', 'ltt_test:debug') GROUP BY key ORDER BY key;" |
		tr '\n' ' '
}
expect() {
	echo "ltt_test:crit $1 ltt_test:debug $1 ltt_test:seq $1 "
}

ok_cmd "create s" lttctl create s -o "$TEST_TMP/s"

# --- refusals: nothing added
run lttctl add-map-channel --type=kernel -s s k
like "$RC:$OUT" "^1:.*(kernel map channels with ftrace's histogram triggers|kernel tracing)" "--type=kernel where the kernel can't count: refused, said why"
run lttctl add-map-channel --type=bogus -s s k
like "$RC:$OUT" "^[12]:.*invalid --type 'bogus'" "--type=bogus: refused"
run lttctl add-map-channel -s s k
like "$RC:$OUT" "^[12]:.*--type=user" "no --type: refused"
run lttctl add-map-channel --type=user --buffer-ownership=cpu -s s k
like "$RC:$OUT" "^2:.*invalid --buffer-ownership 'cpu'" "--buffer-ownership=cpu: refused"
run lttctl add-map-channel --type=user --dead-process-policy=drop -s s k
like "$RC:$OUT" "^2:.*--dead-process-policy is for per-process maps" "--dead-process-policy without process: refused"
run lttctl add-map-channel --type=user --buffer-ownership=process --dead-process-policy=keep -s s k
like "$RC:$OUT" "^2:.*invalid --dead-process-policy 'keep'" "--dead-process-policy=keep: refused"
run lttctl add-map-channel --type=user --update-policy=per-event -s s k
like "$RC:$OUT" "^1:.*update policy .*is not supported by ltt" "--update-policy: refused"
run lttctl add-map-channel --type=user --max-key-count=0 -s s k
like "$RC:$OUT" "^[12]:.*invalid --max-key-count '0'" "--max-key-count=0: refused"
run lttctl add-map-channel --type=user --value-type=float -s s k
like "$RC:$OUT" "^[12]:.*invalid --value-type 'float'" "--value-type=float: refused"
run lttctl add-map-channel --type=user -s nosuch k
like "$RC:$OUT" "^1:.*no session" "a session that does not exist: refused"
run lttctl show-maps -s s
like "$RC:$OUT" "^0:Session s has no map channel" "nothing was added"

ok_cmd "add map channel counts" lttctl add-map-channel --type=user -s s counts
ok_cmd "add map channel small (2 keys, 32 bits)" lttctl add-map-channel --type=user -s s \
	--max-key-count=2 --value-type=signed-int-32 small
run lttctl add-map-channel --type=user -s s counts
like "$RC:$OUT" "^1:.*has a map channel of that name already" "counts again: refused"

# --- triggers that count
run lttctl add-trigger --name bad --condition=event-rule-matches --type=user --name='ltt_test:*' \
	--action=incr-map-value -s s --map nosuch --key '{event_name}'
like "$RC:$OUT" "^1:.*no map channel of that name" "an unknown map: refused"
run lttctl add-trigger --name bad --condition=event-rule-matches --type=user --name='ltt_test:*' \
	--action=incr-map-value -s s --map counts --key '{event}'
like "$RC:$OUT" "^1:.*invalid map key template" "a bad key template: refused"
run lttctl add-trigger --name bad --condition=event-rule-matches --type=user --name='ltt_test:*' \
	--action=incr-map-value -s s --map counts --key '{event_name}' --action=notify
like "$RC:$OUT" "^1:.*its trigger's only action" "incr-map-value with another action: refused"
run lttctl add-trigger --name bad --condition=event-rule-matches --type=kernel:syscall --name=read \
	--action=incr-map-value -s s --map counts --key '{event_name}'
like "$RC:$OUT" "^1:.*(a kernel rule in a --type=kernel map|kernel tracing)" "a kernel rule counting in a user map: refused"
run lttctl add-trigger --name bad --condition=event-rule-matches --type=user --name='ltt_test:*' \
	--action=incr-map-value -s s --map counts
like "$RC:$OUT" "^[12]:.*needs its session, map channel and key" "no --key: refused"
run lttctl list-triggers
unlike "$OUT" "bad" "no trigger was added"

run lttctl add-trigger --name bad --condition=event-rule-matches --type=user --name='ltt_test:*' \
	--action=incr-map-value --session=s --channel=counts --type=kernel --key '{event_name}'
like "$RC:$OUT" "^2:.*--type=kernel: the condition's rule is user space's" \
	"incr-map-value --type=kernel after a user-space rule: a usage error"
run lttctl add-trigger --name bad --condition=event-rule-matches --type=user --name='ltt_test:*' \
	--action=incr-map-value --session=s --channel=counts --type=python --key '{event_name}'
like "$RC:$OUT" "^2:.*invalid --type 'python': give user or kernel" "incr-map-value --type=python: a usage error"
# as LTTng 2.16 writes it: --session, --channel, --type of the map channel
ok_cmd "add trigger by_name (LTTng 2.16's words)" lttctl add-trigger --name by_name \
	--condition=event-rule-matches --type=user --name='ltt_test:*' \
	--action=incr-map-value --session=s --channel=counts --type=user --key '{event_name}'
ok_cmd "add trigger few" lttctl add-trigger --name few --condition=event-rule-matches \
	--type=user --name='ltt_test:*' --action=incr-map-value s -c small \
	--key '{provider_name}/{event_name}'
run lttctl list-triggers
like "$OUT" "incr-map-value session \`s\`, map channel: small, key: \\{provider_name\\}/\\{event_name\\}" \
	"list-triggers shows the action, its map channel and key"

# --- stopped: nothing counted
ust_app -e "$TEST_TIMEOUT" -n 100 -t $T -L
is $? 0 "a program ran with the session stopped"
is "$(counts s counts)" "$(expect 0)" "the session stopped: nothing counted"

# --- started: exact
ok_cmd "start s" lttctl start s
ust_app -e "$TEST_TIMEOUT" -n $N -t $T -L
is $? 0 "$T threads emitted $N of each of 3 events"
is "$(counts s counts)" "$(expect $ALL)" "export-maps | sqlite3: $ALL per key, exactly"
run lttctl show-maps -s s --channel counts
like "$OUT" "ltt_test:seq +$ALL " "show-maps: ltt_test:seq $ALL"
like "$OUT" "ltt_test:crit +$ALL " "show-maps: ltt_test:crit $ALL"
like "$OUT" "ltt_test:debug +$ALL " "show-maps: ltt_test:debug $ALL"
unlike "$OUT" "Map channel small" "--channel counts: only counts"
is "$(sql s "SELECT DISTINCT group_type || ' ' || owner_id || ' ' || value_type FROM vmap
	WHERE channel_name = 'counts';")" "user-per-user $(id -u) signed-int-64" \
	"one group: the user's, 64-bit values"

# the 2-key map: two keys kept, the rest counted as key overflow, nothing lost
small_keys=$(sql s "SELECT COUNT(*) FROM vmap WHERE channel_name = 'small';")
is "$small_keys" 2 "small keeps 2 keys"
like "$(sql s "SELECT key FROM vmap WHERE channel_name = 'small' LIMIT 1;")" "^ltt_test/ltt_test:" \
	"small's keys follow the template {provider_name}/{event_name}"
kept=$(sql s "SELECT SUM(value) FROM vmap WHERE channel_name = 'small';")
run lttctl show-maps -s s -c small
over=$(sed -n 's/^ *\([0-9]*\) events counted under no key.*/\1/p' <<<"$OUT")
like "$OUT" "2 of 2 keys" "show-maps: small's table is full"
# ltt_test:types is enabled too (never emitted): the 3 emitted names, 2 kept or not
is "$((kept + ${over:-0}))" "$((3 * ALL))" "small: kept ($kept) + key overflow (${over:-0}) = every event"

run lttctl --mi xml show-maps -s s -c counts
printf '%s\n' "$STDOUT" >"$TEST_TMP/maps.xml"
is "$(mi_valid "$TEST_TMP/maps.xml")" "$TEST_TMP/maps.xml validates" "--mi xml show-maps: ltt's schema"
is "$(mi_xp "//map_channel[name='counts']/counters/counter[key='ltt_test:seq']/value" \
	<"$TEST_TMP/maps.xml")" "$ALL" "--mi xml show-maps: ltt_test:seq $ALL"

run lttctl list s --map-channel=small
is "$RC:$OUT" "0:Map channel small of session s: user space, signed-int-32, 2 of 2 keys taken, per user, counting
  $over events counted under no key" "list --map-channel: the map channel's settings"
run lttctl status --map-channel=counts
like "$RC:$OUT" "^0:Map channel counts of session s: user space, signed-int-64, [0-9]+ of 4096 keys taken, per user, counting$" \
	"status --map-channel: the same, of the current session"
run lttctl list s --map-channel=nosuch
like "$RC:$OUT" "^1:.*map channel 'nosuch' of session s" "list --map-channel of an unknown map: refused"
run lttctl --mi xml list s --map-channel=counts
like "$RC:$ERR" "^2:.*--map-channel has no place in LTTng 2.13's machine interface" \
	"list --mi xml --map-channel: refused (show-maps has the document)"

# --- show-maps refuses what ltt lacks of LTTng's, export-maps its formats
run lttctl show-maps -s s --sort-by=value
like "$RC:$OUT" "^1:.*show-maps .*is not supported by ltt.*export-maps" "show-maps --sort-by: refused"
run lttctl export-maps -s s --format=csv
like "$RC:$OUT" "^[12]:.*invalid --format 'csv'" "export-maps --format=csv: refused"
run lttctl show-maps -s s -c nosuch
like "$RC:$OUT" "^1:.*map channel 'nosuch'" "show-maps of an unknown map: refused"

# --- clear: 0, then exact again
ok_cmd "clear s" lttctl clear s
is "$(counts s counts)" "$(expect 0)" "cleared: every counter 0"
is "$(sql s "SELECT SUM(value) FROM vmap;")" 0 "cleared: small too"
ust_app -e "$TEST_TIMEOUT" -n $N -t $T -L
is $? 0 "the program ran again"
is "$(counts s counts)" "$(expect $ALL)" "after the clear: $ALL per key, exactly"

# --- stop: counting stops
ok_cmd "stop s" lttctl stop s
ust_app -e "$TEST_TIMEOUT" -n 100 -t $T -L
is "$(counts s counts)" "$(expect $ALL)" "stopped: the counts stay"

# --- save and load
ok_cmd "save s" lttctl save s -o "$TEST_TMP/saved"
like "$(cat "$TEST_TMP/saved/s.ltt")" "<map_channel>" "the file has the map channels"
ok_cmd "destroy s" lttctl destroy s
ok_cmd "remove by_name" lttctl remove-trigger by_name
ok_cmd "remove few" lttctl remove-trigger few
run lttctl list-triggers
unlike "$OUT" "by_name" "no trigger left"
ok_cmd "load s" lttctl load s -i "$TEST_TMP/saved"
run lttctl show-maps -s s
like "$OUT" "Map channel counts \(user, signed-int-64, 0 of 4096 keys" "counts is back, empty"
like "$OUT" "Map channel small \(user, signed-int-32, 0 of 2 keys" "small is back, empty"
run lttctl list-triggers
like "$OUT" "by_name" "trigger by_name is back"
like "$OUT" "few" "trigger few is back"
ok_cmd "start the loaded s" lttctl start s
ust_app -e "$TEST_TIMEOUT" -n $N -t $T -L
is "$(counts s counts)" "$(expect $ALL)" "the loaded map counts exactly: $ALL per key"
ok_cmd "destroy s" lttctl destroy s
run lttctl show-maps -s s
like "$RC:$OUT" "^1:.*no session" "destroyed: its maps went with it"

# --- a program running before the trigger, and its map destroyed and made again
P=1000
ok_cmd "create r" lttctl create r --no-output
ok_cmd "add map channel live to r" lttctl add-map-channel --type=user -s r live
ok_cmd "start r" lttctl start r
open_fifo ready "$TEST_TMP/ready"
open_fifo done "$TEST_TMP/done"
mkfifo "$TEST_TMP/rounds"
ust_app_bg -w "$TEST_TMP/ready" -k "$TEST_TMP/done" -p "$TEST_TMP/rounds" -n $P -t $T -L -r live
app=$BG_PID
wait_ready $ready
ok $? "a program registers, before any trigger counts"
exec {rounds}>"$TEST_TMP/rounds"
ok_cmd "add trigger late (the program runs)" lttctl add-trigger --name late \
	--condition=event-rule-matches --type=user --name='ltt_test:*' \
	--action=incr-map-value -s r --map live --key '{event_name}'
echo round >&$rounds
wait_done $done
ok $? "a round of $P events per thread"
is "$(counts r live)" "$(expect $((P * T)))" "the running program got its counter when the trigger came: exact"
ok_cmd "destroy r" lttctl destroy r
ok_cmd "create r again" lttctl create r --no-output
ok_cmd "add map channel live again" lttctl add-map-channel --type=user -s r live
ok_cmd "start r again" lttctl start r
echo round >&$rounds
wait_done $done
ok $? "another round"
is "$(counts r live)" "$(expect $((P * T)))" "the new map counts the running program's new round only, exactly"
ok_cmd "remove late" lttctl remove-trigger late
echo round >&$rounds
wait_done $done
is "$(counts r live)" "$(expect $((P * T)))" "the trigger removed: the program counts no more"
exec {rounds}>&-
wait $app
is $? 0 "the program ended well"
ok_cmd "destroy r" lttctl destroy r

# --- per-process maps: a set of counters per program, summed into the shared set or dropped
# wait_log ERE: until a line of the session daemon's log matches (bounded)
wait_log() {
	timeout "$TEST_TIMEOUT" tail -n +1 -f "$SESSIOND_LOG" | grep -q -m1 -E -- "$1"
}
# per_owner MAP: "group_type owner_id total" per group of MAP's three keys
per_owner() {
	sql p "SELECT group_type, IFNULL(owner_id, '-'), SUM(value) FROM vmap
		WHERE channel_name = '$1' AND key IN ('ltt_test:seq', 'ltt_test:crit',
		'ltt_test:debug') GROUP BY group_type, owner_id ORDER BY group_type, owner_id;" |
		tr '\n' ' '
}
ok_cmd "create p" lttctl create p --no-output
ok_cmd "add per-process map summed (sum-into-shared)" lttctl add-map-channel --type=user -s p \
	--buffer-ownership=process --dead-process-policy=sum-into-shared summed
ok_cmd "add per-process map dropped (drop)" lttctl add-map-channel --type=user -s p \
	--buffer-ownership=process dropped
ok_cmd "add trigger to_summed" lttctl add-trigger --name to_summed --condition=event-rule-matches \
	--type=user --name='ltt_test:*' --action=incr-map-value -s p --map summed --key '{event_name}'
ok_cmd "add trigger to_dropped" lttctl add-trigger --name to_dropped \
	--condition=event-rule-matches --type=user --name='ltt_test:*' \
	--action=incr-map-value -s p --map dropped --key '{event_name}'
ok_cmd "start p" lttctl start p
ust_app_bg -e "$TEST_TIMEOUT" -w "$TEST_TMP/ready" -k "$TEST_TMP/done" -n $P -L -r a
app_a=$BG_PID
ust_app_bg -e "$TEST_TIMEOUT" -w "$TEST_TMP/ready" -k "$TEST_TMP/done" -n $((2 * P)) -L -r b
app_b=$BG_PID
wait_ready $ready 2 && wait_done $done 2
ok $? "two programs counted, $P and $((2 * P)) events of each name, and wait"
pids=($(sql p "SELECT DISTINCT owner_id FROM vmap WHERE channel_name = 'summed'
	ORDER BY owner_id;"))
is "${#pids[@]}" 2 "summed: one set per program"
want=""
for pid in "${pids[@]}"; do
	[ "$(sql p "SELECT SUM(value) FROM vmap WHERE channel_name = 'summed' AND owner_id = $pid
		AND key = 'ltt_test:seq';")" = $P ] && want="$want user-per-process $pid $((3 * P))" ||
		want="$want user-per-process $pid $((6 * P))"
done
is "$(per_owner summed)" "${want# } " "summed: each program's own counts, exactly"
is "$(per_owner dropped)" "${want# } " "dropped: the same, per program"
kill $app_a $app_b
wait $app_a $app_b 2>/dev/null
wait_log "\(pid ${pids[0]}\) unregistered" && wait_log "\(pid ${pids[1]}\) unregistered"
ok $? "the daemon saw both programs go"
is "$(per_owner summed)" "shared - $((9 * P)) " "summed: their counts moved to the shared set, exactly"
is "$(per_owner dropped)" "" "dropped: their counts went with them"
run lttctl show-maps -s p -c summed
like "$OUT" "ltt_test:seq +$((3 * P)) +shared" "show-maps: the shared set"
ok_cmd "save p" lttctl save p -o "$TEST_TMP/savedp"
like "$(cat "$TEST_TMP/savedp/p.ltt")" "<buffer_ownership>process</buffer_ownership>" \
	"saved: the ownership"
like "$(cat "$TEST_TMP/savedp/p.ltt")" "<dead_process_policy>sum-into-shared</dead_process_policy>" \
	"saved: the dead-process policy"
ok_cmd "remove to_summed" lttctl remove-trigger to_summed
ok_cmd "remove to_dropped" lttctl remove-trigger to_dropped
ok_cmd "destroy p" lttctl destroy p

done_testing
