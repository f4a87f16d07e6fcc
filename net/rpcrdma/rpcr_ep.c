// SPDX-License-Identifier: GPL-2.0
/* rpcr_ep: an RDMA connection as RPC-over-RDMA uses one (RFC 8166 §3):
 * an RC queue pair whose receive queue always holds a buffer of the
 * inline size for each message the peer may send, and whose Sends come
 * from a fixed pool of buffers of the same size.
 *
 * Connection setup is synchronous: the caller (a work item) sleeps
 * through address and route resolution and the CM handshake, each step
 * bounded by RPCR_EP_CM_TIMEOUT_MS.
 */
#include <linux/slab.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>
#include <rdma/rw.h>

#include "rpcr_ep.h"
#include "rpcr_trace.h"
#include "rpcr_wire.h"

#define RPCR_EP_CM_TIMEOUT_MS	5000
#define RPCR_EP_WR_TIMEOUT	(30 * HZ)
/* SGEs per send work request at most */
#define RPCR_EP_MAX_SGE		16
/* a Send in this many is signaled at least */
#define RPCR_EP_SIGNAL_BATCH	16

static void rpcr_ep_recv_done(struct ib_cq *cq, struct ib_wc *wc);
static void rpcr_ep_send_done(struct ib_cq *cq, struct ib_wc *wc);

/* The connection failed under us: tell the owner, once */
static void rpcr_ep_fail(struct rpcr_ep *ep)
{
	if (xchg(&ep->up, false))
		ep->ops->down(ep->owner);
}

/* RFC 8797 §4: a peer that sends no (valid) private data takes and
 * makes Sends of the v1 default size only
 */
static void rpcr_ep_peer_priv(struct rpcr_ep *ep, const void *data, u8 len)
{
	struct rpcr_cm_priv p;

	ep->peer_recv = RPCR_V1_INLINE_DEFAULT;
	ep->peer_send = RPCR_V1_INLINE_DEFAULT;
	ep->peer_inv = false;
	if (!data || rpcr_cm_priv_decode(data, len, &p))
		return;
	ep->peer_recv = p.recv_size;
	ep->peer_send = p.send_size;
	ep->peer_inv = p.flags & RPCR_CM_F_REMOTE_INV;
	trace_rpcr_cm_peer(ep->id, true, ep->peer_send, ep->peer_recv,
			   ep->peer_inv);
}

static int rpcr_ep_cm_handler(struct rdma_cm_id *id,
			      struct rdma_cm_event *ev)
{
	struct rpcr_ep *ep = id->context;
	int status = 0;

	trace_rpcr_cm_event(id, ev->event, ev->status);
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		/* the accept's private data; an accepted connection had the
		 * request's, and its ESTABLISHED carries none
		 */
		if (!ep->passive)
			rpcr_ep_peer_priv(ep, ev->param.conn.private_data,
					  ev->param.conn.private_data_len);
		WRITE_ONCE(ep->up, true);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
		status = -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		status = -ENETUNREACH;
		break;
	case RDMA_CM_EVENT_REJECTED:
		status = -ECONNREFUSED;
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
		status = -ENOTCONN;
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		/* an established connection ends; setup waits no more */
		rpcr_ep_fail(ep);
		status = -ECONNRESET;
		break;
	default:
		return 0;
	}
	ep->cm_status = status;
	complete(&ep->cm_done);
	return 0;
}

/* wait for the CM handler's word on the step just started */
static int rpcr_ep_cm_wait(struct rpcr_ep *ep)
{
	unsigned long left = msecs_to_jiffies(RPCR_EP_CM_TIMEOUT_MS);

	if (!wait_for_completion_timeout(&ep->cm_done, left))
		return -ETIMEDOUT;
	return ep->cm_status;
}

static int rpcr_ep_post_recv(struct rpcr_rbuf *rb)
{
	struct rpcr_ep *ep = rb->ep;
	struct ib_sge sge = {
		.addr	= rb->dma,
		.length	= ep->cfg.recv_size,
		.lkey	= ep->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_cqe		= &rb->cqe,
		.sg_list	= &sge,
		.num_sge	= 1,
	};

	return ib_post_recv(ep->id->qp, &wr, NULL);
}

static void rpcr_ep_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcr_rbuf *rb = container_of(wc->wr_cqe, struct rpcr_rbuf, cqe);
	struct rpcr_ep *ep = rb->ep;
	struct ib_device *dev = ep->id->device;
	u32 inv = 0;

	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			trace_rpcr_wc_error(wc);
		rpcr_ep_fail(ep);
		return;
	}
	/* only a Send carries a message */
	if (wc->opcode != IB_WC_RECV)
		goto repost;
	if (wc->wc_flags & IB_WC_WITH_INVALIDATE)
		inv = wc->ex.invalidate_rkey;
	ib_dma_sync_single_for_cpu(dev, rb->dma, ep->cfg.recv_size,
				   DMA_FROM_DEVICE);
	ep->ops->recv(ep->owner, rb->buf, wc->byte_len, inv);
	ib_dma_sync_single_for_device(dev, rb->dma, ep->cfg.recv_size,
				      DMA_FROM_DEVICE);
repost:
	if (rpcr_ep_post_recv(rb))
		rpcr_ep_fail(ep);
}

/* @n SQ slots of Reads and Writes come back, or go if negative */
static void rpcr_ep_sq_add(struct rpcr_ep *ep, int n)
{
	lockdep_assert_held(&ep->lock);
	ep->sq_avail += n;
}

