"""Parsers of a run's raw outputs (testbed/scenario.sh): params.env, the traffic's JSON
(iperf3's layout, also tcpflow.py's), ss and tc samples, /proc/net/snmp and netstat, the gain
trace, the flow table."""
import json
import os
import re

from .common import AnalysisError


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
        # tcpflow.py bulk: a client whose every connection timed out has none
        if not (conn or d["start"].get("not_connected")) or (conn and "local_port" not in conn[0]):
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


def not_connected(d):
    """{stream: error} of the connections a tcpflow.py bulk client never made (the kernel
    gave up on the handshake): start.not_connected; {} for iperf3 and older clients."""
    return {x["stream"]: x.get("error", "") for x in d["start"].get("not_connected", [])}


def iperf3_stream(d, path, stream):
    """One TCP connection of an iperf3 client (several with -P): stream = its position among
    the client's connections (tcpflow.py bulk numbers them: start.connected[].stream; iperf3's
    are in order). Returns local_port, the server's (receiver-side) intervals when present,
    else the client's, with their source, and the connection's end totals; for a connection
    that was never made, {"connected": False, "error": ...}."""
    conn = d["start"]["connected"]
    lost = not_connected(d)
    if stream in lost:
        return {"connected": False, "error": lost[stream]}
    if lost or any("stream" in c for c in conn):
        mine = [c for c in conn if c.get("stream") == stream]
        if len(mine) != 1:
            raise AnalysisError(f"{path}: no stream {stream} among its connections")
        c = mine[0]
    elif not 0 <= stream < len(conn):
        raise AnalysisError(f"{path}: no stream {stream} (the client has {len(conn)})")
    else:
        c = conn[stream]
    lport = c["local_port"]
    sock = c.get("socket")
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
    return {"connected": True, "local_port": lport, "intervals": ivs, "source": source,
            **totals}


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


def _proc_counters(path, prefix):
    """{name: n} of the first two lines of a /proc/net file copy that start with prefix
    (the counters' names, then their values), or None."""
    try:
        with open(path) as f:
            rows = [ln.split() for ln in f if ln.startswith(prefix)]
        return {k: int(v) for k, v in zip(rows[0][1:], rows[1][1:])}
    except (OSError, IndexError, ValueError):
        return None


def parse_netstat(path):
    """{'TCPMemoryPressures': n, ...}: the TcpExt counters of a /proc/net/netstat copy, or
    None."""
    return _proc_counters(path, "TcpExt:")


def parse_snmp_tcp(path):
    """{'OutSegs': n, 'RetransSegs': n, ...} from a /proc/net/snmp copy, or None."""
    return _proc_counters(path, "Tcp:")


# the ring buffer's stamp: seconds ("boot" clock) or a count ("counter" clock)
TRACE_LINE = re.compile(r"\s(\d+(?:\.\d+)?): bbr_a_gain: (.*)$")


# enum bbr_why of bbr_a_core.c, in order
GAIN_WHY = ("fixed", "probe", "hold", "drain", "lossy", "cruise", "lt_bw", "recovery")


def parse_trace_file(path, offset_s=0.0):
    """Events of the bbr_a:bbr_a_gain tracepoint: [(time_s, {field: int})], [] if no file.
    time_s is the event's t_us (TCP's clock, CLOCK_MONOTONIC) + offset_s, on the uptime
    clock; a trace without t_us (before module 0.6.1) is dated by its ring-buffer stamp."""
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
                t = fields["t_us"] / 1e6 + offset_s if "t_us" in fields else float(m.group(1))
                events.append((t, fields))
    except FileNotFoundError:
        return []
    return events


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
                if len(p) >= 10:  # --sizes: bytes, 0 (until its end) or a train B1/B2/...
                    flows[-1]["size"] = p[9]
    except OSError as e:
        raise AnalysisError(f"{path}: cannot read ({e.strerror})")
    except ValueError:
        raise AnalysisError(f"{path}: malformed flow table")
    if not flows:
        raise AnalysisError(f"{path}: no flows")
    return flows


def read_hosts(d):
    """{flow index: (namespace, address)} of the sender host that ran each flow, from
    hosts.txt (index class host namespace address; --hosts-per-class N > 1 writes it), {}
    without it (one host per class: flow i of class k ran on s<k>)."""
    path = os.path.join(d, "hosts.txt")
    hosts = {}
    try:
        with open(path) as f:
            for line in f:
                p = line.split()
                if len(p) != 5:
                    raise AnalysisError(f"{path}: malformed line {line.strip()!r}")
                hosts[int(p[0])] = (p[3], p[4])
    except FileNotFoundError:
        return {}
    except ValueError:
        raise AnalysisError(f"{path}: malformed host table")
    return hosts


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
