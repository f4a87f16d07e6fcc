// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the AF_SMC socket family.
 *
 * An AF_SMC socket starts as TCP on an internal socket (RFC 7609 §3.1),
 * negotiates SMC-R on it with the CLC handshake and, when either side
 * declines, keeps using that TCP connection: every call below then
 * forwards to the internal socket. The listener side lives in
 * smcr_listen.c, the handshake in smcr_clc.c.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/smc.h>
#include <linux/socket.h>
#include <linux/termios.h>
#include <net/ipv6.h>
#include <net/protocol.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "smcr.h"
#include "smcr_cdc.h"
#include "smcr_sysctl.h"
#include "smcr_stats.h"
#include "smcr_trace.h"

/* A connect() in flight: the initial kernel_connect() has been issued */
static bool smcr_connecting(const struct smcr_sock *smc)
{
	return READ_ONCE(smc->connect_pending);
}

/* Every sock is counted from allocation to free: /proc/net/protocols */
static void smcr_destruct(struct sock *sk)
{
	smcr_diag_unlist(smcr_sk(sk));
	mem_cgroup_put(smcr_sk(sk)->memcg);
	sock_prot_inuse_add(sock_net(sk), sk->sk_prot, -1);
}

static void smcr_connect_work(struct work_struct *work);

/* An SMC sock, the socket core's part set up, ready for its internal TCP
 * socket
 */
static void smcr_sock_setup(struct sock *sk, struct socket *sock,
			    int protocol)
{
	struct net *net = sock_net(sk);
	struct smcr_sock *smc;

	/* SO_SNDBUF and SO_RCVBUF start from net.smc.wmem and rmem, doubled
	 * as the socket core doubles what setsockopt() asks for
	 */
	WRITE_ONCE(sk->sk_sndbuf, 2 * smcr_sysctl_buf_size(net, false));
	WRITE_ONCE(sk->sk_rcvbuf, 2 * smcr_sysctl_buf_size(net, true));
	sk->sk_state = SMCR_INIT;
	sk->sk_protocol = protocol;
	sk->sk_destruct = smcr_destruct;

	smc = smcr_sk(sk);
	/* a user's socket charges its buffers to the user's memory cgroup,
	 * even where the handshake work allocates them
	 */
	if (sock)
		smc->memcg = get_mem_cgroup_from_mm(current->mm);
	smc->limit_hs = smcr_stats_hs_limited(net);
	INIT_LIST_HEAD(&smc->accept_list);
	INIT_LIST_HEAD(&smc->accept_q);
	spin_lock_init(&smc->accept_lock);
	INIT_WORK(&smc->connect_work, smcr_connect_work);
	spin_lock_init(&smc->conn.lock);
	smcr_close_init(smc);
	smcr_cdc_init(smc);
	sock_prot_inuse_add(net, sk->sk_prot, 1);
	smcr_diag_list(smc);
}

/**
 * smcr_sock_alloc() - allocate and initialise an AF_SMC sock
 * @net: network namespace
 * @sock: the socket to attach it to, or NULL for a listener's child
 * @protocol: SMCPROTO_SMC or SMCPROTO_SMC6, or IPPROTO_SMC for the child
 *	of such a listener
 * @family: PF_SMC, or the listener's family for a child
 *
 * Return: the new sock with one reference, or NULL without memory.
 */
struct sock *smcr_sock_alloc(struct net *net, struct socket *sock,
			     int protocol, int family)
{
	struct sock *sk;

	sk = sk_alloc(net, PF_SMC, GFP_KERNEL, &smcr_proto, 0);
	if (!sk)
		return NULL;
	sock_init_data(sock, sk);
	sk->sk_family = family;
	smcr_sock_setup(sk, sock, protocol);
	return sk;
}

