/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcr_clnt: the client side of the transport, the Requester of RFC
 * 8166: an rpc_xprt whose calls go out as RPC-over-RDMA messages on an
 * rpcr_ep connection.
 */
#ifndef _RPCR_CLNT_H
#define _RPCR_CLNT_H

#include <linux/rwsem.h>
#include <linux/sunrpc/xprt.h>
#include <linux/workqueue.h>

#include "rpcr_ep.h"
#include "rpcr_frwr.h"
#include "rpcr_proc.h"
#include "rpcr_props.h"
#include "rpcr_wire2.h"

/* backward calls the server may have outstanding (RFC 8167 §3.2), and
 * the largest Send of one or of its reply: the smallest any peer takes
 */
#define RPCR_BC_SLOTS	8
#define RPCR_BC_INLINE	RPCR_V1_INLINE_DEFAULT

/**
 * struct rpcr_more_sends - the Sends after the first of a continued call
 * @n: how many, RPCR_MORE_SENDS_MAX - 1 at most
 * @sb: their buffers, built
 * @len: the bytes of each
 */
struct rpcr_more_sends {
	u32			n;
	struct rpcr_sbuf	*sb[RPCR_MORE_SENDS_MAX - 1];
	u32			len[RPCR_MORE_SENDS_MAX - 1];
};

/* the call buffers a transport keeps: a page, which the buffers of the
 * most frequent calls fit (NFS READ, WRITE, GETATTR, ...)
 */
#define RPCR_REQ_SPARE_SIZE	PAGE_SIZE

/* Counters of a transport, printed in /proc/self/mountstats in the
 * order of Linux's xprtrdma (the columns nfs-utils' mountstats reads)
 */
enum rpcr_stat {
	RPCR_ST_READ_CHUNKS,
	RPCR_ST_WRITE_CHUNKS,
	RPCR_ST_REPLY_CHUNKS,
	RPCR_ST_RDMA_CALL_BYTES,	/* call bytes the server pulled */
	RPCR_ST_RDMA_REPLY_BYTES,	/* reply bytes the server pushed */
	RPCR_ST_PULLUP_BYTES,		/* call bytes copied into a Send */
	RPCR_ST_FIXUP_BYTES,		/* reply bytes copied out of one */
	RPCR_ST_HARDWAY,		/* registrations made the slow way */
	RPCR_ST_MARSHAL_FAIL,
	RPCR_ST_BAD_REPLY,
	RPCR_ST_NOMSG_CALLS,
	RPCR_ST_MR_RECYCLED,
	RPCR_ST_MR_ORPHANED,
	RPCR_ST_MR_ALLOC,
	RPCR_ST_LOCAL_INV,		/* replies after which we invalidated */
	RPCR_ST_SBUF_EMPTY,
	RPCR_ST_NR
};

/**
 * struct rpcr_xprt - a client transport
 * @xprt: the generic transport; first, sunrpc allocates us with it
 * @ep_sem: held for writing while @ep is replaced or torn down, for
 *	reading by whoever uses it outside XPRT_LOCKED
 * @ep: the connection, NULL while there is none
 * @frwr: its registrations
 * @connect_work: sets up @ep, from ->connect
 * @connect_error: the last attempt's outcome; its failure delays the next
 * @max_reqs: calls in flight at most, and the credits asked for
 * @inline_read: the largest reply we take inline (sysctl, at connect)
 * @inline_write: the largest call we send inline (sysctl, at connect)
 * @vers: the RPC-over-RDMA version calls go in on this connection: at
 *	connect the lower of @vers_peer and rdma_max_version; lowered by
 *	the reply handler on ERR_VERS, read under XPRT_LOCKED
 * @vers_peer: the highest version the server takes: 2 until it answers
 *	ERR_VERS, then its highest, for the transport's life (draft
 *	§4.3.3: no negotiation loop on the next connection)
 * @no_more_reply: the server answered ERR_REPLY_RESOURCE to a call that
 *	granted its reply several Sends: no call invites that again on
 *	this transport (draft §6.3.2.2 leaves continuing to the responder)
 * @vers_done: the connection's first valid answer came: until then
 *	a call in version 2 goes alone and fits version 1's inline
 *	default (§4.3.3); cleared at connect
 * @proc: its line in /proc/net/rpcr
 * @props: the server's transport properties on this connection (version
 *	2), reset at connect before @ep is set
 * @shdr: the header of the call being sent, under XPRT_LOCKED
 * @more: the Sends that continue it, under XPRT_LOCKED
 * @held: credits of calls released before the continued reply they
 *	invited came, whose Sends may still take our receives: kept in
 *	the window (@xprt.cong) until the connection ends, under
 *	@xprt.transport_lock
 * @segs_left: the RDMA segments its header may still carry: the
 *	server's Maximum RDMA Segment Count in version 2 (draft §5.2.4),
 *	@seg_max: the bytes of one, its Maximum RDMA Segment Size
 *	(§5.2.3); both under XPRT_LOCKED
 * @rhdr: the header of the reply being handled; the receive CQ handles
 *	one message at a time
 * @spare_lock: protects @spare and @nspare
 * @spare: call buffers of RPCR_REQ_SPARE_SIZE kept for the next calls
 *	(struct rpcr_req, on their @mrs)
 * @nspare: how many, @max_reqs at most
 * @stats: enum rpcr_stat counters
 * @remote_inv: replies that came With Invalidate of a handle of their
 *	call (RFC 8797, draft §6.3.3.2): not among @stats, whose columns
 *	are Linux's
 * @post_lock: held while a continued call's Sends, or a probe, are
 *	posted: the server joins every message that follows one with
 *	F_MORE to it (draft §6.3.2.2)
 * @probed: when a credit refresh last probed the connection (draft
 *	§4.3.1.2), under @xprt.transport_lock
 * @probes: credit refreshes posted as probes (not among @stats either)
 */
