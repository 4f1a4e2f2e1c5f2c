#!/bin/bash
# Kernel process trackers in a real kernel (one boot), checked with
# babeltrace2 on the host: three writers of the test probe (root, tracer,
# nobody: known pids, uids and gids) and one session per tracker type
# recording at once, exact counts; tracking and untracking while active,
# checked on the events' sequence numbers; the refusals; list, --mi xml,
# save and load; the probe's cost with trackers at all or one pid tracked
# (scenarios kernel_track, kernel_track_cli, kernel_track_bench).
# About 60 lttctl commands in kernel_track: under TCG on a loaded 2-core
# host they took up to 106 s of the default 120 s per scenario.
KVM_SCENARIO_TIMEOUT=${KVM_SCENARIO_TIMEOUT:-300}
KVM_TIMEOUT=${KVM_TIMEOUT:-900}
. "$LTT_TOP_SRCDIR/tests/kernel/lib.sh"

KVM_EXTRA_BINS="tests/kernel/kemit"
kvm_init --module
command -v babeltrace2 >/dev/null || skip_all "babeltrace2 not installed"
kvm_boot kernel_track kernel_track_cli kernel_track_bench
plan 51

s=kernel_track
kvm_scenario_ok $s

# The raw ABI (kemit abi): TRACKER_SET and TRACKER_GET validated, a refused
# request changes nothing.
is "$(kvm_file $s abi | tr '\n' ' ')" "get_new policy=0 nr=0 ids= set_pid errno=0 \
get_pid policy=2 nr=3 ids=10,20,30 set_flags errno=22 set_type errno=22 set_policy errno=22 \
set_empty errno=22 set_too_many errno=22 set_max errno=0 set_dup errno=22 set_big_pid errno=22 \
set_uid_minus1 errno=22 set_all_ids errno=22 set_fault errno=14 set_none errno=0 \
get_none policy=1 nr=0 ids= get_uid policy=2 nr=1024 ids=1,2,3,4 get_gid policy=0 nr=0 ids= \
get_reserved errno=22 set_all errno=0 get_all policy=0 nr=0 ids= " \
	"raw ABI: ids sorted; flags, type, policy, 0 or 1025 ids, an id twice, a pid over 2^31-1, uid -1, ids with 'all', reserved: EINVAL; bad memory: EFAULT; 1024 ids taken"

# hist SESSION: the session's ltt_test_event count, then how many have
# seq >= 1000, 2000, 4000, 8000: "total a b c d".
hist() {
	timeout "$TEST_TIMEOUT" babeltrace2 "$KVM_OUT/$s/$1" 2>"$TEST_TMP/$1.err" |
		sed -n 's/.* ltt_test_event: .*{ seq = \([0-9]*\),.*/\1/p' |
		awk '{ n++; if ($1 >= 1000) a++; if ($1 >= 2000) b++; if ($1 >= 4000) c++;
			if ($1 >= 8000) d++ }
			END { printf "%d %d %d %d %d\n", n, a, b, c, d }'
}

# writers: root 1000 events, tracer 2000, nobody 4000
diag "writers: $(tr '\n' ' ' <"$KVM_OUT/$s/writers")"
is "$(sed 's/^pid=[0-9]* //' "$KVM_OUT/$s/writers" | tr '\n' ' ')" \
	"uid=0 gid=0 uid=1000 gid=1000 uid=65534 gid=65534 " "the three writers run as root, tracer and nobody"
check() { # SESSION EXPECTED WHAT
	is "$(hist "$1")" "$2" "$1: $3"
}
check t_all "7000 4000 2000 0 0" "no tracker: every writer (1000 + 2000 + 4000)"
check t_pid "2000 1000 0 0 0" "--pid tracer's pid: tracer only"
check t_vpid "5000 3000 2000 0 0" "--vpid root's and nobody's pids: root and nobody"
check t_uid "5000 3000 2000 0 0" "--uid root,nobody (names): root and nobody"
check t_vuid "2000 1000 0 0 0" "--vuid 1000: tracer only"
check t_gid "4000 3000 2000 0 0" "--gid nogroup (a name): nobody only"
check t_vgid "3000 1000 0 0 0" "--vgid 0,tracer: root and tracer"
check t_and "2000 1000 0 0 0" "--pid root,tracer and --uid tracer: both trackers must pass (tracer)"
check t_none "0 0 0 0 0" "untrack --all --pid: nobody records"
for t in t_all t_pid t_vpid t_uid t_vuid t_gid t_vgid t_and t_none; do
	[ -s "$TEST_TMP/$t.err" ] && diag "$t: babeltrace2: $(head -n 3 "$TEST_TMP/$t.err")"
done
like "$(kvm_file $s list_t_and)" "Process trackers \\(kernel\\):" "list shows the kernel trackers"
like "$(kvm_file $s list_t_and)" "process ids \\(pid\\) +[0-9]+, [0-9]+" "... the pid set"
like "$(kvm_file $s list_t_and)" "user ids \\(uid\\) +1000" "... the uid set, the name resolved"
like "$(kvm_file $s list_t_and_k)" "user ids \\(uid\\) +1000" "list -k shows them too"
is "$(mi_xp 'count(//domain[type="KERNEL"]/process_attr_trackers/uid_process_attr_tracker/process_attr_values/uid/type/id[. = 1000])' "$KVM_OUT/$s/mi_t_and")" 1 \
	"--mi xml: the kernel uid tracker (LTTng's uid_process_attr_tracker)"
is "$(mi_valid "$KVM_OUT/$s/mi_t_and")" "$KVM_OUT/$s/mi_t_and validates" \
	"--mi xml list with kernel trackers validates against LTTng's schema"

