"""Markdown tables of screens (plots/plot.py --table, and the docs' generated blocks)."""
import re

from .common import AnalysisError, num, read_csv


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
            raise AnalysisError(f"{path}: no column {metric!r}")
        for r in part:
            if only and r["config"] not in only:
                continue
            key = (r["scenario"], r["config"])
            if key in seen:
                raise AnalysisError(f"{key[1]} at {key[0]} is in both {seen[key]} "
                                            f"and {path}")
            seen[key] = path
            rows.append(r)
    if not rows:
        raise AnalysisError(f"no configuration {','.join(only)} in "
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
