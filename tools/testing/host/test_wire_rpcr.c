// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the RPC-over-RDMA version 1 header and the RFC 8797
 * private data (net/rpcrdma/rpcr_wire.c).
 *
 * The goldens are written word by word from the XDR of RFC 8166 §4.1:
 * xid, vers, credit, proc, then the Read list, the Write list and the
 * Reply chunk as XDR optional data. The 28-byte ERR_VERS is the one
 * Linux's server sends.
 */
#include "rpcr_wire.h"
#include "wire_test.h"

/* RDMA_MSG Call, no chunks: the smallest header (a short Call, §3.5.1) */
static const u32 g_msg_plain_w[] = {
	0x11223344, 1, 128, 0,
	0, 0, 0,
};

/* RDMA_MSG Call of a WRITE: a Read chunk at position 140 in two
 * segments, no Write chunk, no Reply chunk
 */
static const u32 g_msg_read_w[] = {
	0x0badcafe, 1, 32, 0,
	1, 140, 0x1001, 4096, 0x00000001, 0x20000000,
	1, 140, 0x1002, 1000, 0x00000001, 0x20001000,
	0,
	0,
	0,
};

/* RDMA_MSG Call of a READ: a Write chunk with the payload's segment and
 * Linux's pad segment of 4 bytes, and a Reply chunk
 */
static const u32 g_msg_write_w[] = {
	0x01020304, 1, 128, 0,
	0,
	1, 2, 0x2001, 8190, 0xffff8880, 0x01000000,
		    0x2002, 4, 0xffff8880, 0x02000000,
	0,
	1, 1, 0x2003, 4096, 0xffff8880, 0x03000000,
};

/* RDMA_NOMSG Call, a Long Call: position-zero Read chunk of two
 * segments and a Reply chunk (§3.5.3)
 */
static const u32 g_nomsg_call_w[] = {
	0xdeadbeef, 1, 64, 1,
	1, 0, 0x3001, 1024, 0, 0x4000,
	1, 0, 0x3002, 700, 0, 0x8000,
	0,
	0,
	1, 1, 0x3003, 65536, 0, 0x10000,
};

/* RDMA_NOMSG Reply, a Long Reply: the Reply chunk with what was written */
static const u32 g_nomsg_reply_w[] = {
	0xdeadbeef, 1, 64, 1,
	0,
	0,
	1, 1, 0x3003, 1800, 0, 0x10000,
};

/* RDMA_ERROR ERR_VERS, versions 1 to 1: Linux's answer to version 2 */
static const u32 g_err_vers_w[] = {
	0x55aa55aa, 1, 64, 4, 1, 1, 1,
};

/* RDMA_ERROR ERR_CHUNK */
static const u32 g_err_chunk_w[] = {
	0x55aa55ab, 1, 64, 4, 2,
};

/* RDMA_MSGP and RDMA_DONE, as RFC 5666 had them: decoded, never valid */
static const u32 g_msgp_w[] = {
	7, 1, 1, 2, 8, 1024, 0, 0, 0,
};

static const u32 g_done_w[] = { 7, 1, 1, 3 };

/* the goldens in network byte order, made from the words by main() */
static u8 g_msg_plain[sizeof(g_msg_plain_w)];
static u8 g_msg_read[sizeof(g_msg_read_w)];
static u8 g_msg_write[sizeof(g_msg_write_w)];
static u8 g_nomsg_call[sizeof(g_nomsg_call_w)];
static u8 g_nomsg_reply[sizeof(g_nomsg_reply_w)];
static u8 g_err_vers[sizeof(g_err_vers_w)];
static u8 g_err_chunk[sizeof(g_err_chunk_w)];
static u8 g_msgp[sizeof(g_msgp_w)];
static u8 g_done[sizeof(g_done_w)];

static const struct {
	const u32 *w;
	size_t nw;
	u8 *b;
} goldens[] = {
	{ g_msg_plain_w, ARRAY_LEN(g_msg_plain_w), g_msg_plain },
	{ g_msg_read_w, ARRAY_LEN(g_msg_read_w), g_msg_read },
	{ g_msg_write_w, ARRAY_LEN(g_msg_write_w), g_msg_write },
	{ g_nomsg_call_w, ARRAY_LEN(g_nomsg_call_w), g_nomsg_call },
	{ g_nomsg_reply_w, ARRAY_LEN(g_nomsg_reply_w), g_nomsg_reply },
	{ g_err_vers_w, ARRAY_LEN(g_err_vers_w), g_err_vers },
	{ g_err_chunk_w, ARRAY_LEN(g_err_chunk_w), g_err_chunk },
	{ g_msgp_w, ARRAY_LEN(g_msgp_w), g_msgp },
	{ g_done_w, ARRAY_LEN(g_done_w), g_done },
};

