"""A run whose traffic was flent's (scenario.sh --flent, testbed/lib/flent.sh): its data files
(flent/*.flent.gz, flent's own JSON, gzipped) become a run summary like the testbed's own
flows' (run.py), so tables, screens and checks take it as any run. Where flent computes a
number itself, it is used, not computed again: each stream's throughput series and its
mean, its fairness series' mean (flent_fairness), its pings; the bottleneck's queue is the
testbed's tc samples, as in every run. Plots are flent's own (flent -i FILE -p PLOT:
plots/plot.py --flent)."""
import glob
import gzip
import json
import os

from .common import AnalysisError
from .stats import jain, mean

STREAM_RUNNERS = ("NetperfDemoRunner",)


def load_flent(path):
    """A .flent.gz file's JSON (metadata, x_values, results)."""
    try:
        with gzip.open(path, "rt") as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        raise AnalysisError(f"{path}: not a flent data file ({e})")
    for k in ("metadata", "x_values", "results"):
        if k not in d:
            raise AnalysisError(f"{path}: flent data without '{k}'")
    return d


def flent_files(d):
    """The run's flent data files, in name order."""
    return sorted(glob.glob(os.path.join(d, "flent", "*.flent.gz")))


def streams(data):
    """[(series name, its SERIES_META)] of a flent file's TCP streams (netperf's), in the
    order flent numbered them."""
    meta = data["metadata"].get("SERIES_META", {})
    out = [(k, m) for k, m in meta.items() if m.get("RUNNER") in STREAM_RUNNERS]
    return sorted(out, key=lambda km: km[1].get("IDX", 0))


def meta_int(m, key):
    """An integer of a stream's SERIES_META (None without one): flent keeps some of
    netperf's values as it printed them, so TCP_RETRANSMIT can be "5" where BYTES_SENT is
    3948544 (tcp_nup)."""
    v = m.get(key)
    try:
        return None if v in (None, "") else int(float(v))
    except (TypeError, ValueError):
        return None


def series_mean(data, name, w0, w1):
    """The mean of a series over the samples with x in [w0, w1] (None without one)."""
    xs, ys = data["x_values"], data["results"].get(name, [])
    vals = [y for x, y in zip(xs, ys) if y is not None and w0 <= x <= w1]
    return mean(vals)


def stream_class(data, name, m, nclass):
    """The sender class (1..) of a stream: rtt_fair_var_down's host 10.1.<k>.2, or the
    flent run's title s<k> (one flent per class: tcp_nup, tcp_1up)."""
    host = m.get("COMMAND", "").split(" -H ")[-1].split()[0] if " -H " in m.get("COMMAND", "") else ""
    title = data["metadata"].get("TITLE") or ""
    if title.startswith("s") and title[1:].isdigit():
        return int(title[1:])
    parts = host.split(".")
    if len(parts) == 4 and parts[:2] == ["10", "1"] and parts[2].isdigit():
        return int(parts[2])
    if nclass == 1:
        return 1
    raise AnalysisError(f"flent stream '{name}': cannot tell its sender class ({host or title})")


def flent_flows(d, env, w0, w1):
    """The streams of every flent file of run d as flows (run.py's flow summaries, with what
    flent measured): index, class, cc, rtt_ms, throughput_mbps (flent's series, mean over
    [w0, w1] s of its test), retransmits (netperf's), mean ping of the class, and flent's own
    fairness mean per file."""
    files = flent_files(d)
    if not files:
        raise AnalysisError(f"{d}: a flent run without flent/*.flent.gz")
    rtts = env.get("rtts_ms", "").split()
    flows, fairness = [], []
    for path in files:
        data = load_flent(path)
        meta = data["metadata"].get("SERIES_META", {})
        for name, m in meta.items():
            if m.get("RUNNER") == "FairnessRunner":
                fairness.append(series_mean(data, name, w0, w1))
        for name, m in streams(data):
            k = stream_class(data, name, m, len(rtts))
            sent = meta_int(m, "BYTES_SENT") or 0
            retx = meta_int(m, "TCP_RETRANSMIT")
            segs = round(sent / (meta_int(m, "TCP_MSS") or 1448)) + (retx or 0)
            base = env.get(f"base_rtt_ms_s{k}")
            flows.append({
                "index": len(flows) + 1, "class": k, "cc": m.get("CONG_CONTROL") or "",
                "rtt_ms": float(rtts[k - 1]) if k <= len(rtts) else None,
                "base_rtt_ms": float(base) if base else None,
                "throughput_mbps": series_mean(data, name, w0, w1) or 0.0,
                "retransmits": retx, "retrans_rate": (retx / segs) if retx is not None and segs else None,
                "segs_sent": segs, "segs_retrans": retx or 0,
                "flent_series": name, "flent_file": os.path.basename(path),
                "throughput_source": "flent", "retrans_source": "netperf"})
    return flows, fairness


def flent_pings(d, w0, w1):
    """{series: mean ping in ms over [w0, w1]} of every flent file of run d."""
    out = {}
    for path in flent_files(d):
        data = load_flent(path)
        for name, m in data["metadata"].get("SERIES_META", {}).items():
            if m.get("RUNNER") == "PingRunner":
                out[name] = series_mean(data, name, w0, w1)
    return out


def flent_result(flows, fairness, pings, rate_mbit, w0, w1):
    """The statistics run.py's summary has, of flent's streams: jain (of their means),
    utilisation (their sum over the rate), retransmission rate, and flent's own fairness
    mean and pings."""
    tput = [f["throughput_mbps"] for f in flows]
    segs = sum(f["segs_sent"] for f in flows)
    return {"jain": jain(tput), "utilization": sum(tput) / rate_mbit if rate_mbit else None,
            "retrans_rate": sum(f["segs_retrans"] for f in flows) / segs if segs else 0.0,
            "flent": {"fairness_mean": mean([x for x in fairness if x is not None]),
                      "ping_ms": pings, "files": sorted({f["flent_file"] for f in flows}),
                      "interval_s": [w0, w1]}}
