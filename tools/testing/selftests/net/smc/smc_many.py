#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Many concurrent connections (RFC 7609 §3.5.2-3.5.3).

A plain TCP program, run under tools/smc_run/smc_run. The client opens
--count connections and keeps them all open; each exchanges one byte with
the server, then all are closed. The caller checks, from the smcr_conn
tracepoint, how the connections were spread over link groups.
"""
import argparse
import socket
import sys


def tap(ok, name):
    print(("ok" if ok else "not ok") + " - many: " + name, flush=True)


def server(port, count):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", port))
    ls.listen(count)
    conns = []
    for _ in range(count):
        c, _ = ls.accept()
        c.settimeout(60)
        conns.append(c)
    ok = 0
    for i, c in enumerate(conns):
        try:
            b = c.recv(1)
        except OSError as e:
            print("# server: connection %d: %s" % (i, e), flush=True)
            raise
        if b == bytes([i & 0xFF]):
            c.sendall(bytes([i & 0xFF]))
            ok += 1
    for c in conns:
        c.recv(1)
        c.close()
    tap(ok == count, "server: %d of %d connections echoed" % (ok, count))


def client(host, port, count):
    conns = []
    for _ in range(count):
        conns.append(socket.create_connection((host, port), timeout=60))
    ok = 0
    for i, c in enumerate(conns):
        c.sendall(bytes([i & 0xFF]))
    for i, c in enumerate(conns):
        try:
            b = c.recv(1)
        except OSError as e:
            print("# client: connection %d: %s" % (i, e), flush=True)
            raise
        if b == bytes([i & 0xFF]):
            ok += 1
    for c in conns:
        c.close()
    tap(ok == count, "client: %d connections open at once, all echoed" % ok)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("role", choices=("server", "client"))
    p.add_argument("--host", default="")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--count", type=int, default=256)
    a = p.parse_args()
    try:
        if a.role == "server":
            server(a.port, a.count)
        else:
            client(a.host, a.port, a.count)
    except OSError as e:
        print("not ok - many: %s: %s" % (a.role, e), flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
