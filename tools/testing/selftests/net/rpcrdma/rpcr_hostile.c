// SPDX-License-Identifier: GPL-2.0
/*
 * rpcr_hostile: a hostile RPC-over-RDMA version 1 Requester (RFC 8166).
 *
 *   rpcr_hostile [-p PORT] [-t SECS] SERVER
 *
 * Each case connects to SERVER:PORT (20049) with rdma_cm, sends one
 * crafted transport header (short, unknown version or procedure, chunk
 * lists past the message's end or our limits, bogus handles, more Sends
 * than the credits granted) and waits, SECS seconds at most (10), for
 * what the server does: an RDMA_ERROR (ERR_VERS with its version range,
 * or ERR_CHUNK), a normal reply, the connection closed, or nothing.
 * A case passes when the outcome is one the RFC allows for that input;
 * a message the RFC says to discard silently must leave a connection
 * that still answers a NULL call. Then calls of version 2 (the draft of
 * November 2019) continued in several Sends (F_MORE): answered when
 * whole, ERR_INVAL_FLAG when a Send of another XID joins them, the
 * connection closed when they never end; and an RDMA2_CONNPROP with a
 * Host Auth Message longer than the server keeps, after which a call is
 * still answered. Output is TAP, one line a case.
 *
 *   rpcr_hostile --server [-p PORT] [-t SECS] CASE
 *
 * The other way round: a hostile Responder. It listens on PORT, accepts
 * every connection (a client's reconnects too) and answers every call
 * with the malformed reply CASE names (rpcr_hostile --server list),
 * for SECS seconds (60) or until SIGTERM or SIGINT, then prints what it
 * saw as TAP diagnostics. The client's script checks that its mount
 * fails, in bounded time and without a kernel warning.
 *
 * The constants and encodings are written out here from RFC 8166 and
 * RFC 8797, on purpose not taken from the module's rpcr_wire.h: a
 * misreading of the RFC there must not be repeated here.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

/* RFC 8166 §4.2 */
#define V1		1
#define P_MSG		0
#define P_NOMSG		1
#define P_MSGP		2
#define P_DONE		3
#define P_ERROR		4
#define E_VERS		1
#define E_CHUNK		2

/* RFC 8797 §3 */
#define CM_MAGIC	0xf6ab0e18u

/* ONC RPC (RFC 5531) and the programs called */
#define RPC_CALL	0
#define RPC_REPLY	1
#define NFS_PROG	100003
#define AUTH_NONE	0
#define AUTH_SYS	1

#define BUF_SIZE	4096
#define NBUF		256	/* receives posted, and send buffers */
#define OVERRUN_CALLS	160	/* Sends past a grant of 64 or fewer */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define SILENT_MS	3000	/* how long "discarded" must stay quiet */

enum outcome {
	O_NONE		= 1 << 0,	/* nothing within the time */
	O_CLOSED	= 1 << 1,	/* disconnected, or the QP failed */
	O_ERR_VERS	= 1 << 2,	/* RDMA_ERROR ERR_VERS, range with 1 */
	O_ERR_CHUNK	= 1 << 3,	/* RDMA_ERROR ERR_CHUNK */
	O_REPLY		= 1 << 4,	/* a normal reply to our call */
	O_SILENT	= 1 << 5,	/* nothing, and the link still answers */
	O_BAD		= 1 << 6,	/* an answer the RFC does not allow */
	O_ERR2		= 1 << 7,	/* version 2's RDMA2_ERROR (draft
					 * §6.4.3) with F_RESPONSE
					 */
};

struct conn {
	struct rdma_event_channel	*ech;
	struct rdma_cm_id		*id;
	struct ibv_pd			*pd;
	struct ibv_comp_channel		*cch;
	struct ibv_cq			*cq;
	struct ibv_mr			*rmr;
	struct ibv_mr			*smr;
	uint8_t				*rbuf;
	uint8_t				*sbuf;
	unsigned int			cq_events;
	unsigned int			nsend;	/* sends posted */
	bool				closed;
};

/* a message being built, and what came back */
struct msg {
	uint32_t	w[BUF_SIZE / 4];
	unsigned int	n;		/* words */
	unsigned int	len;		/* bytes to send (default n * 4) */
};

struct result {
	enum outcome	o;
	char		what[160];
	unsigned int	replies;
};

static const char *server;
static const char *port = "20049";
static int timeout_ms = 10000;
static uint32_t xid_next = 0x48570000;
static int ntest;
static int nfail;

static void put32(struct msg *m, uint32_t v)
{
	if (m->n < BUF_SIZE / 4)
		m->w[m->n++] = htonl(v);
}

static void put64(struct msg *m, uint64_t v)
{
	put32(m, v >> 32);
	put32(m, (uint32_t)v);
}

static void put_seg(struct msg *m, uint32_t handle, uint32_t len,
		    uint64_t off)
{
	put32(m, handle);
	put32(m, len);
	put64(m, off);
}

/* the transport header's fixed words */
static void put_fixed(struct msg *m, uint32_t xid, uint32_t vers,
		      uint32_t proc)
{
	put32(m, xid);
	put32(m, vers);
	put32(m, 32);
	put32(m, proc);
}

/* an RPC call header, AUTH_NONE or AUTH_SYS as root */
static void put_rpc_call(struct msg *m, uint32_t xid, uint32_t prog,
			 uint32_t vers, uint32_t proc, bool sys)
{
	put32(m, xid);
	put32(m, RPC_CALL);
	put32(m, 2);
	put32(m, prog);
	put32(m, vers);
	put32(m, proc);
	if (sys) {
		put32(m, AUTH_SYS);
		put32(m, 5 * 4 + 8);
		put32(m, 0);		/* stamp */
		put32(m, 7);		/* machine name "hostile", padded */
		put32(m, 0x686f7374);
		put32(m, 0x696c6500);
		put32(m, 0);		/* uid */
		put32(m, 0);		/* gid */
		put32(m, 0);		/* no other gids */
	} else {
		put32(m, AUTH_NONE);
		put32(m, 0);
	}
	put32(m, AUTH_NONE);
	put32(m, 0);
}

/* RDMA_MSG, no chunks, an NFSv3 NULL call */
static void build_null(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
	put_rpc_call(m, xid, NFS_PROG, 3, 0, false);
}

static void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* the next CM event, within @ms; NULL on timeout or error */
static struct rdma_cm_event *cm_event(struct conn *c, int ms)
{
	struct pollfd pfd = { .fd = c->ech->fd, .events = POLLIN };
	struct rdma_cm_event *ev;

	if (poll(&pfd, 1, ms) <= 0)
		return NULL;
	if (rdma_get_cm_event(c->ech, &ev))
		return NULL;
	return ev;
}

/* wait for CM event @want; other events fail it */
static int cm_wait(struct conn *c, enum rdma_cm_event_type want,
		   const char *step)
{
	struct rdma_cm_event *ev = cm_event(c, timeout_ms);
	enum rdma_cm_event_type got;
	int status;

	if (!ev) {
		diag("%s: no CM event within %d ms", step, timeout_ms);
		return -1;
	}
	got = ev->event;
	status = ev->status;
	rdma_ack_cm_event(ev);
	if (got != want) {
		diag("%s: %s (status %d)", step, rdma_event_str(got), status);
		return -1;
	}
	return 0;
}

