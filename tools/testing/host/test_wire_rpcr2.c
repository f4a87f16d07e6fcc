// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the RPC-over-RDMA version 2 header
 * (net/rpcrdma/rpcr_wire2.c), draft-ietf-nfsv4-rpcrdma-version-two of
 * 17 November 2019.
 *
 * The goldens are written byte by byte from that revision's XDR (§7.3,
 * §7.4), one XDR word a line, most significant byte first (RFC 4506
 * §4.1). Every header starts with the prefix of §6.3.2:
 * rdma_xid, rdma_vers, rdma_credit, rdma_htype, rdma_flags.
 */
#include "rpcr_wire2.h"
#include "wire_test.h"

/* §6.4.1 RDMA2_MSG, a Call without chunks. Byte by byte, then the RPC
 * message (its XID and msg_type CALL) that rdma_rpc_first_word starts
 */
static const u8 g_msg_call[] = {
	0x2a, 0x2a, 0x00, 0x01,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers: 2 */
	0x00, 0x80, 0x00, 0x20,	/* rdma_credit: max 128, granted 32 */
	0x00, 0x00, 0x00, 0x00,	/* rdma_htype: RDMA2_MSG */
	0x00, 0x00, 0x00, 0x00,	/* rdma_flags: none, a Call */
	0x00, 0x00, 0x00, 0x00,	/* rdma_inv_handle: none (§6.3.3.2) */
	0x00, 0x00, 0x00, 0x00,	/* rdma_reads: empty */
	0x00, 0x00, 0x00, 0x00,	/* rdma_writes: empty */
	0x00, 0x00, 0x00, 0x00,	/* rdma_reply: absent */
	0x2a, 0x2a, 0x00, 0x01,	/* RPC: xid */
	0x00, 0x00, 0x00, 0x00,	/* RPC: msg_type CALL */
};

/* §6.3.2.1: a Reply sets RPCRDMA2_F_RESPONSE, its msg_type is REPLY */
static const u8 g_msg_reply[] = {
	0x2a, 0x2a, 0x00, 0x01,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x80, 0x00, 0x40,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x00,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x00,	/* rdma_inv_handle */
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x2a, 0x2a, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x01,
};

/* §6.3.2.2: the first part of a continued Call, RPCRDMA2_F_MORE */
static const u8 g_msg_more[] = {
	0x2a, 0x2a, 0x00, 0x02,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x80, 0x00, 0x20,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x00,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x02,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x00,	/* rdma_inv_handle */
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x2a, 0x2a, 0x00, 0x02,
	0x00, 0x00, 0x00, 0x00,
};

/* §6.4.1 with a Read chunk (§4.4.5): a WRITE's data at position 140 in
 * two segments; rdma_inv_handle names the first one (§6.3.3.2)
 */
static const u8 g_msg_read[] = {
	0x0b, 0xad, 0xca, 0xfe,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x20, 0x00, 0x20,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x00,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x00,	/* rdma_flags */
	0x00, 0x00, 0x10, 0x01,	/* rdma_inv_handle */
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x8c,
	0x00, 0x00, 0x10, 0x01,
	0x00, 0x00, 0x10, 0x00,
	0x00, 0x00, 0x00, 0x01,
	0x20, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x8c,
	0x00, 0x00, 0x10, 0x02,
	0x00, 0x00, 0x03, 0xe8,
	0x00, 0x00, 0x00, 0x01,
	0x20, 0x00, 0x10, 0x00,
	0x00, 0x00, 0x00, 0x00,	/* reads end */
	0x00, 0x00, 0x00, 0x00,	/* writes */
	0x00, 0x00, 0x00, 0x00,	/* reply */
	0x0b, 0xad, 0xca, 0xfe,
};

/* §6.4.1 with a Write chunk of two segments (§4.4.6) and a Reply chunk */
static const u8 g_msg_write[] = {
	0x01, 0x02, 0x03, 0x04,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x80, 0x00, 0x01,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x00,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x00,	/* rdma_flags */
	0x00, 0x00, 0x20, 0x01,	/* rdma_inv_handle */
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x02,
	0x00, 0x00, 0x20, 0x01,
	0x00, 0x00, 0x20, 0x00,
	0xff, 0xff, 0x88, 0x80,
	0x01, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x20, 0x02,
	0x00, 0x00, 0x10, 0x00,
	0xff, 0xff, 0x88, 0x80,
	0x02, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x20, 0x03,
	0x00, 0x00, 0x10, 0x00,
	0xff, 0xff, 0x88, 0x80,
	0x03, 0x00, 0x00, 0x00,
	0x01, 0x02, 0x03, 0x04,
};

/* §6.4.2 RDMA2_NOMSG, a Long Call: Position Zero Read chunk (§4.5.4)
 * and a Reply chunk; nothing follows the header
 */
static const u8 g_nomsg_call[] = {
	0xde, 0xad, 0xbe, 0xef,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x40, 0x00, 0x10,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x01,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x00,	/* rdma_flags */
	0x00, 0x00, 0x30, 0x03,	/* rdma_inv_handle */
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x30, 0x01,
	0x00, 0x00, 0x04, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x40, 0x00,
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x30, 0x02,
	0x00, 0x00, 0x02, 0xbc,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x80, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x30, 0x03,
	0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x01, 0x00, 0x00,
};

/* §6.4.2, a Long Reply: the Reply chunk with what was written */
static const u8 g_nomsg_reply[] = {
	0xde, 0xad, 0xbe, 0xef,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x40, 0x00, 0x10,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x01,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x00,	/* rdma_inv_handle */
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x30, 0x03,
	0x00, 0x00, 0x07, 0x08,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x01, 0x00, 0x00,
};

/* §6.4.2, §4.3.1.2: a credit grant refresh, rdma_xid zero */
static const u8 g_refresh[] = {
	0x00, 0x00, 0x00, 0x00,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x80, 0x00, 0x40,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x01,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x00,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x00,	/* rdma_inv_handle */
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
};

/* §6.4.3 RDMA2_ERROR: prefix (RPCRDMA2_F_RESPONSE set, §6.3.2.1),
 * rdma_err, then the arm of union rpcrdma2_error
 */
static const u8 g_err_vers[] = {
	0x00, 0x00, 0x00, 0x51,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x40, 0x00, 0x40,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x04,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x01,	/* rdma_err: RDMA2_ERR_VERS */
	0x00, 0x00, 0x00, 0x01,	/* rdma_vers_low */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers_high */
};

static const u8 g_err_bad_xdr[] = {
	0x00, 0x00, 0x00, 0x52,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x40, 0x00, 0x40,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x04,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x02,	/* rdma_err: RDMA2_ERR_BAD_XDR */
};

static const u8 g_err_htype[] = {
	0x00, 0x00, 0x00, 0x53,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x40, 0x00, 0x40,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x04,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x03,	/* rdma_err: RDMA2_ERR_INVAL_HTYPE */
};

static const u8 g_err_flag[] = {
	0x00, 0x00, 0x00, 0x54,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x40, 0x00, 0x40,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x04,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x04,	/* rdma_err: RDMA2_ERR_INVAL_FLAG */
};

static const u8 g_err_reads[] = {
	0x00, 0x00, 0x00, 0x55,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x40, 0x00, 0x40,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x04,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x05,	/* rdma_err: RDMA2_ERR_READ_CHUNKS */
	0x00, 0x00, 0x00, 0x04,	/* rdma_max_chunks */
};

static const u8 g_err_writes[] = {
	0x00, 0x00, 0x00, 0x56,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x40, 0x00, 0x40,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x04,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x06,	/* rdma_err: RDMA2_ERR_WRITE_CHUNKS */
	0x00, 0x00, 0x00, 0x04,	/* rdma_max_chunks */
};

static const u8 g_err_segs[] = {
	0x00, 0x00, 0x00, 0x57,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x40, 0x00, 0x40,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x04,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x07,	/* rdma_err: RDMA2_ERR_SEGMENTS */
	0x00, 0x00, 0x00, 0x10,	/* rdma_max_segments */
};

static const u8 g_err_wres[] = {
	0x00, 0x00, 0x00, 0x58,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x40, 0x00, 0x40,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x04,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x08,	/* rdma_err: RDMA2_ERR_WRITE_RESOURCE */
	0x00, 0x00, 0x00, 0x02,	/* rdma_chunk_index */
	0x00, 0x00, 0x20, 0x00,	/* rdma_length_needed */
};

static const u8 g_err_rres[] = {
	0x00, 0x00, 0x00, 0x59,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x40, 0x00, 0x40,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x04,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x09,	/* rdma_err: RDMA2_ERR_REPLY_RESOURCE */
	0x00, 0x01, 0x00, 0x00,	/* rdma_length_needed */
};

static const u8 g_err_system[] = {
	0x00, 0x00, 0x00, 0x5a,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x40, 0x00, 0x40,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x04,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x0a,	/* rdma_err: RDMA2_ERR_SYSTEM */
};

