// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the RPC-over-RDMA version 2 header
 * (net/rpcrdma/rpcr_wire2.c, the draft of 17 November 2019).
 *
 * Properties checked on every input:
 *  1. Arbitrary bytes go through the decoder and the checker. A failure
 *     is one of the documented errnos, with the verdict (the error code
 *     to answer with, or none) that goes with it. A header that decodes
 *     re-encodes to the bytes it came from (a CONNPROP: to the same
 *     properties), and those decode to the same structure.
 *  2. The input read as field values: whatever the encoder accepts is
 *     as long as rpcr2_hdr_len() says and decodes back to those values,
 *     unless it has more Read chunks than we take.
 *     A CONNPROP's properties, sent by rpcr2_connprop_encode(), are
 *     the same bytes when its flags were 0; as rpcr2_props_effective()
 *     has them, each is the value carried or its default.
 *     The prefix alone tells RPCRDMA2_F_MORE as the decoder does.
 *  3. Arbitrary bytes through the decoder of either version (the one
 *     the transport uses): a header taken re-encodes to as many bytes
 *     as it took; a refused one's verdict becomes an error answer, in
 *     its version's layout, that encodes and decodes as an error.
 */
#include "rpcr_wire2.h"
#include "fuzz_wire_rpcr.h"

static struct rpcr2_hdr h, q;
static struct rpcr2_err v;
static u8 out[8192 + 1], out2[8192], auth[64];

/* the verdict that goes with each errno of rpcr2_hdr_decode() */
static void check_verdict(int rc, u32 htype)
{
	u32 c = v.code;

	switch (rc) {
	case -EMSGSIZE:
		FUZZ_ASSERT(!c);
		break;
	case -EPROTONOSUPPORT:
		FUZZ_ASSERT(c == RPCR2_ERR_VERS && v.vers_low == 1 &&
			    v.vers_high == 2);
		break;
	case -EOPNOTSUPP:
		FUZZ_ASSERT(c == RPCR2_ERR_INVAL_HTYPE);
		break;
	case -EINVAL:
		FUZZ_ASSERT(c == (htype == RPCR2_ERROR ? 0 :
				  RPCR2_ERR_INVAL_FLAG));
		break;
	case -EBADMSG:
		FUZZ_ASSERT(c == (htype == RPCR2_ERROR ? 0 :
				  RPCR2_ERR_BAD_XDR));
		break;
	case -E2BIG:
		FUZZ_ASSERT((c == RPCR2_ERR_READ_CHUNKS &&
			     v.max == RPCR2_MAX_READ_CHUNKS) ||
			    (c == RPCR2_ERR_WRITE_CHUNKS &&
			     v.max == RPCR_MAX_WRITE_CHUNKS) ||
			    (c == RPCR2_ERR_SEGMENTS &&
			     v.max == RPCR_MAX_CHUNK_SEGS));
		break;
	default:
		FUZZ_ASSERT(0);
	}
}

/* the properties carried are carried with the same values */
static void same_props(const struct rpcr2_props *a,
		       const struct rpcr2_props *b)
{
	const u32 va[] = { 0, a->sbsiz, a->rbsiz, a->rssiz, a->rcsiz, a->brs };
	const u32 vb[] = { 0, b->sbsiz, b->rbsiz, b->rssiz, b->rcsiz, b->brs };
	u32 id;

	FUZZ_ASSERT(a->present == b->present);
	for (id = RPCR2_PROP_SBSIZ; id < RPCR2_PROP_HOSTAUTH; id++)
		FUZZ_ASSERT(!(a->present & 1u << id) || va[id] == vb[id]);
	if (!(a->present & 1u << RPCR2_PROP_HOSTAUTH))
		return;
	FUZZ_ASSERT(a->hostauth_len == b->hostauth_len);
	FUZZ_ASSERT(!a->hostauth_len ||
		    !memcmp(a->hostauth, b->hostauth, a->hostauth_len));
}

/* the uint32 value of property @id in @p */
static u32 prop_val(const struct rpcr2_props *p, u32 id)
{
	const u32 v[] = { 0, p->sbsiz, p->rbsiz, p->rssiz, p->rcsiz, p->brs };

	return v[id];
}

/* what the transport sends and keeps of a peer's properties */
static void check_connprop(const struct rpcr2_hdr *d, int m)
{
	const struct rpcr2_props *p = &d->props;
	struct rpcr2_props e;
	u32 id;
	int k;

	k = rpcr2_connprop_encode(d->base.xid, d->base.credit, p, out2,
				  sizeof(out2));
	FUZZ_ASSERT(k == m);
	FUZZ_ASSERT(d->flags || !memcmp(out2, out, m));
	rpcr2_props_effective(p, &e);
	for (id = RPCR2_PROP_SBSIZ; id < RPCR2_PROP_HOSTAUTH; id++)
		FUZZ_ASSERT(prop_val(&e, id) == (p->present & 1u << id ?
						 prop_val(p, id) :
						 rpcr2_prop_default(id)));
	FUZZ_ASSERT(e.present == p->present && e.hostauth == p->hostauth &&
		    e.hostauth_len == p->hostauth_len);
}

