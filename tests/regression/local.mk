# tests/regression: real daemons in private run directories, driven by lttctl.
# One folder an area, its tests named test_AREA_*: cli/ (lttctl's commands,
# messages, MI, docs), sessiond/ (the session daemon: clients, protocol,
# limits, privileges, its house), ust/ (user-space tracing end to end),
# kernel/ (tracefs), relay/ (ltt-relayd, streaming, live), rotation/
# (rotation, clear, snapshot), trigger/, lttng/ (LTTng's command lines,
# agents, liblttng-ust and saved sessions), saveload/, python/ and
# consumerd/ (ltt-consumerd against a fake session daemon) and harness/
# (the suite's own machinery).  What they
# share stays here: lib.sh (sourced by every test as
# "$LTT_TOP_SRCDIR/tests/regression/lib.sh"), the AREA-lib.sh files, the
# helper programs and the fixtures.  Tests never sleep to wait: they
# wait, bounded by $TEST_TIMEOUT, on a socket, a FIFO, a process (tail
# --pid) or a file, a directory or a log, with lib.sh's wait_fs (fswait.c:
# inotify) or wait_for (tail -F); what none of those tells (a process's
# stopped state, a socket's queue, a thread count) is read again in a
# loop bounded by timeout.

# The control plane: lttctl and a real ltt-sessiond per test.
REGRESSION_CTL_TESTS = \
	tests/regression/cli/test_cli_done_when.sh \
	tests/regression/cli/test_cli_sessions.sh \
	tests/regression/cli/test_cli_errors.sh \
	tests/regression/cli/test_cli_refused.sh \
	tests/regression/kernel/test_kernel_tracefs.sh \
	tests/regression/kernel/test_kernel_tracefs_outputs.sh \
	tests/regression/kernel/test_kernel_tracefs_track.sh \
	tests/regression/kernel/test_kernel_tracefs_uprobe.sh \
	tests/regression/saveload/test_saveload_probe.sh \
	tests/regression/kernel/test_kernel_tracefs_kprobe.sh \
	tests/regression/kernel/test_kernel_tracefs_map.sh \
	tests/regression/kernel/test_kernel_tracefs_fork.sh \
	tests/regression/kernel/test_kernel_tracefs_ctf2.sh \
	tests/regression/kernel/test_kernel_tracefs_procname.sh \
	tests/regression/kernel/test_kernel_tracefs_refused.sh \
	tests/regression/kernel/test_kernel_tracefs_layout.sh \
	tests/regression/kernel/test_kernel_tracefs_mem.sh \
	tests/regression/kernel/test_kernel_tracefs_block.sh \
	tests/regression/kernel/test_kernel_tracefs_statedump.sh \
	tests/regression/kernel/test_kernel_tracefs_filter.sh \
	tests/regression/kernel/test_kernel_tracefs_snapshot.sh \
	tests/regression/kernel/test_kernel_tracefs_triggers.sh \
	tests/regression/kernel/test_kernel_tracefs_probe_trigger.sh \
	tests/regression/kernel/test_kernel_tracefs_trigger_flood.sh \
	tests/regression/kernel/test_kernel_tracefs_takeover.sh \
	tests/regression/kernel/test_kernel_tracefs_analyses.sh \
	tests/regression/kernel/test_kernel_tracefs_switches.sh \
	tests/regression/kernel/test_kernel_tracefs_span.sh \
	tests/regression/kernel/test_kernel_bpf_source.sh \
	tests/regression/kernel/test_kernel_bpf_syscalls.sh \
	tests/regression/kernel/test_kernel_bpf_payloads.sh \
	tests/regression/kernel/test_kernel_bpf_analyses.sh \
	tests/regression/kernel/test_kmod_generate.sh \
	tests/regression/lttng/test_lttng_spellings.sh \
	tests/regression/lttng/test_lttng_options.sh \
	tests/regression/sessiond/test_sessiond_daemon.sh \
	tests/regression/sessiond/test_sessiond_clients.sh \
	tests/regression/sessiond/test_sessiond_client_budget.sh \
	tests/regression/sessiond/test_sessiond_protocol.sh \
	tests/regression/sessiond/test_sessiond_permissions.sh \
	tests/regression/cli/test_cli_view.sh \
	tests/regression/sessiond/test_sessiond_limits.sh \
	tests/regression/sessiond/test_sessiond_deadlines.sh \
	tests/regression/relay/test_relay_create.sh \
	tests/regression/sessiond/test_sessiond_timer_min.sh \
	tests/regression/sessiond/test_sessiond_session_owners.sh \
	tests/regression/cli/test_cli_deadline.sh \
	tests/regression/sessiond/test_sessiond_concurrent_create.sh \
	tests/regression/sessiond/test_sessiond_crash_state.sh \
	tests/regression/cli/test_cli_docs.sh \
	tests/regression/cli/test_cli_completion.sh \
	tests/regression/trigger/test_trigger_cli.sh \
	tests/regression/trigger/test_trigger_mi.sh \
	tests/regression/sessiond/test_sessiond_client_idle.sh \
	tests/regression/cli/test_cli_make_install.sh \
	tests/regression/cli/test_cli_tls_module.sh \
	tests/regression/sessiond/test_sessiond_notify.sh \
	tests/regression/python/test_python_ctl.sh \
	tests/regression/python/test_python_agent.sh \
	tests/regression/python/test_python_agent_fields.sh \
	tests/regression/python/test_python_agent_list.sh \
	tests/regression/lttng/test_lttng_agent.sh \
	tests/regression/lttng/test_lttng_agent_limits.sh \
	tests/regression/lttng/test_lttng_agent_pid.sh \
	tests/regression/lttng/test_lttng_agent_reach.sh \
	tests/regression/lttng/test_lttng_java.sh \
	tests/regression/lttng/test_lttng_agent_record.sh \
	tests/regression/lttng/test_lttng_java_record.sh \
	tests/regression/trigger/test_trigger_e2e.sh \
	tests/regression/trigger/test_trigger_captures.sh \
	tests/regression/trigger/test_trigger_capture_arrays.sh \
	tests/regression/trigger/test_trigger_limit.sh \
	tests/regression/trigger/test_trigger_map.sh \
	tests/regression/trigger/test_trigger_testpoint.sh \
	tests/regression/trigger/test_trigger_list_wait.sh
