// SPDX-License-Identifier: GPL-2.0
/*
 * rpcr: RPC-over-RDMA for sunrpc, out of tree: version 1 (RFC 8166) and
 * version 2 (draft-ietf-nfsv4-rpcrdma-version-two, 17 November 2019).
 * Module set-up only: the client transport class is rpcr_xprt.c's, the
 * server's rpcr_svc.c's.
 */
#include <linux/module.h>

#include "rpcr_clnt.h"
#include "rpcr_proc.h"
#include "rpcr_svc.h"
#include "rpcr_sysctl.h"

static int __init rpcr_init(void)
{
	int rc;

	rc = rpcr_proc_init();
	if (rc)
		return rc;
	rc = rpcr_clnt_init();
	if (!rc) {
		rc = rpcr_svc_init();
		if (rc)
			rpcr_clnt_exit();
	}
	if (rc == -EEXIST)
		pr_err("rpcr: sunrpc has an RDMA transport already; unload Linux's rpcrdma first\n");
	if (rc)
		goto fail;
	rc = rpcr_sysctl_init();
	if (!rc)
		return 0;
	rpcr_svc_exit();
	rpcr_clnt_exit();
fail:
	rpcr_proc_exit();
	return rc;
}

static void __exit rpcr_exit(void)
{
	rpcr_sysctl_exit();
	rpcr_svc_exit();
	rpcr_clnt_exit();
	rpcr_proc_exit();
}

module_init(rpcr_init);
module_exit(rpcr_exit);

MODULE_DESCRIPTION("RPC-over-RDMA transport for sunrpc (RFC 8166, version 2 draft)");
MODULE_LICENSE("GPL");
