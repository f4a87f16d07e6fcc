// SPDX-License-Identifier: GPL-2.0
/* rpcr_sysctl: /proc/sys/sunrpc/rdma_* of the client side and
 * /proc/sys/sunrpc/svc_rdma/ of the server side
 */
#include <linux/inet.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/moduleparam.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sunrpc/xprtrdma.h>
#include <linux/sysctl.h>

#include "rpcr_props.h"
#include "rpcr_sysctl.h"

/* a proc_handler's table is const from 6.11 on */
#ifdef RPCR_HAVE_CONST_CTL_TABLE
#define RPCR_CTL_TABLE_CONST const
#else
#define RPCR_CTL_TABLE_CONST
#endif

/* calls in flight per connection, and credits asked for */
unsigned int rpcr_slot_table_entries = 32;
/* the largest reply, and call, sent inline (RFC 8166 §3.3.2) */
unsigned int rpcr_max_inline_read = RPCRDMA_DEF_INLINE;
unsigned int rpcr_max_inline_write = RPCRDMA_DEF_INLINE;
/* taken and kept for scripts that write them: this transport pads no
 * inline data, registers with FRWR only and never pads a chunk
 */
static unsigned int rpcr_inline_padding;
static unsigned int rpcr_memreg_strategy = RPCRDMA_FRWR;
static unsigned int rpcr_pad_optimize = 1;

/* the RPC-over-RDMA version a client's calls open with, and the highest
 * a server answers in: 2, or 1 to pin version 1 (ours, not Linux's)
 */
unsigned int rpcr_max_version = 2;
module_param_named(max_version, rpcr_max_version, uint, 0644);
MODULE_PARM_DESC(max_version,
		 "Client: highest RPC-over-RDMA version to speak, 1 or 2 (default 2); sysctl sunrpc.rdma_max_version");
unsigned int rpcr_svc_max_version = 2;
module_param_named(svc_max_version, rpcr_svc_max_version, uint, 0644);
MODULE_PARM_DESC(svc_max_version,
		 "Server: highest RPC-over-RDMA version to answer in, 1 or 2 (default 2); sysctl sunrpc.svc_rdma.max_version");
static unsigned int rpcr_version_min = 1;
static unsigned int rpcr_version_max = 2;

/* when a client's call of version 2 goes in several Sends, RPCRDMA2_F_MORE
 * (draft §6.3.2.2), rather than by RDMA Read: RPCR_MORE_*
 */
unsigned int rpcr_continuation = RPCR_MORE_LONG;
module_param_named(continuation, rpcr_continuation, uint, 0644);
MODULE_PARM_DESC(continuation,
		 "Client: version 2 calls too large for one Send go in several (F_MORE): 0 never, 1 rather than as a Long Call (default), 2 rather than with Read chunks too; sysctl sunrpc.rdma_continuation");
static unsigned int rpcr_more_max = RPCR_MORE_ALL;

/* Peers both sides speak version 1 with, whatever the knobs above say:
 * IPv4 and IPv6 addresses, separated by commas or white space. Written
 * and read under kernel_param_lock(THIS_MODULE), the lock the module
 * parameter is set under.
 */
#define RPCR_V1_PEERS_LEN	256
static char rpcr_v1_peers[RPCR_V1_PEERS_LEN];

/* @tok (@len bytes) is an address; @sa, when not NULL, has it */
static bool rpcr_peer_is(const char *tok, size_t len,
			 const struct sockaddr *sa)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sa;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)sa;
	const char *end;
	u8 a[16];

	/* the parsers stop at a character no address has: the whole
	 * token must be the address
	 */
	if (in4_pton(tok, len, a, -1, &end) && end == tok + len)
		return !sa || (sa->sa_family == AF_INET &&
			       !memcmp(a, &sin->sin_addr, 4));
	if (in6_pton(tok, len, a, -1, &end) && end == tok + len)
		return !sa || (sa->sa_family == AF_INET6 &&
			       !memcmp(a, &sin6->sin6_addr, 16));
	return false;
}

/* Each address of @list: with @sa NULL, whether all parse; else whether
 * one is @sa's
 */
static bool rpcr_peers_walk(const char *list, const struct sockaddr *sa)
{
	const char *delim = ", \t\n";
	size_t len;

	for (list += strspn(list, delim); *list; list += strspn(list, delim)) {
		len = strcspn(list, delim);
		if (rpcr_peer_is(list, len, sa) != !sa)
			return !!sa;
		list += len;
	}
	return !sa;
}

