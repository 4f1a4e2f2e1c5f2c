// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_uri.c - unit tests of common/model/uri.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/uri.h"
#include "tests/unit/tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum { F = LTT_URI_FILE, N = LTT_URI_NET, T = LTT_URI_TCP };
enum { ANY = LTT_URI_ANY, V4 = LTT_URI_INET, V6 = LTT_URI_INET6 };

static const struct {
	const char *text;
	int scheme;
	int family;
	const char *host;
	unsigned int ctrl, data;
	const char *path;
	const char *canon;	/* NULL: same as text */
} valid[] = {
	{ "file:///tmp/x", F, ANY, "", 0, 0, "/tmp/x", NULL },
	{ "file:///", F, ANY, "", 0, 0, "/", NULL },
	{ "file:///a/./b/", F, ANY, "", 0, 0, "/a/./b/", NULL },
	{ "file:///a/..b/c..", F, ANY, "", 0, 0, "/a/..b/c..", NULL },
	{ "file:///a/.../b", F, ANY, "", 0, 0, "/a/.../b", NULL },
	{ "file:///tmp/with space", F, ANY, "", 0, 0, "/tmp/with space", NULL },
	{ "file:///tmp/caf\xc3\xa9", F, ANY, "", 0, 0, "/tmp/caf\xc3\xa9", NULL },
	{ "file:///tmp/a:b@c", F, ANY, "", 0, 0, "/tmp/a:b@c", NULL },
	{ "net://localhost", N, ANY, "localhost", 5342, 5343, "", "net://localhost:5342:5343" },
	{ "net://relay.example.com:6000", N, ANY, "relay.example.com", 6000, 5343, "",
	  "net://relay.example.com:6000:5343" },
	{ "net://relay:6000:6001/traces/a", N, ANY, "relay", 6000, 6001, "traces/a", NULL },
	{ "net://relay/traces/a/", N, ANY, "relay", 5342, 5343, "traces/a/",
	  "net://relay:5342:5343/traces/a/" },
	{ "net://relay/", N, ANY, "relay", 5342, 5343, "", "net://relay:5342:5343" },
	{ "net://relay/..a/b..", N, ANY, "relay", 5342, 5343, "..a/b..",
	  "net://relay:5342:5343/..a/b.." },
	{ "net://host:5343:5342", N, ANY, "host", 5343, 5342, "", NULL },
	{ "net://host:5343:5344", N, ANY, "host", 5343, 5344, "", NULL },
	{ "net://host:1:65535", N, ANY, "host", 1, 65535, "", NULL },
	{ "net://a", N, ANY, "a", 5342, 5343, "", "net://a:5342:5343" },
	{ "net://A-b.C-d.e9", N, ANY, "A-b.C-d.e9", 5342, 5343, "", "net://A-b.C-d.e9:5342:5343" },
	{ "net://xn--bcher-kva.example", N, ANY, "xn--bcher-kva.example", 5342, 5343, "",
	  "net://xn--bcher-kva.example:5342:5343" },
	{ "net://1a.2.3.4", N, ANY, "1a.2.3.4", 5342, 5343, "", "net://1a.2.3.4:5342:5343" },
	{ "net://1.2.3.4", N, V4, "1.2.3.4", 5342, 5343, "", "net://1.2.3.4:5342:5343" },
	{ "net://0.0.0.0:1:2/x", N, V4, "0.0.0.0", 1, 2, "x", NULL },
	{ "net://255.255.255.255", N, V4, "255.255.255.255", 5342, 5343, "",
	  "net://255.255.255.255:5342:5343" },
	{ "tls://relay.example.com", N, ANY, "relay.example.com", 5342, 5343, "",
	  "tls://relay.example.com:5342:5343" },
	{ "tls://127.0.0.1:6000:6001/p", N, V4, "127.0.0.1", 6000, 6001, "p", NULL },
	{ "tls4://localhost", N, V4, "localhost", 5342, 5343, "", "tls4://localhost:5342:5343" },
	{ "tls6://[::1]:7000", N, V6, "::1", 7000, 5343, "", "tls6://[::1]:7000:5343" },
	{ "net4://localhost", N, V4, "localhost", 5342, 5343, "", "net4://localhost:5342:5343" },
	{ "net4://10.0.0.1/", N, V4, "10.0.0.1", 5342, 5343, "", "net://10.0.0.1:5342:5343" },
	{ "net6://[::1]", N, V6, "::1", 5342, 5343, "", "net6://[::1]:5342:5343" },
	{ "net6://[fe80::1]:6000:6001/p", N, V6, "fe80::1", 6000, 6001, "p", NULL },
	{ "net6://[::ffff:1.2.3.4]/a", N, V6, "::ffff:1.2.3.4", 5342, 5343, "a",
	  "net6://[::ffff:1.2.3.4]:5342:5343/a" },
	{ "net6://[2001:db8:0:0:0:0:0:1]:7000", N, V6, "2001:db8:0:0:0:0:0:1", 7000, 5343, "",
	  "net6://[2001:db8:0:0:0:0:0:1]:7000:5343" },
	{ "tcp://host", T, ANY, "host", 0, 0, "", NULL },
	{ "tcp://host:5342/p/q", T, ANY, "host", 5342, 0, "p/q", NULL },
	{ "tcp://host/", T, ANY, "host", 0, 0, "", "tcp://host" },
	{ "tcp://1.2.3.4:80", T, V4, "1.2.3.4", 80, 0, "", NULL },
	{ "tcp4://1.2.3.4:80", T, V4, "1.2.3.4", 80, 0, "", "tcp://1.2.3.4:80" },
	{ "tcp4://relay", T, V4, "relay", 0, 0, "", NULL },
	{ "tcp6://[::1]:80", T, V6, "::1", 80, 0, "", NULL },
	{ "tcp6://[::]", T, V6, "::", 0, 0, "", NULL },
};

