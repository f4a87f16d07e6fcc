/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: links, the RC queue pairs of a link group, and their rings of
 * control messages (smcr_link.c, RFC 7609 §2.3). Above the devices of
 * smcr_ib.h; the layers above a link register what it hands up.
 */
#ifndef SMCR_LINK_H
#define SMCR_LINK_H

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>

#include "smcr_ib.h"
#include "smcr_wire_llc.h"

#define SMCR_WR_SIZE		44	/* LLC and CDC messages (A.3, A.4) */
/* SMC-Rv2 LLC messages may be this long; the bytes past the first 44 of
 * any received message land in one spill buffer per link
 */
#define SMCR_WR_V2_SIZE		8192
#define SMCR_WR_TX_SLOTS	16	/* control messages in flight per link */
#define SMCR_WR_RX_SLOTS	48	/* receive buffers posted per link */
#define SMCR_WR_TX_WAIT		(10 * HZ)
#define SMCR_LLC_WAIT		(6 * HZ)	/* App. C.7: LLC answer timeout */
/* A peer's LLC requests waiting for an answer, per link. §3.5.5.3 allows
 * one exchange at a time; a peer flooding past this is not answered.
 */
#define SMCR_LLC_REQS		8
/* Links per group (A.3.1 CONFIRM LINK: max links), as in Linux's smc.ko */
#define SMCR_LINKS_MAX		3

struct smcr_lgr;
struct smcr_sock;

enum smcr_link_state {
	SMCR_LINK_UNUSED,	/* a free entry of its group's links */
	SMCR_LINK_ACTIVATING,	/* QP being set up, CONFIRM LINK pending */
	SMCR_LINK_ACTIVE,	/* confirmed, carries connections */
	SMCR_LINK_DOWN,		/* failed or being torn down */
};

/* Why a link failed: the smcr_link_down tracepoint names it */
enum smcr_link_down_reason {
	SMCR_DOWN_WC,		/* a work request completed in error */
	SMCR_DOWN_QP_EVENT,	/* a fatal asynchronous event of the QP */
	SMCR_DOWN_POST,		/* a work request could not be posted */
	SMCR_DOWN_REG,		/* an RMB's registration failed */
	SMCR_DOWN_CDC,		/* the peer broke a CDC rule (§4.4) */
	SMCR_DOWN_PEER,		/* the peer's DELETE LINK (A.3.4) */
	SMCR_DOWN_TESTLINK,	/* TEST LINK unanswered (§3.5.5.5) */
	SMCR_DOWN_LLC,		/* another LLC request unanswered (C.7) */
	SMCR_DOWN_ADD,		/* a further link that did not come up */
	SMCR_DOWN_DEVICE,	/* its RoCE device goes away */
	SMCR_DOWN_PORT,		/* its RoCE port went down */
	SMCR_DOWN_ASYM,		/* a link between other devices replaces it */
};

/**
 * struct smcr_wr_tx - one control message slot of a link's send ring
 * @cqe: completion entry of the send
 * @link: owning link
 * @idx: slot index
 * @done: the sender's completion callback, or NULL: called once, in
 *	softirq, when the send completed (@ok) or was flushed; set by the
 *	sender between smcr_wr_tx_get() and smcr_wr_tx_send()
 * @ctx: the sender's, for @done
 * @cookie: the sender's, for @done
 * @ext: the message continues in the link's extension buffer
 */
struct smcr_wr_tx {
	struct ib_cqe		cqe;
	struct smcr_link	*link;
	u8			idx;
	void			(*done)(struct smcr_wr_tx *slot, bool ok);
	void			*ctx;
	u64			cookie;
	bool			ext;
};

