#!/usr/bin/env python3
"""tcpflow.py -- small bulk-TCP senders and sinks that block instead of polling.

    tcpflow.py server --port P [--bind ADDR] [--count N]
    tcpflow.py client --host H --port P [--cc CC] [--plan send:S,idle:S,...]
                      [--sample-ms MS] [--out FILE]
    tcpflow.py sink --port P [--bind ADDR] [--streams N] [--interval S]
    tcpflow.py bulk --host H --port P [--streams N] [--time S] [--interval S] [--out FILE]

sink/bulk are the testbed's traffic (testbed/scenario.sh --client tcpflow): bulk opens N
connections to a sink, writes to each from its own thread for S seconds (blocking writes),
then half-closes; the sink counts what each connection delivers per interval of S seconds
and, at the end of the data, answers with that record. A connection whose handshake the
kernel gives up on (its SYN retransmissions: 127 s by default) is reported on stderr and in
start.not_connected, and the others run. bulk writes iperf3's JSON (the fields
testbed/analyze.py reads, with the same meaning: start.connected, intervals, end.streams,
end.sum_sent, end.sender_tcp_congestion, server_output_json), so a run analyses the same
way whichever client made it. iperf3 3.12 polls its sockets between
writes, which in a time-travel guest costs wall time and no simulated time (docs/backends.md).

The client connects, optionally selects a congestion control with
setsockopt(TCP_CONGESTION), then follows its plan: "send:S" writes as fast as
the socket takes data for S seconds (blocking writes: no polling), "idle:S"
sends nothing for S seconds. While sending it reads its own socket's tcp_info
and congestion-control info (TCP_INFO, TCP_CC_INFO) every MS milliseconds from
a second thread, so a time series costs no process per sample. --out FILE
(default stdout) gets JSON: the plan, each segment's byte count and end time,
and the samples. The server accepts N connections (default 1) and discards
what they send.

Times are CLOCK_MONOTONIC seconds since the client connected: in a User-Mode
Linux time-travel guest they are virtual time, and runs are repeatable.
"""
import argparse
import errno
import json
import socket
import struct
import sys
import threading
import time

TCP_CONGESTION = getattr(socket, "TCP_CONGESTION", 13)
TCP_INFO = getattr(socket, "TCP_INFO", 11)
TCP_CC_INFO = 26
CHUNK = 1 << 17
READ = 1 << 14  # the sink's MSG_WAITALL read

# struct tcp_info (include/uapi/linux/tcp.h) up to tcpi_snd_wnd (Linux >= 5.4).
TCP_INFO_FIELDS = (
    ["state", "ca_state", "retransmits", "probes", "backoff", "options", "wscale",
     "app_limited_flags"]
    + ["rto", "ato", "snd_mss", "rcv_mss", "unacked", "sacked", "lost", "retrans",
       "fackets", "last_data_sent", "last_ack_sent", "last_data_recv", "last_ack_recv",
       "pmtu", "rcv_ssthresh", "rtt", "rttvar", "snd_ssthresh", "snd_cwnd", "advmss",
       "reordering", "rcv_rtt", "rcv_space", "total_retrans"]
    + ["pacing_rate", "max_pacing_rate", "bytes_acked", "bytes_received"]
    + ["segs_out", "segs_in", "notsent_bytes", "min_rtt", "data_segs_in", "data_segs_out"]
    + ["delivery_rate", "busy_time", "rwnd_limited", "sndbuf_limited"]
    + ["delivered", "delivered_ce", "bytes_sent", "bytes_retrans", "dsack_dups",
       "reord_seen", "rcv_ooopack", "snd_wnd"])
TCP_INFO_FORMAT = "<8B24I4Q6I4Q2I2Q4I"
TCP_INFO_SIZE = struct.calcsize(TCP_INFO_FORMAT)
# The tcp_info fields a sample keeps.
SAMPLE_FIELDS = ("snd_cwnd", "rtt", "rttvar", "min_rtt", "unacked", "lost", "total_retrans",
                 "pacing_rate", "delivery_rate", "bytes_acked", "bytes_sent", "delivered",
                 "ca_state")
# struct tcp_bbr_info: bw_lo, bw_hi, min_rtt, pacing_gain, cwnd_gain.
BBR_INFO_FORMAT = "<5I"


class PlanError(ValueError):
    pass


