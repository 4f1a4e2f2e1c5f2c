// SPDX-License-Identifier: LGPL-2.1-only
/*
 * report.c - what lttctl tells about a session once it stops or fails:
 * the events its channels lost (and the buffers to try), its output's
 * failures, and the wait for a streamed session's data to reach its relay.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/base/output-error.h"
#include "ctl/ctl.h"
#include "ctl/report.h"

/* @size as lttctl reads it back: "256k", "2M", "1G" or plain bytes. */
static void size_arg(uint64_t size, char *buf, size_t len)
{
	static const char units[] = "GMk";
	unsigned int shift = 30, i;

	for (i = 0; i < 3; i++, shift -= 10) {
		if (size >= (1ULL << shift) && !(size & ((1ULL << shift) - 1))) {
			snprintf(buf, len, "%" PRIu64 "%c", size >> shift, units[i]);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64, size);
}

/* Which domains of a streamed session lost packets on the way to the relay. */
static void find_relay_losses(struct ltt_ctl *ctl, const char *session, bool *ret_lost)
{
	struct ltt_relay_info *relays;
	size_t i, n;

	if (ltt_ctl_relay_status(ctl, session, &relays, &n))
		return;
	for (i = 0; i < n; i++)
		if (relays[i].domain <= LTT_DOMAIN_USER &&
		    (relays[i].packets_lost || relays[i].state == LTT_RELAY_STATE_LOST))
			ret_lost[relays[i].domain] = true;
	free(relays);
}

void ctl_report_format_time(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!localtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, len, "%" PRId64, t);
}

/* "No space left on device (ENOSPC)" */
static void format_errno(int err, char *buf, size_t len)
{
	const char *name = strerrorname_np(err);

	snprintf(buf, len, "%s (%s)", strerror(err), name ? name : "?");
}

void ctl_report_output_failure(const struct ltt_channel_info *ch)
{
	char when[64], why[128];

	if (ch->output_error) {
		ctl_report_format_time(ch->output_error_since, when, sizeof(when));
		format_errno(ch->output_error, why, sizeof(why));
		ctl_out_text("      output error: %s, since %s\n", why, when);
	}
	if (ch->output_error || ch->error_events || ch->error_packets)
		ctl_out_text("      lost because of output errors: %" PRIu64 " events, %" PRIu64
			     " packets\n", ch->error_events, ch->error_packets);
	if (ch->classes_refused) {
		ctl_out_text("      event descriptions refused: %" PRIu64
			     " (programs' events not recorded: past the 65,536 the channel describes, or described past the session daemon's --app-metadata-max or --max-bytes-per-uid; its log names each program)\n",
			     ch->classes_refused);
	}
}

void ctl_report_stall_text(const struct ltt_consumer_stall_info *s)
{
	uint32_t n = s->traces_waiting;
	char when[64], what[128];

	ctl_report_format_time(s->since, when, sizeof(when));
	ctl_out_text("\nConsumer daemon: stalled, not answering since %s (%s owed): it is stopped (SIGSTOP, a debugger) or stuck (a disk that does not answer)\n",
		     when, s->command[0] ? s->command : "a reply");
	if (n)
		snprintf(what, sizeof(what), "%" PRIu32 " trace%s%s wait%s to be written once it runs again",
			 n, n == 1 ? "" : "s", s->metadata_waiting ? " and metadata" : "",
			 n == 1 && !s->metadata_waiting ? "s" : "");
	else
		snprintf(what, sizeof(what), "%s", s->metadata_waiting ?
			 "metadata waits to be written once it runs again" :
			 "what programs record waits in their buffers until it runs again");
	ctl_out_text("  %s: resume it (kill -CONT its pid) or unblock what it waits on; until then commands that need it fail with CONSUMERD_STALLED\n",
		     what);
}

void ctl_report_shm_failure(const struct ltt_session_detail *d, bool warn)
{
	char when[64], why[128];

	if (!d->shm_error || !d->shm_path)
		return;
	ctl_report_format_time(d->shm_error_since, when, sizeof(when));
	format_errno(d->shm_error, why, sizeof(why));
	if (!warn) {
		ctl_out_text("Crash copy (--shm-path %s): lacks a trace's metadata since %s: %s; ltt-crash can't read that trace's buffers from it (the trace itself is written as usual)\n",
			     d->shm_path, when, why);
		return;
	}
	ctl_out_warn(LTT_ERR_OUTPUT_IO,
		     "session '%s' could not write a trace's metadata under its shared memory path %s since %s: %s; after a crash, ltt-crash can't read that trace's buffers from there (the trace itself is written as usual). Give the session's user a writable directory with room (lttctl create --shm-path) for the next session.",
		     d->info.name, d->shm_path, when, why);
}

