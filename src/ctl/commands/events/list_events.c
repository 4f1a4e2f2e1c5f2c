// SPDX-License-Identifier: LGPL-2.1-only
/*
 * list_events.c - lttctl list -k, -u, -j, -l or -p without a session
 * name: the events that can be enabled, the kernel tracer's tracepoints or
 * system calls (--syscall), or the registered programs' events and
 * loggers, program by program, with their fields (-f).  list.c parses the
 * line and calls it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/agent.h"
#include "ctl/ctl.h"

/* LTTng's type of a field: INTEGER, ENUM, FLOAT, STRING or OTHER. */
static const char *field_type_mi(const char *type)
{
	static const char *const types[] = { "integer", "enum", "float", "string" };
	static const char *const mi[] = { "INTEGER", "ENUM", "FLOAT", "STRING" };
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strncmp(type, types[i], strlen(types[i])))
			return mi[i];
	return "OTHER";
}

static void print_fields(const struct ltt_tracepoint_info *tp)
{
	size_t f;

	if (tp->nr_fields)
		ctl_out_open("event_fields");
	for (f = 0; f < tp->nr_fields; f++) {
		ctl_out_text("        field: %s (%s)\n", tp->fields[f].name, tp->fields[f].type);
		ctl_out_open("event_field");
		ctl_out_str("name", tp->fields[f].name);
		ctl_out_str("type", field_type_mi(tp->fields[f].type));
		ctl_out_u64("nowrite", 0);
		ctl_out_close();
	}
	if (tp->nr_fields)
		ctl_out_close();
}

/* An available event: <event> with its name, type and (@level) log level. */
static void open_event(enum ltt_domain domain, const char *name, bool syscall, const int *level)
{
	struct ltt_event_rule_attr a = { .type = syscall ? LTT_EVENT_SYSCALL : LTT_EVENT_TRACEPOINT };

	snprintf(a.pattern, sizeof(a.pattern), "%s", name);
	if (level) {
		a.loglevel_type = LTT_LOGLEVEL_SINGLE;
		a.loglevel = *level;
	}
	ctl_obj_rule_open(domain, &a, true);
}

/*
 * How a program is named, as LTTng's client names it: the first word of
 * its command line (/proc/PID/cmdline: argv[0], the path it was started
 * by), read here; @procname (the daemon's, 16 bytes at most) when that
 * cannot be read (the program has exited, or lives in another PID
 * namespace).  @buf holds the name returned.
 */
static const char *program_name(pid_t pid, const char *procname, char *buf, size_t len)
{
	char path[64];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/cmdline", (long)pid);
	f = fopen(path, "re");
	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf[0] ? buf : procname;
}

/*
 * The events of running programs, program by program: in LTTng's MI,
 * <pids>, each <pid> with its <events>.  @domain: user or python.
 */
static void print_program_events(enum ltt_domain domain, const struct ltt_tracepoint_info *tps,
				 size_t count)
{
	char cmdline[PATH_MAX];
	const char *name;
	size_t i;
	pid_t last = 0;

	ctl_out_open("pids");
	for (i = 0; i < count; i++) {
		if (tps[i].pid != last) {
			if (last) {
				ctl_out_close();	/* events */
				ctl_out_close();	/* pid */
			}
			/* a claimed pid may be another program's: not named after it */
			name = tps[i].pid_claimed ? "? (its agent's claim, not checked)" :
				program_name(tps[i].pid, tps[i].procname, cmdline, sizeof(cmdline));
			ctl_out_text("\nPID: %ld - Name: %s\n", (long)tps[i].pid, name);
			ctl_out_open("pid");
			ctl_out_i64("id", tps[i].pid);
			ctl_out_str("name", name);
			ctl_out_open("events");
		}
		last = tps[i].pid;
		if (tps[i].own_lttng_ust) {	/* no event ltt can enable: said instead */
			ctl_out_text("    nothing recorded: it loads LTTng-UST's own liblttng-ust (ABI %u.%u), not ltt's; run it under ltt-run (ltt-run(1))\n",
				     tps[i].own_lttng_ust >> 8 & 0xff, tps[i].own_lttng_ust & 0xff);
			continue;
		}
		if (ltt_agent_domain(domain)) {	/* loggers: no level, no fields */
			ctl_out_text("    %s\n", tps[i].name);
			open_event(domain, tps[i].name, false, NULL);
		} else {
			ctl_out_text("    %s (loglevel: %s (%d))\n", tps[i].name,
				     ltt_loglevel_name(tps[i].loglevel), tps[i].loglevel);
			open_event(domain, tps[i].name, false, &tps[i].loglevel);
			print_fields(&tps[i]);
		}
		ctl_out_close();
	}
	if (last) {
		ctl_out_close();
		ctl_out_close();
	}
	ctl_out_close();
}

