// SPDX-License-Identifier: LGPL-2.1-only
/*
 * uri.c - parsing trace output URLs.
 *
 * The parser works on a copy and hands it out only once every part is
 * valid, so a caller's struct is never half-written.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/model/uri.h"

#define URI_PATH_SIZE sizeof(((struct ltt_uri *)NULL)->path)
/* The longest URL, NUL excluded; any of its parts fits in struct ltt_uri. */
#define URI_TEXT_MAX (URI_PATH_SIZE - 1)
#define HOST_NAME_LEN_MAX 253
#define HOST_LABEL_LEN_MAX 63

_Static_assert(sizeof(((struct ltt_uri *)NULL)->host) > HOST_NAME_LEN_MAX &&
	       sizeof(((struct ltt_uri *)NULL)->host) >= INET6_ADDRSTRLEN,
	       "ltt_uri.host holds any host name or IPv6 literal");

static const struct scheme {
	const char *prefix;
	enum ltt_uri_scheme scheme;
	enum ltt_uri_family family;
	bool tls;
} schemes[] = {
	{ "file://", LTT_URI_FILE, LTT_URI_ANY, false },
	{ "net://", LTT_URI_NET, LTT_URI_ANY, false },
	{ "net4://", LTT_URI_NET, LTT_URI_INET, false },
	{ "net6://", LTT_URI_NET, LTT_URI_INET6, false },
	{ "tls://", LTT_URI_NET, LTT_URI_ANY, true },
	{ "tls4://", LTT_URI_NET, LTT_URI_INET, true },
	{ "tls6://", LTT_URI_NET, LTT_URI_INET6, true },
	{ "tcp://", LTT_URI_TCP, LTT_URI_ANY, false },
	{ "tcp4://", LTT_URI_TCP, LTT_URI_INET, false },
	{ "tcp6://", LTT_URI_TCP, LTT_URI_INET6, false },
};

static bool is_ascii_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool is_ipv4_literal(const char *host)
{
	struct in_addr addr;

	return inet_pton(AF_INET, host, &addr) == 1;
}

/* No byte of @s is a control character (C0 or DEL). */
static bool no_control_chars(const char *s)
{
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	}
	return true;
}

/* No component of @path is "..". */
static bool path_valid(const char *path)
{
	const char *p = path;
	size_t n;

	for (;;) {
		n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return false;
		if (!p[n])
			return true;
		p += n + 1;
	}
}

/*
 * Dot-separated labels of 1..63 letters, digits and '-', none starting or
 * ending with '-' (RFC 1123).
 */
static bool host_name_valid(const char *host)
{
	size_t label = 0;
	char prev = '.';
	const char *p;

	for (p = host; *p; prev = *p++) {
		if (*p == '.') {
			if (!label || prev == '-')
				return false;
			label = 0;
		} else if (is_ascii_alnum(*p) || *p == '-') {
			if (*p == '-' && !label)
				return false;
			if (++label > HOST_LABEL_LEN_MAX)
				return false;
		} else {
			return false;
		}
	}
	return label && prev != '-';
}

/*
 * Parse the host at @s into @host (of sizeof(struct ltt_uri.host) bytes)
 * and refine *@family.  Returns where the host ends, or NULL.
 */
static const char *parse_host(const char *s, enum ltt_uri_family *family, char *host)
{
	struct in6_addr addr6;
	const char *end;
	size_t n;

	if (*s == '[') {
		if (*family != LTT_URI_INET6)
			return NULL;
		end = strchr(++s, ']');
		if (!end)
			return NULL;
		n = (size_t)(end - s);
		if (!n || n >= INET6_ADDRSTRLEN)
			return NULL;
		memcpy(host, s, n);
		host[n] = '\0';
		if (inet_pton(AF_INET6, host, &addr6) != 1)
			return NULL;
		return end + 1;
	}
	if (*family == LTT_URI_INET6)
		return NULL;
	n = strcspn(s, ":/");
	if (!n || n > HOST_NAME_LEN_MAX)
		return NULL;
	memcpy(host, s, n);
	host[n] = '\0';
	if (strspn(host, "0123456789.") == n) {
		/* Looks like an address: it must be one. */
		if (!is_ipv4_literal(host))
			return NULL;
		*family = LTT_URI_INET;
	} else if (!host_name_valid(host)) {
		return NULL;
	}
	return s + n;
}

