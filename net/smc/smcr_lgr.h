/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: link groups and the connections on them (smcr_lgr.c, RFC 7609
 * §2.3, §3.5, §4), their buffers in smcr_buf.h. Above links
 * (smcr_link.h).
 */
#ifndef SMCR_LGR_H
#define SMCR_LGR_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "smcr_buf.h"
#include "smcr_link.h"
#include "smcr_wire_cdc.h"
#include "smcr_wire_clc.h"

struct dentry;

#define SMCR_LGR_CONNS_MAX	255		/* §3.5.2 */

/* why a group's adder is to try at once (struct smcr_lgr, @add_asked) */
#define SMCR_LGR_ASK_PORT	BIT(0)	/* a port of ours came up */
#define SMCR_LGR_ASK_PEER	BIT(1)	/* the client asked for a link */

/* RMBs of the peer a group keeps the rkeys of, as Linux's smc.ko does */
#define SMCR_LGR_RTOKENS	255

/**
 * struct smcr_rtoken - one RMB of the peer, on each link of the group
 * @links: bit i set: @rkey[i] and @vaddr[i] on link i are known
 * @rkey: its rkey on each link
 * @vaddr: its address on each link
 *
 * Learnt from ADD LINK CONTINUATION or a version 2 ADD LINK's extension
 * (A.3.3) and CONFIRM RKEY (A.3.5), forgotten on DELETE RKEY (A.3.7):
 * what a connection needs to move to another link.
 */
struct smcr_rtoken {
	u8	links;
	u32	rkey[SMCR_LINKS_MAX];
	u64	vaddr[SMCR_LINKS_MAX];
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
 * @agreed: what its first contact settled; set before the group is
 *	listed, constant after
 * @lnk: its links by index; lnk[0] is the link of the first contact,
 *	until it fails over (smcr_lgr_primary())
 * @conns: connections by alert token
 * @conns_num: connections in @conns (at most @agreed.max_conns)
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
 *	(struct smcr_buf_slot), freed once the link's QP is destroyed;
 *	under @lock
 * @spare_rmbs: RMBs of gone connections the peer had finished writing
 *	into, registered, for the next connection; under @lock
 * @spare_sndbufs: send buffers of gone connections, every write done,
 *	for the next connection; under @lock
 * @retiring: RMBs of gone connections whose DELETE RKEY is not answered
 *	yet (struct smcr_buf_slot); under @lock
 * @rkey_work: sends the DELETE RKEYs of @retiring
 * @rkey_work_queued: @rkey_work is queued or running and will see every
 *	RMB on @retiring; it holds a reference on the group then; under @lock
 * @links_lock: taken to add or remove a link and to make, take, give
 *	back or free a buffer: a buffer's state on each link (mapping,
 *	memory region, registration) and the set of buffers change under
 *	it, so that a new link gets every buffer and a buffer every link.
 *	Nests outside @lock and the links' llc_lock.
 * @rtokens: the peer's RMBs on each link, SMCR_LGR_RTOKENS of them, once
 *	the group has had a second link; under @lock
 * @add_work: runs the registered adder (smcr_lgr_register_add()) to
 *	add a link, after the first contact and after a link left; queued
 *	with a reference on the group, under @lock while not @terminating
 * @last_link_id: the link id last given to a new link; under @links_lock
 * @had_links: a further link came up once; under @links_lock
 * @add_fails: the adder's offers that failed in a row; under @links_lock
 * @alloc_rmbs: bytes of the group's RMBs, in use, spare, retiring or
 *	freed not yet, as Linux 6.12 reports them (SMC_NLA_LGR_R_RMB_ALLOC)
 * @alloc_sndbufs: the same of its send buffers, parked ones too
 * @add_asked: the adder is to try now, whatever its retry interval:
 *	SMCR_LGR_ASK_PEER, the client asked for a link (REQUEST ADD LINK),
 *	and SMCR_LGR_ASK_PORT, a port of ours came up. Set where
 *	@links_lock may not be taken (a link's request work, under
 *	smcr_lgrs_lock), taken by the adder (atomic_xchg())
 * @drop_work: takes links that went down off the group, their
 *	connections moved to an active one
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
	struct smcr_clc_terms	agreed;
	struct smcr_link	lnk[SMCR_LINKS_MAX];
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
	struct smcr_buf_spares	spare_rmbs;
	struct smcr_buf_spares	spare_sndbufs;
	struct list_head	retiring;
	struct work_struct	rkey_work;
	bool			rkey_work_queued;
	struct mutex		links_lock;	/* see above */
	struct smcr_rtoken	*rtokens;
	struct delayed_work	add_work;
	u8			last_link_id;
	bool			had_links;
	u8			add_fails;
	atomic_long_t		alloc_rmbs;
	atomic_long_t		alloc_sndbufs;
	atomic_t		add_asked;
	struct work_struct	drop_work;
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
 * smcr_lgr_link_in_use() - whether a link of a group is up or coming up
 * @link: entry of its group's links
 *
 * Such a link carries, or is about to carry, traffic: the group's
 * buffers are mapped on it and connections may be placed on it.
 *
 * Return: true for a link in SMCR_LINK_ACTIVATING or SMCR_LINK_ACTIVE.
 */
