/* SPDX-License-Identifier: GPL-2.0 */
/* rpcr_svc: the server side, the svc_xprt class "rdma" */
#ifndef _RPCR_SVC_H
#define _RPCR_SVC_H

#include <linux/sunrpc/svc_xprt.h>

#include "rpcr_ep.h"

/* credits granted: calls a client may have in flight (§3.3.1) */
#define RPCR_SVC_CREDITS	64
/* Send and receive buffers: the v1 default inline size (§3.3.2) */
#define RPCR_SVC_INLINE		4096

/**
 * struct rpcr_svc_xprt - a listener or a connection
 * @xpt: what the svc layer knows; first
 * @listener: a listener's rdma_cm listener
 * @ep: a connection's endpoint, freed with the transport (->xpo_free)
 * @lock: protects @calls and @ncalls
 * @calls: messages received, not yet taken by a thread
 * @ncalls: how many
 */
struct rpcr_svc_xprt {
	struct svc_xprt		xpt;
	struct rpcr_listener	*listener;
	struct rpcr_ep		*ep;
	spinlock_t		lock;	/* @calls, @ncalls */
	struct list_head	calls;
	u32			ncalls;
};

int rpcr_svc_init(void);
void rpcr_svc_exit(void);
struct rpcr_sbuf *rpcr_svc_sbuf(struct rpcr_svc_xprt *sx);

int rpcr_svc_bc_init(void);
void rpcr_svc_bc_exit(void);
bool rpcr_svc_bc_reply(struct rpcr_svc_xprt *sx, const struct rpcr_hdr *h,
		       const u8 *msg, u32 len);

#endif /* _RPCR_SVC_H */
