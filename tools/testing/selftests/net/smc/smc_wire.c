// SPDX-License-Identifier: GPL-2.0
/*
 * smc_wire: check the SMC-R wire format of one connection by capture.
 *
 * An AF_PACKET socket captures the packets of one TCP connection (the one
 * to the test's port) on an interface, reassembles both byte streams and
 * checks the SMC experimental TCP option (kind 254, length 6, ExID
 * E2 D4 C3 D9) in the SYN and SYN-ACK, the CLC messages at the start of
 * each stream, and that exactly the application bytes follow them.
 *
 * Modes (TAP output, exit status 1 on any failure):
 *   --mode loopback    AF_SMC client and server in this process: option
 *                      in SYN and SYN-ACK, client Decline (no Proposal),
 *                      nothing from the server, then the data
 *   --mode tcp-server  AF_SMC client, plain TCP server: option in the SYN
 *                      only, no CLC bytes
 *   --mode tcp-client  plain TCP client, AF_SMC server: no option, no CLC
 *   --mode remote --peer IP --port P
 *                      AF_SMC client to a remote SMC server that echoes
 *                      (smc_peer server --echo); capture on --iface (eth0):
 *                      option both ways, client Proposal (GID, MAC, IP
 *                      area checked), server Decline, then the data
 * Options:
 *   --ipv6             use ::1 in the local modes
 *   --iface IF         capture interface (lo; eth0 for remote)
 *   --port P           server port (local modes: ephemeral by default)
 *   --bytes N          application bytes per direction (default 20000)
 *   --expect-decline CODE|any   Decline reason code (default 0x03030002)
 *   --clc-version N|any         CLC version expected (default 1)
 *   --gid-from DEV     the Proposal's GID must be one of DEV's GIDs
 *   --prefix CIDR      the Proposal's IP area must carry this prefix
 *   --family smc|tcp   client family (remote mode; tcp: expect no CLC)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "smc_common.h"

#define TCPOPT_SMC		254
#define TCPOLEN_SMC		6
#define STREAM_MAX		(4 << 20)
#define PKT_MAX			(70 * 1024)

static const uint8_t smc_eye[4] = { 0xe2, 0xd4, 0xc3, 0xd9 };

enum mode { M_LOOPBACK, M_TCP_SERVER, M_TCP_CLIENT, M_REMOTE };

static const char * const mode_names[] = {
	"loopback", "tcp-server", "tcp-client", "remote",
};

struct opts {
	enum mode mode;
	bool ipv6;
	bool client_tcp;
	const char *iface;
	const char *peer;
	uint16_t port;
	size_t bytes;
	bool decline_any;
	uint32_t decline;
	int clc_version;	/* -1: any */
	const char *gid_from;
	const char *prefix;
};

/* one direction of the captured connection */
struct stream {
	bool syn_seen;
	bool smc_opt;
	uint32_t isn;
	uint8_t *data;
	uint8_t *have;		/* per byte: received */
	size_t len;		/* highest offset + 1 */
	bool fin;
	size_t fin_off;
	int pkts;
};

static struct opts o = {
	.bytes = 20000, .decline = 0x03030002, .clc_version = 1,
};

static int failures;
static char tag[96];

static void ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s - wire %s: ", cond ? "ok" : "not ok", tag);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		failures++;
}

static void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void hexdump(const char *what, const uint8_t *p, size_t n)
{
	char line[80];
	size_t i, l = 0;

	if (n > 96)
		n = 96;
	for (i = 0; i < n; i++) {
		l += snprintf(line + l, sizeof(line) - l, "%02x ", p[i]);
		if ((i & 15) == 15 || i + 1 == n) {
			diag("%s %04zx: %s", what, i & ~(size_t)15, line);
			l = 0;
		}
	}
}

/* ---- capture ---- */

static int cap_open(const char *ifname)
{
	struct sockaddr_ll sll = { 0 };
	int fd, sz = 64 << 20;

	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(ETH_P_ALL));
	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = if_nametoindex(ifname);
	if (!sll.sll_ifindex || bind(fd, (struct sockaddr *)&sll,
				     sizeof(sll))) {
		close(fd);
		return -1;
	}
	return fd;
}

