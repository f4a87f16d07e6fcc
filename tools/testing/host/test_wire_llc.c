// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the smcr LLC wire format (net/smc/smcr_wire_llc.c).
 *
 * Golden byte arrays below are written by hand from the message diagrams
 * of RFC 7609 Appendix A.3, with the offsets cross-checked against the
 * Linux 6.1 peer (ADD LINK: two reserved bytes after the MAC; CONFIRM
 * LINK: flags 0x03 and max links 2 as Linux sends them).  The SMC-Rv2
 * goldens are laid out as Linux 6.1 sends them in an SMC-Rv2 link group
 * from x86: LLC version 2 in the high nibble of byte 0, a little-endian
 * length in bytes 1..2.
 * Output is TAP version 13; the exit status is non-zero on any failure.
 *
 * With "--write-corpus DIR" the program instead writes the golden
 * messages into DIR as seeds for the fuzzer.
 */
#include "smcr_wire_llc.h"
#include "wire_test.h"

/* CONFIRM LINK request as the Linux server sends it */
static const u8 golden_confirm_link[SMCR_LLC_MSG_LEN] = {
	0x01, 0x2c, 0x00, 0x03,		/* type, length, rsvd, no eyecatcher */
	0x02, 0x11, 0x22, 0x33, 0x44, 0x55, /* MAC */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* GID */
	0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55,
	0x01, 0x02, 0x03,		/* QP number */
	0x01,				/* link number */
	0xa0, 0xb0, 0xc0, 0xd1,		/* link user id */
	0x02,				/* max links */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* reserved */
};

/* ADD LINK request, Linux layout */
static const u8 golden_add_link[SMCR_LLC_MSG_LEN] = {
	0x02, 0x2c, 0x00, 0x00,		/* type, length, rsn 0, request */
	0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, /* MAC */
	0x00, 0x00,			/* reserved (Linux) */
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, /* GID */
	0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
	0xab, 0xcd, 0xef,		/* QP number */
	0x02,				/* link number */
	0x05,				/* MTU 4096 */
	0x12, 0x34, 0x56,		/* initial PSN */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* reserved */
};

/* ADD LINK reply rejecting with "no alternate path", as Linux sends it */
static const u8 golden_add_link_rej[SMCR_LLC_MSG_LEN] = {
	0x02, 0x2c, 0x01, 0xc0,		/* rsn 1, reply + reject */
	0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, /* MAC */
	0x00, 0x00,			/* reserved (Linux) */
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, /* GID */
	0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
	0xab, 0xcd, 0xef,		/* QP number */
	0x02,				/* link number */
	0x05,				/* MTU 4096 */
	0x12, 0x34, 0x56,		/* initial PSN */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* reserved */
};

static const u8 golden_add_link_cont[SMCR_LLC_MSG_LEN] = {
	0x03, 0x2c, 0x00, 0x80,		/* reply */
	0x02,				/* link number */
	0x03,				/* three RTokens to go */
	0x00, 0x00,			/* reserved */
	0x11, 0x22, 0x33, 0x44,		/* pair 1: reference rkey */
	0x55, 0x66, 0x77, 0x88,		/* new rkey */
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, /* new vaddr */
	0x99, 0xaa, 0xbb, 0xcc,		/* pair 2 */
	0xdd, 0xee, 0xff, 0x00,
	0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80,
	0x00, 0x00, 0x00, 0x00,		/* reserved */
};

static const u8 golden_delete_link[SMCR_LLC_MSG_LEN] = {
	0x04, 0x2c, 0x00, 0x20,		/* orderly */
	0x03,				/* link number */
	0x00, 0x05, 0x00, 0x00,		/* reason: asym. no longer needed */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00,
};

static const u8 golden_confirm_rkey[SMCR_LLC_MSG_LEN] = {
	0x06, 0x2c, 0x00, 0x00,		/* request */
	0x02,				/* two other links */
	0xc1, 0xc2, 0xc3, 0xc4,		/* rkey on this link */
	0x00, 0x00, 0x7f, 0x12, 0x34, 0x56, 0x78, 0x00, /* vaddr */
	0x02,				/* other 1: link number */
	0xd1, 0xd2, 0xd3, 0xd4,
	0x00, 0x00, 0x7f, 0x9a, 0xbc, 0xde, 0xf0, 0x00,
	0x03,				/* other 2: link number */
	0xe1, 0xe2, 0xe3, 0xe4,
	0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
	0x00,				/* reserved */
};

static const u8 golden_confirm_rkey_cont[SMCR_LLC_MSG_LEN] = {
	0x08, 0x2c, 0x00, 0xa0,		/* reply, negative */
	0x03,				/* three left */
	0x04, 0x41, 0x42, 0x43, 0x44,	/* entry 1 */
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x05, 0x51, 0x52, 0x53, 0x54,	/* entry 2 */
	0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
	0x06, 0x61, 0x62, 0x63, 0x64,	/* entry 3 */
	0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
};

static const u8 golden_delete_rkey[SMCR_LLC_MSG_LEN] = {
	0x09, 0x2c, 0x00, 0xa0,		/* reply, negative */
	0x03,				/* count */
	0x40,				/* second rkey unknown */
	0x00, 0x00,			/* reserved */
	0x01, 0x02, 0x03, 0x04,
	0xf1, 0xf2, 0xf3, 0xf4,
	0x7a, 0x7b, 0x7c, 0x7d,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
					/* rkeys 4..8 */
	0x00, 0x00, 0x00, 0x00,		/* reserved */
};

