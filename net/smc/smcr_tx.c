// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: sending data (RFC 7609 §4.4, §4.5.1).
 *
 * sendmsg copies into the send buffer, writes it into the peer's RMBE with
 * RDMA WRITE (two writes where the RMBE wraps) and then sends a CDC message
 * whose producer cursor covers the new bytes. The peer's consumer cursor
 * says how much of its RMBE is free; the send buffer frees up as the CDC
 * messages after the writes complete.
 */

#include <linux/sched/signal.h>
#include <linux/uio.h>
#include <net/sock.h>

#include "smcr.h"
#include "smcr_cdc.h"
#include "smcr_stats.h"

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
		/* §4.5.1: tell the peer we wait for its consumer cursor */
		if (!conn->write_blocked) {
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

/* Copy @len bytes from @msg to the send buffer at the producer position,
 * and describe them in @sge for the RDMA write
 */
static int smcr_tx_stage(struct smcr_conn *conn, struct msghdr *msg,
			 u32 len, struct ib_sge *sge)
{
	struct smcr_link *link = conn->link;
	u64 pos = conn->tx_prod;
	u32 soff = do_div(pos, conn->sndbuf.size);

	if (copy_from_iter(conn->sndbuf.cpu + soff, len, &msg->msg_iter) !=
	    len)
		return -EFAULT;
	ib_dma_sync_single_for_device(link->port.dev->ibdev,
				      conn->sndbuf.dma[link->idx] + soff, len,
				      DMA_TO_DEVICE);
	sge->addr = conn->sndbuf.dma[link->idx] + soff;
	sge->length = len;
	sge->lkey = link->pd->local_dma_lkey;
	return 0;
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
	struct ib_rdma_wr wr[2];
	struct ib_sge sge[2];
	size_t sent = 0;
	long timeo;
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
	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	while (sent < len) {
		u32 space, n, i, nwr = 0;
		int idx;

		rc = smcr_tx_wait(smc, &timeo);
		if (rc)
			break;
		/* the slot first: staged data always gets its message */
		rc = smcr_cdc_get(smc, &idx);
		if (rc)
			break;
		space = min_t(size_t, smcr_tx_space(conn), len - sent);

		/* at most two pieces: the RMBE or the send buffer wraps */
		for (i = 0; i < 2 && space; i++) {
			u64 pos = conn->tx_prod;
			u32 poff, soff;

			poff = do_div(pos, conn->peer_size);
			pos = conn->tx_prod;
			soff = do_div(pos, conn->sndbuf.size);
			n = min3(space, conn->peer_size - poff,
				 conn->sndbuf.size - soff);
			rc = smcr_tx_stage(conn, msg, n, &sge[i]);
			if (rc)
				break;
			memset(&wr[i], 0, sizeof(wr[i]));
			wr[i].wr.wr_cqe = smcr_link_write_cqe();
			wr[i].wr.opcode = IB_WR_RDMA_WRITE;
			wr[i].wr.sg_list = &sge[i];
			wr[i].wr.num_sge = 1;
			wr[i].remote_addr = conn->peer_rmb + poff;
			wr[i].rkey = conn->peer_rkey;
			if (i)
				wr[i - 1].wr.next = &wr[i].wr;
			/* the receive path reads it under conn->lock */
			spin_lock_bh(&conn->lock);
			conn->tx_prod += n;
			spin_unlock_bh(&conn->lock);
			sent += n;
			space -= n;
			nwr++;
		}
		if (!nwr) {
			smcr_wr_tx_put(conn->link, idx);
			break;
		}
		if (conn->urg_tx_pending && sent == len) {
			conn->urg_tx_pending = false;
			conn->urg_tx_present = true;
		}
		/* on failure the link failed: the connection sees an abort */
		rc = smcr_cdc_post(smc, idx, &wr[0].wr);
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
