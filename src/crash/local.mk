# src/crash: ltt-crash, the crash reader (map in crash.h); lttng-crash is
# its name in the LTTng compatibility package.
bin_PROGRAMS += src/crash/ltt-crash
src_crash_ltt_crash_SOURCES = \
	src/crash/crash.h \
	src/crash/main.c \
	src/crash/extract.c
src_crash_ltt_crash_LDADD = src/common/libcommon.la
