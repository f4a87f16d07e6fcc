// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: one request to a generic netlink family, its acknowledgment or
 * the replies of its dump, and what to say when it fails.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/smc.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "smcr.h"

static const struct errno_text common_errors[] = {
	{ EPERM, "EPERM", "permission denied (CAP_NET_ADMIN needed)" },
	{ EOPNOTSUPP, "EOPNOTSUPP", "not supported by the loaded SMC module" },
	{ EINVAL, "EINVAL", "invalid request" },
	{ ENOENT, "ENOENT", "no such entry" },
	{ EEXIST, "EEXIST", "already there" },
	{ ERANGE, "ERANGE", "out of range" },
	{ ENOMEM, "ENOMEM", "out of memory" },
	{ 0, NULL, NULL }
};

static const struct errno_text *lookup(const struct errno_text *tab, int err)
{
	for (; tab && tab->err; tab++) {
		if (tab->err == err)
			return tab;
	}
	return NULL;
}

/* "smcr: ueid add FOO: already in the UEID table (EEXIST)" */
static void report(const struct request *req, int err)
{
	const struct errno_text *t = lookup(req->errors, err);

	if (!t)
		t = lookup(common_errors, err);
	if (t)
		fprintf(stderr, "%s: %s: %s (%s)\n", prog, req->what, t->text,
			t->name);
	else
		fprintf(stderr, "%s: %s: %s (errno %d)\n", prog, req->what,
			strerror(err), err);
}

/* The kernel's errno of a request, as the netlink error message had it:
 * libnl would turn it into its own, coarser codes
 */
static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	(void)nla;
	*(int *)arg = -e->error;
	return NL_STOP;
}

static int on_reply(struct nl_msg *msg, void *arg)
{
	const struct request *req = arg;
	struct nlattr *attrs[req->maxattr + 1];
	int rc;

	rc = genlmsg_parse(nlmsg_hdr(msg), 0, attrs, req->maxattr, NULL);
	if (rc < 0)
		return NL_SKIP;
	return req->show(req, attrs) ? NL_STOP : NL_OK;
}

/* Send @req and wait for its acknowledgment or, for a dump, read all the
 * replies. Returns 0 or a negative errno, which it has reported.
 */
int run(const struct request *req)
{
	struct nl_msg *msg = NULL;
	struct nl_sock *sk;
	int id, rc, err = 0;

	sk = nl_socket_alloc();
	if (!sk || genl_connect(sk)) {
		fprintf(stderr, "%s: cannot open a generic netlink socket\n",
			prog);
		err = EIO;
		goto out;
	}
	id = genl_ctrl_resolve(sk, req->family);
	if (id < 0) {
		fprintf(stderr,
			"%s: SMC module not loaded (no generic netlink family %s)\n",
			prog, req->family);
		err = ENOENT;
		goto out;
	}
	nl_socket_modify_err_cb(sk, NL_CB_CUSTOM, on_error, &err);
	if (req->show)
		nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_reply,
				    (void *)req);
	msg = nlmsg_alloc();
	if (!msg ||
	    !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, id, 0,
			 req->show && !req->doit ? NLM_F_DUMP : NLM_F_ACK, req->cmd,
			 req->version)) {
		err = ENOMEM;
		goto report;
	}
	/* -EINVAL: a bad argument; anything else: a libnl error, no room */
	rc = req->fill ? req->fill(msg, req->arg) : 0;
	if (rc) {
		err = rc == -EINVAL ? EINVAL : ENOMEM;
		goto report;
	}
	rc = nl_send_auto(sk, msg);
	if (rc >= 0)
		rc = req->show ? nl_recvmsgs_default(sk) : nl_wait_for_ack(sk);
	if (rc < 0 && !err) {
		fprintf(stderr, "%s: %s: %s\n", prog, req->what,
			nl_geterror(rc));
		err = EIO;
		goto out;
	}
report:
	if (err)
		report(req, err);
out:
	if (msg)
		nlmsg_free(msg);
	if (sk)
		nl_socket_free(sk);
	return -err;
}

/* A dump of family SMC_GEN_NETLINK, each reply to show() with priv */
int dump_gen(const char *what, int cmd,
	     int (*show)(const struct request *req, struct nlattr **attrs),
	     void *priv)
{
	struct request req = {
		.what = what,
		.family = SMC_GENL_FAMILY_NAME,
		.version = SMC_GENL_FAMILY_VERSION,
		.cmd = cmd,
		.show = show,
		.maxattr = SMC_GEN_MAX,
		.priv = priv,
	};

	return run(&req);
}
