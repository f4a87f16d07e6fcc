#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 600
#
# Group "rpcr-hostile-client": bad replies against OUR client (rpcr.ko on
# guest a). Guest b runs `rpcr_hostile --server CASE` on RDMA port 20049,
# a Responder that answers every call with one malformed reply (header
# version 2, short messages, a reply to no call, Write and Reply chunks
# the call never offered, a Read list in a reply, RDMA_ERRORs, credit
# grants of 0 and 0xffffffff, version 2 Sends with F_MORE that a call
# did not invite or that are no reply), and Linux's knfsd (its mountd for the
# MOUNT call of v3, and an honest RDMA listener on 20050). For each case
# a's `mount -o vers=3,proto=rdma,port=20049` must fail by itself within
# 60 s, leave nothing mounted and no kernel warning. Then our client
# mounts the honest server and moves files, and rmmod rpcr is clean.
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"

NFS_CLIENT_XPRT=ours
NFS_SERVER_XPRT=linux
HOSTILE=$SMCR_REPO/build/selftests/rpcr_hostile
HOSTILE_PORT=20049
# knfsd's own RDMA listener, away from the hostile one
HONEST_PORT=20050
CASES=(vers2 short short24 xid wlist wlist-past reply-long rlist
	err-chunk err-vers err-bogus rpc-short credit0 creditmax more more-call)
# a mount against a hostile server must end by itself within this
MOUNT_MAX_S=60

# _mount_fails: the mount of the hostile server fails, by itself, in time
_mount_fails() {
	local t0=$SECONDS rc=0

	mkdir -p "$NFS_MNT"
	timeout -k 5 $((MOUNT_MAX_S + 30)) mount -t nfs -o \
		"vers=3,proto=rdma,port=$HOSTILE_PORT,nolock,soft,timeo=30,retrans=1,retry=0" \
		"$SMCR_PEER_IP:$NFS_EXPORT" "$NFS_MNT" || rc=$?
	echo "mount: exit status $rc after $((SECONDS - t0))s"
	if ((rc == 0)); then
		echo "mounted a hostile server"
		timeout -k 5 30 umount -f "$NFS_MNT" || umount -l "$NFS_MNT"
		return 1
	fi
	((rc != 124 && rc != 137)) || { echo "mount did not end by itself"; return 1; }
	((SECONDS - t0 <= MOUNT_MAX_S)) || return 1
	! mountpoint -q "$NFS_MNT"
}

guest_b() {
	local c pid

	NFS_PORT=$HONEST_PORT nfs_server_start
	for c in "${CASES[@]}"; do
		"$HOSTILE" --server -p "$HOSTILE_PORT" -t 200 "$c" \
			</dev/null >"/tmp/hostile.$c" 2>&1 &
		pid=$!
		wait_rdma_listen "$HOSTILE_PORT" 30 >/dev/null
		barrier "srv-$c" 120
		barrier "cli-$c" 200
		kill -TERM "$pid" 2>/dev/null
		wait "$pid"
		cat "/tmp/hostile.$c"
	done
	barrier honest 120
	barrier nfs-done 300
	tap_check "no kernel warning (b)" dmesg_clean
}

guest_a() {
	local c

	nfs_xprt_load ours || return 1
	for c in "${CASES[@]}"; do
		barrier "srv-$c" 120 || return 1
		tap_check "our client, hostile server '$c': mount fails within ${MOUNT_MAX_S}s" \
			_mount_fails
		barrier "cli-$c" 200
	done
	tap_check "no kernel warning after the hostile servers (a)" dmesg_clean
	barrier honest 120
	NFS_PORT=$HONEST_PORT NFS_BIG_MIB=1 NFS_DIR_ENTRIES=50 nfs_workload v3 3
	tap_check "rmmod rpcr" timeout 60 rmmod rpcr
}

if [[ $SMCR_ROLE == a ]]; then
	guest_a
	barrier nfs-done 30
	tap_check "no kernel warning (a)" dmesg_clean
else
	guest_b
fi
exit 0