/* take @n slots if they are free */
static bool rpcr_ep_sq_take(struct rpcr_ep *ep, u32 n)
{
	bool ok;

	spin_lock(&ep->lock);
	ok = ep->sq_avail >= n;
	if (ok)
		rpcr_ep_sq_add(ep, -(int)n);
	spin_unlock(&ep->lock);
	return ok;
}

static void rpcr_ep_sq_put(struct rpcr_ep *ep, u32 n)
{
	if (!n)
		return;
	spin_lock(&ep->lock);
	rpcr_ep_sq_add(ep, n);
	spin_unlock(&ep->lock);
	wake_up(&ep->sq_wait);
}

/* Wait for @n slots, a second at a time as rpcr_ep_wait_wr() does. Each
 * comes back with its completion, flushed ones included, so only a peer
 * that stops answering holds them; past RPCR_EP_WR_TIMEOUT the
 * connection is ended.
 */
static int rpcr_ep_sq_get(struct rpcr_ep *ep, u32 n)
{
	int i;

	if (n > ep->sq_max)
		return -ENOBUFS;
	for (i = 0; i < RPCR_EP_WR_TIMEOUT / HZ; i++)
		if (wait_event_timeout(ep->sq_wait, rpcr_ep_sq_take(ep, n), HZ))
			return 0;
	trace_rpcr_post_error(ep->id, -ETIMEDOUT);
	rpcr_ep_disconnect(ep);
	return -ETIMEDOUT;
}

static void rpcr_ep_write_free(struct rpcr_ep *ep, struct rpcr_write *w)
{
	struct scatterlist *s;
	u32 i;

	rdma_rw_ctx_destroy(&w->ctx, ep->id->qp, ep->id->port_num, w->sg,
			    w->nents, DMA_TO_DEVICE);
	for_each_sg(w->sg, s, w->nents, i)
		put_page(sg_page(s));
	kfree(w);
}

/**
 * rpcr_ep_writes_free() - release RDMA Writes that were not posted
 * @ep: endpoint
 * @writes: list of struct rpcr_write from rpcr_ep_write_add(), emptied
 */
void rpcr_ep_writes_free(struct rpcr_ep *ep, struct list_head *writes)
{
	struct rpcr_write *w, *tmp;

	list_for_each_entry_safe(w, tmp, writes, node) {
		list_del(&w->node);
		rpcr_ep_write_free(ep, w);
	}
}

/* The device is done with send buffers taken off @ep->posted: the
 * Writes in front of their Sends are released, and they go back to
 * the free list.
 */
static void rpcr_ep_sbufs_done(struct rpcr_ep *ep, struct list_head *done)
{
	struct rpcr_sbuf *sb;
	u32 n = 0, wrs = 0;

	list_for_each_entry(sb, done, node) {
		rpcr_ep_writes_free(ep, &sb->writes);
		wrs += sb->sq_wrs;
		sb->sq_wrs = 0;
		n++;
	}
	if (!n)
		return;
	spin_lock(&ep->lock);
	list_splice(done, &ep->free);
	ep->nfree += n;
	rpcr_ep_sq_add(ep, wrs);
	spin_unlock(&ep->lock);
	if (wrs)
		wake_up(&ep->sq_wait);
}

/**
 * rpcr_ep_unsignaled_done() - completion handler of unsignaled work requests
 * @cq: send CQ
 * @wc: the completion, which only a failure or a flush produces
 *
 * Traces the failure; the signaled Send behind the request fails too,
 * and that ends the connection.
 */
void rpcr_ep_unsignaled_done(struct ib_cq *cq, struct ib_wc *wc)
{
	if (wc->status != IB_WC_WR_FLUSH_ERR)
		trace_rpcr_wc_error(wc);
}

/* A Send completed: a signaled one, or any that failed or was flushed.
 * On an RC QP the work requests posted before it are done too (those
 * that failed have completed already, in order), so its buffer and
 * every one in front of it on @posted are released, with the RDMA
 * Writes chained in front of their Sends.
 */
static void rpcr_ep_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcr_sbuf *sb = container_of(wc->wr_cqe, struct rpcr_sbuf, cqe);
	struct rpcr_ep *ep = sb->ep;
	LIST_HEAD(done);

	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			trace_rpcr_wc_error(wc);
		rpcr_ep_fail(ep);
	}
	spin_lock(&ep->lock);
	list_cut_position(&done, &ep->posted, &sb->node);
	spin_unlock(&ep->lock);
	rpcr_ep_sbufs_done(ep, &done);
}

/**
 * rpcr_ep_sbuf_get() - take a send buffer
 * @ep: endpoint
 *
 * Return: a buffer of @ep->cfg.send_size bytes, or NULL when every one
 * still waits for its Send to complete.
 */
struct rpcr_sbuf *rpcr_ep_sbuf_get(struct rpcr_ep *ep)
{
	struct rpcr_sbuf *sb;

	spin_lock(&ep->lock);
	sb = list_first_entry_or_null(&ep->free, struct rpcr_sbuf, node);
	if (sb) {
		list_del(&sb->node);
		ep->nfree--;
	}
	spin_unlock(&ep->lock);
	return sb;
}

/**
 * rpcr_ep_sbuf_put() - give back a send buffer that was not sent
 * @sb: buffer
 */
void rpcr_ep_sbuf_put(struct rpcr_sbuf *sb)
{
	struct rpcr_ep *ep = sb->ep;

	spin_lock(&ep->lock);
	list_add(&sb->node, &ep->free);
	ep->nfree++;
	spin_unlock(&ep->lock);
}

