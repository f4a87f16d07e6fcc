/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcr_proc: /proc/net/rpcr, a line for each RPC-over-RDMA connection of
 * the reader's network namespace: its side, peer, version and the
 * transport properties its peer sent. The client and the server add
 * their transports with a function that writes the line.
 */
#ifndef _RPCR_PROC_H
#define _RPCR_PROC_H

#include <linux/list.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>

#include "rpcr_props.h"

struct rpcr_proc_entry;

/* writes an entry's line, without its side and its newline */
typedef void (*rpcr_proc_show_t)(struct seq_file *m,
				 struct rpcr_proc_entry *e);

/**
 * struct rpcr_proc_entry - a transport listed in /proc/net/rpcr
 * @node: on the list of all of them, under rpcr_proc_lock; empty when
 *	not listed
 * @net: its network namespace; the entry is listed there only
 * @side: "client" or "server"
 * @show: writes the rest of its line, called under rpcr_proc_lock
 */
struct rpcr_proc_entry {
	struct list_head	node;
	struct net		*net;
	const char		*side;
	rpcr_proc_show_t	show;
};

void rpcr_proc_entry_init(struct rpcr_proc_entry *e);
void rpcr_proc_add(struct rpcr_proc_entry *e, struct net *net,
		   const char *side, rpcr_proc_show_t show);
void rpcr_proc_del(struct rpcr_proc_entry *e);
void rpcr_proc_show_props(struct seq_file *m, struct rpcr_props *pp);

int rpcr_proc_init(void);
void rpcr_proc_exit(void);

#endif /* _RPCR_PROC_H */
