// SPDX-License-Identifier: GPL-2.0
/*
 * rpcr_call: a call's RPC message into an RPC-over-RDMA message, and a
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
#include "rpcr_trace.h"

/* the bytes a header of the call needs: fixed part and three lists */
static int rpcr_call_encode_hdr(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
				u8 *buf, u32 size)
{
	struct rpcr_hdr *h = &rx->shdr;

	memset(h, 0, sizeof(*h));
	h->xid = be32_to_cpu(rqst->rq_xid);
	h->vers = RPCR_VERSION_1;
	/* §3.3.1: ask for as many credits as calls we may have in flight */
	h->credit = rx->max_reqs;
	h->proc = RPCR_MSG;
	return rpcr_hdr_encode(h, buf, size);
}

/**
 * rpcr_call_marshal() - build the message of a call
 * @rx: transport, XPRT_LOCKED by the caller, with a connection
 * @rqst: the call, its RPC message encoded in @rqst->rq_snd_buf
 * @sb: send buffer to build it in
 *
 * Return: bytes to send from @sb, or -EMSGSIZE when the call does not
 * fit inline, -EIO when its buffer cannot be read.
 */
int rpcr_call_marshal(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
		      struct rpcr_sbuf *sb)
{
	struct rpcr_ep *ep = rx->ep;
	u32 msglen = rqst->rq_snd_buf.len;
	u32 limit = min(ep->cfg.inline_size, ep->peer_recv);
	int hlen;

	hlen = rpcr_call_encode_hdr(rx, rqst, sb->buf, limit);
	if (hlen < 0 || hlen + msglen > limit) {
		rpcr_stat_add(rx, RPCR_ST_MARSHAL_FAIL, 1);
		return -EMSGSIZE;
	}
	if (read_bytes_from_xdr_buf(&rqst->rq_snd_buf, 0, sb->buf + hlen,
				    msglen)) {
		rpcr_stat_add(rx, RPCR_ST_MARSHAL_FAIL, 1);
		return -EIO;
	}
	rpcr_stat_add(rx, RPCR_ST_PULLUP_BYTES, msglen);
	trace_rpcr_call_send(rx->shdr.xid, rx->shdr.proc, rx->shdr.credit,
			     hlen + msglen, 0);
	return hlen + msglen;
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

/* the bytes of an RPC message the call's receive buffer holds */
static u32 rpcr_rcv_room(const struct xdr_buf *buf)
{
	return buf->head[0].iov_len + buf->page_len + buf->tail[0].iov_len;
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

/* an RDMA_MSG's RPC message into the call's receive buffer */
static int rpcr_reply_inline(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
			     const u8 *msg, u32 len)
{
	if (len > rpcr_rcv_room(&rqst->rq_private_buf)) {
		trace_rpcr_reply_drop(rx->rhdr.xid, len, RPCR_DROP_SIZE,
				      -EMSGSIZE);
		return -EMSGSIZE;
	}
	/* write_bytes_to_xdr_buf() takes no const source */
	if (write_bytes_to_xdr_buf(&rqst->rq_private_buf, 0, (void *)msg, len))
		return -EIO;
	rpcr_stat_add(rx, RPCR_ST_FIXUP_BYTES, len);
	return len;
}

/**
 * rpcr_reply_recv() - a message arrived on a client's connection
 * @owner: the struct rpcr_xprt
 * @msg: the message
 * @len: its length
 * @inv_rkey: rkey the server invalidated with it, 0 if none
 *
 * A reply completes its call; a message that is no reply of a waiting
 * call is counted and dropped (§4.5 has no error a Requester sends).
 */
void rpcr_reply_recv(void *owner, const u8 *msg, u32 len, u32 inv_rkey)
{
	struct rpcr_xprt *rx = owner;
	struct rpc_xprt *xprt = &rx->xprt;
	struct rpcr_hdr *h = &rx->rhdr;
	struct rpc_rqst *rqst;
	int hlen, n;

	hlen = rpcr_hdr_decode(msg, len, h);
	n = hlen < 0 ? hlen : rpcr_hdr_check(h, false);
	if (n) {
		rpcr_stat_add(rx, RPCR_ST_BAD_REPLY, 1);
		trace_rpcr_reply_drop(h->xid, len, RPCR_DROP_HDR, n);
		return;
	}
	trace_rpcr_reply_recv(h->xid, h->proc, h->credit, len,
			      (h->nwrites ? 2 : 0) | (h->has_reply ? 4 : 0));
	rpcr_reply_credits(rx, h->credit);

	spin_lock(&xprt->queue_lock);
	rqst = xprt_lookup_rqst(xprt, cpu_to_be32(h->xid));
	if (!rqst) {
		spin_unlock(&xprt->queue_lock);
		trace_rpcr_reply_drop(h->xid, len, RPCR_DROP_XID, -ENOENT);
		return;
	}
	xprt_pin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);

	switch (h->proc) {
	case RPCR_MSG:
		if (h->nwrites || h->has_reply) {
			trace_rpcr_reply_drop(h->xid, len, RPCR_DROP_CHUNK,
					      -EPROTO);
			n = -EPROTO;
			break;
		}
		n = rpcr_reply_inline(rx, rqst, msg + hlen, len - hlen);
		break;
	default:
		/* RDMA_ERROR, or chunks this call did not offer */
		n = -EPROTO;
		break;
	}
	if (n < 0) {
		rpcr_stat_add(rx, RPCR_ST_BAD_REPLY, 1);
		n = rpcr_reply_system_err(rqst);
	}

	spin_lock(&xprt->queue_lock);
	if (n > 0)
		xprt_complete_rqst(rqst->rq_task, n);
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
}
