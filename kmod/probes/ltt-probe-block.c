// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-probe-block.c - block request issue and completion, with LTTng's
 * event and field names.  dev is the disk's dev_t in the kernel's
 * encoding (major << 20 | minor); rwbs is lttng-modules' integer of
 * LTT_RWBS_* bits (ltt-fields.h), which the tracefs backend computes
 * from blktrace's text the same way.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/blktrace_api.h>
#include <trace/events/block.h>

#include "../ltt-event.h"
#include "abi/ltt-fields.h"

/* A request's rwbs: its operation's bit, then its flags'. */
static u32 block_rwbs(const struct request *rq)
{
	unsigned int opf = (__force unsigned int)rq->cmd_flags;
	u32 bits;

	switch (opf & REQ_OP_MASK) {
	case REQ_OP_WRITE:
		bits = LTT_RWBS_WRITE;
		break;
	case REQ_OP_DISCARD:
		bits = LTT_RWBS_DISCARD;
		break;
	case REQ_OP_SECURE_ERASE:
		bits = LTT_RWBS_DISCARD | LTT_RWBS_SECURE;
		break;
	case REQ_OP_FLUSH:
		bits = LTT_RWBS_FLUSH;
		break;
	case REQ_OP_READ:
		bits = LTT_RWBS_READ;
		break;
	default:
		bits = 0;
	}
	if (opf & REQ_RAHEAD)
		bits |= LTT_RWBS_RAHEAD;
	if (opf & REQ_SYNC)
		bits |= LTT_RWBS_SYNC;
	if (opf & REQ_META)
		bits |= LTT_RWBS_META;
	if (opf & REQ_PREFLUSH)
		bits |= LTT_RWBS_PREFLUSH;
	if (opf & REQ_FUA)
		bits |= LTT_RWBS_FUA;
	return bits;
}

static inline u32 block_dev(const struct request *rq)
{
	return rq->q->disk ? disk_devt(rq->q->disk) : 0;
}

LTT_TRACEPOINT_EVENT(block_rq_issue, block_rq_issue,
	LTT_PROTO(struct request *rq),
	LTT_FIELDS(
		ltt_field_integer(u32, dev, block_dev(rq))
		ltt_field_integer(u64, sector, blk_rq_trace_sector(rq))
		ltt_field_integer(u32, nr_sector, blk_rq_trace_nr_sectors(rq))
		ltt_field_integer(u32, bytes, blk_rq_bytes(rq))
		ltt_field_integer(s32, tid, current->pid)
		ltt_field_integer(u32, rwbs, block_rwbs(rq))
		ltt_field_array_text(comm, current->comm, TASK_COMM_LEN)));

LTT_TRACEPOINT_EVENT(block_rq_complete, block_rq_complete,
	LTT_PROTO(struct request *rq, blk_status_t error, unsigned int nr_bytes),
	LTT_FIELDS(
		ltt_field_integer(u32, dev, block_dev(rq))
		ltt_field_integer(u64, sector, blk_rq_pos(rq))
		ltt_field_integer(u32, nr_sector, nr_bytes >> 9)
		ltt_field_integer(s32, error, blk_status_to_errno(error))
		ltt_field_integer(u32, rwbs, block_rwbs(rq))));

LTT_PROBE(block, NULL, NULL,
	  LTT_EVENT_DESC(block_rq_issue),
	  LTT_EVENT_DESC(block_rq_complete));