static void conn_free(struct conn *c)
{
	if (c->id && !c->closed)
		rdma_disconnect(c->id);
	if (c->id && c->id->qp)
		rdma_destroy_qp(c->id);
	if (c->rmr)
		ibv_dereg_mr(c->rmr);
	if (c->smr)
		ibv_dereg_mr(c->smr);
	if (c->cq) {
		ibv_ack_cq_events(c->cq, c->cq_events);
		ibv_destroy_cq(c->cq);
	}
	if (c->cch)
		ibv_destroy_comp_channel(c->cch);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	if (c->id)
		rdma_destroy_id(c->id);
	if (c->ech)
		rdma_destroy_event_channel(c->ech);
	free(c->rbuf);
	free(c->sbuf);
	memset(c, 0, sizeof(*c));
}

static int post_recv(struct conn *c, unsigned int i)
{
	struct ibv_sge sge = {
		.addr	= (uintptr_t)(c->rbuf + i * BUF_SIZE),
		.length	= BUF_SIZE,
		.lkey	= c->rmr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(c->id->qp, &wr, &bad);
}

/* the connection's resources once the route is known */
static int conn_setup(struct conn *c)
{
	struct ibv_qp_init_attr qa = {
		.cap = {
			.max_send_wr	= NBUF,
			.max_recv_wr	= NBUF,
			.max_send_sge	= 1,
			.max_recv_sge	= 1,
		},
		.qp_type	= IBV_QPT_RC,
		.sq_sig_all	= 1,
	};
	unsigned int i;

	c->pd = ibv_alloc_pd(c->id->verbs);
	c->cch = c->pd ? ibv_create_comp_channel(c->id->verbs) : NULL;
	c->cq = c->cch ? ibv_create_cq(c->id->verbs, 2 * NBUF, NULL, c->cch,
				       0) : NULL;
	if (!c->cq || ibv_req_notify_cq(c->cq, 0))
		return -1;
	if (fcntl(c->cch->fd, F_SETFL, O_NONBLOCK))
		return -1;
	qa.send_cq = c->cq;
	qa.recv_cq = c->cq;
	if (rdma_create_qp(c->id, c->pd, &qa))
		return -1;
	c->rbuf = calloc(NBUF, BUF_SIZE);
	c->sbuf = calloc(NBUF, BUF_SIZE);
	if (!c->rbuf || !c->sbuf)
		return -1;
	c->rmr = ibv_reg_mr(c->pd, c->rbuf, NBUF * BUF_SIZE,
			    IBV_ACCESS_LOCAL_WRITE);
	c->smr = ibv_reg_mr(c->pd, c->sbuf, NBUF * BUF_SIZE, 0);
	if (!c->rmr || !c->smr)
		return -1;
	for (i = 0; i < NBUF; i++)
		if (post_recv(c, i))
			return -1;
	return 0;
}

/* connect; @recv_kib > 0: RFC 8797 private data with that receive size */
static int conn_open(struct conn *c, unsigned int recv_kib)
{
	struct rdma_conn_param cp = {
		.responder_resources	= 1,
		.initiator_depth	= 1,
		.retry_count		= 7,
		.rnr_retry_count	= 7,
	};
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai;
	uint8_t priv[8];
	uint32_t magic = htonl(CM_MAGIC);
	int rc;

	memset(c, 0, sizeof(*c));
	rc = getaddrinfo(server, port, &hints, &ai);
	if (rc) {
		diag("%s: %s", server, gai_strerror(rc));
		return -1;
	}
	c->ech = rdma_create_event_channel();
	if (!c->ech || rdma_create_id(c->ech, &c->id, NULL, RDMA_PS_TCP)) {
		freeaddrinfo(ai);
		diag("rdma_create_id: %s", strerror(errno));
		return -1;
	}
	rc = rdma_resolve_addr(c->id, NULL, ai->ai_addr, 2000);
	freeaddrinfo(ai);
	if (rc || cm_wait(c, RDMA_CM_EVENT_ADDR_RESOLVED, "resolve address"))
		return -1;
	if (rdma_resolve_route(c->id, 2000) ||
	    cm_wait(c, RDMA_CM_EVENT_ROUTE_RESOLVED, "resolve route"))
		return -1;
	if (conn_setup(c)) {
		diag("connection resources: %s", strerror(errno));
		return -1;
	}
	if (recv_kib) {
		memcpy(priv, &magic, 4);
		priv[4] = 1;			/* version */
		priv[5] = 0;			/* no remote invalidation */
		priv[6] = BUF_SIZE / 1024 - 1;	/* our largest Send */
		priv[7] = recv_kib - 1;		/* our receive buffers */
		cp.private_data = priv;
		cp.private_data_len = sizeof(priv);
	}
	if (rdma_connect(c->id, &cp) ||
	    cm_wait(c, RDMA_CM_EVENT_ESTABLISHED, "connect"))
		return -1;
	return 0;
}

static int post_send(struct conn *c, const struct msg *m)
{
	unsigned int slot = c->nsend++ % NBUF;
	uint8_t *p = c->sbuf + slot * BUF_SIZE;
	unsigned int len = m->len ? m->len : m->n * 4;
	struct ibv_sge sge = {
		.addr	= (uintptr_t)p,
		.length	= len,
		.lkey	= c->smr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id		= NBUF + slot,
		.sg_list	= &sge,
		.num_sge	= 1,
		.opcode		= IBV_WR_SEND,
	};
	struct ibv_send_wr *bad;

	memcpy(p, m->w, len);
	return ibv_post_send(c->id->qp, &wr, &bad);
}

/*
 * Wait up to @ms for a received message (copied to @in: 1) or the
 * connection's end (-1, c->closed). 0: nothing came.
 */
static int wait_recv(struct conn *c, struct msg *in, int ms)
{
	long end = now_ms() + ms;
	struct pollfd pfd[2] = {
		{ .fd = c->cch->fd, .events = POLLIN },
		{ .fd = c->ech->fd, .events = POLLIN },
	};
	struct rdma_cm_event *ev;
	struct ibv_wc wc;
	struct ibv_cq *cq;
	void *ctx;
	int left;

	for (;;) {
		while (ibv_poll_cq(c->cq, 1, &wc) == 1) {
			if (wc.status != IBV_WC_SUCCESS) {
				if (!c->closed)
					diag("work request %s: %s",
					     wc.wr_id >= NBUF ? "send" : "recv",
					     ibv_wc_status_str(wc.status));
				c->closed = true;
				return -1;
			}
			if (wc.wr_id >= NBUF)
				continue;
			memset(in, 0, sizeof(*in));
			memcpy(in->w, c->rbuf + wc.wr_id * BUF_SIZE,
			       wc.byte_len);
			in->len = wc.byte_len;
			in->n = wc.byte_len / 4;
			post_recv(c, wc.wr_id);
			return 1;
		}
		left = (int)(end - now_ms());
		if (left <= 0)
			return 0;
		if (poll(pfd, 2, left) <= 0)
			continue;
		if (pfd[0].revents &&
		    !ibv_get_cq_event(c->cch, &cq, &ctx)) {
			c->cq_events++;
			ibv_req_notify_cq(c->cq, 0);
		}
		if (pfd[1].revents && !rdma_get_cm_event(c->ech, &ev)) {
			enum rdma_cm_event_type t = ev->event;

			rdma_ack_cm_event(ev);
			if (t == RDMA_CM_EVENT_DISCONNECTED ||
			    t == RDMA_CM_EVENT_DEVICE_REMOVAL ||
			    t == RDMA_CM_EVENT_TIMEWAIT_EXIT) {
				c->closed = true;
				return -1;
			}
		}
	}
}

/*
 * What a received message is: the RDMA_ERROR kinds, a normal RPC reply
 * accepted with SUCCESS for @xid, or something else (O_BAD). @r->what
 * says which.
 */
static enum outcome classify(const struct msg *in, uint32_t xid,
			     struct result *r)
{
	const uint32_t *w = in->w;
	unsigned int n = in->len / 4, i = 4, list, cnt;
	uint32_t rx;

	if (n < 4) {
		snprintf(r->what, sizeof(r->what), "a %u-byte message",
			 in->len);
		return O_BAD;
	}
	rx = ntohl(w[0]);
	/* a server of version 2 answers a bad version 2 header in kind */
	if (ntohl(w[1]) == 2 && n >= 6 && ntohl(w[3]) == P_ERROR) {
		snprintf(r->what, sizeof(r->what),
			 "RDMA2_ERROR %u flags %#x xid %#x", ntohl(w[5]),
			 ntohl(w[4]), rx);
		return ntohl(w[4]) == 1 && rx == xid ? O_ERR2 : O_BAD;
	}
	if (ntohl(w[1]) != V1) {
		snprintf(r->what, sizeof(r->what), "a reply of version %u",
			 ntohl(w[1]));
		return O_BAD;
	}
	if (ntohl(w[3]) == P_ERROR && n >= 5) {
		uint32_t err = ntohl(w[4]);

		if (err == E_VERS && n >= 7) {
			uint32_t lo = ntohl(w[5]), hi = ntohl(w[6]);

			snprintf(r->what, sizeof(r->what),
				 "RDMA_ERROR ERR_VERS low %u high %u xid %#x",
				 lo, hi, rx);
			return lo <= V1 && V1 <= hi && rx == xid ?
			       O_ERR_VERS : O_BAD;
		}
		snprintf(r->what, sizeof(r->what), "RDMA_ERROR %u xid %#x",
			 err, rx);
		return err == E_CHUNK && rx == xid ? O_ERR_CHUNK : O_BAD;
	}
	if (ntohl(w[3]) != P_MSG && ntohl(w[3]) != P_NOMSG) {
		snprintf(r->what, sizeof(r->what), "a reply of proc %u",
			 ntohl(w[3]));
		return O_BAD;
	}
	/* read list (none in a reply), write list, reply chunk */
	for (list = 0; list < 3 && i < n; list++) {
		while (i < n && ntohl(w[i++])) {
			if (list == 0)
				i += 5;
			else if (i < n)
				i += 1 + 4 * ntohl(w[i]);
			if (list == 2)
				break;
		}
	}
	if (ntohl(w[3]) == P_NOMSG) {
		snprintf(r->what, sizeof(r->what),
			 "a reply in the Reply chunk (RDMA_NOMSG) xid %#x", rx);
		return rx == xid ? O_REPLY : O_BAD;
	}
	/* xid, REPLY, MSG_ACCEPTED, verifier, accept_stat */
	if (i + 6 > n || ntohl(w[i]) != xid || ntohl(w[i + 1]) != RPC_REPLY ||
	    ntohl(w[i + 2]) != 0) {
		snprintf(r->what, sizeof(r->what),
			 "a %u-byte reply, not an accepted RPC reply to %#x",
			 in->len, xid);
		return O_BAD;
	}
	cnt = (ntohl(w[i + 4]) + 3) / 4;
	i += 5 + cnt;
	if (i >= n) {
		snprintf(r->what, sizeof(r->what), "a truncated RPC reply");
		return O_BAD;
	}
	snprintf(r->what, sizeof(r->what),
		 "an RPC reply, accept_stat %u, %u bytes, xid %#x",
		 ntohl(w[i]), in->len, rx);
	return rx == xid && ntohl(w[i]) == 0 ? O_REPLY : O_BAD;
}

/* a NULL call on @c answered, within the time */
static bool null_answered(struct conn *c, struct result *r)
{
	struct msg m = { 0 }, in;
	uint32_t xid = xid_next++;
	int i;

	build_null(&m, xid);
	if (post_send(c, &m))
		return false;
	/* a few stray messages may come before */
	for (i = 0; i < 16; i++) {
		if (wait_recv(c, &in, timeout_ms) <= 0)
			return false;
		if (classify(&in, xid, r) == O_REPLY)
			return true;
	}
	return false;
}

/* send @m on @c, the outcome in @r */
static void outcome(struct conn *c, const struct msg *m, uint32_t xid,
		    struct result *r)
{
	struct msg in;
	int rc;

	if (post_send(c, m)) {
		r->o = O_CLOSED;
		snprintf(r->what, sizeof(r->what), "ibv_post_send failed");
		return;
	}
	rc = wait_recv(c, &in, SILENT_MS);
	if (!rc) {
		/* quiet so far: discarded, or still at work */
		if (null_answered(c, r)) {
			r->o = O_SILENT;
			snprintf(r->what, sizeof(r->what),
				 "no answer; a NULL call afterwards is answered");
			return;
		}
		if (c->closed) {
			r->o = O_CLOSED;
			snprintf(r->what, sizeof(r->what),
				 "connection closed");
			return;
		}
		r->o = O_NONE;
		snprintf(r->what, sizeof(r->what),
			 "no answer and no close within %d ms, the NULL call after it unanswered",
			 SILENT_MS + timeout_ms);
		return;
	}
	if (rc < 0) {
		r->o = O_CLOSED;
		snprintf(r->what, sizeof(r->what), "connection closed");
		return;
	}
	r->o = classify(&in, xid, r);
}

/* ------------------------------------------------------------- cases */

struct tcase {
	const char	*desc;
	void		(*build)(struct msg *m, uint32_t xid);
	unsigned int	want;
	unsigned int	recv_kib;	/* RFC 8797 receive size, 0: none */
	const char	*todo;		/* a known bug of ours: TAP # TODO */
};

static void b_short4(struct msg *m, uint32_t xid)
{
	put32(m, xid);
}

static void b_short15(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	m->len = 15;
}

/* the fixed words and two of the three list words: 24 < 28 bytes */
static void b_short24(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	put32(m, 0);
	put32(m, 0);
}

static void b_vers(struct msg *m, uint32_t xid, uint32_t vers)
{
	put_fixed(m, xid, vers, P_MSG);
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
	put_rpc_call(m, xid, NFS_PROG, 3, 0, false);
}

static void b_vers0(struct msg *m, uint32_t xid)
{
	b_vers(m, xid, 0);
}

static void b_vers2(struct msg *m, uint32_t xid)
{
	b_vers(m, xid, 2);
}

static void b_versmax(struct msg *m, uint32_t xid)
{
	b_vers(m, xid, 0xffffffff);
}

static void b_proc(struct msg *m, uint32_t xid, uint32_t proc)
{
	put_fixed(m, xid, V1, proc);
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
	put_rpc_call(m, xid, NFS_PROG, 3, 0, false);
}

static void b_proc3(struct msg *m, uint32_t xid)
{
	b_proc(m, xid, P_DONE);
}

static void b_proc4(struct msg *m, uint32_t xid)
{
	b_proc(m, xid, P_ERROR);
}

static void b_proc5(struct msg *m, uint32_t xid)
{
	b_proc(m, xid, 5);
}

static void b_procmax(struct msg *m, uint32_t xid)
{
	b_proc(m, xid, 0xffffffff);
}

/* RDMA_MSGP with its alignment words and then nothing */
static void b_msgp(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSGP);
	put32(m, 4);
	put32(m, 64);
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
	put_rpc_call(m, xid, NFS_PROG, 3, 0, false);
}

