#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
#
# NFS benchmark, inside each guest (scripts/bench nfs): guest b is knfsd
# exporting a tmpfs, guest a the client. For each transport in turn, NFS
# over TCP, Linux's rpcrdma on both guests, then our rpcr.ko on both
# guests in RPC-over-RDMA version 2 and then in version 1, a mounts the export (rsize and wsize 1 MiB) and fio runs, all
# with O_DIRECT so that every byte crosses the link: a sequential 1 MiB
# write, a sequential 1 MiB read and a 4 KiB random read, each for SECS
# seconds, ROUNDS times. a prints every round and then a table of the
# medians with ratios, and one of the RDMA operations per RPC call (Sends
# each way, chunks), as "# bench: " lines. Not a test: nothing asserts;
# a step that fails is a "not ok" line and its cells stay empty.
#
# Parameters come from $SMCR_OUT/bench-nfs.conf, which scripts/bench
# writes: SECS, ROUNDS, VERS (NFS versions, e.g. "3 4.2"), MIB (file size).
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"

SECS=10 ROUNDS=3 VERS=3 MIB=64
if [[ -r $SMCR_OUT/bench-nfs.conf ]]; then
	# shellcheck source=/dev/null
	source "$SMCR_OUT/bench-nfs.conf"
fi
# The export holds one file of MIB MiB per version
NFS_GRACE=10
# One fio run may take its SECS, plus its start and a slow unmount
NFS_OP_TIMEOUT=$((SECS * 2 + 60))
RES=/tmp/bench-nfs.res
OPS=/tmp/bench-nfs.ops
MiB=1048576
# fio's I/O depth: sequential 1 MiB, random 4 KiB. Kept low: RoCE over
# rxe has no congestion control, and long bursts of RDMA Writes have
# stalled the guests' link (run-pair's NETDEV WATCHDOG, issue 14)
SEQ_DEPTH=1 RAND_DEPTH=8

# phase_secs: the longest one transport's rows take on a (mounts, file
# layout, ROUNDS x 3 fio runs per version), for the peer's barriers
phase_secs() {
	local v n=0
	for v in $VERS; do n=$((n + 1)); done
	echo $((n * (120 + ROUNDS * 3 * (SECS + 30)) + 120))
}

# rmmod_wait MODULE: unload, retrying while connections still go away
rmmod_wait() {
	local i
	grep -q "^$1 " /proc/modules || return 0
	for ((i = 0; i < 60; i++)); do
		rmmod "$1" 2>/dev/null && return 0
		sleep 1
	done
	rmmod "$1"
}

# ---------------------------------------------------------------- server

# server_restart linux|ours: nfsd stopped (its listeners gone), the
# RPC-over-RDMA module swapped, nfsd started again with its RDMA listener
# server_to_ours: nfsd stopped (its listeners gone), Linux's rpcrdma
# swapped for rpcr.ko, nfsd started again with its RDMA listener
server_to_ours() {
	tap_check "rpc.nfsd 0 (b)" rpc.nfsd 0 || return 1
	tap_check "rmmod rpcrdma (b)" rmmod_wait rpcrdma || return 1
	nfs_xprt_load ours || return 1
	echo "$NFS_GRACE" >/proc/fs/nfsd/nfsv4gracetime
	echo "$NFS_GRACE" >/proc/fs/nfsd/nfsv4leasetime
	tap_check "rpc.nfsd 8 with rdma $NFS_PORT (rpcr.ko)" bash -c \
		"rpc.nfsd 8 && echo 'rdma $NFS_PORT' >/proc/fs/nfsd/portlist" || return 1
	wait_rdma_listen "$NFS_PORT" 30 && wait_listen 2049 30
}

