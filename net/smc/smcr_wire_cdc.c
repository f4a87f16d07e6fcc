// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: CDC (Connection Data Control) message wire format.
 *
 * Encoder and decoder for the CDC message of RFC 7609, Appendix A.4, and
 * pure cursor arithmetic for the data path.  Offsets are listed below and
 * accessed with the big-endian helpers of smcr_wire.h.  Linux sends the
 * sequence number, alert token and both cursors (wrap and count) in
 * network byte order, exactly as A.4 draws them.
 *
 * Error convention of the decoder:
 *   -EMSGSIZE  fewer than SMCR_CDC_MSG_LEN bytes, or a length byte other
 *              than SMCR_CDC_MSG_LEN
 *   -EPROTO    the type byte is not SMCR_CDC_MSG_TYPE
 * The encoder returns SMCR_CDC_MSG_LEN, -EINVAL for a reserved flag bit
 * or -ENOSPC for a short buffer.
 */
#include "smcr_wire_cdc.h"

#define OFF_TYPE		0
#define OFF_LEN			1
#define OFF_SEQNO		2
#define OFF_TOKEN		4
#define OFF_PROD		8
#define OFF_CONS		16
#define OFF_PROD_FLAGS		24
#define OFF_CONN_FLAGS		25
/* inside an 8 byte cursor: 2 reserved bytes, wrap, count */
#define CURS_WRAP		2
#define CURS_COUNT		4

/* wrap sequence numbers compare as 16 bit serial numbers */
#define SMCR_CDC_WRAP_HALF	0x8000u

static void smcr_cdc_put_cursor(u8 *p, const struct smcr_cdc_cursor *c)
{
	smcr_put_be16(p + CURS_WRAP, c->wrap);
	smcr_put_be32(p + CURS_COUNT, c->count);
}

static void smcr_cdc_get_cursor(const u8 *p, struct smcr_cdc_cursor *c)
{
	c->wrap = smcr_get_be16(p + CURS_WRAP);
	c->count = smcr_get_be32(p + CURS_COUNT);
}

/**
 * smcr_cdc_msg_encode() - build a CDC message (A.4)
 * @m: message contents
 * @buf: output buffer
 * @len: size of @buf
 *
 * All reserved bytes, including the two leading each cursor, are zero.
 *
 * Return: SMCR_CDC_MSG_LEN, -EINVAL if a reserved bit is set in
 * @m->prod_flags or @m->conn_state_flags, -ENOSPC if @len is too small.
 */
int smcr_cdc_msg_encode(const struct smcr_cdc_msg *m, u8 *buf, size_t len)
{
	if ((m->prod_flags & ~SMCR_CDC_PF_MASK) ||
	    (m->conn_state_flags & ~SMCR_CDC_CS_MASK))
		return -EINVAL;
	if (len < SMCR_CDC_MSG_LEN)
		return -ENOSPC;
	memset(buf, 0, SMCR_CDC_MSG_LEN);
	buf[OFF_TYPE] = SMCR_CDC_MSG_TYPE;
	buf[OFF_LEN] = SMCR_CDC_MSG_LEN;
	smcr_put_be16(buf + OFF_SEQNO, m->seqno);
	smcr_put_be32(buf + OFF_TOKEN, m->token);
	smcr_cdc_put_cursor(buf + OFF_PROD, &m->prod);
	smcr_cdc_put_cursor(buf + OFF_CONS, &m->cons);
	buf[OFF_PROD_FLAGS] = m->prod_flags;
	buf[OFF_CONN_FLAGS] = m->conn_state_flags;
	return SMCR_CDC_MSG_LEN;
}

/**
 * smcr_cdc_msg_decode() - parse a CDC message (A.4)
 * @buf: received bytes
 * @len: number of bytes in @buf, at least SMCR_CDC_MSG_LEN; bytes
 *	after the message are ignored
 * @m: filled with the decoded message; zeroed first
 *
 * Reserved bytes and reserved flag bits are ignored.
 *
 * Return: 0 or a negative errno as described at the top of this file.
 */
int smcr_cdc_msg_decode(const u8 *buf, size_t len, struct smcr_cdc_msg *m)
{
	memset(m, 0, sizeof(*m));
	if (len < SMCR_CDC_MSG_LEN)
		return -EMSGSIZE;
	if (buf[OFF_TYPE] != SMCR_CDC_MSG_TYPE)
		return -EPROTO;
	if (buf[OFF_LEN] != SMCR_CDC_MSG_LEN)
		return -EMSGSIZE;
	m->seqno = smcr_get_be16(buf + OFF_SEQNO);
	m->token = smcr_get_be32(buf + OFF_TOKEN);
	smcr_cdc_get_cursor(buf + OFF_PROD, &m->prod);
	smcr_cdc_get_cursor(buf + OFF_CONS, &m->cons);
	m->prod_flags = buf[OFF_PROD_FLAGS] & SMCR_CDC_PF_MASK;
	m->conn_state_flags = buf[OFF_CONN_FLAGS] & SMCR_CDC_CS_MASK;
	return 0;
}

