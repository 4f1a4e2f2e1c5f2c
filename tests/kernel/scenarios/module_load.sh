# module_load: ltt-tracer.ko loads by name through kmod (modules.dep),
# creates /proc/ltt for root only, answers LTT_KABI_VERSION, refuses an
# unprivileged user, and unloads (test_kmod_load.sh).
capture modprobe modprobe ltt-tracer || exit 1
result loaded "$(grep -c '^ltt_tracer ' /proc/modules)"
result proc_mode "$(stat -c '%A %U %G' /proc/ltt)"
capture version kabi_client version
capture version_tracer as_user tracer kabi_client version
capture version_nobody as_user nobody kabi_client version
capture modinfo modinfo -F license ltt-tracer
capture rmmod rmmod ltt_tracer
result loaded_after "$(grep -c '^ltt_tracer ' /proc/modules)"
result proc_after "$([ -e /proc/ltt ] && echo present || echo gone)"
