// SPDX-License-Identifier: LGPL-2.1-only
/*
 * output-error.c - the public code of a trace output's failure.
 */
#include <errno.h>

#include "common/base/errmap.h"
#include "common/base/output-error.h"

static const struct ltt_errmap output_errors[] = {
	{ 0, LTT_ERR_OK },
	{ -ENOSPC, LTT_ERR_OUTPUT_NO_SPACE },
	{ -EDQUOT, LTT_ERR_OUTPUT_NO_SPACE },
	{ -EFBIG, LTT_ERR_OUTPUT_NO_SPACE },
	{ -EACCES, LTT_ERR_OUTPUT_ACCESS },
	{ -EPERM, LTT_ERR_OUTPUT_ACCESS },
	{ -ENOENT, LTT_ERR_OUTPUT_GONE },
	{ -ENOTDIR, LTT_ERR_OUTPUT_GONE },
	{ -EMFILE, LTT_ERR_OUTPUT_FDS },
	{ -ENFILE, LTT_ERR_OUTPUT_FDS },
	{ -EROFS, LTT_ERR_OUTPUT_READ_ONLY },
	{ LTT_ERRMAP_ELSE, LTT_ERR_OUTPUT_IO },
};

enum ltt_error_code ltt_output_error_code(int err)
{
	return LTT_ERRMAP(output_errors, err > 0 ? -err : err, NULL);
}

bool ltt_output_errno(int err)
{
	int e = err < 0 ? -err : err;

	return e == EIO || (e && ltt_output_error_code(e) != LTT_ERR_OUTPUT_IO);
}
