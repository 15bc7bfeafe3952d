"""Markdown tables of screens (analysis/tables.py, plots/plot.py --table): means and CIs
computed from the per-run values, rounded once; runs that are not results left out."""
import csv
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "testbed"))
from analysis import tables  # noqa: E402


def test_rounding_happens_once_from_the_runs():
    """screen.csv held means rounded to 5 decimals: bbr_a's retransmissions with one flow in
    0.1 BDP (Fig. 8) were 0.0135 there, which plot.py --table printed as 0.013 and the docs
    typed as 1.3 %; the runs' mean is 1.35004 %."""
    runs = [r for r in tables.load_runs(str(REPO / "docs/results/reproduce/fig8/screen_runs.csv"))
            if (r["config"], r["scenario"]) == ("bbr_a", "n1-b0.1")]
    assert tables.cell(runs, "retrans_rate", 1, 100) == "1.4 +- 0.3"
    assert f"{0.0135:.3f}" == "0.013"  # what rounding the rounded mean again gave


def test_table_reads_the_runs_beside_a_screen_csv(tmp_path):
    """plot.py --table on a screen.csv takes the per-run values of its screen_runs.csv, and
    leaves out (and counts) runs that are not results."""
    cols = ["config", "scenario", "seed", "jain", "problems"]
    with open(tmp_path / "screen_runs.csv", "w", newline="") as f:
        csv.writer(f).writerows([cols, ["a", "b5", 1, 0.00135, ""], ["a", "b5", 2, 0.001350087, ""],
                                 ["a", "b5", 3, 0.2, "delivery (0.198 of the link)"]])
    with open(tmp_path / "screen.csv", "w", newline="") as f:
        csv.writer(f).writerows([["config", "scenario", "runs", "jain", "jain_ci95"],
                                 ["a", "b5", 3, 0.00135, 0.0]])
    out = tables.table(str(tmp_path / "screen.csv"), "jain", digits=5)
    assert out.splitlines()[2] == "| b5 | 2 runs: 0.00135, 0.00135 (1 excluded) |"
