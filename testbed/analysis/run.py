"""Per-run metrics: one run directory's flows (throughput, retransmissions, ss state, gain
trace), its bottleneck queue and counters, as run_summary.json and the CSV time series."""
import glob
import json
import math
import os

from .common import DEFAULT_COOLDOWN, AnalysisError, save_csv
from .checks import problems
from .parse import (iperf3_stream, load_iperf3, not_connected, parse_netstat, parse_snmp_tcp,
                    parse_ss_file, parse_ss_info, parse_tc_file, parse_trace_file, read_env,
                    read_flow_starts, read_flows, read_hosts)
from .provenance import run_provenance
from .stats import bytes_in_window, counter_at, jain, mean, percentile, utilization
from .trace import TRACE_COLS, trace_rows, trace_stats
from .evaluation import (evaluate, is_train, rate_at, rate_phases, read_delay_changes,
                         read_rate_changes)
from .flent import flent_flows, flent_pings, flent_result, load_flent


def fnum(env, key, path, default=None):
    v = env.get(key, default)
    if v is None:
        raise AnalysisError(f"{path}: params.env has no {key}")
    try:
        return float(v)
    except ValueError:
        raise AnalysisError(f"{path}: params.env: {key}={v!r} is not a number")


THROUGHPUT_COLS = ["flow", "cc", "rtt_ms", "t_start_s", "t_end_s", "bytes", "mbps"]


SS_COLS = ["t_s", "flow", "cc", "rtt_ms", "ca", "cwnd", "srtt_ms", "rttvar_ms", "minrtt_ms",
           "pacing_rate_mbps", "delivery_rate_mbps", "bbr_bw_mbps", "bbr_mrtt_ms",
           "pacing_gain", "cwnd_gain", "total_retrans", "data_segs_out", "bytes_acked",
           "unacked"]


QUEUE_COLS = ["t_s", "backlog_bytes", "backlog_pkts", "qdelay_ms", "drops_total", "sent_bytes",
              "sent_pkts"]


# The name the kernel registers a cc under, where the testbed calls it otherwise: bbr3 is
# BBRv3, the kernel's "bbr" in a UML kernel built with BBR_A_UML_PATCH (testbed/lib/module.sh).
KERNEL_CC = {"bbr3": "bbr"}


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
    # --hosts-per-class: the sender host (namespace, address) of each flow
    hosts = read_hosts(d)
    for fl in flows:
        if fl["index"] in hosts:
            fl["host"], fl["address"] = hosts[fl["index"]]
    # a train (--sizes B1/B2/...) is many short connections, measured by their completion
    # times (evaluation.py), not a flow with a throughput
    trains = [f for f in flows if is_train(f.get("size"))]
    # a rate schedule (rate_changes.txt): the rate in force at each time
    phases = rate_phases(read_rate_changes(d, t0), rate, float("inf"))
    return {"dir": d, "penv": penv, "env": env, "rate": rate, "w0": w0, "w1": w1, "t0": t0,
            "flows": [f for f in flows if f not in trains], "trains": trains,
            "duration": duration, "starts": read_flow_starts(d, t0), "phases": phases,
            "delay_changes": read_delay_changes(d, t0)}


def mean_rate(phases, w0, w1):
    """The mean bottleneck rate over [w0, w1] of rate phases [(t0, t1, Mbit/s)]."""
    if len(phases) == 1:
        return phases[0][2]
    return sum(r * max(0.0, min(b, w1) - max(a, w0)) for a, b, r in phases) / (w1 - w0)


def flow_client(run, fl, clients):
    """The iperf3 client JSON that ran flow fl and its path, loaded once per client (cached
    in clients) and checked against flows.txt: one connection per flow of the group, and
    the congestion control that was asked for."""
    jpath = os.path.join(run["dir"], f"flow{fl['group']}.json")
    if jpath not in clients:
        clients[jpath] = load_iperf3(jpath)
        want = sum(1 for f in run["flows"] if f["group"] == fl["group"])
        have = len(clients[jpath]["start"]["connected"]) + len(not_connected(clients[jpath]))
        if have != want:
            raise AnalysisError(f"{jpath}: {have} connection(s), flows.txt has {want} "
                                f"flow(s) in group {fl['group']}")
    js = clients[jpath]
    used = js.get("end", {}).get("sender_tcp_congestion")
    if used and used != KERNEL_CC.get(fl["cc"], fl["cc"]):
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
    ivs = [(a, b) for a, b, _ in st["intervals"] if b > a]
    # what the receiver counted, from its first interval's start to its last one's end
    fl["span_s"] = [round(off + ivs[0][0], 3), round(off + ivs[-1][1], 3)] if ivs else None
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
    fl["sent"] = []  # [(time, total_retrans, data_segs_out)]: flow_retrans_window's
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
            if m.get("data_segs_out") is not None:
                fl["sent"].append((t, m.get("total_retrans") or 0, m["data_segs_out"]))
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


