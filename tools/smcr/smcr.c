// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: configure and inspect SMC over the kernel's generic netlink ABI
 * (the families SMC_GEN_NETLINK and SMC_PNETID of uapi/linux/smc.h), so
 * it works with Linux's smc.ko as with ours. The usage text below says
 * what each command does and what it prints.
 *
 * Errors name the request and the kernel's errno; exit status 1.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/smc.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "smcr.h"

const char *prog = "smcr";

static const char usage[] =
"usage: smcr info                      versions, capabilities, host name\n"
"       smcr ueid show | ueid add|del EID | ueid flush\n"
"       smcr seid show|enable|disable  the system EID (s390 only)\n"
"       smcr hslimit show|enable|disable\n"
"                                      handshake limitation of new sockets\n"
"       smcr pnet add PNETID eth NETDEV\n"
"       smcr pnet add PNETID ib IBDEV PORT\n"
"       smcr pnet del PNETID | pnet flush\n"
"       smcr pnet show [PNETID]        the PNET table (of this namespace)\n"
"       smcr stats [-j]                counters and fallback reasons\n"
"       smcr linkgroup|lgr [-j]        SMC-R link groups\n"
"       smcr link [-j]                 SMC-R links\n"
"       smcr help                      this text\n"
"\n"
"stats, linkgroup and link print one \"key value\" a line, such as\n"
"\"smcr.srv.v2_success 3\"; linkgroup and link a block of lines per group\n"
"or link, blocks separated by a blank line. -j prints one JSON object\n"
"with the same keys instead (counts as numbers, names and ids as\n"
"strings); linkgroup and link put their objects in its array\n"
"\"linkgroups\" or \"links\". What the kernel does not report is left out.\n"
"\n"
"stats keys; T is smcr or smcd, R is clnt or srv:\n"
"  T.R.v1_success T.R.v2_success   handshakes that ended in SMC v1, v2\n"
"  T.tx.bytes T.rx.bytes           payload sent, received\n"
"  T.tx.calls T.rx.calls           send, receive calls\n"
"  T.tx.payload.S T.rx.payload.S   those calls by length; S is 8k 16k 32k\n"
"                                  64k 128k 256k 512k 1024k gt1024k\n"
"  T.tx.rmb.size.S T.rx.rmb.size.S send buffers, RMBs created, by size\n"
"  T.tx.rmb.K T.rx.rmb.K           K is alloc reuse downgrade small\n"
"                                  small_peer full full_peer\n"
"  T.sendpage T.splice             sendpage, splice calls\n"
"  T.cork T.nodelay                TCP_CORK cleared, TCP_NODELAY set\n"
"  T.urgent                        urgent data sent or received\n"
"  handshake.R.errors              handshakes that failed\n"
"  fallback.R.total                connections that fell back to TCP\n"
"                                  (0 when the kernel has none on record)\n"
"  fallback.R.0xCODE               of them for reason CODE (8 hex digits,\n"
"                                  a decline code), such as\n"
"                                  fallback.clnt.0x03010000\n"
"linkgroup keys: id role type conns, version release peer_os peer_host\n"
"  eid direct (SMC-Rv2 groups only), pnetid vlan buf_type net_cookie\n"
"link keys: lgr (the id of its group) id state conns ib_dev ib_port\n"
"  ifindex gid peer_gid uid peer_uid\n"
"\n"
"pnet show prints an entry a line, as pnet add takes it: \"PNETID eth\n"
"NETDEV\" or \"PNETID ib IBDEV PORT\"; with PNETID only the entries the\n"
"kernel matches to it (as given: the table holds PNET IDs upper case).\n";

static void help(void)
{
	fputs(usage, stderr);
	exit(2);
}

/* What an errno means for a request on the UEID table */
static const struct errno_text ueid_errors[] = {
	{ EINVAL, "EINVAL",
	  "not a valid EID (up to 32 of A-Z 0-9 . -, first A-Z or 0-9)" },
	{ EEXIST, "EEXIST", "already in the UEID table" },
	{ ERANGE, "ERANGE", "the UEID table is full (4 entries)" },
	{ ENOENT, "ENOENT", "not in the UEID table" },
	{ 0, NULL, NULL }
};