# While active: rounds of root 1000 (tracked), 2000 (untracked: set
# emptied), 4000 (tracked again), tracer 8000 (--all), 16000 (untrack --all).
is "$(cat "$KVM_OUT/$s"/live_{start,untrack,track,all,none,stop}.rc | tr -d '\n')" 000000 \
	"t_live: start, untrack, track, track --all, untrack --all, stop succeed"
is "$(hist t_live)" "13000 10000 8000 4000 0" \
	"t_live: rounds 1, 3 and 4 whole, nothing of rounds 2 and 5 (seq counts)"
like "$(kvm_file $s live_list)" "process ids \\(pid\\) +none" "t_live: list shows the pid tracker at none"

kvm_kernel_clean $s

# Refusals (kernel_track_cli)
s=kernel_track_cli
kvm_scenario_ok $s
is "$(kvm_file $s ref_limit_line.rc)" 1 "1025 pids: refused"
like "$(kvm_file $s ref_limit_line)" "at most 1024 ids" "... with the limit"
is "$(kvm_file $s ref_fill.rc)" 0 "1000 vpids: taken"
is "$(kvm_file $s ref_limit_daemon.rc)" 1 "30 more vpids (1030 in the set): refused by the daemon"
like "$(kvm_file $s ref_limit_daemon)" "TRACKER_LIMIT|at most 1024 ids" "... TRACKER_LIMIT"
is "$(kvm_file $s ref_name.rc)" 1 "--uid no_such_user: refused"
like "$(kvm_file $s ref_name)" "no_such_user.*no user or group by that name" "... the name said"
is "$(kvm_file $s ref_gname.rc)" 1 "--gid no_such_group: refused"
is "$(kvm_file $s ref_value.rc)" 1 "--pid 12x: refused"
is "$(kvm_file $s ref_absent.rc)" 0 "untrack of a pid not in the set: succeeds..."
like "$(kvm_file $s ref_absent)" "pid 424242 was not tracked" "... with the TRACKER_UNCHANGED warning"
is "$(kvm_file $s ref_policy.rc)" 1 "untrack --uid 5 from 'all': refused"
like "$(kvm_file $s ref_policy)" "no list of ids to remove" "... TRACKER_POLICY"
is "$(kvm_file $s ref_u_uid_track.rc)" 1 "track -u --uid: refused (-u's --pid is LTTng's --vpid)"
like "$(kvm_file $s ref_u_uid_track)" "user-space domain has the trackers --vpid, --vuid and --vgid only" \
	"... with the sentence"
is "$(kvm_file $s ref_u_uid.rc)" 1 "untrack -u --all --uid: refused"
ref_list=$(kvm_file $s ref_unchanged)
like "$ref_list" "process ids \\(vpid\\) +1, 2, 3" "after the refusals: the vpid set is the 1000 taken"
unlike "$ref_list" "1001" "... and none of the 30 refused"
unlike "$ref_list" "424242" "... the pid set without 424242"

# Save and load
is "$(cat "$KVM_OUT/$s"/{track_more,untrack_gid,save,destroy_ref,load}.rc | tr -d '\n')" 00000 \
	"track, untrack, save, destroy, load succeed"
# saved in LTTng's format, which holds every tracker of the kernel
saved=$(ls "$KVM_OUT/$s/saved/"*.lttng 2>/dev/null | head -n 1)
like "$(tr -d ' \n\t' <"$saved" 2>/dev/null)" \
	"<uid_process_attr_tracker><process_attr_values><uid><id>0</id></uid><uid><id>1000</id></uid></process_attr_values></uid_process_attr_tracker>" \
	"the saved file (LTTng's format) holds the kernel uid tracker"
if command -v xmllint >/dev/null && [ -f /usr/share/xml/lttng/session.xsd ]; then
	xmllint --noout --schema /usr/share/xml/lttng/session.xsd "$saved" 2>"$TEST_TMP/save.err"
	is $? 0 "the saved file validates against LTTng's session.xsd"
	[ -s "$TEST_TMP/save.err" ] && diag "$(head -n 5 "$TEST_TMP/save.err")"
else
	skip 1 "xmllint or LTTng's session.xsd (lttng-tools) not installed"
fi
trk() { # FILE: the kernel domain's <process_attr_trackers> of a list --mi xml
	sed 's| xmlns="[^"]*"||' "$1" | xmllint --xpath '//domain[type="KERNEL"]/process_attr_trackers' - 2>/dev/null |
		tr -d ' \n\t'
}
before=$(trk "$KVM_OUT/$s/save_list")
like "$before" "<gid_process_attr_tracker><process_attr_values/></gid_process_attr_tracker>" \
	"before save: gid none (no value), ..."
is "$(trk "$KVM_OUT/$s/load_list")" "$before" "after load: the same kernel trackers (pid, vpid, uid, vgid, gid)"
kvm_kernel_clean $s

# Cost per event
s=kernel_track_bench
kvm_scenario_ok $s
runs=$KVM_OUT/$s/runs.txt
stat() { # CONFIG: "min median" ns/event of its runs
	sed -n "s/^RUN cfg=$1 n=\\([0-9]*\\) ns=\\([0-9]*\\)/\\1 \\2/p" "$runs" |
		awk '{ printf "%.1f\n", $2 / $1 }' | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) print v[1], v[int((NR + 1) / 2)] }'
}
for c in all pid-tracked pid-other none; do
	diag "$c: ns/event min, median: $(stat $c) ($(grep -c "cfg=$c " "$runs") runs)"
done
is "$(grep -c '^RUN cfg=\(all\|pid-tracked\|pid-other\|none\) ' "$runs")" 12 \
	"3 timed runs of each configuration"
kvm_kernel_clean $s
