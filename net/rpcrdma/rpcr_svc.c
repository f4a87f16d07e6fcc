// SPDX-License-Identifier: GPL-2.0
/* rpcr_svc: the server side, the Responder of RFC 8166: the svc_xprt
 * class "rdma" that nfsd finds when told `rdma PORT` (portlist, or
 * rpc.nfsd --rdma), a listener on the wildcard address, and its
 * connections.
 *
 * A call arrives as a Send into a receive buffer; the CQ's handler
 * copies it out and queues it to its connection, so the buffer is
 * posted again at once. An nfsd thread takes it in ->xpo_recvfrom,
 * lays the RPC message out in the thread's pages as a stream socket
 * would, pulling Read chunks into place with RDMA Reads, and answers in
 * ->xpo_sendto: the READ payload nfsd names through ->xpo_result_payload
 * goes by RDMA Write into the call's Write chunk, the rest inline or by
 * RDMA Write into its Reply chunk.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_rdma.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprt.h>

#include "rpcr_ep.h"
#include "rpcr_svc.h"
#include "rpcr_sysctl.h"
#include "rpcr_trace.h"
#include "rpcr_wire2.h"
#include "rpcr_xdr.h"

/**
 * struct rpcr_svc_ctxt - a call in a thread's hands (rq_xprt_ctxt)
 * @call: its header, of either version (@call.base.vers)
 * @reply: the reply's header, built in ->xpo_sendto, in the call's version
 * @pay_off: where nfsd's result payload starts in rq_res
 * @pay_len: its bytes
 * @has_pay: nfsd named one (->xpo_result_payload)
 */
struct rpcr_svc_ctxt {
	struct rpcr2_hdr	call;
	struct rpcr2_hdr	reply;
	u32			pay_off;
	u32			pay_len;
	bool			has_pay;
};

/**
 * struct rpcr_svc_call - a received message, and then the thread's
 *	context of it until the reply is sent
 * @node: on the connection's @calls, or on its @spare ones
 * @more: the messages that continue this one (draft §6.3.2.2), in the
 *	order they came, on their @node; empty for a message on its own
 * @nmsgs: messages in the sequence, this one's included: the receives,
 *	and so the credits, it took
 * @hlen: bytes of transport header in @msg, once a thread decoded it
 *	(the messages after a sequence's first, rpcr_svc_join())
 * @len: bytes in @msg
 * @ctxt: the thread's context
 * @msg: the message, of the connection's inline size at most
 */
struct rpcr_svc_call {
	struct list_head	node;
	struct list_head	more;
	u32			nmsgs;
	u32			hlen;
	u32			len;
	struct rpcr_svc_ctxt	ctxt;
	u8			msg[];
};

static struct svc_xprt_class rpcr_svc_class;

static struct rpcr_svc_xprt *rpcr_svc(struct svc_xprt *xpt)
{
	return container_of(xpt, struct rpcr_svc_xprt, xpt);
}

/* A call's memory, from the spare ones of the connection if it has
 * any: a connection has as many calls as its credits, each one until
 * its reply is sent, so that many are kept.
 */
static struct rpcr_svc_call *rpcr_svc_call_get(struct rpcr_svc_xprt *sx)
{
	struct rpcr_svc_call *call;

	spin_lock(&sx->lock);
	call = list_first_entry_or_null(&sx->spare, struct rpcr_svc_call,
					node);
	if (call) {
		list_del(&call->node);
		sx->nspare--;
	}
	spin_unlock(&sx->lock);
	if (call)
		return call;
	return kmalloc(struct_size(call, msg, sx->inline_size),
		       GFP_NOFS | __GFP_NOWARN);
}

static void rpcr_svc_call_put(struct rpcr_svc_xprt *sx,
			      struct rpcr_svc_call *call)
{
	struct rpcr_svc_call *part, *tmp;

	list_for_each_entry_safe(part, tmp, &call->more, node) {
		list_del_init(&part->node);
		INIT_LIST_HEAD(&part->more);
		rpcr_svc_call_put(sx, part);
	}
	spin_lock(&sx->lock);
	if (sx->nspare < sx->credits) {
		list_add(&call->node, &sx->spare);
		sx->nspare++;
		call = NULL;
	}
	spin_unlock(&sx->lock);
	kfree(call);
}

/* the endpoint's handlers, in the receive CQ's context */
static void rpcr_svc_recv(void *owner, const u8 *msg, u32 len, u32 inv_rkey)
{
	struct rpcr_svc_xprt *sx = owner;
	struct rpcr_svc_call *call;
	u32 credit;
	bool more;

	/* Draft §6.4.2: a credit refresh asks for nothing, nor does its
	 * grant change ours (one reply for each call). Taken here, it needs
	 * no thread: a client probing the connection with one while every
	 * thread waits (rpcr_probe()) does not take the place of a call.
	 * In a sequence, or before the connection speaks version 2, it goes
	 * the way of any message, to be refused or to fix the version.
	 */
	if (READ_ONCE(sx->vers) == RPCR_VERSION_2 && !READ_ONCE(sx->partial) &&
	    rpcr2_peek_refresh(msg, len, &credit)) {
		trace_rpcr_refresh_recv((struct sockaddr *)&sx->xpt.xpt_remote,
					credit, 0);
		return;
	}
	/* (@len is no more than the receive buffers' inline size) */
	call = rpcr_svc_call_get(sx);
	if (!call) {
		/* the client's timer sends it again, on a new connection;
		 * a sequence (draft §6.3.2.2) with a hole must not be
		 * joined: its connection goes now
		 */
		trace_rpcr_reply_drop(0, len, RPCR_DROP_SIZE, -ENOMEM);
		if (READ_ONCE(sx->partial) || rpcr2_peek_more(msg, len))
			svc_xprt_deferred_close(&sx->xpt);
		return;
	}
	INIT_LIST_HEAD(&call->more);
	call->nmsgs = 1;
	call->len = len;
	memcpy(call->msg, msg, len);
	more = rpcr2_peek_more(msg, len);
	rpcr_svc_count(RPCR_SVC_STAT_RECV);
	spin_lock(&sx->lock);
	/* §3.3.1: a client past its credits breaks the protocol, and
	 * would have us hold its calls without bound. One message more
	 * takes the receive kept beyond them for one that is no call, a
	 * version 2 client's properties or credit refresh (draft §4.3.1.2).
	 * Each message of a continued one took a receive, and counts.
	 */
	if (sx->ncalls > sx->credits) {
		spin_unlock(&sx->lock);
		rpcr_svc_call_put(sx, call);
		trace_rpcr_reply_drop(0, len, RPCR_DROP_CREDIT, -ENOSPC);
		svc_xprt_deferred_close(&sx->xpt);
		return;
	}
	sx->ncalls++;
	/* Draft §6.3.2.2: the messages of a sequence go to a thread
	 * together, once its last (without F_MORE) has come; a thread
	 * checks and joins them. Messages come one at a time here.
	 */
	if (sx->partial) {
		list_add_tail(&call->node, &sx->partial->more);
		sx->partial->nmsgs++;
		if (more) {
			spin_unlock(&sx->lock);
			return;
		}
		call = sx->partial;
		sx->partial = NULL;
	} else if (more) {
		sx->partial = call;
		spin_unlock(&sx->lock);
		return;
	}
	list_add_tail(&call->node, &sx->calls);
	spin_unlock(&sx->lock);
	set_bit(XPT_DATA, &sx->xpt.xpt_flags);
	svc_xprt_enqueue(&sx->xpt);
}

