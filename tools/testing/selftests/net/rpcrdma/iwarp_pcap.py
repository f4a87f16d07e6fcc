#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""iwarp_pcap.py FILE [--max N]: what an iWARP capture (tcpdump -w of the
RPC-over-RDMA port, whole segments, from before the connection) shows of
RPC-over-RDMA: each TCP stream reassembled, its MPA Request and Reply
(revision, CRC and reject flags, MPA v2 IRD/ORD and the RFC 8797 private
data, found by its magic), then its FPDUs: a count of the RDMAP opcodes
by direction and the transport header of each Send (as rpcrdma_pcap.py
prints them for RoCEv2).

Exit status 1 when no RPC-over-RDMA message was found."""
import argparse
import collections
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rpcrdma_pcap import RPCRDMA_MAGIC, packets, rdma_message, summary  # noqa: E402

RDMAP_OPC = {0: 'WRITE', 1: 'READ_REQUEST', 2: 'READ_RESPONSE', 3: 'SEND',
             4: 'SEND_INV', 5: 'SEND_SE', 6: 'SEND_SE_INV', 7: 'TERMINATE'}
MPA_KEYS = {b'MPA ID Req Frame': 'Request', b'MPA ID Rep Frame': 'Reply'}


def tcp(frame):
    """(stream key, seq, syn?, payload) or None"""
    etype = struct.unpack_from('>H', frame, 12)[0]
    if etype == 0x0800:
        ihl = (frame[14] & 15) * 4
        if frame[23] != 6:
            return None
        src = '.'.join(map(str, frame[26:30]))
        dst = '.'.join(map(str, frame[30:34]))
        end = 14 + struct.unpack_from('>H', frame, 16)[0]
        t = 14 + ihl
    elif etype == 0x86dd:
        if frame[20] != 6:
            return None
        src, dst = frame[22:38].hex(), frame[38:54].hex()
        end = 54 + struct.unpack_from('>H', frame, 18)[0]
        t = 54
    else:
        return None
    sport, dport, seq = struct.unpack_from('>HHI', frame, t)
    syn = bool(frame[t + 13] & 0x02)
    return (f'{src}:{sport}->{dst}:{dport}', seq, syn,
            frame[t + (frame[t + 12] >> 4) * 4:end])


def streams(path):
    """{key: bytes} from the first byte after the SYN (or the lowest
    sequence number seen), up to the first gap"""
    segs = collections.defaultdict(dict)
    isn = {}
    for frame in packets(path):
        r = tcp(frame)
        if not r:
            continue
        key, seq, syn, data = r
        if syn:
            isn[key] = (seq + 1) & 0xffffffff
        if data and len(data) > len(segs[key].get(seq, b'')):
            segs[key][seq] = data
    out = {}
    for key, s in segs.items():
        if not s:
            continue
        start = isn.get(key, min(s))
        buf = bytearray()
        for seq in sorted(s, key=lambda x: (x - start) & 0xffffffff):
            off = (seq - start) & 0xffffffff
            if off > len(buf):
                break
            buf += s[seq][len(buf) - off:]
        out[key] = bytes(buf)
    return out


def mpa(key, data, out):
    """the MPA frame at the start of data: (its length, its name)"""
    name = MPA_KEYS.get(data[:16])
    if not name or len(data) < 20:
        return 0, None
    flags, rev, plen = data[16], data[17], struct.unpack_from('>H', data, 18)[0]
    pd = data[20:20 + plen]
    line = (f'MPA {name} {key}: rev {rev} marker {flags >> 7 & 1}'
            f' crc {flags >> 6 & 1} reject {flags >> 5 & 1}'
            f' private data {plen} bytes')
    if rev == 2 and len(pd) >= 4:
        ird, ord_ = struct.unpack_from('>HH', pd)
        line += f' (v2 ird {ird & 0x3fff} ord {ord_ & 0x3fff} rtr {ord_ >> 13:#x})'
    i = pd.find(RPCRDMA_MAGIC.to_bytes(4, 'big'))
    if i >= 0 and len(pd) >= i + 8:
        v, fl, snd, rcv = pd[i + 4:i + 8]
        line += (f'; RPC-over-RDMA private data {pd[i:i + 8].hex()} = version'
                 f' {v} flags {fl:#x} send {(snd + 1) << 10}'
                 f' recv {(rcv + 1) << 10}')
    else:
        line += '; no RPC-over-RDMA private data'
    out.append(line)
    return 20 + plen, name


def fpdus(key, data, p, opcodes, out, counters, shown, most):
    """count and decode the FPDUs of data from p; the number of
    RPC-over-RDMA messages found; counters: credits and versions seen"""
    credits, versions = counters
    msgs = 0
    while p + 4 <= len(data):
        ulen = struct.unpack_from('>H', data, p)[0]
        ddp, rdmap = data[p + 2], data[p + 3]
        if ddp & 3 != 1 or rdmap >> 6 != 1 or p + 2 + ulen > len(data):
            if p + 2 + ulen <= len(data):
                out.append(f'{key}: no DDP/RDMAP header at {p}, stop')
            break
        opc = RDMAP_OPC.get(rdmap & 15, hex(rdmap & 15))
        tagged = bool(ddp & 0x80)
        opcodes[(key, opc)] += 1
        u = data[p + 2:p + 2 + ulen]
        if not tagged and opc.startswith('SEND') and len(u) >= 18:
            mo = struct.unpack_from('>I', u, 14)[0]
            if mo == 0:
                line, cr, vers = rdma_message(key, u[18:])
                if line is not None:
                    msgs += 1
                    credits[key][cr] += 1
                    versions[key][vers] += 1
                    if shown[key] < most:
                        shown[key] += 1
                        out.append(line)
        elif opc == 'READ_REQUEST' and len(u) >= 46 and shown[key] < most:
            sk, sto, size, so, soo = struct.unpack_from('>IQIIQ', u, 18)
            out.append(f'{key} READ_REQUEST {size} bytes from stag {so:#x}'
                       f' to {soo:#x} into stag {sk:#x}')
        p += 2 + ulen + (-(2 + ulen) % 4) + 4      # pad, CRC
    return msgs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('pcap')
    ap.add_argument('--max', type=int, default=16,
                    help='transport headers printed per direction')
    a = ap.parse_args()
    out = []
    opcodes = collections.Counter()
    shown = collections.Counter()
    credits = collections.defaultdict(collections.Counter)
    versions = collections.defaultdict(collections.Counter)
    msgs = 0
    for key, data in sorted(streams(a.pcap).items()):
        n, name = mpa(key, data, out)
        if not name:
            out.append(f'{key}: {len(data)} bytes, no MPA frame at the start')
            continue
        msgs += fpdus(key, data, n, opcodes, out, (credits, versions), shown,
                      a.max)
        out.append(f'{key}: {len(data)} bytes in the capture')
    summary(credits, versions, opcodes, out)
    print('\n'.join(out))
    return 0 if msgs else 1


if __name__ == '__main__':
    sys.exit(main())
