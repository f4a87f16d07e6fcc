// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the smcr CLC wire format (net/smc/smcr_wire_clc.c).
 *
 * Golden byte arrays below are written by hand from the message diagrams
 * of RFC 7609 Appendix A.2, with the sizes cross-checked against Linux
 * (accept/confirm 68 bytes, decline 28 bytes or 44 bytes in version 2).
 * The SMC-Rv2 goldens are the layouts Linux 6.1 sends, put together from
 * the stretches of bytes they share.
 * Output is TAP version 13; the exit status is non-zero on any failure.
 *
 * With "--write-corpus DIR" the program instead writes the golden
 * messages into DIR as seeds for the fuzzer.
 */
#include <stddef.h>

#include "smcr_wire_clc.h"
#include "wire_test.h"

/* v1 proposal, IPv4 192.168.1.0/24 plus two IPv6 prefixes, offset 0 */
static const u8 golden_prop[] = {
	0xe2, 0xd4, 0xc3, 0xd9,		/* "SMCR" */
	0x01,				/* type proposal */
	0x00, 0x56,			/* length 86 */
	0x10,				/* version 1, path SMC-R */
	0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, /* peer id */
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, /* GID */
	0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
	0x31, 0x32, 0x33, 0x34, 0x35, 0x36, /* MAC */
	0x00, 0x00,			/* IP area offset */
	0xc0, 0xa8, 0x01, 0x00,		/* IPv4 subnet */
	0x18,				/* mask length 24 */
	0x00, 0x00,			/* reserved */
	0x02,				/* two IPv6 prefixes */
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x40,				/* /64 */
	0xfd, 0x00, 0xab, 0xcd, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x30,				/* /48 */
	0xe2, 0xd4, 0xc3, 0xd9,		/* "SMCR" */
};

static const u8 golden_accept[] = {
	0xe2, 0xd4, 0xc3, 0xd9,		/* "SMCR" */
	0x02,				/* type accept */
	0x00, 0x44,			/* length 68 */
	0x18,				/* version 1, first contact, SMC-R */
	0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, /* peer id */
	0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, /* GID */
	0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf,
	0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, /* MAC */
	0x12, 0x34, 0x56,		/* QP number */
	0x89, 0xab, 0xcd, 0xef,		/* RMB rkey */
	0x07,				/* RMBE index */
	0xde, 0xad, 0xbe, 0xef,		/* alert token */
	0x35,				/* size code 3, MTU 4096 */
	0x00,				/* reserved */
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, /* RMB address */
	0x00,				/* reserved */
	0xab, 0xcd, 0xef,		/* PSN */
	0xe2, 0xd4, 0xc3, 0xd9,		/* "SMCR" */
};

static const u8 golden_confirm[] = {
	0xe2, 0xd4, 0xc3, 0xd9,		/* "SMCR" */
	0x03,				/* type confirm */
	0x00, 0x44,			/* length 68 */
	0x10,				/* version 1, SMC-R */
	0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, /* peer id */
	0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, /* GID */
	0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f,
	0x71, 0x72, 0x73, 0x74, 0x75, 0x76, /* MAC */
	0xfe, 0xdc, 0xba,		/* QP number */
	0x10, 0x20, 0x30, 0x40,		/* RMB rkey */
	0x01,				/* RMBE index */
	0x0a, 0x0b, 0x0c, 0x0d,		/* alert token */
	0x13,				/* size code 1, MTU 1024 */
	0x00,				/* reserved */
	0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88, /* RMB address */
	0x00,				/* reserved */
	0x0f, 0x1e, 0x2d,		/* PSN */
	0xe2, 0xd4, 0xc3, 0xd9,		/* "SMCR" */
};

static const u8 golden_decline[] = {
	0xe2, 0xd4, 0xc3, 0xd9,		/* "SMCR" */
	0x04,				/* type decline */
	0x00, 0x1c,			/* length 28 */
	0x18,				/* version 1, out of sync */
	0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, /* peer id */
	0x04, 0x00, 0x00, 0x00,		/* diagnosis SYNCERR */
	0x30,				/* OS type AIX */
	0x00, 0x00, 0x00,		/* reserved */
	0xe2, 0xd4, 0xc3, 0xd9,		/* "SMCR" */
};

/* the 44 byte decline Linux sends when it speaks version 2 */
static const u8 golden_decline_v2[] = {
	0xe2, 0xd4, 0xc3, 0xd9,		/* "SMCR" */
	0x04,				/* type decline */
	0x00, 0x2c,			/* length 44 */
	0x20,				/* version 2 */
	0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, /* peer id */
	0x03, 0x03, 0x00, 0x02,		/* diagnosis NOSMCRDEV */
	0x20,				/* OS type Linux */
	0x00, 0x00, 0x00,		/* reserved */
	0x03, 0x07, 0x00, 0x00,		/* extra diagnosis 1..4 */
	0x09, 0x99, 0x00, 0x01,
	0x01, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x05,
	0xe2, 0xd4, 0xc3, 0xd9,		/* "SMCR" */
};

/* the golden messages */
enum {
	G_PROP_V1, G_ACCEPT, G_CONFIRM, G_DECL_V1, G_DECL_V2,
	G_PROP_V2_1EID, G_PROP_V2_2EID, G_PROP_V1V2_V4, G_PROP_V1V2_V6,
	G_ACC_V2_FC, G_CONF_V2_FC1, G_CONF_V2_FC2, G_ACC_V2, G_CONF_V2,
	G_COUNT
};

/*
 * Stretches of the SMC-Rv2 goldens, laid out as Linux 6.1 sends them.
 * Designated indices are offsets within each stretch.
 */
static const u8 eye[4] = { 0xe2, 0xd4, 0xc3, 0xd9 };	/* "SMCR" */
static const u8 zeroes[40];

/* headers after the eyecatcher: type, length, and version 2 with the
 * v2 and v1 path types or with the first contact bit
 */
static const u8 hdr_v2[G_COUNT][4] = {
	[G_PROP_V2_1EID] = { 1, 0, 156, 0x22 },	/* v2 SMC-R, v1 none */
	[G_PROP_V2_2EID] = { 1, 0, 188, 0x22 },
	[G_PROP_V1V2_V4] = { 1, 0, 164, 0x20 },	/* v2 SMC-R, v1 SMC-R */
	[G_PROP_V1V2_V6] = { 1, 0, 198, 0x20 },
	[G_ACC_V2_FC] = { 2, 0, 160, 0x28 },	/* first contact, SMC-R */
	[G_CONF_V2_FC1] = { 3, 0, 180, 0x28 },
	[G_CONF_V2_FC2] = { 3, 0, 196, 0x28 },
	[G_ACC_V2] = { 2, 0, 108, 0x20 },	/* SMC-R */
	[G_CONF_V2] = { 3, 0, 108, 0x20 },
};

/* IP area offset field: 40 skips the SMC-D area */
static const u8 iparea_off_40[2] = { 0, 40 };

/* SMC-D area without an SMC-D offer: all zero but the offset of the v2
 * extension, counted from the end of that offset field
 */
static const u8 smcd_area_v2_only[40] = { [11] = 28 };
static const u8 smcd_area_v1v2_v4[40] = { [11] = 28 + 8 };
static const u8 smcd_area_v1v2_v6[40] = { [11] = 28 + 8 + 2 * 17 };

/* IP areas: 192.168.100.0/24, or no IPv4 subnet and the two IPv6
 * prefixes 2001:db8:64::/64 and fd00:0:0:64::/64
 */
static const u8 iparea_v4[8] = { 192, 168, 100, 0, 24, 0, 0, 0 };
static const u8 iparea_v6[8 + 2 * 17] = {
	[7] = 2,
	[8] = 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x64, [24] = 64,
	[25] = 0xfd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x64, [41] = 64,
};

/* v2 extension: EID count, no ISM GIDs, release 0 and no SEID, no SMC-D
 * v2 extension offset, the RoCEv2 GID ::ffff:192.168.100.11, reserved
 */
static const u8 v2x_1eid[40] = { 1, [18] = 0xff, 0xff, 192, 168, 100, 11 };
static const u8 v2x_2eid[40] = { 2, [18] = 0xff, 0xff, 192, 168, 100, 11 };

/* user EIDs and host names are blank padded */
static const u8 eid_a[32] = "SMCR-EID-A                      ";
static const u8 eid_b[32] = "SMCR-EID-B                      ";
static const u8 hostname_a[32] = "smcr-a                          ";
/* a v2 accept / confirm's EID, then 8 reserved bytes the string
 * initializer leaves zero
 */
static const u8 ac_eid_a[40] = "SMCR-EID-A                      ";

/* first contact extension: v2_direct bit, OS Linux with release 0 */
static const u8 fce_direct[4] = { 0x80, 0x20, 0, 0 };
static const u8 fce_gateway[4] = { 0x00, 0x20, 0, 0 };

/* a confirm's GID list: reserved, count, reserved, then the GIDs */
static const u8 gidlist_1[20] = { [16] = 1 };
static const u8 gidlist_2[20] = { [16] = 2 };
static const u8 gid_v2_a[16] = { [10] = 0xff, 0xff, 192, 168, 100, 11 };
static const u8 gid_v2_b[16] = { [10] = 0xff, 0xff, 192, 168, 200, 11 };

static void fill_seq(u8 *dst, size_t n, u8 first)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = (u8)(first + i);
}

static void golden_prop_struct(struct smcr_clc_proposal *p)
{
	static const u8 v6a[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01 };
	static const u8 v6b[16] = { 0xfd, 0x00, 0xab, 0xcd };

	memset(p, 0, sizeof(*p));
	p->version = SMCR_CLC_V1;
	p->path_v1 = SMCR_CLC_PATH_R;
	fill_seq(p->peer_id, sizeof(p->peer_id), 0x11);
	fill_seq(p->gid, sizeof(p->gid), 0x20);
	fill_seq(p->mac, sizeof(p->mac), 0x31);
	p->ipv4_subnet = 0xc0a80100;
	p->ipv4_prefix_len = 24;
	p->ipv6_prefix_cnt = 2;
	memcpy(p->ipv6_prefix[0].addr, v6a, 16);
	p->ipv6_prefix[0].len = 64;
	memcpy(p->ipv6_prefix[1].addr, v6b, 16);
	p->ipv6_prefix[1].len = 48;
}

/* the fields of golden_accept and golden_confirm, ids from fill_seq() */
static const struct {
	struct smcr_clc_accept_confirm v;
	u8 peer_id, gid, mac;
} ac_goldens[] = {
	{ { .type = SMCR_CLC_TYPE_ACCEPT, .version = SMCR_CLC_V1,
	    .first_contact = true,
	    .qpn = 0x123456, .rmb_rkey = 0x89abcdef, .rmbe_idx = 7,
	    .rmbe_alert_token = 0xdeadbeef, .rmbe_size = 3,
	    .qp_mtu = SMCR_CLC_MTU_4096, .psn = 0xabcdef,
	    .rmb_dma_addr = 0x0123456789abcdefULL }, 0xa1, 0xb0, 0xc1 },
	{ { .type = SMCR_CLC_TYPE_CONFIRM, .version = SMCR_CLC_V1,
	    .first_contact = false,
	    .qpn = 0xfedcba, .rmb_rkey = 0x10203040, .rmbe_idx = 1,
	    .rmbe_alert_token = 0x0a0b0c0d, .rmbe_size = 1,
	    .qp_mtu = SMCR_CLC_MTU_1024, .psn = 0x0f1e2d,
	    .rmb_dma_addr = 0xffeeddccbbaa9988ULL }, 0x51, 0x60, 0x71 },
};