static void rpcr_svc_down(void *owner)
{
	struct rpcr_svc_xprt *sx = owner;

	svc_xprt_deferred_close(&sx->xpt);
}

static const struct rpcr_ep_ops rpcr_svc_ep_ops = {
	.recv	= rpcr_svc_recv,
	.down	= rpcr_svc_down,
};

static void rpcr_svc_request(void *owner)
{
	struct rpcr_svc_xprt *sx = owner;

	set_bit(XPT_CONN, &sx->xpt.xpt_flags);
	svc_xprt_enqueue(&sx->xpt);
}

static const struct rpcr_listen_ops rpcr_svc_listen_ops = {
	.request	= rpcr_svc_request,
};

static struct rpcr_svc_xprt *rpcr_svc_alloc(struct svc_serv *serv,
					    struct net *net)
{
	struct rpcr_svc_xprt *sx = kzalloc(sizeof(*sx), GFP_KERNEL);

	if (!sx)
		return NULL;
	svc_xprt_init(net, &rpcr_svc_class, &sx->xpt, serv);
	spin_lock_init(&sx->lock);
	rpcr_props_init(&sx->props);
	mutex_init(&sx->seq_mutex);
	rpcr_proc_entry_init(&sx->proc);
	INIT_LIST_HEAD(&sx->calls);
	INIT_LIST_HEAD(&sx->spare);
	return sx;
}

/* A transport that sunrpc never got, from a failed ->xpo_create or
 * ->xpo_accept: svc_xprt_free() puts a reference on this module, and so
 * does sunrpc on that failure; one is taken here for the first.
 */
static void rpcr_svc_discard(struct rpcr_svc_xprt *sx)
{
	__module_get(THIS_MODULE);
	svc_xprt_put(&sx->xpt);
}

static struct svc_xprt *rpcr_svc_create(struct svc_serv *serv,
					struct net *net, struct sockaddr *sa,
					int salen, int flags)
{
	struct rpcr_svc_xprt *sx;
	struct rpcr_listener *l;

	if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	sx = rpcr_svc_alloc(serv, net);
	if (!sx)
		return ERR_PTR(-ENOMEM);
	set_bit(XPT_LISTENER, &sx->xpt.xpt_flags);
	l = rpcr_listen(net, sa, &rpcr_svc_listen_ops, sx);
	if (IS_ERR(l)) {
		rpcr_svc_discard(sx);
		return ERR_CAST(l);
	}
	sx->listener = l;
	svc_xprt_set_local(&sx->xpt, sa, salen);
	return &sx->xpt;
}

/* A new connection's sizes, from svc_rdma's knobs as they are now: a
 * receive for each credit and a spare (a call is handled before its
 * receive is posted again), a send for each, and room behind them for an
 * RDMA Read or Write of 1 MiB, 16 pages to a work request. Credits are
 * cut to what the device's queues hold.
 */
static void rpcr_svc_cfg(struct rpcr_svc_xprt *sx, struct ib_device *dev,
			 struct rpcr_ep_cfg *cfg)
{
	u32 wr_max = dev->attrs.max_qp_wr;

	sx->credits = min(READ_ONCE(rpcr_svc_max_requests), wr_max / 18);
	sx->inline_size = READ_ONCE(rpcr_svc_max_req_size);
	cfg->nrecv = sx->credits + 1;
	cfg->nsend = sx->credits;
	cfg->nsend_extra = sx->credits * 17;
	cfg->recv_size = sx->inline_size;
	cfg->send_size = sx->inline_size;
	cfg->rdma_ctxs = sx->credits;
	cfg->ord = READ_ONCE(rpcr_svc_ord);
}

/* a connection's line in /proc/net/rpcr: the client, the version of the
 * connection (0 before its first call), credits and inline size granted,
 * and the client's properties
 */
static void rpcr_svc_proc_show(struct seq_file *m, struct rpcr_proc_entry *e)
{
	struct rpcr_svc_xprt *sx = container_of(e, struct rpcr_svc_xprt, proc);

	seq_printf(m, " peer=%pISpc vers=%u credits=%u inline=%u",
		   (struct sockaddr *)&sx->xpt.xpt_remote, READ_ONCE(sx->vers),
		   sx->credits, sx->inline_size);
	rpcr_proc_show_props(m, &sx->props);
}

static struct svc_xprt *rpcr_svc_accept(struct svc_xprt *xpt)
{
	struct rpcr_svc_xprt *lx = rpcr_svc(xpt), *sx;
	struct rpcr_ep_cfg cfg = { };
	struct rpcr_conn_req *req;
	struct sockaddr *sa;
	struct rpcr_ep *ep;

	clear_bit(XPT_CONN, &xpt->xpt_flags);
	req = rpcr_listen_next(lx->listener);
	if (!req)
		return NULL;
	/* more waiting: come back for them */
	if (rpcr_listen_pending(lx->listener))
		set_bit(XPT_CONN, &xpt->xpt_flags);

