// SPDX-License-Identifier: LGPL-2.1-only
/*
 * list.c - lttctl list: the sessions, or one session with its domains,
 * channels and event rules.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/model/agent.h"
#include "common/base/size.h"
#include "common/model/uri.h"
#include "ctl/ctl.h"
#include "ctl/report.h"
#include "ctl/util-event.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

static const char *output_text(const struct ltt_session_info *s)
{
	if (s->snapshot)
		return "snapshots only";
	return s->output_type == LTT_OUTPUT_NONE ? "no output" : s->output;
}

/* A snapshot session's output, under the session's line. */
static void print_snapshot_outputs(struct ltt_ctl *ctl, const struct ltt_session_info *s)
{
	struct ltt_snapshot_output *outs = NULL;
	char size[32];
	size_t i, n = 0;
	int ret;

	if (!s->snapshot)
		return;
	ret = ltt_ctl_snapshot_list_outputs(ctl, s->name, &outs, &n);
	if (ret) {
		ctl_out_text("Snapshot output: unknown (%s)\n", ltt_strerror(ret));
		return;
	}
	if (!n)
		ctl_out_text("Snapshot output: none ('lttctl snapshot add-output' adds one)\n");
	ctl_out_open("snapshots");
	for (i = 0; i < n; i++) {
		strcpy(size, "no limit");
		if (outs[i].max_size)
			ltt_size_format(outs[i].max_size, size, sizeof(size));
		ctl_out_text("Snapshot output: [%" PRIu32 "] %s: %s (max size: %s)\n", outs[i].id,
			     outs[i].name, outs[i].output, size);
		ctl_obj_snapshot_output(&outs[i], NULL);
	}
	ctl_out_close();
	free(outs);
}

/* "NAME (OUTPUT) [active]", then what is special about the session. */
static void print_session(const struct ltt_session_info *s)
{
	ctl_out_text("%s (%s) [%s]", s->name, output_text(s), s->active ? "active" : "inactive");
	if (s->snapshot)
		ctl_out_text(" [snapshot]");
	if (s->live_timer_us)
		ctl_out_text(" [live, %" PRIu32 " us]", s->live_timer_us);
	ctl_out_text("\n");
}

/*
 * A CTF 2 session's traces' format, as LTTng 2.15 says it (the MI's
 * trace_format: objects.c).  CTF 1.8, what every session wrote before,
 * goes without saying.
 */
static void print_format(const struct ltt_session_info *s)
{
	if (s->trace_format == LTT_TRACE_FORMAT_CTF_2)
		ctl_out_text("Trace format: CTF 2 (babeltrace2 2.1 and later read it)\n");
}

/*
 * The clock of the session's user-space events and why (text only: MI
 * has no place for it); nothing from a daemon before minor 20.
 */
static void print_clock(const struct ltt_session_info *s)
{
	if (!s->clock[0])
		return;
	ctl_out_text("User-space clock: %s, read with %s", s->clock, s->clock_read);
	if (s->clock_reason && s->clock_reason[0])
		ctl_out_text(" (%s)", s->clock_reason);
	ctl_out_text("\n");
}

static int list_sessions(struct ltt_ctl *ctl)
{
	struct ltt_session_info *sessions;
	size_t count, i;
	int ret;

	ret = ctl_util_list_sessions(ctl, &sessions, &count);
	if (ret)
		return ret;
	if (!count)
		ctl_out_text("No sessions.\n");
	ctl_obj_sessions_schema(sessions, count);
	ctl_out_open("sessions");
	for (i = 0; i < count; i++) {
		ctl_out_text("  %zu) ", i + 1);
		ctl_util_qualify_name(&sessions[i]);
		print_session(&sessions[i]);
		ctl_obj_session_open(&sessions[i]);
		ctl_out_close();
	}
	ctl_out_close();
	free(sessions);
	return CTL_EXIT_OK;
}

