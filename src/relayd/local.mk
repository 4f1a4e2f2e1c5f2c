# src/relayd: ltt-relayd, the relay daemon (map in relayd.h).
bin_PROGRAMS += src/relayd/ltt-relayd
src_relayd_ltt_relayd_SOURCES = \
	src/relayd/relayd.h \
	src/relayd/main.c \
	src/relayd/listen.c src/relayd/listen.h \
	src/relayd/server.c src/relayd/server.h \
	src/relayd/ctrl.c src/relayd/ctrl.h \
	src/relayd/data.c src/relayd/data.h \
	src/relayd/model.c src/relayd/model.h \
	src/relayd/session.c src/relayd/session.h \
	src/relayd/stream.c src/relayd/stream.h \
	src/relayd/stream-files.c src/relayd/stream-files.h \
	src/relayd/registry.c src/relayd/registry.h \
	src/relayd/journal.c src/relayd/journal.h \
	src/relayd/reconcile.c src/relayd/reconcile.h \
	src/relayd/live.c src/relayd/live.h src/relayd/live-cmd.c src/relayd/live-cmd.h
src_relayd_ltt_relayd_CFLAGS = $(AM_CFLAGS) $(POPT_CFLAGS)
src_relayd_ltt_relayd_LDADD = src/common/libnet.la src/common/libcommon.la $(POPT_LIBS)