guest_b() {
	local phase
	phase=$(phase_secs)
	NFS_SERVER_XPRT=linux
	# knfsd's largest READ and WRITE: by default a fraction of the
	# memory (256 KiB here); settable only before its threads start
	modprobe nfsd
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd
	tap_check "knfsd max_block_size 1 MiB" \
		bash -c "echo $MiB >/proc/fs/nfsd/max_block_size"
	nfs_xprt_load linux && nfs_server_start
	barrier nfs-up 120
	# a: TCP and Linux's rows
	barrier swap $((phase * 2 + 60)) || return 1
	server_to_ours || tap_fail "knfsd over rpcr.ko"
	barrier swapped 120 || return 1
	# a: our rows in version 2, then in version 1
	barrier finished $((phase * 2 + 60))
	nfs_server_report
	tap_check "rpc.nfsd 0 (b)" rpc.nfsd 0
	tap_check "rmmod rpcr (b)" rmmod_wait rpcr
	tap_check "no kernel warning (b)" dmesg_clean
}

# ---------------------------------------------------------------- client

# fio_run NAME FILE RW BS DEPTH: one fio run of SECS on FILE (it exists at
# MIB MiB); prints MiB/s (rw: write or read) or IOPS (randread)
fio_run() {
	local name=$1 file=$2 rw=$3 bs=$4 depth=$5 out=/tmp/fio.$1.json
	nfs_t fio --output-format=json --output="$out" --name="$name" \
		--filename="$file" --size="${MIB}M" --rw="$rw" --bs="$bs" \
		--ioengine=libaio --direct=1 --iodepth="$depth" \
		--time_based --runtime="$SECS" --randrepeat=0 --fallocate=none \
		>"/tmp/fio.$name.err" 2>&1 || {
		echo "fio $name: $(tr '\n' ' ' <"/tmp/fio.$name.err")"
		return 1
	}
	python3 - "$out" "$rw" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
rw = sys.argv[2]
if j["error"]:
    sys.exit("fio error %d" % j["error"])
if rw == "randread":
    print("%.0f" % j["read"]["iops"])
else:
    print("%.2f" % (j["write" if rw == "write" else "read"]["bw_bytes"] / 1048576))
PY
}

# ops_snap: the mount's RPC calls sent, its Read, Write and Reply chunks
# (mountstats' xprt line: sends, then the chunk counts after 3 more) and
# the RDMA device's Sends completed and receives (rxe's rdma_sends and
# rdma_recvs: the client's Sends, the server's)
ops_snap() {
	nfs_xprt_line | awk '{ printf "%s %s ", $8, $13 + $14 + $15 }'
	echo "$(nfs_rxe_counter rdma_sends) $(nfs_rxe_counter rdma_recvs)"
}

# run_one LABEL KEY FILE RW BS DEPTH: one fio run, its result as
# "KEY VALUE" into $RES, over RPC-over-RDMA its operations per call as
# "KEY SENDS RECVS CHUNKS" into $OPS; not ok and 1 when it failed
run_one() {
	local v key=$2 w o0 o1
	w=${key#* }
	w=${w%% *}
	o0=$(ops_snap)
	if v=$(fio_run "$w" "$3" "$4" "$5" "$6"); then
		echo "$key $v" >>"$RES"
		o1=$(ops_snap)
		# KEY (4 words), then calls, chunks, Sends, receives before
		# and after
		[[ $key == *" tcp "* ]] ||
			echo "$key $o0 $o1" | awk '{ c = $9 - $5
				if (c > 0) printf "%s %s %s %s %.2f %.2f %.2f\n",
					$1, $2, $3, $4, ($11 - $7) / c,
					($12 - $8) / c, ($10 - $6) / c }' >>"$OPS"
		return 0
	fi
	tap_fail "$1: fio $w, round ${key##* }" "$v"
	return 1
}

# mount_for XPRT VERS: the export mounted over XPRT (tcp, linux, ours)
mount_for() {
	local xprt=$1 vers=$2 proto=rdma port=$NFS_PORT
	if [[ $xprt == tcp ]]; then proto=tcp port=2049; fi
	NFS_PROTO=$proto NFS_PORT=$port nfs_mount "$vers" \
		"rsize=$MiB,wsize=$MiB,hard,timeo=600"
}

