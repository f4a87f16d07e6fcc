// SPDX-License-Identifier: GPL-2.0
/* rpcr_call: a call's RPC message into an RPC-over-RDMA message, and a
 * reply's message back into the call's receive buffer (RFC 8166 §3.5,
 * §4.2, §4.3).
 *
 * A call goes out as an RDMA_MSG with its whole RPC message inline when
 * it fits the peer's inline threshold (§3.3.2). Its reply comes back the
 * same way; anything else the peer sends for it makes the call fail with
 * a system error, as the RPC layer knows it, rather than hang.
 */
#include <linux/sunrpc/xdr.h>
#include <linux/sunrpc/msg_prot.h>

#include "rpcr_clnt.h"
#include "rpcr_sysctl.h"
#include "rpcr_trace.h"

/* the reply's bytes the call's receive buffer holds */
static u32 rpcr_rcv_room(const struct xdr_buf *buf)
{
	return buf->head[0].iov_len + buf->page_len + buf->tail[0].iov_len;
}

/* a receive buffer whose pages the RPC layer leaves to the transport */
static int rpcr_fill_sparse(struct xdr_buf *buf)
{
	u32 i, n = (buf->page_base + buf->page_len + PAGE_SIZE - 1) >>
		   PAGE_SHIFT;

	if (!(buf->flags & XDRBUF_SPARSE_PAGES))
		return 0;
	for (i = buf->page_base >> PAGE_SHIFT; i < n; i++) {
		if (!buf->pages[i])
			buf->pages[i] = alloc_page(GFP_NOWAIT | __GFP_NOWARN);
		if (!buf->pages[i])
			return -ENOMEM;
	}
	return 0;
}

/* A range of @xdr registered as a chunk's segments: @maxsegs at most,
 * no more than the header may still carry (draft §5.2.4), each within
 * the server's Maximum RDMA Segment Size (§5.2.3).
 * Return: how many, or rpcr_frwr_map()'s errno.
 */
static int rpcr_call_map(struct rpcr_xprt *rx, struct rpcr_req *req,
			 const struct xdr_buf *xdr, u32 off, u32 len,
			 bool remote_write, struct rpcr_frwr_chain *chain,
			 struct rpcr_seg *segs, u32 maxsegs)
{
	int n;

	n = rpcr_frwr_map(rx->frwr, xdr, off, len, remote_write, &req->mrs,
			  chain, segs, min(maxsegs, rx->segs_left),
			  rx->seg_max);
	if (n > 0)
		rx->segs_left -= n;
	return n;
}

/* Draft §4.3.1.1, §6.3.2.2: each Send of a continued call takes a
 * receive of the server's, a credit; each Send of a continued reply one
 * of ours, of which the window keeps one per call out. The call holds
 * the credit the RPC layer gave it (xprt_request_get_cong()) and borrows
 * the others from the window, given back when it is released
 * (rpcr_release_request()).
 */
static bool rpcr_call_credits_borrow(struct rpcr_xprt *rx,
				     struct rpcr_req *req, u32 n)
{
	struct rpc_xprt *xprt = &rx->xprt;
	unsigned long want = (unsigned long)n << RPC_CWNDSHIFT;
	bool ok;

	spin_lock(&xprt->transport_lock);
	ok = xprt->cong + want <= xprt->cwnd;
	if (ok) {
		xprt->cong += want;
		req->borrowed += n;
	}
	spin_unlock(&xprt->transport_lock);
	return ok;
}

/**
 * rpcr_call_credits_return() - give back what a call's Sends borrowed
 * @rx: transport
 * @req: the call
 *
 * Context: under @rx->xprt.transport_lock.
 */
void rpcr_call_credits_return(struct rpcr_xprt *rx, struct rpcr_req *req)
{
	lockdep_assert_held(&rx->xprt.transport_lock);
	rx->xprt.cong -= (unsigned long)req->borrowed << RPC_CWNDSHIFT;
	req->borrowed = 0;
}

/* Draft §4.3.1.1, §6.3.2.2: instead of a Reply chunk, the reply inline
 * in several of the server's Sends, when the knob allows it, the
 * connection has had its first answer in version 2 and the window has
 * room for the receives they take beyond the call's own: borrowed, they
 * keep as many other calls, and so their replies, out. The call's
 * credit word grants the server those Sends. @recv_max as the plans
 * count it, with version 1's header; each of the server's Sends has the
 * smallest one, the last too (no chunk: none is offered).
 */
static bool rpcr_call_plan_more_reply(struct rpcr_xprt *rx,
				      struct rpcr_req *req,
				      const struct rpcr_hdr *h, u32 room,
				      u32 recv_max)
{
	u32 n;

	if (h->vers != RPCR_VERSION_2 || h->nwrites ||
	    READ_ONCE(rpcr_continuation) < RPCR_MORE_LONG ||
	    READ_ONCE(rx->no_more_reply) ||
	    !READ_ONCE(rx->vers_done) || recv_max <= RPCR_HDR_MIN_LEN)
		return false;
	n = rpcr2_more_sends(room, recv_max - RPCR_HDR_MIN_LEN,
			     recv_max - RPCR_HDR_MIN_LEN);
	if (n < 2 || n > RPCR_MORE_SENDS_MAX ||
	    !rpcr_call_credits_borrow(rx, req, n - 1))
		return false;
	req->reply_sends = n;
	return true;
}

