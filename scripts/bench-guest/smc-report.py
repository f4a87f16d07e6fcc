#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""smc-report: the table and plots of scripts/bench from its guests' results.

    smc-report.py RESULTS OUTDIR TITLE

RESULTS has one line per measurement, as bench-guest/guest.sh writes them:
"TRANSPORT round=R mode=M name=value...". Each measure's rounds give its
median and its spread (lowest to highest). Written to OUTDIR: smc.txt (the
table, also printed), smc-bulk.dat and smc-rr.dat (the plots' data), and
with gnuplot smc-bulk.png (throughput over message size) and smc-rr.png
(request/response latency percentiles).
"""
import os
import statistics
import subprocess
import sys

TRANSPORTS = [("tcp", "TCP"), ("smcr-v1", "ours v1"), ("smcr-v2", "ours v2"),
              ("linux", "Linux's")]


def parse(path):
    """{(transport, measure): [values of each round]}"""
    res = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if len(words) < 3:
                continue
            kv = dict(w.split("=", 1) for w in words[1:] if "=" in w)
            t, mode = words[0], kv.get("mode")
            vals = []
            if mode == "bulk" and kv.get("streams", "1") != "1":
                vals = [("streams %s" % kv["streams"], kv.get("mbps"))]
            elif mode == "bulk":
                vals = [("bulk %s" % kv.get("size"), kv.get("mbps"))]
            elif mode == "rr":
                vals = [("rr rate", kv.get("rate")),
                        ("rr p50", kv.get("p50_us")),
                        ("rr p90", kv.get("p90_us")),
                        ("rr p99", kv.get("p99_us"))]
            elif mode == "crr":
                vals = [("crr rate", kv.get("rate"))]
            for m, v in vals:
                try:
                    res.setdefault((t, m), []).append(float(v))
                except (TypeError, ValueError):
                    pass
    return res


def size_name(n):
    n = int(n)
    for unit, div in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div and n % div == 0:
            return "%d %s" % (n // div, unit)
    return "%d B" % n


def num(v):
    if v >= 100:
        return "%.0f" % v
    return "%.1f" % v if v >= 1 else "%.3f" % v


def cell(vals):
    if not vals:
        return "?"
    med = statistics.median(vals)
    if len(vals) == 1:
        return num(med)
    return "%s (%s-%s)" % (num(med), num(min(vals)), num(max(vals)))


def ratio(res, m, a, b):
    try:
        return "%.2f" % (statistics.median(res[(a, m)]) /
                         statistics.median(res[(b, m)]))
    except (KeyError, ZeroDivisionError, statistics.StatisticsError):
        return "?"


def main():
    path, outdir, title = sys.argv[1:4]
    res = parse(path)
    sizes = sorted({int(m.split()[1]) for _, m in res if m.startswith("bulk ")})
    streams = sorted({m for _, m in res if m.startswith("streams ")})
    rows = [("bulk %d" % s, "bulk %s, Mbit/s" % size_name(s)) for s in sizes]
    rows += [(m, "%s x 64 KiB, Mbit/s" % m) for m in streams]
    rows += [("rr rate", "1 B ping-pong, round trips/s"),
             ("rr p50", "  p50 latency, us"), ("rr p90", "  p90 latency, us"),
             ("rr p99", "  p99 latency, us"),
             ("crr rate", "connect+1 B req/resp+close, /s")]
    lines = [title,
             "medians of the rounds, lowest-highest in brackets; the last "
             "columns: ours v2 over Linux's, over TCP (latency: lower is "
             "better)", ""]
    head = "%-34s" % "measure" + "".join("%-24s" % n for _, n in TRANSPORTS)
    lines.append(head + "%-10s%s" % ("v2/Linux", "v2/TCP"))
    for m, label in rows:
        line = "%-34s" % label
        line += "".join("%-24s" % cell(res.get((t, m))) for t, _ in TRANSPORTS)
        line += "%-10s%s" % (ratio(res, m, "smcr-v2", "linux"),
                             ratio(res, m, "smcr-v2", "tcp"))
        lines.append(line.rstrip())
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "smc.txt"), "w", encoding="utf-8") as f:
        f.write(text)

    def stat(t, m):
        v = res.get((t, m))
        if not v:
            return "NaN NaN NaN"
        return "%g %g %g" % (statistics.median(v), min(v), max(v))

    with open(os.path.join(outdir, "smc-bulk.dat"), "w",
              encoding="utf-8") as f:
        f.write("# size, then median min max Mbit/s of: %s\n" %
                ", ".join(n for _, n in TRANSPORTS))
        for s in sizes:
            f.write("%d %s\n" % (s, " ".join(stat(t, "bulk %d" % s)
                                             for t, _ in TRANSPORTS)))
    with open(os.path.join(outdir, "smc-rr.dat"), "w", encoding="utf-8") as f:
        f.write("# transport, then p50 p90 p99 in us (medians)\n")
        for t, n in TRANSPORTS:
            f.write('"%s" %s\n' % (n, " ".join(
                stat(t, "rr " + p).split()[0] for p in ("p50", "p90", "p99"))))
    plot(outdir, title)


def plot(outdir, title):
    short = title.split(":")[0]
    cols = "".join(
        "'smc-bulk.dat' using 1:%d:%d:%d with yerrorlines title \"%s\"%s" %
        (2 + 3 * i, 3 + 3 * i, 4 + 3 * i, n,
         ", \\\n     " if i < len(TRANSPORTS) - 1 else "\n")
        for i, (_, n) in enumerate(TRANSPORTS))
    script = """set terminal pngcairo size 900,560 noenhanced
set output 'smc-bulk.png'
set title "%s: bulk throughput (medians, lowest-highest)"
set logscale x 2
set logscale y 10
set xtics ("1" 1, "64" 64, "1K" 1024, "16K" 16384, "64K" 65536, "1M" 1048576)
set xlabel 'message size (bytes)'
set ylabel 'Mbit/s'
set key top left
set grid
plot %s
set output 'smc-rr.png'
set title "%s: 1-byte request/response latency (medians)"
unset logscale x
unset logscale y
set xtics auto
set xlabel ''
set ylabel 'microseconds'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key top left
plot 'smc-rr.dat' using 2:xtic(1) title 'p50', '' using 3 title 'p90', \\
     '' using 4 title 'p99'
""" % (short, cols, short)
    try:
        subprocess.run(["gnuplot"], input=script, text=True, cwd=outdir,
                       check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print("(no plots: gnuplot: %s)" % e)


if __name__ == "__main__":
    main()
