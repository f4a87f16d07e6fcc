// SPDX-License-Identifier: GPL-2.0
/*
 * smc_bench: the throughput, latency and connection rate of one stream
 * transport, AF_SMC (whichever module serves it) or TCP, for
 * scripts/bench. Not a test: it measures and prints, nothing more.
 *
 *   smc_bench server --family smc|tcp [--ipv6] --port P
 *   smc_bench client --family smc|tcp --host IP --port P
 *                    --mode bulk|rr|crr [--size N] [--secs S]
 *                    [--streams N]
 *
 * Every connection opens with a header of two 32 bit words in network
 * order, the mode and the message size, and then:
 *   bulk  the client writes messages of --size bytes (default 65536) for
 *         --secs seconds (default 5) and shuts its side down; the server
 *         reads to the end and answers with the count it read (64 bits).
 *         Throughput is the receiver's bytes over the time until that
 *         count came back. --streams N runs N connections at once, each
 *         in its own thread, and sums them.
 *   rr    requests of --size bytes (default 1), each answered with as
 *         many, one at a time for --secs; every round trip's time is
 *         kept, and the rate, p50, p90, p99 and the largest printed.
 *   crr   one connection per round: connect, the header and one byte,
 *         the server's one byte back, close; the rate printed.
 * The client prints one line of name=value pairs; the server serves until
 * it is killed.
 */
#include <getopt.h>
#include <netinet/tcp.h>
#include <pthread.h>

#include "smc_common.h"

enum bench_mode { MODE_BULK = 1, MODE_RR, MODE_CRR };

#define BENCH_BUF	1048576
#define BENCH_STREAMS	64

