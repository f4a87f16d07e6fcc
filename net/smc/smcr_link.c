// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: links, the RC queue pairs of a link group (RFC 7609 §2.3, §3.5).
 *
 * A link owns a QP and two rings of 44-byte control messages: LLC and
 * CDC messages are sent from the send ring and land in the receive ring.
 * Completions arrive in softirq context; received messages are copied
 * out, the buffer is posted again and the copy goes to the layer that
 * registered for its type (smcr_link_register_rx(): CDC or LLC). A send
 * slot's completion goes to the callback its sender set. A link that
 * stops working is marked down here, and the layer above hears of it
 * (smcr_link_register_down()): the link layer calls no layer above it.
 *
 * QP states are tracked here, not read back from the device: Debian 6.1's
 * rxe does not report cur_qp_state (see the shared notes).
 */

#include <linux/dma-mapping.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "smcr_link.h"
#include "smcr_trace.h"

#define SMCR_QP_MIN_RNR_TIMER	5
#define SMCR_HOP_LIMIT_ROUTED	64
#define SMCR_QP_TIMEOUT		15	/* 4.096 us << 15: about 134 ms */
#define SMCR_QP_RETRY_CNT	7
#define SMCR_QP_RNR_RETRY	7	/* 7 means retry forever */
#define SMCR_LINK_DRAIN_WAIT	(5 * HZ)

/* What the layers above links registered: set at module load, before
 * any link exists, and left alone while links exist
 */
static smcr_link_rx_t smcr_link_rx[SMCR_WR_CLASSES];
static void (*smcr_link_down)(struct smcr_link *link);

/**
 * smcr_link_register_rx() - who takes a class of received messages
 * @class: CDC or LLC
 * @rx: called in softirq with a copy of each message of @class, whose
 *	receive buffer is posted again already; NULL to take none. Of a
 *	message longer than SMCR_WR_SIZE (SMC-Rv2 LLC), the rest is passed
 *	as well, valid during the call only.
 *
 * Context: module load or unload, no link in existence.
 */
void smcr_link_register_rx(enum smcr_wr_class class, smcr_link_rx_t rx)
{
	WRITE_ONCE(smcr_link_rx[class], rx);
}

/**
 * smcr_link_register_down() - who hears of a link that stopped working
 * @down: called once per link, in any context, after the link is marked
 *	down; NULL for nobody
 *
 * Context: module load or unload, no link in existence.
 */
void smcr_link_register_down(void (*down)(struct smcr_link *link))
{
	WRITE_ONCE(smcr_link_down, down);
}

/**
 * smcr_link_fail() - a link stopped working
 * @link: link
 * @reason: why, for the smcr_link_down tracepoint
 *
 * Marks the link down, once; its sends fail from now on, whoever waits
 * for a send slot or an LLC answer on it stops waiting, and the layer
 * above hears of it through its smcr_link_register_down() callback.
 *
 * Context: any.
 */
void smcr_link_fail(struct smcr_link *link,
		    enum smcr_link_down_reason reason)
{
	void (*down)(struct smcr_link *link);

	if (xchg(&link->state, SMCR_LINK_DOWN) == SMCR_LINK_DOWN)
		return;
	trace_smcr_link_down(link, reason);
	wake_up_all(&link->tx_wait);
	complete_all(&link->llc_done);
	down = READ_ONCE(smcr_link_down);
	if (down)
		down(link);
}

/* A completion in error fails the link; a flush is the QP already in
 * error, after whatever failed it
 */
static void smcr_wc_check(struct smcr_link *link, const struct ib_wc *wc)
{
	if (wc->status == IB_WC_SUCCESS || wc->status == IB_WC_WR_FLUSH_ERR)
		return;
	trace_smcr_wc_error(link, wc);
	smcr_link_fail(link, SMCR_DOWN_WC);
}

/* One entry for every RDMA write: they are unsignaled, so only errors
 * (and flushes) ever complete through it.
 */
static void smcr_wr_write_done(struct ib_cq *cq, struct ib_wc *wc)
{
	smcr_wc_check(wc->qp->qp_context, wc);
}

static struct ib_cqe smcr_write_cqe = { .done = smcr_wr_write_done };

/**
 * smcr_link_write_cqe() - completion entry for RDMA writes on any link
 *
 * Return: the shared entry.
 */
