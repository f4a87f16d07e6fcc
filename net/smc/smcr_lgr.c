// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: link groups and the connections on them.
 *
 * RFC 7609 §3.5.1 and §3.5.2: the first connection to a peer creates a
 * link group with one link; later connections to the same peer reuse it
 * (no new QP), up to SMCR_LGR_CONNS_MAX of them (§3.5.3: then a new group),
 * or as many as SMC release 1 agreed on (smcr_lgr_conns_max()).
 * A group without connections stays a while for the next one, then goes.
 * A group may get a second link (smcr_links.c): entries of lgr->lnk.
 *
 * A connection's buffers are the group's too (smcr_buf.c): mapped on each
 * of its links, and kept for the next connection when it goes.
 */

#include <linux/dma-direction.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "smcr.h"
#include "smcr_buf.h"
#include "smcr_ib.h"
#include "smcr_llc.h"
#include "smcr_trace.h"

/* smcr_lgrs_lock protects smcr_lgrs, oldest group first. It nests
 * outside a group's lock.
 */
static LIST_HEAD(smcr_lgrs);
static DEFINE_SPINLOCK(smcr_lgrs_lock);

/* set at module load, before any group exists (smcr_lgr_register_move()) */
static smcr_lgr_move_t smcr_lgr_mover;

/**
 * smcr_lgr_register_move() - who moves connections off a failed link
 * @move: called from process context, no group lock held, for each
 *	connection sending on a further link that went down while the
 *	group's first link is active; returns 0 once the connection sends
 *	on @to, else a negative errno and the connection is aborted
 *
 * Context: module load or unload, no group in existence.
 */
void smcr_lgr_register_move(smcr_lgr_move_t move)
{
	WRITE_ONCE(smcr_lgr_mover, move);
}

/* set at module load, before any group exists (smcr_lgr_register_add()) */
static smcr_lgr_add_t smcr_lgr_adder;

/**
 * smcr_lgr_register_add() - who adds links to a group
 * @add: called from process context under the group's links_lock, for a
 *	group not terminating, when smcr_lgr_want_link() asked for it;
 *	returns 0 when it is done, else the jiffies after which it wants
 *	to be called again
 *
 * Context: module load or unload, no group in existence.
 */
void smcr_lgr_register_add(smcr_lgr_add_t add)
{
	WRITE_ONCE(smcr_lgr_adder, add);
}

/* Group ids step by 256: the low byte is the link id's in link user ids */
#define SMCR_LGR_ID_STEP	256
static atomic_t smcr_lgr_last_id = ATOMIC_INIT(0);

/* Per role, one handshake at a time picks or creates its group and joins
 * it: the second connection to a peer must find the group the first one
 * is creating. Nothing under these locks waits for a peer: a handshake
 * lets go before it talks to the peer again, and one that finds a group
 * still being set up waits for it without the lock (smcr_lgr_find()).
 */
DEFINE_MUTEX(smcr_lgr_server_lock);	/* server handshakes choose groups */
DEFINE_MUTEX(smcr_lgr_client_lock);	/* client handshakes choose groups */

/* How long a handshake waits for a group to the same peer that another
 * handshake is setting up, before it sets up one of its own: less than a
 * client's wait for the CLC Accept (Linux's is 2 s)
 */
#define SMCR_LGR_SETUP_WAIT	HZ

/* Rounds of a device's removal (a second apart) in which a group on it
 * may still be failing over to a link elsewhere before it ends: the
 * moves wait at most for the socket locks of its connections
 */
#define SMCR_LGR_REMOVE_ROUNDS	5

/* Seconds a group without connections stays for the next connection to
 * its peer; RFC 7609 leaves it to the implementation (§3.5.2 only says a
 * group may end once unused)
 */
static unsigned int lgr_idle_time = 10;
module_param(lgr_idle_time, uint, 0644);
MODULE_PARM_DESC(lgr_idle_time,
		 "Seconds a link group without connections stays (1..3600; default 10)");

static unsigned long smcr_lgr_idle(void)
{
	return clamp_t(unsigned int, READ_ONCE(lgr_idle_time), 1, 3600) * HZ;
}

static void smcr_lgr_release(struct kref *kref)
{
	struct smcr_lgr *lgr = container_of(kref, struct smcr_lgr, kref);
	int i;

	trace_smcr_lgr_free(lgr);
	for (i = 0; i < SMCR_LINKS_MAX; i++)
		if (lgr->lnk[i].lgr)
			cancel_delayed_work_sync(&lgr->lnk[i].testlink_work);
	/* memory regions go before their protection domain */
	smcr_buf_free_slots(lgr, &lgr->retiring, DMA_FROM_DEVICE);
	smcr_buf_free_slots(lgr, &lgr->spare_rmbs.list, DMA_FROM_DEVICE);
	smcr_buf_free_slots(lgr, &lgr->spare_sndbufs.list, DMA_TO_DEVICE);
	for (i = 0; i < SMCR_LINKS_MAX; i++)
		if (lgr->lnk[i].lgr)
			smcr_link_clear(&lgr->lnk[i]);
	/* the QPs are gone: no write reads the parked send buffers any more */
	smcr_buf_free_slots(lgr, &lgr->parked, DMA_TO_DEVICE);
	for (i = 0; i < SMCR_LINKS_MAX; i++)
		smcr_ib_put_port(&lgr->lnk[i].port);
	kfree(lgr->rtokens);
	xa_destroy(&lgr->conns);
	kfree(lgr);
}

/**
 * smcr_lgr_put() - drop a reference on a link group
 * @lgr: group
 *
 * Context: process (the last reference tears the link down).
 */
void smcr_lgr_put(struct smcr_lgr *lgr)
{
	kref_put(&lgr->kref, smcr_lgr_release);
}

/* Unlist a group: no connection can find it any more */
static bool smcr_lgr_unlist(struct smcr_lgr *lgr)
{
	bool listed;

	spin_lock_bh(&smcr_lgrs_lock);
	listed = !list_empty(&lgr->list);
	list_del_init(&lgr->list);
	spin_unlock_bh(&smcr_lgrs_lock);
	return listed;
}

