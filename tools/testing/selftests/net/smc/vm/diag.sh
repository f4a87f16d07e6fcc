#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 540
#
# Group "diag": sock_diag for AF_SMC and our smcss. Guest b serves, guest
# a connects; smc_diag_peer.py holds the sockets of each side in states
# the test knows (see EXPECT in smc_diag_check.py):
#   ours    our module in both guests, a user EID on both: listeners, an
#           unconnected socket, SMC-Rv2 connections (data both ways, past
#           the end of the RMBE; half-closed by one side, by both), an
#           SMC-R v1 connection over IPv6, fallbacks to TCP (SMC client
#           of a TCP server, TCP client of an SMC server, a server that
#           declines SMC-R). smcss -a -R -D, text and -j, its default
#           and -l views are checked field by field against what the
#           test knows and against the other end; also as an
#           unprivileged user, and what it says with no module loaded;
#           then smcss dumps in a loop while 30 connections come and go
#   linux   Linux's smc.ko and smc_diag.ko in both guests, the same
#           sockets (SMC-Rv2 only: IPv6 and the decline are left out):
#           our smcss reads them just as well, and the raw sock_diag
#           answers of both modules agree field by field
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

KO=$SMCR_REPO/net/smc/smcr.ko
SMCR=$SMCR_REPO/build/tools/smcr
SMCSS=$SMCR_REPO/build/tools/smcss
PY=$SMCR_REPO/tools/testing/selftests/net/smc
CHECK=$PY/smc_diag_check.py
TRACE=/sys/kernel/tracing
EID="SMCR-DIAG"
PORT=7600
if [[ $SMCR_ROLE == a ]]; then OTHER=b; else OTHER=a; fi

# say CMD...: one command to smc_diag_peer.py, a failure line unless it
# answers "ok CMD"
say() {
	local line=''
	echo "$*" >&"${PEER[1]}"
	if read -r -t 60 line <&"${PEER[0]}" && [[ $line == "ok $*" ]]; then
		return 0
	fi
	tap_fail "peer $SMCR_ROLE: $*" "${line:-no answer}" \
		"$("$SMCSS" -a -D 2>&1)" "$(dmesg | tail -n 20)" \
		"$(tail -n 40 "$TRACE/trace" 2>/dev/null)"
	return 1
}

# scenario WHICH: the sockets of vm/diag.sh's scenario, held open; WHICH
# is ours (with IPv6 and a decline) or linux
scenario() {
	local which=$1 role
	FACTS=$SMCR_OUT/diag.facts.$which.$SMCR_ROLE.json
	PFACTS=$SMCR_OUT/diag.facts.$which.$OTHER.json
	if [[ $SMCR_ROLE == b ]]; then role=server; else role=client; fi
	coproc PEER { exec python3 "$PY/smc_diag_peer.py" "$role" \
		--port "$PORT" --host "$SMCR_PEER_IP" --host6 "$SMCR_PEER_IP6" \
		--facts "$FACTS" 2>&1; }

	if [[ $SMCR_ROLE == b ]]; then
		say listen
		barrier "$which-listen" 60
		barrier "$which-connected" 90
		say accept "$PFACTS"
		[[ $which == ours ]] && say accept6 "$PFACTS"
		barrier "$which-d1" 60
		say recv S1 40000
		barrier "$which-d2" 60
		say recv S1 40000
		say send S1 5000
		barrier "$which-d3" 60
		barrier "$which-d4" 60
		say eof S2
		say eof S3
		say shut S3
		barrier "$which-d5" 60
		if [[ $which == ours ]]; then
			say listen-decline
			echo 0 >/sys/module/smcr/parameters/rdma
			barrier "$which-dec1" 60
			barrier "$which-dec2" 60
			say accept-decline "$PFACTS"
			echo 1 >/sys/module/smcr/parameters/rdma
		fi
	else
		barrier "$which-listen" 60
		say connect
		[[ $which == ours ]] && say connect6
		barrier "$which-connected" 90
		say send C1 40000
		barrier "$which-d1" 60
		say send C1 40000
		barrier "$which-d2" 60
		barrier "$which-d3" 60
		say recv C1 5000
		say shut C2
		say shut C3
		barrier "$which-d4" 60
		barrier "$which-d5" 60
		say eof C3
		if [[ $which == ours ]]; then
			barrier "$which-dec1" 60
			say connect-decline
			barrier "$which-dec2" 60
		fi
	fi
	barrier "$which-held" 60
	# CDC messages and send completions settle
	sleep 2
}

# Linux shuts its internal TCP connection down along with the SMC-R one:
# once both ends shut down writing (C3, S3) TCP has closed and its port
# reads 0. Ours keeps the TCP connection until close().
TCP_CLOSED=C3,S3