struct rpcr_xprt {
	struct rpc_xprt		xprt;
	struct rw_semaphore	ep_sem;
	struct rpcr_ep		*ep;
	struct rpcr_frwr	*frwr;
	struct delayed_work	connect_work;
	int			connect_error;
	u32			max_reqs;
	u32			inline_read;
	u32			inline_write;
	u32			vers;
	u32			vers_peer;
	bool			no_more_reply;
	bool			vers_done;
	struct rpcr_proc_entry	proc;
	struct rpcr_props	props;
	struct rpcr2_hdr	shdr;
	struct rpcr_more_sends	more;
	u32			held;
	u32			segs_left;
	u32			seg_max;
	struct rpcr2_hdr	rhdr;
	spinlock_t		spare_lock;	/* @spare, @nspare */
	struct list_head	spare;
	u32			nspare;
	atomic_long_t		stats[RPCR_ST_NR];
	atomic_long_t		remote_inv;
	spinlock_t		post_lock;	/* posting a message's Sends */
	unsigned long		probed;
	atomic_long_t		probes;
};

/**
 * struct rpcr_req - a call's transport state, in front of its buffers
 * @mrs: the registrations its chunks offer the server; the call's task
 *	owns the list, the reply handler while it holds the call pinned,
 *	and the connection's teardown under @ep_sem. While the buffer is
 *	a spare of the transport, its node on @spare
 * @write: the Write chunk offered, if @nwrite
 * @nwrite: 1 with a Write chunk, else 0
 * @reply: the Reply chunk offered, if @has_reply
 * @has_reply: a Reply chunk was offered
 * @vers: the version its header was sent in
 * @resend: the server answered ERR_VERS, or ERR_REPLY_RESOURCE to a
 *	continued reply it was granted: the call goes again, in the version
 *	named or with a Reply chunk, on the same connection (its credit
 *	came back); set by the reply handler, cleared once it is sent
 * @spare: the buffer is of RPCR_REQ_SPARE_SIZE bytes, kept when freed
 * @borrowed: credits its continued Sends, and those of the continued
 *	reply it invites, took beyond its own, under the transport's
 *	transport_lock, until it is released
 * @reply_sends: the Sends its reply may take (draft §6.3.2.2): 1, more
 *	when the call invites a continued reply instead of offering a
 *	Reply chunk
 * @more_at: bytes of a continued reply received so far, into the
 *	receive buffer, @more_got: in how many Sends, @more_bad: one of
 *	them could not be taken. Set when the call is built; then the
 *	reply handler's, while it holds the call pinned
 * @buf: rq_buffer (the call) and rq_rbuffer (the reply)
 */
struct rpcr_req {
	struct list_head	mrs;
	struct rpcr_write_chunk	write;
	u32			nwrite;
	struct rpcr_write_chunk	reply;
	bool			has_reply;
	u32			vers;
	bool			resend;
	bool			spare;
	u32			borrowed;
	u32			reply_sends;
	u32			more_at;
	u32			more_got;
	bool			more_bad;
	u8			buf[] __aligned(8);
};

static inline struct rpcr_req *rpcr_req(const struct rpc_rqst *rqst)
{
	return container_of(rqst->rq_buffer, struct rpcr_req, buf);
}

static inline struct rpcr_xprt *rpcr_xprt(struct rpc_xprt *xprt)
{
	return container_of(xprt, struct rpcr_xprt, xprt);
}

static inline void rpcr_stat_add(struct rpcr_xprt *rx, enum rpcr_stat s,
				 long n)
{
	atomic_long_add(n, &rx->stats[s]);
}

/* Draft §4.3.1.1, our reading of it: the high half of a version 2
 * message's credit word is the receives we keep posted for the server's
 * messages (replies and backward calls), the low half those the message
 * newly grants: a call grants its reply's, one receive, or @granted when
 * it invites a continued reply; any other message one, never 0.
 */
static inline u32 rpcr_clnt_credit2(const struct rpcr_xprt *rx, u32 granted)
{
	return rpcr2_credit(granted, rx->max_reqs + RPCR_BC_SLOTS);
}

int rpcr_call_marshal(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
		      struct rpcr_sbuf *sb, struct rpcr_frwr_chain *chain);
bool rpcr_call_unregister(struct rpcr_req *req, u32 inv_rkey);
void rpcr_call_credits_return(struct rpcr_xprt *rx, struct rpcr_req *req);
void rpcr_reply_recv(void *owner, const u8 *msg, u32 len, u32 inv_rkey);

int rpcr_bc_setup(struct rpc_xprt *xprt, unsigned int min_reqs);
void rpcr_bc_destroy(struct rpc_xprt *xprt, unsigned int max_reqs);
size_t rpcr_bc_maxpayload(struct rpc_xprt *xprt);
unsigned int rpcr_bc_num_slots(struct rpc_xprt *xprt);
void rpcr_bc_free_rqst(struct rpc_rqst *rqst);
bool rpcr_bc_is_call(const struct rpcr_hdr *h, const u8 *msg, u32 len);
void rpcr_bc_recv_call(struct rpcr_xprt *rx, const u8 *msg, u32 len);
int rpcr_bc_marshal(struct rpcr_xprt *rx, struct rpc_rqst *rqst,
		    struct rpcr_sbuf *sb);

int rpcr_clnt_init(void);
void rpcr_clnt_exit(void);

#endif /* _RPCR_CLNT_H */
