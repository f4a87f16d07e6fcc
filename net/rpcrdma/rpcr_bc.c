// SPDX-License-Identifier: GPL-2.0
/* rpcr_bc: the client's backchannel (RFC 8167): calls the server makes
 * on our connection (NFSv4.1 callbacks) and our replies to them.
 *
 * A backward call is an RDMA_MSG without chunks whose RPC message is a
 * CALL (§4). It is copied out of its receive buffer into a call slot of
 * our own, a preallocated rpc_rqst, and queued to the NFS callback
 * service; its reply comes back through ->send_request as an rpc_rqst
 * without rq_buffer and goes out inline, also without chunks (§5: none
 * is offered in the backward direction by either peer here).
 */
#include <linux/slab.h>
#include <linux/sunrpc/bc_xprt.h>
#include <linux/sunrpc/svc.h>

#include "rpcr_clnt.h"
#include "rpcr_rpc.h"
#include "rpcr_trace.h"

#if !IS_ENABLED(CONFIG_SUNRPC_BACKCHANNEL)
#error "the NFSv4.1 backchannel needs CONFIG_SUNRPC_BACKCHANNEL"
#endif

/**
 * struct rpcr_bc_req - a slot for one backward call
 * @rqst: what the callback service sees
 * @size: bytes of each of @call and @reply
 * @buf: the call's message, then room for the reply's
 */
struct rpcr_bc_req {
	struct rpc_rqst	rqst;
	u32		size;
	u8		buf[];
};

/* the largest backward call or reply: a Send every peer takes, less
 * the transport header of either version (version 2's is longer)
 */
#define RPCR_BC_SIZE	(RPCR_BC_INLINE - RPCR2_NOMSG_MIN_LEN)

static int rpcr_bc_alloc(struct rpc_xprt *xprt)
{
	u32 size = RPCR_BC_SIZE;
	struct rpcr_bc_req *bc;

	bc = kzalloc(struct_size(bc, buf, 2 * size), GFP_KERNEL);
	if (!bc)
		return -ENOMEM;
	bc->size = size;
	bc->rqst.rq_xprt = xprt;
#ifndef RPCR_HAVE_LWQ_CB_LIST
	INIT_LIST_HEAD(&bc->rqst.rq_bc_list);
#endif
	/* released through ->bc_free_rqst, never ->free_slot */
	__set_bit(RPC_BC_PA_IN_USE, &bc->rqst.rq_bc_pa_state);
	spin_lock(&xprt->bc_pa_lock);
	list_add(&bc->rqst.rq_bc_pa_list, &xprt->bc_pa_list);
	xprt->bc_alloc_count++;
	spin_unlock(&xprt->bc_pa_lock);
	return 0;
}

/**
 * rpcr_bc_setup() - ->bc_setup: slots for the server's backward calls
 * @xprt: transport
 * @min_reqs: slots the upper layer asks for at least
 *
 * Return: 0 or -ENOMEM.
 */
int rpcr_bc_setup(struct rpc_xprt *xprt, unsigned int min_reqs)
{
	u32 n = max_t(u32, min_reqs, RPCR_BC_SLOTS);

	while (xprt->bc_alloc_count < n) {
		if (rpcr_bc_alloc(xprt))
			return -ENOMEM;
	}
	return 0;
}

/**
 * rpcr_bc_destroy() - ->bc_destroy: free the slots not in use
 * @xprt: transport
 * @max_reqs: unused: every free slot goes
 */
void rpcr_bc_destroy(struct rpc_xprt *xprt, unsigned int max_reqs)
{
	struct rpc_rqst *rqst, *tmp;
	LIST_HEAD(gone);

	spin_lock(&xprt->bc_pa_lock);
	list_splice_init(&xprt->bc_pa_list, &gone);
	spin_unlock(&xprt->bc_pa_lock);
	list_for_each_entry_safe(rqst, tmp, &gone, rq_bc_pa_list) {
		list_del(&rqst->rq_bc_pa_list);
		xprt->bc_alloc_count--;
		kfree(container_of(rqst, struct rpcr_bc_req, rqst));
	}
}

/**
 * rpcr_bc_maxpayload() - ->bc_maxpayload
 * @xprt: transport
 *
 * Return: the largest backward call or reply, in bytes.
 */
size_t rpcr_bc_maxpayload(struct rpc_xprt *xprt)
{
	return RPCR_BC_SIZE;
}

/**
 * rpcr_bc_num_slots() - ->bc_num_slots
 * @xprt: transport
 *
 * Return: backward calls the server may have outstanding.
 */
unsigned int rpcr_bc_num_slots(struct rpc_xprt *xprt)
{
	return RPCR_BC_SLOTS;
}

static void rpcr_bc_put_slot(struct rpc_xprt *xprt, struct rpc_rqst *rqst)
{
	spin_lock(&xprt->bc_pa_lock);
	list_add(&rqst->rq_bc_pa_list, &xprt->bc_pa_list);
	spin_unlock(&xprt->bc_pa_lock);
}

/**
 * rpcr_bc_free_rqst() - ->bc_free_rqst: a backward call is done with
 * @rqst: its slot, back to the free ones
 */
void rpcr_bc_free_rqst(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;

	rpcr_bc_put_slot(xprt, rqst);
	xprt_put(xprt);
}