TESTS += $(REGRESSION_CTL_TESTS)
EXTRA_DIST += $(REGRESSION_CTL_TESTS) tests/regression/lib.sh tests/regression/notify_listen.py \
	tests/regression/python_ctl.py tests/regression/python_agent_app.py \
	tests/regression/python_agent_fields.py \
	tests/regression/lttng_agent_app.py tests/regression/lttng_agent_record.py \
	tests/regression/lttng_agent_fake.py tests/regression/agent-fake-lib.sh \
	tests/regression/java/LttngJavaApp.java \
	tests/regression/kload-lib.sh

# The session daemon's folders held against their map (sessiond.h).
TESTS += tests/regression/sessiond/test_sessiond_layers.sh
# The suite's bound on one test's wall-clock time (tests/wall-limit.sh).
TESTS += tests/regression/harness/test_harness_wall_limit.sh
EXTRA_DIST += tests/regression/harness/test_harness_wall_limit.sh tests/wall-limit.sh
# lib.sh's wait_fs: true when the file appears, false at its bound, idle between.
TESTS += tests/regression/harness/test_harness_fswait.sh
EXTRA_DIST += tests/regression/harness/test_harness_fswait.sh
EXTRA_DIST += tests/regression/lttng-ust/compat_tp.tp tests/regression/lttng-ust/compat_tp_b.tp \
	tests/regression/lttng-ust/compat_app.c tests/regression/lttng-ust/own_app.c tests/regression/lttng-ust/blob_tp.h \
	tests/regression/lttng-ust/blob_app.c \
	tests/regression/lttng-ust/dup_app.c tests/regression/lttng-ust/race_tp.h \
	tests/regression/lttng-ust/race_probe.c tests/regression/lttng-ust/race_app.c \
	tests/regression/lttng-ust/helper_app.c tests/regression/lttng-ust/helper_lib.c \
	tests/regression/lttng-ust/multi_app.c
EXTRA_DIST += tests/regression/sessiond/test_sessiond_layers.sh tests/regression/sessiond-layers.py

