// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: CLC (Connection Layer Control) message wire format.
 *
 * Encoders and decoders for the CLC messages of RFC 7609, Appendix A.2.
 * All layouts are written down as byte offsets below and accessed with
 * the big-endian helpers of smcr_wire.h.
 *
 * Error convention of every decoder:
 *   -EPROTO    not an SMC-R CLC message we can handle: bad header
 *              eyecatcher, unknown or unexpected type, version 0,
 *              unsupported version or path type for this message
 *   -EMSGSIZE  the length field is out of bounds for the type, or the
 *              caller's buffer does not hold exactly one message
 *   -EBADMSG   the message is framed correctly but its contents are
 *              inconsistent: bad trailer, bad IP area offset, too many
 *              prefixes, bad prefix lengths, stray trailing bytes
 * Encoders return the number of bytes written, -EINVAL for a field
 * that does not fit its wire width, or -ENOSPC for a short buffer.
 */
#include "smcr_wire_clc.h"

/* header, A.2 */
#define OFF_HDR_EYE		0
#define OFF_HDR_TYPE		4
#define OFF_HDR_LEN		5
#define OFF_HDR_VER		7

/* local peer information shared by proposal, accept and confirm */
#define OFF_PEER_ID		8
#define OFF_GID			16
#define OFF_MAC			32

/* proposal, A.2.2 */
#define OFF_PROP_IPAREA_OFF	38
/* inside the IP area, relative to its start */
#define IPA_SUBNET		0
#define IPA_PREFIX_LEN		4
#define IPA_V6_CNT		7
/* inside one IPv6 prefix entry */
#define V6_ADDR			0
#define V6_LEN			16

/* version 2 proposal: SMC-D area after the base, v2 extension */
#define OFF_SMCD_V2_EXT_OFF	50
#define SMCD_V2_EXT_BASE	52	/* v2 extension offset counts from here */
/* farthest v2 extension Linux looks for: after the largest IP area */
#define SMCD_V2_EXT_OFF_MAX	(SMCR_CLC_SMCD_AREA_LEN - 12 + \
				 SMCR_CLC_IPAREA_LEN + \
				 SMCR_CLC_MAX_V6_PREFIX * SMCR_CLC_V6_PREFIX_LEN)
#define V2X_EID_CNT		0
#define V2X_ISM_CNT		1
#define V2X_FLAG		3
#define V2X_FLAG_SEID		0x01
#define V2X_GID			8
#define V2X_MAX_CONNS		24	/* release 1; reserved before */
#define V2X_MAX_LINKS		25
#define V2X_FEATURES		26

/* accept and confirm, A.2.3 / A.2.4 */
#define OFF_AC_QPN		38
#define OFF_AC_RKEY		41
#define OFF_AC_RMBE_IDX		45
#define OFF_AC_ALERT_TOKEN	46
#define OFF_AC_SIZE_MTU		50
#define OFF_AC_DMA_ADDR		52
#define OFF_AC_PSN		61
/* version 2 additions */
#define OFF_AC_EID		64
#define OFF_AC_FCE		104
#define FCE_DIRECT		0
#define FCE_DIRECT_BIT		0x80
#define FCE_OS_REL		1
#define FCE_HOST		4
/* release 1 (Linux 6.12): in the 16 bytes an accept was padded with and
 * a confirm's GID list began with, zero from a peer of release 0
 */
#define FCE_MAX_CONNS		36
#define FCE_MAX_LINKS		37
#define FCE_FEATURES		38
#define FCE_VENDOR_OPTS		40
#define GLE_CNT			0

/* decline, A.2.5, plus the Linux version 2 diagnosis words */
#define OFF_DECL_PEER_ID	8
#define OFF_DECL_DIAG		16
#define OFF_DECL_OS		20
#define OFF_DECL_DIAG_V2	24

#define SMCR_U24_MAX		0xffffffu
#define SMCR_NIBBLE_MAX		0x0f

/* smallest length the header may announce for @type, 0 if unknown */
static u16 smcr_clc_min_len(u8 type)
{
	switch (type) {
	case SMCR_CLC_TYPE_PROPOSAL:
		return SMCR_CLC_PROP_MIN_LEN;
	case SMCR_CLC_TYPE_ACCEPT:
	case SMCR_CLC_TYPE_CONFIRM:
		return SMCR_CLC_ACC_CONF_LEN;
	case SMCR_CLC_TYPE_DECLINE:
		return SMCR_CLC_DECLINE_LEN;
	}
	return 0;
}

/**
 * smcr_clc_hdr_decode() - decode and validate the 8 byte CLC header
 * @buf: received bytes
 * @len: number of bytes in @buf, at least SMCR_CLC_HDR_LEN
 * @hdr: filled with the decoded header, also when validation fails
 *
 * Checks the leading eyecatcher (A.2: both eyecatchers must be
 * validated), the type (A.2.2 - A.2.5), a non-zero version and that
 * the length fits the type and SMCR_CLC_MAX_LEN.  Only the first
 * SMCR_CLC_HDR_LEN bytes are read, so a receiver can peek the header
 * and then read exactly @hdr->length bytes in total.
 *
 * Return: 0 on success, -EPROTO for a bad eyecatcher, type or version,
 * -EMSGSIZE if @len or the length field is out of bounds.
 */
int smcr_clc_hdr_decode(const u8 *buf, size_t len, struct smcr_clc_hdr *hdr)
{
	u16 min;

	if (len < SMCR_CLC_HDR_LEN)
		return -EMSGSIZE;
	hdr->eyecatcher = smcr_get_be32(buf + OFF_HDR_EYE);
	hdr->type = buf[OFF_HDR_TYPE];
	hdr->length = smcr_get_be16(buf + OFF_HDR_LEN);
	hdr->version = buf[OFF_HDR_VER] >> 4;
	hdr->typebits = buf[OFF_HDR_VER] & SMCR_CLC_TYPEBITS_MASK;

	if (hdr->eyecatcher != SMCR_CLC_EYECATCHER_R)
		return -EPROTO;
	min = smcr_clc_min_len(hdr->type);
	if (!min || !hdr->version)
		return -EPROTO;
	if (hdr->length < min || hdr->length > SMCR_CLC_MAX_LEN)
		return -EMSGSIZE;
	return 0;
}

