#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2317 # functions run through tap_check
# guests: a b
# timeout: 420
# Group "api": one run-pair invocation, the same script in both guests
# (it switches on $SMCR_ROLE):
#   scripts/vm/run-pair -n api -t 300 \
#       tools/testing/selftests/net/smc/vm/api.sh \
#       tools/testing/selftests/net/smc/vm/api.sh
# Guest a: `make run_tests` of the selftests directory (kselftest's
#          runner): smc_api (loopback, IPv4 + IPv6) and smc_rdma.sh
#          (SMC-R to guest b's smc_rdma.sh --server); smc_wire --mode
#          loopback / tcp-server / tcp-client (IPv4 + IPv6) on our module;
#          where the kernel has IPPROTO_SMC, smc_api's IPPROTO_SMC variants,
#          one IPPROTO_SMC connection in smc_rdma.sh and smc_ipproto.py
#          (such sockets in sock_diag and smcss);
#          the SMC_GEN_NETLINK family: tools/smcr (ueid, info, seid) and
#          smc_genl.py (raw and malformed requests), permissions, a dump
#          in progress pinning the module, unload with a UEID configured.
# Guest b: module lifetime: rmmod while sockets are open fails with "in use",
#          succeeds after they are closed, no SMCR line left, reload works,
#          load fails cleanly while Linux's smc.ko holds AF_SMC; installed
#          with the modprobe.d file of make install, smcr.ko is what a
#          socket(AF_SMC), smcr or smcss loads on demand, not Linux's.
# Needs: make -C tools/testing/selftests/net/smc, make -C tools/smc_run,
#        make -C tools/smcr, make -C . (net/smc/smcr.ko).
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

BIN=$SMCR_REPO/build/selftests
KO=$SMCR_REPO/net/smc/smcr.ko
SMC_RUN=$SMCR_REPO/tools/smc_run/smc_run
SMCR=$SMCR_REPO/build/tools/smcr
GENL=$SMCR_REPO/tools/testing/selftests/net/smc/smc_genl.py

smcr_line() { grep -E '^SMCR ' /proc/net/protocols; }
# sockets of our protos: SMCR, and SMCR-INET(6) where IPPROTO_SMC is
smcr_sockets() { awk '$1 ~ /^SMCR(-INET6?)?$/ { n += $3 } END { print n + 0 }' /proc/net/protocols; }
tcp_inuse() { awk '$1 == "TCP:" { print $3 }' /proc/net/sockstat; }

# smcr ARGS... as an unprivileged user
smcr_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$SMCR" "$@"; }

# fails_with ERRNO CMD...: CMD fails, its message names ERRNO
fails_with() {
	local want=$1 out
	shift
	if out=$("$@" 2>&1); then
		echo "succeeded: $out"
		return 1
	fi
	echo "$out"
	grep -q "($want)" <<<"$out"
}

# expect_fail ERRNO ARGS...: "smcr ARGS..." fails and names ERRNO
expect_fail() { fails_with "$1" "$SMCR" "${@:2}"; }

# the generic netlink family is listed (a dump: no module autoload)
# the whole list first: grep -q leaving early would make genl die of SIGPIPE
family_listed() { grep -q 'Name: SMC_GEN_NETLINK$' <<<"$(genl ctrl list)"; }

# has_lines TEXT LINE...: TEXT has each LINE
has_lines() {
	local text=$1 l
	shift
	for l in "$@"; do
		grep -qxF -- "$l" <<<"$text" || { echo "no line '$l'"; return 1; }
	done
}

# no_line TEXT REGEX: no line of TEXT matches REGEX
no_line() { ! grep -q -- "$2" <<<"$1"; }

# expect_show EID...: "smcr ueid show" prints exactly these lines
expect_show() {
	local want got
	want=$(printf '%s\n' "$@")
	got=$("$SMCR" ueid show) || return 1
	echo "$got"
	[[ $got == "${want%$'\n'}" ]]
}

