// SPDX-License-Identifier: LGPL-2.1-only
/*
 * enable_channel.c - lttctl enable-channel: create channels, or enable
 * disabled ones.
 *
 * The options apply over what a channel already has (an existing channel)
 * or over the domain's defaults (a new one), so "enable-channel -u NAME"
 * re-enables a channel whatever its attributes, and a new channel takes
 * the buffer ownership of the domain's other channels unless told
 * otherwise.  Every channel of the list is checked before any is sent.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/attr.h"
#include "common/model/convert.h"
#include "common/base/names.h"
#include "common/base/size.h"
#include "common/trace/tracefile.h"
#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

/* The string options, in values[]. */
enum {
	VAL_SESSION,
	VAL_SUBBUF_SIZE,
	VAL_NUM_SUBBUF,
	VAL_SWITCH_TIMER,
	VAL_READ_TIMER,
	VAL_TRACEFILE_SIZE,
	VAL_TRACEFILE_COUNT,
	VAL_MONITOR_TIMER,	/* 0 or from 50 ms: met by the daemon's sampling (man page) */
	VAL_BLOCKING_TIMEOUT,	/* user space: microseconds, or inf (UINT64_MAX) */
	VAL_WATCHDOG_TIMER,	/* LTTng 2.15's: the consumer repairs as it reads (man page) */
	VAL_OUTPUT,		/* LTTng's mmap or splice: the consumer picks (man page) */
	VAL_OWNERSHIP,		/* LTTng 2.14's --buffer-ownership: the --buffers-* options */
	VAL_ALLOCATION,		/* LTTng 2.14's: per-cpu, or per-channel (user space) */
	VAL_RECLAIM,		/* LTTng 2.15's --auto-reclaim-memory: off, consumed, older-than:AGE */
	VAL_PREALLOC,		/* LTTng 2.15's --buffer-preallocation: preallocate or on-demand */
	NR_VALS,
};

/* How the numeric options are read. */
static const struct {
	const char *name;	/* for messages */
	bool size;		/* takes k, M, G suffixes */
	bool time;		/* microseconds; takes us, ms, s, m, h suffixes */
	uint64_t max;
	const char *hint;
} numbers[NR_VALS] = {
	[VAL_SUBBUF_SIZE] = { "--subbuf-size", true, false, UINT64_MAX,
			      "give bytes, with an optional k, M or G suffix" },
	[VAL_NUM_SUBBUF] = { "--num-subbuf", false, false, UINT64_MAX, "give a decimal number" },
	[VAL_SWITCH_TIMER] = { "--switch-timer", false, true, UINT32_MAX,
			       "use microseconds from 0 to 4294967295, or a value with a "
			       "unit: us, ms, s, m, h (\"1s\")" },
	[VAL_READ_TIMER] = { "--read-timer", false, true, UINT32_MAX,
			     "use microseconds from 0 to 4294967295, or a value with a "
			     "unit: us, ms, s, m, h (\"1s\")" },
	[VAL_TRACEFILE_SIZE] = { "--tracefile-size", true, false, UINT64_MAX,
				 "give bytes, with an optional k, M or G suffix" },
	[VAL_TRACEFILE_COUNT] = { "--tracefile-count", false, false, UINT64_MAX,
				  "give a decimal number" },
	[VAL_MONITOR_TIMER] = { "--monitor-timer", false, true, UINT64_MAX,
				"use microseconds, or a value with a unit: us, ms, s, m, h "
				"(\"1s\")" },
	[VAL_BLOCKING_TIMEOUT] = { "--blocking-timeout", false, true, LTT_BLOCKING_TIMEOUT_MAX_US,
				   "use microseconds up to 2147483647999 (2^31 - 1 ms, LTTng's "
				   "limit), a value with a unit: us, ms, s, m, h, or inf" },
	[VAL_WATCHDOG_TIMER] = { "--watchdog-timer", false, true, UINT64_MAX,
				 "use microseconds, or a value with a unit: us, ms, s, m, h "
				 "(\"1s\")" },
};

