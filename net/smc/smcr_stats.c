// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the statistics of each network namespace, as Linux 6.1 keeps
 * them for SMC_GEN_NETLINK (smcr_netlink.c encodes them).
 *
 * A connection counts in the namespace of its socket. The handshake
 * counts once it ended: over SMC-R in its version, through fallback with
 * its reason, or in an error. Data calls count where the socket layer
 * hands them to SMC-R (smcr_af.c), buffers where they are allocated.
 *
 * Locking and ordering:
 *  - The counters (struct smcr_stats) are per CPU and only ever grow.
 *    Writers use this_cpu_*() and need no lock. A reader sums every
 *    possible CPU's copy without a lock: each u64 is read whole (64-bit
 *    only, as the module is), but the sum is no snapshot of one instant,
 *    so two counters need not agree with each other at any time.
 *  - The fallbacks (struct smcr_stats_fbacks) are one table per
 *    namespace under its fback_lock; a reader copies the table under it.
 *  - The handshake limitation flag is a plain bool, READ_ONCE/WRITE_ONCE.
 */

#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "smcr.h"
#include "smcr_stats.h"

/**
 * struct smcr_net - what SMC-R keeps per network namespace
 * @stats: the counters, per CPU
 * @fback_lock: protects @fbacks
 * @fbacks: the fallbacks and their reasons
 * @hs_limited: SMC_NETLINK_ENABLE_HS_LIMITATION was asked for: AF_SMC
 *	sockets created from then on limit their handshakes when they listen
 *	(smcr_listen.c)
 */
struct smcr_net {
	struct smcr_stats __percpu	*stats;
	spinlock_t			fback_lock;	/* see above */
	struct smcr_stats_fbacks	fbacks;
	bool				hs_limited;
};

static unsigned int smcr_net_id __read_mostly;

static struct smcr_net *smcr_net(struct net *net)
{
	return net_generic(net, smcr_net_id);
}

static struct smcr_stats __percpu *smcr_stats_of(struct smcr_sock *smc)
{
	return smcr_net(sock_net(&smc->sk))->stats;
}

/* A child in its handshake still knows its listener: the server side */
static int smcr_stats_role(const struct smcr_sock *smc)
{
	return smc->listener ? SMCR_STATS_SRV : SMCR_STATS_CLNT;
}

/* The size class of @len bytes (> 0): up to 8 KiB, up to 16 KiB, ... */
static unsigned int smcr_stats_class(u64 len)
{
	return min_t(unsigned int, fls64((len - 1) >> 13),
		     SMCR_STATS_SIZES - 1);
}

/**
 * smcr_stats_hs_done() - a handshake ended with the connection over SMC-R
 * @smc: the connection, registered on its link group
 */
void smcr_stats_hs_done(struct smcr_sock *smc)
{
	struct smcr_stats __percpu *st = smcr_stats_of(smc);
	int role = smcr_stats_role(smc);

	if (smc->conn.lgr->version == SMCR_CLC_V2)
		this_cpu_inc(st->smcr.v2_ok[role]);
	else
		this_cpu_inc(st->smcr.v1_ok[role]);
}

/**
 * smcr_stats_hs_error() - a handshake failed: the connection is dropped
 * @smc: the connection
 */
void smcr_stats_hs_error(struct smcr_sock *smc)
{
	this_cpu_inc(smcr_stats_of(smc)->hs_err[smcr_stats_role(smc)]);
}

/**
 * smcr_stats_fallback() - a connection fell back to TCP
 * @smc: the connection, still in its handshake
 * @reason: the CLC decline code it fell back for
 */
