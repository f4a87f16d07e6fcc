#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 600
#
# Group "pnet": the PNET table (family SMC_PNETID) and the net.smc.*
# sysctls of our module, then the same requests to Linux's smc.ko.
#   table     (both) smcr pnet add, show, del, flush: output and errors;
#             smc_pnet.py's raw requests, malformed ones too, in the
#             initial namespace and in another one, with the PNET IDs that
#             SMC_GEN_NETLINK reports for rxe0's ports; a namespace that
#             goes with entries, a device that comes and goes under one
#   sysctl    (both) smc_pnet.py --sysctl: defaults, ranges; another
#             namespace keeps its own values
#   select    a connects to b (smc_peer, every byte checked):
#               match   both map eth0 and rxe0 port 1 to one PNET ID:
#                       SMC-R, and smcr linkgroup shows the PNET ID
#               other   an entry for another device only: SMC-R as
#                       without a table
#               client  a maps eth0 to a PNET ID no RoCE port has: a
#                       declines, SMC_CLC_DECL_NOSMCDEV (Linux's code on a
#                       client), b falls back on a peer's decline
#               server  the same on b, both sides with a user EID: b
#                       declines with SMC_CLC_DECL_NOSMCRDEV
#   bufs      net.smc.wmem on a, net.smc.rmem on b decide the send buffer
#             and RMB of the next connection, on both ends (tracepoint)
#   testlink  net.smc.smcr_testlink_time 1 on both: TEST LINK every second
#             on an idle link, from one side or the other; 0: none
#   hslimit   smcr hslimit enable on b; smc_hslimit.py: SOL_SMC
#             SMC_LIMIT_HS of b's sockets; while three handshakes of a
#             hold b's workers (max_active 2, their CLC proposals dropped
#             by a tc filter), a connection to a limiting listener runs
#             over TCP, fallback 0x03010000 on both sides, one to a
#             listener without the option is not refused that way
#   linux     (a) rmmod smcr, modprobe smc: the smcr pnet commands, the raw
#             requests of both namespaces and the sysctls get the same
#             answers, byte for byte, from Linux's module as from ours;
#             Linux's SMC_LIMIT_HS passes the checks ours passed
#   finish    rmmod with entries in the table; no kernel warning
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

BIN=$SMCR_REPO/build/selftests
KO=$SMCR_REPO/net/smc/smcr.ko
SMCR=$SMCR_REPO/build/tools/smcr
PNET=$SMCR_REPO/tools/testing/selftests/net/smc/smc_pnet.py
RUN=$SMCR_REPO/tools/smc_run/smc_run
TRACE=/sys/kernel/tracing
NS=pnettest

count() { grep -c -- "$1" $TRACE/trace; }

# The smcr commands both modules must answer alike; "nobody" runs the
# rest of the line as an unprivileged user, "ns" in namespace $NS. Each
# has what it must end with: 0 or the errno its message names.
PNET_SEQ=(
	"0 pnet show"
	"0 pnet add P1 eth eth0"
	"EEXIST pnet add p2 eth eth0"
	"0 pnet add p1 ib rxe0 1"
	"EEXIST pnet add P3 ib rxe0 1"
	"EINVAL pnet add P3 ib rxe0 3"
	"EINVAL pnet add bad_id eth eth1"
	"EINVAL pnet add P1234567890123456 eth eth1"
	"0 pnet add P4 eth nosuch0"
	"0 pnet add P5 ib nosuchib 2"
	"0 pnet show"
	"0 pnet show P1"
	"0 pnet show p1"
	"0 nobody pnet show"
	"EPERM nobody pnet add P6 eth lo"
	"0 ns pnet add N1 eth lo"
	"EEXIST ns pnet add N2 ib rxe0 1"
	"0 ns pnet show"
	"ENOENT ns pnet del P1"
	"0 pnet show"
	"ENOENT pnet del P9"
	"ENOENT pnet del p1"
	"0 pnet del P1"
	"0 pnet show"
	"EPERM nobody pnet flush"
	"0 pnet flush"
	"0 pnet show"
	"0 ns pnet flush"
	"0 ns pnet show"
)

