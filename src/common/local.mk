# src/common: code shared by the processes, one convenience library that
# the daemons, the control library and the unit tests link alike.  The
# filter parser and compiler are here (user space only); the VM they
# compile for is src/filter-vm, which the kernel module builds too.
noinst_LTLIBRARIES += src/common/libcommon.la
# ltt-sessiond exports LTTng-UST's clock plugin functions
# (common/trace/tclock-abi.c, in its sources).
tclock_abi_exports = -Wl,--export-dynamic-symbol=lttng_ust_trace_clock_* \
	-Wl,--export-dynamic-symbol=lttng_ust_enable_trace_clock_override
# What LTTng's test points' functions look up in the daemons, by LTTng's
# names (common/base/testpoint.h).
testpoint_sessiond_exports = -Wl,--export-dynamic-symbol=notifier_consumption_paused
testpoint_consumerd_exports = -Wl,--export-dynamic-symbol=data_consumption_paused \
	-Wl,--export-dynamic-symbol=lttng_consumer_get_type
# Its wings, from the top layer down (common.h is their map).
src_common_libcommon_la_SOURCES = src/common/common.h \
	src/common/proto/proto.h \
	src/common/proto/app-proto.c src/common/proto/app-proto.h src/common/proto/app-tracepoint.c \
	src/common/proto/client-proto.c src/common/proto/client-proto.h \
	src/common/proto/consumer-proto.c src/common/proto/consumer-proto.h \
	src/common/proto/consumer-proto-relay.h \
	src/common/proto/lagent-proto.c src/common/proto/lagent-proto.h \
	src/common/proto/lust-proto.c src/common/proto/lust-proto.h \
	src/common/proto/live-proto.c src/common/proto/live-proto.h \
	src/common/proto/lttng-client-proto.c src/common/proto/lttng-client-proto.h \
	src/common/proto/lttng-trigger-proto.c src/common/proto/lttng-trigger-proto.h \
	src/common/proto/lttng-eval-proto.c src/common/proto/lttng-trigger-wire.h \
	src/common/proto/lttng-probe-proto.c \
	src/common/proto/lttng-map-proto.c \
	src/common/proto/lttng-health.c src/common/proto/lttng-health.h \
	src/common/proto/msg.c src/common/proto/msg.h \
	src/common/proto/relay-proto.c src/common/proto/relay-proto.h \
	src/common/proto/trigger-proto.c src/common/proto/trigger-proto.h \
	src/common/ftrace/ftrace-conv.c src/common/ftrace/ftrace-conv-setup.c src/common/ftrace/ftrace-conv.h \
	src/common/ftrace/ftrace-format.c src/common/ftrace/ftrace-format.h \
	src/common/ftrace/ftrace-map.c src/common/ftrace/ftrace-map.h \
	src/common/ftrace/ftrace-names.c src/common/ftrace/ftrace-names.h \
	src/common/ftrace/ftrace-prefilter.c src/common/ftrace/ftrace-prefilter.h \
	src/common/ftrace/ftrace-tasks.c src/common/ftrace/ftrace-tasks.h \
	src/common/ftrace/ftrace.h \
	src/common/bpf/bpf.h \
	src/common/bpf/bpf-abi.h src/common/bpf/bpf-ring.c src/common/bpf/bpf-ring.h \
	src/common/model/agent.c src/common/model/agent.h \
	src/common/model/attr.c src/common/model/attr.h \
	src/common/model/context.c src/common/model/context.h \
	src/common/model/convert.c src/common/model/convert.h \
	src/common/model/loglevel.c \
	src/common/model/lttng-gap.c src/common/model/lttng-gap.h \
	src/common/model/lttng-words.c src/common/model/lttng-words.h \
	src/common/model/map.c src/common/model/map.h \
	src/common/model/model.h \
	src/common/model/trigger.c src/common/model/trigger.h \
	src/common/model/uri.c src/common/model/uri.h \
	src/common/filter/filter-compile.c src/common/filter/filter-compile.h \
	src/common/filter/filter-parse.c src/common/filter/filter-parse.h \
	src/common/filter/filter.h \
	src/common/probe/elf-probe.c src/common/probe/elf-probe.h \
	src/common/probe/probe-loc.c src/common/probe/probe-loc.h \
	src/common/probe/probe.h \
	src/common/trace/ctf.c src/common/trace/ctf.h src/common/trace/kabi-enum.h \
	src/common/trace/kabi-struct.h \
	src/common/trace/ringbuf-internal.h \
	src/common/trace/ringbuf-read.c src/common/trace/ringbuf-read.h \
	src/common/trace/ringbuf-repair.c \
	src/common/trace/ringbuf.c src/common/trace/ringbuf.h \
	src/common/trace/tclock.c src/common/trace/tclock.h \
	src/common/trace/tclock-plugin.c src/common/trace/tclock-plugin.h \
	src/common/trace/trace-repair.c src/common/trace/trace-repair.h \
	src/common/trace/trace.h \
	src/common/trace/tracefile.c src/common/trace/tracefile.h \
	src/common/base/array.c src/common/base/array.h \
	src/common/base/as-user.c src/common/base/as-user.h \
	src/common/base/base.h \
	src/common/base/budget.c src/common/base/budget.h \
	src/common/base/codec.c src/common/base/codec.h \
	src/common/base/daemon.c src/common/base/daemon.h src/common/base/daemon-popt.h \
	src/common/base/dlist.h \
	src/common/base/durable.c src/common/base/durable.h \
	src/common/base/errmap.c src/common/base/errmap.h \
	src/common/base/error.c \
	src/common/base/escape.c src/common/base/escape.h \
	src/common/base/evloop.c src/common/base/evloop.h \
	src/common/base/heartbeat.c src/common/base/heartbeat.h \
	src/common/base/fault.c src/common/base/fault.h \
	src/common/base/log.c src/common/base/log.h \
	src/common/base/module.c src/common/base/module.h \
	src/common/base/name-index.c src/common/base/name-index.h \
	src/common/base/names.c src/common/base/names.h \
	src/common/base/output-error.c src/common/base/output-error.h \
	src/common/base/paths.c src/common/base/paths.h \
	src/common/base/proc-status.c src/common/base/proc-status.h \
	src/common/base/size.c src/common/base/size.h \
	src/common/base/sock.c src/common/base/sock.h \
	src/common/base/testpoint.c src/common/base/testpoint.h \
	src/common/base/thread.c src/common/base/thread.h