static void print_rule(const struct ltt_event_rule_info *rule)
{
	const struct ltt_event_rule_attr *a = &rule->attr;

	if (rule->domain == LTT_DOMAIN_KERNEL && a->location) {
		ctl_out_text("      %s (type: %s, location: %s)", a->pattern,
			     a->type == LTT_EVENT_UPROBE ? "userspace-probe" :
			     a->type == LTT_EVENT_FUNCTION ? "function" : "probe", a->location);
		goto tail;
	}
	if (rule->domain == LTT_DOMAIN_KERNEL) {
		ctl_out_text("      %s (type: %s)", a->pattern,
			     a->type == LTT_EVENT_SYSCALL ? "syscall" : "tracepoint");
		goto tail;
	}
	ctl_out_text("      %s (%s%sloglevel: ", a->pattern,
		     ltt_agent_domain(rule->domain) ? ltt_domain_name(rule->domain) : "",
		     ltt_agent_domain(rule->domain) ? " logger, " : "");
	switch (a->loglevel_type) {
	case LTT_LOGLEVEL_ALL:
		ctl_out_text("any");
		break;
	case LTT_LOGLEVEL_RANGE:
		ctl_out_text("%s or more severe",
			     ltt_loglevel_name_domain(rule->domain, a->loglevel));
		break;
	case LTT_LOGLEVEL_SINGLE:
		ctl_out_text("%s only", ltt_loglevel_name_domain(rule->domain, a->loglevel));
		break;
	}
	ctl_out_text(")");
tail:
	if (a->exclusions)
		ctl_out_text(" (excludes: %s)", a->exclusions);
	ctl_out_text(" [%s]", rule->enabled ? "enabled" : "disabled");
	if (a->filter)
		ctl_out_text(" [filter: %s]", a->filter);
	ctl_out_text("\n");
}

/* "0" as "off" or "unlimited", other values with their unit. */
static void print_attr_u64(const char *label, uint64_t value, const char *zero,
			   const char *unit)
{
	if (!value)
		ctl_out_text("      %s: %s\n", label, zero);
	else
		ctl_out_text("      %s: %" PRIu64 "%s\n", label, value, unit);
}

/*
 * What a session's listing gathers besides its detail: its contexts (none
 * from a daemon older than contexts) and, for --mem-usage in MI, the
 * memory of its buffers (ltt_ctl_mem_usage()'s order: by channel, owner,
 * CPU).
 */
struct listing {
	struct ltt_context_info *ctx;
	size_t nr_ctx;
	struct ltt_mem_stream *mem;	/* NULL: not asked */
	size_t nr_mem;
};

static void print_contexts(const struct listing *l, const struct ltt_channel_info *ch)
{
	size_t i, shown = 0;

	for (i = 0; i < l->nr_ctx; i++) {
		if (l->ctx[i].domain != ch->domain || strcmp(l->ctx[i].channel, ch->attr.name))
			continue;
		if (!shown++)
			ctl_out_text("\n    Contexts:\n");
		ctl_out_text("      %s\n", l->ctx[i].context.name);
	}
}

/* How much --mem-usage says of each channel. */
enum mem_mode {
	MEM_NONE = 0,
	MEM_TOTAL,	/* per channel */
	MEM_COMPACT,	/* per channel and owner (user, or program) */
	MEM_FULL,	/* per ring buffer: owner and CPU */
};

static const char *const mem_modes[] = { "", "total", "compact", "full" };

/* Do @a and @b belong to the same line of @mode? */
static bool mem_same(enum mem_mode mode, const struct ltt_mem_stream *a,
		     const struct ltt_mem_stream *b)
{
	if (a->domain != b->domain || strcmp(a->channel, b->channel))
		return false;
	if (mode == MEM_TOTAL)
		return true;
	return a->uid == b->uid && a->pid == b->pid && (mode == MEM_COMPACT || a->cpu == b->cpu);
}

/* Is @v a buffer of channel @ch? */
static bool mem_of(const struct ltt_mem_stream *v, const struct ltt_channel_info *ch)
{
	return v->domain == ch->domain && !strcmp(v->channel, ch->attr.name);
}

/*
 * Are @ch's figures measured (the MI says no other)?  User space's are;
 * a kernel channel's when the kernel counted each of its buffers.
 */
static bool mem_measured(const struct listing *l, const struct ltt_channel_info *ch)
{
	size_t i, n = 0;

	if (ch->domain != LTT_DOMAIN_KERNEL)
		return true;
	for (i = 0; i < l->nr_mem; i++) {
		if (!mem_of(&l->mem[i], ch))
			continue;
		if (l->mem[i].how == LTT_MEM_CONFIGURED)
			return false;
		n++;
	}
	return n > 0;
}

/*
 * LTTng 2.15's <data_stream_info_sets> of channel @ch (MI schema 4.2): a
 * set per owner (a user's <uid>, or a program's <pid>), a
 * <data_stream_info> per CPU with the bytes its buffer holds now, and
 * the totals.  The text says it after the listing (print_mem_usage()).
 */
