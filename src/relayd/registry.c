// SPDX-License-Identifier: GPL-2.0-only
/*
 * registry.c - the relay's objects found by id and handle, the names
 * they may take, and their freeing as a session's last reference goes
 * (registry.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/names.h"
#include "common/base/sock.h"
#include "relayd/registry.h"

bool ltt_relay_name_valid(const char *name)
{
	const unsigned char *p;
	uint32_t cp;

	if (!*name || !strcmp(name, ".") || !strcmp(name, "..") || strlen(name) > NAME_MAX)
		return false;
	for (p = (const unsigned char *)name; *p; p++)
		if (*p == '/' || *p < 0x20 || *p == 0x7f)
			return false;
	/* what could pass for another name on screen: as the session daemon */
	return !ltt_name_hidden_char(name, &cp);
}

bool ltt_relay_relpath_valid(const char *path, bool empty_ok)
{
	char buf[LTT_RELAY_PATH_MAX], *comp, *save = NULL;

	if (!*path)
		return empty_ok;
	if (path[0] == '/' || strlen(path) >= sizeof(buf))
		return false;
	strcpy(buf, path);
	/* no empty component: "a//b", a trailing '/' */
	if (strstr(buf, "//") || buf[strlen(buf) - 1] == '/')
		return false;
	for (comp = strtok_r(buf, "/", &save); comp; comp = strtok_r(NULL, "/", &save))
		if (!ltt_relay_name_valid(comp))
			return false;
	return true;
}

struct ltt_relay_session *ltt_relay_model_find_session_locked(struct ltt_relay_model *m,
							     uint64_t id)
{
	struct ltt_relay_session *s;

	for (s = m->sessions; s; s = s->next)
		if (s->id == id)
			return s;
	return NULL;
}

struct ltt_relay_stream *ltt_relay_model_find_stream_locked(struct ltt_relay_model *m,
							   uint64_t handle)
{
	struct ltt_relay_stream *st;

	for (st = m->by_handle[handle % LTT_RELAY_STREAM_BUCKETS]; st; st = st->hnext)
		if (st->handle == handle)
			return st;
	return NULL;
}

void ltt_relay_model_insert_stream_locked(struct ltt_relay_model *m, struct ltt_relay_stream *st)
{
	struct ltt_relay_stream **head = &m->by_handle[st->handle % LTT_RELAY_STREAM_BUCKETS];

	st->hnext = *head;
	*head = st;
}

void ltt_relay_stream_free(struct ltt_relay_stream *st)
{
	unsigned int i;

	if (!st)
		return;
	ltt_tracefile_close(&st->files);
	for (i = 0; i < st->kept_n; i++)
		close(st->kept_fds[i]);
	free(st->packets.items);
	free(st->indexes.items);
	free(st->entries);
	free(st);
}

static void session_free(struct ltt_relay_session *s)
{
	struct ltt_relay_stream *st, *stn;
	struct ltt_relay_trace *t, *tn;

	for (st = s->streams; st; st = stn) {
		stn = st->next;
		ltt_relay_stream_free(st);
	}
	for (t = s->traces; t; t = tn) {
		tn = t->next;
		ltt_fd_close(&t->dir_fd);
		ltt_fd_close(&t->index_fd);
		free(t->pathname);
		free(t);
	}
	if (s->journaled)	/* every file closed whole: nothing to repair there */
		ltt_relay_journal_remove(s->model->journal, s->output_path);
	free(s);
}

/* Unlink @st from the model's hash. */
static void unhash(struct ltt_relay_model *m, struct ltt_relay_stream *st)
{
	struct ltt_relay_stream **pp = &m->by_handle[st->handle % LTT_RELAY_STREAM_BUCKETS];

	while (*pp && *pp != st)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = st->hnext;
}

bool ltt_relay_session_reap_locked(struct ltt_relay_session *s)
{
	struct ltt_relay_model *m = s->model;
	struct ltt_relay_session **pp;
	struct ltt_relay_stream *st;

	if (!s->closed || s->refs || s->viewers)
		return false;
	for (pp = &m->sessions; *pp && *pp != s; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = s->next;
	for (st = s->streams; st; st = st->next) {
		unhash(m, st);
		m->stream_count--;
	}
	m->session_count--;
	LTT_DBG("session %" PRIu64 " freed", s->id);
	session_free(s);
	return true;
}

void ltt_relay_session_put(struct ltt_relay_session *s)
{
	struct ltt_relay_model *m;

	if (!s)
		return;
	m = s->model;
	pthread_mutex_lock(&m->lock);
	if (s->refs)
		s->refs--;
	ltt_relay_session_reap_locked(s);
	pthread_mutex_unlock(&m->lock);
}