static const u8 golden_test_link[SMCR_LLC_MSG_LEN] = {
	0x07, 0x2c, 0x00, 0x80,		/* reply */
	0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, /* user data */
	0x78, 0x79, 0x7a, 0x7b, 0x7c, 0x7d, 0x7e, 0x7f,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* reserved */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* SMC-Rv2: CONFIRM LINK request of the server */
static const u8 golden_v2_confirm_link[SMCR_LLC_MSG_LEN] = {
	0x21, 0x2c, 0x00, 0x03,		/* v2 type, length 44 LE, flags */
	0x02, 0x11, 0x22, 0x33, 0x44, 0x55, /* MAC */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* GID */
	0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55,
	0x01, 0x02, 0x03,		/* QP number */
	0x01,				/* link number */
	0xa0, 0xb0, 0xc0, 0xd1,		/* link user id */
	0x02,				/* max links */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* reserved */
};

/* SMC-Rv2: the client's CONFIRM LINK response */
static const u8 golden_v2_confirm_link_resp[SMCR_LLC_MSG_LEN] = {
	0x21, 0x2c, 0x00, 0x83,		/* reply, no eyecatcher */
	0x02, 0x66, 0x77, 0x88, 0x99, 0xaa, /* MAC */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* GID */
	0x02, 0x66, 0x77, 0xff, 0xfe, 0x88, 0x99, 0xaa,
	0x00, 0x00, 0x11,		/* QP number */
	0x01,				/* link number, echoed */
	0x5e, 0x6f, 0x70, 0x81,		/* link user id */
	0x02,				/* max links */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* reserved */
};

/* SMC-Rv2: TEST LINK request */
static const u8 golden_v2_test_link[SMCR_LLC_MSG_LEN] = {
	0x27, 0x2c, 0x00, 0x00,		/* request */
	0x3c, 0x0d, 0xf2, 0x91, 0x5a, 0x00, 0x7e, 0x13, /* user data */
	0xc4, 0x28, 0xb6, 0x01, 0x99, 0xe5, 0x40, 0x6d,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* reserved */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* SMC-Rv2: DELETE LINK of the whole group, orderly */
static const u8 golden_v2_delete_link[SMCR_LLC_MSG_LEN] = {
	0x24, 0x2c, 0x00, 0x60,		/* all, orderly */
	0x00,				/* link number: none with all */
	0x00, 0x03, 0x00, 0x00,		/* reason: program initiated */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00,
};

/* SMC-Rv2: CONFIRM RKEY response, the request echoed with R set */
static const u8 golden_v2_confirm_rkey_resp[SMCR_LLC_MSG_LEN] = {
	0x26, 0x2c, 0x00, 0x80,		/* reply */
	0x01,				/* one other link */
	0x00, 0x01, 0x8a, 0x2f,		/* rkey on this link */
	0x00, 0x00, 0x00, 0x01, 0x3c, 0x48, 0x00, 0x00, /* vaddr */
	0x02,				/* other: link number */
	0x00, 0x02, 0x91, 0x07,
	0x00, 0x00, 0x00, 0x01, 0x3c, 0x48, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* unused */
	0x00, 0x00, 0x00, 0x00,
	0x00,				/* reserved */
};

/* SMC-Rv2: DELETE RKEY request, one RKey, 44 bytes as Linux sends it */
static const u8 golden_v2_delete_rkey[SMCR_LLC_MSG_LEN] = {
	0x29, 0x2c, 0x00, 0x00,		/* request */
	0x01,				/* num_rkeys */
	0x00,				/* num_inval_rkeys */
	0x00, 0x00,			/* reserved */
	0x00, 0x01, 0x8a, 0x2f,		/* rkey */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
};

/* SMC-Rv2: ADD LINK reject, the request echoed: length 44, no reason */
static const u8 golden_v2_add_link_rej[SMCR_LLC_MSG_LEN] = {
	0x22, 0x2c, 0x00, 0xc0,		/* reply + reject */
	0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, /* MAC */
	0x00, 0x00,			/* reserved (Linux) */
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, /* GID */
	0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
	0xab, 0xcd, 0xef,		/* QP number */
	0x02,				/* link number */
	0x05,				/* MTU 4096 */
	0x12, 0x34, 0x56,		/* initial PSN */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* reserved */
};

/* SMC-Rv2: ADD LINK request with its extension, one RKey pair: 88 */
#define GOLDEN_V2_ADD_LINK_LEN	88
static const u8 golden_v2_add_link[GOLDEN_V2_ADD_LINK_LEN] = {
	0x22, 0x58, 0x00, 0x00,		/* request, length 88 LE */
	0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, /* MAC */
	0x00, 0x00,			/* reserved (Linux) */
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, /* GID */
	0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
	0xab, 0xcd, 0xef,		/* QP number */
	0x02,				/* link number */
	0x05,				/* MTU 4096 */
	0x12, 0x34, 0x56,		/* initial PSN */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* reserved */
	/* extension (smcr_llc_add_link_ext_*) */
	0x80,				/* direct */
	0x00,				/* reserved */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* target GID */
	0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* reserved */
	0x01, 0x00,			/* one RKey pair, LE as well */
	0x00, 0x01, 0x8a, 0x2f,		/* rkey on this link */
	0x00, 0x03, 0x10, 0x44,		/* rkey on the new link */
	0x00, 0x00, 0x00, 0x01, 0x3c, 0x48, 0x00, 0x00, /* vaddr */
};

/* SMC-Rv2: REQUEST ADD LINK offering two GIDs, 28 + 2 * 16 bytes */
#define GOLDEN_V2_REQ_ADD_LINK_LEN	60
static const u8 golden_v2_req_add_link[GOLDEN_V2_REQ_ADD_LINK_LEN] = {
	0x25, 0x3c, 0x00, 0x00,		/* request, length 60 LE */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
					/* reserved */
	0x02,				/* GID count */
	0x00, 0x00, 0x00,		/* reserved */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* GID 1 */
	0x02, 0x66, 0x77, 0xff, 0xfe, 0x88, 0x99, 0xaa,
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* GID 2 */
	0x02, 0x66, 0x77, 0xff, 0xfe, 0x88, 0x99, 0xab,
};

static const struct wire_seed goldens[] = {
	{ "confirm_link", golden_confirm_link, SMCR_LLC_MSG_LEN },
	{ "add_link", golden_add_link, SMCR_LLC_MSG_LEN },
	{ "add_link_rej", golden_add_link_rej, SMCR_LLC_MSG_LEN },
	{ "add_link_cont", golden_add_link_cont, SMCR_LLC_MSG_LEN },
	{ "delete_link", golden_delete_link, SMCR_LLC_MSG_LEN },
	{ "confirm_rkey", golden_confirm_rkey, SMCR_LLC_MSG_LEN },
	{ "confirm_rkey_cont", golden_confirm_rkey_cont, SMCR_LLC_MSG_LEN },
	{ "delete_rkey", golden_delete_rkey, SMCR_LLC_MSG_LEN },
	{ "test_link", golden_test_link, SMCR_LLC_MSG_LEN },
	{ "v2_confirm_link", golden_v2_confirm_link, SMCR_LLC_MSG_LEN },
	{ "v2_confirm_link_resp", golden_v2_confirm_link_resp,
	  SMCR_LLC_MSG_LEN },
	{ "v2_test_link", golden_v2_test_link, SMCR_LLC_MSG_LEN },
	{ "v2_delete_link", golden_v2_delete_link, SMCR_LLC_MSG_LEN },
	{ "v2_confirm_rkey_resp", golden_v2_confirm_rkey_resp,
	  SMCR_LLC_MSG_LEN },
	{ "v2_delete_rkey", golden_v2_delete_rkey, SMCR_LLC_MSG_LEN },
	{ "v2_add_link_rej", golden_v2_add_link_rej, SMCR_LLC_MSG_LEN },
	{ "v2_add_link", golden_v2_add_link, GOLDEN_V2_ADD_LINK_LEN },
	{ "v2_req_add_link", golden_v2_req_add_link,
	  GOLDEN_V2_REQ_ADD_LINK_LEN },
};

static void fill_seq(u8 *dst, size_t n, u8 first)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = (u8)(first + i);
}

/* encode @m with the dispatcher, compare with @golden, decode it back */
static void check_golden(const struct smcr_llc_msg *m, const u8 *golden)
{
	struct smcr_llc_msg d;
	u8 b[64];

	memset(b, 0x5a, sizeof(b));
	CHECK_EQ(smcr_llc_encode(m, b, sizeof(b)), SMCR_LLC_MSG_LEN);
	CHECK(!memcmp(b, golden, SMCR_LLC_MSG_LEN));
	CHECK_EQ(b[SMCR_LLC_MSG_LEN], 0x5a);	/* nothing written past */
	CHECK_EQ(smcr_llc_decode(golden, SMCR_LLC_MSG_LEN, &d), 0);
	CHECK(!memcmp(&d, m, sizeof(d)));
}

static void golden_confirm_link_struct(struct smcr_llc_msg *m)
{
	struct smcr_llc_confirm_link *c = &m->u.confirm_link;
	static const u8 gid[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11,
				    0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 };
	static const u8 mac[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	static const u8 uid[4] = { 0xa0, 0xb0, 0xc0, 0xd1 };

	memset(m, 0, sizeof(*m));
	m->type = SMCR_LLC_TYPE_CONFIRM_LINK;
	c->no_rmbe_eyec = true;
	memcpy(c->mac, mac, 6);
	memcpy(c->gid, gid, 16);
	c->qpn = 0x010203;
	c->link_num = 1;
	memcpy(c->link_uid, uid, 4);
	c->max_links = SMCR_LLC_MAX_LINKS_LINUX;
}

static void golden_add_link_struct(struct smcr_llc_msg *m, bool rej)
{
	struct smcr_llc_add_link *a = &m->u.add_link;

	memset(m, 0, sizeof(*m));
	m->type = SMCR_LLC_TYPE_ADD_LINK;
	if (rej) {
		a->resp = true;
		a->reject = true;
		a->rej_rsn = SMCR_LLC_REJ_RSN_NO_ALT_PATH;
	}
	fill_seq(a->mac, 6, 0x0a);
	fill_seq(a->gid, 16, 0x20);
	a->qpn = 0xabcdef;
	a->link_num = 2;
	a->qp_mtu = 5;
	a->psn = 0x123456;
}

static void golden_add_link_cont_struct(struct smcr_llc_msg *m)
{
	struct smcr_llc_add_link_cont *a = &m->u.add_link_cont;

	memset(m, 0, sizeof(*m));
	m->type = SMCR_LLC_TYPE_ADD_LINK_CONT;
	a->resp = true;
	a->link_num = 2;
	a->num_rkeys = 3;
	a->pairs[0].ref_rkey = 0x11223344;
	a->pairs[0].new_rkey = 0x55667788;
	a->pairs[0].new_vaddr = 0x0102030405060708ULL;
	a->pairs[1].ref_rkey = 0x99aabbcc;
	a->pairs[1].new_rkey = 0xddeeff00;
	a->pairs[1].new_vaddr = 0x1020304050607080ULL;
}

static void golden_delete_link_struct(struct smcr_llc_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->type = SMCR_LLC_TYPE_DELETE_LINK;
	m->u.delete_link.orderly = true;
	m->u.delete_link.link_num = 3;
	m->u.delete_link.reason = SMCR_LLC_DEL_NO_ASYM_NEEDED;
}

static void set_rtoken(struct smcr_llc_rtoken *t, u8 link_num, u32 rkey,
		       u64 vaddr)
{
	t->link_num = link_num;
	t->rkey = rkey;
	t->vaddr = vaddr;
}

static void golden_confirm_rkey_struct(struct smcr_llc_msg *m)
{
	struct smcr_llc_confirm_rkey *r = &m->u.confirm_rkey;

	memset(m, 0, sizeof(*m));
	m->type = SMCR_LLC_TYPE_CONFIRM_RKEY;
	r->num_tkns = 2;
	r->rkey = 0xc1c2c3c4;
	r->vaddr = 0x00007f1234567800ULL;
	set_rtoken(&r->others[0], 2, 0xd1d2d3d4, 0x00007f9abcdef000ULL);
	set_rtoken(&r->others[1], 3, 0xe1e2e3e4, 0x8000000000001000ULL);
}

static void golden_confirm_rkey_cont_struct(struct smcr_llc_msg *m)
{
	struct smcr_llc_confirm_rkey_cont *r = &m->u.confirm_rkey_cont;

	memset(m, 0, sizeof(*m));
	m->type = SMCR_LLC_TYPE_CONFIRM_RKEY_CONT;
	r->resp = true;
	r->negative = true;
	r->num_tkns_left = 3;
	set_rtoken(&r->others[0], 4, 0x41424344, 0x0102030405060708ULL);
	set_rtoken(&r->others[1], 5, 0x51525354, 0x1112131415161718ULL);
	set_rtoken(&r->others[2], 6, 0x61626364, 0x2122232425262728ULL);
}

static void golden_delete_rkey_struct(struct smcr_llc_msg *m)
{
	struct smcr_llc_delete_rkey *r = &m->u.delete_rkey;

	memset(m, 0, sizeof(*m));
	m->type = SMCR_LLC_TYPE_DELETE_RKEY;
	r->resp = true;
	r->negative = true;
	r->count = 3;
	r->err_mask = 0x40;
	r->rkeys[0] = 0x01020304;
	r->rkeys[1] = 0xf1f2f3f4;
	r->rkeys[2] = 0x7a7b7c7d;
}

static void golden_test_link_struct(struct smcr_llc_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->type = SMCR_LLC_TYPE_TEST_LINK;
	m->u.test_link.resp = true;
	fill_seq(m->u.test_link.user_data, 16, 0x70);
}

static void golden_v2_confirm_link_struct(struct smcr_llc_msg *m)
{
	golden_confirm_link_struct(m);
	m->version = SMCR_LLC_VERSION_2;
}

static void golden_v2_confirm_link_resp_struct(struct smcr_llc_msg *m)
{
	struct smcr_llc_confirm_link *c = &m->u.confirm_link;
	static const u8 gid[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x66,
				    0x77, 0xff, 0xfe, 0x88, 0x99, 0xaa };
	static const u8 mac[6] = { 0x02, 0x66, 0x77, 0x88, 0x99, 0xaa };
	static const u8 uid[4] = { 0x5e, 0x6f, 0x70, 0x81 };

	golden_v2_confirm_link_struct(m);
	c->resp = true;
	memcpy(c->mac, mac, 6);
	memcpy(c->gid, gid, 16);
	c->qpn = 0x11;
	memcpy(c->link_uid, uid, 4);
}

static void golden_v2_test_link_struct(struct smcr_llc_msg *m)
{
	static const u8 data[16] = { 0x3c, 0x0d, 0xf2, 0x91, 0x5a, 0x00,
				     0x7e, 0x13, 0xc4, 0x28, 0xb6, 0x01,
				     0x99, 0xe5, 0x40, 0x6d };

	memset(m, 0, sizeof(*m));
	m->version = SMCR_LLC_VERSION_2;
	m->type = SMCR_LLC_TYPE_TEST_LINK;
	memcpy(m->u.test_link.user_data, data, 16);
}

static void golden_v2_delete_link_struct(struct smcr_llc_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->version = SMCR_LLC_VERSION_2;
	m->type = SMCR_LLC_TYPE_DELETE_LINK;
	m->u.delete_link.all = true;
	m->u.delete_link.orderly = true;
	m->u.delete_link.reason = SMCR_LLC_DEL_PROG_INIT_TERM;
}

static void golden_v2_confirm_rkey_resp_struct(struct smcr_llc_msg *m)
{
	struct smcr_llc_confirm_rkey *r = &m->u.confirm_rkey;

	memset(m, 0, sizeof(*m));
	m->version = SMCR_LLC_VERSION_2;
	m->type = SMCR_LLC_TYPE_CONFIRM_RKEY;
	r->resp = true;
	r->num_tkns = 1;
	r->rkey = 0x00018a2f;
	r->vaddr = 0x000000013c480000ULL;
	set_rtoken(&r->others[0], 2, 0x00029107, 0x000000013c480000ULL);
}

static void golden_v2_delete_rkey_struct(struct smcr_llc_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->version = SMCR_LLC_VERSION_2;
	m->type = SMCR_LLC_TYPE_DELETE_RKEY;
	m->u.delete_rkey.count = 1;
	m->u.delete_rkey.rkeys[0] = 0x00018a2f;
}

/* the body of golden_add_link, in version 2, which has no reason */
static void golden_v2_add_link_struct(struct smcr_llc_msg *m, bool rej)
{
	golden_add_link_struct(m, rej);
	m->version = SMCR_LLC_VERSION_2;
	m->u.add_link.rej_rsn = 0;
}

static void golden_v2_add_link_rej_struct(struct smcr_llc_msg *m)
{
	golden_v2_add_link_struct(m, true);
}

/* build the struct with @mk and check it against @golden */
static void golden_case(void (*mk)(struct smcr_llc_msg *m), const u8 *golden)
{
	struct smcr_llc_msg m;

	mk(&m);
	check_golden(&m, golden);
}

static void test_confirm_link_golden(void)
{
	struct smcr_llc_confirm_link c;
	struct smcr_llc_msg m;
	u8 b[SMCR_LLC_MSG_LEN];

	golden_confirm_link_struct(&m);
	check_golden(&m, golden_confirm_link);
	CHECK_EQ(smcr_llc_confirm_link_decode(golden_confirm_link,
					      SMCR_LLC_MSG_LEN, &c), 0);
	CHECK(!memcmp(&c, &m.u.confirm_link, sizeof(c)));
	CHECK_EQ(smcr_llc_confirm_link_encode(&c, b, sizeof(b)),
		 SMCR_LLC_MSG_LEN);
	CHECK(!memcmp(b, golden_confirm_link, sizeof(b)));
}

static void test_add_link_golden(void)
{
	struct smcr_llc_msg m;

	golden_add_link_struct(&m, false);
	check_golden(&m, golden_add_link);
	golden_add_link_struct(&m, true);
	check_golden(&m, golden_add_link_rej);
}

static void test_add_link_cont_golden(void)
{
	golden_case(golden_add_link_cont_struct, golden_add_link_cont);
}

static void test_delete_link_golden(void)
{
	golden_case(golden_delete_link_struct, golden_delete_link);
}

static void test_confirm_rkey_golden(void)
{
	golden_case(golden_confirm_rkey_struct, golden_confirm_rkey);
}

static void test_confirm_rkey_cont_golden(void)
{
	golden_case(golden_confirm_rkey_cont_struct, golden_confirm_rkey_cont);
}

static void test_delete_rkey_golden(void)
{
	golden_case(golden_delete_rkey_struct, golden_delete_rkey);
}

static void test_test_link_golden(void)
{
	golden_case(golden_test_link_struct, golden_test_link);
}

/* the 44 byte SMC-Rv2 goldens: encode, decode, header */
static void test_v2_golden(void)
{
	static const struct {
		void (*mk)(struct smcr_llc_msg *m);
		const u8 *golden;
	} cases[] = {
		{ golden_v2_confirm_link_struct, golden_v2_confirm_link },
		{ golden_v2_confirm_link_resp_struct,
		  golden_v2_confirm_link_resp },
		{ golden_v2_test_link_struct, golden_v2_test_link },
		{ golden_v2_delete_link_struct, golden_v2_delete_link },
		{ golden_v2_confirm_rkey_resp_struct,
		  golden_v2_confirm_rkey_resp },
		{ golden_v2_delete_rkey_struct, golden_v2_delete_rkey },
		{ golden_v2_add_link_rej_struct, golden_v2_add_link_rej },
	};
	struct smcr_llc_hdr h;
	struct smcr_llc_msg m;
	u8 b[SMCR_LLC_MSG_LEN];
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		cases[i].mk(&m);
		check_golden(&m, cases[i].golden);
		CHECK_EQ(smcr_llc_hdr_decode(cases[i].golden, SMCR_LLC_MSG_LEN,
					     &h), 0);
		CHECK_EQ(h.version, SMCR_LLC_VERSION_2);
		CHECK_EQ(h.type, m.type);
		CHECK_EQ(h.length, SMCR_LLC_MSG_LEN);
		CHECK_EQ(h.rej_rsn, 0);
		CHECK_EQ(h.flags, cases[i].golden[3]);
	}

	/* the reject Linux sends: Z set, no reason */
	CHECK_EQ(smcr_llc_decode(golden_v2_add_link_rej, SMCR_LLC_MSG_LEN, &m),
		 0);
	CHECK(m.u.add_link.resp && m.u.add_link.reject);
	CHECK_EQ(m.u.add_link.rej_rsn, 0);
	/* built as for version 1, the reason is left out as Linux does */
	golden_v2_add_link_struct(&m, true);
	m.u.add_link.rej_rsn = SMCR_LLC_REJ_RSN_NO_ALT_PATH;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), SMCR_LLC_MSG_LEN);
	CHECK(!memcmp(b, golden_v2_add_link_rej, sizeof(b)));
	/* but still range checked */
	m.u.add_link.rej_rsn = 0x10;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);
}