static void put_mem_sets(const struct listing *l, const struct ltt_channel_info *ch)
{
	uint64_t total = 0, set;
	size_t i, j;

	ctl_out_open("data_stream_info_sets");
	ctl_out_open("sets");
	for (i = 0; i < l->nr_mem; i = j) {
		const struct ltt_mem_stream *v = &l->mem[i];

		for (j = i + 1; j < l->nr_mem && mem_same(MEM_COMPACT, v, &l->mem[j]); j++)
			;
		if (!mem_of(v, ch))
			continue;
		ctl_out_open("data_stream_info_set");
		if (v->pid) {
			ctl_out_u64("pid", (uint64_t)v->pid);
		} else {
			ctl_out_open("uid");
			ctl_out_u64("id", v->uid);
			ctl_out_close();
		}
		ctl_out_open("data_stream_info_list");
		for (set = 0; v < &l->mem[j]; v++) {
			ctl_out_open("data_stream_info");
			ctl_out_u64("cpu_id", v->cpu);
			ctl_out_u64("memory_usage_bytes", v->resident);
			ctl_out_close();
			ltt_add_sat(&set, v->resident);
		}
		ctl_out_close();
		ctl_out_u64("total_memory_usage_bytes", set);
		ctl_out_close();
		ltt_add_sat(&total, set);
	}
	ctl_out_close();
	ctl_out_u64("total_memory_usage_bytes", total);
	ctl_out_close();
}

static void print_channel(const struct ltt_session_detail *d, const struct listing *l,
			  const struct ltt_channel_info *ch)
{
	const struct ltt_channel_attr *a = &ch->attr;
	char size[32];
	size_t i, nr_rules = 0;

	ctl_obj_channel_open(&d->info, ch->domain, a, ch->enabled, ch->discarded_events,
			     ch->lost_packets);
	ctl_out_text("\n- %s: [%s]\n\n    Attributes:\n", a->name, ch->enabled ? "enabled" : "disabled");
	ltt_size_format(a->subbuf_size, size, sizeof(size));
	ctl_out_text("      sub-buffer size: %s\n", size);
	ctl_out_text("      sub-buffer count: %" PRIu64 "\n", a->num_subbuf);
	ctl_out_text("      overwrite mode: %s\n", a->overwrite ? "overwrite" : "discard");
	print_attr_u64("switch timer", a->switch_timer_us, "off", " us");
	print_attr_u64("read timer", a->read_timer_us, "off", " us");
	if (a->tracefile_size) {
		ltt_size_format(a->tracefile_size, size, sizeof(size));
		ctl_out_text("      tracefile size: %s\n", size);
	} else {
		ctl_out_text("      tracefile size: unlimited\n");
	}
	print_attr_u64("tracefile count", a->tracefile_count, "unlimited", "");
	if (a->fsync)
		ctl_out_text("      fsync: each packet synced to the disk\n");
	/* DEFAULT: a daemon's default channel, or an older daemon's */
	if (a->preallocation == LTT_PREALLOC_PREALLOCATE ||
	    (!a->preallocation && ch->domain == LTT_DOMAIN_KERNEL))
		ctl_out_text("      buffer preallocation: preallocate (every page when created)\n");
	else
		ctl_out_text("      buffer preallocation: on-demand (a CPU's pages as it writes)\n");
	if (a->allocation == LTT_ALLOC_PER_CHANNEL)
		ctl_out_text("      buffer allocation: per-channel (one ring buffer, written from "
			     "every CPU)\n");
	else
		ctl_out_text("      buffer allocation: per-cpu\n");
	if (a->auto_reclaim == LTT_AUTO_RECLAIM_CONSUMED)
		ctl_out_text("      automatic memory reclaim: consumed (a sub-buffer's pages once "
			     "read)\n");
	else if (a->auto_reclaim == LTT_AUTO_RECLAIM_OLDER_THAN)
		ctl_out_text("      automatic memory reclaim: older-than %" PRIu64 " us (read, and "
			     "closed that long ago)\n", a->auto_reclaim_us);
	if (a->blocking_timeout_us == LTT_BLOCKING_TIMEOUT_INF)
		ctl_out_text("      blocking timeout: inf (a program that allows it waits for room "
			     "as long as it takes)\n");
	else if (a->blocking_timeout_us)
		ctl_out_text("      blocking timeout: %" PRIu64 " us (a program that allows it waits "
			     "that long for room)\n", a->blocking_timeout_us);
	ctl_out_text("      discarded events: %" PRIu64 "\n", ch->discarded_events);
	ctl_out_text("      lost packets: %" PRIu64 "\n", ch->lost_packets);
	ctl_report_output_failure(ch);
	print_contexts(l, ch);
	ctl_out_text("\n    Event rules:\n");
	ctl_out_open("events");
	for (i = 0; i < d->nr_rules; i++) {
		const struct ltt_event_rule_info *rule = &d->rules[i];

		/* an agent domain's channel (user space's) holds its rules */
		if ((rule->domain != ch->domain &&
		     (!ltt_agent_domain(rule->domain) || ch->domain != LTT_DOMAIN_USER)) ||
		    strcmp(rule->channel, a->name))
			continue;
		print_rule(rule);
		if (rule->domain == ch->domain)	/* agents': in their own <domain> */
			ctl_obj_rule(rule->domain, &rule->attr, rule->enabled);
		nr_rules++;
	}
	ctl_out_close();
	if (!nr_rules)
		ctl_out_text("      none\n");
	/* LTTng has no memory figure of kernel channels */
	if (l->mem && mem_measured(l, ch))
		put_mem_sets(l, ch);
	ctl_out_close();
}

