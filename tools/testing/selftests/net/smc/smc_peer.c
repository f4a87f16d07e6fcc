// SPDX-License-Identifier: GPL-2.0
/*
 * smc_peer: client / server for two-guest SMC-R tests.
 *
 *   smc_peer server --family smc|tcp|ipproto [--ipv6] --port P [--bytes N]
 *                   [--count C] [--echo] [--ready-file F] [--timeout S]
 *                   [--hold F]
 *   smc_peer client --family smc|tcp|ipproto --host IP --port P [--bytes N]
 *                   [--count C] [--first I] [--timeout S] [--hold F]
 *
 * For each of C connections (sequentially) both sides first exchange a
 * 16 byte hello ("SMCPEER1" and the be64 byte count, which must match),
 * then send N bytes of a deterministic pseudo-random stream (seeded per
 * connection and direction) while receiving the peer's N bytes, checking
 * every byte against the expected stream (a client whose connections are
 * not a server's first ones says which one it starts at with --first).
 * When either direction fails, the socket is shut down, so neither side
 * waits on the other's full buffers.  Then each side sends the
 * SHA-256 of what it sent and compares the peer's digest with the digest
 * of what it received.  One TAP line per connection; the exit status is
 * non-zero on any error or mismatch.
 *
 * --echo makes the server echo whatever it receives back (no hello, no
 * checks), for C connections or forever when --count is not given.
 * The client retries connecting for up to 60 s while the server is not
 * up yet.  --ready-file names a file the server creates once it listens.
 * --hold makes each side send half its bytes, then wait (up to --timeout
 * seconds) until file F exists before it sends the rest: a test that
 * takes a path away creates F once it has, so that the second half has
 * to cross the failover, however slowly the first half went.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "smc_common.h"

#define CHUNK		(64 * 1024)
#define HELLO_LEN	16
#define HELLO_MAGIC	"SMCPEER1"

struct opts {
	bool server;
	bool smc;
	bool ipproto;
	bool ipv6;
	bool echo;
	const char *host;
	uint16_t port;
	uint64_t bytes;
	long count;
	long first;
	int timeout;
	const char *ready_file;
	const char *hold;
};

struct dir {
	int fd;
	uint64_t seed;
	uint64_t bytes;
	uint64_t done;
	const char *hold;	/* send_fn: wait for it at half way */
	int hold_s;
	uint8_t md[SMC_SHA256_LEN];
	int err;		/* errno, or -1 for a data mismatch */
	uint64_t bad_off;
};

/* 0 once @file exists, -1 (errno ETIMEDOUT) after @secs seconds */
static int wait_file(const char *file, int secs)
{
	long long end = smc_now_ms() + secs * 1000LL;

	while (access(file, F_OK)) {
		if (smc_now_ms() >= end) {
			errno = ETIMEDOUT;
			return -1;
		}
		usleep(100 * 1000);
	}
	return 0;
}

static void *send_fn(void *arg)
{
	struct dir *d = arg;
	struct smc_sha sha;
	uint8_t *buf;
	size_t n;

	buf = malloc(CHUNK);
	if (!buf || smc_sha_init(&sha)) {
		d->err = ENOMEM;
		free(buf);
		return NULL;
	}
	while (d->done < d->bytes) {
		if (d->hold && d->done >= d->bytes / 2) {
			if (wait_file(d->hold, d->hold_s)) {
				d->err = errno;
				break;
			}
			d->hold = NULL;
		}
		n = d->bytes - d->done < CHUNK ? d->bytes - d->done : CHUNK;
		smc_pat_fill(d->seed, d->done, buf, n);
		smc_sha_update(&sha, buf, n);
		if (smc_write_all(d->fd, buf, n)) {
			d->err = errno;
			break;
		}
		d->done += n;
	}
	smc_sha_final(&sha, d->md);
	free(buf);
	return NULL;
}

