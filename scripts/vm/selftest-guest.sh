#!/bin/bash
# Guest side of scripts/vm/selftest (same script in both guests): link,
# addresses, Soft-RoCE device, and one RDMA RC exchange over the private link
# (b serves, a connects) with both verbs (ibv_rc_pingpong) and RDMA CM (rping).
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"

has_addr() { ip -o addr show dev eth0 | grep -w "$1" >/dev/null; }

tap_check "hostname is smc${SMCR_ROLE^^}" test "$(hostname)" = "smc${SMCR_ROLE^^}"
tap_check "SMCR_GUEST_SELFTEST_KNOB reaches the guest as SELFTEST_KNOB" \
	test "${SELFTEST_KNOB:-}" = "a b"
tap_check "eth0 has $SMCR_SELF_IP" has_addr "$SMCR_SELF_IP/24"
tap_check "eth0 has $SMCR_SELF_IP6" has_addr "$SMCR_SELF_IP6/64"
tap_check "ping peer $SMCR_PEER_IP" ping -c 2 -W 3 "$SMCR_PEER_IP"
tap_check "ping peer $SMCR_PEER_IP6" ping -6 -c 2 -W 3 "$SMCR_PEER_IP6"
tap_check "rxe0 port 1 ACTIVE" bash -c 'rdma link show rxe0/1 | grep "state ACTIVE"'
tap_check "ibv_devinfo -d rxe0" ibv_devinfo -d rxe0
tap_check "shared dir writable" touch "$SMCR_OUT/selftest.$SMCR_ROLE.touch"

gid=$(rxe_gid_index rxe0 "$SMCR_SELF_IP") || gid=
if [[ -z $gid ]]; then
	tap_fail "RoCEv2 GID of $SMCR_SELF_IP" "$(head /sys/class/infiniband/rxe0/ports/1/gids/* 2>&1)"
	exit 1
fi

# Verbs RC ping-pong (TCP port 18515 only exchanges the QP numbers).
if [[ $SMCR_ROLE == b ]]; then
	timeout 40 ibv_rc_pingpong -d rxe0 -g "$gid" -n 50 >/tmp/pp.out 2>&1 &
	srv=$!
	wait_listen 18515 20
	barrier pingpong-listening
	if wait "$srv"; then tap_ok "ibv_rc_pingpong server"; else tap_fail "ibv_rc_pingpong server"; fi
	sed 's/^/# /' /tmp/pp.out
else
	barrier pingpong-listening
	tap_check "ibv_rc_pingpong client to $SMCR_PEER_IP" \
		timeout 40 ibv_rc_pingpong -d rxe0 -g "$gid" -n 50 "$SMCR_PEER_IP"
fi

# RDMA CM RC ping (rping: connection manager + SEND/RDMA READ/WRITE).
if [[ $SMCR_ROLE == b ]]; then
	timeout 40 rping -s -a "$SMCR_SELF_IP" -p 7174 -C 10 >/tmp/rping.out 2>&1 &
	srv=$!
	wait_rdma_listen 7174 20
	barrier rping-listening
	if wait "$srv"; then tap_ok "rping server"; else tap_fail "rping server"; fi
	sed 's/^/# /' /tmp/rping.out
else
	barrier rping-listening
	tap_check "rping client to $SMCR_PEER_IP" \
		timeout 40 rping -c -a "$SMCR_PEER_IP" -p 7174 -C 10 -v
fi
barrier finished