/* Whether the Send to be posted is signaled. Its completion is what
 * gives back the buffers of the Sends before it, so one in @ep->batch
 * is, and each one while free buffers are short: the Send that takes
 * the last one is always signaled. A Send with Writes in front is too,
 * as SQ slots and the Writes' pages wait for it.
 */
static bool rpcr_ep_signal(struct rpcr_ep *ep, struct rpcr_sbuf *sb)
{
	lockdep_assert_held(&ep->lock);
	if (list_empty(&sb->writes) && ++ep->unsignaled < ep->batch &&
	    ep->nfree >= ep->batch)
		return false;
	ep->unsignaled = 0;
	return true;
}

/* after a post of Sends: those on @undo, not out, are free again */
static int rpcr_ep_post_end(struct rpcr_ep *ep, int rc, struct list_head *undo)
{
	if (!rc)
		return 0;
	trace_rpcr_post_error(ep->id, rc);
	rpcr_ep_sbufs_done(ep, undo);
	return rc;
}

/* the Send of @sb's first @len bytes, in @sb, not yet signaled */
static struct ib_send_wr *rpcr_ep_send_wr(struct rpcr_ep *ep,
					  struct rpcr_sbuf *sb, u32 len,
					  u32 inv_rkey)
{
	ib_dma_sync_single_for_device(ep->id->device, sb->dma, len,
				      DMA_TO_DEVICE);
	sb->sge.addr = sb->dma;
	sb->sge.length = len;
	sb->sge.lkey = ep->pd->local_dma_lkey;
	memset(&sb->wr, 0, sizeof(sb->wr));
	sb->wr.wr_cqe = &sb->cqe;
	sb->wr.sg_list = &sb->sge;
	sb->wr.num_sge = 1;
	sb->wr.opcode = inv_rkey ? IB_WR_SEND_WITH_INV : IB_WR_SEND;
	sb->wr.ex.invalidate_rkey = inv_rkey;
	return &sb->wr;
}

/**
 * rpcr_ep_send() - post a Send of a send buffer's first bytes
 * @ep: endpoint
 * @sb: buffer from rpcr_ep_sbuf_get() holding the message (and, from
 *	rpcr_ep_send_writes(), the RDMA Writes to go in front on its
 *	@writes); back in the pool once the device is done with it, or at
 *	once if it cannot be posted, unless some of its Writes went: then
 *	after a later Send's completion or the drain
 * @len: bytes to send, at most the inline size
 * @inv_rkey: a peer's rkey to invalidate with the Send, 0 for none
 * @first: work requests to post before the Send, chained up to @last
 *	(NULL: none); their completions are their owner's business
 * @last: the last of them
 *
 * Return: 0, -ENOTCONN once the endpoint is drained, or the negative
 * errno of ib_post_send().
 */
int rpcr_ep_send(struct rpcr_ep *ep, struct rpcr_sbuf *sb, u32 len,
		 u32 inv_rkey, struct ib_send_wr *first, struct ib_send_wr *last)
{
	struct ib_qp *qp = ep->id->qp;
	const struct ib_send_wr *bad = NULL;
	struct ib_send_wr *wr, *head, *p;
	struct rpcr_write *w;
	LIST_HEAD(undo);
	int rc = -ENOTCONN;

	wr = rpcr_ep_send_wr(ep, sb, len, inv_rkey);
	/* unsignaled: the Send's completion says they are done, and a
	 * failed one is traced by its own
	 */
	head = wr;
	list_for_each_entry_reverse(w, &sb->writes, node)
		head = rdma_rw_ctx_wrs(&w->ctx, qp, ep->id->port_num, NULL,
				       head);
	for (p = head; p != wr; p = p->next)
		p->wr_cqe = &sb->wcqe;
	if (first)
		last->next = head;
	else
		first = head;

	spin_lock(&ep->lock);
	if (!ep->drained) {
		if (rpcr_ep_signal(ep, sb))
			wr->send_flags = IB_SEND_SIGNALED;
		list_add_tail(&sb->node, &ep->posted);
		rc = ib_post_send(qp, first, &bad);
		/* the Send is last: when the post fails, it is not out.
		 * With none of the Writes out either, the buffer is free
		 */
		if (rc && (list_empty(&sb->writes) || bad == head))
			list_move(&sb->node, &undo);
	} else {
		list_add(&sb->node, &undo);
	}
	spin_unlock(&ep->lock);
	return rpcr_ep_post_end(ep, rc, &undo);
}

/**
 * rpcr_ep_send_seq() - post Sends that arrive one right after another
 * @ep: endpoint
 * @sbs: their buffers from rpcr_ep_sbuf_get(), in order, without Writes;
 *	each back in the pool once the device is done with it, or at once
 *	if it was not posted
 * @lens: the bytes of each, at most the inline size
 * @n: how many
 * @inv_rkey: a peer's rkey to invalidate with the last, 0 for none
 *
 * One post of the chain, under @ep->lock as every post of the
 * connection: no other Send comes between them, as the parts of a
 * continued message need (draft §6.3.2.2).
 *
 * Return: 0, -ENOTCONN once the endpoint is drained, or the negative
 * errno of ib_post_send().
 */
