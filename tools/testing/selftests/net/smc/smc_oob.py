#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Urgent data over AF_SMC (RFC 7609 §4.7.5-4.7.6), with TCP's semantics.

A plain TCP program, run under tools/smc_run/smc_run. The client sends
"hello", one urgent byte "X" with MSG_OOB, then "world". The server, told
by select()'s exceptional condition, reads up to the mark, finds
SIOCATMARK set, reads "X" out of band and then "world" in band. A second
connection with SO_OOBINLINE gets all bytes in band, in order.
"""
import fcntl
import select
import socket
import struct
import sys

import smc_pytest

SIOCATMARK = 0x8905


tap = smc_pytest.tapper("oob")


def recv_exact(c, n):
    buf = b""
    while len(buf) < n:
        b = c.recv(n - len(buf))
        if not b:
            break
        buf += b
    return buf


def atmark(c):
    return struct.unpack("i", fcntl.ioctl(c, SIOCATMARK, b"\0" * 4))[0]


def server(a):
    ls = smc_pytest.listener(a.port, backlog=2)

    c, _ = ls.accept()
    c.settimeout(30)
    _, _, x = select.select([], [], [c], 30)
    tap(c in x, "select reports the urgent data")
    tap(c.recv(100) == b"hello", "in-band read stops at the mark")
    tap(atmark(c) == 1, "SIOCATMARK at the mark")
    tap(c.recv(1, socket.MSG_OOB) == b"X", "MSG_OOB returns the urgent byte")
    tap(recv_exact(c, 5) == b"world", "in-band data after the mark")
    c.sendall(b"k")
    c.close()

    c, _ = ls.accept()
    c.settimeout(30)
    c.setsockopt(socket.SOL_SOCKET, socket.SO_OOBINLINE, 1)
    c.sendall(b"r")
    tap(recv_exact(c, 11) == b"helloXworld", "SO_OOBINLINE: urgent byte in band")
    c.close()
    ls.close()


def client(a):
    c = socket.create_connection((a.host, a.port), timeout=30)
    c.sendall(b"hello")
    c.send(b"X", socket.MSG_OOB)
    c.sendall(b"world")
    tap(c.recv(1) == b"k", "client: server confirmed")
    c.close()

    c = socket.create_connection((a.host, a.port), timeout=30)
    tap(c.recv(1) == b"r", "client: inline receiver ready")
    c.sendall(b"hello")
    c.send(b"X", socket.MSG_OOB)
    c.sendall(b"world")
    c.close()


if __name__ == "__main__":
    sys.exit(smc_pytest.main("oob", server, client))
