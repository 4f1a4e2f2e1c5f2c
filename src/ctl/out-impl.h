/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * out-impl.h - what an implementation of lttctl's output provides
 * (out.c dispatches to one of them; commands never see this).
 *
 * out.c formats and escapes every string before it reaches an
 * implementation, and keeps the nesting of objects balanced.
 */
#ifndef LTT_CTL_OUT_IMPL_H
#define LTT_CTL_OUT_IMPL_H

#include <stdbool.h>

#include "ctl/out.h"

struct ctl_out_ops {
	/* The run's command (NULL: none found). */
	void (*begin)(const char *command);
	/* A message; @code is a positive LTT_ERR_*, @usage NULL or the usage line. */
	void (*message)(enum ctl_out_msg level, int code, const char *text,
			const char *usage);
	/* Human text, already formatted. */
	void (*text)(const char *text);
	void (*open)(const char *element);
	void (*close)(void);
	void (*field)(const char *name, const char *value);
	/* Returns 0, or -errno when stdout could not be written. */
	int (*end)(int status);
	/* Optional: the LTTng MI schema version the document declares. */
	void (*schema)(const char *version);
};

extern const struct ctl_out_ops ctl_out_text_ops;
extern const struct ctl_out_ops ctl_out_xml_ops;

#endif /* LTT_CTL_OUT_IMPL_H */
