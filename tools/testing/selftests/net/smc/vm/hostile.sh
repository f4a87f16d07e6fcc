#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 600
#
# Group "hostile": a client that speaks CLC badly on purpose
# (smc_hostile.py, a plain TCP program that smc_synopt.bpf.o makes look
# SMC-capable by putting the SMC TCP option into its SYN) against our
# server on b: wrong eyecatchers, lengths short, long and missing, a
# wrong version, impossible prefix counts, a Confirm first, a foreign
# subnet; then proposals the server accepts followed by a Confirm with
# an RMBE size code past the RFC's largest, one naming a QP that does not
# exist, and none at all. Each gets a Decline or the end of its
# connection within 30 s.
#
# Then smc_hostile_rdma, a verbs client with a real queue pair of its
# own, brings up link groups with the server and breaks the protocol
# where RDMA carries it: CDC cursors past the RMB, backwards, wrapped
# twice, a consumer cursor past anything sent, unknown tokens, DELETE
# LINK of a link that does not exist, garbage ADD LINK and unknown LLC,
# an LLC flood while the answers cannot land (a real client moves data
# meanwhile), receives withheld for good, TEST LINK left unanswered
# while data flows (no probe is due), CDC messages after our close
# while the server's close waits, CONFIRM LINK never answered,
# an RDMA write past the server's RMB, a wrong rkey. Each connection
# keeps working or ends, as its case expects, within 30 s (the server
# probes its links every 3 s here). Last, with the probes off, the
# server's final writes stall past its close and resume: what lands must
# be what it echoed (its send buffer outlives them). Before, during and
# after, real SMC-R clients move data to the same server.
#
# Last, the roles turn: smc_hostile_server.py on a answers the Proposals
# of our client on b badly on purpose: broken Accepts (eyecatchers,
# lengths, version, type), a short Decline, no answer, a reset, Accepts
# whose QP MTU, RMBE size code or element index cannot be served, one
# for a link group the client does not have, and one followed by silence
# where CONFIRM LINK should come. A broken message fails the connect; an
# Accept that cannot be served is declined and the connection works on
# over TCP (App. C.1, C.2); each within 30 s. A real SMC-R connection
# from b to a follows. Both modules unload, and no kernel warning shows
# on either guest.
#   scripts/run-tests hostile
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

BIN=$SMCR_REPO/build/selftests
KO=$SMCR_REPO/net/smc/smcr.ko
PY=$SMCR_REPO/tools/testing/selftests/net/smc/smc_hostile.py
SRV=$SMCR_REPO/tools/testing/selftests/net/smc/smc_hostile_server.py
RUN=$SMCR_REPO/tools/smc_run/smc_run
CG=/sys/fs/cgroup/smc-hostile
PORT=7900
SRV_PORT=7950	# and one port for each of smc_hostile_server.py's cases
REAL_PORT=7990

# a cgroup whose TCP connections carry the SMC option in their SYN
synopt_cgroup() {
	mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf || return 1
	mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup || return 1
	mkdir -p "$CG"
	bpftool prog load "$BIN/smc_synopt.bpf.o" /sys/fs/bpf/smc_synopt \
		type sockops || return 1
	bpftool cgroup attach "$CG" sock_ops pinned /sys/fs/bpf/smc_synopt
}

# in_cgroup CMD...: CMD run inside the synopt cgroup
in_cgroup() {
	# shellcheck disable=SC2016 # $$ is the inner shell's
	bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG" "$@"
}

guest_b() {
	local echo_pid data_pids=() i rc=0
	"$BIN/smc_peer" server --family smc --echo --port $PORT >/tmp/echo.out 2>&1 &
	echo_pid=$!
	# one server for each real client (a connection's data stream is
	# seeded with its index within the process)
	for i in 1 2 3; do
		"$BIN/smc_peer" server --family smc --port $((PORT + i)) \
			--bytes 4M --count 1 --timeout 300 >/tmp/data.$i 2>&1 &
		data_pids+=($!)
	done
	for i in 0 1 2 3; do wait_listen $((PORT + i)) 20; done
	# dead links are found within seconds (smc_hostile_rdma's cases)
	echo 3 >/sys/module/smcr/parameters/testlink_time
	barrier hostile-listen 60
	# stall-resume: a stall longer than a probe's wait, so no probes
	barrier hostile-testlink 500
	echo 0 >/sys/module/smcr/parameters/testlink_time
	barrier hostile-testlink-off 60
	barrier hostile-done 560
	barrier hostile-srv-listen 60
	tap_check "smc_hostile_server.py, our client's side" \
		"$RUN" python3 "$SRV" client --host "$SMCR_PEER_IP" --port $SRV_PORT \
		--bound "$(tscale 30)"
	tap_check "a real SMC-R client after the hostile server" \
		"$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" \
		--port $REAL_PORT --bytes 4M --count 1 --timeout 120
	barrier hostile-srv-done 300
	for i in "${data_pids[@]}"; do wait "$i" || rc=1; done
	tap_check "the three real SMC-R clients served, data checked" test $rc = 0
	sed 's/^[# ]*/# server: /; s/not ok/failed/' /tmp/data.[123]
	kill "$echo_pid" 2>/dev/null
	wait "$echo_pid" 2>/dev/null
	"$SMCR_REPO/build/tools/smcr" stats | grep -E '^fallback\.srv\.' | sed 's/^/# /'
	no_qps 60
	grep -v '^#' /sys/kernel/tracing/trace >"$SMCR_OUT/hostile.b.trace"
	# why each link went down, as the server traced it
	sed -n 's/.*link down: //p' "$SMCR_OUT/hostile.b.trace" | sort |
		uniq -c | sed 's/^ */# links down: /'
	tap_check "the server traced the refused cursors and the bogus link" \
		bash -c "grep -q 'smcr_cdc_refused: .*cursor refused' $SMCR_OUT/hostile.b.trace &&
			grep -q 'link down: CDC protocol violation' $SMCR_OUT/hostile.b.trace &&
			grep -q 'smcr_llc_bogus: .*no such link' $SMCR_OUT/hostile.b.trace"
	tap_check "rmmod smcr after the hostile client (b)" rmmod smcr
}

