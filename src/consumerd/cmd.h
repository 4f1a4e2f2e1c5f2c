/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd.h - the command thread (the main thread): reads the session
 * daemon's commands (common/consumer-proto.h) on the command socket,
 * validates each one, carries it out and replies, in order.
 *
 * It owns the registry of traces and channels.  A trace lives on this
 * thread only; a channel is handed to the data thread, which owns its
 * streams, and everything that touches streams is a synchronous request
 * to the data thread (data.h).  A command is validated whole before
 * anything changes: a malformed command, an unknown key, a duplicate or a
 * wrong number of fds gets an error reply and changes nothing.
 */
#ifndef LTT_CONSUMERD_CMD_H
#define LTT_CONSUMERD_CMD_H

#include "consumerd/data.h"

/* Limits on what the session daemon may ask for. */
#define LTT_CMD_MAX_TRACES 4096
#define LTT_CMD_MAX_CHANNELS 65536
#define LTT_CMD_MAX_RELAYS 1024

/**
 * ltt_cmd_run() - serve the session daemon until it closes the socket or
 * a SIGTERM arrives; then final-flush and close every channel and trace
 * @cmd_fd: the command socket (borrowed)
 * @signal_fd: a signalfd that reports SIGTERM (borrowed)
 * @dt: the data thread (borrowed; the caller stops it afterwards)
 *
 * Main thread.  Returns 0 after a clean end (socket closed, SIGTERM), or
 * 1 when the session daemon broke the framing (bad magic or length) and
 * we could not go on; everything has been flushed and closed either way.
 */
int ltt_cmd_run(int cmd_fd, int signal_fd, struct ltt_data_thread *dt);

#endif /* LTT_CONSUMERD_CMD_H */
