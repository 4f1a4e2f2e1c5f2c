# module_refusals: a second load of ltt-tracer.ko is refused (modprobe
# sees it loaded and does nothing), and so is unloading it while a session
# fd is open; once that fd is closed it unloads (test_kmod_load.sh).
capture modprobe modprobe ltt-tracer || exit 1
capture insmod_again insmod "/lib/modules/$(uname -r)/extra/ltt-tracer.ko"
capture modprobe_again modprobe ltt-tracer
result instances "$(grep -c '^ltt_tracer ' /proc/modules)"
capture version kabi_client version
capture hold kabi_client hold-session sh -c \
	'/usr/sbin/rmmod ltt_tracer; echo "rmmod_rc=$?"; grep -c "^ltt_tracer " /proc/modules'
capture rmmod_after rmmod ltt_tracer
result loaded_after "$(grep -c '^ltt_tracer ' /proc/modules)"
