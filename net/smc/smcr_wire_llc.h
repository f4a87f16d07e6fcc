/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: LLC (Link Layer Control) message wire format.
 *
 * Pure encode / decode / validate routines for the LLC messages of
 * SMC-R version 1 (RFC 7609, Appendix A.3) and of SMC-Rv2, as Linux 6.1
 * sends it.  Nothing here touches queue pairs or allocates memory; the
 * same source is built for the kernel module and for the host unit
 * tests and fuzzer.
 *
 * The high nibble of byte 0 is the LLC version, the low nibble the
 * message type (SMCR_LLC_TYPE_*); the version selects one of two four
 * byte headers.
 *
 * SMC-Rv1 link groups, LLC version 0 (SMCR_LLC_VERSION_1).  Every
 * message is exactly SMCR_LLC_MSG_LEN (44) bytes, zero padded (A.3):
 *
 *   0     0x0 | type
 *   1     length, 44
 *   2     reserved, except that its low nibble carries the rejection
 *         reason of an ADD LINK reply (A.3.2)
 *   3     flags: bit 0x80 is the reply flag R of every message, the
 *         other bits are type specific (SMCR_LLC_FLAG_*)
 *
 * SMC-Rv2 link groups, LLC version 2 (SMCR_LLC_VERSION_2), as Linux
 * 6.1 sends it.  There is no version 2 ADD LINK CONTINUATION or CONFIRM
 * RKEY CONTINUATION; the other types are the SMCR_LLC_TYPE_*_V2 bytes:
 *
 *   0     0x2 | type
 *   1..2  length, 44 to SMCR_LLC_V2_MAX_LEN.  Beware: Linux declares
 *         this field a plain u16, not __be16, so it travels in the
 *         sender's CPU byte order; from x86 that is little-endian, and
 *         little-endian is how we encode and decode it.  (A big-endian
 *         sender's 44 would read as 11264 here and be refused.)  The
 *         field covers byte 2, so a version 2 ADD LINK reply cannot
 *         carry a rejection reason; Linux sends its reject with length
 *         44 and none.
 *   3     flags, as in version 1
 *
 * A version 2 ADD LINK, REQUEST ADD LINK or DELETE RKEY may be longer
 * than 44 bytes (Linux sends them from an 8 KiB buffer: ADD LINK has an
 * extension after byte 44, DELETE RKEY up to 255 RKeys).  The message
 * decoders read the first 44 bytes only; the ADD LINK extension has
 * decoders of its own (smcr_llc_add_link_ext_*), which take the bytes
 * after the first 44.  In the first 44 bytes, the bodies of the
 * version 2 CONFIRM LINK, ADD LINK, DELETE LINK, CONFIRM RKEY, TEST LINK
 * and DELETE RKEY have the version 1 layouts; REQUEST ADD LINK has the
 * same layout in either version, its GIDs after the first one past byte
 * 44.
 *
 * Decoded messages are plain C structures holding host-order values.
 * Reserved bits and bytes are ignored on receive and sent as zero.
 */
#ifndef _SMCR_WIRE_LLC_H
#define _SMCR_WIRE_LLC_H

#include "smcr_wire.h"

/* every version 1 LLC message is this long (A.3), and every one we
 * send; a version 2 message is at least this long
 */
#define SMCR_LLC_MSG_LEN	44
#define SMCR_LLC_HDR_LEN	4

/* message types of RFC 7609 (A.3.1 - A.3.8) */
#define SMCR_LLC_TYPE_CONFIRM_LINK	0x01
#define SMCR_LLC_TYPE_ADD_LINK		0x02
#define SMCR_LLC_TYPE_ADD_LINK_CONT	0x03
#define SMCR_LLC_TYPE_DELETE_LINK	0x04
#define SMCR_LLC_TYPE_CONFIRM_RKEY	0x06
#define SMCR_LLC_TYPE_TEST_LINK		0x07
#define SMCR_LLC_TYPE_CONFIRM_RKEY_CONT	0x08
#define SMCR_LLC_TYPE_DELETE_RKEY	0x09

/* Types used by Linux but not by RFC 7609.  REQUEST ADD LINK (5) is
 * sent by Linux only in SMC-Rv2 link groups: a client asks the server
 * to add a link, offering GIDs for it (struct smcr_llc_req_add_link).
 * The SMC-Rv2 type bytes are the base type with LLC version 2 in the
 * high nibble.
 */
#define SMCR_LLC_TYPE_REQ_ADD_LINK	0x05
#define SMCR_LLC_TYPE_CONFIRM_LINK_V2	0x21
#define SMCR_LLC_TYPE_ADD_LINK_V2	0x22
#define SMCR_LLC_TYPE_DELETE_LINK_V2	0x24
#define SMCR_LLC_TYPE_REQ_ADD_LINK_V2	0x25
#define SMCR_LLC_TYPE_CONFIRM_RKEY_V2	0x26
#define SMCR_LLC_TYPE_TEST_LINK_V2	0x27
#define SMCR_LLC_TYPE_DELETE_RKEY_V2	0x29

/* byte 0: LLC version in the high nibble, base type in the low one */
#define SMCR_LLC_VERSION_SHIFT		4
#define SMCR_LLC_TYPE_MASK		0x0f
#define SMCR_LLC_VERSION_1		0	/* RFC 7609 link groups */
#define SMCR_LLC_VERSION_2		2	/* SMC-Rv2 link groups */
#define SMCR_LLC_V2_MAX_LEN		8192	/* bytes 1..2 of version 2 */

/* A.3: the two high-order type bits tell how an unsupported opcode is
 * handled: b'00' protocol error, b'10' silently discard, b'11' CDC.
 */
#define SMCR_LLC_TYPE_CLASS_MASK	0xc0
#define SMCR_LLC_TYPE_CLASS_REQUIRED	0x00
#define SMCR_LLC_TYPE_CLASS_OPTIONAL	0x80
#define SMCR_LLC_TYPE_CLASS_CDC		0xc0

/* header flags byte (byte 3) */
#define SMCR_LLC_FLAG_RESP		0x80	/* R, every type */
/* CONFIRM LINK: both bits set by Linux, which refuses a CONFIRM LINK
 * that has neither: "no eyecatcher in the RMBE", cursors start at 0.
 */
#define SMCR_LLC_FLAG_NO_RMBE_EYEC	0x03
#define SMCR_LLC_FLAG_ADD_LINK_REJ	0x40	/* Z, A.3.2 */
#define SMCR_LLC_FLAG_DEL_LINK_ALL	0x40	/* A, A.3.4 */
#define SMCR_LLC_FLAG_DEL_LINK_ORDERLY	0x20	/* O, A.3.4 */
#define SMCR_LLC_FLAG_RKEY_NEG		0x20	/* Z, A.3.5 - A.3.7 */
#define SMCR_LLC_FLAG_RKEY_RETRY	0x10	/* C, A.3.5 only */

/* ADD LINK rejection reason codes, low nibble of byte 2 (A.3.2) */
#define SMCR_LLC_REJ_RSN_MASK		0x0f
#define SMCR_LLC_REJ_RSN_NO_ALT_PATH	1
#define SMCR_LLC_REJ_RSN_INVALID_MTU	2	/* RFC only, not sent by Linux */

/* DELETE LINK reason codes (A.3.4); the values Linux uses */
#define SMCR_LLC_DEL_LOST_PATH		0x00010000	/* request */
#define SMCR_LLC_DEL_OP_INIT_TERM	0x00020000	/* request */
#define SMCR_LLC_DEL_PROG_INIT_TERM	0x00030000	/* request */
#define SMCR_LLC_DEL_PROT_VIOL		0x00040000	/* request */
#define SMCR_LLC_DEL_NO_ASYM_NEEDED	0x00050000	/* request */
#define SMCR_LLC_DEL_NOLNK		0x00100000	/* reply: no link */
#define SMCR_LLC_DEL_NOLGR		0x00200000	/* reply, Linux only */

/* sizes and counts */
#define SMCR_LLC_MAC_LEN		6
#define SMCR_LLC_GID_LEN		16
#define SMCR_LLC_LINK_UID_LEN		4
#define SMCR_LLC_TEST_DATA_LEN		16
#define SMCR_LLC_MAX_LINKS		8	/* per link group, A.3.5 */
#define SMCR_LLC_MAX_LINKS_LINUX	2	/* max links Linux announces */
#define SMCR_LLC_ADD_CONT_PAIRS		2	/* pairs per message, A.3.3 */
#define SMCR_LLC_RKEY_OTHERS		2	/* other links, A.3.5 */
#define SMCR_LLC_RKEY_CONT_ENTRIES	3	/* A.3.6 */
#define SMCR_LLC_DEL_RKEY_MAX		8	/* A.3.7 */
/* NumTkns bound: the other links of a group of SMCR_LLC_MAX_LINKS */
#define SMCR_LLC_RKEY_TKNS_MAX		(SMCR_LLC_MAX_LINKS - 1)

/* The extension of a version 2 ADD LINK, after its first 44 bytes:
 *
 *   0       bit 0x80: the sender reaches its peer directly, no gateway
 *   1       reserved
 *   2..17   GID of the sender's end of the new link (Linux calls it
 *           the client target GID)
 *   18..25  reserved
 *   26..27  number of RKey pairs, little-endian like the length
 *   28..    the pairs, 16 bytes each, as in ADD LINK CONTINUATION
 *           (A.3.3): RKey on the link carrying the message, RKey and
 *           virtual address on the new link
 *
 * Linux counts its connections in the number but writes a pair only for
 * each RMB in use, and the length covers what it wrote: a decoder takes
 * the pairs within the length.
 */
#define SMCR_LLC_ADD_EXT_LEN		28	/* before the pairs */
#define SMCR_LLC_ADD_EXT_PAIR_LEN	16
#define SMCR_LLC_ADD_EXT_PAIRS_MAX	255	/* Linux reads no more */
#define SMCR_LLC_ADD_EXT_DIRECT		0x80
#define SMCR_LLC_ADD_EXT_MAX_LEN	(SMCR_LLC_ADD_EXT_LEN + \
					 SMCR_LLC_ADD_EXT_PAIRS_MAX * \
					 SMCR_LLC_ADD_EXT_PAIR_LEN)

