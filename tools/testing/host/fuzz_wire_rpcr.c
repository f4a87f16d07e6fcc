// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the RPC-over-RDMA version 1 header and the RFC
 * 8797 private data (net/rpcrdma/rpcr_wire.c).
 *
 * Properties checked on every input:
 *  1. Arbitrary bytes go through the decoder and the checker. A header
 *     that decodes to a type we send re-encodes to the bytes it came
 *     from, and those decode to the same structure; a failure is one of
 *     the documented errors, with the fixed words kept where promised.
 *  2. The input read as field values: whatever the encoder accepts is
 *     as long as rpcr_hdr_len() says and decodes back to those values.
 *  3. Private data: what decodes encodes back to the same eight bytes.
 */
#include "fuzz_wire_rpcr.h"

static struct rpcr_hdr h, q;
static u8 out[8192];

static void check_decode(const u8 *data, size_t size)
{
	int n, m;

	n = rpcr_hdr_decode(data, size, &h);
	if (n < 0) {
		FUZZ_ASSERT(n == -EMSGSIZE || n == -EPROTONOSUPPORT ||
			    n == -EBADMSG || n == -E2BIG);
		FUZZ_ASSERT(n == -EMSGSIZE || size >= RPCR_HDR_FIXED_LEN);
		return;
	}
	FUZZ_ASSERT((size_t)n <= size && n >= RPCR_HDR_FIXED_LEN);
	FUZZ_ASSERT(h.vers == RPCR_VERSION_1);
	rpcr_hdr_check(&h, true);
	rpcr_hdr_check(&h, false);
	if (h.proc == RPCR_MSGP || h.proc == RPCR_DONE) {
		FUZZ_ASSERT(rpcr_hdr_encode(&h, out, sizeof(out)) == -EINVAL);
		return;
	}
	m = rpcr_hdr_encode(&h, out, sizeof(out));
	FUZZ_ASSERT(m == n);
	FUZZ_ASSERT(!memcmp(out, data, n));
	FUZZ_ASSERT(rpcr_hdr_decode(out, m, &q) == m);
	FUZZ_ASSERT(!memcmp(&h, &q, sizeof(h)));
}

static void build(const u8 *data, size_t size)
{
	struct cursor c = { data, size };
	size_t room;
	int n;

	memset(&h, 0, sizeof(h));
	h.xid = take32(&c);
	h.vers = take32(&c);
	h.credit = take32(&c);
	h.proc = take8(&c) % 6;
	h.err = take8(&c) % 4;
	h.vers_low = take32(&c);
	h.vers_high = take32(&c);
	take_lists(&c, &h, 0xffffffff);
	room = take32(&c) % (sizeof(out) + 1);

	n = rpcr_hdr_encode(&h, out, room);
	if (n < 0) {
		FUZZ_ASSERT(n == -EINVAL || n == -EMSGSIZE);
		FUZZ_ASSERT((n == -EINVAL) == !rpcr_hdr_len(&h));
		return;
	}
	FUZZ_ASSERT((size_t)n == rpcr_hdr_len(&h) && (size_t)n <= room);
	if (h.vers != RPCR_VERSION_1) {
		FUZZ_ASSERT(rpcr_hdr_decode(out, n, &q) == -EPROTONOSUPPORT);
		FUZZ_ASSERT(q.xid == h.xid && q.proc == h.proc);
		return;
	}
	FUZZ_ASSERT(rpcr_hdr_decode(out, n, &q) == n);
	FUZZ_ASSERT(q.proc == h.proc && q.xid == h.xid &&
		    q.credit == h.credit);
	if (h.proc == RPCR_ERROR) {
		FUZZ_ASSERT(q.err == h.err);
		return;
	}
	FUZZ_ASSERT(q.nreads == h.nreads && q.nwrites == h.nwrites &&
		    q.has_reply == h.has_reply);
	FUZZ_ASSERT(!memcmp(q.reads, h.reads, sizeof(h.reads)));
	FUZZ_ASSERT(!memcmp(q.writes, h.writes, sizeof(h.writes)));
	FUZZ_ASSERT(!memcmp(&q.reply, &h.reply, sizeof(h.reply)));
}

static void check_cm_priv(const u8 *data, size_t size)
{
	struct rpcr_cm_priv p;
	u8 b[RPCR_CM_PRIV_LEN];

	if (rpcr_cm_priv_decode(data, size, &p))
		return;
	FUZZ_ASSERT(size >= RPCR_CM_PRIV_LEN);
	FUZZ_ASSERT(p.send_size >= RPCR_CM_SIZE_MIN &&
		    p.send_size <= RPCR_CM_SIZE_MAX);
	FUZZ_ASSERT(rpcr_cm_priv_encode(&p, b, sizeof(b)) == RPCR_CM_PRIV_LEN);
	FUZZ_ASSERT(!memcmp(b, data, RPCR_CM_PRIV_LEN));
}

static void fuzz_one(const u8 *data, size_t size)
{
	check_decode(data, size);
	build(data, size);
	check_cm_priv(data, size);
}