int rpcr_ep_send_seq(struct rpcr_ep *ep, struct rpcr_sbuf **sbs,
		     const u32 *lens, u32 n, u32 inv_rkey)
{
	const struct ib_send_wr *bad = NULL;
	struct ib_send_wr *first = NULL, **link = &first;
	LIST_HEAD(undo);
	int rc = -ENOTCONN;
	u32 i;

	for (i = 0; i < n; i++) {
		*link = rpcr_ep_send_wr(ep, sbs[i], lens[i],
					i == n - 1 ? inv_rkey : 0);
		link = &(*link)->next;
	}

	spin_lock(&ep->lock);
	if (!ep->drained) {
		for (i = 0; i < n; i++) {
			if (rpcr_ep_signal(ep, sbs[i]))
				sbs[i]->wr.send_flags = IB_SEND_SIGNALED;
			list_add_tail(&sbs[i]->node, &ep->posted);
		}
		rc = ib_post_send(ep->id->qp, first, &bad);
		/* those from @bad on are not out; without @bad, the drain
		 * gives them all back
		 */
		for (i = 0; rc && bad && i < n && &sbs[i]->wr != bad; i++)
			;
		for (; rc && bad && i < n; i++)
			list_move_tail(&sbs[i]->node, &undo);
	} else {
		for (i = 0; i < n; i++)
			list_add_tail(&sbs[i]->node, &undo);
	}
	spin_unlock(&ep->lock);
	return rpcr_ep_post_end(ep, rc, &undo);
}

/**
 * rpcr_ep_send_writes() - post RDMA Writes and a Send behind them at once
 * @ep: endpoint, created with @cfg.rdma_ctxs
 * @sb: buffer from rpcr_ep_sbuf_get(), holding the message
 * @len: bytes to send, at most the inline size
 * @inv_rkey: a peer's rkey to invalidate with the Send, 0 for none
 * @writes: list of struct rpcr_write from rpcr_ep_write_add(), taken over
 *	(emptied) whatever the outcome
 *
 * Waits, boundedly, for the send queue to have room for every work
 * request of @writes, then posts them and the Send in one chain, and
 * returns without waiting for them. The Writes' memory, the send buffer
 * and the SQ slots are released by the Send's completion; when the post
 * fails part way, after the connection is drained.
 *
 * Return: 0, or a negative errno: the post failed, no room came.
 */
int rpcr_ep_send_writes(struct rpcr_ep *ep, struct rpcr_sbuf *sb, u32 len,
			u32 inv_rkey, struct list_head *writes)
{
	struct rpcr_write *w;
	LIST_HEAD(undo);
	u32 nwr = 0;
	int rc;

	list_for_each_entry(w, writes, node)
		nwr += w->nwr;
	rc = rpcr_ep_sq_get(ep, nwr);
	list_splice_init(writes, &sb->writes);
	if (rc) {
		list_add(&sb->node, &undo);
		rpcr_ep_sbufs_done(ep, &undo);
		return rc;
	}
	sb->sq_wrs = nwr;
	rc = rpcr_ep_send(ep, sb, len, inv_rkey, NULL, NULL);
	/* some Writes went: no completion may come for them; the drain
	 * will release them
	 */
	if (rc)
		rpcr_ep_disconnect(ep);
	return rc;
}

static void rpcr_ep_free_bufs(struct rpcr_ep *ep)
{
	struct ib_device *dev = ep->id->device;
	u32 i;

	for (i = 0; ep->rbufs && i < ep->cfg.nrecv; i++) {
		if (!ep->rbufs[i].buf)
			break;
		ib_dma_unmap_single(dev, ep->rbufs[i].dma, ep->cfg.recv_size,
				    DMA_FROM_DEVICE);
		kfree(ep->rbufs[i].buf);
	}
	for (i = 0; ep->sbufs && i < ep->cfg.nsend; i++) {
		if (!ep->sbufs[i].buf)
			break;
		ib_dma_unmap_single(dev, ep->sbufs[i].dma, ep->cfg.send_size,
				    DMA_TO_DEVICE);
		kfree(ep->sbufs[i].buf);
	}
	kfree(ep->rbufs);
	kfree(ep->sbufs);
}

/* one buffer of @size bytes, mapped for @dir */
static u8 *rpcr_ep_map_buf(struct rpcr_ep *ep, u32 size, u64 *dma,
			   enum dma_data_direction dir)
{
	struct ib_device *dev = ep->id->device;
	u8 *buf = kzalloc(size, GFP_KERNEL);

	if (!buf)
		return NULL;
	*dma = ib_dma_map_single(dev, buf, size, dir);
	if (ib_dma_mapping_error(dev, *dma)) {
		kfree(buf);
		return NULL;
	}
	return buf;
}

static int rpcr_ep_alloc_bufs(struct rpcr_ep *ep)
{
	u32 i;

	ep->rbufs = kcalloc(ep->cfg.nrecv, sizeof(*ep->rbufs), GFP_KERNEL);
	ep->sbufs = kcalloc(ep->cfg.nsend, sizeof(*ep->sbufs), GFP_KERNEL);
	if (!ep->rbufs || !ep->sbufs)
		return -ENOMEM;
	for (i = 0; i < ep->cfg.nrecv; i++) {
		struct rpcr_rbuf *rb = &ep->rbufs[i];

		rb->ep = ep;
		rb->cqe.done = rpcr_ep_recv_done;
		rb->buf = rpcr_ep_map_buf(ep, ep->cfg.recv_size, &rb->dma,
					  DMA_FROM_DEVICE);
		if (!rb->buf)
			return -ENOMEM;
	}
	for (i = 0; i < ep->cfg.nsend; i++) {
		struct rpcr_sbuf *sb = &ep->sbufs[i];

		sb->ep = ep;
		sb->cqe.done = rpcr_ep_send_done;
		sb->wcqe.done = rpcr_ep_unsignaled_done;
		INIT_LIST_HEAD(&sb->writes);
		sb->buf = rpcr_ep_map_buf(ep, ep->cfg.send_size, &sb->dma,
					  DMA_TO_DEVICE);
		if (!sb->buf)
			return -ENOMEM;
		list_add_tail(&sb->node, &ep->free);
		ep->nfree++;
	}
	/* as Linux's client does: an eighth of the Sends a connection
	 * may have outstanding, here a quarter of the buffers
	 */
	ep->batch = clamp_t(u32, ep->cfg.nsend / 4, 1, RPCR_EP_SIGNAL_BATCH);
	return 0;
}