/**
 * struct smcr_llc_hdr - decoded common LLC header
 * @version: high nibble of byte 0, SMCR_LLC_VERSION_*
 * @type: low nibble of byte 0, the base type SMCR_LLC_TYPE_* whatever
 *	the version
 * @length: version 1: byte 1, always SMCR_LLC_MSG_LEN after a
 *	successful decode; version 2: bytes 1..2 (little-endian), between
 *	SMCR_LLC_MSG_LEN and SMCR_LLC_V2_MAX_LEN after a successful decode
 * @rej_rsn: version 1: low nibble of byte 2, only meaningful in ADD
 *	LINK; version 2: always 0
 * @flags: byte 3 as received (SMCR_LLC_FLAG_*)
 * @resp: reply flag R, bit 0x80 of @flags
 */
struct smcr_llc_hdr {
	u8 version;
	u8 type;
	u16 length;
	u8 rej_rsn;
	u8 flags;
	bool resp;
};

/**
 * struct smcr_llc_confirm_link - CONFIRM LINK (A.3.1)
 * @resp: reply flag
 * @no_rmbe_eyec: SMCR_LLC_FLAG_NO_RMBE_EYEC; must be set towards Linux
 * @mac: sender's RoCE MAC
 * @gid: sender's RoCE GID
 * @qpn: sender's QP number, 24 bits
 * @link_num: link number assigned by the server, echoed by the client
 * @link_uid: sender's opaque link user id
 * @max_links: most links the sender supports in a link group; in a
 *	version 2 group with a peer of release 1, the links agreed on
 * @max_conns: release 1 (Linux 6.12), version 2 groups: the connections
 *	agreed on; reserved before
 */
