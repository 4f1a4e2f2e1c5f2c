# tests/fuzz: one fuzz target per decoder of untrusted input
# (doc/fuzzing.md).  With a compiler that has libFuzzer (clang) each
# target is a libFuzzer binary and the library code it reaches is
# instrumented for coverage; otherwise each links driver.c, which
# replays the corpus in tests/fuzz/corpus/TARGET/ and mutations of it.
# test_fuzz.sh runs every target briefly either way; scripts/fuzz.sh
# fuzzes one for longer.
FUZZ_TARGETS = \
	tests/fuzz/fuzz_client \
	tests/fuzz/fuzz_lttng \
	tests/fuzz/fuzz_app \
	tests/fuzz/fuzz_lagent \
	tests/fuzz/fuzz_lagentd \
	tests/fuzz/fuzz_tsdl \
	tests/fuzz/fuzz_consumer \
	tests/fuzz/fuzz_relay \
	tests/fuzz/fuzz_relayd \
	tests/fuzz/fuzz_relayd_tls \
	tests/fuzz/fuzz_live \
	tests/fuzz/fuzz_ctf \
	tests/fuzz/fuzz_ringbuf \
	tests/fuzz/fuzz_size \
	tests/fuzz/fuzz_uri \
	tests/fuzz/fuzz_filter \
	tests/fuzz/fuzz_filter_bc \
	tests/fuzz/fuzz_ftrace
check_PROGRAMS += $(FUZZ_TARGETS)
TESTS += tests/fuzz/test_fuzz.sh
EXTRA_DIST += tests/fuzz/test_fuzz.sh tests/fuzz/corpus

if LTT_LIBFUZZER
FUZZ_ENGINE = libfuzzer
FUZZ_COMPILE_FLAGS = $(AM_CFLAGS) -fsanitize=fuzzer
FUZZ_LINK_FLAGS = -fsanitize=fuzzer
FUZZ_COMMON_SRC = tests/fuzz/fuzz.h tests/fuzz/fuzz-common.c
# libcommon and the filter VM again, instrumented for the fuzzer's coverage.
check_LTLIBRARIES += tests/fuzz/libfuzzcommon.la
tests_fuzz_libfuzzcommon_la_SOURCES = $(src_common_libcommon_la_SOURCES) \
	$(src_filter_vm_libfiltervm_la_SOURCES)
tests_fuzz_libfuzzcommon_la_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer-no-link
FUZZ_LINK_WITH = tests/fuzz/libfuzzcommon.la
else
FUZZ_ENGINE = driver
FUZZ_COMPILE_FLAGS = $(AM_CFLAGS)
FUZZ_LINK_FLAGS =
FUZZ_COMMON_SRC = tests/fuzz/fuzz.h tests/fuzz/fuzz-common.c tests/fuzz/driver.c
FUZZ_LINK_WITH = src/common/libcommon.la
endif

# What test_fuzz.sh and scripts/fuzz.sh read to know how to run targets.
check_DATA += tests/fuzz/engine
CLEANFILES += tests/fuzz/engine
tests/fuzz/engine: Makefile
	$(AM_V_GEN)echo $(FUZZ_ENGINE) >$@

tests_fuzz_fuzz_client_SOURCES = tests/fuzz/fuzz_client.c $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_client_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_client_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_client_LDADD = $(FUZZ_LINK_WITH)

tests_fuzz_fuzz_lttng_SOURCES = tests/fuzz/fuzz_lttng.c $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_lttng_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_lttng_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_lttng_LDADD = $(FUZZ_LINK_WITH)

tests_fuzz_fuzz_app_SOURCES = tests/fuzz/fuzz_app.c tests/fuzz/seed-tp.c tests/fuzz/seed-tp.h \
	tests/unit/ref-tp.c tests/unit/ref-tp.h $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_app_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_app_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_app_LDADD = $(FUZZ_LINK_WITH)

tests_fuzz_fuzz_lagent_SOURCES = tests/fuzz/fuzz_lagent.c $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_lagent_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_lagent_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_lagent_LDADD = $(FUZZ_LINK_WITH)

# the agent port's real server (its thread, its loop), on loopback
tests_fuzz_fuzz_lagentd_SOURCES = tests/fuzz/fuzz_lagentd.c src/sessiond/lagent/lagent.c \
	src/sessiond/lagent/lagent-port.c src/sessiond/lagent/lagent.h \
	src/sessiond/model/session-lock.c $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_lagentd_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_lagentd_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_lagentd_LDADD = $(FUZZ_LINK_WITH)

