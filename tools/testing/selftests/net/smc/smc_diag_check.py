#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What the kernel says of AF_SMC sockets, against what the test knows.

  raw --out FILE        dump every AF_SMC socket with a sock_diag request
                        of our own (all extensions asked for) and write the
                        answers, decoded field by field, as JSON
  smcss --smcss PATH --facts F --role a|b --label L [--peer-facts PF
        --peer-json PJ] [--json-out FILE] [--tcp-closed NAME,...]
                        run smcss (text and -j, with -a -R -D, and its
                        -l and default views) and check every field it
                        prints against the facts smc_diag_peer.py wrote and
                        the states the scenario of vm/diag.sh leaves each
                        socket in; with PJ (the peer's smcss -j output)
                        and PF also that both ends of each connection
                        agree
  compare --ours-raw R1 --ours-facts F1 --linux-raw R2 --linux-facts F2
        [--tcp-closed NAME,...]
                        the answers of our module and of Linux's smc_diag
                        for the same sockets: values equal, or for what
                        differs from one run to the next (inode, cookie,
                        token, ephemeral ports) both present

Prints TAP lines ("ok - diag: ...").
"""
import argparse
import glob
import json
import os
import re
import socket
import struct
import subprocess
import sys

import smc_pytest

AF_SMC = smc_pytest.uapi("AF_SMC")
NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLM_F_REQUEST, NLM_F_DUMP = 0x1, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3

# uapi/linux/smc_diag.h
SHUTDOWN, CONNINFO, LGRINFO, FALLBACK = 3, 1, 2, 5
ALL_EXT = (1 << (CONNINFO - 1)) | (1 << (LGRINFO - 1))
MSG = struct.Struct("=BBBB2s2s16s16sIIIIQ")     # struct smc_diag_msg
CURSOR = "HHI"
CONNINFO_FMT = struct.Struct("=IIII" + CURSOR * 4 + "BBBB" + CURSOR * 3)
LGRINFO_FMT = struct.Struct("=B64sB40s40sB")
CURSORS = ("rx_prod", "rx_cons", "tx_prod", "tx_cons",
           "tx_prep", "tx_sent", "tx_fin")
CONN_HEAD = ("token", "sndbuf_size", "rmbe_size", "peer_rmbe_size")
CONN_FLAGS = ("rx_prod_flags", "rx_conn_state_flags", "tx_prod_flags",
              "tx_conn_state_flags")

PEERNOSMC, PEERDECL, NOSMCRDEV = 0x03010000, 0x05000000, 0x03030002
BUF = 65536
DONE_WRITING = 0x80
RCV_SHUTDOWN, SEND_SHUTDOWN = 1, 2

# The scenario of vm/diag.sh: where each socket ends up. C* are guest a's,
# S* (children) and L*, U guest b's; C1/S1 exchange data, C2 shut down
# writing, C3 and then S3 too. C4 is an SMC client of a TCP server, S5 an
# SMC server of a TCP client, C6/S6 run over IPv6 (SMC-R v1), C7/S7 meet
# a server that declines SMC-R.
EXPECT = {
    "L4": ("LISTEN", "SMCR", 0, 0, 0),
    "L6": ("LISTEN", "SMCR", 0, 0, 0),
    "LN": ("LISTEN", "SMCR", 0, 0, 0),
    "LD": ("LISTEN", "SMCR", 0, 0, 0),
    "U": ("INIT", "SMCR", 0, 0, 0),
    "C1": ("ACTIVE", "SMCR", 0, 0, 0),
    "S1": ("ACTIVE", "SMCR", 0, 0, 0),
    "C2": ("PEERCLOSEWAIT1", "SMCR", 0, 0, SEND_SHUTDOWN),
    "S2": ("APPCLOSEWAIT1", "SMCR", 0, 0, RCV_SHUTDOWN),
    "C3": ("PEERCLOSEWAIT2", "SMCR", 0, 0, RCV_SHUTDOWN | SEND_SHUTDOWN),
    "S3": ("APPCLOSEWAIT2", "SMCR", 0, 0, RCV_SHUTDOWN | SEND_SHUTDOWN),
    "C4": ("ACTIVE", "TCP", PEERNOSMC, 0, 0),
    "S5": ("ACTIVE", "TCP", PEERNOSMC, 0, 0),
    "C6": ("ACTIVE", "SMCR", 0, 0, 0),
    "S6": ("ACTIVE", "SMCR", 0, 0, 0),
    "C7": ("ACTIVE", "TCP", PEERDECL, NOSMCRDEV, 0),
    "S7": ("ACTIVE", "TCP", NOSMCRDEV, 0, 0),
}

failures = 0


def tap(ok, name, diag=None):
    global failures
    print(("ok" if ok else "not ok") + " - diag: " + name, flush=True)
    if not ok:
        failures += 1
        for line in (diag or []):
            print("# " + str(line))
    return ok


def cstr(b):
    return b.split(b"\0", 1)[0].decode("latin-1")


def decode(body):
    """One answer: the message's fields and its attributes in order."""
    (family, state, mode, shut, sport, dport, src, dst, ifindex, c0, c1,
     uid, inode) = MSG.unpack_from(body)
    s = {"family": family, "state": state, "mode": mode,
         "diag_shutdown": shut,
         "sport": struct.unpack("!H", sport)[0],
         "dport": struct.unpack("!H", dport)[0],
         "src": src.hex(), "dst": dst.hex(), "if": ifindex,
         "cookie": c1 << 32 | c0, "uid": uid, "inode": inode, "attrs": []}
    buf = body[MSG.size:]
    while len(buf) >= 4:
        n, atype = struct.unpack_from("=HH", buf)
        if n < 4:
            break
        data = buf[4:n]
        buf = buf[(n + 3) & ~3:]
        s["attrs"].append([atype, len(data)])
        if atype == SHUTDOWN:
            s["shutdown"] = data[0]
        elif atype == FALLBACK:
            s["fallback"] = list(struct.unpack("=II", data[:8]))
        elif atype == CONNINFO:
            v = CONNINFO_FMT.unpack(data[:CONNINFO_FMT.size])
            c = dict(zip(CONN_HEAD, v[:4]))
            for i, k in enumerate(CURSORS[:4]):
                c[k] = [v[4 + 3 * i + 1], v[4 + 3 * i + 2]]
            c.update(zip(CONN_FLAGS, v[16:20]))
            for i, k in enumerate(CURSORS[4:]):
                c[k] = [v[20 + 3 * i + 1], v[20 + 3 * i + 2]]
            s["conn"] = c
        elif atype == LGRINFO:
            lid, name, port, gid, pgid, role = LGRINFO_FMT.unpack(
                data[:LGRINFO_FMT.size])
            s["lgr"] = {"link_id": lid, "ibname": cstr(name),
                        "ibport": port, "gid": cstr(gid),
                        "peer_gid": cstr(pgid), "role": role}
    return s


def raw_dump(ext=ALL_EXT):
    """Every AF_SMC socket as the kernel answers a dump request."""
    sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_SOCK_DIAG)
    req = struct.pack("=BBBB", AF_SMC, 0, 0, ext) + bytes(48)
    sk.send(struct.pack("=IHHII", 16 + len(req), SOCK_DIAG_BY_FAMILY,
                        NLM_F_REQUEST | NLM_F_DUMP, 1, 0) + req)
    out = []
    while True:
        buf = sk.recv(65536)
        while len(buf) >= 16:
            n, mtype, _, seq, _ = struct.unpack_from("=IHHII", buf)
            body, buf = buf[16:n], buf[(n + 3) & ~3:]
            if mtype == NLMSG_DONE:
                return out
            if mtype == NLMSG_ERROR:
                raise OSError(-struct.unpack_from("=i", body)[0],
                              "sock_diag dump")
            out.append(decode(body))


