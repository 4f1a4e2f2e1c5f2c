# src/ust: libltt-ust, the tracer that instrumented programs link
# (include/ltt/tracepoint.h; design in doc/ust.md, "The tracer library").
# libust.la holds all of it, so that unit tests and benchmarks reach the
# internals (ust-internal.h) that the shared library does not export:
# libust-core.la, and the descriptions of the library's own tracepoints
# that lib-desc-gen, linked with libust-core.la, encodes at build time
# (lib-desc.c: ust_lib_desc()).
noinst_LTLIBRARIES += src/ust/libust-core.la src/ust/libust.la
src_ust_libust_core_la_SOURCES = \
	src/ust/ust.h \
	src/ust/base.c \
	src/ust/init.c \
	src/ust/registry.c \
	src/ust/retire.c \
	src/ust/channel.c \
	src/ust/context.c \
	src/ust/probe.c \
	src/ust/rcu.c src/ust/rcu.h \
	src/ust/statedump.c \
	src/ust/tracef.c \
	src/ust/lib-tracepoints.c \
	src/ust/filter.c \
	src/ust/notify.c src/ust/notify.h \
	src/ust/comm.c \
	src/ust/comm-cmd.c src/ust/comm-cmd.h \
	src/ust/fds.c \
	src/ust/getcpu.c \
	src/ust/agent.c src/ust/agent.h \
	src/ust/testing.c src/ust/ust-internal.h
src_ust_libust_core_la_CPPFLAGS = $(AM_CPPFLAGS)
# The per-thread words (the RCU reader's, the record index, the CPU hint)
# are read at every event: without this, each read from a shared library
# is a __tls_get_addr() call.  (The price: a
# program that dlopen()s libltt-ust needs a few bytes of static TLS room,
# which glibc keeps for that.)
src_ust_libust_core_la_CFLAGS = $(AM_CFLAGS) -ftls-model=initial-exec $(UST_GC_CFLAGS)
src_ust_libust_core_la_LIBADD = src/common/libcommon.la

noinst_PROGRAMS += src/ust/lib-desc-gen
src_ust_lib_desc_gen_SOURCES = src/ust/lib-desc-gen.c
src_ust_lib_desc_gen_LDADD = src/ust/libust-core.la
src/ust/lib-desc.c: src/ust/lib-desc-gen$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) src/ust && src/ust/lib-desc-gen$(EXEEXT) > $@.tmp && mv $@.tmp $@
CLEANFILES += src/ust/lib-desc.c src/ust/lib-desc.c.tmp
nodist_src_ust_libust_la_SOURCES = src/ust/lib-desc.c
src_ust_libust_la_CFLAGS = $(AM_CFLAGS) $(UST_GC_CFLAGS)
src_ust_libust_la_LIBADD = src/ust/libust-core.la

# Programs link -lltt-ust and nothing else.  Only the entry points the
# generated code and ltt_tracef() call are exported, the plugin loader
# liblttng-ust uses (module.h), and the wrappers of
# unshare() and setns() (context.c).  --gc-sections: libust.la carries
# all of libcommon.la (the daemons' protocols, the error table), which a
# program's loader would otherwise map, relocate (2 374 relative
# relocations, 13 pages written) and bind symbols for at every start;
# only what the exported entry points and the constructors reach stays
# (513 relocations, 2 pages), with UST_GC_CFLAGS (Makefile.am).
lib_LTLIBRARIES += src/ust/libltt-ust.la
src_ust_libltt_ust_la_SOURCES =
src_ust_libltt_ust_la_LIBADD = src/ust/libust.la
src_ust_libltt_ust_la_LDFLAGS = -version-info 0:0:0 -no-undefined -Wl,-z,now -Wl,-z,nodelete -Wl,--gc-sections \
	-export-symbols-regex '^(ltt_ust_(register_module|unregister_module|probe_reserve|probe_reserve_filter|probe_commit|probe_commit_copy|objects_update|namespaces_changed|tracef|tracef_event|vtracef_as|tracelog|tracelog_events|vtracelog_as|fd_lock|fd_unlock|fd_lock_held|fd_owned|fd_own|fd_disown|getcpu_set|agent_wait|agent_rules|agent_add_loggers)|ltt_tclock_plugin_(set|get|enable|choose)|ltt_plugin_init|unshare|setns)$$'

pkginclude_HEADERS += include/ltt/tracepoint.h include/ltt/tracepoint-types.h

# ltt-ust.pc, made by configure (as ltt-ctl.pc): its directories stay
# relative to ${prefix}, so pkg-config --define-prefix finds a moved tree.
pkgconfig_DATA += src/ust/ltt-ust.pc