/* §3.5: where the reply goes. Inline when the largest reply fits the
 * server's Sends; else a Write chunk for the data a READ places straight
 * into its pages (§3.4.6) when the rest then fits; else, in version 2,
 * in several of the server's Sends when they are few; else a Reply chunk
 * for all of it (§3.5.4).
 */
static int rpcr_call_plan_reply(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
				struct rpcr_hdr *h, u32 recv_max,
				struct rpcr_frwr_chain *chain)
{
	struct rpcr_req *req = rpcr_req(rqst);
	struct xdr_buf *rcv = &rqst->rq_rcv_buf;
	u32 room = rpcr_rcv_room(rcv);
	/* the reply's header echoes a Write chunk of the most segments */
	u32 ddp_hdr = RPCR_HDR_MIN_LEN + 8 + RPCR_MAX_CHUNK_SEGS * RPCR_SEG_LEN;
	int n;

	if (room + RPCR_HDR_MIN_LEN <= recv_max)
		return 0;
	n = rpcr_fill_sparse(rcv);
	if (n)
		return n;
	if ((rcv->flags & XDRBUF_READ) && rcv->page_len &&
	    room - rcv->page_len + ddp_hdr <= recv_max) {
		n = rpcr_call_map(rx, req, rcv, rcv->head[0].iov_len,
				  rcv->page_len, true, chain, req->write.segs,
				  RPCR_MAX_CHUNK_SEGS);
		if (n < 0)
			return n;
		req->write.nsegs = n;
		req->nwrite = 1;
		h->nwrites = 1;
		h->writes[0] = req->write;
		rpcr_stat_add(rx, RPCR_ST_WRITE_CHUNKS, 1);
		return 0;
	}
	if (rpcr_call_plan_more_reply(rx, req, h, room, recv_max))
		return 0;
	n = rpcr_call_map(rx, req, rcv, 0, room, true, chain, req->reply.segs,
			  RPCR_MAX_CHUNK_SEGS);
	if (n < 0)
		return n;
	req->reply.nsegs = n;
	req->has_reply = true;
	h->has_reply = true;
	h->reply = req->reply;
	rpcr_stat_add(rx, RPCR_ST_REPLY_CHUNKS, 1);
	return 0;
}

/* the call's pieces that go inline, as offsets in rq_snd_buf, and the
 * Sends they take (1, or more when continued)
 */
struct rpcr_inline {
	u32	len[2];
	u32	from[2];
	u32	nsends;
};

/* Draft §6.3.2.2: the whole call inline in several Sends, when the knob
 * allows it from @mode on, the connection has had its first answer in
 * version 2 and the server's credits take every Send. @send_max as the
 * plans count it, with version 1's header: a Send with more to come
 * has the smallest one (and version 2's extra words).
 */
static bool rpcr_call_plan_more(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
				const struct rpcr_hdr *h, u32 send_max,
				enum rpcr_more mode, struct rpcr_inline *in)
{
	u32 len = rqst->rq_snd_buf.len;
	u32 hlen = rpcr_hdr_len(h);
	u32 n;

	if (h->vers != RPCR_VERSION_2 || READ_ONCE(rpcr_continuation) < mode ||
	    !READ_ONCE(rx->vers_done) || hlen >= send_max)
		return false;
	n = rpcr2_more_sends(len, send_max - RPCR_HDR_MIN_LEN,
			     send_max - hlen);
	if (n < 2 || n > RPCR_MORE_SENDS_MAX ||
	    !rpcr_call_credits_borrow(rx, rpcr_req(rqst), n - 1))
		return false;
	in->len[0] = len;
	in->nsends = n;
	return true;
}

/* a Read list of one chunk at @pos, from the segments mapped */
static void rpcr_call_read_list(struct rpcr_hdr *h, u32 pos,
				const struct rpcr_seg *segs, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		h->reads[i].position = pos;
		h->reads[i].seg = segs[i];
	}
	h->nreads = n;
}

/* §3.5: how the call goes. Inline when it fits the server's receive
 * buffers; else the data of a WRITE in a Read chunk where it sits
 * (§3.4.5), the rest inline with the data's XDR roundup left out
 * (§3.4.4.4); else all of it in a position-zero Read chunk, a Long
 * Call sent as RDMA_NOMSG (§3.5.3). In version 2 a call may go inline
 * in several Sends instead (sunrpc.rdma_continuation).
 */