/* read list entries, each "present", until the message just ends */
static void b_read_endless(struct msg *m, uint32_t xid)
{
	int i;

	put_fixed(m, xid, V1, P_MSG);
	for (i = 0; i < 3; i++) {
		put32(m, 1);
		put32(m, 0);
		put_seg(m, 0x1000 + i, 4096, 0);
	}
	put32(m, 1);
	put32(m, 0);		/* cut inside an entry */
}

/* 200 read list entries: past any implementation's limit */
static void b_read_many(struct msg *m, uint32_t xid)
{
	int i;

	put_fixed(m, xid, V1, P_MSG);
	for (i = 0; i < 200; i++) {
		put32(m, 1);
		put32(m, 40);
		put_seg(m, 0x1000 + i, 4096, 0);
	}
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
	put_rpc_call(m, xid, NFS_PROG, 3, 0, false);
}

/* a discriminator of 2: not XDR optional data */
static void b_read_disc2(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	put32(m, 2);
	put32(m, 0);
	put32(m, 0);
	put_rpc_call(m, xid, NFS_PROG, 3, 0, false);
}

static void b_write_count_max(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	put32(m, 0);
	put32(m, 1);
	put32(m, 0x7fffffff);
	put_seg(m, 0x2000, 4096, 0);
	put32(m, 0);
	put32(m, 0);
	put_rpc_call(m, xid, NFS_PROG, 3, 0, false);
}

