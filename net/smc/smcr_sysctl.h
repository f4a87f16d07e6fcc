/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the net.smc.* sysctls of each network namespace.
 */
#ifndef SMCR_SYSCTL_H
#define SMCR_SYSCTL_H

#include <linux/types.h>

struct net;

/* smcr_sysctl.c */
int smcr_sysctl_buf_size(const struct net *net, bool rmb);
int smcr_sysctl_testlink_time(const struct net *net);
unsigned int smcr_sysctl_autocorking_size(const struct net *net);
void smcr_sysctl_lgr_max(const struct net *net, u8 *max_conns, u8 *max_links);
int smcr_sysctl_init(void);
void smcr_sysctl_exit(void);

#endif /* SMCR_SYSCTL_H */
