/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcr_ep: one RDMA connection of the transport, the layer under both
 * the client and the server side: the rdma_cm id, protection domain,
 * completion queues and RC queue pair, a ring of receive buffers kept
 * posted, and a pool of send buffers. It knows nothing of RPC: a
 * received message and the end of the connection are handed to the
 * owner through struct rpcr_ep_ops.
 */
#ifndef _RPCR_EP_H
#define _RPCR_EP_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <rdma/rw.h>

#include "rpcr_wire.h"

struct rpcr_ep;

/**
 * struct rpcr_ep_ops - what the owner of an endpoint is told
 * @recv: a Send of @len bytes arrived at @msg, valid until the call
 *	returns; @inv_rkey is the rkey the peer invalidated with it, 0 if
 *	none. Runs in process context (the receive CQ's work), one at a time
 * @down: the established connection is gone (disconnect, error
 *	completion, device removal); may run in any context but hard IRQ
 */
struct rpcr_ep_ops {
	void	(*recv)(void *owner, const u8 *msg, u32 len, u32 inv_rkey);
	void	(*down)(void *owner);
};

/**
 * struct rpcr_ep_cfg - what the owner asks of a new endpoint
 * @nrecv: receive buffers kept posted
 * @nsend: send buffers (each one Send outstanding at most)
 * @nsend_extra: more send work requests a Send may be chained behind
 *	(memory registrations)
 * @recv_size: bytes of each receive buffer, announced to the peer as the
 *	largest Send we take (RFC 8797)
 * @send_size: bytes of each send buffer, announced as the largest Send
 *	we make
 * @rdma_ctxs: RDMA Read and Write contexts (rdma_rw) outstanding at most
 * @ord: RDMA Reads an accepted connection has in flight at most, besides
 *	the peer's and the device's limits; 0 for no limit of its own
 */
struct rpcr_ep_cfg {
	u32	nrecv;
	u32	nsend;
	u32	nsend_extra;
	u32	recv_size;
	u32	send_size;
	u32	rdma_ctxs;
	u32	ord;
};

/**
 * struct rpcr_sbuf - a send buffer, mapped for the device
 * @cqe: completion of its Send
 * @wcqe: completion entry of the Writes in front of the Send, which
 *	are unsignaled: only a failure or a flush completes one
 * @ep: owner
 * @node: on the free list of @ep while not in use, on its @posted list
 *	from the post of its Send until the device is known to be done
 * @writes: RDMA Writes (struct rpcr_write) posted in front of the Send,
 *	released when it completes
 * @sq_wrs: SQ slots of @ep->sq_avail the Writes hold
 * @wr: its Send, @sge: its bytes, while it is posted
 * @buf: the bytes
 * @dma: their bus address
 */
struct rpcr_sbuf {
	struct ib_cqe		cqe;
	struct ib_cqe		wcqe;
	struct rpcr_ep		*ep;
	struct list_head	node;
	struct list_head	writes;
	u32			sq_wrs;
	struct ib_send_wr	wr;
	struct ib_sge		sge;
	u8			*buf;
	u64			dma;
};

/**
 * struct rpcr_write - an RDMA Write to go in front of a Send
 * @node: on the caller's list, then on the send buffer's @writes
 * @ctx: the rdma_rw context, mapping @sg
 * @nwr: its work requests (SQ slots)
 * @nents: entries of @sg
 * @sg: our memory; a reference is held on each page until it is released
 */
struct rpcr_write {
	struct list_head	node;
	struct rdma_rw_ctx	ctx;
	u32			nwr;
	u32			nents;
	struct scatterlist	sg[];
};

/**
 * struct rpcr_rbuf - a receive buffer, kept posted
 * @cqe: completion of its Receive
 * @ep: owner
 * @buf: the bytes
 * @dma: their bus address
 */
struct rpcr_rbuf {
	struct ib_cqe	cqe;
	struct rpcr_ep	*ep;
	u8		*buf;
	u64		dma;
};

/**
 * struct rpcr_ep - an RDMA connection
 * @id: rdma_cm id; its QP is the connection's
 * @pd: protection domain of every buffer of the connection
 * @scq: send completions
 * @rcq: receive completions
 * @cfg: as asked for
 * @ops: the owner's handlers
 * @owner: their argument
 * @cm_done: completed by each step of connection setup
 * @cm_status: its outcome, 0 or a negative errno
 * @up: established and not yet seen going down; set and cleared only by
 *	the CM handler and rpcr_ep_destroy(), which the CM serialises
 * @drained: rpcr_ep_drain() began: no Send is posted any more
 * @passive: accepted, not connected
 * @peer_recv: largest Send the peer takes (RFC 8797; 1024 without)
 * @peer_send: largest Send the peer makes
 * @peer_inv: the peer welcomes Send With Invalidate
 * @lock: protects @drained, @free, @nfree, @posted, @unsignaled and
 *	@sq_avail; held across the post of a Send, so that @posted is in
 *	the order of the send queue. Taken in process context only (both
 *	CQs are polled from a workqueue), and without disabling bottom
 *	halves: the device's send tasklet runs after the post, not in it
 * @free: send buffers not in use
 * @nfree: how many
 * @posted: send buffers whose Send was posted (or whose chained post
 *	failed after its first Writes went out), oldest first: a completion
 *	releases its own buffer and every one in front of it, as an RC send
 *	queue completes in order; the drain releases the rest
 * @unsignaled: Sends posted unsignaled since the last signaled one
 * @batch: a Send in this many is signaled at least
 * @sq_max: SQ slots for RDMA Read and Write work requests (the Sends
 *	have one each of their own besides), bounded by the send CQ's room
 * @sq_avail: of those, the ones free
 * @sq_wait: woken when slots come back
 * @sbufs: every send buffer
 * @rbufs: every receive buffer
 */
