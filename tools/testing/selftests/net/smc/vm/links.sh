#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 900
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
#   ours     our module with max_links=1: a connection to the peer's
#            eth1 address has its link on rxe1, one to its eth0 address
#            on rxe0, all bytes delivered
#   ours2    our module on both sides with max_links=2, in SMC-Rv1 and
#            SMC-Rv2: the first contact on rxe0 gets a second link on
#            rxe1 (ADD LINK, in v1 with ADD LINK CONTINUATIONs, CONFIRM
#            LINK over rxe1), a symmetric group in smcr linkgroup and
#            link on both sides; five more connections join it, each
#            side confirms each new RMB's rkey on the other link
#            (CONFIRM RKEY), all bytes delivered; in SMC-Rv2 then a
#            loses RoCE on eth1: the idle link on rxe1 fails, leaves both
#            sides' group (DELETE LINK of one link), which goes on over
#            rxe0 with no connection aborted
#   v21      ours on both sides in SMC release 1 (release=1), SMC-Rv2,
#            the client with max_links=1: the first contact agrees on
#            one link per group (smcr_lgr_create: release=1 max_links=1
#            on both sides), the server offers no second link (no ADD
#            LINK), three connections share the single group
#   failover ours on both sides with max_links=2, SMC-Rv2, three
#            times: two connections stream 48 MiB each way at once, one
#            on each link (the server starts a connection on the link
#            with fewer); mid-stream a loses RoCE on eth1 (every RoCEv2
#            frame dropped, roce_block), then, in a new group, on eth0,
#            the first link's path, then a's rxe0 is deleted (rdma link
#            delete): that link fails, its connection moves to the
#            other link on both sides (writes not confirmed repeated),
#            every byte arrives intact (pattern and SHA-256 checked),
#            nothing aborts, and the group goes on over the other link:
#            a new connection joins it (add_link_retry=0: no link is
#            added back)
#   readd    ours on both sides, max_links=2, add_link_retry=2: while
#            two connections stream 256 MiB each way, a loses RoCE on
#            eth1, then on eth0, then on eth1 ... (SMCR_READD_ROUNDS,
#            4): each time the link on that path fails, its connection
#            moves, the path comes back (the first time after 10 s, in
#            which the server's offers of a link on it fail) and the
#            server adds a link on it again (ADD LINK over the link left, into a free entry, a
#            new link id), so that the next round can take the other
#            path; every byte arrives intact, nothing aborts, and a new
#            connection joins the group
#   mixed2   ours (max_links=2) in a, Linux's smc.ko in b with both
#            devices in one PNET ID, SMC-Rv2, each serving in turn: the
#            server adds a second link on rxe1, both sides list two links
#            and a symmetric group; more connections join, all bytes
#            delivered
#   invite   ours (max_links=2, add_link_retry=0) serving in a, Linux's
#            client in b, SMC-Rv2: the symmetric group loses its link on
#            rxe1 when b's eth1 goes down; when it comes up, Linux's
#            client asks for a link (REQUEST ADD LINK), and our server
#            answers and adds it back on rxe1; more connections join;
#            Linux's module is removed: its DELETE LINK ends our idle
#            group, and ours unloads at once (not after lgr_idle_time)
#   grow     ours on both sides, SMC-Rv2, add_link_retry=0: the
#            symmetric group loses its link on rxe1 when b's eth1 goes
#            down, within seconds (the port's IB_EVENT_PORT_ERR, not
#            TEST LINK); when it comes up, our client asks for a link (REQUEST
#            ADD LINK) and our server adds it back; then a's eth1 goes
#            down and up, and our server adds the link back by itself;
#            more connections join, nothing aborts
#   ask      ours as the client in a, Linux's smc.ko serving in b,
#            SMC-Rv2: the symmetric group loses its link on rxe1 when
#            a's eth1 goes down; when it comes up, our client asks for a
#            link (REQUEST ADD LINK) and Linux's server adds it back
#   linux    Linux's smc.ko in both guests, both devices in one PNET ID:
#            its SMC-Rv2 link group (first contact on rxe0) adds a second
#            link on rxe1, a symmetric group, as Linux does with two
#            devices
#   linux_failover
#            ours in a, Linux's smc.ko in b as the client (a loses RoCE
#            on eth1, then gets it back) or as the server (b's rxe1
#            goes; or a loses RoCE on eth1 and Linux finds it first),
#            with a stream on each link: the connection of the lost
#            link moves on both sides, every byte arrives
#   asym     rxe1 set aside, a third device rxe2 on a macvlan of eth0
#            (asym_dev): ours on both sides, SMC-Rv2; the server (asym
#            a) or the client (asym b) has no rxe2 at first contact, so
#            the second link shares its rxe0 port, an asymmetric group;
#            when its rxe2 comes, mid-stream, the group becomes
#            symmetric: the server replaces the second link (after the
#            client's REQUEST ADD LINK in asym b), its connection moves,
#            every byte arrives, nothing aborts
#   asym_linux
#            the same with ours in a, Linux's smc.ko in b with rxe2 from
#            the start, a serving (asym_linux a) or b (asym_linux b)
# LINKS_PHASES (SMCR_GUEST_LINKS_PHASES on the host) runs only the named
# phases, e.g. "setup asym_dev asym asym_end".
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

SMCR=$SMCR_REPO/build/tools/smcr
PEER=$SMCR_REPO/build/selftests/smc_peer
SMCSS=$SMCR_REPO/build/tools/smcss
KO=$SMCR_REPO/net/smc/smcr.ko

sent() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/sent_pkts"; }

# waited PID NAME: a result line for a background job's exit status
# (tap_check runs its command in a subshell, which cannot wait for it)
waited() {
	local rc=0
	wait "$1" || rc=$?
	if ((rc == 0)); then tap_ok "$2"; else tap_fail "$2" "exit status $rc"; fi
}

# xpair SRV NAME PORT IP BYTES COUNT: guest SRV serves over AF_SMC, the
# other connects to IP
xpair() {
	local srv=$1 name=$2 port=$3 ip=$4 bytes=$5 count=$6 pid t0
	if [[ $SMCR_ROLE == "$srv" ]]; then
		timeout "$(tscale 120)" "$PEER" server --family smc --port "$port" \
			--bytes "$bytes" --count "$count" --timeout "$(tscale 90)" &
		pid=$!
		wait_listen "$port"
		barrier "$name" 60
		waited $pid "$name: server delivered and received every byte ($SMCR_ROLE)"
	else
		barrier "$name" 60
		t0=$(date +%s%N)
		tap_check "$name: client delivered and received every byte ($SMCR_ROLE)" \
			timeout "$(tscale 120)" "$PEER" client --family smc \
			--host "$ip" --port "$port" --bytes "$bytes" \
			--count "$count" --timeout "$(tscale 90)"
		echo "# $name: the client took $((($(date +%s%N) - t0) / 1000000)) ms ($SMCR_ROLE)"
	fi
}

# pair NAME PORT IP BYTES [COUNT]: b serves over AF_SMC, a connects to
# b's IP, COUNT connections one after the other
pair() {
	xpair b "$1" "$2" "$3" "$4" "${5:-1}"
}

