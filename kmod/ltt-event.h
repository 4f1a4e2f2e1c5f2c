/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ltt-event.h - declare an event once, get its field description (for
 * LTT_KABI_EVENT_DESC and the daemon's metadata) and its record function.
 *
 *	LTT_TRACEPOINT_EVENT(sched_process_free,	// event name
 *		sched_process_free,			// kernel tracepoint
 *		LTT_PROTO(struct task_struct *p),	// the tracepoint's arguments
 *		LTT_FIELDS(
 *			ltt_field_array_text(comm, p->comm, TASK_COMM_LEN)
 *			ltt_field_integer(s32, tid, p->pid)))
 *
 *	LTT_EVENT(ltt_logger, LTT_PROTO(const char *msg),	// no tracepoint:
 *		LTT_FIELDS(ltt_field_string(msg, msg)))		// ltt_event_call()
 *
 *	LTT_PROBE(myprobe, NULL, NULL, LTT_EVENT_DESC(sched_process_free));
 *
 * Field macros (C type, field name, expression; nothing between them):
 *	ltt_field_integer(type, name, expr)	1/2/4/8-byte integer, base 10
 *	ltt_field_integer_hex(type, name, expr)	the same shown in base 16
 *	ltt_field_enum(type, name, expr, id)	an integer written as the kernel
 *						enumeration @id (LTT_KABI_ENUM_*)
 *	ltt_field_string(name, expr)		NUL-terminated (NULL: "(null)"),
 *						at most LTT_STRING_MAX bytes
 *	ltt_field_array(type, name, ptr, len)	@len (constant, 1..65536) integers
 *	ltt_field_array_hex(type, name, ptr, len)
 *	ltt_field_array_text(name, ptr, len)	@len chars shown as text
 *	ltt_field_sequence(type, name, ptr, count)	u32 count, then the integers
 *	ltt_field_sequence_hex(type, name, ptr, count)
 *	ltt_field_sequence_text(name, ptr, count)
 *	ltt_field_integer_network(type, name, expr)	@expr's bytes as they are,
 *						declared big endian: a value
 *						already in network order
 *						(htonl()), which readers and
 *						filters see converted back
 *	ltt_field_integer_network_hex(type, name, expr)
 *	ltt_field_array_network(type, name, ptr, len)	@len big-endian integers
 *	ltt_field_sequence_network(type, name, ptr, count)
 *	ltt_field_array_bitfield(type, name, ptr, len)	the bits of @len integers,
 *						one-bit elements (LTT_KABI_FIELD's
 *						@bits 1); filters don't read them
 *	ltt_field_sequence_bitfield(type, name, ptr, count)	the same, counted:
 *						u32 count of bits, then the integers
 *
 * Each expression is evaluated once per call, and only while the event is
 * enabled in some channel; pointers must be valid kernel memory.
 *
 * A tracepoint event must be declared in a file that includes the
 * tracepoint's header (<trace/events/sched.h>): the compiler then checks
 * LTT_PROTO against the tracepoint's prototype.  The tracer finds the
 * tracepoint by name at load; an event whose tracepoint this kernel lacks
 * is not listed and cannot be enabled.
 */
#ifndef LTT_EVENT_H
#define LTT_EVENT_H

#include <asm/byteorder.h>
#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "ltt-filter.h"
#include "ltt-tracer.h"

#define LTT_PROTO(...)	(__VA_ARGS__)
#define LTT_FIELDS(...)	__VA_ARGS__

/*
 * Field tuples: (kind, type, name, expr, length, base, encoding, form);
 * form: 0, or LTT_FORM_BE (big endian), LTT_FORM_BITS (one-bit elements)
 */
#define LTT_FORM_BE	1
#define LTT_FORM_BITS	2
#define ltt_field_integer(type, name, expr)		(int, type, name, expr, 0, 10, 0, 0)
#define ltt_field_integer_hex(type, name, expr)		(int, type, name, expr, 0, 16, 0, 0)
#define ltt_field_integer_network(type, name, expr)	(int, type, name, expr, 0, 10, 0, LTT_FORM_BE)
#define ltt_field_integer_network_hex(type, name, expr)	(int, type, name, expr, 0, 16, 0, LTT_FORM_BE)
#define ltt_field_enum(type, name, expr, id)		(int, type, name, expr, id, 10, 0, 0)
#define ltt_field_string(name, expr)			(str, char, name, expr, 0, 0, 0, 0)
#define ltt_field_array(type, name, ptr, len)		(arr, type, name, ptr, len, 10, 0, 0)
#define ltt_field_array_hex(type, name, ptr, len)	(arr, type, name, ptr, len, 16, 0, 0)
#define ltt_field_array_text(name, ptr, len)		(arr, char, name, ptr, len, 10, 1, 0)
#define ltt_field_array_network(type, name, ptr, len)	(arr, type, name, ptr, len, 10, 0, LTT_FORM_BE)
#define ltt_field_array_bitfield(type, name, ptr, len)	(arr, type, name, ptr, len, 10, 0, LTT_FORM_BITS)
#define ltt_field_sequence(type, name, ptr, n)		(seq, type, name, ptr, n, 10, 0, 0)
#define ltt_field_sequence_hex(type, name, ptr, n)	(seq, type, name, ptr, n, 16, 0, 0)
#define ltt_field_sequence_text(name, ptr, n)		(seq, char, name, ptr, n, 10, 1, 0)
#define ltt_field_sequence_network(type, name, ptr, n)	(seq, type, name, ptr, n, 10, 0, LTT_FORM_BE)
#define ltt_field_sequence_bitfield(type, name, ptr, n)	(seq, type, name, ptr, n, 10, 0, LTT_FORM_BITS)

/* ---- internals ---- */

#define LTT_UNPAREN(...) __VA_ARGS__

/*
 * Walking the tuples "(t1)(t2)...(end, ...)": each step emits its output
 * for one tuple, then the name of the other step, which the next tuple's
 * parentheses call; the "end" tuple stops the walk.
 */
#define LTT_NEXT(kind, step)	LTT_NEXT_##kind(step)
#define LTT_NEXT_int(step)	step
#define LTT_NEXT_str(step)	step
#define LTT_NEXT_arr(step)	step
#define LTT_NEXT_seq(step)	step
#define LTT_NEXT_end(step)
#define LTT_WALK(pass, fields)	LTT_##pass##_A fields(end, 0, 0, 0, 0, 0, 0, 0)

#define LTT_DESC_A(kind, ...)	LTT_DESC_##kind(__VA_ARGS__) LTT_NEXT(kind, LTT_DESC_B)
#define LTT_DESC_B(kind, ...)	LTT_DESC_##kind(__VA_ARGS__) LTT_NEXT(kind, LTT_DESC_A)
#define LTT_LOCAL_A(kind, ...)	LTT_LOCAL_##kind(__VA_ARGS__) LTT_NEXT(kind, LTT_LOCAL_B)
#define LTT_LOCAL_B(kind, ...)	LTT_LOCAL_##kind(__VA_ARGS__) LTT_NEXT(kind, LTT_LOCAL_A)
#define LTT_SIZE_A(kind, ...)	LTT_SIZE_##kind(__VA_ARGS__) LTT_NEXT(kind, LTT_SIZE_B)
#define LTT_SIZE_B(kind, ...)	LTT_SIZE_##kind(__VA_ARGS__) LTT_NEXT(kind, LTT_SIZE_A)
#define LTT_WRITE_A(kind, ...)	LTT_WRITE_##kind(__VA_ARGS__) LTT_NEXT(kind, LTT_WRITE_B)
#define LTT_WRITE_B(kind, ...)	LTT_WRITE_##kind(__VA_ARGS__) LTT_NEXT(kind, LTT_WRITE_A)
#define LTT_ARG_A(kind, ...)	LTT_ARG_##kind(__VA_ARGS__) LTT_NEXT(kind, LTT_ARG_B)
#define LTT_ARG_B(kind, ...)	LTT_ARG_##kind(__VA_ARGS__) LTT_NEXT(kind, LTT_ARG_A)

#define LTT_IS_SIGNED(T)	((T)(-1) < (T)0)
#define LTT_INT_SIZE(T)		(sizeof(T) + BUILD_BUG_ON_ZERO(sizeof(T) != 1 && \
				 sizeof(T) != 2 && sizeof(T) != 4 && sizeof(T) != 8))

