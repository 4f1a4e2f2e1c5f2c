// SPDX-License-Identifier: LGPL-2.1-only
/*
 * add_context.c - lttctl add-context: add context fields to the events of
 * a channel (or of every channel of the domain, kernel or user space), as
 * LTTng's add-context; --list prints the context types (--list -k those
 * of the kernel domain, --list -u those of user space).
 *
 * Every -t is parsed before the daemon is asked anything; the types are
 * then added one by one, in order, and the first refusal stops there
 * (the ones before it stay, as in LTTng).
 */
#include <stdlib.h>
#include <string.h>

#include "common/model/agent.h"
#include "common/base/names.h"
#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum {
	VAL_SESSION,
	VAL_CHANNEL,
	NR_VALS,
};

struct add_args {
	char *values[NR_VALS];
	const char **types;		/* every -t, popt's array */
	int kernel, user, list;
	int jul, log4j;			/* -j, -l: the channel of that agent domain */
};

/*
 * -j and -l, as LTTng has them: the user-space channel of that agent
 * domain (common/model/agent.h), which -c may name, and no other.
 */
static int agent_channel(const struct add_args *a, enum ltt_domain *domain, const char **channel)
{
	const struct ltt_agent_domain *agent;

	if (!a->jul && !a->log4j)
		return CTL_EXIT_OK;
	agent = ltt_agent_domain(a->jul ? LTT_DOMAIN_JUL : LTT_DOMAIN_LOG4J);
	if (*channel && strcmp(*channel, agent->channel))
		return ctl_util_object_error(LTT_ERR_PYTHON_CHANNEL, "channel", *channel);
	*domain = LTT_DOMAIN_USER;
	*channel = agent->channel;
	return CTL_EXIT_OK;
}

/* The types of @domain (LTT_DOMAIN_NONE: of both). */
static int list_types(enum ltt_domain domain)
{
	const char *name;
	size_t i;

	ctl_out_open("contexts");
	for (i = 0;; i++) {
		name = domain == LTT_DOMAIN_NONE ? ltt_ctl_context_list_name(i) :
						   ltt_ctl_context_domain_list_name(domain, i);
		if (!name)
			break;
		ctl_out_text("%s\n", name);
		ctl_obj_context(name);
	}
	ctl_out_close();
	return CTL_EXIT_OK;
}

/*
 * Is -t @name one @domain lacks?  Then say so: CTL_EXIT_USAGE, or
 * CTL_EXIT_FAILURE for LTTng's kernel perf counters (a gap).
 */
static int check_domain(enum ltt_domain domain, const char *name, const struct ltt_context *c)
{
	enum ltt_error_code code = LTT_ERR_CONTEXT_DOMAIN;

	if (ltt_ctl_context_in_domain(c, domain))
		return CTL_EXIT_OK;
	if (domain == LTT_DOMAIN_KERNEL && !strncmp(name, "perf:", 5))
		return ctl_util_refuse_gap(LTT_LTTNG_GAP_KERNEL_PERF);
	ctl_out_error(code, "'%s' is not a %s context: %s", name,
		      domain == LTT_DOMAIN_KERNEL ? "kernel" : "user-space", ltt_strerror(code));
	return CTL_EXIT_USAGE;
}

/* The gap of LTTng's context type @name in @domain; LTT_LTTNG_NR_GAPS: none. */
static enum ltt_lttng_gap lttng_gap(enum ltt_domain domain, const char *name)
{
	if (domain == LTT_DOMAIN_KERNEL && !strncmp(name, "perf:cpu:", 9))
		return LTT_LTTNG_GAP_KERNEL_PERF;
	if (!strncmp(name, "$app.", 5))
		return LTT_LTTNG_GAP_APP_CONTEXT;
	if (!strcmp(name, "callstack-user") || !strcmp(name, "callstack-kernel"))
		return LTT_LTTNG_GAP_CALLSTACK;
	return LTT_LTTNG_NR_GAPS;
}

