// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_trigger_flags.c - ltt_ctl_add_trigger_flags() toward a daemon of
 * client protocol minor 34, which predates ADD_TRIGGER's flags: a fake
 * daemon (a child process on RUNDIR/client.sock) answers HELLO with minor
 * 34 and ADD_TRIGGER with a name, and writes down each ADD_TRIGGER it gets.
 * A kernel rule with a filter and LTT_TRIGGER_ADD_LTTNG is refused,
 * TRIGGER_LTTNG_DAEMON, and never sent (such a daemon would add it as
 * ltt's own spelling, refusing it, not as LTTng adds it); a rule the flag
 * changes nothing for is sent in minor 34's form, without flags; an
 * unknown flag is INVAL.
 */
#include <errno.h>
#include <signal.h>
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

#define OLD_MINOR 34

/*
 * The fake daemon of one connection: HELLO gets minor 34; each
 * ADD_TRIGGER a line on @log_fd, "ADD whole" when its payload is a
 * minor-34 trigger and nothing more, "ADD extra" otherwise.
 */
static void fake_daemon(int lfd, int log_fd)
{
	uint8_t hb[LTT_CLIENT_HDR_SIZE], *p;
	struct ltt_trigger_conf *c = malloc(sizeof(*c));
	struct ltt_client_hdr h;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int fd = accept(lfd, NULL, NULL);

	if (fd < 0 || !c)
		_exit(1);
	while (read(fd, hb, sizeof(hb)) == (ssize_t)sizeof(hb) && !ltt_client_hdr_decode(hb, &h)) {
		p = malloc(h.payload_len + 1);
		if (!p || (h.payload_len && read(fd, p, h.payload_len) != (ssize_t)h.payload_len))
			_exit(1);
		ltt_wbuf_init(&w);
		if (h.cmd == LTT_CLIENT_CMD_HELLO) {
			ltt_wbuf_put_u32(&w, LTT_CLIENT_MAJOR);
			ltt_wbuf_put_u32(&w, OLD_MINOR);
			ltt_wbuf_put_str(&w, "old");
		} else if (h.cmd == LTT_CLIENT_CMD_ADD_TRIGGER) {
			ltt_rbuf_init(&r, p, h.payload_len);
			ltt_trigger_get(&r, c, OLD_MINOR);
			dprintf(log_fd, "ADD %s\n", ltt_rbuf_end(&r) ? "extra" : "whole");
			ltt_wbuf_put_str(&w, "t0");
		}
		if (fake_sessiond_reply(fd, (uint16_t)h.cmd, &w))
			_exit(1);
		ltt_wbuf_fini(&w);
		free(p);
	}
	_exit(0);
}

/* A trigger of one notify action on @domain's rule @pattern, filtered by @filter. */
static void rule_trigger(struct ltt_trigger_attr *a, enum ltt_domain domain,
			 enum ltt_event_type type, const char *pattern, const char *filter)
{
	ltt_ctl_trigger_attr_init(a);
	a->condition.type = LTT_CONDITION_EVENT_RULE_MATCHES;
	a->condition.domain = domain;
	a->condition.rule.type = type;
	snprintf(a->condition.rule.pattern, sizeof(a->condition.rule.pattern), "%s", pattern);
	a->condition.rule.filter = filter;
	a->nr_actions = 1;
	a->actions[0].type = LTT_ACTION_NOTIFY;
}

int main(void)
{
	struct ltt_trigger_attr *a = malloc(sizeof(*a));
	struct ltt_ctl *ctl = NULL;
	struct fake_sessiond f;
	char name[LTT_NAME_MAX], log[256];
	int ret;

	if (!a || fake_sessiond_start(&f, "tflags", fake_daemon))
		return 1;

	tap_is_int(ltt_ctl_connect(f.dir, &ctl), 0, "connected to a daemon of minor 34");
	rule_trigger(a, LTT_DOMAIN_KERNEL, LTT_EVENT_SYSCALL, "getcpu", "a > 2");
	ret = ltt_ctl_add_trigger_flags(ctl, a, LTT_TRIGGER_ADD_LTTNG, name, sizeof(name));
	tap_is_int(ret, -LTT_ERR_TRIGGER_LTTNG_DAEMON,
		   "a filtered kernel rule added as LTTng adds it: refused, TRIGGER_LTTNG_DAEMON");
	tap_is_int(ltt_ctl_add_trigger_flags(ctl, a, 0x2, name, sizeof(name)), -LTT_ERR_INVAL,
		   "an unknown flag: INVAL");
	rule_trigger(a, LTT_DOMAIN_USER, LTT_EVENT_TRACEPOINT, "p:e", "x > 2");
	ret = ltt_ctl_add_trigger_flags(ctl, a, LTT_TRIGGER_ADD_LTTNG, name, sizeof(name));
	tap_ok(!ret && !strcmp(name, "t0"), "a user-space rule, which the flag leaves as it is: added");
	ltt_ctl_disconnect(ctl);
	fake_sessiond_log(&f, log, sizeof(log));
	tap_is_str(log, "ADD whole\n",
		   "the daemon got one ADD_TRIGGER, in minor 34's form (no flags), not the refused one");
	fake_sessiond_stop(&f);
	free(a);
	return tap_done();
}
