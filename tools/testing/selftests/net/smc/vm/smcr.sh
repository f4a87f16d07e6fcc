#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 600
#
# Group "smcr": SMC-R between two instances of our module (RFC 7609 §3.5,
# §4), one per guest, over soft-RoCE. Guest b serves, guest a connects.
#   bulk    256 MiB each way, SHA-256 compared, and proof that RDMA carried
#           it: TCP moved only a handful of segments (the CLC handshake)
#           while the rxe port counters rose by the data's packets
#   reuse   later connections join the link group: one RC QP in all
#   ipv6    SMC-R over an IPv6 TCP connection
#   sizes   transfers from 1 byte up
#   rmb     RMB elements of 16 KiB and 256 KiB (the module's default)
#   iperf3  unmodified iperf3 under smc_run runs over SMC-R
#   close   half-close and close in both orders (smc_close.py, a plain TCP
#           program under smc_run), no fallback
#   splice  sendfile() into and splice() out of SMC-R connections
#   many    256 connections open at once: 255 share a link group, the
#           256th opens a parallel one (§3.5.3); accept() returns them in
#           the order the client connected them (two rounds)
#   oob     urgent data (smc_oob.py under smc_run): SIGURG/select, the mark,
#           SIOCATMARK, MSG_OOB, SO_OOBINLINE
#   abort   the client is killed mid-transfer
#   gone    the server's host drops off the network under an idle
#           connection: TEST LINK notices, the client's recv ends: the server sees the end,
#           nothing hangs
#   version both sides with a user EID use SMC-Rv2, in a link group of its
#           own; with the EIDs of one side removed, SMC-R v1 again
#   netlink what SMC_GEN_NETLINK reports (tools/smcr) with an SMC-Rv2
#           and an SMC-R v1 connection held open (b drops its EID between
#           them): a link group each of our role, its version, EID and
#           peer host; links with each other's GIDs and user ids; counters
#           that grew by the two handshakes and their data; no fallback in
#           the whole run
#   bufstats one send call of 200 KiB into 64 KiB buffers, read late and
#           first in 1 KiB: the counters of buffers too small or full
#           (sender: both too small, waited for the peer's RMB; receiver:
#           RMB full, call smaller than the unread data)
#   cork    20000 sends of 1 to 64 bytes arrive whole; corked behind the
#           CDC message in flight they take fewer RoCE packets than sends,
#           with net.smc.autocorking_size 0 two per send
#   writable a non-blocking writer that filled the buffers (EAGAIN) gets
#           EPOLLOUT, edge-triggered, once the peer reads
#   unload  rmmod works afterwards; no kernel warning
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

BIN=$SMCR_REPO/build/selftests
KO=$SMCR_REPO/net/smc/smcr.ko
TRACE=/sys/kernel/tracing
HW=/sys/class/infiniband/rxe0/ports/1/hw_counters

tcp_segs() { nstat -az TcpOutSegs | awk '$1 == "TcpOutSegs" { print $2 }'; }
rxe_pkts() { cat $HW/sent_pkts; }
lgr_created() { grep -c 'smcr_lgr_create: ' $TRACE/trace; }
smcr_conns() { grep -c 'smcr_conn: ' $TRACE/trace; }
fallbacks() { grep -c 'smcr_fallback: ' $TRACE/trace; }

# over_smcr NAME CONNS0 FB0 N: at least N new SMC-R connections, no fallback
over_smcr() {
	local conns=$(($(smcr_conns) - $2)) fb=$(($(fallbacks) - $3))
	if ((conns >= $4 && fb == 0)); then
		tap_ok "$1: $conns connections over SMC-R, none fell back ($SMCR_ROLE)"
	else
		tap_fail "$1: $conns connections over SMC-R, $fb fell back ($SMCR_ROLE)"
	fi
}

