# examples: programs instrumented with <ltt/tracepoint.h>, built with the
# tree (not installed) and shipped as source in $(docdir)/examples.
noinst_PROGRAMS += examples/hello/hello
examples_hello_hello_SOURCES = examples/hello/hello.c examples/hello/hello-tp.h
examples_hello_hello_LDADD = src/ust/libltt-ust.la

helloexampledir = $(docdir)/examples/hello
dist_helloexample_DATA = examples/hello/hello.c examples/hello/hello-tp.h

# A libltt-ctl program: a trigger on user-space events and its notifications.
noinst_PROGRAMS += examples/trigger/trigger-watch
examples_trigger_trigger_watch_SOURCES = examples/trigger/trigger-watch.c
examples_trigger_trigger_watch_LDADD = src/lib/ltt-ctl/libltt-ctl.la

triggerexampledir = $(docdir)/examples/trigger
dist_triggerexample_DATA = examples/trigger/trigger-watch.c
