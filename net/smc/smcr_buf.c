// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: a link group's buffers.
 *
 * Each connection has an RMB element the peer writes into, registered for
 * remote write with a fast-registration work request on each link, and a
 * send buffer its RDMA writes are read from (§2.4, §4.1); every buffer is
 * mapped on every link of its group. A gone connection's buffers stay
 * with the group: for the next connection (spares), until the peer
 * forgot an RMB's rkey (retiring), or until no write can read a send
 * buffer any more (parked).
 *
 * Locking: buffers are made, taken, given back and freed under the
 * group's links_lock, so that a new link gets every buffer and a buffer
 * every link; the group's lists under its lock (struct smcr_lgr).
 */

#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/log2.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "smcr.h"
#include "smcr_buf.h"
#include "smcr_lgr.h"
#include "smcr_llc.h"
#include "smcr_stats.h"
#include "smcr_sysctl.h"
#include "smcr_trace.h"

/* RMB element and send buffer size of every namespace, if not 0 (§4.2
 * leaves it open); by default net.smc.rmem and net.smc.wmem decide
 */
static unsigned int buf_size;
module_param(buf_size, uint, 0644);
MODULE_PARM_DESC(buf_size,
		 "RMB and send buffer bytes without SO_RCVBUF/SO_SNDBUF (16K..512K; 0: net.smc.rmem, wmem)");

#define SMCR_BUF_MAX	(SMCR_CLC_RMBE_MIN_SIZE << SMCR_CLC_RMBE_CODE_MAX)

/* A buffer size the CLC messages can name (A.2.3: 16 KiB << code, up to
 * 512 KiB): what the application asked for with @lock set, half of @val
 * as the socket core doubled it, else the default of the namespace.
 */
static u32 smcr_buf_size(struct sock *sk, int val, int lock)
{
	u32 size = READ_ONCE(buf_size) ?:
		   smcr_sysctl_buf_size(sock_net(sk), lock == SOCK_RCVBUF_LOCK);

	if (sk->sk_userlocks & lock)
		size = val / 2;
	size = clamp_t(u32, size, SMCR_CLC_RMBE_MIN_SIZE, SMCR_BUF_MAX);
	return roundup_pow_of_two(size);
}

/* Pages of RMBs and send buffers allocated and not yet freed, parked
 * and spare ones included: zero once every connection and group is gone
 * (debugfs smcr/buffer_pages)
 */
static atomic_t smcr_buf_pages = ATOMIC_INIT(0);

/* Take @buf off @link: its memory region and its mapping for the link's
 * device go
 */
static void smcr_buf_unmap(struct smcr_link *link, struct smcr_buf *buf,
			   enum dma_data_direction dir)
{
	u8 bit = BIT(link->idx);

	if (buf->mr[link->idx])
		ib_dereg_mr(buf->mr[link->idx]);
	buf->mr[link->idx] = NULL;
	buf->registered &= ~bit;
	if (buf->mapped & bit)
		ib_dma_unmap_single(link->port.dev->ibdev, buf->dma[link->idx],
				    buf->size, dir);
	buf->mapped &= ~bit;
	buf->dma[link->idx] = 0;
}

/* the bytes of @lgr's RMBs (@dir from the device) or send buffers */
static atomic_long_t *smcr_buf_alloc_bytes(struct smcr_lgr *lgr,
					   enum dma_data_direction dir)
{
	return dir == DMA_FROM_DEVICE ? &lgr->alloc_rmbs : &lgr->alloc_sndbufs;
}

/* Free @buf's memory, mappings and regions: it is empty afterwards */
static void smcr_buf_release(struct smcr_lgr *lgr, struct smcr_buf *buf,
			     enum dma_data_direction dir)
{
	int i;

	for (i = 0; i < SMCR_LINKS_MAX; i++)
		smcr_buf_unmap(&lgr->lnk[i], buf, dir);
	if (buf->cpu) {
		free_pages((unsigned long)buf->cpu, get_order(buf->size));
		atomic_sub(1 << get_order(buf->size), &smcr_buf_pages);
		atomic_long_sub(buf->size, smcr_buf_alloc_bytes(lgr, dir));
	}
	memset(buf, 0, sizeof(*buf));
}

