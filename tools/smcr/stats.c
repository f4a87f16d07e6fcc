// SPDX-License-Identifier: GPL-2.0
/*
 * smcr stats: the counters of SMC_NETLINK_GET_STATS, per technology, and
 * the fallback reasons of SMC_NETLINK_GET_FBACK_STATS, as one set of keys
 * (the usage text of smcr.c lists them).
 */
#include <inttypes.h>
#include <stdio.h>

#include <linux/smc.h>

#include "smcr.h"

/* Payload and buffer sizes: how many fell in each power of two from 8 KiB */
static const struct field size_fields[] = {
	FIELD(SMC_NLA_STATS_PLOAD_8K, "8k", FK_U64),
	FIELD(SMC_NLA_STATS_PLOAD_16K, "16k", FK_U64),
	FIELD(SMC_NLA_STATS_PLOAD_32K, "32k", FK_U64),
	FIELD(SMC_NLA_STATS_PLOAD_64K, "64k", FK_U64),
	FIELD(SMC_NLA_STATS_PLOAD_128K, "128k", FK_U64),
	FIELD(SMC_NLA_STATS_PLOAD_256K, "256k", FK_U64),
	FIELD(SMC_NLA_STATS_PLOAD_512K, "512k", FK_U64),
	FIELD(SMC_NLA_STATS_PLOAD_1024K, "1024k", FK_U64),
	FIELD(SMC_NLA_STATS_PLOAD_G_1024K, "gt1024k", FK_U64),
};

static const struct field_table size_table = FIELD_TABLE(size_fields);

/* The send buffers (tx) and RMBs (rx): their allocation and shortage */
static const struct field rmb_fields[] = {
	FIELD(SMC_NLA_STATS_RMB_ALLOC_CNT, "alloc", FK_U64),
	FIELD(SMC_NLA_STATS_RMB_REUSE_CNT, "reuse", FK_U64),
	FIELD(SMC_NLA_STATS_RMB_DGRADE_CNT, "downgrade", FK_U64),
	FIELD(SMC_NLA_STATS_RMB_SIZE_SM_CNT, "small", FK_U64),
	FIELD(SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT, "small_peer", FK_U64),
	FIELD(SMC_NLA_STATS_RMB_FULL_CNT, "full", FK_U64),
	FIELD(SMC_NLA_STATS_RMB_FULL_PEER_CNT, "full_peer", FK_U64),
};

static const struct field_table rmb_table = FIELD_TABLE(rmb_fields);

/* SMC_NLA_STATS_SMCD_TECH and SMC_NLA_STATS_SMCR_TECH */
static const struct field tech_fields[] = {
	FIELD(SMC_NLA_STATS_T_CLNT_V1_SUCC, "clnt.v1_success", FK_U64),
	FIELD(SMC_NLA_STATS_T_CLNT_V2_SUCC, "clnt.v2_success", FK_U64),
	FIELD(SMC_NLA_STATS_T_SRV_V1_SUCC, "srv.v1_success", FK_U64),
	FIELD(SMC_NLA_STATS_T_SRV_V2_SUCC, "srv.v2_success", FK_U64),
	FIELD(SMC_NLA_STATS_T_TX_BYTES, "tx.bytes", FK_U64),
	FIELD(SMC_NLA_STATS_T_TX_CNT, "tx.calls", FK_U64),
	FIELD(SMC_NLA_STATS_T_RX_BYTES, "rx.bytes", FK_U64),
	FIELD(SMC_NLA_STATS_T_RX_CNT, "rx.calls", FK_U64),
	FIELD_NEST(SMC_NLA_STATS_T_TXPLOAD_SIZE, "tx.payload", size_table),
	FIELD_NEST(SMC_NLA_STATS_T_RXPLOAD_SIZE, "rx.payload", size_table),
	FIELD_NEST(SMC_NLA_STATS_T_TX_RMB_STATS, "tx.rmb", rmb_table),
	FIELD_NEST(SMC_NLA_STATS_T_RX_RMB_STATS, "rx.rmb", rmb_table),
	FIELD_NEST(SMC_NLA_STATS_T_TX_RMB_SIZE, "tx.rmb.size", size_table),
	FIELD_NEST(SMC_NLA_STATS_T_RX_RMB_SIZE, "rx.rmb.size", size_table),
	FIELD(SMC_NLA_STATS_T_SENDPAGE_CNT, "sendpage", FK_U64),
	FIELD(SMC_NLA_STATS_T_SPLICE_CNT, "splice", FK_U64),
	FIELD(SMC_NLA_STATS_T_CORK_CNT, "cork", FK_U64),
	FIELD(SMC_NLA_STATS_T_NDLY_CNT, "nodelay", FK_U64),
	FIELD(SMC_NLA_STATS_T_URG_DATA_CNT, "urgent", FK_U64),
};