static void recv_stream(struct dir *d)
{
	uint8_t *buf, *exp;
	struct smc_sha sha;
	ssize_t n;
	long bad;

	buf = malloc(CHUNK);
	exp = malloc(CHUNK);
	if (!buf || !exp || smc_sha_init(&sha)) {
		d->err = ENOMEM;
		goto out;
	}
	while (d->done < d->bytes) {
		n = d->bytes - d->done < CHUNK ? d->bytes - d->done : CHUNK;
		n = recv(d->fd, buf, n, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			d->err = n ? errno : EPIPE;
			break;
		}
		bad = smc_pat_check(d->seed, d->done, buf, n, exp);
		if (bad >= 0) {
			d->err = -1;
			d->bad_off = d->done + bad;
			break;
		}
		smc_sha_update(&sha, buf, n);
		d->done += n;
	}
	smc_sha_final(&sha, d->md);
out:
	free(buf);
	free(exp);
}

static void put_be64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t get_be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static const char *human(uint64_t b, char *buf, size_t len)
{
	if (b && !(b % (1 << 20)))
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b && !(b % 1024))
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)b);
	return buf;
}

/* one verified exchange on connected @fd; prints one TAP line */
static int run_exchange(const struct opts *o, int fd, long idx, const char *who)
{
	uint8_t hello[HELLO_LEN], phello[HELLO_LEN], pmd[SMC_SHA256_LEN];
	struct dir tx = { .fd = fd }, rx = { .fd = fd };
	uint64_t cseed = smc_mix64(0xc11e47ull + idx);
	uint64_t sseed = smc_mix64(0x5e77e4ull + idx);
	char hex[2 * SMC_SHA256_LEN + 1], sz[32];
	long long t0 = smc_now_ms(), dt;
	const char *what = "";
	pthread_t th;

	memcpy(hello, HELLO_MAGIC, 8);
	put_be64(hello + 8, o->bytes);
	if (smc_write_all(fd, hello, sizeof(hello)) ||
	    smc_read_full(fd, phello, sizeof(phello), 0)) {
		what = "hello";
		goto io_err;
	}
	if (memcmp(phello, HELLO_MAGIC, 8) ||
	    get_be64(phello + 8) != o->bytes) {
		printf("not ok - %s: bad hello (peer sends %llu bytes, we %llu)\n",
		       who, (unsigned long long)get_be64(phello + 8),
		       (unsigned long long)o->bytes);
		return -1;
	}
	tx.seed = o->server ? sseed : cseed;
	rx.seed = o->server ? cseed : sseed;
	tx.bytes = o->bytes;
	rx.bytes = o->bytes;
	tx.hold = o->hold;
	tx.hold_s = o->timeout;
	if (pthread_create(&th, NULL, send_fn, &tx)) {
		printf("not ok - %s: pthread_create\n", who);
		return -1;
	}
	recv_stream(&rx);
	/* the sender may be blocked on a peer that stopped reading too */
	if (rx.err)
		shutdown(fd, SHUT_RDWR);
	pthread_join(th, NULL);
	if (tx.err) {
		errno = tx.err;
		what = "send";
		goto io_err;
	}
	if (rx.err > 0) {
		errno = rx.err;
		what = "recv";
		goto io_err;
	}
	if (rx.err < 0) {
		printf("not ok - %s: data mismatch at byte %llu of %llu\n", who,
		       (unsigned long long)rx.bad_off,
		       (unsigned long long)o->bytes);
		return -1;
	}
	if (smc_write_all(fd, tx.md, sizeof(tx.md)) ||
	    smc_read_full(fd, pmd, sizeof(pmd), 0)) {
		what = "sending/receiving the digest";
		goto io_err;
	}
	dt = smc_now_ms() - t0;
	smc_sha_hex(rx.md, hex);
	if (memcmp(pmd, rx.md, sizeof(pmd))) {
		printf("not ok - %s: sha256 mismatch (received %s)\n", who, hex);
		return -1;
	}
	printf("ok - %s %s each way sha256 match\n", who,
	       human(o->bytes, sz, sizeof(sz)));
	printf("# received sha256 %s, %lld ms, %.1f MiB/s each way\n", hex, dt,
	       dt ? (double)o->bytes / (1 << 20) * 1000 / dt : 0.0);
	return 0;
io_err:
	printf("not ok - %s: %s: %s\n", who, what, strerror(errno));
	return -1;
}

