#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Handshake limitation (SOL_SMC option SMC_LIMIT_HS), run under smc_run.

The server listens on three ports: PORT with the option off, where the
client's stuck handshakes pile up (the test drops their CLC proposals and
makes the server's handshake workqueue small); PORT+1 with the option as
the namespace default gave it (on, the test enabled it); PORT+2 with it set
off again. While the stuck handshakes hold the workers, the client connects
to PORT+1 and PORT+2 and sends data through both: the first connection
must run over TCP at once because the server's SYN-ACK lacked the SMC
option (the test counts the fallback reasons on both sides), every byte
back; the second must not have been refused that way: its handshake waits
for a worker, and either ends in SMC-R with every byte back or, when the
wait outlasts the client's, in ETIMEDOUT.

Before listening the server checks the option itself: its default, set
and get, and Linux's errors for a short value and an unknown name. Those
checks alone: smc_hslimit.py options (the test runs them against Linux's
smc.ko too).
"""
import errno
import hashlib
import os
import socket
import sys
import threading
import time

from smc_pytest import listener, main, tapper

SOL_SMC = 286
SMC_LIMIT_HS = 1
STUCK = 3
DATA = os.urandom(256 << 10)

tap = tapper("hslimit")


def get_limit(s):
    return s.getsockopt(SOL_SMC, SMC_LIMIT_HS)


def errno_of(call):
    try:
        call()
    except OSError as e:
        return e.errno
    return 0


def option_checks():
    s = socket.socket()
    tap(get_limit(s) == 1, "a new socket starts with the namespace's "
        "SMC_LIMIT_HS: 1")
    s.setsockopt(SOL_SMC, SMC_LIMIT_HS, 0)
    tap(get_limit(s) == 0, "setsockopt SMC_LIMIT_HS 0, getsockopt: 0")
    s.setsockopt(SOL_SMC, SMC_LIMIT_HS, 7)
    tap(get_limit(s) == 1, "setsockopt SMC_LIMIT_HS 7, getsockopt: 1")
    tap(s.getsockopt(SOL_SMC, SMC_LIMIT_HS, 1) == b"\x01",
        "getsockopt SMC_LIMIT_HS into one byte: that byte")
    tap(errno_of(lambda: s.setsockopt(SOL_SMC, SMC_LIMIT_HS, b"\x01\x00"))
        == errno.EINVAL, "setsockopt SMC_LIMIT_HS with 2 bytes: EINVAL")
    tap(errno_of(lambda: s.setsockopt(SOL_SMC, 2, 1)) == errno.EOPNOTSUPP,
        "setsockopt SOL_SMC 2: EOPNOTSUPP")
    tap(errno_of(lambda: s.getsockopt(SOL_SMC, 2)) == errno.EOPNOTSUPP,
        "getsockopt SOL_SMC 2: EOPNOTSUPP")
    s.close()


def echo(c):
    with c:
        while True:
            b = c.recv(65536)
            if not b:
                break
            c.sendall(b)


def listen_on(port, limit=None, backlog=1):
    """A listener on PORT; LIMIT: SMC_LIMIT_HS set before listen(), which
    is when it counts, or the default."""
    opts = () if limit is None else ((SOL_SMC, SMC_LIMIT_HS, limit),)
    return listener(port, backlog=backlog, sockopts=opts)


def serve(ls, timeout):
    ls.settimeout(timeout)
    c, _ = ls.accept()
    c.settimeout(60)
    echo(c)


def server(a):
    option_checks()
    stuck = listen_on(a.port, 0, 16)
    limited = listen_on(a.port + 1)
    tap(get_limit(limited) == 1, "listener on PORT+1 limits handshakes")
    free = listen_on(a.port + 2, 0)
    tap(get_limit(free) == 0, "listener on PORT+2 does not")
    # stuck's children are never accepted: they go with their listener.
    # The handshake to free may end in the client's CLC timeout: then
    # nothing arrives there.
    t = threading.Thread(target=lambda: serve(free, 30), daemon=True)
    t.start()
    serve(limited, 60)
    t.join(30)
    for ls in (stuck, limited, free):
        ls.close()


def stuck_connect(host, port):
    s = socket.socket()
    s.settimeout(30)
    try:
        s.connect((host, port))
    except OSError:
        pass
    s.close()


def exchange(host, port, what, results):
    try:
        s = socket.create_connection((host, port), timeout=60)
    except OSError as e:
        results[what] = e
        return
    got = bytearray()

    def reader():
        while True:
            b = s.recv(65536)
            if not b:
                break
            got.extend(b)
    t = threading.Thread(target=reader)
    t.start()
    s.sendall(DATA)
    s.shutdown(socket.SHUT_WR)
    t.join()
    s.close()
    results[what] = (hashlib.sha256(got).digest() ==
                     hashlib.sha256(DATA).digest())


def client(a):
    stuck = [threading.Thread(target=stuck_connect, args=(a.host, a.port))
             for _ in range(STUCK)]
    for t in stuck:
        t.start()
    # their handshakes reach the server's workers well within this, and
    # hold them for the CLC wait time (6 s)
    time.sleep(2)
    results = {}
    ex = [threading.Thread(target=exchange,
                           args=(a.host, a.port + n, what, results))
          for n, what in ((1, "limited"), (2, "free"))]
    for t in ex:
        t.start()
    for t in ex:
        t.join()
    tap(results.get("limited") is True,
        "limited listener: at once over TCP, 256 KiB each way, every byte "
        "back")
    # Without the limit the handshake waits for a worker; if that takes
    # longer than the client's CLC wait, connect() fails with ETIMEDOUT,
    # as with Linux's smc.ko (a late CLC accept must not reach the data)
    free = results.get("free")
    print("# free listener: %s" % (free if isinstance(free, OSError) else
                                   "connected"), flush=True)
    tap(free is True or (isinstance(free, OSError) and
                         free.errno == errno.ETIMEDOUT),
        "free listener: a handshake that waits its turn: every byte back, "
        "or ETIMEDOUT")
    for t in stuck:
        t.join()


if __name__ == "__main__":
    if sys.argv[1:] == ["options"]:
        option_checks()
        sys.exit(0)
    sys.exit(main("hslimit", server, client))