static void smcr_lgr_add_work(struct work_struct *work)
{
	struct smcr_lgr *lgr = container_of(to_delayed_work(work),
					    struct smcr_lgr, add_work);
	smcr_lgr_add_t add = READ_ONCE(smcr_lgr_adder);
	unsigned long again = 0;

	mutex_lock(&lgr->links_lock);
	if (add && !READ_ONCE(lgr->terminating))
		again = add(lgr);
	mutex_unlock(&lgr->links_lock);
	if (again)
		smcr_lgr_want_link(lgr, again);
	/* the reference taken when the work was queued */
	smcr_lgr_put(lgr);
}

/**
 * smcr_lgr_want_link() - have the registered adder add a link to a group
 * @lgr: group, referenced by the caller
 * @delay: jiffies to wait first; 0 also brings a pending later call
 *	forward
 *
 * Nothing happens once the group is terminating, whose end takes back a
 * pending call (smcr_lgr_cancel_add()).
 *
 * Context: any.
 */
void smcr_lgr_want_link(struct smcr_lgr *lgr, unsigned long delay)
{
	bool queued = false;

	kref_get(&lgr->kref);
	spin_lock_bh(&lgr->lock);
	/* a call pending already holds its own reference */
	if (!lgr->terminating && delay)
		queued = queue_delayed_work(smcr_hs_wq, &lgr->add_work, delay);
	else if (!lgr->terminating)
		queued = !mod_delayed_work(smcr_hs_wq, &lgr->add_work, 0);
	spin_unlock_bh(&lgr->lock);
	/* not the last: the caller's is left */
	if (!queued)
		smcr_lgr_put(lgr);
}

/**
 * smcr_lgr_port_up() - a RoCE port came up, or its GIDs changed
 * @dev: its device
 *
 * It may be the path a group of one link lacks (§3.5.5.4): every group
 * has its adder try at once, which does nothing for a group that has its
 * links or cannot use the port.
 *
 * Context: process.
 */
void smcr_lgr_port_up(struct smcr_ibdev *dev)
{
	struct smcr_lgr *lgr;

	spin_lock_bh(&smcr_lgrs_lock);
	list_for_each_entry(lgr, &smcr_lgrs, list) {
		atomic_or(SMCR_LGR_ASK_PORT, &lgr->add_asked);
		smcr_lgr_want_link(lgr, 0);
	}
	spin_unlock_bh(&smcr_lgrs_lock);
}

/* A group that ends adds no link: a pending try goes, with its reference
 * (not the last one: the group is still listed). Context: any, after
 * @lgr->terminating is set.
 */
static void smcr_lgr_cancel_add(struct smcr_lgr *lgr)
{
	if (cancel_delayed_work(&lgr->add_work))
		smcr_lgr_put(lgr);
}

static void smcr_lgr_free_work(struct work_struct *work)
{
	struct smcr_lgr *lgr = container_of(to_delayed_work(work),
					    struct smcr_lgr, free_work);

	spin_lock_bh(&lgr->lock);
	if (lgr->conns_num && !lgr->terminating) {
		spin_unlock_bh(&lgr->lock);
		goto out;
	}
	lgr->terminating = true;
	spin_unlock_bh(&lgr->lock);
	trace_smcr_lgr_unlist(lgr);
	smcr_lgr_cancel_add(lgr);
	if (smcr_lgr_unlist(lgr)) {
		mutex_lock(&lgr->links_lock);
		smcr_llc_delete_link(smcr_lgr_primary(lgr));
		mutex_unlock(&lgr->links_lock);
		smcr_lgr_put(lgr);
	}
out:
	/* the reference taken when the work was queued */
	smcr_lgr_put(lgr);
}

/* Queue the idle check; a queued check holds a reference on the group */
static void smcr_lgr_schedule_free(struct smcr_lgr *lgr, unsigned long delay)
{
	kref_get(&lgr->kref);
	if (mod_delayed_work(smcr_hs_wq, &lgr->free_work, delay))
		smcr_lgr_put(lgr);
}

/* Cancel the idle check; Context: process with @sync, else any; a
 * reference held
 */
static void smcr_lgr_cancel_free(struct smcr_lgr *lgr, bool sync)
{
	bool pending = sync ? cancel_delayed_work_sync(&lgr->free_work) :
			      cancel_delayed_work(&lgr->free_work);

	if (pending)
		smcr_lgr_put(lgr);
}

/**
 * smcr_lgr_link_conns() - how many connections of its group send on a link
 * @link: link of a group
 *
 * Context: under the group's lock.
 * Return: the number.
 */
u32 smcr_lgr_link_conns(const struct smcr_link *link)
{
	struct smcr_sock *smc;
	unsigned long token;
	u32 n = 0;

	lockdep_assert_held(&link->lgr->lock);
	xa_for_each(&link->lgr->conns, token, smc)
		n += READ_ONCE(smc->conn.link) == link;
	return n;
}

/* A connection whose group let go of it: its peer counts as gone, and
 * whoever waits on the socket hears of it
 */
static void smcr_lgr_conn_aborted(struct smcr_sock *smc)
{
	spin_lock_bh(&smc->conn.lock);
	smc->conn.peer_abort = true;
	spin_unlock_bh(&smc->conn.lock);
	smc->sk.sk_err = ECONNABORTED;
	smc->sk.sk_state_change(&smc->sk);
}

/* A connection that could not move off a failed link: aborted, and taken
 * off its group as a terminated group's are (smcr_lgr_detach_conns())
 */
static void smcr_lgr_drop_conn(struct smcr_lgr *lgr, struct smcr_sock *smc)
{
	lock_sock(&smc->sk);
	if (smc->conn.lgr == lgr) {
		smcr_lgr_conn_aborted(smc);
		smcr_conn_unregister(smc);
	}
	release_sock(&smc->sk);
}

/* Failover (§2.1, §3.5.5.4): move the connections that send on @link,
 * down, to @to. Context: process, links_lock not held: a move takes
 * socket locks, which nest outside it; @to stays, as only this work
 * takes links off a group.
 */
static void smcr_lgr_move_conns(struct smcr_lgr *lgr, struct smcr_link *link,
				struct smcr_link *to)
{
	smcr_lgr_move_t move = READ_ONCE(smcr_lgr_mover);
	struct smcr_sock *smc;
	unsigned long token;
	int rc;