# Save and load (lttctl save/load, ltt-sessiond --load): real daemons, a
# traced program, and a set of small bad configuration files.
TESTS += tests/regression/saveload/test_saveload.sh tests/regression/saveload/test_saveload_life.sh
TESTS += tests/regression/rotation/test_rotation_clear_pid.sh tests/regression/rotation/test_rotation_fault.sh
EXTRA_DIST += tests/regression/rotation/test_rotation_clear_pid.sh tests/regression/rotation/test_rotation_fault.sh
EXTRA_DIST += tests/regression/saveload/test_saveload.sh tests/regression/saveload/test_saveload_life.sh tests/regression/saveload
# libxml2 only where XML is used: the XML module of save and load
# (src/lib/ltt-ctl/config/config-module.h), no other command loads it.
TESTS += tests/regression/saveload/test_saveload_xml_module.sh
EXTRA_DIST += tests/regression/saveload/test_saveload_xml_module.sh
# LTTng's saved sessions (.lttng): files Debian's lttng save writes here, and
# fixtures (a kernel session, what ltt lacks).
TESTS += tests/regression/lttng/test_lttng_load.sh
EXTRA_DIST += tests/regression/lttng/test_lttng_load.sh tests/regression/saveload-lttng
# lttng-tools 2.13.9's own tests that pass whole against ltt, run by
# tests/lttng-tools/run.sh from Debian's lttng-tools source.
TESTS += tests/regression/lttng/test_lttng_tools_suite.sh
EXTRA_DIST += tests/regression/lttng/test_lttng_tools_suite.sh \
	tests/lttng-tools/run.sh tests/lttng-tools/run-sid.sh tests/lttng-tools/fetch-src.sh
# run.sh killed leaves no process of its test (its namespace dies with it).
TESTS += tests/regression/lttng/test_lttng_tools_kill.sh
EXTRA_DIST += tests/regression/lttng/test_lttng_tools_kill.sh
EXTRA_DIST += tests/regression/lttng-mi

# Event rule filters and exclusions (issue 10): lttctl, the wire, counts.
TESTS += tests/regression/cli/test_cli_filter.sh tests/regression/ust/test_ust_filter_e2e.sh
EXTRA_DIST += tests/regression/cli/test_cli_filter.sh tests/regression/ust/test_ust_filter_e2e.sh

# LTTng's test point pausing programs' notifications, LD_PRELOADed into
# ltt-sessiond (test_trigger_testpoint.sh; common/base/testpoint.h).
check_LTLIBRARIES += tests/regression/trigger/testpoint_pause.la
tests_regression_trigger_testpoint_pause_la_SOURCES = tests/regression/trigger/testpoint_pause.c
tests_regression_trigger_testpoint_pause_la_LDFLAGS = -module -avoid-version -shared \
	-rpath $(abs_builddir)/tests/regression/trigger

# Something listening where a relay would: a relay's VERSION answer, an
# old one, garbage, or silence (test_relay_create.sh).
check_PROGRAMS += tests/regression/relay_stub
tests_regression_relay_stub_SOURCES = tests/regression/relay_stub.c

# Many app.sock connections that stall, lie or flood (test_sessiond_bounds.sh).
check_PROGRAMS += tests/regression/peer_hold
tests_regression_peer_hold_SOURCES = tests/regression/peer_hold.c
tests_regression_peer_hold_LDADD = src/common/libcommon.la

# A scripted client that speaks the client protocol badly on purpose.
check_PROGRAMS += tests/regression/proto_client
tests_regression_proto_client_SOURCES = tests/regression/proto_client.c
tests_regression_proto_client_LDADD = src/common/libcommon.la

# A known kernel load: system calls and context switches
# (test_kernel_tracefs.sh, test_kernel_tracefs_track.sh).
check_PROGRAMS += tests/regression/kload
tests_regression_kload_SOURCES = tests/regression/kload.c
tests_regression_kload_LDADD = -lpthread
# A program probed from outside (test_kernel_tracefs_uprobe.sh): an ELF
# function, SDT probes (<sys/sdt.h>, systemtap-sdt-dev) with and without
# a semaphore, libc's getppid.
check_PROGRAMS += tests/regression/uprobe_prog
tests_regression_uprobe_prog_SOURCES = tests/regression/uprobe_prog.c \
	tests/regression/uprobe_guarded.c tests/regression/uprobe_prog.h

# Waits on files without polling: lib.sh's wait_fs (test_harness_fswait.sh).
check_PROGRAMS += tests/regression/fswait
tests_regression_fswait_SOURCES = tests/regression/fswait.c

# One libltt-ctl connection used across the daemon's idle deadline.
check_PROGRAMS += tests/regression/ctl_idle
tests_regression_ctl_idle_SOURCES = tests/regression/ctl_idle.c
tests_regression_ctl_idle_LDADD = src/lib/ltt-ctl/libltt-ctl.la

