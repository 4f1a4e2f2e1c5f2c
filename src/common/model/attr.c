// SPDX-License-Identifier: LGPL-2.1-only
/*
 * attr.c - defaults and validation of user-given attributes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/model/agent.h"
#include "common/model/attr.h"
#include "common/probe/probe-loc.h"
#include "common/filter/filter-parse.h"
#include "common/base/names.h"
#include "common/base/size.h"
#include "common/model/uri.h"

enum ltt_error_code ltt_attr_channel_defaults(struct ltt_channel_conf *attr, enum ltt_domain domain)
{
	memset(attr, 0, sizeof(*attr));
	strcpy(attr->name, LTT_DEFAULT_CHANNEL_NAME);
	switch (domain) {
	case LTT_DOMAIN_USER:
		attr->subbuf_size = LTT_DEFAULT_UST_SUBBUF_SIZE;
		attr->num_subbuf = LTT_DEFAULT_UST_NUM_SUBBUF;
		attr->buffer_type = LTT_BUFFER_PER_UID;
		return LTT_ERR_OK;
	case LTT_DOMAIN_KERNEL:
		attr->subbuf_size = LTT_DEFAULT_KERNEL_SUBBUF_SIZE;
		attr->num_subbuf = LTT_DEFAULT_KERNEL_NUM_SUBBUF;
		attr->buffer_type = LTT_BUFFER_GLOBAL;
		return LTT_ERR_OK;
	default:
		return LTT_ERR_DOMAIN;
	}
}

enum ltt_error_code ltt_attr_check_channel(struct ltt_channel_conf *attr, enum ltt_domain domain)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (domain != LTT_DOMAIN_USER && domain != LTT_DOMAIN_KERNEL)
		return LTT_ERR_DOMAIN;
	if (memchr(attr->name, '\0', sizeof(attr->name)) == NULL ||
	    !ltt_channel_name_valid(attr->name))
		return LTT_ERR_CHANNEL_NAME;
	if (!ltt_is_pow2(attr->subbuf_size) || attr->subbuf_size < page ||
	    attr->subbuf_size > LTT_MAX_SUBBUF_SIZE)
		return LTT_ERR_SUBBUF_SIZE;
	if (!ltt_is_pow2(attr->num_subbuf) || attr->num_subbuf < 2 ||
	    attr->num_subbuf > LTT_MAX_NUM_SUBBUF)
		return LTT_ERR_SUBBUF_COUNT;
	if (attr->buffer_type == LTT_BUFFER_DEFAULT)
		attr->buffer_type = domain == LTT_DOMAIN_USER ? LTT_BUFFER_PER_UID : LTT_BUFFER_GLOBAL;
	if (domain == LTT_DOMAIN_USER && attr->buffer_type != LTT_BUFFER_PER_UID &&
	    attr->buffer_type != LTT_BUFFER_PER_PID)
		return LTT_ERR_BUFFER_TYPE;
	if (domain == LTT_DOMAIN_KERNEL && attr->buffer_type != LTT_BUFFER_GLOBAL)
		return LTT_ERR_BUFFER_TYPE;
	if (attr->preallocation > LTT_PREALLOC_ON_DEMAND)
		return LTT_ERR_BUFFER_PREALLOCATION;
	if (domain == LTT_DOMAIN_KERNEL && attr->preallocation == LTT_PREALLOC_ON_DEMAND)
		return LTT_ERR_KERNEL_ON_DEMAND;
	if (attr->allocation > LTT_ALLOC_PER_CHANNEL)
		return LTT_ERR_BUFFER_ALLOCATION;
	if (domain == LTT_DOMAIN_KERNEL && attr->allocation == LTT_ALLOC_PER_CHANNEL)
		return LTT_ERR_KERNEL_PER_CHANNEL;
	if (attr->preallocation == LTT_PREALLOC_DEFAULT)
		attr->preallocation = domain == LTT_DOMAIN_USER ? LTT_PREALLOC_ON_DEMAND :
								  LTT_PREALLOC_PREALLOCATE;
	if (attr->auto_reclaim > LTT_AUTO_RECLAIM_OLDER_THAN ||
	    (attr->auto_reclaim == LTT_AUTO_RECLAIM_OLDER_THAN) != (attr->auto_reclaim_us != 0) ||
	    attr->auto_reclaim_us > UINT64_MAX / 1000 ||
	    (attr->auto_reclaim && (domain != LTT_DOMAIN_USER || attr->overwrite)))
		return LTT_ERR_AUTO_RECLAIM;
	/* LTTng's rules: user space (per user or per process), 2^31 - 1 ms at most */
	if (attr->blocking_timeout_us &&
	    (domain != LTT_DOMAIN_USER || (attr->blocking_timeout_us != LTT_BLOCKING_TIMEOUT_INF &&
					   attr->blocking_timeout_us > LTT_BLOCKING_TIMEOUT_MAX_US)))
		return LTT_ERR_BLOCKING_TIMEOUT;
	if (attr->tracefile_size && attr->tracefile_size < attr->subbuf_size)
		return LTT_ERR_TRACEFILE_SIZE;
	if ((attr->switch_timer_us && attr->switch_timer_us < LTT_MIN_TIMER_US) ||
	    (attr->read_timer_us && attr->read_timer_us < LTT_MIN_TIMER_US))
		return LTT_ERR_TIMER_MIN;
	return LTT_ERR_OK;
}