/**
 * smcr_clc_check_trailer() - check the trailing eyecatcher of a message
 * @msg: the complete message
 * @len: its length as announced in the header
 *
 * RFC 7609 A.2 requires the receiver to validate the eyecatcher at the
 * end of every CLC message.
 *
 * Return: 0 if the last four bytes spell "SMCR", -EMSGSIZE if @len
 * cannot hold a header and a trailer, -EBADMSG otherwise.
 */
int smcr_clc_check_trailer(const u8 *msg, size_t len)
{
	if (len < SMCR_CLC_HDR_LEN + SMCR_CLC_TRL_LEN)
		return -EMSGSIZE;
	if (smcr_get_be32(msg + len - SMCR_CLC_TRL_LEN) !=
	    SMCR_CLC_EYECATCHER_R)
		return -EBADMSG;
	return 0;
}

/* Common framing checks for a message of one of the two types @t1, @t2:
 * header, buffer holding exactly the message, trailer.
 */
static int smcr_clc_frame(const u8 *buf, size_t len, u8 t1, u8 t2,
			  struct smcr_clc_hdr *hdr)
{
	int rc;

	rc = smcr_clc_hdr_decode(buf, len, hdr);
	if (rc)
		return rc;
	if (hdr->type != t1 && hdr->type != t2)
		return -EPROTO;
	if (len != hdr->length)
		return -EMSGSIZE;
	return smcr_clc_check_trailer(buf, len);
}

static void smcr_clc_put_hdr(u8 *buf, u8 type, u16 length, u8 version,
			     u8 typebits)
{
	smcr_put_be32(buf + OFF_HDR_EYE, SMCR_CLC_EYECATCHER_R);
	buf[OFF_HDR_TYPE] = type;
	smcr_put_be16(buf + OFF_HDR_LEN, length);
	buf[OFF_HDR_VER] = (u8)(version << 4 |
				(typebits & SMCR_CLC_TYPEBITS_MASK));
}

static void smcr_clc_put_trailer(u8 *buf, u16 length)
{
	smcr_put_be32(buf + length - SMCR_CLC_TRL_LEN, SMCR_CLC_EYECATCHER_R);
}

/* a proposal carries an IP area unless its v1 path type is "none" */
static bool smcr_clc_prop_has_iparea(const struct smcr_clc_proposal *p)
{
	return p->path_v1 != SMCR_CLC_PATH_NONE;
}

static bool smcr_clc_path_has_d(u8 path)
{
	return path == SMCR_CLC_PATH_D || path == SMCR_CLC_PATH_BOTH;
}

/* bytes of the IP area of @p, subnet through IPv6 prefixes */
static size_t smcr_clc_iparea_len(const struct smcr_clc_proposal *p)
{
	return SMCR_CLC_IPAREA_LEN +
	       (size_t)p->ipv6_prefix_cnt * SMCR_CLC_V6_PREFIX_LEN;
}

/* bytes of the v2 extension of @p with its EIDs and, for an SMC-D
 * offer, the SMC-D v2 extension with its ISM GIDs
 */
static size_t smcr_clc_v2_ext_len(const struct smcr_clc_proposal *p)
{
	size_t len = SMCR_CLC_V2_EXT_LEN +
		     (size_t)p->eid_cnt * SMCR_CLC_EID_LEN;

	if (smcr_clc_path_has_d(p->path_v2))
		len += SMCR_CLC_SMCD_V2_EXT_LEN +
		       (size_t)p->ism_gid_cnt * SMCR_CLC_ISM_GID_LEN;
	return len;
}

/**
 * smcr_clc_proposal_len() - validate a proposal and compute its length
 * @p: proposal to be encoded
 *
 * A version 1 proposal is the RFC 7609 A.2.2 layout: it must offer a
 * v1 path and has no extension.  A version 2 proposal has the SMC-D
 * area, an IP area only if a v1 path is offered, and a v2 extension
 * (@p->v2_ext set) exactly when a v2 path is offered; we encode SMC-R
 * v2 offers only.
 *
 * Return: the number of bytes smcr_clc_proposal_encode() will write, or
 * -EINVAL if a field cannot be represented (A.2.2: at most eight IPv6
 * prefixes; prefix lengths bounded by the address width) or the
 * combination is not one of the above.
 */
int smcr_clc_proposal_len(const struct smcr_clc_proposal *p)
{
	size_t total = SMCR_CLC_PROP_BASE_LEN;
	bool v2_path = p->path_v2 != SMCR_CLC_PATH_NONE;
	unsigned int i;

	if (!p->version || p->version > SMCR_NIBBLE_MAX ||
	    p->path_v1 > SMCR_CLC_PATH_BOTH ||
	    p->path_v2 > SMCR_CLC_PATH_BOTH)
		return -EINVAL;
	if (p->version == SMCR_CLC_V1) {
		if (!smcr_clc_prop_has_iparea(p) || p->path_v2 || p->v2_ext ||
		    p->iparea_offset > SMCR_CLC_IPAREA_OFF_MAX)
			return -EINVAL;
		total += p->iparea_offset;
	} else {
		if (v2_path != p->v2_ext || smcr_clc_path_has_d(p->path_v2) ||
		    (!v2_path && !smcr_clc_prop_has_iparea(p)) ||
		    p->eid_cnt > SMCR_CLC_MAX_UEID ||
		    p->v2_release > SMCR_NIBBLE_MAX)
			return -EINVAL;
		total += SMCR_CLC_SMCD_AREA_LEN;
		if (v2_path)
			total += smcr_clc_v2_ext_len(p);
	}
	if (smcr_clc_prop_has_iparea(p)) {
		if (p->ipv4_prefix_len > 32 ||
		    p->ipv6_prefix_cnt > SMCR_CLC_MAX_V6_PREFIX)
			return -EINVAL;
		for (i = 0; i < p->ipv6_prefix_cnt; i++)
			if (p->ipv6_prefix[i].len > 128)
				return -EINVAL;
		total += smcr_clc_iparea_len(p);
	}
	total += SMCR_CLC_TRL_LEN;
	if (total > SMCR_CLC_PROP_MAX_LEN)
		return -EINVAL;
	return (int)total;
}