def cursor_bytes(c, size):
    return c[0] * size + c[1]


def load(path):
    with open(path) as f:
        return json.load(f)


def addr_text(addr):
    return "*" if addr in ("0.0.0.0", "::") else addr


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("%s: exit status %d: %s" %
                           (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p.stdout


ROW = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\d+)\s+(\S+)"
                 r"(?:\s+(0x[0-9a-f]{8}) \((.*?)\)"
                 r"(?: peer (0x[0-9a-f]{8}) \((.*?)\))?)?$")


def parse_text(text):
    """smcss's table: per socket its row's fields and the key value pairs
    of its indented lines, by inode."""
    lines = text.splitlines()
    if not lines or lines[0].split()[:3] != ["State", "UID", "Inode"]:
        raise ValueError("no header line: %r" % lines[:1])
    socks, cur = {}, None
    for line in lines[1:]:
        if line.startswith("    "):
            words = line.split()
            if cur is None or len(words) % 2:
                raise ValueError("stray line %r" % line)
            cur.update(zip(words[::2], words[1::2]))
            continue
        m = ROW.match(line)
        if not m:
            raise ValueError("unparsable row %r" % line)
        cur = dict(zip(("state", "uid", "inode", "local", "peer", "intf",
                        "mode", "reason", "reason_text", "peer_diag",
                        "peer_diag_text"), m.groups()))
        socks[int(cur["inode"])] = cur
    return socks