# SMC_GEN_NETLINK of our module (loaded, table empty); leaves one UEID
netlink_tests() {
	local out pid rc hold bad rel=0
	tap_check "SMC_GEN_NETLINK is registered" family_listed
	out=$("$SMCR" info 2>&1)
	printf '# %s\n' "${out//$'\n'/$'\n'# }"
	tap_check "smcr info: version 2" has_lines "$out" 'version: 2'
	# the release the kernel's own smc.ko has (SMC v2.1 on 6.12)
	grep -qs SMC_NLA_LGR_R_V2_MAX_CONNS \
		"/lib/modules/$(uname -r)/source/include/uapi/linux/smc.h" && rel=1
	tap_check "smcr info: release $rel, smcr_v2 1, ism_v2 0" \
		has_lines "$out" "release: $rel" 'smcr_v2: 1' 'ism_v2: 0'
	tap_check "smcr info: no seid line" no_line "$out" '^seid:'
	tap_check "smcr info: hostname $(uname -n)" \
		has_lines "$out" "hostname: $(uname -n | cut -c1-32)"
	tap_check "smcr info as an unprivileged user" smcr_nobody info
	tap_check "smcr seid show: none" bash -c "[[ \$('$SMCR' seid show) == 'seid: none' ]]"
	tap_check "smcr seid enable fails: EOPNOTSUPP" expect_fail EOPNOTSUPP seid enable
	tap_check "smcr seid disable fails: EOPNOTSUPP" expect_fail EOPNOTSUPP seid disable
	tap_check "smcr ueid show: empty table" expect_show
	tap_check "smcr ueid add SMCR-EID.1" "$SMCR" ueid add SMCR-EID.1
	tap_check "smcr ueid add 0ABCDEFGHIJKLMNOPQRSTUVWXYZ-.123 (32 characters)" \
		"$SMCR" ueid add 0ABCDEFGHIJKLMNOPQRSTUVWXYZ-.123
	tap_check "smcr ueid add rejects a duplicate: EEXIST" \
		expect_fail EEXIST ueid add SMCR-EID.1
	for bad in smcr-eid .EID -EID 'A B' A_B A/B 'A*' ' A'; do
		tap_check "smcr ueid add '$bad' fails: EINVAL" expect_fail EINVAL ueid add "$bad"
	done
	tap_check "smcr ueid add '' fails: EINVAL" expect_fail EINVAL ueid add ''
	tap_check "smcr ueid add of 33 characters fails: EINVAL" \
		expect_fail EINVAL ueid add 0ABCDEFGHIJKLMNOPQRSTUVWXYZ-.1234
	tap_check "smcr ueid add as an unprivileged user fails: EPERM" \
		fails_with EPERM smcr_nobody ueid add NOBODY
	tap_check "smcr ueid show as an unprivileged user" smcr_nobody ueid show
	tap_check "smcr ueid add 3" "$SMCR" ueid add 3
	tap_check "smcr ueid add LAST" "$SMCR" ueid add LAST
	tap_check "smcr ueid add of a fifth fails: ERANGE" expect_fail ERANGE ueid add FIFTH
	tap_check "smcr ueid show: four, in order" \
		expect_show SMCR-EID.1 0ABCDEFGHIJKLMNOPQRSTUVWXYZ-.123 3 LAST
	tap_check "smcr ueid del of an unknown EID fails: ENOENT" expect_fail ENOENT ueid del NOPE
	tap_check "smcr ueid del SMCR-EID.1" "$SMCR" ueid del SMCR-EID.1
	tap_check "smcr ueid show: three left, in order" \
		expect_show 0ABCDEFGHIJKLMNOPQRSTUVWXYZ-.123 3 LAST
	tap_check "smcr ueid del SMCR-EID.1 again fails: ENOENT" \
		expect_fail ENOENT ueid del SMCR-EID.1
	tap_check "smcr ueid flush as an unprivileged user fails: EPERM" \
		fails_with EPERM smcr_nobody ueid flush
	tap_check "smcr ueid flush" "$SMCR" ueid flush
	tap_check "smcr ueid show: empty after flush" expect_show
	echo "# smc_genl.py: raw requests, malformed ones too"
	python3 "$GENL" --group "smc_genl"
	# a dump in progress holds the module until its socket closes
	rm -f /tmp/hold.in /tmp/hold.out
	mkfifo /tmp/hold.in
	python3 "$GENL" --hold-dump </tmp/hold.in >/tmp/hold.out 2>&1 &
	pid=$!
	exec {hold}>/tmp/hold.in
	for ((rc = 0; rc < 100; rc++)); do
		grep -q held /tmp/hold.out && break
		sleep 0.2
	done
	tap_check "a dump is left unfinished" grep -q held /tmp/hold.out
	out=$(rmmod smcr 2>&1)
	rc=$?
	echo "# $out"
	if ((rc != 0)) && grep -qi 'in use' <<<"$out"; then
		tap_ok "rmmod smcr during an unfinished dump fails: in use"
	else
		tap_fail "rmmod smcr during an unfinished dump fails: in use" "rc=$rc: $out"
		insmod "$KO"
	fi
	exec {hold}>&-
	wait "$pid"
	tap_check "the process of the unfinished dump exits ($?)" test "$?" = 0
	tap_check "smcr ueid add KEPT (left for the unload)" "$SMCR" ueid add KEPT
}

