# src/common: code shared by the processes, one convenience library that
# the daemons, the control library and the unit tests link alike.  The
# filter parser and compiler are here (user space only); the VM they
# compile for is src/filter-vm, which the kernel module builds too.
noinst_LTLIBRARIES += src/common/libcommon.la
src_common_libcommon_la_SOURCES = \
	src/common/app-proto.c src/common/app-proto.h \
	src/common/array.c src/common/array.h \
	src/common/budget.c src/common/budget.h \
	src/common/agent.c src/common/agent.h \
	src/common/lagent-proto.c src/common/lagent-proto.h \
	src/common/attr.c src/common/attr.h src/common/model.h \
	src/common/client-proto.c src/common/client-proto.h \
	src/common/codec.c src/common/codec.h \
	src/common/context.c src/common/context.h \
	src/common/convert.c src/common/convert.h \
	src/common/trigger.c src/common/trigger.h \
	src/common/consumer-proto.c src/common/consumer-proto.h \
	src/common/live-proto.c src/common/live-proto.h \
	src/common/ctf.c src/common/ctf.h \
	src/common/daemon.c src/common/daemon.h \
	src/common/as-user.c src/common/as-user.h \
	src/common/durable.c src/common/durable.h \
	src/common/elf-probe.c src/common/elf-probe.h \
	src/common/fault.c src/common/fault.h \
	src/common/ftrace-format.c src/common/ftrace-format.h \
	src/common/ftrace-map.c src/common/ftrace-map.h \
	src/common/ftrace-conv.c src/common/ftrace-conv.h \
	src/common/ftrace-prefilter.c src/common/ftrace-prefilter.h \
	src/common/ftrace-tasks.c src/common/ftrace-tasks.h \
	src/common/error.c \
	src/common/errmap.c src/common/errmap.h \
	src/common/escape.c src/common/escape.h \
	src/common/evloop.c src/common/evloop.h \
	src/common/filter-parse.c src/common/filter-parse.h \
	src/common/filter-compile.c src/common/filter-compile.h \
	src/common/log.c src/common/log.h \
	src/common/msg.c src/common/msg.h \
	src/common/loglevel.c \
	src/common/lttng-gap.c src/common/lttng-gap.h \
	src/common/map.c src/common/map.h \
	src/common/name-index.c src/common/name-index.h \
	src/common/names.c src/common/names.h \
	src/common/output-error.c src/common/output-error.h \
	src/common/paths.c src/common/paths.h \
	src/common/probe-loc.c src/common/probe-loc.h \
	src/common/relay-proto.c src/common/relay-proto.h \
	src/common/ringbuf.c src/common/ringbuf.h src/common/ringbuf-read.h \
	src/common/ringbuf-repair.c src/common/ringbuf-internal.h \
	src/common/size.c src/common/size.h \
	src/common/thread.c src/common/thread.h \
	src/common/tclock.c src/common/tclock.h \
	src/common/sock.c src/common/sock.h \
	src/common/trace-repair.c src/common/trace-repair.h \
	src/common/tracefile.c src/common/tracefile.h \
	src/common/uri.c src/common/uri.h
# The filter VM (src/filter-vm), in libcommon as any other module is.
src_common_libcommon_la_LIBADD = src/filter-vm/libfiltervm.la
# The network transport (plain or TLS, xport.h) and the relay connection
# built on it: only the programs that reach a relay link it, and OpenSSL
# with it.
noinst_LTLIBRARIES += src/common/libnet.la
src_common_libnet_la_SOURCES = \
	src/common/relay-conn.c src/common/relay-conn.h \
	src/common/xport.c src/common/xport.h
src_common_libnet_la_CFLAGS = $(AM_CFLAGS) $(OPENSSL_CFLAGS)
src_common_libnet_la_LIBADD = $(OPENSSL_LIBS)
