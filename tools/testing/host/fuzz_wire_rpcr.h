/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the libFuzzer targets of the RPC-over-RDMA headers
 * (fuzz_wire_rpcr.c, version 1; fuzz_wire_rpcr2.c, version 2): chunk
 * lists read from the fuzz input as field values, with counts up to one
 * past each limit of rpcr_wire.h so that the encoders' refusals are
 * reached too.
 */
#ifndef _FUZZ_WIRE_RPCR_H
#define _FUZZ_WIRE_RPCR_H

#include "rpcr_wire.h"
#include "fuzz_wire.h"

static inline void take_seg(struct cursor *c, struct rpcr_seg *s)
{
	s->handle = take32(c);
	s->length = take32(c);
	s->offset = take64(c);
}

static inline void take_chunk(struct cursor *c, struct rpcr_write_chunk *w)
{
	u32 i;

	w->nsegs = take8(c) % (RPCR_MAX_CHUNK_SEGS + 2);
	for (i = 0; i < w->nsegs && i < RPCR_MAX_CHUNK_SEGS; i++)
		take_seg(c, &w->segs[i]);
}

/* the Read list (positions masked with @pos_mask), Write list, Reply */
static inline void take_lists(struct cursor *c, struct rpcr_hdr *h,
			      u32 pos_mask)
{
	u32 i;

	h->nreads = take8(c) % (RPCR_MAX_READ_SEGS + 2);
	for (i = 0; i < h->nreads && i < RPCR_MAX_READ_SEGS; i++) {
		h->reads[i].position = take32(c) & pos_mask;
		take_seg(c, &h->reads[i].seg);
	}
	h->nwrites = take8(c) % (RPCR_MAX_WRITE_CHUNKS + 2);
	for (i = 0; i < h->nwrites && i < RPCR_MAX_WRITE_CHUNKS; i++)
		take_chunk(c, &h->writes[i]);
	h->has_reply = take8(c) & 1;
	if (h->has_reply)
		take_chunk(c, &h->reply);
}

#endif /* _FUZZ_WIRE_RPCR_H */
