# kmod_core: ltt-ktest in the guest: ABI, exact counts and losses, timers, stress, refusals, fuzz, lazy attach, maps (test_kmod_core.sh)
modprobe ltt-tracer || exit 1
result attached_idle "$(sed -n 's/^attached //p' /proc/ltt-test)"
mkdir -p basic logger statedump
# kt KEY ARGS...: one ltt-ktest run; its TAP lines in KEY, its status in KEY.rc
kt() {
	local key=$1
	shift
	capture "$key" ltt-ktest "$@"
}
kt ktest_basic basic 20000 "$LTT_OUT/basic"
kt ktest_stress stress 20000 4096 4
kt ktest_stress_room stress 20000 65536 64 room
kt ktest_timers timers
kt ktest_discard discard 2000
kt ktest_overwrite overwrite 3000
kt ktest_logger logger "$LTT_OUT/logger"
kt ktest_statedump statedump "$LTT_OUT/statedump"
kt ktest_errors errors
kt ktest_unpriv unpriv
kt ktest_fuzz fuzz 10000
kt ktest_lazy lazy
mkdir -p kprobes
kt ktest_kprobes kprobes "$LTT_OUT/kprobes"
kt ktest_maps maps
result attached_after "$(sed -n 's/^attached //p' /proc/ltt-test)"
capture hold ltt-ktest hold /usr/sbin/rmmod ltt_tracer
result loaded_during_hold "$(grep -c '^ltt_tracer ' /proc/modules)"
capture rmmod rmmod ltt_tracer
result loaded_after "$(grep -c '^ltt_tracer ' /proc/modules)"