/* Appendix B.4: a code of a later extension takes the void arm */
static const u8 g_err_other[] = {
	0x00, 0x00, 0x00, 0x5b,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x40, 0x00, 0x40,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x04,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x0b,	/* rdma_err: an error code not in §7.4 */
};

/* §6.4.4 RDMA2_CONNPROP with every property of §5.2, in id order:
 * rpcrdma2_propset is a counted array of { rdma_which, rdma_data<> }
 */
static const u8 g_connprop[] = {
	0x00, 0x00, 0x00, 0x00,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x80, 0x00, 0x80,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x05,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x00,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x06,	/* six properties */
	0x00, 0x00, 0x00, 0x01,	/* §5.2.1 SBSIZ */
	0x00, 0x00, 0x00, 0x04,
	0x00, 0x00, 0x20, 0x00,
	0x00, 0x00, 0x00, 0x02,	/* §5.2.2 RBSIZ */
	0x00, 0x00, 0x00, 0x04,
	0x00, 0x00, 0x40, 0x00,
	0x00, 0x00, 0x00, 0x03,	/* §5.2.3 RSSIZ */
	0x00, 0x00, 0x00, 0x04,
	0x00, 0x04, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x04,	/* §5.2.4 RCSIZ */
	0x00, 0x00, 0x00, 0x04,
	0x00, 0x00, 0x00, 0x20,
	0x00, 0x00, 0x00, 0x05,	/* §5.2.5 BRS: GENL */
	0x00, 0x00, 0x00, 0x04,
	0x00, 0x00, 0x00, 0x02,
	0x00, 0x00, 0x00, 0x06,	/* §5.2.6 HOSTAUTH: opaque<> */
	0x00, 0x00, 0x00, 0x0c,
	0x00, 0x00, 0x00, 0x05,
	'h', 'e', 'l', 'l', 'o', 0, 0, 0,
};

/* §5.1: ids not known are skipped; an empty rdma_data is the default */
static const u8 g_connprop_unknown[] = {
	0x00, 0x00, 0x00, 0x00,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x80, 0x00, 0x80,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x05,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x01,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x04,	/* rdma_props: count */
	0x00, 0x00, 0x10, 0x00,	/* unknown, padded */
	0x00, 0x00, 0x00, 0x03,
	0xaa,
	0xbb,
	0xcc,
	0,
	0x00, 0x00, 0x00, 0x02,	/* RBSIZ */
	0x00, 0x00, 0x00, 0x04,
	0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x07,	/* unknown, empty */
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x03,	/* RSSIZ: the default */
	0x00, 0x00, 0x00, 0x00,
};

/* §6.3.2.2: CONNPROP may be continued; an empty set */
static const u8 g_connprop_empty[] = {
	0x00, 0x00, 0x00, 0x00,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers */
	0x00, 0x01, 0x00, 0x01,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x05,	/* rdma_htype */
	0x00, 0x00, 0x00, 0x02,	/* rdma_flags */
	0x00, 0x00, 0x00, 0x00,	/* rdma_props: count */
};

static const struct wire_seed seeds[] = {
	{ "msg_call", g_msg_call, sizeof(g_msg_call) },
	{ "msg_reply", g_msg_reply, sizeof(g_msg_reply) },
	{ "msg_more", g_msg_more, sizeof(g_msg_more) },
	{ "msg_read", g_msg_read, sizeof(g_msg_read) },
	{ "msg_write", g_msg_write, sizeof(g_msg_write) },
	{ "nomsg_call", g_nomsg_call, sizeof(g_nomsg_call) },
	{ "nomsg_reply", g_nomsg_reply, sizeof(g_nomsg_reply) },
	{ "refresh", g_refresh, sizeof(g_refresh) },
	{ "err_vers", g_err_vers, sizeof(g_err_vers) },
	{ "err_bad_xdr", g_err_bad_xdr, sizeof(g_err_bad_xdr) },
	{ "err_htype", g_err_htype, sizeof(g_err_htype) },
	{ "err_flag", g_err_flag, sizeof(g_err_flag) },
	{ "err_reads", g_err_reads, sizeof(g_err_reads) },
	{ "err_writes", g_err_writes, sizeof(g_err_writes) },
	{ "err_segs", g_err_segs, sizeof(g_err_segs) },
	{ "err_wres", g_err_wres, sizeof(g_err_wres) },
	{ "err_rres", g_err_rres, sizeof(g_err_rres) },
	{ "err_system", g_err_system, sizeof(g_err_system) },
	{ "err_other", g_err_other, sizeof(g_err_other) },
	{ "connprop", g_connprop, sizeof(g_connprop) },
	{ "connprop_unknown", g_connprop_unknown, sizeof(g_connprop_unknown) },
	{ "connprop_empty", g_connprop_empty, sizeof(g_connprop_empty) },
};

static struct rpcr2_hdr h, q;
static struct rpcr2_err v;
static u8 out[4096], msg[4096];

/* decode a golden whose header is @hlen bytes, encode it again: the
 * same bytes
 */
static void roundtrip(const u8 *g, size_t n, size_t hlen)
{
	int len;

	CHECK_EQ(rpcr2_hdr_decode(g, n, &h, &v), hlen);
	CHECK_EQ(v.code, 0);
	CHECK_EQ(rpcr2_hdr_len(&h), hlen);
	len = rpcr2_hdr_encode(&h, out, sizeof(out));
	CHECK_EQ(len, hlen);
	CHECK(len == (int)hlen && !memcmp(out, g, hlen));
}

/* decoding fails with @rc, and the answer is @code (0: drop) */
static void refused(const u8 *m, size_t n, int rc, u32 code, u32 max)
{
	CHECK_EQ(rpcr2_hdr_decode(m, n, &h, &v), rc);
	CHECK_EQ(v.code, code);
	CHECK_EQ(v.max, max);
}

/* a golden copied into msg[] to be spoiled at word @i */
static size_t spoil(const u8 *g, size_t n, unsigned int i, u32 word)
{
	memcpy(msg, g, n);
	rpcr_put32(msg + 4 * i, word);
	return n;
}

static void test_prefix(void)
{
	roundtrip(g_msg_call, sizeof(g_msg_call), 36);
	CHECK_EQ(h.base.xid, 0x2a2a0001);
	CHECK_EQ(h.base.vers, RPCR_VERSION_2);
	CHECK_EQ(h.base.credit, 0x00800020);
	CHECK_EQ(rpcr2_credit_granted(h.base.credit), 32);
	CHECK_EQ(rpcr2_credit_max(h.base.credit), 128);
	CHECK_EQ(h.base.proc, RPCR2_MSG);
	CHECK_EQ(h.flags, 0);
	CHECK_EQ(h.inv_handle, 0);
	CHECK_EQ(h.base.nreads, 0);
	CHECK_EQ(h.base.nwrites, 0);
	CHECK(!h.base.has_reply);
	CHECK_EQ(rpcr2_hdr_check(&h, true, &v), 0);
	CHECK(!rpcr2_credit_refresh(&h));
	/* §6.3.1: the first four words are where version 1 has them */
	CHECK_EQ(rpcr_hdr_decode(g_msg_call, sizeof(g_msg_call), &q.base),
		 -EPROTONOSUPPORT);
	CHECK_EQ(q.base.xid, 0x2a2a0001);
	CHECK_EQ(q.base.proc, RPCR_MSG);
	CHECK_EQ(RPCR2_PREFIX_LEN, 20);
}

static void test_credit(void)
{
	/* §4.3.1.1: granted in the low 16 bits, maximum in the high */
	CHECK_EQ(rpcr2_credit(32, 128), 0x00800020);
	CHECK_EQ(rpcr2_credit(0xffff, 0xffff), 0xffffffff);
	CHECK_EQ(rpcr2_credit_granted(0x12345678), 0x5678);
	CHECK_EQ(rpcr2_credit_max(0x12345678), 0x1234);
	CHECK_EQ(rpcr2_credit(1, 0), 1);
}

static void test_flags(void)
{
	roundtrip(g_msg_reply, sizeof(g_msg_reply), 36);
	CHECK_EQ(h.flags, RPCR2_F_RESPONSE);
	CHECK_EQ(rpcr2_credit_granted(h.base.credit), 64);
	CHECK_EQ(rpcr2_hdr_check(&h, false, &v), 0);

	roundtrip(g_msg_more, sizeof(g_msg_more), 36);
	CHECK_EQ(h.flags, RPCR2_F_MORE);
	CHECK_EQ(rpcr2_hdr_check(&h, true, &v), 0);

	/* both flags: the first part of a continued Reply */
	spoil(g_msg_reply, sizeof(g_msg_reply), 4,
	      RPCR2_F_RESPONSE | RPCR2_F_MORE);
	CHECK_EQ(rpcr2_hdr_decode(msg, sizeof(g_msg_reply), &h, &v), 36);
	CHECK_EQ(h.flags, RPCR2_F_RESPONSE | RPCR2_F_MORE);
	CHECK_EQ(RPCR2_F_RESPONSE, 0x1);
	CHECK_EQ(RPCR2_F_MORE, 0x2);
}