/* How a channel's losses of one kind are said, by what made them. */
struct loss_words {
	const char *unit;	/* "events", "packets" */
	const char *verb;	/* what the channel did of them */
	const char *relay;	/* why, when the relay daemon lost some */
	const char *files;	/* the other cause, with the trace files' rotation */
	/* full buffers: the cause (its opening, the channel's mode or not, its close), the cure */
	const char *open;
	bool mode;
	const char *close, *larger, *more;
};

static const struct loss_words event_words = {
	.unit = "events", .verb = "discarded",
	.relay = "its buffers were full, or the relay daemon did not receive their packets",
	.files = "or its buffers were full",
	.open = ": its buffers were full", .mode = false, .close = "",
	.larger = "ones", .more = ", or more with --num-subbuf",
};

static const struct loss_words packet_words = {
	.unit = "packets", .verb = "lost",
	.relay = "the relay daemon did not receive them",
	.files = "or unreadable",
	.open = " (", .mode = true, .close = ")", .larger = "buffers", .more = "",
};

/*
 * @n of @ch's @w->unit lost: said as the relay's losses, the trace
 * files' rotation or full buffers (@size: a sub-buffer size to suggest).
 */
static void warn_loss(const struct ltt_channel_info *ch, const char *session, uint64_t n,
		      const struct loss_words *w, bool relay, const char *size)
{
	const char *mode = !w->mode ? "" : ch->attr.overwrite ? "overwritten before they were read" :
			   "left incomplete by killed programs, or unreadable";

	if (!n)
		return;
	if (relay)
		ctl_out_warn(LTT_ERR_RELAY_LOST,
			     "channel '%s' of session '%s' lost %" PRIu64 " %s: %s ('lttctl list %s' shows why).",
			     ch->attr.name, session, n, w->unit, w->relay, session);
	else if (ch->attr.tracefile_count)
		ctl_out_warn(LTT_ERR_EVENTS_LOST,
			     "channel '%s' of session '%s' %s %" PRIu64 " %s: they were in the oldest trace files, deleted to keep %" PRIu64 " per stream (--tracefile-count), %s.",
			     ch->attr.name, session, w->verb, n, w->unit, ch->attr.tracefile_count,
			     w->files);
	else
		ctl_out_warn(LTT_ERR_EVENTS_LOST,
			     "channel '%s' of session '%s' %s %" PRIu64 " %s%s%s%s. Give it larger %s (e.g. --subbuf-size %s%s).",
			     ch->attr.name, session, w->verb, n, w->unit, w->open, mode, w->close,
			     w->larger, size, w->more);
}

/* The warning stop prints for a channel whose output failed. */
static void report_failure(const struct ltt_session_detail *d, const struct ltt_channel_info *ch)
{
	char when[64], why[128];

	if (ch->output_error) {
		enum ltt_error_code code = ltt_output_error_code(ch->output_error);

		ctl_report_format_time(ch->output_error_since, when, sizeof(when));
		format_errno(ch->output_error, why, sizeof(why));
		/* removed files: the consumer drops and counts all, nothing waits */
		ctl_out_warn(code,
			     "channel '%s' of session '%s' can't write its trace under %s since %s: %s; %" PRIu64
			     " events and %" PRIu64 " packets were lost because of it%s: %s",
			     ch->attr.name, d->info.name, d->info.output, when, why,
			     ch->error_events, ch->error_packets,
			     code == LTT_ERR_OUTPUT_GONE ?
			     ", and all it records from now on is lost too" :
			     ". What its buffers still hold is written by the next 'lttctl start', once the cause is fixed",
			     ltt_strerror(code));
	} else if (ch->error_events || ch->error_packets) {
		ctl_out_warn(LTT_ERR_OUTPUT_IO,
			     "channel '%s' of session '%s' lost %" PRIu64 " events and %" PRIu64
			     " packets while its trace could not be written ('lttctl list %s' shows its channels).",
			     ch->attr.name, d->info.name, ch->error_events, ch->error_packets,
			     d->info.name);
	}
	if (ch->classes_refused)
		ctl_out_warn(LTT_ERR_LIMIT,
			     "channel '%s' of session '%s' refused %" PRIu64
			     " event descriptions: programs announced more events than the 65,536 it describes, or described them past the session daemon's --app-metadata-max or --max-bytes-per-uid (its log names each program and why); those events are not recorded (give those programs a channel or a session of their own, or the daemon larger limits).",
			     ch->attr.name, d->info.name, ch->classes_refused);
}