# unload TAG [MAX]: rmmod smcr, which may take a moment after the last
# close; with MAX, it must be done within MAX seconds (scaled)
unload() {
	local t0=$SECONDS pid
	for _ in $(seq 100); do
		rmmod smcr 2>/dev/null &
		pid=$!
		# one that hangs in the module's exit shows where
		for _ in $(seq 40); do
			kill -0 $pid 2>/dev/null || break
			sleep 0.5
		done
		kill -0 $pid 2>/dev/null && sed "s/^/# $1: rmmod: /" /proc/$pid/stack
		wait $pid && break
		sleep 0.2
	done
	echo "# $1: rmmod took $((SECONDS - t0)) s ($SMCR_ROLE)"
	tap_check "$1: rmmod smcr ($SMCR_ROLE)" \
		bash -c '! grep -q "^smcr " /proc/modules'
	if [[ -n ${2:-} ]]; then
		tap_check "$1: rmmod done within $(tscale "$2") s ($SMCR_ROLE)" \
			test $((SECONDS - t0)) -le "$(tscale "$2")"
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
	# both groups listed at the end: the first must not go idle before
	tap_check "insmod smcr.ko max_links=1 ($SMCR_ROLE)" \
		insmod "$KO" max_links=1 lgr_idle_time="$(tscale 120)" || return
	pair ours-eth1 7410 "$SMCR_PEER_IP2" 8M
	pair ours-eth0 7411 "$SMCR_PEER_IP" 8M
	links=$("$SMCR" link)
	printf '%s\n' "$links" | sed 's/^/# ours: /'
	tap_check "ours: a link on rxe1 and one on rxe0, two groups ($SMCR_ROLE)" \
		test "$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 1 -a \
		"$(grep -c '^ib_dev rxe0$' <<<"$links")" -eq 1
	barrier ours-done 60
	unload "ours"
}

# events NAME: how many of our tracepoint NAME the trace holds
TRACE=/sys/kernel/tracing
events() { grep -c "$1: " $TRACE/trace; }

# trace_on: our tracepoints but the CDC one, into an empty trace
trace_on() {
	mountpoint -q $TRACE || mount -t tracefs nodev $TRACE
	echo >$TRACE/trace
	echo 1 >$TRACE/events/smcr/enable
	echo 0 >$TRACE/events/smcr/smcr_cdc/enable
}

# wait_links [SECONDS=20]: up to SECONDS (scaled) for a second link, on
# rxe1; prints them
wait_links() {
	local links i
	for ((i = 0; i < $(tscale "${1:-20}"); i++)); do
		links=$("$SMCR" link)
		grep -q '^ib_dev rxe1$' <<<"$links" && break
		sleep 1
	done
	printf '%s\n' "$links"
}

# lose_eth1 PORT: a loses RoCE on eth1; the idle link on rxe1 fails (TEST
# LINK), leaves the group of each side (DELETE LINK), and the group goes
# on over rxe0
lose_eth1() {
	local links i
	barrier lose-eth1 60
	[[ $SMCR_ROLE == a ]] && roce_block eth1
	for ((i = 0; i < $(tscale 40); i++)); do
		links=$("$SMCR" link)
		grep -q '^ib_dev rxe1$' <<<"$links" || break
		sleep 1
	done
	printf '%s\n' "$links" | sed "s/^/# lose eth1: /"
	grep -E 'smcr_link_down|DELETE_LINK' $TRACE/trace | sed 's/^ */# /'
	tap_check "lose eth1: the link on rxe1 left the group, rxe0's stays ($SMCR_ROLE)" \
		test "$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 0 -a \
		"$(grep -c '^ib_dev rxe0$' <<<"$links")" -eq 1
	tap_check "lose eth1: a group of one link again ($SMCR_ROLE)" \
		bash -c "$SMCR linkgroup | grep -q '^type single$'"
	pair lose-eth1-after $(($1 + 2)) "$SMCR_PEER_IP" 2M 2
	tap_check "lose eth1: no connection aborted ($SMCR_ROLE)" \
		test "$(events smcr_lgr_terminate)" -eq 0
	[[ $SMCR_ROLE == a ]] && roce_unblock eth1
	barrier lose-eth1-done 60
}

# ours2 VERSION: a second link between two instances of ours
ours2() {
	local v=$1 links port=7430
	[[ $v == v2 ]] && port=7440
	# TEST LINK every 2 s: an idle link that breaks is noticed soon
	tap_check "ours2 $v: insmod smcr.ko max_links=2 ($SMCR_ROLE)" \
		insmod "$KO" max_links=2 lgr_idle_time="$(tscale 120)" \
		testlink_time=2 add_link_retry=0 || return
	trace_on
	# SMC-Rv2 needs an EID both sides share; without one it is SMC-Rv1
	if [[ $v == v2 ]]; then
		tap_check "ours2 $v: smcr ueid add ($SMCR_ROLE)" \
			"$SMCR" ueid add SMCR-LINKS
	fi
	barrier "ours2-$v-up" 60
	pair "ours2-$v-first" "$port" "$SMCR_PEER_IP" 8M
	links=$(wait_links)
	printf '%s\n' "$links" | sed "s/^/# ours2 $v: /"
	"$SMCR" linkgroup | sed "s/^/# ours2 $v: /"
	grep -E 'smcr_links_|smcr_link_down' $TRACE/trace | sed 's/^ */# /'
	tap_check "ours2 $v: two links, on rxe0 and rxe1 ($SMCR_ROLE)" \
		test "$(grep -c '^ib_dev rxe0$' <<<"$links")" -eq 1 -a \
		"$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 1
	tap_check "ours2 $v: a symmetric link group ($SMCR_ROLE)" \
		bash -c "$SMCR linkgroup | grep -q '^type symmetric$'"
	tap_check "ours2 $v: the second link came up once ($SMCR_ROLE)" \
		test "$(events smcr_links_up)" -eq 1
	pair "ours2-$v-more" $((port + 1)) "$SMCR_PEER_IP" 2M 5
	echo "# ours2 $v ($SMCR_ROLE): $(grep -cE 'smcr_llc: .* sent type=CONFIRM_RKEY(_V2)? request' $TRACE/trace) CONFIRM RKEY requests sent"
	tap_check "ours2 $v: each new RMB confirmed on the other link ($SMCR_ROLE)" \
		test "$(grep -cE 'smcr_llc: .* sent type=CONFIRM_RKEY(_V2)? request' $TRACE/trace)" -ge 5
	tap_check "ours2 $v: no link went down ($SMCR_ROLE)" \
		test "$(events smcr_link_down)" -eq 0
	[[ $v == v2 ]] && lose_eth1 "$port"
	barrier "ours2-$v-done" 60
	unload "ours2 $v"
}

