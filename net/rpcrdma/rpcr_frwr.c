// SPDX-License-Identifier: GPL-2.0
/* rpcr_frwr: chunks as FRWR registrations (RFC 8166 §3.4.2).
 *
 * A range of an xdr_buf becomes one or more MRs: a new MR starts where
 * the memory is not page-contiguous (the head, the page list and the
 * tail are separate memory) or the MR is full. Each MR is an RDMA
 * segment. Its REG_MR work request is chained before the Send that
 * advertises it, so the peer can never see a handle that is not yet
 * valid; after the reply, a LOCAL_INV (unless the peer invalidated it
 * with Send With Invalidate) is waited for before the pages are unmapped
 * and handed back, so the peer can never reach memory we no longer own.
 */
#include <linux/slab.h>

#include "rpcr_frwr.h"
#include "rpcr_xdr.h"
#include "rpcr_trace.h"

/* pages an MR maps: 1 MiB of payload and its unaligned ends */
#define RPCR_FRWR_DEPTH		(SZ_1M / PAGE_SIZE + 2)

static void rpcr_frwr_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct rpcr_mr *m = container_of(wc->wr_cqe, struct rpcr_mr, inv_cqe);

	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR)
		trace_rpcr_wc_error(wc);
	m->inv_ok = wc->status == IB_WC_SUCCESS;
	complete(&m->inv_done);
}

/**
 * rpcr_frwr_create() - MRs for a connection
 * @ep: the connection
 * @nmrs: how many
 *
 * Return: the pool, or an ERR_PTR().
 */
struct rpcr_frwr *rpcr_frwr_create(struct rpcr_ep *ep, u32 nmrs)
{
	struct ib_device *dev = ep->id->device;
	struct rpcr_frwr *pool;
	u32 i;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return ERR_PTR(-ENOMEM);
	pool->ep = ep;
	pool->depth = min_t(u32, dev->attrs.max_fast_reg_page_list_len,
			    RPCR_FRWR_DEPTH);
	spin_lock_init(&pool->lock);
	INIT_LIST_HEAD(&pool->free);
	pool->mrs = kcalloc(nmrs, sizeof(*pool->mrs), GFP_KERNEL);
	if (!pool->mrs || !pool->depth)
		goto fail;
	for (i = 0; i < nmrs; i++, pool->nmrs++) {
		struct rpcr_mr *m = &pool->mrs[i];

		m->pool = pool;
		m->mr = ib_alloc_mr(ep->pd, IB_MR_TYPE_MEM_REG, pool->depth);
		if (IS_ERR(m->mr))
			goto fail;
		m->sg = kcalloc(pool->depth, sizeof(*m->sg), GFP_KERNEL);
		if (!m->sg) {
			ib_dereg_mr(m->mr);
			goto fail;
		}
		sg_init_table(m->sg, pool->depth);
		m->reg_cqe.done = rpcr_ep_unsignaled_done;
		m->inv_cqe.done = rpcr_frwr_inv_done;
		init_completion(&m->inv_done);
		list_add_tail(&m->node, &pool->free);
	}
	return pool;
fail:
	rpcr_frwr_destroy(pool);
	return ERR_PTR(-ENOMEM);
}

/**
 * rpcr_frwr_destroy() - free a connection's MRs
 * @pool: from rpcr_frwr_create()
 *
 * The connection's QP must be drained: no work request of the pool is
 * pending. MRs still on a call's list are taken off it.
 */
void rpcr_frwr_destroy(struct rpcr_frwr *pool)
{
	struct ib_device *dev = pool->ep->id->device;
	u32 i;

	for (i = 0; i < pool->nmrs; i++) {
		struct rpcr_mr *m = &pool->mrs[i];

		list_del(&m->node);
		if (m->nents)
			ib_dma_unmap_sg(dev, m->sg, m->nents, m->dir);
		ib_dereg_mr(m->mr);
		kfree(m->sg);
	}
	kfree(pool->mrs);
	kfree(pool);
}

static struct rpcr_mr *rpcr_frwr_get(struct rpcr_frwr *pool)
{
	struct rpcr_mr *m;

