# src/lttng-ust: ltt's liblttng-ust.so.1, liblttng-ust-common.so.1 and
# liblttng-ust-tracepoint.so.1, the application-facing ABI of LTTng-UST
# 2.13 over libltt-ust (doc/lttng-ust.md; the files' map in lttng-ust.h).
# Installed in a private directory, which ltt-run puts in front of a
# command.  Each exports exactly the names of LTTng's (its .sym list),
# unversioned: a version node would make programs linked against them
# refuse LTTng's.
lttngustdir = $(pkglibdir)/lttng-ust
lttngust_LTLIBRARIES = src/lttng-ust/liblttng-ust-common.la \
	src/lttng-ust/liblttng-ust-tracepoint.la src/lttng-ust/liblttng-ust.la
# Their exported functions are declared by LTTng's headers, which ltt does not use.
LTTNG_UST_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden -Wno-missing-prototypes -Wno-missing-declarations
# Never unloaded (as lttng-ust pins its own): a provider library dlclose()d
# must not take with it the state of libltt-ust's registered descriptors,
# the call sites' probes or the readers of the RCU.
LTTNG_UST_LDFLAGS = -version-info 1:0:0 -no-undefined -Wl,-z,now -Wl,-z,nodelete
EXTRA_DIST += src/lttng-ust/common.sym src/lttng-ust/tracepoint.sym src/lttng-ust/ust.sym

src_lttng_ust_liblttng_ust_common_la_SOURCES = src/lttng-ust/common.c \
	src/lttng-ust/debug.c src/lttng-ust/lttng-ust.h
# Initial-exec TLS: the reader's word is read at every event, as programs
# built with _LGPL_SOURCE read it.  16 bytes: a program that dlopen()s the
# library takes them from glibc's static TLS room, as for libltt-ust.
src_lttng_ust_liblttng_ust_common_la_CFLAGS = $(LTTNG_UST_CFLAGS) -ftls-model=initial-exec
src_lttng_ust_liblttng_ust_common_la_LDFLAGS = $(LTTNG_UST_LDFLAGS) \
	-export-symbols $(srcdir)/src/lttng-ust/common.sym
EXTRA_src_lttng_ust_liblttng_ust_common_la_DEPENDENCIES = $(srcdir)/src/lttng-ust/common.sym
# the fd tracker is libltt-ust's set of fds
src_lttng_ust_liblttng_ust_common_la_LIBADD = src/ust/libltt-ust.la

src_lttng_ust_liblttng_ust_tracepoint_la_SOURCES = src/lttng-ust/tracepoint.c \
	src/lttng-ust/debug.c src/lttng-ust/lttng-ust.h src/lttng-ust/lttng-abi.h
src_lttng_ust_liblttng_ust_tracepoint_la_CFLAGS = $(LTTNG_UST_CFLAGS)
src_lttng_ust_liblttng_ust_tracepoint_la_LDFLAGS = $(LTTNG_UST_LDFLAGS) \
	-export-symbols $(srcdir)/src/lttng-ust/tracepoint.sym
EXTRA_src_lttng_ust_liblttng_ust_tracepoint_la_DEPENDENCIES = $(srcdir)/src/lttng-ust/tracepoint.sym
src_lttng_ust_liblttng_ust_tracepoint_la_LIBADD = src/lttng-ust/liblttng-ust-common.la

src_lttng_ust_liblttng_ust_la_SOURCES = src/lttng-ust/probe.c src/lttng-ust/fields.c \
	src/lttng-ust/misc.c src/lttng-ust/debug.c src/lttng-ust/event.h \
	src/lttng-ust/lttng-ust.h src/lttng-ust/lttng-abi.h
src_lttng_ust_liblttng_ust_la_CFLAGS = $(LTTNG_UST_CFLAGS)
src_lttng_ust_liblttng_ust_la_LDFLAGS = $(LTTNG_UST_LDFLAGS) \
	-export-symbols $(srcdir)/src/lttng-ust/ust.sym
EXTRA_src_lttng_ust_liblttng_ust_la_DEPENDENCIES = $(srcdir)/src/lttng-ust/ust.sym
src_lttng_ust_liblttng_ust_la_LIBADD = src/lttng-ust/liblttng-ust-tracepoint.la \
	src/lttng-ust/liblttng-ust-common.la src/ust/libltt-ust.la

# ltt-run: the command with the private directory in front
bin_SCRIPTS = src/lttng-ust/ltt-run
CLEANFILES += src/lttng-ust/ltt-run
EXTRA_DIST += src/lttng-ust/ltt-run.in
src/lttng-ust/ltt-run: $(srcdir)/src/lttng-ust/ltt-run.in Makefile
	$(AM_V_GEN)$(MKDIR_P) src/lttng-ust && \
	sed -e 's|@LTTNG_UST_DIR@|$(lttngustdir)|g' $(srcdir)/src/lttng-ust/ltt-run.in > $@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@
