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
    if a.sweep:
        for p in a.paths:
            print(sweep_plot(p, a.outdir))
    elif a.screen:
        for p in a.paths:
            print(screen_grid(p, a.outdir))
    elif a.compare:
        for p in a.paths:
            print(compare(p, a.outdir))
    elif a.fig:
        for p in a.paths:
            print(fig_plot(p, a.fig, a.outdir))
    elif a.fig5:
        for p in a.paths:
            print("\n".join(fig5(p, a.outdir)))
    elif a.flent:
        for p in a.paths:
            print("\n".join(flent_plots(p, a.outdir)))
    elif a.eval_series:
        for p in a.paths:
            print(series_plot(p, a.outdir))
    elif a.eval_loss:
        for p in a.paths:
            print(loss_plot(p, a.outdir))
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
    ap.add_argument("--sweep", action="store_true", help="the paths are sweep CSVs")
    ap.add_argument("--screen", action="store_true", help="the paths are screen.csv files")
    ap.add_argument("--compare", action="store_true",
                    help="the paths are rtt_fairness.sh results directories")
    ap.add_argument("--fig", choices=sorted(FIG_SCENARIO),
                    help="the paths are screen.csv files of reproduce.sh fig4 / fig8")
    ap.add_argument("--fig5", action="store_true",
                    help="the paths are testbed/reproduce.sh fig5 screens (DIR/fig5)")
    ap.add_argument("--flent", action="store_true",
                    help="flent's own plots of the flent data files under the paths "
                         "(runs with scenario.sh --flent)")
    ap.add_argument("--eval-series", action="store_true",
                    help="the paths are analyze.py --evaluation _series.csv files: queue and "
                         "RTT over time per qdisc (eval_series.png)")
    ap.add_argument("--eval-loss", action="store_true",
                    help="the paths are analyze.py --evaluation CSVs of a loss sweep: "
                         "utilisation against loss (eval_loss.png)")
    ap.add_argument("--coexist", action="store_true",
                    help="the paths are coexistence screens (screen_runs.csv): each '+' "
                         "item's first cc's share against the buffer (shares.png)")
    ap.add_argument("--delay-throughput", action="store_true",
                    help="the paths are screens (screen_runs.csv or screen.sh trees): each "
                         "cc's throughput against its 95th-percentile queueing delay, a panel "
                         "per screen and scenario (delay_throughput.png beside the first)")
    ap.add_argument("--titles", metavar="T1,T2",
                    help="with --delay-throughput: a title per path for its panels")
    ap.add_argument("--table", metavar="METRIC",
                    help="print a markdown table of a screen.csv column (jain, utilization, "
                         "retrans_rate, ...): mean +- 95 %% CI per scenario and configuration")
    ap.add_argument("--join", action="store_true",
                    help="with --table: one table of all the screen.csv files; with "
                         "--coexist: one figure of all the screens' runs")
    ap.add_argument("--only", metavar="CONFIGS",
                    help="with --table or --coexist: only these configurations (comma "
                         "separated)")
    ap.add_argument("--common", action="store_true",
                    help="with --table: only the scenarios every configuration has")
    ap.add_argument("--docs", action="store_true",
                    help="rewrite the generated tables of README.md, docs/*.md and "
                         "docs/results/**/README.md (or of the "
                         "Markdown files given) from the committed data they name")
    ap.add_argument("--check", action="store_true",
                    help="with --docs: write nothing; exit 1 naming the blocks that differ")
    ap.add_argument("--outdir", help="where PNGs go (default: next to the data)")
    return cli_errors("plot.py", command, ap.parse_args(argv))