struct smcr_llc_confirm_link {
	bool resp;
	bool no_rmbe_eyec;
	u8 mac[SMCR_LLC_MAC_LEN];
	u8 gid[SMCR_LLC_GID_LEN];
	u32 qpn;
	u8 link_num;
	u8 link_uid[SMCR_LLC_LINK_UID_LEN];
	u8 max_links;
	u8 max_conns;
};

/**
 * struct smcr_llc_add_link - ADD LINK (A.3.2)
 * @resp: reply flag
 * @reject: rejection flag Z, meaningful on a reply
 * @rej_rsn: rejection reason (SMCR_LLC_REJ_RSN_*), 4 bits; version 1
 *	only: version 2 has no room for it, the encoder leaves it out
 *	(as Linux does) and the decoder reports 0
 * @mac: sender's RoCE MAC for the new link
 * @gid: sender's RoCE GID for the new link
 * @qpn: sender's QP number for the new link, 24 bits
 * @link_num: number of the new link
 * @qp_mtu: QP MTU enumeration (as SMCR_CLC_MTU_*), 4 bits
 * @psn: initial packet sequence number, 24 bits
 */
struct smcr_llc_add_link {
	bool resp;
	bool reject;
	u8 rej_rsn;
	u8 mac[SMCR_LLC_MAC_LEN];
	u8 gid[SMCR_LLC_GID_LEN];
	u32 qpn;
	u8 link_num;
	u8 qp_mtu;
	u32 psn;
};

