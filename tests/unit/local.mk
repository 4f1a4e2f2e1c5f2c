# tests/unit: C unit tests, no daemons.  Each links libcommon exactly as
# the daemons do and prints TAP through tap.c.  One folder a subject, as
# tests/regression: base/ (src/common/base, names, URIs, probe
# locations), proto/ (every protocol's wire form), filter/, ctl/
# (libltt-ctl's ABI and checks), sessiond/ (its parts without a daemon),
# trace/ (ring buffer, clock, TSDL), ust/ (libltt-ust), consumerd/,
# relayd/, ftrace/; the helpers they share (tap.c, harnesses, fakes) stay
# here, included as "tests/unit/NAME.h".
UNIT_TESTS = \
	tests/unit/base/test_size \
	tests/unit/base/test_uri \
	tests/unit/base/test_names \
	tests/unit/base/test_paths \
	tests/unit/base/test_codec \
	tests/unit/base/test_evloop \
	tests/unit/base/test_evloop_threads \
	tests/unit/base/test_io \
	tests/unit/proto/test_client_proto \
	tests/unit/proto/test_client_objects \
	tests/unit/proto/test_lttng_proto \
	tests/unit/proto/test_consumer_proto \
	tests/unit/proto/test_consumer_proto_relay \
	tests/unit/proto/test_live_proto \
	tests/unit/proto/test_relay_proto \
	tests/unit/proto/test_proto_bytes \
	tests/unit/proto/test_proto_bytes_app \
	tests/unit/proto/test_proto_minor_bytes \
	tests/unit/base/test_error \
	tests/unit/base/test_escape \
	tests/unit/base/test_array \
	tests/unit/base/test_name_index \
	tests/unit/base/test_log \
	tests/unit/filter/test_filter
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)

UNIT_TAP_SOURCES = tests/unit/tap.c tests/unit/tap.h
# A fake session daemon in a child process, for libltt-ctl's tests.
UNIT_FAKE_SESSIOND_SOURCES = tests/unit/fake-sessiond.c tests/unit/fake-sessiond.h
# The event loop tests' loops and guard deadlines.
UNIT_EVLOOP_SOURCES = tests/unit/evloop-harness.c tests/unit/evloop-harness.h
# The ring buffer tests' regions, self-checking events, reader and writers.
UNIT_RB_SOURCES = tests/unit/rb-harness.c tests/unit/rb-harness.h
# Ring buffers for the tests that play the daemon in-process for libltt-ust.
UNIT_UST_RINGS_SOURCES = tests/unit/ust-rings.c tests/unit/ust-rings.h
# The app protocol's reference tracepoint description.
UNIT_REF_TP_SOURCES = tests/unit/ref-tp.c tests/unit/ref-tp.h

tests_unit_base_test_log_SOURCES = tests/unit/base/test_log.c $(UNIT_TAP_SOURCES)
tests_unit_base_test_log_LDADD = src/common/libcommon.la

tests_unit_base_test_size_SOURCES = tests/unit/base/test_size.c $(UNIT_TAP_SOURCES)
tests_unit_base_test_size_LDADD = src/common/libcommon.la
# The daemons' option loop: a repeated string option's copies freed, any table.
check_PROGRAMS += tests/unit/base/test_daemon_popt
TESTS += tests/unit/base/test_daemon_popt
tests_unit_base_test_daemon_popt_SOURCES = tests/unit/base/test_daemon_popt.c $(UNIT_TAP_SOURCES)
tests_unit_base_test_daemon_popt_CFLAGS = $(AM_CFLAGS) $(POPT_CFLAGS)
tests_unit_base_test_daemon_popt_LDADD = src/common/libcommon.la $(POPT_LIBS)

tests_unit_base_test_io_SOURCES = tests/unit/base/test_io.c $(UNIT_TAP_SOURCES)
tests_unit_base_test_io_LDADD = src/common/libcommon.la

tests_unit_base_test_uri_SOURCES = tests/unit/base/test_uri.c $(UNIT_TAP_SOURCES)
tests_unit_base_test_uri_LDADD = src/common/libcommon.la

tests_unit_base_test_names_SOURCES = tests/unit/base/test_names.c $(UNIT_TAP_SOURCES)
tests_unit_base_test_names_LDADD = src/common/libcommon.la
tests_unit_base_test_paths_SOURCES = tests/unit/base/test_paths.c $(UNIT_TAP_SOURCES)
tests_unit_base_test_paths_LDADD = src/common/libcommon.la

tests_unit_base_test_name_index_SOURCES = tests/unit/base/test_name_index.c $(UNIT_TAP_SOURCES)
tests_unit_base_test_name_index_LDADD = src/common/libcommon.la