void smcr_stats_fallback(struct smcr_sock *smc, u32 reason)
{
	struct smcr_net *sn = smcr_net(sock_net(&smc->sk));
	struct smcr_stats_fback *fb;
	int role = smcr_stats_role(smc), i;

	spin_lock_bh(&sn->fback_lock);
	sn->fbacks.total[role]++;
	fb = sn->fbacks.reason[role];
	for (i = 0; i < SMCR_STATS_FBACK_MAX; i++) {
		if (fb[i].code && fb[i].code != reason)
			continue;
		fb[i].code = reason;
		fb[i].count++;
		break;
	}
	spin_unlock_bh(&sn->fback_lock);
}

/* A call that moved data: @class_len decides its size class */
static void smcr_stats_data(struct smcr_stats_dir __percpu *dir,
			    u64 class_len, int rc)
{
	this_cpu_inc(dir->calls);
	if (rc <= 0 || !class_len)
		return;
	this_cpu_inc(dir->payload.n[smcr_stats_class(class_len)]);
	this_cpu_add(dir->bytes, rc);
}

/**
 * smcr_stats_tx() - a send call over SMC-R returned
 * @smc: the connection
 * @flags: the call's message flags
 * @len: bytes asked to send
 * @rc: what the call returned
 */
void smcr_stats_tx(struct smcr_sock *smc, int flags, size_t len, int rc)
{
	struct smcr_stats __percpu *st = smcr_stats_of(smc);

	if (flags & MSG_OOB)
		this_cpu_inc(st->smcr.urgent);
	smcr_stats_data(&st->smcr.tx, len, rc);
}

/**
 * smcr_stats_rx() - a receive call over SMC-R returned
 * @smc: the connection
 * @flags: the call's flags
 * @rc: what the call returned
 */
void smcr_stats_rx(struct smcr_sock *smc, int flags, int rc)
{
	struct smcr_stats __percpu *st = smcr_stats_of(smc);

	if ((flags & MSG_OOB) && rc >= 0)
		this_cpu_inc(st->smcr.urgent);
	smcr_stats_data(&st->smcr.rx, rc > 0 ? rc : 0, rc);
}

/**
 * smcr_stats_splice() - a splice call reads from an SMC-R connection
 * @smc: the connection
 */
void smcr_stats_splice(struct smcr_sock *smc)
{
	this_cpu_inc(smcr_stats_of(smc)->smcr.splice);
}

/**
 * smcr_stats_buf() - a connection got a buffer
 * @smc: the connection
 * @rx: its RMB, else its send buffer
 * @size: bytes
 * @reused: a spare of its link group, else new memory
 *
 * Its bytes count as in use until smcr_stats_buf_put().
 */
void smcr_stats_buf(struct smcr_sock *smc, bool rx, u32 size, bool reused)
{
	struct smcr_stats __percpu *st = smcr_stats_of(smc);
	struct smcr_stats_dir __percpu *d = rx ? &st->smcr.rx : &st->smcr.tx;

	if (reused)
		this_cpu_inc(d->bufs.reuse);
	else
		this_cpu_inc(d->bufs.alloc);
	if (size)
		this_cpu_inc(d->bufs.size.n[smcr_stats_class(size)]);
	this_cpu_add(d->usage, size);
}

/**
 * smcr_stats_buf_put() - a connection gave back a buffer it got
 * @smc: the connection
 * @rx: its RMB, else its send buffer
 * @size: bytes, as smcr_stats_buf() counted them
 */
void smcr_stats_buf_put(struct smcr_sock *smc, bool rx, u32 size)
{
	struct smcr_stats __percpu *st = smcr_stats_of(smc);
	struct smcr_stats_dir __percpu *d = rx ? &st->smcr.rx : &st->smcr.tx;

	this_cpu_sub(d->usage, (u64)size);
}

/**
 * smcr_stats_buf_event() - a call found a buffer too small or full
 * @smc: the connection
 * @rx: a receive call (its RMB), else a send call
 * @ev: what it found
 *
 * As Linux's smc.ko counts them: a send call asking for more than the
 * send buffer (SMALL) or the peer's RMBE (SMALL_PEER) holds; a sender
 * that had to wait for room in the send buffer (FULL) or in the peer's
 * RMBE (FULL_PEER); a receive call finding its RMB full (FULL) or more
 * unread than it asked for (SMALL).
 */