/*
 * Parse a port of 1..65535 in decimal without leading zeros, ending at
 * ':', '/' or the end.  Returns where it ends, or NULL.
 */
static const char *parse_port(const char *s, uint16_t *ret_port)
{
	unsigned long v = 0;
	const char *p;

	if (*s < '1' || *s > '9')
		return NULL;
	for (p = s; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > UINT16_MAX)
			return NULL;
	}
	if (*p && *p != ':' && *p != '/')
		return NULL;
	*ret_port = (uint16_t)v;
	return p;
}

/* file:// then an absolute path. */
static int parse_file(const char *p, struct ltt_uri *uri)
{
	if (*p != '/' || !path_valid(p))
		return -EINVAL;
	strcpy(uri->path, p);
	return 0;
}

/* HOST[:PORT[:PORT]][/PATH] of net and tcp URLs. */
static int parse_remote(const char *p, struct ltt_uri *uri)
{
	p = parse_host(p, &uri->family, uri->host);
	if (!p)
		return -EINVAL;
	if (*p == ':') {
		p = parse_port(p + 1, &uri->ctrl_port);
		if (!p)
			return -EINVAL;
		if (*p == ':') {
			if (uri->scheme != LTT_URI_NET)
				return -EINVAL;
			p = parse_port(p + 1, &uri->data_port);
			if (!p)
				return -EINVAL;
		}
	}
	if (*p == '/') {
		p++;
		/* Relative to the relay's output directory. */
		if (*p == '/' || !path_valid(p))
			return -EINVAL;
		strcpy(uri->path, p);
	} else if (*p) {
		return -EINVAL;
	}
	if (uri->scheme == LTT_URI_NET) {
		if (!uri->ctrl_port)
			uri->ctrl_port = LTT_DEFAULT_RELAYD_CTRL_PORT;
		if (!uri->data_port)
			uri->data_port = LTT_DEFAULT_RELAYD_DATA_PORT;
		if (uri->ctrl_port == uri->data_port)
			return -EINVAL;
	}
	return 0;
}

/* The text of a net or tcp URL, as snprintf() counts it, or -1. */
static int format_remote(const struct ltt_uri *uri, char *buf, unsigned long len)
{
	const char *base, *suffix = "", *open = "", *close = "";
	char ports[16] = "";

	switch (uri->scheme) {
	case LTT_URI_NET:
		base = uri->tls ? "tls" : "net";
		snprintf(ports, sizeof(ports), ":%u:%u", uri->ctrl_port, uri->data_port);
		break;
	case LTT_URI_TCP:
		base = "tcp";
		if (uri->ctrl_port)
			snprintf(ports, sizeof(ports), ":%u", uri->ctrl_port);
		break;
	default:
		return -1;
	}
	switch (uri->family) {
	case LTT_URI_ANY:
		break;
	case LTT_URI_INET:
		/* An address says its family; a name needs the 4. */
		if (!is_ipv4_literal(uri->host))
			suffix = "4";
		break;
	case LTT_URI_INET6:
		suffix = "6";
		open = "[";
		close = "]";
		break;
	default:
		return -1;
	}
	return snprintf(buf, len, "%s%s://%s%.255s%s%s%s%.4095s", base, suffix, open,
			uri->host, close, ports, uri->path[0] ? "/" : "", uri->path);
}

int ltt_uri_parse(const char *text, struct ltt_uri *ret_uri)
{
	const struct scheme *sc = NULL;
	struct ltt_uri uri;
	const char *rest;
	size_t i;
	int ret;

	if (!text || !ret_uri)
		return -EINVAL;
	if (strnlen(text, URI_TEXT_MAX + 1) > URI_TEXT_MAX || !no_control_chars(text))
		return -EINVAL;
	for (i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++) {
		if (!strncmp(text, schemes[i].prefix, strlen(schemes[i].prefix))) {
			sc = &schemes[i];
			break;
		}
	}
	if (!sc)
		return -EINVAL;
	rest = text + strlen(sc->prefix);
	memset(&uri, 0, sizeof(uri));
	uri.scheme = sc->scheme;
	uri.family = sc->family;
	uri.tls = sc->tls;
	if (uri.scheme == LTT_URI_FILE)
		ret = parse_file(rest, &uri);
	else
		ret = parse_remote(rest, &uri);
	if (ret)
		return ret;
	/* Its canonical text, with explicit ports, must fit where URLs go. */
	if (uri.scheme != LTT_URI_FILE && format_remote(&uri, NULL, 0) > (int)URI_TEXT_MAX)
		return -EINVAL;
	*ret_uri = uri;
	return 0;
}

