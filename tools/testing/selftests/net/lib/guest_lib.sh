# shellcheck shell=bash
# Helpers for the guest groups (tools/testing/selftests/net/*/vm/*.sh),
# which scripts/vm/run-pair runs in its guests.
#   source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
#
# Environment provided by the harness: SMCR_ROLE (a|b), SMCR_SELF_IP,
# SMCR_PEER_IP, SMCR_SELF_IP6, SMCR_PEER_IP6, SMCR_OUT (shared rw dir, same
# path in both guests and on the host), SMCR_REPO, SMCR_KVER, SMCR_NAME, and
# SMCR_PEER_BOOTED (1 if the other guest runs too, 0 in a single-guest group).
#
# Results are TAP lines on stdout ("ok - desc" / "not ok - desc", "# diag").
# The guest's init numbers them as they come, turns the version and plan
# lines of kselftest programs the script runs into comments, and ends the
# script's log with its plan ("1..N"): each guest's log is one numbered
# TAP document. run-pair prefixes the results with the guest role.
#
# A group exits with ksft_skip (4) when the machine lacks what it tests
# (require_rdma); the harness reports that as a skip.
#
# Group scripts run with pipefail: test a pipe with `| grep PATTERN
# >/dev/null`, never `| grep -q`, which exits at the first match and may
# kill the writer with SIGPIPE, failing the whole pipe.

# tap_ok NAME
tap_ok() { printf 'ok - %s\n' "$1"; }