static const char *const invalid[] = {
	"",
	"/tmp/x",
	"tmp",
	"file:",
	"file:/",
	"file://",
	"file:/tmp/x",
	"file://tmp/x",
	"file://host/tmp",
	"file:///..",
	"file:///../a",
	"file:///a/..",
	"file:///a/../b",
	"file:///tmp/\x01",
	"file:///tmp/\x7f",
	"file:///tmp/a\nb",
	"FILE:///tmp",
	"File:///tmp",
	"http://host",
	"ftp://host",
	"unix:///tmp/s",
	"NET://host",
	"Net://host",
	"net:/host",
	"net:host",
	"net//host",
	"net5://host",
	"net",
	"net://",
	"net:///path",
	"net://:5342",
	"net://:5342:5343/p",
	"net://host:",
	"net://host:0",
	"net://host:00",
	"net://host:080",
	"net://host:65536",
	"net://host:100000",
	"net://host:99999999999999999999",
	"net://host:-1",
	"net://host:+80",
	"net://host:8o",
	"net://host: 80",
	"net://host:80 ",
	"net://host::5343",
	"net://host:5342:",
	"net://host:5342:0",
	"net://host:5342:5343:5344",
	"net://host:5342:5342",
	"net://host:5343",
	"net://host:6000:5342x",
	"net://[::1]",
	"net://[::1]:5342",
	"net4://[::1]",
	"tcp://[::1]",
	"tcp4://[::1]",
	"net://[1.2.3.4]",
	"net6://::1",
	"net6://localhost",
	"net6://1.2.3.4",
	"tcp6://::1",
	"tcp6://host",
	"net6://[::1",
	"net6://[]",
	"net6://[::g]",
	"net6://[1.2.3.4]",
	"net6://[::1]x",
	"net6://[::1]]",
	"net6://[[::1]]",
	"net6://[fe80::1%eth0]",
	"net6://[::1]:0",
	"net6://[::1]:5343",
	"net6://[0000:0000:0000:0000:0000:0000:0000:0000:0000]",
	"net://1.2.3.256",
	"net://256.1.1.1",
	"net://1.2.3",
	"net://1.2.3.4.5",
	"net://01.2.3.4",
	"net://123",
	"net://1..2.3",
	"net://1.2.3.4.",
	"net://.1.2.3.4",
	"net4://1.2.3.256",
	"tcp://999.1.1.1",
	"net://host_name",
	"net://host name",
	"net://-host",
	"net://host-",
	"net://a.-b",
	"net://a-.b",
	"net://a..b",
	"net://.host",
	"net://host.",
	"net://h\xc3\xb4st",
	"net://user@host",
	"net://host?x",
	"net://host#x",
	"net://host\\x",
	"net://host\n",
	"net://host/a\tb",
	"net://host/../x",
	"net://host/a/../b",
	"net://host/..",
	"net://host/a/..",
	"net://host//abs",
	"tcp://host:1:2",
	"tcp://host:0",
	"tcp://host:65536",
	"tcp://:80",
	"tcp://host/../x",
};