static void goldens_to_wire(void)
{
	unsigned int i, j;
	u8 *b;

	for (i = 0; i < ARRAY_LEN(goldens); i++) {
		b = goldens[i].b;
		for (j = 0; j < goldens[i].nw; j++, b += 4) {
			b[0] = (u8)(goldens[i].w[j] >> 24);
			b[1] = (u8)(goldens[i].w[j] >> 16);
			b[2] = (u8)(goldens[i].w[j] >> 8);
			b[3] = (u8)goldens[i].w[j];
		}
	}
}

/* RFC 8797 private data: version 1, remote invalidation, 4 KiB, 4 KiB */
static const u8 g_cm_priv[] = { 0xf6, 0xab, 0x0e, 0x18, 1, 1, 3, 3 };

static struct rpcr_hdr h, q;
static u8 out[4096];

/* decode, then encode again: the same bytes */
static void roundtrip(const u8 *g, size_t n)
{
	int len;

	CHECK_EQ(rpcr_hdr_decode(g, n, &h), n);
	CHECK_EQ(rpcr_hdr_len(&h), n);
	len = rpcr_hdr_encode(&h, out, sizeof(out));
	CHECK_EQ(len, n);
	CHECK(len == (int)n && !memcmp(out, g, n));
}

static void test_msg_plain(void)
{
	roundtrip(g_msg_plain, sizeof(g_msg_plain));
	CHECK_EQ(h.xid, 0x11223344);
	CHECK_EQ(h.vers, RPCR_VERSION_1);
	CHECK_EQ(h.credit, 128);
	CHECK_EQ(h.proc, RPCR_MSG);
	CHECK_EQ(h.nreads, 0);
	CHECK_EQ(h.nwrites, 0);
	CHECK(!h.has_reply);
	CHECK_EQ(rpcr_hdr_check(&h, true), 0);
	CHECK_EQ(rpcr_hdr_check(&h, false), 0);
	CHECK_EQ(sizeof(g_msg_plain), RPCR_HDR_MIN_LEN);
}

static void test_msg_read(void)
{
	roundtrip(g_msg_read, sizeof(g_msg_read));
	CHECK_EQ(h.nreads, 2);
	CHECK_EQ(h.reads[0].position, 140);
	CHECK_EQ(h.reads[0].seg.handle, 0x1001);
	CHECK_EQ(h.reads[0].seg.length, 4096);
	CHECK(h.reads[0].seg.offset == 0x120000000ull);
	CHECK_EQ(h.reads[1].seg.length, 1000);
	CHECK(h.reads[1].seg.offset == 0x120001000ull);
	CHECK_EQ(rpcr_hdr_check(&h, true), 0);
	/* a Reply carries no Read chunk */
	CHECK_EQ(rpcr_hdr_check(&h, false), -EBADMSG);
}

static void test_msg_write(void)
{
	roundtrip(g_msg_write, sizeof(g_msg_write));
	CHECK_EQ(h.nwrites, 1);
	CHECK_EQ(h.writes[0].nsegs, 2);
	CHECK_EQ(h.writes[0].segs[0].length, 8190);
	CHECK(h.writes[0].segs[0].offset == 0xffff888001000000ull);
	CHECK_EQ(h.writes[0].segs[1].length, 4);
	CHECK(h.has_reply);
	CHECK_EQ(h.reply.nsegs, 1);
	CHECK_EQ(h.reply.segs[0].handle, 0x2003);
	CHECK_EQ(rpcr_hdr_check(&h, true), 0);
}

static void test_nomsg(void)
{
	roundtrip(g_nomsg_call, sizeof(g_nomsg_call));
	CHECK_EQ(h.proc, RPCR_NOMSG);
	CHECK_EQ(h.nreads, 2);
	CHECK_EQ(h.reads[1].position, 0);
	CHECK_EQ(rpcr_hdr_check(&h, true), 0);

	roundtrip(g_nomsg_reply, sizeof(g_nomsg_reply));
	CHECK_EQ(h.reply.segs[0].length, 1800);
	CHECK_EQ(rpcr_hdr_check(&h, false), 0);
	/* a Long Reply without the Reply chunk */
	h.has_reply = false;
	CHECK_EQ(rpcr_hdr_check(&h, false), -EBADMSG);
}