tests_unit_base_test_escape_SOURCES = tests/unit/base/test_escape.c $(UNIT_TAP_SOURCES)
tests_unit_base_test_escape_LDADD = src/common/libcommon.la
tests_unit_base_test_array_SOURCES = tests/unit/base/test_array.c $(UNIT_TAP_SOURCES)
tests_unit_base_test_array_LDADD = src/common/libcommon.la

tests_unit_base_test_codec_SOURCES = tests/unit/base/test_codec.c $(UNIT_TAP_SOURCES)
tests_unit_base_test_codec_LDADD = src/common/libcommon.la

tests_unit_base_test_evloop_SOURCES = tests/unit/base/test_evloop.c $(UNIT_EVLOOP_SOURCES) \
	$(UNIT_TAP_SOURCES)
tests_unit_base_test_evloop_LDADD = src/common/libcommon.la

tests_unit_base_test_evloop_threads_SOURCES = tests/unit/base/test_evloop_threads.c \
	$(UNIT_EVLOOP_SOURCES) $(UNIT_TAP_SOURCES)
tests_unit_base_test_evloop_threads_LDADD = src/common/libcommon.la

tests_unit_proto_test_client_proto_SOURCES = tests/unit/proto/test_client_proto.c $(UNIT_TAP_SOURCES)
tests_unit_proto_test_client_proto_LDADD = src/common/libcommon.la

tests_unit_proto_test_client_objects_SOURCES = tests/unit/proto/test_client_objects.c $(UNIT_TAP_SOURCES)
tests_unit_proto_test_client_objects_LDADD = src/common/libcommon.la
tests_unit_proto_test_lttng_proto_SOURCES = tests/unit/proto/test_lttng_proto.c $(UNIT_TAP_SOURCES)
tests_unit_proto_test_lttng_proto_LDADD = src/common/libcommon.la

tests_unit_proto_test_consumer_proto_SOURCES = tests/unit/proto/test_consumer_proto.c $(UNIT_TAP_SOURCES)
tests_unit_proto_test_consumer_proto_LDADD = src/common/libcommon.la
tests_unit_proto_test_consumer_proto_relay_SOURCES = tests/unit/proto/test_consumer_proto_relay.c \
	$(UNIT_TAP_SOURCES)
tests_unit_proto_test_consumer_proto_relay_LDADD = src/common/libcommon.la

tests_unit_proto_test_live_proto_SOURCES = tests/unit/proto/test_live_proto.c $(UNIT_TAP_SOURCES)
tests_unit_proto_test_live_proto_LDADD = src/common/libcommon.la

tests_unit_proto_test_relay_proto_SOURCES = tests/unit/proto/test_relay_proto.c $(UNIT_TAP_SOURCES)
tests_unit_proto_test_relay_proto_LDADD = src/common/libcommon.la

tests_unit_proto_test_proto_bytes_SOURCES = tests/unit/proto/test_proto_bytes.c $(UNIT_TAP_SOURCES)
tests_unit_proto_test_proto_bytes_LDADD = src/common/libcommon.la
tests_unit_proto_test_proto_minor_bytes_SOURCES = tests/unit/proto/test_proto_minor_bytes.c \
	$(UNIT_TAP_SOURCES)
tests_unit_proto_test_proto_minor_bytes_LDADD = src/common/libcommon.la

tests_unit_proto_test_proto_bytes_app_SOURCES = tests/unit/proto/test_proto_bytes_app.c $(UNIT_REF_TP_SOURCES) \
	$(UNIT_TAP_SOURCES)
tests_unit_proto_test_proto_bytes_app_LDADD = src/common/libcommon.la

tests_unit_filter_test_filter_SOURCES = tests/unit/filter/test_filter.c $(UNIT_TAP_SOURCES)
tests_unit_filter_test_filter_LDADD = src/common/libcommon.la

tests_unit_base_test_error_SOURCES = tests/unit/base/test_error.c $(UNIT_TAP_SOURCES)
tests_unit_base_test_error_LDADD = src/common/libcommon.la

# The ABI of <ltt/ltt-ctl.h> frozen, and the library's side of its rules
# (reserved room refused when set, zeroed when returned); the exported
# symbols and the internal types' boundary (doc/libltt-ctl.md).
check_PROGRAMS += tests/unit/ctl/test_abi
TESTS += tests/unit/ctl/test_abi tests/unit/ctl/test_abi_rules.sh
EXTRA_DIST += tests/unit/ctl/test_abi_rules.sh
tests_unit_ctl_test_abi_SOURCES = tests/unit/ctl/test_abi.c $(UNIT_TAP_SOURCES)
tests_unit_ctl_test_abi_LDADD = src/lib/ltt-ctl/libltt-ctl.la src/common/libcommon.la