def json_as_text(s):
    """A socket of smcss -j in the form its text has."""
    def ep(a, p):
        return ("[%s]:%d" if ":" in a else "%s:%d") % (a, p)
    t = {"state": s["state"], "uid": str(s["uid"]),
         "inode": str(s["inode"]), "local": ep(s["local_addr"], s["local_port"]),
         "peer": ep(s["peer_addr"], s["peer_port"]), "intf": str(s["intf"]),
         "mode": s["mode"], "reason": None, "reason_text": None,
         "peer_diag": None, "peer_diag_text": None,
         "shutdown": str(s["shutdown"]), "cookie": str(s["cookie"]),
         "fallback_reason": s["fallback_reason"],
         "peer_diagnosis": s["peer_diagnosis"]}
    if s["mode"] == "TCP":
        t["reason"], t["reason_text"] = s["fallback_reason"], s["fallback_text"]
        if s["peer_diagnosis"] != "0x00000000":
            t["peer_diag"] = s["peer_diagnosis"]
            t["peer_diag_text"] = s["peer_diagnosis_text"]
    for k, v in s.get("link", {}).items():
        t[k] = str(v)
    for k, v in s.get("conn", {}).items():
        t[k] = "%d:%d" % (v["wrap"], v["count"]) if isinstance(v, dict) \
            else str(v)
    return t


def local_gids():
    gids = set()
    for f in glob.glob("/sys/class/infiniband/*/ports/*/gids/*"):
        try:
            with open(f) as fh:
                g = fh.read().strip()
        except OSError:
            continue
        if g.strip("0:"):
            gids.add(g)
    return gids


def check_conn(name, s, fact, errs):
    """The cursors and sizes of an SMC-R connection against the bytes it
    moved."""
    c = s.get("conn")
    if not c:
        errs.append("no conn info")
        return
    if not c["token"]:
        errs.append("token 0")
    for k in ("sndbuf_size", "rmbe_size", "peer_rmbe_size"):
        if c[k] != BUF:
            errs.append("%s %d, not %d" % (k, c[k], BUF))
    size = {"rx_prod": c["rmbe_size"], "tx_cons": c["rmbe_size"],
            "tx_prod": c["peer_rmbe_size"], "rx_cons": c["peer_rmbe_size"],
            "tx_prep": c["sndbuf_size"], "tx_sent": c["sndbuf_size"],
            "tx_fin": c["sndbuf_size"]}
    val = {}
    for k in CURSORS:
        cur = (c[k]["wrap"], c[k]["count"])
        if cur[1] >= size[k]:
            errs.append("%s count %d beyond the buffer" % (k, cur[1]))
        val[k] = cursor_bytes(cur, size[k])
    sent, got = fact["sent"], fact["received"]
    for k in ("tx_prod", "tx_prep", "tx_sent", "tx_fin"):
        if val[k] != sent:
            errs.append("%s %d, sent %d" % (k, val[k], sent))
    if val["rx_prod"] != got:
        errs.append("rx_prod %d, received %d" % (val["rx_prod"], got))
    if val["rx_cons"] > sent:
        errs.append("rx_cons %d beyond the %d sent" % (val["rx_cons"], sent))
    if val["tx_cons"] > got:
        errs.append("tx_cons %d beyond the %d received" % (val["tx_cons"], got))
    shut = EXPECT[name][4]
    want_tx = DONE_WRITING if shut & SEND_SHUTDOWN else 0
    want_rx = DONE_WRITING if shut & RCV_SHUTDOWN else 0
    for k, want in (("tx_conn_state_flags", want_tx),
                    ("rx_conn_state_flags", want_rx),
                    ("tx_prod_flags", 0), ("rx_prod_flags", 0)):
        if c[k] != want:
            errs.append("%s %#x, not %#x" % (k, c[k], want))