struct channel_args {
	struct ctl_channel_opts opts;	/* first: ctl_util_channel_run()'s */
	char *values[NR_VALS];
	uint64_t numbers[NR_VALS];	/* parsed values[VAL_SUBBUF_SIZE...] */
	int discard, overwrite;
	int fsync;
	uint8_t preallocation;		/* enum ltt_buffer_preallocation */
	uint8_t allocation;		/* enum ltt_buffer_allocation */
	uint8_t auto_reclaim;		/* enum ltt_auto_reclaim, when VAL_RECLAIM is given */
	uint64_t auto_reclaim_us;
	int buffers_uid, buffers_pid, buffers_global;
	enum ltt_buffer_type buffer_type;	/* DEFAULT: none given */
	struct ltt_channel_attr *attrs;		/* what check_channels() made, one a name */
};

/*
 * LTTng's --output: how its consumer reads the buffers.  ltt's consumer
 * picks per buffer (splice for the kernel's, mmap for user space's shared
 * memory), which makes the same trace: either is taken and changes
 * nothing, but splice for user space, which LTTng refuses too.
 */
static int check_output(const struct ctl_ctx *ctx, const struct channel_args *a)
{
	const char *output = a->values[VAL_OUTPUT];

	if (!output)
		return CTL_GO_ON;
	if (strcmp(output, "mmap") && strcmp(output, "splice"))
		return ctl_util_usage_error(ctx, "invalid --output '%s': give mmap or splice",
					    output);
	if (a->opts.user && !strcmp(output, "splice"))
		return ctl_util_usage_error(ctx, "--output=splice is for kernel channels: user "
					    "space buffers are read through mmap (give "
					    "--output=mmap or leave it out)");
	return CTL_GO_ON;
}

/*
 * LTTng 2.15's --auto-reclaim-memory: off, consumed, or older-than:AGE
 * (microseconds, or with a unit).  Which channels may have it is
 * ltt_attr_check_channel()'s and the daemon's to say.
 */
static int parse_reclaim(const struct ctl_ctx *ctx, struct channel_args *a)
{
	const char *reclaim = a->values[VAL_RECLAIM];

	if (!strcmp(reclaim, "off"))
		a->auto_reclaim = LTT_AUTO_RECLAIM_OFF;
	else if (!strcmp(reclaim, "consumed"))
		a->auto_reclaim = LTT_AUTO_RECLAIM_CONSUMED;
	else if (!strncmp(reclaim, "older-than:", 11) &&
		 !ctl_util_parse_us(reclaim + 11, UINT64_MAX / 1000, &a->auto_reclaim_us) &&
		 a->auto_reclaim_us)
		a->auto_reclaim = LTT_AUTO_RECLAIM_OLDER_THAN;
	else
		return ctl_util_usage_error(ctx, "invalid --auto-reclaim-memory '%s': give off, "
					    "consumed or older-than:AGE (AGE above 0: microseconds, "
					    "or a value with a unit: us, ms, s, m, h)", reclaim);
	return CTL_GO_ON;
}

/*
 * LTTng 2.14's and 2.15's buffer options: --buffer-ownership as the
 * --buffers-* option it names, --buffer-preallocation (user space: both;
 * the kernel refuses on-demand, the daemon says why), --buffer-allocation
 * (user space: both; the kernel refuses per-channel), --auto-reclaim-memory
 * (parse_reclaim());
 * --watchdog-timer is read (parse_values()) and changes nothing,
 * ltt's consumer repairing a dead writer's sub-buffer as it reads it.
 */
