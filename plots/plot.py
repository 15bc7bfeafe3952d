#!/usr/bin/python3
"""Plots of testbed results (matplotlib, Agg backend; PNG files).

    plot.py DIR [--outdir OUT]
        DIR is a run directory or a tree of them. Per run: timeseries.png with per-flow
        throughput (iperf3 receiver intervals), cwnd, smoothed RTT, BBR pacing_gain (from
        ss samples) and the bottleneck queue (tc backlog, as bytes and as delay).
        The numbers come from testbed/analyze.py, computed in memory; no data file is
        written (analyze.py DIR writes the CSVs and run_summary.json).
    plot.py --compare DIR [--outdir OUT]
        DIR is an rtt_fairness.sh results directory (summary.json): comparison.png with,
        for the first run of each cc in --cc order, throughput over time per flow (titled
        with Jain's index and utilisation, and for an A+B item each cc's share), and the
        bottleneck's queueing delay of all.
    plot.py --sweep CSV [CSV...] [--outdir OUT]
        The sweep figures from analyze.py --sweep-csv CSVs: Jain vs buffer, Jain vs RTT ratio,
        utilisation vs loss, retransmission rate vs number of flows.
    plot.py --screen CSV [CSV...] [--outdir OUT]
        screen_grid.png from a testbed/screen.sh table (analyze.py --screen-csv): Jain vs
        buffer (10 vs 50 ms) and vs RTT ratio (5 BDP), with 95 % CIs and the paper's NS-3
        values (Figs. 6 and 7) beside them.
    plot.py --fig fig4|fig8 CSV [--outdir OUT]
        fig4.png (utilisation vs random loss) or fig8.png (retransmission rate vs number of
        flows) from a testbed/reproduce.sh screen.csv, one panel per buffer, with 95 % CIs
        and the paper's values.
    plot.py --table METRIC CSV [CSV...] [--join] [--only CONFIGS] [--common]
        A markdown table of a screen.csv (analyze.py --screen-csv): a row per scenario, a
        column per configuration, the metric's mean +- 95 % CI half-width (docs' tables).
        --join: one table of all the files (e.g. one configuration's scenarios from several
        figures beside another screen's); --only: just these configurations; --common:
        just the scenarios every configuration has.
    plot.py --fig5 DIR [--outdir OUT]
        fig5_b0.5.png and fig5_b5.png from a testbed/reproduce.sh fig5 screen: one panel per
        algorithm, seed 1's flows over time, our 50/10 ms throughput ratio (all seeds) and
        the paper's numbers for the figure; and fig5.csv, per buffer and algorithm the mean
        and 95 % CI over the seeds of each flow's throughput, their ratio, Jain's index and
        the utilisation, with the paper's numbers.
"""
import argparse
import csv
import glob
import json
import os
import re
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testbed"))
import analyze  # noqa: E402

CC_COLORS = {"bbr_a": "tab:blue", "bbr": "tab:orange", "cubic": "tab:green", "reno": "tab:red",
             "bbr_a_fair": "tab:purple", "bbq": "tab:brown", "da_bbr": "tab:pink"}
FLOW_COLORS = plt.rcParams["axes.prop_cycle"].by_key()["color"]


