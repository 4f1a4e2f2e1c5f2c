// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_agent.c - the python domain's pieces that need no program: the
 * filter a python rule becomes (common/model/agent.c), Python's log levels
 * (common/model/loglevel.c), a rule's level bound per domain (attr.c), and
 * AGENT_RULES on the wire (app-proto.c).
 */
#include <errno.h>
#include <string.h>

#include <ltt/ltt-ctl.h>

#include "common/filter/filter-parse.h"
#include "common/model/agent.h"
#include "common/model/attr.h"
#include "common/proto/app-proto.h"
#include "common/base/codec.h"
#include "tests/unit/tap.h"

static struct ltt_rule_conf rule(const char *pattern, enum ltt_loglevel_type t, int level,
				 const char *filter, const char *exclusions)
{
	struct ltt_rule_conf c = { .loglevel_type = t, .loglevel = level };

	strcpy(c.pattern, pattern);
	strcpy(c.filter, filter);
	strcpy(c.exclusions, exclusions);
	return c;
}

static void filters(void)
{
	char buf[LTT_AGENT_FILTER_MAX], small[16];
	struct ltt_rule_conf c;
	struct ltt_filter_node *root = NULL;

	c = rule("*", LTT_LOGLEVEL_ALL, 0, "", "");
	tap_ok(!ltt_agent_filter(&c, buf, sizeof(buf)) && !buf[0],
	       "'*' at any level: no filter (every record)");
	c = rule("qa.app", LTT_LOGLEVEL_RANGE, 30, "", "");
	ltt_agent_filter(&c, buf, sizeof(buf));
	tap_is_str(buf, "logger_name == \"qa.app\" && int_loglevel >= 30",
		   "a logger at WARNING: its name and 30 and above");
	c = rule("qa.*", LTT_LOGLEVEL_SINGLE, 20, "msg == \"*timeout*\"", "qa.a,qa.b*");
	ltt_agent_filter(&c, buf, sizeof(buf));
	tap_is_str(buf, "logger_name == \"qa.*\" && logger_name != \"qa.a\" && "
		   "logger_name != \"qa.b*\" && int_loglevel == 20 && (msg == \"*timeout*\")",
		   "a glob, two exclusions, one level and the rule's own filter, in that order");
	tap_ok(!ltt_filter_parse(buf, &root, NULL), "which parses");
	ltt_filter_free(root);
	tap_is_int(ltt_agent_filter(&c, small, sizeof(small)), -E2BIG,
		   "too small a buffer: E2BIG");
	tap_is_str(small, "", "and nothing half-written");
}

static void levels(void)
{
	int level = -1;

	tap_ok(!ltt_loglevel_parse_domain(LTT_DOMAIN_PYTHON, "warning", &level) && level == 30,
	       "python: 'warning' is 30");
	tap_ok(!ltt_loglevel_parse_domain(LTT_DOMAIN_PYTHON, "CRITICAL", &level) && level == 50,
	       "python: CRITICAL is 50");
	tap_ok(!ltt_loglevel_parse_domain(LTT_DOMAIN_PYTHON, "25", &level) && level == 25,
	       "python: a number");
	tap_is_int(ltt_loglevel_parse_domain(LTT_DOMAIN_PYTHON, "1000001", &level),
		   -LTT_ERR_LOGLEVEL, "python: over LTT_PYTHON_LOGLEVEL_MAX refused");
	tap_is_int(ltt_loglevel_parse_domain(LTT_DOMAIN_PYTHON, "EMERG", &level),
		   -LTT_ERR_LOGLEVEL, "python: user space's names are not Python's");
	tap_ok(!ltt_loglevel_parse_domain(LTT_DOMAIN_USER, "WARNING", &level) && level == 4,
	       "user: WARNING is still 4");
	tap_is_str(ltt_loglevel_name_domain(LTT_DOMAIN_PYTHON, 40), "ERROR", "python: 40 is ERROR");
	tap_is_str(ltt_loglevel_name_domain(LTT_DOMAIN_PYTHON, 25), "UNKNOWN",
		   "python: 25 has no name");
	tap_is_str(ltt_loglevel_name_domain(LTT_DOMAIN_USER, 4), "WARNING", "user: 4 is WARNING");
}

