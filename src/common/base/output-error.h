/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * output-error.h - the public code of a trace output's failure: the one
 * mapping from what the consumer met writing a trace (an errno) to what
 * the user reads (enum ltt_error_code), shared by the session daemon
 * (start refused) and lttctl (list, stop warnings).
 */
#ifndef LTT_COMMON_OUTPUT_ERROR_H
#define LTT_COMMON_OUTPUT_ERROR_H

#include <stdbool.h>

#include <ltt/ltt-error.h>

/**
 * ltt_output_error_code() - the code of an output failure
 * @err: an errno, negated or not; 0 gives LTT_ERR_OK
 *
 * ENOSPC, EDQUOT, EFBIG: OUTPUT_NO_SPACE; EACCES, EPERM: OUTPUT_ACCESS;
 * ENOENT, ENOTDIR: OUTPUT_GONE; EMFILE, ENFILE: OUTPUT_FDS; EROFS:
 * OUTPUT_READ_ONLY; any other: OUTPUT_IO.  Any thread.
 */
enum ltt_error_code ltt_output_error_code(int err);

/**
 * ltt_output_errno() - is @err (negated or not) a failure a file system
 * gives whoever writes a trace: one ltt_output_error_code() names, or EIO
 * (a peer's refusal, a bad request, a name taken are not)
 */
bool ltt_output_errno(int err);

#endif /* LTT_COMMON_OUTPUT_ERROR_H */
