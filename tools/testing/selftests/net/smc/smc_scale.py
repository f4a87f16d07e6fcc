#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Thousands of SMC-R connections open at once, each moving data.

A plain TCP program, run under tools/smc_run/smc_run. The client opens
--count connections one after the other and sends --bytes on each as it
opens it; the server echoes whatever it receives. Once every connection
is open, the client reads each echo back and checks it, creates
--ready-file, and waits for --release-file (the test looks at the module
meanwhile) before it closes them all. The server ends when all --count
connections are closed by the client.

  smc_scale.py loop COUNT     (in a network namespace; see loop())
"""
import os
import resource
import selectors
import socket
import sys
import time

import smc_pytest


tap = smc_pytest.tapper("scale")


def raise_nofile(count):
    """Room for COUNT sockets and some."""
    want = count + 256
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE,
                           (want, max(hard, want)))


def pattern(i, n):
    """N bytes that differ from one connection to the next."""
    b = bytes([(i * 7 + k) & 0xFF for k in range(256)])
    return (b * (n // 256 + 1))[:n]


def server(a):
    raise_nofile(a.count)
    ls = smc_pytest.listener(a.port, backlog=1024)
    ls.setblocking(False)
    sel = selectors.DefaultSelector()
    sel.register(ls, selectors.EVENT_READ)
    accepted = closed = echoed = 0
    deadline = time.monotonic() + a.timeout
    while closed < a.count:
        if time.monotonic() > deadline:
            print("# server: %d accepted, %d closed after %d s" %
                  (accepted, closed, a.timeout), flush=True)
            tap(False, "server: every connection closed in time")
            return
        for key, _ in sel.select(timeout=1):
            s = key.fileobj
            if s is ls:
                while True:
                    try:
                        c, _ = ls.accept()
                    except BlockingIOError:
                        break
                    c.setblocking(False)
                    sel.register(c, selectors.EVENT_READ)
                    accepted += 1
                continue
            try:
                data = s.recv(65536)
            except OSError as e:
                print("# server: recv: %s" % e, flush=True)
                data = b""
            if not data:
                sel.unregister(s)
                s.close()
                closed += 1
                continue
            # small echoes fit the send buffer; block for the rest
            s.setblocking(True)
            s.sendall(data)
            s.setblocking(False)
            echoed += len(data)
    tap(accepted == a.count,
        "server: %d connections accepted, %d bytes echoed, all closed" %
        (accepted, echoed))


def client(a):
    raise_nofile(a.count)
    conns = []
    t0 = time.monotonic()
    for i in range(a.count):
        c = socket.create_connection((a.host, a.port), timeout=60)
        c.sendall(pattern(i, a.bytes))
        conns.append(c)
        if (i + 1) % 1000 == 0:
            print("# client: %d open, %.0f s" % (i + 1, time.monotonic() - t0),
                  flush=True)
    t_open = time.monotonic() - t0
    bad = 0
    for i, c in enumerate(conns):
        want = pattern(i, a.bytes)
        got = b""
        while len(got) < a.bytes:
            chunk = c.recv(a.bytes - len(got))
            if not chunk:
                break
            got += chunk
        if got != want:
            bad += 1
            if bad <= 3:
                print("# client: connection %d: %d bytes back, %s" %
                      (i, len(got), "differ" if len(got) == a.bytes
                       else "short"), flush=True)
    tap(bad == 0, "client: %d connections open at once (%.0f s to open), "
        "%d bytes each way checked on each" % (a.count, t_open, a.bytes))
    with open(a.ready_file, "w") as f:
        f.write("%d\n" % a.count)
    deadline = time.monotonic() + a.timeout
    while not os.path.exists(a.release_file):
        if time.monotonic() > deadline:
            tap(False, "client: released in time")
            break
        time.sleep(0.2)
    t0 = time.monotonic()
    for c in conns:
        c.close()
    print("# client: closed all in %.0f s" % (time.monotonic() - t0),
          flush=True)


def loop(count):
    """COUNT connections (AF_SMC under smc_run) to a listener on this
    namespace's loopback (TCP fallback: no RDMA device there), 4 KiB each
    way; half read what they got, half leave it unread. Then exit with
    all of them open: the kernel closes them, TCP lingers on in the
    namespace."""
    ls = smc_pytest.listener(0, backlog=count)
    addr = ("127.0.0.1", ls.getsockname()[1])
    keep = []
    for i in range(count):
        c = socket.create_connection(addr, timeout=30)
        s, _ = ls.accept()
        c.sendall(pattern(i, 4096))
        s.sendall(pattern(i + 1, 4096))
        if i % 2:
            got = b""
            while len(got) < 4096:
                got += s.recv(4096 - len(got))
            if got != pattern(i, 4096):
                print("not ok - scale: loop: connection %d: data differ" % i,
                      flush=True)
                os._exit(1)
        keep += [c, s]
    print("# loop: %d connections, leaving them open" % count, flush=True)
    os._exit(0)


def options(p):
    p.add_argument("--count", type=int, default=10000)
    p.add_argument("--bytes", type=int, default=1024)
    p.add_argument("--timeout", type=int, default=600)
    p.add_argument("--ready-file", default="/tmp/scale.ready")
    p.add_argument("--release-file", default="/tmp/scale.release")


if __name__ == "__main__":
    if sys.argv[1:2] == ["loop"]:
        loop(int(sys.argv[2]))
    raise SystemExit(smc_pytest.main("scale", server, client, options))