static void test_msg_read(void)
{
	roundtrip(g_msg_read, sizeof(g_msg_read), sizeof(g_msg_read) - 4);
	CHECK_EQ(h.inv_handle, 0x1001);
	CHECK_EQ(h.base.nreads, 2);
	CHECK_EQ(h.base.reads[0].position, 140);
	CHECK_EQ(h.base.reads[0].seg.handle, 0x1001);
	CHECK_EQ(h.base.reads[0].seg.length, 4096);
	CHECK(h.base.reads[0].seg.offset == 0x120000000ull);
	CHECK_EQ(h.base.reads[1].seg.handle, 0x1002);
	CHECK(h.base.reads[1].seg.offset == 0x120001000ull);
	CHECK_EQ(rpcr2_hdr_check(&h, true, &v), 0);
	/* a Reply carries no Read chunk (RFC 8166 rules, §6.3.3.1) */
	CHECK_EQ(rpcr2_hdr_check(&h, false, &v), -EBADMSG);
	CHECK_EQ(v.code, RPCR2_ERR_BAD_XDR);
}

static void test_msg_write(void)
{
	roundtrip(g_msg_write, sizeof(g_msg_write), sizeof(g_msg_write) - 4);
	CHECK_EQ(h.inv_handle, 0x2001);
	CHECK_EQ(h.base.nwrites, 1);
	CHECK_EQ(h.base.writes[0].nsegs, 2);
	CHECK_EQ(h.base.writes[0].segs[0].length, 8192);
	CHECK(h.base.writes[0].segs[1].offset == 0xffff888002000000ull);
	CHECK(h.base.has_reply);
	CHECK_EQ(h.base.reply.segs[0].handle, 0x2003);
	CHECK_EQ(rpcr2_hdr_check(&h, true, &v), 0);
	/* §6.3.3.2: rdma_inv_handle is one of the header's handles */
	h.inv_handle = 0x2003;
	CHECK_EQ(rpcr2_hdr_check(&h, true, &v), 0);
	h.inv_handle = 0x9999;
	CHECK_EQ(rpcr2_hdr_check(&h, true, &v), -EBADMSG);
	CHECK_EQ(v.code, RPCR2_ERR_BAD_XDR);
}

static void test_nomsg(void)
{
	roundtrip(g_nomsg_call, sizeof(g_nomsg_call), sizeof(g_nomsg_call));
	CHECK_EQ(h.base.proc, RPCR2_NOMSG);
	CHECK_EQ(h.base.nreads, 2);
	CHECK_EQ(h.base.reads[1].position, 0);
	CHECK_EQ(h.base.reply.segs[0].length, 65536);
	CHECK_EQ(rpcr2_hdr_check(&h, true, &v), 0);
	CHECK(!rpcr2_credit_refresh(&h));

	roundtrip(g_nomsg_reply, sizeof(g_nomsg_reply),
		  sizeof(g_nomsg_reply));
	CHECK_EQ(h.flags, RPCR2_F_RESPONSE);
	CHECK_EQ(h.base.reply.segs[0].length, 1800);
	CHECK_EQ(rpcr2_hdr_check(&h, false, &v), 0);
	/* a Long Reply without the Reply chunk is a refresh with an XID */
	h.base.has_reply = false;
	CHECK_EQ(rpcr2_hdr_check(&h, false, &v), -EBADMSG);
	CHECK_EQ(v.code, RPCR2_ERR_BAD_XDR);
}

static void test_refresh(void)
{
	roundtrip(g_refresh, sizeof(g_refresh), RPCR2_NOMSG_MIN_LEN);
	CHECK(rpcr2_credit_refresh(&h));
	CHECK_EQ(rpcr2_credit_granted(h.base.credit), 64);
	CHECK_EQ(rpcr2_hdr_check(&h, true, &v), 0);
	CHECK_EQ(rpcr2_hdr_check(&h, false, &v), 0);
	/* §6.4.2: its rdma_xid is zero */
	h.base.xid = 7;
	CHECK_EQ(rpcr2_hdr_check(&h, true, &v), -EBADMSG);
	CHECK_EQ(v.code, RPCR2_ERR_BAD_XDR);
}

/* the refresh our client sends, and what a receive handler takes at once */
static void test_refresh_wire(void)
{
	u8 m[sizeof(g_refresh) + 4];
	size_t i;
	u32 c = 0;

	memset(out, 0xee, sizeof(out));
	CHECK_EQ(rpcr2_refresh_encode(rpcr2_credit(64, 128), out,
				      sizeof(g_refresh)),
		 RPCR2_NOMSG_MIN_LEN);
	CHECK(!memcmp(out, g_refresh, sizeof(g_refresh)));
	CHECK_EQ(out[sizeof(g_refresh)], 0xee);
	CHECK_EQ(rpcr2_refresh_encode(1, out, sizeof(g_refresh) - 1),
		 -EMSGSIZE);

	CHECK(rpcr2_peek_refresh(g_refresh, sizeof(g_refresh), &c));
	CHECK_EQ(c, rpcr2_credit(64, 128));
	CHECK(!rpcr2_peek_refresh(g_refresh, sizeof(g_refresh) - 1, &c));
	CHECK(!rpcr2_peek_refresh(g_nomsg_call, sizeof(g_nomsg_call), &c));
	CHECK(!rpcr2_peek_refresh(g_msg_more, RPCR2_MORE_HDR_LEN, &c));
	/* a longer message, even of zeroes, is no plain refresh */
	memcpy(m, g_refresh, sizeof(g_refresh));
	memset(m + sizeof(g_refresh), 0, 4);
	CHECK(!rpcr2_peek_refresh(m, sizeof(m), &c));
	/* any word but the credit set: the decoder's business */
	for (i = 0; i < sizeof(g_refresh); i += 4) {
		memcpy(m, g_refresh, sizeof(g_refresh));
		m[i + 3] ^= 0x10;
		CHECK_EQ(rpcr2_peek_refresh(m, sizeof(g_refresh), &c), i == 8);
	}
}

static const struct {
	const u8 *g;
	size_t n;
	u32 code;
	u32 w1, w2;	/* the body's words */
} errs[] = {
	{ g_err_vers, sizeof(g_err_vers), RPCR2_ERR_VERS, 1, 2 },
	{ g_err_bad_xdr, sizeof(g_err_bad_xdr), RPCR2_ERR_BAD_XDR, 0, 0 },
	{ g_err_htype, sizeof(g_err_htype), RPCR2_ERR_INVAL_HTYPE, 0, 0 },
	{ g_err_flag, sizeof(g_err_flag), RPCR2_ERR_INVAL_FLAG, 0, 0 },
	{ g_err_reads, sizeof(g_err_reads), RPCR2_ERR_READ_CHUNKS, 4, 0 },
	{ g_err_writes, sizeof(g_err_writes), RPCR2_ERR_WRITE_CHUNKS, 4, 0 },
	{ g_err_segs, sizeof(g_err_segs), RPCR2_ERR_SEGMENTS, 16, 0 },
	{ g_err_wres, sizeof(g_err_wres), RPCR2_ERR_WRITE_RESOURCE, 2, 8192 },
	{ g_err_rres, sizeof(g_err_rres), RPCR2_ERR_REPLY_RESOURCE, 65536, 0 },
	{ g_err_system, sizeof(g_err_system), RPCR2_ERR_SYSTEM, 0, 0 },
	{ g_err_other, sizeof(g_err_other), 11, 0, 0 },
};

static void test_errors(void)
{
	struct rpcr2_err e;
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(errs); i++) {
		roundtrip(errs[i].g, errs[i].n, errs[i].n);
		CHECK_EQ(h.base.proc, RPCR2_ERROR);
		CHECK_EQ(h.flags, RPCR2_F_RESPONSE);
		CHECK_EQ(h.error.code, errs[i].code);
		CHECK_EQ(h.base.xid, 0x51 + i);
		/* an error answers a Call, it is none */
		CHECK_EQ(rpcr2_hdr_check(&h, false, &v), 0);
		CHECK_EQ(rpcr2_hdr_check(&h, true, &v), -EBADMSG);
		CHECK_EQ(v.code, 0);
		/* the builder makes the same bytes from the body */
		memset(&e, 0, sizeof(e));
		e.code = errs[i].code;
		switch (e.code) {
		case RPCR2_ERR_VERS:
			e.vers_low = errs[i].w1;
			e.vers_high = errs[i].w2;
			CHECK_EQ(h.error.vers_low, 1);
			CHECK_EQ(h.error.vers_high, 2);
			break;
		case RPCR2_ERR_READ_CHUNKS:
		case RPCR2_ERR_WRITE_CHUNKS:
		case RPCR2_ERR_SEGMENTS:
			e.max = errs[i].w1;
			CHECK_EQ(h.error.max, errs[i].w1);
			break;
		case RPCR2_ERR_WRITE_RESOURCE:
			e.chunk_index = errs[i].w1;
			e.length_needed = errs[i].w2;
			CHECK_EQ(h.error.chunk_index, 2);
			CHECK_EQ(h.error.length_needed, 8192);
			break;
		case RPCR2_ERR_REPLY_RESOURCE:
			e.length_needed = errs[i].w1;
			CHECK_EQ(h.error.length_needed, 65536);
			break;
		}
		rpcr2_hdr_error(&q, 0x51 + i, 0x00400040, &e);
		CHECK_EQ(rpcr2_hdr_encode(&q, out, sizeof(out)), errs[i].n);
		CHECK(!memcmp(out, errs[i].g, errs[i].n));
		/* §6.4.3: a body cut short is dropped, never answered */
		refused(errs[i].g, errs[i].n - 4, -EBADMSG, 0, 0);
	}
	CHECK_EQ(sizeof(g_err_bad_xdr), RPCR2_ERR_LEN);
	/* BAD_XDR has version 1's ERR_CHUNK value (§6.4.3) */
	CHECK_EQ(RPCR2_ERR_BAD_XDR, RPCR_ERR_CHUNK);
	CHECK_EQ(RPCR2_ERR_VERS, RPCR_ERR_VERS);
	CHECK_EQ(RPCR2_ERR_SYSTEM, 10);
}

