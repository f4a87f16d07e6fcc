#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""An idle connection whose peer goes away (RFC 7609 §3.5.5.5).

A plain TCP program, run under tools/smc_run/smc_run. The client connects,
sends one byte and waits in recv() for an answer that never comes; the
server reads the byte and stays silent. When the server's host drops off
the network, the client's recv() must end with an error (or end of
stream) within --within seconds instead of hanging.
"""
import socket
import sys
import time

import smc_pytest


tap = smc_pytest.tapper("gone")


def server(a):
    ls = smc_pytest.listener(a.port)
    c, _ = ls.accept()
    tap(c.recv(1) == b"x", "server: got the byte, stays silent")
    try:
        c.settimeout(a.within)
        c.recv(1)
    except OSError:
        pass


def client(a):
    c = socket.create_connection((a.host, a.port), timeout=30)
    c.sendall(b"x")
    c.settimeout(a.within + 30)
    t0 = time.monotonic()
    try:
        r = c.recv(1)
        what = "end of stream" if not r else "data?"
        ok = not r
    except socket.timeout:
        what, ok = "still waiting", False
    except OSError as e:
        what, ok = e.strerror, True
    dt = time.monotonic() - t0
    tap(ok and dt <= a.within,
        "client: recv ended (%s) %.1f s after the peer went" % (what, dt))


if __name__ == "__main__":
    sys.exit(smc_pytest.main(
        "gone", server, client,
        lambda p: p.add_argument("--within", type=float, default=60)))