static bool tcp_has_smc_opt(const uint8_t *opt, size_t len)
{
	size_t i = 0;

	while (i < len) {
		if (opt[i] == TCPOPT_EOL)
			break;
		if (opt[i] == TCPOPT_NOP) {
			i++;
			continue;
		}
		if (i + 1 >= len || opt[i + 1] < 2 || i + opt[i + 1] > len)
			break;
		if (opt[i] == TCPOPT_SMC && opt[i + 1] == TCPOLEN_SMC &&
		    !memcmp(opt + i + 2, smc_eye, 4))
			return true;
		i += opt[i + 1];
	}
	return false;
}

struct conn {
	uint16_t sport;		/* server port */
	uint16_t cport;		/* client port, 0 until its SYN */
	struct stream s[2];	/* 0: client to server, 1: server to client */
	bool synack_seen;
	bool synack_smc;
};

static void stream_add(struct stream *st, uint32_t seq, const uint8_t *p,
		       size_t n, bool fin)
{
	size_t off = (uint32_t)(seq - st->isn - 1);

	st->pkts++;
	if (n && off + n <= STREAM_MAX) {
		memcpy(st->data + off, p, n);
		memset(st->have + off, 1, n);
		if (off + n > st->len)
			st->len = off + n;
	}
	if (fin) {
		st->fin = true;
		st->fin_off = off + n;
	}
}

static void handle_pkt(struct conn *c, const uint8_t *pkt, size_t len,
		       bool is_lo, int pkttype)
{
	const uint8_t *l4;
	size_t l4len, doff, plen;
	uint16_t sp, dp, eth;
	uint32_t seq;
	uint8_t fl;
	int dir;

	/* loopback shows each packet twice: keep the received copy */
	if (is_lo && pkttype == PACKET_OUTGOING)
		return;
	if (len < 14)
		return;
	eth = (uint16_t)(pkt[12] << 8 | pkt[13]);
	pkt += 14;
	len -= 14;
	if (eth == ETH_P_IP) {
		size_t ihl, tot;

		if (len < 20 || pkt[9] != IPPROTO_TCP)
			return;
		ihl = (pkt[0] & 15) * 4;
		tot = (size_t)(pkt[2] << 8 | pkt[3]);
		if (tot > len || tot < ihl)
			tot = len;
		l4 = pkt + ihl;
		l4len = tot - ihl;
	} else if (eth == ETH_P_IPV6) {
		size_t pl;

		if (len < 40 || pkt[6] != IPPROTO_TCP)
			return;
		pl = (size_t)(pkt[4] << 8 | pkt[5]);
		if (pl + 40 > len)
			pl = len - 40;
		l4 = pkt + 40;
		l4len = pl;
	} else {
		return;
	}
	if (l4len < 20)
		return;
	sp = (uint16_t)(l4[0] << 8 | l4[1]);
	dp = (uint16_t)(l4[2] << 8 | l4[3]);
	seq = (uint32_t)l4[4] << 24 | l4[5] << 16 | l4[6] << 8 | l4[7];
	doff = (l4[12] >> 4) * 4;
	fl = l4[13];
	if (doff < 20 || doff > l4len)
		return;
	if (dp == c->sport)
		dir = 0;
	else if (sp == c->sport)
		dir = 1;
	else
		return;
	if (dir == 0 && (fl & TH_SYN) && !(fl & TH_ACK)) {
		/* the first SYN picks the connection */
		if (c->cport && c->cport != sp)
			return;
		c->cport = sp;
		c->s[0].syn_seen = true;
		c->s[0].isn = seq;
		c->s[0].smc_opt = tcp_has_smc_opt(l4 + 20, doff - 20);
		return;
	}
	if (!c->cport || (dir == 0 ? sp : dp) != c->cport)
		return;
	if (dir == 1 && (fl & TH_SYN)) {
		c->synack_seen = true;
		c->s[1].syn_seen = true;
		c->s[1].isn = seq;
		c->synack_smc = tcp_has_smc_opt(l4 + 20, doff - 20);
		return;
	}
	if (!c->s[dir].syn_seen || (fl & TH_RST))
		return;
	plen = l4len - doff;
	stream_add(&c->s[dir], seq, l4 + doff, plen, fl & TH_FIN);
}

