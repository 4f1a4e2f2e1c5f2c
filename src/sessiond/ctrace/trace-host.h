/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace-host.h - what every trace's metadata says of this host and of its
 * session, whatever the domain: host name, the monotonic clock's identity
 * and offset, the session's name and creation date.
 */
#ifndef LTT_SESSIOND_TRACE_HOST_H
#define LTT_SESSIOND_TRACE_HOST_H

#include <uuid/uuid.h>

#include "sessiond/model/session.h"
#include "sessiond/ctrace/meta.h"

struct ltt_trace_host {
	char hostname[256];
	uuid_t boot_id;			/* the monotonic clock's UUID */
};

#define LTT_TRACE_DATETIME_MAX 64

/**
 * ltt_trace_host_init() - read the host name and the boot id (a random
 * id, with a warning, when there is none: traces then won't merge)
 */
void ltt_trace_host_init(struct ltt_trace_host *host);

/**
 * ltt_trace_host_fill() - fill the host's and @session's part of @info:
 * hostname, trace_name, creation_datetime (written in @datetime, which
 * must outlive @info's use), the clock's UUID and the session's clock
 * offset (the same in every domain's trace)
 * @host: @session: borrowed for as long as @info is used
 */
void ltt_trace_host_fill(const struct ltt_trace_host *host, const struct ltt_session *session,
			 struct ltt_meta_trace *info, char datetime[LTT_TRACE_DATETIME_MAX]);

/**
 * ltt_trace_host_datetime() - @when in local time, in the form of the
 * env's dates: ISO 8601's basic form with the zone, "20240501T120000+0200"
 * (LTTng's: a session's directory name is the date's "20240501-120000")
 */
void ltt_trace_host_datetime(time_t when, char datetime[LTT_TRACE_DATETIME_MAX]);

/**
 * ltt_trace_host_user_clock() - the clock of @session's user-space events
 * in @info: for the TSC, its frequency, and the session's offset in
 * seconds and cycles (ltt_tclock_offset()); for both, its name and the
 * reason in the trace's env.  After ltt_trace_host_fill().
 */
void ltt_trace_host_user_clock(const struct ltt_session *session, struct ltt_meta_trace *info);

#endif /* LTT_SESSIOND_TRACE_HOST_H */
