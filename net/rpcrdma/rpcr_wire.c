// SPDX-License-Identifier: GPL-2.0
/*
 * rpcr: encoding and decoding the RPC-over-RDMA version 1 transport
 * header (RFC 8166 §4) and the RFC 8797 connection private data.
 *
 * The header is XDR: the fixed words xid, vers, credit and proc, then,
 * for the message types, three chunk lists written as XDR optional data
 * (a word 1 before each entry, a word 0 at the end of a list). Decoding
 * checks the syntax only and fills struct rpcr_hdr; rpcr_hdr_check()
 * applies the rules of §3.5 and §4.3 on what a Call or a Reply may carry.
 */

#include "rpcr_wire.h"

/**
 * rpcr_take_present() - take an XDR boolean or optional-data word
 * @x: input
 * @present: its value
 *
 * Both are 0 or 1 (RFC 4506 §4.4, §4.19); anything else is garbage.
 *
 * Return: 0, or -EBADMSG.
 */
int rpcr_take_present(struct rpcr_xin *x, bool *present)
{
	u32 v;

	if (!rpcr_take32(x, &v) || v > 1)
		return -EBADMSG;
	*present = v;
	return 0;
}

/**
 * rpcr_take_seg() - take an RDMA segment (RFC 8166 §4.1)
 * @x: input
 * @s: the segment
 *
 * Return: 0, or -EBADMSG when the input ends within it.
 */
int rpcr_take_seg(struct rpcr_xin *x, struct rpcr_seg *s)
{
	if (!rpcr_take32(x, &s->handle) || !rpcr_take32(x, &s->length) ||
	    !rpcr_take64(x, &s->offset))
		return -EBADMSG;
	return 0;
}

/**
 * rpcr_take_chunk() - take a Write chunk or the Reply chunk
 * @x: input
 * @c: the chunk: a counted array of segments (RFC 8166 §4.3.2)
 *
 * Return: 0, -EBADMSG for a count the rest of the input cannot hold, or
 * -E2BIG for more than RPCR_MAX_CHUNK_SEGS segments.
 */
int rpcr_take_chunk(struct rpcr_xin *x, struct rpcr_write_chunk *c)
{
	u32 i;
	int rc;

	if (!rpcr_take32(x, &c->nsegs))
		return -EBADMSG;
	/* a count the message cannot even hold is garbage, not a limit */
	if (c->nsegs > x->left / RPCR_SEG_LEN)
		return -EBADMSG;
	if (c->nsegs > RPCR_MAX_CHUNK_SEGS)
		return -E2BIG;
	for (i = 0; i < c->nsegs; i++) {
		rc = rpcr_take_seg(x, &c->segs[i]);
		if (rc)
			return rc;
	}
	return 0;
}

/* An XDR list (§4.3): each entry after a word 1, a word 0 at the end */
static int rpcr_take_list(struct rpcr_xin *x, struct rpcr_hdr *h, u32 *n,
			  u32 max, int (*entry)(struct rpcr_xin *x,
						struct rpcr_hdr *h, u32 i))
{
	bool more;
	int rc;

	for (;;) {
		rc = rpcr_take_present(x, &more);
		if (rc || !more)
			return rc;
		if (*n == max)
			return -E2BIG;
		rc = entry(x, h, (*n)++);
		if (rc)
			return rc;
	}
}

static int rpcr_take_read(struct rpcr_xin *x, struct rpcr_hdr *h, u32 i)
{
	struct rpcr_read_seg *r = &h->reads[i];

	if (!rpcr_take32(x, &r->position))
		return -EBADMSG;
	return rpcr_take_seg(x, &r->seg);
}

static int rpcr_take_write(struct rpcr_xin *x, struct rpcr_hdr *h, u32 i)
{
	return rpcr_take_chunk(x, &h->writes[i]);
}