def flow_retrans_window(fl, w0, w1):
    """Retransmitted and sent data segments in the measured interval [w0, w1] (sets
    segs_retrans_window, segs_sent_window on fl; None without samples that span it): the
    sender's cumulative tcp_info counters from its ss samples (fl["sent"], which it
    removes), interpolated at w0 and w1. Unlike retrans_rate's whole-flow count it leaves out
    STARTUP, as every other metric of the interval does."""
    sent = fl.pop("sent", [])
    fl["segs_retrans_window"] = fl["segs_sent_window"] = None
    if len(sent) >= 2 and sent[0][0] <= w0 and sent[-1][0] >= w1 - 0.2:
        retx = [(t, r) for t, r, _ in sent]
        segs = [(t, n) for t, _, n in sent]
        fl["segs_retrans_window"] = counter_at(retx, w1) - counter_at(retx, w0)
        fl["segs_sent_window"] = counter_at(segs, w1) - counter_at(segs, w0)


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
    fl["connected"] = st["connected"]
    if not st["connected"]:  # the network never let it connect: nothing to measure
        fl["error"] = st["error"]
        return
    tables["throughput"].extend(flow_throughput(run, fl, st))
    dport = st["local_port"]
    fl_trace = trace_rows(inputs["trace"], fl, dport, run["t0"])
    fl["trace"] = trace_stats(fl_trace, run["w0"], run["w1"])
    tables["trace"].extend(fl_trace)
    ns = fl.get("host") or f"s{fl['class']}"  # the flow's sender namespace
    if ns not in inputs["ss"]:
        inputs["ss"][ns] = parse_ss_file(os.path.join(run["dir"], f"ss_{ns}.txt"))
    base = run["env"].get(f"base_rtt_ms_{ns}")
    fl["base_rtt_ms"] = float(base) if base else None
    rows, last, qd, acked = flow_ss(run, fl, inputs["ss"][ns], dport)
    tables["ss"].extend(rows)
    flow_retrans(fl, last, js["start"].get("tcp_mss_default") or 1448)
    fl["rtt_queueing_ms"] = mean(qd)
    fl["rtt_queueing_samples"] = qd
    flow_acked_window(fl, acked, run["w0"], run["w1"])
    flow_retrans_window(fl, run["w0"], run["w1"])


def reverse_flows(run):
    """The --reverse flows (scenario.sh's reverse.txt: flow class cc port), each from its
    client's JSON as a forward flow is: {"cc", "throughput_mbps" (their sum), "flows":
    [{index, class, cc, throughput_mbps, retransmits, bytes_sent}]} over the measured
    interval; None without them. They are in no forward metric (flows, jain, utilisation)."""
    try:
        with open(os.path.join(run["dir"], "reverse.txt")) as f:
            rows = [ln.split() for ln in f if ln.strip()]
    except FileNotFoundError:
        return None
    w0, w1 = run["w0"], run["w1"]
    off = fnum(run["env"], "reverse_t0_uptime", run["penv"], run["t0"]) - run["t0"]
    out = []
    for j, k, cc, _port in rows:
        jpath = os.path.join(run["dir"], f"reverse{j}.json")
        st = iperf3_stream(load_iperf3(jpath), jpath, 0)
        fl = {"index": int(j), "class": int(k), "cc": cc}
        if not st["connected"]:
            out.append({**fl, "error": st["error"], "throughput_mbps": 0.0})
            continue
        tput = bytes_in_window(st["intervals"], off, w0, w1) * 8 / (w1 - w0) / 1e6
        out.append({**fl, "throughput_mbps": tput, "retransmits": st["retransmits"],
                    "bytes_sent": st["bytes_sent"]})
    return {"cc": rows[0][2] if rows else None, "flows": out,
            "throughput_mbps": sum(f["throughput_mbps"] for f in out)}


