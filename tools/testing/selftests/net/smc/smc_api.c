// SPDX-License-Identifier: GPL-2.0
/*
 * smc_api: socket API conformance of AF_SMC sockets on loopback.
 *
 * Every AF_SMC stream socket must behave like a TCP socket through the
 * whole socket API; on loopback the connection always falls back to TCP.
 * Each test runs once per fixture variant: IPv4 (SMCPROTO_SMC, 127.0.0.1)
 * and IPv6 (SMCPROTO_SMC6, ::1), and the same two as IPPROTO_SMC sockets,
 * socket(AF_INET or AF_INET6, SOCK_STREAM, IPPROTO_SMC), where the kernel
 * has them (6.11 on; skipped before).
 *
 * Usage: smc_api [--family smc|tcp]
 *   --family tcp runs the same tests on plain AF_INET/AF_INET6 sockets,
 *   to validate the tests themselves on a host without AF_SMC.
 * Environment: SMC_API_BULK_MB sets the bulk transfer size (default 64).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../../kselftest_harness.h"
#include "smc_common.h"

#define IO_TIMEOUT_MS	10000

static bool use_tcp;		/* --family tcp */

/* An SMC socket of @proto: SMCPROTO_SMC or SMCPROTO_SMC6 in AF_SMC, or
 * IPPROTO_SMC in @family; with --family tcp a TCP socket of @family
 */
static int api_socket(int family, int proto, int flags)
{
	if (use_tcp)
		return socket(family, SOCK_STREAM | flags, 0);
	if (proto == IPPROTO_SMC)
		return socket(family, SOCK_STREAM | flags, IPPROTO_SMC);
	return socket(AF_SMC, SOCK_STREAM | flags, proto);
}

/* wait up to @ms for any of @events on @fd; returns revents or 0 */
static int wait_fd(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };

	if (poll(&p, 1, ms) <= 0)
		return 0;
	return p.revents;
}

FIXTURE(api) {
	int lfd;			/* listening AF_SMC socket */
	struct sockaddr_storage addr;	/* its address */
	socklen_t alen;
	uint16_t port;
};

FIXTURE_VARIANT(api) {
	int family;		/* AF_INET or AF_INET6 */
	int proto;		/* SMCPROTO_SMC, SMCPROTO_SMC6 or IPPROTO_SMC */
	const char *host;	/* loopback address */
	const char *other;	/* loopback address of the other family */
};

FIXTURE_VARIANT_ADD(api, ipv4) {
	.family = AF_INET,
	.proto = SMCPROTO_SMC,
	.host = "127.0.0.1",
	.other = "::1",
};

FIXTURE_VARIANT_ADD(api, ipv6) {
	.family = AF_INET6,
	.proto = SMCPROTO_SMC6,
	.host = "::1",
	.other = "127.0.0.1",
};

FIXTURE_VARIANT_ADD(api, ipproto4) {
	.family = AF_INET,
	.proto = IPPROTO_SMC,
	.host = "127.0.0.1",
	.other = "::1",
};

FIXTURE_VARIANT_ADD(api, ipproto6) {
	.family = AF_INET6,
	.proto = IPPROTO_SMC,
	.host = "::1",
	.other = "127.0.0.1",
};

/* new listening socket on @port (0: ephemeral); fills @ss / @alen */
static int make_listener(const struct _fixture_variant_api *v, uint16_t port,
			 int backlog, bool reuse,
			 struct sockaddr_storage *ss, socklen_t *alen)
{
	int fd, one = 1;
	socklen_t len;

	fd = api_socket(v->family, v->proto, 0);
	if (fd < 0)
		return -1;
	if (reuse &&
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
		goto err;
	len = smc_make_addr(v->host, port, ss);
	if (bind(fd, (struct sockaddr *)ss, len) || listen(fd, backlog))
		goto err;
	*alen = sizeof(*ss);
	if (getsockname(fd, (struct sockaddr *)ss, alen))
		goto err;
	return fd;
err:
	close(fd);
	return -1;
}

FIXTURE_SETUP(api)
{
	int fd;

	self->lfd = -1;
	if (variant->proto == IPPROTO_SMC && !use_tcp) {
		fd = socket(variant->family, SOCK_STREAM, IPPROTO_SMC);
		/* 6.1's harness runs the test after a skip in the setup,
		 * unless the setup has failed too: then it reports a skip
		 */
		if (fd < 0 && errno == EPROTONOSUPPORT)
			SKIP({ _metadata->passed = 0; return; },
			     "no IPPROTO_SMC in this kernel");
		ASSERT_LE(0, fd) TH_LOG("IPPROTO_SMC: %s", strerror(errno));
		close(fd);
	}
	self->lfd = make_listener(variant, 0, 128, false, &self->addr,
				  &self->alen);
	ASSERT_LE(0, self->lfd) TH_LOG("listener: %s", strerror(errno));
	self->port = smc_addr_port(&self->addr);
}

FIXTURE_TEARDOWN(api)
{
	if (self->lfd >= 0)
		close(self->lfd);
}

static int connect_to(const struct _fixture_variant_api *v,
		      const struct sockaddr_storage *ss, socklen_t alen)
{
	int fd = api_socket(v->family, v->proto, 0);

	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)ss, alen)) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int accept_to(int lfd, int ms)
{
	if (!(wait_fd(lfd, POLLIN, ms) & POLLIN)) {
		errno = ETIMEDOUT;
		return -1;
	}
	return accept(lfd, NULL, NULL);
}

/* connected pair through the fixture's listener */
static int make_pair(struct _test_data_api *self,
		     const struct _fixture_variant_api *v,
		     int *cfd, int *sfd)
{
	*cfd = connect_to(v, &self->addr, self->alen);
	if (*cfd < 0) {
		fprintf(stderr, "# connect: %s\n", strerror(errno));
		return -1;
	}
	*sfd = accept_to(self->lfd, IO_TIMEOUT_MS);
	if (*sfd < 0) {
		fprintf(stderr, "# accept: %s\n", strerror(errno));
		close(*cfd);
		return -1;
	}
	smc_set_timeouts(*cfd, IO_TIMEOUT_MS);
	smc_set_timeouts(*sfd, IO_TIMEOUT_MS);
	return 0;
}

TEST_F(api, connect_accept_data)
{
	char buf[64];
	int c, s;

	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	ASSERT_EQ(0, smc_write_all(c, "ping from client", 16));
	ASSERT_EQ(0, smc_read_full(s, buf, 16, MSG_WAITALL));
	ASSERT_EQ(0, memcmp(buf, "ping from client", 16));
	ASSERT_EQ(0, smc_write_all(s, "pong from server!", 17));
	ASSERT_EQ(0, smc_read_full(c, buf, 17, MSG_WAITALL));
	ASSERT_EQ(0, memcmp(buf, "pong from server!", 17));
	close(c);
	/* orderly close: server sees EOF */
	ASSERT_EQ(0, recv(s, buf, sizeof(buf), 0));
	close(s);
}