static void golden_ac_struct(struct smcr_clc_accept_confirm *m,
			     unsigned int i)
{
	/* memcpy, not assignment: the padding is compared too */
	memcpy(m, &ac_goldens[i].v, sizeof(*m));
	fill_seq(m->peer_id, sizeof(m->peer_id), ac_goldens[i].peer_id);
	fill_seq(m->gid, sizeof(m->gid), ac_goldens[i].gid);
	fill_seq(m->mac, sizeof(m->mac), ac_goldens[i].mac);
}

static void golden_accept_struct(struct smcr_clc_accept_confirm *m)
{
	golden_ac_struct(m, 0);
}

static void golden_confirm_struct(struct smcr_clc_accept_confirm *m)
{
	golden_ac_struct(m, 1);
}

static void golden_decline_struct(struct smcr_clc_decline *d)
{
	memset(d, 0, sizeof(*d));
	d->version = SMCR_CLC_V1;
	d->out_of_sync = true;
	fill_seq(d->peer_id, sizeof(d->peer_id), 0x91);
	d->diag = SMCR_CLC_DECL_SYNCERR;
	d->os_type = SMCR_CLC_OS_AIX;
}

static void golden_decline_v2_struct(struct smcr_clc_decline *d)
{
	memset(d, 0, sizeof(*d));
	d->version = SMCR_CLC_V2;
	fill_seq(d->peer_id, sizeof(d->peer_id), 0x81);
	d->diag = SMCR_CLC_DECL_NOSMCRDEV;
	d->os_type = SMCR_CLC_OS_LINUX;
	d->diag_v2[0] = SMCR_CLC_DECL_DIFFPREFIX;
	d->diag_v2[1] = SMCR_CLC_DECL_ERR_RTOK;
	d->diag_v2[2] = SMCR_CLC_DECL_MEM;
	d->diag_v2[3] = 5;
}

/* copy the string @str into the @n bytes at @dst, blank padded */
static void blank_pad(u8 *dst, const char *str, size_t n)
{
	memset(dst, ' ', n);
	memcpy(dst, str, strlen(str));
}

/* @n EIDs into @p: SMCR-EID-A, SMCR-EID-B, ... */
static void set_eids(struct smcr_clc_proposal *p, unsigned int n)
{
	char eid[] = "SMCR-EID-A";
	unsigned int i;

	p->eid_cnt = (u8)n;
	for (i = 0; i < n; i++, eid[9]++)
		blank_pad(p->eids[i], eid, SMCR_CLC_EID_LEN);
}

/* the v2 proposal fields common to the Linux goldens, with @eids EIDs */
static void golden_prop_v2_base(struct smcr_clc_proposal *p, u8 path_v1,
				unsigned int eids)
{
	memset(p, 0, sizeof(*p));
	p->version = SMCR_CLC_V2;
	p->path_v1 = path_v1;
	p->path_v2 = SMCR_CLC_PATH_R;
	p->v2_ext = true;
	memcpy(p->v2_gid, gid_v2_a, sizeof(p->v2_gid));
	set_eids(p, eids);
	if (path_v1 == SMCR_CLC_PATH_NONE)
		return;
	/* offering v1 too, Linux fills in its peer id, GID and MAC */
	fill_seq(p->peer_id, sizeof(p->peer_id), 0x11);
	fill_seq(p->gid, sizeof(p->gid), 0x20);
	fill_seq(p->mac, sizeof(p->mac), 0x31);
	p->iparea_offset = SMCR_CLC_SMCD_AREA_LEN;
}

static void golden_prop_v2_1eid_struct(struct smcr_clc_proposal *p)
{
	golden_prop_v2_base(p, SMCR_CLC_PATH_NONE, 1);
}

static void golden_prop_v2_2eid_struct(struct smcr_clc_proposal *p)
{
	golden_prop_v2_base(p, SMCR_CLC_PATH_NONE, 2);
}

static void golden_prop_v1v2_v4_struct(struct smcr_clc_proposal *p)
{
	golden_prop_v2_base(p, SMCR_CLC_PATH_R, 1);
	p->ipv4_subnet = 0xc0a86400;
	p->ipv4_prefix_len = 24;
}

static void golden_prop_v1v2_v6_struct(struct smcr_clc_proposal *p)
{
	static const u8 v6a[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x64 };
	static const u8 v6b[16] = { 0xfd, [7] = 0x64 };

	golden_prop_v2_base(p, SMCR_CLC_PATH_R, 1);
	p->ipv6_prefix_cnt = 2;
	memcpy(p->ipv6_prefix[0].addr, v6a, 16);
	p->ipv6_prefix[0].len = 64;
	memcpy(p->ipv6_prefix[1].addr, v6b, 16);
	p->ipv6_prefix[1].len = 64;
}

/* a v2 accept / confirm with the v1 fields of golden_accept (@i 0) or
 * golden_confirm (1), EID A and on a first contact Linux's extension
 */
static void golden_ac_v2_base(struct smcr_clc_accept_confirm *m,
			      unsigned int i, bool first_contact)
{
	golden_ac_struct(m, i);
	m->version = SMCR_CLC_V2;
	m->first_contact = first_contact;
	blank_pad(m->eid, "SMCR-EID-A", sizeof(m->eid));
	if (!first_contact)
		return;
	m->has_fce = true;
	m->fce.os_type = SMCR_CLC_OS_LINUX;
	blank_pad(m->fce.hostname, "smcr-a", sizeof(m->fce.hostname));
}

static void golden_acc_v2_fc_struct(struct smcr_clc_accept_confirm *m)
{
	golden_ac_v2_base(m, 0, true);
	m->fce.v2_direct = true;
}

static void golden_conf_v2_fc1_struct(struct smcr_clc_accept_confirm *m)
{
	golden_ac_v2_base(m, 1, true);
	m->gid_cnt = 1;
	memcpy(m->gids[0], gid_v2_a, SMCR_CLC_GID_LEN);
}

static void golden_conf_v2_fc2_struct(struct smcr_clc_accept_confirm *m)
{
	golden_conf_v2_fc1_struct(m);
	m->gid_cnt = 2;
	memcpy(m->gids[1], gid_v2_b, SMCR_CLC_GID_LEN);
}

static void golden_acc_v2_struct(struct smcr_clc_accept_confirm *m)
{
	golden_ac_v2_base(m, 0, false);
}

static void golden_conf_v2_struct(struct smcr_clc_accept_confirm *m)
{
	golden_ac_v2_base(m, 1, false);
}

/* one stretch of a golden message */
struct span {
	const u8 *b;
	size_t n;
};

#define SPAN(a)		{ (a), sizeof(a) }
#define GOLDEN_MAX	256

/*
 * A golden message: its stretches, put together by build_goldens(), and
 * for the SMC-Rv2 ones the decoded structure it stands for, built by
 * exactly one of @prop and @ac.
 */
struct golden {
	const char *name;
	struct span span[12];	/* up to the first empty one */
	void (*prop)(struct smcr_clc_proposal *p);
	void (*ac)(struct smcr_clc_accept_confirm *m);
	u8 msg[GOLDEN_MAX];
	size_t len;
};

/* the rest of a v2 golden's header, after its eyecatcher */
#define HDR_V2(g)	{ hdr_v2[g], 4 }
/* the v1 fields of golden_accept and golden_confirm */
#define ACC_V1_FIELDS	{ golden_accept + 8, 56 }
#define CONF_V1_FIELDS	{ golden_confirm + 8, 56 }

/* every golden message; also the seeds of the fuzz corpus */
static struct golden goldens[G_COUNT] = {
	[G_PROP_V1] = { "proposal_v1", { SPAN(golden_prop) } },
	[G_ACCEPT] = { "accept", { SPAN(golden_accept) } },
	[G_CONFIRM] = { "confirm", { SPAN(golden_confirm) } },
	[G_DECL_V1] = { "decline_v1", { SPAN(golden_decline) } },
	[G_DECL_V2] = { "decline_v2", { SPAN(golden_decline_v2) } },
	/* a Linux client offering SMC-Rv2 only: no local fields, IP area
	 * offset or IP area
	 */
	[G_PROP_V2_1EID] = { "proposal_v2_only_1eid",
		{ SPAN(eye), HDR_V2(G_PROP_V2_1EID), { zeroes, 32 },
		  SPAN(smcd_area_v2_only), SPAN(v2x_1eid), SPAN(eid_a),
		  SPAN(eye) },
		golden_prop_v2_1eid_struct },
	[G_PROP_V2_2EID] = { "proposal_v2_only_2eid",
		{ SPAN(eye), HDR_V2(G_PROP_V2_2EID), { zeroes, 32 },
		  SPAN(smcd_area_v2_only), SPAN(v2x_2eid), SPAN(eid_a),
		  SPAN(eid_b), SPAN(eye) },
		golden_prop_v2_2eid_struct },
	/* a Linux client offering SMC-R v1 and v2 */
	[G_PROP_V1V2_V4] = { "proposal_v1v2_ipv4",
		{ SPAN(eye), HDR_V2(G_PROP_V1V2_V4), { golden_prop + 8, 30 },
		  SPAN(iparea_off_40), SPAN(smcd_area_v1v2_v4),
		  SPAN(iparea_v4), SPAN(v2x_1eid), SPAN(eid_a), SPAN(eye) },
		golden_prop_v1v2_v4_struct },
	[G_PROP_V1V2_V6] = { "proposal_v1v2_ipv6",
		{ SPAN(eye), HDR_V2(G_PROP_V1V2_V6), { golden_prop + 8, 30 },
		  SPAN(iparea_off_40), SPAN(smcd_area_v1v2_v6),
		  SPAN(iparea_v6), SPAN(v2x_1eid), SPAN(eid_a), SPAN(eye) },
		golden_prop_v1v2_v6_struct },
	/* first contact: the extension, then 16 reserved bytes in an
	 * accept, the GID list in a confirm
	 */
	[G_ACC_V2_FC] = { "accept_v2_first",
		{ SPAN(eye), HDR_V2(G_ACC_V2_FC), ACC_V1_FIELDS,
		  SPAN(ac_eid_a), SPAN(fce_direct), SPAN(hostname_a),
		  { zeroes, 16 }, SPAN(eye) },
		NULL, golden_acc_v2_fc_struct },
	[G_CONF_V2_FC1] = { "confirm_v2_first_1gid",
		{ SPAN(eye), HDR_V2(G_CONF_V2_FC1), CONF_V1_FIELDS,
		  SPAN(ac_eid_a), SPAN(fce_gateway), SPAN(hostname_a),
		  SPAN(gidlist_1), SPAN(gid_v2_a), SPAN(eye) },
		NULL, golden_conf_v2_fc1_struct },
	[G_CONF_V2_FC2] = { "confirm_v2_first_2gid",
		{ SPAN(eye), HDR_V2(G_CONF_V2_FC2), CONF_V1_FIELDS,
		  SPAN(ac_eid_a), SPAN(fce_gateway), SPAN(hostname_a),
		  SPAN(gidlist_2), SPAN(gid_v2_a), SPAN(gid_v2_b), SPAN(eye) },
		NULL, golden_conf_v2_fc2_struct },
	/* no first contact: the v1 fields and the EID */
	[G_ACC_V2] = { "accept_v2",
		{ SPAN(eye), HDR_V2(G_ACC_V2), ACC_V1_FIELDS, SPAN(ac_eid_a),
		  SPAN(eye) },
		NULL, golden_acc_v2_struct },
	[G_CONF_V2] = { "confirm_v2",
		{ SPAN(eye), HDR_V2(G_CONF_V2), CONF_V1_FIELDS,
		  SPAN(ac_eid_a), SPAN(eye) },
		NULL, golden_conf_v2_struct },
};