/**
 * struct smcr_link - one RC queue pair between two RoCE ports (§2.3)
 * @lgr: the link group it belongs to (for the layers above; the link
 *	layer itself does not look into it)
 * @version: SMC-R version of the group (sizes of v2 LLC messages)
 * @routed: the peer is behind an IP gateway (SMC-Rv2): hop limit
 * @port: local end
 * @pd: protection domain of @qp and of the group's RMB regions, one per
 *	link: a QP reaches the memory of its own group only, never an rkey
 *	another peer was given
 * @qp: the queue pair
 * @send_cq: completion queue of @qp's sends; each link has its own, so
 *	tearing one link down never touches another's completions
 * @recv_cq: completion queue of @qp's receives
 * @psn: our initial packet sequence number
 * @peer_qpn: peer's QP number (CLC Accept/Confirm)
 * @peer_psn: peer's initial PSN
 * @peer_gid: peer's GID
 * @peer_mac: peer's MAC
 * @peer_mtu: MTU the peer offered (enum ib_mtu)
 * @idx: index of the link in its group's array: buffers keep a memory
 *	region and a DMA address per link by it
 * @link_id: link number within the group (A.3.1)
 * @peer_uid: the link user id the peer's CONFIRM LINK gave (A.3.1)
 * @peer_deleted: the peer knows it is gone: its DELETE LINK named it,
 *	or ours did before it went down (smcr_links_unasym())
 * @state: enum smcr_link_state; changed under @lgr->lock
 * @rtr: the QP reached RTR (tracked here: rxe does not report it)
 * @rts: the QP reached RTS
 * @tx_bufs: send ring, SMCR_WR_TX_SLOTS messages, DMA mapped
 * @tx_dma: DMA address of @tx_bufs
 * @tx_slots: per-slot completion entries
 * @tx_busy: bitmap of slots in use (atomic bit ops)
 * @tx_wait: waiters for a free slot, for slot completion, and for the
 *	link to leave SMCR_LINK_ACTIVATING (smcr_lgr_find())
 * @rx_bufs: receive ring, SMCR_WR_RX_SLOTS messages, DMA mapped
 * @rx_dma: DMA address of @rx_bufs
 * @rx_slots: completion entries of the receive buffers, one per slot
 * @rx_spill: SMC-Rv2 groups: where the part of a received message past
 *	SMCR_WR_SIZE goes, shared by all receives (nobody reads it: we
 *	act on the first SMCR_WR_SIZE bytes of every message), DMA mapped
 * @rx_spill_dma: DMA address of @rx_spill
 * @tx_ext: SMC-Rv2 groups: the part of a longer LLC message past
 *	SMCR_WR_SIZE, for one message at a time (smcr_wr_tx_send_ext()),
 *	DMA mapped
 * @tx_ext_dma: DMA address of @tx_ext
 * @tx_ext_busy: bit 0 set while a message uses @tx_ext
 * @rx_pending: receives posted and not completed yet
 * @rx_stamp: jiffies when the last message arrived (set in softirq,
 *	read with READ_ONCE() by the TEST LINK keepalive)
 * @fail_work: takes the group down after the link failed
 * @testlink_work: TEST LINK keepalive of an active link (§3.5.5.5)
 * @llc_resp: answer to the LLC request in flight (one at a time, §3.5.5.3)
 * @llc_expect: LLC type (with SMCR_LLC_EXPECT_RESP for a response) the
 *	waiter of @llc_done expects, 0 when nobody waits
 * @llc_resp_ext: SMC-Rv2 groups: the extension of an ADD LINK in
 *	@llc_resp, SMCR_LLC_ADD_EXT_MAX_LEN bytes
 * @llc_resp_ext_len: bytes in @llc_resp_ext
 * @llc_done: completed when @llc_resp arrived
 * @llc_lock: the LLC exchanges we start on an active link, one at a
 *	time (§3.5.5.3): it covers @llc_expect, @llc_resp and @llc_done
 *	from the request to the answer
 * @llc_reqs: the peer's requests to answer, a ring of SMCR_LLC_REQS
 * @llc_req_ext: SMC-Rv2 groups: the extension of the newest ADD LINK
 *	(a client's) or REQUEST ADD LINK (a server's) request in @llc_reqs,
 *	SMCR_LLC_ADD_EXT_MAX_LEN bytes
 * @llc_req_ext_len: bytes in @llc_req_ext
 * @llc_req_head: index of the oldest request in @llc_reqs
 * @llc_req_cnt: requests in @llc_reqs
 * @llc_req_queued: @llc_work is queued or running and will see every
 *	request in @llc_reqs; it holds a reference on the group then
 * @llc_req_lock: protects @llc_reqs, @llc_req_ext, @llc_req_ext_len,
 *	@llc_req_head, @llc_req_cnt and @llc_req_queued
 * @llc_work: answers the requests in @llc_reqs, oldest first
 * @reg_done: completed by a memory registration
 * @reg_cqe: completion entry of memory registrations
 * @reg_lock: one memory registration at a time on the link
 * @reg_status: work completion status of the last registration
 */
