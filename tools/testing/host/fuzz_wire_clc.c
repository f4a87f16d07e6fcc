// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the smcr CLC wire format.
 *
 * Two properties are checked on every input:
 *  1. Arbitrary bytes go through the header check and every decoder.
 *     Whatever decodes must re-encode to a message of the same length
 *     that decodes again to the very same structure.
 *  2. The input is also read as field values for each message type.
 *     Whatever the encoder accepts must decode back to those values.
 */
#include "smcr_wire_clc.h"
#include "fuzz_wire.h"

static u8 out[SMCR_CLC_MAX_LEN];

/* The encoder writes SMC-R offers only, and only those offering a path:
 * these proposals decode but cannot be encoded again.
 */
static bool prop_not_encodable(const struct smcr_clc_proposal *p)
{
	return p->version >= SMCR_CLC_V2 &&
	       (p->path_v2 == SMCR_CLC_PATH_D ||
		p->path_v2 == SMCR_CLC_PATH_BOTH ||
		(p->path_v1 == SMCR_CLC_PATH_NONE &&
		 p->path_v2 == SMCR_CLC_PATH_NONE));
}

static void check_proposal(const u8 *data, size_t size)
{
	struct smcr_clc_proposal p, q;
	int n;

	if (smcr_clc_proposal_decode(data, size, &p))
		return;
	n = smcr_clc_proposal_encode(&p, out, sizeof(out));
	if (n < 0) {
		FUZZ_ASSERT(n == -EINVAL && prop_not_encodable(&p));
		return;
	}
	FUZZ_ASSERT(n == (int)size);
	FUZZ_ASSERT(smcr_clc_proposal_decode(out, n, &q) == 0);
	/* version 2: the IP area goes right after the SMC-D area */
	if (p.version >= SMCR_CLC_V2)
		p.iparea_offset = p.path_v1 == SMCR_CLC_PATH_NONE ? 0 :
				  SMCR_CLC_SMCD_AREA_LEN;
	FUZZ_ASSERT(!memcmp(&p, &q, sizeof(p)));
}

static void check_accept_confirm(const u8 *data, size_t size)
{
	struct smcr_clc_accept_confirm m, q;
	int n;

	if (smcr_clc_accept_confirm_decode(data, size, &m))
		return;
	n = smcr_clc_accept_confirm_encode(&m, out, sizeof(out));
	if (n < 0) {
		/* a v2 first contact too short for its extension */
		FUZZ_ASSERT(n == -EINVAL && m.version == SMCR_CLC_V2 &&
			    m.first_contact && !m.has_fce);
		return;
	}
	/* version 2 may carry more than we write; version 1 may not */
	FUZZ_ASSERT(n == (int)size || m.version == SMCR_CLC_V2);
	FUZZ_ASSERT(smcr_clc_accept_confirm_decode(out, n, &q) == 0);
	FUZZ_ASSERT(!memcmp(&m, &q, sizeof(m)));
}

static void check_decline(const u8 *data, size_t size)
{
	struct smcr_clc_decline d, q;
	int n;

	if (smcr_clc_decline_decode(data, size, &d))
		return;
	n = smcr_clc_decline_encode(&d, out, sizeof(out));
	FUZZ_ASSERT(n == (int)size);
	FUZZ_ASSERT(smcr_clc_decline_decode(out, n, &q) == 0);
	FUZZ_ASSERT(!memcmp(&d, &q, sizeof(d)));
}