# app-proto serializer and the CTF format proof (metadata from the
# sessiond's TSDL generator, read back by babeltrace2).
check_PROGRAMS += tests/unit/proto/test_app_proto tests/unit/trace/test_tsdl
TESTS += tests/unit/proto/test_app_proto tests/unit/trace/test_tsdl

tests_unit_proto_test_app_proto_SOURCES = tests/unit/proto/test_app_proto.c $(UNIT_REF_TP_SOURCES) \
	$(UNIT_TAP_SOURCES)
tests_unit_proto_test_app_proto_LDADD = src/common/libcommon.la
# Counts (and fails on request) the decoder's allocations: see the test.
tests_unit_proto_test_app_proto_LDFLAGS = -Wl,--wrap=malloc

# The app protocol's other messages, exact bytes and refusals.
check_PROGRAMS += tests/unit/proto/test_app_msgs
TESTS += tests/unit/proto/test_app_msgs
tests_unit_proto_test_app_msgs_SOURCES = tests/unit/proto/test_app_msgs.c $(UNIT_REF_TP_SOURCES) \
	$(UNIT_TAP_SOURCES)
tests_unit_proto_test_app_msgs_LDADD = src/common/libcommon.la

tests_unit_trace_test_tsdl_SOURCES = tests/unit/trace/test_tsdl.c tests/unit/tsdl-trace.c \
	tests/unit/tsdl-trace.h $(SESSIOND_META_SOURCES) $(UNIT_TAP_SOURCES)
tests_unit_trace_test_tsdl_LDADD = src/common/libcommon.la

# The metadata writers' text (meta.h): the kernel's descriptions, CTF 2's fragments.
check_PROGRAMS += tests/unit/trace/test_meta
TESTS += tests/unit/trace/test_meta
tests_unit_trace_test_meta_SOURCES = tests/unit/trace/test_meta.c tests/unit/tsdl-trace.c \
	tests/unit/tsdl-trace.h $(SESSIOND_META_SOURCES) $(UNIT_TAP_SOURCES)
tests_unit_trace_test_meta_LDADD = src/common/libcommon.la

# The app thread's cache of decoded TRACEPOINTS payloads (the decoder's calls counted).
check_PROGRAMS += tests/unit/sessiond/test_app_tpcache
TESTS += tests/unit/sessiond/test_app_tpcache
tests_unit_sessiond_test_app_tpcache_SOURCES = tests/unit/sessiond/test_app_tpcache.c \
	src/sessiond/app/app-tpcache.c $(UNIT_REF_TP_SOURCES) $(UNIT_TAP_SOURCES)
tests_unit_sessiond_test_app_tpcache_LDADD = src/common/libcommon.la
tests_unit_sessiond_test_app_tpcache_LDFLAGS = -Wl,--wrap=ltt_app_get_tracepoints

# Process trackers' inclusion sets (the daemon's, without a daemon).
check_PROGRAMS += tests/unit/sessiond/test_tracker
TESTS += tests/unit/sessiond/test_tracker
tests_unit_sessiond_test_tracker_SOURCES = tests/unit/sessiond/test_tracker.c src/sessiond/model/tracker.c \
	src/sessiond/model/tracker.h $(UNIT_TAP_SOURCES)
tests_unit_sessiond_test_tracker_LDADD = src/common/libcommon.la

# The kernel thread's loop, without the tracer (tests/kernel/ has the rest).
check_PROGRAMS += tests/unit/sessiond/test_kabi
TESTS += tests/unit/sessiond/test_kabi
tests_unit_sessiond_test_kabi_SOURCES = tests/unit/sessiond/test_kabi.c src/sessiond/kabi/kabi.c src/sessiond/kabi/kabi-ops.c src/sessiond/kabi/kabi.h src/sessiond/kabi/kabi-backend.h \
	src/sessiond/kabi/kabi-remote.c src/sessiond/priv/priv-link.c \
	src/sessiond/model/session-lock.c \
	src/sessiond/kabi/kabi-module.c \
	$(UNIT_TAP_SOURCES)
tests_unit_sessiond_test_kabi_LDADD = src/common/libcommon.la

