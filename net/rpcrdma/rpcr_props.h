/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcr_props: the transport properties of a version 2 connection (draft
 * of 17 November 2019, §5 and §6.4.4): ours sent in an RDMA2_CONNPROP
 * once the connection speaks version 2, the peer's taken from its own.
 */
#ifndef _RPCR_PROPS_H
#define _RPCR_PROPS_H

#include <linux/socket.h>

#include "rpcr_ep.h"
#include "rpcr_wire2.h"

/* the longest Host Auth Message we send, and the most of a peer's kept */
#define RPCR_HOSTAUTH_MAX	64

/**
 * struct rpcr_props - what the peer of a connection said of itself
 * @lock: protects the rest; a peer may send RDMA2_CONNPROP again
 * @peer: its properties as they hold (rpcr2_props_effective()): the
 *	defaults until it sends some; @peer.hostauth points to @hostauth
 * @hostauth: the first RPCR_HOSTAUTH_MAX bytes of its Host Auth Message
 *	(draft §5.2.6), of @peer.hostauth_len in all
 * @received: RDMA2_CONNPROP messages taken from the peer
 */
struct rpcr_props {
	spinlock_t		lock;	/* @peer, @hostauth, @received */
	struct rpcr2_props	peer;
	u8			hostauth[RPCR_HOSTAUTH_MAX];
	u32			received;
};

void rpcr_props_hostauth(struct rpcr2_props *ours, u8 *buf);

void rpcr_props_init(struct rpcr_props *pp);
void rpcr_props_reset(struct rpcr_props *pp);
void rpcr_props_limits(struct rpcr_props *pp, u32 *rcsiz, u32 *rssiz);
int rpcr_props_send(struct rpcr_ep *ep, const struct sockaddr *peer,
		    u32 credit, const struct rpcr2_props *ours);
void rpcr_props_recv(struct rpcr_props *pp, struct rpcr_ep *ep,
		     const struct sockaddr *peer,
		     const struct rpcr2_props *theirs);

#endif /* _RPCR_PROPS_H */
