// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the internal TCP socket of every AF_SMC socket.
 *
 * User space waits on the AF_SMC socket, while TCP wakes the internal
 * socket. The callbacks installed here pass each TCP wake-up on, so that
 * poll, epoll and SIGIO on the AF_SMC socket see what TCP sees, whatever
 * the connection turns out to be. Socket options set at SOL_SOCKET level
 * land on the AF_SMC socket and are copied down to TCP from here.
 */

#include <linux/net.h>
#include <linux/poll.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "smcr.h"
#include "smcr_stats.h"
#include "smcr_trace.h"

/* A kernel socket holds no reference on its namespace; ours must. Once
 * smcr_clcsock_release() let go of it, TCP may keep it for FIN_WAIT,
 * retransmissions and TIME_WAIT, and its timers read the namespace long
 * after the AF_SMC socket, and the last process in the namespace, are
 * gone. Make it count like a user socket: the namespace then stays until
 * TCP frees the socket, and TCP's children of a listening one inherit
 * the reference.
 */
static void smcr_clcsock_hold_net(struct sock *clcsk)
{
	struct net *net = sock_net(clcsk);

#ifdef SMCR_HAVE_NETNS_TRACKER_FREE
	/* kernels that track a kernel socket's namespace without a
	 * reference: drop that tracker before taking a counted one
	 */
	__netns_tracker_free(net, &clcsk->ns_tracker, false);
#endif
	clcsk->sk_net_refcnt = 1;
	get_net_track(net, &clcsk->ns_tracker, GFP_KERNEL);
	sock_inuse_add(net, 1);
}

/**
 * smcr_clcsock_create() - create the internal TCP socket of @smc
 * @smc: a new AF_SMC socket
 *
 * The TCP socket belongs to the kernel and lives in the namespace of @smc.
 * It holds a reference on that namespace, as a user's socket does.
 *
 * Return: 0 or a negative errno.
 */
int smcr_clcsock_create(struct smcr_sock *smc)
{
	struct sock *sk = &smc->sk;
	int family = smcr_sk_v6(sk) ? AF_INET6 : AF_INET;
	int rc;

	rc = sock_create_kern(sock_net(sk), family, SOCK_STREAM, IPPROTO_TCP,
			      &smc->clcsock);
	if (rc)
		return rc;
	smcr_clcsock_hold_net(smc->clcsock->sk);
	smcr_clcsock_attach(smc);
	return 0;
}

/* The AF_SMC socket an internal socket's callbacks serve, if any */
static struct smcr_sock *smcr_clcsk_owner(const struct sock *clcsk)
{
	return (struct smcr_sock *)
		((uintptr_t)clcsk->sk_user_data & SK_USER_DATA_PTRMASK);
}

static void smcr_wake(struct smcr_sock *smc, __poll_t events, int band)
{
	struct socket_wq *wq;

	rcu_read_lock();
	wq = rcu_dereference(smc->sk.sk_wq);
	if (skwq_has_sleeper(wq))
		wake_up_interruptible_sync_poll(&wq->wait, events);
	sk_wake_async(&smc->sk, SOCK_WAKE_WAITD, band);
	rcu_read_unlock();
}

/* Each callback runs TCP's own first, then wakes the AF_SMC socket. The
 * read side of sk_callback_lock keeps the owner from going away: detach
 * takes the write side before the owner can be freed.
 */
static void smcr_clcsk_data_ready(struct sock *clcsk)
{
	struct smcr_sock *smc;

	read_lock_bh(&clcsk->sk_callback_lock);
	smc = smcr_clcsk_owner(clcsk);
	if (smc) {
		smc->clcsk_data_ready(clcsk);
		smcr_wake(smc, EPOLLIN | EPOLLRDNORM, POLL_IN);
		/* on a listener: a new TCP connection is ready */
		if (READ_ONCE(smc->sk.sk_state) == SMCR_LISTEN)
			smcr_listen_kick(smc);
	}
	read_unlock_bh(&clcsk->sk_callback_lock);
}

static void smcr_clcsk_write_space(struct sock *clcsk)
{
	struct smcr_sock *smc;

	read_lock_bh(&clcsk->sk_callback_lock);
	smc = smcr_clcsk_owner(clcsk);
	if (smc) {
		smc->clcsk_write_space(clcsk);
		smcr_wake(smc, EPOLLOUT | EPOLLWRNORM | EPOLLWRBAND, POLL_OUT);
	}
	read_unlock_bh(&clcsk->sk_callback_lock);
}