/* Put every golden together; its header must give the length it adds
 * up to and it must end in the trailer, else the test itself is broken.
 */
static void build_goldens(void)
{
	const struct span *sp;
	struct golden *g;
	unsigned int i, j;
	bool ok;

	for (i = 0; i < G_COUNT; i++) {
		g = &goldens[i];
		ok = true;
		for (j = 0; j < ARRAY_LEN(g->span) && g->span[j].b; j++) {
			sp = &g->span[j];
			ok = g->len + sp->n <= GOLDEN_MAX;
			if (!ok)
				break;
			memcpy(g->msg + g->len, sp->b, sp->n);
			g->len += sp->n;
		}
		if (!ok || g->len < SMCR_CLC_HDR_LEN + SMCR_CLC_TRL_LEN ||
		    smcr_get_be16(g->msg + 5) != g->len ||
		    memcmp(g->msg + g->len - 4, eye, 4)) {
			printf("Bail out! golden %s is malformed\n", g->name);
			exit(2);
		}
	}
}

/* heap copy of exactly @n bytes so ASan flags any access beyond it */
static u8 *dup_exact(const u8 *src, size_t n)
{
	u8 *p = malloc(n ? n : 1);

	if (!p) {
		perror("malloc");
		exit(2);
	}
	if (n)
		memcpy(p, src, n);
	return p;
}

/* decode with @fn from an exact-size heap copy of @src */
#define DECODE_EXACT(fn, src, n, out) ({				\
	size_t _n = (n);						\
	u8 *_b = dup_exact(src, _n);					\
	int _rc = fn(_b, _n, out);					\
									\
	free(_b);							\
	_rc;								\
})

static int prop_decode_exact(const u8 *src, size_t n,
			     struct smcr_clc_proposal *p)
{
	return DECODE_EXACT(smcr_clc_proposal_decode, src, n, p);
}

static int ac_decode_exact(const u8 *src, size_t n,
			   struct smcr_clc_accept_confirm *m)
{
	return DECODE_EXACT(smcr_clc_accept_confirm_decode, src, n, m);
}

static int decl_decode_exact(const u8 *src, size_t n,
			     struct smcr_clc_decline *d)
{
	return DECODE_EXACT(smcr_clc_decline_decode, src, n, d);
}

/* decode a message of any type with the matching decoder */
static int any_decode_exact(const u8 *src, size_t n)
{
	struct smcr_clc_accept_confirm m;
	struct smcr_clc_proposal p;
	struct smcr_clc_decline d;
	int rc = -EINVAL;

	switch (n > 4 ? src[4] : 0) {
	case SMCR_CLC_TYPE_PROPOSAL:
		rc = prop_decode_exact(src, n, &p);
		break;
	case SMCR_CLC_TYPE_ACCEPT:
	case SMCR_CLC_TYPE_CONFIRM:
		rc = ac_decode_exact(src, n, &m);
		break;
	case SMCR_CLC_TYPE_DECLINE:
		rc = decl_decode_exact(src, n, &d);
		break;
	default:
		/* also run every decoder on short input */
		if (!prop_decode_exact(src, n, &p) ||
		    !ac_decode_exact(src, n, &m) ||
		    !decl_decode_exact(src, n, &d))
			rc = 0;
		break;
	}
	return rc;
}

/* ---------------------------------------------------------------- */

static void test_be_helpers(void)
{
	u8 b[8];

	smcr_put_be16(b, 0x1234);
	CHECK(b[0] == 0x12 && b[1] == 0x34);
	CHECK_EQ(smcr_get_be16(b), 0x1234);
	smcr_put_be24(b, 0xabcdef);
	CHECK(b[0] == 0xab && b[1] == 0xcd && b[2] == 0xef);
	CHECK_EQ(smcr_get_be24(b), 0xabcdef);
	smcr_put_be32(b, 0xdeadbeef);
	CHECK(b[0] == 0xde && b[3] == 0xef);
	CHECK_EQ(smcr_get_be32(b), 0xdeadbeef);
	smcr_put_be64(b, 0x0102030405060708ULL);
	CHECK(b[0] == 0x01 && b[7] == 0x08);
	CHECK(smcr_get_be64(b) == 0x0102030405060708ULL);
	smcr_put_be64(b, 0xffeeddccbbaa9988ULL);
	CHECK(smcr_get_be64(b) == 0xffeeddccbbaa9988ULL);
}

static void test_hdr_valid(void)
{
	struct smcr_clc_hdr h;

	CHECK_EQ(smcr_clc_hdr_decode(golden_prop, 8, &h), 0);
	CHECK_EQ(h.eyecatcher, SMCR_CLC_EYECATCHER_R);
	CHECK_EQ(h.type, SMCR_CLC_TYPE_PROPOSAL);
	CHECK_EQ(h.length, 86);
	CHECK_EQ(h.version, 1);
	CHECK_EQ(h.typebits, SMCR_CLC_PATH_R);

	CHECK_EQ(smcr_clc_hdr_decode(golden_accept, 8, &h), 0);
	CHECK_EQ(h.type, SMCR_CLC_TYPE_ACCEPT);
	CHECK_EQ(h.length, SMCR_CLC_ACC_CONF_LEN);
	CHECK_EQ(h.typebits, SMCR_CLC_FLAG_FC);

	CHECK_EQ(smcr_clc_hdr_decode(golden_confirm, 8, &h), 0);
	CHECK_EQ(h.type, SMCR_CLC_TYPE_CONFIRM);

	CHECK_EQ(smcr_clc_hdr_decode(golden_decline, 8, &h), 0);
	CHECK_EQ(h.type, SMCR_CLC_TYPE_DECLINE);
	CHECK_EQ(h.length, SMCR_CLC_DECLINE_LEN);
	CHECK_EQ(h.typebits, SMCR_CLC_FLAG_SYNC);

	CHECK_EQ(smcr_clc_hdr_decode(golden_decline_v2, 8, &h), 0);
	CHECK_EQ(h.version, 2);
	CHECK_EQ(h.length, SMCR_CLC_DECLINE_V2_LEN);
}

static void test_hdr_bad_eyecatcher(void)
{
	struct smcr_clc_hdr h;
	u8 b[8];
	int i;

	for (i = 0; i < 4; i++) {
		memcpy(b, golden_accept, 8);
		b[i] ^= 0x01;
		CHECK_EQ(smcr_clc_hdr_decode(b, 8, &h), -EPROTO);
	}
	/* SMC-D eyecatcher is known but not accepted */
	memcpy(b, golden_accept, 8);
	b[3] = 0xc4;
	CHECK_EQ(smcr_clc_hdr_decode(b, 8, &h), -EPROTO);
	CHECK_EQ(h.eyecatcher, SMCR_CLC_EYECATCHER_D);
}

static void test_hdr_unknown_type(void)
{
	static const u8 types[] = { 0, 5, 6, 0x80, 0xff };
	struct smcr_clc_hdr h;
	unsigned int i;
	u8 b[8];

	for (i = 0; i < ARRAY_LEN(types); i++) {
		memcpy(b, golden_accept, 8);
		b[4] = types[i];
		CHECK_EQ(smcr_clc_hdr_decode(b, 8, &h), -EPROTO);
	}
}

static void test_hdr_version_zero(void)
{
	struct smcr_clc_hdr h;
	u8 b[8];

	memcpy(b, golden_accept, 8);
	b[7] = 0x08;
	CHECK_EQ(smcr_clc_hdr_decode(b, 8, &h), -EPROTO);
	b[7] = 0xf8;	/* any non-zero version passes the header check */
	CHECK_EQ(smcr_clc_hdr_decode(b, 8, &h), 0);
	CHECK_EQ(h.version, 15);
}

static void test_hdr_length_bounds(void)
{
	static const struct { u8 type; u16 min; } t[] = {
		{ SMCR_CLC_TYPE_PROPOSAL, 52 },
		{ SMCR_CLC_TYPE_ACCEPT, 68 },
		{ SMCR_CLC_TYPE_CONFIRM, 68 },
		{ SMCR_CLC_TYPE_DECLINE, 28 },
	};
	struct smcr_clc_hdr h;
	unsigned int i;
	u8 b[8];

	for (i = 0; i < ARRAY_LEN(t); i++) {
		memcpy(b, golden_accept, 8);
		b[4] = t[i].type;
		smcr_put_be16(b + 5, t[i].min);
		CHECK_EQ(smcr_clc_hdr_decode(b, 8, &h), 0);
		smcr_put_be16(b + 5, t[i].min - 1);
		CHECK_EQ(smcr_clc_hdr_decode(b, 8, &h), -EMSGSIZE);
		smcr_put_be16(b + 5, 0);
		CHECK_EQ(smcr_clc_hdr_decode(b, 8, &h), -EMSGSIZE);
		smcr_put_be16(b + 5, SMCR_CLC_MAX_LEN);
		CHECK_EQ(smcr_clc_hdr_decode(b, 8, &h), 0);
		smcr_put_be16(b + 5, SMCR_CLC_MAX_LEN + 1);
		CHECK_EQ(smcr_clc_hdr_decode(b, 8, &h), -EMSGSIZE);
		smcr_put_be16(b + 5, 0xffff);
		CHECK_EQ(smcr_clc_hdr_decode(b, 8, &h), -EMSGSIZE);
	}
}

static void test_hdr_short_buffer(void)
{
	struct smcr_clc_hdr h;
	size_t n;
	u8 *b;

	for (n = 0; n < SMCR_CLC_HDR_LEN; n++) {
		b = dup_exact(golden_accept, n);
		CHECK_EQ(smcr_clc_hdr_decode(b, n, &h), -EMSGSIZE);
		free(b);
	}
}

static void test_trailer(void)
{
	u8 b[68];
	int i;

	CHECK_EQ(smcr_clc_check_trailer(golden_accept, 68), 0);
	CHECK_EQ(smcr_clc_check_trailer(golden_accept, 11), -EMSGSIZE);
	for (i = 64; i < 68; i++) {
		memcpy(b, golden_accept, 68);
		b[i] = 0xc4;
		CHECK_EQ(smcr_clc_check_trailer(b, 68), -EBADMSG);
	}
}

static void test_prop_golden_encode(void)
{
	struct smcr_clc_proposal p;
	u8 b[128];

	golden_prop_struct(&p);
	CHECK_EQ(smcr_clc_proposal_len(&p), sizeof(golden_prop));
	memset(b, 0xaa, sizeof(b));
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)),
		 sizeof(golden_prop));
	CHECK(!memcmp(b, golden_prop, sizeof(golden_prop)));
	CHECK_EQ(b[sizeof(golden_prop)], 0xaa);	/* nothing written beyond */
}