# py_pair NAME PORT SECS SCRIPT: a Python test of this directory as server
# and client, each a plain TCP program run under smc_run
py_pair() {
	local run=$SMCR_REPO/tools/smc_run/smc_run
	local py=$SMCR_REPO/tools/testing/selftests/net/smc/$4

	pair "$1" "$2" "$3" "$run" python3 "$py" server --port "$2" -- \
		"$run" python3 "$py" client --host "$SMCR_PEER_IP" --port "$2"
}
# pair NAME PORT SECS SERVER... -- CLIENT...: guest b runs the server
# command, and once it listens on PORT both guests meet at barrier NAME;
# guest a then runs the client command. Each side's failure is reported.
pair() {
	local name=$1 port=$2 secs srv=()
	secs=$(tscale "$3")
	shift 3
	while (($#)) && [[ $1 != -- ]]; do
		srv+=("$1")
		shift
	done
	shift
	if [[ $SMCR_ROLE == b ]]; then
		timeout "$secs" "${srv[@]}" &
		wait_listen "$port"
		barrier "$name" 60
		wait $! || tap_fail "$name: server exit status"
	else
		barrier "$name" 60
		timeout "$secs" "$@" || tap_fail "$name: client exit status"
	fi
}

setup() {
	# TEST LINK every 5 s: the gone phase waits for it
	tap_check "insmod smcr.ko ($SMCR_ROLE)" insmod "$KO" testlink_time=5 ||
		exit 0
	mountpoint -q $TRACE || mount -t tracefs nodev $TRACE
	echo 1 >$TRACE/events/smcr/enable
	# not one event per CDC message: the counts here need the whole ring
	echo 0 >$TRACE/events/smcr/smcr_cdc/enable
}

# bulk: one connection, 256 MiB each way
bulk() {
	local segs0 pkts0 segs pkts
	segs0=$(tcp_segs)
	pkts0=$(rxe_pkts)
	# smc_peer's own limit stretched too: 1 MiB/s on the debug kernel
	pair bulk 7500 330 \
		"$BIN/smc_peer" server --family smc --port 7500 --bytes 256M \
		--timeout "$(tscale 300)" -- \
		"$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" --port 7500 \
		--bytes 256M --timeout "$(tscale 300)"
	segs=$(($(tcp_segs) - segs0))
	pkts=$(($(rxe_pkts) - pkts0))
	echo "# bulk ($SMCR_ROLE): $segs TCP segments, $pkts RoCE packets sent"
	# 256 MiB in 1 KiB RoCE MTU packets: 262144 at least
	if ((pkts >= 262144)); then
		tap_ok "bulk: the data went as RoCE packets ($pkts)"
	else
		tap_fail "bulk: the data went as RoCE packets ($pkts)"
	fi
	# SYN/ACKs, CLC messages, FIN: far below one segment per 64 KiB
	if ((segs < 100)); then
		tap_ok "bulk: TCP carried only the handshake ($segs segments)"
	else
		tap_fail "bulk: TCP carried only the handshake ($segs segments)"
	fi
}

# reuse: five more connections to the same peer, one link group, one QP;
# the buffers of those that closed serve the next (smcr stats)
reuse() {
	local smcr=$SMCR_REPO/build/tools/smcr out=/tmp/reuse
	local show=$SMCR_REPO/tools/testing/selftests/net/smc/smcr_show.py

	"$smcr" stats >$out.0
	pair reuse 7501 150 \
		"$BIN/smc_peer" server --family smc --port 7501 --bytes 1M --count 5 \
		--timeout 120 -- \
		"$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" --port 7501 \
		--bytes 1M --count 5 --timeout 120
	tap_check "reuse: one link group for all connections ($SMCR_ROLE)" \
		test "$(lgr_created)" -eq 1
	tap_check "reuse: one RC queue pair ($SMCR_ROLE)" test "$(rc_qps)" -eq 1
	"$smcr" stats >$out.1
	tap_check "reuse: RMBs and send buffers of closed connections reused ($SMCR_ROLE)" \
		python3 "$show" delta $out.0 $out.1 "smcr.rx.rmb.reuse>=2" \
		"smcr.tx.rmb.reuse>=2"
}

ipv6() {
	pair ipv6 7502 150 \
		"$BIN/smc_peer" server --family smc --ipv6 --port 7502 --bytes 16M \
		--timeout 120 -- \
		"$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP6" \
		--port 7502 --bytes 16M --timeout 120
}

sizes() {
	local n port=7510
	for n in 1 2 1023 4096 65535 65536 65537 1M 3M; do
		pair "size$n" $port 90 \
			"$BIN/smc_peer" server --family smc --port $port --bytes $n \
			--timeout 60 -- \
			"$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" \
			--port $port --bytes $n --timeout 60
		port=$((port + 1))
	done
}

# rmb: the module default buffer size decides the RMB (A.2.3 codes)
rmb() {
	local sz port=7540
	for sz in 16384 262144; do
		echo $sz >/sys/module/smcr/parameters/buf_size
		pair "rmb$sz" $port 90 \
			"$BIN/smc_peer" server --family smc --port $port --bytes 8M \
			--timeout 60 -- \
			"$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" \
			--port $port --bytes 8M --timeout 60
		tap_check "rmb: a connection used $sz-byte RMBs on both ends ($SMCR_ROLE)" \
			grep -q "rmb=$sz sndbuf=$sz peer_rmb=$sz" $TRACE/trace
		port=$((port + 1))
	done
	echo 65536 >/sys/module/smcr/parameters/buf_size
}

# iperf3: an unmodified program under smc_run, over SMC-R, no fallback
iperf() {
	local run=$SMCR_REPO/tools/smc_run/smc_run c0 fb0
	c0=$(smcr_conns)
	fb0=$(fallbacks)
	if [[ $SMCR_ROLE == b ]]; then
		"$run" iperf3 -s -1 -p 5201 >/tmp/iperf3.log 2>&1 &
		wait_listen 5201
		barrier iperf 60
		wait $! || tap_fail "iperf3 server exit status"
	else
		barrier iperf 60
		tap_check "iperf3 -c through smc_run" \
			timeout 60 "$run" iperf3 -c "$SMCR_PEER_IP" -p 5201 -t 3 -f m
	fi
	# iperf3 opens a control and a data connection
	over_smcr iperf3 "$c0" "$fb0" 2
}

# close: shutdown and close orders, over SMC-R
closing() {
	local c0 fb0

	c0=$(smcr_conns)
	fb0=$(fallbacks)
	py_pair close 7550 120 smc_close.py
	over_smcr close "$c0" "$fb0" 4
}

# splice: sendfile and splice, over SMC-R
splice() {
	local c0 fb0

	c0=$(smcr_conns)
	fb0=$(fallbacks)
	py_pair splice 7590 120 smc_splice.py
	over_smcr splice "$c0" "$fb0" 1
}

# many: §3.5.3, at most 255 connections per link group. Twice: the server
# reads the connections in accept order, which must be the order the
# client connected them in (see smcr_listen.c).
many() {
	local groups round

	for round in 1 2; do
		# from no link group, so the 256th connection is the one to open
		# the second group and no idle group ends under a handshake
		no_qps 30
		echo >$TRACE/trace
		py_pair "many$round" $((7569 + round)) 240 smc_many.py
		# connections per link group, most first
		groups=$(grep -o 'smcr_conn: .* lgr=[0-9a-f]*' $TRACE/trace |
			sed 's/.*lgr=//' | sort | uniq -c | sort -rn |
			awk '{ print $1 }' | tr '\n' ' ')
		echo "# many$round ($SMCR_ROLE): connections per link group: $groups"
		tap_check "many$round: 255 connections in one link group, 1 in a second ($SMCR_ROLE)" \
			test "$groups" = "255 1 "
	done
}

# oob: urgent data with TCP's semantics, over SMC-R
oob() {
	local c0 fb0

	c0=$(smcr_conns)
	fb0=$(fallbacks)
	py_pair oob 7560 90 smc_oob.py
	over_smcr oob "$c0" "$fb0" 2
}

# abort: kill -9 the client mid-transfer; the server must end, not hang
abort() {
	local pid
	if [[ $SMCR_ROLE == b ]]; then
		"$BIN/smc_peer" server --family smc --port 7530 --bytes 512M \
			--timeout 60 >/tmp/abort.log 2>&1 &
		pid=$!
		wait_listen 7530
		barrier abort 60
		if timeout 90 tail --pid=$pid -f /dev/null; then
			tap_ok "abort: the server saw the peer go and ended"
		else
			tap_fail "abort: the server saw the peer go and ended"
			for t in "/proc/$pid/task/"*; do
				echo "# task $t:"
				sed 's/^/#   /' "$t/stack"
			done
			sed 's/^/# /' /tmp/abort.log
			grep -v '^#' $TRACE/trace | tail -n 30 | sed 's/^/# /'
			dmesg | tail -n 20 | sed 's/^/# dmesg: /'
			kill -9 $pid
		fi
		wait $pid
	else
		barrier abort 60
		"$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" \
			--port 7530 --bytes 512M --timeout 60 >/dev/null 2>&1 &
		pid=$!
		sleep 4
		kill -9 $pid
		wait $pid
		tap_ok "abort: client killed mid-transfer"
		sleep 5
		dmesg | tail -n 10 | sed 's/^/# dmesg: /'
		grep -v '^#' $TRACE/trace | tail -n 20 | sed 's/^/# /' 
	fi
}

# gone: the peer's network vanishes under an idle SMC-R connection
gone() {
	local run=$SMCR_REPO/tools/smc_run/smc_run py
	py=$SMCR_REPO/tools/testing/selftests/net/smc/smc_idle.py
	if [[ $SMCR_ROLE == b ]]; then
		timeout 120 "$run" python3 "$py" server --port 7580 --within 40 &
		wait_listen 7580
		barrier gone 60
		sleep 3
		ip link set eth0 down
		barrier gone-done 90
		ip link set eth0 up
		wait
	else
		barrier gone 60
		# TEST LINK every 5 s, no answer within 6 s, and slack for TCG
		timeout 120 "$run" python3 "$py" client --host "$SMCR_PEER_IP" \
			--port 7580 --within 40
		barrier gone-done 90
	fi
}

# version: SMC-Rv2 when both offer it, v1 otherwise
version() {
	local smcr=$SMCR_REPO/build/tools/smcr v2 v1

	tap_check "smcr ueid add SMCR-V2-TEST ($SMCR_ROLE)" "$smcr" ueid add SMCR-V2-TEST
	v2=$(grep -c 'smcr_conn: .* v2 ' $TRACE/trace)
	pair v2 7595 120 \
		"$BIN/smc_peer" server --family smc --port 7595 --bytes 16M --count 2 \
		--timeout 100 -- \
		"$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" --port 7595 \
		--bytes 16M --count 2 --timeout 100
	tap_check "version: both offer v2: two SMC-Rv2 connections ($SMCR_ROLE)" \
		test $(($(grep -c 'smcr_conn: .* v2 ' $TRACE/trace) - v2)) -eq 2
	tap_check "version: the v2 link group is one of its own ($SMCR_ROLE)" \
		grep -q 'smcr_lgr_create: .* v2 ' $TRACE/trace
	barrier v1 60
	[[ $SMCR_ROLE == b ]] && tap_check "smcr ueid flush (b)" "$smcr" ueid flush
	v1=$(grep -c 'smcr_conn: .* v1 ' $TRACE/trace)
	pair v1 7596 120 \
		"$BIN/smc_peer" server --family smc --port 7596 --bytes 1M \
		--timeout 100 -- \
		"$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" --port 7596 \
		--bytes 1M --timeout 100
	tap_check "version: one side without EID: SMC-R v1 ($SMCR_ROLE)" \
		test $(($(grep -c 'smcr_conn: .* v1 ' $TRACE/trace) - v1)) -eq 1
	"$smcr" ueid flush
}

# nl_hold PORT: (a) an SMC connection to the echo server on PORT, under
# smc_run: 64 KiB there and back, "up" in /tmp/nl-hold.PORT, then held
# until /tmp/nl-release exists; waits for the "up"
nl_hold() {
	local i
	"$SMCR_REPO/tools/smc_run/smc_run" python3 - "$SMCR_PEER_IP" "$1" \
		>"/tmp/nl-hold.$1" 2>&1 <<-'EOF' &
	import os, socket, sys, time
	s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=30)
	s.sendall(b"n" * 65536)
	got = 0
	while got < 65536:
	    got += len(s.recv(65536))
	print("up", flush=True)
	end = time.time() + 240
	while not os.path.exists("/tmp/nl-release") and time.time() < end:
	    time.sleep(0.2)
	EOF
	NL_PIDS+=($!)
	for ((i = 0; i < 150; i++)); do
		grep -qs up "/tmp/nl-hold.$1" && break
		sleep 0.2
	done
	tap_check "netlink: a connection to port $1 up (a)" grep -q up "/tmp/nl-hold.$1"
}

netlink() {
	local smcr=$SMCR_REPO/build/tools/smcr show=$SMCR_REPO/tools/testing/selftests/net/smc/smcr_show.py
	local out=$SMCR_OUT/nl-$SMCR_ROLE peer R ROLE O i
	if [[ $SMCR_ROLE == b ]]; then
		R=srv O=clnt ROLE=server peer=$SMCR_OUT/nl-a
	else
		R=clnt O=srv ROLE=client peer=$SMCR_OUT/nl-b
	fi
	rm -f /tmp/nl-release
	NL_PIDS=()
	uname -n | cut -c1-32 >"$out.host"
	tap_check "netlink: smcr ueid add SMCR-V2-TEST ($SMCR_ROLE)" "$smcr" ueid add SMCR-V2-TEST
	"$smcr" stats >"$out.stats0"
	if [[ $SMCR_ROLE == b ]]; then
		for i in 7597 7598; do
			"$BIN/smc_peer" server --family smc --port $i --echo --count 1 &
			NL_PIDS+=($!)
			wait_listen $i
		done
	fi
	barrier nl-listen 60
	[[ $SMCR_ROLE == a ]] && nl_hold 7597
	barrier nl-v2 60
	# b without an EID: the second connection is SMC-R v1
	[[ $SMCR_ROLE == b ]] && "$smcr" ueid flush
	barrier nl-v1 60
	[[ $SMCR_ROLE == a ]] && nl_hold 7598
	barrier nl-up 60
	"$smcr" stats >"$out.stats1"
	"$smcr" linkgroup >"$out.lgr"
	"$smcr" link >"$out.link"
	sed 's/^/# /' "$out.lgr" "$out.link"
	tap_check "netlink: stats: one v2 and one v1 handshake more, as $R ($SMCR_ROLE)" \
		python3 "$show" delta "$out.stats0" "$out.stats1" "smcr.$R.v2_success=1" \
		"smcr.$R.v1_success=1" "smcr.$O.v2_success=0" "smcr.$O.v1_success=0"
	tap_check "netlink: stats: their data counted each way ($SMCR_ROLE)" \
		python3 "$show" delta "$out.stats0" "$out.stats1" "smcr.tx.bytes>=131072" \
		"smcr.rx.bytes>=131072" "smcr.tx.calls>=2" "smcr.rx.calls>=2"
	tap_check "netlink: stats: the v2 handshakes of this and the version phase ($SMCR_ROLE)" \
		python3 "$show" delta /dev/null "$out.stats1" "smcr.$R.v2_success=3"
	for i in srv clnt; do
		tap_check "netlink: stats: no $i fallback in the whole run ($SMCR_ROLE)" \
			python3 "$show" fallbacks "$out.stats1" $i
	done
	tap_check "netlink: linkgroup: an SMC-Rv2 group, $ROLE, EID and peer host ($SMCR_ROLE)" \
		python3 "$show" block "$out.lgr" "role=$ROLE" conns=1 version=2 \
		eid=SMCR-V2-TEST "peer_host=$(cat "$peer.host")" peer_os=linux \
		direct=1 type=single
	barrier nl-dumped 60
	tap_check "netlink: linkgroup: an SMC-R v1 group, $ROLE, without v2 values ($SMCR_ROLE)" \
		python3 "$show" block "$out.lgr" "role=$ROLE" conns=1 type=single \
		'!version' '!eid' '!peer_host' '!direct'
	tap_check "netlink: link: each busy link's other end is the peer's ($SMCR_ROLE)" \
		python3 "$show" match "$out.lgr" "$out.link" "$peer.lgr" "$peer.link" \
		--busy --min 2 --host "$(cat "$out.host")" --peer-host "$(cat "$peer.host")"
	barrier nl-checked 60
	touch /tmp/nl-release
	for i in "${NL_PIDS[@]}"; do
		timeout 60 tail --pid="$i" -f /dev/null || kill "$i"
		wait "$i" || tap_fail "netlink: a connection's process failed ($SMCR_ROLE)"
	done
	cat /tmp/nl-hold.* 2>/dev/null | grep -v '^up$' | sed 's/^/# /'
	"$smcr" ueid flush
}

# bufstats: (a) sends, (b) receives; smcr stats before and after
bufstats() {
	local smcr=$SMCR_REPO/build/tools/smcr show=$SMCR_REPO/tools/testing/selftests/net/smc/smcr_show.py
	local prog=$SMCR_REPO/tools/testing/selftests/net/smc/smc_bufstats.py
	local run=$SMCR_REPO/tools/smc_run/smc_run out=/tmp/bufstats

	"$smcr" stats >$out.0
	pair bufstats 7599 90 \
		"$run" python3 "$prog" server --port 7599 -- \
		"$run" python3 "$prog" client --host "$SMCR_PEER_IP" --port 7599
	"$smcr" stats >$out.1
	if [[ $SMCR_ROLE == a ]]; then
		tap_check "bufstats: sender: send buffer and peer RMB too small once, waited for the RMB (a)" \
			python3 "$show" delta $out.0 $out.1 smcr.tx.rmb.small=1 \
			smcr.tx.rmb.small_peer=1 "smcr.tx.rmb.full_peer>=1" \
			smcr.rx.rmb.full=0 smcr.rx.rmb.small=0
	else
		tap_check "bufstats: receiver: RMB full, one call smaller than the unread data (b)" \
			python3 "$show" delta $out.0 $out.1 "smcr.rx.rmb.full>=1" \
			smcr.rx.rmb.small=1 smcr.tx.rmb.small=0 \
			smcr.tx.rmb.small_peer=0 smcr.tx.rmb.full_peer=0
	fi
}

# cork: 20000 sends of 1 to 64 bytes in a row (smc_cork.py), all arrive
# in order. With net.smc.autocorking_size at its default the sender (a)
# corks them behind the CDC message in flight: fewer RoCE packets than
# sends. With 0 each send is a write and a CDC message of its own.
cork() {
	local size port=7620 pkts0 pkts
	for size in 65536 0; do
		echo $size >/proc/sys/net/smc/autocorking_size
		pkts0=$(rxe_pkts)
		py_pair "cork$size" $port 600 smc_cork.py
		pkts=$(($(rxe_pkts) - pkts0))
		port=$((port + 1))
		[[ $SMCR_ROLE == a ]] || continue
		echo "# cork: autocorking_size $size: $pkts RoCE packets for 20000 sends"
		if ((size ? pkts < 20000 : pkts >= 40000)); then
			tap_ok "cork: autocorking_size $size: $pkts RoCE packets for 20000 sends"
		else
			tap_fail "cork: autocorking_size $size: $pkts RoCE packets for 20000 sends"
		fi
	done
	echo 65536 >/proc/sys/net/smc/autocorking_size
}

# writable: a non-blocking writer that sent until EAGAIN is woken once
# the peer reads (smc_writable.py): edge-triggered epoll and select see
# EPOLLOUT again, three rounds
writable() {
	py_pair writable 7630 300 smc_writable.py
}

finish() {
	barrier finish 120
	# closed connections wait for their peer; give them a moment
	sleep 2
	tap_check "rmmod smcr ($SMCR_ROLE)" rmmod smcr
	tap_check "no kernel warning ($SMCR_ROLE)" dmesg_clean
}

setup
bulk
reuse
ipv6
sizes
rmb
iperf
closing
splice
many
oob
abort
gone
version
netlink
bufstats
cork
writable
finish
exit 0
