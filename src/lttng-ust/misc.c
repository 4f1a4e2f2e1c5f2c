// SPDX-License-Identifier: LGPL-2.1-only
/*
 * misc.c - the rest of liblttng-ust.so.1's names: tracef and tracelog, the
 * hooks Debian's fork and id helpers call, context providers, and the
 * names lttng-ust exports for its own use.
 *
 * ltt's libltt-ust handles fork() and credential changes itself (its
 * pthread_atfork() handlers, its contexts read at each event), so the
 * hooks have nothing to do.  What ltt cannot honour yet returns what
 * lttng-ust returns on failure and says so under LTTNG_UST_DEBUG.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/tracepoint.h>

#include "common/base/module.h"
#include "common/trace/tclock.h"
#include "lttng-ust/lttng-abi.h"
#include "lttng-ust/lttng-ust.h"

/*
 * tracef and tracelog.  Their call sites are this library's, copy-relocated
 * into programs (56 bytes each); a program tests a site's state, then calls
 * lttng_ust__tracef() or the tracelog function of the level.  Each event is
 * an ltt descriptor with libltt-ust's tracef and tracelog fields and LTTng
 * 2.13's name (lttng_ust_tracef:event,
 * lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_<LEVEL>), whose
 * state_changed hook switches its call site; libltt-ust formats and
 * records the message.
 */
