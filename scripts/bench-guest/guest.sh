#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark, inside each guest: the same iperf3 runs over plain TCP, over
# our SMC-R v1 and v2 (under smc_run), then over Linux's smc.ko (SMC-Rv2,
# ours unloaded), and perftest's ib_write_bw measures the raw RDMA write
# bandwidth of the same rxe link. Guest b serves, guest a measures and
# prints one line per transport. After each transport's iperf3 run,
# smc_bench measures it ROUNDS times: bulk throughput for each message
# size of BULK_SIZES, BULK_STREAMS streams of 64 KiB writes at once,
# 1-byte request/response (rate and latency percentiles) and connect,
# request, response, close; a line each into $SMCR_OUT/bench.results,
# which scripts/bench turns into the table and the plots.
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
# shellcheck source=scripts/bench-guest/smc-lib.sh
source "$SMCR_REPO/scripts/bench-guest/smc-lib.sh"

RUN=$SMCR_REPO/tools/smc_run/smc_run
RESULTS=$SMCR_OUT/bench.results
SECS=5
ROUNDS=3
BULK_SIZES="1 64 1024 16384 65536 1048576"
BULK_STREAMS=8
# scripts/bench writes the run's SECONDS and ROUNDS there
if [[ -r $SMCR_OUT/bench.conf ]]; then
	# shellcheck source=/dev/null
	source "$SMCR_OUT/bench.conf"
fi
# perftest wants a duration past twice its 2 s warm-up margin
VSECS=$((SECS < 5 ? 5 : SECS))
# what ib_write_bw said, kept beside the guests' logs. Under TCG its
# calibration of the cycle counter can fail ("Correlation coefficient
# r^2 < 0.9", "Can't produce a report"): that is then the row's note.
PERFTEST_LOG=$SMCR_OUT/bench.$SMCR_ROLE.perftest

insmod "$SMCR_REPO/net/smc/smcr.ko" || { tap_fail "insmod smcr.ko"; exit 0; }

iperf_mbps() { # iperf3 -J output on stdin: receiver's Mbit/s
	python3 -c 'import json,sys; print("%.1f" % (json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"] / 1e6))'
}

# iperf_srv PORT NAME: serve one iperf3 run, under smc_run unless NAME is tcp
iperf_srv() {
	local run=("$RUN")
	[[ $2 == tcp ]] && run=()
	"${run[@]}" iperf3 -s -1 -p "$1" >/dev/null 2>&1 &
	wait_listen "$1"
	barrier "$2" 60
	wait
}

# iperf_cli PORT NAME: Mbit/s of one iperf3 run
iperf_cli() {
	local run=("$RUN")
	[[ $2 == tcp ]] && run=()
	barrier "$2" 60
	timeout $((SECS + 60)) "${run[@]}" iperf3 -c "$SMCR_PEER_IP" -p "$1" -t "$SECS" -J |
		iperf_mbps
}

# bench_srv NAME FAMILY PORT: serve smc_bench while the client measures
bench_srv() {
	local pid
	"$SMCR_BENCH" server --family "$2" --port "$3" >/dev/null 2>&1 &
	pid=$!
	wait_listen "$3"
	barrier "$1-bench" 60
	barrier "$1-bench-done" $((ROUNDS * 10 * (SECS + 30) + 60))
	kill "$pid"
	wait "$pid" 2>/dev/null
}

# bench_cli NAME FAMILY PORT: ROUNDS rounds of every measure, each line
# into RESULTS as "NAME round=R mode=... name=value..."
bench_cli() {
	local name=$1 r m line args
	local base=(client --family "$2" --host "$SMCR_PEER_IP" --port "$3"
		--secs "$SECS")
	barrier "$name-bench" 60
	for ((r = 1; r <= ROUNDS; r++)); do
		for m in $BULK_SIZES streams rr crr; do
			case $m in
			streams) args=(--mode bulk --streams "$BULK_STREAMS") ;;
			rr | crr) args=(--mode "$m") ;;
			*) args=(--mode bulk --size "$m") ;;
			esac
			line=$(timeout $((SECS + 30)) "$SMCR_BENCH" "${base[@]}" \
				"${args[@]}" 2>&1 | tail -n 1)
			echo "$name round=$r ${line:-failed}" >>"$RESULTS"
		done
	done
	barrier "$name-bench-done" 60
}

if [[ $SMCR_ROLE == b ]]; then
	iperf_srv 5201 tcp
	bench_srv tcp tcp 5211
	iperf_srv 5202 smcr-v1
	bench_srv smcr-v1 smc 5212
	"$SMCR_TOOL" ueid add SMCR-BENCH
	iperf_srv 5203 smcr-v2
	bench_srv smcr-v2 smc 5213
	linux_smc
	iperf_srv 5204 linux
	bench_srv linux smc 5214
	gid=$(rxe_gid_index rxe0 "$SMCR_SELF_IP")
	# it waits for a's four iperf3 runs first
	timeout $((VSECS + 300)) ib_write_bw -d rxe0 -x "$gid" -D "$VSECS" \
		>"$PERFTEST_LOG" 2>&1 &
	sleep 1
	barrier verbs 60
	barrier finished 120
	exit 0
fi

: >"$RESULTS"
tcp=$(iperf_cli 5201 tcp)
bench_cli tcp tcp 5211
smcr1=$(iperf_cli 5202 smcr-v1)
bench_cli smcr-v1 smc 5212
"$SMCR_TOOL" ueid add SMCR-BENCH
smcr2=$(iperf_cli 5203 smcr-v2)
bench_cli smcr-v2 smc 5213
linux_smc
linux=$(iperf_cli 5204 linux)
bench_cli linux smc 5214
barrier verbs 60
gid=$(rxe_gid_index rxe0 "$SMCR_SELF_IP")
sleep 2
timeout $((VSECS + 60)) ib_write_bw -d rxe0 -x "$gid" -D "$VSECS" "$SMCR_PEER_IP" \
	>"$PERFTEST_LOG" 2>&1
verbs=$(awk '/^ *65536 / { print $4 * 8 * 1.048576 }' "$PERFTEST_LOG")
# its own words when it gave no number
[[ -n $verbs ]] ||
	echo "# bench: ib_write_bw: $(grep -m 2 -iE "can't|fail|error|r\^2" "$PERFTEST_LOG" | tr '\n' ' ')"
barrier finished 120
echo "# bench: iperf3 over TCP                  ${tcp:-?} Mbit/s"
echo "# bench: iperf3 over our SMC-R v1         ${smcr1:-?} Mbit/s"
echo "# bench: iperf3 over our SMC-R v2         ${smcr2:-?} Mbit/s"
echo "# bench: iperf3 over Linux's smc.ko (v2)  ${linux:-?} Mbit/s"
echo "# bench: ib_write_bw (raw verbs)          ${verbs:-?} Mbit/s"
python3 - "$tcp" "$smcr1" "$smcr2" "$linux" "$verbs" <<'PY'
import sys


def ratio(a, b):
    try:
        return "%.2f" % (float(a) / float(b))
    except (ValueError, ZeroDivisionError):
        return "?"


tcp, v1, v2, linux, verbs = sys.argv[1:6]
print("# bench: ours v2 / TCP %s   ours v2 / Linux's %s   ours v2 / raw verbs %s"
      % (ratio(v2, tcp), ratio(v2, linux), ratio(v2, verbs)))
print("# bench: ours v1 / TCP %s   Linux's / TCP %s"
      % (ratio(v1, tcp), ratio(linux, tcp)))
PY
