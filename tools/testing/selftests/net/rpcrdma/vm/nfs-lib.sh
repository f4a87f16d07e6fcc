# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# NFS over RPC-over-RDMA helpers for the guest groups of this directory,
# sourced after tools/testing/selftests/net/lib/guest_lib.sh:
#   source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"
#
# Server (Linux's knfsd, always): nfs_server_start exports a tmpfs over TCP
# 2049 and RDMA $NFS_PORT, for NFSv3 (path $NFS_EXPORT) and NFSv4.x (the
# same tmpfs as the v4 pseudo root "/": the guest root is 9p, which nfsd
# cannot export). Client: nfs_client_xprt_load picks the client transport
# module ($NFS_CLIENT_XPRT: "linux" is Linux's rpcrdma.ko, "ours" is
# net/rpcrdma/rpcr.ko), nfs_workload runs the whole workload of one mount,
# one TAP line a step. Every command that waits on the network runs under
# a timeout, so a broken transport ends in "not ok" lines, not a hang.

NFS_PORT=${NFS_PORT:-20049}
NFS_EXPORT=${NFS_EXPORT:-/run/nfsexp}
NFS_MNT=${NFS_MNT:-/run/nfsmnt}
NFS_SERVER=${NFS_SERVER:-$SMCR_PEER_IP}
# rdma (IPv4) or rdma6 (IPv6, then NFS_SERVER is an IPv6 address)
NFS_PROTO=${NFS_PROTO:-rdma}
# Who may mount: the private link's IPv4 /24 and IPv6 /64 (guest-init)
NFS_CLIENTS=${NFS_CLIENTS:-10.77.0.0/24 fd77::/64}
NFS_CLIENT_XPRT=${NFS_CLIENT_XPRT:-linux}
NFS_SERVER_XPRT=${NFS_SERVER_XPRT:-linux}
NFS_RPCR_KO=${NFS_RPCR_KO:-$SMCR_REPO/net/rpcrdma/rpcr.ko}
# Workload sizes: modest, TCG moves a few MB/s over rxe
NFS_BIG_MIB=${NFS_BIG_MIB:-4}
NFS_ODD_BYTES=${NFS_ODD_BYTES:-1234567}
NFS_DIR_ENTRIES=${NFS_DIR_ENTRIES:-300}
# Between the 1024 and 4096-byte inline thresholds, moved with O_DIRECT
# (one WRITE and one READ of exactly this size): inline or in a chunk
NFS_SMALL_BYTES=${NFS_SMALL_BYTES:-2000}
# Seconds any single mount, I/O or umount may take
NFS_OP_TIMEOUT=${NFS_OP_TIMEOUT:-120}
# v4 grace and lease (nfsd's minimum is 10): clients wait out the grace
NFS_GRACE=${NFS_GRACE:-10}
# The RDMA device: rxe0 (Soft-RoCE), or siw0 (Soft-iWARP, `# rdma: siw`
# groups), which has no hw_counters: iWARP runs over kernel TCP sockets,
# whose byte counts (ss) and frames (tcp port $NFS_PORT) stand in for them
NFS_RXE=${NFS_RXE:-rxe0}
NFS_PCAP_PY=$SMCR_REPO/tools/testing/selftests/net/rpcrdma/rpcrdma_pcap.py
NFS_IWARP_PCAP_PY=$SMCR_REPO/tools/testing/selftests/net/rpcrdma/iwarp_pcap.py

# nfs_t CMD...: CMD under the per-operation timeout (killed if stuck)
nfs_t() { timeout -k 5 "$NFS_OP_TIMEOUT" "$@"; }

# ---------------------------------------------------------------- server

# nfs_export_line DIR OPTIONS: DIR's line of /etc/exports, OPTIONS for
# each of NFS_CLIENTS. The file, not exportfs -o: its client:/path
# argument cannot hold an IPv6 network
nfs_export_line() {
	local c line=$1
	for c in $NFS_CLIENTS; do
		line+=" $c($2)"
	done
	echo "$line"
}

