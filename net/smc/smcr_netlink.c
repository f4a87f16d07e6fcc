// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the SMC_GEN_NETLINK generic netlink family of uapi/linux/smc.h.
 *
 * Same name, version, commands, attributes, policies and permissions as
 * Linux 6.1's smc.ko, so tools written for it (and tools/smcr) work with
 * this module and get the same answers. Served so far: system info, the
 * UEID table, and the system EID commands as they behave where there is
 * no system EID (every machine but s390 with ISM). Commands not listed in
 * smcr_nl_ops (link groups, links, devices, statistics, handshake
 * limitation) are not registered: generic netlink answers them with
 * -EOPNOTSUPP. No multicast group, like Linux's family.
 */

#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/smc.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "smcr_ueid.h"

/* What SMC_NETLINK_GET_SYS_INFO reports: the values Linux 6.1 gives.
 * SMC-R v2 is always on, as in Linux: the handshake offers it whenever a
 * user EID is configured (smcr_clc.c).
 */
#define SMCR_NL_SYS_VERSION	2	/* highest SMC version */
#define SMCR_NL_SYS_RELEASE	0	/* release within that version */
#define SMCR_NL_SYS_SMCR_V2	1	/* SMC-R v2 capable */
#define SMCR_NL_SYS_ISM_V2	0	/* no ISM device: SMC-D v2 is not */

/* The host name as it was when the module was loaded, blank padded and
 * not NUL terminated: what a v2 CLC message carries. Set before the
 * family is registered, read only afterwards.
 */
static u8 smcr_nl_hostname[SMC_MAX_HOSTNAME_LEN];

static struct genl_family smcr_nl_family;

/* A fixed-size wire field as a NUL-terminated string attribute */
static int smcr_nl_put_field(struct sk_buff *skb, int type, const u8 *field,
			     int len)
{
	struct nlattr *nla = nla_reserve(skb, type, len + 1);
	u8 *str;

	if (!nla)
		return -EMSGSIZE;
	str = nla_data(nla);
	memcpy(str, field, len);
	str[len] = '\0';
	return 0;
}

/* Start a reply message of a dump */
static void *smcr_nl_dump_hdr(struct sk_buff *skb, struct netlink_callback *cb,
			      u8 cmd)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			   &smcr_nl_family, NLM_F_MULTI, cmd);
}