/* a count of 4, and the message ends after 2 segments */
static void b_write_count_past(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	put32(m, 0);
	put32(m, 1);
	put32(m, 4);
	put_seg(m, 0x2000, 4096, 0);
	put_seg(m, 0x2001, 4096, 0);
}

/* one Write chunk of 200 whole segments, then a valid rest */
static void b_write_segs_many(struct msg *m, uint32_t xid)
{
	int i;

	put_fixed(m, xid, V1, P_MSG);
	put32(m, 0);
	put32(m, 1);
	put32(m, 200);
	for (i = 0; i < 200; i++)
		put_seg(m, 0x2000 + i, 4096, 0);
	put32(m, 0);
	put32(m, 0);
	put_rpc_call(m, xid, NFS_PROG, 3, 0, false);
}

/* 100 Write chunks of one segment each */
static void b_write_chunks_many(struct msg *m, uint32_t xid)
{
	int i;

	put_fixed(m, xid, V1, P_MSG);
	put32(m, 0);
	for (i = 0; i < 100; i++) {
		put32(m, 1);
		put32(m, 1);
		put_seg(m, 0x2000 + i, 4096, 0);
	}
	put32(m, 0);
	put32(m, 0);
	put_rpc_call(m, xid, NFS_PROG, 3, 0, false);
}

/* a Reply chunk whose one segment claims 4 GiB - 1 (unregistered) */
static void b_reply_len_max(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	put32(m, 0);
	put32(m, 0);
	put32(m, 1);
	put32(m, 1);
	put_seg(m, 0x3000, 0xffffffff, 0xfffffffffffff000ull);
	put_rpc_call(m, xid, NFS_PROG, 3, 0, false);
}

/* Reply chunk segment count 0xffffffff */
static void b_reply_count_max(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	put32(m, 0);
	put32(m, 0);
	put32(m, 1);
	put32(m, 0xffffffff);
	put_seg(m, 0x3000, 4096, 0);
	put_rpc_call(m, xid, NFS_PROG, 3, 0, false);
}

/*
 * An NFSv4.0 COMPOUND (PUTROOTFH, then GETATTR 44 times: type, change,
 * size, fsid, fileid and the supported attributes, 3 to 4 KiB of
 * results) whose reply is longer than the 1 KiB the connection's
 * private data allows inline: the server must RDMA Write it into the
 * Reply chunk, whose handle is not registered.
 */
static void b_reply_bogus_used(struct msg *m, uint32_t xid)
{
	int i;

	put_fixed(m, xid, V1, P_MSG);
	put32(m, 0);
	put32(m, 0);
	put32(m, 1);
	put32(m, 1);
	put_seg(m, 0x3bad, 65536, 0x10000);
	put_rpc_call(m, xid, NFS_PROG, 4, 1, true);
	put32(m, 0);		/* tag */
	put32(m, 0);		/* minorversion */
	put32(m, 45);
	put32(m, 24);		/* PUTROOTFH */
	for (i = 0; i < 44; i++) {
		put32(m, 9);	/* GETATTR */
		put32(m, 1);
		put32(m, 1 << 0 | 1 << 1 | 1 << 3 | 1 << 4 | 1 << 8 | 1 << 20);
	}
}

/* a NULL call with a Read chunk after it: bogus handle, 1 MiB */
static void b_read_bogus_null(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	put32(m, 1);
	put32(m, 40);
	put_seg(m, 0xbad0, 1 << 20, 0x7f0000000000ull);
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
	put_rpc_call(m, xid, NFS_PROG, 3, 0, false);
}

/*
 * An NFSv3 WRITE of 64 KiB (a made-up file handle: the transport pulls
 * the data before NFS looks at it) whose data is in a Read chunk with
 * an unregistered handle
 */
static void b_read_bogus_write(struct msg *m, uint32_t xid)
{
	unsigned int pos;
	int i;

	put_fixed(m, xid, V1, P_MSG);
	put32(m, 1);
	put32(m, 0);		/* position, set below */
	put_seg(m, 0xbad1, 65536, 0x7f0000000000ull);
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
	pos = m->n;
	put_rpc_call(m, xid, NFS_PROG, 3, 7, true);
	put32(m, 32);		/* nfs_fh3 */
	for (i = 0; i < 8; i++)
		put32(m, 0x01000000 + i);
	put64(m, 0);		/* offset */
	put32(m, 65536);	/* count */
	put32(m, 2);		/* FILE_SYNC */
	put32(m, 65536);	/* data: its length, the bytes in the chunk */
	m->w[5] = htonl((m->n - pos) * 4);
}

