// SPDX-License-Identifier: GPL-2.0
/*
 * smc_hostile_rdma: a hostile SMC-R client that goes past CLC: it brings
 * up a real RC queue pair to the server with libibverbs, confirms the
 * link, and then breaks the protocol where RDMA carries it.
 *
 *   smc_hostile_rdma --host IP --port P [--dev rxe0] [--bound S]
 *                    [--stall-cmd CMD] [CASE...]
 *
 * Run it in a cgroup whose SYNs carry the SMC TCP option (see
 * vm/hostile.sh and smc_synopt.bpf.c): the server's kernel then takes
 * this plain TCP program for an SMC-capable peer. The server must be an
 * AF_SMC echo server (smc_peer server --echo) whose link group probes
 * its links with TEST LINK every few seconds.
 *
 * Each case is its own link group: a fresh peer ID, a CLC Proposal,
 * Accept and Confirm over TCP (RFC 7609 A.2), a queue pair of ours, the
 * server's CONFIRM LINK answered (A.3.1), an RMB of 16 KiB for the
 * server to write into. Then the case does what it is named for: CDC
 * cursors past the RMB, backwards or wrapped twice (A.4), a consumer
 * cursor past anything sent, an unknown alert token, DELETE LINK of a
 * link that does not exist, a bogus ADD LINK, an LLC flood while no
 * receive is posted for the answers, receives withheld for good, a
 * CONFIRM LINK never answered, or answered by a CLC Decline (App. C.2),
 * an RDMA write past the server's RMB, a wrong rkey for our own RMB. A
 * case passes when the server keeps the connection working (an echo
 * comes back intact, over RDMA or, after the Decline, over TCP) or ends
 * it (its TCP connection closes), as the case expects, within --bound
 * seconds.
 * One TAP line a case, what happened in a comment. Without CASE names
 * every case runs but stall-resume, which wants the server's TEST LINK
 * off.
 *
 * --stall-cmd runs CMD (sh -c) while the flood case has the server's
 * answers stalled: the caller checks there that other connections and
 * handshakes of the host go on meanwhile.
 *
 * The formats are written out here from RFC 7609's appendix, on purpose
 * not taken from the module's wire files.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "../../kselftest.h"

/* a TAP diagnostic line, out before anything a child prints */
#define diag(fmt, ...)	do {					\
	ksft_print_msg(fmt "\n", ##__VA_ARGS__);			\
	fflush(stdout);							\
} while (0)

/* A.2: CLC */
static const uint8_t EYE[4] = { 0xe2, 0xd4, 0xc3, 0xd9 };
#define CLC_PROPOSAL	1
#define CLC_ACCEPT	2
#define CLC_CONFIRM	3
#define CLC_DECLINE	4
#define CLC_DECLINE_LEN	28
#define CLC_DECL_TIMEOUT_CL 0x02010000	/* CONFIRM LINK timed out */
#define CLC_V1		0x10
#define CLC_FIRST	0x08
#define CLC_ACCEPT_LEN	68

/* A.3: LLC, A.4: CDC; every message is 44 bytes */
#define MSG_LEN		44
#define LLC_CONFIRM_LINK 1
#define LLC_ADD_LINK	2
#define LLC_DELETE_LINK	4
#define LLC_TEST_LINK	7
#define LLC_RESP	0x80
#define LLC_DEL_ALL	0x40
#define LLC_DEL_ORDERLY	0x20
#define LLC_DEL_NO_LINK	0x00100000u	/* A.3.4 response reason code */
#define CDC_TYPE	0xfe
#define CDC_DONE	0x80		/* byte 25: D, peer done writing */
#define CDC_CLOSED	0x40		/* byte 25: C, peer connection closed */

#define RMB_SIZE	16384		/* size code 0: 16 KiB */
#define NRX		16		/* receives posted */
#define SLOT		64
#define NTX		128		/* sends in flight at most */
#define STAGE		16384

struct dev {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint8_t gid[16];
	int gid_index;
	uint8_t mac[6];
	enum ibv_mtu mtu;
};

/* One hostile connection, its own link group on the server */
struct conn {
	int fd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *rmb_mr, *rx_mr, *tx_mr;
	uint8_t *rmb, *rx, *tx;
	uint32_t psn, token;
	uint8_t peer_id[8];
	/* the server, from its Accept */
	uint8_t s_gid[16];
	uint32_t s_qpn, s_rkey, s_token, s_psn, s_size;
	uint64_t s_addr;
	int s_mtu;
	uint8_t link_num;
	/* cursors as byte counts; wire cursors as last seen */
	uint64_t tx_prod, rx_prod, rx_cons;
	uint16_t rx_wrap;
	uint32_t rx_count;
	uint16_t seq;
	int tx_out;		/* sends not completed */
	uint64_t want_rx;	/* rx_arrived(): bytes to wait for */
	bool hold_rx;		/* receives are not reposted */
	int rx_held;		/* receives consumed and not reposted */
	int held[NRX];		/* their slots */
	bool answer_tests;	/* echo the server's TEST LINK requests */
	bool failed;		/* an error completion */
	uint32_t llc_seen[256];
	uint8_t llc_last[256][MSG_LEN];
};