static int rpcr_call_plan_args(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
			       struct rpcr_hdr *h, u32 send_max,
			       struct rpcr_frwr_chain *chain,
			       struct rpcr_inline *in)
{
	struct rpcr_req *req = rpcr_req(rqst);
	struct xdr_buf *snd = &rqst->rq_snd_buf;
	struct rpcr_seg segs[RPCR_MAX_READ_SEGS];
	u32 head = snd->head[0].iov_len;
	u32 pad = xdr_pad_size(snd->page_len);
	u32 rest;
	int n;

	if (rpcr_hdr_len(h) + snd->len <= send_max) {
		in->len[0] = snd->len;
		return 0;
	}
	if (rpcr_call_plan_more(rx, rqst, h, send_max, RPCR_MORE_ALL, in))
		return 0;
	rest = snd->tail[0].iov_len > pad ? snd->tail[0].iov_len - pad : 0;
	if ((snd->flags & XDRBUF_WRITE) && snd->page_len &&
	    rpcr_hdr_len(h) + RPCR_MAX_READ_SEGS * RPCR_READ_SEG_LEN +
	    head + rest <= send_max) {
		n = rpcr_call_map(rx, req, snd, head, snd->page_len, false,
				  chain, segs, RPCR_MAX_READ_SEGS);
		if (n < 0)
			return n;
		rpcr_call_read_list(h, head, segs, n);
		in->len[0] = head;
		in->from[1] = head + snd->page_len + pad;
		in->len[1] = rest;
		rpcr_stat_add(rx, RPCR_ST_READ_CHUNKS, 1);
		rpcr_stat_add(rx, RPCR_ST_RDMA_CALL_BYTES, snd->page_len);
		return 0;
	}
	if (rpcr_call_plan_more(rx, rqst, h, send_max, RPCR_MORE_LONG, in))
		return 0;
	n = rpcr_call_map(rx, req, snd, 0, snd->len, false, chain, segs,
			  RPCR_MAX_READ_SEGS);
	if (n < 0)
		return n;
	rpcr_call_read_list(h, 0, segs, n);
	h->proc = RPCR_NOMSG;
	rpcr_stat_add(rx, RPCR_ST_NOMSG_CALLS, 1);
	rpcr_stat_add(rx, RPCR_ST_READ_CHUNKS, 1);
	rpcr_stat_add(rx, RPCR_ST_RDMA_CALL_BYTES, snd->len);
	return 0;
}

/**
 * rpcr_call_unregister() - end what a call's chunks offered the server
 * @req: the call
 * @inv_rkey: the handle the server invalidated with its reply, 0 if none
 *
 * Sleeps until the server can no longer reach the call's buffers.
 *
 * Return: whether that took a LOCAL_INV of ours.
 */
bool rpcr_call_unregister(struct rpcr_req *req, u32 inv_rkey)
{
	return !list_empty(&req->mrs) &&
	       rpcr_frwr_release(&req->mrs, inv_rkey);
}

/* Draft §6.3.2.2: the call's RPC message in @nsends Sends, every one
 * full but the last: those before it with RPCRDMA2_F_MORE and no chunks,
 * the last with the header @rx->shdr (its chunks, rdma_inv_handle).
 * The first goes in @sb; the others' buffers are taken here, onto
 * @rx->more. Return: the first's bytes, -EAGAIN when buffers ran out,
 * -EIO when the call's buffer cannot be read.
 */
static int rpcr_call_continue(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
			      struct rpcr_sbuf *sb, u32 send_max, u32 nsends)
{
	struct rpcr_more_sends *more = &rx->more;
	struct rpcr2_hdr *h2 = &rx->shdr;
	u32 left = rqst->rq_snd_buf.len, at = 0, n, i;
	int hlen, len = 0, rc = -EAGAIN;
	u8 *buf;

	for (i = 1; i < nsends; i++) {
		more->sb[more->n] = rpcr_ep_sbuf_get(rx->ep);
		if (!more->sb[more->n])
			goto fail;
		more->n++;
	}
	rc = -EIO;
	for (i = 0; i < nsends; i++) {
		buf = i ? more->sb[i - 1]->buf : sb->buf;
		if (i < nsends - 1)
			hlen = rpcr2_more_encode(h2->base.xid, h2->base.credit,
						 0, buf, send_max);
		else
			hlen = rpcr_msg_encode(h2, buf, send_max);
		if (hlen < 0)
			goto fail;
		n = i < nsends - 1 ? rpcr2_more_take(left, send_max - hlen) :
		    left;
		if (hlen + n > send_max ||
		    read_bytes_from_xdr_buf(&rqst->rq_snd_buf, at, buf + hlen,
					    n))
			goto fail;
		at += n;
		left -= n;
		if (i)
			more->len[i - 1] = hlen + n;
		else
			len = hlen + n;
	}
	rpcr_stat_add(rx, RPCR_ST_PULLUP_BYTES, at);
	trace_rpcr_msg_split(h2->base.xid, h2->flags, nsends, at);
	trace_rpcr_call_send(h2, more->len[nsends - 2]);
	return len;

fail:
	for (i = 0; i < more->n; i++)
		rpcr_ep_sbuf_put(more->sb[i]);
	more->n = 0;
	return rc;
}

