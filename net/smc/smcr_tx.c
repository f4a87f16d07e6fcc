// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: sending data (RFC 7609 §4.4, §4.5.1).
 *
 * sendmsg copies into the send buffer, writes it into the peer's RMBE with
 * RDMA WRITE (two writes where the RMBE wraps) and then sends a CDC message
 * whose producer cursor covers the new bytes. The peer's consumer cursor
 * says how much of its RMBE is free; the send buffer frees up as the CDC
 * messages after the writes complete.
 *
 * Small sends cork, as Linux's smc.ko does with net.smc.autocorking_size:
 * while a CDC message of the connection is in flight, their bytes stay
 * staged in the send buffer until there are more than the limit, or the
 * next message of any kind, or the completion of the last one in flight
 * takes them (smcr_cdc.c). One write and one message then carry many.
 */

#include <linux/sched/signal.h>
#include <linux/uio.h>
#include <net/sock.h>

#include "smcr.h"
#include "smcr_cdc.h"
#include "smcr_links.h"
#include "smcr_stats.h"
#include "smcr_sysctl.h"
#include "smcr_trace.h"

/**
 * smcr_tx_space() - bytes sendmsg may write now
 * @conn: connection
 *
 * Return: the room in both the send buffer and the peer's RMBE.
 */
u32 smcr_tx_space(struct smcr_conn *conn)
{
	u64 sndbuf_used, rmbe_used;

	spin_lock_bh(&conn->lock);
	sndbuf_used = conn->tx_prod - conn->tx_done;
	rmbe_used = conn->tx_prod - conn->tx_peer_cons;
	spin_unlock_bh(&conn->lock);
	return min_t(u64, conn->sndbuf.size - sndbuf_used,
		     conn->peer_size - rmbe_used);
}

/**
 * smcr_tx_nospace() - a writer found no room: have it woken for some
 * @smc: connection
 *
 * Set before the writer, or poll(), looks at smcr_tx_space() once more:
 * smcr_tx_write_space() wakes writers only then, so that the completion
 * of each send does not wake a reader too.
 */
void smcr_tx_nospace(struct smcr_sock *smc)
{
	struct socket *sock = smc->sk.sk_socket;

	if (sock)
		set_bit(SOCK_NOSPACE, &sock->flags);
	/* the bit before the caller's look at the cursors */
	smp_mb__after_atomic();
}

/**
 * smcr_tx_write_space() - room may have freed up: wake who waits for it
 * @smc: connection
 *
 * Context: any, after the cursors moved.
 */
void smcr_tx_write_space(struct smcr_sock *smc)
{
	struct sock *sk = &smc->sk;
	struct socket *sock;

	/* the cursors' move before the look at the writers' bit */
	smp_mb();
	rcu_read_lock();
	sock = READ_ONCE(sk->sk_socket);
	if (sock && test_bit(SOCK_NOSPACE, &sock->flags)) {
		clear_bit(SOCK_NOSPACE, &sock->flags);
		sk->sk_write_space(sk);
	}
	rcu_read_unlock();
}

static bool smcr_tx_stop(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;

	return smc->sk.sk_err || conn->peer_abort || conn->peer_closed ||
	       (smc->sk.sk_shutdown & SEND_SHUTDOWN) || conn->done_writing;
}

/* Count which buffer keeps a sender waiting: ours or the peer's RMBE */
static void smcr_tx_count_full(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	bool full, full_peer;

	spin_lock_bh(&conn->lock);
	full = conn->tx_prod - conn->tx_done >= conn->sndbuf.size;
	full_peer = conn->tx_prod - conn->tx_peer_cons >= conn->peer_size;
	spin_unlock_bh(&conn->lock);
	if (full)
		smcr_stats_buf_event(smc, false, SMCR_STATS_BUF_FULL);
	if (full_peer)
		smcr_stats_buf_event(smc, false, SMCR_STATS_BUF_FULL_PEER);
}

