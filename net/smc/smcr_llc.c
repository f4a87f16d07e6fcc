// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: link layer control, the LLC messages of a link (RFC 7609 §3.5.5,
 * Appendix A.3).
 *
 * One LLC exchange we start at a time per link (§3.5.5.3): the one
 * waiting names the message it expects in llc_expect, and the receive
 * path hands that message over, with the extension of a version 2 ADD
 * LINK. The peer's requests (TEST LINK, DELETE LINK, CONFIRM RKEY, DELETE
 * RKEY, ADD LINK, Linux's REQUEST ADD LINK) are answered from a work item, since sending may sleep:
 * TEST LINK and DELETE LINK here, the others by the handler the layer
 * above registered (smcr_llc_register_req(), smcr_links.c), else as a
 * group of one link answers them.
 *
 * Messages are framed in the group's SMC-R version: SMC-Rv2 groups use
 * the version 2 LLC header Linux defines.
 */

#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "smcr_lgr.h"
#include "smcr_llc.h"
#include "smcr_trace.h"
#include "smcr_wire_llc.h"

/* llc_expect value of a response: the type with this bit added; with
 * this one, a request or a response of the type
 */
#define SMCR_LLC_EXPECT_RESP	0x100
#define SMCR_LLC_EXPECT_EITHER	0x200

/* Handlers of the peer's requests the layer above takes (see
 * smcr_llc_register_req()): set at module load, before any link exists
 */
static smcr_llc_req_fn smcr_llc_req_fns[SMCR_LLC_TYPE_MASK + 1];

/**
 * smcr_llc_register_req() - who answers a type of the peer's requests
 * @type: SMCR_LLC_TYPE_ADD_LINK, _REQ_ADD_LINK, _CONFIRM_RKEY or
 *	_DELETE_RKEY
 * @fn: called from the link's request work with the decoded request and,
 *	for a version 2 ADD LINK, its extension; it sends the answer.
 *	NULL: the LLC layer answers as a group of one link does.
 *
 * Context: module load or unload, no link in existence.
 */
void smcr_llc_register_req(u8 type, smcr_llc_req_fn fn)
{
	if (type <= SMCR_LLC_TYPE_MASK)
		WRITE_ONCE(smcr_llc_req_fns[type], fn);
}

/**
 * smcr_llc_send_ext() - send an LLC message, longer in SMC-Rv2
 * @link: link
 * @m: the message; framed in the LLC version of @link's group
 * @ext: what follows the first 44 bytes (a version 2 ADD LINK's
 *	extension), or NULL
 * @ext_len: its length; in version 2 only
 *
 * Return: 0 or a negative errno.
 */
int smcr_llc_send_ext(struct smcr_link *link, struct smcr_llc_msg *m,
		      const u8 *ext, u32 ext_len)
{
	int idx, rc;
	u8 *buf;

	m->version = link->lgr->version == SMCR_CLC_V2 ? SMCR_LLC_VERSION_2 :
							 SMCR_LLC_VERSION_1;
	if (ext_len && m->version != SMCR_LLC_VERSION_2)
		return -EINVAL;
	buf = smcr_wr_tx_get(link, &idx);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	rc = smcr_llc_encode(m, buf, SMCR_WR_SIZE);
	if (rc >= 0 && ext_len)
		rc = smcr_llc_set_v2_length(buf, SMCR_WR_SIZE + ext_len,
					    SMCR_WR_SIZE + ext_len);
	if (rc < 0) {
		smcr_wr_tx_put(link, idx);
		return rc;
	}
	if (trace_smcr_llc_enabled()) {
		struct smcr_llc_hdr hdr;

		if (!smcr_llc_hdr_decode(buf, SMCR_WR_SIZE, &hdr))
			trace_smcr_llc(link, true, hdr.type, hdr.resp);
	}
	if (ext_len)
		return smcr_wr_tx_send_ext(link, idx, ext, ext_len);
	return smcr_wr_tx_send(link, idx, NULL);
}

/**
 * smcr_llc_send() - send an LLC message
 * @link: link
 * @m: the message; framed in the LLC version of @link's group
 *
 * Return: 0 or a negative errno.
 */
int smcr_llc_send(struct smcr_link *link, struct smcr_llc_msg *m)
{
	return smcr_llc_send_ext(link, m, NULL, 0);
}