/* an ADD LINK with its extension: only the first 44 bytes are read */
static void test_v2_add_link_long(void)
{
	struct smcr_llc_add_link a;
	struct smcr_llc_msg m, g;
	struct smcr_llc_hdr h;
	u8 b[SMCR_LLC_MSG_LEN];

	golden_v2_add_link_struct(&g, false);
	/* the kernel hands over the first 44 bytes */
	CHECK_EQ(smcr_llc_hdr_decode(golden_v2_add_link, SMCR_LLC_MSG_LEN, &h),
		 0);
	CHECK_EQ(h.version, SMCR_LLC_VERSION_2);
	CHECK_EQ(h.type, SMCR_LLC_TYPE_ADD_LINK);
	CHECK_EQ(h.length, GOLDEN_V2_ADD_LINK_LEN);
	CHECK(!h.resp);
	CHECK_EQ(smcr_llc_decode(golden_v2_add_link, SMCR_LLC_MSG_LEN, &m), 0);
	CHECK(!memcmp(&m, &g, sizeof(m)));
	CHECK_EQ(smcr_llc_add_link_decode(golden_v2_add_link, SMCR_LLC_MSG_LEN,
					  &a), 0);
	CHECK(!memcmp(&a, &g.u.add_link, sizeof(a)));
	/* the whole message decodes the same */
	CHECK_EQ(smcr_llc_decode(golden_v2_add_link, GOLDEN_V2_ADD_LINK_LEN,
				 &m), 0);
	CHECK(!memcmp(&m, &g, sizeof(m)));

	/* encoded again it is 44 bytes long, and says so */
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), SMCR_LLC_MSG_LEN);
	CHECK_EQ(b[0], SMCR_LLC_TYPE_ADD_LINK_V2);
	CHECK_EQ(b[1], 0x2c);
	CHECK_EQ(b[2], 0x00);
	CHECK(!memcmp(b + 3, golden_v2_add_link + 3, SMCR_LLC_MSG_LEN - 3));
}

