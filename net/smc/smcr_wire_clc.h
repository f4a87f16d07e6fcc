/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smcr: CLC (Connection Layer Control) message wire format.
 *
 * Pure encode / decode / validate routines for the CLC messages of
 * SMC-R version 1 (RFC 7609, Appendix A.2) and of SMC-R version 2 as
 * Linux 6.1 sends them.  Nothing here touches sockets or allocates
 * memory; the same source is built for the kernel module and for the
 * host unit tests and fuzzer.
 *
 * Decoded messages are plain C structures holding host-order values.
 * On the wire every message is:
 *
 *   8 byte header | type specific body | 4 byte trailer eyecatcher
 *
 * Header layout (byte offsets):
 *   0..3  eyecatcher, EBCDIC "SMCR"
 *   4     message type (SMCR_CLC_TYPE_*)
 *   5..6  total message length, header and trailer included
 *   7     version in bits 7..4; bits 3..0 are type specific:
 *         bits 1..0 carry the v1 path type (SMCR_CLC_PATH_*),
 *         bits 3..2 carry the v2 path type of a version 2 proposal,
 *         bit 3 alone is the first contact flag of accept / confirm
 *         and the out-of-sync flag of decline.
 */
#ifndef _SMCR_WIRE_CLC_H
#define _SMCR_WIRE_CLC_H

#include "smcr_wire.h"

/* eyecatchers as big-endian values of their 4 EBCDIC bytes (A.2) */
#define SMCR_CLC_EYECATCHER_R	0xE2D4C3D9u	/* "SMCR" */
#define SMCR_CLC_EYECATCHER_D	0xE2D4C3C4u	/* "SMCD", not accepted */

/* message types (A.2.2 - A.2.5) */
#define SMCR_CLC_TYPE_PROPOSAL	1
#define SMCR_CLC_TYPE_ACCEPT	2
#define SMCR_CLC_TYPE_CONFIRM	3
#define SMCR_CLC_TYPE_DECLINE	4

/* SMC protocol versions carried in the header */
#define SMCR_CLC_V1		1
#define SMCR_CLC_V2		2

/* path types in the low bits of header byte 7 */
#define SMCR_CLC_PATH_R		0	/* SMC-R only */
#define SMCR_CLC_PATH_D		1	/* SMC-D only */
#define SMCR_CLC_PATH_NONE	2	/* neither */
#define SMCR_CLC_PATH_BOTH	3	/* SMC-R and SMC-D */

/* bits of the low nibble of header byte 7 */
#define SMCR_CLC_TYPEBITS_MASK	0x0f
#define SMCR_CLC_PATH_V1_MASK	0x03
#define SMCR_CLC_PATH_V2_SHIFT	2
#define SMCR_CLC_PATH_V2_MASK	0x0c
#define SMCR_CLC_FLAG_FC	0x08	/* first contact (A.2.3) */
#define SMCR_CLC_FLAG_SYNC	0x08	/* out of sync (A.2.5) */

/* sizes */
#define SMCR_CLC_HDR_LEN	8
#define SMCR_CLC_TRL_LEN	4
#define SMCR_CLC_PEER_ID_LEN	8	/* A.2.1 */
#define SMCR_CLC_GID_LEN	16
#define SMCR_CLC_MAC_LEN	6
#define SMCR_CLC_MAX_LEN	1024	/* our bound on any CLC message */

/* proposal: header, peer id, GID, MAC and the IP area offset field */
#define SMCR_CLC_PROP_BASE_LEN	40
#define SMCR_CLC_IPAREA_LEN	8	/* subnet, mask len, rsvd, v6 count */
#define SMCR_CLC_V6_PREFIX_LEN	17	/* 16 byte prefix + length byte */
#define SMCR_CLC_MAX_V6_PREFIX	8
/* largest IP area offset Linux 6.1 accepts (its SMC-D GID area) */
#define SMCR_CLC_IPAREA_OFF_MAX	40
#define SMCR_CLC_PROP_MIN_LEN	(SMCR_CLC_PROP_BASE_LEN + \
				 SMCR_CLC_IPAREA_LEN + SMCR_CLC_TRL_LEN)
#define SMCR_CLC_PROP_MAX_LEN	SMCR_CLC_MAX_LEN

/* accept and confirm (A.2.3, A.2.4) */
#define SMCR_CLC_ACC_CONF_LEN	68

