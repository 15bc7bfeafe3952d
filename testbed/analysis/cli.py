"""analyze.py's command line (testbed/analyze.py is its entry point; usage in its docstring)."""
import argparse
import collections
import csv
import json
import os
import sys

from .checks import notes, problems
from .common import DEFAULT_COOLDOWN, AnalysisError, save_csv
from .cost import ack_cost_summary, cost_summary
from .stress import STRESS_COLS, stress_row
from .run import find_runs
from .screen import SCREEN_RUN_COLS, print_screen, print_screen_markdown, screen_runs, screen_table
from .summary import print_table, summarize
from .sweep import SWEEP_COLS, sweep_rows
from .trace import (SCREEN_BOUND_COLS, SCREEN_DIP_COLS, TRACE_BIN_COLS, TRACE_DIP_COLS,
                    screen_bounds, screen_dips, trace_bins, trace_dips)
from .evaluation import SERIES_COLS, evaluation_runs, evaluation_series
from .windows import WINDOW_COLS, screen_windows

DESCRIPTION = "Analysis of testbed runs (the only place where raw outputs become numbers)."

# The options from --trace-dips on (--help's order), most a command on a screen tree that
# writes a CSV; --check reads a DIR, --window-s is a number of seconds.
SCREEN_OPTIONS = {
    "--trace-dips":
        "each PROBE_RTT of RUN_DIR's trace.csv, "
        "or of every job of the screen tree DIR (the queue it left, whether "
        "min_rtt's window had expired), to CSV",
    "--trace-bounds":
        "per job of the screen tree DIR "
        "and bbr_a_fair flow: the highest loss-learned bound, with and without a "
        "competitor flagged, and the highest cwnd, to CSV",
    "--check":
        "whether each run of DIR/summary.json is "
        "a result: exit 1 naming the problems of those that are not",
    "--share-windows":
        "each cc's share in consecutive "
        "windows of every job of the screen tree DIR, to CSV",
    "--window-s":
        "with --share-windows: window, s",
    "--evaluation":
        "one row per job of the screen tree "
        "DIR with its evaluation metrics (analysis/evaluation.py: FCT, convergence, "
        "rate phases, flent), to CSV; with rate schedules also CSV's _series.csv",
    "--stress-csv":
        "one row per tests/stress.sh run: "
        "each DIR's summary.json (analysis/stress.py)",
    "--ack-cost":
        "summarise scripts/bench_ack.sh's rows: "
        "each cc's ns per ACK, less the ACK model's, and its ratio to the first cc's",
    "--cost":
        "summarise scripts/bench_cost.sh's rows: "
        "CPU s per GB sent of each cc, and A/B per pair",
}


def trace_bins_command(a):
    """analyze.py --trace-bins CSV RUN_DIR: the run's gain trace in --bin-s bins."""
    if len(a.dirs) != 1:
        raise AnalysisError("--trace-bins needs one run directory (with trace.csv)")
    with open(os.path.join(a.dirs[0], "trace.csv")) as f:
        rows = trace_bins(list(csv.DictReader(f)), a.bin_s)
    save_csv(a.trace_bins, TRACE_BIN_COLS, rows)
    return 0


def trace_dips_command(a):
    """analyze.py --trace-dips CSV DIR: each PROBE_RTT of the gain trace of a run directory
    (with trace.csv), or of every job of a screen.sh tree."""
    if len(a.dirs) != 1:
        raise AnalysisError("--trace-dips needs one run directory or screen tree")
    trace = os.path.join(a.dirs[0], "trace.csv")
    if not os.path.exists(trace):
        save_csv(a.trace_dips, SCREEN_DIP_COLS, screen_dips(a.dirs[0]))
        return 0
    with open(trace) as f:
        rows = trace_dips(list(csv.DictReader(f)))
    save_csv(a.trace_dips, TRACE_DIP_COLS, rows)
    return 0


def trace_bounds_command(a):
    """analyze.py --trace-bounds CSV DIR: the loss-learned bound's highest values in each
    job of a screen.sh tree, per flow."""
    if len(a.dirs) != 1:
        raise AnalysisError("--trace-bounds needs one screen tree")
    save_csv(a.trace_bounds, SCREEN_BOUND_COLS, screen_bounds(a.dirs[0]))
    return 0


