#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Buffer shortage counters, run under smc_run.

The client sends 200 KiB in one call: more than its send buffer and more
than the server's RMB hold (64 KiB each), so the sender waits for the
peer's RMB. The server reads nothing until its RMB stays full for a
second, then 1 KiB, less than is unread, then the rest. The test compares
the counters of `smcr stats` before and after on both sides.
"""
import fcntl
import socket
import struct
import sys
import termios
import time

from smc_pytest import listener, main, tapper

SIZE = 200 << 10

tap = tapper("bufstats")


def unread(c):
    return struct.unpack("i", fcntl.ioctl(c, termios.FIONREAD,
                                          b"\0\0\0\0"))[0]


def server(a):
    ls = listener(a.port)
    ls.settimeout(60)
    c, _ = ls.accept()
    c.settimeout(60)
    last, since, end = -1, time.time(), time.time() + 30
    while time.time() < end:
        n = unread(c)
        if n != last:
            last, since = n, time.time()
        elif n and time.time() - since >= 1:
            break
        time.sleep(0.1)
    print("# %d bytes unread before the first recv" % last, flush=True)
    got = len(c.recv(1024))
    while True:
        b = c.recv(1 << 20)
        if not b:
            break
        got += len(b)
    tap(got == SIZE, "server: %d bytes received, all" % got)
    c.close()


def client(a):
    s = socket.create_connection((a.host, a.port), timeout=60)
    # blocking: one send call for all of it
    s.settimeout(None)
    s.sendall(b"b" * SIZE)
    s.close()


if __name__ == "__main__":
    sys.exit(main("bufstats", server, client))
