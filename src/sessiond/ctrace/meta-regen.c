// SPDX-License-Identifier: GPL-2.0-only
/*
 * meta-regen.c - a trace's metadata written again whole (meta-regen.h).
 */
#include <errno.h>
#include <string.h>

#include "common/base/log.h"

#include "sessiond/ctrace/meta-regen.h"

int ltt_meta_regenerate(struct ltt_consumer *c, const struct ltt_wbuf *header,
			const struct ltt_meta_owed *o, size_t *header_len, int timeout_ms)
{
	struct ltt_wbuf *meta = o->meta, text;
	int ret;

	if (header->err || meta->err || *header_len > meta->len)
		return -ENOMEM;
	ltt_wbuf_init(&text);
	ltt_wbuf_put_bytes(&text, header->data, header->len);
	ltt_wbuf_put_bytes(&text, meta->data + *header_len, meta->len - *header_len);
	ret = text.err ? -ENOMEM : 0;
	if (!ret && text.len > LTT_CONSUMER_METADATA_MAX)
		ret = -E2BIG;
	if (!ret)
		ret = ltt_consumer_reset_metadata(c, o->trace_key);
	if (ret && ret != -ETIMEDOUT) {
		ltt_wbuf_fini(&text);
		return ret == -EAGAIN ? -ETIMEDOUT : ret;	/* not emptied: unchanged */
	}
	/* emptied now, or once the consumer runs: the new text follows it */
	ltt_wbuf_reset(meta);
	ltt_wbuf_put_bytes(meta, text.data, text.len);
	*header_len = header->len;
	*o->sent = 0;
	ltt_wbuf_fini(&text);
	if (ltt_meta_send_rest(c, o, timeout_ms) == -EAGAIN)
		ret = -ETIMEDOUT;
	return ret;
}

int ltt_meta_send_rest(struct ltt_consumer *c, const struct ltt_meta_owed *o, int timeout_ms)
{
	size_t n;
	int ret;

	while (*o->sent < o->meta->len) {
		n = o->meta->len - *o->sent;
		if (n > LTT_CONSUMER_METADATA_MAX)
			n = LTT_CONSUMER_METADATA_MAX;
		ret = ltt_consumer_metadata_try(c, o->trace_key,
						(const char *)o->meta->data + *o->sent, n,
						timeout_ms);
		if (ret == -EAGAIN) {
			if (!*o->said)
				LTT_WARN("trace %s: metadata waits for its stalled consumer daemon: sent once it answers",
					 o->path);
			*o->said = true;
			return ret;
		}
		if (ret && ret != -ETIMEDOUT)
			LTT_ERR("trace %s: metadata not written: %s", o->path, strerror(-ret));
		*o->sent += n;
	}
	*o->said = false;
	return 0;
}
