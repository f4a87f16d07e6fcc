/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the smcr selftests (smc_api, smc_wire, smc_peer):
 * AF_SMC constants, address handling, a deterministic pseudo-random
 * byte stream, SHA-256 through OpenSSL's EVP API and a few /proc readers.
 *
 * The byte stream is random access: byte @off of the stream seeded with
 * @seed is byte (@off % 8) of the 64 bit word smc_pat_word(seed, off / 8),
 * so a receiver can verify any chunk without replaying what came before.
 */
#ifndef _SMC_COMMON_H
#define _SMC_COMMON_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include <linux/smcr.h>

#define SMC_SHA256_LEN	32

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* splitmix64 finalizer: a good 64 bit mixer, cheap under TCG */
static inline uint64_t smc_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static inline uint64_t smc_pat_word(uint64_t seed, uint64_t idx)
{
	return smc_mix64(seed ^ smc_mix64(idx));
}

/* fill @buf with @len bytes of stream @seed starting at stream offset @off */
static inline void smc_pat_fill(uint64_t seed, uint64_t off, uint8_t *buf,
				size_t len)
{
	uint64_t w;
	size_t i = 0;

	/* unaligned head */
	while (i < len && ((off + i) & 7)) {
		w = smc_pat_word(seed, (off + i) >> 3);
		buf[i] = (uint8_t)(w >> (8 * ((off + i) & 7)));
		i++;
	}
	/* whole words, little-endian byte order within a word */
	while (len - i >= 8) {
		w = smc_pat_word(seed, (off + i) >> 3);
		buf[i + 0] = (uint8_t)w;
		buf[i + 1] = (uint8_t)(w >> 8);
		buf[i + 2] = (uint8_t)(w >> 16);
		buf[i + 3] = (uint8_t)(w >> 24);
		buf[i + 4] = (uint8_t)(w >> 32);
		buf[i + 5] = (uint8_t)(w >> 40);
		buf[i + 6] = (uint8_t)(w >> 48);
		buf[i + 7] = (uint8_t)(w >> 56);
		i += 8;
	}
	/* tail */
	while (i < len) {
		w = smc_pat_word(seed, (off + i) >> 3);
		buf[i] = (uint8_t)(w >> (8 * ((off + i) & 7)));
		i++;
	}
}

/*
 * Check @len received bytes at stream offset @off against stream @seed.
 * Returns -1 when they all match, else the index in @buf of the first
 * differing byte.  @scratch must hold @len bytes.
 */
static inline long smc_pat_check(uint64_t seed, uint64_t off,
				 const uint8_t *buf, size_t len,
				 uint8_t *scratch)
{
	size_t i;

	smc_pat_fill(seed, off, scratch, len);
	if (!memcmp(buf, scratch, len))
		return -1;
	for (i = 0; i < len; i++)
		if (buf[i] != scratch[i])
			break;
	return (long)i;
}

/* SHA-256 accumulator */
struct smc_sha {
	EVP_MD_CTX *ctx;
};

static inline int smc_sha_init(struct smc_sha *s)
{
	s->ctx = EVP_MD_CTX_new();
	if (!s->ctx)
		return -1;
	if (EVP_DigestInit_ex(s->ctx, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(s->ctx);
		s->ctx = NULL;
		return -1;
	}
	return 0;
}

static inline void smc_sha_update(struct smc_sha *s, const void *p, size_t n)
{
	EVP_DigestUpdate(s->ctx, p, n);
}

static inline void smc_sha_final(struct smc_sha *s, uint8_t *md)
{
	unsigned int len = SMC_SHA256_LEN;

	EVP_DigestFinal_ex(s->ctx, md, &len);
	EVP_MD_CTX_free(s->ctx);
	s->ctx = NULL;
}

static inline void smc_sha_hex(const uint8_t *md, char *out)
{
	int i;

	for (i = 0; i < SMC_SHA256_LEN; i++)
		sprintf(out + 2 * i, "%02x", md[i]);
}

/* monotonic clock in milliseconds */
static inline long long smc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Parse a numeric IPv4 or IPv6 address and port into @ss.  Returns the
 * address length, or 0 if @host is not a numeric address.
 */
static inline socklen_t smc_make_addr(const char *host, uint16_t port,
				      struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, host, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		return sizeof(*sin);
	}
	if (inet_pton(AF_INET6, host, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		return sizeof(*sin6);
	}
	return 0;
}

static inline uint16_t smc_addr_port(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	return ntohs(((const struct sockaddr_in *)ss)->sin_port);
}

/* send all @len bytes of @buf; -1 on error */
static inline int smc_write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * Read exactly @len bytes, passing @flags to recv(); -1 on error or on
 * early EOF (errno EPIPE).
 */
static inline int smc_read_full(int fd, void *buf, size_t len, int flags)
{
	uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = recv(fd, p, len, flags);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EPIPE;
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

/* receive and send timeouts of @ms milliseconds */
static inline void smc_set_timeouts(int fd, int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000,
			      .tv_usec = (ms % 1000) * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* stream socket of @family: AF_SMC if @smc, else plain TCP */
static inline int smc_stream_socket(bool smc, int family)
{
	if (smc)
		return socket(AF_SMC, SOCK_STREAM,
			      family == AF_INET6 ? SMCPROTO_SMC6 : SMCPROTO_SMC);
	return socket(family, SOCK_STREAM, 0);
}

/*
 * Value of the "inuse" field of the @proto line ("TCP" in
 * /proc/net/sockstat, "TCP6" in /proc/net/sockstat6); -1 if not found.
 */
static inline long smc_sockstat_inuse(const char *file, const char *proto)
{
	char line[256], key[32];
	long val = -1, v;
	FILE *f;

	f = fopen(file, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%31[^:]: inuse %ld", key, &v) == 2 &&
		    !strcmp(key, proto)) {
			val = v;
			break;
		}
	}
	fclose(f);
	return val;
}

/*
 * Sum of the "sockets" column of /proc/net/protocols over the lines whose
 * name starts with "SMC" (ours is "SMCR", Linux's smc.ko has SMC and
 * SMC6); -1 if the file cannot be read.
 */
static inline long smc_proto_sockets(void)
{
	char line[512], name[32];
	long sum = 0, v;
	FILE *f;

	f = fopen("/proc/net/protocols", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%31s %*u %ld", name, &v) == 2 &&
		    !strncmp(name, "SMC", 3))
			sum += v;
	}
	fclose(f);
	return sum;
}

/* number of open file descriptors of this process */
static inline int smc_count_fds(void)
{
	int fd, n = 0;

	for (fd = 0; fd < 4096; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

#endif /* _SMC_COMMON_H */
