/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: what the parts of the tool share. genl.c sends one request and
 * reads its replies; smcr.c parses the command line.
 */
#ifndef SMCR_TOOL_H
#define SMCR_TOOL_H

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
 * and, for a dump, what prints each reply (show, with priv).
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
};

int run(const struct request *req);

#endif