static void smcr_clc_put_iparea(const struct smcr_clc_proposal *p, u8 *buf)
{
	unsigned int i;
	size_t pos;

	smcr_put_be32(buf + IPA_SUBNET, p->ipv4_subnet);
	buf[IPA_PREFIX_LEN] = p->ipv4_prefix_len;
	buf[IPA_V6_CNT] = p->ipv6_prefix_cnt;
	pos = SMCR_CLC_IPAREA_LEN;
	for (i = 0; i < p->ipv6_prefix_cnt; i++) {
		memcpy(buf + pos + V6_ADDR, p->ipv6_prefix[i].addr,
		       sizeof(p->ipv6_prefix[i].addr));
		buf[pos + V6_LEN] = p->ipv6_prefix[i].len;
		pos += SMCR_CLC_V6_PREFIX_LEN;
	}
}

static void smcr_clc_put_v2_ext(const struct smcr_clc_proposal *p, u8 *buf)
{
	unsigned int i;

	buf[V2X_EID_CNT] = p->eid_cnt;
	buf[V2X_FLAG] = (u8)(p->v2_release << 4 | (p->seid ? V2X_FLAG_SEID : 0));
	memcpy(buf + V2X_GID, p->v2_gid, SMCR_CLC_GID_LEN);
	buf[V2X_MAX_CONNS] = p->v2_max_conns;
	buf[V2X_MAX_LINKS] = p->v2_max_links;
	smcr_put_be16(buf + V2X_FEATURES, p->v2_features);
	for (i = 0; i < p->eid_cnt; i++)
		memcpy(buf + SMCR_CLC_V2_EXT_LEN + i * SMCR_CLC_EID_LEN,
		       p->eids[i], SMCR_CLC_EID_LEN);
}

/**
 * smcr_clc_proposal_encode() - build an SMC Proposal CLC message
 * @p: proposal contents
 * @buf: output buffer
 * @len: size of @buf
 *
 * Version 1 lays out the message of RFC 7609 A.2.2: header with the
 * version and path type, peer ID, GID, MAC, the IP area offset,
 * @p->iparea_offset zero bytes, the IPv4 subnet, its prefix length, the
 * IPv6 prefix count and array, and the trailer.  Version 2 puts the
 * SMC-D area between the offset field and the IP area, and the v2
 * extension with the user EIDs after the IP area.  Reserved and
 * skipped bytes are zero (A.2).
 *
 * Return: bytes written, -EINVAL for invalid contents, -ENOSPC if @len
 * is too small.
 */
int smcr_clc_proposal_encode(const struct smcr_clc_proposal *p,
			     u8 *buf, size_t len)
{
	size_t pos = SMCR_CLC_PROP_BASE_LEN;
	u16 iparea_offset = p->iparea_offset;
	u8 typebits;
	int total;

	total = smcr_clc_proposal_len(p);
	if (total < 0)
		return total;
	if (len < (size_t)total)
		return -ENOSPC;

	memset(buf, 0, total);
	typebits = p->path_v1;
	if (p->version >= SMCR_CLC_V2) {
		typebits |= p->path_v2 << SMCR_CLC_PATH_V2_SHIFT;
		iparea_offset = smcr_clc_prop_has_iparea(p) ?
				SMCR_CLC_SMCD_AREA_LEN : 0;
	}
	smcr_clc_put_hdr(buf, SMCR_CLC_TYPE_PROPOSAL, (u16)total, p->version,
			 typebits);
	memcpy(buf + OFF_PEER_ID, p->peer_id, SMCR_CLC_PEER_ID_LEN);
	memcpy(buf + OFF_GID, p->gid, SMCR_CLC_GID_LEN);
	memcpy(buf + OFF_MAC, p->mac, SMCR_CLC_MAC_LEN);
	smcr_put_be16(buf + OFF_PROP_IPAREA_OFF, iparea_offset);

	if (p->version == SMCR_CLC_V1) {
		smcr_clc_put_iparea(p, buf + pos + iparea_offset);
	} else {
		pos += SMCR_CLC_SMCD_AREA_LEN;
		if (smcr_clc_prop_has_iparea(p)) {
			smcr_clc_put_iparea(p, buf + pos);
			pos += smcr_clc_iparea_len(p);
		}
		if (p->v2_ext) {
			smcr_put_be16(buf + OFF_SMCD_V2_EXT_OFF,
				      (u16)(pos - SMCD_V2_EXT_BASE));
			smcr_clc_put_v2_ext(p, buf + pos);
		}
	}
	smcr_clc_put_trailer(buf, (u16)total);
	return total;
}

/* decode the IP area at @pos; on success returns its end */
static int smcr_clc_get_iparea(const u8 *buf, size_t pos, size_t end,
			       struct smcr_clc_proposal *p)
{
	struct smcr_clc_v6_prefix *pfx;
	unsigned int i;

