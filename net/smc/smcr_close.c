// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: closing SMC-R connections (RFC 7609 §4.8).
 *
 * shutdown(SHUT_WR) and close() tell the peer in a CDC message
 * (PeerDoneWriting, PeerConnectionClosed). Our RMBE must outlive the
 * peer's last write into it, so after close() the connection waits in
 * the kernel for the peer's own close, an abort, or the link's end, and
 * only then gives its buffers back. A peer that never closes is given
 * SMCR_CLOSE_WAIT.
 *
 * Aborts (§4.8.2): close() with data left unread aborts the connection,
 * as TCP resets it, and waits for the peer's abort the same way; a peer's
 * abort is answered with ours at once, from a work item, so the peer can
 * give its RMBE back without waiting for our application.
 */

#include <net/sock.h>

#include "smcr.h"
#include "smcr_cdc.h"
#include "smcr_trace.h"

#define SMCR_CLOSE_WAIT		(30 * HZ)
#define SMCR_CLOSE_TX_WAIT	(5 * HZ)

/* Run the close work now. Every queued run of it holds a reference on
 * the socket and drops it when it ran: a run queued while another one
 * executes (a CDC message arriving during smcr_close_free()) brings its
 * own, so no reference is dropped twice.
 */
static void smcr_close_kick(struct smcr_sock *smc)
{
	sock_hold(&smc->sk);
	/* already pending: that run holds its reference */
	if (mod_delayed_work(smcr_hs_wq, &smc->close_work, 0))
		sock_put(&smc->sk);
}

/**
 * smcr_conn_wake() - the peer changed the connection's state
 * @smc: connection, referenced by the caller
 *
 * Context: any. Wakes readers and writers; a closed connection whose peer
 * is now done too is freed.
 */
void smcr_conn_wake(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	struct sock *sk = &smc->sk;

	sk->sk_data_ready(sk);
	smcr_tx_write_space(smc);
	if (READ_ONCE(smc->close_pending) &&
	    (READ_ONCE(conn->peer_closed) || READ_ONCE(conn->peer_abort)))
		smcr_close_kick(smc);
}

/* Give back what the connection holds on its link group */
static void smcr_close_free(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	struct smcr_link *link;

	/* a failover repeats writes out of the send buffer */
	smcr_cdc_link_wait(smc);
	if (!conn->lgr)
		return;
	link = conn->link;
	/* the writes out of our send buffer must be done with it */
	wait_event_timeout(link->tx_wait,
			   READ_ONCE(conn->tx_done) >= conn->tx_prod ||
			   READ_ONCE(link->state) == SMCR_LINK_DOWN,
			   SMCR_CLOSE_TX_WAIT);
	trace_smcr_conn_freed(smc);
	smcr_conn_unregister(smc);
}

static void smcr_close_work(struct work_struct *work)
{
	struct smcr_sock *smc = container_of(to_delayed_work(work),
					     struct smcr_sock, close_work);

	lock_sock(&smc->sk);
	/* a run queued again while one ran finds the connection freed */
	if (smc->close_pending) {
		smcr_close_free(smc);
		WRITE_ONCE(smc->close_pending, false);
	}
	release_sock(&smc->sk);
	sock_put(&smc->sk);	/* the reference of this run */
}

/* Tell the peer the connection is aborted, unless it knows its end */
static void smcr_close_send_abort(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;

	sock_owned_by_me(&smc->sk);
	if (!smcr_cdc_link_wait(smc) || conn->closed || conn->aborted)
		return;
	conn->aborted = true;
	trace_smcr_abort_sent(smc);
	if (smcr_cdc_send(smc))
		conn->peer_abort = true;
}

static void smcr_close_abort_work(struct work_struct *work)
{
	struct smcr_sock *smc = container_of(work, struct smcr_sock,
					     abort_work);

	lock_sock(&smc->sk);
	smcr_close_send_abort(smc);
	release_sock(&smc->sk);
	sock_put(&smc->sk);	/* the reference of the work */
}

/**
 * smcr_close_peer_abort() - the peer aborted the connection
 * @smc: connection, referenced by the caller
 *
 * §4.8.2, passive abort B: the peer's RMBE is free for reuse once we
 * answered with our own abort.
 *
 * Context: softirq.
 */
void smcr_close_peer_abort(struct smcr_sock *smc)
{
	sock_hold(&smc->sk);
	if (!queue_work(smcr_hs_wq, &smc->abort_work))
		sock_put(&smc->sk);
}

/**
 * smcr_close_init() - prepare a socket's closing machinery
 * @smc: socket
 */
void smcr_close_init(struct smcr_sock *smc)
{
	INIT_DELAYED_WORK(&smc->close_work, smcr_close_work);
	INIT_WORK(&smc->abort_work, smcr_close_abort_work);
}

/**
 * smcr_close_shutdown() - shutdown() of an SMC-R connection
 * @smc: connection, socket locked
 * @how: SHUT_RD, SHUT_WR or SHUT_RDWR
 *
 * Return: 0 or a negative errno.
 */
int smcr_close_shutdown(struct smcr_sock *smc, int how)
{
	struct smcr_conn *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	int rc = 0;

	sock_owned_by_me(sk);
	if (how != SHUT_RD) {
		sk->sk_shutdown |= SEND_SHUTDOWN;
		if (!conn->done_writing && !conn->peer_abort &&
		    !conn->aborted) {
			smc->close_passive = READ_ONCE(conn->peer_done_writing) ||
					     READ_ONCE(conn->peer_closed);
			conn->done_writing = true;
			rc = smcr_cdc_send(smc);
		}
	}
	if (how != SHUT_WR)
		sk->sk_shutdown |= RCV_SHUTDOWN;
	sk->sk_state_change(sk);
	return rc;
}

/**
 * smcr_close_release() - close() of an SMC-R connection
 * @smc: connection, socket locked, about to be orphaned
 */
void smcr_close_release(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	bool unread;

	sock_owned_by_me(&smc->sk);
	/* a link that went down may be on its way to another link */
	smcr_cdc_link_wait(smc);
	if (!conn->lgr)
		return;
	spin_lock_bh(&conn->lock);
	unread = conn->rx_prod != conn->rx_cons;
	spin_unlock_bh(&conn->lock);
	if (unread || conn->peer_abort) {
		smcr_close_send_abort(smc);
	} else if (!conn->closed && !conn->aborted &&
		   READ_ONCE(conn->link->state) == SMCR_LINK_ACTIVE) {
		conn->done_writing = true;
		conn->closed = true;
		if (smcr_cdc_send(smc))
			conn->peer_abort = true;
	}
	if (conn->peer_closed || conn->peer_abort ||
	    READ_ONCE(conn->link->state) != SMCR_LINK_ACTIVE) {
		smcr_close_free(smc);
		return;
	}
	/* wait for the peer's close in the background */
	sock_hold(&smc->sk);
	WRITE_ONCE(smc->close_pending, true);
	if (!queue_delayed_work(smcr_hs_wq, &smc->close_work, SMCR_CLOSE_WAIT))
		sock_put(&smc->sk);	/* a wake-up queued it, with its own */
	if (READ_ONCE(conn->peer_closed) || READ_ONCE(conn->peer_abort))
		smcr_close_kick(smc);
}