static struct dev dev;
static double bound = 30;
static const char *stall_cmd;
static int failures;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void put24(uint8_t *p, uint32_t v)
{
	p[0] = v >> 16;
	p[1] = v >> 8;
	p[2] = v;
}

static uint32_t get24(const uint8_t *p)
{
	return p[0] << 16 | p[1] << 8 | p[2];
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ntohl(v);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static uint16_t get16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

/* the device, its RoCE v2 GID for our IPv4 address, its MAC */
static int dev_open(const char *name, const char *ip)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_port_attr pattr;
	union ibv_gid gid;
	uint8_t want[16] = { [10] = 0xff, [11] = 0xff };
	char path[256], ndev[64] = "";
	unsigned int m[6];
	FILE *f;
	int i;

	if (!list)
		return -1;
	for (i = 0; list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			dev.ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!dev.ctx || ibv_query_port(dev.ctx, 1, &pattr))
		return -1;
	dev.mtu = pattr.active_mtu;
	dev.pd = ibv_alloc_pd(dev.ctx);
	if (!dev.pd || inet_pton(AF_INET, ip, want + 12) != 1)
		return -1;
	dev.gid_index = -1;
	for (i = 0; i < pattr.gid_tbl_len; i++) {
		if (ibv_query_gid(dev.ctx, 1, i, &gid))
			continue;
		if (!memcmp(gid.raw, want, 16)) {
			memcpy(dev.gid, gid.raw, 16);
			dev.gid_index = i;
			break;
		}
	}
	if (dev.gid_index < 0)
		return -1;
	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/1/gid_attrs/ndevs/%d", name,
		 dev.gid_index);
	f = fopen(path, "r");
	if (!f || !fgets(ndev, sizeof(ndev), f))
		return -1;
	fclose(f);
	ndev[strcspn(ndev, "\n")] = 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/address", ndev);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3],
			 &m[4], &m[5]) != 6)
		return -1;
	fclose(f);
	for (i = 0; i < 6; i++)
		dev.mac[i] = m[i];
	return 0;
}

static int post_recv(struct conn *c, int i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(c->rx + i * SLOT),
		.length = SLOT,
		.lkey = c->rx_mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return ibv_post_recv(c->qp, &wr, &bad);
}

static void handle_msg(struct conn *c, const uint8_t *m);

/*
 * Process completions for up to @secs seconds, or until @done(c) holds.
 * The server's TEST LINK requests are answered (unless told not to),
 * receives reposted (unless held).
 */
static bool pump(struct conn *c, double secs, bool (*done)(struct conn *))
{
	double end = now() + secs;
	struct ibv_wc wc[16];
	int n, i;

	for (;;) {
		if (done && done(c))
			return true;
		n = ibv_poll_cq(c->cq, 16, wc);
		for (i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				if (!c->failed)
					diag("completion: %s",
					     ibv_wc_status_str(wc[i].status));
				c->failed = true;
				if (!(wc[i].opcode & IBV_WC_RECV))
					c->tx_out--;
				continue;
			}
			if (!(wc[i].opcode & IBV_WC_RECV)) {
				c->tx_out--;
				continue;
			}
			handle_msg(c, c->rx + wc[i].wr_id * SLOT);
			if (c->hold_rx)
				c->held[c->rx_held++] = wc[i].wr_id;
			else
				post_recv(c, wc[i].wr_id);
		}
		if (n)
			continue;
		if (now() > end)
			return done ? done(c) : true;
		usleep(1000);
	}
}

/* Send one 44 byte message, after @writes (RDMA writes) if any */
static int send_msg(struct conn *c, const uint8_t *msg,
		    struct ibv_send_wr *writes)
{
	static uint32_t slot;
	uint8_t *p = c->tx + (slot++ % NTX) * SLOT;
	struct ibv_sge sge = {
		.addr = (uintptr_t)p, .length = MSG_LEN, .lkey = c->tx_mr->lkey,
	};
	struct ibv_send_wr wr = {
		.opcode = IBV_WR_SEND, .sg_list = &sge, .num_sge = 1,
		.send_flags = IBV_SEND_SIGNALED,
	};
	struct ibv_send_wr *bad, *first = &wr, *w;
	int rc;

	/* the ring of send slots is never overrun */
	while (c->tx_out >= NTX - 4 && !c->failed)
		pump(c, 0.01, NULL);
	memcpy(p, msg, MSG_LEN);
	if (writes) {
		/* unsignaled: only the message completes */
		for (w = writes; w->next; w = w->next)
			;
		w->next = &wr;
		first = writes;
	}
	c->tx_out++;
	rc = ibv_post_send(c->qp, first, &bad);
	if (rc)
		diag("post send: %s", strerror(rc));
	return rc;
}

static void llc_hdr(uint8_t *m, uint8_t type, uint8_t flags)
{
	memset(m, 0, MSG_LEN);
	m[0] = type;
	m[1] = MSG_LEN;
	m[3] = flags;
}

/* A.4: a CDC message with the given cursors and flags */
static int send_cdc(struct conn *c, uint32_t token, uint16_t pwrap,
		    uint32_t pcount, uint16_t cwrap, uint32_t ccount,
		    uint8_t cflags, struct ibv_send_wr *writes)
{
	uint8_t m[MSG_LEN] = { CDC_TYPE, MSG_LEN };

	put16(m + 2, ++c->seq);
	put32(m + 4, token);
	put16(m + 10, pwrap);
	put32(m + 12, pcount);
	put16(m + 18, cwrap);
	put32(m + 20, ccount);
	m[25] = cflags;
	return send_msg(c, m, writes);
}