/* Free a kept buffer with its slot */
static void smcr_buf_slot_free(struct smcr_lgr *lgr,
			       struct smcr_buf_slot *slot,
			       enum dma_data_direction dir)
{
	smcr_buf_release(lgr, &slot->buf, dir);
	mem_cgroup_put(slot->memcg);
	kfree(slot);
}

/**
 * smcr_buf_free_slots() - free the buffers a group kept, with their slots
 * @lgr: group
 * @slots: one of its lists of struct smcr_buf_slot, emptied
 * @dir: the direction the buffers are mapped in
 *
 * Context: process, nothing else using @slots (the group going).
 */
void smcr_buf_free_slots(struct smcr_lgr *lgr, struct list_head *slots,
			 enum dma_data_direction dir)
{
	struct smcr_buf_slot *slot, *tmp;

	list_for_each_entry_safe(slot, tmp, slots, list) {
		list_del(&slot->list);
		smcr_buf_slot_free(lgr, slot, dir);
	}
}

/* Whether @lgr keeps the buffers of its gone connections: not while it
 * ends or has no active link
 */
static bool smcr_buf_group_keeps(struct smcr_lgr *lgr)
{
	lockdep_assert_held(&lgr->lock);
	return !lgr->terminating &&
	       READ_ONCE(smcr_lgr_primary(lgr)->state) == SMCR_LINK_ACTIVE;
}

/* Add @slot to @spares, newest first. Returns the oldest spare if there
 * are more than SMCR_BUF_SPARES_MAX now, taken off: the caller frees it.
 */
static struct smcr_buf_slot *smcr_buf_spare_add(struct smcr_lgr *lgr,
						struct smcr_buf_spares *spares,
						struct smcr_buf_slot *slot)
{
	struct smcr_buf_slot *old;

	lockdep_assert_held(&lgr->lock);
	list_add(&slot->list, &spares->list);
	if (++spares->num <= SMCR_BUF_SPARES_MAX)
		return NULL;
	old = list_last_entry(&spares->list, struct smcr_buf_slot, list);
	list_del(&old->list);
	spares->num--;
	return old;
}

/* Leave @buf, taken off its connection, with its @slot: to @spares, if
 * given and the buffer is complete, for a connection to come; freed
 * otherwise, and always by a group that is ending or whose link is down.
 * A registered RMB retires first, spare or not: the peer may know its
 * rkey (smcr_buf_rkey_work()).
 */
static void smcr_buf_leave(struct smcr_lgr *lgr,
			   struct smcr_buf_spares *spares,
			   struct smcr_buf_slot *slot, struct smcr_buf *buf,
			   struct mem_cgroup *memcg, enum dma_data_direction dir)
{
	bool retire = dir == DMA_FROM_DEVICE && buf->registered;
	struct smcr_buf_slot *old = NULL;
	bool kept = false, queue = false;

	lockdep_assert_held(&lgr->links_lock);
	if ((spares || retire) && slot && buf->cpu && buf->mapped) {
		spin_lock_bh(&lgr->lock);
		if (smcr_buf_group_keeps(lgr)) {
			slot->buf = *buf;
			/* held while the slot compares it */
			slot->memcg = memcg;
			if (memcg)
				css_get(&memcg->css);
			if (retire) {
				slot->spare = !!spares;
				list_add_tail(&slot->list, &lgr->retiring);
				queue = !lgr->rkey_work_queued;
				lgr->rkey_work_queued = true;
			} else {
				old = smcr_buf_spare_add(lgr, spares, slot);
			}
			kept = true;
		}
		spin_unlock_bh(&lgr->lock);
	}
	if (queue) {
		/* the caller's reference keeps the group until here */
		kref_get(&lgr->kref);
		queue_work(smcr_llc_wq, &lgr->rkey_work);
	}
	if (old)
		smcr_buf_slot_free(lgr, old, dir);
	if (kept) {
		memset(buf, 0, sizeof(*buf));
		return;
	}
	kfree(slot);
	smcr_buf_release(lgr, buf, dir);
}

/* A retired RMB once the peer answered its DELETE RKEY (@answered), or
 * gave no answer: a spare if it was to be one and the group still keeps
 * buffers, else freed
 */