def read_csv(path):
    """The rows of a CSV file as dicts by column name."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(v):
    """v as a float; None for an empty or missing value."""
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def by_flow(rows):
    """Rows (dicts with a "flow" column) grouped by flow number."""
    d = defaultdict(list)
    for r in rows:
        d[int(r["flow"])].append(r)
    return d


def run_records(run_dir):
    """analyze.py's numbers of one run, computed in memory (no file is written): its
    summary and the rows of throughput.csv, ss.csv and queue.csv as dicts by column."""
    res, tables = analyze.run_analysis(run_dir)
    tput, ss, queue = ([dict(zip(cols, row)) for row in tables[name]]
                       for name, cols in (("throughput", analyze.THROUGHPUT_COLS),
                                          ("ss", analyze.SS_COLS),
                                          ("queue", analyze.QUEUE_COLS)))
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
    ax.axhline(res["rate_mbit"] * analyze.PAYLOAD_CEILING, color="grey", ls=":", lw=1,
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


def timeseries_title(res):
    """The figure title of timeseries.png: the run's setting and results."""
    p = res["params"]
    return (f"{res['cc']}: RTT {p.get('rtts_ms', '').replace(' ', '/')} ms, "
            f"{res['rate_mbit']:g} Mbit/s, buffer {res['buffer_bytes']} B"
            f"{' (' + p['buffer_bdp'] + ' BDP)' if p.get('buffer_bdp') else ''}, "
            f"loss {res['loss_pct']:g} %  |  Jain {analyze.fmt(res['jain'], '.3f')}, "
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
    fig.suptitle(timeseries_title(res), fontsize=9)
    fig.tight_layout()
    path = timeseries_path(run_dir, outdir)
    fig.savefig(path, dpi=110, bbox_inches="tight")  # "tight": legends under the axes too
    plt.close(fig)
    return path


def legend_below(ax):
    """The legend under the axes, where it hides no data (these panels' curves span the
    whole plot area)."""
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)


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
        raise analyze.AnalysisError(f"{csv_path}: no rows")
    name = rows[0]["sweep"] or os.path.splitext(os.path.basename(csv_path))[0]
    if name not in SWEEPS:
        raise analyze.AnalysisError(f"{csv_path}: unknown sweep '{name}'")
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
        ax.axhline(analyze.PAYLOAD_CEILING, color="grey", ls=":", lw=1)
        ax.set_ylim(top=1.0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    rate = rows[0].get("rate_mbit")
    ax.set_title(f"{title}, {num(rate):g} Mbit/s" if num(rate) else title, fontsize=10)
    ax.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize=8)
    return save_png(fig, csv_path, outdir, f"sweep_{name}.png")


# The paper's NS-3 values (../shared/notes/bbr-a-spec.md, Figs. 6 and 7), drawn beside ours:
# (label, x values, Jain, color of the cc they belong to).
PAPER_BUFFER = [("paper BBR-A: >= 0.96 at every buffer", [0.1, 100], [0.96, 0.96], "bbr_a"),
                ("paper BBR: ~0.63 above 6 BDP", [6, 100], [0.63, 0.63], "bbr"),
                ("paper BBQ: >= 0.91 at every buffer", [0.1, 100], [0.91, 0.91], "bbq"),
                ("paper DA-BBR: >= ~0.95 at every buffer", [0.1, 100], [0.95, 0.95], "da_bbr")]
PAPER_RATIO = [("paper BBR-A at ratio 10: ~0.95", [10], [0.95], "bbr_a"),
               ("paper BBR at ratio 10: 0.59", [10], [0.59], "bbr"),
               ("paper DA-BBR at ratio 10: ~0.92", [10], [0.92], "da_bbr")]


def screen_points(rows):
    """{config: {"buffer": [(x, jain, ci)], "ratio": [...]}} from a screen.csv: the buffer
    axis takes scenarios whose RTTs are 10/50 ms, the ratio axis those at 5 BDP (ratio =
    longer / shorter RTT)."""
    pts = defaultdict(lambda: {"buffer": [], "ratio": []})
    for r in rows:
        rtts = [num(x) for x in r["rtts_ms"].split("/")]
        bdp, jain, ci = num(r["buffer_bdp"]), num(r["jain"]), num(r["jain_ci95"]) or 0
        if None in rtts or bdp is None or jain is None or len(rtts) != 2:
            continue
        if rtts == [10, 50]:
            pts[r["config"]]["buffer"].append((bdp, jain, ci))
        if bdp == 5:
            pts[r["config"]]["ratio"].append((max(rtts) / min(rtts), jain, ci))
    return pts


def draw_screen_axis(ax, pts, axis, paper, cc_of):
    """One panel of screen_grid: each configuration's mean Jain with its 95 % CI, and the
    paper's values as open markers / dashed lines."""
    for config, p in sorted(pts.items()):
        xs = sorted(p[axis])
        if xs:
            ax.errorbar([x[0] for x in xs], [x[1] for x in xs], yerr=[x[2] for x in xs],
                        marker="o", ms=4, capsize=3, color=CC_COLORS.get(cc_of[config]),
                        label=config)
    for label, xs, ys, cc in paper:
        ax.plot(xs, ys, ls="--" if len(xs) > 1 else "none", marker="" if len(xs) > 1 else "s",
                mfc="none", color=CC_COLORS.get(cc), alpha=0.7, label=label)
    ax.set_ylim(0.45, 1.02)
    ax.set_ylabel("Jain's index (mean, 95 % CI)")
    ax.grid(True, alpha=0.3, which="both")
    legend_below(ax)