guest_a() {
	local rc fam v6
	tap_check "insmod smcr.ko" insmod "$KO" || return 1
	# the selftests as kselftest's runner runs them: smc_api, and
	# smc_rdma.sh against guest b's smc_rdma.sh --server
	barrier ksft-server 120
	echo "# make run_tests: kselftest output follows"
	SMC_PEER=$SMCR_PEER_IP make -s -C "$SMCR_REPO/tools/testing/selftests/net/smc" run_tests
	rc=$?
	if ((rc == 0)); then tap_ok "make run_tests"; else tap_fail "make run_tests" "exit status $rc"; fi
	for fam in ipv4 ipv6; do
		v6=
		[[ $fam == ipv6 ]] && v6=--ipv6
		"$BIN/smc_wire" --mode loopback $v6 --expect-decline 0x03030000
		"$BIN/smc_wire" --mode tcp-server $v6
		"$BIN/smc_wire" --mode tcp-client $v6
	done
	# IPPROTO_SMC sockets (6.11 on) in sock_diag and smcss
	if grep -q 'IPPROTO_SMC = 256' "/lib/modules/$(uname -r)/source/include/uapi/linux/in.h"; then
		python3 "$SMCR_REPO/tools/testing/selftests/net/smc/smc_ipproto.py" \
			--smcss "$SMCR_REPO/build/tools/smcss"
	fi
	netlink_tests
	tap_check "smcr sockets back to 0 after the tests (now $(smcr_sockets))" \
		test "$(smcr_sockets)" = 0
	tap_check "rmmod smcr after the tests (a UEID configured)" rmmod smcr
	tap_check "SMC_GEN_NETLINK is gone with the module" bash -c '! genl ctrl list | grep -q SMC_GEN_NETLINK'
	tap_check "insmod smcr.ko again" insmod "$KO"
	tap_check "smcr ueid show: the new module starts empty" expect_show
	tap_check "rmmod smcr" rmmod smcr
	tap_check "smc.ko was never loaded" bash -c '! grep -q "^smc " /proc/modules'
	tap_check "no kernel warning (guest a)" dmesg_clean
}

# wait until "rmmod smcr" succeeds (socket release may be deferred)
rmmod_retry() {
	local i
	for ((i = 0; i < 50; i++)); do
		rmmod smcr 2>/dev/null && return 0
		sleep 0.2
	done
	rmmod smcr
}

# the peer of guest a's smc_rdma.sh (make run_tests)
ksft_server() {
	local srv
	tap_check "insmod smcr.ko (smc_rdma.sh --server)" insmod "$KO" || return 1
	"$SMCR_REPO/tools/testing/selftests/net/smc/smc_rdma.sh" --server \
		>/tmp/ksft-server.out 2>&1 &
	srv=$!
	wait_listen 7700 20
	barrier ksft-server 120
	wait "$srv"
	tap_check "smc_rdma.sh --server: its connections, data checked ($?)" test "$?" = 0
	sed 's/^/# /' /tmp/ksft-server.out
	tap_check "rmmod smcr (smc_rdma.sh --server)" rmmod_retry
}