static void test_connprop(void)
{
	roundtrip(g_connprop, sizeof(g_connprop), sizeof(g_connprop));
	CHECK_EQ(h.base.proc, RPCR2_CONNPROP);
	CHECK_EQ(h.props.present, 0x7e);
	CHECK_EQ(h.props.nprops, 6);
	CHECK_EQ(h.props.nunknown, 0);
	CHECK_EQ(h.props.sbsiz, 8192);
	CHECK_EQ(h.props.rbsiz, 16384);
	CHECK_EQ(h.props.rssiz, 262144);
	CHECK_EQ(h.props.rcsiz, 32);
	CHECK_EQ(h.props.brs, RPCR2_RVREQSUP_GENL);
	CHECK_EQ(h.props.hostauth_len, 5);
	CHECK(h.props.hostauth == g_connprop + sizeof(g_connprop) - 8);
	CHECK(h.props.hostauth && !memcmp(h.props.hostauth, "hello", 5));
	CHECK_EQ(rpcr2_hdr_check(&h, true, &v), 0);
	CHECK_EQ(rpcr2_hdr_check(&h, false, &v), 0);

	roundtrip(g_connprop_empty, sizeof(g_connprop_empty),
		  sizeof(g_connprop_empty));
	CHECK_EQ(h.props.present, 0);
	CHECK_EQ(h.flags, RPCR2_F_MORE);
}

static void test_connprop_unknown(void)
{
	int n;

	n = rpcr2_hdr_decode(g_connprop_unknown, sizeof(g_connprop_unknown),
			     &h, &v);
	CHECK_EQ(n, sizeof(g_connprop_unknown));
	CHECK_EQ(h.props.nprops, 4);
	CHECK_EQ(h.props.nunknown, 2);
	CHECK_EQ(h.props.present, 1u << RPCR2_PROP_RBSIZ |
		 1u << RPCR2_PROP_RSSIZ);
	CHECK_EQ(h.props.rbsiz, 65536);
	/* §5.1: an empty rdma_data is the property's default */
	CHECK_EQ(h.props.rssiz, RPCR2_RSSIZ_DEFAULT);
	/* encoded again: the known ones, in id order, each with its value */
	n = rpcr2_hdr_encode(&h, out, sizeof(out));
	CHECK_EQ(n, RPCR2_PREFIX_LEN + 4 + 2 * 12);
	CHECK_EQ(rpcr2_hdr_decode(out, n, &q, &v), n);
	CHECK_EQ(q.props.present, h.props.present);
	CHECK_EQ(q.props.rssiz, RPCR2_RSSIZ_DEFAULT);
	CHECK_EQ(q.props.nunknown, 0);
	/* an empty Host Auth Message: present, no material */
	h.props.present = 1u << RPCR2_PROP_HOSTAUTH;
	n = rpcr2_hdr_encode(&h, out, sizeof(out));
	CHECK_EQ(n, RPCR2_PREFIX_LEN + 4 + 12);
	CHECK_EQ(rpcr2_hdr_decode(out, n, &q, &v), n);
	CHECK_EQ(q.props.present, h.props.present);
	CHECK(!q.props.hostauth && !q.props.hostauth_len);
}

static void test_prop_defaults(void)
{
	/* §5.2's table */
	CHECK_EQ(rpcr2_prop_default(RPCR2_PROP_SBSIZ), 4096);
	CHECK_EQ(rpcr2_prop_default(RPCR2_PROP_RBSIZ), 4096);
	CHECK_EQ(rpcr2_prop_default(RPCR2_PROP_RSSIZ), 1048576);
	CHECK_EQ(rpcr2_prop_default(RPCR2_PROP_RCSIZ), 16);
	CHECK_EQ(rpcr2_prop_default(RPCR2_PROP_BRS), RPCR2_RVREQSUP_INLINE);
	CHECK_EQ(rpcr2_prop_default(RPCR2_PROP_HOSTAUTH), 0);
	CHECK_EQ(rpcr2_prop_default(99), 0);
	CHECK_EQ(RPCR2_PROP_HOSTAUTH, 6);
}

/* rpcr2_connprop_encode(): the golden of every property, byte for byte */
static void test_connprop_encode(void)
{
	struct rpcr2_props p = {
		.present = 0x7e,
		.sbsiz = 8192,
		.rbsiz = 16384,
		.rssiz = 262144,
		.rcsiz = 32,
		.brs = RPCR2_RVREQSUP_GENL,
		.hostauth = (const u8 *)"hello",
		.hostauth_len = 5,
	};
	int n;

	memset(out, 0xee, sizeof(out));
	n = rpcr2_connprop_encode(0, 0x00800080, &p, out, sizeof(out));
	CHECK_EQ(n, sizeof(g_connprop));
	CHECK(!memcmp(out, g_connprop, sizeof(g_connprop)));
	/* no room for the last byte */
	CHECK_EQ(rpcr2_connprop_encode(0, 0x00800080, &p, out,
				       sizeof(g_connprop) - 1), -EMSGSIZE);
	/* an id §5.2 does not define, material without its bytes */
	p.present |= 1u << 7;
	CHECK_EQ(rpcr2_connprop_encode(0, 0, &p, out, sizeof(out)), -EINVAL);
	p.present = 1u << RPCR2_PROP_HOSTAUTH;
	p.hostauth = NULL;
	CHECK_EQ(rpcr2_connprop_encode(0, 0, &p, out, sizeof(out)), -EINVAL);
	/* what our client sends: four words, decoded as sent, no flags */
	memset(&p, 0, sizeof(p));
	p.present = 1u << RPCR2_PROP_SBSIZ | 1u << RPCR2_PROP_RBSIZ |
		    1u << RPCR2_PROP_RSSIZ | 1u << RPCR2_PROP_BRS;
	p.sbsiz = 4096;
	p.rbsiz = 4096;
	p.rssiz = 1056768;
	p.brs = RPCR2_RVREQSUP_INLINE;
	n = rpcr2_connprop_encode(7, rpcr2_credit(136, 136), &p, out,
				  sizeof(out));
	CHECK_EQ(n, RPCR2_PREFIX_LEN + 4 + 4 * 12);
	CHECK_EQ(rpcr2_hdr_decode(out, n, &q, &v), n);
	CHECK_EQ(q.base.xid, 7);
	CHECK_EQ(q.base.proc, RPCR2_CONNPROP);
	CHECK_EQ(q.flags, 0);
	CHECK_EQ(rpcr2_credit_granted(q.base.credit), 136);
	CHECK_EQ(q.props.present, p.present);
	CHECK_EQ(q.props.rssiz, 1056768);
	CHECK_EQ(q.props.brs, RPCR2_RVREQSUP_INLINE);
	/* within version 1's inline default, as §6.4.4 wants */
	CHECK(n <= RPCR_V1_INLINE_DEFAULT);
}

/* rpcr2_props_effective(): what a peer said, the defaults for the rest */
static void test_props_effective(void)
{
	struct rpcr2_props e;
	int n;

	rpcr2_props_effective(NULL, &e);
	CHECK_EQ(e.present, 0);
	CHECK_EQ(e.sbsiz, RPCR2_SBSIZ_DEFAULT);
	CHECK_EQ(e.rbsiz, RPCR2_RBSIZ_DEFAULT);
	CHECK_EQ(e.rssiz, RPCR2_RSSIZ_DEFAULT);
	CHECK_EQ(e.rcsiz, RPCR2_RCSIZ_DEFAULT);
	CHECK_EQ(e.brs, RPCR2_BRS_DEFAULT);
	CHECK(!e.hostauth && !e.hostauth_len);

	n = rpcr2_hdr_decode(g_connprop_unknown, sizeof(g_connprop_unknown),
			     &h, &v);
	CHECK_EQ(n, sizeof(g_connprop_unknown));
	rpcr2_props_effective(&h.props, &e);
	CHECK_EQ(e.present, h.props.present);
	CHECK_EQ(e.rbsiz, 65536);
	CHECK_EQ(e.rssiz, RPCR2_RSSIZ_DEFAULT);
	CHECK_EQ(e.sbsiz, RPCR2_SBSIZ_DEFAULT);
	CHECK_EQ(e.rcsiz, RPCR2_RCSIZ_DEFAULT);
	CHECK_EQ(e.brs, RPCR2_BRS_DEFAULT);
	CHECK_EQ(e.nunknown, 2);

	roundtrip(g_connprop, sizeof(g_connprop), sizeof(g_connprop));
	rpcr2_props_effective(&h.props, &e);
	CHECK_EQ(e.sbsiz, 8192);
	CHECK_EQ(e.rcsiz, 32);
	CHECK_EQ(e.brs, RPCR2_RVREQSUP_GENL);
	CHECK_EQ(e.hostauth_len, 5);
	CHECK(e.hostauth == h.props.hostauth);
}

