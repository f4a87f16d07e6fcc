/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: tracepoints on state changes, the way xprtrdma has them.
 *
 *   echo 1 > /sys/kernel/tracing/events/smcr/enable
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM smcr

#if !defined(SMCR_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define SMCR_TRACE_H

#include <linux/string.h>
#include <linux/tracepoint.h>
#include <rdma/ib_cm.h>		/* the names <trace/misc/rdma.h> shows */
#include <rdma/rdma_cm.h>
#include <trace/misc/rdma.h>

#include "smcr.h"

TRACE_DEFINE_ENUM(SMCR_ACTIVE);
TRACE_DEFINE_ENUM(SMCR_INIT);
TRACE_DEFINE_ENUM(SMCR_CLOSED);
TRACE_DEFINE_ENUM(SMCR_LISTEN);

/* The socket states of smcr.h, as sock_diag reports them */
#define smcr_show_state(s)						\
	__print_symbolic(s,						\
		{ SMCR_ACTIVE, "ACTIVE" },				\
		{ SMCR_INIT, "INIT" },					\
		{ SMCR_CLOSED, "CLOSED" },				\
		{ SMCR_LISTEN, "LISTEN" })

/* A step in an AF_SMC socket's life, and the state it is in after it */
DECLARE_EVENT_CLASS(smcr_sock_class,
		    TP_PROTO(const struct smcr_sock *smc),
		    TP_ARGS(smc),
		    TP_STRUCT__entry(__field(const void *, smc)
				     __field(int, state)),
		    TP_fast_assign(__entry->smc = smc;
				   __entry->state = smc->sk.sk_state;),
		    TP_printk("smc=%p state=%s", __entry->smc,
			      smcr_show_state(__entry->state))
);

#define DEFINE_SMCR_SOCK_EVENT(name)					\
	DEFINE_EVENT(smcr_sock_class, name,				\
		     TP_PROTO(const struct smcr_sock *smc),		\
		     TP_ARGS(smc))

DEFINE_SMCR_SOCK_EVENT(smcr_sock_create);
DEFINE_SMCR_SOCK_EVENT(smcr_listen);
DEFINE_SMCR_SOCK_EVENT(smcr_connected);
DEFINE_SMCR_SOCK_EVENT(smcr_accept_queued);
DEFINE_SMCR_SOCK_EVENT(smcr_accepted);
DEFINE_SMCR_SOCK_EVENT(smcr_release);
DEFINE_SMCR_SOCK_EVENT(smcr_abort_sent);
DEFINE_SMCR_SOCK_EVENT(smcr_conn_freed);

TRACE_EVENT(smcr_fallback,
	    TP_PROTO(const struct smcr_sock *smc, u32 reason, u32 peer_diag),
	    TP_ARGS(smc, reason, peer_diag),
	    TP_STRUCT__entry(__field(const void *, smc)
			     __field(u32, reason)
			     __field(u32, peer_diag)
			     __field(bool, server)),
	    TP_fast_assign(__entry->smc = smc;
			   __entry->reason = reason;
			   __entry->peer_diag = peer_diag;
			   __entry->server = !!smc->listener;),
	    TP_printk("smc=%p %s fallback reason=0x%08x peer_diagnosis=0x%08x",
		      __entry->smc, __entry->server ? "server" : "client",
		      __entry->reason, __entry->peer_diag)
);

TRACE_EVENT(smcr_clc_msg,
	    TP_PROTO(const struct smcr_sock *smc, bool sent, u8 type, int len,
		     int rc),
	    TP_ARGS(smc, sent, type, len, rc),
	    TP_STRUCT__entry(__field(const void *, smc)
			     __field(bool, sent)
			     __field(u8, type)
			     __field(int, len)
			     __field(int, rc)),
	    TP_fast_assign(__entry->smc = smc;
			   __entry->sent = sent;
			   __entry->type = type;
			   __entry->len = len;
			   __entry->rc = rc;),
	    TP_printk("smc=%p %s %s len=%d rc=%d", __entry->smc,
		      __entry->sent ? "sent" : "received",
		      __print_symbolic(__entry->type,
				       { 0, "none" },
				       { SMCR_CLC_TYPE_PROPOSAL, "PROPOSAL" },
				       { SMCR_CLC_TYPE_ACCEPT, "ACCEPT" },
				       { SMCR_CLC_TYPE_CONFIRM, "CONFIRM" },
				       { SMCR_CLC_TYPE_DECLINE, "DECLINE" }),
		      __entry->len, __entry->rc)
);

