#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark, inside each guest: the same iperf3 runs over plain TCP and over
# our SMC-R (under smc_run), then perftest's ib_write_bw measures the raw
# RDMA write bandwidth of the same rxe link. Guest b serves, guest a
# measures and prints one line per transport.
set -uo pipefail
# shellcheck source=scripts/vm/guest-lib.sh
source "$SMCR_REPO/scripts/vm/guest-lib.sh"

RUN=$SMCR_REPO/tools/smc_run/smc_run
SECS=${SMCR_BENCH_SECS:-5}

insmod "$SMCR_REPO/net/smc/smcr.ko" || { tap_fail "insmod smcr.ko"; exit 0; }

iperf_mbps() { # iperf3 -J output on stdin: receiver's Mbit/s
	python3 -c 'import json,sys; print("%.1f" % (json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"] / 1e6))'
}

if [[ $SMCR_ROLE == b ]]; then
	iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
	wait_listen 5201
	barrier tcp 60
	wait
	"$RUN" iperf3 -s -1 -p 5202 >/dev/null 2>&1 &
	wait_listen 5202
	barrier smcr 60
	wait
	gid=$(rxe_gid_index rxe0 "$SMCR_SELF_IP")
	timeout 60 ib_write_bw -d rxe0 -x "$gid" -D "$SECS" >/dev/null 2>&1 &
	sleep 1
	barrier verbs 60
	wait
	barrier finished 120
	exit 0
fi

barrier tcp 60
tcp=$(timeout 60 iperf3 -c "$SMCR_PEER_IP" -p 5201 -t "$SECS" -J | iperf_mbps)
barrier smcr 60
smcr=$(timeout 60 "$RUN" iperf3 -c "$SMCR_PEER_IP" -p 5202 -t "$SECS" -J | iperf_mbps)
barrier verbs 60
sleep 2
gid=$(rxe_gid_index rxe0 "$SMCR_SELF_IP")
verbs=$(timeout 60 ib_write_bw -d rxe0 -x "$gid" -D "$SECS" "$SMCR_PEER_IP" 2>/dev/null |
	awk '/^ *65536 / { print $4 * 8 * 1.048576 }')
barrier finished 120
echo "# bench: iperf3 over TCP            ${tcp:-?} Mbit/s"
echo "# bench: iperf3 over our SMC-R      ${smcr:-?} Mbit/s"
echo "# bench: ib_write_bw (raw verbs)    ${verbs:-?} Mbit/s"
echo "# bench: Linux's smc.ko over rxe needs SMC-Rv2 and a patched rxe (issue 4): not measured"
python3 - "$tcp" "$smcr" "$verbs" <<'PY'
import sys
try:
    tcp, smcr, verbs = (float(x) for x in sys.argv[1:4])
    print("# bench: SMC-R / TCP %.2f   SMC-R / raw verbs %.2f" % (smcr / tcp, smcr / verbs))
except ValueError:
    print("# bench: a measurement failed, no ratios")
PY