static void test_bad_prefix(void)
{
	size_t i;

	/* not even the four common words: nothing to answer (§6.3.1) */
	for (i = 0; i < 16; i++)
		refused(g_msg_call, i, -EMSGSIZE, 0, 0);
	/* the fifth word, rdma_flags, missing */
	for (i = 16; i < RPCR2_PREFIX_LEN; i++)
		refused(g_msg_call, i, -EBADMSG, RPCR2_ERR_BAD_XDR, 0);
	/* §4.3.3.2: another version gets ERR_VERS with our range */
	for (i = 0; i < 4; i++) {
		u32 vers[] = { 0, 1, 3, 0xffffffff };

		spoil(g_msg_call, sizeof(g_msg_call), 1, vers[i]);
		refused(msg, sizeof(g_msg_call), -EPROTONOSUPPORT,
			RPCR2_ERR_VERS, 0);
		CHECK_EQ(v.vers_low, 1);
		CHECK_EQ(v.vers_high, 2);
		CHECK_EQ(h.base.xid, 0x2a2a0001);
	}
	/* §6.2: RDMA_MSGP and RDMA_DONE are gone, 6 on are not known */
	for (i = 0; i < 5; i++) {
		u32 htype[] = { 2, 3, 6, 0x100, 0xffffffff };

		spoil(g_msg_call, sizeof(g_msg_call), 3, htype[i]);
		refused(msg, sizeof(g_msg_call), -EOPNOTSUPP,
			RPCR2_ERR_INVAL_HTYPE, 0);
		/* the type is checked before the flags are read */
		refused(msg, 16, -EOPNOTSUPP, RPCR2_ERR_INVAL_HTYPE, 0);
	}
}

static void test_bad_flags(void)
{
	u32 f;

	/* §6.3.2: the reserved bits are zero */
	for (f = 0x4; f; f <<= 1) {
		spoil(g_msg_call, sizeof(g_msg_call), 4, f);
		refused(msg, sizeof(g_msg_call), -EINVAL,
			RPCR2_ERR_INVAL_FLAG, 0);
	}
	/* §6.3.2.2: RPCRDMA2_F_MORE on NOMSG */
	spoil(g_nomsg_reply, sizeof(g_nomsg_reply), 4, RPCR2_F_MORE);
	refused(msg, sizeof(g_nomsg_reply), -EINVAL, RPCR2_ERR_INVAL_FLAG, 0);
	/* ... and on a message with chunks */
	spoil(g_msg_read, sizeof(g_msg_read), 4, RPCR2_F_MORE);
	refused(msg, sizeof(g_msg_read), -EINVAL, RPCR2_ERR_INVAL_FLAG, 0);
	/* an ERROR with RPCRDMA2_F_MORE or without RPCRDMA2_F_RESPONSE
	 * (§6.3.2.1) is dropped: errors are not answered
	 */
	spoil(g_err_system, sizeof(g_err_system), 4, 0);
	refused(msg, sizeof(g_err_system), -EINVAL, 0, 0);
	spoil(g_err_system, sizeof(g_err_system), 4, 0x3);
	refused(msg, sizeof(g_err_system), -EINVAL, 0, 0);
	spoil(g_err_system, sizeof(g_err_system), 4, 0x11);
	refused(msg, sizeof(g_err_system), -EINVAL, 0, 0);
}

/* every golden cut short: BAD_XDR, never a read past the end (ASan) */
static void test_truncated(void)
{
	const struct {
		const u8 *g;
		size_t hlen;	/* the header, and for MSG one more byte */
	} t[] = {
		{ g_msg_read, sizeof(g_msg_read) - 3 },
		{ g_msg_write, sizeof(g_msg_write) - 3 },
		{ g_nomsg_call, sizeof(g_nomsg_call) },
		{ g_nomsg_reply, sizeof(g_nomsg_reply) },
		{ g_refresh, sizeof(g_refresh) },
		{ g_connprop, sizeof(g_connprop) },
		{ g_connprop_unknown, sizeof(g_connprop_unknown) },
	};
	unsigned int i;
	size_t n;
	u8 *m;

	for (i = 0; i < ARRAY_LEN(t); i++) {
		for (n = RPCR2_PREFIX_LEN; n < t[i].hlen; n++) {
			/* exact-size heap copy: ASan sees any overread */
			m = malloc(n);
			memcpy(m, t[i].g, n);
			refused(m, n, -EBADMSG, RPCR2_ERR_BAD_XDR, 0);
			free(m);
		}
	}
	/* §6.4.1: a MSG without the RPC message's first bytes */
	refused(g_msg_call, 36, -EBADMSG, RPCR2_ERR_BAD_XDR, 0);
	CHECK_EQ(rpcr2_hdr_decode(g_msg_call, 37, &h, &v), 36);
}

static void test_bad_lists(void)
{
	/* an optional-data word other than 0 or 1 */
	spoil(g_msg_read, sizeof(g_msg_read), 6, 2);
	refused(msg, sizeof(g_msg_read), -EBADMSG, RPCR2_ERR_BAD_XDR, 0);
	/* a Write chunk's count past the end of the message */
	spoil(g_msg_write, sizeof(g_msg_write), 8, 0x10000000);
	refused(msg, sizeof(g_msg_write), -EBADMSG, RPCR2_ERR_BAD_XDR, 0);
	spoil(g_msg_write, sizeof(g_msg_write), 8, 3);
	refused(msg, sizeof(g_msg_write) - 4, -EBADMSG, RPCR2_ERR_BAD_XDR, 0);
	/* the Reply chunk's */
	spoil(g_nomsg_reply, sizeof(g_nomsg_reply), 9, 2);
	refused(msg, sizeof(g_nomsg_reply), -EBADMSG, RPCR2_ERR_BAD_XDR, 0);
	/* a Read list that does not end */
	refused(g_msg_read, RPCR2_PREFIX_LEN + 4 + 24 + 4, -EBADMSG,
		RPCR2_ERR_BAD_XDR, 0);
}

/* a header of @n words in msg[]: the prefix of a Call, then @w */
static size_t build(const u32 *w, size_t n)
{
	u8 *p = msg;
	size_t i;

	p = rpcr_put32(p, 0x77);
	p = rpcr_put32(p, RPCR_VERSION_2);
	p = rpcr_put32(p, rpcr2_credit(1, 32));
	p = rpcr_put32(p, RPCR2_NOMSG);
	p = rpcr_put32(p, 0);
	for (i = 0; i < n; i++)
		p = rpcr_put32(p, w[i]);
	return (size_t)(p - msg);
}

