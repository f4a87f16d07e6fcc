// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: LLC (Link Layer Control) message wire format.
 *
 * Encoders and decoders for the LLC messages of SMC-R version 1 (RFC
 * 7609, Appendix A.3) and of SMC-Rv2 as Linux 6.1 sends it; the header
 * file describes both headers.  All layouts are written down as byte
 * offsets below and accessed with the big-endian helpers of smcr_wire.h,
 * except the little-endian version 2 length (see the header file).
 *
 * The typed decoders (smcr_llc_*_decode) take either LLC version, since
 * the bodies are the same in the first 44 bytes; smcr_llc_hdr_decode()
 * and smcr_llc_decode() report which one it was.  The typed encoders
 * write version 1 messages; smcr_llc_encode() writes either.
 *
 * Where the RFC figures and Linux disagree, the Linux layout wins,
 * because Linux is the peer we must interoperate with:
 *  - ADD LINK (A.3.2): Linux has two reserved bytes after the MAC, so
 *    GID, QP number, link number, MTU and PSN all sit two bytes later
 *    than figure 32 suggests (GID at 12, not 10).
 *  - CONFIRM RKEY CONTINUATION (A.3.6): three 13 byte RMB
 *    specifications after the count byte fill the message completely;
 *    the trailing reserved byte drawn in figure 38 cannot exist.  Linux
 *    never sends this message.
 *
 * Error convention of every decoder:
 *   -EMSGSIZE  fewer than SMCR_LLC_MSG_LEN bytes, or a length field out
 *              of range: other than SMCR_LLC_MSG_LEN in version 1,
 *              outside SMCR_LLC_MSG_LEN..SMCR_LLC_V2_MAX_LEN in version 2
 *   -EPROTO    unknown type or LLC version, or not the type the decoder
 *              handles
 *   -EBADMSG   framed correctly, but a count is out of range
 * A decoder reads exactly SMCR_LLC_MSG_LEN bytes; anything after them
 * (a receive buffer may be larger, a version 2 message longer) is
 * ignored, and @len need not match a version 2 length field.
 * Encoders write exactly SMCR_LLC_MSG_LEN bytes and return that number,
 * -EINVAL for a field that does not fit its wire width or range (or a
 * type that has no version 2 form), or -ENOSPC for a short buffer.  In
 * version 2 an ADD LINK rejection reason is not sent: there is no room.
 */
#include "smcr_wire_llc.h"

/* common header */
#define OFF_TYPE		0
#define OFF_LEN			1	/* version 2: two bytes, LE */
#define OFF_RSN			2	/* version 1 only */
#define OFF_FLAGS		3

/* CONFIRM LINK, A.3.1 */
#define OFF_CL_MAC		4
#define OFF_CL_GID		10
#define OFF_CL_QPN		26
#define OFF_CL_LINK_NUM		29
#define OFF_CL_LINK_UID		30
#define OFF_CL_MAX_LINKS	34
#define OFF_CL_MAX_CONNS	35

/* ADD LINK, A.3.2, as Linux lays it out (see above) */
#define OFF_AL_MAC		4
#define OFF_AL_GID		12
#define OFF_AL_QPN		28
#define OFF_AL_LINK_NUM		31
#define OFF_AL_MTU		32
#define OFF_AL_PSN		33

/* ADD LINK CONTINUATION, A.3.3 */
#define OFF_ALC_LINK_NUM	4
#define OFF_ALC_NUM		5
#define OFF_ALC_PAIRS		8
#define PAIR_LEN		16
#define PAIR_REF_RKEY		0
#define PAIR_NEW_RKEY		4
#define PAIR_NEW_VADDR		8

/* the extension of a version 2 ADD LINK, from its byte 44 on */
#define OFF_ALX_FLAGS		0
#define OFF_ALX_GID		2
#define OFF_ALX_NUM		26	/* two bytes, LE */

/* DELETE LINK, A.3.4 */
#define OFF_DL_LINK_NUM		4
#define OFF_DL_REASON		5

/* CONFIRM RKEY, A.3.5, and its continuation, A.3.6 */
#define OFF_CR_NUM		4
#define OFF_CR_RKEY		5
#define OFF_CR_VADDR		9
#define OFF_CR_OTHERS		17
#define OFF_CRC_NUM		4
#define OFF_CRC_ENTRIES		5
#define RTOK_LEN		13
#define RTOK_LINK_NUM		0
#define RTOK_RKEY		1
#define RTOK_VADDR		5

/* DELETE RKEY, A.3.7 */
#define OFF_DR_COUNT		4
#define OFF_DR_MASK		5
#define OFF_DR_RKEYS		8

/* TEST LINK, A.3.8 */
#define OFF_TL_DATA		4

/* REQUEST ADD LINK (Linux) */
#define OFF_RAL_GID_CNT		24
#define OFF_RAL_GID		SMCR_LLC_REQ_ADD_GIDS_OFF

#define SMCR_U24_MAX		0xffffffu
#define SMCR_NIBBLE_MAX		0x0f

/* the version 2 length, in the byte order Linux on x86 sends it */
static u16 smcr_llc_get_le16(const u8 *p)
{
	return (u16)((u16)p[1] << 8 | (u16)p[0]);
}

static void smcr_llc_put_le16(u8 *p, u16 v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
}

/* byte 0 of a message: LLC version and base type */
static u8 smcr_llc_type_byte(u8 version, u8 type)
{
	return (u8)(version << SMCR_LLC_VERSION_SHIFT | type);
}

/**
 * smcr_llc_type_known() - is @type an LLC type byte we can frame?
 * @type: first byte of a message, LLC version included
 *
 * Return: true for the version 1 types 1 to 9 (the eight types of RFC
 * 7609 A.3.1 - A.3.8 and Linux's REQUEST ADD LINK) and for the version
 * 2 types Linux 6.1 sends, SMCR_LLC_TYPE_*_V2.
 */