/* A byte-wise order of the names of an exclusion list, for qsort(). */
static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Split @list (modified: commas become NULs) into @names (room for
 * LTT_EXCLUSIONS_MAX / 2 names); returns how many, or -1 for an empty name.
 */
static int split_exclusions(char *list, char **names)
{
	int n = 0;
	char *p = list;

	for (;;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (!*p)
			return -1;
		names[n++] = p;
		if (!comma)
			return n;
		p = comma + 1;
	}
}

enum ltt_error_code ltt_attr_normalize_exclusions(const char *pattern, char *list, size_t size)
{
	char copy[LTT_EXCLUSIONS_MAX], *names[LTT_EXCLUSIONS_MAX / 2];
	size_t len, used = 0;
	int i, n;

	if (!memchr(list, '\0', size) || strlen(list) >= sizeof(copy))
		return LTT_ERR_EXCLUSION;
	if (!list[0])
		return LTT_ERR_OK;
	if (!ltt_event_pattern_is_glob(pattern))
		return LTT_ERR_EXCLUSION;
	strcpy(copy, list);
	n = split_exclusions(copy, names);
	if (n < 0)
		return LTT_ERR_EXCLUSION;
	for (i = 0; i < n; i++) {
		if (strlen(names[i]) >= LTT_NAME_MAX || !ltt_event_pattern_valid(names[i]) ||
		    ltt_glob_covers(names[i], pattern))
			return LTT_ERR_EXCLUSION;
	}
	qsort(names, (size_t)n, sizeof(names[0]), cmp_names);
	for (i = 0; i < n; i++) {
		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		len = strlen(names[i]);
		if (used)
			list[used++] = ',';
		memcpy(list + used, names[i], len);
		used += len;
	}
	list[used] = '\0';
	return LTT_ERR_OK;
}

const char *ltt_attr_idle_exclusion(const char *pattern, const char *list, char *name, size_t size)
{
	char copy[LTT_EXCLUSIONS_MAX], *names[LTT_EXCLUSIONS_MAX / 2];
	int i, n;

	if (strlen(list) >= sizeof(copy))
		return NULL;
	n = split_exclusions(strcpy(copy, list), names);
	for (i = 0; i < n; i++)
		if (strlen(names[i]) < size && !ltt_glob_overlap(pattern, names[i]))
			return strcpy(name, names[i]);
	return NULL;
}

enum ltt_error_code ltt_attr_check_filter(const char *text, char *msg, size_t size)
{
	struct ltt_filter_error err = { 0 };
	struct ltt_filter_node *root = NULL;
	int ret;

	if (msg && size)
		msg[0] = '\0';
	if (!text[0])
		return LTT_ERR_OK;
	ret = ltt_filter_parse(text, &root, &err);
	ltt_filter_free(root);
	if (ret == -ENOMEM)
		return LTT_ERR_NOMEM;
	if (ret) {
		if (msg && size)
			ltt_filter_caret(text, &err, msg, size);
		return LTT_ERR_FILTER;
	}
	return LTT_ERR_OK;
}

/* Is @list (NUL-terminated) what ltt_attr_normalize_exclusions() makes of it? */
static bool exclusions_valid(const char *pattern, const char *list)
{
	char copy[LTT_EXCLUSIONS_MAX];

	strcpy(copy, list);
	return !ltt_attr_normalize_exclusions(pattern, copy, sizeof(copy)) && !strcmp(copy, list);
}

/*
 * A probe rule names one event (no glob, no exclusion) and has a location
 * that parses; any other rule has none.
 */
static enum ltt_error_code check_location(const struct ltt_rule_conf *attr)
{
	struct ltt_probe_loc *loc;
	char why[16];
	int err;

