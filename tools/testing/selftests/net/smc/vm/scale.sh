#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guests: a b
# timeout: 900
# memory: 2048
#
# Group "scale": many connections, and teardown under load.
#   count   SMC_SCALE_COUNT (10000; on the debug kernel an eighth, bscale
#           in guest_lib.sh) SMC-R connections open at once from a
#           to b, 16 KiB buffers, each moving 1 KiB both ways (checked);
#           all SMC-R (the success counters), 255 to a link group
#           (§3.5.3); then all closed, the link groups gone and the
#           memory in use back to what it was before, on both guests
#   netns   SMC_SCALE_NETNS (32) network namespaces, each with its own
#           net.smc.wmem and 8 AF_SMC connections on its loopback (TCP
#           fallback: no RDMA device there) left open when the program
#           exits; the namespaces deleted with the connections lingering,
#           the memory back, the root namespace's counters untouched
#   load    bulk transfers a -> b on four connections; `rdma link delete
#           rxe0` on a finishes within seconds, the transfers end with an
#           error instead of hanging, and `rmmod smcr` succeeds on both
#           guests once the programs have exited
# Both guests run this script (switch on $SMCR_ROLE); a is the client.
#   scripts/run-tests scale
set -uo pipefail
# shellcheck source=tools/testing/selftests/net/lib/guest_lib.sh
source "$SMCR_REPO/tools/testing/selftests/net/lib/guest_lib.sh"
require_rdma

BIN=$SMCR_REPO/build/selftests
KO=$SMCR_REPO/net/smc/smcr.ko
PY=$SMCR_REPO/tools/testing/selftests/net/smc/smc_scale.py
RUN=$SMCR_REPO/tools/smc_run/smc_run
SMCR=$SMCR_REPO/build/tools/smcr
COUNT=${SMC_SCALE_COUNT:-$(bscale 10000)}
PORT=7800
# what memory may differ by after the connections are gone: caches of
# the slab allocator and per-CPU lists, not a connection's 32 KiB
SLACK_KB=16384

meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# pcp_kb: free pages on the per-CPU lists of the page allocator, which
# MemFree leaves out (they go back to the buddy lists in batches)
pcp_kb() { awk '$1 == "count:" { n += $2 } END { print n * 4 }' /proc/zoneinfo; }

# used_kb: memory in use, what reclaim cannot give back
used_kb() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	echo $(($(meminfo MemTotal) - $(meminfo MemFree) - $(pcp_kb) -
		$(meminfo Buffers) - $(meminfo Cached) - $(meminfo SReclaimable)))
}

# buf_pages: pages of our RMBs and send buffers in use (debugfs)
buf_pages() {
	mountpoint -q /sys/kernel/debug ||
		mount -t debugfs none /sys/kernel/debug || return
	cat /sys/kernel/debug/smcr/buffer_pages
}

# mem_base: the memory in use (used_kb), /proc/meminfo kept beside it
mem_base() {
	used_kb
	cp /proc/meminfo /tmp/meminfo.base
	pcp_kb >/tmp/pcp.base
	cp /proc/vmstat /tmp/vmstat.base
}

