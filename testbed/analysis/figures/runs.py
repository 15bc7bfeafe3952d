"""Figures of runs: a run's time series, a comparison's throughput and queue, sweeps."""
import json
import os
from collections import defaultdict

import matplotlib.ticker

from ..common import PAYLOAD_CEILING, AnalysisError, fmt, num, read_csv
from ..run import QUEUE_COLS, SS_COLS, THROUGHPUT_COLS, run_analysis
from ..summary import run_dir, share_text
from . import plt


CC_COLORS = {"bbr_a": "tab:blue", "bbr": "tab:orange", "cubic": "tab:green", "reno": "tab:red",
             "bbr_a_fair": "tab:purple", "bbq": "tab:brown", "da_bbr": "tab:pink",
             "bbr3": "tab:cyan"}


FLOW_COLORS = plt.rcParams["axes.prop_cycle"].by_key()["color"]


def by_flow(rows):
    """Rows (dicts with a "flow" column) grouped by flow number."""
    d = defaultdict(list)
    for r in rows:
        d[int(r["flow"])].append(r)
    return d


def run_records(run_dir):
    """analyze.py's numbers of one run, computed in memory (no file is written): its
    summary and the rows of throughput.csv, ss.csv and queue.csv as dicts by column."""
    res, tables = run_analysis(run_dir)
    tput, ss, queue = ([dict(zip(cols, row)) for row in tables[name]]
                       for name, cols in (("throughput", THROUGHPUT_COLS),
                                          ("ss", SS_COLS),
                                          ("queue", QUEUE_COLS)))
    return res, tput, ss, queue


def draw_throughput(ax, tput, res, color, many):
    """Per-flow throughput (iperf3 receiver intervals) as steps, and the payload capacity."""
    label = {f["index"]: f"flow {f['index']}: {f['cc']} {f['rtt_ms']:g} ms "
                         f"({f['throughput_mbps']:.1f} Mbit/s)" for f in res["flows"]}
    for i, rows in sorted(by_flow(tput).items()):
        xs, ys = [], []
        for r in rows:
            xs += [float(r["t_start_s"]), float(r["t_end_s"])]
            ys += [float(r["mbps"])] * 2
        ax.plot(xs, ys, color=color[i], lw=1.2, label=None if many else label[i])
    ax.axhline(res["rate_mbit"] * PAYLOAD_CEILING, color="grey", ls=":", lw=1,
               label="link payload capacity")
    ax.set_ylabel("throughput\n(Mbit/s)")
    ax.legend(fontsize=7, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=3, frameon=False)


def draw_ss(ax, ss, flows, color, many):
    """cwnd, smoothed RTT (with the base RTTs) and, with a "gain" panel, pacing_gain per
    flow from the ss samples; a note in place of the curves without samples."""
    ssf = by_flow(ss)
    for i, rows in sorted(ssf.items()):
        t = [float(r["t_s"]) for r in rows]
        ax["cwnd"].plot(t, [num(r["cwnd"]) for r in rows], color=color[i], lw=0.9)
        ax["rtt"].plot(t, [num(r["srtt_ms"]) for r in rows], color=color[i], lw=0.9)
        if "gain" in ax:
            ax["gain"].plot(t, [num(r["pacing_gain"]) for r in rows], color=color[i], lw=0.8,
                            marker=".", ms=2)
    for f in flows:
        if f["base_rtt_ms"] and not many:
            ax["rtt"].axhline(f["base_rtt_ms"], color=color[f["index"]], ls="--", lw=0.7)
    if not ssf:
        for k in ("cwnd", "rtt"):
            ax[k].text(0.5, 0.5, "no ss tcp_info samples (sampler off or tcp_diag missing)",
                       ha="center", va="center", transform=ax[k].transAxes, color="grey")
    ax["cwnd"].set_ylabel("cwnd\n(packets)")
    ax["rtt"].set_ylabel("smoothed RTT\n(ms; dashed: base)")
    if "gain" in ax:
        ax["gain"].set_ylabel("pacing_gain")
        ax["gain"].set_ylim(0, 3)


def draw_queue(ax, queue, res):
    """The bottleneck backlog in KB, the buffer size, and a second axis in ms of delay."""
    if queue:
        t = [float(r["t_s"]) for r in queue]
        ax.plot(t, [float(r["backlog_bytes"]) / 1e3 for r in queue], color="black", lw=0.9)
        ax.axhline(res["buffer_bytes"] / 1e3, color="red", ls=":", lw=1, label="buffer size")
        ax.legend(fontsize=7, loc="upper right")
        q2 = ax.twinx()
        lo, hi = ax.get_ylim()
        ms_per_kb = 8e3 / (res["rate_mbit"] * 1e6) * 1e3
        q2.set_ylim(lo * ms_per_kb, hi * ms_per_kb)
        q2.set_ylabel("queue delay (ms)")
    ax.set_ylabel("bottleneck\nbacklog (KB)")