	if (memchr(attr->location, '\0', sizeof(attr->location)) == NULL)
		return LTT_ERR_PROBE_LOCATION;
	if (!ltt_event_type_is_probe(attr->type))
		return attr->location[0] ? LTT_ERR_PROBE_LOCATION : LTT_ERR_OK;
	if (ltt_event_pattern_is_glob(attr->pattern) || attr->exclusions[0])
		return LTT_ERR_PROBE_LOCATION;
	loc = malloc(sizeof(*loc));
	if (!loc)
		return LTT_ERR_NOMEM;
	err = ltt_probe_loc_parse(attr->type, attr->location, loc, why, sizeof(why));
	free(loc);
	return err ? LTT_ERR_PROBE_LOCATION : LTT_ERR_OK;
}

enum ltt_error_code ltt_attr_check_rule(const struct ltt_rule_conf *attr)
{
	enum ltt_error_code ret;

	if (memchr(attr->pattern, '\0', sizeof(attr->pattern)) == NULL ||
	    !ltt_event_pattern_valid(attr->pattern))
		return LTT_ERR_EVENT_NAME;
	if (memchr(attr->filter, '\0', sizeof(attr->filter)) == NULL)
		return LTT_ERR_FILTER;
	ret = ltt_attr_check_filter(attr->filter, NULL, 0);
	if (ret)
		return ret;
	if (memchr(attr->exclusions, '\0', sizeof(attr->exclusions)) == NULL ||
	    !exclusions_valid(attr->pattern, attr->exclusions))
		return LTT_ERR_EXCLUSION;
	ret = check_location(attr);
	if (ret)
		return ret;
	switch (attr->loglevel_type) {
	case LTT_LOGLEVEL_ALL:
		return LTT_ERR_OK;
	case LTT_LOGLEVEL_RANGE:
	case LTT_LOGLEVEL_SINGLE:
		/* the bounds are the domain's (ltt_attr_check_rule_domain()) */
		return LTT_ERR_OK;
	default:
		return LTT_ERR_LOGLEVEL;
	}
}

enum ltt_error_code ltt_attr_check_rule_domain(const struct ltt_rule_conf *attr,
					       enum ltt_domain domain)
{
	const struct ltt_agent_domain *agent = ltt_agent_domain(domain);
	int min = agent ? agent->level_min : 0;
	int max = agent ? agent->level_max : LTT_LOGLEVEL_DEBUG;

	if (attr->type != LTT_EVENT_TRACEPOINT &&
	    ((attr->type != LTT_EVENT_SYSCALL && !ltt_event_type_is_probe(attr->type)) ||
	     domain != LTT_DOMAIN_KERNEL))
		return LTT_ERR_EVENT_TYPE;
	if (domain == LTT_DOMAIN_KERNEL && attr->loglevel_type != LTT_LOGLEVEL_ALL)
		return LTT_ERR_KERNEL_LOGLEVEL;
	if (attr->loglevel_type != LTT_LOGLEVEL_ALL &&
	    (attr->loglevel < min || attr->loglevel > max))
		return LTT_ERR_LOGLEVEL;
	return LTT_ERR_OK;
}

/*
 * The TLS files: all three absolute paths or none; a tls:// output needs
 * them, and only a tls:// output or a snapshot session (whose tls://
 * outputs come later) takes them.
 */
static enum ltt_error_code check_tls(const struct ltt_session_conf *attr, bool tls_url)
{
	const char *f[3] = { attr->tls_cert, attr->tls_key, attr->tls_ca };
	int i, given = 0;

	for (i = 0; i < 3; i++) {
		if (memchr(f[i], '\0', LTT_PATH_MAX) == NULL || (f[i][0] && f[i][0] != '/'))
			return LTT_ERR_TLS_FILES;
		given += f[i][0] != '\0';
	}
	if (given != 0 && given != 3)
		return LTT_ERR_TLS_FILES;
	if (tls_url && !given)
		return LTT_ERR_TLS_FILES;
	if (given && !tls_url && !attr->snapshot)
		return LTT_ERR_TLS_FILES;
	return LTT_ERR_OK;
}

/* @defaults: an empty name and an empty local output are the daemon's to fill. */
static enum ltt_error_code check_session(const struct ltt_session_conf *attr, bool defaults)
{
	struct ltt_uri uri = { 0 };