/* Is @ch one that list shows: of @domain, and named @channel (NULL: any)? */
static bool listed(const struct ltt_channel_info *ch, enum ltt_domain domain, const char *channel)
{
	return ch->domain == domain && (!channel || !strcmp(ch->attr.name, channel));
}

/*
 * The channels of @domain (only @channel, when not NULL); returns false
 * when it has none.  @tracer: how the daemon traces the kernel (NULL: not
 * said).
 */
static bool print_domain(struct ltt_ctl *ctl, const struct ltt_session_detail *d,
			 const struct listing *l, enum ltt_domain domain, const char *channel,
			 const struct ltt_kernel_tracer_info *tracer)
{
	enum ltt_buffer_type buffers = LTT_BUFFER_DEFAULT;
	size_t i, nr_channels = 0;

	for (i = 0; i < d->nr_channels; i++) {
		if (!listed(&d->channels[i], domain, channel))
			continue;
		if (!nr_channels++)
			buffers = d->channels[i].attr.buffer_type;
	}
	if (!nr_channels) {
		/* MI: a domain whose trackers leave some process out, as LTTng's has it */
		if (!channel && cmd_track_some(ctl, d->info.name, domain)) {
			ctl_obj_domain_open(domain, buffers);
			cmd_track_list_mi(ctl, d->info.name, domain);
			ctl_out_close();
		}
		return false;
	}
	ctl_obj_domain_open(domain, buffers);
	if (buffers == LTT_BUFFER_DEFAULT)
		buffers = domain == LTT_DOMAIN_KERNEL ? LTT_BUFFER_GLOBAL : LTT_BUFFER_PER_UID;
	ctl_out_text("\n=== Domain: %s ===\n\nBuffering scheme: %s\n",
	       domain == LTT_DOMAIN_KERNEL ? "Kernel" : "User space",
	       ltt_buffer_type_name(buffers));
	if (tracer)
		ctl_out_text("Tracer: %s (%s)\n", tracer->backend, tracer->version);
	for (i = 0; i < d->nr_stalls; i++)
		if (d->stalls[i].domain == domain)
			ctl_report_stall_text(&d->stalls[i]);
	ctl_out_open("channels");
	for (i = 0; i < d->nr_channels; i++) {
		if (listed(&d->channels[i], domain, channel))
			print_channel(d, l, &d->channels[i]);
	}
	ctl_out_close();
	cmd_track_list_mi(ctl, d->info.name, domain);
	ctl_out_close();
	return true;
}

/*
 * The rules of agent domain @agent as LTTng's MI has them: a <domain> of
 * their own with its <events> (the text shows them in their user-space
 * channel).  @channel: only those of that channel (NULL: all).
 */
static void put_agent_domain(const struct ltt_session_detail *d, enum ltt_domain agent,
			     const char *channel)
{
	size_t i, n = 0;

	for (i = 0; i < d->nr_rules; i++) {
		const struct ltt_event_rule_info *rule = &d->rules[i];

		if (rule->domain != agent || (channel && strcmp(rule->channel, channel)))
			continue;
		if (!n++) {
			ctl_obj_domain_open(agent, LTT_BUFFER_DEFAULT);
			ctl_out_open("events");
		}
		ctl_obj_rule(rule->domain, &rule->attr, rule->enabled);
	}
	if (n) {
		ctl_out_close();
		ctl_out_close();
	}
}

/* One domain's relay connection: its state, what it sent, where it went. */
static void print_relay_info(const struct ltt_relay_info *r)
{
	char size[32];

	ctl_out_text("Relay connection (%s): ", r->domain == LTT_DOMAIN_KERNEL ? "kernel" : "user space");
	switch (r->state) {
	case LTT_RELAY_STATE_CONNECTED:
		ctl_out_text("connected");
		break;
	case LTT_RELAY_STATE_LOST:
		ctl_out_text("lost (%s)", r->error ? strerror(r->error) : "unknown error");
		break;
	default:
		ctl_out_text("not connected yet");
		break;
	}
	ltt_size_format(r->bytes_sent, size, sizeof(size));
	ctl_out_text(", %" PRIu64 " packets sent (%s), %" PRIu64 " lost\n", r->packets_sent, size,
	       r->packets_lost);
	if (r->output_path[0])
		ctl_out_text("    written by the relay in %s\n", r->output_path);
}