bool smcr_llc_type_known(u8 type)
{
	switch (type) {
	case SMCR_LLC_TYPE_CONFIRM_LINK:
	case SMCR_LLC_TYPE_ADD_LINK:
	case SMCR_LLC_TYPE_ADD_LINK_CONT:
	case SMCR_LLC_TYPE_DELETE_LINK:
	case SMCR_LLC_TYPE_REQ_ADD_LINK:
	case SMCR_LLC_TYPE_CONFIRM_RKEY:
	case SMCR_LLC_TYPE_TEST_LINK:
	case SMCR_LLC_TYPE_CONFIRM_RKEY_CONT:
	case SMCR_LLC_TYPE_DELETE_RKEY:
	case SMCR_LLC_TYPE_CONFIRM_LINK_V2:
	case SMCR_LLC_TYPE_ADD_LINK_V2:
	case SMCR_LLC_TYPE_DELETE_LINK_V2:
	case SMCR_LLC_TYPE_REQ_ADD_LINK_V2:
	case SMCR_LLC_TYPE_CONFIRM_RKEY_V2:
	case SMCR_LLC_TYPE_TEST_LINK_V2:
	case SMCR_LLC_TYPE_DELETE_RKEY_V2:
		return true;
	}
	return false;
}

/**
 * smcr_llc_type_discardable() - may an unsupported @type be dropped?
 * @type: first byte of a message that smcr_llc_type_known() rejected
 *
 * RFC 7609 A.3: an unsupported opcode whose two high-order bits are
 * b'10' must be silently discarded; b'00' is a protocol error.  The
 * type bytes of both LLC versions (0x0_ and 0x2_) have b'00' there: an
 * unknown type of either version is a protocol error, as it is to
 * Linux.
 *
 * Return: true if the high-order bits of @type are b'10'.
 */
bool smcr_llc_type_discardable(u8 type)
{
	return (type & SMCR_LLC_TYPE_CLASS_MASK) ==
	       SMCR_LLC_TYPE_CLASS_OPTIONAL;
}

/**
 * smcr_llc_hdr_decode() - decode and validate the common LLC header
 * @buf: received bytes
 * @len: number of bytes in @buf, at least SMCR_LLC_MSG_LEN; only those
 *	are read, whatever a version 2 length field says
 * @h: filled with the decoded header unless @len is too short; bytes
 *	1..2 are read as the version 2 length for LLC version 2, as the
 *	version 1 length and reason otherwise
 *
 * Return: 0, -EMSGSIZE if @len is too short or the length field out of
 * range (version 1: 44, A.3; version 2: 44 to SMCR_LLC_V2_MAX_LEN),
 * -EPROTO for a type byte smcr_llc_type_known() does not know (other
 * LLC versions, the continuations in version 2, CDC).
 */
int smcr_llc_hdr_decode(const u8 *buf, size_t len, struct smcr_llc_hdr *h)
{
	bool ok;

	memset(h, 0, sizeof(*h));
	if (len < SMCR_LLC_MSG_LEN)
		return -EMSGSIZE;
	h->version = buf[OFF_TYPE] >> SMCR_LLC_VERSION_SHIFT;
	h->type = buf[OFF_TYPE] & SMCR_LLC_TYPE_MASK;
	h->flags = buf[OFF_FLAGS];
	h->resp = !!(h->flags & SMCR_LLC_FLAG_RESP);
	if (h->version == SMCR_LLC_VERSION_2) {
		h->length = smcr_llc_get_le16(buf + OFF_LEN);
		ok = h->length >= SMCR_LLC_MSG_LEN &&
		     h->length <= SMCR_LLC_V2_MAX_LEN;
	} else {
		h->length = buf[OFF_LEN];
		h->rej_rsn = buf[OFF_RSN] & SMCR_LLC_REJ_RSN_MASK;
		ok = h->length == SMCR_LLC_MSG_LEN;
	}

	if (!smcr_llc_type_known(buf[OFF_TYPE]))
		return -EPROTO;
	return ok ? 0 : -EMSGSIZE;
}

/* header checks plus the expected base @type, either LLC version */
static int smcr_llc_frame(const u8 *buf, size_t len, u8 type,
			  struct smcr_llc_hdr *h)
{
	int rc;

	rc = smcr_llc_hdr_decode(buf, len, h);
	if (rc)
		return rc;
	if (h->type != type)
		return -EPROTO;
	return 0;
}

/* zero the message area and write the common header */
static int smcr_llc_start(u8 *buf, size_t len, u8 type, u8 flags)
{
	if (len < SMCR_LLC_MSG_LEN)
		return -ENOSPC;
	memset(buf, 0, SMCR_LLC_MSG_LEN);
	buf[OFF_TYPE] = type;
	buf[OFF_LEN] = SMCR_LLC_MSG_LEN;
	buf[OFF_FLAGS] = flags;
	return 0;
}

static u8 smcr_llc_resp_flag(bool resp)
{
	return resp ? SMCR_LLC_FLAG_RESP : 0;
}

static void smcr_llc_put_rtoken(u8 *p, const struct smcr_llc_rtoken *t)
{
	p[RTOK_LINK_NUM] = t->link_num;
	smcr_put_be32(p + RTOK_RKEY, t->rkey);
	smcr_put_be64(p + RTOK_VADDR, t->vaddr);
}

static void smcr_llc_get_rtoken(const u8 *p, struct smcr_llc_rtoken *t)
{
	t->link_num = p[RTOK_LINK_NUM];
	t->rkey = smcr_get_be32(p + RTOK_RKEY);
	t->vaddr = smcr_get_be64(p + RTOK_VADDR);
}

static unsigned int smcr_llc_min(unsigned int a, unsigned int b)
{
	return a < b ? a : b;
}

/**
 * smcr_llc_confirm_link_encode() - build a CONFIRM LINK (A.3.1)
 * @m: message contents
 * @buf: output buffer
 * @len: size of @buf
 *
 * Return: SMCR_LLC_MSG_LEN, -EINVAL if @m->qpn exceeds 24 bits, or
 * -ENOSPC if @len is too small.
 */