/* PD, CQs, QP, buffers on the device the route resolved to */
static int rpcr_ep_create_qp(struct rpcr_ep *ep)
{
	struct ib_device *dev = ep->id->device;
	u32 nsend = ep->cfg.nsend + ep->cfg.nsend_extra;
	struct ib_qp_init_attr attr = {
		.qp_context	= ep,
		.cap = {
			.max_send_wr	= nsend,
			.max_recv_wr	= ep->cfg.nrecv,
			/* the SGEs of a Read or Write: rdma_rw uses them */
			.max_send_sge	= min_t(u32, dev->attrs.max_send_sge,
						RPCR_EP_MAX_SGE),
			.max_recv_sge	= 1,
			.max_rdma_ctxs	= ep->cfg.rdma_ctxs,
		},
		.sq_sig_type	= IB_SIGNAL_REQ_WR,
		.qp_type	= IB_QPT_RC,
		.port_num	= ep->id->port_num,
	};
	u32 depth;
	int rc;

	ep->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(ep->pd))
		return PTR_ERR(ep->pd);
	/* every signaled send WR: Sends, registrations, Read and Write
	 * contexts
	 */
	ep->scq = ib_alloc_cq_any(dev, ep, nsend + ep->cfg.rdma_ctxs,
				  IB_POLL_WORKQUEUE);
	if (IS_ERR(ep->scq))
		return PTR_ERR(ep->scq);
	ep->rcq = ib_alloc_cq_any(dev, ep, ep->cfg.nrecv, IB_POLL_WORKQUEUE);
	if (IS_ERR(ep->rcq))
		return PTR_ERR(ep->rcq);
	attr.send_cq = ep->scq;
	attr.recv_cq = ep->rcq;
	rc = rdma_create_qp(ep->id, ep->pd, &attr);
	if (rc)
		return rc;
	/* Reads and Writes get the SQ the Sends leave (rdma_rw's room
	 * too: attr has the depth made) but one work request, the drain's;
	 * and no more than the send CQ holds besides them, as each may
	 * complete in error
	 */
	depth = min_t(u32, attr.cap.max_send_wr, ep->scq->cqe);
	ep->sq_max = depth > ep->cfg.nsend + 1 ? depth - ep->cfg.nsend - 1 : 0;
	ep->sq_avail = ep->sq_max;
	return rpcr_ep_alloc_bufs(ep);
}

static struct rpcr_ep *rpcr_ep_alloc(const struct rpcr_ep_cfg *cfg,
				     const struct rpcr_ep_ops *ops, void *owner)
{
	struct rpcr_ep *ep = kzalloc(sizeof(*ep), GFP_KERNEL);

	if (!ep)
		return NULL;
	ep->cfg = *cfg;
	ep->ops = ops;
	ep->owner = owner;
	init_completion(&ep->cm_done);
	spin_lock_init(&ep->lock);
	INIT_LIST_HEAD(&ep->free);
	INIT_LIST_HEAD(&ep->posted);
	init_waitqueue_head(&ep->sq_wait);
	return ep;
}

/* the RFC 8797 private data we send: our buffer sizes */
static void rpcr_ep_our_priv(struct rpcr_ep *ep, u8 *pdata)
{
	struct rpcr_cm_priv priv = {
		.version	= RPCR_CM_VERSION,
		.flags		= RPCR_CM_F_REMOTE_INV,
		.send_size	= ep->cfg.send_size,
		.recv_size	= ep->cfg.recv_size,
	};

	rpcr_cm_priv_encode(&priv, pdata, RPCR_CM_PRIV_LEN);
}

static int rpcr_ep_post_all_recvs(struct rpcr_ep *ep)
{
	u32 i;
	int rc;

	for (i = 0; i < ep->cfg.nrecv; i++) {
		rc = rpcr_ep_post_recv(&ep->rbufs[i]);
		if (rc)
			return rc;
	}
	return 0;
}

static int rpcr_ep_establish(struct rpcr_ep *ep, const struct sockaddr *dst)
{
	struct ib_device *dev;
	u8 pdata[RPCR_CM_PRIV_LEN];
	struct rdma_conn_param param = {
		.private_data		= pdata,
		.private_data_len	= sizeof(pdata),
		.retry_count		= 6,
		/* credits keep a receive posted for every Send (§3.3.1) */
		.rnr_retry_count	= 0,
		.flow_control		= 1,
	};
	int rc;

	rc = rdma_resolve_addr(ep->id, NULL, (struct sockaddr *)dst,
			       RPCR_EP_CM_TIMEOUT_MS);
	if (!rc)
		rc = rpcr_ep_cm_wait(ep);
	if (rc)
		return rc;
	rc = rdma_resolve_route(ep->id, RPCR_EP_CM_TIMEOUT_MS);
	if (!rc)
		rc = rpcr_ep_cm_wait(ep);
	if (rc)
		return rc;
	rc = rpcr_ep_create_qp(ep);
	if (!rc)
		rc = rpcr_ep_post_all_recvs(ep);
	if (rc)
		return rc;

	/* a peer's server reads our Read chunks: it needs read resources */
	dev = ep->id->device;
	param.responder_resources = min_t(int, dev->attrs.max_qp_rd_atom, 16);
	param.initiator_depth = min_t(int, dev->attrs.max_qp_init_rd_atom, 16);
	rpcr_ep_our_priv(ep, pdata);
	rc = rdma_connect(ep->id, &param);
	if (!rc)
		rc = rpcr_ep_cm_wait(ep);
	return rc;
}