/* SMC-Rv2.  A version 2 proposal always carries the 40 byte SMC-D area
 * after its base; the IP area (when a v1 path is offered) follows it,
 * then the v2 extension (when a v2 path is offered) with the user EIDs.
 * A version 2 accept / confirm appends the negotiated EID to the v1
 * fields and, on a first contact, a first contact extension; a
 * confirm's extension ends in the client's GID list.
 */
#define SMCR_CLC_EID_LEN	32
#define SMCR_CLC_MAX_UEID	8	/* EIDs a proposal may carry */
#define SMCR_CLC_HOSTNAME_LEN	32
#define SMCR_CLC_SMCD_AREA_LEN	40
#define SMCR_CLC_V2_EXT_LEN	40	/* v2 extension without its EIDs */
#define SMCR_CLC_SMCD_V2_EXT_LEN 48	/* SMC-D v2 extension, no GIDs */
#define SMCR_CLC_ISM_GID_LEN	10	/* one ISM GID and CHID */
#define SMCR_CLC_MAX_ISM	8
#define SMCR_CLC_ACC_CONF_V2_LEN 108
/* first contact extension: 36 bytes in release 0, then 16 that were
 * reserved there and carry release 1's fields (Linux 6.12 "v2x")
 */
#define SMCR_CLC_FCE_V1_LEN	36
#define SMCR_CLC_FCE_LEN	52
#define SMCR_CLC_GIDLIST_HDR_LEN 4	/* confirm's GID list header */
#define SMCR_CLC_MAX_GIDS	2	/* GIDs Linux sends and keeps */

/* SMC release 1 (Linux 6.12's "SMC v2.1"): the range of what a first
 * contact of version 2 agrees on, connections and links per link group
 */
#define SMCR_CLC_RELEASE_1	1
#define SMCR_CLC_CONNS_MIN	16
#define SMCR_CLC_CONNS_MAX	255
#define SMCR_CLC_LINKS_MAX	2

/**
 * struct smcr_clc_terms - what the first contact of a link group settles
 * @release: SMC release both ends speak in it: 0, or SMCR_CLC_RELEASE_1
 *	in a version 2 group whose ends both have it
 * @max_conns: connections the group takes, SMCR_CLC_CONNS_MIN to
 *	SMCR_CLC_CONNS_MAX; the most in release 0
 * @max_links: links it may have, 1 to SMCR_CLC_LINKS_MAX; the most in
 *	release 0
 *
 * Before the handshake, one end's own: what it offers.
 */
struct smcr_clc_terms {
	u8 release;
	u8 max_conns;
	u8 max_links;
};

extern const struct smcr_clc_terms smcr_clc_terms_default;

/* decline (A.2.5); Linux adds four more diagnosis words in version 2 */
#define SMCR_CLC_DECLINE_LEN	28
#define SMCR_CLC_DECL_DIAG_V2_CNT	4
#define SMCR_CLC_DECLINE_V2_LEN	44

/* operating system types in the decline OS nibble */
#define SMCR_CLC_OS_NONE	0	/* what Linux sends in a v1 decline */
#define SMCR_CLC_OS_ZOS		1
#define SMCR_CLC_OS_LINUX	2
#define SMCR_CLC_OS_AIX		3

/* Compressed RMBE size (A.2.3 "Bsize"): size = 16 KiB << code.  The
 * RFC caps SMC-R at 512 KiB, i.e. code 5, as ours are; Linux 6.12's may
 * have any code, up to 512 MiB.
 */
#define SMCR_CLC_RMBE_MIN_SIZE	16384u
#define SMCR_CLC_RMBE_CODE_MAX	5
#define SMCR_CLC_RMBE_PEER_MAX	(SMCR_CLC_RMBE_MIN_SIZE << 15)

/* QP MTU enumeration (A.2.3); same values as the IB MTU enum */
#define SMCR_CLC_MTU_256	1
#define SMCR_CLC_MTU_512	2
#define SMCR_CLC_MTU_1024	3
#define SMCR_CLC_MTU_2048	4
#define SMCR_CLC_MTU_4096	5

/* Decline diagnosis codes.  RFC 7609 (A.2.5, Appendix C) leaves their
 * values to the implementation; these are the values Linux uses, so the
 * in-tree stack reports the same reasons as we do.
 */
