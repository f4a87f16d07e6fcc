#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A hostile SMC-R server: CLC (RFC 7609 appendix A) answered badly on purpose.

  smc_hostile_server.py server --port P --mac MAC [--bound S]
  smc_hostile_server.py client --host IP --port P [--bound S]

The server role is a plain TCP program. Run it in a cgroup where
smc_synopt.bpf.o puts the SMC TCP option into the SYN-ACK (see
vm/hostile.sh), so an AF_SMC client takes it for an SMC-capable server.
It listens on ports P, P+1, ... one for each case, takes the client's
Proposal and answers as the case says: a broken Accept, an Accept whose
values cannot be served, an Accept and then silence where CONFIRM LINK
should come, no answer at all, a reset.

The client role, run under smc_run so that its TCP sockets are AF_SMC
ones of our module, connects to each port in turn and sends a line that the server echoes over TCP once the client
fell back. Each case expects one of two outcomes within --bound seconds:
  fallback  the client declined (App. C.1, C.2) and the connection works
            over TCP; the server checks the Decline and its reason code
  fail      the stream can no longer be trusted: connect(), or the first
            read or write, fails with an errno
and never a connection left hanging. Both roles print TAP lines.
"""
import argparse
import ipaddress
import socket
import struct
import sys
import threading
import time

import smc_pytest

EYE = b"\xe2\xd4\xc3\xd9"
PROPOSAL, ACCEPT, CONFIRM, DECLINE = 1, 2, 3, 4
PEER_ID = bytes(range(0x41, 0x49))
ECHO_LINE = b"over TCP after all\n"

# reason codes of the client's Decline (A.2.5), as Linux numbers them
DECL_TIMEOUT_CL = 0x02010000
DECL_CNFERR = 0x03000000
DECL_NOSRVLINK = 0x030b0000


def accept(gid, mac, length=68, eye=EYE, trailer=EYE, version=1, first=True,
           qpn=0x00fff0, rkey=0x1234, idx=1, token=0x10000, size_code=0,
           mtu=3, typ=ACCEPT):
    """An SMC-R v1 Accept (A.2.3); LENGTH is the header's claim only."""
    body = PEER_ID + gid + mac
    body += struct.pack(">I", qpn)[1:] + struct.pack(">I", rkey)
    body += struct.pack(">BIBB", idx, token, (size_code << 4) | mtu, 0)
    body += struct.pack(">QB", 0x7f0000000000, 0)
    body += struct.pack(">I", 0x654321)[1:]
    vflags = (version << 4) | (0x08 if first else 0)
    return eye + struct.pack(">BHB", typ, length, vflags) + body + trailer


# name, what the server sends after the Proposal, the expected outcome
# and, for a fallback, the client's reason code. SEND(gid, mac) gives
# the bytes, or None for a case handled by name.
CASES = [
    ("Accept with a wrong eyecatcher",
     lambda g, m: accept(g, m, eye=b"\xe2\xd4\xc3\xd8"), "fail", None),
    ("Accept with a wrong trailer eyecatcher",
     lambda g, m: accept(g, m, trailer=b"SMCR"), "fail", None),
    ("Accept whose length is shorter than an Accept",
     lambda g, m: accept(g, m, length=40)[:40], "fail", None),
    ("Accept whose length is one byte long",
     lambda g, m: accept(g, m, length=69) + b"\0", "fail", None),
    ("Accept that promises more bytes than it sends",
     lambda g, m: accept(g, m, length=1024), "fail", None),
    ("Accept of version 0", lambda g, m: accept(g, m, version=0), "fail",
     None),
    ("a Proposal instead of an Accept",
     lambda g, m: accept(g, m, typ=PROPOSAL), "fail", None),
    ("a message of unknown type 9",
     lambda g, m: accept(g, m, typ=9), "fail", None),
    ("Decline shorter than a Decline",
     lambda g, m: EYE + struct.pack(">BHB", DECLINE, 20, 0x10) + bytes(8) +
     EYE, "fail", None),
    ("no answer to the Proposal", None, "fail", None),
    ("a reset instead of an Accept", None, "fail", None),
    ("Accept with a reserved QP MTU (0)",
     lambda g, m: accept(g, m, mtu=0), "fallback", DECL_CNFERR),
    ("Accept with a reserved QP MTU (7)",
     lambda g, m: accept(g, m, mtu=7), "fallback", DECL_CNFERR),
    ("Accept with RMBE size code 6 (1 MiB, as Linux 6.12 may send), "
     "then no CONFIRM LINK",
     lambda g, m: accept(g, m, size_code=6), "fallback", DECL_TIMEOUT_CL),
    ("Accept with RMB element index 0",
     lambda g, m: accept(g, m, idx=0), "fallback", None),
    ("Accept for a link group the client does not have",
     lambda g, m: accept(g, m, first=False), "fallback", DECL_NOSRVLINK),
    ("Accept, then no CONFIRM LINK over a QP that does not exist",
     lambda g, m: accept(g, m), "fallback", DECL_TIMEOUT_CL),
    ("Accept, then a reset where CONFIRM LINK should come",
     lambda g, m: accept(g, m), "fail", None),
]


def read_msg(s, bound):
    """One CLC message within BOUND seconds, or None at EOF, reset or
    time out. Not a byte more: what follows a Decline is the
    application's data over TCP."""
    s.settimeout(bound)
    buf = b""
    try:
        while True:
            want = 7 if len(buf) < 7 else struct.unpack(">H", buf[5:7])[0]
            if len(buf) >= want:
                return buf
            chunk = s.recv(want - len(buf))
            if not chunk:
                return None
            buf += chunk
    except OSError:
        return None


