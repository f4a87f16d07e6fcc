#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 420
#
# Group "nfs-ours": rpcr.ko on both guests, our client (a) against our
# server (b) under Linux's NFS client and knfsd, nfs-lib.sh's workload,
# in RPC-over-RDMA version 2 (the draft of November 2019) unless pinned:
#   v3     NFSv3 over IPv4; the RoCEv2 frames of the mount captured: every
#          transport header, both ways, of version 2; the client's and the
#          server's tracepoints say version 2 (rpcr_xprt_vers,
#          rpcr_svc_vers, rpcr_call_send, rpcr_reply_send); each side
#          sends its transport properties in an RDMA2_CONNPROP (in the
#          capture) and takes the other's (rpcr_connprop_send, _recv);
#          /proc/net/rpcr shows the client's transport and the server's
#          connection in version 2 with the peer's properties
#   v41    NFSv4.1 (a session with a backchannel on our client)
#   v42    NFSv4.2, the same
#   v41-probe NFSv4.1 mounted with PROBE_OPTS (2 s timeouts, the major
#          one far off): the server freezes the ext4 under a WRITE for
#          PROBE_HOLD seconds. Each minor timeout of the call has our
#          client probe the connection with a credit refresh (draft
#          §4.3.1.2, rpcr_refresh_send, probes= in /proc/net/rpcr)
#          instead of ending it; the server's receive handler takes them
#          (rpcr_refresh_recv). The call completes on the connection it
#          went on (mountstats' connect count unchanged); the data reads
#          back equal
#   v41-gone the same, the WRITE written back from the page cache (no
#          task waits on it); once the server took a probe of it, every
#          RoCE frame is dropped for GONE_S seconds: a Send into the
#          silence fails once the QP's retries are spent (rpcr_wc_error),
#          the connection ends, the call goes again on the next one once
#          the path is back; fsync() then, and the data reads back equal
#   v3-ip6 NFSv3 over IPv6, whose address our server has in
#          sunrpc.rdma_v1_peers: it answers the client's first call of
#          version 2 with ERR_VERS, the client goes on in version 1
#   v3-more NFSv3 with sunrpc.rdma_continuation 2 on our client: a WRITE
#          of NFS_MORE_BYTES (O_DIRECT) goes as one call in several Sends,
#          RPCRDMA2_F_MORE on all but the last (draft §6.3.2.2), instead
#          of with a Read chunk: in the capture, in the client's trace
#          (rpcr_msg_split) and the server's (rpcr_msg_joined); read back
#          equal; so does the workload's file of NFS_ODD_BYTES. The
#          READDIRPLUS replies of a directory of NFS_MORE_FILES long
#          names come in several Sends each, which the calls granted
#          (credit=2 and more) instead of offering a Reply chunk: in the
#          capture, in the server's trace (rpcr_msg_split) and the
#          client's (rpcr_msg_joined); the listing is whole. The client
#          sends a Host Auth Message (sunrpc.rdma_hostauth, §5.2.6): in
#          the server's trace and /proc/net/rpcr
#   v3-nomore the same listing with sunrpc.rdma_continuation 0 on our
#          server: it answers the first READDIRPLUS that grants it
#          several Sends with ERR_REPLY_RESOURCE, our client sends that
#          call again with a Reply chunk (rpcr_call_retry) and invites no
#          continued reply again on that transport; the listing is whole
#   v3-1k  NFSv3 with our client's inline thresholds at 1024 and the
#          server's IPv4 address in the client's sunrpc.rdma_v1_peers:
#          both sides' Read, Write and Reply chunks, in version 1
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"

NFS_CLIENT_XPRT=ours
NFS_SERVER_XPRT=ours
INLINE=/proc/sys/sunrpc

# a WRITE of a size that takes several 4 KiB Sends, fewer than 16
NFS_MORE_BYTES=20000
# a directory whose listing takes READDIRPLUS replies of several Sends
NFS_MORE_FILES=300
# v3-more's mount: READDIRPLUS asks for rsize at most, 5 Sends' worth
MORE_OPTS=rsize=16384
# the client's Host Auth Message in v3-more, and in hex
NFS_HOSTAUTH=nfs-client-a
NFS_HOSTAUTH_HEX=6e66732d636c69656e742d61

