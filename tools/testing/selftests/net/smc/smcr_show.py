#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks on what tools/smcr prints, for the guest groups.

`smcr stats`, `smcr linkgroup` and `smcr link` print "key value" lines,
link groups and links a block each. Each subcommand reads saved outputs,
prints what it compared as "# " lines and exits 0 when the check holds:

  smcr_show.py delta BEFORE AFTER KEY=N|KEY>=N...
      the stats key grew by exactly N, or by N at least, from BEFORE to
      AFTER
  smcr_show.py fallbacks STATS ROLE [CODE=COUNT...]
      role ROLE (srv or clnt) fell back for exactly these reasons, that
      many times each, and fallback.ROLE.total is their sum
  smcr_show.py block FILE KEY=VALUE... [!KEY...]
      a block of FILE has each KEY=VALUE and none of the !KEYs
  smcr_show.py match LGRS LINKS PEER_LGRS PEER_LINKS [--busy|--newest]
                     [--host H] [--peer-host H] [--min N]
      each link of ours (with connections: --busy; of our newest group:
      --newest) has its other end among the peer's: GIDs and link user
      ids crossed; the two links, and their groups, report the same keys;
      the groups have opposite roles, one version and one EID; the peer's
      group names our host H and ours the peer's; at least N links
      matched (1)
"""
import argparse
import sys


def blocks(path):
    """The blocks of a file, each a dict of its keys and values."""
    with open(path) as f:
        text = f.read()
    out = []
    for chunk in text.split("\n\n"):
        block = {}
        for line in chunk.splitlines():
            if line.strip():
                key, _, value = line.partition(" ")
                block[key] = value
        if block:
            out.append(block)
    return out


def values(path):
    """The keys and values of a file of one block (stats)."""
    found = blocks(path)
    return found[0] if found else {}


def note(text):
    print("# " + text)


def delta(a):
    before, after = values(a.before), values(a.after)
    ok = True
    for want in a.keys:
        if ">=" in want:
            key, n = want.split(">=")
            cmp = (lambda d, n=int(n): d >= n)
        else:
            key, n = want.split("=")
            cmp = (lambda d, n=int(n): d == n)
        d = int(after.get(key, 0)) - int(before.get(key, 0))
        good = cmp(d)
        note("%s grew by %d (want %s)%s" % (key, d, want[len(key):],
                                             "" if good else ": WRONG"))
        ok &= good
    return ok


def fallbacks(a):
    stats = values(a.stats)
    prefix = "fallback.%s.0x" % a.role
    got = {k[len(prefix) - 2:]: int(v) for k, v in stats.items()
           if k.startswith(prefix)}
    want = {}
    for item in a.reasons:
        code, count = item.split("=")
        want[code.lower()] = int(count)
    total = int(stats.get("fallback.%s.total" % a.role, -1))
    note("%s: total %d, reasons %s; want %s" %
         (a.role, total, sorted(got.items()), sorted(want.items())))
    return got == want and total == sum(want.values())


def block(a):
    have = {}
    lack = []
    for item in a.items:
        if item.startswith("!"):
            lack.append(item[1:])
        else:
            key, _, value = item.partition("=")
            have[key] = value
    for b in blocks(a.file):
        if all(b.get(k) == v for k, v in have.items()) and \
                not any(k in b for k in lack):
            note("found: %s" % b)
            return True
    note("no block with %s and without %s" % (have, lack))
    return False


def match(a):
    lgrs = {b.get("id"): b for b in blocks(a.lgrs)}
    plgrs = {b.get("id"): b for b in blocks(a.peer_lgrs)}
    plinks = blocks(a.peer_links)
    ok, n = True, 0
    newest = max(lgrs, key=lambda i: int(i or "0", 16), default=None)

    def same(what, x, y, key):
        good = x.get(key) == y.get(key)
        if not good:
            note("%s %s: %r here, %r there" % (what, key, x.get(key),
                                               y.get(key)))
        return good

    for link in blocks(a.links):
        g = lgrs.get(link.get("lgr"), {})
        if a.busy and int(link.get("conns", 0)) < 1:
            continue
        if a.newest and link.get("lgr") != newest:
            continue
        peer = [p for p in plinks if p.get("gid") == link.get("peer_gid") and
                p.get("peer_gid") == link.get("gid")]
        if not peer:
            note("link %s of group %s: no peer link with gid %s" %
                 (link.get("id"), link.get("lgr"), link.get("peer_gid")))
            ok = False
            continue
        # two groups may join the same ports: the link user ids, which
        # the two ends exchange in CONFIRM LINK, tell their links apart
        crossed = [p for p in peer if p.get("peer_uid") == link.get("uid")
                   and p.get("uid") == link.get("peer_uid")]
        p = (crossed or peer)[0]
        h = plgrs.get(p.get("lgr"), {})
        n += 1
        note("link %s of group %s (%s, version %s) <-> link %s of group %s"
             " (%s, version %s)" % (link.get("id"), link.get("lgr"),
                                   g.get("role"), g.get("version", 1),
                                   p.get("id"), p.get("lgr"), h.get("role"),
                                   h.get("version", 1)))
        good = link.get("uid") == p.get("peer_uid") and \
            link.get("peer_uid") == p.get("uid")
        if not good:
            note("link user ids not crossed: %s/%s here, %s/%s there" %
                 (link.get("uid"), link.get("peer_uid"), p.get("uid"),
                  p.get("peer_uid")))
        for what, x, y in (("link keys", link, p), ("group keys", g, h)):
            if sorted(x) != sorted(y):
                note("%s: %s here, %s there" % (what, sorted(x), sorted(y)))
                good = False
        if g.get("role") == h.get("role") or not g or not h:
            note("roles: %s here, %s there" % (g.get("role"), h.get("role")))
            good = False
        good &= same("group", g, h, "version") & same("group", g, h, "eid")
        if "version" in g:
            if a.host and h.get("peer_host") != a.host:
                note("peer names us %r, not %r" % (h.get("peer_host"),
                                                    a.host))
                good = False
            if a.peer_host and g.get("peer_host") != a.peer_host:
                note("we name the peer %r, not %r" % (g.get("peer_host"),
                                                      a.peer_host))
                good = False
        ok &= good
    note("%d links matched, %d wanted" % (n, a.min))
    return ok and n >= a.min


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("delta")
    s.add_argument("before")
    s.add_argument("after")
    s.add_argument("keys", nargs="+")
    s = sub.add_parser("fallbacks")
    s.add_argument("stats")
    s.add_argument("role", choices=("srv", "clnt"))
    s.add_argument("reasons", nargs="*")
    s = sub.add_parser("block")
    s.add_argument("file")
    s.add_argument("items", nargs="+")
    s = sub.add_parser("match")
    s.add_argument("lgrs")
    s.add_argument("links")
    s.add_argument("peer_lgrs")
    s.add_argument("peer_links")
    s.add_argument("--busy", action="store_true")
    s.add_argument("--newest", action="store_true")
    s.add_argument("--host")
    s.add_argument("--peer-host")
    s.add_argument("--min", type=int, default=1)
    a = p.parse_args()
    check = {"delta": delta, "fallbacks": fallbacks, "block": block,
             "match": match}[a.cmd]
    return 0 if check(a) else 1


if __name__ == "__main__":
    sys.exit(main())
