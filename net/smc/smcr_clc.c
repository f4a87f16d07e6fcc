// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the CLC handshake on the internal TCP socket (RFC 7609 §3.5.1).
 *
 * The client sends an SMC Proposal as the first bytes of the connection,
 * the server answers with an Accept or a Decline. A Decline may only
 * stand in for the message the other side expects (App. C.1), which is
 * what keeps CLC bytes and application bytes apart: each side reads
 * exactly the messages of the exchange and nothing beyond them.
 *
 * The RDMA data path does not exist yet, so every exchange ends in a
 * Decline and both peers continue over TCP.
 */

#include <linux/inetdevice.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "smcr.h"
#include "smcr_trace.h"

/* What the local end of a connection offers: the Proposal's contents */
struct smcr_clc_local {
	struct smcr_clc_proposal prop;
	bool have_port;
};

static int smcr_clc_send(struct smcr_sock *smc, const u8 *buf, int len)
{
	struct msghdr msg = { .msg_flags = MSG_NOSIGNAL };
	struct kvec vec = { .iov_base = (void *)buf, .iov_len = len };
	int rc;

	rc = kernel_sendmsg(smc->clcsock, &msg, &vec, 1, len);
	trace_smcr_clc_msg(smc, true, buf[4], len, rc);
	if (rc == len)
		return 0;
	return rc < 0 ? rc : -EPIPE;
}

/* Read exactly @len bytes, waiting at most SMCR_CLC_WAIT in all */
static int smcr_clc_read(struct smcr_sock *smc, u8 *buf, int len,
			 unsigned long deadline)
{
	struct sock *clcsk = smc->clcsock->sk;
	struct msghdr msg = {};
	struct kvec vec;
	long left;
	int rc;

	while (len > 0) {
		left = (long)(deadline - jiffies);
		if (left <= 0)
			return -ETIMEDOUT;
		WRITE_ONCE(clcsk->sk_rcvtimeo, left);
		vec.iov_base = buf;
		vec.iov_len = len;
		rc = kernel_recvmsg(smc->clcsock, &msg, &vec, 1, len,
				    MSG_WAITALL);
		if (rc == -EAGAIN)
			return -ETIMEDOUT;
		if (rc < 0)
			return rc;
		if (rc == 0)
			return -ECONNRESET;
		buf += rc;
		len -= rc;
	}
	return 0;
}

/* Receive one CLC message into @buf (SMCR_CLC_MAX_LEN bytes): the header
 * first, then exactly the length it announces.
 */
static int smcr_clc_recv(struct smcr_sock *smc, u8 *buf,
			 struct smcr_clc_hdr *hdr)
{
	unsigned long deadline = jiffies + SMCR_CLC_WAIT;
	long rcvtimeo = smc->clcsock->sk->sk_rcvtimeo;
	int rc;

	rc = smcr_clc_read(smc, buf, SMCR_CLC_HDR_LEN, deadline);
	if (!rc) {
		rc = smcr_clc_hdr_decode(buf, SMCR_CLC_HDR_LEN, hdr);
		if (rc)
			rc = -EPROTO;
	}
	if (!rc)
		rc = smcr_clc_read(smc, buf + SMCR_CLC_HDR_LEN,
				   hdr->length - SMCR_CLC_HDR_LEN, deadline);
	WRITE_ONCE(smc->clcsock->sk->sk_rcvtimeo, rcvtimeo);
	trace_smcr_clc_msg(smc, false, rc ? 0 : hdr->type,
			   rc ? 0 : hdr->length, rc);
	return rc;
}

static int smcr_clc_send_decline(struct smcr_sock *smc, u32 reason)
{
	u8 buf[SMCR_CLC_DECLINE_LEN];
	struct smcr_clc_decline dcl = {
		.version = SMCR_CLC_V1,
		.diag = reason,
		.os_type = SMCR_CLC_OS_NONE,
	};
	int len;

	smcr_ib_system_id(dcl.peer_id);
	len = smcr_clc_decline_encode(&dcl, buf, sizeof(buf));
	if (len < 0)
		return len;
	return smcr_clc_send(smc, buf, len);
}

/* The routing device of a connected internal socket, with a reference */
static struct net_device *smcr_clc_route_dev(struct sock *clcsk)
{
	struct net_device *ndev = NULL;
	struct dst_entry *dst;

	dst = sk_dst_get(clcsk);
	if (dst) {
		ndev = dst->dev;
		if (ndev)
			dev_hold(ndev);
		dst_release(dst);
	}
	return ndev;
}

static bool smcr_clc_is_v4(struct sock *clcsk)
{
	return clcsk->sk_family == AF_INET ||
	       ipv6_addr_v4mapped(&clcsk->sk_v6_rcv_saddr);
}

