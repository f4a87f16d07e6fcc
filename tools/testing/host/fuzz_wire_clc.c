// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the smcr CLC wire format, versions 1 and 2.
 *
 * Two properties are checked on every input:
 *  1. Arbitrary bytes go through the header check and every decoder.
 *     Whatever decodes must re-encode, unless it is one of the messages
 *     we take but do not send, to a message that decodes again to the
 *     very same structure (a v2 proposal with the IP area offset the
 *     encoder writes). Proposals, declines and v1 accept / confirm keep
 *     their length; a v2 accept / confirm may have carried more.
 *  2. The input is also read as field values for each message type,
 *     v2 extension, EIDs, first contact extension and GIDs included.
 *     Whatever the encoder accepts must decode back to those values.
 * Every message the encoder writes is canonical: decoding and encoding
 * it again gives the same bytes.
 */
#include "smcr_wire_clc.h"
#include "fuzz_wire.h"

static u8 out[SMCR_CLC_MAX_LEN], out2[SMCR_CLC_MAX_LEN];

/* a decoded message of any type */
union clc_msg {
	struct smcr_clc_proposal p;
	struct smcr_clc_accept_confirm m;
	struct smcr_clc_decline d;
};

static bool is_prop(u8 type)
{
	return type == SMCR_CLC_TYPE_PROPOSAL;
}

static bool is_decl(u8 type)
{
	return type == SMCR_CLC_TYPE_DECLINE;
}

/* encode @v, a message of type @type, into @b */
static int clc_encode(u8 type, const union clc_msg *v, u8 *b, size_t len)
{
	if (is_prop(type))
		return smcr_clc_proposal_encode(&v->p, b, len);
	if (is_decl(type))
		return smcr_clc_decline_encode(&v->d, b, len);
	return smcr_clc_accept_confirm_encode(&v->m, b, len);
}

/* decode @b as a message of type @type into @v, zeroed first */
static int clc_decode(u8 type, const u8 *b, size_t len, union clc_msg *v)
{
	memset(v, 0, sizeof(*v));
	if (is_prop(type))
		return smcr_clc_proposal_decode(b, len, &v->p);
	if (is_decl(type))
		return smcr_clc_decline_decode(b, len, &v->d);
	return smcr_clc_accept_confirm_decode(b, len, &v->m);
}

/* What decodes but the encoder refuses: proposals of SMC-D v2 paths or
 * of no path at all, which we do not send, and a v2 first contact
 * accept / confirm too short for its extension.
 */
static bool not_encodable(u8 type, const union clc_msg *v)
{
	const struct smcr_clc_proposal *p = &v->p;

	if (is_decl(type))
		return false;
	if (!is_prop(type))
		return v->m.version == SMCR_CLC_V2 && v->m.first_contact &&
		       !v->m.has_fce;
	return p->version >= SMCR_CLC_V2 &&
	       (p->path_v2 == SMCR_CLC_PATH_D ||
		p->path_v2 == SMCR_CLC_PATH_BOTH ||
		(p->path_v1 == SMCR_CLC_PATH_NONE &&
		 p->path_v2 == SMCR_CLC_PATH_NONE));
}

/* the @n bytes in out, @v encoded, decode to @v and encode to themselves */
static void check_encoded(u8 type, const union clc_msg *v, int n)
{
	union clc_msg q;

	FUZZ_ASSERT(clc_decode(type, out, n, &q) == 0);
	FUZZ_ASSERT(!memcmp(v, &q, sizeof(q)));
	FUZZ_ASSERT(clc_encode(type, &q, out2, sizeof(out2)) == n);
	FUZZ_ASSERT(!memcmp(out, out2, n));
}

/* Release 1's terms met with whatever decoded: never outside their range */
static void check_terms(u8 type, const union clc_msg *v)
{
	const struct smcr_clc_terms own = { SMCR_CLC_RELEASE_1,
					    SMCR_CLC_CONNS_MAX,
					    SMCR_CLC_LINKS_MAX };
	struct smcr_clc_terms t = own;
	u32 rc;

	if (is_decl(type))
		return;
	if (is_prop(type))
		rc = smcr_clc_terms_server(&t, &v->p);
	else if (v->m.has_fce)
		rc = smcr_clc_terms_client(&t, &v->m.fce);
	else
		return;
	if (rc)
		return;
	FUZZ_ASSERT(t.release <= SMCR_CLC_RELEASE_1);
	FUZZ_ASSERT(t.max_conns >= SMCR_CLC_CONNS_MIN &&
		    t.max_conns <= SMCR_CLC_CONNS_MAX);
	FUZZ_ASSERT(t.max_links >= 1 && t.max_links <= SMCR_CLC_LINKS_MAX);
}