def reset(s):
    """Close S with a TCP reset."""
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()


def serve_case(i, ls, a, gid, mac, out):
    """Serve case I on the listening socket LS; OUT[I]: (ok, diag)."""
    name, send, expect, code = CASES[i]
    # the client comes to the cases one after the other
    ls.settimeout(a.bound * (len(CASES) + 2))
    try:
        s, _ = ls.accept()
    except OSError as e:
        out[i] = (False, "no connection: %s" % e)
        return
    t0 = time.monotonic()
    prop = read_msg(s, a.bound)
    if not prop or prop[:4] != EYE or prop[4] != PROPOSAL:
        out[i] = (False, "no Proposal: %r" % (prop[:8] if prop else None))
        s.close()
        return
    if name.startswith("no answer"):
        s.settimeout(a.bound)
        try:
            ended = s.recv(1) == b""
        except OSError:
            ended = True
        out[i] = (ended, "client ended it after %.1f s" %
                  (time.monotonic() - t0))
        s.close()
        return
    if send is None:
        reset(s)
        out[i] = (True, "reset sent")
        return
    s.sendall(send(gid, mac))
    msg = read_msg(s, a.bound)
    if msg and msg[4] == CONFIRM and name.endswith("should come"):
        reset(s)
        out[i] = (True, "reset sent after the Confirm")
        return
    if msg and msg[4] == CONFIRM:
        # C.2: the client may still decline while it waits for CONFIRM LINK
        msg = read_msg(s, a.bound)
    dt = time.monotonic() - t0
    if expect == "fail":
        out[i] = (msg is None, "client %s after %.1f s" %
                  ("ended it" if msg is None else "sent %r" % msg[:8], dt))
        s.close()
        return
    if not msg or msg[4] != DECLINE or len(msg) < 28:
        out[i] = (False, "no Decline from the client: %r" %
                  (msg[:8] if msg else None))
        s.close()
        return
    reason = struct.unpack(">I", msg[16:20])[0]
    diag = "Decline 0x%08x after %.1f s" % (reason, dt)
    if code is not None and reason != code:
        out[i] = (False, diag + ", expected 0x%08x" % code)
        s.close()
        return
    # fallen back: whatever comes now is the application's, over TCP
    s.settimeout(a.bound)
    try:
        line = b""
        while not line.endswith(b"\n"):
            chunk = s.recv(4096)
            if not chunk:
                break
            line += chunk
        s.sendall(line)
    except OSError as e:
        out[i] = (False, diag + ", then %s" % e)
        s.close()
        return
    out[i] = (line == ECHO_LINE, diag + ", then %d bytes echoed over TCP" %
              len(line))
    s.close()


def server(a, tap):
    """The hostile server: a listener and a thread per case."""
    mac = bytes.fromhex(a.mac.replace(":", ""))
    lss = [smc_pytest.listener(a.port + i) for i in range(len(CASES))]
    out = [None] * len(CASES)
    # the GID of our address, an IPv4-mapped one as RoCE v2 has it
    gid = ipaddress.IPv6Address("::ffff:" + a.ip).packed
    threads = [threading.Thread(target=serve_case,
                                args=(i, ls, a, gid, mac, out), daemon=True)
               for i, ls in enumerate(lss)]
    for t in threads:
        t.start()
    if a.ready_file:
        open(a.ready_file, "w").close()
    bad = 0
    for i, t in enumerate(threads):
        t.join(a.bound * (len(CASES) + 4))
        ok, diag = out[i] if out[i] else (False, "still running")
        bad += not ok
        tap(ok, "server: " + CASES[i][0])
        print("# hostile-server: %s: %s" % (CASES[i][0], diag), flush=True)
    return bad


def client(a, tap):
    """Our client (under smc_run): a connection to each case's port in
    turn."""
    bad = 0
    for i, (name, _, expect, _) in enumerate(CASES):
        t0 = time.monotonic()
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(a.bound * 2)	# a guard: the kernel's bound is tested
        try:
            s.connect((a.host, a.port + i))
            s.sendall(ECHO_LINE)
            got = b""
            while not got.endswith(b"\n"):
                chunk = s.recv(4096)
                if not chunk:
                    raise ConnectionResetError("end of stream")
                got += chunk
            what = "fallback" if got == ECHO_LINE else "garbled"
            diag = "connected, echoed over TCP"
        except OSError as e:
            # an errno from the kernel (ETIMEDOUT is a socket.timeout
            # too), not the guard's time out
            if e.errno:
                what = "fail"
            else:
                what = "hung" if isinstance(e, socket.timeout) else "python"
            diag = "errno %s (%s)" % (e.errno, e.strerror or e)
        dt = time.monotonic() - t0
        s.close()
        ok = what == expect and dt <= a.bound
        bad += not ok
        tap(ok, "client: %s: %s within %d s" % (name, expect, a.bound))
        print("# hostile-server: %s: %s after %.1f s" % (name, diag, dt),
              flush=True)
    return bad


def main():
    p = argparse.ArgumentParser()
    p.add_argument("role", choices=("server", "client"))
    p.add_argument("--host", default="")
    p.add_argument("--ip", default="", help="server: our address")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--mac", default="", help="server: our RoCE MAC")
    p.add_argument("--bound", type=int, default=30)
    p.add_argument("--ready-file", default="")
    a = p.parse_args()
    tap = smc_pytest.tapper("hostile-server")
    bad = server(a, tap) if a.role == "server" else client(a, tap)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
