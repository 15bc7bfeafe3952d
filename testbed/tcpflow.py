#!/usr/bin/env python3
"""tcpflow.py -- a small bulk-TCP sender and sink that sample their own socket.

    tcpflow.py server --port P [--bind ADDR] [--count N]
    tcpflow.py client --host H --port P [--cc CC] [--plan send:S,idle:S,...]
                      [--sample-ms MS] [--out FILE]

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


def run_server(args):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as srv:
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind((args.bind, args.port))
        srv.listen(args.count)
        threads = []
        for _ in range(args.count):
            conn, _ = srv.accept()
            th = threading.Thread(target=sink, args=(conn,))
            th.start()
            threads.append(th)
        for th in threads:
            th.join()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="tcpflow.py", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="role", required=True)
    srv = sub.add_parser("server", help="accept connections and discard their data")
    srv.add_argument("--port", type=int, required=True)
    srv.add_argument("--bind", default="0.0.0.0")
    srv.add_argument("--count", type=int, default=1, help="connections to serve (default 1)")
    cli = sub.add_parser("client", help="send according to a plan, sampling tcp_info")
    cli.add_argument("--host", required=True)
    cli.add_argument("--port", type=int, required=True)
    cli.add_argument("--cc", help="congestion control (setsockopt); default: the system's")
    cli.add_argument("--plan", default="send:10", help="send:S and idle:S items (default send:10)")
    cli.add_argument("--sample-ms", type=float, default=100.0, help="0: no samples (default 100)")
    cli.add_argument("--out", help="JSON result file (default stdout)")
    args = ap.parse_args(argv)
    try:
        if args.role == "server":
            if not 0 < args.port < 65536 or args.count < 1:
                ap.error("--port must be 1..65535 and --count at least 1")
            run_server(args)
            return 0
        parse_plan(args.plan)
        if args.sample_ms < 0:
            ap.error("--sample-ms must be >= 0")
        result = run_client(args)
    except PlanError as e:
        ap.error(str(e))
    except OSError as e:
        print(f"tcpflow.py: error: {e}", file=sys.stderr)
        return 1
    text = json.dumps(result, indent=1) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
