#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 720
# kernel-a: 6.12
# kernel-b: 6.1
# suite: by name
#
# Group "mixed-612": the phases of mixed.sh (read them there) between
# two kernels: our module built for Linux 6.12 in guest a, on that
# kernel's own rdma_rxe, against Linux 6.1's in-tree smc.ko in guest b,
# on the rxe build-rxe patches. Our module speaks SMC release 1 (v2.1)
# there and Linux 6.1 release 0: every phase runs in both roles, so the
# first contacts negotiate down to release 0 whichever side serves.
# scripts/run-tests builds the copy of this tree for 6.12 that guest a
# takes its modules, tools and selftests from (build/kernel/). Not in
# the whole suite, which takes most of CI's 90 minutes on its own:
# scripts/run-tests mixed-612 (about 5 minutes, plus the 6.12 build).
# shellcheck source=tools/testing/selftests/net/smc/vm/mixed.sh
source "$SMCR_REPO/tools/testing/selftests/net/smc/vm/mixed.sh"
