// SPDX-License-Identifier: GPL-2.0
/* rpcr_xdr: walking an xdr_buf range page piece by page piece */
#include "rpcr_xdr.h"

/**
 * rpcr_xdr_next() - the next piece of a walk
 * @w: the walk
 * @page: the piece's page
 * @off: its offset in the page
 * @len: its bytes: at most to the end of the page, of the buffer's part
 *	(head, pages, tail) and of the range
 *
 * Return: false at the end of the range.
 */
bool rpcr_xdr_next(struct rpcr_xdr_walk *w, struct page **page, u32 *off,
		   u32 *len)
{
	const struct xdr_buf *xdr = w->xdr;
	u32 head = xdr->head[0].iov_len, pages = xdr->page_len;
	const u8 *va = NULL;
	u32 at = w->pos, left;

	if (w->pos >= w->end)
		return false;
	if (at < head) {
		va = (const u8 *)xdr->head[0].iov_base + at;
		left = head - at;
	} else if (at - head < pages) {
		u32 p = xdr->page_base + at - head;

		*page = xdr->pages[p >> PAGE_SHIFT];
		*off = offset_in_page(p);
		left = pages - (at - head);
	} else if (at - head - pages < xdr->tail[0].iov_len) {
		va = (const u8 *)xdr->tail[0].iov_base + (at - head - pages);
		left = xdr->tail[0].iov_len - (at - head - pages);
	} else {
		/* the range runs past the buffer */
		return false;
	}
	if (va) {
		*page = virt_to_page(va);
		*off = offset_in_page(va);
	}
	*len = min3(left, w->end - at, (u32)PAGE_SIZE - *off);
	w->pos += *len;
	return *len != 0;
}

/**
 * rpcr_xdr_sg() - a scatterlist of an xdr_buf range, a page piece an entry
 * @xdr: the buffer
 * @off: where the range starts
 * @len: its bytes
 * @sg: the list, initialised here
 * @max: its room
 *
 * Return: entries used, or -EMSGSIZE when @max is too few.
 */
int rpcr_xdr_sg(const struct xdr_buf *xdr, u32 off, u32 len,
		struct scatterlist *sg, u32 max)
{
	struct rpcr_xdr_walk w = { xdr, off, off + len };
	struct page *pg;
	u32 poff, plen;
	u32 n = 0;

	/* entries set up as they are used: @max may be far more */
	while (rpcr_xdr_next(&w, &pg, &poff, &plen)) {
		if (n == max)
			return -EMSGSIZE;
		sg_init_table(&sg[n], 1);
		if (n)
			sg_unmark_end(&sg[n - 1]);
		sg_set_page(&sg[n++], pg, plen, poff);
	}
	return n;
}