/* the golden extension's pair */
static const struct smcr_llc_rkey_pair golden_ext_pair = {
	.ref_rkey = 0x00018a2f,
	.new_rkey = 0x00031044,
	.new_vaddr = 0x000000013c480000ULL,
};

/* the extension of the golden ADD LINK, decoded and built again */
static void test_v2_add_link_ext(void)
{
	const u8 *x = golden_v2_add_link + SMCR_LLC_MSG_LEN;
	size_t xlen = GOLDEN_V2_ADD_LINK_LEN - SMCR_LLC_MSG_LEN;
	static const u8 gid[SMCR_LLC_GID_LEN] = {
		0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55,
	};
	struct smcr_llc_add_link_ext e;
	struct smcr_llc_rkey_pair p;
	u8 b[GOLDEN_V2_ADD_LINK_LEN];
	struct smcr_llc_msg m;

	CHECK_EQ(smcr_llc_add_link_ext_decode(x, xlen, &e), 0);
	CHECK(e.direct);
	CHECK(!memcmp(e.gid, gid, sizeof(gid)));
	CHECK_EQ(e.num_rkeys, 1);
	smcr_llc_add_link_ext_pair(x, 0, &p);
	CHECK_EQ(p.ref_rkey, golden_ext_pair.ref_rkey);
	CHECK_EQ(p.new_rkey, golden_ext_pair.new_rkey);
	CHECK_EQ(p.new_vaddr, golden_ext_pair.new_vaddr);

	/* the whole message again: 44 bytes, the extension, the length */
	golden_v2_add_link_struct(&m, false);
	memset(b, 0xee, sizeof(b));
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), SMCR_LLC_MSG_LEN);
	CHECK_EQ(smcr_llc_add_link_ext_encode(&e, &p, b + SMCR_LLC_MSG_LEN,
					      sizeof(b) - SMCR_LLC_MSG_LEN),
		 (int)xlen);
	CHECK_EQ(smcr_llc_set_v2_length(b, sizeof(b), sizeof(b)), 0);
	CHECK(!memcmp(b, golden_v2_add_link, sizeof(b)));

	/* the pairs within the length only: Linux counts more than it
	 * writes when an RMB is not in use
	 */
	CHECK_EQ(smcr_llc_add_link_ext_decode(x, xlen - 1, &e), 0);
	CHECK_EQ(e.num_rkeys, 0);
	memcpy(b, x, xlen);
	b[26] = 0x2c;
	b[27] = 0x01;			/* 300 */
	CHECK_EQ(smcr_llc_add_link_ext_decode(b, xlen, &e), 0);
	CHECK_EQ(e.num_rkeys, 1);
	b[26] = 0;
	b[27] = 0;
	CHECK_EQ(smcr_llc_add_link_ext_decode(b, xlen, &e), 0);
	CHECK_EQ(e.num_rkeys, 0);
	CHECK_EQ(smcr_llc_add_link_ext_decode(x, SMCR_LLC_ADD_EXT_LEN - 1,
					      &e), -EMSGSIZE);
	CHECK_EQ(smcr_llc_add_link_ext_decode(x, SMCR_LLC_ADD_EXT_LEN, &e),
		 0);
	CHECK(e.direct);
	CHECK_EQ(e.num_rkeys, 0);
}

/* building an extension: the pair limit and the room */
static void test_v2_add_link_ext_encode(void)
{
	static struct smcr_llc_rkey_pair pairs[SMCR_LLC_ADD_EXT_PAIRS_MAX + 1];
	static u8 b[SMCR_LLC_MSG_LEN + SMCR_LLC_ADD_EXT_MAX_LEN + 16];
	struct smcr_llc_add_link_ext e = { .direct = false };
	struct smcr_llc_rkey_pair p;
	struct smcr_llc_msg m;
	struct smcr_llc_hdr h;
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(pairs); i++) {
		pairs[i].ref_rkey = i;
		pairs[i].new_rkey = 0x80000000u | i;
		pairs[i].new_vaddr = 0xffff000000000000ULL + i;
	}
	e.num_rkeys = SMCR_LLC_ADD_EXT_PAIRS_MAX;
	CHECK_EQ(smcr_llc_add_link_ext_encode(&e, pairs, b, sizeof(b)),
		 SMCR_LLC_ADD_EXT_MAX_LEN);
	CHECK_EQ(smcr_llc_add_link_ext_encode(&e, pairs, b,
					      SMCR_LLC_ADD_EXT_MAX_LEN - 1),
		 -ENOSPC);
	CHECK_EQ(smcr_llc_add_link_ext_decode(b, SMCR_LLC_ADD_EXT_MAX_LEN,
					      &e), 0);
	CHECK(!e.direct);
	CHECK_EQ(e.num_rkeys, SMCR_LLC_ADD_EXT_PAIRS_MAX);
	smcr_llc_add_link_ext_pair(b, 254, &p);
	CHECK_EQ(p.ref_rkey, 254);
	CHECK_EQ(p.new_rkey, 0x800000feu);
	CHECK_EQ(p.new_vaddr, 0xffff0000000000feULL);
	e.num_rkeys = SMCR_LLC_ADD_EXT_PAIRS_MAX + 1;
	CHECK_EQ(smcr_llc_add_link_ext_encode(&e, pairs, b, sizeof(b)),
		 -EINVAL);

	/* the length of a long message: version 2 only, 44 to 8192 */
	golden_v2_add_link_struct(&m, false);
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), SMCR_LLC_MSG_LEN);
	CHECK_EQ(smcr_llc_set_v2_length(b, sizeof(b), 4152), 0);
	CHECK_EQ(smcr_llc_hdr_decode(b, sizeof(b), &h), 0);
	CHECK_EQ(h.length, 4152);
	CHECK_EQ(smcr_llc_set_v2_length(b, sizeof(b), sizeof(b) + 1),
		 -ENOSPC);
	CHECK_EQ(smcr_llc_set_v2_length(b, sizeof(b),
					SMCR_LLC_MSG_LEN - 1), -EINVAL);
	CHECK_EQ(smcr_llc_set_v2_length(b, 8200, 8193), -EINVAL);
	CHECK_EQ(smcr_llc_set_v2_length(b, SMCR_LLC_MSG_LEN - 1,
					SMCR_LLC_MSG_LEN), -EINVAL);
	m.version = SMCR_LLC_VERSION_1;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), SMCR_LLC_MSG_LEN);
	CHECK_EQ(smcr_llc_set_v2_length(b, sizeof(b), SMCR_LLC_MSG_LEN),
		 -EINVAL);
}

/* REQUEST ADD LINK: the count and the first GID in the first 44 bytes,
 * the other GIDs after them; a reply is Linux's request with the body
 * zeroed and the length 44
 */
