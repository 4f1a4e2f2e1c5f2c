# src/lib/ltt-ctl: libltt-ctl, the public control library (include/ltt/ltt-ctl.h).
lib_LTLIBRARIES += src/lib/ltt-ctl/libltt-ctl.la
src_lib_ltt_ctl_libltt_ctl_la_SOURCES = src/lib/ltt-ctl/ltt-ctl.c \
	src/lib/ltt-ctl/chunk.c src/lib/ltt-ctl/ctl-internal.h
src_lib_ltt_ctl_libltt_ctl_la_LIBADD = src/common/libcommon.la
# Only the documented API is exported.
src_lib_ltt_ctl_libltt_ctl_la_LDFLAGS = -version-info $(LTT_CTL_LIBRARY_VERSION) \
	-export-symbols-regex '^ltt_(ctl_|strerror$$|error_name$$|loglevel_|domain_name$$|buffer_type_name$$)'
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = src/lib/ltt-ctl/ltt-ctl.pc
EXTRA_DIST += src/lib/ltt-ctl/ltt-ctl.pc.in
