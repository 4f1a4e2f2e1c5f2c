// SPDX-License-Identifier: GPL-2.0-only
/*
 * consumer-relay.c - the consumer's relay output commands, each one
 * call (consumer-call.h): connect, ask what is pending and how it goes,
 * archive a chunk, disconnect.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/base/codec.h"
#include "common/proto/consumer-proto.h"
#include "sessiond/consumer/consumer-call.h"

/* ADD_RELAY's reply: its path copied out before the message is freed. */
struct add_relay_path {
	char *path;
	size_t len;
};

static int decode_add_relay(struct ltt_rbuf *r, void *out)
{
	struct ltt_consumer_add_relay_reply reply;
	struct add_relay_path *res = out;
	int err = ltt_consumer_get_add_relay_reply(r, &reply);

	if (err)
		return err;
	snprintf(res->path, res->len, "%s", reply.output_path ? reply.output_path : "");
	return 0;
}

int ltt_consumer_add_relay(struct ltt_consumer *c, const struct ltt_consumer_add_relay *m,
			   char *output_path, size_t len)
{
	struct add_relay_path res = { .path = output_path, .len = len };
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_ADD_RELAY, .minor = 2,
		.decode = decode_add_relay, .out = &res,
	};

	ltt_consumer_put_add_relay(&k.req, m, ltt_consumer_minor(c));
	return ltt_consumer_call(c, &k);
}

static int decode_pending(struct ltt_rbuf *r, void *out)
{
	struct ltt_consumer_relay_pending_reply reply;
	int err = ltt_consumer_get_relay_pending_reply(r, &reply);

	if (!err)
		*(bool *)out = reply.pending;
	return err;
}

int ltt_consumer_relay_data_pending(struct ltt_consumer *c, uint64_t relay_key,
				    bool *ret_pending)
{
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_RELAY_DATA_PENDING, .minor = 2,
		.decode = decode_pending, .out = ret_pending,
	};

	ltt_consumer_put_relay_key(&k.req, relay_key);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_relay_archive(struct ltt_consumer *c, uint64_t relay_key, const char *from,
			       const char *to)
{
	struct ltt_consumer_relay_archive m = { .relay_key = relay_key, .from = from, .to = to };
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_RELAY_ARCHIVE, .minor = LTT_CONSUMER_MINOR_NET,
	};

	ltt_consumer_put_relay_archive(&k.req, &m);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_relay_archive_result(struct ltt_consumer *c, uint64_t relay_key)
{
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_RELAY_ARCHIVE_RESULT, .minor = LTT_CONSUMER_MINOR_NET,
	};

	ltt_consumer_put_relay_key(&k.req, relay_key);
	return ltt_consumer_call(c, &k);
}

static int decode_relay_status(struct ltt_rbuf *r, void *out)
{
	return ltt_consumer_get_relay_status_reply(r, out);
}

int ltt_consumer_relay_status(struct ltt_consumer *c, uint64_t relay_key,
			      struct ltt_consumer_relay_status_reply *ret_status)
{
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_RELAY_STATUS, .minor = 2,
		.decode = decode_relay_status, .out = ret_status,
	};

	ltt_consumer_put_relay_key(&k.req, relay_key);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_del_relay(struct ltt_consumer *c, uint64_t relay_key)
{
	struct ltt_consumer_call k = { .type = LTT_CONSUMER_MSG_DEL_RELAY };

	ltt_consumer_put_key(&k.req, relay_key);
	return ltt_consumer_call(c, &k);
}
