// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: connection data control messages (RFC 7609 §4.3, Appendix A.4).
 *
 * A CDC message carries a connection's producer cursor (how far it wrote
 * into the peer's RMBE), its consumer cursor (how far it read its own
 * RMBE) and the flags of §4.5 and §4.8. The cursors travel as wrap count
 * and offset; here they are kept as byte counters that only grow.
 */

#include <linux/sched/signal.h>

#include "smcr.h"
#include "smcr_cdc.h"
#include "smcr_trace.h"

/* how long a sender waits for its connection to move off a failed link */
#define SMCR_CDC_MOVE_WAIT	(15 * HZ)

/* The wire form of a byte counter over a buffer of @size bytes (A.4) */
static void smcr_cdc_to_cursor(struct smcr_cdc_cursor *c, u64 bytes,
			       u32 size)
{
	c->wrap = (u16)div_u64_rem(bytes, size, &c->count);
}

/* Whether a connection's link is down while its group may move it to
 * another; Context: the socket locked
 */
static bool smcr_cdc_moving(struct smcr_conn *conn)
{
	return conn->lgr && READ_ONCE(conn->link->state) == SMCR_LINK_DOWN &&
	       !READ_ONCE(conn->lgr->terminating) && !conn->peer_abort;
}

/**
 * smcr_cdc_link_wait() - wait out the failover of a connection's link
 * @smc: connection
 *
 * A connection whose link went down moves to another link of its group
 * (smcr_tx_move()), which takes the socket lock: released meanwhile, for
 * up to SMCR_CDC_MOVE_WAIT. Without another link the group ends and its
 * connections abort.
 *
 * Context: process, the socket locked.
 * Return: true when the connection has an active link.
 */
bool smcr_cdc_link_wait(struct smcr_sock *smc)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct smcr_conn *conn = &smc->conn;
	long timeo = SMCR_CDC_MOVE_WAIT;
	struct sock *sk = &smc->sk;

	sock_owned_by_me(sk);
	if (smcr_cdc_moving(conn)) {
		add_wait_queue(sk_sleep(sk), &wait);
		while (timeo && !signal_pending(current) &&
		       smcr_cdc_moving(conn))
			sk_wait_event(sk, &timeo, !smcr_cdc_moving(conn),
				      &wait);
		remove_wait_queue(sk_sleep(sk), &wait);
	}
	return conn->lgr &&
	       READ_ONCE(conn->link->state) == SMCR_LINK_ACTIVE;
}

/**
 * smcr_cdc_get() - take a send slot for a CDC message of @smc
 * @smc: connection
 * @idx: the slot taken
 *
 * Taken before the data a message announces is staged, so that data is
 * never counted as sent without a message to announce it. On a link that
 * went down it first waits for the connection to move to another.
 *
 * Context: process, the socket locked; waits up to SMCR_WR_TX_WAIT (and
 * SMCR_CDC_MOVE_WAIT, the socket lock released).
 * Return: 0 or a negative errno.
 */
int smcr_cdc_get(struct smcr_sock *smc, int *idx)
{
	u8 *buf;

	sock_owned_by_me(&smc->sk);
	/* taken off its group: the link is gone */
	if (!smcr_cdc_link_wait(smc))
		return -ENOLINK;
	buf = smcr_wr_tx_get(smc->conn.link, idx);
	return IS_ERR(buf) ? PTR_ERR(buf) : 0;
}

/* RDMA writes of one range of the send buffer: it and the RMBE may wrap */
#define SMCR_CDC_PIECES		3
/* how long staged bytes wait when no send slot was free for them */
#define SMCR_CDC_UNCORK_RETRY	HZ

/* Queue @smc's uncork work after @delay jiffies, or now for 0: it holds
 * a reference on the socket while pending
 */
static void smcr_cdc_uncork(struct smcr_sock *smc, unsigned long delay)
{
	sock_hold(&smc->sk);
	if (!delay) {
		/* pending already: it runs now, on the reference it has */
		if (mod_delayed_work(smcr_hs_wq, &smc->uncork_work, 0))
			sock_put(&smc->sk);
	} else if (!queue_delayed_work(smcr_hs_wq, &smc->uncork_work, delay)) {
		sock_put(&smc->sk);
	}
}