def check_link(name, s, gids, role, errs):
    li = s.get("link")
    if not li:
        errs.append("no link info")
        return
    want_role = "client" if name.startswith("C") else "server"
    for k, want in (("ib_dev", "rxe0"), ("ib_port", 1), ("role", want_role)):
        if li[k] != want:
            errs.append("link %s %r, not %r" % (k, li[k], want))
    if li["link_id"] < 1:
        errs.append("link_id %d" % li["link_id"])
    if li["gid"] not in gids:
        errs.append("gid %s is none of this host's %s" % (li["gid"], gids))
    if li["peer_gid"] in gids or not li["peer_gid"].strip("0:"):
        errs.append("peer_gid %s" % li["peer_gid"])


def check_sock(name, s, fact, gids, role, tcp_closed):
    """Every field smcss -j gives of one socket, against the facts."""
    errs = []
    if name in tcp_closed and s.get("local_port") == 0:
        fact = dict(fact, local=[fact["local"][0], 0])
    state, mode, reason, pdiag, shut = EXPECT[name]
    want = {"state": state, "mode": mode, "uid": fact["uid"],
            "fallback_reason": "0x%08x" % reason,
            "peer_diagnosis": "0x%08x" % pdiag, "shutdown": shut,
            "intf": 0}
    local = fact["local"]
    peer = fact["peer"] or ["0.0.0.0", 0]
    want["local_addr"], want["local_port"] = addr_text(local[0]), local[1]
    want["peer_addr"], want["peer_port"] = addr_text(peer[0]), peer[1]
    for k, v in want.items():
        if s.get(k) != v:
            errs.append("%s %r, not %r" % (k, s.get(k), v))
    if not s.get("cookie"):
        errs.append("no cookie")
    if reason and not s.get("fallback_text"):
        errs.append("no text for the fallback reason")
    if mode == "SMCR" and state not in ("LISTEN", "INIT"):
        check_link(name, s, gids, role, errs)
        check_conn(name, s, fact, errs)
    else:
        for k in ("link", "conn"):
            if k in s:
                errs.append("%s info on a socket without SMC-R" % k)
    return errs


def partner(name, peer_facts, peer_socks):
    """The socket of PEER_SOCKS at the other end of NAME's connection: C1's
    is S1."""
    other = peer_facts.get({"C": "S", "S": "C"}[name[0]] + name[1:])
    for p in peer_socks:
        if other and p["inode"] == other["inode"]:
            return p
    return None


def check_ends(name, s, p):
    errs = []
    if p is None:
        return ["the peer lists no socket for this connection"]
    li, pl = s.get("link", {}), p.get("link", {})
    if li.get("gid") != pl.get("peer_gid") or \
            li.get("peer_gid") != pl.get("gid"):
        errs.append("gids %s/%s, the peer's %s/%s" %
                    (li.get("gid"), li.get("peer_gid"), pl.get("gid"),
                     pl.get("peer_gid")))
    c, pc = s.get("conn", {}), p.get("conn", {})
    if c.get("rmbe_size") != pc.get("peer_rmbe_size"):
        errs.append("rmbe_size %s, the peer's peer_rmbe_size %s" %
                    (c.get("rmbe_size"), pc.get("peer_rmbe_size")))
    if c.get("tx_prod") != pc.get("rx_prod"):
        errs.append("tx_prod %s, the peer received %s" %
                    (c.get("tx_prod"), pc.get("rx_prod")))
    return errs