struct rpcr_ep {
	struct rdma_cm_id		*id;
	struct ib_pd			*pd;
	struct ib_cq			*scq;
	struct ib_cq			*rcq;
	struct rpcr_ep_cfg		cfg;
	const struct rpcr_ep_ops	*ops;
	void				*owner;
	struct completion		cm_done;
	int				cm_status;
	bool				up;
	bool				drained;
	bool				passive;
	u32				peer_recv;
	u32				peer_send;
	bool				peer_inv;
	spinlock_t			lock;	/* see above */
	struct list_head		free;
	u32				nfree;
	struct list_head		posted;
	u32				unsignaled;
	u32				batch;
	u32				sq_max;
	u32				sq_avail;
	wait_queue_head_t		sq_wait;
	struct rpcr_sbuf		*sbufs;
	struct rpcr_rbuf		*rbufs;
};

/**
 * struct rpcr_listen_ops - what the owner of a listener is told
 * @request: a connection request is queued for rpcr_listen_next(); runs
 *	in the CM's context, must not sleep long
 */
struct rpcr_listen_ops {
	void	(*request)(void *owner);
};

/**
 * struct rpcr_listener - an rdma_cm id listening for connections
 * @id: the listening id
 * @ops: the owner's handlers
 * @owner: their argument
 * @lock: protects @requests
 * @requests: connection requests not yet accepted (struct rpcr_conn_req)
 */
struct rpcr_listener {
	struct rdma_cm_id		*id;
	const struct rpcr_listen_ops	*ops;
	void				*owner;
	spinlock_t			lock;	/* @requests */
	struct list_head		requests;
};

/**
 * struct rpcr_conn_req - a connection request waiting for its accept
 * @node: on the listener's list
 * @id: the new connection's id
 * @priv: the peer's private data (RFC 8797), if @priv_ok
 * @priv_ok: it had valid private data
 * @rd_atom: RDMA Reads the peer lets us have outstanding
 */
struct rpcr_conn_req {
	struct list_head	node;
	struct rdma_cm_id	*id;
	struct rpcr_cm_priv	priv;
	bool			priv_ok;
	u8			rd_atom;
};

struct rpcr_listener *rpcr_listen(struct net *net, struct sockaddr *addr,
				  const struct rpcr_listen_ops *ops,
				  void *owner);
void rpcr_listen_stop(struct rpcr_listener *l);
struct rpcr_conn_req *rpcr_listen_next(struct rpcr_listener *l);
bool rpcr_listen_pending(struct rpcr_listener *l);
void rpcr_conn_req_reject(struct rpcr_conn_req *req);
struct rpcr_ep *rpcr_ep_accept(struct rpcr_conn_req *req,
			       const struct rpcr_ep_cfg *cfg,
			       const struct rpcr_ep_ops *ops, void *owner);
int rpcr_ep_rw(struct rpcr_ep *ep, struct scatterlist *sg, u32 nents,
	       const struct rpcr_seg *seg, enum dma_data_direction dir);
int rpcr_ep_write_add(struct rpcr_ep *ep, struct list_head *writes,
		      const struct scatterlist *sg, u32 nents,
		      const struct rpcr_seg *seg);
void rpcr_ep_writes_free(struct rpcr_ep *ep, struct list_head *writes);

struct rpcr_ep *rpcr_ep_connect(struct net *net, const struct sockaddr *dst,
				const struct rpcr_ep_cfg *cfg,
				const struct rpcr_ep_ops *ops, void *owner);
void rpcr_ep_disconnect(struct rpcr_ep *ep);
void rpcr_ep_unsignaled_done(struct ib_cq *cq, struct ib_wc *wc);
void rpcr_ep_drain(struct rpcr_ep *ep);
void rpcr_ep_wait_wr(struct rpcr_ep *ep, struct completion *done);
void rpcr_ep_destroy(struct rpcr_ep *ep);
struct rpcr_sbuf *rpcr_ep_sbuf_get(struct rpcr_ep *ep);
void rpcr_ep_sbuf_put(struct rpcr_sbuf *sb);
int rpcr_ep_send_seq(struct rpcr_ep *ep, struct rpcr_sbuf **sbs,
		     const u32 *lens, u32 n, u32 inv_rkey);
int rpcr_ep_send(struct rpcr_ep *ep, struct rpcr_sbuf *sb, u32 len,
		 u32 inv_rkey, struct ib_send_wr *first, struct ib_send_wr *last);
int rpcr_ep_send_writes(struct rpcr_ep *ep, struct rpcr_sbuf *sb, u32 len,
			u32 inv_rkey, struct list_head *writes);

#endif /* _RPCR_EP_H */