	for (;;) {
		spin_lock_bh(&lgr->lock);
		xa_for_each(&lgr->conns, token, smc) {
			if (READ_ONCE(smc->conn.link) == link) {
				sock_hold(&smc->sk);
				break;
			}
		}
		spin_unlock_bh(&lgr->lock);
		if (!smc)
			return;
		rc = -ENOLINK;
		if (move && READ_ONCE(to->state) == SMCR_LINK_ACTIVE)
			rc = move(smc, link, to);
		/* an aborted one is off the link too: the loop ends */
		if (rc)
			smcr_lgr_drop_conn(lgr, smc);
		sock_put(&smc->sk);
	}
}

/**
 * smcr_lgr_other_active() - another active link of a group
 * @lgr: group
 * @link: a link of it
 *
 * Context: under @lgr's lock or links_lock, so that no link leaves the
 * group meanwhile.
 * Return: an active link of @lgr other than @link, else NULL.
 */
struct smcr_link *smcr_lgr_other_active(struct smcr_lgr *lgr,
					const struct smcr_link *link)
{
	struct smcr_link *l;
	int i;

	lockdep_assert(lockdep_is_held(&lgr->lock) ||
		       lockdep_is_held(&lgr->links_lock));
	for (i = 0; i < SMCR_LINKS_MAX; i++) {
		l = &lgr->lnk[i];
		if (l != link && l->lgr &&
		    READ_ONCE(l->state) == SMCR_LINK_ACTIVE)
			return l;
	}
	return NULL;
}

/* The group's links that went down: the peer is told with DELETE LINK
 * (A.3.4) over an active link unless it knows, their QPs are flushed,
 * their connections move to that link, and they are taken off the group,
 * which goes on
 * over the others; the first link's failure is no different (§3.5.5.4).
 * With no active link left, or a connection that stays on a failed one,
 * the group ends.
 */
static void smcr_lgr_drop_work(struct work_struct *work)
{
	struct smcr_lgr *lgr = container_of(work, struct smcr_lgr, drop_work);
	struct smcr_link *link, *to;
	bool busy = false, left = false, down;
	int i;

	for (i = 0; i < SMCR_LINKS_MAX && !busy; i++) {
		link = &lgr->lnk[i];
		mutex_lock(&lgr->links_lock);
		down = link->lgr && READ_ONCE(link->state) == SMCR_LINK_DOWN;
		to = down ? smcr_lgr_other_active(lgr, link) : NULL;
		if (to && !link->peer_deleted)
			smcr_llc_delete_link_one(to, link->link_id, false);
		mutex_unlock(&lgr->links_lock);
		if (!down)
			continue;
		if (!to) {
			busy = true;
			continue;
		}
		/* nothing lands over it after the moves rewrote its bytes */
		smcr_link_flush(link);
		smcr_lgr_move_conns(lgr, link, to);
		mutex_lock(&lgr->links_lock);
		if (link->lgr && READ_ONCE(link->state) == SMCR_LINK_DOWN) {
			spin_lock_bh(&lgr->lock);
			busy |= smcr_lgr_link_conns(link) > 0;
			spin_unlock_bh(&lgr->lock);
			if (!busy) {
				smcr_lgr_link_free(link);
				left = true;
			}
		}
		mutex_unlock(&lgr->links_lock);
	}
	if (busy)
		smcr_lgr_terminate(lgr);
	else if (left)
		smcr_lgr_want_link(lgr, 0);	/* one to replace it */
	/* the reference taken when the work was queued */
	smcr_lgr_put(lgr);
}

static void smcr_link_fail_work(struct work_struct *work)
{
	struct smcr_link *link = container_of(work, struct smcr_link,
					      fail_work);
	struct smcr_lgr *lgr = link->lgr;
	bool other;

	spin_lock_bh(&lgr->lock);
	other = smcr_lgr_other_active(lgr, link);
	spin_unlock_bh(&lgr->lock);
	/* §3.5.5.4: the connections go over to another link, if any */
	if (!other) {
		smcr_lgr_terminate(lgr);
	} else {
		/* the group decides under links_lock, which whoever frees
		 * the link holds while it waits for this work
		 */
		kref_get(&lgr->kref);
		if (!queue_work(smcr_hs_wq, &lgr->drop_work))
			smcr_lgr_put(lgr);
	}
	smcr_lgr_put(lgr);
}

/**
 * smcr_lgr_link_of_peer() - the active link of a group to a peer's QP
 * @lgr: group
 * @peer_gid: the GID of the peer's end
 * @peer_qpn: the peer's QP number
 *
 * Return: the link, or NULL.
 */
struct smcr_link *smcr_lgr_link_of_peer(struct smcr_lgr *lgr,
					const u8 *peer_gid, u32 peer_qpn)
{
	struct smcr_link *link;
	int i;

	for (i = 0; i < SMCR_LINKS_MAX; i++) {
		link = &lgr->lnk[i];
		if (link->lgr && READ_ONCE(link->state) == SMCR_LINK_ACTIVE &&
		    link->peer_qpn == peer_qpn &&
		    !memcmp(link->peer_gid, peer_gid, SMCR_CLC_GID_LEN))
			return link;
	}
	return NULL;
}

/* Whether @lgr is a group of ours in @server's role and @version to the
 * peer with @peer_id whose end of an active link, or of the primary one
 * (a group being set up), has @peer_gid and, if given, @peer_qpn; as
 * Linux matches a group by any of its links.
 * Context: under smcr_lgrs_lock.
 */
static bool smcr_lgr_same_peer(struct smcr_lgr *lgr, bool server,
			       u8 version, const u8 *peer_id,
			       const u8 *peer_gid, u32 peer_qpn)
{
	struct smcr_link *first, *l;
	bool same = false;
	int i;

	if (lgr->server != server || lgr->version != version ||
	    memcmp(lgr->peer_id, peer_id, SMCR_CLC_PEER_ID_LEN))
		return false;
	/* the links stay as they are under the group's lock */
	spin_lock(&lgr->lock);
	first = smcr_lgr_primary(lgr);
	for (i = 0; i < SMCR_LINKS_MAX && !same; i++) {
		l = &lgr->lnk[i];
		if (!l->lgr || (l != first &&
				READ_ONCE(l->state) != SMCR_LINK_ACTIVE))
			continue;
		same = !memcmp(l->peer_gid, peer_gid, SMCR_CLC_GID_LEN) &&
		       (!peer_qpn || l->peer_qpn == peer_qpn);
	}
	spin_unlock(&lgr->lock);
	return same;
}