/*
 * A form's field flags, its elements' @bits, and how many elements of
 * the record one C integer of type T stands for
 */
#define LTT_FORM_FLAGS(F)	((F) & LTT_FORM_BE ? LTT_KABI_FIELD_BIG_ENDIAN : 0)
#define LTT_FORM_BIT(F)		((F) & LTT_FORM_BITS ? 1 : 0)
#define LTT_FORM_UNIT(T, F)	((F) & LTT_FORM_BITS ? sizeof(T) * 8 : 1)

/* The value big-endian @v of integer type T stands for (what filters read of it) */
#define LTT_FROM_BE(T, v) \
	((T)(sizeof(T) == 8 ? be64_to_cpu((__force __be64)(u64)(v)) : \
	     sizeof(T) == 4 ? be32_to_cpu((__force __be32)(u32)(v)) : \
	     sizeof(T) == 2 ? be16_to_cpu((__force __be16)(u16)(v)) : (v)))

/* pass 1: struct ltt_kabi_field initializers */
#define LTT_DESC_int(T, N, E, L, B, C, F) \
	{ .name = #N, .type = LTT_KABI_FIELD_INTEGER, .size = LTT_INT_SIZE(T), \
	  .is_signed = LTT_IS_SIGNED(T), .base = B, .enum_id = (L), .flags = LTT_FORM_FLAGS(F) },