# on_xprt XPRT: the mount goes over the transport it should
on_xprt() {
	local l
	l=$(nfs_xprt_line)
	echo "$l"
	awk -v m="$NFS_MNT" '$2 == m { print $4 }' /proc/mounts
	case $1 in
	tcp) [[ $l =~ xprt:[[:space:]]+tcp ]] ;;
	linux) [[ $l =~ xprt:[[:space:]]+rdma ]] && grep -q '^rpcrdma ' /proc/modules ;;
	ours | ours-v1)
		[[ $l =~ xprt:[[:space:]]+rdma ]] && grep -q '^rpcr ' /proc/modules &&
			! grep -q '^rpcrdma ' /proc/modules &&
			grep -q " connected vers=$(ours_vers "$1") " /proc/net/rpcr ;;
	esac
}

# ours_vers ours|ours-v1: the RPC-over-RDMA version of the row
ours_vers() { if [[ $1 == ours-v1 ]]; then echo 1; else echo 2; fi; }

# rows XPRT: every version's ROUNDS rounds over XPRT into $RES
rows() {
	local xprt=$1 vers f r label ok
	for vers in $VERS; do
		label="$xprt v$vers"
		tap_check "$label: mount" mount_for "$xprt" "$vers" || continue
		tap_check "$label: on the right transport" on_xprt "$xprt"
		echo "# bench: $label: $(awk -v m="$NFS_MNT" '$2 == m { print $4 }' /proc/mounts |
			tr ',' '\n' | grep -E '^(vers|proto|rsize|wsize)=' | tr '\n' ' ')"
		f=$NFS_MNT/bench-v$vers
		# the file laid out once, so every run reads and overwrites
		# blocks that exist (and v4's grace is over)
		tap_check "$label: ${MIB} MiB file laid out" \
			nfs_t dd if=/dev/zero of="$f" bs=1M count="$MIB" \
			oflag=direct status=none || { nfs_umount; continue; }
		for ((r = 1; r <= ROUNDS; r++)); do
			# (a run that failed: the mount is likely stuck, the rest
			# of this mount's runs would only wait out their timeouts)
			run_one "$label" "v$vers seqwrite $xprt $r" "$f" write 1M "$SEQ_DEPTH" &&
				run_one "$label" "v$vers seqread $xprt $r" "$f" read 1M "$SEQ_DEPTH" &&
				run_one "$label" "v$vers randread $xprt $r" "$f" randread 4k "$RAND_DEPTH"
			ok=$?
			echo "# bench: $label round $r: $(grep " $xprt $r " "$RES" | grep "^v$vers " |
				awk '{ printf "%s %s  ", $2, $5 }')"
			((ok == 0)) || break
		done
		nfs_t rm -f "$f"
		NFS_LAST_XPRT=$(nfs_xprt_line | tr -s ' \t' ' ')
		echo "# $label: $NFS_LAST_XPRT"
		tap_check "$label: unmount" nfs_umount
	done
}

