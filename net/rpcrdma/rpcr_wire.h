/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcr: the RPC-over-RDMA version 1 transport header (RFC 8166 §4) and
 * the connection private data of RFC 8797.
 *
 * Pure encoders and decoders over byte buffers: no kernel state, built
 * into the transport module and, unchanged, into the host unit tests and
 * the fuzz target. Every field is an XDR word (four bytes, network byte
 * order) or an XDR hyper (eight), read and written at 4-byte steps of a
 * bounded cursor, so an input can never be read past its end.
 */
#ifndef _RPCR_WIRE_H
#define _RPCR_WIRE_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
#endif /* __KERNEL__ */

#define RPCR_VERSION_1		1

/* RFC 8166 §3.3.3: the inline threshold when the peers agreed on none */
#define RPCR_V1_INLINE_DEFAULT	1024

/* RFC 8166 §4.2.4: the header types (rdma_proc) */
enum rpcr_proc {
	RPCR_MSG	= 0,	/* RPC message follows inline */
	RPCR_NOMSG	= 1,	/* RPC message in a chunk, nothing inline */
	RPCR_MSGP	= 2,	/* padded message: never to be sent */
	RPCR_DONE	= 3,	/* never to be sent */
	RPCR_ERROR	= 4,	/* the peer's header could not be handled */
};

/* RFC 8166 §4.5: why a header was refused */
enum rpcr_errcode {
	RPCR_ERR_VERS	= 1,	/* version not supported; range follows */
	RPCR_ERR_CHUNK	= 2,	/* malformed, or chunks not processable */
};

/* Header sizes: xid, vers, credit and proc, then per type (§4.2) */
#define RPCR_HDR_FIXED_LEN	16
#define RPCR_HDR_MIN_LEN	28	/* MSG or NOMSG, three empty lists */
#define RPCR_ERR_CHUNK_LEN	20
#define RPCR_ERR_VERS_LEN	28
#define RPCR_SEG_LEN		16	/* handle, length, offset */
#define RPCR_READ_SEG_LEN	20	/* position and a segment */

/* The most this implementation takes in one header; a peer's header
 * with more is answered with ERR_CHUNK (§4.5.2: the Responder cannot
 * process the chunks)
 */
#define RPCR_MAX_READ_SEGS	16
#define RPCR_MAX_WRITE_CHUNKS	4
#define RPCR_MAX_CHUNK_SEGS	16

/**
 * struct rpcr_seg - an RDMA segment: registered memory of the peer (§4.1)
 * @handle: the steering tag (STag) of the registration
 * @length: bytes
 * @offset: the address the handle's registration knows the memory by
 */
struct rpcr_seg {
	u32	handle;
	u32	length;
	u64	offset;
};

/**
 * struct rpcr_read_seg - one entry of a Read list (§4.3.1)
 * @position: byte offset in the RPC message where its data belongs; the
 *	entries with one position form one Read chunk
 * @seg: where the data is
 */
struct rpcr_read_seg {
	u32		position;
	struct rpcr_seg	seg;
};

/**
 * struct rpcr_write_chunk - a Write chunk, or the Reply chunk (§3.4.6)
 * @nsegs: segments in @segs
 * @segs: the memory the Responder writes into, in order
 */
struct rpcr_write_chunk {
	u32		nsegs;
	struct rpcr_seg	segs[RPCR_MAX_CHUNK_SEGS];
};

/**
 * struct rpcr_hdr - a transport header, decoded
 * @xid: the RPC message's XID (§4.2.1)
 * @vers: version of the header (§4.2.2)
 * @credit: credits asked for or granted (§4.2.3, §3.3.1)
 * @proc: enum rpcr_proc
 * @align: RPCR_MSGP only: the padding alignment
 * @thresh: RPCR_MSGP only: the padding threshold
 * @nreads: MSG, NOMSG, MSGP: entries in @reads
 * @reads: the Read list, in wire order
 * @nwrites: chunks in @writes
 * @writes: the Write list
 * @has_reply: a Reply chunk is present
 * @reply: the Reply chunk
 * @err: RPCR_ERROR only: enum rpcr_errcode
 * @vers_low: RPCR_ERR_VERS only: the lowest version the sender takes
 * @vers_high: RPCR_ERR_VERS only: the highest
 */
