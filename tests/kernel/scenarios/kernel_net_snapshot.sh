# kernel_net_snapshot: snapshots of kernel channels sent to ltt-relayd (a snapshot session whose output is the relay, a local one recording to a net:// URL, one with kernel and user channels), and a session of both domains streamed, rotated and cleared on the relay (test_kernel_net_lifecycle.sh).
start_sessiond -v || exit 1
start_relayd || exit 1
# emit N: N test events (seq 0..N-1), all on CPU 0
emit() { taskset 1 sh -c "echo $1 >/proc/ltt-test"; }
# the program waits until its registration settled (its buffers and, for a
# streamed session, the relay session made: long under emulation) before
# its events: up to 30 s instead of 3
export LTT_UST_REGISTER_TIMEOUT=30000

# a snapshot session whose output is the relay: two records in a row
capture create lttctl create ksn --snapshot --set-url "$RELAY_URL" || exit 1
capture chan lttctl enable-channel -k snapchan -s ksn --subbuf-size 4k --num-subbuf 16 || exit 1
capture enable lttctl enable-event -k ltt_test_event -c snapchan -s ksn || exit 1
capture start lttctl start ksn || exit 1
emit 300
capture rec_first lttctl snapshot record -s ksn -n first
emit 200
capture rec_second lttctl snapshot record -s ksn -n second
capture destroy lttctl destroy ksn

# a snapshot session writing to a directory records once to the relay
capture l_create lttctl create ksl --snapshot -o "$LTT_OUT/snaps" || exit 1
capture l_enable lttctl enable-event -k ltt_test_event -s ksl || exit 1
capture l_start lttctl start ksl || exit 1
emit 100
capture rec_net lttctl snapshot record -s ksl -n net "$RELAY_URL"
capture rec_here lttctl snapshot record -s ksl -n here
capture l_destroy lttctl destroy ksl

# kernel and user channels in one snapshot session to the relay
capture bs_create lttctl create kbs --snapshot --set-url "$RELAY_URL" || exit 1
capture bs_enable_k lttctl enable-event -k ltt_test_event -s kbs || exit 1
capture bs_enable_u lttctl enable-event -u 'hello_world:*' -s kbs || exit 1
capture bs_start lttctl start kbs || exit 1
emit 40
capture bs_hello hello 3
capture rec_both lttctl snapshot record -s kbs -n both
capture bs_destroy lttctl destroy kbs

# kernel and user channels streamed: two rotations, a clear, destroy
capture b_create lttctl create kb -U "$RELAY_URL" || exit 1
capture b_enable_k lttctl enable-event -k ltt_test_event -s kb || exit 1
capture b_enable_u lttctl enable-event -u 'hello_world:*' -s kb || exit 1
capture b_start lttctl start kb || exit 1
emit 100
capture b_hello1 hello 3
capture b_rotate1 lttctl rotate kb
emit 50
capture b_hello2 hello 2
capture b_rotate2 lttctl rotate kb
emit 30
capture b_hello3 hello 1
capture b_clear lttctl clear kb
emit 20
capture b_hello4 hello 4
capture b_stop lttctl stop kb
capture b_destroy lttctl destroy kb
stop_relayd
