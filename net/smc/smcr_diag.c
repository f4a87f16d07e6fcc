// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: AF_SMC sockets as sock_diag reports them (uapi/linux/smc_diag.h).
 *
 * A SOCK_DIAG_BY_FAMILY dump for AF_SMC gets one struct smc_diag_msg per
 * socket of the caller's namespace, followed by attributes: always the
 * shutdown bits and the fallback reasons, on request (diag_ext bits) the
 * connection's cursors and its link. Message, attribute order and
 * contents are those of Linux 6.1's smc_diag.ko for an SMC-R or fallback
 * socket, so ss-style tools read either module; SMC-D parts never occur.
 *
 * Which sockets: every AF_SMC socket from its creation until close()
 * (listeners' children from the TCP accept on), as Linux lists them. Our
 * sockets have four states; the closing states Linux reports are derived
 * from the flags the closing protocol moves (RFC 7609 §4.8).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inet_diag.h>
#include <linux/module.h>
#include <linux/sock_diag.h>
#include <linux/smc_diag.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "smcr.h"

/* The states of smc_diag_msg.diag_state beyond enum smcr_state: Linux's
 * numbers for the steps of a closing SMC-R connection.
 */
enum {
	SMCR_DIAG_PEERCLOSEWAIT1	= 20,	/* we are done writing */
	SMCR_DIAG_PEERCLOSEWAIT2	= 21,	/* ... and so is the peer */
	SMCR_DIAG_APPCLOSEWAIT1		= 22,	/* the peer ended first */
	SMCR_DIAG_APPCLOSEWAIT2		= 23,	/* ... then we stopped writing */
	SMCR_DIAG_APPFINCLOSEWAIT	= 24,	/* the peer closed after us */
	SMCR_DIAG_PROCESSABORT		= 27,	/* the peer or link aborted */
};

/* Link group roles as smc_diag_lgrinfo.role has them */
#define SMCR_DIAG_ROLE_CLIENT	0
#define SMCR_DIAG_ROLE_SERVER	1

/* The listed sockets, one list per protocol (SMCPROTO_SMC, SMCPROTO_SMC6), as
 * Linux dumps them: IPv4 sockets first, the newest first within each.
 * smcr_diag_lock protects both lists and every smcr_sock.diag_node; a
 * socket's internal TCP socket is released only after the socket left
 * its list, so a dump holding the lock may read it. Taken with bottom
 * halves off: the last sock_put() can come from softirq.
 */
static struct hlist_head smcr_diag_socks[2];
static DEFINE_SPINLOCK(smcr_diag_lock);

/**
 * smcr_diag_list() - make a new socket visible to sock_diag
 * @smc: socket, its protocol set
 */
void smcr_diag_list(struct smcr_sock *smc)
{
	struct hlist_head *head = &smcr_diag_socks[smcr_sk_v6(&smc->sk)];

	spin_lock_bh(&smcr_diag_lock);
	hlist_add_head(&smc->diag_node, head);
	spin_unlock_bh(&smcr_diag_lock);
}

/**
 * smcr_diag_unlist() - a socket leaves the sock_diag dumps
 * @smc: socket; called on close() and when it is freed, a second call
 *	does nothing
 *
 * Context: any. Its internal TCP socket may be released once this returns.
 */
void smcr_diag_unlist(struct smcr_sock *smc)
{
	spin_lock_bh(&smcr_diag_lock);
	hlist_del_init(&smc->diag_node);
	spin_unlock_bh(&smcr_diag_lock);
}

/* The state Linux would report for a connection in @smc's condition */
static u8 smcr_diag_state(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	bool peer_done, peer_closed, peer_abort;
	u8 state = READ_ONCE(smc->sk.sk_state);

	if (state != SMCR_ACTIVE)
		return state;
	if (smc->use_fallback)
		return READ_ONCE(smc->sk.sk_shutdown) == SHUTDOWN_MASK ?
		       SMCR_CLOSED : SMCR_ACTIVE;

	spin_lock(&conn->lock);
	peer_done = conn->peer_done_writing;
	peer_closed = conn->peer_closed;
	peer_abort = conn->peer_abort;
	spin_unlock(&conn->lock);

	if (peer_abort || READ_ONCE(conn->aborted))
		return SMCR_DIAG_PROCESSABORT;
	if (READ_ONCE(conn->done_writing)) {
		if (READ_ONCE(smc->close_passive))
			return SMCR_DIAG_APPCLOSEWAIT2;
		if (peer_closed)
			return SMCR_DIAG_APPFINCLOSEWAIT;
		return peer_done ? SMCR_DIAG_PEERCLOSEWAIT2 :
				   SMCR_DIAG_PEERCLOSEWAIT1;
	}
	if (peer_done || peer_closed)
		return SMCR_DIAG_APPCLOSEWAIT1;
	return SMCR_ACTIVE;
}

/* The identity part of the message: addresses and ports are those of the
 * internal TCP socket, in the address family of the AF_SMC protocol
 */
static void smcr_diag_fill_id(struct smcr_sock *smc, struct smc_diag_msg *r)
{
	struct socket *clcsock = READ_ONCE(smc->clcsock);
	struct inet_diag_sockid *id = &r->id;
	struct sock *tcp;

	sock_diag_save_cookie(&smc->sk, id->idiag_cookie);
	if (!clcsock)
		return;
	tcp = clcsock->sk;
	id->idiag_sport = htons(READ_ONCE(tcp->sk_num));
	id->idiag_dport = READ_ONCE(tcp->sk_dport);
	id->idiag_if = READ_ONCE(tcp->sk_bound_dev_if);
	if (!smcr_sk_v6(&smc->sk)) {
		id->idiag_src[0] = READ_ONCE(tcp->sk_rcv_saddr);
		id->idiag_dst[0] = READ_ONCE(tcp->sk_daddr);
		return;
	}
#if IS_ENABLED(CONFIG_IPV6)
	memcpy(id->idiag_src, &tcp->sk_v6_rcv_saddr,
	       sizeof(tcp->sk_v6_rcv_saddr));
	memcpy(id->idiag_dst, &tcp->sk_v6_daddr, sizeof(tcp->sk_v6_daddr));
#endif
}

/* A byte counter over a buffer of @size bytes as wrap and offset */
static void smcr_diag_cursor(struct smc_diag_cursor *c, u64 bytes, u32 size)
{
	u32 count = 0;

	if (size)
		c->wrap = (u16)div_u64_rem(bytes, size, &count);
	c->count = count;
}

static void smcr_diag_wire_cursor(struct smc_diag_cursor *c,
				  const struct smcr_cdc_cursor *wire)
{
	c->wrap = wire->wrap;
	c->count = wire->count;
}

/* The group's role and @link, the connection's, as Linux reports them;
 * the caller keeps both alive
 */
static void smcr_diag_fill_lgr(struct smc_diag_lgrinfo *li,
			       struct smcr_lgr *lgr, struct smcr_link *link)
{
	struct smc_diag_linkinfo *lnk = &li->lnk[0];

	li->role = lgr->server ? SMCR_DIAG_ROLE_SERVER : SMCR_DIAG_ROLE_CLIENT;
	lnk->link_id = link->link_id;
	lnk->ibport = link->port.port;
	if (link->port.dev)
		strscpy(lnk->ibname, dev_name(&link->port.dev->ibdev->dev),
			sizeof(lnk->ibname));
	/* GIDs as text: eight groups of four hex digits, as IPv6 in full */
	snprintf(lnk->gid, sizeof(lnk->gid), "%pI6", link->port.gid);
	snprintf(lnk->peer_gid, sizeof(lnk->peer_gid), "%pI6", link->peer_gid);
}

/**
 * struct smcr_diag_conn - what a dump reports of a connection
 * @info: SMC_DIAG_CONNINFO, valid with @registered
 * @lgr: SMC_DIAG_LGRINFO, valid with @listed
 * @registered: the connection is on a link group
 * @listed: that group is still listed, open for new connections
 */
struct smcr_diag_conn {
	struct smc_diag_conninfo info;
	struct smc_diag_lgrinfo lgr;
	bool registered;
	bool listed;
};

/* Read the connection's cursors and link in one go, under conn->lock:
 * conn->lgr changes under it, and its group lives while it is set.
 */
static void smcr_diag_read_conn(struct smcr_sock *smc,
				struct smcr_diag_conn *d)
{
	struct smc_diag_conninfo *ci = &d->info;
	struct smcr_conn *conn = &smc->conn;
	struct smcr_lgr *lgr;
	u8 flags;

	spin_lock(&conn->lock);
	lgr = conn->lgr;
	if (!lgr)
		goto out;
	d->registered = true;
	ci->token = conn->token;
	ci->sndbuf_size = conn->sndbuf.size;
	ci->rmbe_size = conn->rmb.size;
	ci->peer_rmbe_size = conn->peer_size;

	/* what the peer told us last, and what we told it */
	smcr_diag_wire_cursor(&ci->rx_prod, &conn->peer_prod);
	smcr_diag_wire_cursor(&ci->rx_cons, &conn->peer_cons);
	smcr_diag_cursor(&ci->tx_prod, conn->tx_cursor_sent, conn->peer_size);
	smcr_diag_cursor(&ci->tx_cons, conn->rx_cons_sent, conn->rmb.size);

	ci->rx_prod_flags = conn->peer_write_blocked ?
			    SMCR_CDC_PF_WRITE_BLOCKED : 0;
	ci->rx_conn_state_flags = smcr_cdc_conn_state(conn->peer_done_writing,
						      conn->peer_closed,
						      conn->peer_abort);

	flags = 0;
	if (READ_ONCE(conn->write_blocked))
		flags |= SMCR_CDC_PF_WRITE_BLOCKED;
	if (READ_ONCE(conn->urg_tx_pending))
		flags |= SMCR_CDC_PF_URG_DATA_PENDING;
	ci->tx_prod_flags = flags;
	ci->tx_conn_state_flags =
		smcr_cdc_conn_state(READ_ONCE(conn->done_writing),
				    READ_ONCE(conn->closed),
				    READ_ONCE(conn->aborted));

	/* our send buffer: staged, announced to the peer, written */
	smcr_diag_cursor(&ci->tx_prep, conn->tx_prod, conn->sndbuf.size);
	smcr_diag_cursor(&ci->tx_sent, conn->tx_cursor_sent,
			 conn->sndbuf.size);
	smcr_diag_cursor(&ci->tx_fin, conn->tx_done, conn->sndbuf.size);

	d->listed = !list_empty(&lgr->list);
	if (d->listed)
		smcr_diag_fill_lgr(&d->lgr, lgr,
				   conn->link ?: smcr_lgr_primary(lgr));
out:
	spin_unlock(&conn->lock);
}

/* One socket's message; -EMSGSIZE when it does not fit any more */
static int smcr_diag_fill(struct sk_buff *skb, struct netlink_callback *cb,
			  struct smcr_sock *smc, u8 ext)
{
	struct user_namespace *ns = sk_user_ns(NETLINK_CB(cb->skb).sk);
	struct smc_diag_fallback fb;
	struct smcr_diag_conn d;
	struct sock *sk = &smc->sk;
	struct smc_diag_msg *r;
	struct nlmsghdr *nlh;
	u8 shutdown;

	nlh = nlmsg_put_answer(skb, cb, SOCK_DIAG_BY_FAMILY, sizeof(*r),
			       NLM_F_MULTI);
	if (!nlh)
		return -EMSGSIZE;
	r = memset(nlmsg_data(nlh), 0, sizeof(*r));
	/* the family of the socket, not of its TCP connection */
	r->diag_family = AF_SMC;
	r->diag_state = smcr_diag_state(smc);
	r->diag_mode = smc->use_fallback ? SMC_DIAG_MODE_FALLBACK_TCP :
					   SMC_DIAG_MODE_SMCR;
	/* r->diag_shutdown stays 0, as in Linux: SMC_DIAG_SHUTDOWN has it */
	smcr_diag_fill_id(smc, r);
	r->diag_uid = from_kuid_munged(ns, sock_i_uid(sk));
	r->diag_inode = sock_i_ino(sk);

	memset(&d, 0, sizeof(d));
	if (!smc->use_fallback)
		smcr_diag_read_conn(smc, &d);

	/* a peer that is done writing has ended our reading, as in Linux */
	shutdown = READ_ONCE(sk->sk_shutdown);
	if (d.info.rx_conn_state_flags & (SMCR_CDC_CS_PEER_DONE_WRITING |
					  SMCR_CDC_CS_PEER_CONN_CLOSED))
		shutdown |= RCV_SHUTDOWN;
	memset(&fb, 0, sizeof(fb));
	fb.reason = READ_ONCE(smc->fallback_reason);
	fb.peer_diagnosis = READ_ONCE(smc->peer_diagnosis);
	if (nla_put_u8(skb, SMC_DIAG_SHUTDOWN, shutdown) ||
	    nla_put(skb, SMC_DIAG_FALLBACK, sizeof(fb), &fb))
		goto cancel;

	if ((ext & (1 << (SMC_DIAG_CONNINFO - 1))) && d.registered &&
	    nla_put(skb, SMC_DIAG_CONNINFO, sizeof(d.info), &d.info))
		goto cancel;
	if ((ext & (1 << (SMC_DIAG_LGRINFO - 1))) && d.listed &&
	    nla_put(skb, SMC_DIAG_LGRINFO, sizeof(d.lgr), &d.lgr))
		goto cancel;

	nlmsg_end(skb, nlh);
	return 0;
cancel:
	nlmsg_cancel(skb, nlh);
	return -EMSGSIZE;
}

/* A dump goes on where the previous reply ended: cb->args[0] is the list,
 * cb->args[1] how many sockets of this namespace in it were sent. Sockets
 * that come or go between two replies may be missed or sent twice, as
 * with every sock_diag dump.
 */
static int smcr_diag_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct smc_diag_req *req = nlmsg_data(cb->nlh);
	struct net *net = sock_net(skb->sk);
	struct smcr_sock *smc;
	long num;

	spin_lock_bh(&smcr_diag_lock);
	for (; cb->args[0] < ARRAY_SIZE(smcr_diag_socks); cb->args[0]++) {
		num = 0;
		hlist_for_each_entry(smc, &smcr_diag_socks[cb->args[0]],
				     diag_node) {
			if (!net_eq(sock_net(&smc->sk), net) ||
			    num++ < cb->args[1])
				continue;
			if (smcr_diag_fill(skb, cb, smc, req->diag_ext)) {
				cb->args[1] = num - 1;
				goto out;
			}
		}
		cb->args[1] = 0;
	}
out:
	spin_unlock_bh(&smcr_diag_lock);
	return skb->len;
}

