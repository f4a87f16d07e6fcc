// SPDX-License-Identifier: GPL-2.0
/*
 * smcr: Shared Memory Communications over RDMA (RFC 7609).
 *
 * Module entry points: register every layer in order, unwind in reverse.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/smc.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "smcr.h"
#include "smcr_buf.h"
#include "smcr_cdc.h"
#include "smcr_links.h"
#include "smcr_llc.h"
#include "smcr_pnet.h"
#include "smcr_stats.h"
#include "smcr_sysctl.h"
#include "smcr_ueid.h"

struct proto smcr_proto = {
	.name		= "SMCR",
	.owner		= THIS_MODULE,
	.obj_size	= sizeof(struct smcr_sock),
	.slab_flags	= SLAB_TYPESAFE_BY_RCU,
	.release_cb	= smcr_cdc_release_cb,
};

/* Handshakes, non-blocking connects and listeners' accept loops. Its
 * max_active can be tuned in /sys/devices/virtual/workqueue/smcr_hs; a
 * listener limiting its handshakes looks at how full it is (smcr_listen.c).
 */
struct workqueue_struct *smcr_hs_wq;

/* Answers to the peers' LLC requests, one work item per link at most:
 * apart from the handshakes, so a peer's flood cannot stall them
 */
struct workqueue_struct *smcr_llc_wq;

/* /sys/kernel/debug/smcr: counters for tests, no ABI */
static struct dentry *smcr_debugfs;

/* what the device layer tells the groups and the PNET table */
static const struct smcr_ib_handlers smcr_ib_handlers = {
	.added		= smcr_pnet_ib_added,
	.removing	= smcr_lgr_dev_removing,
	.port_err	= smcr_lgr_port_err,
	.port_up	= smcr_lgr_port_up,
};

static int __init smcr_init(void)
{
	int rc;

	rc = proto_register(&smcr_proto, 1);
	if (rc)
		return rc;

	smcr_hs_wq = alloc_workqueue("smcr_hs", WQ_UNBOUND | WQ_SYSFS, 0);
	if (!smcr_hs_wq) {
		rc = -ENOMEM;
		goto out_proto;
	}
	smcr_llc_wq = alloc_workqueue("smcr_llc", WQ_UNBOUND, 0);
	if (!smcr_llc_wq) {
		rc = -ENOMEM;
		goto out_hs_wq;
	}

	/* what links hand up, before the first link can exist */
	smcr_link_register_rx(SMCR_WR_CDC, smcr_cdc_rx);
	smcr_link_register_rx(SMCR_WR_LLC, smcr_llc_rx);
	smcr_link_register_down(smcr_lgr_link_down);
	smcr_lgr_register_move(smcr_tx_move);
	smcr_links_init();

	rc = smcr_ib_init(&smcr_ib_handlers);
	if (rc)
		goto out_wq;

	/* before the first socket: every namespace counts from its start */
	rc = smcr_stats_init();
	if (rc)
		goto out_ib;

	rc = smcr_diag_init();
	if (rc)
		goto out_stats;

	rc = smcr_af_init();
	if (rc)
		goto out_diag;

	/* TCP adds the SMC option to SYNs only while this key is on */
	static_branch_inc(&tcp_have_smc);

	/* last: configuration requests come once everything is up */
	rc = smcr_netlink_init();
	if (rc)
		goto out_af;
	rc = smcr_pnet_init();
	if (rc)
		goto out_netlink;
	/* sockets of the moment before have the defaults (smcr_sysctl.c) */
	rc = smcr_sysctl_init();
	if (rc)
		goto out_pnet;
	smcr_debugfs = debugfs_create_dir("smcr", NULL);
	smcr_buf_debugfs(smcr_debugfs);
	return 0;

out_pnet:
	smcr_pnet_exit();
out_netlink:
	smcr_netlink_exit();
out_af:
	static_branch_dec(&tcp_have_smc);
	smcr_af_exit();
	smcr_lgr_terminate_all(NULL);
	flush_workqueue(smcr_hs_wq);
	flush_workqueue(smcr_llc_wq);
out_diag:
	smcr_diag_exit();
out_stats:
	smcr_stats_exit();
out_ib:
	smcr_ib_exit();
out_wq:
	destroy_workqueue(smcr_llc_wq);
out_hs_wq:
	destroy_workqueue(smcr_hs_wq);
out_proto:
	proto_unregister(&smcr_proto);
	return rc;
}

static void __exit smcr_exit(void)
{
	debugfs_remove(smcr_debugfs);
	/* first: no configuration request runs past this point */
	smcr_sysctl_exit();
	smcr_pnet_exit();
	smcr_netlink_exit();
	smcr_ueid_flush();
	static_branch_dec(&tcp_have_smc);
	smcr_af_exit();
	smcr_diag_exit();
	/* no socket is left: only idle link groups */
	smcr_lgr_terminate_all(NULL);
	flush_workqueue(smcr_hs_wq);
	flush_workqueue(smcr_llc_wq);
	smcr_stats_exit();
	smcr_ib_exit();
	smcr_links_exit();
	destroy_workqueue(smcr_llc_wq);
	destroy_workqueue(smcr_hs_wq);
	proto_unregister(&smcr_proto);
}

module_init(smcr_init);
module_exit(smcr_exit);

/* What the kernel asks for when it needs what this module provides: an
 * AF_SMC socket, the two generic netlink families, sock_diag for AF_SMC,
 * and where the kernel has it an IPPROTO_SMC socket.
 * Linux's smc.ko and smc_diag.ko answer to the same names; the modprobe.d
 * file `make install` puts in place blacklists them.
 */
MODULE_ALIAS_NETPROTO(PF_SMC);
MODULE_ALIAS_GENL_FAMILY(SMC_GENL_FAMILY_NAME);
MODULE_ALIAS_GENL_FAMILY(SMCR_GENL_FAMILY_NAME);
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_NETLINK, NETLINK_SOCK_DIAG, AF_SMC);
#ifdef SMCR_HAVE_IPPROTO_SMC
/* IPPROTO_SMC, SOCK_STREAM: as numbers, an enum's name is not expanded */
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_INET, 256, 1);
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_INET6, 256, 1);
#endif
MODULE_DESCRIPTION("Shared Memory Communications over RDMA (SMC-R, RFC 7609)");
MODULE_LICENSE("GPL");
