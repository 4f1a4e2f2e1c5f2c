# src/consumerd: ltt-consumerd, the consumer daemon (map in consumerd.h).
ltt_libexec_PROGRAMS += src/consumerd/ltt-consumerd
src_consumerd_ltt_consumerd_SOURCES = \
	src/consumerd/consumerd.h \
	src/consumerd/main.c \
	src/consumerd/cmd.c src/consumerd/cmd.h \
	src/consumerd/cmd-trace.c src/consumerd/cmd-channel.c \
	src/consumerd/cmd-relay.c src/consumerd/cmd-chunk.c \
	src/consumerd/registry.c src/consumerd/registry.h \
	src/consumerd/data.c src/consumerd/data.h \
	src/consumerd/data-loop.c src/consumerd/data-loop.h \
	src/consumerd/data-relay.c \
	src/consumerd/data-req.h src/consumerd/data-relay.h \
	src/consumerd/prio.c src/consumerd/prio.h \
	src/consumerd/trace.c src/consumerd/trace.h \
	src/consumerd/channel.c src/consumerd/channel.h \
	src/consumerd/stream.c src/consumerd/stream.h \
	src/consumerd/source.c src/consumerd/source.h \
	src/consumerd/source-ust.c src/consumerd/source-ust.h \
	src/consumerd/source-kernel.c src/consumerd/source-kernel.h \
	src/consumerd/source-tracefs.c src/consumerd/source-tracefs.h \
	src/consumerd/source-tracefs-events.c src/consumerd/source-tracefs-events.h \
	src/consumerd/sink.c src/consumerd/sink.h \
	src/consumerd/sink-file.c src/consumerd/sink-file.h \
	src/consumerd/sink-relay.c src/consumerd/sink-relay.h \
	src/consumerd/relay-link.c src/consumerd/relay-session.c src/consumerd/relay-link.h \
	src/consumerd/relay-archive.c \
	src/consumerd/snapshot.c src/consumerd/snapshot.h \
	src/consumerd/fs.c src/consumerd/fs.h

src_consumerd_ltt_consumerd_CFLAGS = $(AM_CFLAGS) $(POPT_CFLAGS)
src_consumerd_ltt_consumerd_LDADD = src/common/libnet.la src/common/libcommon.la $(POPT_LIBS)