def draw_path_events(axes, changes):
    """Each route change (summary's delay_changes) as a vertical line through every panel,
    named on the top one: class K's new base RTT."""
    for ch in changes:
        for a in axes:
            a.axvline(ch["t_s"], color="purple", ls="-.", lw=0.9)
        axes[0].annotate(f"class {ch['class']}: {ch['rtt_ms']:g} ms", (ch["t_s"], 1),
                         xycoords=("data", "axes fraction"), xytext=(2, -10),
                         textcoords="offset points", fontsize=7, color="purple")


def timeseries_title(res):
    """The figure title of timeseries.png: the run's setting and results."""
    p = res["params"]
    return (f"{res['cc']}: RTT {p.get('rtts_ms', '').replace(' ', '/')} ms, "
            f"{res['rate_mbit']:g} Mbit/s, buffer {res['buffer_bytes']} B"
            f"{' (' + p['buffer_bdp'] + ' BDP)' if p.get('buffer_bdp') else ''}, "
            f"loss {res['loss_pct']:g} %  |  Jain {fmt(res['jain'], '.3f')}, "
            f"util {res['utilization']:.3f}  |  {p.get('kernel', '')}\n"
            f"(grey: warm-up and cool-down, excluded from the statistics)")


def timeseries_path(run_dir, outdir=None):
    """RUN/timeseries.png, or OUTDIR/<parent>-<run>-timeseries.png with an outdir."""
    path = os.path.join(outdir or run_dir, "timeseries.png")
    if outdir:
        tail = os.path.normpath(os.path.abspath(run_dir)).split(os.sep)[-2:]
        path = os.path.join(outdir, "-".join(tail) + "-timeseries.png")
    return path


def timeseries(run_dir, outdir=None):
    """timeseries.png of one run (see timeseries_path); returns its path. The numbers
    come from analyze.py in memory: drawing writes no data files."""
    res, tput, ss, queue = run_records(run_dir)
    flows = res["flows"]
    many = len(flows) > 10
    gains = [num(r["pacing_gain"]) for r in ss if num(r["pacing_gain"]) is not None]
    panels = ["tput", "cwnd", "rtt"] + (["gain"] if gains else []) + ["queue"]
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, 2.3 * len(panels) + 0.8), sharex=True)
    ax = dict(zip(panels, axes))
    color = {f["index"]: FLOW_COLORS[(f["index"] - 1) % len(FLOW_COLORS)] for f in flows}
    draw_throughput(ax["tput"], tput, res, color, many)
    draw_ss(ax, ss, flows, color, many)
    draw_queue(ax["queue"], queue, res)
    axes[-1].set_xlabel("time since the first flow started (s)")
    w0, w1 = res["interval_s"]
    tend = max([float(r["t_end_s"]) for r in tput] + [w1])
    for a in axes:
        a.axvspan(0, w0, color="grey", alpha=0.12, lw=0)
        a.axvspan(w1, tend, color="grey", alpha=0.12, lw=0)
        a.grid(True, alpha=0.3)
    draw_path_events(axes, res.get("delay_changes", []))
    fig.suptitle(timeseries_title(res), fontsize=9)
    fig.tight_layout()
    path = timeseries_path(run_dir, outdir)
    fig.savefig(path, dpi=110, bbox_inches="tight")  # "tight": legends under the axes too
    plt.close(fig)
    return path


def legend_below(ax):
    """The legend under the axes, where it hides no data (these panels' curves span the
    whole plot area)."""
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)


SWEEPS = {
    "buffer": ("buffer_bdp", "buffer (x BDP of the longest-RTT path)", "jain", "Jain index",
               True, "Jain index vs buffer size (10 ms vs 50 ms)"),
    "ratio": ("rtt_ratio", "RTT ratio (long / 10 ms)", "jain", "Jain index",
              False, "Jain index vs RTT ratio (5 BDP)"),
    "loss": ("loss_pct", "random loss (%)", "utilization", "link utilisation",
             False, "Utilisation vs random loss (10 ms + 50 ms flows)"),
    "flows": ("flows", "number of 10 ms flows", "retrans_rate", "retransmission rate (%)",
              True, "Retransmission rate vs number of flows"),
}