/* A listed group to the peer that is active, else one still being set
 * up (@setup), each with a reference
 */
/* The connections a group takes: as many as its first contact agreed on
 * (SMC release 1) where we are the server, who places them; the client
 * follows the server's choice, as Linux's does, since the two ends take
 * a closing connection off the group at different times.
 */
static int smcr_lgr_conns_max(const struct smcr_lgr *lgr)
{
	return lgr->server ? lgr->agreed.max_conns : SMCR_LGR_CONNS_MAX;
}

static struct smcr_lgr *smcr_lgr_lookup(bool server, u8 version,
					const u8 *peer_id, const u8 *peer_gid,
					u32 peer_qpn, struct smcr_lgr **setup)
{
	struct smcr_lgr *lgr, *found = NULL;
	int state;

	*setup = NULL;
	spin_lock_bh(&smcr_lgrs_lock);
	list_for_each_entry(lgr, &smcr_lgrs, list) {
		state = READ_ONCE(smcr_lgr_primary(lgr)->state);
		if (!smcr_lgr_same_peer(lgr, server, version, peer_id,
					peer_gid, peer_qpn) ||
		    lgr->terminating || state == SMCR_LINK_DOWN ||
		    lgr->conns_num >= smcr_lgr_conns_max(lgr))
			continue;
		if (state == SMCR_LINK_ACTIVE) {
			found = lgr;
			break;
		}
		if (!*setup)
			*setup = lgr;
	}
	if (found)
		*setup = NULL;
	if (found || *setup)
		kref_get(found ? &found->kref : &(*setup)->kref);
	spin_unlock_bh(&smcr_lgrs_lock);
	return found;
}

/**
 * smcr_lgr_find() - a group to the peer a new connection can join
 * @server: our role in the group
 * @version: SMC-R version the connection negotiated
 * @peer_id: the peer's peer ID
 * @peer_gid: GID of the peer's end of the link
 * @peer_qpn: the peer's QP number, or 0 not to compare it
 * @lock: the role's handshake lock, held; let go of while waiting
 *
 * A group to the same peer that another handshake is setting up is
 * waited for, up to SMCR_LGR_SETUP_WAIT, without @lock: a silent peer
 * holds up its own connections for that long, and nobody else's.
 *
 * Return: an active group with a reference, or NULL.
 */
struct smcr_lgr *smcr_lgr_find(bool server, u8 version, const u8 *peer_id,
			       const u8 *peer_gid,
			       u32 peer_qpn, struct mutex *lock)
{
	long left = SMCR_LGR_SETUP_WAIT;
	struct smcr_lgr *lgr, *setup;

	lockdep_assert_held(lock);
	for (;;) {
		lgr = smcr_lgr_lookup(server, version, peer_id, peer_gid,
				      peer_qpn, &setup);
		if (lgr || !setup || !left)
			break;
		mutex_unlock(lock);
		/* the link's state changes wake tx_wait */
		left = wait_event_timeout(setup->lnk[0].tx_wait,
					  READ_ONCE(setup->lnk[0].state) !=
					  SMCR_LINK_ACTIVATING, left);
		smcr_lgr_put(setup);
		mutex_lock(lock);
	}
	if (setup)
		smcr_lgr_put(setup);
	return lgr;
}

/* A listed server group to the same peer as @new whose handshakes are not
 * all done, with a reference, and the ticket that follows its last one
 */
static struct smcr_lgr *smcr_lgr_hs_pending(struct smcr_lgr *new,
					    u32 *ticket)
{
	struct smcr_lgr *lgr, *found = NULL;

	lockdep_assert_held(&smcr_lgr_server_lock);
	spin_lock_bh(&smcr_lgrs_lock);
	list_for_each_entry(lgr, &smcr_lgrs, list) {
		if (lgr == new ||
		    !smcr_lgr_same_peer(lgr, true, new->version, new->peer_id,
					new->lnk[0].peer_gid, 0) ||
		    READ_ONCE(lgr->hs_turn) == lgr->hs_next)
			continue;
		found = lgr;	/* the newest: it comes after the others */
	}
	if (found) {
		kref_get(&found->kref);
		*ticket = found->hs_next;
	}
	spin_unlock_bh(&smcr_lgrs_lock);
	return found;
}

/**
 * smcr_lgr_hs_ticket() - a server handshake takes its place in a group
 * @lgr: the group its connection was just registered on, its peer set
 *
 * The server handshakes to one peer queue their children for accept() in
 * the order they joined their groups, which for one client connecting
 * one connection after the other is the order of its connect()s, as TCP
 * has it: a handshake whose worker ran late still comes first. Within a
 * group the tickets keep that order. A group opened while another one to
 * the same peer still has handshakes under way (the client's first group
 * is full, smcr_lgr_conns_max()) makes its first handshake wait for those
 * too (@lgr->hs_after).
 *
 * The ticket holds a reference on the group until smcr_lgr_hs_done().
 *
 * Context: under smcr_lgr_server_lock.
 * Return: the ticket.
 */
u32 smcr_lgr_hs_ticket(struct smcr_lgr *lgr)
{
	lockdep_assert_held(&smcr_lgr_server_lock);
	kref_get(&lgr->kref);
	if (!lgr->hs_next)
		lgr->hs_after = smcr_lgr_hs_pending(lgr, &lgr->hs_after_ticket);
	return lgr->hs_next++;
}

/**
 * smcr_lgr_hs_turn() - wait for the handshakes before @ticket
 * @lgr: group
 * @ticket: from smcr_lgr_hs_ticket()
 *
 * Up to SMCR_LGR_SETUP_WAIT for each group waited on: one whose client
 * went silent delays the next handshakes to the same peer that long, and
 * nobody else's.
 *
 * Context: process, no handshake lock held.
 */