# v21: SMC release 1 ("SMC v2.1") between two instances of ours, SMC-Rv2:
# the client (a) takes one link per group (max_links=1), the server two;
# the first contact agrees on one, and the server offers no second link
v21() {
	local ml=2 links
	[[ $SMCR_ROLE == a ]] && ml=1
	tap_check "v21: insmod smcr.ko release=1 max_links=$ml ($SMCR_ROLE)" \
		insmod "$KO" release=1 max_links=$ml \
		lgr_idle_time="$(tscale 120)" add_link_retry=2 || return
	trace_on
	tap_check "v21: smcr ueid add ($SMCR_ROLE)" "$SMCR" ueid add SMCR-LINKS
	barrier v21-up 60
	pair v21 7450 "$SMCR_PEER_IP" 4M 3
	sleep "$(tscale 6)"
	links=$("$SMCR" link)
	printf '%s\n' "$links" | sed 's/^/# v21: /'
	grep -E 'smcr_lgr_create|ADD_LINK' $TRACE/trace | sed 's/^ */# /'
	tap_check "v21: one group of release 1, one link agreed on ($SMCR_ROLE)" \
		bash -c "grep -c 'smcr_lgr_create: .* v2 release=1 conns=0 max_conns=255 max_links=1$' $TRACE/trace | grep -qx 1"
	tap_check "v21: no second link offered, one link on rxe0 ($SMCR_ROLE)" \
		bash -c "! grep -q 'ADD_LINK' $TRACE/trace && test \"\$($SMCR link | grep -c '^ib_dev ')\" -eq 1"
	tap_check "v21: smcr linkgroup: a single group ($SMCR_ROLE)" \
		bash -c "$SMCR linkgroup | grep -q '^type single$'"
	barrier v21-done 60
	unload "v21"
}

# dev_conns DEV: the connections on our link over DEV (smcr link)
dev_conns() {
	"$SMCR" link | awk -v dev="$1" '$1 == "conns" { n = $2 }
		$1 == "ib_dev" && $2 == dev { print n; found = 1 }
		END { if (!found) print 0 }'
}

# roce_block DEV, roce_unblock DEV: every RoCEv2 frame of DEV dropped,
# in and out, and let through again: the path is lost, the link stays up.
# (A link taken down here stalls the peer's transmit queue, as the
# guests' link is a socketpair that a NIC without receive buffers stops
# reading; and rxe frees a QP whose frames still wait there, which then
# oopses when they go.)
roce_block() {
	local d
	tc qdisc add dev "$1" clsact
	for d in ingress egress; do
		tc filter add dev "$1" "$d" protocol ip u32 \
			match ip protocol 17 0xff match ip dport 4791 0xffff \
			action drop
	done
}
roce_unblock() { tc qdisc del dev "$1" clsact; }

# rxe_back TAG DEV NETDEV IP: rdma link add DEV on NETDEV, and up to
# 30 s until IP is a GID of it
rxe_back() {
	local i
	tap_check "$1: rdma link add $2 on $3 ($SMCR_ROLE)" \
		rdma link add "$2" type rxe netdev "$3"
	for ((i = 0; i < 30; i++)); do
		rxe_gid_index "$2" "$4" >/dev/null && break
		sleep 1
	done
	tap_check "$1: $2 has $3's address as a GID ($SMCR_ROLE)" \
		rxe_gid_index "$2" "$4"
}

# streams_start TAG PORT SRV BYTES LIMIT [HOLD]: two connections stream
# BYTES each way at once, SRV serving on PORT and PORT + 1, each for at
# most LIMIT s (tscale'd); their pids in STREAMS. With HOLD, each side
# sends half, then waits for the file HOLD before the rest (smc_peer
# --hold).
STREAMS=()
streams_start() {
	local tag=$1 port=$2 srv=$3 bytes=$4 limit i hold=()
	limit=$(tscale "$5")
	[[ -n ${6-} ]] && hold=(--hold "$6")
	STREAMS=()
	if [[ $SMCR_ROLE == "$srv" ]]; then
		for i in 0 1; do
			timeout "$limit" "$PEER" server --family smc \
				--port $((port + i)) --bytes "$bytes" \
				--timeout "$(tscale 120)" "${hold[@]}" &
			STREAMS+=($!)
		done
		wait_listen "$port"
		wait_listen $((port + 1))
		barrier "$tag-go" 60
	else
		barrier "$tag-go" 60
		for i in 0 1; do
			timeout "$limit" "$PEER" client --family smc \
				--host "$SMCR_PEER_IP" --port $((port + i)) \
				--bytes "$bytes" --timeout "$(tscale 120)" \
				"${hold[@]}" &
			STREAMS+=($!)
			sleep 0.5
		done
	fi
}

# streams_wait TAG: a result line for the streams of streams_start
streams_wait() {
	local pid rc=0
	for pid in "${STREAMS[@]}"; do
		wait "$pid" || rc=$?
	done
	if ((rc == 0)); then
		tap_ok "$1: both streams delivered every byte, each way ($SMCR_ROLE)"
	else
		tap_fail "$1: both streams delivered every byte, each way ($SMCR_ROLE)" \
			"exit status $rc"
	fi
}

# moved: how many connections our failover moved (trace)
moved() { grep -c 'smcr_conn_moved: .* rc=0$' $TRACE/trace; }

# stream_lose TAG PORT SRV BY RXE CMD...: two connections stream 48 MiB
# (bscale'd) each way at once, SRV serving on PORT and PORT + 1; once
# one streams over RXE (BY's smcr link), guest BY runs CMD to cut that
# path; every byte checked both ways. The second half of each stream
# waits until CMD has run, so it crosses the failover however slow the
# first half was (on the debug kernel a whole stream once ended first).
stream_lose() {
	local tag=$1 port=$2 srv=$3 by=$4 rxe=$5 i n=0 hold
	shift 5
	hold="$SMCR_OUT/.$SMCR_NAME.${tag//[^A-Za-z0-9_.-]/_}.hold"
	[[ $SMCR_ROLE == "$by" ]] && rm -f "$hold"
	streams_start "$tag" "$port" "$srv" "$(bscale 48M)" 240 "$hold"
	if [[ $SMCR_ROLE == "$by" ]]; then
		for ((i = 0; i < 40; i++)); do
			n=$(dev_conns "$rxe")
			((n >= 1)) && break
			sleep 0.25
		done
		echo "# $tag ($by): $n connection(s) on $rxe before it goes"
		tap_check "$tag: a connection streams over $rxe ($by)" \
			test "$n" -ge 1
		"$SMCSS" -R | sed "s/^/# $tag ($by): /"
		tap_check "$tag: sock_diag names $rxe as a connection's link ($by)" \
			bash -c "$SMCSS -R | grep -q ' ib_dev $rxe '"
		tap_check "$tag: $* ($by)" "$@"
		: >"$hold"
	fi
	streams_wait "$tag"
}

# moved_ok TAG FROM TO: our failover moved a connection, none failed to
# move, no group ended
moved_ok() {
	grep -E 'smcr_link_down|smcr_conn_moved|DELETE_LINK|smcr_cdc_late|smcr_lgr_terminate' \
		$TRACE/trace | sed 's/^ */# /'
	tap_check "$1: the connection on $2 moved to $3's link ($SMCR_ROLE)" \
		test "$(moved)" -ge 1
	tap_check "$1: no move failed ($SMCR_ROLE)" \
		test "$(grep -c 'smcr_conn_moved: .* rc=-' $TRACE/trace)" -eq 0
	tap_check "$1: no connection aborted, the group stays ($SMCR_ROLE)" \
		test "$(events smcr_lgr_terminate)" -eq 0
}

# alone_on DEV LINKS: LINKS (smcr link) has one link, on DEV
alone_on() {
	test "$(grep -c '^ib_dev ' <<<"$2")" -eq 1 -a \
		"$(grep -c "^ib_dev $1\$" <<<"$2")" -eq 1
}