/* Whether @link's group has the link the peer's DELETE LINK names, any
 * for all; and if so and @fail, fail it, or all of them. Under the
 * group's lock, under which a link that goes is cleared
 * (smcr_lgr_link_free()): a link found is whole, and one on its way out
 * is down already, which makes smcr_link_fail() a no-op.
 */
static bool smcr_llc_named(struct smcr_link *link,
			   const struct smcr_llc_delete_link *dl, bool fail)
{
	struct smcr_lgr *lgr = link->lgr;
	struct smcr_link *l;
	bool found = false;
	int i;

	spin_lock_bh(&lgr->lock);
	for (i = 0; i < SMCR_LINKS_MAX; i++) {
		l = &lgr->lnk[i];
		if (!l->lgr || READ_ONCE(l->state) == SMCR_LINK_UNUSED ||
		    (!dl->all && l->link_id != dl->link_num))
			continue;
		found = true;
		/* all down at once: none is left to fail over to */
		if (fail) {
			l->peer_deleted = true;
			smcr_link_fail(l, SMCR_DOWN_PEER);
		}
	}
	spin_unlock_bh(&lgr->lock);
	return found;
}

/**
 * smcr_llc_req_add_link_answer() - answer a REQUEST ADD LINK: no offer
 * @link: link it came on
 * @m: the request, decoded; made the answer
 *
 * Linux's client sends no other LLC request in the group until its
 * request is answered, by this or by an ADD LINK: the answer is the
 * request with the reply flag and no GID (as Linux's server sends it).
 */
void smcr_llc_req_add_link_answer(struct smcr_link *link,
				  struct smcr_llc_msg *m)
{
	memset(&m->u.req_add_link, 0, sizeof(m->u.req_add_link));
	m->u.req_add_link.resp = true;
	smcr_llc_send(link, m);
}

/* Answer one request of the peer; @ext: a version 2 ADD LINK's extension */
static void smcr_llc_answer(struct smcr_link *link, const u8 *msg,
			    const u8 *ext, u32 ext_len)
{
	smcr_llc_req_fn fn;
	struct smcr_llc_msg m;

	if (smcr_llc_decode(msg, SMCR_WR_SIZE, &m))
		return;
	fn = READ_ONCE(smcr_llc_req_fns[m.type]);
	if (fn) {
		fn(link, &m, ext, ext_len);
		return;
	}
	switch (m.type) {
	case SMCR_LLC_TYPE_TEST_LINK:
		/* A.3.8: echo the user data back */
		m.u.test_link.resp = true;
		smcr_llc_send(link, &m);
		break;
	case SMCR_LLC_TYPE_DELETE_LINK:
		/* the answer first: a failed link sends nothing more.
		 * §3.5.5.4: with all links the group ends; one link goes
		 * alone, its connections moved to another (smcr_lgr.c).
		 */
		if (!m.u.delete_link.resp) {
			m.u.delete_link.resp = true;
			if (!smcr_llc_named(link, &m.u.delete_link, false))
				m.u.delete_link.reason = SMCR_LLC_DEL_NOLNK;
			smcr_llc_send(link, &m);
		}
		/* A.3.4: a link this group does not have; ours stays */
		if (!smcr_llc_named(link, &m.u.delete_link, true))
			trace_smcr_llc_bogus(link, m.type,
					     m.u.delete_link.link_num);
		break;
	case SMCR_LLC_TYPE_CONFIRM_RKEY:
		/* A.3.5: with one link the RMB's rkey came with the CLC
		 * Accept or Confirm; Linux still asks before it uses an RMB
		 */
		m.u.confirm_rkey.resp = true;
		smcr_llc_send(link, &m);
		break;
	case SMCR_LLC_TYPE_DELETE_RKEY:
		/* A.3.7: the peer stops using an RMB; nothing to forget */
		m.u.delete_rkey.resp = true;
		smcr_llc_send(link, &m);
		break;
	case SMCR_LLC_TYPE_ADD_LINK:
		/* A.3.2: groups here keep one link; refuse the second */
		m.u.add_link.resp = true;
		m.u.add_link.reject = true;
		m.u.add_link.rej_rsn = SMCR_LLC_REJ_RSN_NO_ALT_PATH;
		smcr_llc_send(link, &m);
		break;
	case SMCR_LLC_TYPE_REQ_ADD_LINK:
		if (link->lgr->server)
			smcr_llc_req_add_link_answer(link, &m);
		break;
	default:
		break;
	}
}