static int check_lttng_buffers(const struct ctl_ctx *ctx, struct channel_args *a)
{
	const char *owner = a->values[VAL_OWNERSHIP], *alloc = a->values[VAL_ALLOCATION];
	const char *pre = a->values[VAL_PREALLOC];

	if (a->values[VAL_WATCHDOG_TIMER] && !a->opts.user)
		return ctl_util_usage_error(ctx, "--watchdog-timer is for user space channels (-u)");
	if (owner && !strcmp(owner, "system"))
		a->buffers_global++;
	else if (owner && !strcmp(owner, "user"))
		a->buffers_uid++;
	else if (owner && !strcmp(owner, "process"))
		a->buffers_pid++;
	else if (owner)
		return ctl_util_usage_error(ctx, "invalid --buffer-ownership '%s': give system "
					    "(-k), user or process (-u)", owner);
	if (pre && !strcmp(pre, "preallocate"))
		a->preallocation = LTT_PREALLOC_PREALLOCATE;
	else if (pre && !strcmp(pre, "on-demand"))
		a->preallocation = LTT_PREALLOC_ON_DEMAND;
	else if (pre)
		return ctl_util_usage_error(ctx, "invalid --buffer-preallocation '%s': give "
					    "preallocate or on-demand", pre);
	if (alloc && !strcmp(alloc, "per-channel") && a->opts.kernel)
		return ctl_util_refuse_gap(LTT_LTTNG_GAP_PER_CHANNEL);
	if (alloc && !strcmp(alloc, "per-channel"))
		a->allocation = LTT_ALLOC_PER_CHANNEL;
	else if (alloc && strcmp(alloc, "per-cpu"))
		return ctl_util_usage_error(ctx, "invalid --buffer-allocation '%s': give per-cpu "
					    "or per-channel (-u)", alloc);
	if (a->values[VAL_RECLAIM])
		return parse_reclaim(ctx, a);
	return CTL_GO_ON;
}