/* read captured packets until @ms of silence after both FINs (or @max) */
static void cap_drain(int fd, struct conn *c, bool is_lo, int quiet_ms,
		      int max_ms)
{
	long long end = smc_now_ms() + max_ms, last = smc_now_ms();
	struct sockaddr_ll sll;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	socklen_t sl;
	uint8_t *buf;
	ssize_t n;

	buf = malloc(PKT_MAX);
	if (!buf)
		return;
	while (smc_now_ms() < end) {
		sl = sizeof(sll);
		n = recvfrom(fd, buf, PKT_MAX, MSG_TRUNC,
			     (struct sockaddr *)&sll, &sl);
		if (n > 0) {
			if (n > PKT_MAX)
				n = PKT_MAX;
			handle_pkt(c, buf, n, is_lo, sll.sll_pkttype);
			last = smc_now_ms();
			continue;
		}
		if (c->s[0].fin && c->s[1].fin &&
		    smc_now_ms() - last > quiet_ms)
			break;
		poll(&p, 1, 50);
	}
	free(buf);
}

static void cap_flush(int fd)
{
	uint8_t buf[2048];

	while (recv(fd, buf, sizeof(buf), 0) > 0)
		;
}

/* ---- application side ---- */

/* read until EOF into @buf (at most @max); returns the count or -1 */
static ssize_t read_eof(int fd, uint8_t *buf, size_t max)
{
	size_t got = 0;
	ssize_t n;

	for (;;) {
		n = recv(fd, buf + got, max - got ? max - got : 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			return got;
		if (got + n > max)
			return -1;
		got += n;
	}
}

#define SEED_C2S	0xc2500001ull
#define SEED_S2C	0x52c00002ull

struct server_arg {
	int lfd;
	size_t bytes;
	ssize_t got;
	bool data_ok;
	int err;
};

/* local server: read the client's data until EOF, then send ours */
static void *server_fn(void *arg)
{
	struct server_arg *sa = arg;
	uint8_t *in, *out;
	int fd;

	in = malloc(sa->bytes + 1);
	out = malloc(sa->bytes + 1);
	fd = accept(sa->lfd, NULL, NULL);
	if (fd < 0 || !in || !out) {
		sa->err = errno;
		goto out;
	}
	smc_set_timeouts(fd, 30000);
	sa->got = read_eof(fd, in, sa->bytes);
	smc_pat_fill(SEED_C2S, 0, out, sa->bytes);
	sa->data_ok = sa->got == (ssize_t)sa->bytes &&
		      !memcmp(in, out, sa->bytes);
	smc_pat_fill(SEED_S2C, 0, out, sa->bytes);
	if (smc_write_all(fd, out, sa->bytes))
		sa->err = errno;
	close(fd);
out:
	free(in);
	free(out);
	return NULL;
}

/*
 * Run the client and (in the local modes) the server; fills @c->sport.
 * Returns 0 when the applications exchanged their data intact.
 */
static int run_apps(struct conn *c)
{
	int family, lfd = -1, fd, one = 1;
	struct server_arg sa = { .bytes = o.bytes };
	bool local = o.mode != M_REMOTE;
	struct sockaddr_storage ss;
	uint8_t *out, *in;
	socklen_t alen;
	pthread_t th;
	ssize_t got;
	int ret = -1;

	out = malloc(o.bytes + 1);
	in = malloc(o.bytes + 1);
	if (!out || !in)
		return -1;
	if (local) {
		alen = smc_make_addr(o.ipv6 ? "::1" : "127.0.0.1", o.port, &ss);
		family = ss.ss_family;
		lfd = smc_stream_socket(o.mode != M_TCP_SERVER, family);
		if (lfd < 0) {
			ok(false, "server socket: %s", strerror(errno));
			goto out;
		}
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(lfd, (struct sockaddr *)&ss, alen) ||
		    listen(lfd, 4)) {
			ok(false, "server bind/listen: %s", strerror(errno));
			goto out;
		}
		alen = sizeof(ss);
		getsockname(lfd, (struct sockaddr *)&ss, &alen);
		sa.lfd = lfd;
		if (pthread_create(&th, NULL, server_fn, &sa))
			goto out;
	} else {
		alen = smc_make_addr(o.peer, o.port, &ss);
		family = ss.ss_family;
	}
	c->sport = smc_addr_port(&ss);

	fd = smc_stream_socket(o.mode != M_TCP_CLIENT && !o.client_tcp, family);
	if (fd < 0) {
		ok(false, "client socket: %s", strerror(errno));
		goto join;
	}
	smc_set_timeouts(fd, 30000);
	if (connect(fd, (struct sockaddr *)&ss, alen)) {
		ok(false, "connect: %s", strerror(errno));
		close(fd);
		goto join;
	}
	smc_pat_fill(SEED_C2S, 0, out, o.bytes);
	if (local) {
		if (smc_write_all(fd, out, o.bytes) || shutdown(fd, SHUT_WR)) {
			ok(false, "client send: %s", strerror(errno));
			close(fd);
			goto join;
		}
		got = read_eof(fd, in, o.bytes);
		smc_pat_fill(SEED_S2C, 0, out, o.bytes);
	} else {
		/* the remote server echoes: send, read it all back, close */
		if (smc_write_all(fd, out, o.bytes)) {
			ok(false, "client send: %s", strerror(errno));
			close(fd);
			goto join;
		}
		got = recv(fd, in, o.bytes, MSG_WAITALL);
		shutdown(fd, SHUT_WR);
		if (got == (ssize_t)o.bytes && recv(fd, in + got, 1, 0))
			got = -1;	/* more than expected */
	}
	close(fd);
	ok(got == (ssize_t)o.bytes && !memcmp(in, out, o.bytes),
	   "client received the %zu application bytes intact", o.bytes);
	ret = got == (ssize_t)o.bytes && !memcmp(in, out, o.bytes) ? 0 : -1;
join:
	if (local) {
		if (ret)
			shutdown(lfd, SHUT_RDWR);
		pthread_join(th, NULL);
		ok(sa.data_ok && !sa.err,
		   "server received the %zu application bytes intact",
		   o.bytes);
		if (!sa.data_ok || sa.err)
			ret = -1;
	}
out:
	if (lfd >= 0)
		close(lfd);
	free(out);
	free(in);
	return ret;
}