# failover HOW: with a connection streaming on each link, a loses RoCE
# on eth1, the path of the group's second link (HOW eth1), or on eth0,
# the first link's (eth0), or its device of the first link goes (rxe0)
failover() {
	local eth=$1 tag="failover $1" port=7460 links from=rxe1 to=rxe0
	local after=$SMCR_PEER_IP cut=(roce_block "$1")
	case $eth in
	eth0) from=rxe0 to=rxe1 after=$SMCR_PEER_IP2 port=7470 ;;
	rxe0)
		from=rxe0 to=rxe1 after=$SMCR_PEER_IP2 port=7480
		cut=(rdma link delete rxe0)
		;;
	esac
	tap_check "$tag: insmod smcr.ko max_links=2 ($SMCR_ROLE)" \
		insmod "$KO" max_links=2 lgr_idle_time="$(tscale 120)" \
		testlink_time=2 add_link_retry=0 || return
	trace_on
	tap_check "$tag: smcr ueid add ($SMCR_ROLE)" \
		"$SMCR" ueid add SMCR-LINKS
	barrier "failover-$eth-up" 60
	pair "failover-$eth-first" "$port" "$SMCR_PEER_IP" 1M
	links=$(wait_links)
	tap_check "$tag: two links, on rxe0 and rxe1 ($SMCR_ROLE)" \
		test "$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 1
	stream_lose "failover-$eth" $((port + 1)) b a "$from" "${cut[@]}"
	moved_ok "$tag" "$from" "$to"
	links=$("$SMCR" link)
	printf '%s\n' "$links" | sed "s/^/# $tag: /"
	tap_check "$tag: the group goes on over $to alone ($SMCR_ROLE)" \
		alone_on "$to" "$links"
	# over the group's remaining link: the peer's address on its path
	pair "failover-$eth-after" $((port + 3)) "$after" 2M
	tap_check "$tag: the new connection joined the group ($SMCR_ROLE)" \
		test "$(events smcr_lgr_create)" -eq 1
	if [[ $SMCR_ROLE == b ]]; then
		:
	elif [[ $eth == rxe0 ]]; then
		rxe_back "$tag" rxe0 eth0 "$SMCR_SELF_IP"
	else
		roce_unblock "$eth"
	fi
	barrier "failover-$eth-done" 60
	unload "$tag"
}

# active_on DEV: how many of our links on DEV are active (smcr link)
active_on() {
	"$SMCR" link | awk -v dev="$1" '$1 == "state" { s = $2 }
		$1 == "ib_dev" && $2 == dev && s == "active" { n++ }
		END { print n + 0 }'
}

# readd: the paths of a group's two links are lost and come back, one
# after the other, SMCR_READD_ROUNDS times (4 unless set), while two
# connections stream SMCR_READD_BYTES (256M, bscale'd, unless set) each
# way (on the host: SMCR_GUEST_SMCR_READD_ROUNDS=100 scripts/run-tests
# links): each time the lost link's connection moves to the other
# link, and the server adds a link on the returning path again
# (add_link_retry=2), so that the next round can take the other path
# away
readd() {
	local tag=readd port=7500 rounds=${SMCR_READD_ROUNDS:-4} links
	local bytes=${SMCR_READD_BYTES:-$(bscale 256M)} k i dev eth back ok=0 t0
	tap_check "$tag: insmod smcr.ko max_links=2 add_link_retry=2 ($SMCR_ROLE)" \
		insmod "$KO" max_links=2 lgr_idle_time="$(tscale 120)" \
		testlink_time=2 add_link_retry=2 || return
	trace_on
	tap_check "$tag: smcr ueid add ($SMCR_ROLE)" "$SMCR" ueid add SMCR-LINKS
	barrier readd-up 60
	pair readd-first "$port" "$SMCR_PEER_IP" 1M
	links=$(wait_links)
	tap_check "$tag: two links, on rxe0 and rxe1 ($SMCR_ROLE)" \
		test "$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 1
	streams_start "$tag" $((port + 1)) b "$bytes" $((600 + 60 * rounds))
	if [[ $SMCR_ROLE == a ]]; then
		for ((k = 1; k <= rounds; k++)); do
			dev=rxe$((k % 2))
			eth=eth$((k % 2))
			t0=$SECONDS
			roce_block "$eth"
			for ((i = 0; i < $(tscale 60); i++)); do
				(($(active_on "$dev") == 0)) && break
				sleep 0.5
			done
			# the first time long enough for the server's offers
			# to fail on the lost path (CONFIRM LINK unanswered)
			((k == 1)) && sleep "$(tscale 10)"
			roce_unblock "$eth"
			back=0
			for ((i = 0; i < $(tscale 90); i++)); do
				if (($(active_on "$dev") == 1 &&
				     $(active_on rxe$(((k + 1) % 2))) == 1)); then
					back=1
					break
				fi
				sleep 0.5
			done
			echo "# $tag (a): round $k, $eth lost and back: $back, $((SECONDS - t0)) s, $(moved) moves so far"
			((back)) || break
			ok=$k
		done
		tap_check "$tag: $ok of $rounds times a path lost, its link back (a)" \
			test "$ok" -eq "$rounds"
	fi
	streams_wait "$tag"
	barrier readd-streams 60
	grep -E 'smcr_link_down|smcr_links_(up|failed)|smcr_lgr_terminate' \
		$TRACE/trace | sed 's/^ */# /'
	echo "# $tag ($SMCR_ROLE): $(moved) connections moved, $(events smcr_links_up) links added"
	tap_check "$tag: connections moved with the lost links ($SMCR_ROLE)" \
		test "$(moved)" -ge 1
	tap_check "$tag: no move failed ($SMCR_ROLE)" \
		test "$(grep -c 'smcr_conn_moved: .* rc=-' $TRACE/trace)" -eq 0
	tap_check "$tag: no connection aborted, the group stays ($SMCR_ROLE)" \
		test "$(events smcr_lgr_terminate)" -eq 0
	tap_check "$tag: a link added back each round ($SMCR_ROLE)" \
		test "$(events smcr_links_up)" -ge $((rounds + 1))
	tap_check "$tag: a link offered while its path was lost failed ($SMCR_ROLE)" \
		test "$(events smcr_links_failed)" -ge 1
	pair readd-after $((port + 3)) "$SMCR_PEER_IP" 2M
	tap_check "$tag: the new connection joined the group ($SMCR_ROLE)" \
		test "$(events smcr_lgr_create)" -eq 1
	barrier readd-done 60
	unload "$tag"
}

