// SPDX-License-Identifier: GPL-2.0-only
/*
 * meta-regen.c - a trace's metadata written again whole (meta-regen.h).
 */
#include <errno.h>

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
