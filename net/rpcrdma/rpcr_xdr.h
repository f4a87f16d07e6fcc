/* SPDX-License-Identifier: GPL-2.0 */
/* rpcr_xdr: the bytes of an xdr_buf range as pieces of pages, for
 * scatterlists of registrations (client) and of RDMA Reads and Writes
 * (server).
 */
#ifndef _RPCR_XDR_H
#define _RPCR_XDR_H

#include <linux/scatterlist.h>
#include <linux/sunrpc/xdr.h>

/**
 * struct rpcr_xdr_walk - a walk over an xdr_buf range: head, pages, tail
 * @xdr: the buffer
 * @pos: the next byte, an offset in @xdr
 * @end: one past the range's last byte
 */
struct rpcr_xdr_walk {
	const struct xdr_buf	*xdr;
	u32			pos;
	u32			end;
};

bool rpcr_xdr_next(struct rpcr_xdr_walk *w, struct page **page, u32 *off,
		   u32 *len);
int rpcr_xdr_sg(const struct xdr_buf *xdr, u32 off, u32 len,
		struct scatterlist *sg, u32 max);

#endif /* _RPCR_XDR_H */
