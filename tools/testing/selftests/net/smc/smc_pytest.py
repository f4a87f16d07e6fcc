# SPDX-License-Identifier: GPL-2.0
"""What the Python tests run under smc_run share.

Each test is one program with a server and a client role, told apart on
the command line (ROLE --port P [--host H] and options of its own), that
prints TAP lines; an OSError in either role is a failure of that role.
"""
import argparse
import os
import re
import socket

UAPI = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                    "../../../../../include/uapi/linux/smcr.h")


def uapi(name):
    """The value of NAME in include/uapi/linux/smcr.h, where the tree
    defines AF_SMC and the SMCPROTO_* protocols once."""
    with open(UAPI) as f:
        m = re.search(r"^#define\s+%s\s+(\d+)" % name, f.read(), re.M)
    if not m:
        raise KeyError(name)
    return int(m.group(1))


def tapper(group):
    """A tap(ok, name) printing TAP lines of the test GROUP."""
    def tap(ok, name):
        print(("ok" if ok else "not ok") + " - " + group + ": " + name,
              flush=True)
    return tap


def listener(port, family=socket.AF_INET, backlog=1, sockopts=()):
    """A listening socket on every address of FAMILY, port PORT.

    SOCKOPTS: (level, name, value) set before listen(), in that order.
    """
    ls = socket.socket(family, socket.SOCK_STREAM)
    for level, name, value in sockopts:
        ls.setsockopt(level, name, value)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("::" if family == socket.AF_INET6 else "0.0.0.0", port))
    ls.listen(backlog)
    return ls


def recv_to_end(s, bufsize=65536):
    """Everything socket S receives until its peer shuts down writing."""
    parts = []
    while True:
        r = s.recv(bufsize)
        if not r:
            return b"".join(parts)
        parts.append(r)


def main(group, server, client, options=None):
    """Parse the command line, run server(args) or client(args).

    OPTIONS(parser) adds the test's own arguments. Returns the exit status.
    """
    p = argparse.ArgumentParser()
    p.add_argument("role", choices=("server", "client"))
    p.add_argument("--host", default="")
    p.add_argument("--port", type=int, required=True)
    if options:
        options(p)
    a = p.parse_args()
    try:
        (server if a.role == "server" else client)(a)
    except OSError as e:
        print("not ok - %s: %s: %s" % (group, a.role, e), flush=True)
        return 1
    return 0