static inline bool smcr_lgr_link_in_use(const struct smcr_link *link)
{
	int state = READ_ONCE(link->state);

	return link->lgr &&
	       (state == SMCR_LINK_ACTIVATING || state == SMCR_LINK_ACTIVE);
}

/**
 * smcr_lgr_primary_idx() - which link a group speaks for itself on
 * @lgr: group
 *
 * Its first active link, else its first link in use (being set up, or
 * down). A group has a link in use for as long as it exists: a link is
 * taken off only once its connections moved to an active one
 * (smcr_lgr_drop_work()); the last goes with the group. The link stays
 * whole while the caller holds @lgr->links_lock or @lgr->lock, under
 * which links come and go; without either, read only its state.
 *
 * Return: the link's index in @lgr->lnk.
 */
static inline int smcr_lgr_primary_idx(const struct smcr_lgr *lgr)
{
	int i, in_use = -1;

	for (i = 0; i < SMCR_LINKS_MAX; i++) {
		if (!lgr->lnk[i].lgr)
			continue;
		switch (READ_ONCE(lgr->lnk[i].state)) {
		case SMCR_LINK_ACTIVE:
			return i;
		case SMCR_LINK_UNUSED:
			break;
		default:
			if (in_use < 0)
				in_use = i;
		}
	}
	return in_use < 0 ? 0 : in_use;
}

/**
 * smcr_lgr_primary() - the link a group speaks for itself on
 * @lgr: group
 *
 * See smcr_lgr_primary_idx().
 *
 * Return: the link.
 */
static inline struct smcr_link *smcr_lgr_primary(struct smcr_lgr *lgr)
{
	return &lgr->lnk[smcr_lgr_primary_idx(lgr)];
}

/**
 * struct smcr_conn - the SMC-R state of a connection (§4)
 * @lgr: link group, referenced while set; changed under @lock as well,
 *	so that sock_diag and the receive path can read the group without
 *	the socket lock. Cleared before the buffers go: whoever found it set
 *	under @lock may use @rmb until it drops @lock.
 * @link: the link our CDC messages and RDMA writes go over, one of
 *	@lgr's; set and cleared with @lgr
 * @token: our alert token: the peer's CDC messages name us by it
 * @rmb: our RMB element, the peer writes into it
 * @sndbuf: where sendmsg stages data before the RDMA write
 * @rmb_slot: slot for @rmb (struct smcr_buf_slot)
 * @sndbuf_slot: slot for @sndbuf
 * @bufs_counted: @rmb and @sndbuf count in the namespace's buffers in
 *	use (smcr_stats_buf()), until smcr_buf_conn_free(); under the
 *	socket lock
 * @peer_token: the peer's alert token
 * @peer_rkey: rkey of the peer's RMB
 * @peer_rmb: address of the peer's RMB element
 * @peer_size: size of the peer's RMB element
 * @tx_seq: sequence number of our last CDC message (A.4), one count per
 *	connection across its links, under the socket lock
 * @rx_seq: sequence number of the peer's newest CDC message taken: an
 *	older one, late over a link that failed meanwhile, is discarded
 *	(A.4); under @lock
 * @rx_replay: the peer failed over (its failover validation came): until
 *	its producer cursor passes the one we have, it may repeat older
 *	ones, as Linux's smc.ko does after it rewinds to its last completed
 *	write; under @lock
 * @tx_prod: bytes ever written into the peer's RMBE
 * @tx_done: bytes of @sndbuf whose RDMA write completed
 * @tx_peer_cons: bytes the peer has consumed, from its cursor
 * @tx_cursor_sent: @tx_prod as last told to the peer
 * @tx_written: bytes whose RDMA write is posted, before a CDC message
 *	that covers them; up to @tx_prod, the rest staged (corked) for the
 *	next message; under @lock
 * @tx_inflight: our CDC messages posted and not completed; sendmsg corks
 *	small sends while there are any; under @lock
 * @tx_uncork: the completion of the last message in flight found the
 *	socket owned: its release sends what is staged; under the socket's
 *	spinlock (bh_lock_sock())
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
 *	@rx_prod, @rx_cons, @tx_prod, @tx_peer_cons, @tx_done, @tx_written,
 *	@tx_inflight, and the peer_* flags and cursor wraps
 *
 * Cursor counters only grow; the wire carries them as wrap and offset
 * (A.4). What the peer reports is written by the receive path (softirq)
 * under @lock; everything else under the conn's socket lock, and @rx_cons
 * and @tx_prod under @lock too, as the receive path and poll read them.
 * The socket lock's owner reads what only it writes without @lock.
 */