# The kernel thread's operations forwarded to a forked privileged part
# (a fake tracer there): pointers, fds and the table's refusals.
check_PROGRAMS += tests/unit/sessiond/test_kabi_remote
TESTS += tests/unit/sessiond/test_kabi_remote
tests_unit_sessiond_test_kabi_remote_SOURCES = tests/unit/sessiond/test_kabi_remote.c \
	src/sessiond/kabi/kabi.c src/sessiond/kabi/kabi-ops.c src/sessiond/kabi/kabi.h src/sessiond/kabi/kabi-backend.h \
	src/sessiond/kabi/kabi-remote.c src/sessiond/kabi/kabi-remote.h src/sessiond/kabi/kabi-serve.c \
	src/sessiond/priv/priv-link.c src/sessiond/priv/priv.h src/sessiond/priv/priv-server.c \
	src/sessiond/model/session-lock.c $(UNIT_TAP_SOURCES)
tests_unit_sessiond_test_kabi_remote_LDADD = src/common/libcommon.la

# The privileged end of OWNER_FILES: paths outside the output refused,
# the job done with the owner's rights; once the daemon dropped root's
# rights, only for the owners of sessions admitted (OWNER_ADD), and so
# are chunk journals (JOURNAL_WRITE).
check_PROGRAMS += tests/unit/sessiond/test_chunk_owner
TESTS += tests/unit/sessiond/test_chunk_owner
tests_unit_sessiond_test_chunk_owner_SOURCES = tests/unit/sessiond/test_chunk_owner.c \
	src/sessiond/chunk/chunk-owner.c src/sessiond/chunk/chunk-owner.h \
	src/sessiond/chunk/chunk-journal.c src/sessiond/chunk/chunk-journal.h \
	src/sessiond/priv/priv-link.c src/sessiond/priv/priv.h $(UNIT_TAP_SOURCES)
tests_unit_sessiond_test_chunk_owner_LDADD = src/common/libcommon.la

# The shared-memory ring buffer: threads, forked writers, hostile regions.
check_PROGRAMS += tests/unit/trace/test_ringbuf
TESTS += tests/unit/trace/test_ringbuf

tests_unit_trace_test_ringbuf_SOURCES = tests/unit/trace/test_ringbuf.c $(UNIT_RB_SOURCES) \
	$(UNIT_TAP_SOURCES)
tests_unit_trace_test_ringbuf_LDADD = src/common/libcommon.la

# The ring buffer in overwrite mode: the newest data, lapping writers, torn copies.
check_PROGRAMS += tests/unit/trace/test_ringbuf_overwrite
TESTS += tests/unit/trace/test_ringbuf_overwrite
tests_unit_trace_test_ringbuf_overwrite_SOURCES = tests/unit/trace/test_ringbuf_overwrite.c \
	$(UNIT_RB_SOURCES) $(UNIT_TAP_SOURCES)
tests_unit_trace_test_ringbuf_overwrite_LDADD = src/common/libcommon.la

# The ring buffer against a hostile region: lies, then random scribbling.
check_PROGRAMS += tests/unit/trace/test_ringbuf_hostile
TESTS += tests/unit/trace/test_ringbuf_hostile
tests_unit_trace_test_ringbuf_hostile_SOURCES = tests/unit/trace/test_ringbuf_hostile.c \
	$(UNIT_RB_SOURCES) $(UNIT_TAP_SOURCES)
tests_unit_trace_test_ringbuf_hostile_LDADD = src/common/libcommon.la

# Writers killed between reserve and commit: the reader's repair.
check_PROGRAMS += tests/unit/trace/test_ringbuf_torn
TESTS += tests/unit/trace/test_ringbuf_torn
tests_unit_trace_test_ringbuf_torn_SOURCES = tests/unit/trace/test_ringbuf_torn.c $(UNIT_TAP_SOURCES)
tests_unit_trace_test_ringbuf_torn_LDADD = src/common/libcommon.la

# The reader's wakeups, each interleaving played in one thread.
check_PROGRAMS += tests/unit/trace/test_ringbuf_blocking
TESTS += tests/unit/trace/test_ringbuf_blocking
tests_unit_trace_test_ringbuf_blocking_SOURCES = tests/unit/trace/test_ringbuf_blocking.c $(UNIT_TAP_SOURCES)
tests_unit_trace_test_ringbuf_blocking_LDADD = src/common/libcommon.la -lpthread
check_PROGRAMS += tests/unit/trace/test_ringbuf_wakeup
TESTS += tests/unit/trace/test_ringbuf_wakeup
tests_unit_trace_test_ringbuf_wakeup_SOURCES = tests/unit/trace/test_ringbuf_wakeup.c $(UNIT_TAP_SOURCES)
tests_unit_trace_test_ringbuf_wakeup_LDADD = src/common/libcommon.la

