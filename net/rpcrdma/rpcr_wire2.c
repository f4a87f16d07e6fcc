// SPDX-License-Identifier: GPL-2.0
/*
 * rpcr: encoding, decoding and checking the RPC-over-RDMA version 2
 * transport header of draft-ietf-nfsv4-rpcrdma-version-two, 17 November
 * 2019 (section numbers are that revision's).
 *
 * Every header starts with the five-word prefix of §6.3.2: rdma_xid,
 * rdma_vers, rdma_credit, rdma_htype, rdma_flags. RDMA2_MSG and
 * RDMA2_NOMSG go on with rdma_inv_handle and version 1's three chunk
 * lists (§6.3.3), RDMA2_ERROR with the union rpcrdma2_error (§6.4.3),
 * RDMA2_CONNPROP with a counted array of properties (§5.1, §6.4.4).
 *
 * A decoder that refuses a message also says what §6.4.3 wants sent
 * back (struct rpcr2_err), or that the message is to be dropped. Input
 * is read through the bounded cursor of rpcr_wire.h and nothing is
 * allocated: counts are checked against the bytes left before any loop.
 */

#include "rpcr_wire2.h"

/* The error answer to a message, or with @code 0 none: drop it */
static int rpcr2_fail(struct rpcr2_err *v, u32 code, u32 max, int rc)
{
	memset(v, 0, sizeof(*v));
	v->code = code;
	v->max = max;
	return rc;
}

/* The words of an error code's body, in wire order (§6.4.3). A code
 * with none, known or not, takes the union's void arm (Appendix B.4).
 */
static u32 rpcr2_err_words(struct rpcr2_err *e, u32 *w[2])
{
	switch (e->code) {
	case RPCR2_ERR_VERS:
		w[0] = &e->vers_low;
		w[1] = &e->vers_high;
		return 2;
	case RPCR2_ERR_READ_CHUNKS:
	case RPCR2_ERR_WRITE_CHUNKS:
	case RPCR2_ERR_SEGMENTS:
		w[0] = &e->max;
		return 1;
	case RPCR2_ERR_WRITE_RESOURCE:
		w[0] = &e->chunk_index;
		w[1] = &e->length_needed;
		return 2;
	case RPCR2_ERR_REPLY_RESOURCE:
		w[0] = &e->length_needed;
		return 1;
	default:
		return 0;
	}
}

static int rpcr2_take_error(struct rpcr_xin *x, struct rpcr2_err *e)
{
	u32 *w[2], n, i;

	if (!rpcr_take32(x, &e->code))
		return -EBADMSG;
	n = rpcr2_err_words(e, w);
	for (i = 0; i < n; i++)
		if (!rpcr_take32(x, w[i]))
			return -EBADMSG;
	return 0;
}

/* The Read list (§6.3.3, RFC 8166 §4.3.1). A Read chunk is the run of
 * entries with one position (§4.4.5). Entries past what struct rpcr_hdr
 * holds are read on, not kept, so that the answer names the limit that
 * was passed: too many chunks, or too many segments.
 */
static int rpcr2_take_reads(struct rpcr_xin *x, struct rpcr_hdr *b,
			    struct rpcr2_err *v)
{
	struct rpcr_read_seg spare, *r;
	u32 n = 0, chunks = 0, prev = 0;
	bool more;

	for (;;) {
		if (rpcr_take_present(x, &more))
			return rpcr2_fail(v, RPCR2_ERR_BAD_XDR, 0, -EBADMSG);
		if (!more)
			break;
		r = n < RPCR_MAX_READ_SEGS ? &b->reads[n] : &spare;
		if (!rpcr_take32(x, &r->position) || rpcr_take_seg(x, &r->seg))
			return rpcr2_fail(v, RPCR2_ERR_BAD_XDR, 0, -EBADMSG);
		if (!n || r->position != prev)
			chunks++;
		prev = r->position;
		n++;
	}
	if (chunks > RPCR2_MAX_READ_CHUNKS)
		return rpcr2_fail(v, RPCR2_ERR_READ_CHUNKS,
				  RPCR2_MAX_READ_CHUNKS, -E2BIG);
	if (n > RPCR_MAX_READ_SEGS)
		return rpcr2_fail(v, RPCR2_ERR_SEGMENTS, RPCR_MAX_READ_SEGS,
				  -E2BIG);
	b->nreads = n;
	return 0;
}

/* A Write or Reply chunk; rpcr_take_chunk() bounds its count */
static int rpcr2_take_chunk(struct rpcr_xin *x, struct rpcr_write_chunk *c,
			    struct rpcr2_err *v)
{
	int rc = rpcr_take_chunk(x, c);

	if (rc == -E2BIG)
		return rpcr2_fail(v, RPCR2_ERR_SEGMENTS, RPCR_MAX_CHUNK_SEGS, rc);
	if (rc)
		return rpcr2_fail(v, RPCR2_ERR_BAD_XDR, 0, rc);
	return 0;
}

/* A Write chunk past our limit: only its count is checked, then skipped */
static bool rpcr2_skip_chunk(struct rpcr_xin *x)
{
	u32 nsegs;

	if (!rpcr_take32(x, &nsegs) || nsegs > x->left / RPCR_SEG_LEN)
		return false;
	x->p += (size_t)nsegs * RPCR_SEG_LEN;
	x->left -= (size_t)nsegs * RPCR_SEG_LEN;
	return true;
}

static int rpcr2_take_writes(struct rpcr_xin *x, struct rpcr_hdr *b,
			     struct rpcr2_err *v)
{
	bool more, over = false;
	int rc;

