# kernel_track_cli: lttctl track and untrack -k refusals (too many ids, unknown names, bad values, an absent id, untrack from 'all', -u with kernel trackers), then save and load of a session's kernel trackers (test_kernel_track.sh).
start_sessiond -v || exit 1

# --- refusals (session t_ref, never started) ---
capture create lttctl create t_ref -o "$LTT_OUT/t_ref" || exit 1
capture enable lttctl enable-event -k -s t_ref ltt_test_event || exit 1
capture track lttctl track -k -s t_ref --pid 1 || exit 1
ids=$(seq -s, 1 1025)
capture ref_limit_line lttctl track -k -s t_ref --pid "$ids"
capture ref_fill lttctl track -k -s t_ref --vpid "$(seq -s, 1 1000)"
capture ref_limit_daemon lttctl track -k -s t_ref --vpid "$(seq -s, 1001 1030)"
capture ref_name lttctl track -k -s t_ref --uid no_such_user
capture ref_gname lttctl track -k -s t_ref --gid no_such_group
capture ref_value lttctl track -k -s t_ref --pid 12x
capture ref_absent lttctl untrack -k -s t_ref --pid 424242
capture ref_policy lttctl untrack -k -s t_ref --uid 5
capture ref_u_uid_track lttctl track -u -s t_ref --uid 1
capture ref_u_uid lttctl untrack -u -s t_ref --all --uid
capture ref_unchanged lttctl list -k t_ref

# --- save and load: the kernel trackers come back as they were ---
capture track_more lttctl track -k -s t_ref --uid tracer,0 --vgid nogroup
capture untrack_gid lttctl untrack -k -s t_ref --all --gid
capture save_list lttctl --mi xml list t_ref
capture save lttctl save t_ref -o "$LTT_OUT/saved" || exit 1
capture destroy_ref lttctl destroy t_ref
capture load lttctl load t_ref -i "$LTT_OUT/saved"
capture load_list lttctl --mi xml list t_ref

capture destroy lttctl destroy t_ref
stop_sessiond
