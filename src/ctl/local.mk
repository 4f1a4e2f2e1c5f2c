# src/ctl: lttctl, the command line.  A command table plus one file per
# command; see src/ctl/ctl.h for the map.
bin_PROGRAMS += src/ctl/lttctl
src_ctl_lttctl_SOURCES = \
	src/ctl/ctl.h src/ctl/commands.h \
	src/ctl/main.c \
	src/ctl/commands.c \
	src/ctl/out.h \
	src/ctl/out-impl.h \
	src/ctl/out.c \
	src/ctl/out-text.c \
	src/ctl/out-xml.c \
	src/ctl/objects.c src/ctl/objects.h \
	src/ctl/obj-trigger.c \
	src/ctl/complete.c \
	src/ctl/rc.c \
	src/ctl/relayd.c \
	src/ctl/bridge.c src/ctl/bridge.h \
	src/ctl/util.c src/ctl/util.h \
	src/ctl/util-help.c \
	src/ctl/util-session.c src/ctl/util-session.h \
	src/ctl/util-event.c src/ctl/util-event.h \
	src/ctl/trigger-build.c src/ctl/trigger-build.h \
	src/ctl/report.c src/ctl/report.h \
	src/ctl/commands/create.c \
	src/ctl/commands/destroy.c \
	src/ctl/commands/disable_channel.c \
	src/ctl/commands/add_context.c \
	src/ctl/commands/disable_event.c \
	src/ctl/commands/enable_channel.c \
	src/ctl/commands/enable_event.c \
	src/ctl/commands/list.c \
	src/ctl/commands/list_events.c \
	src/ctl/commands/load.c \
	src/ctl/commands/save.c \
	src/ctl/commands/set_session.c \
	src/ctl/commands/start.c \
	src/ctl/commands/status.c \
	src/ctl/commands/stop.c \
	src/ctl/commands/version.c \
	src/ctl/commands/view.c \
	src/ctl/commands/snapshot.c \
	src/ctl/commands/rotate.c \
	src/ctl/commands/reclaim_memory.c \
	src/ctl/commands/add_map_channel.c \
	src/ctl/commands/show_maps.c \
	src/ctl/commands/export_maps.c \
	src/ctl/commands/enable_rotation.c \
	src/ctl/commands/disable_rotation.c \
	src/ctl/commands/clear.c \
	src/ctl/commands/regenerate.c \
	src/ctl/commands/track.c \
	src/ctl/commands/add_trigger.c \
	src/ctl/commands/list_triggers.c \
	src/ctl/commands/remove_trigger.c \
	src/ctl/commands/wait_trigger.c
src_ctl_lttctl_CFLAGS = $(AM_CFLAGS) $(POPT_CFLAGS)
# TLS (create --tls-*, view --live tls://) is the TLS module, loaded by
# those commands only (common/net/net-module.h): lttctl links neither
# libnet nor OpenSSL.
src_ctl_lttctl_LDADD = src/lib/ltt-ctl/libltt-ctl.la src/common/libnet-module.la \
	src/common/libcommon.la $(POPT_LIBS)
