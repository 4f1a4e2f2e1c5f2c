// SPDX-License-Identifier: LGPL-2.1-only
/*
 * meta.c - a trace's metadata in its format (meta.h): the description
 * checked and built once (meta-model.h), then written by the format's
 * writer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sessiond/ctrace/ctf2.h"
#include "sessiond/ctrace/meta.h"
#include "sessiond/ctrace/meta-model.h"
#include "sessiond/ctrace/tsdl.h"

/* What a format's writer does with a description. */
struct writer {
	int (*trace_header)(struct ltt_wbuf *out, const struct ltt_meta_header *h);
	int (*stream)(struct ltt_wbuf *out, uint32_t stream_id, bool per_channel,
		      const struct ltt_fc *ctx);
	int (*event)(struct ltt_wbuf *out, const struct ltt_meta_event *m);
};

static const struct writer tsdl = {
	.trace_header = ltt_tsdl_trace_header,
	.stream = ltt_tsdl_stream,
	.event = ltt_tsdl_event,
};

static const struct writer ctf2 = {
	.trace_header = ltt_ctf2_trace_header,
	.stream = ltt_ctf2_stream,
	.event = ltt_ctf2_event,
};

static const struct writer *writer_of(enum ltt_trace_format format)
{
	switch (format) {
	case LTT_TRACE_FORMAT_CTF_1_8:
		return &tsdl;
	case LTT_TRACE_FORMAT_CTF_2:
		return &ctf2;
	default:
		return NULL;
	}
}

static bool trace_valid(const struct ltt_meta_trace *t)
{
	bool kernel_fields = t->sysname || t->kernel_release || t->kernel_version ||
			     t->kernel_backend;

	if (!t->buffering || (t->bits_per_long != 32 && t->bits_per_long != 64) ||
	    t->clock_offset_ns < 0 || (t->clock_freq && t->clock_offset >= t->clock_freq) ||
	    !t->clock_name != !t->clock_why || !t->clock_name != !t->clock_read)
		return false;
	if (!strcmp(t->buffering, "global"))
		return t->vpid < 0 && !t->procname && t->sysname && t->kernel_release &&
		       t->kernel_version;
	if (kernel_fields)
		return false;
	if (!strcmp(t->buffering, "pid"))
		return t->vpid >= 0 && t->procname;
	if (!strcmp(t->buffering, "uid"))
		return t->vpid < 0 && !t->procname;
	return false;
}

int ltt_meta_trace_header(struct ltt_wbuf *out, enum ltt_trace_format format,
			  const struct ltt_meta_trace *t)
{
	const struct writer *w = writer_of(format);
	struct ltt_meta_header h;

	if (!out || !t || !w || !trace_valid(t))
		return -EINVAL;
	ltt_meta_describe_header(&h, t);
	return w->trace_header(out, &h);
}

int ltt_meta_stream(struct ltt_wbuf *out, enum ltt_trace_format format, uint32_t stream_id,
		    bool per_channel, const struct ltt_ctx *ctx, uint32_t nr_ctx)
{
	const struct writer *w = writer_of(format);
	struct ltt_meta_ctx *m;
	int ret;

	if (!out || !w)
		return -EINVAL;
	m = malloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	ret = ltt_meta_describe_contexts(m, ctx, nr_ctx);
	if (!ret)
		ret = w->stream(out, stream_id, per_channel, &m->fields);
	free(m);
	return ret;
}

/* Write @m with @format's writer, unless describing it failed (@ret). */
static int write_event(struct ltt_wbuf *out, enum ltt_trace_format format,
		       struct ltt_meta_event *m, int ret)
{
	const struct writer *w = writer_of(format);

	if (!ret)
		ret = w->event(out, m);
	return ret;
}

/* The class of a program's event @tp, or else of kernel event @desc. */
static int event_class(struct ltt_wbuf *out, enum ltt_trace_format format,
		       const struct ltt_app_tracepoint *tp, const struct ltt_kabi_event_desc *desc,
		       uint32_t event_id, uint32_t stream_id)
{
	struct ltt_meta_event *m;
	int ret;

	if (!out || !writer_of(format))
		return -EINVAL;
	m = malloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	ret = tp ? ltt_meta_describe_app(m, tp, event_id, stream_id) :
		   ltt_meta_describe_kernel(m, desc, event_id, stream_id);
	ret = write_event(out, format, m, ret);
	free(m);
	return ret;
}

int ltt_meta_event(struct ltt_wbuf *out, enum ltt_trace_format format,
		   const struct ltt_app_tracepoint *tp, uint32_t event_id, uint32_t stream_id)
{
	return tp ? event_class(out, format, tp, NULL, event_id, stream_id) : -EINVAL;
}

int ltt_meta_kernel_event(struct ltt_wbuf *out, enum ltt_trace_format format,
			  const struct ltt_kabi_event_desc *desc, uint32_t event_id,
			  uint32_t stream_id)
{
	return desc ? event_class(out, format, NULL, desc, event_id, stream_id) : -EINVAL;
}

int ltt_meta_torn_events(struct ltt_wbuf *out, enum ltt_trace_format format,
			 uint32_t stream_id)
{
	struct ltt_meta_event *m;
	size_t start;
	unsigned int i;
	int ret = 0;

	if (!out || !writer_of(format))
		return -EINVAL;
	m = malloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	start = out->len;
	for (i = 0; i < 3 && !ret; i++)
		ret = write_event(out, format, m, ltt_meta_describe_torn(m, i, stream_id));
	if (ret)
		out->len = start;	/* all three or none */
	free(m);
	return ret;
}