/* SOCK_DIAG_BY_FAMILY requests for AF_SMC. Only dumps are answered; any
 * other request gets no reply, as from Linux's module.
 */
static int smcr_diag_request(struct sk_buff *skb, struct nlmsghdr *nlh)
{
	struct netlink_dump_control dump = { .dump = smcr_diag_dump };

	if (nlh->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
	    !(nlh->nlmsg_flags & NLM_F_DUMP))
		return 0;
	if (nlmsg_len(nlh) < sizeof(struct smc_diag_req))
		return -EINVAL;
	return netlink_dump_start(sock_net(skb->sk)->diag_nlsk, skb, nlh,
				  &dump);
}

static const struct sock_diag_handler smcr_diag_handler = {
	.owner	= THIS_MODULE,
	.family	= AF_SMC,
	.dump	= smcr_diag_request,
};

/**
 * smcr_diag_init() - answer sock_diag requests for AF_SMC
 *
 * Return: 0, or -EEXIST when another module (Linux's smc_diag) has them.
 */
int smcr_diag_init(void)
{
	int rc;

	INIT_HLIST_HEAD(&smcr_diag_socks[SMCPROTO_SMC]);
	INIT_HLIST_HEAD(&smcr_diag_socks[SMCPROTO_SMC6]);
	rc = sock_diag_register(&smcr_diag_handler);
	if (rc == -EEXIST)
		pr_err("sock_diag for AF_SMC is taken (is Linux's smc_diag module loaded?)\n");
	return rc;
}

/**
 * smcr_diag_exit() - stop answering sock_diag requests
 *
 * A dump in progress holds a reference on the module, so none runs past
 * the module's unload.
 */
void smcr_diag_exit(void)
{
	sock_diag_unregister(&smcr_diag_handler);
}
