/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the libFuzzer targets of the smcr wire formats
 * (fuzz_wire_{clc,llc,cdc}.c): an assertion that aborts, a byte cursor
 * that reads the input as field values, and the libFuzzer entry point.
 *
 * A target defines fuzz_one(); the entry point calls it with an
 * exact-size heap copy of the input, so ASan catches any read past it.
 */
#ifndef _FUZZ_WIRE_H
#define _FUZZ_WIRE_H

#include <stdio.h>
#include <stdlib.h>

#include "smcr_wire.h"

#define FUZZ_ASSERT(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: assertion failed: %s\n",\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

/* byte cursor over the fuzz input that yields zeroes once exhausted */
struct cursor {
	const u8 *p;
	size_t left;
};

static inline u8 take8(struct cursor *c)
{
	if (!c->left)
		return 0;
	c->left--;
	return *c->p++;
}

static inline u32 take32(struct cursor *c)
{
	u32 v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v = v << 8 | take8(c);
	return v;
}

static inline u64 take64(struct cursor *c)
{
	return (u64)take32(c) << 32 | take32(c);
}

static inline void take_bytes(struct cursor *c, u8 *dst, size_t n)
{
	while (n--)
		*dst++ = take8(c);
}

/* defined by each target: check every property on one input */
static void fuzz_one(const u8 *data, size_t size);

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
	fuzz_one(copy, size);
	free(copy);
	return 0;
}

#endif /* _FUZZ_WIRE_H */