/* Read the numeric options and check that exclusive ones are alone. */
static int parse_values(const struct ctl_ctx *ctx, struct channel_args *a)
{
	const char *text;
	int i, ret;

	for (i = VAL_SUBBUF_SIZE; i <= VAL_WATCHDOG_TIMER; i++) {
		text = a->values[i];
		if (!text)
			continue;
		if (i == VAL_BLOCKING_TIMEOUT && !strcmp(text, "inf")) {
			a->numbers[i] = UINT64_MAX;
			continue;
		}
		if (numbers[i].size)
			ret = ltt_size_parse(text, &a->numbers[i]);
		else if (numbers[i].time)
			ret = ctl_util_parse_us(text, numbers[i].max, &a->numbers[i]);
		else
			ret = ctl_util_parse_u64(text, numbers[i].max, &a->numbers[i]);
		if (ret)
			return ctl_util_usage_error(ctx, "invalid %s '%s': %s", numbers[i].name,
						    text, numbers[i].hint);
	}
	if (a->discard && a->overwrite)
		return ctl_util_usage_error(ctx, "choose --discard or --overwrite, not both");
	/* LTTng's check: a count of files only means something with a size */
	if (a->numbers[VAL_TRACEFILE_COUNT] && !a->numbers[VAL_TRACEFILE_SIZE])
		return ctl_util_usage_error(ctx, "-W/--tracefile-count needs -C/--tracefile-size: "
					    "without a size limit a stream has one file, and a "
					    "count of files changes nothing");
	/* LTTng's CLI rules: no kernel channel, no explicit --overwrite (but 0) */
	if (a->values[VAL_BLOCKING_TIMEOUT] &&
	    (a->opts.kernel || (a->numbers[VAL_BLOCKING_TIMEOUT] && a->overwrite))) {
		ret = a->opts.kernel ? LTT_ERR_BLOCKING_TIMEOUT : LTT_ERR_BLOCKING_OVERWRITE;
		ctl_out_error(ret, "%s", ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	/* LTTng's monitor timer: 0 turns LTTng's sampling off; ltt's is never slower than 50 ms */
	if (a->values[VAL_MONITOR_TIMER] && a->numbers[VAL_MONITOR_TIMER] &&
	    a->numbers[VAL_MONITOR_TIMER] < LTT_LTTNG_MONITOR_PERIOD_US)
		return ctl_util_refuse_gap(LTT_LTTNG_GAP_MONITOR_TIMER);
	ret = check_output(ctx, a);
	if (ret == CTL_GO_ON)
		ret = check_lttng_buffers(ctx, a);
	if (ret != CTL_GO_ON)
		return ret;
	if (a->buffers_uid + a->buffers_pid + a->buffers_global > 1)
		return ctl_util_usage_error(ctx, "choose one of --buffers-uid, --buffers-pid, "
					    "--buffers-global and --buffer-ownership");
	if (a->buffers_uid)
		a->buffer_type = LTT_BUFFER_PER_UID;
	else if (a->buffers_pid)
		a->buffer_type = LTT_BUFFER_PER_PID;
	else if (a->buffers_global)
		a->buffer_type = LTT_BUFFER_GLOBAL;
	return CTL_GO_ON;
}

static void apply_options(const struct channel_args *a, struct ltt_channel_attr *attr)
{
	if (a->values[VAL_SUBBUF_SIZE])
		attr->subbuf_size = a->numbers[VAL_SUBBUF_SIZE];
	if (a->values[VAL_NUM_SUBBUF])
		attr->num_subbuf = a->numbers[VAL_NUM_SUBBUF];
	if (a->values[VAL_SWITCH_TIMER])
		attr->switch_timer_us = (uint32_t)a->numbers[VAL_SWITCH_TIMER];
	if (a->values[VAL_READ_TIMER])
		attr->read_timer_us = (uint32_t)a->numbers[VAL_READ_TIMER];
	if (a->values[VAL_TRACEFILE_SIZE])
		attr->tracefile_size = a->numbers[VAL_TRACEFILE_SIZE];
	if (a->values[VAL_TRACEFILE_COUNT])
		attr->tracefile_count = a->numbers[VAL_TRACEFILE_COUNT];
	if (a->discard || a->overwrite)
		attr->overwrite = a->overwrite;
	if (a->fsync)
		attr->fsync = true;
	if (a->preallocation)
		attr->preallocation = a->preallocation;
	if (a->allocation)
		attr->allocation = a->allocation;
	if (a->values[VAL_BLOCKING_TIMEOUT])
		attr->blocking_timeout_us = a->numbers[VAL_BLOCKING_TIMEOUT];
	if (a->values[VAL_RECLAIM]) {
		attr->auto_reclaim = a->auto_reclaim;
		attr->auto_reclaim_us = a->auto_reclaim_us;
	}
	if (a->buffer_type != LTT_BUFFER_DEFAULT)
		attr->buffer_type = a->buffer_type;
}

/* LTTng's user space "metadata" channel (enable_metadata()). */
static bool is_metadata(enum ltt_domain domain, const char *name)
{
	return domain == LTT_DOMAIN_USER && !strcmp(name, "metadata");
}

/* The buffer ownership of the domain's channels, DEFAULT if it has none. */
static enum ltt_buffer_type domain_buffer_type(const struct ltt_session_detail *d,
					       enum ltt_domain domain)
{
	size_t i;

	for (i = 0; i < d->nr_channels; i++) {
		if (d->channels[i].domain == domain)
			return d->channels[i].attr.buffer_type;
	}
	return LTT_BUFFER_DEFAULT;
}

/* What to send for channel @name: checked, or an error is printed. */
static int make_attr(const struct channel_args *a, const struct ltt_session_detail *d,
		     enum ltt_domain domain, const char *name, struct ltt_channel_attr *attr)
{
	const struct ltt_channel_info *existing = ctl_util_find_channel(d, domain, name);
	struct ltt_channel_conf conf;
	int ret;

	if (existing && existing->enabled) {
		ctl_out_error(LTT_ERR_CHANNEL_ENABLED, "channel '%s' of session '%s': %s", name,
			      d->info.name, ltt_strerror(LTT_ERR_CHANNEL_ENABLED));
		return CTL_EXIT_FAILURE;
	}
	if (existing) {
		*attr = existing->attr;
	} else {
		ltt_ctl_channel_attr_init(attr, domain);
		strcpy(attr->name, name);
		if (domain_buffer_type(d, domain) != LTT_BUFFER_DEFAULT)
			attr->buffer_type = domain_buffer_type(d, domain);
		/* a snapshot session is a flight recorder: the newest events stay */
		if (d->info.snapshot)
			attr->overwrite = true;
	}
	apply_options(a, attr);
	/* A trace file holds whole sub-buffers: LTTng rounds a smaller size up. */
	if (attr->tracefile_size && attr->tracefile_size < attr->subbuf_size) {
		ctl_out_warn(LTT_ERR_TRACEFILE_ROUNDED, "channel '%s': --tracefile-size %" PRIu64
			     " rounded up to the sub-buffer size, %" PRIu64 ": %s", name,
			     attr->tracefile_size, attr->subbuf_size,
			     ltt_strerror(LTT_ERR_TRACEFILE_ROUNDED));
		attr->tracefile_size = attr->subbuf_size;
	}
	ret = ltt_conv_channel_attr_to_conf(attr, &conf);
	if (!ret)
		ret = ltt_attr_check_channel(&conf, domain);
	if (!ret)
		attr->buffer_type = conf.buffer_type;	/* DEFAULT resolved */
	if (ret) {
		ctl_out_error(ret, "channel '%s' of session '%s': %s", name, d->info.name,
			     ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	return CTL_EXIT_OK;
}

/*
 * Would channel @i of @attrs write files that a channel of the session or
 * an earlier one of @attrs writes too?  The daemon refuses it anyway; this
 * refuses it before any of the list is enabled.
 */
static int check_clash(const struct ltt_session_detail *d, enum ltt_domain domain,
		       const struct ltt_channel_attr *attrs, size_t i)
{
	const struct ltt_channel_attr *a = &attrs[i], *b;
	size_t j;

	for (j = 0; j < d->nr_channels + i; j++) {
		b = j < d->nr_channels ? &d->channels[j].attr : &attrs[j - d->nr_channels];
		if (j < d->nr_channels && d->channels[j].domain != domain)
			continue;
		if (ltt_tracefile_names_clash(b->name, b->tracefile_size != 0, a->name,
					      a->tracefile_size != 0)) {
			ctl_out_error(LTT_ERR_TRACEFILE_CLASH,
				      "channel '%s' of session '%s' (channel '%s' is there): %s",
				      a->name, d->info.name, b->name,
				      ltt_strerror(LTT_ERR_TRACEFILE_CLASH));
			return CTL_EXIT_FAILURE;
		}
	}
	return CTL_EXIT_OK;
}

/*
 * LTTng's user space channel "metadata": the attributes of the session's
 * metadata ring buffer (its tests give it --switch-timer and --buffers-*).
 * ltt has none to set: the session daemon sends each program's metadata to
 * the consumer as it is made.  The options are checked as a channel's,
 * the buffer ownership against the domain's channels (LTTng refuses a
 * mismatch too), then taken with a warning; nothing is made (LTTng lists
 * and saves no such channel either).
 */
static int enable_metadata(const struct channel_args *a, const struct ltt_session_detail *d)
{
	enum ltt_buffer_type owner = domain_buffer_type(d, LTT_DOMAIN_USER);
	struct ltt_channel_attr attr;
	struct ltt_channel_conf conf;
	int ret;

	ltt_ctl_channel_attr_init(&attr, LTT_DOMAIN_USER);
	apply_options(a, &attr);
	if (attr.tracefile_size && attr.tracefile_size < attr.subbuf_size)
		attr.tracefile_size = attr.subbuf_size;
	ret = ltt_conv_channel_attr_to_conf(&attr, &conf);	/* checked as channel0's */
	if (!ret)
		ret = ltt_attr_check_channel(&conf, LTT_DOMAIN_USER);
	if (!ret && a->buffer_type != LTT_BUFFER_DEFAULT && owner != LTT_BUFFER_DEFAULT &&
	    a->buffer_type != owner)
		ret = LTT_ERR_BUFFER_TYPE_MISMATCH;
	if (ret)
		return ctl_util_object_error(ret, "channel 'metadata' of session", d->info.name);
	ctl_out_warn(LTT_ERR_METADATA_CHANNEL, "channel 'metadata' of session '%s': %s",
		     d->info.name, ltt_strerror(LTT_ERR_METADATA_CHANNEL));
	ctl_out_info("Channel metadata enabled for session %s.", d->info.name);
	snprintf(attr.name, sizeof(attr.name), "%s", "metadata");
	ctl_obj_channel_open(&d->info, LTT_DOMAIN_USER, &attr, true, 0, 0);
	ctl_out_bool("success", true);
	ctl_out_close();
	return CTL_EXIT_OK;
}

/* What to send for each channel of @t (a->attrs), every one checked. */
static int check_channels(void *arg, struct ltt_ctl *ctl, const struct ltt_session_detail *d,
			  const struct ctl_channel_target *t)
{
	struct channel_args *a = arg;
	size_t i;
	int ret = CTL_EXIT_OK;

	(void)ctl;
	a->attrs = calloc(t->count, sizeof(*a->attrs));
	if (!a->attrs) {
		ctl_out_error(LTT_ERR_NOMEM, "%s", ltt_strerror(LTT_ERR_NOMEM));
		return CTL_EXIT_FAILURE;
	}
	for (i = 0; i < t->count && !ret; i++) {
		if (is_metadata(t->domain, t->names[i]))
			continue;
		ret = make_attr(a, d, t->domain, t->names[i], &a->attrs[i]);
		if (!ret)
			ret = check_clash(d, t->domain, a->attrs, i);
	}
	return ret;
}

/* Channel @i of @t enabled (made, or enabled again). */
static int enable_channel(void *arg, struct ltt_ctl *ctl, const struct ltt_session_detail *d,
			  const struct ctl_channel_target *t, size_t i)
{
	const struct channel_args *a = arg;

	if (is_metadata(t->domain, t->names[i]))
		return enable_metadata(a, d);
	return ctl_util_channel_done(ltt_ctl_enable_channel(ctl, t->session, t->domain,
							    &a->attrs[i]),
				     t->session, d, t->domain, &a->attrs[i], true);
}

/* A channel name, or (user space) LTTng's "metadata". */
static bool user_name_valid(const char *name)
{
	return !strcmp(name, "metadata") || ltt_channel_name_valid(name);
}

/* What ctl_util_channel_run() checks between the domain and the names. */
static int check_values(const struct ctl_ctx *ctx, void *arg)
{
	return parse_values(ctx, arg);
}

static const struct ctl_channel_cmd enable_cmd = {
	.valid = ltt_channel_name_valid,
	.valid_user = user_name_valid,
	.between = check_values,
	.check = check_channels,
	.send = enable_channel,
};

int cmd_enable_channel(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct channel_args a = { .opts.cmd = &enable_cmd };
	int ret;
	struct poptOption options[] = {
		CTL_UTIL_CHANNEL_OPTIONS(a.opts, VAL_SESSION),
		{ "discard", 0, POPT_ARG_NONE, &a.discard, 0,
		  "when full, drop new events (the default)", NULL },
		{ "overwrite", 0, POPT_ARG_NONE, &a.overwrite, 0,
		  "when full, overwrite the oldest events", NULL },
		{ "fsync", 0, POPT_ARG_NONE, &a.fsync, 0,
		  "sync each packet to the disk before it counts written (local trace files)",
		  NULL },
		{ "subbuf-size", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_SUBBUF_SIZE,
		  "sub-buffer size, a power of two (k, M, G suffixes)", "SIZE" },
		{ "num-subbuf", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_NUM_SUBBUF,
		  "number of sub-buffers, a power of two", "N" },
		{ "switch-timer", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_SWITCH_TIMER,
		  "switch timer period in microseconds, or with a unit: us, ms, s, m, h (0: off)",
		  "US" },
		{ "read-timer", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_READ_TIMER,
		  "read timer period in microseconds, or with a unit: us, ms, s, m, h (0: off)",
		  "US" },
		{ "tracefile-size", 'C', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_TRACEFILE_SIZE,
		  "maximum size of each trace file (0: unlimited; under the sub-buffer size: "
		  "rounded up to it)", "SIZE" },
		{ "tracefile-count", 'W', POPT_ARG_STRING, NULL,
		  CTL_OPT_VALUE + VAL_TRACEFILE_COUNT,
		  "maximum number of trace files per stream (0: unlimited; needs -C)", "N" },
		{ "monitor-timer", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_MONITOR_TIMER,
		  "LTTng's buffer usage sampling period: taken, and ltt samples every "
		  "channel every 50 ms instead (see the man page)", "US" },
		{ "blocking-timeout", 0, POPT_ARG_STRING, NULL,
		  CTL_OPT_VALUE + VAL_BLOCKING_TIMEOUT,
		  "user space, discard mode: how long a program that allows it "
		  "(LTTNG_UST_ALLOW_BLOCKING) waits for room in a full buffer before it "
		  "drops the event, in microseconds or with a unit: us, ms, s, m, h, or inf "
		  "(0: never, the default)", "US|inf" },
		{ "output", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_OUTPUT,
		  "LTTng's way of reading the buffers, mmap or splice: taken, and ltt's "
		  "consumer picks splice for the kernel, mmap for user space (see the man page)",
		  "TYPE" },
		{ "buffer-preallocation", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_PREALLOC,
		  "when the buffers take their memory: all when created (preallocate), or a "
		  "CPU's as it first writes (on-demand, user space's default)",
		  "preallocate|on-demand" },
		{ "buffers-uid", 0, POPT_ARG_NONE, &a.buffers_uid, 0,
		  "user space buffers per user (the default)", NULL },
		{ "buffers-pid", 0, POPT_ARG_NONE, &a.buffers_pid, 0,
		  "user space buffers per process", NULL },
		{ "buffers-global", 0, POPT_ARG_NONE, &a.buffers_global, 0,
		  "kernel buffers (the default and only choice)", NULL },
		{ "buffer-ownership", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_OWNERSHIP,
		  "LTTng's spelling of the above: system (--buffers-global), user "
		  "(--buffers-uid) or process (--buffers-pid)", "MODEL" },
		{ "buffer-allocation", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_ALLOCATION,
		  "a ring buffer per CPU (per-cpu, the default), or one for the whole channel, "
		  "written from every CPU (per-channel, user space only)", "per-cpu|per-channel" },
		{ "auto-reclaim-memory", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_RECLAIM,
		  "user space, discard mode: the consumer gives back the memory of what it read: "
		  "off (only by 'lttctl reclaim-memory'), consumed (once read) or older-than:AGE "
		  "(closed AGE ago)", "STRATEGY" },
		{ "watchdog-timer", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_WATCHDOG_TIMER,
		  "LTTng's stalled sub-buffer check period: taken, and ltt's consumer repairs "
		  "a dead program's sub-buffer as it reads it (see the man page)", "US" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	a.opts.session = &a.values[VAL_SESSION];
	ret = ctl_util_run(ctx, argc, argv, options, a.values, NR_VALS, ctl_util_channel_run, &a);
	free(a.attrs);
	return ret;
}
