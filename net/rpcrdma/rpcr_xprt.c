// SPDX-License-Identifier: GPL-2.0
/* rpcr_xprt: the client transport class "rdma" (ident 256, netids rdma
 * and rdma6) that the NFS client and every other sunrpc user find by
 * name, and the rpc_xprt operations behind it: connection set-up and
 * teardown, credit-based congestion control, sending a call.
 *
 * Locking: the RPC layer calls ->send_request, ->connect and ->close
 * with XPRT_LOCKED held, so they never overlap. @ep_sem orders them
 * against the connect worker, which runs after ->connect returned.
 */
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>
#include <linux/sunrpc/xprtrdma.h>

#include "rpcr_clnt.h"
#include "rpcr_rpc.h"
#include "rpcr_sysctl.h"
#include "rpcr_trace.h"

#define RPCR_NETID_RDMA		"rdma"
#define RPCR_NETID_RDMA6	"rdma6"

/* receive buffers take the largest inline reply of the default
 * threshold at least: some servers assume it whatever we announce
 */
#define RPCR_RECV_MIN		RPCRDMA_DEF_INLINE

/* calls in flight per connection at most, whatever the sysctl says */
#define RPCR_MAX_SLOTS		256

#define RPCR_BIND_TO		(60U * HZ)
#define RPCR_REEST_INIT		(5U * HZ)
#define RPCR_REEST_MAX		(30U * HZ)
#define RPCR_IDLE_TO		(5U * 60 * HZ)

/* the largest payload: what one MR maps (rpcr_frwr.c) */
#define RPCR_MAX_PAYLOAD	SZ_1M

/* registrations a call may hold: a Read chunk, a Write or Reply chunk,
 * each of a few segments where memory is not contiguous
 */
#define RPCR_MRS_PER_CALL	4

/* no timeout of its own: the RPC layer's retries run on a new connection */
static const struct rpc_timeout rpcr_timeout = {
	.to_initval	= 60 * HZ,
	.to_maxval	= 60 * HZ,
};

/* the connection is gone: the RPC layer closes the transport */
/* Draft §4.3.3: a connection that ends, or a call that times out,
 * before the server's first answer to a call of version 2 says that
 * the server does not take version 2 as surely as an ERR_VERS would:
 * the next connection opens in version 1
 */
static void rpcr_vers_unanswered(struct rpcr_xprt *rx)
{
	struct rpc_xprt *xprt = &rx->xprt;

	if (READ_ONCE(rx->vers) != RPCR_VERSION_2 || READ_ONCE(rx->vers_done) ||
	    !xprt_connected(xprt))
		return;
	WRITE_ONCE(rx->vers_peer, RPCR_VERSION_1);
	trace_rpcr_xprt_vers((struct sockaddr *)&xprt->addr, RPCR_VERSION_1,
			     RPCR_VERS_SILENT);
}

static void rpcr_ep_down(void *owner)
{
	struct rpcr_xprt *rx = owner;

	rpcr_vers_unanswered(rx);
	xprt_force_disconnect(&rx->xprt);
}

static const struct rpcr_ep_ops rpcr_clnt_ep_ops = {
	.recv	= rpcr_reply_recv,
	.down	= rpcr_ep_down,
};

/* a new connection's bookkeeping: mountstats' counters, and the cookie
 * that tells a call sent before it from one sent on it
 */
static void rpcr_count_connect(struct rpc_xprt *xprt)
{
	unsigned long waited = jiffies - xprt->stat.connect_start;

	xprt->stat.connect_time += waited;
	xprt->stat.connect_count++;
	xprt->connect_cookie++;
}

