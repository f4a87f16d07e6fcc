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
 * After an Accept and a Confirm the connection runs over SMC-R; after a
 * Decline both peers continue over TCP.
 *
 * Two versions: SMC-R v1 of RFC 7609, and SMC-Rv2 as Linux implements
 * it, which routes RoCEv2 between IPv4 subnets and requires the peers to
 * share a user EID. The client offers what it can, v2 whenever it has a
 * user EID and an IPv4 connection; the server takes v2 over v1, as
 * Linux does.
 */

#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/utsname.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/route.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "smcr.h"
#include "smcr_buf.h"
#include "smcr_links.h"
#include "smcr_llc.h"
#include "smcr_stats.h"
#include "smcr_sysctl.h"
#include "smcr_trace.h"
#include "smcr_ueid.h"
#include "smcr_wire_llc.h"

/* Whether connections may use SMC-R; otherwise every handshake declines */
static bool rdma = true;
module_param(rdma, bool, 0644);
MODULE_PARM_DESC(rdma, "Use SMC-R when the peer agrees (default: yes)");

/* SMC release 1 ("SMC v2.1", Linux 6.5 on) by default where the kernel's
 * own smc.ko has it, so that we answer as it does; release 0 (Linux 6.1)
 * elsewhere. Either is spoken on any kernel, and a first contact of
 * version 2 agrees on the lower of both ends'.
 */
#ifdef SMCR_HAVE_SMC_V21
#define SMCR_CLC_RELEASE_DEFAULT	SMCR_CLC_RELEASE_1
#else
#define SMCR_CLC_RELEASE_DEFAULT	0
#endif

static unsigned int release = SMCR_CLC_RELEASE_DEFAULT;
module_param(release, uint, 0644);
MODULE_PARM_DESC(release,
		 "SMC release offered within version 2: 1 (SMC v2.1: connections and links per link group agreed on) or 0");

/**
 * smcr_clc_release() - the SMC release new handshakes offer
 *
 * Return: 0 or SMCR_CLC_RELEASE_1, from the release module parameter.
 */
u8 smcr_clc_release(void)
{
	return min_t(unsigned int, READ_ONCE(release), SMCR_CLC_RELEASE_1);
}

/**
 * struct smcr_clc_local - what the local end of a connection can offer
 * @prop: the Proposal's contents
 * @port: the RoCE port they came from, dev set and referenced when found
 * @v1_reason: 0 if SMC-R v1 is possible, else the decline code
 * @v2_ok: SMC-Rv2 is possible: IPv4, a RoCE port, a user EID
 * @version: the version agreed on, once there is one
 * @eid: SMC-Rv2: the EID agreed on
 * @uses_gateway: SMC-Rv2: the peer is behind an IP gateway
 * @agreed: SMC-Rv2 first contact: the release and limits of the link
 *	group (the client's proposal, then what both ends agreed on)
 */