static int rpcr_take_lists(struct rpcr_xin *x, struct rpcr_hdr *h)
{
	int rc;

	rc = rpcr_take_list(x, h, &h->nreads, RPCR_MAX_READ_SEGS,
			    rpcr_take_read);
	if (!rc)
		rc = rpcr_take_list(x, h, &h->nwrites, RPCR_MAX_WRITE_CHUNKS,
				    rpcr_take_write);
	if (!rc)
		rc = rpcr_take_present(x, &h->has_reply);
	if (!rc && h->has_reply)
		rc = rpcr_take_chunk(x, &h->reply);
	return rc;
}

static int rpcr_take_error(struct rpcr_xin *x, struct rpcr_hdr *h)
{
	if (!rpcr_take32(x, &h->err))
		return -EBADMSG;
	switch (h->err) {
	case RPCR_ERR_VERS:
		if (!rpcr_take32(x, &h->vers_low) ||
		    !rpcr_take32(x, &h->vers_high))
			return -EBADMSG;
		return 0;
	case RPCR_ERR_CHUNK:
		return 0;
	default:
		return -EBADMSG;
	}
}

/**
 * rpcr_hdr_decode() - decode a transport header
 * @buf: the received message
 * @len: its length
 * @h: filled with the header; on any result past -EMSGSIZE at least
 *	@xid, @vers, @credit and @proc are valid, for an error reply
 *
 * Return: the header's length in bytes (an RPCR_MSG's RPC message starts
 * there), or a negative errno: -EMSGSIZE when not even the fixed words
 * are there, -EPROTONOSUPPORT for a version other than 1 (§4.5.1: answer
 * ERR_VERS), -EBADMSG for a header that is not valid XDR of a known type,
 * -E2BIG for more chunks or segments than RPCR_MAX_* (§4.5.2: both are
 * answered with ERR_CHUNK).
 */
int rpcr_hdr_decode(const u8 *buf, size_t len, struct rpcr_hdr *h)
{
	struct rpcr_xin x = { buf, len };
	int rc;

	memset(h, 0, sizeof(*h));
	if (!rpcr_take32(&x, &h->xid) || !rpcr_take32(&x, &h->vers) ||
	    !rpcr_take32(&x, &h->credit) || !rpcr_take32(&x, &h->proc))
		return -EMSGSIZE;
	/* §4.2.2: the fixed words are the same in every version; the
	 * rest is ours only to read in version 1
	 */
	if (h->vers != RPCR_VERSION_1)
		return -EPROTONOSUPPORT;

	switch (h->proc) {
	case RPCR_MSG:
	case RPCR_NOMSG:
		rc = rpcr_take_lists(&x, h);
		break;
	case RPCR_MSGP:
		rc = -EBADMSG;
		if (rpcr_take32(&x, &h->align) && rpcr_take32(&x, &h->thresh))
			rc = rpcr_take_lists(&x, h);
		break;
	case RPCR_DONE:
		rc = 0;
		break;
	case RPCR_ERROR:
		rc = rpcr_take_error(&x, h);
		break;
	default:
		rc = -EBADMSG;
		break;
	}
	return rc ? rc : (int)(len - x.left);
}

/* The message types with chunk lists that may be sent (§4.2.4) */
static bool rpcr_sendable_msg(u32 proc)
{
	return proc == RPCR_MSG || proc == RPCR_NOMSG;
}

/* §4.3: a Write chunk or the Reply chunk offered in a Call has at least
 * one segment; the Responder has nothing to write into otherwise
 */
static bool rpcr_chunks_usable(const struct rpcr_hdr *h)
{
	u32 i;

	for (i = 0; i < h->nwrites; i++)
		if (!h->writes[i].nsegs)
			return false;
	return !h->has_reply || h->reply.nsegs;
}