static void rpcr_connect_worker(struct work_struct *work)
{
	struct rpcr_xprt *rx = container_of(work, struct rpcr_xprt,
					    connect_work.work);
	struct rpc_xprt *xprt = &rx->xprt;
	struct rpcr_ep_cfg cfg = {
		/* one more than the credits, as a reply is handled, and a
		 * new call may go out, before its receive is posted again;
		 * and one for each backward call
		 */
		.nrecv		= rx->max_reqs + 1 + RPCR_BC_SLOTS,
		.nsend		= rx->max_reqs * 2,
		/* a REG_MR and a LOCAL_INV outstanding per MR at most */
		.nsend_extra	= rx->max_reqs * RPCR_MRS_PER_CALL * 2,
		.recv_size	= max(rx->inline_read, RPCR_RECV_MIN),
		.send_size	= rx->inline_write,
	};
	struct rpcr_frwr *frwr = NULL;
	struct rpcr_ep *ep;
	u32 why;
	int rc;

	ep = rpcr_ep_connect(xprt->xprt_net, (struct sockaddr *)&xprt->addr,
			     &cfg, &rpcr_clnt_ep_ops, rx);
	rc = PTR_ERR_OR_ZERO(ep);
	if (!rc) {
		frwr = rpcr_frwr_create(ep, rx->max_reqs * RPCR_MRS_PER_CALL);
		rc = PTR_ERR_OR_ZERO(frwr);
		if (rc)
			rpcr_ep_destroy(ep);
	}
	rx->connect_error = rc;
	if (!rc) {
		/* before a message of the server's can find the connection,
		 * and a probe the new one (rpcr_probe(): none before its
		 * first answer)
		 */
		rpcr_props_reset(&rx->props);
		WRITE_ONCE(rx->vers_done, false);
		down_write(&rx->ep_sem);
		rx->ep = ep;
		rx->frwr = frwr;
		up_write(&rx->ep_sem);
		/* §3.3.1: one credit until the server grants more; what the
		 * last connection held for replies is free again
		 */
		spin_lock(&xprt->transport_lock);
		xprt->cong -= (unsigned long)rx->held << RPC_CWNDSHIFT;
		rx->held = 0;
		xprt->cwnd = RPC_CWNDSCALE;
		rx->probed = jiffies - HZ;
		spin_unlock(&xprt->transport_lock);
		WRITE_ONCE(rx->vers,
			   min(READ_ONCE(rx->vers_peer),
			       rpcr_version_knob(&rpcr_max_version)));
		why = RPCR_VERS_CONNECT;
		if (rx->vers > RPCR_VERSION_1 &&
		    rpcr_version1_peer((struct sockaddr *)&xprt->addr)) {
			WRITE_ONCE(rx->vers, RPCR_VERSION_1);
			why = RPCR_VERS_PINNED;
		}
		trace_rpcr_xprt_vers((struct sockaddr *)&xprt->addr, rx->vers,
				     why);
		rpcr_count_connect(xprt);
		xprt_set_connected(xprt);
		/* the waiting calls go (again) now */
		rc = -EAGAIN;
	}
	xprt_clear_connecting(xprt);
	xprt_unlock_connect(xprt, rx);
	xprt_wake_pending_tasks(xprt, rc);
}

static void rpcr_connect(struct rpc_xprt *xprt, struct rpc_task *task)
{
	struct rpcr_xprt *rx = rpcr_xprt(xprt);
	unsigned long delay = 0;

	/* the worker holds the transport's lock until it is done */
	if (WARN_ON_ONCE(!xprt_lock_connect(xprt, task, rx)))
		return;
	if (rx->connect_error) {
		delay = xprt_reconnect_delay(xprt);
		xprt_reconnect_backoff(xprt, RPCR_REEST_INIT);
	}
	queue_delayed_work(system_long_wq, &rx->connect_work, delay);
}

/* Take the connection away and end it. Its registrations go after its
 * QP is drained, so no reply handler runs, and before its PD; a call
 * that still lists some loses them (they died with the QP).
 */
static void rpcr_drop_ep(struct rpcr_xprt *rx)
{
	down_write(&rx->ep_sem);
	if (rx->ep) {
		rpcr_ep_drain(rx->ep);
		rpcr_frwr_destroy(rx->frwr);
		rpcr_ep_destroy(rx->ep);
		rx->ep = NULL;
		rx->frwr = NULL;
	}
	up_write(&rx->ep_sem);
}