static int smcr_release(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct smcr_sock *smc;

	if (!sk)
		return 0;
	smc = smcr_sk(sk);

	/* A background connect may be blocked in the TCP connect or in the
	 * handshake while holding the sock lock: cut the TCP connection
	 * first so that it returns, then wait for it.
	 */
	if (smcr_connecting(smc) && smc->clcsock)
		kernel_sock_shutdown(smc->clcsock, SHUT_RDWR);
	flush_work(&smc->connect_work);

	lock_sock(sk);
	if (sk->sk_state == SMCR_LISTEN) {
		sk->sk_state = SMCR_CLOSED;
		release_sock(sk);
		smcr_listen_stop(smc);
		lock_sock(sk);
	}
	if (sk->sk_state == SMCR_ACTIVE && !smc->use_fallback)
		smcr_close_release(smc);
	sk->sk_state = SMCR_CLOSED;
	sk->sk_shutdown = SHUTDOWN_MASK;
	smcr_diag_unlist(smc);
	smcr_clcsock_release(smc);
	sock_orphan(sk);
	sock->sk = NULL;
	release_sock(sk);

	trace_smcr_release(smc);
	sock_put(sk);
	return 0;
}

/* Common address checks; the TCP layer checks the rest */
static int smcr_check_addr(struct sock *sk, struct sockaddr *addr, int len)
{
	if (len < (int)sizeof(addr->sa_family))
		return -EINVAL;
	switch (addr->sa_family) {
	case AF_INET:
		return len < (int)sizeof(struct sockaddr_in) ? -EINVAL : 0;
	case AF_INET6:
		if (!smcr_sk_v6(sk))
			return -EAFNOSUPPORT;
		return len < SIN6_LEN_RFC2133 ? -EINVAL : 0;
	case AF_UNSPEC:
		return 0;
	default:
		return -EAFNOSUPPORT;
	}
}

static int smcr_bind(struct socket *sock, struct sockaddr *addr, int len)
{
	struct sock *sk = sock->sk;
	struct smcr_sock *smc = smcr_sk(sk);
	int rc;

	rc = smcr_check_addr(sk, addr, len);
	if (rc)
		return rc;

	lock_sock(sk);
	if (sk->sk_state != SMCR_INIT || smcr_connecting(smc)) {
		rc = -EINVAL;
		goto out;
	}
	smcr_clcsock_sync_opts(smc);
	rc = kernel_bind(smc->clcsock, addr, len);
out:
	release_sock(sk);
	return rc;
}

/* After TCP is up, run the client side of the handshake. The outcome is an
 * active connection (SMC-R or fallback) or an error that fails connect().
 */
static int smcr_connect_finish(struct smcr_sock *smc)
{
	struct sock *sk = &smc->sk;
	int rc;

	sock_owned_by_me(sk);

	rc = smcr_clc_client(smc);
	if (rc) {
		sk->sk_state = SMCR_CLOSED;
		return rc;
	}
	sk->sk_state = SMCR_ACTIVE;
	trace_smcr_connected(smc);
	return 0;
}

static void smcr_connect_work(struct work_struct *work)
{
	struct smcr_sock *smc = container_of(work, struct smcr_sock,
					     connect_work);
	struct sock *sk = &smc->sk;
	int rc;

	/* A blocking wait for TCP, as connect() would have done */
	rc = kernel_connect(smc->clcsock, (struct sockaddr *)&smc->connect_addr,
			    smc->connect_addrlen, 0);
	if (rc == -EISCONN)
		rc = 0;

	lock_sock(sk);
	if (sk->sk_state != SMCR_INIT || sock_flag(sk, SOCK_DEAD)) {
		rc = -ECONNABORTED;
		goto out;
	}
	if (!rc)
		rc = smcr_connect_finish(smc);
	else
		sk->sk_state = SMCR_CLOSED;
out:
	if (rc)
		sk->sk_err = -rc;
	WRITE_ONCE(smc->connect_pending, false);
	sk->sk_state_change(sk);
	release_sock(sk);
	sock_put(sk);
}

