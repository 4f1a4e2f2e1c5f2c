# bench: micro-benchmarks.  Built with the tree (noinst), never run by
# make check: run them by hand, see the comment at the top of each.
noinst_PROGRAMS += bench/rb_bench

bench_rb_bench_SOURCES = bench/rb_bench.c
bench_rb_bench_LDADD = src/common/libcommon.la

# libltt-ust: a tracepoint disabled and enabled, through the library's
# archive (src/ust/ust-internal.h plays the daemon).
noinst_PROGRAMS += bench/ust_bench
bench_ust_bench_SOURCES = bench/ust_bench.c
bench_ust_bench_LDADD = src/ust/libust.la
