#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
#
# NFS profile, inside each guest (scripts/bench nfs-profile): where a 4 KiB
# random read's time goes, Linux's rpcrdma against our rpcr.ko, both
# guests on the same transport in turn. Guest b is knfsd exporting a
# tmpfs, guest a mounts it NFSv3 and runs fio (O_DIRECT, depth 8) for
# SECS seconds; meanwhile each guest
#   - counts, over a window of WIN seconds, its CPU ticks (busy, softirq,
#     system), context switches, RoCE packets and virtio interrupts, each
#     per call;
#   - traces for 2 s with function_graph, at depth 2, the transport's
#     entry points on the call's path and the functions they call first,
#     and prints each one's calls and mean duration (children included).
# The durations include interrupts taken meanwhile, and the trace costs
# time itself: compare the transports, not absolute numbers. Not a test.
#
# Parameters come from $SMCR_OUT/bench-nfs-profile.conf (SECS, WIN).
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"
# shellcheck source=scripts/bench-guest/profile-lib.sh
source "$SMCR_REPO/scripts/bench-guest/profile-lib.sh"

SECS=30 WIN=12
if [[ -r $SMCR_OUT/bench-nfs-profile.conf ]]; then
	# shellcheck source=/dev/null
	source "$SMCR_OUT/bench-nfs-profile.conf"
fi
NFS_OP_TIMEOUT=$((SECS + 120))
MiB=1048576

# Top of the graph: what each side calls per message; below them, the
# functions worth a line of their own (Linux's names, then ours)
GRAPH_TOP=(xprt_rdma_send_request rpcrdma_reply_handler svc_rdma_sendto
	svc_rdma_recvfrom rpcr_send_request rpcr_reply_recv rpcr_svc_sendto
	rpcr_svc_recvfrom)
GRAPH_MORE=(rpcrdma_marshal_req frwr_send frwr_map frwr_reminv
	rpcrdma_complete_rqst rpcrdma_post_recvs svc_rdma_send
	svc_rdma_send_write_chunk svc_rdma_send_reply_msg
	rpcr_call_marshal rpcr_ep_send rpcr_ep_sbuf_get rpcr_frwr_map
	rpcr_frwr_release rpcr_reply_ddp rpcr_hdr_decode rpcr_hdr_encode
	rpcr_ep_send_writes rpcr_ep_write_add rpcr_hdr_inv_handle
	xprt_request_get_cong xprt_lookup_rqst xprt_complete_rqst
	read_bytes_from_xdr_buf svc_xprt_received)

# rmmod_wait MODULE: unload, retrying while connections still go away
rmmod_wait() {
	local i
	grep '^'"$1"' ' /proc/modules >/dev/null || return 0
	for ((i = 0; i < 60; i++)); do
		rmmod "$1" 2>/dev/null && return 0
		sleep 1
	done
	rmmod "$1"
}

# unload_xprt: whichever RPC-over-RDMA module is in
unload_xprt() { rmmod_wait rpcrdma && rmmod_wait rpcr; }

# calls: RPC calls this guest sent (a) or served (b) so far
calls() {
	if [[ $SMCR_ROLE == a ]]; then
		nfs_xprt_line | awk '{ print $8 }'
	else
		awk '/^rpc / { print $2 }' /proc/net/rpc/nfsd
	fi
}

# counters: one line of "name value" pairs, the calls first
counters() { prof_counters "$(calls)" "$NFS_RXE"; }

# profile XPRT: this guest's numbers while fio runs, into $SMCR_OUT
profile() {
	local before after out=$SMCR_OUT/nfs-profile.$SMCR_ROLE.$1
	sleep 3
	prof_graph 2 2 "${GRAPH_TOP[@]}" -- "${GRAPH_MORE[@]}" >"$out.graph"
	before=$(counters)
	sleep "$WIN"
	after=$(counters)
	echo "$before" >"$out.before"
	echo "$after" >"$out.after"
}

# ---------------------------------------------------------------- server

guest_b() {
	local x
	modprobe nfsd
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd
	echo $MiB >/proc/fs/nfsd/max_block_size
	for x in linux ours; do
		NFS_SERVER_XPRT=$x
		nfs_xprt_load "$x" || return 1
		if [[ $x == linux ]]; then
			nfs_server_start || return 1
		else
			tap_check "rpc.nfsd 8 with rdma $NFS_PORT (rpcr.ko)" bash -c \
				"rpc.nfsd 8 && echo 'rdma $NFS_PORT' >/proc/fs/nfsd/portlist" ||
				return 1
			wait_rdma_listen "$NFS_PORT" 30 || return 1
		fi
		barrier "up-$x" 300 || return 1
		barrier "go-$x" 300 || return 1
		profile "$x"
		barrier "done-$x" $((SECS + 120)) || return 1
		tap_check "rpc.nfsd 0 (b)" rpc.nfsd 0
		tap_check "rmmod the transport (b)" unload_xprt
	done
	tap_check "no kernel warning (b)" dmesg_clean
}

# ---------------------------------------------------------------- client

# report XPRT: both guests' numbers as "# bench: " lines
report() {
	local r out
	for r in a b; do
		out=$SMCR_OUT/nfs-profile.$r.$1
		[[ -r $out.after ]] || continue
		echo "$1 $r, in ${WIN}s: $(prof_per_unit "$(cat "$out.before")" "$(cat "$out.after")" call)"
		sed "s/^/$1 $r: /" "$out.graph"
	done
}

guest_a() {
	local x f iops
	for x in linux ours; do
		nfs_xprt_load "$x" || return 1
		barrier "up-$x" 300 || return 1
		tap_check "$x: mount" nfs_mount 3 "rsize=$MiB,wsize=$MiB,hard,timeo=600" ||
			return 1
		f=$NFS_MNT/profile
		tap_check "$x: 64 MiB file laid out" nfs_t dd if=/dev/zero of="$f" \
			bs=1M count=64 oflag=direct status=none
		barrier "go-$x" 300 || return 1
		profile "$x" &
		nfs_t fio --output-format=json --output=/tmp/fio.json --name=r \
			--filename="$f" --size=64M --rw=randread --bs=4k \
			--ioengine=libaio --direct=1 --iodepth=8 --time_based \
			--runtime="$SECS" --randrepeat=0 --fallocate=none >/dev/null 2>&1
		wait
		iops=$(python3 -c 'import json, sys
print("%.0f" % json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"])' /tmp/fio.json)
		tap_check "$x: fio ran" test -n "$iops"
		tap_check "$x: unmount" nfs_umount
		barrier "done-$x" 120
		echo "# bench: $x: 4 KiB random read, depth 8: $iops IOPS (tracing 2 s of it)"
		tap_check "rmmod the transport (a)" unload_xprt
		sleep 1
		report "$x" | sed 's/^/# bench: /'
	done
	tap_check "no kernel warning (a)" dmesg_clean
}

if [[ $SMCR_ROLE == a ]]; then
	guest_a
else
	guest_b
fi
exit 0