/*
 * A streamed session: its relay's ports, live timer, and each domain's
 * connection (none before the first start).
 */
static void print_relay(struct ltt_ctl *ctl, const struct ltt_session_info *s)
{
	struct ltt_relay_info *relays;
	size_t i, count;
	int ret;

	char ctrl[LTT_URI_TEXT_SIZE], data[LTT_URI_TEXT_SIZE];
	struct ltt_uri net, port;

	if (s->output_type != LTT_OUTPUT_NET)
		return;
	if (!ltt_uri_parse(s->output, &net) && !ltt_uri_net_port(&net, 0, &port) &&
	    !ltt_uri_format(&port, ctrl, sizeof(ctrl)) && !ltt_uri_net_port(&net, 1, &port) &&
	    !ltt_uri_format(&port, data, sizeof(data))) {
		ctl_out_text("Relay: control %s, data %s%s%s\n", ctrl, data,
		       net.path[0] ? ", path " : "", net.path);
	}
	if (s->live_timer_us)
		ctl_out_text("Live timer interval: %" PRIu32 " us\n", s->live_timer_us);
	ret = ltt_ctl_relay_status(ctl, s->name, &relays, &count);
	if (ret) {
		ctl_out_text("Relay connection: unknown (%s)\n", ltt_strerror(ret));
		return;
	}
	if (!count)
		ctl_out_text("Relay connection: none yet (the session has not started)\n");
	for (i = 0; i < count; i++)
		print_relay_info(&relays[i]);
	free(relays);
}

/* The rotation schedule and the newest archive, when there is one of either. */
static void print_rotation(struct ltt_ctl *ctl, const char *session)
{
	struct ltt_rotation_info ri;
	char size[32], since[32];
	struct tm tm;
	time_t t;

	if (ltt_ctl_rotation_info(ctl, session, &ri))
		return;	/* an older daemon: no trace chunks */
	if (ri.timer_us)
		ctl_out_text("Automatic rotation schedule: every %llu us\n",
			     (unsigned long long)ri.timer_us);
	if (ri.size) {
		ltt_size_format(ri.size, size, sizeof(size));
		ctl_out_text("Automatic rotation schedule: each time %s are written\n", size);
	}
	if (ri.chunk_id)
		ctl_out_text("Trace chunk: %llu; last archive: %s\n",
			     (unsigned long long)ri.chunk_id,
			     ri.last_archive[0] ? ri.last_archive : "(none)");
	if (ri.error && (t = (time_t)ri.error_since, localtime_r(&t, &tm)) &&
	    strftime(since, sizeof(since), "%Y-%m-%d %H:%M:%S", &tm))
		ctl_out_text("Automatic rotation failing since %s: %s\n", since,
			     ltt_strerror(-ri.error));
	if (ri.timer_us || ri.size) {
		ctl_out_open("rotation_schedules");
		ctl_obj_rotation_schedule(ri.timer_us, ri.size);
		ctl_out_close();
	}
}

static bool has_kernel_channel(const struct ltt_session_detail *d)
{
	size_t i;

	for (i = 0; i < d->nr_channels; i++)
		if (d->channels[i].domain == LTT_DOMAIN_KERNEL)
			return true;
	return false;
}

/* Has @d a channel @channel in @domain (NONE: either; an agent domain: user space)? */
/* Whether the set @domains (0: all) holds @domain. */
static bool wanted(unsigned int domains, enum ltt_domain domain)
{
	return !domains || (domains & CMD_LIST_DOMAIN(domain));
}

/* The user-space channels are shown for -u and for an agent domain, whose channels they are. */
static bool wants_user(unsigned int domains)
{
	return !domains || (domains & ~CMD_LIST_DOMAIN(LTT_DOMAIN_KERNEL));
}

static bool has_channel(const struct ltt_session_detail *d, unsigned int domains,
			const char *channel)
{
	return (wanted(domains, LTT_DOMAIN_KERNEL) &&
		ctl_util_find_channel(d, LTT_DOMAIN_KERNEL, channel)) ||
	       (wants_user(domains) && ctl_util_find_channel(d, LTT_DOMAIN_USER, channel));
}

