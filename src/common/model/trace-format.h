/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * trace-format.h - the format a trace is written in: CTF 1.8 (TSDL
 * metadata) or CTF 2 (JSON metadata), as LTTng 2.15 names them.  The
 * packets are the same bytes in both; only the metadata differs
 * (sessiond/ctrace/meta.h writes it, doc/ctf.md describes it).
 */
#ifndef LTT_COMMON_MODEL_TRACE_FORMAT_H
#define LTT_COMMON_MODEL_TRACE_FORMAT_H

enum ltt_trace_format {
	LTT_TRACE_FORMAT_CTF_1_8 = 1,	/* TSDL, packetized */
	LTT_TRACE_FORMAT_CTF_2 = 2,	/* JSON fragments (RFC 7464), not packetized */
};

#endif /* LTT_COMMON_MODEL_TRACE_FORMAT_H */
