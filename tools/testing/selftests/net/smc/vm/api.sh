#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 300
# Group "api": one run-pair invocation, the same script in both guests
# (it switches on $SMCR_ROLE):
#   scripts/vm/run-pair -n api -t 300 \
#       tools/testing/selftests/net/smc/vm/api.sh \
#       tools/testing/selftests/net/smc/vm/api.sh
# Guest a: smc_api (loopback, IPv4 + IPv6) and smc_wire --mode
#          loopback / tcp-server / tcp-client (IPv4 + IPv6) on our module.
# Guest b: module lifetime: rmmod while sockets are open fails with "in use",
#          succeeds after they are closed, no SMCR line left, reload works,
#          load fails cleanly while Linux's smc.ko holds AF_SMC.
# Needs: make -C tools/testing/selftests/net/smc, make -C tools/smc_run,
#        make -C . (net/smc/smcr.ko).
set -uo pipefail
# shellcheck source=scripts/vm/guest-lib.sh
source "$SMCR_REPO/scripts/vm/guest-lib.sh"

BIN=$SMCR_REPO/build/selftests
KO=$SMCR_REPO/net/smc/smcr.ko
SMC_RUN=$SMCR_REPO/tools/smc_run/smc_run

# console/dmesg must not show a kernel warning
dmesg_clean() {
	! dmesg | grep -E 'WARNING:|BUG:|Oops|general protection|refcount_t|UBSAN|KASAN|list_(add|del) corruption'
}

smcr_line() { grep -E '^SMCR ' /proc/net/protocols; }
smcr_sockets() { awk '$1 == "SMCR" { print $3 }' /proc/net/protocols; }
tcp_inuse() { awk '$1 == "TCP:" { print $3 }' /proc/net/sockstat; }

guest_a() {
	local rc fam v6
	tap_check "insmod smcr.ko" insmod "$KO" || return 1
	echo "# smc_api: kselftest output follows"
	"$BIN/smc_api"
	rc=$?
	if ((rc == 0)); then tap_ok "smc_api"; else tap_fail "smc_api" "exit status $rc"; fi
	for fam in ipv4 ipv6; do
		v6=
		[[ $fam == ipv6 ]] && v6=--ipv6
		"$BIN/smc_wire" --mode loopback $v6 --expect-decline 0x03030002
		"$BIN/smc_wire" --mode tcp-server $v6
		"$BIN/smc_wire" --mode tcp-client $v6
	done
	tap_check "smcr sockets back to 0 after the tests (now $(smcr_sockets))" \
		test "$(smcr_sockets)" = 0
	tap_check "rmmod smcr after the tests" rmmod smcr
	tap_check "no kernel warning (guest a)" dmesg_clean
}

# wait until "rmmod smcr" succeeds (socket release may be deferred)
rmmod_retry() {
	local i
	for ((i = 0; i < 50; i++)); do
		rmmod smcr 2>/dev/null && return 0
		sleep 0.2
	done
	rmmod smcr
}

guest_b() {
	local inuse0 port=7600 srv nc out rc n
	inuse0=$(tcp_inuse)
	tap_check "insmod smcr.ko" insmod "$KO" || return 1
	tap_check "/proc/net/protocols has an SMCR line" smcr_line
	# a process holding a listening and an accepted AF_SMC socket, and a
	# second one holding a connected AF_SMC client socket
	"$BIN/smc_peer" server --family smc --echo --port "$port" >/tmp/echo.out 2>&1 &
	srv=$!
	wait_listen "$port" 20
	SMC_DEBUG=1 "$SMC_RUN" socat -u "TCP:127.0.0.1:$port" - >/dev/null 2>/tmp/socat.err &
	nc=$!
	for ((n = 0; n < 50; n++)); do
		[[ $(smcr_sockets) -ge 3 ]] && break
		sleep 0.2
	done
	tap_check "3 AF_SMC sockets open (listen, accepted, smc_run socat client)" \
		test "$(smcr_sockets)" -ge 3
	sed 's/^/# /' /tmp/socat.err
	tap_check "smc_run converted socat's socket" grep -q -- '-> AF_SMC' /tmp/socat.err
	out=$(rmmod smcr 2>&1)
	rc=$?
	if ((rc != 0)) && grep -qi 'in use' <<<"$out"; then
		tap_ok "rmmod smcr with open sockets fails: in use"
	else
		tap_fail "rmmod smcr with open sockets fails: in use" "rc=$rc: $out"
	fi
	echo "# $out"
	tap_check "module still loaded" grep -q '^smcr ' /proc/modules
	tap_check "no kernel warning after the refused rmmod" dmesg_clean
	kill "$srv" "$nc" 2>/dev/null
	wait "$srv" "$nc" 2>/dev/null
	tap_check "rmmod smcr after the processes exit" rmmod_retry
	tap_check "/proc/net/protocols has no SMCR line" bash -c '! grep -q "^SMCR " /proc/net/protocols'
	for ((n = 0; n < 50; n++)); do
		(($(tcp_inuse) <= inuse0)) && break
		sleep 0.2
	done
	tap_check "sockstat TCP inuse back to baseline $inuse0 (now $(tcp_inuse))" \
		test "$(tcp_inuse)" -le "$inuse0"
	tap_check "insmod smcr.ko again" insmod "$KO"
	tap_check "smcr sockets column is 0" test "$(smcr_sockets)" = 0
	tap_check "rmmod smcr again" rmmod smcr
	# Linux's smc.ko owns AF_SMC: loading ours must fail cleanly
	if tap_check "modprobe smc (Linux's)" modprobe smc; then
		n=$(dmesg | wc -l)
		out=$(insmod "$KO" 2>&1)
		rc=$?
		if ((rc != 0)); then
			tap_ok "insmod smcr.ko fails while smc.ko is loaded"
		else
			tap_fail "insmod smcr.ko fails while smc.ko is loaded" "it loaded"
			rmmod smcr
		fi
		echo "# insmod: $out"
		dmesg | tail -n +"$((n + 1))" | sed 's/^/# dmesg: /'
		tap_check "dmesg explains it (mentions AF_SMC)" \
			bash -c "dmesg | tail -n +$((n + 1)) | grep -q AF_SMC"
		tap_check "smcr not in /proc/modules" bash -c '! grep -q "^smcr " /proc/modules'
		tap_check "rmmod smc" rmmod smc
		tap_check "insmod smcr.ko after smc.ko is gone" insmod "$KO"
		tap_check "rmmod smcr" rmmod smcr
	fi
	tap_check "no kernel warning (guest b)" dmesg_clean
}

if [[ $SMCR_ROLE == a ]]; then guest_a; else guest_b; fi
exit 0