int cmd_list_show_session(struct ltt_ctl *ctl, const char *session, unsigned int domains,
			  const char *channel, bool mem)
{
	const struct ltt_kernel_tracer_info *tracer;
	struct ltt_kernel_tracer_info tracer_info;
	struct listing l = { NULL, 0, NULL, 0 };
	struct ltt_session_detail *d;
	enum ltt_domain agent;
	bool shown = false;
	int ret;

	ret = ctl_util_get_session(ctl, session, &d);
	if (ret)
		return ret;
	if (channel && !has_channel(d, domains, channel)) {
		ctl_out_error(LTT_ERR_CHANNEL_NOT_FOUND, "channel '%s' of session '%s': %s", channel,
			      session, ltt_strerror(LTT_ERR_CHANNEL_NOT_FOUND));
		free(d);
		return CTL_EXIT_FAILURE;
	}
	ret = ltt_ctl_list_contexts(ctl, session, &l.ctx, &l.nr_ctx);
	if (ret == -LTT_ERR_NOT_SUPPORTED)
		ret = 0;
	if (!ret && mem)
		ret = ltt_ctl_mem_usage(ctl, session, &l.mem, &l.nr_mem);
	if (ret) {
		ctl_out_error(ret, "session '%s': %s%s", session, mem ? "memory usage: " : "",
			      ltt_strerror(ret));
		free(l.ctx);
		free(d);
		return CTL_EXIT_FAILURE;
	}
	ctl_out_text("Session ");
	print_session(&d->info);
	print_format(&d->info);
	print_clock(&d->info);
	ctl_obj_sessions_schema(&d->info, 1);
	ctl_out_open("sessions");
	ctl_obj_session_open(&d->info);
	print_snapshot_outputs(ctl, &d->info);
	print_relay(ctl, &d->info);
	print_rotation(ctl, session);
	ctl_report_shm_failure(d, false);
	tracer = wanted(domains, LTT_DOMAIN_KERNEL) && has_kernel_channel(d) &&
		 !ltt_ctl_kernel_tracer(ctl, &tracer_info) ? &tracer_info : NULL;
	ctl_out_open("domains");
	if (wanted(domains, LTT_DOMAIN_KERNEL))
		shown |= print_domain(ctl, d, &l, LTT_DOMAIN_KERNEL, channel, tracer);
	/* the agent domains record in user-space channels */
	if (wants_user(domains))
		shown |= print_domain(ctl, d, &l, LTT_DOMAIN_USER, channel, NULL);
	/* then JUL, log4j and python, in LTTng's order of domains */
	for (agent = LTT_DOMAIN_JUL; ltt_agent_domain(agent); agent++)
		if (wanted(domains, agent))
			put_agent_domain(d, agent, channel);
	ctl_out_close();
	if (!shown)
		ctl_out_text("\nNo channels.\n");
	cmd_track_list(ctl, session, wanted(domains, LTT_DOMAIN_KERNEL), wants_user(domains));
	ctl_out_close();
	ctl_out_close();
	free(l.ctx);
	free(l.mem);
	free(d);
	return CTL_EXIT_OK;
}

/*
 * --domain: @session's domains alone, as LTTng's list gives them: the
 * kernel's and user space's when they have a channel (an agent's rules
 * are recorded in user-space channels), an agent's when it has a rule.
 */
static int show_domains(struct ltt_ctl *ctl, const char *session)
{
	static const char *const names[] = {
		[LTT_DOMAIN_KERNEL] = "Kernel", [LTT_DOMAIN_USER] = "UST global",
		[LTT_DOMAIN_JUL] = "JUL (Java Util Logging)",
		[LTT_DOMAIN_LOG4J] = "LOG4j (Logging for Java)",
		[LTT_DOMAIN_PYTHON] = "Python (logging)",
	};
	static const enum ltt_domain order[] = { LTT_DOMAIN_KERNEL, LTT_DOMAIN_USER,
						 LTT_DOMAIN_JUL, LTT_DOMAIN_LOG4J,
						 LTT_DOMAIN_PYTHON };
	struct ltt_session_detail *d;
	size_t i, j, n = 0;
	int ret;

	ret = ctl_util_get_session(ctl, session, &d);
	if (ret)
		return ret;
	ctl_out_text("Session ");
	print_session(&d->info);
	ctl_obj_sessions_schema(&d->info, 1);
	ctl_out_open("sessions");
	ctl_obj_session_open(&d->info);
	ctl_out_text("\nDomains:\n-------------\n");
	ctl_out_open("domains");
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		enum ltt_buffer_type buffers = LTT_BUFFER_DEFAULT;
		bool has = false;

		for (j = 0; !has && j < d->nr_channels; j++) {
			has = d->channels[j].domain == order[i];
			buffers = d->channels[j].attr.buffer_type;
		}
		for (j = 0; !has && ltt_agent_domain(order[i]) && j < d->nr_rules; j++)
			has = d->rules[j].domain == order[i];
		if (!has)
			continue;
		n++;
		ctl_out_text("  - %s\n", names[order[i]]);
		ctl_obj_domain_open(order[i], ltt_agent_domain(order[i]) ? LTT_BUFFER_DEFAULT : buffers);
		ctl_out_close();
	}
	if (!n)
		ctl_out_text("  None\n");
	ctl_out_close();
	ctl_out_close();
	ctl_out_close();
	free(d);
	return CTL_EXIT_OK;
}