# pnet_seq WHO: run PNET_SEQ, a result line each, the whole in
# /tmp/pnet-WHO.smcr
pnet_seq() {
	local who=$1 c want cmd out rc ok
	ip netns add $NS
	for c in "${PNET_SEQ[@]}"; do
		want=${c%% *}
		cmd=${c#* }
		case $cmd in
		nobody*)
			# shellcheck disable=SC2086 # split the command line on purpose
			out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
				"$SMCR" ${cmd#nobody } 2>&1) ;;
		ns*)
			# shellcheck disable=SC2086
			out=$(ip netns exec $NS "$SMCR" ${cmd#ns } 2>&1) ;;
		*)
			# shellcheck disable=SC2086
			out=$("$SMCR" $cmd 2>&1) ;;
		esac
		rc=$?
		printf '$ smcr %s\n%s%sexit %d\n' "$cmd" "$out" "${out:+$'\n'}" \
			"$rc" >>"/tmp/pnet-$who.smcr"
		if [[ $want == 0 ]]; then
			((rc == 0)) && ok=1 || ok=0
		else
			((rc != 0)) && grep -q "($want)" <<<"$out" && ok=1 || ok=0
		fi
		if ((ok)); then
			tap_ok "smcr $cmd: $want ($who)"
		else
			tap_fail "smcr $cmd: $want ($who)" "exit $rc: $out"
		fi
	done
	ip netns del $NS
}

# show_is WHO LINE...: the second "pnet show" of the sequence (after the
# adds) printed exactly these lines
show_is() {
	local who=$1 got want
	shift
	want=$(printf '%s\n' "$@" "exit 0")
	got=$(awk '/^\$ smcr pnet show$/ { n++; next } n == 2 && !/^\$/ { print } /^\$/ && n == 2 { exit }' \
		"/tmp/pnet-$who.smcr")
	[[ $got == "$want" ]] || { echo "$got"; return 1; }
}

# transcripts WHO: the answers of the loaded module to smc_pnet.py in
# both namespaces and to the sysctl requests, in /tmp/pnet-WHO.*
transcripts() {
	local who=$1
	python3 "$PNET" --group "pnet ($who)" --transcript "/tmp/pnet-$who.genl"
	ip netns add $NS
	ip netns exec $NS python3 "$PNET" --netns --group "pnet netns ($who)" \
		--transcript "/tmp/pnet-$who.genl-ns"
	python3 "$PNET" --sysctl --group "sysctl ($who)" \
		--transcript "/tmp/pnet-$who.sysctl"
	ip netns del $NS
}

# table: ours, in each guest
table() {
	local out
	rm -f /tmp/pnet-ours.*
	pnet_seq ours
	tap_check "smcr pnet show: the entries as pnet add takes them ($SMCR_ROLE)" \
		show_is ours "P1 eth eth0" "P1 ib rxe0 1" "P4 eth nosuch0" \
		"P5 ib nosuchib 2"
	tap_check "smcr pnet add of a missing device notes it ($SMCR_ROLE)" \
		grep -q 'note: no eth device nosuch0' /tmp/pnet-ours.smcr
	transcripts ours
	# a namespace that goes with entries; a device that comes and goes
	ip netns add $NS
	ip netns exec $NS "$SMCR" pnet add GONE eth lo
	ip netns exec $NS "$SMCR" pnet add GONE eth pveth0
	ip netns exec $NS ip link add pveth0 type veth peer name pveth1
	ip netns exec $NS ip link del pveth0
	ip netns exec $NS ip link add pveth0 type veth peer name pveth1
	ip netns del $NS
	out=$("$SMCR" pnet show)
	tap_check "the initial namespace kept no entry of the other ($SMCR_ROLE)" \
		test -z "$out"
}

# smc_bufs: SO_SNDBUF and SO_RCVBUF of a new AF_SMC socket
smc_bufs() {
	python3 -c 'import socket
s = socket.socket(43, socket.SOCK_STREAM, 0)
print(s.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF),
      s.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF))'
}