/* ---- CLC checks ---- */

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/*
 * Check the CLC header at @p (stream of @avail bytes) for @type.
 * Returns the message length, or 0 if the header is not acceptable.
 */
static size_t clc_header(const uint8_t *p, size_t avail, int type,
			 const char *who)
{
	size_t len;
	int ver;

	if (avail < 8) {
		ok(false, "%s: CLC header present (%zu bytes in stream)", who,
		   avail);
		return 0;
	}
	ok(!memcmp(p, smc_eye, 4), "%s: CLC eyecatcher E2D4C3D9", who);
	ok(p[4] == type, "%s: CLC type %d (got %d)", who, type, p[4]);
	len = be16(p + 5);
	ver = p[7] >> 4;
	ok(len >= 12 && len <= avail,
	   "%s: CLC length field %zu fits the %zu bytes on the wire", who,
	   len, avail);
	ok(o.clc_version < 0 || ver == o.clc_version,
	   "%s: CLC version %d (expected %d)", who, ver, o.clc_version);
	if (memcmp(p, smc_eye, 4) || p[4] != type || len < 12 ||
	    len > avail) {
		hexdump(who, p, avail);
		return 0;
	}
	ok(!memcmp(p + len - 4, smc_eye, 4), "%s: CLC trailer eyecatcher",
	   who);
	return len;
}

