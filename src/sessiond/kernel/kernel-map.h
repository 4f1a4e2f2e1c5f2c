/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel-map.h - kernel map channels (doc/maps.md): counters the kernel
 * keeps by itself, through the kernel thread's MAP operations (the
 * tracefs backend's histogram triggers), that triggers' incr-map-value
 * actions after a kernel rule count in, no record read per event.
 *
 * The map registry (model/map.h) keeps each kernel map's key table and
 * calls this file for its counters (ltt_maps_kernel: made, started,
 * stopped, zeroed, read, removed) under the registry's lock; this file
 * has its own leaf lock, taken inside those calls and never held while
 * it calls the registry.  For each counting trigger, each event of its
 * rule is counted under the slot of its key (the key template expanded
 * for the event), with the rule's filter said exactly in ftrace's
 * grammar.
 */
#ifndef LTT_SESSIOND_KERNEL_MAP_H
#define LTT_SESSIOND_KERNEL_MAP_H

#include <ltt/ltt-error.h>

#include "sessiond/model/map.h"
#include "sessiond/model/trigger.h"

struct ltt_kernel;

/**
 * ltt_kmaps_attach() - @k keeps the kernel maps of registry @maps from
 * now on (borrowed until ltt_kmaps_detach()); before any command.
 * Returns 0 or -ENOMEM (then no kernel map: refused as without hooks).
 */
int ltt_kmaps_attach(struct ltt_kernel *k, struct ltt_maps *maps);

/**
 * ltt_kmaps_detach() - no kernel map any more (the sessions are gone):
 * what is left is removed, the registry forgets the hooks.  Before the
 * tracer closes; accepts a kernel never attached.
 */
void ltt_kmaps_detach(struct ltt_kernel *k);

/**
 * ltt_kmaps_arm() - counting trigger @t (a kernel rule, incr-map-value)
 * counts in its map from now on, if the map is there.  LTT_ERR_OK, or
 * KERNEL_EVENT_NOT_FOUND (no event of its rule in the kernel),
 * MAP_KERNEL_FILTER (a filter ftrace can't say exactly),
 * MAP_KERNEL_TWICE (an event counted under that key already), MAP_KERNEL,
 * NOMEM (logged): the command then removes the trigger.  No lock held.
 */
enum ltt_error_code ltt_kmaps_arm(struct ltt_kernel *k, struct ltt_trigger *t);

/**
 * ltt_kmaps_sync() - the maps follow the triggers and maps now: counts
 * of removed triggers taken out, those of counting triggers whose map
 * came back put in.  No lock held.
 */
void ltt_kmaps_sync(struct ltt_kernel *k);

#endif /* LTT_SESSIOND_KERNEL_MAP_H */
