/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: connection data control, the CDC messages that carry a
 * connection's cursors and flags over a link (smcr_cdc.c, RFC 7609 §4,
 * A.4).
 */
#ifndef SMCR_CDC_H
#define SMCR_CDC_H

#include "smcr_link.h"

struct smcr_sock;
struct sock;

/* smcr_cdc.c */
void smcr_cdc_rx(struct smcr_link *link, const u8 *msg, const u8 *ext,
		 u32 ext_len);
void smcr_cdc_init(struct smcr_sock *smc);
void smcr_cdc_release_cb(struct sock *sk);
bool smcr_cdc_link_wait(struct smcr_sock *smc);
int smcr_cdc_get(struct smcr_sock *smc, int *idx);
int smcr_cdc_post(struct smcr_sock *smc, int idx, u64 from);
int smcr_cdc_send(struct smcr_sock *smc);

#endif /* SMCR_CDC_H */
