#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Programs of the "robust" guest group: AF_SMC used the way a careless or
unprivileged user would, each printing TAP lines. Plain TCP programs:
run them under tools/smc_run/smc_run, which makes their sockets AF_SMC.

  netns                 in a network namespace of its own (run it under
                        `unshare -n`): an AF_SMC connection over loopback
                        (TCP fallback) with a retransmission timeout of
                        --rto s; loopback then loses every packet, data is
                        sent and the socket closed, the program exits and
                        the namespace goes while TCP's retransmit timer of
                        the internal socket is still to fire
  linger                in a network namespace of its own: an AF_SMC
                        connection over loopback (TCP fallback); loopback
                        loses every packet while the client sends --bytes
                        and closes, then works again: the peer must get
                        every byte and the end of the stream within
                        --within s (TCP must go on retransmitting what the
                        closed internal socket had not got acknowledged)
  idle server|client    COUNT SMC-R connections; the client closes all
                        but KEEP after one exchange and keeps those open,
                        never reading, until --hold seconds passed or a
                        file named by --stop exists; then reports whether
                        the kept ones saw the end of the connection
  ulp                   setsockopt(TCP_ULP) on an AF_SMC socket is refused
                        with EOPNOTSUPP, before connect() and after
  memcg server|client   run inside a memory cgroup (its memory.current is
                        read): --count SMC-R connections are opened and
                        held; the cgroup must have been charged at least
                        the buffers they got (SO_RCVBUF and SO_SNDBUF
                        report twice the RMB and send buffer)
  hs server|client      the client opens a connection, then a second one
                        from port --silent-port whose CLC Confirm the
                        caller's tc filter drops (the server waits for it
                        in vain), then a third one: that one's connect()
                        and first exchange must take less than --within s
