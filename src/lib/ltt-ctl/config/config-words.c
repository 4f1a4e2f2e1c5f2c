// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-words.c - the words of xml/session.xsd and of LTTng's session
 * format for the model's enums (config-words.h).
 */
#include "lib/ltt-ctl/config/config-words.h"

const char *const ltt_cfg_xml_buffer_types[LTT_LTTNG_NR_BUFFER_TYPES] = {
	[LTT_BUFFER_PER_UID] = "per-uid",
	[LTT_BUFFER_PER_PID] = "per-pid",
	[LTT_BUFFER_GLOBAL] = "global",
};
const char *const ltt_cfg_xml_loglevel_types[LTT_LTTNG_NR_LOGLEVEL_TYPES] = {
	[LTT_LOGLEVEL_ALL] = "all",
	[LTT_LOGLEVEL_RANGE] = "range",
	[LTT_LOGLEVEL_SINGLE] = "single",
};
const char *const ltt_cfg_xml_event_types[LTT_LTTNG_NR_EVENT_TYPES] = {
	[LTT_EVENT_TRACEPOINT] = "tracepoint",
	[LTT_EVENT_SYSCALL] = "syscall",
	[LTT_EVENT_KPROBE] = "probe",
	[LTT_EVENT_FUNCTION] = "function",
	[LTT_EVENT_UPROBE] = "userspace-probe",
};
const char *const ltt_cfg_xml_tracker_types[LTT_TRACKER_NR] = {
	"vpid", "vuid", "vgid", "pid", "uid", "gid"
};
const char *const ltt_cfg_xml_tracker_policies[LTT_CFG_NR_TRACKER_POLICIES] = {
	[LTT_TRACKER_ALL] = "all",
	[LTT_TRACKER_NONE] = "none",
	[LTT_TRACKER_SET] = "set",
};
