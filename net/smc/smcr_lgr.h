/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: link groups, links and the buffers connections use over them
 * (RFC 7609 §2.3, §3.5, §4).
 */
#ifndef SMCR_LGR_H
#define SMCR_LGR_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "smcr_pnet.h"
#include "smcr_wire_cdc.h"
#include "smcr_wire_clc.h"
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
#define SMCR_LGR_CONNS_MAX	255		/* §3.5.2 */
#define SMCR_LGR_IDLE		(10 * HZ)	/* unused groups then go */

/**
 * struct smcr_ibdev - a RoCE device known to SMC-R
 * @list: link in the device list of smcr_ib.c
 * @ibdev: the device, valid until our remove callback returns
 * @links: number of links using the device (smcr_ib_lock)
 * @pnetid: PNET IDs of ports 1 and 2 the PNET table gave (NUL padded,
 *	empty for none; smcr_ib_lock)
 */
struct smcr_ibdev {
	struct list_head	list;
	struct ib_device	*ibdev;
	int			links;
	u8			pnetid[SMCR_PNET_PORTS][SMCR_PNETID_LEN];
};

/**
 * struct smcr_ib_port - where a connection's RDMA traffic leaves the host
 * @dev: device (NULL when the route has none)
 * @port: port number
 * @sgid_index: index of @gid in the port's GID table
 * @gid: the GID sent in CLC messages
 * @mac: the MAC of the port's network device
 * @ifindex: that network device's interface index
 * @mtu: the port's active MTU (enum ib_mtu)
 * @pnetid: the port's PNET ID when it was found (NUL padded, or empty)
 */
struct smcr_ib_port {
	struct smcr_ibdev	*dev;
	u32			port;
	u8			sgid_index;
	u8			gid[SMCR_CLC_GID_LEN];
	u8			mac[ETH_ALEN];
	int			ifindex;
	enum ib_mtu		mtu;
	u8			pnetid[SMCR_PNETID_LEN];
};

struct smcr_lgr;
struct smcr_sock;

enum smcr_link_state {
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
 */
struct smcr_wr_tx {
	struct ib_cqe		cqe;
	struct smcr_link	*link;
	u8			idx;
	void			(*done)(struct smcr_wr_tx *slot, bool ok);
	void			*ctx;
	u64			cookie;
};

/**
 * struct smcr_link - one RC queue pair between two RoCE ports (§2.3)
 * @lgr: the link group it belongs to
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
 * @link_id: link number within the group (A.3.1)
 * @peer_uid: the link user id the peer's CONFIRM LINK gave (A.3.1)
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
 * @rx_pending: receives posted and not completed yet
 * @rx_stamp: jiffies when the last message arrived (set in softirq,
 *	read with READ_ONCE() by the TEST LINK keepalive)
 * @cdc_seq: sequence number of the last CDC message sent (A.4)
 * @fail_work: takes the group down after the link failed
 * @testlink_work: TEST LINK keepalive of an active link (§3.5.5.5)
 * @llc_resp: answer to the LLC request in flight (one at a time, §3.5.5.3)
 * @llc_expect: LLC type (with SMCR_LLC_EXPECT_RESP for a response) the
 *	waiter of @llc_done expects, 0 when nobody waits
 * @llc_done: completed when @llc_resp arrived
 * @llc_reqs: the peer's requests to answer, a ring of SMCR_LLC_REQS
 * @llc_req_head: index of the oldest request in @llc_reqs
 * @llc_req_cnt: requests in @llc_reqs
 * @llc_req_queued: @llc_work is queued or running and will see every
 *	request in @llc_reqs; it holds a reference on the group then
 * @llc_req_lock: protects @llc_reqs, @llc_req_head, @llc_req_cnt and
 *	@llc_req_queued
 * @llc_work: answers the requests in @llc_reqs, oldest first
 * @reg_done: completed by a memory registration
 * @reg_cqe: completion entry of memory registrations
 * @reg_lock: one memory registration at a time on the link
 * @reg_status: work completion status of the last registration
 */
struct smcr_link {
	struct smcr_lgr		*lgr;
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
	u8			link_id;
	u8			peer_uid[SMCR_LLC_LINK_UID_LEN];
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
	atomic_t		rx_pending;
	unsigned long		rx_stamp;
	atomic_t		cdc_seq;
	bool			rtr;
	bool			rts;

