#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check and run_cell
# guests: a b
# timeout: 900
# rdma: siw
#
# Group "nfs-siw": NFS over iWARP. The guests have Soft-iWARP siw0 on eth0
# (siw.ko from scripts/vm/build-siw; no rxe0), whose limits differ from
# rxe's: 6 SGEs a WR, 1 SGE an RDMA Read, and RDMA Read sinks registered
# with REMOTE_WRITE. Both guests load rpcr.ko's counterpart once and swap
# machines, not modules, half way:
#   ours-v3, ours-v41, ours-v42, ours-v3-ip6, ours-v3-1k
#                       OUR client (rpcr.ko on a) against Linux's knfsd and
#                       svcrdma (rpcrdma on b): NFSv3 (its mount captured:
#                       MPA Request/Reply with the RFC 8797 private data,
#                       DDP/RDMAP opcodes, RPC-over-RDMA headers), NFSv4.1
#                       and NFSv4.2 (our backchannel), NFSv3 over IPv6
#                       (proto=rdma6 to the peer's fd77:: address: siw
#                       binds and connects AF_INET6 sockets), NFSv3 with
#                       inline thresholds at 1024 (Read, Write and Reply
#                       chunks all counted)
#   linux-v3, linux-v41, linux-v42, linux-v3-ip6
#                       Linux's client (rpcrdma on b) against OUR server
#                       (knfsd on a over rpcr.ko): NFSv3, captured too,
#                       NFSv4.1, NFSv4.2 and NFSv3 over IPv6
# Ours on both sides over siw is group nfs-siw2's.
# RDMA is proven by mountstats (xprt: rdma), the bytes of the TCP
# connection on port 20049 (siw has no hw_counters; NFS over TCP is 2049)
# and rpcr's tracepoints counting the calls. Each phase has a time budget,
# so a hanging first phase still leaves time for the second. Traces stay
# in the out dir: NAME.a.rpcr-client.trace, NAME.a.rpcr-server.trace
# (rpcr, all events) and NAME.b.rpcrdma.trace (Linux's rpcrdma, all events).
#   scripts/run-tests nfs-siw
# SMCR_GUEST_NFS_SIW_LINUX=1 scripts/run-tests nfs-siw runs Linux's
# rpcrdma on both guests instead (the harness' baseline).
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"

NFS_RXE=siw0
# A broken transport should not eat a phase on one step
NFS_OP_TIMEOUT=45
OURS=ours
[[ ${NFS_SIW_LINUX:-0} == 1 ]] && OURS=linux
# seconds a phase may take, mounts, I/O and unmounts: about 50 and 40 s
# when it works on a fast host, 130 to 210 s each on the 2-core hosts of
# 2026-11 (one workload 20 to 55 s); tscale'd by run_cell
PHASE1_S=360
PHASE2_S=360

# phase_client LABEL [v3-1k]: the client of a phase mounts the peer:
# v3, v4.1, v4.2, v3 over IPv6, then, asked for, the v3 with inline
# thresholds at 1024
phase_client() {
	local label=$1
	shift
	NFS_CAPTURE=/tmp/$label-v3.pcap nfs_workload "$label-v3" 3
	cp -f "/tmp/$label-v3.pcap" "$SMCR_OUT/$SMCR_NAME.$SMCR_ROLE.$label-v3.pcap" 2>/dev/null
	nfs_workload "$label-v41" 4.1
	nfs_workload "$label-v42" 4.2
	NFS_PROTO=rdma6 NFS_SERVER=$SMCR_PEER_IP6 nfs_workload "$label-v3-ip6" 3
	[[ ${1:-} == v3-1k ]] || return 0
	tap_check "$label: client inline thresholds 1024" inline_set 1024
	nfs_workload "$label-v3-1k" 3 "" 1
	inline_set 4096
}

# inline_set N: the client's inline thresholds, read when a mount connects
inline_set() {
	echo "$1" >/proc/sys/sunrpc/rdma_max_inline_read &&
		echo "$1" >/proc/sys/sunrpc/rdma_max_inline_write
}

# a: the client of phase 1 (rpcr.ko or, as the baseline, rpcrdma), then
# the server of phase 2 with the same module
guest_a() {
	NFS_CLIENT_XPRT=$OURS
	NFS_SERVER_XPRT=$OURS
	nfs_xprt_load "$OURS" || return 1
	if [[ $OURS == ours ]]; then
		echo "# rpcr.ko: $(stat -c '%y, %s bytes' "$NFS_RPCR_KO")," \
			"sha256 $(sha "$NFS_RPCR_KO")"
		nfs_trace_on rpcr
	fi
	barrier nfs-up 120 || return 1
	run_cell "$PHASE1_S" "phase 1 ($(nfs_xprt_name) client, Linux's server)" \
		phase_client "$OURS" v3-1k
	barrier phase1-done $((PHASE1_S + 30))
	if [[ $OURS == ours ]]; then
		tap_check "phase 1: rpcr traced calls sent" traced_at_least rpcr_call_send 100
		tap_check "phase 1: rpcr traced replies received" traced_at_least rpcr_reply_recv 100
		nfs_trace_save rpcr-client
	fi
	dmesg | grep -iE 'rpcr|rpcrdma|siw|nfs' | grep -v smcrvm | tail -n 20 | sed 's/^/# dmesg: /'

	nfs_server_start
	barrier nfs-up2 60
	barrier phase2-done $((PHASE2_S + 60))
	nfs_server_report
	if [[ $OURS == ours ]]; then
		tap_check "phase 2: rpcr traced calls received" traced_at_least rpcr_call_recv 100
		tap_check "phase 2: rpcr traced replies sent" traced_at_least rpcr_reply_send 100
		nfs_trace_save rpcr-server
	fi
	dmesg | grep -iE 'rpcr|rpcrdma|siw|nfs' | grep -v smcrvm | tail -n 20 | sed 's/^/# dmesg: /'
}

# b: Linux's server of phase 1, then Linux's client of phase 2
guest_b() {
	NFS_CLIENT_XPRT=linux
	NFS_SERVER_XPRT=linux
	nfs_server_start
	nfs_trace_on rpcrdma
	barrier nfs-up 120
	barrier phase1-done $((PHASE1_S + 60))
	nfs_server_report
	barrier nfs-up2 60 || return 1
	run_cell "$PHASE2_S" "phase 2 (Linux's client, $(NFS_CLIENT_XPRT=$OURS nfs_xprt_name) server)" \
		phase_client linux
	barrier phase2-done $((PHASE2_S + 30))
	nfs_trace_save rpcrdma
}

if [[ $SMCR_ROLE == a ]]; then guest_a; else guest_b; fi
tap_check "no kernel warning ($SMCR_ROLE)" dmesg_clean
exit 0
