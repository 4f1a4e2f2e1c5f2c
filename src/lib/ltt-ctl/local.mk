# src/lib/ltt-ctl: libltt-ctl, the public control library (include/ltt/ltt-ctl.h).
# Its code is one convenience library, which the shared library exports
# and ltt-sessiond links in as it is (it loads saved sessions at start
# through its own client socket, as any client).  Neither links libxml2:
# the XML of saved sessions is a module loaded when needed (below).
# Saved sessions (save, load, the model, the XML module) are in config/;
# the map of both folders is ctl-internal.h.
noinst_LTLIBRARIES += src/lib/ltt-ctl/libltt-ctl-core.la
src_lib_ltt_ctl_libltt_ctl_core_la_SOURCES = \
	src/lib/ltt-ctl/ctl-internal.h \
	src/lib/ltt-ctl/conn.c \
	src/lib/ltt-ctl/spawn.c \
	src/lib/ltt-ctl/session.c \
	src/lib/ltt-ctl/channel.c \
	src/lib/ltt-ctl/list.c \
	src/lib/ltt-ctl/chunk.c \
	src/lib/ltt-ctl/snapshot.c \
	src/lib/ltt-ctl/tracker.c \
	src/lib/ltt-ctl/context.c \
	src/lib/ltt-ctl/rule.c \
	src/lib/ltt-ctl/stall.c \
	src/lib/ltt-ctl/kernel-tracer.c \
	src/lib/ltt-ctl/trigger.c \
	src/lib/ltt-ctl/map.c \
	src/lib/ltt-ctl/config/config.c \
	src/lib/ltt-ctl/config/config-save.c src/lib/ltt-ctl/config/config-save.h \
	src/lib/ltt-ctl/config/config-module.c src/lib/ltt-ctl/config/config-module.h \
	src/lib/ltt-ctl/config/config-trigger.c src/lib/ltt-ctl/config/config-trigger.h
src_lib_ltt_ctl_libltt_ctl_core_la_CPPFLAGS = $(AM_CPPFLAGS) -DLTT_SYSCONFDIR=\"$(sysconfdir)\" \
	-DLTT_PKGLIBDIR=\"$(pkglibdir)\"
src_lib_ltt_ctl_libltt_ctl_core_la_LIBADD = src/lib/ltt-ctl/libltt-cfg-model.la

# The model of saved sessions and its check: used by load (config/config.c)
# after its overrides and by the XML module's reader.
noinst_LTLIBRARIES += src/lib/ltt-ctl/libltt-cfg-model.la
src_lib_ltt_ctl_libltt_cfg_model_la_SOURCES = \
	src/lib/ltt-ctl/config/config-model.c src/lib/ltt-ctl/config/config-model.h \
	src/lib/ltt-ctl/config/config-check.c src/lib/ltt-ctl/config/config-check.h

# The XML of saved sessions (xml/session.xsd, LTTng's .lttng files):
# config-xml.so, a private module in $(pkglibdir) that libltt-ctl loads
# on a save's or a load's first use (config/config-module.h), the only
# code that links libxml2.  It exports its table (ltt_cfg_xml_module)
# only.  Built here (src/lib/ltt-ctl/.libs/config-xml.so, which the
# tests load), from the sources of config/.
pkglib_LTLIBRARIES += src/lib/ltt-ctl/config-xml.la
src_lib_ltt_ctl_config_xml_la_SOURCES = \
	src/lib/ltt-ctl/config/config-xml.c src/lib/ltt-ctl/config/config-xml.h \
	src/lib/ltt-ctl/config/config-rd.c src/lib/ltt-ctl/config/config-rd.h \
	src/lib/ltt-ctl/config/config-lttng.c src/lib/ltt-ctl/config/config-lttng.h \
	src/lib/ltt-ctl/config/config-xml-write.c src/lib/ltt-ctl/config/config-xml-write.h \
	src/lib/ltt-ctl/config/config-lttng-write.c src/lib/ltt-ctl/config/config-lttng-write.h \
	src/lib/ltt-ctl/config/config-xml-put.c src/lib/ltt-ctl/config/config-xml-put.h \
	src/lib/ltt-ctl/config/config-words.c src/lib/ltt-ctl/config/config-words.h
nodist_src_lib_ltt_ctl_config_xml_la_SOURCES = src/lib/ltt-ctl/config/session-xsd.c
src_lib_ltt_ctl_config_xml_la_CFLAGS = $(AM_CFLAGS) $(XML2_CFLAGS)
src_lib_ltt_ctl_config_xml_la_LIBADD = src/lib/ltt-ctl/libltt-cfg-model.la \
	src/common/libcommon.la $(XML2_LIBS)
src_lib_ltt_ctl_config_xml_la_LDFLAGS = -module -avoid-version -shared -no-undefined \
	-export-symbols-regex '^ltt_cfg_xml_module$$'

lib_LTLIBRARIES += src/lib/ltt-ctl/libltt-ctl.la
src_lib_ltt_ctl_libltt_ctl_la_SOURCES =
src_lib_ltt_ctl_libltt_ctl_la_LIBADD = src/lib/ltt-ctl/libltt-ctl-core.la src/common/libcommon.la
# Only the documented API is exported, with a symbol version (doc/libltt-ctl.md).
src_lib_ltt_ctl_libltt_ctl_la_LDFLAGS = -version-info $(LTT_CTL_LIBRARY_VERSION) \
	-Wl,--version-script=$(top_srcdir)/src/lib/ltt-ctl/libltt-ctl.sym
EXTRA_src_lib_ltt_ctl_libltt_ctl_la_DEPENDENCIES = src/lib/ltt-ctl/libltt-ctl.sym
EXTRA_DIST += src/lib/ltt-ctl/libltt-ctl.sym
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = src/lib/ltt-ctl/ltt-ctl.pc
EXTRA_DIST += src/lib/ltt-ctl/ltt-ctl.pc.in

# The schema of saved sessions: installed for other tools (xmllint
# --schema), and compiled into the XML module, which validates with it.
ltt_sessionxsddir = $(datadir)/ltt/xml
dist_ltt_sessionxsd_DATA = xml/session.xsd
src/lib/ltt-ctl/config/session-xsd.c: $(top_srcdir)/xml/session.xsd
	$(AM_V_GEN)$(MKDIR_P) src/lib/ltt-ctl/config && { \
		echo '/* Generated from xml/session.xsd by the build: do not edit. */'; \
		echo 'extern const char ltt_session_xsd[];'; \
		echo 'const char ltt_session_xsd[] ='; \
		$(SED) -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $(top_srcdir)/xml/session.xsd; \
		echo ';'; } > $@.tmp && mv $@.tmp $@
CLEANFILES += src/lib/ltt-ctl/config/session-xsd.c