mixed2() {
	local srv who links port=7450
	if [[ $SMCR_ROLE == a ]]; then
		who=ours
		tap_check "mixed2: insmod smcr.ko max_links=2 (a)" \
			insmod "$KO" max_links=2 lgr_idle_time="$(tscale 120)" || return
		trace_on
	else
		who=linux
		linux_smc_up "$SMCR" || return
		linux_pnet mixed2 eth1 rxe1
	fi
	tap_check "mixed2: smcr ueid add ($who)" "$SMCR" ueid add SMCR-LINKS
	# a group per role: the second round starts a group of its own
	for srv in a b; do
		barrier "mixed2-$srv-up" 60
		# the first contact alone, timed: Linux's client waits up
		# to 2 s for the server's ADD LINK before connect() returns
		xpair "$srv" "mixed2-$srv-contact" $((port + 2)) \
			"$SMCR_PEER_IP" 1 1
		xpair "$srv" "mixed2-$srv-first" "$port" "$SMCR_PEER_IP" 8M 1
		links=$(wait_links)
		printf '%s\n' "$links" | sed "s/^/# mixed2, $srv serving ($who): /"
		"$SMCR" linkgroup | sed "s/^/# mixed2, $srv serving ($who): /"
		[[ $who == ours ]] &&
			grep -E 'smcr_links_|smcr_link_down' $TRACE/trace | sed 's/^ */# /'
		# links of both groups: the one of this round on rxe1
		tap_check "mixed2, $srv serving: a second link, on rxe1 ($who)" \
			test "$(grep -c '^ib_dev rxe1$' <<<"$links")" -ge 1
		tap_check "mixed2, $srv serving: a symmetric link group ($who)" \
			bash -c "$SMCR linkgroup | grep -q '^type symmetric$'"
		xpair "$srv" "mixed2-$srv-more" $((port + 1)) "$SMCR_PEER_IP" 2M 5
		barrier "mixed2-$srv-done" 60
		port=$((port + 3))
	done
	if [[ $who == ours ]]; then
		tap_check "mixed2: no link went down (a)" \
			test "$(events smcr_link_down)" -eq 0
		tap_check "mixed2: two second links came up (a)" \
			test "$(events smcr_links_up)" -eq 2
	fi
	barrier mixed2-end 60
	if [[ $who == linux ]]; then
		tap_check "mixed2: rmmod smc (b)" modprobe -r smc_diag smc
	else
		unload mixed2
	fi
	barrier mixed2-gone 60
}

# rxe1_gone: up to 40 s (scaled) until no link of ours or Linux's is on
# rxe1 any more; prints the links left
rxe1_gone() {
	local links i
	for ((i = 0; i < $(tscale 40); i++)); do
		links=$("$SMCR" link)
		grep -q '^ib_dev rxe1$' <<<"$links" || break
		sleep 1
	done
	printf '%s\n' "$links"
}

# one_link: up to 20 s (scaled) until the group has one link, none
# coming up
one_link() {
	local i
	for ((i = 0; i < $(tscale 20); i++)); do
		(($("$SMCR" link | grep -c '^id ') == 1)) && break
		sleep 1
	done
	"$SMCR" link | grep -E '^(id|state|ib_dev) ' | paste -sd' ' |
		sed "s/^/# one link? ($SMCR_ROLE): /"
}

# eth1_down ROLE, eth1_up ROLE: guest ROLE's eth1 goes down (its rxe1
# port with it: IB_EVENT_PORT_ERR), or comes up again with its host
# route to the peer's eth1 (IB_EVENT_PORT_ACTIVE)
eth1_down() { [[ $SMCR_ROLE != "$1" ]] || ip link set eth1 down; }
eth1_up() {
	[[ $SMCR_ROLE == "$1" ]] || return 0
	ip link set eth1 up
	ip route replace "$SMCR_PEER_IP2/32" dev eth1 src "$SMCR_SELF_IP2"
}

# grow_round WHO ROLE: the group's link on rxe1 goes with ROLE's eth1,
# at once (IB_EVENT_PORT_ERR; TEST LINK would take testlink_time, 60 s);
# when eth1 comes back, the group has its second link again, from the
# port that came up (WHO: the client's or the server's)
grow_round() {
	local who=$1 links t0
	barrier "grow-$who-down" 60
	t0=$SECONDS
	eth1_down "$2"
	links=$(rxe1_gone)
	echo "# grow, $who's port: the link left after $((SECONDS - t0)) s ($SMCR_ROLE)"
	tap_check "grow, $who's port: the link on rxe1 left the group ($SMCR_ROLE)" \
		test "$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 0 -a \
		"$(grep -c '^ib_dev rxe0$' <<<"$links")" -eq 1
	tap_check "grow, $who's port: the link left within $(tscale 10) s ($SMCR_ROLE)" \
		test $((SECONDS - t0)) -le "$(tscale 10)"
	if [[ $SMCR_ROLE == "$2" ]]; then
		tap_check "grow, $who's port: the link failed for its port ($SMCR_ROLE)" \
			grep -q 'smcr_link_down: .*port down' $TRACE/trace
	fi
	barrier "grow-$who-lost" 60
	eth1_up "$2"
	links=$(wait_links)
	printf '%s\n' "$links" | sed "s/^/# grow, $who's port up ($SMCR_ROLE): /"
	grep -E 'smcr_links_|smcr_link_down|REQ_ADD' $TRACE/trace | sed 's/^ */# /'
	tap_check "grow, $who's port: a link on rxe1 again ($SMCR_ROLE)" \
		test "$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 1
	tap_check "grow, $who's port: a symmetric link group again ($SMCR_ROLE)" \
		bash -c "$SMCR linkgroup | grep -q '^type symmetric$'"
}

# grow: ours on both sides, SMC-Rv2, add_link_retry=0 (no link added
# back on a timer): a port that comes up adds the group's second link
# back at once. b's eth1 goes down and up: our client asks for a link
# (REQUEST ADD LINK) and our server adds it; then a's: our server offers
# one by itself.
grow() {
	local port=7470
	tap_check "grow: insmod smcr.ko max_links=2 add_link_retry=0 ($SMCR_ROLE)" \
		insmod "$KO" max_links=2 add_link_retry=0 testlink_time=60 \
		lgr_idle_time="$(tscale 180)" || return
	trace_on
	tap_check "grow: smcr ueid add ($SMCR_ROLE)" "$SMCR" ueid add SMCR-LINKS
	barrier grow-up 60
	xpair a grow-first "$port" "$SMCR_PEER_IP" 1M 1
	wait_links >/dev/null
	tap_check "grow: a symmetric link group ($SMCR_ROLE)" \
		bash -c "$SMCR linkgroup | grep -q '^type symmetric$'"
	grow_round client b
	if [[ $SMCR_ROLE == b ]]; then
		tap_check "grow: our client asked for a link (b)" \
			grep -qE 'smcr_links_ask: .* rc=0$' $TRACE/trace
	else
		tap_check "grow: our server was asked for a link (a)" \
			grep -qE 'smcr_llc: .* received type=REQ_ADD_LINK(_V2)? request' \
			$TRACE/trace
	fi
	grow_round server a
	xpair a grow-more $((port + 1)) "$SMCR_PEER_IP" 2M 2
	tap_check "grow: no connection aborted ($SMCR_ROLE)" \
		test "$(events smcr_lgr_terminate)" -eq 0
	barrier grow-done 60
	unload grow
}

# mixed_up TAG: ours in a (max_links=2, add_link_retry=0: no link added
# back unasked), Linux's smc.ko in b with both devices in one PNET ID,
# one user EID; sets the caller's who to "ours" or "linux", this guest's
mixed_up() {
	if [[ $SMCR_ROLE == a ]]; then
		who=ours
		tap_check "$1: insmod smcr.ko max_links=2 add_link_retry=0 (a)" \
			insmod "$KO" max_links=2 add_link_retry=0 \
			lgr_idle_time="$(tscale 120)" || return
		trace_on
	else
		who=linux
		linux_smc_up "$SMCR" || return
		linux_pnet "$1" eth1 rxe1
	fi
	tap_check "$1: smcr ueid add ($who)" "$SMCR" ueid add SMCR-LINKS
}