static void test_prop_golden_decode(void)
{
	struct smcr_clc_proposal p, exp;

	golden_prop_struct(&exp);
	CHECK_EQ(prop_decode_exact(golden_prop, sizeof(golden_prop), &p), 0);
	CHECK_EQ(p.version, 1);
	CHECK_EQ(p.path_v1, SMCR_CLC_PATH_R);
	CHECK_EQ(p.path_v2, 0);
	CHECK(!memcmp(p.peer_id, exp.peer_id, 8));
	CHECK(!memcmp(p.gid, exp.gid, 16));
	CHECK(!memcmp(p.mac, exp.mac, 6));
	CHECK_EQ(p.iparea_offset, 0);
	CHECK_EQ(p.ipv4_subnet, 0xc0a80100);
	CHECK_EQ(p.ipv4_prefix_len, 24);
	CHECK_EQ(p.ipv6_prefix_cnt, 2);
	CHECK(!memcmp(p.ipv6_prefix[0].addr, exp.ipv6_prefix[0].addr, 16));
	CHECK_EQ(p.ipv6_prefix[0].len, 64);
	CHECK(!memcmp(p.ipv6_prefix[1].addr, exp.ipv6_prefix[1].addr, 16));
	CHECK_EQ(p.ipv6_prefix[1].len, 48);
	CHECK(!p.v2_ext);
	CHECK(!memcmp(&p, &exp, sizeof(p)));
}

static void test_prop_ipv4_only(void)
{
	struct smcr_clc_proposal p, q;
	u8 b[64];

	golden_prop_struct(&p);
	p.ipv6_prefix_cnt = 0;
	memset(p.ipv6_prefix, 0, sizeof(p.ipv6_prefix));
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), 52);
	CHECK_EQ(smcr_get_be16(b + 5), 52);	/* RFC A.2.2: IPv4 is 52 */
	CHECK_EQ(prop_decode_exact(b, 52, &q), 0);
	CHECK(!memcmp(&p, &q, sizeof(p)));
}

static void test_prop_max_v6_and_offset(void)
{
	struct smcr_clc_proposal p, q;
	u8 b[SMCR_CLC_MAX_LEN];
	int i, n;

	golden_prop_struct(&p);
	p.path_v1 = SMCR_CLC_PATH_BOTH;
	p.ipv4_subnet = 0;
	p.ipv4_prefix_len = 0;
	p.iparea_offset = SMCR_CLC_IPAREA_OFF_MAX;
	p.ipv6_prefix_cnt = SMCR_CLC_MAX_V6_PREFIX;
	for (i = 0; i < SMCR_CLC_MAX_V6_PREFIX; i++) {
		fill_seq(p.ipv6_prefix[i].addr, 16, (u8)(0x40 + 16 * i));
		p.ipv6_prefix[i].len = (u8)(121 + i);
	}
	n = smcr_clc_proposal_encode(&p, b, sizeof(b));
	CHECK_EQ(n, 40 + 40 + 8 + 8 * 17 + 4);
	CHECK_EQ(b[7], 0x13);
	CHECK_EQ(b[80 + 7], 8);			/* count after skipped area */
	CHECK_EQ(b[88 + 7 * 17 + 16], 128);	/* last prefix length */
	/* the skipped area is opaque: garbage there must not matter */
	memset(b + 40, 0x5a, 40);
	CHECK_EQ(prop_decode_exact(b, n, &q), 0);
	CHECK(!memcmp(&p, &q, sizeof(p)));
}

/* a version 2 proposal laid out as Linux does: SMC-D area, IP area, v2
 * extension with the EIDs; the encoder places and points at each part
 */
static void test_prop_v2_layout(void)
{
	struct smcr_clc_proposal p, q;
	u8 b[SMCR_CLC_MAX_LEN];
	int n;

	golden_prop_struct(&p);
	p.version = SMCR_CLC_V2;
	p.path_v2 = SMCR_CLC_PATH_R;
	p.iparea_offset = 40;
	p.v2_ext = true;
	fill_seq(p.v2_gid, 16, 0x90);
	set_eids(&p, 2);
	n = smcr_clc_proposal_encode(&p, b, sizeof(b));
	CHECK_EQ(n, 40 + 40 + 8 + 2 * 17 + 40 + 2 * 32 + 4);
	CHECK_EQ(b[7], 0x20);
	CHECK_EQ(smcr_get_be16(b + 38), 40);
	CHECK_EQ(smcr_get_be16(b + 50), 28 + 8 + 2 * 17);	/* v2 ext */
	CHECK_EQ(b[122], 2);					/* EIDs */
	CHECK(!memcmp(b + 130, p.v2_gid, 16));
	CHECK(!memcmp(b + 162, p.eids[0], 32));
	CHECK(!memcmp(b + 194, p.eids[1], 32));
	/* the SMC-D GID area around the offset field is not looked at */
	memset(b + 40, 0x77, 10);
	memset(b + 52, 0x77, 28);
	CHECK_EQ(prop_decode_exact(b, n, &q), 0);
	CHECK(!memcmp(&p, &q, sizeof(p)));

	/* v2 only (v1 path "none"): no IP area, no IP area offset */
	memset(&p, 0, sizeof(p));
	p.version = SMCR_CLC_V2;
	p.path_v1 = SMCR_CLC_PATH_NONE;
	p.path_v2 = SMCR_CLC_PATH_R;
	p.v2_ext = true;
	fill_seq(p.gid, 16, 1);
	set_eids(&p, 1);
	n = smcr_clc_proposal_encode(&p, b, sizeof(b));
	CHECK_EQ(n, 40 + 40 + 40 + 32 + 4);
	CHECK_EQ(b[7], 0x22);
	CHECK_EQ(smcr_get_be16(b + 38), 0);
	CHECK_EQ(smcr_get_be16(b + 50), 28);
	CHECK_EQ(prop_decode_exact(b, n, &q), 0);
	CHECK(!memcmp(&p, &q, sizeof(p)));
}

static void put_len_trl(u8 *b, size_t n)
{
	static const u8 eye[4] = { 0xe2, 0xd4, 0xc3, 0xd9 };

	smcr_put_be16(b + 5, (u16)n);
	memcpy(b + n - 4, eye, 4);
}

static void test_prop_reject_offset(void)
{
	struct smcr_clc_proposal p;
	u8 b[256];
	size_t n = sizeof(golden_prop);

	/* offset beyond the Linux bound */
	memcpy(b, golden_prop, n);
	smcr_put_be16(b + 38, 41);
	CHECK_EQ(prop_decode_exact(b, n, &p), -EBADMSG);
	/* offset pointing past the end of the message */
	smcr_put_be16(b + 38, 40);
	CHECK_EQ(prop_decode_exact(b, n, &p), -EBADMSG);
	smcr_put_be16(b + 38, 0xffff);
	CHECK_EQ(prop_decode_exact(b, n, &p), -EBADMSG);
	/* IP area header would overlap the trailer */
	memcpy(b, golden_prop, 52);
	b[47] = 0;
	smcr_put_be16(b + 38, 1);
	put_len_trl(b, 52);
	CHECK_EQ(prop_decode_exact(b, 52, &p), -EBADMSG);
	smcr_put_be16(b + 38, 0);
	CHECK_EQ(prop_decode_exact(b, 52, &p), 0);
}

static void test_prop_reject_v6_count(void)
{
	struct smcr_clc_proposal p;
	u8 b[256];
	size_t n = 40 + 8 + 9 * 17 + 4;

	/* nine prefixes, correctly framed */
	memset(b, 0, sizeof(b));
	memcpy(b, golden_prop, 48);
	b[47] = 9;
	put_len_trl(b, n);
	CHECK_EQ(prop_decode_exact(b, n, &p), -EBADMSG);
	b[47] = 255;
	CHECK_EQ(prop_decode_exact(b, n, &p), -EBADMSG);
	/* count larger than the room left in the message */
	memcpy(b, golden_prop, sizeof(golden_prop));
	b[47] = 3;
	CHECK_EQ(prop_decode_exact(b, sizeof(golden_prop), &p), -EBADMSG);
	/* count smaller than the prefixes present: trailing garbage */
	b[47] = 1;
	CHECK_EQ(prop_decode_exact(b, sizeof(golden_prop), &p), -EBADMSG);
}

static void test_prop_reject_prefix_len(void)
{
	struct smcr_clc_proposal p;
	u8 b[sizeof(golden_prop)];

	memcpy(b, golden_prop, sizeof(b));
	b[44] = 32;
	CHECK_EQ(prop_decode_exact(b, sizeof(b), &p), 0);
	b[44] = 33;
	CHECK_EQ(prop_decode_exact(b, sizeof(b), &p), -EBADMSG);
	memcpy(b, golden_prop, sizeof(b));
	b[64] = 128;
	b[81] = 128;
	CHECK_EQ(prop_decode_exact(b, sizeof(b), &p), 0);
	b[64] = 129;
	CHECK_EQ(prop_decode_exact(b, sizeof(b), &p), -EBADMSG);
	b[64] = 0;
	b[81] = 0xff;
	CHECK_EQ(prop_decode_exact(b, sizeof(b), &p), -EBADMSG);
}

static void test_prop_reject_misc(void)
{
	struct smcr_clc_proposal p;
	u8 b[sizeof(golden_prop) + 8];
	size_t n = sizeof(golden_prop);

	/* v1 with stray bytes before the trailer */
	memset(b, 0, sizeof(b));
	memcpy(b, golden_prop, n - 4);
	put_len_trl(b, n + 4);
	CHECK_EQ(prop_decode_exact(b, n + 4, &p), -EBADMSG);
	/* nor is it a version 2 proposal: no SMC-D area, no v2 extension */
	b[7] = 0x20;
	CHECK_EQ(prop_decode_exact(b, n + 4, &p), -EBADMSG);
	b[7] = 0x20 | SMCR_CLC_PATH_NONE << 2;
	CHECK_EQ(prop_decode_exact(b, n + 4, &p), -EBADMSG);
	/* v1 path "none" */
	memcpy(b, golden_prop, n);
	b[7] = 0x12;
	CHECK_EQ(prop_decode_exact(b, n, &p), -EPROTO);
	/* bad trailer */
	memcpy(b, golden_prop, n);
	b[n - 1] = 0xc4;
	CHECK_EQ(prop_decode_exact(b, n, &p), -EBADMSG);
	/* bad leading eyecatcher */
	memcpy(b, golden_prop, n);
	b[0] = 0;
	CHECK_EQ(prop_decode_exact(b, n, &p), -EPROTO);
	/* another message type */
	CHECK_EQ(prop_decode_exact(golden_accept, 68, &p), -EPROTO);
	/* buffer longer or shorter than the message */
	memcpy(b, golden_prop, n);
	CHECK_EQ(prop_decode_exact(b, n + 1, &p), -EMSGSIZE);
	CHECK_EQ(prop_decode_exact(b, n - 1, &p), -EMSGSIZE);
	/* reserved bytes are not validated (A.2) */
	b[45] = 0xff;
	b[46] = 0xff;
	CHECK_EQ(prop_decode_exact(b, n, &p), 0);
}

