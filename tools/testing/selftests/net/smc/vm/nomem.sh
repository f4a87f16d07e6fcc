#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 600
#
# Group "nomem": our module in guest a, Linux's in-tree smc.ko in guest b
# (SMC-Rv2 over the patched rdma_rxe, as in "mixed"). fail_func.ko makes
# one side's per-connection buffer allocation fail once: smcr_buf_alloc()
# in ours, smc_buf_create() in Linux's. Four phases: ours short of memory
# as server, then as client; Linux's as server, then as client. Each time
#   - the connection falls back to TCP and smc_peer delivers every byte
#     both ways (SHA-256 compared);
#   - our smcr_fallback tracepoint names the reason: SMC_CLC_DECL_MEM
#     (0x01010000) when we declined, the peer's decline (0x05000000) with
#     0x01010000 as its diagnosis when Linux did;
#   - once fail_func is unloaded, the next connection is SMC-R again;
#   - at the end, Linux's statistics count each of these fallbacks.
# The guests' consoles must stay clean (run-pair checks them).
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

BIN=$SMCR_REPO/build/selftests
KO=$SMCR_REPO/net/smc/smcr.ko
FAIL_KO=$SMCR_REPO/tools/testing/selftests/net/smc/fail_func/fail_func.ko
SMCR=$SMCR_REPO/build/tools/smcr
TRACE=/sys/kernel/tracing
EID="SMCR-NOMEM"
DECL_MEM=0x01010000
DECL_PEERDECL=0x05000000

# who runs what, and where each allocates a connection's buffers
if [[ $SMCR_ROLE == a ]]; then
	WHO=ours
	BUF_FUNC=smcr_buf_alloc
else
	WHO=linux
	BUF_FUNC=smc_buf_create
fi

# events NAME: how many of our tracepoint NAME the trace holds (guest a)
events() { grep -c "$1: " $TRACE/trace; }

# peer SRV NAME PORT BYTES: one smc_peer connection over AF_SMC, its
# server in guest SRV; smc_peer checks every byte and the SHA-256
peer() {
	local srv=$1 name=$2 port=$3 opt
	opt=(--family smc --port "$port" --bytes "$4" --timeout 100)
	if [[ $SMCR_ROLE == "$srv" ]]; then
		timeout 120 "$BIN/smc_peer" server "${opt[@]}" &
		wait_listen "$port"
		barrier "$name" 60
		wait $! || tap_fail "$name: smc_peer server ($WHO)"
	else
		barrier "$name" 60
		timeout 120 "$BIN/smc_peer" client --host "$SMCR_PEER_IP" \
			"${opt[@]}" || tap_fail "$name: smc_peer client ($WHO)"
	fi
}

# smcr_again SRV NAME PORT TAG: a connection that must use SMC-R
smcr_again() {
	local c0 f0

	if [[ $WHO == ours ]]; then
		c0=$(events smcr_conn)
		f0=$(events smcr_fallback)
	fi
	peer "$1" "$2" "$3" 4M
	[[ $WHO == ours ]] || return 0
	tap_check "$4: SMC-R, no fallback" \
		test $(($(events smcr_conn) - c0)) -eq 1 -a \
		$(($(events smcr_fallback) - f0)) -eq 0
}

setup() {
	if [[ $WHO == ours ]]; then
		tap_check "insmod smcr.ko" insmod "$KO" || exit 0
		mountpoint -q $TRACE || mount -t tracefs nodev $TRACE
		echo 1 >$TRACE/events/smcr/smcr_conn/enable
		echo 1 >$TRACE/events/smcr/smcr_fallback/enable
	else
		linux_smc_up "$SMCR" || exit 0
	fi
	tap_check "smcr ueid add $EID ($WHO)" "$SMCR" ueid add $EID
	barrier setup 60
	smcr_again a base 7700 "before any fault"
}

# nomem SIDE SRV PORT: guest SIDE fails its buffer allocation for one
# connection whose server runs in guest SRV
nomem() {
	local side=$1 srv=$2 port=$3 tag role want f0 got

	if [[ $side == a ]]; then tag=ours; else tag=linux; fi
	if [[ $side == "$srv" ]]; then
		tag+=" short of memory as server"
	else
		tag+=" short of memory as client"
	fi
	if [[ $SMCR_ROLE == "$side" ]]; then
		tap_check "$tag: insmod fail_func func=$BUF_FUNC" \
			insmod "$FAIL_KO" func=$BUF_FUNC retval=-12 times=1
		# Debian's kernels probe a function's entry through ftrace
		tap_check "$tag: the probe is an ftrace one" \
			bash -c "dmesg | grep 'fail_func: $BUF_FUNC returns' |
				tail -n 1 | grep -q '(ftrace)'"
	fi
	[[ $WHO == ours ]] && f0=$(events smcr_fallback)
	peer "$srv" "nomem-$side-$srv" "$port" 8M
	if [[ $SMCR_ROLE == "$side" ]]; then
		echo "# $tag: $BUF_FUNC called" \
			"$(cat /sys/module/fail_func/parameters/calls) times"
		tap_check "$tag: one call of $BUF_FUNC failed" \
			test "$(cat /sys/module/fail_func/parameters/failed)" -eq 1
		tap_check "$tag: rmmod fail_func" rmmod fail_func
	fi
	if [[ $WHO == ours ]]; then
		if [[ $srv == a ]]; then role=server; else role=client; fi
		if [[ $side == a ]]; then
			want="$role fallback reason=$DECL_MEM peer_diagnosis=0x00000000"
		else
			want="$role fallback reason=$DECL_PEERDECL peer_diagnosis=$DECL_MEM"
		fi
		got=$(grep 'smcr_fallback: ' $TRACE/trace | tail -n +$((f0 + 1)))
		printf '%s\n' "$got" | sed 's/^ */# /'
		tap_check "$tag: fell back to TCP, ours saw \"$want\"" \
			test "$(grep -c "$want" <<<"$got")" -eq 1 -a \
			"$(grep -c . <<<"$got")" -eq 1
	fi
	smcr_again "$srv" "after-$side-$srv" $((port + 1)) \
		"$tag: fail_func unloaded, the next connection"
}

# linux_stat KEY: a counter of Linux's smcr stats (guest b)
linux_stat() { "$SMCR" stats | awk -v k="$1" '$1 == k { print $2 }'; }

finish() {
	barrier finish 60
	if [[ $WHO == linux ]]; then
		"$SMCR" stats 2>&1 | grep -E 'fallback|success' |
			sed 's/^/# linux stats: /'
		tap_check "linux counted its own $DECL_MEM fallbacks: one per role" \
			test "$(linux_stat fallback.srv.$DECL_MEM)" = 1 -a \
			"$(linux_stat fallback.clnt.$DECL_MEM)" = 1
		tap_check "linux counted our declines ($DECL_PEERDECL): one per role" \
			test "$(linux_stat fallback.srv.$DECL_PEERDECL)" = 1 -a \
			"$(linux_stat fallback.clnt.$DECL_PEERDECL)" = 1
	else
		sleep 2
		tap_check "rmmod smcr" rmmod smcr
	fi
	tap_check "no kernel warning ($WHO)" dmesg_clean
}

setup
nomem a a 7710
nomem a b 7720
nomem b b 7730
nomem b a 7740
finish
exit 0
