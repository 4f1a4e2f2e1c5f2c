# guest_basics: what every other scenario relies on (test_vm.sh checks it):
# the kernel booted, its file systems, users, the way results come back,
# and the installed programs start.
result release "$(uname -r)"
result tracefs_events "$(ls /sys/kernel/tracing/events | wc -l)"
result id_root "$(id)"
result id_tracer "$(as_user tracer id)"
# 1 MiB of random data and its digest: the host checks they arrived intact.
head -c 1048576 /dev/urandom >blob
sha256sum blob | cut -d' ' -f1 >blob.sha256
capture lttctl_version lttctl version
capture sessiond_help ltt-sessiond --help
capture modprobe_deps modprobe --show-depends virtio_console