# ltt-relayd: its life and options, streams written as local traces are,
# bad input on every port, limits and deadlines.
REGRESSION_RELAYD_TESTS = \
	tests/regression/relay/test_relay_daemon.sh \
	tests/regression/relay/test_relay_replay_stream.sh \
	tests/regression/relay/test_relay_bad_input.sh \
	tests/regression/relay/test_relay_ratelimit.sh \
	tests/regression/relay/test_relay_limits.sh \
	tests/regression/relay/test_relay_fuzz.sh
TESTS += $(REGRESSION_RELAYD_TESTS)
EXTRA_DIST += $(REGRESSION_RELAYD_TESTS) tests/regression/relayd-lib.sh \
	tests/regression/tls-lib.sh tests/regression/tcp_tap.py

# A consumer's side of the relay protocol, for the ltt-relayd tests.
check_PROGRAMS += tests/regression/relay_client
tests_regression_relay_client_SOURCES = tests/regression/relay_client.c
tests_regression_relay_client_LDADD = src/common/libcommon.la

# Seeded hostile input on the relay's three ports (test_relay_fuzz.sh).
check_PROGRAMS += tests/regression/relay_fuzz
tests_regression_relay_fuzz_SOURCES = tests/regression/relay_fuzz.c
tests_regression_relay_fuzz_LDADD = src/common/libcommon.la

# The live viewer port driven by babeltrace2's lttng-live source, fed by a
# scripted consumer that sends a synthetic trace step by step.
check_PROGRAMS += tests/regression/relay_feed
tests_regression_relay_feed_SOURCES = tests/regression/relay_feed.c
tests_regression_relay_feed_LDADD = src/common/libcommon.la
TESTS += tests/regression/relay/test_relay_live.sh
EXTRA_DIST += tests/regression/relay/test_relay_live.sh tests/regression/live-lib.sh
# Every status and flag of the live port, request by request.
check_PROGRAMS += tests/regression/live_probe
tests_regression_live_probe_SOURCES = tests/regression/live_probe.c
tests_regression_live_probe_LDADD = src/common/libcommon.la
TESTS += tests/regression/relay/test_relay_live_proto.sh
EXTRA_DIST += tests/regression/relay/test_relay_live_proto.sh
# A GET_NEXT_INDEX with nothing new is held until its stream moves.
TESTS += tests/regression/relay/test_relay_live_hold.sh
EXTRA_DIST += tests/regression/relay/test_relay_live_hold.sh
# A live session's events are sent between live ticks.
TESTS += tests/regression/relay/test_relay_live_early.sh
EXTRA_DIST += tests/regression/relay/test_relay_live_early.sh
# A real ltt trace streamed by relay_client, read live by babeltrace2.
TESTS += tests/regression/relay/test_relay_live_replay.sh
EXTRA_DIST += tests/regression/relay/test_relay_live_replay.sh
# The whole live chain: sessiond, consumer, relay, two babeltrace2 viewers
# of the example program (needs examples/hello).
TESTS += tests/regression/relay/test_relay_live_e2e.sh
EXTRA_DIST += tests/regression/relay/test_relay_live_e2e.sh
TESTS += tests/regression/relay/test_relay_ctf2.sh
EXTRA_DIST += tests/regression/relay/test_relay_ctf2.sh
# The tree built in a Debian 13 root with its gcc 14 (and the unit tests
# and a user-space subset run there) and its clang 19 (issue 75).
TESTS += tests/regression/build/test_build_trixie.sh \
	tests/regression/build/test_symbols.sh tests/regression/build/test_deb_trixie.sh
EXTRA_DIST += tests/regression/build/test_build_trixie.sh \
	tests/regression/build/test_symbols.sh tests/regression/build/test_deb_trixie.sh

# ltt-consumerd against a fake session daemon: memfd ring buffers, real
# consumer, files checked packet by packet.
CONSUMERD_HARNESS_SOURCES = tests/regression/consumerd/consumerd-harness.c \
	tests/regression/consumerd/consumerd-harness.h tests/unit/tap.c tests/unit/tap.h
check_PROGRAMS += tests/regression/consumerd/test_consumerd
TESTS += tests/regression/consumerd/test_consumerd
tests_regression_consumerd_test_consumerd_SOURCES = tests/regression/consumerd/test_consumerd.c \
	$(CONSUMERD_HARNESS_SOURCES)
