// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_trigger_list_old.c - ltt_ctl_list_triggers() as a program built
 * before more_captures (LTT_CTL_1.6's <ltt/ltt-ctl.h>, client 1.32) calls
 * it: bound to ltt_ctl_list_triggers@LTT_CTL_1.4, the version such a
 * program recorded.  For it, struct ltt_trigger_condition ends in
 * reserved room from more_captures' offset on; that room must come back
 * zeroed, so that the condition it copies, keeps past ltt_free() of the
 * list and adds again carries no pointer into the freed block.  A fake
 * daemon (a child process on RUNDIR/client.sock) lists one trigger of 20
 * captures and writes down the captures of each ADD_TRIGGER it gets.
 * The default version (LTT_CTL_1.8) gives all 20.
 */
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>
#include <ltt/ltt-error.h>

#include "common/base/codec.h"
#include "common/model/trigger.h"
#include "common/proto/client-proto.h"
#include "common/proto/trigger-proto.h"
#include "tests/unit/fake-sessiond.h"
#include "tests/unit/tap.h"

#define NR_CAPTURES 20

/* What a program linked before LTT_CTL_1.8 calls. */
int old_list_triggers(struct ltt_ctl *ctl, struct ltt_trigger_info **ret_triggers,
		      size_t *ret_count);
__asm__(".symver old_list_triggers, ltt_ctl_list_triggers@LTT_CTL_1.4");

/* @len bytes from @fd into @p (a request may come in pieces). */
static bool read_all(int fd, uint8_t *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = read(fd, p, len);
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* The trigger listed: t0, a user rule, NR_CAPTURES captures c0.., one notify. */
static void listed(struct ltt_trigger_desc *d)
{
	int i;

	memset(d, 0, sizeof(*d));
	strcpy(d->conf.name, "t0");
	d->conf.cond = LTT_CONDITION_EVENT_RULE_MATCHES;
	d->conf.domain = LTT_DOMAIN_USER;
	d->conf.rule.type = LTT_EVENT_TRACEPOINT;
	strcpy(d->conf.rule.pattern, "p:e");
	d->conf.nr_captures = NR_CAPTURES;
	for (i = 0; i < NR_CAPTURES; i++)
		snprintf(d->conf.captures[i], sizeof(d->conf.captures[i]), "c%d", i);
	d->conf.nr_actions = 1;
	d->conf.actions[0].type = LTT_ACTION_NOTIFY;
	d->conf.actions[0].rate_count = 1;
}

/*
 * One connection's requests: HELLO, LIST_TRIGGERS, ADD_TRIGGER ("ADD N\n"
 * on @log_fd); exits at its end (EOF on the log).
 */
static void fake_daemon(int lfd, int log_fd)
{
	uint8_t hb[LTT_CLIENT_HDR_SIZE], *p;
	struct ltt_trigger_desc *d = malloc(sizeof(*d));
	struct ltt_client_hdr h;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t flags;
	int fd;

	fd = accept(lfd, NULL, NULL);
	if (!d || fd < 0)
		_exit(1);
	{
		while (read(fd, hb, sizeof(hb)) == (ssize_t)sizeof(hb) &&
		       !ltt_client_hdr_decode(hb, &h)) {
			p = malloc(h.payload_len + 1);
			if (!p || (h.payload_len && !read_all(fd, p, h.payload_len)))
				_exit(1);
			ltt_wbuf_init(&w);
			if (h.cmd == LTT_CLIENT_CMD_HELLO) {
				ltt_wbuf_put_u32(&w, LTT_CLIENT_MAJOR);
				ltt_wbuf_put_u32(&w, LTT_CLIENT_MINOR);
				ltt_wbuf_put_str(&w, "fake");
			} else if (h.cmd == LTT_CLIENT_CMD_LIST_TRIGGERS) {
				listed(d);
				ltt_wbuf_put_u32(&w, 1);
				ltt_trigger_desc_put(&w, d, LTT_CLIENT_MINOR);
			} else if (h.cmd == LTT_CLIENT_CMD_ADD_TRIGGER) {
				ltt_rbuf_init(&r, p, h.payload_len);
				ltt_trigger_add_get(&r, &d->conf, &flags, LTT_CLIENT_MINOR);
				dprintf(log_fd, "ADD %u\n", ltt_rbuf_end(&r) ? 999 : d->conf.nr_captures);
				ltt_wbuf_put_str(&w, "t1");
			}
			if (fake_sessiond_reply(fd, (uint16_t)h.cmd, &w))
				_exit(1);
			ltt_wbuf_fini(&w);
			free(p);
		}
		close(fd);
	}
	_exit(0);
}

/* Are @len bytes at @p all zero? */
static bool zeroed(const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len--)
		if (*b++)
			return false;
	return true;
}

int main(void)
{
	char log[256];
	/* what LTT_CTL_1.6's header calls reserved: from more_captures on */
	const size_t room = offsetof(struct ltt_trigger_condition, more_captures);
	struct ltt_trigger_attr *copy = malloc(sizeof(*copy));
	struct ltt_trigger_info *v = NULL;
	struct ltt_ctl *ctl = NULL;
	struct fake_sessiond f;
	char name[LTT_NAME_MAX];
	size_t n = 0;

	if (!copy || fake_sessiond_start(&f, "tlist", fake_daemon))
		return 1;

	tap_is_int(ltt_ctl_connect(f.dir, &ctl), 0, "connected to the fake daemon");
	tap_is_int(old_list_triggers(ctl, &v, &n), 0, "listed through ltt_ctl_list_triggers@LTT_CTL_1.4");
	tap_ok(n == 1 && v && v[0].attr.condition.nr_captures == LTT_TRIGGER_MAX_CAPTURES &&
	       !strcmp(v[0].attr.condition.captures[15], "c15"),
	       "one trigger, its first 16 captures in the array");
	tap_ok(n == 1 && zeroed((const uint8_t *)&v[0].attr.condition + room,
				sizeof(v[0].attr.condition) - room),
	       "the condition's room past the array (more_captures to reserved[]) is zero");
	if (n == 1)
		*copy = v[0].attr;
	free(v);
	/* a pointer into the freed list here would be read by the add */
	memset(copy->name, 0, sizeof(copy->name));
	tap_is_int(ltt_ctl_add_trigger(ctl, copy, name, sizeof(name)), 0,
		   "its condition, copied and added again once the list was freed: added");

	v = NULL;
	tap_is_int(ltt_ctl_list_triggers(ctl, &v, &n), 0, "listed through the default version");
	tap_ok(n == 1 && v && v[0].attr.condition.nr_more_captures == NR_CAPTURES - 16 &&
	       !strcmp(v[0].attr.condition.more_captures[3], "c19"),
	       "the default version gives the 4 captures past the array");
	free(v);
	ltt_ctl_disconnect(ctl);
	fake_sessiond_log(&f, log, sizeof(log));
	tap_is_str(log, "ADD 16\n", "the daemon got the 16 captures the old program knows of, nothing more");
	fake_sessiond_stop(&f);
	free(copy);
	return tap_done();
}