struct smcr_clc_local {
	struct smcr_clc_proposal prop;
	struct smcr_ib_port port;
	u32 v1_reason;
	bool v2_ok;
	u8 version;
	u8 eid[SMCR_CLC_EID_LEN];
	bool uses_gateway;
	struct smcr_clc_terms agreed;
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
 * first, then exactly the length it announces, within @wait jiffies.
 */
static int smcr_clc_recv(struct smcr_sock *smc, u8 *buf,
			 struct smcr_clc_hdr *hdr, unsigned long wait)
{
	unsigned long deadline = jiffies + wait;
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

/* App. C.1: a Decline in lieu of the message the peer expects; once it
 * is sent, both sides go on over TCP. Its version is that of the
 * exchange so far; a version 2 Decline names the OS, as Linux does.
 */
static int smcr_clc_decline(struct smcr_sock *smc, u32 reason, u8 version)
{
	u8 buf[SMCR_CLC_DECLINE_V2_LEN];
	struct smcr_clc_decline dcl = {
		.version = version,
		.diag = reason,
		.os_type = version == SMCR_CLC_V1 ? SMCR_CLC_OS_NONE :
						    SMCR_CLC_OS_LINUX,
	};
	int len, rc;

	smcr_ib_system_id(dcl.peer_id);
	len = smcr_clc_decline_encode(&dcl, buf, sizeof(buf));
	if (len < 0)
		return len;
	rc = smcr_clc_send(smc, buf, len);
	if (!rc)
		smcr_fallback(smc, reason, 0);
	return rc;
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
	u8 pnetid[SMCR_PNETID_LEN];
	struct net_device *ndev;
	struct in6_addr own;
	u32 reason = 0;
	bool pnet;
	int rc;

	memset(lcl, 0, sizeof(*lcl));
	/* Linux's code for a connection no RoCE port serves: no SMC device */
	ndev = smcr_clc_route_dev(clcsk);
	if (!ndev) {
		lcl->v1_reason = SMCR_CLC_DECL_NOSMCDEV;
		return lcl->v1_reason;
	}

	if (smcr_clc_is_v4(clcsk)) {
		rc = smcr_clc_prefix_v4(clcsk, ndev, p);
		ipv6_addr_set_v4mapped(clcsk->sk_rcv_saddr, &own);
	} else {
		rc = smcr_clc_prefix_v6(ndev, p);
		own = clcsk->sk_v6_rcv_saddr;
	}
	if (rc)
		reason = SMCR_CLC_DECL_CNFERR;

	/* the GID of the connection's own address, as SMC-Rv2 has it; a
	 * PNET ID of the device admits only RoCE ports of that network
	 */
	pnet = smcr_pnet_of_ndev(ndev, pnetid);
	if (!smcr_ib_find_port(ndev, own.s6_addr, pnet ? pnetid : NULL,
			       &lcl->port)) {
		memcpy(p->gid, lcl->port.gid, sizeof(p->gid));
		memcpy(p->mac, lcl->port.mac, sizeof(p->mac));
	} else {
		reason = reason ?: SMCR_CLC_DECL_NOSMCDEV;
	}
	dev_put(ndev);
	smcr_ib_system_id(p->peer_id);
	lcl->v1_reason = reason;
	p->version = SMCR_CLC_V1;
	p->path_v1 = reason ? SMCR_CLC_PATH_NONE : SMCR_CLC_PATH_R;

	/* SMC-Rv2: an IPv4 connection, a RoCE port and a user EID */
	if (!lcl->port.dev || !smcr_clc_is_v4(clcsk))
		return reason;
	p->eid_cnt = smcr_ueid_get_all(p->eids, SMCR_CLC_MAX_UEID);
	if (!p->eid_cnt)
		return reason;
	lcl->v2_ok = true;
	p->version = SMCR_CLC_V2;
	p->path_v2 = SMCR_CLC_PATH_R;
	p->v2_ext = true;
	memcpy(p->v2_gid, lcl->port.gid, SMCR_CLC_GID_LEN);
	/* release 1: what a new link group of ours takes at most */
	lcl->agreed.release = smcr_clc_release();
	smcr_sysctl_lgr_max(sock_net(&smc->sk), &lcl->agreed.max_conns,
			    &lcl->agreed.max_links);
	lcl->agreed.max_links = min(lcl->agreed.max_links,
				    smcr_links_max(NULL));
	smcr_clc_terms_propose(&lcl->agreed, p);
	return 0;
}

/* SMC-Rv2 (RoCEv2 is routed): whether the peer at @peer_gid, an
 * IPv4-mapped address, is reached through a gateway. Returns 0 or a
 * decline code.
 */
static u32 smcr_clc_v2_route(struct sock *clcsk, const u8 *peer_gid,
			     bool *uses_gateway)
{
	struct flowi4 fl4 = { .saddr = clcsk->sk_rcv_saddr };
	struct in6_addr addr;
	struct rtable *rt;

	memcpy(&addr, peer_gid, sizeof(addr));
	if (!ipv6_addr_v4mapped(&addr))
		return SMCR_CLC_DECL_NOROUTE;
	fl4.daddr = addr.s6_addr32[3];
	rt = ip_route_output_flow(sock_net(clcsk), &fl4, NULL);
	if (IS_ERR(rt))
		return SMCR_CLC_DECL_NOROUTE;
	*uses_gateway = rt->rt_uses_gateway;
	ip_rt_put(rt);
	return 0;
}

/* the first contact extension of an SMC-Rv2 Accept or Confirm: in
 * release 1 with what the link group agreed on
 */
static void smcr_clc_fill_fce(struct smcr_clc_fce *fce,
			      const struct smcr_lgr *lgr)
{
	const char *host = init_utsname()->nodename;

	fce->v2_direct = !lgr->uses_gateway;
	fce->os_type = SMCR_CLC_OS_LINUX;
	memset(fce->hostname, ' ', sizeof(fce->hostname));
	memcpy(fce->hostname, host,
	       min(strlen(host), sizeof(fce->hostname)));
	smcr_clc_terms_fce(&lgr->agreed, fce);
}

/* App. C.1: a Decline stood in for the message expected: fall back */
static int smcr_clc_take_decline(struct smcr_sock *smc, const u8 *buf,
				 u16 len)
{
	struct smcr_clc_decline dcl;

	if (smcr_clc_decline_decode(buf, len, &dcl))
		return -EPROTO;
	smcr_fallback(smc, SMCR_CLC_DECL_PEERDECL, dcl.diag);
	return 0;
}

/* Our half of an Accept or Confirm: link, RMB and alert token, and in
 * SMC-Rv2 the EID and on first contact the extension with our GIDs
 */
static void smcr_clc_fill_acc_conf(struct smcr_sock *smc, u8 type, bool fc,
				   struct smcr_clc_accept_confirm *m)
{
	struct smcr_conn *conn = &smc->conn;
	struct smcr_lgr *lgr = conn->lgr;
	struct smcr_link *link = conn->link;
	struct ib_mr *mr = conn->rmb.mr[link->idx];

