#!/usr/bin/python3
"""Analysis of testbed runs (the only place where raw outputs become numbers).

A run directory is what testbed/scenario.sh writes: params.env, flows.txt, flow_starts.txt,
flow<g>.json (one iperf3 client's JSON with the server's JSON inside; it ran the flows of
group g of flows.txt, one TCP connection each), ss_s<k>.txt, tc.txt, ...

    analyze.py DIR [--warmup S] [--summary FILE] [--quiet]
        DIR is a run directory or a tree of them (e.g. results/rtt_fairness-<stamp>/).
        Writes per run: throughput.csv, ss.csv, queue.csv, run_summary.json; and
        summary.json (all runs) in DIR or FILE; prints a table.
    analyze.py --sweep-csv OUT.csv --sweep NAME DIR [DIR...]
        One CSV row per run found under the DIRs (for sweeps and plots/plot.py).
    analyze.py --screen DIR [--screen-csv OUT.csv]
        A testbed/screen.sh tree (DIR/<config>/<scenario>/seed<N>/summary.json): per
        configuration and scenario the mean and 95 % confidence interval (Student t) of
        Jain's index, utilisation, retransmission rate and queueing delay, and for a
        configuration with a cc per RTT class (A+B) each part's share and the harm it does
        to the incumbent B (screen_harm); OUT.csv gets them, OUT_runs.csv one row per run.

Definitions (also written into summary.json):
  measured interval  [warmup, duration - cooldown] seconds after the first flow was
                     launched (cooldown: run.env cooldown_s, default 1 s).
  throughput         receiver-side payload bytes of the flow in the measured interval (the
                     iperf3 server's per-interval byte counts, returned in the client's JSON
                     by --get-server-output; intervals straddling an edge are prorated) * 8
                     / interval length.
  utilization        sum of those receiver-side bytes over all flows * 8 /
                     (bottleneck rate * interval length). TCP/IP/Ethernet headers are not
                     counted: with 1448-byte payloads in 1514-byte frames the ceiling is
                     1448/1514 = 0.956.
  jain               (sum x)^2 / (n * sum x^2) over the flows' throughputs x.
  retransmits        iperf3 sender-side retransmitted segments over the whole flow
                     (end.sum_sent.retransmits, i.e. tcpi_total_retrans).
  retrans_rate       retransmitted / sent data segments over the whole flow, both from the
                     flow's last ss snapshot (tcp_info total_retrans / data_segs_out;
                     data_segs_out counts retransmissions too). Without ss data:
                     retransmits / (bytes_sent / MSS + retransmits) from iperf3.
  queue delay        bottleneck bfifo backlog bytes * 8 / rate, from the tc -s samples in
                     the measured interval; per flow also mean(ss srtt - base RTT).
  per_cc, per_class  the flows' throughput summed per cc and per RTT class (a run of an
                     A+B item has one cc per class), and its share of all flows' throughput.
"""
import argparse
import collections
import csv
import glob
import json
import math
import os
import re
import statistics
import sys

PAYLOAD_CEILING = 1448 / 1514
# Seconds before the end left out: flows end at slightly different times (each iperf3
# server starts its clock a few RTTs after launch), and a flow left alone at the very end
# would otherwise count the whole link for that moment.
DEFAULT_COOLDOWN = 1.0


class AnalysisError(Exception):
    """A problem with the input data: reported as one line, no traceback."""


# ---------------------------------------------------------------------------- statistics
def jain(xs):
    """Jain's fairness index; None when undefined (no flows, or all zero)."""
    xs = list(xs)
    if not xs:
        return None
    if any(x < 0 for x in xs):
        raise ValueError("Jain's index of negative throughput")
    s2 = sum(x * x for x in xs)
    if s2 == 0:
        return None
    return sum(xs) ** 2 / (len(xs) * s2)


def utilization(total_bytes, rate_mbit, seconds):
    if rate_mbit <= 0 or seconds <= 0:
        raise ValueError("rate and interval must be positive")
    return total_bytes * 8 / (rate_mbit * 1e6 * seconds)


def bytes_in_window(intervals, offset, w0, w1):
    """Bytes of [(start, end, bytes)] (times relative to offset) inside [w0, w1], prorated."""
    total = 0.0
    for start, end, nbytes in intervals:
        a, b = offset + start, offset + end
        if b <= a:
            continue
        overlap = min(b, w1) - max(a, w0)
        if overlap > 0:
            total += nbytes * overlap / (b - a)
    return total


def counter_at(samples, t):
    """Linear interpolation of a cumulative counter [(time, value)] (sorted) at time t,
    clamped to the first/last sample; None without samples."""
    if not samples:
        return None
    if t <= samples[0][0]:
        return samples[0][1]
    for (ta, va), (tb, vb) in zip(samples, samples[1:]):
        if ta <= t <= tb:
            return va if tb == ta else va + (vb - va) * (t - ta) / (tb - ta)
    return samples[-1][1]


def percentile(xs, p):
    """Nearest-rank percentile (p in 0..100); None for no data."""
    if not xs:
        return None
    s = sorted(xs)
    k = max(0, min(len(s) - 1, math.ceil(p / 100 * len(s)) - 1))
    return s[k]


def mean(xs):
    return sum(xs) / len(xs) if xs else None


# ------------------------------------------------------------------------------- parsers
def read_env(path):
    env = {}
    try:
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if "=" in line and not line.startswith("#"):
                    k, v = line.split("=", 1)
                    env[k] = v
    except OSError as e:
        raise AnalysisError(f"{path}: cannot read ({e.strerror})")
    return env


def _unclosed(raw):
    """True if a JSON text ends inside a string or with open brackets (cut short)."""
    depth, in_str, esc = 0, False, False
    for ch in raw.decode("utf-8", errors="replace"):
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
    return in_str or depth > 0


