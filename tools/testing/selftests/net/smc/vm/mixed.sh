#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 600
#
# Group "mixed": our module in guest a, Linux's in-tree smc.ko in guest b,
# over the rxe scripts/vm/build-rxe patches (Linux needs it). Linux runs
# SMC-R over rxe only as SMC-Rv2, so every phase is SMC-Rv2, and each runs
# twice: once with our module serving, once with Linux's.
#   bulk     64 MiB each way, SHA-256 compared; TCP carried only the
#            handshake, RoCE the data; first contact, SMC-Rv2 on our side;
#            smcr linkgroup and link of both sides right after: our group
#            is SMC-Rv2 of the lower of the two modules' SMC releases,
#            and ours and Linux's report the same keys, roles
#            opposite, one version and EID, each other's GIDs, link user
#            ids and host names
#   reuse    five more connections: subsequent contact joins the group
#   close    half-close and close in both orders (smc_close.py under
#            smc_run on both sides)
#   abort    the client is killed mid-transfer; the server ends, and a new
#            connection works afterwards
#   linger   Linux's client keeps its socket 40 s after our server
#            closed (smc_linger.py): we stop waiting for its close after
#            30 s, and our idle group ends with DELETE LINK while Linux's
#            connection is still in it. Linux aborts that connection,
#            then sends a DELETE LINK of its own; our link must stay up
#            until then, or Linux's abort is never acknowledged (rxe
#            retries it for ever) and its worker hangs (hung task)
#   rkeys    Linux's client against our server: two rounds of 160
#            connections open at once in one link group, 288 RMBs of ours
#            in all (a round reuses 32 spares at most); none may fall
#            back: Linux keeps the rkey of every RMB of its peer until a
#            DELETE RKEY (A.3.7) names it, and declines a connection once
#            255 are kept. Our DELETE RKEY requests are in our trace.
#   noueid   one side without a user EID: fallback to TCP with Linux's
#            reason code, all bytes delivered
#   bigrmb   Linux's RMBs of 2 MiB (net.smc.rmem), in each role: Linux
#            6.12 names them with an RMBE size code past the RFC's 512
#            KiB; ours takes it and the connection works over SMC-Rv2
#   nodev    one side without an RDMA device: the same
#   finish   both sides' smcr stats: SMC-Rv2 handshakes in each role at
#            least as many as the phases made, and exactly the fallback
#            reasons the decline phases caused; rmmod is clean
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

BIN=$SMCR_REPO/build/selftests
KO=$SMCR_REPO/net/smc/smcr.ko
SMCR=$SMCR_REPO/build/tools/smcr
SHOW=$SMCR_REPO/tools/testing/selftests/net/smc/smcr_show.py
RUN=$SMCR_REPO/tools/smc_run/smc_run
PY=$SMCR_REPO/tools/testing/selftests/net/smc
TRACE=/sys/kernel/tracing
HW=/sys/class/infiniband/rxe0/ports/1/hw_counters
EID="SMCR-INTEROP"

# who runs what: guest a our module, guest b Linux's
if [[ $SMCR_ROLE == a ]]; then WHO=ours; else WHO=linux; fi

