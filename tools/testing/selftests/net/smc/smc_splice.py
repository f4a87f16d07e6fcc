#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sendfile() and splice() on AF_SMC connections.

A plain TCP program, run under tools/smc_run/smc_run. The client sends a
file with sendfile(2); the server moves the bytes out of the socket with
splice(2) into a pipe and reads them from there. Both compare SHA-256.
"""
import hashlib
import os
import socket
import sys
import tempfile

import smc_pytest

SIZE = 3 * 1024 * 1024 + 123
DATA = bytes((i * 13 + 5) & 0xFF for i in range(SIZE))


tap = smc_pytest.tapper("splice")


def server(a):
    ls = smc_pytest.listener(a.port)
    c, _ = ls.accept()
    r, w = os.pipe()
    got = hashlib.sha256()
    total = 0
    while True:
        n = os.splice(c.fileno(), w, 65536)
        if n == 0:
            break
        while n:
            b = os.read(r, n)
            got.update(b)
            total += len(b)
            n -= len(b)
    tap(total == SIZE and got.digest() == hashlib.sha256(DATA).digest(),
        "server: splice from the socket got the %d bytes intact" % total)
    c.sendall(b"k")
    c.close()


def client(a):
    with tempfile.TemporaryFile() as f:
        f.write(DATA)
        f.flush()
        c = socket.create_connection((a.host, a.port), timeout=60)
        # os.sendfile does not wait on a socket with a timeout (which is
        # non-blocking underneath): make it a blocking one
        c.settimeout(None)
        off = 0
        while off < SIZE:
            off += os.sendfile(c.fileno(), f.fileno(), off, SIZE - off)
        c.shutdown(socket.SHUT_WR)
        tap(c.recv(1) == b"k", "client: sendfile of %d bytes confirmed" % SIZE)
        c.close()


if __name__ == "__main__":
    sys.exit(smc_pytest.main("splice", server, client))