TEST_F(api, nonblock_connect)
{
	int c, s, err = -1, fl;
	socklen_t len = sizeof(err);
	char buf[8];

	c = api_socket(variant->family, variant->proto, SOCK_NONBLOCK);
	ASSERT_LE(0, c);
	ASSERT_EQ(-1, connect(c, (struct sockaddr *)&self->addr, self->alen));
	ASSERT_EQ(EINPROGRESS, errno);
	ASSERT_TRUE(wait_fd(c, POLLOUT, IO_TIMEOUT_MS) & POLLOUT);
	ASSERT_EQ(0, getsockopt(c, SOL_SOCKET, SO_ERROR, &err, &len));
	ASSERT_EQ(0, err);
	/* still non-blocking after the connect completed */
	fl = fcntl(c, F_GETFL);
	ASSERT_TRUE(fl & O_NONBLOCK);
	/*
	 * Like TCP: the next connect() may still report the completion (0),
	 * then the socket is connected (EISCONN).
	 */
	if (connect(c, (struct sockaddr *)&self->addr, self->alen))
		ASSERT_EQ(EISCONN, errno);
	ASSERT_EQ(-1, connect(c, (struct sockaddr *)&self->addr, self->alen));
	ASSERT_EQ(EISCONN, errno);
	s = accept_to(self->lfd, IO_TIMEOUT_MS);
	ASSERT_LE(0, s);
	ASSERT_EQ(-1, recv(c, buf, sizeof(buf), 0));
	ASSERT_EQ(EAGAIN, errno);
	ASSERT_EQ(3, send(s, "abc", 3, 0));
	ASSERT_TRUE(wait_fd(c, POLLIN, IO_TIMEOUT_MS) & POLLIN);
	ASSERT_EQ(3, recv(c, buf, sizeof(buf), 0));
	ASSERT_EQ(0, memcmp(buf, "abc", 3));
	ASSERT_EQ(3, send(c, "xyz", 3, 0));
	ASSERT_EQ(0, smc_read_full(s, buf, 3, MSG_WAITALL));
	ASSERT_EQ(0, memcmp(buf, "xyz", 3));
	close(c);
	close(s);
}

TEST_F(api, accept4_flags)
{
	struct sockaddr_storage peer, cname;
	socklen_t plen = sizeof(peer), clen = sizeof(cname);
	int c1, c2, s1, s2, fl;
	char b;

	/* nothing pending on a non-blocking accept: EAGAIN */
	fl = fcntl(self->lfd, F_GETFL);
	ASSERT_EQ(0, fcntl(self->lfd, F_SETFL, fl | O_NONBLOCK));
	ASSERT_EQ(-1, accept4(self->lfd, NULL, NULL, SOCK_NONBLOCK));
	ASSERT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, fcntl(self->lfd, F_SETFL, fl));

	c1 = connect_to(variant, &self->addr, self->alen);
	ASSERT_LE(0, c1);
	ASSERT_TRUE(wait_fd(self->lfd, POLLIN, IO_TIMEOUT_MS) & POLLIN);
	s1 = accept4(self->lfd, (struct sockaddr *)&peer, &plen,
		     SOCK_NONBLOCK | SOCK_CLOEXEC);
	ASSERT_LE(0, s1) TH_LOG("accept4: %s", strerror(errno));
	ASSERT_TRUE(fcntl(s1, F_GETFL) & O_NONBLOCK);
	ASSERT_TRUE(fcntl(s1, F_GETFD) & FD_CLOEXEC);
	ASSERT_EQ(-1, recv(s1, &b, 1, 0));
	ASSERT_EQ(EAGAIN, errno);
	/* the returned peer address is the client's local address */
	ASSERT_EQ(0, getsockname(c1, (struct sockaddr *)&cname, &clen));
	ASSERT_EQ(clen, plen);
	ASSERT_EQ(variant->family, peer.ss_family);
	ASSERT_EQ(0, memcmp(&cname, &peer, plen));

	c2 = connect_to(variant, &self->addr, self->alen);
	ASSERT_LE(0, c2);
	ASSERT_TRUE(wait_fd(self->lfd, POLLIN, IO_TIMEOUT_MS) & POLLIN);
	s2 = accept4(self->lfd, NULL, NULL, 0);
	ASSERT_LE(0, s2);
	ASSERT_FALSE(fcntl(s2, F_GETFL) & O_NONBLOCK);
	ASSERT_FALSE(fcntl(s2, F_GETFD) & FD_CLOEXEC);
	/* SOCK_CLOEXEC alone */
	close(c2);
	close(s2);
	c2 = connect_to(variant, &self->addr, self->alen);
	ASSERT_LE(0, c2);
	ASSERT_TRUE(wait_fd(self->lfd, POLLIN, IO_TIMEOUT_MS) & POLLIN);
	s2 = accept4(self->lfd, NULL, NULL, SOCK_CLOEXEC);
	ASSERT_LE(0, s2);
	ASSERT_FALSE(fcntl(s2, F_GETFL) & O_NONBLOCK);
	ASSERT_TRUE(fcntl(s2, F_GETFD) & FD_CLOEXEC);
	/* bad flags */
	ASSERT_EQ(-1, accept4(self->lfd, NULL, NULL, 0x40000000));
	ASSERT_EQ(EINVAL, errno);
	close(c1);
	close(c2);
	close(s1);
	close(s2);
}

/* wait until epoll reports all of @want on its single fd; returns events */
static int epoll_until(int ep, uint32_t want, int ms)
{
	long long end = smc_now_ms() + ms;
	struct epoll_event ev;
	int got = 0;
	int n;

	do {
		n = epoll_wait(ep, &ev, 1, 50);
		if (n == 1) {
			got = ev.events;
			if ((got & want) == want)
				return got;
		}
	} while (smc_now_ms() < end);
	return got;
}

TEST_F(api, epoll_listener)
{
	struct epoll_event ev = { .events = EPOLLIN }, out;
	int ep, c, s;

	ep = epoll_create1(EPOLL_CLOEXEC);
	ASSERT_LE(0, ep);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, self->lfd, &ev));
	ASSERT_EQ(0, epoll_wait(ep, &out, 1, 0));
	c = connect_to(variant, &self->addr, self->alen);
	ASSERT_LE(0, c);
	ASSERT_EQ(EPOLLIN, epoll_until(ep, EPOLLIN, IO_TIMEOUT_MS));
	s = accept(self->lfd, NULL, NULL);
	ASSERT_LE(0, s);
	/* queue empty again: no event */
	ASSERT_EQ(0, epoll_wait(ep, &out, 1, 0));
	close(s);
	close(c);
	close(ep);
}