static void print_user_events(const struct ltt_tracepoint_info *tps, size_t count)
{
	ctl_out_text("User space events:\n------------------\n");
	if (!count)
		ctl_out_text("None: no instrumented application is registered.\n");
	print_program_events(LTT_DOMAIN_USER, tps, count);
}

/* The loggers of the running programs' agents of agent domain @agent. */
static void print_loggers(const struct ltt_agent_domain *agent,
			  const struct ltt_tracepoint_info *tps, size_t count)
{
	static const char *const titles[] = {
		[LTT_DOMAIN_PYTHON] = "Python loggers", [LTT_DOMAIN_JUL] = "JUL loggers",
		[LTT_DOMAIN_LOG4J] = "log4j loggers",
	};
	static const char *const none[] = {
		[LTT_DOMAIN_PYTHON] = "Python program with ltt.agent or lttngust",
		[LTT_DOMAIN_JUL] = "Java program with LTTng's JUL agent",
		[LTT_DOMAIN_LOG4J] = "Java program with LTTng's log4j agent",
	};

	ctl_out_text("%s:\n%.*s\n", titles[agent->domain], (int)strlen(titles[agent->domain]),
		     "--------------------");
	if (!count)
		ctl_out_text("None: no %s is registered.\n", none[agent->domain]);
	print_program_events(agent->domain, tps, count);
}

static void print_kernel_events(const struct ltt_tracepoint_info *tps, size_t count, bool syscalls)
{
	size_t i;

	ctl_out_raw(syscalls ? "System calls:\n-------------\n" : "Kernel events:\n-------------\n");
	ctl_out_open("events");
	for (i = 0; i < count; i++) {
		ctl_out_text("    %s (type: %s)\n", tps[i].name, syscalls ? "syscall" : "tracepoint");
		open_event(LTT_DOMAIN_KERNEL, tps[i].name, syscalls, NULL);
		print_fields(&tps[i]);
		ctl_out_close();
	}
	ctl_out_close();
}

/* How the daemon traces the kernel, when it says (an older daemon does not). */
static void print_kernel_tracer(struct ltt_ctl *ctl)
{
	struct ltt_kernel_tracer_info info;

	if (ltt_ctl_kernel_tracer(ctl, &info))
		return;
	ctl_out_text("Kernel tracer: %s (%s)%s%s\n\n", info.backend, info.version,
		     info.why[0] ? ": " : "", info.why);
}

/* cmd_list_events(): commands.h */
int cmd_list_events(struct ltt_ctl *ctl, enum ltt_domain domain, bool syscalls, bool fields)
{
	enum ltt_event_type type = syscalls ? LTT_EVENT_SYSCALL : LTT_EVENT_TRACEPOINT;
	struct ltt_tracepoint_info *tps;
	size_t count;
	int ret;

	ret = ltt_ctl_list_events(ctl, domain, type, fields, &tps, &count);
	if (ret) {
		ctl_out_error(ret, "listing the %s events: %s", ltt_domain_name(domain),
			      ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	if (domain == LTT_DOMAIN_KERNEL)
		print_kernel_tracer(ctl);
	ctl_out_open("domains");
	ctl_obj_domain_open(domain, domain == LTT_DOMAIN_KERNEL ? LTT_BUFFER_DEFAULT :
				    LTT_BUFFER_PER_PID);
	if (domain == LTT_DOMAIN_USER)
		print_user_events(tps, count);
	else if (ltt_agent_domain(domain))
		print_loggers(ltt_agent_domain(domain), tps, count);
	else
		print_kernel_events(tps, count, syscalls);
	ctl_out_close();
	ctl_out_close();
	free(tps);
	return CTL_EXIT_OK;
}
