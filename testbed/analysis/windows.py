"""How a mixed run's split evolves: each cc's share of the throughput in consecutive time
windows, per job of a screen (analyze.py --share-windows), so that a run length can be
chosen where the split has settled (docs/notebook/coexistence.md's convergence check)."""
import collections
import csv
import os

from .common import AnalysisError
from .screen import job_runs

WINDOW_COLS = ["config", "scenario", "seed", "t0_s", "t1_s", "part", "cc", "share", "kernel",
               "module_version", "module_srcversion"]


def flow_parts(flows_txt):
    """{flow index: (part, cc)} from a run's flows.txt (index class rtt_ms cc ...): the
    part of the item (its RTT class, from 1) each flow belongs to."""
    with open(flows_txt) as f:
        return {int(w[0]): (int(w[1]), w[3]) for w in (ln.split() for ln in f) if len(w) > 3}


def run_windows(throughput_csv, parts, window_s, end_s):
    """[(t0, t1, {(part, cc): share})] of one run's throughput.csv: the bytes each part's
    flows delivered in intervals starting in [t0, t1), over all flows' bytes there."""
    with open(throughput_csv) as f:
        rows = list(csv.DictReader(f))
    out = []
    t0 = 0.0
    while t0 + window_s <= end_s + 1e-9:
        got = collections.Counter()
        for r in rows:
            if t0 <= float(r["t_start_s"]) < t0 + window_s:
                got[parts[int(r["flow"])]] += int(r["bytes"])
        total = sum(got.values())
        if total:
            out.append((t0, t0 + window_s, {k: b / total for k, b in got.items()}))
        t0 += window_s
    return out


def screen_windows(screen_dir, window_s):
    """WINDOW_COLS rows of every job of a screen.sh tree (<config>/<scenario>/seed<N>/ with
    one run directory holding throughput.csv and run.env)."""
    rows = []
    for config, scenario, seed, run, env in job_runs(screen_dir, "throughput.csv"):
        end = float(env.get("duration_s", 0))
        parts = flow_parts(os.path.join(run, "flows.txt"))
        for t0, t1, shares in run_windows(os.path.join(run, "throughput.csv"), parts,
                                          window_s, end):
            for (part, cc), share in sorted(shares.items()):
                rows.append([config, scenario, seed, t0, t1, part, cc, round(share, 6),
                             env.get("kernel", ""), env.get("module_version", ""),
                             env.get("module_srcversion", "")])
    if not rows:
        raise AnalysisError(f"{screen_dir}: no jobs with throughput.csv")
    return rows