	memset(m, 0, sizeof(*m));
	m->type = type;
	m->version = lgr->version;
	m->first_contact = fc;
	if (lgr->version == SMCR_CLC_V2) {
		memcpy(m->eid, lgr->eid, SMCR_CLC_EID_LEN);
		m->has_fce = fc;
		smcr_clc_fill_fce(&m->fce, lgr);
		if (fc && type == SMCR_CLC_TYPE_CONFIRM) {
			m->gid_cnt = 1;
			memcpy(m->gids[0], link->port.gid, SMCR_CLC_GID_LEN);
		}
	}
	smcr_ib_system_id(m->peer_id);
	memcpy(m->gid, link->port.gid, SMCR_CLC_GID_LEN);
	memcpy(m->mac, link->port.mac, ETH_ALEN);
	m->qpn = link->qp->qp_num;
	m->rmb_rkey = mr->rkey;
	m->rmbe_idx = 1;
	m->rmbe_alert_token = conn->token;
	m->rmbe_size = smcr_clc_rmbe_size_compress(conn->rmb.size);
	m->qp_mtu = link->port.mtu;
	m->rmb_dma_addr = mr->iova;
	m->psn = link->psn;
}

/* The peer's half of an Accept or Confirm: where our writes go (A.2.3) */
static int smcr_clc_take_peer(struct smcr_sock *smc,
			      const struct smcr_clc_accept_confirm *m)
{
	struct smcr_conn *conn = &smc->conn;
	u32 size = smcr_clc_rmbe_size_decompress(m->rmbe_size);

	if (m->rmbe_idx < 1)
		return -EPROTO;
	conn->peer_token = m->rmbe_alert_token;
	conn->peer_rkey = m->rmb_rkey;
	/* read by smcr_cdc_rx(), which may run before it is set */
	WRITE_ONCE(conn->peer_size, size);
	conn->peer_rmb = m->rmb_dma_addr + (u64)size * (m->rmbe_idx - 1);
	return 0;
}

static int smcr_clc_send_acc_conf(struct smcr_sock *smc, u8 type, bool fc)
{
	struct smcr_clc_accept_confirm m;
	u8 buf[SMCR_CLC_ACC_CONF_V2_LEN + SMCR_CLC_FCE_LEN +
	       SMCR_CLC_GIDLIST_HDR_LEN + SMCR_CLC_MAX_GIDS * SMCR_CLC_GID_LEN];
	int len;

	smcr_clc_fill_acc_conf(smc, type, fc, &m);
	len = smcr_clc_accept_confirm_encode(&m, buf, sizeof(buf));
	if (len < 0)
		return len;
	return smcr_clc_send(smc, buf, len);
}

static int smcr_clc_client_reg(void *arg)
{
	struct smcr_sock *smc = arg;

	return smcr_buf_register(smc->conn.link, &smc->conn.rmb);
}

/* Client, first contact, its Confirm sent: CONFIRM LINK. Until our
 * response is out, a failure still declines and the connection goes on
 * over TCP (App. C.2): 0, a decline code, or a negative errno when a
 * signal cut the wait short.
 */
static long smcr_clc_client_confirm_link(struct smcr_sock *smc,
					 struct smcr_link *link)
{
	int rc = smcr_llc_confirm_link_client(link, smcr_clc_client_reg, smc);