	if (pos + SMCR_CLC_IPAREA_LEN > end)
		return -EBADMSG;
	p->ipv4_subnet = smcr_get_be32(buf + pos + IPA_SUBNET);
	p->ipv4_prefix_len = buf[pos + IPA_PREFIX_LEN];
	p->ipv6_prefix_cnt = buf[pos + IPA_V6_CNT];
	if (p->ipv4_prefix_len > 32 ||
	    p->ipv6_prefix_cnt > SMCR_CLC_MAX_V6_PREFIX)
		return -EBADMSG;
	pos += SMCR_CLC_IPAREA_LEN;
	if (pos + p->ipv6_prefix_cnt * SMCR_CLC_V6_PREFIX_LEN > end)
		return -EBADMSG;
	for (i = 0; i < p->ipv6_prefix_cnt; i++) {
		pfx = &p->ipv6_prefix[i];
		memcpy(pfx->addr, buf + pos + V6_ADDR, sizeof(pfx->addr));
		pfx->len = buf[pos + V6_LEN];
		if (pfx->len > 128)
			return -EBADMSG;
		pos += SMCR_CLC_V6_PREFIX_LEN;
	}
	return (int)pos;
}

/* Decode the v2 extension, found as Linux finds it: through the offset
 * in the SMC-D area, counted from the end of that offset field.
 */
static int smcr_clc_get_v2_ext(const u8 *buf, size_t end,
			       struct smcr_clc_proposal *p)
{
	u16 off = smcr_get_be16(buf + OFF_SMCD_V2_EXT_OFF);
	unsigned int i;
	size_t pos;

	if (!off || off > SMCD_V2_EXT_OFF_MAX)
		return -EBADMSG;
	pos = SMCD_V2_EXT_BASE + off;
	if (pos + SMCR_CLC_V2_EXT_LEN > end)
		return -EBADMSG;
	p->eid_cnt = buf[pos + V2X_EID_CNT];
	/* the ISM GID count means something only in an SMC-D v2 offer */
	if (smcr_clc_path_has_d(p->path_v2))
		p->ism_gid_cnt = buf[pos + V2X_ISM_CNT];
	p->v2_release = buf[pos + V2X_FLAG] >> 4;
	p->seid = !!(buf[pos + V2X_FLAG] & V2X_FLAG_SEID);
	memcpy(p->v2_gid, buf + pos + V2X_GID, SMCR_CLC_GID_LEN);
	p->v2_max_conns = buf[pos + V2X_MAX_CONNS];
	p->v2_max_links = buf[pos + V2X_MAX_LINKS];
	p->v2_features = smcr_get_be16(buf + pos + V2X_FEATURES);
	if (p->eid_cnt > SMCR_CLC_MAX_UEID ||
	    p->ism_gid_cnt > SMCR_CLC_MAX_ISM)
		return -EBADMSG;
	pos += SMCR_CLC_V2_EXT_LEN;
	if (pos + p->eid_cnt * SMCR_CLC_EID_LEN > end)
		return -EBADMSG;
	for (i = 0; i < p->eid_cnt; i++)
		memcpy(p->eids[i], buf + pos + i * SMCR_CLC_EID_LEN,
		       SMCR_CLC_EID_LEN);
	p->v2_ext = true;
	return 0;
}

/**
 * smcr_clc_proposal_decode() - parse and validate an SMC Proposal
 * @buf: the complete message, header and trailer included
 * @len: number of bytes in @buf; must equal the header length
 * @p: filled with the decoded proposal; zeroed first
 *
 * Version 1 follows RFC 7609 A.2.2: the IP area is found by skipping
 * the number of bytes given in the offset field (bounded to
 * SMCR_CLC_IPAREA_OFF_MAX as Linux does), at most eight IPv6 prefixes
 * follow it, and the message ends right after them.  Version 2 carries
 * the SMC-D area; the IP area is present when a v1 path is offered and
 * the v2 extension when a v2 path is, and the length must be exactly
 * what these parts add up to, as Linux requires.
 *
 * Return: 0 or a negative errno as described at the top of this file.
 */
int smcr_clc_proposal_decode(const u8 *buf, size_t len,
			     struct smcr_clc_proposal *p)
{
	struct smcr_clc_hdr hdr;
	size_t pos, end, want;
	int rc;

	memset(p, 0, sizeof(*p));
	rc = smcr_clc_frame(buf, len, SMCR_CLC_TYPE_PROPOSAL,
			    SMCR_CLC_TYPE_PROPOSAL, &hdr);
	if (rc)
		return rc;

	p->version = hdr.version;
	p->path_v1 = hdr.typebits & SMCR_CLC_PATH_V1_MASK;
	if (hdr.version >= SMCR_CLC_V2)
		p->path_v2 = (hdr.typebits & SMCR_CLC_PATH_V2_MASK) >>
			     SMCR_CLC_PATH_V2_SHIFT;
	else if (!smcr_clc_prop_has_iparea(p))
		return -EPROTO;

	memcpy(p->peer_id, buf + OFF_PEER_ID, SMCR_CLC_PEER_ID_LEN);
	memcpy(p->gid, buf + OFF_GID, SMCR_CLC_GID_LEN);
	memcpy(p->mac, buf + OFF_MAC, SMCR_CLC_MAC_LEN);
	p->iparea_offset = smcr_get_be16(buf + OFF_PROP_IPAREA_OFF);

	end = hdr.length - SMCR_CLC_TRL_LEN;
	pos = SMCR_CLC_PROP_BASE_LEN;
	if (smcr_clc_prop_has_iparea(p)) {
		if (p->iparea_offset > SMCR_CLC_IPAREA_OFF_MAX)
			return -EBADMSG;
		rc = smcr_clc_get_iparea(buf, pos + p->iparea_offset, end, p);
		if (rc < 0)
			return rc;
		pos = rc;
	}
	if (hdr.version == SMCR_CLC_V1)
		return pos == end ? 0 : -EBADMSG;

	if (end < SMCR_CLC_PROP_BASE_LEN + SMCR_CLC_SMCD_AREA_LEN)
		return -EBADMSG;
	if (p->path_v2 != SMCR_CLC_PATH_NONE) {
		rc = smcr_clc_get_v2_ext(buf, end, p);
		if (rc)
			return rc;
	}
	want = SMCR_CLC_PROP_BASE_LEN + SMCR_CLC_SMCD_AREA_LEN;
	if (smcr_clc_prop_has_iparea(p))
		want += smcr_clc_iparea_len(p);
	if (p->v2_ext)
		want += smcr_clc_v2_ext_len(p);
	return want == end ? 0 : -EBADMSG;
}