TEST_F(api, epoll_connection)
{
	struct epoll_event ev = {
		.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP,
	};
	int got;
	int ep, c, s;
	char b;

	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	ep = epoll_create1(0);
	ASSERT_LE(0, ep);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev));
	/* idle connection: writable, nothing to read */
	got = epoll_until(ep, EPOLLOUT, IO_TIMEOUT_MS);
	ASSERT_EQ(EPOLLOUT, got);
	/* data from the peer: EPOLLIN */
	ASSERT_EQ(1, send(s, "x", 1, 0));
	got = epoll_until(ep, EPOLLIN, IO_TIMEOUT_MS);
	ASSERT_EQ(EPOLLIN | EPOLLOUT, got);
	ASSERT_EQ(1, recv(c, &b, 1, 0));
	got = epoll_until(ep, EPOLLOUT, IO_TIMEOUT_MS);
	ASSERT_EQ(EPOLLOUT, got);
	/* peer shuts down writing: EPOLLIN | EPOLLRDHUP, EOF */
	ASSERT_EQ(0, shutdown(s, SHUT_WR));
	got = epoll_until(ep, EPOLLIN | EPOLLRDHUP, IO_TIMEOUT_MS);
	ASSERT_EQ(EPOLLIN | EPOLLRDHUP | EPOLLOUT, got);
	ASSERT_FALSE(got & EPOLLHUP);
	ASSERT_EQ(0, recv(c, &b, 1, 0));
	/* both directions shut down: EPOLLHUP */
	ASSERT_EQ(0, shutdown(c, SHUT_WR));
	got = epoll_until(ep, EPOLLHUP, IO_TIMEOUT_MS);
	ASSERT_TRUE(got & EPOLLHUP) TH_LOG("events 0x%x", got);
	ASSERT_TRUE(got & EPOLLRDHUP);
	close(ep);
	close(c);
	close(s);
}

TEST_F(api, shutdown_wr)
{
	char buf[16];
	int c, s;

	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	ASSERT_EQ(0, smc_write_all(c, "abc", 3));
	ASSERT_EQ(0, shutdown(c, SHUT_WR));
	ASSERT_EQ(0, smc_read_full(s, buf, 3, MSG_WAITALL));
	ASSERT_EQ(0, memcmp(buf, "abc", 3));
	ASSERT_EQ(0, recv(s, buf, sizeof(buf), 0));	/* EOF */
	/* the other direction still works */
	ASSERT_EQ(0, smc_write_all(s, "reply", 5));
	ASSERT_EQ(0, smc_read_full(c, buf, 5, MSG_WAITALL));
	ASSERT_EQ(0, memcmp(buf, "reply", 5));
	/* writing after SHUT_WR: EPIPE */
	ASSERT_EQ(-1, send(c, "z", 1, MSG_NOSIGNAL));
	ASSERT_EQ(EPIPE, errno);
	close(s);
	ASSERT_EQ(0, recv(c, buf, sizeof(buf), 0));
	close(c);
}

TEST_F(api, shutdown_rd)
{
	char buf[16];
	int c, s;

	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	ASSERT_EQ(0, shutdown(c, SHUT_RD));
	/* reading after SHUT_RD: immediate EOF, even non-blocking */
	ASSERT_EQ(0, recv(c, buf, sizeof(buf), MSG_DONTWAIT));
	ASSERT_TRUE(wait_fd(c, POLLIN, 0) & POLLIN);
	/* sending still works */
	ASSERT_EQ(0, smc_write_all(c, "still", 5));
	ASSERT_EQ(0, smc_read_full(s, buf, 5, MSG_WAITALL));
	ASSERT_EQ(0, memcmp(buf, "still", 5));
	close(c);
	close(s);
}

TEST_F(api, shutdown_rdwr)
{
	char buf[16];
	int c, s, u;

	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	ASSERT_EQ(0, shutdown(c, SHUT_RDWR));
	ASSERT_EQ(0, recv(s, buf, sizeof(buf), 0));
	ASSERT_EQ(0, recv(c, buf, sizeof(buf), 0));
	ASSERT_EQ(-1, send(c, "z", 1, MSG_NOSIGNAL));
	ASSERT_EQ(EPIPE, errno);
	ASSERT_TRUE(wait_fd(c, POLLIN, IO_TIMEOUT_MS) & POLLHUP);
	/* bad "how" */
	ASSERT_EQ(-1, shutdown(s, 7));
	ASSERT_EQ(EINVAL, errno);
	/* not connected */
	u = api_socket(variant->family, variant->proto, 0);
	ASSERT_LE(0, u);
	ASSERT_EQ(-1, shutdown(u, SHUT_RDWR));
	ASSERT_EQ(ENOTCONN, errno);
	close(u);
	close(c);
	close(s);
}

TEST_F(api, msg_peek_dontwait)
{
	char buf[32];
	int c, s;

	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	/* idle: MSG_DONTWAIT gives EAGAIN on a blocking socket */
	ASSERT_EQ(-1, recv(c, buf, sizeof(buf), MSG_DONTWAIT));
	ASSERT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, smc_write_all(s, "hello world", 11));
	ASSERT_EQ(11, recv(c, buf, 11, MSG_PEEK | MSG_WAITALL));
	ASSERT_EQ(0, memcmp(buf, "hello world", 11));
	ASSERT_EQ(5, recv(c, buf, 5, MSG_PEEK));
	ASSERT_EQ(0, memcmp(buf, "hello", 5));
	/* peeked data is still there */
	memset(buf, 0, sizeof(buf));
	ASSERT_EQ(11, recv(c, buf, sizeof(buf), MSG_DONTWAIT));
	ASSERT_EQ(0, memcmp(buf, "hello world", 11));
	ASSERT_EQ(-1, recv(c, buf, sizeof(buf), MSG_DONTWAIT));
	ASSERT_EQ(EAGAIN, errno);
	close(c);
	close(s);
}

struct chunk_sender {
	int fd;
	int chunks;
	size_t len;
	int delay_ms;
	int err;
};

static void *chunk_sender_fn(void *arg)
{
	struct chunk_sender *cs = arg;
	uint8_t buf[4096];
	int i;

	for (i = 0; i < cs->chunks; i++) {
		usleep(cs->delay_ms * 1000);
		smc_pat_fill(7, i * cs->len, buf, cs->len);
		if (smc_write_all(cs->fd, buf, cs->len))
			cs->err = errno;
	}
	return NULL;
}

TEST_F(api, msg_waitall)
{
	struct chunk_sender cs = { .chunks = 4, .len = 1000, .delay_ms = 50 };
	uint8_t buf[4000], exp[4000];
	pthread_t th;
	int c, s;

	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	cs.fd = s;
	ASSERT_EQ(0, pthread_create(&th, NULL, chunk_sender_fn, &cs));
	ASSERT_EQ(4000, recv(c, buf, sizeof(buf), MSG_WAITALL));
	pthread_join(th, NULL);
	ASSERT_EQ(0, cs.err);
	smc_pat_fill(7, 0, exp, sizeof(exp));
	ASSERT_EQ(0, memcmp(buf, exp, sizeof(exp)));
	/* MSG_WAITALL ends early at EOF with what was there */
	ASSERT_EQ(0, smc_write_all(s, "tail", 4));
	ASSERT_EQ(0, shutdown(s, SHUT_WR));
	ASSERT_EQ(4, recv(c, buf, sizeof(buf), MSG_WAITALL));
	close(c);
	close(s);
}

