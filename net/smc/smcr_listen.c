// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: listening AF_SMC sockets.
 *
 * A listener owns a listening TCP socket. Each TCP connection it accepts
 * becomes a child AF_SMC socket that runs the server side of the CLC
 * handshake in a work item of its own (RFC 7609 §3.5.1), so one slow or
 * silent client never holds up the others. Children whose handshake ended
 * wait in the accept queue until accept() takes them.
 *
 * accept() returns children in the order their handshakes ended, which is
 * the order a client connecting one connection after the other saw its
 * connect()s return, as TCP has it. A child therefore takes its place in
 * the queue at the moment its client may consider the connection up, and
 * not later: the server side of SMC-R handshakes queues its child once
 * the client's last message of it arrived (smcr_clc.c), after those of
 * the handshakes to the same peer that joined their link group before it
 * (smcr_lgr_hs_turn()), since their workers may run late; every other
 * child is queued as soon as its handshake returns, with no sleep in
 * between. A queued child may still be locked by the end of its handshake
 * work; user space calls on it wait for that.
 */

#include <linux/net.h>
#include <linux/sched/signal.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "smcr.h"
#include "smcr_trace.h"

/**
 * smcr_accept_q_empty() - whether accept() would have to wait
 * @lsmc: listening socket
 *
 * Return: true when no child is ready. Lockless: for poll.
 */
bool smcr_accept_q_empty(struct smcr_sock *lsmc)
{
	return list_empty_careful(&lsmc->accept_q);
}

static struct smcr_sock *smcr_accept_dequeue(struct smcr_sock *lsmc)
{
	struct smcr_sock *child;

	spin_lock(&lsmc->accept_lock);
	child = list_first_entry_or_null(&lsmc->accept_q, struct smcr_sock,
					 accept_list);
	if (child)
		list_del_init(&child->accept_list);
	spin_unlock(&lsmc->accept_lock);
	return child;
}

/* End a child that never reached user space */
static void smcr_child_destroy(struct smcr_sock *child)
{
	struct sock *sk = &child->sk;

	/* smcr_listen_stop() holds the listener's lock: the child's nests */
	lock_sock_nested(sk, SINGLE_DEPTH_NESTING);
	if (sk->sk_state == SMCR_ACTIVE && !child->use_fallback)
		smcr_close_release(child);
	sk->sk_state = SMCR_CLOSED;
	smcr_diag_unlist(child);
	smcr_clcsock_release(child);
	sock_orphan(sk);
	release_sock(sk);
	sock_put(sk);
}

/**
 * smcr_accept_enqueue() - queue a child for accept()
 * @child: child whose handshake ended with the connection up, over SMC-R
 *	or TCP, its socket locked
 *
 * Gives @child its place in the listener's accept queue, or none when the
 * listener stopped listening (its handshake work then ends it). Called at
 * the point the client may take the connection as up, see the top of this
 * file; a second call does nothing. Once queued, @child belongs to the
 * queue: accept() may hand it to user space at once, so its handshake must
 * not fail afterwards.
 *
 * Context: process, lock_sock(@child) held, which keeps @child->listener
 * stable; the handshake work holds a reference on the listener.
 */
void smcr_accept_enqueue(struct smcr_sock *child)
{
	struct smcr_sock *lsmc = child->listener;
	struct sock *lsk;

	sock_owned_by_me(&child->sk);
	if (!lsmc)
		return;		/* queued already */
	lsk = &lsmc->sk;
	/* up, queued or not: smcr_child_destroy() closes it as such */
	child->sk.sk_state = SMCR_ACTIVE;

	/* smcr_listen_stop() empties the queue after the listener left
	 * SMCR_LISTEN, taking accept_lock: a child added under accept_lock
	 * while it listens is found there, a later one sees the new state
	 */
	spin_lock(&lsmc->accept_lock);
	if (READ_ONCE(lsk->sk_state) != SMCR_LISTEN) {
		spin_unlock(&lsmc->accept_lock);
		return;
	}
	child->listener = NULL;
	list_add_tail(&child->accept_list, &lsmc->accept_q);
	spin_unlock(&lsmc->accept_lock);
	trace_smcr_accept_queued(child);
	lsk->sk_data_ready(lsk);
}