int smcr_llc_confirm_link_encode(const struct smcr_llc_confirm_link *m,
				 u8 *buf, size_t len)
{
	u8 flags = smcr_llc_resp_flag(m->resp);
	int rc;

	if (m->qpn > SMCR_U24_MAX)
		return -EINVAL;
	if (m->no_rmbe_eyec)
		flags |= SMCR_LLC_FLAG_NO_RMBE_EYEC;
	rc = smcr_llc_start(buf, len, SMCR_LLC_TYPE_CONFIRM_LINK, flags);
	if (rc)
		return rc;
	memcpy(buf + OFF_CL_MAC, m->mac, SMCR_LLC_MAC_LEN);
	memcpy(buf + OFF_CL_GID, m->gid, SMCR_LLC_GID_LEN);
	smcr_put_be24(buf + OFF_CL_QPN, m->qpn);
	buf[OFF_CL_LINK_NUM] = m->link_num;
	memcpy(buf + OFF_CL_LINK_UID, m->link_uid, SMCR_LLC_LINK_UID_LEN);
	buf[OFF_CL_MAX_LINKS] = m->max_links;
	buf[OFF_CL_MAX_CONNS] = m->max_conns;
	return SMCR_LLC_MSG_LEN;
}

/**
 * smcr_llc_confirm_link_decode() - parse a CONFIRM LINK (A.3.1)
 * @buf: received bytes
 * @len: number of bytes in @buf
 * @m: filled with the decoded message; zeroed first
 *
 * @m->no_rmbe_eyec is set only if both SMCR_LLC_FLAG_NO_RMBE_EYEC bits
 * are set, which is what Linux sends.
 *
 * Return: 0 or a negative errno as described at the top of this file.
 */
int smcr_llc_confirm_link_decode(const u8 *buf, size_t len,
				 struct smcr_llc_confirm_link *m)
{
	struct smcr_llc_hdr h;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcr_llc_frame(buf, len, SMCR_LLC_TYPE_CONFIRM_LINK, &h);
	if (rc)
		return rc;
	m->resp = h.resp;
	m->no_rmbe_eyec = (h.flags & SMCR_LLC_FLAG_NO_RMBE_EYEC) ==
			  SMCR_LLC_FLAG_NO_RMBE_EYEC;
	memcpy(m->mac, buf + OFF_CL_MAC, SMCR_LLC_MAC_LEN);
	memcpy(m->gid, buf + OFF_CL_GID, SMCR_LLC_GID_LEN);
	m->qpn = smcr_get_be24(buf + OFF_CL_QPN);
	m->link_num = buf[OFF_CL_LINK_NUM];
	memcpy(m->link_uid, buf + OFF_CL_LINK_UID, SMCR_LLC_LINK_UID_LEN);
	m->max_links = buf[OFF_CL_MAX_LINKS];
	m->max_conns = buf[OFF_CL_MAX_CONNS];
	return 0;
}

/**
 * smcr_llc_add_link_encode() - build an ADD LINK (A.3.2)
 * @m: message contents
 * @buf: output buffer
 * @len: size of @buf
 *
 * The reason code goes into the low nibble of byte 2, the MTU into the
 * low nibble of byte 32 (Linux layout, see the top of this file).
 *
 * Return: SMCR_LLC_MSG_LEN, -EINVAL if the QP number or PSN exceeds 24
 * bits or the reason code or MTU exceeds 4 bits, -ENOSPC if @len is
 * too small.
 */
int smcr_llc_add_link_encode(const struct smcr_llc_add_link *m,
			     u8 *buf, size_t len)
{
	u8 flags = smcr_llc_resp_flag(m->resp);
	int rc;

	if (m->qpn > SMCR_U24_MAX || m->psn > SMCR_U24_MAX ||
	    m->rej_rsn > SMCR_NIBBLE_MAX || m->qp_mtu > SMCR_NIBBLE_MAX)
		return -EINVAL;
	if (m->reject)
		flags |= SMCR_LLC_FLAG_ADD_LINK_REJ;
	rc = smcr_llc_start(buf, len, SMCR_LLC_TYPE_ADD_LINK, flags);
	if (rc)
		return rc;
	buf[OFF_RSN] = m->rej_rsn;
	memcpy(buf + OFF_AL_MAC, m->mac, SMCR_LLC_MAC_LEN);
	memcpy(buf + OFF_AL_GID, m->gid, SMCR_LLC_GID_LEN);
	smcr_put_be24(buf + OFF_AL_QPN, m->qpn);
	buf[OFF_AL_LINK_NUM] = m->link_num;
	buf[OFF_AL_MTU] = m->qp_mtu;
	smcr_put_be24(buf + OFF_AL_PSN, m->psn);
	return SMCR_LLC_MSG_LEN;
}

/**
 * smcr_llc_add_link_decode() - parse an ADD LINK (A.3.2)
 * @buf: received bytes
 * @len: number of bytes in @buf
 * @m: filled with the decoded message; zeroed first
 *
 * Return: 0 or a negative errno as described at the top of this file.
 */
int smcr_llc_add_link_decode(const u8 *buf, size_t len,
			     struct smcr_llc_add_link *m)
{
	struct smcr_llc_hdr h;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcr_llc_frame(buf, len, SMCR_LLC_TYPE_ADD_LINK, &h);
	if (rc)
		return rc;
	m->resp = h.resp;
	m->reject = !!(h.flags & SMCR_LLC_FLAG_ADD_LINK_REJ);
	m->rej_rsn = h.rej_rsn;
	memcpy(m->mac, buf + OFF_AL_MAC, SMCR_LLC_MAC_LEN);
	memcpy(m->gid, buf + OFF_AL_GID, SMCR_LLC_GID_LEN);
	m->qpn = smcr_get_be24(buf + OFF_AL_QPN);
	m->link_num = buf[OFF_AL_LINK_NUM];
	m->qp_mtu = buf[OFF_AL_MTU] & SMCR_NIBBLE_MAX;
	m->psn = smcr_get_be24(buf + OFF_AL_PSN);
	return 0;
}

