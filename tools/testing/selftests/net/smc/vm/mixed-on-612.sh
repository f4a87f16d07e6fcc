#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 600
# kernel-a: 6.12
# kernel-b: 6.12
# suite: by name
#
# Group "mixed-on-612": the group "mixed" (read its phases in mixed.sh)
# with both guests on Linux 6.12 and its own rdma_rxe: our module
# against 6.12's in-tree smc.ko, each serving in turn, both in SMC
# release 1 (v2.1).
# scripts/run-tests builds the copy of this tree for 6.12 that the guests
# take their modules, tools and selftests from (build/kernel/).
# shellcheck source=tools/testing/selftests/net/smc/vm/mixed.sh
source "$SMCR_REPO/tools/testing/selftests/net/smc/vm/mixed.sh"