#define SMCR_CLC_DECL_MEM		0x01010000 /* out of memory */
#define SMCR_CLC_DECL_TIMEOUT_CL	0x02010000 /* confirm link timeout */
#define SMCR_CLC_DECL_TIMEOUT_AL	0x02020000 /* add link timeout */
#define SMCR_CLC_DECL_CNFERR		0x03000000 /* configuration error */
#define SMCR_CLC_DECL_PEERNOSMC		0x03010000 /* peer not SMC capable */
#define SMCR_CLC_DECL_IPSEC		0x03020000 /* IPsec in use */
#define SMCR_CLC_DECL_NOSMCDEV		0x03030000 /* no SMC device at all */
#define SMCR_CLC_DECL_NOSMCDDEV		0x03030001 /* no SMC-D device */
#define SMCR_CLC_DECL_NOSMCRDEV		0x03030002 /* no SMC-R device */
#define SMCR_CLC_DECL_NOISM2SUPP	0x03030003 /* no ISMv2 hardware */
#define SMCR_CLC_DECL_NOV2EXT		0x03030004 /* no v2 extension */
#define SMCR_CLC_DECL_NOV2DEXT		0x03030005 /* no SMC-Dv2 extension */
#define SMCR_CLC_DECL_NOSEID		0x03030006 /* no system EID */
#define SMCR_CLC_DECL_NOSMCD2DEV	0x03030007 /* no SMC-Dv2 device */
#define SMCR_CLC_DECL_NOUEID		0x03030008 /* no user EID */
#define SMCR_CLC_DECL_RELEASEERR	0x03030009 /* release mismatch */
#define SMCR_CLC_DECL_MAXCONNERR	0x0303000a /* max_conns refused */
#define SMCR_CLC_DECL_MAXLINKERR	0x0303000b /* max_links refused */
#define SMCR_CLC_DECL_MODEUNSUPP	0x03040000 /* R / D mode mismatch */
#define SMCR_CLC_DECL_RMBE_EC		0x03050000 /* eyecatcher in RMBE */
#define SMCR_CLC_DECL_OPTUNSUPP		0x03060000 /* socket option clash */
#define SMCR_CLC_DECL_DIFFPREFIX	0x03070000 /* not on same subnet */
#define SMCR_CLC_DECL_GETVLANERR	0x03080000 /* VLAN lookup failed */
#define SMCR_CLC_DECL_ISMVLANERR	0x03090000 /* ISM VLAN setup failed */
#define SMCR_CLC_DECL_NOACTLINK		0x030a0000 /* no usable link in LGR */
#define SMCR_CLC_DECL_NOSRVLINK		0x030b0000 /* server link unknown */
#define SMCR_CLC_DECL_VERSMISMAT	0x030c0000 /* version mismatch */
#define SMCR_CLC_DECL_MAX_DMB		0x030d0000 /* SMC-D DMB limit */
#define SMCR_CLC_DECL_NOROUTE		0x030e0000 /* SMC-Rv2 no route */
#define SMCR_CLC_DECL_NOINDIRECT	0x030f0000 /* SMC-Rv2 indirect clash */
#define SMCR_CLC_DECL_SYNCERR		0x04000000 /* LGR out of sync (C.4) */
#define SMCR_CLC_DECL_PEERDECL		0x05000000 /* peer sent a decline */
#define SMCR_CLC_DECL_INTERR		0x09990000 /* internal error */
#define SMCR_CLC_DECL_ERR_RTOK		0x09990001 /* rkey handling failed */
#define SMCR_CLC_DECL_ERR_RDYLNK	0x09990002 /* link not ready */
#define SMCR_CLC_DECL_ERR_REGBUF	0x09990003 /* buffer registration */

/**
 * struct smcr_clc_hdr - decoded CLC header (A.2)
 * @eyecatcher: the first four bytes as one big-endian value
 * @type: SMCR_CLC_TYPE_*
 * @length: total message length in bytes, trailer included
 * @version: SMC version, high nibble of byte 7
 * @typebits: low nibble of byte 7, meaning depends on @type
 */
struct smcr_clc_hdr {
	u32 eyecatcher;
	u8 type;
	u16 length;
	u8 version;
	u8 typebits;
};

/**
 * struct smcr_clc_v6_prefix - one IPv6 prefix of a proposal (A.2.2)
 * @addr: prefix value, network byte order as on the wire
 * @len: number of significant bits, at most 128
 */
struct smcr_clc_v6_prefix {
	u8 addr[16];
	u8 len;
};

