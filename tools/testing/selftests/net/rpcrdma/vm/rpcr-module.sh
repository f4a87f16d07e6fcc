#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a
# timeout: 180
#
# Group "rpcr-module": rpcr.ko as a module, one guest, no peer.
#   - its knobs: /proc/sys/sunrpc/rdma_* with Linux's names, defaults and
#     ranges (a value out of range is refused with EINVAL);
#   - it refuses to load beside Linux's rpcrdma, saying why, and loads
#     once that is gone;
#   - installed as `make install` does (an overlay over this kernel's
#     modules, the modprobe.d file), every name the kernel or udev loads
#     sunrpc's RDMA transport by (rpcrdma, rpcrdma6, xprtrdma, svcrdma)
#     loads rpcr.ko and not Linux's rpcrdma.ko.
set -uo pipefail
# shellcheck source=scripts/vm/guest-lib.sh
source "$SMCR_REPO/scripts/vm/guest-lib.sh"

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
	tap_check "rmmod rpcr removes the knobs" \
		bash -c "rmmod rpcr && [[ ! -e $SYS/rdma_max_inline_read ]]"
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