/* decode what was encoded: an RDMA2_MSG needs a byte of its message */
static int redecode(size_t m)
{
	out[m] = 0x80;
	return rpcr2_hdr_decode(out, m + 1, &q, &v);
}

static void check_decode(const u8 *data, size_t size)
{
	u32 credit;
	int n, m;

	n = rpcr2_hdr_decode(data, size, &h, &v);
	/* what a receive handler takes as a credit refresh at once is one,
	 * all of the message
	 */
	if (rpcr2_peek_refresh(data, size, &credit))
		FUZZ_ASSERT(n == (int)size && rpcr2_credit_refresh(&h) &&
			    !h.base.xid && !h.flags && !h.inv_handle &&
			    credit == h.base.credit);
	else
		FUZZ_ASSERT(n != RPCR2_BARE_HDR_LEN || n != (int)size ||
			    !rpcr2_credit_refresh(&h) || h.base.xid ||
			    h.flags || h.inv_handle);
	if (n < 0) {
		FUZZ_ASSERT(n == -EMSGSIZE || size >= 16);
		check_verdict(n, h.base.proc);
		return;
	}
	FUZZ_ASSERT((size_t)n <= size && n >= RPCR2_PREFIX_LEN + 4);
	FUZZ_ASSERT(h.base.vers == RPCR_VERSION_2 && !v.code);
	/* the receive handler's look at the prefix agrees with the decoder;
	 * a sequence is joined for RDMA2_MSG only
	 */
	FUZZ_ASSERT(rpcr2_peek_more(data, size) ==
		    !!(h.flags & RPCR2_F_MORE));
	FUZZ_ASSERT(!rpcr2_more_check(&h, &h, &v) ==
		    (h.base.proc == RPCR2_MSG));
	memset(&v, 0, sizeof(v));
	if (!rpcr2_hdr_check(&h, true, &v))
		FUZZ_ASSERT(!v.code);
	else
		FUZZ_ASSERT(!v.code || v.code == RPCR2_ERR_BAD_XDR);
	if (!rpcr2_hdr_check(&h, false, &v))
		FUZZ_ASSERT(!v.code);

	m = rpcr2_hdr_encode(&h, out, sizeof(out) - 1);
	FUZZ_ASSERT(m > 0 && (size_t)m == rpcr2_hdr_len(&h));
	FUZZ_ASSERT(redecode(m) == m);
	if (h.base.proc == RPCR2_CONNPROP) {
		same_props(&h.props, &q.props);
		check_connprop(&h, m);
		return;
	}
	FUZZ_ASSERT(m == n && !memcmp(out, data, n));
	FUZZ_ASSERT(!memcmp(&h, &q, sizeof(h)));
}

static void check_any_version(const u8 *data, size_t size)
{
	u32 lo, hi, vers;
	int n, m;

	n = rpcr_msg_decode(data, size, &h, &v);
	vers = h.base.vers;
	if (n >= 0) {
		bool call = !(h.flags & RPCR2_F_RESPONSE);

		FUZZ_ASSERT(vers == RPCR_VERSION_1 || vers == RPCR_VERSION_2);
		if (rpcr_msg_check(&h, call, &v))
			FUZZ_ASSERT(!v.code || v.code == RPCR2_ERR_BAD_XDR);
		/* version 1's MSGP and DONE decode, and are never sent */
		m = rpcr_msg_encode(&h, out, sizeof(out) - 1);
		if (!rpcr_msg_len(&h)) {
			FUZZ_ASSERT(vers == RPCR_VERSION_1 && m < 0);
			return;
		}
		FUZZ_ASSERT(m == n || (vers == RPCR_VERSION_2 &&
				       h.base.proc == RPCR2_CONNPROP));
		FUZZ_ASSERT((size_t)m == rpcr_msg_len(&h));
		if (rpcr_msg_err_vers(&h, &lo, &hi))
			FUZZ_ASSERT(h.base.proc == RPCR_ERROR);
		return;
	}
	if (!v.code)
		return;
	FUZZ_ASSERT(size >= 16);
	rpcr_msg_error(&q, vers, h.base.xid, 1, &v);
	m = rpcr_msg_encode(&q, out, sizeof(out) - 1);
	FUZZ_ASSERT(m > 0 && (size_t)m == rpcr_msg_len(&q));
	FUZZ_ASSERT(rpcr_msg_decode(out, m, &h, &v) == m);
	FUZZ_ASSERT(h.base.proc == RPCR_ERROR && !rpcr_msg_check(&h, false, &v));
	FUZZ_ASSERT(h.base.vers == (vers == RPCR_VERSION_2 ? 2 : 1));
}