static size_t check_decline(const uint8_t *p, size_t avail, const char *who)
{
	size_t len = clc_header(p, avail, 4, who);
	uint32_t code;

	if (!len)
		return 0;
	if (len < 24) {
		ok(false, "%s: Decline long enough for the reason code", who);
		return len;
	}
	code = be32(p + 16);
	if (o.decline_any)
		ok(true, "%s: Decline reason 0x%08x (any accepted)", who, code);
	else
		ok(code == o.decline,
		   "%s: Decline reason 0x%08x (expected 0x%08x)", who, code,
		   o.decline);
	if ((p[7] >> 4) == 1)
		ok(len == 28, "%s: v1 Decline is 28 bytes (got %zu)", who, len);
	return len;
}

static int parse_gid(const char *s, uint8_t *gid)
{
	unsigned int g[8];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x:%x:%x", &g[0], &g[1], &g[2], &g[3],
		   &g[4], &g[5], &g[6], &g[7]) != 8)
		return -1;
	for (i = 0; i < 8; i++) {
		gid[2 * i] = g[i] >> 8;
		gid[2 * i + 1] = g[i];
	}
	return 0;
}

static bool gid_of_dev(const char *dev, const uint8_t *gid, int *nseen)
{
	static const uint8_t zero[16];
	char path[600], line[128];
	struct dirent *de;
	uint8_t g[16];
	bool found = false;
	DIR *d;
	FILE *f;

	*nseen = 0;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/1/gids",
		 dev);
	d = opendir(path);
	if (!d)
		return false;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path),
			 "/sys/class/infiniband/%s/ports/1/gids/%s", dev,
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) && !parse_gid(line, g) &&
		    memcmp(g, zero, 16)) {
			(*nseen)++;
			if (!memcmp(g, gid, 16))
				found = true;
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

static int iface_mac(const char *ifname, uint8_t *mac)
{
	unsigned int m[6];
	char path[128];
	FILE *f;
	int i, n;

	snprintf(path, sizeof(path), "/sys/class/net/%s/address", ifname);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3], &m[4],
		   &m[5]);
	fclose(f);
	if (n != 6)
		return -1;
	for (i = 0; i < 6; i++)
		mac[i] = m[i];
	return 0;
}

static size_t check_proposal(const uint8_t *p, size_t avail)
{
	const char *who = "client Proposal";
	size_t len = clc_header(p, avail, 1, who), ipa, want_len;
	char gbuf[64], pbuf[64];
	uint8_t mac[6];
	int nv6, i, n;
	uint16_t off;

	if (!len)
		return 0;
	if (len < 40 + 8 + 4) {
		ok(false, "%s: at least 52 bytes (got %zu)", who, len);
		return len;
	}
	if ((p[7] >> 4) == 1)
		ok((p[7] & 3) == 0, "%s: v1 path type SMC-R (got %d)", who,
		   p[7] & 3);
	inet_ntop(AF_INET6, p + 16, gbuf, sizeof(gbuf));
	diag("%s: peer id %02x%02x:%02x:%02x:%02x:%02x:%02x:%02x GID %s",
	     who, p[8], p[9], p[10], p[11], p[12], p[13], p[14], p[15], gbuf);
	if (o.gid_from) {
		bool found = gid_of_dev(o.gid_from, p + 16, &n);

		ok(found, "%s: GID %s is one of the %d GIDs of %s", who, gbuf,
		   n, o.gid_from);
	}
	if (!iface_mac(o.iface, mac))
		ok(!memcmp(mac, p + 32, 6),
		   "%s: MAC %02x:%02x:%02x:%02x:%02x:%02x is %s's", who,
		   p[32], p[33], p[34], p[35], p[36], p[37], o.iface);
	off = be16(p + 38);
	ipa = 40 + off;
	if (ipa + 8 + 4 > len) {
		ok(false, "%s: IP area offset %u inside the message", who, off);
		return len;
	}
	nv6 = p[ipa + 7];
	want_len = ipa + 8 + 17 * nv6 + 4;
	ok(want_len == len,
	   "%s: IP area offset %u and %d IPv6 prefixes account for length %zu (got %zu)",
	   who, off, nv6, want_len, len);
	inet_ntop(AF_INET, p + ipa, pbuf, sizeof(pbuf));
	diag("%s: IPv4 prefix %s/%u, %d IPv6 prefixes", who, pbuf,
	     p[ipa + 4], nv6);
	for (i = 0; i < nv6 && ipa + 8 + 17 * (i + 1) <= len - 4; i++) {
		inet_ntop(AF_INET6, p + ipa + 8 + 17 * i, gbuf, sizeof(gbuf));
		diag("%s: IPv6 prefix %s/%u", who, gbuf,
		     p[ipa + 8 + 17 * i + 16]);
	}
	if (o.prefix) {
		char pfx[64];
		unsigned int plen = 0;
		uint8_t want[16];
		bool found = false;

		if (sscanf(o.prefix, "%63[^/]/%u", pfx, &plen) != 2)
			plen = 999;
		if (inet_pton(AF_INET, pfx, want) == 1) {
			found = !memcmp(p + ipa, want, 4) && p[ipa + 4] == plen;
		} else if (inet_pton(AF_INET6, pfx, want) == 1) {
			for (i = 0; i < nv6 && want_len == len; i++)
				if (!memcmp(p + ipa + 8 + 17 * i, want, 16) &&
				    p[ipa + 8 + 17 * i + 16] == plen)
					found = true;
		}
		ok(found, "%s: IP area carries prefix %s", who, o.prefix);
	}
	return len;
}

