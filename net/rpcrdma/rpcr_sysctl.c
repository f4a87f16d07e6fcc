// SPDX-License-Identifier: GPL-2.0
/* rpcr_sysctl: /proc/sys/sunrpc/rdma_* of the client side */
#include <linux/sunrpc/xprtrdma.h>
#include <linux/sysctl.h>

#include "rpcr_sysctl.h"

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
#ifndef RPCR_HAVE_REGISTER_SYSCTL_SZ
	{ }
#endif
};

static struct ctl_table_header *rpcr_sysctl_hdr;

/**
 * rpcr_sysctl_init() - offer the knobs
 *
 * Return: 0 or -ENOMEM.
 */
int rpcr_sysctl_init(void)
{
	rpcr_sysctl_hdr = register_sysctl("sunrpc", rpcr_sysctl_table);
	return rpcr_sysctl_hdr ? 0 : -ENOMEM;
}

/**
 * rpcr_sysctl_exit() - withdraw them
 */
void rpcr_sysctl_exit(void)
{
	unregister_sysctl_table(rpcr_sysctl_hdr);
}