/* Compare every field of @got with valid[@i]. */
static bool fields_match(const struct ltt_uri *got, size_t i)
{
	return (int)got->scheme == valid[i].scheme && (int)got->family == valid[i].family &&
	       !strcmp(got->host, valid[i].host) && got->ctrl_port == valid[i].ctrl &&
	       got->data_port == valid[i].data && !strcmp(got->path, valid[i].path);
}

static bool same_uri(const struct ltt_uri *a, const struct ltt_uri *b)
{
	return a->scheme == b->scheme && a->family == b->family && !strcmp(a->host, b->host) &&
	       a->ctrl_port == b->ctrl_port && a->data_port == b->data_port &&
	       !strcmp(a->path, b->path) && a->tls == b->tls;
}

static void test_valid(void)
{
	struct ltt_uri uri, back;
	char buf[LTT_URI_TEXT_SIZE];
	const char *canon;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(valid); i++) {
		ret = ltt_uri_parse(valid[i].text, &uri);
		if (!tap_is_int(ret, 0, "\"%s\" parses", valid[i].text))
			continue;
		tap_ok(fields_match(&uri, i),
		       "\"%s\": scheme %d family %d host \"%s\" ports %u:%u path \"%s\"",
		       valid[i].text, valid[i].scheme, valid[i].family, valid[i].host,
		       valid[i].ctrl, valid[i].data, valid[i].path);
		canon = valid[i].canon ? valid[i].canon : valid[i].text;
		ret = ltt_uri_format(&uri, buf, sizeof(buf));
		tap_ok(ret == 0 && !strcmp(buf, canon), "\"%s\" formats as \"%s\"",
		       valid[i].text, canon);
		ret = ltt_uri_parse(buf, &back);
		tap_ok(ret == 0 && same_uri(&uri, &back), "\"%s\" parses back the same", buf);
	}
}

static void test_invalid(void)
{
	struct ltt_uri uri, sentinel;
	size_t i;
	int ret;

	memset(&sentinel, 0xa5, sizeof(sentinel));
	for (i = 0; i < ARRAY_SIZE(invalid); i++) {
		memcpy(&uri, &sentinel, sizeof(uri));
		ret = ltt_uri_parse(invalid[i], &uri);
		tap_is_int(ret, -EINVAL, "\"%s\" is refused", invalid[i]);
		tap_ok(!memcmp(&uri, &sentinel, sizeof(uri)), "\"%s\" leaves the result untouched",
		       invalid[i]);
	}
	tap_is_int(ltt_uri_parse(NULL, &uri), -EINVAL, "NULL text is refused");
	tap_is_int(ltt_uri_parse("file:///tmp", NULL), -EINVAL, "NULL result is refused");
}

/* A URL of @prefix followed by 'a's up to @len bytes. */
static char *long_url(const char *prefix, size_t len)
{
	size_t n = strlen(prefix);
	char *s = malloc(len + 1);

	if (!s)
		abort();
	memcpy(s, prefix, n);
	memset(s + n, 'a', len - n);
	s[len] = '\0';
	return s;
}

