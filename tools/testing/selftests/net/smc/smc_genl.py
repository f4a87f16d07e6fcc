#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Raw requests to the SMC_GEN_NETLINK family, malformed ones included.

Sends a fixed sequence of requests (uapi/linux/smc.h numbers) to whichever
SMC module is loaded and checks each answer against what Linux 6.1's
smc.ko answers on a machine without ISM: errnos, the number of dump
messages and what they carry. Prints TAP lines; with --transcript FILE it
also writes every answer byte for byte (message flags, command, version,
attributes in hex), so two modules can be compared with diff.

The UEID table must be empty at the start; it is empty again at the end.
Dumps whose contents depend on what the module did before (link groups,
statistics) are checked for their form; the transcript holds only the
attribute types and lengths of those that do not depend on traffic.

With --hold-dump it only starts a dump of the system info and leaves it
unfinished (a dump in progress pins the module), says "held" and waits
for its standard input to close.
"""
import argparse
import errno
import os
import socket
import struct
import sys

NETLINK_GENERIC = 16
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2

NLM_F_REQUEST = 0x1
NLM_F_ACK = 0x4
NLM_F_DUMP = 0x300
NLMSG_ERROR = 2
NLMSG_DONE = 3

# uapi/linux/smc.h
FAMILY = "SMC_GEN_NETLINK"
GET_SYS_INFO, GET_LGR_SMCR, GET_LINK_SMCR = 1, 2, 3
GET_LGR_SMCD, GET_DEV_SMCD, GET_DEV_SMCR = 4, 5, 6
GET_STATS, GET_FBACK_STATS = 7, 8
DUMP_HS_LIMITATION, ENABLE_HS_LIMITATION, DISABLE_HS_LIMITATION = 16, 17, 18
GEN_LGR_SMCR, GEN_LINK_SMCR, GEN_DEV_SMCR = 2, 3, 6
GEN_STATS, GEN_FBACK_STATS = 7, 8
HS_LIMITATION_ENABLED = 1
# the nests of each top-level nest, and theirs: (type: its nests)
STATS_TECH = {t: {} for t in range(1, 7)}
NESTS = {
    GEN_LGR_SMCR: {7: {}, 8: {}},
    GEN_DEV_SMCR: {8: {}, 9: {}},
    GEN_STATS: {1: STATS_TECH, 2: STATS_TECH},
    GEN_FBACK_STATS: {},
}
DUMP_UEID, ADD_UEID, REMOVE_UEID, FLUSH_UEID = 9, 10, 11, 12
DUMP_SEID, ENABLE_SEID, DISABLE_SEID = 13, 14, 15
GEN_SYS_INFO = 1
SYS_VER, SYS_REL, SYS_IS_ISM_V2, SYS_LOCAL_HOST = 1, 2, 3, 4
SYS_SEID, SYS_IS_SMCR_V2 = 5, 6
EID_ENTRY = 1
EID_LEN = 32


def ename(rc):
    """errno's name, "0" for success; EOPNOTSUPP as the kernel calls it."""
    if not rc:
        return "0"
    if rc == errno.EOPNOTSUPP:
        return "EOPNOTSUPP"
    return errno.errorcode.get(rc, str(rc))


def attr(atype, data):
    """One netlink attribute, padded to 4 bytes."""
    n = 4 + len(data)
    return struct.pack("=HH", n, atype) + data + b"\0" * (-n % 4)


def attrs(buf):
    """The attributes in BUF as a list of (type, data)."""
    out = []
    while len(buf) >= 4:
        n, atype = struct.unpack_from("=HH", buf)
        if n < 4:
            break
        out.append((atype & 0x3fff, buf[4:n]))
        buf = buf[(n + 3) & ~3:]
    return out


def shape(body, nests):
    """The attribute types of BODY in order, with the length of values
    and the shape of nests (NESTS says which are), as text."""
    parts = []
    for atype, data in attrs(body):
        if atype in nests:
            parts.append("%d{%s}" % (atype, shape(data, nests[atype])))
        else:
            parts.append("%d:%d" % (atype, len(data)))
    return " ".join(parts)


