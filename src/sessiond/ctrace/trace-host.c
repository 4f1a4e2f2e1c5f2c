// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace-host.c - the host's and the session's part of every trace's
 * metadata (see trace-host.h).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/base/log.h"
#include "sessiond/ctrace/trace-host.h"

/*
 * The monotonic clock's identity: the boot id, the same for every trace
 * of this boot, so readers put them on one time line.
 */
static void read_boot_id(uuid_t ret_id)
{
	char text[40] = "";
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	if (f) {
		if (!fgets(text, sizeof(text), f))
			text[0] = '\0';
		fclose(f);
	}
	text[strcspn(text, "\n")] = '\0';
	if (uuid_parse(text, ret_id)) {
		LTT_WARN("no boot id: traces get a random clock id and won't merge with other sessions'");
		uuid_generate(ret_id);
	}
}

void ltt_trace_host_init(struct ltt_trace_host *host)
{
	memset(host, 0, sizeof(*host));
	if (gethostname(host->hostname, sizeof(host->hostname) - 1))
		strcpy(host->hostname, "localhost");
	read_boot_id(host->boot_id);
}

void ltt_trace_host_fill(const struct ltt_trace_host *host, const struct ltt_session *session,
			 struct ltt_meta_trace *info, char datetime[LTT_TRACE_DATETIME_MAX])
{
	info->hostname = host->hostname;
	info->trace_name = session->name;
	info->creation_datetime = datetime;
	memcpy(info->clock_uuid, host->boot_id, sizeof(info->clock_uuid));
	info->clock_offset_ns = __atomic_load_n(&session->clock_offset_ns, __ATOMIC_RELAXED);
	ltt_trace_host_datetime((time_t)session->creation_time, datetime);
}

void ltt_trace_host_datetime(time_t when, char datetime[LTT_TRACE_DATETIME_MAX])
{
	struct tm tm;

	/* ISO 8601's basic form, as LTTng writes it: readers rebuild paths from it */
	if (!localtime_r(&when, &tm) ||
	    !strftime(datetime, LTT_TRACE_DATETIME_MAX, "%Y%m%dT%H%M%S%z", &tm))
		strcpy(datetime, "19700101T000000+0000");
}

/*
 * A clock plugin's identity, and its offset: realtime now less the
 * plugin's count now, in its counts (the seconds, and the rest < freq),
 * as LTTng's daemon measures it; a count above realtime's makes it 0.
 * Its strings are this thread's, for the caller's call.
 */
static void plugin_clock(struct ltt_meta_trace *info)
{
	static __thread struct ltt_tclock_plugin_info plugin;
	unsigned __int128 real;
	struct timespec ts;
	uuid_t uuid;
	uint64_t now;

	if (!ltt_tclock_plugin_info(&plugin) || !plugin.freq)
		return;
	info->clock_plugin_name = plugin.name;
	info->clock_plugin_description = plugin.description;
	if (plugin.uuid[0] && !uuid_parse(plugin.uuid, uuid))
		memcpy(info->clock_uuid, uuid, sizeof(info->clock_uuid));
	info->clock_freq = plugin.freq;
	now = ltt_tclock_read(LTT_TCLOCK_PLUGIN);
	clock_gettime(CLOCK_REALTIME, &ts);
	real = (unsigned __int128)ts.tv_sec * plugin.freq +
	       (unsigned __int128)ts.tv_nsec * plugin.freq / LTT_TCLOCK_NS_FREQ;
	real = real > now ? real - now : 0;
	info->clock_offset_s = (int64_t)(real / plugin.freq);
	info->clock_offset = (uint64_t)(real % plugin.freq);
}

void ltt_trace_host_user_clock(const struct ltt_session *session, struct ltt_meta_trace *info)
{
	info->clock_name = ltt_tclock_name(session->clock_kind);
	info->clock_why = session->clock_why;
	info->clock_read = ltt_tclock_read_name(session->clock_kind);
	if (session->clock_kind == LTT_TCLOCK_PLUGIN) {
		plugin_clock(info);
		return;
	}
	if (!ltt_tclock_is_tsc(session->clock_kind))
		return;
	info->clock_freq = session->clock_freq;
	ltt_tclock_offset(session->clock_kind, session->clock_freq, info->clock_offset_ns,
			  &info->clock_offset_s, &info->clock_offset);
}