static void test_errors(void)
{
	roundtrip(g_err_vers, sizeof(g_err_vers));
	CHECK_EQ(h.proc, RPCR_ERROR);
	CHECK_EQ(h.err, RPCR_ERR_VERS);
	CHECK_EQ(h.vers_low, 1);
	CHECK_EQ(h.vers_high, 1);
	CHECK_EQ(rpcr_hdr_check(&h, false), 0);
	CHECK_EQ(rpcr_hdr_check(&h, true), -EBADMSG);
	CHECK_EQ(sizeof(g_err_vers), RPCR_ERR_VERS_LEN);

	roundtrip(g_err_chunk, sizeof(g_err_chunk));
	CHECK_EQ(h.err, RPCR_ERR_CHUNK);
	CHECK_EQ(sizeof(g_err_chunk), RPCR_ERR_CHUNK_LEN);

	/* what rpcr_hdr_error() makes is the golden, byte for byte */
	rpcr_hdr_error(&h, 0x55aa55aa, 64, RPCR_ERR_VERS);
	CHECK_EQ(rpcr_hdr_encode(&h, out, sizeof(out)), sizeof(g_err_vers));
	CHECK(!memcmp(out, g_err_vers, sizeof(g_err_vers)));
	rpcr_hdr_error(&h, 0x55aa55ab, 64, RPCR_ERR_CHUNK);
	CHECK_EQ(rpcr_hdr_encode(&h, out, sizeof(out)), sizeof(g_err_chunk));
	CHECK(!memcmp(out, g_err_chunk, sizeof(g_err_chunk)));

	/* an error code RFC 8166 does not define */
	memcpy(out, g_err_chunk, sizeof(g_err_chunk));
	out[19] = 3;
	CHECK_EQ(rpcr_hdr_decode(out, sizeof(g_err_chunk), &h), -EBADMSG);
	h.proc = RPCR_ERROR;
	h.err = 3;
	CHECK_EQ(rpcr_hdr_encode(&h, out, sizeof(out)), -EINVAL);
}

static void test_inv_handle(void)
{
	memset(&h, 0, sizeof(h));
	CHECK_EQ(rpcr_hdr_inv_handle(&h), 0);
	/* one handle in every list: that one */
	h.nreads = 2;
	h.reads[0].seg.handle = 0x77;
	h.reads[1].seg.handle = 0x77;
	CHECK_EQ(rpcr_hdr_inv_handle(&h), 0x77);
	h.nwrites = 1;
	h.writes[0].nsegs = 2;
	h.writes[0].segs[0].handle = 0x77;
	h.writes[0].segs[1].handle = 0x77;
	h.has_reply = true;
	h.reply.nsegs = 1;
	h.reply.segs[0].handle = 0x77;
	CHECK_EQ(rpcr_hdr_inv_handle(&h), 0x77);
	/* a second handle anywhere: none */
	h.reply.segs[0].handle = 0x78;
	CHECK_EQ(rpcr_hdr_inv_handle(&h), 0);
	h.reply.segs[0].handle = 0x77;
	h.writes[0].segs[1].handle = 0x78;
	CHECK_EQ(rpcr_hdr_inv_handle(&h), 0);
	/* a Reply chunk not offered does not count */
	h.writes[0].segs[1].handle = 0x77;
	h.has_reply = false;
	h.reply.segs[0].handle = 0x78;
	CHECK_EQ(rpcr_hdr_inv_handle(&h), 0x77);
	/* the golden Write-chunk Call: three handles */
	roundtrip(g_msg_write, sizeof(g_msg_write));
	CHECK_EQ(rpcr_hdr_inv_handle(&h), 0);
}