/**
 * rpcr_call_marshal() - build the message of a call
 * @rx: transport, XPRT_LOCKED by the caller, with a connection
 * @rqst: the call, its RPC message encoded in @rqst->rq_snd_buf
 * @sb: send buffer to build it in
 * @chain: the registrations of its chunks, to post before the Send
 *
 * A call continued in several Sends (draft §6.3.2.2) has the others on
 * @rx->more, which the caller emptied.
 *
 * Return: bytes to send from @sb; -EAGAIN when registrations ran out
 * and -ENOMEM when pages for the reply did (both pass), -EMSGSIZE when
 * the call cannot be conveyed, -EIO when its buffer cannot be read.
 */
int rpcr_call_marshal(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
		      struct rpcr_sbuf *sb, struct rpcr_frwr_chain *chain)
{
	struct rpcr_ep *ep = rx->ep;
	struct rpcr_req *req = rpcr_req(rqst);
	struct rpcr2_hdr *h2 = &rx->shdr;
	struct rpcr_hdr *h = &h2->base;
	struct rpcr_inline in = { };
	u32 send_max = min(rx->inline_write, READ_ONCE(ep->peer_recv));
	u32 recv_max = min(rx->inline_read, READ_ONCE(ep->peer_send));
	u32 len, extra;
	int hlen, i, rc;

	/* sent before: the Sends it took then are the server's past */
	if (req->borrowed) {
		spin_lock(&rx->xprt.transport_lock);
		rpcr_call_credits_return(rx, req);
		spin_unlock(&rx->xprt.transport_lock);
	}
	memset(h2, 0, sizeof(*h2));
	h->xid = be32_to_cpu(rqst->rq_xid);
	h->vers = READ_ONCE(rx->vers);
	req->vers = h->vers;
	if (h->vers == RPCR_VERSION_2) {
		/* §4.3.3: a server of version 1 must take the first call */
		if (!READ_ONCE(rx->vers_done))
			send_max = min_t(u32, send_max,
					 RPCR_V1_INLINE_DEFAULT);
	} else {
		/* RFC 8166 §3.3.1: as many as calls we may have in flight */
		h->credit = rx->max_reqs;
	}
	h->proc = RPCR_MSG;
	req->nwrite = 0;
	req->has_reply = false;
	rx->segs_left = U32_MAX;
	rx->seg_max = U32_MAX;
	if (h->vers == RPCR_VERSION_2)
		rpcr_props_limits(&rx->props, &rx->segs_left, &rx->seg_max);
	req->reply_sends = 1;
	req->more_at = 0;
	req->more_got = 0;
	req->more_bad = false;

	/* the plans count version 1's headers; version 2's, both ways,
	 * are longer by the same words
	 */
	extra = h->vers == RPCR_VERSION_2 ? RPCR2_MSG_EXTRA : 0;
	rc = rpcr_call_plan_reply(rx, rqst, h, recv_max - extra, chain);
	if (!rc)
		rc = rpcr_call_plan_args(rx, rqst, h, send_max - extra, chain,
					 &in);
	/* §6.3.3.2: the server may invalidate the call's memory, when one
	 * handle covers all of it, with its reply
	 */
	if (h->vers == RPCR_VERSION_2) {
		h2->inv_handle = rpcr_hdr_inv_handle(h);
		h->credit = rpcr_clnt_credit2(rx, req->reply_sends);
	}
	if (!rc && in.nsends > 1) {
		rc = rpcr_call_continue(rx, rqst, sb, send_max, in.nsends);
		if (rc >= 0)
			return rc;
	}
	hlen = rc ? rc : rpcr_msg_encode(h2, sb->buf, send_max);
	if (hlen < 0)
		goto fail;
	len = hlen;
	for (i = 0; i < ARRAY_SIZE(in.len); i++) {
		rc = -EMSGSIZE;
		if (len + in.len[i] > send_max)
			goto fail;
		rc = -EIO;
		if (in.len[i] &&
		    read_bytes_from_xdr_buf(&rqst->rq_snd_buf, in.from[i],
					    sb->buf + len, in.len[i]))
			goto fail;
		len += in.len[i];
	}
	rpcr_stat_add(rx, RPCR_ST_PULLUP_BYTES, len - hlen);
	trace_rpcr_call_send(h2, len);
	return len;

fail:
	rc = hlen < 0 ? hlen : rc;
	/* nor is a reply on its way */
	req->reply_sends = 1;
	/* nothing was posted: no invalidation */
	rpcr_frwr_release(&req->mrs, ~0U);
	chain->first = NULL;
	chain->last = NULL;
	if (rc != -EAGAIN && rc != -ENOMEM)
		rpcr_stat_add(rx, RPCR_ST_MARSHAL_FAIL, 1);
	return rc;
}