/* Calls whose buffers fit RPCR_REQ_SPARE_SIZE bytes, most of them, take
 * one kept by the transport: as many as its slots are kept.
 */
static struct rpcr_req *rpcr_req_get(struct rpcr_xprt *rx, size_t size)
{
	struct rpcr_req *req = NULL;
	bool spare = size <= RPCR_REQ_SPARE_SIZE;

	if (spare) {
		spin_lock(&rx->spare_lock);
		req = list_first_entry_or_null(&rx->spare, struct rpcr_req,
					       mrs);
		if (req) {
			list_del(&req->mrs);
			rx->nspare--;
		}
		spin_unlock(&rx->spare_lock);
		size = RPCR_REQ_SPARE_SIZE;
	}
	if (!req)
		req = kmalloc(size, rpc_task_gfp_mask());
	if (req) {
		req->spare = spare;
		req->resend = false;
	}
	return req;
}

static void rpcr_req_put(struct rpcr_xprt *rx, struct rpcr_req *req)
{
	if (req->spare) {
		spin_lock(&rx->spare_lock);
		if (rx->nspare < rx->max_reqs) {
			list_add(&req->mrs, &rx->spare);
			rx->nspare++;
			req = NULL;
		}
		spin_unlock(&rx->spare_lock);
	}
	kfree(req);
}

static int rpcr_buf_alloc(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;
	size_t call = ALIGN(rqst->rq_callsize, 8);
	struct rpcr_req *req;

	req = rpcr_req_get(rpcr_xprt(rqst->rq_xprt),
			   struct_size(req, buf, call + rqst->rq_rcvsize));
	if (!req)
		return -ENOMEM;
	INIT_LIST_HEAD(&req->mrs);
	req->borrowed = 0;
	req->nwrite = 0;
	req->has_reply = false;
	rqst->rq_buffer = req->buf;
	rqst->rq_rbuffer = req->buf + call;
	return 0;
}

/* a call that ends without its reply (signal, timeout) may still have
 * chunks the server can reach: they end before the memory is freed
 */
static void rpcr_buf_free(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;
	struct rpcr_xprt *rx = rpcr_xprt(rqst->rq_xprt);
	struct rpcr_req *req = rpcr_req(rqst);

	down_read(&rx->ep_sem);
	rpcr_call_unregister(req, 0);
	up_read(&rx->ep_sem);
	rpcr_req_put(rx, req);
	rqst->rq_buffer = NULL;
	rqst->rq_rbuffer = NULL;
}

/* Context: under the transport's transport_lock (xprt_release()) */
static void rpcr_release_request(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;
	struct rpcr_xprt *rx = rpcr_xprt(rqst->rq_xprt);
	struct rpcr_req *req;

	/* the credits of a continued call's other Sends, then its own */
	if (rqst->rq_buffer) {
		req = rpcr_req(rqst);
		/* a continued reply it invited that did not come may still:
		 * the receives it takes stay counted, as long as the
		 * connection does
		 */
		if (req->reply_sends > 1 && !rqst->rq_reply_bytes_recvd) {
			rx->held += req->borrowed;
			req->borrowed = 0;
		}
		rpcr_call_credits_return(rx, req);
	}
	xprt_release_rqst_cong(task);
}

static void rpcr_close(struct rpc_xprt *xprt)
{
	rpcr_drop_ep(rpcr_xprt(xprt));
	xprt_disconnect_done(xprt);
}

static void rpcr_destroy(struct rpc_xprt *xprt)
{
	struct rpcr_xprt *rx = rpcr_xprt(xprt);

	struct rpcr_req *req, *tmp;

	rpcr_proc_del(&rx->proc);
	cancel_delayed_work_sync(&rx->connect_work);
	rpcr_drop_ep(rx);
	list_for_each_entry_safe(req, tmp, &rx->spare, mrs)
		kfree(req);
	rpcr_bc_destroy(xprt, 0);
	rpcr_rpc_free_addresses(xprt);
	xprt_free(xprt);
	module_put(THIS_MODULE);
}