void smcr_lgr_hs_turn(struct smcr_lgr *lgr, u32 ticket)
{
	/* the handshakes waited for need it to finish */
	lockdep_assert_not_held(&smcr_lgr_server_lock);
	if (!ticket && lgr->hs_after)
		smcr_lgr_hs_turn(lgr->hs_after, lgr->hs_after_ticket);
	wait_event_timeout(lgr->hs_wait,
			   (s32)(READ_ONCE(lgr->hs_turn) - ticket) >= 0,
			   SMCR_LGR_SETUP_WAIT);
}

/**
 * smcr_lgr_hs_done() - a server handshake is done with its group
 * @lgr: group
 * @ticket: from smcr_lgr_hs_ticket(); its reference is dropped
 *
 * Context: process.
 */
void smcr_lgr_hs_done(struct smcr_lgr *lgr, u32 ticket)
{
	spin_lock_bh(&lgr->lock);
	if ((s32)(ticket + 1 - lgr->hs_turn) > 0)
		WRITE_ONCE(lgr->hs_turn, ticket + 1);
	spin_unlock_bh(&lgr->lock);
	wake_up_all(&lgr->hs_wait);
	if (!ticket && lgr->hs_after) {
		smcr_lgr_put(lgr->hs_after);
		lgr->hs_after = NULL;
	}
	smcr_lgr_put(lgr);
}

/**
 * smcr_lgr_link_new() - set up a link of a group
 * @lgr: group
 * @idx: index of a free entry of @lgr->lnk
 * @link_id: the link's number (A.3.1)
 * @port: local end; the link takes over its device reference, also on
 *	failure (@port->dev is cleared)
 *
 * The link's QP is in INIT with its receives posted, SMCR_LINK_ACTIVATING.
 * A link that failed to come up goes with smcr_lgr_link_free().
 *
 * Return: 0 or a negative errno.
 */
int smcr_lgr_link_new(struct smcr_lgr *lgr, int idx, u8 link_id,
		      struct smcr_ib_port *port)
{
	struct smcr_link *link = &lgr->lnk[idx];
	int rc;

	memset(link, 0, sizeof(*link));
	link->lgr = lgr;
	link->port = *port;
	port->dev = NULL;		/* the link holds the reference now */
	link->idx = idx;
	link->link_id = link_id;
	INIT_WORK(&link->fail_work, smcr_link_fail_work);
	INIT_DELAYED_WORK(&link->testlink_work, smcr_llc_testlink_work);
	INIT_WORK(&link->llc_work, smcr_llc_req_work);
	spin_lock_init(&link->llc_req_lock);
	rc = smcr_link_init(link, lgr->version, lgr->uses_gateway);
	if (rc) {
		smcr_ib_put_port(&link->port);
		link->lgr = NULL;
		return rc;
	}
	/* netlink dumps read the links under the group's lock */
	spin_lock_bh(&lgr->lock);
	WRITE_ONCE(link->state, SMCR_LINK_ACTIVATING);
	spin_unlock_bh(&lgr->lock);
	return 0;
}

/**
 * smcr_lgr_link_free() - take a further link off its group
 * @link: link from smcr_lgr_link_new(), not the group's last, no
 *	connection on it: one that did not come up, or went down
 *
 * Its QP is flushed and goes, the group's buffers leave it, then its
 * protection domain and its device.
 *
 * Context: process, under @link->lgr->links_lock.
 */
void smcr_lgr_link_free(struct smcr_link *link)
{
	struct smcr_lgr *lgr = link->lgr;
	struct smcr_ib_port port;
	int i;

	lockdep_assert_held(&lgr->links_lock);
	/* down, but not failed: that would end the group */
	if (xchg(&link->state, SMCR_LINK_DOWN) != SMCR_LINK_DOWN)
		trace_smcr_link_down(link, SMCR_DOWN_ADD);
	/* the QP flushed first: an LLC wait on the link ends with it */
	smcr_link_stop(link);
	cancel_delayed_work_sync(&link->testlink_work);
	/* queued before the link went down: the group's reference */
	if (cancel_work_sync(&link->llc_work))
		smcr_lgr_put(lgr);
	if (cancel_work_sync(&link->fail_work))
		smcr_lgr_put(lgr);
	smcr_buf_unmap_link(lgr, link);
	smcr_link_clear(link);
	/* netlink dumps read the links, device included, under the group's
	 * lock: the device goes once the link is cleared
	 */
	port = link->port;
	spin_lock_bh(&lgr->lock);
	/* the peer's rkeys on it: a new link may take its index */
	for (i = 0; lgr->rtokens && i < SMCR_LGR_RTOKENS; i++)
		lgr->rtokens[i].links &= ~BIT(link->idx);
	memset(link, 0, sizeof(*link));
	spin_unlock_bh(&lgr->lock);
	smcr_ib_put_port(&port);
}

/**
 * smcr_lgr_create() - a new group with one link on @port
 * @server: our role
 * @version: SMC-R version, SMCR_CLC_V1 or SMCR_CLC_V2
 * @peer_id: the peer's peer ID
 * @port: local end of the link; the group takes over its device
 *	reference, also on failure (@port->dev is cleared)
 * @uses_gateway: SMC-Rv2: the peer is reached through an IP gateway
 * @agreed: what the first contact settled
 *
 * The link's QP is in INIT with its receives posted. The group is listed
 * (one reference) and returned with a reference for the caller.
 *
 * Return: the group or an ERR_PTR.
 */