	for (;;) {
		if (rpcr_take_present(x, &more))
			return rpcr2_fail(v, RPCR2_ERR_BAD_XDR, 0, -EBADMSG);
		if (!more)
			break;
		if (b->nwrites == RPCR_MAX_WRITE_CHUNKS) {
			over = true;
			if (!rpcr2_skip_chunk(x))
				return rpcr2_fail(v, RPCR2_ERR_BAD_XDR, 0,
						  -EBADMSG);
			continue;
		}
		rc = rpcr2_take_chunk(x, &b->writes[b->nwrites++], v);
		if (rc)
			return rc;
	}
	if (over)
		return rpcr2_fail(v, RPCR2_ERR_WRITE_CHUNKS,
				  RPCR_MAX_WRITE_CHUNKS, -E2BIG);
	return 0;
}

/* rpcrdma2_chunk_lists (§6.3.3) */
static int rpcr2_take_lists(struct rpcr_xin *x, struct rpcr2_hdr *h,
			    struct rpcr2_err *v)
{
	struct rpcr_hdr *b = &h->base;
	int rc;

	if (!rpcr_take32(x, &h->inv_handle))
		return rpcr2_fail(v, RPCR2_ERR_BAD_XDR, 0, -EBADMSG);
	rc = rpcr2_take_reads(x, b, v);
	if (!rc)
		rc = rpcr2_take_writes(x, b, v);
	if (rc)
		return rc;
	if (rpcr_take_present(x, &b->has_reply))
		return rpcr2_fail(v, RPCR2_ERR_BAD_XDR, 0, -EBADMSG);
	return b->has_reply ? rpcr2_take_chunk(x, &b->reply, v) : 0;
}

static bool rpcr2_has_chunks(const struct rpcr_hdr *b)
{
	return b->nreads || b->nwrites || b->has_reply;
}

/* One property (§5.1): a uint32 one is empty (its default) or one word;
 * the Host Auth Message is empty or an XDR opaque<> filling rdma_data.
 */
static int rpcr2_take_prop(struct rpcr2_props *p, u32 id, const u8 *data,
			   u32 len)
{
	struct rpcr_xin x = { data, len };
	u32 *val[] = { NULL, &p->sbsiz, &p->rbsiz, &p->rssiz, &p->rcsiz,
		       &p->brs };
	u32 alen;

	if (id < RPCR2_PROP_SBSIZ || id > RPCR2_PROP_MAX) {
		p->nunknown++;	/* §5.1, §6.4.4: skipped, no error */
		return 0;
	}
	p->present |= 1u << id;
	if (id == RPCR2_PROP_HOSTAUTH) {
		p->hostauth = NULL;
		p->hostauth_len = 0;
		if (!len)
			return 0;
		if (!rpcr_take32(&x, &alen) || alen > x.left ||
		    x.left - alen > 3 || (x.left & 3))
			return -EBADMSG;
		p->hostauth = alen ? x.p : NULL;
		p->hostauth_len = alen;
		return 0;
	}
	if (!len) {
		*val[id] = rpcr2_prop_default(id);
		return 0;
	}
	return len == 4 && rpcr_take32(&x, val[id]) ? 0 : -EBADMSG;
}

/* rpcrdma2_propset: a counted array of rpcrdma2_propval (§5.1) */
static int rpcr2_take_props(struct rpcr_xin *x, struct rpcr2_props *p)
{
	u32 i, id, len;
	size_t padded;

	/* each entry is at least its id and its length */
	if (!rpcr_take32(x, &p->nprops) || p->nprops > x->left / 8)
		return -EBADMSG;
	for (i = 0; i < p->nprops; i++) {
		if (!rpcr_take32(x, &id) || !rpcr_take32(x, &len) ||
		    len > x->left)
			return -EBADMSG;
		padded = ((size_t)len + 3) & ~(size_t)3;
		if (padded > x->left || rpcr2_take_prop(p, id, x->p, len))
			return -EBADMSG;
		x->p += padded;
		x->left -= padded;
	}
	return 0;
}

static bool rpcr2_known_htype(u32 htype)
{
	return htype == RPCR2_MSG || htype == RPCR2_NOMSG ||
	       htype == RPCR2_ERROR || htype == RPCR2_CONNPROP;
}

/* rdma_flags against the header type (§6.3.2, §6.3.2.1, §6.3.2.2) */
static bool rpcr2_flags_valid(u32 htype, u32 flags)
{
	if (flags & ~RPCR2_F_KNOWN)
		return false;
	if ((flags & RPCR2_F_MORE) && htype != RPCR2_MSG &&
	    htype != RPCR2_CONNPROP)
		return false;
	return htype != RPCR2_ERROR || (flags & RPCR2_F_RESPONSE);
}

static int rpcr2_take_body(struct rpcr_xin *x, struct rpcr2_hdr *h,
			   struct rpcr2_err *v)
{
	u32 htype = h->base.proc;
	int rc;

	if (!rpcr_take32(x, &h->flags))
		return rpcr2_fail(v, RPCR2_ERR_BAD_XDR, 0, -EBADMSG);
	if (!rpcr2_flags_valid(htype, h->flags))
		return rpcr2_fail(v, RPCR2_ERR_INVAL_FLAG, 0, -EINVAL);