struct ib_cqe *smcr_link_write_cqe(void)
{
	return &smcr_write_cqe;
}

static void smcr_link_drain(struct smcr_link *link);

static void smcr_qp_event(struct ib_event *ev, void *ctx)
{
	struct smcr_link *link = ctx;

	trace_smcr_qp_event(link, ev->event);
	switch (ev->event) {
	case IB_EVENT_QP_FATAL:
	case IB_EVENT_QP_REQ_ERR:
	case IB_EVENT_QP_ACCESS_ERR:
	case IB_EVENT_PATH_MIG_ERR:
		smcr_link_fail(link, SMCR_DOWN_QP_EVENT);
		break;
	default:
		break;
	}
}

static void smcr_wr_tx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smcr_wr_tx *slot = container_of(wc->wr_cqe, struct smcr_wr_tx,
					       cqe);
	struct smcr_link *link = slot->link;
	void (*done)(struct smcr_wr_tx *slot, bool ok) = slot->done;

	smcr_wc_check(link, wc);
	if (done) {
		slot->done = NULL;
		done(slot, wc->status == IB_WC_SUCCESS);
	}
	if (slot->ext) {
		slot->ext = false;
		clear_bit(0, &link->tx_ext_busy);
	}
	/* the slot's use over before it is free for the next sender */
	smp_mb__before_atomic();
	clear_bit(slot->idx, &link->tx_busy);
	/* the cleared bit before the waiters' check of tx_busy */
	smp_mb__after_atomic();
	wake_up_all(&link->tx_wait);
}

static int smcr_wr_rx_post(struct smcr_link *link, int idx)
{
	u32 lkey = link->pd->local_dma_lkey;
	struct ib_sge sge[2] = {
		{
			.addr = link->rx_dma + idx * SMCR_WR_SIZE,
			.length = SMCR_WR_SIZE,
			.lkey = lkey,
		}, {
			.addr = link->rx_spill_dma,
			.length = SMCR_WR_V2_SIZE - SMCR_WR_SIZE,
			.lkey = lkey,
		},
	};
	struct ib_recv_wr wr = {
		.wr_cqe = &link->rx_slots[idx],
		.sg_list = sge,
		.num_sge = link->rx_spill ? 2 : 1,
	};

	atomic_inc(&link->rx_pending);
	if (ib_post_recv(link->qp, &wr, NULL)) {
		atomic_dec(&link->rx_pending);
		return -EIO;
	}
	return 0;
}

static void smcr_wr_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smcr_link *link = wc->qp->qp_context;
	const u8 *ext = NULL;
	u8 msg[SMCR_WR_SIZE];
	smcr_link_rx_t rx;
	u32 ext_len = 0;
	int idx;

	idx = wc->wr_cqe - link->rx_slots;
	atomic_dec(&link->rx_pending);
	if (wc->status != IB_WC_SUCCESS) {
		smcr_wc_check(link, wc);
		wake_up_all(&link->tx_wait);
		return;
	}

	ib_dma_sync_single_for_cpu(link->port.dev->ibdev,
				   link->rx_dma + idx * SMCR_WR_SIZE,
				   SMCR_WR_SIZE, DMA_FROM_DEVICE);
	memcpy(msg, link->rx_bufs + idx * SMCR_WR_SIZE, SMCR_WR_SIZE);
	/* the link works: the keepalive waits for it to go quiet */
	WRITE_ONCE(link->rx_stamp, jiffies);
	if (READ_ONCE(link->state) != SMCR_LINK_DOWN &&
	    smcr_wr_rx_post(link, idx))
		smcr_link_fail(link, SMCR_DOWN_POST);

	/* runts, and receives a peer's RDMA write with immediate data
	 * consumed: no LLC or CDC message is in the buffer
	 */
	if (wc->byte_len < SMCR_WR_SIZE || wc->opcode != IB_WC_RECV)
		return;
	/* the rest of a longer message is in the spill buffer until the
	 * next longer one arrives; its sender waits for our answer first
	 */
	if (wc->byte_len > SMCR_WR_SIZE && link->rx_spill) {
		ext_len = min_t(u32, wc->byte_len - SMCR_WR_SIZE,
				SMCR_WR_V2_SIZE - SMCR_WR_SIZE);
		ib_dma_sync_single_for_cpu(link->port.dev->ibdev,
					   link->rx_spill_dma, ext_len,
					   DMA_FROM_DEVICE);
		ext = link->rx_spill;
	}
	rx = READ_ONCE(smcr_link_rx[msg[0] == SMCR_CDC_TYPE ? SMCR_WR_CDC :
							      SMCR_WR_LLC]);
	if (rx)
		rx(link, msg, ext, ext_len);
	if (ext)
		ib_dma_sync_single_for_device(link->port.dev->ibdev,
					      link->rx_spill_dma, ext_len,
					      DMA_FROM_DEVICE);
}

