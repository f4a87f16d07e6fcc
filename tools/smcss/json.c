// SPDX-License-Identifier: GPL-2.0
/*
 * smcss: JSON written as it goes. Each value is preceded by the comma its
 * place needs and indented two blanks a level; keys are given for the
 * members of objects, NULL for the elements of arrays.
 */
#include <inttypes.h>
#include <stdio.h>

#include "smcss.h"

static void put_string(const char *s)
{
	const unsigned char *c;

	putchar('"');
	for (c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			printf("\\%c", *c);
		else if (*c < 0x20 || *c >= 0x7f)
			printf("\\u%04x", *c);
		else
			putchar(*c);
	}
	putchar('"');
}

/* The separator, the indentation and the key of the next value */
static void lead(struct json *j, const char *key)
{
	if (j->depth) {
		printf("%s\n%*s", j->first[j->depth] ? "" : ",", 2 * j->depth,
		       "");
		j->first[j->depth] = false;
	}
	if (key) {
		put_string(key);
		printf(": ");
	}
}

/* Open an object ('{') or an array ('[') */
void json_open(struct json *j, const char *key, char bracket)
{
	lead(j, key);
	putchar(bracket);
	if (j->depth + 1 < (int)ARRAY_SIZE(j->first))
		j->depth++;
	j->first[j->depth] = true;
}

/* Close what json_open() opened with @bracket's partner */
void json_close(struct json *j, char bracket)
{
	bool empty = j->first[j->depth];

	j->depth--;
	if (!empty)
		printf("\n%*s", 2 * j->depth, "");
	putchar(bracket);
	if (!j->depth)
		putchar('\n');
}

void json_u64(struct json *j, const char *key, uint64_t val)
{
	lead(j, key);
	printf("%" PRIu64, val);
}

void json_str(struct json *j, const char *key, const char *s)
{
	lead(j, key);
	put_string(s);
}
