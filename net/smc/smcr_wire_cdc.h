/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: CDC (Connection Data Control) message wire format.
 *
 * Pure encode / decode routines for the 44 byte CDC message of RFC 7609,
 * Appendix A.4, and the cursor arithmetic the data path builds on
 * (Sections 4.3 - 4.5).  Nothing here touches queue pairs or allocates
 * memory; the same source is built for the kernel module and for the
 * host unit tests and fuzzer.
 *
 * Layout (byte offsets), every multi-byte field big-endian:
 *   0       type, 0xFE
 *   1       length, 44
 *   2..3    sequence number
 *   4..7    alert token
 *   8..9    reserved
 *   10..11  producer cursor wrap sequence number
 *   12..15  producer cursor count
 *   16..17  reserved
 *   18..19  consumer cursor wrap sequence number
 *   20..23  consumer cursor count
 *   24      producer flags (SMCR_CDC_PF_*)
 *   25      connection state flags (SMCR_CDC_CS_*)
 *   26..43  reserved
 */
#ifndef _SMCR_WIRE_CDC_H
#define _SMCR_WIRE_CDC_H

#include "smcr_wire.h"

#define SMCR_CDC_MSG_TYPE	0xFE
#define SMCR_CDC_MSG_LEN	44

/* producer flags, byte 24 (A.4) */
#define SMCR_CDC_PF_WRITE_BLOCKED	0x80	/* B: writer blocked */
#define SMCR_CDC_PF_URG_DATA_PENDING	0x40	/* P: urgent data pending */
#define SMCR_CDC_PF_URG_DATA_PRESENT	0x20	/* U: urgent data present */
#define SMCR_CDC_PF_CONS_CURS_UPD_REQ	0x10	/* R: cursor update wanted */
#define SMCR_CDC_PF_FAILOVER_VALIDATION	0x08	/* F: failover check */
#define SMCR_CDC_PF_MASK		0xf8

/* connection state flags, byte 25 (A.4, Section 4.8) */
#define SMCR_CDC_CS_PEER_DONE_WRITING	0x80	/* D: sending done */
#define SMCR_CDC_CS_PEER_CONN_CLOSED	0x40	/* C: connection closed */
#define SMCR_CDC_CS_PEER_CONN_ABORT	0x20	/* A: abnormal close */
#define SMCR_CDC_CS_MASK		0xe0

/* The connection state flags of one side's closing state */
static inline u8 smcr_cdc_conn_state(bool done_writing, bool closed,
				     bool aborted)
{
	return (done_writing ? SMCR_CDC_CS_PEER_DONE_WRITING : 0) |
	       (closed ? SMCR_CDC_CS_PEER_CONN_CLOSED : 0) |
	       (aborted ? SMCR_CDC_CS_PEER_CONN_ABORT : 0);
}

/**
 * struct smcr_cdc_cursor - an RMBE cursor (A.4)
 * @wrap: wrap sequence number, incremented whenever @count wraps
 * @count: offset into the RMBE data area
 */
struct smcr_cdc_cursor {
	u16 wrap;
	u32 count;
};

/**
 * struct smcr_cdc_msg - decoded CDC message (A.4)
 * @seqno: sequence number; starts at 1 and wraps to 0
 * @token: alert token of the connection
 * @prod: producer cursor
 * @cons: consumer cursor
 * @prod_flags: SMCR_CDC_PF_* bits
 * @conn_state_flags: SMCR_CDC_CS_* bits
 */
struct smcr_cdc_msg {
	u16 seqno;
	u32 token;
	struct smcr_cdc_cursor prod;
	struct smcr_cdc_cursor cons;
	u8 prod_flags;
	u8 conn_state_flags;
};

int smcr_cdc_msg_encode(const struct smcr_cdc_msg *m, u8 *buf, size_t len);
int smcr_cdc_msg_decode(const u8 *buf, size_t len, struct smcr_cdc_msg *m);

bool smcr_cdc_seq_before(u16 a, u16 b);
void smcr_cdc_cursor_add(struct smcr_cdc_cursor *c, u32 value, u32 size);
long smcr_cdc_cursor_advance(const struct smcr_cdc_cursor *old,
			     const struct smcr_cdc_cursor *new, u32 size);
bool smcr_cdc_cursor_before(const struct smcr_cdc_cursor *a,
			    const struct smcr_cdc_cursor *b);
int smcr_cdc_cursor_cmp(const struct smcr_cdc_cursor *a,
			const struct smcr_cdc_cursor *b);

#endif /* _SMCR_WIRE_CDC_H */