def load_iperf3(path):
    """Load and check an iperf3 client JSON; returns the dict. Errors are AnalysisError."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise AnalysisError(f"{path}: cannot read iperf3 output ({e.strerror})")
    errfile = os.path.splitext(path)[0] + ".err"
    hint = ""
    if os.path.exists(errfile) and os.path.getsize(errfile):
        with open(errfile, errors="replace") as f:
            hint = "; iperf3 stderr: " + " ".join(f.read().split())[:200]
    if not raw.strip():
        raise AnalysisError(f"{path}: empty file, iperf3 produced no JSON{hint}")
    try:
        d = json.loads(raw.decode("utf-8", errors="replace"))
    except json.JSONDecodeError as e:
        what = "truncated" if _unclosed(raw) else "malformed"
        raise AnalysisError(f"{path}: {what} iperf3 JSON: {e.msg} (line {e.lineno}, column "
                            f"{e.colno}; file has {len(raw)} bytes){hint}")
    if not isinstance(d, dict):
        raise AnalysisError(f"{path}: iperf3 JSON is not an object")
    if d.get("error"):
        raise AnalysisError(f"{path}: iperf3 reported an error: {d['error']}")
    try:
        conn = d["start"]["connected"]
        if not conn or "local_port" not in conn[0]:
            raise KeyError("start.connected")
        ss = d["end"]["sum_sent"]
        for key in ("bytes", "retransmits"):
            if not isinstance(ss.get(key), (int, float)):
                raise KeyError(f"end.sum_sent.{key}")
        if not isinstance(d["intervals"], list):
            raise KeyError("intervals")
    except (KeyError, TypeError, IndexError) as e:
        name = e.args[0] if isinstance(e, KeyError) else str(e)
        raise AnalysisError(f"{path}: incomplete iperf3 JSON: no '{name}' (did the test finish?)")
    return d


def _intervals(obj, sock, path, where):
    """(start, end, bytes) of every interval of the connection with this socket number."""
    out = []
    try:
        for iv in obj["intervals"]:
            st = [x for x in iv["streams"] if x["socket"] == sock]
            if len(st) != 1:
                raise KeyError("socket")
            out.append((float(st[0]["start"]), float(st[0]["end"]), float(st[0]["bytes"])))
    except (KeyError, TypeError, ValueError):
        raise AnalysisError(f"{path}: bad interval record of socket {sock} in {where}")
    return out


def iperf3_stream(d, path, stream):
    """One TCP connection of an iperf3 client (several with -P): stream = its position in
    start.connected. Returns local_port, the server's (receiver-side) intervals when present,
    else the client's, with their source, and the connection's end totals."""
    conn = d["start"]["connected"]
    if not 0 <= stream < len(conn):
        raise AnalysisError(f"{path}: no stream {stream} (the client has {len(conn)})")
    lport = conn[stream]["local_port"]
    sock = conn[stream].get("socket")
    try:
        ends = [e for e in d["end"]["streams"] if e["sender"]["socket"] == sock]
        snd, rcv = ends[0]["sender"], ends[0].get("receiver", {})
        totals = {"retransmits": int(snd["retransmits"]), "bytes_sent": int(snd["bytes"]),
                  "bytes_received": int(rcv.get("bytes", 0))}
    except (KeyError, TypeError, IndexError, ValueError):
        raise AnalysisError(f"{path}: no end totals for stream {stream} (socket {sock})")
    srv = d.get("server_output_json")
    if isinstance(srv, dict) and srv.get("intervals"):
        ssock = [c.get("socket") for c in srv.get("start", {}).get("connected", [])
                 if c.get("remote_port") == lport]
        if len(ssock) != 1:
            raise AnalysisError(f"{path}: the server output has no connection from port {lport}")
        ivs, source = _intervals(srv, ssock[0], path, "server_output_json"), "receiver"
    else:
        ivs, source = _intervals(d, sock, path, "intervals"), "sender"
    return {"local_port": lport, "intervals": ivs, "source": source, **totals}


def parse_rate(text):
    """'12.5Mbps' / '950Kbps' / '123bps' -> Mbit/s."""
    num, unit = "", ""
    for i, ch in enumerate(text):
        if ch.isdigit() or ch == ".":
            num += ch
        else:
            unit = text[i:]
            break
    if not num:
        return None
    mult = {"bps": 1, "Kbps": 1e3, "kbps": 1e3, "Mbps": 1e6, "Gbps": 1e9, "Tbps": 1e12}.get(unit)
    return float(num) * mult / 1e6 if mult else None


def parse_ss_info(info):
    """tcp_info text of one ss -tin socket -> dict of numbers (missing fields absent)."""
    out = {}
    toks = info.split()
    if toks and ":" not in toks[0] and toks[0].replace("_", "").isalnum() and not toks[0].isdigit():
        out["ca"] = toks[0]
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in ("send", "pacing_rate", "delivery_rate") and i + 1 < len(toks):
            out[t + "_mbps"] = parse_rate(toks[i + 1])
            i += 2
            continue
        if t.startswith("bbr:(") and t.endswith(")"):
            for kv in t[5:-1].split(","):
                k, _, v = kv.partition(":")
                if k == "bw":
                    out["bbr_bw_mbps"] = parse_rate(v)
                elif k in ("mrtt", "pacing_gain", "cwnd_gain"):
                    out["bbr_" + k] = float(v)
        elif ":" in t:
            k, _, v = t.partition(":")
            try:
                if k == "rtt":
                    a, _, b = v.partition("/")
                    out["srtt_ms"], out["rttvar_ms"] = float(a), float(b)
                elif k == "retrans":
                    a, _, b = v.partition("/")
                    out["retrans_cur"], out["total_retrans"] = int(a), int(b)
                elif k in ("cwnd", "ssthresh", "data_segs_out", "segs_out", "bytes_acked",
                           "bytes_sent", "bytes_retrans", "delivered", "lost", "unacked",
                           "notsent", "mss"):
                    out[k] = int(v)
                elif k == "minrtt":
                    out["minrtt_ms"] = float(v)
            except ValueError:
                pass
        i += 1
    out.setdefault("total_retrans", 0 if "data_segs_out" in out else None)
    return out


def parse_ss_file(path):
    """[(uptime, [{'state','local_port','peer_port','info'}])] from a sampler file."""
    samples, cur, sock = [], None, None
    try:
        f = open(path, errors="replace")
    except OSError:
        return []
    with f:
        for line in f:
            if line.startswith("@ "):
                try:
                    cur = (float(line.split()[1]), [])
                except (IndexError, ValueError):
                    cur = None
                    continue
                samples.append(cur)
                sock = None
                continue
            if cur is None or not line.strip():
                continue
            if line[0] in " \t":
                if sock is not None:
                    sock["info"] += " " + line.strip()
                continue
            parts = line.split()
            if len(parts) < 5 or parts[0] in ("State", "Netid"):
                continue
            try:
                lport = int(parts[3].rsplit(":", 1)[1])
                pport = int(parts[4].rsplit(":", 1)[1])
            except (IndexError, ValueError):
                continue
            sock = {"state": parts[0], "local_port": lport, "peer_port": pport,
                    "info": " ".join(parts[5:])}
            cur[1].append(sock)
    return samples


def parse_tc_file(path):
    """[(uptime, {backlog_bytes, backlog_pkts, drops, sent_bytes, sent_pkts})] of the
    bottleneck's buffer (the bfifo/pfifo child of the htb)."""
    out = []
    try:
        f = open(path, errors="replace")
    except OSError:
        return []
    with f:
        blocks, cur = [], None
        for line in f:
            if line.startswith("@ "):
                try:
                    cur = [float(line.split()[1]), ""]
                except (IndexError, ValueError):
                    cur = None
                    continue
                blocks.append(cur)
            elif cur is not None:
                cur[1] += line
    for t, text in blocks:
        try:
            qds = json.loads(text)
        except json.JSONDecodeError:
            continue  # a sample cut by the end of the run
        q = next((x for x in qds if x.get("kind") in ("bfifo", "pfifo")), None)
        q = q or next((x for x in qds if x.get("parent") == "1:1"), None)
        if q is None:
            continue
        out.append((t, {"backlog_bytes": q.get("backlog", 0), "backlog_pkts": q.get("qlen", 0),
                        "drops": q.get("drops", 0), "sent_bytes": q.get("bytes", 0),
                        "sent_pkts": q.get("packets", 0)}))
    return out


def parse_snmp_tcp(path):
    """{'OutSegs': n, 'RetransSegs': n, ...} from a /proc/net/snmp copy, or None."""
    try:
        with open(path) as f:
            rows = [ln.split() for ln in f if ln.startswith("Tcp:")]
        return {k: int(v) for k, v in zip(rows[0][1:], rows[1][1:])}
    except (OSError, IndexError, ValueError):
        return None


# ------------------------------------------------------------------------------ analysis
TRACE_LINE = re.compile(r"\s(\d+\.\d+): bbr_a_gain: (.*)$")
# enum bbr_why of tcp_bbr_a.c, in order
GAIN_WHY = ("fixed", "probe", "hold", "drain", "lossy", "cruise", "lt_bw", "recovery")
TRACE_COLS = ["t_s", "flow", "cc", "rtt_ms", "mode", "phase", "why", "pacing_gain",
              "cwnd_gain", "rtt_us", "rtt_max_us", "phi", "min_rtt_us", "bw_mbps", "cwnd",
              "inflight", "cwnd_limited", "lossy", "round_lost", "ev"]


def parse_trace_file(path):
    """Events of the bbr_a:bbr_a_gain tracepoint: [(time_s, {field: int})], [] if no file."""
    events = []
    try:
        with open(path) as f:
            for line in f:
                m = TRACE_LINE.search(line)
                if not m:
                    continue
                try:
                    fields = {k: int(v) for k, v in
                              (kv.split("=", 1) for kv in m.group(2).split())}
                except ValueError:
                    continue  # a line cut short when the reader was stopped
                events.append((float(m.group(1)), fields))
    except FileNotFoundError:
        return []
    return events


def trace_rows(events, fl, sport, t0):
    """trace.csv rows of one flow (its data connection: sport -> the flow's port)."""
    rows = []
    for ts, e in events:
        if e.get("sport") != sport or e.get("dport") != fl["port"]:
            continue
        phi = e["rtt_us"] / e["rtt_max_us"] if e["rtt_max_us"] and e["rtt_us"] >= 0 else None
        why = e["why"]
        rows.append([round(ts - t0, 4), fl["index"], fl["cc"], fl["rtt_ms"], e["mode"],
                     e["phase"], GAIN_WHY[why] if why < len(GAIN_WHY) else why,
                     e["gain"], e["cwnd_gain"], e["rtt_us"], e["rtt_max_us"],
                     None if phi is None else round(phi, 4), e["min_rtt_us"],
                     round(e["bw_bps"] / 1e6, 4), e["cwnd"], e["inflight"], e["cwnd_limited"],
                     e.get("lossy"), e.get("round_lost"), e.get("ev", 0)])
    return rows