TEST_F(api, sendmsg_recvmsg_iov)
{
	uint8_t big[1000], exp[1007], got[1007];
	struct iovec siov[3] = {
		{ .iov_base = "ab", .iov_len = 2 },
		{ .iov_base = "cdefg", .iov_len = 5 },
		{ .iov_base = big, .iov_len = sizeof(big) },
	};
	struct iovec riov[4] = {
		{ .iov_base = got, .iov_len = 3 },
		{ .iov_base = got + 3, .iov_len = 7 },
		{ .iov_base = got + 10, .iov_len = 900 },
		{ .iov_base = got + 910, .iov_len = 97 },
	};
	struct msghdr m = { .msg_iov = siov, .msg_iovlen = 3 };
	int c, s;

	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	smc_pat_fill(3, 0, big, sizeof(big));
	memcpy(exp, "abcdefg", 7);
	memcpy(exp + 7, big, sizeof(big));
	ASSERT_EQ(1007, sendmsg(c, &m, MSG_NOSIGNAL));
	memset(&m, 0, sizeof(m));
	m.msg_iov = riov;
	m.msg_iovlen = 4;
	ASSERT_EQ(1007, recvmsg(s, &m, MSG_WAITALL));
	ASSERT_EQ(0, m.msg_flags & (MSG_TRUNC | MSG_CTRUNC));
	ASSERT_EQ(0, memcmp(exp, got, sizeof(exp)));
	/* and back, with a peek through recvmsg first */
	memset(&m, 0, sizeof(m));
	m.msg_iov = siov;
	m.msg_iovlen = 3;
	ASSERT_EQ(1007, sendmsg(s, &m, 0));
	memset(got, 0, sizeof(got));
	memset(&m, 0, sizeof(m));
	m.msg_iov = riov;
	m.msg_iovlen = 1;
	ASSERT_EQ(3, recvmsg(c, &m, MSG_PEEK | MSG_WAITALL));
	ASSERT_EQ(0, memcmp(got, "abc", 3));
	m.msg_iovlen = 4;
	ASSERT_EQ(1007, recvmsg(c, &m, MSG_WAITALL));
	ASSERT_EQ(0, memcmp(exp, got, sizeof(exp)));
	close(c);
	close(s);
}

/* SO_DOMAIN and SO_PROTOCOL of a listener, a client and a listener's
 * child are those the socket was opened with: AF_SMC and SMCPROTO_SMC(6),
 * as Linux's smc.ko answers, or the IP family and IPPROTO_SMC
 */
TEST_F(api, domain_protocol)
{
	int domain = variant->proto == IPPROTO_SMC ? variant->family : AF_SMC;
	int proto = variant->proto, fds[3], c, s, i, v;
	socklen_t len;

	if (use_tcp) {
		domain = variant->family;
		proto = IPPROTO_TCP;
	}
	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	fds[0] = self->lfd;
	fds[1] = c;
	fds[2] = s;
	for (i = 0; i < 3; i++) {
		len = sizeof(v);
		ASSERT_EQ(0, getsockopt(fds[i], SOL_SOCKET, SO_DOMAIN, &v,
					&len));
		EXPECT_EQ(domain, v) TH_LOG("fd %d", i);
		len = sizeof(v);
		ASSERT_EQ(0, getsockopt(fds[i], SOL_SOCKET, SO_PROTOCOL, &v,
					&len));
		EXPECT_EQ(proto, v) TH_LOG("fd %d", i);
	}
	close(c);
	close(s);
}

TEST_F(api, sockname_peername)
{
	struct sockaddr_storage a, b;
	socklen_t la, lb;
	int c, s, u;

	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	la = sizeof(a);
	lb = sizeof(b);
	ASSERT_EQ(0, getsockname(c, (struct sockaddr *)&a, &la));
	ASSERT_EQ(0, getpeername(s, (struct sockaddr *)&b, &lb));
	ASSERT_EQ(variant->family, a.ss_family);
	ASSERT_EQ(la, lb);
	ASSERT_EQ(0, memcmp(&a, &b, la));
	ASSERT_NE(0, smc_addr_port(&a));
	la = sizeof(a);
	lb = sizeof(b);
	ASSERT_EQ(0, getpeername(c, (struct sockaddr *)&a, &la));
	ASSERT_EQ(0, getsockname(s, (struct sockaddr *)&b, &lb));
	ASSERT_EQ(la, lb);
	ASSERT_EQ(self->alen, la);
	ASSERT_EQ(0, memcmp(&a, &b, la));
	ASSERT_EQ(0, memcmp(&a, &self->addr, la));
	/* listener name, unconnected socket */
	la = sizeof(a);
	ASSERT_EQ(0, getsockname(self->lfd, (struct sockaddr *)&a, &la));
	ASSERT_EQ(self->port, smc_addr_port(&a));
	ASSERT_EQ(-1, getpeername(self->lfd, (struct sockaddr *)&a, &la));
	ASSERT_EQ(ENOTCONN, errno);
	u = api_socket(variant->family, variant->proto, 0);
	ASSERT_LE(0, u);
	la = sizeof(a);
	ASSERT_EQ(0, getsockname(u, (struct sockaddr *)&a, &la));
	ASSERT_EQ(variant->family, a.ss_family);
	ASSERT_EQ(0, smc_addr_port(&a));
	ASSERT_EQ(-1, getpeername(u, (struct sockaddr *)&a, &la));
	ASSERT_EQ(ENOTCONN, errno);
	close(u);
	close(c);
	close(s);
}

TEST_F(api, reuseaddr_rebind)
{
	struct sockaddr_storage ss;
	socklen_t alen, len;
	int l, c, s, one = 0;
	uint16_t port;
	char b;

	l = make_listener(variant, 0, 8, true, &ss, &alen);
	ASSERT_LE(0, l);
	len = sizeof(one);
	ASSERT_EQ(0, getsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, &len));
	ASSERT_EQ(1, one);
	port = smc_addr_port(&ss);
	c = connect_to(variant, &ss, alen);
	ASSERT_LE(0, c);
	s = accept_to(l, IO_TIMEOUT_MS);
	ASSERT_LE(0, s);
	ASSERT_EQ(0, smc_write_all(c, "r", 1));
	ASSERT_EQ(0, smc_read_full(s, &b, 1, MSG_WAITALL));
	/* server closes first: its side of the port goes to TIME_WAIT */
	close(s);
	ASSERT_EQ(0, recv(c, &b, 1, 0));
	close(c);
	close(l);
	l = make_listener(variant, port, 8, true, &ss, &alen);
	ASSERT_LE(0, l) TH_LOG("rebind of port %u: %s", port, strerror(errno));
	ASSERT_EQ(port, smc_addr_port(&ss));
	c = connect_to(variant, &ss, alen);
	ASSERT_LE(0, c);
	s = accept_to(l, IO_TIMEOUT_MS);
	ASSERT_LE(0, s);
	close(s);
	close(c);
	close(l);
}