static const struct errno_text seid_errors[] = {
	{ EOPNOTSUPP, "EOPNOTSUPP", "no system EID on this machine" },
	{ ENOENT, "ENOENT", "no user EID to use instead" },
	{ 0, NULL, NULL }
};

/* The ABI's EID: SMC_MAX_EID_LEN characters padded with blanks, and a NUL */
static int fill_ueid(struct nl_msg *msg, char **argv)
{
	char eid[SMC_MAX_EID_LEN + 1];
	size_t len = strlen(argv[0]);

	if (!len || len > SMC_MAX_EID_LEN)
		return -EINVAL;
	memset(eid, ' ', SMC_MAX_EID_LEN);
	memcpy(eid, argv[0], len);
	eid[SMC_MAX_EID_LEN] = '\0';
	return nla_put(msg, SMC_NLA_EID_TABLE_ENTRY, sizeof(eid), eid);
}

/* What an errno means for a request on the PNET table */
static const struct errno_text pnet_errors[] = {
	{ EINVAL, "EINVAL",
	  "invalid request (PNET ID: 1 to 16 letters or digits; IB port: 1 or 2)" },
	{ EEXIST, "EEXIST",
	  "the device is in the PNET table already, or the RoCE port has a PNET ID" },
	{ ENOENT, "ENOENT", "no such PNET ID in the table" },
	{ ERANGE, "ERANGE", "a name is too long" },
	{ 0, NULL, NULL }
};

static int fill_pnet_name(struct nl_msg *msg, char **argv)
{
	return nla_put_string(msg, SMC_PNETID_NAME, argv[0]);
}

static int fill_pnet_add(struct nl_msg *msg, char **argv)
{
	int rc = nla_put_string(msg, SMC_PNETID_NAME, argv[0]);
	unsigned long port;
	char *end;

	if (rc)
		return rc;
	if (!strcmp(argv[1], "eth"))
		return nla_put_string(msg, SMC_PNETID_ETHNAME, argv[2]);
	port = strtoul(argv[3], &end, 10);
	if (!*argv[3] || *end || port > UINT8_MAX)
		return -EINVAL;
	rc = nla_put_string(msg, SMC_PNETID_IBNAME, argv[2]);
	return rc ? rc : nla_put_u8(msg, SMC_PNETID_IBPORT, port);
}

/* A device may be named before it exists; say so, it is often a typo */
static void pnet_note(char **argv)
{
	char path[300];
	bool there;

	if (!strcmp(argv[1], "eth")) {
		there = if_nametoindex(argv[2]);
	} else {
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s", argv[2]);
		there = !access(path, F_OK);
	}
	if (!there)
		fprintf(stderr,
			"%s: note: no %s device %s here (yet): the entry waits for it\n",
			prog, argv[1], argv[2]);
}

static int show_pnet(const struct request *req, struct nlattr **attrs)
{
	struct nlattr *eth = attrs[SMC_PNETID_ETHNAME];
	struct nlattr *ib = attrs[SMC_PNETID_IBNAME];
	struct nlattr *port = attrs[SMC_PNETID_IBPORT];
	static const char none[] = "n/a";	/* the other kind's name */

	(void)req;
	if (!attrs[SMC_PNETID_NAME])
		return 0;
	if (eth && strcmp(nla_data(eth), none))
		printf("%s eth %s\n", (char *)nla_data(attrs[SMC_PNETID_NAME]),
		       (char *)nla_data(eth));
	if (ib && strcmp(nla_data(ib), none))
		printf("%s ib %s %u\n", (char *)nla_data(attrs[SMC_PNETID_NAME]),
		       (char *)nla_data(ib), port ? nla_get_u8(port) : 0);
	return 0;
}

/* A fixed-size string attribute, trailing blanks dropped */
static void print_field(const char *name, struct nlattr *nla)
{
	if (name)
		printf("%s: ", name);
	printf("%.*s\n", nla_strlen(nla), (const char *)nla_data(nla));
}

static int show_ueid(const struct request *req, struct nlattr **attrs)
{
	(void)req;
	if (attrs[SMC_NLA_EID_TABLE_ENTRY])
		print_field(NULL, attrs[SMC_NLA_EID_TABLE_ENTRY]);
	return 0;
}