	switch (htype) {
	case RPCR2_MSG:
	case RPCR2_NOMSG:
		rc = rpcr2_take_lists(x, h, v);
		if (rc)
			return rc;
		/* §6.3.2.2: a message with more to come has no chunks */
		if ((h->flags & RPCR2_F_MORE) && rpcr2_has_chunks(&h->base))
			return rpcr2_fail(v, RPCR2_ERR_INVAL_FLAG, 0, -EINVAL);
		/* §6.4.1: rdma_rpc_first_word, the message's start */
		if (htype == RPCR2_MSG && !x->left)
			return rpcr2_fail(v, RPCR2_ERR_BAD_XDR, 0, -EBADMSG);
		return 0;
	case RPCR2_ERROR:
		return rpcr2_take_error(x, &h->error) ?
		       rpcr2_fail(v, RPCR2_ERR_BAD_XDR, 0, -EBADMSG) : 0;
	default:
		return rpcr2_take_props(x, &h->props) ?
		       rpcr2_fail(v, RPCR2_ERR_BAD_XDR, 0, -EBADMSG) : 0;
	}
}

/**
 * rpcr2_hdr_decode() - decode a version 2 transport header
 * @buf: the received message
 * @len: its length
 * @h: filled with the header; past -EMSGSIZE at least @h->base.xid,
 *	.vers, .credit and .proc are valid, for an error answer
 * @verdict: on failure, the RDMA2_ERROR body §6.4.3 wants sent back; a
 *	@verdict->code of 0 means none: drop the message
 *
 * A Requester sends no RDMA2_ERROR (§6.4.3): it drops what a Responder
 * would answer. An RDMA2_ERROR that does not decode is always dropped:
 * errors are not answered with errors.
 *
 * Return: the header's length (an RDMA2_MSG's RPC message starts there),
 * or a negative errno with @verdict:
 * -EMSGSIZE: shorter than the four words of §6.3.1 (drop);
 * -EPROTONOSUPPORT: rdma_vers is not 2 (ERR_VERS, versions 1 to 2; the
 * caller decodes version 1 itself, §4.3.3);
 * -EOPNOTSUPP: a header type §6.2 does not define (ERR_INVAL_HTYPE);
 * -EINVAL: reserved flags set, RPCRDMA2_F_MORE on a type other than MSG
 * or CONNPROP or with chunks, an ERROR without RPCRDMA2_F_RESPONSE
 * (ERR_INVAL_FLAG, §6.3.2);
 * -EBADMSG: the rest is not the XDR of its type, ends early or holds a
 * property value that is not its typedef's (ERR_BAD_XDR, §5.1);
 * -E2BIG: more Read chunks, Write chunks or segments in a chunk than
 * RPCR2_MAX_READ_CHUNKS and RPCR_MAX_* (ERR_READ_CHUNKS,
 * ERR_WRITE_CHUNKS, ERR_SEGMENTS with the limit).
 */
int rpcr2_hdr_decode(const u8 *buf, size_t len, struct rpcr2_hdr *h,
		     struct rpcr2_err *verdict)
{
	struct rpcr_xin x = { buf, len };
	struct rpcr_hdr *b = &h->base;
	int rc;

	memset(h, 0, sizeof(*h));
	memset(verdict, 0, sizeof(*verdict));
	if (!rpcr_take32(&x, &b->xid) || !rpcr_take32(&x, &b->vers) ||
	    !rpcr_take32(&x, &b->credit) || !rpcr_take32(&x, &b->proc))
		return -EMSGSIZE;
	if (b->vers != RPCR_VERSION_2) {
		verdict->code = RPCR2_ERR_VERS;
		verdict->vers_low = RPCR_VERSION_1;
		verdict->vers_high = RPCR_VERSION_2;
		return -EPROTONOSUPPORT;
	}
	if (!rpcr2_known_htype(b->proc))
		return rpcr2_fail(verdict, RPCR2_ERR_INVAL_HTYPE, 0, -EOPNOTSUPP);
	rc = rpcr2_take_body(&x, h, verdict);
	if (rc) {
		if (b->proc == RPCR2_ERROR)
			memset(verdict, 0, sizeof(*verdict));
		return rc;
	}
	return (int)(len - x.left);
}

/**
 * rpcr2_credit_refresh() - whether a header is a credit grant refresh
 * @h: decoded header
 *
 * §6.4.2: an RDMA2_NOMSG whose three chunk lists are empty carries only
 * its rdma_credit (§4.3.1.2); its rdma_xid is zero.
 *
 * Return: true for one.
 */
bool rpcr2_credit_refresh(const struct rpcr2_hdr *h)
{
	return h->base.proc == RPCR2_NOMSG && !rpcr2_has_chunks(&h->base);
}

/**
 * rpcr2_peek_more() - whether a message says the next one continues it
 * @buf: the received message, not yet decoded
 * @len: its length
 *
 * §6.3.2.2: RPCRDMA2_F_MORE joins the payload of the next message to
 * this one's. Only the prefix is read, so that a receive handler can
 * keep the messages of a sequence together; each is decoded in full
 * (rpcr_msg_decode()) before its payload is used.
 *
 * Return: true for a message of version 2 with RPCRDMA2_F_MORE set.
 */
bool rpcr2_peek_more(const u8 *buf, size_t len)
{
	struct rpcr_xin x = { buf, len };
	u32 xid, vers, credit, htype, flags;

	return rpcr_take32(&x, &xid) && rpcr_take32(&x, &vers) &&
	       rpcr_take32(&x, &credit) && rpcr_take32(&x, &htype) &&
	       rpcr_take32(&x, &flags) && vers == RPCR_VERSION_2 &&
	       (flags & RPCR2_F_MORE);
}