/**
 * smcr_wr_tx_tryget() - take a free slot of the send ring, if there is one
 * @link: link
 * @idx: the slot taken
 *
 * Context: any.
 * Return: the slot's buffer, ERR_PTR(-ENOLINK) when the link is down, or
 * ERR_PTR(-EBUSY) when every slot is taken.
 */
u8 *smcr_wr_tx_tryget(struct smcr_link *link, int *idx)
{
	int i;

	if (READ_ONCE(link->state) == SMCR_LINK_DOWN)
		return ERR_PTR(-ENOLINK);
	for (i = 0; i < SMCR_WR_TX_SLOTS; i++) {
		if (!test_and_set_bit(i, &link->tx_busy)) {
			*idx = i;
			memset(link->tx_bufs + i * SMCR_WR_SIZE, 0,
			       SMCR_WR_SIZE);
			return link->tx_bufs + i * SMCR_WR_SIZE;
		}
	}
	return ERR_PTR(-EBUSY);
}

/**
 * smcr_wr_tx_get() - take a free slot of the send ring
 * @link: link
 * @idx: the slot taken
 *
 * Context: process; waits up to SMCR_WR_TX_WAIT for a slot.
 * Return: the slot's buffer, or an ERR_PTR when the link is down or no
 * slot freed up in time.
 */
u8 *smcr_wr_tx_get(struct smcr_link *link, int *idx)
{
	long left = SMCR_WR_TX_WAIT;
	u8 *buf;

	for (;;) {
		buf = smcr_wr_tx_tryget(link, idx);
		if (buf != ERR_PTR(-EBUSY) || !left)
			return buf;
		left = wait_event_timeout(link->tx_wait,
					  READ_ONCE(link->tx_busy) !=
					  GENMASK(SMCR_WR_TX_SLOTS - 1, 0) ||
					  READ_ONCE(link->state) ==
					  SMCR_LINK_DOWN, left);
	}
}

/**
 * smcr_wr_tx_put() - give back a slot without sending it
 * @link: link
 * @idx: slot from smcr_wr_tx_get()
 */
void smcr_wr_tx_put(struct smcr_link *link, int idx)
{
	link->tx_slots[idx].done = NULL;
	/* that before the slot is free for the next sender */
	smp_mb__before_atomic();
	clear_bit(idx, &link->tx_busy);
	/* the cleared bit before the waiters' check of tx_busy */
	smp_mb__after_atomic();
	wake_up_all(&link->tx_wait);
}

/**
 * smcr_wr_tx_send() - send a slot's message, after optional RDMA writes
 * @link: link
 * @idx: slot from smcr_wr_tx_get(), filled with the message
 * @writes: RDMA writes to post before it (or NULL), chained through next
 *
 * RC ordering makes the writes land before the peer sees the message
 * (§4.1). On failure the slot is given back.
 *
 * Return: 0 or a negative errno.
 */
static int smcr_wr_tx_post(struct smcr_link *link, int idx,
			   struct ib_send_wr *writes, u32 ext_len);

int smcr_wr_tx_send(struct smcr_link *link, int idx, struct ib_send_wr *writes)
{
	return smcr_wr_tx_post(link, idx, writes, 0);
}

/* Post slot @idx's message, followed by @ext_len bytes of the link's
 * extension buffer, after @writes
 */