static void test_req_add_link(void)
{
	const u8 *r = golden_v2_req_add_link;
	struct smcr_llc_hdr h;
	struct smcr_llc_msg m;
	u8 b[GOLDEN_V2_REQ_ADD_LINK_LEN];
	unsigned int i;

	CHECK_EQ(smcr_llc_hdr_decode(r, SMCR_LLC_MSG_LEN, &h), 0);
	CHECK_EQ(h.version, SMCR_LLC_VERSION_2);
	CHECK_EQ(h.type, SMCR_LLC_TYPE_REQ_ADD_LINK);
	CHECK_EQ(h.length, GOLDEN_V2_REQ_ADD_LINK_LEN);
	CHECK_EQ(h.flags, 0);
	CHECK(!h.resp);
	CHECK_EQ(smcr_llc_decode(r, GOLDEN_V2_REQ_ADD_LINK_LEN, &m), 0);
	CHECK_EQ(m.version, SMCR_LLC_VERSION_2);
	CHECK_EQ(m.type, SMCR_LLC_TYPE_REQ_ADD_LINK);
	CHECK(!m.u.req_add_link.resp);
	CHECK_EQ(m.u.req_add_link.gid_cnt, 2);
	CHECK(!memcmp(m.u.req_add_link.gid, r + SMCR_LLC_REQ_ADD_GIDS_OFF,
		      SMCR_LLC_GID_LEN));
	/* the second GID follows byte 44, in the extension */
	CHECK(smcr_llc_req_add_link_gid(&m.u.req_add_link, NULL, 0, 0) ==
	      m.u.req_add_link.gid);
	CHECK(smcr_llc_req_add_link_gid(&m.u.req_add_link,
					r + SMCR_LLC_MSG_LEN,
					GOLDEN_V2_REQ_ADD_LINK_LEN -
					SMCR_LLC_MSG_LEN, 1) ==
	      r + SMCR_LLC_REQ_ADD_GIDS_OFF + SMCR_LLC_GID_LEN);
	CHECK(!smcr_llc_req_add_link_gid(&m.u.req_add_link,
					 r + SMCR_LLC_MSG_LEN,
					 GOLDEN_V2_REQ_ADD_LINK_LEN -
					 SMCR_LLC_MSG_LEN, 2));
	CHECK(!smcr_llc_req_add_link_gid(&m.u.req_add_link,
					 r + SMCR_LLC_MSG_LEN,
					 SMCR_LLC_GID_LEN - 1, 1));
	CHECK(!smcr_llc_req_add_link_gid(&m.u.req_add_link, NULL, 0, 1));
	CHECK_EQ(smcr_llc_req_add_link_decode(r, SMCR_LLC_MSG_LEN - 1,
					      &m.u.req_add_link), -EMSGSIZE);
	CHECK_EQ(smcr_llc_req_add_link_decode(golden_test_link,
					      SMCR_LLC_MSG_LEN,
					      &m.u.req_add_link), -EPROTO);

	/* encoded back: the first 44 bytes, the second GID and the
	 * length left to the caller
	 */
	CHECK_EQ(smcr_llc_decode(r, SMCR_LLC_MSG_LEN, &m), 0);
	memset(b, 0xee, sizeof(b));
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), SMCR_LLC_MSG_LEN);
	memcpy(b + SMCR_LLC_MSG_LEN, r + SMCR_LLC_MSG_LEN,
	       GOLDEN_V2_REQ_ADD_LINK_LEN - SMCR_LLC_MSG_LEN);
	CHECK_EQ(smcr_llc_set_v2_length(b, sizeof(b),
					GOLDEN_V2_REQ_ADD_LINK_LEN), 0);
	CHECK(!memcmp(b, r, GOLDEN_V2_REQ_ADD_LINK_LEN));
	CHECK_EQ(smcr_llc_encode(&m, b, SMCR_LLC_MSG_LEN - 1), -ENOSPC);

	/* the reply: R set, body zero, 44 bytes */
	memset(&m, 0, sizeof(m));
	m.version = SMCR_LLC_VERSION_2;
	m.type = SMCR_LLC_TYPE_REQ_ADD_LINK;
	m.u.req_add_link.resp = true;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), SMCR_LLC_MSG_LEN);
	CHECK_EQ(b[0], SMCR_LLC_TYPE_REQ_ADD_LINK_V2);
	CHECK_EQ(b[1], SMCR_LLC_MSG_LEN);
	CHECK_EQ(b[2], 0);
	CHECK_EQ(b[3], SMCR_LLC_FLAG_RESP);
	for (i = SMCR_LLC_HDR_LEN; i < SMCR_LLC_MSG_LEN; i++)
		CHECK_EQ(b[i], 0);
	CHECK_EQ(smcr_llc_decode(b, SMCR_LLC_MSG_LEN, &m), 0);
	CHECK(m.u.req_add_link.resp);
	CHECK_EQ(m.u.req_add_link.gid_cnt, 0);

	/* the version 1 type byte: the same layout */
	b[0] = SMCR_LLC_TYPE_REQ_ADD_LINK;
	CHECK_EQ(smcr_llc_hdr_decode(b, SMCR_LLC_MSG_LEN, &h), 0);
	CHECK_EQ(h.version, SMCR_LLC_VERSION_1);
	CHECK_EQ(h.type, SMCR_LLC_TYPE_REQ_ADD_LINK);
	CHECK_EQ(smcr_llc_decode(b, SMCR_LLC_MSG_LEN, &m), 0);
	CHECK_EQ(m.version, SMCR_LLC_VERSION_1);
}

/* the version 2 length is little-endian, 44 to 8192 */
static void test_v2_length(void)
{
	struct smcr_llc_hdr h;
	struct smcr_llc_msg m;
	u8 b[SMCR_LLC_MSG_LEN];
	unsigned int v;

	memcpy(b, golden_v2_test_link, sizeof(b));
	for (v = 0; v <= 0xffff; v++) {
		b[1] = v & 0xff;
		b[2] = v >> 8;
		CHECK_EQ(smcr_llc_hdr_decode(b, sizeof(b), &h),
			 v >= SMCR_LLC_MSG_LEN && v <= SMCR_LLC_V2_MAX_LEN ?
			 0 : -EMSGSIZE);
		CHECK_EQ(h.length, v);
		CHECK_EQ(h.rej_rsn, 0);
	}

	b[1] = 0x2b;			/* 43 */
	b[2] = 0x00;
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), -EMSGSIZE);
	CHECK_EQ(smcr_llc_test_link_decode(b, sizeof(b), &m.u.test_link),
		 -EMSGSIZE);
	b[1] = 0x00;			/* 8192 */
	b[2] = 0x20;
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), 0);
	b[1] = 0x01;			/* 8193 */
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), -EMSGSIZE);
	b[1] = 0x00;			/* 44 big-endian: 11264 */
	b[2] = 0x2c;
	CHECK_EQ(smcr_llc_hdr_decode(b, sizeof(b), &h), -EMSGSIZE);
	CHECK_EQ(h.length, 0x2c00);

	/* byte 2 is length, not an ADD LINK reason */
	memcpy(b, golden_v2_add_link_rej, sizeof(b));
	b[2] = SMCR_LLC_REJ_RSN_NO_ALT_PATH;
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), 0);
	CHECK_EQ(m.u.add_link.rej_rsn, 0);
	CHECK_EQ(smcr_llc_hdr_decode(b, sizeof(b), &h), 0);
	CHECK_EQ(h.length, 0x012c);

	/* and the encoder writes 44 little-endian */
	golden_v2_test_link_struct(&m);
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), SMCR_LLC_MSG_LEN);
	CHECK_EQ(b[1], 0x2c);
	CHECK_EQ(b[2], 0x00);
}

/* what neither version knows, and what version 2 cannot send */
static void test_v2_reject(void)
{
	static const u8 no_v2[] = { 0, SMCR_LLC_TYPE_ADD_LINK_CONT,
		SMCR_LLC_TYPE_CONFIRM_RKEY_CONT,
		10, 15, SMCR_LLC_TYPE_CONFIRM_LINK_V2 };
	static const u8 versions[] = { 1, 3, 4, 15, 16, 0x20, 0xff };
	struct smcr_llc_hdr h;
	struct smcr_llc_msg m;
	u8 b[SMCR_LLC_MSG_LEN], v1[SMCR_LLC_MSG_LEN];
	unsigned int i, t;

	/* version nibbles other than 0 and 2, in either length format */
	for (t = 0; t < 16; t++) {
		memcpy(b, golden_v2_test_link, sizeof(b));
		memcpy(v1, golden_test_link, sizeof(v1));
		for (i = 1; i < 4; i += 2) {
			b[0] = (u8)(i << SMCR_LLC_VERSION_SHIFT | t);
			v1[0] = b[0];
			CHECK_EQ(smcr_llc_hdr_decode(b, sizeof(b), &h),
				 -EPROTO);
			CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), -EPROTO);
			CHECK_EQ(smcr_llc_decode(v1, sizeof(v1), &m), -EPROTO);
		}
	}
	/* Linux has no version 2 continuations */
	memcpy(b, golden_add_link_cont, sizeof(b));
	b[0] = 0x23;
	b[2] = 0x00;
	CHECK_EQ(smcr_llc_hdr_decode(b, sizeof(b), &h), -EPROTO);
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), -EPROTO);
	CHECK_EQ(smcr_llc_add_link_cont_decode(b, sizeof(b),
					       &m.u.add_link_cont), -EPROTO);
	memcpy(b, golden_confirm_rkey_cont, sizeof(b));
	b[0] = 0x28;
	CHECK_EQ(smcr_llc_hdr_decode(b, sizeof(b), &h), -EPROTO);
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), -EPROTO);

	/* the encoder refuses and writes nothing */
	memset(b, 0x5a, sizeof(b));
	memset(&m, 0, sizeof(m));
	m.version = SMCR_LLC_VERSION_2;
	for (i = 0; i < ARRAY_LEN(no_v2); i++) {
		m.type = no_v2[i];
		CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);
	}
	golden_test_link_struct(&m);
	for (i = 0; i < ARRAY_LEN(versions); i++) {
		m.version = versions[i];
		CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);
	}
	for (i = 0; i < sizeof(b); i++)
		CHECK_EQ(b[i], 0x5a);
}

/* encode, check the header, decode and compare with the input */
static void roundtrip_one(const struct smcr_llc_msg *m, u8 flags)
{
	struct smcr_llc_hdr h;
	struct smcr_llc_msg d;
	u8 b[SMCR_LLC_MSG_LEN];

	CHECK_EQ(smcr_llc_encode(m, b, sizeof(b)), SMCR_LLC_MSG_LEN);
	CHECK_EQ(b[0], m->version << SMCR_LLC_VERSION_SHIFT | m->type);
	CHECK_EQ(smcr_llc_hdr_decode(b, sizeof(b), &h), 0);
	CHECK_EQ(h.version, m->version);
	CHECK_EQ(h.type, m->type);
	CHECK_EQ(h.length, SMCR_LLC_MSG_LEN);
	CHECK_EQ(h.flags, flags);
	CHECK_EQ(h.resp, !!(flags & SMCR_LLC_FLAG_RESP));
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &d), 0);
	CHECK(!memcmp(&d, m, sizeof(d)));
}

