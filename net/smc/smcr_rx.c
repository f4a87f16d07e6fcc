// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: receiving data (RFC 7609 §4.4, §4.5.1).
 *
 * The peer writes into our RMBE; its CDC messages move our producer
 * counter. recvmsg copies out of the RMBE and moves the consumer counter,
 * which goes back to the peer when enough room opened up (§4.5.1) or the
 * peer said it waits for room (§4.5.1, the B bit).
 */

#include <linux/sched/signal.h>
#include <linux/uio.h>
#include <net/sock.h>

#include "smcr.h"
#include "smcr_cdc.h"
#include "smcr_stats.h"

static u64 smcr_rx_avail(struct smcr_conn *conn)
{
	u64 avail;

	spin_lock_bh(&conn->lock);
	avail = conn->rx_prod - conn->rx_cons;
	spin_unlock_bh(&conn->lock);
	return avail;
}

/* Consume up to @to; the receive path reads @rx_cons under conn->lock */
static void smcr_rx_consume(struct smcr_conn *conn, u64 to)
{
	spin_lock_bh(&conn->lock);
	conn->rx_cons = to;
	spin_unlock_bh(&conn->lock);
}

/* Nothing more will arrive: recv returns what is left, then 0 */
static bool smcr_rx_done(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;

	return conn->peer_done_writing || conn->peer_closed ||
	       conn->peer_abort || (smc->sk.sk_shutdown & RCV_SHUTDOWN);
}

/* §4.5.1: a CDC message of its own for the consumer cursor only when the
 * window the peer knows of is below half the RMBE and the update opens at
 * least a tenth of it, or at once when the peer waits for room (B bit).
 * Any other CDC message carries the cursor anyway.
 */
static void smcr_rx_update_cons(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	u64 unsent, peer_window;

	spin_lock_bh(&conn->lock);
	unsent = conn->rx_cons - conn->rx_cons_sent;
	peer_window = conn->rmb.size - (conn->rx_prod - conn->rx_cons_sent);
	spin_unlock_bh(&conn->lock);
	if (!unsent || conn->peer_closed || conn->peer_abort)
		return;
	if (conn->peer_write_blocked ||
	    (unsent >= conn->rmb.size / 10 && peer_window < conn->rmb.size / 2))
		smcr_cdc_send(smc);
}

/* recv(MSG_OOB): the urgent byte, once (§4.7.6, as TCP has it) */
static int smcr_rx_recv_urg(struct smcr_sock *smc, struct msghdr *msg,
			    size_t len, int flags)
{
	struct smcr_conn *conn = &smc->conn;
	u8 byte;
	bool valid;

	spin_lock_bh(&conn->lock);
	valid = conn->urg_valid;
	byte = conn->urg_byte;
	if (valid && !(flags & MSG_PEEK))
		conn->urg_valid = false;
	spin_unlock_bh(&conn->lock);

	if (sock_flag(&smc->sk, SOCK_URGINLINE) || !valid)
		return -EINVAL;
	if (!len) {
		msg->msg_flags |= MSG_TRUNC;
		return 0;
	}
	if (copy_to_iter(&byte, 1, &msg->msg_iter) != 1)
		return -EFAULT;
	msg->msg_flags |= MSG_OOB;
	return 1;
}

/* Position of an unread urgent byte that is out of band, or U64_MAX */
static u64 smcr_rx_mark(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	u64 mark = U64_MAX;

	spin_lock_bh(&conn->lock);
	if (conn->urg_pos && !sock_flag(&smc->sk, SOCK_URGINLINE))
		mark = conn->urg_pos - 1;
	spin_unlock_bh(&conn->lock);
	return mark;
}

/**
 * smcr_rx_atmark() - SIOCATMARK: whether the next byte read is the mark
 * @smc: connection
 *
 * Return: true at the urgent mark.
 */
bool smcr_rx_atmark(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	bool at;

	spin_lock_bh(&conn->lock);
	at = conn->urg_pos && conn->rx_cons == conn->urg_pos - 1;
	spin_unlock_bh(&conn->lock);
	return at;
}

/**
 * smcr_rx_recvmsg() - recvmsg over SMC-R
 * @smc: connection, socket locked
 * @msg: where to
 * @len: bytes wanted
 * @flags: MSG_PEEK, MSG_WAITALL, MSG_DONTWAIT as usual
 *
 * Return: bytes received, 0 at end of stream, or a negative errno.
 */
