/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the PNET table, which ties network devices and RoCE ports of one
 * physical network together under a PNET ID, and the generic netlink
 * family SMC_PNETID that configures it.
 */
#ifndef SMCR_PNET_H
#define SMCR_PNET_H

#include <linux/types.h>

struct net_device;
struct smcr_ibdev;

/* A PNET ID: up to 16 characters, NUL padded when shorter */
#define SMCR_PNETID_LEN		16
/* RoCE ports that can carry a PNET ID, as in Linux: 1 and 2 */
#define SMCR_PNET_PORTS		2

/* smcr_pnet.c */
bool smcr_pnet_match(const u8 *a, const u8 *b);
bool smcr_pnet_of_ndev(struct net_device *ndev, u8 *pnetid);
void smcr_pnet_ib_added(struct smcr_ibdev *dev);
void smcr_pnet_assert_locked(void);
int smcr_pnet_init(void);
void smcr_pnet_exit(void);

/* smcr_ib.c: the PNET IDs the table gave the ports of RoCE devices */
int smcr_ib_pnet_set(const char *name, u32 port, const u8 *pnetid);
int smcr_ib_pnet_set_dev(struct smcr_ibdev *dev, u32 port, const u8 *pnetid);
bool smcr_ib_pnet_clear(const u8 *pnetid);

#endif /* SMCR_PNET_H */
