#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 420
#
# Group "nfs-client": OUR client transport (net/rpcrdma/rpcr.ko, insmod on
# guest a; Linux's rpcrdma is kept from loading there) against Linux's
# knfsd and svcrdma on guest b, with nfs-lib.sh's workload:
#   v3   NFSv3 over IPv4, -o vers=3,proto=rdma,port=20049 plus
#        $NFS_CLIENT_EXTRA_OPTS (none by default, e.g. "rsize=65536")
# The RoCEv2 frames of the mount are captured and decoded (CM private
# data, credits, headers) to show what our module put on the wire.
# Without rpcr.ko, a reports one "not ok" and both guests end at once.
#   scripts/run-tests nfs-client
set -uo pipefail
# shellcheck source=scripts/vm/guest-lib.sh
source "$SMCR_REPO/scripts/vm/guest-lib.sh"
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"

NFS_CLIENT_XPRT=ours
NFS_CLIENT_EXTRA_OPTS=${NFS_CLIENT_EXTRA_OPTS:-}
# A broken transport should not eat the whole deadline on one step
NFS_OP_TIMEOUT=60

guest_b() {
	# a says at once whether there is anything to serve
	barrier nfs-go 60 || return 1
	if [[ -e $SMCR_OUT/.nfs-client.no-ko ]]; then
		return 0
	fi
	nfs_server_start
	barrier nfs-up 120
	barrier nfs-done 400
	nfs_server_report
	tap_check "no kernel warning (b)" dmesg_clean
}

guest_a() {
	rm -f "$SMCR_OUT/.nfs-client.no-ko"
	if ! nfs_client_xprt_load ours; then
		: >"$SMCR_OUT/.nfs-client.no-ko"
		barrier nfs-go 60
		return 1
	fi
	barrier nfs-go 60
	barrier nfs-up 120 || return 1
	NFS_CAPTURE=/tmp/v3.pcap nfs_workload v3 3 "$NFS_CLIENT_EXTRA_OPTS"
	barrier nfs-done 30
	tap_check "rmmod rpcr" timeout 60 rmmod rpcr
	tap_check "no kernel warning (a)" dmesg_clean
}

if [[ $SMCR_ROLE == a ]]; then guest_a; else guest_b; fi
exit 0