struct smcr_link {
	struct smcr_lgr		*lgr;
	u8			version;
	bool			routed;
	struct smcr_ib_port	port;
	struct ib_pd		*pd;
	struct ib_qp		*qp;
	struct ib_cq		*send_cq;
	struct ib_cq		*recv_cq;
	u32			psn;
	u32			peer_qpn;
	u32			peer_psn;
	u8			peer_gid[SMCR_CLC_GID_LEN];
	u8			peer_mac[ETH_ALEN];
	u8			peer_mtu;
	u8			idx;
	u8			link_id;
	u8			peer_uid[SMCR_LLC_LINK_UID_LEN];
	bool			peer_deleted;
	int			state;

	u8			*tx_bufs;
	u64			tx_dma;
	struct smcr_wr_tx	tx_slots[SMCR_WR_TX_SLOTS];
	unsigned long		tx_busy;
	wait_queue_head_t	tx_wait;

	u8			*rx_bufs;
	u64			rx_dma;
	struct ib_cqe		rx_slots[SMCR_WR_RX_SLOTS];
	u8			*rx_spill;
	u64			rx_spill_dma;
	u8			*tx_ext;
	u64			tx_ext_dma;
	unsigned long		tx_ext_busy;
	atomic_t		rx_pending;
	unsigned long		rx_stamp;
	bool			rtr;
	bool			rts;

	u8			llc_resp[SMCR_WR_SIZE];
	u8			*llc_resp_ext;
	u32			llc_resp_ext_len;
	u16			llc_expect;
	struct completion	llc_done;
	struct mutex		llc_lock;	/* see above */
	u8			llc_reqs[SMCR_LLC_REQS][SMCR_WR_SIZE];
	u8			*llc_req_ext;
	u32			llc_req_ext_len;
	u8			llc_req_head;
	u8			llc_req_cnt;
	bool			llc_req_queued;
	spinlock_t		llc_req_lock;	/* see above */
	struct work_struct	llc_work;

	struct completion	reg_done;
	struct ib_cqe		reg_cqe;
	struct mutex		reg_lock;	/* see above */
	enum ib_wc_status	reg_status;
	struct work_struct	fail_work;
	struct delayed_work	testlink_work;
};

/* the two kinds of control message a link carries, by their first byte:
 * CDC (A.4) of type SMCR_CDC_TYPE, LLC (A.3) every other
 */
#define SMCR_CDC_TYPE	0xfe

enum smcr_wr_class {
	SMCR_WR_LLC,
	SMCR_WR_CDC,
	SMCR_WR_CLASSES
};

/* smcr_link.c */
int smcr_link_init(struct smcr_link *link, u8 version, bool routed);
int smcr_link_ready(struct smcr_link *link, bool rts);
void smcr_link_flush(struct smcr_link *link);
void smcr_link_stop(struct smcr_link *link);
void smcr_link_clear(struct smcr_link *link);
void smcr_link_fail(struct smcr_link *link,
		    enum smcr_link_down_reason reason);

/* a received message: its first SMCR_WR_SIZE bytes, and the rest */
typedef void (*smcr_link_rx_t)(struct smcr_link *link, const u8 *msg,
			       const u8 *ext, u32 ext_len);

void smcr_link_register_rx(enum smcr_wr_class class, smcr_link_rx_t rx);
void smcr_link_register_down(void (*down)(struct smcr_link *link));
u8 *smcr_wr_tx_tryget(struct smcr_link *link, int *idx);
u8 *smcr_wr_tx_get(struct smcr_link *link, int *idx);
void smcr_wr_tx_put(struct smcr_link *link, int idx);
int smcr_wr_tx_send(struct smcr_link *link, int idx,
		    struct ib_send_wr *writes);
int smcr_wr_tx_send_ext(struct smcr_link *link, int idx, const u8 *ext,
			u32 len);
struct ib_cqe *smcr_link_write_cqe(void);

/* Two links of a group on one port of ours: Linux's "asymmetric local" */
static inline bool smcr_link_share_port(const struct smcr_link *a,
					const struct smcr_link *b)
{
	return a->port.dev == b->port.dev && a->port.port == b->port.port;
}

/* Two links of a group to one GID of the peer's: "asymmetric peer" */
static inline bool smcr_link_share_peer(const struct smcr_link *a,
					const struct smcr_link *b)
{
	return !memcmp(a->peer_gid, b->peer_gid, SMCR_CLC_GID_LEN);
}

#endif /* SMCR_LINK_H */
