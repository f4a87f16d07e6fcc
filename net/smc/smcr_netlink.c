// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: the SMC_GEN_NETLINK generic netlink family of uapi/linux/smc.h.
 *
 * Same name, version, commands, attributes, policies and permissions as
 * Linux 6.1's smc.ko, so tools written for it (and tools/smcr) work with
 * this module and get the same answers: system info; the UEID table; the
 * system EID commands as they behave where there is no system EID (every
 * machine but s390 with ISM); SMC-R link groups, their links and RoCE
 * devices; SMC-D ones as a machine without ISM device has them (none);
 * the statistics and fallback reasons of the caller's namespace; and the
 * handshake limitation flag. No multicast group, like Linux's family.
 *
 * Dumps put their attributes in Linux's order. Most are values read from
 * a plain structure the dump fills first, with a table of attributes
 * (struct smcr_nl_table) that says which field goes where.
 *
 * Where Linux's answer depends on a device driver, ours says what the
 * device is: a RoCE port's network device (SMC_NLA_LINK_NET_DEV,
 * SMC_NLA_DEV_PORT_NETDEV) is its ifindex even where Linux 6.1 reports 0
 * (rxe, whose driver does not name it to Linux's module). PNET IDs are
 * those the PNET table gave the RoCE ports (smcr_pnet.c).
 */

#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/smc.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "smcr.h"
#include "smcr_stats.h"
#include "smcr_ueid.h"

/* What SMC_NETLINK_GET_SYS_INFO reports: the values Linux 6.1 gives,
 * and the release the handshakes offer (smcr_clc_release()).
 * SMC-R v2 is always on, as in Linux: the handshake offers it whenever a
 * user EID is configured (smcr_clc.c).
 */
#define SMCR_NL_SYS_VERSION	2	/* highest SMC version */
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
	    nla_put_u8(skb, SMC_NLA_SYS_REL, smcr_clc_release()) ||
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

/* Values of Linux's enumerations, as the ABI carries them */
#define SMCR_NL_ROLE_CLIENT	0
#define SMCR_NL_ROLE_SERVER	1
#define SMCR_NL_LGR_NONE	0	/* no active link */
#define SMCR_NL_LGR_SINGLE	1	/* one active link each side */
#define SMCR_NL_LGR_SYMMETRIC	2	/* two, on two devices each side */
#define SMCR_NL_LGR_ASYM_PEER	3	/* two, one device on the peer's side */
#define SMCR_NL_LGR_ASYM_LOCAL	4	/* two, one device on ours */
#define SMCR_NL_BUF_PHYS	0	/* physically contiguous buffers */
#define SMCR_NL_LINK_INACTIVE	1
#define SMCR_NL_LINK_ACTIVATING	2
#define SMCR_NL_LINK_ACTIVE	3
#define SMCR_NL_PORTS		2	/* SMC_NLA_DEV_PORT, _PORT2 */

#define SMCR_NL_PNETID_LEN	16
#define SMCR_NL_GID_LEN		40	/* 8 groups of 4 hex digits */

enum smcr_nl_kind {
	SMCR_NL_END,		/* the zeroed entry that ends a table */
	SMCR_NL_U8,
	SMCR_NL_U16,
	SMCR_NL_U32,
	SMCR_NL_U64,
	SMCR_NL_UINT,
	SMCR_NL_STR,
	SMCR_NL_NEST,
};

struct smcr_nl_table;

/**
 * struct smcr_nl_attr - an attribute a table puts
 * @type: its type
 * @kind: enum smcr_nl_kind, the type of its field: u8, u16, u32, u64, a
 *	u64 put in 4 bytes where it fits and else in 8 unpadded (the
 *	NLA_UINT of Linux 6.7 on), a NUL-terminated string, or a structure
 *	for the table @nest
 * @off: offset of the field in the structure the table reads
 * @cond: 0 to put it always; else 1 + the offset of a bool that says
 *	whether to put it
 * @nest: for SMCR_NL_NEST, the table of its attributes
 */
struct smcr_nl_attr {
	u16				type;
	u8				kind;
	u16				off;
	u16				cond;
	const struct smcr_nl_table	*nest;
};

/**
 * struct smcr_nl_table - the attributes of a nest, in order
 * @attrs: the attributes, up to an entry of kind SMCR_NL_END
 * @pad: the attribute type that pads its u64 values where needed
 */
struct smcr_nl_table {
	const struct smcr_nl_attr	*attrs;
	int				pad;
};

#define SMCR_NL_VAL(t, k, s, f) \
	{ .type = (t), .kind = SMCR_NL_##k, .off = offsetof(s, f) }
#define SMCR_NL_VAL_IF(t, k, s, f, c) \
	{ .type = (t), .kind = SMCR_NL_##k, .off = offsetof(s, f), \
	  .cond = offsetof(s, c) + 1 }
#define SMCR_NL_NEST_IF(t, s, f, tab, c) \
	{ .type = (t), .kind = SMCR_NL_NEST, .off = offsetof(s, f), \
	  .cond = offsetof(s, c) + 1, .nest = &(tab) }
#define SMCR_NL_NEST(t, s, f, tab) \
	{ .type = (t), .kind = SMCR_NL_NEST, .off = offsetof(s, f), \
	  .nest = &(tab) }
#define SMCR_NL_TABLE(a, p) { .attrs = (a), .pad = (p) }

static int smcr_nl_put_table(struct sk_buff *skb,
			     const struct smcr_nl_table *t, const void *obj);

/* A nest of type @type with the attributes @t reads from @obj */
static int smcr_nl_put_nest(struct sk_buff *skb, int type,
			    const struct smcr_nl_table *t, const void *obj)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest)
		return -EMSGSIZE;
	if (smcr_nl_put_table(skb, t, obj)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* NLA_UINT: 4 bytes for a value that fits, else 8 with no padding */
static int smcr_nl_put_uint(struct sk_buff *skb, int type, u64 v)
{
	if (v <= U32_MAX)
		return nla_put_u32(skb, type, v);
	return nla_put(skb, type, sizeof(v), &v);
}

static int smcr_nl_put_table(struct sk_buff *skb,
			     const struct smcr_nl_table *t, const void *obj)
{
	const struct smcr_nl_attr *a;
	const u8 *p;
	int rc;

	for (a = t->attrs; a->kind != SMCR_NL_END; a++) {
		if (a->cond && !*(const bool *)((const u8 *)obj + a->cond - 1))
			continue;
		p = (const u8 *)obj + a->off;
		switch (a->kind) {
		case SMCR_NL_U8:
			rc = nla_put_u8(skb, a->type, *p);
			break;
		case SMCR_NL_U16:
			rc = nla_put_u16(skb, a->type, *(const u16 *)p);
			break;
		case SMCR_NL_U32:
			rc = nla_put_u32(skb, a->type, *(const u32 *)p);
			break;
		case SMCR_NL_U64:
			rc = nla_put_u64_64bit(skb, a->type, *(const u64 *)p,
					       t->pad);
			break;
		case SMCR_NL_UINT:
			rc = smcr_nl_put_uint(skb, a->type, *(const u64 *)p);
			break;
		case SMCR_NL_STR:
			rc = nla_put_string(skb, a->type, (const char *)p);
			break;
		default:
			rc = smcr_nl_put_nest(skb, a->type, a->nest, p);
			break;
		}
		if (rc)
			return -EMSGSIZE;
	}
	return 0;
}

/* One message of a dump: command @cmd, the nest @type of @t's attributes */
static int smcr_nl_put_msg(struct sk_buff *skb, struct netlink_callback *cb,
			   u8 cmd, int type, const struct smcr_nl_table *t,
			   const void *obj)
{
	void *hdr = smcr_nl_dump_hdr(skb, cb, cmd);

	if (!hdr)
		return -EMSGSIZE;
	if (smcr_nl_put_nest(skb, type, t, obj)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* SMC_NLA_LGR_R_V2_COMMON */
struct smcr_nl_lgr_v2 {
	u8	version;
	u8	release;
	u8	os;
	char	host[SMC_MAX_HOSTNAME_LEN + 1];
	char	eid[SMC_MAX_EID_LEN + 1];
};

static const struct smcr_nl_attr smcr_nl_lgr_v2_attrs[] = {
	SMCR_NL_VAL(SMC_NLA_LGR_V2_VER, U8, struct smcr_nl_lgr_v2, version),
	SMCR_NL_VAL(SMC_NLA_LGR_V2_REL, U8, struct smcr_nl_lgr_v2, release),
	SMCR_NL_VAL(SMC_NLA_LGR_V2_OS, U8, struct smcr_nl_lgr_v2, os),
	SMCR_NL_VAL(SMC_NLA_LGR_V2_PEER_HOST, STR, struct smcr_nl_lgr_v2, host),
	SMCR_NL_VAL(SMC_NLA_LGR_V2_NEG_EID, STR, struct smcr_nl_lgr_v2, eid),
	{ }
};

static const struct smcr_nl_table smcr_nl_lgr_v2_table =
	SMCR_NL_TABLE(smcr_nl_lgr_v2_attrs, 0);

/* SMC_NLA_LGR_R_V2; SMC release 1's limits where the kernel's smc.ko
 * reports them (6.12)
 */
struct smcr_nl_lgr_r_v2 {
	u8	direct;
	u8	max_conns;
	u8	max_links;
};

static const struct smcr_nl_attr smcr_nl_lgr_r_v2_attrs[] = {
	SMCR_NL_VAL(SMC_NLA_LGR_R_V2_DIRECT, U8, struct smcr_nl_lgr_r_v2,
		    direct),
#ifdef SMCR_HAVE_SMC_V21
	SMCR_NL_VAL(SMC_NLA_LGR_R_V2_MAX_CONNS, U8, struct smcr_nl_lgr_r_v2,
		    max_conns),
	SMCR_NL_VAL(SMC_NLA_LGR_R_V2_MAX_LINKS, U8, struct smcr_nl_lgr_r_v2,
		    max_links),
#endif
	{ }
};

static const struct smcr_nl_table smcr_nl_lgr_r_v2_table =
	SMCR_NL_TABLE(smcr_nl_lgr_r_v2_attrs, 0);

/**
 * struct smcr_nl_lgr - what SMC_GEN_LGR_SMCR says of a link group
 * @id: its id
 * @conns: its connections
 * @role: SMCR_NL_ROLE_*
 * @type: SMCR_NL_LGR_*
 * @buf_type: SMCR_NL_BUF_PHYS
 * @vlan: 0: no VLAN
 * @net_cookie: cookie of the RoCE device's namespace
 * @pnetid: its port's PNET ID when it was created
 * @sndbuf_alloc: bytes of its send buffers (put from 6.12 on)
 * @rmb_alloc: bytes of its RMBs (put from 6.12 on)
 * @is_v2: an SMC-Rv2 group: @v2 and @r_v2 are put
 * @v2: the SMC-Rv2 values
 * @r_v2: the peer is reached without a gateway, what release 1 agreed
 *	on (SMC_NLA_LGR_R_V2)
 */
struct smcr_nl_lgr {
	u32			id;
	u32			conns;
	u8			role;
	u8			type;
	u8			buf_type;
	u8			vlan;
	u64			net_cookie;
	char			pnetid[SMCR_NL_PNETID_LEN + 1];
	u64			sndbuf_alloc;
	u64			rmb_alloc;
	bool			is_v2;
	struct smcr_nl_lgr_v2	v2;
	struct smcr_nl_lgr_r_v2	r_v2;
};

static const struct smcr_nl_attr smcr_nl_lgr_attrs[] = {
	SMCR_NL_VAL(SMC_NLA_LGR_R_ID, U32, struct smcr_nl_lgr, id),
	SMCR_NL_VAL(SMC_NLA_LGR_R_CONNS_NUM, U32, struct smcr_nl_lgr, conns),
	SMCR_NL_VAL(SMC_NLA_LGR_R_ROLE, U8, struct smcr_nl_lgr, role),
	SMCR_NL_VAL(SMC_NLA_LGR_R_TYPE, U8, struct smcr_nl_lgr, type),
	SMCR_NL_VAL(SMC_NLA_LGR_R_BUF_TYPE, U8, struct smcr_nl_lgr, buf_type),
	SMCR_NL_VAL(SMC_NLA_LGR_R_VLAN_ID, U8, struct smcr_nl_lgr, vlan),
	SMCR_NL_VAL(SMC_NLA_LGR_R_NET_COOKIE, U64, struct smcr_nl_lgr,
		    net_cookie),
	SMCR_NL_VAL(SMC_NLA_LGR_R_PNETID, STR, struct smcr_nl_lgr, pnetid),
#ifdef SMCR_HAVE_SMC_BUF_USAGE
	SMCR_NL_VAL(SMC_NLA_LGR_R_SNDBUF_ALLOC, UINT, struct smcr_nl_lgr,
		    sndbuf_alloc),
	SMCR_NL_VAL(SMC_NLA_LGR_R_RMB_ALLOC, UINT, struct smcr_nl_lgr,
		    rmb_alloc),
#endif
	SMCR_NL_NEST_IF(SMC_NLA_LGR_R_V2_COMMON, struct smcr_nl_lgr, v2,
			smcr_nl_lgr_v2_table, is_v2),
	SMCR_NL_NEST_IF(SMC_NLA_LGR_R_V2, struct smcr_nl_lgr, r_v2,
			smcr_nl_lgr_r_v2_table, is_v2),
	{ }
};

static const struct smcr_nl_table smcr_nl_lgr_table =
	SMCR_NL_TABLE(smcr_nl_lgr_attrs, SMC_NLA_LGR_R_PAD);

/**
 * struct smcr_nl_link - what SMC_GEN_LINK_SMCR says of a link
 * @id: link id
 * @state: SMCR_NL_LINK_*
 * @conns: connections on it
 * @ib_port: RoCE port
 * @ifindex: that port's network device
 * @ib_dev: RoCE device
 * @uid: link user id, its bytes as a host order u32 (as Linux's)
 * @peer_uid: the peer's, the same way
 * @gid: GID, as text
 * @peer_gid: the peer's GID, as text
 */
struct smcr_nl_link {
	u8	id;
	u32	state;
	u32	conns;
	u8	ib_port;
	u32	ifindex;
	char	ib_dev[IB_DEVICE_NAME_MAX];
	u32	uid;
	u32	peer_uid;
	char	gid[SMCR_NL_GID_LEN + 1];
	char	peer_gid[SMCR_NL_GID_LEN + 1];
};

static const struct smcr_nl_attr smcr_nl_link_attrs[] = {
	SMCR_NL_VAL(SMC_NLA_LINK_ID, U8, struct smcr_nl_link, id),
	SMCR_NL_VAL(SMC_NLA_LINK_STATE, U32, struct smcr_nl_link, state),
	SMCR_NL_VAL(SMC_NLA_LINK_CONN_CNT, U32, struct smcr_nl_link, conns),
	SMCR_NL_VAL(SMC_NLA_LINK_IB_PORT, U8, struct smcr_nl_link, ib_port),
	SMCR_NL_VAL(SMC_NLA_LINK_NET_DEV, U32, struct smcr_nl_link, ifindex),
	SMCR_NL_VAL(SMC_NLA_LINK_IB_DEV, STR, struct smcr_nl_link, ib_dev),
	SMCR_NL_VAL(SMC_NLA_LINK_UID, U32, struct smcr_nl_link, uid),
	SMCR_NL_VAL(SMC_NLA_LINK_PEER_UID, U32, struct smcr_nl_link, peer_uid),
	SMCR_NL_VAL(SMC_NLA_LINK_GID, STR, struct smcr_nl_link, gid),
	SMCR_NL_VAL(SMC_NLA_LINK_PEER_GID, STR, struct smcr_nl_link, peer_gid),
	{ }
};

static const struct smcr_nl_table smcr_nl_link_table =
	SMCR_NL_TABLE(smcr_nl_link_attrs, 0);

/* A fixed-size field as a string, cut at its first NUL if it has one */
static void smcr_nl_str(char *to, const u8 *field, size_t len)
{
	memcpy(to, field, len);
	to[len] = '\0';
}

/* Linux's group types, from the active links */
static u8 smcr_nl_lgr_type(const struct smcr_lgr *lgr)
{
	const struct smcr_link *a = NULL, *b = NULL, *link;
	int i;

	for (i = 0; i < SMCR_LINKS_MAX; i++) {
		link = &lgr->lnk[i];
		if (!link->lgr || READ_ONCE(link->state) != SMCR_LINK_ACTIVE)
			continue;
		if (!a)
			a = link;
		else
			b = link;
	}
	if (!a)
		return SMCR_NL_LGR_NONE;
	if (!b)
		return SMCR_NL_LGR_SINGLE;
	if (smcr_link_share_port(a, b))
		return SMCR_NL_LGR_ASYM_LOCAL;
	if (smcr_link_share_peer(a, b))
		return SMCR_NL_LGR_ASYM_PEER;
	return SMCR_NL_LGR_SYMMETRIC;
}

static void smcr_nl_lgr_info(const struct smcr_lgr *lgr,
			     struct smcr_nl_lgr *info)
{
	const struct smcr_link *first = &lgr->lnk[smcr_lgr_primary_idx(lgr)];
	struct ib_device *ibdev = first->port.dev->ibdev;

	memset(info, 0, sizeof(*info));
	info->id = lgr->id;
	info->conns = lgr->conns_num;
	info->role = lgr->server ? SMCR_NL_ROLE_SERVER : SMCR_NL_ROLE_CLIENT;
	info->type = smcr_nl_lgr_type(lgr);
	info->buf_type = SMCR_NL_BUF_PHYS;
	info->net_cookie = read_pnet(&ibdev->coredev.rdma_net)->net_cookie;
	smcr_nl_str(info->pnetid, first->port.pnetid, SMCR_NL_PNETID_LEN);
	info->sndbuf_alloc = atomic_long_read(&lgr->alloc_sndbufs);
	info->rmb_alloc = atomic_long_read(&lgr->alloc_rmbs);
	if (lgr->version != SMCR_CLC_V2)
		return;
	info->is_v2 = true;
	info->v2.version = lgr->version;
	info->v2.release = lgr->peer_release;
	info->v2.os = lgr->peer_os;
	smcr_nl_str(info->v2.host, lgr->peer_host, SMC_MAX_HOSTNAME_LEN);
	smcr_nl_str(info->v2.eid, lgr->eid, SMC_MAX_EID_LEN);
	info->r_v2.direct = !lgr->uses_gateway;
	info->r_v2.max_conns = lgr->agreed.max_conns;
	info->r_v2.max_links = lgr->agreed.max_links;
}

/* A link the dump of links lists: false for one that is down */
static bool smcr_nl_link_info(const struct smcr_link *link,
			      struct smcr_nl_link *info)
{
	__be32 uid = smcr_link_uid(link);

	memset(info, 0, sizeof(*info));
	switch (READ_ONCE(link->state)) {
	case SMCR_LINK_ACTIVATING:
		info->state = SMCR_NL_LINK_ACTIVATING;
		break;
	case SMCR_LINK_ACTIVE:
		info->state = SMCR_NL_LINK_ACTIVE;
		break;
	default:
		return false;
	}
	info->id = link->link_id;
	info->conns = smcr_lgr_link_conns(link);
	info->ib_port = link->port.port;
	info->ifindex = link->port.ifindex;
	strscpy(info->ib_dev, dev_name(&link->port.dev->ibdev->dev),
		sizeof(info->ib_dev));
	memcpy(&info->uid, &uid, sizeof(info->uid));
	memcpy(&info->peer_uid, link->peer_uid, sizeof(info->peer_uid));
	snprintf(info->gid, sizeof(info->gid), "%pI6", link->port.gid);
	snprintf(info->peer_gid, sizeof(info->peer_gid), "%pI6",
		 link->peer_gid);
	return true;
}

/**
 * struct smcr_nl_lgr_dump - a dump of link groups, or of them and links
 * @skb: the reply being filled
 * @cb: the dump
 * @links: each group's message is followed by its link's
 * @lgr: room for what a group's message says
 * @link: room for what a link's message says
 */
struct smcr_nl_lgr_dump {
	struct sk_buff			*skb;
	struct netlink_callback		*cb;
	bool				links;
	struct smcr_nl_lgr		lgr;
	struct smcr_nl_link		link;
};

/* A group's message and its links', all or none */
static int smcr_nl_lgr_one(const struct smcr_lgr *lgr, void *arg)
{
	struct smcr_nl_lgr_dump *d = arg;
	unsigned char *mark = skb_tail_pointer(d->skb);
	int i;

	smcr_nl_lgr_info(lgr, &d->lgr);
	if (smcr_nl_put_msg(d->skb, d->cb, SMC_NETLINK_GET_LGR_SMCR,
			    SMC_GEN_LGR_SMCR, &smcr_nl_lgr_table, &d->lgr))
		return -EMSGSIZE;
	for (i = 0; d->links && i < SMCR_LINKS_MAX; i++) {
		if (!lgr->lnk[i].lgr ||
		    !smcr_nl_link_info(&lgr->lnk[i], &d->link))
			continue;
		if (smcr_nl_put_msg(d->skb, d->cb, SMC_NETLINK_GET_LINK_SMCR,
				    SMC_GEN_LINK_SMCR, &smcr_nl_link_table,
				    &d->link)) {
			nlmsg_trim(d->skb, mark);
			return -EMSGSIZE;
		}
	}
	return 0;
}

/* Linux's order: groups from the oldest on, in every namespace */
static int smcr_nl_dump_lgrs(struct sk_buff *skb, struct netlink_callback *cb,
			     bool links)
{
	struct smcr_nl_lgr_dump *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return -ENOMEM;
	d->skb = skb;
	d->cb = cb;
	d->links = links;
	cb->args[0] = smcr_lgr_walk(cb->args[0], smcr_nl_lgr_one, d);
	kfree(d);
	return skb->len;
}

/* SMC_NETLINK_GET_LGR_SMCR: a message per link group */
static int smcr_nl_get_lgr(struct sk_buff *skb, struct netlink_callback *cb)
{
	return smcr_nl_dump_lgrs(skb, cb, false);
}

/* SMC_NETLINK_GET_LINK_SMCR: a message per link group, each followed by
 * one per link that is up or coming up
 */
static int smcr_nl_get_link(struct sk_buff *skb, struct netlink_callback *cb)
{
	return smcr_nl_dump_lgrs(skb, cb, true);
}

/* SMC_NETLINK_GET_LGR_SMCD, SMC_NETLINK_GET_DEV_SMCD: no ISM device, no
 * message
 */
static int smcr_nl_dump_none(struct sk_buff *skb, struct netlink_callback *cb)
{
	return 0;
}

/**
 * struct smcr_nl_port - what SMC_NLA_DEV_PORT says of a RoCE port
 * @present: the device has the port
 * @pnet_usr: the PNET ID came from the user (the PNET table)
 * @pnetid: its PNET ID, if any
 * @ifindex: the port's network device
 * @valid: 1
 * @active: the port is active
 * @links: links on the port
 */
struct smcr_nl_port {
	bool	present;
	u8	pnet_usr;
	char	pnetid[SMCR_NL_PNETID_LEN + 1];
	u32	ifindex;
	u8	valid;
	u8	active;
	u32	links;
};

static const struct smcr_nl_attr smcr_nl_port_attrs[] = {
	SMCR_NL_VAL(SMC_NLA_DEV_PORT_PNET_USR, U8, struct smcr_nl_port, pnet_usr),
	SMCR_NL_VAL(SMC_NLA_DEV_PORT_PNETID, STR, struct smcr_nl_port, pnetid),
	SMCR_NL_VAL(SMC_NLA_DEV_PORT_NETDEV, U32, struct smcr_nl_port, ifindex),
	SMCR_NL_VAL(SMC_NLA_DEV_PORT_VALID, U8, struct smcr_nl_port, valid),
	SMCR_NL_VAL(SMC_NLA_DEV_PORT_STATE, U8, struct smcr_nl_port, active),
	SMCR_NL_VAL(SMC_NLA_DEV_PORT_LNK_CNT, U32, struct smcr_nl_port, links),
	{ }
};

static const struct smcr_nl_table smcr_nl_port_table =
	SMCR_NL_TABLE(smcr_nl_port_attrs, 0);

/**
 * struct smcr_nl_dev - what SMC_GEN_DEV_SMCR says of a RoCE device
 * @critical: a link group would go with it: its only link is on it
 * @pci: the device is a PCI function: the pci_* values are put
 * @pci_fid: function id (s390 only: 0)
 * @pci_chid: channel id (s390 only: 0)
 * @pci_vendor: vendor id
 * @pci_device: device id
 * @pci_id: PCI address
 * @ib_name: device name
 * @port: its ports 1 and 2
 */
struct smcr_nl_dev {
	u8			critical;
	bool			pci;
	u32			pci_fid;
	u16			pci_chid;
	u16			pci_vendor;
	u16			pci_device;
	char			pci_id[SMC_PCI_ID_STR_LEN];
	char			ib_name[IB_DEVICE_NAME_MAX];
	struct smcr_nl_port	port[SMCR_NL_PORTS];
};

static const struct smcr_nl_attr smcr_nl_dev_attrs[] = {
	SMCR_NL_VAL(SMC_NLA_DEV_IS_CRIT, U8, struct smcr_nl_dev, critical),
	SMCR_NL_VAL_IF(SMC_NLA_DEV_PCI_FID, U32, struct smcr_nl_dev, pci_fid,
		       pci),
	SMCR_NL_VAL_IF(SMC_NLA_DEV_PCI_CHID, U16, struct smcr_nl_dev, pci_chid,
		       pci),
	SMCR_NL_VAL_IF(SMC_NLA_DEV_PCI_VENDOR, U16, struct smcr_nl_dev,
		       pci_vendor, pci),
	SMCR_NL_VAL_IF(SMC_NLA_DEV_PCI_DEVICE, U16, struct smcr_nl_dev,
		       pci_device, pci),
	SMCR_NL_VAL_IF(SMC_NLA_DEV_PCI_ID, STR, struct smcr_nl_dev, pci_id, pci),
	SMCR_NL_VAL(SMC_NLA_DEV_IB_NAME, STR, struct smcr_nl_dev, ib_name),
	SMCR_NL_NEST_IF(SMC_NLA_DEV_PORT, struct smcr_nl_dev, port[0],
			smcr_nl_port_table, port[0].present),
	SMCR_NL_NEST_IF(SMC_NLA_DEV_PORT2, struct smcr_nl_dev, port[1],
			smcr_nl_port_table, port[1].present),
	{ }
};

static const struct smcr_nl_table smcr_nl_dev_table =
	SMCR_NL_TABLE(smcr_nl_dev_attrs, 0);

/**
 * struct smcr_nl_dev_dump - a dump of RoCE devices
 * @skb: the reply being filled
 * @cb: the dump
 * @ibdev: while link groups are counted: the device
 * @dev: room for what a device's message says
 */
struct smcr_nl_dev_dump {
	struct sk_buff			*skb;
	struct netlink_callback		*cb;
	const struct smcr_ibdev		*ibdev;
	struct smcr_nl_dev		dev;
};

/* Count a group's link on the device being dumped */
static int smcr_nl_dev_usage(const struct smcr_lgr *lgr, void *arg)
{
	struct smcr_nl_dev_dump *d = arg;
	const struct smcr_link *link;
	int i;

	for (i = 0; i < SMCR_LINKS_MAX; i++) {
		link = &lgr->lnk[i];
		if (!link->lgr || link->port.dev != d->ibdev)
			continue;
		if (link->port.port >= 1 && link->port.port <= SMCR_NL_PORTS)
			d->dev.port[link->port.port - 1].links++;
		/* as Linux: the group has no link off the device */
		if (READ_ONCE(link->state) == SMCR_LINK_ACTIVE &&
		    (smcr_nl_lgr_type(lgr) == SMCR_NL_LGR_SINGLE ||
		     smcr_nl_lgr_type(lgr) == SMCR_NL_LGR_ASYM_LOCAL))
			d->dev.critical = 1;
	}
	return 0;
}

/* The network device of a RoCE port: that of its default GID */
static u32 smcr_nl_port_ifindex(struct ib_device *ibdev, u32 port)
{
	const struct ib_gid_attr *attr = rdma_get_gid_attr(ibdev, port, 0);
	struct net_device *ndev;
	u32 ifindex = 0;

	if (IS_ERR(attr))
		return 0;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(attr);
	if (!IS_ERR(ndev))
		ifindex = ndev->ifindex;
	rcu_read_unlock();
	rdma_put_gid_attr(attr);
	return ifindex;
}

static int smcr_nl_dev_one(struct smcr_ibdev *dev, void *arg)
{
	struct smcr_nl_dev_dump *d = arg;
	struct ib_device *ibdev = dev->ibdev;
	struct device *parent = ibdev->dev.parent;
	struct smcr_nl_port *port;
	struct ib_port_attr pattr;
	u32 p;

	memset(&d->dev, 0, sizeof(d->dev));
	if (parent && dev_is_pci(parent)) {
		struct pci_dev *pdev = to_pci_dev(parent);

		d->dev.pci = true;
		d->dev.pci_vendor = pdev->vendor;
		d->dev.pci_device = pdev->device;
		strscpy(d->dev.pci_id, pci_name(pdev), sizeof(d->dev.pci_id));
	}
	strscpy(d->dev.ib_name, dev_name(&ibdev->dev), sizeof(d->dev.ib_name));
	for (p = 1; p <= SMCR_NL_PORTS; p++) {
		if (!rdma_is_port_valid(ibdev, p))
			continue;
		port = &d->dev.port[p - 1];
		port->present = true;
		smcr_nl_str(port->pnetid, dev->pnetid[p - 1], SMCR_NL_PNETID_LEN);
		port->pnet_usr = !!port->pnetid[0];
		port->valid = 1;
		port->active = !ib_query_port(ibdev, p, &pattr) &&
			       pattr.state == IB_PORT_ACTIVE;
		port->ifindex = smcr_nl_port_ifindex(ibdev, p);
	}
	d->ibdev = dev;
	smcr_lgr_walk(0, smcr_nl_dev_usage, d);
	return smcr_nl_put_msg(d->skb, d->cb, SMC_NETLINK_GET_DEV_SMCR,
			       SMC_GEN_DEV_SMCR, &smcr_nl_dev_table, &d->dev);
}

/* SMC_NETLINK_GET_DEV_SMCR: a message per RoCE device */
static int smcr_nl_get_dev(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct smcr_nl_dev_dump *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return -ENOMEM;
	d->skb = skb;
	d->cb = cb;
	cb->args[0] = smcr_ib_walk(cb->args[0], smcr_nl_dev_one, d);
	kfree(d);
	return skb->len;
}

/* SMC_NLA_STATS_T_*PLOAD_SIZE, SMC_NLA_STATS_T_*_RMB_SIZE */
#define SMCR_NL_SIZE(t, i) SMCR_NL_VAL(t, U64, struct smcr_stats_sizes, n[i])

static const struct smcr_nl_attr smcr_nl_sizes_attrs[] = {
	SMCR_NL_SIZE(SMC_NLA_STATS_PLOAD_8K, 0),
	SMCR_NL_SIZE(SMC_NLA_STATS_PLOAD_16K, 1),
	SMCR_NL_SIZE(SMC_NLA_STATS_PLOAD_32K, 2),
	SMCR_NL_SIZE(SMC_NLA_STATS_PLOAD_64K, 3),
	SMCR_NL_SIZE(SMC_NLA_STATS_PLOAD_128K, 4),
	SMCR_NL_SIZE(SMC_NLA_STATS_PLOAD_256K, 5),
	SMCR_NL_SIZE(SMC_NLA_STATS_PLOAD_512K, 6),
	SMCR_NL_SIZE(SMC_NLA_STATS_PLOAD_1024K, 7),
	SMCR_NL_SIZE(SMC_NLA_STATS_PLOAD_G_1024K, 8),
	{ }
};

static const struct smcr_nl_table smcr_nl_sizes_table =
	SMCR_NL_TABLE(smcr_nl_sizes_attrs, SMC_NLA_STATS_PLOAD_PAD);

/* SMC_NLA_STATS_T_TX_RMB_STATS, SMC_NLA_STATS_T_RX_RMB_STATS */
#define SMCR_NL_BUFS(t, f) SMCR_NL_VAL(t, U64, struct smcr_stats_bufs, f)

static const struct smcr_nl_attr smcr_nl_bufs_attrs[] = {
	SMCR_NL_BUFS(SMC_NLA_STATS_RMB_REUSE_CNT, reuse),
	SMCR_NL_BUFS(SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT, small_peer),
	SMCR_NL_BUFS(SMC_NLA_STATS_RMB_SIZE_SM_CNT, small),
	SMCR_NL_BUFS(SMC_NLA_STATS_RMB_FULL_PEER_CNT, full_peer),
	SMCR_NL_BUFS(SMC_NLA_STATS_RMB_FULL_CNT, full),
	SMCR_NL_BUFS(SMC_NLA_STATS_RMB_ALLOC_CNT, alloc),
	SMCR_NL_BUFS(SMC_NLA_STATS_RMB_DGRADE_CNT, downgrade),
	{ }
};

static const struct smcr_nl_table smcr_nl_bufs_table =
	SMCR_NL_TABLE(smcr_nl_bufs_attrs, SMC_NLA_STATS_RMB_PAD);

/* SMC_NLA_STATS_SMCD_TECH, SMC_NLA_STATS_SMCR_TECH */
#define SMCR_NL_TECH(t, f) SMCR_NL_VAL(t, U64, struct smcr_stats_tech, f)
#define SMCR_NL_TECH_NEST(t, f, tab) \
	SMCR_NL_NEST(t, struct smcr_stats_tech, f, tab)

static const struct smcr_nl_attr smcr_nl_tech_attrs[] = {
	SMCR_NL_TECH_NEST(SMC_NLA_STATS_T_TX_RMB_STATS, tx.bufs,
			  smcr_nl_bufs_table),
	SMCR_NL_TECH_NEST(SMC_NLA_STATS_T_RX_RMB_STATS, rx.bufs,
			  smcr_nl_bufs_table),
	SMCR_NL_TECH_NEST(SMC_NLA_STATS_T_TXPLOAD_SIZE, tx.payload,
			  smcr_nl_sizes_table),
	SMCR_NL_TECH_NEST(SMC_NLA_STATS_T_RXPLOAD_SIZE, rx.payload,
			  smcr_nl_sizes_table),
	SMCR_NL_TECH_NEST(SMC_NLA_STATS_T_TX_RMB_SIZE, tx.bufs.size,
			  smcr_nl_sizes_table),
	SMCR_NL_TECH_NEST(SMC_NLA_STATS_T_RX_RMB_SIZE, rx.bufs.size,
			  smcr_nl_sizes_table),
	SMCR_NL_TECH(SMC_NLA_STATS_T_CLNT_V1_SUCC, v1_ok[SMCR_STATS_CLNT]),
	SMCR_NL_TECH(SMC_NLA_STATS_T_CLNT_V2_SUCC, v2_ok[SMCR_STATS_CLNT]),
	SMCR_NL_TECH(SMC_NLA_STATS_T_SRV_V1_SUCC, v1_ok[SMCR_STATS_SRV]),
	SMCR_NL_TECH(SMC_NLA_STATS_T_SRV_V2_SUCC, v2_ok[SMCR_STATS_SRV]),
	SMCR_NL_TECH(SMC_NLA_STATS_T_RX_BYTES, rx.bytes),
	SMCR_NL_TECH(SMC_NLA_STATS_T_TX_BYTES, tx.bytes),
#ifdef SMCR_HAVE_SMC_BUF_USAGE
	SMCR_NL_VAL(SMC_NLA_STATS_T_RX_RMB_USAGE, UINT, struct smcr_stats_tech,
		    rx.usage),
	SMCR_NL_VAL(SMC_NLA_STATS_T_TX_RMB_USAGE, UINT, struct smcr_stats_tech,
		    tx.usage),
#endif
	SMCR_NL_TECH(SMC_NLA_STATS_T_RX_CNT, rx.calls),
	SMCR_NL_TECH(SMC_NLA_STATS_T_TX_CNT, tx.calls),
	SMCR_NL_TECH(SMC_NLA_STATS_T_SENDPAGE_CNT, sendpage),
	SMCR_NL_TECH(SMC_NLA_STATS_T_CORK_CNT, cork),
	SMCR_NL_TECH(SMC_NLA_STATS_T_NDLY_CNT, nodelay),
	SMCR_NL_TECH(SMC_NLA_STATS_T_SPLICE_CNT, splice),
	SMCR_NL_TECH(SMC_NLA_STATS_T_URG_DATA_CNT, urgent),
	{ }
};

static const struct smcr_nl_table smcr_nl_tech_table =
	SMCR_NL_TABLE(smcr_nl_tech_attrs, SMC_NLA_STATS_PAD);

/* SMC_GEN_STATS */
static const struct smcr_nl_attr smcr_nl_stats_attrs[] = {
	SMCR_NL_NEST(SMC_NLA_STATS_SMCD_TECH, struct smcr_stats, smcd,
		     smcr_nl_tech_table),
	SMCR_NL_NEST(SMC_NLA_STATS_SMCR_TECH, struct smcr_stats, smcr,
		     smcr_nl_tech_table),
	SMCR_NL_VAL(SMC_NLA_STATS_CLNT_HS_ERR_CNT, U64, struct smcr_stats,
		    hs_err[SMCR_STATS_CLNT]),
	SMCR_NL_VAL(SMC_NLA_STATS_SRV_HS_ERR_CNT, U64, struct smcr_stats,
		    hs_err[SMCR_STATS_SRV]),
	{ }
};

static const struct smcr_nl_table smcr_nl_stats_table =
	SMCR_NL_TABLE(smcr_nl_stats_attrs, SMC_NLA_STATS_PAD);

/* The counters of the namespace of the requester's socket */
static int smcr_nl_fill_stats(struct sk_buff *skb)
{
	struct smcr_stats *st = kmalloc(sizeof(*st), GFP_KERNEL);
	int rc;

	if (!st)
		return -ENOMEM;
	smcr_stats_read(sock_net(skb->sk), st);
	rc = smcr_nl_put_nest(skb, SMC_GEN_STATS, &smcr_nl_stats_table, st);
	kfree(st);
	return rc;
}

/* SMC_NETLINK_GET_STATS: one message */
static int smcr_nl_get_stats(struct sk_buff *skb, struct netlink_callback *cb)
{
	return smcr_nl_dump_one(skb, cb, SMC_NETLINK_GET_STATS,
				smcr_nl_fill_stats);
}

/**
 * struct smcr_nl_fback - what SMC_GEN_FBACK_STATS says of a reason
 * @server: the reason is a server's
 * @totals: the first message of the dump: the totals come with it
 * @total: connections that fell back, by role
 * @code: the reason
 * @count: connections that fell back for it
 */
struct smcr_nl_fback {
	u8	server;
	bool	totals;
	u64	total[SMCR_STATS_ROLES];
	u32	code;
	u16	count;
};

static const struct smcr_nl_attr smcr_nl_fback_attrs[] = {
	SMCR_NL_VAL(SMC_NLA_FBACK_STATS_TYPE, U8, struct smcr_nl_fback, server),
	SMCR_NL_VAL_IF(SMC_NLA_FBACK_STATS_SRV_CNT, U64, struct smcr_nl_fback,
		       total[SMCR_STATS_SRV], totals),
	SMCR_NL_VAL_IF(SMC_NLA_FBACK_STATS_CLNT_CNT, U64, struct smcr_nl_fback,
		       total[SMCR_STATS_CLNT], totals),
	SMCR_NL_VAL(SMC_NLA_FBACK_STATS_RSN_CODE, U32, struct smcr_nl_fback,
		    code),
	SMCR_NL_VAL(SMC_NLA_FBACK_STATS_RSN_CNT, U16, struct smcr_nl_fback,
		    count),
	{ }
};

static const struct smcr_nl_table smcr_nl_fback_table =
	SMCR_NL_TABLE(smcr_nl_fback_attrs, SMC_NLA_FBACK_STATS_PAD);

/* SMC_NETLINK_GET_FBACK_STATS: a message per reason, a server's and a
 * client's in turn, the totals with the first; none without fallbacks.
 * cb->args[0] is the next reason, args[1] set once the totals went.
 */
static int smcr_nl_get_fback(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct smcr_stats_fbacks *fb = kmalloc(sizeof(*fb), GFP_KERNEL);
	const struct smcr_stats_fback *r;
	struct smcr_nl_fback msg;
	int i, role;

	if (!fb)
		return -ENOMEM;
	smcr_stats_read_fbacks(sock_net(skb->sk), fb);
	memcpy(msg.total, fb->total, sizeof(msg.total));
	for (i = cb->args[0]; i < SMCR_STATS_ROLES * SMCR_STATS_FBACK_MAX; i++) {
		role = i % 2 ? SMCR_STATS_CLNT : SMCR_STATS_SRV;
		r = &fb->reason[role][i / 2];
		if (!r->code)
			continue;
		msg.server = role == SMCR_STATS_SRV;
		msg.totals = !cb->args[1];
		msg.code = r->code;
		msg.count = r->count;
		if (smcr_nl_put_msg(skb, cb, SMC_NETLINK_GET_FBACK_STATS,
				    SMC_GEN_FBACK_STATS, &smcr_nl_fback_table,
				    &msg))
			break;
		cb->args[1] = 1;
	}
	cb->args[0] = i;
	kfree(fb);
	return skb->len;
}

/* The handshake limitation flag of the requester's namespace: Linux
 * puts it outside any nest
 */
static int smcr_nl_fill_hs_limitation(struct sk_buff *skb)
{
	return nla_put_u8(skb, SMC_NLA_HS_LIMITATION_ENABLED,
			  smcr_stats_hs_limited(sock_net(skb->sk)));
}

/* SMC_NETLINK_DUMP_HS_LIMITATION: one message */
static int smcr_nl_dump_hs_limitation(struct sk_buff *skb,
				      struct netlink_callback *cb)
{
	return smcr_nl_dump_one(skb, cb, SMC_NETLINK_DUMP_HS_LIMITATION,
				smcr_nl_fill_hs_limitation);
}

/* The flag is the SMC_LIMIT_HS default of sockets created afterwards
 * (smcr_af.c); a listener with the option limits its handshakes
 * (smcr_listen.c)
 */
static int smcr_nl_enable_hs_limitation(struct sk_buff *skb,
					struct genl_info *info)
{
	smcr_stats_set_hs_limited(genl_info_net(info), true);
	return 0;
}

static int smcr_nl_disable_hs_limitation(struct sk_buff *skb,
					 struct genl_info *info)
{
	smcr_stats_set_hs_limited(genl_info_net(info), false);
	return 0;
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
		.cmd	= SMC_NETLINK_GET_LGR_SMCR,
		.dumpit	= smcr_nl_get_lgr,
	},
	{
		.cmd	= SMC_NETLINK_GET_LINK_SMCR,
		.dumpit	= smcr_nl_get_link,
	},
	{
		.cmd	= SMC_NETLINK_GET_LGR_SMCD,
		.dumpit	= smcr_nl_dump_none,
	},
	{
		.cmd	= SMC_NETLINK_GET_DEV_SMCD,
		.dumpit	= smcr_nl_dump_none,
	},
	{
		.cmd	= SMC_NETLINK_GET_DEV_SMCR,
		.dumpit	= smcr_nl_get_dev,
	},
	{
		.cmd	= SMC_NETLINK_GET_STATS,
		.dumpit	= smcr_nl_get_stats,
	},
	{
		.cmd	= SMC_NETLINK_GET_FBACK_STATS,
		.dumpit	= smcr_nl_get_fback,
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
	{
		.cmd	= SMC_NETLINK_DUMP_HS_LIMITATION,
		.dumpit	= smcr_nl_dump_hs_limitation,
	},
	{
		.cmd	= SMC_NETLINK_ENABLE_HS_LIMITATION,
		.flags	= GENL_ADMIN_PERM,
		.doit	= smcr_nl_enable_hs_limitation,
	},
	{
		.cmd	= SMC_NETLINK_DISABLE_HS_LIMITATION,
		.flags	= GENL_ADMIN_PERM,
		.doit	= smcr_nl_disable_hs_limitation,
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
