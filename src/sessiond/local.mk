# src/sessiond: ltt-sessiond, the session daemon (map in sessiond.h).
bin_PROGRAMS += src/sessiond/ltt-sessiond
src_sessiond_ltt_sessiond_SOURCES = \
	src/sessiond/sessiond.h \
	src/sessiond/main.c \
	src/sessiond/autoload.c src/sessiond/autoload.h \
	src/sessiond/rundir.c src/sessiond/rundir.h \
	src/sessiond/client.c src/sessiond/client.h \
	src/sessiond/worker.c src/sessiond/worker.h \
	src/sessiond/cmd.c src/sessiond/cmd.h \
	src/sessiond/cmd-session.c \
	src/sessiond/cmd-snapshot.c \
	src/sessiond/cmd-channel.c \
	src/sessiond/cmd-context.c \
	src/sessiond/cmd-event.c \
	src/sessiond/cmd-chunk.c \
	src/sessiond/cmd-tracker.c \
	src/sessiond/cmd-view.c \
	src/sessiond/tracker.c src/sessiond/tracker.h \
	src/sessiond/chunk.c src/sessiond/chunk.h \
	src/sessiond/chunk-journal.c src/sessiond/chunk-journal.h \
	src/sessiond/chunk-sched.c src/sessiond/chunk-sched.h \
	src/sessiond/session.c src/sessiond/session.h \
	src/sessiond/domain.c src/sessiond/domain.h \
	src/sessiond/ust.c src/sessiond/ust.h \
	src/sessiond/ust-push.c src/sessiond/ust-push.h \
	src/sessiond/ust-filter.c src/sessiond/ust-filter.h \
	src/sessiond/ust-buffers.c src/sessiond/ust-buffers.h \
	src/sessiond/ust-buffers-internal.h src/sessiond/ust-handover.c \
	src/sessiond/ust-trace-ops.c \
	src/sessiond/ust-meta.c src/sessiond/ust-meta.h \
	src/sessiond/supervisor.c src/sessiond/supervisor.h \
	src/sessiond/app.c src/sessiond/app.h \
	src/sessiond/app-out.c src/sessiond/app-out.h \
	src/sessiond/consumer.c src/sessiond/consumer.h \
	src/sessiond/consumer-call.c src/sessiond/consumer-call.h \
	src/sessiond/consumer-trace.c \
	src/sessiond/consumer-relay.c \
	src/sessiond/relay.c src/sessiond/relay.h \
	src/sessiond/tsdl.c src/sessiond/tsdl.h \
	src/sessiond/kabi.c src/sessiond/kabi.h \
	src/sessiond/kabi-backend.h src/sessiond/kabi-module.c \
	src/sessiond/kabi-tracefs.c src/sessiond/kabi-tracefs.h src/sessiond/kabi-tracefs-inst.c \
	src/sessiond/kabi-tracefs-track.c \
	src/sessiond/kabi-tracefs-statedump.c \
	src/sessiond/kernel.c src/sessiond/kernel.h \
	src/sessiond/kernel-trace.c src/sessiond/kernel-internal.h \
	src/sessiond/kernel-stall.c src/sessiond/kernel-open.c \
	src/sessiond/kernel-context.c src/sessiond/kernel-context.h \
	src/sessiond/kernel-snapshot.c src/sessiond/kernel-relay.c \
	src/sessiond/kernel-filter.c src/sessiond/kernel-filter.h \
	src/sessiond/snap-budget.c src/sessiond/snap-budget.h \
	src/sessiond/kernel-tracker.c src/sessiond/kernel-regen.c \
	src/sessiond/ctrace.c src/sessiond/ctrace.h src/sessiond/ctrace-owed.c \
	src/sessiond/meta-regen.c src/sessiond/meta-regen.h \
	src/sessiond/trace-host.c src/sessiond/trace-host.h \
	src/sessiond/kmodule.c src/sessiond/kmodule.h
src_sessiond_ltt_sessiond_CPPFLAGS = $(AM_CPPFLAGS) -DLTT_SYSCONFDIR=\"$(sysconfdir)\"
src_sessiond_ltt_sessiond_CFLAGS = $(AM_CFLAGS) $(POPT_CFLAGS) $(UUID_CFLAGS) $(URCU_CFLAGS) $(KMOD_CFLAGS)
src_sessiond_ltt_sessiond_LDADD = src/lib/ltt-ctl/libltt-ctl-core.la src/common/libcommon.la $(XML2_LIBS) $(POPT_LIBS) $(UUID_LIBS) $(URCU_LIBS) \
	$(KMOD_LIBS)
