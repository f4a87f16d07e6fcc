// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: what the show commands print. As text, a line "key value" per
 * value and a blank line between objects; as JSON (-j), one object whose
 * members have the same keys, or one object holding an array of such
 * objects. Nothing is printed until the first value or object, so a
 * request that fails at once leaves stdout empty.
 */
#include <inttypes.h>
#include <stdio.h>

#include "smcr.h"

static void out_open(struct out *o)
{
	if (o->open)
		return;
	o->open = true;
	if (!o->json)
		return;
	printf("{");
	if (o->list)
		printf("\n  \"%s\": [", o->list);
}

void out_object(struct out *o)
{
	out_open(o);
	if (o->json)
		printf("%s\n    {", o->objects ? "\n    }," : "");
	else if (o->objects)
		printf("\n");
	o->objects++;
	o->keys = 0;
}

static void out_key(struct out *o, const char *key)
{
	out_open(o);
	if (o->json)
		printf("%s\n%s\"%s\": ", o->keys ? "," : "",
		       o->list ? "      " : "  ", key);
	else
		printf("%s", key);
	o->keys++;
}

void out_u64(struct out *o, const char *key, uint64_t val)
{
	out_key(o, key);
	if (o->json)
		printf("%" PRIu64, val);
	else
		printf(" %" PRIu64 "\n", val);
}

/* An id of 32 bits: 8 hex digits, a string in JSON */
void out_hex32(struct out *o, const char *key, uint64_t val)
{
	char hex[9];

	snprintf(hex, sizeof(hex), "%08x", (uint32_t)val);
	out_str(o, key, hex, 8);
}

/* A JSON string keeps every byte: what is not printable ASCII, or is a
 * quote or a backslash, is escaped. Text keeps the line: a control
 * character becomes '?'.
 */
void out_str(struct out *o, const char *key, const char *s, int len)
{
	unsigned char c;
	int i;

	out_key(o, key);
	if (o->json)
		putchar('"');
	else if (len)
		putchar(' ');
	for (i = 0; i < len; i++) {
		c = s[i];
		if (!o->json)
			putchar(c < 0x20 || c == 0x7f ? '?' : c);
		else if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	if (o->json)
		putchar('"');
	else
		putchar('\n');
}

void out_end(struct out *o, bool failed)
{
	if (failed && !o->open)
		return;
	out_open(o);
	if (o->json) {
		if (o->list)
			printf("%s\n  ]", o->objects ? "\n    }" : "");
		printf("\n}\n");
	}
	fflush(stdout);
}