/**
 * smcr_clc_accept_confirm_len() - validate an accept / confirm, get its size
 * @m: message contents
 *
 * Version 1 is the 68 byte layout of RFC 7609 A.2.3 / A.2.4.  Version 2
 * adds the EID (108 bytes in all) and, on a first contact, the first
 * contact extension with the fields of release 1 (52 bytes; Linux 6.1
 * sent 36 and 16 reserved ones, the same bytes), which a confirm
 * follows with the GID list.
 *
 * Return: the length, or -EINVAL if @m->type or @m->version is wrong
 * or a field exceeds its wire width (24 bit QPN and PSN, 4 bit size,
 * MTU, OS type and release, at most SMCR_CLC_MAX_GIDS GIDs).
 */
int smcr_clc_accept_confirm_len(const struct smcr_clc_accept_confirm *m)
{
	int len = SMCR_CLC_ACC_CONF_V2_LEN;

	if (m->type != SMCR_CLC_TYPE_ACCEPT &&
	    m->type != SMCR_CLC_TYPE_CONFIRM)
		return -EINVAL;
	if (m->qpn > SMCR_U24_MAX || m->psn > SMCR_U24_MAX ||
	    m->rmbe_size > SMCR_NIBBLE_MAX || m->qp_mtu > SMCR_NIBBLE_MAX)
		return -EINVAL;
	if (m->version == SMCR_CLC_V1)
		return m->has_fce || m->gid_cnt ? -EINVAL : SMCR_CLC_ACC_CONF_LEN;
	if (m->version != SMCR_CLC_V2 || m->has_fce != m->first_contact ||
	    m->fce.os_type > SMCR_NIBBLE_MAX ||
	    m->fce.release > SMCR_NIBBLE_MAX ||
	    m->gid_cnt > SMCR_CLC_MAX_GIDS ||
	    (m->gid_cnt && (!m->has_fce || m->type != SMCR_CLC_TYPE_CONFIRM)))
		return -EINVAL;
	if (!m->has_fce)
		return len;
	len += SMCR_CLC_FCE_LEN;
	if (m->type == SMCR_CLC_TYPE_ACCEPT)
		return len;
	return len + SMCR_CLC_GIDLIST_HDR_LEN + m->gid_cnt * SMCR_CLC_GID_LEN;
}

/**
 * smcr_clc_accept_confirm_encode() - build an SMC Accept or Confirm
 * @m: message contents; @m->type selects accept or confirm
 * @buf: output buffer
 * @len: size of @buf
 *
 * Writes the layout smcr_clc_accept_confirm_len() describes, path type
 * SMC-R, with the F bit set from @m->first_contact.
 *
 * Return: bytes written, -EINVAL for contents that cannot be encoded,
 * -ENOSPC if @len is too small.
 */
int smcr_clc_accept_confirm_encode(const struct smcr_clc_accept_confirm *m,
				   u8 *buf, size_t len)
{
	u8 typebits = SMCR_CLC_PATH_R;
	unsigned int i;
	size_t pos;
	int total;

	total = smcr_clc_accept_confirm_len(m);
	if (total < 0)
		return total;
	if (len < (size_t)total)
		return -ENOSPC;

	memset(buf, 0, total);
	if (m->first_contact)
		typebits |= SMCR_CLC_FLAG_FC;
	smcr_clc_put_hdr(buf, m->type, (u16)total, m->version, typebits);
	memcpy(buf + OFF_PEER_ID, m->peer_id, SMCR_CLC_PEER_ID_LEN);
	memcpy(buf + OFF_GID, m->gid, SMCR_CLC_GID_LEN);
	memcpy(buf + OFF_MAC, m->mac, SMCR_CLC_MAC_LEN);
	smcr_put_be24(buf + OFF_AC_QPN, m->qpn);
	smcr_put_be32(buf + OFF_AC_RKEY, m->rmb_rkey);
	buf[OFF_AC_RMBE_IDX] = m->rmbe_idx;
	smcr_put_be32(buf + OFF_AC_ALERT_TOKEN, m->rmbe_alert_token);
	buf[OFF_AC_SIZE_MTU] = (u8)(m->rmbe_size << 4 | m->qp_mtu);
	smcr_put_be64(buf + OFF_AC_DMA_ADDR, m->rmb_dma_addr);
	smcr_put_be24(buf + OFF_AC_PSN, m->psn);
	if (m->version == SMCR_CLC_V2) {
		memcpy(buf + OFF_AC_EID, m->eid, SMCR_CLC_EID_LEN);
		if (m->has_fce) {
			pos = OFF_AC_FCE;
			buf[pos + FCE_DIRECT] = m->fce.v2_direct ?
						FCE_DIRECT_BIT : 0;
			buf[pos + FCE_OS_REL] = (u8)(m->fce.os_type << 4 |
						     m->fce.release);
			memcpy(buf + pos + FCE_HOST, m->fce.hostname,
			       SMCR_CLC_HOSTNAME_LEN);
			buf[pos + FCE_MAX_CONNS] = m->fce.max_conns;
			buf[pos + FCE_MAX_LINKS] = m->fce.max_links;
			smcr_put_be16(buf + pos + FCE_FEATURES,
				      m->fce.features);
			smcr_put_be32(buf + pos + FCE_VENDOR_OPTS,
				      m->fce.vendor_opts);
			pos += SMCR_CLC_FCE_LEN;
			if (m->type == SMCR_CLC_TYPE_CONFIRM) {
				buf[pos + GLE_CNT] = m->gid_cnt;
				pos += SMCR_CLC_GIDLIST_HDR_LEN;
				for (i = 0; i < m->gid_cnt; i++)
					memcpy(buf + pos + i * SMCR_CLC_GID_LEN,
					       m->gids[i], SMCR_CLC_GID_LEN);
			}
		}
	}
	smcr_clc_put_trailer(buf, (u16)total);
	return total;
}