static int smcr_wr_tx_post(struct smcr_link *link, int idx,
			   struct ib_send_wr *writes, u32 ext_len)
{
	struct ib_device *ibdev = link->port.dev->ibdev;
	struct ib_sge sge[2] = {
		{
			.addr = link->tx_dma + idx * SMCR_WR_SIZE,
			.length = SMCR_WR_SIZE,
			.lkey = link->pd->local_dma_lkey,
		}, {
			.addr = link->tx_ext_dma,
			.length = ext_len,
			.lkey = link->pd->local_dma_lkey,
		},
	};
	struct ib_send_wr wr = {
		.wr_cqe = &link->tx_slots[idx].cqe,
		.sg_list = sge,
		.num_sge = ext_len ? 2 : 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};
	struct ib_send_wr *first = &wr, *last;
	int rc;

	if (writes) {
		for (last = writes; last->next; last = last->next)
			;
		last->next = &wr;
		first = writes;
	}
	ib_dma_sync_single_for_device(ibdev, sge[0].addr, SMCR_WR_SIZE,
				      DMA_TO_DEVICE);
	if (ext_len)
		ib_dma_sync_single_for_device(ibdev, link->tx_ext_dma, ext_len,
					      DMA_TO_DEVICE);
	link->tx_slots[idx].ext = !!ext_len;
	rc = ib_post_send(link->qp, first, NULL);
	if (rc) {
		if (ext_len) {
			link->tx_slots[idx].ext = false;
			clear_bit(0, &link->tx_ext_busy);
		}
		smcr_wr_tx_put(link, idx);
		smcr_link_fail(link, SMCR_DOWN_POST);
	}
	return rc;
}

/**
 * smcr_wr_tx_send_ext() - send a slot's message with more bytes after it
 * @link: link of an SMC-Rv2 group
 * @idx: slot from smcr_wr_tx_get(), filled with the first SMCR_WR_SIZE
 *	bytes of the message
 * @ext: the rest of the message
 * @len: its length, at most SMCR_WR_V2_SIZE - SMCR_WR_SIZE
 *
 * The rest goes out of the link's one extension buffer: a second longer
 * message waits, up to SMCR_WR_TX_WAIT, for the first one's completion.
 * On failure the slot is given back.
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int smcr_wr_tx_send_ext(struct smcr_link *link, int idx, const u8 *ext,
			u32 len)
{
	long left = SMCR_WR_TX_WAIT;
	int rc = 0;

	if (!link->tx_ext || !len || len > SMCR_WR_V2_SIZE - SMCR_WR_SIZE)
		rc = -EINVAL;
	while (!rc && test_and_set_bit(0, &link->tx_ext_busy)) {
		left = wait_event_timeout(link->tx_wait,
					  !test_bit(0, &link->tx_ext_busy) ||
					  READ_ONCE(link->state) ==
					  SMCR_LINK_DOWN, left);
		if (!left)
			rc = -EBUSY;
		else if (READ_ONCE(link->state) == SMCR_LINK_DOWN)
			rc = -ENOLINK;
	}
	if (rc) {
		smcr_wr_tx_put(link, idx);
		return rc;
	}
	memcpy(link->tx_ext, ext, len);
	return smcr_wr_tx_post(link, idx, NULL, len);
}

static int smcr_link_modify(struct smcr_link *link, struct ib_qp_attr *attr,
			    int mask)
{
	int rc = ib_modify_qp(link->qp, attr, mask);

	trace_smcr_link_qp(link, attr->qp_state, rc);
	return rc;
}

/**
 * smcr_link_ready() - bring the QP to RTR, and to RTS when @rts
 * @link: link whose peer fields are known
 * @rts: also enable sending
 *
 * Return: 0 or a negative errno.
 */