static const struct field_table tech_table = FIELD_TABLE(tech_fields);

/* SMC_GEN_STATS */
static const struct field stats_fields[] = {
	FIELD_NEST(SMC_NLA_STATS_SMCD_TECH, "smcd", tech_table),
	FIELD_NEST(SMC_NLA_STATS_SMCR_TECH, "smcr", tech_table),
	FIELD(SMC_NLA_STATS_CLNT_HS_ERR_CNT, "handshake.clnt.errors", FK_U64),
	FIELD(SMC_NLA_STATS_SRV_HS_ERR_CNT, "handshake.srv.errors", FK_U64),
};

static const struct field_table stats_table = FIELD_TABLE(stats_fields);

/* The fallback reasons come a reply each, servers' and clients' in turn,
 * the totals with the first; they are printed by role. Linux keeps 30
 * reasons a role.
 */
#define FBACK_REASONS_MAX 64

struct fback_role {
	const char *name;
	uint64_t total;
	unsigned int n;
	struct {
		uint64_t code;
		uint64_t count;
	} reason[FBACK_REASONS_MAX];
};

struct fback {
	struct fback_role srv;
	struct fback_role clnt;
};

static void fback_total(struct fback_role *role, const struct nlattr *nla)
{
	if (nla)
		nla_uint(nla, FK_U64, &role->total);
}

static int show_fback(const struct request *req, struct nlattr **attrs)
{
	struct nlattr *tb[SMC_NLA_FBACK_STATS_MAX + 1];
	struct fback *fb = req->priv;
	struct fback_role *role;
	uint64_t is_srv, code, count;

	if (!attrs[SMC_GEN_FBACK_STATS] ||
	    nla_parse_nested(tb, SMC_NLA_FBACK_STATS_MAX,
			     attrs[SMC_GEN_FBACK_STATS], NULL) < 0)
		return 0;
	fback_total(&fb->srv, tb[SMC_NLA_FBACK_STATS_SRV_CNT]);
	fback_total(&fb->clnt, tb[SMC_NLA_FBACK_STATS_CLNT_CNT]);
	if (!tb[SMC_NLA_FBACK_STATS_TYPE] || !tb[SMC_NLA_FBACK_STATS_RSN_CODE] ||
	    !tb[SMC_NLA_FBACK_STATS_RSN_CNT] ||
	    !nla_uint(tb[SMC_NLA_FBACK_STATS_TYPE], FK_U8, &is_srv) ||
	    !nla_uint(tb[SMC_NLA_FBACK_STATS_RSN_CODE], FK_U32, &code) ||
	    !nla_uint(tb[SMC_NLA_FBACK_STATS_RSN_CNT], FK_U16, &count))
		return 0;
	role = is_srv ? &fb->srv : &fb->clnt;
	if (role->n < FBACK_REASONS_MAX) {
		role->reason[role->n].code = code;
		role->reason[role->n].count = count;
		role->n++;
	}
	return 0;
}

/* The totals always: a dump without replies means no fallback so far */
static void print_fback(struct out *o, const struct fback_role *role)
{
	char key[48];
	unsigned int i;

	snprintf(key, sizeof(key), "fallback.%s.total", role->name);
	out_u64(o, key, role->total);
	for (i = 0; i < role->n; i++) {
		snprintf(key, sizeof(key), "fallback.%s.0x%08" PRIx64,
			 role->name, role->reason[i].code);
		out_u64(o, key, role->reason[i].count);
	}
}

int stats_main(bool json)
{
	struct out o = { .json = json };
	struct table_dump counters = {
		.out = &o,
		.attr = SMC_GEN_STATS,
		.table = &stats_table,
	};
	struct fback fb = { .srv.name = "srv", .clnt.name = "clnt" };
	int rc;

	rc = dump_gen("stats", SMC_NETLINK_GET_STATS, show_table_dump,
		      &counters);
	if (!rc)
		rc = dump_gen("stats (fallback reasons)",
			      SMC_NETLINK_GET_FBACK_STATS, show_fback, &fb);
	if (!rc) {
		print_fback(&o, &fb.srv);
		print_fback(&o, &fb.clnt);
	}
	out_end(&o, rc);
	return !!rc;
}
