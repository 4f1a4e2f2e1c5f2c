/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ctl-internal.h - what the modules of libltt-ctl share and export to no
 * one: ltt-ctl.c (connections, the client protocol), config.c (save and
 * load), config-xml.c (the XML format of saved sessions).
 */
#ifndef LTT_LIB_CTL_INTERNAL_H
#define LTT_LIB_CTL_INTERNAL_H

#include <stddef.h>

#include <ltt/ltt-ctl.h>

/* Bytes of a connection's error detail, NUL included. */
#define LTT_LIB_DETAIL_MAX 1024

/**
 * ltt_lib_detail() - @ctl's error detail buffer (LTT_LIB_DETAIL_MAX
 * bytes), emptied, for a call to describe its failure in; see
 * ltt_ctl_error_detail().  Same thread as the call.
 */
char *ltt_lib_detail(struct ltt_ctl *ctl);

#endif /* LTT_LIB_CTL_INTERNAL_H */