static void smcr_handshake_work(struct work_struct *work)
{
	struct smcr_sock *child = container_of(work, struct smcr_sock,
					       handshake_work);
	struct smcr_sock *lsmc = child->listener;
	struct sock *lsk = &lsmc->sk;
	bool queued;
	int rc;

	lock_sock(&child->sk);
	if (!tcp_sk(child->clcsock->sk)->syn_smc) {
		/* RFC 7609 §3.5.1: no option in the SYN, plain TCP */
		smcr_fallback(child, SMCR_CLC_DECL_PEERNOSMC, 0);
		rc = 0;
	} else {
		/* an SMC-R handshake queues its child itself */
		rc = smcr_clc_server(child);
	}
	if (!rc)
		smcr_accept_enqueue(child);
	queued = !child->listener;
	WARN_ON_ONCE(rc && queued);
	child->listener = NULL;
	release_sock(&child->sk);

	/* a queued child is the queue's: hands off */
	if (!queued) {
		lock_sock(lsk);
		sk_acceptq_removed(lsk);
		release_sock(lsk);
		smcr_child_destroy(child);
	}
	sock_put(lsk);
}

/* Turn a TCP connection accepted on the listener into a child */
static int smcr_child_new(struct smcr_sock *lsmc, struct socket *clcsock)
{
	struct sock *lsk = &lsmc->sk;
	struct sock *newclcsk = clcsock->sk;
	struct smcr_sock *child;
	struct sock *sk;

	sk = smcr_sock_alloc(sock_net(lsk), NULL, lsk->sk_protocol,
			     lsk->sk_family);
	if (!sk)
		return -ENOMEM;
	child = smcr_sk(sk);
	child->clcsock = clcsock;
	smcr_clcsock_inherit(child, lsmc);
	smcr_memcg_inherit(child, lsmc);

	/* TCP cloned the listener's callbacks into the new socket; with the
	 * owner left behind they do nothing. Give it TCP's own, then ours.
	 */
	write_lock_bh(&newclcsk->sk_callback_lock);
	newclcsk->sk_data_ready = lsmc->clcsk_data_ready;
	newclcsk->sk_write_space = lsmc->clcsk_write_space;
	newclcsk->sk_state_change = lsmc->clcsk_state_change;
	newclcsk->sk_error_report = lsmc->clcsk_error_report;
	write_unlock_bh(&newclcsk->sk_callback_lock);
	smcr_clcsock_attach(child);

	sock_hold(lsk);
	child->listener = lsmc;
	sk_acceptq_added(lsk);
	INIT_WORK(&child->handshake_work, smcr_handshake_work);
	queue_work(smcr_hs_wq, &child->handshake_work);
	return 0;
}

static void smcr_listen_work(struct work_struct *work)
{
	struct smcr_sock *lsmc = container_of(work, struct smcr_sock,
					      listen_work);
	struct sock *lsk = &lsmc->sk;
	struct socket *clcsock;

	lock_sock(lsk);
	while (lsk->sk_state == SMCR_LISTEN && !sk_acceptq_is_full(lsk)) {
		if (kernel_accept(lsmc->clcsock, &clcsock, O_NONBLOCK))
			break;
		if (smcr_child_new(lsmc, clcsock)) {
			sock_release(clcsock);
			break;
		}
	}
	release_sock(lsk);
	sock_put(lsk);
}

/**
 * smcr_listen_kick() - look for new TCP connections on a listener
 * @lsmc: listening socket
 *
 * Any context: called from the internal socket's data_ready callback.
 */
void smcr_listen_kick(struct smcr_sock *lsmc)
{
	sock_hold(&lsmc->sk);
	if (!queue_work(smcr_hs_wq, &lsmc->listen_work))
		sock_put(&lsmc->sk);
}

/* Handshake limitation (SOL_SMC SMC_LIMIT_HS, as Linux's smc.ko has it):
 * TCP asks this of a listener for each SYN carrying the SMC option
 * (RFC 7609 §3.5.1). While handshakes wait for a worker, the SYN-ACK goes
 * out without the option, and client and server run that connection over
 * TCP (decline code SMCR_CLC_DECL_PEERNOSMC) rather than queue one more
 * handshake. Softirq context; the listener's TCP socket is held.
 */