tests_regression_consumerd_test_consumerd_LDADD = src/common/libcommon.la
# Its relay output against a real ltt-relayd on loopback.
check_PROGRAMS += tests/regression/consumerd/test_consumerd_relay
TESTS += tests/regression/consumerd/test_consumerd_relay
tests_regression_consumerd_test_consumerd_relay_SOURCES = tests/regression/consumerd/test_consumerd_relay.c \
	$(CONSUMERD_HARNESS_SOURCES)
tests_regression_consumerd_test_consumerd_relay_LDADD = src/common/libcommon.la
# Its data threads: a channel's streams spread over several (--data-threads).
check_PROGRAMS += tests/regression/consumerd/test_consumerd_threads
TESTS += tests/regression/consumerd/test_consumerd_threads
tests_regression_consumerd_test_consumerd_threads_SOURCES = tests/regression/consumerd/test_consumerd_threads.c \
	$(CONSUMERD_HARNESS_SOURCES)
tests_regression_consumerd_test_consumerd_threads_LDADD = src/common/libcommon.la
# Its tracefs channels on a private ftrace instance (root; skipped otherwise).
check_PROGRAMS += tests/regression/consumerd/test_consumerd_tracefs
TESTS += tests/regression/consumerd/test_consumerd_tracefs
tests_regression_consumerd_test_consumerd_tracefs_SOURCES = tests/regression/consumerd/test_consumerd_tracefs.c \
	tests/regression/consumerd/tracefs-harness.c tests/regression/consumerd/tracefs-harness.h \
	tests/unit/tracefs-util.c tests/unit/tracefs-util.h \
	$(SESSIOND_META_SOURCES) $(CONSUMERD_HARNESS_SOURCES)
tests_regression_consumerd_test_consumerd_tracefs_LDADD = src/common/libcommon.la

# User-space tracing end to end: the instrumented test program, a real
# session daemon and consumer, babeltrace2 as the reader.
check_PROGRAMS += tests/regression/app/ust_app
tests_regression_app_ust_app_SOURCES = tests/regression/app/ust_app.c \
	tests/regression/app/test_tp.h
tests_regression_app_ust_app_LDADD = src/ust/libltt-ust.la
# A program that dies while it records (test_ust_torn.sh).
check_PROGRAMS += tests/regression/app/ust_torn
tests_regression_app_ust_torn_SOURCES = tests/regression/app/ust_torn.c \
	tests/regression/app/test_tp.h
tests_regression_app_ust_torn_LDADD = src/ust/libltt-ust.la
# A program whose ltt_test:seq has other fields (test_ust_layout.sh).
check_PROGRAMS += tests/regression/app/ust_app_alt
tests_regression_app_ust_app_alt_SOURCES = tests/regression/app/ust_app_alt.c
tests_regression_app_ust_app_alt_LDADD = src/ust/libltt-ust.la
# A program whose threads print their ids (test_ust_context.sh).
check_PROGRAMS += tests/regression/app/ust_ctx_app
tests_regression_app_ust_ctx_app_SOURCES = tests/regression/app/ust_ctx_app.c \
	tests/regression/app/test_tp.h