static void test_lengths(void)
{
	char host[300], text[400], buf[LTT_URI_TEXT_SIZE];
	struct ltt_uri uri;
	char *s;

	s = long_url("file:///", 4095);
	tap_is_int(ltt_uri_parse(s, &uri), 0, "a 4095-byte file URL is accepted");
	tap_is_int((long long)strlen(uri.path), 4088, "its path is whole");
	tap_is_int(ltt_uri_format(&uri, buf, sizeof(buf)), 0, "it formats in 4096 bytes");
	tap_ok(!strcmp(buf, s), "to the same text");
	free(s);
	s = long_url("file:///", 4096);
	tap_is_int(ltt_uri_parse(s, &uri), -EINVAL, "a 4096-byte file URL is refused");
	free(s);
	s = long_url("file:///", 100000);
	tap_is_int(ltt_uri_parse(s, &uri), -EINVAL, "a 100000-byte file URL is refused");
	free(s);

	s = long_url("net://h/", 4095);
	tap_is_int(ltt_uri_parse(s, &uri), -EINVAL,
		   "a net URL whose canonical text exceeds 4095 bytes is refused");
	free(s);
	s = long_url("net://h:5342:5343/", 4095);
	tap_is_int(ltt_uri_parse(s, &uri), 0, "a 4095-byte net URL with both ports is accepted");
	tap_is_int(ltt_uri_format(&uri, buf, sizeof(buf)), 0, "it formats in 4096 bytes");
	tap_ok(!strcmp(buf, s), "to the same text");
	free(s);
	s = long_url("tcp://h/", 4095);
	tap_is_int(ltt_uri_parse(s, &uri), 0, "a 4095-byte tcp URL is accepted");
	free(s);

	/* Host names: 253 bytes at most, labels of 63 at most. */
	memset(host, 'a', 63);
	host[63] = '\0';
	snprintf(text, sizeof(text), "net://%s", host);
	tap_is_int(ltt_uri_parse(text, &uri), 0, "a 63-byte label is accepted");
	memset(host, 'a', 64);
	host[64] = '\0';
	snprintf(text, sizeof(text), "net://%s", host);
	tap_is_int(ltt_uri_parse(text, &uri), -EINVAL, "a 64-byte label is refused");
	/* 4 labels of 63 and 1 byte, with 4 dots: 253 bytes. */
	memset(host, 'b', 253);
	host[63] = host[127] = host[191] = host[251] = '.';
	host[253] = '\0';
	snprintf(text, sizeof(text), "net://%s:1:2", host);
	tap_is_int(ltt_uri_parse(text, &uri), 0, "a 253-byte host name is accepted");
	tap_ok(!strcmp(uri.host, host), "and kept whole");
	host[253] = 'b';
	host[254] = '\0';
	snprintf(text, sizeof(text), "net://%s:1:2", host);
	tap_is_int(ltt_uri_parse(text, &uri), -EINVAL, "a 254-byte host name is refused");
}

static void test_format(void)
{
	struct ltt_uri uri;
	char buf[64];
	size_t want;

	if (ltt_uri_parse("net://relay:1:2/p", &uri))
		abort();
	want = strlen("net://relay:1:2/p");
	memset(buf, 'x', sizeof(buf));
	tap_is_int(ltt_uri_format(&uri, buf, want), -ENOSPC, "one byte short is -ENOSPC");
	tap_ok(strlen(buf) == want - 1, "the short text is truncated and terminated");
	tap_is_int(ltt_uri_format(&uri, buf, want + 1), 0, "the exact size is enough");
	tap_is_str(buf, "net://relay:1:2/p", "and holds the text");
	buf[0] = 'x';
	tap_is_int(ltt_uri_format(&uri, buf, 0), -ENOSPC, "a zero-length buffer is -ENOSPC");
	tap_ok(buf[0] == 'x', "and is not written");
	tap_is_int(ltt_uri_format(NULL, buf, sizeof(buf)), -EINVAL, "a NULL URL is -EINVAL");
	tap_is_int(ltt_uri_format(&uri, NULL, 10), -EINVAL, "a NULL buffer is -EINVAL");
	uri.scheme = (enum ltt_uri_scheme)0;
	tap_is_int(ltt_uri_format(&uri, buf, sizeof(buf)), -EINVAL, "scheme 0 is -EINVAL");
	uri.scheme = (enum ltt_uri_scheme)4;
	tap_is_int(ltt_uri_format(&uri, buf, sizeof(buf)), -EINVAL, "scheme 4 is -EINVAL");
	uri.scheme = LTT_URI_NET;
	uri.family = (enum ltt_uri_family)5;
	tap_is_int(ltt_uri_format(&uri, buf, sizeof(buf)), -EINVAL, "family 5 is -EINVAL");
}