static void test_limits(void)
{
	u32 w[1024];
	size_t n, i, j;

	/* §6.4.3 ERR_SEGMENTS: a Write chunk of 17 segments */
	n = 0;
	w[n++] = 0;	/* inv_handle */
	w[n++] = 0;	/* reads */
	w[n++] = 1;
	w[n++] = RPCR_MAX_CHUNK_SEGS + 1;
	for (i = 0; i < RPCR_MAX_CHUNK_SEGS + 1; i++) {
		w[n++] = 0x100 + i;
		w[n++] = 512;
		w[n++] = 0;
		w[n++] = 0x1000 * i;
	}
	w[n++] = 0;
	w[n++] = 0;
	refused(msg, build(w, n), -E2BIG, RPCR2_ERR_SEGMENTS,
		RPCR_MAX_CHUNK_SEGS);
	/* 16 are taken */
	w[3] = RPCR_MAX_CHUNK_SEGS;
	memmove(&w[4 + 4 * RPCR_MAX_CHUNK_SEGS],
		&w[4 + 4 * (RPCR_MAX_CHUNK_SEGS + 1)], 8);
	n -= 4;
	CHECK_EQ(rpcr2_hdr_decode(msg, build(w, n), &h, &v),
		 RPCR2_PREFIX_LEN + 4 * n);
	CHECK_EQ(h.base.writes[0].nsegs, RPCR_MAX_CHUNK_SEGS);
	/* a 17-segment count the message cannot hold is garbage */
	w[3] = RPCR_MAX_CHUNK_SEGS + 1;
	refused(msg, build(w, n), -EBADMSG, RPCR2_ERR_BAD_XDR, 0);

	/* ERR_WRITE_CHUNKS: five Write chunks of one segment */
	n = 0;
	w[n++] = 0;
	w[n++] = 0;
	for (i = 0; i < RPCR_MAX_WRITE_CHUNKS + 1; i++) {
		w[n++] = 1;
		w[n++] = 1;
		w[n++] = 0x200 + i;
		w[n++] = 4096;
		w[n++] = 0;
		w[n++] = 0;
	}
	w[n++] = 0;
	w[n++] = 0;
	refused(msg, build(w, n), -E2BIG, RPCR2_ERR_WRITE_CHUNKS,
		RPCR_MAX_WRITE_CHUNKS);
	/* ... but garbage after the limit is garbage */
	refused(msg, build(w, n - 3), -EBADMSG, RPCR2_ERR_BAD_XDR, 0);

	/* ERR_READ_CHUNKS: five Read chunks (positions) of one segment */
	n = 0;
	w[n++] = 0;
	for (i = 0; i < RPCR2_MAX_READ_CHUNKS + 1; i++) {
		w[n++] = 1;
		w[n++] = 8 * i;
		w[n++] = 0x300 + i;
		w[n++] = 4;
		w[n++] = 0;
		w[n++] = 0;
	}
	w[n++] = 0;
	w[n++] = 0;
	w[n++] = 0;
	refused(msg, build(w, n), -E2BIG, RPCR2_ERR_READ_CHUNKS,
		RPCR2_MAX_READ_CHUNKS);

	/* ERR_SEGMENTS: one Read chunk of 17 segments */
	n = 0;
	w[n++] = 0;
	for (i = 0; i < RPCR_MAX_READ_SEGS + 1; i++) {
		w[n++] = 1;
		w[n++] = 0;
		for (j = 0; j < 4; j++)
			w[n++] = 0x400 + i;
	}
	w[n++] = 0;
	w[n++] = 0;
	w[n++] = 0;
	refused(msg, build(w, n), -E2BIG, RPCR2_ERR_SEGMENTS,
		RPCR_MAX_READ_SEGS);

	/* the Reply chunk's segments */
	n = 0;
	w[n++] = 0;
	w[n++] = 0;
	w[n++] = 0;
	w[n++] = 1;
	w[n++] = RPCR_MAX_CHUNK_SEGS + 1;
	for (i = 0; i < 4 * (RPCR_MAX_CHUNK_SEGS + 1); i++)
		w[n++] = 0x500 + i;
	refused(msg, build(w, n), -E2BIG, RPCR2_ERR_SEGMENTS,
		RPCR_MAX_CHUNK_SEGS);
}

/* a CONNPROP of the words @w in msg[] */
static size_t build_props(const u32 *w, size_t n)
{
	size_t len = build(w, n);

	rpcr_put32(msg + 12, RPCR2_CONNPROP);
	return len;
}

static void test_bad_props(void)
{
	const u32 count_past[] = { 2, 1, 4, 4096 };
	const u32 len_past[] = { 1, 1, 8, 4096 };
	const u32 pad_past[] = { 1, 0x1000, 5, 0, 0 };
	const u32 short_u32[] = { 1, 3, 2, 0x00010000 };
	const u32 long_u32[] = { 1, 2, 8, 4096, 0 };
	const u32 auth_len[] = { 1, 6, 8, 5, 0x68656c6c };
	const u32 auth_short[] = { 1, 6, 2, 0 };
	const u32 auth_pad[] = { 1, 6, 12, 4, 0x68656c6c, 0 };
	const u32 unknown_ok[] = { 1, 0x1000, 5, 0, 0 };

	/* §5.1: a set or an rdma_data past the end of the message */
	refused(msg, build_props(count_past, 4), -EBADMSG,
		RPCR2_ERR_BAD_XDR, 0);
	refused(msg, build_props(len_past, 4), -EBADMSG,
		RPCR2_ERR_BAD_XDR, 0);
	/* an unknown id's data whose roundup is not there */
	refused(msg, build_props(pad_past, 4), -EBADMSG,
		RPCR2_ERR_BAD_XDR, 0);
	CHECK_EQ(rpcr2_hdr_decode(msg, build_props(unknown_ok, 5), &h, &v),
		 RPCR2_PREFIX_LEN + 20);
	CHECK_EQ(h.props.nunknown, 1);
	/* a known uint32 property of another length (§5.1) */
	refused(msg, build_props(short_u32, 4), -EBADMSG,
		RPCR2_ERR_BAD_XDR, 0);
	refused(msg, build_props(long_u32, 5), -EBADMSG,
		RPCR2_ERR_BAD_XDR, 0);
	/* a Host Auth Message whose opaque<> does not fill rdma_data */
	refused(msg, build_props(auth_len, 5), -EBADMSG,
		RPCR2_ERR_BAD_XDR, 0);
	refused(msg, build_props(auth_short, 4), -EBADMSG,
		RPCR2_ERR_BAD_XDR, 0);
	refused(msg, build_props(auth_pad, 6), -EBADMSG,
		RPCR2_ERR_BAD_XDR, 0);
	/* a CONNPROP without its set */
	refused(msg, build_props(NULL, 0), -EBADMSG, RPCR2_ERR_BAD_XDR, 0);
}

static void test_encode_refused(void)
{
	CHECK_EQ(rpcr2_hdr_decode(g_msg_write, sizeof(g_msg_write), &h, &v),
		 sizeof(g_msg_write) - 4);
	/* no room */
	CHECK_EQ(rpcr2_hdr_encode(&h, out, sizeof(g_msg_write) - 5),
		 -EMSGSIZE);
	/* what the decoder refuses the encoder does not make */
	q = h;
	q.flags = 0x4;
	CHECK_EQ(rpcr2_hdr_encode(&q, out, sizeof(out)), -EINVAL);
	q.flags = RPCR2_F_MORE;		/* with chunks */
	CHECK_EQ(rpcr2_hdr_encode(&q, out, sizeof(out)), -EINVAL);
	q = h;
	q.base.proc = 2;
	CHECK_EQ(rpcr2_hdr_len(&q), 0);
	q.base.proc = RPCR2_NOMSG;
	q.flags = RPCR2_F_MORE;
	CHECK_EQ(rpcr2_hdr_len(&q), 0);
	q = h;
	q.base.nwrites = RPCR_MAX_WRITE_CHUNKS + 1;
	CHECK_EQ(rpcr2_hdr_len(&q), 0);
	rpcr2_hdr_error(&q, 1, 1, &v);
	q.flags = 0;
	CHECK_EQ(rpcr2_hdr_len(&q), 0);
	memset(&q, 0, sizeof(q));
	q.base.vers = RPCR_VERSION_2;
	q.base.proc = RPCR2_CONNPROP;
	q.props.present = 1u << 7;
	CHECK_EQ(rpcr2_hdr_len(&q), 0);
	q.props.present = 1u << RPCR2_PROP_HOSTAUTH;
	q.props.hostauth_len = 3;
	CHECK_EQ(rpcr2_hdr_len(&q), 0);
	q.props.hostauth = (const u8 *)"abc";
	CHECK_EQ(rpcr2_hdr_len(&q), RPCR2_PREFIX_LEN + 4 + 8 + 8);
	CHECK_EQ(rpcr2_hdr_encode(&q, out, sizeof(out)),
		 RPCR2_PREFIX_LEN + 20);
	/* the roundup is zero */
	CHECK_EQ(out[RPCR2_PREFIX_LEN + 19], 0);
}

/* RFC 8166 §4.5: what Linux's knfsd (version 1 only) answers a
 * version 2 call with: ERR_VERS in version 1's layout, 28 bytes
 */
static const u8 g_v1_err_vers[] = {
	0x2a, 0x2a, 0x00, 0x01,	/* rdma_xid: the call's */
	0x00, 0x00, 0x00, 0x01,	/* rdma_vers: 1 */
	0x00, 0x00, 0x00, 0x20,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x04,	/* rdma_proc: RDMA_ERROR */
	0x00, 0x00, 0x00, 0x01,	/* rdma_err: ERR_VERS */
	0x00, 0x00, 0x00, 0x01,	/* rdma_vers_low */
	0x00, 0x00, 0x00, 0x01,	/* rdma_vers_high */
};

/* What Linux's svcrdma (6.1) really sends: the call's first two words
 * copied, so version 2's word, then version 1's error body
 */
static const u8 g_linux_err_vers[] = {
	0x2a, 0x2a, 0x00, 0x01,	/* rdma_xid: the call's */
	0x00, 0x00, 0x00, 0x02,	/* rdma_vers: the call's, 2 */
	0x00, 0x00, 0x00, 0x20,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x04,	/* rdma_proc: RDMA_ERROR */
	0x00, 0x00, 0x00, 0x01,	/* rdma_err: ERR_VERS */
	0x00, 0x00, 0x00, 0x01,	/* rdma_vers_low */
	0x00, 0x00, 0x00, 0x01,	/* rdma_vers_high */
};

