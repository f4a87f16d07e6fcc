// SPDX-License-Identifier: GPL-2.0
/*
 * rpcr_proc: the read-out of the connections, /proc/net/rpcr
 *
 * One line a transport of the reader's network namespace, client
 * transports (one per mount and server address) and server connections
 * alike, with the version it speaks and what its peer said of itself in
 * version 2 (draft of 17 November 2019, §5.2), for example:
 *
 *   client peer=10.77.0.2:20049 connected vers=2 peer_vers=2 connprop=1 ...
 *   server peer=10.77.0.1:35955 vers=2 credits=64 inline=4096 connprop=1 ...
 *
 * The list of transports is global; each line is written by its owner
 * under rpcr_proc_lock, which rpcr_proc_del() takes too, so no line is
 * written of a transport on its way out.
 */
#include <linux/mutex.h>
#include <linux/proc_fs.h>

#include "rpcr_proc.h"

/* protects rpcr_proc_list; held while the lines are written */
static DEFINE_MUTEX(rpcr_proc_lock);
static LIST_HEAD(rpcr_proc_list);

/**
 * rpcr_proc_entry_init() - an entry not listed yet
 * @e: the entry
 */
void rpcr_proc_entry_init(struct rpcr_proc_entry *e)
{
	INIT_LIST_HEAD(&e->node);
}

/**
 * rpcr_proc_add() - list a transport in /proc/net/rpcr
 * @e: its entry, which it embeds
 * @net: its network namespace
 * @side: "client" or "server", not copied
 * @show: writes the rest of its line
 *
 * Context: process, may sleep.
 */
void rpcr_proc_add(struct rpcr_proc_entry *e, struct net *net,
		   const char *side, rpcr_proc_show_t show)
{
	e->net = net;
	e->side = side;
	e->show = show;
	mutex_lock(&rpcr_proc_lock);
	list_add_tail(&e->node, &rpcr_proc_list);
	mutex_unlock(&rpcr_proc_lock);
}

/**
 * rpcr_proc_del() - take a transport out of /proc/net/rpcr
 * @e: its entry, listed by rpcr_proc_add() or set up by
 *	rpcr_proc_entry_init() and never listed
 *
 * Once it returns, its line is not being written and will not be.
 * Context: process, may sleep.
 */
void rpcr_proc_del(struct rpcr_proc_entry *e)
{
	mutex_lock(&rpcr_proc_lock);
	list_del_init(&e->node);
	mutex_unlock(&rpcr_proc_lock);
}

/* §5.2.5's levels of Reverse Request Support, by value */
static const char * const rpcr_proc_brs[] = {
	[RPCR2_RVREQSUP_NONE]	= "none",
	[RPCR2_RVREQSUP_INLINE]	= "inline",
	[RPCR2_RVREQSUP_GENL]	= "general",
};

/**
 * rpcr_proc_show_props() - the properties a connection's peer sent
 * @m: the line
 * @pp: the record of them
 *
 * How many RDMA2_CONNPROP came, then every property as it holds (the
 * defaults while none came), a Host Auth Message as its length and, in
 * hex, its first RPCR_HOSTAUTH_MAX bytes.
 */
void rpcr_proc_show_props(struct seq_file *m, struct rpcr_props *pp)
{
	u8 hostauth[RPCR_HOSTAUTH_MAX];
	struct rpcr2_props p;
	u32 received;

	lockdep_assert_held(&rpcr_proc_lock);
	spin_lock(&pp->lock);
	p = pp->peer;
	received = pp->received;
	memcpy(hostauth, pp->hostauth, sizeof(hostauth));
	spin_unlock(&pp->lock);
	seq_printf(m, " connprop=%u sbsiz=%u rbsiz=%u rssiz=%u rcsiz=%u brs=",
		   received, p.sbsiz, p.rbsiz, p.rssiz, p.rcsiz);
	if (p.brs < ARRAY_SIZE(rpcr_proc_brs))
		seq_puts(m, rpcr_proc_brs[p.brs]);
	else
		seq_printf(m, "%u", p.brs);
	seq_printf(m, " hostauth=%u", p.hostauth_len);
	if (p.hostauth_len)
		seq_printf(m, ":%*phN",
			   (int)min_t(u32, p.hostauth_len, RPCR_HOSTAUTH_MAX),
			   hostauth);
}

static void *rpcr_proc_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&rpcr_proc_lock);
	return seq_list_start(&rpcr_proc_list, *pos);
}

static void *rpcr_proc_next(struct seq_file *m, void *v, loff_t *pos)
{
	return seq_list_next(v, &rpcr_proc_list, pos);
}

static void rpcr_proc_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&rpcr_proc_lock);
}

static int rpcr_proc_show(struct seq_file *m, void *v)
{
	struct rpcr_proc_entry *e = list_entry(v, struct rpcr_proc_entry, node);

	if (!net_eq(e->net, seq_file_net(m)))
		return 0;
	seq_puts(m, e->side);
	e->show(m, e);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations rpcr_proc_seq_ops = {
	.start	= rpcr_proc_start,
	.next	= rpcr_proc_next,
	.stop	= rpcr_proc_stop,
	.show	= rpcr_proc_show,
};

static int __net_init rpcr_proc_net_init(struct net *net)
{
	if (!proc_create_net("rpcr", 0444, net->proc_net, &rpcr_proc_seq_ops,
			     sizeof(struct seq_net_private)))
		return -ENOMEM;
	return 0;
}

static void __net_exit rpcr_proc_net_exit(struct net *net)
{
	remove_proc_entry("rpcr", net->proc_net);
}

static struct pernet_operations rpcr_proc_net_ops = {
	.init	= rpcr_proc_net_init,
	.exit	= rpcr_proc_net_exit,
};

/**
 * rpcr_proc_init() - /proc/net/rpcr in every network namespace
 *
 * Return: 0 or a negative errno.
 */
int rpcr_proc_init(void)
{
	return register_pernet_subsys(&rpcr_proc_net_ops);
}

/**
 * rpcr_proc_exit() - and gone; no transport is listed any more
 */
void rpcr_proc_exit(void)
{
	unregister_pernet_subsys(&rpcr_proc_net_ops);
}