/* -C/-D pairs to net URLs, and back to one port. */
static void test_tcp_pairs(void)
{
	static const struct {
		const char *ctrl, *data, *net;	/* net NULL: refused */
	} pairs[] = {
		{ "tcp://relay:7000/a/b", "tcp://relay:7001", "net://relay:7000:7001/a/b" },
		{ "tcp://relay", "tcp://relay", "net://relay:5342:5343" },
		{ "tcp://127.0.0.1:9", "tcp://127.0.0.1", "net://127.0.0.1:9:5343" },
		{ "tcp6://[::1]:1", "tcp6://[::1]:2", "net6://[::1]:1:2" },
		{ "tcp4://relay:1", "tcp4://relay:2", "net4://relay:1:2" },
		{ "tcp://Relay:1", "tcp://relay:2", "net://Relay:1:2" },
		{ "tcp://relay:1", "tcp://other:2", NULL },
		{ "tcp://relay:1", "tcp4://relay:2", NULL },
		{ "tcp://relay:1", "tcp://relay:2/p", NULL },
		{ "tcp://relay:7", "tcp://relay:7", NULL },
		{ "tcp://relay:5343", "tcp://relay", NULL },
	};
	struct ltt_uri c, d, n, t;
	char buf[LTT_URI_TEXT_SIZE];
	size_t i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (ltt_uri_parse(pairs[i].ctrl, &c) || ltt_uri_parse(pairs[i].data, &d))
			abort();
		memset(&n, 0, sizeof(n));
		if (!pairs[i].net) {
			tap_is_int(ltt_uri_net_from_tcp(&c, &d, &n), -EINVAL, "-C %s -D %s is refused",
				   pairs[i].ctrl, pairs[i].data);
			continue;
		}
		tap_is_int(ltt_uri_net_from_tcp(&c, &d, &n), 0, "-C %s -D %s is accepted",
			   pairs[i].ctrl, pairs[i].data);
		ltt_uri_format(&n, buf, sizeof(buf));
		tap_is_str(buf, pairs[i].net, "as %s", pairs[i].net);
	}
	tap_is_int(ltt_uri_net_from_tcp(&n, &d, &c), -EINVAL, "a net URL is not a -C URL");
	if (ltt_uri_parse("net6://[::1]:10:11/x", &n))
		abort();
	tap_is_int(ltt_uri_net_port(&n, 0, &t), 0, "the control port of a net URL");
	ltt_uri_format(&t, buf, sizeof(buf));
	tap_is_str(buf, "tcp6://[::1]:10", "is a tcp URL without path");
	tap_is_int(ltt_uri_net_port(&n, 1, &t), 0, "its data port");
	ltt_uri_format(&t, buf, sizeof(buf));
	tap_is_str(buf, "tcp6://[::1]:11", "is the other tcp URL");
	tap_is_int(ltt_uri_net_port(&t, 1, &n), -EINVAL, "a tcp URL has no ports to split");
}

/* A net URL as the control and data URLs one gives apart (LTTng's --ctrl-url, --data-url). */
static void test_net_pair(void)
{
	char c[LTT_URI_TEXT_SIZE], d[LTT_URI_TEXT_SIZE];

	tap_ok(!ltt_uri_net_pair("net://1.2.3.4:1111:1112", c, d, sizeof(c)) &&
	       !strcmp(c, "tcp://1.2.3.4:1111") && !strcmp(d, "tcp://1.2.3.4:1112"),
	       "net://1.2.3.4:1111:1112: tcp://1.2.3.4:1111 and tcp://1.2.3.4:1112");
	tap_ok(!ltt_uri_net_pair("net6://[::1]/a/b", c, d, sizeof(c)) &&
	       !strcmp(c, "tcp6://[::1]:5342/a/b") && !strcmp(d, "tcp6://[::1]:5343"),
	       "net6://[::1]/a/b: the default ports, the path with the control URL");
	tap_is_int(ltt_uri_net_pair("tcp://h:1", c, d, sizeof(c)), -EINVAL, "a tcp URL is no pair");
	tap_is_int(ltt_uri_net_pair("net://h", c, d, 8), -ENOSPC, "too little room: -ENOSPC");
}

/* tls:// URLs say so; net:// ones do not. */
static void test_tls(void)
{
	struct ltt_uri uri;

	tap_ok(!ltt_uri_parse("tls://h", &uri) && uri.tls, "tls://h: TLS");
	tap_ok(!ltt_uri_parse("tls6://[::1]", &uri) && uri.tls, "tls6://[::1]: TLS");
	tap_ok(!ltt_uri_parse("net://h", &uri) && !uri.tls, "net://h: plain");
	tap_is_int(ltt_uri_parse("TLS://h", &uri), -EINVAL, "TLS://h: schemes are lower case");
	tap_is_int(ltt_uri_parse("tls6://h", &uri), -EINVAL, "tls6://h: IPv6 takes a literal");
}

int main(void)
{
	test_tls();
	test_tcp_pairs();
	test_net_pair();
	test_valid();
	test_invalid();
	test_lengths();
	test_format();
	return tap_done();
}