def parser():
    """The command line of analyze.py."""
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("dirs", nargs="*", metavar="DIR")
    ap.add_argument("--warmup", type=float, help="seconds excluded at the start "
                    "(default: warmup_s of each run)")
    ap.add_argument("--cooldown", type=float, help="seconds excluded at the end "
                    f"(default: cooldown_s of each run, else {DEFAULT_COOLDOWN:g})")
    ap.add_argument("--summary", help="summary.json path (default DIR/summary.json)")
    ap.add_argument("--quiet", action="store_true", help="no table")
    ap.add_argument("--sweep-csv", metavar="CSV", help="write one row per run to CSV")
    ap.add_argument("--sweep", default="", help="sweep name for --sweep-csv rows")
    ap.add_argument("--screen", metavar="DIR", help="summarise a testbed/screen.sh tree")
    ap.add_argument("--screen-csv", metavar="CSV", help="with --screen: write the table here")
    ap.add_argument("--markdown", action="store_true", help="with --screen: print Markdown")
    ap.add_argument("--trace-bins", metavar="CSV", help="RUN_DIR's trace.csv in time bins, "
                    "per flow (PROBE_BW events), to CSV")
    ap.add_argument("--bin-s", type=float, default=2.0, help="with --trace-bins: bin width, s")
    for opt, text in SCREEN_OPTIONS.items():
        if opt == "--window-s":
            ap.add_argument(opt, type=float, default=30.0, help=text)
        else:
            ap.add_argument(opt, metavar="DIR" if opt == "--check" else "CSV", help=text)
    return ap


def screen_command(a):
    """analyze.py --screen DIR: the screen table, printed and with --screen-csv written."""
    rows = screen_runs(a.screen)
    if not rows:
        raise AnalysisError(f"{a.screen}: no finished screen jobs "
                            "(<config>/<scenario>/seed<N>/summary.json)")
    # job keys name the kernel only since 2026-11-25: a screen resumed after the kernel
    # moved (a new linux-source-6.1) could mix kernels, which its reader must be told
    kernels = collections.Counter(r[SCREEN_RUN_COLS.index("kernel")] for r in rows)
    if len(kernels) > 1:
        print(f"analyze.py: warning: {a.screen}: its runs were made on {len(kernels)} kernels ("
              + ", ".join(f"{k}: {n}" for k, n in sorted(kernels.items(), key=str))
              + "); the statistics mix them", file=sys.stderr)
    bad = [r for r in rows if r[SCREEN_RUN_COLS.index("problems")]]
    for r in bad:
        print(f"analyze.py: warning: {r[0]}/{r[1]}/seed{r[2]} is not a result, left out of the "
              f"table: {r[SCREEN_RUN_COLS.index('problems')]}", file=sys.stderr)
    table = screen_table(rows)
    if a.screen_csv:
        save_csv(a.screen_csv, list(table[0]), [list(t.values()) for t in table])
        save_csv(os.path.splitext(a.screen_csv)[0] + "_runs.csv", SCREEN_RUN_COLS, rows)
    (print_screen_markdown if a.markdown else print_screen)(table)
    return 0


def check_command(a):
    """analyze.py --check DIR: whether each run of DIR/summary.json is a result (checks.py);
    prints the problems of those that are not, exit status 1 if there is one."""
    path = os.path.join(a.check, "summary.json")
    try:
        with open(path) as f:
            results = json.load(f)["results"]
    except (OSError, ValueError, KeyError) as e:
        raise AnalysisError(f"{path}: cannot read a summary ({e})")
    bad = 0
    for r in results:
        for n in notes(r):
            print(f"{r.get('cc')} run {r.get('run', '?')} ({r.get('dir')}): note: {n}")
        why = problems(r)
        if why:
            bad += 1
            print(f"{r.get('cc')} run {r.get('run', '?')} ({r.get('dir')}): not a result: "
                  + "; ".join(why))
    return 1 if bad else 0


