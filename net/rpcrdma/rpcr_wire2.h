/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcr: the RPC-over-RDMA version 2 transport header, as the IETF draft
 * draft-ietf-nfsv4-rpcrdma-version-two of 17 November 2019 defines it
 * (§ numbers below are that revision's; later revisions renumber the
 * header types and error codes and are not wire compatible).
 *
 * Pure encoders, decoders and checks over byte buffers, as rpcr_wire.c
 * is for version 1, whose XDR primitives and chunk list encoder this
 * file shares: the chunk lists of the two versions are the same XDR
 * (§6.3.3). Built into the module and into the host tests unchanged.
 */
#ifndef _RPCR_WIRE2_H
#define _RPCR_WIRE2_H

#include "rpcr_wire.h"

#define RPCR_VERSION_2		2

/* §4.3.2: the inline threshold without an exchange of properties */
#define RPCR2_INLINE_DEFAULT	4096

/* §6.3.2: the flags of rdma_flags; every other bit is reserved, zero */
#define RPCR2_F_RESPONSE	0x00000001	/* §6.3.2.1 */
#define RPCR2_F_MORE		0x00000002	/* §6.3.2.2 */
#define RPCR2_F_KNOWN		(RPCR2_F_RESPONSE | RPCR2_F_MORE)

/* §6.2, §7.4: the header types (rdma_htype); 2 and 3 are version 1's
 * RDMA_MSGP and RDMA_DONE, which version 2 does not have
 */
enum rpcr2_htype {
	RPCR2_MSG	= 0,	/* §6.4.1: RPC message follows */
	RPCR2_NOMSG	= 1,	/* §6.4.2: RPC message in chunks, or none */
	RPCR2_ERROR	= 4,	/* §6.4.3 */
	RPCR2_CONNPROP	= 5,	/* §6.4.4 */
};

/* §7.4: the error codes (rdma_err) */
enum rpcr2_errcode {
	RPCR2_ERR_VERS		 = 1,	/* rdma_vrange follows */
	RPCR2_ERR_BAD_XDR	 = 2,	/* version 1's ERR_CHUNK */
	RPCR2_ERR_INVAL_HTYPE	 = 3,
	RPCR2_ERR_INVAL_FLAG	 = 4,
	RPCR2_ERR_READ_CHUNKS	 = 5,	/* rdma_max_chunks follows */
	RPCR2_ERR_WRITE_CHUNKS	 = 6,	/* rdma_max_chunks follows */
	RPCR2_ERR_SEGMENTS	 = 7,	/* rdma_max_segments follows */
	RPCR2_ERR_WRITE_RESOURCE = 8,	/* chunk index, length needed */
	RPCR2_ERR_REPLY_RESOURCE = 9,	/* rdma_length_needed follows */
	RPCR2_ERR_SYSTEM	 = 10,
};

/* §5.2: the transport properties (rpcrdma2_propid) */
enum rpcr2_propid {
	RPCR2_PROP_SBSIZ	= 1,	/* §5.2.1 Maximum Send Size */
	RPCR2_PROP_RBSIZ	= 2,	/* §5.2.2 Receive Buffer Size */
	RPCR2_PROP_RSSIZ	= 3,	/* §5.2.3 Maximum RDMA Segment Size */
	RPCR2_PROP_RCSIZ	= 4,	/* §5.2.4 Maximum RDMA Segment Count */
	RPCR2_PROP_BRS		= 5,	/* §5.2.5 Reverse Request Support */
	RPCR2_PROP_HOSTAUTH	= 6,	/* §5.2.6 Host Auth Message */
	RPCR2_PROP_MAX		= RPCR2_PROP_HOSTAUTH,
};

/* §5.2.5: the values of Reverse Request Support */
#define RPCR2_RVREQSUP_NONE	0
#define RPCR2_RVREQSUP_INLINE	1
#define RPCR2_RVREQSUP_GENL	2