tcp_segs() { nstat -az TcpOutSegs | awk '$1 == "TcpOutSegs" { print $2 }'; }
rxe_pkts() { cat $HW/sent_pkts; }
# our module's view, from its tracepoints (guest a only)
v2_conns() { grep -c 'smcr_conn: .* v2 ' $TRACE/trace; }
first_contacts() { grep -c 'smcr_conn: .* first contact' $TRACE/trace; }
fallbacks() { grep -c 'smcr_fallback: ' $TRACE/trace; }
# xpair SRV NAME PORT SECS SERVER... -- CLIENT...: guest SRV runs the server
# command, the other guest the client command once the server listens.
xpair() {
	local srv_role=$1 name=$2 port=$3 secs=$4 cmd=()
	shift 4
	while (($#)) && [[ $1 != -- ]]; do
		cmd+=("$1")
		shift
	done
	shift
	if [[ $SMCR_ROLE == "$srv_role" ]]; then
		timeout "$secs" "${cmd[@]}" &
		wait_listen "$port"
		barrier "$name" 60
		wait $! || tap_fail "$name: server exit status ($WHO)"
	else
		barrier "$name" 60
		timeout "$secs" "$@" || tap_fail "$name: client exit status ($WHO)"
	fi
}

# peer_pair SRV NAME PORT BYTES [COUNT]: smc_peer over AF_SMC
peer_pair() {
	xpair "$1" "$2" "$3" 240 \
		"$BIN/smc_peer" server --family smc --port "$3" --bytes "$4" \
		--count "${5:-1}" --timeout 200 -- \
		"$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" \
		--port "$3" --bytes "$4" --count "${5:-1}" --timeout 200
}

# serving SRV: the tag of a phase by who serves
serving() { if [[ $1 == a ]]; then echo "ours serving"; else echo "linux serving"; fi; }
# port BASE SRV: a port of its own for each server
port() { if [[ $2 == a ]]; then echo "$1"; else echo $(($1 + 1)); fi; }

setup() {
	if [[ $WHO == ours ]]; then
		tap_check "insmod smcr.ko" insmod "$KO" testlink_time=5 \
			lgr_idle_time="$(tscale 10)" || exit 0
		mountpoint -q $TRACE || mount -t tracefs nodev $TRACE
		echo 1 >$TRACE/events/smcr/enable
		# not one event per CDC message: the counts here need the whole ring
		echo 0 >$TRACE/events/smcr/smcr_cdc/enable
	else
		linux_smc_up "$SMCR" || exit 0
	fi
	tap_check "smcr ueid add $EID ($WHO)" "$SMCR" ueid add $EID
}

# bulk SRV: one connection, 64 MiB each way
bulk() {
	local tag segs0 pkts0 segs pkts v0 f0 fb0
	tag=$(serving "$1")
	segs0=$(tcp_segs)
	pkts0=$(rxe_pkts)
	if [[ $WHO == ours ]]; then
		v0=$(v2_conns)
		f0=$(first_contacts)
		fb0=$(fallbacks)
	fi
	peer_pair "$1" "bulk-$1" "$(port 7600 "$1")" 64M
	segs=$(($(tcp_segs) - segs0))
	pkts=$(($(rxe_pkts) - pkts0))
	echo "# bulk, $tag ($WHO): $segs TCP segments, $pkts RoCE packets sent"
	# 64 MiB in packets of at most 4 KiB: 16384 at least
	if ((pkts >= 16384 && segs < 100)); then
		tap_ok "bulk, $tag: RoCE carried the data, TCP the handshake ($WHO)"
	else
		tap_fail "bulk, $tag: RoCE carried the data, TCP the handshake ($WHO)"
	fi
	nl_compare "$1"
	[[ $WHO == ours ]] || return 0
	tap_check "bulk, $tag: one SMC-Rv2 connection, no fallback" \
		test $(($(v2_conns) - v0)) -eq 1 -a $(($(fallbacks) - fb0)) -eq 0
	tap_check "bulk, $tag: it was the link group's first contact" \
		test $(($(first_contacts) - f0)) -eq 1
}

# nl_compare SRV: right after bulk, both sides' smcr linkgroup and link
# (our idle group stays 10 s, scaled on slow kernels), compared on our side
nl_compare() {
	local tag out=$SMCR_OUT/mixed-bulk-$1 role rel
	tag=$(serving "$1")
	"$SMCR" linkgroup >"$out-$WHO.lgr"
	"$SMCR" link >"$out-$WHO.link"
	uname -n | cut -c1-32 >"$out-$WHO.host"
	"$SMCR" info | awk '$1 == "release:" { print $2 }' >"$out-$WHO.rel"
	barrier "nl-$1" 60
	[[ $WHO == ours ]] || return 0
	sed 's/^/# ours: /' "$out-ours.lgr" "$out-ours.link"
	sed 's/^/# linux: /' "$out-linux.lgr" "$out-linux.link"
	if [[ $1 == a ]]; then role=server; else role=client; fi
	# the lower of the two sides' SMC releases (1 on 6.12, 0 on 6.1)
	rel=$(cat "$out-ours.rel" "$out-linux.rel" | sort -n | head -n1)
	echo "# SMC release: ours $(cat "$out-ours.rel"), linux $(cat "$out-linux.rel")"
	tap_check "bulk, $tag: smcr linkgroup: an SMC-Rv2 group of release ${rel:-0}, $role, with the EID" \
		python3 "$SHOW" block "$out-ours.lgr" "role=$role" version=2 "eid=$EID" \
		"release=${rel:-0}" peer_os=linux type=single
	tap_check "bulk, $tag: smcr linkgroup and link of ours and Linux's agree" \
		python3 "$SHOW" match "$out-ours.lgr" "$out-ours.link" "$out-linux.lgr" \
		"$out-linux.link" --newest --host "$(cat "$out-ours.host")" \
		--peer-host "$(cat "$out-linux.host")"
}

# reuse SRV: five connections right after bulk: they join its group
reuse() {
	local tag v0 f0
	tag=$(serving "$1")
	if [[ $WHO == ours ]]; then
		v0=$(v2_conns)
		f0=$(first_contacts)
	fi
	peer_pair "$1" "reuse-$1" "$(port 7610 "$1")" 1M 5
	[[ $WHO == ours ]] || return 0
	tap_check "reuse, $tag: five SMC-Rv2 connections" \
		test $(($(v2_conns) - v0)) -eq 5
	# our idle groups end after 10 s: the first may have had to start one
	tap_check "reuse, $tag: at least four joined a link group (subsequent contact)" \
		test $(($(first_contacts) - f0)) -le 1
}

# closing SRV: the close orders of smc_close.py, both sides under smc_run
closing() {
	local tag v0 fb0 p
	tag=$(serving "$1")
	p=$(port 7620 "$1")
	if [[ $WHO == ours ]]; then
		v0=$(v2_conns)
		fb0=$(fallbacks)
	fi
	xpair "$1" "close-$1" "$p" 120 \
		"$RUN" python3 "$PY/smc_close.py" server --port "$p" -- \
		"$RUN" python3 "$PY/smc_close.py" client --host "$SMCR_PEER_IP" \
		--port "$p"
	[[ $WHO == ours ]] || return 0
	tap_check "close, $tag: four SMC-Rv2 connections, no fallback" \
		test $(($(v2_conns) - v0)) -eq 4 -a $(($(fallbacks) - fb0)) -eq 0
}

# abort SRV: the client is killed with kill -9 mid-transfer
abort() {
	local srv=$1 tag pid port
	tag=$(serving "$srv")
	port=$(port 7630 "$srv")
	if [[ $SMCR_ROLE == "$srv" ]]; then
		"$BIN/smc_peer" server --family smc --port "$port" --bytes 512M \
			--timeout 60 >/tmp/abort.log 2>&1 &
		pid=$!
		wait_listen "$port"
		barrier "abort-$srv" 60
		if timeout 90 tail --pid=$pid -f /dev/null; then
			tap_ok "abort, $tag: the server saw the client go and ended ($WHO)"
		else
			tap_fail "abort, $tag: the server saw the client go and ended ($WHO)"
			kill -9 $pid
		fi
		wait $pid
	else
		barrier "abort-$srv" 60
		"$BIN/smc_peer" client --family smc --host "$SMCR_PEER_IP" \
			--port "$port" --bytes 512M --timeout 60 >/dev/null 2>&1 &
		pid=$!
		sleep 4
		kill -9 $pid
		wait $pid
		tap_ok "abort, $tag: client killed mid-transfer ($WHO)"
	fi
	barrier "abort-done-$srv" 120
	peer_pair "$srv" "after-abort-$srv" $((port + 2)) 4M
}

# linger: see the top; guest a serves
linger() {
	local hold dl0=0 port=7635 new
	# our close wait (30 s), then our idle time, then some
	hold=$((40 + $(tscale 10)))
	[[ $WHO == ours ]] && dl0=$(grep -cE 'smcr_llc(_unanswered)?: ' $TRACE/trace)
	xpair a linger $port $((hold + 60)) \
		"$RUN" python3 "$PY/smc_linger.py" server --port $port -- \
		"$RUN" python3 "$PY/smc_linger.py" client --host "$SMCR_PEER_IP" \
		--port $port --hold "$hold"
	barrier linger-done $((hold + 90))
	[[ $WHO == ours ]] || return 0
	new=$(grep -E 'smcr_llc(_unanswered)?: ' $TRACE/trace | tail -n +$((dl0 + 1)) |
		grep -E 'DELETE_LINK')
	printf '%s\n' "$new" | sed 's/^ */# /'
	tap_check "linger, ours serving: our idle group's DELETE LINK, then Linux's" \
		grep -qzE 'sent type=DELETE_LINK(_V2)? request.*received type=DELETE_LINK(_V2)? ' <<<"$new"
	tap_check "linger, ours serving: not left unanswered" \
		test "$(grep -c smcr_llc_unanswered <<<"$new")" -eq 0
}

# rkeys: Linux's client opens ROUNDS x COUNT connections to our server,
# COUNT at a time (smc_many.py under smc_run on both sides)
rkeys() {
	local round fb0 v0 f0 dr0 idle count=160
	local param=/sys/module/smcr/parameters/lgr_idle_time
	if [[ $WHO == ours ]]; then
		fb0=$(fallbacks)
		v0=$(v2_conns)
		f0=$(first_contacts)
		dr0=$(grep -cE 'smcr_llc: .* sent type=DELETE_RKEY(_V2)? request' $TRACE/trace)
		# both rounds in one group: it must not end in between
		idle=$(cat $param)
		echo 600 >$param
	fi
	for round in 1 2; do
		xpair a "rkeys$round" $((7640 + round)) 240 \
			"$RUN" python3 "$PY/smc_many.py" server \
			--port $((7640 + round)) --count $count -- \
			"$RUN" python3 "$PY/smc_many.py" client \
			--host "$SMCR_PEER_IP" --port $((7640 + round)) --count $count
	done
	[[ $WHO == ours ]] || return 0
	echo "$idle" >$param
	echo "# rkeys: $(($(grep -cE 'smcr_llc: .* sent type=DELETE_RKEY(_V2)? request' $TRACE/trace) - dr0)) DELETE RKEY requests sent"
	tap_check "rkeys, ours serving: both rounds in one link group" \
		test $(($(first_contacts) - f0)) -le 1
	tap_check "rkeys, ours serving: $((2 * count)) SMC-Rv2 connections of Linux's client, no fallback" \
		test $(($(v2_conns) - v0)) -eq $((2 * count)) -a $(($(fallbacks) - fb0)) -eq 0
}

# declined SRV PORT CODE WHAT: a connection falls back and still
# delivers every byte; our side saw CODE as the reason, its own or the
# peer's
declined() {
	local srv=$1 code=$3 what=$4 tag fb0
	tag=$(serving "$srv")
	[[ $WHO == ours ]] && fb0=$(fallbacks)
	peer_pair "$srv" "$what-$srv" "$2" 8M
	[[ $WHO == ours ]] || return 0
	grep 'smcr_fallback: ' $TRACE/trace | tail -n +$((fb0 + 1)) |
		sed 's/^ */# /'
	tap_check "$what, $tag: fell back to TCP with reason $code" \
		test "$(grep 'smcr_fallback: ' $TRACE/trace | tail -n +$((fb0 + 1)) |
			grep -c "$code")" -eq 1
}

# noueid: guest a, then guest b without a user EID
noueid() {
	barrier noueid-a 60
	[[ $WHO == ours ]] && tap_check "smcr ueid flush (ours)" "$SMCR" ueid flush
	# Linux declines our v1-only proposal: no RoCEv1 device on rxe
	declined b 7650 0x03030000 noueid-ours
	# Linux proposes v2 only; we share no EID and have no v1 offer
	declined a 7651 0x03030000 noueid-ours
	[[ $WHO == ours ]] && tap_check "smcr ueid add $EID (ours)" "$SMCR" ueid add $EID
	barrier noueid-b 60
	[[ $WHO == linux ]] && tap_check "smcr ueid flush (linux)" "$SMCR" ueid flush
	# Linux shares no EID with us and has no RoCEv1 device
	declined b 7652 0x03030000 noueid-linux
	# Linux cannot propose at all and declines in lieu of the proposal
	declined a 7653 0x03030000 noueid-linux
	[[ $WHO == linux ]] && tap_check "smcr ueid add $EID (linux)" "$SMCR" ueid add $EID
	barrier noueid-end 60
}

# nodev: guest a, then guest b without its RDMA device (the last phase
# that uses RDMA: b's device does not come back)
nodev() {
	barrier nodev-a 60
	[[ $WHO == ours ]] && tap_check "rdma link delete rxe0 (ours)" rdma link delete rxe0
	# we cannot offer SMC-R and decline in lieu of the proposal
	declined b 7660 0x03030000 nodev-ours
	# Linux's v2 proposal finds no device of ours
	declined a 7661 0x03030002 nodev-ours
	[[ $WHO == ours ]] &&
		tap_check "rdma link add rxe0 (ours)" rdma link add rxe0 type rxe netdev eth0
	barrier nodev-b 60
	[[ $WHO == linux ]] && tap_check "rdma link delete rxe0 (linux)" rdma link delete rxe0
	# Linux finds no device for our v2 offer and reports that first
	declined b 7662 0x03030002 nodev-linux
	# Linux cannot propose and declines in lieu of the proposal
	declined a 7663 0x03030000 nodev-linux
}

# Fallback reasons the decline phases cause, by side and role: the
# decliner's own code, and 0x05000000 (the peer declined) on the other
# side, as Linux counts them
declare -A FBACK=(
	[ours.srv]="0x03030000=1 0x05000000=2 0x03030002=1"
	[ours.clnt]="0x05000000=3 0x03030000=1"
	[linux.srv]="0x03030000=2 0x05000000=1 0x03030002=1"
	[linux.clnt]="0x05000000=2 0x03030000=2"
)
# SMC-Rv2 connections each phase pair makes, in each role: bulk 1, reuse
# 5, close 4, the one after the abort (the aborted one may count too)
V2_CONNS=11

# check_stats: this side's smcr stats against what the phases did
check_stats() {
	local stats=/tmp/mixed.stats r
	"$SMCR" stats >$stats 2>&1
	sed "s/^/# $WHO stats: /" $stats
	for r in srv clnt; do
		tap_check "smcr stats: smcr.$r.v2_success >= $V2_CONNS ($WHO)" \
			python3 "$SHOW" delta /dev/null $stats "smcr.$r.v2_success>=$V2_CONNS"
		# shellcheck disable=SC2086 # one argument a reason
		tap_check "smcr stats: $r fallbacks exactly the declines' (${FBACK[$WHO.$r]}) ($WHO)" \
			python3 "$SHOW" fallbacks $stats $r ${FBACK[$WHO.$r]}
	done
}

# bigrmb SRV: Linux's RMBs of 2 MiB (net.smc.rmem): 6.12 names them with
# an RMBE size code past the RFC's largest, 512 KiB (6.1 stops there);
# ours takes it, and one connection moves 8 MiB each way over SMC-Rv2
bigrmb() {
	local tag v0 fb0
	tag=$(serving "$1")
	if [[ $WHO == ours ]]; then
		v0=$(v2_conns)
		fb0=$(fallbacks)
	else
		tap_check "bigrmb, $tag: net.smc.rmem 2 MiB (linux)" \
			sysctl -qw net.smc.rmem=2097152
	fi
	peer_pair "$1" "bigrmb-$1" "$(port 7690 "$1")" 8M
	if [[ $WHO == linux ]]; then
		tap_check "bigrmb, $tag: net.smc.rmem back to 64 KiB (linux)" \
			sysctl -qw net.smc.rmem=65536
		return 0
	fi
	tap_check "bigrmb, $tag: one SMC-Rv2 connection, no fallback" \
		test $(($(v2_conns) - v0)) -eq 1 -a $(($(fallbacks) - fb0)) -eq 0
}

finish() {
	barrier finish 120
	check_stats
	if [[ $WHO == ours ]]; then
		sleep 2
		tap_check "rmmod smcr" rmmod smcr
	fi
	tap_check "no kernel warning ($WHO)" dmesg_clean
}

setup
for srv in a b; do
	bulk $srv
	reuse $srv
	closing $srv
	abort $srv
done
linger
rkeys
noueid
bigrmb a
bigrmb b
nodev
finish
exit 0