# v41-probe: an ext4 of the server's, frozen under the client's WRITE
PROBE_FS=$NFS_EXPORT/frz
PROBE_HOLD=8
PROBE_BYTES=262144
# minor timeouts at 2, 6, 12... s, the major one (which ends the
# connection whatever the probes say) at 42 s
PROBE_OPTS=timeo=20,retrans=20

# v41-gone: how long the server's RoCE frames are dropped
GONE_S=30

# the server: PROBE_FS on a loop device, exported beside the root, which
# NFSv4 crosses into
probe_fs_up() {
	modprobe loop || return 1
	truncate -s 64M /tmp/probe.img && mkfs.ext4 -q -F /tmp/probe.img &&
		mkdir -p "$PROBE_FS" && mount -o loop /tmp/probe.img "$PROBE_FS" &&
		chmod 1777 "$PROBE_FS" || return 1
	nfs_export_line "$PROBE_FS" \
		rw,fsid=77,no_root_squash,no_subtree_check,insecure,sync \
		>>/etc/exports && exportfs -ra
}

probe_server() {
	barrier nfs-probe 400 || return 1
	tap_check "v41-probe: the ext4 frozen under the client's WRITE" \
		fsfreeze -f "$PROBE_FS"
	barrier nfs-frozen 60
	sleep "$PROBE_HOLD"
	tap_check "v41-probe: thawed after ${PROBE_HOLD}s" fsfreeze -u "$PROBE_FS"
	tap_check "v41-probe: our server took the client's credit refreshes in its receive handler" \
		nfs_traced "rpcr_refresh_recv: peer=$SMCR_PEER_IP:[0-9]+ granted=1 max=[0-9]+ err=0$"
}

# refreshes_taken: how many credit refreshes this server took so far
refreshes_taken() { grep -c ' rpcr_refresh_recv: ' /sys/kernel/tracing/trace; }

# refresh_taken_since N SECONDS: the count passes N within SECONDS
refresh_taken_since() {
	local i
	for ((i = 0; i < $2; i++)); do
		(($(refreshes_taken) > $1)) && return 0
		sleep 1
	done
	return 1
}

# v41-gone: the WRITE held, then the path lost under it, then both back
gone_server() {
	local n
	barrier nfs-gone 120 || return 1
	tap_check "v41-gone: the ext4 frozen under the client's WRITE" \
		fsfreeze -f "$PROBE_FS"
	n=$(refreshes_taken)
	barrier nfs-gone-frozen 60
	tap_check "v41-gone: the client probed the held WRITE's connection" \
		refresh_taken_since "$n" 60
	tap_check "v41-gone: every RoCE frame dropped for ${GONE_S}s" \
		nfs_roce_blackout "$GONE_S"
	tap_check "v41-gone: thawed" fsfreeze -u "$PROBE_FS"
	barrier nfs-gone-back 60
}

# reconnected_since N SECONDS: the count passes N within SECONDS, and the
# transport is connected
reconnected_since() {
	local i n
	for ((i = 0; i < $2; i++)); do
		n=$(nfs_connects)
		((${n:-0} > $1)) &&
			grep -q "^client peer=$SMCR_PEER_IP:20049 connected " /proc/net/rpcr &&
			return 0
		sleep 1
	done
	echo "connects: $n"
	return 1
}

probe_cell() {
	local f=$NFS_MNT/frz/probe n0 n1 t0
	head -c "$PROBE_BYTES" /dev/urandom >/tmp/probe.src
	nfs_trace_on rpcr
	tap_check "v41-probe: mount -o $(nfs_opts 4.1 "$PROBE_OPTS")" \
		nfs_mount 4.1 "$PROBE_OPTS"
	tap_check "v41-probe: a file on the server's ext4" nfs_t touch "$f"
	n0=$(nfs_connects)
	barrier nfs-probe 60
	barrier nfs-frozen 60
	t0=$SECONDS
	tap_check "v41-probe: $PROBE_BYTES bytes written and synced" \
		nfs_t dd if=/tmp/probe.src of="$f" bs=64k conv=fsync status=none
	tap_check "v41-probe: held by the server for $((SECONDS - t0))s, 2s timeouts" \
		test $((SECONDS - t0)) -ge $((PROBE_HOLD / 2))
	tap_check "v41-probe: our client probed with credit refreshes, sent" \
		nfs_traced "rpcr_refresh_send: peer=$SMCR_PEER_IP:20049 granted=1 max=[0-9]+ err=0$"
	n1=$(nfs_connects)
	tap_check "v41-probe: the call completed on its connection (connects: $n0, then $n1)" \
		test -n "$n0" -a "$n0" = "$n1"
	grep . /proc/net/rpcr >/tmp/rpcr-proc
	tap_check "v41-probe: /proc/net/rpcr counts the probes" \
		proc_seen "^client peer=$SMCR_PEER_IP:20049 connected vers=2 .* probes=[1-9][0-9]* "
	tap_check "v41-probe: unmount and mount again" _nfs_remount 4.1 "$PROBE_OPTS"
	tap_check "v41-probe: the file read back, SHA-256 equal" \
		same_file "$f" /tmp/probe.src
	tap_check "v41-probe: unmount" nfs_umount
}