	sx = rpcr_svc_alloc(xpt->xpt_server, xpt->xpt_net);
	if (!sx) {
		rpcr_conn_req_reject(req);
		return NULL;
	}
	rpcr_svc_cfg(sx, req->id->device, &cfg);
	/* NFSv4 wants a transport that controls its congestion: credits */
	set_bit(XPT_CONG_CTRL, &sx->xpt.xpt_flags);
	sa = (struct sockaddr *)&req->id->route.addr.dst_addr;
	svc_xprt_set_remote(&sx->xpt, sa, svc_addr_len(sa));
	sa = (struct sockaddr *)&req->id->route.addr.src_addr;
	svc_xprt_set_local(&sx->xpt, sa, svc_addr_len(sa));

	ep = rpcr_ep_accept(req, &cfg, &rpcr_svc_ep_ops, sx);
	if (IS_ERR(ep)) {
		rpcr_svc_discard(sx);
		return NULL;
	}
	sx->ep = ep;
	rpcr_proc_add(&sx->proc, sx->xpt.xpt_net, "server", rpcr_svc_proc_show);
	return &sx->xpt;
}

/* the bytes of a call the thread's pages hold (the reply's page apart) */
static u32 rpcr_svc_room(const struct svc_rqst *rqstp)
{
	return (rqstp->rq_page_end - rqstp->rq_pages - 1) * PAGE_SIZE;
}

/* copy @len bytes to offset @off of the stream the thread's pages hold */
static void rpcr_svc_stream_put(struct svc_rqst *rqstp, u32 off,
				const u8 *src, u32 len)
{
	while (len) {
		u32 poff = offset_in_page(off);
		u32 n = min_t(u32, len, PAGE_SIZE - poff);

		memcpy(page_address(rqstp->rq_pages[off >> PAGE_SHIFT]) + poff,
		       src, n);
		off += n;
		src += n;
		len -= n;
	}
}

/* the thread's pages as an xdr_buf of @len stream bytes, the way a stream
 * socket leaves a call: a page of head, the rest in the page list
 */
static void rpcr_svc_stream_buf(struct svc_rqst *rqstp, struct xdr_buf *arg,
				u32 len)
{
	memset(arg, 0, sizeof(*arg));
	arg->head[0].iov_base = page_address(rqstp->rq_pages[0]);
	arg->head[0].iov_len = min_t(u32, len, PAGE_SIZE);
	arg->pages = rqstp->rq_pages + 1;
	arg->page_len = len - arg->head[0].iov_len;
	arg->len = len;
	arg->buflen = (rqstp->rq_page_end - rqstp->rq_pages) * PAGE_SIZE;
}

/* RDMA Read a Read chunk's segments to offset @pos of the stream */
static int rpcr_svc_pull(struct rpcr_svc_xprt *sx, struct svc_rqst *rqstp,
			 const struct rpcr_hdr *h, u32 pos, u32 total)
{
	struct scatterlist *sg;
	struct xdr_buf arg;
	u32 i, max = RPCSVC_MAXPAGES + 1;
	int n, rc = 0;

	sg = kmalloc_array(max, sizeof(*sg), GFP_KERNEL);
	if (!sg)
		return -ENOMEM;
	rpcr_svc_count(RPCR_SVC_STAT_READ);
	rpcr_svc_stream_buf(rqstp, &arg, total);
	for (i = 0; i < h->nreads && !rc; i++) {
		const struct rpcr_seg *seg = &h->reads[i].seg;

		n = rpcr_xdr_sg(&arg, pos, seg->length, sg, max);
		rc = n < 0 ? n : n ? rpcr_ep_rw(sx->ep, sg, n, seg,
						DMA_FROM_DEVICE) : 0;
		pos += seg->length;
	}
	kfree(sg);
	return rc;
}

/* The call's RPC message into the thread's pages (§3.4.5): the inline
 * bytes up to the Read chunk's position, the chunk's data pulled by
 * RDMA Read, its XDR roundup (which neither carries, §3.4.4.4) as
 * zeroes, then the inline rest. A Long Call (§3.5.3) is all chunk.
 *
 * Return: the message's length, -EBADMSG for a Read list we do not take
 * (ERR_CHUNK), -EIO when a Read failed.
 */
static int rpcr_svc_build_arg(struct rpcr_svc_xprt *sx, struct svc_rqst *rqstp,
			      const struct rpcr_hdr *h, const u8 *in, u32 ilen)
{
	u32 room = rpcr_svc_room(rqstp);
	u32 pos = 0, clen = 0, pad, total, i;
	static const u8 zero[4];
	int rc;

	if (h->proc == RPCR_NOMSG)
		ilen = 0;
	for (i = 0; i < h->nreads; i++) {
		/* one Read chunk: every segment at one position */
		if (h->reads[i].position != h->reads[0].position)
			return -EBADMSG;
		if (h->reads[i].seg.length > room - clen)
			return -EBADMSG;
		clen += h->reads[i].seg.length;
	}
	if (h->nreads)
		pos = h->reads[0].position;
	pad = xdr_pad_size(clen);
	if (pos > ilen || (u64)ilen + clen + pad > room)
		return -EBADMSG;
	total = ilen + clen + pad;

	rpcr_svc_stream_put(rqstp, 0, in, pos);
	rpcr_svc_stream_put(rqstp, pos + clen + pad, in + pos, ilen - pos);
	if (clen) {
		rpcr_svc_stream_put(rqstp, pos + clen, zero, pad);
		rc = rpcr_svc_pull(sx, rqstp, h, pos, total);
		if (rc)
			return -EIO;
	}
	rpcr_svc_stream_buf(rqstp, &rqstp->rq_arg, total);
	/* the reply's pages come after the call's */
	rqstp->rq_respages = rqstp->rq_pages + DIV_ROUND_UP(total, PAGE_SIZE);
	if (rqstp->rq_respages == rqstp->rq_pages)
		rqstp->rq_respages++;
	rqstp->rq_next_page = rqstp->rq_respages + 1;
	return total;
}

/* The credit word of a message of version @vers: in version 2 what is
 * granted and, above it, the most there may be (draft §4.3.1.1)
 */