# The checks libltt-ctl and the session daemon share: their codes, and the library's negation.
# Probe locations, SDT arguments and ELF offsets (common/probe/probe-loc.c, elf-probe.c).
check_PROGRAMS += tests/unit/base/test_probe_loc
TESTS += tests/unit/base/test_probe_loc
tests_unit_base_test_probe_loc_SOURCES = tests/unit/base/test_probe_loc.c $(UNIT_TAP_SOURCES)
tests_unit_base_test_probe_loc_LDADD = src/common/libcommon.la

check_PROGRAMS += tests/unit/ctl/test_attr
TESTS += tests/unit/ctl/test_attr
tests_unit_ctl_test_attr_SOURCES = tests/unit/ctl/test_attr.c $(UNIT_TAP_SOURCES)
tests_unit_ctl_test_attr_LDADD = src/lib/ltt-ctl/libltt-ctl.la src/common/libcommon.la

# LTTng's words for the model's enums, which lttctl's MI and the LTTng
# session format share (common/model/lttng-words.c).
check_PROGRAMS += tests/unit/ctl/test_lttng_words
TESTS += tests/unit/ctl/test_lttng_words
tests_unit_ctl_test_lttng_words_SOURCES = tests/unit/ctl/test_lttng_words.c $(UNIT_TAP_SOURCES)
tests_unit_ctl_test_lttng_words_LDADD = src/common/libcommon.la

check_PROGRAMS += tests/unit/ctl/test_trigger_flags
TESTS += tests/unit/ctl/test_trigger_flags
tests_unit_ctl_test_trigger_flags_SOURCES = tests/unit/ctl/test_trigger_flags.c $(UNIT_TAP_SOURCES) \
	$(UNIT_FAKE_SESSIOND_SOURCES)
tests_unit_ctl_test_trigger_flags_LDADD = src/lib/ltt-ctl/libltt-ctl.la src/common/libcommon.la
# ltt_ctl_list_triggers@LTT_CTL_1.4: what a program built before more_captures gets.
check_PROGRAMS += tests/unit/ctl/test_trigger_list_old
TESTS += tests/unit/ctl/test_trigger_list_old
tests_unit_ctl_test_trigger_list_old_SOURCES = tests/unit/ctl/test_trigger_list_old.c $(UNIT_TAP_SOURCES) \
	$(UNIT_FAKE_SESSIOND_SOURCES)
tests_unit_ctl_test_trigger_list_old_LDADD = src/lib/ltt-ctl/libltt-ctl.la src/common/libcommon.la

# The python domain: a rule's filter, Python's levels, AGENT_RULES.
check_PROGRAMS += tests/unit/sessiond/test_agent
TESTS += tests/unit/sessiond/test_agent
tests_unit_sessiond_test_agent_SOURCES = tests/unit/sessiond/test_agent.c $(UNIT_TAP_SOURCES)
tests_unit_sessiond_test_agent_LDADD = src/common/libcommon.la

# The clock of user-space events: its choice, offset, calibration, and TSC streams.
check_PROGRAMS += tests/unit/trace/test_tclock
TESTS += tests/unit/trace/test_tclock
tests_unit_trace_test_tclock_SOURCES = tests/unit/trace/test_tclock.c $(UNIT_RB_SOURCES) $(UNIT_TAP_SOURCES)
tests_unit_trace_test_tclock_LDADD = src/common/libcommon.la

# The non-consuming read of snapshots.
check_PROGRAMS += tests/unit/trace/test_ringbuf_snapshot
TESTS += tests/unit/trace/test_ringbuf_snapshot
tests_unit_trace_test_ringbuf_snapshot_SOURCES = tests/unit/trace/test_ringbuf_snapshot.c $(UNIT_TAP_SOURCES)
tests_unit_trace_test_ringbuf_snapshot_LDADD = src/common/libcommon.la

# libltt-ust and <ltt/tracepoint.h>.  test_tracepoint_ser plays the daemon
# in-process (src/ust/ust-internal.h) and checks the bytes written;
# test_tracepoint runs test_tracepoint_app (linked to the shared library)
# against a fake daemon.  The plugin is a dlopen()ed module with
# tracepoints of its own.
check_LTLIBRARIES = tests/unit/ust/test_tracepoint_plugin.la
tests_unit_ust_test_tracepoint_plugin_la_SOURCES = tests/unit/ust/test_tracepoint_plugin.c
tests_unit_ust_test_tracepoint_plugin_la_LDFLAGS = -module -avoid-version -shared \
	-rpath $(abs_builddir)/tests/unit/ust

check_PROGRAMS += tests/unit/ust/test_tracepoint_ser
TESTS += tests/unit/ust/test_tracepoint_ser
tests_unit_ust_test_tracepoint_ser_SOURCES = tests/unit/ust/test_tracepoint_ser.c $(UNIT_TAP_SOURCES) \
	$(UNIT_UST_RINGS_SOURCES)