# gone_writer FILE DIR: FILE written into the page cache (before the
# freeze: its OPEN would wait), then its writeback started once DIR/kick
# exists: the WRITE goes from the flusher, asynchronously, and no task
# waits on it while the path is gone (a wait of 30 s is a hung task);
# fsync() once DIR/go exists. DIR/open says the file is written.
gone_writer() {
	python3 - "$1" "$2" <<'PY'
import ctypes
import os
import sys
import time

path, sync = sys.argv[1:3]
libc = ctypes.CDLL(None, use_errno=True)
libc.sync_file_range.argtypes = [ctypes.c_int, ctypes.c_longlong,
                                 ctypes.c_longlong, ctypes.c_uint]
SYNC_FILE_RANGE_WRITE = 2


def wait_for(name):
    for _ in range(240):
        if os.path.exists(os.path.join(sync, name)):
            return
        time.sleep(0.5)
    sys.exit("no " + name)


fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
with open("/tmp/probe.src", "rb") as src:
    os.write(fd, src.read())
open(os.path.join(sync, "open"), "w").close()
wait_for("kick")
if libc.sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE):
    sys.exit("sync_file_range: " + os.strerror(ctypes.get_errno()))
wait_for("go")
os.fsync(fd)
os.close(fd)
PY
}

gone_cell() {
	local f=$NFS_MNT/frz/gone d=/tmp/gone.sync n0 pid
	nfs_trace_on rpcr
	tap_check "v41-gone: mount -o $(nfs_opts 4.1 "$PROBE_OPTS")" \
		nfs_mount 4.1 "$PROBE_OPTS"
	rm -rf "$d" && mkdir -p "$d"
	gone_writer "$f" "$d" &
	pid=$!
	tap_check "v41-gone: $PROBE_BYTES bytes written into the page cache" \
		_nfs_wait_file "$d/open" 60
	n0=$(nfs_connects)
	barrier nfs-gone 60
	barrier nfs-gone-frozen 60
	: >"$d/kick"
	barrier nfs-gone-back 120
	# the held WRITE reconnects the transport: fsync() waits on no
	# connection attempt
	tap_check "v41-gone: the transport connected again" \
		reconnected_since "$n0" 120
	: >"$d/go"
	wait "$pid"
	tap_check "v41-gone: written back and synced once the path was back" \
		test $? = 0
	tap_check "v41-gone: probes went while the path was there (the server took one)" \
		nfs_traced "rpcr_refresh_send: peer=$SMCR_PEER_IP:20049 .* err=0$"
	tap_check "v41-gone: a Send into the lost path failed, its retries spent" \
		nfs_traced "rpcr_wc_error: .* RETRY_EXC_ERR "
	tap_check "v41-gone: the call went again on a new connection" \
		_nfs_connects_rose "$n0"
	tap_check "v41-gone: unmount and mount again" _nfs_remount 4.1 "$PROBE_OPTS"
	tap_check "v41-gone: the file read back, SHA-256 equal" \
		same_file "$f" /tmp/probe.src
	tap_check "v41-gone: unmount" nfs_umount
}

inline_set() { echo "$1" >"$INLINE/rdma_max_inline_read" && echo "$1" >"$INLINE/rdma_max_inline_write"; }
pin_v1() { inline_set 1024 && echo "$SMCR_PEER_IP" >"$INLINE/rdma_v1_peers"; }

# the lines of /proc/net/rpcr, every half second, into /tmp/rpcr-proc
proc_watch() {
	while sleep 0.5; do
		grep . /proc/net/rpcr >>/tmp/rpcr-proc 2>/dev/null
	done
}

