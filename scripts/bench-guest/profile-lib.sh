#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the profiles of scripts/bench share, inside a guest: counters of
# the whole guest taken before and after a window, their rises per unit
# of work, and a function_graph trace of named functions summed up into
# calls and mean durations. Sourced by nfs-profile.sh and smc-profile.sh.

PROF_TRACING=/sys/kernel/tracing

# prof_counters UNITS DEV: one line of "name value" pairs, the units of
# work done so far first, then the guest's CPU ticks (busy, softirq,
# system), context switches, the RoCE packets of RDMA device DEV and the
# virtio interrupts
prof_counters() {
	local c=/sys/class/infiniband/$2/ports/1/hw_counters
	printf 'units %d ' "$1"
	awk '/^cpu / { printf "busy %d softirq %d sys %d ", $2 + $3 + $4 + $7 + $8, $8, $4 }
	     /^ctxt/ { printf "ctxt %d ", $2 }' /proc/stat
	printf 'pkts_sent %d pkts_rcvd %d ' "$(cat "$c/sent_pkts")" "$(cat "$c/rcvd_pkts")"
	awk '/virtio/ { s += $2 } END { printf "virtio_irqs %d\n", s }' /proc/interrupts
}

# prof_per_unit BEFORE AFTER UNIT: the counters' rises per UNIT (ticks
# per 1000 of them)
prof_per_unit() {
	python3 - "$1" "$2" "$3" <<'PY'
import sys
a, b, unit = sys.argv[1].split(), sys.argv[2].split(), sys.argv[3]
units = float(int(b[1]) - int(a[1])) or 1
out = ["%d %ss" % (units, unit)]
for i in range(2, len(a), 2):
    d = int(b[i + 1]) - int(a[i + 1])
    if a[i] in ("busy", "softirq", "sys"):
        out.append("%s %.1f ticks/1000" % (a[i], d * 1000 / units))
    else:
        out.append("%s %.2f" % (a[i], d / units))
print(", ".join(out))
PY
}

# prof_graph SECS DEPTH TOP... [-- MORE...]: SECS seconds of function_graph
# from the functions TOP down to DEPTH calls deep (0: any), showing TOP
# and MORE, each one's calls and mean duration (children included) summed
# up. Names of a module that is not loaded are skipped.
prof_graph() {
	local secs=$1 depth=$2 f t=$PROF_TRACING more=0
	shift 2
	mountpoint -q $t || mount -t tracefs nodev $t
	echo 0 >$t/tracing_on
	echo >$t/trace
	echo 20000 >$t/buffer_size_kb
	: >$t/set_graph_function
	: >$t/set_ftrace_filter
	for f; do
		if [[ $f == -- ]]; then
			more=1
			continue
		fi
		((more)) || echo "$f" >>$t/set_graph_function 2>/dev/null
		echo "$f" >>$t/set_ftrace_filter 2>/dev/null
	done
	echo "$depth" >$t/max_graph_depth
	echo 1 >$t/options/funcgraph-tail
	echo function_graph >$t/current_tracer
	echo 1 >$t/tracing_on
	sleep "$secs"
	echo 0 >$t/tracing_on
	# (read before the tracer changes: that empties the buffer)
	cat $t/trace >/tmp/graph.trace
	python3 - /tmp/graph.trace "$secs" <<'PY'
import collections, re, sys
n, tot = collections.Counter(), collections.Counter()
leaf = re.compile(r'([0-9.]+) us\s+\|\s+(\w+)(?: \[\w+\])?\(\);')
tail = re.compile(r'([0-9.]+) us\s+\|\s+\} /\* (\w+)')
for line in open(sys.argv[1]):
    m = leaf.search(line) or tail.search(line)
    if m:
        n[m.group(2)] += 1
        tot[m.group(2)] += float(m.group(1))
print("%-28s %7s %9s" % ("function (%s s)" % sys.argv[2], "calls", "mean us"))
for f, c in n.most_common():
    print("%-28s %7d %9.1f" % (f, c, tot[f] / c))
PY
	echo nop >$t/current_tracer
	echo 0 >$t/max_graph_depth
	: >$t/set_graph_function
	: >$t/set_ftrace_filter
}