static bool smcr_hs_congested(const struct sock *clcsk)
{
	return workqueue_congested(WORK_CPU_UNBOUND, smcr_hs_wq);
}

/**
 * smcr_listen() - listen() for AF_SMC
 * @sock: socket
 * @backlog: longest accept queue
 *
 * Return: 0 or a negative errno.
 */
int smcr_listen(struct socket *sock, int backlog)
{
	struct sock *sk = sock->sk;
	struct smcr_sock *smc = smcr_sk(sk);
	int rc = -EINVAL;

	lock_sock(sk);
	if (sock->state != SS_UNCONNECTED)
		goto out;
	if (sk->sk_state == SMCR_LISTEN) {
		rc = kernel_listen(smc->clcsock, backlog);
		if (!rc)
			WRITE_ONCE(sk->sk_max_ack_backlog, backlog);
		goto out;
	}
	if (sk->sk_state != SMCR_INIT)
		goto out;

	smcr_clcsock_sync_opts(smc);
	/* RFC 7609 §3.5.1: answer SMC-capable SYNs with the option */
	tcp_sk(smc->clcsock->sk)->syn_smc = 1;
	if (smc->limit_hs)
		tcp_sk(smc->clcsock->sk)->smc_hs_congested = smcr_hs_congested;
	INIT_WORK(&smc->listen_work, smcr_listen_work);
	rc = kernel_listen(smc->clcsock, backlog);
	if (rc)
		goto out;
	WRITE_ONCE(sk->sk_max_ack_backlog, backlog);
	sk->sk_ack_backlog = 0;
	sk->sk_state = SMCR_LISTEN;
	trace_smcr_listen(smc);
	/* connections that completed before the state changed */
	smcr_listen_kick(smc);
out:
	release_sock(sk);
	return rc;
}

/**
 * smcr_listen_stop() - end a listener's background work and its children
 * @lsmc: socket that was listening, its state already changed
 *
 * Children still in their handshake see the new state and end themselves.
 */
void smcr_listen_stop(struct smcr_sock *lsmc)
{
	struct sock *lsk = &lsmc->sk;
	struct smcr_sock *child;

	if (cancel_work_sync(&lsmc->listen_work))
		sock_put(lsk);

	lock_sock(lsk);
	while ((child = smcr_accept_dequeue(lsmc))) {
		sk_acceptq_removed(lsk);
		smcr_child_destroy(child);
	}
	release_sock(lsk);
}

/**
 * smcr_accept() - accept() for AF_SMC
 * @sock: listening socket
 * @newsock: socket to graft the child on
 * @flags: file flags of the call (O_NONBLOCK)
 * @kern: whether the caller is the kernel
 *
 * Return: 0 or a negative errno.
 */
int smcr_accept(struct socket *sock, struct socket *newsock, int flags,
		bool kern)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *lsk = sock->sk;
	struct smcr_sock *lsmc = smcr_sk(lsk);
	struct smcr_sock *child;
	bool was_full;
	long timeo;
	int rc = 0;

	lock_sock(lsk);
	if (lsk->sk_state != SMCR_LISTEN) {
		rc = -EINVAL;
		goto out;
	}

	timeo = sock_rcvtimeo(lsk, flags & O_NONBLOCK);
	add_wait_queue_exclusive(sk_sleep(lsk), &wait);
	while (!(child = smcr_accept_dequeue(lsmc))) {
		if (!timeo) {
			rc = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			rc = sock_intr_errno(timeo);
			break;
		}
		sk_wait_event(lsk, &timeo, !smcr_accept_q_empty(lsmc) ||
			      lsk->sk_state != SMCR_LISTEN, &wait);
		if (lsk->sk_state != SMCR_LISTEN) {
			rc = -EINVAL;
			break;
		}
	}
	remove_wait_queue(sk_sleep(lsk), &wait);
	if (!child)
		goto out;

	was_full = sk_acceptq_is_full(lsk);
	sk_acceptq_removed(lsk);
	sock_graft(&child->sk, newsock);
	newsock->state = SS_CONNECTED;
	trace_smcr_accepted(child);
	/* TCP connections may be waiting for room in the queue */
	if (was_full)
		smcr_listen_kick(lsmc);
out:
	release_sock(lsk);
	return rc;
}