def eid(text, pad=b" ", nul=True):
    """An EID as the ABI carries it: 32 bytes padded, then a NUL."""
    b = text.encode("latin-1") if isinstance(text, str) else text
    b = b + pad * (EID_LEN - len(b))
    return b + (b"\0" if nul else b"")


class Genl:
    """A generic netlink socket talking to one family (by default
    SMC_GEN_NETLINK)."""

    def __init__(self, name=FAMILY):
        self.sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                NETLINK_GENERIC)
        self.sk.bind((0, 0))
        self.seq = 0
        rc, msgs = self.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                                attr(CTRL_ATTR_FAMILY_NAME,
                                     name.encode() + b"\0"), dump=False,
                                version=1)
        if rc:
            raise OSError(rc, "no generic netlink family " + name)
        self.family = None
        for _, _, _, body in msgs:
            for atype, data in attrs(body):
                if atype == CTRL_ATTR_FAMILY_ID:
                    self.family = struct.unpack("=H", data[:2])[0]

    def send(self, family, cmd, payload=b"", dump=True, version=1):
        """Send one request."""
        self.seq += 1
        flags = NLM_F_REQUEST | (NLM_F_DUMP if dump else NLM_F_ACK)
        body = struct.pack("=BBH", cmd, version, 0) + payload
        hdr = struct.pack("=IHHII", 16 + len(body), family, flags, self.seq, 0)
        self.sk.send(hdr + body)

    def exchange(self, family, cmd, payload=b"", dump=True, version=1):
        """Send one request; return (errno, [(type, flags, payload)]) of
        every reply to it, the final error or done message included."""
        self.send(family, cmd, payload, dump, version)
        msgs = []
        while True:
            buf = self.sk.recv(65536)
            while len(buf) >= 16:
                n, mtype, mflags, seq, _ = struct.unpack_from("=IHHII", buf)
                data = buf[16:n]
                buf = buf[(n + 3) & ~3:]
                if seq != self.seq:
                    continue
                msgs.append((mtype, mflags, data))
                if mtype == NLMSG_ERROR:
                    return -struct.unpack_from("=i", data)[0], msgs
                if mtype == NLMSG_DONE:
                    return 0, msgs

    def request(self, family, cmd, payload=b"", dump=True, version=1):
        """Send one request; return (errno, [(flags, cmd, version, attrs)])
        of the messages before the final one."""
        rc, msgs = self.exchange(family, cmd, payload, dump, version)
        return rc, [(mflags,) + struct.unpack_from("=BB", data) + (data[4:],)
                    for _, mflags, data in msgs[:-1]]


def describe(msgs):
    """Every byte of dump replies, one line per message."""
    lines = []
    for mflags, mcmd, mver, body in msgs:
        parts = []
        for atype, data in attrs(body):
            parts.append("%d:%s" % (atype, data.hex()))
        lines.append("  flags=%#x cmd=%d ver=%d %s" %
                     (mflags, mcmd, mver, " ".join(parts)))
    return lines


