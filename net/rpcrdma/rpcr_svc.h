/* SPDX-License-Identifier: GPL-2.0 */
/* rpcr_svc: the server side, the svc_xprt class "rdma" */
#ifndef _RPCR_SVC_H
#define _RPCR_SVC_H

#include <linux/mutex.h>
#include <linux/sunrpc/svc_xprt.h>

#include "rpcr_ep.h"
#include "rpcr_proc.h"
#include "rpcr_props.h"

struct rpcr_svc_call;

/**
 * struct rpcr_svc_xprt - a listener or a connection
 * @xpt: what the svc layer knows; first
 * @listener: a listener's rdma_cm listener
 * @ep: a connection's endpoint, freed with the transport (->xpo_free)
 * @credits: a connection's credits, the calls its client may have in
 *	flight (RFC 8166 §3.3.1); fixed when it is accepted
 * @inline_size: the size of its send and receive buffers, the largest
 *	call taken and reply sent inline (§3.3.2)
 * @vers: the RPC-over-RDMA version of the connection: 0 until a call
 *	in one we take arrives, then that one's for good (draft §4.3.3);
 *	set once (cmpxchg) by whichever thread takes that call
 * @proc: a connection's line in /proc/net/rpcr, listed once accepted
 * @props: the client's transport properties (version 2, draft §5.2)
 * @lock: protects @calls, @ncalls, @partial, @spare and @nspare
 * @calls: messages received, not yet taken by a thread
 * @ncalls: how many, each message of a continued one counted
 * @partial: the first message of a continued one whose last has not
 *	come, the others on its list (draft §6.3.2.2); NULL when none
 * @spare: memory of calls whose replies went, kept for the next ones
 * @nspare: how many, @credits at most
 * @seq_mutex: held by the thread building a continued reply, which
 *	holds several send buffers until it posts them all: one at a
 *	time, so that two never wait for each other's buffers
 */
struct rpcr_svc_xprt {
	struct svc_xprt		xpt;
	struct rpcr_listener	*listener;
	struct rpcr_ep		*ep;
	u32			credits;
	u32			inline_size;
	u32			vers;
	struct rpcr_proc_entry	proc;
	struct rpcr_props	props;
	spinlock_t		lock;	/* @calls, @ncalls, @partial, @spare... */
	struct list_head	calls;
	u32			ncalls;
	struct rpcr_svc_call	*partial;
	struct list_head	spare;
	u32			nspare;
	struct mutex		seq_mutex;	/* one continued reply at a time */
};

int rpcr_svc_init(void);
void rpcr_svc_exit(void);
struct rpcr_sbuf *rpcr_svc_sbuf(struct rpcr_svc_xprt *sx);

int rpcr_svc_bc_init(void);
void rpcr_svc_bc_exit(void);
bool rpcr_svc_bc_reply(struct rpcr_svc_xprt *sx, const struct rpcr_hdr *h,
		       const u8 *msg, u32 len);

#endif /* _RPCR_SVC_H */
