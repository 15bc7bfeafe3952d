"""Markdown tables of screens: plots/plot.py --table, and the docs' generated blocks
(docs.py). Every number is a mean and 95 % CI half-width computed here from the per-run
values (a screen_runs.csv, or the jobs' summaries) and rounded once, when it is printed;
screen.csv's own columns, rounded before 2026-11-25, are read only where there is no
screen_runs.csv beside it. Runs that are not results (checks.py) are left out and counted."""
import json
import os
import re

from .common import AnalysisError, num, read_csv
from .screen import SCREEN_RUN_COLS, job_summaries, screen_runs, summary_runs
from .stats import mean_ci95

TABLE_CCS = ["bbr", "bbq", "da_bbr", "bbr_a", "bbr_a_fair", "cubic"]
RUN_METRICS = ("jain", "utilization", "retrans_rate", "qdelay_mean_ms")


def scenario_order(name):
    """Sort key of a screen scenario name: its numbers, last first (l6-b1 before l0-b5)."""
    return tuple(float(x) for x in reversed(re.findall(r"[0-9]+(?:\.[0-9]+)?", name)))


def config_order(c):
    """Sort key of a configuration: the paper's algorithms first, in TABLE_CCS' order."""
    return (TABLE_CCS.index(c) if c in TABLE_CCS else len(TABLE_CCS), c)


def runs_path(path):
    """The screen_runs.csv of a screen: path itself, or the _runs.csv beside a screen.csv,
    or a screen.sh tree's own; None if there is none."""
    if os.path.isdir(path):
        return path
    if path.endswith("_runs.csv"):
        return path
    other = os.path.splitext(path)[0] + "_runs.csv"
    return other if os.path.exists(other) else None


def _run(d):
    """A screen_runs.csv row (dict) with its metrics as numbers, its flows' throughputs as a
    list (tputs) and problems as a string."""
    r = dict(d)
    for k in RUN_METRICS:
        r[k] = num(d.get(k))
    r["tputs"] = [num(x) for x in (d.get("throughputs_mbps") or "").split("/") if x != ""]
    r["shares"] = [num(x) for x in (d.get("shares") or "").split("/") if x != ""]
    for k in ("harm", "self_harm", "share"):
        r[k] = num(d.get(k)) if d.get(k) not in (None, "") else None
    r["problems"] = d.get("problems") or ""
    return r


def load_runs(path):
    """The runs of a screen, one dict each (_run): from a screen_runs.csv (or the one beside
    a screen.csv), from a screen.sh tree's job summaries, or from one summary.json of a
    --repeat set (config: the run's cc); from summaries, the flows' throughputs unrounded
    and each run's own wall time (params.wall_s)."""
    if os.path.isdir(path):
        return _with_summaries([_run(dict(zip(SCREEN_RUN_COLS, r))) for r in screen_runs(path)],
                               job_summaries(path))
    if path.endswith(".json"):
        return _with_summaries([_run(dict(zip(SCREEN_RUN_COLS, r))) for r in summary_runs(path)],
                               [path])
    return [_run(d) for d in read_csv(path)]


def _with_summaries(rows, paths):
    """rows (one per result of the summaries at paths, in order) with tputs and wall_s."""
    results = []
    for p in paths:
        with open(p) as f:
            results += json.load(f)["results"]
    for r, res in zip(rows, results):
        r["tputs"] = [fl["throughput_mbps"] for fl in res["flows"]]
        r["wall_s"] = num(res["params"].get("wall_s"))
    return rows


PER_FLOW = {"cwnd_limited": "cwnd_limited_shares", "probe": "probe_shares",
            "hold": "hold_shares", "drain": "drain_shares", "phi": "phi_means",
            "trace_queue": "trace_queue_ms"}  # per-flow gain-trace columns of screen_runs.csv


def values(runs, metric):
    """The per-run values of metric over runs: a RUN_METRICS column, tput<i> (flow i's
    throughput, from 0), tput_total (all flows'), ratio (flow 1's throughput over flow 0's), share<i> (the i-th cc's
    share of a mixed run, from 0), harm, self_harm, share (a share-windows row's), wall_s
    (the run's own wall time, from a screen.sh tree's summaries), a PER_FLOW gain-trace
    value of flow i (cwnd_limited<i>, probe<i>, hold<i>, drain<i>, phi<i>, trace_queue<i>:
    the queueing delay rtt - min_rtt its ACKs saw, ms), or any other
    numeric column of the runs' file (analyze.py --evaluation's fct_all_p50_ms ...); None
    where a run has none."""
    out = []
    for r in runs:
        flow = re.fullmatch(r"(cwnd_limited|probe|hold|drain|phi|trace_queue)([0-9]+)", metric)
        if metric in RUN_METRICS or metric in ("harm", "self_harm", "share", "wall_s"):
            out.append(r.get(metric))
        elif flow:
            xs = (r.get(PER_FLOW[flow.group(1)]) or "").split("/")
            i = int(flow.group(2))
            out.append(num(xs[i]) if len(xs) > i else None)
        elif metric.startswith("share"):
            i = int(metric[5:])
            out.append(r["shares"][i] if len(r.get("shares", [])) > i else None)
        elif metric == "tput_total":
            out.append(sum(r["tputs"]) if r["tputs"] else None)
        elif metric.startswith("tput"):
            i = int(metric[4:])
            out.append(r["tputs"][i] if len(r["tputs"]) > i else None)
        elif metric == "ratio":
            t = r["tputs"]
            out.append(t[1] / t[0] if len(t) > 1 and t[0] else None)
        elif metric in r:  # another column of the file (analyze.py --evaluation's)
            out.append(num(r.get(metric)))
        else:
            raise AnalysisError(f"no per-run metric {metric!r}")
    return out