/* §3.3.1: a grant of 0 would stop us for good; more than we asked for
 * is more than we have receives for
 */
static void rpcr_reply_credits(struct rpcr_xprt *rx, u32 grant)
{
	struct rpc_xprt *xprt = &rx->xprt;

	grant = clamp_t(u32, grant, 1, rx->max_reqs);
	spin_lock(&xprt->transport_lock);
	xprt->cwnd = (unsigned long)grant << RPC_CWNDSHIFT;
	spin_unlock(&xprt->transport_lock);
}

/* What the RPC layer gets for a reply that cannot be delivered: an
 * accepted reply with SYSTEM_ERR (RFC 5531 §9), so the call fails with
 * -EIO instead of waiting for a reply that will not come.
 */
static int rpcr_reply_system_err(struct rpc_rqst *rqst)
{
	__be32 msg[6] = {
		rqst->rq_xid,
		cpu_to_be32(RPC_REPLY),
		cpu_to_be32(RPC_MSG_ACCEPTED),
		cpu_to_be32(RPC_AUTH_NULL),
		0,
		cpu_to_be32(RPC_SYSTEM_ERR),
	};

	if (write_bytes_to_xdr_buf(&rqst->rq_private_buf, 0, msg, sizeof(msg)))
		return -EIO;
	return sizeof(msg);
}

/* @len bytes of a reply at @at of the call's receive buffer.
 * Return: 0, -EMSGSIZE past its end, -EIO when they cannot be written.
 */
static int rpcr_reply_put(struct rpc_rqst *rqst, u32 at, const u8 *msg,
			  u32 len)
{
	struct xdr_buf *buf = &rqst->rq_private_buf;
	u32 room = rpcr_rcv_room(buf);

	if (at > room || len > room - at)
		return -EMSGSIZE;
	/* write_bytes_to_xdr_buf() takes no const source */
	return write_bytes_to_xdr_buf(buf, at, (void *)msg, len) ? -EIO : 0;
}

/* an RDMA_MSG's RPC message into the call's receive buffer */
static int rpcr_reply_inline(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
			     const u8 *msg, u32 len)
{
	int rc = rpcr_reply_put(rqst, 0, msg, len);

	if (rc == -EMSGSIZE)
		trace_rpcr_reply_drop(rx->rhdr.base.xid, len, RPCR_DROP_SIZE,
				      rc);
	if (rc)
		return rc;
	rpcr_stat_add(rx, RPCR_ST_FIXUP_BYTES, len);
	return len;
}

/* §3.4.6: a returned chunk has the segments offered, each filled no
 * further than offered; the bytes returned are summed into @len
 */
static bool rpcr_reply_chunk_ok(const struct rpcr_write_chunk *offered,
				const struct rpcr_write_chunk *got, u32 *len)
{
	u32 i;

	*len = 0;
	if (got->nsegs != offered->nsegs)
		return false;
	for (i = 0; i < got->nsegs; i++) {
		if (got->segs[i].handle != offered->segs[i].handle ||
		    got->segs[i].length > offered->segs[i].length)
			return false;
		*len += got->segs[i].length;
	}
	return true;
}

/* the chunks of a reply are ones its call offered */
static bool rpcr_reply_chunks_ok(const struct rpcr_req *req,
				 const struct rpcr_hdr *h, u32 *written,
				 u32 *replied)
{
	*written = 0;
	*replied = 0;
	if (h->nwrites > req->nwrite || (h->has_reply && !req->has_reply))
		return false;
	if (h->nwrites &&
	    !rpcr_reply_chunk_ok(&req->write, &h->writes[0], written))
		return false;
	return !h->has_reply ||
	       rpcr_reply_chunk_ok(&req->reply, &h->reply, replied);
}

/* the lengths of both views of the receive buffer: the RPC layer
 * checks that they agree
 */
static void rpcr_rcv_set_lens(struct rpc_rqst *rqst, u32 head, u32 pages)
{
	rqst->rq_rcv_buf.head[0].iov_len = head;
	rqst->rq_private_buf.head[0].iov_len = head;
	rqst->rq_rcv_buf.page_len = pages;
	rqst->rq_private_buf.page_len = pages;
}

/* An RDMA_MSG whose READ data the server wrote into the call's pages
 * (§3.4.6.1). The inline message is the reply without that data item
 * and its roundup: the bytes before it fill the head, those after it
 * follow the data in the tail, behind the roundup the XDR decoder
 * skips there. A reply shorter than the head has nothing after the data.
 */
static int rpcr_reply_ddp(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
			  const u8 *msg, u32 len, u32 written)
{
	struct xdr_buf *buf = &rqst->rq_private_buf;
	u32 head = min_t(u32, len, buf->head[0].iov_len);
	u32 pad = xdr_pad_size(written);
	u32 after = len - head;

	if (written > buf->page_len || pad + after > buf->tail[0].iov_len)
		return -EMSGSIZE;
	memcpy(buf->head[0].iov_base, msg, head);
	if (after)
		memcpy((u8 *)buf->tail[0].iov_base + pad, msg + head, after);
	rpcr_rcv_set_lens(rqst, head, written);
	rpcr_stat_add(rx, RPCR_ST_FIXUP_BYTES, len);
	rpcr_stat_add(rx, RPCR_ST_RDMA_REPLY_BYTES, written);
	return head + written + pad + after;
}

