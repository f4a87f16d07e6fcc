#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 240
#
# Group "intree": Linux's own smc.ko in both guests, over the rxe that
# scripts/vm/build-rxe patches, configured with our tools/smcr (UEID and
# PNET table over generic netlink). It must run SMC-R (v2 over RoCEv2):
# the reference the interop tests of our module measure against.
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

SMCR=$SMCR_REPO/build/tools/smcr
PEER=$SMCR_REPO/build/selftests/smc_peer

# value KEY TEXT: the value of KEY in TEXT's "key value" lines
value() { awk -v k="$1" '$1 == k { print $2; exit }' <<<"$2"; }

# has_block TEXT LINE...: one of TEXT's blocks (separated by blank lines)
# has each LINE
has_block() {
	local text=$1
	shift
	WANT=$(printf '%s\n' "$@") awk -v RS= -v FS='\n' '
		BEGIN { n = split(ENVIRON["WANT"], w, "\n") - 1 }
		{
			hit = 0
			for (i = 1; i <= n; i++)
				for (j = 1; j <= NF; j++)
					if ($j == w[i]) { hit++; break }
			if (hit == n) found = 1
		}
		END { exit !found }' <<<"$text"
}

# no_fallback TEXT: smcr stats counted no fallback to TCP, for no reason
no_fallback() {
	[[ $(value fallback.srv.total "$1") == 0 &&
		$(value fallback.clnt.total "$1") == 0 ]] &&
		! grep -q '^fallback\.[a-z]*\.0x' <<<"$1"
}

# json_agrees CMD: "smcr CMD -j" is JSON with the keys and values of the
# text output, object by object
json_agrees() {
	python3 - "$SMCR" "$1" <<-'EOF'
	import json, subprocess, sys
	def smcr(*args):
	    return subprocess.run([sys.argv[1], sys.argv[2], *args], check=True,
	                          capture_output=True, text=True).stdout
	text, doc = smcr(), json.loads(smcr('-j'))
	objs = next(iter(doc.values())) if sys.argv[2] != 'stats' else [doc]
	blocks = [dict(line.partition(' ')[::2] for line in b.splitlines())
	          for b in text.split('\n\n') if b.strip()]
	got = [{k: str(v) for k, v in o.items()} for o in objs]
	sys.exit(0 if got == blocks else 'json %s\ntext %s' % (got, blocks))
	EOF
}

# smcr_show NAME VAR CMD...: run smcr CMD into VAR, a result line for it,
# its output as diagnostics
smcr_show() {
	local name=$1 var=$2 out rc=0
	shift 2
	out=$("$SMCR" "$@" 2>&1) || rc=$?
	printf -v "$var" '%s' "$out"
	if ((rc == 0)); then tap_ok "$name"; else tap_fail "$name" "exit status $rc"; fi
	printf '%s\n' "$out" | sed 's/^/# /'
}

# transfer NAME PORT FAMILY BYTES: guest b serves PORT over FAMILY (smc or
# tcp); once it listens, guest a connects over SMC; BYTES each way
transfer() {
	local name=$1 port=$2 family=$3 bytes=$4
	if [[ $SMCR_ROLE == b ]]; then
		"$PEER" server --family "$family" --port "$port" --bytes "$bytes" \
			--timeout 90 &
		wait_listen "$port"
		barrier "$name" 60
		wait $! || tap_fail "smc_peer server exit status ($name)"
	else
		barrier "$name" 60
		"$PEER" client --family smc --host "$SMCR_PEER_IP" --port "$port" \
			--bytes "$bytes" --timeout 90
	fi
}

tcp_segs() { nstat -az TcpOutSegs | awk '$1 == "TcpOutSegs" { print $2 }'; }
rxe_pkts() { cat /sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts; }

linux_smc_up "$SMCR" || exit 0
tap_check "smcr ueid add" "$SMCR" ueid add SMCR-INTEROP
tap_check "smcr rejects an EID with lower case" bash -c "! $SMCR ueid add bad-eid"

segs0=$(tcp_segs)
pkts0=$(rxe_pkts)
transfer go 7000 smc 16M
segs=$(($(tcp_segs) - segs0))
pkts=$(($(rxe_pkts) - pkts0))
echo "# in-tree pair ($SMCR_ROLE): $segs TCP segments, $pkts RoCE packets"
if ((pkts > 16384 && segs < 100)); then
	tap_ok "Linux's SMC-R carried the data, not TCP ($SMCR_ROLE)"
else
	tap_fail "Linux's SMC-R carried the data, not TCP ($SMCR_ROLE)"
fi

# What Linux's counters, link groups and links say of it: b served, a
# connected; the link group outlives the connection by minutes
if [[ $SMCR_ROLE == b ]]; then R=srv ROLE=server; else R=clnt ROLE=client; fi
stats='' lgrs='' links='' # set by smcr_show
smcr_show "smcr stats ($SMCR_ROLE)" stats stats
tap_check "smcr stats: smcr.$R.v2_success >= 1 ($SMCR_ROLE)" \
	test "$(value "smcr.$R.v2_success" "$stats")" -ge 1
tap_check "smcr stats: no fallback to TCP ($SMCR_ROLE)" no_fallback "$stats"
smcr_show "smcr linkgroup ($SMCR_ROLE)" lgrs linkgroup
tap_check "smcr linkgroup: an SMC-Rv2 group, $ROLE, with the EID ($SMCR_ROLE)" \
	has_block "$lgrs" "role $ROLE" "version 2" "eid SMCR-INTEROP" "peer_os linux"
smcr_show "smcr link ($SMCR_ROLE)" links link
tap_check "smcr link: exactly one link ($SMCR_ROLE)" \
	bash -c '(($(grep -c "^id " <<<"$0") == 1))' "$links"
tap_check "smcr link: active, on rxe0 port 1, in that group ($SMCR_ROLE)" \
	has_block "$links" "state active" "ib_dev rxe0" "ib_port 1" \
	"lgr $(value id "$lgrs")"
for cmd in stats linkgroup link; do
	tap_check "smcr $cmd -j: the same keys and values ($SMCR_ROLE)" json_agrees $cmd
	tap_check "smcr $cmd as an unprivileged user ($SMCR_ROLE)" bash -c \
		'setpriv --reuid=65534 --regid=65534 --clear-groups "$0" "$1" >/dev/null' \
		"$SMCR" $cmd
done
printf '%s\n' "$links" >"$SMCR_OUT/intree.link.$SMCR_ROLE"
barrier links 60
peer=$(cat "$SMCR_OUT/intree.link.$([[ $SMCR_ROLE == a ]] && echo b || echo a)")
tap_check "smcr link: the peer's peer_gid is this gid ($SMCR_ROLE)" \
	test "$(value gid "$links")" == "$(value peer_gid "$peer")"

# An SMC client of a plain TCP server falls back: the peer did not offer
# SMC (0x03010000), as the fallback reasons say
transfer fallback 7001 tcp 64K
if [[ $SMCR_ROLE == a ]]; then
	smcr_show "smcr stats after a fallback (a)" stats stats
	tap_check "smcr stats: one client fallback, peer without SMC (a)" \
		has_block "$stats" "fallback.clnt.total 1" \
		"fallback.clnt.0x03010000 1" "fallback.srv.total 0"
	tap_check "smcr stats -j: the same keys and values after a fallback (a)" \
		json_agrees stats
fi
barrier end 60
tap_check "smcr pnet flush" "$SMCR" pnet flush
tap_check "smcr ueid del" "$SMCR" ueid del SMCR-INTEROP
exit 0
