#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 240
# rxe: interop
#
# Group "intree": Linux's own smc.ko in both guests, over the rxe that
# scripts/vm/build-rxe patches, configured with our tools/smcr (UEID and
# PNET table over generic netlink). It must run SMC-R (v2 over RoCEv2):
# the reference the interop tests of our module measure against.
set -uo pipefail
# shellcheck source=scripts/vm/guest-lib.sh
source "$SMCR_REPO/scripts/vm/guest-lib.sh"

SMCR=$SMCR_REPO/build/tools/smcr
PEER=$SMCR_REPO/build/selftests/smc_peer

tcp_segs() { nstat -az TcpOutSegs | awk '$1 == "TcpOutSegs" { print $2 }'; }
rxe_pkts() { cat /sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts; }

tap_check "the patched rdma_rxe is loaded" grep -q O /sys/module/rdma_rxe/taint
tap_check "modprobe smc (Linux's)" modprobe smc || exit 0
tap_check "smcr ueid add" "$SMCR" ueid add SMCR-INTEROP
tap_check "smcr pnet add PNET1 eth eth0" "$SMCR" pnet add PNET1 eth eth0
tap_check "smcr pnet add PNET1 ib rxe0 1" "$SMCR" pnet add PNET1 ib rxe0 1
tap_check "smcr rejects an EID with lower case" bash -c "! $SMCR ueid add bad-eid"

segs0=$(tcp_segs)
pkts0=$(rxe_pkts)
if [[ $SMCR_ROLE == b ]]; then
	"$PEER" server --family smc --port 7000 --bytes 16M --timeout 90 &
	wait_listen 7000
	barrier go 60
	wait $! || tap_fail "smc_peer server exit status"
else
	barrier go 60
	"$PEER" client --family smc --host "$SMCR_PEER_IP" --port 7000 \
		--bytes 16M --timeout 90
fi
segs=$(($(tcp_segs) - segs0))
pkts=$(($(rxe_pkts) - pkts0))
echo "# in-tree pair ($SMCR_ROLE): $segs TCP segments, $pkts RoCE packets"
if ((pkts > 16384 && segs < 100)); then
	tap_ok "Linux's SMC-R carried the data, not TCP ($SMCR_ROLE)"
else
	tap_fail "Linux's SMC-R carried the data, not TCP ($SMCR_ROLE)"
fi
barrier end 60
tap_check "smcr pnet flush" "$SMCR" pnet flush
tap_check "smcr ueid del" "$SMCR" ueid del SMCR-INTEROP
exit 0