struct smcr_conn {
	struct smcr_lgr		*lgr;
	struct smcr_link	*link;
	u32			token;
	struct smcr_buf		rmb;
	struct smcr_buf		sndbuf;
	struct smcr_buf_slot	*rmb_slot;
	struct smcr_buf_slot	*sndbuf_slot;
	bool			bufs_counted;
	u32			peer_token;
	u32			peer_rkey;
	u64			peer_rmb;
	u32			peer_size;
	u16			tx_seq;
	u16			rx_seq;
	bool			rx_replay;

	u64			tx_prod;
	u64			tx_done;
	u64			tx_peer_cons;
	u64			tx_cursor_sent;
	u64			tx_written;
	unsigned int		tx_inflight;
	bool			tx_uncork;
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

/* smcr_lgr.c */
extern struct mutex smcr_lgr_server_lock;
extern struct mutex smcr_lgr_client_lock;
struct smcr_lgr *smcr_lgr_find(bool server, u8 version, const u8 *peer_id,
			       const u8 *peer_gid,
			       u32 peer_qpn, struct mutex *lock);
struct smcr_lgr *smcr_lgr_create(bool server, u8 version, const u8 *peer_id,
				 struct smcr_ib_port *port, bool uses_gateway,
				 const struct smcr_clc_terms *agreed);
void smcr_lgr_put(struct smcr_lgr *lgr);
u32 smcr_lgr_hs_ticket(struct smcr_lgr *lgr);
void smcr_lgr_hs_turn(struct smcr_lgr *lgr, u32 ticket);
void smcr_lgr_hs_done(struct smcr_lgr *lgr, u32 ticket);
void smcr_lgr_set_peer(struct smcr_lgr *lgr, const struct smcr_clc_fce *fce);
int smcr_lgr_walk(int skip, int (*fn)(const struct smcr_lgr *lgr, void *arg),
		  void *arg);
void smcr_lgr_terminate(struct smcr_lgr *lgr);
void smcr_lgr_link_down(struct smcr_link *link);
void smcr_lgr_terminate_all(struct smcr_ibdev *dev);
void smcr_lgr_dev_removing(struct smcr_ibdev *dev, unsigned int round);
int smcr_conn_register(struct smcr_lgr *lgr, struct smcr_sock *smc,
		       struct smcr_link *link);
u32 smcr_lgr_link_conns(const struct smcr_link *link);
struct smcr_link *smcr_lgr_other_active(struct smcr_lgr *lgr,
					const struct smcr_link *link);

/* moves a connection's sending from a failed link to another of its group */
typedef int (*smcr_lgr_move_t)(struct smcr_sock *smc, struct smcr_link *from,
			       struct smcr_link *to);
void smcr_lgr_register_move(smcr_lgr_move_t move);
/* adds a link to a group: 0 when done, else jiffies to the next try */
typedef unsigned long (*smcr_lgr_add_t)(struct smcr_lgr *lgr);
void smcr_lgr_register_add(smcr_lgr_add_t add);
void smcr_lgr_want_link(struct smcr_lgr *lgr, unsigned long delay);
void smcr_lgr_port_err(struct smcr_ibdev *dev, u32 port);
void smcr_lgr_port_up(struct smcr_ibdev *dev);
struct smcr_link *smcr_lgr_link_of_peer(struct smcr_lgr *lgr,
					const u8 *peer_gid, u32 peer_qpn);
void smcr_conn_unregister(struct smcr_sock *smc);
void smcr_conn_undo(struct smcr_sock *smc);
struct smcr_sock *smcr_conn_lookup(struct smcr_lgr *lgr, u32 token);
int smcr_lgr_link_new(struct smcr_lgr *lgr, int idx, u8 link_id,
		      struct smcr_ib_port *port);
void smcr_lgr_link_free(struct smcr_link *link);

#endif /* SMCR_LGR_H */