/* @m, a version 1 message, round trips, and as version 2 if it can */
static void roundtrip(const struct smcr_llc_msg *m, u8 flags)
{
	u8 b[SMCR_LLC_MSG_LEN], with_rsn[SMCR_LLC_MSG_LEN];
	struct smcr_llc_msg v2;

	roundtrip_one(m, flags);
	memcpy(&v2, m, sizeof(v2));
	v2.version = SMCR_LLC_VERSION_2;
	if (m->type == SMCR_LLC_TYPE_ADD_LINK_CONT ||
	    m->type == SMCR_LLC_TYPE_CONFIRM_RKEY_CONT) {
		CHECK_EQ(smcr_llc_encode(&v2, b, sizeof(b)), -EINVAL);
		return;
	}
	if (m->type != SMCR_LLC_TYPE_ADD_LINK) {
		roundtrip_one(&v2, flags);
		return;
	}
	/* version 2 has no room for the reason: sent as if it were 0 */
	CHECK_EQ(smcr_llc_encode(&v2, with_rsn, sizeof(with_rsn)),
		 SMCR_LLC_MSG_LEN);
	v2.u.add_link.rej_rsn = 0;
	roundtrip_one(&v2, flags);
	CHECK_EQ(smcr_llc_encode(&v2, b, sizeof(b)), SMCR_LLC_MSG_LEN);
	CHECK(!memcmp(b, with_rsn, sizeof(b)));
}

/* release 1 (Linux 6.12): the links and connections a version 2 group
 * agreed on, in bytes 34 and 35; release 0 sent 0 in 35
 */
static void test_confirm_link_release1(void)
{
	struct smcr_llc_confirm_link d;
	struct smcr_llc_msg m;
	u8 b[SMCR_LLC_MSG_LEN];

	golden_confirm_link_struct(&m);
	m.u.confirm_link.max_links = 1;
	m.u.confirm_link.max_conns = 16;
	CHECK_EQ(smcr_llc_confirm_link_encode(&m.u.confirm_link, b, sizeof(b)),
		 SMCR_LLC_MSG_LEN);
	CHECK_EQ(b[34], 1);
	CHECK_EQ(b[35], 16);
	CHECK_EQ(b[36], 0);
	CHECK_EQ(smcr_llc_confirm_link_decode(b, sizeof(b), &d), 0);
	CHECK_EQ(d.max_links, 1);
	CHECK_EQ(d.max_conns, 16);
}

static void test_roundtrip_extremes(void)
{
	struct smcr_llc_msg m;
	unsigned int i;

	golden_confirm_link_struct(&m);
	m.u.confirm_link.resp = true;
	m.u.confirm_link.qpn = 0xffffff;
	m.u.confirm_link.link_num = 0xff;
	m.u.confirm_link.max_links = 0xff;
	m.u.confirm_link.max_conns = 0xfe;
	roundtrip(&m, 0x83);
	m.u.confirm_link.no_rmbe_eyec = false;
	m.u.confirm_link.qpn = 0;
	roundtrip(&m, 0x80);

	golden_add_link_struct(&m, true);
	m.u.add_link.rej_rsn = 0x0f;
	m.u.add_link.qp_mtu = 0x0f;
	m.u.add_link.qpn = 0xffffff;
	m.u.add_link.psn = 0xffffff;
	m.u.add_link.link_num = 0xff;
	roundtrip(&m, 0xc0);
	m.u.add_link.resp = false;
	m.u.add_link.reject = false;
	m.u.add_link.rej_rsn = SMCR_LLC_REJ_RSN_INVALID_MTU;
	roundtrip(&m, 0x00);
	m.u.add_link.rej_rsn = 0;
	roundtrip(&m, 0x00);
	m.u.add_link.resp = true;
	m.u.add_link.reject = true;
	roundtrip(&m, 0xc0);

	golden_add_link_cont_struct(&m);
	m.u.add_link_cont.num_rkeys = 255;
	m.u.add_link_cont.pairs[1].new_vaddr = ~0ULL;
	roundtrip(&m, 0x80);
	m.u.add_link_cont.resp = false;
	m.u.add_link_cont.num_rkeys = 1;
	memset(&m.u.add_link_cont.pairs[1], 0,
	       sizeof(m.u.add_link_cont.pairs[1]));
	roundtrip(&m, 0x00);
	m.u.add_link_cont.num_rkeys = 0;
	memset(&m.u.add_link_cont.pairs[0], 0,
	       sizeof(m.u.add_link_cont.pairs[0]));
	roundtrip(&m, 0x00);

	golden_delete_link_struct(&m);
	m.u.delete_link.resp = true;
	m.u.delete_link.reason = 0xffffffff;
	roundtrip(&m, 0xa0);
	m.u.delete_link.all = true;
	m.u.delete_link.orderly = false;
	m.u.delete_link.link_num = 0;
	m.u.delete_link.reason = SMCR_LLC_DEL_NOLGR;
	roundtrip(&m, 0xc0);

	golden_confirm_rkey_struct(&m);
	m.u.confirm_rkey.resp = true;
	m.u.confirm_rkey.negative = true;
	m.u.confirm_rkey.retry = true;
	m.u.confirm_rkey.num_tkns = SMCR_LLC_RKEY_TKNS_MAX;
	m.u.confirm_rkey.vaddr = ~0ULL;
	roundtrip(&m, 0xb0);
	m.u.confirm_rkey.num_tkns = 0;
	memset(m.u.confirm_rkey.others, 0, sizeof(m.u.confirm_rkey.others));
	roundtrip(&m, 0xb0);

	golden_confirm_rkey_cont_struct(&m);
	m.u.confirm_rkey_cont.num_tkns_left = SMCR_LLC_RKEY_TKNS_MAX;
	roundtrip(&m, 0xa0);
	m.u.confirm_rkey_cont.resp = false;
	m.u.confirm_rkey_cont.negative = false;
	m.u.confirm_rkey_cont.num_tkns_left = 1;
	memset(&m.u.confirm_rkey_cont.others[1], 0,
	       2 * sizeof(m.u.confirm_rkey_cont.others[1]));
	roundtrip(&m, 0x00);

	golden_delete_rkey_struct(&m);
	m.u.delete_rkey.count = SMCR_LLC_DEL_RKEY_MAX;
	m.u.delete_rkey.err_mask = 0xff;
	for (i = 0; i < SMCR_LLC_DEL_RKEY_MAX; i++)
		m.u.delete_rkey.rkeys[i] = 0xfedc0000 + i;
	roundtrip(&m, 0xa0);
	m.u.delete_rkey.resp = false;
	m.u.delete_rkey.negative = false;
	m.u.delete_rkey.err_mask = 0;
	m.u.delete_rkey.count = 1;
	memset(&m.u.delete_rkey.rkeys[1], 0, 7 * sizeof(u32));
	roundtrip(&m, 0x00);

	golden_test_link_struct(&m);
	memset(m.u.test_link.user_data, 0xff, 16);
	roundtrip(&m, 0x80);
	m.u.test_link.resp = false;
	roundtrip(&m, 0x00);
}

static void test_hdr(void)
{
	struct smcr_llc_hdr h;
	u8 b[48];
	unsigned int t, known;

	memcpy(b, golden_add_link_rej, SMCR_LLC_MSG_LEN);
	CHECK_EQ(smcr_llc_hdr_decode(b, SMCR_LLC_MSG_LEN, &h), 0);
	CHECK_EQ(h.version, SMCR_LLC_VERSION_1);
	CHECK_EQ(h.type, SMCR_LLC_TYPE_ADD_LINK);
	CHECK_EQ(h.length, 44);
	CHECK_EQ(h.rej_rsn, 1);
	CHECK_EQ(h.flags, 0xc0);
	CHECK(h.resp);
	/* a larger receive buffer is fine, only 44 bytes are read */
	CHECK_EQ(smcr_llc_hdr_decode(b, sizeof(b), &h), 0);

	/* length byte */
	b[1] = 43;
	CHECK_EQ(smcr_llc_hdr_decode(b, SMCR_LLC_MSG_LEN, &h), -EMSGSIZE);
	b[1] = 45;
	CHECK_EQ(smcr_llc_hdr_decode(b, SMCR_LLC_MSG_LEN, &h), -EMSGSIZE);
	b[1] = 0;
	CHECK_EQ(smcr_llc_hdr_decode(b, SMCR_LLC_MSG_LEN, &h), -EMSGSIZE);
	b[1] = 0xff;
	CHECK_EQ(smcr_llc_hdr_decode(b, SMCR_LLC_MSG_LEN, &h), -EMSGSIZE);
	b[1] = 44;

	/* every type byte; bytes 1..2 are a valid v2 length too (300) */
	for (t = 0, known = 0; t < 256; t++) {
		b[0] = (u8)t;
		CHECK_EQ(smcr_llc_hdr_decode(b, SMCR_LLC_MSG_LEN, &h),
			 smcr_llc_type_known((u8)t) ? 0 : -EPROTO);
		CHECK_EQ(h.version, t >> SMCR_LLC_VERSION_SHIFT);
		CHECK_EQ(h.type, t & SMCR_LLC_TYPE_MASK);
		known += smcr_llc_type_known((u8)t);
	}
	CHECK_EQ(known, 9 + 7);		/* types 1..9, seven v2 types */
	CHECK(smcr_llc_type_known(1) && smcr_llc_type_known(4));
	CHECK(smcr_llc_type_known(6) && smcr_llc_type_known(9));
	CHECK(smcr_llc_type_known(SMCR_LLC_TYPE_REQ_ADD_LINK));
	CHECK(!smcr_llc_type_known(0) && !smcr_llc_type_known(10));
	CHECK(smcr_llc_type_known(SMCR_LLC_TYPE_CONFIRM_LINK_V2));
	CHECK(smcr_llc_type_known(SMCR_LLC_TYPE_ADD_LINK_V2));
	CHECK(smcr_llc_type_known(SMCR_LLC_TYPE_DELETE_LINK_V2));
	CHECK(smcr_llc_type_known(SMCR_LLC_TYPE_REQ_ADD_LINK_V2));
	CHECK(smcr_llc_type_known(SMCR_LLC_TYPE_CONFIRM_RKEY_V2));
	CHECK(smcr_llc_type_known(SMCR_LLC_TYPE_TEST_LINK_V2));
	CHECK(smcr_llc_type_known(SMCR_LLC_TYPE_DELETE_RKEY_V2));
	CHECK(!smcr_llc_type_known(0x20) && !smcr_llc_type_known(0x23));
	CHECK(!smcr_llc_type_known(0x28) && !smcr_llc_type_known(0x2a));
	CHECK(!smcr_llc_type_known(0x11) && !smcr_llc_type_known(0x31));
	CHECK(!smcr_llc_type_known(0xfe));

	CHECK(smcr_llc_type_discardable(0x80));
	CHECK(smcr_llc_type_discardable(0xbf));
	CHECK(!smcr_llc_type_discardable(0x05));
	CHECK(!smcr_llc_type_discardable(0x21));
	CHECK(!smcr_llc_type_discardable(0x23));
	CHECK(!smcr_llc_type_discardable(0x2a));
	CHECK(!smcr_llc_type_discardable(0xfe));

	/* short buffers never get read */
	CHECK_EQ(smcr_llc_hdr_decode(b, 0, &h), -EMSGSIZE);
	CHECK_EQ(smcr_llc_hdr_decode(b, 4, &h), -EMSGSIZE);
	CHECK_EQ(smcr_llc_hdr_decode(b, 43, &h), -EMSGSIZE);
}