/* the v2 tail of an accept / confirm: EID, first contact extension and
 * a confirm's GID list, each only as far as the message carries them
 */
static int smcr_clc_get_acc_conf_v2(const u8 *buf, size_t end,
				    struct smcr_clc_accept_confirm *m)
{
	unsigned int i, cnt;
	size_t pos;

	memcpy(m->eid, buf + OFF_AC_EID, SMCR_CLC_EID_LEN);
	if (!m->first_contact || end < OFF_AC_FCE + SMCR_CLC_FCE_V1_LEN)
		return 0;
	pos = OFF_AC_FCE;
	m->has_fce = true;
	m->fce.v2_direct = !!(buf[pos + FCE_DIRECT] & FCE_DIRECT_BIT);
	m->fce.os_type = buf[pos + FCE_OS_REL] >> 4;
	m->fce.release = buf[pos + FCE_OS_REL] & SMCR_NIBBLE_MAX;
	memcpy(m->fce.hostname, buf + pos + FCE_HOST, SMCR_CLC_HOSTNAME_LEN);
	if (end < pos + SMCR_CLC_FCE_LEN)
		return 0;
	m->fce.max_conns = buf[pos + FCE_MAX_CONNS];
	m->fce.max_links = buf[pos + FCE_MAX_LINKS];
	m->fce.features = smcr_get_be16(buf + pos + FCE_FEATURES);
	m->fce.vendor_opts = smcr_get_be32(buf + pos + FCE_VENDOR_OPTS);
	pos += SMCR_CLC_FCE_LEN;
	if (m->type != SMCR_CLC_TYPE_CONFIRM ||
	    end < pos + SMCR_CLC_GIDLIST_HDR_LEN)
		return 0;
	cnt = buf[pos + GLE_CNT];
	pos += SMCR_CLC_GIDLIST_HDR_LEN;
	if (pos + cnt * SMCR_CLC_GID_LEN > end)
		return -EBADMSG;
	m->gid_cnt = (u8)(cnt < SMCR_CLC_MAX_GIDS ? cnt : SMCR_CLC_MAX_GIDS);
	for (i = 0; i < m->gid_cnt; i++)
		memcpy(m->gids[i], buf + pos + i * SMCR_CLC_GID_LEN,
		       SMCR_CLC_GID_LEN);
	return 0;
}

/**
 * smcr_clc_accept_confirm_decode() - parse an SMC Accept or Confirm
 * @buf: the complete message, header and trailer included
 * @len: number of bytes in @buf; must equal the header length
 * @m: filled with the decoded message; zeroed first
 *
 * Accepts the SMC-R layouts: version 1 of RFC 7609 A.2.3 / A.2.4,
 * exactly SMCR_CLC_ACC_CONF_LEN bytes, and version 2, at least
 * SMCR_CLC_ACC_CONF_V2_LEN bytes as Linux requires; the first contact
 * extension and GID list are decoded when present, and GIDs beyond
 * SMCR_CLC_MAX_GIDS are skipped.  Reserved bytes are not validated
 * (A.2), nor is the MTU, which is only meaningful on a first contact
 * (A.2.3).
 *
 * Return: 0, -EPROTO for another type, version or path type, -EMSGSIZE
 * or -EBADMSG for framing or length errors.
 */
int smcr_clc_accept_confirm_decode(const u8 *buf, size_t len,
				   struct smcr_clc_accept_confirm *m)
{
	struct smcr_clc_hdr hdr;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = smcr_clc_hdr_decode(buf, len, &hdr);
	if (rc)
		return rc;
	if ((hdr.type != SMCR_CLC_TYPE_ACCEPT &&
	     hdr.type != SMCR_CLC_TYPE_CONFIRM) ||
	    (hdr.version != SMCR_CLC_V1 && hdr.version != SMCR_CLC_V2) ||
	    (hdr.typebits & SMCR_CLC_PATH_V1_MASK) != SMCR_CLC_PATH_R)
		return -EPROTO;
	if (hdr.version == SMCR_CLC_V1 ?
	    hdr.length != SMCR_CLC_ACC_CONF_LEN :
	    hdr.length < SMCR_CLC_ACC_CONF_V2_LEN)
		return -EBADMSG;
	rc = smcr_clc_frame(buf, len, SMCR_CLC_TYPE_ACCEPT,
			    SMCR_CLC_TYPE_CONFIRM, &hdr);
	if (rc)
		return rc;

	m->type = hdr.type;
	m->version = hdr.version;
	m->first_contact = !!(hdr.typebits & SMCR_CLC_FLAG_FC);
	memcpy(m->peer_id, buf + OFF_PEER_ID, SMCR_CLC_PEER_ID_LEN);
	memcpy(m->gid, buf + OFF_GID, SMCR_CLC_GID_LEN);
	memcpy(m->mac, buf + OFF_MAC, SMCR_CLC_MAC_LEN);
	m->qpn = smcr_get_be24(buf + OFF_AC_QPN);
	m->rmb_rkey = smcr_get_be32(buf + OFF_AC_RKEY);
	m->rmbe_idx = buf[OFF_AC_RMBE_IDX];
	m->rmbe_alert_token = smcr_get_be32(buf + OFF_AC_ALERT_TOKEN);
	m->rmbe_size = buf[OFF_AC_SIZE_MTU] >> 4;
	m->qp_mtu = buf[OFF_AC_SIZE_MTU] & SMCR_NIBBLE_MAX;
	m->rmb_dma_addr = smcr_get_be64(buf + OFF_AC_DMA_ADDR);
	m->psn = smcr_get_be24(buf + OFF_AC_PSN);
	if (hdr.version == SMCR_CLC_V2)
		return smcr_clc_get_acc_conf_v2(buf, hdr.length -
						SMCR_CLC_TRL_LEN, m);
	return 0;
}

/* wire length of a decline of version @version */
static u16 smcr_clc_decline_len(u8 version)
{
	return version == SMCR_CLC_V1 ? SMCR_CLC_DECLINE_LEN :
					SMCR_CLC_DECLINE_V2_LEN;
}