/* the same Read chunk, 4 GiB - 1 long */
static void b_read_bogus_huge(struct msg *m, uint32_t xid)
{
	b_read_bogus_write(m, xid);
	m->w[7] = htonl(0xffffffff);
}

/* RDMA_NOMSG with nothing at all in it */
static void b_nomsg_empty(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_NOMSG);
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
}

/* a position that is not a multiple of 4, past the inline part */
static void b_read_pos_past(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	put32(m, 1);
	put32(m, 0xfffffffd);
	put_seg(m, 0xbad2, 4096, 0);
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
	put_rpc_call(m, xid, NFS_PROG, 3, 0, false);
}

#define ANSWER_OR_CLOSE	(O_ERR_CHUNK | O_CLOSED)

static const struct tcase cases[] = {
	{ .desc = "4-byte message: discarded (RFC 8166 4.5) or closed",
	  .build = b_short4, .want = O_SILENT | O_CLOSED },
	{ .desc = "15-byte message: discarded or closed",
	  .build = b_short15, .want = O_SILENT | O_CLOSED },
	{ .desc = "24-byte message (under the 28 of a header): discarded or closed",
	  .build = b_short24, .want = O_SILENT | O_CLOSED },
	{ .desc = "vers 2 with a version 1 body: RDMA2_ERROR, or ERR_VERS with a range holding 1",
	  .build = b_vers2, .want = O_ERR2 | O_ERR_VERS | O_CLOSED },
	{ .desc = "vers 0xffffffff: ERR_VERS",
	  .build = b_versmax, .want = O_ERR_VERS | O_CLOSED },
	{ .desc = "vers 0: ERR_VERS",
	  .build = b_vers0, .want = O_ERR_VERS | O_CLOSED },
	{ .desc = "proc 5: ERR_CHUNK",
	  .build = b_proc5, .want = ANSWER_OR_CLOSE },
	{ .desc = "proc 0xffffffff: ERR_CHUNK",
	  .build = b_procmax, .want = ANSWER_OR_CLOSE },
	{ .desc = "proc RDMA_DONE from a Requester: ERR_CHUNK",
	  .build = b_proc3, .want = ANSWER_OR_CLOSE },
	{ .desc = "proc RDMA_ERROR from a Requester: ERR_CHUNK",
	  .build = b_proc4, .want = ANSWER_OR_CLOSE },
	{ .desc = "proc RDMA_MSGP: ERR_CHUNK",
	  .build = b_msgp, .want = ANSWER_OR_CLOSE },
	{ .desc = "RDMA_NOMSG with no chunks: ERR_CHUNK",
	  .build = b_nomsg_empty, .want = ANSWER_OR_CLOSE },
	{ .desc = "read list running past the message's end: ERR_CHUNK",
	  .build = b_read_endless, .want = ANSWER_OR_CLOSE },
	{ .desc = "read list of 200 entries: ERR_CHUNK",
	  .build = b_read_many, .want = ANSWER_OR_CLOSE },
	{ .desc = "read list discriminator 2: ERR_CHUNK",
	  .build = b_read_disc2, .want = ANSWER_OR_CLOSE },
	{ .desc = "read chunk position 0xfffffffd: ERR_CHUNK",
	  .build = b_read_pos_past, .want = ANSWER_OR_CLOSE },
	{ .desc = "write chunk of 0x7fffffff segments: ERR_CHUNK",
	  .build = b_write_count_max, .want = ANSWER_OR_CLOSE },
	{ .desc = "write chunk count past the message's end: ERR_CHUNK",
	  .build = b_write_count_past, .want = ANSWER_OR_CLOSE },
	{ .desc = "write chunk of 200 segments: ERR_CHUNK",
	  .build = b_write_segs_many, .want = ANSWER_OR_CLOSE },
	{ .desc = "write list of 100 chunks: ERR_CHUNK",
	  .build = b_write_chunks_many, .want = ANSWER_OR_CLOSE },
	{ .desc = "reply chunk of 0xffffffff segments: ERR_CHUNK",
	  .build = b_reply_count_max, .want = ANSWER_OR_CLOSE },
	{ .desc = "reply chunk segment length 0xffffffff, NULL call: reply, ERR_CHUNK or close",
	  .build = b_reply_len_max, .want = O_REPLY | ANSWER_OR_CLOSE },
	{ .desc = "reply chunk with a bogus handle, reply over 1 KiB: closed or ERR_CHUNK",
	  .build = b_reply_bogus_used, .want = ANSWER_OR_CLOSE, .recv_kib = 1 },
	{ .desc = "read chunk with a bogus handle, 1 MiB, in a NULL call: closed or ERR_CHUNK",
	  .build = b_read_bogus_null, .want = ANSWER_OR_CLOSE },
	{ .desc = "read chunk with a bogus handle in an NFSv3 WRITE: closed or ERR_CHUNK",
	  .build = b_read_bogus_write, .want = ANSWER_OR_CLOSE },
	{ .desc = "read chunk of 0xffffffff bytes in an NFSv3 WRITE: ERR_CHUNK or closed",
	  .build = b_read_bogus_huge, .want = ANSWER_OR_CLOSE },
};

static const char *outcome_name(unsigned int o)
{
	switch (o) {
	case O_NONE: return "nothing";
	case O_CLOSED: return "closed";
	case O_ERR_VERS: return "ERR_VERS";
	case O_ERR_CHUNK: return "ERR_CHUNK";
	case O_ERR2: return "RDMA2_ERROR";
	case O_REPLY: return "reply";
	case O_SILENT: return "discarded";
	default: return "a wrong answer";
	}
}

