# src/sessiond: ltt-sessiond, the session daemon (map in sessiond.h).
# A trace's metadata, described once and written as CTF 1.8 or CTF 2
# (src/sessiond/ctrace/meta.h): linked alone into the tests and tools
# that write metadata as the daemon does.
SESSIOND_META_SOURCES = src/sessiond/ctrace/meta.c src/sessiond/ctrace/meta.h \
	src/sessiond/ctrace/meta-model.c src/sessiond/ctrace/meta-model.h \
	src/sessiond/ctrace/meta-emit.c src/sessiond/ctrace/meta-emit.h \
	src/sessiond/ctrace/tsdl.c src/sessiond/ctrace/tsdl.h \
	src/sessiond/ctrace/ctf2.c src/sessiond/ctrace/ctf2.h

bin_PROGRAMS += src/sessiond/ltt-sessiond
src_sessiond_ltt_sessiond_SOURCES = \
	src/sessiond/sessiond.h \
	src/sessiond/daemon/main.c \
	src/sessiond/daemon/options.c src/sessiond/daemon/options.h \
	src/sessiond/daemon/autoload.c src/sessiond/daemon/autoload.h \
	src/sessiond/daemon/rundir.c src/sessiond/daemon/rundir.h \
	src/sessiond/client/client.c src/sessiond/client/client.h \
	src/sessiond/client/client-notify.c src/sessiond/client/client-notify.h \
	src/sessiond/client/client-conn.c src/sessiond/client/client-conn.h \
	src/sessiond/client/client-workers.c src/sessiond/client/client-workers.h \
	src/sessiond/client/worker.c src/sessiond/client/worker.h \
	src/sessiond/lttng-compat/lttng-compat.c src/sessiond/lttng-compat/lttng-compat-chan.c \
	src/sessiond/lttng-compat/lttng-compat-list.c src/sessiond/lttng-compat/lttng-compat-view.c \
	src/sessiond/lttng-compat/lttng-compat-chunk.c \
	src/sessiond/lttng-compat/lttng-compat-trigger.c \
	src/sessiond/lttng-compat/lttng-compat-notif.c \
	src/sessiond/lttng-compat/lttng-compat-call.c src/sessiond/lttng-compat/lttng-compat-peer.c \
	src/sessiond/lttng-compat/lttng-compat-216.c src/sessiond/lttng-compat/lttng-compat-map.c \
	src/sessiond/lttng-compat/lttng-compat.h \
	src/sessiond/daemon/triggers.c src/sessiond/daemon/triggers.h \
	src/sessiond/daemon/priv-table.c src/sessiond/daemon/priv-table.h src/sessiond/daemon/daemon.h \
	src/sessiond/cmd/cmd-common.c src/sessiond/cmd/cmd-table.c src/sessiond/cmd/cmd.h \
	src/sessiond/cmd/cmd-session.c \
	src/sessiond/cmd/cmd-snapshot.c \
	src/sessiond/cmd/cmd-channel.c \
	src/sessiond/cmd/cmd-context.c \
	src/sessiond/cmd/cmd-event.c \
	src/sessiond/cmd/cmd-chunk.c \
	src/sessiond/cmd/cmd-tracker.c \
	src/sessiond/cmd/cmd-view.c \
	src/sessiond/cmd/cmd-memory.c \
	src/sessiond/cmd/cmd-map.c \
	src/sessiond/cmd/cmd-trigger.c \
	src/sessiond/model/tracker.c src/sessiond/model/tracker.h \
	src/sessiond/model/trigger.c src/sessiond/model/trigger.h \
	src/sessiond/model/map.c src/sessiond/model/map.h \
	src/sessiond/chunk/chunk-rotate.c src/sessiond/chunk/chunk.h \
	src/sessiond/chunk/chunk-owner.c src/sessiond/chunk/chunk-owner.h \
	src/sessiond/chunk/chunk-journal.c src/sessiond/chunk/chunk-journal.h \
	src/sessiond/chunk/chunk-sched.c src/sessiond/chunk/chunk-sched.h \
	src/sessiond/model/session.c src/sessiond/model/session.h src/sessiond/model/session-lock.c \
	src/sessiond/model/domain.c src/sessiond/model/domain.h \
	src/sessiond/ust/ust.c src/sessiond/ust/ust.h \
	src/sessiond/ust/ust-push.c src/sessiond/ust/ust-push.h \
	src/sessiond/model/rule-filter.c src/sessiond/model/rule-filter.h \
	src/sessiond/ust/ust-buffers.c src/sessiond/ust/ust-buffers.h \
	src/sessiond/ust/ust-buffers-stats.c \
	src/sessiond/ust/ust-buffers-internal.h src/sessiond/ust/ust-handover.c src/sessiond/ust/ust-chan.c \
	src/sessiond/ust/ust-trace-ops.c src/sessiond/ust/ust-trigger.c \
	src/sessiond/ust/ust-meta.c src/sessiond/ust/ust-meta.h \
	src/sessiond/ust/ust-shm.c src/sessiond/ust/ust-shm.h \
	src/sessiond/lagent/lagent.c src/sessiond/lagent/lagent-port.c src/sessiond/lagent/lagent.h \
	src/sessiond/lust/lust.c src/sessiond/lust/lust.h \
	src/sessiond/consumer/supervisor.c src/sessiond/consumer/supervisor.h \
	src/sessiond/app/app-thread.c src/sessiond/app/app-done.c src/sessiond/app/app-object.c src/sessiond/app/app.h \
	src/sessiond/app/app-tpcache.c \
	src/sessiond/app/app-out.c src/sessiond/app/app-notify.c \
	src/sessiond/consumer/consumer-proc.c src/sessiond/consumer/consumer.h \
	src/sessiond/consumer/consumer-call.c src/sessiond/consumer/consumer-call.h \
	src/sessiond/consumer/consumer-trace.c \
	src/sessiond/consumer/consumer-relay.c \
	src/sessiond/consumer/relay.c src/sessiond/consumer/relay.h \
	$(SESSIOND_META_SOURCES) \
	src/sessiond/kabi/kabi.c src/sessiond/kabi/kabi-ops.c src/sessiond/kabi/kabi.h \
	src/sessiond/kabi/kabi-remote.c src/sessiond/kabi/kabi-remote.h src/sessiond/kabi/kabi-serve.c \
	src/sessiond/priv/priv-link.c src/sessiond/priv/priv.h src/sessiond/priv/priv-server.c \
	src/sessiond/kabi/kabi-backend.h src/sessiond/kabi/kabi-module.c \
	src/sessiond/kabi/kabi-tracefs.c src/sessiond/kabi/kabi-tracefs.h src/sessiond/kabi/kabi-tracefs-inst.c \
	src/sessiond/kabi/kabi-tracefs-probe.c src/sessiond/kabi/kabi-tracefs-eprobe.c \
	src/sessiond/kabi/kabi-tracefs-bpf.c \
	src/sessiond/kabi/kabi-tracefs-catalog.c \
	src/sessiond/kabi/kabi-tracefs-track.c src/sessiond/kabi/kabi-tracefs-map.c \
	src/sessiond/kabi/kabi-tracefs-statedump.c \
	src/sessiond/kernel/kernel-domain.c src/sessiond/kernel/kernel-events.c src/sessiond/kernel/kernel.h \
	src/sessiond/kernel/kernel-trace.c src/sessiond/kernel/kernel-internal.h \
	src/sessiond/kernel/kernel-stall.c src/sessiond/kernel/kernel-open.c \
	src/sessiond/kernel/kernel-hotplug.c \
	src/sessiond/kernel/kernel-context.c src/sessiond/kernel/kernel-context.h \
	src/sessiond/kernel/kernel-snapshot.c src/sessiond/kernel/kernel-relay.c \
	src/sessiond/kernel/kernel-filter.c src/sessiond/kernel/kernel-filter.h \
	src/sessiond/kernel/kernel-probe.c src/sessiond/kernel/kernel-probe.h \
	src/sessiond/kernel/kernel-notify.c src/sessiond/kernel/kernel-notify.h \
	src/sessiond/kernel/kernel-capture.c src/sessiond/kernel/kernel-capture.h \
	src/sessiond/kernel/kernel-map.c src/sessiond/kernel/kernel-map.h \
	src/sessiond/ctrace/snap-budget.c src/sessiond/ctrace/snap-budget.h \
	src/sessiond/kernel/kernel-tracker.c src/sessiond/kernel/kernel-regen.c \
	src/sessiond/ctrace/ctrace.c src/sessiond/ctrace/ctrace.h src/sessiond/ctrace/ctrace-owed.c \
	src/sessiond/ctrace/chan-stats.c src/sessiond/ctrace/chan-stats.h \
	src/sessiond/ctrace/meta-regen.c src/sessiond/ctrace/meta-regen.h \
	src/sessiond/ctrace/trace-host.c src/sessiond/ctrace/trace-host.h \
	src/sessiond/kernel/kmodule.c src/sessiond/kernel/kmodule.h \
	src/common/trace/tclock-abi.c
# a clock plugin (LTTNG_UST_CLOCK_PLUGIN) calls tclock-abi.c's functions;
# LTTng's test points' functions look up the pause flag
src_sessiond_ltt_sessiond_LDFLAGS = $(tclock_abi_exports) $(testpoint_sessiond_exports)
src_sessiond_ltt_sessiond_CPPFLAGS = $(AM_CPPFLAGS) -DLTT_SYSCONFDIR=\"$(sysconfdir)\"
src_sessiond_ltt_sessiond_CFLAGS = $(AM_CFLAGS) $(POPT_CFLAGS) $(UUID_CFLAGS) $(URCU_CFLAGS) $(KMOD_CFLAGS)
src_sessiond_ltt_sessiond_LDADD = src/lib/ltt-ctl/libltt-ctl-core.la src/common/libnet.la src/common/libcommon.la $(POPT_LIBS) $(UUID_LIBS) $(URCU_LIBS) \
	$(KMOD_LIBS)
# The BPF system call source's loader, in the privileged part (kabi-tracefs-bpf.c)
if BUILD_BPF
src_sessiond_ltt_sessiond_LDADD += src/common/libbpfsc.la $(LIBBPF_LIBS)
endif
