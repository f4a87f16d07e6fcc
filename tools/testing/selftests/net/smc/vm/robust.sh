#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 420
#
# Group "robust": what a review of the module found, each phase the test
# that failed before its fix (issue "Robustness and security").
#   netns   an AF_SMC socket in a network namespace that goes away while
#           TCP still retransmits on the internal socket: the namespace
#           must stay until TCP is done with it (finding 1; before the
#           fix the retransmit timer ran on the freed namespace: general
#           protection fault)
#   linger  the other face of finding 1: data written just before close()
#           whose first transmission was lost must still arrive, with the
#           end of the stream (before the fix Debian's 6.1 stopped the
#           timers of the internal socket, which held no namespace
#           reference, at close: nothing was sent again)
#   ulp     setsockopt(TCP_ULP) on an AF_SMC socket is refused with
#           EOPNOTSUPP, as Linux's smc.ko refuses it (finding 8)
#   remove  six SMC-R connections, two held open by a program that never
#           reads or closes them; `rdma link delete rxe0` finishes within
#           seconds, the held connections see their end, and once rxe0 is
#           back the next connection is SMC-R again (finding 6; before the
#           fix the delete blocked for good)
#   hs      a client whose CLC Confirm never reaches the server (a tc
#           filter drops it) holds up no other handshake: the server waits
#           for that Confirm without the lock that picks link groups, and
#           the next connection is up in well under the 6 s of that wait
#           (finding 7; before the fix it waited for the silent one)
#   memcg   sixteen connections opened from inside a memory cgroup, on
#           either side: the cgroup is charged their RMBs and send buffers,
#           as socket buffers are charged to their owner's cgroup (finding
#           8; before, only the TCP sockets were)
#   pd      a connection each way, so two link groups in each guest: each
#           link has a protection domain of its own, so that no QP reaches
#           the RMB of another group, whose rkey a different peer holds
#           (before, one domain per device served every group)
#   unload  rmmod works afterwards; no kernel warning
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

BIN=$SMCR_REPO/build/selftests
KO=$SMCR_REPO/net/smc/smcr.ko
PY=$SMCR_REPO/tools/testing/selftests/net/smc/smc_robust.py
RUN=$SMCR_REPO/tools/smc_run/smc_run
TRACE=/sys/kernel/tracing
STOP=$SMCR_OUT/.robust.stop

smcr_conns() { grep -c 'smcr_conn: ' $TRACE/trace; }
trace_tail() { grep -v '^#' $TRACE/trace | tail -n "${1:-40}" | sed 's/^/# /'; }

setup() {
	rm -f "$STOP"
	# TEST LINK every 3 s: b finds out soon that a's device went away
	tap_check "insmod smcr.ko ($SMCR_ROLE)" insmod "$KO" testlink_time=3 ||
		exit 0
	smcr_trace_on
}

# netns: the namespace dies under a lingering internal TCP socket
netns() {
	[[ $SMCR_ROLE == a ]] || return 0
	modprobe sch_netem
	unshare -n "$RUN" python3 "$PY" netns --port 7700 --rto 20
	# the namespace is gone once its last process exits; TCP's
	# retransmit timer fires 20 s after the send
	sleep 25
	tap_check "netns: TCP's timers never ran on a freed namespace (a)" \
		dmesg_clean
}

# linger: what close() leaves to TCP is still delivered after a loss
linger() {
	[[ $SMCR_ROLE == a ]] || return 0
	unshare -n "$RUN" python3 "$PY" linger --port 7701 \
		--within "$(tscale 20)"
}

