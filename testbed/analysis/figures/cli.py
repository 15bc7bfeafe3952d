"""plot.py's command line (plots/plot.py is its entry point; usage in its docstring)."""
import argparse
import os
import sys

from .. import docs
from ..cli import cli_errors
from ..common import AnalysisError
from ..run import find_runs
from ..tables import table
from .cellular import delay_throughput
from .coexist import coexist_shares
from .paper import FIG_SCENARIO, fig5, fig_plot, screen_grid
from .evaluation import loss_plot, series_plot
from .flentplot import flent_plots
from .runs import compare, sweep_plot, timeseries

DESCRIPTION = "Plots of testbed results (matplotlib, Agg backend; PNG files)."

# What the paths are (--help's order): a flag each, but --fig, which names its figure.
MODES = {
    "--sweep": "the paths are sweep CSVs",
    "--screen": "the paths are screen.csv files",
    "--compare": "the paths are rtt_fairness.sh results directories",
    "--fig": "the paths are screen.csv files of reproduce.sh fig4 / fig8",
    "--fig5": "the paths are testbed/reproduce.sh fig5 screens (DIR/fig5)",
    "--flent": "flent's own plots of the flent data files under the paths "
               "(runs with scenario.sh --flent)",
    "--eval-series": "the paths are analyze.py --evaluation _series.csv files: queue and "
                     "RTT over time per qdisc (eval_series.png)",
    "--eval-loss": "the paths are analyze.py --evaluation CSVs of a loss sweep: "
                   "utilisation against loss (eval_loss.png)",
    "--coexist": "the paths are coexistence screens (screen_runs.csv): each '+' "
                 "item's first cc's share against the buffer (shares.png)",
    "--delay-throughput": "the paths are screens (screen_runs.csv or screen.sh trees): each "
                          "cc's throughput against its 95th-percentile queueing delay, a panel "
                          "per screen and scenario (delay_throughput.png beside the first); "
                          "a path may join screens, each narrowed to some ccs: "
                          "'old@bbr,cubic+new'",
}
# What --table, --coexist and --docs take besides: flags, but --only, which names configurations.
SWITCHES = {
    "--join": "with --table: one table of all the screen.csv files; with "
              "--coexist: one figure of all the screens' runs",
    "--only": "with --table or --coexist: only these configurations (comma separated)",
    "--common": "with --table: only the scenarios every configuration has",
    "--docs": "rewrite the generated tables of README.md, docs/*.md and "
              "docs/results/**/README.md (or of the "
              "Markdown files given) from the committed data they name",
    "--check": "with --docs: write nothing; exit 1 naming the blocks that differ",
}


# The modes that draw each path on its own (in the order they win when several are given):
# the PNG(s) each draws, as printed.
PER_PATH = (
    ("sweep", lambda p, a: sweep_plot(p, a.outdir)),
    ("screen", lambda p, a: screen_grid(p, a.outdir)),
    ("compare", lambda p, a: compare(p, a.outdir)),
    ("fig", lambda p, a: fig_plot(p, a.fig, a.outdir)),
    ("fig5", lambda p, a: "\n".join(fig5(p, a.outdir))),
    ("flent", lambda p, a: "\n".join(flent_plots(p, a.outdir))),
    ("eval_series", lambda p, a: series_plot(p, a.outdir)),
    ("eval_loss", lambda p, a: loss_plot(p, a.outdir)),
)


def docs_command(a):
    """plot.py --docs [--check] [FILE...]: the generated blocks of README.md, docs/*.md
    and the results' READMEs (or of FILEs), rewritten, or with --check compared: exit 1 naming those that differ."""
    differ = docs.update([os.path.abspath(p) for p in a.paths] or None, check=a.check)
    for path, names in differ.items():
        rel = os.path.relpath(path, docs.REPO)
        print(f"{rel}: {'stale' if a.check else 'rewritten'}: {', '.join(names)}",
              file=sys.stderr if a.check else sys.stdout)
    if a.check and differ:
        print("plot.py: the blocks above differ from their data: plots/plot.py --docs "
              "rewrites them (a number in a block is generated, not typed)", file=sys.stderr)
        return 1
    return 0


def command(a):
    """The work of one plot.py command line (parsed: a): draws, prints the PNGs' paths."""
    if a.docs:
        return docs_command(a)
    if not a.paths:
        raise AnalysisError("give a DIR or CSV (or --docs)")
    if a.outdir:
        os.makedirs(a.outdir, exist_ok=True)
    per_path = next((draw for mode, draw in PER_PATH if getattr(a, mode)), None)
    if per_path:
        for p in a.paths:
            print(per_path(p, a))
    elif a.coexist:
        only = a.only.split(",") if a.only else None
        for p in [a.paths] if a.join else a.paths:
            print(coexist_shares(p, outdir=a.outdir, only=only))
    elif a.delay_throughput:
        print(delay_throughput(a.paths, a.titles.split(",") if a.titles else [], a.outdir))
    elif a.table:
        only = a.only.split(",") if a.only else None
        for p in [a.paths] if a.join else a.paths:
            print(table(p, a.table, only=only, common=a.common))
    else:
        for top in a.paths:
            runs = find_runs(top)
            if not runs:
                raise AnalysisError(f"{top}: no run directories (params.env) found")
            for d in runs:
                print(timeseries(d, a.outdir))
    return 0


def main(argv=None):
    """plot.py's command line (see the module's docstring); returns the exit status."""
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("paths", nargs="*", metavar="DIR|CSV")
    for opt, text in MODES.items():
        if opt == "--fig":
            ap.add_argument("--fig", choices=sorted(FIG_SCENARIO), help=text)
        else:
            ap.add_argument(opt, action="store_true", help=text)
    ap.add_argument("--titles", metavar="T1,T2",
                    help="with --delay-throughput: a title per path for its panels")
    ap.add_argument("--table", metavar="METRIC",
                    help="print a markdown table of a screen.csv column (jain, utilization, "
                         "retrans_rate, ...): mean +- 95 %% CI per scenario and configuration")
    for opt, text in SWITCHES.items():
        if opt == "--only":
            ap.add_argument("--only", metavar="CONFIGS", help=text)
        else:
            ap.add_argument(opt, action="store_true", help=text)
    ap.add_argument("--outdir", help="where PNGs go (default: next to the data)")
    return cli_errors("plot.py", command, ap.parse_args(argv))