struct rpcr_hdr {
	u32			xid;
	u32			vers;
	u32			credit;
	u32			proc;
	u32			align;
	u32			thresh;
	u32			nreads;
	struct rpcr_read_seg	reads[RPCR_MAX_READ_SEGS];
	u32			nwrites;
	struct rpcr_write_chunk	writes[RPCR_MAX_WRITE_CHUNKS];
	bool			has_reply;
	struct rpcr_write_chunk	reply;
	u32			err;
	u32			vers_low;
	u32			vers_high;
};

/* A bounded XDR input: every take fails once the bytes run out */
struct rpcr_xin {
	const u8	*p;
	size_t		left;
};

static inline bool rpcr_take32(struct rpcr_xin *x, u32 *v)
{
	if (x->left < 4)
		return false;
	*v = (u32)x->p[0] << 24 | (u32)x->p[1] << 16 |
	     (u32)x->p[2] << 8 | (u32)x->p[3];
	x->p += 4;
	x->left -= 4;
	return true;
}

static inline bool rpcr_take64(struct rpcr_xin *x, u64 *v)
{
	u32 hi, lo;

	if (!rpcr_take32(x, &hi) || !rpcr_take32(x, &lo))
		return false;
	*v = (u64)hi << 32 | lo;
	return true;
}

/* Output cursor; the caller knows beforehand that everything fits */
static inline u8 *rpcr_put32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24 & 0xff);
	p[1] = (u8)(v >> 16 & 0xff);
	p[2] = (u8)(v >> 8 & 0xff);
	p[3] = (u8)(v & 0xff);
	return p + 4;
}

/* The XDR pieces version 2 (rpcr_wire2.c) shares with version 1 */
int rpcr_take_present(struct rpcr_xin *x, bool *present);
int rpcr_take_seg(struct rpcr_xin *x, struct rpcr_seg *s);
int rpcr_take_chunk(struct rpcr_xin *x, struct rpcr_write_chunk *c);
size_t rpcr_lists_len(const struct rpcr_hdr *h);
u8 *rpcr_put_lists(u8 *p, const struct rpcr_hdr *h);

int rpcr_hdr_decode(const u8 *buf, size_t len, struct rpcr_hdr *h);
int rpcr_hdr_check(const struct rpcr_hdr *h, bool call);
size_t rpcr_hdr_len(const struct rpcr_hdr *h);
int rpcr_hdr_encode(const struct rpcr_hdr *h, u8 *buf, size_t size);
void rpcr_hdr_error(struct rpcr_hdr *h, u32 xid, u32 credit, u32 err);
u32 rpcr_hdr_inv_handle(const struct rpcr_hdr *h);

/* RFC 8797 §3: the private data of the RDMA-CM connect and accept */
#define RPCR_CM_PRIV_LEN	8
#define RPCR_CM_MAGIC		0xf6ab0e18
#define RPCR_CM_VERSION		1
#define RPCR_CM_F_REMOTE_INV	0x01	/* Send With Invalidate welcome */
#define RPCR_CM_SIZE_MIN	1024u	/* the sizes it can carry */
#define RPCR_CM_SIZE_MAX	(256u * 1024)

/**
 * struct rpcr_cm_priv - connection private data (RFC 8797 §3)
 * @version: RPCR_CM_VERSION
 * @flags: RPCR_CM_F_*
 * @send_size: bytes of the largest Send the sender makes
 * @recv_size: bytes of the largest Send the sender can receive
 */
struct rpcr_cm_priv {
	u8	version;
	u8	flags;
	u32	send_size;
	u32	recv_size;
};

int rpcr_cm_priv_decode(const u8 *buf, size_t len, struct rpcr_cm_priv *p);
int rpcr_cm_priv_encode(const struct rpcr_cm_priv *p, u8 *buf, size_t size);

#endif /* _RPCR_WIRE_H */