def queue_metrics(run, tc):
    """The bottleneck queue from the tc samples tc (parse_tc_file): its queue.csv rows, and
    the run_summary.json entries queue_delay_ms, bottleneck_drops and bottleneck_load."""
    t0, w0, w1, phases = run["t0"], run["w0"], run["w1"], run["phases"]
    rows, qdel, drops_w = [], [], []
    for up, q in tc:
        t = up - t0
        dl = q["backlog_bytes"] * 8 / (rate_at(phases, t) * 1e6) * 1e3
        rows.append([round(t, 3), q["backlog_bytes"], q["backlog_pkts"], round(dl, 4),
                     q["drops"], q["sent_bytes"], q["sent_pkts"]])
        if w0 <= t <= w1:
            qdel.append(dl)
            drops_w.append(q["drops"])
    sent = [(up - t0, q["sent_bytes"]) for up, q in tc]
    link = None
    rate = mean_rate(phases, w0, w1)
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
    """Per sender namespace of the flows (s<k>, and s<k>h<j> with --hosts-per-class): TCP
    segments sent and retransmitted during the run, from the /proc/net/snmp copies taken at
    its start and end."""
    snmp = {}
    for ns in sorted({fl.get("host") or f"s{fl['class']}" for fl in flows}):
        a = parse_snmp_tcp(os.path.join(d, f"snmp_{ns}_start.txt"))
        b = parse_snmp_tcp(os.path.join(d, f"snmp_{ns}_end.txt"))
        if a and b and b.get("OutSegs", 0) > a.get("OutSegs", 0):
            out = b["OutSegs"] - a["OutSegs"]
            snmp[ns] = {"out_segs": out, "retrans_segs": b["RetransSegs"] - a["RetransSegs"],
                             "retrans_rate": (b["RetransSegs"] - a["RetransSegs"]) / out}
    return snmp


def netstat_metrics(d):
    """The end hosts' TcpExt counters that say TCP ran short of memory, from the
    /proc/net/netstat copies taken at the end of the run (each namespace's start at 0):
    {namespace: {counter: n}} and their TCPMemoryPressures summed (None without copies)."""
    keep = ("TCPMemoryPressures", "TCPMemoryPressuresChrono", "PruneCalled", "RcvPruned",
            "OfoPruned", "TCPRcvQDrop", "TCPAbortOnMemory")
    per = {}
    for path in sorted(glob.glob(os.path.join(d, "netstat_*_end.txt"))):
        c = parse_netstat(path)
        if c is not None:
            per[os.path.basename(path)[len("netstat_"):-len("_end.txt")]] = {
                k: c[k] for k in keep if k in c}
    pressures = (sum(v.get("TCPMemoryPressures", 0) for v in per.values()) if per else None)
    return {"netstat": per, "tcp_memory_pressures": pressures}


