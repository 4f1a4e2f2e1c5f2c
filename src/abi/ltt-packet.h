/* SPDX-License-Identifier: (GPL-2.0-only OR LGPL-2.1-only) */
/*
 * ltt-packet.h - where each field of a CTF packet's header and context
 * lies, for every ring buffer ltt writes: user space's (src/common/trace/ringbuf)
 * and the kernel tracer's (kmod/ltt-ringbuf), so that the consumer and
 * the readers see one layout.  doc/ctf.md describes it; all fields are in
 * the host's byte order, unaligned.  Macros only: included by the kernel
 * module and by user space alike.
 */
#ifndef LTT_PACKET_H
#define LTT_PACKET_H

#define LTT_RB_PACKET_MAGIC		0xC1FC1FC1U	/* CTF packet.header.magic */
#define LTT_RB_PACKET_HEADER_SIZE	84		/* header and context */

/* Byte offsets of the packet header and context fields. */
#define LTT_RB_PH_MAGIC			0	/* u32 */
#define LTT_RB_PH_UUID			4	/* u8[16], the trace's */
#define LTT_RB_PH_STREAM_ID		20	/* u32 */
#define LTT_RB_PH_STREAM_INSTANCE_ID	24	/* u64, the CPU */
#define LTT_RB_PH_TIMESTAMP_BEGIN	32	/* u64 */
#define LTT_RB_PH_TIMESTAMP_END		40	/* u64 */
#define LTT_RB_PH_CONTENT_SIZE		48	/* u64, bits */
#define LTT_RB_PH_PACKET_SIZE		56	/* u64, bits */
#define LTT_RB_PH_PACKET_SEQ_NUM	64	/* u64 */
#define LTT_RB_PH_EVENTS_DISCARDED	72	/* u64, running total */
#define LTT_RB_PH_CPU_ID		80	/* u32 */

#endif /* LTT_PACKET_H */