static void rpcr_set_port_strings(struct rpc_xprt *xprt, u16 port)
{
	kfree(xprt->address_strings[RPC_DISPLAY_PORT]);
	xprt->address_strings[RPC_DISPLAY_PORT] =
		kasprintf(GFP_KERNEL, "%u", port);
	kfree(xprt->address_strings[RPC_DISPLAY_HEX_PORT]);
	xprt->address_strings[RPC_DISPLAY_HEX_PORT] =
		kasprintf(GFP_KERNEL, "%4hx", port);
}

static void rpcr_set_port(struct rpc_xprt *xprt, unsigned short port)
{
	rpc_set_port((struct sockaddr *)&xprt->addr, port);
	rpcr_set_port_strings(xprt, port);
}

static void rpcr_format_addresses(struct rpc_xprt *xprt)
{
	struct sockaddr *sap = (struct sockaddr *)&xprt->addr;
	const struct sockaddr_in6 *sin6 = (const void *)sap;
	const struct sockaddr_in *sin = (const void *)sap;
	char buf[INET6_ADDRSTRLEN + 8];

	if (sap->sa_family == AF_INET6) {
		xprt->address_strings[RPC_DISPLAY_HEX_ADDR] =
			kasprintf(GFP_KERNEL, "%pi6", &sin6->sin6_addr);
		xprt->address_strings[RPC_DISPLAY_NETID] = RPCR_NETID_RDMA6;
	} else {
		xprt->address_strings[RPC_DISPLAY_HEX_ADDR] =
			kasprintf(GFP_KERNEL, "%08x",
				  ntohl(sin->sin_addr.s_addr));
		xprt->address_strings[RPC_DISPLAY_NETID] = RPCR_NETID_RDMA;
	}
	rpc_ntop(sap, buf, sizeof(buf));
	xprt->address_strings[RPC_DISPLAY_ADDR] = kstrdup(buf, GFP_KERNEL);
	xprt->address_strings[RPC_DISPLAY_PROTO] = "rdma";
	rpcr_set_port_strings(xprt, rpc_get_port(sap));
}

static int rpcr_send_request(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct rpcr_xprt *rx = rpcr_xprt(xprt);
	struct rpcr_frwr_chain chain = { };
	struct rpcr_ep *ep = rx->ep;
	struct rpcr_sbuf *sb;
	int len, rc;
	u32 i;

	if (!xprt_connected(xprt) || !ep)
		return -ENOTCONN;
	/* a credit of the server's: never a Send past them (§3.3.1) */
	if (!xprt_request_get_cong(xprt, rqst))
		return -EBADSLT;
	/* A call already sent on this connection still holds the credit
	 * it took: sent again it would take a second one the server never
	 * granted. Its retransmission goes on a new connection.
	 */
	if (rqst->rq_connect_cookie == xprt->connect_cookie &&
	    !(rqst->rq_buffer && rpcr_req(rqst)->resend)) {
		rpcr_close(xprt);
		return -ENOTCONN;
	}
	sb = rpcr_ep_sbuf_get(ep);
	if (!sb) {
		rpcr_stat_add(rx, RPCR_ST_SBUF_EMPTY, 1);
		return -ENOBUFS;
	}
	rx->more.n = 0;
	if (!rqst->rq_buffer)
		len = rpcr_bc_marshal(rx, rqst, sb);
	else
		len = rpcr_call_marshal(rx, rqst, sb, &chain);
	if (len < 0) {
		rpcr_ep_sbuf_put(sb);
		/* short of registrations or pages: try again soon */
		return len == -EAGAIN ? -ENOBUFS : len;
	}
	rqst->rq_xtime = ktime_get();
	/* a continued call's Sends in order, right behind the first, with
	 * no probe between them
	 */
	spin_lock(&rx->post_lock);
	rc = rpcr_ep_send(ep, sb, len, 0, chain.first, chain.last);
	for (i = 0; i < rx->more.n; i++) {
		if (rc)
			rpcr_ep_sbuf_put(rx->more.sb[i]);
		else
			rc = rpcr_ep_send(ep, rx->more.sb[i], rx->more.len[i],
					  0, NULL, NULL);
	}
	spin_unlock(&rx->post_lock);
	rx->more.n = 0;
	if (rc) {
		rpcr_close(xprt);
		return -ENOTCONN;
	}
	if (rqst->rq_buffer)
		rpcr_req(rqst)->resend = false;
	return 0;
}