/* §5.2: each property's value when a peer sends none (or an empty one) */
#define RPCR2_SBSIZ_DEFAULT	4096
#define RPCR2_RBSIZ_DEFAULT	4096
#define RPCR2_RSSIZ_DEFAULT	1048576
#define RPCR2_RCSIZ_DEFAULT	16
#define RPCR2_BRS_DEFAULT	RPCR2_RVREQSUP_INLINE

/* Sizes: the prefix (§6.3.2), the prefix with rdma_inv_handle and three
 * empty lists (a credit refresh, §6.4.2), an ERROR's words (§6.4.3)
 */
#define RPCR2_PREFIX_LEN	20
/* what an RDMA2_MSG or RDMA2_NOMSG header has beyond version 1's of the
 * same chunks: rdma_flags and rdma_inv_handle
 */
#define RPCR2_MSG_EXTRA		(RPCR2_PREFIX_LEN + 4 - RPCR_HDR_FIXED_LEN)
/* the prefix, rdma_inv_handle and three empty lists */
#define RPCR2_BARE_HDR_LEN	36
#define RPCR2_NOMSG_MIN_LEN	RPCR2_BARE_HDR_LEN
/* an RDMA2_MSG with more to come carries no chunks (§6.3.2.2) */
#define RPCR2_MORE_HDR_LEN	RPCR2_BARE_HDR_LEN
#define RPCR2_ERR_LEN		24	/* prefix and rdma_err */

/* Our limit on Read chunks in one header, besides version 1's on
 * segments (RPCR_MAX_*); past either a Call gets ERR_READ_CHUNKS,
 * ERR_WRITE_CHUNKS or ERR_SEGMENTS with the limit (§6.4.3)
 */
#define RPCR2_MAX_READ_CHUNKS	4

/* Our limit on the Sends of one continued message, either way (§6.3.2.2):
 * 16 of the default 4 KiB inline threshold carry 64 KiB
 */
#define RPCR_MORE_SENDS_MAX	16

/* §4.3.1.1: rdma_credit holds two 16-bit counts */
static inline u32 rpcr2_credit(u16 granted, u16 max)
{
	return (u32)max << 16 | granted;
}

/* the low half: credits newly granted by the sender */
static inline u16 rpcr2_credit_granted(u32 credit)
{
	return (u16)credit;
}

/* the high half: the most credits that may be outstanding at the sender */
static inline u16 rpcr2_credit_max(u32 credit)
{
	return (u16)(credit >> 16);
}

/**
 * struct rpcr2_err - the body of an RDMA2_ERROR (§6.4.3)
 * @code: enum rpcr2_errcode; 0 in a decode verdict: drop the message
 * @vers_low: ERR_VERS: the lowest version the sender takes
 * @vers_high: ERR_VERS: the highest
 * @max: ERR_READ_CHUNKS, ERR_WRITE_CHUNKS: rdma_max_chunks;
 *	ERR_SEGMENTS: rdma_max_segments
 * @chunk_index: ERR_WRITE_RESOURCE: the first Write chunk too short,
 *	counted from 1; 0 for not known
 * @length_needed: ERR_WRITE_RESOURCE, ERR_REPLY_RESOURCE: bytes needed
 *
 * A code without a body of its own (BAD_XDR, INVAL_HTYPE, INVAL_FLAG,
 * SYSTEM, and any code this revision does not define: Appendix B.4) has
 * only @code.
 */
struct rpcr2_err {
	u32	code;
	u32	vers_low;
	u32	vers_high;
	u32	max;
	u32	chunk_index;
	u32	length_needed;
};

/**
 * struct rpcr2_props - the transport properties of an RDMA2_CONNPROP
 * @present: bit (1 << id) for each property of enum rpcr2_propid the set
 *	carried; one carried with empty rdma_data has its default (§5.1)
 * @sbsiz: RPCR2_PROP_SBSIZ
 * @rbsiz: RPCR2_PROP_RBSIZ
 * @rssiz: RPCR2_PROP_RSSIZ
 * @rcsiz: RPCR2_PROP_RCSIZ
 * @brs: RPCR2_PROP_BRS: RPCR2_RVREQSUP_*, or any other value a peer sent
 * @hostauth: RPCR2_PROP_HOSTAUTH: the opaque material, pointing into the
 *	decoded message (NULL when empty)
 * @hostauth_len: its bytes
 * @nprops: decode only: entries in the set
 * @nunknown: decode only: entries of ids not known here, skipped (§5.1)
 *
 * A property carried twice has the value of its last entry.
 */
