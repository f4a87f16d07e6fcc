/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: what each network namespace keeps for SMC_GEN_NETLINK: the
 * counters of SMC_NETLINK_GET_STATS, the fallback reasons of
 * SMC_NETLINK_GET_FBACK_STATS and the handshake limitation flag.
 */
#ifndef SMCR_STATS_H
#define SMCR_STATS_H

#include <linux/types.h>

struct net;
struct smcr_sock;

#define SMCR_STATS_SIZES	9	/* 8 KiB, 16 KiB, ... 1 MiB, beyond */
#define SMCR_STATS_FBACK_MAX	30	/* distinct reasons kept a role */

/* Roles, as the ABI numbers them (SMC_NLA_FBACK_STATS_TYPE: 1 server) */
enum {
	SMCR_STATS_CLNT,
	SMCR_STATS_SRV,
	SMCR_STATS_ROLES,
};

/* How many of something fell in each size class */
struct smcr_stats_sizes {
	u64	n[SMCR_STATS_SIZES];
};

/**
 * struct smcr_stats_bufs - the buffers of one direction
 * @reuse: taken over from an earlier connection of the link group
 * @small_peer: a send larger than the peer's RMB
 * @small: a send larger than the send buffer
 * @full_peer: a send found the peer's RMB full
 * @full: a send found the send buffer full
 * @alloc: buffers allocated anew
 * @downgrade: allocated smaller than asked for
 * @size: buffers allocated or reused, by size
 */
struct smcr_stats_bufs {
	u64			reuse;
	u64			small_peer;
	u64			small;
	u64			full_peer;
	u64			full;
	u64			alloc;
	u64			downgrade;
	struct smcr_stats_sizes	size;
};

/**
 * struct smcr_stats_dir - the data of one direction over SMC
 * @bytes: bytes sent or received
 * @calls: send or receive calls
 * @payload: calls that moved data, by the length asked (send) or
 *	moved (receive)
 * @bufs: send buffers (tx) or RMBs (rx)
 * @usage: bytes of those the namespace's connections hold now (Linux
 *	6.12's RMB usage); per CPU it may wrap, the sum does not
 */
struct smcr_stats_dir {
	u64			bytes;
	u64			calls;
	u64			usage;
	struct smcr_stats_sizes	payload;
	struct smcr_stats_bufs	bufs;
};

/**
 * struct smcr_stats_tech - the counters of SMC-R or of SMC-D
 * @v1_ok: handshakes that ended over SMC v1, by role
 * @v2_ok: handshakes that ended over SMC v2, by role
 * @tx: sending
 * @rx: receiving
 * @sendpage: sendpage calls
 * @splice: splice calls reading from a connection
 * @cork: TCP_CORK cleared
 * @nodelay: TCP_NODELAY set
 * @urgent: urgent data sent or read
 */
struct smcr_stats_tech {
	u64			v1_ok[SMCR_STATS_ROLES];
	u64			v2_ok[SMCR_STATS_ROLES];
	struct smcr_stats_dir	tx;
	struct smcr_stats_dir	rx;
	u64			sendpage;
	u64			splice;
	u64			cork;
	u64			nodelay;
	u64			urgent;
};

/**
 * struct smcr_stats - the counters of a namespace, all u64
 * @smcd: SMC-D: always zero, there is no ISM device here
 * @smcr: SMC-R
 * @hs_err: handshakes that failed (neither SMC nor fallback), by role
 */
struct smcr_stats {
	struct smcr_stats_tech	smcd;
	struct smcr_stats_tech	smcr;
	u64			hs_err[SMCR_STATS_ROLES];
};

/**
 * struct smcr_stats_fback - connections that fell back for one reason
 * @code: the reason, a CLC decline code; 0 marks a free entry
 * @count: how many, modulo 2^16 as the ABI carries it
 */
struct smcr_stats_fback {
	u32	code;
	u16	count;
};

/**
 * struct smcr_stats_fbacks - the fallbacks of a namespace
 * @total: connections that fell back, by role
 * @reason: by role, the first SMCR_STATS_FBACK_MAX distinct reasons in
 *	the order they first occurred, free entries last; later new ones
 *	count in @total only
 */
struct smcr_stats_fbacks {
	u64			total[SMCR_STATS_ROLES];
	struct smcr_stats_fback	reason[SMCR_STATS_ROLES][SMCR_STATS_FBACK_MAX];
};

int smcr_stats_init(void);
void smcr_stats_exit(void);

void smcr_stats_hs_done(struct smcr_sock *smc);
void smcr_stats_hs_error(struct smcr_sock *smc);
void smcr_stats_fallback(struct smcr_sock *smc, u32 reason);
void smcr_stats_tx(struct smcr_sock *smc, int flags, size_t len, int rc);
void smcr_stats_rx(struct smcr_sock *smc, int flags, int rc);
void smcr_stats_splice(struct smcr_sock *smc);
void smcr_stats_buf(struct smcr_sock *smc, bool rx, u32 size, bool reused);
void smcr_stats_buf_put(struct smcr_sock *smc, bool rx, u32 size);

/* What a send or receive call found of the buffers (smcr_stats_bufs) */
enum smcr_stats_buf_event {
	SMCR_STATS_BUF_SMALL,		/* the call asked for more than fits */
	SMCR_STATS_BUF_SMALL_PEER,	/* ... than the peer's RMBE holds */
	SMCR_STATS_BUF_FULL,		/* no room left, or nothing unread */
	SMCR_STATS_BUF_FULL_PEER,	/* the peer's RMBE is full */
};

void smcr_stats_buf_event(struct smcr_sock *smc, bool rx,
			  enum smcr_stats_buf_event ev);

void smcr_stats_read(struct net *net, struct smcr_stats *sum);
void smcr_stats_read_fbacks(struct net *net, struct smcr_stats_fbacks *fb);
bool smcr_stats_hs_limited(struct net *net);
void smcr_stats_set_hs_limited(struct net *net, bool on);

#endif /* SMCR_STATS_H */