# check WHICH: smcss and the raw answers while the scenario holds
check() {
	local which=$1 n
	python3 "$CHECK" raw --out "$SMCR_OUT/diag.raw.$which.$SMCR_ROLE.json" 2>&1
	"$SMCSS" -a -R -D -j >"$SMCR_OUT/diag.smcss.$which.$SMCR_ROLE.json"
	barrier "$which-smcss" 60
	python3 "$CHECK" smcss --smcss "$SMCSS" --facts "$FACTS" \
		--role "$SMCR_ROLE" --label "$which" --tcp-closed "$TCP_CLOSED" \
		--peer-json "$SMCR_OUT/diag.smcss.$which.$OTHER.json" \
		--peer-facts "$PFACTS" 2>&1
	n=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["sockets"]))' \
		"$SMCR_OUT/diag.smcss.$which.$SMCR_ROLE.json")
	# shellcheck disable=SC2016 # expanded by the inner shell
	tap_check "smcss -a -j as an unprivileged user: the same $n sockets ($which, $SMCR_ROLE)" \
		bash -c '[[ $(setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$0" -a -R -D -j | grep -c "\"inode\"") == "$1" ]]' "$SMCSS" "$n"
	printf '%s\n' "$("$SMCSS" -a -R -D 2>&1)" | sed 's/^/# /'
}

# churn: 30 SMC-R connections opened, used and closed one after the other
# while smcss dumps every socket with all it can report, again and again:
# every dump ends well and the kernel has nothing to say
churn() {
	local bin=$SMCR_REPO/build/selftests/smc_peer loop fails
	(
		n=0 bad=0
		while [[ ! -e /tmp/diag.churn.stop ]]; do
			"$SMCSS" -a -R -D -j >/dev/null 2>&1 || bad=$((bad + 1))
			n=$((n + 1))
		done
		echo "$n $bad" >/tmp/diag.churn.result
	) &
	loop=$!
	if [[ $SMCR_ROLE == b ]]; then
		"$bin" server --family smc --port 7620 --bytes 256K --count 30 \
			--timeout 150 &
		wait_listen 7620
		barrier churn 60
		wait $! || tap_fail "churn: smc_peer server exit status (b)"
	else
		barrier churn 60
		"$bin" client --family smc --host "$SMCR_PEER_IP" --port 7620 \
			--bytes 256K --count 30 --timeout 150 ||
			tap_fail "churn: smc_peer client exit status (a)"
	fi
	touch /tmp/diag.churn.stop
	wait "$loop"
	read -r loops fails </tmp/diag.churn.result
	if ((loops > 0 && fails == 0)); then
		tap_ok "churn: $loops dumps while connections came and went, all well ($SMCR_ROLE)"
	else
		tap_fail "churn: $loops dumps while connections came and went, $fails failed ($SMCR_ROLE)"
	fi
}

# end: close the scenario's sockets
end() {
	barrier "$1-checked" 90
	say close
	wait "$PEER_PID" 2>/dev/null
}

ours() {
	tap_check "insmod smcr.ko ($SMCR_ROLE)" insmod "$KO" || return 1
	mountpoint -q $TRACE || mount -t tracefs nodev $TRACE
	echo 1 >$TRACE/events/smcr/enable
	tap_check "smcr ueid add $EID ($SMCR_ROLE)" "$SMCR" ueid add "$EID"
	scenario ours
	check ours
	end ours
	churn
	"$SMCR" ueid flush
	barrier ours-closed 60
	# closing connections and idle link groups let go within seconds
	# shellcheck disable=SC2016 # expanded by the inner shell
	tap_check "rmmod smcr ($SMCR_ROLE)" bash -c \
		'for i in $(seq 60); do rmmod smcr 2>/dev/null && exit 0; sleep 1; done; rmmod smcr'

}

no_module() {
	local out rc=0
	out=$("$SMCSS" -a 2>&1) || rc=$?
	if ((rc == 1)) && [[ $out == *"no SMC module is loaded"* ]] &&
		[[ ! -e /sys/module/smc ]]; then
		tap_ok "smcss without a module: says so, loads nothing, exit 1 ($SMCR_ROLE)"
	else
		tap_fail "smcss without a module: says so, loads nothing, exit 1 ($SMCR_ROLE)" \
			"exit status $rc: $out"
	fi
}

linux() {
	tap_check "modprobe smc smc_diag (Linux's) ($SMCR_ROLE)" \
		bash -c 'modprobe smc && modprobe smc_diag' || return 1
	# shellcheck disable=SC2016 # expanded by the inner shell
	tap_check "smcr ueid add $EID, pnet PNET1 eth0 rxe0 1 ($SMCR_ROLE)" \
		bash -c '"$0" ueid add "$1" && "$0" pnet add PNET1 eth eth0 &&
			"$0" pnet add PNET1 ib rxe0 1' "$SMCR" "$EID"
	scenario linux
	check linux
	python3 "$CHECK" compare \
		--ours-raw "$SMCR_OUT/diag.raw.ours.$SMCR_ROLE.json" \
		--ours-facts "$SMCR_OUT/diag.facts.ours.$SMCR_ROLE.json" \
		--linux-raw "$SMCR_OUT/diag.raw.linux.$SMCR_ROLE.json" \
		--linux-facts "$SMCR_OUT/diag.facts.linux.$SMCR_ROLE.json" \
		--tcp-closed "$TCP_CLOSED" 2>&1
	end linux
	"$SMCR" pnet flush
	"$SMCR" ueid flush
	barrier linux-closed 60
	sleep 1
	rmmod smc_diag smc 2>/dev/null
}

ours && no_module
linux
tap_check "no kernel warning ($SMCR_ROLE)" dmesg_clean
exit 0
