// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the smcr CDC wire format and cursor arithmetic
 * (net/smc/smcr_wire_cdc.c).
 *
 * The golden byte array is written by hand from figure 41 of RFC 7609
 * Appendix A.4; Linux 6.1 sends every field in that big-endian layout.
 * Output is TAP version 13; the exit status is non-zero on any failure.
 *
 * With "--write-corpus DIR" the program instead writes a few valid
 * messages into DIR as seeds for the fuzzer.
 */
#include "smcr_wire_cdc.h"
#include "wire_test.h"

#define KIB 1024u

static const u8 golden_cdc[SMCR_CDC_MSG_LEN] = {
	0xfe, 0x2c,			/* type, length 44 */
	0x12, 0x34,			/* sequence number */
	0xa1, 0xb2, 0xc3, 0xd4,		/* alert token */
	0x00, 0x00,			/* reserved */
	0x56, 0x78,			/* producer wrap */
	0x00, 0x01, 0x23, 0x45,		/* producer count */
	0x00, 0x00,			/* reserved */
	0x9a, 0xbc,			/* consumer wrap */
	0x00, 0x06, 0x78, 0x9a,		/* consumer count */
	0xa8,				/* B, U, F */
	0x60,				/* C, A */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* reserved */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* a plain data update: P and R set, D set */
static const u8 golden_cdc_upd[SMCR_CDC_MSG_LEN] = {
	0xfe, 0x2c, 0x00, 0x01,		/* first sequence number */
	0x00, 0x00, 0x01, 0x00,		/* token */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, /* prod 0:16384 */
	0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, /* cons ffff:0 */
	0x50, 0x80,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static void golden_struct(struct smcr_cdc_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->seqno = 0x1234;
	m->token = 0xa1b2c3d4;
	m->prod.wrap = 0x5678;
	m->prod.count = 0x12345;
	m->cons.wrap = 0x9abc;
	m->cons.count = 0x6789a;
	m->prod_flags = SMCR_CDC_PF_WRITE_BLOCKED |
			SMCR_CDC_PF_URG_DATA_PRESENT |
			SMCR_CDC_PF_FAILOVER_VALIDATION;
	m->conn_state_flags = SMCR_CDC_CS_PEER_CONN_CLOSED |
			      SMCR_CDC_CS_PEER_CONN_ABORT;
}

static void test_golden(void)
{
	struct smcr_cdc_msg m, d;
	u8 b[64];

	golden_struct(&m);
	memset(b, 0x5a, sizeof(b));
	CHECK_EQ(smcr_cdc_msg_encode(&m, b, sizeof(b)), SMCR_CDC_MSG_LEN);
	CHECK(!memcmp(b, golden_cdc, SMCR_CDC_MSG_LEN));
	CHECK_EQ(b[SMCR_CDC_MSG_LEN], 0x5a);
	CHECK_EQ(smcr_cdc_msg_decode(golden_cdc, SMCR_CDC_MSG_LEN, &d), 0);
	CHECK(!memcmp(&d, &m, sizeof(d)));

	memset(&m, 0, sizeof(m));
	m.seqno = 1;
	m.token = 0x100;
	m.prod.count = 16 * KIB;
	m.cons.wrap = 0xffff;
	m.prod_flags = SMCR_CDC_PF_URG_DATA_PENDING |
		       SMCR_CDC_PF_CONS_CURS_UPD_REQ;
	m.conn_state_flags = SMCR_CDC_CS_PEER_DONE_WRITING;
	CHECK_EQ(smcr_cdc_msg_encode(&m, b, SMCR_CDC_MSG_LEN),
		 SMCR_CDC_MSG_LEN);
	CHECK(!memcmp(b, golden_cdc_upd, SMCR_CDC_MSG_LEN));
	CHECK_EQ(smcr_cdc_msg_decode(golden_cdc_upd, SMCR_CDC_MSG_LEN, &d), 0);
	CHECK(!memcmp(&d, &m, sizeof(d)));
}

static void test_roundtrip(void)
{
	static const u8 pf[] = { 0, SMCR_CDC_PF_WRITE_BLOCKED,
		SMCR_CDC_PF_URG_DATA_PENDING, SMCR_CDC_PF_URG_DATA_PRESENT,
		SMCR_CDC_PF_CONS_CURS_UPD_REQ, SMCR_CDC_PF_FAILOVER_VALIDATION,
		SMCR_CDC_PF_MASK };
	static const u8 cs[] = { 0, SMCR_CDC_CS_PEER_DONE_WRITING,
		SMCR_CDC_CS_PEER_CONN_CLOSED, SMCR_CDC_CS_PEER_CONN_ABORT,
		SMCR_CDC_CS_MASK };
	struct smcr_cdc_msg m, d;
	unsigned int i, j;
	u8 b[SMCR_CDC_MSG_LEN];

	for (i = 0; i < ARRAY_LEN(pf); i++) {
		for (j = 0; j < ARRAY_LEN(cs); j++) {
			memset(&m, 0, sizeof(m));
			m.seqno = (u16)(0xffff - i);
			m.token = 0xffffffff - j;
			m.prod.wrap = 0xffff;
			m.prod.count = 512 * KIB - 1;
			m.cons.wrap = (u16)i;
			m.cons.count = 0xffffffff;
			m.prod_flags = pf[i];
			m.conn_state_flags = cs[j];
			CHECK_EQ(smcr_cdc_msg_encode(&m, b, sizeof(b)),
				 SMCR_CDC_MSG_LEN);
			CHECK_EQ(b[24], pf[i]);
			CHECK_EQ(b[25], cs[j]);
			CHECK_EQ(smcr_cdc_msg_decode(b, sizeof(b), &d), 0);
			CHECK(!memcmp(&d, &m, sizeof(d)));
		}
	}
}

static void test_reject(void)
{
	struct smcr_cdc_msg m, g;
	u8 b[48];
	unsigned int v, i;

	memcpy(b, golden_cdc, SMCR_CDC_MSG_LEN);
	memset(b + SMCR_CDC_MSG_LEN, 0xff, 4);
	/* a larger receive buffer is fine */
	CHECK_EQ(smcr_cdc_msg_decode(b, sizeof(b), &m), 0);

	for (v = 0; v < 256; v++) {
		b[0] = (u8)v;
		CHECK_EQ(smcr_cdc_msg_decode(b, SMCR_CDC_MSG_LEN, &m),
			 v == SMCR_CDC_MSG_TYPE ? 0 : -EPROTO);
	}
	b[0] = SMCR_CDC_MSG_TYPE;
	for (v = 0; v < 256; v++) {
		b[1] = (u8)v;
		CHECK_EQ(smcr_cdc_msg_decode(b, SMCR_CDC_MSG_LEN, &m),
			 v == SMCR_CDC_MSG_LEN ? 0 : -EMSGSIZE);
	}
	b[1] = SMCR_CDC_MSG_LEN;

	/* reserved bytes and bits are ignored */
	b[8] = 0xff;
	b[9] = 0xff;
	b[16] = 0xff;
	b[17] = 0xff;
	b[24] |= 0x07;
	b[25] |= 0x1f;
	for (i = 26; i < SMCR_CDC_MSG_LEN; i++)
		b[i] = 0xee;
	golden_struct(&g);
	CHECK_EQ(smcr_cdc_msg_decode(b, SMCR_CDC_MSG_LEN, &m), 0);
	CHECK(!memcmp(&m, &g, sizeof(m)));

	/* the encoder refuses reserved flag bits and short buffers */
	for (v = 1; v < 8; v++) {
		g.prod_flags = (u8)v;
		CHECK_EQ(smcr_cdc_msg_encode(&g, b, sizeof(b)), -EINVAL);
	}
	golden_struct(&g);
	for (v = 1; v < 0x20; v++) {
		g.conn_state_flags = (u8)v;
		CHECK_EQ(smcr_cdc_msg_encode(&g, b, sizeof(b)), -EINVAL);
	}
	golden_struct(&g);
	CHECK_EQ(smcr_cdc_msg_encode(&g, b, SMCR_CDC_MSG_LEN - 1), -ENOSPC);
	CHECK_EQ(smcr_cdc_msg_encode(&g, b, 0), -ENOSPC);
}

static void test_truncation(void)
{
	struct smcr_cdc_msg m;
	size_t n;
	u8 *b;

	for (n = 0; n < SMCR_CDC_MSG_LEN; n++) {
		b = malloc(n ? n : 1);
		if (!b)
			abort();
		memcpy(b, golden_cdc, n);
		CHECK_EQ(smcr_cdc_msg_decode(b, n, &m), -EMSGSIZE);
		free(b);
	}
}

static void test_seq_before(void)
{
	CHECK(smcr_cdc_seq_before(1, 2));
	CHECK(!smcr_cdc_seq_before(2, 1));
	CHECK(!smcr_cdc_seq_before(5, 5));
	CHECK(smcr_cdc_seq_before(0xffff, 0));	/* wraps to 0 */
	CHECK(!smcr_cdc_seq_before(0, 0xffff));
	CHECK(smcr_cdc_seq_before(0xfff0, 0x0010));
	CHECK(smcr_cdc_seq_before(0, 0x7fff));
	CHECK(!smcr_cdc_seq_before(0, 0x8000));
}

static const u32 sizes[] = { 16 * KIB, 32 * KIB, 64 * KIB, 128 * KIB,
			     256 * KIB, 512 * KIB };

static void test_cursor_add(void)
{
	struct smcr_cdc_cursor c;
	unsigned int i;
	u32 s;

	for (i = 0; i < ARRAY_LEN(sizes); i++) {
		s = sizes[i];
		c.wrap = 7;
		c.count = 0;
		smcr_cdc_cursor_add(&c, 0, s);
		CHECK(c.wrap == 7 && c.count == 0);
		smcr_cdc_cursor_add(&c, s - 1, s);
		CHECK(c.wrap == 7 && c.count == s - 1);
		smcr_cdc_cursor_add(&c, 1, s);		/* exact wrap */
		CHECK(c.wrap == 8 && c.count == 0);
		smcr_cdc_cursor_add(&c, s, s);		/* full window */
		CHECK(c.wrap == 9 && c.count == 0);
		smcr_cdc_cursor_add(&c, 100, s);
		smcr_cdc_cursor_add(&c, s - 50, s);	/* across the end */
		CHECK(c.wrap == 10 && c.count == 50);
		smcr_cdc_cursor_add(&c, 2 * s + 3, s);	/* several wraps */
		CHECK(c.wrap == 12 && c.count == 53);

		c.wrap = 0xffff;			/* wrap number wraps */
		c.count = s - 10;
		smcr_cdc_cursor_add(&c, 20, s);
		CHECK(c.wrap == 0 && c.count == 10);

		c.wrap = 1;				/* stray count */
		c.count = s + 5;
		smcr_cdc_cursor_add(&c, 0, s);
		CHECK(c.wrap == 2 && c.count == 5);

		c.wrap = 3;
		c.count = s - 1;
		smcr_cdc_cursor_add(&c, 0xffffffff, s);
		CHECK_EQ(c.count, (u32)(((u64)s - 1 + 0xffffffffULL) % s));
		CHECK_EQ(c.wrap, (u16)(3 + ((u64)s - 1 + 0xffffffffULL) / s));
	}
	c.wrap = 4;
	c.count = 9;
	smcr_cdc_cursor_add(&c, 100, 0);		/* no size: no-op */
	CHECK(c.wrap == 4 && c.count == 9);
}

static void test_cursor_cmp(void)
{
	struct smcr_cdc_cursor a = { 5, 100 }, b = { 5, 200 };

	CHECK(smcr_cdc_cursor_before(&a, &b));
	CHECK(!smcr_cdc_cursor_before(&b, &a));
	CHECK(!smcr_cdc_cursor_before(&a, &a));
	CHECK(smcr_cdc_cursor_cmp(&a, &b) < 0);
	CHECK(smcr_cdc_cursor_cmp(&b, &a) > 0);
	CHECK_EQ(smcr_cdc_cursor_cmp(&a, &a), 0);
	b.wrap = 6;
	b.count = 0;				/* later wrap, smaller count */
	CHECK(smcr_cdc_cursor_before(&a, &b));
	a.wrap = 0xffff;			/* wrap number wraps */
	b.wrap = 0;
	a.count = 10;
	b.count = 5;
	CHECK(smcr_cdc_cursor_before(&a, &b));
	CHECK(!smcr_cdc_cursor_before(&b, &a));
	a.wrap = 0;
	b.wrap = 0x8000;			/* half the space: behind */
	CHECK(smcr_cdc_cursor_before(&b, &a));
	b.wrap = 0x7fff;
	CHECK(smcr_cdc_cursor_before(&a, &b));
}

static void test_cursor_advance(void)
{
	struct smcr_cdc_cursor o, n;
	unsigned int i;
	long s;

	for (i = 0; i < ARRAY_LEN(sizes); i++) {
		s = sizes[i];
		o.wrap = 3;
		o.count = 100;
		n = o;
		CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, s), 0);
		n.count = 1100;
		CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, s), 1000);
		/* behind: within the wrap and across it */
		CHECK_EQ(smcr_cdc_cursor_advance(&n, &o, s), -EPROTO);
		n.wrap = 4;
		n.count = 40;
		CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, s), s - 100 + 40);
		CHECK_EQ(smcr_cdc_cursor_advance(&n, &o, s), -EPROTO);
		n.count = 100;				/* a full RMBE */
		CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, s), s);
		n.count = 101;				/* one byte more */
		CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, s), -EPROTO);
		n.wrap = 5;
		n.count = 0;				/* two wraps */
		CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, s), -EPROTO);
		n.wrap = 3;
		n.count = s;				/* past the RMBE */
		CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, s), -EPROTO);
		n.count = s - 1;
		CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, s), s - 101);
		o.wrap = 0xffff;			/* wrap number wraps */
		o.count = s - 8;
		n.wrap = 0;
		n.count = 8;
		CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, s), 16);
		CHECK_EQ(smcr_cdc_cursor_advance(&n, &o, s), -EPROTO);
		o.wrap = 2;
		o.count = s - 1;
		n.wrap = 3;
		n.count = 0;
		CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, s), 1);
		/* add and advance agree */
		o.wrap = 0xfffe;
		o.count = s / 2;
		n = o;
		smcr_cdc_cursor_add(&n, s - 3, s);
		CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, s), s - 3);
	}
	/* garbage counts at or beyond the size are refused, never wrapped */
	o.wrap = 1;
	o.count = 0xffffffff;
	n.wrap = 2;
	n.count = 0xfffffff0;
	CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, 16 * KIB), -EPROTO);
	o.count = 0;
	CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, 16 * KIB), -EPROTO);
	/* an RMBE of size 0, not known yet: its cursor stays at 0:0 */
	o.wrap = 0;
	n = o;
	CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, 0), 0);
	n.count = 1;
	CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, 0), -EPROTO);
	n.count = 0;
	n.wrap = 1;
	CHECK_EQ(smcr_cdc_cursor_advance(&o, &n, 0), -EPROTO);
}