	if (memchr(attr->name, '\0', sizeof(attr->name)) == NULL ||
	    (!(defaults && !attr->name[0]) && !ltt_session_name_valid(attr->name)))
		return LTT_ERR_SESSION_NAME;
	if (memchr(attr->output, '\0', sizeof(attr->output)) == NULL)
		return LTT_ERR_OUTPUT_PATH;
	if (attr->snapshot && attr->live_timer_us)
		return LTT_ERR_SNAPSHOT_LIVE;
	if (memchr(attr->shm_path, '\0', sizeof(attr->shm_path)) == NULL ||
	    (attr->shm_path[0] && attr->shm_path[0] != '/'))
		return LTT_ERR_SHM_PATH;
	switch (attr->output_type) {
	case LTT_OUTPUT_NONE:
		if (attr->output[0])
			return LTT_ERR_OUTPUT_CONFLICT;
		break;
	case LTT_OUTPUT_LOCAL:
		if (attr->output[0] != '/' && !(defaults && !attr->output[0]))
			return LTT_ERR_OUTPUT_PATH;
		break;
	case LTT_OUTPUT_NET:
		if (ltt_uri_parse(attr->output, &uri) || uri.scheme != LTT_URI_NET)
			return LTT_ERR_URL;
		break;
	default:
		return LTT_ERR_INVAL;
	}
	if (attr->live_timer_us && attr->output_type != LTT_OUTPUT_NET)
		return LTT_ERR_LIVE_NEEDS_NET;
	if (attr->trace_format > LTT_TRACE_FORMAT_CTF_2)
		return LTT_ERR_TRACE_FORMAT;
	if (attr->live_timer_us && attr->live_timer_us < LTT_MIN_LIVE_TIMER_US)
		return LTT_ERR_LIVE_TIMER;
	return check_tls(attr, attr->output_type == LTT_OUTPUT_NET && uri.tls);
}

enum ltt_error_code ltt_attr_check_session(const struct ltt_session_conf *attr)
{
	return check_session(attr, false);
}

enum ltt_error_code ltt_attr_check_session_request(const struct ltt_session_conf *attr)
{
	return check_session(attr, true);
}

int ltt_attr_session_auto_name(struct ltt_session_conf *attr, bool automatic,
			       unsigned int attempt, char date[LTT_SESSION_DATE_MAX])
{
	time_t now = time(NULL);
	struct tm tm;

	if (!localtime_r(&now, &tm) || !strftime(date, LTT_SESSION_DATE_MAX, "%Y%m%d-%H%M%S", &tm))
		return -1;
	if (automatic && attempt)
		snprintf(attr->name, sizeof(attr->name), "auto-%s-%u", date, attempt);
	else if (automatic)
		snprintf(attr->name, sizeof(attr->name), "auto-%s", date);
	return 0;
}

int ltt_attr_session_auto_output(struct ltt_session_conf *attr, bool automatic, const char *dir,
				 const char *date)
{
	int n;

	if (automatic)
		n = snprintf(attr->output, sizeof(attr->output), "%s/%s", dir, attr->name);
	else
		n = snprintf(attr->output, sizeof(attr->output), "%s/%s-%s", dir, attr->name, date);
	return n < 0 || (size_t)n >= sizeof(attr->output) ? -1 : 0;
}

enum ltt_error_code ltt_attr_check_rotation(uint64_t timer_us, uint64_t size)
{
	if ((!timer_us && !size) || timer_us > UINT64_MAX / 1000)
		return LTT_ERR_ROTATION_VALUE;
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_attr_check_snapshot_output(const struct ltt_snapshot_output_conf *o,
						   bool need_path)
{
	struct ltt_uri uri;

	if (memchr(o->name, '\0', sizeof(o->name)) == NULL ||
	    memchr(o->output, '\0', sizeof(o->output)) == NULL)
		return LTT_ERR_OUTPUT_PATH;
	if (o->name[0] && !ltt_snapshot_output_name_valid(o->name))
		return LTT_ERR_SNAPSHOT_OUTPUT_NAME;
	if (o->output_type == LTT_OUTPUT_NET)
		return ltt_uri_parse(o->output,
				     &uri) || uri.scheme != LTT_URI_NET ? LTT_ERR_URL : LTT_ERR_OK;
	if (o->output_type == LTT_OUTPUT_NONE)
		return need_path || o->output[0] ? LTT_ERR_OUTPUT_PATH : LTT_ERR_OK;
	if (o->output[0] != '/' || strlen(o->output) >= LTT_PATH_MAX - LTT_NAME_MAX - 64)
		return LTT_ERR_OUTPUT_PATH;
	return LTT_ERR_OK;
}