/**
 * rpcr_bc_is_call() - is a message a backward call (RFC 8167 §4)?
 * @h: its decoded header
 * @msg: the RPC message after the header
 * @len: its length
 *
 * Return: true for an RDMA_MSG without chunks that carries an RPC CALL.
 */
bool rpcr_bc_is_call(const struct rpcr_hdr *h, const u8 *msg, u32 len)
{
	return rpcr_rpc_is_dir(h, msg, len, RPC_CALL);
}

/* The callback service's queue of calls: a list under a lock and a wait
 * queue on 6.1, a lock-less queue with an idle thread woken on 6.12
 */
static void rpcr_bc_queue(struct svc_serv *serv, struct rpc_rqst *rqst)
{
#ifdef RPCR_HAVE_LWQ_CB_LIST
	lwq_enqueue(&rqst->rq_bc_list, &serv->sv_cb_list);
	svc_pool_wake_idle_thread(&serv->sv_pools[0]);
#else
	spin_lock_bh(&serv->sv_cb_lock);
	list_add(&rqst->rq_bc_list, &serv->sv_cb_list);
	spin_unlock_bh(&serv->sv_cb_lock);
	wake_up(&serv->sv_cb_waitq);
#endif
}

/**
 * rpcr_bc_recv_call() - hand a backward call to the callback service
 * @rx: transport
 * @msg: the RPC message
 * @len: its length
 *
 * Without a callback service (no NFSv4.1 session) or a free slot, the
 * call is dropped: the server's retry or its session handling copes.
 */
void rpcr_bc_recv_call(struct rpcr_xprt *rx, const u8 *msg, u32 len)
{
	struct rpc_xprt *xprt = &rx->xprt;
	struct svc_serv *serv = xprt->bc_serv;
	struct rpcr_bc_req *bc;
	struct rpc_rqst *rqst;

	spin_lock(&xprt->bc_pa_lock);
	rqst = list_first_entry_or_null(&xprt->bc_pa_list, struct rpc_rqst,
					rq_bc_pa_list);
	if (rqst && serv)
		list_del(&rqst->rq_bc_pa_list);
	spin_unlock(&xprt->bc_pa_lock);
	bc = rqst ? container_of(rqst, struct rpcr_bc_req, rqst) : NULL;
	if (!bc || !serv || len > bc->size) {
		trace_rpcr_reply_drop(0, len, RPCR_DROP_BCALL, -ENOBUFS);
		if (bc && serv)
			rpcr_bc_put_slot(xprt, rqst);
		return;
	}

	memcpy(bc->buf, msg, len);
	memcpy(&rqst->rq_xid, msg, sizeof(rqst->rq_xid));
	rqst->rq_reply_bytes_recvd = 0;
	memset(&rqst->rq_rcv_buf, 0, sizeof(rqst->rq_rcv_buf));
	rqst->rq_rcv_buf.head[0].iov_base = bc->buf;
	rqst->rq_rcv_buf.head[0].iov_len = len;
	rqst->rq_rcv_buf.buflen = len;
	rqst->rq_rcv_buf.len = len;
	rqst->rq_private_buf = rqst->rq_rcv_buf;
	xdr_buf_init(&rqst->rq_snd_buf, bc->buf + bc->size, bc->size);
	trace_rpcr_bcall_recv(be32_to_cpu(rqst->rq_xid), len);

	/* the slot holds the transport until ->bc_free_rqst */
	xprt_get(xprt);
	atomic_inc(&xprt->bc_slot_count);
	rpcr_bc_queue(serv, rqst);
}

/**
 * rpcr_bc_marshal() - the message of our reply to a backward call
 * @rx: transport, XPRT_LOCKED, with a connection
 * @rqst: the backward call's slot, its reply in @rqst->rq_snd_buf
 * @sb: send buffer to build it in
 *
 * Return: bytes to send, or -EMSGSIZE / -EIO.
 */
int rpcr_bc_marshal(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
		    struct rpcr_sbuf *sb)
{
	struct rpcr2_hdr *h2 = &rx->shdr;
	struct rpcr_hdr *h = &h2->base;
	u32 len = rqst->rq_snd_buf.len;
	int hlen;

	memset(h2, 0, sizeof(*h2));
	h->xid = be32_to_cpu(rqst->rq_xid);
	h->vers = READ_ONCE(rx->vers);
	if (h->vers == RPCR_VERSION_2) {
		h->credit = rpcr_clnt_credit2(rx, 1);
		/* draft §6.3.2.1: a reply, whichever way it goes */
		h2->flags = RPCR2_F_RESPONSE;
	} else {
		/* RFC 8167 §3.2: the backward credits we grant */
		h->credit = RPCR_BC_SLOTS;
	}
	h->proc = RPCR_MSG;
	hlen = rpcr_msg_encode(h2, sb->buf, RPCR_BC_INLINE);
	if (hlen < 0 || hlen + len > RPCR_BC_INLINE)
		return -EMSGSIZE;
	if (read_bytes_from_xdr_buf(&rqst->rq_snd_buf, 0, sb->buf + hlen, len))
		return -EIO;
	trace_rpcr_bcall_reply(h->xid, hlen + len);
	return hlen + len;
}