def cmd_smcss(a):
    smcss = a.smcss
    facts = {k: v for k, v in load(a.facts).items() if v.get("smc")}
    gids = local_gids()
    label = "%s (%s)" % (a.label, a.role)

    try:
        doc = json.loads(run([smcss, "-a", "-R", "-D", "-j"]))
        socks = doc["sockets"]
        tap(True, "smcss -a -R -D -j is JSON with a list of sockets " + label)
    except (RuntimeError, ValueError, KeyError) as e:
        tap(False, "smcss -a -R -D -j is JSON with a list of sockets " + label,
            [e])
        return
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(socks, f)
    by_inode = {s["inode"]: s for s in socks}

    want = {v["inode"]: k for k, v in facts.items()}
    extra = sorted(set(by_inode) - set(want))
    missing = sorted(k for i, k in want.items() if i not in by_inode)
    tap(not extra and not missing,
        "smcss -a lists exactly the test's %d AF_SMC sockets %s" %
        (len(want), label),
        ["missing %s" % missing, "not the test's: %s" %
         [by_inode[i] for i in extra]])

    for name in sorted(facts):
        s = by_inode.get(facts[name]["inode"])
        if s is None:
            continue
        errs = check_sock(name, s, facts[name], gids, a.role, a.tcp_closed)
        tap(not errs, "smcss -j: every field of %s (%s, %s) %s" %
            (name, EXPECT[name][0], EXPECT[name][1], label),
            errs + [json.dumps(s)])

    try:
        text = parse_text(run([smcss, "-a", "-R", "-D"]))
        errs = []
        for inode, s in by_inode.items():
            t, j = text.get(inode), json_as_text(s)
            if t != j:
                errs.append("inode %d: text %s" % (inode, t))
                errs.append("inode %d: json %s" % (inode, j))
        if set(text) != set(by_inode):
            errs.append("text lists %s, JSON %s" % (sorted(text),
                                                     sorted(by_inode)))
        tap(not errs, "smcss -a -R -D: the same sockets and values as -j " +
            label, errs)
    except (RuntimeError, ValueError) as e:
        tap(False, "smcss -a -R -D: the same sockets and values as -j " +
            label, [e])

    for opt, states, what in (([], None, "connected"),
                              (["-l"], ("LISTEN",), "listening")):
        try:
            got = set(parse_text(run([smcss] + opt)))
            want_set = {s["inode"] for s in socks
                        if (s["state"] in states if states else
                            s["state"] not in ("LISTEN", "INIT"))}
            tap(got == want_set, "smcss %s: the %s sockets only %s" %
                (" ".join(opt), what, label),
                ["got %s, want %s" % (sorted(got), sorted(want_set))])
        except (RuntimeError, ValueError) as e:
            tap(False, "smcss %s: the %s sockets only %s" %
                (" ".join(opt), what, label), [e])

    if a.peer_json:
        peer_socks = load(a.peer_json)["sockets"]
        peer_facts = load(a.peer_facts)
        for name in sorted(facts):
            s = by_inode.get(facts[name]["inode"])
            if not s or "conn" not in s:
                continue
            errs = check_ends(name, s,
                              partner(name, peer_facts, peer_socks))
            tap(not errs, "smcss: %s agrees with the peer's end %s" %
                (name, label), errs)


def names_by_inode(facts):
    return {v["inode"]: k for k, v in facts.items() if v.get("smc")}