TRACE_EVENT(smcr_link_qp,
	    TP_PROTO(const struct smcr_link *link, int qp_state, int rc),
	    TP_ARGS(link, qp_state, rc),
	    TP_STRUCT__entry(__field(const void *, lgr)
			     __field(u32, qpn)
			     __field(u32, peer_qpn)
			     __field(int, qp_state)
			     __field(int, rc)),
	    TP_fast_assign(__entry->lgr = link->lgr;
			   __entry->qpn = link->qp ? link->qp->qp_num : 0;
			   __entry->peer_qpn = link->peer_qpn;
			   __entry->qp_state = qp_state;
			   __entry->rc = rc;),
	    TP_printk("lgr=%p qp=%u peer_qp=%u to %s rc=%d", __entry->lgr,
		      __entry->qpn, __entry->peer_qpn,
		      __print_symbolic(__entry->qp_state,
				       { IB_QPS_RESET, "RESET" },
				       { IB_QPS_INIT, "INIT" },
				       { IB_QPS_RTR, "RTR" },
				       { IB_QPS_RTS, "RTS" },
				       { IB_QPS_ERR, "ERR" }),
		      __entry->rc)
);

TRACE_EVENT(smcr_conn,
	    TP_PROTO(const struct smcr_sock *smc, bool first_contact),
	    TP_ARGS(smc, first_contact),
	    TP_STRUCT__entry(__field(const void *, smc)
			     __field(const void *, lgr)
			     __field(u32, token)
			     __field(u32, rmb)
			     __field(u32, sndbuf)
			     __field(u32, peer_rmb)
			     __field(u8, version)
			     __field(bool, first_contact)),
	    TP_fast_assign(__entry->smc = smc;
			   __entry->lgr = smc->conn.lgr;
			   __entry->token = smc->conn.token;
			   __entry->rmb = smc->conn.rmb.size;
			   __entry->sndbuf = smc->conn.sndbuf.size;
			   __entry->peer_rmb = smc->conn.peer_size;
			   __entry->version = smc->conn.lgr->version;
			   __entry->first_contact = first_contact;),
	    TP_printk("smc=%p lgr=%p v%u token=%u rmb=%u sndbuf=%u peer_rmb=%u%s",
		      __entry->smc, __entry->lgr, __entry->version,
		      __entry->token, __entry->rmb,
		      __entry->sndbuf, __entry->peer_rmb,
		      __entry->first_contact ? " first contact" : "")
);

TRACE_EVENT(smcr_cdc,
	    TP_PROTO(const struct smcr_sock *smc, const struct smcr_cdc_msg *m,
		     bool sent),
	    TP_ARGS(smc, m, sent),
	    TP_STRUCT__entry(__field(const void *, smc)
			     __field(u32, token)
			     __field(u16, seqno)
			     __field(u16, prod_wrap)
			     __field(u32, prod_count)
			     __field(u16, cons_wrap)
			     __field(u32, cons_count)
			     __field(u8, prod_flags)
			     __field(u8, conn_flags)
			     __field(bool, sent)),
	    TP_fast_assign(__entry->smc = smc;
			   __entry->token = m->token;
			   __entry->seqno = m->seqno;
			   __entry->prod_wrap = m->prod.wrap;
			   __entry->prod_count = m->prod.count;
			   __entry->cons_wrap = m->cons.wrap;
			   __entry->cons_count = m->cons.count;
			   __entry->prod_flags = m->prod_flags;
			   __entry->conn_flags = m->conn_state_flags;
			   __entry->sent = sent;),
	    TP_printk("smc=%p %s token=%u seq=%u prod=%u:%u cons=%u:%u flags=0x%02x/0x%02x",
		      __entry->smc, __entry->sent ? "sent" : "received",
		      __entry->token, __entry->seqno,
		      __entry->prod_wrap, __entry->prod_count,
		      __entry->cons_wrap, __entry->cons_count,
		      __entry->prod_flags, __entry->conn_flags)
);