/* Whether bytes are staged and may go now; on a link that went down the
 * move to another sends them (or the connection aborts). Context: the
 * socket held by its owner, or its spinlock taken with no owner.
 */
static bool smcr_cdc_flush_due(const struct smcr_conn *conn)
{
	return conn->lgr && !conn->aborted && !conn->peer_abort &&
	       conn->tx_written != conn->tx_prod &&
	       READ_ONCE(conn->link->state) == SMCR_LINK_ACTIVE;
}

/* Send what sendmsg staged behind a CDC message that was in flight */
static void smcr_cdc_uncork_work(struct work_struct *work)
{
	struct smcr_sock *smc = container_of(to_delayed_work(work),
					     struct smcr_sock, uncork_work);
	struct smcr_conn *conn = &smc->conn;

	lock_sock(&smc->sk);
	if (smcr_cdc_flush_due(conn))
		smcr_cdc_send(smc);
	release_sock(&smc->sk);
	sock_put(&smc->sk);	/* the reference of the work */
}

/**
 * smcr_cdc_init() - prepare a socket's CDC sending
 * @smc: new socket
 */
void smcr_cdc_init(struct smcr_sock *smc)
{
	INIT_DELAYED_WORK(&smc->uncork_work, smcr_cdc_uncork_work);
}

/* Send what sendmsg staged, without waiting for a send slot: false when
 * none was free. Context: the socket held as its owner holds it, in
 * softirq with its spinlock taken and no owner, or by its owner inside
 * release_sock().
 */
static bool smcr_cdc_flush_atomic(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	int idx;

	if (!smcr_cdc_flush_due(conn))
		return true;
	if (IS_ERR(smcr_wr_tx_tryget(conn->link, &idx)))
		return false;
	smcr_cdc_post(smc, idx, conn->tx_written);
	return true;
}

/**
 * smcr_cdc_release_cb() - the socket's owner releases it
 * @sk: socket
 *
 * The proto's ->release_cb: what a completion could not send while a
 * process owned the socket goes now.
 *
 * Context: release_sock(), its spinlock held.
 */
void smcr_cdc_release_cb(struct sock *sk)
{
	struct smcr_sock *smc = smcr_sk(sk);

	if (!smc->conn.tx_uncork)
		return;
	smc->conn.tx_uncork = false;
	if (!smcr_cdc_flush_atomic(smc))
		smcr_cdc_uncork(smc, 0);
}

/* A CDC message's send completed (softirq): its connection's send buffer
 * is free up to the cookie, since the writes before it completed too.
 * The last one in flight lets out what sendmsg corked meanwhile, as
 * Linux's smc.ko does: from here, or when the socket's owner releases
 * it, or, with no send slot free, from the uncork work.
 */
static void smcr_cdc_tx_done(struct smcr_wr_tx *slot, bool ok)
{
	struct smcr_sock *smc = slot->ctx;
	struct smcr_conn *conn = &smc->conn;
	struct sock *sk = &smc->sk;
	bool uncork;

	spin_lock_bh(&conn->lock);
	if (ok && slot->cookie > conn->tx_done)
		conn->tx_done = slot->cookie;
	uncork = !--conn->tx_inflight && ok &&
		 conn->tx_written != conn->tx_prod;
	spin_unlock_bh(&conn->lock);
	if (uncork) {
		bh_lock_sock(sk);
		if (sock_owned_by_user(sk))
			conn->tx_uncork = true;
		else if (!smcr_cdc_flush_atomic(smc))
			smcr_cdc_uncork(smc, 0);
		bh_unlock_sock(sk);
	}
	smcr_tx_write_space(smc);
	sock_put(sk);
}

/* The RDMA writes of the send buffer's bytes @from to @to into the
 * peer's RMBE over @link, chained in @wr: one piece, two where the RMBE
 * or the send buffer wraps, three where both do. Returns how many.
 */
