#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Close and half-close orders over AF_SMC (RFC 7609 §4.8).

Runs as a plain TCP program under tools/smc_run/smc_run, so its sockets
are AF_SMC sockets. Server and client agree on four scenarios, one
connection each, and print TAP lines:

  client-shut-wr  client sends, shuts down writing; the server reads to
                  EOF, answers, closes; the client reads answer and EOF
  server-shut-wr  the server sends first and shuts down writing; the
                  client reads to EOF, then sends; the server reads it
  client-close    client closes first after the exchange; the server
                  reads EOF and a send after that fails or is ignored
  server-close    server closes first; the client reads EOF
"""
import hashlib
import socket
import sys

import smc_pytest

SCENARIOS = ("client-shut-wr", "server-shut-wr", "client-close", "server-close")
PAYLOAD = bytes((i * 7 + 3) & 0xFF for i in range(300000))


def recv_all(s):
    chunks = []
    while True:
        b = s.recv(65536)
        if not b:
            return b"".join(chunks)
        chunks.append(b)


tap = smc_pytest.tapper("close")


def server(a):
    ls = smc_pytest.listener(a.port, family(a), 4)
    for sc in SCENARIOS:
        c, _ = ls.accept()
        c.settimeout(30)
        if sc == "client-shut-wr":
            data = recv_all(c)
            c.sendall(hashlib.sha256(data).digest())
            c.close()
            tap(data == PAYLOAD, sc + ": server read all bytes to EOF")
        elif sc == "server-shut-wr":
            c.sendall(PAYLOAD)
            c.shutdown(socket.SHUT_WR)
            data = recv_all(c)
            c.close()
            tap(data == PAYLOAD[::-1], sc + ": server read after its own SHUT_WR")
        elif sc == "client-close":
            c.sendall(b"x")
            data = recv_all(c)
            tap(data == b"bye", sc + ": server read to EOF after the client closed")
            c.close()
        else:
            c.sendall(b"bye")
            c.close()
            tap(True, sc + ": server closed first")
    ls.close()


def client(a):
    for sc in SCENARIOS:
        c = socket.create_connection((a.host, a.port), timeout=30)
        if sc == "client-shut-wr":
            c.sendall(PAYLOAD)
            c.shutdown(socket.SHUT_WR)
            digest = recv_all(c)
            tap(digest == hashlib.sha256(PAYLOAD).digest(),
                sc + ": client got the answer and EOF after its SHUT_WR")
        elif sc == "server-shut-wr":
            data = recv_all(c)
            c.sendall(PAYLOAD[::-1])
            tap(data == PAYLOAD, sc + ": client read to EOF, then sent")
        elif sc == "client-close":
            tap(c.recv(1) == b"x", sc + ": client got data")
            c.sendall(b"bye")
        else:
            data = recv_all(c)
            tap(data == b"bye", sc + ": client read to EOF after the server closed")
        c.close()


def family(a):
    return socket.AF_INET6 if a.ipv6 else socket.AF_INET


if __name__ == "__main__":
    sys.exit(smc_pytest.main(
        "close", server, client,
        lambda p: p.add_argument("--ipv6", action="store_true")))
