/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: portable helpers shared by the SMC-R wire format files.
 *
 * The wire files (CLC, LLC, CDC) are pure byte-buffer encoders and
 * decoders.  They are compiled into the kernel module and, unchanged,
 * into host unit tests and fuzz targets.  This header supplies the few
 * types and helpers they need in both worlds.
 *
 * Every multi-byte field of SMC-R is transmitted in network byte order
 * (RFC 7609, Appendix A); the little-endian length of an SMC-Rv2 LLC
 * message is the odd one out, handled in smcr_wire_llc.c.  Fields are
 * accessed with the explicit byte shift helpers below, at byte offsets
 * that need not be aligned, so no packed structures or bit-fields are
 * involved and the code behaves the same on every host endianness.
 */
#ifndef _SMCR_WIRE_H
#define _SMCR_WIRE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#else
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
#include <stdbool.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

#ifndef EBADMSG
#define EBADMSG		74
#endif
#ifndef EPROTO
#define EPROTO		71
#endif
#ifndef EMSGSIZE
#define EMSGSIZE	90
#endif
#endif /* __KERNEL__ */

/* read a 16 bit big-endian value starting at @p */
static inline u16 smcr_get_be16(const u8 *p)
{
	return (u16)((u16)p[0] << 8 | (u16)p[1]);
}

/* read a 24 bit big-endian value starting at @p */
static inline u32 smcr_get_be24(const u8 *p)
{
	return (u32)p[0] << 16 | (u32)p[1] << 8 | (u32)p[2];
}

/* read a 32 bit big-endian value starting at @p */
static inline u32 smcr_get_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 |
	       (u32)p[2] << 8 | (u32)p[3];
}

/* read a 64 bit big-endian value starting at @p */
static inline u64 smcr_get_be64(const u8 *p)
{
	return (u64)smcr_get_be32(p) << 32 | (u64)smcr_get_be32(p + 4);
}

/* store the 16 bit value @v big-endian at @p */
static inline void smcr_put_be16(u8 *p, u16 v)
{
	p[0] = (v >> 8) & 0xff;
	p[1] = v & 0xff;
}

/* store the low 24 bits of @v big-endian at @p */
static inline void smcr_put_be24(u8 *p, u32 v)
{
	p[0] = (v >> 16) & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = v & 0xff;
}

/* store the 32 bit value @v big-endian at @p */
static inline void smcr_put_be32(u8 *p, u32 v)
{
	p[0] = (v >> 24) & 0xff;
	p[1] = (v >> 16) & 0xff;
	p[2] = (v >> 8) & 0xff;
	p[3] = v & 0xff;
}

/* store the 64 bit value @v big-endian at @p */
static inline void smcr_put_be64(u8 *p, u64 v)
{
	smcr_put_be32(p, (u32)(v >> 32));
	smcr_put_be32(p + 4, (u32)(v & 0xffffffffu));
}

#endif /* _SMCR_WIRE_H */