TEST_F(api, rcvtimeo)
{
	struct timeval tv = { .tv_sec = 0, .tv_usec = 300000 }, rb;
	socklen_t len = sizeof(rb);
	long long t0, dt;
	int c, s;
	char b;

	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	ASSERT_EQ(0, setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	ASSERT_EQ(0, getsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &rb, &len));
	ASSERT_EQ(0, rb.tv_sec);
	ASSERT_LT(290000, rb.tv_usec);
	ASSERT_GT(310000, rb.tv_usec);
	t0 = smc_now_ms();
	ASSERT_EQ(-1, recv(c, &b, 1, 0));
	dt = smc_now_ms() - t0;
	ASSERT_EQ(EAGAIN, errno);
	ASSERT_LE(200, dt);
	/* the connection still works after the timeout */
	ASSERT_EQ(0, smc_write_all(s, "k", 1));
	ASSERT_EQ(1, recv(c, &b, 1, 0));
	ASSERT_EQ('k', b);
	close(c);
	close(s);
}

TEST_F(api, sndtimeo)
{
	struct timeval tv = { .tv_sec = 0, .tv_usec = 300000 }, rb;
	socklen_t len = sizeof(rb);
	size_t total = 0, chunk = 256 * 1024;
	long long t0, dt = 0;
	uint8_t *buf;
	ssize_t n;
	int c, s;

	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	ASSERT_EQ(0, setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)));
	ASSERT_EQ(0, getsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &rb, &len));
	ASSERT_EQ(0, rb.tv_sec);
	ASSERT_LT(290000, rb.tv_usec);
	ASSERT_GT(310000, rb.tv_usec);
	buf = calloc(1, chunk);
	ASSERT_NE(NULL, buf);
	/* the peer never reads: blocking sends eventually time out */
	for (;;) {
		t0 = smc_now_ms();
		n = send(c, buf, chunk, MSG_NOSIGNAL);
		dt = smc_now_ms() - t0;
		if (n < 0)
			break;
		total += n;
		ASSERT_GT((size_t)256 << 20, total) TH_LOG("send never blocked");
	}
	ASSERT_EQ(EAGAIN, errno);
	ASSERT_LE(200, dt);
	TH_LOG("%zu bytes buffered before the send timeout", total);
	free(buf);
	close(c);
	close(s);
}

static int getint(int fd, int level, int opt)
{
	socklen_t len = sizeof(int);
	int v = -12345;

	if (getsockopt(fd, level, opt, &v, &len))
		return -errno;
	return v;
}

static int setint(int fd, int level, int opt, int v)
{
	return setsockopt(fd, level, opt, &v, sizeof(v)) ? -errno : 0;
}

TEST_F(api, tcp_sockopts)
{
	int c, s, u;
	char b, buf[4];

	/* on a fresh, unconnected socket */
	u = api_socket(variant->family, variant->proto, 0);
	ASSERT_LE(0, u);
	ASSERT_EQ(0, setint(u, SOL_TCP, TCP_MAXSEG, 1000));
	ASSERT_EQ(1000, getint(u, SOL_TCP, TCP_MAXSEG));
	ASSERT_EQ(0, setint(u, SOL_TCP, TCP_NODELAY, 1));
	ASSERT_EQ(1, getint(u, SOL_TCP, TCP_NODELAY));
	ASSERT_EQ(0, setint(u, SOL_TCP, TCP_KEEPIDLE, 33));
	ASSERT_EQ(33, getint(u, SOL_TCP, TCP_KEEPIDLE));
	ASSERT_EQ(-EINVAL, setint(u, SOL_TCP, TCP_KEEPIDLE, 0));
	ASSERT_EQ(0, connect(u, (struct sockaddr *)&self->addr, self->alen));
	s = accept_to(self->lfd, IO_TIMEOUT_MS);
	ASSERT_LE(0, s);
	/* settings made before connect survive it */
	ASSERT_EQ(1, getint(u, SOL_TCP, TCP_NODELAY));
	ASSERT_EQ(33, getint(u, SOL_TCP, TCP_KEEPIDLE));
	ASSERT_GE(1000, getint(u, SOL_TCP, TCP_MAXSEG));
	ASSERT_LT(0, getint(u, SOL_TCP, TCP_MAXSEG));
	ASSERT_EQ(0, smc_write_all(u, "m", 1));
	ASSERT_EQ(0, smc_read_full(s, &b, 1, MSG_WAITALL));
	close(u);
	close(s);

	/* on a connected pair, both ends */
	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	ASSERT_EQ(0, getint(c, SOL_TCP, TCP_NODELAY));
	ASSERT_EQ(0, setint(c, SOL_TCP, TCP_NODELAY, 1));
	ASSERT_EQ(1, getint(c, SOL_TCP, TCP_NODELAY));
	ASSERT_EQ(0, setint(c, SOL_TCP, TCP_CORK, 1));
	ASSERT_EQ(1, getint(c, SOL_TCP, TCP_CORK));
	ASSERT_EQ(0, setint(c, SOL_TCP, TCP_CORK, 0));
	ASSERT_EQ(0, getint(c, SOL_TCP, TCP_CORK));
	ASSERT_EQ(0, setint(c, SOL_SOCKET, SO_KEEPALIVE, 1));
	ASSERT_EQ(1, getint(c, SOL_SOCKET, SO_KEEPALIVE));
	ASSERT_EQ(0, setint(c, SOL_TCP, TCP_KEEPIDLE, 77));
	ASSERT_EQ(77, getint(c, SOL_TCP, TCP_KEEPIDLE));
	ASSERT_EQ(0, setint(c, SOL_TCP, TCP_KEEPINTVL, 13));
	ASSERT_EQ(13, getint(c, SOL_TCP, TCP_KEEPINTVL));
	ASSERT_EQ(0, setint(c, SOL_TCP, TCP_KEEPCNT, 5));
	ASSERT_EQ(5, getint(c, SOL_TCP, TCP_KEEPCNT));
	ASSERT_LT(0, getint(c, SOL_TCP, TCP_MAXSEG));
	ASSERT_EQ(0, setint(s, SOL_TCP, TCP_NODELAY, 1));
	ASSERT_EQ(1, getint(s, SOL_TCP, TCP_NODELAY));
	ASSERT_EQ(0, setint(s, SOL_TCP, TCP_KEEPIDLE, 91));
	ASSERT_EQ(91, getint(s, SOL_TCP, TCP_KEEPIDLE));
	/* SOL_SOCKET basics */
	ASSERT_EQ(SOCK_STREAM, getint(c, SOL_SOCKET, SO_TYPE));
	ASSERT_EQ(0, getint(c, SOL_SOCKET, SO_ERROR));
	ASSERT_EQ(1, getint(self->lfd, SOL_SOCKET, SO_ACCEPTCONN));
	ASSERT_EQ(0, getint(c, SOL_SOCKET, SO_ACCEPTCONN));
	/* corked data still flows once uncorked */
	ASSERT_EQ(0, setint(c, SOL_TCP, TCP_CORK, 1));
	ASSERT_EQ(0, smc_write_all(c, "cork", 4));
	ASSERT_EQ(0, setint(c, SOL_TCP, TCP_CORK, 0));
	ASSERT_EQ(0, smc_read_full(s, buf, 4, MSG_WAITALL));
	ASSERT_EQ(0, memcmp(buf, "cork", 4));
	close(c);
	close(s);
}