/* Wait for room; with the socket lock held, released while waiting */
static int smcr_tx_wait(struct smcr_sock *smc, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct smcr_conn *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	bool counted = false;
	int rc = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	while (!smcr_tx_space(conn)) {
		smcr_tx_nospace(smc);
		if (smcr_tx_space(conn))
			break;
		if (!counted) {
			smcr_tx_count_full(smc);
			counted = true;
		}
		if (smcr_tx_stop(smc)) {
			rc = -EPIPE;
			break;
		}
		if (!*timeo) {
			rc = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			rc = sock_intr_errno(*timeo);
			break;
		}
		/* §4.5.1: tell the peer we wait for its consumer cursor;
		 * bytes still staged go with it, or it could wait for them
		 */
		if (!conn->write_blocked || conn->tx_written != conn->tx_prod) {
			conn->write_blocked = true;
			smcr_cdc_send(smc);
		}
		sk_wait_event(sk, timeo, smcr_tx_space(conn) ||
			      smcr_tx_stop(smc), &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	conn->write_blocked = false;
	return rc;
}

/* Copy up to @len bytes from @msg into the send buffer at the producer
 * position (two pieces where the buffer wraps): how many were copied
 */
static u32 smcr_tx_copy(struct smcr_conn *conn, struct msghdr *msg, u32 len)
{
	u32 copied = 0, soff, n;
	u64 pos;

	while (copied < len) {
		pos = conn->tx_prod + copied;
		soff = do_div(pos, conn->sndbuf.size);
		n = min(len - copied, conn->sndbuf.size - soff);
		n = copy_from_iter(conn->sndbuf.cpu + soff, n, &msg->msg_iter);
		if (!n)
			break;
		copied += n;
	}
	return copied;
}

/* How many bytes a send may leave staged while a CDC message of the
 * connection is in flight: the next message takes them along, or the
 * completion of the last in flight sends them (smcr_cdc.c). Urgent data
 * goes at once.
 */
static u32 smcr_tx_cork_limit(struct smcr_sock *smc, int flags)
{
	if (flags & MSG_OOB)
		return 0;
	return min(smc->conn.sndbuf.size / 2,
		   smcr_sysctl_autocorking_size(sock_net(&smc->sk)));
}

/**
 * smcr_tx_sendmsg() - sendmsg over SMC-R
 * @smc: connection, socket locked
 * @msg: data
 * @len: bytes
 *
 * Return: bytes sent or a negative errno.
 */
int smcr_tx_sendmsg(struct smcr_sock *smc, struct msghdr *msg, size_t len)
{
	struct smcr_conn *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	size_t sent = 0;
	long timeo;
	u32 limit;
	int rc = 0;

	sock_owned_by_me(sk);
	/* taken off its group (device removal): aborted */
	if (!conn->lgr)
		return -EPIPE;
	/* §4.7.5: the last byte of an MSG_OOB send is urgent; until it is
	 * written the peer sees urgent data pending
	 */
	conn->urg_tx_pending = !!(msg->msg_flags & MSG_OOB);
	if (len > conn->sndbuf.size)
		smcr_stats_buf_event(smc, false, SMCR_STATS_BUF_SMALL);
	if (len > conn->peer_size)
		smcr_stats_buf_event(smc, false, SMCR_STATS_BUF_SMALL_PEER);
	limit = smcr_tx_cork_limit(smc, msg->msg_flags);
	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	while (sent < len) {
		bool cork;
		u32 n;

		rc = smcr_tx_wait(smc, &timeo);
		if (rc)
			break;
		/* taken off its group while the socket lock was released */
		if (!conn->lgr || conn->aborted) {
			rc = -EPIPE;
			break;
		}
		n = min_t(size_t, smcr_tx_space(conn), len - sent);
		n = smcr_tx_copy(conn, msg, n);
		if (!n) {
			rc = -EFAULT;
			break;
		}
		sent += n;
		if (conn->urg_tx_pending && sent == len) {
			conn->urg_tx_pending = false;
			conn->urg_tx_present = true;
		}
		/* the receive path and the completion of the last CDC
		 * message in flight read them under conn->lock: either it
		 * sees these bytes staged or we see nothing in flight
		 */
		spin_lock_bh(&conn->lock);
		conn->tx_prod += n;
		cork = conn->tx_inflight &&
		       conn->tx_prod - conn->tx_written <= limit;
		spin_unlock_bh(&conn->lock);
		if (cork)
			continue;
		/* on failure the link failed: what was staged goes over the
		 * link the connection moves to, or it aborts
		 */
		rc = smcr_cdc_send(smc);
		if (rc)
			break;
	}
	conn->urg_tx_pending = false;
	if (sent)
		return sent;
	if (rc == -EPIPE && !(msg->msg_flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
	return rc;
}

/**
 * smcr_tx_move() - failover: send over another link of the group
 * @smc: connection, referenced by the caller
 * @from: the link it sent on, down
 * @to: an active link of its group
 *
 * §2.1, §3.5.5.4: the connection goes on over @to. Writes whose CDC
 * message did not complete may not have landed: from there, or from the
 * peer's consumer cursor if that is further (what it consumed landed),
 * they are written again, into the peer's RMB by its rkey on @to, the
 * same bytes to the same place; a CDC message with our cursors and flags
 * follows, as the one in flight may be lost. Its sequence number goes on
 * from the last one (A.4), so the peer drops any older message still to
 * come over @from.
 *
 * Context: process, takes the socket lock.
 * Return: 0 once the connection sends over @to, else a negative errno.
 */
int smcr_tx_move(struct smcr_sock *smc, struct smcr_link *from,
		 struct smcr_link *to)
{
	struct smcr_conn *conn = &smc->conn;
	u64 start, vaddr;
	int rc, idx;
	u32 rkey;

	lock_sock(&smc->sk);
	if (conn->link != from) {
		release_sock(&smc->sk);
		return 0;
	}
	start = conn->tx_prod;
	/* a handshake holds the socket lock: the peer's RMB is known */
	rc = smcr_links_peer_rmb(conn->lgr, from, to, conn->peer_rkey, &rkey,
				 &vaddr);
	if (rc)
		goto out;
	spin_lock_bh(&conn->lock);
	conn->link = to;
	conn->peer_rkey = rkey;
	conn->peer_rmb = vaddr;
	start = max(conn->tx_done, conn->tx_peer_cons);
	spin_unlock_bh(&conn->lock);
	rc = smcr_cdc_get(smc, &idx);
	if (rc)
		goto out;
	rc = smcr_cdc_post(smc, idx, start);
out:
	trace_smcr_conn_moved(smc, from, to, conn->tx_prod - start, rc);
	release_sock(&smc->sk);
	smc->sk.sk_state_change(&smc->sk);
	return rc;
}
