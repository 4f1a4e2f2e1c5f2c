// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-tracefs-bpf.c - the tracefs backend's BPF system call source
 * (doc/kernel-bpf.md): where the kernel refuses event probes, a system
 * call's entry whose call has path or name arguments, or a structure
 * lttng-modules reads (connect's sockaddr, poll's pollfds), is recorded
 * by ltt's BPF program (common/bpf/bpf-sc.h) instead of ftrace's
 * sys_enter_X: the same record, its strings read from the process, the
 * structure's fields after the arguments.  Each channel
 * loads the program with a ring per CPU (handed to the consumer beside
 * the CPU's trace_pipe_raw, BPF_RING) and enables the calls in its map.
 * The catalog's event keeps its ftrace names: its layout is the format
 * file's with the strings as __data_loc (tracefs_bpf_parse(), the
 * catalog's).
 * Privileged part only (the kernel thread, as root): the program is the
 * one embedded at build time, nothing a client sends is loaded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "sessiond/kabi/kabi-tracefs.h"

#ifdef HAVE_BPF
#include <bpf/libbpf.h>

#include "common/bpf/bpf-sc.h"

#define SYSCALL_ENTER "sys_enter_"
#define SYSCALL_EXIT "sys_exit_"

void tracefs_bpf_check(struct tracefs *t)
{
	const char *env = getenv("LTT_KERNEL_BPF");
	char why[512] = "";

	t->bpf = false;
	t->bpf_chosen = false;
	if (t->eprobes && env && !strcmp(env, "on")) {
		/* the program where event probes would do: the module's fields beside them */
		if (ltt_bpf_sc_available(why, sizeof(why))) {
			LTT_INFO("kernel: LTT_KERNEL_BPF=on, but %s: event probes read system call paths and names",
				 why);
			return;
		}
		LTT_INFO("kernel: LTT_KERNEL_BPF=on: event probes left unused for the BPF program");
		t->eprobes = false;
		t->bpf = t->bpf_chosen = true;
		return;
	}
	if (t->eprobes)
		return;		/* event probes read the strings */
	if (env && !strcmp(env, "off")) {
		LTT_INFO("kernel: LTT_KERNEL_BPF=off: system call paths and names are recorded as addresses");
		return;
	}
	if (ltt_bpf_sc_available(why, sizeof(why))) {
		LTT_INFO("kernel: no event probes, and %s: system call paths and names are recorded as addresses",
			 why);
		return;
	}
	t->bpf = true;
	LTT_INFO("kernel: no event probes: system call paths and names are read by ltt's BPF program");
}

/*
 * The structure lttng-modules reads at @call's entry (its overrides):
 * one of LTT_BPF_PAYLOAD_* (bpf-abi.h says what each records).
 */
static uint8_t call_payload(const char *call)
{
	if (!strcmp(call, "connect"))
		return LTT_BPF_PAYLOAD_SOCKADDR;
	if (!strcmp(call, "poll") || !strcmp(call, "ppoll"))
		return LTT_BPF_PAYLOAD_POLLFD;
	if (!strcmp(call, "epoll_ctl"))
		return LTT_BPF_PAYLOAD_EPOLL;
	return LTT_BPF_PAYLOAD_NONE;
}

/* Is @ev a call's exit the program records (its structure is read there)? */
static bool at_exit(const struct tracefs_event *ev)
{
	return ev->bpf_payload == LTT_BPF_PAYLOAD_ACCEPT ||
	       ev->bpf_payload == LTT_BPF_PAYLOAD_POLL_EXIT ||
	       ev->bpf_payload == LTT_BPF_PAYLOAD_PPOLL_EXIT ||
	       ev->bpf_payload == LTT_BPF_PAYLOAD_EPOLL_WAIT;
}

/*
 * The structure lttng-modules reads at @call's exit: accept's peer's
 * address, the pollfds poll found ready, the events epoll_wait returned.
 */
static uint8_t exit_payload(const char *call)
{
	if (!strcmp(call, "accept") || !strcmp(call, "accept4"))
		return LTT_BPF_PAYLOAD_ACCEPT;
	if (!strcmp(call, "poll"))
		return LTT_BPF_PAYLOAD_POLL_EXIT;
	if (!strcmp(call, "ppoll"))
		return LTT_BPF_PAYLOAD_PPOLL_EXIT;
	if (!strcmp(call, "epoll_wait") || !strcmp(call, "epoll_pwait"))
		return LTT_BPF_PAYLOAD_EPOLL_WAIT;
	return LTT_BPF_PAYLOAD_NONE;
}

/*
 * The arguments of system call entry @text (its format): how many, and
 * which are strings (bit i: argument i), as the event probes take them.
 * Returns 0, or -ENOTSUP (an argument that is not an 8-byte slot, too many).
 */
static int call_args(const char *text, const struct ltt_ftrace_event *orig, uint8_t *ret_nargs,
		     uint8_t *ret_mask)
{
	uint32_t i, n = 0;
	uint8_t mask = 0;

	for (i = 0; i < orig->nr_fields; i++) {
		const struct ltt_ftrace_field *f = &orig->fields[i];

		if (!strcmp(f->name, "__syscall_nr"))
			continue;
		if (f->kind != LTT_FTRACE_INT || f->offset != LTT_BPF_HDR + 8 * n ||
		    n >= LTT_BPF_ARGS)
			return -ENOTSUP;
		if (tracefs_string_field(text, f->name))
			mask |= 1u << n;
		n++;
	}
	*ret_nargs = (uint8_t)n;
	*ret_mask = mask;
	return 0;
}

void tracefs_bpf_strings(const struct tracefs *t, struct tracefs_event *ev)
{
	struct ltt_ftrace_event *orig = NULL;
	const char *call;
	char *text = NULL;
	int nr = -ENOENT;
	bool leave;

	if (!t->bpf || ev->bpf_tried)
		return;
	ev->bpf_tried = true;
	if (!tracefs_entry_format(t, ev, &text, &orig)) {
		call = ev->event + strlen(SYSCALL_ENTER);
		ev->bpf_payload = call_payload(call);
	} else if (!strncmp(ev->event, SYSCALL_EXIT, strlen(SYSCALL_EXIT)) &&
		   exit_payload(ev->event + strlen(SYSCALL_EXIT)) &&
		   !tracefs_exit_format(t, ev, &text, &orig)) {
		call = ev->event + strlen(SYSCALL_EXIT);
		ev->bpf_payload = exit_payload(call);
	} else {
		return;		/* nothing to read, or its format unreadable: ftrace's event */
	}
	nr = ltt_bpf_sc_number(call);
	leave = at_exit(ev);
	if (nr < 0 || call_args(text, orig, &ev->bpf_nargs, &ev->bpf_mask) ||
	    (!ev->bpf_mask && !ev->bpf_payload) ||
	    (ev->bpf_payload && ev->bpf_nargs < (leave ? 1 : 3)))
		goto out;	/* nothing to read, or a call the program can't say: ftrace's event */
	ev->bpf_nr = (uint16_t)nr;
	ev->bpf = true;
	LTT_DBG("kernel: %s recorded by the BPF program (call %d, strings 0x%x, structure %u)",
		ev->name, nr, ev->bpf_mask, ev->bpf_payload);
out:
	if (!ev->bpf)
		ev->bpf_payload = LTT_BPF_PAYLOAD_NONE;
	if (!ev->bpf && nr < 0)
		LTT_DBG("kernel: %s: no system call number known for %s: its strings are addresses",
			ev->name, ev->event);
	free(text);
	free(orig);
}

/*
 * Each ring: the channel's buffer per CPU, a power of two, 64 KiB at
 * least (the program wakes the reader at half of it).
 */
static uint32_t ring_bytes(const struct ltt_kabi_channel *attr)
{
	uint64_t want = attr->subbuf_size * attr->num_subbuf;
	uint32_t bytes = 64 * 1024;

	while (bytes < want && bytes < (1u << 30))
		bytes <<= 1;
	return bytes;
}

int tracefs_bpf_chan_open(struct tf_chan *c, const struct ltt_kabi_channel *attr)
{
	int cpus = libbpf_num_possible_cpus();
	char why[512] = "";
	int ret;

	if (!c->t->bpf)
		return 0;
	if (cpus <= 0)
		return cpus < 0 ? cpus : -EINVAL;
	ret = ltt_bpf_sc_create((uint32_t)cpus, ring_bytes(attr), &c->bpf, why, sizeof(why));
	if (ret)
		LTT_WARN("kernel: ftrace instance %s: %s", c->name, why);
	return ret;
}

void tracefs_bpf_chan_close(struct tf_chan *c)
{
	ltt_bpf_sc_destroy(c->bpf);
	c->bpf = NULL;
}

/* Recording: the session started and one call enabled (the program costs every call). */
static int bpf_update(struct tf_chan *c)
{
	return ltt_bpf_sc_switch(c->bpf, c->s && c->s->started && c->bpf_calls);
}

int tracefs_bpf_switch(struct tf_chan *c)
{
	return c->bpf ? bpf_update(c) : 0;
}

int tracefs_bpf_enable(struct tf_chan *c, const struct tracefs_event *ev, uint32_t id, bool on)
{
	struct ltt_bpf_call call;
	bool was;
	int ret;

	if (!c->bpf)
		return -EOPNOTSUPP;
	ret = ltt_bpf_sc_get(c->bpf, ev->bpf_nr, &call);	/* the other half's kept */
	if (ret)
		return ret;
	if (at_exit(ev)) {
		was = call.exit_id;
		call.exit_id = on ? (uint16_t)id : 0;
		call.exit_payload = on ? ev->bpf_payload : 0;
	} else {
		was = call.enter_id;
		call.enter_id = on ? (uint16_t)id : 0;
		call.nargs = on ? ev->bpf_nargs : 0;
		call.str_mask = on ? ev->bpf_mask : 0;
		call.payload = on ? ev->bpf_payload : 0;
	}
	ret = ltt_bpf_sc_set(c->bpf, ev->bpf_nr, &call);
	if (ret)
		return ret;
	if (on && !was)
		c->bpf_calls++;
	else if (!on && was)
		c->bpf_calls--;
	return bpf_update(c);
}

int tracefs_bpf_track(struct tf_chan *c, const struct tf_pids *p)
{
	uint32_t track = p->policy == LTT_KABI_TRACKER_POLICY_SET  ? LTT_BPF_TRACK_SET :
			 p->policy == LTT_KABI_TRACKER_POLICY_NONE ? LTT_BPF_TRACK_NONE :
								     LTT_BPF_TRACK_ALL;
	int ret;

	if (!c->bpf)
		return 0;
	ret = ltt_bpf_sc_track(c->bpf, track, p->ids, p->nr);
	if (ret)
		LTT_WARN("kernel: ftrace instance %s: the BPF program's pid tracker not set: %s",
			 c->name, strerror(-ret));
	return ret;
}

int tracefs_bpf_ring(struct tf_chan *c, const struct ltt_kabi_bpf_ring *arg,
		     struct ltt_kabi_obj *ret_new)
{
	int fd;

	if (!c->bpf)
		return -EOPNOTSUPP;
	if (arg->which == LTT_KABI_BPF_RING)
		fd = ltt_bpf_sc_ring_fd(c->bpf, arg->cpu);
	else if (arg->which == LTT_KABI_BPF_LOST)
		fd = ltt_bpf_sc_lost_fd(c->bpf);
	else
		return -EINVAL;
	if (fd < 0)
		return fd;
	*ret_new = (struct ltt_kabi_obj){ .fd = fd };
	return 0;
}

#else /* !HAVE_BPF: built without the BPF source */

void tracefs_bpf_check(struct tracefs *t)
{
	t->bpf = false;
	t->bpf_chosen = false;
	if (!t->eprobes)
		LTT_INFO("kernel: no event probes, and ltt was built without its BPF system call source (configure: libbpf-dev, clang, bpftool): system call paths and names are recorded as addresses");
}

void tracefs_bpf_strings(const struct tracefs *t, struct tracefs_event *ev)
{
	(void)t;
	(void)ev;
}

int tracefs_bpf_chan_open(struct tf_chan *c, const struct ltt_kabi_channel *attr)
{
	(void)c;
	(void)attr;
	return 0;
}

void tracefs_bpf_chan_close(struct tf_chan *c)
{
	(void)c;
}

int tracefs_bpf_switch(struct tf_chan *c)
{
	(void)c;
	return 0;
}

int tracefs_bpf_enable(struct tf_chan *c, const struct tracefs_event *ev, uint32_t id, bool on)
{
	(void)c;
	(void)ev;
	(void)id;
	(void)on;
	return -EOPNOTSUPP;
}

int tracefs_bpf_track(struct tf_chan *c, const struct tf_pids *p)
{
	(void)c;
	(void)p;
	return 0;
}

int tracefs_bpf_ring(struct tf_chan *c, const struct ltt_kabi_bpf_ring *arg,
		     struct ltt_kabi_obj *ret_new)
{
	(void)c;
	(void)arg;
	(void)ret_new;
	return -EOPNOTSUPP;
}

#endif /* HAVE_BPF */
