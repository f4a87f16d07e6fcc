// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the net.smc.* sysctls of each network namespace.
 *
 * Names, types, ranges and defaults are those of Linux 6.1, so what tunes
 * Linux's smc.ko tunes this module alike. What each one does here:
 *
 *   wmem, rmem          the send buffer and RMB size of a new connection
 *                       whose socket has no SO_SNDBUF, SO_RCVBUF (see
 *                       smcr_lgr.c: rounded up to a power of two, at most
 *                       512 KiB, the largest an SMC-R v1 CLC message names)
 *   smcr_testlink_time  seconds between TEST LINK probes of the link of a
 *                       link group created from then on; 0: none
 *   autocorking_size    at most this many bytes (and half the send
 *                       buffer) wait, corked, while a CDC message of the
 *                       connection is in flight (smcr_tx.c); 0: none
 *   smcr_buf_type       kept and read back only: our buffers are always
 *                       physically contiguous (type 0)
 *
 * Built against a kernel whose smc.ko has SMC release 1 (6.12's "SMC
 * v2.1"; smcr_clc.c), also those of that release, with its ranges:
 *
 *   smcr_max_conns_per_lgr  connections a link group of version 2 takes
 *                           at most, proposed on first contact (16-255)
 *   smcr_max_links_per_lgr  links it may have (1-2), the same way
 *   limit_smc_hs            the namespace's handshake limitation flag
 *                           (0-1), which SMC_GEN_NETLINK sets too
 *
 * A new namespace starts with the defaults, not with its creator's values.
 * The sysctl core writes each value whole; readers use READ_ONCE().
 */

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "smcr_stats.h"
#include "smcr_sysctl.h"
#include "smcr_wire_clc.h"

/**
 * struct smcr_sysctl_net - the values of one namespace
 * @hdr: its sysctl table, registered under net/smc
 * @autocorking_size: net.smc.autocorking_size, bytes
 * @smcr_buf_type: net.smc.smcr_buf_type: 0 physical, 1 virtual, 2 mixed
 * @smcr_testlink_time: net.smc.smcr_testlink_time, kept in jiffies
 * @wmem: net.smc.wmem, bytes
 * @rmem: net.smc.rmem, bytes
 * @max_conns: net.smc.smcr_max_conns_per_lgr
 * @max_links: net.smc.smcr_max_links_per_lgr
 * @limit_hs: where net.smc.limit_smc_hs points, unused: the value is
 *	smcr_stats_hs_limited() of @net
 * @net: the namespace
 */
struct smcr_sysctl_net {
	struct ctl_table_header	*hdr;
	unsigned int		autocorking_size;
	unsigned int		smcr_buf_type;
	int			smcr_testlink_time;
	int			wmem;
	int			rmem;
	int			max_conns;
	int			max_links;
	int			limit_hs;
	struct net		*net;
};

/* Linux's defaults */
static const struct smcr_sysctl_net smcr_sysctl_defaults = {
	.autocorking_size	= 64 * 1024,
	.smcr_buf_type		= 0,
	.smcr_testlink_time	= 30 * HZ,
	.wmem			= 64 * 1024,
	.rmem			= 64 * 1024,
	.max_conns		= SMCR_CLC_CONNS_MAX,
	.max_links		= SMCR_CLC_LINKS_MAX,
};

/* Linux's range of wmem and rmem: from the smallest RMB up */
static int smcr_sysctl_mem_min = 16 * 1024;
static int smcr_sysctl_mem_max = INT_MAX / 2;

#ifdef SMCR_HAVE_SMC_V21
static int smcr_sysctl_conns_min = SMCR_CLC_CONNS_MIN;
static int smcr_sysctl_conns_max = SMCR_CLC_CONNS_MAX;
static int smcr_sysctl_links_max = SMCR_CLC_LINKS_MAX;

/* net.smc.limit_smc_hs reads and sets the flag SMC_GEN_NETLINK's
 * ENABLE_HS_LIMITATION and DISABLE_HS_LIMITATION do
 */
#ifdef SMCR_HAVE_CONST_CTL_TABLE
static int smcr_sysctl_limit_hs(const struct ctl_table *t, int write,
				void *buf, size_t *len, loff_t *ppos)
#else
static int smcr_sysctl_limit_hs(struct ctl_table *t, int write,
				void *buf, size_t *len, loff_t *ppos)
#endif
{
	struct smcr_sysctl_net *sn = container_of((int *)t->data,
						  struct smcr_sysctl_net,
						  limit_hs);
	struct ctl_table tmp = *t;
	int val, rc;

	val = smcr_stats_hs_limited(sn->net);
	tmp.data = &val;
	rc = proc_dointvec_minmax(&tmp, write, buf, len, ppos);
	if (!rc && write)
		smcr_stats_set_hs_limited(sn->net, val);
	return rc;
}
#endif

static unsigned int smcr_sysctl_net_id __read_mostly;

/* Every namespace has its values from here on: set once
 * register_pernet_subsys() returned, cleared before it is undone
 */
static bool smcr_sysctl_up;

/* An entry of the template: .data is the offset of the value in struct
 * smcr_sysctl_net, which a namespace's copy turns into its address.
 * Every value is an int or an unsigned int.
 */
#define SMCR_SYSCTL(n, f, h, lo, hi) {					\
	.procname = (n), .mode = 0644, .proc_handler = (h),		\
	.data = (void *)offsetof(struct smcr_sysctl_net, f),		\
	.maxlen = sizeof(int), .extra1 = (lo), .extra2 = (hi) }

