/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmodule.h - loading the kernel tracer's modules with libkmod, and
 * saying in one sentence why it could not be done.
 */
#ifndef LTT_SESSIOND_KMODULE_H
#define LTT_SESSIOND_KMODULE_H

#include <stdbool.h>
#include <stddef.h>

#define LTT_KMODULE_TRACER "ltt-tracer"
#define LTT_KMODULE_WHY_MAX 512

/**
 * ltt_kmodule_load() - load module @name (and what it depends on) unless
 * it is loaded already
 * @probes: NULL, or the value of the module's "probes" parameter (which
 *          probes it enables); ignored, with a warning, if it is loaded
 * @why: on failure, receives a sentence for the user: what went wrong and
 *       what to do (@why_size bytes, NUL-terminated)
 * @ret_loaded: set to true when this call loaded the module, false when it
 *              was loaded already (then the caller must leave it loaded)
 *
 * Any thread; loads through libkmod as modprobe would (modules.dep of the
 * running kernel).  Returns 0, or a negative errno with @why set.
 */
int ltt_kmodule_load(const char *name, const char *probes, char *why, size_t why_size,
		     bool *ret_loaded);

/**
 * ltt_kmodule_unload() - remove module @name if nothing uses it; errors
 * are only logged (another tracer session or a user may hold it).  Only
 * for a module ltt_kmodule_load() loaded.
 */
void ltt_kmodule_unload(const char *name);

#endif /* LTT_SESSIOND_KMODULE_H */