/**
 * smcr_llc_add_link_ext_encode() - build the extension of a v2 ADD LINK
 * @m: extension header; @m->num_rkeys pairs follow
 * @pairs: the RKey pairs, @m->num_rkeys of them
 * @buf: where the extension goes: byte 44 of the message
 * @len: room at @buf
 *
 * The message's length field then says 44 plus what this returns
 * (smcr_llc_set_v2_length()).
 *
 * Return: the bytes written, -EINVAL for more than
 * SMCR_LLC_ADD_EXT_PAIRS_MAX pairs, -ENOSPC if @len is too small.
 */
int smcr_llc_add_link_ext_encode(const struct smcr_llc_add_link_ext *m,
				 const struct smcr_llc_rkey_pair *pairs,
				 u8 *buf, size_t len)
{
	size_t need = SMCR_LLC_ADD_EXT_LEN +
		      (size_t)m->num_rkeys * SMCR_LLC_ADD_EXT_PAIR_LEN;
	unsigned int i;
	u8 *p;

	if (m->num_rkeys > SMCR_LLC_ADD_EXT_PAIRS_MAX)
		return -EINVAL;
	if (len < need)
		return -ENOSPC;
	memset(buf, 0, SMCR_LLC_ADD_EXT_LEN);
	buf[OFF_ALX_FLAGS] = m->direct ? SMCR_LLC_ADD_EXT_DIRECT : 0;
	memcpy(buf + OFF_ALX_GID, m->gid, SMCR_LLC_GID_LEN);
	smcr_llc_put_le16(buf + OFF_ALX_NUM, m->num_rkeys);
	for (i = 0; i < m->num_rkeys; i++) {
		p = buf + SMCR_LLC_ADD_EXT_LEN + i * SMCR_LLC_ADD_EXT_PAIR_LEN;
		smcr_put_be32(p + PAIR_REF_RKEY, pairs[i].ref_rkey);
		smcr_put_be32(p + PAIR_NEW_RKEY, pairs[i].new_rkey);
		smcr_put_be64(p + PAIR_NEW_VADDR, pairs[i].new_vaddr);
	}
	return (int)need;
}

/**
 * smcr_llc_add_link_ext_decode() - parse the extension of a v2 ADD LINK
 * @buf: the message from its byte 44 on
 * @len: bytes of the message after its first 44, by its length field
 *	and at most what arrived
 * @m: filled with the decoded header; zeroed first
 *
 * @m->num_rkeys counts the pairs within @len, at most the number the
 * sender wrote and SMCR_LLC_ADD_EXT_PAIRS_MAX (see the header file).
 *
 * Return: 0, or -EMSGSIZE if @len cannot hold the extension's header.
 */
int smcr_llc_add_link_ext_decode(const u8 *buf, size_t len,
				 struct smcr_llc_add_link_ext *m)
{
	size_t fit;

	memset(m, 0, sizeof(*m));
	if (len < SMCR_LLC_ADD_EXT_LEN)
		return -EMSGSIZE;
	m->direct = !!(buf[OFF_ALX_FLAGS] & SMCR_LLC_ADD_EXT_DIRECT);
	memcpy(m->gid, buf + OFF_ALX_GID, SMCR_LLC_GID_LEN);
	fit = (len - SMCR_LLC_ADD_EXT_LEN) / SMCR_LLC_ADD_EXT_PAIR_LEN;
	m->num_rkeys = smcr_llc_min(smcr_llc_get_le16(buf + OFF_ALX_NUM),
				    smcr_llc_min(fit,
						 SMCR_LLC_ADD_EXT_PAIRS_MAX));
	return 0;
}

/**
 * smcr_llc_add_link_ext_pair() - one RKey pair of a v2 ADD LINK extension
 * @buf: the extension, as given to smcr_llc_add_link_ext_decode()
 * @i: index of the pair, below the num_rkeys that decoded
 * @p: the pair
 */
void smcr_llc_add_link_ext_pair(const u8 *buf, unsigned int i,
				struct smcr_llc_rkey_pair *p)
{
	const u8 *q = buf + SMCR_LLC_ADD_EXT_LEN +
		      i * SMCR_LLC_ADD_EXT_PAIR_LEN;

	p->ref_rkey = smcr_get_be32(q + PAIR_REF_RKEY);
	p->new_rkey = smcr_get_be32(q + PAIR_NEW_RKEY);
	p->new_vaddr = smcr_get_be64(q + PAIR_NEW_VADDR);
}

/**
 * smcr_llc_set_v2_length() - the length of a longer version 2 message
 * @buf: a version 2 message encoded by smcr_llc_encode(), followed by
 *	what makes it longer
 * @len: size of @buf
 * @total: length of the whole message
 *
 * Return: 0, -EINVAL if @buf is no version 2 message or @total is out
 * of SMCR_LLC_MSG_LEN..SMCR_LLC_V2_MAX_LEN, -ENOSPC if @len < @total.
 */
int smcr_llc_set_v2_length(u8 *buf, size_t len, size_t total)
{
	if (len < SMCR_LLC_MSG_LEN ||
	    buf[OFF_TYPE] >> SMCR_LLC_VERSION_SHIFT != SMCR_LLC_VERSION_2 ||
	    total < SMCR_LLC_MSG_LEN || total > SMCR_LLC_V2_MAX_LEN)
		return -EINVAL;
	if (len < total)
		return -ENOSPC;
	smcr_llc_put_le16(buf + OFF_LEN, (u16)total);
	return 0;
}

/**
 * smcr_llc_add_link_cont_encode() - build an ADD LINK CONTINUATION
 * @m: message contents
 * @buf: output buffer
 * @len: size of @buf
 *
 * A.3.3: @m->num_rkeys counts the RTokens still to be sent, this
 * message included, and may be up to 255; only the first
 * min(@m->num_rkeys, 2) pairs are written, the rest is zero.
 *
 * Return: SMCR_LLC_MSG_LEN or -ENOSPC if @len is too small.
 */