static int smcr_connect(struct socket *sock, struct sockaddr *addr, int len,
			int flags)
{
	struct sock *sk = sock->sk;
	struct smcr_sock *smc = smcr_sk(sk);
	int rc;

	rc = smcr_check_addr(sk, addr, len);
	if (rc)
		return rc;
	if (addr->sa_family == AF_UNSPEC)
		return -EOPNOTSUPP;

	lock_sock(sk);
	switch (sock->state) {
	case SS_CONNECTED:
		rc = sk->sk_state == SMCR_ACTIVE ? -EISCONN : -EINVAL;
		goto out;
	case SS_CONNECTING:
		/* like TCP: report the outcome of a non-blocking connect once */
		if (smcr_connecting(smc)) {
			rc = -EALREADY;
			goto out;
		}
		rc = sock_error(sk);
		if (!rc && sk->sk_state != SMCR_ACTIVE)
			rc = -ECONNABORTED;
		sock->state = rc ? SS_UNCONNECTED : SS_CONNECTED;
		goto out;
	default:
		break;
	}
	if (sk->sk_state != SMCR_INIT) {
		rc = sk->sk_state == SMCR_LISTEN ? -EINVAL : -EISCONN;
		goto out;
	}

	smcr_clcsock_sync_opts(smc);
	/* RFC 7609 §3.5.1: the SYN carries the SMC-R TCP option */
	tcp_sk(smc->clcsock->sk)->syn_smc = 1;

	if (flags & O_NONBLOCK) {
		memcpy(&smc->connect_addr, addr, len);
		smc->connect_addrlen = len;
		rc = kernel_connect(smc->clcsock, addr, len, O_NONBLOCK);
		if (rc && rc != -EINPROGRESS)
			goto out;
		WRITE_ONCE(smc->connect_pending, true);
		sock->state = SS_CONNECTING;
		sock_hold(sk);
		if (!queue_work(smcr_hs_wq, &smc->connect_work))
			sock_put(sk);
		rc = -EINPROGRESS;
		goto out;
	}

	rc = kernel_connect(smc->clcsock, addr, len, 0);
	if (rc)
		goto out;
	rc = smcr_connect_finish(smc);
	if (!rc)
		sock->state = SS_CONNECTED;
out:
	release_sock(sk);
	return rc;
}

static int smcr_getname(struct socket *sock, struct sockaddr *addr, int peer)
{
	struct smcr_sock *smc = smcr_sk(sock->sk);

	if (peer && sock->sk->sk_state != SMCR_ACTIVE &&
	    !smcr_connecting(smc))
		return -ENOTCONN;
	if (!smc->clcsock)
		return -EBADF;
	if (peer)
		return kernel_getpeername(smc->clcsock, addr);
	return kernel_getsockname(smc->clcsock, addr);
}

static __poll_t smcr_poll(struct file *file, struct socket *sock,
			  poll_table *wait)
{
	struct sock *sk = sock->sk;
	struct smcr_sock *smc = smcr_sk(sk);
	__poll_t mask = 0;

	sock_poll_wait(file, sock, wait);

	if (READ_ONCE(sk->sk_err))
		mask |= EPOLLERR;
	switch (READ_ONCE(sk->sk_state)) {
	case SMCR_LISTEN:
		if (!smcr_accept_q_empty(smc))
			mask |= EPOLLIN | EPOLLRDNORM;
		break;
	case SMCR_CLOSED:
		mask |= EPOLLHUP;
		if (smcr_connecting(smc) || !smc->clcsock)
			break;
		mask |= smc->clcsock->ops->poll(file, smc->clcsock, NULL);
		break;
	case SMCR_ACTIVE:
		if (!smc->use_fallback) {
			mask |= smcr_conn_poll(smc);
			break;
		}
		fallthrough;
	case SMCR_INIT:
		if (smcr_connecting(smc))
			break;
		/* TCP's view of the internal socket is ours */
		if (smc->clcsock)
			mask |= smc->clcsock->ops->poll(file, smc->clcsock,
							NULL);
		break;
	}
	return mask;
}

#ifdef SMCR_HAVE_COPY_SPLICE_READ
#define smcr_file_splice_read	copy_splice_read
#else
#define smcr_file_splice_read	generic_file_splice_read
#endif

/* Data calls go to the internal socket once the connection fell back */
static struct socket *smcr_data_sock(struct smcr_sock *smc)
{
	if (READ_ONCE(smc->sk.sk_state) != SMCR_ACTIVE || !smc->use_fallback)
		return NULL;
	smcr_clcsock_sync_opts(smc);
	return smc->clcsock;
}

