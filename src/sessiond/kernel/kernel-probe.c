// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-probe.c - probe rules of the kernel domain (see kernel-probe.h):
 * checked at enable-event (the tracer can place them; the file, function
 * or SDT probe exists), placed in the tracer for each session that
 * enables them (kabi.h's PROBE), once per (type, name, location), and
 * removed with the session.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/as-user.h"
#include "common/base/errmap.h"
#include "common/probe/elf-probe.h"
#include "common/base/log.h"
#include "sessiond/kernel/kernel-internal.h"
#include "sessiond/kernel/kernel-probe.h"
#include "sessiond/priv/priv.h"

/* A probe placed for a session. */
struct kernel_probe {
	struct kernel_probe *next;
	int type;			/* enum ltt_event_type */
	char name[LTT_NAME_MAX];	/* the rule's: its event's name in the trace */
	char *location;
	ltt_khandle handle;
	char event[LTT_KABI_NAME_MAX];	/* the tracer's name of its event */
	char event_return[LTT_KABI_NAME_MAX];	/* FUNCTION: of its return event */
};

static enum ltt_kabi_feature feature_of(int type)
{
	return type == LTT_EVENT_UPROBE ? LTT_KABI_FEAT_UPROBE : LTT_KABI_FEAT_KPROBE;
}

/*
 * Is @sym a symbol of the running kernel (/proc/kallsyms, built-in or a
 * module's)?  0, or -ENOENT with @why set.  A kallsyms this process can't
 * read leaves it to the tracer (0).
 */
static int ksym_find(const char *sym, char *why, size_t why_size)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], name[LTT_PROBE_SYMBOL_MAX];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*s %255s", name) == 1 && !strcmp(name, sym);
	fclose(f);
	if (found)
		return 0;
	snprintf(why, why_size, "the running kernel has no symbol %s (/proc/kallsyms)", sym);
	return -ENOENT;
}

/* A kernel probe (KPROBE, or KRETPROBE for FUNCTION) at @loc into @ret. */
static int kernel_probe_of(int type, const struct ltt_probe_loc *loc, struct ltt_kabi_probe *ret,
			   char *why, size_t why_size)
{
	memset(ret, 0, sizeof(*ret));
	ret->instrumentation = type == LTT_EVENT_FUNCTION ? LTT_KABI_KRETPROBE : LTT_KABI_KPROBE;
	if (loc->kind == LTT_PROBE_KADDR) {
		ret->addr = loc->addr;
		return 0;
	}
	snprintf(ret->symbol, sizeof(ret->symbol), "%s", loc->symbol);
	ret->offset = loc->offset;
	return ksym_find(loc->symbol, why, why_size);
}

/*
 * The tracer's probe for rule @attr into @ret.  A uprobe's file: read
 * with the rights of @owner's uid and gid (as-user.h; once the daemon
 * gave root's rights up, opened by the privileged part for @owner's
 * admitted session, ltt_priv_open_probe(), or for a trigger with the
 * rights of the client adding it, ltt_priv_open_client_probe()); with no
 * @owner, with this process's, and not at all by a daemon that gave
 * root's up (enable-event read it as the owner, cmd-event.c).  Returns 0,
 * -EINVAL (a location that does not parse), -ENOENT (no such kernel
 * symbol), -EPERM (a trigger's file, no client, in a daemon that gave
 * root's rights up), or ltt_elf_probe_resolve()'s -errno; @why says why.
 */
static int probe_of(const struct ltt_rule_conf *attr, const struct ltt_probe_owner *owner,
		    struct ltt_kabi_probe *ret, char *why, size_t why_size)
{
	struct ltt_probe_loc *loc = malloc(sizeof(*loc));
		struct ltt_as_user as;
	int err, fd = -1;

