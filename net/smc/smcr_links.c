// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: a second link for a link group, and the rkeys of its RMBs on
 * each link (RFC 7609 §3.5.1, §3.5.5.1, A.3.2, A.3.3, A.3.5, A.3.7).
 *
 * After the first contact the server offers a second link with ADD LINK
 * over the first one: from a RoCE port of another device on the same
 * physical network (in SMC-Rv2 also in the subnet of the first link, as
 * Linux requires), else from the same port. The client takes it the same
 * way, or rejects it when neither side has another port (A.3.2, no
 * alternate path). Every buffer of the group is mapped on the new link,
 * and the peers tell each other the rkeys of their RMBs on it: in ADD
 * LINK CONTINUATIONs in SMC-Rv1, in the ADD LINK's extension in SMC-Rv2
 * (as Linux does). CONFIRM LINK over the new link makes it active.
 *
 * In a group of two links a new RMB is registered on both, and CONFIRM
 * RKEY tells the peer its rkey on the other link before the CLC message
 * that offers it. The peer's rkeys on each link are kept in the group's
 * table (struct smcr_rtoken), for a connection that has to move.
 *
 * The server starts a new connection on the active link with the fewest
 * connections. When a link fails, its connections move to another
 * (smcr_tx_move()) and it leaves the group (smcr_lgr_drop_work()); the
 * server then offers a link again, over the link left, until one comes
 * up (smcr_links_add(): at once, then after add_link_retry seconds,
 * backing off): on another device than that link's, so that the group
 * has two paths again (§3.5.5.4: a lost link is re-added when it comes
 * back). Link ids are not reused at once. A port that comes up has the
 * adder of every group try at once (smcr_lgr_port_up()): a server offers
 * a link; a client asks for one (Linux's REQUEST ADD LINK, SMC-Rv2 only),
 * and a server asked answers and offers one the same way.
 *
 * max_links (module parameter) is 2 by default; with 1 no second link is
 * offered, and one offered by the peer is rejected. A group whose first
 * contact agreed on one link (SMC release 1) behaves the same.
 */

#include <linux/module.h>
#include <linux/slab.h>

#include "smcr.h"
#include "smcr_buf.h"
#include "smcr_links.h"
#include "smcr_llc.h"
#include "smcr_trace.h"

static unsigned int max_links = 2;
module_param(max_links, uint, 0644);
MODULE_PARM_DESC(max_links,
		 "Links per link group: 2 to add a second link, or 1 (default 2)");

/* add_link_retry is at most an hour; a failed offer's wait doubles thrice */
#define SMCR_LINKS_RETRY_MAX	3600
#define SMCR_LINKS_BACKOFF	4

static unsigned int add_link_retry = 10;
module_param(add_link_retry, uint, 0644);
MODULE_PARM_DESC(add_link_retry,
		 "Seconds before a server tries to add back a lost link, doubling thrice while it fails; 0 for never (default 10)");

/**
 * smcr_links_max() - how many links a group may have
 * @lgr: the group, or NULL for one its first contact is to settle
 *
 * Return: 1 or 2: the max_links module parameter, and in @lgr no more
 * than its first contact agreed on (SMC release 1).
 */
u8 smcr_links_max(const struct smcr_lgr *lgr)
{
	u8 n = clamp_t(unsigned int, READ_ONCE(max_links), 1,
		       SMCR_CLC_LINKS_MAX);

	return lgr ? min(n, lgr->agreed.max_links) : n;
}

/* The group's table of the peer's RMBs, made on first use */
static int smcr_links_rtokens_alloc(struct smcr_lgr *lgr)
{
	struct smcr_rtoken *t;

	if (READ_ONCE(lgr->rtokens))
		return 0;
	t = kcalloc(SMCR_LGR_RTOKENS, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	spin_lock_bh(&lgr->lock);
	if (!lgr->rtokens) {
		lgr->rtokens = t;
		t = NULL;
	}
	spin_unlock_bh(&lgr->lock);
	kfree(t);
	return 0;
}

/* The entry of the peer's RMB with @rkey on link @idx, else a free one
 * (@add), else NULL; Context: under @lgr->lock
 */
static struct smcr_rtoken *smcr_links_rtoken(struct smcr_lgr *lgr, int idx,
					     u32 rkey, bool add)
{
	struct smcr_rtoken *t, *free = NULL;
	int i;

	lockdep_assert_held(&lgr->lock);
	if (!lgr->rtokens)
		return NULL;
	for (i = 0; i < SMCR_LGR_RTOKENS; i++) {
		t = &lgr->rtokens[i];
		if ((t->links & BIT(idx)) && t->rkey[idx] == rkey)
			return t;
		if (!t->links && !free)
			free = t;
	}
	return add ? free : NULL;
}

/* Learn that the peer's RMB with @ref_rkey on link @ref has @rkey and
 * @vaddr on link @idx (and, if @ref_vaddr, that address on @ref)
 */
static void smcr_links_rtoken_set(struct smcr_lgr *lgr, int ref, u32 ref_rkey,
				  u64 ref_vaddr, int idx, u32 rkey, u64 vaddr)
{
	struct smcr_rtoken *t;

	spin_lock_bh(&lgr->lock);
	t = smcr_links_rtoken(lgr, ref, ref_rkey, true);
	if (t) {
		t->rkey[ref] = ref_rkey;
		if (ref_vaddr)
			t->vaddr[ref] = ref_vaddr;
		t->rkey[idx] = rkey;
		t->vaddr[idx] = vaddr;
		t->links |= BIT(ref) | BIT(idx);
	}
	spin_unlock_bh(&lgr->lock);
}

/* The index of the link with @link_id in @lgr, or -1 */
static int smcr_links_idx(struct smcr_lgr *lgr, u8 link_id)
{
	int i;

	for (i = 0; i < SMCR_LINKS_MAX; i++)
		if (lgr->lnk[i].lgr && lgr->lnk[i].link_id == link_id)
			return i;
	return -1;
}

/* The links of @lgr in use and not down, and a free entry for another
 * (else NULL) into @free. Context: under @lgr->links_lock.
 */
static int smcr_links_up(struct smcr_lgr *lgr, struct smcr_link **free)
{
	struct smcr_link *l;
	int i, n = 0;

	lockdep_assert_held(&lgr->links_lock);
	*free = NULL;
	for (i = 0; i < SMCR_LINKS_MAX; i++) {
		l = &lgr->lnk[i];
		if (!l->lgr) {
			if (!*free)
				*free = l;
		} else if (READ_ONCE(l->state) != SMCR_LINK_DOWN) {
			n++;
		}
	}
	return n;
}

/* An id for a new link of @lgr: none of its links has it, and it was
 * not given out lately, so that a late message about a link that left
 * cannot be taken for the new one. Context: under @lgr->links_lock.
 */
static u8 smcr_links_new_id(struct smcr_lgr *lgr)
{
	u8 id = lgr->last_link_id;

	lockdep_assert_held(&lgr->links_lock);
	do {
		id++;
	} while (!id || smcr_links_idx(lgr, id) >= 0);
	lgr->last_link_id = id;
	return id;
}

/* Fill an ADD LINK (A.3.2) offering @new, or answering for it (@resp) */
static void smcr_links_fill_add(struct smcr_link *new, struct smcr_llc_msg *m,
				bool resp)
{
	struct smcr_llc_add_link *al = &m->u.add_link;

	memset(m, 0, sizeof(*m));
	m->type = SMCR_LLC_TYPE_ADD_LINK;
	al->resp = resp;
	memcpy(al->mac, new->port.mac, ETH_ALEN);
	memcpy(al->gid, new->port.gid, SMCR_CLC_GID_LEN);
	al->qpn = new->qp->qp_num;
	al->link_num = new->link_id;
	al->psn = new->psn;
	al->qp_mtu = resp ? min_t(u8, new->port.mtu, new->peer_mtu) :
			    new->port.mtu;
}

/* Take the peer's end of @new from its ADD LINK */
static void smcr_links_take_add(struct smcr_link *new,
				const struct smcr_llc_add_link *al)
{
	memcpy(new->peer_mac, al->mac, ETH_ALEN);
	memcpy(new->peer_gid, al->gid, SMCR_CLC_GID_LEN);
	new->peer_qpn = al->qpn;
	new->peer_psn = al->psn;
	new->peer_mtu = al->qp_mtu;
}

/* Our RMBs' rkeys on @link and @new, the pairs of A.3.3: up to @max of
 * them into @pairs; those of the group's connections, as Linux sends
 * them (smcr_buf_rmbs())
 */
static int smcr_links_pairs(struct smcr_lgr *lgr, struct smcr_link *link,
			    struct smcr_link *new,
			    struct smcr_llc_rkey_pair *pairs, int max)
{
	struct smcr_buf **rmbs;
	struct ib_mr *ref, *mr;
	int n, i, k = 0;

	rmbs = kcalloc(max, sizeof(*rmbs), GFP_KERNEL);
	if (!rmbs)
		return -ENOMEM;
	n = smcr_buf_rmbs(lgr, rmbs, max);
	for (i = 0; i < n; i++) {
		ref = rmbs[i]->mr[link->idx];
		mr = rmbs[i]->mr[new->idx];
		if (!ref || !mr)
			continue;
		pairs[k].ref_rkey = ref->rkey;
		pairs[k].new_rkey = mr->rkey;
		pairs[k].new_vaddr = mr->iova;
		k++;
	}
	kfree(rmbs);
	return k;
}

/* The extension of a version 2 ADD LINK for @new (into @buf), with our
 * rkeys on it: its length, or a negative errno
 */
static int smcr_links_build_ext(struct smcr_lgr *lgr, struct smcr_link *link,
				struct smcr_link *new, u8 *buf)
{
	struct smcr_llc_add_link_ext e = { .direct = !lgr->uses_gateway };
	struct smcr_llc_rkey_pair *pairs;
	int n, rc;

	pairs = kcalloc(SMCR_LLC_ADD_EXT_PAIRS_MAX, sizeof(*pairs),
			GFP_KERNEL);
	if (!pairs)
		return -ENOMEM;
	n = smcr_links_pairs(lgr, link, new, pairs,
			     SMCR_LLC_ADD_EXT_PAIRS_MAX);
	if (n < 0) {
		kfree(pairs);
		return n;
	}
	memcpy(e.gid, new->port.gid, SMCR_CLC_GID_LEN);
	e.num_rkeys = n;
	rc = smcr_llc_add_link_ext_encode(&e, pairs, buf,
					  SMCR_LLC_ADD_EXT_MAX_LEN);
	kfree(pairs);
	return rc;
}

/* The peer's rkeys on @new from the extension of its version 2 ADD LINK */
static void smcr_links_take_ext(struct smcr_lgr *lgr, struct smcr_link *link,
				struct smcr_link *new, const u8 *ext,
				u32 ext_len)
{
	struct smcr_llc_add_link_ext e;
	struct smcr_llc_rkey_pair p;
	unsigned int i;

	if (smcr_llc_add_link_ext_decode(ext, ext_len, &e))
		return;
	for (i = 0; i < e.num_rkeys; i++) {
		smcr_llc_add_link_ext_pair(ext, i, &p);
		smcr_links_rtoken_set(lgr, link->idx, p.ref_rkey, 0, new->idx,
				      p.new_rkey, p.new_vaddr);
	}
}

/* Send an ADD LINK for @new over @link: in SMC-Rv2 with the extension */
static int smcr_links_send_add(struct smcr_lgr *lgr, struct smcr_link *link,
			       struct smcr_link *new, struct smcr_llc_msg *m)
{
	u8 *ext;
	int len, rc;

	if (lgr->version != SMCR_CLC_V2)
		return smcr_llc_send(link, m);
	ext = kmalloc(SMCR_LLC_ADD_EXT_MAX_LEN, GFP_KERNEL);
	if (!ext)
		return -ENOMEM;
	len = smcr_links_build_ext(lgr, link, new, ext);
	rc = len < 0 ? len : smcr_llc_send_ext(link, m, ext, len);
	kfree(ext);
	return rc;
}

/* Send one ADD LINK CONTINUATION (A.3.3) with the next pairs of @pairs;
 * @todo counts those still to send, this message's included
 */
static int smcr_links_send_cont(struct smcr_lgr *lgr, struct smcr_link *link,
				struct smcr_link *new,
				const struct smcr_llc_rkey_pair *pairs, int *todo)
{
	struct smcr_llc_msg m = { .type = SMCR_LLC_TYPE_ADD_LINK_CONT };
	struct smcr_llc_add_link_cont *c = &m.u.add_link_cont;
	int i, n = min(*todo, SMCR_LLC_ADD_CONT_PAIRS);

	/* the client's continuations are responses, as Linux sends them */
	c->resp = !lgr->server;
	c->link_num = new->link_id;
	c->num_rkeys = *todo;
	for (i = 0; i < n; i++)
		c->pairs[i] = pairs[i];
	*todo -= n;
	return smcr_llc_send(link, &m);
}

/* Take the peer's pairs of a continuation; returns how many it still has */
static int smcr_links_take_cont(struct smcr_lgr *lgr, struct smcr_link *link,
				struct smcr_link *new,
				const struct smcr_llc_msg *m)
{
	const struct smcr_llc_add_link_cont *c = &m->u.add_link_cont;
	int i, n = min_t(int, c->num_rkeys, SMCR_LLC_ADD_CONT_PAIRS);

	for (i = 0; i < n; i++)
		smcr_links_rtoken_set(lgr, link->idx, c->pairs[i].ref_rkey, 0,
				      new->idx, c->pairs[i].new_rkey,
				      c->pairs[i].new_vaddr);
	return c->num_rkeys - n;
}

/* SMC-Rv1: both sides' rkeys on @new, continuation for continuation:
 * the server sends first, the client answers each (A.3.3). The first
 * continuation of the peer is announced already.
 */
static int smcr_links_rkey_exchange(struct smcr_lgr *lgr,
				    struct smcr_link *link,
				    struct smcr_link *new)
{
	struct smcr_llc_rkey_pair *pairs;
	int todo, left = 1, sent = 0, rc = 0;
	struct smcr_llc_msg m;

	pairs = kcalloc(SMCR_LGR_CONNS_MAX, sizeof(*pairs), GFP_KERNEL);
	if (!pairs)
		return -ENOMEM;
	todo = smcr_links_pairs(lgr, link, new, pairs, SMCR_LGR_CONNS_MAX);
	if (todo < 0) {
		kfree(pairs);
		return todo;
	}
	while (!rc && (todo || left)) {
		if (lgr->server) {
			smcr_llc_expect(link, SMCR_LLC_TYPE_ADD_LINK_CONT, true);
			rc = smcr_links_send_cont(lgr, link, new,
						  pairs + sent, &todo);
			sent = min(sent + SMCR_LLC_ADD_CONT_PAIRS,
				   SMCR_LGR_CONNS_MAX);
			if (!rc)
				rc = smcr_llc_wait(link, &m);
			if (!rc)
				left = smcr_links_take_cont(lgr, link, new, &m);
		} else {
			rc = smcr_llc_wait(link, &m);
			if (!rc)
				left = smcr_links_take_cont(lgr, link, new, &m);
			/* the next one announced before ours goes out */
			if (!rc && (todo > SMCR_LLC_ADD_CONT_PAIRS || left))
				smcr_llc_expect(link,
						SMCR_LLC_TYPE_ADD_LINK_CONT,
						false);
			if (!rc)
				rc = smcr_links_send_cont(lgr, link, new,
							  pairs + sent, &todo);
			sent = min(sent + SMCR_LLC_ADD_CONT_PAIRS,
				   SMCR_LGR_CONNS_MAX);
		}
	}
	kfree(pairs);
	return rc;
}

/* The port for a further link beside @link: another device's, else, for
 * the group's first further link (@first), @link's own (the group becomes
 * asymmetric). Returns whether it is another device's, or -ENODEV.
 */
static int smcr_links_port(struct smcr_lgr *lgr, struct smcr_link *link,
			   bool first, struct smcr_ib_port *port)
{
	if (!smcr_ib_find_alt_port(&link->port, lgr->version == SMCR_CLC_V2,
				   port))
		return true;
	/* a lost path comes back on a device of its own, or not at all */
	if (!first)
		return -ENODEV;
	smcr_ib_get_port(&link->port, port);
	return false;
}

/* Registered on the new link before the client's CONFIRM LINK answer */
static int smcr_links_client_reg(void *arg)
{
	struct smcr_link *new = arg;

	return smcr_buf_register_link(new->lgr, new);
}

/* Server: offer a further link over the group's active one, and set it
 * up: after the first contact, and again after a link left (§3.5.5.4);
 * or, @replace, a link between other devices into the group's spare
 * entry, beside its full set of links, one of which it is to replace
 * (smcr_links_unasym()). The new link into @newp.
 */
static int smcr_links_offer(struct smcr_lgr *lgr, bool replace,
			    struct smcr_link **newp)
{
	struct smcr_link *link = smcr_lgr_primary(lgr), *new;
	bool first = !lgr->had_links && !replace;
	struct smcr_ib_port port;
	struct smcr_llc_msg m;
	int rc, alt, up;

	lockdep_assert_held(&lgr->links_lock);
	if (READ_ONCE(link->state) != SMCR_LINK_ACTIVE)
		return -EALREADY;
	up = smcr_links_up(lgr, &new);
	if (!new || up > smcr_links_max(lgr) ||
	    (up == smcr_links_max(lgr) && !replace))
		return -EALREADY;
	rc = smcr_links_rtokens_alloc(lgr);
	if (rc)
		return rc;
	alt = smcr_links_port(lgr, link, first, &port);
	if (alt < 0)
		return alt;
	rc = smcr_lgr_link_new(lgr, new - lgr->lnk, smcr_links_new_id(lgr),
			       &port);
	if (rc)
		return rc;
	trace_smcr_links_add(new, true, alt);
	rc = smcr_buf_map_link(lgr, new);
	if (rc)
		goto fail;

	mutex_lock(&link->llc_lock);
	smcr_links_fill_add(new, &m, false);
	smcr_llc_expect(link, SMCR_LLC_TYPE_ADD_LINK, true);
	rc = smcr_links_send_add(lgr, link, new, &m);
	if (!rc)
		rc = smcr_llc_wait(link, &m);
	/* an answer to an earlier offer, late, is not this one's */
	if (!rc && (m.type != SMCR_LLC_TYPE_ADD_LINK || !m.u.add_link.resp ||
		    m.u.add_link.link_num != new->link_id))
		rc = -EPROTO;
	if (!rc && m.u.add_link.reject)
		rc = -ECONNREFUSED;	/* A.3.2: no alternate path */
	if (!rc && !m.u.add_link.qp_mtu)
		rc = -EPROTO;
	if (!rc) {
		smcr_links_take_add(new, &m.u.add_link);
		if (lgr->version == SMCR_CLC_V2)
			smcr_links_take_ext(lgr, link, new, link->llc_resp_ext,
					    link->llc_resp_ext_len);
		rc = smcr_link_ready(new, true);
	}
	if (!rc)
		rc = smcr_buf_register_link(lgr, new);
	if (!rc && lgr->version != SMCR_CLC_V2)
		rc = smcr_links_rkey_exchange(lgr, link, new);
	/* no TEST LINK of ours in between: Linux's client takes any LLC
	 * message for the answer to its ADD LINK
	 */
	if (!rc)
		rc = smcr_llc_confirm_link_server(new);
	mutex_unlock(&link->llc_lock);
	if (rc)
		goto fail;
	lgr->had_links = true;
	trace_smcr_links_up(new, true, alt);
	if (newp)
		*newp = new;
	return 0;
fail:
	trace_smcr_links_failed(new, rc);
	smcr_lgr_link_free(new);
	return rc;
}

/* The active link of @lgr beside its first, when it has two */
static struct smcr_link *smcr_links_second(struct smcr_lgr *lgr)
{
	struct smcr_link *first = smcr_lgr_primary(lgr);

	lockdep_assert_held(&lgr->links_lock);
	if (READ_ONCE(first->state) != SMCR_LINK_ACTIVE)
		return NULL;
	return smcr_lgr_other_active(lgr, first);
}

/* Two links are asymmetric when they share a port of ours or the peer's
 * GID
 */
static bool smcr_links_asym(const struct smcr_link *a,
			    const struct smcr_link *b)
{
	return smcr_link_share_port(a, b) || smcr_link_share_peer(a, b);
}

/* Client: ask the server for a link (Linux's REQUEST ADD LINK, SMC-Rv2
 * only), naming the GID of the link we have and one of another port of
 * ours, after a port came up in a group of one link, or of two on one
 * port of ours (asymmetric: a server of ours then replaces the second,
 * smcr_links_unasym(), as Linux's does). The server offers one (ADD LINK,
 * taken as any offer) or answers that it will not; nothing waits for
 * either.
 */
static void smcr_links_ask(struct smcr_lgr *lgr)
{
	struct smcr_llc_msg m = { .type = SMCR_LLC_TYPE_REQ_ADD_LINK };
	struct smcr_link *link = smcr_lgr_primary(lgr), *free, *second;
	struct smcr_ib_port alt;
	int rc;

	lockdep_assert_held(&lgr->links_lock);
	if (lgr->version != SMCR_CLC_V2 ||
	    READ_ONCE(link->state) != SMCR_LINK_ACTIVE)
		return;
	if (smcr_links_up(lgr, &free) >= smcr_links_max(lgr) || !free) {
		second = smcr_links_second(lgr);
		if (!second || !smcr_link_share_port(link, second))
			return;
	}
	rc = smcr_ib_find_alt_port(&link->port, true, &alt);
	if (!rc) {
		m.u.req_add_link.gid_cnt = 2;
		memcpy(m.u.req_add_link.gid, link->port.gid, SMCR_LLC_GID_LEN);
		rc = smcr_llc_send_ext(link, &m, alt.gid, SMCR_LLC_GID_LEN);
		smcr_ib_put_port(&alt);
	}
	trace_smcr_links_ask(link, rc);
}

/* Server: Linux makes a group asymmetric when one side has a single
 * device for it (its second link then shares that device's port; RFC
 * 7609 knows no such group), and makes it symmetric once a device
 * appears. Ours does the same, make before break: when the group's two
 * links share a port of ours and a port of another device can now take
 * one (@asked has SMCR_LGR_ASK_PORT), or share the client's GID and the
 * client asked for a link naming another GID (SMCR_LGR_ASK_PEER), a
 * third link is offered from another device of ours. Once it is up, the
 * one of the old pair that the new link makes redundant goes: the peer
 * hears of it first (orderly DELETE LINK, no asymmetric link needed,
 * answered), then it fails over as a lost link does and its connections
 * move. A replacement that fails, or that is no better, leaves the group
 * as it was.
 */
static void smcr_links_unasym(struct smcr_lgr *lgr, int asked)
{
	struct smcr_link *first = smcr_lgr_primary(lgr), *second, *new;
	struct smcr_link *gone;

	lockdep_assert_held(&lgr->links_lock);
	second = smcr_links_second(lgr);
	if (!second)
		return;
	if (!(smcr_link_share_port(first, second) &&
	      (asked & SMCR_LGR_ASK_PORT)) &&
	    !(smcr_link_share_peer(first, second) &&
	      (asked & SMCR_LGR_ASK_PEER)))
		return;
	if (smcr_links_offer(lgr, true, &new))
		return;
	gone = smcr_links_asym(first, new) ? new : second;
	if (!smcr_llc_delete_link_one(first, gone->link_id, true)) {
		spin_lock_bh(&lgr->lock);
		gone->peer_deleted = true;
		spin_unlock_bh(&lgr->lock);
	}
	smcr_link_fail(gone, SMCR_DOWN_ASYM);
}

/* Registered with the link groups: a server's offer of a further link,
 * after the first contact and after a link left. A lost link is offered
 * again after add_link_retry seconds, then after twice, four and eight
 * times that while it fails: each failed offer holds the group's
 * links_lock, which a new connection of the group waits for, up to twice
 * SMCR_LLC_WAIT (as Linux's llc_conf_mutex does). A peer's reject (no
 * alternate path, A.3.2) is final.
 */
static unsigned long smcr_links_add(struct smcr_lgr *lgr)
{
	unsigned long retry = min_t(unsigned int, READ_ONCE(add_link_retry),
				    SMCR_LINKS_RETRY_MAX) * (unsigned long)HZ;
	int asked = atomic_xchg(&lgr->add_asked, 0);
	int rc;

	if (!lgr->server) {
		if (asked)
			smcr_links_ask(lgr);
		return 0;
	}
	/* a link that left comes back with add_link_retry set, or when
	 * the client asks for it or a port comes up
	 */
	if (lgr->had_links && !retry && !asked)
		return 0;
	rc = smcr_links_offer(lgr, false, NULL);
	/* a group of two: an asymmetric one may get a better link; or one
	 * is still on its way out, and its drop asks again
	 * (smcr_lgr_drop_work())
	 */
	if (rc == -EALREADY && asked)
		smcr_links_unasym(lgr, asked);
	if (!rc || rc == -EALREADY || rc == -ECONNREFUSED) {
		lgr->add_fails = 0;
		return 0;
	}
	if (lgr->add_fails < SMCR_LINKS_BACKOFF)
		lgr->add_fails++;
	return retry << (lgr->add_fails - 1);
}

/**
 * smcr_links_start() - after a first contact, look for a second link
 * @lgr: group whose first link just became active
 *
 * The server offers one from a work item, unless max_links is 1; Linux's
 * client waits for the offer (or 2 s) before its connect() returns.
 */
void smcr_links_start(struct smcr_lgr *lgr)
{
	if (lgr->server && smcr_links_max(lgr) >= 2)
		smcr_lgr_want_link(lgr, 0);
}

/* Client: reject an ADD LINK (A.3.2) */
static void smcr_links_reject(struct smcr_link *link, struct smcr_llc_msg *m)
{
	m->u.add_link.resp = true;
	m->u.add_link.reject = true;
	m->u.add_link.rej_rsn = SMCR_LLC_REJ_RSN_NO_ALT_PATH;
	smcr_llc_send(link, m);
}

/* Client: whether the group can take a further link, into @free: below
 * its number, or one more while its two are asymmetric, the replacement
 * of one of them that a server of Linux's or ours offers before it lets
 * that one go (smcr_links_unasym())
 */
static bool smcr_links_room(struct smcr_lgr *lgr, struct smcr_link **free)
{
	struct smcr_link *first = smcr_lgr_primary(lgr), *second;
	int up = smcr_links_up(lgr, free);

	if (!*free || up > smcr_links_max(lgr))
		return false;
	if (up < smcr_links_max(lgr))
		return true;
	second = smcr_links_second(lgr);
	return second && smcr_links_asym(first, second);
}

/* Client: take the server's offer of a second link; a negative errno
 * when it was not set up, and @reject while our answer is still to send
 */
static int smcr_links_accept(struct smcr_link *link, struct smcr_llc_msg *req,
			     const u8 *ext, u32 ext_len, bool *reject)
{
	const struct smcr_llc_add_link *al = &req->u.add_link;
	struct smcr_lgr *lgr = link->lgr;
	bool v2 = lgr->version == SMCR_CLC_V2;
	struct smcr_link *new;
	struct smcr_ib_port port;
	struct smcr_llc_msg m;
	bool alt, same_peer;
	int rc;

	lockdep_assert_held(&lgr->links_lock);
	*reject = true;
	if (lgr->server || READ_ONCE(link->state) != SMCR_LINK_ACTIVE ||
	    !smcr_links_room(lgr, &new) || !al->qp_mtu || !al->link_num ||
	    smcr_links_idx(lgr, al->link_num) >= 0)
		return -ENOLINK;
	rc = smcr_links_rtokens_alloc(lgr);
	if (rc)
		return rc;
	same_peer = !memcmp(al->gid, link->peer_gid, SMCR_CLC_GID_LEN) &&
		    (v2 || !memcmp(al->mac, link->peer_mac, ETH_ALEN));
	alt = !smcr_ib_find_alt_port(&link->port, v2, &port);
	/* A.3.2: neither side has another port */
	if (same_peer && !alt)
		return -ENOLINK;
	if (!alt)
		smcr_ib_get_port(&link->port, &port);
	rc = smcr_lgr_link_new(lgr, new - lgr->lnk, al->link_num, &port);
	if (rc)
		return rc;
	trace_smcr_links_add(new, false, alt);
	smcr_links_take_add(new, al);
	rc = smcr_buf_map_link(lgr, new);
	if (!rc)
		rc = smcr_link_ready(new, false);
	if (rc)
		goto fail;
	if (v2)
		smcr_links_take_ext(lgr, link, new, ext, ext_len);

	mutex_lock(&link->llc_lock);
	/* what the server sends next, announced before our answer */
	smcr_llc_expect(new, SMCR_LLC_TYPE_CONFIRM_LINK, false);
	if (!v2)
		smcr_llc_expect(link, SMCR_LLC_TYPE_ADD_LINK_CONT, false);
	smcr_links_fill_add(new, &m, true);
	rc = smcr_links_send_add(lgr, link, new, &m);
	*reject = !!rc;
	if (!rc && !v2)
		rc = smcr_links_rkey_exchange(lgr, link, new);
	if (!rc)
		rc = smcr_llc_confirm_link_client(new, smcr_links_client_reg,
						  new);
	mutex_unlock(&link->llc_lock);
	if (rc)
		goto fail;
	trace_smcr_links_up(new, false, alt);
	return 0;
fail:
	trace_smcr_links_failed(new, rc);
	smcr_lgr_link_free(new);
	return rc;
}

/**
 * struct smcr_links_offer - the server's ADD LINK, taken in a work item
 * @work: runs smcr_links_offer_work() on smcr_hs_wq, with a reference
 *	on @lgr
 * @lgr: the group
 * @link: the link it came over; it may fail over and leave the group
 *	before the work runs, and its entry take a new link
 * @link_id: @link's id when the request came
 * @m: the request
 * @ext_len: length of @ext
 * @ext: a version 2 ADD LINK's extension
 */
struct smcr_links_offer {
	struct work_struct	work;
	struct smcr_lgr		*lgr;
	struct smcr_link	*link;
	u8			link_id;
	struct smcr_llc_msg	m;
	u32			ext_len;
	u8			ext[];
};

/* Client: set up the link the server offered, or reject it. Not in the
 * first link's request work: that one goes on answering the peer's other
 * requests meanwhile (a TEST LINK left unanswered fails the link at
 * Linux's end), and a link's teardown, which waits for that work under
 * links_lock, never waits for this one.
 */
static void smcr_links_offer_work(struct work_struct *work)
{
	struct smcr_links_offer *o = container_of(work, struct smcr_links_offer,
						  work);
	struct smcr_lgr *lgr = o->lgr;
	bool reject;

	mutex_lock(&lgr->links_lock);
	/* links leave the group under links_lock: one gone is cleared */
	if (o->link->lgr == lgr && o->link->link_id == o->link_id) {
		smcr_links_accept(o->link, &o->m, o->ext, o->ext_len, &reject);
		if (reject)
			smcr_links_reject(o->link, &o->m);
	}
	mutex_unlock(&lgr->links_lock);
	smcr_lgr_put(lgr);
	kfree(o);
}

/* The peer's ADD LINK request (registered with the LLC layer) */
static void smcr_links_rx_add(struct smcr_link *link, struct smcr_llc_msg *m,
			      const u8 *ext, u32 ext_len)
{
	struct smcr_lgr *lgr = link->lgr;
	struct smcr_links_offer *o;

	/* offered to a server: not taken */
	if (lgr->server)
		goto reject;
	o = kmalloc(struct_size(o, ext, ext_len), GFP_KERNEL);
	if (!o)
		goto reject;
	INIT_WORK(&o->work, smcr_links_offer_work);
	o->lgr = lgr;
	o->link = link;
	o->link_id = link->link_id;
	o->m = *m;
	o->ext_len = ext_len;
	if (ext_len)
		memcpy(o->ext, ext, ext_len);
	kref_get(&lgr->kref);
	queue_work(smcr_hs_wq, &o->work);
	return;
reject:
	smcr_links_reject(link, m);
}

/* Whether a client's REQUEST ADD LINK names a GID none of the group's
 * links goes to
 */
static bool smcr_links_req_other_gid(struct smcr_lgr *lgr,
				     const struct smcr_llc_req_add_link *r,
				     const u8 *ext, u32 ext_len)
{
	bool used, other = false;
	const struct smcr_link *l;
	const u8 *gid;
	unsigned int i;
	int k;

	spin_lock_bh(&lgr->lock);
	for (i = 0; !other &&
	     (gid = smcr_llc_req_add_link_gid(r, ext, ext_len, i)); i++) {
		used = false;
		for (k = 0; k < SMCR_LINKS_MAX && !used; k++) {
			l = &lgr->lnk[k];
			used = l->lgr && READ_ONCE(l->state) != SMCR_LINK_DOWN &&
			       !memcmp(l->peer_gid, gid, SMCR_CLC_GID_LEN);
		}
		other = !used;
	}
	spin_unlock_bh(&lgr->lock);
	return other;
}

/* The client's REQUEST ADD LINK (registered with the LLC layer): Linux's
 * SMC-Rv2 client sends it when a port of its comes up while its group
 * has one link, with the GIDs it could use. The answer goes first, so
 * that the client is free for other LLC exchanges whatever becomes of the
 * offer; then the adder offers a link, from another device of ours
 * (smcr_links_port()), even with add_link_retry 0.
 */
static void smcr_links_rx_req_add(struct smcr_link *link,
				  struct smcr_llc_msg *m, const u8 *ext,
				  u32 ext_len)
{
	struct smcr_lgr *lgr = link->lgr;
	bool other;

	/* a server asks for nothing: not answered */
	if (!lgr->server)
		return;
	other = smcr_links_req_other_gid(lgr, &m->u.req_add_link, ext,
					 ext_len);
	smcr_llc_req_add_link_answer(link, m);
	if (smcr_links_max(lgr) < 2)
		return;
	/* one that names no GID but those in use may still have the
	 * group's lost link back; it replaces no link of it
	 */
	if (other)
		atomic_or(SMCR_LGR_ASK_PEER, &lgr->add_asked);
	smcr_lgr_want_link(lgr, 0);
}

/* The peer's CONFIRM RKEY (A.3.5): its new RMB on other links too */
static void smcr_links_rx_confirm_rkey(struct smcr_link *link,
				       struct smcr_llc_msg *m, const u8 *ext,
				       u32 ext_len)
{
	struct smcr_llc_confirm_rkey *cr = &m->u.confirm_rkey;
	struct smcr_lgr *lgr = link->lgr;
	int i, idx;

	/* with one link the rkey came with the CLC message; Linux still
	 * asks before it uses an RMB
	 */
	for (i = 0; i < min_t(int, cr->num_tkns, SMCR_LLC_RKEY_OTHERS); i++) {
		idx = smcr_links_idx(lgr, cr->others[i].link_num);
		if (idx >= 0 && idx != link->idx)
			smcr_links_rtoken_set(lgr, link->idx, cr->rkey,
					      cr->vaddr, idx,
					      cr->others[i].rkey,
					      cr->others[i].vaddr);
	}
	cr->resp = true;
	smcr_llc_send(link, m);
}

/* The peer's DELETE RKEY (A.3.7): it stops using RMBs */
static void smcr_links_rx_delete_rkey(struct smcr_link *link,
				      struct smcr_llc_msg *m, const u8 *ext,
				      u32 ext_len)
{
	struct smcr_llc_delete_rkey *dr = &m->u.delete_rkey;
	struct smcr_lgr *lgr = link->lgr;
	struct smcr_rtoken *t;
	int i;

	spin_lock_bh(&lgr->lock);
	for (i = 0; i < dr->count && i < SMCR_LLC_DEL_RKEY_MAX; i++) {
		t = smcr_links_rtoken(lgr, link->idx, dr->rkeys[i], false);
		if (t)
			memset(t, 0, sizeof(*t));
	}
	spin_unlock_bh(&lgr->lock);
	dr->resp = true;
	smcr_llc_send(link, m);
}

/**
 * smcr_links_peer_rmb() - where a peer's RMB is on another link
 * @lgr: group
 * @from: link the RMB's rkey is of
 * @to: link wanted
 * @rkey: the RMB's rkey on @from
 * @to_rkey: its rkey on @to
 * @to_vaddr: its address on @to
 *
 * From what ADD LINK (CONTINUATION) and CONFIRM RKEY told (A.3.3, A.3.5).
 *
 * Return: 0, or -ENOENT when the peer never named the RMB on @to.
 */
int smcr_links_peer_rmb(struct smcr_lgr *lgr, struct smcr_link *from,
			struct smcr_link *to, u32 rkey, u32 *to_rkey,
			u64 *to_vaddr)
{
	struct smcr_rtoken *t;
	int rc = -ENOENT;

	spin_lock_bh(&lgr->lock);
	t = smcr_links_rtoken(lgr, from->idx, rkey, false);
	if (t && (t->links & BIT(to->idx))) {
		*to_rkey = t->rkey[to->idx];
		*to_vaddr = t->vaddr[to->idx];
		rc = 0;
	}
	spin_unlock_bh(&lgr->lock);
	return rc;
}

/**
 * smcr_links_confirm_rmb() - a new connection's RMB on every link
 * @smc: connection of a group, its RMB registered on its own link
 *
 * A.3.5: in a group of more than one active link the RMB is registered on
 * the others too, and the peer learns its rkeys there from CONFIRM RKEY
 * before the CLC message that offers the RMB; the peer forgot the rkeys
 * of a reused one when it retired.
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int smcr_links_confirm_rmb(struct smcr_sock *smc)
{
	struct smcr_conn *conn = &smc->conn;
	struct smcr_lgr *lgr = conn->lgr;
	struct smcr_link *link = conn->link, *other;
	struct smcr_llc_msg m = { .type = SMCR_LLC_TYPE_CONFIRM_RKEY };
	struct smcr_llc_confirm_rkey *cr = &m.u.confirm_rkey;
	struct smcr_buf *rmb = &conn->rmb;
	int i, rc = 0;

	mutex_lock(&lgr->links_lock);
	for (i = 0; i < SMCR_LINKS_MAX && !rc; i++) {
		other = &lgr->lnk[i];
		if (other == link ||
		    READ_ONCE(other->state) != SMCR_LINK_ACTIVE)
			continue;
		rc = smcr_buf_register_locked(other, rmb);
		if (!rc && cr->num_tkns < SMCR_LLC_RKEY_OTHERS) {
			cr->others[cr->num_tkns].link_num = other->link_id;
			cr->others[cr->num_tkns].rkey = rmb->mr[i]->rkey;
			cr->others[cr->num_tkns].vaddr = rmb->mr[i]->iova;
			cr->num_tkns++;
		}
	}
	if (rc || !cr->num_tkns)
		goto out;
	cr->rkey = rmb->mr[link->idx]->rkey;
	cr->vaddr = rmb->mr[link->idx]->iova;
	mutex_lock(&link->llc_lock);
	smcr_llc_expect(link, SMCR_LLC_TYPE_CONFIRM_RKEY, true);
	rc = smcr_llc_send(link, &m);
	if (!rc)
		rc = smcr_llc_wait(link, &m);
	if (!rc && (m.type != SMCR_LLC_TYPE_CONFIRM_RKEY ||
		    m.u.confirm_rkey.negative))
		rc = -EPROTO;
	mutex_unlock(&link->llc_lock);
out:
	mutex_unlock(&lgr->links_lock);
	return rc;
}

/**
 * smcr_links_init() - take the peer's requests about links and rkeys
 *
 * Context: module load, before any link exists.
 */
void smcr_links_init(void)
{
	smcr_llc_register_req(SMCR_LLC_TYPE_ADD_LINK, smcr_links_rx_add);
	smcr_llc_register_req(SMCR_LLC_TYPE_REQ_ADD_LINK,
			      smcr_links_rx_req_add);
	smcr_llc_register_req(SMCR_LLC_TYPE_CONFIRM_RKEY,
			      smcr_links_rx_confirm_rkey);
	smcr_llc_register_req(SMCR_LLC_TYPE_DELETE_RKEY,
			      smcr_links_rx_delete_rkey);
	smcr_lgr_register_add(smcr_links_add);
}

/**
 * smcr_links_exit() - no more requests to this layer
 *
 * Context: module unload, no link left.
 */
void smcr_links_exit(void)
{
	smcr_llc_register_req(SMCR_LLC_TYPE_ADD_LINK, NULL);
	smcr_llc_register_req(SMCR_LLC_TYPE_REQ_ADD_LINK, NULL);
	smcr_llc_register_req(SMCR_LLC_TYPE_CONFIRM_RKEY, NULL);
	smcr_llc_register_req(SMCR_LLC_TYPE_DELETE_RKEY, NULL);
	smcr_lgr_register_add(NULL);
}
