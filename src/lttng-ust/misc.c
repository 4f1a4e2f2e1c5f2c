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
#include <string.h>

#include "lttng-ust/lttng-abi.h"
#include "lttng-ust/lttng-ust.h"

/*
 * The call sites of tracef and tracelog, which programs copy-relocate
 * (56 bytes each); they stay off until ltt records tracef and tracelog
 * through this library.
 */
#define LU_SITE(provider, event, sig) \
	LU_EXPORT struct lu_tracepoint lttng_ust_tracepoint_##provider##___##event \
		__attribute__((section("lttng_ust_tracepoints"))) = { \
		sizeof(struct lu_tracepoint), #provider, #event, 0, NULL, NULL, sig }

#define TRACELOG_SIG "int line, const char * file, const char * func, const char * msg, unsigned int len, void * ip"

LU_SITE(lttng_ust_tracef, event, "const char * msg, unsigned int len, void * ip");

#define LEVELS(X) X(EMERG) X(ALERT) X(CRIT) X(ERR) X(WARNING) X(NOTICE) X(INFO) \
	X(DEBUG_SYSTEM) X(DEBUG_PROGRAM) X(DEBUG_PROCESS) X(DEBUG_MODULE) X(DEBUG_UNIT) \
	X(DEBUG_FUNCTION) X(DEBUG_LINE) X(DEBUG)

#define TRACELOG_SITE(level) \
	LU_SITE(lttng_ust_tracelog, LTTNG_UST_TRACEPOINT_LOGLEVEL_##level, TRACELOG_SIG);
LEVELS(TRACELOG_SITE)

#define TRACEF_REFUSED "tracef and tracelog do not record through ltt's liblttng-ust.so.1 yet"

LU_EXPORT void lttng_ust__vtracef(const char *fmt, va_list ap)
{
	(void)fmt;
	(void)ap;
	LU_UNSUPPORTED(TRACEF_REFUSED);
}

LU_EXPORT void lttng_ust__tracef(const char *fmt, ...)
{
	(void)fmt;
	LU_UNSUPPORTED(TRACEF_REFUSED);
}

#define TRACELOG_FNS(level) \
	LU_EXPORT void lttng_ust__vtracelog_LTTNG_UST_TRACEPOINT_LOGLEVEL_##level( \
		const char *file, int line, const char *func, const char *fmt, va_list ap) \
	{ \
		(void)file; (void)line; (void)func; (void)fmt; (void)ap; \
		LU_UNSUPPORTED(TRACEF_REFUSED); \
	} \
	LU_EXPORT void lttng_ust__tracelog_LTTNG_UST_TRACEPOINT_LOGLEVEL_##level( \
		const char *file, int line, const char *func, const char *fmt, ...) \
	{ \
		(void)file; (void)line; (void)func; (void)fmt; \
		LU_UNSUPPORTED(TRACEF_REFUSED); \
	}
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
NOTHING_TO_DO(after_setns)
NOTHING_TO_DO(after_unshare)
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

LU_EXPORT int lttng_ust_dl_update(void *ip)
{
	(void)ip;
	LU_UNSUPPORTED("the dl helper's state dump update is not supported by ltt yet "
		       "(ltt's own state dump lists the libraries at start)");
	return 0;
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
