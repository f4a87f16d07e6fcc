#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check and run_cell
# guests: a b
# timeout: 480
# rdma: siw
#
# Group "nfs-siw2": the rest of nfs-siw's interop matrix over Soft-iWARP
# (siw0 on eth0, no rxe0): rpcr.ko on both guests, OUR client (a) against
# knfsd over OUR server transport (b), nfs-lib.sh's workload:
#   v3      NFSv3 over IPv4 (its mount captured: MPA Request/Reply with
#           the RFC 8797 private data, DDP/RDMAP opcodes, headers)
#   v42     NFSv4.2 (a session with a backchannel on our client)
#   v3-ip6  NFSv3 over IPv6 (proto=rdma6 to the peer's fd77:: address):
#           siw 6.1 binds AF_INET6 listeners and connects AF_INET6 sockets
#   v42-ip6 NFSv4.2 over IPv6
# b checks that knfsd's "rdma 20049" listens for both address families on
# siw0, and that rpcr's tracepoints counted the calls on both sides.
# The cells have one time budget; past it they are stopped, reported
# and the mount detached. Traces stay in the out dir:
# NAME.a.rpcr-client.trace and NAME.b.rpcr-server.trace.
#   scripts/run-tests nfs-siw2
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"

NFS_RXE=siw0
# A broken transport should not eat the group on one step
NFS_OP_TIMEOUT=45
NFS_CLIENT_XPRT=ours
NFS_SERVER_XPRT=ours
# seconds the cells may take, mounts, I/O and unmounts: 45 to 60 s when
# they work on a fast host, about 105 s on the 2-core hosts of 2026-11;
# tscale'd by run_cell
CELLS_S=300

# cells: our client against our server, IPv4 then IPv6
cells() {
	NFS_CAPTURE=/tmp/v3.pcap nfs_workload v3 3
	cp -f /tmp/v3.pcap "$SMCR_OUT/$SMCR_NAME.$SMCR_ROLE.v3.pcap" 2>/dev/null
	nfs_workload v42 4.2
	NFS_PROTO=rdma6 NFS_SERVER=$SMCR_PEER_IP6 nfs_workload v3-ip6 3
	NFS_PROTO=rdma6 NFS_SERVER=$SMCR_PEER_IP6 nfs_workload v42-ip6 4.2
}

guest_a() {
	nfs_xprt_load ours || return 1
	echo "# rpcr.ko: $(stat -c '%y, %s bytes' "$NFS_RPCR_KO"), sha256 $(sha "$NFS_RPCR_KO")"
	nfs_trace_on rpcr
	barrier nfs-up 120 || return 1
	run_cell "$CELLS_S" "our client, our server over siw" cells
	barrier nfs-done $((CELLS_S + 30))
	tap_check "rpcr traced calls sent" traced_at_least rpcr_call_send 100
	tap_check "rpcr traced replies received" traced_at_least rpcr_reply_recv 100
	nfs_trace_save rpcr-client
	dmesg | grep -iE 'rpcr|siw|nfs' | grep -v smcrvm | tail -n 20 | sed 's/^/# dmesg: /'
	tap_check "rmmod rpcr" timeout 60 rmmod rpcr
}

guest_b() {
	nfs_xprt_load ours || return 1
	nfs_trace_on rpcr
	nfs_server_start
	tap_check "rdma 20049 listens for IPv4 and IPv6 on siw0" nfs_rdma_listens_both
	barrier nfs-up 120 && barrier nfs-done $((CELLS_S + 60))
	nfs_server_report
	tap_check "rpcr traced calls received" traced_at_least rpcr_call_recv 100
	tap_check "rpcr traced replies sent" traced_at_least rpcr_reply_send 100
	nfs_trace_save rpcr-server
	dmesg | grep -iE 'rpcr|siw|nfs' | grep -v smcrvm | tail -n 20 | sed 's/^/# dmesg: /'
	tap_check "rpc.nfsd 0, then rmmod rpcr" \
		bash -c 'rpc.nfsd 0 && timeout 60 rmmod rpcr'
}

if [[ $SMCR_ROLE == a ]]; then guest_a; else guest_b; fi
tap_check "no kernel warning ($SMCR_ROLE)" dmesg_clean
exit 0
