#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 360
#
# Group "nfs-devremove": the RDMA device goes away under a live NFSv3 mount,
# on the side where OUR transport (net/rpcrdma/rpcr.ko) runs, and comes back:
#   client  a = our client, b = Linux's knfsd and svcrdma. a mounts
#           (hard, timeo=100,retrans=2), starts a paced $DEVRM_MIB MiB write
#           (conv=fsync) and a third of the way in deletes its own rxe0:
#           `rdma link delete` must return within $DEVRM_MAX_S s (Linux's
#           smc.ko blocked it forever in a like case). $DEVRM_GAP_S s later
#           rxe0 is added again; the write must complete, the connect count
#           rise, the file read back after a remount have the right SHA-256,
#           and once unmounted `rmmod rpcr` must go (no reference leaked).
#   server  b = our server (rpcr.ko under knfsd, Linux's rpcrdma unloaded
#           first), a = Linux's client. The same write from a; b deletes
#           and re-adds its rxe0. Then `rpc.nfsd 0` and `rmmod rpcr` on b.
# A delete still running after $DEVRM_MAX_S s is not ok, with the evidence:
# the `rdma` command's kernel stack, blocked tasks (sysrq w), rdma
# resources and the rpcr trace, printed as diagnostics and kept in
# $SMCR_OUT/nfs-devremove-<part>.evidence.
#   scripts/run-tests nfs-devremove
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"

NFS_OP_TIMEOUT=60
DEVRM_MIB=${DEVRM_MIB:-16}
# rdma link delete must be back within this many seconds
DEVRM_MAX_S=${DEVRM_MAX_S:-20}
# seconds without the device before it is added again
DEVRM_GAP_S=${DEVRM_GAP_S:-2}
# hard (the default), and RPCs that time out soon on a dead connection
DEVRM_OPTS=timeo=100,retrans=2
TRACE=/sys/kernel/tracing
NO_LINUX_RPCRDMA=/etc/modprobe.d/zz-nfs-test-no-linux-rpcrdma.conf

# us: microseconds since the epoch, without a fork
us() { echo "${EPOCHREALTIME/./}"; }