static int smcr_cdc_writes(struct smcr_conn *conn, struct smcr_link *link,
			   u64 from, u64 to, struct ib_rdma_wr *wr,
			   struct ib_sge *sge)
{
	u32 poff, soff, n;
	u64 pos;
	int i;

	for (i = 0; from < to && i < SMCR_CDC_PIECES; i++) {
		pos = from;
		poff = do_div(pos, conn->peer_size);
		pos = from;
		soff = do_div(pos, conn->sndbuf.size);
		n = min3(to - from, (u64)conn->peer_size - poff,
			 (u64)conn->sndbuf.size - soff);
		ib_dma_sync_single_for_device(link->port.dev->ibdev,
					      conn->sndbuf.dma[link->idx] + soff,
					      n, DMA_TO_DEVICE);
		sge[i].addr = conn->sndbuf.dma[link->idx] + soff;
		sge[i].length = n;
		sge[i].lkey = link->pd->local_dma_lkey;
		memset(&wr[i], 0, sizeof(wr[i]));
		wr[i].wr.wr_cqe = smcr_link_write_cqe();
		wr[i].wr.opcode = IB_WR_RDMA_WRITE;
		wr[i].wr.sg_list = &sge[i];
		wr[i].wr.num_sge = 1;
		wr[i].remote_addr = conn->peer_rmb + poff;
		wr[i].rkey = conn->peer_rkey;
		if (i)
			wr[i - 1].wr.next = &wr[i].wr;
		from += n;
	}
	return i;
}

/**
 * smcr_cdc_post() - send a CDC message for @smc, after RDMA writes
 * @smc: connection
 * @idx: slot from smcr_cdc_get() or smcr_wr_tx_tryget()
 * @from: the first byte of the send buffer to write into the peer's RMBE
 *	first: all from there to the producer cursor the message carries
 *	are written before it (RC keeps the order, §4.4)
 *
 * Context: the socket locked: by a process, or in softirq with its
 * spinlock and no owner.
 * Return: 0 or a negative errno; the slot is consumed either way.
 */
int smcr_cdc_post(struct smcr_sock *smc, int idx, u64 from)
{
	struct smcr_conn *conn = &smc->conn;
	struct smcr_link *link = conn->link;
	u8 *buf = link->tx_bufs + idx * SMCR_WR_SIZE;
	struct ib_rdma_wr wr[SMCR_CDC_PIECES];
	struct ib_sge sge[SMCR_CDC_PIECES];
	struct smcr_wr_tx *slot;
	struct smcr_cdc_msg m = {};
	int rc, n;

	sock_owned_by_me(&smc->sk);
	m.seqno = ++conn->tx_seq;
	m.token = conn->peer_token;
	smcr_cdc_to_cursor(&m.prod, conn->tx_prod, conn->peer_size);
	smcr_cdc_to_cursor(&m.cons, conn->rx_cons, conn->rmb.size);
	if (conn->write_blocked)
		m.prod_flags |= SMCR_CDC_PF_WRITE_BLOCKED;
	if (conn->urg_tx_pending)
		m.prod_flags |= SMCR_CDC_PF_URG_DATA_PENDING;
	if (conn->urg_tx_present)
		m.prod_flags |= SMCR_CDC_PF_URG_DATA_PRESENT;
	m.conn_state_flags = smcr_cdc_conn_state(conn->done_writing,
						 conn->closed, conn->aborted);
	rc = smcr_cdc_msg_encode(&m, buf, SMCR_WR_SIZE);
	if (rc < 0) {
		smcr_wr_tx_put(link, idx);
		return rc;
	}
	n = smcr_cdc_writes(conn, link, from, conn->tx_prod, wr, sge);

	/* the send buffer is free up to here once this message completed */
	slot = &link->tx_slots[idx];
	slot->done = smcr_cdc_tx_done;
	slot->ctx = smc;
	slot->cookie = conn->tx_prod;
	sock_hold(&smc->sk);
	/* its completion may come before the post returns */
	spin_lock_bh(&conn->lock);
	conn->tx_inflight++;
	conn->tx_written = conn->tx_prod;
	spin_unlock_bh(&conn->lock);
	rc = smcr_wr_tx_send(link, idx, n ? &wr[0].wr : NULL);
	if (rc) {
		spin_lock_bh(&conn->lock);
		conn->tx_inflight--;
		spin_unlock_bh(&conn->lock);
		sock_put(&smc->sk);
		return rc;
	}
	trace_smcr_cdc(smc, &m, true);
	conn->tx_cursor_sent = conn->tx_prod;
	conn->rx_cons_sent = conn->rx_cons;
	conn->urg_tx_present = false;
	return 0;
}