def trace_stats(rows, w0, w1):
    """Per flow, over [w0, w1]: share of PROBE_BW events per gain reason, share of events
    that found the flow cwnd-limited, mean phi, mean queueing delay rtt - min_rtt (ms) at its
    ACKs; None without events."""
    pb = [r for r in rows if w0 <= r[0] <= w1 and r[4] == 2]
    if not pb:
        return None
    why = {}
    for r in pb:
        why[r[6]] = why.get(r[6], 0) + 1
    phis = [r[11] for r in pb if r[11] is not None]
    queue = [(r[9] - r[12]) / 1000 for r in pb if r[9] >= 0]
    return {"events": len(pb),
            "why_share": {k: round(v / len(pb), 4) for k, v in sorted(why.items())},
            "cwnd_limited_share": round(sum(r[16] for r in pb) / len(pb), 4),
            "phi_mean": round(mean(phis), 4) if phis else None,
            "queue_ms_mean": round(mean(queue), 3) if queue else None}


def fnum(env, key, path, default=None):
    v = env.get(key, default)
    if v is None:
        raise AnalysisError(f"{path}: params.env has no {key}")
    try:
        return float(v)
    except ValueError:
        raise AnalysisError(f"{path}: params.env: {key}={v!r} is not a number")


def read_flows(d):
    path = os.path.join(d, "flows.txt")
    flows = []
    try:
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) < 7:
                    continue
                # 9 columns since iperf3 clients run several flows (-P): group = the number
                # of the client's flow<group>.json, stream = position among its connections
                flows.append({"index": int(p[0]), "class": int(p[1]), "rtt_ms": float(p[2]),
                              "cc": p[3], "port": int(p[4]), "start_s": float(p[5]),
                              "run_s": int(p[6]),
                              "group": int(p[7]) if len(p) >= 9 else int(p[0]),
                              "stream": int(p[8]) if len(p) >= 9 else 0})
    except OSError as e:
        raise AnalysisError(f"{path}: cannot read ({e.strerror})")
    except ValueError:
        raise AnalysisError(f"{path}: malformed flow table")
    if not flows:
        raise AnalysisError(f"{path}: no flows")
    return flows


THROUGHPUT_COLS = ["flow", "cc", "rtt_ms", "t_start_s", "t_end_s", "bytes", "mbps"]
SS_COLS = ["t_s", "flow", "cc", "rtt_ms", "ca", "cwnd", "srtt_ms", "rttvar_ms", "minrtt_ms",
           "pacing_rate_mbps", "delivery_rate_mbps", "bbr_bw_mbps", "bbr_mrtt_ms",
           "pacing_gain", "cwnd_gain", "total_retrans", "data_segs_out", "bytes_acked",
           "unacked"]
QUEUE_COLS = ["t_s", "backlog_bytes", "backlog_pkts", "qdelay_ms", "drops_total", "sent_bytes",
              "sent_pkts"]


# --------------------------------------------------------------------------------- load
def read_flow_starts(d, t0):
    """{flow index: launch time in seconds since t0} from flow_starts.txt ({} without it)."""
    starts = {}
    sp = os.path.join(d, "flow_starts.txt")
    if os.path.exists(sp):
        with open(sp) as f:
            for line in f:
                p = line.split()
                if len(p) == 2:
                    starts[int(p[0])] = float(p[1]) - t0
    return starts


def load_run(d, warmup=None, end=None, cooldown=None):
    """A run directory's parameters (params.env, plus the run.env keys it lacks), measured
    interval [w0, w1] (seconds after the first flow was launched), flows and launch times.
    The raw sample files are read by the metrics that use them."""
    penv = os.path.join(d, "params.env")
    env = read_env(penv)
    extra = os.path.join(d, "run.env")
    if os.path.exists(extra):
        env.update({k: v for k, v in read_env(extra).items() if k not in env})
    rate = fnum(env, "rate_mbit", penv)
    duration = fnum(env, "duration_s", penv)
    w0 = fnum(env, "warmup_s", penv, 0) if warmup is None else warmup
    if cooldown is None:
        cooldown = fnum(env, "cooldown_s", penv, DEFAULT_COOLDOWN)
    w1 = duration - cooldown if end is None else end
    if not 0 <= w0 < w1:
        raise AnalysisError(f"{d}: empty measured interval [{w0:g}, {w1:g}] s "
                            f"(warm-up + cool-down >= duration?)")
    t0 = fnum(env, "t0_uptime", penv, 0)
    flows = read_flows(d)
    return {"dir": d, "penv": penv, "env": env, "rate": rate, "w0": w0, "w1": w1, "t0": t0,
            "flows": flows, "starts": read_flow_starts(d, t0)}


# ----------------------------------------------------------------------- per-flow metrics
def flow_client(run, fl, clients):
    """The iperf3 client JSON that ran flow fl and its path, loaded once per client (cached
    in clients) and checked against flows.txt: one connection per flow of the group, and
    the congestion control that was asked for."""
    jpath = os.path.join(run["dir"], f"flow{fl['group']}.json")
    if jpath not in clients:
        clients[jpath] = load_iperf3(jpath)
        want = sum(1 for f in run["flows"] if f["group"] == fl["group"])
        have = len(clients[jpath]["start"]["connected"])
        if have != want:
            raise AnalysisError(f"{jpath}: {have} connection(s), flows.txt has {want} "
                                f"flow(s) in group {fl['group']}")
    js = clients[jpath]
    used = js.get("end", {}).get("sender_tcp_congestion")
    if used and used != fl["cc"]:
        raise AnalysisError(f"{jpath}: flow ran {used}, not the requested {fl['cc']}")
    return js, jpath


def flow_throughput(run, fl, st):
    """Throughput of one flow in the measured interval from its iperf3 stream st (sets
    offset_s, bytes_window, throughput_mbps/_source and the iperf3 totals on fl); returns
    its throughput.csv rows."""
    w0, w1 = run["w0"], run["w1"]
    off = run["starts"].get(fl["index"], fl["start_s"])
    fl["offset_s"] = off
    fl["bytes_window"] = bytes_in_window(st["intervals"], off, w0, w1)
    fl["throughput_mbps"] = fl["bytes_window"] * 8 / (w1 - w0) / 1e6
    fl["throughput_source"] = st["source"]
    fl["retransmits"] = st["retransmits"]
    fl["bytes_sent"] = st["bytes_sent"]
    fl["bytes_received"] = st["bytes_received"]
    return [[fl["index"], fl["cc"], fl["rtt_ms"], round(off + a, 4), round(off + b, 4),
             int(n), round(n * 8 / (b - a) / 1e6, 4) if b > a else 0]
            for a, b, n in st["intervals"]]


def ss_row(t, fl, m):
    """One ss.csv row: flow fl's tcp_info m (parse_ss_info) at time t."""
    return [round(t, 3), fl["index"], fl["cc"], fl["rtt_ms"], m.get("ca"), m.get("cwnd"),
            m.get("srtt_ms"), m.get("rttvar_ms"), m.get("minrtt_ms"),
            m.get("pacing_rate_mbps"), m.get("delivery_rate_mbps"),
            m.get("bbr_bw_mbps"), m.get("bbr_mrtt"), m.get("bbr_pacing_gain"),
            m.get("bbr_cwnd_gain"), m.get("total_retrans"),
            m.get("data_segs_out"), m.get("bytes_acked"), m.get("unacked")]


def flow_ss(run, fl, samples, dport):
    """The ss samples of flow fl's data connection (dport -> the flow's port): its ss.csv
    rows, its last tcp_info, srtt - base RTT of the samples in the measured interval, and
    the cumulative bytes_acked as [(time, bytes)]."""
    t0, w0, w1 = run["t0"], run["w0"], run["w1"]
    rows, last, qd, acked = [], None, [], []
    for up, socks in samples:
        for s in socks:
            if s["local_port"] != dport or s["peer_port"] != fl["port"]:
                continue
            m = parse_ss_info(s["info"])
            if "srtt_ms" not in m:
                continue
            t = up - t0
            last = m
            if m.get("bytes_acked") is not None:
                acked.append((t, m["bytes_acked"]))
            if w0 <= t <= w1 and fl["base_rtt_ms"] is not None:
                qd.append(m["srtt_ms"] - fl["base_rtt_ms"])
            rows.append(ss_row(t, fl, m))
    return rows, last, qd, acked


def flow_retrans(fl, last, mss):
    """Retransmitted and sent data segments of the whole flow (sets segs_sent, segs_retrans,
    retrans_source, retrans_rate on fl): from the last ss snapshot last, else estimated
    from the iperf3 totals with segments of mss bytes."""
    if last and last.get("data_segs_out"):
        fl["segs_sent"] = last["data_segs_out"]
        fl["segs_retrans"] = last["total_retrans"] or 0
        fl["retrans_source"] = "ss"
    else:
        new = math.ceil(fl["bytes_sent"] / mss)
        fl["segs_sent"] = new + fl["retransmits"]
        fl["segs_retrans"] = fl["retransmits"]
        fl["retrans_source"] = "iperf3"
    fl["retrans_rate"] = fl["segs_retrans"] / fl["segs_sent"] if fl["segs_sent"] else 0.0