# mixed_bounce TAG SRV DOWN PORT: after mixed_up, SRV serves a first
# connection; the second link on rxe1 comes, and goes when DOWN's eth1
# goes down, then eth1 comes up again; the caller's links are those
# after that
mixed_bounce() {
	local tag=$1
	barrier "$tag-up" 60
	xpair "$2" "$tag-first" "$4" "$SMCR_PEER_IP" 1M 1
	links=$(wait_links)
	tap_check "$tag: a symmetric link group ($who)" \
		bash -c "$SMCR linkgroup | grep -q '^type symmetric$'"
	barrier "$tag-down" 60
	eth1_down "$3"
	links=$(rxe1_gone)
	printf '%s\n' "$links" | sed "s/^/# $tag, eth1 down ($who): /"
	# Linux's server may be trying a link from its rxe1 to our rxe0
	# meanwhile (it fails: no route), a second one on our rxe0
	tap_check "$tag: the link on rxe1 left the group ($who)" \
		test "$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 0 -a \
		"$(grep -c '^ib_dev rxe0$' <<<"$links")" -ge 1
	# and eth1 comes back once that try is over (5 s): Linux's server
	# takes no REQUEST ADD LINK in the middle of it (ask failed so)
	one_link
	barrier "$tag-lost" 60
	eth1_up "$3"
	links=$(wait_links)
	printf '%s\n' "$links" | sed "s/^/# $tag, eth1 up ($who): /"
	"$SMCR" linkgroup | sed "s/^/# $tag ($who): /"
	[[ $who == ours ]] &&
		grep -E 'smcr_links_|smcr_link_down|REQ_ADD' $TRACE/trace | sed 's/^ */# /'
	return 0
}

# mixed_back TAG SRV PORT: the link on rxe1 is back, the group symmetric,
# and SRV serves two more connections, none aborted
mixed_back() {
	local tag=$1
	tap_check "$tag: a link on rxe1 again ($who)" \
		test "$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 1
	tap_check "$tag: a symmetric link group again ($who)" \
		bash -c "$SMCR linkgroup | grep -q '^type symmetric$'"
	xpair "$2" "$tag-more" "$3" "$SMCR_PEER_IP" 2M 2
	[[ $who == ours ]] &&
		tap_check "$tag: no connection aborted (a)" \
			test "$(events smcr_lgr_terminate)" -eq 0
	barrier "$tag-done" 60
}

# mixed_gone TAG FIRST SECOND: the module of FIRST ("ours" or "linux")
# is removed, then that of SECOND; ours within 30 s
mixed_gone() {
	local tag=$1 m
	for m in "$2" "$3"; do
		if [[ $who == "$m" && $m == ours ]]; then
			unload "$tag" 30
		elif [[ $who == "$m" ]]; then
			tap_check "$tag: rmmod smc (b)" modprobe -r smc_diag smc
		fi
		barrier "$tag-$m-gone" 60
	done
}

# invite: Linux's client asks our server for a link. A symmetric group
# (ours serving, add_link_retry=0: no link is added back unasked) loses
# its link on rxe1 when b's eth1 goes down (IB_EVENT_PORT_ERR, Linux's
# DELETE LINK); eth1 comes up again (IB_EVENT_PORT_ACTIVE) and Linux's
# client sends REQUEST ADD LINK with its two GIDs. Our server must add
# the link (or answer that it will not): a client whose request goes
# unanswered starts no other LLC exchange in that group.
invite() {
	local who links port=7460
	mixed_up invite || return
	mixed_bounce invite a b "$port"
	if [[ $who == ours ]]; then
		tap_check "invite: Linux's client asked for a link (a)" \
			grep -qE 'smcr_llc: .* received type=REQ_ADD_LINK(_V2)? request' \
			$TRACE/trace
	fi
	mixed_back invite a $((port + 1))
	# Linux's module goes first: its DELETE LINK ends our idle group,
	# whose end must not wait for lgr_idle_time (120 s here) to let go
	# of the devices
	mixed_gone invite linux ours
}

# ask: our client asks Linux's server for a link. Linux serving in b
# adds the group's link on rxe1; a's eth1 goes down (our client fails the
# link at once for its port and sends DELETE LINK) and comes up again:
# our client sends REQUEST ADD LINK, and Linux's server adds the link
# back; more connections join, nothing aborts.
ask() {
	local who links port=7480
	mixed_up ask || return
	mixed_bounce ask b a "$port"
	if [[ $who == ours ]]; then
		tap_check "ask: our client asked for a link (a)" \
			grep -qE 'smcr_links_ask: .* rc=0$' $TRACE/trace
	fi
	mixed_back ask b $((port + 1))
	mixed_gone ask ours linux
}

linux() {
	local links
	linux_smc_up "$SMCR" || return
	linux_pnet linux eth1 rxe1
	tap_check "linux: smcr ueid add ($SMCR_ROLE)" "$SMCR" ueid add SMCR-LINKS
	barrier linux-up 60
	# timed like mixed2's: Linux's client and server
	pair linux-contact 7421 "$SMCR_PEER_IP" 1
	pair linux 7420 "$SMCR_PEER_IP" 16M
	# the server adds the second link after the first contact
	links=$(wait_links)
	printf '%s\n' "$links" | sed 's/^/# linux: /'
	"$SMCR" linkgroup | sed 's/^/# linux: /'
	tap_check "linux: a second link, on rxe1 ($SMCR_ROLE)" \
		test "$(grep -c '^ib_dev rxe[01]$' <<<"$links")" -eq 2 -a \
		"$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 1
	tap_check "linux: a symmetric link group ($SMCR_ROLE)" \
		bash -c "$SMCR linkgroup | grep -q '^type symmetric$'"
	barrier linux-done 60
	# the failover phase after it loads ours
	tap_check "linux: rmmod smc ($SMCR_ROLE)" modprobe -r smc_diag smc
	barrier linux-gone 60
}

# linux_pnet TAG NETDEV IBDEV: NETDEV and port 1 of IBDEV join Linux's
# PNET1, beside eth0 and rxe0 (linux_smc_up)
linux_pnet() {
	tap_check "$1: smcr pnet add PNET1 eth $2 ($SMCR_ROLE)" \
		"$SMCR" pnet add PNET1 eth "$2"
	tap_check "$1: smcr pnet add PNET1 ib $3 1 ($SMCR_ROLE)" \
		"$SMCR" pnet add PNET1 ib "$3" 1
}

# linux_end TAG NAME WHO: the end of a phase of ours (a) against Linux's
# smc.ko (b): ours checks that no connection aborted and there was one
# group; after barrier NAME-done each side unloads its module
linux_end() {
	local tag=$1 name=$2 who=$3
	if [[ $who == ours ]]; then
		tap_check "$tag: no connection aborted, one group (a)" \
			test "$(events smcr_lgr_terminate)" -eq 0 -a \
			"$(events smcr_lgr_create)" -eq 1
	fi
	barrier "$name-done" 60
	if [[ $who == linux ]]; then
		tap_check "$tag: rmmod smc (b)" modprobe -r smc_diag smc
	else
		unload "$tag"
	fi
}