/**
 * smcr_cdc_send() - send a CDC message for @smc, with what sendmsg staged
 * @smc: connection
 *
 * The bytes staged since the last message are written before it. When
 * no send slot came free for them, they go a little later.
 *
 * Context: process, the socket locked.
 * Return: 0 or a negative errno.
 */
int smcr_cdc_send(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	int idx, rc;

	sock_owned_by_me(&smc->sk);
	rc = smcr_cdc_get(smc, &idx);
	if (!rc)
		return smcr_cdc_post(smc, idx, conn->tx_written);
	if (rc == -EBUSY && conn->tx_written != conn->tx_prod)
		smcr_cdc_uncork(smc, SMCR_CDC_UNCORK_RETRY);
	return rc;
}

/* §4.7.6: the byte just before the new producer cursor is urgent. The
 * RMB is there while conn->lgr is set, which the caller checked under
 * conn->lock.
 */
static void smcr_cdc_rx_urg(struct smcr_sock *smc, struct smcr_link *link)
{
	struct smcr_conn *conn = &smc->conn;
	u64 pos = conn->rx_prod - 1;
	u32 off = do_div(pos, conn->rmb.size);

	lockdep_assert_held(&conn->lock);
	ib_dma_sync_single_for_cpu(link->port.dev->ibdev,
				   conn->rmb.dma[link->idx] + off, 1,
				   DMA_FROM_DEVICE);
	conn->urg_byte = *(u8 *)(conn->rmb.cpu + off);
	conn->urg_pos = conn->rx_prod;
	conn->urg_valid = true;
}

/* Move a byte counter to a new wire cursor. A cursor only moves forward,
 * inside the RMBE, and never past @limit: anything else breaks the
 * protocol and leaves the counter as it was. With @replay a cursor up to
 * one RMBE behind the last is taken as nothing new; 1 then.
 */
static int smcr_cdc_advance(u64 *bytes, struct smcr_cdc_cursor *old,
			    const struct smcr_cdc_cursor *new, u32 size,
			    u64 limit, bool replay)
{
	long diff = smcr_cdc_cursor_advance(old, new, size);

	if (diff < 0 && replay && smcr_cdc_cursor_advance(new, old, size) > 0)
		return 1;
	if (diff < 0 || *bytes + diff > limit)
		return -EPROTO;
	*bytes += diff;
	*old = *new;
	return 0;
}

/* The peer's failover validation (A.4, flag F): the sequence number of
 * the last message the peer saw complete over the link it left. §4.6.1
 * resets the connection when that one was not taken yet, which assumes
 * one path in order. Here each link has its own completion queue: a
 * message the peer saw complete is in ours (RC, its receipt acknowledged)
 * and every receive completion is taken, but over the old link it may
 * come after this one over the new (seen against Linux's client when our
 * server replaced an asymmetric link: the connection was reset though
 * nothing was lost). So a validation ahead of @rx_seq is only traced;
 * either way the peer may repeat older messages from here (@rx_replay).
 * Context: under conn->lock.
 */
static void smcr_cdc_rx_validate(struct smcr_link *link,
				 struct smcr_conn *conn,
				 const struct smcr_cdc_msg *m)
{
	lockdep_assert_held(&conn->lock);
	conn->rx_replay = true;
	if (smcr_cdc_seq_before(conn->rx_seq, m->seqno))
		trace_smcr_cdc_ahead(link, m->token, m->seqno, conn->rx_seq);
}