/* One line: the buffers v[0..n) of one channel (and owner, and CPU), added to @total. */
static void print_mem_line(enum mem_mode mode, const struct ltt_mem_stream *v, size_t n,
			   uint64_t *total)
{
	uint64_t resident = 0, size = 0;
	char res[32], max[32];
	size_t i;

	for (i = 0; i < n; i++) {
		ltt_add_sat(&resident, v[i].resident);
		ltt_add_sat(&size, v[i].size);
	}
	ltt_add_sat(total, resident);
	ltt_size_format(resident, res, sizeof(res));
	ltt_size_format(size, max, sizeof(max));
	ctl_out_text("  %s %s", v->domain == LTT_DOMAIN_KERNEL ? "kernel" : "user space",
		     v->channel);
	if (mode != MEM_TOTAL && v->pid)
		ctl_out_text(", pid %" PRId32, v->pid);
	else if (mode != MEM_TOTAL)
		ctl_out_text(", uid %" PRIu32, v->uid);
	if (mode == MEM_FULL && v->cpu == LTT_MEM_CPU_CHANNEL)
		ctl_out_text(", every CPU");
	else if (mode == MEM_FULL)
		ctl_out_text(", CPU %" PRIu32, v->cpu);
	ctl_out_text(": %" PRIu64 " bytes (%s) of %" PRIu64 " (%s)", resident, res, size, max);
	if (mode != MEM_FULL)
		ctl_out_text(" in %zu buffers", n);
	if (v->how == LTT_MEM_KERNEL_COUNT)
		ctl_out_text(", the kernel's count (buffer_size_kb)");
	else if (v->how == LTT_MEM_MODULE_COUNT)
		ctl_out_text(", the module's count (allocated whole)");
	else if (v->how == LTT_MEM_CONFIGURED)
		ctl_out_text(", its configured size (allocated whole)");
	ctl_out_text("\n");
}

/*
 * The memory the buffers of session @name hold now, as the daemon
 * measures it (the pages their shared memory holds); only @channel's
 * when not NULL.
 */
static int print_mem_usage(struct ltt_ctl *ctl, const char *name, enum mem_mode mode,
			   const char *channel)
{
	struct ltt_mem_stream *v;
	uint64_t total = 0;
	size_t i, j, n;
	char size[32];
	int ret;

	ret = ltt_ctl_mem_usage(ctl, name, &v, &n);
	if (ret) {
		ctl_out_error(ret, "session '%s': memory usage: %s", name, ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	ctl_out_text("\nMemory usage (user space: the pages its buffers hold now, measured; "
		     "kernel: as each line says):\n");
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && mem_same(mode, &v[i], &v[j]); j++)
			;
		if (channel && strcmp(v[i].channel, channel))
			continue;
		print_mem_line(mode, &v[i], j - i, &total);
	}
	ltt_size_format(total, size, sizeof(size));
	ctl_out_text("  total: %" PRIu64 " bytes (%s)\n", total, size);
	free(v);
	return CTL_EXIT_OK;
}

/* What list was asked. */
struct list_args {
	struct ctl_domain_opts d;	/* -k, -u, -p, -j, -l */
	int fields, syscalls;
	int no_truncate;		/* LTTng's: changes nothing */
	int domains_only;		/* --domain */
	enum mem_mode mem;
	char *values[3];	/* --channel, --mem-usage, --map-channel */
};

unsigned int cmd_list_domains(const struct ctl_domain_opts *d)
{
	return (d->kernel ? CMD_LIST_DOMAIN(LTT_DOMAIN_KERNEL) : 0) |
	       (d->user ? CMD_LIST_DOMAIN(LTT_DOMAIN_USER) : 0) |
	       (d->python ? CMD_LIST_DOMAIN(LTT_DOMAIN_PYTHON) : 0) |
	       (d->jul ? CMD_LIST_DOMAIN(LTT_DOMAIN_JUL) : 0) |
	       (d->log4j ? CMD_LIST_DOMAIN(LTT_DOMAIN_LOG4J) : 0);
}

