/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ctf.h - the binary framing of ltt's CTF 1.8 traces that is not TSDL
 * text (doc/ctf.md): metadata packets and index files.  Pure encoders
 * and decoders over caller buffers, no I/O, any thread.
 *
 * Metadata packets are in the trace byte order, which is the host's;
 * index files are big-endian whatever the host.
 */
#ifndef LTT_COMMON_CTF_H
#define LTT_COMMON_CTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LTT_CTF_UUID_LEN 16

/* Data packets: the packet header and context the ring buffer writes. */
#define LTT_CTF_PACKET_MAGIC 0xC1FC1FC1U
#define LTT_CTF_PACKET_HEADER_SIZE 84	/* header (32) + context (52) bytes */

/*
 * CTF 2's metadata stream is a JSON text sequence (RFC 7464): each
 * fragment starts with this byte, which TSDL text never holds.  It is
 * written as it is, not framed as metadata packets.
 */
#define LTT_CTF2_RS 0x1e

/*
 * Torn events: what the consumer writes over the slot of a writer that
 * died between reserve and commit, so that readers skip it (doc/ctf.md).
 * Three event classes of every user-space stream, never given to a real
 * event: no payload; a uint8 count then that many bytes; a uint32 count
 * then that many bytes.  The first ids, so that a channel's ids have no
 * gap (babeltrace2 2.0's debug-info filter aborts on a trace whose ids
 * do); compact headers take ids up to 30.
 */
#define LTT_CTF_TORN_NAME "ltt_ust:torn"
#define LTT_CTF_TORN_ID_EMPTY 0
#define LTT_CTF_TORN_ID_SHORT 1
#define LTT_CTF_TORN_ID_LONG 2
#define LTT_CTF_FIRST_EVENT_ID 3	/* a channel's first real event */
#define LTT_CTF_TORN_MIN 4		/* the compact header alone */
#define LTT_CTF_EXTENDED_HEADER 13

/* Metadata packets. */
#define LTT_CTF_METADATA_MAGIC 0x75D11D57U
#define LTT_CTF_METADATA_HEADER_SIZE 37
#define LTT_CTF_METADATA_PACKET_SIZE 4096
#define LTT_CTF_METADATA_ROOM (LTT_CTF_METADATA_PACKET_SIZE - LTT_CTF_METADATA_HEADER_SIZE)

/* Index files. */
#define LTT_CTF_INDEX_MAGIC 0xC1F1DCC1U
#define LTT_CTF_INDEX_MAJOR 1
#define LTT_CTF_INDEX_MINOR 1
#define LTT_CTF_INDEX_HEADER_SIZE 16
#define LTT_CTF_INDEX_ENTRY_SIZE 72

/**
 * ltt_ctf_torn_event() - one event readers skip, of exactly @len bytes
 * @buf: where it goes, @len bytes
 * @len: at least LTT_CTF_TORN_MIN + @ctx_len (and below 2^32 + 13 + @ctx_len)
 * @ts: its timestamp: the torn event's own
 * @ctx_len: bytes of the stream's event context (add-context), written
 *           as zeros after the header
 *
 * A compact header when @len is below 13 + @ctx_len (the torn event had
 * a compact header then, so its 27 bits decode), else an extended one
 * with all 64 bits; then the context, then the payload of the
 * LTT_CTF_TORN_ID_* class that fills @len, its bytes zero.  Returns 0,
 * or -EINVAL for a @len out of range (nothing written).
 */
int ltt_ctf_torn_event(void *buf, uint64_t len, uint64_t ts, uint32_t ctx_len);

/*
 * A scan of CTF 2 metadata for its whole fragments, fed in pieces: the
 * bytes up to @whole are fragments each begun by LTT_CTF2_RS and ended by
 * the close of its JSON object (strings and their escapes skipped); what
 * follows is a fragment a crash tore, or not CTF 2 at all.
 */
struct ltt_ctf2_scan {
	uint64_t pos;		/* bytes seen */
	uint64_t whole;		/* the end of the last whole fragment */
	uint32_t depth;		/* of objects and arrays */
	bool in_string, escape, opened, broken;
};

