// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config.c - libltt-ctl's save and load: which sessions, which files,
 * and loading all or nothing (the XML module, config-module.h, reads and
 * writes the files).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>

#include "common/model/convert.h"
#include "common/base/paths.h"
#include "common/model/uri.h"
#include "lib/ltt-ctl/config/config-check.h"
#include "lib/ltt-ctl/config/config-module.h"
#include "lib/ltt-ctl/config/config-save.h"
#include "lib/ltt-ctl/config/config-trigger.h"
#include "lib/ltt-ctl/config/config-xml.h"
#include "lib/ltt-ctl/ctl-internal.h"


void ltt_ctl_load_opts_init(struct ltt_load_opts *opts)
{
	if (opts)
		memset(opts, 0, sizeof(*opts));
}

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/*
 * Read every *.ltt file of @dir and every *.lttng (LTTng's, config-lttng.h)
 * with @m, in name order; a missing @dir is empty unless @must.
 */
static int read_dir(struct ltt_ctl *ctl, const struct ltt_cfg_module *m, struct ltt_cfg_set *set,
		    const char *dir, bool must)
{
	char path[LTT_PATH_MAX];
	struct dirent **ents;
	int i, n, ret = 0;

	n = scandir(dir, &ents, NULL, name_cmp);
	if (n < 0) {
		if (!must && errno == ENOENT)
			return 0;
		ltt_cfg_detail(ctl, "%s: %s", dir, strerror(errno));
		return -LTT_ERR_CONFIG_IO;
	}
	for (i = 0; i < n; i++) {
		if (!ret && ents[i]->d_name[0] != '.' &&
		    (ltt_cfg_ends_with(ents[i]->d_name, LTT_CFG_SUFFIX) ||
		     ltt_cfg_ends_with(ents[i]->d_name, LTT_CFG_LTTNG_SUFFIX))) {
			if (ltt_path_join(path, sizeof(path), dir, ents[i]->d_name)) {
				ltt_cfg_detail(ctl, "%s/%s: path too long", dir, ents[i]->d_name);
				ret = -LTT_ERR_CONFIG_IO;
			} else {
				ret = m->read(set, path, ltt_lib_detail(ctl),
					      LTT_LIB_DETAIL_MAX);
			}
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

/* Read a file, or a directory of files, with @m. */
static int read_path(struct ltt_ctl *ctl, const struct ltt_cfg_module *m, struct ltt_cfg_set *set,
		     const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		ltt_cfg_detail(ctl, "%s: %s", path, strerror(errno));
		return errno == ENOENT ? -LTT_ERR_CONFIG_NOT_FOUND : -LTT_ERR_CONFIG_IO;
	}
	if (S_ISDIR(st.st_mode))
		return read_dir(ctl, m, set, path, true);
	return m->read(set, path, ltt_lib_detail(ctl), LTT_LIB_DETAIL_MAX);
}

static struct ltt_cfg_session *find_cfg(struct ltt_cfg_set *set, const char *name)
{
	size_t i;

	for (i = 0; i < set->nr; i++)
		if (!strcmp(set->v[i].attr.name, name))
			return &set->v[i];
	return NULL;
}

/*
 * The sessions to load, in @ret_sel (@ret_n entries, pointing into @user
 * and @sys): from @o->path, or from the user's directory, then the
 * system's for what the user's does not hold.
 */
static int select_sessions(struct ltt_ctl *ctl, const struct ltt_load_opts *o,
			   struct ltt_cfg_set *user, struct ltt_cfg_set *sys,
			   struct ltt_cfg_session ***ret_sel, size_t *ret_n)
{
	struct ltt_cfg_session **sel, *found;
	const struct ltt_cfg_module *m;
	char dir[LTT_PATH_MAX];
	size_t i, n = 0;
	int ret;

	ret = ltt_cfg_module_get(&m, ltt_lib_detail(ctl), LTT_LIB_DETAIL_MAX);
	if (ret)
		return ret;
	if (o->path) {
		ret = read_path(ctl, m, user, o->path);
	} else {
		ret = ltt_cfg_user_dir(dir, sizeof(dir));
		if (!ret)
			ret = read_dir(ctl, m, user, dir, false);
		/* ltt's directory of before, whose sessions the one above overrides by name */
		if (!ret && !ltt_home_find(LTT_HOME_SESSIONS_OLD, dir, sizeof(dir)))
			ret = read_dir(ctl, m, user, dir, false);
		if (!ret && !(o->session && find_cfg(user, o->session)))
			ret = read_dir(ctl, m, sys, LTT_SYSCONFDIR "/ltt/" SESSIONS_DIR_NAME, false);
	}
	if (ret)
		return ret;
	sel = calloc(user->nr + sys->nr + 1, sizeof(*sel));
	if (!sel)
		return -LTT_ERR_NOMEM;
	if (o->session) {
		found = find_cfg(user, o->session);
		if (!found)
			found = find_cfg(sys, o->session);
		if (found)
			sel[n++] = found;
	} else {
		for (i = 0; i < user->nr; i++)	/* a name once: the newer directory's */
			if (find_cfg(user, user->v[i].attr.name) == &user->v[i])
				sel[n++] = &user->v[i];
		for (i = 0; i < sys->nr; i++)
			if (!find_cfg(user, sys->v[i].attr.name))
				sel[n++] = &sys->v[i];
	}
	if (!n) {
		free(sel);
		ltt_cfg_detail(ctl, "%s%s%s", o->session ? "session '" : "", o->session ? o->session : "",
		       o->session ? "'" : "");
		return -LTT_ERR_CONFIG_NOT_FOUND;
	}
	*ret_sel = sel;
	*ret_n = n;
	return 0;
}

/*
 * --override-url's URL, or an absolute path (LTTng takes one), and the
 * output it gives: a URL as given, a directory as LTTng records it, the
 * text of its URL, which ends in '/'.
 */
static int override_output(const char *url, struct ltt_uri *uri, char out[LTT_PATH_MAX])
{
	char file[LTT_PATH_MAX + 8];

	if (strlen(url) >= LTT_PATH_MAX)
		return -1;
	snprintf(file, sizeof(file), "file://%s", url);
	if (ltt_uri_parse(url[0] == '/' ? file : url, uri) ||
	    (uri->scheme != LTT_URI_FILE && uri->scheme != LTT_URI_NET))
		return -1;
	if (uri->scheme == LTT_URI_NET) {
		strcpy(out, url);
		return 0;
	}
	if (snprintf(out, LTT_PATH_MAX, "%s%s", uri->path,
		     uri->path[strlen(uri->path) - 1] == '/' ? "" : "/") >= LTT_PATH_MAX)
		return -1;
	return 0;
}

/* --override-url on a snapshot session with snapshot outputs: they go there. */
static void override_snap_outputs(struct ltt_cfg_session *s, const struct ltt_uri *uri,
				  const char *output)
{
	size_t i;

	for (i = 0; i < s->nr_snap_outputs; i++) {
		struct ltt_snapshot_output_conf *so = &s->snap_outputs[i].attr;

		so->output_type = uri->scheme == LTT_URI_FILE ? LTT_OUTPUT_LOCAL : LTT_OUTPUT_NET;
		strcpy(so->output, output);
	}
}

/* --override-url and --override-name on the selected sessions, checked again. */
static int apply_overrides(struct ltt_ctl *ctl, const struct ltt_load_opts *o,
			   struct ltt_cfg_session **sel, size_t n)
{
	char output[LTT_PATH_MAX];
	struct ltt_uri uri;
	size_t i;
	int ret;

	/* as LTTng's: the session named, even where the file holds one */
	if (o->override_name && (!o->session || n != 1))
		return -LTT_ERR_CONFIG_OVERRIDE_NAME;
	if (o->override_url && override_output(o->override_url, &uri, output)) {
		ltt_cfg_detail(ctl, "--override-url '%s'", o->override_url);
		return -LTT_ERR_URL;
	}
	for (i = 0; i < n; i++) {
		struct ltt_session_conf *a = &sel[i]->attr;

		if (o->override_name)
			ltt_cfg_rename_in_triggers(sel[i], a->name, o->override_name);
		if (o->override_name)
			snprintf(a->name, sizeof(a->name), "%s", o->override_name);
		if (o->override_url && sel[i]->nr_snap_outputs) {
			/* a snapshot session's outputs are its snapshot outputs */
			override_snap_outputs(sel[i], &uri, output);
		} else if (o->override_url) {
			a->output_type = uri.scheme == LTT_URI_FILE ? LTT_OUTPUT_LOCAL : LTT_OUTPUT_NET;
			strcpy(a->output, output);
		}
		ret = ltt_cfg_check_session(sel[i], ltt_lib_detail(ctl), LTT_LIB_DETAIL_MAX);
		if (ret)
			return ret;
	}
	return 0;
}

/* Load: creating */

/* Enable the rule @r of @c (a new one, or a disabled one again). */
static int enable_rule(struct ltt_ctl *ctl, const char *name, const struct ltt_cfg_channel *c,
		       const struct ltt_cfg_rule *r)
{
	struct ltt_event_rule_attr attr;

	ltt_conv_rule_conf_to_attr(&r->attr, &attr);
	return ltt_ctl_enable_event(ctl, name, LTT_CFG_RULE_DOMAIN(c), c->attr.name, &attr);
}

/* Give @c's rules their saved state: enable each, then disable what was disabled. */
static int apply_rules(struct ltt_ctl *ctl, const char *name, const struct ltt_cfg_channel *c)
{
	size_t i, j;
	int ret;

	for (i = 0; i < c->nr_rules; i++) {
		ret = enable_rule(ctl, name, c, &c->rules[i]);
		if (ret)
			return ret;
	}
	/*
	 * Each disabled rule exactly; a daemon older than client protocol
	 * minor 7 disables every rule of a pattern: disable the patterns with
	 * a disabled rule, then enable again their enabled ones.
	 */
	for (i = 0; i < c->nr_rules; i++) {
		const char *pattern = c->rules[i].attr.pattern;
		struct ltt_event_rule_attr attr;
		bool first = true;

		if (c->rules[i].enabled)
			continue;
		ltt_conv_rule_conf_to_attr(&c->rules[i].attr, &attr);
		ret = ltt_ctl_disable_event_rule(ctl, name, LTT_CFG_RULE_DOMAIN(c), c->attr.name,
						 &attr);
		if (ret != -LTT_ERR_NOT_SUPPORTED) {
			if (ret)
				return ret;
			continue;
		}
		for (j = 0; j < i; j++)
			if (!c->rules[j].enabled && !strcmp(c->rules[j].attr.pattern, pattern))
				first = false;
		if (!first)
			continue;
		ret = ltt_ctl_disable_event(ctl, name, LTT_CFG_RULE_DOMAIN(c), c->attr.name,
					    pattern);
		for (j = 0; !ret && j < c->nr_rules; j++)
			if (c->rules[j].enabled && !strcmp(c->rules[j].attr.pattern, pattern))
				ret = enable_rule(ctl, name, c, &c->rules[j]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Give the new session @s its snapshot outputs and its rotation schedule. */
static int apply_extra(struct ltt_ctl *ctl, const struct ltt_cfg_session *s)
{
	struct ltt_snapshot_output out;
	size_t i;
	int ret;

	for (i = 0; i < s->nr_snap_outputs; i++) {
		ltt_conv_snapshot_output_conf_to_output(&s->snap_outputs[i].attr, &out);
		out.id = 0;
		ret = ltt_ctl_snapshot_add_output(ctl, s->attr.name, &out, NULL);
		if (ret) {
			ltt_cfg_detail(ctl, "%s:%ld: snapshot output '%s' can't be added", s->file,
			       s->snap_outputs[i].line, out.name);
			return ret;
		}
	}
	if (!s->rotate_timer_us && !s->rotate_size)
		return 0;
	ret = ltt_ctl_enable_rotation(ctl, s->attr.name, s->rotate_timer_us, s->rotate_size);
	if (ret)
		ltt_cfg_detail(ctl, "%s:%ld: the rotation schedule of session '%s' can't be set", s->file,
		       s->rotation_line, s->attr.name);
	return ret;
}

/* The trackers of @s that do not include every process, set as saved. */
static int apply_trackers(struct ltt_ctl *ctl, const struct ltt_cfg_session *s)
{
	char (*text)[16] = NULL;
	const char **values = NULL;
	const struct ltt_cfg_tracker *t;
	enum ltt_domain domain;
	size_t d, k, i;
	int ret = 0;

	for (d = 0; d < 2 && !ret; d++) {
		domain = d ? LTT_DOMAIN_USER : LTT_DOMAIN_KERNEL;
		for (k = 0; k < LTT_TRACKER_NR && !ret; k++) {
			t = &s->trackers.t[d][k];
			if (t->policy == LTT_TRACKER_NONE)
				ret = ltt_ctl_tracker_set_policy(ctl, s->attr.name, domain,
								 (enum ltt_tracker_type)k,
								 LTT_TRACKER_NONE);
			if (t->policy != LTT_TRACKER_SET || ret)
				goto next;
			text = calloc(t->nr, sizeof(*text));
			values = calloc(t->nr, sizeof(*values));
			if (!text || !values) {
				ret = -LTT_ERR_NOMEM;
				goto next;
			}
			for (i = 0; i < t->nr; i++) {
				snprintf(text[i], sizeof(text[i]), "%lu", (unsigned long)t->ids[i]);
				values[i] = text[i];
			}
			ret = ltt_ctl_track(ctl, s->attr.name, domain, (enum ltt_tracker_type)k,
					    values, t->nr, NULL);
next:
			if (ret)
				ltt_cfg_detail(ctl, "%s:%ld: the %s %s tracker can't be set", s->file,
				       t->line, ltt_domain_name(domain),
				       ltt_tracker_type_name((enum ltt_tracker_type)k));
			free(text);
			free(values);
			text = NULL;
			values = NULL;
		}
	}
	return ret;
}

/* Add @c's contexts to it, in their order. */
static int apply_contexts(struct ltt_ctl *ctl, const char *name, const struct ltt_cfg_channel *c)
{
	struct ltt_context pub;
	uint32_t i;
	int ret = 0;

	for (i = 0; i < c->nr_contexts && i < LTT_CTX_MAX && !ret; i++) {
		ltt_conv_ctx_to_context(&c->contexts[i], &pub);
		ret = ltt_ctl_add_context(ctl, name, c->domain, c->attr.name, &pub);
	}
	return ret;
}

/*
 * Create one session as configured; @ret_created says whether it exists
 * now (to destroy on failure).  Returns 0 or the failing call's code, its
 * detail set.
 */
static int apply_session(struct ltt_ctl *ctl, const struct ltt_cfg_session *s,
			 struct ltt_session_file *ret_file, bool *ret_created)
{
	struct ltt_session_tls tls = { s->attr.tls_cert, s->attr.tls_key, s->attr.tls_ca };
	const char *name = s->attr.name;
	const struct ltt_cfg_channel *c;
	struct ltt_channel_attr chan;
	struct ltt_session_attr attr;
	struct ltt_session_info info;
	size_t i;
	int ret;

	ltt_conv_session_conf_to_attr(&s->attr, &attr);
	if (s->attr.tls_cert[0])
		attr.tls = &tls;	/* the files of its tls:// outputs, as saved */
	if (s->attr.shm_path[0])
		attr.shm_path = s->attr.shm_path;	/* LTTng's <shared_memory_path> */
	ret = ltt_ctl_create_session(ctl, &attr, &info);
	if (ret) {
		ltt_cfg_detail(ctl, "%s:%ld: session '%s' can't be created", s->file, s->line, name);
		return ret;
	}
	*ret_created = true;
	snprintf(ret_file->name, sizeof(ret_file->name), "%s", info.name);
	snprintf(ret_file->path, sizeof(ret_file->path), "%s", s->file);
	for (i = 0; i < s->nr_channels; i++) {
		c = &s->channels[i];
		ltt_conv_channel_conf_to_attr(&c->attr, &chan);
		ret = ltt_ctl_enable_channel(ctl, name, c->domain, &chan);
		if (ret) {
			ltt_cfg_detail(ctl, "%s:%ld: %s channel '%s' can't be created", s->file, c->line,
			       ltt_domain_name(c->domain), c->attr.name);
			return ret;
		}
		ret = apply_contexts(ctl, name, c);
		if (ret) {
			ltt_cfg_detail(ctl, "%s:%ld: the contexts of %s channel '%s' can't be added", s->file,
			       c->context_line, ltt_domain_name(c->domain), c->attr.name);
			return ret;
		}
		ret = apply_rules(ctl, name, c);
		if (ret) {
			ltt_cfg_detail(ctl, "%s:%ld: the rules of %s channel '%s' can't be set", s->file,
			       c->line, ltt_domain_name(c->domain), c->attr.name);
			return ret;
		}
	}
	for (i = 0; i < s->nr_channels; i++) {
		c = &s->channels[i];
		ret = c->enabled ? 0 : ltt_ctl_disable_channel(ctl, name, c->domain, c->attr.name);
		if (ret) {
			ltt_cfg_detail(ctl, "%s:%ld: channel '%s' can't be disabled", s->file, c->line,
			       c->attr.name);
			return ret;
		}
	}
	ret = apply_extra(ctl, s);
	for (i = 0; i < s->nr_maps && !ret; i++) {
		ret = ltt_ctl_add_map_channel(ctl, name, &s->maps[i]);
		if (ret)
			ltt_cfg_detail(ctl, "%s:%ld: map channel '%s' can't be added", s->file, s->maps_line,
			       s->maps[i].name);
	}
	if (!ret)
		ret = apply_trackers(ctl, s);
	if (ret)
		return ret;
	ret = s->started ? ltt_ctl_start_session(ctl, name) : 0;
	if (ret)
		ltt_cfg_detail(ctl, "%s:%ld: session '%s' can't be started", s->file, s->line, name);
	return ret;
}

/* A session's configuration as the daemon reports it, to create it again. */
static int cfg_from_detail(const struct ltt_session_detail *d, const struct ltt_cfg_extra *x,
			   struct ltt_cfg_session *s)
{
	size_t i, j;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	if (x->trackers)
		s->trackers = *x->trackers;
	s->rotate_timer_us = x->rotate_timer_us;
	s->rotate_size = x->rotate_size;
	if (x->nr_maps) {
		s->maps = calloc(x->nr_maps, sizeof(*s->maps));
		if (!s->maps)
			return -LTT_ERR_NOMEM;
		memcpy(s->maps, x->maps, x->nr_maps * sizeof(*s->maps));
		s->nr_maps = x->nr_maps;
	}
	s->snap_outputs = calloc(x->nr_snap_outputs + 1, sizeof(*s->snap_outputs));
	if (!s->snap_outputs)
		return -LTT_ERR_NOMEM;
	for (i = 0; i < x->nr_snap_outputs && !ret; i++)
		ret = ctl_err(ltt_conv_snapshot_output_to_conf(&x->snap_outputs[i],
							       &s->snap_outputs[s->nr_snap_outputs++].attr));
	snprintf(s->attr.name, sizeof(s->attr.name), "%s", d->info.name);
	s->attr.output_type = d->info.output_type;
	snprintf(s->attr.output, sizeof(s->attr.output), "%s", d->info.output);
	s->attr.snapshot = d->info.snapshot;
	s->attr.live_timer_us = d->info.live_timer_us;
	if (d->tls) {
		snprintf(s->attr.tls_cert, sizeof(s->attr.tls_cert), "%s", d->tls->cert);
		snprintf(s->attr.tls_key, sizeof(s->attr.tls_key), "%s", d->tls->key);
		snprintf(s->attr.tls_ca, sizeof(s->attr.tls_ca), "%s", d->tls->ca);
	}
	if (d->shm_path)
		snprintf(s->attr.shm_path, sizeof(s->attr.shm_path), "%s", d->shm_path);
	s->started = d->info.active;
	s->file = "(the replaced session)";
	s->channels = calloc(d->nr_channels + 1, sizeof(*s->channels));
	if (!s->channels)
		return -LTT_ERR_NOMEM;
	for (i = 0; i < d->nr_channels && !ret; i++) {
		struct ltt_cfg_channel *c = &s->channels[s->nr_channels++];

		c->domain = d->channels[i].domain;
		ret = ctl_err(ltt_conv_channel_attr_to_conf(&d->channels[i].attr, &c->attr));
		c->enabled = d->channels[i].enabled;
		c->rules = calloc(d->nr_rules + 1, sizeof(*c->rules));
		if (!c->rules)
			return -LTT_ERR_NOMEM;
		for (j = 0; j < d->nr_rules && !ret; j++) {
			if (d->rules[j].domain != LTT_CFG_RULE_DOMAIN(c) ||
			    strcmp(d->rules[j].channel, c->attr.name))
				continue;
			ret = ctl_err(ltt_conv_rule_attr_to_conf(&d->rules[j].attr,
								 &c->rules[c->nr_rules].attr));
			c->rules[c->nr_rules++].enabled = d->rules[j].enabled;
		}
		for (j = 0; j < x->contexts.n && !ret && c->nr_contexts < LTT_CTX_MAX; j++) {
			const struct ltt_context_info *ci = &x->contexts.v[j];

			if (ci->domain != c->domain || strcmp(ci->channel, c->attr.name))
				continue;
			ret = ctl_err(ltt_conv_context_to_ctx(&ci->context,
							      &c->contexts[c->nr_contexts++]));
		}
	}
	return ret;
}

/* Does the caller have a session called @name? */
static bool session_exists(const struct ltt_session_info *sessions, size_t count, const char *name)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (sessions[i].uid == geteuid() && !strcmp(sessions[i].name, name))
			return true;
	return false;
}

/* Loads in progress: what was created, what was replaced (for the undo). */
struct load_undo {
	size_t nr_created;
	struct ltt_session_file *created;	/* the caller's array */
	size_t nr_replaced;
	struct ltt_session_detail **replaced;
	struct ltt_cfg_extra *replaced_extra;	/* one for each of replaced */
	struct ltt_cfg_trackers *replaced_trackers;	/* the extras' trackers */
};

/* Destroy what was created, create again what was replaced (best effort). */
static void undo_load(struct ltt_ctl *ctl, struct load_undo *u)
{
	struct ltt_session_file scratch;
	struct ltt_cfg_session s;
	bool created;
	size_t i;

	for (i = u->nr_created; i-- > 0;)
		ltt_ctl_destroy_session(ctl, u->created[i].name);
	for (i = 0; i < u->nr_replaced; i++) {
		created = false;
		if (!cfg_from_detail(u->replaced[i], &u->replaced_extra[i], &s) &&
		    apply_session(ctl, &s, &scratch, &created) && created)
			ltt_ctl_destroy_session(ctl, s.attr.name);
		ltt_cfg_session_fini(&s);
	}
}

/* Create the @n selected sessions, all or none; @files receives them. */
static int load_all(struct ltt_ctl *ctl, const struct ltt_load_opts *o,
		    struct ltt_cfg_session **sel, size_t n, struct ltt_session_file *files)
{
	struct load_undo u = { .created = files };
	struct ltt_session_info *sessions;
	char saved_detail[LTT_LIB_DETAIL_MAX];
	size_t i, count;
	bool created;
	int ret;

	ret = ltt_ctl_list_sessions(ctl, &sessions, &count);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		if (!o->force && session_exists(sessions, count, sel[i]->attr.name)) {
			ltt_cfg_detail(ctl, "%s:%ld: session '%s' exists (destroy it, or load with -f)",
			       sel[i]->file, sel[i]->line, sel[i]->attr.name);
			free(sessions);
			return -LTT_ERR_SESSION_EXISTS;
		}
	u.replaced = calloc(n, sizeof(*u.replaced));
	u.replaced_extra = calloc(n, sizeof(*u.replaced_extra));
	u.replaced_trackers = calloc(n, sizeof(*u.replaced_trackers));
	if (!u.replaced || !u.replaced_extra || !u.replaced_trackers) {
		ret = -LTT_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		const char *name = sel[i]->attr.name;

		if (session_exists(sessions, count, name)) {
			ret = ltt_ctl_get_session(ctl, name, &u.replaced[u.nr_replaced]);
			if (!ret)
				ret = ltt_cfg_get_extra(ctl, &u.replaced[u.nr_replaced]->info,
						&u.replaced_extra[u.nr_replaced]);
			if (!ret)
				ret = ltt_cfg_get_contexts(ctl, name,
						   &u.replaced_extra[u.nr_replaced].contexts);
			if (!ret)
				ret = ltt_cfg_get_trackers(ctl, name, &u.replaced_trackers[u.nr_replaced]);
			u.replaced_extra[u.nr_replaced].trackers = &u.replaced_trackers[u.nr_replaced];
			if (u.replaced[u.nr_replaced])
				u.nr_replaced++;
			if (!ret)
				ret = ltt_ctl_destroy_session(ctl, name);
			if (ret) {
				ltt_cfg_detail(ctl, "session '%s' can't be replaced", name);
				break;
			}
		}
		created = false;
		ret = apply_session(ctl, sel[i], &files[i], &created);
		if (created)
			u.nr_created++;
	}
	if (!ret && !o->no_triggers)
		ret = ltt_cfg_load_triggers(ctl, o->force, sel, n);
	if (ret) {
		strcpy(saved_detail, ltt_ctl_error_detail(ctl));
		undo_load(ctl, &u);
		strcpy(ltt_lib_detail(ctl), saved_detail);
	}
out:
	for (i = 0; i < u.nr_replaced; i++) {
		free(u.replaced[i]);
		free(u.replaced_extra[i].snap_outputs);
		free(u.replaced_extra[i].maps);
		free((void *)u.replaced_extra[i].contexts.v);
	}
	free(u.replaced);
	free(u.replaced_extra);
	free(u.replaced_trackers);
	free(sessions);
	return ret;
}

int ltt_ctl_load_sessions(struct ltt_ctl *ctl, const struct ltt_load_opts *opts,
			  struct ltt_session_file **ret_files, size_t *ret_count)
{
	struct ltt_cfg_set user = { 0 }, sys = { 0 };
	struct ltt_cfg_session **sel = NULL;
	struct ltt_session_file *files = NULL;
	size_t n = 0;
	int ret;

	if (!ctl || !opts || !ret_files || !ret_count ||
	    (opts->session && strlen(opts->session) >= LTT_NAME_MAX) ||
	    (opts->path && strlen(opts->path) >= LTT_PATH_MAX))
		return -LTT_ERR_INVAL;
	ltt_lib_detail(ctl);
	if (!ltt_cfg_reserved_zero(opts->reserved, sizeof(opts->reserved)))
		return -LTT_ERR_NOT_SUPPORTED;
	ret = select_sessions(ctl, opts, &user, &sys, &sel, &n);
	if (!ret)
		ret = apply_overrides(ctl, opts, sel, n);
	if (!ret) {
		files = calloc(n, sizeof(*files));
		ret = files ? load_all(ctl, opts, sel, n, files) : -LTT_ERR_NOMEM;
	}
	if (!ret) {
		*ret_files = files;
		*ret_count = n;
		files = NULL;
	}
	free(files);
	free(sel);
	ltt_cfg_set_fini(&user);
	ltt_cfg_set_fini(&sys);
	return ret;
}

int ltt_lib_load_path(const char *rundir, const char *path,
		      void (*loaded)(const char *name, const char *file), char *err,
		      size_t errlen)
{
	struct ltt_session_file *files;
	struct ltt_load_opts opts;
	struct ltt_ctl *ctl;
	size_t i, n;
	int ret;

	ret = ltt_cfg_daemon_open(rundir, err, errlen, &ctl);
	if (ret)
		return ret;
	ltt_ctl_load_opts_init(&opts);
	opts.path = path;
	ret = ltt_ctl_load_sessions(ctl, &opts, &files, &n);
	for (i = 0; !ret && loaded && i < n; i++)
		loaded(files[i].name, files[i].path);
	if (!ret)
		free(files);
	return ltt_cfg_daemon_close(ctl, ret, err, errlen);
}
