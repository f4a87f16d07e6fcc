#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 150
#
# Group "nfs-deleg": an NFSv4.1 read delegation recalled over the
# RPC-over-RDMA backchannel (RFC 8167), with OUR client transport
# (net/rpcrdma/rpcr.ko on guest a) against Linux's knfsd and svcrdma on b.
#   a  mounts v4.1 over RDMA and keeps a file open read-only: knfsd hands
#      out a read delegation (b's states file lists "type: deleg")
#   b  appends to the file locally: the lease break makes knfsd send
#      CB_SEQUENCE + CB_RECALL over the backchannel; a answers it over
#      RDMA (rpcr:rpcr_bcall_recv / rpcr_bcall_reply) and returns the
#      delegation, so the local write ends in well under the lease time
#      (otherwise it waits until knfsd revokes the delegation)
#   a  sees the appended data (SHA-256 of the whole file equal to b's)
#
# Why the server is set up as it is: knfsd gives no delegation while ANY
# lock manager of the net namespace is in its grace period
# (nfs4_open_delegation: locks_in_grace(), which is true while the grace
# list is not empty). Besides NFSv4's own grace (ended at once here by
# writing Y to /proc/fs/nfsd/v4_end_grace), knfsd starts lockd for v3,
# and lockd's grace lasts nlm_grace_period rounded up to nlm_timeout, by
# default 5 * nlm_timeout = 50 s. Both lockd sysctls are set to 3 before
# nfsd starts, so delegations come 3 s after nfsd is up, not 50 s.
#   scripts/run-tests nfs-deleg
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma
# shellcheck source=tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/rpcrdma/vm/nfs-lib.sh"

NFS_CLIENT_XPRT=${NFS_DELEG_XPRT:-ours}
# nfs-deleg-server.sh runs this with Linux's client and our server
NFS_SERVER_XPRT=${NFS_DELEG_SERVER_XPRT:-linux}
NFS_OP_TIMEOUT=40
T=/sys/kernel/tracing
# Seconds of lockd grace (nlm_grace_period rounded up to nlm_timeout; 3 is
# nlm_timeout's minimum)
LOCKD_GRACE=3
FILE=dfile
# The local write on b must end within this many ms: the client returned
# the delegation (the lease time is $NFS_GRACE s; an unanswered recall
# holds the writer until knfsd's laundromat revokes the delegation)
WRITE_MAX_MS=$((NFS_GRACE * 1000 / 2))
NOKO=$SMCR_OUT/.nfs-deleg.no-ko
SHAF=$SMCR_OUT/.nfs-deleg.sha
MARK="appended on b while a held a read delegation"

trace_on() {
	local e
	mountpoint -q "$T" || mount -t tracefs nodev "$T" || return 1
	for e in "$@"; do
		echo 1 >"$T/events/$e/enable" || return 1
	done
}

# trace_count EVENT: how many EVENT lines the trace ring holds
trace_count() { grep -c " $1: " "$T"/trace; }

# trace_lines PATTERN: the matching trace lines, shortened, as diagnostics
trace_lines() {
	grep -E "$1" "$T"/trace | sed -E 's/^ *//; s/ +/ /g' | head -n 20
}

# ------------------------------------------------------------------- b

_lockd_short_grace() {
	modprobe lockd || return 1
	echo 3 >/proc/sys/fs/nfs/nlm_timeout || return 1
	echo "$LOCKD_GRACE" >/proc/sys/fs/nfs/nlm_grace_period || return 1
	echo "nlm_timeout $(</proc/sys/fs/nfs/nlm_timeout)" \
		"nlm_grace_period $(</proc/sys/fs/nfs/nlm_grace_period)" \
		"leases-enable $(</proc/sys/fs/leases-enable)"
	[[ $(</proc/sys/fs/leases-enable) == 1 ]]
}

_v4_end_grace() {
	echo Y >/proc/fs/nfsd/v4_end_grace || return 1
	echo "v4_end_grace: $(</proc/fs/nfsd/v4_end_grace)"
	[[ $(</proc/fs/nfsd/v4_end_grace) == Y ]]
}

# states: every client's states file
states() { cat /proc/fs/nfsd/clients/*/states 2>/dev/null; }

# _deleg_granted SECS: a read delegation on $FILE appears within SECS
_deleg_granted() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		states | grep "type: deleg.*filename: \"/$FILE\"" >/dev/null && break
		sleep 0.1
	done
	grep -h 'callback state' /proc/fs/nfsd/clients/*/info
	states
	states | grep "type: deleg.*filename: \"/$FILE\"" >/dev/null
}