tests_fuzz_fuzz_tsdl_SOURCES = tests/fuzz/fuzz_tsdl.c tests/fuzz/seed-tp.c tests/fuzz/seed-tp.h \
	tests/unit/ref-tp.c tests/unit/ref-tp.h $(SESSIOND_META_SOURCES) \
	$(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_tsdl_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_tsdl_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_tsdl_LDADD = $(FUZZ_LINK_WITH)

tests_fuzz_fuzz_consumer_SOURCES = tests/fuzz/fuzz_consumer.c $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_consumer_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_consumer_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_consumer_LDADD = $(FUZZ_LINK_WITH)

tests_fuzz_fuzz_relay_SOURCES = tests/fuzz/fuzz_relay.c $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_relay_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_relay_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_relay_LDADD = $(FUZZ_LINK_WITH)

# ltt-relayd's servers, in-process (its sources but main.c).
tests_fuzz_fuzz_relayd_SOURCES = tests/fuzz/fuzz_relayd.c $(FUZZ_COMMON_SRC) \
	src/relayd/relayd.h \
	src/relayd/server.c src/relayd/server.h \
	src/relayd/ctrl.c src/relayd/ctrl.h \
	src/relayd/reconcile.c src/relayd/reconcile.h \
	src/relayd/data.c src/relayd/data.h \
	src/relayd/model.c src/relayd/model.h \
	src/relayd/session.c src/relayd/session.h \
	src/relayd/stream.c src/relayd/stream.h src/relayd/stream-files.c src/relayd/stream-files.h \
	src/relayd/registry.c src/relayd/registry.h \
	src/relayd/journal.c src/relayd/journal.h \
	src/relayd/live.c src/relayd/live.h src/relayd/live-cmd.c src/relayd/live-cmd.h
tests_fuzz_fuzz_relayd_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_relayd_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_relayd_LDADD = src/common/libnet.la $(FUZZ_LINK_WITH)

# the same servers speaking TLS: a stranger's handshake bytes, a member's
# bytes after a real handshake
tests_fuzz_fuzz_relayd_tls_SOURCES = $(tests_fuzz_fuzz_relayd_SOURCES) tests/fuzz/tls-certs.h
tests_fuzz_fuzz_relayd_tls_CFLAGS = $(tests_fuzz_fuzz_relayd_CFLAGS) -DFUZZ_RELAYD_TLS
tests_fuzz_fuzz_relayd_tls_LDFLAGS = $(tests_fuzz_fuzz_relayd_LDFLAGS)
tests_fuzz_fuzz_relayd_tls_LDADD = $(tests_fuzz_fuzz_relayd_LDADD)

tests_fuzz_fuzz_live_SOURCES = tests/fuzz/fuzz_live.c $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_live_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_live_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_live_LDADD = $(FUZZ_LINK_WITH)

tests_fuzz_fuzz_ctf_SOURCES = tests/fuzz/fuzz_ctf.c $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_ctf_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_ctf_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_ctf_LDADD = $(FUZZ_LINK_WITH)

tests_fuzz_fuzz_ringbuf_SOURCES = tests/fuzz/fuzz_ringbuf.c $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_ringbuf_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_ringbuf_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_ringbuf_LDADD = $(FUZZ_LINK_WITH)

tests_fuzz_fuzz_size_SOURCES = tests/fuzz/fuzz_size.c $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_size_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_size_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_size_LDADD = $(FUZZ_LINK_WITH)

tests_fuzz_fuzz_uri_SOURCES = tests/fuzz/fuzz_uri.c $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_uri_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_uri_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_uri_LDADD = $(FUZZ_LINK_WITH)

tests_fuzz_fuzz_filter_SOURCES = tests/fuzz/fuzz_filter.c tests/fuzz/filter-event.h $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_filter_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_filter_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_filter_LDADD = $(FUZZ_LINK_WITH)

tests_fuzz_fuzz_filter_bc_SOURCES = tests/fuzz/fuzz_filter_bc.c tests/fuzz/filter-event.h $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_filter_bc_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_filter_bc_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_filter_bc_LDADD = $(FUZZ_LINK_WITH)

# The kernel's tracefs: format files and trace_pipe_raw pages.
tests_fuzz_fuzz_ftrace_SOURCES = tests/fuzz/fuzz_ftrace.c $(FUZZ_COMMON_SRC)
tests_fuzz_fuzz_ftrace_CFLAGS = $(FUZZ_COMPILE_FLAGS)
tests_fuzz_fuzz_ftrace_LDFLAGS = $(FUZZ_LINK_FLAGS)
tests_fuzz_fuzz_ftrace_LDADD = $(FUZZ_LINK_WITH)