/* Draft §4.3.1.2: a credit refresh doubles as a keepalive. Sent to a
 * server that is gone, it fails once the RNIC's retries run out, and the
 * connection's failure path ends the connection (rpcr_ep_down()); a live
 * server's RNIC acknowledges it, and the server takes it in its receive
 * handler. One a second covers every call that timed out in it: the
 * server keeps one receive beyond its credits for it.
 * Return: whether the connection speaks version 2 and a probe went
 * (was posted), now or within the second.
 */
static bool rpcr_probe(struct rpcr_xprt *rx)
{
	u32 credit = rpcr_clnt_credit2(rx, 1);
	struct rpc_xprt *xprt = &rx->xprt;
	struct rpcr_sbuf *sb;
	struct rpcr_ep *ep;
	bool recent;
	int rc = 0;

	down_read(&rx->ep_sem);
	ep = rx->ep;
	if (!ep || READ_ONCE(rx->vers) != RPCR_VERSION_2 ||
	    !READ_ONCE(rx->vers_done)) {
		rc = -ENOTCONN;
		goto out;
	}
	spin_lock(&xprt->transport_lock);
	recent = time_before(jiffies, rx->probed + HZ);
	if (!recent)
		rx->probed = jiffies;
	spin_unlock(&xprt->transport_lock);
	if (recent)
		goto out;

	rc = -ENOBUFS;
	sb = rpcr_ep_sbuf_get(ep);
	if (!sb)
		goto traced;
	rc = rpcr2_refresh_encode(credit, sb->buf, ep->cfg.send_size);
	if (rc < 0) {
		rpcr_ep_sbuf_put(sb);
		goto traced;
	}
	/* never between the Sends of a continued call (§6.3.2.2) */
	spin_lock(&rx->post_lock);
	rc = rpcr_ep_send(ep, sb, rc, 0, NULL, NULL);
	spin_unlock(&rx->post_lock);
	if (!rc)
		atomic_long_inc(&rx->probes);
traced:
	trace_rpcr_refresh_send((struct sockaddr *)&xprt->addr, credit, rc);
out:
	up_read(&rx->ep_sem);
	return !rc;
}

/* A call timed out on a live connection. One that may not go again on
 * it (NFSv4's, RPC_TASK_NO_RETRANS_TIMEOUT) waits on for its reply while
 * a probe says the server is there, as over TCP with its keepalives, up
 * to its major timeout: unlike TCP, this transport may lose a message on
 * a connection that stays up (a receive handler short of memory drops
 * it), and only a new connection sends the call again. Any other call
 * is sent again at once, which the credits allow on a new connection
 * only: this one is ended, as it is when version 1 offers no probe.
 */
static void rpcr_timer(struct rpc_xprt *xprt, struct rpc_task *task)
{
	struct rpcr_xprt *rx = rpcr_xprt(xprt);

	rpcr_vers_unanswered(rx);
	if ((task->tk_flags & RPC_TASK_NO_RETRANS_TIMEOUT) &&
	    time_before(jiffies, task->tk_rqstp->rq_majortimeo) &&
	    rpcr_probe(rx))
		return;
	xprt_force_disconnect(xprt);
}

