#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Raw requests to the SMC_PNETID family and the net.smc sysctls.

Sends a fixed sequence of requests (uapi/linux/smc.h numbers), malformed
ones included, to whichever SMC module is loaded and checks each answer
against what Linux 6.1's smc.ko answers: errnos and the entries dumped.
Prints TAP lines; with --transcript FILE it also writes every reply byte
for byte (netlink type and flags, then the payload in hex; the port id,
which differs between sockets, left out), so that two modules can be
compared with diff.

The default sequence needs a RoCE device rxe0 (one port) and a network
device eth0, and an empty PNET table; it leaves the table empty. With
--netns it expects the rules of a namespace other than the initial one,
where RoCE entries do not exist. With --sysctl it reads the net.smc
sysctls of the namespace instead, writes values in and out of their
ranges and puts the defaults back.
"""
import argparse
import errno
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smc_genl  # noqa: E402
import smc_pytest  # noqa: E402

# uapi/linux/smc.h
FAMILY = "SMC_PNETID"
GET, ADD, DEL, FLUSH = 1, 2, 3, 4
NAME, ETHNAME, IBNAME, IBPORT = 1, 2, 3, 4
# SMC_GEN_NETLINK: the PNET IDs of RoCE ports
GET_DEV_SMCR, GEN_DEV_SMCR = 6, 6
DEV_PORT, DEV_PORT2, DEV_IB_NAME = 8, 9, 10
PORT_PNET_USR, PORT_PNETID = 1, 2

NLMSG_ERROR, NLMSG_DONE = 2, 3

attr = smc_genl.attr
attrs = smc_genl.attrs
ename = smc_genl.ename


def s(text):
    """A NUL-terminated string attribute value."""
    return text.encode("latin-1") + b"\0"


def name(pnetid):
    return attr(NAME, s(pnetid))


def eth(dev):
    return attr(ETHNAME, s(dev))


def ib(dev, port=None):
    out = attr(IBNAME, s(dev))
    if port is not None:
        out += attr(IBPORT, struct.pack("=B", port))
    return out


class Pnet:
    """Requests on one generic netlink socket; every reply kept."""

    def __init__(self, family):
        self.g = smc_genl.Genl(family)
        self.g.sk.settimeout(10)

    def request(self, cmd, payload=b"", dump=False):
        """(errno, [(type, flags, payload)]) of one request: for a dump
        up to its DONE, else up to the acknowledgment."""
        return self.g.exchange(self.g.family, cmd, payload, dump)


def entries(msgs):
    """The entries of GET replies as (name, ethname, ibname, port)."""
    out = []
    for mtype, _, data in msgs:
        if mtype in (NLMSG_ERROR, NLMSG_DONE):
            continue
        a = dict(attrs(data[4:]))
        out.append((a.get(NAME, b"")[:-1].decode("latin-1"),
                    a.get(ETHNAME, b"")[:-1].decode("latin-1"),
                    a.get(IBNAME, b"")[:-1].decode("latin-1"),
                    a.get(IBPORT, b"\xfe")[0]))
    return out


def describe(msgs, family):
    """Every byte of the replies, but the number the family got when it
    was registered: "fam" stands for it as a message type, also in the
    request an error message echoes."""
    lines = []
    for t, f, d in msgs:
        if t == NLMSG_ERROR and len(d) >= 20:
            n, et, ef, eseq, epid = struct.unpack_from("=IHHII", d, 4)
            lines.append("  error %d echoes len=%d type=%s flags=%#x seq=%d "
                         "pid=%d %s" % (
                             struct.unpack_from("=i", d)[0], n,
                             "fam" if et == family else et, ef, eseq, epid,
                             d[20:].hex()))
            continue
        lines.append("  type=%s flags=%#x %s" % (
            "fam" if t == family else t, f, d.hex()))
    return lines


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--transcript", help="write every answer here")
    p.add_argument("--group", default="pnet", help="TAP name prefix")
    p.add_argument("--netns", action="store_true",
                   help="not the initial network namespace")
    p.add_argument("--sysctl", action="store_true",
                   help="the net.smc sysctls instead")
    a = p.parse_args()
    log = []
    failed = 0
    line = smc_pytest.tapper(a.group)

    def tap(ok, what, diag=None):
        """A TAP line; the diagnostics and the count of failures too."""
        nonlocal failed
        line(ok, what)
        failed += not ok
        if not ok and diag:
            print("# " + diag)

    if a.sysctl:
        sysctls(tap, log)
    else:
        pnet_table(Pnet(FAMILY), tap, log, a.netns)
    if a.transcript:
        with open(a.transcript, "w") as f:
            f.write("\n".join(log) + "\n")
    return 1 if failed else 0


def pnet_table(pn, tap, log, netns):
    """The sequence of SMC_PNETID requests."""
    init = not netns

    def do(what, cmd, payload=b"", want=0):
        rc, msgs = pn.request(cmd, payload)
        log.append("%s: %s" % (what, ename(rc)))
        log.extend(describe(msgs, pn.g.family))
        tap(rc == want, "%s -> %s" % (what, ename(want)), "got " + ename(rc))
        return msgs

    def table(what, want, cmd_payload=None):
        if cmd_payload is None:
            rc, msgs = pn.request(GET, dump=True)
        else:
            rc, msgs = pn.request(GET, cmd_payload)
        log.append("%s: %s, %d messages" % (what, ename(rc), len(msgs)))
        log.extend(describe(msgs, pn.g.family))
        got = entries(msgs)
        tap(not rc and got == want, "%s: %d entries" % (what, len(want)),
            "rc %s, %r" % (ename(rc), got))

    def ports(what, want):
        """The PNET IDs SMC_GEN_NETLINK reports for rxe0's ports."""
        gen = smc_genl.Genl()
        rc, msgs = gen.request(gen.family, GET_DEV_SMCR)
        got = []
        for _, _, _, body in msgs:
            for atype, dev in attrs(body):
                if atype != GEN_DEV_SMCR:
                    continue
                d = dict(attrs(dev))
                if d.get(DEV_IB_NAME) != b"rxe0\0":
                    continue
                for pa in (DEV_PORT, DEV_PORT2):
                    if pa in d:
                        port = dict(attrs(d[pa]))
                        got.append((port.get(PORT_PNET_USR, b"").hex(),
                                    port.get(PORT_PNETID, b"")))
        log.append("%s: %s %r" % (what, ename(rc), got))
        tap(not rc and got == want, what, repr(got))

    eexist_ib = 0 if init else errno.EEXIST
    table("dump of an empty table", [])
    do("add without attribute", ADD, want=errno.EINVAL)
    do("add a PNET ID alone", ADD, name("P1"), errno.EEXIST)
    for bad in ("", "   ", "A-B", "A_B", "A B", "P1234567890123456"):
        do("add PNET ID %r" % bad, ADD, name(bad) + eth("eth0"),
           errno.EINVAL)
    do("add PNET ID without NUL", ADD, attr(NAME, b"P1") + eth("eth0"),
       errno.EINVAL)
    do("add eth0 without PNET ID", ADD, eth("eth0"), errno.EINVAL)
    do("add ' net1 ' eth0 (blanks, lower case)", ADD,
       name(" net1 ") + eth("eth0"))
    do("add P2 eth0 again", ADD, name("P2") + eth("eth0"), errno.EEXIST)
    do("add P2 eth nosuchdev (not there yet)", ADD,
       name("P2") + eth("nosuchdev"))
    do("add 16 characters eth lo", ADD,
       name("P234567890123456") + eth("lo"))
    do("add eth of 16 characters", ADD,
       name("P3") + eth("E234567890123456"), errno.EINVAL)
    do("add eth without NUL", ADD,
       name("P3") + attr(ETHNAME, b"eth1"), errno.EINVAL)
    do("add P1 ib rxe0 1", ADD, name("P1") + ib("rxe0", 1), eexist_ib)
    do("add P4 ib rxe0 1 (port taken)", ADD, name("P4") + ib("rxe0", 1),
       errno.EEXIST)
    do("add P5 ib rxe0 2 (device in the table)", ADD,
       name("P5") + ib("rxe0", 2), errno.EEXIST)
    do("add P6 ib rxe0 0", ADD, name("P6") + ib("rxe0", 0),
       errno.EINVAL if init else errno.EEXIST)
    do("add P6 ib rxe0 3", ADD, name("P6") + ib("rxe0", 3),
       errno.EINVAL if init else errno.EEXIST)
    do("add P6 ib ' noib ' (no port, not there)", ADD,
       name("P6") + ib(" noib "), eexist_ib)
    do("add P7 ib noib2 with a u32 port", ADD,
       name("P7") + attr(IBNAME, s("noib2")) +
       attr(IBPORT, struct.pack("=I", 2)), eexist_ib)
    do("add P8 eth veth8 ib noib 9 (eth added, port bad)", ADD,
       name("P8") + eth("veth8") + ib("noib", 9),
       errno.EINVAL if init else 0)
    do("add P9 eth lo ib noib9 1 (eth in the table)", ADD,
       name("P9") + eth("lo") + ib("noib9", 1), eexist_ib)
    do("add P9 with attribute type 9", ADD,
       name("P9") + eth("veth9") + attr(9, b"\0\0\0\0"))
    want = [("NET1", "eth0", "n/a", 255), ("P2", "nosuchdev", "n/a", 255),
            ("P234567890123456", "lo", "n/a", 255)]
    if init:
        want += [("P1", "n/a", "rxe0", 1), ("P6", "n/a", "noib", 1),
                 ("P7", "n/a", "noib2", 2)]
    want += [("P8", "veth8", "n/a", 255)]
    if init:
        want += [("P9", "n/a", "noib9", 1)]
    want += [("P9", "veth9", "n/a", 255)]
    table("dump", want)
    rc, msgs = pn.request(GET, name("P1"), dump=True)
    tap(not rc and entries(msgs) == want, "dump with an attribute: all",
        repr(entries(msgs)))
    table("get P9", [e for e in want if e[0] == "P9"], name("P9"))
    table("get 'P9 ' (trailing blank)", [e for e in want if e[0] == "P9"],
          name("P9 "))
    table("get net1 (as given: no match)", [], name("net1"))
    table("get P (a prefix: no match)", [], name("P"))
    do("get without PNET ID", GET, want=errno.EINVAL)
    if init:
        ports("rxe0 ports: port 1 P1 from the user",
              [("01", b"P1\0")])
    do("del without PNET ID", DEL, want=errno.EINVAL)
    do("del net1 (as given: no match)", DEL, name("net1"), errno.ENOENT)
    do("del P5 (only a port had it)", DEL, name("P5"),
       0 if init else errno.ENOENT)
    do("del P5 again", DEL, name("P5"), errno.ENOENT)
    do("del P1", DEL, name("P1"), 0 if init else errno.ENOENT)
    do("del P9 (two entries)", DEL, name("P9"))
    want = [e for e in want if e[0] not in ("P1", "P9")]
    table("dump after del", want)
    if init:
        ports("rxe0 ports: no PNET ID after del", [("00", b"\0")])
        do("add P4 ib rxe0 (port free again)", ADD, name("P4") + ib("rxe0"))
        ports("rxe0 ports: port 1 P4", [("01", b"P4\0")])
    do("flush with a bad PNET ID attribute", FLUSH, attr(NAME, b"X"),
       errno.EINVAL)
    do("flush", FLUSH)
    table("dump after flush", [])
    do("flush empty", FLUSH)
    do("del P2 after flush", DEL, name("P2"), errno.ENOENT)
    if init:
        ports("rxe0 ports: no PNET ID after flush", [("00", b"\0")])
    do("unknown command 9", 9, want=errno.EOPNOTSUPP)


