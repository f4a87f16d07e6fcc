/* SPDX-License-Identifier: GPL-2.0 */
/* rpcr_sysctl: the transport's knobs, under the names, in the place and
 * with the ranges Linux's rpcrdma has them (/proc/sys/sunrpc/rdma_* for
 * the client, /proc/sys/sunrpc/svc_rdma/ for the server), so what users
 * set for one works for the other. Read when a connection is set up: a
 * change applies to the next one.
 */
#ifndef _RPCR_SYSCTL_H
#define _RPCR_SYSCTL_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/types.h>

extern unsigned int rpcr_slot_table_entries;
extern unsigned int rpcr_max_inline_read;
extern unsigned int rpcr_max_inline_write;

extern unsigned int rpcr_svc_max_requests;
extern unsigned int rpcr_svc_max_req_size;
extern unsigned int rpcr_svc_ord;

extern unsigned int rpcr_max_version;
extern unsigned int rpcr_svc_max_version;

/**
 * enum rpcr_more - when a client's call of version 2 is continued, or
 *	invites a continued reply (sunrpc.rdma_continuation)
 * @RPCR_MORE_NEVER: never; too large for a Send it goes by RDMA Read, a
 *	reply by RDMA Write; nor does our server continue a reply then
 * @RPCR_MORE_LONG: when it would otherwise be a Long Call, all of it in
 *	a position-zero Read chunk, or a Long Reply, in a Reply chunk
 * @RPCR_MORE_ALL: also when a WRITE's data would go in a Read chunk
 */
enum rpcr_more {
	RPCR_MORE_NEVER,
	RPCR_MORE_LONG,
	RPCR_MORE_ALL,
};

extern unsigned int rpcr_continuation;

struct sockaddr;
bool rpcr_version1_peer(const struct sockaddr *sa);

u32 rpcr_hostauth_get(u8 *buf);	/* RPCR_HOSTAUTH_MAX bytes */

/* a version knob's value; a module parameter may hold any number */
static inline u32 rpcr_version_knob(const unsigned int *knob)
{
	return READ_ONCE(*knob) >= 2 ? 2 : 1;
}

/**
 * enum rpcr_svc_stat - the server's counters, svc_rdma/rdma_stat_*
 * @RPCR_SVC_STAT_READ: calls whose Read chunks were pulled
 * @RPCR_SVC_STAT_RECV: messages received
 * @RPCR_SVC_STAT_WRITE: Write and Reply chunks pushed
 * @RPCR_SVC_STAT_SQ_STARVE: replies that waited for a send buffer
 * @RPCR_SVC_STAT_MAX: how many
 */
enum rpcr_svc_stat {
	RPCR_SVC_STAT_READ,
	RPCR_SVC_STAT_RECV,
	RPCR_SVC_STAT_WRITE,
	RPCR_SVC_STAT_SQ_STARVE,
	RPCR_SVC_STAT_MAX
};

extern atomic64_t rpcr_svc_stats[RPCR_SVC_STAT_MAX];

static inline void rpcr_svc_count(enum rpcr_svc_stat stat)
{
	atomic64_inc(&rpcr_svc_stats[stat]);
}

int rpcr_sysctl_init(void);
void rpcr_sysctl_exit(void);

#endif /* _RPCR_SYSCTL_H */
