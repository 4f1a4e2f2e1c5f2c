/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ref-tp.h - the reference tracepoint description of the app protocol's
 * tests: every field type, a signed and an unsigned enumeration (one
 * with overlapping ranges and a repeated label), a label to escape.
 * test_app_proto.c breaks it one thing at a time, test_app_msgs.c sends
 * it in a TRACEPOINTS message, tests/fuzz/seed-tp.c seeds fuzz_app and
 * fuzz_tsdl with it.
 */
#ifndef LTT_TESTS_REF_TP_H
#define LTT_TESTS_REF_TP_H

#include "common/proto/app-proto.h"

#define REF_NR_FIELDS 13
#define REF_NR_SIGNED_ENTRIES 3

extern const struct ltt_ust_enum_entry ref_signed_entries[REF_NR_SIGNED_ENTRIES];
extern const struct ltt_ust_enum_desc ref_signed_enum;	/* of field "e1" */
extern const struct ltt_ust_field ref_fields[REF_NR_FIELDS];
extern const struct ltt_ust_tracepoint ref_tp;		/* "my_prov-1.x:event_2" */

#endif /* LTT_TESTS_REF_TP_H */
