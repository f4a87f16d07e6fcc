// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: configure SMC over the kernel's generic netlink ABI (the families
 * SMC_GEN_NETLINK and SMC_PNETID of uapi/linux/smc.h), so it works with
 * Linux's smc.ko as with ours.
 *
 *   smcr ueid add|del EID
 *   smcr ueid flush
 *   smcr pnet add PNETID eth NETDEV
 *   smcr pnet add PNETID ib IBDEV PORT
 *   smcr pnet flush
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/smc.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

static const char *prog = "smcr";

static void help(void)
{
	fprintf(stderr,
		"usage: %s ueid add|del EID | ueid flush\n"
		"       %s pnet add PNETID eth NETDEV\n"
		"       %s pnet add PNETID ib IBDEV PORT\n"
		"       %s pnet del PNETID | pnet flush\n",
		prog, prog, prog, prog);
	exit(2);
}

/* Send one request of @family and wait for its acknowledgment */
static int genl_request(const char *family, int cmd,
			int (*fill)(struct nl_msg *msg, char **argv),
			char **argv)
{
	struct nl_sock *sk;
	struct nl_msg *msg;
	int id, rc;

	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	rc = genl_connect(sk);
	if (rc)
		goto out_sock;
	id = genl_ctrl_resolve(sk, family);
	if (id < 0) {
		fprintf(stderr,
			"%s: no generic netlink family %s: is an SMC module loaded?\n",
			prog, family);
		rc = -ENOENT;
		goto out_sock;
	}
	msg = nlmsg_alloc();
	if (!msg) {
		rc = -ENOMEM;
		goto out_sock;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, id, 0,
			 NLM_F_REQUEST | NLM_F_ACK, cmd, 1)) {
		rc = -ENOMEM;
		goto out_msg;
	}
	if (fill) {
		rc = fill(msg, argv);
		if (rc)
			goto out_msg;
	}
	rc = nl_send_auto(sk, msg);
	if (rc >= 0)
		rc = nl_wait_for_ack(sk);
	if (rc < 0)
		fprintf(stderr, "%s: %s\n", prog, nl_geterror(rc));
out_msg:
	nlmsg_free(msg);
out_sock:
	nl_socket_free(sk);
	return rc < 0 ? rc : 0;
}

/* The ABI's EID: SMC_MAX_EID_LEN characters padded with blanks, and a NUL */
static int fill_ueid(struct nl_msg *msg, char **argv)
{
	char eid[SMC_MAX_EID_LEN + 1];
	size_t len = strlen(argv[0]);

	if (!len || len > SMC_MAX_EID_LEN) {
		fprintf(stderr, "%s: an EID has 1 to %d characters\n",
			prog, SMC_MAX_EID_LEN);
		return -EINVAL;
	}
	memset(eid, ' ', SMC_MAX_EID_LEN);
	memcpy(eid, argv[0], len);
	eid[SMC_MAX_EID_LEN] = '\0';
	return nla_put(msg, SMC_NLA_EID_TABLE_ENTRY, sizeof(eid), eid);
}

static int fill_pnet_name(struct nl_msg *msg, char **argv)
{
	return nla_put_string(msg, SMC_PNETID_NAME, argv[0]);
}

static int fill_pnet_add(struct nl_msg *msg, char **argv)
{
	int rc = nla_put_string(msg, SMC_PNETID_NAME, argv[0]);

	if (rc)
		return rc;
	if (!strcmp(argv[1], "eth"))
		return nla_put_string(msg, SMC_PNETID_ETHNAME, argv[2]);
	rc = nla_put_string(msg, SMC_PNETID_IBNAME, argv[2]);
	return rc ? rc : nla_put_u8(msg, SMC_PNETID_IBPORT,
				    (uint8_t)atoi(argv[3]));
}

int main(int argc, char **argv)
{
	if (argc < 3)
		help();
	if (!strcmp(argv[1], "ueid")) {
		if (!strcmp(argv[2], "flush") && argc == 3)
			return !!genl_request(SMC_GENL_FAMILY_NAME,
					      SMC_NETLINK_FLUSH_UEID, NULL, NULL);
		if (argc != 4)
			help();
		if (!strcmp(argv[2], "add"))
			return !!genl_request(SMC_GENL_FAMILY_NAME,
					      SMC_NETLINK_ADD_UEID, fill_ueid,
					      argv + 3);
		if (!strcmp(argv[2], "del"))
			return !!genl_request(SMC_GENL_FAMILY_NAME,
					      SMC_NETLINK_REMOVE_UEID,
					      fill_ueid, argv + 3);
		help();
	}
	if (!strcmp(argv[1], "pnet")) {
		if (!strcmp(argv[2], "flush") && argc == 3)
			return !!genl_request(SMCR_GENL_FAMILY_NAME,
					      SMC_PNETID_FLUSH, NULL, NULL);
		if (!strcmp(argv[2], "del") && argc == 4)
			return !!genl_request(SMCR_GENL_FAMILY_NAME,
					      SMC_PNETID_DEL, fill_pnet_name,
					      argv + 3);
		if (!strcmp(argv[2], "add") &&
		    ((argc == 6 && !strcmp(argv[4], "eth")) ||
		     (argc == 7 && !strcmp(argv[4], "ib"))))
			return !!genl_request(SMCR_GENL_FAMILY_NAME,
					      SMC_PNETID_ADD, fill_pnet_add,
					      argv + 3);
	}
	help();
	return 2;
}
