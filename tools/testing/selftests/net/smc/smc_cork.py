#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Many small sends in a row, every byte delivered in order.

A plain TCP program, run under tools/smc_run/smc_run. The client makes
--sends send calls of 1 to 64 bytes each (sizes and bytes from a fixed
seed) as fast as it can, then shuts down writing; the server reads to the
end and answers with the SHA-256 of what it got, which the client
compares with its own. Whether the sends were corked into fewer RDMA
writes and CDC messages is counted by the caller, on the RoCE port.
"""
import hashlib
import random
import socket
import sys

import smc_pytest


tap = smc_pytest.tapper("cork")


def server(a):
    ls = smc_pytest.listener(a.port)
    c, _ = ls.accept()
    got = smc_pytest.recv_to_end(c)
    c.sendall(hashlib.sha256(got).digest())
    c.close()
    tap(True, "server: read %d bytes to the end, sent their digest"
        % len(got))


def client(a):
    rnd = random.Random(7609)
    c = socket.create_connection((a.host, a.port), timeout=60)
    h = hashlib.sha256()
    total = 0
    for _ in range(a.sends):
        b = rnd.randbytes(rnd.randint(1, 64))
        c.sendall(b)
        h.update(b)
        total += len(b)
    c.shutdown(socket.SHUT_WR)
    digest = smc_pytest.recv_to_end(c)
    c.close()
    tap(digest == h.digest(),
        "client: %d sends, %d bytes, the server's digest matches"
        % (a.sends, total))


if __name__ == "__main__":
    sys.exit(smc_pytest.main(
        "cork", server, client,
        lambda p: p.add_argument("--sends", type=int, default=20000)))