guest_a() {
	local rc mac srv_pid real_pid
	tap_check "a cgroup whose SYNs carry the SMC option (bpftool, sock_ops)" \
		synopt_cgroup || return
	barrier hostile-listen 60
	tap_check "a real SMC-R client before the hostile one" \
		"$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" \
		--port $((PORT + 1)) --bytes 4M --count 1 --timeout 120
	in_cgroup python3 "$PY" --host "$SMCR_PEER_IP" --port $PORT \
		--prefix "${SMCR_PEER_IP%.*}.0/24" --bound 30
	rc=$?
	tap_check "smc_hostile.py exit status ($rc)" test "$rc" = 0
	# the real client of the flood case, out of the synopt cgroup
	cat >/tmp/stall.sh <<-EOF
		echo \$\$ >/sys/fs/cgroup/cgroup.procs
		exec "$BIN/smc_peer" client --family smc --host $SMCR_PEER_IP \\
			--port $((PORT + 3)) --bytes 4M --count 1 --timeout 120
	EOF
	in_cgroup "$BIN/smc_hostile_rdma" --host "$SMCR_PEER_IP" --port $PORT \
		--ip "$SMCR_SELF_IP" --bound 30 --stall-cmd "bash /tmp/stall.sh"
	rc=$?
	tap_check "smc_hostile_rdma exit status ($rc)" test "$rc" = 0
	barrier hostile-testlink 60
	barrier hostile-testlink-off 60
	in_cgroup "$BIN/smc_hostile_rdma" --host "$SMCR_PEER_IP" --port $PORT \
		--ip "$SMCR_SELF_IP" --bound 30 stall-resume
	rc=$?
	tap_check "smc_hostile_rdma stall-resume exit status ($rc)" \
		test "$rc" = 0
	tap_check "a real SMC-R client after the hostile one" \
		"$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" \
		--port $((PORT + 2)) --bytes 4M --count 1 --timeout 120
	barrier hostile-done 560
	# the hostile server, and a real one for the client after it
	"$BIN/smc_peer" server --family smc --port $REAL_PORT --bytes 4M \
		--count 1 --timeout 300 >/tmp/real.out 2>&1 &
	real_pid=$!
	mac=$(ip -o -4 addr show | awk -v ip="$SMCR_SELF_IP" \
		'$4 ~ "^" ip "/" { print $2 }' | head -n1)
	mac=$(cat "/sys/class/net/$mac/address")
	rm -f /tmp/srv.ready
	in_cgroup python3 "$SRV" server --port $SRV_PORT --ip "$SMCR_SELF_IP" \
		--mac "$mac" --bound "$(tscale 30)" --ready-file /tmp/srv.ready \
		>/tmp/srv.out 2>&1 &
	srv_pid=$!
	for _ in $(seq 50); do [[ -e /tmp/srv.ready ]] && break; sleep 0.2; done
	wait_listen $REAL_PORT 20
	barrier hostile-srv-listen 60
	wait "$srv_pid"
	rc=$?
	cat /tmp/srv.out
	tap_check "smc_hostile_server.py, the hostile side ($rc)" test "$rc" = 0
	wait "$real_pid"
	rc=$?
	sed 's/^[# ]*/# real server: /' /tmp/real.out
	tap_check "the real SMC-R server after the hostile one" test "$rc" = 0
	barrier hostile-srv-done 300
	grep -v '^#' /sys/kernel/tracing/trace >"$SMCR_OUT/hostile.a.trace"
	bpftool cgroup detach "$CG" sock_ops pinned /sys/fs/bpf/smc_synopt
	rm -f /sys/fs/bpf/smc_synopt
	tap_check "rmmod smcr (a)" rmmod smcr
}

tap_check "insmod smcr.ko ($SMCR_ROLE)" insmod "$KO" || exit 0
smcr_trace_on
if [[ $SMCR_ROLE == a ]]; then guest_a; else guest_b; fi
tap_check "no kernel warning ($SMCR_ROLE)" dmesg_clean