/* RFC 8166 §4.2: a version 1 RDMA_MSG without chunks, and its call */
static const u8 g_v1_msg[] = {
	0x00, 0x00, 0x01, 0x02,	/* rdma_xid */
	0x00, 0x00, 0x00, 0x01,	/* rdma_vers: 1 */
	0x00, 0x00, 0x00, 0x20,	/* rdma_credit */
	0x00, 0x00, 0x00, 0x00,	/* rdma_proc: RDMA_MSG */
	0x00, 0x00, 0x00, 0x00,	/* rdma_reads */
	0x00, 0x00, 0x00, 0x00,	/* rdma_writes */
	0x00, 0x00, 0x00, 0x00,	/* rdma_reply */
	0x00, 0x00, 0x01, 0x02,	/* RPC: xid */
	0x00, 0x00, 0x00, 0x00,	/* RPC: CALL */
};

/* §4.3.3: the version word picks the rules; a peer of a version not
 * spoken gets ERR_VERS 1 to 2 in version 1's layout
 */
static void test_any_version(void)
{
	struct rpcr2_err e = { };
	u32 lo = 0, hi = 0;

	/* version 1: decoded into base, as rpcr_hdr_decode() would */
	CHECK_EQ(rpcr_msg_decode(g_v1_msg, sizeof(g_v1_msg), &h, &v), 28);
	CHECK_EQ(v.code, 0);
	CHECK_EQ(h.base.vers, RPCR_VERSION_1);
	CHECK_EQ(h.base.xid, 0x102);
	CHECK_EQ(h.flags, 0);
	CHECK_EQ(rpcr_msg_check(&h, true, &v), 0);
	CHECK_EQ(rpcr_msg_len(&h), 28);
	CHECK_EQ(rpcr_msg_encode(&h, out, sizeof(out)), 28);
	CHECK(!memcmp(out, g_v1_msg, 28));
	CHECK(!rpcr_msg_err_vers(&h, &lo, &hi));
	/* version 2 as rpcr2_hdr_decode() has it */
	CHECK_EQ(rpcr_msg_decode(g_msg_call, sizeof(g_msg_call), &h, &v), 36);
	CHECK_EQ(h.base.vers, RPCR_VERSION_2);
	CHECK_EQ(rpcr_msg_check(&h, true, &v), 0);
	CHECK_EQ(rpcr_msg_len(&h), 36);
	CHECK_EQ(rpcr_msg_encode(&h, out, sizeof(out)), 36);
	CHECK(!memcmp(out, g_msg_call, 36));
	/* version 3: ERR_VERS 1..2, answered in version 1's layout */
	spoil(g_v1_msg, sizeof(g_v1_msg), 1, 3);
	CHECK_EQ(rpcr_msg_decode(msg, sizeof(g_v1_msg), &h, &v),
		 -EPROTONOSUPPORT);
	CHECK_EQ(v.code, RPCR_ERR_VERS);
	CHECK_EQ(v.vers_low, 1);
	CHECK_EQ(v.vers_high, 2);
	rpcr_msg_error(&q, h.base.vers, h.base.xid, 0x20, &v);
	CHECK_EQ(rpcr_msg_encode(&q, out, sizeof(out)), RPCR_ERR_VERS_LEN);
	CHECK_EQ(out[7], 1);		/* rdma_vers */
	CHECK_EQ(out[27], 2);		/* rdma_vers_high */
	CHECK(!memcmp(out, g_v1_msg, 4));
	/* fewer than the four fixed words: no XID to answer */
	CHECK_EQ(rpcr_msg_decode(g_v1_msg, 15, &h, &v), -EMSGSIZE);
	CHECK_EQ(v.code, 0);
	/* a version 1 header cut short: ERR_CHUNK in version 1 */
	CHECK_EQ(rpcr_msg_decode(g_v1_msg, 24, &h, &v), -EBADMSG);
	CHECK_EQ(v.code, RPCR_ERR_CHUNK);
	rpcr_msg_error(&q, RPCR_VERSION_1, h.base.xid, 0x20, &v);
	CHECK_EQ(rpcr_msg_encode(&q, out, sizeof(out)), RPCR_ERR_CHUNK_LEN);
	/* version 2's errors but ERR_VERS have no version 1 code but one */
	e.code = RPCR2_ERR_REPLY_RESOURCE;
	e.length_needed = 70000;
	rpcr_msg_error(&q, RPCR_VERSION_1, 7, 0x20, &e);
	CHECK_EQ(q.base.err, RPCR_ERR_CHUNK);
	rpcr_msg_error(&q, RPCR_VERSION_2, 7, 0x00200020, &e);
	CHECK_EQ(rpcr_msg_len(&q), RPCR2_ERR_LEN + 4);
	CHECK_EQ(q.flags, RPCR2_F_RESPONSE);
	/* ERR_VERS of either layout names the range */
	CHECK_EQ(rpcr_msg_decode(g_v1_err_vers, sizeof(g_v1_err_vers), &h, &v),
		 28);
	CHECK_EQ(rpcr_msg_check(&h, false, &v), 0);
	CHECK(rpcr_msg_err_vers(&h, &lo, &hi));
	CHECK_EQ(lo, 1);
	CHECK_EQ(hi, 1);
	/* as Linux sends it: version 2's word on version 1's layout */
	CHECK_EQ(rpcr_msg_decode(g_linux_err_vers, sizeof(g_linux_err_vers),
				 &h, &v), 28);
	CHECK_EQ(h.base.vers, RPCR_VERSION_1);
	CHECK_EQ(h.base.xid, 0x2a2a0001);
	CHECK_EQ(rpcr_msg_check(&h, false, &v), 0);
	CHECK(rpcr_msg_err_vers(&h, &lo, &hi));
	CHECK_EQ(lo, 1);
	CHECK_EQ(hi, 1);
	/* as a version 2 header it ends early, and is dropped */
	CHECK_EQ(rpcr2_hdr_decode(g_linux_err_vers, sizeof(g_linux_err_vers),
				  &h, &v), -EBADMSG);
	CHECK_EQ(v.code, 0);
	/* not when its range is upside down, nor when it is longer */
	spoil(g_linux_err_vers, sizeof(g_linux_err_vers), 5, 8);
	CHECK_EQ(rpcr_msg_decode(msg, sizeof(g_linux_err_vers), &h, &v),
		 -EBADMSG);
	memcpy(msg, g_linux_err_vers, sizeof(g_linux_err_vers));
	CHECK_EQ(rpcr_msg_decode(msg, sizeof(g_linux_err_vers) + 4, &h, &v),
		 sizeof(g_linux_err_vers) + 4);
	CHECK_EQ(h.base.vers, RPCR_VERSION_2);
	CHECK_EQ(h.error.code, RPCR2_ERR_VERS);
	/* an error is never answered: no verdict for one that is wrong */
	CHECK_EQ(rpcr_msg_check(&h, true, &v), -EBADMSG);
	CHECK_EQ(v.code, 0);
	CHECK_EQ(rpcr_msg_decode(g_err_vers, sizeof(g_err_vers), &h, &v),
		 sizeof(g_err_vers));
	CHECK(rpcr_msg_err_vers(&h, &lo, &hi));
	CHECK_EQ(lo, 1);
	CHECK_EQ(hi, 2);
	CHECK_EQ(rpcr_msg_decode(g_err_bad_xdr, sizeof(g_err_bad_xdr), &h, &v),
		 sizeof(g_err_bad_xdr));
	CHECK(!rpcr_msg_err_vers(&h, &lo, &hi));
	/* a version 1 MSGP decodes, and is refused (RFC 8166 §4.2.4) */
	spoil(g_v1_msg, sizeof(g_v1_msg), 3, RPCR_MSGP);
	CHECK(rpcr_msg_decode(msg, sizeof(g_v1_msg), &h, &v) < 0 ||
	      rpcr_msg_check(&h, true, &v) == -EBADMSG);
}

/* Every length up to 20 rooms, split as the client does: the count
 * rpcr2_more_sends() gives, each Send but the last from
 * rpcr2_more_take(), the last the rest; each carries 1 byte to its room
 */
static void split_walk(u32 room_more, u32 room_last)
{
	u32 len, left, n, i, take;

	for (len = 1; len <= 20 * room_more; len++) {
		n = rpcr2_more_sends(len, room_more, room_last);
		CHECK(n >= 1);
		left = len;
		for (i = 0; i + 1 < n; i++) {
			take = rpcr2_more_take(left, room_more);
			CHECK(take >= 1 && take <= room_more);
			left -= take;
		}
		CHECK(left >= 1 && left <= room_last);
		if (left < 1 || left > room_last) {
			fprintf(stderr, "# len %u: %u Sends, last %u\n", len, n,
				left);
			return;
		}
	}
}

/* §6.3.2.2: a message continued in the next ones: the flag read from
 * the prefix alone, every later message checked against the first, and
 * the Sends a payload takes
 */