/* The requests whose version 2 extension is kept: ADD LINK's rkeys and
 * the GIDs of REQUEST ADD LINK
 */
static bool smcr_llc_has_ext(u8 type)
{
	return type == SMCR_LLC_TYPE_ADD_LINK ||
	       type == SMCR_LLC_TYPE_REQ_ADD_LINK;
}

/* Take the oldest request off the ring, and into @ext the extension of
 * the newest version 2 ADD LINK or REQUEST ADD LINK if it is one
 * (@ext_len); false when the ring is empty, and the work then ends: the
 * next request queues it again
 */
static bool smcr_llc_req_pop(struct smcr_link *link, u8 *msg, u8 *ext,
			     u32 *ext_len)
{
	bool found;

	*ext_len = 0;
	spin_lock_bh(&link->llc_req_lock);
	found = link->llc_req_cnt;
	if (found) {
		memcpy(msg, link->llc_reqs[link->llc_req_head], SMCR_WR_SIZE);
		if (ext && smcr_llc_has_ext(msg[0] & SMCR_LLC_TYPE_MASK)) {
			*ext_len = link->llc_req_ext_len;
			memcpy(ext, link->llc_req_ext, *ext_len);
		}
		link->llc_req_head = (link->llc_req_head + 1) % SMCR_LLC_REQS;
		link->llc_req_cnt--;
	} else {
		link->llc_req_queued = false;
	}
	spin_unlock_bh(&link->llc_req_lock);
	return found;
}

/**
 * smcr_llc_req_work() - answer the peer's LLC requests of a link
 * @work: the link's llc_work
 *
 * One work item per link, however many requests come: a peer's flood
 * occupies one worker and SMCR_LLC_REQS messages, never the handshakes'
 * workqueue or unbounded memory.
 */
void smcr_llc_req_work(struct work_struct *work)
{
	struct smcr_link *link = container_of(work, struct smcr_link,
					      llc_work);
	u8 msg[SMCR_WR_SIZE], *ext = NULL;
	u32 ext_len;

	if (link->llc_req_ext)
		ext = kmalloc(SMCR_LLC_ADD_EXT_MAX_LEN, GFP_KERNEL);
	while (smcr_llc_req_pop(link, msg, ext, &ext_len))
		smcr_llc_answer(link, msg, ext, ext_len);
	kfree(ext);
	/* the reference taken when the work was queued */
	smcr_lgr_put(link->lgr);
}

/* How much of a received message's extension to keep in @to: a version
 * 2 ADD LINK's or REQUEST ADD LINK's, within its length, at most
 * SMCR_LLC_ADD_EXT_MAX_LEN
 */
static u32 smcr_llc_keep_ext(u8 *to, const struct smcr_llc_hdr *hdr,
			     const u8 *ext, u32 ext_len)
{
	u32 n;

	if (!to || !ext || hdr->version != SMCR_LLC_VERSION_2 ||
	    !smcr_llc_has_ext(hdr->type))
		return 0;
	n = min3(ext_len, (u32)hdr->length - SMCR_WR_SIZE,
		 (u32)SMCR_LLC_ADD_EXT_MAX_LEN);
	memcpy(to, ext, n);
	return n;
}

/* Keep a request for smcr_llc_req_work(); Context: softirq */
static void smcr_llc_req_queue(struct smcr_link *link, const u8 *msg,
			       const struct smcr_llc_hdr *hdr,
			       const u8 *ext, u32 ext_len)
{
	bool queue, full;

	spin_lock(&link->llc_req_lock);
	full = link->llc_req_cnt == SMCR_LLC_REQS;
	if (!full && smcr_llc_has_ext(hdr->type))
		link->llc_req_ext_len = smcr_llc_keep_ext(link->llc_req_ext,
							  hdr, ext, ext_len);
	if (!full) {
		memcpy(link->llc_reqs[(link->llc_req_head + link->llc_req_cnt) %
				      SMCR_LLC_REQS], msg, SMCR_WR_SIZE);
		link->llc_req_cnt++;
	}
	queue = !full && !link->llc_req_queued;
	/* a message racing the group's last put is dropped with it */
	if (queue && kref_get_unless_zero(&link->lgr->kref))
		link->llc_req_queued = true;
	else
		queue = false;
	spin_unlock(&link->llc_req_lock);
	if (full)
		trace_smcr_llc_drop(link, msg[0]);
	if (queue)
		queue_work(smcr_llc_wq, &link->llc_work);
}

