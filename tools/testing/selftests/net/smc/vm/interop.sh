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
# Around the swap, b sends the same SMC_GEN_NETLINK requests to both
# modules (tools/smcr: info, ueid, seid, as root and unprivileged; and
# smc_genl.py's raw, partly malformed ones) and compares the answers line
# by line: what each module printed, errnos, every byte of the replies.
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

BIN=$SMCR_REPO/build/selftests
KO=$SMCR_REPO/net/smc/smcr.ko
SMCR=$SMCR_REPO/build/tools/smcr
GENL=$SMCR_REPO/tools/testing/selftests/net/smc/smc_genl.py
BYTES=${SMCR_INTEROP_BYTES:-16M}
PEER4=$SMCR_PEER_IP
PEER6=$SMCR_PEER_IP6

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

# The smcr commands whose output both modules must print alike; "nobody"
# runs the rest of the line as an unprivileged user
SMCR_SEQ=(
	"info" "nobody info" "seid show" "seid enable" "seid disable"
	"ueid show" "ueid add SMCR-EID.1" "ueid add SMCR-EID.1"
	"ueid add smcr-eid" "ueid add .EID" "ueid add -EID" "ueid add A_B"
	"ueid add 0ABCDEFGHIJKLMNOPQRSTUVWXYZ-.123" "nobody ueid add NOBODY"
	"nobody ueid show" "ueid add 3" "ueid add LAST" "ueid add FIFTH"
	"ueid add SMCR-EID.1" "ueid show" "ueid del NOPE" "ueid del smcr-eid"
	"ueid del SMCR-EID.1" "ueid show" "nobody ueid flush" "ueid flush"
	"ueid show" "ueid del LAST"
)

# netlink_transcript NAME: the answers of the loaded SMC module to
# SMCR_SEQ in /tmp/nl-NAME.smcr, to smc_genl.py in /tmp/nl-NAME.genl
netlink_transcript() {
	local name=$1 c rc out
	for c in "${SMCR_SEQ[@]}"; do
		if [[ $c == nobody* ]]; then
			# shellcheck disable=SC2086 # split the command line on purpose
			out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
				"$SMCR" ${c#nobody } 2>&1)
		else
			# shellcheck disable=SC2086
			out=$("$SMCR" $c 2>&1)
		fi
		rc=$?
		printf '$ smcr %s\n%s%sexit %d\n' "$c" "$out" "${out:+$'\n'}" "$rc"
	done >"/tmp/nl-$name.smcr"
	python3 "$GENL" --group "smc_genl ($name)" --transcript "/tmp/nl-$name.genl"
}

# same_answers FILE_OURS FILE_LINUX: equal line by line, or the diff
same_answers() {
	diff -u --label "Linux's smc.ko" --label "our smcr.ko" "$2" "$1"
}

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
	netlink_transcript ours
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
	netlink_transcript linux
	tap_check "smcr: the same output from our module and Linux's smc.ko" \
		same_answers /tmp/nl-ours.smcr /tmp/nl-linux.smcr
	sed 's/^/# /' /tmp/nl-ours.smcr
	tap_check "smc_genl.py: the same answers, byte for byte, from both modules" \
		same_answers /tmp/nl-ours.genl /tmp/nl-linux.genl
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
