"""The coexistence grid's figure: the newcomer's share of the throughput against the buffer,
one panel per RTT, a curve per pairing (its first cc against cubic), 95 % CIs over the seeds."""
import re
from collections import defaultdict

from ..common import AnalysisError
from ..stats import mean_ci95
from ..tables import load_runs, values
from . import plt
from .runs import CC_COLORS, legend_below, save_png

SCENARIO = re.compile(r"^([a-z]+)(\d+(?:\.\d+)?)$")


def share_points(runs):
    """{prefix: {curve: [(buffer, mean share of the first cc, CI half-width, seeds)]}} over
    the runs that are results, for the '+' items whose scenario is PREFIX<buffer>. A curve is
    an item ('bbr_a_fair+cubic'), or 'item (config)' where configurations with other module
    parameters ran the same item."""
    kept = []
    for r in runs:
        m = SCENARIO.match(r.get("scenario", ""))
        if not r["problems"] and m and "+" in r.get("cc", ""):
            kept.append((m, r))
    configs = defaultdict(set)
    for _, r in kept:
        configs[r["cc"]].add(r.get("config", ""))
    groups = defaultdict(list)
    for m, r in kept:
        curve = r["cc"] if len(configs[r["cc"]]) < 2 else f"{r['cc']} ({r.get('config', '')})"
        groups[(m.group(1), curve, float(m.group(2)))].append(r)
    pts = defaultdict(lambda: defaultdict(list))
    for (prefix, item, buf), rs in sorted(groups.items()):
        v = [x for x in values(rs, "share0") if x is not None]
        mean, half = mean_ci95(v)
        if mean is not None:
            pts[prefix][item].append((buf, mean, half or 0.0, len(v)))
    return pts


def kernel_labels(runs):
    """{curve item: ' on KERNEL'} when the runs ran on more than one kernel (a figure joining
    screens of two kernels says which each curve ran on), else {}."""
    kernels = {r.get("kernel", "") for r in runs}
    if len(kernels) < 2:
        return {}
    by_item = defaultdict(set)
    for r in runs:
        by_item[r.get("cc", "")].add(r.get("kernel") or "unknown kernel")
    return {item: " on " + ", ".join(sorted(ks)) for item, ks in by_item.items()}


def coexist_shares(paths, panels=(("c", "20 ms"), ("d", "50 ms")), outdir=None, only=None,
                   name="shares.png"):
    """NAME (shares.png) beside the first of paths (screen_runs.csv files or screen.sh trees;
    one path or a list drawn as one figure): each '+' item's first cc's share against the
    buffer, a panel per (scenario prefix, RTT label); only: just these configurations."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    runs = [r for p in paths for r in load_runs(p)
            if only is None or r.get("config") in only]
    pts = share_points(runs)
    kernels = kernel_labels([r for r in runs if "+" in r.get("cc", "")])
    want = [p for p, _ in panels]
    panels = [(p, label) for p, label in panels if p in pts]
    if not panels:
        raise AnalysisError(f"{', '.join(paths)}: no '+' runs at scenarios {', '.join(want)}")
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.2), squeeze=False)
    for ax, (prefix, label) in zip(axes[0], panels):
        styles = defaultdict(int)  # curves of one item: a marker and a line style each
        for curve, p in sorted(pts[prefix].items()):
            item = curve.split(" ")[0]
            first = item.split("+")[0]
            k = styles[item]
            styles[item] += 1
            xs, ys, es = [x[0] for x in p], [x[1] for x in p], [x[2] for x in p]
            lo, hi = min(x[3] for x in p), max(x[3] for x in p)
            ax.errorbar(xs, ys, yerr=es, marker="osD^v"[k % 5], ms=4, capsize=3,
                        ls=("-", "--", ":", "-.")[k % 4],
                        color=CC_COLORS.get(first) if first != item.split("+")[-1] else "grey",
                        label=f"{curve}{kernels.get(item, '')} "
                              f"({lo if lo == hi else f'{lo}..{hi}'} seeds)")
        ax.axhline(0.5, color="black", lw=0.8, ls=":")
        ax.set_xscale("log")
        bufs = sorted({x[0] for p in pts[prefix].values() for x in p})
        ax.set_xticks(bufs, [f"{b:g}" for b in bufs])
        ax.minorticks_off()
        ax.set_ylim(0, 1)
        ax.set_xlabel("buffer (x BDP)")
        ax.set_ylabel("first cc's share of the throughput")
        ax.set_title(f"one flow each, {label}", fontsize=9)
        legend_below(ax)
    return save_png(fig, paths[0].rstrip("/"), outdir, name)