def flow_acked_window(fl, acked, w0, w1):
    """Cross-check (sets bytes_acked_window on fl, None without enough samples): payload
    the receiver acknowledged in [w0, w1], from the sender's cumulative tcp_info
    bytes_acked [(time, bytes)]; an ACK reaches the sender one base RTT after the data
    reached the receiver (the whole base RTT is on the ACK path)."""
    lag = (fl["base_rtt_ms"] or fl["rtt_ms"]) / 1e3
    fl["bytes_acked_window"] = None
    if len(acked) >= 2 and acked[0][0] <= w0 + lag and acked[-1][0] >= w1 + lag - 0.2:
        fl["bytes_acked_window"] = counter_at(acked, w1 + lag) - counter_at(acked, w0 + lag)


def flow_metrics(run, fl, inputs, tables):
    """All metrics of one flow, set on fl; its rows go to tables (throughput, trace, ss).
    inputs caches what several flows share: iperf3 clients, ss files per class, the trace."""
    js, jpath = flow_client(run, fl, inputs["clients"])
    st = iperf3_stream(js, jpath, fl["stream"])
    tables["throughput"].extend(flow_throughput(run, fl, st))
    dport = st["local_port"]
    fl_trace = trace_rows(inputs["trace"], fl, dport, run["t0"])
    fl["trace"] = trace_stats(fl_trace, run["w0"], run["w1"])
    tables["trace"].extend(fl_trace)
    k = fl["class"]
    if k not in inputs["ss"]:
        inputs["ss"][k] = parse_ss_file(os.path.join(run["dir"], f"ss_s{k}.txt"))
    base = run["env"].get(f"base_rtt_ms_s{k}")
    fl["base_rtt_ms"] = float(base) if base else None
    rows, last, qd, acked = flow_ss(run, fl, inputs["ss"][k], dport)
    tables["ss"].extend(rows)
    flow_retrans(fl, last, js["start"].get("tcp_mss_default") or 1448)
    fl["rtt_queueing_ms"] = mean(qd)
    flow_acked_window(fl, acked, run["w0"], run["w1"])


# -------------------------------------------------------------------------- queue metrics
def queue_metrics(run, tc):
    """The bottleneck queue from the tc samples tc (parse_tc_file): its queue.csv rows, and
    the run_summary.json entries queue_delay_ms, bottleneck_drops and bottleneck_load."""
    t0, w0, w1, rate = run["t0"], run["w0"], run["w1"], run["rate"]
    rows, qdel, drops_w = [], [], []
    for up, q in tc:
        t = up - t0
        dl = q["backlog_bytes"] * 8 / (rate * 1e6) * 1e3
        rows.append([round(t, 3), q["backlog_bytes"], q["backlog_pkts"], round(dl, 4),
                     q["drops"], q["sent_bytes"], q["sent_pkts"]])
        if w0 <= t <= w1:
            qdel.append(dl)
            drops_w.append(q["drops"])
    sent = [(up - t0, q["sent_bytes"]) for up, q in tc]
    link = None
    if len(sent) >= 2 and sent[0][0] <= w0 and sent[-1][0] >= w1 - 0.2:
        link = (counter_at(sent, w1) - counter_at(sent, w0)) * 8 / (rate * 1e6 * (w1 - w0))
    return rows, {
        "queue_delay_ms": {"mean": mean(qdel), "p50": percentile(qdel, 50),
                           "p95": percentile(qdel, 95), "max": max(qdel) if qdel else None,
                           "samples": len(qdel)},
        "bottleneck_drops": {"total": tc[-1][1]["drops"] if tc else None,
                             "in_interval": drops_w[-1] - drops_w[0] if drops_w else None},
        "bottleneck_load": link}


def snmp_metrics(d, flows):
    """Per sender namespace s<k> of the flows: TCP segments sent and retransmitted during
    the run, from the /proc/net/snmp copies taken at its start and end."""
    snmp = {}
    for k in sorted({fl["class"] for fl in flows}):
        a = parse_snmp_tcp(os.path.join(d, f"snmp_s{k}_start.txt"))
        b = parse_snmp_tcp(os.path.join(d, f"snmp_s{k}_end.txt"))
        if a and b and b.get("OutSegs", 0) > a.get("OutSegs", 0):
            out = b["OutSegs"] - a["OutSegs"]
            snmp[f"s{k}"] = {"out_segs": out, "retrans_segs": b["RetransSegs"] - a["RetransSegs"],
                             "retrans_rate": (b["RetransSegs"] - a["RetransSegs"]) / out}
    return snmp


# -------------------------------------------------------------------------------- summary
def flow_summary(fl, w0, w1):
    """One flow's entry of run_summary.json "flows"."""
    return {
        "index": fl["index"], "class": fl["class"], "cc": fl["cc"], "rtt_ms": fl["rtt_ms"],
        "base_rtt_ms": fl["base_rtt_ms"],
        "throughput_mbps": round(fl["throughput_mbps"], 4),
        "retransmits": fl["retransmits"], "retrans_rate": round(fl["retrans_rate"], 6),
        "segs_sent": fl["segs_sent"], "segs_retrans": fl["segs_retrans"],
        "bytes_in_interval": int(fl["bytes_window"]), "bytes_received": fl["bytes_received"],
        "rtt_queueing_ms": fl["rtt_queueing_ms"], "start_s": round(fl["offset_s"], 3),
        "throughput_acked_mbps": (None if fl["bytes_acked_window"] is None else
                                  round(fl["bytes_acked_window"] * 8 / (w1 - w0) / 1e6, 4)),
        "throughput_source": fl["throughput_source"], "retrans_source": fl["retrans_source"],
        **({"trace": fl["trace"]} if fl["trace"] else {}),
    }


def cc_label(ccs):
    """A run's cc as rtt_fairness.sh's --cc item names it: the cc, or the cc of each RTT
    class joined by '+' (params.env cc="bbr cubic": "bbr+cubic")."""
    return "+".join(ccs) if len(ccs) > 1 else ccs[0]


def cc_shares(flows):
    """Per-cc and per-class aggregates of a run's flows (flow_summary dicts): per_cc, one
    entry per cc in the order of the classes ({cc: {flows, throughput_mbps, share}}), and
    per_class, one entry per RTT class ([{class, cc, rtt_ms, flows, throughput_mbps,
    share}]); share = the aggregate's part of the flows' total throughput (None when the
    total is 0)."""
    total = sum(f["throughput_mbps"] for f in flows)
    per_cc, per_class = {}, {}
    for f in sorted(flows, key=lambda f: (f["class"], f["index"])):
        for key, table, entry in ((f["cc"], per_cc, {}),
                                  (f["class"], per_class,
                                   {"class": f["class"], "cc": f["cc"], "rtt_ms": f["rtt_ms"]})):
            agg = table.setdefault(key, {**entry, "flows": 0, "throughput_mbps": 0.0})
            agg["flows"] += 1
            agg["throughput_mbps"] += f["throughput_mbps"]
    for agg in list(per_cc.values()) + list(per_class.values()):
        agg["share"] = round(agg["throughput_mbps"] / total, 6) if total > 0 else None
        agg["throughput_mbps"] = round(agg["throughput_mbps"], 4)
    return per_cc, list(per_class.values())


def run_summary(run, queue, snmp):
    """run_summary.json of one run from its flows' metrics (flow_metrics), its queue
    metrics (queue_metrics) and its snmp counters (snmp_metrics)."""
    env, flows, rate, penv = run["env"], run["flows"], run["rate"], run["penv"]
    w0, w1 = run["w0"], run["w1"]
    total_w = sum(fl["bytes_window"] for fl in flows)
    acked_w = [fl["bytes_acked_window"] for fl in flows]
    segs = sum(fl["segs_sent"] for fl in flows)
    ccs = env.get("cc", "").split()
    if not ccs:  # params.env without cc: the flow table's cc of each class
        ccs = [cc for _, cc in sorted({(fl["class"], fl["cc"]) for fl in flows})]
        ccs = ccs[:1] if len(set(ccs)) == 1 else ccs
    fsum = [flow_summary(fl, w0, w1) for fl in flows]
    per_cc, per_class = cc_shares(fsum)
    return {
        "cc": cc_label(ccs),
        "dir": os.path.abspath(run["dir"]),
        "jain": jain(fl["throughput_mbps"] for fl in flows),
        "utilization": utilization(total_w, rate, w1 - w0),
        "retrans_rate": sum(fl["segs_retrans"] for fl in flows) / segs if segs else 0.0,
        "utilization_acked": (utilization(sum(acked_w), rate, w1 - w0)
                              if None not in acked_w else None),
        "bottleneck_load": queue["bottleneck_load"],
        "interval_s": [w0, w1],
        "rate_mbit": rate,
        "buffer_bytes": int(fnum(env, "buffer_bytes", penv, 0)),
        "loss_pct": fnum(env, "loss_pct", penv, 0),
        "queue_delay_ms": queue["queue_delay_ms"],
        "bottleneck_drops": queue["bottleneck_drops"],
        "snmp": snmp,
        "flows": fsum,
        "per_cc": per_cc,
        "per_class": per_class,
        "params": env,
        "kernel": env.get("kernel"),
        "module_version": env.get("module_version"),
    }


