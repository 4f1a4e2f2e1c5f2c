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

/**
 * ltt_lib_load_path() - load the saved sessions of @path on the daemon of
 * @rundir: ltt_ctl_load_sessions() for a session daemon loading at start
 * (src/sessiond/autoload.c), which thus names no public struct
 * @path: a file, or a directory of .ltt files
 * @loaded: called with each session loaded and its file (borrowed)
 * @err: receives what failed, with the file and line ("" if nothing to add)
 * @errlen: size of @err
 *
 * Connects (the daemon's client thread must serve), loads, disconnects.
 * Returns 0 or the load's (or the connection's) -LTT_ERR_* code.
 */
int ltt_lib_load_path(const char *rundir, const char *path,
		      void (*loaded)(const char *name, const char *file), char *err,
		      size_t errlen);

#endif /* LTT_LIB_CTL_INTERNAL_H */