int smcr_llc_add_link_cont_encode(const struct smcr_llc_add_link_cont *m,
				  u8 *buf, size_t len)
{
	unsigned int i, n;
	u8 *p;
	int rc;

	rc = smcr_llc_start(buf, len, SMCR_LLC_TYPE_ADD_LINK_CONT,
			    smcr_llc_resp_flag(m->resp));
	if (rc)
		return rc;
	buf[OFF_ALC_LINK_NUM] = m->link_num;
	buf[OFF_ALC_NUM] = m->num_rkeys;
	n = smcr_llc_min(m->num_rkeys, SMCR_LLC_ADD_CONT_PAIRS);
	for (i = 0; i < n; i++) {
		p = buf + OFF_ALC_PAIRS + i * PAIR_LEN;
		smcr_put_be32(p + PAIR_REF_RKEY, m->pairs[i].ref_rkey);
		smcr_put_be32(p + PAIR_NEW_RKEY, m->pairs[i].new_rkey);
		smcr_put_be64(p + PAIR_NEW_VADDR, m->pairs[i].new_vaddr);
	}
	return SMCR_LLC_MSG_LEN;
}

/**
 * smcr_llc_add_link_cont_decode() - parse an ADD LINK CONTINUATION
 * @buf: received bytes
 * @len: number of bytes in @buf
 * @m: filled with the decoded message; zeroed first
 *
 * Reads min(NumRTokens, 2) pairs (A.3.3); unused slots stay zero.
 *
 * Return: 0 or a negative errno as described at the top of this file.
 */
int smcr_llc_add_link_cont_decode(const u8 *buf, size_t len,
				  struct smcr_llc_add_link_cont *m)
{
	struct smcr_llc_hdr h;
	unsigned int i, n;
	const u8 *p;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcr_llc_frame(buf, len, SMCR_LLC_TYPE_ADD_LINK_CONT, &h);
	if (rc)
		return rc;
	m->resp = h.resp;
	m->link_num = buf[OFF_ALC_LINK_NUM];
	m->num_rkeys = buf[OFF_ALC_NUM];
	n = smcr_llc_min(m->num_rkeys, SMCR_LLC_ADD_CONT_PAIRS);
	for (i = 0; i < n; i++) {
		p = buf + OFF_ALC_PAIRS + i * PAIR_LEN;
		m->pairs[i].ref_rkey = smcr_get_be32(p + PAIR_REF_RKEY);
		m->pairs[i].new_rkey = smcr_get_be32(p + PAIR_NEW_RKEY);
		m->pairs[i].new_vaddr = smcr_get_be64(p + PAIR_NEW_VADDR);
	}
	return 0;
}

/**
 * smcr_llc_delete_link_encode() - build a DELETE LINK (A.3.4)
 * @m: message contents
 * @buf: output buffer
 * @len: size of @buf
 *
 * Return: SMCR_LLC_MSG_LEN, -EINVAL if @m->all is set together with a
 * non-zero link number (A.3.4: the field is then 0), -ENOSPC if @len
 * is too small.
 */
int smcr_llc_delete_link_encode(const struct smcr_llc_delete_link *m,
				u8 *buf, size_t len)
{
	u8 flags = smcr_llc_resp_flag(m->resp);
	int rc;

	if (m->all && m->link_num)
		return -EINVAL;
	if (m->all)
		flags |= SMCR_LLC_FLAG_DEL_LINK_ALL;
	if (m->orderly)
		flags |= SMCR_LLC_FLAG_DEL_LINK_ORDERLY;
	rc = smcr_llc_start(buf, len, SMCR_LLC_TYPE_DELETE_LINK, flags);
	if (rc)
		return rc;
	buf[OFF_DL_LINK_NUM] = m->link_num;
	smcr_put_be32(buf + OFF_DL_REASON, m->reason);
	return SMCR_LLC_MSG_LEN;
}

/**
 * smcr_llc_delete_link_decode() - parse a DELETE LINK (A.3.4)
 * @buf: received bytes
 * @len: number of bytes in @buf
 * @m: filled with the decoded message; zeroed first
 *
 * With the A flag set the link number "has no meaning" (A.3.4) and is
 * reported as 0 whatever the peer sent.
 *
 * Return: 0 or a negative errno as described at the top of this file.
 */
int smcr_llc_delete_link_decode(const u8 *buf, size_t len,
				struct smcr_llc_delete_link *m)
{
	struct smcr_llc_hdr h;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcr_llc_frame(buf, len, SMCR_LLC_TYPE_DELETE_LINK, &h);
	if (rc)
		return rc;
	m->resp = h.resp;
	m->all = !!(h.flags & SMCR_LLC_FLAG_DEL_LINK_ALL);
	m->orderly = !!(h.flags & SMCR_LLC_FLAG_DEL_LINK_ORDERLY);
	m->link_num = m->all ? 0 : buf[OFF_DL_LINK_NUM];
	m->reason = smcr_get_be32(buf + OFF_DL_REASON);
	return 0;
}

/**
 * smcr_llc_confirm_rkey_encode() - build a CONFIRM RKEY (A.3.5)
 * @m: message contents
 * @buf: output buffer
 * @len: size of @buf
 *
 * Writes the RToken of the sending link and min(@m->num_tkns, 2) other
 * link RTokens; the remaining slots are zero.
 *
 * Return: SMCR_LLC_MSG_LEN, -EINVAL if @m->num_tkns exceeds
 * SMCR_LLC_RKEY_TKNS_MAX, -ENOSPC if @len is too small.
 */
int smcr_llc_confirm_rkey_encode(const struct smcr_llc_confirm_rkey *m,
				 u8 *buf, size_t len)
{
	u8 flags = smcr_llc_resp_flag(m->resp);
	unsigned int i, n;
	int rc;

	if (m->num_tkns > SMCR_LLC_RKEY_TKNS_MAX)
		return -EINVAL;
	if (m->negative)
		flags |= SMCR_LLC_FLAG_RKEY_NEG;
	if (m->retry)
		flags |= SMCR_LLC_FLAG_RKEY_RETRY;
	rc = smcr_llc_start(buf, len, SMCR_LLC_TYPE_CONFIRM_RKEY, flags);
	if (rc)
		return rc;
	buf[OFF_CR_NUM] = m->num_tkns;
	smcr_put_be32(buf + OFF_CR_RKEY, m->rkey);
	smcr_put_be64(buf + OFF_CR_VADDR, m->vaddr);
	n = smcr_llc_min(m->num_tkns, SMCR_LLC_RKEY_OTHERS);
	for (i = 0; i < n; i++)
		smcr_llc_put_rtoken(buf + OFF_CR_OTHERS + i * RTOK_LEN,
				    &m->others[i]);
	return SMCR_LLC_MSG_LEN;
}