def parse_plan(text):
    """'send:5,idle:2400,send:5' -> [('send', 5.0), ('idle', 2400.0), ('send', 5.0)]."""
    plan = []
    for item in text.split(","):
        kind, sep, secs = item.strip().partition(":")
        if kind not in ("send", "idle") or not sep:
            raise PlanError(f"bad plan item '{item}' (expected send:SECONDS or idle:SECONDS)")
        try:
            value = float(secs)
        except ValueError:
            raise PlanError(f"bad seconds in plan item '{item}'") from None
        if not 0 < value < 1e6:
            raise PlanError(f"seconds out of range in plan item '{item}'")
        plan.append((kind, value))
    if not any(kind == "send" for kind, _ in plan):
        raise PlanError("the plan sends nothing")
    return plan


def decode_tcp_info(raw):
    """The named fields of a TCP_INFO buffer; a shorter (older kernel) buffer is padded."""
    raw = raw[:TCP_INFO_SIZE].ljust(TCP_INFO_SIZE, b"\0")
    return dict(zip(TCP_INFO_FIELDS, struct.unpack(TCP_INFO_FORMAT, raw)))


def decode_bbr_info(raw):
    """tcp_bbr_info as bw (bit/s), min_rtt (us) and both gains (x 256); None if absent."""
    if len(raw) < struct.calcsize(BBR_INFO_FORMAT):
        return None
    bw_lo, bw_hi, min_rtt, pacing_gain, cwnd_gain = struct.unpack_from(BBR_INFO_FORMAT, raw)
    return {"bw_bps": ((bw_hi << 32) | bw_lo) * 8, "bbr_min_rtt": min_rtt,
            "pacing_gain": pacing_gain, "cwnd_gain": cwnd_gain}


def snapshot(sock, t):
    info = decode_tcp_info(sock.getsockopt(socket.IPPROTO_TCP, TCP_INFO, 256))
    sample = {"t": round(t, 6)}
    sample.update((k, info[k]) for k in SAMPLE_FIELDS)
    bbr = decode_bbr_info(sock.getsockopt(socket.IPPROTO_TCP, TCP_CC_INFO, 64))
    if bbr:
        sample.update(bbr)
    return sample


class Sampler(threading.Thread):
    """Samples the socket every period while `active` is set; sleeps otherwise."""

    def __init__(self, sock, t0, period):
        super().__init__(daemon=True)
        self.sock, self.t0, self.period = sock, t0, period
        self.samples, self.active, self.stop = [], threading.Event(), threading.Event()

    def run(self):
        nxt = time.monotonic()
        while not self.stop.is_set():
            if not self.active.wait(timeout=1.0):
                continue
            now = time.monotonic()
            if now >= nxt:
                try:
                    self.samples.append(snapshot(self.sock, now - self.t0))
                except OSError:
                    return
                nxt = max(nxt + self.period, now)
            self.stop.wait(max(nxt - time.monotonic(), 0))


def send_for(sock, seconds):
    buf = b"\0" * CHUNK
    deadline = time.monotonic() + seconds
    sent = 0
    while time.monotonic() < deadline:
        sent += sock.send(buf)
    return sent


def run_client(args):
    plan = parse_plan(args.plan)
    sock = socket.create_connection((args.host, args.port), timeout=30)
    sock.settimeout(None)
    if args.cc:
        sock.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, args.cc.encode())
    t0 = time.monotonic()
    cc = sock.getsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, 16).split(b"\0")[0].decode()
    sampler = None
    if args.sample_ms > 0:
        sampler = Sampler(sock, t0, args.sample_ms / 1000.0)
        sampler.start()
    segments = []
    for kind, secs in plan:
        if kind == "send":
            if sampler:
                sampler.active.set()
            sent = send_for(sock, secs)
            if sampler:
                sampler.active.clear()
        else:
            sent = 0
            time.sleep(secs)
        segments.append({"kind": kind, "seconds": secs, "bytes": sent,
                         "end": round(time.monotonic() - t0, 6)})
    final = snapshot(sock, time.monotonic() - t0)
    sock.shutdown(socket.SHUT_WR)
    sock.recv(1)  # the server closes once it has read everything
    sock.close()
    if sampler:
        sampler.stop.set()
        sampler.active.set()
        sampler.join()
    return {"cc": cc, "plan": args.plan, "segments": segments, "final": final,
            "samples": sampler.samples if sampler else []}


def sink(conn):
    with conn:
        while conn.recv(CHUNK):
            pass


