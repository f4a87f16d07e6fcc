// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the smcr LLC wire format.
 *
 * Two properties are checked on every input, in both LLC versions:
 *  1. Arbitrary bytes go through the header check, every typed decoder
 *     and the dispatcher.  Whatever decodes must re-encode to 44 bytes
 *     that decode again to the very same structure, and must decode the
 *     same from its first 44 bytes alone.
 *  2. The input is also read as field values for each message type.
 *     Whatever the encoder accepts must decode back to those values
 *     (version 2 leaves out an ADD LINK reason); version 2 refuses only
 *     what it has no form for.
 *  3. The input is read as the extension of a version 2 ADD LINK: what
 *     decodes, pairs within the input only, builds again to the same
 *     bytes apart from the reserved ones and the count.
 */
#include "smcr_wire_llc.h"
#include "fuzz_wire.h"

static u8 out[SMCR_LLC_MSG_LEN];

/* typed decoders must agree with the dispatcher */
static void check_typed(const u8 *data, size_t size,
			const struct smcr_llc_msg *m, int rc)
{
	struct smcr_llc_msg t;
	int trc;

	memset(&t, 0, sizeof(t));
	if (size) {
		t.version = data[0] >> SMCR_LLC_VERSION_SHIFT;
		t.type = data[0] & SMCR_LLC_TYPE_MASK;
	}
	/* the typed decoders take either version: pick by base type */
	switch (t.type) {
	case SMCR_LLC_TYPE_CONFIRM_LINK:
		trc = smcr_llc_confirm_link_decode(data, size,
						   &t.u.confirm_link);
		break;
	case SMCR_LLC_TYPE_ADD_LINK:
		trc = smcr_llc_add_link_decode(data, size, &t.u.add_link);
		break;
	case SMCR_LLC_TYPE_ADD_LINK_CONT:
		trc = smcr_llc_add_link_cont_decode(data, size,
						    &t.u.add_link_cont);
		break;
	case SMCR_LLC_TYPE_DELETE_LINK:
		trc = smcr_llc_delete_link_decode(data, size,
						  &t.u.delete_link);
		break;
	case SMCR_LLC_TYPE_CONFIRM_RKEY:
		trc = smcr_llc_confirm_rkey_decode(data, size,
						   &t.u.confirm_rkey);
		break;
	case SMCR_LLC_TYPE_CONFIRM_RKEY_CONT:
		trc = smcr_llc_confirm_rkey_cont_decode(data, size,
							&t.u.confirm_rkey_cont);
		break;
	case SMCR_LLC_TYPE_DELETE_RKEY:
		trc = smcr_llc_delete_rkey_decode(data, size,
						  &t.u.delete_rkey);
		break;
	case SMCR_LLC_TYPE_TEST_LINK:
		trc = smcr_llc_test_link_decode(data, size, &t.u.test_link);
		break;
	case SMCR_LLC_TYPE_REQ_ADD_LINK:
		trc = smcr_llc_req_add_link_decode(data, size,
						   &t.u.req_add_link);
		break;
	default:
		FUZZ_ASSERT(rc < 0);
		return;
	}
	if (size < SMCR_LLC_MSG_LEN) {
		FUZZ_ASSERT(rc == -EMSGSIZE && trc == -EMSGSIZE);
		return;
	}
	FUZZ_ASSERT(trc == rc);
	if (!rc)
		FUZZ_ASSERT(!memcmp(&t, m, sizeof(t)));
}

/* every GID a REQUEST ADD LINK offers lies within the message's bytes */
static void check_req_gids(const struct smcr_llc_req_add_link *r,
			   const u8 *data, size_t size)
{
	size_t ext_len = size - SMCR_LLC_MSG_LEN;
	const u8 *ext = data + SMCR_LLC_MSG_LEN, *gid;
	unsigned int i;

	for (i = 0; i <= r->gid_cnt; i++) {
		gid = smcr_llc_req_add_link_gid(r, ext, ext_len, i);
		if (!gid)
			continue;
		FUZZ_ASSERT(i < r->gid_cnt);
		if (i)
			FUZZ_ASSERT(gid >= ext &&
				    gid + SMCR_LLC_GID_LEN <= ext + ext_len);
	}
}