/**
 * smcr_llc_confirm_rkey_decode() - parse a CONFIRM RKEY (A.3.5)
 * @buf: received bytes
 * @len: number of bytes in @buf
 * @m: filled with the decoded message; zeroed first
 *
 * Return: 0, -EBADMSG if NumTkns exceeds SMCR_LLC_RKEY_TKNS_MAX (a link
 * group has at most eight links, A.3.5), or another negative errno as
 * described at the top of this file.
 */
int smcr_llc_confirm_rkey_decode(const u8 *buf, size_t len,
				 struct smcr_llc_confirm_rkey *m)
{
	struct smcr_llc_hdr h;
	unsigned int i, n;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcr_llc_frame(buf, len, SMCR_LLC_TYPE_CONFIRM_RKEY, &h);
	if (rc)
		return rc;
	if (buf[OFF_CR_NUM] > SMCR_LLC_RKEY_TKNS_MAX)
		return -EBADMSG;
	m->resp = h.resp;
	m->negative = !!(h.flags & SMCR_LLC_FLAG_RKEY_NEG);
	m->retry = !!(h.flags & SMCR_LLC_FLAG_RKEY_RETRY);
	m->num_tkns = buf[OFF_CR_NUM];
	m->rkey = smcr_get_be32(buf + OFF_CR_RKEY);
	m->vaddr = smcr_get_be64(buf + OFF_CR_VADDR);
	n = smcr_llc_min(m->num_tkns, SMCR_LLC_RKEY_OTHERS);
	for (i = 0; i < n; i++)
		smcr_llc_get_rtoken(buf + OFF_CR_OTHERS + i * RTOK_LEN,
				    &m->others[i]);
	return 0;
}

/**
 * smcr_llc_confirm_rkey_cont_encode() - build a CONFIRM RKEY CONTINUATION
 * @m: message contents
 * @buf: output buffer
 * @len: size of @buf
 *
 * A.3.6; writes min(@m->num_tkns_left, 3) RMB specifications.
 *
 * Return: SMCR_LLC_MSG_LEN, -EINVAL if @m->num_tkns_left exceeds
 * SMCR_LLC_RKEY_TKNS_MAX, -ENOSPC if @len is too small.
 */
int smcr_llc_confirm_rkey_cont_encode(const struct smcr_llc_confirm_rkey_cont *m,
				      u8 *buf, size_t len)
{
	u8 flags = smcr_llc_resp_flag(m->resp);
	unsigned int i, n;
	int rc;

	if (m->num_tkns_left > SMCR_LLC_RKEY_TKNS_MAX)
		return -EINVAL;
	if (m->negative)
		flags |= SMCR_LLC_FLAG_RKEY_NEG;
	rc = smcr_llc_start(buf, len, SMCR_LLC_TYPE_CONFIRM_RKEY_CONT, flags);
	if (rc)
		return rc;
	buf[OFF_CRC_NUM] = m->num_tkns_left;
	n = smcr_llc_min(m->num_tkns_left, SMCR_LLC_RKEY_CONT_ENTRIES);
	for (i = 0; i < n; i++)
		smcr_llc_put_rtoken(buf + OFF_CRC_ENTRIES + i * RTOK_LEN,
				    &m->others[i]);
	return SMCR_LLC_MSG_LEN;
}

/**
 * smcr_llc_confirm_rkey_cont_decode() - parse a CONFIRM RKEY CONTINUATION
 * @buf: received bytes
 * @len: number of bytes in @buf
 * @m: filled with the decoded message; zeroed first
 *
 * Return: 0, -EBADMSG if NumTknsLeft exceeds SMCR_LLC_RKEY_TKNS_MAX, or
 * another negative errno as described at the top of this file.
 */
int smcr_llc_confirm_rkey_cont_decode(const u8 *buf, size_t len,
				      struct smcr_llc_confirm_rkey_cont *m)
{
	struct smcr_llc_hdr h;
	unsigned int i, n;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcr_llc_frame(buf, len, SMCR_LLC_TYPE_CONFIRM_RKEY_CONT, &h);
	if (rc)
		return rc;
	if (buf[OFF_CRC_NUM] > SMCR_LLC_RKEY_TKNS_MAX)
		return -EBADMSG;
	m->resp = h.resp;
	m->negative = !!(h.flags & SMCR_LLC_FLAG_RKEY_NEG);
	m->num_tkns_left = buf[OFF_CRC_NUM];
	n = smcr_llc_min(m->num_tkns_left, SMCR_LLC_RKEY_CONT_ENTRIES);
	for (i = 0; i < n; i++)
		smcr_llc_get_rtoken(buf + OFF_CRC_ENTRIES + i * RTOK_LEN,
				    &m->others[i]);
	return 0;
}

/**
 * smcr_llc_delete_rkey_encode() - build a DELETE RKEY (A.3.7)
 * @m: message contents
 * @buf: output buffer
 * @len: size of @buf
 *
 * Return: SMCR_LLC_MSG_LEN, -EINVAL if @m->count exceeds
 * SMCR_LLC_DEL_RKEY_MAX, -ENOSPC if @len is too small.
 */
int smcr_llc_delete_rkey_encode(const struct smcr_llc_delete_rkey *m,
				u8 *buf, size_t len)
{
	u8 flags = smcr_llc_resp_flag(m->resp);
	unsigned int i;
	int rc;

	if (m->count > SMCR_LLC_DEL_RKEY_MAX)
		return -EINVAL;
	if (m->negative)
		flags |= SMCR_LLC_FLAG_RKEY_NEG;
	rc = smcr_llc_start(buf, len, SMCR_LLC_TYPE_DELETE_RKEY, flags);
	if (rc)
		return rc;
	buf[OFF_DR_COUNT] = m->count;
	buf[OFF_DR_MASK] = m->err_mask;
	for (i = 0; i < m->count; i++)
		smcr_put_be32(buf + OFF_DR_RKEYS + 4 * i, m->rkeys[i]);
	return SMCR_LLC_MSG_LEN;
}