	if (!loc)
		return -ENOMEM;
	err = ltt_probe_loc_parse(attr->type, attr->location, loc, why, why_size);
	if (!err && attr->type != LTT_EVENT_UPROBE) {
		err = kernel_probe_of(attr->type, loc, ret, why, why_size);
	} else if (!err && !owner) {
		if (ltt_priv_daemon_uid() == geteuid())
			err = ltt_elf_probe_resolve(loc, ret, why, why_size);
	} else if (!err) {
		err = owner->session ? ltt_priv_open_probe(owner->session, loc->path, &fd) :
		      ltt_priv_open_client_probe(owner->client_fd, loc->path, &fd);
		if (err == 1) {
			err = ltt_as_user_begin(owner->uid, owner->gid, &as);
			if (err)
				snprintf(why, why_size, "can't take the owner's rights: %s",
					 strerror(-err));
			else
				err = ltt_elf_probe_resolve(loc, ret, why, why_size);
			ltt_as_user_end(&as);
		} else if (err == -EPERM && !owner->session) {
			snprintf(why, why_size, "%s", ltt_strerror(LTT_ERR_TRIGGER_PROBE_FILE));
		} else if (err) {
			snprintf(why, why_size, "%s: %s (opened with the rights of uid %u, the owner)",
				 loc->path, strerror(-err), (unsigned int)owner->uid);
		} else {
			err = ltt_elf_probe_resolve_fd(loc, fd, ret, why, why_size);
			close(fd);
		}
	}
	free(loc);
	return err;
}

/* Whose rights the file of a probe of session @s is read with. */
static struct ltt_probe_owner session_owner(const struct ltt_session *s)
{
	return (struct ltt_probe_owner){ .session = s->id, .client_fd = -1, .uid = s->uid,
					 .gid = s->gid };
}

void ltt_probe_owner_of_trigger(uid_t uid, int client_fd, struct ltt_probe_owner *ret)
{
	struct passwd pw, *res = NULL;
	char buf[1024];

	*ret = (struct ltt_probe_owner){ .client_fd = client_fd, .uid = uid, .gid = (gid_t)uid };
	if (!getpwuid_r(uid, &pw, buf, sizeof(buf), &res) && res)
		ret->gid = res->pw_gid;
}

/* Is @attr's probe there (probe_of() with @owner)?  Its public code; logs why not. */
static enum ltt_error_code probe_there(const struct ltt_rule_conf *attr,
				       const struct ltt_probe_owner *owner)
{
	struct ltt_kabi_probe *probe = malloc(sizeof(*probe));
	char why[LTT_PATH_MAX + 512];
	int err;

	if (!probe)
		return LTT_ERR_NOMEM;
	err = probe_of(attr, owner, probe, why, sizeof(why));
	free(probe);
	if (err)
		LTT_WARN("probe %s refused: %s", attr->pattern, why);
	return ltt_kernel_probe_code(err);
}

static const struct ltt_errmap probe_errors[] = {
	{ 0, LTT_ERR_OK },
	{ -ENOMEM, LTT_ERR_NOMEM },
	{ -EINVAL, LTT_ERR_PROBE_LOCATION },
	{ -EOPNOTSUPP, LTT_ERR_PROBE_TRACER },
	{ -EPERM, LTT_ERR_TRIGGER_PROBE_FILE },
	{ LTT_ERRMAP_ELSE, LTT_ERR_PROBE_NOT_FOUND },
};

enum ltt_error_code ltt_kernel_probe_code(int err)
{
	return LTT_ERRMAP(probe_errors, err, NULL);
}

enum ltt_error_code ltt_kernel_probe_check(struct ltt_kernel *k, const struct ltt_rule_conf *attr)
{
	char what[LTT_NAME_MAX + 64], why[LTT_PATH_MAX + 512];

	snprintf(what, sizeof(what), "probe %s refused", attr->pattern);
	if (ltt_kernel_lacks(k, feature_of(attr->type), what, why, sizeof(why))) {
		LTT_WARN("%s", why);
		return LTT_ERR_PROBE_TRACER;
	}
	return probe_there(attr, NULL);
}

enum ltt_error_code ltt_kernel_probe_check_file(const struct ltt_rule_conf *attr,
						const struct ltt_session *session)
{
	struct ltt_probe_owner owner = session_owner(session);

	if (attr->type != LTT_EVENT_UPROBE)
		return LTT_ERR_OK;
	return probe_there(attr, &owner);
}