/* A CDC message with the cursors as they are */
static int send_cdc_now(struct conn *c, struct ibv_send_wr *writes)
{
	return send_cdc(c, c->s_token, c->tx_prod / c->s_size,
			c->tx_prod % c->s_size, c->rx_cons / RMB_SIZE,
			c->rx_cons % RMB_SIZE, 0, writes);
}

static void handle_msg(struct conn *c, const uint8_t *m)
{
	uint8_t a[MSG_LEN];
	uint16_t wrap;
	uint32_t count;

	if (m[0] == CDC_TYPE) {
		if (get32(m + 4) != c->token)
			return;
		wrap = get16(m + 10);
		count = get32(m + 12);
		/* the server is trusted here: forward, one wrap at most */
		if (wrap == c->rx_wrap)
			c->rx_prod += count - c->rx_count;
		else
			c->rx_prod += RMB_SIZE - c->rx_count + count;
		c->rx_wrap = wrap;
		c->rx_count = count;
		return;
	}
	c->llc_seen[m[0]]++;
	memcpy(c->llc_last[m[0]], m, MSG_LEN);
	if (m[0] == LLC_TEST_LINK && !(m[3] & LLC_RESP) && c->answer_tests) {
		memcpy(a, m, MSG_LEN);
		a[3] |= LLC_RESP;
		send_msg(c, a, NULL);
	}
}

/* read exactly @len bytes from the TCP socket within the bound */
static int tcp_read(int fd, uint8_t *buf, size_t len)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		if (poll(&p, 1, bound * 1000) != 1)
			return -1;
		n = recv(fd, buf + got, len - got, 0);
		if (n <= 0)
			return -1;
		got += n;
	}
	return 0;
}

/* the smaller of the server's MTU (an IB MTU enum value) and ours */
static enum ibv_mtu path_mtu(const struct conn *c)
{
	return c->s_mtu < (int)dev.mtu ? (enum ibv_mtu)c->s_mtu : dev.mtu;
}

static int qp_create(struct conn *c)
{
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = NTX + 8, .max_recv_wr = NRX,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp_attr at = {
		.qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE,
	};
	int i;

	c->rmb = aligned_alloc(4096, RMB_SIZE);
	c->rx = aligned_alloc(4096, NRX * SLOT);
	c->tx = aligned_alloc(4096, NTX * SLOT + STAGE);
	if (!c->rmb || !c->rx || !c->tx)
		return -1;
	memset(c->rmb, 0, RMB_SIZE);
	c->rmb_mr = ibv_reg_mr(dev.pd, c->rmb, RMB_SIZE,
			       IBV_ACCESS_LOCAL_WRITE |
			       IBV_ACCESS_REMOTE_WRITE);
	c->rx_mr = ibv_reg_mr(dev.pd, c->rx, NRX * SLOT,
			      IBV_ACCESS_LOCAL_WRITE);
	c->tx_mr = ibv_reg_mr(dev.pd, c->tx, NTX * SLOT + STAGE, 0);
	c->cq = ibv_create_cq(dev.ctx, NTX + NRX + 16, NULL, NULL, 0);
	if (!c->rmb_mr || !c->rx_mr || !c->tx_mr || !c->cq)
		return -1;
	ia.send_cq = c->cq;
	ia.recv_cq = c->cq;
	c->qp = ibv_create_qp(dev.pd, &ia);
	if (!c->qp || ibv_modify_qp(c->qp, &at, IBV_QP_STATE |
				    IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				    IBV_QP_ACCESS_FLAGS))
		return -1;
	for (i = 0; i < NRX; i++)
		if (post_recv(c, i))
			return -1;
	return 0;
}