	if (!rc || rc == -EINTR || rc == -ERESTARTSYS)
		return rc;
	return rc == -ETIMEDOUT ? SMCR_CLC_DECL_TIMEOUT_CL :
				  SMCR_CLC_DECL_ERR_RDYLNK;
}

/* Client, after the server's Accept (RFC 7609 §3.5.1.3, §3.5.2): join or
 * create the link group, answer with a Confirm, and on first contact run
 * CONFIRM LINK. Returns 0, a decline code (> 0) while a Decline may still
 * replace the Confirm or, on first contact, follow it (App. C.2), or a
 * negative errno.
 */
static long smcr_clc_client_rdma(struct smcr_sock *smc,
				 struct smcr_clc_local *lcl,
				 const struct smcr_clc_accept_confirm *acc)
{
	struct smcr_lgr *lgr;
	struct smcr_link *link;
	long rc;

	/* the Accept must take up one of the versions we offered */
	if (acc->version == SMCR_CLC_V2 ? !lcl->v2_ok : lcl->v1_reason)
		return SMCR_CLC_DECL_MODEUNSUPP;
	/* RFC 7609 C.6: a reserved QP MTU (A.2.3) means the peer has more than
	 * we know of; validated on first contact only
	 */
	if (acc->first_contact && !smcr_clc_mtu_to_bytes(acc->qp_mtu))
		return SMCR_CLC_DECL_CNFERR;
	if (acc->version == SMCR_CLC_V2 && acc->first_contact) {
		/* a server behind a gateway says so; the route must agree */
		if (!acc->has_fce)
			return SMCR_CLC_DECL_NOV2EXT;
		if (!acc->fce.v2_direct) {
			bool gw = false;

			rc = smcr_clc_v2_route(smc->clcsock->sk, acc->gid, &gw);
			if (rc)
				return rc;
			if (!gw)
				return SMCR_CLC_DECL_NOINDIRECT;
			lcl->uses_gateway = true;
		}
		rc = smcr_clc_terms_client(&lcl->agreed, &acc->fce);
		if (rc)
			return rc;
	} else {
		lcl->agreed = smcr_clc_terms_default;
	}

	/* only the choice of the group is serialized: no wait for the
	 * server happens under the lock
	 */
	mutex_lock(&smcr_lgr_client_lock);
	if (acc->first_contact) {
		lgr = smcr_lgr_create(false, acc->version, acc->peer_id,
				      &lcl->port, lcl->uses_gateway,
				      &lcl->agreed);
		if (IS_ERR(lgr)) {
			mutex_unlock(&smcr_lgr_client_lock);
			return SMCR_CLC_DECL_MEM;
		}
		lgr->testlink_time = smcr_sysctl_testlink_time(sock_net(&smc->sk));
		memcpy(lgr->eid, acc->eid, SMCR_CLC_EID_LEN);
		if (acc->has_fce)
			smcr_lgr_set_peer(lgr, &acc->fce);
		link = &lgr->lnk[0];
		memcpy(link->peer_gid, acc->gid, SMCR_CLC_GID_LEN);
		memcpy(link->peer_mac, acc->mac, ETH_ALEN);
		link->peer_qpn = acc->qpn;
		link->peer_psn = acc->psn;
		link->peer_mtu = acc->qp_mtu;
	} else {
		smcr_ib_put_port(&lcl->port);
		lgr = smcr_lgr_find(false, acc->version, acc->peer_id,
				    acc->gid, acc->qpn, &smcr_lgr_client_lock);
		/* the server chose the link: the one of its QP */
		link = lgr ? smcr_lgr_link_of_peer(lgr, acc->gid, acc->qpn) :
			     NULL;
		if (!link) {
			mutex_unlock(&smcr_lgr_client_lock);
			if (lgr)
				smcr_lgr_put(lgr);
			return SMCR_CLC_DECL_NOSRVLINK;
		}
	}
	rc = smcr_conn_register(lgr, smc, link);
	mutex_unlock(&smcr_lgr_client_lock);
	if (rc) {
		/* a new group goes with its last reference */
		if (acc->first_contact)
			smcr_lgr_terminate(lgr);
		smcr_lgr_put(lgr);
		return SMCR_CLC_DECL_MEM;
	}
	/* no memory for the buffers has a code of its own, as on the server */
	rc = smcr_buf_alloc(smc) ? SMCR_CLC_DECL_MEM : 0;
	if (!rc)
		rc = smcr_clc_take_peer(smc, acc);
	if (!rc && acc->first_contact)
		rc = smcr_link_ready(link, false);
	else if (!rc)
		/* the server may write as soon as it has our Confirm */
		rc = smcr_buf_register(link, &smc->conn.rmb);
	if (!rc && !acc->first_contact)
		rc = smcr_links_confirm_rmb(smc);
	if (rc) {
		smcr_conn_undo(smc);
		if (rc < 0)
			rc = SMCR_CLC_DECL_ERR_RDYLNK;
		goto out;
	}

	if (acc->first_contact)
		smcr_llc_expect(link, SMCR_LLC_TYPE_CONFIRM_LINK, false);
	rc = smcr_clc_send_acc_conf(smc, SMCR_CLC_TYPE_CONFIRM,
				    acc->first_contact);
	if (!rc && acc->first_contact)
		rc = smcr_clc_client_confirm_link(smc, link);
	if (rc) {
		smcr_conn_undo(smc);
	} else {
		trace_smcr_conn(smc, acc->first_contact);
		smcr_stats_hs_done(smc);
	}
out:
	return rc;
}

/**
 * smcr_clc_client() - client side of the handshake
 * @smc: socket whose internal TCP socket just connected
 *
 * Context: process, lock_sock(@smc) held.
 * Return: 0 when the connection is ready, over SMC-R or through fallback,
 * or a negative errno when the peer broke the handshake: a malformed
 * message, a reset or no answer within SMCR_CLC_WAIT. The TCP stream can
 * no longer be trusted then, so connect() fails.
 */
int smcr_clc_client(struct smcr_sock *smc)
{
	struct smcr_clc_accept_confirm acc;
	struct smcr_clc_local *lcl;
	struct smcr_clc_hdr hdr;
	u32 reason;
	long rrc;
	u8 *buf;
	int rc;

	sock_owned_by_me(&smc->sk);

	/* RFC 7609 §3.5.1: a peer that did not echo the option is TCP */
	if (!tcp_sk(smc->clcsock->sk)->syn_smc) {
		smcr_fallback(smc, SMCR_CLC_DECL_PEERNOSMC, 0);
		return 0;
	}

	buf = kzalloc(SMCR_CLC_MAX_LEN, GFP_KERNEL);
	lcl = kzalloc(sizeof(*lcl), GFP_KERNEL);
	if (!buf || !lcl) {
		/* App. C.1: short of memory, decline in lieu of the Proposal */
		rc = smcr_clc_decline(smc, SMCR_CLC_DECL_MEM, SMCR_CLC_V1);
		goto out;
	}

	reason = smcr_clc_local(smc, lcl);
	if (reason) {
		/* App. C.1: a Decline in lieu of the Proposal */
		rc = smcr_clc_decline(smc, reason, SMCR_CLC_V1);
		goto out;
	}

	rc = smcr_clc_proposal_encode(&lcl->prop, buf, SMCR_CLC_MAX_LEN);
	if (rc < 0)
		goto out;
	rc = smcr_clc_send(smc, buf, rc);
	if (rc)
		goto out;

	rc = smcr_clc_recv(smc, buf, &hdr, SMCR_CLC_WAIT);
	if (rc)
		goto out;
	switch (hdr.type) {
	case SMCR_CLC_TYPE_DECLINE:
		rc = smcr_clc_take_decline(smc, buf, hdr.length);
		break;
	case SMCR_CLC_TYPE_ACCEPT:
		if (smcr_clc_accept_confirm_decode(buf, hdr.length, &acc) ||
		    acc.type != SMCR_CLC_TYPE_ACCEPT) {
			rc = -EPROTO;
			break;
		}
		rrc = rdma ? smcr_clc_client_rdma(smc, lcl, &acc) :
			     SMCR_CLC_DECL_NOSMCRDEV;
		if (rrc <= 0) {
			rc = rrc;
			break;
		}
		/* a Decline in lieu of the Confirm (App. C.1) or of our
		 * CONFIRM LINK response (C.2)
		 */
		rc = smcr_clc_decline(smc, rrc, acc.version);
		break;
	default:
		rc = -EPROTO;
		break;
	}
out:
	if (rc < 0)
		smcr_stats_hs_error(smc);
	if (lcl)
		smcr_ib_put_port(&lcl->port);
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

static bool smcr_clc_path_has_r(u8 path)
{
	return path == SMCR_CLC_PATH_R || path == SMCR_CLC_PATH_BOTH;
}

/* SMC-Rv2 for a Proposal offering it: 0 and the EID when both sides
 * share one, a RoCE port of ours serves the connection, the route to
 * the client's GID is known and a release and limits are agreed on;
 * else the decline code, or 0 with no EID when there is just no EID in
 * common.
 */
static u32 smcr_clc_server_v2(struct smcr_sock *smc,
			      const struct smcr_clc_proposal *peer,
			      struct smcr_clc_local *lcl)
{
	unsigned int i;
	u32 rc;

	if (!peer->eid_cnt)
		return SMCR_CLC_DECL_NOUEID;
	for (i = 0; i < peer->eid_cnt; i++)
		if (smcr_ueid_find(peer->eids[i]))
			break;
	if (i == peer->eid_cnt)
		return 0;
	if (!lcl->v2_ok)
		return SMCR_CLC_DECL_NOSMCRDEV;
	if (smcr_clc_v2_route(smc->clcsock->sk, peer->v2_gid,
			      &lcl->uses_gateway))
		return SMCR_CLC_DECL_NOSMCRDEV;
	rc = smcr_clc_terms_server(&lcl->agreed, peer);
	if (rc)
		return rc;
	memcpy(lcl->eid, peer->eids[i], SMCR_CLC_EID_LEN);
	lcl->version = SMCR_CLC_V2;
	return 0;
}

/* The server's choice for a valid Proposal (RFC 7609 §3.5.1.2): 0 to
 * serve it over SMC-R in lcl->version, else the decline code. Like
 * Linux, SMC-Rv2 first, and the first reason found is the one reported.
 */
static u32 smcr_clc_server_choose(struct smcr_sock *smc,
				  const struct smcr_clc_proposal *peer,
				  struct smcr_clc_local *lcl)
{
	u32 reason = 0;

	smcr_clc_local(smc, lcl);
	if (!rdma)
		return SMCR_CLC_DECL_NOSMCRDEV;
	if (peer->version >= SMCR_CLC_V2 && smcr_clc_path_has_r(peer->path_v2)) {
		reason = smcr_clc_server_v2(smc, peer, lcl);
		if (lcl->version)
			return 0;
	}
	if (!smcr_clc_path_has_r(peer->path_v1))
		return reason ?: SMCR_CLC_DECL_NOSMCDEV;
	if (lcl->v1_reason == SMCR_CLC_DECL_CNFERR ||
	    (!lcl->v1_reason &&
	     !smcr_clc_prefix_match(peer, &lcl->prop,
				    smcr_clc_is_v4(smc->clcsock->sk))))
		return reason ?: SMCR_CLC_DECL_DIFFPREFIX;
	if (lcl->v1_reason)
		return reason ?: lcl->v1_reason;
	lcl->version = SMCR_CLC_V1;
	lcl->agreed = smcr_clc_terms_default;
	return 0;
}

/* Server, first contact, CONFIRM LINK failed: a client whose wait for our
 * request ended first declines (App. C.2), and the connection goes on
 * over TCP. Returns 1 for that, else 0.
 */
static int smcr_clc_server_declined(struct smcr_sock *smc, u8 *buf)
{
	struct smcr_clc_hdr hdr;

	if (smcr_clc_recv(smc, buf, &hdr, SMCR_CLC_WAIT_SHORT) ||
	    hdr.type != SMCR_CLC_TYPE_DECLINE ||
	    smcr_clc_take_decline(smc, buf, hdr.length))
		return 0;
	return 1;
}

/* Server, for a Proposal it can serve (RFC 7609 §3.5.1.2, §3.5.2): join or
 * create the link group, send the Accept, take the Confirm, and on first
 * contact run CONFIRM LINK. Returns 0, a decline code (> 1) while a Decline
 * may still replace the Accept, or a negative errno after that; 1 means
 * the client declined in lieu of its Confirm and the connection fell back.
 */
static long smcr_clc_server_rdma(struct smcr_sock *smc,
				 struct smcr_clc_local *lcl,
				 const struct smcr_clc_proposal *peer, u8 *buf)
{
	struct smcr_clc_accept_confirm conf;
	struct smcr_clc_hdr hdr;
	struct smcr_lgr *lgr;
	struct smcr_link *link;
	const u8 *peer_gid;
	u32 ticket;
	bool fc;
	long rc;

	/* SMC-Rv2 names the client's end by the GID of its extension */
	peer_gid = lcl->version == SMCR_CLC_V2 ? peer->v2_gid : peer->gid;
	/* only the choice of the group is serialized: a client that goes
	 * silent after our Accept holds up nobody else's handshake
	 */
	mutex_lock(&smcr_lgr_server_lock);
	lgr = smcr_lgr_find(true, lcl->version, peer->peer_id, peer_gid, 0,
			    &smcr_lgr_server_lock);
	fc = !lgr;
	if (fc) {
		lgr = smcr_lgr_create(true, lcl->version, peer->peer_id,
				      &lcl->port, lcl->uses_gateway,
				      &lcl->agreed);
		if (IS_ERR(lgr)) {
			mutex_unlock(&smcr_lgr_server_lock);
			return SMCR_CLC_DECL_MEM;
		}
		lgr->testlink_time = smcr_sysctl_testlink_time(sock_net(&smc->sk));
		memcpy(lgr->eid, lcl->eid, SMCR_CLC_EID_LEN);
		memcpy(lgr->lnk[0].peer_gid, peer_gid, SMCR_CLC_GID_LEN);
		memcpy(lgr->lnk[0].peer_mac, peer->mac, ETH_ALEN);
	}
	/* the first contact's connection on the first link, the others on
	 * the link with the fewest
	 */
	rc = smcr_conn_register(lgr, smc, fc ? &lgr->lnk[0] : NULL);
	link = smc->conn.link;
	if (!rc)
		ticket = smcr_lgr_hs_ticket(lgr);
	mutex_unlock(&smcr_lgr_server_lock);
	if (rc) {
		/* a new group goes with its last reference */
		if (fc)
			smcr_lgr_terminate(lgr);
		smcr_lgr_put(lgr);
		return SMCR_CLC_DECL_MEM;
	}
	rc = smcr_buf_alloc(smc);
	/* the client may write as soon as it has our Accept */
	if (!rc && !fc)
		rc = smcr_buf_register(link, &smc->conn.rmb);
	if (!rc && !fc)
		rc = smcr_links_confirm_rmb(smc);
	if (rc) {
		smcr_conn_undo(smc);
		rc = SMCR_CLC_DECL_MEM;
		goto out;
	}

	rc = smcr_clc_send_acc_conf(smc, SMCR_CLC_TYPE_ACCEPT, fc);
	if (!rc)
		rc = smcr_clc_recv(smc, buf, &hdr, SMCR_CLC_WAIT);
	if (rc)
		goto undo;
	if (hdr.type == SMCR_CLC_TYPE_DECLINE) {
		/* the client declined in lieu of its Confirm */
		rc = smcr_clc_take_decline(smc, buf, hdr.length) ?: 1;
		goto undo;
	}
	if (hdr.type != SMCR_CLC_TYPE_CONFIRM ||
	    smcr_clc_accept_confirm_decode(buf, hdr.length, &conf) ||
	    conf.type != SMCR_CLC_TYPE_CONFIRM ||
	    conf.version != lgr->version ||
	    smcr_clc_take_peer(smc, &conf)) {
		rc = -EPROTO;
		goto undo;
	}
	/* first contact: the Confirm's QP MTU, as the Accept's on the
	 * client (A.2.3), and in SMC-Rv2 the terms the Accept gave
	 */
	if (fc && (!smcr_clc_mtu_to_bytes(conf.qp_mtu) ||
		   (lgr->version == SMCR_CLC_V2 &&
		    !smcr_clc_terms_confirmed(&lgr->agreed, &conf)))) {
		rc = -EPROTO;
		goto undo;
	}
	if (fc) {
		if (conf.has_fce)
			smcr_lgr_set_peer(lgr, &conf.fce);
		/* a v2-only Proposal from Linux leaves its MAC out */
		memcpy(link->peer_mac, conf.mac, ETH_ALEN);
		link->peer_qpn = conf.qpn;
		link->peer_psn = conf.psn;
		link->peer_mtu = conf.qp_mtu;
		rc = smcr_link_ready(link, true);
		if (!rc)
			rc = smcr_buf_register(link, &smc->conn.rmb);
		if (!rc)
			rc = smcr_llc_confirm_link_server(link);
		if (rc)
			rc = smcr_clc_server_declined(smc, buf) ?: rc;
		else
			smcr_links_start(lgr);
	} else if (conf.qpn != link->peer_qpn) {
		rc = -EPROTO;
	}
	if (!rc) {
		trace_smcr_conn(smc, fc);
		smcr_stats_hs_done(smc);
		goto out;
	}
undo:
	smcr_conn_undo(smc);
	if (rc < 0 && rc != -EPROTO)
		rc = -ECONNABORTED;
out:
	/* up for the client: queue it for accept(), after the handshakes
	 * that joined the group before (smcr_listen.c)
	 */
	if (rc == 0 || rc == 1) {
		smcr_lgr_hs_turn(lgr, ticket);
		smcr_accept_enqueue(smc);
	}
	smcr_lgr_hs_done(lgr, ticket);
	return rc;
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
	struct smcr_clc_hdr hdr;
	long rrc;
	u8 *buf;
	int rc;

	sock_owned_by_me(&smc->sk);

	buf = kzalloc(SMCR_CLC_MAX_LEN, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	rc = smcr_clc_recv(smc, buf, &hdr, SMCR_CLC_WAIT);
	if (rc)
		goto out;

	switch (hdr.type) {
	case SMCR_CLC_TYPE_DECLINE:
		/* the client declined in lieu of a Proposal */
		rc = smcr_clc_take_decline(smc, buf, hdr.length);
		break;
	case SMCR_CLC_TYPE_PROPOSAL:
		peer = kzalloc(sizeof(*peer), GFP_KERNEL);
		lcl = kzalloc(sizeof(*lcl), GFP_KERNEL);
		if (peer && lcl &&
		    smcr_clc_proposal_decode(buf, hdr.length, peer)) {
			rc = -EPROTO;
			break;
		}
		if (!peer || !lcl) {
			rrc = SMCR_CLC_DECL_MEM;
		} else {
			rrc = smcr_clc_server_choose(smc, peer, lcl);
			if (!rrc)
				rrc = smcr_clc_server_rdma(smc, lcl, peer, buf);
		}
		if (rrc == 1) {
			rc = 0;		/* the client declined: fell back */
		} else if (rrc > 0) {
			/* App. C.1: a Decline in lieu of the Accept */
			rc = smcr_clc_decline(smc, rrc,
					      peer && peer->version >= SMCR_CLC_V2 ?
					      SMCR_CLC_V2 : SMCR_CLC_V1);
		} else {
			rc = rrc;
		}
		break;
	default:
		/* only a Proposal or a Decline may open the exchange */
		rc = -EPROTO;
		break;
	}
out:
	if (rc < 0)
		smcr_stats_hs_error(smc);
	if (lcl)
		smcr_ib_put_port(&lcl->port);
	kfree(lcl);
	kfree(peer);
	kfree(buf);
	return rc;
}