tests_unit_ust_test_tracepoint_ser_LDADD = src/ust/libust.la
# The plugin finds libltt-ust's entry points in the program.
tests_unit_ust_test_tracepoint_ser_LDFLAGS = -export-dynamic

# The stream each event goes to, with threads and CPUs, the same way.
check_PROGRAMS += tests/unit/ust/test_tracepoint_cpu
TESTS += tests/unit/ust/test_tracepoint_cpu
tests_unit_ust_test_tracepoint_cpu_SOURCES = tests/unit/ust/test_tracepoint_cpu.c $(UNIT_TAP_SOURCES) \
	$(UNIT_UST_RINGS_SOURCES)
tests_unit_ust_test_tracepoint_cpu_LDADD = src/ust/libust.la

# A signal handler recording while a thread's record index is taken: the
# program replaces pthread_setspecific() for the library linked into it.
check_PROGRAMS += tests/unit/ust/test_ust_wrec
TESTS += tests/unit/ust/test_ust_wrec
tests_unit_ust_test_ust_wrec_SOURCES = tests/unit/ust/test_ust_wrec.c $(UNIT_TAP_SOURCES) \
	$(UNIT_UST_RINGS_SOURCES)
tests_unit_ust_test_ust_wrec_LDADD = src/ust/libust.la

# The fds libltt-ust keeps open from a program's close (fds.c).
check_PROGRAMS += tests/unit/ust/test_ust_fds
TESTS += tests/unit/ust/test_ust_fds
tests_unit_ust_test_ust_fds_SOURCES = tests/unit/ust/test_ust_fds.c $(UNIT_TAP_SOURCES)
tests_unit_ust_test_ust_fds_LDADD = src/ust/libust.la

check_PROGRAMS += tests/unit/ust/test_tracepoint tests/unit/ust/test_tracepoint_app
TESTS += tests/unit/ust/test_tracepoint
tests_unit_ust_test_tracepoint_SOURCES = tests/unit/ust/test_tracepoint.c $(UNIT_TAP_SOURCES) \
	tests/unit/fake-app.c tests/unit/fake-app.h
tests_unit_ust_test_tracepoint_LDADD = src/common/libcommon.la
tests_unit_ust_test_tracepoint_app_SOURCES = tests/unit/ust/test_tracepoint_app.c
tests_unit_ust_test_tracepoint_app_LDADD = src/ust/libltt-ust.la

# Filters in libltt-ust (EVENT_FILTER): the same fake daemon sends
# compiled and hostile programs to test_tracepoint_app over app.sock.
check_PROGRAMS += tests/unit/ust/test_ust_filter
TESTS += tests/unit/ust/test_ust_filter
tests_unit_ust_test_ust_filter_SOURCES = tests/unit/ust/test_ust_filter.c $(UNIT_TAP_SOURCES) \
	tests/unit/fake-app.c tests/unit/fake-app.h
tests_unit_ust_test_ust_filter_LDADD = src/common/libcommon.la

# Filters and the tracepoint ABI, in-process (ust-internal.h): the state
# bit, a reserve without arguments, ltt_tracef() filtered, an ABI 1
# descriptor.
check_PROGRAMS += tests/unit/ust/test_ust_filter_abi
TESTS += tests/unit/ust/test_ust_filter_abi
tests_unit_ust_test_ust_filter_abi_SOURCES = tests/unit/ust/test_ust_filter_abi.c \
	tests/unit/ust-filter.c tests/unit/ust-filter.h $(UNIT_TAP_SOURCES)
tests_unit_ust_test_ust_filter_abi_LDADD = src/ust/libust.la

# The tracer's read-side critical sections and grace periods (rcu.c):
# readers racing a writer that frees, nesting in signal handlers, threads
# that come and go, fork().
check_PROGRAMS += tests/unit/ust/test_ust_rcu
TESTS += tests/unit/ust/test_ust_rcu
tests_unit_ust_test_ust_rcu_SOURCES = tests/unit/ust/test_ust_rcu.c $(UNIT_TAP_SOURCES)
tests_unit_ust_test_ust_rcu_LDADD = src/ust/libust.la

# Notifiers (triggers), in-process (ust-internal.h): what a matching event
# writes on a real pipe, its captures, filters, a full pipe, removal.
check_PROGRAMS += tests/unit/ust/test_ust_notify
TESTS += tests/unit/ust/test_ust_notify
tests_unit_ust_test_ust_notify_SOURCES = tests/unit/ust/test_ust_notify.c tests/unit/notify-socket.c \
	tests/unit/notify-socket.h tests/unit/ust-filter.c tests/unit/ust-filter.h $(UNIT_TAP_SOURCES)