static void check_decode(const u8 *data, size_t size)
{
	struct smcr_llc_msg m, q;
	struct smcr_llc_hdr h;
	int rc, hrc, n;

	hrc = smcr_llc_hdr_decode(data, size, &h);
	rc = smcr_llc_decode(data, size, &m);
	if (hrc)
		FUZZ_ASSERT(rc == hrc);
	check_typed(data, size, &m, rc);
	/* nothing after the first 44 bytes counts */
	if (size > SMCR_LLC_MSG_LEN) {
		FUZZ_ASSERT(smcr_llc_decode(data, SMCR_LLC_MSG_LEN, &q) == rc);
		FUZZ_ASSERT(!memcmp(&m, &q, sizeof(m)));
	}
	if (rc)
		return;
	FUZZ_ASSERT(size >= SMCR_LLC_MSG_LEN && m.type == h.type &&
		    m.version == h.version);
	if (h.version == SMCR_LLC_VERSION_2)
		FUZZ_ASSERT(h.length >= SMCR_LLC_MSG_LEN &&
			    h.length <= SMCR_LLC_V2_MAX_LEN && !h.rej_rsn);
	else
		FUZZ_ASSERT(h.version == SMCR_LLC_VERSION_1 &&
			    h.length == SMCR_LLC_MSG_LEN);
	if (m.type == SMCR_LLC_TYPE_REQ_ADD_LINK)
		check_req_gids(&m.u.req_add_link, data, size);
	n = smcr_llc_encode(&m, out, sizeof(out));
	FUZZ_ASSERT(n == SMCR_LLC_MSG_LEN);
	FUZZ_ASSERT(out[0] == data[0]);
	FUZZ_ASSERT(smcr_llc_hdr_decode(out, n, &h) == 0 &&
		    h.length == SMCR_LLC_MSG_LEN);
	FUZZ_ASSERT(smcr_llc_decode(out, n, &q) == 0);
	FUZZ_ASSERT(!memcmp(&m, &q, sizeof(m)));
}

/* Linux has no version 2 form of the continuations */
static bool v1_only(const struct smcr_llc_msg *m)
{
	return m->type == SMCR_LLC_TYPE_ADD_LINK_CONT ||
	       m->type == SMCR_LLC_TYPE_CONFIRM_RKEY_CONT;
}

static void take_rtoken(struct cursor *c, struct smcr_llc_rtoken *t)
{
	t->link_num = take8(c);
	t->rkey = take32(c);
	t->vaddr = take64(c);
}

static void build(const u8 *data, size_t size)
{
	struct cursor c = { data, size };
	struct smcr_llc_msg m, q;
	unsigned int i, n;
	int rc;
	u8 t;

	memset(&m, 0, sizeof(m));
	/* read like a type byte: 0x2_ is version 2 */
	t = take8(&c);
	m.version = t & 0x20 ? SMCR_LLC_VERSION_2 : SMCR_LLC_VERSION_1;
	m.type = (t & SMCR_LLC_TYPE_MASK) % 10;
	switch (m.type) {
	case SMCR_LLC_TYPE_CONFIRM_LINK:
		m.u.confirm_link.resp = take8(&c) & 1;
		m.u.confirm_link.no_rmbe_eyec = take8(&c) & 1;
		take_bytes(&c, m.u.confirm_link.mac, SMCR_LLC_MAC_LEN);
		take_bytes(&c, m.u.confirm_link.gid, SMCR_LLC_GID_LEN);
		m.u.confirm_link.qpn = take32(&c) & 0x1ffffff;
		m.u.confirm_link.link_num = take8(&c);
		take_bytes(&c, m.u.confirm_link.link_uid,
			   SMCR_LLC_LINK_UID_LEN);
		m.u.confirm_link.max_links = take8(&c);
		m.u.confirm_link.max_conns = take8(&c);
		break;
	case SMCR_LLC_TYPE_ADD_LINK:
		m.u.add_link.resp = take8(&c) & 1;
		m.u.add_link.reject = take8(&c) & 1;
		m.u.add_link.rej_rsn = take8(&c) & 0x1f;
		take_bytes(&c, m.u.add_link.mac, SMCR_LLC_MAC_LEN);
		take_bytes(&c, m.u.add_link.gid, SMCR_LLC_GID_LEN);
		m.u.add_link.qpn = take32(&c) & 0x1ffffff;
		m.u.add_link.link_num = take8(&c);
		m.u.add_link.qp_mtu = take8(&c) & 0x1f;
		m.u.add_link.psn = take32(&c) & 0x1ffffff;
		break;
	case SMCR_LLC_TYPE_ADD_LINK_CONT:
		m.u.add_link_cont.resp = take8(&c) & 1;
		m.u.add_link_cont.link_num = take8(&c);
		m.u.add_link_cont.num_rkeys = take8(&c);
		n = m.u.add_link_cont.num_rkeys;
		for (i = 0; i < SMCR_LLC_ADD_CONT_PAIRS && i < n; i++) {
			m.u.add_link_cont.pairs[i].ref_rkey = take32(&c);
			m.u.add_link_cont.pairs[i].new_rkey = take32(&c);
			m.u.add_link_cont.pairs[i].new_vaddr = take64(&c);
		}
		break;
	case SMCR_LLC_TYPE_DELETE_LINK:
		m.u.delete_link.resp = take8(&c) & 1;
		m.u.delete_link.all = take8(&c) & 1;
		m.u.delete_link.orderly = take8(&c) & 1;
		m.u.delete_link.link_num = take8(&c);
		m.u.delete_link.reason = take32(&c);
		break;
	case SMCR_LLC_TYPE_CONFIRM_RKEY:
		m.u.confirm_rkey.resp = take8(&c) & 1;
		m.u.confirm_rkey.negative = take8(&c) & 1;
		m.u.confirm_rkey.retry = take8(&c) & 1;
		m.u.confirm_rkey.num_tkns = take8(&c) & 0x0f;
		m.u.confirm_rkey.rkey = take32(&c);
		m.u.confirm_rkey.vaddr = take64(&c);
		n = m.u.confirm_rkey.num_tkns;
		for (i = 0; i < SMCR_LLC_RKEY_OTHERS && i < n; i++)
			take_rtoken(&c, &m.u.confirm_rkey.others[i]);
		break;
	case SMCR_LLC_TYPE_CONFIRM_RKEY_CONT:
		m.u.confirm_rkey_cont.resp = take8(&c) & 1;
		m.u.confirm_rkey_cont.negative = take8(&c) & 1;
		m.u.confirm_rkey_cont.num_tkns_left = take8(&c) & 0x0f;
		n = m.u.confirm_rkey_cont.num_tkns_left;
		for (i = 0; i < SMCR_LLC_RKEY_CONT_ENTRIES && i < n; i++)
			take_rtoken(&c, &m.u.confirm_rkey_cont.others[i]);
		break;
	case SMCR_LLC_TYPE_DELETE_RKEY:
		m.u.delete_rkey.resp = take8(&c) & 1;
		m.u.delete_rkey.negative = take8(&c) & 1;
		m.u.delete_rkey.count = take8(&c) & 0x0f;
		m.u.delete_rkey.err_mask = take8(&c);
		n = m.u.delete_rkey.count;
		for (i = 0; i < SMCR_LLC_DEL_RKEY_MAX && i < n; i++)
			m.u.delete_rkey.rkeys[i] = take32(&c);
		break;
	case SMCR_LLC_TYPE_TEST_LINK:
		m.u.test_link.resp = take8(&c) & 1;
		take_bytes(&c, m.u.test_link.user_data,
			   SMCR_LLC_TEST_DATA_LEN);
		break;
	}

	rc = smcr_llc_encode(&m, out, sizeof(out));
	if (rc < 0) {
		FUZZ_ASSERT(rc == -EINVAL);
		/* version 2 refuses only what has no version 2 form */
		if (m.version == SMCR_LLC_VERSION_2) {
			m.version = SMCR_LLC_VERSION_1;
			if (smcr_llc_encode(&m, out, sizeof(out)) > 0)
				FUZZ_ASSERT(v1_only(&m));
		}
		return;
	}
	FUZZ_ASSERT(rc == SMCR_LLC_MSG_LEN);
	FUZZ_ASSERT(m.version != SMCR_LLC_VERSION_2 || !v1_only(&m));
	/* version 2 has no room for an ADD LINK reason: it is left out */
	if (m.version == SMCR_LLC_VERSION_2 &&
	    m.type == SMCR_LLC_TYPE_ADD_LINK)
		m.u.add_link.rej_rsn = 0;
	FUZZ_ASSERT(smcr_llc_decode(out, rc, &q) == 0);
	FUZZ_ASSERT(!memcmp(&m, &q, sizeof(m)));

	/* no other version goes out: 1, 3, 5 ... 15 */
	m.version = t >> SMCR_LLC_VERSION_SHIFT | 1;
	FUZZ_ASSERT(smcr_llc_encode(&m, out, sizeof(out)) == -EINVAL);
}