_nfs_server_up() {
	local t0=$SECONDS

	if [[ $NFS_SERVER_XPRT == ours ]]; then
		modprobe -a nfsd || return 1
		grep -q '^rpcr ' /proc/modules || return 1
	else
		modprobe -a nfsd rpcrdma || return 1
	fi
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd || return 1
	mkdir -p "$NFS_EXPORT" /run/rpcbind /var/lib/nfs/v4recovery
	mountpoint -q "$NFS_EXPORT" ||
		mount -t tmpfs -o size=256m,mode=1777 nfsexp "$NFS_EXPORT" || return 1
	# Daemons get files, not tap_check's pipe, which they could keep open
	rpcbind -w </dev/null >>/tmp/nfs-daemons.log 2>&1 || return 1
	# fsid: tmpfs has no UUID; 0 also makes it the v4 pseudo root
	nfs_export_line "$NFS_EXPORT" \
		rw,fsid=0,no_root_squash,no_subtree_check,insecure,sync \
		>/etc/exports
	exportfs -ra || return 1
	rpc.mountd </dev/null >>/tmp/nfs-daemons.log 2>&1 || return 1
	# Before nfsd's threads start, or the writes are refused
	echo "$NFS_GRACE" >/proc/fs/nfsd/nfsv4gracetime || return 1
	echo "$NFS_GRACE" >/proc/fs/nfsd/nfsv4leasetime || return 1
	rpc.nfsd 8 </dev/null >>/tmp/nfs-daemons.log 2>&1 || return 1
	echo "rdma $NFS_PORT" >/proc/fs/nfsd/portlist || return 1
	echo "# portlist: $(tr '\n' ' ' </proc/fs/nfsd/portlist)"
	echo "# versions: $(cat /proc/fs/nfsd/versions)"
	echo "# exports: $(exportfs -v | tr -s ' \t\n' ' ')"
	wait_rdma_listen "$NFS_PORT" 30 || return 1
	wait_listen 2049 30 || return 1
	echo "# up in $((SECONDS - t0))s"
}

# nfs_server_start: knfsd, the server transport ($NFS_SERVER_XPRT: Linux's
# svcrdma, or ours, loaded first with nfs_xprt_load ours) and the export
nfs_server_start() {
	tap_check "knfsd exports a tmpfs over TCP 2049 and RDMA $NFS_PORT (v3, v4.x)" \
		_nfs_server_up
}

# nfs_rdma_listens_both: knfsd took "rdma PORT" for IPv4 and IPv6 (the
# portlist names it once per address family) and both CM ids listen
nfs_rdma_listens_both() {
	local n
	n=$(grep -c "^rdma $NFS_PORT\$" /proc/fs/nfsd/portlist)
	echo "portlist: $(tr '\n' ' ' </proc/fs/nfsd/portlist)"
	rdma resource show cm_id 2>&1 | grep "LISTEN.*:$NFS_PORT"
	((n == 2)) || return 1
	rdma resource show cm_id | grep "LISTEN .*src-addr 0\.0\.0\.0:$NFS_PORT" >/dev/null &&
		rdma resource show cm_id | grep "LISTEN .*src-addr :::$NFS_PORT" >/dev/null
}

# nfs_roce_blackout SECONDS: every RoCEv2 frame of eth0, in and out,
# dropped for SECONDS; the link stays up. (A real eth0 down/up breaks
# Debian 6.1's rdma_rxe for good: a CM message sent while the route is gone
# puts QP1 into the error state, and the guest answers no connection
# request again.)
nfs_roce_blackout() {
	local d rc=0

	tc qdisc add dev eth0 clsact || return 1
	for d in ingress egress; do
		tc filter add dev eth0 "$d" protocol ip u32 \
			match ip protocol 17 0xff match ip dport 4791 0xffff \
			action drop || rc=1
	done
	((rc)) || sleep "$1"
	for d in ingress egress; do
		tc -s filter show dev eth0 "$d" | grep -E 'rule hit|Sent' |
			sed "s/^ */$d: /"
	done
	tc qdisc del dev eth0 clsact || rc=1
	return "$rc"
}

# nfs_server_report: what the server saw, as diagnostics
nfs_server_report() {
	echo "# server rpc stats: $(grep -E '^(rpc|proc3|proc4ops) ' /proc/net/rpc/nfsd | cut -c1-160 | tr '\n' '|')"
	grep -H . /proc/sys/sunrpc/svc_rdma/rdma_stat_* 2>/dev/null |
		sed 's|.*/||; s/^/# svc_rdma /'
	# the device's counters among them
	nfs_stuck_diag
}

# nfs_stuck_diag: what a hang leaves behind, as diagnostics: the device's
# counters and GIDs, eth0's addresses, neighbours and counters, a ping of
# the peer, the RDMA connections and QPs, and the stack of every task in
# D state
nfs_stuck_diag() {
	local t st g

	nfs_rxe_counters_diag
	for g in /sys/class/infiniband/"$NFS_RXE"/ports/1/gids/*; do
		[[ $(<"$g") == 0000:0000:0000:0000:0000:0000:0000:0000 ]] ||
			echo "# gid ${g##*/}: $(<"$g")"
	done 2>/dev/null
	ip -br addr show dev eth0 | sed 's/^/# /'
	ip neigh show dev eth0 | sed 's/^/# neigh /'
	ip -s link show dev eth0 | sed 's/^/# /'
	ping -c 1 -W 2 "$SMCR_PEER_IP" | sed 's/^/# /'
	rdma res show cm_id 2>&1 | sed 's/^/# /'
	rdma res show qp 2>&1 | sed 's/^/# /'
	for t in /proc/[0-9]*; do
		st=$(awk '/^State:/ {print $2}' "$t/status" 2>/dev/null)
		[[ $st == D ]] || continue
		echo "# task ${t#/proc/} ($(cat "$t/comm" 2>/dev/null)) in D:"
		sed 's/^/#   /' "$t/stack" 2>/dev/null
	done
}