/**
 * rpcr_version1_peer() - the peer is one version 1 is pinned for
 * @sa: its address (its port is not looked at)
 *
 * Context: process, may sleep.
 *
 * Return: whether rdma_v1_peers names it.
 */
bool rpcr_version1_peer(const struct sockaddr *sa)
{
	bool pinned;

	kernel_param_lock(THIS_MODULE);
	pinned = rpcr_v1_peers[0] && rpcr_peers_walk(rpcr_v1_peers, sa);
	kernel_param_unlock(THIS_MODULE);
	return pinned;
}

/* @list as the peers, if it fits and its every address parses; the
 * line's end sysfs passes along is cut. Under kernel_param_lock().
 */
static int rpcr_v1_peers_take(const char *list)
{
	if (strlen(list) >= RPCR_V1_PEERS_LEN)
		return -ENOSPC;
	if (!rpcr_peers_walk(list, NULL))
		return -EINVAL;
	strscpy(rpcr_v1_peers, list, RPCR_V1_PEERS_LEN);
	rpcr_v1_peers[strcspn(rpcr_v1_peers, "\n")] = '\0';
	return 0;
}

/* the module parameter, set under kernel_param_lock() by its caller */
static int rpcr_v1_peers_set(const char *val, const struct kernel_param *kp)
{
	return rpcr_v1_peers_take(val);
}

static int rpcr_v1_peers_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n", rpcr_v1_peers);
}

static const struct kernel_param_ops rpcr_v1_peers_ops = {
	.set	= rpcr_v1_peers_set,
	.get	= rpcr_v1_peers_get,
};
module_param_cb(v1_peers, &rpcr_v1_peers_ops, NULL, 0644);
MODULE_PARM_DESC(v1_peers,
		 "Peers to speak RPC-over-RDMA version 1 with, as client and server: IP addresses, comma separated; sysctl sunrpc.rdma_v1_peers");

/* the sysctl: the same list, refused as the module parameter refuses */
static int rpcr_v1_peers_handler(RPCR_CTL_TABLE_CONST struct ctl_table *table,
				 int write, void *buffer, size_t *lenp,
				 loff_t *ppos)
{
	/* a byte more than a list holds: one that long was cut short */
	char list[RPCR_V1_PEERS_LEN + 1];
	struct ctl_table t = {
		.procname = table->procname,
		.data	= list,
		.maxlen	= sizeof(list),
	};
	int rc;

	kernel_param_lock(THIS_MODULE);
	strscpy(list, rpcr_v1_peers, sizeof(list));
	kernel_param_unlock(THIS_MODULE);
	rc = proc_dostring(&t, write, buffer, lenp, ppos);
	if (rc || !write)
		return rc;
	kernel_param_lock(THIS_MODULE);
	rc = rpcr_v1_peers_take(list);
	kernel_param_unlock(THIS_MODULE);
	return rc;
}

/* The Host Auth Message both sides send in their RDMA2_CONNPROP (draft
 * §5.2.6): text, sent as its bytes without the line's end; empty, none.
 * Read in contexts that may not sleep: a spinlock of its own.
 */
static DEFINE_SPINLOCK(rpcr_hostauth_lock);
static char rpcr_hostauth[RPCR_HOSTAUTH_MAX + 1];	/* rpcr_hostauth_lock */

/**
 * rpcr_hostauth_get() - the Host Auth Message to send, if any
 * @buf: where to, RPCR_HOSTAUTH_MAX bytes
 *
 * Context: any.
 *
 * Return: its bytes, 0 for none.
 */
u32 rpcr_hostauth_get(u8 *buf)
{
	u32 n;

	spin_lock(&rpcr_hostauth_lock);
	n = strlen(rpcr_hostauth);
	memcpy(buf, rpcr_hostauth, n);
	spin_unlock(&rpcr_hostauth_lock);
	return n;
}

/* @val as the message, if it fits, cut at the line's end */
static int rpcr_hostauth_take(const char *val)
{
	size_t n = strcspn(val, "\n");

	if (n > RPCR_HOSTAUTH_MAX)
		return -ENOSPC;
	spin_lock(&rpcr_hostauth_lock);
	memcpy(rpcr_hostauth, val, n);
	rpcr_hostauth[n] = '\0';
	spin_unlock(&rpcr_hostauth_lock);
	return 0;
}