static u8 ext_out[SMCR_LLC_ADD_EXT_MAX_LEN];
static struct smcr_llc_rkey_pair ext_pairs[SMCR_LLC_ADD_EXT_PAIRS_MAX];

static void check_ext(const u8 *data, size_t size)
{
	struct smcr_llc_add_link_ext e, f;
	size_t len;
	unsigned int i;
	int rc;

	rc = smcr_llc_add_link_ext_decode(data, size, &e);
	if (size < SMCR_LLC_ADD_EXT_LEN) {
		FUZZ_ASSERT(rc == -EMSGSIZE);
		return;
	}
	FUZZ_ASSERT(rc == 0);
	len = SMCR_LLC_ADD_EXT_LEN + e.num_rkeys * SMCR_LLC_ADD_EXT_PAIR_LEN;
	FUZZ_ASSERT(e.num_rkeys <= SMCR_LLC_ADD_EXT_PAIRS_MAX && len <= size);
	for (i = 0; i < e.num_rkeys; i++)
		smcr_llc_add_link_ext_pair(data, i, &ext_pairs[i]);
	rc = smcr_llc_add_link_ext_encode(&e, ext_pairs, ext_out,
					  sizeof(ext_out));
	FUZZ_ASSERT(rc == (int)len);
	FUZZ_ASSERT(smcr_llc_add_link_ext_decode(ext_out, len, &f) == 0);
	FUZZ_ASSERT(!memcmp(&e, &f, sizeof(e)));
	FUZZ_ASSERT(!memcmp(ext_out + 2, data + 2, SMCR_LLC_GID_LEN));
	FUZZ_ASSERT(!memcmp(ext_out + SMCR_LLC_ADD_EXT_LEN,
			    data + SMCR_LLC_ADD_EXT_LEN,
			    len - SMCR_LLC_ADD_EXT_LEN));
}

static void fuzz_one(const u8 *data, size_t size)
{
	check_decode(data, size);
	build(data, size);
	check_ext(data, size);
}