# ---------------------------------------------------------------- client

# nfs_client_xprt_load [linux|ours]: the client's RPC-over-RDMA transport.
# With ours, modprobe is also told never to load Linux's rpcrdma (the
# kernel asks for "rpcrdma" when no transport has the "rdma" netid), so a
# mount cannot silently go through Linux's module.
nfs_client_xprt_load() { nfs_xprt_load "${1:-$NFS_CLIENT_XPRT}"; }

# nfs_xprt_load linux|ours: the RPC-over-RDMA transport of this guest,
# client and server side: Linux's rpcrdma, or our rpcr.ko with Linux's
# kept from loading
nfs_xprt_load() {
	local which=$1

	case $which in
	linux)
		tap_check "modprobe rpcrdma (Linux's RPC-over-RDMA)" \
			modprobe -a nfs rpcrdma
		;;
	ours)
		if [[ ! -r $NFS_RPCR_KO ]]; then
			tap_fail "insmod rpcr.ko (our RPC-over-RDMA)" \
				"$NFS_RPCR_KO does not exist (not built yet?)"
			return 1
		fi
		printf 'install %s /bin/false\n' rpcrdma xprtrdma svcrdma rpcrdma6 \
			>/etc/modprobe.d/zz-nfs-test-no-linux-rpcrdma.conf
		tap_check "modprobe sunrpc ib_core rdma_cm nfs" \
			modprobe -a sunrpc ib_core rdma_cm nfs || return 1
		tap_check "insmod rpcr.ko (our RPC-over-RDMA)" \
			insmod "$NFS_RPCR_KO"
		;;
	*)
		tap_fail "RPC-over-RDMA transport '$which' (linux or ours)"
		return 1
		;;
	esac
}

nfs_xprt_name() {
	if [[ $NFS_CLIENT_XPRT == linux ]]; then echo "Linux's rpcrdma"; else echo "our rpcr"; fi
}

# nfs_xprt_not_linux: with our module, Linux's must not have come in
nfs_xprt_not_linux() {
	[[ $NFS_CLIENT_XPRT == linux ]] && return 0
	! grep -q '^rpcrdma ' /proc/modules
}

# nfs_opts VERS [EXTRA]: the mount options
nfs_opts() {
	local o="vers=$1,proto=$NFS_PROTO,port=$NFS_PORT"

	# NLM would need statd; v3's MOUNT call still goes to mountd over TCP
	[[ $1 == 3 ]] && o+=,nolock
	[[ -n ${2:-} ]] && o+=",$2"
	echo "$o"
}

# nfs_source VERS: what to mount (v4: the pseudo root)
nfs_source() {
	local s=$NFS_SERVER

	[[ $s == *:* ]] && s="[$s]"
	if [[ $1 == 3 ]]; then echo "$s:$NFS_EXPORT"; else echo "$s:/"; fi
}

# nfs_mount VERS [EXTRA]
nfs_mount() {
	mkdir -p "$NFS_MNT"
	nfs_t mount -t nfs -o "$(nfs_opts "$@")" "$(nfs_source "$1")" "$NFS_MNT"
}

# nfs_umount: unmount; a stuck mount is forced and then detached, so the
# next run starts from a free mount point
nfs_umount() {
	nfs_t umount "$NFS_MNT" && return 0
	timeout -k 5 20 umount -f "$NFS_MNT" 2>/dev/null ||
		umount -l "$NFS_MNT" 2>/dev/null
	return 1
}

_nfs_remount() { nfs_umount && nfs_mount "$@"; }

# nfs_mountstats: the mountstats block of the mount at $NFS_MNT
nfs_mountstats() {
	awk -v m=" mounted on $NFS_MNT with " '
		/^device / { on = index($0, m) > 0 }
		on' /proc/self/mountstats
}

# nfs_xprt_line: its "xprt:" line
nfs_xprt_line() { nfs_mountstats | grep -E '^[[:space:]]*xprt:' | head -n1; }

