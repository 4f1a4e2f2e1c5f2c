/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ltt-ctl.h - libltt-ctl, the public control library of ltt.
 *
 * Everything lttctl does goes through these calls, so scripts and other
 * programs can drive a session daemon the same way.  Include this header:
 * it includes one header per area of the API, each with its calls and
 * their structs (ltt-ctl-common.h: sizes, enums and the connection;
 * -session.h: sessions, channels, event rules; -chunk.h: rotation, clear,
 * regenerate; -snapshot.h; -context.h; -tracker.h; -trigger.h: triggers
 * and notifications; -config.h: save and
 * load).
 *
 * Conventions:
 *  - Every call returns 0 on success or a negated enum ltt_error_code
 *    (see ltt-error.h); ltt_strerror() gives a sentence for it.
 *  - Out-parameters are named ret_* and are set only on success.  Arrays
 *    returned through them are one heap block: free them with free().
 *  - A struct ltt_ctl is one connection.  It is not thread-safe: use one
 *    per thread.
 *  - Strings are NUL-terminated UTF-8 / ASCII.
 *
 * ABI (doc/libltt-ctl.md, "ABI rules"):
 *  - Every struct of these headers ends with reserved room, `uint8_t reserved[N]`,
 *    8-byte aligned (LTT_RESERVED_ALIGN).  Its size and the offset of each
 *    field are frozen (tests/unit/ctl/test_abi.c): a later version adds a
 *    field by taking whole 8-byte units from the front of the reserved
 *    room, never by moving, resizing or removing a field or growing the
 *    struct.
 *  - Structs you pass in must have their reserved room zeroed: use the
 *    ltt_ctl_*_attr_init() calls, or "= { 0 }" / memset().  A library
 *    that finds a non-zero reserved byte does not know the field a newer
 *    <ltt/ltt-ctl.h> put there, and refuses the call with
 *    -LTT_ERR_NOT_SUPPORTED rather than ignore it.
 *  - Structs the library returns have their reserved room zeroed, so a
 *    field added later reads 0 from an older library: 0 must mean "not
 *    set" or "the old behaviour" for every field added.
 *  - The library exports the functions of these headers only, in the
 *    symbol versions LTT_CTL_1 to LTT_CTL_1.8 (soname libltt-ctl.so.1).
 */
#ifndef LTT_CTL_H
#define LTT_CTL_H

#include <ltt/ltt-ctl-common.h>
#include <ltt/ltt-ctl-session.h>
#include <ltt/ltt-ctl-chunk.h>
#include <ltt/ltt-ctl-snapshot.h>
#include <ltt/ltt-ctl-context.h>
#include <ltt/ltt-ctl-tracker.h>
#include <ltt/ltt-ctl-trigger.h>
#include <ltt/ltt-ctl-map.h>
#include <ltt/ltt-ctl-config.h>

#endif /* LTT_CTL_H */