# linux_failover LINUX: failover against Linux's smc.ko in guest b as
# the LINUX (client or server); two streams, one on each link.
# - client: a (ours) serves and loses RoCE on eth1 (tc), finds the path
#   lost (TEST LINK every 2 s), moves its connection and deletes the
#   link (DELETE LINK, lost path); Linux's client moves its own and
#   clears the link, its QP put in the error state first. Then eth1
#   comes back and our server adds a link on it again (add_link_retry=2).
# - server: Linux's rxe1 goes (rdma link delete); its server moves its
#   connection and deletes the link, and ours moves its own. Linux adds
#   no link on an rxe1 added again; its next connection over a re-added
#   rxe delivers garbage, so b adds rxe1 back only at the end.
# - server_lost: our client loses RoCE on eth1 (tc); Linux's server
#   finds the path lost first (its TEST LINK every 2 s, ours every 60),
#   moves its connection and deletes the link; ours moves its own.
#   Told first by our DELETE LINK, Linux's server would wait for the
#   link's sends, which rxe retries forever (Known limits). Linux adds
#   no link once the path is back.
linux_failover() {
	local lnx=$1 tag="linux failover, Linux's $1" who=ours links
	local port=7540 srv=a cut=(roce_block eth1) by=a test_s=2
	case $lnx in
	server)
		port=7550 srv=b by=b
		cut=(rdma link delete rxe1)
		;;
	server_lost)
		# Linux's server finds the loss first: ours would tell it
		port=7580 srv=b test_s=60
		;;
	esac
	if [[ $SMCR_ROLE == a ]]; then
		tap_check "$tag: insmod smcr.ko max_links=2 (a)" \
			insmod "$KO" max_links=2 lgr_idle_time="$(tscale 120)" \
			testlink_time="$test_s" add_link_retry=2 || return
		trace_on
	else
		who=linux
		linux_smc_up "$SMCR" || return
		tap_check "$tag: sysctl net.smc.smcr_testlink_time=2 (b)" \
			sysctl -qw net.smc.smcr_testlink_time=2
		linux_pnet "$tag" eth1 rxe1
	fi
	tap_check "$tag: smcr ueid add ($who)" "$SMCR" ueid add SMCR-LINKS
	barrier "linux-failover-$lnx-up" 60
	xpair "$srv" "linux-failover-$lnx-first" "$port" "$SMCR_PEER_IP" 1M 1
	links=$(wait_links)
	tap_check "$tag: two links, on rxe0 and rxe1 ($who)" \
		test "$(grep -c '^ib_dev rxe[01]$' <<<"$links")" -eq 2 -a \
		"$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 1
	stream_lose "linux-failover-$lnx" $((port + 1)) "$srv" "$by" rxe1 \
		"${cut[@]}"
	[[ $who == ours ]] && moved_ok "$tag" rxe1 rxe0
	links=$(rxe1_gone)
	printf '%s\n' "$links" | sed "s/^/# $tag ($who): /"
	tap_check "$tag: the group goes on over rxe0 alone ($who)" \
		alone_on rxe0 "$links"
	barrier "linux-failover-$lnx-lost" 60
	if [[ $lnx == client ]]; then
		[[ $who == ours ]] && roce_unblock eth1
		# our offers back off to 16 s apart while the path is lost
		links=$(wait_links 60)
		tap_check "$tag: a link on rxe1 again once eth1 is back ($who)" \
			test "$(grep -c '^ib_dev rxe1$' <<<"$links")" -eq 1
	elif [[ $lnx == server_lost && $who == ours ]]; then
		tap_check "$tag: Linux's DELETE LINK took the link (a)" \
			grep -q 'smcr_link_down: .*peer.s DELETE LINK' $TRACE/trace
		roce_unblock eth1
	fi
	xpair "$srv" "linux-failover-$lnx-after" $((port + 3)) \
		"$SMCR_PEER_IP" 2M 1
	linux_end "$tag" "linux-failover-$lnx" "$who"
	[[ $who == linux && $lnx == server ]] &&
		rxe_back "$tag" rxe1 eth1 "$SMCR_SELF_IP2"
	barrier "linux-failover-$lnx-gone" 60
}