def kernel_release():
    """The SMC release the running kernel's own smc.ko reports: 1 where
    its uapi smc.h has release 1's attributes (6.12), else 0; our module
    reports the same by default."""
    uapi = "/lib/modules/%s/source/include/uapi/linux/smc.h" % os.uname().release
    try:
        with open(uapi) as f:
            return 1 if "SMC_NLA_LGR_R_V2_MAX_CONNS" in f.read() else 0
    except OSError:
        return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--transcript", help="write every answer here")
    p.add_argument("--group", default="genl", help="TAP name prefix")
    p.add_argument("--hold-dump", action="store_true",
                   help="leave a dump unfinished until stdin closes")
    a = p.parse_args()
    g = Genl()
    fam = g.family
    if a.hold_dump:
        g.send(fam, GET_SYS_INFO)
        print("held", flush=True)
        sys.stdin.read()
        return 0
    log = []
    failed = 0

    def tap(ok, name, diag=None):
        nonlocal failed
        print(("ok" if ok else "not ok") + " - %s: %s" % (a.group, name))
        if not ok:
            failed += 1
            if diag:
                print("# " + diag)

    def do(name, cmd, payload=b"", want=0):
        rc, _ = g.request(fam, cmd, payload, dump=False)
        log.append("%s: %s" % (name, ename(rc)))
        tap(rc == want, "%s -> %s" % (name, ename(want)), "got " + ename(rc))

    def dump(name, cmd, payload=b""):
        rc, msgs = g.request(fam, cmd, payload, dump=True)
        log.append("%s: %s, %d messages" % (name, ename(rc), len(msgs)))
        log.extend(describe(msgs))
        return rc, msgs

    def ueids():
        rc, msgs = dump("dump ueid", DUMP_UEID)
        out = []
        for _, _, _, body in msgs:
            for atype, data in attrs(body):
                if atype == EID_ENTRY:
                    out.append(data)
        return rc, out

    # system info: one message, one nest, Linux's values, no SEID
    rc, msgs = dump("sys info", GET_SYS_INFO)
    info = {}
    if not rc and len(msgs) == 1:
        for atype, data in attrs(msgs[0][3]):
            if atype == GEN_SYS_INFO:
                info = dict(attrs(data))
    tap(not rc and len(msgs) == 1 and msgs[0][1] == GET_SYS_INFO and
        msgs[0][0] & 0x2, "sys info: one NLM_F_MULTI message",
        "rc %d, %d messages" % (rc, len(msgs)))
    rel = kernel_release()
    tap(info.get(SYS_VER) == b"\x02" and info.get(SYS_REL) == bytes([rel]),
        "sys info: version 2 release %d" % rel, repr(info))
    tap(info.get(SYS_IS_SMCR_V2) == b"\x01" and
        info.get(SYS_IS_ISM_V2) == b"\x00" and SYS_SEID not in info,
        "sys info: SMC-R v2 1, ISM v2 0, no SEID", repr(info))
    host = os.uname().nodename.encode()[:32]
    tap(info.get(SYS_LOCAL_HOST) == host + b" " * (32 - len(host)) + b"\0",
        "sys info: host name, 32 bytes blank padded and a NUL",
        repr(info.get(SYS_LOCAL_HOST)))

    # no system EID without ISM: an empty message; switching it is refused
    rc, msgs = dump("dump seid", DUMP_SEID)
    tap(not rc and len(msgs) == 1 and not attrs(msgs[0][3]) and
        msgs[0][1] == DUMP_SEID, "dump seid: one message, no attribute",
        "rc %d, %s" % (rc, describe(msgs)))
    do("enable seid", ENABLE_SEID, want=errno.EOPNOTSUPP)
    do("disable seid", DISABLE_SEID, want=errno.EOPNOTSUPP)

    rc, got = ueids()
    tap(not rc and not got, "dump ueid of an empty table: no message")

    # the attribute: a string of 32 characters and its NUL, nothing else
    do("add 33 bytes", ADD_UEID, attr(EID_ENTRY, eid("RAW1")))
    do("add without NUL (32 bytes)", ADD_UEID,
       attr(EID_ENTRY, eid("RAW2", nul=False)), errno.EINVAL)
    do("add 33 bytes not NUL terminated", ADD_UEID,
       attr(EID_ENTRY, eid("RAW3", nul=False) + b" "), errno.ERANGE)
    do("add 34 bytes", ADD_UEID, attr(EID_ENTRY, eid("RAW4") + b"\0"),
       errno.ERANGE)
    do("add 5 bytes", ADD_UEID, attr(EID_ENTRY, b"RAW5\0"), errno.EINVAL)
    do("add without attribute", ADD_UEID, b"", errno.EINVAL)
    do("add with attribute type 2", ADD_UEID,
       attr(EID_ENTRY, eid("RAW6")) + attr(2, b"\0\0\0\0"), errno.EINVAL)
    do("add all blanks", ADD_UEID, attr(EID_ENTRY, eid("")), errno.EINVAL)
    do("add blank first", ADD_UEID, attr(EID_ENTRY, eid(" RAW7")),
       errno.EINVAL)
    do("add NUL inside", ADD_UEID, attr(EID_ENTRY, eid("RAW\0" + "8")),
       errno.EINVAL)
    do("add NUL padded", ADD_UEID, attr(EID_ENTRY, eid("RAW9", b"\0")),
       errno.EINVAL)
    do("add lower case", ADD_UEID, attr(EID_ENTRY, eid("RAWa")),
       errno.EINVAL)
    do("add '_'", ADD_UEID, attr(EID_ENTRY, eid("RAW_B")), errno.EINVAL)
    do("add '.' first", ADD_UEID, attr(EID_ENTRY, eid(".RAWC")),
       errno.EINVAL)
    # white space pads too and stays as it came; Latin-1 capitals pass
    do("add tab padded", ADD_UEID, attr(EID_ENTRY, eid("TAB", b"\t")))
    do("add Latin-1 capital first", ADD_UEID,
       attr(EID_ENTRY, eid("\xc0.1-A")))
    do("add Latin-1 small", ADD_UEID, attr(EID_ENTRY, eid("A\xe0")),
       errno.EINVAL)
    do("add duplicate", ADD_UEID, attr(EID_ENTRY, eid("RAW1")),
       errno.EEXIST)
    do("add fourth", ADD_UEID,
       attr(EID_ENTRY, eid("Z" * 32)))
    do("add fifth", ADD_UEID, attr(EID_ENTRY, eid("MORE")), errno.ERANGE)
    do("add duplicate to a full table", ADD_UEID,
       attr(EID_ENTRY, eid("RAW1")), errno.ERANGE)
    do("add invalid to a full table", ADD_UEID,
       attr(EID_ENTRY, eid("bad")), errno.EINVAL)
    rc, got = ueids()
    want = [eid("RAW1"), eid("TAB", b"\t"), eid("\xc0.1-A"), eid("Z" * 32)]
    tap(not rc and got == want, "dump ueid: 4 entries in order, as added",
        repr(got))

    do("remove without attribute", REMOVE_UEID, b"", errno.EINVAL)
    do("remove 32 bytes", REMOVE_UEID,
       attr(EID_ENTRY, eid("RAW1", nul=False)), errno.EINVAL)
    do("remove unknown", REMOVE_UEID, attr(EID_ENTRY, eid("NOPE")),
       errno.ENOENT)
    do("remove invalid", REMOVE_UEID, attr(EID_ENTRY, eid("bad")),
       errno.ENOENT)
    do("remove other padding", REMOVE_UEID, attr(EID_ENTRY, eid("TAB")),
       errno.ENOENT)
    do("remove first", REMOVE_UEID, attr(EID_ENTRY, eid("RAW1")))
    rc, got = ueids()
    tap(not rc and got == want[1:], "dump ueid: the others keep their order",
        repr(got))
    do("add after remove", ADD_UEID, attr(EID_ENTRY, eid("RAW1")))
    rc, got = ueids()
    tap(not rc and got == want[1:] + want[:1],
        "dump ueid: a new entry goes last", repr(got))

    do("flush with attribute", FLUSH_UEID, attr(EID_ENTRY, eid("RAW1")),
       errno.EINVAL)
    rc, _ = dump("dump ueid with attribute", DUMP_UEID,
                 attr(EID_ENTRY, eid("RAW1")))
    tap(rc == errno.EINVAL, "dump ueid with attribute -> EINVAL",
        "got " + ename(rc))
    do("flush", FLUSH_UEID)
    do("flush empty", FLUSH_UEID)
    rc, got = ueids()
    tap(not rc and not got, "dump ueid after flush: no message")
    do("unknown command 200", 200, want=errno.EOPNOTSUPP)

    # SMC-D: no ISM device, no message
    for name, cmd in (("smcd link groups", GET_LGR_SMCD),
                      ("smcd devices", GET_DEV_SMCD)):
        rc, msgs = dump(name, cmd)
        tap(not rc and not msgs, "%s: no message" % name,
            "rc %d, %s" % (rc, describe(msgs)))

    def form(name, cmd, want_nests, one=False, log_shape=False):
        """Each message of a dump is command CMD with one nest of
        WANT_NESTS; its shape goes to the transcript with log_shape."""
        rc, msgs = g.request(fam, cmd, dump=True)
        shapes = []
        ok = not rc and (len(msgs) == 1 or not one)
        for mflags, mcmd, _, body in msgs:
            top = attrs(body)
            ok &= mflags & 0x2 and len(top) == 1 and \
                (mcmd, top[0][0]) in want_nests
            shapes.append(shape(body, NESTS))
        if log_shape:
            log.append("%s: %s, %d messages" % (name, ename(rc), len(msgs)))
            log.extend("  cmd=%d %s" % (m[1], sh) for m, sh in
                       zip(msgs, shapes))
        tap(ok, "%s: %s" % (name, "one message" if one else
                            "messages of their own nest"),
            "rc %d, %s" % (rc, shapes))
        return msgs, shapes

    form("smcr link groups", GET_LGR_SMCR, {(GET_LGR_SMCR, GEN_LGR_SMCR)})
    form("smcr links", GET_LINK_SMCR, {(GET_LGR_SMCR, GEN_LGR_SMCR),
                                       (GET_LINK_SMCR, GEN_LINK_SMCR)})
    form("smcr devices", GET_DEV_SMCR, {(GET_DEV_SMCR, GEN_DEV_SMCR)},
         log_shape=True)
    _, shapes = form("stats", GET_STATS, {(GET_STATS, GEN_STATS)}, one=True,
                     log_shape=True)
    # each technology: buffer counts tx and rx, payload sizes tx and rx,
    # buffer sizes tx and rx, then the values, all u64, in Linux's order;
    # release 1 (6.12) has the buffers in use after the bytes, NLA_UINT
    # of 4 bytes while they are that small
    bufs = " ".join("%d:8" % t for t in (5, 1, 2, 3, 4, 6, 7))
    sizes = " ".join("%d:8" % t for t in range(1, 10))
    usage = ["20:4", "21:4"] if kernel_release() else []
    values = ["%d:8" % t for t in (7, 8, 9, 10, 16, 17)] + usage + \
        ["%d:8" % t for t in (18, 19, 11, 13, 14, 12, 15)]
    tech = "5{%s} 6{%s} 3{%s} 4{%s} 1{%s} 2{%s} %s" % (
        bufs, bufs, sizes, sizes, sizes, sizes, " ".join(values))
    tap(shapes == ["7{1{%s} 2{%s} 3:8 4:8}" % (tech, tech)],
        "stats: Linux's nests, order and sizes", repr(shapes))
    msgs, shapes = form("fallback stats", GET_FBACK_STATS,
                        {(GET_FBACK_STATS, GEN_FBACK_STATS)})
    want = ["8{1:1 2:8 3:8 4:4 5:2}"] + ["8{1:1 4:4 5:2}"] * len(msgs)
    tap(shapes == want[:len(shapes)],
        "fallback stats: a reason each, the totals with the first",
        repr(shapes))

    # handshake limitation: a flag of the namespace, off at first
    def hs_limitation():
        rc, msgs = dump("dump hs limitation", DUMP_HS_LIMITATION)
        return [(m[1], attrs(m[3])) for m in msgs] if not rc else rc

    for what, flag, cmd in (("enable", b"\x01", ENABLE_HS_LIMITATION),
                            ("disable", b"\x00", DISABLE_HS_LIMITATION)):
        do(what + " hs limitation", cmd)
        got = hs_limitation()
        tap(got == [(DUMP_HS_LIMITATION, [(HS_LIMITATION_ENABLED, flag)])],
            "dump hs limitation after %s: one message, flag %d" %
            (what, flag[0]), repr(got))

    if a.transcript:
        with open(a.transcript, "w") as f:
            f.write("\n".join(log) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
