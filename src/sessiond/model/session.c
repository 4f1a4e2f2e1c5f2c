// SPDX-License-Identifier: GPL-2.0-only
/*
 * session.c - the session daemon's object tree (see session.h).
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "common/model/agent.h"
#include "common/model/attr.h"
#include "common/filter/filter-parse.h"
#include "common/base/log.h"
#include "common/trace/tracefile.h"
#include "sessiond/model/session.h"

void ltt_session_registry_init(struct ltt_session_registry *reg)
{
	pthread_mutex_init(&reg->lock, NULL);
	CDS_INIT_LIST_HEAD(&reg->sessions);
	reg->nr_sessions = 0;
	reg->max_per_uid = LTT_MAX_SESSIONS_PER_UID;
	reg->next_id = 1;
	memset(&reg->clock, 0, sizeof(reg->clock));
	reg->clock.kind = LTT_TCLOCK_MONO;
	snprintf(reg->clock.why, sizeof(reg->clock.why), "the daemon's default");
	reg->trace_format = LTT_TRACE_FORMAT_CTF_1_8;
	/* none: the scheduler, which can't be woken, keeps its tick running */
	reg->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

static void wake_fd(int fd)
{
	uint64_t one = 1;

	/* full (EAGAIN): a wake-up is pending already */
	if (fd >= 0 && write(fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		LTT_DBG("the rotation scheduler's wake-up: %s", strerror(errno));
}

void ltt_session_wake(const struct ltt_session *session)
{
	if (session->reg)
		wake_fd(session->reg->wake_fd);
}

void ltt_session_registry_wake(const struct ltt_session_registry *reg)
{
	wake_fd(reg->wake_fd);
}

static void channel_destroy(struct ltt_channel *channel)
{
	struct ltt_event_rule *rule, *tmp;

	cds_list_for_each_entry_safe(rule, tmp, &channel->rules, node) {
		cds_list_del(&rule->node);
		ltt_filter_free(rule->filter);
		free(rule);
	}
	free(channel);
}

void ltt_session_tls_text_fini(struct ltt_session_tls_text *t)
{
	size_t i;

	for (i = 0; i < 3; i++) {
		if (t->text[i])
			explicit_bzero(t->text[i], t->len[i]);
		free(t->text[i]);
		t->text[i] = NULL;
		t->len[i] = 0;
	}
}

static void session_free(struct ltt_session *session)
{
	struct ltt_channel *channel, *tmp;
	size_t i;

	for (i = 0; i < 2; i++) {
		/* A domain releases its state when the session is destroyed. */
		assert(!session->domains[i].state);
		cds_list_for_each_entry_safe(channel, tmp, &session->domains[i].channels, node) {
			cds_list_del(&channel->node);
			channel_destroy(channel);
		}
		ltt_trackers_fini(&session->domains[i].trackers);
	}
	ltt_session_tls_text_fini(&session->tls_text);
	pthread_mutex_destroy(&session->lock);
	pthread_mutex_destroy(&session->gate);
	free(session);
}

void ltt_session_registry_fini(struct ltt_session_registry *reg)
{
	struct ltt_session *session, *tmp;

	cds_list_for_each_entry_safe(session, tmp, &reg->sessions, node) {
		cds_list_del(&session->node);
		session_free(session);
	}
	reg->nr_sessions = 0;
	pthread_mutex_destroy(&reg->lock);
	if (reg->wake_fd >= 0)
		close(reg->wake_fd);
	reg->wake_fd = -1;
}

/* @owner's session @name, or NULL; registry lock held. */
static struct ltt_session *find_locked(struct ltt_session_registry *reg, uid_t owner,
				       const char *name)
{
	struct ltt_session *session;

	cds_list_for_each_entry(session, &reg->sessions, node)
		if (session->uid == owner && !strcmp(session->name, name))
			return session;
	return NULL;
}

/* How many sessions @owner holds; registry lock held. */
static unsigned int count_owned_locked(struct ltt_session_registry *reg, uid_t owner)
{
	struct ltt_session *session;
	unsigned int n = 0;

	cds_list_for_each_entry(session, &reg->sessions, node)
		n += session->uid == owner;
	return n;
}

/*
 * How many sessions are named @name, whatever their owner (root's plain
 * names); *@ret_session is the last one seen.  Registry lock held.
 */
static unsigned int find_any_locked(struct ltt_session_registry *reg, const char *name,
				    struct ltt_session **ret_session)
{
	struct ltt_session *session;
	unsigned int n = 0;

	cds_list_for_each_entry(session, &reg->sessions, node) {
		if (!strcmp(session->name, name)) {
			*ret_session = session;
			n++;
		}
	}
	return n;
}

/*
 * Split "UID/NAME" (a session name never holds '/') into @ret_owner and
 * the name after the slash.  Returns that name, or NULL if @name is not
 * qualified or its UID is not a decimal number.
 */
static const char *split_qualified(const char *name, uid_t *ret_owner)
{
	const char *slash = strchr(name, '/');
	unsigned long long v = 0;
	const char *p;

	if (!slash || slash == name || slash - name > 10)
		return NULL;
	for (p = name; p < slash; p++) {
		if (*p < '0' || *p > '9')
			return NULL;
		v = v * 10 + (unsigned long long)(*p - '0');
	}
	if (v > (uid_t)-1 - 1)
		return NULL;
	*ret_owner = (uid_t)v;
	return slash + 1;
}

int ltt_session_create(struct ltt_session_registry *reg, const struct ltt_session_conf *attr,
		       const struct ltt_uri *relay, uid_t uid, gid_t gid,
		       struct ltt_session **ret_session)
{
	struct ltt_session *session;
	struct ltt_tclock clock;
	size_t i;
	int ret = 0;

	session = calloc(1, sizeof(*session));
	if (!session)
		return -ENOMEM;
	pthread_mutex_init(&session->gate, NULL);
	pthread_mutex_init(&session->lock, NULL);
	strcpy(session->name, attr->name);
	uuid_generate(session->uuid);
	session->uid = uid;
	session->gid = gid;
	session->creation_time = (int64_t)time(NULL);
	session->trace_format = attr->trace_format ? (enum ltt_trace_format)attr->trace_format :
						     reg->trace_format;
	session->reaches_all = uid == 0 || reg->member_reach_all;
	pthread_mutex_lock(&reg->lock);
	if (ltt_tclock_recheck(&reg->clock))
		LTT_WARN("user-space events: %s; new sessions count CLOCK_MONOTONIC, those created before go on counting the TSC, whose timestamps from now on are off",
			 reg->clock.why);
	clock = reg->clock;
	pthread_mutex_unlock(&reg->lock);
	session->clock_kind = clock.kind;
	snprintf(session->clock_why, sizeof(session->clock_why), "%s", clock.why);
	session->clock_freq = ltt_tclock_freq(&clock);
	if (ltt_tclock_is_tsc(session->clock_kind)) {
		struct ltt_tclock_pair now;

		ltt_tclock_pair(&now);
		session->clock_base = ltt_tclock_base(session->clock_freq, &now);
	}
	ltt_session_clock_offset_take(session);
	session->output_type = attr->output_type;
	strcpy(session->output, attr->output);
	if (relay)
		session->relay = *relay;
	strcpy(session->tls_cert, attr->tls_cert);
	strcpy(session->tls_key, attr->tls_key);
	strcpy(session->tls_ca, attr->tls_ca);
	strcpy(session->shm_path, attr->shm_path);
	/* a relay's chunks are named relative to its session's directory: "" first */
	strcpy(session->chunk_dir, attr->output_type == LTT_OUTPUT_NET ? "" : attr->output);
	session->snapshot = attr->snapshot || attr->output_type == LTT_OUTPUT_NONE;
	session->snapshot_mode = attr->snapshot;
	session->live_timer_us = attr->live_timer_us;
	session->next_snap_output_id = 1;
	if (attr->snapshot) {
		/* its output is the default snapshot output; nothing else is written */
		if (attr->output_type != LTT_OUTPUT_NONE) {
			session->has_snap_output = true;
			session->snap_output.id = session->next_snap_output_id++;
			snprintf(session->snap_output.name, sizeof(session->snap_output.name),
				 "snapshot-%u", session->snap_output.id);
			session->snap_output.output_type = attr->output_type;
			strcpy(session->snap_output.output, attr->output);
			session->snap_relay = session->relay;
		}
		session->output_type = LTT_OUTPUT_NONE;
		session->output[0] = '\0';
		session->chunk_dir[0] = '\0';
	}
	session->reg = reg;
	session->refcount = 1;	/* the caller's; the registry holds one more */
	CDS_INIT_LIST_HEAD(&session->ctrace_owed);
	for (i = 0; i < 2; i++) {
		session->domains[i].type = i == 0 ? LTT_DOMAIN_KERNEL : LTT_DOMAIN_USER;
		CDS_INIT_LIST_HEAD(&session->domains[i].channels);
	}

	pthread_mutex_lock(&reg->lock);
	if (find_locked(reg, uid, attr->name))
		ret = -EEXIST;
	else if (reg->nr_sessions >= LTT_MAX_SESSIONS ||
		 (uid != 0 && count_owned_locked(reg, uid) >= reg->max_per_uid))
		ret = -ENOSPC;
	if (!ret) {
		session->id = reg->next_id++;
		session->refcount++;
		cds_list_add_tail(&session->node, &reg->sessions);
		reg->nr_sessions++;
	}
	pthread_mutex_unlock(&reg->lock);
	if (ret) {
		session_free(session);
		return ret;
	}
	ltt_session_wake(session);	/* a trigger may watch it */
	*ret_session = session;
	return 0;
}

static bool may_use(const struct ltt_session *session, uid_t uid)
{
	return uid == 0 || session->uid == uid;
}

int ltt_session_find(struct ltt_session_registry *reg, const char *name, uid_t uid,
		     struct ltt_session **ret_session)
{
	struct ltt_session *session;
	const char *plain;
	uid_t owner;
	int ret = -ENOENT;

	plain = split_qualified(name, &owner);
	pthread_mutex_lock(&reg->lock);
	if (plain)
		session = find_locked(reg, owner, plain);
	else
		session = find_locked(reg, uid, name);
	if (!session && !plain && uid == 0 && find_any_locked(reg, name, &session) > 1) {
		session = NULL;
		ret = -ENOTUNIQ;
	}
	if (session && may_use(session, uid)) {
		session->refcount++;
		*ret_session = session;
		ret = 0;
	}
	pthread_mutex_unlock(&reg->lock);
	return ret;
}

void ltt_session_put(struct ltt_session_registry *reg, struct ltt_session *session)
{
	bool last;

	if (!session)
		return;
	pthread_mutex_lock(&reg->lock);
	assert(session->refcount > 0);
	last = --session->refcount == 0;
	pthread_mutex_unlock(&reg->lock);
	if (last)
		session_free(session);
}

void ltt_session_remove(struct ltt_session_registry *reg, struct ltt_session *session)
{
	bool drop = false;

	/* the state lock alone: the registry's never waits on a change's round trip */
	pthread_mutex_lock(&reg->lock);
	ltt_session_lock_state(session);
	if (!session->destroyed) {
		session->destroyed = true;
		cds_list_del_init(&session->node);
		reg->nr_sessions--;
		drop = true;
	}
	ltt_session_unlock_state(session);
	pthread_mutex_unlock(&reg->lock);
	/* The registry's own reference. */
	if (drop)
		ltt_session_put(reg, session);
}

int ltt_session_snapshot_list(struct ltt_session_registry *reg, uid_t uid,
			      struct ltt_session ***ret_sessions, size_t *ret_count)
{
	struct ltt_session **array, *session;
	size_t n = 0;

	pthread_mutex_lock(&reg->lock);
	array = calloc(reg->nr_sessions ? reg->nr_sessions : 1, sizeof(*array));
	if (!array) {
		pthread_mutex_unlock(&reg->lock);
		return -ENOMEM;
	}
	cds_list_for_each_entry(session, &reg->sessions, node) {
		if (!may_use(session, uid))
			continue;
		session->refcount++;
		array[n++] = session;
	}
	pthread_mutex_unlock(&reg->lock);
	*ret_sessions = array;
	*ret_count = n;
	return 0;
}

int ltt_session_each_live(struct ltt_session_registry *reg,
			  void (*fn)(struct ltt_session *session, void *arg), void *arg)
{
	struct ltt_session **sessions;
	size_t i, n;
	int ret;

	ret = ltt_session_snapshot_list(reg, 0, &sessions, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		ltt_session_lock(sessions[i]);
		if (!sessions[i]->destroyed)
			fn(sessions[i], arg);
		ltt_session_unlock(sessions[i]);
		ltt_session_put(reg, sessions[i]);
	}
	free(sessions);
	return 0;
}

void ltt_session_info(const struct ltt_session *session, struct ltt_session_desc *ret_info)
{
	struct ltt_session_desc info;

	memset(&info, 0, sizeof(info));
	strcpy(info.name, session->name);
	info.id = session->id;
	uuid_unparse_lower(session->uuid, info.uuid);
	info.uid = session->uid;
	info.active = __atomic_load_n(&session->active, __ATOMIC_RELAXED);
	info.snapshot = session->snapshot_mode;
	info.live_timer_us = session->live_timer_us;
	info.output_type = session->output_type;
	strcpy(info.output, session->output);
	info.creation_time = session->creation_time;
	/* Fixed at creation: read without the lock. */
	info.clock_known = true;
	info.clock_kind = session->clock_kind;
	snprintf(info.clock_why, sizeof(info.clock_why), "%s", session->clock_why);
	info.trace_format = (uint8_t)session->trace_format;
	*ret_info = info;
}

bool ltt_session_started_once(const struct ltt_session *session)
{
	/* every start begins a chunk (ltt_chunk_started()) */
	return session->active || session->chunk_begin;
}

struct ltt_session_domain *ltt_session_domain(struct ltt_session *session, enum ltt_domain type)
{
	assert(type == LTT_DOMAIN_KERNEL || type == LTT_DOMAIN_USER);
	return &session->domains[type == LTT_DOMAIN_KERNEL ? 0 : 1];
}

bool ltt_session_user_per_uid(struct ltt_session *session)
{
	return __atomic_load_n(&session->domains[1].buffer_type, __ATOMIC_ACQUIRE) ==
	       LTT_BUFFER_PER_UID;
}

struct ltt_channel *ltt_session_find_channel(struct ltt_session_domain *domain, const char *name)
{
	struct ltt_channel *channel;

	cds_list_for_each_entry(channel, &domain->channels, node)
		if (!strcmp(channel->attr.name, name))
			return channel;
	return NULL;
}

int ltt_session_add_channel(struct ltt_session_domain *domain, const struct ltt_channel_conf *attr,
			    struct ltt_channel **ret_channel)
{
	struct ltt_channel *channel;

	if (ltt_session_find_channel(domain, attr->name))
		return -EEXIST;
	cds_list_for_each_entry(channel, &domain->channels, node)
		if (ltt_tracefile_names_clash(channel->attr.name, channel->attr.tracefile_size != 0,
					      attr->name, attr->tracefile_size != 0))
			return -EADDRINUSE;
	if (domain->buffer_type != LTT_BUFFER_DEFAULT && domain->buffer_type != attr->buffer_type)
		return -EINVAL;
	if (domain->nr_channels >= LTT_MAX_CHANNELS_PER_DOMAIN)
		return -ENOSPC;
	channel = calloc(1, sizeof(*channel));
	if (!channel)
		return -ENOMEM;
	channel->attr = *attr;
	channel->stream_id = domain->next_stream_id++;
	channel->enabled = true;
	if (domain->type == LTT_DOMAIN_USER)
		channel->agent = ltt_agent_domain_of_channel(attr->name);
	CDS_INIT_LIST_HEAD(&channel->rules);
	cds_list_add_tail(&channel->node, &domain->channels);
	domain->nr_channels++;
	/* read without the lock by ltt_session_user_per_uid() */
	__atomic_store_n(&domain->buffer_type, attr->buffer_type, __ATOMIC_RELEASE);
	*ret_channel = channel;
	return 0;
}

struct ltt_event_rule *ltt_channel_find_rule(struct ltt_channel *channel,
					     const struct ltt_rule_conf *attr)
{
	struct ltt_event_rule *rule;

	cds_list_for_each_entry(rule, &channel->rules, node) {
		if (!strcmp(rule->attr.pattern, attr->pattern) &&
		    rule->attr.loglevel_type == attr->loglevel_type &&
		    rule->attr.type == attr->type &&
		    (attr->loglevel_type == LTT_LOGLEVEL_ALL ||
		     rule->attr.loglevel == attr->loglevel) &&
		    !strcmp(rule->attr.filter, attr->filter) &&
		    !strcmp(rule->attr.exclusions, attr->exclusions))
			return rule;
	}
	return NULL;
}

void ltt_channel_remove_rule(struct ltt_session *session, struct ltt_channel *channel,
			     struct ltt_event_rule *rule)
{
	cds_list_del(&rule->node);
	channel->nr_rules--;
	session->nr_rules--;
	session->rule_text -= strlen(rule->attr.filter) + strlen(rule->attr.exclusions);
	ltt_filter_free(rule->filter);
	free(rule);
}

int ltt_event_rule_parse_filter(struct ltt_event_rule *rule)
{
	char *text = rule->attr.filter;
	int ret;

	if (rule->agent) {
		text = malloc(LTT_AGENT_FILTER_MAX);
		if (!text)
			return -ENOMEM;
		ret = ltt_agent_filter(&rule->attr, text, LTT_AGENT_FILTER_MAX);
		if (ret)
			goto out;
	}
	ret = text[0] ? ltt_filter_parse(text, &rule->filter, NULL) : 0;
	if (ret && ret != -ENOMEM && ret != -E2BIG)
		ret = -EINVAL;
out:
	if (text != rule->attr.filter)
		free(text);
	return ret;
}

int ltt_channel_add_rule(struct ltt_session *session, struct ltt_channel *channel,
			 const struct ltt_rule_conf *attr)
{
	size_t text = strlen(attr->filter) + strlen(attr->exclusions);
	struct ltt_event_rule *rule;
	int ret;

	if (channel->nr_rules >= LTT_MAX_RULES_PER_CHANNEL ||
	    session->nr_rules >= LTT_MAX_RULES_PER_SESSION)
		return -ENOSPC;
	if (session->rule_text + text > LTT_MAX_RULE_TEXT_PER_SESSION)
		return -E2BIG;
	rule = calloc(1, sizeof(*rule));
	if (!rule)
		return -ENOMEM;
	rule->attr = *attr;
	rule->agent = channel->agent;
	ret = ltt_event_rule_parse_filter(rule);
	if (ret) {
		free(rule);
		return ret;
	}
	session->rule_text += text;
	rule->enabled = true;
	cds_list_add_tail(&rule->node, &channel->rules);
	channel->nr_rules++;
	session->nr_rules++;
	return 0;
}

int ltt_session_rebase(const struct ltt_session *session, const char *path, const char *new_root,
		     char *buf, size_t len)
{
	size_t n = strlen(session->output);
	const char *rel, *slash;
	int w;

	if (session->output_type == LTT_OUTPUT_NET) {
		/* relative to the relay session's directory: its chunk 0 is "" */
		if (!*path || *path == '/')
			return -EINVAL;
		rel = path;
	} else if (!n || strncmp(path, session->output, n) || path[n] != '/') {
		return -EINVAL;
	} else {
		rel = path + n + 1;
	}
	/* chunk 0's traces are OUTPUT/ust/... and OUTPUT/kernel*; a later chunk's OUTPUT/NAME/... */
	if (strncmp(rel, "ust/", 4) && strncmp(rel, "kernel", 6)) {
		slash = strchr(rel, '/');
		if (!slash)
			return -EINVAL;
		rel = slash + 1;
	}
	w = snprintf(buf, len, "%s/%s", new_root, rel);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

void ltt_session_clock_offset_take(struct ltt_session *session)
{
	struct timespec rt, mono;
	int64_t offset;


	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	offset = ((int64_t)rt.tv_sec - mono.tv_sec) * 1000000000LL + (rt.tv_nsec - mono.tv_nsec);
	__atomic_store_n(&session->clock_offset_ns, offset, __ATOMIC_RELAXED);
}

int ltt_session_shm_dir(const struct ltt_session *session, char *buf, size_t len)
{
	time_t t = (time_t)session->creation_time;
	char date[32];
	struct tm tm;
	int n;

	if (!session->shm_path[0])
		n = snprintf(buf, len, "%s", "");
	else if (session->shm_path_whole)
		n = snprintf(buf, len, "%s", session->shm_path);
	else if (!localtime_r(&t, &tm) || !strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm))
		return -EINVAL;
	else
		n = snprintf(buf, len, "%s/%s-%s", session->shm_path, session->name, date);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
