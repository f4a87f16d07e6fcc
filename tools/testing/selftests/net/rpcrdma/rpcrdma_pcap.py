#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rpcrdma_pcap.py FILE [--max N]: what a RoCEv2 capture (tcpdump -w, UDP
4791, snap length >= 300) shows of RPC-over-RDMA: the RDMA CM REQ and REP
(responder resources, initiator depth, retry counts and the RFC 8797
private data, found by its magic), the transport header of each Send
(XID, version, credits, message type, chunk lists, the RPC call or reply
inside; in version 2, draft-ietf-nfsv4-rpcrdma-version-two of November
2019, also rdma_flags, rdma_inv_handle and the credit's two halves), the
versions of the headers, the version 2 messages with RPCRDMA2_F_MORE
(continued in the next Send) and a count of the InfiniBand opcodes by
direction.

Exit status 1 when no RPC-over-RDMA message was found."""
import argparse
import collections
import struct
import sys

RPCRDMA_MAGIC = 0xF6AB0E18
OPC = {
    0x00: 'SEND_FIRST', 0x01: 'SEND_MIDDLE', 0x02: 'SEND_LAST',
    0x03: 'SEND_LAST_IMM', 0x04: 'SEND_ONLY', 0x05: 'SEND_ONLY_IMM',
    0x06: 'WRITE_FIRST', 0x07: 'WRITE_MIDDLE', 0x08: 'WRITE_LAST',
    0x09: 'WRITE_LAST_IMM', 0x0a: 'WRITE_ONLY', 0x0b: 'WRITE_ONLY_IMM',
    0x0c: 'READ_REQUEST', 0x0d: 'READ_RESP_FIRST', 0x0e: 'READ_RESP_MIDDLE',
    0x0f: 'READ_RESP_LAST', 0x10: 'READ_RESP_ONLY', 0x11: 'ACK',
    0x16: 'SEND_LAST_INV', 0x17: 'SEND_ONLY_INV', 0x64: 'UD_SEND_ONLY',
}
# opcode: bytes between the BTH and the payload of a first/only Send
SEND_START = {0x00: 0, 0x04: 0, 0x05: 4, 0x17: 4}
CM_ATTR = {0x10: 'REQ', 0x11: 'MRA', 0x12: 'REJ', 0x13: 'REP', 0x14: 'RTU',
           0x15: 'DREQ', 0x16: 'DREP'}
RDMA_PROC = {0: 'RDMA_MSG', 1: 'RDMA_NOMSG', 2: 'RDMA_MSGP', 3: 'RDMA_DONE',
             4: 'RDMA_ERROR'}
RDMA2_HTYPE = {0: 'RDMA2_MSG', 1: 'RDMA2_NOMSG', 4: 'RDMA2_ERROR',
               5: 'RDMA2_CONNPROP'}


def packets(path):
    with open(path, 'rb') as f:
        data = f.read()
    magic = struct.unpack_from('<I', data)[0]
    end = '<' if magic in (0xa1b2c3d4, 0xa1b23c4d) else '>'
    off = 24
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack_from(end + 'IIII', data, off)
        yield data[off + 16:off + 16 + incl]
        off += 16 + incl


def roce(frame):
    """(src, dst, bth opcode, dest QP, bytes after the BTH) or None"""
    etype = struct.unpack_from('>H', frame, 12)[0]
    if etype == 0x0800:
        ihl = (frame[14] & 15) * 4
        src = '.'.join(map(str, frame[26:30]))
        dst = '.'.join(map(str, frame[30:34]))
        udp = 14 + ihl
    elif etype == 0x86dd:
        src, dst = frame[22:38].hex(), frame[38:54].hex()
        udp = 54
    else:
        return None
    if struct.unpack_from('>H', frame, udp + 2)[0] != 4791:
        return None
    bth = udp + 8
    qp = int.from_bytes(frame[bth + 5:bth + 8], 'big')
    return src, dst, frame[bth], qp, frame[bth + 12:]


def cm_message(direction, rest, out):
    mad = rest[8:]                  # after the DETH
    if len(mad) < 24 or mad[1] != 0x07:
        return
    attr = struct.unpack_from('>H', mad, 16)[0]
    name = CM_ATTR.get(attr, hex(attr))
    msg = mad[24:]
    line = f'CM {name} {direction}:'
    if name == 'REQ' and len(msg) > 51:
        line += (f' service_id {msg[8:16].hex()}'
                 f' responder_resources {msg[35]} initiator_depth {msg[39]}'
                 f' retry_count {msg[47] & 7} rnr_retry_count {msg[50] & 7}'
                 f' path_mtu_code {msg[50] >> 4}')
    elif name == 'REP' and len(msg) > 27:
        line += (f' responder_resources {msg[24]} initiator_depth {msg[25]}'
                 f' byte27 {msg[27]:#04x} (rnr_retry_count {msg[27] >> 5})')
    elif name == 'REJ' and len(msg) > 10:
        line += f' reason {struct.unpack_from(">H", msg, 8)[0]}'
    i = msg.find(RPCRDMA_MAGIC.to_bytes(4, 'big'))
    if i >= 0 and len(msg) >= i + 8:
        v, fl, snd, rcv = msg[i + 4:i + 8]
        line += (f'; private data at {i}: {msg[i:i + 8].hex()} = version {v}'
                 f' flags {fl:#x} send {(snd + 1) << 10} recv {(rcv + 1) << 10}')
    elif name in ('REQ', 'REP'):
        line += '; no RPC-over-RDMA private data'
    out.append(line)


def chunk_lists(w, i):
    """(read segments, write chunks, reply chunk?, index after the lists)"""
    reads = writes = 0
    while w[i] == 1:                # read list: position, handle, len, off
        reads += 1
        i += 6
    i += 1
    while w[i] == 1:                # write list: counted segment arrays
        writes += 1
        i += 2 + 4 * w[i + 1]
    i += 1
    reply = w[i] == 1
    i += (2 + 4 * w[i + 1]) if reply else 1
    return reads, writes, reply, i


def connprop(w):
    """The properties of an RDMA2_CONNPROP (§5.1, §6.4.4): id=value each,
    a Host Auth Message as its length"""
    try:
        props, i = [], 6
        for _ in range(w[5]):
            pid, n = w[i], w[i + 1]
            words = (n + 3) // 4
            if n == 0:
                props.append(f'{pid}=default')
            elif pid == 6:
                props.append(f'{pid}=auth:{w[i + 2]}')
            else:
                props.append(f'{pid}={w[i + 2]}')
            i += 2 + words
        return 'props ' + ' '.join(props)
    except IndexError:
        return 'props (truncated)'


def rdma_message(direction, payload):
    """(a line for the header, its credit word, its version)"""
    n = len(payload) // 4
    w = struct.unpack_from(f'>{n}I', payload)
    if n < 4:
        return None, None, None
    xid, vers, credits, proc = w[:4]
    lists = 4
    if vers == 2 and proc == 4 and len(payload) == 28 and w[4] == 1:
        # a server of version 1 only (Linux's svcrdma): version 1's
        # ERR_VERS behind the call's version word
        return (f'{direction} xid {xid:#010x} vers 2 credits {credits}'
                f' RDMA_ERROR ERR_VERS {w[5]}..{w[6]} (version 1 layout)',
                credits, vers)
    if vers == 2 and n >= 5:
        # the five-word prefix: rdma_flags follows the type; MSG and
        # NOMSG then carry rdma_inv_handle before the lists
        line = (f'{direction} xid {xid:#010x} vers 2 credits'
                f' {credits & 0xffff}/{credits >> 16}'
                f' {RDMA2_HTYPE.get(proc, proc)} flags {w[4]:#x}')
        if proc in (0, 1) and n >= 6:
            line += f' inv_handle {w[5]:#x}'
        lists = 6
    else:
        line = (f'{direction} xid {xid:#010x} vers {vers} credits {credits}'
                f' {RDMA_PROC.get(proc, proc)}')
    if vers == 2 and proc == 5:
        line += ' ' + connprop(w)
    elif proc == 4:
        i = lists - 1 if vers == 2 else 4
        if n > i:
            line += f' err {w[i]} ' + ' '.join(str(x) for x in w[i + 1:i + 4])
    elif proc in (0, 1):
        try:
            reads, writes, reply, i = chunk_lists(w, lists)
            line += (f' read_segs {reads} write_chunks {writes}'
                     f' reply_chunk {int(reply)}')
            if proc == 0 and i + 1 < n:
                mtype = w[i + 1]
                if mtype == 0 and i + 5 < n:
                    line += (f' CALL prog {w[i + 3]} vers {w[i + 4]}'
                             f' proc {w[i + 5]}')
                elif mtype == 1:
                    line += ' REPLY'
        except IndexError:
            line += ' (truncated)'
    return line, credits, vers


def summary(credits, versions, opcodes, out):
    """Credits, versions and opcodes seen, by direction, as lines appended
    to out."""
    for d, c in sorted(versions.items()):
        out.append(f'versions {d}: ' + ', '.join(
            f'{k} x{v}' for k, v in sorted(c.items())))
    for d, c in sorted(credits.items()):
        out.append(f'credits {d}: ' + ', '.join(
            f'{k} x{v}' for k, v in sorted(c.items())))
    for d in sorted({d for d, _ in opcodes}):
        out.append(f'opcodes {d}: ' + ', '.join(
            f'{o} {n}' for (dd, o), n in sorted(opcodes.items()) if dd == d))


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
    htypes = collections.defaultdict(collections.Counter)
    more = collections.Counter()
    msgs = 0
    for frame in packets(a.pcap):
        r = roce(frame)
        if not r:
            continue
        src, dst, opc, qp, rest = r
        direction = f'{src}->{dst}'
        opcodes[(direction, OPC.get(opc, hex(opc)))] += 1
        if opc == 0x64 and qp == 1:
            cm_message(direction, rest, out)
        elif opc in SEND_START:
            line, cr, vers = rdma_message(direction, rest[SEND_START[opc]:])
            if line is None:
                continue
            msgs += 1
            credits[direction][cr] += 1
            versions[direction][vers] += 1
            htypes[direction][line.split()[7]] += 1
            f = line.split(' flags ')
            if vers == 2 and len(f) > 1 and int(f[1].split()[0], 16) & 2:
                more[direction] += 1
            if shown[direction] < a.max:
                shown[direction] += 1
                out.append(line)
    summary(credits, versions, opcodes, out)
    for d, c in sorted(htypes.items()):
        out.append(f'types {d}: ' + ', '.join(
            f'{k} x{v}' for k, v in sorted(c.items())))
    for d, n in sorted(more.items()):
        out.append(f'continued {d}: {n}')
    print('\n'.join(out))
    return 0 if msgs else 1


if __name__ == '__main__':
    sys.exit(main())