#define LTT_DESC_str(T, N, E, L, B, C, F) \
	{ .name = #N, .type = LTT_KABI_FIELD_STRING, .size = 1 },
#define LTT_DESC_arr(T, N, E, L, B, C, F) \
	{ .name = #N, .type = LTT_KABI_FIELD_ARRAY, .size = LTT_INT_SIZE(T), \
	  .is_signed = LTT_IS_SIGNED(T) && !LTT_FORM_BIT(F), .base = B, \
	  .encoding = (C) + BUILD_BUG_ON_ZERO((C) && sizeof(T) != 1), \
	  .flags = LTT_FORM_FLAGS(F), .bits = LTT_FORM_BIT(F), \
	  .length = (L) * LTT_FORM_UNIT(T, F) + BUILD_BUG_ON_ZERO((L) < 1 || (L) > 65536) },
#define LTT_DESC_seq(T, N, E, L, B, C, F) \
	{ .name = #N, .type = LTT_KABI_FIELD_SEQUENCE, .size = LTT_INT_SIZE(T), \
	  .is_signed = LTT_IS_SIGNED(T) && !LTT_FORM_BIT(F), .base = B, \
	  .flags = LTT_FORM_FLAGS(F), .bits = LTT_FORM_BIT(F), \
	  .encoding = (C) + BUILD_BUG_ON_ZERO((C) && sizeof(T) != 1) },
#define LTT_DESC_end(...)

/* pass 2: evaluate each field once into a local (and check its name's length) */
#define LTT_CHECK_NAME(N) \
	static_assert(sizeof(#N) <= LTT_KABI_FIELD_NAME_MAX, "field name too long");
#define LTT_LOCAL_int(T, N, E, L, B, C, F) \
	T __ltt_v_##N = (T)(E); LTT_CHECK_NAME(N)
/* what a filter reads of an integer: its value, a big-endian one's converted */
#define LTT_FILTER_INT(T, N, F) \
	((F) & LTT_FORM_BE ? &(T){ LTT_FROM_BE(T, __ltt_v_##N) } : &__ltt_v_##N)
#define LTT_LOCAL_str(T, N, E, L, B, C, F) \
	const char *__ltt_v_##N = ltt_str_nonnull(E); \
	size_t __ltt_l_##N = strnlen(__ltt_v_##N, LTT_STRING_MAX - 1) + 1; \
	LTT_CHECK_NAME(N)
#define LTT_LOCAL_arr(T, N, E, L, B, C, F) \
	const T *__ltt_v_##N = (E); LTT_CHECK_NAME(N)
#define LTT_LOCAL_seq(T, N, E, L, B, C, F) \
	const T *__ltt_v_##N = (E); \
	u32 __ltt_l_##N = (u32)(L); \
	LTT_CHECK_NAME(N)
#define LTT_LOCAL_end(...)

/* pass 3: the payload's size */
#define LTT_SIZE_int(T, N, E, L, B, C, F)	+ sizeof(T)
#define LTT_SIZE_str(T, N, E, L, B, C, F)	+ __ltt_l_##N
#define LTT_SIZE_arr(T, N, E, L, B, C, F)	+ (size_t)(L) * sizeof(T)
#define LTT_SIZE_seq(T, N, E, L, B, C, F)	+ sizeof(u32) + (size_t)__ltt_l_##N * sizeof(T)
#define LTT_SIZE_end(...)

/* pass 4: the copy */
#define LTT_WRITE_int(T, N, E, L, B, C, F) \
	ltt_ctx_write(&__ctx, &__ltt_v_##N, sizeof(T));
#define LTT_WRITE_str(T, N, E, L, B, C, F) \
	ltt_ctx_write_string(&__ctx, __ltt_v_##N, __ltt_l_##N);
#define LTT_WRITE_arr(T, N, E, L, B, C, F) \
	ltt_ctx_write(&__ctx, __ltt_v_##N, (size_t)(L) * sizeof(T));
#define LTT_WRITE_seq(T, N, E, L, B, C, F) \
	ltt_ctx_write_u32(&__ctx, __ltt_l_##N * (u32)LTT_FORM_UNIT(T, F)); \
	ltt_ctx_write(&__ctx, __ltt_v_##N, (size_t)__ltt_l_##N * sizeof(T));
#define LTT_WRITE_end(...)

/* pass 5, filtered events only: the values a filter reads (struct ltt_filter_arg) */
#define LTT_ARG_int(T, N, E, L, B, C, F)	{ .p = LTT_FILTER_INT(T, N, F) },
#define LTT_ARG_str(T, N, E, L, B, C, F)	{ .p = __ltt_v_##N, .n = (u32)__ltt_l_##N },
#define LTT_ARG_arr(T, N, E, L, B, C, F)	{ .p = __ltt_v_##N, .n = (L) },
#define LTT_ARG_seq(T, N, E, L, B, C, F)	{ .p = __ltt_v_##N, .n = __ltt_l_##N },
#define LTT_ARG_end(...)

/* Record the event in target __i (the body of the probe's loops). */
#define __LTT_RECORD(fields_) \
	struct ltt_ctx __ctx; \
	\
	if (ltt_event_reserve(__desc, &__tg->t[__i], __len, &__ctx)) \
		continue; \
	LTT_WALK(WRITE, fields_) \
	ltt_event_commit(&__ctx);

static inline const char *ltt_str_nonnull(const char *s)
{
	return s ? s : "(null)";
}

static __always_inline void ltt_ctx_write(struct ltt_ctx *ctx, const void *src, size_t len)
{
	memcpy(ctx->p, src, len);
	ctx->p += len;
}

static __always_inline void ltt_ctx_write_u32(struct ltt_ctx *ctx, u32 v)
{
	ltt_ctx_write(ctx, &v, sizeof(v));
}

/*
 * The event's field array, record function and descriptor.  The record
 * function is the tracepoint probe: it disables preemption itself (the
 * RCU read side of the targets, and the per-CPU buffer), so it is correct
 * whichever way the tracepoint calls it.  Events no channel filters take
 * the first loop (one predictable branch more than before filters);
 * otherwise the field values already computed are handed to each
 * filtering target's programs before reserving.
 */
#define __LTT_EVENT(ev_, tp_, flags_, proto_, fields_) \
static struct ltt_event_desc __ltt_desc_##ev_; \
static const struct ltt_kabi_field __ltt_fields_##ev_[] = { \
	LTT_WALK(DESC, fields_) \
}; \
static_assert(ARRAY_SIZE(__ltt_fields_##ev_) <= LTT_KABI_MAX_FIELDS, \
	      "too many fields"); \
static notrace void __ltt_probe_##ev_(void *__data, LTT_UNPAREN proto_) \
{ \
	struct ltt_event_desc *__desc = __data; \
	struct ltt_targets *__tg; \
	\
	preempt_disable_notrace(); \
	__tg = rcu_dereference_sched(__desc->targets); \
	if (__tg) { \
		LTT_WALK(LOCAL, fields_) \
		size_t __len = 0 LTT_WALK(SIZE, fields_); \
		unsigned int __i; \
		\
		if (likely(!__tg->nr_filtered)) { \
			for (__i = 0; __i < __tg->nr; __i++) { \
				__LTT_RECORD(fields_) \
			} \
		} else { \
			const struct ltt_filter_arg __args[] = { LTT_WALK(ARG, fields_) }; \
			\
			for (__i = 0; __i < __tg->nr; __i++) { \
				if (__tg->t[__i].filter && \
				    !ltt_kfilter_accept(__tg->t[__i].filter, __args, \
							ARRAY_SIZE(__args))) \
					continue; \
				__LTT_RECORD(fields_) \
			} \
		} \
	} \
	preempt_enable_notrace(); \
} \
static struct ltt_event_desc __ltt_desc_##ev_ = { \
	.name = #ev_, \
	.tp_name = tp_, \
	.probe = (void *)__ltt_probe_##ev_, \
	.fields = __ltt_fields_##ev_, \
	.nr_fields = ARRAY_SIZE(__ltt_fields_##ev_), \
	.flags = flags_, \
}

/* An event recorded by calling ltt_event_call(name, args...). */
#define LTT_EVENT(ev_, proto_, fields_)	__LTT_EVENT(ev_, NULL, 0, proto_, fields_)
#define LTT_EVENT_FLAGS(ev_, flags_, proto_, fields_) \
	__LTT_EVENT(ev_, NULL, flags_, proto_, fields_)

/*
 * An event recorded by the kernel tracepoint @tp; the probe's prototype
 * is checked against register_trace_@tp() of the included trace header.
 */
#define LTT_TRACEPOINT_EVENT_FLAGS(ev_, tp_, flags_, proto_, fields_) \
	__LTT_EVENT(ev_, #tp_, flags_, proto_, fields_); \
static inline void __maybe_unused __ltt_check_##ev_(void) \
{ \
	if (0) \
		register_trace_##tp_(__ltt_probe_##ev_, NULL); \
}

#define LTT_TRACEPOINT_EVENT(ev_, tp_, proto_, fields_) \
	LTT_TRACEPOINT_EVENT_FLAGS(ev_, tp_, 0, proto_, fields_)

#define LTT_EVENT_DESC(name)	(&__ltt_desc_##name)

/* Record @name (declared by LTT_EVENT) with the given arguments. */
#define ltt_event_call(name, ...)	__ltt_probe_##name(&__ltt_desc_##name, __VA_ARGS__)

/*
 * The group of events of one probe file, named ltt_probe_@pname; add
 * X(@pname) to LTT_PROBES in probes/ltt-probes.h.  LTT_PROBE_HOOKS adds
 * @activate_fn and @deactivate_fn (struct ltt_probe says when they run).
 */
#define LTT_PROBE_GROUP(pname, init_fn, exit_fn, activate_fn, deactivate_fn, external_, ...) \
static struct ltt_event_desc * const __ltt_probe_events_##pname[] = { __VA_ARGS__ }; \
struct ltt_probe ltt_probe_##pname = { \
	.name = #pname, \
	.events = __ltt_probe_events_##pname, \
	.nr_events = ARRAY_SIZE(__ltt_probe_events_##pname), \
	.init = init_fn, \
	.exit = exit_fn, \
	.activate = activate_fn, \
	.deactivate = deactivate_fn, \
	.external = external_, \
}

#define LTT_PROBE_HOOKS(pname, init_fn, exit_fn, activate_fn, deactivate_fn, ...) \
	LTT_PROBE_GROUP(pname, init_fn, exit_fn, activate_fn, deactivate_fn, false, __VA_ARGS__)

#define LTT_PROBE(pname, init_fn, exit_fn, ...) \
	LTT_PROBE_HOOKS(pname, init_fn, exit_fn, NULL, NULL, __VA_ARGS__)

/*
 * A group whose events another module records: they exist (LIST,
 * EVENT_DESC, EVENT_ENABLE) only while that module has called
 * ltt_probe_set_present(&ltt_probe_@pname, true) (struct ltt_probe's
 * @external)
 */
#define LTT_PROBE_EXTERNAL(pname, ...) \
	LTT_PROBE_GROUP(pname, NULL, NULL, NULL, NULL, true, __VA_ARGS__)

#endif /* LTT_EVENT_H */
