#!/usr/bin/env python3
"""tcpflow_fct.py -- finite flows for the testbed (scenario.sh --sizes): flows that send a
given number of bytes and end, and trains of them, with each connection's completion time.

    tcpflow_fct.py sink --port P [--bind ADDR] [--streams N] [--interval S] (--fct | --train)
    tcpflow_fct.py bulk --host H --port P --bytes B [--streams N] [--time S] [--interval S]
                        [--out FILE]
    tcpflow_fct.py train --host H --port P --sizes B,B,... [--gap S] [--time S] [--out FILE]

bulk --bytes B is tcpflow.py's bulk whose connections each end after B bytes (or at --time,
if that comes first), against a sink (--fct) whose per-connection record also says when it
read the last byte; its JSON is tcpflow.py's (iperf3's layout, so the throughput analysis
reads it as any flow) plus "fct". A train is one process that opens connection after
connection, each of the next size of --sizes in turn, each started --gap seconds after the
previous one completed (seed 001's method: iperf3 calls 0.1 s apart), until --time has
passed; its sink (--train) serves them one after another until an empty connection, the
train's end. Its JSON is {"start", "fct", "end"}.

"fct" holds per connection: local_port, bytes, start (before connect()), last_byte (the
sink's last read), fct_s = last_byte - start, retransmits; times are CLOCK_BOOTTIME seconds,
the clock of /proc/uptime (params.env t0_uptime) and of the gain trace, one clock for all
network namespaces.

Why a program of its own: in a User-Mode Linux guest every memory mapping a process makes
draws from the guest's seeded random stream, which BBR also draws from (its PROBE_BW phase),
so even a larger tcpflow.py moved every bulk run's flows (measured: the default job's runs
changed from the first ss sample on). Finite flows therefore live here, and tcpflow.py, which
runs every other flow, stays the program those runs were made with.
"""
import json
import socket
import sys
import threading
import time

import tcpflow
from tcpflow import CHUNK, READ, TCP_CONGESTION, TCP_INFO, decode_tcp_info


def boottime():
    """CLOCK_BOOTTIME seconds: /proc/uptime's clock, shared by all network namespaces."""
    return time.clock_gettime(time.CLOCK_BOOTTIME)