"""
import argparse
import errno
import os
import socket
import subprocess
import sys
import time

import smc_pytest

TCP_ULP = 31


def tap(ok, name):
    print(("ok" if ok else "not ok") + " - " + name, flush=True)


def smc_socket():
    """A TCP socket, which smc_run turns into an AF_SMC one."""
    return socket.socket(socket.AF_INET, socket.SOCK_STREAM)


def netem_loss(on):
    cmd = ["tc", "qdisc", "add" if on else "del", "dev", "lo", "root"]
    subprocess.run(cmd + (["netem", "loss", "100%"] if on else []),
                   check=True)


def loopback_pair(port):
    """An AF_SMC connection over loopback (fallback: no RDMA device
    there) that carried a byte: listener, client, server, whether the
    byte came."""
    ls = smc_socket()
    ls.bind(("127.0.0.1", port))
    ls.listen(1)
    c = smc_socket()
    c.connect(("127.0.0.1", port))
    s, _ = ls.accept()
    c.sendall(b"x")
    return ls, c, s, s.recv(1) == b"x"


def netns(a):
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    # TCP's first retransmission comes late (RTO at least --rto s), when
    # the namespace should be long gone: on a freed namespace it reads
    # poison, not a count of zero that would make it give up
    subprocess.run(["ip", "route", "replace", "table", "local", "local",
                    "127.0.0.1", "dev", "lo", "src", "127.0.0.1",
                    "rto_min", "%ds" % a.rto], check=True)
    ls, c, s, ok = loopback_pair(a.port)
    # every packet on loopback is lost from now on: the data below and
    # the FIN after it stay unacknowledged, TCP retransmits them
    netem_loss(True)
    c.sendall(b"y" * 4096)
    c.close()
    s.close()
    ls.close()
    tap(ok, "netns: AF_SMC connection in a namespace of its own, closed "
        "with data unacknowledged")


def linger(a):
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    ls, c, s, ok = loopback_pair(a.port)
    netem_loss(True)
    c.sendall(b"y" * a.bytes)
    c.close()
    time.sleep(1)
    netem_loss(False)
    got, eof = 0, False
    s.settimeout(1)
    deadline = time.monotonic() + a.within
    while time.monotonic() < deadline:
        try:
            b = s.recv(65536)
        except socket.timeout:
            continue
        if not b:
            eof = True
            break
        got += len(b)
    s.close()
    ls.close()
    tap(ok and got == a.bytes and eof,
        "linger: %d of %d bytes sent before close() arrived after a loss, "
        "%s" % (got, a.bytes, "then the end of the stream" if eof else
                "no end of the stream"))


def idle_server(a):
    ls = smc_pytest.listener(a.port, backlog=a.count)
    conns = []
    for _ in range(a.count):
        c, _ = ls.accept()
        c.sendall(b"s")
        conns.append(c)
    # hold every connection, never read or close, until told or the end
    deadline = time.monotonic() + a.hold
    while time.monotonic() < deadline and not os.path.exists(a.stop):
        time.sleep(0.2)
    tap(True, "idle: server held %d connections" % len(conns))


def idle_client(a):
    conns = []
    for _ in range(a.count):
        c = smc_socket()
        c.settimeout(30)
        c.connect((a.host, a.port))
        c.sendall(b"c")
        conns.append(c)
    ok = all(c.recv(1) == b"s" for c in conns)
    tap(ok, "idle: client opened %d connections" % a.count)
    for c in conns[a.keep:]:
        c.close()
    kept = conns[:a.keep]
    with open(a.ready, "w") as f:
        f.write("ready\n")
    deadline = time.monotonic() + a.hold
    while time.monotonic() < deadline and not os.path.exists(a.stop):
        time.sleep(0.2)
    # what the kept connections see now: an error, not a hang
    ended = 0
    for c in kept:
        c.settimeout(5)
        try:
            c.sendall(b"z" * 1024)
            r = c.recv(1)
            ended += not r
        except socket.timeout:
            pass
        except OSError:
            ended += 1
    tap(not a.expect_end or ended == len(kept),
        "idle: %d of %d kept connections saw their end" % (ended, len(kept)))
    for c in kept:
        c.close()


def ulp(a):
    def refused(s, when):
        try:
            s.setsockopt(socket.IPPROTO_TCP, TCP_ULP, b"tls")
        except OSError as e:
            tap(e.errno == errno.EOPNOTSUPP,
                "ulp: TCP_ULP %s: %s" % (when, os.strerror(e.errno)))
            return
        tap(False, "ulp: TCP_ULP %s was accepted" % when)

    s = smc_socket()
    refused(s, "before connect")
    s.settimeout(30)
    s.connect((a.host, a.port))
    refused(s, "on a connection")
    s.close()


def ulp_server(a):
    c, _ = smc_pytest.listener(a.port).accept()
    c.settimeout(30)
    c.recv(1)
    c.close()


def hs_server(a):
    ls = smc_pytest.listener(a.port, backlog=8)
    conns = []
    # the silent client's connection is never accepted
    for _ in range(2):
        c, _ = ls.accept()
        c.settimeout(30)
        c.sendall(c.recv(1))
        conns.append(c)
    for c in conns:
        c.recv(1)
        c.close()


def hs_client(a):
    def exchange(sport=0):
        c = smc_socket()
        c.settimeout(30)
        if sport:
            c.bind(("0.0.0.0", sport))
        c.connect((a.host, a.port))
        if not sport:
            c.sendall(b"h")
            if c.recv(1) != b"h":
                raise OSError(errno.EPROTO, "no echo")
        return c

    first = exchange()
    # its Confirm never arrives; its connect() returns all the same
    silent = exchange(a.silent_port)
    time.sleep(0.5)
    t0 = time.monotonic()
    third = exchange()
    dt = time.monotonic() - t0
    tap(dt < a.within, "hs: a handshake next to a silent one took %.1f s "
        "(less than %.0f s)" % (dt, a.within))
    for c in (first, third):
        c.close()
    silent.close()


def memcg_now():
    with open("/proc/self/cgroup") as f:
        path = f.read().strip().split("::", 1)[1]
    with open("/sys/fs/cgroup%s/memory.current" % path) as f:
        return int(f.read())


def memcg_check(conns, before, role):
    bufs = sum((c.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) +
                c.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)) // 2
               for c in conns)
    got = memcg_now() - before
    tap(got >= bufs * 9 // 10,
        "memcg: %s: the cgroup was charged %d KiB for %d KiB of buffers" %
        (role, got // 1024, bufs // 1024))


def memcg_server(a):
    # the baseline comes first: once the port listens, the peer connects
    # and the handshakes charge the buffers before accept() is called
    before = memcg_now()
    ls = smc_pytest.listener(a.port, backlog=a.count)
    conns = []
    for _ in range(a.count):
        c, _ = ls.accept()
        c.settimeout(30)
        c.sendall(c.recv(1))
        conns.append(c)
    memcg_check(conns, before, "server")
    for c in conns:
        c.recv(1)
        c.close()


def memcg_client(a):
    before = memcg_now()
    conns = []
    for _ in range(a.count):
        c = smc_socket()
        c.settimeout(30)
        c.connect((a.host, a.port))
        c.sendall(b"m")
        if c.recv(1) != b"m":
            raise OSError(errno.EPROTO, "no echo")
        conns.append(c)
    memcg_check(conns, before, "client")
    for c in conns:
        c.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("test", choices=("netns", "linger", "idle", "ulp",
                                     "hs", "memcg"))
    p.add_argument("role", nargs="?", choices=("server", "client"),
                   default="client")
    p.add_argument("--host", default="")
    p.add_argument("--port", type=int, default=7700)
    p.add_argument("--count", type=int, default=6)
    p.add_argument("--keep", type=int, default=2)
    p.add_argument("--hold", type=float, default=120)
    p.add_argument("--stop", default="/tmp/smc_robust.stop")
    p.add_argument("--ready", default="/tmp/smc_robust.ready")
    p.add_argument("--expect-end", action="store_true")
    p.add_argument("--rto", type=int, default=20)
    p.add_argument("--silent-port", type=int, default=41000)
    p.add_argument("--within", type=float, default=3)
    p.add_argument("--bytes", type=int, default=65536)
    a = p.parse_args()
    run = {
        ("netns", "client"): netns,
        ("linger", "client"): linger,
        ("idle", "server"): idle_server,
        ("idle", "client"): idle_client,
        ("ulp", "server"): ulp_server,
        ("ulp", "client"): ulp,
        ("hs", "server"): hs_server,
        ("hs", "client"): hs_client,
        ("memcg", "server"): memcg_server,
        ("memcg", "client"): memcg_client,
    }[(a.test, a.role)]
    try:
        run(a)
    except OSError as e:
        tap(False, "%s %s: %s" % (a.test, a.role, e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