# sysctl: per namespace
sysctl_ns() {
	ip netns add $NS
	sysctl -qw net.smc.wmem=32768 net.smc.smcr_testlink_time=7
	tap_check "another namespace has the default wmem ($SMCR_ROLE)" \
		test "$(ip netns exec $NS cat /proc/sys/net/smc/wmem)" = 65536
	tap_check "another namespace has the default smcr_testlink_time ($SMCR_ROLE)" \
		test "$(ip netns exec $NS cat /proc/sys/net/smc/smcr_testlink_time)" = 30
	ip netns exec $NS sysctl -qw net.smc.rmem=20000
	tap_check "rmem set in another namespace stays there ($SMCR_ROLE)" \
		test "$(cat /proc/sys/net/smc/rmem)" = 65536
	tap_check "... and the other namespace has it ($SMCR_ROLE)" \
		test "$(ip netns exec $NS cat /proc/sys/net/smc/rmem)" = 20000
	tap_check "a new socket's SO_SNDBUF/SO_RCVBUF: twice wmem/rmem ($SMCR_ROLE)" \
		test "$(smc_bufs)" = "65536 131072"
	tap_check "... the other namespace's in the other namespace ($SMCR_ROLE)" \
		test "$(ip netns exec $NS bash -c "$(declare -f smc_bufs); smc_bufs")" = "131072 40000"
	sysctl -qw net.smc.wmem=65536 net.smc.smcr_testlink_time=30
	ip netns del $NS
}

# xfer NAME PORT: b serves PORT, a connects over AF_SMC, 1 MiB each way
xfer() {
	local name=$1 port=$2
	if [[ $SMCR_ROLE == b ]]; then
		timeout 120 "$BIN/smc_peer" server --family smc --port "$port" \
			--bytes 1M --timeout 90 &
		wait_listen "$port"
		barrier "$name" 60
		wait $! || tap_fail "$name: server exit status (b)"
	else
		barrier "$name" 60
		timeout 120 "$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" \
			--port "$port" --bytes 1M --timeout 90 ||
			tap_fail "$name: client exit status (a)"
	fi
}

# expect NAME PATTERN N: N more trace lines match PATTERN than at mark
declare -A MARK
mark() { MARK[$1]=$(count "$2"); }
expect() {
	local n=$(($(count "$2") - ${MARK[$1]:-0}))
	if ((n == $3)); then
		tap_ok "$1 ($SMCR_ROLE)"
	else
		tap_fail "$1 ($SMCR_ROLE)" "$n times '$2', not $3"
		grep -E 'smcr_(fallback|conn|clc_msg):' $TRACE/trace | tail -n 8 | sed 's/^/# /'
	fi
}

select_phase() {
	local lgrs

	# match: one PNET ID for eth0 and rxe0 port 1 on both sides
	tap_check "smcr pnet add PNETA eth eth0 ($SMCR_ROLE)" "$SMCR" pnet add PNETA eth eth0
	tap_check "smcr pnet add PNETA ib rxe0 1 ($SMCR_ROLE)" "$SMCR" pnet add PNETA ib rxe0 1
	mark "match: SMC-R" 'smcr_conn: '
	mark "match: no fallback" 'smcr_fallback: '
	xfer match 7700
	expect "match: SMC-R" 'smcr_conn: ' 1
	expect "match: no fallback" 'smcr_fallback: ' 0
	lgrs=$("$SMCR" linkgroup)
	printf '# %s\n' "${lgrs//$'\n'/$'\n# '}"
	tap_check "match: smcr linkgroup: pnetid PNETA ($SMCR_ROLE)" \
		grep -qx 'pnetid PNETA' <<<"$lgrs"
	barrier match-done 60

	# other: only a device the connection does not use has an entry
	"$SMCR" pnet flush
	tap_check "smcr pnet add OTHER eth lo ($SMCR_ROLE)" "$SMCR" pnet add OTHER eth lo
	mark "other: SMC-R" 'smcr_conn: '
	xfer other 7701
	expect "other: SMC-R" 'smcr_conn: ' 1
	"$SMCR" pnet flush
	barrier other-done 60

	# client: a's eth0 is on a network its RoCE port is not
	decline client 7702 a 0x03030000
	# server: the same on b, with SMC-Rv2 offered
	"$SMCR" ueid add SMCR-PNET-TEST
	decline server 7703 b 0x03030002
	"$SMCR" ueid flush
}