# nfs_on_rdma: the mount's transport is RDMA
nfs_on_rdma() {
	local l
	l=$(nfs_xprt_line)
	echo "$l"
	[[ $l =~ xprt:[[:space:]]+rdma ]]
}

# nfs_connects: how often the mount's transport connected (the xprt
# line's third field after "rdma": port, bind_count, connect_count)
nfs_connects() { nfs_xprt_line | awk '{ print $5 }'; }

# _nfs_connects_rose BEFORE: nfs_connects is above BEFORE
_nfs_connects_rose() {
	local n
	n=$(nfs_connects)
	echo "connect_count $1 -> $n"
	((n > $1))
}

# nfs_xprt_disconnect: the client drops the mount's connection at once,
# as when an administrator moves it: the address it already has written
# to its xprt's sysfs dstaddr (sunrpc force-disconnects it). Debian's
# 6.1 has no sunrpc fault injection (CONFIG_FAIL_SUNRPC needs
# FAULT_INJECTION, off). IPv4 only: 6.1 parses the address into a
# 16-byte struct sockaddr.
nfs_xprt_disconnect() {
	local f a n=0

	for f in /sys/kernel/sunrpc/xprt-switches/switch-*/xprt-*-rdma/dstaddr; do
		[[ -w $f ]] || continue
		a=$(<"$f")
		[[ $a == "$NFS_SERVER" ]] || continue
		echo "$a" >"$f" || return 1
		echo "wrote $a to $f"
		n=$((n + 1))
	done
	((n > 0)) || echo "no rdma xprt to $NFS_SERVER under /sys/kernel/sunrpc"
	((n > 0))
}

# nfs_rxe_counter NAME: one of the rxe port's hw counters
nfs_rxe_counter() {
	cat "/sys/class/infiniband/$NFS_RXE/ports/1/hw_counters/$1" 2>/dev/null || echo 0
}

nfs_rxe_counters_diag() {
	local f out=
	if nfs_iwarp; then
		echo "# $NFS_RXE (iWARP): TCP port $NFS_PORT, connections established now: bytes sent, received: $(nfs_iwarp_bytes)"
		return 0
	fi
	for f in /sys/class/infiniband/"$NFS_RXE"/ports/1/hw_counters/*; do
		[[ -r $f ]] && out+=" ${f##*/}=$(<"$f")"
	done
	echo "# $NFS_RXE:$out"
}

# nfs_iwarp: $NFS_RXE is an iWARP device (siw: node type RNIC)
nfs_iwarp() { [[ $(cat "/sys/class/infiniband/$NFS_RXE/node_type" 2>/dev/null) == *RNIC* ]]; }

# nfs_iwarp_bytes: "SENT RCVD", bytes_acked and bytes_received summed over
# this guest's established TCP connections to or from port $NFS_PORT:
# the iWARP streams (siw's kernel sockets; NFS over TCP uses 2049)
nfs_iwarp_bytes() {
	ss -Htin state established \
		"( sport = :$NFS_PORT or dport = :$NFS_PORT )" 2>/dev/null | awk '
		{ for (i = 1; i <= NF; i++) {
			split($i, kv, ":")
			if (kv[1] == "bytes_acked") s += kv[2]
			if (kv[1] == "bytes_received") r += kv[2] } }
		END { printf "%d %d\n", s, r }'
}

# _nfs_iwarp_carried: the mount's connection (made again by the remount)
# moved the big file back and the O_DIRECT MiB out over TCP port $NFS_PORT
_nfs_iwarp_carried() {
	local s r
	# (a here-string: the guests have no /dev/fd for < <(...))
	read -r s r <<<"$(nfs_iwarp_bytes)"
	echo "TCP port $NFS_PORT (iWARP on $NFS_RXE): sent $s, received $r bytes (want >= $((1 << 20)), >= $((NFS_BIG_MIB << 20)))"
	ss -Htn state established "( sport = :$NFS_PORT or dport = :$NFS_PORT )"
	((s >= 1 << 20 && r >= NFS_BIG_MIB << 20))
}

# sha FILE: its SHA-256
sha() { sha256sum "$1" | cut -d' ' -f1; }

# same_file A B: equal SHA-256 (both printed when they differ)
same_file() {
	local x y
	x=$(nfs_t sha256sum "$1" | cut -d' ' -f1) || return 1
	y=$(sha "$2")
	[[ -n $x && $x == "$y" ]] || { echo "$1 $x"; echo "$2 $y"; return 1; }
}

NFS_LINK_TARGET="target/of/the link"

