/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: a link group's buffers (smcr_buf.c, RFC 7609 §2.4, §4.1): RMB
 * elements and send buffers, mapped and registered on each of the
 * group's links, kept for reuse, retired with DELETE RKEY (A.3.7).
 * Beside the group (smcr_lgr.h), above links (smcr_link.h).
 */
#ifndef SMCR_BUF_H
#define SMCR_BUF_H

#include <linux/dma-direction.h>
#include <linux/list.h>
#include <linux/types.h>

#include "smcr_link.h"

struct dentry;
struct mem_cgroup;
struct smcr_lgr;
struct smcr_sock;
struct work_struct;

#define SMCR_BUF_SPARES_MAX	32	/* spare buffers a group keeps, each way */

/**
 * struct smcr_buf - an RMB or a send buffer (§2.4)
 * @cpu: kernel address
 * @size: bytes; set once the buffer exists, 0 before
 * @mapped: bit i set: mapped for the device of the group's link i, at
 *	@dma[i]
 * @registered: bit i set: @mr[i] is registered on link i (it stays so
 *	while a spare RMB waits for the next connection)
 * @dma: DMA address for the device of each link
 * @mr: memory region for remote writes over each link (RMBs only): each
 *	link has its protection domain, and the peer an rkey per link
 */
struct smcr_buf {
	void		*cpu;
	u32		size;
	u8		mapped;
	u8		registered;
	u64		dma[SMCR_LINKS_MAX];
	struct ib_mr	*mr[SMCR_LINKS_MAX];
};

/**
 * struct smcr_buf_slot - a buffer its group keeps after its connection
 * @list: link in one of the group's lists: @parked, @retiring, or the
 *	list of @spare_rmbs or @spare_sndbufs
 * @buf: the buffer, taken over from its connection
 * @memcg: memory cgroup its pages are charged to, referenced while the
 *	buffer is a spare: a spare serves a connection of the same cgroup
 * @spare: a retiring RMB becomes a spare once the peer forgot its rkey
 *
 * Parked: RDMA writes read a send buffer by DMA address, without a memory
 * region that deregistration could revoke; the buffer of a connection that
 * goes while some of its writes have not completed must outlive the QP.
 *
 * Spare: the buffer of a connection that ended cleanly serves the next
 * connection of the group, as Linux's smc.ko reuses its buffers; an RMB
 * stays registered.
 *
 * Retiring: an RMB the peer may know the rkey of stays as it is, memory
 * region and pages, until the peer answered our DELETE RKEY (A.3.7); then
 * it becomes a spare or goes.
 *
 * A connection holds a slot for each of its buffers from the start, so
 * that handing a buffer to its group needs no memory.
 */
struct smcr_buf_slot {
	struct list_head	list;
	struct smcr_buf		buf;
	struct mem_cgroup	*memcg;
	bool			spare;
};

/**
 * struct smcr_buf_spares - buffers of one kind a group keeps for reuse
 * @list: their slots (struct smcr_buf_slot)
 * @num: entries on @list, at most SMCR_BUF_SPARES_MAX
 */
struct smcr_buf_spares {
	struct list_head	list;
	int			num;
};

int smcr_buf_alloc(struct smcr_sock *smc);
int smcr_buf_register(struct smcr_link *link, struct smcr_buf *buf);
int smcr_buf_register_locked(struct smcr_link *link, struct smcr_buf *buf);
void smcr_buf_conn_free(struct smcr_lgr *lgr, struct smcr_sock *smc,
			bool tx_busy, bool rmb_done);
void smcr_buf_free_slots(struct smcr_lgr *lgr, struct list_head *slots,
			 enum dma_data_direction dir);
void smcr_buf_rkey_work(struct work_struct *work);
int smcr_buf_map_link(struct smcr_lgr *lgr, struct smcr_link *link);
int smcr_buf_register_link(struct smcr_lgr *lgr, struct smcr_link *link);
void smcr_buf_unmap_link(struct smcr_lgr *lgr, struct smcr_link *link);
int smcr_buf_rmbs(struct smcr_lgr *lgr, struct smcr_buf **rmbs, int max);
void smcr_buf_debugfs(struct dentry *dir);

#endif /* SMCR_BUF_H */