/**
 * struct smcr_llc_rkey_pair - RKey/RToken pair (A.3.3, figure 34)
 * @ref_rkey: RKey of the RMB on the link carrying the message
 * @new_rkey: RKey of the same RMB on the new link
 * @new_vaddr: virtual address of the RMB on the new link
 */
struct smcr_llc_rkey_pair {
	u32 ref_rkey;
	u32 new_rkey;
	u64 new_vaddr;
};

/**
 * struct smcr_llc_add_link_cont - ADD LINK CONTINUATION (A.3.3)
 * @resp: reply flag
 * @link_num: the new link the RKeys are for
 * @num_rkeys: RTokens still to be communicated, this message included
 * @pairs: the first min(@num_rkeys, 2) entries are on the wire; the
 *	rest are zero after a decode and ignored by the encoder
 */
struct smcr_llc_add_link_cont {
	bool resp;
	u8 link_num;
	u8 num_rkeys;
	struct smcr_llc_rkey_pair pairs[SMCR_LLC_ADD_CONT_PAIRS];
};

/**
 * struct smcr_llc_add_link_ext - extension of a version 2 ADD LINK
 * @direct: the sender reaches its peer without an IP gateway
 * @gid: GID of the sender's end of the new link
 * @num_rkeys: RKey pairs in the extension: the RKeys version 1 sends in
 *	ADD LINK CONTINUATIONs, one pair per RMB of the sender
 *	(smcr_llc_add_link_ext_pair() reads them)
 */
struct smcr_llc_add_link_ext {
	bool direct;
	u8 gid[SMCR_LLC_GID_LEN];
	u16 num_rkeys;
};

/**
 * struct smcr_llc_delete_link - DELETE LINK (A.3.4)
 * @resp: reply flag
 * @all: terminate the whole link group; @link_num is then 0
 * @orderly: orderly termination
 * @link_num: link to terminate
 * @reason: SMCR_LLC_DEL_* reason code
 */
struct smcr_llc_delete_link {
	bool resp;
	bool all;
	bool orderly;
	u8 link_num;
	u32 reason;
};

/**
 * struct smcr_llc_rtoken - other link RMB specification (figure 37)
 * @link_num: link number
 * @rkey: the RMB's RKey on that link
 * @vaddr: the RMB's virtual address on that link
 */
struct smcr_llc_rtoken {
	u8 link_num;
	u32 rkey;
	u64 vaddr;
};

/**
 * struct smcr_llc_confirm_rkey - CONFIRM RKEY (A.3.5)
 * @resp: reply flag
 * @negative: negative reply flag Z
 * @retry: configuration retry flag C
 * @num_tkns: number of other-link RTokens of the exchange, at most
 *	SMCR_LLC_RKEY_TKNS_MAX; above 2 a continuation follows
 * @rkey: the new RMB's RKey on the link carrying the message
 * @vaddr: the new RMB's virtual address on that link
 * @others: the first min(@num_tkns, 2) entries are on the wire; the
 *	rest are zero after a decode and ignored by the encoder
 */
