#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 420
#
# Group "nfs-client": OUR client transport (net/rpcrdma/rpcr.ko, insmod on
# guest a; Linux's rpcrdma is kept from loading there) against Linux's
# knfsd and svcrdma on guest b, with nfs-lib.sh's workload:
#   v3        NFSv3 over IPv4, -o vers=3,proto=rdma,port=20049 plus
#             $NFS_CLIENT_EXTRA_OPTS (none by default, e.g. "rsize=65536"
#             with SMCR_GUEST_NFS_CLIENT_EXTRA_OPTS=rsize=65536 on the host);
#             the RoCEv2 frames of the mount are captured and decoded (CM
#             private data, credits, headers) to show what we put on the
#             wire: our client's first call in RPC-over-RDMA version 2,
#             knfsd's ERR_VERS (version 1 only), the same call again and
#             the rest in version 1 (rpcr_xprt_vers says so too)
#   v3-ip6    the same over IPv6 (proto=rdma6, [fd77::2]); b's knfsd
#             must listen for RDMA on both families
#   v3-1k     our rdma_max_inline_read/write sysctls at 1024 (not ok when
#             rpcr.ko has none), plus a symlink with a 2000-character
#             target and `ls -l` of the 300 entries: Read, Write and
#             Reply chunks must all be counted
#   busy      rmmod rpcr is refused while a mount uses it
#   rc-sysfs  a 24 MiB write whose connection the client drops a third of
#             the way in (sysfs dstaddr): it reconnects and the file is whole
#   rc-link   the same with every RoCEv2 frame dropped at b, both ways,
#             for 3 s (timeo=100,retrans=2): the QP's retransmission
#             bridges it, or the RPC timeout or the server's disconnect
#             makes the transport connect again; rpcr's events of the
#             cell go to NAME.a.rpcr-rc-link.trace, its RoCEv2 frames to
#             NAME.a.rc-link.pcap
# then rmmod rpcr once unmounted.
# Without rpcr.ko, a reports one "not ok" and both guests end at once.
#   scripts/run-tests nfs-client
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"

NFS_CLIENT_XPRT=ours
NFS_CLIENT_EXTRA_OPTS=${NFS_CLIENT_EXTRA_OPTS:-}
# A broken transport should not eat the whole deadline on one step
NFS_OP_TIMEOUT=60
INLINE=/proc/sys/sunrpc
# The reconnect cells' file: large enough for many WRITEs in flight
BREAK_MIB=24
FLAP_S=3

guest_b() {
	# a says at once whether there is anything to serve
	barrier nfs-go 60 || return 1
	if [[ -e $SMCR_OUT/.nfs-client.no-ko ]]; then
		return 0
	fi
	nfs_server_start
	tap_check "knfsd listens for RDMA on IPv4 and IPv6" nfs_rdma_listens_both
	barrier nfs-up 120
	# rc-link: a asks once its write is a third done
	if barrier nfs-flap 300; then
		nfs_capture_start "$SMCR_OUT/$SMCR_NAME.b.rc-link.pcap"
		tap_check "RoCEv2 dropped both ways for ${FLAP_S}s (rc-link)" \
			nfs_roce_blackout "$FLAP_S"
		barrier nfs-flapped 120
	fi
	barrier nfs-done 120
	nfs_capture_stop
	# kept when a's rc-link cell failed
	if [[ -e $SMCR_OUT/.nfs-client.rc-link-ok ]]; then
		rm -f "$SMCR_OUT/$SMCR_NAME.b.rc-link.pcap"
	fi
	nfs_server_report
	tap_check "no kernel warning (b)" dmesg_clean
}

# ---------------------------------------------------------------- v3-ip6

_ip6_addr() {
	ip -6 addr show dev eth0 | grep "inet6 $SMCR_SELF_IP6/64" >/dev/null ||
		ip -6 addr add "$SMCR_SELF_IP6/64" dev eth0 nodad || return 1
	ip -6 addr show dev eth0 scope global
	ping -6 -c 1 -W 5 "$SMCR_PEER_IP6" | grep 'bytes from'
}

# _ip6_mounted: the kernel took the IPv6 address and netid
_ip6_mounted() {
	local l
	l=$(awk -v m="$NFS_MNT" '$2 == m' /proc/mounts)
	echo "$l"
	[[ $l == *proto=rdma6* && $l == *addr=$SMCR_PEER_IP6* ]]
}

ip6_extra() {
	[[ $1 == write ]] || return 0
	tap_check "$2: mounted with proto=rdma6 from $SMCR_PEER_IP6" _ip6_mounted
}