static struct ctl_table smcr_sysctl_template[] = {
	SMCR_SYSCTL("autocorking_size", autocorking_size, proc_douintvec,
		    NULL, NULL),
	SMCR_SYSCTL("smcr_buf_type", smcr_buf_type, proc_douintvec_minmax,
		    SYSCTL_ZERO, SYSCTL_TWO),
	SMCR_SYSCTL("smcr_testlink_time", smcr_testlink_time,
		    proc_dointvec_jiffies, NULL, NULL),
	SMCR_SYSCTL("wmem", wmem, proc_dointvec_minmax,
		    &smcr_sysctl_mem_min, &smcr_sysctl_mem_max),
	SMCR_SYSCTL("rmem", rmem, proc_dointvec_minmax,
		    &smcr_sysctl_mem_min, &smcr_sysctl_mem_max),
#ifdef SMCR_HAVE_SMC_V21
	SMCR_SYSCTL("smcr_max_conns_per_lgr", max_conns, proc_dointvec_minmax,
		    &smcr_sysctl_conns_min, &smcr_sysctl_conns_max),
	SMCR_SYSCTL("smcr_max_links_per_lgr", max_links, proc_dointvec_minmax,
		    SYSCTL_ONE, &smcr_sysctl_links_max),
	SMCR_SYSCTL("limit_smc_hs", limit_hs, smcr_sysctl_limit_hs,
		    SYSCTL_ZERO, SYSCTL_ONE),
#endif
	{ }	/* kernels before 6.11 look for the end */
};

#define SMCR_SYSCTL_N	(ARRAY_SIZE(smcr_sysctl_template) - 1)

static const struct smcr_sysctl_net *smcr_sysctl_of(const struct net *net)
{
	/* a socket may be created between the registration of AF_SMC and
	 * ours (smcr_main.c): it gets the defaults
	 */
	if (!smp_load_acquire(&smcr_sysctl_up))
		return &smcr_sysctl_defaults;
	return net_generic(net, smcr_sysctl_net_id);
}

/**
 * smcr_sysctl_buf_size() - net.smc.rmem or net.smc.wmem of a namespace
 * @net: the namespace
 * @rmb: the RMB's size (rmem), else the send buffer's (wmem)
 *
 * Return: bytes, at least 16 KiB.
 */
int smcr_sysctl_buf_size(const struct net *net, bool rmb)
{
	const struct smcr_sysctl_net *sn = smcr_sysctl_of(net);

	return rmb ? READ_ONCE(sn->rmem) : READ_ONCE(sn->wmem);
}

