/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: the user-defined Enterprise ID (UEID) table and the generic
 * netlink family that configures it.
 */
#ifndef SMCR_UEID_H
#define SMCR_UEID_H

#include <linux/types.h>

/* An EID as the CLC messages carry it: 32 characters, blank padded */
#define SMCR_EID_LEN		32
/* Entries the table holds, as many as a v2 Proposal can list */
#define SMCR_MAX_UEID		4

/* smcr_ueid.c; eids of smcr_ueid_get_all() is a u8 (*)[SMCR_EID_LEN] */
int smcr_ueid_count(void);
int smcr_ueid_get_all(u8 eids[][SMCR_EID_LEN], int max);
bool smcr_ueid_find(const u8 *eid);
int smcr_ueid_add(const u8 *eid);
int smcr_ueid_remove(const u8 *eid);
void smcr_ueid_flush(void);

/* smcr_netlink.c: the SMC_GEN_NETLINK family of uapi/linux/smc.h */
int smcr_netlink_init(void);
void smcr_netlink_exit(void);

#endif /* SMCR_UEID_H */