static int show_seid(const struct request *req, struct nlattr **attrs)
{
	(void)req;
	if (!attrs[SMC_NLA_SEID_ENTRY]) {
		printf("seid: none\n");
		return 0;
	}
	print_field("seid", attrs[SMC_NLA_SEID_ENTRY]);
	if (attrs[SMC_NLA_SEID_ENABLED])
		printf("enabled: %u\n", nla_get_u8(attrs[SMC_NLA_SEID_ENABLED]));
	return 0;
}

static void print_u8(const char *name, struct nlattr *nla)
{
	if (nla)
		printf("%s: %u\n", name, nla_get_u8(nla));
}

static int show_hslimit(const struct request *req, struct nlattr **attrs)
{
	(void)req;
	print_u8("enabled", attrs[SMC_NLA_HS_LIMITATION_ENABLED]);
	return 0;
}

static int show_sys_info(const struct request *req, struct nlattr **attrs)
{
	(void)req;
	struct nlattr *info[SMC_NLA_SYS_MAX + 1];

	if (!attrs[SMC_GEN_SYS_INFO] ||
	    nla_parse_nested(info, SMC_NLA_SYS_MAX, attrs[SMC_GEN_SYS_INFO],
			     NULL) < 0)
		return 0;
	print_u8("version", info[SMC_NLA_SYS_VER]);
	print_u8("release", info[SMC_NLA_SYS_REL]);
	print_u8("smcr_v2", info[SMC_NLA_SYS_IS_SMCR_V2]);
	print_u8("ism_v2", info[SMC_NLA_SYS_IS_ISM_V2]);
	if (info[SMC_NLA_SYS_LOCAL_HOST])
		print_field("hostname", info[SMC_NLA_SYS_LOCAL_HOST]);
	if (info[SMC_NLA_SYS_SEID])
		print_field("seid", info[SMC_NLA_SYS_SEID]);
	return 0;
}

/* The commands of family SMC_GEN_NETLINK, by their words on the command
 * line and the number of arguments after them
 */
static const struct gen_command {
	const char *words[2];
	int nargs;
	int cmd;
	int (*fill)(struct nl_msg *msg, char **arg);
	const struct errno_text *errors;
	int (*show)(const struct request *req, struct nlattr **attrs);
	int maxattr;
} gen_commands[] = {
	{ .words = { "info" }, .cmd = SMC_NETLINK_GET_SYS_INFO,
	  .show = show_sys_info, .maxattr = SMC_GEN_MAX },
	{ .words = { "ueid", "show" }, .cmd = SMC_NETLINK_DUMP_UEID,
	  .show = show_ueid, .maxattr = SMC_NLA_EID_TABLE_MAX },
	{ .words = { "ueid", "add" }, .nargs = 1, .cmd = SMC_NETLINK_ADD_UEID,
	  .fill = fill_ueid, .errors = ueid_errors },
	{ .words = { "ueid", "del" }, .nargs = 1,
	  .cmd = SMC_NETLINK_REMOVE_UEID, .fill = fill_ueid,
	  .errors = ueid_errors },
	{ .words = { "ueid", "flush" }, .cmd = SMC_NETLINK_FLUSH_UEID },
	{ .words = { "seid", "show" }, .cmd = SMC_NETLINK_DUMP_SEID,
	  .show = show_seid, .maxattr = SMC_NLA_SEID_TABLE_MAX },
	{ .words = { "seid", "enable" }, .cmd = SMC_NETLINK_ENABLE_SEID,
	  .errors = seid_errors },
	{ .words = { "seid", "disable" }, .cmd = SMC_NETLINK_DISABLE_SEID,
	  .errors = seid_errors },
	{ .words = { "hslimit", "show" }, .cmd = SMC_NETLINK_DUMP_HS_LIMITATION,
	  .show = show_hslimit, .maxattr = SMC_NLA_HS_LIMITATION_MAX },
	{ .words = { "hslimit", "enable" },
	  .cmd = SMC_NETLINK_ENABLE_HS_LIMITATION },
	{ .words = { "hslimit", "disable" },
	  .cmd = SMC_NETLINK_DISABLE_HS_LIMITATION },
};

