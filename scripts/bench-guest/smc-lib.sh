#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the SMC-R benchmarks share inside a guest (guest.sh,
# smc-profile.sh): the tools' paths and the swap from our module to
# Linux's smc.ko.

SMCR_TOOL=$SMCR_REPO/build/tools/smcr
# shellcheck disable=SC2034 # for the scripts that source this
SMCR_BENCH=$SMCR_REPO/build/selftests/smc_bench

# linux_smc: our module out, Linux's in, configured for SMC-Rv2
linux_smc() {
	"$SMCR_TOOL" ueid flush
	# closed connections may still wait for their peer's close
	for _ in $(seq 30); do rmmod smcr 2>/dev/null && break; sleep 1; done
	modprobe smc &&
		"$SMCR_TOOL" ueid add SMCR-BENCH &&
		"$SMCR_TOOL" pnet add BENCH eth eth0 &&
		"$SMCR_TOOL" pnet add BENCH ib rxe0 1
}