struct smcr_llc_confirm_rkey {
	bool resp;
	bool negative;
	bool retry;
	u8 num_tkns;
	u32 rkey;
	u64 vaddr;
	struct smcr_llc_rtoken others[SMCR_LLC_RKEY_OTHERS];
};

/**
 * struct smcr_llc_confirm_rkey_cont - CONFIRM RKEY CONTINUATION (A.3.6)
 * @resp: reply flag
 * @negative: negative reply flag Z
 * @num_tkns_left: RTokens left, this message included, at most
 *	SMCR_LLC_RKEY_TKNS_MAX
 * @others: the first min(@num_tkns_left, 3) entries are on the wire
 */
struct smcr_llc_confirm_rkey_cont {
	bool resp;
	bool negative;
	u8 num_tkns_left;
	struct smcr_llc_rtoken others[SMCR_LLC_RKEY_CONT_ENTRIES];
};

/**
 * struct smcr_llc_delete_rkey - DELETE RKEY (A.3.7)
 * @resp: reply flag
 * @negative: negative reply flag Z
 * @count: number of RKeys, at most SMCR_LLC_DEL_RKEY_MAX; a version 2
 *	message with more (their RKeys lie past byte 44) is refused
 * @err_mask: on a negative reply, bit 0x80 >> i flags @rkeys[i]; in
 *	version 2 this byte is Linux's num_inval_rkeys, the number of
 *	RKeys it did not know
 * @rkeys: the first @count entries are on the wire
 */
struct smcr_llc_delete_rkey {
	bool resp;
	bool negative;
	u8 count;
	u8 err_mask;
	u32 rkeys[SMCR_LLC_DEL_RKEY_MAX];
};

/**
 * struct smcr_llc_test_link - TEST LINK (A.3.8)
 * @resp: reply flag
 * @user_data: opaque data echoed by the reply
 */
struct smcr_llc_test_link {
	bool resp;
	u8 user_data[SMCR_LLC_TEST_DATA_LEN];
};

/* REQUEST ADD LINK: where its GIDs start; the second one starts at
 * byte 44, after which Linux reads them from its 8 KiB buffer
 */
#define SMCR_LLC_REQ_ADD_GIDS_OFF	28

/**
 * struct smcr_llc_req_add_link - REQUEST ADD LINK (Linux's type 5)
 * @resp: reply flag; a reply carries no GID (Linux zeroes the body)
 * @gid_cnt: GIDs the client offers for the new link; the first is
 *	the one of the link it already has
 * @gid: the first of them; the others follow byte 44
 */
struct smcr_llc_req_add_link {
	bool resp;
	u8 gid_cnt;
	u8 gid[SMCR_LLC_GID_LEN];
};

/**
 * struct smcr_llc_msg - any decoded LLC message
 * @version: SMCR_LLC_VERSION_*, the header format; a zeroed structure
 *	is version 1
 * @type: base type SMCR_LLC_TYPE_* (low nibble of byte 0), selects the
 *	member of @u
 * @u: the decoded message
 * @u.confirm_link: for SMCR_LLC_TYPE_CONFIRM_LINK
 * @u.add_link: for SMCR_LLC_TYPE_ADD_LINK
 * @u.add_link_cont: for SMCR_LLC_TYPE_ADD_LINK_CONT
 * @u.delete_link: for SMCR_LLC_TYPE_DELETE_LINK
 * @u.confirm_rkey: for SMCR_LLC_TYPE_CONFIRM_RKEY
 * @u.confirm_rkey_cont: for SMCR_LLC_TYPE_CONFIRM_RKEY_CONT
 * @u.delete_rkey: for SMCR_LLC_TYPE_DELETE_RKEY
 * @u.test_link: for SMCR_LLC_TYPE_TEST_LINK
 * @u.req_add_link: for SMCR_LLC_TYPE_REQ_ADD_LINK
 */