/* A step in a link group's life */
DECLARE_EVENT_CLASS(smcr_lgr_class,
		    TP_PROTO(const struct smcr_lgr *lgr),
		    TP_ARGS(lgr),
		    TP_STRUCT__entry(__field(const void *, lgr)
				     __field(u32, id)
				     __field(bool, server)
				     __field(u8, version)
				     __field(u8, release)
				     __field(u8, max_conns)
				     __field(u8, max_links)
				     __field(int, conns)),
		    TP_fast_assign(__entry->lgr = lgr;
				   __entry->id = lgr->id;
				   __entry->server = lgr->server;
				   __entry->version = lgr->version;
				   __entry->release = lgr->agreed.release;
				   __entry->max_conns = lgr->agreed.max_conns;
				   __entry->max_links = lgr->agreed.max_links;
				   __entry->conns = lgr->conns_num;),
		    TP_printk("lgr=%p id=%#x %s v%u release=%u conns=%d max_conns=%u max_links=%u",
			      __entry->lgr, __entry->id,
			      __entry->server ? "server" : "client",
			      __entry->version, __entry->release,
			      __entry->conns, __entry->max_conns,
			      __entry->max_links)
);

#define DEFINE_SMCR_LGR_EVENT(name)					\
	DEFINE_EVENT(smcr_lgr_class, name,				\
		     TP_PROTO(const struct smcr_lgr *lgr),		\
		     TP_ARGS(lgr))

DEFINE_SMCR_LGR_EVENT(smcr_lgr_create);
/* off the list: no new connection joins it */
DEFINE_SMCR_LGR_EVENT(smcr_lgr_unlist);
/* its connections aborted */
DEFINE_SMCR_LGR_EVENT(smcr_lgr_terminate);
DEFINE_SMCR_LGR_EVENT(smcr_lgr_free);
/* a send buffer that writes may still read, kept until the QP goes */
DEFINE_SMCR_LGR_EVENT(smcr_lgr_park_sndbuf);

/* RMBs retired with a DELETE RKEY: rc 0 when the peer answered */
TRACE_EVENT(smcr_lgr_retire_rmbs,
	    TP_PROTO(const struct smcr_lgr *lgr, int rmbs, int rc),
	    TP_ARGS(lgr, rmbs, rc),
	    TP_STRUCT__entry(__field(const void *, lgr)
			     __field(u32, id)
			     __field(int, rmbs)
			     __field(int, rc)),
	    TP_fast_assign(__entry->lgr = lgr;
			   __entry->id = lgr->id;
			   __entry->rmbs = rmbs;
			   __entry->rc = rc;),
	    TP_printk("lgr=%p id=%#x rmbs=%d rc=%d", __entry->lgr,
		      __entry->id, __entry->rmbs, __entry->rc)
);

/* LLC message types (A.3), v1 and v2 */
#define smcr_show_llc_type(t)						\
	__print_symbolic(t,						\
		{ SMCR_LLC_TYPE_CONFIRM_LINK, "CONFIRM_LINK" },		\
		{ SMCR_LLC_TYPE_ADD_LINK, "ADD_LINK" },			\
		{ SMCR_LLC_TYPE_ADD_LINK_CONT, "ADD_LINK_CONT" },	\
		{ SMCR_LLC_TYPE_DELETE_LINK, "DELETE_LINK" },		\
		{ SMCR_LLC_TYPE_REQ_ADD_LINK, "REQ_ADD_LINK" },		\
		{ SMCR_LLC_TYPE_CONFIRM_RKEY, "CONFIRM_RKEY" },		\
		{ SMCR_LLC_TYPE_TEST_LINK, "TEST_LINK" },		\
		{ SMCR_LLC_TYPE_CONFIRM_RKEY_CONT, "CONFIRM_RKEY_CONT" }, \
		{ SMCR_LLC_TYPE_DELETE_RKEY, "DELETE_RKEY" },		\
		{ SMCR_LLC_TYPE_CONFIRM_LINK_V2, "CONFIRM_LINK_V2" },	\
		{ SMCR_LLC_TYPE_ADD_LINK_V2, "ADD_LINK_V2" },		\
		{ SMCR_LLC_TYPE_DELETE_LINK_V2, "DELETE_LINK_V2" },	\
		{ SMCR_LLC_TYPE_REQ_ADD_LINK_V2, "REQ_ADD_LINK_V2" },	\
		{ SMCR_LLC_TYPE_CONFIRM_RKEY_V2, "CONFIRM_RKEY_V2" },	\
		{ SMCR_LLC_TYPE_TEST_LINK_V2, "TEST_LINK_V2" },		\
		{ SMCR_LLC_TYPE_DELETE_RKEY_V2, "DELETE_RKEY_V2" })