# The filter VM (src/filter-vm), in libcommon as any other module is.
src_common_libcommon_la_LIBADD = src/filter-vm/libfiltervm.la
src_common_libcommon_la_CFLAGS = $(AM_CFLAGS) $(UST_GC_CFLAGS)
# The network transport (plain or TLS, xport.h) and the relay connection
# built on it: only the programs that reach a relay link it, and OpenSSL
# with it.
noinst_LTLIBRARIES += src/common/libnet.la
src_common_libnet_la_SOURCES = \
	src/common/net/net.h \
	src/common/net/relay-conn.c src/common/net/relay-conn.h \
	src/common/net/xport.c src/common/net/xport.h
src_common_libnet_la_CFLAGS = $(AM_CFLAGS) $(OPENSSL_CFLAGS)
src_common_libnet_la_LIBADD = $(OPENSSL_LIBS)
# libnet as a private module, net-tls.so in $(pkglibdir) beside the XML
# one, for a program that needs TLS for a few commands only: it links
# libnet-module (net-module.h), which loads it on first use, instead of
# libnet and OpenSSL.  It exports its table (ltt_net_tls_module) only.
pkglib_LTLIBRARIES += src/common/net-tls.la
src_common_net_tls_la_SOURCES = src/common/net/net-tls.c src/common/net/net-module.h
src_common_net_tls_la_LIBADD = src/common/libnet.la src/common/libcommon.la
src_common_net_tls_la_LDFLAGS = -module -avoid-version -shared -no-undefined \
	-export-symbols-regex '^ltt_net_tls_module$$'
noinst_LTLIBRARIES += src/common/libnet-module.la
src_common_libnet_module_la_SOURCES = src/common/net/net-module.c src/common/net/net-module.h
src_common_libnet_module_la_CPPFLAGS = $(AM_CPPFLAGS) -DLTT_PKGLIBDIR=\"$(pkglibdir)\"

# The BPF system call source's loader (doc/kernel-bpf.md): the program,
# compiled here once for the BPF target and embedded by bpftool's
# skeleton; only the privileged part links it, and libbpf with it.
EXTRA_DIST += src/common/bpf/syscalls.bpf.c
if BUILD_BPF
noinst_LTLIBRARIES += src/common/libbpfsc.la
src_common_libbpfsc_la_SOURCES = src/common/bpf/bpf-sc.c src/common/bpf/bpf-sc.h
nodist_src_common_libbpfsc_la_SOURCES = src/common/bpf/syscalls.skel.h src/common/bpf/syscall-nrs.h
src_common_libbpfsc_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/src/common/bpf
src_common_libbpfsc_la_CFLAGS = $(AM_CFLAGS) $(LIBBPF_CFLAGS)
src_common_libbpfsc_la_LIBADD = $(LIBBPF_LIBS)
BUILT_SOURCES += src/common/bpf/syscalls.skel.h src/common/bpf/syscall-nrs.h
CLEANFILES += src/common/bpf/syscalls.bpf.o src/common/bpf/syscalls.skel.h \
	src/common/bpf/syscall-nrs.h
# The system calls' numbers by name ({ "openat", 257 },), from the C
# library's <sys/syscall.h>: ftrace names the calls, the program sees numbers.
src/common/bpf/syscall-nrs.h:
	@$(MKDIR_P) src/common/bpf
	$(AM_V_GEN)echo '#include <sys/syscall.h>' | $(CPP) -dM - | \
		sed -n 's/^#define __NR_\([a-z0-9_]*\) \([0-9]*\)$$/	{ "\1", \2 },/p' | \
		LC_ALL=C sort > $@.tmp && test -s $@.tmp && mv $@.tmp $@
src/common/bpf/syscalls.bpf.o: $(top_srcdir)/src/common/bpf/syscalls.bpf.c \
		$(top_srcdir)/src/common/bpf/bpf-abi.h
	@$(MKDIR_P) src/common/bpf
	$(AM_V_GEN)$(BPF_CLANG) -target bpf -O2 -g -D__TARGET_ARCH_x86 $(BPF_CPPFLAGS) \
		-I$(top_srcdir)/src/common/bpf -c $(top_srcdir)/src/common/bpf/syscalls.bpf.c -o $@
src/common/bpf/syscalls.skel.h: src/common/bpf/syscalls.bpf.o
	$(AM_V_GEN)$(BPFTOOL) gen skeleton src/common/bpf/syscalls.bpf.o name ltt_syscalls > $@.tmp && \
		mv $@.tmp $@
endif