/**
 * rpcr2_peek_refresh() - whether a message is a plain credit refresh
 * @buf: the received message, not yet decoded
 * @len: its length
 * @credit: set to its rdma_credit, for one
 *
 * §6.4.2: a credit grant refresh is an RDMA2_NOMSG of rdma_xid zero with
 * empty chunk lists. It asks for no answer and carries nothing for the
 * RPC layer, so a receive handler may take it at once. Only the exact
 * form is recognised, rdma_flags and rdma_inv_handle zero too; any
 * other message goes through rpcr_msg_decode() as before.
 *
 * Return: true for one.
 */
bool rpcr2_peek_refresh(const u8 *buf, size_t len, u32 *credit)
{
	struct rpcr_xin x = { buf, len };
	u32 w[RPCR2_BARE_HDR_LEN / 4];
	u32 i;

	if (len != RPCR2_BARE_HDR_LEN)
		return false;
	for (i = 0; i < RPCR2_BARE_HDR_LEN / 4; i++)
		if (!rpcr_take32(&x, &w[i]))
			return false;
	/* the XID, then the flags, the handle and the three lists */
	if (w[1] != RPCR_VERSION_2 || w[3] != RPCR2_NOMSG ||
	    (w[0] | w[4] | w[5] | w[6] | w[7] | w[8]))
		return false;
	*credit = w[2];
	return true;
}

/**
 * rpcr2_more_check() - check a message of a sequence against its first
 * @first: the decoded header of the sequence's first message, which had
 *	RPCRDMA2_F_MORE
 * @next: the decoded header of a later one
 * @verdict: set to ERR_INVAL_FLAG on a refusal
 *
 * §6.3.2.2: every message of a sequence has the first's rdma_xid and
 * rdma_htype. Continued RDMA2_MSG only: what a sequence of RDMA2_CONNPROP
 * would carry, properties split anywhere, is not reassembled here.
 *
 * Return: 0, or -EINVAL with @verdict.
 */
int rpcr2_more_check(const struct rpcr2_hdr *first,
		     const struct rpcr2_hdr *next, struct rpcr2_err *verdict)
{
	memset(verdict, 0, sizeof(*verdict));
	if (first->base.vers == RPCR_VERSION_2 &&
	    next->base.vers == RPCR_VERSION_2 &&
	    first->base.proc == RPCR2_MSG && next->base.proc == RPCR2_MSG &&
	    next->base.xid == first->base.xid)
		return 0;
	return rpcr2_fail(verdict, RPCR2_ERR_INVAL_FLAG, 0, -EINVAL);
}

/**
 * rpcr2_more_sends() - the Sends a continued message takes (§6.3.2.2)
 * @len: the payload's bytes
 * @room_more: what one Send with RPCRDMA2_F_MORE carries besides its
 *	header (RPCR2_MORE_HDR_LEN)
 * @room_last: what the last one carries besides its header, which holds
 *	the chunks
 *
 * Return: how many Sends, each full but the last: 1 when it fits one,
 * 0 when it cannot be sent that way (@room_more of 0, or more Sends
 * than a u32 counts).
 */
u32 rpcr2_more_sends(u32 len, u32 room_more, u32 room_last)
{
	u64 n;

	if (len <= room_last)
		return 1;
	if (!room_more)
		return 0;
	n = 1 + ((u64)len - room_last + room_more - 1) / room_more;
	return n > (u32)~0U ? 0 : (u32)n;
}

/**
 * rpcr2_more_granted() - the Sends a reply may take, as its call granted
 * @len: the reply's payload bytes
 * @room_more: what one Send with RPCRDMA2_F_MORE carries besides its
 *	header
 * @room_last: what the last one carries besides its header
 * @credit: the call's rdma_credit
 *
 * §4.3.1.1, as this implementation reads it: a requester's credits are
 * its receives, and the low half of a call's credit word the ones it
 * newly grants for the reply, each a Send of it (§6.3.2.2). No more than
 * RPCR_MORE_SENDS_MAX either way.
 *
 * Return: how many Sends, 2 or more; 0 when the reply fits one, or does
 * not fit those granted.
 */
u32 rpcr2_more_granted(u32 len, u32 room_more, u32 room_last, u32 credit)
{
	u32 max = rpcr2_credit_granted(credit);
	u32 n = rpcr2_more_sends(len, room_more, room_last);

	if (max > RPCR_MORE_SENDS_MAX)
		max = RPCR_MORE_SENDS_MAX;
	return n >= 2 && n <= max ? n : 0;
}

/* §6.3.3.2: whether @handle is the rdma_handle of a segment of @b */
static bool rpcr2_names_handle(const struct rpcr_hdr *b, u32 handle)
{
	u32 i, j;

	for (i = 0; i < b->nreads; i++)
		if (b->reads[i].seg.handle == handle)
			return true;
	for (i = 0; i < b->nwrites; i++)
		for (j = 0; j < b->writes[i].nsegs; j++)
			if (b->writes[i].segs[j].handle == handle)
				return true;
	for (j = 0; b->has_reply && j < b->reply.nsegs; j++)
		if (b->reply.segs[j].handle == handle)
			return true;
	return false;
}

