#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sockets in known states for the sock_diag tests (vm/diag.sh).

Opens AF_SMC sockets itself (socket(43, ...), with bind and connect
through libc, as Python has no address format for AF_SMC) and plain TCP
ones, and moves them step by step as commands on standard input say, one
a line; it answers each with "ok CMD" (or "error CMD: why") on standard
output. What it knows of each socket (inode, uid, addresses, bytes sent
and received) goes to the JSON file --facts after every command, for
smc_diag_check.py to compare with what the kernel reports.

Commands, server side (guest b):
  listen            L4: AF_SMC listener on PORT (IPv4), L6: on PORT+3
                    (IPv6), LT: plain TCP listener on PORT+1, LN: AF_SMC
                    listener on PORT+2, U: an AF_SMC socket left unconnected
  accept FACTS      S1 S2 S3 from L4, S5 from LN (and LT's plain TCP
                    child): each named after the client's socket it talks
                    to, from the client's facts file
  accept6 FACTS     S6 from L6
  listen-decline    LD: AF_SMC listener on PORT+4
  accept-decline FACTS  S7 from LD
Client side (guest a), HOST and HOST6 the server's addresses:
  connect           C1 C2 C3 to PORT, C4 (AF_SMC) to PORT+1, C5 (plain
                    TCP, only its port is recorded) to PORT+2
  connect6          C6 (AF_SMC, IPv6) to PORT+3
  connect-decline   C7 to PORT+4
Both sides:
  send NAME N       send N bytes on NAME
  recv NAME N       receive exactly N bytes on NAME
  eof NAME          read the end of the stream on NAME
  shut NAME         shutdown(SHUT_WR) on NAME
  close             close everything, and end
