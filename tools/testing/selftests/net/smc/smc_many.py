#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Many concurrent connections (RFC 7609 §3.5.2-3.5.3).

A plain TCP program, run under tools/smc_run/smc_run. The client opens
--count connections one after the other and keeps them all open; each
exchanges one byte with the server, then all are closed. The server takes
connection i to be the i-th it accepted: as with TCP, accept() must return
them in the order the client connected them. The caller checks, from the
smcr_conn tracepoint, how the connections were spread over link groups.
"""
import socket
import sys

import smc_pytest


tap = smc_pytest.tapper("many")


def server(a):
    count = a.count
    ls = smc_pytest.listener(a.port, backlog=count)
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
            ok += 1
        else:
            print("# server: connection %d: got %r, expected %r" %
                  (i, b, bytes([i & 0xFF])), flush=True)
        # echo what came, so that the client never waits for nothing
        c.sendall(b)
    for c in conns:
        c.recv(1)
        c.close()
    tap(ok == count, "server: %d of %d connections echoed" % (ok, count))


def client(a):
    count = a.count
    conns = []
    for _ in range(count):
        conns.append(socket.create_connection((a.host, a.port), timeout=60))
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
        else:
            print("# client: connection %d: got %r, expected %r" %
                  (i, b, bytes([i & 0xFF])), flush=True)
    for c in conns:
        c.close()
    tap(ok == count, "client: %d connections open at once, all echoed" % ok)


if __name__ == "__main__":
    sys.exit(smc_pytest.main(
        "many", server, client,
        lambda p: p.add_argument("--count", type=int, default=256)))