# _deleg_gone SECS: no delegation left within SECS
_deleg_gone() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		states | grep 'type: deleg' >/dev/null || break
		sleep 0.1
	done
	states
	! states | grep 'type: deleg' >/dev/null
}

# _local_write: append to the file on b itself; it breaks the lease
_local_write() {
	local t0 ms rc=0
	t0=$(date +%s%N)
	# shellcheck disable=SC2016 # expanded by the inner shell
	timeout -k 2 $((NFS_GRACE * 3)) bash -c 'printf "%s\n" "$1" >>"$2"' _ \
		"$MARK" "$NFS_EXPORT/$FILE" || rc=1
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "local write took $ms ms (limit $WRITE_MAX_MS ms; lease ${NFS_GRACE}s)"
	((rc == 0 && ms < WRITE_MAX_MS))
}

# _cb_recall_answered: knfsd sent CB_RECALL, got status 0, saw DELEGRETURN
_cb_recall_answered() {
	trace_lines 'nfsd_(deleg_|cb_(recall|state|setup|probe))'
	grep -q ' nfsd_cb_recall: ' "$T"/trace &&
		grep -q ' nfsd_cb_recall_done: .*status=0' "$T"/trace &&
		grep -q ' nfsd_deleg_return: ' "$T"/trace
}

guest_b() {
	local t0
	barrier deleg-go 60 || return 1
	[[ -e $NOKO ]] && return 0
	tap_check "lockd grace ${LOCKD_GRACE}s, not 50 (delegations wait for it); leases enabled" \
		_lockd_short_grace
	if [[ $NFS_SERVER_XPRT == ours ]]; then
		nfs_xprt_load ours || { barrier deleg-up 5; return 1; }
		trace_on rpcr/rpcr_bcall_send rpcr/rpcr_bcall_reply_recv \
			rpcr/rpcr_reply_drop
	fi
	nfs_server_start || { barrier deleg-up 5; return 1; }
	# lockd's grace began when nfsd started, before this
	t0=$SECONDS
	tap_check "NFSv4 grace ended (v4_end_grace)" _v4_end_grace
	tap_check "nfsd delegation and callback tracepoints on" trace_on \
		nfsd/nfsd_deleg_read nfsd/nfsd_deleg_return nfsd/nfsd_cb_recall \
		nfsd/nfsd_cb_recall_done nfsd/nfsd_cb_state nfsd/nfsd_cb_setup \
		nfsd/nfsd_cb_setup_err nfsd/nfsd_cb_probe nfsd/nfsd_cb_lost
	# text (about 100 KB), so that the appended line is the last line
	head -c 75000 /dev/urandom | base64 >"$NFS_EXPORT/$FILE"
	while ((SECONDS - t0 <= LOCKD_GRACE)); do sleep 0.2; done
	barrier deleg-up 60 || return 1
	if ! barrier deleg-opened 90; then
		barrier deleg-written 5
		return 1
	fi
	tap_check "a holds a read delegation on /$FILE (states: type deleg)" \
		_deleg_granted 10
	tap_check "local append on b ends quickly: a returned the delegation" \
		_local_write
	tap_check "the delegation is gone from b's states" _deleg_gone 5
	tap_check "knfsd: CB_RECALL answered (status 0), then DELEGRETURN" \
		_cb_recall_answered
	if [[ $NFS_SERVER_XPRT == ours ]]; then
		tap_check "the recall went over our server's backchannel: rpcr_bcall_send >= 1, rpcr_bcall_reply_recv >= 1" \
			bash -c "grep -q ' rpcr_bcall_send: ' $T/trace && grep -q ' rpcr_bcall_reply_recv: ' $T/trace"
	fi
	sha "$NFS_EXPORT/$FILE" >"$SHAF"
	barrier deleg-written 60
	barrier deleg-done 60
	nfs_server_report
}

# ------------------------------------------------------------------- a

HOLDER=

# hold_open: a process keeps $FILE open read-only (after reading from
# it) until /tmp/nfs-deleg.close appears; a stuck open ends by timeout.
# Not through tap_check: its subshell would lose the pid.
hold_open() {
	local name="open /$FILE read-only and keep it open"
	rm -f /tmp/nfs-deleg.open /tmp/nfs-deleg.close
	# shellcheck disable=SC2016 # expanded by the inner shell
	timeout -k 2 90 bash -c '
		exec 3<"$1" || exit 1
		head -c 10 <&3 >/dev/null || exit 1
		: >/tmp/nfs-deleg.open
		while [[ ! -e /tmp/nfs-deleg.close ]]; do sleep 0.1; done' _ \
		"$NFS_MNT/$FILE" </dev/null >/tmp/nfs-deleg.holder 2>&1 &
	HOLDER=$!
	if _nfs_wait_file /tmp/nfs-deleg.open "$NFS_OP_TIMEOUT"; then
		tap_ok "$name"
	else
		tap_fail "$name" "not open after ${NFS_OP_TIMEOUT}s" "$(cat /tmp/nfs-deleg.holder)"
	fi
}