static void tap(bool ok, const char *desc, const char *todo,
		const char *fmt, ...)
{
	va_list ap;

	ntest++;
	if (!ok && !todo)
		nfail++;
	printf("%sok %d - %s", ok ? "" : "not ", ntest, desc);
	if (todo)
		printf(" # TODO %s", todo);
	printf("\n# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* connect @c, or say why case @desc could not be run */
static bool connected(struct conn *c, unsigned int recv_kib, const char *desc,
		      const char *todo)
{
	if (!conn_open(c, recv_kib))
		return true;
	conn_free(c);
	tap(false, desc, todo, "could not connect");
	return false;
}

static void run_case(const struct tcase *t)
{
	struct result r = { 0 };
	struct msg m = { 0 };
	uint32_t xid = xid_next++;
	struct conn c;
	long t0 = now_ms();

	if (!connected(&c, t->recv_kib, t->desc, t->todo))
		return;
	t->build(&m, xid);
	outcome(&c, &m, xid, &r);
	conn_free(&c);
	tap(r.o & t->want, t->desc, t->todo, "%s: %s (%ld ms)",
	    outcome_name(r.o), r.what, now_ms() - t0);
}

/* OVERRUN_CALLS NULL calls at once, past the credits granted */
static void run_overrun(void)
{
	const char *desc = "credit overrun: closed, or every call answered";
	struct result r = { 0 };
	unsigned int i, got = 0, bad = 0;
	uint32_t xid0 = xid_next;
	struct msg m, in;
	struct conn c;
	int rc = 0;

	xid_next += OVERRUN_CALLS;
	if (!connected(&c, 4, desc, NULL))
		return;
	for (i = 0; i < OVERRUN_CALLS; i++) {
		memset(&m, 0, sizeof(m));
		build_null(&m, xid0 + i);
		if (post_send(&c, &m))
			break;
	}
	while (got + bad < i) {
		rc = wait_recv(&c, &in, timeout_ms);
		if (rc <= 0)
			break;
		if (classify(&in, ntohl(in.w[0]), &r) == O_REPLY &&
		    ntohl(in.w[0]) - xid0 < OVERRUN_CALLS)
			got++;
		else
			bad++;
	}
	conn_free(&c);
	if (rc < 0 || (got == i && !bad))
		tap(!bad, desc, NULL, "%u sent, %u answered, %u other, %s",
		    i, got, bad, rc < 0 ? "then closed" : "still open");
	else
		tap(false, desc, NULL,
		    "%u sent, %u answered, %u other, then nothing for %d ms",
		    i, got, bad, timeout_ms);
}

/* --------------------------------------- version 2, continued calls */

/* draft-ietf-nfsv4-rpcrdma-version-two of November 2019: §6.3.2 (the
 * prefix and rdma_flags), §6.4.3 (error codes), §6.4.4 (CONNPROP)
 */
#define V2		2
#define F2_RESPONSE	0x1
#define F2_MORE		0x2
#define P2_CONNPROP	5
#define E2_INVAL_FLAG	4
#define HDR2_WORDS	9	/* prefix, rdma_inv_handle, three lists */

/* an RDMA2_MSG header without chunks: granted 32, at most 64 */
static void put_fixed2(struct msg *m, uint32_t xid, uint32_t flags)
{
	put32(m, xid);
	put32(m, V2);
	put32(m, 64u << 16 | 32);
	put32(m, P_MSG);
	put32(m, flags);
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
}

/* An NFSv3 NULL call @xid of version 2 in @parts Sends (§6.3.2.2: F_MORE
 * on all but the last), none empty; Send number @bad (from 1; 0: none)
 * has XID @xid + 1.
 */
static int send_null2(struct conn *c, uint32_t xid, unsigned int parts,
		      unsigned int bad)
{
	struct msg rpc = { 0 }, m;
	unsigned int i, at = 0, per;

	put_rpc_call(&rpc, xid, NFS_PROG, 3, 0, false);
	per = (rpc.n + parts - 1) / parts;
	for (i = 0; i < parts; i++) {
		memset(&m, 0, sizeof(m));
		put_fixed2(&m, i + 1 == bad ? xid + 1 : xid,
			   i + 1 < parts ? F2_MORE : 0);
		while (at < rpc.n && at < (i + 1) * per)
			m.w[m.n++] = rpc.w[at++];
		if (post_send(c, &m))
			return -1;
	}
	return 0;
}

/* What the server answered a version 2 call @xid with, past its
 * RDMA2_CONNPROP: an RPC reply accepted with SUCCESS (O_REPLY), an
 * RDMA2_ERROR of code @err (O_ERR2), the connection closed, nothing, or
 * something else (O_BAD)
 */
static enum outcome answer2(struct conn *c, uint32_t xid, uint32_t err,
			    struct result *r)
{
	struct msg in;
	const uint32_t *w = in.w;
	int i, rc;

	for (i = 0; i < 4; i++) {
		rc = wait_recv(c, &in, timeout_ms);
		if (rc < 0) {
			snprintf(r->what, sizeof(r->what), "connection closed");
			return O_CLOSED;
		}
		if (!rc) {
			snprintf(r->what, sizeof(r->what), "nothing in %d ms",
				 timeout_ms);
			return O_NONE;
		}
		if (in.n >= 4 && ntohl(w[1]) == V2 &&
		    ntohl(w[3]) == P2_CONNPROP)
			continue;
		if (in.n >= 6 && ntohl(w[1]) == V2 && ntohl(w[3]) == P_ERROR) {
			snprintf(r->what, sizeof(r->what),
				 "RDMA2_ERROR %u flags %#x xid %#x",
				 ntohl(w[5]), ntohl(w[4]), ntohl(w[0]));
			return ntohl(w[5]) == err && ntohl(w[0]) == xid &&
			       (ntohl(w[4]) & F2_RESPONSE) ? O_ERR2 : O_BAD;
		}
		/* the reply's header, then xid, REPLY, MSG_ACCEPTED, an
		 * empty verifier and accept_stat
		 */
		if (in.n >= HDR2_WORDS + 6 && ntohl(w[1]) == V2 &&
		    ntohl(w[3]) == P_MSG && ntohl(w[0]) == xid &&
		    ntohl(w[4]) == F2_RESPONSE && !w[6] && !w[7] && !w[8] &&
		    ntohl(w[HDR2_WORDS]) == xid &&
		    ntohl(w[HDR2_WORDS + 1]) == RPC_REPLY &&
		    !w[HDR2_WORDS + 2] && !w[HDR2_WORDS + 5]) {
			snprintf(r->what, sizeof(r->what),
				 "a version 2 RPC reply, %u bytes, xid %#x",
				 in.len, xid);
			return O_REPLY;
		}
		snprintf(r->what, sizeof(r->what),
			 "a %u-byte message of version %u, type %u, xid %#x",
			 in.len, in.n > 1 ? ntohl(w[1]) : 0,
			 in.n > 3 ? ntohl(w[3]) : 0, in.n ? ntohl(w[0]) : 0);
		return O_BAD;
	}
	snprintf(r->what, sizeof(r->what), "only properties");
	return O_BAD;
}

/* A NULL call in @parts continued Sends, of which Send @bad has another
 * XID: the outcome must be one of @want
 */
static void run_more(const char *desc, unsigned int parts, unsigned int bad,
		     unsigned int want)
{
	struct result r = { 0 };
	uint32_t xid = xid_next;
	long t0 = now_ms();
	struct conn c;

	xid_next += 2;
	if (!connected(&c, 4, desc, NULL))
		return;
	if (send_null2(&c, xid, parts, bad))
		r.o = O_CLOSED;
	else
		r.o = answer2(&c, xid, bad ? E2_INVAL_FLAG : 0, &r);
	conn_free(&c);
	tap(r.o & want, desc, NULL, "%s: %s (%ld ms)", outcome_name(r.o),
	    r.what, now_ms() - t0);
}

/* OVERRUN_CALLS Sends with F_MORE, a sequence that never ends: past the
 * credits, the server must close the connection
 */
static void run_more_endless(void)
{
	const char *desc = "version 2: F_MORE Sends past the credits, no last one: closed";
	struct result r = { 0 };
	uint32_t xid = xid_next++;
	struct msg m, in;
	struct conn c;
	unsigned int i;
	int rc = 0;

	if (!connected(&c, 4, desc, NULL))
		return;
	for (i = 0; i < OVERRUN_CALLS; i++) {
		memset(&m, 0, sizeof(m));
		put_fixed2(&m, xid, F2_MORE);
		put32(&m, xid);
		if (post_send(&c, &m))
			break;
	}
	/* its properties may come first: nothing else may */
	while ((rc = wait_recv(&c, &in, timeout_ms)) > 0)
		if (in.n < 4 || ntohl(in.w[1]) != V2 ||
		    ntohl(in.w[3]) != P2_CONNPROP)
			break;
	conn_free(&c);
	r.o = rc < 0 ? O_CLOSED : rc ? O_BAD : O_NONE;
	tap(r.o == O_CLOSED, desc, NULL, "%u sent: %s", i,
	    rc < 0 ? "closed" : rc ? "a message" : "nothing, still open");
}

/* Draft §5.2.6: an RDMA2_CONNPROP whose Host Auth Message is longer than
 * the server keeps, then a NULL call: answered
 */
static void run_hostauth(void)
{
	const char *desc = "version 2: a 900-byte Host Auth Message, then a NULL call: answered";
	struct result r = { 0 };
	uint32_t xid = xid_next++;
	unsigned int i, n = 900;
	struct msg m;
	struct conn c;

	if (!connected(&c, 4, desc, NULL))
		return;
	memset(&m, 0, sizeof(m));
	put32(&m, 0);
	put32(&m, V2);
	put32(&m, 64u << 16 | 32);
	put32(&m, P2_CONNPROP);
	put32(&m, 0);
	put32(&m, 1);		/* one property */
	put32(&m, 6);		/* RDMA2_PROPID_HOSTAUTH */
	put32(&m, 4 + n);	/* its value: an opaque<> of n bytes */
	put32(&m, n);
	for (i = 0; i < n / 4; i++)
		put32(&m, 0x686f7374);	/* "host" */
	if (post_send(&c, &m) || send_null2(&c, xid, 1, 0))
		r.o = O_CLOSED;
	else
		r.o = answer2(&c, xid, 0, &r);
	conn_free(&c);
	tap(r.o == O_REPLY, desc, NULL, "%s: %s", outcome_name(r.o), r.what);
}

/* a NULL call on a fresh connection: the server still serves */
static void run_alive(const char *desc)
{
	struct result r = { 0 };
	struct conn c;
	bool ok;

	if (!connected(&c, 4, desc, NULL))
		return;
	ok = null_answered(&c, &r);
	conn_free(&c);
	tap(ok, desc, NULL, "%s", ok ? r.what : "no reply");
}

/* ------------------------------------------------- hostile server */

/* (poll() between the reads: no volatile needed) */
static sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* an accepted RPC reply, SUCCESS, no results */
static void put_rpc_void_reply(struct msg *m, uint32_t xid)
{
	put32(m, xid);
	put32(m, RPC_REPLY);
	put32(m, 0);		/* MSG_ACCEPTED */
	put32(m, AUTH_NONE);
	put32(m, 0);
	put32(m, 0);		/* SUCCESS */
}

static void r_plain(struct msg *m, uint32_t xid, uint32_t vers,
		    uint32_t credit)
{
	put32(m, xid);
	put32(m, vers);
	put32(m, credit);
	put32(m, P_MSG);
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
	put_rpc_void_reply(m, xid);
}

static void r_vers2(struct msg *m, uint32_t xid)
{
	r_plain(m, xid, 2, 32);
}

static void r_credit0(struct msg *m, uint32_t xid)
{
	r_plain(m, xid, V1, 0);
}

static void r_creditmax(struct msg *m, uint32_t xid)
{
	r_plain(m, xid, V1, 0xffffffff);
}

static void r_xid(struct msg *m, uint32_t xid)
{
	r_plain(m, xid ^ 0x5a5a5a5a, V1, 32);
}

static void r_short(struct msg *m, uint32_t xid)
{
	put32(m, xid);
	put32(m, V1);
}

static void r_short24(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	put32(m, 0);
	put32(m, 0);
}

/* a Write chunk of three segments the call never offered */
static void r_wlist(struct msg *m, uint32_t xid)
{
	int i;

	put_fixed(m, xid, V1, P_MSG);
	put32(m, 0);
	put32(m, 1);
	put32(m, 3);
	for (i = 0; i < 3; i++)
		put_seg(m, 0x1110 + i, 4096, 0x10000ull * i);
	put32(m, 0);
	put32(m, 0);
	put_rpc_void_reply(m, xid);
}

/* a Write list whose count runs past the message's end */
static void r_wlist_past(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	put32(m, 0);
	put32(m, 1);
	put32(m, 0x7fffffff);
	put_seg(m, 0x1110, 4096, 0);
}

/* RDMA_NOMSG: "the reply is in your Reply chunk", 1 MiB of it */
static void r_reply_long(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_NOMSG);
	put32(m, 0);
	put32(m, 0);
	put32(m, 1);
	put32(m, 1);
	put_seg(m, 0x2220, 1 << 20, 0);
}

/* a Read list: only Calls carry one */
static void r_rlist(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	put32(m, 1);
	put32(m, 0);
	put_seg(m, 0x3330, 4096, 0);
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
	put_rpc_void_reply(m, xid);
}

static void r_err_chunk(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_ERROR);
	put32(m, E_CHUNK);
}