/**
 * smcr_clc_decline_encode() - build an SMC Decline CLC message
 * @d: message contents
 * @buf: output buffer
 * @len: size of @buf
 *
 * Version 1 gives the 28 byte message of RFC 7609 A.2.5.  Any higher
 * version gives the 44 byte layout Linux uses from version 2 on, with
 * four extra diagnosis words before the trailer.  The S bit is set
 * from @d->out_of_sync (C.4); the OS type is the high nibble of the
 * byte after the diagnosis code.
 *
 * Return: bytes written, -EINVAL for a version of 0 or above 15 or an
 * OS type above 15, -ENOSPC if @len is too small.
 */
int smcr_clc_decline_encode(const struct smcr_clc_decline *d,
			    u8 *buf, size_t len)
{
	u8 typebits = 0;
	unsigned int i;
	u16 total;

	if (!d->version || d->version > SMCR_NIBBLE_MAX ||
	    d->os_type > SMCR_NIBBLE_MAX)
		return -EINVAL;
	total = smcr_clc_decline_len(d->version);
	if (len < total)
		return -ENOSPC;

	memset(buf, 0, total);
	if (d->out_of_sync)
		typebits |= SMCR_CLC_FLAG_SYNC;
	smcr_clc_put_hdr(buf, SMCR_CLC_TYPE_DECLINE, total, d->version,
			 typebits);
	memcpy(buf + OFF_DECL_PEER_ID, d->peer_id, SMCR_CLC_PEER_ID_LEN);
	smcr_put_be32(buf + OFF_DECL_DIAG, d->diag);
	buf[OFF_DECL_OS] = (u8)(d->os_type << 4);
	if (d->version != SMCR_CLC_V1)
		for (i = 0; i < SMCR_CLC_DECL_DIAG_V2_CNT; i++)
			smcr_put_be32(buf + OFF_DECL_DIAG_V2 + 4 * i,
				      d->diag_v2[i]);
	smcr_clc_put_trailer(buf, total);
	return total;
}

/**
 * smcr_clc_decline_decode() - parse an SMC Decline CLC message
 * @buf: the complete message, header and trailer included
 * @len: number of bytes in @buf; must equal the header length
 * @d: filled with the decoded message; zeroed first
 *
 * A version 1 decline must be 28 bytes long (RFC 7609 A.2.5), any
 * higher version 44 bytes, the size Linux sends.  Both eyecatchers are
 * checked (A.2).
 *
 * Return: 0 or a negative errno as described at the top of this file.
 */
int smcr_clc_decline_decode(const u8 *buf, size_t len,
			    struct smcr_clc_decline *d)
{
	struct smcr_clc_hdr hdr;
	unsigned int i;
	int rc;

	memset(d, 0, sizeof(*d));
	rc = smcr_clc_hdr_decode(buf, len, &hdr);
	if (rc)
		return rc;
	if (hdr.type != SMCR_CLC_TYPE_DECLINE)
		return -EPROTO;
	if (hdr.length != smcr_clc_decline_len(hdr.version))
		return -EBADMSG;
	rc = smcr_clc_frame(buf, len, SMCR_CLC_TYPE_DECLINE,
			    SMCR_CLC_TYPE_DECLINE, &hdr);
	if (rc)
		return rc;

	d->version = hdr.version;
	d->out_of_sync = !!(hdr.typebits & SMCR_CLC_FLAG_SYNC);
	memcpy(d->peer_id, buf + OFF_DECL_PEER_ID, SMCR_CLC_PEER_ID_LEN);
	d->diag = smcr_get_be32(buf + OFF_DECL_DIAG);
	d->os_type = buf[OFF_DECL_OS] >> 4;
	if (hdr.version != SMCR_CLC_V1)
		for (i = 0; i < SMCR_CLC_DECL_DIAG_V2_CNT; i++)
			d->diag_v2[i] = smcr_get_be32(buf + OFF_DECL_DIAG_V2 +
						      4 * i);
	return 0;
}

/* SMC release 1 (Linux 6.12's "SMC v2.1"). A version 2 first contact
 * settles the release of the link group, the lower of both ends', and in
 * release 1 how many connections and links it takes: the client proposes
 * its own in the v2 extension, the server answers with the lower of
 * both in its Accept's first contact extension, and the client's Confirm
 * repeats them. Linux 6.1 (release 0) sends zero in those bytes.
 */

/* the terms of a group of release 0 or of version 1 */
const struct smcr_clc_terms smcr_clc_terms_default = {
	.release	= 0,
	.max_conns	= SMCR_CLC_CONNS_MAX,
	.max_links	= SMCR_CLC_LINKS_MAX,
};

/**
 * smcr_clc_terms_propose() - a client's own terms into its Proposal
 * @own: what it offers
 * @p: a version 2 proposal with its extension
 */
void smcr_clc_terms_propose(const struct smcr_clc_terms *own,
			    struct smcr_clc_proposal *p)
{
	p->v2_release = own->release;
	if (own->release < SMCR_CLC_RELEASE_1)
		return;
	p->v2_max_conns = own->max_conns;
	p->v2_max_links = own->max_links;
	p->v2_features = 0;
}

/**
 * smcr_clc_terms_server() - a server's terms met with a client's Proposal
 * @t: the server's own, replaced by those of the group
 * @p: the client's version 2 proposal
 *
 * The lower release, and in release 1 the lower limits, no fewer than
 * SMCR_CLC_CONNS_MIN connections and one link, as Linux 6.12 requires.
 * A proposal of release 0 gets smcr_clc_terms_default.
 *
 * Return: 0, or the decline code (SMCR_CLC_DECL_MAXCONNERR,
 * SMCR_CLC_DECL_MAXLINKERR).
 */