/* Parse every -t into @ctxs (@nr of them); CTL_EXIT_USAGE on a bad one (or a gap's exit). */
static int parse_types(const struct ctl_ctx *ctx, enum ltt_domain domain, const char **types,
		       struct ltt_context **ret_ctxs, size_t *ret_nr)
{
	struct ltt_context *ctxs;
	enum ltt_lttng_gap gap;
	size_t nr = 0, i;
	int ret;

	while (types && types[nr])
		nr++;
	if (!nr)
		return ctl_util_usage_error(ctx, "a context type is needed (-t TYPE; --list shows them)");
	ctxs = calloc(nr, sizeof(*ctxs));
	if (!ctxs) {
		ctl_out_error(LTT_ERR_NOMEM, "%s", ltt_strerror(LTT_ERR_NOMEM));
		return CTL_EXIT_FAILURE;
	}
	for (i = 0; i < nr; i++) {
		/* LTTng's types ltt has no such context for: say why */
		gap = lttng_gap(domain, types[i]);
		if (gap != LTT_LTTNG_NR_GAPS) {
			free(ctxs);
			return ctl_util_refuse_gap(gap);
		}
		if (ltt_ctl_context_parse(types[i], &ctxs[i])) {
			ctl_out_error(LTT_ERR_CONTEXT_TYPE, "'%s': %s", types[i],
				      ltt_strerror(LTT_ERR_CONTEXT_TYPE));
			free(ctxs);
			return CTL_EXIT_USAGE;
		}
		ret = check_domain(domain, types[i], &ctxs[i]);
		if (ret) {
			free(ctxs);
			return ret;
		}
	}
	*ret_ctxs = ctxs;
	*ret_nr = nr;
	return CTL_EXIT_OK;
}

/*
 * A type this machine can't count (no PMU, perf_event_paranoid): exit
 * status 4, LTTng's for a context its daemon refused, which its tests
 * read as "this tracer can't add that context here" and skip on.
 */
static int refused_status(int code)
{
	return code == -LTT_ERR_PERF_UNAVAILABLE || code == -LTT_ERR_PERF_DENIED ?
		       CTL_EXIT_WARNING : CTL_EXIT_FAILURE;
}

/*
 * Is @code a refusal of the one type (one the backend or the machine
 * can't give, one the channel has), after which the others may still be
 * added?  Any other (the session started or gone, the channel missing)
 * would be every type's: the command ends there.
 */
static bool type_refused(int code)
{
	return code == -LTT_ERR_PERF_UNAVAILABLE || code == -LTT_ERR_PERF_DENIED ||
	       code == -LTT_ERR_KERNEL_BACKEND || code == -LTT_ERR_CONTEXT_EXISTS ||
	       code == -LTT_ERR_CONTEXT_TYPE || code == -LTT_ERR_CONTEXT_DOMAIN;
}

static int add_all(const struct ctl_ctx *ctx, const char *session, enum ltt_domain domain,
		   const char *channel, const struct ltt_context *ctxs, size_t nr)
{
	const char *dname = domain == LTT_DOMAIN_KERNEL ? "kernel" : "ust";
	struct ltt_ctl *ctl = NULL;
	int ret, code, refused = CTL_EXIT_OK;
	size_t i;

	ret = ctl_util_connect(ctx, false, &ctl);
	ctl_out_open("contexts");	/* those added */
	for (i = 0; i < nr && !ret; i++) {
		code = ltt_ctl_add_context(ctl, session, domain, channel, &ctxs[i]);
		if (code) {
			ctl_out_error(code, "context %s, session '%s': %s", ctxs[i].name, session,
				      ltt_strerror(code));
			if (!type_refused(code)) {
				ret = CTL_EXIT_FAILURE;
				break;
			}
			/*
			 * As LTTng's: the other types are added all the same; one
			 * refusal that is not a perf counter's makes it a failure.
			 */
			if (refused != CTL_EXIT_FAILURE)
				refused = refused_status(code);
			continue;
		}
		if (channel)
			ctl_out_info("%s context %s added to channel %s", dname, ctxs[i].name,
				     channel);
		else
			ctl_out_info("%s context %s added to all channels", dname, ctxs[i].name);
		ctl_obj_context(ctxs[i].name);
	}
	ctl_out_close();
	ltt_ctl_disconnect(ctl);
	return ret ? ret : refused;
}