Every AF_SMC socket asks for 64 KiB buffers (SO_SNDBUF, SO_RCVBUF)
before it connects or listens.
"""
import argparse
import ctypes
import json
import os
import socket
import struct
import sys

import smc_pytest

AF_SMC = smc_pytest.uapi("AF_SMC")
SMCPROTO_SMC = smc_pytest.uapi("SMCPROTO_SMC")
SMCPROTO_SMC6 = smc_pytest.uapi("SMCPROTO_SMC6")
BUF = 65536

libc = ctypes.CDLL(None, use_errno=True)


def sockaddr(host, port):
    """The struct sockaddr_in or sockaddr_in6 of HOST and PORT."""
    if ":" in host:
        return (struct.pack("=H", socket.AF_INET6) +
                struct.pack("!HI", port, 0) +
                socket.inet_pton(socket.AF_INET6, host) +
                struct.pack("=I", 0))
    return (struct.pack("=H", socket.AF_INET) + struct.pack("!H", port) +
            socket.inet_aton(host) + bytes(8))


def libc_call(fn, s, host, port):
    """bind or connect S through libc."""
    sa = sockaddr(host, port)
    if fn(s.fileno(), ctypes.c_char_p(sa), len(sa)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, "%s %s port %d: %s" %
                      (fn.__name__, host, port, os.strerror(err)))


def parse_sockaddr(b):
    """[addr, port] of a struct sockaddr_in or sockaddr_in6."""
    fam = struct.unpack_from("=H", b)[0]
    port = struct.unpack_from("!H", b, 2)[0]
    if fam == socket.AF_INET6:
        return [socket.inet_ntop(socket.AF_INET6, b[8:24]), port]
    return [socket.inet_ntoa(b[4:8]), port]


def libc_name(fn, s):
    """getsockname or getpeername of S through libc: Python knows no
    address format for AF_SMC."""
    buf = ctypes.create_string_buffer(128)
    n = ctypes.c_uint32(128)
    if fn(s.fileno(), buf, ctypes.byref(n)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return parse_sockaddr(buf.raw[:n.value])


def libc_accept(s):
    """accept through libc: a socket object for the child and the peer's
    [addr, port]."""
    buf = ctypes.create_string_buffer(128)
    n = ctypes.c_uint32(128)
    fd = libc.accept(s.fileno(), buf, ctypes.byref(n))
    if fd < 0:
        err = ctypes.get_errno()
        raise OSError(err, "accept: " + os.strerror(err))
    return socket.socket(fileno=fd), parse_sockaddr(buf.raw[:n.value])


def smc_socket(v6=False):
    """An AF_SMC socket with 64 KiB buffers asked for."""
    s = socket.socket(AF_SMC, socket.SOCK_STREAM,
                      SMCPROTO_SMC6 if v6 else SMCPROTO_SMC)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, BUF)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, BUF)
    return s


def smc_listener(port, v6=False):
    s = smc_socket(v6)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    libc_call(libc.bind, s, "::" if v6 else "0.0.0.0", port)
    s.listen(8)
    return s


def tcp_listener(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", port))
    s.listen(8)
    return s


def smc_connect(host, port, v6=False):
    s = smc_socket(v6)
    libc_call(libc.connect, s, host, port)
    return s


class Peer:
    """The sockets of one side and what is known of them."""

    def __init__(self, args):
        self.a = args
        self.socks = {}
        self.facts = {}

    def add(self, name, s, smc=True):
        self.socks[name] = s
        st = os.fstat(s.fileno())
        fact = {"inode": st.st_ino, "uid": st.st_uid, "smc": smc,
                "sent": 0, "received": 0, "local": None, "peer": None}
        self.facts[name] = fact
        self.refresh(name)

    def refresh(self, name):
        s, fact = self.socks[name], self.facts[name]
        try:
            fact["local"] = libc_name(libc.getsockname, s)
        except OSError:
            pass
        try:
            fact["peer"] = libc_name(libc.getpeername, s)
        except OSError:
            pass

    def save(self):
        tmp = self.a.facts + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.facts, f, indent=1, sort_keys=True)
        os.replace(tmp, self.a.facts)

    def accept_named(self, listener, count, client_facts):
        """Accept COUNT children; each is named after the client socket
        whose port it talks to (S1 for C1), from the client's facts."""
        with open(client_facts) as f:
            by_port = {v["local"][1]: k for k, v in json.load(f).items()
                       if v["local"]}
        for _ in range(count):
            c, peer = libc_accept(listener)
            c.settimeout(60)
            name = by_port.get(peer[1])
            if not name:
                raise OSError("no client socket has port %d" % peer[1])
            self.add("S" + name[1:], c)

    def cmd_listen(self):
        p = self.a.port
        self.add("L4", smc_listener(p))
        self.add("L6", smc_listener(p + 3, v6=True))
        self.tcp_listener = tcp_listener(p + 1)
        self.add("LN", smc_listener(p + 2))
        self.add("U", smc_socket())

    def cmd_accept(self, client_facts):
        self.accept_named(self.socks["L4"], 3, client_facts)
        self.tcp_child, _ = self.tcp_listener.accept()
        self.accept_named(self.socks["LN"], 1, client_facts)

    def cmd_accept6(self, client_facts):
        self.accept_named(self.socks["L6"], 1, client_facts)

    def cmd_listen_decline(self):
        self.add("LD", smc_listener(self.a.port + 4))

    def cmd_accept_decline(self, client_facts):
        self.accept_named(self.socks["LD"], 1, client_facts)

    def cmd_connect(self):
        h, p = self.a.host, self.a.port
        for name in ("C1", "C2", "C3"):
            self.add(name, smc_connect(h, p))
        self.add("C4", smc_connect(h, p + 1))
        self.tcp_client = socket.create_connection((h, p + 2), timeout=60)
        self.facts["C5"] = {"local": list(self.tcp_client.getsockname()),
                            "smc": False}

    def cmd_connect6(self):
        self.add("C6", smc_connect(self.a.host6, self.a.port + 3, v6=True))

    def cmd_connect_decline(self):
        self.add("C7", smc_connect(self.a.host, self.a.port + 4))

    def cmd_send(self, name, n):
        data = bytes((i * 13 + 5) & 0xFF for i in range(int(n)))
        self.socks[name].sendall(data)
        self.facts[name]["sent"] += len(data)

    def cmd_recv(self, name, n):
        left = int(n)
        while left:
            b = self.socks[name].recv(min(left, 65536))
            if not b:
                raise OSError("%s: end of stream with %d bytes to come" %
                              (name, left))
            left -= len(b)
            self.facts[name]["received"] += len(b)

    def cmd_eof(self, name):
        b = self.socks[name].recv(1)
        if b:
            raise OSError("%s: data where the end was expected" % name)

    def cmd_shut(self, name):
        self.socks[name].shutdown(socket.SHUT_WR)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("role", choices=("server", "client"))
    p.add_argument("--port", type=int, default=7600)
    p.add_argument("--host", help="the server's IPv4 address")
    p.add_argument("--host6", help="the server's IPv6 address")
    p.add_argument("--facts", required=True, help="JSON file to write")
    a = p.parse_args()
    peer = Peer(a)
    peer.save()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "close":
            for s in peer.socks.values():
                s.close()
            print("ok close", flush=True)
            return 0
        fn = getattr(peer, "cmd_" + words[0].replace("-", "_"), None)
        try:
            if not fn:
                raise ValueError("no such command")
            fn(*words[1:])
            for name in peer.socks:
                peer.refresh(name)
            peer.save()
            print("ok", line.strip(), flush=True)
        except (OSError, ValueError, TypeError, KeyError) as e:
            print("error %s: %s" % (line.strip(), e), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
