// SPDX-License-Identifier: LGPL-2.1-only
/*
 * objects.c - the result objects several commands report (a session, a
 * domain, a channel, an event rule, a process tracker), written once
 * through the output abstraction (out.h).  Their elements are those of
 * LTTng's machine interface (mi-lttng-4.1.xsd, doc/mi.md): what a tool
 * written for `lttng --mi xml` reads.  LTTng's schema has no extension
 * point, so what ltt knows beyond it (relay connections, consumer stalls,
 * error counts) is in the text only.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/agent.h"
#include "common/model/lttng-gap.h"
#include "common/model/lttng-words.h"
#include "common/model/uri.h"
#include "ctl/ctl.h"

void ctl_obj_domain_open(enum ltt_domain domain, enum ltt_buffer_type buffers)
{
	ctl_out_open("domain");
	ctl_out_str("type", ltt_lttng_domain(domain));
	ctl_out_str("buffer_type", ltt_lttng_buffer_type(domain, buffers));
}

void ctl_obj_session_open(const struct ltt_session_info *s)
{
	char path[LTT_URI_TEXT_SIZE + 32] = "";

	/* a relay's as LTTng's MI gives it: "tcp4://HOST:CTRL/ [data: DATA]" */
	if (s->output_type != LTT_OUTPUT_NONE)
		ltt_uri_lttng_path(s->output, path, sizeof(path));
	ctl_out_open("session");
	ctl_out_str("name", s->name);
	ctl_out_str("path", path);
	ctl_out_bool("enabled", s->active);
	ctl_out_u64("snapshot_mode", s->snapshot);
	ctl_out_u64("live_timer_interval", s->live_timer_us);
	/* 4.2's: said of CTF 2 alone, as the text does (ctl_obj_sessions_schema) */
	if (s->trace_format == LTT_TRACE_FORMAT_CTF_2)
		ctl_out_str("trace_format", "CTF_2");
}

void ctl_obj_sessions_schema(const struct ltt_session_info *s, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (s[i].trace_format == LTT_TRACE_FORMAT_CTF_2) {
			ctl_out_schema("4.2");
			return;
		}
}

void ctl_obj_session_name(const char *name)
{
	ctl_out_open("session");
	ctl_out_str("name", name);
	ctl_out_close();
}

void ctl_obj_session_state(const char *name, bool enabled)
{
	ctl_out_open("session");
	ctl_out_str("name", name);
	ctl_out_bool("enabled", enabled);
	ctl_out_close();
}

void ctl_obj_channel_open(const struct ltt_session_info *s, enum ltt_domain domain,
			  const struct ltt_channel_attr *a, bool enabled, uint64_t discarded_events,
			  uint64_t lost_packets)
{
	ctl_out_open("channel");
	ctl_out_str("name", a->name);
	ctl_out_bool("enabled", enabled);
	ctl_out_open("attributes");
	ctl_out_str("overwrite_mode", ltt_lttng_overwrite_modes[a->overwrite]);
	ctl_out_u64("subbuffer_size", a->subbuf_size);
	ctl_out_u64("subbuffer_count", a->num_subbuf);
	ctl_out_u64("switch_timer_interval", a->switch_timer_us);
	ctl_out_u64("read_timer_interval", a->read_timer_us);
	/* the kernel's buffers leave by splice(), user space's by mmap */
	ctl_out_str("output_type", ltt_lttng_output_type(domain));
	ctl_out_u64("tracefile_size", a->tracefile_size);
	ctl_out_u64("tracefile_count", a->tracefile_count);
	/* a channel of a live session is flushed at the session's live timer */
	ctl_out_u64("live_timer_interval", s->live_timer_us);
	ctl_out_u64("discarded_events", discarded_events);
	ctl_out_u64("lost_packets", lost_packets);
	/* the daemon samples every channel's buffer usage (triggers) at this period */
	ctl_out_u64("monitor_timer_interval", LTT_LTTNG_MONITOR_PERIOD_US);
	/* LTTng's: -1 for inf */
	ctl_out_i64("blocking_timeout", a->blocking_timeout_us == LTT_BLOCKING_TIMEOUT_INF ? -1 :
			(int64_t)a->blocking_timeout_us);
	ctl_out_close();
}

/* LTTng's name of @level in @domain: TRACE_INFO, PYTHON_ERROR, UNKNOWN. */
static void put_loglevel(enum ltt_domain domain, int level)
{
	const char *name = ltt_loglevel_name_domain(domain, level);
	const struct ltt_agent_domain *agent;
	char mi[64];

	if (!strcmp(name, "UNKNOWN")) {
		ctl_out_str("loglevel", name);
		return;
	}
	agent = ltt_agent_domain(domain);
	snprintf(mi, sizeof(mi), "%s%s", agent ? agent->level_prefix : "TRACE_", name);
	ctl_out_str("loglevel", mi);
}

