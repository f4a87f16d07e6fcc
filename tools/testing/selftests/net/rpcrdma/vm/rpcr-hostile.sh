#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 480
#
# Group "rpcr-hostile": bad input from a peer against OUR server
# transport (rpcr.ko under knfsd on guest b). Guest a runs rpcr_hostile
# (tools/testing/selftests/net/rpcrdma/rpcr_hostile.c), a Requester that
# sends one crafted RPC-over-RDMA header a connection: short messages,
# unknown versions and procedures, chunk lists past the message's end or
# past any limit, Read and Reply chunks with handles never registered,
# more Sends than the credits granted. Each must get the RFC 8166 answer
# (ERR_VERS, ERR_CHUNK, a message under 28 bytes dropped) or a closed
# connection, never a crash or a hang; a NULL call afterwards is
# answered. Then Linux's client mounts the same server over RDMA (NFSv3)
# and writes and reads back its files: other clients keep working. The
# consoles must stay clean (the harness checks); b stops nfsd and
# unloads rpcr.ko at the end.
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"

NFS_CLIENT_XPRT=linux
NFS_SERVER_XPRT=ours
HOSTILE=$SMCR_REPO/build/selftests/rpcr_hostile
TRACE=/sys/kernel/tracing

# trace_counts: how often each of our tracepoints fired (diagnostics)
trace_counts() {
	grep -o ' rpcr_[a-z_]*:' $TRACE/trace | sort | uniq -c |
		awk '{ printf "# trace %s %s\n", $2, $1 }'
	grep ' rpcr_reply_drop:' $TRACE/trace | tail -n 5 | sed 's/^ */# /'
}

# nfsd_rdma_listens: the listener survived
nfsd_rdma_listens() {
	rdma resource show cm_id | grep "LISTEN.*:$NFS_PORT"
}

guest_b() {
	local ok=1

	nfs_xprt_load ours || ok=0
	mountpoint -q $TRACE || mount -t tracefs nodev $TRACE
	echo 8192 >$TRACE/buffer_size_kb
	echo 1 >$TRACE/events/rpcr/enable
	((ok)) && nfs_server_start
	barrier nfs-up 120
	barrier hostile-done 360
	trace_counts
	tap_check "b: knfsd still listens on rdma $NFS_PORT" nfsd_rdma_listens
	# the reply Write to the bogus Reply chunk handle is unsignaled
	tap_check "b: the failed reply Write is traced with its status" \
		grep -m 1 'rpcr_wc_error: .*REM_ACCESS_ERR' $TRACE/trace
	tap_check "no kernel warning after the hostile peer (b)" dmesg_clean
	barrier nfs-done 300
	nfs_server_report
	tap_check "rpc.nfsd 0, then rmmod rpcr" \
		bash -c 'rpc.nfsd 0 && timeout 60 rmmod rpcr'
	tap_check "no kernel warning (b)" dmesg_clean
}

guest_a() {
	local rc=0

	nfs_xprt_load linux || return 1
	barrier nfs-up 120 || return 1
	if [[ ! -x $HOSTILE ]]; then
		tap_fail "rpcr_hostile is built" "$HOSTILE missing (make selftests)"
	else
		# its own TAP lines, one a case; bounded by its 10 s a case
		timeout -k 5 300 "$HOSTILE" -t 10 "$NFS_SERVER" </dev/null 2>&1 || rc=$?
		if ((rc > 1)); then
			tap_fail "rpcr_hostile ran to its end" "exit status $rc"
		else
			tap_ok "rpcr_hostile ran to its end"
		fi
	fi
	barrier hostile-done 360
	# other clients: Linux's, over RDMA, its files written and read back
	NFS_BIG_MIB=1 NFS_DIR_ENTRIES=50 nfs_workload v3 3
}

if [[ $SMCR_ROLE == a ]]; then
	guest_a
	barrier nfs-done 30
	tap_check "no kernel warning (a)" dmesg_clean
else
	guest_b
fi
exit 0