def run_analysis(d, warmup=None, end=None, cooldown=None):
    """Analysis of one run directory, in memory: (run_summary.json dict, tables), tables
    being the rows of throughput.csv, ss.csv, queue.csv and trace.csv (unsorted) by name."""
    run = load_run(d, warmup, end, cooldown)
    tables = {"throughput": [], "ss": [], "queue": [], "trace": []}
    inputs = {"clients": {}, "ss": {}, "trace": parse_trace_file(os.path.join(d, "trace.txt"))}
    for fl in run["flows"]:
        flow_metrics(run, fl, inputs, tables)
    tables["queue"], queue = queue_metrics(run, parse_tc_file(os.path.join(d, "tc.txt")))
    return run_summary(run, queue, snmp_metrics(d, run["flows"])), tables


# -------------------------------------------------------------------------------- writers
def _csv(path, header, rows):
    """Write a CSV file: the header row, then rows."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def write_run_files(d, res, tables):
    """The derived files of one run directory: throughput.csv, ss.csv, queue.csv,
    trace.csv (when there are trace rows) and run_summary.json."""
    _csv(os.path.join(d, "throughput.csv"), THROUGHPUT_COLS, tables["throughput"])
    _csv(os.path.join(d, "ss.csv"), SS_COLS, tables["ss"])
    _csv(os.path.join(d, "queue.csv"), QUEUE_COLS, tables["queue"])
    if tables["trace"]:
        _csv(os.path.join(d, "trace.csv"), TRACE_COLS, sorted(tables["trace"]))
    with open(os.path.join(d, "run_summary.json"), "w") as f:
        json.dump(res, f, indent=1)


def analyze_run(d, warmup=None, end=None, write_csv=True, cooldown=None):
    """Analysis of one run directory: its run_summary.json dict; with write_csv also its
    derived files (write_run_files)."""
    res, tables = run_analysis(d, warmup, end, cooldown)
    if write_csv:
        write_run_files(d, res, tables)
    return res


def find_runs(root):
    if os.path.isfile(os.path.join(root, "params.env")):
        return [root]
    runs = sorted(os.path.dirname(p) for p in glob.glob(os.path.join(root, "**", "params.env"),
                                                        recursive=True))
    return runs


DEFINITIONS = {k: v for k, v in (
    ("interval", "[warmup, duration - cooldown] s after the first flow was launched"),
    ("throughput_mbps", "receiver-side payload bytes in the interval (iperf3 server intervals,"
                        " prorated at the edges) * 8 / interval"),
    ("utilization", "sum of receiver-side payload bytes in the interval * 8 / (rate * interval);"
                    " headers not counted, ceiling 1448/1514 = 0.956"),
    ("jain", "(sum x)^2 / (n sum x^2) over per-flow throughputs"),
    ("retransmits", "iperf3 end.sum_sent.retransmits (whole flow)"),
    ("retrans_rate", "tcp_info total_retrans / data_segs_out from the flow's last ss snapshot"
                     " (whole flow); fallback retransmits / (bytes_sent/MSS + retransmits)"),
    ("queue_delay_ms", "bfifo backlog bytes * 8 / rate over tc samples in the interval"),
    ("utilization_acked", "cross-check: sum over flows of tcp_info bytes_acked (ss samples,"
                          " interpolated, shifted by the base RTT) in the interval * 8 /"
                          " (rate * interval)"),
    ("bottleneck_load", "bytes (1514-byte frames incl. retransmissions) the bottleneck"
                        " bfifo sent in the interval * 8 / (rate * interval); ~1.0 when busy"),
    ("rtt_queueing_ms", "mean over ss samples in the interval of srtt - ping base RTT"),
    ("per_cc", "per cc (in the order of the RTT classes): its flows, the sum of their"
               " throughput_mbps and its share of all flows' throughput"),
    ("per_class", "the same per RTT class (sender namespace), with the class's cc and RTT"),
)}


def run_order(result):
    """Sort key: the cc's position in rtt_fairness.sh --cc (run.env cc_index), then the
    run's number for that cc (repeat_index); runs without them keep directory order."""
    p = result["params"]
    try:
        return int(p.get("cc_index", 0)), int(p.get("repeat_index", 0))
    except ValueError:
        return 0, 0


def summarize(runs, warmup=None, cooldown=None):
    results = [analyze_run(d, warmup, cooldown=cooldown) for d in runs]
    results.sort(key=run_order)  # stable: directory order among equals
    count = {}
    for r in results:
        count[r["cc"]] = count.get(r["cc"], 0) + 1
        r["run"] = count[r["cc"]]  # the run's number for its cc
    agg = {}
    for r in results:
        agg.setdefault(r["cc"], []).append(r)
    aggregate = []
    for cc, rs in agg.items():
        js = [r["jain"] for r in rs if r["jain"] is not None]
        us = [r["utilization"] for r in rs]
        # per RTT class (for an A+B item: per part), the mean share over the runs
        shares = [[c["share"] for c in r["per_class"]] for r in rs]
        shares = ([mean(col) if None not in col else None for col in zip(*shares)]
                  if len({len(x) for x in shares}) == 1 else None)
        aggregate.append({"cc": cc, "runs": len(rs),
                          "jain_mean": mean(js), "jain_min": min(js) if js else None,
                          "jain_max": max(js) if js else None, "utilization_mean": mean(us),
                          "retrans_rate_mean": mean([r["retrans_rate"] for r in rs]),
                          "class_share_mean": shares})
    first = results[0]
    modver = next((r["module_version"] for r in results
                   if r["module_version"] not in (None, "none")), first["module_version"])
    return {"generated_by": "testbed/analyze.py", "definitions": DEFINITIONS,
            "kernel": first["kernel"], "module_version": modver,
            "params": first["params"], "results": results, "aggregate": aggregate}


def validate_summary(d):
    """Problems (list of strings) with the required shape of summary.json:
    {"results": [{"cc": str, "jain": float, "utilization": float,
                  "flows": [{"rtt_ms", "throughput_mbps", "retransmits", "retrans_rate"}]}]}"""
    probs = []
    res = d.get("results") if isinstance(d, dict) else None
    if not isinstance(res, list) or not res:
        return ["'results' is not a non-empty list"]
    for i, r in enumerate(res):
        where = f"results[{i}]"
        if not isinstance(r, dict):
            probs.append(f"{where} is not an object")
            continue
        if not isinstance(r.get("cc"), str) or not r.get("cc"):
            probs.append(f"{where}.cc is not a non-empty string")
        j = r.get("jain")
        if not (isinstance(j, float) and 0 < j <= 1 + 1e-9):
            probs.append(f"{where}.jain={j!r} is not a number in (0, 1]")
        u = r.get("utilization")
        if not (isinstance(u, float) and 0 <= u <= 1.1):
            probs.append(f"{where}.utilization={u!r} is not a number in [0, 1.1]")
        fl = r.get("flows")
        if not isinstance(fl, list) or not fl:
            probs.append(f"{where}.flows is not a non-empty list")
            continue
        for k, f in enumerate(fl):
            w = f"{where}.flows[{k}]"
            for key, typ in (("rtt_ms", (int, float)), ("throughput_mbps", (int, float)),
                             ("retransmits", int), ("retrans_rate", (int, float))):
                v = f.get(key) if isinstance(f, dict) else None
                if not isinstance(v, typ) or isinstance(v, bool) or v < 0:
                    probs.append(f"{w}.{key}={v!r} is not a non-negative {key} value")
    return probs


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def share_text(r):
    """A '+' run's throughput share per part of its item (RTT class), e.g.
    "bbr 61.2 % (1 flow, 57.1 Mbit/s) + cubic 38.8 % (4 flows, 36.2 Mbit/s)"."""
    return " + ".join(
        f"{c['cc']} {fmt(None if c['share'] is None else 100 * c['share'], '.1f')} % "
        f"({c['flows']} flow{'s' if c['flows'] != 1 else ''}, {c['throughput_mbps']:.1f} Mbit/s)"
        for c in r.get("per_class", []))


