// SPDX-License-Identifier: GPL-2.0
/* rpcr_svc_bc: the server's backchannel (RFC 8167): the callbacks nfsd
 * makes to an NFSv4.1 client on the connection the client opened.
 *
 * nfsd asks for a client transport of ident XPRT_TRANSPORT_BC_RDMA bound
 * to one of our server connections; its calls go out on that
 * connection's endpoint as RDMA_MSG, inline and without chunks, and the
 * client's replies, which arrive among its calls, complete them.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/msg_prot.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>

#include "rpcr_rpc.h"
#include "rpcr_svc.h"
#include "rpcr_trace.h"
#include "rpcr_wire2.h"

/* backward calls in flight at most: the client grants more (RFC 8167
 * §3.2), we take no more than this
 */
#define RPCR_SVC_BC_SLOTS	2

static struct rpcr_svc_xprt *rpcr_svc_bc_conn(struct rpc_xprt *xprt)
{
	return container_of(xprt->bc_xprt, struct rpcr_svc_xprt, xpt);
}

/* a callback's buffers: a call and a reply of at most a page */
static int rpcr_svc_bc_buf_alloc(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;

	if (rqst->rq_callsize > PAGE_SIZE || rqst->rq_rcvsize > PAGE_SIZE)
		return -EINVAL;
	rqst->rq_buffer = kmalloc(rqst->rq_callsize + rqst->rq_rcvsize,
				  GFP_NOIO | __GFP_NOWARN);
	if (!rqst->rq_buffer)
		return -ENOMEM;
	rqst->rq_rbuffer = (u8 *)rqst->rq_buffer + rqst->rq_callsize;
	return 0;
}

static void rpcr_svc_bc_buf_free(struct rpc_task *task)
{
	kfree(task->tk_rqstp->rq_buffer);
	task->tk_rqstp->rq_buffer = NULL;
	task->tk_rqstp->rq_rbuffer = NULL;
}

static int rpcr_svc_bc_send_request(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct rpcr_svc_xprt *sx = rpcr_svc_bc_conn(xprt);
	u32 len = rqst->rq_snd_buf.len, max;
	struct rpcr2_hdr *h;
	struct rpcr_sbuf *sb;
	int hlen, rc = -ENOTCONN;

	if (test_bit(XPT_DEAD, &sx->xpt.xpt_flags) ||
	    test_bit(XPT_CLOSE, &sx->xpt.xpt_flags))
		return -ENOTCONN;
	if (!xprt_request_get_cong(xprt, rqst))
		return -EBADSLT;
	max = min(sx->inline_size, READ_ONCE(sx->ep->peer_recv));
	h = kzalloc(sizeof(*h), GFP_NOIO);
	if (!h)
		return -ENOMEM;
	sb = rpcr_svc_sbuf(sx);
	if (!sb)
		goto out;
	h->base.xid = be32_to_cpu(rqst->rq_xid);
	/* draft §4.3.3: the connection's version, which its first call
	 * set (a callback goes only after a call of the session)
	 */
	h->base.vers = READ_ONCE(sx->vers) == RPCR_VERSION_2 ?
		       RPCR_VERSION_2 : RPCR_VERSION_1;
	h->base.credit = h->base.vers == RPCR_VERSION_2 ?
			 rpcr2_credit(sx->credits, sx->credits) :
			 RPCR_SVC_BC_SLOTS;
	h->base.proc = RPCR_MSG;
	hlen = rpcr_msg_encode(h, sb->buf, max);
	rc = -EMSGSIZE;
	if (hlen < 0 || hlen + len > max ||
	    read_bytes_from_xdr_buf(&rqst->rq_snd_buf, 0, sb->buf + hlen,
				    len)) {
		rpcr_ep_sbuf_put(sb);
		goto out;
	}
	trace_rpcr_bcall_send(h->base.xid, hlen + len);
	rqst->rq_xtime = ktime_get();
	rc = rpcr_ep_send(sx->ep, sb, hlen + len, 0, NULL, NULL);
	if (rc) {
		svc_xprt_deferred_close(&sx->xpt);
		rc = -ENOTCONN;
	}
out:
	kfree(h);
	return rc;
}

/**
 * rpcr_svc_bc_reply() - a message on a server connection that may be a
 * client's reply to one of our callbacks
 * @sx: the connection
 * @h: the message's header
 * @msg: its RPC message
 * @len: that message's length
 *
 * Return: true when the message was a reply (taken, or dropped when no
 * callback waits for it); false for a call, for nfsd.
 */