static void smcr_buf_retired(struct smcr_lgr *lgr, struct smcr_buf_slot *slot,
			     bool answered)
{
	struct smcr_buf_slot *old = NULL;
	bool kept = false;

	lockdep_assert_held(&lgr->links_lock);
	if (answered && slot->spare) {
		spin_lock_bh(&lgr->lock);
		if (smcr_buf_group_keeps(lgr)) {
			old = smcr_buf_spare_add(lgr, &lgr->spare_rmbs, slot);
			kept = true;
		}
		spin_unlock_bh(&lgr->lock);
	}
	if (old)
		smcr_buf_slot_free(lgr, old, DMA_FROM_DEVICE);
	if (!kept)
		smcr_buf_slot_free(lgr, slot, DMA_FROM_DEVICE);
}

/**
 * smcr_buf_rkey_work() - retire the RMBs of gone connections
 * @work: the group's rkey_work
 *
 * A.3.7: the peer is told to forget the rkeys, up to SMCR_LLC_DEL_RKEY_MAX
 * in one DELETE RKEY, as Linux's smc.ko does for each RMB it stops using;
 * Linux's peer table of rkeys would fill up otherwise.
 */
void smcr_buf_rkey_work(struct work_struct *work)
{
	struct smcr_lgr *lgr = container_of(work, struct smcr_lgr, rkey_work);
	u32 rkeys[SMCR_LLC_DEL_RKEY_MAX];
	struct smcr_link *link;
	struct smcr_buf_slot *slot, *tmp;
	LIST_HEAD(batch);
	int n, rc;

	for (;;) {
		/* the batch's regions stay on every link until it is done */
		mutex_lock(&lgr->links_lock);
		/* A.3.7: the rkeys of the link the message goes over */
		link = smcr_lgr_primary(lgr);
		n = 0;
		spin_lock_bh(&lgr->lock);
		list_for_each_entry_safe(slot, tmp, &lgr->retiring, list) {
			list_move_tail(&slot->list, &batch);
			rkeys[n] = slot->buf.mr[link->idx]->rkey;
			if (++n == SMCR_LLC_DEL_RKEY_MAX)
				break;
		}
		if (!n)
			lgr->rkey_work_queued = false;
		spin_unlock_bh(&lgr->lock);
		if (n) {
			rc = smcr_llc_delete_rkeys(link, rkeys, n);
			trace_smcr_lgr_retire_rmbs(lgr, n, rc);
			list_for_each_entry_safe(slot, tmp, &batch, list) {
				list_del(&slot->list);
				smcr_buf_retired(lgr, slot, !rc);
			}
		}
		mutex_unlock(&lgr->links_lock);
		if (!n)
			break;
	}
	/* the reference taken when the work was queued */
	smcr_lgr_put(lgr);
}

/**
 * smcr_buf_conn_free() - free a connection's buffers or leave them to @lgr
 * @lgr: the group the connection was taken off
 * @smc: the connection, its buffers still set
 * @tx_busy: writes out of the send buffer have not completed (no CDC
 *	message after them did): the QP may still read it, and the group
 *	keeps (parks) it until the QP is destroyed; otherwise it is a spare
 * @rmb_done: the peer closed the connection, nothing more lands in the
 *	RMB: registered on the group's links, it is a spare for the next
 *	connection; otherwise deregistering its memory region revokes the
 *	peer's access
 *
 * Context: process, @smc locked, under @lgr->links_lock since before the
 * connection left the group's list: links freed under it see the buffers.
 */
void smcr_buf_conn_free(struct smcr_lgr *lgr, struct smcr_sock *smc,
			bool tx_busy, bool rmb_done)
{
	struct smcr_conn *conn = &smc->conn;
	struct smcr_buf_slot *slot;
	bool keep;

	lockdep_assert_held(&lgr->links_lock);
	if (conn->bufs_counted) {
		smcr_stats_buf_put(smc, true, conn->rmb.size);
		smcr_stats_buf_put(smc, false, conn->sndbuf.size);
		conn->bufs_counted = false;
	}
	/* a spare RMB is registered wherever it is mapped */
	keep = rmb_done && conn->rmb.registered == conn->rmb.mapped;
	slot = conn->rmb_slot;
	conn->rmb_slot = NULL;
	smcr_buf_leave(lgr, keep ? &lgr->spare_rmbs : NULL, slot, &conn->rmb,
		       smc->memcg, DMA_FROM_DEVICE);

	slot = conn->sndbuf_slot;
	conn->sndbuf_slot = NULL;
	if (tx_busy && slot && conn->sndbuf.cpu) {
		slot->buf = conn->sndbuf;
		memset(&conn->sndbuf, 0, sizeof(conn->sndbuf));
		spin_lock_bh(&lgr->lock);
		list_add_tail(&slot->list, &lgr->parked);
		spin_unlock_bh(&lgr->lock);
		trace_smcr_lgr_park_sndbuf(lgr);
	} else {
		smcr_buf_leave(lgr, tx_busy ? NULL : &lgr->spare_sndbufs, slot,
			       &conn->sndbuf, smc->memcg, DMA_TO_DEVICE);
	}
}