static void test_not_to_be_used(void)
{
	CHECK_EQ(rpcr_hdr_decode(g_msgp, sizeof(g_msgp), &h), sizeof(g_msgp));
	CHECK_EQ(h.proc, RPCR_MSGP);
	CHECK_EQ(h.align, 8);
	CHECK_EQ(h.thresh, 1024);
	CHECK_EQ(rpcr_hdr_check(&h, true), -EBADMSG);
	CHECK_EQ(rpcr_hdr_encode(&h, out, sizeof(out)), -EINVAL);
	CHECK_EQ(rpcr_hdr_decode(g_msgp, 20, &h), -EBADMSG);

	CHECK_EQ(rpcr_hdr_decode(g_done, sizeof(g_done), &h), sizeof(g_done));
	CHECK_EQ(h.proc, RPCR_DONE);
	CHECK_EQ(rpcr_hdr_check(&h, false), -EBADMSG);
	CHECK_EQ(rpcr_hdr_encode(&h, out, sizeof(out)), -EINVAL);
}

/* the fixed words are there for any outcome but the shortest */
static void test_fixed(void)
{
	memcpy(out, g_msg_plain, sizeof(g_msg_plain));
	CHECK_EQ(rpcr_hdr_decode(out, 15, &h), -EMSGSIZE);
	CHECK_EQ(rpcr_hdr_decode(out, 0, &h), -EMSGSIZE);

	/* §4.5.1: another version, the XID kept for ERR_VERS */
	out[7] = 2;
	CHECK_EQ(rpcr_hdr_decode(out, sizeof(g_msg_plain), &h),
		 -EPROTONOSUPPORT);
	CHECK_EQ(h.xid, 0x11223344);
	CHECK_EQ(h.vers, 2);
	CHECK_EQ(h.credit, 128);
	out[7] = 1;

	/* a type past RDMA_ERROR */
	out[15] = 5;
	CHECK_EQ(rpcr_hdr_decode(out, sizeof(g_msg_plain), &h), -EBADMSG);
	CHECK_EQ(h.xid, 0x11223344);
	CHECK_EQ(h.proc, 5);
}

/* every prefix of a header fails; the whole header with payload after
 * it decodes to the header's length
 */
static void test_truncation(void)
{
	static const struct { const u8 *g; size_t n; } all[] = {
		{ g_msg_plain, sizeof(g_msg_plain) },
		{ g_msg_read, sizeof(g_msg_read) },
		{ g_msg_write, sizeof(g_msg_write) },
		{ g_nomsg_call, sizeof(g_nomsg_call) },
		{ g_nomsg_reply, sizeof(g_nomsg_reply) },
		{ g_err_vers, sizeof(g_err_vers) },
		{ g_err_chunk, sizeof(g_err_chunk) },
		{ g_msgp, sizeof(g_msgp) },
	};
	unsigned int i;
	size_t n;
	int rc;

	for (i = 0; i < ARRAY_LEN(all); i++) {
		for (n = 0; n < all[i].n; n++) {
			rc = rpcr_hdr_decode(all[i].g, n, &h);
			CHECK(rc == -EMSGSIZE || rc == -EBADMSG);
		}
		memcpy(out, all[i].g, all[i].n);
		memset(out + all[i].n, 0xa5, 64);
		CHECK_EQ(rpcr_hdr_decode(out, all[i].n + 64, &h), all[i].n);
	}
}

/* optional-data discriminators are 0 or 1 */
static void test_bad_xdr(void)
{
	static const size_t where[] = { 16, 40, 64, 68 };
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(where); i++) {
		memcpy(out, g_msg_read, sizeof(g_msg_read));
		out[where[i] + 3] = 2;
		CHECK_EQ(rpcr_hdr_decode(out, sizeof(g_msg_read), &h),
			 -EBADMSG);
	}
	/* a segment count the message could never hold */
	memcpy(out, g_msg_write, sizeof(g_msg_write));
	out[24] = 0xff;
	CHECK_EQ(rpcr_hdr_decode(out, sizeof(g_msg_write), &h), -EBADMSG);
}