def parse_sizes(text):
    """'100000,1000000' -> [100000, 1000000]: whole byte counts >= 1 (ValueError if not)."""
    try:
        sizes = [int(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(f"bad --sizes '{text}' (comma separated byte counts)") from None
    if not sizes or min(sizes) < 1:
        raise ValueError(f"bad --sizes '{text}' (each at least 1 byte)")
    return sizes


def read_all(conn, buf):
    """Read conn to its end (MSG_WAITALL reads, as tcpflow.py's sink); (bytes, time of the
    last read or None)."""
    got, last = 0, None
    while True:
        n = conn.recv_into(buf, READ, socket.MSG_WAITALL)
        if not n:
            return got, last
        got += n
        last = boottime()


def sink_one(conn, ticker, rec):
    """tcpflow.py's sink_one with the time of the last read in the record (last_byte)."""
    with conn:
        i, buf = ticker.add_stream(), bytearray(READ)
        count, last = ticker.count, None
        while True:
            n = conn.recv_into(buf, READ, socket.MSG_WAITALL)
            if not n:
                break
            count[i] += n
            last = boottime()
        end = time.monotonic() - ticker.t0
        rec.update(socket=conn.fileno(), local_port=conn.getsockname()[1],
                   remote_port=conn.getpeername()[1], bytes=count[i],
                   intervals=ticker.intervals(i, end, count[i]), last_byte=last)
        conn.sendall(json.dumps(rec).encode() + b"\n")


def run_fct_sink(args):
    """The sink of finite bulk flows: tcpflow.py's run_sink with sink_one above."""
    tcpflow.run_sink(args, sink=sink_one)


def run_train_sink(args):
    """The sink of a train: connections one after another, each read to its end and answered
    with {bytes, last_byte}, until one that sends nothing (the train's end)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as srv:
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind((args.bind, args.port))
        srv.listen(8)
        buf = bytearray(READ)
        while True:
            conn, _ = srv.accept()
            with conn:
                got, last = read_all(conn, buf)
                if not got:
                    return
                conn.sendall(json.dumps({"bytes": got, "last_byte": last}).encode() + b"\n")


def fct_record(port, nbytes, began, last_byte, retransmits):
    """One finite connection: its bytes, start and completion time (CLOCK_BOOTTIME s)."""
    return {"local_port": port, "bytes": nbytes, "start": began, "last_byte": last_byte,
            "fct_s": None if last_byte is None else round(last_byte - began, 6),
            "retransmits": retransmits}


def bulk_one(st, ticker, stop):
    """tcpflow.py's bulk_one for a connection that ends after st['limit'] bytes."""
    sock, count, i, limit = st["sock"], ticker.count, st["index"], st["limit"]
    view = memoryview(bytes(CHUNK))
    while not stop.is_set() and count[i] < limit:
        count[i] += sock.send(view[:min(CHUNK, limit - count[i])])
    end = time.monotonic() - ticker.t0
    st["bytes"] = count[i]
    st["intervals"] = ticker.intervals(i, end, count[i])
    st["retransmits"] = decode_tcp_info(sock.getsockopt(socket.IPPROTO_TCP, TCP_INFO, 256))[
        "total_retrans"]
    reply = tcpflow.end_and_read_reply(sock)
    try:
        st["server"] = json.loads(reply)
    except ValueError:
        raise OSError(f"no record from the sink for port {st['local_port']}") from None


def run_bulk(args):
    """tcpflow.py's run_bulk for finite connections: the run ends when the last one has (or
    at --time); the JSON adds "fct"."""
    streams = []
    for _ in range(args.streams):
        began = boottime()
        sock = socket.create_connection((args.host, args.port), timeout=30)
        sock.settimeout(None)
        (lh, lp), (rh, rp) = sock.getsockname(), sock.getpeername()
        streams.append({"sock": sock, "socket": sock.fileno(), "local_host": lh,
                        "local_port": lp, "remote_host": rh, "remote_port": rp,
                        "limit": args.bytes, "began": began})
    cc, mss, ticker, threads, errors = tcpflow.start_writers(streams, args.interval,
                                                                   bulk_one)

    def watch():  # the ticker stops when the last connection has ended
        for th in threads:
            th.join()
        ticker.done.set()
    threading.Thread(target=watch, daemon=True).start()
    ticker.tick(until=args.time)
    for th in threads:
        th.join()
    if errors:
        raise errors[0]
    out = tcpflow.bulk_json(streams, cc, mss, args)
    out["fct"] = [fct_record(st["local_port"], st["bytes"], st["began"],
                             st["server"].get("last_byte"), st["retransmits"]) for st in streams]
    return out


def run_train(args):
    """Connections one after another to a train sink, sizes in turn, each started args.gap
    seconds after the previous one completed, until args.time has passed; then an empty
    connection that ends the sink."""
    sizes, t0 = parse_sizes(args.sizes), boottime()
    buf, recs, cc = memoryview(bytes(CHUNK)), [], None
    while boottime() - t0 < args.time:
        size = sizes[len(recs) % len(sizes)]
        began = boottime()
        sock = socket.create_connection((args.host, args.port), timeout=30)
        sock.settimeout(None)
        cc = cc or sock.getsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, 16).split(b"\0")[0].decode()
        sent = 0
        while sent < size:
            sent += sock.send(buf[:min(CHUNK, size - sent)])
        reply = tcpflow.end_and_read_reply(sock, close=False)
        retrans = decode_tcp_info(sock.getsockopt(socket.IPPROTO_TCP, TCP_INFO, 256))["total_retrans"]
        port = sock.getsockname()[1]
        sock.close()
        try:
            rec = json.loads(reply)
        except ValueError:
            raise OSError(f"no record from the train sink for port {port}") from None
        if rec.get("bytes") != size:
            raise OSError(f"the train sink read {rec.get('bytes')} of {size} bytes (port {port})")
        recs.append(fct_record(port, size, began, rec.get("last_byte"), retrans))
        time.sleep(args.gap)
    socket.create_connection((args.host, args.port), timeout=30).close()
    return {"start": {"tool": "tcpflow_fct.py train", "sizes": sizes, "gap": args.gap,
                      "time": args.time, "t0": t0},
            "fct": recs,
            "end": {"connections": len(recs), "sender_tcp_congestion": cc,
                    "sum_sent": {"bytes": sum(r["bytes"] for r in recs),
                                 "retransmits": sum(r["retransmits"] for r in recs)}}}


def parser():
    """The command line: the sink, bulk and train roles and their options."""
    ap, sub = tcpflow.role_parser("tcpflow_fct.py", __doc__)
    snk = tcpflow.listen_parser(sub, "sink", "count what finite connections deliver")
    snk.add_argument("--streams", type=int, default=1, help="connections, 1..128 (default 1)")
    snk.add_argument("--interval", type=float, default=1.0, help="report interval (default 1)")
    mode = snk.add_mutually_exclusive_group(required=True)
    mode.add_argument("--fct", action="store_true", help="finite bulk connections (bulk --bytes)")
    mode.add_argument("--train", action="store_true", help="a train's connections, one after "
                      "another, until an empty one")
    blk = sub.add_parser("bulk", help="N connections of B bytes each; iperf3 JSON with fct")
    blk.add_argument("--host", required=True)
    blk.add_argument("--port", type=int, required=True)
    blk.add_argument("--bytes", type=int, required=True, help="bytes per connection")
    blk.add_argument("--streams", type=int, default=1, help="connections, 1..128 (default 1)")
    blk.add_argument("--time", type=float, default=10.0, help="at most this long (default 10)")
    blk.add_argument("--interval", type=float, default=1.0, help="report interval (default 1)")
    blk.add_argument("--out", help="JSON result file (default stdout)")
    trn = sub.add_parser("train", help="finite connections one after another; fct JSON")
    trn.add_argument("--host", required=True)
    trn.add_argument("--port", type=int, required=True)
    trn.add_argument("--sizes", required=True, help="bytes of each connection, in turn")
    trn.add_argument("--gap", type=float, default=0.1,
                     help="seconds from one completion to the next start (default 0.1)")
    trn.add_argument("--time", type=float, default=10.0,
                     help="no connection starts after this many seconds (default 10)")
    trn.add_argument("--out", help="JSON result file (default stdout)")
    return ap


def main(argv=None):
    ap = parser()
    args = ap.parse_args(argv)
    tcpflow.check_common(ap, args, ("bulk", "train"))
    if args.role == "bulk" and args.bytes < 1:
        ap.error("--bytes must be at least 1")
    if args.role == "train":
        if not 0 <= args.gap <= 60:
            ap.error("--gap must be 0..60 seconds")
        try:
            parse_sizes(args.sizes)
        except ValueError as e:
            ap.error(str(e))
    try:
        if args.role == "sink":
            (run_train_sink if args.train else run_fct_sink)(args)
            return 0
        result = (run_train if args.role == "train" else run_bulk)(args)
    except OSError as e:
        print(f"tcpflow_fct.py: error: {e}", file=sys.stderr)
        return 1
    tcpflow.write_json(result, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
