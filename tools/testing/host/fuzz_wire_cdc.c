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
#include <stdio.h>
#include <stdlib.h>

#include "smcr_wire_cdc.h"

#define FUZZ_ASSERT(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: assertion failed: %s\n",\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

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

struct cursor {
	const u8 *p;
	size_t left;
};

static u8 take8(struct cursor *c)
{
	if (!c->left)
		return 0;
	c->left--;
	return *c->p++;
}

static u32 take32(struct cursor *c)
{
	u32 v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v = v << 8 | take8(c);
	return v;
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
	FUZZ_ASSERT(smcr_cdc_cursor_diff(&a, &b, s) == v);
	FUZZ_ASSERT(smcr_cdc_cursor_diff(&b, &a, s) == 0);
	FUZZ_ASSERT(smcr_cdc_cursor_before(&a, &b) == (v != 0));
	FUZZ_ASSERT(!smcr_cdc_cursor_before(&b, &a));
	FUZZ_ASSERT(smcr_cdc_cursor_cmp(&a, &b) == -smcr_cdc_cursor_cmp(&b, &a));

	/* arbitrary cursors: the distance never exceeds the size */
	a.count = take32(&c);
	b.wrap = (u16)take32(&c);
	b.count = take32(&c);
	FUZZ_ASSERT(smcr_cdc_cursor_diff(&a, &b, s) <= s);
	smcr_cdc_cursor_add(&a, take32(&c), s);
	FUZZ_ASSERT(a.count < s);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 *copy;

	/* exact-size heap copy: ASan catches any read past the input */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	if (size)
		memcpy(copy, data, size);

	check_decode(copy, size);
	build(copy, size);
	check_cursors(copy, size);

	free(copy);
	return 0;
}