/* smcr info | ueid ... | seid ... | hslimit ... */
static int gen_request(int argc, char **argv)
{
	struct request req = {
		.family = SMC_GENL_FAMILY_NAME,
		.version = SMC_GENL_FAMILY_VERSION,
	};
	const struct gen_command *c;
	unsigned int i;
	int nwords;
	char what[64];

	for (i = 0; i < ARRAY_SIZE(gen_commands); i++) {
		c = &gen_commands[i];
		nwords = c->words[1] ? 2 : 1;
		if (argc == 1 + nwords + c->nargs &&
		    !strcmp(argv[1], c->words[0]) &&
		    (nwords == 1 || !strcmp(argv[2], c->words[1])))
			break;
	}
	if (i == ARRAY_SIZE(gen_commands))
		help();
	snprintf(what, sizeof(what), "%s%s%s%s%s", argv[1],
		 argc > 2 ? " " : "", argc > 2 ? argv[2] : "",
		 argc > 3 ? " " : "", argc > 3 ? argv[3] : "");
	req.what = what;
	req.cmd = c->cmd;
	req.fill = c->fill;
	req.arg = argv + 1 + nwords;
	req.errors = c->errors;
	req.show = c->show;
	req.maxattr = c->maxattr;
	return !!run(&req);
}

/* smcr pnet ...: family SMC_PNETID */
static int pnet_request(int argc, char **argv)
{
	struct request req = {
		.family = SMCR_GENL_FAMILY_NAME,
		.version = SMCR_GENL_FAMILY_VERSION,
	};

	req.what = "pnet";
	req.errors = pnet_errors;
	if (argc == 3 && !strcmp(argv[2], "flush")) {
		req.what = "pnet flush";
		req.cmd = SMC_PNETID_FLUSH;
	} else if (argc == 4 && !strcmp(argv[2], "del")) {
		req.what = "pnet del";
		req.cmd = SMC_PNETID_DEL;
		req.fill = fill_pnet_name;
		req.arg = argv + 3;
	} else if (!strcmp(argv[2], "add") &&
		   ((argc == 6 && !strcmp(argv[4], "eth")) ||
		    (argc == 7 && !strcmp(argv[4], "ib")))) {
		req.what = "pnet add";
		req.cmd = SMC_PNETID_ADD;
		req.fill = fill_pnet_add;
		req.arg = argv + 3;
	} else if ((argc == 3 || argc == 4) && !strcmp(argv[2], "show")) {
		req.what = "pnet show";
		req.cmd = SMC_PNETID_GET;
		req.show = show_pnet;
		req.maxattr = SMC_PNETID_MAX;
		/* with a PNET ID: the kernel's lookup, not a dump */
		req.fill = argc == 4 ? fill_pnet_name : NULL;
		req.arg = argv + 3;
		req.doit = argc == 4;
	} else {
		help();
	}
	if (run(&req))
		return 1;
	if (req.cmd == SMC_PNETID_ADD)
		pnet_note(argv + 3);
	return 0;
}

/* The commands that only show, and take -j */
static const struct show_command {
	const char *word;
	int (*main)(bool json);
} show_commands[] = {
	{ "stats", stats_main },
	{ "linkgroup", linkgroup_main },
	{ "lgr", linkgroup_main },
	{ "link", link_main },
};

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2)
		help();
	if (argc == 2 && (!strcmp(argv[1], "help") || !strcmp(argv[1], "-h") ||
			  !strcmp(argv[1], "--help"))) {
		fputs(usage, stdout);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(show_commands); i++) {
		if (strcmp(argv[1], show_commands[i].word))
			continue;
		if (argc > 3 || (argc == 3 && strcmp(argv[2], "-j")))
			help();
		return show_commands[i].main(argc == 3);
	}
	if (!strcmp(argv[1], "info") || !strcmp(argv[1], "ueid") ||
	    !strcmp(argv[1], "seid") || !strcmp(argv[1], "hslimit"))
		return gen_request(argc, argv);
	if (!strcmp(argv[1], "pnet") && argc >= 3)
		return pnet_request(argc, argv);
	help();
	return 2;
}
