// SPDX-License-Identifier: GPL-2.0
/*
 * rpcr_props: transport properties exchanged with RDMA2_CONNPROP (draft
 * of 17 November 2019, §5.2, §6.4.4).
 *
 * Each side sends its properties once the connection speaks version 2:
 * the server when the first call of version 2 arrives, in front of its
 * reply; the client when the first answer to it does, before it sends
 * a second call. Neither is answered. Each takes one of the receives
 * its peer keeps beyond the credits it granted (§4.3.1.2), and is far
 * below version 1's inline default that every receive holds (§6.4.4).
 *
 * What a peer says of its buffers bounds the Sends made to it: its
 * Receive Buffer Size is the largest message we send it inline, its
 * Maximum Send Size the largest it sends us, in place of RFC 8797's
 * private data (or of the default of §4.3.2 without it). The RDMA
 * segment limits, Reverse Request Support and any Host Auth Message
 * are kept and traced. Our client's calls carry no more segments than
 * the server's count (§5.2.4), none larger than its size (§5.2.3). A
 * Host Auth Message (§5.2.6) is carried both ways, ours from
 * sunrpc.rdma_hostauth, the peer's shown in /proc/net/rpcr; what it
 * proves is left to the user, no connection is refused for it.
 */
#include <linux/spinlock.h>

#include "rpcr_props.h"
#include "rpcr_sysctl.h"
#include "rpcr_trace.h"

/**
 * rpcr_props_reset() - a new connection's peer, before it says anything
 * @pp: the record, set up by rpcr_props_init()
 *
 * Every property has its default (§5.2) until the peer sends its own.
 */
void rpcr_props_reset(struct rpcr_props *pp)
{
	spin_lock(&pp->lock);
	rpcr2_props_effective(NULL, &pp->peer);
	pp->received = 0;
	spin_unlock(&pp->lock);
}

/**
 * rpcr_props_init() - set up the record of a transport's peer
 * @pp: to set up, once; rpcr_props_reset() for each new connection
 */
void rpcr_props_init(struct rpcr_props *pp)
{
	spin_lock_init(&pp->lock);
	rpcr_props_reset(pp);
}

/**
 * rpcr_props_hostauth() - add our Host Auth Message to properties to send
 * @ours: the properties
 * @buf: RPCR_HOSTAUTH_MAX bytes for it, which @ours then points to
 *
 * None is added while sunrpc.rdma_hostauth is empty.
 */
void rpcr_props_hostauth(struct rpcr2_props *ours, u8 *buf)
{
	u32 n = rpcr_hostauth_get(buf);

	if (!n)
		return;
	ours->present |= BIT(RPCR2_PROP_HOSTAUTH);
	ours->hostauth = buf;
	ours->hostauth_len = n;
}

/**
 * rpcr_props_limits() - the peer's limits on the segments sent to it
 * @pp: the connection's record of its properties
 * @rcsiz: set to its Maximum RDMA Segment Count (draft §5.2.4)
 * @rssiz: set to its Maximum RDMA Segment Size (§5.2.3)
 *
 * Each is the default until the peer sends its own.
 */
void rpcr_props_limits(struct rpcr_props *pp, u32 *rcsiz, u32 *rssiz)
{
	spin_lock(&pp->lock);
	*rcsiz = pp->peer.rcsiz;
	*rssiz = pp->peer.rssiz;
	spin_unlock(&pp->lock);
}

/**
 * rpcr_props_send() - send our properties to a connection's peer
 * @ep: the connection, which speaks version 2
 * @peer: its address, for the trace
 * @credit: the credit word our messages carry (§4.3.1.1)
 * @ours: the properties to send
 *
 * Takes a send buffer if one is free and does not wait for one: a peer
 * that never hears our properties keeps the defaults, which hold anyway.
 * Context: process, may not sleep.
 *
 * Return: 0, or a negative errno (also traced).
 */
int rpcr_props_send(struct rpcr_ep *ep, const struct sockaddr *peer,
		    u32 credit, const struct rpcr2_props *ours)
{
	struct rpcr2_props eff;
	struct rpcr_sbuf *sb;
	int len;

	sb = rpcr_ep_sbuf_get(ep);
	if (!sb) {
		len = -ENOBUFS;
		goto fail;
	}
	/* §6.4.4: within the receive buffers of any peer */
	len = rpcr2_connprop_encode(0, credit, ours, sb->buf,
				    RPCR_V1_INLINE_DEFAULT);
	if (len < 0) {
		rpcr_ep_sbuf_put(sb);
		goto fail;
	}
	/* as the peer will hold them: the defaults for those left out */
	rpcr2_props_effective(ours, &eff);
	trace_rpcr_connprop_send(peer, &eff);
	len = rpcr_ep_send(ep, sb, len, 0, NULL, NULL);
	if (!len)
		return 0;
fail:
	trace_rpcr_connprop_error(peer, len);
	return len;
}

/* the largest Send one side takes or makes, as the other may count on:
 * no less than version 1's default, which every receive holds
 */
static u32 rpcr_props_size(u32 size)
{
	return max_t(u32, size, RPCR_V1_INLINE_DEFAULT);
}

/**
 * rpcr_props_recv() - take the properties a connection's peer sent
 * @pp: the connection's record of them
 * @ep: the connection
 * @peer: the peer's address, for the trace
 * @theirs: the RDMA2_CONNPROP's properties, decoded
 *
 * Properties it left out have their defaults (§6.4.4), unknown ones were
 * skipped (§5.1). Its Receive Buffer Size and Maximum Send Size, when it
 * sent them, become the connection's inline limits each way (§4.3.2,
 * §5.2.1, §5.2.2); without, those of RFC 8797's private data stay.
 */
void rpcr_props_recv(struct rpcr_props *pp, struct rpcr_ep *ep,
		     const struct sockaddr *peer,
		     const struct rpcr2_props *theirs)
{
	struct rpcr2_props eff;

	rpcr2_props_effective(theirs, &eff);
	trace_rpcr_connprop_recv(peer, &eff);
	spin_lock(&pp->lock);
	if (eff.hostauth)
		memcpy(pp->hostauth, eff.hostauth,
		       min_t(u32, eff.hostauth_len, RPCR_HOSTAUTH_MAX));
	eff.hostauth = pp->hostauth;
	pp->peer = eff;
	pp->received++;
	spin_unlock(&pp->lock);
	if (eff.present & BIT(RPCR2_PROP_RBSIZ))
		WRITE_ONCE(ep->peer_recv, rpcr_props_size(eff.rbsiz));
	if (eff.present & BIT(RPCR2_PROP_SBSIZ))
		WRITE_ONCE(ep->peer_send, rpcr_props_size(eff.sbsiz));
}
