/* SPDX-License-Identifier: GPL-2.0 */
/* rpcr_rpc: what the client and the server side both need to know of the
 * RPC messages and rpc_xprts they carry
 */
#ifndef _RPCR_RPC_H
#define _RPCR_RPC_H

#include <linux/slab.h>
#include <linux/sunrpc/msg_prot.h>
#include <linux/sunrpc/xprt.h>

#include "rpcr_wire.h"

/**
 * rpcr_rpc_is_dir() - is a message a plain RPC message of a direction?
 * @h: its decoded transport header
 * @msg: the RPC message after the header
 * @len: its length
 * @dir: RPC_CALL or RPC_REPLY
 *
 * A backward-direction message (RFC 8167 §4) is an RDMA_MSG without
 * chunks; the RPC message's second word tells a call from a reply.
 *
 * Return: true when @msg is such a message of direction @dir.
 */
static inline bool rpcr_rpc_is_dir(const struct rpcr_hdr *h, const u8 *msg,
				   u32 len, u32 dir)
{
	__be32 word;

	if (h->proc != RPCR_MSG || h->nreads || h->nwrites || h->has_reply ||
	    len < 8)
		return false;
	memcpy(&word, msg + 4, sizeof(word));
	return word == cpu_to_be32(dir);
}

/**
 * rpcr_rpc_free_addresses() - free the address strings of an rpc_xprt
 * @xprt: the transport; its protocol and netid strings are constants
 */
static inline void rpcr_rpc_free_addresses(struct rpc_xprt *xprt)
{
	int i;

	for (i = 0; i < RPC_DISPLAY_MAX; i++) {
		if (i != RPC_DISPLAY_PROTO && i != RPC_DISPLAY_NETID)
			kfree(xprt->address_strings[i]);
	}
}

#endif /* _RPCR_RPC_H */