# tap_fail NAME [DIAG...]: each DIAG line is printed as a "# " diagnostic.
tap_fail() {
	printf 'not ok - %s\n' "$1"
	shift
	if (($#)); then printf '%s\n' "$@" | sed 's/^/# /'; fi
	return 0
}

# tap_check NAME CMD [ARGS...]: run CMD, report ok/not ok by its exit status,
# show its output (stdout+stderr) as diagnostics. Returns CMD's status, so
# under `set -e` write `tap_check ... || true` to keep going after a failure.
tap_check() {
	local name=$1 out rc=0
	shift
	out=$("$@" 2>&1) || rc=$?
	if ((rc == 0)); then
		printf 'ok - %s\n' "$name"
	else
		printf 'not ok - %s\n' "$name"
		printf '# exit status %d: %s\n' "$rc" "$*"
	fi
	if [[ -n $out ]]; then printf '%s\n' "$out" | sed 's/^/# /'; fi
	return "$rc"
}

ksft_skip=4

# require_rdma: skip the group (exit ksft_skip) without an RDMA device
require_rdma() {
	if ! rdma link show 2>/dev/null | grep . >/dev/null; then
		echo "# SKIP: no RDMA device (rdma link add rxe0 type rxe netdev eth0)"
		exit "$ksft_skip"
	fi
}

# tscale SECONDS: a time limit stretched for slow kernels: times
# TIME_SCALE, which scripts/run-tests --debug-kernel passes to the guests
# (1 otherwise)
tscale() { echo $(($1 * ${TIME_SCALE:-1})); }

# bscale SIZE: a stream's size (a number with an optional K, M or G)
# cut for slow kernels: divided by SIZE_SCALE, which scripts/run-tests
# --debug-kernel passes to the guests (1 otherwise), rounded up
bscale() {
	local n=${1%[KMG]} d=${SIZE_SCALE:-1}

	echo "$(((n + d - 1) / d))${1#"$n"}"
}

_smcr_peer_role() { if [[ $SMCR_ROLE == a ]]; then echo b; else echo a; fi; }

# barrier NAME [TIMEOUT_S=60]: returns 0 once the other guest has reached the
# barrier of the same NAME (the n-th call with a NAME pairs with the peer's
# n-th call), 1 after TIMEOUT_S (tscale'd). Implemented with marker files in the shared
# dir (mounted cache=none, so the peer's files are seen without delay).
# In a single-guest group it returns at once.
barrier() {
	local name=${1//[^A-Za-z0-9_.-]/_} timeout dir cnt gen peer deadline
	timeout=$(tscale "${2:-60}")
	[[ ${SMCR_PEER_BOOTED:-1} == 1 ]] || return 0
	dir="$SMCR_OUT/.$SMCR_NAME.barrier"
	mkdir -p "$dir"
	# Generation counter kept in guest-local tmpfs.
	cnt="/tmp/.smcr-barrier.$name"
	gen=$(($(cat "$cnt" 2>/dev/null || echo 0) + 1))
	echo "$gen" >"$cnt"
	peer=$(_smcr_peer_role)
	: >"$dir/$name.$gen.$SMCR_ROLE"
	deadline=$((SECONDS + timeout))
	until [[ -e $dir/$name.$gen.$peer ]]; do
		if ((SECONDS >= deadline)); then
			printf '# barrier %s: guest %s did not arrive within %ss\n' \
				"$name" "$peer" "$timeout"
			return 1
		fi
		sleep 0.1
	done
}

# wait_listen PORT [TIMEOUT_S=30]: wait until a local TCP socket listens on
# PORT (use before a barrier that tells the peer to connect).
wait_listen() {
	local port=$1 timeout=${2:-30} deadline=$((SECONDS + ${2:-30}))
	until ss -Hltn "sport = :$port" | grep . >/dev/null; do
		if ((SECONDS >= deadline)); then
			printf '# nothing listens on port %s after %ss\n' "$port" "$timeout"
			return 1
		fi
		sleep 0.1
	done
}

# wait_rdma_listen PORT [TIMEOUT_S=30]: wait until a local RDMA CM id listens
# on PORT (rping -s, rdma_cm servers; these have no TCP socket).
wait_rdma_listen() {
	local port=$1 timeout=${2:-30} deadline=$((SECONDS + ${2:-30}))
	until rdma resource show cm_id 2>/dev/null | grep -Eq "state LISTEN .*:$port( |$)"; do
		if ((SECONDS >= deadline)); then
			printf '# no RDMA CM listener on port %s after %ss\n' "$port" "$timeout"
			rdma resource show cm_id 2>&1 | sed 's/^/# /'
			return 1
		fi
		sleep 0.1
	done
}

# wait_port IP PORT [TIMEOUT_S=30]: wait until a TCP connect to IP:PORT
# succeeds. NOTE: this makes (and closes) a real connection, which a server
# that accepts exactly one client will consume; prefer wait_listen + barrier.
wait_port() {
	local ip=$1 port=$2 timeout=${3:-30} deadline=$((SECONDS + ${3:-30}))
	# shellcheck disable=SC2016 # $0/$1 expand in the inner shell
	until timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$ip" "$port" 2>/dev/null; do
		if ((SECONDS >= deadline)); then
			printf '# %s port %s not reachable after %ss\n' "$ip" "$port" "$timeout"
			return 1
		fi
		sleep 0.2
	done
}

# console_expect REGEX: kernel reports whose first line matches REGEX (an
# awk regex) are provoked on purpose: the harness does not count them, nor
# the stack dump after them, against the console
console_expect() {
	echo "$1" >>"$SMCR_OUT/$SMCR_NAME.$SMCR_ROLE.console-expect"
}

# dmesg_clean: no kernel warning, oops, corruption or hung task in dmesg
dmesg_clean() {
	! dmesg | grep -E 'WARNING:|BUG:|Oops|general protection|refcount_t|UBSAN|KASAN|list_(add|del) corruption|DEBUG_LOCKS_WARN_ON|blocked for more than'
}

# smcr_trace_on: our module's tracepoints on, but the one per CDC message
# (counts of connections, groups and fallbacks need the whole ring)
smcr_trace_on() {
	local t=/sys/kernel/tracing

	mountpoint -q $t || mount -t tracefs nodev $t
	echo 1 >$t/events/smcr/enable
	echo 0 >$t/events/smcr/smcr_cdc/enable
}

# rc_qps: how many RC queue pairs exist (rdma resource)
rc_qps() { rdma resource show qp | grep -c 'type RC'; }

# no_qps SECS: wait up to SECS until no RC queue pair is left (idle link
# groups go after a while)
no_qps() {
	local deadline=$((SECONDS + $1))

	while (($(rc_qps) && SECONDS < deadline)); do
		sleep 0.5
	done
}

# linux_smc_up SMCR_TOOL: Linux's in-tree smc.ko over an rdma_rxe with the
# fixes it needs: on 6.1 the patched one of scripts/vm/build-rxe, on a
# later kernel (6.12 has them) its own; with the PNET entries 6.1 needs
# to pair rxe0 with eth0 (rxe does not name its net device to it). Fails
# when the module does not load.
linux_smc_up() {
	if [[ $(uname -r) == 6.1.* ]]; then
		tap_check "the patched rdma_rxe is loaded" \
			grep -q O /sys/module/rdma_rxe/taint
	else
		tap_check "the kernel's own rdma_rxe is loaded ($(uname -r))" \
			bash -c '! grep -q O /sys/module/rdma_rxe/taint'
	fi
	tap_check "modprobe smc (Linux's)" modprobe smc || return 1
	tap_check "smcr pnet add PNET1 eth eth0" "$1" pnet add PNET1 eth eth0
	tap_check "smcr pnet add PNET1 ib rxe0 1" "$1" pnet add PNET1 ib rxe0 1
}

# rxe_gid_index [DEV=rxe0] [IP=$SMCR_SELF_IP]: print the GID table index of
# the RoCEv2 GID for an IPv4 or IPv6 address (needed by -g of ibv_* tools).
rxe_gid_index() {
	local dev=${1:-rxe0} ip=${2:-$SMCR_SELF_IP} want f
	if [[ $ip == *:* ]]; then
		want=$(python3 -c 'import ipaddress,sys; print(ipaddress.ip_address(sys.argv[1]).exploded)' "$ip")
	else
		local IFS=.
		# shellcheck disable=SC2086 # split the dotted quad on purpose
		set -- $ip
		want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$1" "$2" "$3" "$4")
	fi
	for f in /sys/class/infiniband/"$dev"/ports/1/gids/*; do
		if [[ $(cat "$f" 2>/dev/null) == "$want" ]]; then
			echo "${f##*/}"
			return 0
		fi
	done
	return 1
}