static int qp_connect(struct conn *c)
{
	struct ibv_qp_attr at = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = path_mtu(c),
		.dest_qp_num = c->s_qpn,
		.rq_psn = c->s_psn,
		.max_dest_rd_atomic = 1,
		/* the longest: a stalled server retries slowly */
		.min_rnr_timer = 31,
		.ah_attr = {
			.is_global = 1,
			.port_num = 1,
			.grh = { .sgid_index = dev.gid_index, .hop_limit = 1 },
		},
	};

	memcpy(at.ah_attr.grh.dgid.raw, c->s_gid, 16);
	if (ibv_modify_qp(c->qp, &at, IBV_QP_STATE | IBV_QP_AV |
			  IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&at, 0, sizeof(at));
	at.qp_state = IBV_QPS_RTS;
	at.timeout = 14;
	at.retry_cnt = 7;
	at.rnr_retry = 7;
	at.sq_psn = c->psn;
	at.max_rd_atomic = 1;
	return ibv_modify_qp(c->qp, &at, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

static void conn_free(struct conn *c)
{
	if (c->qp)
		ibv_destroy_qp(c->qp);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->rmb_mr)
		ibv_dereg_mr(c->rmb_mr);
	if (c->rx_mr)
		ibv_dereg_mr(c->rx_mr);
	if (c->tx_mr)
		ibv_dereg_mr(c->tx_mr);
	free(c->rmb);
	free(c->rx);
	free(c->tx);
	if (c->fd >= 0)
		close(c->fd);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

static struct sockaddr_in server;
static uint32_t prefix_addr;
static uint8_t prefix_len = 24;

static void rand_bytes(void *p, size_t n)
{
	uint8_t *b = p;

	while (n--)
		*b++ = random();
}

static bool confirm_link_seen(struct conn *c)
{
	return c->llc_seen[LLC_CONFIRM_LINK] || c->failed;
}

/* wait for the server's CONFIRM LINK and answer it */
static int conn_confirm(struct conn *c)
{
	const uint8_t *r = c->llc_last[LLC_CONFIRM_LINK];
	uint8_t m[MSG_LEN];
	uint32_t uid = random();

	if (!pump(c, bound, confirm_link_seen) || c->failed) {
		diag("no CONFIRM LINK from the server");
		return -1;
	}
	c->link_num = r[29];
	llc_hdr(m, LLC_CONFIRM_LINK, LLC_RESP);
	memcpy(m + 4, dev.mac, 6);
	memcpy(m + 10, dev.gid, 16);
	put24(m + 26, c->qp->qp_num);
	m[29] = c->link_num;
	memcpy(m + 30, &uid, 4);
	m[34] = 1;
	return send_msg(c, m, NULL);
}

/* What Proposal and Confirm begin with (A.2.2, A.2.4): the header, then
 * our peer ID, GID and MAC; the trailer eyecatcher at the end
 */
static void clc_head(const struct conn *c, uint8_t *m, uint8_t type,
		     uint16_t len)
{
	memcpy(m, EYE, 4);
	m[4] = type;
	put16(m + 5, len);
	m[7] = CLC_V1;
	memcpy(m + 8, c->peer_id, 8);
	memcpy(m + 16, dev.gid, 16);
	memcpy(m + 32, dev.mac, 6);
	memcpy(m + len - 4, EYE, 4);
}

enum stop_at { STOP_ACTIVE, STOP_CONFIRM_LINK };

/*
 * The handshake of a first contact: CLC over TCP, then the server's
 * CONFIRM LINK answered unless @stop says otherwise. @rkey_xor spoils the
 * rkey of our RMB in the Confirm.
 */
static int conn_open(struct conn *c, enum stop_at stop, uint32_t rkey_xor)
{
	uint8_t p[52] = {}, a[CLC_ACCEPT_LEN], f[CLC_ACCEPT_LEN] = {};
	uint64_t va;
	int one = 1;

	memset(c, 0, sizeof(*c));
	c->answer_tests = true;
	rand_bytes(c->peer_id, 2);
	memcpy(c->peer_id + 2, dev.mac, 6);
	c->psn = random() & 0xffffff;
	c->token = random() | 1;
	c->fd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(c->fd, IPPROTO_TCP, 1 /* TCP_NODELAY */, &one, sizeof(one));
	if (connect(c->fd, (struct sockaddr *)&server, sizeof(server))) {
		diag("connect: %s", strerror(errno));
		return -1;
	}

	/* A.2.2: Proposal, SMC-R version 1, our IPv4 prefix */
	clc_head(c, p, CLC_PROPOSAL, sizeof(p));
	memcpy(p + 40, &prefix_addr, 4);
	p[44] = prefix_len;
	if (send(c->fd, p, sizeof(p), 0) != sizeof(p) ||
	    tcp_read(c->fd, a, 8)) {
		diag("no answer to the Proposal");
		return -1;
	}
	if (memcmp(a, EYE, 4) || a[4] != CLC_ACCEPT ||
	    get16(a + 5) != CLC_ACCEPT_LEN ||
	    tcp_read(c->fd, a + 8, CLC_ACCEPT_LEN - 8)) {
		diag("the Proposal got type %u, not an Accept", a[4]);
		return -1;
	}
	if (!(a[7] & CLC_FIRST)) {
		diag("the Accept is not a first contact");
		return -1;
	}
	/* A.2.3 */
	memcpy(c->s_gid, a + 16, 16);
	c->s_qpn = get24(a + 38);
	c->s_rkey = get32(a + 41);
	c->s_token = get32(a + 46);
	c->s_size = RMB_SIZE << (a[50] >> 4);
	c->s_mtu = a[50] & 0xf;
	memcpy(&c->s_addr, a + 52, 8);
	c->s_addr = be64toh(c->s_addr);
	c->s_psn = get24(a + 61);
	if (qp_create(c) || qp_connect(c)) {
		diag("queue pair: %s", strerror(errno));
		return -1;
	}
	/* A.2.4: Confirm */
	clc_head(c, f, CLC_CONFIRM, sizeof(f));
	put24(f + 38, c->qp->qp_num);
	put32(f + 41, c->rmb_mr->rkey ^ rkey_xor);
	f[45] = 1;
	put32(f + 46, c->token);
	f[50] = 0 << 4 | path_mtu(c);	/* size code 0: 16 KiB */
	va = htobe64((uintptr_t)c->rmb);
	memcpy(f + 52, &va, 8);
	put24(f + 61, c->psn);
	if (send(c->fd, f, sizeof(f), 0) != sizeof(f))
		return -1;
	return stop == STOP_CONFIRM_LINK ? 0 : conn_confirm(c);
}

/* byte @off of what we send on a connection with token @token */
static uint8_t pat(uint32_t token, uint64_t off)
{
	return (uint8_t)(off * 7 + (off >> 8) + token);
}

/*
 * RDMA-write @n bytes of our stream into the server's RMB at our producer
 * cursor, then announce them with a CDC message (A.4, §4.4)
 */
static int write_data(struct conn *c, uint32_t n)
{
	uint8_t *stage = c->tx + NTX * SLOT;
	uint32_t off = c->tx_prod % c->s_size;
	uint32_t first = n < c->s_size - off ? n : c->s_size - off;
	struct ibv_sge sge[2] = {
		{ (uintptr_t)stage, first, c->tx_mr->lkey },
		{ (uintptr_t)stage + first, n - first, c->tx_mr->lkey },
	};
	struct ibv_send_wr w[2] = {};
	uint32_t i;

	if (n > STAGE)
		return -1;
	for (i = 0; i < n; i++)
		stage[i] = pat(c->token, c->tx_prod + i);
	for (i = 0; i < 2; i++) {
		w[i].opcode = IBV_WR_RDMA_WRITE;
		w[i].sg_list = &sge[i];
		w[i].num_sge = 1;
		w[i].wr.rdma.rkey = c->s_rkey;
	}
	w[0].wr.rdma.remote_addr = c->s_addr + off;
	w[1].wr.rdma.remote_addr = c->s_addr;
	if (n > first)
		w[0].next = &w[1];
	c->tx_prod += n;
	return send_cdc_now(c, w);
}

static bool rx_arrived(struct conn *c)
{
	return c->rx_prod >= c->want_rx || c->failed;
}

/* @n bytes to the echo server and back, checked; 0 or -1 */
static int echo(struct conn *c, uint32_t n)
{
	uint64_t start = c->tx_prod, i;
	uint8_t b;

	if (write_data(c, n))
		return -1;
	c->want_rx = c->rx_cons + n;
	if (!pump(c, bound, rx_arrived) || c->failed) {
		diag("%u bytes sent, %llu came back", n,
		     (unsigned long long)(c->rx_prod - c->rx_cons));
		return -1;
	}
	for (i = 0; i < n; i++) {
		b = c->rmb[(c->rx_cons + i) % RMB_SIZE];
		if (b != pat(c->token, start + i)) {
			diag("byte %llu back is 0x%02x, not 0x%02x",
			     (unsigned long long)i, b, pat(c->token, start + i));
			return -1;
		}
	}
	c->rx_cons += n;
	return send_cdc_now(c, NULL);
}

/* Whether the server ends the TCP connection within @secs; the link's
 * completions are processed meanwhile
 */
static bool tcp_ended(struct conn *c, double secs)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	double end = now() + secs;
	uint8_t buf[256];
	ssize_t n;

	while (now() < end) {
		pump(c, 0, NULL);
		if (poll(&p, 1, 10) != 1)
			continue;
		n = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			return true;
	}
	return false;
}

/* Close as a peer would (§4.8), then end the link group (A.3.4) */
static void conn_close(struct conn *c)
{
	uint8_t m[MSG_LEN];

	if (c->qp && !c->failed) {
		c->hold_rx = false;
		send_cdc(c, c->s_token, c->tx_prod / c->s_size,
			 c->tx_prod % c->s_size, c->rx_cons / RMB_SIZE,
			 c->rx_cons % RMB_SIZE, CDC_DONE | CDC_CLOSED, NULL);
		tcp_ended(c, 5);
		llc_hdr(m, LLC_DELETE_LINK, LLC_DEL_ALL | LLC_DEL_ORDERLY);
		put32(m + 5, 0x00030000);
		m[8] = 0;
		send_msg(c, m, NULL);
		pump(c, 0.5, NULL);
	}
	conn_free(c);
}

static void send_llc(struct conn *c, uint8_t type, uint8_t flags,
		     uint8_t byte4, bool garbage)
{
	uint8_t m[MSG_LEN];

	llc_hdr(m, type, flags);
	if (garbage)
		rand_bytes(m + 4, MSG_LEN - 4);
	m[4] = byte4;
	send_msg(c, m, NULL);
}

/* the cases: what they do once the link is up */

static int c_echo(struct conn *c)
{
	return 0;
}

static int c_prod_past_rmb(struct conn *c)
{
	return send_cdc(c, c->s_token, 0, c->s_size + 100, 0, 0, 0, NULL);
}

static int c_prod_backwards(struct conn *c)
{
	if (echo(c, 200))
		return -1;
	return send_cdc(c, c->s_token, 0, 100, 0, c->rx_cons, 0, NULL);
}

static int c_prod_two_wraps(struct conn *c)
{
	return send_cdc(c, c->s_token, 2, 0, 0, 0, 0, NULL);
}

static int c_prod_over_a_wrap(struct conn *c)
{
	/* one wrap and one byte: more than the RMBE holds */
	return send_cdc(c, c->s_token, 1, 1, 0, 0, 0, NULL);
}

static int c_cons_ahead(struct conn *c)
{
	return send_cdc(c, c->s_token, 0, 0, 0, 500, 0, NULL);
}

static int c_unknown_token(struct conn *c)
{
	return send_cdc(c, c->s_token ^ 0x5a5a5a5a, 0, 100, 0, 0, 0, NULL);
}

static int c_delete_bogus_link(struct conn *c)
{
	uint8_t m[MSG_LEN];

	llc_hdr(m, LLC_DELETE_LINK, 0);
	m[4] = c->link_num + 7;
	put32(m + 5, 0x00010000);
	m[8] = 0;
	return send_msg(c, m, NULL);
}

static bool delete_answered(struct conn *c)
{
	return c->llc_seen[LLC_DELETE_LINK] || c->failed;
}

/* DELETE LINK of a link we do not have: answered "no link" (A.3.4) */
static int check_delete_bogus_link(struct conn *c)
{
	const uint8_t *r = c->llc_last[LLC_DELETE_LINK];

	if (!pump(c, bound, delete_answered) || c->failed) {
		diag("no DELETE LINK response");
		return -1;
	}
	diag("DELETE LINK response: flags 0x%02x link %u reason 0x%08x",
	     r[3], r[4], get32(r + 5));
	return (r[3] & LLC_RESP) && get32(r + 5) == LLC_DEL_NO_LINK ? 0 : -1;
}

static int c_add_link_bogus(struct conn *c)
{
	send_llc(c, LLC_ADD_LINK, 0, 0, true);
	return 0;
}

static int c_confirm_link_again(struct conn *c)
{
	send_llc(c, LLC_CONFIRM_LINK, 0, 0, true);
	return 0;
}

static int c_unknown_llc(struct conn *c)
{
	send_llc(c, 0x2a, 0, 0, true);
	send_llc(c, 0x80, LLC_RESP, 0, true);
	return 0;
}

/*
 * Stop reposting receives and let the answers to TEST LINK requests of
 * ours use up the posted ones: the server's next Send stalls (RNR)
 */
static void rx_use_up(struct conn *c)
{
	int i;

	c->hold_rx = true;
	/* in rounds: the server keeps a few requests to answer at a time */
	for (i = 0; i < 4 * NRX && c->rx_held < NRX && !c->failed; i++) {
		send_llc(c, LLC_TEST_LINK, 0, i, true);
		if (i % 4 == 3)
			pump(c, 0.3, NULL);
	}
	pump(c, 0.5, NULL);
	diag("%d receives used up", c->rx_held);
}

/* post the held receives again: what the server stalled lands now */
static void rx_release(struct conn *c)
{
	c->hold_rx = false;
	while (c->rx_held)
		post_recv(c, c->held[--c->rx_held]);
}

/*
 * 2000 TEST LINK requests while none of the server's answers can land:
 * what the server queues for us is bounded, and the host's other
 * connections and handshakes go on (--stall-cmd)
 */
static int c_llc_flood(struct conn *c)
{
	int i, rc = 0;
	double t0;

	c->hold_rx = true;
	for (i = 0; i < 2000 && !c->failed; i++)
		send_llc(c, LLC_TEST_LINK, 0, i, true);
	pump(c, 1, NULL);
	diag("flood: 2000 TEST LINK sent, %u answers landed, %d receives held",
	     c->llc_seen[LLC_TEST_LINK], c->rx_held);
	if (stall_cmd) {
		t0 = now();
		rc = system(stall_cmd);
		t0 = now() - t0;
		diag("--stall-cmd: exit status %d after %.1f s, the answers stalled",
		     rc, t0);
		rc = rc || t0 > bound ? -1 : 0;
	}
	rx_release(c);
	return rc;
}

/* our receives run out and stay out: the server's probes go unanswered */
static int c_rx_withheld(struct conn *c)
{
	rx_use_up(c);
	return write_data(c, 10);
}

/*
 * The server closes first (we are done writing, its echo sees the end),
 * its last echo stalled behind a Send we have no receive for; then our
 * close, and a burst of CDC messages while its close work waits for
 * those writes: each wakes the close work again (review finding 2)
 */
static int c_cdc_after_close(struct conn *c)
{
	int i;

	rx_use_up(c);
	if (write_data(c, 100))
		return -1;
	pump(c, 0.5, NULL);
	send_cdc(c, c->s_token, c->tx_prod / c->s_size,
		 c->tx_prod % c->s_size, 0, 0, CDC_DONE, NULL);
	pump(c, 1, NULL);
	for (i = 0; i < 50 && !c->failed; i++) {
		send_cdc(c, c->s_token, c->tx_prod / c->s_size,
			 c->tx_prod % c->s_size, 0, 0, CDC_DONE | CDC_CLOSED, NULL);
		pump(c, 0.1, NULL);
	}
	rx_release(c);
	return 0;
}

/*
 * A link in use needs no probe (§4.5.3): we answer none of the server's
 * TEST LINK requests but echo data every half second for four of its
 * probe intervals; the link must carry on
 */
static int c_busy_unprobed(struct conn *c)
{
	double end = now() + 12;

	c->answer_tests = false;
	while (now() < end)
		if (echo(c, 100) || !pump(c, 0.5, NULL))
			return -1;
	c->answer_tests = true;
	diag("%u TEST LINK requests left unanswered meanwhile",
	     c->llc_seen[LLC_TEST_LINK]);
	return 0;
}

/*
 * The server's last writes wait behind a Send we have no receive for
 * while its socket closes; once its close gave up waiting for them, our
 * receives come back and the writes go out of its send buffer. Whatever
 * lands must be what the server echoed (review finding 3: the buffer was
 * freed under the writes). Run with the server's TEST LINK off, or its
 * probe ends the stall first.
 */
static int c_stall_resume(struct conn *c)
{
	uint64_t i;
	uint8_t b;

	rx_use_up(c);
	/* the first echo's Send stalls, the second's writes queue behind */
	if (write_data(c, 1000))
		return -1;
	pump(c, 0.5, NULL);
	if (write_data(c, 1000))
		return -1;
	pump(c, 0.5, NULL);
	send_cdc(c, c->s_token, c->tx_prod / c->s_size,
		 c->tx_prod % c->s_size, 0, 0, CDC_DONE | CDC_CLOSED, NULL);
	/* past the server's wait for its writes at close (5 s) */
	pump(c, 8, NULL);
	rx_release(c);
	c->want_rx = c->tx_prod;
	pump(c, bound, rx_arrived);
	diag("%llu of %llu bytes came back after the stall",
	     (unsigned long long)c->rx_prod, (unsigned long long)c->tx_prod);
	for (i = 0; i < c->rx_prod && i < RMB_SIZE; i++) {
		b = c->rmb[i];
		if (b != pat(c->token, i)) {
			diag("byte %llu back is 0x%02x, not 0x%02x",
			     (unsigned long long)i, b, pat(c->token, i));
			return -1;
		}
	}
	return 0;
}

/*
 * App. C.2: until its CONFIRM LINK response is out, a client may still
 * decline, and the connection goes on over TCP: the server's echo of
 * what we send there is checked
 */
static int c_confirm_link_declined(struct conn *c)
{
	uint8_t d[CLC_DECLINE_LEN] = {}, out[100], back[sizeof(out)];
	size_t i;

	if (!pump(c, bound, confirm_link_seen) || c->failed) {
		diag("no CONFIRM LINK from the server");
		return -1;
	}
	/* A.2.5 */
	memcpy(d, EYE, 4);
	d[4] = CLC_DECLINE;
	put16(d + 5, sizeof(d));
	d[7] = CLC_V1;
	memcpy(d + 8, c->peer_id, 8);
	put32(d + 16, CLC_DECL_TIMEOUT_CL);
	memcpy(d + sizeof(d) - 4, EYE, 4);
	for (i = 0; i < sizeof(out); i++)
		out[i] = pat(c->token, i);
	if (send(c->fd, d, sizeof(d), 0) != sizeof(d) ||
	    send(c->fd, out, sizeof(out), 0) != sizeof(out) ||
	    tcp_read(c->fd, back, sizeof(back))) {
		diag("no echo over TCP after our Decline");
		return -1;
	}
	if (memcmp(out, back, sizeof(out))) {
		diag("the echo over TCP differs");
		return -1;
	}
	return 0;
}

static int c_write_past_rmb(struct conn *c)
{
	uint8_t *stage = c->tx + NTX * SLOT;
	struct ibv_sge sge = { (uintptr_t)stage, 64, c->tx_mr->lkey };
	struct ibv_send_wr w = {
		.opcode = IBV_WR_RDMA_WRITE, .sg_list = &sge, .num_sge = 1,
	};

	w.wr.rdma.remote_addr = c->s_addr + c->s_size;
	w.wr.rdma.rkey = c->s_rkey;
	return send_cdc_now(c, &w);
}

static int c_bad_rkey(struct conn *c)
{
	/* the server's echo goes to our RMB with the rkey we spoiled */
	return write_data(c, 100);
}

/* TCP: the case's action checked the connection, fallen back to TCP */
enum want { WORKS, ENDS, EITHER, TCP };

static const struct hcase {
	const char *name;
	const char *what;
	int (*act)(struct conn *c);
	int (*check)(struct conn *c);
	enum want want;
	enum stop_at stop;
	uint32_t rkey_xor;
	bool named;		/* run only when named */
} cases[] = {
	{ "echo", "a well-behaved connection",
	  c_echo, NULL, WORKS, STOP_ACTIVE, 0, false },
	{ "prod-past-rmb", "CDC producer cursor past the RMB's end",
	  c_prod_past_rmb, NULL, ENDS, STOP_ACTIVE, 0, false },
	{ "prod-backwards", "CDC producer cursor moved backwards",
	  c_prod_backwards, NULL, ENDS, STOP_ACTIVE, 0, false },
	{ "prod-two-wraps", "CDC producer cursor two wraps ahead",
	  c_prod_two_wraps, NULL, ENDS, STOP_ACTIVE, 0, false },
	{ "prod-over-a-wrap", "CDC producer cursor a wrap and a byte ahead",
	  c_prod_over_a_wrap, NULL, ENDS, STOP_ACTIVE, 0, false },
	{ "cons-ahead", "CDC consumer cursor past anything sent",
	  c_cons_ahead, NULL, ENDS, STOP_ACTIVE, 0, false },
	{ "unknown-token", "CDC for an alert token that does not exist",
	  c_unknown_token, NULL, WORKS, STOP_ACTIVE, 0, false },
	{ "delete-bogus-link", "DELETE LINK of a link that does not exist",
	  c_delete_bogus_link, check_delete_bogus_link, WORKS, STOP_ACTIVE, 0,
	  false },
	{ "add-link-bogus", "ADD LINK full of garbage",
	  c_add_link_bogus, NULL, WORKS, STOP_ACTIVE, 0, false },
	{ "confirm-link-again", "CONFIRM LINK on an active link",
	  c_confirm_link_again, NULL, WORKS, STOP_ACTIVE, 0, false },
	{ "unknown-llc", "LLC messages of unknown types",
	  c_unknown_llc, NULL, WORKS, STOP_ACTIVE, 0, false },
	{ "llc-flood", "2000 TEST LINK with the answers stalled",
	  c_llc_flood, NULL, EITHER, STOP_ACTIVE, 0, false },
	{ "rx-withheld", "no receive posted any more",
	  c_rx_withheld, NULL, ENDS, STOP_ACTIVE, 0, false },
	{ "busy-unprobed", "TEST LINK unanswered while data flows",
	  c_busy_unprobed, NULL, WORKS, STOP_ACTIVE, 0, false },
	{ "cdc-after-close", "CDC messages after our close, the server's stalled",
	  c_cdc_after_close, NULL, ENDS, STOP_ACTIVE, 0, false },
	{ "confirm-link-unanswered", "CONFIRM LINK never answered",
	  c_echo, NULL, ENDS, STOP_CONFIRM_LINK, 0, false },
	{ "confirm-link-declined", "a Decline in lieu of the CONFIRM LINK response",
	  c_confirm_link_declined, NULL, TCP, STOP_CONFIRM_LINK, 0, false },
	{ "write-past-rmb", "RDMA write past the server's RMB",
	  c_write_past_rmb, NULL, ENDS, STOP_ACTIVE, 0, false },
	{ "bad-rkey", "a wrong rkey for our RMB in the CLC Confirm",
	  c_bad_rkey, NULL, ENDS, STOP_ACTIVE, 0x5a00, false },
	{ "stall-resume", "the server's last writes stalled past its close",
	  c_stall_resume, NULL, ENDS, STOP_ACTIVE, 0, true },
};

static void run_case(const struct hcase *k)
{
	static const char *const wants[] = {
		"works", "ends", "either", "works over TCP"
	};
	struct conn c;
	const char *got = "";
	double t0;
	bool ok;

	c.fd = -1;
	if (conn_open(&c, k->stop, k->rkey_xor)) {
		ok = false;
		got = "the handshake failed";
		goto out;
	}
	t0 = now();
	if (k->act(&c)) {
		ok = false;
		got = "the case failed (see above)";
	} else if (k->want == TCP) {
		ok = true;
		got = wants[TCP];
	} else if (k->want == ENDS) {
		ok = tcp_ended(&c, bound);
		got = ok ? "ended" : "still open";
	} else if (tcp_ended(&c, 0.2)) {
		ok = k->want == EITHER;
		got = "ended";
	} else {
		ok = (!k->check || !k->check(&c)) && !echo(&c, 300);
		got = ok ? "works" : "broken";
		if (!ok && k->want == EITHER && tcp_ended(&c, bound)) {
			ok = true;
			got = "ended";
		}
	}
	diag("%s: %s: expected %s, %s after %.1f s", k->name, k->what,
	     wants[k->want], got, now() - t0);
out:
	printf("%sok - hostile-rdma: %s\n", ok ? "" : "not ", k->name);
	fflush(stdout);
	failures += !ok;
	conn_close(&c);
}

static void usage(void)
{
	size_t i;

	fputs("smc_hostile_rdma --host IP --port P --ip OURIP [--dev D]\n"
	      "                 [--bound S] [--stall-cmd CMD] [CASE...]\ncases:",
	      stderr);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		fprintf(stderr, " %s", cases[i].name);
	fprintf(stderr, "\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "host", required_argument, NULL, 'h' },
		{ "port", required_argument, NULL, 'p' },
		{ "ip", required_argument, NULL, 'i' },
		{ "dev", required_argument, NULL, 'd' },
		{ "bound", required_argument, NULL, 'b' },
		{ "stall-cmd", required_argument, NULL, 's' },
		{}
	};
	const char *host = NULL, *ip = NULL, *name = "rxe0";
	int port = 0, o, j;
	size_t i;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'h':
			host = optarg;
			break;
		case 'p':
			port = atoi(optarg);
			break;
		case 'i':
			ip = optarg;
			break;
		case 'd':
			name = optarg;
			break;
		case 'b':
			bound = atof(optarg);
			break;
		case 's':
			stall_cmd = optarg;
			break;
		default:
			usage();
		}
	}
	if (!host || !ip || !port)
		usage();
	srandom(getpid() ^ time(NULL));
	server.sin_family = AF_INET;
	server.sin_port = htons(port);
	if (inet_pton(AF_INET, host, &server.sin_addr) != 1 ||
	    inet_pton(AF_INET, ip, &prefix_addr) != 1)
		usage();
	prefix_addr &= htonl(~0u << (32 - prefix_len));
	if (dev_open(name, ip)) {
		printf("not ok - hostile-rdma: open %s with a RoCE v2 GID for %s\n",
		       name, ip);
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		for (j = optind; j < argc; j++)
			if (!strcmp(argv[j], cases[i].name))
				break;
		if (j == argc && (optind < argc || cases[i].named))
			continue;
		run_case(&cases[i]);
	}
	return failures ? 1 : 0;
}