static void r_err_vers(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_ERROR);
	put32(m, E_VERS);
	put32(m, 2);
	put32(m, 2);
}

/* an RDMA_ERROR of an unknown code, and nothing after it */
static void r_err_bogus(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_ERROR);
	put32(m, 0xffffffff);
}

/* a good header and 3 bytes of RPC message */
static void r_rpc_short(struct msg *m, uint32_t xid)
{
	put_fixed(m, xid, V1, P_MSG);
	put32(m, 0);
	put32(m, 0);
	put32(m, 0);
	put32(m, xid);
	m->len = m->n * 4 - 1;
}

/* Draft §6.3.2.2: a part of a continued reply, with more to come, to a
 * call that granted no more than one Send; none follows
 */
static void r_more(struct msg *m, uint32_t xid)
{
	put_fixed2(m, xid, F2_RESPONSE | F2_MORE);
	put_rpc_void_reply(m, xid);
}

/* F_MORE without F_RESPONSE: a backward call continued */
static void r_more_call(struct msg *m, uint32_t xid)
{
	put_fixed2(m, xid, F2_MORE);
	put_rpc_void_reply(m, xid);
}

struct rcase {
	const char	*name;
	const char	*desc;
	void		(*build)(struct msg *m, uint32_t xid);
};

static const struct rcase rcases[] = {
	{ "vers2", "header version 2", r_vers2 },
	{ "short", "an 8-byte reply", r_short },
	{ "short24", "a 24-byte reply", r_short24 },
	{ "xid", "the reply of no call (XID)", r_xid },
	{ "wlist", "a Write chunk the call did not offer", r_wlist },
	{ "wlist-past", "a Write list past the message's end",
	  r_wlist_past },
	{ "reply-long", "RDMA_NOMSG: 1 MiB in a Reply chunk not offered",
	  r_reply_long },
	{ "rlist", "a Read list in a reply", r_rlist },
	{ "err-chunk", "RDMA_ERROR ERR_CHUNK", r_err_chunk },
	{ "err-vers", "RDMA_ERROR ERR_VERS 2..2", r_err_vers },
	{ "err-bogus", "RDMA_ERROR of code 0xffffffff", r_err_bogus },
	{ "rpc-short", "a 3-byte RPC message", r_rpc_short },
	{ "credit0", "credits granted: 0, void results", r_credit0 },
	{ "creditmax", "credits granted: 0xffffffff, void results",
	  r_creditmax },
	{ "more", "version 2: a continued reply's first Send (F_MORE), no last",
	  r_more },
	{ "more-call", "version 2: F_MORE without F_RESPONSE", r_more_call },
};