int smcr_link_ready(struct smcr_link *link, bool rts)
{
	struct ib_qp_attr attr = {};
	struct rdma_ah_attr *ah = &attr.ah_attr;
	int rc;

	if (!link->rtr) {
		attr.qp_state = IB_QPS_RTR;
		attr.path_mtu = min_t(enum ib_mtu, link->port.mtu,
				      link->peer_mtu);
		ah->type = rdma_ah_find_type(link->port.dev->ibdev,
					     link->port.port);
		rdma_ah_set_port_num(ah, link->port.port);
		/* routed SMC-Rv2 needs a hop limit that crosses gateways */
		rdma_ah_set_grh(ah, NULL, 0, link->port.sgid_index,
				link->routed ? SMCR_HOP_LIMIT_ROUTED
							: 1, 0);
		rdma_ah_set_dgid_raw(ah, link->peer_gid);
		memcpy(ah->roce.dmac, link->peer_mac, ETH_ALEN);
		attr.dest_qp_num = link->peer_qpn;
		attr.rq_psn = link->peer_psn;
		attr.max_dest_rd_atomic = 1;
		attr.min_rnr_timer = SMCR_QP_MIN_RNR_TIMER;
		rc = smcr_link_modify(link, &attr, IB_QP_STATE | IB_QP_AV |
				      IB_QP_PATH_MTU | IB_QP_DEST_QPN |
				      IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC |
				      IB_QP_MIN_RNR_TIMER);
		if (rc)
			return rc;
		link->rtr = true;
	}
	if (!rts || link->rts)
		return 0;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.timeout = SMCR_QP_TIMEOUT;
	attr.retry_cnt = SMCR_QP_RETRY_CNT;
	attr.rnr_retry = SMCR_QP_RNR_RETRY;
	attr.sq_psn = link->psn;
	attr.max_rd_atomic = 1;
	rc = smcr_link_modify(link, &attr, IB_QP_STATE | IB_QP_TIMEOUT |
			      IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			      IB_QP_SQ_PSN | IB_QP_MAX_QP_RD_ATOMIC);
	if (!rc)
		link->rts = true;
	return rc;
}

static void smcr_link_free_rings(struct smcr_link *link)
{
	struct ib_device *ibdev = link->port.dev->ibdev;

	if (link->rx_spill) {
		ib_dma_unmap_single(ibdev, link->rx_spill_dma,
				    SMCR_WR_V2_SIZE - SMCR_WR_SIZE,
				    DMA_FROM_DEVICE);
		kfree(link->rx_spill);
		link->rx_spill = NULL;
	}
	if (link->tx_ext) {
		ib_dma_unmap_single(ibdev, link->tx_ext_dma,
				    SMCR_WR_V2_SIZE - SMCR_WR_SIZE,
				    DMA_TO_DEVICE);
		kfree(link->tx_ext);
		link->tx_ext = NULL;
	}
	kfree(link->llc_resp_ext);
	link->llc_resp_ext = NULL;
	kfree(link->llc_req_ext);
	link->llc_req_ext = NULL;

	if (link->rx_bufs) {
		ib_dma_unmap_single(ibdev, link->rx_dma,
				    SMCR_WR_RX_SLOTS * SMCR_WR_SIZE,
				    DMA_FROM_DEVICE);
		kfree(link->rx_bufs);
		link->rx_bufs = NULL;
	}
	if (link->tx_bufs) {
		ib_dma_unmap_single(ibdev, link->tx_dma,
				    SMCR_WR_TX_SLOTS * SMCR_WR_SIZE,
				    DMA_TO_DEVICE);
		kfree(link->tx_bufs);
		link->tx_bufs = NULL;
	}
}