# _nfs_write_files DIR SRC: DIR with SRC's files and a symlink, synced
_nfs_write_files() {
	mkdir "$1" || return 1
	nfs_t cp "$2/big" "$2/odd" "$1/" || return 1
	nfs_t dd if="$2/small" of="$1/small" bs="$NFS_SMALL_BYTES" count=1 \
		oflag=direct status=none || return 1
	ln -s "$NFS_LINK_TARGET" "$1/link" || return 1
	nfs_t sync
}

_nfs_readlink() {
	local t
	t=$(nfs_t readlink "$1") || return 1
	echo "readlink: $t"
	[[ $t == "$NFS_LINK_TARGET" ]]
}

_nfs_small_back() {
	nfs_t dd if="$1" of=/tmp/nfs-small bs="$NFS_SMALL_BYTES" count=1 \
		iflag=direct status=none || return 1
	cmp /tmp/nfs-small "$2"
}

# _nfs_mkdir_entries DIR N: N empty files, by the shell itself (a fork
# per file is slow under TCG)
_nfs_mkdir_entries() {
	local i
	mkdir "$1" || return 1
	for ((i = 0; i < $2; i++)); do
		: >"$1/entry-$i" || return 1
	done
}

# _nfs_count_entries DIR N: the directory lists exactly N entries
_nfs_count_entries() {
	local n
	n=$(nfs_t ls -f -A "$1" | wc -l)
	echo "listed $n entries"
	((n == $2))
}

# _nfs_odirect SRC DST BACK: 1 MiB written and read back with O_DIRECT
_nfs_odirect() {
	nfs_t dd if="$1" of="$2" bs=1M count=1 oflag=direct status=none || return 1
	nfs_t dd if="$2" of="$3" bs=1M count=1 iflag=direct status=none || return 1
	head -c 1048576 "$1" | cmp - "$3"
}

# _nfs_rdma_rose SENT0 RCVD0 MIN: both rxe packet counters rose by MIN
_nfs_rdma_rose() {
	local ds dr
	ds=$(($(nfs_rxe_counter sent_pkts) - $1))
	dr=$(($(nfs_rxe_counter rcvd_pkts) - $2))
	echo "$NFS_RXE sent_pkts +$ds rcvd_pkts +$dr (want >= $3 each)"
	((ds >= $3 && dr >= $3))
}

# _nfs_chunks_used: the mount's xprt counted Read, Write and Reply chunks
# (fields after "rdma": 10 generic, then read, write, reply chunk counts)
_nfs_chunks_used() {
	local l
	l=$(nfs_xprt_line)
	awk '{ printf "read chunks %s, write chunks %s, reply chunks %s\n", $13, $14, $15
		exit !($13 > 0 && $14 > 0 && $15 > 0) }' <<<"$l"
}

# _nfs_wait_file FILE SECS: FILE exists within SECS
_nfs_wait_file() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		[[ -e $1 ]] && return 0
		sleep 0.1
	done
	return 1
}

# _nfs_paced_src SRC MIB AT: SRC's MIB MiB on stdout, a piece at a time;
# /tmp/nfs-mark appears after AT pieces, and 4 pieces later it waits
# (30 s at most) for /tmp/nfs-go: the break comes while the file is
# still being written, whatever the speed of the guest
_nfs_paced_src() {
	local i

	for ((i = 0; i < $2; i++)); do
		dd if="$1" bs=1M skip="$i" count=1 status=none || return 1
		((i + 1 == $3)) && : >/tmp/nfs-mark
		((i + 1 == $3 + 4)) && _nfs_wait_file /tmp/nfs-go 30
	done
	return 0
}

# Seconds a write may take to finish after its connection was broken
NFS_RECOVER_S=${NFS_RECOVER_S:-60}