def evaluation_command(a):
    """analyze.py --evaluation CSV DIR: the evaluation metrics of every job of screen tree
    DIR, one row per run; the rate-scheduled runs' queue and RTT over time beside it."""
    if len(a.dirs) != 1:
        raise AnalysisError("--evaluation needs one screen directory")
    cols, rows = evaluation_runs(a.dirs[0])
    if not rows:
        raise AnalysisError(f"{a.dirs[0]}: no finished screen jobs")
    save_csv(a.evaluation, cols, [[r.get(c) for c in cols] for r in rows])
    series = evaluation_series(a.dirs[0])
    if series:
        save_csv(os.path.splitext(a.evaluation)[0] + "_series.csv", SERIES_COLS, series)
    return 0


def bench_command(path, summarise):
    """analyze.py --cost CSV (summarise: cost_summary, of a scripts/bench_cost.sh CSV) or
    --ack-cost CSV (ack_cost_summary, scripts/bench_ack.sh's): the summary, as JSON."""
    with open(path) as f:
        print(json.dumps(summarise(list(csv.DictReader(f))), indent=1))
    return 0


def stress_command(a):
    """analyze.py --stress-csv CSV DIR...: a row per tests/stress.sh run (DIR/summary.json),
    named by DIR's last component."""
    if not a.dirs:
        raise AnalysisError("--stress-csv needs the runs' directories")
    rows = []
    for d in a.dirs:
        path = os.path.join(d, "summary.json")
        if not os.path.exists(path):
            raise AnalysisError(f"no {path}")
        with open(path) as f:
            rows.append(stress_row(os.path.basename(os.path.normpath(d)), json.load(f)))
    save_csv(a.stress_csv, STRESS_COLS, [[r[c] for c in STRESS_COLS] for r in rows])
    return 0


def sweep_command(a):
    """analyze.py --sweep-csv CSV DIR...: one row per run."""
    rows = sweep_rows(a.sweep, a.dirs, a.warmup, a.cooldown)
    if not rows:
        raise AnalysisError(f"no runs (params.env) under {' '.join(a.dirs)}")
    save_csv(a.sweep_csv, SWEEP_COLS, rows)
    return 0


def summary_command(a, ap):
    """analyze.py DIR: the runs' files, summary.json and the table."""
    if len(a.dirs) != 1:
        ap.error("give one DIR (or use --sweep-csv)")
    runs = find_runs(a.dirs[0])
    if not runs:
        raise AnalysisError(f"{a.dirs[0]}: no run directories (params.env) found")
    path = a.summary or os.path.join(a.dirs[0], "summary.json")
    summary = summarize(runs, a.warmup, a.cooldown, base=os.path.dirname(os.path.abspath(path)))
    with open(path, "w") as f:
        json.dump(summary, f, indent=1)
    if not a.quiet:
        print_table(summary)
        print(f"summary: {path}")
    return 0


def share_windows_command(a):
    """analyze.py --share-windows CSV DIR: each cc's share per --window-s window of every job
    of a screen tree."""
    if len(a.dirs) != 1:
        raise AnalysisError("--share-windows needs one screen directory")
    save_csv(a.share_windows, WINDOW_COLS, screen_windows(a.dirs[0], a.window_s))
    return 0


# The commands in the order they win when several are given; without any, --sweep-csv's or
# the summary of the runs.
COMMANDS = (("screen", screen_command), ("check", check_command),
            ("trace_bins", trace_bins_command), ("trace_dips", trace_dips_command),
            ("trace_bounds", trace_bounds_command),
            ("cost", lambda a: bench_command(a.cost, cost_summary)),
            ("ack_cost", lambda a: bench_command(a.ack_cost, ack_cost_summary)),
            ("stress_csv", stress_command),
            ("evaluation", evaluation_command), ("share_windows", share_windows_command),
            ("sweep_csv", sweep_command))


def command(a, ap):
    """The work of one analyze.py command line (parsed: a); returns the exit status."""
    for name, run in COMMANDS:
        if getattr(a, name):
            return run(a)
    return summary_command(a, ap)


def cli_errors(prog, fn, *args):
    """fn(*args) as the body of a command: an AnalysisError or OSError becomes one line
    'PROG: error: ...' on stderr (no traceback) and exit status 1."""
    try:
        return fn(*args)
    except AnalysisError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{prog}: error: {e.filename}: {e.strerror}", file=sys.stderr)
        return 1


def main(argv=None):
    """analyze.py's command line (see the module's docstring); returns the exit status."""
    ap = parser()
    return cli_errors("analyze.py", command, ap.parse_args(argv), ap)