struct smcr_llc_msg {
	u8 version;
	u8 type;
	union {
		struct smcr_llc_confirm_link confirm_link;
		struct smcr_llc_add_link add_link;
		struct smcr_llc_add_link_cont add_link_cont;
		struct smcr_llc_delete_link delete_link;
		struct smcr_llc_confirm_rkey confirm_rkey;
		struct smcr_llc_confirm_rkey_cont confirm_rkey_cont;
		struct smcr_llc_delete_rkey delete_rkey;
		struct smcr_llc_test_link test_link;
		struct smcr_llc_req_add_link req_add_link;
	} u;
};

bool smcr_llc_type_known(u8 type);
bool smcr_llc_type_discardable(u8 type);
int smcr_llc_hdr_decode(const u8 *buf, size_t len, struct smcr_llc_hdr *h);

int smcr_llc_confirm_link_encode(const struct smcr_llc_confirm_link *m,
				 u8 *buf, size_t len);
int smcr_llc_confirm_link_decode(const u8 *buf, size_t len,
				 struct smcr_llc_confirm_link *m);

int smcr_llc_add_link_encode(const struct smcr_llc_add_link *m,
			     u8 *buf, size_t len);
int smcr_llc_add_link_decode(const u8 *buf, size_t len,
			     struct smcr_llc_add_link *m);

int smcr_llc_add_link_ext_encode(const struct smcr_llc_add_link_ext *m,
				 const struct smcr_llc_rkey_pair *pairs,
				 u8 *buf, size_t len);
int smcr_llc_add_link_ext_decode(const u8 *buf, size_t len,
				 struct smcr_llc_add_link_ext *m);
void smcr_llc_add_link_ext_pair(const u8 *buf, unsigned int i,
				struct smcr_llc_rkey_pair *p);
int smcr_llc_set_v2_length(u8 *buf, size_t len, size_t total);

int smcr_llc_add_link_cont_encode(const struct smcr_llc_add_link_cont *m,
				  u8 *buf, size_t len);
int smcr_llc_add_link_cont_decode(const u8 *buf, size_t len,
				  struct smcr_llc_add_link_cont *m);

int smcr_llc_delete_link_encode(const struct smcr_llc_delete_link *m,
				u8 *buf, size_t len);
int smcr_llc_delete_link_decode(const u8 *buf, size_t len,
				struct smcr_llc_delete_link *m);

int smcr_llc_confirm_rkey_encode(const struct smcr_llc_confirm_rkey *m,
				 u8 *buf, size_t len);
int smcr_llc_confirm_rkey_decode(const u8 *buf, size_t len,
				 struct smcr_llc_confirm_rkey *m);

int smcr_llc_confirm_rkey_cont_encode(const struct smcr_llc_confirm_rkey_cont *m,
				      u8 *buf, size_t len);
int smcr_llc_confirm_rkey_cont_decode(const u8 *buf, size_t len,
				      struct smcr_llc_confirm_rkey_cont *m);

int smcr_llc_delete_rkey_encode(const struct smcr_llc_delete_rkey *m,
				u8 *buf, size_t len);
int smcr_llc_delete_rkey_decode(const u8 *buf, size_t len,
				struct smcr_llc_delete_rkey *m);

int smcr_llc_test_link_encode(const struct smcr_llc_test_link *m,
			      u8 *buf, size_t len);
int smcr_llc_test_link_decode(const u8 *buf, size_t len,
			      struct smcr_llc_test_link *m);

int smcr_llc_req_add_link_encode(const struct smcr_llc_req_add_link *m,
				 u8 *buf, size_t len);
int smcr_llc_req_add_link_decode(const u8 *buf, size_t len,
				 struct smcr_llc_req_add_link *m);
const u8 *smcr_llc_req_add_link_gid(const struct smcr_llc_req_add_link *m,
				    const u8 *ext, size_t ext_len,
				    unsigned int i);

int smcr_llc_encode(const struct smcr_llc_msg *m, u8 *buf, size_t len);
int smcr_llc_decode(const u8 *buf, size_t len, struct smcr_llc_msg *m);

#endif /* _SMCR_WIRE_LLC_H */