# mem_back BASE WHAT [TODO]: a result line: the memory in use came back to
# BASE kB (mem_base; within SLACK_KB) in a minute; what grew, if it did
# not. With TODO, a miss is a known failure (TAP "# TODO") for that reason.
mem_back() {
	local base=$1 now i name
	for ((i = 0; i < 12; i++)); do
		now=$(used_kb)
		((now - base < SLACK_KB)) && break
		sleep 5
	done
	name="$2: memory in use back to $base kB within $((SLACK_KB / 1024)) MiB (now $now kB) ($SMCR_ROLE)"
	if ((now - base < SLACK_KB)); then
		tap_ok "$name"
		return
	fi
	tap_fail "$name${3:+ # TODO $3}" "$(awk 'NR == FNR { b[$1] = $2; next }
		$2 - b[$1] > 1024 || b[$1] - $2 > 1024 {
			printf "%s %d kB, was %d kB\n", $1, $2, b[$1] }' \
		/tmp/meminfo.base /proc/meminfo)
per-CPU free lists $(pcp_kb) kB, were $(cat /tmp/pcp.base) kB
$(awk 'NR == FNR { b[$1] = $2; next }
		$1 ~ /^nr_/ && ($2 - b[$1] > 256 || b[$1] - $2 > 256) {
			printf "vmstat %s %d, was %d\n", $1, $2, b[$1] }' \
		/tmp/vmstat.base /proc/vmstat)"
}

# successes: SMC-R client and server handshakes so far (one dump)
successes() {
	"$SMCR" stats | awk '$1 ~ /^smcr\.(clnt|srv)\.v[12]_success$/ { n += $2 }
		END { print n + 0 }'
}

fallbacks() {
	"$SMCR" stats | awk '$1 ~ /^fallback\.[a-z]+\.total$/ { n += $2 }
		END { print n + 0 }'
}

count() {
	local base0 after ok0 fb0 n groups srv cl rc pages
	tap_check "net.smc.wmem and rmem 16 KiB ($SMCR_ROLE)" \
		sysctl -qw net.smc.wmem=16384 net.smc.rmem=16384
	ulimit -n $((COUNT + 1024))
	base0=$(mem_base)
	ok0=$(successes)
	fb0=$(fallbacks)
	rm -f /tmp/scale.ready /tmp/scale.release
	if [[ $SMCR_ROLE == b ]]; then
		"$RUN" python3 "$PY" server --port $PORT --count "$COUNT" \
			--timeout 600 &
		srv=$!
		wait_listen $PORT 30
		barrier count-listen 120
		barrier count-open 700
		n=$(($(successes) - ok0))
		tap_check "count: $n of $COUNT connections SMC-R (b)" \
			test "$n" = "$COUNT"
		wait "$srv"
		tap_check "count: server exit status ($?)" test "$?" = 0
	else
		barrier count-listen 120
		"$RUN" python3 "$PY" client --host "$SMCR_PEER_IP" --port $PORT \
			--count "$COUNT" --timeout 600 &
		cl=$!
		for _ in $(seq 3000); do
			[[ -e /tmp/scale.ready ]] && break
			kill -0 "$cl" 2>/dev/null || break
			sleep 0.2
		done
		n=$(($(successes) - ok0))
		tap_check "count: $n of $COUNT connections SMC-R (a)" \
			test "$n" = "$COUNT"
		tap_check "count: no fallback (a)" test "$(fallbacks)" = "$fb0"
		groups=$("$SMCR" linkgroup | grep -c '^id ')
		tap_check "count: $groups link groups for $COUNT connections, 255 a group" \
			test "$groups" = $(((COUNT + 254) / 255))
		after=$(used_kb)
		echo "# count: memory in use $base0 kB before, $after kB with $COUNT open ($(((after - base0) / COUNT)) kB a connection, $(buf_pages) pages of buffers)"
		barrier count-open 700
		: >/tmp/scale.release
		wait "$cl"
		rc=$?
		tap_check "count: client exit status ($rc)" test "$rc" = 0
	fi
	no_qps 90
	tap_check "count: every link group gone ($SMCR_ROLE)" test "$(rc_qps)" = 0
	pages=$(buf_pages)
	tap_check "count: every buffer page of ours freed ($pages in use) ($SMCR_ROLE)" \
		test "$pages" = 0
	# TCP's TIME_WAIT sockets of the handshakes go on their own
	sleep 5
	# MemFree alone was 19 to 35 MiB short here, as much after 300
	# connections as after 10,000: free pages the per-CPU lists kept,
	# which used_kb counts as free
	mem_back "$base0" count
	barrier count-done 300
}

load() {
	local pids=() i t0 dt del alive
	if [[ $SMCR_ROLE == b ]]; then
		for i in 1 2 3 4; do
			timeout 180 "$BIN/smc_peer" server --family smc \
				--port $((PORT + i)) --bytes 4G --timeout 120 \
				>/tmp/load.$i 2>&1 &
			pids+=($!)
		done
		for i in 1 2 3 4; do wait_listen $((PORT + i)) 30; done
		barrier load-listen 60
		for i in "${pids[@]}"; do wait "$i"; done
		tap_ok "load: the servers ended (b)"
	else
		barrier load-listen 60
		for i in 1 2 3 4; do
			timeout 180 "$BIN/smc_peer" client --family smc \
				--host "$SMCR_PEER_IP" --port $((PORT + i)) \
				--bytes 4G --timeout 120 >/tmp/load.$i 2>&1 &
			pids+=($!)
		done
		sleep 10
		alive=0
		for i in "${pids[@]}"; do kill -0 "$i" 2>/dev/null && alive=$((alive + 1)); done
		tap_check "load: 4 transfers running ($alive)" test $alive = 4
		t0=$SECONDS
		rdma link delete rxe0 &
		del=$!
		for _ in $(seq 150); do
			kill -0 $del 2>/dev/null || break
			sleep 0.2
		done
		dt=$((SECONDS - t0))
		if kill -0 $del 2>/dev/null; then
			tap_fail "load: rdma link delete rxe0 still blocked after ${dt} s"
			echo w >/proc/sysrq-trigger
		else
			tap_check "load: rdma link delete rxe0 under load finished in ${dt} s" \
				wait $del
		fi
		t0=$SECONDS
		for i in "${pids[@]}"; do wait "$i"; done
		dt=$((SECONDS - t0))
		tap_check "load: the transfers ended within 60 s of the delete (${dt} s)" \
			test $dt -lt 60
		grep -h 'error\|reset\|pipe' /tmp/load.* | head -n 4 | sed 's/^[# ]*/# load: what the client saw: /; s/not ok/failed/'
	fi
	for _ in $(seq 150); do
		rmmod smcr 2>/dev/null && break
		sleep 0.2
	done
	tap_check "load: rmmod smcr after the programs exit ($SMCR_ROLE)" \
		bash -c '! grep -q "^smcr " /proc/modules'
}

netns() {
	local n=${SMC_SCALE_NETNS:-32} i base bad=0
	base=$(mem_base)
	for ((i = 0; i < n; i++)); do
		ip netns add "smcs$i" && ip -n "smcs$i" link set lo up &&
			ip netns exec "smcs$i" sysctl -qw net.smc.wmem=32768 &&
			ip netns exec "smcs$i" "$RUN" python3 "$PY" loop 8 >/tmp/netns.$i 2>&1 ||
			bad=$((bad + 1))
	done
	tap_check "netns: $n namespaces, 8 AF_SMC connections each left open ($SMCR_ROLE)" \
		test $bad = 0
	sed 's/^[# ]*/# netns: smcs0: /' /tmp/netns.0
	for ((i = 0; i < n; i++)); do ip netns del "smcs$i"; done
	tap_check "netns: all deleted ($SMCR_ROLE)" test -z "$(ip netns list)"
	# the lingering sockets go with TCP's timers, then each namespace
	sleep 20
	mem_back "$base" netns
	tap_check "netns: this namespace's counters untouched ($SMCR_ROLE)" \
		test "$("$SMCR" stats | awk '$1 == "fallback.clnt.total" { print $2 }')" = 0
}

tap_check "insmod smcr.ko ($SMCR_ROLE)" insmod "$KO" testlink_time=3 || exit 0
netns
count
load
tap_check "no kernel warning ($SMCR_ROLE)" dmesg_clean