tests_regression_app_ust_ctx_app_LDADD = src/ust/libltt-ust.la
# A FUSE file system that stops answering on request (test_ust_output_blocked.sh).
check_PROGRAMS += tests/regression/stuckfs
tests_regression_stuckfs_SOURCES = tests/regression/stuckfs.c
# The user-space tests, one folder a subject (the list below holds other
# user-space-driven tests too):
#   ust/           recording: events, fields, contexts, filters, buffers, programs' lives
#   ust-consumer/  the consumer's life: stalls, takeovers, restarts, kills
#   ust-crash/     crashes and torn writes: what the buffers keep
#   ust-output/    the trace's files: failures of the disk, tracefiles, fsync
#   ust-memory/    the buffers' memory: usage, reclaim, bad shared memory
REGRESSION_UST_TESTS = \
	tests/regression/ust/test_ust_ctf2.sh \
	tests/regression/ust-crash/test_ust_crash_hostile.sh \
	tests/regression/ust/test_ust_context.sh \
	tests/regression/ust/test_ust_statedump.sh \
	tests/regression/ust/test_ust_statedump_once.sh \
	tests/regression/ust/test_ust_ns_change.sh \
	tests/regression/ust/test_ust_tracef.sh \
	tests/regression/ust-output/test_ust_reuse_output.sh \
	tests/regression/ust/test_ust_many_events.sh \
	tests/regression/ust-output/test_ust_output_full.sh \
	tests/regression/ust-output/test_ust_output_removed.sh \
	tests/regression/ust-output/test_ust_output_start.sh \
	tests/regression/ust/test_ust_slow_program.sh \
	tests/regression/ust/test_ust_layout.sh \
	tests/regression/ust/test_ust_channel_name_max.sh \
	tests/regression/ust/test_ust_pid_procname.sh \
	tests/regression/ust/test_ust_exit_owner.sh \
	tests/regression/ust/test_ust_env_dates.sh \
	tests/regression/ust/test_ust_time_ns.sh \
	tests/regression/ust/test_ust_trace_refused.sh \
	tests/regression/ust-consumer/test_ust_consumer_stuck.sh \
	tests/regression/ust-consumer/test_ust_consumer_takeover.sh \
	tests/regression/ust-consumer/test_ust_consumer_snapshot_died.sh \
	tests/regression/ust-consumer/test_ust_consumer_term.sh \
	tests/regression/ust-consumer/test_ust_takeover_retry.sh \
	tests/regression/ust-consumer/test_ust_takeover_inflight.sh \
	tests/regression/ust/test_ust_app_guard.sh \
	tests/regression/ust/test_ust_owner_groups.sh \
	tests/regression/ust-consumer/test_ust_consumer_idle.sh \
	tests/regression/sessiond/test_sessiond_worker_idle.sh \
	tests/regression/sessiond/test_sessiond_idle_timer.sh \
	tests/regression/ust-consumer/test_ust_consumer_stopped_others.sh \
	tests/regression/ust-consumer/test_ust_list_stalled.sh \
	tests/regression/sessiond/test_sessiond_stall_other_users.sh \
	tests/regression/sessiond/test_sessiond_push_stalled_owner.sh \
	tests/regression/sessiond/test_sessiond_list_consumer_spawn.sh \
	tests/regression/ust-consumer/test_ust_pid_stalled.sh \
	tests/regression/ust-consumer/test_ust_list_consumer_stall.sh \
	tests/regression/ust-consumer/test_ust_meta_stalled.sh \
	tests/regression/ust-consumer/test_ust_own_stalled.sh \
	tests/regression/ust-consumer/test_ust_term_stalled.sh \
	tests/regression/ust-output/test_ust_fsync.sh \
	tests/regression/rotation/test_rotation_consumer_killed.sh \
	tests/regression/rotation/test_rotation_late_destroy.sh \
	tests/regression/ust-output/test_ust_output_blocked.sh \
	tests/regression/rotation/test_rotation_owner.sh \
	tests/regression/rotation/test_rotation_owner_stalled.sh \
	tests/regression/trigger/test_trigger_owner_stalled.sh \
	tests/regression/trigger/test_trigger_consumer_wait.sh \
	tests/regression/trigger/test_trigger_usage_stalled.sh \
	tests/regression/sessiond/test_sessiond_privsep.sh \
	tests/regression/ust-output/test_ust_tracefile_count_lost.sh \
	tests/regression/rotation/test_rotation_sched_error.sh \
	tests/regression/relay/test_relay_consumer_takeover.sh \
	tests/regression/ust-consumer/test_ust_stopped_timers.sh \
	tests/regression/ust/test_ust_basic.sh \
	tests/regression/lttng/test_lttng_ust_216.sh \
	tests/regression/lttng/test_lttng_ust_record.sh \
	tests/regression/lttng/test_lttng_ust_multi_provider.sh \
	tests/regression/lttng/test_lttng_ust_multi_layout.sh \
	tests/regression/lttng/test_lttng_ust_filter.sh \
	tests/regression/lttng/test_lttng_ust_symbols.sh \
	tests/regression/lttng/test_lttng_ust_race.sh \
	tests/regression/lttng/test_lttng_ust_helpers.sh \
	tests/regression/lttng/test_lttng_ust_helpers_216.sh \
	tests/regression/lttng/test_lttng_ust_env.sh \
	tests/regression/lttng/test_lttng_ust_getcpu.sh \
	tests/regression/lttng/test_lttng_ust_clock_plugin.sh \
	tests/regression/ust/test_ust_clock.sh \
	tests/regression/ust/test_ust_filter.sh \
	tests/regression/rotation/test_rotation_snapshot.sh \
	tests/regression/relay/test_relay_snapshot.sh \
	tests/regression/relay/test_relay_grouping.sh \
	tests/regression/relay/test_relay_slow_link.sh \
	tests/regression/relay/test_relay_rotation.sh \
	tests/regression/relay/test_relay_regen.sh \
	tests/regression/relay/test_relay_clear_live.sh \
	tests/regression/relay/test_relay_stream.sh \
	tests/regression/relay/test_relay_tls.sh \
	tests/regression/relay/test_relay_tls_silent.sh \
	tests/regression/relay/test_relay_lttng.sh \
	tests/regression/relay/test_relay_pid_exit.sh \
	tests/regression/relay/test_relay_pid_exit_bound.sh \
	tests/regression/relay/test_relay_disallow_clear.sh \
	tests/regression/relay/test_relay_stall.sh \
	tests/regression/relay/test_relay_lost_events.sh \
	tests/regression/relay/test_relay_kill_burst.sh \
	tests/regression/relay/test_relay_kill_partial.sh \
	tests/regression/relay/test_relay_reconcile.sh \
	tests/regression/relay/test_relay_restart_repair.sh \
	tests/regression/relay/test_relay_padding.sh \
	tests/regression/ust/test_ust_threads_procs.sh \
	tests/regression/ust/test_ust_fork.sh \
	tests/regression/ust/test_ust_start_order.sh \
	tests/regression/ust/test_ust_first_event.sh \
	tests/regression/ust-consumer/test_ust_kill.sh \
	tests/regression/ust-crash/test_ust_crash.sh \
	tests/regression/ust-crash/test_ust_crash_stuck.sh \
	tests/regression/ust-crash/test_ust_crash_child.sh \
	tests/regression/ust-crash/test_ust_torn.sh \
	tests/regression/ust/test_ust_sessions.sh \
	tests/regression/ust/test_ust_buffers.sh \
	tests/regression/ust-memory/test_ust_mem_usage.sh \
	tests/regression/ust/test_ust_per_channel.sh \
	tests/regression/ust-memory/test_ust_reclaim.sh \
	tests/regression/ust-memory/test_ust_auto_reclaim.sh \
	tests/regression/ust/test_ust_full_speed.sh \
	tests/regression/ust/test_ust_blocking.sh \
	tests/regression/ust-consumer/test_ust_data_threads.sh \
	tests/regression/sessiond/test_sessiond_data_threads.sh \
	tests/regression/ust-consumer/test_ust_daemon_restart.sh \
	tests/regression/ust-memory/test_ust_bad_shm.sh \
	tests/regression/ust/test_ust_setuid.sh \
	tests/regression/ust/test_ust_member_reach.sh \
	tests/regression/ust-output/test_ust_tracefile_clash.sh \
	tests/regression/cli/test_cli_escape.sh \
	tests/regression/cli/test_cli_mi.sh \
	tests/regression/cli/test_cli_mi_schema.sh \
	tests/regression/sessiond/test_sessiond_bounds.sh \
	tests/regression/sessiond/test_sessiond_app_empty.sh \
	tests/regression/sessiond/test_sessiond_app_mutated.sh \
	tests/regression/rotation/test_rotation.sh \
	tests/regression/rotation/test_rotation_clear.sh \
	tests/regression/ust/test_ust_track.sh