/**
 * rpcr_hdr_check() - whether a decoded header is one a peer may send
 * @h: header from rpcr_hdr_decode()
 * @call: it came with an RPC Call (we are the Responder), else with a
 *	Reply (we are the Requester)
 *
 * The rules: RDMA_MSGP and RDMA_DONE are not to be used (§4.2.4);
 * Read chunks come only with Calls and their positions are multiples of
 * four (§3.4.5); a position-zero Read chunk carries the whole Call, a
 * Long Call, which is an RDMA_NOMSG, and an RDMA_NOMSG Call is nothing
 * else; an RDMA_NOMSG Reply is a Long Reply, in the Reply chunk
 * (§3.5.3); Write and Reply chunks offered in a Call have segments
 * (§4.3); RDMA_ERROR only answers a Call.
 *
 * Return: 0, or -EBADMSG (answer a Call with ERR_CHUNK).
 */
int rpcr_hdr_check(const struct rpcr_hdr *h, bool call)
{
	bool long_call = h->proc == RPCR_NOMSG;
	bool pos0 = false;
	u32 i;

	if (h->proc == RPCR_ERROR)
		return call ? -EBADMSG : 0;
	if (!rpcr_sendable_msg(h->proc))
		return -EBADMSG;
	if (!call) {
		if (h->nreads)
			return -EBADMSG;
		if (h->proc == RPCR_NOMSG && !h->has_reply)
			return -EBADMSG;
		return 0;
	}
	for (i = 0; i < h->nreads; i++) {
		if (h->reads[i].position & 3)
			return -EBADMSG;
		pos0 |= !h->reads[i].position;
	}
	if (pos0 != long_call)
		return -EBADMSG;
	return rpcr_chunks_usable(h) ? 0 : -EBADMSG;
}

/**
 * rpcr_lists_len() - bytes of a header's three chunk lists
 * @h: header: its Read list, Write list and Reply chunk
 *
 * The lists are the same XDR in version 1 (RFC 8166 §4.3) and in the
 * version 2 draft (§6.3.3), which puts rdma_inv_handle before them.
 *
 * Return: the length; 0 for lists past the RPCR_MAX_* limits.
 */
size_t rpcr_lists_len(const struct rpcr_hdr *h)
{
	size_t n;
	u32 i;

	if (h->nreads > RPCR_MAX_READ_SEGS ||
	    h->nwrites > RPCR_MAX_WRITE_CHUNKS ||
	    (h->has_reply && h->reply.nsegs > RPCR_MAX_CHUNK_SEGS))
		return 0;
	/* every entry of a list, and the end of each list, has a word */
	n = (size_t)h->nreads * (4 + RPCR_READ_SEG_LEN) + 4;
	for (i = 0; i < h->nwrites; i++) {
		if (h->writes[i].nsegs > RPCR_MAX_CHUNK_SEGS)
			return 0;
		n += 8 + (size_t)h->writes[i].nsegs * RPCR_SEG_LEN;
	}
	n += 4 + 4;
	if (h->has_reply)
		n += 4 + (size_t)h->reply.nsegs * RPCR_SEG_LEN;
	return n;
}

/**
 * rpcr_hdr_len() - bytes rpcr_hdr_encode() writes for a header
 * @h: header
 *
 * Return: the length; 0 for a header that cannot be encoded.
 */
size_t rpcr_hdr_len(const struct rpcr_hdr *h)
{
	size_t n;

	if (h->proc == RPCR_ERROR) {
		if (h->err == RPCR_ERR_VERS)
			return RPCR_ERR_VERS_LEN;
		return h->err == RPCR_ERR_CHUNK ? RPCR_ERR_CHUNK_LEN : 0;
	}
	if (!rpcr_sendable_msg(h->proc))
		return 0;
	n = rpcr_lists_len(h);
	return n ? RPCR_HDR_FIXED_LEN + n : 0;
}