static void test_continuation(void)
{
	struct rpcr2_hdr first;

	CHECK(rpcr2_peek_more(g_msg_more, sizeof(g_msg_more)));
	CHECK(!rpcr2_peek_more(g_msg_call, sizeof(g_msg_call)));
	CHECK(!rpcr2_peek_more(g_msg_reply, sizeof(g_msg_reply)));
	/* the prefix only: shorter than five words, no flag to read */
	CHECK(rpcr2_peek_more(g_msg_more, RPCR2_PREFIX_LEN));
	CHECK(!rpcr2_peek_more(g_msg_more, RPCR2_PREFIX_LEN - 1));
	/* the flag's bit in version 1's words is no flag */
	spoil(g_msg_more, sizeof(g_msg_more), 1, RPCR_VERSION_1);
	CHECK(!rpcr2_peek_more(msg, sizeof(g_msg_more)));
	spoil(g_msg_more, sizeof(g_msg_more), 4,
	      RPCR2_F_MORE | RPCR2_F_RESPONSE);
	CHECK(rpcr2_peek_more(msg, sizeof(g_msg_more)));

	/* the next message of the same XID and type belongs */
	CHECK_EQ(rpcr2_hdr_decode(g_msg_more, sizeof(g_msg_more), &first, &v),
		 RPCR2_MORE_HDR_LEN);
	spoil(g_msg_call, sizeof(g_msg_call), 0, 0x2a2a0002);
	CHECK_EQ(rpcr2_hdr_decode(msg, sizeof(g_msg_call), &h, &v), 36);
	CHECK_EQ(rpcr2_more_check(&first, &h, &v), 0);
	CHECK_EQ(v.code, 0);
	/* the last one may carry chunks */
	spoil(g_msg_read, sizeof(g_msg_read), 0, 0x2a2a0002);
	CHECK(rpcr2_hdr_decode(msg, sizeof(g_msg_read), &h, &v) > 0);
	CHECK_EQ(rpcr2_more_check(&first, &h, &v), 0);
	/* another XID: ERR_INVAL_FLAG */
	CHECK_EQ(rpcr2_hdr_decode(g_msg_call, sizeof(g_msg_call), &h, &v), 36);
	CHECK_EQ(rpcr2_more_check(&first, &h, &v), -EINVAL);
	CHECK_EQ(v.code, RPCR2_ERR_INVAL_FLAG);
	/* another type: a credit refresh in between */
	CHECK_EQ(rpcr2_hdr_decode(g_refresh, sizeof(g_refresh), &h, &v),
		 RPCR2_NOMSG_MIN_LEN);
	h.base.xid = first.base.xid;
	CHECK_EQ(rpcr2_more_check(&first, &h, &v), -EINVAL);
	CHECK_EQ(v.code, RPCR2_ERR_INVAL_FLAG);
	/* version 1 in between */
	h = first;
	h.base.vers = RPCR_VERSION_1;
	CHECK_EQ(rpcr2_more_check(&first, &h, &v), -EINVAL);
	/* continued properties are not joined */
	CHECK(rpcr2_hdr_decode(g_connprop, sizeof(g_connprop), &h, &v) > 0);
	CHECK_EQ(rpcr2_more_check(&h, &h, &v), -EINVAL);

	/* Sends: full ones with F_MORE, then the last with the chunks */
	CHECK_EQ(rpcr2_more_sends(0, 4060, 4000), 1);
	CHECK_EQ(rpcr2_more_sends(4000, 4060, 4000), 1);
	CHECK_EQ(rpcr2_more_sends(4001, 4060, 4000), 2);
	CHECK_EQ(rpcr2_more_sends(8060, 4060, 4000), 2);
	CHECK_EQ(rpcr2_more_sends(8061, 4060, 4000), 3);
	CHECK_EQ(rpcr2_more_sends(4001, 0, 4000), 0);
	CHECK_EQ(rpcr2_more_sends(0xffffffff, 1, 0), 0);
	CHECK_EQ(rpcr2_more_sends(0xffffffff, 1, 1), 0xffffffff);
	CHECK_EQ(RPCR2_MORE_HDR_LEN, 36);
	/* a reply's Sends: as many as its call granted, 16 at most */
	CHECK_EQ(rpcr2_more_granted(4000, 4060, 4000, rpcr2_credit(16, 40)),
		 0);
	CHECK_EQ(rpcr2_more_granted(4001, 4060, 4000, rpcr2_credit(1, 40)),
		 0);
	CHECK_EQ(rpcr2_more_granted(4001, 4060, 4000, rpcr2_credit(2, 40)),
		 2);
	CHECK_EQ(rpcr2_more_granted(8061, 4060, 4000, rpcr2_credit(2, 40)),
		 0);
	CHECK_EQ(rpcr2_more_granted(8061, 4060, 4000, rpcr2_credit(3, 3)), 3);
	/* the high half grants nothing */
	CHECK_EQ(rpcr2_more_granted(4001, 4060, 4000, rpcr2_credit(0, 40)),
		 0);
	CHECK_EQ(rpcr2_more_granted(4001, 4060, 4000, 0xffff0001), 0);
	/* 16 at most, whatever is granted */
	CHECK_EQ(rpcr2_more_granted(16 * 4060, 4060, 4060, 0xffff), 16);
	CHECK_EQ(rpcr2_more_granted(16 * 4060 + 1, 4060, 4060, 0xffff), 0);
	CHECK_EQ(rpcr2_more_granted(4001, 0, 4000, 0xffff), 0);
	CHECK_EQ(rpcr2_more_granted(0xffffffff, 1, 1, 0xffff), 0);

	/* the last Send keeps a byte at least */
	CHECK_EQ(rpcr2_more_take(8000, 4060), 4060);
	CHECK_EQ(rpcr2_more_take(4061, 4060), 4060);
	CHECK_EQ(rpcr2_more_take(4060, 4060), 4059);
	CHECK_EQ(rpcr2_more_take(2, 4060), 1);
	split_walk(4060, 4000);
	split_walk(4060, 3900);
	split_walk(100, 4000);
	split_walk(1, 1);

	/* the header of a Send with more to come: the golden's */
	memset(out, 0xee, sizeof(out));
	CHECK_EQ(rpcr2_more_encode(0x2a2a0002, 0x00800020, 0, out,
				   sizeof(out)), RPCR2_MORE_HDR_LEN);
	CHECK(!memcmp(out, g_msg_more, RPCR2_MORE_HDR_LEN));
	CHECK_EQ(out[RPCR2_MORE_HDR_LEN], 0xee);
	/* of a reply's part, both flags */
	CHECK_EQ(rpcr2_more_encode(1, 2, RPCR2_F_RESPONSE, out, sizeof(out)),
		 RPCR2_MORE_HDR_LEN);
	CHECK_EQ(rpcr2_hdr_decode(out, RPCR2_MORE_HDR_LEN + 4, &h, &v),
		 RPCR2_MORE_HDR_LEN);
	CHECK_EQ(h.flags, RPCR2_F_RESPONSE | RPCR2_F_MORE);
	CHECK_EQ(h.base.xid, 1);
	CHECK_EQ(h.base.credit, 2);
	CHECK(rpcr2_peek_more(out, RPCR2_MORE_HDR_LEN));
	/* other flags are not ours to set */
	CHECK_EQ(rpcr2_more_encode(1, 2, 0x80, out, sizeof(out)),
		 RPCR2_MORE_HDR_LEN);
	CHECK_EQ(rpcr2_hdr_decode(out, RPCR2_MORE_HDR_LEN + 4, &h, &v),
		 RPCR2_MORE_HDR_LEN);
	CHECK_EQ(h.flags, RPCR2_F_MORE);
	CHECK_EQ(rpcr2_more_encode(1, 2, 0, out, RPCR2_MORE_HDR_LEN - 1),
		 -EMSGSIZE);
}

static const struct wire_test tests[] = {
	{ "prefix", test_prefix },
	{ "credit", test_credit },
	{ "flags", test_flags },
	{ "msg_read", test_msg_read },
	{ "msg_write", test_msg_write },
	{ "nomsg", test_nomsg },
	{ "refresh", test_refresh },
	{ "refresh_wire", test_refresh_wire },
	{ "errors", test_errors },
	{ "connprop", test_connprop },
	{ "connprop_unknown", test_connprop_unknown },
	{ "prop_defaults", test_prop_defaults },
	{ "connprop_encode", test_connprop_encode },
	{ "props_effective", test_props_effective },
	{ "bad_prefix", test_bad_prefix },
	{ "bad_flags", test_bad_flags },
	{ "truncated", test_truncated },
	{ "bad_lists", test_bad_lists },
	{ "limits", test_limits },
	{ "bad_props", test_bad_props },
	{ "encode_refused", test_encode_refused },
	{ "any_version", test_any_version },
	{ "continuation", test_continuation },
};

int main(int argc, char **argv)
{
	return wire_test_main(argc, argv, tests, ARRAY_LEN(tests),
			      seeds, ARRAY_LEN(seeds));
}