/* what an error answering a call does with it */
enum rpcr_retry {
	RPCR_RETRY_NONE,	/* none: the call fails */
	RPCR_RETRY_HERE,	/* sent again on this connection */
	RPCR_RETRY_NEXT,	/* sent again on the next connection */
};

/* Draft §4.3.3: the server does not speak the version of the call. Before
 * the connection's first answer, the call goes again, with the same XID,
 * in the highest version of the server's range we speak, which this
 * transport keeps for its next connections (no negotiation loop).
 * Return: whether the call goes again.
 */
static bool rpcr_reply_err_vers(struct rpcr_xprt *rx, struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = &rx->xprt;
	struct rpcr_req *req = rpcr_req(rqst);
	u32 low, high, vers;

	if (!rpcr_msg_err_vers(&rx->rhdr, &low, &high))
		return false;
	vers = min_t(u32, high, RPCR_VERSION_2);
	if (READ_ONCE(rx->vers_done) || vers < low || vers < RPCR_VERSION_1 ||
	    vers >= req->vers)
		return false;
	if (vers < READ_ONCE(rx->vers_peer)) {
		WRITE_ONCE(rx->vers_peer, vers);
		trace_rpcr_xprt_vers((struct sockaddr *)&xprt->addr, vers,
				     RPCR_VERS_ERR_VERS);
	}
	if (vers < READ_ONCE(rx->vers))
		WRITE_ONCE(rx->vers, vers);
	return true;
}

/* Draft §6.4.3: the server would not continue the reply the call
 * granted it several Sends for (§6.3.2.2 obliges it to nothing). The
 * call goes again with a Reply chunk instead, as every call of this
 * transport will that would have invited it.
 * Return: whether the call goes again.
 */
static bool rpcr_reply_err_resource(struct rpcr_xprt *rx,
				    struct rpc_rqst *rqst)
{
	const struct rpcr2_hdr *h2 = &rx->rhdr;

	if (h2->base.vers != RPCR_VERSION_2 ||
	    h2->error.code != RPCR2_ERR_REPLY_RESOURCE ||
	    rpcr_req(rqst)->reply_sends < 2)
		return false;
	WRITE_ONCE(rx->no_more_reply, true);
	/* the error was the whole answer: no more Sends of it to come, so
	 * a task that ends before it goes again gives its credits back
	 */
	rpcr_req(rqst)->reply_sends = 1;
	return true;
}

/* An RDMA_ERROR that the call may get over by going again, with the
 * same XID: on this connection once the RPC layer finds no reply in
 * it, unless its task must never be sent twice on one connection
 * (NFSv4: RFC 7530 §3.1.1): then the connection ends, and the call goes
 * on the next.
 */
static enum rpcr_retry rpcr_reply_err_retry(struct rpcr_xprt *rx,
					    struct rpc_rqst *rqst)
{
	enum rpcr_retry retry = RPCR_RETRY_HERE;
	const struct rpcr2_hdr *h2 = &rx->rhdr;
	u32 code;

	if (rpcr_reply_err_vers(rx, rqst))
		code = RPCR2_ERR_VERS;
	else if (rpcr_reply_err_resource(rx, rqst))
		code = RPCR2_ERR_REPLY_RESOURCE;
	else
		return RPCR_RETRY_NONE;
	if (rqst->rq_task->tk_flags & RPC_TASK_NO_RETRANS_TIMEOUT) {
		xprt_force_disconnect(&rx->xprt);
		retry = RPCR_RETRY_NEXT;
	} else {
		rpcr_req(rqst)->resend = true;
	}
	trace_rpcr_call_retry(h2->base.xid, code, retry == RPCR_RETRY_NEXT);
	return retry;
}

/* Draft §6.3.2.2: a Send of a continued reply before its last. Its
 * payload goes into the call's receive buffer where the previous one's
 * ended; the last Send completes the call (rpcr_reply_joined()). A
 * call that invited no more Sends, or one past its buffer, gets a
 * SYSTEM_ERR reply then.
 */