/**
 * smcr_cdc_rx() - a CDC message arrived on @link
 * @link: link
 * @msg: the message, SMCR_WR_SIZE bytes
 * @ext: bytes past SMCR_WR_SIZE, none in a CDC message (A.4): ignored
 * @ext_len: their number
 *
 * A server's connection is found from its Accept on, and its client may
 * write right after its Confirm: a message can come before the handshake
 * took in that Confirm. The peer cannot have consumed anything of ours
 * then, so only the producer cursor moves; the data waits in the RMB for
 * the first read after accept().
 *
 * Context: softirq.
 */
void smcr_cdc_rx(struct smcr_link *link, const u8 *msg, const u8 *ext,
		 u32 ext_len)
{
	struct smcr_cdc_msg m;
	struct smcr_conn *conn;
	struct smcr_sock *smc;
	bool urg, abort, replayed;
	int rc;

	if (smcr_cdc_msg_decode(msg, SMCR_WR_SIZE, &m))
		return;
	smc = smcr_conn_lookup(link->lgr, m.token);
	trace_smcr_cdc(smc, &m, false);
	if (!smc)
		return;		/* a closed connection's late message */
	conn = &smc->conn;

	spin_lock_bh(&conn->lock);
	/* taken off its group meanwhile, or its buffers not there yet */
	if (conn->lgr != link->lgr || !conn->rmb.size) {
		spin_unlock_bh(&conn->lock);
		sock_put(&smc->sk);
		return;
	}
	if (m.prod_flags & SMCR_CDC_PF_FAILOVER_VALIDATION) {
		smcr_cdc_rx_validate(link, conn, &m);
		spin_unlock_bh(&conn->lock);
		sock_put(&smc->sk);
		return;
	}
	/* A.4: late over a link that failed meanwhile */
	if (smcr_cdc_seq_before(m.seqno, conn->rx_seq)) {
		trace_smcr_cdc_late(link, m.token, m.seqno, conn->rx_seq);
		spin_unlock_bh(&conn->lock);
		sock_put(&smc->sk);
		return;
	}
	conn->rx_seq = m.seqno;
	/* §4.4: the peer never writes more than our RMBE holds unread */
	rc = smcr_cdc_advance(&conn->rx_prod, &conn->peer_prod, &m.prod,
			      conn->rmb.size, conn->rx_cons + conn->rmb.size,
			      conn->rx_replay);
	replayed = rc > 0;
	if (!rc)
		conn->rx_replay = false;
	/* before the Confirm is in, the peer's RMB size is 0: nothing was
	 * sent to it, so its consumer cursor can only stay where it was. It
	 * never passes what we wrote: bytes still staged are not there yet.
	 */
	if (rc >= 0)
		rc = smcr_cdc_advance(&conn->tx_peer_cons, &conn->peer_cons,
				      &m.cons, READ_ONCE(conn->peer_size),
				      conn->tx_written, false);
	conn->peer_write_blocked = m.prod_flags & SMCR_CDC_PF_WRITE_BLOCKED;
	urg = !rc && !replayed &&
	      (m.prod_flags & SMCR_CDC_PF_URG_DATA_PRESENT) &&
	      conn->rx_prod > conn->rx_cons;
	if (urg)
		smcr_cdc_rx_urg(smc, link);
	if (m.conn_state_flags & SMCR_CDC_CS_PEER_DONE_WRITING)
		conn->peer_done_writing = true;
	if (m.conn_state_flags & SMCR_CDC_CS_PEER_CONN_CLOSED)
		conn->peer_closed = true;
	abort = !rc && !conn->peer_abort &&
		(m.conn_state_flags & SMCR_CDC_CS_PEER_CONN_ABORT);
	if (m.conn_state_flags & SMCR_CDC_CS_PEER_CONN_ABORT || rc)
		conn->peer_abort = true;
	spin_unlock_bh(&conn->lock);

	if (rc) {
		trace_smcr_cdc_refused(link, m.token, &m.prod, &m.cons);
		smcr_link_fail(link, SMCR_DOWN_CDC);
	}
	if (abort)
		smcr_close_peer_abort(smc);
	if (urg)
		sk_send_sigurg(&smc->sk);
	smcr_conn_wake(smc);
	sock_put(&smc->sk);
}
