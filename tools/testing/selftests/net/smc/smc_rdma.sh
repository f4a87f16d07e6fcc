#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# smc_rdma.sh: SMC-R between this machine and a peer, over an RDMA device:
# connections that must not fall back to TCP, each moving data both ways
# with every byte and the SHA-256 of each direction checked (smc_peer).
#
#   peer:  ./smc_rdma.sh --server         (listens, SMC_PEER_PORT)
#   here:  SMC_PEER=IP ./smc_rdma.sh      (or from `make run_tests`)
#
# Where the kernel has IPPROTO_SMC (6.11 on), the server listens with
# socket(AF_INET, SOCK_STREAM, IPPROTO_SMC) and one more connection comes
# from such a socket; the others are AF_SMC ones. Each end decides by
# itself: both must run kernels alike in that.
#
# Environment: SMC_PEER (the peer's address; no peer: skipped),
# SMC_PEER_PORT (7700), SMC_BYTES (16M each way), SMC_CONNS (3).
# Needs root, AF_SMC (smcr.ko or Linux's smc.ko) and an RDMA device with
# an active port (rdma link add rxe0 type rxe netdev eth0); skipped
# (KSFT_SKIP) without them. smcr (tools/smcr) reads the counters that
# tell SMC-R from a fallback.

set -o pipefail
ksft_skip=4
rc=0
dir=$(dirname "$(readlink -f "$0")")
port=${SMC_PEER_PORT:-7700}
bytes=${SMC_BYTES:-16M}
conns=${SMC_CONNS:-3}

skip() {
	echo "# SKIP: $*"
	exit "$ksft_skip"
}

# find NAME: a program beside this script, in the repository's build
# directories, or on PATH
find_prog() {
	local d
	for d in "$dir" "$dir/../../../../../build/selftests" \
		"$dir/../../../../../build/tools"; do
		[[ -x $d/$1 ]] && { echo "$d/$1"; return; }
	done
	command -v "$1"
}

# successes SMCR: SMC-R client or server handshakes so far
successes() {
	"$1" stats | awk '$1 ~ /^smcr\.(clnt|srv)\.v[12]_success$/ { n += $2 }
		END { print n + 0 }'
}

[[ $(id -u) == 0 ]] || skip "needs root"
python3 -c 'import socket; socket.socket(43, socket.SOCK_STREAM).close()' \
	2>/dev/null || skip "no AF_SMC (load smcr.ko)"
rdma link show 2>/dev/null | grep 'state ACTIVE' >/dev/null ||
	skip "no RDMA device with an active port"
peer=$(find_prog smc_peer) || skip "smc_peer not built (make)"
smcr=$(find_prog smcr) || skip "smcr not found (make -C tools/smcr)"

# socket(AF_INET, SOCK_STREAM, IPPROTO_SMC) works (autoloading the module)
ipproto=0
python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM, 256).close()' \
	2>/dev/null && ipproto=1

if [[ ${1:-} == --server ]]; then
	if ((ipproto)); then
		exec "$peer" server --family ipproto --port "$port" \
			--bytes "$bytes" --count $((conns + 1)) --timeout 300
	fi
	exec "$peer" server --family smc --port "$port" --bytes "$bytes" \
		--count "$conns" --timeout 300
fi
[[ -n ${SMC_PEER:-} ]] || skip "SMC_PEER not set (a peer running smc_rdma.sh --server)"

echo "TAP version 13"
echo "1..$((2 + ipproto))"
before=$(successes "$smcr")
if "$peer" client --family smc --host "$SMC_PEER" --port "$port" \
	--bytes "$bytes" --count "$conns" --timeout 300 | sed 's/^/# /'; then
	echo "ok 1 - $conns connections to $SMC_PEER, $bytes each way, data checked"
else
	echo "not ok 1 - $conns connections to $SMC_PEER, $bytes each way, data checked"
	rc=1
fi
if ((ipproto)); then
	if "$peer" client --family ipproto --host "$SMC_PEER" --port "$port" \
		--bytes "$bytes" --count 1 --first "$conns" --timeout 300 |
		sed 's/^/# /'; then
		echo "ok 2 - an IPPROTO_SMC socket to $SMC_PEER's, $bytes each way, data checked"
	else
		echo "not ok 2 - an IPPROTO_SMC socket to $SMC_PEER's, $bytes each way, data checked"
		rc=1
	fi
	conns=$((conns + 1))
fi
n=$(($(successes "$smcr") - before))
if ((n == conns)); then
	echo "ok $((2 + ipproto)) - all $conns over SMC-R, none fell back to TCP"
else
	echo "not ok $((2 + ipproto)) - $n of $conns over SMC-R"
	"$smcr" stats | grep -i fallback | sed 's/^/# /'
	rc=1
fi
exit "$rc"