# proc_seen RE: a line of /proc/net/rpcr matched RE
proc_seen() {
	grep -E "$1" /tmp/rpcr-proc | head -n 2 | sed 's/^/# /'
	grep -qE "$1" /tmp/rpcr-proc && return 0
	sort -u /tmp/rpcr-proc | tail -n 4 | sed 's/^/# seen: /'
	return 1
}

# NFS_EXTRA of v3: while mounted, our transport's line
proc_client() {
	[[ $1 == write ]] || return 0
	grep . /proc/net/rpcr >/tmp/rpcr-proc
	tap_check "$2: /proc/net/rpcr: our client speaks version 2, has the server's properties" \
		proc_seen "^client peer=$SMCR_PEER_IP:20049 connected vers=2 peer_vers=2 .* connprop=1 sbsiz=4096 rbsiz=4096 rssiz=1048576 rcsiz=96 brs=inline hostauth=0$"
	tap_check "$2: /proc/net/rpcr: the server invalidated our chunks remotely" \
		proc_seen "^client .* remote_inv=[1-9][0-9]* "
}

# more_in_pcap FILE [FROM TO]: continued messages from FROM (this guest)
# to TO (the server)
more_in_pcap() {
	local t from=${2:-$SMCR_SELF_IP} to=${3:-$SMCR_PEER_IP}
	t=$(python3 "$NFS_PCAP_PY" "$1" --max 0 | grep -E '^(continued|types) ')
	echo "$t"
	grep -qE "^continued ${from}->${to}: [1-9]" <<<"$t"
}

# hostauth_seen: the server's trace and /proc/net/rpcr show the client's
# Host Auth Message
hostauth_seen() {
	nfs_traced "rpcr_connprop_recv: .* props=0x6e .* hostauth=12:$NFS_HOSTAUTH_HEX$" &&
		proc_seen "^server peer=$SMCR_PEER_IP:[0-9]+ vers=2 .* hostauth=12:$NFS_HOSTAUTH_HEX$"
}

# more_dir DIR: NFS_MORE_FILES entries of long names in DIR
more_dir() {
	local i pad
	pad=$(printf '%060d' 0)
	mkdir -p "$1" || return 1
	for ((i = 0; i < NFS_MORE_FILES; i++)); do
		: >"$1/$pad-$i" || return 1
	done
}

# more_list DIR: its listing, read from the server again, is whole
more_list() {
	local n
	sync && echo 3 >/proc/sys/vm/drop_caches
	n=$(timeout 120 ls -f "$1" | grep -c -- "-[0-9]*$")
	echo "# $n entries"
	[[ $n == "$NFS_MORE_FILES" ]]
}

# v3-more: one O_DIRECT WRITE and READ of NFS_MORE_BYTES, the WRITE's
# call in continued Sends
more_cell() {
	local f=$NFS_MNT/v3-more
	head -c "$NFS_MORE_BYTES" /dev/urandom >/tmp/nfs-more
	tap_check "v3-more: sunrpc.rdma_continuation 2" \
		bash -c "echo 2 >$INLINE/rdma_continuation"
	tap_check "v3-more: sunrpc.rdma_hostauth $NFS_HOSTAUTH" \
		bash -c "echo $NFS_HOSTAUTH >$INLINE/rdma_hostauth && grep -qx $NFS_HOSTAUTH $INLINE/rdma_hostauth"
	nfs_trace_on rpcr
	tap_check "v3-more: mount -o $(nfs_opts 3 "$MORE_OPTS")" \
		nfs_mount 3 "$MORE_OPTS" || return 1
	tap_check "v3-more: a directory of $NFS_MORE_FILES long names" \
		more_dir "$NFS_MNT/v3-more-dir"
	if nfs_capture_start /tmp/more.pcap; then
		tap_ok "v3-more: tcpdump captures RoCEv2"
	else
		tap_fail "v3-more: tcpdump captures RoCEv2" "$(cat /tmp/tcpdump.out)"
	fi
	tap_check "v3-more: a ${NFS_MORE_BYTES}-byte O_DIRECT write" \
		nfs_t dd if=/tmp/nfs-more of="$f" bs="$NFS_MORE_BYTES" count=1 \
		oflag=direct status=none
	tap_check "v3-more: the directory listed from the server, whole" \
		more_list "$NFS_MNT/v3-more-dir"
	nfs_capture_stop
	tap_check "v3-more: its call went in continued Sends (F_MORE), in the capture" \
		more_in_pcap /tmp/more.pcap
	tap_check "v3-more: our client split it" \
		nfs_traced "rpcr_msg_split: xid=0x[0-9a-f]+ flags=0x0 sends=[2-9] len=2[0-9]{4}$"
	tap_check "v3-more: READDIRPLUS replies came in continued Sends (F_MORE), in the capture" \
		more_in_pcap /tmp/more.pcap "$SMCR_PEER_IP" "$SMCR_SELF_IP"
	tap_check "v3-more: calls granted the server more Sends, our client joined its replies" \
		nfs_traced "rpcr_call_send: v2 .* credit=([2-9]|1[0-6]) " \
		"rpcr_msg_joined: xid=0x[0-9a-f]+ flags=0x1 sends=[2-9] len=[0-9]+$"
	tap_check "v3-more: a file of $NFS_ODD_BYTES bytes written" \
		nfs_t cp /tmp/nfs-src/odd "$NFS_MNT/v3-more-odd"
	tap_check "v3-more: unmount and mount again" _nfs_remount 3 "$MORE_OPTS"
	tap_check "v3-more: the continued write read back with O_DIRECT, equal" \
		bash -c "timeout 120 dd if='$f' of=/tmp/nfs-more-back bs=$NFS_MORE_BYTES count=1 iflag=direct status=none && cmp /tmp/nfs-more-back /tmp/nfs-more"
	tap_check "v3-more: the ${NFS_ODD_BYTES}-byte file read back, SHA-256 equal" \
		same_file "$NFS_MNT/v3-more-odd" /tmp/nfs-src/odd
	tap_check "v3-more: unmount" nfs_umount
	tap_check "v3-more: sunrpc.rdma_continuation back to 1, no Host Auth Message" \
		bash -c "echo 1 >$INLINE/rdma_continuation && echo >$INLINE/rdma_hostauth"
}