TRACE_EVENT(smcr_llc,
	    TP_PROTO(const struct smcr_link *link, bool sent, u8 type,
		     bool resp),
	    TP_ARGS(link, sent, type, resp),
	    TP_STRUCT__entry(__field(const void *, lgr)
			     __field(bool, sent)
			     __field(u8, type)
			     __field(bool, resp)),
	    TP_fast_assign(__entry->lgr = link->lgr;
			   __entry->sent = sent;
			   __entry->type = type;
			   __entry->resp = resp;),
	    TP_printk("lgr=%p %s type=%s %s", __entry->lgr,
		      __entry->sent ? "sent" : "received",
		      smcr_show_llc_type(__entry->type),
		      __entry->resp ? "response" : "request")
);

/* An LLC message of a type, and what became of it */
DECLARE_EVENT_CLASS(smcr_llc_type_class,
		    TP_PROTO(const struct smcr_link *link, u8 type),
		    TP_ARGS(link, type),
		    TP_STRUCT__entry(__field(const void *, lgr)
				     __field(u8, type)),
		    TP_fast_assign(__entry->lgr = link->lgr;
				   __entry->type = type;),
		    TP_printk("lgr=%p type=%s", __entry->lgr,
			      smcr_show_llc_type(__entry->type))
);

/* A peer's LLC request dropped: SMCR_LLC_REQS of its requests wait */
DEFINE_EVENT(smcr_llc_type_class, smcr_llc_drop,
	     TP_PROTO(const struct smcr_link *link, u8 type),
	     TP_ARGS(link, type));

/* Our request the peer left unanswered for SMCR_LLC_WAIT, where that
 * does not fail the link (a group's last DELETE LINK)
 */
DEFINE_EVENT(smcr_llc_type_class, smcr_llc_unanswered,
	     TP_PROTO(const struct smcr_link *link, u8 type),
	     TP_ARGS(link, type));

TRACE_DEFINE_ENUM(SMCR_DOWN_WC);
TRACE_DEFINE_ENUM(SMCR_DOWN_QP_EVENT);
TRACE_DEFINE_ENUM(SMCR_DOWN_POST);
TRACE_DEFINE_ENUM(SMCR_DOWN_REG);
TRACE_DEFINE_ENUM(SMCR_DOWN_CDC);
TRACE_DEFINE_ENUM(SMCR_DOWN_PEER);
TRACE_DEFINE_ENUM(SMCR_DOWN_TESTLINK);
TRACE_DEFINE_ENUM(SMCR_DOWN_LLC);
TRACE_DEFINE_ENUM(SMCR_DOWN_ADD);
TRACE_DEFINE_ENUM(SMCR_DOWN_DEVICE);
TRACE_DEFINE_ENUM(SMCR_DOWN_PORT);
TRACE_DEFINE_ENUM(SMCR_DOWN_ASYM);

#define smcr_show_down_reason(r)					\
	__print_symbolic(r,						\
		{ SMCR_DOWN_WC, "work completion error" },		\
		{ SMCR_DOWN_QP_EVENT, "QP event" },			\
		{ SMCR_DOWN_POST, "post failed" },			\
		{ SMCR_DOWN_REG, "RMB registration failed" },		\
		{ SMCR_DOWN_CDC, "CDC protocol violation" },		\
		{ SMCR_DOWN_PEER, "peer's DELETE LINK" },		\
		{ SMCR_DOWN_TESTLINK, "TEST LINK unanswered" },	\
		{ SMCR_DOWN_LLC, "LLC request unanswered" },		\
		{ SMCR_DOWN_ADD, "further link not added" },	\
		{ SMCR_DOWN_DEVICE, "device removed" },			\
		{ SMCR_DOWN_PORT, "port down" },			\
		{ SMCR_DOWN_ASYM, "asymmetric, replaced" })

/* Something that happened to a link, and a code for what: by default
 * why it went down
 */
DECLARE_EVENT_CLASS(smcr_link_code_class,
		    TP_PROTO(const struct smcr_link *link, unsigned int code),
		    TP_ARGS(link, code),
		    TP_STRUCT__entry(__field(const void *, lgr)
				     __field(u32, qpn)
				     __field(unsigned int, code)),
		    TP_fast_assign(__entry->lgr = link->lgr;
				   __entry->qpn = link->qp ? link->qp->qp_num : 0;
				   __entry->code = code;),
		    TP_printk("lgr=%p qp=%u link down: %s", __entry->lgr,
			      __entry->qpn,
			      smcr_show_down_reason(__entry->code))
);

/* A second link of a group: offered by us (server) or by the peer, from
 * another device's port or the first link's own
 */
