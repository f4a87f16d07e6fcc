/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcr_frwr: memory a peer may read or write, registered with fast
 * registration work requests (FRWR) posted ahead of the Send that
 * advertises it, and invalidated before the memory is used again
 * (RFC 8166 §3.4.2: a chunk's RDMA segments; RFC 5040 §2.1: STags).
 */
#ifndef _RPCR_FRWR_H
#define _RPCR_FRWR_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/sunrpc/xdr.h>
#include <rdma/ib_verbs.h>

#include "rpcr_ep.h"
#include "rpcr_wire.h"

/**
 * struct rpcr_mr - one registration: one RDMA segment
 * @pool: owner
 * @mr: the verbs MR
 * @sg: its pages
 * @nents: entries of @sg mapped; 0 while the MR is free
 * @dir: their DMA direction
 * @reg: the registration work request
 * @inv: the local invalidation work request
 * @reg_cqe: @reg's completion (seen only when it fails or is flushed)
 * @inv_cqe: @inv's completion
 * @inv_done: completed by @inv_cqe when @inv was signaled
 * @inv_ok: @inv completed without error
 * @valid: its registration may be valid: posted, not known invalidated
 * @node: on the pool's free list, or on the list of the call using it
 * @seg: what the peer is told: handle, length, offset
 */
struct rpcr_mr {
	struct rpcr_frwr	*pool;
	struct ib_mr		*mr;
	struct scatterlist	*sg;
	int			nents;
	enum dma_data_direction	dir;
	struct ib_reg_wr	reg;
	struct ib_send_wr	inv;
	struct ib_cqe		reg_cqe;
	struct ib_cqe		inv_cqe;
	struct completion	inv_done;
	bool			inv_ok;
	bool			valid;
	struct list_head	node;
	struct rpcr_seg		seg;
};

/**
 * struct rpcr_frwr - the registrations of one connection
 * @ep: the connection; its PD and QP
 * @depth: pages one MR maps at most
 * @lock: protects @free
 * @free: MRs ready for use
 * @mrs: all of them
 * @nmrs: how many
 */
struct rpcr_frwr {
	struct rpcr_ep		*ep;
	u32			depth;
	spinlock_t		lock;	/* @free */
	struct list_head	free;
	struct rpcr_mr		*mrs;
	u32			nmrs;
};

/**
 * struct rpcr_frwr_chain - registration work requests to post before a
 * Send, in order
 * @first: the first, NULL for none
 * @last: the last
 */
struct rpcr_frwr_chain {
	struct ib_send_wr	*first;
	struct ib_send_wr	*last;
};

struct rpcr_frwr *rpcr_frwr_create(struct rpcr_ep *ep, u32 nmrs);
void rpcr_frwr_destroy(struct rpcr_frwr *pool);
int rpcr_frwr_map(struct rpcr_frwr *pool, const struct xdr_buf *xdr,
		  u32 offset, u32 len, bool remote_write,
		  struct list_head *mrs, struct rpcr_frwr_chain *chain,
		  struct rpcr_seg *segs, u32 maxsegs, u32 seg_max);
u32 rpcr_frwr_release(struct list_head *mrs, u32 inv_rkey);

#endif /* _RPCR_FRWR_H */