/**
 * rpcr_ep_connect() - set up a connection to a server
 * @net: namespace of the connection
 * @dst: the server's address and port
 * @cfg: receive and send buffers to have
 * @ops: handlers of the owner
 * @owner: their argument
 *
 * Sleeps until the connection is established or has failed.
 *
 * Return: the endpoint, or an ERR_PTR(): -EHOSTUNREACH, -ENETUNREACH,
 * -ECONNREFUSED, -ENOTCONN, -ETIMEDOUT or -ENOMEM.
 */
struct rpcr_ep *rpcr_ep_connect(struct net *net, const struct sockaddr *dst,
				const struct rpcr_ep_cfg *cfg,
				const struct rpcr_ep_ops *ops, void *owner)
{
	struct rpcr_ep *ep;
	int rc;

	ep = rpcr_ep_alloc(cfg, ops, owner);
	if (!ep)
		return ERR_PTR(-ENOMEM);
	ep->id = rdma_create_id(net, rpcr_ep_cm_handler, ep, RDMA_PS_TCP,
				IB_QPT_RC);
	if (IS_ERR(ep->id)) {
		rc = PTR_ERR(ep->id);
		kfree(ep);
		return ERR_PTR(rc);
	}
	rc = rpcr_ep_establish(ep, dst);
	if (rc) {
		trace_rpcr_connect_error(ep->id, rc);
		/* the handler must not report a later failure to the owner */
		WRITE_ONCE(ep->up, false);
		rpcr_ep_destroy(ep);
		return ERR_PTR(rc);
	}
	return ep;
}

/**
 * rpcr_ep_disconnect() - end the connection, keeping the endpoint
 * @ep: endpoint
 *
 * The owner hears of it through its down handler.
 */
void rpcr_ep_disconnect(struct rpcr_ep *ep)
{
	rdma_disconnect(ep->id);
}

/**
 * rpcr_ep_drain() - end the connection and flush its work requests
 * @ep: endpoint
 *
 * When this returns, every handler for a work request of @ep has run,
 * and none will run again. The owner is not told: it asked. Called again,
 * it does nothing.
 */
void rpcr_ep_drain(struct rpcr_ep *ep)
{
	LIST_HEAD(left);
	bool again;

	WRITE_ONCE(ep->up, false);
	if (!ep->id->qp)
		return;
	/* no Send is posted from here on: none follows the drain's */
	spin_lock(&ep->lock);
	again = ep->drained;
	ep->drained = true;
	spin_unlock(&ep->lock);
	if (again)
		return;
	rdma_disconnect(ep->id);
	ib_drain_qp(ep->id->qp);
	/* Sends that went unsignaled after the last completion, and
	 * buffers whose post failed part way: the device is done with them
	 */
	spin_lock(&ep->lock);
	list_splice_init(&ep->posted, &left);
	spin_unlock(&ep->lock);
	rpcr_ep_sbufs_done(ep, &left);
}

/* everything of the endpoint on its id's device: QP, buffers, CQs, PD */
static void rpcr_ep_release(struct rpcr_ep *ep)
{
	rpcr_ep_drain(ep);
	if (ep->id->qp)
		rdma_destroy_qp(ep->id);
	rpcr_ep_free_bufs(ep);
	if (!IS_ERR_OR_NULL(ep->rcq))
		ib_free_cq(ep->rcq);
	if (!IS_ERR_OR_NULL(ep->scq))
		ib_free_cq(ep->scq);
	if (!IS_ERR_OR_NULL(ep->pd))
		ib_dealloc_pd(ep->pd);
}

/**
 * rpcr_ep_destroy() - end the connection and free everything of it
 * @ep: endpoint, from rpcr_ep_connect()
 *
 * Flushes the queue pair first: when this returns, no handler of the
 * owner runs or will run for @ep.
 */
void rpcr_ep_destroy(struct rpcr_ep *ep)
{
	rpcr_ep_release(ep);
	/* last: the device stays while the id does; no CM event runs past
	 * this, and none will come
	 */
	rdma_destroy_id(ep->id);
	kfree(ep);
}

/**
 * rpcr_ep_wait_wr() - wait for a work request's completion, boundedly
 * @ep: endpoint
 * @done: completed by the work request's handler
 *
 * A peer that stops answering holds a Read or Write, and so the waiter,
 * until RC retries run out; past RPCR_EP_WR_TIMEOUT the connection is
 * ended, which flushes the request, and its handler still runs before
 * this returns: its memory may be released then.
 */
void rpcr_ep_wait_wr(struct rpcr_ep *ep, struct completion *done)
{
	int i;

	/* a second at a time: a bounded wait, which the hung task
	 * detector must not take for a hung one
	 */
	for (i = 0; i < RPCR_EP_WR_TIMEOUT / HZ; i++)
		if (wait_for_completion_timeout(done, HZ))
			return;
	trace_rpcr_post_error(ep->id, -ETIMEDOUT);
	rpcr_ep_disconnect(ep);
	wait_for_completion(done);
}