static int run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	const struct add_args *a = arg;
	const char *session, *channel = a->values[VAL_CHANNEL], **args;
	struct ltt_context *ctxs = NULL;
	char current[LTT_NAME_MAX];
	enum ltt_domain domain;
	size_t nr = 0;
	int ret, nr_args;

	nr_args = ctl_util_args(pc, &args);
	ret = ctl_util_check_nr_args(ctx, args, nr_args, 0);
	if (ret)
		return ret;
	if (a->kernel + a->user + a->jul + a->log4j > 1)
		return ctl_util_usage_error(ctx, "choose one domain of -k, -u, -j and -l, not two");
	if (a->list) {
		if (a->types || a->values[VAL_SESSION] || channel || a->jul || a->log4j)
			return ctl_util_usage_error(ctx, "--list takes no other option than -k or -u");
		if (!a->kernel && !a->user)
			return list_types(LTT_DOMAIN_NONE);
		ret = ctl_util_domain(ctx, a->kernel, a->user, &domain);
		return ret ? ret : list_types(domain);
	}
	if (a->jul || a->log4j)
		ret = agent_channel(a, &domain, &channel);
	else
		ret = ctl_util_domain(ctx, a->kernel, a->user, &domain);
	if (ret)
		return ret;
	if (channel && !ltt_channel_name_valid(channel)) {
		ctl_out_error(LTT_ERR_CHANNEL_NAME, "'%s': %s", channel,
			      ltt_strerror(LTT_ERR_CHANNEL_NAME));
		return CTL_EXIT_USAGE;
	}
	ret = parse_types(ctx, domain, a->types, &ctxs, &nr);
	if (!ret)
		ret = ctl_util_session_name(a->values[VAL_SESSION], current, sizeof(current),
					    &session);
	if (!ret)
		ret = add_all(ctx, session, domain, channel, ctxs, nr);
	free(ctxs);
	return ret;
}

int cmd_add_context(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct add_args a = { 0 };
	int ret;
	struct poptOption options[] = {
		{ "kernel", 'k', POPT_ARG_NONE, &a.kernel, 0,
		  "kernel channels", NULL },
		{ "userspace", 'u', POPT_ARG_NONE, &a.user, 0, "user space channels", NULL },
		{ "jul", 'j', POPT_ARG_NONE, &a.jul, 0,
		  "the JUL domain's channel, lttng_jul_channel (as -u -c lttng_jul_channel)", NULL },
		{ "log4j", 'l', POPT_ARG_NONE, &a.log4j, 0,
		  "the log4j domain's channel, lttng_log4j_channel", NULL },
		CTL_UTIL_LOG4J2_OPTION,
		CTL_UTIL_SESSION_OPTION(VAL_SESSION),
		{ "channel", 'c', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_CHANNEL,
		  "the channel (default: every channel of the domain)", "CHANNEL" },
		{ "type", 't', POPT_ARG_ARGV, &a.types, 0,
		  "a context type; repeat for several (--list shows them)", "TYPE" },
		{ "list", 0, POPT_ARG_NONE, &a.list, 0,
		  "list the context types (of one domain with -k or -u)", NULL },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	ret = ctl_util_run(ctx, argc, argv, options, a.values, NR_VALS, run, &a);
	ctl_util_free_argv(a.types);
	return ret;
}