/* An established connection that did not fall back runs over SMC-R */
static bool smcr_is_rdma(struct smcr_sock *smc)
{
	return READ_ONCE(smc->sk.sk_state) == SMCR_ACTIVE && !smc->use_fallback;
}

static int smcr_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	struct smcr_sock *smc = smcr_sk(sock->sk);
	struct socket *tcp;
	int rc;

	if (smcr_is_rdma(smc)) {
		lock_sock(&smc->sk);
		rc = -EPIPE;
		if (smcr_is_rdma(smc)) {
			rc = smcr_tx_sendmsg(smc, msg, len);
			smcr_stats_tx(smc, msg->msg_flags, len, rc);
		}
		release_sock(&smc->sk);
		return rc;
	}
	tcp = smcr_data_sock(smc);
	if (!tcp)
		return smcr_connecting(smc) ? -EAGAIN : -ENOTCONN;
	return tcp->ops->sendmsg(tcp, msg, len);
}

static int smcr_recvmsg(struct socket *sock, struct msghdr *msg, size_t len,
			int flags)
{
	struct smcr_sock *smc = smcr_sk(sock->sk);
	struct socket *tcp;
	int rc;

	if (smcr_is_rdma(smc)) {
		lock_sock(&smc->sk);
		rc = 0;
		if (smcr_is_rdma(smc)) {
			rc = smcr_rx_recvmsg(smc, msg, len, flags);
			smcr_stats_rx(smc, flags, rc);
		}
		release_sock(&smc->sk);
		return rc;
	}
	tcp = smcr_data_sock(smc);
	if (!tcp)
		return smcr_connecting(smc) ? -EAGAIN : -ENOTCONN;
	return tcp->ops->recvmsg(tcp, msg, len, flags);
}

static ssize_t smcr_splice_read(struct socket *sock, loff_t *ppos,
				struct pipe_inode_info *pipe, size_t len,
				unsigned int flags)
{
	struct smcr_sock *smc = smcr_sk(sock->sk);
	struct socket *tcp;

	/* over SMC-R, splice reads through recvmsg like any file */
	if (smcr_is_rdma(smc)) {
		smcr_stats_splice(smc);
		return smcr_file_splice_read(sock->file, ppos, pipe, len, flags);
	}
	tcp = smcr_data_sock(smc);
	if (!tcp)
		return -ENOTCONN;
	return tcp->ops->splice_read(tcp, ppos, pipe, len, flags);
}

static int smcr_shutdown(struct socket *sock, int how)
{
	struct sock *sk = sock->sk;
	struct smcr_sock *smc = smcr_sk(sk);
	int rc;

	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;

	lock_sock(sk);
	if (sk->sk_state != SMCR_ACTIVE && sk->sk_state != SMCR_LISTEN) {
		rc = -ENOTCONN;
		goto out;
	}
	if (sk->sk_state == SMCR_LISTEN) {
		/* as for TCP, a listener shut down for reading stops */
		if (how == SHUT_WR) {
			rc = 0;
			goto out;
		}
		sk->sk_state = SMCR_CLOSED;
		release_sock(sk);
		smcr_listen_stop(smc);
		lock_sock(sk);
	}
	if (sk->sk_state == SMCR_ACTIVE && !smc->use_fallback) {
		rc = smcr_close_shutdown(smc, how);
		goto out;
	}
	rc = kernel_sock_shutdown(smc->clcsock, how);
	sk->sk_shutdown |= how + 1;
	sk->sk_state_change(sk);
out:
	release_sock(sk);
	return rc;
}

static int smcr_ioctl(struct socket *sock, unsigned int cmd,
		      unsigned long arg)
{
	struct smcr_sock *smc = smcr_sk(sock->sk);
	struct socket *tcp;
	int answer;

	if (smcr_is_rdma(smc)) {
		struct smcr_conn *conn = &smc->conn;

		switch (cmd) {
		case SIOCINQ:
			spin_lock_bh(&conn->lock);
			answer = conn->rx_prod - conn->rx_cons;
			spin_unlock_bh(&conn->lock);
			break;
		case SIOCOUTQ:
			spin_lock_bh(&conn->lock);
			answer = conn->tx_prod - conn->tx_peer_cons;
			spin_unlock_bh(&conn->lock);
			break;
		case SIOCATMARK:
			answer = smcr_rx_atmark(smc);
			break;
		default:
			return -ENOIOCTLCMD;
		}
		return put_user(answer, (int __user *)arg);
	}
	tcp = smcr_data_sock(smc);
	if (!tcp) {
		if (sock->sk->sk_state == SMCR_LISTEN &&
		    (cmd == SIOCINQ || cmd == SIOCOUTQ))
			return -EINVAL;
		return -ENOTCONN;
	}
	return tcp->ops->ioctl(tcp, cmd, arg);
}