static u32 rpcr_svc_credit(const struct rpcr_svc_xprt *sx, u32 vers)
{
	return vers == RPCR_VERSION_2 ?
	       rpcr2_credit(sx->credits, sx->credits) : sx->credits;
}

/* the highest version a new connection answers in: svc_rdma.max_version,
 * or 1 for a client rdma_v1_peers names
 */
static u32 rpcr_svc_vers_max(struct rpcr_svc_xprt *sx)
{
	u32 max = rpcr_version_knob(&rpcr_svc_max_version);

	if (max > RPCR_VERSION_1 &&
	    rpcr_version1_peer((struct sockaddr *)&sx->xpt.xpt_remote))
		max = RPCR_VERSION_1;
	return max;
}

/* Draft §4.3.3: the connection takes the version of its first valid
 * call, if it is one we answer in (rpcr_svc_vers_max()); a call of any
 * other gets ERR_VERS, in version 1's layout, which every version reads.
 * Return: whether @vers may be the connection's; else @verdict says why.
 */
static bool rpcr_svc_vers_ok(struct rpcr_svc_xprt *sx, u32 vers,
			     struct rpcr2_err *verdict)
{
	u32 cur = READ_ONCE(sx->vers);
	u32 max = cur;

	if (cur && cur == vers)
		return true;
	if (!cur) {
		max = rpcr_svc_vers_max(sx);
		if (vers >= RPCR_VERSION_1 && vers <= max)
			return true;
	}
	memset(verdict, 0, sizeof(*verdict));
	verdict->code = RPCR_ERR_VERS;
	verdict->vers_low = cur ? cur : RPCR_VERSION_1;
	verdict->vers_high = max;
	trace_rpcr_svc_vers((struct sockaddr *)&sx->xpt.xpt_remote, vers,
			    RPCR_VERS_REFUSED);
	return false;
}

/* Draft §6.4.4: our properties, sent once the connection speaks version
 * 2, in front of the first reply; the server speaks no sooner (§4.3.3)
 */
static void rpcr_svc_props_send(struct rpcr_svc_xprt *sx)
{
	struct rpcr2_props ours = {
		.present = BIT(RPCR2_PROP_SBSIZ) | BIT(RPCR2_PROP_RBSIZ) |
			   BIT(RPCR2_PROP_RSSIZ) | BIT(RPCR2_PROP_RCSIZ),
		.sbsiz	 = sx->inline_size,
		.rbsiz	 = sx->inline_size,
		/* a payload of svc's largest, 1 MiB, in one segment */
		.rssiz	 = RPCR2_RSSIZ_DEFAULT,
		/* rpcr_hdr_decode(): the segments a call's header may have */
		.rcsiz	 = RPCR_MAX_READ_SEGS +
			   (RPCR_MAX_WRITE_CHUNKS + 1) * RPCR_MAX_CHUNK_SEGS,
	};
	u8 hostauth[RPCR_HOSTAUTH_MAX];

	rpcr_props_hostauth(&ours, hostauth);
	rpcr_props_send(sx->ep, (struct sockaddr *)&sx->xpt.xpt_remote,
			rpcr_svc_credit(sx, RPCR_VERSION_2), &ours);
}

/* The first valid call fixes the connection's version; threads take
 * calls in parallel, so another's may have come first. The thread that
 * fixes version 2 sends our properties.
 * Return: whether @vers is the connection's.
 */
static bool rpcr_svc_vers_set(struct rpcr_svc_xprt *sx, u32 vers)
{
	u32 cur = READ_ONCE(sx->vers);

	if (!cur) {
		cur = cmpxchg(&sx->vers, 0, vers);
		if (!cur) {
			trace_rpcr_svc_vers((struct sockaddr *)&sx->xpt.xpt_remote,
					    vers, RPCR_VERS_FIRST);
			if (vers == RPCR_VERSION_2)
				rpcr_svc_props_send(sx);
		}
	}
	return !cur || cur == vers;
}

/* RFC 8166 §4.5, draft §6.4.3: the error answer to a call we cannot
 * take, in @h (which it overwrites), in the layout of the call's
 * version @vers; the connection stays
 */
static void rpcr_svc_send_error(struct rpcr_svc_xprt *sx,
				struct rpcr2_hdr *h, u32 vers,
				const struct rpcr2_err *err)
{
	struct rpcr_sbuf *sb;
	u32 xid = h->base.xid;
	int len;

	if (!err->code)
		return;
	sb = rpcr_ep_sbuf_get(sx->ep);
	if (!sb)
		return;
	rpcr_msg_error(h, vers, xid, rpcr_svc_credit(sx, vers), err);
	len = rpcr_msg_encode(h, sb->buf, sx->inline_size);
	trace_rpcr_reply_drop(xid, len, RPCR_DROP_HDR, -EPROTO);
	if (len < 0)
		rpcr_ep_sbuf_put(sb);
	else
		rpcr_ep_send(sx->ep, sb, len, 0, NULL, NULL);
}

/**
 * struct rpcr_svc_joined - the RPC message of a continued call
 * @buf: its bytes, the payloads of the sequence's messages in order
 * @len: how many
 */
struct rpcr_svc_joined {
	u8	*buf;
	u32	len;
};

/* Draft §6.3.2.2: the payloads of a sequence, the first's (@h, @hlen
 * bytes of header, decoded) and those of the messages on its @more
 * list, joined in order into @out; @h becomes the last's header, whose
 * chunks the call has. Each message after the first must decode and
 * have the first's XID and type, else @verdict is ERR_INVAL_FLAG or
 * the decoder's (-EPROTO). A sequence of RDMA2_CONNPROP is dropped
 * (-EOPNOTSUPP); one longer than @room, what the thread's pages hold,
 * is refused (-EMSGSIZE). The sequence's messages stay on @call.
 * Return: 0, -EPROTO, -EOPNOTSUPP, -EMSGSIZE or -ENOMEM.
 */
static int rpcr_svc_join(struct rpcr_svc_xprt *sx, struct rpcr_svc_call *call,
			 struct rpcr2_hdr *h, int hlen, u32 room,
			 struct rpcr_svc_joined *out, struct rpcr2_err *verdict)
{
	struct rpcr_svc_call *part;
	struct rpcr2_hdr *next;
	int nlen, rc = -EPROTO;
	u32 len, at;