# asym_dev: a third RoCE device beside rxe0 on eth0's wire, for a link
# of another device's that reaches the peer's rxe0 (rxe sends and takes
# frames on its own net device only: across eth0 and eth1 no link is
# possible): rxe1 goes, a macvlan mv0 of eth0 comes, with an address of
# eth0's subnet (noprefixroute) and a host route to the peer's; each side
# answers ARP on the device that has the address (arp_ignore). rxe2 on
# mv0 comes with asym_rxe2.
MV_SELF=${SMCR_SELF_IP%.*}.2${SMCR_SELF_IP##*.}
MV_PEER=${SMCR_PEER_IP%.*}.2${SMCR_PEER_IP##*.}
asym_dev() {
	tap_check "asym: rdma link delete rxe1 ($SMCR_ROLE)" \
		rdma link delete rxe1
	tap_check "asym: macvlan mv0 of eth0, $MV_SELF ($SMCR_ROLE)" bash -c "
		modprobe macvlan &&
		ip link add mv0 link eth0 type macvlan mode bridge &&
		ip link set mv0 up &&
		ip addr add $MV_SELF/24 dev mv0 noprefixroute &&
		ip route add $MV_PEER/32 dev mv0 src $MV_SELF"
}

# asym_rxe2 add|delete: rxe2 on mv0 comes (with mv0's address as a GID)
# or goes, if not so already
asym_rxe2() {
	if [[ $1 == delete ]]; then
		[[ -e /sys/class/infiniband/rxe2 ]] || return 0
		tap_check "asym: rdma link delete rxe2 ($SMCR_ROLE)" \
			rdma link delete rxe2
		return
	fi
	[[ -e /sys/class/infiniband/rxe2 ]] || rxe_back asym rxe2 mv0 "$MV_SELF"
}

# asym_type TYPE: up to 30 s (scaled) until our group is of TYPE
asym_type() {
	local i
	for ((i = 0; i < $(tscale 30); i++)); do
		"$SMCR" linkgroup | grep -q "^type $1\$" && return 0
		sleep 1
	done
	"$SMCR" linkgroup | grep '^type '
	return 1
}

# up_before PATTERN: in the trace, the link event before the first
# smcr_link_down that matches PATTERN is a link coming up: the group kept
# its two links while one was replaced
up_before() {
	grep -E 'smcr_links_up:|smcr_link_down:' $TRACE/trace |
		grep -B1 -m1 "$1" | head -n1 | grep -q 'smcr_links_up:'
}

# rxe0_rxe2: our group has one link on rxe0 and one on rxe2 (smcr link)
rxe0_rxe2() {
	local links
	links=$("$SMCR" link)
	test "$(grep -c '^ib_dev rxe[02]$' <<<"$links")" -eq 2 -a \
		"$(grep -c '^ib_dev rxe2$' <<<"$links")" -eq 1
}

# asym LATE: an asymmetric group made symmetric, as Linux does. a
# serves, ours on both sides, SMC-Rv2, add_link_retry=0; guest LATE
# has no rxe2 at first contact, so the group's second link shares its
# rxe0 port (asymmetric local there, peer at the other side). While two
# connections stream, LATE's rxe2 comes: a server that lacked it (LATE
# a) replaces the second link by itself (its port came up), a client
# that lacked it (LATE b) asks for a link (REQUEST ADD LINK) and the
# server replaces the second link so, make before break: an ADD LINK
# between the rxe2 of both, a third link, then the server's DELETE LINK
# (orderly, no asymmetric link needed) of the second, whose connection
# moves to the first; the group is symmetric, every byte arrives,
# nothing aborts.
asym() {
	local late=$1 tag="asym $1" port=7520 peer=local
	[[ $late == b ]] && port=7530
	[[ $SMCR_ROLE == "$late" ]] || peer=peer
	if [[ $SMCR_ROLE == "$late" ]]; then
		asym_rxe2 delete
	else
		asym_rxe2 add
	fi
	tap_check "$tag: insmod smcr.ko max_links=2 add_link_retry=0 ($SMCR_ROLE)" \
		insmod "$KO" max_links=2 add_link_retry=0 testlink_time=60 \
		lgr_idle_time="$(tscale 120)" || return
	trace_on
	tap_check "$tag: smcr ueid add ($SMCR_ROLE)" "$SMCR" ueid add SMCR-LINKS
	barrier "asym-$late-up" 60
	xpair a "asym-$late-first" "$port" "$SMCR_PEER_IP" 1M 1
	tap_check "$tag: an asymmetric group, $peer ($SMCR_ROLE)" \
		asym_type "asymmetric_$peer"
	"$SMCR" link | grep -E '^(id|ib_dev|state) ' | paste -sd' ' |
		sed "s/^/# $tag: /"
	streams_start "asym-$late" $((port + 1)) a "$(bscale 16M)" 240
	if [[ $SMCR_ROLE == "$late" ]]; then
		sleep 2
		asym_rxe2 add
	fi
	tap_check "$tag: a symmetric group once rxe2 came ($SMCR_ROLE)" \
		asym_type symmetric
	streams_wait "asym-$late"
	barrier "asym-$late-streams" 60
	"$SMCR" link | grep -E '^(id|ib_dev|state|conns) ' | paste -sd' ' |
		sed "s/^/# $tag: /"
	grep -E 'smcr_links_|smcr_link_down|smcr_conn_moved|DELETE_LINK|REQ_ADD|smcr_lgr_terminate' \
		$TRACE/trace | sed 's/^ */# /'
	tap_check "$tag: one link on rxe0, one on rxe2 ($SMCR_ROLE)" \
		rxe0_rxe2
	if [[ $SMCR_ROLE == a ]]; then
		down='smcr_link_down: .*asymmetric, replaced'
		tap_check "$tag: the asymmetric link left for it (a)" \
			grep -q "$down" $TRACE/trace
	else
		down='smcr_link_down: .*peer.s DELETE LINK'
		tap_check "$tag: the server's DELETE LINK took it (b)" \
			grep -q "$down" $TRACE/trace
	fi
	tap_check "$tag: make before break: the new link up first ($SMCR_ROLE)" \
		up_before "$down"
	if [[ $late == b && $SMCR_ROLE == b ]]; then
		tap_check "$tag: our client asked for a link (b)" \
			grep -qE 'smcr_links_ask: .* rc=0$' $TRACE/trace
	fi
	tap_check "$tag: no move failed ($SMCR_ROLE)" \
		test "$(grep -c 'smcr_conn_moved: .* rc=-' $TRACE/trace)" -eq 0
	xpair a "asym-$late-more" $((port + 3)) "$SMCR_PEER_IP" 1M 1
	tap_check "$tag: no connection aborted, one group ($SMCR_ROLE)" \
		test "$(events smcr_lgr_terminate)" -eq 0 -a \
		"$(events smcr_lgr_create)" -eq 1
	barrier "asym-$late-done" 60
	unload "$tag"
}

# asym_linux SRV: asym against Linux's smc.ko in b, SRV serving (a: ours,
# b: Linux's), SMC-Rv2. Linux has rxe2 from the start, a has not: the
# group's second link shares a's rxe0 port (asymmetric local on our
# side). While two connections stream, a's rxe2 comes: our server (SRV
# a) offers a third link and deletes the asymmetric one (orderly, as
# Linux's server does), or our client (SRV b) asks Linux's server for a
# link (REQUEST ADD LINK) and Linux's server replaces it; the group is
# symmetric, every byte arrives, nothing aborts.
asym_linux() {
	local srv=$1 tag="asym, Linux's smc.ko in b, $1 serving" who=ours
	local port=7560
	[[ $srv == b ]] && port=7570
	if [[ $SMCR_ROLE == a ]]; then
		asym_rxe2 delete
		tap_check "$tag: insmod smcr.ko max_links=2 add_link_retry=0 (a)" \
			insmod "$KO" max_links=2 add_link_retry=0 testlink_time=60 \
			lgr_idle_time="$(tscale 120)" || return
		trace_on
	else
		who=linux
		asym_rxe2 add
		linux_smc_up "$SMCR" || return
		linux_pnet "$tag" mv0 rxe2
	fi
	tap_check "$tag: smcr ueid add ($who)" "$SMCR" ueid add SMCR-LINKS
	barrier "asym-linux-$srv-up" 60
	xpair "$srv" "asym-linux-$srv-first" "$port" "$SMCR_PEER_IP" 1M 1
	"$SMCR" linkgroup | grep '^type ' | sed "s/^/# $tag ($who): /"
	if [[ $who == ours ]]; then
		tap_check "$tag: an asymmetric group, local (a)" \
			asym_type asymmetric_local
	fi
	barrier "asym-linux-$srv-asym" 60
	streams_start "asym-linux-$srv" $((port + 1)) "$srv" "$(bscale 16M)" 240
	if [[ $who == ours ]]; then
		sleep 2
		asym_rxe2 add
	fi
	tap_check "$tag: a symmetric group once rxe2 came ($who)" \
		asym_type symmetric
	streams_wait "asym-linux-$srv"
	barrier "asym-linux-$srv-streams" 60
	"$SMCR" link | grep -E '^(id|ib_dev|state|conns) ' | paste -sd' ' |
		sed "s/^/# $tag ($who): /"
	tap_check "$tag: one link on rxe0, one on rxe2 ($who)" \
		rxe0_rxe2
	if [[ $who == ours ]]; then
		grep -E 'smcr_links_|smcr_link_down|smcr_conn_moved|DELETE_LINK|REQ_ADD|smcr_cdc_(late|ahead)|smcr_lgr_terminate' \
			$TRACE/trace | sed 's/^ */# /'
		tap_check "$tag: no move failed (a)" \
			test "$(grep -c 'smcr_conn_moved: .* rc=-' $TRACE/trace)" -eq 0
	fi
	xpair "$srv" "asym-linux-$srv-more" $((port + 3)) "$SMCR_PEER_IP" 1M 1
	linux_end "$tag" "asym-linux-$srv" "$who"
	barrier "asym-linux-$srv-gone" 60
}

# asym_end: rxe2 and mv0 go, rxe1 on eth1 comes back
asym_end() {
	asym_rxe2 delete
	ip link del mv0
	rxe_back asym rxe1 eth1 "$SMCR_SELF_IP2"
	barrier asym-end 60
}

# phase NAME [ARGS]: one phase of the group, unless LINKS_PHASES (on the
# host SMCR_GUEST_LINKS_PHASES) names others: "setup asym" runs those
# whose name is one of these words
phase() {
	[[ -z ${LINKS_PHASES:-} || " $LINKS_PHASES " == *" $1 "* ]] || return 0
	"$@"
}

phase setup
phase verbs
phase ours
phase ours2 v1
phase ours2 v2
phase v21
phase failover eth1
phase failover eth0
phase readd
phase mixed2
phase invite
phase grow
phase ask
phase linux
phase linux_failover client
phase linux_failover server
phase linux_failover server_lost
phase asym_dev
phase asym a
phase asym b
phase asym_linux a
phase asym_linux b
phase asym_end
# last: Linux's smc.ko corrupts data over an rxe0 deleted and added again
phase failover rxe0