/* more than the RPCR_MAX_* limits: -E2BIG, for ERR_CHUNK */
static void test_limits(void)
{
	u8 *p = out;
	u32 i;

	memset(&h, 0, sizeof(h));
	h.vers = RPCR_VERSION_1;
	h.nreads = RPCR_MAX_READ_SEGS;
	CHECK(rpcr_hdr_encode(&h, out, sizeof(out)) > 0);
	CHECK_EQ(rpcr_hdr_decode(out, sizeof(out), &q), rpcr_hdr_len(&h));
	CHECK_EQ(q.nreads, RPCR_MAX_READ_SEGS);
	h.nreads++;
	CHECK_EQ(rpcr_hdr_encode(&h, out, sizeof(out)), -EINVAL);

	/* one Read segment too many, written by hand */
	memcpy(p, g_msg_plain, 16);
	p += 16;
	for (i = 0; i <= RPCR_MAX_READ_SEGS; i++) {
		memset(p, 0, 24);
		p[3] = 1;
		p += 24;
	}
	memset(p, 0, 12);
	p += 12;
	CHECK_EQ(rpcr_hdr_decode(out, p - out, &h), -E2BIG);

	memset(&h, 0, sizeof(h));
	h.vers = RPCR_VERSION_1;
	h.nwrites = RPCR_MAX_WRITE_CHUNKS;
	for (i = 0; i < h.nwrites; i++)
		h.writes[i].nsegs = RPCR_MAX_CHUNK_SEGS;
	h.has_reply = true;
	h.reply.nsegs = RPCR_MAX_CHUNK_SEGS;
	CHECK_EQ(rpcr_hdr_encode(&h, out, sizeof(out)), rpcr_hdr_len(&h));
	CHECK_EQ(rpcr_hdr_decode(out, sizeof(out), &q), rpcr_hdr_len(&h));
	CHECK(!memcmp(&h, &q, sizeof(h)));
	CHECK_EQ(rpcr_hdr_encode(&h, out, rpcr_hdr_len(&h) - 1), -EMSGSIZE);
	h.reply.nsegs++;
	CHECK_EQ(rpcr_hdr_len(&h), 0);

	/* a chunk of RPCR_MAX_CHUNK_SEGS + 1 segments */
	memcpy(out, g_msg_write, 16);
	p = out + 16;
	memset(p, 0, 4);
	p += 4;
	memset(p, 0, 8);
	p[3] = 1;
	p[7] = RPCR_MAX_CHUNK_SEGS + 1;
	p += 8;
	memset(p, 0, (RPCR_MAX_CHUNK_SEGS + 1) * RPCR_SEG_LEN + 8);
	p += (RPCR_MAX_CHUNK_SEGS + 1) * RPCR_SEG_LEN + 8;
	CHECK_EQ(rpcr_hdr_decode(out, p - out, &h), -E2BIG);
}

static void test_check_calls(void)
{
	/* a position-zero Read chunk in an RDMA_MSG */
	CHECK_EQ(rpcr_hdr_decode(g_msg_read, sizeof(g_msg_read), &h),
		 sizeof(g_msg_read));
	h.reads[1].position = 0;
	CHECK_EQ(rpcr_hdr_check(&h, true), -EBADMSG);
	/* a position that is no multiple of four */
	h.reads[1].position = 142;
	CHECK_EQ(rpcr_hdr_check(&h, true), -EBADMSG);

	/* an RDMA_NOMSG Call without a position-zero Read chunk */
	CHECK_EQ(rpcr_hdr_decode(g_nomsg_call, sizeof(g_nomsg_call), &h),
		 sizeof(g_nomsg_call));
	h.reads[0].position = 8;
	h.reads[1].position = 8;
	CHECK_EQ(rpcr_hdr_check(&h, true), -EBADMSG);

	/* Write and Reply chunks without a segment to write into */
	CHECK_EQ(rpcr_hdr_decode(g_msg_write, sizeof(g_msg_write), &h),
		 sizeof(g_msg_write));
	h.writes[0].nsegs = 0;
	CHECK_EQ(rpcr_hdr_check(&h, true), -EBADMSG);
	h.writes[0].nsegs = 2;
	h.reply.nsegs = 0;
	CHECK_EQ(rpcr_hdr_check(&h, true), -EBADMSG);
}

