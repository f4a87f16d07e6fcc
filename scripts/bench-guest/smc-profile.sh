#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
#
# SMC-R profile, inside each guest (scripts/bench smc-profile): where the
# time of a bulk transfer and of a 1-byte round trip goes, our module
# against Linux's smc.ko, both guests on the same one in turn (SMC-Rv2).
# Guest b serves smc_bench, guest a runs it; for each mode (bulk: 64 KiB
# writes; rr: 1-byte ping-pong):
#   - a run of SECS seconds, over which each guest counts its CPU ticks
#     (busy, softirq, system), context switches, RoCE packets and virtio
#     interrupts, each per message (a 64 KiB write, or a round trip);
#   - a second run, of which each guest traces 2 s with function_graph:
#     the module's entry points (sendmsg, recvmsg, the completion
#     handlers) and the functions below them worth a line of their own,
#     each one's calls and mean duration (children included).
# The durations include interrupts taken meanwhile, and the trace costs
# time itself: compare the modules, not absolute numbers. Not a test.
#
# Parameters come from $SMCR_OUT/bench-smc-profile.conf (SECS).
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
# shellcheck source=scripts/bench-guest/profile-lib.sh
source "$SMCR_REPO/scripts/bench-guest/profile-lib.sh"
# shellcheck source=scripts/bench-guest/smc-lib.sh
source "$SMCR_REPO/scripts/bench-guest/smc-lib.sh"

SECS=10
if [[ -r $SMCR_OUT/bench-smc-profile.conf ]]; then
	# shellcheck source=/dev/null
	source "$SMCR_OUT/bench-smc-profile.conf"
fi
PORT=5220

# Where the graph starts: each module's socket calls and the handlers of
# its completions; below them, the functions worth a line of their own
# (Linux's names, then ours, then the device's and the copies)
GRAPH_TOP=(smc_sendmsg smc_recvmsg smc_wr_tx_tasklet_fn smc_wr_rx_tasklet_fn
	smc_tx_work smcr_sendmsg smcr_recvmsg smcr_wr_tx_done smcr_wr_rx_done
	smcr_cdc_uncork_work)
GRAPH_MORE=(smc_tx_sendmsg smc_rx_recvmsg smc_tx_sndbuf_nonempty
	smc_cdc_msg_send smc_wr_tx_send smc_cdc_tx_handler smc_cdc_rx_handler
	smc_tx_consumer_update smc_tx_pending smc_rx_wake_up
	smcr_tx_sendmsg smcr_rx_recvmsg smcr_cdc_send smcr_cdc_post
	smcr_wr_tx_send smcr_cdc_tx_done smcr_cdc_rx smcr_conn_wake
	rxe_post_send _copy_from_iter _copy_to_iter)

# files of this guest's numbers for module $1, mode $2
out() { echo "$SMCR_OUT/smc-profile.$SMCR_ROLE.$1.$2"; }

# units MODULE MODE: the messages guest a counted in the first run
units() { cat "$SMCR_OUT/smc-profile.units.$1.$2" 2>/dev/null || echo 0; }

# client MODE: one smc_bench run of SECS seconds, its result line
client() {
	local args=(--mode bulk --size 65536)
	[[ $1 == rr ]] && args=(--mode rr)
	timeout $((SECS + 60)) "$SMCR_BENCH" client --family smc \
		--host "$SMCR_PEER_IP" --port "$PORT" --secs "$SECS" "${args[@]}" |
		tail -n 1
}

# messages MODE LINE: 64 KiB writes or round trips in a result line
messages() {
	python3 - "$1" "$2" <<'PY'
import sys
kv = dict(w.split("=", 1) for w in sys.argv[2].split() if "=" in w)
if sys.argv[1] == "rr":
    print(kv.get("n", 0))
else:
    print(int(kv.get("bytes", 0)) // 65536)
PY
}

# measure MODULE MODE: both runs of one mode, on either guest
measure() {
	local x=$1 m=$2 o line pid=
	o=$(out "$x" "$m")
	barrier "$x-$m-count" 120 || return 1
	prof_counters 0 rxe0 >"$o.before"
	if [[ $SMCR_ROLE == a ]]; then
		line=$(client "$m")
		echo "$line" >"$o.result"
		messages "$m" "$line" >"$SMCR_OUT/smc-profile.units.$x.$m"
	fi
	barrier "$x-$m-counted" $((SECS + 120)) || return 1
	prof_counters "$(units "$x" "$m")" rxe0 >"$o.after"

	barrier "$x-$m-trace" 120 || return 1
	if [[ $SMCR_ROLE == a ]]; then
		client "$m" >/dev/null &
		pid=$!
	fi
	sleep 3
	prof_graph 2 0 "${GRAPH_TOP[@]}" -- "${GRAPH_MORE[@]}" >"$o.graph"
	[[ -z $pid ]] || wait "$pid"
	barrier "$x-$m-traced" $((SECS + 120))
}

# report MODULE MODE: both guests' numbers as "# bench: " lines
report() {
	local r o
	echo "$1, $2: $(cat "$(out "$1" "$2").result" 2>/dev/null)"
	for r in a b; do
		o=$SMCR_OUT/smc-profile.$r.$1.$2
		[[ -r $o.after ]] || continue
		echo "$1 $2 $r: $(prof_per_unit "$(cat "$o.before")" "$(cat "$o.after")" message)"
		sed "s/^/$1 $2 $r: /" "$o.graph"
	done
}

tap_check "insmod smcr.ko ($SMCR_ROLE)" insmod "$SMCR_REPO/net/smc/smcr.ko" ||
	exit 0
"$SMCR_TOOL" ueid add SMCR-BENCH
rm -f "$SMCR_OUT"/smc-profile.units.*
for x in ours linux; do
	if [[ $x == linux ]]; then
		tap_check "Linux's smc.ko in place of ours ($SMCR_ROLE)" linux_smc
	fi
	if [[ $SMCR_ROLE == b ]]; then
		"$SMCR_BENCH" server --family smc --port "$PORT" >/dev/null 2>&1 &
		srv=$!
		wait_listen "$PORT"
	fi
	for m in bulk rr; do
		measure "$x" "$m"
	done
	barrier "$x-done" 120
	if [[ $SMCR_ROLE == b ]]; then
		kill "$srv"
		wait "$srv" 2>/dev/null
	fi
	PORT=$((PORT + 1))
done
if [[ $SMCR_ROLE == a ]]; then
	for x in ours linux; do
		for m in bulk rr; do
			report "$x" "$m" | sed 's/^/# bench: /'
		done
	done
fi
tap_check "no kernel warning ($SMCR_ROLE)" dmesg_clean
exit 0
