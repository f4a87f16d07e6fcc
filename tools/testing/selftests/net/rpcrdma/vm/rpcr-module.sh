#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a
# timeout: 180
#
# Group "rpcr-module": rpcr.ko as a module, one guest, no peer.
#   - its knobs: /proc/sys/sunrpc/rdma_* and /proc/sys/sunrpc/svc_rdma/*
#     with Linux's names, defaults and ranges (a value out of range is
#     refused with EINVAL); the server's counters read 0 and reset when
#     written; ours beside them, the RPC-over-RDMA version (2, or 1)
#     and the peers pinned to version 1 (addresses, checked);
#   - it refuses to load beside Linux's rpcrdma, saying why, and loads
#     once that is gone;
#   - installed as `make install` does (an overlay over this kernel's
#     modules, the modprobe.d file), every name the kernel or udev loads
#     sunrpc's RDMA transport by (rpcrdma, rpcrdma6, xprtrdma, svcrdma)
#     loads rpcr.ko and not Linux's rpcrdma.ko.
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

KO=$SMCR_REPO/net/rpcrdma/rpcr.ko
SYS=/proc/sys/sunrpc

# knob NAME VALUE: /proc/sys/sunrpc/NAME reads VALUE
knob() { [[ $(cat "$SYS/$1") == "$2" ]]; }

# refused NAME VALUE: writing VALUE to the knob fails, and it keeps its value
refused() {
	local old
	old=$(cat "$SYS/$1")
	! echo "$2" 2>/dev/null >"$SYS/$1" && [[ $(cat "$SYS/$1") == "$old" ]]
}

unload() {
	local m
	for m in rpcr rpcrdma; do
		grep -q "^$m " /proc/modules && rmmod "$m"
	done
	return 0
}

# refused2 NAME V1 V2: both values are refused
refused2() { refused "$1" "$2" && refused "$1" "$3"; }

# counter NAME: a counter of the server reads 0, and writing resets it
counter() { knob "$1" 0 && echo 0 >"$SYS/$1" && knob "$1" 0; }

# fixed NAME: a counter Linux keeps only by name: 0, and it stays 0
fixed() { knob "$1" 0 && refused "$1" 1; }

# the server's, in svc_rdma/ as Linux has them
svc_knobs() {
	local n
	tap_check "svc_rdma/max_requests defaults to 64" \
		knob svc_rdma/max_requests 64
	tap_check "svc_rdma/max_req_size defaults to 4096" \
		knob svc_rdma/max_req_size 4096
	tap_check "svc_rdma/max_outbound_read_requests defaults to 16" \
		knob svc_rdma/max_outbound_read_requests 16
	tap_check "svc_rdma/max_requests refuses 3 and 16385" \
		refused2 svc_rdma/max_requests 3 16385
	tap_check "svc_rdma/max_req_size refuses 4095 and 65537" \
		refused2 svc_rdma/max_req_size 4095 65537
	tap_check "svc_rdma/max_outbound_read_requests refuses 0 and 256" \
		refused2 svc_rdma/max_outbound_read_requests 0 256
	for n in read recv write sq_starve; do
		tap_check "svc_rdma/rdma_stat_$n reads 0 and is reset by a write" \
			counter "svc_rdma/rdma_stat_$n"
	done
	for n in rq_starve rq_poll rq_prod sq_poll sq_prod; do
		tap_check "svc_rdma/rdma_stat_$n is 0 and stays 0" \
			fixed "svc_rdma/rdma_stat_$n"
	done
}