/* A dump that is one message, its attributes put by @fill (if any) */
static int smcr_nl_dump_one(struct sk_buff *skb, struct netlink_callback *cb,
			    u8 cmd, int (*fill)(struct sk_buff *skb))
{
	void *hdr;

	if (cb->args[0])
		return 0;
	hdr = smcr_nl_dump_hdr(skb, cb, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (fill && fill(skb) < 0) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	cb->args[0] = 1;
	genlmsg_end(skb, hdr);
	return skb->len;
}

/* SMC_GEN_SYS_INFO nests the versions, the capabilities and the host
 * name, in Linux's order. Without ISM there is no system EID:
 * SMC_NLA_SYS_SEID is left out.
 */
static int smcr_nl_fill_sys_info(struct sk_buff *skb)
{
	struct nlattr *nest = nla_nest_start(skb, SMC_GEN_SYS_INFO);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, SMC_NLA_SYS_VER, SMCR_NL_SYS_VERSION) ||
	    nla_put_u8(skb, SMC_NLA_SYS_REL, SMCR_NL_SYS_RELEASE) ||
	    nla_put_u8(skb, SMC_NLA_SYS_IS_ISM_V2, SMCR_NL_SYS_ISM_V2) ||
	    nla_put_u8(skb, SMC_NLA_SYS_IS_SMCR_V2, SMCR_NL_SYS_SMCR_V2) ||
	    smcr_nl_put_field(skb, SMC_NLA_SYS_LOCAL_HOST, smcr_nl_hostname,
			      SMC_MAX_HOSTNAME_LEN)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int smcr_nl_get_sys_info(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	return smcr_nl_dump_one(skb, cb, SMC_NETLINK_GET_SYS_INFO,
				smcr_nl_fill_sys_info);
}

/* SMC_NETLINK_DUMP_UEID: a message per entry, in table order */
static int smcr_nl_dump_ueid(struct sk_buff *skb, struct netlink_callback *cb)
{
	u8 eids[SMCR_MAX_UEID][SMCR_EID_LEN];
	int n, i;
	void *hdr;

	n = smcr_ueid_get_all(eids, SMCR_MAX_UEID);
	for (i = cb->args[0]; i < n; i++) {
		hdr = smcr_nl_dump_hdr(skb, cb, SMC_NETLINK_DUMP_UEID);
		if (!hdr)
			break;
		if (smcr_nl_put_field(skb, SMC_NLA_EID_TABLE_ENTRY, eids[i],
				      SMCR_EID_LEN)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = i;
	return skb->len;
}

/* The EID of an ADD or REMOVE request. The policy has let through a
 * string of at most SMC_MAX_EID_LEN characters; the ABI wants exactly
 * that many plus the NUL.
 */
static const u8 *smcr_nl_eid(struct genl_info *info)
{
	struct nlattr *nla = info->attrs[SMC_NLA_EID_TABLE_ENTRY];

	if (!nla || nla_len(nla) != SMC_MAX_EID_LEN + 1)
		return NULL;
	return nla_data(nla);
}

static int smcr_nl_add_ueid(struct sk_buff *skb, struct genl_info *info)
{
	const u8 *eid = smcr_nl_eid(info);

	return eid ? smcr_ueid_add(eid) : -EINVAL;
}

/* A request without an EID is an error, not a flush */
static int smcr_nl_remove_ueid(struct sk_buff *skb, struct genl_info *info)
{
	const u8 *eid = smcr_nl_eid(info);

	return eid ? smcr_ueid_remove(eid) : -EINVAL;
}

static int smcr_nl_flush_ueid(struct sk_buff *skb, struct genl_info *info)
{
	smcr_ueid_flush();
	return 0;
}

/* SMC_NETLINK_DUMP_SEID: the system EID exists with ISM v2 only (s390).
 * Linux then answers with one message without attributes; so do we.
 */
static int smcr_nl_dump_seid(struct sk_buff *skb, struct netlink_callback *cb)
{
	return smcr_nl_dump_one(skb, cb, SMC_NETLINK_DUMP_SEID, NULL);
}

/* Enabling or disabling the system EID: there is none to switch */
static int smcr_nl_seid_switch(struct sk_buff *skb, struct genl_info *info)
{
	return -EOPNOTSUPP;
}

/* A command takes attributes only if it has a policy of its own (ADD and
 * REMOVE take the EID, type 1). With this one type 1 is refused, and the
 * strict validation refuses every type above maxattr.
 */
static const struct nla_policy smcr_nl_policy[2] = {
	[1]	= { .type = NLA_REJECT },
};

static const struct nla_policy smcr_nl_ueid_policy[] = {
	[SMC_NLA_EID_TABLE_ENTRY]	= { .type = NLA_STRING,
					    .len = SMC_MAX_EID_LEN },
};

/* Reading is open to all, changing needs CAP_NET_ADMIN */
static const struct genl_ops smcr_nl_ops[] = {
	{
		.cmd	= SMC_NETLINK_GET_SYS_INFO,
		.dumpit	= smcr_nl_get_sys_info,
	},
	{
		.cmd	= SMC_NETLINK_DUMP_UEID,
		.dumpit	= smcr_nl_dump_ueid,
	},
	{
		.cmd	= SMC_NETLINK_ADD_UEID,
		.flags	= GENL_ADMIN_PERM,
		.doit	= smcr_nl_add_ueid,
		.policy	= smcr_nl_ueid_policy,
	},
	{
		.cmd	= SMC_NETLINK_REMOVE_UEID,
		.flags	= GENL_ADMIN_PERM,
		.doit	= smcr_nl_remove_ueid,
		.policy	= smcr_nl_ueid_policy,
	},
	{
		.cmd	= SMC_NETLINK_FLUSH_UEID,
		.flags	= GENL_ADMIN_PERM,
		.doit	= smcr_nl_flush_ueid,
	},
	{
		.cmd	= SMC_NETLINK_DUMP_SEID,
		.dumpit	= smcr_nl_dump_seid,
	},
	{
		.cmd	= SMC_NETLINK_ENABLE_SEID,
		.flags	= GENL_ADMIN_PERM,
		.doit	= smcr_nl_seid_switch,
	},
	{
		.cmd	= SMC_NETLINK_DISABLE_SEID,
		.flags	= GENL_ADMIN_PERM,
		.doit	= smcr_nl_seid_switch,
	},
};

/* resv_start_op as Linux 6.1 sets it: every command of the ABI so far
 * keeps the legacy, lax header checks; later ones would get strict ones.
 */
static struct genl_family smcr_nl_family __ro_after_init = {
	.name		= SMC_GENL_FAMILY_NAME,
	.version	= SMC_GENL_FAMILY_VERSION,
	.maxattr	= ARRAY_SIZE(smcr_nl_policy) - 1,
	.policy		= smcr_nl_policy,
	.netnsok	= true,
	.module		= THIS_MODULE,
	.ops		= smcr_nl_ops,
	.n_ops		= ARRAY_SIZE(smcr_nl_ops),
	.resv_start_op	= SMC_NETLINK_DISABLE_HS_LIMITATION + 1,
};

/**
 * smcr_netlink_init() - offer the SMC_GEN_NETLINK family
 *
 * Takes note of the host name first, as SMC_NETLINK_GET_SYS_INFO reports
 * it. Fails with -EEXIST while another module (Linux's smc.ko) has the
 * family.
 *
 * Return: 0 or a negative errno.
 */
int smcr_netlink_init(void)
{
	const char *node = utsname()->nodename;

	memset(smcr_nl_hostname, ' ', sizeof(smcr_nl_hostname));
	memcpy(smcr_nl_hostname, node,
	       min(strnlen(node, __NEW_UTS_LEN), sizeof(smcr_nl_hostname)));
	return genl_register_family(&smcr_nl_family);
}

/**
 * smcr_netlink_exit() - withdraw the SMC_GEN_NETLINK family
 *
 * Waits for requests under way; dumps in progress hold a module reference.
 */
void smcr_netlink_exit(void)
{
	genl_unregister_family(&smcr_nl_family);
}
