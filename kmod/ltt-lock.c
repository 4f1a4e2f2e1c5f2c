// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-lock.c - ltt_mutex, the one lock of the tracer's control state
 * (sessions, channels, event targets; its order in ltt-tracer.h), below
 * every file that takes it.
 */
#include <linux/mutex.h>

#include "ltt-tracer.h"

/* All control state: sessions, channels, event targets (ltt-tracer.h). */
DEFINE_MUTEX(ltt_mutex);