static int rpcr_hostauth_set(const char *val, const struct kernel_param *kp)
{
	return rpcr_hostauth_take(val);
}

static int rpcr_hostauth_show(char *buf, const struct kernel_param *kp)
{
	u8 msg[RPCR_HOSTAUTH_MAX];
	u32 n = rpcr_hostauth_get(msg);

	return scnprintf(buf, PAGE_SIZE, "%.*s\n", (int)n, msg);
}

static const struct kernel_param_ops rpcr_hostauth_ops = {
	.set	= rpcr_hostauth_set,
	.get	= rpcr_hostauth_show,
};
module_param_cb(hostauth, &rpcr_hostauth_ops, NULL, 0600);
MODULE_PARM_DESC(hostauth,
		 "Host Auth Message (RPC-over-RDMA version 2) both sides send, text of 64 bytes at most, empty for none; sysctl sunrpc.rdma_hostauth");

static int rpcr_hostauth_handler(RPCR_CTL_TABLE_CONST struct ctl_table *table,
				 int write, void *buffer, size_t *lenp,
				 loff_t *ppos)
{
	/* a byte more than a message holds: one that long was cut short */
	char val[RPCR_HOSTAUTH_MAX + 2] = "";
	struct ctl_table t = {
		.procname = table->procname,
		.data	= val,
		.maxlen	= sizeof(val),
	};
	int rc;

	rpcr_hostauth_get((u8 *)val);
	rc = proc_dostring(&t, write, buffer, lenp, ppos);
	if (rc || !write)
		return rc;
	return rpcr_hostauth_take(val);
}

static unsigned int rpcr_slots_min = RPCRDMA_MIN_SLOT_TABLE;
static unsigned int rpcr_slots_max = RPCRDMA_MAX_SLOT_TABLE;
static unsigned int rpcr_inline_min = RPCRDMA_MIN_INLINE;
static unsigned int rpcr_inline_max = RPCRDMA_MAX_INLINE;
static unsigned int rpcr_padding_max = PAGE_SIZE;
static unsigned int rpcr_memreg_only = RPCRDMA_FRWR;

#define RPCR_KNOB(name, var, lo, hi) {			\
	.procname	= name,					\
	.data		= &(var),				\
	.maxlen		= sizeof(unsigned int),			\
	.mode		= 0644,					\
	.proc_handler	= proc_dointvec_minmax,			\
	.extra1		= lo,					\
	.extra2		= hi,					\
}

static struct ctl_table rpcr_sysctl_table[] = {
	RPCR_KNOB("rdma_slot_table_entries", rpcr_slot_table_entries,
		  &rpcr_slots_min, &rpcr_slots_max),
	RPCR_KNOB("rdma_max_inline_read", rpcr_max_inline_read,
		  &rpcr_inline_min, &rpcr_inline_max),
	RPCR_KNOB("rdma_max_inline_write", rpcr_max_inline_write,
		  &rpcr_inline_min, &rpcr_inline_max),
	RPCR_KNOB("rdma_inline_write_padding", rpcr_inline_padding,
		  SYSCTL_ZERO, &rpcr_padding_max),
	RPCR_KNOB("rdma_memreg_strategy", rpcr_memreg_strategy,
		  &rpcr_memreg_only, &rpcr_memreg_only),
	RPCR_KNOB("rdma_pad_optimize", rpcr_pad_optimize,
		  SYSCTL_ZERO, SYSCTL_ONE),
	RPCR_KNOB("rdma_max_version", rpcr_max_version,
		  &rpcr_version_min, &rpcr_version_max),
	RPCR_KNOB("rdma_continuation", rpcr_continuation,
		  SYSCTL_ZERO, &rpcr_more_max),
	{
		.procname	= "rdma_v1_peers",
		.maxlen		= RPCR_V1_PEERS_LEN,
		.mode		= 0644,
		.proc_handler	= rpcr_v1_peers_handler,
	},
	{
		.procname	= "rdma_hostauth",
		.maxlen		= RPCR_HOSTAUTH_MAX + 2,
		.mode		= 0600,
		.proc_handler	= rpcr_hostauth_handler,
	},
#ifndef RPCR_HAVE_REGISTER_SYSCTL_SZ
	{ }
#endif
};

/* server: credits granted to each client (RFC 8166 §3.3.1) */
unsigned int rpcr_svc_max_requests = 64;
/* server: the largest call it takes, and reply it sends, inline */
unsigned int rpcr_svc_max_req_size = 4096;
/* server: RDMA Reads it has in flight on a connection at most */
unsigned int rpcr_svc_ord = 16;