	spin_lock(&pool->lock);
	m = list_first_entry_or_null(&pool->free, struct rpcr_mr, node);
	if (m)
		list_del_init(&m->node);
	spin_unlock(&pool->lock);
	return m;
}

/* an MR back to the pool, unless its registration may still be valid:
 * registering it again would fail; the pool's end frees it
 */
static void rpcr_frwr_put(struct rpcr_mr *m)
{
	struct rpcr_frwr *pool = m->pool;

	if (m->nents)
		ib_dma_unmap_sg(pool->ep->id->device, m->sg, m->nents, m->dir);
	m->nents = 0;
	if (m->valid) {
		trace_rpcr_mr_orphan(m->seg.handle, m->seg.length,
				     m->seg.offset, 0);
		return;
	}
	spin_lock(&pool->lock);
	list_add(&m->node, &pool->free);
	spin_unlock(&pool->lock);
}

/* fill @m with pieces while they are page-contiguous, @max of them at
 * most; the piece that did not fit is left in @pg/@off/@len for the
 * next MR
 */
static int rpcr_frwr_fill(struct rpcr_mr *m, struct rpcr_xdr_walk *w,
			  u32 max, struct page **pg, u32 *off, u32 *len,
			  bool *more)
{
	u32 n = 0;

	/* the table was set up once; an entry may still end the last use */
	do {
		if (n && (*off || m->sg[n - 1].offset + m->sg[n - 1].length !=
			  PAGE_SIZE))
			break;
		sg_unmark_end(&m->sg[n]);
		sg_set_page(&m->sg[n++], *pg, *len, *off);
		*more = rpcr_xdr_next(w, pg, off, len);
	} while (*more && n < max);
	sg_mark_end(&m->sg[n - 1]);
	return n;
}

static int rpcr_frwr_reg(struct rpcr_mr *m, int n, bool remote_write,
			 struct rpcr_frwr_chain *chain)
{
	struct ib_device *dev = m->pool->ep->id->device;
	int mapped;

	m->dir = remote_write ? DMA_FROM_DEVICE : DMA_TO_DEVICE;
	m->nents = ib_dma_map_sg(dev, m->sg, n, m->dir);
	if (!m->nents)
		return -EIO;
	mapped = ib_map_mr_sg(m->mr, m->sg, m->nents, NULL, PAGE_SIZE);
	if (mapped != m->nents)
		return -EIO;
	ib_update_fast_reg_key(m->mr, ib_inc_rkey(m->mr->rkey));

	memset(&m->reg, 0, sizeof(m->reg));
	m->reg.wr.opcode = IB_WR_REG_MR;
	m->reg.wr.wr_cqe = &m->reg_cqe;
	m->reg.mr = m->mr;
	m->reg.key = m->mr->rkey;
	m->reg.access = remote_write ?
			IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE :
			IB_ACCESS_REMOTE_READ;
	m->valid = true;
	if (chain->last)
		chain->last->next = &m->reg.wr;
	else
		chain->first = &m->reg.wr;
	chain->last = &m->reg.wr;

	m->seg.handle = m->mr->rkey;
	m->seg.length = m->mr->length;
	m->seg.offset = m->mr->iova;
	trace_rpcr_mr_reg(m->seg.handle, m->seg.length, m->seg.offset,
			  m->nents);
	return 0;
}

/**
 * rpcr_frwr_map() - register a range of an xdr_buf as RDMA segments
 * @pool: the connection's MRs
 * @xdr: the buffer
 * @offset: where the range starts
 * @len: its bytes
 * @remote_write: the peer writes the range (else it reads it)
 * @mrs: the MRs taken are added to this list
 * @chain: their REG_MR work requests are chained here, to be posted
 *	ahead of the Send that advertises them
 * @segs: the segments, in order
 * @maxsegs: room in @segs
 * @seg_max: the most bytes one segment may have (a version 2 peer's
 *	Maximum RDMA Segment Size, draft §5.2.3), U32_MAX for no limit:
 *	a segment maps that many bytes of pages at most; under a page,
 *	only a range no longer than it is mapped
 *
 * On failure the MRs already added to @mrs stay there, unposted: give
 * them back with rpcr_frwr_release() and an @inv_rkey of ~0, which
 * skips their invalidation.
 *
 * Return: the number of segments, -EAGAIN when the pool is empty,
 * -EMSGSIZE past @maxsegs or @seg_max, -EIO when a mapping fails.
 */