static void rpcr_inject_disconnect(struct rpc_xprt *xprt)
{
	struct rpcr_xprt *rx = rpcr_xprt(xprt);

	if (rx->ep)
		rpcr_ep_disconnect(rx->ep);
}

static void rpcr_set_connect_timeout(struct rpc_xprt *xprt,
				     unsigned long connect_timeout,
				     unsigned long reconnect_timeout)
{
	spin_lock(&xprt->transport_lock);
	if (connect_timeout < xprt->connect_timeout)
		xprt->connect_timeout = max(connect_timeout, RPCR_REEST_INIT);
	if (reconnect_timeout < xprt->max_reconnect_timeout)
		xprt->max_reconnect_timeout = max(reconnect_timeout,
						  RPCR_REEST_INIT);
	spin_unlock(&xprt->transport_lock);
}

/* the mountstats line: "xprt: rdma", the generic counters, then
 * RPCR_ST_* in order and a column kept at 0 (Linux prints the same)
 */
static void rpcr_print_stats(struct rpc_xprt *xprt, struct seq_file *seq)
{
	struct rpcr_xprt *rx = rpcr_xprt(xprt);
	long idle = 0;
	int i;

	if (xprt_connected(xprt))
		idle = (long)(jiffies - xprt->last_used) / HZ;
	seq_printf(seq, "\txprt:\trdma 0 %lu %lu %lu %ld %lu %lu %lu %llu %llu",
		   xprt->stat.bind_count, xprt->stat.connect_count,
		   xprt->stat.connect_time / HZ, idle, xprt->stat.sends,
		   xprt->stat.recvs, xprt->stat.bad_xids, xprt->stat.req_u,
		   xprt->stat.bklog_u);
	for (i = 0; i < RPCR_ST_NR; i++)
		seq_printf(seq, " %ld", atomic_long_read(&rx->stats[i]));
	seq_puts(seq, " 0\n");
}

static int rpcr_enable_swap(struct rpc_xprt *xprt)
{
	return 0;
}

static void rpcr_disable_swap(struct rpc_xprt *xprt)
{
}

static const struct rpc_xprt_ops rpcr_xprt_ops = {
	.reserve_xprt		= xprt_reserve_xprt_cong,
	.release_xprt		= xprt_release_xprt_cong,
	.alloc_slot		= xprt_alloc_slot,
	.free_slot		= xprt_free_slot,
	.release_request	= rpcr_release_request,
	.wait_for_reply_request	= xprt_wait_for_reply_request_def,
	.rpcbind		= rpcb_getport_async,
	.set_port		= rpcr_set_port,
	.connect		= rpcr_connect,
	.buf_alloc		= rpcr_buf_alloc,
	.buf_free		= rpcr_buf_free,
	.send_request		= rpcr_send_request,
	.timer			= rpcr_timer,
	.close			= rpcr_close,
	.destroy		= rpcr_destroy,
	.set_connect_timeout	= rpcr_set_connect_timeout,
	.print_stats		= rpcr_print_stats,
	.enable_swap		= rpcr_enable_swap,
	.disable_swap		= rpcr_disable_swap,
	.inject_disconnect	= rpcr_inject_disconnect,
	.bc_setup		= rpcr_bc_setup,
	.bc_maxpayload		= rpcr_bc_maxpayload,
	.bc_num_slots		= rpcr_bc_num_slots,
	.bc_free_rqst		= rpcr_bc_free_rqst,
	.bc_destroy		= rpcr_bc_destroy,
};

static struct xprt_class rpcr_xprt_class;

/* its line in /proc/net/rpcr: the server, whether connected, the version
 * its connection speaks (0 before the first) and the highest the server
 * takes, the replies that invalidated their call's memory (Send With
 * Invalidate) and those after which we did, the credit refreshes that
 * probed the connection, and the server's properties
 */