/**
 * smcr_llc_delete_rkey_decode() - parse a DELETE RKEY (A.3.7)
 * @buf: received bytes
 * @len: number of bytes in @buf
 * @m: filled with the decoded message; zeroed first
 *
 * Return: 0, -EBADMSG if Count exceeds SMCR_LLC_DEL_RKEY_MAX, or
 * another negative errno as described at the top of this file.
 */
int smcr_llc_delete_rkey_decode(const u8 *buf, size_t len,
				struct smcr_llc_delete_rkey *m)
{
	struct smcr_llc_hdr h;
	unsigned int i;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcr_llc_frame(buf, len, SMCR_LLC_TYPE_DELETE_RKEY, &h);
	if (rc)
		return rc;
	if (buf[OFF_DR_COUNT] > SMCR_LLC_DEL_RKEY_MAX)
		return -EBADMSG;
	m->resp = h.resp;
	m->negative = !!(h.flags & SMCR_LLC_FLAG_RKEY_NEG);
	m->count = buf[OFF_DR_COUNT];
	m->err_mask = buf[OFF_DR_MASK];
	for (i = 0; i < m->count; i++)
		m->rkeys[i] = smcr_get_be32(buf + OFF_DR_RKEYS + 4 * i);
	return 0;
}

/**
 * smcr_llc_test_link_encode() - build a TEST LINK (A.3.8)
 * @m: message contents
 * @buf: output buffer
 * @len: size of @buf
 *
 * Return: SMCR_LLC_MSG_LEN or -ENOSPC if @len is too small.
 */
int smcr_llc_test_link_encode(const struct smcr_llc_test_link *m,
			      u8 *buf, size_t len)
{
	int rc;

	rc = smcr_llc_start(buf, len, SMCR_LLC_TYPE_TEST_LINK,
			    smcr_llc_resp_flag(m->resp));
	if (rc)
		return rc;
	memcpy(buf + OFF_TL_DATA, m->user_data, SMCR_LLC_TEST_DATA_LEN);
	return SMCR_LLC_MSG_LEN;
}

/**
 * smcr_llc_test_link_decode() - parse a TEST LINK (A.3.8)
 * @buf: received bytes
 * @len: number of bytes in @buf
 * @m: filled with the decoded message; zeroed first
 *
 * Return: 0 or a negative errno as described at the top of this file.
 */
int smcr_llc_test_link_decode(const u8 *buf, size_t len,
			      struct smcr_llc_test_link *m)
{
	struct smcr_llc_hdr h;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcr_llc_frame(buf, len, SMCR_LLC_TYPE_TEST_LINK, &h);
	if (rc)
		return rc;
	m->resp = h.resp;
	memcpy(m->user_data, buf + OFF_TL_DATA, SMCR_LLC_TEST_DATA_LEN);
	return 0;
}

/**
 * smcr_llc_req_add_link_encode() - build a REQUEST ADD LINK
 * @m: message contents
 * @buf: output buffer
 * @len: size of @buf
 *
 * Writes the count and the first GID; a version 2 message with more
 * GIDs is made longer by the caller (smcr_llc_set_v2_length()), the
 * others right after byte 44.
 *
 * Return: SMCR_LLC_MSG_LEN or -ENOSPC if @len is too small.
 */
int smcr_llc_req_add_link_encode(const struct smcr_llc_req_add_link *m,
				 u8 *buf, size_t len)
{
	int rc;

	rc = smcr_llc_start(buf, len, SMCR_LLC_TYPE_REQ_ADD_LINK,
			    smcr_llc_resp_flag(m->resp));
	if (rc)
		return rc;
	buf[OFF_RAL_GID_CNT] = m->gid_cnt;
	memcpy(buf + OFF_RAL_GID, m->gid, SMCR_LLC_GID_LEN);
	return SMCR_LLC_MSG_LEN;
}

/**
 * smcr_llc_req_add_link_decode() - parse a REQUEST ADD LINK
 * @buf: received bytes
 * @len: number of bytes in @buf
 * @m: filled with the decoded message; zeroed first
 *
 * Only the first GID is read; a request that offers none (any reply)
 * has @m->gid zeroed.
 *
 * Return: 0 or a negative errno as described at the top of this file.
 */
int smcr_llc_req_add_link_decode(const u8 *buf, size_t len,
				 struct smcr_llc_req_add_link *m)
{
	struct smcr_llc_hdr h;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcr_llc_frame(buf, len, SMCR_LLC_TYPE_REQ_ADD_LINK, &h);
	if (rc)
		return rc;
	m->resp = h.resp;
	m->gid_cnt = buf[OFF_RAL_GID_CNT];
	if (m->gid_cnt)
		memcpy(m->gid, buf + OFF_RAL_GID, SMCR_LLC_GID_LEN);
	return 0;
}

/**
 * smcr_llc_req_add_link_gid() - one of the GIDs a REQUEST ADD LINK offers
 * @m: the request, decoded
 * @ext: the bytes of the message after its first SMCR_LLC_MSG_LEN, within
 *	the length its header gives
 * @ext_len: number of bytes in @ext
 * @i: which GID, from 0 (the one in @m, of the link the client has)
 *
 * Return: the GID, or NULL when @m offers fewer than @i + 1 or @ext ends
 * before it.
 */
const u8 *smcr_llc_req_add_link_gid(const struct smcr_llc_req_add_link *m,
				    const u8 *ext, size_t ext_len,
				    unsigned int i)
{
	if (i >= m->gid_cnt)
		return NULL;
	if (!i)
		return m->gid;
	if (!ext || ext_len / SMCR_LLC_GID_LEN < i)
		return NULL;
	return ext + (size_t)(i - 1) * SMCR_LLC_GID_LEN;
}