struct srv_stats {
	unsigned int	conns;
	unsigned int	calls;
	unsigned int	replies;
	unsigned int	disconnects;
};

/* take a connection request: resources on its id, then accept */
static int srv_accept(struct conn *c, struct rdma_cm_id *id)
{
	struct rdma_conn_param cp = {
		.responder_resources	= 1,
		.initiator_depth	= 1,
		.rnr_retry_count	= 7,
	};
	uint32_t magic = htonl(CM_MAGIC);
	uint8_t priv[8];

	memset(c, 0, sizeof(*c));
	c->id = id;
	if (conn_setup(c))
		return -1;
	memcpy(priv, &magic, 4);
	priv[4] = 1;
	priv[5] = 0;
	priv[6] = BUF_SIZE / 1024 - 1;
	priv[7] = BUF_SIZE / 1024 - 1;
	cp.private_data = priv;
	cp.private_data_len = sizeof(priv);
	return rdma_accept(id, &cp);
}

/* everything received on @c gets the case's reply */
static void srv_answer(struct conn *c, const struct rcase *rc,
		       struct srv_stats *st)
{
	struct ibv_wc wc;
	struct ibv_cq *cq;
	void *ctx;
	struct msg m;
	uint32_t xid;

	if (!ibv_get_cq_event(c->cch, &cq, &ctx)) {
		c->cq_events++;
		ibv_req_notify_cq(c->cq, 0);
	}
	while (ibv_poll_cq(c->cq, 1, &wc) == 1) {
		if (wc.status != IBV_WC_SUCCESS || wc.wr_id >= NBUF)
			continue;
		st->calls++;
		memcpy(&xid, c->rbuf + wc.wr_id * BUF_SIZE, 4);
		post_recv(c, wc.wr_id);
		if (wc.byte_len < 4)
			continue;
		memset(&m, 0, sizeof(m));
		rc->build(&m, ntohl(xid));
		if (!post_send(c, &m))
			st->replies++;
	}
}

/* the accepted connection goes: its id, not the listener's channel */
static void srv_drop(struct conn *c)
{
	c->ech = NULL;
	conn_free(c);
}

static int run_server(const char *name, int secs)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct rdma_event_channel *ech;
	struct rdma_cm_id *lid;
	const struct rcase *rc = NULL;
	struct srv_stats st = { 0 };
	struct conn c = { 0 };
	long end = now_ms() + secs * 1000L;
	bool live = false;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rcases); i++)
		if (!strcmp(name, rcases[i].name))
			rc = &rcases[i];
	if (!rc) {
		for (i = 0; i < ARRAY_SIZE(rcases); i++)
			fprintf(stderr, "%-12s %s\n", rcases[i].name,
				rcases[i].desc);
		return strcmp(name, "list") ? 2 : 0;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	sin.sin_port = htons(atoi(port));
	ech = rdma_create_event_channel();
	if (!ech || rdma_create_id(ech, &lid, NULL, RDMA_PS_TCP) ||
	    rdma_bind_addr(lid, (struct sockaddr *)&sin) ||
	    rdma_listen(lid, 8)) {
		perror("rpcr_hostile: listen");
		return 1;
	}
	printf("# hostile server: %s, port %s\n", rc->desc, port);
	fflush(stdout);
	while (!stop && now_ms() < end) {
		struct pollfd pfd[2] = {
			{ .fd = ech->fd, .events = POLLIN },
			{ .fd = live ? c.cch->fd : -1, .events = POLLIN },
		};
		struct rdma_cm_event *ev;
		enum rdma_cm_event_type t;
		struct rdma_cm_id *id;

		if (poll(pfd, 2, 200) <= 0)
			continue;
		if (live && pfd[1].revents)
			srv_answer(&c, rc, &st);
		if (!pfd[0].revents || rdma_get_cm_event(ech, &ev))
			continue;
		t = ev->event;
		id = ev->id;
		rdma_ack_cm_event(ev);
		if (t == RDMA_CM_EVENT_CONNECT_REQUEST) {
			/* one at a time: a reconnect replaces the old */
			if (live)
				srv_drop(&c);
			live = !srv_accept(&c, id);
			if (!live) {
				srv_drop(&c);
				continue;
			}
			st.conns++;
		} else if (live && id == c.id &&
			   (t == RDMA_CM_EVENT_DISCONNECTED ||
			    t == RDMA_CM_EVENT_ESTABLISHED)) {
			if (t == RDMA_CM_EVENT_ESTABLISHED)
				continue;
			st.disconnects++;
			c.closed = true;
			srv_drop(&c);
			live = false;
		}
	}
	if (live)
		srv_drop(&c);
	rdma_destroy_id(lid);
	rdma_destroy_event_channel(ech);
	printf("# hostile server %s: %u connections, %u calls, %u replies sent, %u disconnects\n",
	       rc->name, st.conns, st.calls, st.replies, st.disconnects);
	return 0;
}

static void usage(void)
{
	fputs("rpcr_hostile [-p PORT] [-t SECS] SERVER\n"
	      "rpcr_hostile --server [-p PORT] [-t SECS] CASE|list\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "server", no_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int i, n = ARRAY_SIZE(cases);
	bool srv = false, secs_given = false;
	int opt;

	while ((opt = getopt_long(argc, argv, "p:st:", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			srv = true;
			break;
		case 'p':
			port = optarg;
			break;
		case 't':
			timeout_ms = atoi(optarg) * 1000;
			secs_given = true;
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1 || timeout_ms <= 0)
		usage();
	if (srv)
		return run_server(argv[optind],
				  secs_given ? timeout_ms / 1000 : 60);
	server = argv[optind];
	printf("TAP version 13\n1..%u\n", n + 3);
	run_alive("a valid NULL call is answered (before)");
	for (i = 0; i < n; i++)
		run_case(&cases[i]);
	run_overrun();
	run_more("version 2: a NULL call in 3 continued Sends (F_MORE) is answered",
		 3, 0, O_REPLY);
	run_more("version 2: a NULL call in 10 continued Sends is answered",
		 10, 0, O_REPLY);
	run_more("version 2: a continued call's 2nd Send of another XID: ERR_INVAL_FLAG or closed",
		 3, 2, O_ERR2 | O_CLOSED);
	run_more("version 2: a continued call's last Send of another XID: ERR_INVAL_FLAG or closed",
		 4, 4, O_ERR2 | O_CLOSED);
	run_more_endless();
	run_hostauth();
	run_alive("a valid NULL call on a fresh connection is answered (after)");
	return nfail ? 1 : 0;
}