tests_unit_ust_test_ust_notify_LDADD = src/ust/libust.la -lpthread

# Map channels: the daemon's registry and the counters libltt-ust adds
# to in its areas (COUNTER_ADD, in-process): exact counts per key.
check_PROGRAMS += tests/unit/ust/test_map
TESTS += tests/unit/ust/test_map
tests_unit_ust_test_map_SOURCES = tests/unit/ust/test_map.c src/sessiond/model/map.c \
	src/sessiond/model/map.h $(UNIT_TAP_SOURCES)
tests_unit_ust_test_map_LDADD = src/ust/libust.la -lpthread

# Notifiers through app.sock: the fake daemon sends NOTIFIER_ADD and
# NOTIFIER_REMOVE with real pipes to test_tracepoint_app.
check_PROGRAMS += tests/unit/ust/test_ust_notify_app
TESTS += tests/unit/ust/test_ust_notify_app
tests_unit_ust_test_ust_notify_app_SOURCES = tests/unit/ust/test_ust_notify_app.c $(UNIT_TAP_SOURCES) \
	tests/unit/fake-app.c tests/unit/fake-app.h
tests_unit_ust_test_ust_notify_app_LDADD = src/common/libcommon.la

# ltt-consumerd's file sink through the sink interface (its own sources,
# compiled in): memory and splice() paths, read back from the files.
check_PROGRAMS += tests/unit/consumerd/test_sink_file
TESTS += tests/unit/consumerd/test_sink_file
tests_unit_consumerd_test_sink_file_SOURCES = tests/unit/consumerd/test_sink_file.c $(UNIT_TAP_SOURCES) \
	src/consumerd/sink/sink.c src/consumerd/sink/sink-file.c src/consumerd/sink/fs.c
tests_unit_consumerd_test_sink_file_LDADD = src/common/libcommon.la

# ltt-consumerd's relay output against a fake relay on loopback.
check_PROGRAMS += tests/unit/consumerd/test_sink_relay
TESTS += tests/unit/consumerd/test_sink_relay
tests_unit_consumerd_test_sink_relay_SOURCES = tests/unit/consumerd/test_sink_relay.c $(UNIT_TAP_SOURCES) \
	tests/unit/fake-relay.c tests/unit/fake-relay.h \
	src/consumerd/sink/sink.c src/consumerd/sink/sink-relay.c \
	src/consumerd/relay/relay-link.c src/consumerd/relay/relay-session.c \
	src/consumerd/relay/relay-archive.c src/consumerd/relay/relay-queue.c \
	src/consumerd/relay/relay-reconcile.c
tests_unit_consumerd_test_sink_relay_LDADD = src/common/libnet.la src/common/libcommon.la

# A consumer stream between its seams: the real ust source, a test sink
# that can say it would block.
check_PROGRAMS += tests/unit/consumerd/test_stream
TESTS += tests/unit/consumerd/test_stream
tests_unit_consumerd_test_stream_SOURCES = tests/unit/consumerd/test_stream.c $(UNIT_TAP_SOURCES) \
	src/consumerd/trace/stream.c src/consumerd/source/source.c \
	src/consumerd/source/source-ust.c src/consumerd/sink/sink.c
tests_unit_consumerd_test_stream_LDADD = src/common/libcommon.la

# A source's ledger in its stream's slot: what a consumer taking a
# stream over carries from a dead one.
check_PROGRAMS += tests/unit/consumerd/test_source_ledger
TESTS += tests/unit/consumerd/test_source_ledger
tests_unit_consumerd_test_source_ledger_SOURCES = tests/unit/consumerd/test_source_ledger.c \
	$(UNIT_TAP_SOURCES) src/consumerd/source/source.c
tests_unit_consumerd_test_source_ledger_LDADD = src/common/libcommon.la

# The relay daemon's model (sessions, streams, pairing, rotation, the
# live server's read interface) without sockets.
# The relay's journal of the session directories it writes, and the
# recovery of a dead relay's.
check_PROGRAMS += tests/unit/relayd/test_relay_journal
TESTS += tests/unit/relayd/test_relay_journal
tests_unit_relayd_test_relay_journal_SOURCES = tests/unit/relayd/test_relay_journal.c $(UNIT_TAP_SOURCES) \
	src/relayd/journal.c src/relayd/journal.h
tests_unit_relayd_test_relay_journal_LDADD = src/common/libcommon.la

