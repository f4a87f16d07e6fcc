#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A hostile SMC-R client: CLC (RFC 7609 appendix A) spoken badly on purpose.

  smc_hostile.py --host IP --port P [--prefix 10.77.0.0/24] [--bound S]

Run in a cgroup where smc_synopt.bpf.o puts the SMC TCP option into the
SYN (see vm/hostile.sh), so the server's kernel takes this plain TCP
client for an SMC-capable peer. Each case opens a connection to an AF_SMC
server, sends what the case says and reads what comes back. The server
must answer with a CLC Decline or end the connection, within --bound
seconds; it must never accept a broken message nor leave the connection
hanging. One TAP line per case, the server's answer in a comment.
"""
import argparse
import ipaddress
import socket
import struct
import time

EYE = b"\xe2\xd4\xc3\xd9"
PROPOSAL, ACCEPT, CONFIRM, DECLINE = 1, 2, 3, 4
PEER_ID = bytes(range(0x11, 0x19))
GID = bytes(range(0x20, 0x30))
MAC = bytes(range(0x31, 0x37))


def hdr(typ, length, vflags):
    return EYE + struct.pack(">BHB", typ, length, vflags)


def proposal(prefix, length=None, version=1, eye=EYE, trailer=EYE,
             v6_count=0):
    """An SMC-R v1 Proposal (A.2) for the IPv4 PREFIX."""
    net = ipaddress.ip_network(prefix)
    body = PEER_ID + GID + MAC + struct.pack(">H", 0)
    body += net.network_address.packed + struct.pack(">BHB", net.prefixlen,
                                                     0, v6_count)
    msg = eye + struct.pack(">BHB", PROPOSAL, 0, version << 4) + body + trailer
    n = len(msg) if length is None else length
    return msg[:5] + struct.pack(">H", n) + msg[7:]


def confirm(qpn, rkey, size_code, mtu=3, version=1):
    """An SMC-R v1 Confirm (A.4) with the given QP number, rkey and
    RMBE size code."""
    body = PEER_ID + GID + MAC
    body += struct.pack(">I", qpn)[1:] + struct.pack(">I", rkey)
    body += struct.pack(">BIBB", 1, 0x0a0b0c0d, (size_code << 4) | mtu, 0)
    body += struct.pack(">QB", 0x1000, 0) + struct.pack(">I", 0x123456)[1:]
    msg = hdr(CONFIRM, 0, version << 4) + body + EYE
    return msg[:5] + struct.pack(">H", len(msg)) + msg[7:]


def answer(s, bound):
    """What the server does within BOUND seconds: ("decline", code),
    ("accept", msg), ("other", msg), ("closed", None) or ("silent", None).
    """
    s.settimeout(bound)
    buf = b""
    try:
        while True:
            if len(buf) >= 7:
                n = struct.unpack(">H", buf[5:7])[0]
                if len(buf) >= n:
                    break
            chunk = s.recv(4096)
            if not chunk:
                return ("closed", None) if not buf else ("other", buf)
            buf += chunk
    except socket.timeout:
        return ("silent", buf)
    except ConnectionResetError:
        return ("closed", None)
    if buf[:4] != EYE:
        return ("other", buf)
    if buf[4] == DECLINE:
        return ("decline", struct.unpack(">I", buf[16:20])[0])
    if buf[4] == ACCEPT:
        return ("accept", buf)
    return ("other", buf)


def wait_end(s, bound):
    """Whether the server ends the connection within BOUND seconds
    (what it sends first, a Decline say, is read and dropped)."""
    s.settimeout(bound)
    try:
        while s.recv(4096):
            pass
    except socket.timeout:
        return False
    except OSError:
        pass
    return True


def run(a):
    bad = 0

    def tap(ok, name, diag):
        nonlocal bad
        bad += not ok
        print("%s - hostile: %s" % ("ok" if ok else "not ok", name),
              flush=True)
        print("# hostile: %s: %s" % (name, diag), flush=True)

    def case(name, data, expect=("decline", "closed")):
        t0 = time.monotonic()
        s = socket.create_connection((a.host, a.port), timeout=10)
        s.sendall(data)
        kind, what = answer(s, a.bound)
        dt = time.monotonic() - t0
        if kind == "decline":
            diag = "Decline 0x%08x after %.1f s" % (what, dt)
        else:
            diag = "%s after %.1f s" % (kind, dt)
        tap(kind in expect, name, diag)
        s.close()
        return kind, what

    p = a.prefix
    case("proposal with a wrong eyecatcher",
         proposal(p, eye=b"\xe2\xd4\xc3\xd8"))
    case("proposal with a wrong trailer eyecatcher",
         proposal(p, trailer=b"SMCR"))
    case("proposal whose length is shorter than a header",
         proposal(p, length=6))
    case("proposal whose length is one byte short",
         proposal(p, length=len(proposal(p)) - 1))
    case("proposal that promises more bytes than it sends",
         proposal(p, length=1024))
    case("proposal of version 0", proposal(p, version=0))
    case("proposal claiming 255 IPv6 prefixes", proposal(p, v6_count=255))
    case("a Confirm instead of a Proposal", confirm(0x10, 1, 1))
    case("a header and nothing else", hdr(PROPOSAL, 4096, 0x10))
    case("proposal for a subnet the server is not on",
         proposal("192.0.2.0/24"))

    # a proposal the server accepts, then a Confirm it must refuse: with
    # a QP that does not exist, whose CONFIRM LINK is never answered, with
    # RMBE size code 15 too (512 MiB: past the RFC's largest, which Linux
    # 6.12 sends and so we take)
    for name, conf in (
            ("Confirm with RMBE size code 15 and a QP that does not exist",
             confirm(0xfffffe, 0x1234, 15)),
            ("Confirm naming QP 0xfffffe that does not exist",
             confirm(0xfffffe, 0x1234, 1)),
            ("no Confirm at all after the Accept", None)):
        t0 = time.monotonic()
        s = socket.create_connection((a.host, a.port), timeout=10)
        s.sendall(proposal(p))
        kind, what = answer(s, a.bound)
        if kind != "accept":
            tap(False, name, "the valid proposal got %s" % kind)
            s.close()
            continue
        if conf:
            s.sendall(conf)
        ended = wait_end(s, a.bound)
        dt = time.monotonic() - t0
        tap(ended, name + ": the server ends the connection",
            "%s after %.1f s" % ("ended" if ended else "still open", dt))
        s.close()
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--host", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--prefix", default="10.77.0.0/24")
    p.add_argument("--bound", type=float, default=30)
    return run(p.parse_args())


if __name__ == "__main__":
    raise SystemExit(main())