/**
 * smcr_sysctl_testlink_time() - net.smc.smcr_testlink_time of a namespace
 * @net: the namespace
 *
 * Return: jiffies between TEST LINK probes; 0 or less for none.
 */
int smcr_sysctl_testlink_time(const struct net *net)
{
	return READ_ONCE(smcr_sysctl_of(net)->smcr_testlink_time);
}

/**
 * smcr_sysctl_autocorking_size() - net.smc.autocorking_size of a namespace
 * @net: the namespace
 *
 * Return: bytes a sender may stage behind a CDC message in flight.
 */
unsigned int smcr_sysctl_autocorking_size(const struct net *net)
{
	return READ_ONCE(smcr_sysctl_of(net)->autocorking_size);
}

/**
 * smcr_sysctl_lgr_max() - what a namespace lets a link group take
 * @net: the namespace
 * @max_conns: set to net.smc.smcr_max_conns_per_lgr
 * @max_links: set to net.smc.smcr_max_links_per_lgr
 *
 * Both are the largest values where the kernel has no such sysctls.
 */
void smcr_sysctl_lgr_max(const struct net *net, u8 *max_conns, u8 *max_links)
{
	const struct smcr_sysctl_net *sn = smcr_sysctl_of(net);

	*max_conns = clamp_t(int, READ_ONCE(sn->max_conns),
			     SMCR_CLC_CONNS_MIN, SMCR_CLC_CONNS_MAX);
	*max_links = clamp_t(int, READ_ONCE(sn->max_links), 1,
			     SMCR_CLC_LINKS_MAX);
}

static int __net_init smcr_sysctl_net_init(struct net *net)
{
	struct smcr_sysctl_net *sn = net_generic(net, smcr_sysctl_net_id);
	struct ctl_table *t;
	int i;

	*sn = smcr_sysctl_defaults;
	sn->net = net;
	t = kmemdup(smcr_sysctl_template, sizeof(smcr_sysctl_template),
		    GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	for (i = 0; i < SMCR_SYSCTL_N; i++)
		t[i].data = (u8 *)sn + (uintptr_t)t[i].data;
#ifdef SMCR_HAVE_REGISTER_NET_SYSCTL_SZ
	sn->hdr = register_net_sysctl_sz(net, "net/smc", t, SMCR_SYSCTL_N);
#else
	sn->hdr = register_net_sysctl(net, "net/smc", t);
#endif
	if (!sn->hdr) {
		kfree(t);
		return -ENOMEM;
	}
	return 0;
}

static void __net_exit smcr_sysctl_net_exit(struct net *net)
{
	struct smcr_sysctl_net *sn = net_generic(net, smcr_sysctl_net_id);
	const struct ctl_table *t = sn->hdr->ctl_table_arg;

	unregister_net_sysctl_table(sn->hdr);
	kfree(t);
}

static struct pernet_operations smcr_sysctl_net_ops = {
	.init	= smcr_sysctl_net_init,
	.exit	= smcr_sysctl_net_exit,
	.id	= &smcr_sysctl_net_id,
	.size	= sizeof(struct smcr_sysctl_net),
};

/**
 * smcr_sysctl_init() - give every namespace its net.smc.* sysctls
 *
 * Fails while another module (Linux's smc.ko) has them.
 *
 * Return: 0 or a negative errno.
 */
int smcr_sysctl_init(void)
{
	int rc = register_pernet_subsys(&smcr_sysctl_net_ops);

	if (rc)
		return rc;
	/* pairs with smcr_sysctl_of(): the values are there once it is set */
	smp_store_release(&smcr_sysctl_up, true);
	return 0;
}

/**
 * smcr_sysctl_exit() - remove the net.smc.* sysctls
 */
void smcr_sysctl_exit(void)
{
	WRITE_ONCE(smcr_sysctl_up, false);
	unregister_pernet_subsys(&smcr_sysctl_net_ops);
}