void smcr_stats_buf_event(struct smcr_sock *smc, bool rx,
			  enum smcr_stats_buf_event ev)
{
	struct smcr_stats __percpu *st = smcr_stats_of(smc);
	struct smcr_stats_bufs __percpu *b = rx ? &st->smcr.rx.bufs :
						  &st->smcr.tx.bufs;

	switch (ev) {
	case SMCR_STATS_BUF_SMALL:
		this_cpu_inc(b->small);
		break;
	case SMCR_STATS_BUF_SMALL_PEER:
		this_cpu_inc(b->small_peer);
		break;
	case SMCR_STATS_BUF_FULL:
		this_cpu_inc(b->full);
		break;
	case SMCR_STATS_BUF_FULL_PEER:
		this_cpu_inc(b->full_peer);
		break;
	}
}

/**
 * smcr_stats_read() - the counters of a namespace, summed over the CPUs
 * @net: the namespace
 * @sum: filled
 */
void smcr_stats_read(struct net *net, struct smcr_stats *sum)
{
	struct smcr_stats __percpu *st = smcr_net(net)->stats;
	const u64 *from;
	u64 *to = (u64 *)sum;
	unsigned int i;
	int cpu;

	BUILD_BUG_ON(sizeof(*sum) % sizeof(u64));
	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		from = (const u64 *)per_cpu_ptr(st, cpu);
		for (i = 0; i < sizeof(*sum) / sizeof(u64); i++)
			to[i] += READ_ONCE(from[i]);
	}
}

/**
 * smcr_stats_read_fbacks() - a copy of the fallbacks of a namespace
 * @net: the namespace
 * @fb: filled
 */
void smcr_stats_read_fbacks(struct net *net, struct smcr_stats_fbacks *fb)
{
	struct smcr_net *sn = smcr_net(net);

	spin_lock_bh(&sn->fback_lock);
	*fb = sn->fbacks;
	spin_unlock_bh(&sn->fback_lock);
}

/**
 * smcr_stats_hs_limited() - whether handshake limitation is asked for
 * @net: the namespace
 *
 * Return: the flag.
 */
bool smcr_stats_hs_limited(struct net *net)
{
	return READ_ONCE(smcr_net(net)->hs_limited);
}

/**
 * smcr_stats_set_hs_limited() - ask for handshake limitation, or not
 * @net: the namespace
 * @on: the new flag, the SMC_LIMIT_HS default of sockets created after
 */
void smcr_stats_set_hs_limited(struct net *net, bool on)
{
	WRITE_ONCE(smcr_net(net)->hs_limited, on);
}

static int __net_init smcr_stats_net_init(struct net *net)
{
	struct smcr_net *sn = smcr_net(net);

	spin_lock_init(&sn->fback_lock);
	sn->stats = alloc_percpu(struct smcr_stats);
	return sn->stats ? 0 : -ENOMEM;
}

static void __net_exit smcr_stats_net_exit(struct net *net)
{
	free_percpu(smcr_net(net)->stats);
}

static struct pernet_operations smcr_stats_net_ops = {
	.init	= smcr_stats_net_init,
	.exit	= smcr_stats_net_exit,
	.id	= &smcr_net_id,
	.size	= sizeof(struct smcr_net),
};

/**
 * smcr_stats_init() - keep statistics in every network namespace
 *
 * Return: 0 or a negative errno.
 */
int smcr_stats_init(void)
{
	return register_pernet_subsys(&smcr_stats_net_ops);
}

/**
 * smcr_stats_exit() - forget every namespace's statistics
 */
void smcr_stats_exit(void)
{
	unregister_pernet_subsys(&smcr_stats_net_ops);
}
