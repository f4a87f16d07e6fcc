#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 360
# rxe: interop
# links: 2
#
# Group "links": two RoCE devices per guest (run-pair --links 2): eth1,
# with an address in eth0's /24 (noprefixroute) and a host route to the
# peer's eth1, carries rxe1 beside rxe0 on eth0. What RFC 7609's link
# redundancy needs of the harness, checked before anything uses it.
#   setup    rxe0 and rxe1 ACTIVE; eth1's address is a RoCEv2 GID of
#            rxe1; the peer's eth1 address is reached over eth1
#   verbs    rping (rdma_cm, RC) to the peer's eth1 address runs over
#            rxe1 and not rxe0
#   ours     our module: a connection to the peer's eth1 address has its
#            link on rxe1, one to its eth0 address on rxe0, all bytes
#            delivered
#   linux    Linux's smc.ko in both guests, both devices in one PNET ID:
#            its SMC-Rv2 link group (first contact on rxe0) adds a second
#            link on rxe1, a symmetric group, as Linux does with two
#            devices
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

SMCR=$SMCR_REPO/build/tools/smcr
PEER=$SMCR_REPO/build/selftests/smc_peer
KO=$SMCR_REPO/net/smc/smcr.ko

sent() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/sent_pkts"; }

# waited PID NAME: a result line for a background job's exit status
# (tap_check runs its command in a subshell, which cannot wait for it)
waited() {
	local rc=0
	wait "$1" || rc=$?
	if ((rc == 0)); then tap_ok "$2"; else tap_fail "$2" "exit status $rc"; fi
}

# pair NAME PORT IP BYTES: b serves over AF_SMC, a connects to b's IP
pair() {
	local name=$1 port=$2 ip=$3 bytes=$4 pid
	if [[ $SMCR_ROLE == b ]]; then
		timeout "$(tscale 120)" "$PEER" server --family smc --port "$port" \
			--bytes "$bytes" --timeout "$(tscale 90)" &
		pid=$!
		wait_listen "$port"
		barrier "$name" 60
		waited $pid "$name: server delivered and received every byte (b)"
	else
		barrier "$name" 60
		tap_check "$name: client delivered and received every byte (a)" \
			timeout "$(tscale 120)" "$PEER" client --family smc \
			--host "$ip" --port "$port" --bytes "$bytes" \
			--timeout "$(tscale 90)"
	fi
}

setup() {
	local dev
	for dev in rxe0 rxe1; do
		tap_check "$dev ACTIVE ($SMCR_ROLE)" \
			bash -c "rdma link show $dev/1 | grep -q 'state ACTIVE'"
	done
	tap_check "eth1's address $SMCR_SELF_IP2 is a RoCEv2 GID of rxe1 ($SMCR_ROLE)" \
		rxe_gid_index rxe1 "$SMCR_SELF_IP2"
	tap_check "the peer's eth1 address is routed over eth1 ($SMCR_ROLE)" \
		bash -c "ip route get $SMCR_PEER_IP2 | grep -q 'dev eth1 .*src $SMCR_SELF_IP2'"
	tap_check "the peer's eth0 address is still routed over eth0 ($SMCR_ROLE)" \
		bash -c "ip route get $SMCR_PEER_IP | grep -q 'dev eth0 '"
	barrier ping 60
	tap_check "ping the peer's eth1 address ($SMCR_ROLE)" \
		ping -c 2 -W 5 -I eth1 "$SMCR_PEER_IP2"
}

verbs() {
	local r0 r1 pid
	r0=$(sent rxe0)
	r1=$(sent rxe1)
	if [[ $SMCR_ROLE == b ]]; then
		timeout "$(tscale 60)" rping -s -a "$SMCR_SELF_IP2" -p 7400 -C 100 \
			>/tmp/rping.log 2>&1 &
		pid=$!
		wait_rdma_listen 7400
		barrier rping 60
		waited $pid "verbs: rping server over rxe1 (b)"
	else
		barrier rping 60
		tap_check "verbs: rping client to $SMCR_PEER_IP2, 100 pings (a)" \
			timeout "$(tscale 60)" rping -c -a "$SMCR_PEER_IP2" -p 7400 -C 100
	fi
	r0=$(($(sent rxe0) - r0))
	r1=$(($(sent rxe1) - r1))
	echo "# verbs ($SMCR_ROLE): rxe0 sent $r0 packets, rxe1 $r1"
	tap_check "verbs: rxe1 carried it, rxe0 did not ($SMCR_ROLE)" \
		test "$r1" -ge 100 -a "$r0" -lt 10
	barrier verbs-done 60
}

ours() {
	local links
	tap_check "insmod smcr.ko ($SMCR_ROLE)" insmod "$KO" || return
	pair ours-eth1 7410 "$SMCR_PEER_IP2" 8M
	pair ours-eth0 7411 "$SMCR_PEER_IP" 8M
	links=$("$SMCR" link)
	printf '%s\n' "$links" | sed 's/^/# ours: /'
	tap_check "ours: a link on rxe1 and one on rxe0, two groups ($SMCR_ROLE)" \
		test "$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 1 -a \
		"$(grep -c '^ib_dev rxe0$' <<<"$links")" -eq 1
	barrier ours-done 60
	for _ in $(seq 100); do
		rmmod smcr 2>/dev/null && break
		sleep 0.2
	done
	tap_check "ours: rmmod smcr ($SMCR_ROLE)" bash -c '! grep -q "^smcr " /proc/modules'
}

linux() {
	local links i
	linux_smc_up "$SMCR" || return
	tap_check "linux: smcr pnet add PNET1 eth eth1 ($SMCR_ROLE)" \
		"$SMCR" pnet add PNET1 eth eth1
	tap_check "linux: smcr pnet add PNET1 ib rxe1 1 ($SMCR_ROLE)" \
		"$SMCR" pnet add PNET1 ib rxe1 1
	tap_check "linux: smcr ueid add ($SMCR_ROLE)" "$SMCR" ueid add SMCR-LINKS
	barrier linux-up 60
	pair linux 7420 "$SMCR_PEER_IP" 16M
	# the server adds the second link after the first contact
	for ((i = 0; i < $(tscale 20); i++)); do
		links=$("$SMCR" link)
		grep -q '^ib_dev rxe1$' <<<"$links" && break
		sleep 1
	done
	printf '%s\n' "$links" | sed 's/^/# linux: /'
	"$SMCR" linkgroup | sed 's/^/# linux: /'
	tap_check "linux: a second link, on rxe1 ($SMCR_ROLE)" \
		test "$(grep -c '^ib_dev rxe[01]$' <<<"$links")" -eq 2 -a \
		"$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 1
	tap_check "linux: a symmetric link group ($SMCR_ROLE)" \
		bash -c "$SMCR linkgroup | grep -q '^type symmetric$'"
	barrier linux-done 60
}

setup
verbs
ours
linux
