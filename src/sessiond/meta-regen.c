// SPDX-License-Identifier: GPL-2.0-only
/*
 * meta-regen.c - a trace's metadata written again whole (meta-regen.h).
 */
#include <errno.h>
#include <string.h>

#include "common/log.h"

#include "sessiond/meta-regen.h"

int ltt_meta_regenerate(struct ltt_consumer *c, uint64_t trace_key, const struct ltt_wbuf *header,
			struct ltt_wbuf *meta, size_t *header_len)
{
	struct ltt_wbuf text;
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
		ret = ltt_consumer_reset_metadata(c, trace_key);
	if (!ret)
		ret = ltt_consumer_metadata(c, trace_key, text.data, text.len);
	if (!ret) {
		ltt_wbuf_reset(meta);
		ltt_wbuf_put_bytes(meta, text.data, text.len);
		*header_len = header->len;
	}
	ltt_wbuf_fini(&text);
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
