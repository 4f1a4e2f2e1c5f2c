/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * uri.h - parsing trace output URLs.
 *
 * Accepted forms, as users of tracing tools know them:
 *   file:///ABS/PATH                     a local directory
 *   net://HOST[:CTRL[:DATA]][/PATH]      a relay daemon, IPv4 or a host name
 *   net4://...                           same, IPv4 only
 *   net6://[ADDR][:CTRL[:DATA]][/PATH]   a relay daemon over IPv6
 *   tls://, tls4://, tls6://             as net, net4, net6, both
 *                                        connections in TLS 1.3
 *   tcp://HOST[:PORT][/PATH]             one relay port (-C/-D style)
 *   tcp4://..., tcp6://[ADDR]...
 * HOST is a name of letters, digits, '-' and '.' (at most 253 bytes, in
 * labels of 1..63 bytes that neither start nor end with '-') or an IPv4
 * literal; text of only digits and dots must be a valid IPv4 literal.  IPv6
 * literals go in brackets, and only net6/tcp6 take them (and only them).
 * Ports are 1..65535 in decimal without leading zeros; with net URLs the
 * defaults are 5342 (control) and 5343 (data), and both may not be equal.
 * PATH is relative to the relay's output directory: it must not start with
 * '/' nor have a ".." component.  A file path is absolute, without "..".
 * Schemes are lower case.  A URL is at most 4095 bytes, without control
 * characters, and so is its canonical text (see ltt_uri_format()).
 */
#ifndef LTT_COMMON_URI_H
#define LTT_COMMON_URI_H

#include <stdbool.h>
#include <stdint.h>

#define LTT_DEFAULT_RELAYD_CTRL_PORT 5342
#define LTT_DEFAULT_RELAYD_DATA_PORT 5343
#define LTT_DEFAULT_RELAYD_LIVE_PORT 5344

/* Bytes that hold any URL text, NUL included. */
#define LTT_URI_TEXT_SIZE 4096

enum ltt_uri_scheme {
	LTT_URI_FILE = 1,
	LTT_URI_NET = 2,	/* control and data ports */
	LTT_URI_TCP = 3,	/* one port */
};

enum ltt_uri_family {
	LTT_URI_ANY = 0,	/* a host name: resolved later; also file URLs */
	LTT_URI_INET = 4,	/* an IPv4 literal, or a name from net4/tcp4 */
	LTT_URI_INET6 = 6,	/* an IPv6 literal */
};

struct ltt_uri {
	enum ltt_uri_scheme scheme;
	enum ltt_uri_family family;
	char host[256];		/* without brackets; empty for file */
	uint16_t ctrl_port;	/* net: control; tcp: the port (0 if none given) */
	uint16_t data_port;	/* net only */
	char path[4096];	/* file: absolute path; net/tcp: relative, may be "" */
	bool tls;		/* a tls:// URL (TLS 1.3 to the relay); tcp URLs
				 * carry it between ltt_uri_net_port() and
				 * ltt_uri_net_from_tcp() but never print it */
};

/**
 * ltt_uri_parse() - parse and validate a URL
 * @text: the URL, borrowed
 * @ret_uri: the parsed URL, set only on success
 *
 * Returns 0, or -EINVAL (also for NULL arguments) with @ret_uri untouched.
 */
int ltt_uri_parse(const char *text, struct ltt_uri *ret_uri);

/**
 * ltt_uri_format() - the canonical text of a URL (defaults made explicit)
 * @uri: a URL as ltt_uri_parse() fills it
 * @buf: where to write; LTT_URI_TEXT_SIZE bytes always suffice
 * @len: size of @buf
 *
 * net URLs always show both ports; an IPv4 literal gets "net://", a name
 * from net4 "net4://".  Parsing the text gives back @uri.
 *
 * Returns 0, -ENOSPC if @buf is too small (it then holds truncated,
 * NUL-terminated text if @len > 0), or -EINVAL for a NULL argument or an
 * unknown scheme or family.
 */
int ltt_uri_format(const struct ltt_uri *uri, char *buf, unsigned long len);

/**
 * ltt_uri_net_from_tcp() - the net URL of a relay given by its two ports
 * (lttctl create -C URL -D URL)
 * @ctrl: a tcp URL of the control port (5342 when it has none); its path
 *        and tls flag are the net URL's
 * @data: a tcp URL of the data port (5343 when it has none), of the same
 *        host and family as @ctrl, without a path
 * @ret_uri: the net URL, set only on success
 *
 * Returns 0, or -EINVAL: not two tcp URLs, different hosts or families, a
 * path on @data, or equal ports.
 */
int ltt_uri_net_from_tcp(const struct ltt_uri *ctrl, const struct ltt_uri *data,
			 struct ltt_uri *ret_uri);

/**
 * ltt_uri_net_port() - the tcp URL of one port of a net URL, without path
 * @net: a net URL
 * @data: false for its control port, true for its data port
 * @ret_uri: the tcp URL
 *
 * Returns 0, or -EINVAL if @net is not a net URL.
 */
int ltt_uri_net_port(const struct ltt_uri *net, int data, struct ltt_uri *ret_uri);

/**
 * ltt_uri_net_pair() - the control and data URLs of net URL @net, as one
 * gives them apart (LTTng's --ctrl-url and --data-url):
 * "tcp://HOST:CTRL/PATH" and "tcp://HOST:DATA"
 * @ctrl, @data: where to write, @len bytes each (LTT_URI_TEXT_SIZE
 * always suffices)
 *
 * Returns 0, -ENOSPC if @len is too small, or -EINVAL if @net is no net URL.
 */
int ltt_uri_net_pair(const char *net, char *ctrl, char *data, unsigned long len);

/**
 * ltt_uri_format_lttng() - one port of a relay's net URL as LTTng's lists
 * and MI give it: "tcp4://HOST:PORT/PATH" ("tcp6://[ADDR]:PORT/PATH")
 * @uri: a net URL
 * @data: false for its control port, true for its data port
 * @buf: @len: where to write; LTT_URI_TEXT_SIZE bytes always suffice
 * Returns 0, -ENOSPC if @buf is too small, or -EINVAL if @uri is not a
 * net URL.
 */
int ltt_uri_format_lttng(const struct ltt_uri *uri, int data, char *buf, unsigned long len);

/**
 * ltt_uri_lttng_path() - a session's output as LTTng's session list gives
 * its path: a relay's "tcp4://HOST:CTRL/PATH [data: DATA]", anything else
 * (a directory, a tls:// URL, which LTTng has no form for) as it is
 * @output: a directory or a URL, borrowed
 * @buf: @len: where to write (truncated to fit)
 */
void ltt_uri_lttng_path(const char *output, char *buf, unsigned long len);

#endif /* LTT_COMMON_URI_H */
