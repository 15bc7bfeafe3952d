"""Throughput against delay (Pantheon's form): per screen and scenario a panel, per
congestion control its runs' total throughput against the 95th percentile of the queueing
delay its flows' RTTs show (rtt_queueing_p95_ms: srtt - base RTT over the ss samples)
(each seed a small mark, the mean a large one); the delay axis runs right to left, so that
better is up and to the right."""
from collections import defaultdict

from ..common import AnalysisError
from ..tables import load_runs, values
from . import plt
from .runs import CC_COLORS, legend_below, save_png


def delay_points(runs):
    """{scenario: {cc: [(p95 queue delay ms, total throughput Mbit/s)]}} of the runs that
    are results."""
    pts = defaultdict(lambda: defaultdict(list))
    for r in runs:
        if r["problems"]:
            continue
        q, t = values([r], "rtt_queueing_p95_ms")[0], sum(r["tputs"])
        if q is not None:
            pts[r["scenario"]][r["cc"]].append((q, t))
    return pts


def joined_runs(path):
    """The runs of a path that joins screens with '+', each screen narrowed to some ccs by
    '@CC,CC' (screens of different releases in one panel: 'old@bbr,cubic+new')."""
    runs = []
    for part in path.split("+"):
        screen, _, ccs = part.partition("@")
        keep = set(ccs.split(",")) if ccs else None
        runs += [r for r in load_runs(screen) if keep is None or r["cc"] in keep]
    return runs


def delay_throughput(paths, titles, outdir=None):
    """delay_throughput.png beside the first path's first screen: a panel per (path,
    scenario), titled titles[path index] and the scenario; a path may join screens
    (joined_runs)."""
    panels = []
    for i, p in enumerate(paths):
        for sc, ccs in sorted(delay_points(joined_runs(p)).items()):
            panels.append((f"{titles[i]}, {sc}" if i < len(titles) else sc, ccs))
    if not panels:
        raise AnalysisError(f"{', '.join(paths)}: no runs with a queue delay percentile")
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4.0), squeeze=False)
    for ax, (title, ccs) in zip(axes[0], panels):
        for cc, xy in sorted(ccs.items()):
            color = CC_COLORS.get(cc, "grey")
            ax.scatter([x for x, _ in xy], [y for _, y in xy], s=10, color=color, alpha=0.5)
            mx, my = sum(x for x, _ in xy) / len(xy), sum(y for _, y in xy) / len(xy)
            ax.scatter([mx], [my], s=70, color=color, edgecolor="black",
                       label=f"{cc} ({len(xy)} runs)")
        ax.invert_xaxis()
        ax.set_xlabel("95th percentile of srtt - base RTT (ms)")
        ax.set_ylabel("throughput (Mbit/s)")
        ax.set_title(title, fontsize=9)
        legend_below(ax)
    first = paths[0].split("+")[0].partition("@")[0]
    return save_png(fig, first.rstrip("/"), outdir, "delay_throughput.png")