	/* continued properties are not put together: the sequence goes */
	if (h->base.proc != RPCR2_MSG) {
		trace_rpcr_reply_drop(h->base.xid, call->len, RPCR_DROP_MORE,
				      -EOPNOTSUPP);
		return -EOPNOTSUPP;
	}
	next = kmalloc(sizeof(*next), GFP_KERNEL);
	if (!next)
		return -ENOMEM;
	len = call->len - hlen;
	list_for_each_entry(part, &call->more, node) {
		nlen = rpcr_msg_decode(part->msg, part->len, next, verdict);
		if (nlen < 0)
			goto out;
		if (rpcr2_more_check(h, next, verdict))
			goto out;
		part->hlen = nlen;
		len += part->len - nlen;
	}
	/* what the thread's pages cannot hold, the call cannot be */
	rc = -EMSGSIZE;
	if (len > room)
		goto out;
	rc = -ENOMEM;
	out->buf = kvmalloc(len, GFP_KERNEL);
	if (!out->buf)
		goto out;
	out->len = len;
	memcpy(out->buf, call->msg + hlen, call->len - hlen);
	at = call->len - hlen;
	list_for_each_entry(part, &call->more, node) {
		memcpy(out->buf + at, part->msg + part->hlen,
		       part->len - part->hlen);
		at += part->len - part->hlen;
	}
	/* (the last decoded is the last message's: its chunks are the
	 * call's)
	 */
	*h = *next;
	trace_rpcr_msg_joined(h->base.xid, h->flags, call->nmsgs, len);
	rc = 0;
out:
	if (rc)
		trace_rpcr_reply_drop(h->base.xid, call->len, RPCR_DROP_MORE,
				      rc);
	kfree(next);
	return rc;
}

static int rpcr_svc_recvfrom(struct svc_rqst *rqstp)
{
	struct svc_xprt *xpt = rqstp->rq_xprt;
	struct rpcr_svc_xprt *sx = rpcr_svc(xpt);
	struct rpcr_svc_joined msg, joined = { };
	struct rpcr_svc_ctxt *ctxt;
	struct rpcr_svc_call *call;
	struct rpcr2_err verdict;
	struct rpcr2_hdr *h2;
	struct rpcr_hdr *h;
	int hlen, len;
	bool is_call;

	rqstp->rq_xprt_ctxt = NULL;
	spin_lock(&sx->lock);
	call = list_first_entry_or_null(&sx->calls, struct rpcr_svc_call,
					node);
	if (call) {
		list_del(&call->node);
		sx->ncalls -= call->nmsgs;
	}
	if (list_empty(&sx->calls))
		clear_bit(XPT_DATA, &xpt->xpt_flags);
	spin_unlock(&sx->lock);
	/* the transport is free for the next thread */
	svc_xprt_received(xpt);
	if (!call)
		return 0;

	ctxt = &call->ctxt;
	ctxt->has_pay = false;
	h2 = &ctxt->call;
	h = &h2->base;
	/* §4.5: shorter than the fixed words, or than the smallest
	 * version 1 call's header, its XID cannot be trusted: no answer
	 */
	hlen = rpcr_msg_decode(call->msg, call->len, h2, &verdict);
	if (hlen == -EMSGSIZE ||
	    (h->vers == RPCR_VERSION_1 && call->len < RPCR_HDR_MIN_LEN)) {
		trace_rpcr_reply_drop(0, call->len, RPCR_DROP_HDR, -EMSGSIZE);
		goto drop;
	}
	if (!rpcr_svc_vers_ok(sx, h->vers, &verdict)) {
		rpcr_svc_send_error(sx, h2, RPCR_VERSION_1, &verdict);
		goto drop;
	}
	/* §6.3.2.1: a version 2 message with F_RESPONSE answers a call
	 * of ours (a callback's reply)
	 */
	is_call = h->vers != RPCR_VERSION_2 ||
		  !(h2->flags & RPCR2_F_RESPONSE);
	if (hlen < 0 || rpcr_msg_check(h2, is_call, &verdict)) {
		rpcr_svc_send_error(sx, h2, h->vers, &verdict);
		goto drop;
	}
	if (!rpcr_svc_vers_set(sx, h->vers)) {
		rpcr_svc_vers_ok(sx, h->vers, &verdict);
		rpcr_svc_send_error(sx, h2, RPCR_VERSION_1, &verdict);
		goto drop;
	}
	msg.buf = call->msg + hlen;
	msg.len = call->len - hlen;
	if (call->nmsgs > 1) {
		len = rpcr_svc_join(sx, call, h2, hlen, rpcr_svc_room(rqstp),
				    &joined, &verdict);
		if (!len && rpcr_msg_check(h2, is_call, &verdict))
			len = -EPROTO;
		if (len == -EPROTO)
			rpcr_svc_send_error(sx, h2, h->vers, &verdict);
		/* no answer says what went wrong: the client's next try
		 * goes on a new connection, at once
		 */
		if (len == -EMSGSIZE || len == -ENOMEM)
			svc_xprt_deferred_close(xpt);
		if (len)
			goto drop;
		msg = joined;
	}
	/* §6.4.4, §6.4.2: the client's properties and credit refreshes
	 * carry nothing for nfsd
	 */
	if (h->vers == RPCR_VERSION_2 &&
	    (h->proc == RPCR2_CONNPROP || rpcr2_credit_refresh(h2))) {
		trace_rpcr_call_recv(h2, call->len);
		if (h->proc == RPCR2_CONNPROP)
			rpcr_props_recv(&sx->props, sx->ep,
					(struct sockaddr *)&sx->xpt.xpt_remote,
					&h2->props);
		goto drop;
	}
	/* RFC 8167: a reply to a callback of ours is no call for nfsd, nor
	 * is any other version 2 message that says it is a reply
	 */
	if (rpcr_svc_bc_reply(sx, h, msg.buf, msg.len) || !is_call)
		goto drop;
	trace_rpcr_call_recv(h2, call->len);
	len = rpcr_svc_build_arg(sx, rqstp, h, msg.buf, msg.len);
	kvfree(joined.buf);
	joined.buf = NULL;
	if (len == -EBADMSG) {
		verdict.code = RPCR_ERR_CHUNK;
		rpcr_svc_send_error(sx, h2, h->vers, &verdict);
		goto drop;
	}
	if (len < 0) {
		svc_xprt_deferred_close(xpt);
		goto drop;
	}
	/* the call's memory stays the thread's until ->xpo_release_ctxt */
	rqstp->rq_xprt_ctxt = ctxt;
	rqstp->rq_prot = IPPROTO_MAX;
	/* RDMA has no ports to be privileged: as Linux's, call it secure */
	set_bit(RQ_SECURE, &rqstp->rq_flags);
	svc_xprt_copy_addrs(rqstp, xpt);
	return len;

drop:
	kvfree(joined.buf);
	rpcr_svc_call_put(sx, call);
	return 0;
}

