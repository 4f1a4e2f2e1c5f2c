// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_lagent.c - LTTng's agent protocol (common/proto/lagent-proto.h):
 * what any program that connects to the session daemon's agent port on
 * 127.0.0.1 sends it, REGISTER and the replies to its commands.
 *
 * Input: byte 0 selects REGISTER (its first 16 bytes, as the daemon reads
 * it) or a reply to a command (byte 1 the command, the rest the reply as
 * it arrives).  Promises: REGISTER is refused or names an agent domain
 * and a pid of 1 to INT32_MAX; a reply's size is at least its command's
 * least, and LIST's is measured again the same on more bytes; a LIST
 * reply accepted hands on exactly count names, each 1 to 255 bytes
 * without control characters, that fill data_size, and nothing when it
 * is refused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/lagent-proto.h"
#include "fuzz.h"

enum { SEL_REGISTER, SEL_REPLY, NR_SEL };

static void check_register(const uint8_t *data, size_t size)
{
	struct ltt_lagent_register reg;
	uint8_t buf[LTT_LAGENT_REGISTER_SIZE] = { 0 };
	int ret;

	memcpy(buf, data, size < sizeof(buf) ? size : sizeof(buf));
	ret = ltt_lagent_register_decode(buf, &reg);
	FUZZ_CHECK(!ret || ret == -EPROTO || ret == -EPROTONOSUPPORT);
	if (ret == -EPROTO)
		return;
	FUZZ_CHECK(strcmp(ltt_lagent_domain_name(reg.domain), "?"));
	FUZZ_CHECK(reg.pid >= 1 && reg.pid <= INT32_MAX);
	FUZZ_CHECK((reg.major == LTT_LAGENT_MAJOR) == !ret);
}

struct names {
	uint32_t count;
	size_t bytes;
};

static void count_name(void *arg, const char *name)
{
	struct names *n = arg;
	size_t len = strlen(name);

	FUZZ_CHECK(len >= 1 && len < LTT_LAGENT_NAME_SIZE);
	for (size_t i = 0; i < len; i++)
		FUZZ_CHECK((unsigned char)name[i] >= 0x20 && name[i] != 0x7f);
	n->count++;
	n->bytes += len + 1;
}

static void check_reply(uint32_t cmd, const uint8_t *data, size_t size)
{
	struct names n = { 0 };
	size_t want, again;
	uint32_t status;
	uint8_t *copy;

	if (ltt_lagent_reply_size(cmd, data, size, &want))
		return;
	if (!want || size < want)
		return;		/* no reply, or more to read */
	FUZZ_CHECK(!ltt_lagent_reply_size(cmd, data, want, &again) && again == want);
	FUZZ_CHECK(want >= LTT_LAGENT_STATUS_SIZE);
	if (cmd != LTT_LAGENT_LIST)
		return;
	copy = malloc(want);	/* exactly the reply: ASan sees overreads */
	if (!copy)
		abort();
	memcpy(copy, data, want);
	if (ltt_lagent_list_decode(copy, want, &status, count_name, &n)) {
		FUZZ_CHECK(!n.count);
	} else if (status == LTT_LAGENT_STATUS_SUCCESS) {
		FUZZ_CHECK(n.bytes == want - LTT_LAGENT_LIST_HDR_SIZE);
		FUZZ_CHECK(n.count <= LTT_LAGENT_LIST_NAMES_MAX);
	} else {
		FUZZ_CHECK(!n.count && want == LTT_LAGENT_LIST_HDR_SIZE);
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	if (data[0] % NR_SEL == SEL_REGISTER)
		check_register(data + 1, size - 1);
	else
		check_reply(data[1] % 8, data + 2, size - 2);
	return 0;
}

/* The bytes an agent sends, each with the byte that selects its check. */
void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	static const char names[] = "root\0my.logger\0org.example.Service";
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u8(&w, SEL_REGISTER);
	ltt_wbuf_put_be32(&w, LTT_LAGENT_DOMAIN_PYTHON);
	ltt_wbuf_put_be32(&w, 4242);
	ltt_wbuf_put_be32(&w, LTT_LAGENT_MAJOR);
	ltt_wbuf_put_be32(&w, LTT_LAGENT_MINOR);
	FUZZ_CHECK(!w.err);
	emit("register-0", w.data, w.len);
	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u8(&w, SEL_REPLY);
	ltt_wbuf_put_u8(&w, LTT_LAGENT_LIST);
	ltt_wbuf_put_be32(&w, LTT_LAGENT_STATUS_SUCCESS);
	ltt_wbuf_put_be32(&w, sizeof(names));
	ltt_wbuf_put_be32(&w, 3);
	ltt_wbuf_put_bytes(&w, names, sizeof(names));
	FUZZ_CHECK(!w.err);
	emit("list-0", w.data, w.len);
	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u8(&w, SEL_REPLY);
	ltt_wbuf_put_u8(&w, LTT_LAGENT_ENABLE);
	ltt_wbuf_put_be32(&w, LTT_LAGENT_STATUS_SUCCESS);
	FUZZ_CHECK(!w.err);
	emit("enable-0", w.data, w.len);
	ltt_wbuf_fini(&w);
}
