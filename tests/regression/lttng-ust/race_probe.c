/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * race_probe.c - the probes of provider race, a library race_app
 * dlopen()s and dlclose()s in a loop.  Its own constructor runs before
 * LTTng's generated one registers the probes, its destructor after the
 * generated one unregistered them: from then on no probe may run.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#include "race_tp.h"

/* race_app.c's */
void race_provider_here(void);
void race_provider_gone(void);

__attribute__((constructor(101))) static void here(void)
{
	race_provider_here();
}

__attribute__((destructor(101))) static void gone(void)
{
	race_provider_gone();
}