DECLARE_EVENT_CLASS(smcr_links_class,
		    TP_PROTO(const struct smcr_link *link, bool server,
			     bool alt),
		    TP_ARGS(link, server, alt),
		    TP_STRUCT__entry(__field(const void *, lgr)
				     __field(u32, qpn)
				     __field(u8, link_id)
				     __field(bool, server)
				     __field(bool, alt)),
		    TP_fast_assign(__entry->lgr = link->lgr;
				   __entry->qpn = link->qp ? link->qp->qp_num : 0;
				   __entry->link_id = link->link_id;
				   __entry->server = server;
				   __entry->alt = alt;),
		    TP_printk("lgr=%p qp=%u link_id=%u %s %s", __entry->lgr,
			      __entry->qpn, __entry->link_id,
			      __entry->server ? "offered" : "offer taken",
			      __entry->alt ? "symmetric" : "asymmetric")
);

/* the link is set up and its ADD LINK sent */
DEFINE_EVENT(smcr_links_class, smcr_links_add,
	     TP_PROTO(const struct smcr_link *link, bool server, bool alt),
	     TP_ARGS(link, server, alt));
/* CONFIRM LINK done: the link is active beside the group's others */
DEFINE_EVENT(smcr_links_class, smcr_links_up,
	     TP_PROTO(const struct smcr_link *link, bool server, bool alt),
	     TP_ARGS(link, server, alt));

/* A step towards a further link, and how it ended (an errno or 0) */
DECLARE_EVENT_CLASS(smcr_links_rc_class,
		    TP_PROTO(const struct smcr_link *link, int rc),
		    TP_ARGS(link, rc),
		    TP_STRUCT__entry(__field(const void *, lgr)
				     __field(u8, link_id)
				     __field(int, rc)),
		    TP_fast_assign(__entry->lgr = link->lgr;
				   __entry->link_id = link->link_id;
				   __entry->rc = rc;),
		    TP_printk("lgr=%p link_id=%u rc=%d", __entry->lgr,
			      __entry->link_id, __entry->rc)
);

/* A second link did not come up: the errno (-ENOLINK: rejected) */
DEFINE_EVENT(smcr_links_rc_class, smcr_links_failed,
	     TP_PROTO(const struct smcr_link *link, int rc),
	     TP_ARGS(link, rc));
/* A client asked for a link over @link (REQUEST ADD LINK): sent, or why
 * not (-ENODEV: no other port of ours to offer)
 */
DEFINE_EVENT(smcr_links_rc_class, smcr_links_ask,
	     TP_PROTO(const struct smcr_link *link, int rc),
	     TP_ARGS(link, rc));

/* A link failed: its connections move to another link, or its group ends */
DEFINE_EVENT(smcr_link_code_class, smcr_link_down,
	     TP_PROTO(const struct smcr_link *link, unsigned int code),
	     TP_ARGS(link, code));

/* An asynchronous event of a link's QP */
DEFINE_EVENT_PRINT(smcr_link_code_class, smcr_qp_event,
		   TP_PROTO(const struct smcr_link *link, unsigned int code),
		   TP_ARGS(link, code),
		   TP_printk("lgr=%p qp=%u event %s", __entry->lgr,
			     __entry->qpn, rdma_show_ib_event(__entry->code))
);

/* A work request of a link completed in error (flushes are not traced) */
TRACE_EVENT(smcr_wc_error,
	    TP_PROTO(const struct smcr_link *link, const struct ib_wc *wc),
	    TP_ARGS(link, wc),
	    TP_STRUCT__entry(__field(const void *, lgr)
			     __field(u32, qpn)
			     __field(unsigned int, opcode)
			     __field(unsigned int, status)
			     __field(u32, vendor_err)),
	    TP_fast_assign(__entry->lgr = link->lgr;
			   __entry->qpn = link->qp ? link->qp->qp_num : 0;
			   __entry->opcode = wc->opcode;
			   __entry->status = wc->status;
			   __entry->vendor_err = wc->vendor_err;),
	    TP_printk("lgr=%p qp=%u %s: %s (vendor 0x%x)", __entry->lgr,
		      __entry->qpn,
		      __print_symbolic(__entry->opcode,
				       { IB_WC_SEND, "SEND" },
				       { IB_WC_RDMA_WRITE, "RDMA_WRITE" },
				       { IB_WC_REG_MR, "REG_MR" },
				       { IB_WC_RECV, "RECV" }),
		      rdma_show_wc_status(__entry->status),
		      __entry->vendor_err)
);