static int smcr_link_alloc_rings(struct smcr_link *link)
{
	struct ib_device *ibdev = link->port.dev->ibdev;
	int i;

	link->tx_bufs = kcalloc(SMCR_WR_TX_SLOTS, SMCR_WR_SIZE, GFP_KERNEL);
	link->rx_bufs = kcalloc(SMCR_WR_RX_SLOTS, SMCR_WR_SIZE, GFP_KERNEL);
	if (!link->tx_bufs || !link->rx_bufs)
		goto err;
	link->tx_dma = ib_dma_map_single(ibdev, link->tx_bufs,
					 SMCR_WR_TX_SLOTS * SMCR_WR_SIZE,
					 DMA_TO_DEVICE);
	if (ib_dma_mapping_error(ibdev, link->tx_dma)) {
		kfree(link->tx_bufs);
		link->tx_bufs = NULL;
		goto err;
	}
	link->rx_dma = ib_dma_map_single(ibdev, link->rx_bufs,
					 SMCR_WR_RX_SLOTS * SMCR_WR_SIZE,
					 DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(ibdev, link->rx_dma)) {
		kfree(link->rx_bufs);
		link->rx_bufs = NULL;
		goto err;
	}
	if (link->version == SMCR_CLC_V2) {
		link->rx_spill = kzalloc(SMCR_WR_V2_SIZE - SMCR_WR_SIZE,
					 GFP_KERNEL);
		if (!link->rx_spill)
			goto err;
		link->rx_spill_dma = ib_dma_map_single(ibdev, link->rx_spill,
						       SMCR_WR_V2_SIZE -
						       SMCR_WR_SIZE,
						       DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(ibdev, link->rx_spill_dma)) {
			kfree(link->rx_spill);
			link->rx_spill = NULL;
			goto err;
		}
		link->tx_ext = kzalloc(SMCR_WR_V2_SIZE - SMCR_WR_SIZE,
				       GFP_KERNEL);
		if (!link->tx_ext)
			goto err;
		link->tx_ext_dma = ib_dma_map_single(ibdev, link->tx_ext,
						     SMCR_WR_V2_SIZE -
						     SMCR_WR_SIZE,
						     DMA_TO_DEVICE);
		if (ib_dma_mapping_error(ibdev, link->tx_ext_dma)) {
			kfree(link->tx_ext);
			link->tx_ext = NULL;
			goto err;
		}
		/* an ADD LINK's extension, as the LLC layer keeps it */
		link->llc_resp_ext = kzalloc(SMCR_LLC_ADD_EXT_MAX_LEN,
					     GFP_KERNEL);
		link->llc_req_ext = kzalloc(SMCR_LLC_ADD_EXT_MAX_LEN,
					    GFP_KERNEL);
		if (!link->llc_resp_ext || !link->llc_req_ext)
			goto err;
	}
	for (i = 0; i < SMCR_WR_TX_SLOTS; i++) {
		link->tx_slots[i].cqe.done = smcr_wr_tx_done;
		link->tx_slots[i].link = link;
		link->tx_slots[i].idx = i;
	}
	for (i = 0; i < SMCR_WR_RX_SLOTS; i++)
		link->rx_slots[i].done = smcr_wr_rx_done;
	return 0;
err:
	smcr_link_free_rings(link);
	return -ENOMEM;
}

static void smcr_link_free_cqs(struct smcr_link *link)
{
	if (link->recv_cq)
		ib_free_cq(link->recv_cq);
	if (link->send_cq)
		ib_free_cq(link->send_cq);
	link->recv_cq = NULL;
	link->send_cq = NULL;
}

/* Completions are handled in softirq: IB_POLL_SOFTIRQ arms the CQs with
 * IB_CQ_NEXT_COMP, which rxe handles (it mishandles IB_CQ_SOLICITED_MASK)
 */
static int smcr_link_alloc_cqs(struct smcr_link *link)
{
	struct ib_device *ibdev = link->port.dev->ibdev;

	/* every send WR may complete, if only by a flush */
	link->send_cq = ib_alloc_cq_any(ibdev, link, SMCR_WR_TX_SLOTS * 3 + 2,
					IB_POLL_SOFTIRQ);
	if (IS_ERR(link->send_cq)) {
		link->send_cq = NULL;
		return -ENOMEM;
	}
	link->recv_cq = ib_alloc_cq_any(ibdev, link, SMCR_WR_RX_SLOTS,
					IB_POLL_SOFTIRQ);
	if (IS_ERR(link->recv_cq)) {
		link->recv_cq = NULL;
		smcr_link_free_cqs(link);
		return -ENOMEM;
	}
	return 0;
}

/**
 * smcr_link_init() - create a link's QP and rings, and post receives
 * @link: link with @port set, embedded in its group
 * @version: SMC-R version of the group
 * @routed: the peer is reached through an IP gateway (SMC-Rv2)
 *
 * The QP ends in INIT with every receive buffer posted, ready for
 * smcr_link_ready() once the peer's QP number is known.
 *
 * Return: 0 or a negative errno.
 */
