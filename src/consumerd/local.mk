# src/consumerd: ltt-consumerd, the consumer daemon, in folders by part:
# cmd/ (the command thread), data/ (the data threads), trace/ (the
# object tree), source/, sink/ and relay/ (map in consumerd.h).
ltt_libexec_PROGRAMS += src/consumerd/ltt-consumerd
src_consumerd_ltt_consumerd_SOURCES = \
	src/consumerd/consumerd.h \
	src/consumerd/main.c \
	src/consumerd/cmd/cmd.c src/consumerd/cmd/cmd.h \
	src/consumerd/cmd/cmd-trace.c src/consumerd/cmd/cmd-channel.c \
	src/consumerd/cmd/cmd-relay.c src/consumerd/cmd/cmd-chunk.c \
	src/consumerd/cmd/registry.c src/consumerd/cmd/registry.h \
	src/consumerd/data/data.c src/consumerd/data/data.h \
	src/consumerd/data/data-loop.c src/consumerd/data/data-loop.h \
	src/consumerd/data/data-relay.c \
	src/consumerd/data/data-req.h src/consumerd/data/data-relay.h \
	src/consumerd/data/prio.c src/consumerd/data/prio.h \
	src/consumerd/trace/trace.c src/consumerd/trace/trace.h \
	src/consumerd/trace/channel.c src/consumerd/trace/channel.h \
	src/consumerd/trace/stream.c src/consumerd/trace/stream.h \
	src/consumerd/trace/snapshot.c src/consumerd/trace/snapshot.h \
	src/consumerd/source/source.c src/consumerd/source/source.h \
	src/consumerd/source/source-ust.c src/consumerd/source/source-ust.h \
	src/consumerd/source/source-kernel.c src/consumerd/source/source-kernel.h \
	src/consumerd/source/source-tracefs.c src/consumerd/source/source-tracefs.h \
	src/consumerd/source/source-tracefs-events.c \
	src/consumerd/source/source-tracefs-events.h \
	src/consumerd/source/source-tracefs-stats.c \
	src/consumerd/source/source-tracefs-stats.h \
	src/consumerd/sink/sink.c src/consumerd/sink/sink.h \
	src/consumerd/sink/sink-file.c src/consumerd/sink/sink-file.h \
	src/consumerd/sink/sink-relay.c src/consumerd/sink/sink-relay.h \
	src/consumerd/sink/fs.c src/consumerd/sink/fs.h \
	src/consumerd/relay/relay-link.c src/consumerd/relay/relay-session.c \
	src/consumerd/relay/relay-link.h src/consumerd/relay/relay-archive.c \
	src/consumerd/relay/relay-queue.c src/consumerd/relay/relay-reconcile.c \
	src/consumerd/relay/rlink.h

src_consumerd_ltt_consumerd_CFLAGS = $(AM_CFLAGS) $(POPT_CFLAGS)
# LTTng's test points' functions look up the pause flag and the consumer's type
src_consumerd_ltt_consumerd_LDFLAGS = $(testpoint_consumerd_exports)
src_consumerd_ltt_consumerd_LDADD = src/common/libnet.la src/common/libcommon.la $(POPT_LIBS)