static void test_prop_encode_invalid(void)
{
	struct smcr_clc_proposal p;
	u8 b[SMCR_CLC_MAX_LEN];

	golden_prop_struct(&p);
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(golden_prop) - 1),
		 -ENOSPC);
	p.ipv6_prefix_cnt = 9;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), -EINVAL);
	golden_prop_struct(&p);
	p.ipv6_prefix[1].len = 129;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), -EINVAL);
	golden_prop_struct(&p);
	p.ipv4_prefix_len = 33;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), -EINVAL);
	golden_prop_struct(&p);
	p.iparea_offset = 41;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), -EINVAL);
	/* version 1 has no v2 extension */
	golden_prop_struct(&p);
	p.v2_ext = true;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), -EINVAL);
	/* version 2 has it exactly when it offers a v2 path */
	p.version = SMCR_CLC_V2;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)),
		 40 + 40 + 8 + 2 * 17 + 40 + 4);
	p.v2_ext = false;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), -EINVAL);
	p.path_v2 = SMCR_CLC_PATH_NONE;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)),
		 40 + 40 + 8 + 2 * 17 + 4);
	p.v2_ext = true;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), -EINVAL);
	/* and offers at least one path */
	p.v2_ext = false;
	p.path_v1 = SMCR_CLC_PATH_NONE;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), -EINVAL);
	golden_prop_struct(&p);
	p.version = 0;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), -EINVAL);
	p.version = 16;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), -EINVAL);
	golden_prop_struct(&p);
	p.path_v1 = SMCR_CLC_PATH_NONE;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), -EINVAL);
	golden_prop_struct(&p);
	p.path_v2 = SMCR_CLC_PATH_R | 1;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), -EINVAL);
	p.version = SMCR_CLC_V2;
	p.path_v2 = 4;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), -EINVAL);
}

static void check_ac_equal(const struct smcr_clc_accept_confirm *a,
			   const struct smcr_clc_accept_confirm *e)
{
	CHECK_EQ(a->type, e->type);
	CHECK_EQ(a->first_contact, e->first_contact);
	CHECK(!memcmp(a->peer_id, e->peer_id, 8));
	CHECK(!memcmp(a->gid, e->gid, 16));
	CHECK(!memcmp(a->mac, e->mac, 6));
	CHECK_EQ(a->qpn, e->qpn);
	CHECK_EQ(a->rmb_rkey, e->rmb_rkey);
	CHECK_EQ(a->rmbe_idx, e->rmbe_idx);
	CHECK_EQ(a->rmbe_alert_token, e->rmbe_alert_token);
	CHECK_EQ(a->rmbe_size, e->rmbe_size);
	CHECK_EQ(a->qp_mtu, e->qp_mtu);
	CHECK(a->rmb_dma_addr == e->rmb_dma_addr);
	CHECK_EQ(a->psn, e->psn);
	CHECK(!memcmp(a, e, sizeof(*a)));
}

static void test_ac_golden(const u8 *golden,
			   void (*mk)(struct smcr_clc_accept_confirm *))
{
	struct smcr_clc_accept_confirm m, exp;
	u8 b[80];

	mk(&exp);
	memset(b, 0xaa, sizeof(b));
	CHECK_EQ(smcr_clc_accept_confirm_encode(&exp, b, sizeof(b)), 68);
	CHECK(!memcmp(b, golden, 68));
	CHECK_EQ(b[68], 0xaa);
	CHECK_EQ(ac_decode_exact(golden, 68, &m), 0);
	check_ac_equal(&m, &exp);
}

static void test_accept_golden(void)
{
	test_ac_golden(golden_accept, golden_accept_struct);
}

static void test_confirm_golden(void)
{
	test_ac_golden(golden_confirm, golden_confirm_struct);
}

static void test_ac_roundtrip_extremes(void)
{
	struct smcr_clc_accept_confirm m, q;
	u8 b[68];

	golden_confirm_struct(&m);
	m.first_contact = true;		/* Linux sets F in confirm too */
	m.qpn = 0xffffff;
	m.psn = 0xffffff;
	m.rmb_rkey = 0xffffffff;
	m.rmbe_alert_token = 0xffffffff;
	m.rmbe_idx = 0xff;
	m.rmbe_size = 15;
	m.qp_mtu = 15;
	m.rmb_dma_addr = ~0ULL;
	CHECK_EQ(smcr_clc_accept_confirm_encode(&m, b, sizeof(b)), 68);
	CHECK_EQ(b[7], 0x18);
	CHECK_EQ(b[50], 0xff);
	CHECK_EQ(ac_decode_exact(b, 68, &q), 0);
	check_ac_equal(&q, &m);
	memset(&m, 0, sizeof(m));
	m.type = SMCR_CLC_TYPE_ACCEPT;
	m.version = SMCR_CLC_V1;
	CHECK_EQ(smcr_clc_accept_confirm_encode(&m, b, sizeof(b)), 68);
	CHECK_EQ(ac_decode_exact(b, 68, &q), 0);
	check_ac_equal(&q, &m);
}

static void test_ac_reject(void)
{
	struct smcr_clc_accept_confirm m;
	u8 b[80];

	/* version 2 is at least 108 bytes long */
	memcpy(b, golden_accept, 68);
	b[7] = 0x28;
	CHECK_EQ(ac_decode_exact(b, 68, &m), -EBADMSG);
	/* version 3 is not known */
	b[7] = 0x38;
	CHECK_EQ(ac_decode_exact(b, 68, &m), -EPROTO);
	/* SMC-D path type */
	b[7] = 0x19;
	CHECK_EQ(ac_decode_exact(b, 68, &m), -EPROTO);
	/* wrong lengths, correctly framed */
	memset(b, 0, sizeof(b));
	memcpy(b, golden_accept, 64);
	put_len_trl(b, 72);
	CHECK_EQ(ac_decode_exact(b, 72, &m), -EBADMSG);
	memcpy(b, golden_accept, 68);
	smcr_put_be16(b + 5, 67);
	CHECK_EQ(ac_decode_exact(b, 68, &m), -EMSGSIZE);
	/* bad trailer, bad leading eyecatcher */
	memcpy(b, golden_confirm, 68);
	b[66] = 0;
	CHECK_EQ(ac_decode_exact(b, 68, &m), -EBADMSG);
	memcpy(b, golden_confirm, 68);
	b[1] = 0;
	CHECK_EQ(ac_decode_exact(b, 68, &m), -EPROTO);
	/* other message types */
	CHECK_EQ(ac_decode_exact(golden_decline, 28, &m), -EPROTO);
	CHECK(ac_decode_exact(golden_prop, sizeof(golden_prop), &m) < 0);
	/* buffer not exactly one message */
	CHECK_EQ(ac_decode_exact(golden_accept, 67, &m), -EMSGSIZE);
	memcpy(b, golden_accept, 68);
	CHECK_EQ(ac_decode_exact(b, 69, &m), -EMSGSIZE);

	/* encoder */
	golden_accept_struct(&m);
	CHECK_EQ(smcr_clc_accept_confirm_encode(&m, b, 67), -ENOSPC);
	m.qpn = 0x1000000;
	CHECK_EQ(smcr_clc_accept_confirm_encode(&m, b, 68), -EINVAL);
	golden_accept_struct(&m);
	m.psn = 0x1000000;
	CHECK_EQ(smcr_clc_accept_confirm_encode(&m, b, 68), -EINVAL);
	golden_accept_struct(&m);
	m.rmbe_size = 16;
	CHECK_EQ(smcr_clc_accept_confirm_encode(&m, b, 68), -EINVAL);
	golden_accept_struct(&m);
	m.qp_mtu = 16;
	CHECK_EQ(smcr_clc_accept_confirm_encode(&m, b, 68), -EINVAL);
	golden_accept_struct(&m);
	m.type = SMCR_CLC_TYPE_DECLINE;
	CHECK_EQ(smcr_clc_accept_confirm_encode(&m, b, 68), -EINVAL);
}

static void test_decline_golden(const u8 *golden, size_t n,
				void (*mk)(struct smcr_clc_decline *))
{
	struct smcr_clc_decline d, exp;
	u8 b[64];
	int i;

	mk(&exp);
	memset(b, 0xaa, sizeof(b));
	CHECK_EQ(smcr_clc_decline_encode(&exp, b, sizeof(b)), n);
	CHECK(!memcmp(b, golden, n));
	CHECK_EQ(b[n], 0xaa);
	CHECK_EQ(decl_decode_exact(golden, n, &d), 0);
	CHECK_EQ(d.version, exp.version);
	CHECK_EQ(d.out_of_sync, exp.out_of_sync);
	CHECK(!memcmp(d.peer_id, exp.peer_id, 8));
	CHECK_EQ(d.diag, exp.diag);
	CHECK_EQ(d.os_type, exp.os_type);
	for (i = 0; i < SMCR_CLC_DECL_DIAG_V2_CNT; i++)
		CHECK_EQ(d.diag_v2[i], exp.diag_v2[i]);
	CHECK(!memcmp(&d, &exp, sizeof(d)));
}

static void test_decline_v1_golden(void)
{
	test_decline_golden(golden_decline, sizeof(golden_decline),
			    golden_decline_struct);
}

static void test_decline_v2_golden(void)
{
	test_decline_golden(golden_decline_v2, sizeof(golden_decline_v2),
			    golden_decline_v2_struct);
}

static void test_decline_reject(void)
{
	struct smcr_clc_decline d;
	u8 b[64];

	/* v1 sized as v2 and vice versa */
	memcpy(b, golden_decline_v2, 44);
	b[7] = 0x10;
	CHECK_EQ(decl_decode_exact(b, 44, &d), -EBADMSG);
	memcpy(b, golden_decline, 28);
	b[7] = 0x20;
	CHECK_EQ(decl_decode_exact(b, 28, &d), -EBADMSG);
	/* trailing garbage before the trailer */
	memset(b, 0, sizeof(b));
	memcpy(b, golden_decline, 24);
	put_len_trl(b, 32);
	CHECK_EQ(decl_decode_exact(b, 32, &d), -EBADMSG);
	/* bad trailer and eyecatcher */
	memcpy(b, golden_decline, 28);
	b[24] = 0;
	CHECK_EQ(decl_decode_exact(b, 28, &d), -EBADMSG);
	memcpy(b, golden_decline_v2, 44);
	b[43] = 0xc4;
	CHECK_EQ(decl_decode_exact(b, 44, &d), -EBADMSG);
	memcpy(b, golden_decline, 28);
	b[2] = 0;
	CHECK_EQ(decl_decode_exact(b, 28, &d), -EPROTO);
	/* wrong type, length fields, buffer sizes */
	CHECK_EQ(decl_decode_exact(golden_accept, 68, &d), -EPROTO);
	memcpy(b, golden_decline, 28);
	smcr_put_be16(b + 5, 27);
	CHECK_EQ(decl_decode_exact(b, 28, &d), -EMSGSIZE);
	CHECK_EQ(decl_decode_exact(golden_decline, 27, &d), -EMSGSIZE);
	memcpy(b, golden_decline, 28);
	CHECK_EQ(decl_decode_exact(b, 29, &d), -EMSGSIZE);
	/* out-of-sync flag cleared */
	b[7] = 0x10;
	CHECK_EQ(decl_decode_exact(b, 28, &d), 0);
	CHECK(!d.out_of_sync);

	/* encoder */
	golden_decline_struct(&d);
	CHECK_EQ(smcr_clc_decline_encode(&d, b, 27), -ENOSPC);
	d.version = 2;
	CHECK_EQ(smcr_clc_decline_encode(&d, b, 43), -ENOSPC);
	d.version = 0;
	CHECK_EQ(smcr_clc_decline_encode(&d, b, 64), -EINVAL);
	d.version = 16;
	CHECK_EQ(smcr_clc_decline_encode(&d, b, 64), -EINVAL);
	d.version = 1;
	d.os_type = 16;
	CHECK_EQ(smcr_clc_decline_encode(&d, b, 64), -EINVAL);
}