static void build_proposal(const u8 *data, size_t size)
{
	struct cursor c = { data, size };
	struct smcr_clc_proposal p, q;
	unsigned int i;
	int n;

	memset(&p, 0, sizeof(p));
	p.version = take8(&c) & 0x0f;
	p.path_v1 = take8(&c) & 0x03;
	p.path_v2 = take8(&c) & 0x03;
	take_bytes(&c, p.peer_id, sizeof(p.peer_id));
	take_bytes(&c, p.gid, sizeof(p.gid));
	take_bytes(&c, p.mac, sizeof(p.mac));
	p.iparea_offset = take8(&c) & 0x3f;
	if (p.path_v1 != SMCR_CLC_PATH_NONE) {
		p.ipv4_subnet = take32(&c);
		p.ipv4_prefix_len = take8(&c) & 0x3f;
		p.ipv6_prefix_cnt = take8(&c) & 0x0f;
		for (i = 0; i < SMCR_CLC_MAX_V6_PREFIX; i++) {
			take_bytes(&c, p.ipv6_prefix[i].addr, 16);
			p.ipv6_prefix[i].len = take8(&c);
		}
		/* unused entries are never on the wire */
		for (i = p.ipv6_prefix_cnt; i < SMCR_CLC_MAX_V6_PREFIX; i++)
			memset(&p.ipv6_prefix[i], 0, sizeof(p.ipv6_prefix[i]));
	}
	if (p.version == SMCR_CLC_V1) {
		p.path_v2 = 0;
	} else {
		/* the encoder places the IP area and v2 extension itself */
		p.iparea_offset = p.path_v1 == SMCR_CLC_PATH_NONE ? 0 :
				  SMCR_CLC_SMCD_AREA_LEN;
		p.v2_ext = p.path_v2 != SMCR_CLC_PATH_NONE;
	}

	n = smcr_clc_proposal_encode(&p, out, sizeof(out));
	if (n < 0)
		return;
	FUZZ_ASSERT(n == smcr_clc_proposal_len(&p));
	FUZZ_ASSERT(smcr_clc_proposal_decode(out, n, &q) == 0);
	FUZZ_ASSERT(!memcmp(&p, &q, sizeof(p)));
}

static void build_accept_confirm(const u8 *data, size_t size)
{
	struct cursor c = { data, size };
	struct smcr_clc_accept_confirm m, q;
	int n;

	memset(&m, 0, sizeof(m));
	m.type = take8(&c) & 1 ? SMCR_CLC_TYPE_ACCEPT : SMCR_CLC_TYPE_CONFIRM;
	m.version = SMCR_CLC_V1;
	m.first_contact = take8(&c) & 1;
	take_bytes(&c, m.peer_id, sizeof(m.peer_id));
	take_bytes(&c, m.gid, sizeof(m.gid));
	take_bytes(&c, m.mac, sizeof(m.mac));
	m.qpn = take32(&c) & 0x1ffffff;
	m.rmb_rkey = take32(&c);
	m.rmbe_idx = take8(&c);
	m.rmbe_alert_token = take32(&c);
	m.rmbe_size = take8(&c) & 0x1f;
	m.qp_mtu = take8(&c) & 0x1f;
	m.rmb_dma_addr = take64(&c);
	m.psn = take32(&c) & 0x1ffffff;

	n = smcr_clc_accept_confirm_encode(&m, out, sizeof(out));
	if (n < 0)
		return;
	FUZZ_ASSERT(n == SMCR_CLC_ACC_CONF_LEN);
	FUZZ_ASSERT(smcr_clc_accept_confirm_decode(out, n, &q) == 0);
	FUZZ_ASSERT(!memcmp(&m, &q, sizeof(m)));
}

static void build_decline(const u8 *data, size_t size)
{
	struct cursor c = { data, size };
	struct smcr_clc_decline d, q;
	unsigned int i;
	int n;

	memset(&d, 0, sizeof(d));
	d.version = take8(&c) & 0x1f;
	d.out_of_sync = take8(&c) & 1;
	take_bytes(&c, d.peer_id, sizeof(d.peer_id));
	d.diag = take32(&c);
	d.os_type = take8(&c) & 0x1f;
	if (d.version != SMCR_CLC_V1)
		for (i = 0; i < SMCR_CLC_DECL_DIAG_V2_CNT; i++)
			d.diag_v2[i] = take32(&c);

	n = smcr_clc_decline_encode(&d, out, sizeof(out));
	if (n < 0)
		return;
	FUZZ_ASSERT(smcr_clc_decline_decode(out, n, &q) == 0);
	FUZZ_ASSERT(!memcmp(&d, &q, sizeof(d)));
}

static void fuzz_one(const u8 *data, size_t size)
{
	struct smcr_clc_hdr hdr;

	smcr_clc_hdr_decode(data, size, &hdr);
	smcr_clc_check_trailer(data, size);
	check_proposal(data, size);
	check_accept_confirm(data, size);
	check_decline(data, size);

	build_proposal(data, size);
	build_accept_confirm(data, size);
	build_decline(data, size);
}
