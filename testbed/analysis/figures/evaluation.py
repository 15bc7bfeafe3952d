"""Figures of the evaluations (analyze.py --evaluation's CSVs): seed 002's queue and RTT over
time per qdisc under a rate schedule, and seed 003's goodput against random loss."""
import os
from collections import defaultdict

from ..common import AnalysisError, num, read_csv
from ..stats import mean_ci95
from . import plt
from .runs import CC_COLORS

QDISC_COLORS = {"bfifo": "tab:red", "pfifo": "tab:pink", "red": "tab:blue",
                "codel": "tab:green", "fq_codel": "tab:olive"}


def series_plot(path, outdir=None, seed="1"):
    """eval_series.png from an evaluation _series.csv: per cc (a column), the bottleneck's
    queueing delay and the flow's smoothed RTT over time, one line per qdisc, the rate in
    force shaded; runs of one seed."""
    rows = [r for r in read_csv(path) if str(r["seed"]) == str(seed)]
    if not rows:
        raise AnalysisError(f"{path}: no rows of seed {seed}")
    ccs = list(dict.fromkeys(r["cc"] for r in rows))
    fig, axes = plt.subplots(2, len(ccs), figsize=(4.2 * len(ccs), 6.0), sharex=True,
                             squeeze=False)
    for j, cc in enumerate(ccs):
        by = defaultdict(list)
        for r in rows:
            if r["cc"] == cc:
                by[r["qdisc"]].append(r)
        for q, rs in by.items():
            t = [num(r["t_s"]) for r in rs]
            for i, key in enumerate(("qdelay_ms", "srtt_ms")):
                axes[i][j].plot(t, [num(r[key]) for r in rs], lw=1.1, label=q,
                                color=QDISC_COLORS.get(q))
        rs = next(iter(by.values()))
        # shade the samples taken at a higher rate than the first one's
        hi = [num(r["t_s"]) for r in rs if num(r["rate_mbit"]) > num(rs[0]["rate_mbit"])]
        for i in range(2):
            axes[i][j].grid(alpha=0.3)
            if hi:
                axes[i][j].axvspan(min(hi), max(hi), color="0.92", zorder=0)
        axes[0][j].set_title(f"{cc} (shaded: {max(num(r['rate_mbit']) for r in rs):g} Mbit/s, "
                             f"else {num(rs[0]['rate_mbit']):g})", fontsize=9)
        axes[1][j].set_xlabel("time (s)")
    axes[0][0].set_ylabel("queueing delay (ms)")
    axes[1][0].set_ylabel("smoothed RTT (ms)")
    axes[0][-1].legend(fontsize=8)
    fig.tight_layout()
    out = os.path.join(outdir or os.path.dirname(os.path.abspath(path)), "eval_series.png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def loss_plot(path, outdir=None):
    """eval_loss.png from an evaluation CSV of a loss sweep: utilisation (goodput over the
    rate) against the random loss, log scale, mean and 95 % CI per cc, with the ceiling
    (1 - loss) x 1448/1514."""
    rows = [r for r in read_csv(path) if not r.get("problems")]
    by = defaultdict(lambda: defaultdict(list))
    for r in rows:
        by[r["config"]][num(r["loss_pct"])].append(num(r["utilization"]))
    if not by:
        raise AnalysisError(f"{path}: no runs")
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    losses = sorted({x for d in by.values() for x in d})
    ax.plot(losses, [(1 - x / 100) * 1448 / 1514 for x in losses], "k--", lw=0.8,
            label="ceiling (1 - loss) x 0.956")
    for cc, d in by.items():
        xs = sorted(d)
        ms = [mean_ci95(d[x]) for x in xs]
        ax.errorbar(xs, [m for m, _ in ms], yerr=[h or 0 for _, h in ms], marker="o", ms=4,
                    capsize=2, label=cc, color=CC_COLORS.get(cc))
    ax.set_xscale("log")
    ax.set_xlabel("random loss (%)")
    ax.set_ylabel("utilisation (goodput / rate)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    out = os.path.join(outdir or os.path.dirname(os.path.abspath(path)), "eval_loss.png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