static void bounds(void)
{
	struct ltt_rule_conf c = rule("qa.app", LTT_LOGLEVEL_RANGE, 30, "", "");

	tap_is_int(ltt_attr_check_rule(&c), 0, "a level of 30 is a valid rule");
	tap_is_int(ltt_attr_check_rule_domain(&c, LTT_DOMAIN_PYTHON), 0, "in the python domain");
	tap_is_int(ltt_attr_check_rule_domain(&c, LTT_DOMAIN_USER), LTT_ERR_LOGLEVEL,
		   "not in user space (0 to 14)");
	c.loglevel = LTT_PYTHON_LOGLEVEL_MAX + 1;
	tap_is_int(ltt_attr_check_rule_domain(&c, LTT_DOMAIN_PYTHON), LTT_ERR_LOGLEVEL,
		   "python: over the maximum refused");
	c.loglevel = -1;
	tap_is_int(ltt_attr_check_rule_domain(&c, LTT_DOMAIN_PYTHON), LTT_ERR_LOGLEVEL,
		   "python: a negative level refused");
	tap_is_int(ltt_attr_check_rule_domain(&c, LTT_DOMAIN_USER), LTT_ERR_LOGLEVEL,
		   "user: a negative level refused");
	c.loglevel = INT32_MIN;
	tap_is_int(ltt_attr_check_rule_domain(&c, LTT_DOMAIN_JUL), LTT_ERR_OK,
		   "jul: ALL (INT32_MIN) taken");
}

static void wire(void)
{
	struct ltt_app_agent_rule out = { "qa.*", LTT_LOGLEVEL_RANGE, 30, "qa.x" }, in;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t count;
	uint64_t key;
	size_t cut;
	int bad = 0;

	ltt_wbuf_init(&w);
	ltt_app_put_agent_rules_start(&w, 77, 1);
	ltt_app_put_agent_rule(&w, &out);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_app_get_agent_rules_start(&r, &key, &count) && key == 77 && count == 1 &&
	       !ltt_app_get_agent_rule(&r, &in) && !ltt_rbuf_end(&r),
	       "AGENT_RULES decodes whole");
	tap_ok(!strcmp(in.pattern, "qa.*") && in.loglevel_type == LTT_LOGLEVEL_RANGE &&
	       in.loglevel == 30 && !strcmp(in.exclusions, "qa.x"), "to the rule sent");
	for (cut = 0; cut < w.len; cut++) {
		ltt_rbuf_init(&r, w.data, cut);
		if (!ltt_app_get_agent_rules_start(&r, &key, &count) &&
		    !ltt_app_get_agent_rule(&r, &in) && !ltt_rbuf_end(&r))
			bad++;
	}
	tap_is_int(bad, 0, "every truncated prefix refused");
	ltt_wbuf_reset(&w);
	ltt_app_put_agent_rules_start(&w, 1, LTT_APP_AGENT_MAX_RULES + 1);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_app_get_agent_rules_start(&r, &key, &count), -EPROTO,
		   "a count over LTT_APP_AGENT_MAX_RULES refused before any rule is read");
	ltt_wbuf_reset(&w);
	ltt_app_put_agent_rule(&w, &(struct ltt_app_agent_rule){ "qa app", 0, 0, "" });
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_app_get_agent_rule(&r, &in), -EPROTO, "a logger pattern with a space refused");
	ltt_wbuf_reset(&w);
	ltt_app_put_agent_rule(&w, &(struct ltt_app_agent_rule){ "qa.app", 1, 30, "qa.b" });
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_app_get_agent_rule(&r, &in), -EPROTO,
		   "an exclusion without a '*' in the pattern refused");
	ltt_wbuf_reset(&w);
	ltt_app_put_agent_rule(&w, &(struct ltt_app_agent_rule){ "qa.app", 3, 30, "" });
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_app_get_agent_rule(&r, &in), -EPROTO, "a log level type 3 refused");
	ltt_wbuf_fini(&w);
	tap_ok(ltt_app_logger_name_valid("any name: but\x7f") == false &&
	       ltt_app_logger_name_valid("a logger with spaces") &&
	       !ltt_app_logger_name_valid(""), "LOGGERS' names: no control character, not empty");
}

int main(void)
{
	tap_plan(30);
	filters();
	levels();
	bounds();
	wire();
	return tap_done();
}