# net.smc sysctls: name, Linux's default, writes and whether each passes
SYSCTLS = [
    ("autocorking_size", "65536",
     [("0", True), ("4294967295", True), ("4294967296", False),
      ("-1", False)]),
    ("smcr_buf_type", "0",
     [("1", True), ("2", True), ("3", False), ("-1", False)]),
    ("smcr_testlink_time", "30",
     [("0", True), ("5", True), ("-1", True), ("2147483647", False),
      ("x", False)]),
    ("wmem", "65536",
     [("16384", True), ("16383", False), ("1073741823", True),
      ("1073741824", False), ("262144", True)]),
    ("rmem", "65536",
     [("16384", True), ("16383", False), ("1073741823", True),
      ("1073741824", False), ("262144", True)]),
]

# and where the kernel's smc.ko has SMC release 1 (6.12), its three
SYSCTLS_REL1 = [
    ("smcr_max_conns_per_lgr", "255",
     [("16", True), ("15", False), ("256", False), ("100", True)]),
    ("smcr_max_links_per_lgr", "2",
     [("1", True), ("0", False), ("3", False)]),
    ("limit_smc_hs", "0",
     [("1", True), ("2", False), ("-1", False)]),
]



def sysctls(tap, log):
    """Read, write out of and in range, read back, restore."""
    def path(n):
        return "/proc/sys/net/smc/" + n

    def read(n):
        with open(path(n)) as f:
            return f.read().strip()

    def write(n, v):
        try:
            with open(path(n), "w") as f:
                f.write(v + "\n")
            return 0
        except OSError as e:
            return e.errno

    want = SYSCTLS + (SYSCTLS_REL1 if smc_genl.kernel_release() else [])
    tap(sorted(os.listdir("/proc/sys/net/smc")) ==
        sorted(n for n, _, _ in want),
        "net/smc has the %d sysctls of the kernel's smc.ko" % len(want),
        repr(os.listdir("/proc/sys/net/smc")))
    for n, default, writes in want:
        got = read(n)
        log.append("%s: %s" % (n, got))
        tap(got == default, "%s is %s" % (n, default), "got " + got)
        for v, ok in writes:
            before = read(n)
            rc = write(n, v)
            after = read(n)
            log.append("%s = %s: %s, reads %s" % (n, v, ename(rc), after))
            if ok:
                tap(not rc and after == v, "%s = %s" % (n, v),
                    "%s, reads %s" % (ename(rc), after))
            else:
                tap(rc == errno.EINVAL and after == before,
                    "%s = %s -> EINVAL, unchanged" % (n, v),
                    "%s, reads %s" % (ename(rc), after))
        write(n, default)
        tap(read(n) == default, "%s back to %s" % (n, default))


if __name__ == "__main__":
    sys.exit(main())
