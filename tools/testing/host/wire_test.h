/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the host unit tests of the smcr wire formats
 * (test_wire_{clc,llc,cdc}.c): the check macros, a table-driven TAP
 * runner and the "--write-corpus DIR" mode that writes the golden
 * messages as seeds for the fuzzers.
 *
 * Output is TAP version 13; the exit status is non-zero on any failure.
 */
#ifndef _WIRE_TEST_H
#define _WIRE_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include "smcr_wire.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* set by a failed check, reset before each test */
static int cur_fail;

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			printf("# %s:%d: check failed: %s\n",		\
			       __FILE__, __LINE__, #cond);		\
			cur_fail = 1;					\
		}							\
	} while (0)

#define CHECK_EQ(a, b)							\
	do {								\
		long long _a = (long long)(a), _b = (long long)(b);	\
		if (_a != _b) {						\
			printf("# %s:%d: %s == %lld, expected %lld\n",	\
			       __FILE__, __LINE__, #a, _a, _b);		\
			cur_fail = 1;					\
		}							\
	} while (0)

struct wire_test {
	const char *name;
	void (*fn)(void);
};

/* a golden message, written to the seed corpus under @name */
struct wire_seed {
	const char *name;
	const u8 *msg;
	size_t len;
};

static inline int wire_write_file(const char *dir, const char *name,
				  const u8 *b, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		return 1;
	}
	if (fwrite(b, 1, n, f) != n) {
		perror(path);
		fclose(f);
		return 1;
	}
	return fclose(f) ? 1 : 0;
}

/*
 * Run every test of @tests and print one TAP line each, or with
 * "--write-corpus DIR" write every message of @seeds into DIR instead.
 */
static inline int wire_test_main(int argc, char **argv,
				 const struct wire_test *tests, size_t ntests,
				 const struct wire_seed *seeds, size_t nseeds)
{
	unsigned int i;
	int failed = 0;

	if (argc == 3 && !strcmp(argv[1], "--write-corpus")) {
		for (i = 0; i < nseeds; i++)
			failed |= wire_write_file(argv[2], seeds[i].name,
						  seeds[i].msg, seeds[i].len);
		return failed;
	}

	printf("TAP version 13\n");
	printf("1..%zu\n", ntests);
	for (i = 0; i < ntests; i++) {
		cur_fail = 0;
		tests[i].fn();
		printf("%sok %u - %s\n", cur_fail ? "not " : "", i + 1,
		       tests[i].name);
		failed += cur_fail;
	}
	if (failed)
		printf("# %d test(s) failed\n", failed);
	return failed ? 1 : 0;
}

#endif /* _WIRE_TEST_H */