/**
 * smcr_llc_rx() - an LLC message arrived on @link
 * @link: link
 * @msg: the message, SMCR_WR_SIZE bytes
 * @ext: what followed them, in a version 2 message, or NULL
 * @ext_len: its length
 *
 * Context: softirq.
 */
void smcr_llc_rx(struct smcr_link *link, const u8 *msg, const u8 *ext,
		 u32 ext_len)
{
	struct smcr_llc_hdr hdr;
	u16 key, expect;

	if (smcr_llc_hdr_decode(msg, SMCR_WR_SIZE, &hdr))
		return;		/* A.3: unknown messages are dropped */
	trace_smcr_llc(link, false, hdr.type, hdr.resp);
	key = hdr.type | (hdr.resp ? SMCR_LLC_EXPECT_RESP : 0);
	expect = READ_ONCE(link->llc_expect);
	if (expect == key || expect == (hdr.type | SMCR_LLC_EXPECT_EITHER)) {
		memcpy(link->llc_resp, msg, SMCR_WR_SIZE);
		link->llc_resp_ext_len = smcr_llc_keep_ext(link->llc_resp_ext,
							   &hdr, ext, ext_len);
		WRITE_ONCE(link->llc_expect, 0);
		complete(&link->llc_done);
		return;
	}
	if (hdr.resp)
		return;		/* an answer nobody waits for any more */
	switch (hdr.type) {
	case SMCR_LLC_TYPE_TEST_LINK:
	case SMCR_LLC_TYPE_DELETE_LINK:
	case SMCR_LLC_TYPE_CONFIRM_RKEY:
	case SMCR_LLC_TYPE_DELETE_RKEY:
	case SMCR_LLC_TYPE_ADD_LINK:
	case SMCR_LLC_TYPE_REQ_ADD_LINK:
		break;
	default:
		return;
	}

	smcr_llc_req_queue(link, msg, &hdr, ext, ext_len);
}

/* The llc_expect value a waiter announces, before what makes it come */
static void smcr_llc_expect_key(struct smcr_link *link, u16 key)
{
	reinit_completion(&link->llc_done);
	WRITE_ONCE(link->llc_expect, key);
}

/**
 * smcr_llc_expect() - announce the LLC message a caller will wait for
 * @link: link
 * @type: SMCR_LLC_TYPE_*
 * @resp: whether it is a response
 *
 * Call before the action that makes the peer send it, so that it cannot
 * arrive unexpected.
 */
void smcr_llc_expect(struct smcr_link *link, u8 type, bool resp)
{
	smcr_llc_expect_key(link, type | (resp ? SMCR_LLC_EXPECT_RESP : 0));
}

/**
 * smcr_llc_wait() - wait for what smcr_llc_expect() announced
 * @link: link
 * @m: the message, decoded
 *
 * The extension of a version 2 ADD LINK is in @link->llc_resp_ext, of
 * @link->llc_resp_ext_len bytes, until the next smcr_llc_expect().
 *
 * Return: 0, or a negative errno: -ETIMEDOUT after SMCR_LLC_WAIT,
 * -ENOLINK for a link gone down, or the decoder's.
 */
int smcr_llc_wait(struct smcr_link *link, struct smcr_llc_msg *m)
{
	long left = 0;

	/* a link that fails later completes llc_done (smcr_link_fail()) */
	if (READ_ONCE(link->state) != SMCR_LINK_DOWN)
		left = wait_for_completion_interruptible_timeout(&link->llc_done,
								 SMCR_LLC_WAIT);
	if (READ_ONCE(link->llc_expect)) {
		WRITE_ONCE(link->llc_expect, 0);
		if (left < 0)
			return left;
		return READ_ONCE(link->state) == SMCR_LINK_DOWN ? -ENOLINK :
								  -ETIMEDOUT;
	}
	return smcr_llc_decode(link->llc_resp, SMCR_WR_SIZE, m);
}

static void smcr_llc_fill_confirm(struct smcr_link *link,
				  struct smcr_llc_msg *m, bool resp)
{
	struct smcr_llc_confirm_link *cl = &m->u.confirm_link;
	__be32 uid = smcr_link_uid(link);