/* ------------------------------------------------------------------ */
/* SMC-Rv2 */

/* a proposal or an accept / confirm, as a golden's builder makes it */
union clc_msg {
	struct smcr_clc_proposal p;
	struct smcr_clc_accept_confirm m;
};

/* fill @v with what golden @g stands for */
static void golden_struct(const struct golden *g, union clc_msg *v)
{
	memset(v, 0, sizeof(*v));
	if (g->prop)
		g->prop(&v->p);
	else
		g->ac(&v->m);
}

/* encode @v, of the type of golden @g, into @b of @len bytes */
static int golden_encode(const struct golden *g, const union clc_msg *v,
			 u8 *b, size_t len)
{
	return g->prop ? smcr_clc_proposal_encode(&v->p, b, len) :
			 smcr_clc_accept_confirm_encode(&v->m, b, len);
}

/* golden @g decodes to its structure, which encodes to its bytes and
 * nothing beyond, and not into a buffer one byte short
 */
static void check_golden(const struct golden *g)
{
	union clc_msg exp, got;
	u8 b[GOLDEN_MAX + 1];
	int rc;

	memset(&got, 0, sizeof(got));
	rc = g->prop ? prop_decode_exact(g->msg, g->len, &got.p) :
		       ac_decode_exact(g->msg, g->len, &got.m);
	CHECK_EQ(rc, 0);
	golden_struct(g, &exp);
	CHECK(!memcmp(&got, &exp, sizeof(exp)));
	memset(b, 0xaa, sizeof(b));
	CHECK_EQ(golden_encode(g, &exp, b, sizeof(b)), g->len);
	CHECK(!memcmp(b, g->msg, g->len));
	CHECK_EQ(b[g->len], 0xaa);
	CHECK_EQ(golden_encode(g, &exp, b, g->len - 1), -ENOSPC);
}

/* check_golden() on the v2 goldens of proposals (@prop) or the others */
static void check_goldens(bool prop)
{
	const struct golden *g;
	int failed = cur_fail;
	unsigned int i;

	for (i = 0; i < G_COUNT; i++) {
		g = &goldens[i];
		if (prop ? !g->prop : !g->ac)
			continue;
		cur_fail = 0;
		check_golden(g);
		if (cur_fail)
			printf("# golden %s\n", g->name);
		failed |= cur_fail;
	}
	cur_fail = failed;
}

static void test_prop_v2_goldens(void)
{
	check_goldens(true);
}

static void test_ac_v2_goldens(void)
{
	check_goldens(false);
}

/* Linux leaves peer ID, GID and MAC zero in a v2-only proposal. The
 * encoder writes what the structure holds, so only a structure with
 * them zero gives Linux's bytes; the IP area offset it sets itself.
 */
static void test_prop_v2_local_fields(void)
{
	const struct golden *g = &goldens[G_PROP_V2_1EID];
	struct smcr_clc_proposal p, q;
	u8 b[GOLDEN_MAX];

	golden_prop_v2_1eid_struct(&p);
	memcpy(p.peer_id, golden_prop + 8, 8);
	memcpy(p.gid, golden_prop + 16, 16);
	memcpy(p.mac, golden_prop + 32, 6);
	p.iparea_offset = 40;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), g->len);
	CHECK(!memcmp(b, g->msg, 8));
	CHECK(!memcmp(b + 8, golden_prop + 8, 30));
	CHECK(!memcmp(b + 38, g->msg + 38, g->len - 38));
	CHECK_EQ(prop_decode_exact(b, g->len, &q), 0);
	p.iparea_offset = 0;
	CHECK(!memcmp(&p, &q, sizeof(p)));

	g = &goldens[G_PROP_V1V2_V4];
	golden_prop_v1v2_v4_struct(&p);
	p.iparea_offset = 0;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), g->len);
	CHECK(!memcmp(b, g->msg, g->len));
}

/* the farthest v2 extension: after the IP area with eight prefixes */
static void test_prop_v2_ext_offset_max(void)
{
	struct smcr_clc_proposal p, q;
	u8 b[SMCR_CLC_MAX_LEN];
	int i, n;

	golden_prop_v1v2_v6_struct(&p);
	p.ipv6_prefix_cnt = SMCR_CLC_MAX_V6_PREFIX;
	for (i = 2; i < SMCR_CLC_MAX_V6_PREFIX; i++) {
		fill_seq(p.ipv6_prefix[i].addr, 16, (u8)(16 * i));
		p.ipv6_prefix[i].len = 128;
	}
	set_eids(&p, SMCR_CLC_MAX_UEID);
	n = smcr_clc_proposal_encode(&p, b, sizeof(b));
	CHECK_EQ(n, 80 + 8 + 8 * 17 + 40 + 8 * 32 + 4);
	CHECK_EQ(smcr_get_be16(b + 50), 172);
	CHECK_EQ(prop_decode_exact(b, n, &q), 0);
	CHECK(!memcmp(&p, &q, sizeof(p)));
	smcr_put_be16(b + 50, 173);
	CHECK_EQ(prop_decode_exact(b, n, &q), -EBADMSG);
}

/* Release 1 (Linux 6.12): the limits in the proposal's v2 extension and
 * in the first contact extension, in bytes release 0 left zero, so the
 * lengths stay those of the goldens
 */
static void test_release1(void)
{
	const struct golden *g = &goldens[G_PROP_V2_1EID];
	struct smcr_clc_accept_confirm m, q;
	struct smcr_clc_proposal p, r;
	u8 b[GOLDEN_MAX];
	size_t x;

	golden_prop_v2_1eid_struct(&p);
	p.v2_release = 1;
	p.v2_max_conns = 16;
	p.v2_max_links = 1;
	p.v2_features = 0x0001;
	CHECK_EQ(smcr_clc_proposal_encode(&p, b, sizeof(b)), g->len);
	x = 52 + smcr_get_be16(b + 50);
	CHECK_EQ(b[x + 3], 0x10);
	CHECK_EQ(b[x + 24], 16);
	CHECK_EQ(b[x + 25], 1);
	CHECK_EQ(smcr_get_be16(b + x + 26), 0x0001);
	CHECK(!memcmp(b + x + 28, g->msg + x + 28, 12));
	CHECK_EQ(prop_decode_exact(b, g->len, &r), 0);
	CHECK(!memcmp(&p, &r, sizeof(p)));
	/* release 0's zeros decode as no limits */
	CHECK_EQ(prop_decode_exact(g->msg, g->len, &r), 0);
	CHECK(!r.v2_max_conns && !r.v2_max_links && !r.v2_features);

	g = &goldens[G_ACC_V2_FC];
	golden_acc_v2_fc_struct(&m);
	m.fce.release = 1;
	m.fce.max_conns = 255;
	m.fce.max_links = 2;
	m.fce.features = 0x0001;
	m.fce.vendor_opts = 0x01020304;
	CHECK_EQ(smcr_clc_accept_confirm_encode(&m, b, sizeof(b)), g->len);
	CHECK_EQ(b[105], 0x21);
	CHECK_EQ(b[140], 255);
	CHECK_EQ(b[141], 2);
	CHECK_EQ(smcr_get_be16(b + 142), 0x0001);
	CHECK_EQ(smcr_get_be32(b + 144), 0x01020304);
	CHECK_EQ(ac_decode_exact(b, g->len, &q), 0);
	CHECK(!memcmp(&m, &q, sizeof(m)));
	/* an extension of release 0's 36 bytes: no limits */
	put_len_trl(b, 144);
	CHECK_EQ(ac_decode_exact(b, 144, &q), 0);
	CHECK(q.has_fce && q.fce.release == 1 && !q.fce.max_conns &&
	      !q.fce.max_links && !q.fce.features);

	/* a confirm: the GID list behind them */
	g = &goldens[G_CONF_V2_FC1];
	golden_conf_v2_fc1_struct(&m);
	m.fce.release = 1;
	m.fce.max_conns = 16;
	m.fce.max_links = 1;
	CHECK_EQ(smcr_clc_accept_confirm_encode(&m, b, sizeof(b)), g->len);
	CHECK_EQ(b[140], 16);
	CHECK_EQ(b[141], 1);
	CHECK_EQ(b[156], 1);
	CHECK(!memcmp(b + 160, g->msg + 160, SMCR_CLC_GID_LEN));
	CHECK_EQ(ac_decode_exact(b, g->len, &q), 0);
	CHECK(!memcmp(&m, &q, sizeof(m)));
}

/* one agreement of release 1: an end's own terms met with the peer's
 * release and limits, the decline code and the terms it ends with
 */
struct terms_case {
	struct smcr_clc_terms own;
	u8 release, max_conns, max_links;
	u32 rc;
	struct smcr_clc_terms want;
};

#define TERMS_DEFAULT	{ 0, 255, 2 }

/* server: the lower of each; release 0 on either side gives defaults */
static const struct terms_case server_cases[] = {
	{ { 1, 100, 1 }, 1, 16, 2, 0, { 1, 16, 1 } },
	{ { 1, 100, 1 }, 0, 0, 0, 0, TERMS_DEFAULT },
	{ { 0, 255, 2 }, 1, 16, 1, 0, TERMS_DEFAULT },
	{ { 1, 255, 2 }, 7, 255, 2, 0, { 1, 255, 2 } },
	{ { 1, 255, 2 }, 1, 15, 2, SMCR_CLC_DECL_MAXCONNERR, { 0 } },
	{ { 1, 255, 2 }, 1, 0, 2, SMCR_CLC_DECL_MAXCONNERR, { 0 } },
	{ { 1, 255, 2 }, 1, 16, 0, SMCR_CLC_DECL_MAXLINKERR, { 0 } },
};

/* client: what the server could have given, no more than proposed */
static const struct terms_case client_cases[] = {
	{ { 1, 255, 2 }, 1, 16, 1, 0, { 1, 16, 1 } },
	{ { 1, 255, 2 }, 0, 0, 0, 0, TERMS_DEFAULT },
	{ { 1, 255, 2 }, 2, 16, 1, SMCR_CLC_DECL_RELEASEERR, { 0 } },
	{ { 0, 255, 2 }, 1, 16, 1, SMCR_CLC_DECL_RELEASEERR, { 0 } },
	{ { 1, 255, 2 }, 1, 15, 1, SMCR_CLC_DECL_MAXCONNERR, { 0 } },
	{ { 1, 100, 2 }, 1, 200, 1, SMCR_CLC_DECL_MAXCONNERR, { 0 } },
	{ { 1, 255, 2 }, 1, 16, 3, SMCR_CLC_DECL_MAXLINKERR, { 0 } },
	{ { 1, 255, 2 }, 1, 16, 0, SMCR_CLC_DECL_MAXLINKERR, { 0 } },
};

/* @c met as the server meets a Proposal, or as the client an Accept */
static void check_terms_case(const struct terms_case *c, bool server)
{
	struct smcr_clc_proposal p = { .v2_release = c->release,
				       .v2_max_conns = c->max_conns,
				       .v2_max_links = c->max_links };
	struct smcr_clc_fce fce = { .release = c->release,
				    .max_conns = c->max_conns,
				    .max_links = c->max_links };
	struct smcr_clc_terms t = c->own;

	CHECK_EQ(server ? smcr_clc_terms_server(&t, &p) :
			  smcr_clc_terms_client(&t, &fce), c->rc);
	CHECK(c->rc || !memcmp(&t, &c->want, sizeof(t)));
}