# v3-nomore: the listing of v3-more again, our server continuing no
# reply; the barriers first, whatever came before
nomore_cell() {
	barrier nfs-nomore 120
	barrier nfs-nomore-set 60
	nfs_trace_on rpcr
	tap_check "v3-nomore: mount -o $(nfs_opts 3 "$MORE_OPTS")" \
		nfs_mount 3 "$MORE_OPTS" || return 1
	tap_check "v3-nomore: the directory listed from the server, whole" \
		more_list "$NFS_MNT/v3-more-dir"
	tap_check "v3-nomore: the server refused a continued reply, the call went again with a Reply chunk" \
		nfs_traced "rpcr_reply_recv: v2 .* ERROR flags=0x1 " \
		"rpcr_call_retry: xid=0x[0-9a-f]+ ERR_REPLY_RESOURCE: sent again on this one$" \
		"rpcr_call_send: v2 .* chunks=0x4$"
	tap_check "v3-nomore: once, and no continued reply came" \
		bash -c "[[ \$(grep -c 'rpcr_call_retry:' /sys/kernel/tracing/trace) == 1 ]] && ! grep -q 'rpcr_msg_joined:' /sys/kernel/tracing/trace"
	tap_check "v3-nomore: unmount" nfs_umount
}

guest_b() {
	local watch
	nfs_xprt_load ours && nfs_trace_on rpcr && nfs_server_start
	tap_check "version 1 pinned for the client's IPv6 address" \
		bash -c "echo '$SMCR_PEER_IP6' >$INLINE/rdma_v1_peers"
	tap_check "v41-probe: an ext4 on a loop device, exported" probe_fs_up
	proc_watch &
	watch=$!
	barrier nfs-up 120
	probe_server
	gone_server
	barrier nfs-nomore 400
	tap_check "sunrpc.rdma_continuation 0: our server continues no reply" \
		bash -c "echo 0 >$INLINE/rdma_continuation"
	barrier nfs-nomore-set 60
	barrier nfs-done 400
	kill "$watch"
	nfs_server_report
	tap_check "/proc/net/rpcr: our server's connection spoke version 2, had the client's properties" \
		proc_seen "^server peer=$SMCR_PEER_IP:[0-9]+ vers=2 credits=[0-9]+ inline=4096 connprop=1 .* brs=inline "
	tap_check "/proc/net/rpcr: and version 1 with the client pinned to it" \
		proc_seen "^server peer=$SMCR_PEER_IP:[0-9]+ vers=1 .* connprop=0 "
	tap_check "/proc/net/rpcr: version 1 with the client's IPv6 address, pinned here" \
		proc_seen "^server peer=\[$SMCR_PEER_IP6\]:[0-9]+ vers=1 "
	tap_check "our server refused version 2 from that address" \
		nfs_traced "rpcr_svc_vers: peer=\[$SMCR_PEER_IP6\]:[0-9]+ v2 \(other refused\)"

	tap_check "our server took version 2 from our client, and replied in it" \
		nfs_traced "rpcr_svc_vers: .* v2 \(first call\)" \
		"rpcr_reply_send: v2 .*flags=0x1 "
	tap_check "our server sent its properties and took the client's (CONNPROP)" \
		nfs_traced "rpcr_connprop_send: .* props=0x1e .*rcsiz=96 " \
		"rpcr_connprop_recv: .* props=0x2e .*brs=inline "
	tap_check "our server's properties went out each time" \
		bash -c "! grep -q 'rpcr_connprop_error:' /sys/kernel/tracing/trace"
	tap_check "our server joined the client's continued call (F_MORE)" \
		nfs_traced "rpcr_msg_joined: xid=0x[0-9a-f]+ flags=0x0 sends=[2-9] len=2[0-9]{4}$"
	tap_check "our server took the client's Host Auth Message (trace, /proc/net/rpcr)" \
		hostauth_seen
	tap_check "our server continued replies the client granted Sends for" \
		nfs_traced "rpcr_msg_split: xid=0x[0-9a-f]+ flags=0x1 sends=[2-9] len=[0-9]+$"
	tap_check "with rdma_continuation 0, our server answered ERR_REPLY_RESOURCE" \
		nfs_traced "rpcr_reply_send: v2 .* ERROR flags=0x1 "
	tap_check "our server refused no continued message" \
		bash -c "! grep -q 'continuation refused' /sys/kernel/tracing/trace"
	tap_check "our server took version 1 from the client pinned to it" \
		nfs_traced "rpcr_svc_vers: .* v1 \(first call\)"
	tap_check "rpc.nfsd 0, then rmmod rpcr" \
		bash -c 'rpc.nfsd 0 && timeout 60 rmmod rpcr'
	tap_check "no kernel warning (b)" dmesg_clean
}