typedef int (*decode_fn)(const u8 *buf, size_t len, void *m);

/* every decoder, through a common signature */
static int dec_cl(const u8 *b, size_t n, void *m)
{ return smcr_llc_confirm_link_decode(b, n, m); }
static int dec_al(const u8 *b, size_t n, void *m)
{ return smcr_llc_add_link_decode(b, n, m); }
static int dec_alc(const u8 *b, size_t n, void *m)
{ return smcr_llc_add_link_cont_decode(b, n, m); }
static int dec_dl(const u8 *b, size_t n, void *m)
{ return smcr_llc_delete_link_decode(b, n, m); }
static int dec_cr(const u8 *b, size_t n, void *m)
{ return smcr_llc_confirm_rkey_decode(b, n, m); }
static int dec_crc(const u8 *b, size_t n, void *m)
{ return smcr_llc_confirm_rkey_cont_decode(b, n, m); }
static int dec_dr(const u8 *b, size_t n, void *m)
{ return smcr_llc_delete_rkey_decode(b, n, m); }
static int dec_tl(const u8 *b, size_t n, void *m)
{ return smcr_llc_test_link_decode(b, n, m); }
static int dec_ral(const u8 *b, size_t n, void *m)
{ return smcr_llc_req_add_link_decode(b, n, m); }
static int dec_any(const u8 *b, size_t n, void *m)
{ return smcr_llc_decode(b, n, m); }

static const struct {
	u8 type;
	decode_fn fn;
} decoders[] = {
	{ SMCR_LLC_TYPE_CONFIRM_LINK, dec_cl },
	{ SMCR_LLC_TYPE_ADD_LINK, dec_al },
	{ SMCR_LLC_TYPE_ADD_LINK_CONT, dec_alc },
	{ SMCR_LLC_TYPE_DELETE_LINK, dec_dl },
	{ SMCR_LLC_TYPE_CONFIRM_RKEY, dec_cr },
	{ SMCR_LLC_TYPE_CONFIRM_RKEY_CONT, dec_crc },
	{ SMCR_LLC_TYPE_DELETE_RKEY, dec_dr },
	{ SMCR_LLC_TYPE_TEST_LINK, dec_tl },
	{ SMCR_LLC_TYPE_REQ_ADD_LINK, dec_ral },
};

static void test_wrong_type(void)
{
	struct smcr_llc_msg m;
	unsigned int i, j;

	/* every typed decoder takes its type in either version and
	 * rejects every golden of another type
	 */
	for (i = 0; i < ARRAY_LEN(decoders); i++)
		for (j = 0; j < ARRAY_LEN(goldens); j++)
			CHECK_EQ(decoders[i].fn(goldens[j].msg,
						SMCR_LLC_MSG_LEN, &m),
				 (goldens[j].msg[0] & SMCR_LLC_TYPE_MASK) ==
				 decoders[i].type ? 0 : -EPROTO);
}

static void test_unknown_types(void)
{
	static const u8 types[] = { 0x00, 0x0a, 0x0f, 0x11, 0x20, 0x23,
		0x28, 0x2a, 0x2f, 0x31, 0x37, 0x81, 0xfe, 0xff };
	struct smcr_llc_msg m;
	unsigned int i;
	u8 b[SMCR_LLC_MSG_LEN];

	memcpy(b, golden_test_link, sizeof(b));
	for (i = 0; i < ARRAY_LEN(types); i++) {
		b[0] = types[i];
		CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), -EPROTO);
	}
	/* the v2 types are the v1 types with LLC version 2 on top */
	CHECK_EQ(SMCR_LLC_TYPE_CONFIRM_LINK_V2, 2 << SMCR_LLC_VERSION_SHIFT |
		 SMCR_LLC_TYPE_CONFIRM_LINK);
	CHECK_EQ(SMCR_LLC_TYPE_DELETE_RKEY_V2, 2 << SMCR_LLC_VERSION_SHIFT |
		 SMCR_LLC_TYPE_DELETE_RKEY);
	/* the dispatcher refuses to encode them, or a full type byte */
	memset(&m, 0, sizeof(m));
	for (i = 0; i < ARRAY_LEN(types); i++) {
		m.type = types[i];
		CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);
	}
	m.type = SMCR_LLC_TYPE_TEST_LINK_V2;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);
	m.version = SMCR_LLC_VERSION_2;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);
}

static void test_bad_counts(void)
{
	struct smcr_llc_msg m;
	u8 b[SMCR_LLC_MSG_LEN];
	unsigned int v;

	memcpy(b, golden_confirm_rkey, sizeof(b));
	for (v = 0; v < 256; v++) {
		b[4] = (u8)v;
		CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m),
			 v <= SMCR_LLC_RKEY_TKNS_MAX ? 0 : -EBADMSG);
	}
	memcpy(b, golden_confirm_rkey_cont, sizeof(b));
	for (v = 0; v < 256; v++) {
		b[4] = (u8)v;
		CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m),
			 v <= SMCR_LLC_RKEY_TKNS_MAX ? 0 : -EBADMSG);
	}
	memcpy(b, golden_delete_rkey, sizeof(b));
	for (v = 0; v < 256; v++) {
		b[4] = (u8)v;
		CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m),
			 v <= SMCR_LLC_DEL_RKEY_MAX ? 0 : -EBADMSG);
	}
	/* version 2: a DELETE RKEY with more than 8 RKeys is longer than
	 * 44 bytes; we cannot read it
	 */
	memcpy(b, golden_v2_delete_rkey, sizeof(b));
	for (v = 0; v < 256; v++) {
		b[4] = (u8)v;
		CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m),
			 v <= SMCR_LLC_DEL_RKEY_MAX ? 0 : -EBADMSG);
	}
	memcpy(b, golden_v2_confirm_rkey_resp, sizeof(b));
	for (v = 0; v < 256; v++) {
		b[4] = (u8)v;
		CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m),
			 v <= SMCR_LLC_RKEY_TKNS_MAX ? 0 : -EBADMSG);
	}
	/* ADD LINK CONTINUATION counts remaining RTokens: all 255 legal */
	memcpy(b, golden_add_link_cont, sizeof(b));
	for (v = 0; v < 256; v++) {
		b[5] = (u8)v;
		CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), 0);
		CHECK_EQ(m.u.add_link_cont.num_rkeys, v);
	}
}

static void test_decode_lenient(void)
{
	struct smcr_llc_msg m, g;
	u8 b[SMCR_LLC_MSG_LEN];
	unsigned int i;

	/* reserved bytes and bits are ignored */
	memcpy(b, golden_confirm_link, sizeof(b));
	b[2] = 0xff;
	b[3] |= 0x7c;
	for (i = 36; i < SMCR_LLC_MSG_LEN; i++)
		b[i] = 0xee;
	golden_confirm_link_struct(&g);
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), 0);
	CHECK(!memcmp(&m, &g, sizeof(m)));

	/* no eyecatcher needs both bits */
	b[3] = 0x01;
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), 0);
	CHECK(!m.u.confirm_link.no_rmbe_eyec);

	/* the two reserved ADD LINK bytes after the MAC are skipped */
	memcpy(b, golden_add_link, sizeof(b));
	b[10] = 0x99;
	b[11] = 0x98;
	b[32] |= 0xf0;			/* reserved MTU nibble */
	golden_add_link_struct(&g, false);
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), 0);
	CHECK(!memcmp(&m, &g, sizeof(m)));

	/* entries beyond the count are not reported */
	memcpy(b, golden_add_link_cont, sizeof(b));
	b[5] = 1;
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), 0);
	CHECK_EQ(m.u.add_link_cont.pairs[0].ref_rkey, 0x11223344);
	CHECK_EQ(m.u.add_link_cont.pairs[1].ref_rkey, 0);
	CHECK_EQ(m.u.add_link_cont.pairs[1].new_vaddr, 0);

	memcpy(b, golden_confirm_rkey, sizeof(b));
	b[4] = 1;
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), 0);
	CHECK_EQ(m.u.confirm_rkey.others[0].link_num, 2);
	CHECK_EQ(m.u.confirm_rkey.others[1].link_num, 0);
	CHECK_EQ(m.u.confirm_rkey.others[1].rkey, 0);

	memcpy(b, golden_delete_rkey, sizeof(b));
	b[4] = 2;
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), 0);
	CHECK_EQ(m.u.delete_rkey.rkeys[1], 0xf1f2f3f4);
	CHECK_EQ(m.u.delete_rkey.rkeys[2], 0);

	/* DELETE LINK with the A flag: link number has no meaning */
	memcpy(b, golden_delete_link, sizeof(b));
	b[3] = SMCR_LLC_FLAG_DEL_LINK_ALL | SMCR_LLC_FLAG_RESP;
	CHECK_EQ(smcr_llc_decode(b, sizeof(b), &m), 0);
	CHECK(m.u.delete_link.all);
	CHECK(m.u.delete_link.resp);
	CHECK(!m.u.delete_link.orderly);
	CHECK_EQ(m.u.delete_link.link_num, 0);
	CHECK_EQ(m.u.delete_link.reason, SMCR_LLC_DEL_NO_ASYM_NEEDED);
}