def screen_grid(csv_path, outdir=None):
    """screen_grid.png from a screen.csv (analyze.py --screen-csv): Jain vs buffer
    (10 vs 50 ms) and Jain vs RTT ratio (5 BDP); returns its path."""
    rows = read_csv(csv_path)
    pts = screen_points(rows)
    if not pts:
        raise analyze.AnalysisError(f"{csv_path}: no two-flow scenarios to draw")
    cc_of = {r["config"]: r["cc"] for r in rows}
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
    draw_screen_axis(a1, pts, "buffer", PAPER_BUFFER, cc_of)
    a1.set_xscale("log")
    a1.set_xlabel("buffer, BDP of the 50 ms path (10 ms vs 50 ms flow)")
    a1.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    draw_screen_axis(a2, pts, "ratio", PAPER_RATIO, cc_of)
    a2.set_xlabel("RTT ratio R / 10 (a 10 ms flow vs an R ms flow, 5 BDP)")
    return save_png(fig, csv_path, outdir, "screen_grid.png")


# TCP payload per 1514-byte frame: the utilisation of a link that is never idle
PAYLOAD_SHARE = 1448 / 1514
# Figs. 4 and 8 of the paper, as its text gives them: (x, value) per algorithm and buffer.
PAPER_FIG4 = {("bbr_a", 1): [(0, 0.956)], ("bbr_a", 5): [(0, 0.962), (6, 0.90)]}
PAPER_FIG8 = {("bbr", 0.1): [(1, 0.028), (100, 0.149)], ("bbq", 0.1): [(1, 0.0152), (100, 0.0601)],
              ("da_bbr", 0.1): [(1, 0.0126), (100, 0.0486)], ("bbr_a", 0.1): [(1, 0.0131), (100, 0.0424)],
              ("bbr", 1): [(100, 0.0463)], ("bbq", 1): [(100, 0.0395)], ("da_bbr", 1): [(100, 0.0352)],
              ("bbr_a", 1): [(100, 0.0342)]}
# reproduce.sh's scenario names: fig4 l<loss>-b<bdp>, fig8 n<flows>-b<bdp>
FIG_SCENARIO = {"fig4": (r"^l([0-9.]+)-b([0-9.]+)$", "utilization", PAPER_FIG4,
                         "random loss, %", "utilisation (mean, 95 % CI)"),
                "fig8": (r"^n([0-9]+)-b([0-9.]+)$", "retrans_rate", PAPER_FIG8,
                         "flows of 10 ms", "retransmission rate (mean, 95 % CI)")}


def fig_points(rows, fig):
    """{(config, bdp): [(x, mean, ci)]} of the fig4/fig8 scenarios in a screen.csv."""
    pattern, metric = FIG_SCENARIO[fig][:2]
    pts = defaultdict(list)
    for r in rows:
        m = re.match(pattern, r["scenario"])
        y = num(r[metric])
        if m and y is not None:
            pts[(r["config"], float(m.group(2)))].append(
                (float(m.group(1)), y, num(r[metric + "_ci95"]) or 0))
    return pts