def print_table(summary, out=sys.stdout):
    w = out.write
    p = summary["params"]
    w(f"kernel {summary['kernel']}  module {summary['module_version']}  "
      f"rate {p.get('rate_mbit')} Mbit/s  buffer {p.get('buffer_bytes')} B  loss {p.get('loss_pct')} %"
      f"  interval [{summary['results'][0]['interval_s'][0]:g}, "
      f"{summary['results'][0]['interval_s'][1]:g}] s\n")
    wcc = max([12] + [len(r["cc"]) + 1 for r in summary["results"]])
    w(f"{'cc':<{wcc}}{'run':>4}{'jain':>8}{'util':>8}{'retx%':>8}{'qdelay':>9}   "
      f"per flow: rtt(base) Mbit/s retx retx%\n")
    for r in summary["results"]:
        fl = "  ".join(f"{f['rtt_ms']:g}({fmt(f['base_rtt_ms'], '.1f')})ms "
                       f"{f['throughput_mbps']:.1f} {f['retransmits']} {100 * f['retrans_rate']:.2f}"
                       for f in r["flows"][:6])
        if len(r["flows"]) > 6:
            fl += f"  ... ({len(r['flows'])} flows)"
        w(f"{r['cc']:<{wcc}}{r['run']:>4}{fmt(r['jain'], '.3f'):>8}{fmt(r['utilization'], '.3f'):>8}"
          f"{100 * r['retrans_rate']:>8.2f}{fmt(r['queue_delay_ms']['mean'], '.1f'):>7}ms   {fl}\n")
        if "+" in r["cc"]:
            w(f"{'':<{wcc + 4}}shares: {share_text(r)}\n")
    if any(a["runs"] > 1 for a in summary["aggregate"]):
        for a in summary["aggregate"]:
            sh = ""
            if "+" in a["cc"] and a.get("class_share_mean"):
                sh = ", shares " + " + ".join(
                    f"{cc} {fmt(None if x is None else 100 * x, '.1f')} %"
                    for cc, x in zip(a["cc"].split("+"), a["class_share_mean"]))
            w(f"{a['cc']:<{wcc}} mean of {a['runs']}: jain {fmt(a['jain_mean'], '.3f')} "
              f"(min {fmt(a['jain_min'], '.3f')}, max {fmt(a['jain_max'], '.3f')}), "
              f"util {fmt(a['utilization_mean'], '.3f')}{sh}\n")


# two-sided 95 % Student t quantiles by degrees of freedom (1..30); beyond: 1.96
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
       2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
       2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def mean_ci95(xs):
    """(mean, half-width of the 95 % confidence interval); half-width None below 2 values."""
    xs = [x for x in xs if x is not None]
    if not xs:
        return None, None
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, None
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    t = T95[len(xs) - 2] if len(xs) - 1 <= len(T95) else 1.96
    return m, t * sd / math.sqrt(len(xs))


SCREEN_RUN_COLS = ["config", "scenario", "seed", "cc", "module_params", "rtts_ms",
                   "buffer_bdp", "jain", "utilization", "retrans_rate", "qdelay_mean_ms",
                   "throughputs_mbps", "cwnd_limited_shares", "probe_shares", "hold_shares",
                   "drain_shares", "phi_means", "trace_queue_ms", "kernel", "module_version",
                   "module_srcversion", "shares", "incumbent_mbps", "solo_mbps", "harm",
                   "self_harm", "latency_harm", "latency_self_harm"]


def _per_flow(flows, get):
    """'/'-joined per-flow values from the gain trace ('' for a flow without one)."""
    vals = [get(f["trace"]) if f.get("trace") else None for f in flows]
    return "" if all(v is None for v in vals) else "/".join(
        "" if v is None else f"{v:.3f}" for v in vals)
SCREEN_METRICS = ("jain", "utilization", "retrans_rate", "qdelay_mean_ms")
# harm (Ware et al., HotNets 2019) of a '+' configuration to its incumbent, per seed, and
# what goes into it; mean and 95 % CI per configuration and scenario (screen_harm)
HARM_METRICS = ("incumbent_mbps", "solo_mbps", "harm", "self_harm", "latency_harm",
                "latency_self_harm")


def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def part_ccs(r):
    """The cc of each part of a result's --cc item: params.env cc ("bbr cubic"), else its
    cc split at '+'."""
    return r.get("params", {}).get("cc", "").split() or r["cc"].split("+")


def class_flows(r):
    """((rtt_ms, number of flows) of each RTT class, in class order) of a summary.json
    result: from its flows' classes, or for a summary from before flows had one, from
    params.env rtts_ms and flows_per_rtt."""
    fl = r.get("flows", [])
    if fl and all("class" in f for f in fl):
        by = {}
        for f in fl:
            by.setdefault(f["class"], [float(f["rtt_ms"]), 0])[1] += 1
        return tuple(tuple(v) for _, v in sorted(by.items()))
    p = r.get("params", {})
    rtts = [_num(x) for x in p.get("rtts_ms", "").split()]
    counts = p.get("flows_per_rtt", "1").replace(",", " ").split()
    counts = counts * len(rtts) if len(counts) == 1 else counts
    try:
        return tuple((x, int(n)) for x, n in zip(rtts, counts))
    except ValueError:
        return ()


def screen_point(r):
    """What a harm reference must share with a run besides its flows: the bottleneck (rate,
    buffer in bytes, loss), the measured interval and the seed."""
    p = r.get("params", {})
    return (_num(r.get("rate_mbit", p.get("rate_mbit"))),
            _num(r.get("buffer_bytes", p.get("buffer_bytes"))),
            _num(r.get("loss_pct", p.get("loss_pct", 0))),
            tuple(_num(x) for x in r.get("interval_s") or ()), str(p.get("seed")))


def _harm_more_is_better(solo, other):
    """(solo - other) / solo: the harm to a metric where more is better (throughput)."""
    return None if solo is None or other is None or solo <= 0 else (solo - other) / solo


def _harm_less_is_better(solo, other):
    """(other - solo) / other: the harm to a metric where less is better (latency)."""
    return None if solo is None or other is None or other <= 0 else (other - solo) / other


def screen_harm(entries):
    """Harm to the incumbent of every '+' run among entries (dicts: config, scenario, r =
    its summary.json result), set on the entry as HARM_METRICS (None where a reference is
    missing). The incumbent is the last cc of the item; its flows are those of the last RTT
    class, their throughput x_with. References, found among the entries by their flows
    (cc, RTT and number of flows of each class) and screen_point:
      solo  the incumbent alone: a run whose item is the incumbent, with one RTT class of
            the incumbent's RTT and number of flows; x_solo = its throughput (all flows)
      self  the incumbent against itself: a run whose item names the incumbent in every
            part, with this run's classes; x_self = its last class's throughput
    harm = (x_solo - x_with) / x_solo, self_harm = (x_solo - x_self) / x_solo; latency
    (the incumbent's base RTT + the bottleneck's mean queueing delay) likewise, as
    (d_with - d_solo) / d_with. A reference has the run's module parameters, or none (for
    cc's the module does not have); of several, the first in configuration order."""
    index = {}
    for e in entries:
        r = e["r"]
        e["ccs"], e["classes"], e["point"] = tuple(part_ccs(r)), class_flows(r), screen_point(r)
        e["mparams"] = r.get("params", {}).get("module_params", "")
        index.setdefault((e["ccs"], e["classes"], e["point"]), []).append(e)

    def ref(ccs, classes, e):
        cands = index.get((ccs, classes, e["point"]), [])
        return next((c for c in cands if c["mparams"] == e["mparams"]),
                    next((c for c in cands if not c["mparams"]), None))

    def last_class(e):
        r, k = e["r"], len(e["classes"])
        mbps = sum(f["throughput_mbps"] for f in r["flows"] if f.get("class") == k)
        q = (r.get("queue_delay_ms") or {}).get("mean")
        return mbps, None if q is None else e["classes"][-1][0] + q

    for e in entries:
        for k in HARM_METRICS:
            e[k] = None
        n = len(e["ccs"])
        if n < 2 or len(e["classes"]) != n or not all("class" in f for f in e["r"]["flows"]):
            continue
        inc = e["ccs"][-1]
        e["incumbent_mbps"], d_with = last_class(e)
        solo = ref((inc,), e["classes"][-1:], e)
        if solo is None:
            continue
        e["solo_mbps"] = sum(f["throughput_mbps"] for f in solo["r"]["flows"])
        q = (solo["r"].get("queue_delay_ms") or {}).get("mean")
        d_solo = None if q is None else e["classes"][-1][0] + q
        e["harm"] = _harm_more_is_better(e["solo_mbps"], e["incumbent_mbps"])
        e["latency_harm"] = _harm_less_is_better(d_solo, d_with)
        own = ref((inc,) * n, e["classes"], e)
        if own is not None and all("class" in f for f in own["r"]["flows"]):
            x_self, d_self = last_class(own)
            e["self_harm"] = _harm_more_is_better(e["solo_mbps"], x_self)
            e["latency_self_harm"] = _harm_less_is_better(d_solo, d_self)