void ctl_report_lost(struct ltt_ctl *ctl, const char *session)
{
	struct ltt_session_detail *d;
	uint64_t discarded, lost;
	char size[32];
	size_t i;

	bool relay_lost[LTT_DOMAIN_USER + 1] = { false };

	if (ltt_ctl_get_session(ctl, session, &d))
		return;
	ctl_report_shm_failure(d, true);
	if (d->info.output_type == LTT_OUTPUT_NET)
		find_relay_losses(ctl, session, relay_lost);
	for (i = 0; i < d->nr_channels; i++) {
		const struct ltt_channel_info *ch = &d->channels[i];

		report_failure(d, ch);
		/* what the output's failure made lose is said above */
		discarded = ch->discarded_events - (ch->error_events < ch->discarded_events ?
						    ch->error_events : ch->discarded_events);
		lost = ch->lost_packets - (ch->error_packets < ch->lost_packets ?
					   ch->error_packets : ch->lost_packets);
		size_arg(ch->attr.subbuf_size * 2, size, sizeof(size));
		warn_loss(ch, session, discarded, &event_words, relay_lost[ch->domain], size);
		warn_loss(ch, session, lost, &packet_words, relay_lost[ch->domain], size);
	}
	free(d);
}

bool ctl_report_relay_code(int code)
{
	switch (code < 0 ? -code : code) {
	case LTT_ERR_RELAY_REFUSED:
	case LTT_ERR_RELAY_TIMEOUT:
	case LTT_ERR_RELAY_UNREACHABLE:
	case LTT_ERR_RELAY_HOST:
	case LTT_ERR_RELAY_NOT_RELAY:
	case LTT_ERR_RELAY_VERSION:
	case LTT_ERR_RELAY_SESSION_REFUSED:
	case LTT_ERR_RELAY_TLS:
		return true;
	default:
		return false;
	}
}

void ctl_report_error(struct ltt_ctl *ctl, const char *session, int code)
{
	struct ltt_session_detail *d = NULL;
	int err = code < 0 ? -code : code;
	bool relay = ctl_report_relay_code(err);

	if (!relay && err != LTT_ERR_BUFFER_MEMORY && err != LTT_ERR_OUTPUT_CREATE &&
	    (err < LTT_ERR_OUTPUT_NO_SPACE || err > LTT_ERR_OUTPUT_IO)) {
		ctl_out_error(code, "session '%s': %s", session, ltt_strerror(code));
		return;
	}
	if (err == LTT_ERR_BUFFER_MEMORY || ltt_ctl_get_session(ctl, session, &d) ||
	    d->info.output_type != (relay ? LTT_OUTPUT_NET : LTT_OUTPUT_LOCAL))
		ctl_out_error(err, "session '%s': %s", session, ltt_strerror(err));
	else
		ctl_out_error(err, "session '%s': %s %s: %s", session,
			      relay ? "relay" : "output directory", d->info.output,
			      ltt_strerror(err));
	free(d);
}

/* A warning or an error of @code, as @level says. */
__attribute__((format(printf, 3, 4)))
static void message(enum ctl_out_msg level, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ctl_out_vmessage(level, code, NULL, fmt, ap);
	va_end(ap);
}

/* Polls of DATA_PENDING: every 100 ms, while the data moves (report.h). */
#define DATA_WAIT_POLL_MS 100

int ctl_report_wait_data(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session,
		       bool warn_only)
{
	const struct timespec poll_interval = { .tv_nsec = DATA_WAIT_POLL_MS * 1000000L };
	enum ctl_out_msg level = warn_only ? CTL_OUT_MSG_WARNING : CTL_OUT_MSG_ERROR;
	bool pending = false, dots = false;
	int ret;

	for (;;) {
		ret = ltt_ctl_data_pending(ctl, session, &pending);
		/* A daemon without DATA_PENDING can't stream: nothing is pending. */
		if (ret || !pending)
			break;
		/* Progress for a person: text only. */
		if (!dots && !ctx->quiet)
			ctl_out_raw("Waiting for data availability");
		dots = true;
		if (!ctx->quiet) {
			ctl_out_raw(".");
			fflush(stdout);
		}
		nanosleep(&poll_interval, NULL);
	}
	if (dots && !ctx->quiet)
		ctl_out_raw("\n");
	fflush(stdout);
	if (ret == -LTT_ERR_NOT_SUPPORTED || !ret)
		return CTL_EXIT_OK;
	message(level, ret, "session '%s': %s", session, ltt_strerror(ret));
	return warn_only ? CTL_EXIT_OK : CTL_EXIT_FAILURE;
}