# table: medians [min-max] per workload and transport, and the ratios
table() {
	python3 - "$RES" "$SECS" "$ROUNDS" "$SEQ_DEPTH" "$RAND_DEPTH" "$OPS" <<'PY'
import statistics, sys
res, secs, rounds = sys.argv[1], sys.argv[2], sys.argv[3]
vals = {}
for line in open(res):
    f = line.split()
    if len(f) == 5:
        try:
            vals.setdefault((f[0], f[1], f[2]), []).append(float(f[4]))
        except ValueError:
            pass
names = {"seqwrite": ("seq write 1 MiB", "MiB/s"),
         "seqread": ("seq read 1 MiB", "MiB/s"),
         "randread": ("rand read 4 KiB", "IOPS")}
xprts = ("tcp", "linux", "ours", "ours-v1")
print("fio O_DIRECT libaio (1 MiB at depth %s, 4 KiB at depth %s),"
      " %s rounds of %s s: median [min-max]" % (sys.argv[4], sys.argv[5], rounds, secs))
print("%-30s %-20s %-20s %-20s %-20s %10s %8s %8s" % (
    "workload", "NFS/TCP", "Linux rpcrdma (v1)", "ours v2", "ours v1",
    "v2/Linux", "v2/v1", "v2/TCP"))
def cell(v, unit):
    if not v:
        return "-"
    f = "%.0f" if unit == "IOPS" else "%.1f"
    return (f + " [" + f + "-" + f + "]") % (statistics.median(v), min(v), max(v))
def ratio(a, b):
    if not a or not b or statistics.median(b) == 0:
        return "-"
    return "%.2f" % (statistics.median(a) / statistics.median(b))
for vers in sorted({k[0] for k in vals}):
    for w in ("seqwrite", "seqread", "randread"):
        v = {x: vals.get((vers, w, x), []) for x in xprts}
        u = names[w][1]
        print("%-30s %-20s %-20s %-20s %-20s %10s %8s %8s" % (
            "NFS%s %s (%s)" % (vers, names[w][0], u),
            cell(v["tcp"], u), cell(v["linux"], u), cell(v["ours"], u),
            cell(v["ours-v1"], u), ratio(v["ours"], v["linux"]),
            ratio(v["ours"], v["ours-v1"]), ratio(v["ours"], v["tcp"])))
# RDMA operations per RPC call, medians of the rounds: the client's
# Sends, the server's (the client's receives), and the chunks the server
# moved by RDMA Read or Write
ops = {}
for line in open(sys.argv[6]):
    f = line.split()
    if len(f) == 7:
        ops.setdefault((f[0], f[1], f[2]), []).append([float(x) for x in f[4:]])
print()
print("RDMA operations per RPC call (median of the rounds): client Sends /"
      " server Sends / chunks (each an RDMA Read or Write of the server's)")
print("%-30s %-20s %-20s %-20s" % ("workload", "Linux rpcrdma (v1)", "ours v2", "ours v1"))
def opcell(v):
    if not v:
        return "-"
    return " / ".join("%.2f" % statistics.median(x[i] for x in v) for i in range(3))
for vers in sorted({k[0] for k in vals}):
    for w in ("seqwrite", "seqread", "randread"):
        print("%-30s %-20s %-20s %-20s" % (
            "NFS%s %s" % (vers, names[w][0]),
            opcell(ops.get((vers, w, "linux"))), opcell(ops.get((vers, w, "ours"))),
            opcell(ops.get((vers, w, "ours-v1")))))
PY
}

guest_a() {
	local phase
	phase=$(phase_secs)
	: >"$RES"
	: >"$OPS"
	# (a failed step costs its rows only: b waits at the barriers)
	nfs_xprt_load linux
	barrier nfs-up 120 || return 1
	rows tcp
	rows linux
	tap_check "rmmod rpcrdma (a)" rmmod_wait rpcrdma
	nfs_xprt_load ours
	barrier swap 60 || return 1
	barrier swapped $((phase + 120)) || return 1
	rows ours
	# the same in RPC-over-RDMA version 1, our client pinned to it
	tap_check "sunrpc.rdma_max_version 1 (a)" \
		bash -c 'echo 1 >/proc/sys/sunrpc/rdma_max_version'
	rows ours-v1
	echo 2 >/proc/sys/sunrpc/rdma_max_version
	barrier finished 60
	tap_check "rmmod rpcr (a)" rmmod_wait rpcr
	tap_check "no kernel warning (a)" dmesg_clean
	table | sed 's/^/# bench: /'
}

if [[ $SMCR_ROLE == a ]]; then
	guest_a
else
	guest_b
fi
exit 0
