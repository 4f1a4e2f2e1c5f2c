// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-tracefs-eprobe.c - the tracefs backend's event probes: the path
 * and name arguments of system calls read as strings.
 *
 * A system call's entry event whose call has such arguments is recorded,
 * when the kernel takes event probes (e: in dynamic_events), through an
 * event probe of ours under the group ltt_PID with the same fields, those
 * read from the process ("+0($filename):ustring"); the catalog's event
 * then names the probe (tracefs_event_layout() puts it in place, once).
 * The kernel records an event probe enabled in two instances in the
 * first only (6.1), so each channel enables copies of its own
 * (tracefs_eprobe_copy()).  The last reference to the tracer removes the
 * probes (tracefs_eprobes_remove()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "sessiond/kabi/kabi-tracefs.h"

#define SYSCALL_ENTER "sys_enter_"

void tracefs_eprobe_check(struct tracefs *t)
{
	char def[128];

	snprintf(def, sizeof(def),
		 "e:" TRACEFS_PROBE_GROUP "%s/check syscalls/" SYSCALL_ENTER "getpid",
		 tracefs_name_tag());
	t->eprobes = !tracefs_append(t, TRACEFS_DYNAMIC_EVENTS, def);
	if (!t->eprobes) {
		LTT_INFO("kernel: no event probes (e: refused by %s/" TRACEFS_DYNAMIC_EVENTS
			 "): system call paths and names are recorded as addresses", t->root);
		return;
	}
	snprintf(def, sizeof(def), "-:" TRACEFS_PROBE_GROUP "%s/check", tracefs_name_tag());
	(void)tracefs_append(t, TRACEFS_DYNAMIC_EVENTS, def);
}

/*
 * The event probe of @ev (syscalls/sys_enter_X, format @text, layout
 * @orig) into @def: each argument under its name, a string one read from
 * the process ("+0($filename):ustring"), the others of their size and
 * sign.  Returns the number of strings (0: no probe needed) or -E2BIG.
 */
static int eprobe_definition(const struct tracefs_event *ev, const char *text,
			     const struct ltt_ftrace_event *orig, char *def, size_t size)
{
	int strings = 0, n;
	size_t len;
	uint32_t i;

	n = snprintf(def, size, "e:" TRACEFS_PROBE_GROUP "%s/%s %s/%s", tracefs_name_tag(), ev->event,
		     ev->system, ev->event);
	for (i = 0; n > 0 && (size_t)n < size && i < orig->nr_fields; i++) {
		const struct ltt_ftrace_field *f = &orig->fields[i];
		bool str;

		if (!strcmp(f->name, "__syscall_nr"))
			continue;
		str = tracefs_string_field(text, f->name);
		len = (size_t)n;
		if (str)
			n = snprintf(def + len, size - len, " %s=+0($%s):ustring", f->name,
				     f->name);
		else if (f->kind == LTT_FTRACE_INT)
			n = snprintf(def + len, size - len, " %s=$%s:%c%u", f->name, f->name,
				     f->is_signed ? 's' : 'u', f->elem_size * 8U);
		else
			return 0;	/* not an argument: leave the event alone */
		n = n < 0 ? n : n + (int)len;
		strings += str;
	}
	return n > 0 && (size_t)n < size ? strings : -E2BIG;
}

void tracefs_eprobe_strings(const struct tracefs *t, struct tracefs_event *ev)
{
	struct ltt_ftrace_event *orig = NULL;
	char *text = NULL, *def = NULL;
	int ret;

	if (!t->eprobes)
		tracefs_bpf_strings(t, ev);	/* the BPF program reads them, where it can */
	if (!t->eprobes || ev->eprobe_tried)
		return;
	ev->eprobe_tried = true;
	def = malloc(TRACEFS_PROBE_DEF_MAX);
	if (!def || tracefs_entry_format(t, ev, &text, &orig))
		goto out;
	ret = eprobe_definition(ev, text, orig, def, TRACEFS_PROBE_DEF_MAX);
	if (ret > 0)
		ret = tracefs_append(t, TRACEFS_DYNAMIC_EVENTS, def);
	else if (!ret)
		goto out;	/* no string: the event as it is */
	if (ret) {
		LTT_WARN("kernel: event probe %s refused (%s): %s records its strings as addresses",
			 def, strerror(-ret), ev->name);
		goto out;
	}
	/* its arguments, after "e:GROUP/EVENT syscalls/EVENT" */
	ev->eprobe_args = strdup(strchr(def, ' ') + strlen(" syscalls/") + strlen(ev->event));
	if (!ev->eprobe_args) {
		snprintf(def, TRACEFS_PROBE_DEF_MAX, "-:" TRACEFS_PROBE_GROUP "%s/%s", tracefs_name_tag(),
			 ev->event);
		(void)tracefs_append(t, TRACEFS_DYNAMIC_EVENTS, def);
		goto out;
	}
	LTT_INFO("kernel: %s recorded through event probes as %s", ev->name, def);
	snprintf(ev->system, sizeof(ev->system), TRACEFS_PROBE_GROUP "%s", tracefs_name_tag());
	ev->eprobe = true;
out:
	free(text);
	free(orig);
	free(def);
}

void tracefs_eprobe_bases(const struct tracefs *t, const struct tracefs_event *ev,
			  struct ltt_ftrace_event *layout)
{
	char path[3 * LTT_FTRACE_NAME_MAX], *text = malloc(LTT_FTRACE_MAX_TEXT);
	struct ltt_ftrace_event *orig = malloc(sizeof(*orig));
	const char *why = NULL;
	uint32_t i, j;
	ssize_t len;

	snprintf(path, sizeof(path), "events/syscalls/%s/format", ev->event);
	len = text && orig ? tracefs_read_text(t, path, text) : -ENOMEM;
	if (len >= 0 && !ltt_ftrace_format_parse("syscalls", text, (size_t)len, orig, &why))
		for (i = 0; i < layout->nr_fields; i++)
			for (j = 0; j < orig->nr_fields; j++)
				if (layout->fields[i].kind == LTT_FTRACE_INT &&
				    !strcmp(layout->fields[i].name, orig->fields[j].name))
					layout->fields[i].base = orig->fields[j].base;
	free(text);
	free(orig);
}

int tracefs_eprobe_copy(struct tf_chan *c, const struct tracefs_event *ev, bool define,
			struct tracefs_event *ret_ev)
{
	struct tf_eprobe_copy *copy = NULL, *bigger;
	char *def;
	size_t i;
	int ret;

	*ret_ev = *ev;
	if (!ev->eprobe)
		return 0;
	for (i = 0; i < c->nr_copies && !copy; i++)
		if (!strcmp(c->copies[i].name, ev->name))
			copy = &c->copies[i];
	if (!copy && !define)
		return -ENOENT;
	if (!copy) {
		bigger = realloc(c->copies, (c->nr_copies + 1) * sizeof(*bigger));
		def = malloc(TRACEFS_PROBE_DEF_MAX);
		if (bigger)
			c->copies = bigger;
		if (!bigger || !def) {
			free(def);
			return -ENOMEM;
		}
		copy = &c->copies[c->nr_copies];
		snprintf(copy->name, sizeof(copy->name), "%s", ev->name);
		snprintf(copy->event, sizeof(copy->event), "c%u_%s", c->t->next_probe++,
			 ev->event + strlen(SYSCALL_ENTER));
		snprintf(def, TRACEFS_PROBE_DEF_MAX, "e:%s/%s syscalls/%s%s", ev->system, copy->event,
			 ev->event, ev->eprobe_args);
		ret = tracefs_append(c->t, TRACEFS_DYNAMIC_EVENTS, def);
		if (ret)
			LTT_WARN("kernel: ftrace instance %s: event probe %s refused: %s", c->name,
				 def, strerror(-ret));
		free(def);
		if (ret)
			return ret;
		c->nr_copies++;
	}
	snprintf(ret_ev->event, sizeof(ret_ev->event), "%s", copy->event);
	return 0;
}

void tracefs_eprobe_copies_remove(struct tf_chan *c)
{
	char group[LTT_FTRACE_NAME_MAX];
	size_t i;
	int ret;

	snprintf(group, sizeof(group), TRACEFS_PROBE_GROUP "%s", tracefs_name_tag());
	for (i = 0; i < c->nr_copies; i++) {
		ret = tracefs_dyn_remove(c->t, TRACEFS_DYNAMIC_EVENTS, group, c->copies[i].event);
		if (ret && ret != -ENOENT)
			LTT_WARN("kernel: event probe %s/%s not removed: %s (the next daemon removes it)",
				 group, c->copies[i].event, strerror(-ret));
	}
	free(c->copies);
	c->copies = NULL;
	c->nr_copies = 0;
}

void tracefs_eprobes_remove(const struct tracefs *t)
{
	size_t i;
	int ret;

	for (i = 0; i < t->nr_events; i++) {
		free(t->events[i].eprobe_args);
		if (!t->events[i].eprobe)
			continue;
		ret = tracefs_dyn_remove(t, TRACEFS_DYNAMIC_EVENTS, t->events[i].system, t->events[i].event);
		if (ret && ret != -ENOENT)
			LTT_WARN("kernel: event probe %s/%s not removed: %s (the next daemon removes it)",
				 t->events[i].system, t->events[i].event, strerror(-ret));
	}
}

int tracefs_eprobe_layout(const struct tracefs *t, const struct tracefs_event *ev,
			  struct ltt_ftrace_event *ret)
{
	int err = tracefs_layout(t, ev, ret);

	if (!err && (ev->eprobe || ev->bpf))
		tracefs_eprobe_bases(t, ev, ret);
	return err;
}

int tracefs_event_layout(const struct tracefs *t, const char *name,
			 const struct tracefs_event **ret_ev, struct ltt_ftrace_event **ret_layout)
{
	const struct tracefs_event *ev = tracefs_find(t, name);
	struct ltt_ftrace_event *layout;
	int ret;

	if (!ev)
		return -ENOENT;
	/* a system call's strings: its event probe in its place, once */
	tracefs_eprobe_strings(t, (struct tracefs_event *)ev);
	layout = malloc(sizeof(*layout));
	if (!layout)
		return -ENOMEM;
	ret = tracefs_eprobe_layout(t, ev, layout);
	if (ret) {
		free(layout);
		return ret;
	}
	*ret_ev = ev;
	*ret_layout = layout;
	return 0;
}