/* property 1 for the decoder of @type */
static void check_decoded(u8 type, const u8 *data, size_t size)
{
	union clc_msg v;
	int n;

	if (clc_decode(type, data, size, &v))
		return;
	check_terms(type, &v);
	n = clc_encode(type, &v, out, sizeof(out));
	if (n < 0) {
		FUZZ_ASSERT(n == -EINVAL && not_encodable(type, &v));
		return;
	}
	/* version 2: the IP area goes right after the SMC-D area */
	if (is_prop(type) && v.p.version >= SMCR_CLC_V2)
		v.p.iparea_offset = v.p.path_v1 == SMCR_CLC_PATH_NONE ? 0 :
				    SMCR_CLC_SMCD_AREA_LEN;
	/* only a v2 accept / confirm may be longer or shorter than ours */
	FUZZ_ASSERT(n == (int)size ||
		    (!is_prop(type) && !is_decl(type) &&
		     v.m.version == SMCR_CLC_V2));
	check_encoded(type, &v, n);
}

/* property 2: @v, zeroed where the encoder ignores it, encodes to what
 * decodes back to it, or is refused as invalid. Return: the length.
 */
static int check_built(u8 type, const union clc_msg *v)
{
	int n;

	n = clc_encode(type, v, out, sizeof(out));
	if (n < 0) {
		FUZZ_ASSERT(n == -EINVAL);
		return n;
	}
	check_encoded(type, v, n);
	return n;
}

static void build_proposal(const u8 *data, size_t size)
{
	struct cursor c = { data, size };
	struct smcr_clc_proposal *p;
	union clc_msg v;
	unsigned int i;
	u8 flags;
	int n;

	memset(&v, 0, sizeof(v));
	p = &v.p;
	p->version = take8(&c) & 0x0f;
	p->path_v1 = take8(&c) & 0x03;
	p->path_v2 = take8(&c) & 0x07;
	take_bytes(&c, p->peer_id, sizeof(p->peer_id));
	take_bytes(&c, p->gid, sizeof(p->gid));
	take_bytes(&c, p->mac, sizeof(p->mac));
	p->iparea_offset = take8(&c) & 0x3f;
	if (p->path_v1 != SMCR_CLC_PATH_NONE) {
		p->ipv4_subnet = take32(&c);
		p->ipv4_prefix_len = take8(&c) & 0x3f;
		p->ipv6_prefix_cnt = take8(&c) & 0x0f;
		for (i = 0; i < SMCR_CLC_MAX_V6_PREFIX; i++) {
			take_bytes(&c, p->ipv6_prefix[i].addr, 16);
			p->ipv6_prefix[i].len = take8(&c);
		}
		/* unused entries are never on the wire */
		for (i = p->ipv6_prefix_cnt; i < SMCR_CLC_MAX_V6_PREFIX; i++)
			memset(&p->ipv6_prefix[i], 0, sizeof(*p->ipv6_prefix));
	}
	flags = take8(&c);
	if (p->version == SMCR_CLC_V1) {
		p->path_v2 = 0;
	} else {
		/* the encoder places the IP area and v2 extension itself */
		p->iparea_offset = p->path_v1 == SMCR_CLC_PATH_NONE ? 0 :
				   SMCR_CLC_SMCD_AREA_LEN;
		p->v2_ext = p->path_v2 != SMCR_CLC_PATH_NONE;
	}
	/* now and then an extension where it does not belong, or none */
	if ((flags & 0x81) == 0x81)
		p->v2_ext = !p->v2_ext;
	if (p->v2_ext) {
		p->seid = flags & 0x02;
		p->v2_release = take8(&c) & 0x1f;
		take_bytes(&c, p->v2_gid, sizeof(p->v2_gid));
		p->v2_max_conns = take8(&c);
		p->v2_max_links = take8(&c);
		p->v2_features = (u16)take32(&c);
		p->eid_cnt = take8(&c) & 0x0f;
		for (i = 0; i < SMCR_CLC_MAX_UEID && i < p->eid_cnt; i++)
			take_bytes(&c, p->eids[i], SMCR_CLC_EID_LEN);
	}

	n = check_built(SMCR_CLC_TYPE_PROPOSAL, &v);
	if (n >= 0)
		FUZZ_ASSERT(n == smcr_clc_proposal_len(p));
}