# _bounded SECS OUT CMD...: CMD's output appended to OUT; not waited for
# beyond SECS (a command stuck in the kernel cannot be killed)
_bounded() {
	local s=$1 out=$2 pid i
	shift 2
	"$@" </dev/null >>"$out" 2>&1 &
	pid=$!
	for ((i = 0; i < s * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || { wait "$pid"; return; }
		sleep 0.1
	done
	echo "(still running after ${s}s: $*)" >>"$out"
	return 1
}

rpcr_trace_on() {
	mountpoint -q $TRACE || mount -t tracefs nodev $TRACE
	echo 20000 >$TRACE/buffer_size_kb
	: >$TRACE/trace
	echo 1 >$TRACE/events/rpcr/enable
}

# _evidence PID FILE: what a stuck `rdma link delete` (PID) waits on
_evidence() {
	local pid=$1 f=$2 t n

	{
		echo "== rdma link delete, pid $pid: $(ps -o stat=,wchan:40=,etimes= -p "$pid")"
		echo "== /proc/$pid/stack"
		cat "/proc/$pid/stack"
		for t in /proc/"$pid"/task/*; do
			[[ $t == /proc/$pid/task/$pid ]] && continue
			echo "== $t/stack"
			cat "$t/stack"
		done
		echo "== tasks in D state"
		ps -eo pid,stat,wchan:40,comm | awk '$2 ~ /D/'
	} >"$f" 2>&1
	n=$(dmesg | wc -l)
	echo w >/proc/sysrq-trigger
	sleep 1
	{
		echo "== sysrq w (blocked tasks), and the kernel log since"
		dmesg | tail -n +$((n + 1))
		echo "== the kernel log before (last 40 lines)"
		dmesg | head -n "$n" | tail -n 40
	} >>"$f" 2>&1
	echo "== rdma resource show" >>"$f"
	_bounded 5 "$f" rdma resource show
	echo "== rdma resource show cm_id" >>"$f"
	_bounded 5 "$f" rdma resource show cm_id
	echo "== rdma resource show qp" >>"$f"
	_bounded 5 "$f" rdma resource show qp
	echo "== rdma link" >>"$f"
	_bounded 5 "$f" rdma link show
	echo "== rpcr trace (last 300 lines)" >>"$f"
	tail -n 300 $TRACE/trace >>"$f" 2>&1
}

# devrm_cycle TAG: rxe0 deleted, timed, in the background so that a stuck
# delete is seen and its evidence taken; $DEVRM_GAP_S s later added again
# and waited for until ACTIVE (20 s). Results in /tmp/devrm.TAG.{del,add}
# ("RC MS" and "RC"), the evidence in $SMCR_OUT/nfs-devremove-TAG.evidence.
devrm_cycle() {
	local tag=$1 pid t0 rc ms i ev="$SMCR_OUT/nfs-devremove-$1.evidence"

	rm -f "/tmp/devrm.$tag".* "$ev"
	echo "# $tag: rdma link delete $NFS_RXE at $(date +%T.%N)" >"/tmp/devrm.$tag.log"
	t0=$(us)
	rdma link delete "$NFS_RXE" </dev/null >"/tmp/devrm.$tag.out" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null && (($(us) - t0 < DEVRM_MAX_S * 1000000)); do
		sleep 0.05
	done
	if kill -0 "$pid" 2>/dev/null; then
		_evidence "$pid" "$ev"
		# a last chance, for the record: does it end at all?
		for ((i = 0; i < 100; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$pid" 2>/dev/null; then
			echo "stuck $((($(us) - t0) / 1000))" >"/tmp/devrm.$tag.del"
			return 1
		fi
	fi
	wait "$pid"
	rc=$?
	ms=$((($(us) - t0) / 1000))
	echo "$rc $ms" >"/tmp/devrm.$tag.del"
	((rc == 0)) || return 1
	sleep "$DEVRM_GAP_S"
	rdma link add "$NFS_RXE" type rxe netdev eth0 >>"/tmp/devrm.$tag.out" 2>&1 ||
		{ echo 1 >"/tmp/devrm.$tag.add"; return 1; }
	for ((i = 0; i < 200; i++)); do
		if rdma link show "$NFS_RXE/1" 2>/dev/null | grep 'state ACTIVE' >/dev/null; then
			echo 0 >"/tmp/devrm.$tag.add"
			return 0
		fi
		sleep 0.1
	done
	echo 2 >"/tmp/devrm.$tag.add"
	return 1
}

# devrm_report TAG: TAP lines from devrm_cycle's files
devrm_report() {
	local tag=$1 del add rc ms ev="$SMCR_OUT/nfs-devremove-$1.evidence"
	local name="$tag: rdma link delete $NFS_RXE under the mount returns within ${DEVRM_MAX_S}s"

	del=$(cat "/tmp/devrm.$tag.del" 2>/dev/null)
	read -r rc ms <<<"$del"
	if [[ -z $del ]]; then
		tap_fail "$name" "the device was never deleted (the write did not get that far)"
	elif [[ $rc == stuck ]]; then
		tap_fail "$name" "still running after $((ms / 1000))s; evidence in $ev:"
		sed 's/^/# /' "$ev"
	elif ((rc != 0)); then
		tap_fail "$name" "exit status $rc: $(cat "/tmp/devrm.$tag.out")"
	elif ((ms > DEVRM_MAX_S * 1000)); then
		tap_fail "$name" "took ${ms} ms; evidence in $ev:"
		sed 's/^/# /' "$ev"
	else
		tap_ok "$name"
		echo "# $tag: rdma link delete took ${ms} ms"
	fi
	[[ $rc == 0 ]] || return 0
	add=$(cat "/tmp/devrm.$tag.add" 2>/dev/null)
	if [[ $add == 0 ]]; then
		tap_ok "$tag: rdma link add $NFS_RXE type rxe netdev eth0, ACTIVE again"
	else
		tap_fail "$tag: rdma link add $NFS_RXE type rxe netdev eth0, ACTIVE again" \
			"status ${add:-none}: $(cat "/tmp/devrm.$tag.out")"
	fi
}

# trace_cm TAG: our CM events as diagnostics, the trace kept in $SMCR_OUT
trace_cm() {
	cp $TRACE/trace "$SMCR_OUT/nfs-devremove-$1.trace" 2>/dev/null
	echo "# $1: rpcr CM events:"
	grep -E 'rpcr_cm_event|rpcr_wc_error' $TRACE/trace | tail -n 30 |
		sed -E 's/^ +//; s/^/#   /'
}

# write_through_removal TAG BREAK_CMD...: mount, the paced write with
# BREAK_CMD a third of the way in, connect count, remount, SHA-256, umount
write_through_removal() {
	local tag=$1 src=/tmp/nfs-src/devrm c0
	shift

	mkdir -p /tmp/nfs-src
	[[ -s $src ]] || head -c $((DEVRM_MIB << 20)) /dev/urandom >"$src"
	tap_check "$tag: mount -o $(nfs_opts 3 "$DEVRM_OPTS")" nfs_mount 3 "$DEVRM_OPTS" ||
		return 1
	tap_check "$tag: mountstats say xprt: rdma" nfs_on_rdma
	c0=$(nfs_connects)
	tap_check "$tag: $DEVRM_MIB MiB write (conv=fsync) goes on through the removal" \
		nfs_write_through_break "$src" "$NFS_MNT/$tag" "$@"
	[[ $1 == devrm_cycle ]] && devrm_report "$tag"
	tap_check "$tag: the transport connected again" _nfs_connects_rose "$c0"
	echo "# $tag: $(nfs_xprt_line | tr -s ' \t' ' ')"
	tap_check "$tag: unmount and mount again" _nfs_remount 3 "$DEVRM_OPTS"
	tap_check "$tag: $DEVRM_MIB MiB file read back, SHA-256 equal" \
		same_file "$NFS_MNT/$tag" "$src"
	tap_check "$tag: unmount" nfs_umount
}

# _ask_b: the break of the server part, b's device
_ask_b() {
	: >/tmp/devrm-asked
	barrier s-remove 60 && barrier s-removed 120
}

# _rmmod_wait MOD: rmmod, tried again for 30 s while transports go away
_rmmod_wait() {
	local i out

	for ((i = 0; i < 30; i++)); do
		grep -q "^$1 " /proc/modules || return 0
		out=$(timeout 30 rmmod "$1" 2>&1) && return 0
		sleep 1
	done
	echo "$out"
	grep "^$1 " /proc/modules
	return 1
}

# _server_ours: knfsd from Linux's svcrdma to ours: nfsd stopped, Linux's
# rpcrdma unloaded, rpcr.ko loaded (nfs_xprt_load), nfsd started again
_server_stop_linux() {
	rpc.nfsd 0 </dev/null >>/tmp/nfs-daemons.log 2>&1 || return 1
	_rmmod_wait rpcrdma
}

_server_restart() {
	rpc.nfsd 8 </dev/null >>/tmp/nfs-daemons.log 2>&1 || return 1
	echo "rdma $NFS_PORT" >/proc/fs/nfsd/portlist || return 1
	echo "portlist: $(tr '\n' ' ' </proc/fs/nfsd/portlist)"
	wait_rdma_listen "$NFS_PORT" 30
}

guest_a() {
	local t0=$SECONDS ok=1

	# ---- client: ours
	nfs_xprt_load ours || ok=0
	((ok)) && rpcr_trace_on
	barrier c-up 120 || ok=0
	if ((ok)); then
		NFS_CLIENT_XPRT=ours
		write_through_removal client devrm_cycle client
		trace_cm client
		tap_check "client: rmmod rpcr once unmounted" _rmmod_wait rpcr
	fi
	echo "# client part done at $((SECONDS - t0))s"
	barrier c-done 240

	# ---- server: Linux's client
	rm -f "$NO_LINUX_RPCRDMA"
	NFS_CLIENT_XPRT=linux
	nfs_xprt_load linux || ok=0
	barrier s-up 120 || ok=0
	rm -f /tmp/devrm-asked
	((ok)) && write_through_removal server _ask_b
	# b waits for both barriers whatever happened here
	if [[ ! -e /tmp/devrm-asked ]]; then
		barrier s-remove 60
		barrier s-removed 60
	fi
	echo "# server part done at $((SECONDS - t0))s"
	barrier s-done 120
	tap_check "no kernel warning (a)" dmesg_clean
}

guest_b() {
	# ---- client: Linux's knfsd and svcrdma
	nfs_server_start
	barrier c-up 120
	barrier c-done 240
	nfs_server_report

	# ---- server: ours
	tap_check "knfsd stopped, Linux's rpcrdma unloaded" _server_stop_linux
	nfs_xprt_load ours && rpcr_trace_on
	tap_check "knfsd started again on our rdma 20049" _server_restart
	barrier s-up 120
	if barrier s-remove 240; then
		devrm_cycle server
		devrm_report server
	fi
	barrier s-removed 120
	barrier s-done 240
	nfs_server_report
	trace_cm server
	tap_check "server: rpc.nfsd 0" rpc.nfsd 0
	tap_check "server: rmmod rpcr then succeeds" _rmmod_wait rpcr
	tap_check "no kernel warning (b)" dmesg_clean
}

if [[ $SMCR_ROLE == a ]]; then guest_a; else guest_b; fi
exit 0
