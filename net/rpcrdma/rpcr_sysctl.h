/* SPDX-License-Identifier: GPL-2.0 */
/* rpcr_sysctl: the transport's knobs, under the names, in the place and
 * with the ranges Linux's rpcrdma has them (/proc/sys/sunrpc/rdma_*),
 * so what users set for one works for the other. Read when a connection
 * is set up: a change applies to the next one.
 */
#ifndef _RPCR_SYSCTL_H
#define _RPCR_SYSCTL_H

extern unsigned int rpcr_slot_table_entries;
extern unsigned int rpcr_max_inline_read;
extern unsigned int rpcr_max_inline_write;

int rpcr_sysctl_init(void);
void rpcr_sysctl_exit(void);

#endif /* _RPCR_SYSCTL_H */
