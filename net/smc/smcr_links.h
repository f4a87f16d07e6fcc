/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: a second link for a link group and the rkeys of its RMBs on each
 * link (smcr_links.c, RFC 7609 A.3.2 - A.3.7). Above link groups
 * (smcr_lgr.h) and LLC (smcr_llc.h), whose request handlers it registers.
 */
#ifndef SMCR_LINKS_H
#define SMCR_LINKS_H

#include "smcr_lgr.h"

struct smcr_sock;

/* smcr_links.c */
u8 smcr_links_max(const struct smcr_lgr *lgr);
void smcr_links_start(struct smcr_lgr *lgr);
int smcr_links_confirm_rmb(struct smcr_sock *smc);
int smcr_links_peer_rmb(struct smcr_lgr *lgr, struct smcr_link *from,
			struct smcr_link *to, u32 rkey, u32 *to_rkey,
			u64 *to_vaddr);
void smcr_links_init(void);
void smcr_links_exit(void);

#endif /* SMCR_LINKS_H */