# py_pair TEST PORT [OPTION...]: smc_robust.py TEST with the options, its
# server in b and, once that listens, its client in a; each in the cgroup
# $CGROUP when set
py_pair() {
	local test=$1 port=$2 in=()
	shift 2
	# shellcheck disable=SC2016 # $$ is the inner shell's pid
	[[ -n ${CGROUP:-} ]] &&
		in=(bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CGROUP")
	if [[ $SMCR_ROLE == b ]]; then
		timeout 90 "${in[@]}" "$RUN" python3 "$PY" "$test" server \
			--port "$port" "$@" &
		wait_listen "$port"
		barrier "$test" 60
		wait $! || tap_fail "$test: server exit status (b)"
	else
		barrier "$test" 60
		timeout 90 "${in[@]}" "$RUN" python3 "$PY" "$test" client \
			--host "$SMCR_PEER_IP" --port "$port" "$@" ||
			tap_fail "$test: client exit status (a)"
	fi
}

# memcg: buffers charged to the cgroup of the socket's owner
memcg() {
	local cg=/sys/fs/cgroup

	mountpoint -q $cg || mount -t cgroup2 none $cg
	echo +memory >$cg/cgroup.subtree_control
	mkdir -p $cg/smcr-robust
	CGROUP=$cg/smcr-robust py_pair memcg 7705 --count 16
}

ulp() {
	py_pair ulp 7701
}

# remove: the RoCE device goes while idle connections use it
remove() {
	local ready=/tmp/smc_robust.ready pid t0 dt conns conns0
	if [[ $SMCR_ROLE == b ]]; then
		timeout 200 "$RUN" python3 "$PY" idle server --port 7702 --count 6 \
			--hold 150 --stop "$STOP" &
		wait_listen 7702
		barrier remove 60
		barrier remove-done 150
		wait
		# the group whose peer lost its device ends by TEST LINK
		no_qps 60
		tap_check "remove: b's link group to a ended (b)" test "$(rc_qps)" -eq 0
		barrier remove-again 90
		timeout 120 "$BIN/smc_peer" server --family smc --port 7703 \
			--bytes 1M --timeout 100 &
		wait_listen 7703
		barrier remove-peer 60
		if ! wait $!; then
			tap_fail "remove: smc_peer server after rxe0 came back (b)"
			trace_tail
		fi
		return 0
	fi
	rm -f "$ready"
	conns0=$(smcr_conns)
	barrier remove 60
	timeout 200 "$RUN" python3 "$PY" idle client --host "$SMCR_PEER_IP" \
		--port 7702 --count 6 --keep 2 --hold 150 --stop "$STOP" \
		--ready "$ready" --expect-end &
	pid=$!
	for _ in $(seq 300); do
		[[ -e $ready ]] && break
		sleep 0.2
	done
	conns=$(($(smcr_conns) - conns0))
	tap_check "remove: six connections over SMC-R (a)" test "$conns" -ge 6
	t0=$SECONDS
	rdma link delete rxe0 &
	for _ in $(seq 150); do
		kill -0 $! 2>/dev/null || break
		sleep 0.2
	done
	dt=$((SECONDS - t0))
	if kill -0 $! 2>/dev/null; then
		tap_fail "remove: rdma link delete rxe0 still blocked after ${dt} s (a)"
		echo w >/proc/sysrq-trigger
		dmesg | tail -n 40 | sed 's/^/# /'
	else
		tap_check "remove: rdma link delete rxe0 finished in ${dt} s (a)" \
			wait $!
	fi
	: >"$STOP"
	wait "$pid" || tap_fail "remove: idle client exit status (a)"
	barrier remove-done 150
	tap_check "remove: rdma link add rxe0 again (a)" \
		rdma link add rxe0 type rxe netdev eth0
	sleep 2
	barrier remove-again 90
	conns=$(smcr_conns)
	barrier remove-peer 60
	timeout 120 "$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" \
		--port 7703 --bytes 1M --timeout 100 || {
		tap_fail "remove: smc_peer client after rxe0 came back (a)"
		trace_tail
	}
	tap_check "remove: with rxe0 back, the next connection is SMC-R (a)" \
		test $(($(smcr_conns) - conns)) -ge 1
}

# hs: one silent client next to a working one
hs() {
	if [[ $SMCR_ROLE == b ]]; then
		py_pair hs 7704
		return 0
	fi
	# the Confirm of connections from port 41000: eyecatcher and type
	# 3 right after a TCP header with timestamps (32 bytes)
	tc qdisc add dev eth0 clsact
	tc filter add dev eth0 egress protocol ip u32 \
		match ip protocol 6 0xff match ip sport 41000 0xffff \
		match u32 0xe2d4c3d9 0xffffffff at 52 \
		match u8 0x03 0xff at 56 action drop
	py_pair hs 7704 --silent-port 41000 --within 3
	tc -s filter show dev eth0 egress | grep 'Sent [1-9]' >/dev/null ||
		tap_fail "hs: the tc filter dropped the silent client's Confirm (a)"
	tc qdisc del dev eth0 clsact
}

# _pd_per_link: as many protection domains of smcr as RC QPs of smcr
_pd_per_link() {
	local qps pds

	rdma res show qp | grep 'type RC.*comm \[smcr\]'
	rdma res show pd | grep 'comm \[smcr\]'
	qps=$(rdma res show qp | grep -c 'type RC.*comm \[smcr\]')
	pds=$(rdma res show pd | grep -c 'comm \[smcr\]')
	echo "$qps QPs, $pds protection domains"
	((qps == 2 && pds == qps))
}

# pd: a client and a server in each guest, the connections held open
pd() {
	local srv cli i

	rm -f /tmp/pd.stop /tmp/pd.ready
	"$RUN" python3 "$PY" idle server --port 7706 --count 1 --hold 60 \
		--stop /tmp/pd.stop >/tmp/pd.server.out 2>&1 &
	srv=$!
	wait_listen 7706
	barrier pd 60
	"$RUN" python3 "$PY" idle client --host "$SMCR_PEER_IP" --port 7706 \
		--count 1 --keep 1 --hold 60 --stop /tmp/pd.stop \
		--ready /tmp/pd.ready >/tmp/pd.client.out 2>&1 &
	cli=$!
	for ((i = 0; i < 300; i++)); do
		[[ -e /tmp/pd.ready ]] && break
		sleep 0.1
	done
	barrier pd-up 60
	tap_check "pd: each link has a protection domain of its own ($SMCR_ROLE)" \
		_pd_per_link
	barrier pd-checked 60
	: >/tmp/pd.stop
	wait "$cli" "$srv"
	sed 's/^/# /' /tmp/pd.client.out /tmp/pd.server.out
	# the next phase starts without a group: a connection of it that
	# the server put on one of these while ours was ending it as idle
	# would be declined and go over TCP, where no device removal ends it
	no_qps "$(tscale 60)"
}

finish() {
	barrier finish 120
	sleep 2
	if ! tap_check "rmmod smcr ($SMCR_ROLE)" rmmod smcr; then
		grep '^SMCR' /proc/net/protocols | sed 's/^/# /'
		trace_tail 60
	fi
	tap_check "no kernel warning ($SMCR_ROLE)" dmesg_clean
}

setup
netns
linger
ulp
hs
memcg
pd
remove
finish
exit 0