/* SOL_SMC has one option, SMC_LIMIT_HS, as Linux's smc.ko has: an int,
 * nonzero to limit handshakes once listening. Unknown names get
 * -EOPNOTSUPP there, and here.
 */
static int smcr_setsockopt_smc(struct smcr_sock *smc, int optname,
			       sockptr_t optval, unsigned int optlen)
{
	int val;

	if (optname != SMC_LIMIT_HS)
		return -EOPNOTSUPP;
	if (optlen < sizeof(val))
		return -EINVAL;
	if (copy_from_sockptr(&val, optval, sizeof(val)))
		return -EFAULT;
	lock_sock(&smc->sk);
	smc->limit_hs = !!val;
	release_sock(&smc->sk);
	return 0;
}

static int smcr_getsockopt_smc(struct smcr_sock *smc, int optname,
			       char __user *optval, int __user *optlen)
{
	int val, len;

	if (optname != SMC_LIMIT_HS)
		return -EOPNOTSUPP;
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	len = min_t(int, len, sizeof(val));
	val = READ_ONCE(smc->limit_hs);
	if (put_user(len, optlen) || copy_to_user(optval, &val, len))
		return -EFAULT;
	return 0;
}

/* SOL_SOCKET options land on our sock (the socket core handles them) and
 * reach the internal socket through smcr_clcsock_sync_opts(); SOL_SMC is
 * ours; every other level belongs to the TCP/IP stack underneath.
 */
static int smcr_setsockopt(struct socket *sock, int level, int optname,
			   sockptr_t optval, unsigned int optlen)
{
	struct sock *sk = sock->sk;
	struct smcr_sock *smc = smcr_sk(sk);
	struct socket *tcp;
	int rc;

	if (level == SOL_SMC)
		return smcr_setsockopt_smc(smc, optname, optval, optlen);
	/* an upper layer protocol on the internal socket would see CLC
	 * messages, or nothing at all over SMC-R: refused, as Linux does
	 */
	if (level == SOL_TCP && optname == TCP_ULP)
		return -EOPNOTSUPP;

	lock_sock(sk);
	tcp = smc->clcsock;
	if (!tcp || sk->sk_state == SMCR_CLOSED)
		rc = -EBADF;
	else
		rc = tcp->ops->setsockopt(tcp, level, optname, optval, optlen);
	release_sock(sk);
	return rc;
}

static int smcr_getsockopt(struct socket *sock, int level, int optname,
			   char __user *optval, int __user *optlen)
{
	struct sock *sk = sock->sk;
	struct smcr_sock *smc = smcr_sk(sk);
	struct socket *tcp;
	int rc;

	if (level == SOL_SMC)
		return smcr_getsockopt_smc(smc, optname, optval, optlen);

	lock_sock(sk);
	tcp = smc->clcsock;
	if (!tcp || sk->sk_state == SMCR_CLOSED)
		rc = -EBADF;
	else
		rc = tcp->ops->getsockopt(tcp, level, optname, optval, optlen);
	release_sock(sk);
	return rc;
}

#ifdef SMCR_HAVE_PROTO_ACCEPT_ARG
static int smcr_accept_op(struct socket *sock, struct socket *newsock,
			  struct proto_accept_arg *arg)
{
	return smcr_accept(sock, newsock, arg->flags, arg->kern);
}
#else
static int smcr_accept_op(struct socket *sock, struct socket *newsock,
			  int flags, bool kern)
{
	return smcr_accept(sock, newsock, flags, kern);
}
#endif