struct rpcr2_props {
	u32		present;
	u32		sbsiz;
	u32		rbsiz;
	u32		rssiz;
	u32		rcsiz;
	u32		brs;
	const u8	*hostauth;
	u32		hostauth_len;
	u32		nprops;
	u32		nunknown;
};

/**
 * struct rpcr2_hdr - a version 2 transport header, decoded
 * @base: the words version 1 has too: xid, vers, credit (both halves;
 *	see rpcr2_credit_granted()), proc (rdma_htype), and for RDMA2_MSG
 *	and RDMA2_NOMSG the three chunk lists in version 1's layout, so
 *	that what handles version 1's chunks handles these
 * @flags: rdma_flags, RPCR2_F_* (§6.3.2)
 * @inv_handle: rdma_inv_handle (§6.3.3.2), MSG and NOMSG
 * @error: RDMA2_ERROR only: its body
 * @props: RDMA2_CONNPROP only: its properties
 */
struct rpcr2_hdr {
	struct rpcr_hdr		base;
	u32			flags;
	u32			inv_handle;
	struct rpcr2_err	error;
	struct rpcr2_props	props;
};

int rpcr2_hdr_decode(const u8 *buf, size_t len, struct rpcr2_hdr *h,
		     struct rpcr2_err *verdict);
int rpcr2_hdr_check(const struct rpcr2_hdr *h, bool call,
		    struct rpcr2_err *verdict);
bool rpcr2_credit_refresh(const struct rpcr2_hdr *h);
bool rpcr2_peek_more(const u8 *buf, size_t len);
bool rpcr2_peek_refresh(const u8 *buf, size_t len, u32 *credit);
int rpcr2_more_check(const struct rpcr2_hdr *first,
		     const struct rpcr2_hdr *next, struct rpcr2_err *verdict);
u32 rpcr2_more_sends(u32 len, u32 room_more, u32 room_last);
u32 rpcr2_more_take(u32 left, u32 room_more);
u32 rpcr2_more_granted(u32 len, u32 room_more, u32 room_last, u32 credit);
int rpcr2_more_encode(u32 xid, u32 credit, u32 flags, u8 *buf, size_t size);
int rpcr2_refresh_encode(u32 credit, u8 *buf, size_t size);
size_t rpcr2_hdr_len(const struct rpcr2_hdr *h);
int rpcr2_hdr_encode(const struct rpcr2_hdr *h, u8 *buf, size_t size);
void rpcr2_hdr_error(struct rpcr2_hdr *h, u32 xid, u32 credit,
		     const struct rpcr2_err *err);
u32 rpcr2_prop_default(u32 id);
int rpcr2_connprop_encode(u32 xid, u32 credit, const struct rpcr2_props *props,
			  u8 *buf, size_t size);
void rpcr2_props_effective(const struct rpcr2_props *in,
			   struct rpcr2_props *out);

/* Either version, by the version word (§4.3.3) */
int rpcr_msg_decode(const u8 *buf, size_t len, struct rpcr2_hdr *h,
		    struct rpcr2_err *verdict);
int rpcr_msg_check(const struct rpcr2_hdr *h, bool call,
		   struct rpcr2_err *verdict);
void rpcr_msg_error(struct rpcr2_hdr *h, u32 vers, u32 xid, u32 credit,
		    const struct rpcr2_err *err);
int rpcr_msg_encode(const struct rpcr2_hdr *h, u8 *buf, size_t size);
size_t rpcr_msg_len(const struct rpcr2_hdr *h);
bool rpcr_msg_err_vers(const struct rpcr2_hdr *h, u32 *low, u32 *high);

#endif /* _RPCR_WIRE2_H */