# ---------------------------------------------------------------- v3-1k

LONG_TARGET=
for ((i = 0; i < 31; i++)); do LONG_TARGET+="$(printf 'c%02d%060d/' "$i" 0)"; done
LONG_TARGET+=0123456789abcdef
unset i

# _inline_set N: both thresholds of our module to N, read at connect
_inline_set() {
	local f ok=1

	for f in "$INLINE"/rdma_max_inline_{read,write}; do
		[[ -w $f ]] || { echo "$f does not exist: rpcr.ko has no such sysctl (yet)"; ok=0; }
	done
	((ok)) || return 1
	echo "$1" >"$INLINE/rdma_max_inline_read" &&
		echo "$1" >"$INLINE/rdma_max_inline_write" || return 1
	grep -H . "$INLINE"/rdma_max_inline_{read,write}
}

_long_symlink() { ln -s "$LONG_TARGET" "$1"; }

_long_readlink() {
	local t
	t=$(nfs_t readlink "$1") || return 1
	echo "readlink: ${#t} characters"
	[[ $t == "$LONG_TARGET" ]]
}

# _ls_l DIR N: ls -l (READDIRPLUS, attributes) shows N regular files
_ls_l() {
	local n
	n=$(nfs_t ls -l "$1" | grep -c '^-')
	echo "ls -l: $n files"
	((n == $2))
}

inline_extra() {
	case $1 in
	write)
		tap_check "$2: symlink with a ${#LONG_TARGET}-character target" \
			_long_symlink "$3/longlink"
		;;
	read)
		tap_check "$2: readlink gives the ${#LONG_TARGET}-character target" \
			_long_readlink "$3/longlink"
		tap_check "$2: ls -l lists $NFS_DIR_ENTRIES files" \
			_ls_l "$3/dir" "$NFS_DIR_ENTRIES"
		;;
	esac
}

cell_inline_1k() {
	local r w

	r=$(cat "$INLINE/rdma_max_inline_read" 2>/dev/null)
	w=$(cat "$INLINE/rdma_max_inline_write" 2>/dev/null)
	if ! tap_check "v3-1k: our rdma_max_inline_read/write at 1024" _inline_set 1024; then
		echo "# v3-1k: runs at the default thresholds"
	fi
	NFS_EXTRA=inline_extra nfs_workload v3-1k 3 "$NFS_CLIENT_EXTRA_OPTS" 1
	[[ -n $r ]] && echo "$r" >"$INLINE/rdma_max_inline_read"
	[[ -n $w ]] && echo "$w" >"$INLINE/rdma_max_inline_write"
}

# ---------------------------------------------------------------- busy

# _rmmod_refused: the module stays, "in use"
_rmmod_refused() {
	local out

	if out=$(timeout 30 rmmod rpcr 2>&1); then
		echo "rmmod rpcr succeeded under a mount"
		return 1
	fi
	echo "$out"
	[[ $out == *"in use"* ]] && grep -q '^rpcr ' /proc/modules
}

cell_busy() {
	tap_check "busy: mount" nfs_mount 3 "$NFS_CLIENT_EXTRA_OPTS" || return 1
	tap_check "busy: rmmod rpcr refused while mounted" _rmmod_refused
	tap_check "busy: unmount" nfs_umount
}

# ---------------------------------------------------------------- rc-*

# _flap_b: b takes its link down and up; the write goes on meanwhile
_flap_b() {
	: >/tmp/nfs-flap-asked
	barrier nfs-flap 60
}

# cell_reconnect LABEL OPTS BREAK_CMD...: a $BREAK_MIB MiB write through a
# broken connection; the connection count rises and the file is whole
cell_reconnect() {
	local label=$1 opts=$2 c0 r0 src=/tmp/nfs-src/break rc=0
	shift 2

	[[ -s $src ]] || head -c $((BREAK_MIB << 20)) /dev/urandom >"$src"
	tap_check "$label: mount -o $(nfs_opts 3 "$opts")" nfs_mount 3 "$opts" ||
		return 1
	c0=$(nfs_connects)
	r0=$(nfs_rxe_counter completer_retry_err)
	tap_check "$label: $BREAK_MIB MiB write (conv=fsync) goes on through the break" \
		nfs_write_through_break "$src" "$NFS_MNT/$label" "$@" || rc=1
	if [[ ${RC_RETRY_OK:-0} == 1 ]]; then
		tap_check "$label: the QP retransmitted past the break, or the transport connected again" \
			_nfs_recovered "$c0" "$r0" || rc=1
	else
		tap_check "$label: the transport connected again" \
			_nfs_connects_rose "$c0" || rc=1
	fi
	echo "# $label: $(nfs_xprt_line | tr -s ' \t' ' ')"
	tap_check "$label: unmount and mount again" _nfs_remount 3 || rc=1
	tap_check "$label: $BREAK_MIB MiB file read back, SHA-256 equal" \
		same_file "$NFS_MNT/$label" "$src" || rc=1
	tap_check "$label: unmount" nfs_umount || rc=1
	return "$rc"
}