/* Release 1's agreement, as the server and as the client, and the
 * messages that carry it: the Proposal, the first contact extension and
 * the server's check of the Confirm
 */
static void test_terms(void)
{
	const struct smcr_clc_terms own = { 1, 255, 2 }, few = { 1, 16, 1 };
	struct smcr_clc_accept_confirm conf;
	struct smcr_clc_proposal p;
	struct smcr_clc_fce fce;
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(server_cases); i++)
		check_terms_case(&server_cases[i], true);
	for (i = 0; i < ARRAY_LEN(client_cases); i++)
		check_terms_case(&client_cases[i], false);

	/* the Proposal and the extension carry release 1's, release 0 none */
	memset(&p, 0, sizeof(p));
	smcr_clc_terms_propose(&own, &p);
	CHECK(p.v2_release == 1 && p.v2_max_conns == 255 &&
	      p.v2_max_links == 2 && !p.v2_features);
	memset(&fce, 0, sizeof(fce));
	smcr_clc_terms_fce(&few, &fce);
	CHECK(fce.release == 1 && fce.max_conns == 16 && fce.max_links == 1);
	memset(&p, 0, sizeof(p));
	memset(&fce, 0, sizeof(fce));
	smcr_clc_terms_propose(&smcr_clc_terms_default, &p);
	smcr_clc_terms_fce(&smcr_clc_terms_default, &fce);
	CHECK(!p.v2_release && !p.v2_max_conns && !p.v2_max_links);
	CHECK(!fce.release && !fce.max_conns && !fce.max_links);

	/* the server's check of the Confirm */
	memset(&conf, 0, sizeof(conf));
	CHECK(!smcr_clc_terms_confirmed(&few, &conf));
	CHECK(smcr_clc_terms_confirmed(&smcr_clc_terms_default, &conf));
	conf.has_fce = true;
	smcr_clc_terms_fce(&few, &conf.fce);
	CHECK(smcr_clc_terms_confirmed(&few, &conf));
	conf.fce.max_links = 2;
	CHECK(!smcr_clc_terms_confirmed(&few, &conf));
	conf.fce.max_links = 1;
	conf.fce.max_conns = 17;
	CHECK(!smcr_clc_terms_confirmed(&few, &conf));
	conf.fce.release = 0;
	CHECK(!smcr_clc_terms_confirmed(&few, &conf));
	/* release 0: the bytes after it are not looked at */
	CHECK(smcr_clc_terms_confirmed(&smcr_clc_terms_default, &conf));
}

/* the bits of the first contact extension, and the short v2 tails */
static void test_ac_v2_fce(void)
{
	const struct golden *g = &goldens[G_ACC_V2_FC];
	struct smcr_clc_accept_confirm m, q;
	u8 b[GOLDEN_MAX];

	golden_acc_v2_fc_struct(&m);
	m.fce.v2_direct = false;
	m.fce.os_type = SMCR_CLC_OS_ZOS;
	m.fce.release = 3;
	fill_seq(m.fce.hostname, SMCR_CLC_HOSTNAME_LEN, 0);
	CHECK_EQ(smcr_clc_accept_confirm_encode(&m, b, sizeof(b)), g->len);
	CHECK_EQ(b[104], 0x00);
	CHECK_EQ(b[105], 0x13);		/* OS high, release low */
	CHECK_EQ(b[108], 0x00);
	CHECK_EQ(b[139], 31);
	CHECK_EQ(ac_decode_exact(b, g->len, &q), 0);
	CHECK(!memcmp(&m, &q, sizeof(m)));
	/* v2_direct is the top bit alone */
	b[104] = 0x7f;
	CHECK_EQ(ac_decode_exact(b, g->len, &q), 0);
	CHECK(!q.fce.v2_direct);
	b[104] = 0x80;
	CHECK_EQ(ac_decode_exact(b, g->len, &q), 0);
	CHECK(q.fce.v2_direct);

	/* the extension without the reserved bytes after it */
	memcpy(b, g->msg, 140);
	put_len_trl(b, 144);
	CHECK_EQ(ac_decode_exact(b, 144, &q), 0);
	CHECK(q.has_fce && q.fce.v2_direct);
	/* a first contact ending before its extension: decoded without */
	put_len_trl(b, 108);
	CHECK_EQ(ac_decode_exact(b, 108, &q), 0);
	CHECK(q.first_contact && !q.has_fce);
	/* a confirm's extension without the GID list */
	g = &goldens[G_CONF_V2_FC1];
	memcpy(b, g->msg, 140);
	put_len_trl(b, 144);
	CHECK_EQ(ac_decode_exact(b, 144, &q), 0);
	CHECK(q.has_fce && !q.gid_cnt);
	/* GIDs beyond the two we keep are skipped */
	g = &goldens[G_CONF_V2_FC2];
	memset(b, 0x5a, sizeof(b));
	memcpy(b, g->msg, g->len - 4);
	b[156] = 3;
	put_len_trl(b, g->len + 16);
	CHECK_EQ(ac_decode_exact(b, g->len + 16, &q), 0);
	golden_conf_v2_fc2_struct(&m);
	CHECK(!memcmp(&m, &q, sizeof(m)));
}

/* golden @golden re-framed to @len bytes (0: as it is) and then with
 * the bytes of @set changed (offset 0: none) decodes to @rc
 */
static const struct mutation {
	const char *what;
	unsigned int golden;
	u16 len;
	struct { u16 off; u8 val; } set[2];
	int rc;
} mutations[] = {
	/* v2 proposal: the parts must add up to the length */
	{ "one byte longer than its parts", G_PROP_V2_1EID, 157, {}, -EBADMSG },
	{ "one EID longer than its count", G_PROP_V2_1EID, 188, {}, -EBADMSG },
	{ "cut short of its second EID", G_PROP_V2_2EID, 156, {}, -EBADMSG },
	{ "EID count beyond the end", G_PROP_V2_1EID, 0, { { 80, 2 } },
	  -EBADMSG },
	{ "EID count short of the end", G_PROP_V2_1EID, 0, { { 80, 0 } },
	  -EBADMSG },
	{ "eight EIDs", G_PROP_V2_1EID, 380, { { 80, 8 } }, 0 },
	{ "nine EIDs", G_PROP_V2_1EID, 412, { { 80, 9 } }, -EBADMSG },
	{ "IPv6 count 1 of 2", G_PROP_V1V2_V6, 0, { { 87, 1 } }, -EBADMSG },
	{ "IPv6 count 3 of 2", G_PROP_V1V2_V6, 0, { { 87, 3 } }, -EBADMSG },
	{ "IPv6 count 1 in an IPv4 proposal", G_PROP_V1V2_V4, 0,
	  { { 87, 1 } }, -EBADMSG },
	{ "IPv6 prefix length 129", G_PROP_V1V2_V6, 0, { { 104, 129 } },
	  -EBADMSG },
	{ "v1 path none, IP area left in", G_PROP_V1V2_V4, 0,
	  { { 7, 0x22 } }, -EBADMSG },
	{ "v2 path none, extension left in", G_PROP_V2_1EID, 0,
	  { { 7, 0x2a } }, -EBADMSG },
	/* what Linux takes too: an offer of nothing, an IP area read
	 * from within the SMC-D area
	 */
	{ "neither path", G_PROP_V2_1EID, 84, { { 7, 0x2a } }, 0 },
	{ "IP area offset 0", G_PROP_V1V2_V4, 0, { { 39, 0 } }, 0 },
	{ "IP area offset 41", G_PROP_V1V2_V4, 0, { { 39, 41 } }, -EBADMSG },
	/* where the v2 extension is */
	{ "v2 extension offset 0", G_PROP_V2_1EID, 0, { { 51, 0 } },
	  -EBADMSG },
	{ "v2 extension offset 27", G_PROP_V2_1EID, 0, { { 51, 27 } },
	  -EBADMSG },
	{ "v2 extension past the end", G_PROP_V2_1EID, 0, { { 51, 120 } },
	  -EBADMSG },
	{ "v2 extension offset 284", G_PROP_V2_1EID, 0, { { 50, 1 } },
	  -EBADMSG },
	/* ISM GIDs count only in an SMC-D v2 offer, up to eight */
	{ "ISM GID count 9, SMC-R only", G_PROP_V2_1EID, 0, { { 81, 9 } }, 0 },
	{ "SMC-Dv2 offer, 8 ISM GIDs", G_PROP_V2_1EID, 284,
	  { { 7, 0x2e }, { 81, 8 } }, 0 },
	{ "SMC-Dv2 offer, 9 ISM GIDs", G_PROP_V2_1EID, 294,
	  { { 7, 0x2e }, { 81, 9 } }, -EBADMSG },
	{ "SMC-Dv2 offer without its extension", G_PROP_V2_1EID, 0,
	  { { 7, 0x26 } }, -EBADMSG },
	/* v2 accept / confirm: at least 108 bytes, GIDs within */
	{ "v2 accept of 104 bytes", G_ACC_V2, 104, {}, -EBADMSG },
	{ "v2 accept of 68 bytes", G_ACC_V2, 68, {}, -EBADMSG },
	{ "v2 accept with trailing bytes", G_ACC_V2, 120, {}, 0 },
	{ "v1 accept of 108 bytes", G_ACC_V2, 0, { { 7, 0x10 } }, -EBADMSG },
	{ "v1 confirm of 180 bytes", G_CONF_V2_FC1, 0, { { 7, 0x18 } },
	  -EBADMSG },
	{ "version 3 accept", G_ACC_V2, 0, { { 7, 0x30 } }, -EPROTO },
	{ "v2 SMC-D accept", G_ACC_V2, 0, { { 7, 0x21 } }, -EPROTO },
	{ "GID count 2 of 1", G_CONF_V2_FC1, 0, { { 156, 2 } }, -EBADMSG },
	{ "GID count 255", G_CONF_V2_FC1, 0, { { 156, 255 } }, -EBADMSG },
	{ "GID count 3 of 2", G_CONF_V2_FC2, 0, { { 156, 3 } }, -EBADMSG },
};

static void test_v2_mutations(void)
{
	const struct mutation *c;
	const struct golden *g;
	u8 b[SMCR_CLC_MAX_LEN];
	unsigned int i, j;
	size_t n;
	int rc;

	for (i = 0; i < ARRAY_LEN(mutations); i++) {
		c = &mutations[i];
		g = &goldens[c->golden];
		n = c->len ? c->len : g->len;
		memset(b, 0, sizeof(b));
		memcpy(b, g->msg, (n < g->len ? n : g->len) - 4);
		put_len_trl(b, n);
		for (j = 0; j < ARRAY_LEN(c->set) && c->set[j].off; j++)
			b[c->set[j].off] = c->set[j].val;
		rc = any_decode_exact(b, n);
		if (rc != c->rc) {
			printf("# %s: %s gives %d, expected %d\n", g->name,
			       c->what, rc, c->rc);
			cur_fail = 1;
		}
	}
}

/* the structure of golden @golden with the one-byte fields at the
 * offsets of @set changed (n of them) is refused by the encoder
 */