def flow_summary(fl, w0, w1):
    """One flow's entry of run_summary.json "flows"."""
    return {
        "index": fl["index"], "class": fl["class"], "cc": fl["cc"], "rtt_ms": fl["rtt_ms"],
        "base_rtt_ms": fl["base_rtt_ms"],
        "throughput_mbps": fl["throughput_mbps"],  # unrounded: the tables round, once
        "retransmits": fl["retransmits"], "retrans_rate": fl["retrans_rate"],
        "retrans_rate_interval": (fl["segs_retrans_window"] / fl["segs_sent_window"]
                                  if fl.get("segs_sent_window") else None),
        "segs_sent": fl["segs_sent"], "segs_retrans": fl["segs_retrans"],
        "bytes_in_interval": int(fl["bytes_window"]), "bytes_received": fl["bytes_received"],
        "rtt_queueing_ms": fl["rtt_queueing_ms"], "start_s": round(fl["offset_s"], 3),
        "throughput_acked_mbps": (None if fl["bytes_acked_window"] is None else
                                  fl["bytes_acked_window"] * 8 / (w1 - w0) / 1e6),
        "throughput_source": fl["throughput_source"], "retrans_source": fl["retrans_source"],
        **({"host": fl["host"], "address": fl["address"]} if "host" in fl else {}),
        "span_s": fl["span_s"],
        **({"trace": fl["trace"]} if fl["trace"] else {}),
        # a finite flow's size, and a flow's planned end before the run's (flows that leave):
        # only in runs that have them, so other runs' summaries stay as they were
        **({"size": fl["size"]} if fl.get("size") not in (None, "0") else {}),
        **({"end_s": fl["end_s"]} if fl.get("end_s") is not None else {}),
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


def retrans_interval(flows):
    """Retransmitted over sent data segments of all flows in the measured interval
    (flow_retrans_window); None unless every flow's samples span it."""
    retx = [fl.get("segs_retrans_window") for fl in flows]
    segs = [fl.get("segs_sent_window") for fl in flows]
    if not flows or None in retx or None in segs or not sum(segs):
        return None
    return sum(retx) / sum(segs)


def path_summary(run, cap):
    """The summary's entries of the paths' options that have one (testbed/README.md, "Paths
    that change"): delay_changes, reverse (reverse_flows), hosts_per_class, rate_trace (the
    capacity cap the trace replayed over the measured interval)."""
    out = {k: run[k] for k in ("delay_changes", "reverse") if run.get(k)}
    if run["env"].get("hosts_per_class"):  # --hosts-per-class N > 1 (each flow's "host")
        out["hosts_per_class"] = int(run["env"]["hosts_per_class"])
    if run["env"].get("rate_trace"):
        out["rate_trace"] = {"source": run["env"].get("rate_trace_source"), "capacity_mbps": cap,
                             "changes": len(run["phases"]) - 1}
    return out


def run_summary(run, queue, snmp, netstat=None):
    """run_summary.json of one run from its flows' metrics (flow_metrics), its queue
    metrics (queue_metrics), its snmp and netstat counters (snmp_metrics, netstat_metrics);
    with its provenance (every option that shaped it) and its problems (checks.problems: a
    run with any is not a result)."""
    env, flows, rate, penv = run["env"], run["flows"], run["rate"], run["penv"]
    w0, w1 = run["w0"], run["w1"]
    cap = mean_rate(run["phases"], w0, w1)  # with a rate schedule: its mean over [w0, w1]
    total_w = sum(fl["bytes_window"] for fl in flows)
    acked_w = [fl["bytes_acked_window"] for fl in flows]
    segs = sum(fl["segs_sent"] for fl in flows)
    ccs = env.get("cc", "").split()
    if not ccs:  # params.env without cc: the flow table's cc of each class
        ccs = [cc for _, cc in sorted({(fl["class"], fl["cc"]) for fl in flows})]
        ccs = ccs[:1] if len(set(ccs)) == 1 else ccs
    fsum = [flow_summary(fl, w0, w1) for fl in flows]
    per_cc, per_class = cc_shares(fsum)
    res = {
        "cc": cc_label(ccs),
        "dir": run["dir"],  # as given; the files' writers make it relative to themselves
        "jain": jain(fl["throughput_mbps"] for fl in flows),
        "utilization": utilization(total_w, cap, w1 - w0),
        "retrans_rate": sum(fl["segs_retrans"] for fl in flows) / segs if segs else 0.0,
        "retrans_rate_interval": retrans_interval(flows),
        "utilization_acked": (utilization(sum(acked_w), cap, w1 - w0)
                              if None not in acked_w else None),
        "bottleneck_load": queue["bottleneck_load"],
        "interval_s": [w0, w1],
        "rate_mbit": rate,
        "buffer_bytes": int(fnum(env, "buffer_bytes", penv, 0)),
        "loss_pct": fnum(env, "loss_pct", penv, 0),
        "queue_delay_ms": queue["queue_delay_ms"],
        "rtt_queueing_p95_ms": percentile([q for fl in flows
                                           for q in fl.get("rtt_queueing_samples") or []], 95),
        "bottleneck_drops": queue["bottleneck_drops"],
        "snmp": snmp,
        **(netstat or {"netstat": {}, "tcp_memory_pressures": None}),
        "flows": fsum,
        "per_cc": per_cc,
        "per_class": per_class,
        "params": env,
        "kernel": env.get("kernel"),
        "module_version": env.get("module_version"),
    }
    if run.get("not_connected"):
        res["flows_not_connected"] = [{k: fl[k] for k in ("index", "class", "cc", "rtt_ms",
                                                          "error")}
                                      for fl in run["not_connected"]]
    if run.get("trains"):
        res["trains"] = [{"index": f["index"], "class": f["class"], "cc": f["cc"],
                          "rtt_ms": f["rtt_ms"], "sizes": f["size"]} for f in run["trains"]]
    if run.get("evaluation"):
        res["evaluation"] = run["evaluation"]
    res.update(path_summary(run, cap))
    res["provenance"] = run_provenance(res)
    res["problems"] = problems(res)
    return res


def flent_run_analysis(run):
    """run_analysis of a run whose traffic was flent's (analysis/flent.py): its streams as
    flows, flent's throughput series as throughput.csv, the queue from the tc samples."""
    d, env, w0, w1 = run["dir"], run["env"], run["w0"], run["w1"]
    tables = {"throughput": [], "ss": [], "queue": [], "trace": []}
    tables["queue"], queue = queue_metrics(run, parse_tc_file(os.path.join(d, "tc.txt")))
    run["reverse"] = reverse_flows(run)
    flows, fairness = flent_flows(d, env, w0, w1)
    for fl in flows:
        data = load_flent(os.path.join(d, "flent", fl["flent_file"]))
        xs, ys = data["x_values"], data["results"][fl["flent_series"]]
        step = float(data["metadata"].get("STEP_SIZE") or 0.2)
        tables["throughput"] += [[fl["index"], fl["cc"], fl["rtt_ms"], round(x, 4),
                                  round(x + step, 4), int(y * 1e6 * step / 8), y]
                                 for x, y in zip(xs, ys) if y is not None]
    per_cc, per_class = cc_shares(flows)
    ccs = env.get("cc", "").split()
    res = {"cc": cc_label(ccs) if ccs else "flent", "dir": d,
           **flent_result(flows, fairness, flent_pings(d, w0, w1), mean_rate(run["phases"], w0, w1),
                          w0, w1),
           "utilization_acked": None, "bottleneck_load": queue["bottleneck_load"],
           "interval_s": [w0, w1], "rate_mbit": run["rate"],
           "buffer_bytes": int(fnum(env, "buffer_bytes", run["penv"], 0)),
           "loss_pct": fnum(env, "loss_pct", run["penv"], 0),
           "queue_delay_ms": queue["queue_delay_ms"], "bottleneck_drops": queue["bottleneck_drops"],
           "snmp": snmp_metrics(d, run["flows"]), **netstat_metrics(d), "flows": flows,
           "per_cc": per_cc, "per_class": per_class, "params": env, "kernel": env.get("kernel"),
           "module_version": env.get("module_version")}
    res["provenance"] = run_provenance(res)
    res["problems"] = problems(res)
    return res, tables


def run_analysis(d, warmup=None, end=None, cooldown=None):
    """Analysis of one run directory, in memory: (run_summary.json dict, tables), tables
    being the rows of throughput.csv, ss.csv, queue.csv and trace.csv (unsorted) by name."""
    run = load_run(d, warmup, end, cooldown)
    if run["env"].get("client") == "flent":
        return flent_run_analysis(run)
    tables = {"throughput": [], "ss": [], "queue": [], "trace": []}
    inputs = {"clients": {}, "ss": {}, "trace": parse_trace_file(
        os.path.join(d, "trace.txt"), fnum(run["env"], "trace_offset_cs", run["penv"], 0) / 100)}
    ends = run["env"].get("ends_s", "").split()
    for fl in run["flows"]:
        flow_metrics(run, fl, inputs, tables)
        if ends and float(ends[fl["index"] - 1]) > 0:
            fl["end_s"] = float(ends[fl["index"] - 1])
    # Flows that never connected are listed apart (run_summary.json flows_not_connected);
    # the metrics are those of the flows that ran.
    run["not_connected"] = [fl for fl in run["flows"] if not fl["connected"]]
    run["flows"] = [fl for fl in run["flows"] if fl["connected"]]
    tables["queue"], queue = queue_metrics(run, parse_tc_file(os.path.join(d, "tc.txt")))
    run["reverse"] = reverse_flows(run)
    run["evaluation"] = evaluate(run, {
        "throughput": [dict(zip(THROUGHPUT_COLS, r)) for r in tables["throughput"]],
        "ss": [dict(zip(SS_COLS, r)) for r in tables["ss"]],
        "queue": [dict(zip(QUEUE_COLS, r)) for r in tables["queue"]]}, run["duration"])
    return run_summary(run, queue, snmp_metrics(d, run["flows"]), netstat_metrics(d)), tables


def write_run_files(d, res, tables):
    """The derived files of one run directory: throughput.csv, ss.csv, queue.csv,
    trace.csv (when there are trace rows) and run_summary.json (whose dir is ".": the
    directory it is in)."""
    save_csv(os.path.join(d, "throughput.csv"), THROUGHPUT_COLS, tables["throughput"])
    save_csv(os.path.join(d, "ss.csv"), SS_COLS, tables["ss"])
    save_csv(os.path.join(d, "queue.csv"), QUEUE_COLS, tables["queue"])
    if tables["trace"]:
        save_csv(os.path.join(d, "trace.csv"), TRACE_COLS, sorted(tables["trace"]))
    with open(os.path.join(d, "run_summary.json"), "w") as f:
        json.dump({**res, "dir": "."}, f, indent=1)


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