int smcr_rx_recvmsg(struct smcr_sock *smc, struct msghdr *msg, size_t len,
		    int flags)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct smcr_conn *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	size_t copied = 0, target;
	u64 peek = conn->rx_cons, avail;
	struct smcr_link *link;
	long timeo;
	int rc = 0;

	sock_owned_by_me(sk);
	if (flags & MSG_OOB)
		return smcr_rx_recv_urg(smc, msg, len, flags);
	timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	target = sock_rcvlowat(sk, flags & MSG_WAITALL, len);
	avail = smcr_rx_avail(conn);
	if (avail >= conn->rmb.size)
		smcr_stats_buf_event(smc, true, SMCR_STATS_BUF_FULL);
	if (len < avail)
		smcr_stats_buf_event(smc, true, SMCR_STATS_BUF_SMALL);

	add_wait_queue(sk_sleep(sk), &wait);
	while (copied < len) {
		u64 pos = peek, mark;
		u32 off, n;

		/* taken off its group while we waited (device removal):
		 * the RMB went with it
		 */
		if (!conn->lgr) {
			rc = -ECONNRESET;
			break;
		}
		link = conn->link;
		avail = smcr_rx_avail(conn) - (peek - conn->rx_cons);
		if (!avail) {
			if (copied >= target || smcr_rx_done(smc))
				break;
			if (conn->peer_abort) {
				rc = -ECONNRESET;
				break;
			}
			if (!timeo) {
				rc = -EAGAIN;
				break;
			}
			if (signal_pending(current)) {
				rc = sock_intr_errno(timeo);
				break;
			}
			if (copied)
				smcr_rx_update_cons(smc);
			sk_wait_event(sk, &timeo, smcr_rx_avail(conn) ||
				      smcr_rx_done(smc), &wait);
			continue;
		}
		/* reads stop before the urgent mark; one at it skips the
		 * byte, which is read out of band (§4.7.6, TCP's way)
		 */
		mark = smcr_rx_mark(smc);
		if (peek == mark) {
			if (copied)
				break;
			peek++;
			if (!(flags & MSG_PEEK))
				smcr_rx_consume(conn, peek);
			continue;
		}
		if (peek < mark)
			avail = min(avail, mark - peek);
		off = do_div(pos, conn->rmb.size);
		n = min_t(u64, min_t(u64, avail, len - copied),
			  conn->rmb.size - off);
		ib_dma_sync_single_for_cpu(link->port.dev->ibdev,
					   conn->rmb.dma[link->idx] + off, n,
					   DMA_FROM_DEVICE);
		if (copy_to_iter(conn->rmb.cpu + off, n, &msg->msg_iter) != n) {
			rc = -EFAULT;
			break;
		}
		copied += n;
		peek += n;
		if (!(flags & MSG_PEEK))
			smcr_rx_consume(conn, peek);
	}
	remove_wait_queue(sk_sleep(sk), &wait);

	if (!(flags & MSG_PEEK))
		smcr_rx_update_cons(smc);
	if (copied)
		return copied;
	if (!rc && conn->peer_abort)
		rc = -ECONNRESET;
	return rc;
}

/**
 * smcr_conn_poll() - poll mask of an SMC-R connection
 * @smc: connection
 *
 * Return: the mask.
 */
__poll_t smcr_conn_poll(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	__poll_t mask = 0;

	if (smcr_rx_avail(conn) || smcr_rx_done(smc))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(conn->urg_valid))
		mask |= EPOLLPRI;
	if (conn->peer_done_writing || conn->peer_closed)
		mask |= EPOLLRDHUP;
	if (conn->peer_abort)
		mask |= EPOLLERR | EPOLLHUP;
	else if (conn->peer_closed && conn->closed)
		mask |= EPOLLHUP;
	if (conn->peer_closed || conn->peer_abort || smcr_tx_space(conn)) {
		mask |= EPOLLOUT | EPOLLWRNORM;
	} else {
		smcr_tx_nospace(smc);
		/* room freed meanwhile: its waker may have missed the bit */
		if (smcr_tx_space(conn))
			mask |= EPOLLOUT | EPOLLWRNORM;
	}
	return mask;
}