/** ltt_ctf2_scan_init() - a scan before its first byte */
void ltt_ctf2_scan_init(struct ltt_ctf2_scan *s);

/** ltt_ctf2_scan_feed() - the next @len bytes of the metadata */
void ltt_ctf2_scan_feed(struct ltt_ctf2_scan *s, const void *buf, size_t len);

/**
 * ltt_ctf_metadata_size() - bytes of the metadata packets that frame
 * @len bytes of TSDL text: one 4096-byte packet per started
 * LTT_CTF_METADATA_ROOM bytes of text, 0 for no text.  @len must be
 * below SIZE_MAX / 2 (as ltt_ctf_metadata_packet() requires).
 */
size_t ltt_ctf_metadata_size(size_t len);

/**
 * ltt_ctf_metadata_packet() - frame one chunk of TSDL text as metadata
 * packets
 * @uuid: the trace UUID, LTT_CTF_UUID_LEN bytes (borrowed)
 * @text: @len bytes of text, no NUL needed (borrowed)
 * @buf: where the packets go: @size bytes, at least
 *       ltt_ctf_metadata_size(@len)
 * @ret_len: set to the bytes written on success (a multiple of 4096)
 *
 * Each packet gets the 37-byte header (content_size counts the header
 * and the text in bits, packet_size is 4096 * 8), then up to
 * LTT_CTF_METADATA_ROOM bytes of text, then zeros.  The text of a chunk
 * fills packets in order and the last one is padded, so appending
 * chunks one by one appends packets: readers concatenate the packets'
 * text.  Returns 0, or -EINVAL when @buf is too small, @len is not below
 * SIZE_MAX / 2 or a pointer is NULL (nothing written).
 */
int ltt_ctf_metadata_packet(const uint8_t *uuid, const void *text, size_t len, void *buf,
			    size_t size, size_t *ret_len);

/* One packet's entry in an index file. */
struct ltt_ctf_index_entry {
	uint64_t offset;		/* bytes, where the packet starts in its stream file */
	uint64_t packet_size;		/* bits */
	uint64_t content_size;		/* bits */
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t events_discarded;	/* the packet context's running total */
	uint64_t stream_id;		/* the stream class (channel) id */
	uint64_t stream_instance_id;	/* the CPU */
	uint64_t packet_seq_num;
};

/**
 * ltt_ctf_index_header() - write an index file's header (index 1.1,
 * 72-byte entries) into @buf, LTT_CTF_INDEX_HEADER_SIZE bytes
 */
void ltt_ctf_index_header(uint8_t *buf);

/**
 * ltt_ctf_index_header_decode() - check an index file's header
 * @buf: LTT_CTF_INDEX_HEADER_SIZE bytes (borrowed)
 * @ret_entry_size: the entry size it declares (72 for 1.1, 56 for 1.0)
 *
 * Returns 0, or -EPROTO for a wrong magic, a major other than 1 or an
 * entry size that does not match the minor version (0: 56, 1+: at least 72).
 */
int ltt_ctf_index_header_decode(const uint8_t *buf, uint32_t *ret_entry_size);

/**
 * ltt_ctf_index_entry() - write @e as one index entry into @buf,
 * LTT_CTF_INDEX_ENTRY_SIZE bytes (nine big-endian u64)
 */
void ltt_ctf_index_entry(const struct ltt_ctf_index_entry *e, uint8_t *buf);

/**
 * ltt_ctf_index_entry_decode() - read one index entry
 * @buf: @entry_size bytes (borrowed): 72, or 56 for index 1.0, whose
 *       entries lack stream_instance_id and packet_seq_num (set to 0)
 * @ret: the entry
 *
 * Returns 0, or -EINVAL for an entry size other than 56 or >= 72.
 */
int ltt_ctf_index_entry_decode(const uint8_t *buf, size_t entry_size,
			       struct ltt_ctf_index_entry *ret);

#endif /* LTT_COMMON_CTF_H */
