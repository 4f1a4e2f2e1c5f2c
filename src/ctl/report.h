/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * report.h - what lttctl tells about a session once it stops or fails
 * (report.c): lost events, output failures, waiting for a streamed
 * session's data.  Text and --mi output through out.h.
 */
#ifndef LTT_CTL_REPORT_H
#define LTT_CTL_REPORT_H

#include <stdbool.h>

#include <ltt/ltt-ctl.h>

struct ctl_ctx;

/** ctl_report_format_time() - "2026-11-22 14:35:02" (local time) of @t, @len bytes */
void ctl_report_format_time(int64_t t, char *buf, size_t len);

/**
 * ctl_report_lost() - warn about the events a session's channels
 * discarded because their buffers were full, suggesting larger ones
 */
void ctl_report_lost(struct ltt_ctl *ctl, const char *session);

/**
 * ctl_report_output_failure() - list's lines on a channel's output
 * failure ("output error: ...", what it made lose); nothing when the
 * channel's output never failed.  Also the open <channel>'s outputError,
 * outputErrorSince, errorEvents and errorPackets.
 */
void ctl_report_output_failure(const struct ltt_channel_info *ch);

/**
 * ctl_report_stall_text() - list's lines under a domain whose consumer
 * daemon does not answer: since when, the command it owes, what waits
 * for it and what to do (text only)
 */
void ctl_report_stall_text(const struct ltt_consumer_stall_info *s);

/**
 * ctl_report_shm_failure() - the session's crash copy (--shm-path) lacks
 * a trace's metadata (minor 34): list's line (@warn false) or stop's
 * warning; nothing when it has none
 */
void ctl_report_shm_failure(const struct ltt_session_detail *d, bool warn);

/**
 * ctl_report_relay_code() - is @code (LTT_ERR_*, either sign) about reaching
 * a session's relay (RELAY_REFUSED, RELAY_TIMEOUT, ...)?
 */
bool ctl_report_relay_code(int code);

/**
 * ctl_report_error() - print the error @code (LTT_ERR_*, either sign) of a
 * call on @session: an output failure (LTT_ERR_OUTPUT_*,
 * LTT_ERR_BUFFER_MEMORY) with the session's output directory, a relay
 * that can't be reached (ctl_report_relay_code()) with its URL, another
 * as "session 'NAME': what"
 */
void ctl_report_error(struct ltt_ctl *ctl, const char *session, int code);

/**
 * ctl_report_wait_data() - wait until a stopped session's relay has all its
 * data (stop and destroy, unless --no-wait)
 * @warn_only: a relay lost or too slow is a warning (destroy), not an
 *             error (stop)
 *
 * Polls ltt_ctl_data_pending() every 100 ms, printing "Waiting for data
 * availability" and a dot per poll while data is pending (not with -q),
 * for as long as the data moves: the consumer daemons, which see the
 * sockets, give up a relay that moves nothing for 10 s (RELAY_LOST), so
 * a slow link is waited for and a stuck relay is not.  Returns
 * CTL_EXIT_OK at once for a local session or a daemon without streaming;
 * CTL_EXIT_FAILURE after printing why (RELAY_LOST) unless @warn_only.
 */
int ctl_report_wait_data(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session,
		       bool warn_only);

#endif /* LTT_CTL_REPORT_H */
