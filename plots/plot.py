#!/usr/bin/python3
"""Plots of testbed results (matplotlib, Agg backend; PNG files).

    plot.py DIR [--outdir OUT]
        DIR is a run directory or a tree of them. Per run: timeseries.png with per-flow
        throughput (iperf3 receiver intervals), cwnd, smoothed RTT, BBR pacing_gain (from
        ss samples) and the bottleneck queue (tc backlog, as bytes and as delay).
        The numbers come from testbed/analyze.py, computed in memory; no data file is
        written (analyze.py DIR writes the CSVs and run_summary.json).
    plot.py --compare DIR [--outdir OUT]
        DIR is an rtt_fairness.sh results directory (summary.json): comparison.png with,
        for the first run of each cc in --cc order, throughput over time per flow (titled
        with Jain's index and utilisation, and for an A+B item each cc's share), and the
        bottleneck's queueing delay of all.
    plot.py --sweep CSV [CSV...] [--outdir OUT]
        The sweep figures from analyze.py --sweep-csv CSVs: Jain vs buffer, Jain vs RTT ratio,
        utilisation vs loss, retransmission rate vs number of flows.
    plot.py --screen CSV [CSV...] [--outdir OUT]
        screen_grid.png from a testbed/screen.sh table (analyze.py --screen-csv): Jain vs
        buffer (10 vs 50 ms) and vs RTT ratio (5 BDP), with 95 % CIs and the paper's NS-3
        values (Figs. 6 and 7) beside them.
    plot.py --fig fig4|fig8 CSV [--outdir OUT]
        fig4.png (utilisation vs random loss) or fig8.png (retransmission rate vs number of
        flows) from a testbed/reproduce.sh screen.csv, one panel per buffer, with 95 % CIs
        and the paper's values.
    plot.py --table METRIC CSV [CSV...] [--join] [--only CONFIGS] [--common]
        A markdown table of a screen (screen.csv, screen_runs.csv or a screen.sh tree): a
        row per scenario, a column per configuration, the metric's mean +- 95 % CI
        half-width computed from the per-run values (screen_runs.csv beside a screen.csv)
        and rounded once, runs that are not results left out and counted.
        --join: one table of all the files (e.g. one configuration's scenarios from several
        figures beside another screen's); --only: just these configurations; --common:
        just the scenarios every configuration has.
    plot.py --fig5 DIR [--outdir OUT]
        fig5_b0.5.png and fig5_b5.png from a testbed/reproduce.sh fig5 screen: one panel per
        algorithm, seed 1's flows over time, our 50/10 ms throughput ratio (all seeds) and
        the paper's numbers for the figure; and fig5.csv, per buffer and algorithm the mean
        and 95 % CI over the seeds of each flow's throughput, their ratio, Jain's index and
        the utilisation, with the paper's numbers.

    plot.py --flent DIR [--outdir OUT]
        flent's own plots (flent -i FILE -p PLOT) of every *.flent.gz under DIR: runs whose
        traffic was flent's (rtt_fairness.sh --flent); PNGs beside the data files.
    plot.py --eval-series CSV / --eval-loss CSV [--outdir OUT]
        From analyze.py --evaluation's CSVs: eval_series.png (the queue and the RTT over
        time per qdisc under a rate schedule, seed 002) or eval_loss.png (utilisation
        against random loss, seed 003).

    plot.py --delay-throughput SCREEN [SCREEN...] [--titles T1,T2] [--outdir OUT]
        delay_throughput.png (Pantheon's form) beside the first screen (screen_runs.csv or
        screen.sh tree): a panel per screen and scenario, each cc's runs' total throughput
        against their 95th-percentile queueing delay, the delay axis reversed.

    plot.py --coexist PATH [PATH...] [--join] [--only CONFIGS] [--outdir OUT]
        shares.png from coexistence screens (screen_runs.csv or screen.sh trees): each '+'
        item's first cc's share against the buffer, a panel per RTT (scenarios c<BDP>:
        20 ms, d<BDP>: 50 ms), 95 % CIs over the seeds. --join: one figure of all the
        screens' runs (a curve's legend names its kernel when they ran on more than one);
        --only: just these configurations.

    plot.py --docs [--check] [FILE.md...]
        Rewrite the generated tables of README.md, docs/*.md and docs/results/**/README.md
        (between <!-- table:NAME --> and <!-- /table -->; testbed/analysis/docs_blocks.py
        says what each renders, from committed data) and each block's provenance file,
        docs/results/provenance/NAME.md; --check writes nothing and exits 1 naming the
        blocks that differ.

The code is testbed/analysis/figures/ (and analysis/tables.py, analysis/docs.py).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testbed"))
from analysis.figures.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
