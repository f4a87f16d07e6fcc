#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 420
# kernel-a: 6.12
# kernel-b: 6.12
# suite: by name
#
# Group "api-on-612": the group "api" (read its phases in api.sh) with
# both guests on Linux 6.12 and its own rdma_rxe, where IPPROTO_SMC
# sockets are tested beside AF_SMC ones (on 6.1 those variants skip).
# scripts/run-tests builds the copy of this tree for 6.12 that the guests
# take their modules, tools and selftests from (build/kernel/).
# shellcheck source=tools/testing/selftests/net/smc/vm/api.sh
source "$SMCR_REPO/tools/testing/selftests/net/smc/vm/api.sh"
