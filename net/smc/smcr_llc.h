/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: link layer control, the LLC messages that set up, probe and end
 * the links of a group (smcr_llc.c, RFC 7609 §3.5.5, A.3).
 */
#ifndef SMCR_LLC_H
#define SMCR_LLC_H

#include "smcr_link.h"

/* the answer to a type of the peer's requests (smcr_llc_register_req()) */
typedef void (*smcr_llc_req_fn)(struct smcr_link *link,
				struct smcr_llc_msg *m, const u8 *ext,
				u32 ext_len);

/* smcr_llc.c */
void smcr_llc_register_req(u8 type, smcr_llc_req_fn fn);
int smcr_llc_send(struct smcr_link *link, struct smcr_llc_msg *m);
int smcr_llc_send_ext(struct smcr_link *link, struct smcr_llc_msg *m,
		      const u8 *ext, u32 ext_len);
int smcr_llc_wait(struct smcr_link *link, struct smcr_llc_msg *m);
void smcr_llc_rx(struct smcr_link *link, const u8 *msg, const u8 *ext,
		 u32 ext_len);
void smcr_llc_expect(struct smcr_link *link, u8 type, bool resp);
void smcr_llc_req_add_link_answer(struct smcr_link *link,
				  struct smcr_llc_msg *m);
void smcr_llc_delete_link(struct smcr_link *link);
int smcr_llc_delete_link_one(struct smcr_link *link, u8 link_id,
			     bool unneeded);
int smcr_llc_delete_rkeys(struct smcr_link *link, const u32 *rkeys, int n);
void smcr_llc_testlink_start(struct smcr_link *link);
void smcr_llc_testlink_work(struct work_struct *work);
void smcr_llc_req_work(struct work_struct *work);
int smcr_llc_confirm_link_server(struct smcr_link *link);
int smcr_llc_confirm_link_client(struct smcr_link *link,
				 int (*before_resp)(void *arg), void *arg);

#endif /* SMCR_LLC_H */
