# bench: benchmarks.  Built with the tree (noinst), never run by make
# check: run them by hand, bench/README.md says how and what they gave.
noinst_PROGRAMS += bench/rb_bench

bench_rb_bench_SOURCES = bench/rb_bench.c
bench_rb_bench_LDADD = src/common/libcommon.la

# Each stage of the fast path timed alone, TSC-bracketed (bench/README.md,
# "Where the cycles go").
noinst_PROGRAMS += bench/fastpath_stages
bench_fastpath_stages_SOURCES = bench/fastpath_stages.c
bench_fastpath_stages_LDADD = src/common/libcommon.la

# The field-table codec's instructions per message (bench/codec.sh).
noinst_PROGRAMS += bench/codec_bench
bench_codec_bench_SOURCES = bench/codec_bench.c
bench_codec_bench_LDADD = src/common/libcommon.la
EXTRA_DIST += bench/codec.sh

# The writer's MADV_POPULATE_WRITE on opening a sub-buffer, alone.
noinst_PROGRAMS += bench/populate_cost
bench_populate_cost_SOURCES = bench/populate_cost.c

# libltt-ust: a tracepoint disabled, enabled and dropped, through the
# library's archive (src/ust/ust-internal.h plays the daemon).
noinst_PROGRAMS += bench/ust_bench
bench_ust_bench_SOURCES = bench/ust_bench.c
bench_ust_bench_LDADD = src/ust/libust.la

# An instrumented program, linked as users link it (-lltt-ust), for the
# benchmarks through the real daemons; and the same without tracing.
noinst_PROGRAMS += bench/ust_flood bench/ust_flood_plain
bench_ust_flood_SOURCES = bench/ust_flood.c bench/flood-harness.h
bench_ust_flood_LDADD = src/ust/libltt-ust.la
# no libtool wrapper script: start-up is timed on the real binary
bench_ust_flood_LDFLAGS = -no-install
bench_ust_flood_plain_SOURCES = bench/ust_flood.c bench/flood-harness.h
bench_ust_flood_plain_CPPFLAGS = $(AM_CPPFLAGS) -DFLOOD_PLAIN

# Live latency (bench/live_latency.sh): events stamped with CLOCK_REALTIME.
noinst_PROGRAMS += bench/live_emit
bench_live_emit_SOURCES = bench/live_emit.c
bench_live_emit_LDADD = src/ust/libltt-ust.la
bench_live_emit_LDFLAGS = -no-install

# Triggers (bench/triggers.sh): event -> notification latency through the
# real daemon, and an unmatched event's cost with notifiers in-process
# (libust's archive: src/ust/ust-internal.h plays the daemon).
noinst_PROGRAMS += bench/trigger_bench
bench_trigger_bench_SOURCES = bench/trigger_bench.c bench/trigger_tp.h
bench_trigger_bench_LDADD = src/ust/libust.la src/lib/ltt-ctl/libltt-ctl.la
bench_trigger_bench_LDFLAGS = -no-install
EXTRA_DIST += bench/triggers.sh

# A function called in a loop, probed from outside (bench/uprobe.sh).
noinst_PROGRAMS += bench/uprobe_loop
bench_uprobe_loop_SOURCES = bench/uprobe_loop.c
EXTRA_DIST += bench/uprobe.sh
# The memory of a session, ltt beside LTTng 2.13 (bench/memory.sh, issue 47).
EXTRA_DIST += bench/memory.sh
# The same in a QEMU guest of many vCPUs (bench/memory_cpus.sh).
EXTRA_DIST += bench/memory_cpus.sh
# The module's buffer memory with CPUs possible but offline (bench/kernel_hotplug_mem.sh).
EXTRA_DIST += bench/kernel_hotplug_mem.sh

EXTRA_DIST += bench/lttng_threads.sh
EXTRA_DIST += bench/README.md bench/callgrind.sh bench/startup.sh bench/startup_parts.sh bench/startup_lttng.sh \
	bench/control.sh bench/stop_latency.sh bench/lost.sh bench/throughput.sh bench/tls.sh bench/live_latency.sh bench/live_wire.sh bench/lttng_compare.sh bench/bench-lib.sh \
	bench/kernel_idle_cost.sh bench/kernel_map_read.sh bench/kernel_track.sh bench/kernel_context_cost.sh \
	bench/conn_rss.sh \
	bench/lttng/flood_lttng.c bench/lttng/flood_tp.h bench/lttng/live_tp.h

# Kernel tracing overhead, ltt-tracer.ko beside ftrace: run in the guest
# bench/kernel.sh boots (static, as the guest's other test programs).
noinst_PROGRAMS += bench/kbench
bench_kbench_SOURCES = bench/kbench.c
bench_kbench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/kmod
bench_kbench_LDFLAGS = -all-static
bench_kbench_LDADD = -lpthread
EXTRA_DIST += bench/kernel.sh bench/kernel-table.py

# The tracefs backend (bench/tracefs.sh): the consumer's page conversion
# alone, ftrace alone with a plain reader, a paced getppid() load.
noinst_PROGRAMS += bench/tfs_conv bench/tfs_ftrace bench/tfs_pace
bench_tfs_conv_SOURCES = bench/tfs_conv.c bench/tfs-inst.c bench/tfs-inst.h
bench_tfs_conv_LDADD = src/common/libcommon.la -lpthread
bench_tfs_ftrace_SOURCES = bench/tfs_ftrace.c bench/tfs-inst.c bench/tfs-inst.h
bench_tfs_ftrace_LDADD = src/common/libcommon.la -lpthread
bench_tfs_pace_SOURCES = bench/tfs_pace.c
EXTRA_DIST += bench/tracefs.sh bench/bpf.sh bench/idle.sh
EXTRA_DIST += bench/python_agent.sh bench/python_agent.py