/* IPv4 subnet of the local address on @ndev (RFC 7609 A.2.2) */
static int smcr_clc_prefix_v4(struct sock *clcsk, struct net_device *ndev,
			      struct smcr_clc_proposal *p)
{
	__be32 addr = clcsk->sk_rcv_saddr;
	struct in_device *in_dev;
	int rc = -ENOENT;

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(ndev);
	if (in_dev) {
		const struct in_ifaddr *ifa;

		in_dev_for_each_ifa_rcu(ifa, in_dev) {
			if (!inet_ifa_match(addr, ifa))
				continue;
			p->ipv4_subnet = ntohl(addr & ifa->ifa_mask);
			p->ipv4_prefix_len = ifa->ifa_prefixlen;
			rc = 0;
			break;
		}
	}
	rcu_read_unlock();
	return rc;
}

/* IPv6 prefixes of @ndev, link-local ones excepted (RFC 7609 A.2.2) */
static int smcr_clc_prefix_v6(struct net_device *ndev,
			      struct smcr_clc_proposal *p)
{
	struct inet6_ifaddr *ifa;
	struct inet6_dev *idev;
	struct in6_addr pfx;
	int cnt = 0;

	rcu_read_lock();
	idev = __in6_dev_get(ndev);
	if (idev) {
		read_lock_bh(&idev->lock);
		list_for_each_entry(ifa, &idev->addr_list, if_list) {
			if (ifa->scope == IFA_LINK)
				continue;
			if (cnt == SMCR_CLC_MAX_V6_PREFIX)
				break;
			ipv6_addr_prefix(&pfx, &ifa->addr, ifa->prefix_len);
			memcpy(p->ipv6_prefix[cnt].addr, &pfx, sizeof(pfx));
			p->ipv6_prefix[cnt].len = ifa->prefix_len;
			cnt++;
		}
		read_unlock_bh(&idev->lock);
	}
	rcu_read_unlock();
	p->ipv6_prefix_cnt = cnt;
	return cnt ? 0 : -ENOENT;
}

/* What this end of the connection would offer: its RoCE port on the
 * connection's route and its IP prefixes. Returns 0 or a decline code.
 */
static u32 smcr_clc_local(struct smcr_sock *smc, struct smcr_clc_local *lcl)
{
	struct sock *clcsk = smc->clcsock->sk;
	struct smcr_clc_proposal *p = &lcl->prop;
	struct smcr_ib_port port;
	struct net_device *ndev;
	u32 reason = 0;
	int rc;

	memset(lcl, 0, sizeof(*lcl));
	ndev = smcr_clc_route_dev(clcsk);
	if (!ndev)
		return SMCR_CLC_DECL_NOSMCRDEV;

	if (smcr_clc_is_v4(clcsk))
		rc = smcr_clc_prefix_v4(clcsk, ndev, p);
	else
		rc = smcr_clc_prefix_v6(ndev, p);
	if (rc)
		reason = SMCR_CLC_DECL_CNFERR;

	if (!smcr_ib_find_port(ndev, &port)) {
		lcl->have_port = true;
		memcpy(p->gid, port.gid, sizeof(p->gid));
		memcpy(p->mac, port.mac, sizeof(p->mac));
	} else if (!reason) {
		reason = SMCR_CLC_DECL_NOSMCRDEV;
	}
	dev_put(ndev);

	p->version = SMCR_CLC_V1;
	p->path_v1 = SMCR_CLC_PATH_R;
	smcr_ib_system_id(p->peer_id);
	return reason;
}

/**
 * smcr_clc_client() - client side of the handshake
 * @smc: socket whose internal TCP socket just connected
 *
 * Context: process, lock_sock(@smc) held.
 * Return: 0 when the connection is ready (in this version always through
 * fallback), or a negative errno when the peer broke the handshake: a
 * malformed message, a reset or no answer within SMCR_CLC_WAIT. The TCP
 * stream can no longer be trusted then, so connect() fails.
 */
int smcr_clc_client(struct smcr_sock *smc)
{
	struct smcr_clc_local *lcl;
	struct smcr_clc_decline dcl;
	struct smcr_clc_hdr hdr;
	u32 reason;
	u8 *buf;
	int rc;

	lockdep_assert_held(&smc->sk.sk_lock.slock);

	/* RFC 7609 §3.5.1: a peer that did not echo the option is TCP */
	if (!tcp_sk(smc->clcsock->sk)->syn_smc) {
		smcr_fallback(smc, SMCR_CLC_DECL_PEERNOSMC, 0);
		return 0;
	}

	buf = kzalloc(SMCR_CLC_MAX_LEN, GFP_KERNEL);
	lcl = kzalloc(sizeof(*lcl), GFP_KERNEL);
	if (!buf || !lcl) {
		/* App. C.1: short of memory, decline in lieu of the Proposal */
		rc = smcr_clc_send_decline(smc, SMCR_CLC_DECL_MEM);
		if (!rc)
			smcr_fallback(smc, SMCR_CLC_DECL_MEM, 0);
		goto out;
	}

	reason = smcr_clc_local(smc, lcl);
	if (reason) {
		/* App. C.1: a Decline in lieu of the Proposal */
		rc = smcr_clc_send_decline(smc, reason);
		if (!rc)
			smcr_fallback(smc, reason, 0);
		goto out;
	}

	rc = smcr_clc_proposal_encode(&lcl->prop, buf, SMCR_CLC_MAX_LEN);
	if (rc < 0)
		goto out;
	rc = smcr_clc_send(smc, buf, rc);
	if (rc)
		goto out;

	rc = smcr_clc_recv(smc, buf, &hdr);
	if (rc)
		goto out;
	switch (hdr.type) {
	case SMCR_CLC_TYPE_DECLINE:
		rc = smcr_clc_decline_decode(buf, hdr.length, &dcl);
		if (rc) {
			rc = -EPROTO;
			break;
		}
		smcr_fallback(smc, SMCR_CLC_DECL_PEERDECL, dcl.diag);
		break;
	case SMCR_CLC_TYPE_ACCEPT:
		/* App. C.1: the answer to an Accept we cannot serve is a
		 * Decline; this version has no link layer to serve it with.
		 */
		rc = smcr_clc_send_decline(smc, SMCR_CLC_DECL_NOSMCRDEV);
		if (!rc)
			smcr_fallback(smc, SMCR_CLC_DECL_NOSMCRDEV, 0);
		break;
	default:
		rc = -EPROTO;
		break;
	}
out:
	kfree(lcl);
	kfree(buf);
	return rc;
}

