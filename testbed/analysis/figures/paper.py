"""The paper's figures from reproduce.sh's screens: Jain against the buffer and the RTT ratio
(Figs. 6, 7), utilisation against loss (Fig. 4), retransmissions against flows (Fig. 8), and
the flows of Fig. 5, each beside the paper's values."""
import json
import os
import re
from collections import defaultdict

import matplotlib.ticker

from ..common import AnalysisError, num, read_csv, save_csv
from ..paper_values import PAPER_BUFFER, PAPER_FIG4, PAPER_FIG5, PAPER_FIG8, PAPER_RATIO
from ..stats import mean_ci95
from ..screen import job_summaries
from ..summary import run_dir
from . import plt
from .runs import CC_COLORS, draw_flows, legend_below, save_png


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
    for label, xs, ys, cc in paper:  # a line where the paper gives a range, else a point
        ax.plot(xs, ys, ls="--" if len(xs) > 1 else "none", marker="" if len(xs) > 1 else "s",
                ms=9, mew=1.5, mfc="none", color=CC_COLORS.get(cc), alpha=0.8, label=label,
                zorder=5)
    ax.set_ylim(0.45, 1.02)
    ax.set_ylabel("Jain's index (mean, 95 % CI)")
    ax.grid(True, alpha=0.3, which="both")
    legend_below(ax)


def grid_axes(pts):
    """The axes of screen_grid that have a curve, at least two x values of a configuration:
    Fig. 6's screen has on the ratio axis only its 5 BDP point, Fig. 7's on the buffer axis
    only its 10 vs 50 ms point, and a panel of one point per curve shows nothing."""
    return [a for a in ("buffer", "ratio")
            if any(len({x for x, _, _ in p[a]}) > 1 for p in pts.values())]


def grid_figure(pts, cc_of):
    """The figure of screen_grid: one panel per axis with a curve (grid_axes), each with the
    paper's values (PAPER_BUFFER, PAPER_RATIO); (figure, {axis: panel})."""
    axes = grid_axes(pts)
    fig, panels = plt.subplots(1, len(axes), figsize=(5.8 * len(axes) + 0.2, 4.6), squeeze=False)
    out = dict(zip(axes, panels[0]))
    if "buffer" in out:
        ax = out["buffer"]
        draw_screen_axis(ax, pts, "buffer", PAPER_BUFFER, cc_of)
        ax.set_xscale("log")
        ax.set_xlabel("buffer, BDP of the 50 ms path (10 ms vs 50 ms flow)")
        ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    if "ratio" in out:
        draw_screen_axis(out["ratio"], pts, "ratio", PAPER_RATIO, cc_of)
        out["ratio"].set_xlabel("RTT ratio R / 10 (a 10 ms flow vs an R ms flow, 5 BDP)")
    return fig, out


def screen_grid(csv_path, outdir=None):
    """screen_grid.png from a screen.csv (analyze.py --screen-csv): Jain vs buffer
    (10 vs 50 ms) and Jain vs RTT ratio (5 BDP), each where the screen has a curve of it;
    returns its path."""
    rows = read_csv(csv_path)
    pts = screen_points(rows)
    if not grid_axes(pts):
        raise AnalysisError(f"{csv_path}: no two-flow scenarios to draw (two buffers at "
                            "10 vs 50 ms, or two RTT ratios at 5 BDP)")
    fig, _ = grid_figure(pts, {r["config"]: r["cc"] for r in rows})
    return save_png(fig, csv_path, outdir, "screen_grid.png")


# TCP payload per 1514-byte frame: the utilisation of a link that is never idle
PAYLOAD_SHARE = 1448 / 1514


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
        raise AnalysisError(f"{csv_path}: no {fig} scenarios")
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


FIG5_ORDER = ["bbr", "bbq", "da_bbr", "bbr_a", "bbr_a_fair", "cubic"]


def fig5_panel(ax, screen_dir, cfg, scen):
    """One algorithm's panel: seed 1's flows over time; the title gives the 50 ms / 10 ms
    throughput ratio over the measured interval, mean of all seeds, and the paper's."""
    runs = []
    for path in job_summaries(screen_dir, cfg, scen):
        with open(path) as f:
            r = json.load(f)["results"][0]
        runs.append((path, {**r, "dir": run_dir(path, r)}))
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
            files = job_summaries(screen_dir, cfg, scen)
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
                m, h = mean_ci95(vals)
                cols += [None if m is None else round(m, nd), None if h is None else round(h, nd)]
            rows.append([scen, cfg, len(res), *cols, PAPER_FIG5.get((cfg, scen), "")])
    return rows


def fig5(screen_dir, outdir=None):
    """fig5_<scenario>.png and fig5.csv for a testbed/reproduce.sh fig5 screen; returns
    their paths."""
    cfgs = [c for c in FIG5_ORDER if os.path.isdir(os.path.join(screen_dir, c))]
    if not cfgs:
        raise AnalysisError(f"{screen_dir}: no fig5 screen (no algorithm directories)")
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
    save_csv(table, FIG5_COLS, fig5_rows(screen_dir))
    return pngs + [table]