/* the stream from @off on must be exactly the pattern @seed, o.bytes long */
static void check_app_bytes(const struct stream *st, size_t off,
			    uint64_t seed, const char *who)
{
	uint8_t *exp = malloc(o.bytes + 1);
	size_t i, holes = 0, end = off + o.bytes;

	if (!exp)
		return;
	for (i = 0; i < st->len; i++)
		if (!st->have[i])
			holes++;
	smc_pat_fill(seed, 0, exp, o.bytes);
	ok(!holes, "%s: stream captured without holes (%d packets)", who,
	   st->pkts);
	ok(st->len == end && st->fin && st->fin_off == end,
	   "%s: exactly %zu application bytes after %zu CLC bytes (stream %zu bytes%s)",
	   who, o.bytes, off, st->len, st->fin ? ", FIN seen" : ", no FIN");
	ok(st->len >= end && !memcmp(st->data + off, exp, o.bytes),
	   "%s: application bytes on the wire are the ones sent", who);
	if (st->len && (st->len < end || memcmp(st->data + off, exp, o.bytes)))
		hexdump(who, st->data, st->len);
	free(exp);
}

static void analyze(struct conn *c)
{
	struct stream *cs = &c->s[0], *ss = &c->s[1];
	bool smc_client = o.mode != M_TCP_CLIENT && !o.client_tcp;
	bool smc_server = o.mode != M_TCP_SERVER;
	bool clc = smc_client && smc_server;
	size_t coff = 0, soff = 0;

	ok(cs->syn_seen, "SYN captured (client port %u -> %u)", c->cport,
	   c->sport);
	ok(c->synack_seen, "SYN-ACK captured");
	if (!cs->syn_seen || !c->synack_seen)
		return;
	ok(cs->smc_opt == smc_client,
	   "SYN %s the SMC option (kind 254, ExID E2D4C3D9)",
	   smc_client ? "carries" : "does not carry");
	ok(c->synack_smc == clc, "SYN-ACK %s the SMC option",
	   clc ? "carries" : "does not carry");
	if (!clc) {
		ok(cs->len < 4 || memcmp(cs->data, smc_eye, 4),
		   "client stream has no CLC eyecatcher");
		ok(ss->len < 4 || memcmp(ss->data, smc_eye, 4),
		   "server stream has no CLC eyecatcher");
	} else if (o.mode == M_LOOPBACK) {
		/* no RDMA device behind lo: a Decline in lieu of a Proposal */
		coff = check_decline(cs->data, cs->len, "client Decline");
		ok(ss->len < 4 || memcmp(ss->data, smc_eye, 4),
		   "server sends no CLC message after the client's Decline");
	} else {
		coff = check_proposal(cs->data, cs->len);
		soff = check_decline(ss->data, ss->len, "server Decline");
		if (coff && cs->len >= coff + 4)
			ok(memcmp(cs->data + coff, smc_eye, 4),
			   "client sends no further CLC message after the Decline");
	}
	check_app_bytes(cs, coff, SEED_C2S, "client->server");
	check_app_bytes(ss, soff, o.mode == M_REMOTE ? SEED_C2S : SEED_S2C,
			"server->client");
}

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s --mode loopback|tcp-server|tcp-client [--ipv6] [--iface IF]\n"
		"          [--port P] [--bytes N] [--expect-decline CODE|any]\n"
		"          [--clc-version N|any]\n"
		"       %s --mode remote --peer IP --port P [--iface eth0]\n"
		"          [--expect-decline CODE|any] [--gid-from DEV]\n"
		"          [--prefix CIDR] [--family smc|tcp] [--bytes N]\n",
		prog, prog);
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "ipv6", no_argument, NULL, '6' },
		{ "iface", required_argument, NULL, 'i' },
		{ "peer", required_argument, NULL, 'P' },
		{ "port", required_argument, NULL, 'p' },
		{ "bytes", required_argument, NULL, 'b' },
		{ "expect-decline", required_argument, NULL, 'd' },
		{ "clc-version", required_argument, NULL, 'v' },
		{ "gid-from", required_argument, NULL, 'g' },
		{ "prefix", required_argument, NULL, 'x' },
		{ "family", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	bool have_mode = false;
	struct conn c;
	int opt, fd, i;

	while ((opt = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			for (i = 0; i < 4; i++)
				if (!strcmp(optarg, mode_names[i]))
					break;
			if (i == 4)
				print_usage(argv[0]);
			o.mode = i;
			have_mode = true;
			break;
		case '6':
			o.ipv6 = true;
			break;
		case 'i':
			o.iface = optarg;
			break;
		case 'P':
			o.peer = optarg;
			break;
		case 'p':
			o.port = atoi(optarg);
			break;
		case 'b':
			o.bytes = strtoul(optarg, NULL, 0);
			break;
		case 'd':
			o.decline_any = !strcmp(optarg, "any");
			o.decline = strtoul(optarg, NULL, 0);
			break;
		case 'v':
			o.clc_version = strcmp(optarg, "any") ?
					atoi(optarg) : -1;
			break;
		case 'g':
			o.gid_from = optarg;
			break;
		case 'x':
			o.prefix = optarg;
			break;
		case 'f':
			o.client_tcp = !strcmp(optarg, "tcp");
			break;
		default:
			print_usage(argv[0]);
		}
	}
	if (!have_mode || optind != argc || !o.bytes || o.bytes > STREAM_MAX / 2 ||
	    (o.mode == M_REMOTE && (!o.peer || !o.port)))
		print_usage(argv[0]);
	if (!o.iface)
		o.iface = o.mode == M_REMOTE ? "eth0" : "lo";
	if (o.mode == M_REMOTE)
		o.ipv6 = strchr(o.peer, ':');
	if (o.mode == M_REMOTE)
		snprintf(tag, sizeof(tag), "remote %s port %u", o.peer, o.port);
	else
		snprintf(tag, sizeof(tag), "%s %s", mode_names[o.mode],
			 o.ipv6 ? "ipv6" : "ipv4");
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);

	memset(&c, 0, sizeof(c));
	for (i = 0; i < 2; i++) {
		c.s[i].data = calloc(1, STREAM_MAX);
		c.s[i].have = calloc(1, STREAM_MAX);
		if (!c.s[i].data || !c.s[i].have)
			return 1;
	}
	fd = cap_open(o.iface);
	if (fd < 0) {
		ok(false, "AF_PACKET capture on %s: %s", o.iface,
		   strerror(errno));
		return 1;
	}
	cap_flush(fd);
	run_apps(&c);
	cap_drain(fd, &c, !strcmp(o.iface, "lo"), 300, 10000);
	close(fd);
	analyze(&c);
	printf("# wire %s: %d failure(s)\n", tag, failures);
	return failures ? 1 : 0;
}