/**
 * struct smcr_clc_proposal - decoded SMC Proposal (A.2.2)
 * @version: SMC version; we send 1, peers may send 2
 * @path_v1: version 1 path type (SMCR_CLC_PATH_*); NONE only when
 *	@version >= 2 and means the message has no IP area
 * @path_v2: version 2 path type, always 0 when @version is 1
 * @peer_id: client's peer ID (A.2.1)
 * @gid: client's preferred RoCE GID
 * @mac: client's preferred RoCE MAC
 * @iparea_offset: bytes skipped between the offset field and the IP
 *	area; 0 in RFC 7609, 40 in proposals sent by Linux
 * @ipv4_subnet: IPv4 subnet, host order (0 on IPv6 flows)
 * @ipv4_prefix_len: significant bits of @ipv4_subnet, at most 32
 * @ipv6_prefix_cnt: used entries of @ipv6_prefix
 * @ipv6_prefix: IPv6 prefixes
 * @v2_ext: a version 2 extension is present; set by the decoder
 *	when @path_v2 is not NONE, required by the encoder then
 * @v2_release: release nibble of the extension's flag byte
 * @seid: the client offers its system EID (SMC-D only)
 * @v2_gid: client's RoCEv2 GID, an IPv4-mapped address
 * @v2_max_conns: release 1: connections per link group the client
 *	takes, 0 from a client of release 0
 * @v2_max_links: release 1: links per link group the client takes
 * @v2_features: release 1: the client's feature mask
 * @eid_cnt: used entries of @eids
 * @eids: user EIDs, blank padded
 * @ism_gid_cnt: ISM GIDs of an SMC-D v2 offer, 0 in any other; decoded,
 *	never encoded
 *
 * In version 1 the bytes skipped by @iparea_offset are opaque and
 * written as zeroes.  In version 2 they are the SMC-D area: the
 * encoder sets @iparea_offset itself and fills the area with zeroes
 * and the offset of the v2 extension.
 */
struct smcr_clc_proposal {
	u8 version;
	u8 path_v1;
	u8 path_v2;
	u8 peer_id[SMCR_CLC_PEER_ID_LEN];
	u8 gid[SMCR_CLC_GID_LEN];
	u8 mac[SMCR_CLC_MAC_LEN];
	u16 iparea_offset;
	u32 ipv4_subnet;
	u8 ipv4_prefix_len;
	u8 ipv6_prefix_cnt;
	struct smcr_clc_v6_prefix ipv6_prefix[SMCR_CLC_MAX_V6_PREFIX];
	bool v2_ext;
	u8 v2_release;
	bool seid;
	u8 v2_gid[SMCR_CLC_GID_LEN];
	u8 v2_max_conns;
	u8 v2_max_links;
	u16 v2_features;
	u8 eid_cnt;
	u8 eids[SMCR_CLC_MAX_UEID][SMCR_CLC_EID_LEN];
	u8 ism_gid_cnt;
};

/**
 * struct smcr_clc_fce - first contact extension of a v2 accept / confirm
 * @v2_direct: the sender reaches the peer without an IP gateway
 * @os_type: SMCR_CLC_OS_*
 * @release: SMC release of the sender
 * @hostname: sender's host name, blank or NUL padded
 * @max_conns: release 1: connections per link group, negotiated
 * @max_links: release 1: links per link group, negotiated
 * @features: release 1: feature mask
 * @vendor_opts: release 1: vendor options, 0 from Linux
 *
 * The fields of release 1 are 0 from a peer of release 0, and left 0
 * by the decoder when a message ends before them.
 */
struct smcr_clc_fce {
	bool v2_direct;
	u8 os_type;
	u8 release;
	u8 hostname[SMCR_CLC_HOSTNAME_LEN];
	u8 max_conns;
	u8 max_links;
	u16 features;
	u32 vendor_opts;
};