def serve(bind, port, count, handle):
    """Accept count connections on bind:port, each handled by handle(conn) in its own
    thread; returns when all are done."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as srv:
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind((bind, port))
        srv.listen(count)
        threads = []
        for _ in range(count):
            conn, _ = srv.accept()
            th = threading.Thread(target=handle, args=(conn,))
            th.start()
            threads.append(th)
        for th in threads:
            th.join()


def run_server(args):
    serve(args.bind, args.port, args.count, sink)


# ----------------------------------------------------------------- sink / bulk (iperf3 JSON)
class Ticker:
    """Byte counts per interval of `length` seconds from t0, on iperf3's boundaries (k x
    length), without a clock read per write or read: the streams' threads only add to
    their counters (count[i]); tick(), in one thread, wakes at each boundary and keeps a
    snapshot of all of them; intervals(i, ...) are the differences."""

    def __init__(self, t0, length):
        self.t0, self.length, self.count, self.marks = t0, length, [], []
        self.done, self.lock = threading.Event(), threading.Lock()

    def add_stream(self):
        with self.lock:
            self.count.append(0)
            return len(self.count) - 1

    def tick(self, until=None):
        """Snapshot at every boundary until done is set (or until t0 + until)."""
        k = 1
        while True:
            at = self.t0 + k * self.length
            if until is not None and k * self.length > until:
                at = self.t0 + until
            if self.done.wait(max(at - time.monotonic(), 0)):
                return
            if until is not None and at >= self.t0 + until:
                self.done.set()
                return
            self.marks.append((k * self.length, list(self.count)))
            k += 1

    def intervals(self, i, end, total):
        """Stream i's [(start, end, bytes)] from its snapshots, closed at end (seconds from
        t0) with its total; boundaries it did not reach yet are left out."""
        out, prev_t, prev_n = [], 0.0, 0
        for t, counts in self.marks:
            if i >= len(counts) or t > end:
                continue
            out.append((prev_t, t, counts[i] - prev_n))
            prev_t, prev_n = t, counts[i]
        if end > prev_t or total > prev_n:
            out.append((prev_t, max(end, prev_t), total - prev_n))
        return [(round(a, 6), round(b, 6), n) for a, b, n in out]


def sink_one(conn, ticker, rec):
    """Count one connection's bytes until the sender half-closes, then send the record
    (one JSON line: totals and intervals) back and close."""
    with conn:
        # MSG_WAITALL: the kernel copies each packet as it comes, as a plain recv() would,
        # but returns to the program once per READ bytes: in UML each return is a round trip
        # through the host, and per packet they were most of a run's wall time
        # (docs/backends.md). A count lags by less than READ bytes. Runs still differ from
        # a per-packet reader's, as the timing of reads moves ACKs (docs/results/client-uml).
        # Not SO_RCVLOWAT: that also makes the kernel ACK each second segment at once while
        # less than it is queued (tcp_input.c, __tcp_ack_snd_check).
        i, buf = ticker.add_stream(), bytearray(READ)
        count = ticker.count
        while True:
            n = conn.recv_into(buf, READ, socket.MSG_WAITALL)
            if not n:
                break
            count[i] += n
        end = time.monotonic() - ticker.t0
        rec.update(socket=conn.fileno(), local_port=conn.getsockname()[1],
                   remote_port=conn.getpeername()[1], bytes=count[i],
                   intervals=ticker.intervals(i, end, count[i]))
        conn.sendall(json.dumps(rec).encode() + b"\n")


def run_sink(args, sink=None):
    """Serve args.streams connections, each read by sink(conn, ticker, rec) (default
    sink_one), on one clock that starts with the first connection."""
    sink = sink or sink_one
    lock, state = threading.Lock(), {"ticker": None, "pending": args.streams}

    def handle(conn):
        with lock:
            if state["ticker"] is None:  # the clock starts with the first connection
                state["ticker"] = Ticker(time.monotonic(), args.interval)
                threading.Thread(target=state["ticker"].tick, daemon=True).start()
        ticker = state["ticker"]
        sink(conn, ticker, {})
        with lock:
            state["pending"] -= 1
            if not state["pending"]:
                ticker.done.set()
    serve(args.bind, args.port, args.streams, handle)


def end_and_read_reply(sock, close=True):
    """Half-close sock, read the peer's reply to its end, close sock unless told not to; the
    reply's bytes."""
    sock.shutdown(socket.SHUT_WR)
    reply = b""
    while True:
        chunk = sock.recv(1 << 16)
        if not chunk:
            break
        reply += chunk
    if close:
        sock.close()
    return reply