	memset(m, 0, sizeof(*m));
	m->type = SMCR_LLC_TYPE_CONFIRM_LINK;
	cl->resp = resp;
	cl->no_rmbe_eyec = true;
	memcpy(cl->mac, link->port.mac, ETH_ALEN);
	memcpy(cl->gid, link->port.gid, SMCR_CLC_GID_LEN);
	cl->qpn = link->qp->qp_num;
	cl->link_num = link->link_id;
	memcpy(cl->link_uid, &uid, sizeof(cl->link_uid));
	/* unread by Linux: 2 as it sends; in SMC release 1 (Linux 6.12)
	 * what the group agreed on, with the connections
	 */
	cl->max_links = link->lgr->agreed.max_links;
	if (link->lgr->agreed.release >= SMCR_CLC_RELEASE_1)
		cl->max_conns = link->lgr->agreed.max_conns;
}

/* §3.5.1.5: the peer's CONFIRM LINK must name the QP we know it by; its
 * link user id is kept for diagnostics
 */
static int smcr_llc_check_confirm(struct smcr_link *link,
				  const struct smcr_llc_msg *m, bool resp)
{
	const struct smcr_llc_confirm_link *cl = &m->u.confirm_link;

	if (m->type != SMCR_LLC_TYPE_CONFIRM_LINK || cl->resp != resp ||
	    cl->qpn != link->peer_qpn ||
	    memcmp(cl->gid, link->peer_gid, SMCR_CLC_GID_LEN))
		return -EPROTO;
	memcpy(link->peer_uid, cl->link_uid, sizeof(link->peer_uid));
	return 0;
}

/**
 * smcr_llc_confirm_link_server() - the server's side of CONFIRM LINK
 * @link: first link of a new group, QP in RTS
 *
 * §3.5.1.5: the server sends the request over the new link and the
 * client's response proves the link carries traffic both ways.
 *
 * Return: 0 or a negative errno.
 */
int smcr_llc_confirm_link_server(struct smcr_link *link)
{
	struct smcr_llc_msg m;
	int rc;

	smcr_llc_fill_confirm(link, &m, false);
	smcr_llc_expect(link, SMCR_LLC_TYPE_CONFIRM_LINK, true);
	rc = smcr_llc_send(link, &m);
	if (!rc)
		rc = smcr_llc_wait(link, &m);
	if (!rc)
		rc = smcr_llc_check_confirm(link, &m, true);
	if (!rc) {
		WRITE_ONCE(link->state, SMCR_LINK_ACTIVE);
		/* handshakes of the same peer wait for it */
		wake_up_all(&link->tx_wait);
		smcr_llc_testlink_start(link);
	}
	return rc;
}

/**
 * smcr_llc_confirm_link_client() - the client's side of CONFIRM LINK
 * @link: first link of a new group, request announced with
 *	smcr_llc_expect() before the CLC Confirm went out
 * @before_resp: called once the request arrived and the QP is in RTS,
 *	before the response goes out (the client arms its RMB there)
 * @arg: argument of @before_resp
 *
 * Return: 0 or a negative errno.
 */
int smcr_llc_confirm_link_client(struct smcr_link *link,
				 int (*before_resp)(void *arg), void *arg)
{
	struct smcr_llc_msg m;
	int rc;

	rc = smcr_llc_wait(link, &m);
	if (!rc)
		rc = smcr_llc_check_confirm(link, &m, false);
	if (!rc)
		rc = smcr_link_ready(link, true);
	if (!rc && before_resp)
		rc = before_resp(arg);
	if (rc)
		return rc;
	link->link_id = m.u.confirm_link.link_num;
	smcr_llc_fill_confirm(link, &m, true);
	rc = smcr_llc_send(link, &m);
	if (!rc) {
		WRITE_ONCE(link->state, SMCR_LINK_ACTIVE);
		/* handshakes of the same peer wait for it */
		wake_up_all(&link->tx_wait);
		smcr_llc_testlink_start(link);
	}
	return rc;
}

/**
 * smcr_llc_delete_link() - tell the peer an idle group's link goes away
 * @link: the group's only link, still active
 *
 * §3.5.5.4: an orderly DELETE LINK of all links ends the group on both
 * sides. The peer may still have connections in the group that we have
 * let go of: it aborts them, then answers (Linux sends a DELETE LINK of
 * its own). The link stays until then, up to SMCR_LLC_WAIT, so that what
 * the peer sends meanwhile is acknowledged: a send to a QP that is gone
 * is retried for as long as the peer's retry count allows, for ever on
 * rxe, and Linux waits for each abort it sent before it lets go of the
 * group.
 *
 * Context: process.
 */