bool rpcr_svc_bc_reply(struct rpcr_svc_xprt *sx, const struct rpcr_hdr *h,
		       const u8 *msg, u32 len)
{
	struct rpc_xprt *xprt = sx->xpt.xpt_bc_xprt;
	struct rpc_rqst *rqst;
	u32 credits;

	if (!rpcr_rpc_is_dir(h, msg, len, RPC_REPLY))
		return false;
	if (!xprt)
		return true;

	spin_lock(&xprt->queue_lock);
	rqst = xprt_lookup_rqst(xprt, cpu_to_be32(h->xid));
	if (rqst)
		xprt_pin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
	if (!rqst) {
		trace_rpcr_reply_drop(h->xid, len, RPCR_DROP_XID, -ENOENT);
		return true;
	}
	if (write_bytes_to_xdr_buf(&rqst->rq_private_buf, 0, (void *)msg,
				   len))
		len = 0;
	trace_rpcr_bcall_reply_recv(h->xid, len);
	/* version 2: a reply grants one receive; the client's backward
	 * calls take those it keeps, within the most it has
	 */
	credits = h->vers == RPCR_VERSION_2 ?
		  rpcr2_credit_max(h->credit) : h->credit;
	credits = clamp_t(u32, credits, 1, RPCR_SVC_BC_SLOTS);
	spin_lock(&xprt->transport_lock);
	xprt->cwnd = (unsigned long)credits << RPC_CWNDSHIFT;
	spin_unlock(&xprt->transport_lock);

	spin_lock(&xprt->queue_lock);
	if (len)
		xprt_complete_rqst(rqst->rq_task, len);
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
	return true;
}

static void rpcr_svc_bc_close(struct rpc_xprt *xprt)
{
	xprt_disconnect_done(xprt);
	xprt->cwnd = RPC_CWNDSCALE;
}

static void rpcr_svc_bc_destroy(struct rpc_xprt *xprt)
{
	rpcr_rpc_free_addresses(xprt);
	xprt_free(xprt);
	module_put(THIS_MODULE);
}

static const struct rpc_xprt_ops rpcr_svc_bc_ops = {
	.reserve_xprt		= xprt_reserve_xprt_cong,
	.release_xprt		= xprt_release_xprt_cong,
	.alloc_slot		= xprt_alloc_slot,
	.free_slot		= xprt_free_slot,
	.release_request	= xprt_release_rqst_cong,
	.buf_alloc		= rpcr_svc_bc_buf_alloc,
	.buf_free		= rpcr_svc_bc_buf_free,
	.send_request		= rpcr_svc_bc_send_request,
	.wait_for_reply_request	= xprt_wait_for_reply_request_def,
	.close			= rpcr_svc_bc_close,
	.destroy		= rpcr_svc_bc_destroy,
};

static const struct rpc_timeout rpcr_svc_bc_timeout = {
	.to_initval	= 60 * HZ,
	.to_maxval	= 60 * HZ,
};

static struct xprt_class rpcr_svc_bc_class;

static struct rpc_xprt *rpcr_svc_bc_setup(struct xprt_create *args)
{
	struct sockaddr *sap = args->dstaddr;
	struct rpc_xprt *xprt;
	char buf[INET6_ADDRSTRLEN + 8];

	if (!args->bc_xprt || args->bc_xprt->xpt_class->xcl_ident !=
	    XPRT_TRANSPORT_RDMA || args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EINVAL);
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-EIO);
	xprt = xprt_alloc(args->net, sizeof(*xprt), RPCR_SVC_BC_SLOTS,
			  RPCR_SVC_BC_SLOTS);
	if (!xprt) {
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	xprt->timeout = &rpcr_svc_bc_timeout;
	xprt->prot = XPRT_TRANSPORT_BC_RDMA;
	xprt->ops = &rpcr_svc_bc_ops;
	xprt->xprt_class = &rpcr_svc_bc_class;
	xprt->addrlen = args->addrlen;
	memcpy(&xprt->addr, sap, args->addrlen);
	rpc_ntop(sap, buf, sizeof(buf));
	xprt->address_strings[RPC_DISPLAY_ADDR] = kstrdup(buf, GFP_KERNEL);
	xprt->address_strings[RPC_DISPLAY_PROTO] = "rdma";
	xprt->address_strings[RPC_DISPLAY_NETID] =
		sap->sa_family == AF_INET6 ? "rdma6" : "rdma";
	xprt->max_payload = PAGE_SIZE;
	/* one credit until the client's first reply grants more */
	xprt->cwnd = RPC_CWNDSCALE;
	xprt_set_bound(xprt);
	xprt_set_connected(xprt);

	/* the connection holds the transport (svc_xprt_free() drops it),
	 * and so does the caller
	 */
	xprt_get(xprt);
	args->bc_xprt->xpt_bc_xprt = xprt;
	xprt->bc_xprt = args->bc_xprt;
	return xprt;
}

static struct xprt_class rpcr_svc_bc_class = {
	.list	= LIST_HEAD_INIT(rpcr_svc_bc_class.list),
	.name	= "rdma backchannel",
	.owner	= THIS_MODULE,
	.ident	= XPRT_TRANSPORT_BC_RDMA,
	.setup	= rpcr_svc_bc_setup,
	.netid	= { "" },
};

/**
 * rpcr_svc_bc_init() - offer nfsd the backchannel transport
 *
 * Return: 0, or -EEXIST when another module has it.
 */
int rpcr_svc_bc_init(void)
{
	return xprt_register_transport(&rpcr_svc_bc_class);
}

/**
 * rpcr_svc_bc_exit() - withdraw it
 */
void rpcr_svc_bc_exit(void)
{
	xprt_unregister_transport(&rpcr_svc_bc_class);
}