def fig_plot(csv_path, fig, outdir=None):
    """fig4.png / fig8.png from a reproduce.sh screen's screen.csv: one panel per buffer,
    ours with 95 % CIs, the paper's values as open squares; returns its path."""
    rows = read_csv(csv_path)
    pts = fig_points(rows, fig)
    if not pts:
        raise analyze.AnalysisError(f"{csv_path}: no {fig} scenarios")
    cc_of = {r["config"]: r["cc"] for r in rows}
    bdps = sorted({b for _, b in pts})
    _, _, paper, xlabel, ylabel = FIG_SCENARIO[fig]
    f, axes = plt.subplots(1, len(bdps), figsize=(5.5 * len(bdps), 4.2), squeeze=False)
    for ax, bdp in zip(axes[0], bdps):
        for (config, b), xs in sorted(pts.items()):
            if b == bdp:
                xs.sort()
                ax.errorbar([x[0] for x in xs], [x[1] for x in xs], yerr=[x[2] for x in xs],
                            marker="o", ms=4, capsize=3, color=CC_COLORS.get(cc_of[config]),
                            label=config)
        for (cc, b), vals in sorted(paper.items()):
            if b == bdp:
                ax.plot([v[0] for v in vals], [v[1] for v in vals], ls="none", marker="s",
                        mfc="none", color=CC_COLORS.get(cc), label=f"paper {cc}")
        if fig == "fig4":  # loss is after the bottleneck: a lost packet used its slot
            xs = sorted({x for (_, b), v in pts.items() if b == bdp for x, _, _ in v})
            ax.plot(xs, [PAYLOAD_SHARE * (1 - x / 100) for x in xs], ls=":", color="grey",
                    label="ceiling: 1448/1514 x (1 - loss)")
        ax.set_title(f"{fig}: buffer {bdp:g} BDP", fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if fig == "fig8":
            ax.set_xscale("log")
        ax.grid(True, alpha=0.3)
        legend_below(ax)
    return save_png(f, csv_path, outdir, f"{fig}.png")


TABLE_CCS = ["bbr", "bbq", "da_bbr", "bbr_a", "bbr_a_fair", "cubic"]


def scenario_order(name):
    """Sort key of a screen scenario name: its numbers, last first (l6-b1 before l0-b5)."""
    return tuple(float(x) for x in reversed(re.findall(r"[0-9]+(?:\.[0-9]+)?", name)))


def table(csv_paths, metric, digits=3, only=None, common=False):
    """A markdown table of one screen.csv, or of several joined (a path or a list): a row
    per scenario, a column per configuration (only those named in `only`, if given),
    "mean +- 95 % CI half-width", and the number of seeds where a cell has other than the
    most common count; with `common`, only the scenarios every configuration has. A
    configuration and scenario in two of the files is an error."""
    if isinstance(csv_paths, str):
        csv_paths = [csv_paths]
    rows, seen = [], {}
    for path in csv_paths:
        part = read_csv(path)
        if not part or metric not in part[0]:
            raise analyze.AnalysisError(f"{path}: no column {metric!r}")
        for r in part:
            if only and r["config"] not in only:
                continue
            key = (r["scenario"], r["config"])
            if key in seen:
                raise analyze.AnalysisError(f"{key[1]} at {key[0]} is in both {seen[key]} "
                                            f"and {path}")
            seen[key] = path
            rows.append(r)
    if not rows:
        raise analyze.AnalysisError(f"no configuration {','.join(only)} in "
                                    f"{' '.join(csv_paths)}")
    configs = sorted({r["config"] for r in rows},
                     key=lambda c: (TABLE_CCS.index(c) if c in TABLE_CCS else len(TABLE_CCS), c))
    cell = {(r["scenario"], r["config"]): r for r in rows}
    runs = [r["runs"] for r in rows]
    usual = max(set(runs), key=runs.count)
    out = [f"| scenario | {' | '.join(configs)} |", "|---|" + "---|" * len(configs)]
    for sc in sorted({r["scenario"] for r in rows}, key=scenario_order):
        if common and any((sc, c) not in cell for c in configs):
            continue
        cells = []
        for c in configs:
            r = cell.get((sc, c))
            y = num(r[metric]) if r else None
            if y is None:
                cells.append("-")
                continue
            ci = num(r.get(metric + "_ci95"))
            txt = f"{y:.{digits}f}" + (f" +- {ci:.{digits}f}" if ci is not None else "")
            cells.append(txt + ("" if r["runs"] == usual else f" ({r['runs']} seeds)"))
        out.append(f"| {sc} | {' | '.join(cells)} |")
    return "\n".join(out)


def compare(out_dir, outdir=None):
    """comparison.png for an rtt_fairness.sh results directory; returns its path."""
    path = os.path.join(out_dir, "summary.json")
    try:
        with open(path) as f:
            results = [r for r in json.load(f)["results"] if r["run"] == 1]
    except (OSError, ValueError, KeyError) as e:
        raise analyze.AnalysisError(f"{path}: cannot read a summary ({e})")
    fig, axes = plt.subplots(len(results) + 1, 1, figsize=(10, 2.4 * len(results) + 3),
                             sharex=True)
    for ax, r in zip(axes, results):
        draw_flows(ax, r)
        title = (f"{r['cc']}: Jain {analyze.fmt(r['jain'], '.3f')}, utilisation "
                 f"{analyze.fmt(r['utilization'], '.3f')}")
        if "+" in r["cc"]:  # a cc per RTT class: each one's share of the throughput
            title += "\nshares: " + analyze.share_text(r)
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


# Fig. 5 of the paper (NS-3), as its text gives it: 10 ms flow vs 50 ms flow.
PAPER_FIG5 = {("bbr", "b0.5"): "10 ms flow ~39.7 Mbit/s, 50 ms flow 1.4x",
              ("bbr", "b5"): "10 ms flow ~13.8 Mbit/s, 50 ms flow 5.9x",
              ("bbr_a", "b0.5"): "45.3 vs 50.3 Mbit/s", ("bbr_a", "b5"): "50 ms flow 1.3x",
              ("bbq", "b0.5"): "10 ms flow 42.3 Mbit/s, 50 ms flow 1.3x",
              ("bbq", "b5"): "50 ms flow 1.6x", ("da_bbr", "b0.5"): "50 ms flow ~1.3x",
              ("da_bbr", "b5"): "50 ms flow ~1.3x"}
FIG5_ORDER = ["bbr", "bbq", "da_bbr", "bbr_a", "bbr_a_fair", "cubic"]


def fig5_panel(ax, screen_dir, cfg, scen):
    """One algorithm's panel: seed 1's flows over time; the title gives the 50 ms / 10 ms
    throughput ratio over the measured interval, mean of all seeds, and the paper's."""
    runs = []
    for seed_dir in sorted(glob.glob(os.path.join(screen_dir, cfg, scen, "seed*", "summary.json"))):
        with open(seed_dir) as f:
            r = json.load(f)["results"][0]
        runs.append((os.path.dirname(seed_dir), r))
    if not runs:
        ax.set_title(f"{cfg}: no runs", fontsize=9)
        return
    if os.path.isfile(os.path.join(runs[0][1]["dir"], "throughput.csv")):
        draw_flows(ax, runs[0][1])
    else:  # a committed result: summary.json and job.key only (docs/reproduction.md)
        ax.text(0.5, 0.5, "seed 1's raw run is not here", ha="center", va="center",
                transform=ax.transAxes)
    ratios = [r["flows"][1]["throughput_mbps"] / r["flows"][0]["throughput_mbps"]
              for _, r in runs if r["flows"][0]["throughput_mbps"]]
    ours = f"50/10 ms {sum(ratios) / len(ratios):.2f}x ({len(ratios)} seeds)" if ratios else ""
    paper = PAPER_FIG5.get((cfg, scen))
    ax.set_title(f"{cfg}: seed 1; ours {ours}" + (f"; paper: {paper}" if paper else ""),
                 fontsize=9)


FIG5_COLS = ["scenario", "cc", "seeds", "tput_10ms_mbps", "tput_10ms_ci95", "tput_50ms_mbps",
             "tput_50ms_ci95", "ratio_50_to_10", "ratio_ci95", "jain", "jain_ci95",
             "utilization", "utilization_ci95", "paper"]


def fig5_rows(screen_dir):
    """fig5.csv's rows (FIG5_COLS): per buffer and algorithm, mean and 95 % CI half-width
    over the seeds (None with one seed) and the paper's numbers."""
    rows = []
    for scen in ("b0.5", "b5"):
        for cfg in FIG5_ORDER:
            files = sorted(glob.glob(os.path.join(screen_dir, cfg, scen, "seed*", "summary.json")))
            if not files:
                continue
            res = []
            for path in files:
                with open(path) as f:
                    res.append(json.load(f)["results"][0])
            t10 = [r["flows"][0]["throughput_mbps"] for r in res]
            t50 = [r["flows"][1]["throughput_mbps"] for r in res]
            cols = []
            for vals, nd in ((t10, 2), (t50, 2), ([b / a for a, b in zip(t10, t50) if a], 2),
                             ([r["jain"] for r in res], 3), ([r["utilization"] for r in res], 3)):
                m, h = analyze.mean_ci95(vals)
                cols += [None if m is None else round(m, nd), None if h is None else round(h, nd)]
            rows.append([scen, cfg, len(res), *cols, PAPER_FIG5.get((cfg, scen), "")])
    return rows


def fig5(screen_dir, outdir=None):
    """fig5_<scenario>.png and fig5.csv for a testbed/reproduce.sh fig5 screen; returns
    their paths."""
    cfgs = [c for c in FIG5_ORDER if os.path.isdir(os.path.join(screen_dir, c))]
    if not cfgs:
        raise analyze.AnalysisError(f"{screen_dir}: no fig5 screen (no algorithm directories)")
    pngs = []
    for scen in ("b0.5", "b5"):
        fig, axes = plt.subplots(len(cfgs), 1, figsize=(10, 2.1 * len(cfgs) + 1), sharex=True,
                                 squeeze=False)
        for ax, cfg in zip(axes[:, 0], cfgs):
            fig5_panel(ax, screen_dir, cfg, scen)
        axes[-1, 0].set_xlabel("time since the first flow started, s (grey: measured interval)")
        fig.suptitle(f"Fig. 5: 10 ms vs 50 ms flow, buffer {scen[1:]} BDP", fontsize=11)
        fig.tight_layout()
        pngs.append(os.path.join(outdir or screen_dir, f"fig5_{scen}.png"))
        fig.savefig(pngs[-1], dpi=100)
        plt.close(fig)
    table = os.path.join(outdir or screen_dir, "fig5.csv")
    analyze._csv(table, FIG5_COLS, fig5_rows(screen_dir))
    return pngs + [table]


def rows_by_flow(run_dir):
    """throughput.csv of a run (written by analyze.py) grouped by flow number."""
    return by_flow(read_csv(os.path.join(run_dir, "throughput.csv")))


def command(a):
    """The work of one plot.py command line (parsed: a): draws, prints the PNGs' paths."""
    if a.outdir:
        os.makedirs(a.outdir, exist_ok=True)
    if a.sweep:
        for p in a.paths:
            print(sweep_plot(p, a.outdir))
    elif a.screen:
        for p in a.paths:
            print(screen_grid(p, a.outdir))
    elif a.compare:
        for p in a.paths:
            print(compare(p, a.outdir))
    elif a.fig:
        for p in a.paths:
            print(fig_plot(p, a.fig, a.outdir))
    elif a.fig5:
        for p in a.paths:
            print("\n".join(fig5(p, a.outdir)))
    elif a.table:
        only = a.only.split(",") if a.only else None
        for p in [a.paths] if a.join else a.paths:
            print(table(p, a.table, only=only, common=a.common))
    else:
        for top in a.paths:
            runs = analyze.find_runs(top)
            if not runs:
                raise analyze.AnalysisError(f"{top}: no run directories (params.env) found")
            for d in runs:
                print(timeseries(d, a.outdir))
    return 0


def main(argv=None):
    """plot.py's command line (see the module's docstring); returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", metavar="DIR|CSV")
    ap.add_argument("--sweep", action="store_true", help="the paths are sweep CSVs")
    ap.add_argument("--screen", action="store_true", help="the paths are screen.csv files")
    ap.add_argument("--compare", action="store_true",
                    help="the paths are rtt_fairness.sh results directories")
    ap.add_argument("--fig", choices=sorted(FIG_SCENARIO),
                    help="the paths are screen.csv files of reproduce.sh fig4 / fig8")
    ap.add_argument("--fig5", action="store_true",
                    help="the paths are testbed/reproduce.sh fig5 screens (DIR/fig5)")
    ap.add_argument("--table", metavar="METRIC",
                    help="print a markdown table of a screen.csv column (jain, utilization, "
                         "retrans_rate, ...): mean +- 95 %% CI per scenario and configuration")
    ap.add_argument("--join", action="store_true",
                    help="with --table: one table of all the screen.csv files")
    ap.add_argument("--only", metavar="CONFIGS",
                    help="with --table: only these configurations (comma separated)")
    ap.add_argument("--common", action="store_true",
                    help="with --table: only the scenarios every configuration has")
    ap.add_argument("--outdir", help="where PNGs go (default: next to the data)")
    return analyze.cli_errors("plot.py", command, ap.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