/**
 * rpcr2_hdr_check() - whether a decoded header is one a peer may send
 * @h: header from rpcr2_hdr_decode()
 * @call: it came with (or, for NOMSG, for) an RPC Call, as its
 *	RPCRDMA2_F_RESPONSE flag being clear says (§6.3.2.1); else a Reply
 * @verdict: on failure, the error to answer with (@verdict->code 0: drop)
 *
 * The rules: an RDMA2_ERROR does not answer a Call, and is dropped, not
 * answered (§6.4.3); a credit refresh has rdma_xid zero (§6.4.2); the
 * chunks of RDMA2_MSG and RDMA2_NOMSG follow version 1's rules
 * (§6.3.3.1, rpcr_hdr_check()); a Call's non-zero rdma_inv_handle is
 * the handle of one of its segments (§6.3.3.2). RDMA2_CONNPROP goes
 * either way (§6.4.4).
 *
 * Return: 0, or -EBADMSG.
 */
int rpcr2_hdr_check(const struct rpcr2_hdr *h, bool call,
		    struct rpcr2_err *verdict)
{
	const struct rpcr_hdr *b = &h->base;

	memset(verdict, 0, sizeof(*verdict));
	switch (b->proc) {
	case RPCR2_ERROR:
		return call ? -EBADMSG : 0;
	case RPCR2_CONNPROP:
		return 0;
	}
	if (rpcr2_credit_refresh(h))
		return b->xid ? rpcr2_fail(verdict, RPCR2_ERR_BAD_XDR, 0,
					   -EBADMSG) : 0;
	if (rpcr_hdr_check(b, call))
		return rpcr2_fail(verdict, RPCR2_ERR_BAD_XDR, 0, -EBADMSG);
	if (call && h->inv_handle && !rpcr2_names_handle(b, h->inv_handle))
		return rpcr2_fail(verdict, RPCR2_ERR_BAD_XDR, 0, -EBADMSG);
	return 0;
}

#define RPCR2_PROPS_KNOWN	(((1u << (RPCR2_PROP_MAX + 1)) - 1) & ~1u)

/* rdma_data of the Host Auth Message: an opaque<> with its roundup */
static size_t rpcr2_hostauth_len(const struct rpcr2_props *p)
{
	return 4 + (((size_t)p->hostauth_len + 3) & ~(size_t)3);
}

/* rpcrdma2_connprop, each carried property in the order of its id */
static size_t rpcr2_props_len(const struct rpcr2_props *p)
{
	size_t n = 4;
	u32 id;

	if ((p->present & ~RPCR2_PROPS_KNOWN) ||
	    (p->hostauth_len && !p->hostauth))
		return 0;
	for (id = RPCR2_PROP_SBSIZ; id <= RPCR2_PROP_MAX; id++) {
		if (!(p->present & (1u << id)))
			continue;
		n += 8;
		n += id == RPCR2_PROP_HOSTAUTH ? rpcr2_hostauth_len(p) : 4;
	}
	return n;
}

static u8 *rpcr2_put_props(u8 *p, const struct rpcr2_props *pr)
{
	const u32 val[] = { 0, pr->sbsiz, pr->rbsiz, pr->rssiz, pr->rcsiz,
			    pr->brs };
	u32 id, n = 0;
	size_t pad;

	for (id = RPCR2_PROP_SBSIZ; id <= RPCR2_PROP_MAX; id++)
		n += !!(pr->present & (1u << id));
	p = rpcr_put32(p, n);
	for (id = RPCR2_PROP_SBSIZ; id <= RPCR2_PROP_MAX; id++) {
		if (!(pr->present & (1u << id)))
			continue;
		p = rpcr_put32(p, id);
		if (id != RPCR2_PROP_HOSTAUTH) {
			p = rpcr_put32(p, 4);
			p = rpcr_put32(p, val[id]);
			continue;
		}
		p = rpcr_put32(p, (u32)rpcr2_hostauth_len(pr));
		p = rpcr_put32(p, pr->hostauth_len);
		pad = rpcr2_hostauth_len(pr) - 4;
		if (pr->hostauth_len)
			memcpy(p, pr->hostauth, pr->hostauth_len);
		/* XDR roundup: zero bytes to the next word (RFC 4506 §4.10) */
		memset(p + pr->hostauth_len, 0, pad - pr->hostauth_len);
		p += pad;
	}
	return p;
}

/* §6.3.2: the five words every version 2 header starts with */
static u8 *rpcr2_put_prefix(u8 *p, u32 xid, u32 vers, u32 credit, u32 htype,
			    u32 flags)
{
	p = rpcr_put32(p, xid);
	p = rpcr_put32(p, vers);
	p = rpcr_put32(p, credit);
	p = rpcr_put32(p, htype);
	return rpcr_put32(p, flags);
}

/**
 * rpcr2_hdr_len() - bytes rpcr2_hdr_encode() writes for a header
 * @h: header
 *
 * Return: the length; 0 for a header that cannot be encoded: a type §6.2
 * does not define, flags rpcr2_hdr_decode() would refuse, chunk lists
 * past RPCR_MAX_*, a property not of enum rpcr2_propid.
 */
size_t rpcr2_hdr_len(const struct rpcr2_hdr *h)
{
	const struct rpcr_hdr *b = &h->base;
	struct rpcr2_err e = h->error;
	u32 *w[2];
	size_t n;

	if (!rpcr2_known_htype(b->proc) ||
	    !rpcr2_flags_valid(b->proc, h->flags))
		return 0;
	switch (b->proc) {
	case RPCR2_MSG:
	case RPCR2_NOMSG:
		if ((h->flags & RPCR2_F_MORE) && rpcr2_has_chunks(b))
			return 0;
		n = rpcr_lists_len(b);
		return n ? RPCR2_PREFIX_LEN + 4 + n : 0;
	case RPCR2_ERROR:
		return RPCR2_ERR_LEN + 4 * rpcr2_err_words(&e, w);
	default:
		n = rpcr2_props_len(&h->props);
		return n ? RPCR2_PREFIX_LEN + n : 0;
	}
}