/* The sessions (no NAME), one session, or the available events (-u). */
static int list(const struct ctl_ctx *ctx, const char *name, const struct list_args *a)
{
	struct ctl_domain_opts both = { .python = a->d.python, .jul = a->d.jul,
					.log4j = a->d.log4j };
	bool kernel = a->d.kernel, user = a->d.user, fields = a->fields, syscalls = a->syscalls;
	enum ltt_domain domain = LTT_DOMAIN_NONE;	/* both */
	unsigned int domains = 0;			/* NAME's: all */
	const char *channel = a->values[0];
	const struct ltt_agent_domain *agent;
	struct ltt_ctl *ctl;
	int ret;

	if (channel && !name)
		return ctl_util_usage_error(ctx, "--channel lists one channel of a session: "
					    "give the session's NAME");
	if (a->values[2] && (!name || channel || a->mem))
		return ctl_util_usage_error(ctx, "--map-channel lists one map channel of a session: "
					    "give the session's NAME, without --channel and --mem-usage");
	if (a->mem && !name)
		return ctl_util_usage_error(ctx, "--mem-usage shows the memory of a session's "
					    "buffers: give the session's NAME");
	if (a->domains_only && (!name || channel || a->mem || a->values[2]))
		return ctl_util_usage_error(ctx, "--domain lists a session's domains alone: give "
					    "the session's NAME, without --channel, --map-channel and "
					    "--mem-usage");
	/* MI: in each channel, as LTTng 2.15's schema 4.2 has it */
	if (a->mem && ctl_out_format() == CTL_OUT_XML)
		ctl_out_schema("4.2");
	/* a session's listing shows each domain asked for, as LTTng's */
	if (name)
		domains = cmd_list_domains(&a->d);
	/* the available events: -k and -u together both; an agent domain alone */
	both.kernel = kernel && !user;
	both.user = user && !kernel;
	if (!name && (ctl_util_any_domain(ctx, &both, &domain) ||
		      (ltt_agent_domain(domain) && kernel && user)))
		return ctl_util_usage_error(ctx, "choose one domain of -k, -u, -p, -j and -l, "
					    "not two");
	agent = ltt_agent_domain(domain);
	if (agent && fields)
		return ctl_util_usage_error(ctx, "-f lists the fields of events: %s loggers "
					    "have none (their records are %s, -u -f)", agent->name,
					    agent->event);
	if (syscalls && (name || !kernel || user))
		return ctl_util_usage_error(ctx, "--syscall lists the kernel's system calls: "
					    "use it with -k alone");
	if (!name && kernel && user)
		return ctl_util_usage_error(ctx, "list the available events of one domain: "
					    "-k or -u");
	if (!name && fields && !user && !kernel)
		return ctl_util_usage_error(ctx, "-f lists the fields of available events: "
					    "use it with -k or -u");
	ret = name ? ctl_util_check_session_ref(name) : CTL_EXIT_OK;
	if (!ret)
		ret = ctl_util_connect(ctx, false, &ctl);
	if (ret)
		return ret;
	if (name && a->domains_only)
		ret = show_domains(ctl, name);
	else if (name && a->values[2])
		ret = ctl_maps_list_one(ctl, name, a->values[2]);
	else if (!name && (user || kernel || agent))
		ret = cmd_list_events(ctl, domain, syscalls, fields);
	else if (!name)
		ret = list_sessions(ctl);
	else
		ret = cmd_list_show_session(ctl, name, domains, channel,
					    a->mem && ctl_out_format() == CTL_OUT_XML);
	if (name && a->mem && ret == CTL_EXIT_OK && ctl_out_format() != CTL_OUT_XML)
		ret = print_mem_usage(ctl, name, a->mem, channel);
	ltt_ctl_disconnect(ctl);
	return ret;
}

/* --mem-usage's mode, then the NAME of the line listed. */
static int list_run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	struct list_args *a = arg;
	const char **args;
	int ret, nr;

	for (nr = MEM_TOTAL; a->values[1] && nr <= MEM_FULL; nr++)
		if (!strcmp(a->values[1], mem_modes[nr]))
			a->mem = (enum mem_mode)nr;
	if (a->values[1] && !a->mem)
		return ctl_util_usage_error(ctx, "--mem-usage=%s: say total, compact or full",
					    a->values[1]);
	nr = ctl_util_args(pc, &args);
	ret = ctl_util_check_nr_args(ctx, args, nr, 1);
	return ret ? ret : list(ctx, args[0], a);
}

int cmd_list(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct list_args a = { 0 };
	struct poptOption options[] = {
		CMD_LIST_SESSION_OPTIONS(&a.d, CTL_OPT_VALUE + 0, &a.no_truncate, CTL_OPT_VALUE + 2),
		{ "fields", 'f', POPT_ARG_NONE, &a.fields, 0,
		  "with -k or -u alone: the fields of the events", NULL },
		{ "syscall", 0, POPT_ARG_NONE, &a.syscalls, 0,
		  "with -k alone: the system calls that can be traced", NULL },
		{ "mem-usage", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + 1,
		  "with NAME: the memory its buffers hold now, per channel (total), per "
		  "channel and owner (compact) or per buffer (full)", "total|compact|full" },
		{ "domain", 'd', POPT_ARG_NONE, &a.domains_only, 0,
		  "with NAME: the session's domains alone", NULL },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, a.values, 3, list_run, &a);
}