guest_a() {
	nfs_xprt_load ours || return 1
	nfs_trace_on rpcr
	barrier nfs-up 120 || return 1
	NFS_CAPTURE=/tmp/v3.pcap NFS_EXTRA=proc_client nfs_workload v3 3
	tap_check "v3: every RPC-over-RDMA header of the mount is of version 2, both ways" \
		nfs_pcap_only_vers /tmp/v3.pcap 2
	tap_check "v3: our client connected in version 2 and called in it" \
		nfs_traced "rpcr_xprt_vers: .* v2 \(connect\)" \
		"rpcr_call_send: v2 .*flags=0x0 " "rpcr_reply_recv: v2 "
	tap_check "v3: a CONNPROP went each way, in the capture" \
		nfs_pcap_connprop /tmp/v3.pcap
	tap_check "v3: our client sent its properties and took the server's" \
		nfs_traced "rpcr_connprop_send: .* props=0x2e .*brs=inline " \
		"rpcr_connprop_recv: .* props=0x1e .*rbsiz=4096 "
	nfs_workload v41 4.1
	nfs_workload v42 4.2
	tap_check "v41, v42: our client spoke version 2 only" \
		bash -c "! grep -q 'rpcr_call_send: v1 ' /sys/kernel/tracing/trace"
	probe_cell
	gone_cell
	more_cell
	nomore_cell
	nfs_trace_on rpcr
	NFS_PROTO=rdma6 NFS_SERVER=$SMCR_PEER_IP6 nfs_workload v3-ip6 3
	tap_check "v3-ip6: the server refused version 2, our client went on in version 1" \
		nfs_traced "rpcr_xprt_vers: .* v2 \(connect\)" \
		"rpcr_xprt_vers: .* v1 \(ERR_VERS\)" "rpcr_call_send: v1 "
	tap_check "client inline thresholds 1024, version 1 for the server's IPv4 address" \
		pin_v1
	nfs_trace_on rpcr
	nfs_workload v3-1k 3 "" 1
	tap_check "v3-1k: our client connected and called in version 1" \
		nfs_traced "rpcr_xprt_vers: .* v1 \(pinned\)" "rpcr_call_send: v1 "
	tap_check "v3-1k: and no call in version 2" \
		bash -c "! grep -q 'rpcr_call_send: v2 ' /sys/kernel/tracing/trace"
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