static int rpcr_svc_result_payload(struct svc_rqst *rqstp, unsigned int off,
				   unsigned int len)
{
	struct rpcr_svc_ctxt *ctxt = rqstp->rq_xprt_ctxt;

	ctxt->pay_off = off;
	ctxt->pay_len = len;
	ctxt->has_pay = len != 0;
	return 0;
}

/* RDMA Writes of ranges of the reply into a chunk's segments, in order,
 * onto @writes for the reply's Send to go behind; @got gets the chunk
 * with the lengths written (§3.4.6)
 */
static int rpcr_svc_push(struct rpcr_svc_xprt *sx, const struct xdr_buf *res,
			 const u32 *off, const u32 *len, int nranges,
			 const struct rpcr_write_chunk *chunk,
			 struct rpcr_write_chunk *got,
			 struct list_head *writes)
{
	u32 max = 0, i = 0, r, n, at;
	struct scatterlist *sg;
	int nents, rc = 0;

	/* a piece of a range spans its pages, and the head's and the
	 * tail's ends besides
	 */
	for (r = 0; r < nranges; r++)
		max = max(max, (len[r] >> PAGE_SHIFT) + 4);
	max = min_t(u32, max, RPCSVC_MAXPAGES + 2);
	*got = *chunk;
	for (i = 0; i < got->nsegs; i++)
		got->segs[i].length = 0;
	rpcr_svc_count(RPCR_SVC_STAT_WRITE);
	sg = kmalloc_array(max, sizeof(*sg), GFP_KERNEL);
	if (!sg)
		return -ENOMEM;
	i = 0;
	for (r = 0; r < nranges && !rc; r++) {
		for (at = 0; at < len[r] && !rc; at += n) {
			struct rpcr_seg seg;

			/* the next segment with room left */
			while (i < chunk->nsegs &&
			       got->segs[i].length == chunk->segs[i].length)
				i++;
			if (i == chunk->nsegs) {
				rc = -EMSGSIZE;
				break;
			}
			seg = chunk->segs[i];
			seg.offset += got->segs[i].length;
			n = min(len[r] - at, seg.length - got->segs[i].length);
			seg.length = n;
			nents = rpcr_xdr_sg(res, off[r] + at, n, sg, max);
			rc = nents < 0 ? nents :
			     rpcr_ep_write_add(sx->ep, writes, sg, nents, &seg);
			got->segs[i].length += n;
		}
	}
	kfree(sg);
	return rc;
}

/**
 * rpcr_svc_sbuf() - a send buffer of a server connection
 * @sx: the connection
 *
 * With all in flight, waits (a second at most) for one, while the
 * connection lives.
 *
 * Return: the buffer, or NULL.
 */
struct rpcr_sbuf *rpcr_svc_sbuf(struct rpcr_svc_xprt *sx)
{
	struct rpcr_sbuf *sb;
	int i;

	for (i = 0; i < 1000; i++) {
		sb = rpcr_ep_sbuf_get(sx->ep);
		if (sb || test_bit(XPT_CLOSE, &sx->xpt.xpt_flags))
			return sb;
		if (!i)
			rpcr_svc_count(RPCR_SVC_STAT_SQ_STARVE);
		usleep_range(500, 1000);
	}
	return NULL;
}

/* Where the reply goes (§3.4.6, §3.5.4): the READ payload by RDMA Write
 * into the first Write chunk, the rest inline when it fits the client's
 * receive buffers, else by RDMA Write into the Reply chunk. Leaves in @h
 * the reply's header, in @off and @len the ranges of @res to send
 * inline, and on @writes the RDMA Writes, not yet posted. -EMSGSIZE: the
 * client's chunks cannot hold the reply.
 */
static int rpcr_svc_place(struct rpcr_svc_xprt *sx, struct rpcr_svc_ctxt *ctxt,
			  const struct xdr_buf *res, u32 send_max,
			  u32 *off, u32 *len, struct list_head *writes)
{
	struct rpcr_hdr *call = &ctxt->call.base, *h = &ctxt->reply.base;
	u32 i, j;
	int rc;

	/* each Write chunk offered comes back, unused ones with no bytes */
	h->nwrites = call->nwrites;
	for (i = 0; i < call->nwrites; i++) {
		h->writes[i] = call->writes[i];
		for (j = 0; j < h->writes[i].nsegs; j++)
			h->writes[i].segs[j].length = 0;
	}
	off[0] = 0;
	len[0] = res->len;
	off[1] = 0;
	len[1] = 0;
	if (call->nwrites && ctxt->has_pay &&
	    ctxt->pay_off + ctxt->pay_len <= res->len) {
		u32 end = ctxt->pay_off + ctxt->pay_len;

		rc = rpcr_svc_push(sx, res, &ctxt->pay_off, &ctxt->pay_len, 1,
				   &call->writes[0], &h->writes[0], writes);
		if (rc)
			return rc;
		/* out of the reply with its roundup */
		end = min(end + xdr_pad_size(ctxt->pay_len), res->len);
		len[0] = ctxt->pay_off;
		off[1] = end;
		len[1] = res->len - end;
	}
	if (rpcr_msg_len(&ctxt->reply) + len[0] + len[1] <= send_max)
		return 0;
	if (!call->has_reply)
		return -EMSGSIZE;
	rc = rpcr_svc_push(sx, res, off, len, 2, &call->reply, &h->reply,
			   writes);
	if (rc)
		return rc;
	h->has_reply = true;
	h->proc = RPCR_NOMSG;
	len[0] = 0;
	len[1] = 0;
	return 0;
}

