// SPDX-License-Identifier: GPL-2.0
/*
 * smcss: list AF_SMC sockets, their state, mode and, on request, their
 * SMC-R link and connection cursors, from the kernel's sock_diag answers
 * (uapi/linux/smc_diag.h). Works with our smcr.ko and with Linux's smc.ko
 * and smc_diag.ko alike; see Documentation/smcss.8.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "smcss.h"

const char *prog = "smcss";

static const char usage[] =
"usage: smcss [-a | -l] [-R] [-D] [-j]\n"
"  (none)  connected sockets: neither listening nor unconnected\n"
"  -a      all sockets\n"
"  -l      listening sockets only\n"
"  -R      the SMC-R link of each connection: link id, RDMA device and\n"
"          port, role in the link group, local and peer GID\n"
"  -D      details: shutdown bits, socket cookie, fallback codes, and for\n"
"          SMC-R connections alert token, buffer sizes, CDC flags and\n"
"          cursors (wrap:count)\n"
"  -j      one JSON object: an array \"sockets\" with the same keys\n"
"  -h      this text\n";

enum which { CONNECTED, ALL, LISTENING };

struct walk {
	enum which which;
	struct view view;
	struct json json;
	bool begun;
};

#define STATE_INIT	2
#define STATE_LISTEN	10

static void each(const struct smc_sock *s, void *arg)
{
	struct walk *w = arg;
	unsigned int state = s->msg.diag_state;

	switch (w->which) {
	case CONNECTED:
		if (state == STATE_LISTEN || state == STATE_INIT)
			return;
		break;
	case LISTENING:
		if (state != STATE_LISTEN)
			return;
		break;
	case ALL:
		break;
	}
	if (!w->begun) {
		show_begin(&w->view, &w->json);
		w->begun = true;
	}
	show_sock(&w->view, &w->json, s);
}

int main(int argc, char **argv)
{
	struct walk w = { .which = CONNECTED };
	__u8 ext = 0;
	int c, rc;

	while ((c = getopt(argc, argv, "alRDjh")) != -1) {
		switch (c) {
		case 'a':
			w.which = ALL;
			break;
		case 'l':
			w.which = LISTENING;
			break;
		case 'R':
			w.view.link = true;
			ext |= 1 << (SMC_DIAG_LGRINFO - 1);
			break;
		case 'D':
			w.view.detail = true;
			ext |= 1 << (SMC_DIAG_CONNINFO - 1);
			break;
		case 'j':
			w.view.json = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", prog,
			argv[optind]);
		fputs(usage, stderr);
		return 2;
	}

	/* nothing is printed before the kernel's first answer: a request
	 * that fails at once leaves stdout empty
	 */
	rc = diag_dump(ext, each, &w);
	if (!rc && !w.begun) {
		show_begin(&w.view, &w.json);
		w.begun = true;
	}
	if (w.begun)
		show_end(&w.view, &w.json);
	return rc;
}
