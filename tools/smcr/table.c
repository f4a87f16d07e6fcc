// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: nested attributes printed as tables say. One walker serves every
 * dump of SMC_GEN_NETLINK that is only values: statistics, link groups,
 * links; each is a table of fields in stats.c or lgr.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "smcr.h"

#define KEY_MAX 96

/* The length of a string attribute up to its NUL, without trailing white
 * space: the kernel pads EIDs, PNETIDs and host names with blanks
 */
int nla_strlen(const struct nlattr *nla)
{
	const char *s = nla_data(nla);
	int len = strnlen(s, nla_len(nla));

	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	return len;
}

/* An unsigned attribute of a field's kind; false when it is too short */
bool nla_uint(const struct nlattr *nla, enum field_kind kind, uint64_t *val)
{
	static const int size[] = {
		[FK_U8] = 1, [FK_U16] = 2, [FK_U32] = 4, [FK_HEX32] = 4,
		[FK_U64] = 8,
	};
	union {
		uint8_t u8;
		uint16_t u16;
		uint32_t u32;
		uint64_t u64;
	} v;
	int n = kind < ARRAY_SIZE(size) ? size[kind] : 0;

	if (!n || nla_len(nla) < n)
		return false;
	memcpy(&v, nla_data(nla), n);
	*val = n == 1 ? v.u8 : n == 2 ? v.u16 : n == 4 ? v.u32 : v.u64;
	return true;
}

static void show_value(struct out *o, const char *key, const struct field *f,
		       const struct nlattr *nla)
{
	uint64_t val;

	if (f->kind == FK_STR) {
		out_str(o, key, nla_data(nla), nla_strlen(nla));
		return;
	}
	if (!nla_uint(nla, f->kind, &val))
		return;
	if (f->kind == FK_HEX32)
		out_hex32(o, key, val);
	else if (val < f->nnames && f->names[val])
		out_str(o, key, f->names[val], strlen(f->names[val]));
	else
		out_u64(o, key, val);
}

void show_nest(struct out *o, const char *prefix,
	       const struct field_table *t, const struct nlattr *nest)
{
	const struct field *f;
	struct nlattr *nla;
	char key[KEY_MAX];

	for (f = t->fields; f < t->fields + t->n; f++) {
		nla = nla_find(nla_data(nest), nla_len(nest), f->type);
		if (!nla)
			continue;
		if (!f->key)
			snprintf(key, sizeof(key), "%s", prefix);
		else
			snprintf(key, sizeof(key), "%s%s%s", prefix,
				 *prefix ? "." : "", f->key);
		if (f->kind == FK_NEST)
			show_nest(o, key, f->nest, nla);
		else
			show_value(o, key, f, nla);
	}
}

int show_table_dump(const struct request *req, struct nlattr **attrs)
{
	const struct table_dump *d = req->priv;

	if (!attrs[d->attr])
		return 0;
	if (d->object)
		out_object(d->out);
	show_nest(d->out, "", d->table, attrs[d->attr]);
	return 0;
}
