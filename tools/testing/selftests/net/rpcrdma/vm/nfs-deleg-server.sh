#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 150
#
# Group "nfs-deleg-server": nfs-deleg.sh the other way round: Linux's
# client on a, OUR server transport under knfsd on b, so the recall goes
# over our server's backchannel (rpcr_svc_bc.c): knfsd's CB_RECALL leaves
# as rpcr_bcall_send, the client's answer comes back as
# rpcr_bcall_reply_recv, and the delegation is returned in time.
#   scripts/run-tests nfs-deleg-server
export NFS_DELEG_XPRT=linux NFS_DELEG_SERVER_XPRT=ours
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-deleg.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-deleg.sh"