void ctl_obj_rule_open(enum ltt_domain domain, const struct ltt_event_rule_attr *a, bool enabled)
{
	ctl_out_open("event");
	ctl_out_str("name", a->pattern);
	ctl_out_str("type", ltt_lttng_event_type(a->type));
	ctl_out_str("loglevel_type", ltt_lttng_loglevel_type(a->loglevel_type));
	if (a->loglevel_type != LTT_LOGLEVEL_ALL)
		put_loglevel(domain, a->loglevel);
	ctl_out_bool("enabled", enabled);
	ctl_out_str("filter_expression", a->filter && a->filter[0] ? a->filter : NULL);
	if (a->exclusions && a->exclusions[0])
		ctl_obj_name_list("exclusions", "exclusion", a->exclusions);
}

void ctl_obj_name_list(const char *element, const char *item, const char *list)
{
	const char *x, *comma;
	char one[LTT_NAME_MAX];

	ctl_out_open(element);
	for (x = list; x; x = comma ? comma + 1 : NULL) {
		comma = strchr(x, ',');
		snprintf(one, sizeof(one), "%.*s", (int)(comma ? (size_t)(comma - x) : strlen(x)), x);
		ctl_out_str(item, one);
	}
	ctl_out_close();
}

void ctl_obj_rule(enum ltt_domain domain, const struct ltt_event_rule_attr *a, bool enabled)
{
	ctl_obj_rule_open(domain, a, enabled);
	ctl_out_close();
}

/* <TYPE_process_attr_tracker><process_attr_values> opened; the values' element name. */
static const char *tracker_open(enum ltt_tracker_type type)
{
	const char *name = ltt_tracker_type_name(type);
	char element[64];

	snprintf(element, sizeof(element), "%s_process_attr_tracker", name);
	ctl_out_open(element);
	ctl_out_open("process_attr_values");
	return name;
}

/*
 * One value <@name><type>...</type></@name>: <all>true</all> (@all), a
 * <name> (@text not NULL) or an <id>; then <success> when @success >= 0.
 */
static void tracker_value(const char *name, bool all, const char *text, uint64_t id,
			  int success)
{
	ctl_out_open(name);
	ctl_out_open("type");
	if (all)
		ctl_out_bool("all", true);
	else if (text)
		ctl_out_str("name", text);
	else
		ctl_out_u64("id", id);
	ctl_out_close();
	if (success >= 0)
		ctl_out_bool("success", success);
	ctl_out_close();
}

void ctl_obj_tracker(enum ltt_tracker_type type, enum ltt_tracker_policy policy,
		     const uint32_t *ids, size_t nr)
{
	const char *name = tracker_open(type);
	bool all = policy == LTT_TRACKER_ALL;
	size_t i;

	for (i = 0; policy != LTT_TRACKER_NONE && i < (all ? 1 : nr); i++)
		tracker_value(name, all, NULL, all ? 0 : ids[i], -1);
	ctl_out_close();
	ctl_out_close();
}

void ctl_obj_tracker_edit(enum ltt_tracker_type type, char *const *values, size_t nr,
			  bool success)
{
	const char *name = tracker_open(type);
	size_t i;
	bool id;

	for (i = 0; i < (values ? nr : 1); i++) {
		id = values && values[i][strspn(values[i], "0123456789")] == '\0';
		tracker_value(name, !values, values && !id ? values[i] : NULL,
			      id ? strtoull(values[i], NULL, 10) : 0, success);
	}
	ctl_out_close();
	ctl_out_close();
}

void ctl_obj_version(const char *version, bool as_lttng)
{
	unsigned int major = 0, minor = 0, patch = 0;
	char name[64];

	snprintf(name, sizeof(name), "ltt %s", version);
	if (as_lttng)
		version = CTL_LTTNG_VERSION;
	sscanf(version, "%u.%u.%u", &major, &minor, &patch);
	ctl_out_open("version");
	ctl_out_str("name", as_lttng ? name : "ltt");
	ctl_out_str("string", version);
	ctl_out_u64("major", major);
	ctl_out_u64("minor", minor);
	ctl_out_u64("patchLevel", patch);
	ctl_out_str("commit", "");
	ctl_out_str("url", "");
	ctl_out_str("license", "LGPL-2.1 (libraries), GPL-2.0 (programs)");
	ctl_out_str("description", "ltt: a Linux tracing toolchain that speaks LTTng's interfaces");
	ctl_out_close();
}

