/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: what the parts of the tool share. smcr.c parses the command line
 * and configures; genl.c sends one request and reads its replies; out.c
 * prints keys and values; table.c walks nested attributes by tables;
 * stats.c and lgr.c are the commands that show.
 */
#ifndef SMCR_TOOL_H
#define SMCR_TOOL_H

#include <stdbool.h>
#include <stdint.h>

#include <netlink/attr.h>
#include <netlink/netlink.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

extern const char *prog;

struct errno_text {
	int err;
	const char *name;
	const char *text;
};

/* One request: what it is called in messages, where it goes, what it
 * puts in (fill, with arg), what its errnos mean beyond the common ones
 * and, for a dump, what prints each reply (show, with priv). A request
 * with show and doit is no dump but gets replies all the same.
 */
struct request {
	const char *what;
	const char *family;
	int version;
	int cmd;
	int (*fill)(struct nl_msg *msg, char **arg);
	char **arg;
	const struct errno_text *errors;
	int (*show)(const struct request *req, struct nlattr **attrs);
	int maxattr;
	void *priv;
	bool doit;
};

int run(const struct request *req);
int dump_gen(const char *what, int cmd,
	     int (*show)(const struct request *req, struct nlattr **attrs),
	     void *priv);

/* out.c: keys and values as "key value" lines or as one JSON object
 * (json), whose objects go in an array named list when there is one.
 */
struct out {
	bool json;
	const char *list;
	bool open;
	unsigned int objects;
	unsigned int keys;
};

void out_object(struct out *o);
void out_u64(struct out *o, const char *key, uint64_t val);
void out_str(struct out *o, const char *key, const char *s, int len);
void out_hex32(struct out *o, const char *key, uint64_t val);
void out_end(struct out *o, bool failed);

/* table.c: the attributes of a nest printed in the order of a table.
 * A field names its attribute type, its key (joined to the nest's with a
 * dot; none in a nest keeps the nest's own), how to read it and, for an
 * enumeration, the names of its values. An attribute the kernel does
 * not send, or sends too short, is not printed.
 */
enum field_kind {
	FK_U8,
	FK_U16,
	FK_U32,
	FK_U64,
	FK_HEX32,	/* u32 printed as 8 hex digits */
	FK_STR,		/* string, trailing white space dropped */
	FK_NEST,
};

struct field_table;

struct field {
	int type;
	const char *key;
	enum field_kind kind;
	const struct field_table *nest;
	const char *const *names;
	unsigned int nnames;
};

struct field_table {
	const struct field *fields;
	unsigned int n;
};

/* Entries of a table: a value, a nest, a value with names. The tables
 * count their entries as ARRAY_SIZE() does.
 */
#define FIELD(t, k, kd) { .type = (t), .key = (k), .kind = (kd) }
#define FIELD_NEST(t, k, tab) \
	{ .type = (t), .key = (k), .kind = FK_NEST, .nest = &(tab) }
#define FIELD_ENUM(t, k, kd, n) \
	{ .type = (t), .key = (k), .kind = (kd), .names = (n), \
	  .nnames = sizeof(n) / sizeof((n)[0]) }
#define FIELD_TABLE(f) { .fields = (f), .n = sizeof(f) / sizeof((f)[0]) }

int nla_strlen(const struct nlattr *nla);
bool nla_uint(const struct nlattr *nla, enum field_kind kind, uint64_t *val);
void show_nest(struct out *o, const char *prefix,
	       const struct field_table *t, const struct nlattr *nest);

/* A dump whose replies each carry one nest (attr) of a table: each
 * reply an object of its own when object is set.
 */
struct table_dump {
	struct out *out;
	int attr;
	const struct field_table *table;
	bool object;
};

int show_table_dump(const struct request *req, struct nlattr **attrs);

/* The show commands, json for -j; their exit status */
int stats_main(bool json);
int linkgroup_main(bool json);
int link_main(bool json);

#endif