/* Map @buf for the device of @link and, for an RMB (@dir from the
 * device), give it a memory region in the link's protection domain,
 * mapped and not yet registered: its rkey and address can go to the peer
 */
static int smcr_buf_map(struct smcr_link *link, struct smcr_buf *buf,
			enum dma_data_direction dir)
{
	struct ib_device *ibdev = link->port.dev->ibdev;
	struct scatterlist sg;
	struct ib_mr *mr;
	u64 dma;
	int rc;

	if (buf->mapped & BIT(link->idx))
		return 0;
	dma = ib_dma_map_single(ibdev, buf->cpu, buf->size, dir);
	if (ib_dma_mapping_error(ibdev, dma))
		return -ENOMEM;
	buf->dma[link->idx] = dma;
	buf->mapped |= BIT(link->idx);
	if (dir != DMA_FROM_DEVICE)
		return 0;
	mr = ib_alloc_mr(link->pd, IB_MR_TYPE_MEM_REG,
			 DIV_ROUND_UP(buf->size, PAGE_SIZE));
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	buf->mr[link->idx] = mr;
	sg_init_table(&sg, 1);
	sg_dma_address(&sg) = dma;
	sg_dma_len(&sg) = buf->size;
	rc = ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE);
	if (rc != 1)
		return rc < 0 ? rc : -EINVAL;
	return 0;
}

/* New memory for @buf, mapped for @link: all of it or none. The size is
 * set last: a connection with a size and no buffer would let the receive
 * path read through NULL. The pages are charged to @memcg, as socket
 * buffers are charged to their owner's memory cgroup.
 */
static int smcr_buf_get(struct smcr_link *link, struct smcr_buf *buf,
			u32 size, enum dma_data_direction dir,
			struct mem_cgroup *memcg)
{
	struct mem_cgroup *old = set_active_memcg(memcg);
	struct smcr_buf new = { .size = size };
	int rc;

	new.cpu = (void *)__get_free_pages(GFP_KERNEL | __GFP_ZERO |
					   __GFP_NOWARN | __GFP_ACCOUNT,
					   get_order(size));
	set_active_memcg(old);
	if (!new.cpu)
		return -ENOMEM;
	atomic_add(1 << get_order(size), &smcr_buf_pages);
	atomic_long_add(size, smcr_buf_alloc_bytes(link->lgr, dir));
	rc = smcr_buf_map(link, &new, dir);
	if (rc) {
		smcr_buf_release(link->lgr, &new, dir);
		return rc;
	}
	new.size = 0;
	*buf = new;
	WRITE_ONCE(buf->size, size);
	return 0;
}

/* Map @buf on every link of @lgr in use it is not mapped on yet */
static int smcr_buf_map_links(struct smcr_lgr *lgr, struct smcr_buf *buf,
			      enum dma_data_direction dir)
{
	int i, rc;

	lockdep_assert_held(&lgr->links_lock);
	for (i = 0; i < SMCR_LINKS_MAX; i++) {
		if (!smcr_lgr_link_in_use(&lgr->lnk[i]))
			continue;
		rc = smcr_buf_map(&lgr->lnk[i], buf, dir);
		if (rc)
			return rc;
	}
	return 0;
}

/* A spare of the group of @size, charged to @memcg, taken into @buf:
 * its slot, or NULL if none fits
 */
static struct smcr_buf_slot *smcr_buf_take_spare(struct smcr_lgr *lgr,
						 struct smcr_buf_spares *spares,
						 u32 size,
						 struct mem_cgroup *memcg,
						 struct smcr_buf *buf)
{
	struct smcr_buf_slot *slot, *found = NULL;