void smcr_llc_delete_link(struct smcr_link *link)
{
	struct smcr_llc_msg m = { .type = SMCR_LLC_TYPE_DELETE_LINK };

	mutex_lock(&link->llc_lock);
	if (READ_ONCE(link->state) != SMCR_LINK_ACTIVE)
		goto out;
	m.u.delete_link.all = true;
	m.u.delete_link.orderly = true;
	m.u.delete_link.reason = SMCR_LLC_DEL_PROG_INIT_TERM;
	smcr_llc_expect_key(link,
			    SMCR_LLC_TYPE_DELETE_LINK | SMCR_LLC_EXPECT_EITHER);
	if (smcr_llc_send(link, &m)) {
		WRITE_ONCE(link->llc_expect, 0);
		goto out;
	}
	if (smcr_llc_wait(link, &m))
		trace_smcr_llc_unanswered(link, SMCR_LLC_TYPE_DELETE_LINK);
out:
	mutex_unlock(&link->llc_lock);
}

/**
 * smcr_llc_delete_link_one() - tell the peer a further link goes
 * @link: an active link of the group, the first
 * @link_id: the link that goes
 * @unneeded: it works, but a link between other devices replaced it:
 *	orderly, "no asymmetric link needed" (as Linux's reason code says);
 *	else it went down: not orderly, lost path (A.3.4)
 *
 * A link that went down is only announced: the peer's answer changes
 * nothing. One that still works stays until the peer answered, up to
 * SMCR_LLC_WAIT: a peer in an LLC exchange of its own answers once that
 * is over, and then moves its connections off the link itself, where a
 * failed send would have made it give up the link for a lost one.
 *
 * Context: process; under @link's group's links_lock.
 * Return: 0 once sent (and, @unneeded, answered), else a negative errno:
 * the peer may not know.
 */
int smcr_llc_delete_link_one(struct smcr_link *link, u8 link_id,
			     bool unneeded)
{
	struct smcr_llc_msg m = { .type = SMCR_LLC_TYPE_DELETE_LINK };
	int rc = -ENOLINK;

	lockdep_assert_held(&link->lgr->links_lock);
	mutex_lock(&link->llc_lock);
	if (READ_ONCE(link->state) != SMCR_LINK_ACTIVE)
		goto out;
	m.u.delete_link.link_num = link_id;
	m.u.delete_link.orderly = unneeded;
	m.u.delete_link.reason = unneeded ? SMCR_LLC_DEL_NO_ASYM_NEEDED :
					    SMCR_LLC_DEL_LOST_PATH;
	if (!unneeded) {
		rc = smcr_llc_send(link, &m);
		goto out;
	}
	smcr_llc_expect(link, SMCR_LLC_TYPE_DELETE_LINK, true);
	rc = smcr_llc_send(link, &m);
	if (rc) {
		WRITE_ONCE(link->llc_expect, 0);
		goto out;
	}
	rc = smcr_llc_wait(link, &m);
	if (rc)
		trace_smcr_llc_unanswered(link, SMCR_LLC_TYPE_DELETE_LINK);
out:
	mutex_unlock(&link->llc_lock);
	return rc;
}

/**
 * smcr_llc_delete_rkeys() - tell the peer to forget RMBs of ours (A.3.7)
 * @link: active link the rkeys are of
 * @rkeys: rkeys of the RMBs' memory regions on @link
 * @n: how many, 1 to SMCR_LLC_DEL_RKEY_MAX
 *
 * Linux keeps the rkey of every RMB its peer named in a CLC message or a
 * CONFIRM RKEY, up to 255 per group, until a DELETE RKEY names it; with
 * its table full it declines new connections. The RMBs must stay as they
 * are until the answer came: an RMB offered again before that, with the
 * same rkey, would be forgotten under its new connection. An answer that
 * some rkeys were unknown (Z) is as good: the peer has none of them. A
 * peer that does not answer within SMCR_LLC_WAIT (App. C.7) has its link
 * failed, which ends the exchange for every RMB waiting on it.
 *
 * Context: process; waits up to SMCR_LLC_WAIT for the answer.
 * Return: 0, or a negative errno when no answer came.
 */