/* a port that is bound but not listening: connects to it are refused */
static int refused_port(const struct _fixture_variant_api *v,
			struct sockaddr_storage *ss, socklen_t *alen)
{
	int fd = socket(v->family, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	*alen = smc_make_addr(v->host, 0, ss);
	if (bind(fd, (struct sockaddr *)ss, *alen)) {
		close(fd);
		return -1;
	}
	*alen = sizeof(*ss);
	getsockname(fd, (struct sockaddr *)ss, alen);
	return fd;
}

TEST_F(api, connrefused)
{
	struct sockaddr_storage ss;
	int hold, c, err = 0;
	socklen_t alen, len = sizeof(err);

	hold = refused_port(variant, &ss, &alen);
	ASSERT_LE(0, hold);
	/* blocking */
	ASSERT_EQ(-1, connect_to(variant, &ss, alen));
	ASSERT_EQ(ECONNREFUSED, errno);
	/* non-blocking: EINPROGRESS, then the error through SO_ERROR */
	c = api_socket(variant->family, variant->proto, SOCK_NONBLOCK);
	ASSERT_LE(0, c);
	ASSERT_EQ(-1, connect(c, (struct sockaddr *)&ss, alen));
	if (errno != ECONNREFUSED) {
		ASSERT_EQ(EINPROGRESS, errno);
		ASSERT_NE(0, wait_fd(c, POLLOUT, IO_TIMEOUT_MS));
		ASSERT_EQ(0, getsockopt(c, SOL_SOCKET, SO_ERROR, &err, &len));
		ASSERT_EQ(ECONNREFUSED, err);
	}
	close(c);
	close(hold);
}

TEST_F(api, addrinuse)
{
	struct sockaddr_storage ss;
	int fd, tfd, one = 1;
	socklen_t alen, len;

	/* a second AF_SMC socket on the listener's port */
	fd = api_socket(variant->family, variant->proto, 0);
	ASSERT_LE(0, fd);
	alen = smc_make_addr(variant->host, self->port, &ss);
	ASSERT_EQ(-1, bind(fd, (struct sockaddr *)&ss, alen));
	ASSERT_EQ(EADDRINUSE, errno);
	close(fd);
	/* also with SO_REUSEADDR: the port has a listener */
	fd = api_socket(variant->family, variant->proto, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one,
				sizeof(one)));
	ASSERT_EQ(-1, bind(fd, (struct sockaddr *)&ss, alen));
	ASSERT_EQ(EADDRINUSE, errno);
	close(fd);
	/* AF_SMC shares the TCP port space, both ways */
	fd = socket(variant->family, SOCK_STREAM, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(-1, bind(fd, (struct sockaddr *)&ss, alen));
	ASSERT_EQ(EADDRINUSE, errno);
	close(fd);
	tfd = socket(variant->family, SOCK_STREAM, 0);
	ASSERT_LE(0, tfd);
	alen = smc_make_addr(variant->host, 0, &ss);
	ASSERT_EQ(0, bind(tfd, (struct sockaddr *)&ss, alen));
	ASSERT_EQ(0, listen(tfd, 1));
	len = sizeof(ss);
	ASSERT_EQ(0, getsockname(tfd, (struct sockaddr *)&ss, &len));
	fd = api_socket(variant->family, variant->proto, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(-1, bind(fd, (struct sockaddr *)&ss, alen));
	ASSERT_EQ(EADDRINUSE, errno);
	close(fd);
	close(tfd);
	/* binding twice */
	fd = api_socket(variant->family, variant->proto, 0);
	ASSERT_LE(0, fd);
	alen = smc_make_addr(variant->host, 0, &ss);
	ASSERT_EQ(0, bind(fd, (struct sockaddr *)&ss, alen));
	ASSERT_EQ(-1, bind(fd, (struct sockaddr *)&ss, alen));
	ASSERT_EQ(EINVAL, errno);
	close(fd);
}

TEST_F(api, bad_addrlen)
{
	struct sockaddr_storage ss;
	socklen_t alen, shortlen;
	int fd;

	alen = smc_make_addr(variant->host, self->port, &ss);
	/* IPv4 needs a whole sockaddr_in, IPv6 at least 24 bytes */
	shortlen = variant->family == AF_INET ? alen - 1 : 20;
	fd = api_socket(variant->family, variant->proto, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(-1, bind(fd, (struct sockaddr *)&ss, shortlen));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, bind(fd, (struct sockaddr *)&ss, 1));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, connect(fd, (struct sockaddr *)&ss, shortlen));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, connect(fd, (struct sockaddr *)&ss, 1));
	ASSERT_EQ(EINVAL, errno);
	/* the socket is still usable */
	ASSERT_EQ(0, connect(fd, (struct sockaddr *)&ss, alen));
	close(fd);
}

TEST_F(api, bad_family)
{
	struct sockaddr_storage ss;
	socklen_t alen;
	int fd;

	/* a family that is neither IPv4 nor IPv6 */
	fd = api_socket(variant->family, variant->proto, 0);
	ASSERT_LE(0, fd);
	alen = smc_make_addr(variant->host, self->port, &ss);
	ss.ss_family = AF_UNIX;
	ASSERT_EQ(-1, bind(fd, (struct sockaddr *)&ss, sizeof(ss)));
	ASSERT_EQ(EAFNOSUPPORT, errno);
	/* Linux's smc.ko 6.1 answers EINVAL here, TCP EAFNOSUPPORT */
	ASSERT_EQ(-1, connect(fd, (struct sockaddr *)&ss, sizeof(ss)));
	ASSERT_EQ(EAFNOSUPPORT, errno);
	close(fd);

	/* an address of the other IP family */
	fd = api_socket(variant->family, variant->proto, 0);
	ASSERT_LE(0, fd);
	alen = smc_make_addr(variant->other, self->port, &ss);
	if (variant->family == AF_INET) {
		/* IPv6 address to an IPv4 socket: wrong family */
		ASSERT_EQ(-1, bind(fd, (struct sockaddr *)&ss, alen));
		ASSERT_EQ(EAFNOSUPPORT, errno);
		ASSERT_EQ(-1, connect(fd, (struct sockaddr *)&ss, alen));
		ASSERT_EQ(EAFNOSUPPORT, errno);
	} else {
		/* sockaddr_in to an IPv6 socket: too short */
		ASSERT_EQ(-1, bind(fd, (struct sockaddr *)&ss, alen));
		ASSERT_EQ(EINVAL, errno);
		ASSERT_EQ(-1, connect(fd, (struct sockaddr *)&ss, alen));
		ASSERT_EQ(EINVAL, errno);
		/* AF_INET in a sockaddr_in6 sized buffer: wrong family */
		ASSERT_EQ(-1, bind(fd, (struct sockaddr *)&ss, sizeof(ss)));
		ASSERT_EQ(EAFNOSUPPORT, errno);
	}
	close(fd);

	if (use_tcp)
		return;
	/* bad protocol and socket type for AF_SMC itself */
	fd = socket(AF_SMC, SOCK_STREAM, 2);
	ASSERT_EQ(-1, fd);
	ASSERT_EQ(EPROTONOSUPPORT, errno);
	fd = socket(AF_SMC, SOCK_STREAM, IPPROTO_UDP);
	ASSERT_EQ(-1, fd);
	ASSERT_EQ(EPROTONOSUPPORT, errno);
	fd = socket(AF_SMC, SOCK_DGRAM, variant->proto);
	ASSERT_EQ(-1, fd);
	ASSERT_TRUE(errno == ESOCKTNOSUPPORT || errno == EPROTONOSUPPORT)
		TH_LOG("SOCK_DGRAM: %s", strerror(errno));
}