static unsigned int rpcr_svc_requests_min = 4;
static unsigned int rpcr_svc_requests_max = 16384;
static unsigned int rpcr_svc_inline_min = 4096;
static unsigned int rpcr_svc_inline_max = 65536;
static unsigned int rpcr_svc_ord_min = 1;
static unsigned int rpcr_svc_ord_max = 255;

atomic64_t rpcr_svc_stats[RPCR_SVC_STAT_MAX];
/* counters Linux names but no longer counts: always 0 */
static unsigned int rpcr_svc_stat_none;

/* a counter reads as its value; writing anything to it resets it */
static int rpcr_svc_stat_handler(RPCR_CTL_TABLE_CONST struct ctl_table *table,
				 int write, void *buffer, size_t *lenp,
				 loff_t *ppos)
{
	atomic64_t *stat = table->data;
	unsigned long val;
	struct ctl_table shown = {
		.data	= &val,
		.maxlen	= sizeof(val),
	};

	if (write) {
		atomic64_set(stat, 0);
		*ppos += *lenp;
		return 0;
	}
	val = atomic64_read(stat);
	return proc_doulongvec_minmax(&shown, 0, buffer, lenp, ppos);
}

#define RPCR_STAT(name, stat) {					\
	.procname	= name,					\
	.data		= &rpcr_svc_stats[stat],		\
	.maxlen		= sizeof(atomic64_t),			\
	.mode		= 0644,					\
	.proc_handler	= rpcr_svc_stat_handler,		\
}

#define RPCR_STAT_NONE(name)					\
	RPCR_KNOB(name, rpcr_svc_stat_none, SYSCTL_ZERO, SYSCTL_ZERO)

static struct ctl_table rpcr_svc_sysctl_table[] = {
	RPCR_KNOB("max_requests", rpcr_svc_max_requests,
		  &rpcr_svc_requests_min, &rpcr_svc_requests_max),
	RPCR_KNOB("max_req_size", rpcr_svc_max_req_size,
		  &rpcr_svc_inline_min, &rpcr_svc_inline_max),
	RPCR_KNOB("max_outbound_read_requests", rpcr_svc_ord,
		  &rpcr_svc_ord_min, &rpcr_svc_ord_max),
	RPCR_KNOB("max_version", rpcr_svc_max_version,
		  &rpcr_version_min, &rpcr_version_max),
	RPCR_STAT("rdma_stat_read", RPCR_SVC_STAT_READ),
	RPCR_STAT("rdma_stat_recv", RPCR_SVC_STAT_RECV),
	RPCR_STAT("rdma_stat_write", RPCR_SVC_STAT_WRITE),
	RPCR_STAT("rdma_stat_sq_starve", RPCR_SVC_STAT_SQ_STARVE),
	RPCR_STAT_NONE("rdma_stat_rq_starve"),
	RPCR_STAT_NONE("rdma_stat_rq_poll"),
	RPCR_STAT_NONE("rdma_stat_rq_prod"),
	RPCR_STAT_NONE("rdma_stat_sq_poll"),
	RPCR_STAT_NONE("rdma_stat_sq_prod"),
#ifndef RPCR_HAVE_REGISTER_SYSCTL_SZ
	{ }
#endif
};

static struct ctl_table_header *rpcr_sysctl_hdr;
static struct ctl_table_header *rpcr_svc_sysctl_hdr;

/**
 * rpcr_sysctl_init() - offer the knobs
 *
 * Return: 0 or -ENOMEM.
 */
int rpcr_sysctl_init(void)
{
	rpcr_sysctl_hdr = register_sysctl("sunrpc", rpcr_sysctl_table);
	if (!rpcr_sysctl_hdr)
		return -ENOMEM;
	rpcr_svc_sysctl_hdr = register_sysctl("sunrpc/svc_rdma",
					      rpcr_svc_sysctl_table);
	if (!rpcr_svc_sysctl_hdr) {
		unregister_sysctl_table(rpcr_sysctl_hdr);
		return -ENOMEM;
	}
	return 0;
}

/**
 * rpcr_sysctl_exit() - withdraw them
 */
void rpcr_sysctl_exit(void)
{
	unregister_sysctl_table(rpcr_svc_sysctl_hdr);
	unregister_sysctl_table(rpcr_sysctl_hdr);
}