struct smcr_lgr *smcr_lgr_create(bool server, u8 version, const u8 *peer_id,
				 struct smcr_ib_port *port, bool uses_gateway,
				 const struct smcr_clc_terms *agreed)
{
	struct smcr_lgr *lgr;
	int rc;

	lgr = kzalloc(sizeof(*lgr), GFP_KERNEL);
	if (!lgr)
		return ERR_PTR(-ENOMEM);
	kref_init(&lgr->kref);
	spin_lock_init(&lgr->lock);
	INIT_LIST_HEAD(&lgr->list);
	INIT_LIST_HEAD(&lgr->parked);
	INIT_LIST_HEAD(&lgr->spare_rmbs.list);
	INIT_LIST_HEAD(&lgr->spare_sndbufs.list);
	INIT_LIST_HEAD(&lgr->retiring);
	INIT_WORK(&lgr->rkey_work, smcr_buf_rkey_work);
	INIT_WORK(&lgr->drop_work, smcr_lgr_drop_work);
	INIT_DELAYED_WORK(&lgr->add_work, smcr_lgr_add_work);
	init_waitqueue_head(&lgr->hs_wait);
	INIT_DELAYED_WORK(&lgr->free_work, smcr_lgr_free_work);
	xa_init_flags(&lgr->conns, XA_FLAGS_ALLOC1);
	lgr->server = server;
	lgr->version = version;
	lgr->uses_gateway = uses_gateway;
	lgr->agreed = *agreed;
	do {
		lgr->id = atomic_add_return(SMCR_LGR_ID_STEP,
					    &smcr_lgr_last_id);
	} while (!lgr->id);
	memcpy(lgr->peer_id, peer_id, SMCR_CLC_PEER_ID_LEN);
	mutex_init(&lgr->links_lock);
	rc = smcr_lgr_link_new(lgr, 0, 1, port);
	if (rc) {
		kfree(lgr);
		return ERR_PTR(rc);
	}

	kref_get(&lgr->kref);
	spin_lock_bh(&smcr_lgrs_lock);
	list_add_tail(&lgr->list, &smcr_lgrs);
	spin_unlock_bh(&smcr_lgrs_lock);
	trace_smcr_lgr_create(lgr);
	return lgr;
}

/**
 * smcr_lgr_set_peer() - take note of the peer's first contact extension
 * @lgr: SMC-Rv2 group of the first contact
 * @fce: the extension of the peer's Accept or Confirm
 *
 * The host name is kept only if it is ASCII, as Linux does.
 */
void smcr_lgr_set_peer(struct smcr_lgr *lgr, const struct smcr_clc_fce *fce)
{
	bool ascii = true;
	int i;

	for (i = 0; i < SMCR_CLC_HOSTNAME_LEN; i++)
		ascii &= fce->hostname[i] < 0x80;
	spin_lock_bh(&lgr->lock);
	lgr->peer_os = fce->os_type;
	lgr->peer_release = fce->release;
	if (ascii)
		memcpy(lgr->peer_host, fce->hostname, SMCR_CLC_HOSTNAME_LEN);
	spin_unlock_bh(&lgr->lock);
}

/**
 * smcr_lgr_walk() - visit the listed groups, oldest first
 * @skip: how many to pass over first
 * @fn: called for each group from the @skip-th on, until it returns
 *	non-zero; under the list's lock and the group's, BH disabled: it
 *	must not sleep
 * @arg: passed to @fn
 *
 * Context: process or softirq.
 * Return: the position (from 0) of the group @fn stopped at, else the
 * number of groups.
 */
int smcr_lgr_walk(int skip, int (*fn)(const struct smcr_lgr *lgr, void *arg),
		  void *arg)
{
	struct smcr_lgr *lgr;
	int pos = 0, stop;

	spin_lock_bh(&smcr_lgrs_lock);
	list_for_each_entry(lgr, &smcr_lgrs, list) {
		if (pos < skip) {
			pos++;
			continue;
		}
		spin_lock(&lgr->lock);
		stop = fn(lgr, arg);
		spin_unlock(&lgr->lock);
		if (stop)
			break;
		pos++;
	}
	spin_unlock_bh(&smcr_lgrs_lock);
	return pos;
}

/* Tell every connection of a dead group that its peer is gone */
static void smcr_lgr_abort_conns(struct smcr_lgr *lgr)
{
	struct smcr_sock *smc;
	unsigned long token;

	spin_lock_bh(&lgr->lock);
	xa_for_each(&lgr->conns, token, smc) {
		smcr_lgr_conn_aborted(smc);
		/* a closed one waiting for its peer is freed now */
		smcr_conn_wake(smc);
	}
	spin_unlock_bh(&lgr->lock);
}

/* The first half of smcr_lgr_terminate(): no new connection, link down.
 * Returns false if the group was terminating already.
 */
static bool smcr_lgr_mark_terminating(struct smcr_lgr *lgr)
{
	bool first;
	int i;

	spin_lock_bh(&lgr->lock);
	first = !lgr->terminating;
	if (first) {
		lgr->terminating = true;
		for (i = 0; i < SMCR_LINKS_MAX; i++)
			if (lgr->lnk[i].lgr)
				WRITE_ONCE(lgr->lnk[i].state, SMCR_LINK_DOWN);
	}
	spin_unlock_bh(&lgr->lock);
	return first;
}

/* The second half: its connections aborted, the group unlisted */
static void smcr_lgr_end(struct smcr_lgr *lgr)
{
	int i;

	trace_smcr_lgr_terminate(lgr);
	smcr_lgr_abort_conns(lgr);
	/* under the lock that a link leaving the group is cleared under */
	spin_lock_bh(&lgr->lock);
	for (i = 0; i < SMCR_LINKS_MAX; i++) {
		if (!lgr->lnk[i].lgr)
			continue;
		wake_up_all(&lgr->lnk[i].tx_wait);
		complete_all(&lgr->lnk[i].llc_done);
	}
	spin_unlock_bh(&lgr->lock);
	smcr_lgr_cancel_add(lgr);
	/* an idle group's pending check would hold it, and its devices,
	 * for lgr_idle_time more
	 */
	smcr_lgr_cancel_free(lgr, false);
	if (smcr_lgr_unlist(lgr))
		smcr_lgr_put(lgr);
}

/**
 * smcr_lgr_terminate() - end a group whose link failed
 * @lgr: group
 *
 * Its connections see an abort; the group is unlisted and goes when the
 * last of them lets go of it.
 */
void smcr_lgr_terminate(struct smcr_lgr *lgr)
{
	if (smcr_lgr_mark_terminating(lgr))
		smcr_lgr_end(lgr);
}

/* Take every connection off a terminated group now, instead of when its
 * socket closes: each gives its buffers and its reference on the group
 * back, so the group, its link and its device reference go at once, and
 * an application that never closes its socket cannot hold the device.
 * The sockets stay, aborted (smcr_lgr_abort_conns()).
 */