	spin_lock_bh(&lgr->lock);
	list_for_each_entry(slot, &spares->list, list) {
		if (slot->buf.size == size && slot->memcg == memcg) {
			list_del(&slot->list);
			spares->num--;
			found = slot;
			break;
		}
	}
	spin_unlock_bh(&lgr->lock);
	if (found) {
		*buf = found->buf;
		memset(&found->buf, 0, sizeof(found->buf));
		mem_cgroup_put(found->memcg);
		found->memcg = NULL;
	}
	return found;
}

/* @buf of @size for @smc, and its slot: a spare of the group if one fits
 * (@reused), else new memory. A spare send buffer is wiped; a spare RMB
 * is not, as only what the peer writes anew is ever read out of it.
 */
static int smcr_buf_obtain(struct smcr_sock *smc,
			   struct smcr_buf_spares *spares, struct smcr_buf *buf,
			   struct smcr_buf_slot **slot, u32 size,
			   enum dma_data_direction dir, bool *reused)
{
	struct smcr_link *link = smc->conn.link;
	struct smcr_lgr *lgr = smc->conn.lgr;
	int rc;

	*slot = smcr_buf_take_spare(lgr, spares, size, smc->memcg, buf);
	*reused = !!*slot;
	if (*slot) {
		/* on the group's links, also one added since it was used */
		rc = smcr_buf_map_links(lgr, buf, dir);
		if (!rc && dir == DMA_TO_DEVICE) {
			memset(buf->cpu, 0, size);
			ib_dma_sync_single_for_device(link->port.dev->ibdev,
						      buf->dma[link->idx],
						      size, dir);
		}
		return rc;
	}
	*slot = kzalloc(sizeof(**slot), GFP_KERNEL);
	if (!*slot)
		return -ENOMEM;
	rc = smcr_buf_get(link, buf, size, dir, smc->memcg);
	if (!rc)
		rc = smcr_buf_map_links(lgr, buf, dir);
	return rc;
}

/**
 * smcr_buf_alloc() - the RMB element and send buffer of @smc
 * @smc: connection registered on its group
 *
 * Spare buffers of the group of the right size are reused, as Linux's
 * smc.ko reuses them; a spare RMB is registered already. A new RMB gets a
 * memory region mapped but not yet registered: its rkey and address can
 * go into a CLC message; smcr_buf_register() arms it.
 *
 * On failure what was got stays with the connection: smcr_conn_undo()
 * frees it once the receive path can no longer see it.
 *
 * Return: 0 or a negative errno.
 */
int smcr_buf_alloc(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	struct smcr_lgr *lgr = conn->lgr;
	struct sock *sk = &smc->sk;
	bool rmb_reused, sndbuf_reused;
	int rc;

	mutex_lock(&lgr->links_lock);
	rc = smcr_buf_obtain(smc, &lgr->spare_rmbs, &conn->rmb,
			     &conn->rmb_slot,
			     smcr_buf_size(sk, READ_ONCE(sk->sk_rcvbuf),
					   SOCK_RCVBUF_LOCK),
			     DMA_FROM_DEVICE, &rmb_reused);
	if (!rc)
		rc = smcr_buf_obtain(smc, &lgr->spare_sndbufs, &conn->sndbuf,
				     &conn->sndbuf_slot,
				     smcr_buf_size(sk, READ_ONCE(sk->sk_sndbuf),
						   SOCK_SNDBUF_LOCK),
				     DMA_TO_DEVICE, &sndbuf_reused);
	mutex_unlock(&lgr->links_lock);
	if (rc)
		return rc;
	smcr_stats_buf(smc, true, conn->rmb.size, rmb_reused);
	smcr_stats_buf(smc, false, conn->sndbuf.size, sndbuf_reused);
	conn->bufs_counted = true;
	/* SO_RCVBUF and SO_SNDBUF now tell what the connection got */
	WRITE_ONCE(sk->sk_rcvbuf, 2 * conn->rmb.size);
	WRITE_ONCE(sk->sk_sndbuf, 2 * conn->sndbuf.size);
	return 0;
}

static void smcr_buf_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smcr_link *link = container_of(wc->wr_cqe, struct smcr_link,
					      reg_cqe);

	link->reg_status = wc->status;
	complete(&link->reg_done);
}