static void rpcr_xprt_proc_show(struct seq_file *m, struct rpcr_proc_entry *e)
{
	struct rpcr_xprt *rx = container_of(e, struct rpcr_xprt, proc);
	struct rpc_xprt *xprt = &rx->xprt;

	seq_printf(m, " peer=%pISpc %s vers=%u peer_vers=%u",
		   (struct sockaddr *)&xprt->addr,
		   xprt_connected(xprt) ? "connected" : "unconnected",
		   READ_ONCE(rx->vers), READ_ONCE(rx->vers_peer));
	seq_printf(m, " remote_inv=%ld local_inv=%ld probes=%ld",
		   atomic_long_read(&rx->remote_inv),
		   atomic_long_read(&rx->stats[RPCR_ST_LOCAL_INV]),
		   atomic_long_read(&rx->probes));
	rpcr_proc_show_props(m, &rx->props);
}

static struct rpc_xprt *rpcr_setup(struct xprt_create *args)
{
	struct rpcr_xprt *rx;
	struct rpc_xprt *xprt;
	u32 slots = min(READ_ONCE(rpcr_slot_table_entries), RPCR_MAX_SLOTS);

	if (args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EBADF);
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-EIO);
	xprt = xprt_alloc(args->net, sizeof(*rx), slots, slots);
	if (!xprt) {
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	rx = rpcr_xprt(xprt);
	init_rwsem(&rx->ep_sem);
	spin_lock_init(&rx->post_lock);
	spin_lock_init(&rx->spare_lock);
	rpcr_props_init(&rx->props);
	INIT_LIST_HEAD(&rx->spare);
	INIT_DELAYED_WORK(&rx->connect_work, rpcr_connect_worker);
	rx->max_reqs = slots;
	rx->inline_read = READ_ONCE(rpcr_max_inline_read);
	rx->inline_write = READ_ONCE(rpcr_max_inline_write);
	rx->vers_peer = RPCR_VERSION_2;

	xprt->timeout = &rpcr_timeout;
	xprt->connect_timeout = rpcr_timeout.to_initval;
	xprt->max_reconnect_timeout = RPCR_REEST_MAX;
	xprt->bind_timeout = RPCR_BIND_TO;
	xprt->reestablish_timeout = RPCR_REEST_INIT;
	xprt->idle_timeout = RPCR_IDLE_TO;
	xprt->resvport = 0;
	xprt->ops = &rpcr_xprt_ops;
	/* side protocols (rpcbind, NLM) read the address as TCP's */
	xprt->prot = IPPROTO_TCP;
	xprt->xprt_class = &rpcr_xprt_class;
	xprt->addrlen = args->addrlen;
	memcpy(&xprt->addr, args->dstaddr, args->addrlen);
	if (rpc_get_port((struct sockaddr *)&xprt->addr))
		xprt_set_bound(xprt);
	rpcr_format_addresses(xprt);
	xprt->max_payload = RPCR_MAX_PAYLOAD;
	rpcr_proc_add(&rx->proc, xprt->xprt_net, "client", rpcr_xprt_proc_show);
	return xprt;
}

static struct xprt_class rpcr_xprt_class = {
	.list	= LIST_HEAD_INIT(rpcr_xprt_class.list),
	.name	= "rdma",
	.owner	= THIS_MODULE,
	.ident	= XPRT_TRANSPORT_RDMA,
	.setup	= rpcr_setup,
	.netid	= { RPCR_NETID_RDMA, RPCR_NETID_RDMA6, "" },
};

/**
 * rpcr_clnt_init() - offer the client transport to sunrpc
 *
 * Return: 0, or -EEXIST when another module (Linux's rpcrdma) has the
 * RDMA transport already.
 */
int rpcr_clnt_init(void)
{
	return xprt_register_transport(&rpcr_xprt_class);
}

/**
 * rpcr_clnt_exit() - withdraw the client transport
 */
void rpcr_clnt_exit(void)
{
	xprt_unregister_transport(&rpcr_xprt_class);
}
