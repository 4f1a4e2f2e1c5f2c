# examples: programs instrumented with <ltt/tracepoint.h>, built with the
# tree (not installed) and shipped as source in $(docdir)/examples.
noinst_PROGRAMS += examples/hello/hello
examples_hello_hello_SOURCES = examples/hello/hello.c examples/hello/hello-tp.h
examples_hello_hello_LDADD = src/ust/libltt-ust.la

helloexampledir = $(docdir)/examples/hello
dist_helloexample_DATA = examples/hello/hello.c examples/hello/hello-tp.h