def _shares(r):
    """'/'-joined throughput share of each part of a '+' result's item ('' otherwise)."""
    per = r.get("per_class")
    if "+" not in r["cc"] or not per or any(c.get("share") is None for c in per):
        return ""
    return "/".join(f"{c['share']:.4f}" for c in per)


def screen_runs(root):
    """One row (SCREEN_RUN_COLS) per finished job of a screen.sh tree."""
    entries = []
    for path in sorted(glob.glob(os.path.join(root, "*", "*", "seed*", "summary.json"))):
        seed_dir = os.path.dirname(path)
        scen_dir = os.path.dirname(seed_dir)
        with open(path) as f:
            summ = json.load(f)
        for r in summ["results"]:
            entries.append({"config": os.path.basename(os.path.dirname(scen_dir)),
                            "scenario": os.path.basename(scen_dir), "r": r})
    screen_harm(entries)
    rows = []
    for e in entries:
        r = e["r"]
        p = r["params"]
        rows.append([e["config"], e["scenario"], p.get("seed"), r["cc"],
                     p.get("module_params", ""), "/".join(p.get("rtts_ms", "").split()),
                     p.get("buffer_bdp", ""), r["jain"], r["utilization"],
                     r["retrans_rate"], r["queue_delay_ms"]["mean"],
                     "/".join(f"{f['throughput_mbps']:.3f}" for f in r["flows"]),
                     _per_flow(r["flows"], lambda t: t["cwnd_limited_share"]),
                     _per_flow(r["flows"], lambda t: t["why_share"].get("probe", 0)),
                     _per_flow(r["flows"], lambda t: t["why_share"].get("hold", 0)),
                     _per_flow(r["flows"], lambda t: t["why_share"].get("drain", 0)),
                     _per_flow(r["flows"], lambda t: t["phi_mean"]),
                     _per_flow(r["flows"], lambda t: t.get("queue_ms_mean")),
                     r.get("kernel"), r.get("module_version"),
                     p.get("module_srcversion", ""), _shares(r),
                     *(None if e[k] is None else round(e[k], 6) for k in HARM_METRICS)])
    return rows


def screen_table(rows):
    """Per (config, scenario): runs, and mean / CI half-width of SCREEN_METRICS; for '+'
    configurations also the mean / CI of each part's share ('/'-joined) and of
    HARM_METRICS over the seeds that have them (harm_runs: how many; None without)."""
    groups = {}
    for row in rows:
        groups.setdefault((row[0], row[1]), []).append(dict(zip(SCREEN_RUN_COLS, row)))
    out = []
    for (config, scen), runs in sorted(groups.items()):
        line = {"config": config, "scenario": scen, "cc": runs[0]["cc"],
                "module_params": runs[0]["module_params"], "rtts_ms": runs[0]["rtts_ms"],
                "buffer_bdp": runs[0]["buffer_bdp"], "runs": len(runs),
                "seeds": " ".join(str(r["seed"]) for r in runs)}
        for k in SCREEN_METRICS:
            m, h = mean_ci95([r[k] for r in runs])
            line[k] = None if m is None else round(m, 5)
            line[k + "_ci95"] = None if h is None else round(h, 5)
        shares = [[float(x) for x in r["shares"].split("/")] for r in runs if r.get("shares")]
        line["shares"] = line["shares_ci95"] = ""
        if shares and len({len(x) for x in shares}) == 1:
            parts = [mean_ci95(col) for col in zip(*shares)]
            line["shares"] = "/".join(f"{m:.4f}" for m, _ in parts)
            line["shares_ci95"] = "" if len(shares) < 2 else "/".join(f"{h:.4f}" for _, h in parts)
        line["harm_runs"] = sum(1 for r in runs if r.get("harm") is not None)
        for k in HARM_METRICS:
            m, h = mean_ci95([r.get(k) for r in runs])
            line[k] = None if m is None else round(m, 5)
            line[k + "_ci95"] = None if h is None else round(h, 5)
        out.append(line)
    return out


def _mixed(table):
    """True if a screen table has '+' configurations (their share and harm columns)."""
    return any(t.get("shares") or t.get("incumbent_mbps") is not None for t in table)


def _cell(t, k, spec, scale=1, none="n/a"):
    """A table cell: the mean of k, with +- its CI half-width when there is one."""
    v, h = t.get(k), t.get(k + "_ci95")
    if v is None:
        return none
    return format(v * scale, spec) + ("" if h is None else " +- " + format(h * scale, spec))


def _shares_cell(t):
    """Each part's mean share of a '+' configuration, in %, with the CI half-width:
    "bbr 61.2 +- 1.0 / cubic 38.8 +- 1.0"."""
    if not t.get("shares"):
        return ""
    ms = t["shares"].split("/")
    hs = t["shares_ci95"].split("/") if t.get("shares_ci95") else [None] * len(ms)
    return " / ".join(f"{cc} {100 * float(m):.1f}" + ("" if h is None else f" +- {100 * float(h):.1f}")
                      for cc, m, h in zip(t["cc"].split("+"), ms, hs))


def print_screen_markdown(table, out=sys.stdout):
    """The screen table as Markdown (for docs/), with the CI half-widths; with '+'
    configurations also each part's share (%), the harm to the incumbent and its harm to
    itself (empty without a reference run)."""
    mixed = _mixed(table)
    extra = " share % per cc | harm | incumbent's self-harm | latency harm | latency self-harm |"
    out.write("| config | scenario | runs | Jain | utilisation | retransmitted % | queue delay ms |"
              + (extra if mixed else "") + "\n")
    out.write("|---|---|---|---|---|---|---|" + ("---|" * 5 if mixed else "") + "\n")
    for t in table:
        out.write(f"| {t['config']} | {t['scenario']} | {t['runs']} | {_cell(t, 'jain', '.3f')} | "
                  f"{_cell(t, 'utilization', '.3f')} | {_cell(t, 'retrans_rate', '.2f', 100)} | "
                  f"{_cell(t, 'qdelay_mean_ms', '.1f')} |")
        if mixed:
            out.write(f" {_shares_cell(t)} | " + " | ".join(
                _cell(t, k, ".3f", none="") for k in ("harm", "self_harm", "latency_harm",
                                                       "latency_self_harm")) + " |")
        out.write("\n")


def print_screen(table, out=sys.stdout):
    mixed = _mixed(table)
    out.write(f"{'config':<22}{'scenario':<10}{'n':>3}  {'jain (95% CI)':<18}{'util':>7}"
              f"{'retx%':>8}{'qdelay':>9}" + ("   share % per cc; harm, self-harm" if mixed else "")
              + "\n")
    for t in table:
        ci = "" if t["jain_ci95"] is None else f" +-{t['jain_ci95']:.3f}"
        out.write(f"{t['config']:<22}{t['scenario']:<10}{t['runs']:>3}  "
                  f"{fmt(t['jain'], '.3f') + ci:<18}{fmt(t['utilization'], '.3f'):>7}"
                  f"{100 * (t['retrans_rate'] or 0):>8.3f}{fmt(t['qdelay_mean_ms'], '.1f'):>7}ms")
        if mixed and t.get("shares"):
            out.write(f"   {_shares_cell(t)}; harm {_cell(t, 'harm', '.3f', none='-')}, "
                      f"self-harm {_cell(t, 'self_harm', '.3f', none='-')}")
        out.write("\n")


SWEEP_COLS = ["sweep", "cc", "rtts_ms", "rtt_ratio", "buffer_bdp", "buffer_bytes", "loss_pct",
              "flows", "rate_mbit", "jain", "utilization", "retrans_rate", "qdelay_mean_ms",
              "throughputs_mbps", "seed", "dir"]