static u8 *rpcr_put_seg(u8 *p, const struct rpcr_seg *s)
{
	p = rpcr_put32(p, s->handle);
	p = rpcr_put32(p, s->length);
	p = rpcr_put32(p, (u32)(s->offset >> 32));
	return rpcr_put32(p, (u32)s->offset);
}

static u8 *rpcr_put_chunk(u8 *p, const struct rpcr_write_chunk *c)
{
	u32 i;

	p = rpcr_put32(p, c->nsegs);
	for (i = 0; i < c->nsegs; i++)
		p = rpcr_put_seg(p, &c->segs[i]);
	return p;
}

/**
 * rpcr_put_lists() - encode a header's three chunk lists
 * @p: where to; rpcr_lists_len() bytes, which the caller made sure of
 * @h: header whose lists rpcr_lists_len() found encodable
 *
 * Return: the byte after them.
 */
u8 *rpcr_put_lists(u8 *p, const struct rpcr_hdr *h)
{
	u32 i;

	for (i = 0; i < h->nreads; i++) {
		p = rpcr_put32(p, 1);
		p = rpcr_put32(p, h->reads[i].position);
		p = rpcr_put_seg(p, &h->reads[i].seg);
	}
	p = rpcr_put32(p, 0);
	for (i = 0; i < h->nwrites; i++) {
		p = rpcr_put32(p, 1);
		p = rpcr_put_chunk(p, &h->writes[i]);
	}
	p = rpcr_put32(p, 0);
	p = rpcr_put32(p, h->has_reply);
	if (h->has_reply)
		p = rpcr_put_chunk(p, &h->reply);
	return p;
}

/**
 * rpcr_hdr_encode() - encode a transport header
 * @h: header of type RPCR_MSG, RPCR_NOMSG or RPCR_ERROR (the types not
 *	to be used are refused), its version in @h->vers
 * @buf: where to
 * @size: room at @buf
 *
 * Return: bytes written, -EINVAL for a header that cannot be encoded, or
 * -EMSGSIZE when it does not fit.
 */
int rpcr_hdr_encode(const struct rpcr_hdr *h, u8 *buf, size_t size)
{
	size_t n = rpcr_hdr_len(h);
	u8 *p = buf;

	if (!n)
		return -EINVAL;
	if (n > size)
		return -EMSGSIZE;
	p = rpcr_put32(p, h->xid);
	p = rpcr_put32(p, h->vers);
	p = rpcr_put32(p, h->credit);
	p = rpcr_put32(p, h->proc);
	if (h->proc == RPCR_ERROR) {
		p = rpcr_put32(p, h->err);
		if (h->err == RPCR_ERR_VERS) {
			p = rpcr_put32(p, h->vers_low);
			p = rpcr_put32(p, h->vers_high);
		}
		return (int)(p - buf);
	}
	p = rpcr_put_lists(p, h);
	return (int)(p - buf);
}

/**
 * rpcr_hdr_error() - make @h the error answer to a Call
 * @h: header to fill
 * @xid: the Call's XID
 * @credit: credits granted
 * @err: RPCR_ERR_VERS (with the range of versions taken: 1 to 1) or
 *	RPCR_ERR_CHUNK
 *
 * §4.5: an RDMA_ERROR is a version 1 header whatever the Call's version.
 */
void rpcr_hdr_error(struct rpcr_hdr *h, u32 xid, u32 credit, u32 err)
{
	memset(h, 0, sizeof(*h));
	h->xid = xid;
	h->vers = RPCR_VERSION_1;
	h->credit = credit;
	h->proc = RPCR_ERROR;
	h->err = err;
	if (err == RPCR_ERR_VERS) {
		h->vers_low = RPCR_VERSION_1;
		h->vers_high = RPCR_VERSION_1;
	}
}

/* @handle joins the one of @seen, which turns 0 at a second one */
static void rpcr_one_handle(u32 handle, u32 *seen, bool *first)
{
	if (*first) {
		*seen = handle;
		*first = false;
	} else if (*seen != handle) {
		*seen = 0;
	}
}