static int echo_conn(int fd)
{
	uint8_t buf[CHUNK];
	uint64_t total = 0;
	ssize_t n;

	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (smc_write_all(fd, buf, n))
			return -1;
		total += n;
	}
	printf("# echoed %llu bytes\n", (unsigned long long)total);
	return n < 0 ? -1 : 0;
}

/* An SMC socket of @family, AF_SMC or IPPROTO_SMC, or a TCP one */
static int peer_socket(const struct opts *o, int family)
{
	if (o->ipproto)
		return socket(family, SOCK_STREAM, IPPROTO_SMC);
	return smc_stream_socket(o->smc, family);
}

static const char *peer_kind(const struct opts *o)
{
	return o->ipproto ? "ipproto" : o->smc ? "smc" : "tcp";
}

static int run_server(const struct opts *o)
{
	int family = o->ipv6 ? AF_INET6 : AF_INET;
	struct sockaddr_storage ss, peer;
	char who[128], host[64];
	int lfd, fd, one = 1, fails = 0;
	socklen_t alen, plen;
	long i;
	FILE *f;

	lfd = peer_socket(o, family);
	if (lfd < 0) {
		printf("not ok - smc_peer server: socket: %s\n", strerror(errno));
		return 1;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	alen = smc_make_addr(o->ipv6 ? "::" : "0.0.0.0", o->port, &ss);
	if (bind(lfd, (struct sockaddr *)&ss, alen) || listen(lfd, 16)) {
		printf("not ok - smc_peer server: bind/listen port %u: %s\n",
		       o->port, strerror(errno));
		return 1;
	}
	printf("# smc_peer server listening on port %u (%s)\n", o->port,
	       peer_kind(o));
	fflush(stdout);
	if (o->ready_file) {
		f = fopen(o->ready_file, "w");
		if (f)
			fclose(f);
	}
	for (i = 0; o->count < 0 || i < o->count; i++) {
		plen = sizeof(peer);
		fd = accept(lfd, (struct sockaddr *)&peer, &plen);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			printf("not ok - smc_peer server: accept: %s\n",
			       strerror(errno));
			return 1;
		}
		if (peer.ss_family == AF_INET6)
			inet_ntop(AF_INET6,
				  &((struct sockaddr_in6 *)&peer)->sin6_addr,
				  host, sizeof(host));
		else
			inet_ntop(AF_INET,
				  &((struct sockaddr_in *)&peer)->sin_addr,
				  host, sizeof(host));
		smc_set_timeouts(fd, o->timeout * 1000);
		if (o->echo) {
			if (echo_conn(fd))
				fails++;
		} else {
			snprintf(who, sizeof(who),
				 "smc_peer server %s port %u from %s conn %ld",
				 peer_kind(o), o->port, host, i + 1);
			if (run_exchange(o, fd, i, who))
				fails++;
		}
		close(fd);
		fflush(stdout);
	}
	close(lfd);
	return fails ? 1 : 0;
}

static int connect_retry(const struct opts *o, struct sockaddr_storage *ss,
			 socklen_t alen)
{
	long long end = smc_now_ms() + 60000;
	int fd, err;

	for (;;) {
		fd = peer_socket(o, ss->ss_family);
		if (fd < 0)
			return -1;
		if (!connect(fd, (struct sockaddr *)ss, alen))
			return fd;
		err = errno;
		close(fd);
		if ((err != ECONNREFUSED && err != ENETUNREACH &&
		     err != EHOSTUNREACH && err != ETIMEDOUT &&
		     err != ECONNRESET) || smc_now_ms() > end) {
			errno = err;
			return -1;
		}
		usleep(200000);
	}
}