#define BACKLOG_CONNS	64

TEST_F(api, backlog_64)
{
	int cl[BACKLOG_CONNS], sv[BACKLOG_CONNS];
	struct sockaddr_storage ss;
	int l, i, n = 0, err;
	bool seen[BACKLOG_CONNS] = { 0 };
	socklen_t alen, len;
	long long end;
	uint8_t b;

	l = make_listener(variant, 0, BACKLOG_CONNS, false, &ss, &alen);
	ASSERT_LE(0, l);
	for (i = 0; i < BACKLOG_CONNS; i++) {
		cl[i] = api_socket(variant->family, variant->proto,
				   SOCK_NONBLOCK);
		ASSERT_LE(0, cl[i]);
		if (connect(cl[i], (struct sockaddr *)&ss, alen))
			ASSERT_EQ(EINPROGRESS, errno);
	}
	end = smc_now_ms() + 30000;
	while (n < BACKLOG_CONNS && smc_now_ms() < end) {
		if (!(wait_fd(l, POLLIN, 100) & POLLIN))
			continue;
		sv[n] = accept4(l, NULL, NULL, SOCK_NONBLOCK);
		if (sv[n] >= 0)
			n++;
		else
			ASSERT_EQ(EAGAIN, errno);
	}
	ASSERT_EQ(BACKLOG_CONNS, n);
	for (i = 0; i < BACKLOG_CONNS; i++) {
		ASSERT_TRUE(wait_fd(cl[i], POLLOUT, IO_TIMEOUT_MS) & POLLOUT);
		len = sizeof(err);
		ASSERT_EQ(0, getsockopt(cl[i], SOL_SOCKET, SO_ERROR, &err,
					&len));
		ASSERT_EQ(0, err);
		b = i;
		ASSERT_EQ(1, send(cl[i], &b, 1, 0));
	}
	for (i = 0; i < BACKLOG_CONNS; i++) {
		ASSERT_TRUE(wait_fd(sv[i], POLLIN, IO_TIMEOUT_MS) & POLLIN);
		ASSERT_EQ(1, recv(sv[i], &b, 1, 0));
		ASSERT_GT(BACKLOG_CONNS, b);
		ASSERT_FALSE(seen[b]);
		seen[b] = true;
	}
	for (i = 0; i < BACKLOG_CONNS; i++) {
		close(cl[i]);
		close(sv[i]);
	}
	close(l);
}

struct xfer {
	int fd;
	uint64_t seed;
	size_t bytes;
	size_t done;
	uint8_t md[SMC_SHA256_LEN];
	int err;		/* errno, or -1 for a data mismatch */
	long long bad_off;
};

#define XFER_CHUNK	(64 * 1024)

static void *xfer_send_fn(void *arg)
{
	struct xfer *x = arg;
	struct smc_sha sha;
	uint8_t *buf;
	size_t n;

	buf = malloc(XFER_CHUNK);
	if (!buf || smc_sha_init(&sha)) {
		x->err = ENOMEM;
		free(buf);
		return NULL;
	}
	while (x->done < x->bytes) {
		n = x->bytes - x->done;
		if (n > XFER_CHUNK)
			n = XFER_CHUNK;
		smc_pat_fill(x->seed, x->done, buf, n);
		smc_sha_update(&sha, buf, n);
		if (smc_write_all(x->fd, buf, n)) {
			x->err = errno;
			break;
		}
		x->done += n;
	}
	smc_sha_final(&sha, x->md);
	free(buf);
	return NULL;
}

static void *xfer_recv_fn(void *arg)
{
	struct xfer *x = arg;
	struct smc_sha sha;
	uint8_t *buf, *exp;
	ssize_t n;
	long bad;

	buf = malloc(XFER_CHUNK);
	exp = malloc(XFER_CHUNK);
	if (!buf || !exp || smc_sha_init(&sha)) {
		x->err = ENOMEM;
		goto out;
	}
	while (x->done < x->bytes) {
		n = x->bytes - x->done;
		if (n > XFER_CHUNK)
			n = XFER_CHUNK;
		n = recv(x->fd, buf, n, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			x->err = n ? errno : EPIPE;
			break;
		}
		bad = smc_pat_check(x->seed, x->done, buf, n, exp);
		if (bad >= 0) {
			x->err = -1;
			x->bad_off = x->done + bad;
			break;
		}
		smc_sha_update(&sha, buf, n);
		x->done += n;
	}
	smc_sha_final(&sha, x->md);
out:
	free(buf);
	free(exp);
	return NULL;
}

TEST_F_TIMEOUT(api, bulk_64m_both_ways, 240)
{
	struct xfer cs, sr, ss, cr;
	pthread_t th[4];
	size_t bytes;
	int c, s, i;
	char *env;

	env = getenv("SMC_API_BULK_MB");
	bytes = (size_t)(env ? atoi(env) : 64) << 20;
	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	smc_set_timeouts(c, 60000);
	smc_set_timeouts(s, 60000);
	memset(&cs, 0, sizeof(cs));
	cs.fd = c;
	cs.seed = 0x5eed0001;
	cs.bytes = bytes;
	sr = cs;
	sr.fd = s;
	ss = cs;
	ss.fd = s;
	ss.seed = 0x5eed0002;
	cr = ss;
	cr.fd = c;
	ASSERT_EQ(0, pthread_create(&th[0], NULL, xfer_send_fn, &cs));
	ASSERT_EQ(0, pthread_create(&th[1], NULL, xfer_recv_fn, &sr));
	ASSERT_EQ(0, pthread_create(&th[2], NULL, xfer_send_fn, &ss));
	ASSERT_EQ(0, pthread_create(&th[3], NULL, xfer_recv_fn, &cr));
	for (i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	EXPECT_EQ(0, cs.err);
	EXPECT_EQ(0, ss.err);
	EXPECT_EQ(0, sr.err) TH_LOG("server recv: err %d at offset %lld",
				    sr.err, sr.bad_off);
	EXPECT_EQ(0, cr.err) TH_LOG("client recv: err %d at offset %lld",
				    cr.err, cr.bad_off);
	ASSERT_EQ(bytes, sr.done);
	ASSERT_EQ(bytes, cr.done);
	ASSERT_EQ(0, memcmp(cs.md, sr.md, SMC_SHA256_LEN));
	ASSERT_EQ(0, memcmp(ss.md, cr.md, SMC_SHA256_LEN));
	/* clean EOF in both directions */
	ASSERT_EQ(0, shutdown(c, SHUT_WR));
	ASSERT_EQ(0, shutdown(s, SHUT_WR));
	ASSERT_EQ(0, recv(c, &i, 1, 0));
	ASSERT_EQ(0, recv(s, &i, 1, 0));
	close(c);
	close(s);
}

static void *echo_fn(void *arg)
{
	int fd = *(int *)arg;
	uint8_t buf[16384];
	ssize_t n;

	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || smc_write_all(fd, buf, n))
			break;
	}
	return NULL;
}

