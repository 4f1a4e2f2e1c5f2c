/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * registry.h - the command thread's registry: every trace, channel and
 * relay session the session daemon added, by key, with their limits.
 *
 * Command thread only: no lock.  The registry owns its traces (trace.h)
 * and relay entries; it owns its channels too, but from ADD_CHANNEL's
 * request on the data threads work on their streams, so a channel leaves
 * the registry only through ltt_registry_remove_channel(), which has the
 * data threads final-flush and drop it first.  A trace counts its channels
 * (trace->nr_channels) and a relay entry its traces: neither is removed
 * while counted.
 */
#ifndef LTT_CONSUMERD_REGISTRY_H
#define LTT_CONSUMERD_REGISTRY_H

#include <stdint.h>

#include "consumerd/data/data.h"
#include "consumerd/trace/channel.h"
#include "consumerd/trace/trace.h"

/* Limits on what the session daemon may ask for. */
#define LTT_REGISTRY_MAX_TRACES 4096
#define LTT_REGISTRY_MAX_CHANNELS 65536
#define LTT_REGISTRY_MAX_RELAYS 1024

/* A relay session (ADD_RELAY) and the traces that use it. */
struct ltt_registry_relay {
	uint64_t key;
	struct ltt_relay *relay;	/* owned (rlink.h: ltt_rlink_destroy()) */
	unsigned int nr_traces;
	struct ltt_registry_relay *next;
};

struct ltt_registry {
	struct ltt_data_threads *data;	/* borrowed: run the channels' streams */
	struct ltt_trace *traces;	/* linked by trace->next */
	struct ltt_channel *channels;	/* linked by channel->next */
	struct ltt_registry_relay *relays;
	unsigned int nr_traces, nr_channels, nr_relays;
};

/* Lookups by key: the object, or NULL. */
struct ltt_trace *ltt_registry_trace(const struct ltt_registry *reg, uint64_t key);
struct ltt_channel *ltt_registry_channel(const struct ltt_registry *reg, uint64_t key);
struct ltt_registry_relay *ltt_registry_relay(const struct ltt_registry *reg, uint64_t key);

/**
 * ltt_registry_trace_at() - the trace that writes to @dir (a path of
 * @relay's session, or a local directory when @relay is NULL), or NULL
 */
struct ltt_trace *ltt_registry_trace_at(const struct ltt_registry *reg, const char *dir,
					const struct ltt_relay *relay);

/**
 * ltt_registry_add_trace() - take @t, created on @re's relay (or local
 * when @re is NULL); counted in @re's traces.  The caller checked the key
 * and LTT_REGISTRY_MAX_TRACES.
 */
void ltt_registry_add_trace(struct ltt_registry *reg, struct ltt_trace *t,
			    struct ltt_registry_relay *re);

/**
 * ltt_registry_add_channel() - take @chan, which the data thread runs
 * now (its ADD_CHANNEL request succeeded); counted in its trace's
 * channels.  The caller checked the key and LTT_REGISTRY_MAX_CHANNELS.
 */
void ltt_registry_add_channel(struct ltt_registry *reg, struct ltt_channel *chan);

/**
 * ltt_registry_add_relay() - take @re (heap, freed on removal), whose
 * relay the data thread does the I/O of (its ADD_RELAY request
 * succeeded).  The caller checked the key and LTT_REGISTRY_MAX_RELAYS.
 */
void ltt_registry_add_relay(struct ltt_registry *reg, struct ltt_registry_relay *re);

/**
 * ltt_registry_remove_channel() - final-flush @chan on the data thread
 * (REMOVE_CHANNEL: it waits for the streams), then unlink and destroy it
 */
void ltt_registry_remove_channel(struct ltt_registry *reg, struct ltt_channel *chan);

/**
 * ltt_registry_remove_trace() - unlink, close and destroy @t; its
 * directory goes too if nothing was ever written there
 *
 * Returns 0, or -EBUSY (logged; nothing changes) while channels use @t.
 */
int ltt_registry_remove_trace(struct ltt_registry *reg, struct ltt_trace *t);

/**
 * ltt_registry_remove_relay() - hand @re's relay to the data thread,
 * which sends its last bytes with a deadline and frees it; forget it
 * here.  Never waits on the relay.
 *
 * Returns 0, or -EBUSY (logged; nothing changes) while traces use it.
 */
int ltt_registry_remove_relay(struct ltt_registry *reg, struct ltt_registry_relay *re);

/**
 * ltt_registry_close_all() - remove every channel (final flush), then
 * every trace, then every relay (the daemon's end)
 */
void ltt_registry_close_all(struct ltt_registry *reg);

/**
 * ltt_registry_no_such() - log that command @name names no @what ("trace",
 * "channel", "relay") of @key; returns -ENOENT
 */
int ltt_registry_no_such(const char *name, const char *what, uint64_t key);

#endif /* LTT_CONSUMERD_REGISTRY_H */
