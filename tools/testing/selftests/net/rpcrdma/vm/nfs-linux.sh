#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 240
#
# Group "nfs-linux": Linux's rpcrdma on both guests, the baseline that
# proves the NFS harness (and the reference our transport is measured
# against). b runs knfsd exporting a tmpfs over RDMA port 20049; a mounts
# it over RDMA and runs nfs-lib.sh's workload (large, odd-sized and
# O_DIRECT I/O, a 300-entry READDIR, a symlink, RDMA proven by mountstats
# and the rxe counters) three times:
#   v3     NFSv3, IPv4; the RoCEv2 frames of the mount are captured and
#          the CM private data, credits and first headers reported
#   v41    NFSv4.1, IPv4
#   v3-1k  NFSv3 with the client's rdma_max_inline_read/write at 1024,
#          so that calls and replies between 1 and 4 KiB need chunks
#          (captured too): the 2000-byte O_DIRECT READ and WRITE, inline
#          in v3, go in a Write and a Read chunk
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"

NFS_CLIENT_XPRT=linux
INLINE=/proc/sys/sunrpc

guest_b() {
	nfs_server_start
	barrier nfs-up 120
	# a's whole workload; the deadline ends it anyway
	barrier nfs-done 400
	nfs_server_report
	tap_check "no kernel warning (b)" dmesg_clean
}

# inline_set N: the client's inline thresholds, read when a mount connects
inline_set() { echo "$1" >$INLINE/rdma_max_inline_read && echo "$1" >$INLINE/rdma_max_inline_write; }

# more_chunks BASE NOW: xprt lines of the same workload; NOW used more
# Write chunks and moved more bytes by RDMA Read (the 2000-byte O_DIRECT
# READ and WRITE went inline in BASE). Fields after "rdma": 10 generic,
# then read, write, reply chunks, bytes RDMA-read and -written, pullup and
# fixup copies
more_chunks() {
	printf '%s\n%s\n' "$1" "$2" | awk '
		{ w[NR] = $14; rr[NR] = $16; f[NR] = $19 }
		END { printf "write chunks %d -> %d, RDMA-read bytes %d -> %d, fixup copies %d -> %d\n",
				w[1], w[2], rr[1], rr[2], f[1], f[2]
			exit !(w[2] > w[1] && rr[2] > rr[1]) }'
}

guest_a() {
	local t0 v3

	nfs_client_xprt_load linux || return 1
	barrier nfs-up 120 || return 1
	t0=$SECONDS
	NFS_CAPTURE=/tmp/v3.pcap nfs_workload v3 3
	v3=$NFS_LAST_XPRT
	echo "# nfs v3 done at $((SECONDS - t0))s"
	nfs_workload v41 4.1
	echo "# nfs v4.1 done at $((SECONDS - t0))s"
	tap_check "client inline thresholds 1024" inline_set 1024
	NFS_CAPTURE=/tmp/v3-1k.pcap nfs_workload v3-1k 3 "" 1
	inline_set 4096
	tap_check "v3-1k: 2000-byte READ and WRITE in chunks, not inline as in v3" \
		more_chunks "$v3" "$NFS_LAST_XPRT"
	echo "# nfs v3 inline 1024 done at $((SECONDS - t0))s"
}

if [[ $SMCR_ROLE == a ]]; then
	guest_a
	barrier nfs-done 30
	nfs_rxe_counters_diag
	tap_check "no kernel warning (a)" dmesg_clean
else
	guest_b
fi
exit 0