/* The operations of an SMC socket, whatever family it was opened in */
#define SMCR_PROTO_OPS(fam) {				\
	.family		= (fam),			\
	.owner		= THIS_MODULE,			\
	.release	= smcr_release,			\
	.bind		= smcr_bind,			\
	.connect	= smcr_connect,			\
	.socketpair	= sock_no_socketpair,		\
	.accept		= smcr_accept_op,		\
	.getname	= smcr_getname,			\
	.poll		= smcr_poll,			\
	.ioctl		= smcr_ioctl,			\
	.listen		= smcr_listen,			\
	.shutdown	= smcr_shutdown,		\
	.setsockopt	= smcr_setsockopt,		\
	.getsockopt	= smcr_getsockopt,		\
	.sendmsg	= smcr_sendmsg,			\
	.recvmsg	= smcr_recvmsg,			\
	.mmap		= sock_no_mmap,			\
	.splice_read	= smcr_splice_read,		\
}

static const struct proto_ops smcr_proto_ops = SMCR_PROTO_OPS(PF_SMC);

static int smcr_create(struct net *net, struct socket *sock, int protocol,
		       int kern)
{
	struct sock *sk;
	int rc;

	if (sock->type != SOCK_STREAM)
		return -ESOCKTNOSUPPORT;
	if (protocol != SMCPROTO_SMC && protocol != SMCPROTO_SMC6)
		return -EPROTONOSUPPORT;

	sock->state = SS_UNCONNECTED;
	sock->ops = &smcr_proto_ops;
	sk = smcr_sock_alloc(net, sock, protocol, PF_SMC);
	if (!sk)
		return -ENOBUFS;

	rc = smcr_clcsock_create(smcr_sk(sk));
	if (rc) {
		sk->sk_state = SMCR_CLOSED;
		sock_orphan(sk);
		sock->sk = NULL;
		sock_put(sk);
		return rc;
	}
	trace_smcr_sock_create(smcr_sk(sk));
	return 0;
}

static const struct net_proto_family smcr_family = {
	.family	= PF_SMC,
	.owner	= THIS_MODULE,
	.create	= smcr_create,
};

#ifdef SMCR_HAVE_IPPROTO_SMC
/* socket(AF_INET or AF_INET6, SOCK_STREAM, IPPROTO_SMC), as Linux 6.11
 * on has it: an SMC socket that inet_create() or inet6_create() makes
 * through the protos below. A listener's children are socks of
 * smcr_proto with its family and protocol, behind its operations.
 */
/* The lock classes of IPPROTO_SMC socks: inet_create() gave them those
 * of its family, which the internal TCP socket, locked under ours, has
 * too when the kernel made both
 */
static struct lock_class_key smcr_inet_lock_key[2];
static struct lock_class_key smcr_inet_slock_key[2];

static int smcr_inet_init_sock(struct sock *sk)
{
	bool v6 = sk->sk_family == AF_INET6;
	int rc;

	sock_lock_init_class_and_name(sk,
				      v6 ? "slock-AF_INET6-SMCR" :
					   "slock-AF_INET-SMCR",
				      &smcr_inet_slock_key[v6],
				      v6 ? "sk_lock-AF_INET6-SMCR" :
					   "sk_lock-AF_INET-SMCR",
				      &smcr_inet_lock_key[v6]);
	smcr_sock_setup(sk, sk->sk_socket, IPPROTO_SMC);
	rc = smcr_clcsock_create(smcr_sk(sk));
	if (!rc)
		trace_smcr_sock_create(smcr_sk(sk));
	return rc;
}

/* inet_create() gave up after ->init (sk_common_release()): what the
 * socket had goes; smcr_release() does this for one handed out
 */
static void smcr_inet_destroy_sock(struct sock *sk)
{
	smcr_diag_unlist(smcr_sk(sk));
	smcr_clcsock_release(smcr_sk(sk));
}

/* sk_common_release() unhashes; our sockets are listed for sock_diag
 * instead (smcr_diag_list())
 */
static int smcr_inet_hash(struct sock *sk)
{
	return 0;
}

static void smcr_inet_unhash(struct sock *sk)
{
}

static const struct proto_ops smcr_inet_ops = SMCR_PROTO_OPS(PF_INET);