static void take_props(struct cursor *c, struct rpcr2_props *p)
{
	p->present = take8(c) & 0xfe;
	p->sbsiz = take32(c);
	p->rbsiz = take32(c);
	p->rssiz = take32(c);
	p->rcsiz = take32(c);
	p->brs = take32(c);
	p->hostauth_len = take8(c) % (sizeof(auth) + 1);
	take_bytes(c, auth, p->hostauth_len);
	p->hostauth = take8(c) & 1 ? auth : NULL;
}

/* Read chunks as the decoder counts them: runs of one position */
static u32 read_chunks(const struct rpcr_hdr *b)
{
	u32 i, n = 0;

	for (i = 0; i < b->nreads; i++)
		n += !i || b->reads[i].position != b->reads[i - 1].position;
	return n;
}

/* the types encoded: the four of §6.2 and three it does not have */
#define NHTYPES	7

static void build(const u8 *data, size_t size)
{
	const u32 htypes[NHTYPES] = { RPCR2_MSG, RPCR2_NOMSG, RPCR2_ERROR,
				      RPCR2_CONNPROP, 2, 3, 6 };
	struct cursor c = { data, size };
	struct rpcr_hdr *b = &h.base;
	size_t room;
	int n;

	memset(&h, 0, sizeof(h));
	b->xid = take32(&c);
	b->vers = take8(&c) & 1 ? take32(&c) : RPCR_VERSION_2;
	b->credit = take32(&c);
	b->proc = htypes[take8(&c) % NHTYPES];
	h.flags = take8(&c) & 7;
	h.inv_handle = take32(&c);
	h.error.code = take8(&c) % 12;
	h.error.vers_low = take32(&c);
	h.error.vers_high = take32(&c);
	h.error.max = take32(&c);
	h.error.chunk_index = take32(&c);
	h.error.length_needed = take32(&c);
	if (b->proc == RPCR2_CONNPROP)
		take_props(&c, &h.props);
	else if (b->proc != RPCR2_ERROR)
		/* few positions, so that chunks have several segments */
		take_lists(&c, b, 0x0c);
	room = take32(&c) % sizeof(out);

	n = rpcr2_hdr_encode(&h, out, room);
	if (n < 0) {
		FUZZ_ASSERT(n == -EINVAL || n == -EMSGSIZE);
		FUZZ_ASSERT((n == -EINVAL) == !rpcr2_hdr_len(&h));
		return;
	}
	FUZZ_ASSERT((size_t)n == rpcr2_hdr_len(&h) && (size_t)n <= room);
	if (b->vers != RPCR_VERSION_2) {
		FUZZ_ASSERT(redecode(n) == -EPROTONOSUPPORT);
		FUZZ_ASSERT(q.base.xid == b->xid && q.base.proc == b->proc);
		return;
	}
	if (read_chunks(b) > RPCR2_MAX_READ_CHUNKS) {
		FUZZ_ASSERT(redecode(n) == -E2BIG &&
			    v.code == RPCR2_ERR_READ_CHUNKS);
		return;
	}
	FUZZ_ASSERT(redecode(n) == n);
	FUZZ_ASSERT(q.base.xid == b->xid && q.base.credit == b->credit &&
		    q.base.proc == b->proc && q.flags == h.flags);
	switch (b->proc) {
	case RPCR2_ERROR:
		/* the words of the code's arm came back, the others are 0 */
		FUZZ_ASSERT(q.error.code == h.error.code);
		FUZZ_ASSERT(!q.error.max || q.error.max == h.error.max);
		return;
	case RPCR2_CONNPROP:
		if (!h.props.hostauth)
			h.props.hostauth_len = 0;
		same_props(&h.props, &q.props);
		return;
	}
	FUZZ_ASSERT(q.inv_handle == h.inv_handle);
	FUZZ_ASSERT(q.base.nreads == b->nreads && q.base.nwrites == b->nwrites &&
		    q.base.has_reply == b->has_reply);
	FUZZ_ASSERT(!memcmp(q.base.reads, b->reads, sizeof(b->reads)));
	FUZZ_ASSERT(!memcmp(q.base.writes, b->writes, sizeof(b->writes)));
	FUZZ_ASSERT(!memcmp(&q.base.reply, &b->reply, sizeof(b->reply)));
}

static void fuzz_one(const u8 *data, size_t size)
{
	check_decode(data, size);
	check_any_version(data, size);
	build(data, size);
}