u32 smcr_clc_terms_server(struct smcr_clc_terms *t,
			  const struct smcr_clc_proposal *p)
{
	u8 release = t->release < p->v2_release ? t->release : p->v2_release;

	if (release < SMCR_CLC_RELEASE_1) {
		*t = smcr_clc_terms_default;
		return 0;
	}
	t->release = release;
	if (p->v2_max_conns < t->max_conns)
		t->max_conns = p->v2_max_conns;
	if (p->v2_max_links < t->max_links)
		t->max_links = p->v2_max_links;
	if (t->max_conns < SMCR_CLC_CONNS_MIN)
		return SMCR_CLC_DECL_MAXCONNERR;
	if (!t->max_links)
		return SMCR_CLC_DECL_MAXLINKERR;
	return 0;
}

/**
 * smcr_clc_terms_fce() - a group's terms into a first contact extension
 * @t: the terms
 * @fce: the extension of an Accept or Confirm
 */
void smcr_clc_terms_fce(const struct smcr_clc_terms *t,
			struct smcr_clc_fce *fce)
{
	fce->release = t->release;
	if (t->release < SMCR_CLC_RELEASE_1)
		return;
	fce->max_conns = t->max_conns;
	fce->max_links = t->max_links;
	fce->features = 0;
}

/**
 * smcr_clc_terms_client() - a client's terms met with the server's Accept
 * @t: the client's own, as proposed, replaced by those of the group
 * @fce: the first contact extension of the server's Accept
 *
 * The server's, when it could have chosen them: a release no higher than
 * proposed, and in release 1 limits within the range and no higher than
 * proposed (Linux 6.12 checks only the range).
 *
 * Return: 0, or the decline code (SMCR_CLC_DECL_RELEASEERR,
 * SMCR_CLC_DECL_MAXCONNERR, SMCR_CLC_DECL_MAXLINKERR).
 */
u32 smcr_clc_terms_client(struct smcr_clc_terms *t,
			  const struct smcr_clc_fce *fce)
{
	if (fce->release > t->release)
		return SMCR_CLC_DECL_RELEASEERR;
	if (fce->release < SMCR_CLC_RELEASE_1) {
		*t = smcr_clc_terms_default;
		return 0;
	}
	if (fce->max_conns < SMCR_CLC_CONNS_MIN ||
	    fce->max_conns > t->max_conns)
		return SMCR_CLC_DECL_MAXCONNERR;
	if (!fce->max_links || fce->max_links > t->max_links)
		return SMCR_CLC_DECL_MAXLINKERR;
	t->release = fce->release;
	t->max_conns = fce->max_conns;
	t->max_links = fce->max_links;
	return 0;
}

/**
 * smcr_clc_terms_confirmed() - whether a Confirm repeats a group's terms
 * @t: the terms the server's Accept gave
 * @conf: the client's version 2 first contact Confirm
 *
 * Return: true when its extension has the release and, in release 1,
 * the limits; without an extension only a group of release 0 is
 * confirmed.
 */
bool smcr_clc_terms_confirmed(const struct smcr_clc_terms *t,
			      const struct smcr_clc_accept_confirm *conf)
{
	if (!conf->has_fce)
		return t->release < SMCR_CLC_RELEASE_1;
	if (conf->fce.release != t->release)
		return false;
	return t->release < SMCR_CLC_RELEASE_1 ||
	       (conf->fce.max_conns == t->max_conns &&
		conf->fce.max_links == t->max_links);
}

/**
 * smcr_clc_rmbe_size_compress() - RMBE byte size to its 4 bit code
 * @bytes: wanted buffer size
 *
 * RFC 7609 A.2.3 "Bsize": size = 2^(code + 4) KiB, i.e. 16 KiB << code.
 * Rounds up so the buffer is at least @bytes long, and caps the result
 * at SMCR_CLC_RMBE_CODE_MAX (512 KiB, the RFC maximum).
 *
 * Return: the compressed size code.
 */
u8 smcr_clc_rmbe_size_compress(u32 bytes)
{
	u8 code = 0;

	while (code < SMCR_CLC_RMBE_CODE_MAX &&
	       (SMCR_CLC_RMBE_MIN_SIZE << code) < bytes)
		code++;
	return code;
}

/**
 * smcr_clc_rmbe_size_decompress() - 4 bit RMBE size code to bytes
 * @code: compressed size; only the low four bits are used
 *
 * RFC 7609 A.2.3 "Bsize" names 512 KiB the largest size, but Linux 6.12
 * sizes a peer's RMB up to the largest code, 15 (512 MiB), from its
 * net.smc.rmem and SO_RCVBUF, in either version: so the peer's size is
 * taken as the code says (ours are never more than 512 KiB).
 *
 * Return: 16 KiB << @code, at most SMCR_CLC_RMBE_PEER_MAX.
 */
u32 smcr_clc_rmbe_size_decompress(u8 code)
{
	return SMCR_CLC_RMBE_MIN_SIZE << (code & SMCR_NIBBLE_MAX);
}

/**
 * smcr_clc_mtu_to_bytes() - QP MTU enumeration value to bytes
 * @code: SMCR_CLC_MTU_* value (RFC 7609 A.2.3)
 *
 * Return: 256 to 4096, or 0 for a reserved value.
 */
u32 smcr_clc_mtu_to_bytes(u8 code)
{
	if (code < SMCR_CLC_MTU_256 || code > SMCR_CLC_MTU_4096)
		return 0;
	return 128u << code;
}

/**
 * smcr_clc_mtu_from_bytes() - byte MTU to the QP MTU enumeration
 * @bytes: one of 256, 512, 1024, 2048 or 4096
 *
 * Return: the matching SMCR_CLC_MTU_* value, or 0 (reserved) if @bytes
 * is not one of the enumerated sizes.
 */
u8 smcr_clc_mtu_from_bytes(u32 bytes)
{
	u8 code;

	for (code = SMCR_CLC_MTU_256; code <= SMCR_CLC_MTU_4096; code++)
		if (smcr_clc_mtu_to_bytes(code) == bytes)
			return code;
	return 0;
}