int smcr_llc_delete_rkeys(struct smcr_link *link, const u32 *rkeys, int n)
{
	struct smcr_llc_msg m = { .type = SMCR_LLC_TYPE_DELETE_RKEY };
	int rc;

	if (n < 1 || n > SMCR_LLC_DEL_RKEY_MAX)
		return -EINVAL;
	m.u.delete_rkey.count = n;
	memcpy(m.u.delete_rkey.rkeys, rkeys, n * sizeof(*rkeys));
	mutex_lock(&link->llc_lock);
	if (READ_ONCE(link->state) != SMCR_LINK_ACTIVE) {
		rc = -ENOLINK;
		goto out;
	}
	smcr_llc_expect(link, SMCR_LLC_TYPE_DELETE_RKEY, true);
	rc = smcr_llc_send(link, &m);
	if (rc) {
		WRITE_ONCE(link->llc_expect, 0);
		goto out;
	}
	rc = smcr_llc_wait(link, &m);
	if (rc == -ETIMEDOUT)
		smcr_link_fail(link, SMCR_DOWN_LLC);
out:
	mutex_unlock(&link->llc_lock);
	return rc;
}

/* Seconds between TEST LINK probes of every active link, 0 for none, if
 * not negative; by default net.smc.smcr_testlink_time decides
 */
static int testlink_time = -1;
module_param(testlink_time, int, 0644);
MODULE_PARM_DESC(testlink_time,
		 "Seconds between TEST LINK keepalives (0: off; -1: net.smc.smcr_testlink_time)");

/* The keepalive interval of @link in jiffies, 0 for none */
static long smcr_llc_testlink_delay(struct smcr_link *link)
{
	int secs = READ_ONCE(testlink_time);

	return secs >= 0 ? (long)secs * HZ : link->lgr->testlink_time;
}

/**
 * smcr_llc_testlink_start() - (re)arm the keepalive of an active link
 * @link: link
 */
void smcr_llc_testlink_start(struct smcr_link *link)
{
	long delay = smcr_llc_testlink_delay(link);

	if (delay > 0 && READ_ONCE(link->state) == SMCR_LINK_ACTIVE)
		mod_delayed_work(smcr_hs_wq, &link->testlink_work, delay);
}

/**
 * smcr_llc_testlink_work() - probe a link with TEST LINK (§3.5.5.5)
 * @work: the link's testlink_work
 *
 * §4.5.3: only a link quiet for the keepalive interval is probed; one
 * that received within it has shown it works, however slowly its own
 * sends drain (a probe's answer may queue behind a busy send ring).
 * A.3.8: the peer echoes the request; no answer within SMCR_LLC_WAIT means
 * the peer or the path is gone, and the link group goes with it.
 */
void smcr_llc_testlink_work(struct work_struct *work)
{
	struct smcr_link *link = container_of(to_delayed_work(work),
					      struct smcr_link, testlink_work);
	struct smcr_llc_msg m = { .type = SMCR_LLC_TYPE_TEST_LINK };
	long delay = smcr_llc_testlink_delay(link);
	unsigned long quiet_at;
	int rc;

	if (READ_ONCE(link->state) != SMCR_LINK_ACTIVE || delay <= 0)
		return;
	quiet_at = READ_ONCE(link->rx_stamp) + delay;
	if (time_before(jiffies, quiet_at)) {
		mod_delayed_work(smcr_hs_wq, &link->testlink_work,
				 quiet_at - jiffies);
		return;
	}
	/* another LLC exchange is running: it proves the link as well */
	if (!mutex_trylock(&link->llc_lock)) {
		smcr_llc_testlink_start(link);
		return;
	}
	get_random_bytes(m.u.test_link.user_data,
			 sizeof(m.u.test_link.user_data));
	smcr_llc_expect(link, SMCR_LLC_TYPE_TEST_LINK, true);
	rc = smcr_llc_send(link, &m);
	if (!rc)
		rc = smcr_llc_wait(link, &m);
	else
		WRITE_ONCE(link->llc_expect, 0);
	mutex_unlock(&link->llc_lock);
	/* no answer, or not even a free send slot for the probe in
	 * SMCR_WR_TX_WAIT (-EBUSY): the link does not carry traffic
	 */
	if (rc) {
		smcr_link_fail(link, SMCR_DOWN_TESTLINK);
		return;
	}
	smcr_llc_testlink_start(link);
}
