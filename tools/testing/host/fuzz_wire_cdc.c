// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the smcr CDC wire format and cursor arithmetic.
 *
 * Properties checked on every input:
 *  1. Arbitrary bytes go through the decoder; whatever decodes must
 *     re-encode to 44 bytes that decode to the very same structure.
 *  2. The input read as field values: whatever the encoder accepts
 *     decodes back to those values.
 *  3. Cursor arithmetic: advancing a cursor by less than the RMBE size
 *     keeps the count in range and the distance equal to the advance.
 */
#include "smcr_wire_cdc.h"
#include "fuzz_wire.h"

static u8 out[SMCR_CDC_MSG_LEN];

static void check_decode(const u8 *data, size_t size)
{
	struct smcr_cdc_msg m, q;
	int n;

	if (smcr_cdc_msg_decode(data, size, &m))
		return;
	FUZZ_ASSERT(size >= SMCR_CDC_MSG_LEN);
	n = smcr_cdc_msg_encode(&m, out, sizeof(out));
	FUZZ_ASSERT(n == SMCR_CDC_MSG_LEN);
	FUZZ_ASSERT(!memcmp(out, data, 8));	/* type .. token */
	FUZZ_ASSERT(smcr_cdc_msg_decode(out, n, &q) == 0);
	FUZZ_ASSERT(!memcmp(&m, &q, sizeof(m)));
}

static void build(const u8 *data, size_t size)
{
	struct cursor c = { data, size };
	struct smcr_cdc_msg m, q;
	int n;

	memset(&m, 0, sizeof(m));
	m.seqno = (u16)take32(&c);
	m.token = take32(&c);
	m.prod.wrap = (u16)take32(&c);
	m.prod.count = take32(&c);
	m.cons.wrap = (u16)take32(&c);
	m.cons.count = take32(&c);
	m.prod_flags = take8(&c);
	m.conn_state_flags = take8(&c);
	if (take8(&c) & 1) {
		m.prod_flags &= SMCR_CDC_PF_MASK;
		m.conn_state_flags &= SMCR_CDC_CS_MASK;
	}
	n = smcr_cdc_msg_encode(&m, out, sizeof(out));
	if (n < 0) {
		FUZZ_ASSERT(n == -EINVAL);
		return;
	}
	FUZZ_ASSERT(n == SMCR_CDC_MSG_LEN);
	FUZZ_ASSERT(smcr_cdc_msg_decode(out, n, &q) == 0);
	FUZZ_ASSERT(!memcmp(&m, &q, sizeof(m)));
}

static void check_cursors(const u8 *data, size_t size)
{
	struct cursor c = { data, size };
	struct smcr_cdc_cursor a, b;
	u32 s, v;

	s = 16384u << (take8(&c) % 6);		/* 16 KiB .. 512 KiB */
	a.wrap = (u16)take32(&c);
	a.count = take32(&c) % s;
	v = take32(&c) % s;
	b = a;
	smcr_cdc_cursor_add(&b, v, s);
	FUZZ_ASSERT(b.count < s);
	FUZZ_ASSERT(smcr_cdc_cursor_advance(&a, &b, s) == v);
	FUZZ_ASSERT(smcr_cdc_cursor_advance(&b, &a, s) == (v ? -EPROTO : 0));
	FUZZ_ASSERT(smcr_cdc_cursor_before(&a, &b) == (v != 0));
	FUZZ_ASSERT(!smcr_cdc_cursor_before(&b, &a));
	FUZZ_ASSERT(smcr_cdc_cursor_cmp(&a, &b) == -smcr_cdc_cursor_cmp(&b, &a));

	/* arbitrary cursors: a move is refused or within one RMBE */
	a.count = take32(&c);
	b.wrap = (u16)take32(&c);
	b.count = take32(&c);
	v = take8(&c);
	if (v & 1)
		a.count %= s;
	if (v & 2)
		b.count %= s;
	FUZZ_ASSERT(smcr_cdc_cursor_advance(&a, &b, s) == -EPROTO ||
		    (smcr_cdc_cursor_advance(&a, &b, s) >= 0 &&
		     smcr_cdc_cursor_advance(&a, &b, s) <= s));
	smcr_cdc_cursor_add(&a, take32(&c), s);
	FUZZ_ASSERT(a.count < s);
}

static void fuzz_one(const u8 *data, size_t size)
{
	check_decode(data, size);
	build(data, size);
	check_cursors(data, size);
}
