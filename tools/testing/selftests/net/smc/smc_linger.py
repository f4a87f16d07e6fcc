#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A connection the client's program keeps open after the server closed.

A plain TCP program, run under tools/smc_run/smc_run. The server sends a
line and closes. The client reads it and the end of stream, then keeps
its socket for --hold seconds without closing it, long enough for the
server's side to give up waiting for the client's close and its idle
link group to end (RFC 7609 §3.5.5.4) while the client's connection is
still in the group. The client's peer must still be able to end the
group cleanly: that is checked in the kernel logs, not here.
"""
import socket
import sys
import time

import smc_pytest


tap = smc_pytest.tapper("linger")
LINE = b"the server closes now\n"


def server(a):
    ls = smc_pytest.listener(a.port)
    c, _ = ls.accept()
    c.sendall(LINE)
    c.close()
    tap(True, "server: sent a line and closed")


def client(a):
    c = socket.create_connection((a.host, a.port), timeout=30)
    got = smc_pytest.recv_to_end(c)
    tap(got == LINE, "client: got the line and the end of stream")
    time.sleep(a.hold)
    # the group may have ended meanwhile: whatever close() says is fine
    try:
        c.close()
    except OSError:
        pass
    tap(True, "client: held its socket %d s, then closed it" % a.hold)


if __name__ == "__main__":
    sys.exit(smc_pytest.main(
        "linger", server, client,
        lambda p: p.add_argument("--hold", type=int, default=50)))