void ctl_obj_version_text(const struct ctl_ctx *ctx, const char *version, bool option)
{
	if (!ctx->lttng_name)
		ctl_out_text("lttctl %s\n", version);
	else if (option)
		ctl_out_text("%s (LTTng Trace Control) %s - ltt %s\n", ctx->lttng_name,
			     CTL_LTTNG_VERSION, version);
	else
		ctl_out_text("lttng version %s - ltt %s\n", CTL_LTTNG_VERSION, version);
}

void ctl_obj_snapshot_output(const struct ltt_snapshot_output *o, const char *session)
{
	struct ltt_uri uri;
	char ctrl[LTT_URI_TEXT_SIZE], data[LTT_URI_TEXT_SIZE] = "";

	/* a relay's two ports as LTTng's MI gives them: "tcp4://HOST:PORT/" each */
	if (o->output_type != LTT_OUTPUT_NET || ltt_uri_parse(o->output, &uri) || uri.tls ||
	    ltt_uri_format_lttng(&uri, 0, ctrl, sizeof(ctrl)) ||
	    ltt_uri_format_lttng(&uri, 1, data, sizeof(data))) {
		snprintf(ctrl, sizeof(ctrl), "%s", o->output);
		data[0] = '\0';
	}
	ctl_out_open("snapshot");
	ctl_out_u64("id", o->id);
	ctl_out_str("name", o->name);
	ctl_out_str("session_name", session);
	ctl_out_str("ctrl_url", ctrl);
	ctl_out_str("data_url", data);
	ctl_out_u64("max_size", o->max_size);
	ctl_out_close();
}

void ctl_obj_rotation_schedule(uint64_t timer_us, uint64_t size)
{
	if (timer_us) {
		ctl_out_open("periodic");
		ctl_out_u64("time_us", timer_us);
		ctl_out_close();
	}
	if (size) {
		ctl_out_open("size_threshold");
		ctl_out_u64("bytes", size);
		ctl_out_close();
	}
}

void ctl_obj_config(bool load, const struct ltt_session_file *files, size_t n, const char *asked,
		    const char *override_name, const char *override_url)
{
	char dir[LTT_PATH_MAX];
	const char *slash;

	ctl_out_open(load ? "load" : "save");
	ctl_out_open("session");
	ctl_out_str("name", n == 1 ? files[0].name : asked ? asked : "*");
	ctl_out_close();
	dir[0] = '\0';
	if (n == 1) {
		snprintf(dir, sizeof(dir), "%s", files[0].path);
	} else if (n && (slash = strrchr(files[0].path, '/'))) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - files[0].path), files[0].path);
	}
	ctl_out_str("path", dir);
	if (load) {
		ctl_out_open("overrides");
		ctl_out_str("name", override_name);
		ctl_out_str("url", override_url);
		ctl_out_close();
	}
	ctl_out_close();
}

/* The context types LTTng's MI names (its context_type_type), as ltt spells them. */
static const char *const mi_contexts[] = {
	"pid", "procname", "prio", "nice", "vpid", "tid", "vtid", "ppid", "vppid",
	"pthread_id", "hostname", "ip", "interruptible", "preemptible", "need_reschedule",
	"migratable", "callstack-user", "callstack-kernel", "cgroup_ns", "ipc_ns", "mnt_ns",
	"net_ns", "pid_ns", "time_ns", "user_ns", "uts_ns", "uid", "euid", "suid", "gid",
	"egid", "sgid", "vuid", "veuid", "vsuid", "vgid", "vegid", "vsgid",
};

void ctl_obj_context(const char *name)
{
	const char *colon;
	char type[64];
	size_t i, j;

	if (!strncmp(name, "$app.", 5) && (colon = strchr(name + 5, ':'))) {
		ctl_out_open("context");
		ctl_out_open("app");
		snprintf(type, sizeof(type), "%.*s", (int)(colon - name - 5), name + 5);
		ctl_out_str("provider_name", type);
		ctl_out_str("ctx_name", colon + 1);
		ctl_out_close();
		ctl_out_close();
		return;
	}
	if (!strncmp(name, "perf:", 5)) {
		ctl_out_open("context");
		ctl_out_open("perf");
		ctl_out_u64("type", 0);
		ctl_out_u64("config", 0);
		ctl_out_str("name", name);
		ctl_out_close();
		ctl_out_str("symbol", name);
		ctl_out_close();
		return;
	}
	for (i = 0; i < sizeof(mi_contexts) / sizeof(mi_contexts[0]); i++) {
		if (strcmp(name, mi_contexts[i]))
			continue;
		for (j = 0; name[j] && j < sizeof(type) - 1; j++)
			type[j] = name[j] == '-' ? '_' : (char)toupper((unsigned char)name[j]);
		type[j] = '\0';
		ctl_out_open("context");
		ctl_out_str("type", type);
		ctl_out_str("symbol", name);
		ctl_out_close();
		return;
	}
	/* a context LTTng's MI has no name for (cpu_id, ...): not in the document */
}