def compare_sock(name, o, li, tcp_closed):
    """Our answer O and Linux's LI for the same socket of the scenario."""
    errs = []
    fixed = ("family", "state", "mode", "diag_shutdown", "uid", "if",
             "src", "dst", "attrs", "shutdown", "fallback")
    for k in fixed:
        if o.get(k) != li.get(k):
            errs.append("%s: ours %r, Linux's %r" % (k, o.get(k), li.get(k)))
    for k in ("inode", "cookie"):
        if bool(o[k]) != bool(li[k]):
            errs.append("%s: ours %r, Linux's %r" % (k, o[k], li[k]))
    # the server's port is the test's, a client's is the kernel's choice
    srv = name.startswith(("S", "L"))
    for k, fixed_port in (("sport", srv), ("dport", not srv)):
        if k == "sport" and name in tcp_closed and not li[k]:
            continue
        if fixed_port and o[k] != li[k] or bool(o[k]) != bool(li[k]):
            errs.append("%s: ours %d, Linux's %d" % (k, o[k], li[k]))
    oc, lc = o.get("conn"), li.get("conn")
    if oc and lc:
        for k in oc:
            if k == "token":
                same = bool(oc[k]) == bool(lc[k])
            elif k in ("rx_cons", "tx_cons"):
                same = True     # when to update is each module's choice
            else:
                same = oc[k] == lc[k]
            if not same:
                errs.append("conn %s: ours %r, Linux's %r" % (k, oc[k], lc[k]))
    if o.get("lgr") != li.get("lgr"):
        errs.append("lgr: ours %r, Linux's %r" % (o.get("lgr"), li.get("lgr")))
    return errs


def cmd_compare(a):
    ours = {s["inode"]: s for s in load(a.ours_raw)}
    linux = {s["inode"]: s for s in load(a.linux_raw)}
    on, ln = names_by_inode(load(a.ours_facts)), names_by_inode(
        load(a.linux_facts))
    o_by = {on[i]: s for i, s in ours.items() if i in on}
    l_by = {ln[i]: s for i, s in linux.items() if i in ln}
    common = sorted(set(o_by) & set(l_by))
    tap(bool(common) and set(l_by) <= set(o_by),
        "compare: Linux's answer has the sockets ours has (%s)" %
        " ".join(common), ["ours %s, Linux's %s" % (sorted(o_by),
                                                      sorted(l_by))])
    for name in common:
        errs = compare_sock(name, o_by[name], l_by[name], a.tcp_closed)
        tap(not errs, "compare: %s (%s): ours and Linux's smc_diag agree "
            "field by field" % (name, EXPECT[name][0]),
            errs + ["ours    %s" % json.dumps(o_by[name], sort_keys=True),
                    "Linux's %s" % json.dumps(l_by[name], sort_keys=True)])


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("raw")
    r.add_argument("--out", required=True)
    s = sub.add_parser("smcss")
    s.add_argument("--smcss", required=True)
    s.add_argument("--facts", required=True)
    s.add_argument("--role", required=True)
    s.add_argument("--label", required=True)
    s.add_argument("--peer-json")
    s.add_argument("--peer-facts")
    s.add_argument("--json-out")
    c = sub.add_parser("compare")
    for k in ("ours-raw", "ours-facts", "linux-raw", "linux-facts"):
        c.add_argument("--" + k, required=True)
    for sp in (s, c):
        sp.add_argument("--tcp-closed", default="", type=lambda v: v.split(","),
                        help="sockets whose TCP port may read 0: Linux "
                        "closes the internal TCP connection once both "
                        "ends shut down writing")
    a = p.parse_args()
    if a.cmd == "raw":
        socks = raw_dump()
        with open(a.out, "w") as f:
            json.dump(socks, f, indent=1, sort_keys=True)
        tap(True, "raw sock_diag dump: %d AF_SMC sockets" % len(socks))
    elif a.cmd == "smcss":
        cmd_smcss(a)
    else:
        cmd_compare(a)
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # pylint: disable=broad-except
        import traceback
        tap(False, "%s: the checker itself failed" % sys.argv[1:2],
            traceback.format_exc().splitlines())
        sys.exit(1)
