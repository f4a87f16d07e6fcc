#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A non-blocking writer is told when its full buffers free up.

A plain TCP program, run under tools/smc_run/smc_run. Two connections:
data and control. In each of --rounds rounds the client sends on the
data connection without blocking until EAGAIN, sees it stay unwritable
(select, 200 ms) while the server does not read, and asks the server
over the control connection to read what it sent. While the server
reads, edge-triggered epoll must report EPOLLOUT on the data connection
(the wakeup of a writer that found no room), and select must see it
writable; the server then confirms it read every byte.
"""
import select
import socket
import sys

import smc_pytest


tap = smc_pytest.tapper("writable")
CHUNK = 65536


def recv_exact(s, n):
    buf = bytearray()
    while len(buf) < n:
        r = s.recv(min(CHUNK, n - len(buf)))
        if not r:
            raise OSError("connection ended after %d of %d bytes"
                          % (len(buf), n))
        buf += r
    return bytes(buf)


def server(a):
    ls = smc_pytest.listener(a.port, backlog=2)
    data, _ = ls.accept()
    ctl, _ = ls.accept()
    for r in range(a.rounds):
        n = int(recv_exact(ctl, 16))
        got = recv_exact(data, n)
        ctl.sendall(b"%16d" % len(got))
    tap(True, "server: read %d rounds as asked" % a.rounds)


def client(a):
    data = socket.create_connection((a.host, a.port), timeout=60)
    ctl = socket.create_connection((a.host, a.port), timeout=60)
    data.setblocking(False)
    ep = select.epoll()
    ep.register(data.fileno(), select.EPOLLOUT | select.EPOLLET)
    buf = bytes(CHUNK)
    for r in range(a.rounds):
        sent = 0
        while True:
            try:
                sent += data.send(buf)
            except BlockingIOError:
                break
        ep.poll(0)      # the edge epoll had before: taken
        _, w, _ = select.select([], [data], [], 0.2)
        full = not w
        ctl.sendall(b"%16d" % sent)
        edge = ep.poll(60)
        _, w, _ = select.select([], [data], [], 60)
        read = int(recv_exact(ctl, 16))
        good = (full and bool(edge) and edge[0][1] & select.EPOLLOUT
                and bool(w) and read == sent and sent > 0)
        tap(good, "client: round %d: %d bytes until EAGAIN, unwritable %s, "
            "EPOLLOUT edge %s, writable %s, all read %s"
            % (r, sent, full, bool(edge), bool(w), read == sent))
    ctl.close()
    data.close()


if __name__ == "__main__":
    sys.exit(smc_pytest.main(
        "writable", server, client,
        lambda p: p.add_argument("--rounds", type=int, default=3)))
