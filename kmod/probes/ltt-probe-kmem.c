// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-probe-kmem.c - page allocator events, with LTTng's event and field
 * names: the struct page's address (hex), its page frame number, the
 * allocation's order, GFP flags (hex) and migrate type.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <trace/events/kmem.h>

#include "../ltt-event.h"

/* mm_page_alloc may report a failed allocation: page NULL, pfn all ones. */
static inline u64 kmem_pfn(struct page *page)
{
	return page ? page_to_pfn(page) : ~0ULL;
}

LTT_TRACEPOINT_EVENT(kmem_mm_page_alloc, mm_page_alloc,
	LTT_PROTO(struct page *page, unsigned int order, gfp_t gfp_flags, int migratetype),
	LTT_FIELDS(
		ltt_field_integer_hex(u64, page, (unsigned long)page)
		ltt_field_integer(u64, pfn, kmem_pfn(page))
		ltt_field_integer(u32, order, order)
		ltt_field_integer_hex(u32, gfp_flags, (__force u32)gfp_flags)
		ltt_field_integer(s32, migratetype, migratetype)));

LTT_TRACEPOINT_EVENT(kmem_mm_page_free, mm_page_free,
	LTT_PROTO(struct page *page, unsigned int order),
	LTT_FIELDS(
		ltt_field_integer_hex(u64, page, (unsigned long)page)
		ltt_field_integer(u64, pfn, kmem_pfn(page))
		ltt_field_integer(u32, order, order)));

LTT_PROBE(kmem, NULL, NULL,
	  LTT_EVENT_DESC(kmem_mm_page_alloc),
	  LTT_EVENT_DESC(kmem_mm_page_free));