#define LU_SITE(provider, event, sig) \
	LU_EXPORT struct lu_tracepoint lttng_ust_tracepoint_##provider##___##event \
		__attribute__((section("lttng_ust_tracepoints"))) = { \
		sizeof(struct lu_tracepoint), #provider, #event, 0, NULL, NULL, sig }

#define TRACELOG_SIG "const char * file, int line, const char * func, const char * msg, " \
	"unsigned int len, void * ip"

LU_SITE(lttng_ust_tracef, event, "const char * msg, unsigned int len, void * ip");

#define LEVELS(X) X(EMERG) X(ALERT) X(CRIT) X(ERR) X(WARNING) X(NOTICE) X(INFO) \
	X(DEBUG_SYSTEM) X(DEBUG_PROGRAM) X(DEBUG_PROCESS) X(DEBUG_MODULE) X(DEBUG_UNIT) \
	X(DEBUG_FUNCTION) X(DEBUG_LINE) X(DEBUG)

#define TRACELOG_SITE(level) \
	LU_SITE(lttng_ust_tracelog, LTTNG_UST_TRACEPOINT_LOGLEVEL_##level, TRACELOG_SIG);
LEVELS(TRACELOG_SITE)

#define NR_PRINTF (1 + LTT_UST_TRACELOG_LEVELS)

struct printf_event {
	struct ltt_ust_tracepoint tp;	/* [0] tracef, [1 + level] tracelog */
	struct lu_tracepoint *site;
};

static struct printf_event printf_events[NR_PRINTF];
static struct ltt_ust_tracepoint *printf_tps[NR_PRINTF];

/* libltt-ust's hook: the call site follows the descriptor. */
static void printf_state_changed(struct ltt_ust_tracepoint *tp)
{
	struct printf_event *e = (struct printf_event *)(void *)tp;

	__atomic_store_n(&e->site->state, tp->state != 0, __ATOMIC_RELEASE);
}

static void printf_event_init(unsigned int i, const char *name, int level,
			      const struct ltt_ust_tracepoint *like, struct lu_tracepoint *site)
{
	printf_events[i].tp = (struct ltt_ust_tracepoint){
		.abi = LTT_UST_TRACEPOINT_ABI, .loglevel = level, .name = name,
		.nr_fields = like->nr_fields, .fields = like->fields,
		.state_changed = printf_state_changed,
	};
	printf_events[i].site = site;
	printf_tps[i] = &printf_events[i].tp;
}

__attribute__((constructor)) static void printf_events_register(void)
{
	int level = 0;

	printf_event_init(0, "lttng_ust_tracef:event", ltt_ust_tracef_event.loglevel,
			  &ltt_ust_tracef_event, &lttng_ust_tracepoint_lttng_ust_tracef___event);
#define TRACELOG_INIT(l) \
	printf_event_init(1 + level, "lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_" #l, level, \
			  &ltt_ust_tracelog_events[level], \
			  &lttng_ust_tracepoint_lttng_ust_tracelog___LTTNG_UST_TRACEPOINT_LOGLEVEL_##l); \
	level++;
	LEVELS(TRACELOG_INIT)
	ltt_ust_register_module(printf_tps, printf_tps + NR_PRINTF, printf_events);
}

#define CALLER ((uint64_t)(uintptr_t)__builtin_return_address(0))

LU_EXPORT __attribute__((format(printf, 1, 0))) void lttng_ust__vtracef(const char *fmt, va_list ap)
{
	ltt_ust_vtracef_as(&printf_events[0].tp, CALLER, fmt, ap);
}

LU_EXPORT __attribute__((format(printf, 1, 2))) void lttng_ust__tracef(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ltt_ust_vtracef_as(&printf_events[0].tp, CALLER, fmt, ap);
	va_end(ap);
}

#define TRACELOG_FNS(l) \
	LU_EXPORT __attribute__((format(printf, 4, 0))) void \
	lttng_ust__vtracelog_LTTNG_UST_TRACEPOINT_LOGLEVEL_##l( \
		const char *file, int line, const char *func, const char *fmt, va_list ap) \
	{ \
		ltt_ust_vtracelog_as(&printf_events[1 + LU_LEVEL_##l].tp, CALLER, file, line, \
				     func, fmt, ap); \
	} \
	LU_EXPORT __attribute__((format(printf, 4, 5))) void \
	lttng_ust__tracelog_LTTNG_UST_TRACEPOINT_LOGLEVEL_##l( \
		const char *file, int line, const char *func, const char *fmt, ...) \
	{ \
		va_list ap; \
		va_start(ap, fmt); \
		ltt_ust_vtracelog_as(&printf_events[1 + LU_LEVEL_##l].tp, CALLER, file, line, \
				     func, fmt, ap); \
		va_end(ap); \
	}
#define LEVEL_ENUM(l) LU_LEVEL_##l,
enum { LEVELS(LEVEL_ENUM) };
LEVELS(TRACELOG_FNS)

/* ---- fork, credentials, namespaces: libltt-ust follows them itself ---- */

LU_EXPORT void lttng_ust_before_fork(sigset_t *save_sigset)
{
	(void)save_sigset;
}

LU_EXPORT void lttng_ust_after_fork_parent(sigset_t *restore_sigset)
{
	(void)restore_sigset;
}

LU_EXPORT void lttng_ust_after_fork_child(sigset_t *restore_sigset)
{
	(void)restore_sigset;
}

#define NOTHING_TO_DO(name) \
	LU_EXPORT void lttng_ust_##name(void) \
	{ \
	}
/* LTTng's fork helper wraps setns() and unshare(): the thread's *_ns contexts are read again. */
LU_EXPORT void lttng_ust_after_setns(void)
{
	ltt_ust_namespaces_changed();
}

LU_EXPORT void lttng_ust_after_unshare(void)
{
	ltt_ust_namespaces_changed();
}

NOTHING_TO_DO(after_setuid)
NOTHING_TO_DO(after_setgid)
NOTHING_TO_DO(after_seteuid)
NOTHING_TO_DO(after_setegid)
NOTHING_TO_DO(after_setreuid)
NOTHING_TO_DO(after_setregid)
NOTHING_TO_DO(after_setresuid)
NOTHING_TO_DO(after_setresgid)
NOTHING_TO_DO(context_procname_reset)
NOTHING_TO_DO(init_thread)

/*
 * The LTTNG_UST_* variables a user sets: those ltt-run maps to ltt's own
 * (when ltt's is not set: without ltt-run, set ltt's) and those ltt
 * cannot honour, each said in one sentence on stderr when the library
 * loads.
 */
static const struct {
	const char *name, *mapped_to, *why;
} env_refused[] = {
	{ "LTTNG_UST_REGISTER_TIMEOUT", "LTT_UST_REGISTER_TIMEOUT", NULL },
	{ "LTTNG_UST_BLOCKING_RETRY_TIMEOUT", NULL, "a blocked event waits for the consumer's "
	  "wakeup, not by polling, so there is no retry period to set (LTTNG_UST_ALLOW_BLOCKING "
	  "and the channel's --blocking-timeout say whether and how long); unset it" },
	{ "LTTNG_UST_WITHOUT_BADDR_STATEDUMP", NULL, "ltt's state dump cannot be turned off per "
	  "program; leave the lttng_ust_statedump:bin_info, build_id and debug_link events "
	  "disabled instead" },
	{ "LTTNG_UST_WITHOUT_PROCNAME_STATEDUMP", NULL, "ltt's state dump cannot be turned off "
	  "per program; leave the lttng_ust_statedump:procname event disabled instead" },
	{ "LTTNG_UST_ABORT_ON_CRITICAL", NULL, "ltt's libraries never abort the program on an "
	  "error of their own; unset it" },
	{ "LTTNG_UST_APP_PATH", NULL, "ltt finds its session daemon through LTT_RUNDIR (or "
	  "LTT_HOME): set that instead" },
};

__attribute__((constructor)) static void env_check(void)
{
	size_t i;

	for (i = 0; i < sizeof(env_refused) / sizeof(env_refused[0]); i++) {
		const char *name = env_refused[i].name, *to = env_refused[i].mapped_to;

		if (!getenv(name))
			continue;
		if (!to)
			fprintf(stderr, "ltt: %s is not supported: %s.\n", name, env_refused[i].why);
		else if (!getenv(to))
			fprintf(stderr, "ltt: %s is not read by ltt's libraries: set %s (ltt-run "
				"sets it from %s).\n", name, to, name);
	}
}

/*
 * LTTNG_UST_GETCPU_PLUGIN: the shared object to load, whose
 * lttng_ust_getcpu_plugin_init() gives each event's CPU through
 * lttng_ust_getcpu_override(), before the program's first event, as
 * LTTng-UST does.  Not in a program that runs with more privileges than
 * its user's (secure_getenv()).
 */
__attribute__((constructor)) static void getcpu_plugin_load(void)
{
	const char *path = secure_getenv("LTTNG_UST_GETCPU_PLUGIN");
	char err[512];

	if (path && *path && ltt_plugin_init(path, "lttng_ust_getcpu_plugin_init", err, sizeof(err)))
		fprintf(stderr, "ltt: LTTNG_UST_GETCPU_PLUGIN: %s; events carry the CPU they ran on: "
			"give the path of a getcpu plugin.\n", err);
}

/*
 * LTTNG_UST_CLOCK_PLUGIN: the shared object whose
 * lttng_ust_clock_plugin_init() gives the clock of this program's
 * events, loaded before its first event, as LTTng-UST does; its events
 * are counted by it in the buffers of a session daemon that loaded it
 * too (common/trace/tclock.h).
 */
__attribute__((constructor)) static void clock_plugin_load(void)
{
	ltt_tclock_plugin_choose(NULL, "ltt");
}

/* lttng-ust's own logging set-up. */
LU_EXPORT void init_usterr(void)
{
}

/* ---- not honoured yet ---- */

LU_EXPORT void *lttng_ust_context_provider_register(const void *provider)
{
	(void)provider;
	LU_UNSUPPORTED("application context providers ($app.*) are not supported by ltt yet");
	return NULL;
}

LU_EXPORT void lttng_ust_context_provider_unregister(void *provider)
{
	(void)provider;
}

/*
 * The dl helper's, after each dlopen() and dlclose(): the objects loaded
 * and unloaded since (lttng_ust_lib:*), against those of the call before,
 * the first of which is this library's constructor.
 */
LU_EXPORT int lttng_ust_dl_update(void *ip)
{
	ltt_ust_objects_update((uint64_t)(uintptr_t)ip);
	return 0;
}

__attribute__((constructor)) static void objects_learn(void)
{
	ltt_ust_objects_update(0);
}

/* ---- error strings (lttng/ust-error.h's codes, 1024 and up) ---- */

LU_EXPORT const char *lttng_ust_strerror(int code)
{
	if (code < 0)
		code = -code;
	if (code < 1024)
		return strerror(code);
	switch (code) {
	case 1024:
		return "Unknown error";
	case 1025:
		return "No such entry";
	case 1026:
		return "The object exists already";
	case 1027:
		return "Invalid argument";
	case 1028:
		return "Permission denied";
	case 1029:
		return "Not implemented";
	case 1030:
		return "The process is exiting";
	case 1031:
		return "Invalid magic number";
	case 1032:
		return "Invalid socket type";
	case 1033:
		return "Unsupported major version";
	case 1034:
		return "The socket peer's credentials are unavailable";
	case 1035:
		return "The socket peer's pid is not valid here";
	default:
		return "Unknown error code";
	}
}