struct rpcr_rw_wait {
	struct ib_cqe		cqe;
	struct completion	done;
	int			status;
};

static void rpcr_ep_rw_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcr_rw_wait *w = container_of(wc->wr_cqe, struct rpcr_rw_wait,
					      cqe);

	w->status = wc->status == IB_WC_SUCCESS ? 0 : -EIO;
	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR)
		trace_rpcr_wc_error(wc);
	complete(&w->done);
}

/**
 * rpcr_ep_rw() - RDMA Read a peer's segment into pages, or Write to it
 * @ep: endpoint, created with @cfg.rdma_ctxs
 * @sg: our memory
 * @nents: entries of @sg
 * @seg: the peer's segment (RFC 8166 §4.1): handle, offset, and no more
 *	bytes than it has
 * @dir: DMA_FROM_DEVICE for a Read into @sg, DMA_TO_DEVICE for a Write
 *
 * Sleeps until the operation completed.
 *
 * Return: 0, or a negative errno (-EIO when it failed on the wire).
 */
int rpcr_ep_rw(struct rpcr_ep *ep, struct scatterlist *sg, u32 nents,
	       const struct rpcr_seg *seg, enum dma_data_direction dir)
{
	struct ib_qp *qp = ep->id->qp;
	u32 port = ep->id->port_num;
	struct rpcr_rw_wait w = { .cqe.done = rpcr_ep_rw_done };
	struct rdma_rw_ctx ctx;
	u32 nwr;
	int rc;

	rc = rdma_rw_ctx_init(&ctx, qp, port, sg, nents, 0, seg->offset,
			      seg->handle, dir);
	if (rc < 0)
		return rc;
	nwr = rc;
	rc = rpcr_ep_sq_get(ep, nwr);
	if (rc)
		goto out;
	init_completion(&w.done);
	rc = rdma_rw_ctx_post(&ctx, qp, port, &w.cqe, NULL);
	if (!rc) {
		rpcr_ep_wait_wr(ep, &w.done);
		rc = w.status;
	} else {
		/* what went out of it flushes with the connection */
		trace_rpcr_post_error(ep->id, rc);
		rpcr_ep_disconnect(ep);
	}
	rpcr_ep_sq_put(ep, nwr);
out:
	rdma_rw_ctx_destroy(&ctx, qp, port, sg, nents, dir);
	return rc;
}

/**
 * rpcr_ep_write_add() - prepare an RDMA Write of our memory to a segment
 * @ep: endpoint, created with @cfg.rdma_ctxs
 * @writes: list the Write joins, for rpcr_ep_send_writes() or
 *	rpcr_ep_writes_free()
 * @sg: our memory, copied: the caller may reuse it
 * @nents: entries of @sg
 * @seg: the peer's segment: handle, offset, and no more bytes than it has
 *
 * Maps @sg for the device and holds a reference on each of its pages, so
 * the Write reads them unchanged after their owner has let them go.
 *
 * Return: 0, or a negative errno.
 */
int rpcr_ep_write_add(struct rpcr_ep *ep, struct list_head *writes,
		      const struct scatterlist *sg, u32 nents,
		      const struct rpcr_seg *seg)
{
	struct scatterlist *s;
	struct rpcr_write *w;
	u32 i;
	int rc;

	w = kmalloc(struct_size(w, sg, nents), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	memcpy(w->sg, sg, nents * sizeof(*sg));
	w->nents = nents;
	rc = rdma_rw_ctx_init(&w->ctx, ep->id->qp, ep->id->port_num, w->sg,
			      nents, 0, seg->offset, seg->handle,
			      DMA_TO_DEVICE);
	if (rc < 0) {
		kfree(w);
		return rc;
	}
	w->nwr = rc;
	for_each_sg(w->sg, s, nents, i)
		get_page(sg_page(s));
	list_add_tail(&w->node, writes);
	return 0;
}

/* Events of a listening id and of the ids of the connections it was
 * asked for, until each is accepted: only a request matters.
 */
static int rpcr_listen_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct rpcr_listener *l = id->context;
	const struct rdma_conn_param *param = &ev->param.conn;
	struct rpcr_conn_req *req;

	trace_rpcr_cm_event(id, ev->event, ev->status);
	if (ev->event != RDMA_CM_EVENT_CONNECT_REQUEST)
		return 0;
	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;	/* the CM rejects and destroys @id */
	req->id = id;
	req->priv_ok = param->private_data &&
		       !rpcr_cm_priv_decode(param->private_data,
					    param->private_data_len,
					    &req->priv);
	/* the CM turns the peer's words round: its responder resources,
	 * the Reads it serves, are our initiator depth
	 */
	req->rd_atom = param->initiator_depth;
	/* the new id's events come here until it is accepted */
	id->context = NULL;
	spin_lock(&l->lock);
	list_add_tail(&req->node, &l->requests);
	spin_unlock(&l->lock);
	l->ops->request(l->owner);
	return 0;
}

/**
 * rpcr_listen() - listen for connections
 * @net: namespace
 * @addr: the address and port; a wildcard IPv6 address takes IPv6 only,
 *	so an IPv4 listener can share the port
 * @ops: what to tell the owner
 * @owner: its argument
 *
 * Return: the listener or an ERR_PTR().
 */