def bulk_one(st, ticker, stop):
    """Write to one connection until stop is set, half-close, read the sink's record."""
    sock, buf, count, i = st["sock"], bytes(CHUNK), ticker.count, st["index"]
    while not stop.is_set():
        count[i] += sock.send(buf)
    end = time.monotonic() - ticker.t0
    st["bytes"] = count[i]
    st["intervals"] = ticker.intervals(i, end, count[i])
    st["retransmits"] = decode_tcp_info(sock.getsockopt(socket.IPPROTO_TCP, TCP_INFO, 256))[
        "total_retrans"]
    reply = end_and_read_reply(sock)
    try:
        st["server"] = json.loads(reply)
    except ValueError:
        raise OSError(f"no record from the sink for port {st['local_port']}") from None


def iperf3_intervals(per_stream, key):
    """iperf3's intervals list from [(socket, [(start, end, bytes)])]; a stream with fewer
    intervals than the longest gets empty, zero-length ones (analyze.py skips those)."""
    out = []
    for k in range(max(len(ivs) for _, ivs in per_stream)):
        streams = []
        for sock, ivs in per_stream:
            a, b, n = ivs[k] if k < len(ivs) else (ivs[-1][1],) * 2 + (0,)
            streams.append({key: sock, "start": a, "end": b, "seconds": round(b - a, 6),
                            "bytes": n, "bits_per_second": n * 8 / (b - a) if b > a else 0})
        out.append({"streams": streams, "sum": {"bytes": sum(x["bytes"] for x in streams)}})
    return out


def bulk_json(streams, cc, mss, args):
    """The client's result in iperf3's JSON layout (see the module docstring)."""
    ends = [{"sender": {"socket": st["socket"], "bytes": st["bytes"],
                        "retransmits": st["retransmits"]},
             "receiver": {"socket": st["socket"], "bytes": st["server"]["bytes"]}}
            for st in streams]
    server = {"start": {"connected": [{"socket": st["server"]["socket"],
                                       "local_port": st["server"]["local_port"],
                                       "remote_port": st["server"]["remote_port"]}
                                      for st in streams]},
              "intervals": iperf3_intervals([(st["server"]["socket"], st["server"]["intervals"])
                                             for st in streams], "socket")}
    return {"start": {"connected": [{k: st[k] for k in ("socket", "stream", "local_host",
                                                         "local_port", "remote_host",
                                                         "remote_port") if k in st}
                                    for st in streams],
                      "tcp_mss_default": mss, "tool": "tcpflow.py bulk",
                      "test_start": {"protocol": "TCP", "num_streams": len(streams),
                                     "duration": args.time}},
            "intervals": iperf3_intervals([(st["socket"], st["intervals"]) for st in streams],
                                          "socket"),
            "end": {"streams": ends,
                    "sum_sent": {"bytes": sum(st["bytes"] for st in streams),
                                 "retransmits": sum(st["retransmits"] for st in streams)},
                    "sum_received": {"bytes": sum(st["server"]["bytes"] for st in streams)},
                    "sender_tcp_congestion": cc},
            "server_output_json": server}


def connect(host, port):
    """A connected socket, or None when the kernel gave up on the handshake (its SYN
    retransmissions, net.ipv4.tcp_syn_retries: 127 s by default) and the error that said
    so. Any other error (refused: nobody listens) is raised."""
    t = time.monotonic()
    try:
        return socket.create_connection((host, port)), None
    except OSError as e:
        if not isinstance(e, TimeoutError) and e.errno != errno.ETIMEDOUT:
            raise
        return None, f"{e.strerror or e} after {time.monotonic() - t:.1f} s"


def start_writers(streams, interval, write=bulk_one):
    """A writer thread per connected stream, write(st, ticker, stop) (default bulk_one),
    started, and the Ticker that takes their intervals; returns (cc, mss, ticker, threads,
    errors), errors filling with the writers' OSErrors."""
    first = streams[0]["sock"]
    cc = first.getsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, 16).split(b"\0")[0].decode()
    mss = first.getsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG)
    ticker, errors = Ticker(time.monotonic(), interval), []
    for st in streams:
        st["index"] = ticker.add_stream()

    def one(st):
        try:
            write(st, ticker, ticker.done)
        except OSError as e:
            errors.append(e)
    threads = [threading.Thread(target=one, args=(st,)) for st in streams]
    for th in threads:
        th.start()
    return cc, mss, ticker, threads, errors


