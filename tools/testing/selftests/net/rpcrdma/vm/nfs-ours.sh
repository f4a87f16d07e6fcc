#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 300
#
# Group "nfs-ours": rpcr.ko on both guests, our client (a) against our
# server (b) under Linux's NFS client and knfsd, nfs-lib.sh's workload:
#   v3     NFSv3 over IPv4
#   v42    NFSv4.2 (a session with a backchannel on our client)
#   v3-1k  NFSv3 with our client's inline thresholds at 1024: both sides'
#          Read, Write and Reply chunks
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"

NFS_CLIENT_XPRT=ours
NFS_SERVER_XPRT=ours
INLINE=/proc/sys/sunrpc

inline_set() { echo "$1" >"$INLINE/rdma_max_inline_read" && echo "$1" >"$INLINE/rdma_max_inline_write"; }

guest_b() {
	nfs_xprt_load ours && nfs_server_start
	barrier nfs-up 120
	barrier nfs-done 400
	nfs_server_report
	tap_check "rpc.nfsd 0, then rmmod rpcr" \
		bash -c 'rpc.nfsd 0 && timeout 60 rmmod rpcr'
	tap_check "no kernel warning (b)" dmesg_clean
}

guest_a() {
	nfs_xprt_load ours || return 1
	barrier nfs-up 120 || return 1
	nfs_workload v3 3
	nfs_workload v42 4.2
	tap_check "client inline thresholds 1024" inline_set 1024
	nfs_workload v3-1k 3 "" 1
}

if [[ $SMCR_ROLE == a ]]; then
	guest_a
	barrier nfs-done 30
	tap_check "rmmod rpcr" timeout 60 rmmod rpcr
	tap_check "no kernel warning (a)" dmesg_clean
else
	guest_b
fi
exit 0
