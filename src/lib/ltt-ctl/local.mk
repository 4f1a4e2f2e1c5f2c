# src/lib/ltt-ctl: libltt-ctl, the public control library (include/ltt/ltt-ctl.h).
lib_LTLIBRARIES += src/lib/ltt-ctl/libltt-ctl.la
src_lib_ltt_ctl_libltt_ctl_la_SOURCES = src/lib/ltt-ctl/ltt-ctl.c \
	src/lib/ltt-ctl/chunk.c src/lib/ltt-ctl/ctl-internal.h
src_lib_ltt_ctl_libltt_ctl_la_LIBADD = src/common/libcommon.la
# Only the documented API is exported, with a symbol version (doc/libltt-ctl.md).
src_lib_ltt_ctl_libltt_ctl_la_LDFLAGS = -version-info $(LTT_CTL_LIBRARY_VERSION) \
	-Wl,--version-script=$(top_srcdir)/src/lib/ltt-ctl/libltt-ctl.sym
EXTRA_src_lib_ltt_ctl_libltt_ctl_la_DEPENDENCIES = src/lib/ltt-ctl/libltt-ctl.sym
EXTRA_DIST += src/lib/ltt-ctl/libltt-ctl.sym
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = src/lib/ltt-ctl/ltt-ctl.pc
EXTRA_DIST += src/lib/ltt-ctl/ltt-ctl.pc.in