static void test_cm_priv(void)
{
	struct rpcr_cm_priv p = {};
	u8 b[16];

	CHECK_EQ(rpcr_cm_priv_decode(g_cm_priv, sizeof(g_cm_priv), &p), 0);
	CHECK_EQ(p.version, RPCR_CM_VERSION);
	CHECK_EQ(p.flags, RPCR_CM_F_REMOTE_INV);
	CHECK_EQ(p.send_size, 4096);
	CHECK_EQ(p.recv_size, 4096);
	CHECK_EQ(rpcr_cm_priv_encode(&p, b, sizeof(b)), RPCR_CM_PRIV_LEN);
	CHECK(!memcmp(b, g_cm_priv, sizeof(g_cm_priv)));

	/* RDMA-CM pads private data: what follows is not looked at */
	memcpy(b, g_cm_priv, sizeof(g_cm_priv));
	memset(b + 8, 0xee, 8);
	CHECK_EQ(rpcr_cm_priv_decode(b, sizeof(b), &p), 0);

	/* short, another ULP's magic, a version we do not know */
	CHECK_EQ(rpcr_cm_priv_decode(g_cm_priv, 7, &p), -ENOENT);
	CHECK_EQ(rpcr_cm_priv_decode(g_cm_priv, 0, &p), -ENOENT);
	b[0] = 0xf7;
	CHECK_EQ(rpcr_cm_priv_decode(b, sizeof(b), &p), -ENOENT);
	b[0] = 0xf6;
	b[4] = 2;
	CHECK_EQ(rpcr_cm_priv_decode(b, sizeof(b), &p), -ENOENT);

	/* the sizes the format carries: 1 KiB steps, 1 KiB to 256 KiB */
	b[4] = 1;
	b[6] = 0;
	b[7] = 0xff;
	CHECK_EQ(rpcr_cm_priv_decode(b, sizeof(b), &p), 0);
	CHECK_EQ(p.send_size, RPCR_CM_SIZE_MIN);
	CHECK_EQ(p.recv_size, RPCR_CM_SIZE_MAX);
	p.send_size = 4096 + 1000;	/* rounded down */
	p.recv_size = 1 << 20;		/* capped */
	CHECK_EQ(rpcr_cm_priv_encode(&p, b, sizeof(b)), RPCR_CM_PRIV_LEN);
	CHECK_EQ(b[6], 3);
	CHECK_EQ(b[7], 0xff);
	p.send_size = 1023;
	CHECK_EQ(rpcr_cm_priv_encode(&p, b, sizeof(b)), -EINVAL);
	p.send_size = 1024;
	CHECK_EQ(rpcr_cm_priv_encode(&p, b, 7), -EMSGSIZE);
}

static void test_constants(void)
{
	CHECK_EQ(RPCR_MSG, 0);
	CHECK_EQ(RPCR_NOMSG, 1);
	CHECK_EQ(RPCR_MSGP, 2);
	CHECK_EQ(RPCR_DONE, 3);
	CHECK_EQ(RPCR_ERROR, 4);
	CHECK_EQ(RPCR_ERR_VERS, 1);
	CHECK_EQ(RPCR_ERR_CHUNK, 2);
	CHECK_EQ(RPCR_V1_INLINE_DEFAULT, 1024);
	CHECK_EQ(RPCR_CM_MAGIC, 0xf6ab0e18u);
}

static const struct wire_test tests[] = {
	{ "msg_plain", test_msg_plain },
	{ "msg_read", test_msg_read },
	{ "msg_write", test_msg_write },
	{ "nomsg", test_nomsg },
	{ "errors", test_errors },
	{ "inv_handle", test_inv_handle },
	{ "not_to_be_used", test_not_to_be_used },
	{ "fixed", test_fixed },
	{ "truncation", test_truncation },
	{ "bad_xdr", test_bad_xdr },
	{ "limits", test_limits },
	{ "check_calls", test_check_calls },
	{ "cm_priv", test_cm_priv },
	{ "constants", test_constants },
};

static const struct wire_seed seeds[] = {
	{ "msg_plain", g_msg_plain, sizeof(g_msg_plain) },
	{ "msg_read", g_msg_read, sizeof(g_msg_read) },
	{ "msg_write", g_msg_write, sizeof(g_msg_write) },
	{ "nomsg_call", g_nomsg_call, sizeof(g_nomsg_call) },
	{ "nomsg_reply", g_nomsg_reply, sizeof(g_nomsg_reply) },
	{ "err_vers", g_err_vers, sizeof(g_err_vers) },
	{ "err_chunk", g_err_chunk, sizeof(g_err_chunk) },
	{ "msgp", g_msgp, sizeof(g_msgp) },
	{ "done", g_done, sizeof(g_done) },
	{ "cm_priv", g_cm_priv, sizeof(g_cm_priv) },
};

int main(int argc, char **argv)
{
	goldens_to_wire();
	return wire_test_main(argc, argv, tests, ARRAY_LEN(tests),
			      seeds, ARRAY_LEN(seeds));
}