struct rpcr_listener *rpcr_listen(struct net *net, struct sockaddr *addr,
				  const struct rpcr_listen_ops *ops,
				  void *owner)
{
	struct rpcr_listener *l;
	int rc;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return ERR_PTR(-ENOMEM);
	l->ops = ops;
	l->owner = owner;
	spin_lock_init(&l->lock);
	INIT_LIST_HEAD(&l->requests);
	l->id = rdma_create_id(net, rpcr_listen_handler, l, RDMA_PS_TCP,
			       IB_QPT_RC);
	if (IS_ERR(l->id)) {
		rc = PTR_ERR(l->id);
		kfree(l);
		return ERR_PTR(rc);
	}
	rc = addr->sa_family == AF_INET6 ? rdma_set_afonly(l->id, 1) : 0;
	if (!rc)
		rc = rdma_bind_addr(l->id, addr);
	if (!rc)
		rc = rdma_listen(l->id, 64);
	if (rc) {
		rdma_destroy_id(l->id);
		kfree(l);
		return ERR_PTR(rc);
	}
	return l;
}

/**
 * rpcr_listen_next() - the oldest connection request not yet taken
 * @l: listener
 *
 * Return: the request, to accept or reject, or NULL.
 */
struct rpcr_conn_req *rpcr_listen_next(struct rpcr_listener *l)
{
	struct rpcr_conn_req *req;

	spin_lock(&l->lock);
	req = list_first_entry_or_null(&l->requests, struct rpcr_conn_req,
				       node);
	if (req)
		list_del(&req->node);
	spin_unlock(&l->lock);
	return req;
}

/**
 * rpcr_listen_pending() - are connection requests waiting?
 * @l: listener
 *
 * Return: true when rpcr_listen_next() has one to give.
 */
bool rpcr_listen_pending(struct rpcr_listener *l)
{
	bool pending;

	spin_lock(&l->lock);
	pending = !list_empty(&l->requests);
	spin_unlock(&l->lock);
	return pending;
}

/**
 * rpcr_conn_req_reject() - refuse a connection request and free it
 * @req: from rpcr_listen_next()
 */
void rpcr_conn_req_reject(struct rpcr_conn_req *req)
{
	rdma_reject(req->id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
	rdma_destroy_id(req->id);
	kfree(req);
}

/**
 * rpcr_listen_stop() - stop listening; refuse the requests not taken
 * @l: listener, freed
 */
void rpcr_listen_stop(struct rpcr_listener *l)
{
	struct rpcr_conn_req *req;

	/* no request comes after this */
	rdma_destroy_id(l->id);
	while ((req = rpcr_listen_next(l)))
		rpcr_conn_req_reject(req);
	kfree(l);
}

/**
 * rpcr_ep_accept() - accept a connection request
 * @req: from rpcr_listen_next(), freed
 * @cfg: receive and send buffers to have
 * @ops: handlers of the owner
 * @owner: their argument
 *
 * The connection is set up and accepted; the peer may send at once.
 *
 * Return: the endpoint, or an ERR_PTR() (the request was refused).
 */
struct rpcr_ep *rpcr_ep_accept(struct rpcr_conn_req *req,
			       const struct rpcr_ep_cfg *cfg,
			       const struct rpcr_ep_ops *ops, void *owner)
{
	u8 pdata[RPCR_CM_PRIV_LEN];
	struct rdma_conn_param param = {
		.private_data		= pdata,
		.private_data_len	= sizeof(pdata),
		.rnr_retry_count	= 0,
		.flow_control		= 1,
	};
	struct rpcr_ep *ep;
	int rc = -ENOMEM;

	ep = rpcr_ep_alloc(cfg, ops, owner);
	if (!ep)
		goto refuse;
	ep->id = req->id;
	ep->passive = true;
	ep->peer_recv = RPCR_V1_INLINE_DEFAULT;
	ep->peer_send = RPCR_V1_INLINE_DEFAULT;
	if (req->priv_ok) {
		ep->peer_recv = req->priv.recv_size;
		ep->peer_send = req->priv.send_size;
		ep->peer_inv = req->priv.flags & RPCR_CM_F_REMOTE_INV;
	}
	trace_rpcr_cm_peer(ep->id, req->priv_ok, ep->peer_send, ep->peer_recv,
			   ep->peer_inv);
	rc = rpcr_ep_create_qp(ep);
	if (!rc)
		rc = rpcr_ep_post_all_recvs(ep);
	if (rc)
		goto refuse;
	/* our RDMA Reads of the peer's Read chunks: as many as it serves */
	param.initiator_depth = min_t(int, req->rd_atom,
				      ep->id->device->attrs.max_qp_init_rd_atom);
	if (cfg->ord)
		param.initiator_depth = min_t(int, param.initiator_depth,
					      cfg->ord);
	rpcr_ep_our_priv(ep, pdata);
	/* rdma_accept() belongs under the id's event handler: outside one,
	 * its handler lock must be held. Under it, from here on the
	 * connection's events are the endpoint's, and the first of them
	 * finds the endpoint up.
	 */
	rdma_lock_handler(ep->id);
	ep->id->context = ep;
	ep->id->event_handler = rpcr_ep_cm_handler;
	rc = rdma_accept(ep->id, &param);
	if (!rc)
		WRITE_ONCE(ep->up, true);
	rdma_unlock_handler(ep->id);
	if (rc) {
		trace_rpcr_connect_error(ep->id, rc);
		rpcr_ep_destroy(ep);
		kfree(req);
		return ERR_PTR(rc);
	}
	kfree(req);
	return ep;

refuse:
	if (ep) {
		/* the id is the request's to destroy */
		ep->id->context = NULL;
		rpcr_ep_release(ep);
		kfree(ep);
	}
	rpcr_conn_req_reject(req);
	return ERR_PTR(rc);
}