/**
 * smcr_cdc_seq_before() - is sequence number @a older than @b?
 * @a: a CDC sequence number
 * @b: another CDC sequence number
 *
 * A.4: the sequence number wraps, and a message whose number is "less
 * than the last received value" is discarded.  "Less" is taken modulo
 * 2^16: @a is before @b if it lies up to 2^15 - 1 steps behind it.
 *
 * Return: true if @a is before @b.
 */
bool smcr_cdc_seq_before(u16 a, u16 b)
{
	u16 d = (u16)(b - a);

	return d && d < SMCR_CDC_WRAP_HALF;
}

/**
 * smcr_cdc_cursor_add() - advance a cursor within an RMBE
 * @c: cursor to advance, with @c->count below @size
 * @value: number of bytes to advance by
 * @size: size of the RMBE data area, non-zero
 *
 * Sections 4.3 and A.4: the count is a wrapping offset into the RMBE
 * and the wrap sequence number is incremented whenever the count
 * wraps; the wrap sequence number itself wraps at 2^16.  Counts start
 * at 0 as in Linux, whose RMBEs carry no eyecatcher (see the CONFIRM
 * LINK flag SMCR_LLC_FLAG_NO_RMBE_EYEC); an RFC style RMBE with a four
 * byte eyecatcher passes its data area size and adds the offset 4
 * itself.  A @value of @size or more wraps more than once.
 */
void smcr_cdc_cursor_add(struct smcr_cdc_cursor *c, u32 value, u32 size)
{
	u32 wraps, rem, room;

	if (!size)
		return;
	wraps = value / size;
	rem = value % size;
	if (c->count >= size) {		/* normalise a stray count */
		wraps += c->count / size;
		c->count %= size;
	}
	room = size - c->count;
	if (rem >= room) {
		c->count = rem - room;
		wraps++;
	} else {
		c->count += rem;
	}
	c->wrap = (u16)(c->wrap + wraps);
}

/**
 * smcr_cdc_cursor_cmp() - order two cursors of the same RMBE
 * @a: first cursor
 * @b: second cursor
 *
 * The wrap sequence numbers are compared modulo 2^16 (A.4: they are
 * wrapping counters), then the counts.
 *
 * Return: negative if @a is before @b, 0 if equal, positive if after.
 */
int smcr_cdc_cursor_cmp(const struct smcr_cdc_cursor *a,
			const struct smcr_cdc_cursor *b)
{
	u16 d = (u16)(a->wrap - b->wrap);

	if (d)
		return d < SMCR_CDC_WRAP_HALF ? 1 : -1;
	if (a->count == b->count)
		return 0;
	return a->count < b->count ? -1 : 1;
}

/**
 * smcr_cdc_cursor_before() - is cursor @a strictly before cursor @b?
 * @a: first cursor
 * @b: second cursor
 *
 * Return: true if @a points to an earlier position of the byte stream.
 */
bool smcr_cdc_cursor_before(const struct smcr_cdc_cursor *a,
			    const struct smcr_cdc_cursor *b)
{
	return smcr_cdc_cursor_cmp(a, b) < 0;
}

/**
 * smcr_cdc_cursor_advance() - how far a peer's cursor moved, if it may
 * @old: the cursor last seen
 * @new: the cursor just received
 * @size: size of the RMBE data area
 *
 * Sections 4.4 and A.4: a cursor is an offset into the RMBE and a wrap
 * sequence number; it only moves forward, and by at most one full RMBE
 * (the counts are then equal and the wrap number one more). A cursor
 * outside the RMBE, behind @old, or further ahead is a protocol
 * violation. On one link CDC messages arrive in the order they were
 * sent, so a repeated cursor moves by 0 and nothing is ever late; that
 * holds for a @size of 0 too, an RMBE not known yet, whose cursor can
 * only stay at 0:0.
 *
 * Return: the bytes from @old to @new, 0 to @size, or -EPROTO.
 */
long smcr_cdc_cursor_advance(const struct smcr_cdc_cursor *old,
			     const struct smcr_cdc_cursor *new, u32 size)
{
	u16 d = (u16)(new->wrap - old->wrap);

	if (!d && new->count == old->count)
		return 0;
	if (new->count >= size || old->count >= size)
		return -EPROTO;
	if (!d)
		return new->count >= old->count ?
		       (long)(new->count - old->count) : -EPROTO;
	if (d == 1 && new->count <= old->count)
		return (long)size - old->count + new->count;
	return -EPROTO;
}