int rpcr_frwr_map(struct rpcr_frwr *pool, const struct xdr_buf *xdr,
		  u32 offset, u32 len, bool remote_write,
		  struct list_head *mrs, struct rpcr_frwr_chain *chain,
		  struct rpcr_seg *segs, u32 maxsegs, u32 seg_max)
{
	struct rpcr_xdr_walk w = { xdr, offset, offset + len };
	u32 pages = clamp_t(u32, seg_max >> PAGE_SHIFT, 1, pool->depth);
	struct page *pg;
	u32 off, plen, nsegs = 0;
	bool more;
	int n, rc;

	/* a page of a segment may be too much: only a range that small */
	if (seg_max < PAGE_SIZE && len > seg_max)
		return -EMSGSIZE;
	more = rpcr_xdr_next(&w, &pg, &off, &plen);
	while (more) {
		struct rpcr_mr *m;

		if (nsegs == maxsegs)
			return -EMSGSIZE;
		m = rpcr_frwr_get(pool);
		if (!m)
			return -EAGAIN;
		list_add_tail(&m->node, mrs);
		n = rpcr_frwr_fill(m, &w, pages, &pg, &off, &plen, &more);
		rc = rpcr_frwr_reg(m, n, remote_write, chain);
		if (rc)
			return rc;
		segs[nsegs++] = m->seg;
	}
	return nsegs;
}

/**
 * rpcr_frwr_release() - end the registrations of a call and give them back
 * @mrs: the call's MRs; empty on return
 * @inv_rkey: the handle the peer invalidated already (0: none); ~0 for
 *	MRs whose registration was never posted
 *
 * Sleeps until the invalidations completed: after it, the peer can no
 * longer reach the memory.
 *
 * Return: the LOCAL_INVs it posted, for the MRs the peer had not
 * invalidated.
 */
u32 rpcr_frwr_release(struct list_head *mrs, u32 inv_rkey)
{
	struct ib_send_wr *first = NULL, **prev = &first;
	struct rpcr_mr *m, *tmp, *last = NULL;
	u32 ninv = 0;

	list_for_each_entry(m, mrs, node) {
		if (inv_rkey == ~0U) {
			m->valid = false;
			continue;
		}
		if (inv_rkey && m->mr->rkey == inv_rkey) {
			m->valid = false;
			trace_rpcr_mr_remote_inv(m->seg.handle, m->seg.length,
						 m->seg.offset, m->nents);
			continue;
		}
		memset(&m->inv, 0, sizeof(m->inv));
		m->inv.opcode = IB_WR_LOCAL_INV;
		m->inv.wr_cqe = &m->inv_cqe;
		m->inv.ex.invalidate_rkey = m->mr->rkey;
		trace_rpcr_mr_inv(m->seg.handle, m->seg.length, m->seg.offset,
				  m->nents);
		*prev = &m->inv;
		prev = &m->inv.next;
		last = m;
		ninv++;
	}
	if (last) {
		struct rpcr_ep *ep = last->pool->ep;

		last->inv.send_flags = IB_SEND_SIGNALED;
		last->inv_ok = false;
		reinit_completion(&last->inv_done);
		if (!ib_post_send(ep->id->qp, first, NULL)) {
			rpcr_ep_wait_wr(ep, &last->inv_done);
			/* in order on the send queue: all went, or none */
			list_for_each_entry(m, mrs, node) {
				if (last->inv_ok)
					m->valid = false;
			}
		} else {
			/* the registrations stay valid while the QP
			 * lives: end the connection, which ends them
			 */
			trace_rpcr_post_error(ep->id, -EIO);
			rpcr_ep_disconnect(ep);
			ninv = 0;
		}
	}
	list_for_each_entry_safe(m, tmp, mrs, node) {
		list_del(&m->node);
		rpcr_frwr_put(m);
	}
	return ninv;
}