guest_b() {
	local inuse0 port=7600 srv nc out rc n
	ksft_server
	inuse0=$(tcp_inuse)
	tap_check "insmod smcr.ko" insmod "$KO" || return 1
	tap_check "/proc/net/protocols has an SMCR line" smcr_line
	# a process holding a listening and an accepted AF_SMC socket, and a
	# second one holding a connected AF_SMC client socket
	"$BIN/smc_peer" server --family smc --echo --port "$port" >/tmp/echo.out 2>&1 &
	srv=$!
	wait_listen "$port" 20
	SMC_DEBUG=1 "$SMC_RUN" socat -u "TCP:127.0.0.1:$port" - >/dev/null 2>/tmp/socat.err &
	nc=$!
	for ((n = 0; n < 50; n++)); do
		[[ $(smcr_sockets) -ge 3 ]] && break
		sleep 0.2
	done
	tap_check "3 AF_SMC sockets open (listen, accepted, smc_run socat client)" \
		test "$(smcr_sockets)" -ge 3
	sed 's/^/# /' /tmp/socat.err
	tap_check "smc_run converted socat's socket" grep -q -- '-> AF_SMC' /tmp/socat.err
	out=$(rmmod smcr 2>&1)
	rc=$?
	if ((rc != 0)) && grep -qi 'in use' <<<"$out"; then
		tap_ok "rmmod smcr with open sockets fails: in use"
	else
		tap_fail "rmmod smcr with open sockets fails: in use" "rc=$rc: $out"
	fi
	echo "# $out"
	tap_check "module still loaded" grep -q '^smcr ' /proc/modules
	tap_check "no kernel warning after the refused rmmod" dmesg_clean
	kill "$srv" "$nc" 2>/dev/null
	wait "$srv" "$nc" 2>/dev/null
	tap_check "rmmod smcr after the processes exit" rmmod_retry
	tap_check "/proc/net/protocols has no SMCR line" bash -c '! grep -q "^SMCR" /proc/net/protocols'
	for ((n = 0; n < 50; n++)); do
		(($(tcp_inuse) <= inuse0)) && break
		sleep 0.2
	done
	tap_check "sockstat TCP inuse back to baseline $inuse0 (now $(tcp_inuse))" \
		test "$(tcp_inuse)" -le "$inuse0"
	tap_check "insmod smcr.ko again" insmod "$KO"
	tap_check "smcr sockets column is 0" test "$(smcr_sockets)" = 0
	tap_check "rmmod smcr again" rmmod smcr
	# Linux's smc.ko owns AF_SMC: loading ours must fail cleanly
	if tap_check "modprobe smc (Linux's)" modprobe smc; then
		n=$(dmesg | wc -l)
		out=$(insmod "$KO" 2>&1)
		rc=$?
		if ((rc != 0)); then
			tap_ok "insmod smcr.ko fails while smc.ko is loaded"
		else
			tap_fail "insmod smcr.ko fails while smc.ko is loaded" "it loaded"
			rmmod smcr
		fi
		echo "# insmod: $out"
		dmesg | tail -n +"$((n + 1))" | sed 's/^/# dmesg: /'
		tap_check "dmesg explains it (mentions AF_SMC)" \
			bash -c "dmesg | tail -n +$((n + 1)) | grep -q AF_SMC"
		tap_check "smcr not in /proc/modules" bash -c '! grep -q "^smcr " /proc/modules'
		tap_check "rmmod smc" rmmod smc
		tap_check "insmod smcr.ko after smc.ko is gone" insmod "$KO"
		tap_check "rmmod smcr" rmmod smcr
	fi
	autoload
	tap_check "no kernel warning (guest b)" dmesg_clean
}

# diag_request: a sock_diag dump of AF_SMC sockets, as IBM's smcss sends
# it (ours sends nothing without a module, see smcss.8)
diag_request() {
	python3 -c 'import socket, struct
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 4)
req = struct.pack("=BBBB", 43, 0, 0, 0) + bytes(48)
s.send(struct.pack("=IHHII", 16 + len(req), 20, 0x301, 1, 0) + req)
s.recv(65536)'
}

# loaded_only WHAT: smcr came on demand and Linux's smc.ko did not; unload
loaded_only() {
	tap_check "$1 loads smcr.ko on demand" grep -q '^smcr ' /proc/modules
	tap_check "... and not Linux's smc.ko or smc_diag.ko" \
		bash -c '! grep -Eq "^smc(_diag)? " /proc/modules'
	rmmod_retry
}

# autoload: smcr.ko installed where modprobe finds it (an overlay over this
# kernel's modules: the host's stay as they are), with the modprobe.d file
# of `make install`: whatever makes the kernel ask for AF_SMC, its netlink
# families or its sock_diag gets ours
autoload() {
	local mods up=/run/.smcr-autoload
	mods=/lib/modules/$(uname -r)
	mkdir -p $up/upper $up/work
	tap_check "overlay over $mods" mount -t overlay overlay \
		-o "lowerdir=$mods,upperdir=$up/upper,workdir=$up/work" "$mods" ||
		return
	install -D -m 644 "$KO" "$mods/updates/smcr.ko"
	depmod -a
	install -m 644 "$SMCR_REPO/scripts/modprobe.d/smcr.conf" /etc/modprobe.d/
	python3 -c 'import socket; socket.socket(43, socket.SOCK_STREAM).close()'
	loaded_only "socket(AF_SMC)"
	"$SMCR" info >/dev/null
	loaded_only "smcr info (family SMC_GEN_NETLINK)"
	"$SMCR" pnet show >/dev/null
	loaded_only "smcr pnet show (family SMC_PNETID)"
	# the kernel asks for a family's sock_diag module only while the
	# family is registered
	diag_request
	tap_check "a sock_diag request for AF_SMC loads no module" \
		bash -c '! grep -Eq "^smc(r|_diag)? " /proc/modules'
	modprobe smcr
	diag_request
	loaded_only "modprobe smcr, then a sock_diag request for AF_SMC"
	rm /etc/modprobe.d/smcr.conf
	umount "$mods"
}

if [[ $SMCR_ROLE == a ]]; then guest_a; else guest_b; fi
exit 0