/* Draft §6.3.2.2, §4.3.1.1: a reply that fits neither a Send nor the
 * chunks offered goes in several Sends, as many as the call granted at
 * most (rpcr2_more_granted()) and the connection has send buffers; only
 * a reply of version 2 that placed nothing by RDMA Write, the last Send
 * carrying no chunk but the unused Write chunks echoed; none when
 * sunrpc.rdma_continuation is 0.
 * Return: how many Sends, 0 when it cannot go so.
 */
static u32 rpcr_svc_more_sends(const struct rpcr_svc_xprt *sx,
			       const struct rpcr_svc_ctxt *ctxt,
			       const u32 *off, const u32 *len, u32 reply_len,
			       u32 send_max)
{
	size_t hlen = rpcr_msg_len(&ctxt->reply);
	u32 n;

	if (ctxt->call.base.vers != RPCR_VERSION_2 ||
	    READ_ONCE(rpcr_continuation) == RPCR_MORE_NEVER ||
	    off[0] || len[1] || len[0] != reply_len ||
	    send_max <= RPCR2_MORE_HDR_LEN ||
	    !hlen || hlen >= send_max)
		return 0;
	n = rpcr2_more_granted(reply_len, send_max - RPCR2_MORE_HDR_LEN,
			       send_max - hlen, ctxt->call.base.credit);
	/* they take as many of the connection's send buffers at once */
	return n <= sx->credits ? n : 0;
}

/**
 * struct rpcr_svc_seq - the Sends of a continued reply (draft §6.3.2.2)
 * @n: how many are built, the last one (the reply's header) included
 * @sb: their buffers
 * @len: the bytes of each
 */
struct rpcr_svc_seq {
	u32			n;
	struct rpcr_sbuf	*sb[RPCR_MORE_SENDS_MAX];
	u32			len[RPCR_MORE_SENDS_MAX];
};

static void rpcr_svc_seq_put(struct rpcr_svc_seq *seq)
{
	while (seq->n)
		rpcr_ep_sbuf_put(seq->sb[--seq->n]);
}

/* The Sends of a continued reply but its last, built in @seq, each as
 * full as it can be: the header of one with more to come and the
 * reply's next bytes. None is posted: the whole sequence goes in one
 * post once the last is built (rpcr_ep_send_seq()).
 * Return: the reply's bytes they carry, or a negative errno.
 */
static int rpcr_svc_continue(struct rpcr_svc_xprt *sx,
			     const struct rpcr_hdr *h, const struct xdr_buf *res,
			     u32 send_max, u32 nsends, struct rpcr_svc_seq *seq)
{
	struct rpcr_sbuf *sb;
	u32 at = 0, n;
	int hlen;

	lockdep_assert_held(&sx->seq_mutex);
	while (seq->n + 1 < nsends) {
		sb = rpcr_svc_sbuf(sx);
		if (!sb)
			return -ENOTCONN;
		seq->sb[seq->n++] = sb;
		hlen = rpcr2_more_encode(h->xid, h->credit, RPCR2_F_RESPONSE,
					 sb->buf, send_max);
		if (hlen < 0)
			return hlen;
		n = rpcr2_more_take(res->len - at, send_max - hlen);
		if (read_bytes_from_xdr_buf(res, at, sb->buf + hlen, n))
			return -EIO;
		seq->len[seq->n - 1] = hlen + n;
		at += n;
	}
	trace_rpcr_msg_split(h->xid, RPCR2_F_RESPONSE, nsends, res->len);
	return at;
}

static int rpcr_svc_sendto(struct svc_rqst *rqstp)
{
	struct svc_xprt *xpt = rqstp->rq_xprt;
	struct rpcr_svc_xprt *sx = rpcr_svc(xpt);
	struct rpcr_svc_ctxt *ctxt = rqstp->rq_xprt_ctxt;
	struct xdr_buf *res = &rqstp->rq_res;
	struct rpcr2_hdr *call2 = &ctxt->call, *h2 = &ctxt->reply;
	struct rpcr_hdr *call = &call2->base, *h = &h2->base;
	u32 send_max = min(sx->inline_size, READ_ONCE(sx->ep->peer_recv));
	struct rpcr2_err err = { };
	u32 off[2], len[2];
	u32 rlen, i, pos, inv, nsends;
	struct rpcr_svc_seq seq;
	struct rpcr_sbuf *sb;
	LIST_HEAD(writes);
	int hlen, rc;

	if (test_bit(XPT_CLOSE, &xpt->xpt_flags))
		return -ENOTCONN;
	seq.n = 0;
	memset(h2, 0, sizeof(*h2));
	h->xid = call->xid;
	h->vers = call->vers;
	h->credit = rpcr_svc_credit(sx, call->vers);
	h->proc = RPCR_MSG;
	/* draft §6.3.2.1: a reply says so */
	if (h->vers == RPCR_VERSION_2)
		h2->flags = RPCR2_F_RESPONSE;
	rc = rpcr_svc_place(sx, ctxt, res, send_max, off, len, &writes);
	nsends = rc == -EMSGSIZE && list_empty(&writes) ?
		 rpcr_svc_more_sends(sx, ctxt, off, len, res->len, send_max) :
		 0;
	if (nsends) {
		mutex_lock(&sx->seq_mutex);
		rc = rpcr_svc_continue(sx, h, res, send_max, nsends, &seq);
		if (rc < 0)
			goto fail;
		off[0] = rc;
		len[0] = res->len - rc;
	} else if (rc == -EMSGSIZE) {
		/* §4.5: ERR_CHUNK (version 2: §6.4.3 ERR_REPLY_RESOURCE, the
		 * length needed), and the connection stays; the data of a
		 * chunk that did fit is not sent for nothing
		 */
		rpcr_ep_writes_free(sx->ep, &writes);
		trace_rpcr_reply_drop(call->xid, res->len, RPCR_DROP_CHUNK, rc);
		err.code = RPCR2_ERR_REPLY_RESOURCE;
		err.length_needed = res->len;
		rpcr_msg_error(h2, call->vers, call->xid,
			       rpcr_svc_credit(sx, call->vers), &err);
		len[0] = 0;
		len[1] = 0;
	} else if (rc) {
		goto fail;
	}
	rlen = len[0] + len[1];

	sb = rpcr_svc_sbuf(sx);
	if (!sb) {
		rc = -ENOTCONN;
		goto fail;
	}
	hlen = rpcr_msg_encode(h2, sb->buf, send_max);
	if (hlen < 0) {
		rpcr_ep_sbuf_put(sb);
		rc = hlen;
		goto fail;
	}
	pos = hlen;
	for (i = 0; i < 2 && rlen; i++) {
		if (len[i] && read_bytes_from_xdr_buf(res, off[i], sb->buf + pos,
						      len[i])) {
			rpcr_ep_sbuf_put(sb);
			rc = -EIO;
			goto fail;
		}
		pos += len[i];
	}
	trace_rpcr_reply_send(h2, pos);
	/* the client that welcomes it gets its memory back with the reply
	 * and posts no LOCAL_INV of its own (RFC 8797); in version 2 the
	 * call names the handle (draft §6.3.3.2)
	 */
	if (call->vers == RPCR_VERSION_2)
		inv = call2->inv_handle;
	else
		inv = sx->ep->peer_inv ? rpcr_hdr_inv_handle(call) : 0;
	if (nsends) {
		/* a continued reply: its Sends in one post, the last With
		 * Invalidate; no Write went with it
		 */
		seq.sb[seq.n] = sb;
		seq.len[seq.n] = pos;
		i = seq.n + 1;
		seq.n = 0;
		rc = rpcr_ep_send_seq(sx->ep, seq.sb, seq.len, i, inv);
		mutex_unlock(&sx->seq_mutex);
		nsends = 0;
	} else {
		/* the Writes go in front of the Send, not waited for: they
		 * hold the reply's pages until the Send completes
		 */
		rc = rpcr_ep_send_writes(sx->ep, sb, pos, inv, &writes);
	}
	if (rc)
		goto fail;
	return res->len;

fail:
	rpcr_svc_seq_put(&seq);
	if (nsends)
		mutex_unlock(&sx->seq_mutex);
	rpcr_ep_writes_free(sx->ep, &writes);
	/* a reply that did not go: the client's retry comes on a new
	 * connection
	 */
	svc_xprt_deferred_close(xpt);
	return rc;
}