static void smcr_lgr_detach_conns(struct smcr_lgr *lgr)
{
	struct smcr_sock *smc;
	unsigned long token;

	for (;;) {
		token = 0;
		spin_lock_bh(&lgr->lock);
		smc = xa_find(&lgr->conns, &token, ULONG_MAX, XA_PRESENT);
		if (smc)
			sock_hold(&smc->sk);
		spin_unlock_bh(&lgr->lock);
		if (!smc)
			return;
		/* the owner of the socket lock waits for nothing on a
		 * terminated group for long: the link is down
		 */
		lock_sock(&smc->sk);
		if (smc->conn.lgr == lgr)
			smcr_conn_unregister(smc);
		release_sock(&smc->sk);
		sock_put(&smc->sk);
	}
}

/* Whether a link of @lgr is on @dev; Context: under smcr_lgrs_lock */
static bool smcr_lgr_uses_dev(const struct smcr_lgr *lgr,
			      const struct smcr_ibdev *dev)
{
	int i;

	lockdep_assert_held(&smcr_lgrs_lock);
	for (i = 0; i < SMCR_LINKS_MAX; i++)
		if (READ_ONCE(lgr->lnk[i].port.dev) == dev)
			return true;
	return false;
}

/* Whether @link is on @dev, and on @port unless that is 0 */
static bool smcr_lgr_link_on(const struct smcr_link *link,
			     const struct smcr_ibdev *dev, u32 port)
{
	return link->port.dev == dev && (!port || link->port.port == port);
}

/* Whether @lgr, on @dev (or its @port), leaves it by failover
 * (§3.5.5.4): it has an active link elsewhere; then its links there fail
 * for @why, and their connections move (smcr_lgr_drop_work()).
 * Context: under smcr_lgrs_lock.
 */
static bool smcr_lgr_leaves_dev(struct smcr_lgr *lgr,
				const struct smcr_ibdev *dev, u32 port,
				enum smcr_link_down_reason why)
{
	struct smcr_link *link;
	bool other = false;
	int i;

	lockdep_assert_held(&smcr_lgrs_lock);
	spin_lock(&lgr->lock);
	for (i = 0; i < SMCR_LINKS_MAX; i++) {
		link = &lgr->lnk[i];
		other |= link->lgr && !smcr_lgr_link_on(link, dev, port) &&
			 READ_ONCE(link->state) == SMCR_LINK_ACTIVE;
	}
	other &= !lgr->terminating;
	for (i = 0; i < SMCR_LINKS_MAX && other; i++) {
		link = &lgr->lnk[i];
		if (link->lgr && smcr_lgr_link_on(link, dev, port))
			smcr_link_fail(link, why);
	}
	spin_unlock(&lgr->lock);
	return other;
}

/**
 * smcr_lgr_port_err() - a RoCE port went down
 * @dev: its device
 * @port: the port
 *
 * A group with an active link elsewhere fails over at once: its links on
 * the port fail and their connections move (§3.5.5.4), without waiting
 * for TEST LINK or a failed write. A group whose every link is on the
 * port keeps them: nothing can take over, and a port that comes back
 * soon loses nothing; if it does not, TEST LINK ends the group.
 *
 * Context: process.
 */
void smcr_lgr_port_err(struct smcr_ibdev *dev, u32 port)
{
	struct smcr_lgr *lgr;

	spin_lock_bh(&smcr_lgrs_lock);
	list_for_each_entry(lgr, &smcr_lgrs, list)
		smcr_lgr_leaves_dev(lgr, dev, port, SMCR_DOWN_PORT);
	spin_unlock_bh(&smcr_lgrs_lock);
}

/* End every group, or those on @dev; with @failover not those that can
 * leave it (smcr_lgr_leaves_dev())
 */
static void smcr_lgr_end_all(struct smcr_ibdev *dev, bool failover)
{
	struct smcr_lgr *lgr;

	for (;;) {
		spin_lock_bh(&smcr_lgrs_lock);
		list_for_each_entry(lgr, &smcr_lgrs, list)
			if (!dev || (smcr_lgr_uses_dev(lgr, dev) &&
				     !(failover &&
				       smcr_lgr_leaves_dev(lgr, dev, 0,
							   SMCR_DOWN_DEVICE))))
				goto found;
		spin_unlock_bh(&smcr_lgrs_lock);
		return;
found:
		kref_get(&lgr->kref);
		spin_unlock_bh(&smcr_lgrs_lock);
		smcr_lgr_cancel_free(lgr, true);
		smcr_lgr_terminate(lgr);
		smcr_lgr_detach_conns(lgr);
		smcr_lgr_put(lgr);
		/* one ended by another is listed until that one unlists it */
		cond_resched();
	}
}

/**
 * smcr_lgr_terminate_all() - end every group, or those on one device
 * @dev: device, or NULL for all (module unload)
 *
 * The groups' connections are aborted and taken off them; the groups go
 * once nothing else holds them.
 *
 * Context: process.
 */
void smcr_lgr_terminate_all(struct smcr_ibdev *dev)
{
	smcr_lgr_end_all(dev, false);
}

/**
 * smcr_lgr_dev_removing() - let go of a RoCE device that goes away
 * @dev: device
 * @round: how many times this was called for @dev before, a second apart
 *
 * A group with an active link on another device fails over: its links on
 * @dev fail and their connections move (§3.5.5.4), as for a lost path,
 * for SMCR_LGR_REMOVE_ROUNDS rounds. Other groups on @dev, and any still
 * on it then, end as in smcr_lgr_terminate_all().
 *
 * Context: process.
 */
void smcr_lgr_dev_removing(struct smcr_ibdev *dev, unsigned int round)
{
	smcr_lgr_end_all(dev, round < SMCR_LGR_REMOVE_ROUNDS);
}

/**
 * smcr_lgr_link_down() - the link of a group stopped working
 * @link: link, marked down (smcr_link_fail())
 *
 * With its only link gone the group ends, from a work item.
 *
 * Context: any.
 */