static void rpcr_reply_more(struct rpcr_xprt *rx, const struct rpcr2_hdr *h2,
			    const u8 *pay, u32 len)
{
	struct rpc_xprt *xprt = &rx->xprt;
	struct rpc_rqst *rqst;
	struct rpcr_req *req;

	spin_lock(&xprt->queue_lock);
	rqst = xprt_lookup_rqst(xprt, cpu_to_be32(h2->base.xid));
	if (!rqst) {
		spin_unlock(&xprt->queue_lock);
		trace_rpcr_reply_drop(h2->base.xid, len, RPCR_DROP_XID,
				      -ENOENT);
		return;
	}
	xprt_pin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
	req = rpcr_req(rqst);

	if (req->more_bad || req->more_got + 1 >= req->reply_sends ||
	    rpcr_reply_put(rqst, req->more_at, pay, len)) {
		req->more_bad = true;
		rpcr_stat_add(rx, RPCR_ST_BAD_REPLY, 1);
		trace_rpcr_reply_drop(h2->base.xid, len, RPCR_DROP_MORE,
				      -EMSGSIZE);
	} else {
		req->more_at += len;
		req->more_got++;
	}

	spin_lock(&xprt->queue_lock);
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
}

/* the last Send of a continued reply: an RDMA2_MSG with no chunk used,
 * its payload behind the others'
 */
static int rpcr_reply_joined(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
			     u32 written, const u8 *pay, u32 len)
{
	struct rpcr_req *req = rpcr_req(rqst);
	struct rpcr2_hdr *h2 = &rx->rhdr;

	if (req->more_bad || h2->base.proc != RPCR2_MSG || written ||
	    rpcr_reply_put(rqst, req->more_at, pay, len)) {
		trace_rpcr_reply_drop(h2->base.xid, len, RPCR_DROP_MORE,
				      -EPROTO);
		return -EPROTO;
	}
	len += req->more_at;
	rpcr_stat_add(rx, RPCR_ST_FIXUP_BYTES, len);
	trace_rpcr_msg_joined(h2->base.xid, h2->flags, req->more_got + 1, len);
	return len;
}

/* A version 2 message that is neither a reply nor a backward call:
 * a credit refresh (§6.4.2) or the server's properties (§6.4.4).
 * Return: whether @h was one, taken.
 */
static bool rpcr_reply_v2_only(struct rpcr_xprt *rx,
			       const struct rpcr2_hdr *h, u32 len)
{
	struct rpcr_ep *ep;

	if (h->base.vers != RPCR_VERSION_2)
		return false;
	if (h->base.proc == RPCR2_CONNPROP) {
		trace_rpcr_reply_recv(h, len);
		/* NULL only for a server that speaks before our first call;
		 * a connection of version 1 takes none
		 */
		ep = READ_ONCE(rx->ep);
		if (ep && READ_ONCE(rx->vers) == RPCR_VERSION_2)
			rpcr_props_recv(&rx->props, ep,
					(struct sockaddr *)&rx->xprt.addr,
					&h->props);
		return true;
	}
	if (!rpcr2_credit_refresh(h))
		return false;
	trace_rpcr_reply_recv(h, len);
	rpcr_reply_credits(rx, rpcr2_credit_granted(h->base.credit));
	return true;
}

/* Draft §6.4.4: our properties, once the server answered in version 2.
 * Before the credits of that answer widen the window: with no other call
 * out, the message takes the receive the server keeps beyond its credits
 * (§4.3.1.2) while that one is free.
 */
static void rpcr_clnt_props_send(struct rpcr_xprt *rx)
{
	struct rpcr_ep *ep = READ_ONCE(rx->ep);
	struct rpcr2_props ours = {
		.present = BIT(RPCR2_PROP_SBSIZ) | BIT(RPCR2_PROP_RBSIZ) |
			   BIT(RPCR2_PROP_RSSIZ) | BIT(RPCR2_PROP_BRS),
		/* backward calls and their replies go inline only */
		.brs	 = RPCR2_RVREQSUP_INLINE,
	};
	u8 hostauth[RPCR_HOSTAUTH_MAX];

	if (!ep || !rx->frwr)
		return;
	ours.sbsiz = ep->cfg.send_size;
	ours.rbsiz = ep->cfg.recv_size;
	/* a segment is one MR: no more than its pages */
	ours.rssiz = rx->frwr->depth * PAGE_SIZE;
	rpcr_props_hostauth(&ours, hostauth);
	rpcr_props_send(ep, (struct sockaddr *)&rx->xprt.addr,
			rpcr_clnt_credit2(rx, 1), &ours);
}

/**
 * rpcr_reply_recv() - a message arrived on a client's connection
 * @owner: the struct rpcr_xprt
 * @msg: the message
 * @len: its length
 * @inv_rkey: rkey the server invalidated with it, 0 if none
 *
 * A reply completes its call once the server can no longer reach the
 * call's buffers; a message that is no reply of a waiting call is
 * counted and dropped (§4.5 has no error a Requester sends; nor has
 * version 2's §6.4.3). Either version is taken, whichever we spoke.
 */