# decline NAME PORT WHO CODE: WHO maps its eth0 to a PNET ID its RoCE
# port is not on, declines with CODE, and the other side falls back on
# that decline (0x05000000); a connects to b, no SMC-R
decline() {
	local name=$1 port=$2 who=$3 code=$4 role=client other=server peer=b
	local what pattern
	[[ $who == b ]] && role=server other=client peer=a
	if [[ $SMCR_ROLE == "$who" ]]; then
		"$SMCR" pnet add PNETB eth eth0
		"$SMCR" pnet add PNETC ib rxe0 1
		what="$name: $who declines, no SMC-R device ($code)"
		pattern="$role fallback reason=$code "
	else
		what="$name: $peer falls back on $who's decline (0x05000000, $code)"
		pattern="$other fallback reason=0x05000000 peer_diagnosis=$code"
	fi
	mark "$what" "$pattern"
	mark "$name: no SMC-R" 'smcr_conn: '
	xfer "$name" "$port"
	expect "$what" "$pattern" 1
	expect "$name: no SMC-R" 'smcr_conn: ' 0
	"$SMCR" pnet flush
	barrier "$name-done" 60
}

# bufs: a sends from 16 KiB, b receives into 32 KiB
bufs() {
	local want
	if [[ $SMCR_ROLE == a ]]; then
		sysctl -qw net.smc.wmem=16384
		want="rmb=65536 sndbuf=16384 peer_rmb=32768"
	else
		sysctl -qw net.smc.rmem=32768
		want="rmb=32768 sndbuf=65536 peer_rmb=65536"
	fi
	mark "bufs: $want" "$want"
	xfer bufs 7704
	expect "bufs: $want" "$want" 1
	sysctl -qw net.smc.wmem=65536 net.smc.rmem=65536
	barrier bufs-done 60
}

# idle NAME PORT SECS: a connection over SMC-R (smc_run), idle SECS
idle() {
	local name=$1 port=$2 secs=$3
	if [[ $SMCR_ROLE == b ]]; then
		timeout 90 "$RUN" python3 -c '
import socket, sys
ls = socket.create_server(("", int(sys.argv[1])))
c, _ = ls.accept()
while c.recv(100):
    pass' "$port" &
		wait_listen "$port"
		barrier "$name" 60
		wait $! || tap_fail "$name: server exit status (b)"
	else
		barrier "$name" 60
		timeout 90 "$RUN" python3 -c '
import socket, sys, time
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
s.sendall(b"x")
time.sleep(float(sys.argv[3]))' "$SMCR_PEER_IP" "$port" "$secs" ||
			tap_fail "$name: client exit status (a)"
	fi
}

# testlink: TEST LINK of a new link group as net.smc.smcr_testlink_time says
testlink() {
	local t n
	for t in 1 0; do
		sysctl -qw net.smc.smcr_testlink_time=$t
		# a new link group takes the value: the old ones go first
		no_qps 40
		barrier "testlink$t" 60
		echo >$TRACE/trace
		idle "idle$t" $((7710 + t)) 6
		# either side may probe: a probe of the peer's, arriving,
		# is traffic that spares the link one of ours (§4.5.3)
		n=$(count 'smcr_llc: .* type=TEST_LINK request')
		echo "# testlink $t: $n TEST LINK requests sent or received in 6 s ($SMCR_ROLE)"
		if ((t ? n >= 3 : n == 0)); then
			tap_ok "testlink $t: $n TEST LINK requests in 6 s ($SMCR_ROLE)"
		else
			tap_fail "testlink $t: $n TEST LINK requests in 6 s ($SMCR_ROLE)"
		fi
		tap_check "testlink $t: the connection went over SMC-R ($SMCR_ROLE)" \
			grep -q 'smcr_conn: ' $TRACE/trace
	done
	sysctl -qw net.smc.smcr_testlink_time=30
}