# nfs_write_through_break SRC DST BREAK_CMD...: SRC (whole MiB) written to
#   DST by one dd (conv=fsync) while BREAK_CMD breaks the connection a
#   third of the way in; the write must end well within $NFS_RECOVER_S
#   seconds of the break. Dirty page limits of 1 and 4 MiB keep WRITEs
#   in flight all along, instead of all at the final fsync. A write
#   still stuck at the deadline is left to the caller's nfs_umount
#   (which aborts its RPCs). With NFS_BREAK_FLOWING=1 the writer does
#   not pause for BREAK_CMD: WRITEs are being sent while it breaks the
#   link, so that the client's QP has something to retransmit.
nfs_write_through_break() {
	local src=$1 dst=$2 mib pid t0 rc=0 k saved=()
	shift 2

	mib=$(($(stat -c %s "$src") >> 20))
	# a *_bytes of 0 means "use *_ratio", and cannot be written back
	for k in vm.dirty_background_ratio vm.dirty_background_bytes \
		vm.dirty_ratio vm.dirty_bytes; do
		[[ $(sysctl -n $k) == 0 ]] || saved+=("$k=$(sysctl -n $k)")
	done
	sysctl -qw vm.dirty_background_bytes=$((1 << 20)) vm.dirty_bytes=$((4 << 20))
	rm -f /tmp/nfs-mark /tmp/nfs-go
	# files, not our stdout: tap_check must not wait for a stuck dd
	_nfs_paced_src "$src" "$mib" $((mib / 3)) </dev/null 2>/dev/null |
		dd of="$dst" bs=1M iflag=fullblock conv=fsync status=none \
			>/tmp/nfs-dd.out 2>&1 &
	pid=$!
	if _nfs_wait_file /tmp/nfs-mark "$NFS_OP_TIMEOUT"; then
		echo "before the break: $(nfs_xprt_line | tr -s ' \t' ' ')"
		[[ ${NFS_BREAK_FLOWING:-0} == 1 ]] && : >/tmp/nfs-go
		"$@" || rc=1
	else
		echo "the first $((mib / 3)) MiB did not go into dd within ${NFS_OP_TIMEOUT}s"
		rc=1
	fi
	: >/tmp/nfs-go
	t0=$SECONDS
	while kill -0 "$pid" 2>/dev/null && ((SECONDS - t0 < NFS_RECOVER_S)); do
		sleep 0.2
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "dd still writing ${NFS_RECOVER_S}s after the break"
		echo "now: $(nfs_xprt_line | tr -s ' \t' ' ')"
		dmesg | tail -n 15
		rc=1
	else
		wait "$pid" || { rc=1; echo "dd failed: $(cat /tmp/nfs-dd.out)"; }
		echo "written $((SECONDS - t0))s after the break"
		echo "after: $(nfs_xprt_line | tr -s ' \t' ' ')"
	fi
	sysctl -qw "${saved[@]}"
	return $rc
}

# The mount's xprt: line at the end of the last nfs_workload
NFS_LAST_XPRT=

# nfs_workload LABEL VERS [EXTRA_OPTS] [CHECK_CHUNKS=0]: mount (with
#   $NFS_CAPTURE set, the RoCEv2 frames of the mount itself, CM exchange
#   and first RPCs, are captured there and reported), then
#   a $NFS_BIG_MIB MiB, a $NFS_ODD_BYTES and a $NFS_SMALL_BYTES-byte file, a directory of
#   $NFS_DIR_ENTRIES entries and a symlink written; unmounted and mounted
#   again; all read back (SHA-256, count, readlink); 1 MiB of O_DIRECT I/O;
#   proof it went over RDMA (mountstats, rxe counters; on iWARP the bytes
#   of the TCP connection on $NFS_PORT); unmounted. On iWARP the capture
#   is of TCP port $NFS_PORT (MPA, DDP/RDMAP, RPC-over-RDMA headers).
#   With $NFS_EXTRA set, that function is called as
#   "$NFS_EXTRA write LABEL DIR" before the remount and
#   "$NFS_EXTRA read LABEL DIR" after it, for a cell's own steps.
# Returns 1 when the mount already failed.
nfs_workload() {
	local label=$1 vers=$2 extra=${3:-} chunks=${4:-0}
	local d="$NFS_MNT/$label" src=/tmp/nfs-src s0 r0 min t0=$SECONDS

	mkdir -p "$src"
	[[ -s $src/big ]] || head -c $((NFS_BIG_MIB << 20)) /dev/urandom >"$src/big"
	[[ -s $src/odd ]] || head -c "$NFS_ODD_BYTES" /dev/urandom >"$src/odd"
	[[ -s $src/small ]] || head -c "$NFS_SMALL_BYTES" /dev/urandom >"$src/small"
	s0=$(nfs_rxe_counter sent_pkts)
	r0=$(nfs_rxe_counter rcvd_pkts)
	if [[ -n ${NFS_CAPTURE:-} ]]; then
		# not through tap_check: its subshell would lose the pid
		local what=RoCEv2
		nfs_iwarp && what="iWARP (TCP port $NFS_PORT)"
		if nfs_capture_start "$NFS_CAPTURE"; then
			tap_ok "$label: tcpdump captures $what"
		else
			tap_fail "$label: tcpdump captures $what" "$(cat /tmp/tcpdump.out)"
		fi
	fi
	tap_check "$label: mount -o $(nfs_opts "$vers" "$extra")" \
		nfs_mount "$vers" "$extra"
	local rc=$?
	if [[ -n ${NFS_CAPTURE:-} ]]; then
		nfs_capture_stop
		tap_check "$label: RPC-over-RDMA in the capture of the mount" \
			nfs_capture_report "$NFS_CAPTURE"
	fi
	((rc == 0)) || return 1
	tap_check "$label: mountstats say xprt: rdma" nfs_on_rdma
	tap_check "$label: $(nfs_xprt_name) carries the mount" nfs_xprt_not_linux
	# All writes first, then a remount: the reads come from the server
	tap_check "$label: write files of ${NFS_BIG_MIB} MiB, $NFS_ODD_BYTES and $NFS_SMALL_BYTES bytes, a symlink" \
		_nfs_write_files "$d" "$src"
	tap_check "$label: $NFS_DIR_ENTRIES directory entries created" \
		_nfs_mkdir_entries "$d/dir" "$NFS_DIR_ENTRIES"
	[[ -n ${NFS_EXTRA:-} ]] && "$NFS_EXTRA" write "$label" "$d"
	tap_check "$label: unmount and mount again" \
		_nfs_remount "$vers" "$extra"
	tap_check "$label: ${NFS_BIG_MIB} MiB file read back, SHA-256 equal" \
		same_file "$d/big" "$src/big"
	tap_check "$label: ${NFS_ODD_BYTES}-byte file read back, SHA-256 equal" \
		same_file "$d/odd" "$src/odd"
	tap_check "$label: ${NFS_SMALL_BYTES}-byte file read back with O_DIRECT, equal" \
		_nfs_small_back "$d/small" "$src/small"
	tap_check "$label: directory lists $NFS_DIR_ENTRIES entries" \
		_nfs_count_entries "$d/dir" "$NFS_DIR_ENTRIES"
	tap_check "$label: readlink gives the symlink's target" \
		_nfs_readlink "$d/link"
	[[ -n ${NFS_EXTRA:-} ]] && "$NFS_EXTRA" read "$label" "$d"
	tap_check "$label: 1 MiB O_DIRECT write and read, equal" \
		_nfs_odirect "$src/big" "$d/direct" /tmp/nfs-direct
	# The big file alone is that many 1024-byte (rxe MTU) packets each way
	min=$((NFS_BIG_MIB * 1024))
	if nfs_iwarp; then
		tap_check "$label: RDMA carried it" _nfs_iwarp_carried
	else
		tap_check "$label: RDMA carried it" _nfs_rdma_rose "$s0" "$r0" "$min"
	fi
	if ((chunks)); then
		tap_check "$label: Read, Write and Reply chunks used" _nfs_chunks_used
	fi
	NFS_LAST_XPRT=$(nfs_xprt_line | tr -s ' \t' ' ')
	echo "# $label: $NFS_LAST_XPRT"
	tap_check "$label: unmount" nfs_umount
	echo "# $label: $((SECONDS - t0))s"
}

