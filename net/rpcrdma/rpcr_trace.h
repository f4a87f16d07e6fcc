/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcr: tracepoints of the RPC-over-RDMA transport: each message sent
 * and received, each memory registration, each failure with its cause.
 *
 *   echo 1 > /sys/kernel/tracing/events/rpcr/enable
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rpcr

#ifndef RPCR_TRACE_ONCE_H
#define RPCR_TRACE_ONCE_H

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "rpcr_wire2.h"

/* why a received message was not taken */
enum rpcr_drop {
	RPCR_DROP_HDR,		/* header does not decode or check */
	RPCR_DROP_XID,		/* no call waits for the XID */
	RPCR_DROP_SIZE,		/* reply past what the call can hold */
	RPCR_DROP_CHUNK,	/* chunk the call did not offer */
	RPCR_DROP_BCALL,	/* backward call without a free slot */
	RPCR_DROP_CREDIT,	/* a call past the credits granted */
	RPCR_DROP_MORE,		/* a continued message not joined */
};

/* a header's credit grant; in version 2 the low half, the most there
 * may be in the high half (draft §4.3.1.1), which version 1 lacks
 */
static inline u32 rpcr_trace_credit(const struct rpcr2_hdr *h)
{
	return h->base.vers == RPCR_VERSION_2 ?
	       rpcr2_credit_granted(h->base.credit) : h->base.credit;
}

static inline u32 rpcr_trace_credit_max(const struct rpcr2_hdr *h)
{
	return h->base.vers == RPCR_VERSION_2 ?
	       rpcr2_credit_max(h->base.credit) : 0;
}