static void smcr_clcsk_state_change(struct sock *clcsk)
{
	struct smcr_sock *smc;

	read_lock_bh(&clcsk->sk_callback_lock);
	smc = smcr_clcsk_owner(clcsk);
	if (smc) {
		smc->clcsk_state_change(clcsk);
		smcr_wake(smc, EPOLLIN | EPOLLOUT | EPOLLHUP | EPOLLRDHUP |
			  EPOLLERR, POLL_HUP);
	}
	read_unlock_bh(&clcsk->sk_callback_lock);
}

static void smcr_clcsk_error_report(struct sock *clcsk)
{
	struct smcr_sock *smc;

	read_lock_bh(&clcsk->sk_callback_lock);
	smc = smcr_clcsk_owner(clcsk);
	if (smc) {
		smc->clcsk_error_report(clcsk);
		smcr_wake(smc, EPOLLERR, POLL_ERR);
	}
	read_unlock_bh(&clcsk->sk_callback_lock);
}

/**
 * smcr_clcsock_attach() - route the internal socket's wake-ups to @smc
 * @smc: AF_SMC socket whose @clcsock is set
 *
 * The owner pointer is marked not to be copied, so TCP children cloned
 * from a listening internal socket do not inherit it.
 */
void smcr_clcsock_attach(struct smcr_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;

	write_lock_bh(&clcsk->sk_callback_lock);
	smc->clcsk_data_ready = clcsk->sk_data_ready;
	smc->clcsk_write_space = clcsk->sk_write_space;
	smc->clcsk_state_change = clcsk->sk_state_change;
	smc->clcsk_error_report = clcsk->sk_error_report;
	clcsk->sk_data_ready = smcr_clcsk_data_ready;
	clcsk->sk_write_space = smcr_clcsk_write_space;
	clcsk->sk_state_change = smcr_clcsk_state_change;
	clcsk->sk_error_report = smcr_clcsk_error_report;
	__rcu_assign_sk_user_data_with_flags(clcsk, smc, SK_USER_DATA_NOCOPY);
	write_unlock_bh(&clcsk->sk_callback_lock);
}

/**
 * smcr_clcsock_detach() - give the internal socket its own callbacks back
 * @smc: AF_SMC socket whose @clcsock is set
 *
 * No callback runs for @smc once this returns.
 */
void smcr_clcsock_detach(struct smcr_sock *smc)
{
	struct sock *clcsk = smc->clcsock->sk;

	write_lock_bh(&clcsk->sk_callback_lock);
	if (smcr_clcsk_owner(clcsk) == smc) {
		clcsk->sk_data_ready = smc->clcsk_data_ready;
		clcsk->sk_write_space = smc->clcsk_write_space;
		clcsk->sk_state_change = smc->clcsk_state_change;
		clcsk->sk_error_report = smc->clcsk_error_report;
		rcu_assign_sk_user_data(clcsk, NULL);
	}
	write_unlock_bh(&clcsk->sk_callback_lock);
}

/**
 * smcr_clcsock_release() - close the internal socket of @smc
 * @smc: AF_SMC socket, no work left that uses its @clcsock
 *
 * TCP closes the connection as it would for a user socket, lingering
 * when SO_LINGER asked for it.
 */
void smcr_clcsock_release(struct smcr_sock *smc)
{
	struct socket *clcsock = smc->clcsock;

	if (!clcsock)
		return;
	smcr_clcsock_detach(smc);
	smc->clcsock = NULL;
	sock_release(clcsock);
}

/* SOL_SOCKET flags whose meaning is TCP's */
static const int smcr_copied_flags[] = {
	SOCK_LINGER, SOCK_URGINLINE, SOCK_RCVTSTAMP, SOCK_RCVTSTAMPNS,
	SOCK_TSTAMP_NEW, SOCK_DBG, SOCK_LOCALROUTE, SOCK_ZEROCOPY, SOCK_TXTIME,
};