TESTS += $(REGRESSION_UST_TESTS)
EXTRA_DIST += $(REGRESSION_UST_TESTS) tests/regression/ust-lib.sh tests/regression/lttng-ust-lib.sh \
	tests/regression/root-lib.sh
# LTTng's own clients (Debian's lttng, python3-lttng) on ltt-sessiond --lttng-compat.
TESTS += tests/regression/lttng-compat/test_lttng_compat.sh \
	tests/regression/lttng-compat/test_lttng_names.sh \
	tests/regression/lttng-compat/test_lttng_analyses_record.sh \
	tests/regression/lttng-compat/test_lttng_compat_triggers.sh \
	tests/regression/lttng-compat/test_lttng_compat_captures.sh \
	tests/regression/lttng-compat/test_lttng_compat_kfilter.sh \
	tests/regression/lttng-compat/test_lttng_compat_probe_trigger.sh \
	tests/regression/lttng-compat/test_lttng_compat_kcapture.sh \
	tests/regression/lttng-compat/test_lttng_compat_save.sh \
	tests/regression/lttng-compat/test_lttng_compat_slots.sh \
	tests/regression/lttng-compat/test_lttng_compat_multi_layout.sh \
	tests/regression/lttng-compat/test_lttng_compat_health.sh \
	tests/regression/lttng-compat/test_lttng_compat_health_daemons.sh \
	tests/regression/lttng-compat/test_lttng_compat_health_points.sh \
	tests/regression/lttng-compat/test_lttng_compat_agent.sh \
	tests/regression/lttng-compat/test_lttng_agent_beside.sh \
	tests/regression/lttng-compat/test_lttng_ust_own.sh \
	tests/regression/lttng-compat/test_lttng_ust_own_216.sh \
	tests/regression/lttng-compat/test_lttng_compat_errors.sh \
	tests/regression/lttng-compat/test_lttng_compat_216.sh \
	tests/regression/lttng-compat/test_lttng_agent_216.sh \
	tests/regression/lttng-compat/test_lttng_agent_java_216.sh \
	tests/regression/lttng-compat/test_lttng_compat_trixie.sh \
	tests/regression/lttng-compat/test_deb_scripts.sh
