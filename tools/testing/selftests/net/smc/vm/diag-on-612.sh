#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 540
# kernel-a: 6.12
# kernel-b: 6.12
# suite: by name
#
# Group "diag-on-612": the group "diag" (read its phases in diag.sh)
# with both guests on Linux 6.12 and its own rdma_rxe: our module's
# sock_diag and netlink answers beside those of 6.12's smc.ko.
# scripts/run-tests builds the copy of this tree for 6.12 that the guests
# take their modules, tools and selftests from (build/kernel/).
# shellcheck source=tools/testing/selftests/net/smc/vm/diag.sh
source "$SMCR_REPO/tools/testing/selftests/net/smc/vm/diag.sh"