def run_bulk(args):
    """The streams, connected one after another (a stream the network never lets connect is
    reported, on stderr and in start.not_connected, and left out), then all sending."""
    streams, lost = [], []
    for k in range(args.streams):
        sock, err = connect(args.host, args.port)
        if sock is None:
            print(f"tcpflow.py: stream {k} never connected: {err}", file=sys.stderr)
            lost.append({"stream": k, "error": err})
            continue
        (lh, lp), (rh, rp) = sock.getsockname(), sock.getpeername()
        streams.append({"sock": sock, "socket": sock.fileno(), "stream": k, "local_host": lh,
                        "local_port": lp, "remote_host": rh, "remote_port": rp})
    if not streams:
        return {"start": {"connected": [], "not_connected": lost, "tool": "tcpflow.py bulk"},
                "intervals": [], "end": {"streams": [], "sum_sent": {"bytes": 0, "retransmits": 0},
                                         "sum_received": {"bytes": 0}}}
    cc, mss, ticker, threads, errors = start_writers(streams, args.interval)
    ticker.tick(until=args.time)  # sets done at t0 + time: the writers stop
    for th in threads:
        th.join()
    if errors:
        raise errors[0]
    out = bulk_json(streams, cc, mss, args)
    if lost:
        out["start"]["not_connected"] = lost
    return out


def write_json(result, path):
    """The result as indented JSON, to the file path or, if None, to stdout."""
    text = json.dumps(result, indent=1) + "\n"
    if path:
        with open(path, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def check_common(ap, args, timed):
    """The range checks the roles here and in tcpflow_fct.py share: --port; --streams and
    --interval of sink and bulk; --time of the roles in timed. ap.error (exit 2) on a bad
    value."""
    if not 0 < args.port < 65536:
        ap.error("--port must be 1..65535")
    if args.role in ("sink", "bulk"):
        if not 1 <= args.streams <= 128:
            ap.error("--streams must be 1..128")
        if not 0.1 <= args.interval <= 60:
            ap.error("--interval must be 0.1..60 seconds")
    if args.role in timed and not 0 < args.time <= 1e6:
        ap.error("--time must be > 0 seconds")


def check_args(ap, args):
    """Range checks; ap.error (exit 2) on a bad value."""
    check_common(ap, args, ("bulk",))
    if args.role == "server" and args.count < 1:
        ap.error("--count must be at least 1")
    if args.role == "client":
        try:
            parse_plan(args.plan)
        except PlanError as e:
            ap.error(str(e))
        if args.sample_ms < 0:
            ap.error("--sample-ms must be >= 0")


def role_parser(prog, doc):
    """A parser whose first word is the role, described by doc's first paragraph; returns it
    and its subparsers."""
    ap = argparse.ArgumentParser(prog=prog, description=doc.split("\n\n")[0])
    return ap, ap.add_subparsers(dest="role", required=True)


def listen_parser(sub, role, text):
    """The subparser of a role that listens: --port, --bind."""
    p = sub.add_parser(role, help=text)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--bind", default="0.0.0.0")
    return p


def main(argv=None):
    ap, sub = role_parser("tcpflow.py", __doc__)
    srv = listen_parser(sub, "server", "accept connections and discard their data")
    srv.add_argument("--count", type=int, default=1, help="connections to serve (default 1)")
    cli = sub.add_parser("client", help="send according to a plan, sampling tcp_info")
    cli.add_argument("--host", required=True)
    cli.add_argument("--port", type=int, required=True)
    cli.add_argument("--cc", help="congestion control (setsockopt); default: the system's")
    cli.add_argument("--plan", default="send:10", help="send:S and idle:S items (default send:10)")
    cli.add_argument("--sample-ms", type=float, default=100.0, help="0: no samples (default 100)")
    cli.add_argument("--out", help="JSON result file (default stdout)")
    snk = listen_parser(sub, "sink", "count what N connections deliver per interval")
    blk = sub.add_parser("bulk", help="send on N connections for S seconds; iperf3 JSON")
    blk.add_argument("--host", required=True)
    blk.add_argument("--port", type=int, required=True)
    blk.add_argument("--time", type=float, default=10.0, help="seconds of sending (default 10)")
    blk.add_argument("--out", help="JSON result file (default stdout)")
    for p in (snk, blk):
        p.add_argument("--streams", type=int, default=1, help="connections, 1..128 (default 1)")
        p.add_argument("--interval", type=float, default=1.0,
                       help="report interval, seconds (default 1)")
    args = ap.parse_args(argv)
    check_args(ap, args)
    try:
        if args.role in ("server", "sink"):
            (run_server if args.role == "server" else run_sink)(args)
            return 0
        result = run_client(args) if args.role == "client" else run_bulk(args)
    except PlanError as e:
        ap.error(str(e))
    except OSError as e:
        print(f"tcpflow.py: error: {e}", file=sys.stderr)
        return 1
    write_json(result, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