	u8			llc_resp[SMCR_WR_SIZE];
	u16			llc_expect;
	struct completion	llc_done;
	u8			llc_reqs[SMCR_LLC_REQS][SMCR_WR_SIZE];
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

/**
 * struct smcr_buf - an RMB or a send buffer (§2.4)
 * @cpu: kernel address
 * @dma: DMA address
 * @size: bytes; set once the buffer exists, 0 before
 * @mr: memory region for remote writes (RMBs only)
 */
struct smcr_buf {
	void		*cpu;
	u64		dma;
	u32		size;
	struct ib_mr	*mr;
};

/**
 * struct smcr_buf_park - a send buffer waiting for its link's QP to go
 * @list: link in the group's @parked list
 * @buf: the buffer, taken over from its connection
 *
 * RDMA writes read a send buffer by DMA address, without a memory region
 * that deregistration could revoke: the buffer of a connection that goes
 * while some of its writes have not completed must outlive the QP.
 */
struct smcr_buf_park {
	struct list_head	list;
	struct smcr_buf		buf;
};

/**
 * struct smcr_lgr - a link group: the links to one peer (§2.3, §3.5)
 * @list: link in the group list of its role
 * @kref: one per connection and one for the list while listed
 * @lock: protects @conns, @conns_num and the link state
 * @server: whether we were the server of its first contact
 * @id: number of the group, unique in this module instance; the low
 *	byte is 0, for the link id in the link user id (A.3.1)
 * @version: SMC-R version of the group, SMCR_CLC_V1 or SMCR_CLC_V2; its
 *	LLC messages are framed accordingly
 * @uses_gateway: SMC-Rv2: the peer is reached through an IP gateway
 * @eid: SMC-Rv2: the EID negotiated on first contact
 * @peer_os: SMC-Rv2: the peer's OS (SMCR_CLC_OS_*), from the first
 *	contact extension of its Accept or Confirm; written once under
 *	@lock, like @peer_release and @peer_host
 * @peer_release: SMC-Rv2: the peer's SMC release, from the same
 * @peer_host: SMC-Rv2: the peer's host name, from the same, blank padded
 *	as it came; all zero when it was not ASCII
 * @peer_id: the peer's peer ID (A.2.1)
 * @link: the one link of the group
 * @conns: connections by alert token
 * @conns_num: connections in @conns (at most SMCR_LGR_CONNS_MAX)
 * @next_token: next alert token to hand out
 * @terminating: the group is going away; no new connections
 * @testlink_time: jiffies between TEST LINK probes of its link, <= 0 for
 *	none: net.smc.smcr_testlink_time of the first connection's namespace
 * @free_work: frees an idle group, or ends a terminated one
 * @hs_next: ticket of the next server handshake to join the group, under
 *	smcr_lgr_server_lock (smcr_lgr_hs_ticket())
 * @hs_turn: every server handshake with a ticket before it is done with
 *	its connection's place in the accept queue; under @lock
 * @hs_wait: server handshakes waiting for @hs_turn
 * @hs_after: a group to the same peer whose handshakes before
 *	@hs_after_ticket come before this group's first, with a reference;
 *	set and dropped by that first handshake (smcr_lgr_hs_ticket())
 * @hs_after_ticket: see @hs_after
 * @parked: send buffers of gone connections that writes may still read
 *	(struct smcr_buf_park), freed once the link's QP is destroyed;
 *	under @lock
 */
struct smcr_lgr {
	struct list_head	list;
	struct kref		kref;
	spinlock_t		lock;	/* see above */
	bool			server;
	u32			id;
	u8			version;
	bool			uses_gateway;
	u8			eid[SMCR_CLC_EID_LEN];
	u8			peer_os;
	u8			peer_release;
	u8			peer_host[SMCR_CLC_HOSTNAME_LEN];
	u8			peer_id[SMCR_CLC_PEER_ID_LEN];
	struct smcr_link	link;
	struct xarray		conns;
	int			conns_num;
	u32			next_token;
	bool			terminating;
	int			testlink_time;
	struct delayed_work	free_work;
	u32			hs_next;
	u32			hs_turn;
	wait_queue_head_t	hs_wait;
	struct smcr_lgr		*hs_after;
	u32			hs_after_ticket;
	struct list_head	parked;
};

/**
 * smcr_link_uid() - the link user id of a link (A.3.1)
 * @link: link
 *
 * The group's id plus the link id, big endian, as Linux builds it: the
 * peer reports it, and diagnostics of both ends can be matched.
 *
 * Return: the id as it goes on the wire.
 */
static inline __be32 smcr_link_uid(const struct smcr_link *link)
{
	return cpu_to_be32(link->lgr->id + link->link_id);
}

/**
 * struct smcr_conn - the SMC-R state of a connection (§4)
 * @lgr: link group, referenced while set; changed under @lock as well,
 *	so that sock_diag and the receive path can read the group without
 *	the socket lock. Cleared before the buffers go: whoever found it set
 *	under @lock may use @rmb until it drops @lock.
 * @token: our alert token: the peer's CDC messages name us by it
 * @rmb: our RMB element, the peer writes into it
 * @sndbuf: where sendmsg stages data before the RDMA write
 * @park: allocated with the buffers, so that a connection can leave its
 *	send buffer to the group without needing memory (smcr_buf_park)
 * @peer_token: the peer's alert token
 * @peer_rkey: rkey of the peer's RMB
 * @peer_rmb: address of the peer's RMB element
 * @peer_size: size of the peer's RMB element
 * @tx_prod: bytes ever written into the peer's RMBE
 * @tx_done: bytes of @sndbuf whose RDMA write completed
 * @tx_peer_cons: bytes the peer has consumed, from its cursor
 * @tx_cursor_sent: @tx_prod as last told to the peer
 * @rx_prod: bytes the peer has written into our RMBE, from its cursor
 * @rx_cons: bytes we have consumed
 * @rx_cons_sent: @rx_cons as last told to the peer
 * @peer_prod: the peer's last producer cursor, as on the wire
 * @peer_cons: the peer's last consumer cursor, as on the wire
 * @peer_done_writing: the peer shut down writing (A.4 conn state)
 * @peer_closed: the peer closed the connection
 * @peer_abort: the peer aborted the connection
 * @peer_write_blocked: the peer waits for room in our RMBE (§4.5.1)
 * @write_blocked: we wait for room in the peer's RMBE
 * @urg_tx_pending: an MSG_OOB send waits for room (§4.7.5, flag P)
 * @urg_tx_present: the next CDC message covers an urgent byte (flag U)
 * @urg_valid: the peer sent urgent data not yet read out of band
 * @urg_pos: byte count just past the urgent byte (§4.7.6)
 * @urg_byte: the urgent byte
 * @done_writing: we told the peer we are done writing
 * @closed: we told the peer the connection is closed
 * @aborted: we told the peer the connection is aborted (§4.8.2)
 * @lock: protects the counters the receive path moves or reads:
 *	@rx_prod, @rx_cons, @tx_prod, @tx_peer_cons, @tx_done, and the
 *	peer_* flags and cursor wraps
 *
 * Cursor counters only grow; the wire carries them as wrap and offset
 * (A.4). What the peer reports is written by the receive path (softirq)
 * under @lock; everything else under the conn's socket lock, and @rx_cons
 * and @tx_prod under @lock too, as the receive path and poll read them.
 * The socket lock's owner reads what only it writes without @lock.
 */
struct smcr_conn {
	struct smcr_lgr		*lgr;
	u32			token;
	struct smcr_buf		rmb;
	struct smcr_buf		sndbuf;
	struct smcr_buf_park	*park;
	u32			peer_token;
	u32			peer_rkey;
	u64			peer_rmb;
	u32			peer_size;

	u64			tx_prod;
	u64			tx_done;
	u64			tx_peer_cons;
	u64			tx_cursor_sent;
	u64			rx_prod;
	u64			rx_cons;
	u64			rx_cons_sent;
	struct smcr_cdc_cursor	peer_prod;
	struct smcr_cdc_cursor	peer_cons;
	bool			write_blocked;
	bool			urg_tx_pending;
	bool			urg_tx_present;
	bool			urg_valid;
	u64			urg_pos;
	u8			urg_byte;

	bool			peer_done_writing;
	bool			peer_closed;
	bool			peer_abort;
	bool			peer_write_blocked;
	bool			done_writing;
	bool			closed;
	bool			aborted;
	spinlock_t		lock;	/* see above */
};

#endif /* SMCR_LGR_H */
