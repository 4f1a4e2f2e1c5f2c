// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-probe-block.c - block request issue and completion, with LTTng's
 * event and field names.  dev is the disk's dev_t in the kernel's
 * encoding (major << 20 | minor); rwbs is text as blktrace writes it
 * ("W", "WS", "FWFS", "R", "RA", ...).
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/blktrace_api.h>
#include <trace/events/block.h>

#include "../ltt-event.h"

#define RWBS_LEN	8

/* Fill @rwbs (RWBS_LEN bytes) from a request's operation and flags. */
static char *block_rwbs(const struct request *rq, char *rwbs)
{
	unsigned int opf = (__force unsigned int)rq->cmd_flags;
	int i = 0;

	if (opf & REQ_PREFLUSH)
		rwbs[i++] = 'F';
	switch (opf & REQ_OP_MASK) {
	case REQ_OP_WRITE:
	case REQ_OP_WRITE_ZEROES:
		rwbs[i++] = 'W';
		break;
	case REQ_OP_DISCARD:
		rwbs[i++] = 'D';
		break;
	case REQ_OP_SECURE_ERASE:
		rwbs[i++] = 'D';
		rwbs[i++] = 'E';
		break;
	case REQ_OP_FLUSH:
		rwbs[i++] = 'F';
		break;
	case REQ_OP_READ:
		rwbs[i++] = 'R';
		break;
	default:
		rwbs[i++] = 'N';
	}
	if (opf & REQ_FUA)
		rwbs[i++] = 'F';
	if (opf & REQ_RAHEAD)
		rwbs[i++] = 'A';
	if (opf & REQ_SYNC)
		rwbs[i++] = 'S';
	if (opf & REQ_META)
		rwbs[i++] = 'M';
	rwbs[i] = '\0';
	return rwbs;
}

static inline u32 block_dev(const struct request *rq)
{
	return rq->q->disk ? disk_devt(rq->q->disk) : 0;
}

/*
 * The rwbs text lives in a compound literal: its storage lasts for the
 * whole block of the record function that evaluates and copies fields.
 */
LTT_TRACEPOINT_EVENT(block_rq_issue, block_rq_issue,
	LTT_PROTO(struct request *rq),
	LTT_FIELDS(
		ltt_field_integer(u32, dev, block_dev(rq))
		ltt_field_integer(u64, sector, blk_rq_trace_sector(rq))
		ltt_field_integer(u32, nr_sector, blk_rq_trace_nr_sectors(rq))
		ltt_field_integer(u32, bytes, blk_rq_bytes(rq))
		ltt_field_integer(s32, tid, current->pid)
		ltt_field_string(rwbs, block_rwbs(rq, (char [RWBS_LEN]) { 0 }))
		ltt_field_array_text(comm, current->comm, TASK_COMM_LEN)));

LTT_TRACEPOINT_EVENT(block_rq_complete, block_rq_complete,
	LTT_PROTO(struct request *rq, blk_status_t error, unsigned int nr_bytes),
	LTT_FIELDS(
		ltt_field_integer(u32, dev, block_dev(rq))
		ltt_field_integer(u64, sector, blk_rq_pos(rq))
		ltt_field_integer(u32, nr_sector, nr_bytes >> 9)
		ltt_field_integer(s32, error, blk_status_to_errno(error))
		ltt_field_string(rwbs, block_rwbs(rq, (char [RWBS_LEN]) { 0 }))));

LTT_PROBE(block, NULL, NULL,
	  LTT_EVENT_DESC(block_rq_issue),
	  LTT_EVENT_DESC(block_rq_complete));
