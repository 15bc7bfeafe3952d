"""flent's own plots of a run's flent data files (plot.py --flent): flent draws them, from
the .flent.gz files the run kept (testbed/lib/flent.sh), with its plotter (flent -i FILE -p
PLOT -o PNG); nothing here redraws what flent draws."""
import glob
import os
import shutil
import subprocess

from ..common import AnalysisError

# the plots drawn per test: throughput over time, flent's fairness bars, latency
PLOTS = {"rtt_fair_var_down": ("download", "bar_fairness", "ping"),
         "tcp_nup": ("upload", "totals", "ping"), "tcp_1up": ("totals", "ping")}


def flent_plots(top, outdir=None, plots=None):
    """PNG files (paths) of every flent data file under top: flent's PLOTS of its test, one
    PNG per plot, named <data file without .flent.gz>.<plot>.png (beside it, or in outdir)."""
    flent = shutil.which("flent")
    if not flent:
        raise AnalysisError("flent is not installed (scripts/setup.sh installs it)")
    files = sorted(glob.glob(os.path.join(top, "**", "*.flent.gz"), recursive=True))
    if not files:
        raise AnalysisError(f"{top}: no flent data files (*.flent.gz)")
    out = []
    env = dict(os.environ, MPLBACKEND="Agg")
    for f in files:
        test = os.path.basename(f).split("-", 1)[0]
        for p in plots or PLOTS.get(test, ("totals",)):
            png = os.path.join(outdir or os.path.dirname(f),
                               os.path.basename(f)[:-len(".flent.gz")] + f".{p}.png")
            r = subprocess.run([flent, "-i", f, "-p", p, "-o", png], capture_output=True,
                               text=True, env=env)
            if r.returncode != 0 or not os.path.exists(png):
                raise AnalysisError(f"flent could not plot {p} of {f}: "
                                    + " ".join((r.stderr or r.stdout).split())[-300:])
            out.append(png)
    return out
