/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ust-meta.h - event ids and the metadata of user-space traces: the
 * trace header (tsdl.c's text, filled from the session, the program and
 * the host) and, per channel buffers, the event classes, each with its id
 * and layout.
 *
 * Event ids are per channel buffers, given in order of first use.  A
 * class is a name and a layout (the fields: ltt_app_tracepoint_same_layout()):
 * a name described with other fields, by the same program (two providers
 * of one event) or by another one of a per-UID trace, is a class of its
 * own, with its own id, as LTTng makes one per registered description.  Functions append
 * text for the caller to send to the consumer; nothing here knows it.
 * The caller serializes calls on one object (the session lock).
 */
#ifndef LTT_SESSIOND_UST_META_H
#define LTT_SESSIOND_UST_META_H

#include <stdbool.h>
#include <stdint.h>
#include <uuid/uuid.h>

#include "common/base/name-index.h"
#include "common/proto/app-proto.h"
#include "common/base/codec.h"
#include "sessiond/app/app.h"
#include "sessiond/model/session.h"
#include "sessiond/ctrace/trace-host.h"

/*
 * The classes of one channel's buffers hold at most as many events as one
 * program may announce: programs announcing new names one after another
 * grow a per-UID trace's metadata to this, and no further.
 */
#define LTT_UST_CLASSES_MAX LTT_APP_MAX_TRACEPOINTS

/* The event classes of one channel's buffers in one trace. */
struct ltt_ust_classes {
	struct ust_class **all;		/* meta.c's, by id - LTT_CTF_FIRST_EVENT_ID */
	size_t nr, cap;
	struct ltt_name_index by_name;	/* positions in all, by name and fields hash */
	uint64_t refused;		/* calls refused a new class (LTT_UST_CLASSES_MAX
				 * reached; a name asked again counts again) */
	enum ltt_trace_format format;	/* the trace's, which the classes are written in */
};

/**
 * ltt_ust_meta_header() - append the start of a trace's metadata: the
 * header, and one stream per channel of @session's user domain
 * @app: the program the trace is for (its ABI; per-PID: it alone)
 * @per_pid: a per-PID trace, else per-UID
 *
 * Session lock held.  Returns 0, -EINVAL (a name holds a control
 * character) or -ENOMEM; on error, part of the text may be appended.
 */
int ltt_ust_meta_header(struct ltt_wbuf *text, const struct ltt_trace_host *host,
			struct ltt_session *session, const struct ltt_app *app, bool per_pid,
			const uuid_t trace_uuid);

/**
 * ltt_ust_meta_classes_init() / ltt_ust_meta_classes_fini() - no classes;
 * free them all.  The object must not move between them (its index
 * points at it).
 */
void ltt_ust_meta_classes_init(struct ltt_ust_classes *classes, enum ltt_trace_format format);
void ltt_ust_meta_classes_fini(struct ltt_ust_classes *classes);

/**
 * ltt_ust_meta_class() - the event id of @tp in @classes: the class of
 * that name and layout, else a new class whose metadata is appended to
 * @text
 * @stream_id: the channel's stream class id
 * @trace_path: named in messages
 * @text: NULL to only look the class up (-ENOENT: none yet)
 *
 * Returns 0, -EEXIST (another layout of the name has the same fields
 * hash: refused, with a warning naming both programs), -ENOENT, -ENOSPC (a new class past
 * LTT_UST_CLASSES_MAX: refused, counted in @classes->refused, the first
 * warned of) or -ENOMEM.
 */
int ltt_ust_meta_class(struct ltt_ust_classes *classes, uint32_t stream_id,
		       const struct ltt_app *app, const struct ltt_app_tracepoint *tp,
		       const char *trace_path, struct ltt_wbuf *text, uint32_t *ret_id);

/*
 * Has @classes the class of @tp (its name and layout)?  A lookup alone:
 * nothing made, nothing said.
 */
bool ltt_ust_meta_class_known(struct ltt_ust_classes *classes, const struct ltt_app_tracepoint *tp);

#endif /* LTT_SESSIOND_UST_META_H */