/* the version 1 message of @m->type, whatever @m->version says */
static int smcr_llc_encode_v1(const struct smcr_llc_msg *m, u8 *buf,
			      size_t len)
{
	const struct smcr_llc_confirm_rkey_cont *rkey_cont =
		&m->u.confirm_rkey_cont;

	switch (m->type) {
	case SMCR_LLC_TYPE_CONFIRM_LINK:
		return smcr_llc_confirm_link_encode(&m->u.confirm_link,
						    buf, len);
	case SMCR_LLC_TYPE_ADD_LINK:
		return smcr_llc_add_link_encode(&m->u.add_link, buf, len);
	case SMCR_LLC_TYPE_ADD_LINK_CONT:
		return smcr_llc_add_link_cont_encode(&m->u.add_link_cont,
						     buf, len);
	case SMCR_LLC_TYPE_DELETE_LINK:
		return smcr_llc_delete_link_encode(&m->u.delete_link,
						   buf, len);
	case SMCR_LLC_TYPE_CONFIRM_RKEY:
		return smcr_llc_confirm_rkey_encode(&m->u.confirm_rkey,
						    buf, len);
	case SMCR_LLC_TYPE_CONFIRM_RKEY_CONT:
		return smcr_llc_confirm_rkey_cont_encode(rkey_cont, buf, len);
	case SMCR_LLC_TYPE_DELETE_RKEY:
		return smcr_llc_delete_rkey_encode(&m->u.delete_rkey,
						   buf, len);
	case SMCR_LLC_TYPE_TEST_LINK:
		return smcr_llc_test_link_encode(&m->u.test_link, buf, len);
	case SMCR_LLC_TYPE_REQ_ADD_LINK:
		return smcr_llc_req_add_link_encode(&m->u.req_add_link,
						    buf, len);
	}
	return -EINVAL;
}

/* can @m be sent in LLC version @m->version? */
static int smcr_llc_check_version(const struct smcr_llc_msg *m)
{
	switch (m->version) {
	case SMCR_LLC_VERSION_1:
		return 0;
	case SMCR_LLC_VERSION_2:
		if (m->type > SMCR_LLC_TYPE_MASK ||
		    !smcr_llc_type_known(smcr_llc_type_byte(m->version,
							    m->type)))
			return -EINVAL;
		return 0;
	}
	return -EINVAL;
}

/**
 * smcr_llc_encode() - build the LLC message selected by @m->type
 * @m: LLC version, message type and contents
 * @buf: output buffer
 * @len: size of @buf
 *
 * The header is written in the format of @m->version; the body is the
 * same in both.  A version 2 message is SMCR_LLC_MSG_LEN bytes long,
 * its length field says so.  The length takes the byte of an ADD LINK
 * rejection reason: in version 2 the reason is not sent (but still
 * range checked), as Linux does not send it.
 *
 * Return: SMCR_LLC_MSG_LEN, -EINVAL for an unknown version or type, a
 * type without a version 2 form (ADD LINK CONTINUATION, CONFIRM RKEY
 * CONTINUATION) in version 2, or a field out of range, -ENOSPC if @len
 * is too small.
 */
int smcr_llc_encode(const struct smcr_llc_msg *m, u8 *buf, size_t len)
{
	int rc;

	rc = smcr_llc_check_version(m);
	if (rc)
		return rc;
	rc = smcr_llc_encode_v1(m, buf, len);
	if (rc < 0 || m->version == SMCR_LLC_VERSION_1)
		return rc;
	/* the version 2 header; the length overwrites any reason */
	buf[OFF_TYPE] = smcr_llc_type_byte(m->version, m->type);
	smcr_llc_put_le16(buf + OFF_LEN, SMCR_LLC_MSG_LEN);
	return rc;
}

/**
 * smcr_llc_decode() - parse any LLC message of either version
 * @buf: received bytes
 * @len: number of bytes in @buf
 * @m: @m->version, @m->type and the matching member of @m->u are
 *	filled in; the whole structure is zeroed first
 *
 * Dispatches on the base type; a version 2 body is read from the first
 * SMCR_LLC_MSG_LEN bytes in the version 1 layout.  For -EPROTO the
 * caller decides with smcr_llc_type_discardable() whether to drop the
 * message silently or to treat it as a protocol violation (A.3).
 *
 * Return: 0 or a negative errno as described at the top of this file.
 */
int smcr_llc_decode(const u8 *buf, size_t len, struct smcr_llc_msg *m)
{
	struct smcr_llc_confirm_rkey_cont *rkey_cont = &m->u.confirm_rkey_cont;
	struct smcr_llc_hdr h;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcr_llc_hdr_decode(buf, len, &h);
	if (rc)
		return rc;
	m->version = h.version;
	m->type = h.type;
	switch (h.type) {
	case SMCR_LLC_TYPE_CONFIRM_LINK:
		return smcr_llc_confirm_link_decode(buf, len,
						    &m->u.confirm_link);
	case SMCR_LLC_TYPE_ADD_LINK:
		return smcr_llc_add_link_decode(buf, len, &m->u.add_link);
	case SMCR_LLC_TYPE_ADD_LINK_CONT:
		return smcr_llc_add_link_cont_decode(buf, len,
						     &m->u.add_link_cont);
	case SMCR_LLC_TYPE_DELETE_LINK:
		return smcr_llc_delete_link_decode(buf, len,
						   &m->u.delete_link);
	case SMCR_LLC_TYPE_CONFIRM_RKEY:
		return smcr_llc_confirm_rkey_decode(buf, len,
						    &m->u.confirm_rkey);
	case SMCR_LLC_TYPE_CONFIRM_RKEY_CONT:
		return smcr_llc_confirm_rkey_cont_decode(buf, len, rkey_cont);
	case SMCR_LLC_TYPE_DELETE_RKEY:
		return smcr_llc_delete_rkey_decode(buf, len,
						   &m->u.delete_rkey);
	case SMCR_LLC_TYPE_TEST_LINK:
		return smcr_llc_test_link_decode(buf, len, &m->u.test_link);
	case SMCR_LLC_TYPE_REQ_ADD_LINK:
		return smcr_llc_req_add_link_decode(buf, len,
						    &m->u.req_add_link);
	}
	return -EPROTO;
}