def save_png(fig, csv_path, outdir, name):
    """Write fig as NAME in outdir (default: beside csv_path), close it, return the path."""
    fig.tight_layout()
    path = os.path.join(outdir or os.path.dirname(os.path.abspath(csv_path)), name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def sweep_series(rows, name, xkey, ykey):
    """{(cc, buffer_bdp): {x: [y, ...]}} of sweep CSV rows, the buffer only for the loss
    and flows sweeps; retransmission rates in %; rows without x or y are left out."""
    series = defaultdict(lambda: defaultdict(list))
    for r in rows:
        x, y = num(r[xkey]), num(r[ykey])
        if x is None or y is None:
            continue
        if ykey == "retrans_rate":
            y *= 100
        key = (r["cc"], r["buffer_bdp"] if name in ("loss", "flows") else "")
        series[key][x].append(y)
    return series


def sweep_plot(csv_path, outdir=None):
    """sweep_<name>.png of one sweep CSV (analyze.py --sweep-csv), next to it or in
    outdir; returns its path."""
    rows = read_csv(csv_path)
    if not rows:
        raise AnalysisError(f"{csv_path}: no rows")
    name = rows[0]["sweep"] or os.path.splitext(os.path.basename(csv_path))[0]
    if name not in SWEEPS:
        raise AnalysisError(f"{csv_path}: unknown sweep '{name}'")
    xkey, xlabel, ykey, ylabel, logx, title = SWEEPS[name]
    series = sweep_series(rows, name, xkey, ykey)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    styles = ["-", "--", ":", "-."]
    bdps = sorted({k[1] for k in series}, key=lambda v: num(v) or 0)
    for (cc, bdp), pts in sorted(series.items()):
        xs = sorted(pts)
        ys = [sum(pts[x]) / len(pts[x]) for x in xs]
        lo = [ys[i] - min(pts[x]) for i, x in enumerate(xs)]
        hi = [max(pts[x]) - ys[i] for i, x in enumerate(xs)]
        lab = cc + (f", {bdp} BDP" if bdp else "")
        ax.errorbar(xs, ys, yerr=[lo, hi] if any(lo) or any(hi) else None, marker="o", ms=4,
                    capsize=2, color=CC_COLORS.get(cc), ls=styles[bdps.index(bdp) % len(styles)],
                    label=lab)
    if logx:
        ax.set_xscale("log")
        ticks = sorted({x for pts in series.values() for x in pts})
        ax.set_xticks(ticks)
        ax.set_xticklabels([f"{t:g}" for t in ticks])
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    if ykey == "jain":
        ax.set_ylim(0.45, 1.02)
    if ykey == "utilization":
        ax.axhline(PAYLOAD_CEILING, color="grey", ls=":", lw=1)
        ax.set_ylim(top=1.0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    rate = rows[0].get("rate_mbit")
    ax.set_title(f"{title}, {num(rate):g} Mbit/s" if num(rate) else title, fontsize=10)
    ax.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize=8)
    return save_png(fig, csv_path, outdir, f"sweep_{name}.png")


def compare(out_dir, outdir=None):
    """comparison.png for an rtt_fairness.sh results directory; returns its path."""
    path = os.path.join(out_dir, "summary.json")
    try:
        with open(path) as f:
            results = [{**r, "dir": run_dir(path, r)} for r in json.load(f)["results"]
                       if r["run"] == 1]
    except (OSError, ValueError, KeyError) as e:
        raise AnalysisError(f"{path}: cannot read a summary ({e})")
    fig, axes = plt.subplots(len(results) + 1, 1, figsize=(10, 2.4 * len(results) + 3),
                             sharex=True)
    for ax, r in zip(axes, results):
        draw_flows(ax, r)
        title = (f"{r['cc']}: Jain {fmt(r['jain'], '.3f')}, utilisation "
                 f"{fmt(r['utilization'], '.3f')}")
        if "+" in r["cc"]:  # a cc per RTT class: each one's share of the throughput
            title += "\nshares: " + share_text(r)
        ax.set_title(title, fontsize=10)
        queue = read_csv(os.path.join(r["dir"], "queue.csv"))
        axes[-1].plot([num(q["t_s"]) for q in queue], [num(q["qdelay_ms"]) for q in queue],
                      color=CC_COLORS.get(r["cc"]), label=r["cc"])
    axes[-1].set_ylabel("queue delay, ms")
    axes[-1].set_xlabel("time since the first flow started, s (grey: measured interval)")
    axes[-1].legend(fontsize=8)
    fig.tight_layout()
    png = os.path.join(outdir or out_dir, "comparison.png")
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return png


def draw_flows(ax, r):
    """Throughput over time of each flow of run r (a summary.json result), the measured
    interval shaded."""
    mixed = "+" in r["cc"]
    for i, (flow, rows) in enumerate(sorted(rows_by_flow(r["dir"]).items())):
        rtt = rows[0]["rtt_ms"]
        ax.plot([(num(x["t_start_s"]) + num(x["t_end_s"])) / 2 for x in rows],
                [num(x["mbps"]) for x in rows], color=FLOW_COLORS[i % len(FLOW_COLORS)],
                label=f"flow {flow}, {rows[0]['cc'] + ' ' if mixed else ''}{num(rtt):g} ms")
    ax.set_ylabel("Mbit/s")
    ax.legend(fontsize=7, loc="upper right", ncol=2)
    ax.axvspan(*r["interval_s"], color="0.93", zorder=0)


def rows_by_flow(run_dir):
    """throughput.csv of a run (written by analyze.py) grouped by flow number."""
    return by_flow(read_csv(os.path.join(run_dir, "throughput.csv")))