def sweep_rows(name, dirs, warmup=None, cooldown=None):
    rows = []
    for top in dirs:
        for d in find_runs(top):
            try:
                r = analyze_run(d, warmup, write_csv=False, cooldown=cooldown)
            except AnalysisError as e:
                print(f"analyze.py: warning: run skipped: {e}", file=sys.stderr)
                continue
            p = r["params"]
            rtts = [float(x) for x in p.get("rtts_ms", "").split()]
            rows.append([name, r["cc"], "/".join(f"{x:g}" for x in rtts),
                         round(max(rtts) / min(rtts), 4) if rtts and min(rtts) > 0 else "",
                         p.get("buffer_bdp", ""), r["buffer_bytes"], r["loss_pct"],
                         len(r["flows"]), r["rate_mbit"], r["jain"], r["utilization"],
                         r["retrans_rate"], r["queue_delay_ms"]["mean"],
                         "/".join(f"{f['throughput_mbps']:.3f}" for f in r["flows"]),
                         p.get("seed", ""), d])
    return rows


TRACE_BIN_COLS = ["t_s", "flow", "rtt_ms", "events", "bw_mbps", "cwnd", "inflight",
                  "queue_ms", "cwnd_limited_share", "probe_share", "drain_share"]


def trace_bins(rows, step):
    """trace.csv rows (dicts) of PROBE_BW events -> one TRACE_BIN_COLS row per flow and
    step-second bin: means of the flow's model state, shares of its events."""
    bins = {}
    for r in rows:
        if r["mode"] != "2":
            continue
        key = (int(r["flow"]), int(float(r["t_s"]) // step))
        bins.setdefault(key, []).append(r)
    out = []
    for (flow, b), rs in sorted(bins.items()):
        def avg(k):
            return round(mean([float(x[k]) for x in rs]), 3)
        queue = [(float(x["rtt_us"]) - float(x["min_rtt_us"])) / 1000
                 for x in rs if float(x["rtt_us"]) >= 0]
        out.append([round(b * step, 3), flow, rs[0]["rtt_ms"], len(rs), avg("bw_mbps"),
                    avg("cwnd"), avg("inflight"), round(mean(queue), 3) if queue else None,
                    avg("cwnd_limited"),
                    round(sum(x["why"] == "probe" for x in rs) / len(rs), 3),
                    round(sum(x["why"] == "drain" for x in rs) / len(rs), 3)])
    return out


def trace_bins_command(a):
    """analyze.py --trace-bins CSV RUN_DIR: the run's gain trace in --bin-s bins."""
    if len(a.dirs) != 1:
        raise AnalysisError("--trace-bins needs one run directory (with trace.csv)")
    with open(os.path.join(a.dirs[0], "trace.csv")) as f:
        rows = trace_bins(list(csv.DictReader(f)), a.bin_s)
    _csv(a.trace_bins, TRACE_BIN_COLS, rows)
    return 0


def parser():
    """The command line of analyze.py."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="*", metavar="DIR")
    ap.add_argument("--warmup", type=float, help="seconds excluded at the start "
                    "(default: warmup_s of each run)")
    ap.add_argument("--cooldown", type=float, help="seconds excluded at the end "
                    f"(default: cooldown_s of each run, else {DEFAULT_COOLDOWN:g})")
    ap.add_argument("--summary", help="summary.json path (default DIR/summary.json)")
    ap.add_argument("--quiet", action="store_true", help="no table")
    ap.add_argument("--sweep-csv", metavar="CSV", help="write one row per run to CSV")
    ap.add_argument("--sweep", default="", help="sweep name for --sweep-csv rows")
    ap.add_argument("--screen", metavar="DIR", help="summarise a testbed/screen.sh tree")
    ap.add_argument("--screen-csv", metavar="CSV", help="with --screen: write the table here")
    ap.add_argument("--markdown", action="store_true", help="with --screen: print Markdown")
    ap.add_argument("--trace-bins", metavar="CSV", help="RUN_DIR's trace.csv in time bins, "
                    "per flow (PROBE_BW events), to CSV")
    ap.add_argument("--bin-s", type=float, default=2.0, help="with --trace-bins: bin width, s")
    ap.add_argument("--cost", metavar="CSV", help="summarise scripts/bench_cost.sh's rows: "
                    "CPU s per GB sent of each cc, and A/B per pair")
    return ap


def screen_command(a):
    """analyze.py --screen DIR: the screen table, printed and with --screen-csv written."""
    rows = screen_runs(a.screen)
    if not rows:
        raise AnalysisError(f"{a.screen}: no finished screen jobs "
                            "(<config>/<scenario>/seed<N>/summary.json)")
    # a job's key names its sources, not the kernel it ran on: a screen resumed after the
    # kernel moved (a new linux-source-6.1) mixes kernels, which its reader must be told
    kernels = collections.Counter(r[SCREEN_RUN_COLS.index("kernel")] for r in rows)
    if len(kernels) > 1:
        print(f"analyze.py: warning: {a.screen}: its runs were made on {len(kernels)} kernels ("
              + ", ".join(f"{k}: {n}" for k, n in sorted(kernels.items(), key=str))
              + "); the statistics mix them", file=sys.stderr)
    table = screen_table(rows)
    if a.screen_csv:
        _csv(a.screen_csv, list(table[0]), [list(t.values()) for t in table])
        _csv(os.path.splitext(a.screen_csv)[0] + "_runs.csv", SCREEN_RUN_COLS, rows)
    (print_screen_markdown if a.markdown else print_screen)(table)
    return 0


def cost_summary(rows):
    """scripts/bench_cost.sh rows (dicts) -> {"items": [A, B], "per_gb": {item: [min, median,
    max]}, "ratio": [min, median, max] of A/B CPU per byte pair by pair, "pairs": n}."""
    def item(r):
        return r["cc"] + (":" + r["params"].replace(" ", ":") if r["params"] else "")
    order, by = [], {}
    for r in rows:
        k = item(r)
        if k not in by:
            order.append(k)
        by.setdefault(k, {})[r["pair"]] = float(r["cpu_s"]) / (int(r["bytes"]) / 1e9)
    if len(order) != 2:
        raise AnalysisError(f"cost rows name {len(order)} items, expected two (A and B)")
    a, b = (by[k] for k in order)
    pairs = sorted(set(a) & set(b), key=int)
    if not pairs:
        raise AnalysisError("no pair has both A and B")

    def spread(xs):
        xs = sorted(xs)
        return [round(xs[0], 4), round(statistics.median(xs), 4), round(xs[-1], 4)]
    return {"items": order, "pairs": len(pairs),
            "per_gb": {k: spread(by[k].values()) for k in order},
            "ratio": spread([a[p] / b[p] for p in pairs]),
            "commits": sorted({r["commit"] for r in rows}),
            "kernels": sorted({r["kernel"] for r in rows})}


def cost_command(a):
    """analyze.py --cost CSV: the summary of a scripts/bench_cost.sh CSV, as JSON."""
    with open(a.cost) as f:
        print(json.dumps(cost_summary(list(csv.DictReader(f))), indent=1))
    return 0


def sweep_command(a):
    """analyze.py --sweep-csv CSV DIR...: one row per run."""
    rows = sweep_rows(a.sweep, a.dirs, a.warmup, a.cooldown)
    if not rows:
        raise AnalysisError(f"no runs (params.env) under {' '.join(a.dirs)}")
    _csv(a.sweep_csv, SWEEP_COLS, rows)
    return 0


def summary_command(a, ap):
    """analyze.py DIR: the runs' files, summary.json and the table."""
    if len(a.dirs) != 1:
        ap.error("give one DIR (or use --sweep-csv)")
    runs = find_runs(a.dirs[0])
    if not runs:
        raise AnalysisError(f"{a.dirs[0]}: no run directories (params.env) found")
    summary = summarize(runs, a.warmup, a.cooldown)
    path = a.summary or os.path.join(a.dirs[0], "summary.json")
    with open(path, "w") as f:
        json.dump(summary, f, indent=1)
    if not a.quiet:
        print_table(summary)
        print(f"summary: {path}")
    return 0


def command(a, ap):
    """The work of one analyze.py command line (parsed: a); returns the exit status."""
    if a.screen:
        return screen_command(a)
    if a.trace_bins:
        return trace_bins_command(a)
    if a.cost:
        return cost_command(a)
    if a.sweep_csv:
        return sweep_command(a)
    return summary_command(a, ap)


def cli_errors(prog, fn, *args):
    """fn(*args) as the body of a command: an AnalysisError or OSError becomes one line
    'PROG: error: ...' on stderr (no traceback) and exit status 1."""
    try:
        return fn(*args)
    except AnalysisError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{prog}: error: {e.filename}: {e.strerror}", file=sys.stderr)
        return 1


def main(argv=None):
    """analyze.py's command line (see the module's docstring); returns the exit status."""
    ap = parser()
    return cli_errors("analyze.py", command, ap.parse_args(argv), ap)


if __name__ == "__main__":
    sys.exit(main())
