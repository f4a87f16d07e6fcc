#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""IPPROTO_SMC sockets as sock_diag and smcss show them.

  smc_ipproto.py --smcss PATH

socket(AF_INET or AF_INET6, SOCK_STREAM, IPPROTO_SMC) (Linux 6.11 on):
per family a listener and a connection on loopback, which falls back to
TCP there, data both ways. The AF_SMC sock_diag dump must list all three
with the addresses and ports of their TCP connection (Linux 6.12's
smc_diag reports 0.0.0.0 for them), and smcss must print the same.
Prints TAP lines; exits non-zero on a failure.
"""
import argparse
import os
import socket
import sys

import smc_diag_check as diag
import smc_pytest

IPPROTO_SMC = smc_pytest.uapi("IPPROTO_SMC")
FAMILIES = ((socket.AF_INET, "127.0.0.1", "IPv4"),
            (socket.AF_INET6, "::1", "IPv6"))

tap = smc_pytest.tapper("ipproto")
failures = 0


def check(ok, name, why=""):
    global failures
    tap(ok, name)
    if not ok:
        failures += 1
        if why:
            print("# " + why)
    return ok


def raw_addr(family, addr):
    """An address as the dump decoder prints it: 16 bytes in hex."""
    packed = socket.inet_pton(family, addr)
    return (packed + bytes(16 - len(packed))).hex()


def endpoint(family, addr, port):
    return ("[%s]:%d" if family == socket.AF_INET6 else "%s:%d") % (addr,
                                                                     port)


def one_family(family, host, label, smcss):
    lsn = socket.socket(family, socket.SOCK_STREAM, IPPROTO_SMC)
    lsn.bind((host, 0))
    lsn.listen(1)
    port = lsn.getsockname()[1]
    cli = socket.socket(family, socket.SOCK_STREAM, IPPROTO_SMC)
    cli.settimeout(20)
    cli.connect((host, port))
    srv, _ = lsn.accept()
    srv.settimeout(20)
    cport = cli.getsockname()[1]
    cli.sendall(b"ping" * 1000)
    got = b""
    while len(got) < 4000:
        got += srv.recv(4000 - len(got))
    srv.sendall(got[::-1])
    back = b""
    while len(back) < 4000:
        back += cli.recv(4000 - len(back))
    check(got == b"ping" * 1000 and back == got[::-1],
          "%s: data both ways on loopback" % label)

    # (name, fd, local port, peer port, peer address)
    want = (("listener", lsn, port, 0, None),
            ("client", cli, cport, port, host),
            ("accepted", srv, port, cport, host))
    socks = {s["inode"]: s for s in diag.raw_dump()}
    for name, sk, lport, pport, paddr in want:
        ino = os.fstat(sk.fileno()).st_ino
        s = socks.get(ino)
        if not check(s is not None, "%s %s: in the AF_SMC dump" %
                     (label, name), "inode %d not among %s" %
                     (ino, sorted(socks))):
            continue
        exp = {"family": diag.AF_SMC, "sport": lport, "dport": pport,
               "src": raw_addr(family, host),
               "dst": raw_addr(family, paddr) if paddr else bytes(16).hex()}
        bad = {k: (s[k], v) for k, v in exp.items() if s[k] != v}
        check(not bad, "%s %s: its TCP addresses and ports" % (label, name),
              "field: (dumped, expected) %s" % bad)

    rows = diag.parse_text(diag.run([smcss, "-a"]))
    for name, sk, lport, pport, paddr in want:
        row = rows.get(os.fstat(sk.fileno()).st_ino)
        exp = (endpoint(family, host, lport),
               endpoint(family, paddr, pport) if paddr else "*:0")
        got = (row["local"], row["peer"]) if row else None
        check(got == exp, "%s %s: smcss -a shows %s %s" %
              ((label, name) + exp), "smcss: %s" % (got,))
    for sk in (cli, srv, lsn):
        sk.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smcss", required=True)
    a = ap.parse_args()
    for family, host, label in FAMILIES:
        try:
            one_family(family, host, label, a.smcss)
        except OSError as e:
            check(False, "%s: %s" % (label, e))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
