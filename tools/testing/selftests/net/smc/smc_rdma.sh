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

if [[ ${1:-} == --server ]]; then
	exec "$peer" server --family smc --port "$port" --bytes "$bytes" \
		--count "$conns" --timeout 300
fi
[[ -n ${SMC_PEER:-} ]] || skip "SMC_PEER not set (a peer running smc_rdma.sh --server)"

echo "TAP version 13"
echo "1..2"
before=$(successes "$smcr")
if "$peer" client --family smc --host "$SMC_PEER" --port "$port" \
	--bytes "$bytes" --count "$conns" --timeout 300 | sed 's/^/# /'; then
	echo "ok 1 - $conns connections to $SMC_PEER, $bytes each way, data checked"
else
	echo "not ok 1 - $conns connections to $SMC_PEER, $bytes each way, data checked"
	rc=1
fi
n=$(($(successes "$smcr") - before))
if ((n == conns)); then
	echo "ok 2 - all $conns over SMC-R, none fell back to TCP"
else
	echo "not ok 2 - $n of $conns over SMC-R"
	"$smcr" stats | grep -i fallback | sed 's/^/# /'
	rc=1
fi
exit "$rc"