void rpcr_reply_recv(void *owner, const u8 *msg, u32 len, u32 inv_rkey)
{
	struct rpcr_xprt *rx = owner;
	struct rpc_xprt *xprt = &rx->xprt;
	struct rpcr2_hdr *h2 = &rx->rhdr;
	struct rpcr_hdr *h = &h2->base;
	struct rpcr2_err verdict;
	struct rpc_rqst *rqst;
	enum rpcr_retry retry = RPCR_RETRY_NONE;
	struct rpcr_req *req;
	u32 written, replied;
	bool call;
	int hlen, n;

	hlen = rpcr_msg_decode(msg, len, h2, &verdict);
	/* §6.3.2.1: a version 2 message without F_RESPONSE is a call */
	call = h->vers == RPCR_VERSION_2 && !(h2->flags & RPCR2_F_RESPONSE);
	n = hlen < 0 ? hlen : rpcr_msg_check(h2, call, &verdict);
	if (n) {
		rpcr_stat_add(rx, RPCR_ST_BAD_REPLY, 1);
		trace_rpcr_reply_drop(h->xid, len, RPCR_DROP_HDR, n);
		return;
	}
	if (rpcr_reply_v2_only(rx, h2, len))
		return;
	if (h->vers == RPCR_VERSION_2 && (h2->flags & RPCR2_F_MORE)) {
		trace_rpcr_reply_recv(h2, len);
		/* a backward call is never more than a Send */
		if (call)
			trace_rpcr_reply_drop(h->xid, len, RPCR_DROP_MORE,
					      -EOPNOTSUPP);
		else
			rpcr_reply_more(rx, h2, msg + hlen, len - hlen);
		return;
	}
	/* in version 2 the flag says which it is: the last Send of a
	 * continued reply starts anywhere in the RPC message
	 */
	if ((h->vers != RPCR_VERSION_2 || call) &&
	    rpcr_bc_is_call(h, msg + hlen, len - hlen)) {
		rpcr_bc_recv_call(rx, msg + hlen, len - hlen);
		return;
	}
	if (call) {
		/* the XID is the server's: none of our calls has it */
		rpcr_stat_add(rx, RPCR_ST_BAD_REPLY, 1);
		trace_rpcr_reply_drop(h->xid, len, RPCR_DROP_HDR, -EPROTO);
		return;
	}
	trace_rpcr_reply_recv(h2, len);
	/* §6.4.3: an error's credit word means nothing */
	if (h->proc != RPCR_ERROR) {
		if (h->vers == RPCR_VERSION_2 && !READ_ONCE(rx->vers_done))
			rpcr_clnt_props_send(rx);
		rpcr_reply_credits(rx, h->vers == RPCR_VERSION_2 ?
				   rpcr2_credit_granted(h->credit) :
				   h->credit);
		WRITE_ONCE(rx->vers_done, true);
	}

	spin_lock(&xprt->queue_lock);
	rqst = xprt_lookup_rqst(xprt, cpu_to_be32(h->xid));
	if (!rqst) {
		spin_unlock(&xprt->queue_lock);
		trace_rpcr_reply_drop(h->xid, len, RPCR_DROP_XID, -ENOENT);
		return;
	}
	xprt_pin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
	req = rpcr_req(rqst);

	/* first of all, the server's access to the call's memory ends */
	if (inv_rkey)
		atomic_long_inc(&rx->remote_inv);
	if (rpcr_call_unregister(req, inv_rkey))
		rpcr_stat_add(rx, RPCR_ST_LOCAL_INV, 1);

	n = -EPROTO;
	if (h->proc == RPCR_ERROR) {
		retry = rpcr_reply_err_retry(rx, rqst);
		/* a reply of no bytes: the RPC layer sends the call again */
		if (retry == RPCR_RETRY_HERE)
			n = 0;
		else if (retry == RPCR_RETRY_NONE)
			trace_rpcr_reply_drop(h->xid, len, RPCR_DROP_HDR,
					      -EREMOTEIO);
	} else if (!rpcr_reply_chunks_ok(req, h, &written, &replied)) {
		trace_rpcr_reply_drop(h->xid, len, RPCR_DROP_CHUNK, n);
	} else if (req->more_got || req->more_bad) {
		n = rpcr_reply_joined(rx, rqst, written + replied, msg + hlen,
				      len - hlen);
	} else if (h->proc == RPCR_NOMSG) {
		/* §3.5.4: the whole reply is in the Reply chunk, in place */
		n = replied;
		rpcr_stat_add(rx, RPCR_ST_RDMA_REPLY_BYTES, replied);
	} else if (h->nwrites) {
		n = rpcr_reply_ddp(rx, rqst, msg + hlen, len - hlen, written);
	} else {
		n = rpcr_reply_inline(rx, rqst, msg + hlen, len - hlen);
	}
	if (retry == RPCR_RETRY_NEXT) {
		/* it waits for the connection's end, as the others do */
		n = -EAGAIN;
	} else if (n < 0 || (n == 0 && retry != RPCR_RETRY_HERE)) {
		rpcr_stat_add(rx, RPCR_ST_BAD_REPLY, 1);
		n = rpcr_reply_system_err(rqst);
	}

	spin_lock(&xprt->queue_lock);
	if (n >= 0)
		xprt_complete_rqst(rqst->rq_task, n);
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
}