struct opts {
	bool server;
	bool smc;
	bool ipv6;
	const char *host;
	uint16_t port;
	enum bench_mode mode;
	uint32_t size;
	double secs;
	int streams;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	fprintf(stderr, "smc_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* ------------------------------------------------------------ server */

static void serve_bulk(int fd, uint8_t *buf)
{
	uint64_t total = 0, be;
	ssize_t n;

	while ((n = recv(fd, buf, BENCH_BUF, 0)) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			total += n;
	if (n < 0)
		return;
	be = htobe64(total);
	smc_write_all(fd, &be, sizeof(be));
}

static void serve_rr(int fd, uint8_t *buf, uint32_t size)
{
	while (!smc_read_full(fd, buf, size, 0))
		if (smc_write_all(fd, buf, size))
			break;
}

/* one accepted connection, its descriptor in @arg */
static void *serve_conn(void *arg)
{
	int fd = (int)(intptr_t)arg;
	uint32_t hdr[2], size;
	uint8_t *buf = malloc(BENCH_BUF);
	int one = 1;

	if (!buf || smc_read_full(fd, hdr, sizeof(hdr), 0))
		goto out;
	size = ntohl(hdr[1]);
	if (!size || size > BENCH_BUF)
		goto out;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	switch (ntohl(hdr[0])) {
	case MODE_BULK:
		serve_bulk(fd, buf);
		break;
	case MODE_RR:
	case MODE_CRR:
		serve_rr(fd, buf, size);
		break;
	}
out:
	close(fd);
	free(buf);
	return NULL;
}

static int run_server(const struct opts *o)
{
	struct sockaddr_storage ss;
	socklen_t len;
	pthread_t t;
	int lfd, fd, one = 1;

	len = smc_make_addr(o->ipv6 ? "::" : "0.0.0.0", o->port, &ss);
	lfd = smc_stream_socket(o->smc, ss.ss_family);
	if (lfd < 0)
		die("socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&ss, len) || listen(lfd, 128))
		die("bind/listen");
	for (;;) {
		fd = accept(lfd, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			die("accept");
		}
		if (pthread_create(&t, NULL, serve_conn, (void *)(intptr_t)fd)) {
			close(fd);
			continue;
		}
		pthread_detach(t);
	}
	return 0;
}

/* ------------------------------------------------------------ client */

static int dial(const struct opts *o, enum bench_mode mode)
{
	uint32_t hdr[2] = { htonl(mode), htonl(o->size) };
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, one = 1;

	len = smc_make_addr(o->host, o->port, &ss);
	if (!len) {
		errno = EINVAL;
		die(o->host);
	}
	fd = smc_stream_socket(o->smc, ss.ss_family);
	if (fd < 0)
		die("socket");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&ss, len))
		die("connect");
	if (mode != MODE_CRR && smc_write_all(fd, hdr, sizeof(hdr)))
		die("send");
	return fd;
}

struct stream {
	const struct opts *o;
	pthread_t thread;
	uint64_t bytes;
	double end;
};

static void *bulk_stream(void *arg)
{
	struct stream *s = arg;
	const struct opts *o = s->o;
	uint8_t *buf = calloc(1, o->size);
	double stop = now_s() + o->secs;
	uint64_t be;
	int fd;

	if (!buf)
		die("calloc");
	fd = dial(o, MODE_BULK);
	while (now_s() < stop)
		if (smc_write_all(fd, buf, o->size))
			die("send");
	if (shutdown(fd, SHUT_WR) || smc_read_full(fd, &be, sizeof(be), 0))
		die("the server's count");
	s->end = now_s();
	s->bytes = be64toh(be);
	close(fd);
	free(buf);
	return NULL;
}

static void run_bulk(const struct opts *o)
{
	struct stream s[BENCH_STREAMS] = {};
	double start = now_s(), end = start;
	uint64_t bytes = 0;
	int i;

	for (i = 0; i < o->streams; i++) {
		s[i].o = o;
		if (pthread_create(&s[i].thread, NULL, bulk_stream, &s[i]))
			die("pthread_create");
	}
	for (i = 0; i < o->streams; i++) {
		pthread_join(s[i].thread, NULL);
		bytes += s[i].bytes;
		if (s[i].end > end)
			end = s[i].end;
	}
	printf("mode=bulk size=%u streams=%d secs=%.2f bytes=%llu mbps=%.6g\n",
	       o->size, o->streams, end - start, (unsigned long long)bytes,
	       bytes * 8 / (end - start) / 1e6);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* the @p-th percentile of @n sorted samples, nearest rank */
static double pct(const double *v, size_t n, double p)
{
	size_t k = (size_t)(p / 100 * n + 0.5);

	return v[k ? (k > n ? n : k) - 1 : 0];
}

static void run_rr(const struct opts *o)
{
	size_t n = 0, cap = 1 << 16;
	double *rtt = malloc(cap * sizeof(*rtt));
	uint8_t *buf = calloc(1, o->size);
	double start, stop, t;
	int fd;

	if (!rtt || !buf)
		die("malloc");
	fd = dial(o, MODE_RR);
	start = now_s();
	stop = start + o->secs;
	while ((t = now_s()) < stop) {
		if (smc_write_all(fd, buf, o->size) ||
		    smc_read_full(fd, buf, o->size, 0))
			die("round trip");
		if (n == cap) {
			cap *= 2;
			rtt = realloc(rtt, cap * sizeof(*rtt));
			if (!rtt)
				die("realloc");
		}
		rtt[n++] = (now_s() - t) * 1e6;
	}
	close(fd);
	if (!n) {
		errno = ETIMEDOUT;
		die("no round trip");
	}
	qsort(rtt, n, sizeof(*rtt), cmp_double);
	t = now_s() - start;
	printf("mode=rr size=%u secs=%.2f n=%zu rate=%.1f", o->size, t, n,
	       n / t);
	printf(" p50_us=%.1f p90_us=%.1f p99_us=%.1f max_us=%.1f\n",
	       pct(rtt, n, 50), pct(rtt, n, 90), pct(rtt, n, 99), rtt[n - 1]);
	free(rtt);
	free(buf);
}

static void run_crr(const struct opts *o)
{
	uint8_t req[9], b;
	uint32_t hdr[2] = { htonl(MODE_CRR), htonl(1) };
	double start = now_s(), stop = start + o->secs, elapsed;
	size_t n = 0;
	int fd;

	memcpy(req, hdr, sizeof(hdr));
	req[8] = 1;
	while (now_s() < stop) {
		fd = dial(o, MODE_CRR);
		if (smc_write_all(fd, req, sizeof(req)) ||
		    smc_read_full(fd, &b, 1, 0))
			die("request");
		close(fd);
		n++;
	}
	elapsed = now_s() - start;
	printf("mode=crr secs=%.2f n=%zu rate=%.1f\n", elapsed, n,
	       n / elapsed);
}

/* ------------------------------------------------------------ main */

static void print_usage(void)
{
	fprintf(stderr,
		"usage: %s server --family smc|tcp [--ipv6] --port P\n"
		"       %s client --family smc|tcp --host IP --port P\n"
		"                 --mode bulk|rr|crr [--size N] [--secs S] [--streams N]\n",
		"smc_bench", "smc_bench");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "family", required_argument, NULL, 'f' },
		{ "ipv6", no_argument, NULL, '6' },
		{ "host", required_argument, NULL, 'h' },
		{ "port", required_argument, NULL, 'p' },
		{ "mode", required_argument, NULL, 'm' },
		{ "size", required_argument, NULL, 's' },
		{ "secs", required_argument, NULL, 't' },
		{ "streams", required_argument, NULL, 'n' },
		{}
	};
	struct opts o = { .secs = 5, .streams = 1 };
	bool family = false;
	int c;

	if (argc < 2)
		print_usage();
	if (!strcmp(argv[1], "server"))
		o.server = true;
	else if (strcmp(argv[1], "client"))
		print_usage();
	optind = 2;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'f':
			family = true;
			if (!strcmp(optarg, "smc"))
				o.smc = true;
			else if (strcmp(optarg, "tcp"))
				print_usage();
			break;
		case '6':
			o.ipv6 = true;
			break;
		case 'h':
			o.host = optarg;
			break;
		case 'p':
			o.port = (uint16_t)atoi(optarg);
			break;
		case 'm':
			if (!strcmp(optarg, "bulk"))
				o.mode = MODE_BULK;
			else if (!strcmp(optarg, "rr"))
				o.mode = MODE_RR;
			else if (!strcmp(optarg, "crr"))
				o.mode = MODE_CRR;
			else
				print_usage();
			break;
		case 's':
			o.size = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 't':
			o.secs = atof(optarg);
			break;
		case 'n':
			o.streams = atoi(optarg);
			break;
		default:
			print_usage();
		}
	}
	if (!family || !o.port || optind != argc)
		print_usage();
	if (o.server)
		return run_server(&o);
	if (!o.host || !o.mode || o.secs <= 0 || o.streams < 1 ||
	    o.streams > BENCH_STREAMS || o.size > BENCH_BUF)
		print_usage();
	if (!o.size)
		o.size = o.mode == MODE_BULK ? 65536 : 1;
	if (o.mode == MODE_CRR)
		o.size = 1;
	if (o.mode == MODE_BULK)
		run_bulk(&o);
	else if (o.mode == MODE_RR)
		run_rr(&o);
	else
		run_crr(&o);
	return 0;
}
