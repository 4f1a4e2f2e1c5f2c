/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fake-relay.h - a fake relay daemon for the relay output's tests
 * (fake-relay.c): a thread serving one control and one data connection on
 * loopback as ltt-relayd does, recording what it received, with switches
 * to misbehave (hold replies, refuse indexes, stop reading, die).
 */
#ifndef LTT_TESTS_FAKE_RELAY_H
#define LTT_TESTS_FAKE_RELAY_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/proto/relay-proto.h"

#define MAX_STREAMS 16
#define MAX_PACKETS 64

struct fake {
	int lctrl, ldata;		/* listening */
	int ctrl, data;			/* accepted */
	int ctrl_port, data_port;
	uint32_t major;			/* what VERSION answers */
	bool lttng;			/* as LTTng's relay: no LTT flag in GET_CONFIGURATION */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop_reading_data;		/* leave the data socket alone */
	bool refuse_index;
	bool hold_metadata;		/* leave SEND_METADATA unanswered */
	bool meta_held;			/* one is unanswered: control not read */
	bool die;			/* close both connections */
	uint32_t pending_answer;	/* DATA_PENDING's answer */
	bool reconcile;			/* GET_CONFIGURATION says RECONCILE too */
	uint32_t reconcile_code;	/* RECONCILE_STREAM's answer (no packet) */
	bool reconcile_stop;		/* fake_reconcile_stop() */
	unsigned int reconciles;	/* RECONCILE_STREAM requests received */
	/* what was received */
	unsigned int nr_streams, streams_sent, closes;
	unsigned int streams_at_sent;	/* nr_streams at the last STREAMS_SENT */
	char stream_names[MAX_STREAMS][LTT_RELAY_NAME_MAX];
	char stream_paths[MAX_STREAMS][LTT_RELAY_PATH_MAX];
	unsigned int nr_packets;
	uint64_t pkt_handle[MAX_PACKETS], pkt_seq[MAX_PACKETS], pkt_len[MAX_PACKETS];
	uint64_t pkt_pad[MAX_PACKETS];
	uint8_t pkt_first[MAX_PACKETS], pkt_last[MAX_PACKETS];
	bool pkt_uniform[MAX_PACKETS];
	unsigned int nr_indexes, nr_beacons;
	struct ltt_relay_index last_index, last_beacon;
	/* as ltt-relayd: a packet's SEND_INDEX is answered once it is read */
	bool read_any[MAX_STREAMS];
	uint64_t read_seq[MAX_STREAMS];		/* per handle - 100: last packet read */
	bool held;				/* an index waits: control not read */
	bool held_refused;			/* its answer: refused */
	unsigned int loops;			/* rounds of the fake's loop */
	struct ltt_relay_index held_idx;
	size_t metadata_bytes;
	unsigned int metadata_msgs;
	unsigned int meta_unanswerable;	/* SEND_METADATA without LTT_RELAY_METADATA_ANSWERED */
	uint8_t metadata_first[8];
	pthread_t thread;
};

/* A loopback TCP socket listening on a free port, into *@ret_port; -1 on error. */
int fake_listen_port(int *ret_port);
/* Start @f's thread: it accepts one control and one data connection; VERSION answers @major. */
void fake_start(struct fake *f, uint32_t major);
/* Stop @f's thread and close its sockets. */
void fake_stop(struct fake *f);
/*
 * After the fake died (its thread joined): a thread that accepts control
 * connections one after the other on its control port, as a relay
 * started again there, answering RECONCILE_STREAM with @code; stopped by
 * fake_reconcile_stop().
 */
void fake_reconcile_start(struct fake *f, uint32_t code);
void fake_reconcile_stop(struct fake *f);
/* Wait (5 s at most) until @n <= *@counter, under @f's lock; whether it came. */
bool fake_wait(struct fake *f, const unsigned int *counter, unsigned int n);

#endif /* LTT_TESTS_FAKE_RELAY_H */