# ---------------------------------------------------------------- capture

NFS_TCPDUMP_PID=
# nfs_capture_start FILE: RoCEv2 frames of eth0 (UDP 4791) into FILE,
# headers and the first bytes of payload only; on iWARP the whole
# segments of TCP port $NFS_PORT (the streams are parsed from the start)
nfs_capture_start() {
	local i snap=400 filter="udp port 4791"
	if nfs_iwarp; then snap=0 filter="tcp port $NFS_PORT"; fi
	# Background jobs of a script read /dev/null: give it files
	# immediate: a packet not yet handed over when we stop it is lost
	tcpdump -i eth0 -s "$snap" --immediate-mode -U -w "$1" "$filter" \
		</dev/null >/tmp/tcpdump.out 2>&1 &
	NFS_TCPDUMP_PID=$!
	for ((i = 0; i < 100; i++)); do
		grep -q 'listening on' /tmp/tcpdump.out && return 0
		sleep 0.1
	done
	return 1
}

nfs_capture_stop() {
	[[ -n $NFS_TCPDUMP_PID ]] || return 0
	# The last replies may still be on their way through a slow guest
	sleep 1
	kill -INT "$NFS_TCPDUMP_PID" 2>/dev/null
	wait "$NFS_TCPDUMP_PID" 2>/dev/null
	NFS_TCPDUMP_PID=
}

# nfs_capture_report FILE: CM private data, credits and opcodes seen
nfs_capture_report() {
	local py=$NFS_PCAP_PY
	nfs_iwarp && py=$NFS_IWARP_PCAP_PY
	python3 "$py" "$1" | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}

# nfs_pcap_versions FILE: the capture's RPC-over-RDMA header versions,
# one line a direction: "versions SRC->DST: V xN[, V xN]"
nfs_pcap_versions() {
	local py=$NFS_PCAP_PY
	nfs_iwarp && py=$NFS_IWARP_PCAP_PY
	python3 "$py" "$1" | grep '^versions '
}

