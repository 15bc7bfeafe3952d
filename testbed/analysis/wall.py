"""Cells (docs.Col's fn) of the docs' wall-time blocks, from per-run files that a mean and a
confidence interval do not describe: runs timed at two durations, repeated a few times
(docs/results/sampler-cost-uml, client-uml/cost-*.csv), and guest soaks, a row per guest
run (docs/results/guest-soak, scripts/guest_soak.sh); and cells of a few runs each (QEMU's
three, docs/results/fairness-qemu612): each run's value, a range, a count."""
from collections import Counter

from .common import AnalysisError, num
from .tables import values


def walls(runs, col, duration):
    """The wall times (column col) of the runs of one duration (column duration_s), in
    repetition order: column rep where the file has it, else the file's order."""
    rs = sorted((r for r in runs if r["duration_s"] == duration),
                key=lambda r: int(r.get("rep") or 0))
    return [float(r[col]) for r in rs]


def wall_span(col, duration):
    """A cell: the runs' wall times at one duration in s, 'x' for one run, 'min .. max'."""
    def text(runs):
        w = walls(runs, col, duration)
        if not w:
            return "-"
        return f"{w[0]:.1f}" if len(w) == 1 else f"{min(w):.1f} .. {max(w):.1f}"
    return text


def marginal(col, short, long):
    """A cell: each repetition's marginal wall time per simulated second, (wall at the long
    duration - wall at the short) / (long - short), in repetition order."""
    def text(runs):
        a, b = walls(runs, col, short), walls(runs, col, long)
        if len(a) != len(b):
            raise AnalysisError(f"{len(a)} runs of {short} s against {len(b)} of {long} s")
        span = float(long) - float(short)
        return ", ".join(f"{(y - x) / span:.2f}" for x, y in zip(a, b)) or "-"
    return text


def soak_outcomes(runs):
    """A cell: a soak's guest runs by outcome (ok, fault, timeout, failed), most first."""
    n = Counter(r["outcome"] for r in runs)
    return ", ".join(f"{v} {k}" for k, v in sorted(n.items(), key=lambda kv: (-kv[1], kv[0])))


def soak_job_walls(runs):
    """A cell: the guest runs' wall seconds summed per main job (column iteration), 'min ..
    max' over the soak's main jobs; a guest run without a wall time counts 0."""
    per = {}
    for r in runs:
        per[r["iteration"]] = per.get(r["iteration"], 0) + (num(r["wall_s"]) or 0)
    return f"{min(per.values()):.0f} .. {max(per.values()):.0f}" if per else "-"


def fault_bound(runs):
    """A cell: with no fault in n guest runs, the rate's 95 % upper bound 3 / n (the rule of
    three, a computation); '-' where a run faulted."""
    if not runs or any(r["outcome"] == "fault" for r in runs):
        return "-"
    return f"{3 / len(runs):.3f}"


def per_run(metric, digits=3, scale=1):
    """A cell: each run's value of metric (tables.values), in seed order, ', '-joined; '-'
    where no run has one."""
    def text(runs):
        xs = values(sorted(runs, key=lambda r: int(r.get("seed") or 0)), metric)
        if all(v is None for v in xs):
            return "-"
        return ", ".join("-" if v is None else f"{v * scale:.{digits}f}" for v in xs)
    return text


def span(metric, digits=3, scale=1):
    """A cell: 'min .. max' of the runs' values of metric, 'x' where they are one value."""
    def text(runs):
        xs = [f"{v * scale:.{digits}f}" for v in values(runs, metric) if v is not None]
        if not xs:
            return "-"
        lo, hi = (min(xs, key=float), max(xs, key=float))
        return lo if lo == hi else f"{lo} .. {hi}"
    return text


def first_flow_ahead(runs):
    """A cell: 'k of n', the runs whose first flow (the shortest RTT's) got more throughput
    than the second."""
    return f"{sum(1 for r in runs if len(r['tputs']) > 1 and r['tputs'][0] > r['tputs'][1])} " \
           f"of {len(runs)}"