int smcr_link_init(struct smcr_link *link, u8 version, bool routed)
{
	struct smcr_ibdev *dev = link->port.dev;
	struct ib_qp_init_attr qattr = {
		.event_handler = smcr_qp_event,
		.qp_context = link,
		.cap = {
			/* per slot: a message and up to two writes */
			.max_send_wr = SMCR_WR_TX_SLOTS * 3 + 2,
			.max_recv_wr = SMCR_WR_RX_SLOTS,
			.max_send_sge = 2,
			/* SMC-Rv2: message head and spill buffer */
			.max_recv_sge = version == SMCR_CLC_V2 ? 2 : 1,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
	};
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = 0,
		.port_num = link->port.port,
		.qp_access_flags = IB_ACCESS_LOCAL_WRITE |
				   IB_ACCESS_REMOTE_WRITE,
	};
	int rc, i;

	link->version = version;
	link->routed = routed;
	init_waitqueue_head(&link->tx_wait);
	init_completion(&link->llc_done);
	mutex_init(&link->llc_lock);
	init_completion(&link->reg_done);
	mutex_init(&link->reg_lock);
	atomic_set(&link->rx_pending, 0);
	get_random_bytes(&link->psn, sizeof(link->psn));
	link->psn &= 0xffffff;

	link->pd = ib_alloc_pd(dev->ibdev, 0);
	if (IS_ERR(link->pd)) {
		rc = PTR_ERR(link->pd);
		link->pd = NULL;
		return rc;
	}
	rc = smcr_link_alloc_rings(link);
	if (rc)
		goto err_pd;
	rc = smcr_link_alloc_cqs(link);
	if (rc)
		goto err_rings;
	qattr.send_cq = link->send_cq;
	qattr.recv_cq = link->recv_cq;
	link->qp = ib_create_qp(link->pd, &qattr);
	if (IS_ERR(link->qp)) {
		rc = PTR_ERR(link->qp);
		link->qp = NULL;
		goto err_rings;
	}
	rc = smcr_link_modify(link, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			      IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (rc)
		goto err_qp;
	for (i = 0; i < SMCR_WR_RX_SLOTS; i++) {
		rc = smcr_wr_rx_post(link, i);
		if (rc)
			goto err_qp;
	}
	return 0;

err_qp:
	smcr_link_drain(link);
	ib_destroy_qp(link->qp);
	link->qp = NULL;
err_rings:
	smcr_link_free_cqs(link);
	smcr_link_free_rings(link);
err_pd:
	ib_dealloc_pd(link->pd);
	link->pd = NULL;
	return rc;
}

/* Error the QP and wait for the flush of everything posted on it */
static void smcr_link_drain(struct smcr_link *link)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

	WRITE_ONCE(link->state, SMCR_LINK_DOWN);
	smcr_link_modify(link, &attr, IB_QP_STATE);
	wake_up_all(&link->tx_wait);
	complete_all(&link->llc_done);
	if (!wait_event_timeout(link->tx_wait,
				!READ_ONCE(link->tx_busy) &&
				!atomic_read(&link->rx_pending),
				SMCR_LINK_DRAIN_WAIT))
		pr_warn_ratelimited("smcr: link %u: %d receives, slots %lx not flushed\n",
				    link->qp->qp_num,
				    atomic_read(&link->rx_pending),
				    READ_ONCE(link->tx_busy));
}

/**
 * smcr_link_flush() - stop a link that went down from moving any byte
 * @link: link, down (smcr_link_fail())
 *
 * Its QP goes to the error state and what was posted on it is flushed:
 * none of its RDMA writes lands later, so that a connection that moves
 * to another link may write the same bytes there and then new ones
 * (§3.5.5.4). A link whose path is only lost, or that is replaced while
 * it works, may still have writes in flight otherwise.
 *
 * Context: process.
 */
void smcr_link_flush(struct smcr_link *link)
{
	if (link->qp)
		smcr_link_drain(link);
}

/**
 * smcr_link_stop() - error a link's QP, wait for its flush, destroy it
 * @link: link
 *
 * Nothing reads or writes the memory of its group over it afterwards:
 * the regions in its protection domain can go (smcr_link_clear()).
 *
 * Context: process.
 */
void smcr_link_stop(struct smcr_link *link)
{
	if (link->qp) {
		smcr_link_drain(link);
		ib_destroy_qp(link->qp);
		link->qp = NULL;
	}
}

/**
 * smcr_link_clear() - tear a link down
 * @link: link, no connection left on it, so no RMB region in its
 *	protection domain any more
 *
 * Context: process.
 */
void smcr_link_clear(struct smcr_link *link)
{
	smcr_link_stop(link);
	smcr_link_free_cqs(link);
	smcr_link_free_rings(link);
	if (link->pd) {
		ib_dealloc_pd(link->pd);
		link->pd = NULL;
	}
}
