/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ltt-ctl-snapshot.h - libltt-ctl, snapshot sessions: their snapshot output
 * and recording a snapshot.
 *
 * Part of <ltt/ltt-ctl.h>, which includes it: include that one.  The
 * conventions and ABI rules of ltt-ctl.h hold for every call and struct here.
 */
#ifndef LTT_CTL_SNAPSHOT_H
#define LTT_CTL_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl-common.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A snapshot output of a snapshot session (ltt_ctl_snapshot_add_output()),
 * or where one snapshot goes (ltt_ctl_snapshot_record()).  reserved is
 * zero when passed in, zeroed when returned.
 */
struct ltt_snapshot_output {
	uint32_t id;			/* set by the daemon; 0 when adding */
	char name[LTT_NAME_MAX];	/* "" when adding: "snapshot-ID" */
	uint64_t max_size;		/* bytes per snapshot, 0: no limit */
	enum ltt_output_type output_type;	/* LOCAL or NET */
	char output[LTT_PATH_MAX];	/* LOCAL: absolute directory; NET: the relay's URL */
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zero */
};

/* What one snapshot wrote (ltt_ctl_snapshot_record()). */
struct ltt_snapshot_result {
	char path[LTT_PATH_MAX];	/* the snapshot's own directory */
	uint64_t packets;		/* written */
	uint64_t bytes;
	uint64_t packets_dropped;	/* overwritten while copied: left out */
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zero */
};

/**
 * ltt_ctl_snapshot_add_output() - give a snapshot session its snapshot
 * output (one per session, as LTTng)
 * @output: name ("" for "snapshot-ID"), max_size, output_type LOCAL and
 *          an absolute directory; id and reserved 0
 * @ret_output: the output as added (its id), or NULL
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_SNAPSHOT_NOT_SNAPSHOT,
 * -LTT_ERR_SNAPSHOT_OUTPUT_EXISTS, -LTT_ERR_SNAPSHOT_OUTPUT_NAME,
 * -LTT_ERR_OUTPUT_PATH, -LTT_ERR_INVAL,
 * -LTT_ERR_NOT_SUPPORTED (a daemon older than client protocol 1.4, or a
 * non-zero reserved byte), or a connection error.
 */
int ltt_ctl_snapshot_add_output(struct ltt_ctl *ctl, const char *session,
				const struct ltt_snapshot_output *output,
				struct ltt_snapshot_output *ret_output);

/**
 * ltt_ctl_snapshot_del_output() - remove a snapshot session's output, by
 * @id (not 0) or else by @name
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_SNAPSHOT_NOT_SNAPSHOT,
 * -LTT_ERR_SNAPSHOT_OUTPUT_NOT_FOUND, -LTT_ERR_NOT_SUPPORTED, or a
 * connection error.
 */
int ltt_ctl_snapshot_del_output(struct ltt_ctl *ctl, const char *session, uint32_t id,
				const char *name);

/**
 * ltt_ctl_snapshot_list_outputs() - a snapshot session's outputs
 * @ret_outputs: array of @ret_count entries (0 or 1 today), free() it
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_SNAPSHOT_NOT_SNAPSHOT,
 * -LTT_ERR_NOT_SUPPORTED, or a connection error.
 */
int ltt_ctl_snapshot_list_outputs(struct ltt_ctl *ctl, const char *session,
				  struct ltt_snapshot_output **ret_outputs, size_t *ret_count);

/**
 * ltt_ctl_snapshot_record() - write what a snapshot session's buffers hold
 * now as a complete trace in a new directory, OUTPUT/NAME-YYYYmmdd-HHMMSS-N
 * (N counts the session's snapshots), without stopping tracing or
 * consuming the buffers
 * @output: NULL for the session's output; else its non-empty fields
 *          override it: name, max_size (not 0), and output_type LOCAL
 *          with a directory instead of the session's output
 * @ret: the snapshot's directory and what it holds, or NULL
 *
 * Works while the session is active or stopped.  Returns 0,
 * -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_SNAPSHOT_NOT_SNAPSHOT,
 * -LTT_ERR_SNAPSHOT_NO_OUTPUT, -LTT_ERR_SNAPSHOT_TOO_SMALL,
 * -LTT_ERR_SNAPSHOT_KERNEL, -LTT_ERR_SNAPSHOT_EXISTS,
 * -LTT_ERR_OUTPUT_PATH, an -LTT_ERR_OUTPUT_* error of the file system,
 * -LTT_ERR_CONSUMERD, -LTT_ERR_NOT_SUPPORTED, or a connection error.
 */
int ltt_ctl_snapshot_record(struct ltt_ctl *ctl, const char *session,
			    const struct ltt_snapshot_output *output,
			    struct ltt_snapshot_result *ret);

#ifdef __cplusplus
}
#endif

#endif /* LTT_CTL_SNAPSHOT_H */
