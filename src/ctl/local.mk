# src/ctl: lttctl, the command line.  A command table plus one file per
# command, in a folder by subject (commands/sessions, events, triggers,
# maps, output, saveload); see src/ctl/ctl.h for the map.
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
	src/ctl/commands/sessions/create.c \
	src/ctl/commands/sessions/destroy.c \
	src/ctl/commands/sessions/start.c \
	src/ctl/commands/sessions/stop.c \
	src/ctl/commands/sessions/set_session.c \
	src/ctl/commands/sessions/status.c \
	src/ctl/commands/sessions/list.c \
	src/ctl/commands/sessions/view.c \
	src/ctl/commands/sessions/export_trace.c \
	src/ctl/commands/sessions/version.c \
	src/ctl/commands/events/enable_channel.c \
	src/ctl/commands/events/disable_channel.c \
	src/ctl/commands/events/enable_event.c \
	src/ctl/commands/events/disable_event.c \
	src/ctl/commands/events/add_context.c \
	src/ctl/commands/events/list_events.c \
	src/ctl/commands/events/track.c \
	src/ctl/commands/triggers/add_trigger.c \
	src/ctl/commands/triggers/list_triggers.c \
	src/ctl/commands/triggers/remove_trigger.c \
	src/ctl/commands/triggers/wait_trigger.c \
	src/ctl/commands/maps/add_map_channel.c \
	src/ctl/commands/maps/show_maps.c \
	src/ctl/commands/maps/export_maps.c \
	src/ctl/commands/output/snapshot.c \
	src/ctl/commands/output/rotate.c \
	src/ctl/commands/output/enable_rotation.c \
	src/ctl/commands/output/disable_rotation.c \
	src/ctl/commands/output/clear.c \
	src/ctl/commands/output/regenerate.c \
	src/ctl/commands/output/reclaim_memory.c \
	src/ctl/commands/saveload/save.c \
	src/ctl/commands/saveload/load.c
src_ctl_lttctl_CFLAGS = $(AM_CFLAGS) $(POPT_CFLAGS)
# TLS (create --tls-*, view --live tls://) is the TLS module, loaded by
# those commands only (common/net/net-module.h): lttctl links neither
# libnet nor OpenSSL.
src_ctl_lttctl_LDADD = src/lib/ltt-ctl/libltt-ctl.la src/common/libnet-module.la \
	src/common/libcommon.la $(POPT_LIBS)