enum ltt_error_code ltt_kernel_probe_check_tracefs(const struct ltt_kabi_version *version,
						   const struct ltt_rule_conf *attr)
{
	bool user = attr->type == LTT_EVENT_UPROBE;
	char what[LTT_NAME_MAX + 64], why[512];

	snprintf(what, sizeof(what), "trigger's probe %s refused", attr->pattern);
	if (ltt_kabi_tracefs.lacks(version, user ? LTT_KABI_FEAT_UPROBE : LTT_KABI_FEAT_KPROBE,
				   what, why, sizeof(why))) {
		LTT_WARN("%s", why);
		return user ? LTT_ERR_TRIGGER_UPROBE_EVENTS : LTT_ERR_TRIGGER_KPROBE_EVENTS;
	}
	/* a kernel symbol now; a file when it is placed, read as the owner or the client */
	return user ? LTT_ERR_OK : probe_there(attr, NULL);
}

int ltt_kernel_probe_place(struct ltt_kabi *kabi, ltt_khandle session,
			   const struct ltt_rule_conf *attr, const struct ltt_probe_owner *owner,
			   ltt_khandle *ret, char event[LTT_KABI_NAME_MAX],
			   char event_return[LTT_KABI_NAME_MAX])
{
	struct ltt_kabi_probe *arg = malloc(sizeof(*arg));
	char why[LTT_PATH_MAX + 512];
	int err;

	if (!arg)
		return -ENOMEM;
	err = probe_of(attr, owner, arg, why, sizeof(why));
	if (err)
		LTT_WARN("probe %s not placed: %s", attr->pattern, why);
	if (!err)
		err = ltt_kabi_probe_create(kabi, session, arg, ret);
	if (!err) {
		memcpy(event, arg->event, LTT_KABI_NAME_MAX);
		memcpy(event_return, arg->event_return, LTT_KABI_NAME_MAX);
	}
	free(arg);
	return err;
}

/* @ks's probe for @rule, placed now if it was not. */
static int probe_get(struct ltt_kernel *k, struct kernel_session *ks,
		     const struct ltt_event_rule *rule, struct kernel_probe **ret)
{
	const struct ltt_rule_conf *attr = &rule->attr;
	struct ltt_probe_owner owner = session_owner(ks->trace.session);
	struct kernel_probe *p;
	int err;

	for (p = ks->probes; p; p = p->next)
		if (p->type == (int)attr->type && !strcmp(p->name, attr->pattern) &&
		    !strcmp(p->location, attr->location))
			goto found;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->location = strdup(attr->location))) {
		free(p);
		return -ENOMEM;
	}
	/*
	 * The file may have changed since enable-event: resolved again, with
	 * the session's owner's rights (enable-event opened it with the
	 * client's, cmd-event.c), so a root daemon reads no file for a
	 * session that its owner could not.
	 */
	err = ltt_kernel_probe_place(k->kabi, ks->handle, attr, &owner, &p->handle, p->event,
				     p->event_return);
	if (err) {
		free(p->location);
		free(p);
		return err;
	}
	p->type = (int)attr->type;
	snprintf(p->name, sizeof(p->name), "%s", attr->pattern);
	p->next = ks->probes;
	ks->probes = p;
found:
	*ret = p;
	return 0;
}

int ltt_kernel_probe_events(struct ltt_kernel *k, struct kernel_session *ks,
			    const struct ltt_event_rule *rule,
			    int (*fn)(void *arg, const struct ltt_kernel_probe_event *e), void *arg)
{
	char name[LTT_NAME_MAX + 16];
	struct ltt_kernel_probe_event e;
	struct kernel_probe *p;
	int err = probe_get(k, ks, rule, &p);

	if (err)
		return err;
	e = (struct ltt_kernel_probe_event){ p->event, p->name, p->name, p->type };
	if (!p->event_return[0])
		return fn(arg, &e);
	/* a function's entry and return, named as lttng-modules names them */
	snprintf(name, sizeof(name), "%s_entry", p->name);
	e.display = name;
	err = fn(arg, &e);
	snprintf(name, sizeof(name), "%s_exit", p->name);
	e.event = p->event_return;
	return err ? err : fn(arg, &e);
}

void ltt_kernel_probes_release(struct ltt_kernel *k, struct kernel_session *ks)
{
	struct kernel_probe *p;

	while ((p = ks->probes)) {
		ks->probes = p->next;
		ltt_kabi_release(k->kabi, p->handle);
		free(p->location);
		free(p);
	}
}