static struct proto smcr_inet_prot = {
	.name		= "SMCR-INET",
	.owner		= THIS_MODULE,
	.init		= smcr_inet_init_sock,
	.destroy	= smcr_inet_destroy_sock,
	.hash		= smcr_inet_hash,
	.unhash		= smcr_inet_unhash,
	.release_cb	= smcr_cdc_release_cb,
	.obj_size	= sizeof(struct smcr_sock),
	.slab_flags	= SLAB_TYPESAFE_BY_RCU,
};

static struct inet_protosw smcr_inet_protosw = {
	.type		= SOCK_STREAM,
	.protocol	= IPPROTO_SMC,
	.prot		= &smcr_inet_prot,
	.ops		= &smcr_inet_ops,
};

#if IS_ENABLED(CONFIG_IPV6) && defined(SMCR_HAVE_IPV6_PINFO_OFFSET)
#define SMCR_HAVE_INET6

/* inet6_create() keeps its ipv6_pinfo where the proto says */
struct smcr6_sock {
	struct smcr_sock	smc;
	struct ipv6_pinfo	inet6;
};

static const struct proto_ops smcr_inet6_ops = SMCR_PROTO_OPS(PF_INET6);

static struct proto smcr_inet6_prot = {
	.name			= "SMCR-INET6",
	.owner			= THIS_MODULE,
	.init			= smcr_inet_init_sock,
	.destroy		= smcr_inet_destroy_sock,
	.hash			= smcr_inet_hash,
	.unhash			= smcr_inet_unhash,
	.release_cb		= smcr_cdc_release_cb,
	.obj_size		= sizeof(struct smcr6_sock),
	.slab_flags		= SLAB_TYPESAFE_BY_RCU,
	.ipv6_pinfo_offset	= offsetof(struct smcr6_sock, inet6),
};

static struct inet_protosw smcr_inet6_protosw = {
	.type		= SOCK_STREAM,
	.protocol	= IPPROTO_SMC,
	.prot		= &smcr_inet6_prot,
	.ops		= &smcr_inet6_ops,
};
#endif

static int smcr_inet_init(void)
{
	int rc;

	rc = proto_register(&smcr_inet_prot, 1);
	if (rc)
		return rc;
	inet_register_protosw(&smcr_inet_protosw);
#ifdef SMCR_HAVE_INET6
	rc = proto_register(&smcr_inet6_prot, 1);
	if (rc)
		goto out_inet;
	rc = inet6_register_protosw(&smcr_inet6_protosw);
	if (rc) {
		proto_unregister(&smcr_inet6_prot);
		goto out_inet;
	}
#endif
	return 0;

#ifdef SMCR_HAVE_INET6
out_inet:
	inet_unregister_protosw(&smcr_inet_protosw);
	proto_unregister(&smcr_inet_prot);
	return rc;
#endif
}

static void smcr_inet_exit(void)
{
#ifdef SMCR_HAVE_INET6
	inet6_unregister_protosw(&smcr_inet6_protosw);
	proto_unregister(&smcr_inet6_prot);
#endif
	inet_unregister_protosw(&smcr_inet_protosw);
	proto_unregister(&smcr_inet_prot);
}
#else
static int smcr_inet_init(void)
{
	return 0;
}

static void smcr_inet_exit(void)
{
}
#endif

/**
 * smcr_af_init() - register the AF_SMC family, and IPPROTO_SMC where the
 *	kernel has it
 *
 * Return: 0, or -EEXIST when another module (Linux's own smc.ko) already
 * owns AF_SMC.
 */
int smcr_af_init(void)
{
	int rc;

	rc = sock_register(&smcr_family);
	if (rc == -EEXIST)
		pr_err("AF_SMC is already registered (is Linux's smc module loaded?); unload it before loading this module\n");
	if (rc)
		return rc;
	rc = smcr_inet_init();
	if (rc)
		sock_unregister(PF_SMC);
	return rc;
}

/**
 * smcr_af_exit() - unregister the AF_SMC family and IPPROTO_SMC
 *
 * After this returns no new SMC socket can be created; existing ones
 * hold a reference on the module, so none is left by then.
 */
void smcr_af_exit(void)
{
	smcr_inet_exit();
	sock_unregister(PF_SMC);
}