knobs() {
	tap_check "insmod rpcr.ko" insmod "$KO"
	tap_check "rdma_slot_table_entries defaults to 32" \
		knob rdma_slot_table_entries 32
	tap_check "rdma_max_inline_read defaults to 4096" \
		knob rdma_max_inline_read 4096
	tap_check "rdma_max_inline_write defaults to 4096" \
		knob rdma_max_inline_write 4096
	tap_check "rdma_memreg_strategy is FRWR (5)" knob rdma_memreg_strategy 5
	tap_check "rdma_max_inline_write takes 1024" \
		bash -c "echo 1024 >$SYS/rdma_max_inline_write && [[ \$(cat $SYS/rdma_max_inline_write) == 1024 ]]"
	tap_check "rdma_max_inline_read refuses 1023 (below RFC 8166's 1024)" \
		refused rdma_max_inline_read 1023
	tap_check "rdma_max_inline_read refuses 65537" \
		refused rdma_max_inline_read 65537
	tap_check "rdma_slot_table_entries refuses 3" \
		refused rdma_slot_table_entries 3
	tap_check "rdma_memreg_strategy refuses 6 (only FRWR)" \
		refused rdma_memreg_strategy 6
	# ours: the RPC-over-RDMA version, 2 or pinned to 1 (the module
	# parameters max_version and svc_max_version are the same knobs)
	tap_check "rdma_max_version and svc_rdma/max_version default to 2" \
		bash -c "[[ \$(cat $SYS/rdma_max_version) == 2 && \$(cat $SYS/svc_rdma/max_version) == 2 ]]"
	tap_check "rdma_max_version refuses 0 and 3" \
		refused2 rdma_max_version 0 3
	tap_check "svc_rdma/max_version refuses 0 and 3" \
		refused2 svc_rdma/max_version 0 3
	tap_check "rdma_max_version takes 1, the module parameter reads it" \
		bash -c "echo 1 >$SYS/rdma_max_version && [[ \$(cat /sys/module/rpcr/parameters/max_version) == 1 ]] && echo 2 >$SYS/rdma_max_version"
	tap_check "rdma_v1_peers is empty, takes IPv4 and IPv6 addresses, the module parameter reads them" \
		bash -c "[[ -z \$(cat $SYS/rdma_v1_peers) ]] && echo '10.0.0.1, fd00::1' >$SYS/rdma_v1_peers && [[ \$(cat /sys/module/rpcr/parameters/v1_peers) == '10.0.0.1, fd00::1' ]]"
	tap_check "rdma_v1_peers refuses what is no address, and keeps its list" \
		bash -c "for v in '10.0.0.1 bogus' 1.2.3 10.0.0.1x 10.0.0.1/24 fd00::1%eth0; do ! echo \$v 2>/dev/null >$SYS/rdma_v1_peers || exit 1; done; [[ \$(cat $SYS/rdma_v1_peers) == '10.0.0.1, fd00::1' ]]"
	tap_check "v1_peers, the module parameter, refuses it too; empty clears the list" \
		bash -c "! echo bogus 2>/dev/null >/sys/module/rpcr/parameters/v1_peers && echo >$SYS/rdma_v1_peers && [[ -z \$(cat /sys/module/rpcr/parameters/v1_peers) ]]"
	svc_knobs
	tap_check "rmmod rpcr removes the knobs" \
		bash -c "rmmod rpcr && [[ ! -e $SYS/rdma_max_inline_read && ! -e $SYS/svc_rdma ]]"
}

beside_linux() {
	local out
	tap_check "modprobe rpcrdma (Linux's)" modprobe rpcrdma
	out=$(insmod "$KO" 2>&1)
	tap_check "insmod rpcr.ko beside Linux's rpcrdma fails" \
		bash -c '! grep -q "^rpcr " /proc/modules'
	tap_check "... and the kernel log says why" \
		bash -c "dmesg | grep -q \"rpcr: sunrpc has an RDMA transport already; unload Linux's rpcrdma first\""
	[[ -n $out ]] && printf '# %s\n' "$out"
	tap_check "rmmod rpcrdma, then insmod rpcr.ko" \
		bash -c "rmmod rpcrdma && insmod '$KO'"
	# Linux's rpcrdma registers its svc_rdma sysctls before it finds
	# the transport taken, and the kernel dumps the stack at the
	# duplicate names: a report of Linux's own, expected here
	console_expect 'sysctl duplicate entry: /sunrpc/svc_rdma/'
	tap_check "... which holds the transport: Linux's rpcrdma cannot load" \
		bash -c '! modprobe rpcrdma 2>/dev/null; ! grep -q "^rpcrdma " /proc/modules'
	unload
}

# autoload: rpcr.ko where modprobe finds it (an overlay over this kernel's
# modules: the host's stay as they are) with the modprobe.d file of make
# install
autoload() {
	local mods up=/run/.rpcr-autoload name
	mods=/lib/modules/$(uname -r)
	mkdir -p $up/upper $up/work
	tap_check "overlay over $mods" mount -t overlay overlay \
		-o "lowerdir=$mods,upperdir=$up/upper,workdir=$up/work" "$mods" ||
		return
	install -D -m 644 "$KO" "$mods/updates/rpcr.ko"
	depmod -a
	install -m 644 "$SMCR_REPO/scripts/modprobe.d/rpcr.conf" /etc/modprobe.d/
	for name in rpcrdma rpcrdma6 xprtrdma svcrdma; do
		modprobe "$name"
		tap_check "modprobe $name loads rpcr.ko" grep -q '^rpcr ' /proc/modules
		tap_check "... and not Linux's rpcrdma.ko" \
			bash -c '! grep -q "^rpcrdma " /proc/modules'
		unload
	done
	rm /etc/modprobe.d/rpcr.conf
	umount "$mods"
}

modprobe -a sunrpc ib_core rdma_cm
unload
knobs
beside_linux
autoload
tap_check "no kernel warning" dmesg_clean
exit 0