# hslimit: handshake limitation; b serves, a connects
hslimit() {
	local port=7720 wq=/sys/devices/virtual/workqueue/smcr_hs maxact
	local hsl=$SMCR_REPO/tools/testing/selftests/net/smc/smc_hslimit.py

	mark "hslimit: one fallback for lack of the SMC option (0x03010000)" \
		'fallback reason=0x03010000 '
	if [[ $SMCR_ROLE == b ]]; then
		tap_check "smcr hslimit enable (b)" "$SMCR" hslimit enable
		tap_check "smcr hslimit show: enabled: 1 (b)" \
			grep -qx 'enabled: 1' <<<"$("$SMCR" hslimit show)"
		maxact=$(cat $wq/max_active)
		echo 2 >$wq/max_active
		# the CLC proposals to $port (segments with PSH) never arrive
		tc qdisc add dev eth0 ingress
		tc filter add dev eth0 parent ffff: protocol ip u32 \
			match ip protocol 6 0xff match u16 $port 0xffff at 22 \
			match u8 0x08 0x08 at 33 action drop
		timeout 120 "$RUN" python3 "$hsl" server --port $port &
		wait_listen $((port + 2))
		barrier hslimit 60
		wait $! || tap_fail "hslimit: server exit status (b)"
		tc qdisc del dev eth0 ingress
		echo "$maxact" >$wq/max_active
		tap_check "smcr hslimit disable (b)" "$SMCR" hslimit disable
		tap_check "smcr hslimit show: enabled: 0 (b)" \
			grep -qx 'enabled: 0' <<<"$("$SMCR" hslimit show)"
		tap_check "a new socket's SMC_LIMIT_HS follows: 0 (b)" \
			test "$("$RUN" python3 -c 'import socket
print(socket.socket().getsockopt(286, 1))')" = 0
	else
		barrier hslimit 60
		timeout 120 "$RUN" python3 "$hsl" client --host "$SMCR_PEER_IP" \
			--port $port || tap_fail "hslimit: client exit status (a)"
	fi
	expect "hslimit: one fallback for lack of the SMC option (0x03010000)" \
		'fallback reason=0x03010000 ' 1
	barrier hslimit-done 60
}

# rmmod_retry: the link groups of closed connections go after a while
rmmod_retry() {
	timeout 30 bash -c 'until rmmod smcr 2>/dev/null; do sleep 0.3; done' ||
		rmmod smcr
}

# linux: (a) Linux's smc.ko answers as ours did
linux() {
	local f
	tap_check "rmmod smcr (a)" rmmod_retry || return
	tap_check "modprobe smc (Linux's, a)" modprobe smc || return
	rm -f /tmp/pnet-linux.*
	pnet_seq linux
	transcripts linux
	for f in smcr genl genl-ns sysctl; do
		tap_check "$f: the same answers from both modules" \
			diff -u --label "Linux's smc.ko" --label "our smcr.ko" \
			"/tmp/pnet-linux.$f" "/tmp/pnet-ours.$f"
	done
	sed 's/^/# /' /tmp/pnet-ours.smcr
	"$SMCR" hslimit enable
	"$RUN" python3 "$SMCR_REPO/tools/testing/selftests/net/smc/smc_hslimit.py" \
		options | sed 's/ - hslimit: / - hslimit (Linux'"'"'s smc.ko): /'
	"$SMCR" hslimit disable
	tap_check "rmmod smc (a)" rmmod smc
	tap_check "insmod smcr.ko again (a)" insmod "$KO"
}

tap_check "insmod smcr.ko ($SMCR_ROLE)" insmod "$KO" || exit 0
mountpoint -q $TRACE || mount -t tracefs nodev $TRACE
echo 1 >$TRACE/events/smcr/enable
echo 0 >$TRACE/events/smcr/smcr_cdc/enable
table
sysctl_ns
barrier start 120
select_phase
bufs
testlink
hslimit
barrier end 120
[[ $SMCR_ROLE == a ]] && linux
"$SMCR" pnet add KEPT eth eth0
"$SMCR" pnet add KEPT ib rxe0 1
tap_check "rmmod smcr with entries in the table ($SMCR_ROLE)" rmmod_retry
tap_check "no kernel warning ($SMCR_ROLE)" dmesg_clean
exit 0