static void test_encode_invalid(void)
{
	struct smcr_llc_msg m;
	u8 b[SMCR_LLC_MSG_LEN];

	golden_confirm_link_struct(&m);
	m.u.confirm_link.qpn = 0x1000000;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);

	golden_add_link_struct(&m, false);
	m.u.add_link.qpn = 0x1000000;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);
	golden_add_link_struct(&m, false);
	m.u.add_link.psn = 0x1000000;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);
	golden_add_link_struct(&m, false);
	m.u.add_link.rej_rsn = 0x10;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);
	golden_add_link_struct(&m, false);
	m.u.add_link.qp_mtu = 0x10;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);

	golden_delete_link_struct(&m);
	m.u.delete_link.all = true;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);

	golden_confirm_rkey_struct(&m);
	m.u.confirm_rkey.num_tkns = SMCR_LLC_RKEY_TKNS_MAX + 1;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);

	golden_confirm_rkey_cont_struct(&m);
	m.u.confirm_rkey_cont.num_tkns_left = 0xff;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);

	golden_delete_rkey_struct(&m);
	m.u.delete_rkey.count = SMCR_LLC_DEL_RKEY_MAX + 1;
	CHECK_EQ(smcr_llc_encode(&m, b, sizeof(b)), -EINVAL);
}

/* every golden, every encoder: a buffer one byte short is refused */
static void test_encode_short(void)
{
	void (*const build[])(struct smcr_llc_msg *m) = {
		golden_confirm_link_struct, golden_add_link_cont_struct,
		golden_delete_link_struct, golden_confirm_rkey_struct,
		golden_confirm_rkey_cont_struct, golden_delete_rkey_struct,
		golden_test_link_struct,
	};
	struct smcr_llc_msg m;
	unsigned int i;
	size_t n;
	u8 *b;

	for (i = 0; i <= ARRAY_LEN(build); i++) {
		if (i < ARRAY_LEN(build))
			build[i](&m);
		else
			golden_add_link_struct(&m, true);
		for (n = 0; n < SMCR_LLC_MSG_LEN; n++) {
			b = malloc(n ? n : 1);
			if (!b)
				abort();
			CHECK_EQ(smcr_llc_encode(&m, b, n), -ENOSPC);
			if (m.type != SMCR_LLC_TYPE_ADD_LINK_CONT &&
			    m.type != SMCR_LLC_TYPE_CONFIRM_RKEY_CONT) {
				m.version = SMCR_LLC_VERSION_2;
				CHECK_EQ(smcr_llc_encode(&m, b, n), -ENOSPC);
				m.version = SMCR_LLC_VERSION_1;
			}
			free(b);
		}
	}
}

/* every golden cut short at every length, in an exact-size buffer */
static void test_truncation(void)
{
	struct smcr_llc_msg m;
	unsigned int i, j;
	size_t n;
	u8 *b;

	for (i = 0; i < ARRAY_LEN(goldens); i++) {
		for (n = 0; n < SMCR_LLC_MSG_LEN; n++) {
			b = malloc(n ? n : 1);
			if (!b)
				abort();
			memcpy(b, goldens[i].msg, n);
			CHECK_EQ(dec_any(b, n, &m), -EMSGSIZE);
			for (j = 0; j < ARRAY_LEN(decoders); j++)
				CHECK_EQ(decoders[j].fn(b, n, &m), -EMSGSIZE);
			free(b);
		}
	}
}

static void test_constants(void)
{
	CHECK_EQ(SMCR_LLC_MSG_LEN, 44);
	CHECK_EQ(SMCR_LLC_TYPE_CONFIRM_LINK, 1);
	CHECK_EQ(SMCR_LLC_TYPE_ADD_LINK, 2);
	CHECK_EQ(SMCR_LLC_TYPE_ADD_LINK_CONT, 3);
	CHECK_EQ(SMCR_LLC_TYPE_DELETE_LINK, 4);
	CHECK_EQ(SMCR_LLC_TYPE_CONFIRM_RKEY, 6);
	CHECK_EQ(SMCR_LLC_TYPE_TEST_LINK, 7);
	CHECK_EQ(SMCR_LLC_TYPE_CONFIRM_RKEY_CONT, 8);
	CHECK_EQ(SMCR_LLC_TYPE_DELETE_RKEY, 9);
	CHECK_EQ(SMCR_LLC_VERSION_1, 0);
	CHECK_EQ(SMCR_LLC_VERSION_2, 2);
	CHECK_EQ(SMCR_LLC_V2_MAX_LEN, 8192);
	CHECK_EQ(SMCR_LLC_TYPE_MASK, 0x0f);
	CHECK_EQ(SMCR_LLC_TYPE_CONFIRM_LINK_V2, 0x21);
	CHECK_EQ(SMCR_LLC_TYPE_ADD_LINK_V2, 0x22);
	CHECK_EQ(SMCR_LLC_TYPE_DELETE_LINK_V2, 0x24);
	CHECK_EQ(SMCR_LLC_TYPE_REQ_ADD_LINK_V2, 0x25);
	CHECK_EQ(SMCR_LLC_TYPE_CONFIRM_RKEY_V2, 0x26);
	CHECK_EQ(SMCR_LLC_TYPE_TEST_LINK_V2, 0x27);
	CHECK_EQ(SMCR_LLC_TYPE_DELETE_RKEY_V2, 0x29);
	CHECK_EQ(SMCR_LLC_DEL_LOST_PATH, 0x00010000);
	CHECK_EQ(SMCR_LLC_DEL_OP_INIT_TERM, 0x00020000);
	CHECK_EQ(SMCR_LLC_DEL_PROG_INIT_TERM, 0x00030000);
	CHECK_EQ(SMCR_LLC_DEL_PROT_VIOL, 0x00040000);
	CHECK_EQ(SMCR_LLC_DEL_NO_ASYM_NEEDED, 0x00050000);
	CHECK_EQ(SMCR_LLC_DEL_NOLNK, 0x00100000);
	CHECK_EQ(SMCR_LLC_DEL_NOLGR, 0x00200000);
	/* largest count field times entry size still fits the message */
	CHECK(4 + 4 + SMCR_LLC_ADD_CONT_PAIRS * 16 <= SMCR_LLC_MSG_LEN);
	CHECK(4 + 13 + SMCR_LLC_RKEY_OTHERS * 13 <= SMCR_LLC_MSG_LEN);
	CHECK(4 + 1 + SMCR_LLC_RKEY_CONT_ENTRIES * 13 <= SMCR_LLC_MSG_LEN);
	CHECK(4 + 4 + SMCR_LLC_DEL_RKEY_MAX * 4 <= SMCR_LLC_MSG_LEN);
}

static const struct wire_test tests[] = {
	{ "confirm_link_golden", test_confirm_link_golden },
	{ "add_link_golden", test_add_link_golden },
	{ "add_link_cont_golden", test_add_link_cont_golden },
	{ "delete_link_golden", test_delete_link_golden },
	{ "confirm_rkey_golden", test_confirm_rkey_golden },
	{ "confirm_rkey_cont_golden", test_confirm_rkey_cont_golden },
	{ "delete_rkey_golden", test_delete_rkey_golden },
	{ "test_link_golden", test_test_link_golden },
	{ "v2_golden", test_v2_golden },
	{ "v2_add_link_long", test_v2_add_link_long },
	{ "v2_add_link_ext", test_v2_add_link_ext },
	{ "v2_add_link_ext_encode", test_v2_add_link_ext_encode },
	{ "req_add_link", test_req_add_link },
	{ "v2_length", test_v2_length },
	{ "v2_reject", test_v2_reject },
	{ "roundtrip_extremes", test_roundtrip_extremes },
	{ "confirm_link_release1", test_confirm_link_release1 },
	{ "hdr", test_hdr },
	{ "wrong_type", test_wrong_type },
	{ "unknown_types", test_unknown_types },
	{ "bad_counts", test_bad_counts },
	{ "decode_lenient", test_decode_lenient },
	{ "encode_invalid", test_encode_invalid },
	{ "encode_short", test_encode_short },
	{ "truncation", test_truncation },
	{ "constants", test_constants },
};

int main(int argc, char **argv)
{
	return wire_test_main(argc, argv, tests, ARRAY_LEN(tests),
			      goldens, ARRAY_LEN(goldens));
}
