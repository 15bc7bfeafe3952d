"""summary.json of an rtt_fairness.sh results directory (all its runs, per-cc aggregates,
the definitions), its shape check and its table."""
import os
import sys

from .checks import notes
from .common import fmt
from .run import analyze_run
from .stats import mean


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
    ("retrans_rate_interval", "tcp_info total_retrans / data_segs_out of all flows in the"
                              " interval (ss samples, interpolated at its ends; STARTUP left"
                              " out); null without ss samples that span it"),
    ("queue_delay_ms", "bfifo backlog bytes * 8 / rate over tc samples in the interval"),
    ("utilization_acked", "cross-check: sum over flows of tcp_info bytes_acked (ss samples,"
                          " interpolated, shifted by the base RTT) in the interval * 8 /"
                          " (rate * interval)"),
    ("bottleneck_load", "bytes (1514-byte frames incl. retransmissions) the bottleneck"
                        " bfifo sent in the interval * 8 / (rate * interval); ~1.0 when busy"),
    ("rtt_queueing_ms", "mean over ss samples in the interval of srtt - ping base RTT"),
    ("rtt_queueing_p95_ms", "95th percentile of every flow's srtt - ping base RTT over the"
                            " ss samples in the interval: the queueing delay the flows see,"
                            " also where the bottleneck's rate varies (queue_delay_ms takes"
                            " the backlog at the rate set when the sample was taken)"),
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


def run_dir(summary_path, result):
    """The run directory of a result of the summary.json at summary_path: its dir is relative
    to that file's directory (absolute in summaries written before 0.5.0's analysis)."""
    return os.path.normpath(os.path.join(os.path.dirname(summary_path), result["dir"]))


def summarize(runs, warmup=None, cooldown=None, base=None):
    """summary.json's dict of the run directories runs; with base, each result's dir is
    relative to it (the directory summary.json goes to), so results and runs can move
    together."""
    results = [analyze_run(d, warmup, cooldown=cooldown) for d in runs]
    for r in results if base is not None else ():
        r["dir"] = os.path.relpath(r["dir"], base)
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
        for n in notes(r):
            w(f"{'':<{wcc + 4}}note: {n}\n")
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