static int run_client(const struct opts *o)
{
	struct sockaddr_storage ss;
	char who[160];
	int fd, fails = 0;
	socklen_t alen;
	long i;

	alen = smc_make_addr(o->host, o->port, &ss);
	if (!alen) {
		printf("not ok - smc_peer client: bad address %s\n", o->host);
		return 1;
	}
	for (i = 0; i < (o->count < 0 ? 1 : o->count); i++) {
		snprintf(who, sizeof(who),
			 ss.ss_family == AF_INET6 ?
			 "smc_peer client %s [%s]:%u conn %ld" :
			 "smc_peer client %s %s:%u conn %ld",
			 peer_kind(o), o->host, o->port, i + 1);
		fd = connect_retry(o, &ss, alen);
		if (fd < 0) {
			printf("not ok - %s: connect: %s\n", who,
			       strerror(errno));
			return 1;
		}
		smc_set_timeouts(fd, o->timeout * 1000);
		if (run_exchange(o, fd, o->first + i, who))
			fails++;
		close(fd);
		fflush(stdout);
	}
	return fails ? 1 : 0;
}

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s server --family smc|tcp|ipproto [--ipv6] --port P [--bytes N]\n"
		"                 [--count C] [--echo] [--ready-file F] [--timeout S]\n"
		"                 [--hold F]\n"
		"       %s client --family smc|tcp|ipproto --host IP --port P [--bytes N]\n"
		"                 [--count C] [--first I] [--timeout S] [--hold F]\n"
		"N accepts K, M and G suffixes (binary).\n", prog, prog);
	exit(2);
}

static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	switch (*end) {
	case 'k': case 'K':
		return v << 10;
	case 'm': case 'M':
		return v << 20;
	case 'g': case 'G':
		return v << 30;
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "family", required_argument, NULL, 'f' },
		{ "ipv6", no_argument, NULL, '6' },
		{ "host", required_argument, NULL, 'h' },
		{ "port", required_argument, NULL, 'p' },
		{ "bytes", required_argument, NULL, 'b' },
		{ "count", required_argument, NULL, 'c' },
		{ "first", required_argument, NULL, 'i' },
		{ "echo", no_argument, NULL, 'e' },
		{ "ready-file", required_argument, NULL, 'r' },
		{ "timeout", required_argument, NULL, 't' },
		{ "hold", required_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = {
		.smc = true, .bytes = 16 << 20, .count = -1, .timeout = 60,
	};
	bool have_family = false;
	int c;

	if (argc < 2)
		print_usage(argv[0]);
	if (!strcmp(argv[1], "server"))
		o.server = true;
	else if (strcmp(argv[1], "client"))
		print_usage(argv[0]);
	optind = 2;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			have_family = true;
			if (!strcmp(optarg, "tcp"))
				o.smc = false;
			else if (!strcmp(optarg, "ipproto"))
				o.ipproto = true;
			else if (strcmp(optarg, "smc"))
				print_usage(argv[0]);
			break;
		case '6':
			o.ipv6 = true;
			break;
		case 'h':
			o.host = optarg;
			break;
		case 'p':
			o.port = atoi(optarg);
			break;
		case 'b':
			o.bytes = parse_size(optarg);
			break;
		case 'c':
			o.count = atol(optarg);
			break;
		case 'i':
			o.first = atol(optarg);
			break;
		case 'e':
			o.echo = true;
			break;
		case 'r':
			o.ready_file = optarg;
			break;
		case 't':
			o.timeout = atoi(optarg);
			break;
		case 'H':
			o.hold = optarg;
			break;
		default:
			print_usage(argv[0]);
		}
	}
	if (!have_family || !o.port || optind != argc ||
	    (!o.server && !o.host) || o.first < 0 || (o.server && o.first))
		print_usage(argv[0]);
	if (!o.server && o.count < 0)
		o.count = 1;
	if (o.server && !o.echo && o.count < 0)
		o.count = 1;
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	return o.server ? run_server(&o) : run_client(&o);
}