static const struct bad_field {
	const char *what;
	unsigned int golden;
	unsigned int n;
	struct { size_t off; u8 val; } set[2];
} bad_fields[] = {
#define P(f)	offsetof(struct smcr_clc_proposal, f)
#define M(f)	offsetof(struct smcr_clc_accept_confirm, f)
	{ "v2 path without v2_ext", G_PROP_V2_1EID, 1, { { P(v2_ext), 0 } } },
	{ "v2_ext without v2 path", G_PROP_V1V2_V4, 1,
	  { { P(path_v2), SMCR_CLC_PATH_NONE } } },
	{ "neither path", G_PROP_V2_1EID, 2,
	  { { P(path_v2), SMCR_CLC_PATH_NONE }, { P(v2_ext), 0 } } },
	{ "SMC-D v2 path", G_PROP_V2_1EID, 1,
	  { { P(path_v2), SMCR_CLC_PATH_D } } },
	{ "SMC-R and -D v2 path", G_PROP_V1V2_V4, 1,
	  { { P(path_v2), SMCR_CLC_PATH_BOTH } } },
	{ "v2 path 4", G_PROP_V2_1EID, 1, { { P(path_v2), 4 } } },
	{ "nine EIDs", G_PROP_V2_2EID, 1, { { P(eid_cnt), 9 } } },
	{ "release 16", G_PROP_V2_1EID, 1, { { P(v2_release), 16 } } },
	{ "v1 with v2_ext", G_PROP_V1V2_V6, 1, { { P(version), 1 } } },
	{ "three GIDs", G_CONF_V2_FC2, 1, { { M(gid_cnt), 3 } } },
	{ "GIDs on an accept", G_ACC_V2_FC, 1, { { M(gid_cnt), 1 } } },
	{ "GIDs without first contact", G_CONF_V2, 1, { { M(gid_cnt), 1 } } },
	{ "extension without first contact", G_CONF_V2_FC1, 1,
	  { { M(first_contact), 0 } } },
	{ "first contact without extension", G_ACC_V2, 1,
	  { { M(first_contact), 1 } } },
	{ "OS type 16", G_ACC_V2_FC, 1, { { M(fce.os_type), 16 } } },
	{ "release 16", G_ACC_V2_FC, 1, { { M(fce.release), 16 } } },
	{ "version 3", G_ACC_V2, 1, { { M(version), 3 } } },
	{ "v1 with extension", G_ACC_V2_FC, 1, { { M(version), 1 } } },
	{ "v1 with GIDs", G_CONF_V2_FC1, 2,
	  { { M(version), 1 }, { M(has_fce), 0 } } },
#undef P
#undef M
};

static void test_v2_encode_invalid(void)
{
	const struct bad_field *c;
	const struct golden *g;
	u8 b[SMCR_CLC_MAX_LEN];
	union clc_msg v;
	unsigned int i, j;
	int rc;

	for (i = 0; i < ARRAY_LEN(bad_fields); i++) {
		c = &bad_fields[i];
		g = &goldens[c->golden];
		golden_struct(g, &v);
		CHECK_EQ(golden_encode(g, &v, b, sizeof(b)), g->len);
		/* one-byte fields only: u8 and bool */
		for (j = 0; j < c->n; j++)
			((u8 *)&v)[c->set[j].off] = c->set[j].val;
		rc = golden_encode(g, &v, b, sizeof(b));
		if (rc != -EINVAL) {
			printf("# %s: %s gives %d\n", g->name, c->what, rc);
			cur_fail = 1;
		}
	}
}

/*
 * Every proper prefix of every golden message must be rejected, both as
 * is and re-framed (length field and trailer adjusted to the cut), and
 * without touching memory beyond the buffer. Only a re-framed v2 accept
 * or confirm of 108 bytes or more may decode: like Linux, we take those
 * at any length from there on.
 */
static void test_truncation(void)
{
	const struct golden *g;
	u8 b[SMCR_CLC_MAX_LEN];
	unsigned int i;
	bool v2_ac;
	size_t n;
	int rc;

	for (i = 0; i < G_COUNT; i++) {
		g = &goldens[i];
		/* a v2 accept / confirm has a minimum length only */
		v2_ac = g->msg[4] != SMCR_CLC_TYPE_PROPOSAL &&
			g->msg[4] != SMCR_CLC_TYPE_DECLINE &&
			g->msg[7] >> 4 == SMCR_CLC_V2;
		CHECK_EQ(any_decode_exact(g->msg, g->len), 0);
		for (n = 0; n < g->len; n++) {
			CHECK(any_decode_exact(g->msg, n) < 0);
			if (n < SMCR_CLC_HDR_LEN + SMCR_CLC_TRL_LEN)
				continue;
			memcpy(b, g->msg, n - 4);
			put_len_trl(b, n);
			rc = any_decode_exact(b, n);
			if (!v2_ac || n < SMCR_CLC_ACC_CONF_V2_LEN)
				CHECK(rc < 0);
		}
	}
}

static void test_rmbe_size(void)
{
	CHECK_EQ(smcr_clc_rmbe_size_compress(0), 0);
	CHECK_EQ(smcr_clc_rmbe_size_compress(1), 0);
	CHECK_EQ(smcr_clc_rmbe_size_compress(16384), 0);
	CHECK_EQ(smcr_clc_rmbe_size_compress(16385), 1);
	CHECK_EQ(smcr_clc_rmbe_size_compress(32768), 1);
	CHECK_EQ(smcr_clc_rmbe_size_compress(65536), 2);
	CHECK_EQ(smcr_clc_rmbe_size_compress(65537), 3);
	CHECK_EQ(smcr_clc_rmbe_size_compress(512 * 1024), 5);
	CHECK_EQ(smcr_clc_rmbe_size_compress(512 * 1024 + 1), 5);
	CHECK_EQ(smcr_clc_rmbe_size_compress(0xffffffff), 5);
	CHECK_EQ(smcr_clc_rmbe_size_decompress(0), 16384);
	CHECK_EQ(smcr_clc_rmbe_size_decompress(1), 32768);
	CHECK_EQ(smcr_clc_rmbe_size_decompress(5), 512 * 1024);
	/* A.2.3 stops at 512 KiB, Linux 6.12 at code 15 */
	CHECK_EQ(smcr_clc_rmbe_size_decompress(6), 1024 * 1024);
	CHECK_EQ(smcr_clc_rmbe_size_decompress(15), SMCR_CLC_RMBE_PEER_MAX);
	CHECK_EQ(smcr_clc_rmbe_size_decompress(15), 512u * 1024 * 1024);
	CHECK_EQ(smcr_clc_rmbe_size_decompress(0x13), 131072);
	CHECK_EQ(smcr_clc_rmbe_size_decompress(0x1f), SMCR_CLC_RMBE_PEER_MAX);
}

static void test_mtu(void)
{
	CHECK_EQ(smcr_clc_mtu_to_bytes(0), 0);
	CHECK_EQ(smcr_clc_mtu_to_bytes(SMCR_CLC_MTU_256), 256);
	CHECK_EQ(smcr_clc_mtu_to_bytes(SMCR_CLC_MTU_512), 512);
	CHECK_EQ(smcr_clc_mtu_to_bytes(SMCR_CLC_MTU_1024), 1024);
	CHECK_EQ(smcr_clc_mtu_to_bytes(SMCR_CLC_MTU_2048), 2048);
	CHECK_EQ(smcr_clc_mtu_to_bytes(SMCR_CLC_MTU_4096), 4096);
	CHECK_EQ(smcr_clc_mtu_to_bytes(6), 0);
	CHECK_EQ(smcr_clc_mtu_to_bytes(15), 0);
	CHECK_EQ(smcr_clc_mtu_from_bytes(256), 1);
	CHECK_EQ(smcr_clc_mtu_from_bytes(4096), 5);
	CHECK_EQ(smcr_clc_mtu_from_bytes(1500), 0);
	CHECK_EQ(smcr_clc_mtu_from_bytes(8192), 0);
}

static void test_constants(void)
{
	CHECK_EQ(SMCR_CLC_DECL_MEM, 0x01010000);
	CHECK_EQ(SMCR_CLC_DECL_TIMEOUT_CL, 0x02010000);
	CHECK_EQ(SMCR_CLC_DECL_PEERNOSMC, 0x03010000);
	CHECK_EQ(SMCR_CLC_DECL_NOSMCRDEV, 0x03030002);
	CHECK_EQ(SMCR_CLC_DECL_NOINDIRECT, 0x030f0000);
	CHECK_EQ(SMCR_CLC_DECL_SYNCERR, 0x04000000);
	CHECK_EQ(SMCR_CLC_DECL_PEERDECL, 0x05000000);
	CHECK_EQ(SMCR_CLC_DECL_ERR_REGBUF, 0x09990003);
	CHECK_EQ(SMCR_CLC_OS_LINUX, 2);
	CHECK_EQ(SMCR_CLC_PROP_MIN_LEN, 52);
}

static const struct wire_test tests[] = {
	{ "be_helpers", test_be_helpers },
	{ "hdr_valid", test_hdr_valid },
	{ "hdr_bad_eyecatcher", test_hdr_bad_eyecatcher },
	{ "hdr_unknown_type", test_hdr_unknown_type },
	{ "hdr_version_zero", test_hdr_version_zero },
	{ "hdr_length_bounds", test_hdr_length_bounds },
	{ "hdr_short_buffer", test_hdr_short_buffer },
	{ "trailer", test_trailer },
	{ "proposal_golden_encode", test_prop_golden_encode },
	{ "proposal_golden_decode", test_prop_golden_decode },
	{ "proposal_ipv4_only", test_prop_ipv4_only },
	{ "proposal_max_v6_and_offset", test_prop_max_v6_and_offset },
	{ "proposal_v2_layout", test_prop_v2_layout },
	{ "proposal_reject_offset", test_prop_reject_offset },
	{ "proposal_reject_v6_count", test_prop_reject_v6_count },
	{ "proposal_reject_prefix_len", test_prop_reject_prefix_len },
	{ "proposal_reject_misc", test_prop_reject_misc },
	{ "proposal_encode_invalid", test_prop_encode_invalid },
	{ "accept_golden", test_accept_golden },
	{ "confirm_golden", test_confirm_golden },
	{ "accept_confirm_extremes", test_ac_roundtrip_extremes },
	{ "accept_confirm_reject", test_ac_reject },
	{ "decline_v1_golden", test_decline_v1_golden },
	{ "decline_v2_golden", test_decline_v2_golden },
	{ "decline_reject", test_decline_reject },
	{ "proposal_v2_goldens", test_prop_v2_goldens },
	{ "proposal_v2_local_fields", test_prop_v2_local_fields },
	{ "proposal_v2_ext_offset_max", test_prop_v2_ext_offset_max },
	{ "accept_confirm_v2_goldens", test_ac_v2_goldens },
	{ "accept_confirm_v2_fce", test_ac_v2_fce },
	{ "release1", test_release1 },
	{ "terms", test_terms },
	{ "v2_mutations", test_v2_mutations },
	{ "v2_encode_invalid", test_v2_encode_invalid },
	{ "truncation", test_truncation },
	{ "rmbe_size", test_rmbe_size },
	{ "mtu", test_mtu },
	{ "constants", test_constants },
};

int main(int argc, char **argv)
{
	static struct wire_seed seeds[G_COUNT];
	unsigned int i;

	build_goldens();
	for (i = 0; i < G_COUNT; i++) {
		seeds[i].name = goldens[i].name;
		seeds[i].msg = goldens[i].msg;
		seeds[i].len = goldens[i].len;
	}
	return wire_test_main(argc, argv, tests, ARRAY_LEN(tests),
			      seeds, G_COUNT);
}