/**
 * struct smcr_clc_accept_confirm - decoded SMC Accept or Confirm
 * @type: SMCR_CLC_TYPE_ACCEPT or SMCR_CLC_TYPE_CONFIRM
 * @version: SMCR_CLC_V1 (68 byte RFC layout) or SMCR_CLC_V2
 * @first_contact: F bit (A.2.3); Linux also sets it in a Confirm
 * @peer_id: sender's peer ID (A.2.1)
 * @gid: sender's RoCE GID
 * @mac: sender's RoCE MAC
 * @qpn: sender's QP number, 24 bits
 * @rmb_rkey: RKey of the sender's RMB
 * @rmbe_idx: index of the RMB element
 * @rmbe_alert_token: RMBE alert token
 * @rmbe_size: compressed RMBE size, 4 bits
 * @qp_mtu: QP MTU enum (SMCR_CLC_MTU_*), 4 bits
 * @rmb_dma_addr: virtual address of the RMB
 * @psn: initial packet sequence number, 24 bits
 * @eid: version 2: the negotiated EID
 * @has_fce: version 2 first contact: @fce is present
 * @fce: the first contact extension
 * @gid_cnt: version 2 first contact confirm: used entries of @gids
 * @gids: the client's RoCEv2 GIDs usable for this link group
 *
 * Only path type SMC-R is handled.
 */
struct smcr_clc_accept_confirm {
	u8 type;
	u8 version;
	bool first_contact;
	u8 peer_id[SMCR_CLC_PEER_ID_LEN];
	u8 gid[SMCR_CLC_GID_LEN];
	u8 mac[SMCR_CLC_MAC_LEN];
	u32 qpn;
	u32 rmb_rkey;
	u8 rmbe_idx;
	u32 rmbe_alert_token;
	u8 rmbe_size;
	u8 qp_mtu;
	u64 rmb_dma_addr;
	u32 psn;
	u8 eid[SMCR_CLC_EID_LEN];
	bool has_fce;
	struct smcr_clc_fce fce;
	u8 gid_cnt;
	u8 gids[SMCR_CLC_MAX_GIDS][SMCR_CLC_GID_LEN];
};

/**
 * struct smcr_clc_decline - decoded SMC Decline (A.2.5)
 * @version: 1 gives the 28 byte RFC layout, 2 and above the 44 byte
 *	Linux layout with @diag_v2
 * @out_of_sync: S bit, the link group is out of sync (C.4)
 * @peer_id: sender's peer ID (A.2.1)
 * @diag: peer diagnosis code (SMCR_CLC_DECL_*)
 * @os_type: sender OS (SMCR_CLC_OS_*), 4 bits
 * @diag_v2: additional diagnosis codes, zero for version 1
 */
struct smcr_clc_decline {
	u8 version;
	bool out_of_sync;
	u8 peer_id[SMCR_CLC_PEER_ID_LEN];
	u32 diag;
	u8 os_type;
	u32 diag_v2[SMCR_CLC_DECL_DIAG_V2_CNT];
};

int smcr_clc_hdr_decode(const u8 *buf, size_t len, struct smcr_clc_hdr *hdr);
int smcr_clc_check_trailer(const u8 *msg, size_t len);

int smcr_clc_proposal_len(const struct smcr_clc_proposal *p);
int smcr_clc_proposal_encode(const struct smcr_clc_proposal *p,
			     u8 *buf, size_t len);
int smcr_clc_proposal_decode(const u8 *buf, size_t len,
			     struct smcr_clc_proposal *p);

int smcr_clc_accept_confirm_len(const struct smcr_clc_accept_confirm *m);
int smcr_clc_accept_confirm_encode(const struct smcr_clc_accept_confirm *m,
				   u8 *buf, size_t len);
int smcr_clc_accept_confirm_decode(const u8 *buf, size_t len,
				   struct smcr_clc_accept_confirm *m);

int smcr_clc_decline_encode(const struct smcr_clc_decline *d,
			    u8 *buf, size_t len);
int smcr_clc_decline_decode(const u8 *buf, size_t len,
			    struct smcr_clc_decline *d);

void smcr_clc_terms_propose(const struct smcr_clc_terms *own,
			    struct smcr_clc_proposal *p);
u32 smcr_clc_terms_server(struct smcr_clc_terms *t,
			  const struct smcr_clc_proposal *p);
void smcr_clc_terms_fce(const struct smcr_clc_terms *t,
			struct smcr_clc_fce *fce);
u32 smcr_clc_terms_client(struct smcr_clc_terms *t,
			  const struct smcr_clc_fce *fce);
bool smcr_clc_terms_confirmed(const struct smcr_clc_terms *t,
			      const struct smcr_clc_accept_confirm *conf);

u8 smcr_clc_rmbe_size_compress(u32 bytes);
u32 smcr_clc_rmbe_size_decompress(u8 code);
u32 smcr_clc_mtu_to_bytes(u8 code);
u8 smcr_clc_mtu_from_bytes(u32 bytes);

#endif /* _SMCR_WIRE_CLC_H */