/**
 * smcr_buf_register_locked() - register an RMB for remote writes on @link
 * @link: link in RTS
 * @buf: RMB of @link's group, mapped on @link
 *
 * An RMB registered on @link already (a spare) is left as it is.
 *
 * Context: process, under @link->lgr->links_lock; waits for the
 * registration to complete.
 * Return: 0 or a negative errno.
 */
int smcr_buf_register_locked(struct smcr_link *link, struct smcr_buf *buf)
{
	struct ib_reg_wr wr = {
		.wr = {
			.opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED,
			.wr_cqe = &link->reg_cqe,
		},
		.mr = buf->mr[link->idx],
		.key = buf->mr[link->idx]->rkey,
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	int rc;

	lockdep_assert_held(&link->lgr->links_lock);
	if (buf->registered & BIT(link->idx))
		return 0;
	if (!(buf->mapped & BIT(link->idx)) || !buf->mr[link->idx])
		return -EINVAL;
	mutex_lock(&link->reg_lock);
	link->reg_cqe.done = smcr_buf_reg_done;
	reinit_completion(&link->reg_done);
	rc = ib_post_send(link->qp, &wr.wr, NULL);
	if (!rc) {
		if (!wait_for_completion_timeout(&link->reg_done,
						 SMCR_LLC_WAIT))
			rc = -ETIMEDOUT;
		else if (link->reg_status != IB_WC_SUCCESS)
			rc = -EIO;
	}
	mutex_unlock(&link->reg_lock);
	if (rc)
		smcr_link_fail(link, SMCR_DOWN_REG);
	else
		buf->registered |= BIT(link->idx);
	return rc;
}

/**
 * smcr_buf_register() - register an RMB for remote writes on @link
 * @link: link in RTS
 * @buf: RMB from smcr_buf_alloc()
 *
 * Context: process; waits for the registration to complete.
 * Return: 0 or a negative errno.
 */
int smcr_buf_register(struct smcr_link *link, struct smcr_buf *buf)
{
	int rc;

	mutex_lock(&link->lgr->links_lock);
	rc = smcr_buf_register_locked(link, buf);
	mutex_unlock(&link->lgr->links_lock);
	return rc;
}

/* A buffer for smcr_buf_visit(), and its direction */
struct smcr_buf_ref {
	struct smcr_buf			*buf;
	enum dma_data_direction		dir;
};

static void smcr_buf_ref_add(struct smcr_buf_ref *bufs, int *n, int max,
			     struct smcr_buf *buf, enum dma_data_direction dir)
{
	if (*n < max && buf->cpu) {
		bufs[*n].buf = buf;
		bufs[*n].dir = dir;
		(*n)++;
	}
}

typedef int (*smcr_buf_fn)(struct smcr_link *link, struct smcr_buf *buf,
			   enum dma_data_direction dir);

/* Call @fn for @link and each buffer of @lgr that can carry data: those
 * of its connections, its spares and its retiring RMBs (not the parked
 * send buffers, which only wait for the QPs to go)
 */
static int smcr_buf_visit(struct smcr_lgr *lgr, smcr_buf_fn fn,
			  struct smcr_link *link)
{
	struct smcr_buf_ref *bufs;
	struct smcr_buf_slot *slot;
	unsigned long token;
	struct smcr_sock *smc;
	int n = 0, max, i, rc = 0;

	lockdep_assert_held(&lgr->links_lock);
	/* what there is cannot change under links_lock: buffers are made
	 * and freed under it
	 */
	spin_lock_bh(&lgr->lock);
	max = 2 * lgr->conns_num + lgr->spare_rmbs.num + lgr->spare_sndbufs.num;
	list_for_each_entry(slot, &lgr->retiring, list)
		max++;
	spin_unlock_bh(&lgr->lock);
	bufs = kcalloc(max ?: 1, sizeof(*bufs), GFP_KERNEL);
	if (!bufs)
		return -ENOMEM;
	spin_lock_bh(&lgr->lock);
	xa_for_each(&lgr->conns, token, smc) {
		smcr_buf_ref_add(bufs, &n, max, &smc->conn.rmb,
				 DMA_FROM_DEVICE);
		smcr_buf_ref_add(bufs, &n, max, &smc->conn.sndbuf,
				 DMA_TO_DEVICE);
	}
	list_for_each_entry(slot, &lgr->spare_rmbs.list, list)
		smcr_buf_ref_add(bufs, &n, max, &slot->buf, DMA_FROM_DEVICE);
	list_for_each_entry(slot, &lgr->retiring, list)
		smcr_buf_ref_add(bufs, &n, max, &slot->buf, DMA_FROM_DEVICE);
	list_for_each_entry(slot, &lgr->spare_sndbufs.list, list)
		smcr_buf_ref_add(bufs, &n, max, &slot->buf, DMA_TO_DEVICE);
	spin_unlock_bh(&lgr->lock);
	for (i = 0; i < n && !rc; i++)
		rc = fn(link, bufs[i].buf, bufs[i].dir);
	kfree(bufs);
	return rc;
}

static int smcr_buf_map_one(struct smcr_link *link, struct smcr_buf *buf,
			    enum dma_data_direction dir)
{
	return smcr_buf_map(link, buf, dir);
}

static int smcr_buf_unmap_one(struct smcr_link *link, struct smcr_buf *buf,
			      enum dma_data_direction dir)
{
	smcr_buf_unmap(link, buf, dir);
	return 0;
}

static int smcr_buf_register_one(struct smcr_link *link,
				 struct smcr_buf *buf,
				 enum dma_data_direction dir)
{
	return dir == DMA_FROM_DEVICE ? smcr_buf_register_locked(link, buf) :
					0;
}

/**
 * smcr_buf_map_link() - map every buffer of a group on a new link
 * @lgr: group
 * @link: its new link; RMBs get a memory region, not registered yet
 *
 * Context: process, under @lgr->links_lock.
 * Return: 0 or a negative errno.
 */
int smcr_buf_map_link(struct smcr_lgr *lgr, struct smcr_link *link)
{
	return smcr_buf_visit(lgr, smcr_buf_map_one, link);
}

/**
 * smcr_buf_register_link() - register every RMB of a group on a new link
 * @lgr: group
 * @link: its new link, in RTS, its buffers mapped (smcr_buf_map_link())
 *
 * Context: process, under @lgr->links_lock.
 * Return: 0 or a negative errno.
 */
int smcr_buf_register_link(struct smcr_lgr *lgr, struct smcr_link *link)
{
	return smcr_buf_visit(lgr, smcr_buf_register_one, link);
}

/**
 * smcr_buf_unmap_link() - take every buffer of a group off a link
 * @lgr: group
 * @link: its link going away, its QP gone: regions and mappings go
 *
 * Context: process, under @lgr->links_lock.
 */
void smcr_buf_unmap_link(struct smcr_lgr *lgr, struct smcr_link *link)
{
	struct smcr_buf_slot *slot;

	smcr_buf_visit(lgr, smcr_buf_unmap_one, link);
	/* parked send buffers too: the link's QP is gone */
	spin_lock_bh(&lgr->lock);
	list_for_each_entry(slot, &lgr->parked, list)
		smcr_buf_unmap(link, &slot->buf, DMA_TO_DEVICE);
	spin_unlock_bh(&lgr->lock);
}

/**
 * smcr_buf_rmbs() - the RMBs of a group's connections
 * @lgr: group
 * @rmbs: filled with up to @max of them
 * @max: room in @rmbs
 *
 * The peer knows the rkeys of these (a spare's was deleted when it
 * retired), for their rkeys on a new link.
 *
 * Context: process, under @lgr->links_lock, which keeps them.
 * Return: how many.
 */
int smcr_buf_rmbs(struct smcr_lgr *lgr, struct smcr_buf **rmbs, int max)
{
	unsigned long token;
	struct smcr_sock *smc;
	int n = 0;

	lockdep_assert_held(&lgr->links_lock);
	spin_lock_bh(&lgr->lock);
	xa_for_each(&lgr->conns, token, smc)
		if (n < max && smc->conn.rmb.cpu)
			rmbs[n++] = &smc->conn.rmb;
	spin_unlock_bh(&lgr->lock);
	return n;
}

/**
 * smcr_buf_debugfs() - the group layer's files in the module's debugfs
 * @dir: the module's directory
 *
 * buffer_pages: pages of RMBs and send buffers in use, for tests that
 * check every buffer came back (an error creating it is only logged by
 * debugfs; the module works without)
 */
void smcr_buf_debugfs(struct dentry *dir)
{
	debugfs_create_atomic_t("buffer_pages", 0444, dir, &smcr_buf_pages);
}