/* A peer's LLC request named a link this group does not have (A.3.4) */
TRACE_EVENT(smcr_llc_bogus,
	    TP_PROTO(const struct smcr_link *link, u8 type, u8 link_num),
	    TP_ARGS(link, type, link_num),
	    TP_STRUCT__entry(__field(const void *, lgr)
			     __field(u8, type)
			     __field(u8, link_num)
			     __field(u8, ours)),
	    TP_fast_assign(__entry->lgr = link->lgr;
			   __entry->type = type;
			   __entry->link_num = link_num;
			   __entry->ours = link->link_id;),
	    TP_printk("lgr=%p type=%s link=%u: no such link (ours is %u)",
		      __entry->lgr, smcr_show_llc_type(__entry->type),
		      __entry->link_num, __entry->ours)
);

/* A peer's CDC cursor broke §4.4: outside the RMBE, backwards, or past
 * what may move; the link group is failed for it
 */
TRACE_EVENT(smcr_cdc_refused,
	    TP_PROTO(const struct smcr_link *link, u32 token,
		     const struct smcr_cdc_cursor *prod,
		     const struct smcr_cdc_cursor *cons),
	    TP_ARGS(link, token, prod, cons),
	    TP_STRUCT__entry(__field(const void *, lgr)
			     __field(u32, token)
			     __field(u16, prod_wrap)
			     __field(u32, prod_count)
			     __field(u16, cons_wrap)
			     __field(u32, cons_count)),
	    TP_fast_assign(__entry->lgr = link->lgr;
			   __entry->token = token;
			   __entry->prod_wrap = prod->wrap;
			   __entry->prod_count = prod->count;
			   __entry->cons_wrap = cons->wrap;
			   __entry->cons_count = cons->count;),
	    TP_printk("lgr=%p token=%#x prod=%u:%u cons=%u:%u: cursor refused",
		      __entry->lgr, __entry->token, __entry->prod_wrap,
		      __entry->prod_count, __entry->cons_wrap,
		      __entry->cons_count)
);

/* A CDC message's sequence number against the newest one taken (A.4) */
DECLARE_EVENT_CLASS(smcr_cdc_seq_class,
		    TP_PROTO(const struct smcr_link *link, u32 token, u16 seq,
			     u16 last),
		    TP_ARGS(link, token, seq, last),
		    TP_STRUCT__entry(__field(const void *, lgr)
				     __field(u32, token)
				     __field(u16, seq)
				     __field(u16, last)),
		    TP_fast_assign(__entry->lgr = link->lgr;
				   __entry->token = token;
				   __entry->seq = seq;
				   __entry->last = last;),
		    TP_printk("lgr=%p token=%#x seq=%u newest taken %u",
			      __entry->lgr, __entry->token, __entry->seq,
			      __entry->last)
);

/* older than one taken, late over a failed link: dropped */
DEFINE_EVENT(smcr_cdc_seq_class, smcr_cdc_late,
	     TP_PROTO(const struct smcr_link *link, u32 token, u16 seq,
		      u16 last),
	     TP_ARGS(link, token, seq, last));

/* a failover validation naming a message still to come over another
 * link (smcr_cdc_rx_validate())
 */
DEFINE_EVENT(smcr_cdc_seq_class, smcr_cdc_ahead,
	     TP_PROTO(const struct smcr_link *link, u32 token, u16 seq,
		      u16 last),
	     TP_ARGS(link, token, seq, last));

/* Failover: a connection moved to another link of its group, with the
 * bytes it wrote again; or why it could not (it aborts)
 */
TRACE_EVENT(smcr_conn_moved,
	    TP_PROTO(const struct smcr_sock *smc, const struct smcr_link *from,
		     const struct smcr_link *to, u64 repeated, int rc),
	    TP_ARGS(smc, from, to, repeated, rc),
	    TP_STRUCT__entry(__field(const void *, smc)
			     __field(const void *, lgr)
			     __field(u8, from)
			     __field(u8, to)
			     __field(u64, repeated)
			     __field(int, rc)),
	    TP_fast_assign(__entry->smc = smc;
			   __entry->lgr = to->lgr;
			   __entry->from = from->link_id;
			   __entry->to = to->link_id;
			   __entry->repeated = repeated;
			   __entry->rc = rc;),
	    TP_printk("smc=%p lgr=%p link_id %u -> %u repeated=%llu rc=%d",
		      __entry->smc, __entry->lgr, __entry->from, __entry->to,
		      __entry->repeated, __entry->rc)
);

#endif /* SMCR_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE smcr_trace
#include <trace/define_trace.h>