/* Whether the client's prefixes include the subnet of our end (A.2.2) */
static bool smcr_clc_prefix_match(const struct smcr_clc_proposal *peer,
				  const struct smcr_clc_proposal *ours,
				  bool v4)
{
	int i, j;

	if (v4)
		return peer->ipv4_prefix_len == ours->ipv4_prefix_len &&
		       peer->ipv4_subnet == ours->ipv4_subnet;
	for (i = 0; i < peer->ipv6_prefix_cnt; i++)
		for (j = 0; j < ours->ipv6_prefix_cnt; j++)
			if (peer->ipv6_prefix[i].len ==
			    ours->ipv6_prefix[j].len &&
			    !memcmp(peer->ipv6_prefix[i].addr,
				    ours->ipv6_prefix[j].addr, 16))
				return true;
	return false;
}

/* The server's choice for a valid Proposal (RFC 7609 §3.5.1.2): the
 * decline code, as no proposal can be served before the link layer
 * exists.
 */
static u32 smcr_clc_server_choose(struct smcr_sock *smc,
				  const struct smcr_clc_proposal *peer,
				  struct smcr_clc_local *lcl)
{
	u32 reason = smcr_clc_local(smc, lcl);

	if (reason == SMCR_CLC_DECL_CNFERR ||
	    (!reason && !smcr_clc_prefix_match(peer, &lcl->prop,
					      smcr_clc_is_v4(smc->clcsock->sk))))
		return SMCR_CLC_DECL_DIFFPREFIX;
	if (reason)
		return reason;
	return SMCR_CLC_DECL_NOSMCRDEV;
}

/**
 * smcr_clc_server() - server side of the handshake
 * @smc: child socket whose TCP peer sent the SMC option
 *
 * Context: process (handshake work), lock_sock(@smc) held.
 * Return: 0 when the connection is ready (through fallback in this
 * version), a negative errno when the client broke the handshake and the
 * connection must be dropped.
 */
int smcr_clc_server(struct smcr_sock *smc)
{
	struct smcr_clc_proposal *peer = NULL;
	struct smcr_clc_local *lcl = NULL;
	struct smcr_clc_decline dcl;
	struct smcr_clc_hdr hdr;
	u32 reason;
	u8 *buf;
	int rc;

	lockdep_assert_held(&smc->sk.sk_lock.slock);

	buf = kzalloc(SMCR_CLC_MAX_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	rc = smcr_clc_recv(smc, buf, &hdr);
	if (rc)
		goto out;

	switch (hdr.type) {
	case SMCR_CLC_TYPE_DECLINE:
		/* App. C.1: the client declined in lieu of a Proposal */
		rc = smcr_clc_decline_decode(buf, hdr.length, &dcl);
		if (rc) {
			rc = -EPROTO;
			break;
		}
		smcr_fallback(smc, SMCR_CLC_DECL_PEERDECL, dcl.diag);
		break;
	case SMCR_CLC_TYPE_PROPOSAL:
		peer = kzalloc(sizeof(*peer), GFP_KERNEL);
		lcl = kzalloc(sizeof(*lcl), GFP_KERNEL);
		if (!peer || !lcl)
			reason = SMCR_CLC_DECL_MEM;
		else if (smcr_clc_proposal_decode(buf, hdr.length, peer))
			reason = 0;
		else
			reason = smcr_clc_server_choose(smc, peer, lcl);
		if (!reason) {
			rc = -EPROTO;
			break;
		}
		rc = smcr_clc_send_decline(smc, reason);
		if (!rc)
			smcr_fallback(smc, reason, 0);
		break;
	default:
		/* only a Proposal or a Decline may open the exchange */
		rc = -EPROTO;
		break;
	}
out:
	kfree(lcl);
	kfree(peer);
	kfree(buf);
	return rc;
}