TEST_F(api, small_messages)
{
	static const size_t sizes[] = {
		1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
		127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025,
		1400, 1460, 1500, 2047, 2048, 2049, 4095, 4096, 4097, 8191,
		8192, 8193, 9000, 16383, 16384, 16385, 32767, 32768, 32769,
		65535, 65536,
	};
	uint8_t *out, *in;
	pthread_t th;
	uint64_t rnd = 1;
	size_t i, n;
	int c, s;

	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	out = malloc(65536);
	in = malloc(65536);
	ASSERT_NE(NULL, out);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(0, pthread_create(&th, NULL, echo_fn, &s));
	for (i = 0; i < ARRAY_SIZE(sizes) + 300; i++) {
		if (i < ARRAY_SIZE(sizes)) {
			n = sizes[i];
		} else {
			rnd = smc_mix64(rnd);
			n = 1 + rnd % 3000;
		}
		smc_pat_fill(i, 0, out, n);
		ASSERT_EQ(0, smc_write_all(c, out, n)) TH_LOG("size %zu", n);
		ASSERT_EQ(0, smc_read_full(c, in, n, MSG_WAITALL)) TH_LOG("size %zu", n);
		ASSERT_EQ(0, memcmp(out, in, n)) TH_LOG("size %zu", n);
	}
	/* a burst of 1 byte sends, read back as one stream */
	for (i = 0; i < 1000; i++)
		ASSERT_EQ(1, send(c, &out[i], 1, 0));
	ASSERT_EQ(0, smc_read_full(c, in, 1000, MSG_WAITALL));
	ASSERT_EQ(0, memcmp(out, in, 1000));
	shutdown(c, SHUT_WR);
	pthread_join(th, NULL);
	free(out);
	free(in);
	close(c);
	close(s);
}

/*
 * @closer closes with 64 KiB from @peer unread: the close does not linger
 * and @peer then reads EOF or a reset.
 */
static void close_unread_check(struct __test_metadata *_metadata,
			       int closer, int peer)
{
	uint8_t buf[65536] = { 0 };
	long long t0;
	ssize_t n;

	ASSERT_EQ(0, smc_write_all(peer, buf, sizeof(buf)));
	usleep(100000);
	t0 = smc_now_ms();
	close(closer);
	ASSERT_GT(2000, smc_now_ms() - t0);
	ASSERT_NE(0, wait_fd(peer, POLLIN, IO_TIMEOUT_MS));
	n = recv(peer, buf, sizeof(buf), 0);
	ASSERT_GE(0, n);
	if (n < 0)
		ASSERT_EQ(ECONNRESET, errno);
}

TEST_F(api, close_unread)
{
	ssize_t n;
	int c, s;

	/* client closes with unread data from the server */
	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	close_unread_check(_metadata, c, s);
	close(s);

	/* server closes with unread data from the client */
	ASSERT_EQ(0, make_pair(self, variant, &c, &s));
	close_unread_check(_metadata, s, c);
	/* and sending to the reset connection fails, no SIGPIPE */
	n = send(c, "x", 1, MSG_NOSIGNAL);
	if (n < 0)
		ASSERT_TRUE(errno == EPIPE || errno == ECONNRESET);
	close(c);
}

TEST_F(api, listener_closed)
{
	ssize_t n;
	int c;
	char b;

	/* a connection still in the accept queue when the listener closes */
	c = connect_to(variant, &self->addr, self->alen);
	ASSERT_LE(0, c);
	smc_set_timeouts(c, IO_TIMEOUT_MS);
	ASSERT_TRUE(wait_fd(self->lfd, POLLIN, IO_TIMEOUT_MS) & POLLIN);
	close(self->lfd);
	self->lfd = -1;
	ASSERT_NE(0, wait_fd(c, POLLIN, IO_TIMEOUT_MS));
	n = recv(c, &b, 1, 0);
	ASSERT_GE(0, n);
	if (n < 0)
		ASSERT_EQ(ECONNRESET, errno);
	close(c);
	/* nothing listens any more */
	ASSERT_EQ(-1, connect_to(variant, &self->addr, self->alen));
	ASSERT_EQ(ECONNREFUSED, errno);
}

#define CYCLES	200

TEST_F(api, connect_close_cycles)
{
	const char *file = variant->family == AF_INET ?
		"/proc/net/sockstat" : "/proc/net/sockstat6";
	const char *proto = variant->family == AF_INET ? "TCP" : "TCP6";
	long inuse0, inuse, smc0, smc = -1;
	int fds0, fds, i, c, s;
	long long end;
	char b;

	fds0 = smc_count_fds();
	inuse0 = smc_sockstat_inuse(file, proto);
	smc0 = smc_proto_sockets();
	ASSERT_LE(0, inuse0);
	for (i = 0; i < CYCLES; i++) {
		ASSERT_EQ(0, make_pair(self, variant, &c, &s));
		b = i;
		ASSERT_EQ(1, send(c, &b, 1, 0));
		ASSERT_EQ(1, recv(s, &b, 1, 0));
		ASSERT_EQ((char)i, b);
		if (i & 1) {
			close(c);
			close(s);
		} else {
			close(s);
			close(c);
		}
	}
	fds = smc_count_fds();
	ASSERT_EQ(fds0, fds);
	/* sockets may take a moment to leave the tables */
	end = smc_now_ms() + 10000;
	do {
		inuse = smc_sockstat_inuse(file, proto);
		smc = smc_proto_sockets();
		if (inuse <= inuse0 && smc <= smc0)
			break;
		usleep(100000);
	} while (smc_now_ms() < end);
	TH_LOG("%s inuse %ld -> %ld, SMC* sockets %ld -> %ld",
	       proto, inuse0, inuse, smc0, smc);
	ASSERT_GE(inuse0, inuse);
	ASSERT_GE(smc0, smc);
}

static void __attribute__((constructor)) order_last(void)
{
	if (!__constructor_order)
		__constructor_order = _CONSTRUCTOR_ORDER_BACKWARD;
}

int main(int argc, char **argv)
{
	int i, fd;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--family") && i + 1 < argc) {
			use_tcp = !strcmp(argv[++i], "tcp");
			if (!use_tcp && strcmp(argv[i], "smc"))
				goto usage;
		} else {
			goto usage;
		}
	}
	signal(SIGPIPE, SIG_IGN);
	if (!use_tcp) {
		fd = socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC);
		if (fd < 0) {
			ksft_print_header();
			ksft_exit_skip("AF_SMC sockets unavailable: %s\n",
				       strerror(errno));
		}
		close(fd);
	}
	return test_harness_run(argc, argv);
usage:
	fprintf(stderr, "usage: %s [--family smc|tcp]\n", argv[0]);
	return 2;
}