EXTRA_DIST += tests/regression/lttng-compat/test_lttng_compat.sh \
	tests/regression/lttng-compat/test_lttng_names.sh \
	tests/regression/lttng-compat/test_lttng_analyses_record.sh \
	tests/regression/lttng-compat/test_lttng_compat_triggers.sh \
	tests/regression/lttng-compat/test_lttng_compat_captures.sh \
	tests/regression/lttng-compat/test_lttng_compat_kfilter.sh \
	tests/regression/lttng-compat/test_lttng_compat_probe_trigger.sh \
	tests/regression/lttng-compat/test_lttng_compat_kcapture.sh \
	tests/regression/lttng-compat/test_lttng_compat_save.sh \
	tests/regression/lttng-compat/test_lttng_compat_slots.sh \
	tests/regression/lttng-compat/test_lttng_compat_multi_layout.sh \
	tests/regression/lttng-compat/test_lttng_compat_agent.sh \
	tests/regression/lttng-compat/test_lttng_agent_beside.sh \
	tests/regression/lttng-compat/test_lttng_ust_own.sh \
	tests/regression/lttng-compat/test_lttng_ust_own_216.sh \
	tests/regression/lttng-compat/test_lttng_compat_errors.sh \
	tests/regression/lttng-compat/test_lttng_compat_216.sh \
	tests/regression/lttng-compat/test_lttng_agent_216.sh \
	tests/regression/lttng-compat/test_lttng_agent_java_216.sh \
	tests/regression/lttng-compat/test_lttng_compat_trixie.sh \
	tests/regression/lttng-compat/test_lttng_compat_health.sh \
	tests/regression/lttng-compat/test_lttng_compat_health_daemons.sh \
	tests/regression/lttng-compat/test_lttng_compat_health_points.sh \
	tests/regression/lttng-compat/lttng_notif_client.c \
	tests/regression/lttng-compat/lttng_health_client.c \
	tests/regression/lttng-compat/lttng_health_points.c \
	tests/regression/lttng-compat/test_deb_scripts.sh \
	tests/regression/lttng-compat/ros2_sequence.py tests/regression/lttng-compat/lttng_wire.py

# The BPF system call source's program alone: loaded, read, its losses
# and cost (test_kernel_bpf_source.sh, bench/bpf.sh).
if BUILD_BPF
check_PROGRAMS += tests/regression/bpf_sc
tests_regression_bpf_sc_SOURCES = tests/regression/bpf_sc.c
tests_regression_bpf_sc_CFLAGS = $(AM_CFLAGS) $(LIBBPF_CFLAGS)
tests_regression_bpf_sc_LDADD = src/common/libbpfsc.la src/common/libcommon.la $(LIBBPF_LIBS)
endif

# lttctl export-trace and ltt-export (doc/sql.md): traces into SQLite and
# ClickHouse; they skip, saying why, where ltt-export is not built or
# clickhouse-server not installed.
REGRESSION_EXPORT_TESTS = \
	tests/regression/export/test_export_sqlite.sh \
	tests/regression/export/test_export_clickhouse.sh \
	tests/regression/export/test_export_queries.sh \
	tests/regression/export/test_export_cli.sh \
	tests/regression/export/test_export_follow.sh \
	tests/regression/export/test_export_layouts.sh \
	tests/regression/export/test_export_ctf2.sh \
	tests/regression/export/test_export_follow_relay.sh
TESTS += $(REGRESSION_EXPORT_TESTS)
EXTRA_DIST += $(REGRESSION_EXPORT_TESTS) tests/regression/export/export-lib.sh \
	tests/regression/export/bt_types.py tests/regression/export/bt_expect.py \
	tests/regression/export/doc_query.py tests/regression/export/ch-config.sh