/**
 * rpcr_hdr_inv_handle() - the handle a reply to @h may invalidate
 * @h: a decoded Call
 *
 * RFC 8797 (the Remote Invalidation flag of the private data): to a peer
 * that sets it, a Responder may send its reply With Invalidate of one
 * handle the Call named; all the Call's memory goes back that way only
 * when every segment of its chunks carries the same handle.
 *
 * Return: that handle, or 0 when the Call has no chunk or several handles.
 */
u32 rpcr_hdr_inv_handle(const struct rpcr_hdr *h)
{
	bool first = true;
	u32 seen = 0, i, j;

	for (i = 0; i < h->nreads; i++)
		rpcr_one_handle(h->reads[i].seg.handle, &seen, &first);
	for (i = 0; i < h->nwrites; i++)
		for (j = 0; j < h->writes[i].nsegs; j++)
			rpcr_one_handle(h->writes[i].segs[j].handle, &seen,
					&first);
	for (j = 0; h->has_reply && j < h->reply.nsegs; j++)
		rpcr_one_handle(h->reply.segs[j].handle, &seen, &first);
	return seen;
}

/* RFC 8797 §3.1: a size travels as one byte, in KiB less one */
static u32 rpcr_cm_size(u8 code)
{
	return ((u32)code + 1) * 1024;
}

/**
 * rpcr_cm_priv_decode() - the peer's connection private data
 * @buf: the private data of the connect request or accept
 * @len: its length (RDMA-CM pads it; the rest is ignored)
 * @p: filled when found
 *
 * RFC 8797 §3: a peer without it sent no data, another ULP's, or a
 * version we do not know, which is ignored as well; the caller then
 * uses RPCR_V1_INLINE_DEFAULT both ways.
 *
 * Return: 0, or -ENOENT when there is no private data of ours.
 */
int rpcr_cm_priv_decode(const u8 *buf, size_t len, struct rpcr_cm_priv *p)
{
	struct rpcr_xin x = { buf, len };
	u32 magic;

	if (!rpcr_take32(&x, &magic) || magic != RPCR_CM_MAGIC ||
	    x.left < 4 || buf[4] != RPCR_CM_VERSION)
		return -ENOENT;
	p->version = buf[4];
	p->flags = buf[5];
	p->send_size = rpcr_cm_size(buf[6]);
	p->recv_size = rpcr_cm_size(buf[7]);
	return 0;
}

/* The largest size RFC 8797 can carry that is not above @bytes */
static int rpcr_cm_code(u32 bytes)
{
	if (bytes < RPCR_CM_SIZE_MIN)
		return -EINVAL;
	if (bytes > RPCR_CM_SIZE_MAX)
		bytes = RPCR_CM_SIZE_MAX;
	return (int)(bytes / 1024 - 1);
}

/**
 * rpcr_cm_priv_encode() - our connection private data
 * @p: what to announce; a size is rounded down to what the format can
 *	carry (a multiple of 1 KiB, 256 KiB at most)
 * @buf: where to
 * @size: room at @buf
 *
 * Return: RPCR_CM_PRIV_LEN, -EINVAL for a size under 1 KiB, or -EMSGSIZE.
 */
int rpcr_cm_priv_encode(const struct rpcr_cm_priv *p, u8 *buf, size_t size)
{
	int snd = rpcr_cm_code(p->send_size);
	int rcv = rpcr_cm_code(p->recv_size);

	if (snd < 0 || rcv < 0)
		return -EINVAL;
	if (size < RPCR_CM_PRIV_LEN)
		return -EMSGSIZE;
	rpcr_put32(buf, RPCR_CM_MAGIC);
	buf[4] = p->version;
	buf[5] = p->flags;
	buf[6] = (u8)snd;
	buf[7] = (u8)rcv;
	return RPCR_CM_PRIV_LEN;
}
