// SPDX-License-Identifier: LGPL-2.1-only
/* ust-filter.c - see ust-filter.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "common/model/context.h"
#include "common/trace/ringbuf.h"
#include "ust/ust-internal.h"
#include "ust-filter.h"

const struct ltt_filter_field_desc ust_filter_int_v = {
	"v", LTT_UST_TYPE_INTEGER, 4, 1, LTT_UST_ENCODING_NONE, 0, 0
};

int ust_filter_set(uint64_t key, const char *event, const char *expr,
		   const struct ltt_filter_field_desc *field)
{
	struct ltt_filter_node *root = NULL;
	uint8_t *code = NULL;
	uint32_t len32;
	size_t len = 0;
	int ret;

	if (!expr)
		return ltt_ust_test_set_filter(key, event, 0, NULL, NULL);
	if (ltt_filter_parse(expr, &root, NULL) ||
	    ltt_filter_compile(root, field, 1, &code, &len, NULL))
		exit(1);
	len32 = (uint32_t)len;
	ret = ltt_ust_test_set_filter(key, event, 1, (const uint8_t *const *)&code, &len32);
	ltt_filter_free(root);
	free(code);
	return ret;
}

size_t ust_filter_recorded(void *mem, size_t len, size_t hdr)
{
	struct ltt_rb_packet pkt;
	struct ltt_rb rd;
	size_t n = 0;
	int ret;

	if (ltt_rb_attach(&rd, mem, len))
		return 0;
	ltt_rb_flush(&rd, false);
	while ((ret = ltt_rb_get_next_subbuf(&rd, &pkt)) != -EAGAIN) {
		if (ret)
			continue;
		n += (size_t)pkt.content_size - hdr;
		ltt_rb_put_subbuf(&rd, &pkt);
	}
	return n;
}