/* Copy the SOL_SOCKET settings TCP acts on, SO_KEEPALIVE excepted */
static void smcr_copy_sol_socket(struct sock *to, const struct sock *from)
{
	int i;

	WRITE_ONCE(to->sk_rcvtimeo, READ_ONCE(from->sk_rcvtimeo));
	WRITE_ONCE(to->sk_sndtimeo, READ_ONCE(from->sk_sndtimeo));
	if (READ_ONCE(to->sk_rcvlowat) != READ_ONCE(from->sk_rcvlowat))
		WRITE_ONCE(to->sk_rcvlowat, READ_ONCE(from->sk_rcvlowat));
	for (i = 0; i < ARRAY_SIZE(smcr_copied_flags); i++)
		sock_valbool_flag(to, smcr_copied_flags[i],
				  sock_flag(from, smcr_copied_flags[i]));
	to->sk_lingertime = READ_ONCE(from->sk_lingertime);
	to->sk_reuse = from->sk_reuse;
	to->sk_reuseport = from->sk_reuseport;
	to->sk_bound_dev_if = READ_ONCE(from->sk_bound_dev_if);
	to->sk_priority = READ_ONCE(from->sk_priority);
	to->sk_mark = READ_ONCE(from->sk_mark);

	if (from->sk_userlocks & SOCK_SNDBUF_LOCK) {
		to->sk_userlocks |= SOCK_SNDBUF_LOCK;
		WRITE_ONCE(to->sk_sndbuf, READ_ONCE(from->sk_sndbuf));
	}
	if (from->sk_userlocks & SOCK_RCVBUF_LOCK) {
		to->sk_userlocks |= SOCK_RCVBUF_LOCK;
		WRITE_ONCE(to->sk_rcvbuf, READ_ONCE(from->sk_rcvbuf));
	}
}

/**
 * smcr_clcsock_sync_opts() - copy SOL_SOCKET settings down to TCP
 * @smc: AF_SMC socket
 *
 * The socket core stores SOL_SOCKET options of an AF_SMC socket on it, not
 * on the TCP socket doing the work. This copies what TCP acts on; it runs
 * before bind, listen and connect, and before each call that moves data,
 * so a change made at any time takes effect on the next call. Process
 * context; the caller may or may not hold the AF_SMC socket's lock.
 */
void smcr_clcsock_sync_opts(struct smcr_sock *smc)
{
	struct sock *sk = &smc->sk;
	struct sock *clcsk;
	bool keepalive;

	if (!smc->clcsock)
		return;
	clcsk = smc->clcsock->sk;
	smcr_copy_sol_socket(clcsk, sk);

	keepalive = sock_flag(sk, SOCK_KEEPOPEN);
	if (keepalive != sock_flag(clcsk, SOCK_KEEPOPEN)) {
		lock_sock(clcsk);
		if (clcsk->sk_prot->keepalive)
			clcsk->sk_prot->keepalive(clcsk, keepalive);
		sock_valbool_flag(clcsk, SOCK_KEEPOPEN, keepalive);
		release_sock(clcsk);
	}
}

/**
 * smcr_clcsock_inherit() - give a listener's child the listener's settings
 * @child: new child socket
 * @lsmc: its listener
 *
 * As with TCP, an accepted socket starts with its listener's SOL_SOCKET
 * options; TCP already copied them into the child's internal socket, and
 * the child's own sock must agree or the next sync would undo them.
 */
void smcr_clcsock_inherit(struct smcr_sock *child, struct smcr_sock *lsmc)
{
	smcr_copy_sol_socket(&child->sk, &lsmc->sk);
	sock_valbool_flag(&child->sk, SOCK_KEEPOPEN,
			  sock_flag(&lsmc->sk, SOCK_KEEPOPEN));
}

/**
 * smcr_fallback() - let the connection continue over TCP
 * @smc: AF_SMC socket
 * @reason: CLC decline code saying why (RFC 7609 App. C)
 * @peer_diag: the code the peer declined with, 0 if it did not decline
 *
 * RFC 7609 §3.1: after a decline both peers use the TCP connection as it
 * is; no byte of it was consumed beyond the CLC messages.
 */
void smcr_fallback(struct smcr_sock *smc, u32 reason, u32 peer_diag)
{
	smc->use_fallback = true;
	smc->fallback_reason = reason;
	smc->peer_diagnosis = peer_diag;
	smcr_stats_fallback(smc, reason);
	trace_smcr_fallback(smc, reason, peer_diag);
}
