// SPDX-License-Identifier: LGPL-2.1-only
/*
 * output-error.c - the public code of a trace output's failure.
 */
#include <errno.h>

#include "common/base/output-error.h"

enum ltt_error_code ltt_output_error_code(int err)
{
	switch (err < 0 ? -err : err) {
	case 0:
		return LTT_ERR_OK;
	case ENOSPC:
	case EDQUOT:
	case EFBIG:
		return LTT_ERR_OUTPUT_NO_SPACE;
	case EACCES:
	case EPERM:
		return LTT_ERR_OUTPUT_ACCESS;
	case ENOENT:
	case ENOTDIR:
		return LTT_ERR_OUTPUT_GONE;
	case EMFILE:
	case ENFILE:
		return LTT_ERR_OUTPUT_FDS;
	case EROFS:
		return LTT_ERR_OUTPUT_READ_ONLY;
	default:
		return LTT_ERR_OUTPUT_IO;
	}
}

bool ltt_output_errno(int err)
{
	int e = err < 0 ? -err : err;

	return e == EIO || (e && ltt_output_error_code(e) != LTT_ERR_OUTPUT_IO);
}