static void build_accept_confirm(const u8 *data, size_t size)
{
	struct cursor c = { data, size };
	struct smcr_clc_accept_confirm *m;
	union clc_msg v;
	unsigned int i;
	u8 flags;
	int n;

	memset(&v, 0, sizeof(v));
	m = &v.m;
	flags = take8(&c);
	m->type = flags & 1 ? SMCR_CLC_TYPE_ACCEPT : SMCR_CLC_TYPE_CONFIRM;
	/* mostly version 1 or 2, now and then any other */
	m->version = flags & 0x10 ? flags >> 5 : SMCR_CLC_V1 + (flags >> 1 & 1);
	m->first_contact = flags & 0x04;
	take_bytes(&c, m->peer_id, sizeof(m->peer_id));
	take_bytes(&c, m->gid, sizeof(m->gid));
	take_bytes(&c, m->mac, sizeof(m->mac));
	m->qpn = take32(&c) & 0x1ffffff;
	m->rmb_rkey = take32(&c);
	m->rmbe_idx = take8(&c);
	m->rmbe_alert_token = take32(&c);
	m->rmbe_size = take8(&c) & 0x1f;
	m->qp_mtu = take8(&c) & 0x1f;
	m->rmb_dma_addr = take64(&c);
	m->psn = take32(&c) & 0x1ffffff;
	if (m->version != SMCR_CLC_V1)
		take_bytes(&c, m->eid, sizeof(m->eid));

	/* the extension and GIDs where they belong, now and then not */
	flags = take8(&c);
	m->has_fce = m->version == SMCR_CLC_V2 && m->first_contact;
	m->gid_cnt = m->has_fce && m->type == SMCR_CLC_TYPE_CONFIRM ?
		     take8(&c) & 0x03 : 0;
	if ((flags & 0x81) == 0x81)
		m->has_fce = !m->has_fce;
	if ((flags & 0x42) == 0x42)
		m->gid_cnt = take8(&c) & 0x03;
	if (m->has_fce) {
		m->fce.v2_direct = flags & 0x04;
		m->fce.os_type = take8(&c) & 0x1f;
		m->fce.release = take8(&c) & 0x1f;
		take_bytes(&c, m->fce.hostname, sizeof(m->fce.hostname));
		m->fce.max_conns = take8(&c);
		m->fce.max_links = take8(&c);
		m->fce.features = (u16)take32(&c);
		m->fce.vendor_opts = take32(&c);
	}
	for (i = 0; i < SMCR_CLC_MAX_GIDS && i < m->gid_cnt; i++)
		take_bytes(&c, m->gids[i], SMCR_CLC_GID_LEN);

	n = check_built(SMCR_CLC_TYPE_ACCEPT, &v);
	if (n >= 0)
		FUZZ_ASSERT(n == smcr_clc_accept_confirm_len(m));
}

static void build_decline(const u8 *data, size_t size)
{
	struct cursor c = { data, size };
	struct smcr_clc_decline *d;
	union clc_msg v;
	unsigned int i;

	memset(&v, 0, sizeof(v));
	d = &v.d;
	d->version = take8(&c) & 0x1f;
	d->out_of_sync = take8(&c) & 1;
	take_bytes(&c, d->peer_id, sizeof(d->peer_id));
	d->diag = take32(&c);
	d->os_type = take8(&c) & 0x1f;
	if (d->version != SMCR_CLC_V1)
		for (i = 0; i < SMCR_CLC_DECL_DIAG_V2_CNT; i++)
			d->diag_v2[i] = take32(&c);

	check_built(SMCR_CLC_TYPE_DECLINE, &v);
}

static void fuzz_one(const u8 *data, size_t size)
{
	struct smcr_clc_hdr hdr;

	smcr_clc_hdr_decode(data, size, &hdr);
	smcr_clc_check_trailer(data, size);
	check_decoded(SMCR_CLC_TYPE_PROPOSAL, data, size);
	check_decoded(SMCR_CLC_TYPE_ACCEPT, data, size);
	check_decoded(SMCR_CLC_TYPE_DECLINE, data, size);

	build_proposal(data, size);
	build_accept_confirm(data, size);
	build_decline(data, size);
}
