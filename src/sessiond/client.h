/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client.h - the client thread: accepts connections on client.sock,
 * checks each peer's credentials, frames requests without ever blocking
 * on one client, and runs the commands (cmd.h).
 */
#ifndef LTT_SESSIOND_CLIENT_H
#define LTT_SESSIOND_CLIENT_H

#include <stdbool.h>
#include <sys/types.h>

#include "sessiond/model/domain.h"
#include "sessiond/model/session.h"

#define LTT_MAX_CLIENTS 256
#define LTT_MAX_CLIENTS_PER_UID 64	/* default; root is not limited */
/*
 * Default idle deadline of a client connection between two requests:
 * lttctl's connections last one command, and libltt-ctl reconnects by
 * itself when it finds its connection closed; so the cap's 64 slots of a
 * user are not held by forgotten connections longer than this.
 */
#define LTT_CLIENT_IDLE_TIMEOUT_S 30
#define LTT_CLIENT_HELLO_TIMEOUT_MS 5000	/* a client must say HELLO by then */
#define LTT_CLIENT_RECV_TIMEOUT_MS 5000	/* a request begun must be whole by then */
#define LTT_CLIENT_SEND_TIMEOUT_MS 10000	/* a reply must be taken by then */
#define LTT_CLIENT_PRE_HELLO_MAX 4096	/* payload bytes of a request before HELLO */

struct ltt_client_thread_config {
	int listen_fd;		/* taken: closed by ltt_client_thread_stop() */
	struct ltt_session_registry *registry;	/* borrowed */
	const struct ltt_domains *domains;	/* borrowed */
	bool root_daemon;
	gid_t tracing_gid;	/* root daemon: the group allowed besides root */
	const char *tracing_group;	/* its name, borrowed */
	bool has_tracing_group;
	unsigned int max_per_uid;	/* connections per user, root not limited; 0: default */
	unsigned int idle_timeout_ms;	/* close a connection idle so long; 0: never */
};

struct ltt_client_thread;

/**
 * ltt_client_thread_start() - start serving clients
 * @cfg: copied
 * @ret_thread: to stop with ltt_client_thread_stop()
 *
 * Returns 0 or a negative errno; on error the listening socket is closed.
 */
int ltt_client_thread_start(const struct ltt_client_thread_config *cfg,
			    struct ltt_client_thread **ret_thread);

/**
 * ltt_client_thread_stop() - stop the thread, close every connection and
 * free it; accepts NULL.  Called from the thread that started it.
 */
void ltt_client_thread_stop(struct ltt_client_thread *thread);

#endif /* LTT_SESSIOND_CLIENT_H */
