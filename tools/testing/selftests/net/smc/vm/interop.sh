#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 600
# Group "interop": one run-pair invocation, the same script in both guests
# (it switches on $SMCR_ROLE); guest a is the client side, b the server:
#   scripts/vm/run-pair -n interop -t 600 \
#       tools/testing/selftests/net/smc/vm/interop.sh \
#       tools/testing/selftests/net/smc/vm/interop.sh
# Phases (IPv4 and IPv6 each, data verified with smc_peer, 16 MiB each way
# unless SMCR_INTEROP_BYTES says otherwise):
#   1 our AF_SMC client (a)  -> plain TCP server (b)
#   2 plain TCP client (a)   -> our AF_SMC server (b)
#   3 our client -> our server: smc_wire --mode remote on eth0 checks the
#     SYN options, the client Proposal (GID of rxe0, eth0 MAC, prefix) and
#     the server Decline 0x03030002; then smc_peer bulk
#   4 b swaps our module for Linux's smc.ko: our client -> in-tree server,
#     smc_wire (any Decline code) and smc_peer bulk
set -uo pipefail
# shellcheck source=scripts/vm/guest-lib.sh
source "$SMCR_REPO/scripts/vm/guest-lib.sh"

BIN=$SMCR_REPO/build/selftests
KO=$SMCR_REPO/net/smc/smcr.ko
BYTES=${SMCR_INTEROP_BYTES:-16M}
PEER4=$SMCR_PEER_IP
PEER6=$SMCR_PEER_IP6

dmesg_clean() {
	! dmesg | grep -E 'WARNING:|BUG:|Oops|general protection|refcount_t|UBSAN|KASAN|list_(add|del) corruption'
}

# server side: start "smc_peer server ARGS..." in the background, wait
# until it listens; its pid goes to SRV_PIDS, its output to /tmp/srv.PORT
SRV_PIDS=()
SRV_PORTS=()
start_server() {
	local port=$1
	shift
	"$BIN/smc_peer" server --port "$port" "$@" >"/tmp/srv.$port" 2>&1 &
	SRV_PIDS+=($!)
	SRV_PORTS+=("$port")
	wait_listen "$port" 20
}

# wait for the servers started so far, print their TAP lines
reap_servers() {
	local i rc
	for i in "${!SRV_PIDS[@]}"; do
		rc=0
		timeout 120 tail --pid="${SRV_PIDS[i]}" -f /dev/null || kill "${SRV_PIDS[i]}"
		wait "${SRV_PIDS[i]}" || rc=$?
		cat "/tmp/srv.${SRV_PORTS[i]}"
		((rc == 0)) || tap_fail "smc_peer server port ${SRV_PORTS[i]} exit status $rc"
	done
	SRV_PIDS=()
	SRV_PORTS=()
}

client() { "$BIN/smc_peer" client --bytes "$BYTES" "$@"; }

guest_b() {
	tap_check "insmod smcr.ko (b)" insmod "$KO" || return 1
	# phase 1: plain TCP servers
	start_server 7101 --family tcp --bytes "$BYTES"
	start_server 7102 --family tcp --ipv6 --bytes "$BYTES"
	barrier p1-ready 120
	barrier p1-done 300
	reap_servers
	# phase 2: our AF_SMC servers, plain TCP clients
	start_server 7201 --family smc --bytes "$BYTES"
	start_server 7202 --family smc --ipv6 --bytes "$BYTES"
	barrier p2-ready 120
	barrier p2-done 300
	reap_servers
	# phase 3: our server, our client; echo servers for smc_wire first
	# this phase checks the Proposal/Decline exchange: our server declines
	echo 0 >/sys/module/smcr/parameters/rdma
	start_server 7301 --family smc --echo --count 1
	start_server 7302 --family smc --ipv6 --echo --count 1
	start_server 7303 --family smc --bytes "$BYTES"
	start_server 7304 --family smc --ipv6 --bytes "$BYTES"
	barrier p3-ready 120
	barrier p3-done 300
	reap_servers
	echo 1 >/sys/module/smcr/parameters/rdma
	tap_check "no kernel warning with our module (b)" dmesg_clean
	# phase 4: Linux's smc.ko
	tap_check "rmmod smcr (b)" rmmod smcr
	tap_check "modprobe smc (Linux's, b)" modprobe smc
	start_server 7401 --family smc --echo --count 1
	start_server 7402 --family smc --ipv6 --echo --count 1
	start_server 7403 --family smc --bytes "$BYTES"
	start_server 7404 --family smc --ipv6 --bytes "$BYTES"
	barrier p4-ready 120
	barrier p4-done 300
	reap_servers
	tap_check "rmmod smc (b)" rmmod smc
	tap_check "no kernel warning (b)" dmesg_clean
}

guest_a() {
	tap_check "insmod smcr.ko (a)" insmod "$KO" || return 1
	barrier p1-ready 120
	client --family smc --host "$PEER4" --port 7101
	client --family smc --host "$PEER6" --port 7102
	barrier p1-done 300
	barrier p2-ready 120
	client --family tcp --host "$PEER4" --port 7201
	client --family tcp --host "$PEER6" --port 7202
	barrier p2-done 300
	barrier p3-ready 120
	"$BIN/smc_wire" --mode remote --peer "$PEER4" --port 7301 \
		--expect-decline 0x03030002 --gid-from rxe0 --prefix 10.77.0.0/24
	"$BIN/smc_wire" --mode remote --peer "$PEER6" --port 7302 \
		--expect-decline 0x03030002 --gid-from rxe0 --prefix fd77::/64
	client --family smc --host "$PEER4" --port 7303
	client --family smc --host "$PEER6" --port 7304
	barrier p3-done 300
	barrier p4-ready 180
	"$BIN/smc_wire" --mode remote --peer "$PEER4" --port 7401 \
		--expect-decline any --gid-from rxe0 --prefix 10.77.0.0/24
	"$BIN/smc_wire" --mode remote --peer "$PEER6" --port 7402 \
		--expect-decline any --gid-from rxe0 --prefix fd77::/64
	client --family smc --host "$PEER4" --port 7403
	client --family smc --host "$PEER6" --port 7404
	barrier p4-done 300
	tap_check "rmmod smcr (a)" rmmod smcr
	tap_check "no kernel warning (a)" dmesg_clean
}

if [[ $SMCR_ROLE == a ]]; then guest_a; else guest_b; fi
exit 0