void smcr_lgr_link_down(struct smcr_link *link)
{
	/* a group already on its way out needs no failing */
	if (!kref_get_unless_zero(&link->lgr->kref))
		return;
	if (!queue_work(smcr_hs_wq, &link->fail_work))
		smcr_lgr_put(link->lgr);
}

/* The active link of @lgr with the fewest connections, the first of
 * equals, else NULL. Context: under lgr->lock.
 */
static struct smcr_link *smcr_lgr_least_used(struct smcr_lgr *lgr)
{
	struct smcr_link *link, *best = NULL;
	u32 n, least = 0;
	int i;

	lockdep_assert_held(&lgr->lock);
	for (i = 0; i < SMCR_LINKS_MAX; i++) {
		link = &lgr->lnk[i];
		if (!link->lgr || READ_ONCE(link->state) != SMCR_LINK_ACTIVE)
			continue;
		n = smcr_lgr_link_conns(link);
		if (!best || n < least) {
			best = link;
			least = n;
		}
	}
	return best;
}

/**
 * smcr_conn_register() - add a connection to a group
 * @lgr: group, referenced by the caller; the connection takes over the
 *	reference
 * @smc: the connection's socket
 * @link: the link of @lgr it sends on; NULL: the server's choice, the
 *	active link with the fewest connections (as Linux's server spreads
 *	them over a group's links)
 *
 * Return: 0, or -ENOSPC when the group is full or ending, or has no
 * active link to choose.
 */
int smcr_conn_register(struct smcr_lgr *lgr, struct smcr_sock *smc,
		       struct smcr_link *link)
{
	struct smcr_conn *conn = &smc->conn;
	u32 token;
	int rc;

	spin_lock_bh(&lgr->lock);
	if (!link)
		link = smcr_lgr_least_used(lgr);
	/* one named that went down meanwhile is leaving the group */
	else if (!smcr_lgr_link_in_use(link))
		link = NULL;
	if (!link || lgr->terminating ||
	    lgr->conns_num >= smcr_lgr_conns_max(lgr)) {
		spin_unlock_bh(&lgr->lock);
		return -ENOSPC;
	}
	rc = xa_alloc_cyclic(&lgr->conns, &token, smc, xa_limit_32b,
			     &lgr->next_token, GFP_ATOMIC);
	if (rc < 0) {
		spin_unlock_bh(&lgr->lock);
		return rc;
	}
	lgr->conns_num++;
	conn->token = token;
	spin_lock(&conn->lock);
	conn->lgr = lgr;
	conn->link = link;
	spin_unlock(&conn->lock);
	spin_unlock_bh(&lgr->lock);
	smcr_lgr_cancel_free(lgr, false);
	return 0;
}

/**
 * smcr_conn_unregister() - take a connection off its group
 * @smc: the connection's socket, locked
 *
 * The receive path finds the connection no more and, once @conn->lgr is
 * cleared under the connection's lock, touches its RMB no more; then the
 * buffers go, or stay with the group for the next connection.
 *
 * Context: process. Without connections a group stays lgr_idle_time, a
 * terminated one goes at once.
 */
void smcr_conn_unregister(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	struct smcr_lgr *lgr = conn->lgr;
	bool idle, tx_busy, rmb_done;

	sock_owned_by_me(&smc->sk);
	if (!lgr)
		return;
	/* from before the connection leaves the group's list until its
	 * buffers are gone: a link freed in between (failover, a failed
	 * offer) would leave their memory regions in its protection domain
	 */
	mutex_lock(&lgr->links_lock);
	spin_lock_bh(&lgr->lock);
	xa_erase(&lgr->conns, conn->token);
	/* a terminated group is unlisted already: it goes with its last
	 * reference, not after an idle wait
	 */
	idle = !--lgr->conns_num && !lgr->terminating;
	spin_unlock_bh(&lgr->lock);

	spin_lock_bh(&conn->lock);
	conn->lgr = NULL;
	conn->link = NULL;
	tx_busy = conn->tx_done < conn->tx_prod;
	/* RC delivers the peer's writes before the CDC message that follows
	 * them: once its close came (§4.8.1, only ever set from the wire),
	 * nothing more lands in the RMB. An abort, ours or the peer's, or
	 * a timed-out close gives no such promise.
	 */
	rmb_done = conn->peer_closed;
	spin_unlock_bh(&conn->lock);

	smcr_buf_conn_free(lgr, smc, tx_busy, rmb_done);
	mutex_unlock(&lgr->links_lock);
	if (idle)
		smcr_lgr_schedule_free(lgr, smcr_lgr_idle());
	smcr_lgr_put(lgr);
}

/**
 * smcr_conn_undo() - take a failed handshake's connection off its group
 * @smc: socket whose connection was registered (or not: then a no-op)
 *
 * A group whose link never came up ends with it. The connection leaves
 * first: ending the group must not abort a socket that goes on over TCP
 * after a Decline (RFC 7609 App. C.1, C.2).
 *
 * Context: process, lock_sock(@smc) held.
 */
void smcr_conn_undo(struct smcr_sock *smc)
{
	struct smcr_lgr *lgr = smc->conn.lgr;
	bool end;

	sock_owned_by_me(&smc->sk);
	if (!lgr)
		return;
	kref_get(&lgr->kref);
	/* marked first, so that the group does not wait the idle time */
	end = READ_ONCE(smcr_lgr_primary(lgr)->state) != SMCR_LINK_ACTIVE &&
	      smcr_lgr_mark_terminating(lgr);
	smcr_conn_unregister(smc);
	if (end)
		smcr_lgr_end(lgr);
	smcr_lgr_put(lgr);
}

/**
 * smcr_conn_lookup() - the connection a peer's CDC message names
 * @lgr: group the message came in on
 * @token: our alert token in the message
 *
 * Context: any.
 * Return: the socket with a reference, or NULL.
 */
struct smcr_sock *smcr_conn_lookup(struct smcr_lgr *lgr, u32 token)
{
	struct smcr_sock *smc;

	spin_lock_bh(&lgr->lock);
	smc = xa_load(&lgr->conns, token);
	if (smc)
		sock_hold(&smc->sk);
	spin_unlock_bh(&lgr->lock);
	return smc;
}