static void rpcr_svc_release_ctxt(struct svc_xprt *xpt, void *ctxt)
{
	if (ctxt)
		rpcr_svc_call_put(rpcr_svc(xpt),
				  container_of(ctxt, struct rpcr_svc_call,
					       ctxt));
}

static int rpcr_svc_has_wspace(struct svc_xprt *xpt)
{
	return 1;
}

#ifdef RPCR_HAVE_XPO_SECURE_PORT
/* 6.1 asks after each call; rpcr_svc_recvfrom() said it already */
static void rpcr_svc_secure_port(struct svc_rqst *rqstp)
{
	set_bit(RQ_SECURE, &rqstp->rq_flags);
}
#endif

static void rpcr_svc_detach(struct svc_xprt *xpt)
{
	struct rpcr_svc_xprt *sx = rpcr_svc(xpt);

	/* closed: its line goes now (rpcr_svc_free() may come much later) */
	rpcr_proc_del(&sx->proc);
	/* in-flight work flushes; the endpoint goes with the transport */
	if (sx->ep)
		rpcr_ep_disconnect(sx->ep);
}

static void rpcr_svc_free(struct svc_xprt *xpt)
{
	struct rpcr_svc_xprt *sx = rpcr_svc(xpt);
	struct rpcr_svc_call *call, *tmp;

	rpcr_proc_del(&sx->proc);
	if (sx->listener)
		rpcr_listen_stop(sx->listener);
	if (sx->ep)
		rpcr_ep_destroy(sx->ep);
	if (sx->partial)
		list_add(&sx->partial->node, &sx->calls);
	list_for_each_entry_safe(call, tmp, &sx->calls, node) {
		list_splice_tail_init(&call->more, &sx->spare);
		kfree(call);
	}
	list_for_each_entry_safe(call, tmp, &sx->spare, node)
		kfree(call);
	kfree(sx);
}

static void rpcr_svc_kill_temp(struct svc_xprt *xpt)
{
}

static const struct svc_xprt_ops rpcr_svc_ops = {
	.xpo_create		= rpcr_svc_create,
	.xpo_accept		= rpcr_svc_accept,
	.xpo_recvfrom		= rpcr_svc_recvfrom,
	.xpo_sendto		= rpcr_svc_sendto,
	.xpo_result_payload	= rpcr_svc_result_payload,
	.xpo_release_ctxt	= rpcr_svc_release_ctxt,
	.xpo_has_wspace		= rpcr_svc_has_wspace,
	.xpo_detach		= rpcr_svc_detach,
	.xpo_free		= rpcr_svc_free,
#ifdef RPCR_HAVE_XPO_SECURE_PORT
	.xpo_secure_port	= rpcr_svc_secure_port,
#endif
	.xpo_kill_temp_xprt	= rpcr_svc_kill_temp,
};

static struct svc_xprt_class rpcr_svc_class = {
	.xcl_name		= "rdma",
	.xcl_owner		= THIS_MODULE,
	.xcl_ops		= &rpcr_svc_ops,
	.xcl_max_payload	= RPCSVC_MAXPAYLOAD_RDMA,
	.xcl_ident		= XPRT_TRANSPORT_RDMA,
};

/**
 * rpcr_svc_init() - offer the server transport class to sunrpc
 *
 * Return: 0, or -EEXIST when another module has the class "rdma".
 */
int rpcr_svc_init(void)
{
	int rc = svc_reg_xprt_class(&rpcr_svc_class);

	if (rc)
		return rc;
	rc = rpcr_svc_bc_init();
	if (rc)
		svc_unreg_xprt_class(&rpcr_svc_class);
	return rc;
}

/**
 * rpcr_svc_exit() - withdraw it
 */
void rpcr_svc_exit(void)
{
	rpcr_svc_bc_exit();
	svc_unreg_xprt_class(&rpcr_svc_class);
}
