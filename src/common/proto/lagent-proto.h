/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * lagent-proto.h - LTTng's agent protocol, version 2.0, which the session
 * daemon speaks to LTTng's own agents (Debian's python3-lttngust and
 * liblttng-ust-agent-java: JUL and log4j) so they register with ltt's
 * daemon unchanged (doc/agents.md).  Learnt from those agents as Debian
 * 12 ships them (2.13.5) and from lttng-sessiond 2.13.9's bytes on the
 * wire; the numbers are LTTng's and are never reused.
 *
 * TCP on 127.0.0.1; the agent connects to the port it reads (decimal
 * text) from /var/run/lttng/agent.port (the root daemon's) and from
 * $LTTNG_HOME/.lttng/agent.port ($HOME without LTTNG_HOME).  Every
 * integer is big-endian.
 *
 *   agent  -> REGISTER {u32 domain, u32 pid, u32 major, u32 minor} (16 bytes)
 *   daemon -> ENABLE ... for the rules that want it, then REGISTRATION_DONE,
 *             which ends the agent's bounded wait at start
 *   daemon -> LIST, ENABLE, DISABLE as users list, enable and disable
 *
 * A daemon command is a 16-byte header {u64 data_size, u32 cmd,
 * u32 cmd_version (0)} then data_size bytes (LTT_LAGENT_CMDS: each
 * command's payload and reply).  The agent answers each command but
 * REGISTRATION_DONE, in order, starting with {u32 status}
 * (LTT_LAGENT_STATUS_*):
 *
 *   LIST    {}                 -> {u32 status, u32 data_size, u32 count}
 *                                 then data_size bytes: count names,
 *                                 each NUL-terminated
 *   ENABLE  {u32 loglevel, u32 loglevel_type, char name[256],
 *            u32 filter_len, filter_len bytes (NUL included; 0: none)}
 *                              -> {u32 status}
 *   DISABLE {char name[256]}   -> {u32 status}
 *
 * The filter an ENABLE carries is the one LTTng makes of the rule for
 * its tracepoint (ltt_lagent_filter()); the Python agent only counts
 * ENABLEs and DISABLEs, the Java agents count them per name.
 */
#ifndef LTT_COMMON_LAGENT_PROTO_H
#define LTT_COMMON_LAGENT_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "common/base/codec.h"

#define LTT_LAGENT_MAJOR 2
#define LTT_LAGENT_MINOR 0

#define LTT_LAGENT_REGISTER_SIZE 16
#define LTT_LAGENT_CMD_HDR_SIZE 16
#define LTT_LAGENT_NAME_SIZE 256	/* ENABLE's and DISABLE's name, NUL-padded */
#define LTT_LAGENT_STATUS_SIZE 4
#define LTT_LAGENT_LIST_HDR_SIZE 12	/* LIST's reply before its names */
#define LTT_LAGENT_LIST_MAX (1U << 20)	/* bytes of names one LIST reply may hold */
#define LTT_LAGENT_LIST_NAMES_MAX 65536	/* names one LIST reply may hold */

/* The agents' answers. */
#define LTT_LAGENT_STATUS_SUCCESS 1
#define LTT_LAGENT_STATUS_INVALID_CMD 2
#define LTT_LAGENT_STATUS_UNKNOWN_NAME 3	/* ENABLE's or DISABLE's logger unknown */

/*
 * X(NAME, number, domain's name in messages): the agents' domains (LTTng's
 * domain numbers).
 */
#define LTT_LAGENT_DOMAINS(X)		\
	X(JUL, 3, "JUL")		\
	X(LOG4J, 4, "log4j")		\
	X(PYTHON, 5, "python")

enum ltt_lagent_domain {
#define LTT_LAGENT_DOMAIN_ENUM(name, num, text) LTT_LAGENT_DOMAIN_##name = num,
	LTT_LAGENT_DOMAINS(LTT_LAGENT_DOMAIN_ENUM)
#undef LTT_LAGENT_DOMAIN_ENUM
};

/*
 * X(NAME, number, payload size (at least), reply size (at least; 0: no
 * reply)): the daemon's commands.  APP_CTX_ENABLE and APP_CTX_DISABLE
 * (5, 6: the Java agents' application contexts) are LTTng's and
 * reserved; ltt sends neither.
 */
#define LTT_LAGENT_CMDS(X)							\
	X(LIST, 1, 0, LTT_LAGENT_LIST_HDR_SIZE)					\
	X(ENABLE, 2, 8 + LTT_LAGENT_NAME_SIZE + 4, LTT_LAGENT_STATUS_SIZE)	\
	X(DISABLE, 3, LTT_LAGENT_NAME_SIZE, LTT_LAGENT_STATUS_SIZE)		\
	X(REGISTRATION_DONE, 4, 0, 0)

enum ltt_lagent_cmd {
#define LTT_LAGENT_CMD_ENUM(name, num, size, reply) LTT_LAGENT_##name = num,
	LTT_LAGENT_CMDS(LTT_LAGENT_CMD_ENUM)
#undef LTT_LAGENT_CMD_ENUM
};

/* What an agent registers with. */
struct ltt_lagent_register {
	uint32_t domain;	/* enum ltt_lagent_domain */
	uint32_t pid;
	uint32_t major;
	uint32_t minor;
};

/**
 * ltt_lagent_register_decode() - REGISTER from @buf
 * (LTT_LAGENT_REGISTER_SIZE bytes)
 *
 * Returns 0, -EPROTO for a domain LTTng has no agent for or a pid of 0,
 * or -EPROTONOSUPPORT for another major (@ret_reg filled then, for the
 * message).
 */
int ltt_lagent_register_decode(const uint8_t *buf, struct ltt_lagent_register *ret_reg);

/** ltt_lagent_domain_name() - "python", "JUL"...; "?" for no agent domain */
const char *ltt_lagent_domain_name(uint32_t domain);

/** ltt_lagent_cmd_name() - "ENABLE"...; "?" for no command */
const char *ltt_lagent_cmd_name(uint32_t cmd);

/**
 * ltt_lagent_reply_size() - the bytes of command @cmd's reply
 * @buf: what was received of it so far, @len bytes
 * @ret_size: set when 0 is returned: the reply's whole size (LIST's
 *            depends on its head; until that is here, the head's)
 *
 * Returns 0, or -EPROTO for a LIST reply that announces more than
 * LTT_LAGENT_LIST_MAX bytes.
 */
int ltt_lagent_reply_size(uint32_t cmd, const uint8_t *buf, size_t len, size_t *ret_size);

/**
 * ltt_lagent_status_decode() - the status at the head of a reply
 * (at least LTT_LAGENT_STATUS_SIZE bytes)
 */
uint32_t ltt_lagent_status_decode(const uint8_t *buf);

/**
 * ltt_lagent_list_decode() - check a whole LIST reply (@len bytes, as
 * ltt_lagent_reply_size() measured it) and hand each logger name to
 * @fn(@arg, name) in order (borrowed for the call)
 * @ret_status: the agent's status; with a status other than SUCCESS the
 *              names are not read
 *
 * Names are 1 to LTT_LAGENT_NAME_SIZE - 1 bytes without control
 * characters, exactly count of them filling data_size.  Returns 0, or
 * -EPROTO (nothing handed on) for anything else.
 */
int ltt_lagent_list_decode(const uint8_t *buf, size_t len, uint32_t *ret_status,
			   void (*fn)(void *arg, const char *name), void *arg);

/**
 * ltt_lagent_put_cmd() - a command without payload (LIST,
 * REGISTRATION_DONE), header included, at the end of @w
 */
void ltt_lagent_put_cmd(struct ltt_wbuf *w, enum ltt_lagent_cmd cmd);

/**
 * ltt_lagent_put_enable() - ENABLE, header included
 * @name: the logger name or pattern, shorter than LTT_LAGENT_NAME_SIZE
 * @filter: NULL or "" for none
 *
 * A name too long sets @w's error (-EINVAL).
 */
void ltt_lagent_put_enable(struct ltt_wbuf *w, int32_t loglevel, uint32_t loglevel_type,
			   const char *name, const char *filter);

/** ltt_lagent_put_disable() - DISABLE of @name, header included, as put_enable */
void ltt_lagent_put_disable(struct ltt_wbuf *w, const char *name);

/**
 * ltt_lagent_filter() - the filter LTTng sends with ENABLE for a rule:
 * @user (its own filter, "" none), then (logger_name == "@name") unless
 * @name is "*", then (int_loglevel >= / == @loglevel) for a RANGE or
 * SINGLE @loglevel_type, each added as "(SO_FAR) && (TERM)"
 * @buf: receives it, "" when nothing applies
 *
 * Returns 0, or -E2BIG when @size is too small.
 */
int ltt_lagent_filter(char *buf, size_t size, const char *user, const char *name,
		      uint32_t loglevel_type, int32_t loglevel);

#endif /* LTT_COMMON_LAGENT_PROTO_H */