/**
 * rpcr2_more_take() - the payload bytes of a Send that more follow
 * @left: the bytes of the message not yet sent, 2 at least
 * @room_more: what such a Send carries at most besides its header
 *
 * As many as fit, but one left at least: the last Send of a sequence is
 * an RDMA2_MSG too, whose payload cannot be empty (§6.4.1). With the
 * count of rpcr2_more_sends(), each Send carries 1 to its room.
 *
 * Return: the bytes this Send carries.
 */
u32 rpcr2_more_take(u32 left, u32 room_more)
{
	return left - 1 < room_more ? left - 1 : room_more;
}

/* The prefix (§6.3.2) and an rdma_inv_handle and chunk lists all zero:
 * the header of a continued Send and of a credit refresh alike
 */
static int rpcr2_bare_encode(u32 xid, u32 credit, u32 htype, u32 flags,
			     u8 *buf, size_t size)
{
	u8 *p = buf;

	if (size < RPCR2_BARE_HDR_LEN)
		return -EMSGSIZE;
	p = rpcr_put32(p, xid);
	p = rpcr_put32(p, RPCR_VERSION_2);
	p = rpcr_put32(p, credit);
	p = rpcr_put32(p, htype);
	p = rpcr_put32(p, flags);
	p = rpcr_put32(p, 0);
	p = rpcr_put32(p, 0);
	p = rpcr_put32(p, 0);
	p = rpcr_put32(p, 0);
	return (int)(p - buf);
}

/**
 * rpcr2_more_encode() - encode the header of a Send that more follow
 * @xid: the message's rdma_xid
 * @credit: rdma_credit, both halves
 * @flags: RPCRDMA2_F_RESPONSE for a part of a reply, else 0
 * @buf: where to
 * @size: room at @buf
 *
 * §6.3.2.2: an RDMA2_MSG with RPCRDMA2_F_MORE, no rdma_inv_handle and
 * empty chunk lists; the part of the RPC message it carries is appended
 * by the caller. The last Send of the message has a header of its own
 * (rpcr2_hdr_encode()), the same XID and type, and the chunks.
 *
 * Return: RPCR2_MORE_HDR_LEN, or -EMSGSIZE when it does not fit.
 */
int rpcr2_more_encode(u32 xid, u32 credit, u32 flags, u8 *buf, size_t size)
{
	return rpcr2_bare_encode(xid, credit, RPCR2_MSG,
				 (flags & RPCR2_F_RESPONSE) | RPCR2_F_MORE,
				 buf, size);
}

/**
 * rpcr2_refresh_encode() - encode a credit grant refresh
 * @credit: rdma_credit, both halves (§4.3.1.1)
 * @buf: where to
 * @size: room at @buf
 *
 * §6.4.2: an RDMA2_NOMSG with empty chunk lists and rdma_xid zero; the
 * peer keeps a receive for one beyond its credits (§4.3.1.2).
 *
 * Return: RPCR2_NOMSG_MIN_LEN, or -EMSGSIZE when it does not fit.
 */
int rpcr2_refresh_encode(u32 credit, u8 *buf, size_t size)
{
	return rpcr2_bare_encode(0, credit, RPCR2_NOMSG, 0, buf, size);
}

/**
 * rpcr2_hdr_encode() - encode a version 2 transport header
 * @h: header; its version in @h->base.vers (2 but for tests), the RPC
 *	message of an RDMA2_MSG appended by the caller
 * @buf: where to
 * @size: room at @buf
 *
 * Return: bytes written, -EINVAL for a header rpcr2_hdr_len() refuses,
 * or -EMSGSIZE when it does not fit.
 */
int rpcr2_hdr_encode(const struct rpcr2_hdr *h, u8 *buf, size_t size)
{
	const struct rpcr_hdr *b = &h->base;
	size_t n = rpcr2_hdr_len(h);
	struct rpcr2_err e = h->error;
	u32 *w[2], nw, i;
	u8 *p = buf;

	if (!n)
		return -EINVAL;
	if (n > size || n > (size_t)0x7fffffff)
		return -EMSGSIZE;
	p = rpcr2_put_prefix(p, b->xid, b->vers, b->credit, b->proc, h->flags);
	switch (b->proc) {
	case RPCR2_MSG:
	case RPCR2_NOMSG:
		p = rpcr_put32(p, h->inv_handle);
		p = rpcr_put_lists(p, b);
		break;
	case RPCR2_ERROR:
		p = rpcr_put32(p, e.code);
		nw = rpcr2_err_words(&e, w);
		for (i = 0; i < nw; i++)
			p = rpcr_put32(p, *w[i]);
		break;
	default:
		p = rpcr2_put_props(p, &h->props);
		break;
	}
	return (int)(p - buf);
}

/**
 * rpcr2_hdr_error() - make @h an RDMA2_ERROR
 * @h: header to fill
 * @xid: the XID of the message answered
 * @credit: the connection's credit grant (ignored by the receiver)
 * @err: the body, a decode or check verdict as it is
 *
 * §6.4.3: the answer carries the XID and the version of the message it
 * answers, which is 2 for every message rpcr2_hdr_decode() takes; it
 * has RPCRDMA2_F_RESPONSE set (§6.3.2.1). An ERR_VERS to a version this
 * module does not know may as well go in version 1's layout
 * (rpcr_hdr_error()), which every version 1 peer reads.
 */