/* a peer's address, IPv4 or IPv6, in an entry's sockaddr_in6 bytes */
static inline void rpcr_trace_peer(u8 *dst, const struct sockaddr *peer)
{
	memset(dst, 0, sizeof(struct sockaddr_in6));
	memcpy(dst, peer, peer->sa_family == AF_INET6 ?
	       sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
}

/* the first bytes of a Host Auth Message shown */
#define RPCR_TRACE_HOSTAUTH	16

static inline u32 rpcr_trace_hostauth(u8 *dst, const struct rpcr2_props *p)
{
	u32 n = p->hostauth ? min_t(u32, p->hostauth_len,
				    RPCR_TRACE_HOSTAUTH) : 0;

	memset(dst, 0, RPCR_TRACE_HOSTAUTH);
	if (n)
		memcpy(dst, p->hostauth, n);
	return n;
}

/* why a connection speaks the RPC-over-RDMA version it does */
enum rpcr_vers_why {
	RPCR_VERS_CONNECT,	/* client: its highest, at connect */
	RPCR_VERS_ERR_VERS,	/* client: the server answered ERR_VERS */
	RPCR_VERS_SILENT,	/* client: no answer to the first call */
	RPCR_VERS_FIRST,	/* server: the first call's version */
	RPCR_VERS_REFUSED,	/* server: a call of another was refused */
	RPCR_VERS_PINNED,	/* client: rdma_v1_peers names the server */
};
#endif /* RPCR_TRACE_ONCE_H */

#if !defined(RPCR_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RPCR_TRACE_H

#include <linux/tracepoint.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

TRACE_DEFINE_ENUM(RPCR_MSG);
TRACE_DEFINE_ENUM(RPCR_NOMSG);
TRACE_DEFINE_ENUM(RPCR_MSGP);
TRACE_DEFINE_ENUM(RPCR_DONE);
TRACE_DEFINE_ENUM(RPCR_ERROR);
TRACE_DEFINE_ENUM(RPCR2_CONNPROP);

#define rpcr_show_proc(p)					\
	__print_symbolic(p, { RPCR_MSG, "MSG" },		\
			    { RPCR_NOMSG, "NOMSG" },		\
			    { RPCR_MSGP, "MSGP" },		\
			    { RPCR_DONE, "DONE" },		\
			    { RPCR_ERROR, "ERROR" },		\
			    { RPCR2_CONNPROP, "CONNPROP" })

TRACE_DEFINE_ENUM(RPCR_DROP_HDR);
TRACE_DEFINE_ENUM(RPCR_DROP_XID);
TRACE_DEFINE_ENUM(RPCR_DROP_SIZE);
TRACE_DEFINE_ENUM(RPCR_DROP_CHUNK);
TRACE_DEFINE_ENUM(RPCR_DROP_BCALL);
TRACE_DEFINE_ENUM(RPCR_DROP_CREDIT);
TRACE_DEFINE_ENUM(RPCR_DROP_MORE);

#define rpcr_show_drop(d)					\
	__print_symbolic(d, { RPCR_DROP_HDR, "bad header" },	\
			    { RPCR_DROP_XID, "unknown xid" },	\
			    { RPCR_DROP_SIZE, "too long" },	\
			    { RPCR_DROP_CHUNK, "bad chunk" },	\
			    { RPCR_DROP_BCALL, "no backward slot" },	\
			    { RPCR_DROP_CREDIT, "past the credits" },	\
			    { RPCR_DROP_MORE, "continuation refused" })

/* names the trace buffer can print (ib_core's strings are not ours) */
#define rpcr_show_cm_event(e)						\
	__print_symbolic(e,						\
		{ RDMA_CM_EVENT_ADDR_RESOLVED, "ADDR_RESOLVED" },	\
		{ RDMA_CM_EVENT_ADDR_ERROR, "ADDR_ERROR" },		\
		{ RDMA_CM_EVENT_ROUTE_RESOLVED, "ROUTE_RESOLVED" },	\
		{ RDMA_CM_EVENT_ROUTE_ERROR, "ROUTE_ERROR" },		\
		{ RDMA_CM_EVENT_CONNECT_REQUEST, "CONNECT_REQUEST" },	\
		{ RDMA_CM_EVENT_CONNECT_ERROR, "CONNECT_ERROR" },	\
		{ RDMA_CM_EVENT_UNREACHABLE, "UNREACHABLE" },		\
		{ RDMA_CM_EVENT_REJECTED, "REJECTED" },			\
		{ RDMA_CM_EVENT_ESTABLISHED, "ESTABLISHED" },		\
		{ RDMA_CM_EVENT_DISCONNECTED, "DISCONNECTED" },		\
		{ RDMA_CM_EVENT_DEVICE_REMOVAL, "DEVICE_REMOVAL" },	\
		{ RDMA_CM_EVENT_ADDR_CHANGE, "ADDR_CHANGE" },		\
		{ RDMA_CM_EVENT_TIMEWAIT_EXIT, "TIMEWAIT_EXIT" })

#define rpcr_show_wc_status(s)						\
	__print_symbolic(s,						\
		{ IB_WC_SUCCESS, "SUCCESS" },				\
		{ IB_WC_LOC_LEN_ERR, "LOC_LEN_ERR" },			\
		{ IB_WC_LOC_QP_OP_ERR, "LOC_QP_OP_ERR" },		\
		{ IB_WC_LOC_PROT_ERR, "LOC_PROT_ERR" },		\
		{ IB_WC_WR_FLUSH_ERR, "WR_FLUSH_ERR" },		\
		{ IB_WC_MW_BIND_ERR, "MW_BIND_ERR" },			\
		{ IB_WC_REM_INV_REQ_ERR, "REM_INV_REQ_ERR" },		\
		{ IB_WC_REM_ACCESS_ERR, "REM_ACCESS_ERR" },		\
		{ IB_WC_REM_OP_ERR, "REM_OP_ERR" },			\
		{ IB_WC_RETRY_EXC_ERR, "RETRY_EXC_ERR" },		\
		{ IB_WC_RNR_RETRY_EXC_ERR, "RNR_RETRY_EXC_ERR" },	\
		{ IB_WC_REM_ABORT_ERR, "REM_ABORT_ERR" },		\
		{ IB_WC_FATAL_ERR, "FATAL_ERR" },			\
		{ IB_WC_GENERAL_ERR, "GENERAL_ERR" })

/* chunks: bit 0 Read list, bit 1 Write list, bit 2 Reply chunk. In
 * version 2 the credit word holds what is granted and, above it, the
 * most there may be (draft §4.3.1.1); flags are rdma_flags there
 */
DECLARE_EVENT_CLASS(rpcr_msg_class,
		    TP_PROTO(const struct rpcr2_hdr *h, u32 len),
		    TP_ARGS(h, len),
		    TP_STRUCT__entry(__field(u32, xid)
				     __field(u32, vers)
				     __field(u32, proc)
				     __field(u32, credit)
				     __field(u32, credit_max)
				     __field(u32, flags)
				     __field(u32, len)
				     __field(u32, chunks)),
		    TP_fast_assign(__entry->xid = h->base.xid;
				   __entry->vers = h->base.vers;
				   __entry->proc = h->base.proc;
				   __entry->credit = rpcr_trace_credit(h);
				   __entry->credit_max =
					rpcr_trace_credit_max(h);
				   __entry->flags = h->flags;
				   __entry->len = len;
				   __entry->chunks = (h->base.nreads ? 1 : 0) |
					(h->base.nwrites ? 2 : 0) |
					(h->base.has_reply ? 4 : 0);),
		    TP_printk("v%u xid=0x%08x %s flags=0x%x credit=%u max=%u len=%u chunks=0x%x",
			      __entry->vers, __entry->xid,
			      rpcr_show_proc(__entry->proc), __entry->flags,
			      __entry->credit, __entry->credit_max,
			      __entry->len, __entry->chunks)
);

#define DEFINE_RPCR_MSG_EVENT(name)					\
	DEFINE_EVENT(rpcr_msg_class, name,				\
		     TP_PROTO(const struct rpcr2_hdr *h, u32 len),	\
		     TP_ARGS(h, len))

DEFINE_RPCR_MSG_EVENT(rpcr_call_send);
DEFINE_RPCR_MSG_EVENT(rpcr_reply_recv);
DEFINE_RPCR_MSG_EVENT(rpcr_call_recv);
DEFINE_RPCR_MSG_EVENT(rpcr_reply_send);

/* Draft §6.3.2.2: a message in @nmsgs Sends, RPCRDMA2_F_MORE on all but
 * the last: its XID, rdma_flags of the last, and the payload's bytes
 */
DECLARE_EVENT_CLASS(rpcr_more_class,
		    TP_PROTO(u32 xid, u32 flags, u32 nmsgs, u32 len),
		    TP_ARGS(xid, flags, nmsgs, len),
		    TP_STRUCT__entry(__field(u32, xid)
				     __field(u32, flags)
				     __field(u32, nmsgs)
				     __field(u32, len)),
		    TP_fast_assign(__entry->xid = xid;
				   __entry->flags = flags;
				   __entry->nmsgs = nmsgs;
				   __entry->len = len;),
		    TP_printk("xid=0x%08x flags=0x%x sends=%u len=%u",
			      __entry->xid, __entry->flags, __entry->nmsgs,
			      __entry->len)
);

#define DEFINE_RPCR_MORE_EVENT(name)					\
	DEFINE_EVENT(rpcr_more_class, name,				\
		     TP_PROTO(u32 xid, u32 flags, u32 nmsgs, u32 len),	\
		     TP_ARGS(xid, flags, nmsgs, len))

DEFINE_RPCR_MORE_EVENT(rpcr_msg_split);
DEFINE_RPCR_MORE_EVENT(rpcr_msg_joined);

TRACE_EVENT(rpcr_reply_drop,
	    TP_PROTO(u32 xid, u32 len, enum rpcr_drop why, int err),
	    TP_ARGS(xid, len, why, err),
	    TP_STRUCT__entry(__field(u32, xid)
			     __field(u32, len)
			     __field(unsigned int, why)
			     __field(int, err)),
	    TP_fast_assign(__entry->xid = xid;
			   __entry->len = len;
			   __entry->why = why;
			   __entry->err = err;),
	    TP_printk("xid=0x%08x len=%u: %s (%d)", __entry->xid, __entry->len,
		      rpcr_show_drop(__entry->why), __entry->err)
);

TRACE_DEFINE_ENUM(RPCR2_ERR_VERS);
TRACE_DEFINE_ENUM(RPCR2_ERR_BAD_XDR);
TRACE_DEFINE_ENUM(RPCR2_ERR_INVAL_HTYPE);
TRACE_DEFINE_ENUM(RPCR2_ERR_INVAL_FLAG);
TRACE_DEFINE_ENUM(RPCR2_ERR_READ_CHUNKS);
TRACE_DEFINE_ENUM(RPCR2_ERR_WRITE_CHUNKS);
TRACE_DEFINE_ENUM(RPCR2_ERR_SEGMENTS);
TRACE_DEFINE_ENUM(RPCR2_ERR_WRITE_RESOURCE);
TRACE_DEFINE_ENUM(RPCR2_ERR_REPLY_RESOURCE);
TRACE_DEFINE_ENUM(RPCR2_ERR_SYSTEM);

/* version 2's error codes (draft §6.4.3); version 1's two share theirs */
#define rpcr_show_err2(e)						\
	__print_symbolic(e, { RPCR2_ERR_VERS, "ERR_VERS" },		\
			    { RPCR2_ERR_BAD_XDR, "ERR_BAD_XDR" },	\
			    { RPCR2_ERR_INVAL_HTYPE, "ERR_INVAL_HTYPE" }, \
			    { RPCR2_ERR_INVAL_FLAG, "ERR_INVAL_FLAG" },	\
			    { RPCR2_ERR_READ_CHUNKS, "ERR_READ_CHUNKS" }, \
			    { RPCR2_ERR_WRITE_CHUNKS, "ERR_WRITE_CHUNKS" }, \
			    { RPCR2_ERR_SEGMENTS, "ERR_SEGMENTS" },	\
			    { RPCR2_ERR_WRITE_RESOURCE, "ERR_WRITE_RESOURCE" }, \
			    { RPCR2_ERR_REPLY_RESOURCE, "ERR_REPLY_RESOURCE" }, \
			    { RPCR2_ERR_SYSTEM, "ERR_SYSTEM" })

/* a call answered with an error it gets over by going again */
TRACE_EVENT(rpcr_call_retry,
	    TP_PROTO(u32 xid, u32 err, bool next),
	    TP_ARGS(xid, err, next),
	    TP_STRUCT__entry(__field(u32, xid)
			     __field(u32, err)
			     __field(bool, next)),
	    TP_fast_assign(__entry->xid = xid;
			   __entry->err = err;
			   __entry->next = next;),
	    TP_printk("xid=0x%08x %s: sent again %s", __entry->xid,
		      rpcr_show_err2(__entry->err),
		      __entry->next ? "on the next connection" :
				      "on this one")
);

TRACE_DEFINE_ENUM(RPCR_VERS_CONNECT);
TRACE_DEFINE_ENUM(RPCR_VERS_ERR_VERS);
TRACE_DEFINE_ENUM(RPCR_VERS_SILENT);
TRACE_DEFINE_ENUM(RPCR_VERS_FIRST);
TRACE_DEFINE_ENUM(RPCR_VERS_REFUSED);
TRACE_DEFINE_ENUM(RPCR_VERS_PINNED);

#define rpcr_show_vers_why(w)					\
	__print_symbolic(w, { RPCR_VERS_CONNECT, "connect" },	\
			    { RPCR_VERS_ERR_VERS, "ERR_VERS" },	\
			    { RPCR_VERS_SILENT, "no answer" },	\
			    { RPCR_VERS_FIRST, "first call" },	\
			    { RPCR_VERS_REFUSED, "other refused" },	\
			    { RPCR_VERS_PINNED, "pinned" })

/* the version of a connection, by its peer's address (draft §4.3.3) */
DECLARE_EVENT_CLASS(rpcr_vers_class,
		    TP_PROTO(const struct sockaddr *peer, u32 vers, u32 why),
		    TP_ARGS(peer, vers, why),
		    TP_STRUCT__entry(__array(u8, peer,
					     sizeof(struct sockaddr_in6))
				     __field(u32, vers)
				     __field(u32, why)),
		    TP_fast_assign(rpcr_trace_peer(__entry->peer, peer);
				   __entry->vers = vers;
				   __entry->why = why;),
		    TP_printk("peer=%pISpc v%u (%s)", __entry->peer,
			      __entry->vers, rpcr_show_vers_why(__entry->why))
);

#define DEFINE_RPCR_VERS_EVENT(name)					\
	DEFINE_EVENT(rpcr_vers_class, name,				\
		     TP_PROTO(const struct sockaddr *peer, u32 vers,	\
			      u32 why),					\
		     TP_ARGS(peer, vers, why))

DEFINE_RPCR_VERS_EVENT(rpcr_xprt_vers);
DEFINE_RPCR_VERS_EVENT(rpcr_svc_vers);

/* transport properties sent or taken, by the peer's address (§5.2) */
DECLARE_EVENT_CLASS(rpcr_connprop_class,
		    TP_PROTO(const struct sockaddr *peer,
			     const struct rpcr2_props *p),
		    TP_ARGS(peer, p),
		    TP_STRUCT__entry(__array(u8, peer,
					     sizeof(struct sockaddr_in6))
				     __field(u32, present)
				     __field(u32, sbsiz)
				     __field(u32, rbsiz)
				     __field(u32, rssiz)
				     __field(u32, rcsiz)
				     __field(u32, brs)
				     __field(u32, nunknown)
				     __field(u32, hostauth_len)
				     __field(u32, hostauth_shown)
				     __array(u8, hostauth,
					     RPCR_TRACE_HOSTAUTH)),
		    TP_fast_assign(rpcr_trace_peer(__entry->peer, peer);
				   __entry->present = p->present;
				   __entry->sbsiz = p->sbsiz;
				   __entry->rbsiz = p->rbsiz;
				   __entry->rssiz = p->rssiz;
				   __entry->rcsiz = p->rcsiz;
				   __entry->brs = p->brs;
				   __entry->nunknown = p->nunknown;
				   __entry->hostauth_len = p->hostauth_len;
				   __entry->hostauth_shown =
					rpcr_trace_hostauth(__entry->hostauth, p);),
		    TP_printk("peer=%pISpc props=0x%x sbsiz=%u rbsiz=%u rssiz=%u rcsiz=%u brs=%s unknown=%u hostauth=%u:%*phN",
			      __entry->peer, __entry->present, __entry->sbsiz,
			      __entry->rbsiz, __entry->rssiz, __entry->rcsiz,
			      __print_symbolic(__entry->brs,
					       { RPCR2_RVREQSUP_NONE, "none" },
					       { RPCR2_RVREQSUP_INLINE, "inline" },
					       { RPCR2_RVREQSUP_GENL, "general" }),
			      __entry->nunknown, __entry->hostauth_len,
			      (int)__entry->hostauth_shown, __entry->hostauth)
);

#define DEFINE_RPCR_CONNPROP_EVENT(name)				\
	DEFINE_EVENT(rpcr_connprop_class, name,				\
		     TP_PROTO(const struct sockaddr *peer,		\
			      const struct rpcr2_props *p),		\
		     TP_ARGS(peer, p))

DEFINE_RPCR_CONNPROP_EVENT(rpcr_connprop_send);
DEFINE_RPCR_CONNPROP_EVENT(rpcr_connprop_recv);

/* our properties could not be sent: the peer keeps the defaults */
TRACE_EVENT(rpcr_connprop_error,
	    TP_PROTO(const struct sockaddr *peer, int err),
	    TP_ARGS(peer, err),
	    TP_STRUCT__entry(__array(u8, peer, sizeof(struct sockaddr_in6))
			     __field(int, err)),
	    TP_fast_assign(rpcr_trace_peer(__entry->peer, peer);
			   __entry->err = err;),
	    TP_printk("peer=%pISpc err=%d", __entry->peer, __entry->err)
);

/* a credit refresh (draft §6.4.2) sent, as a probe of the connection,
 * with the Send's errno, or taken by a server's receive handler (0)
 */
DECLARE_EVENT_CLASS(rpcr_refresh_class,
		    TP_PROTO(const struct sockaddr *peer, u32 credit, int err),
		    TP_ARGS(peer, credit, err),
		    TP_STRUCT__entry(__array(u8, peer,
					     sizeof(struct sockaddr_in6))
				     __field(u32, credit)
				     __field(int, err)),
		    TP_fast_assign(rpcr_trace_peer(__entry->peer, peer);
				   __entry->credit = credit;
				   __entry->err = err;),
		    TP_printk("peer=%pISpc granted=%u max=%u err=%d",
			      __entry->peer, __entry->credit & 0xffff,
			      __entry->credit >> 16, __entry->err)
);

#define DEFINE_RPCR_REFRESH_EVENT(name)					\
	DEFINE_EVENT(rpcr_refresh_class, name,				\
		     TP_PROTO(const struct sockaddr *peer, u32 credit,	\
			      int err),					\
		     TP_ARGS(peer, credit, err))

DEFINE_RPCR_REFRESH_EVENT(rpcr_refresh_send);
DEFINE_RPCR_REFRESH_EVENT(rpcr_refresh_recv);

DECLARE_EVENT_CLASS(rpcr_bcall_class,
		    TP_PROTO(u32 xid, u32 len),
		    TP_ARGS(xid, len),
		    TP_STRUCT__entry(__field(u32, xid)
				     __field(u32, len)),
		    TP_fast_assign(__entry->xid = xid;
				   __entry->len = len;),
		    TP_printk("xid=0x%08x len=%u", __entry->xid, __entry->len)
);

#define DEFINE_RPCR_BCALL_EVENT(name)					\
	DEFINE_EVENT(rpcr_bcall_class, name,				\
		     TP_PROTO(u32 xid, u32 len),			\
		     TP_ARGS(xid, len))

DEFINE_RPCR_BCALL_EVENT(rpcr_bcall_recv);
DEFINE_RPCR_BCALL_EVENT(rpcr_bcall_reply);
DEFINE_RPCR_BCALL_EVENT(rpcr_bcall_send);
DEFINE_RPCR_BCALL_EVENT(rpcr_bcall_reply_recv);

DECLARE_EVENT_CLASS(rpcr_mr_class,
		    TP_PROTO(u32 handle, u32 length, u64 offset, int nents),
		    TP_ARGS(handle, length, offset, nents),
		    TP_STRUCT__entry(__field(u32, handle)
				     __field(u32, length)
				     __field(u64, offset)
				     __field(int, nents)),
		    TP_fast_assign(__entry->handle = handle;
				   __entry->length = length;
				   __entry->offset = offset;
				   __entry->nents = nents;),
		    TP_printk("handle=0x%08x length=%u offset=0x%llx nents=%d",
			      __entry->handle, __entry->length,
			      (unsigned long long)__entry->offset, __entry->nents)
);

#define DEFINE_RPCR_MR_EVENT(name)					\
	DEFINE_EVENT(rpcr_mr_class, name,				\
		     TP_PROTO(u32 handle, u32 length, u64 offset,	\
			      int nents),				\
		     TP_ARGS(handle, length, offset, nents))

DEFINE_RPCR_MR_EVENT(rpcr_mr_reg);
DEFINE_RPCR_MR_EVENT(rpcr_mr_inv);
DEFINE_RPCR_MR_EVENT(rpcr_mr_remote_inv);
DEFINE_RPCR_MR_EVENT(rpcr_mr_orphan);

TRACE_EVENT(rpcr_cm_event,
	    TP_PROTO(const struct rdma_cm_id *id, enum rdma_cm_event_type ev,
		     int status),
	    TP_ARGS(id, ev, status),
	    TP_STRUCT__entry(__field(const void *, id)
			     __field(unsigned int, ev)
			     __field(int, status)),
	    TP_fast_assign(__entry->id = id;
			   __entry->ev = ev;
			   __entry->status = status;),
	    TP_printk("id=%p %s status=%d", __entry->id,
		      rpcr_show_cm_event(__entry->ev), __entry->status)
);

TRACE_EVENT(rpcr_cm_peer,
	    TP_PROTO(const struct rdma_cm_id *id, bool priv, u32 send,
		     u32 recv, bool inv),
	    TP_ARGS(id, priv, send, recv, inv),
	    TP_STRUCT__entry(__field(const void *, id)
			     __field(bool, priv)
			     __field(u32, send)
			     __field(u32, recv)
			     __field(bool, inv)),
	    TP_fast_assign(__entry->id = id;
			   __entry->priv = priv;
			   __entry->send = send;
			   __entry->recv = recv;
			   __entry->inv = inv;),
	    TP_printk("id=%p private data %s: peer sends %u, receives %u%s",
		      __entry->id, __entry->priv ? "found" : "absent",
		      __entry->send, __entry->recv,
		      __entry->inv ? ", welcomes remote invalidation" : "")
);

DECLARE_EVENT_CLASS(rpcr_id_err_class,
		    TP_PROTO(const struct rdma_cm_id *id, int err),
		    TP_ARGS(id, err),
		    TP_STRUCT__entry(__field(const void *, id)
				     __field(int, err)),
		    TP_fast_assign(__entry->id = id;
				   __entry->err = err;),
		    TP_printk("id=%p err=%d", __entry->id, __entry->err)
);

#define DEFINE_RPCR_ID_ERR_EVENT(name)					\
	DEFINE_EVENT(rpcr_id_err_class, name,				\
		     TP_PROTO(const struct rdma_cm_id *id, int err),	\
		     TP_ARGS(id, err))

DEFINE_RPCR_ID_ERR_EVENT(rpcr_connect_error);
DEFINE_RPCR_ID_ERR_EVENT(rpcr_post_error);

TRACE_EVENT(rpcr_wc_error,
	    TP_PROTO(const struct ib_wc *wc),
	    TP_ARGS(wc),
	    TP_STRUCT__entry(__field(const void *, cqe)
			     __field(unsigned int, status)
			     __field(unsigned int, vendor_err)),
	    TP_fast_assign(__entry->cqe = wc->wr_cqe;
			   __entry->status = wc->status;
			   __entry->vendor_err = wc->vendor_err;),
	    TP_printk("cqe=%p %s (%u/0x%x)", __entry->cqe,
		      rpcr_show_wc_status(__entry->status),
		      __entry->status, __entry->vendor_err)
);

#endif /* RPCR_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rpcr_trace
#include <trace/define_trace.h>
