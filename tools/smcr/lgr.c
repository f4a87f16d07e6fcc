// SPDX-License-Identifier: GPL-2.0
/*
 * smcr linkgroup, smcr link: the SMC-R link groups and their links, as
 * SMC_NETLINK_GET_LGR_SMCR and SMC_NETLINK_GET_LINK_SMCR dump them, an
 * object each (the usage text of smcr.c lists the keys).
 */
#include <stdio.h>

#include <linux/smc.h>

#include "smcr.h"

/* Values of Linux's enumerations, as the ABI carries them */
static const char *const role_names[] = { "client", "server" };
static const char *const lgr_type_names[] = {
	"none", "single", "symmetric", "asymmetric_peer", "asymmetric_local",
};

static const char *const buf_type_names[] = { "physical", "virtual", "mixed" };
static const char *const os_names[] = { NULL, "zos", "linux", "aix" };
static const char *const link_state_names[] = {
	"unused", "inactive", "activating", "active",
};

/* SMC_NLA_LGR_R_V2_COMMON: SMC-Rv2 groups only */
static const struct field lgr_v2_common_fields[] = {
	FIELD(SMC_NLA_LGR_V2_VER, "version", FK_U8),
	FIELD(SMC_NLA_LGR_V2_REL, "release", FK_U8),
	FIELD_ENUM(SMC_NLA_LGR_V2_OS, "peer_os", FK_U8, os_names),
	FIELD(SMC_NLA_LGR_V2_PEER_HOST, "peer_host", FK_STR),
	FIELD(SMC_NLA_LGR_V2_NEG_EID, "eid", FK_STR),
};

static const struct field_table lgr_v2_common_table =
	FIELD_TABLE(lgr_v2_common_fields);

/* SMC_NLA_LGR_R_V2 */
static const struct field lgr_v2_fields[] = {
	FIELD(SMC_NLA_LGR_R_V2_DIRECT, "direct", FK_U8),
};

static const struct field_table lgr_v2_table = FIELD_TABLE(lgr_v2_fields);

/* SMC_GEN_LGR_SMCR */
static const struct field lgr_fields[] = {
	FIELD(SMC_NLA_LGR_R_ID, "id", FK_HEX32),
	FIELD_ENUM(SMC_NLA_LGR_R_ROLE, "role", FK_U8, role_names),
	FIELD_ENUM(SMC_NLA_LGR_R_TYPE, "type", FK_U8, lgr_type_names),
	FIELD(SMC_NLA_LGR_R_CONNS_NUM, "conns", FK_U32),
	FIELD_NEST(SMC_NLA_LGR_R_V2_COMMON, NULL, lgr_v2_common_table),
	FIELD_NEST(SMC_NLA_LGR_R_V2, NULL, lgr_v2_table),
	FIELD(SMC_NLA_LGR_R_PNETID, "pnetid", FK_STR),
	FIELD(SMC_NLA_LGR_R_VLAN_ID, "vlan", FK_U8),
	FIELD_ENUM(SMC_NLA_LGR_R_BUF_TYPE, "buf_type", FK_U8, buf_type_names),
	FIELD(SMC_NLA_LGR_R_NET_COOKIE, "net_cookie", FK_U64),
};

static const struct field_table lgr_table = FIELD_TABLE(lgr_fields);

/* SMC_GEN_LINK_SMCR */
static const struct field link_fields[] = {
	FIELD(SMC_NLA_LINK_ID, "id", FK_U8),
	FIELD_ENUM(SMC_NLA_LINK_STATE, "state", FK_U32, link_state_names),
	FIELD(SMC_NLA_LINK_CONN_CNT, "conns", FK_U32),
	FIELD(SMC_NLA_LINK_IB_DEV, "ib_dev", FK_STR),
	FIELD(SMC_NLA_LINK_IB_PORT, "ib_port", FK_U8),
	FIELD(SMC_NLA_LINK_NET_DEV, "ifindex", FK_U32),
	FIELD(SMC_NLA_LINK_GID, "gid", FK_STR),
	FIELD(SMC_NLA_LINK_PEER_GID, "peer_gid", FK_STR),
	FIELD(SMC_NLA_LINK_UID, "uid", FK_HEX32),
	FIELD(SMC_NLA_LINK_PEER_UID, "peer_uid", FK_HEX32),
};

static const struct field_table link_table = FIELD_TABLE(link_fields);

/* The links of a group follow it in the dump of links, which name it by
 * its id: the one reply is gone when the next arrives, the id is kept
 */
struct link_dump {
	struct out *out;
	bool has_lgr;
	uint64_t lgr;
};

static int show_link(const struct request *req, struct nlattr **attrs)
{
	struct link_dump *d = req->priv;
	struct nlattr *id;

	if (attrs[SMC_GEN_LGR_SMCR]) {
		id = nla_find(nla_data(attrs[SMC_GEN_LGR_SMCR]),
			      nla_len(attrs[SMC_GEN_LGR_SMCR]), SMC_NLA_LGR_R_ID);
		d->has_lgr = id && nla_uint(id, FK_HEX32, &d->lgr);
		return 0;
	}
	if (!attrs[SMC_GEN_LINK_SMCR])
		return 0;
	out_object(d->out);
	if (d->has_lgr)
		out_hex32(d->out, "lgr", d->lgr);
	show_nest(d->out, "", &link_table, attrs[SMC_GEN_LINK_SMCR]);
	return 0;
}

int linkgroup_main(bool json)
{
	struct out o = { .json = json, .list = "linkgroups" };
	struct table_dump d = {
		.out = &o,
		.attr = SMC_GEN_LGR_SMCR,
		.table = &lgr_table,
		.object = true,
	};
	int rc;

	rc = dump_gen("linkgroup", SMC_NETLINK_GET_LGR_SMCR, show_table_dump,
		      &d);
	out_end(&o, rc);
	return !!rc;
}

int link_main(bool json)
{
	struct out o = { .json = json, .list = "links" };
	struct link_dump d = { .out = &o };
	int rc;

	rc = dump_gen("link", SMC_NETLINK_GET_LINK_SMCR, show_link, &d);
	out_end(&o, rc);
	return !!rc;
}