void rpcr2_hdr_error(struct rpcr2_hdr *h, u32 xid, u32 credit,
		     const struct rpcr2_err *err)
{
	memset(h, 0, sizeof(*h));
	h->base.xid = xid;
	h->base.vers = RPCR_VERSION_2;
	h->base.credit = credit;
	h->base.proc = RPCR2_ERROR;
	h->flags = RPCR2_F_RESPONSE;
	h->error = *err;
}

/**
 * rpcr2_prop_default() - a transport property's default (§5.2)
 * @id: enum rpcr2_propid
 *
 * Return: the value a peer has until it says otherwise; 0 for the Host
 * Auth Message (none: unauthenticated) and for ids not known here.
 */
u32 rpcr2_prop_default(u32 id)
{
	switch (id) {
	case RPCR2_PROP_SBSIZ:
		return RPCR2_SBSIZ_DEFAULT;
	case RPCR2_PROP_RBSIZ:
		return RPCR2_RBSIZ_DEFAULT;
	case RPCR2_PROP_RSSIZ:
		return RPCR2_RSSIZ_DEFAULT;
	case RPCR2_PROP_RCSIZ:
		return RPCR2_RCSIZ_DEFAULT;
	case RPCR2_PROP_BRS:
		return RPCR2_BRS_DEFAULT;
	default:
		return 0;
	}
}

/* A server of version 1 only answers a version 2 call with version 1's
 * ERR_VERS, but with the call's version word: Linux's svcrdma copies
 * the first two words of the call. As a version 2 RDMA2_ERROR those 28
 * bytes end before rdma_vers_high; read as version 1's, they say which
 * versions the server takes. Return: whether @buf is one, then in @h
 * as version 1's layout (@h->base.vers 1, rdma_vers_low and _high).
 */
static bool rpcr_msg_v1_err_vers(const u8 *buf, size_t len,
				 struct rpcr2_hdr *h)
{
	struct rpcr_xin x = { buf + RPCR_HDR_FIXED_LEN,
			      len - RPCR_HDR_FIXED_LEN };
	u32 err;

	if (len != RPCR_ERR_VERS_LEN || h->base.proc != RPCR_ERROR ||
	    !rpcr_take32(&x, &err) || err != RPCR_ERR_VERS)
		return false;
	memset(&h->error, 0, sizeof(h->error));
	h->flags = 0;
	h->base.vers = RPCR_VERSION_1;
	h->base.err = err;
	return rpcr_take32(&x, &h->base.vers_low) &&
	       rpcr_take32(&x, &h->base.vers_high) &&
	       h->base.vers_low <= h->base.vers_high;
}

/**
 * rpcr_msg_decode() - decode a transport header of version 1 or 2
 * @buf: the received message
 * @len: its length
 * @h: filled with the header: @h->base.vers says which version's rules
 *	it follows; a version 1 header is in @h->base alone
 * @verdict: on failure, the error to answer with (@verdict->code 0:
 *	drop), to be sent in the layout rpcr_msg_error() picks
 *
 * The first four words are the same in every version (RFC 8166 §4.2,
 * §4.3.3 here): the version word says how the rest reads. A message of
 * another version gets ERR_VERS, versions 1 to 2. Version 1's ERR_CHUNK
 * has the value of version 2's ERR_BAD_XDR, which a version 1 header
 * that does not decode gets. Version 1's ERR_VERS with version 2's
 * version word (what a server of version 1 answers a call of version
 * 2 with) is taken as version 1's.
 *
 * Return: the header's length, or a negative errno as rpcr2_hdr_decode()
 * or, for version 1, rpcr_hdr_decode() returns it.
 */
int rpcr_msg_decode(const u8 *buf, size_t len, struct rpcr2_hdr *h,
		    struct rpcr2_err *verdict)
{
	int rc = rpcr2_hdr_decode(buf, len, h, verdict);

	if (rc == -EBADMSG && rpcr_msg_v1_err_vers(buf, len, h))
		return (int)len;
	if (rc != -EPROTONOSUPPORT || h->base.vers != RPCR_VERSION_1)
		return rc;
	memset(verdict, 0, sizeof(*verdict));
	rc = rpcr_hdr_decode(buf, len, &h->base);
	if (rc < 0 && rc != -EMSGSIZE)
		verdict->code = RPCR_ERR_CHUNK;
	return rc;
}

/**
 * rpcr_msg_check() - rpcr_hdr_check() or rpcr2_hdr_check(), by version
 * @h: header from rpcr_msg_decode()
 * @call: it came from a Requester
 * @verdict: on failure, the error to answer with (@verdict->code 0: drop)
 *
 * Return: 0, or -EBADMSG.
 */
int rpcr_msg_check(const struct rpcr2_hdr *h, bool call,
		   struct rpcr2_err *verdict)
{
	if (h->base.vers == RPCR_VERSION_2)
		return rpcr2_hdr_check(h, call, verdict);
	memset(verdict, 0, sizeof(*verdict));
	if (!rpcr_hdr_check(&h->base, call))
		return 0;
	/* RFC 8166 §4.5: no error answers an error */
	if (h->base.proc != RPCR_ERROR)
		verdict->code = RPCR_ERR_CHUNK;
	return -EBADMSG;
}

