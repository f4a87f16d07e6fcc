/* SPDX-License-Identifier: GPL-2.0 */
/* rpcr_svc: the server side, the svc_xprt class "rdma" */
#ifndef _RPCR_SVC_H
#define _RPCR_SVC_H

int rpcr_svc_init(void);
void rpcr_svc_exit(void);

#endif /* _RPCR_SVC_H */