check_PROGRAMS += tests/unit/relayd/test_relay_model
TESTS += tests/unit/relayd/test_relay_model
tests_unit_relayd_test_relay_model_SOURCES = tests/unit/relayd/test_relay_model.c $(UNIT_TAP_SOURCES) \
	src/relayd/model.c src/relayd/session.c src/relayd/stream.c src/relayd/stream-files.c src/relayd/registry.c \
	src/relayd/journal.c src/relayd/journal.h \
	src/relayd/reconcile.c
tests_unit_relayd_test_relay_model_LDADD = src/common/libcommon.la

# The daemon's side of kernel filters: rule matching as the kernel domain
# uses it, and the refusals of what the kernel tracer can't run.
check_PROGRAMS += tests/unit/filter/test_kernel_filter
TESTS += tests/unit/filter/test_kernel_filter
tests_unit_filter_test_kernel_filter_SOURCES = tests/unit/filter/test_kernel_filter.c \
	src/sessiond/kernel/kernel-filter.c src/sessiond/kernel/kernel-filter.h \
	src/sessiond/model/rule-filter.c src/sessiond/model/rule-filter.h \
	src/sessiond/kabi/kabi.c src/sessiond/kabi/kabi-ops.c src/sessiond/kabi/kabi.h src/sessiond/kabi/kabi-backend.h \
	src/sessiond/kabi/kabi-remote.c src/sessiond/priv/priv-link.c \
	src/sessiond/kabi/kabi-module.c src/sessiond/model/session-lock.c $(UNIT_TAP_SOURCES)
tests_unit_filter_test_kernel_filter_LDADD = src/common/libcommon.la

# The kernel's own trace events (tracefs): format files parsed (known
# texts, refusals, fuzzing, and every format file of the running kernel
# where tracefs can be reached), and ring-buffer pages converted into CTF
# packets (synthetic pages; as root, a private instance read back by
# babeltrace2).  The shared part finds or mounts tracefs.
UNIT_TRACEFS_SOURCES = tests/unit/tracefs-util.c tests/unit/tracefs-util.h
check_PROGRAMS += tests/unit/ftrace/test_ftrace_format tests/unit/ftrace/test_ftrace_conv \
	tests/unit/ftrace/test_ftrace_filter tests/unit/ftrace/test_ftrace_prefilter tests/unit/ftrace/test_ftrace_tasks \
	tests/unit/ftrace/test_ftrace_names
TESTS += tests/unit/ftrace/test_ftrace_format tests/unit/ftrace/test_ftrace_conv tests/unit/ftrace/test_ftrace_filter \
	tests/unit/ftrace/test_ftrace_prefilter tests/unit/ftrace/test_ftrace_tasks tests/unit/ftrace/test_ftrace_names
tests_unit_ftrace_test_ftrace_format_SOURCES = tests/unit/ftrace/test_ftrace_format.c \
	$(SESSIOND_META_SOURCES) $(UNIT_TRACEFS_SOURCES) $(UNIT_TAP_SOURCES)
tests_unit_ftrace_test_ftrace_format_LDADD = src/common/libcommon.la
tests_unit_ftrace_test_ftrace_conv_SOURCES = tests/unit/ftrace/test_ftrace_conv.c \
	tests/unit/ftrace/test_ftrace_real.c tests/unit/ftrace-pages.c tests/unit/ftrace-pages.h \
	$(SESSIOND_META_SOURCES) $(UNIT_TRACEFS_SOURCES) $(UNIT_TAP_SOURCES)
tests_unit_ftrace_test_ftrace_conv_LDADD = src/common/libcommon.la
tests_unit_ftrace_test_ftrace_filter_SOURCES = tests/unit/ftrace/test_ftrace_filter.c \
	tests/unit/ftrace-pages.c tests/unit/ftrace-pages.h $(UNIT_TAP_SOURCES)
tests_unit_ftrace_test_ftrace_filter_LDADD = src/common/libcommon.la
tests_unit_ftrace_test_ftrace_prefilter_SOURCES = tests/unit/ftrace/test_ftrace_prefilter.c \
	tests/unit/ftrace-pages.c tests/unit/ftrace-pages.h $(UNIT_TAP_SOURCES)
tests_unit_ftrace_test_ftrace_prefilter_LDADD = src/common/libcommon.la
tests_unit_ftrace_test_ftrace_tasks_SOURCES = tests/unit/ftrace/test_ftrace_tasks.c $(UNIT_TAP_SOURCES)
tests_unit_ftrace_test_ftrace_tasks_LDADD = src/common/libcommon.la
tests_unit_ftrace_test_ftrace_names_SOURCES = tests/unit/ftrace/test_ftrace_names.c $(UNIT_TAP_SOURCES)
tests_unit_ftrace_test_ftrace_names_LDADD = src/common/libcommon.la