# close_holder: the holder closes the file and exits (10 s at most)
close_holder() {
	local i name="close the file" rc=0
	: >/tmp/nfs-deleg.close
	for ((i = 0; i < 100; i++)); do
		kill -0 "$HOLDER" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$HOLDER" 2>/dev/null; then
		tap_fail "$name" "the holder still runs 10s later"
		return 1
	fi
	wait "$HOLDER" || rc=$?
	if ((rc == 0)); then
		tap_ok "$name"
	else
		tap_fail "$name" "the holder exited with $rc" "$(cat /tmp/nfs-deleg.holder)"
	fi
}

# _client_trace: the client got the delegation and the recall, returned it
_client_trace() {
	trace_lines 'nfs4_(set_delegation|cb_sequence|cb_recall|delegreturn)'
	grep -q ' nfs4_set_delegation: .*fmode=READ' "$T"/trace &&
		grep -q ' nfs4_cb_recall: error=0' "$T"/trace &&
		grep -q ' nfs4_delegreturn_exit: error=0' "$T"/trace
}

# _bcalls_over_rdma R0 P0: our transport received at least one backward
# call and sent at least one reply since the counts were R0 and P0
_bcalls_over_rdma() {
	local r p
	r=$(trace_count rpcr_bcall_recv)
	p=$(trace_count rpcr_bcall_reply)
	echo "rpcr_bcall_recv $r (since the open: $((r - $1))), rpcr_bcall_reply $p (since the open: $((p - $2)))"
	trace_lines 'rpcr_(bcall|reply_drop)'
	((r - $1 >= 1 && p - $2 >= 1))
}

# _content: the whole file as a reads it now equals b's, appended line last
_content() {
	local x last
	nfs_t cat "$NFS_MNT/$FILE" >/tmp/nfs-deleg.copy || return 1
	x=$(sha /tmp/nfs-deleg.copy)
	last=$(tail -n 1 /tmp/nfs-deleg.copy)
	echo "a: $x  b: $(cat "$SHAF")"
	echo "last line: $last"
	[[ $x == "$(cat "$SHAF")" && $last == "$MARK" ]]
}

guest_a() {
	local r0 p0
	rm -f "$NOKO" "$SHAF"
	if ! nfs_client_xprt_load "$NFS_CLIENT_XPRT"; then
		: >"$NOKO"
		barrier deleg-go 60
		return 1
	fi
	barrier deleg-go 60
	modprobe nfsv4
	if [[ $NFS_CLIENT_XPRT == ours ]]; then
		tap_check "rpcr backchannel tracepoints on" trace_on \
			rpcr/rpcr_bcall_recv rpcr/rpcr_bcall_reply rpcr/rpcr_reply_drop
	fi
	tap_check "nfs4 delegation and callback tracepoints on" trace_on \
		nfs4/nfs4_set_delegation nfs4/nfs4_cb_sequence nfs4/nfs4_cb_recall \
		nfs4/nfs4_delegreturn nfs4/nfs4_delegreturn_exit
	barrier deleg-up 120 || return 1
	tap_check "mount -o $(nfs_opts 4.1)" nfs_mount 4.1 || {
		barrier deleg-opened 5
		return 1
	}
	tap_check "mountstats say xprt: rdma" nfs_on_rdma
	tap_check "$(nfs_xprt_name) carries the mount" nfs_xprt_not_linux
	r0=$(trace_count rpcr_bcall_recv)
	p0=$(trace_count rpcr_bcall_reply)
	hold_open
	barrier deleg-opened 60
	barrier deleg-written 90
	if [[ $NFS_CLIENT_XPRT == ours ]]; then
		tap_check "the recall came over RDMA: rpcr_bcall_recv >= 1, rpcr_bcall_reply >= 1" \
			_bcalls_over_rdma "$r0" "$p0"
	fi
	tap_check "client: READ delegation, CB_RECALL ok, DELEGRETURN ok" _client_trace
	close_holder
	tap_check "a reads the appended data (SHA-256 equal to b's file)" _content
	tap_check "unmount" nfs_umount
	barrier deleg-done 60
}

if [[ $SMCR_ROLE == a ]]; then
	t0=$SECONDS
	guest_a
	echo "# steps of a took $((SECONDS - t0))s"
else
	guest_b
fi
tap_check "no kernel warning ($SMCR_ROLE)" dmesg_clean
exit 0