def cell(runs, metric, digits=3, scale=1, ci=True, usual=None):
    """One table cell over the runs that are results among runs: "mean +- half-width"
    (rounded here, once), "(N seeds)" where N is not the table's usual count, "(N excluded)"
    for runs left out; "-" without a value. Two runs give no interval worth printing (its
    t is 12.7): "2 runs: a, b", their values in the runs' order."""
    good = [r for r in runs if not r["problems"]]
    vals = [v for v in values(good, metric) if v is not None]
    m, h = mean_ci95(vals)
    notes = []
    n = len(vals)
    if ci and n == 2:
        txt = "2 runs: " + ", ".join(f"{v * scale:.{digits}f}" for v in vals)
    else:
        if usual is not None and n != usual and m is not None:
            notes.append(f"{n} seeds")
        txt = "-" if m is None else f"{m * scale:.{digits}f}" + (
            f" +- {h * scale:.{digits}f}" if ci and h is not None else "")
    if len(good) < len(runs):
        notes.append(f"{len(runs) - len(good)} excluded")
    return txt + (f" ({'; '.join(notes)})" if notes else "")


def usual_count(groups):
    """The most common number of runs that are results per group (a table's usual seeds)."""
    counts = [len([r for r in g if not r["problems"]]) for g in groups if g]
    return max(set(counts), key=counts.count) if counts else None


def _aggregate_table(csv_paths, metric, digits, only, common):
    """table() from screen.csv's own (aggregated) columns: a screen without its runs file."""
    rows, seen = [], {}
    for path in csv_paths:
        part = read_csv(path)
        if not part or metric not in part[0]:
            raise AnalysisError(f"{path}: no column {metric!r}")
        for r in part:
            if only and r["config"] not in only:
                continue
            key = (r["scenario"], r["config"])
            if key in seen:
                raise AnalysisError(f"{key[1]} at {key[0]} is in both {seen[key]} and {path}")
            seen[key] = path
            rows.append(r)
    if not rows:
        raise AnalysisError(f"no configuration {','.join(only)} in {' '.join(csv_paths)}")
    configs = sorted({r["config"] for r in rows}, key=config_order)
    by = {(r["scenario"], r["config"]): r for r in rows}
    runs = [r["runs"] for r in rows]
    usual = max(set(runs), key=runs.count)
    out = [f"| scenario | {' | '.join(configs)} |", "|---|" + "---|" * len(configs)]
    for sc in sorted({r["scenario"] for r in rows}, key=scenario_order):
        if common and any((sc, c) not in by for c in configs):
            continue
        cells = []
        for c in configs:
            r = by.get((sc, c))
            y = num(r[metric]) if r else None
            if y is None:
                cells.append("-")
                continue
            ci = num(r.get(metric + "_ci95"))
            txt = f"{y:.{digits}f}" + (f" +- {ci:.{digits}f}" if ci is not None else "")
            cells.append(txt + ("" if r["runs"] == usual else f" ({r['runs']} seeds)"))
        out.append(f"| {sc} | {' | '.join(cells)} |")
    return "\n".join(out)


def table(csv_paths, metric, digits=3, only=None, common=False):
    """A markdown table of one screen, or of several joined (a path or a list of screen.csv,
    screen_runs.csv or screen.sh trees): a row per scenario, a column per configuration
    (only those named in `only`, if given), "mean +- 95 % CI half-width" over the runs that
    are results, the number of seeds where a cell has other than the most common count and
    of the runs left out; with `common`, only the scenarios every configuration has. A
    configuration and scenario in two of the sources is an error."""
    if isinstance(csv_paths, str):
        csv_paths = [csv_paths]
    sources = [runs_path(p) for p in csv_paths]
    if None in sources:  # screens from before screen_runs.csv: their rounded aggregates
        return _aggregate_table(csv_paths, metric, digits, only, common)
    if metric not in RUN_METRICS:
        raise AnalysisError(f"{sources[0]}: no per-run column {metric!r}")
    groups, seen = {}, {}
    for i, path in enumerate(sources):
        for r in load_runs(path):
            if only and r["config"] not in only:
                continue
            key = (r["scenario"], r["config"])
            if seen.setdefault(key, i) != i:
                raise AnalysisError(f"{key[1]} at {key[0]} is in both {sources[seen[key]]} "
                                    f"and {path}")
            groups.setdefault(key, []).append(r)
    if not groups:
        raise AnalysisError(f"no configuration {','.join(only or [])} in {' '.join(csv_paths)}")
    configs = sorted({c for _, c in groups}, key=config_order)
    usual = usual_count(groups.values())
    out = [f"| scenario | {' | '.join(configs)} |", "|---|" + "---|" * len(configs)]
    for sc in sorted({s for s, _ in groups}, key=scenario_order):
        if common and any((sc, c) not in groups for c in configs):
            continue
        cells = [cell(groups[(sc, c)], metric, digits, usual=usual) if (sc, c) in groups
                 else "-" for c in configs]
        out.append(f"| {sc} | {' | '.join(cells)} |")
    return "\n".join(out)