static void test_constants(void)
{
	CHECK_EQ(SMCR_CDC_MSG_TYPE, 0xfe);
	CHECK_EQ(SMCR_CDC_MSG_LEN, 44);
	CHECK_EQ(SMCR_CDC_PF_WRITE_BLOCKED, 0x80);
	CHECK_EQ(SMCR_CDC_PF_URG_DATA_PENDING, 0x40);
	CHECK_EQ(SMCR_CDC_PF_URG_DATA_PRESENT, 0x20);
	CHECK_EQ(SMCR_CDC_PF_CONS_CURS_UPD_REQ, 0x10);
	CHECK_EQ(SMCR_CDC_PF_FAILOVER_VALIDATION, 0x08);
	CHECK_EQ(SMCR_CDC_CS_PEER_DONE_WRITING, 0x80);
	CHECK_EQ(SMCR_CDC_CS_PEER_CONN_CLOSED, 0x40);
	CHECK_EQ(SMCR_CDC_CS_PEER_CONN_ABORT, 0x20);
}

static const struct wire_test tests[] = {
	{ "golden", test_golden },
	{ "roundtrip", test_roundtrip },
	{ "reject", test_reject },
	{ "truncation", test_truncation },
	{ "seq_before", test_seq_before },
	{ "cursor_add", test_cursor_add },
	{ "cursor_cmp", test_cursor_cmp },
	{ "cursor_advance", test_cursor_advance },
	{ "constants", test_constants },
};

static const struct wire_seed seeds[] = {
	{ "cdc", golden_cdc, sizeof(golden_cdc) },
	{ "cdc_upd", golden_cdc_upd, sizeof(golden_cdc_upd) },
};

int main(int argc, char **argv)
{
	return wire_test_main(argc, argv, tests, ARRAY_LEN(tests),
			      seeds, ARRAY_LEN(seeds));
}