# nfs_pcap_only_vers FILE V: headers went both ways, all of version V
nfs_pcap_only_vers() {
	local v
	v=$(nfs_pcap_versions "$1")
	echo "$v"
	(($(grep -c . <<<"$v") >= 2)) &&
		! grep -vqE "^versions [^ ]+: $2 x[0-9]+$" <<<"$v"
}

# nfs_pcap_connprop FILE: an RDMA2_CONNPROP went each way (draft §6.4.4)
nfs_pcap_connprop() {
	local t
	t=$(python3 "$NFS_PCAP_PY" "$1" --max 64 | grep -E '^types |RDMA2_CONNPROP')
	echo "$t"
	(($(grep -c '^types .*RDMA2_CONNPROP' <<<"$t") >= 2))
}

# nfs_pcap_fell_back FILE: the client (this guest) sent version 2 and
# then version 1, the server answered in version 1 (draft §4.3.3), but
# for an ERR_VERS with version 2's word (Linux's svcrdma copies the
# call's) to each version 2 call
nfs_pcap_fell_back() {
	local v n
	v=$(nfs_pcap_versions "$1")
	echo "$v"
	n=$(grep -oE "^versions ${SMCR_SELF_IP}[^ ]*->[^ ]+: 1 x[0-9]+, 2 x[0-9]+$" <<<"$v" |
		sed 's/.* x//')
	[[ -n $n ]] &&
		grep -qE "^versions ${SMCR_PEER_IP}[^ ]*->[^ ]+: 1 x[0-9]+(, 2 x$n)?$" <<<"$v"
}

# nfs_traced ERE...: the trace ring has a line matching each ERE
nfs_traced() {
	local re
	for re in "$@"; do
		grep -E "$re" /sys/kernel/tracing/trace | head -n 2 | sed 's/^ */# /'
		grep -qE "$re" /sys/kernel/tracing/trace || return 1
	done
}

# traced_at_least EVENT N: rpcr's trace (the tracing ring's, all of it
# kept: buffer_size_kb raised) counted EVENT N times at least
traced_at_least() {
	local n
	n=$(grep -c " $1:" /sys/kernel/tracing/trace)
	echo "$1: $n"
	((n >= $2))
}

# run_cell BUDGET NAME FUNC...: FUNC's TAP lines; FUNC still running
# after BUDGET seconds (tscale'd) is stopped (its step in progress ends
# by its own timeout) and the mount is forced off
run_cell() {
	local budget name=$2 pid t0=$SECONDS
	budget=$(tscale "$1")
	shift 2
	"$@" </dev/null >/tmp/cell.out 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null && ((SECONDS - t0 < budget)); do
		sleep 0.5
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		cat /tmp/cell.out
		tap_fail "$name: done within ${budget}s" \
			"stopped; the mount: $(nfs_xprt_line | tr -s ' \t' ' ')" \
			"$(dmesg | tail -n 20)"
		# nfs_umount could take its two timeouts: lazily, at once
		timeout -k 2 10 umount -f "$NFS_MNT" >/dev/null 2>&1 ||
			umount -l "$NFS_MNT" >/dev/null 2>&1
	else
		wait "$pid"
		cat /tmp/cell.out
		echo "# $name: ${SECONDS}s since start, $((SECONDS - t0))s this phase"
	fi
}

# nfs_trace_on SYSTEM: all events of SYSTEM into an empty, large ring
nfs_trace_on() {
	echo 0 >"/sys/kernel/tracing/tracing_on"
	echo 20000 >"/sys/kernel/tracing/buffer_size_kb"
	echo >"/sys/kernel/tracing/trace"
	echo 1 >"/sys/kernel/tracing/events/$1/enable" && echo 1 >"/sys/kernel/tracing/tracing_on"
}

# nfs_trace_save NAME: the ring into the out dir as NAME.trace, then emptied; its
# event counts and error events as diagnostics
nfs_trace_save() {
	local f="$SMCR_OUT/$SMCR_NAME.$SMCR_ROLE.$1.trace"
	cat "/sys/kernel/tracing/trace" >"$f"
	echo >"/sys/kernel/tracing/trace"
	echo "# $1 trace: $(grep -vc "^#" "$f") events in ${f##*/}:" \
		"$(grep -oE ' (rpcr|xprtrdma|svcrdma)_[a-z_0-9]+:' "$f" |
			sort | uniq -c | sort -rn | head -n 25 |
			awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }')"
	# errors first, then the connection's events
	grep -v '^#' "$f" | grep -iE 'err|reject|unreach|flush' |
		head -n 15 | sed 's/^ */# /'
	grep -v '^#' "$f" | grep -E '_cm_(event|peer)|connect|disconnect' |
		grep -viE 'err|reject|unreach' | head -n 10 | sed 's/^ */# /'
}