/**
 * rpcr_msg_error() - make @h the error answer to a message
 * @h: header to fill
 * @vers: the version of the message answered
 * @xid: its XID
 * @credit: the connection's credit grant
 * @err: the error, as rpcr_msg_decode() or rpcr_msg_check() gave it
 *
 * A version 2 message gets an RDMA2_ERROR (§6.4.3); any other one an
 * RDMA_ERROR in version 1's layout (RFC 8166 §4.5), which is what a
 * peer of an unknown version gets too: ERR_VERS with @err's range, or
 * ERR_CHUNK for whatever else went wrong, version 1 having no other code.
 */
void rpcr_msg_error(struct rpcr2_hdr *h, u32 vers, u32 xid, u32 credit,
		    const struct rpcr2_err *err)
{
	if (vers == RPCR_VERSION_2) {
		rpcr2_hdr_error(h, xid, credit, err);
		return;
	}
	memset(h, 0, sizeof(*h));
	if (err->code != RPCR_ERR_VERS) {
		rpcr_hdr_error(&h->base, xid, credit, RPCR_ERR_CHUNK);
		return;
	}
	rpcr_hdr_error(&h->base, xid, credit, RPCR_ERR_VERS);
	h->base.vers_low = err->vers_low;
	h->base.vers_high = err->vers_high;
}

/**
 * rpcr_msg_encode() - rpcr_hdr_encode() or rpcr2_hdr_encode(), by version
 * @h: header; version 2 in @h->base.vers, else version 1 in @h->base
 * @buf: where to
 * @size: room at @buf
 *
 * Return: bytes written, or a negative errno.
 */
int rpcr_msg_encode(const struct rpcr2_hdr *h, u8 *buf, size_t size)
{
	if (h->base.vers == RPCR_VERSION_2)
		return rpcr2_hdr_encode(h, buf, size);
	return rpcr_hdr_encode(&h->base, buf, size);
}

/**
 * rpcr_msg_err_vers() - whether a header is an ERR_VERS, and its range
 * @h: header from rpcr_msg_decode()
 * @low: the lowest version the peer takes
 * @high: the highest
 *
 * Return: true for an ERR_VERS, of either version's layout.
 */
bool rpcr_msg_err_vers(const struct rpcr2_hdr *h, u32 *low, u32 *high)
{
	if (h->base.proc != RPCR_ERROR)
		return false;
	if (h->base.vers == RPCR_VERSION_2) {
		*low = h->error.vers_low;
		*high = h->error.vers_high;
		return h->error.code == RPCR2_ERR_VERS;
	}
	*low = h->base.vers_low;
	*high = h->base.vers_high;
	return h->base.err == RPCR_ERR_VERS;
}

/**
 * rpcr_msg_len() - rpcr_hdr_len() or rpcr2_hdr_len(), by version
 * @h: header; version 2 in @h->base.vers, else version 1 in @h->base
 *
 * Return: the bytes its encoding takes; 0 for one that cannot be encoded.
 */
size_t rpcr_msg_len(const struct rpcr2_hdr *h)
{
	if (h->base.vers == RPCR_VERSION_2)
		return rpcr2_hdr_len(h);
	return rpcr_hdr_len(&h->base);
}

/**
 * rpcr2_connprop_encode() - encode an RDMA2_CONNPROP (§6.4.4)
 * @xid: its rdma_xid; none answers it, so any (we send 0, as a credit
 *	refresh has)
 * @credit: the sender's credit word (§4.3.1.1)
 * @props: the properties carried, those of @props->present
 * @buf: where to
 * @size: room at @buf
 *
 * The sender's own XID, so rdma_flags has no RPCRDMA2_F_RESPONSE
 * (§6.3.2.1), and no RPCRDMA2_F_MORE: one Send carries it. Without the
 * large RPC-message buffer of struct rpcr2_hdr, for a sender that has
 * none at hand.
 *
 * Return: bytes written, -EINVAL for properties rpcr2_hdr_len() would
 * refuse, or -EMSGSIZE when they do not fit.
 */
int rpcr2_connprop_encode(u32 xid, u32 credit, const struct rpcr2_props *props,
			  u8 *buf, size_t size)
{
	size_t n = rpcr2_props_len(props);
	u8 *p;

	if (!n)
		return -EINVAL;
	n += RPCR2_PREFIX_LEN;
	if (n > size || n > (size_t)0x7fffffff)
		return -EMSGSIZE;
	p = rpcr2_put_prefix(buf, xid, RPCR_VERSION_2, credit,
			     RPCR2_CONNPROP, 0);
	p = rpcr2_put_props(p, props);
	return (int)(p - buf);
}

/**
 * rpcr2_props_effective() - a peer's properties as they hold (§5.2, §6.4.4)
 * @in: the properties a peer sent, decoded, or NULL if it sent none
 * @out: each of §5.2's, @in's value where @in carried it, else the
 *	default; @out->present and the Host Auth Message as @in has them
 *	(none when @in is NULL: the peer is unauthenticated, §5.2.6);
 *	the counts of entries and of unknown ids kept
 *
 * Properties a peer leaves out have their defaults for the connection's
 * life (§6.4.4); unknown ones were skipped by the decoder.
 */
void rpcr2_props_effective(const struct rpcr2_props *in,
			   struct rpcr2_props *out)
{
	u32 *val[] = { NULL, &out->sbsiz, &out->rbsiz, &out->rssiz,
		       &out->rcsiz, &out->brs };
	u32 id;

	if (in)
		*out = *in;
	else
		memset(out, 0, sizeof(*out));
	for (id = RPCR2_PROP_SBSIZ; id < RPCR2_PROP_HOSTAUTH; id++)
		if (!(out->present & (1u << id)))
			*val[id] = rpcr2_prop_default(id);
}
