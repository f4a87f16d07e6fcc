/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * smcr: what a program needs to open SMC sockets, with this project's
 * smcr.ko or with Linux's smc.ko, which have the same ABI. The one place
 * these values are written down in this tree: the module, the tools and
 * the tests all take them from here.
 */
#ifndef _UAPI_LINUX_SMCR_H
#define _UAPI_LINUX_SMCR_H

/* The address family, as <linux/socket.h> has it; C libraries older
 * than the family do not define it
 */
#ifndef AF_SMC
#define AF_SMC		43
#endif
#ifndef PF_SMC
#define PF_SMC		AF_SMC
#endif

/* socket(AF_SMC, SOCK_STREAM, protocol): the family of the TCP
 * connection underneath, which the handshake and any fallback use
 */
#define SMCPROTO_SMC	0	/* IPv4 */
#define SMCPROTO_SMC6	1	/* IPv6 */

/* socket(AF_INET or AF_INET6, SOCK_STREAM, IPPROTO_SMC): the same SMC
 * socket, opened in its IP family (Linux 6.11 on). C libraries and
 * kernel headers older than that lack it; include <netinet/in.h> or
 * <linux/in.h> before this header.
 */
#ifndef IPPROTO_SMC
#define IPPROTO_SMC	256
#endif

#endif /* _UAPI_LINUX_SMCR_H */
