#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 300
#
# Group "nfs-server": OUR server transport (rpcr.ko on guest b, under
# Linux's knfsd, which finds its "rdma" class for 'rdma 20049') and
# Linux's client (rpcrdma on guest a), with nfs-lib.sh's workload:
#   v3     NFSv3 over IPv4 (captured: CM private data, credits, headers)
#   v41    NFSv4.1
#   v42    NFSv4.2
#   v3-ip6 NFSv3 over IPv6 (proto=rdma6)
#   v3-1k  NFSv3 with the client's inline thresholds at 1024: calls and
#          replies between 1 and 4 KiB come in Read chunks and go out in
#          Write and Reply chunks
# b grants 48 credits (svc_rdma/max_requests; a sees them in the capture)
# and checks that it spoke RPC-over-RDMA version 1 as Linux's client
# does (rpcr_svc_vers), that its svc_rdma counters rose, that both address families
# listen on the one port, that
# rmmod is refused while nfsd's listeners hold the module, that a
# listener whose port is taken fails without losing a module reference,
# and that rmmod works once nfsd has stopped.
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"

NFS_CLIENT_XPRT=linux
NFS_SERVER_XPRT=ours
INLINE=/proc/sys/sunrpc
CREDITS=48

# calls_taken: our server's tracepoint counted the calls it received
# draft §4.3.3: a server answers in the version of the client's calls
spoke_v1() {
	nfs_traced 'rpcr_svc_vers: .* v1 \(first call\)' &&
		! grep -q 'rpcr_svc_vers: .* v2 ' /sys/kernel/tracing/trace
}

calls_taken() {
	local n
	n=$(grep -c rpcr_call_recv /sys/kernel/tracing/trace)
	echo "calls received by rpcr: $n"
	((n > 100))
}

# stat_rose NAME: svc_rdma/rdma_stat_NAME counted something
stat_rose() {
	local n
	n=$(cat "$INLINE/svc_rdma/rdma_stat_$1")
	echo "rdma_stat_$1: $n"
	((n > 0))
}

# server_credits PCAP: every message from the server granted $CREDITS
server_credits() {
	local line
	line=$(python3 "$NFS_PCAP_PY" "$1" | grep "^credits $SMCR_PEER_IP->")
	echo "$line"
	[[ $line =~ :\ $CREDITS\ x[0-9]+$ ]]
}

# listen_taken: "rdma 20050" while rping holds that port of the CM's TCP
# port space: knfsd's write fails, and rpcr.ko's reference count stays
# (a failed ->xpo_create dropped one more, and nfsd's last put warned)
listen_taken() {
	local pid before after rc=0
	rping -s -a 0.0.0.0 -p 20050 </dev/null >/tmp/rping.log 2>&1 &
	pid=$!
	wait_rdma_listen 20050 10 || rc=1
	before=$(cat /sys/module/rpcr/refcnt)
	echo "rdma 20050" 2>/dev/null >/proc/fs/nfsd/portlist && rc=1
	after=$(cat /sys/module/rpcr/refcnt)
	kill "$pid"
	wait "$pid" 2>/dev/null
	echo "# rpcr refcnt: $before before, $after after"
	((rc == 0)) && [[ $before == "$after" ]]
}

guest_b() {
	local ok=1 n

	nfs_xprt_load ours || ok=0
	echo $CREDITS >$INLINE/svc_rdma/max_requests || ok=0
	echo 1 >/sys/kernel/tracing/events/rpcr/rpcr_call_recv/enable
	echo 1 >/sys/kernel/tracing/events/rpcr/rpcr_svc_vers/enable
	echo 20000 >/sys/kernel/tracing/buffer_size_kb
	((ok)) && nfs_server_start
	# before the client connects, which takes module references too
	tap_check "a listener whose port is taken fails, rpcr's module count kept" \
		listen_taken
	barrier nfs-up 120
	tap_check "rdma 20049 listens for IPv4 and IPv6" nfs_rdma_listens_both
	tap_check "rmmod rpcr is refused while nfsd listens" \
		bash -c '! rmmod rpcr 2>/dev/null && grep -q "^rpcr " /proc/modules'
	# a's whole workload; the deadline ends it anyway
	barrier nfs-done 400
	nfs_server_report
	tap_check "the calls came through our server" calls_taken
	tap_check "Linux's client spoke version 1, so did our server" spoke_v1
	for n in recv read write; do
		tap_check "svc_rdma/rdma_stat_$n counted" stat_rose "$n"
	done
	tap_check "rpc.nfsd 0 stops the listeners" rpc.nfsd 0
	tap_check "rmmod rpcr then succeeds" timeout 60 rmmod rpcr
	tap_check "no kernel warning (b)" dmesg_clean
}

inline_set() { echo "$1" >"$INLINE/rdma_max_inline_read" && echo "$1" >"$INLINE/rdma_max_inline_write"; }

guest_a() {
	local t0

	nfs_xprt_load linux || return 1
	barrier nfs-up 120 || return 1
	t0=$SECONDS
	NFS_CAPTURE=/tmp/v3.pcap nfs_workload v3 3
	tap_check "our server granted svc_rdma/max_requests credits" \
		server_credits /tmp/v3.pcap
	nfs_workload v41 4.1
	nfs_workload v42 4.2
	echo "# v3, v4.1, v4.2 done at $((SECONDS - t0))s"
	NFS_PROTO=rdma6 NFS_SERVER=$SMCR_PEER_IP6 nfs_workload v3-ip6 3
	tap_check "client inline thresholds 1024" inline_set 1024
	nfs_workload v3-1k 3 "" 1
	inline_set 4096
	echo "# all done at $((SECONDS - t0))s"
}

if [[ $SMCR_ROLE == a ]]; then
	guest_a
	barrier nfs-done 30
	tap_check "no kernel warning (a)" dmesg_clean
else
	guest_b
fi
exit 0