int ltt_uri_format(const struct ltt_uri *uri, char *buf, unsigned long len)
{
	int n;

	if (!uri || !buf)
		return -EINVAL;
	if (uri->scheme == LTT_URI_FILE)
		n = snprintf(buf, len, "file://%.4095s", uri->path);
	else
		n = format_remote(uri, buf, len);
	if (n < 0)
		return -EINVAL;
	return (unsigned long)n < len ? 0 : -ENOSPC;
}

int ltt_uri_net_from_tcp(const struct ltt_uri *ctrl, const struct ltt_uri *data,
			 struct ltt_uri *ret_uri)
{
	struct ltt_uri net;

	if (!ctrl || !data || !ret_uri || ctrl->scheme != LTT_URI_TCP ||
	    data->scheme != LTT_URI_TCP)
		return -EINVAL;
	/* One relay daemon listens on both: the same host, spelled the same. */
	if (ctrl->family != data->family || strcasecmp(ctrl->host, data->host) || data->path[0])
		return -EINVAL;
	net = *ctrl;
	net.scheme = LTT_URI_NET;
	net.ctrl_port = ctrl->ctrl_port ? ctrl->ctrl_port : LTT_DEFAULT_RELAYD_CTRL_PORT;
	net.data_port = data->ctrl_port ? data->ctrl_port : LTT_DEFAULT_RELAYD_DATA_PORT;
	if (net.ctrl_port == net.data_port)
		return -EINVAL;
	*ret_uri = net;
	return 0;
}

int ltt_uri_net_port(const struct ltt_uri *net, int data, struct ltt_uri *ret_uri)
{
	struct ltt_uri tcp;

	if (!net || !ret_uri || net->scheme != LTT_URI_NET)
		return -EINVAL;
	tcp = *net;
	tcp.scheme = LTT_URI_TCP;
	tcp.ctrl_port = data ? net->data_port : net->ctrl_port;
	tcp.data_port = 0;
	tcp.path[0] = '\0';
	*ret_uri = tcp;
	return 0;
}

int ltt_uri_net_pair(const char *net, char *ctrl, char *data, unsigned long len)
{
	struct ltt_uri uri, tcp;
	int ret;

	if (!net || !ctrl || !data || ltt_uri_parse(net, &uri) || ltt_uri_net_port(&uri, 0, &tcp))
		return -EINVAL;
	memcpy(tcp.path, uri.path, sizeof(tcp.path));	/* the path goes with the control URL */
	ret = ltt_uri_format(&tcp, ctrl, len);
	if (!ret)
		ret = ltt_uri_net_port(&uri, 1, &tcp);
	return ret ? ret : ltt_uri_format(&tcp, data, len);
}

int ltt_uri_format_lttng(const struct ltt_uri *uri, int data, char *buf, unsigned long len)
{
	int v6, n;

	if (!uri || !buf || uri->scheme != LTT_URI_NET)
		return -EINVAL;
	/* LTTng resolves a name to an address of IPv4 unless told IPv6 */
	v6 = uri->family == LTT_URI_INET6;
	n = snprintf(buf, len, "tcp%c://%s%.255s%s:%u/%.4095s", v6 ? '6' : '4', v6 ? "[" : "",
		     uri->host, v6 ? "]" : "", data ? uri->data_port : uri->ctrl_port, uri->path);
	if (n < 0)
		return -EINVAL;
	return (unsigned long)n < len ? 0 : -ENOSPC;
}

void ltt_uri_lttng_path(const char *output, char *buf, unsigned long len)
{
	struct ltt_uri uri;
	size_t end;

	/* TLS has no LTTng form: ltt's URL says it */
	if (ltt_uri_parse(output, &uri) || uri.scheme != LTT_URI_NET || uri.tls ||
	    ltt_uri_format_lttng(&uri, 0, buf, len)) {
		snprintf(buf, len, "%s", output);
		return;
	}
	end = strlen(buf);
	snprintf(buf + end, len - end, " [data: %u]", uri.data_port);
}
