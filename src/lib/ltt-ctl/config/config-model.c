// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-model.c - saved session configurations: the model's destructors
 * and the error setter the reader, the check and the writer share.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ltt-ctl/config/config-model.h"

void ltt_cfg_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

void ltt_cfg_session_fini(struct ltt_cfg_session *s)
{
	size_t i;

	for (i = 0; s->channels && i < s->nr_channels; i++)
		free(s->channels[i].rules);
	free(s->channels);
	free(s->snap_outputs);
	free(s->maps);
	free(s->triggers);
	free(s->trigger_lines);
	s->channels = NULL;
	s->snap_outputs = NULL;
	s->maps = NULL;
	s->nr_maps = 0;
	s->nr_channels = 0;
	s->nr_snap_outputs = 0;
}

void ltt_cfg_set_fini(struct ltt_cfg_set *set)
{
	size_t i;

	if (!set)
		return;
	for (i = 0; i < set->nr; i++)
		ltt_cfg_session_fini(&set->v[i]);
	free(set->v);
	for (i = 0; i < set->nr_files; i++)
		free(set->files[i]);
	free(set->files);
	memset(set, 0, sizeof(*set));
}
