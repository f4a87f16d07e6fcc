#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, inside each guest: guest b serves with an unmodified socat,
# guest a talks to it with unmodified socat and iperf3, both under smc_run,
# so their TCP sockets are AF_SMC sockets of our module. Then each guest
# shows what happened underneath.
set -uo pipefail
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"

SMC_RUN=$SMCR_REPO/tools/smc_run/smc_run
TRACE=/sys/kernel/tracing

banner() { printf '\n===== guest %s: %s =====\n' "$SMCR_ROLE" "$*"; }

insmod "$SMCR_REPO/net/smc/smcr.ko" || { tap_fail "insmod smcr.ko"; exit 1; }
mountpoint -q $TRACE || mount -t tracefs nodev $TRACE
echo 1 >$TRACE/events/smcr/enable

if [[ $SMCR_ROLE == b ]]; then
	banner "serving: smc_run socat TCP-LISTEN:7000 (upper-cases) and iperf3 -s"
	SMC_DEBUG=1 $SMC_RUN socat TCP-LISTEN:7000,reuseaddr,fork \
		EXEC:'tr a-z A-Z' &
	SMC_DEBUG=1 $SMC_RUN iperf3 -s -1 -p 5201 >/tmp/iperf3-server.log 2>&1 &
	wait_listen 7000 && wait_listen 5201
	barrier ready 120
	barrier "done" 300
else
	barrier ready 120
	banner "client: echo ... | smc_run socat - TCP:$SMCR_PEER_IP:7000"
	reply=$(echo "hello over AF_SMC from $(hostname)" |
		SMC_DEBUG=1 $SMC_RUN socat - "TCP:$SMCR_PEER_IP:7000")
	echo "reply: $reply"
	[[ $reply == "HELLO OVER AF_SMC FROM SMCA" ]] &&
		tap_ok "socat request/reply through AF_SMC" ||
		tap_fail "socat request/reply through AF_SMC" "got: $reply"
	banner "client: smc_run iperf3 -c $SMCR_PEER_IP -t 3"
	SMC_DEBUG=1 $SMC_RUN iperf3 -c "$SMCR_PEER_IP" -p 5201 -t 3 -f m &&
		tap_ok "iperf3 through AF_SMC" || tap_fail "iperf3 through AF_SMC"
	barrier "done" 300
fi

banner "what the module saw (tracepoints smcr:*)"
grep -v '^#' $TRACE/trace | sed -E 's/^ *//' | cut -c1-160 | head -n 40
banner "SMC-R or TCP? (fallbacks listed with RFC 7609 App. C reasons)"
echo "connections over SMC-R: $(grep -c 'state=1 \(connected\|accepted\)' $TRACE/trace)"
echo "fallbacks to TCP:       $(grep -c 'smcr_fallback' $TRACE/trace)"
grep -o 'fallback reason=0x[0-9a-f]* peer_diagnosis=0x[0-9a-f]*' $TRACE/trace |
	sort | uniq -c
banner "where the bytes went"
echo "TCP segments sent:        $(nstat -az TcpOutSegs | awk '$1 == "TcpOutSegs" { print $2 }')"
echo "RoCE packets sent (rxe0): $(cat /sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts)"
banner "queue pairs"
rdma resource show qp | grep 'type RC' || echo "(none left)"
banner "/proc/net/protocols"
grep -E '^(protocol|SMCR)' /proc/net/protocols | cut -c1-40
banner "RDMA device"
rdma link show
echo 0 >$TRACE/events/smcr/enable