# _nfs_recovered CONNECTS RETRIES: the transport reconnected, or its RC
# QP retransmitted (rxe's completer_retry_err rose) and needed no new
# connection
_nfs_recovered() {
	local r
	r=$(nfs_rxe_counter completer_retry_err)
	echo "completer_retry_err $2 -> $r"
	_nfs_connects_rose "$1" || ((r > $2))
}

guest_a() {
	local t0 pcap

	rm -f "$SMCR_OUT/.nfs-client.no-ko" "$SMCR_OUT/.nfs-client.rc-link-ok"
	if ! nfs_client_xprt_load ours; then
		: >"$SMCR_OUT/.nfs-client.no-ko"
		barrier nfs-go 60
		return 1
	fi
	barrier nfs-go 60
	barrier nfs-up 120 || return 1
	t0=$SECONDS
	echo 1 >/sys/kernel/tracing/events/rpcr/rpcr_xprt_vers/enable
	NFS_CAPTURE=/tmp/v3.pcap nfs_workload v3 3 "$NFS_CLIENT_EXTRA_OPTS"
	tap_check "v3: Linux's knfsd answered ERR_VERS, our client went on in version 1" \
		nfs_traced "rpcr_xprt_vers: .* v2 \(connect\)" \
		"rpcr_xprt_vers: .* v1 \(ERR_VERS\)"
	tap_check "v3: in the capture our client opened in version 2, then 1; knfsd answered in 1" \
		nfs_pcap_fell_back /tmp/v3.pcap
	tap_check "v3-ip6: eth0 has $SMCR_SELF_IP6, $SMCR_PEER_IP6 answers" _ip6_addr
	NFS_PROTO=rdma6 NFS_SERVER=$SMCR_PEER_IP6 NFS_EXTRA=ip6_extra \
		nfs_workload v3-ip6 3 "$NFS_CLIENT_EXTRA_OPTS"
	cell_inline_1k
	cell_busy
	echo "# cells v3 to busy: $((SECONDS - t0))s"
	cell_reconnect rc-sysfs "$NFS_CLIENT_EXTRA_OPTS" nfs_xprt_disconnect
	echo "# rc-sysfs done at $((SECONDS - t0))s"
	# 10 s RPC timeout, hard: the calls stuck on the dead connection
	# time out, the transport reconnects and they go again
	rm -f /tmp/nfs-flap-asked
	# rpcr's events of this cell kept in the out dir: a break under RC
	# retries once left the client without a new connection
	nfs_trace_on rpcr
	# and its RoCEv2 frames, the CM's among them, to NAME.a.rc-link.pcap
	# when it fails
	pcap=$SMCR_OUT/$SMCR_NAME.a.rc-link.pcap
	nfs_capture_start "$pcap"
	# a 3 s break is within what RC retransmission bridges: rxe's QP may
	# carry on without a new connection (it did not while rxe, retrying,
	# executed a memory registration twice and failed the QP)
	# the writer goes on through the drop: with its WRITEs paused, the
	# last ones could all be acknowledged before the drop began (only
	# the server's replies in flight, retransmitted by b's QP), and a's
	# QP had nothing to retransmit
	if RC_RETRY_OK=1 NFS_BREAK_FLOWING=1 cell_reconnect rc-link "timeo=100,retrans=2${NFS_CLIENT_EXTRA_OPTS:+,$NFS_CLIENT_EXTRA_OPTS}" _flap_b; then
		nfs_capture_stop
		rm -f "$pcap"
		: >"$SMCR_OUT/.nfs-client.rc-link-ok"
	else
		nfs_capture_stop
		nfs_stuck_diag
	fi
	nfs_trace_save rpcr-rc-link
	# b waits for both barriers whatever happened here
	[[ -e /tmp/nfs-flap-asked ]] || barrier nfs-flap 60
	barrier nfs-flapped 60
	echo "# rc-link done at $((SECONDS - t0))s"
	barrier nfs-done 60
	tap_check "rmmod rpcr" timeout 60 rmmod rpcr
	tap_check "no kernel warning (a)" dmesg_clean
}

if [[ $SMCR_ROLE == a ]]; then guest_a; else guest_b; fi
exit 0
