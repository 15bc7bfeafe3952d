"""testbed/reproduce.sh: each figure is a screen over the paper's grid (checked through
screen.sh --dry-run: the jobs and their rtt_fairness.sh arguments), and bad input stops it
with exit 2 before anything runs; screen.sh's scenarios take loss and flows per RTT class."""
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RP = REPO / "testbed" / "reproduce.sh"


def dry(tmp_path, *args):
    p = subprocess.run([str(RP), *args, "--out", str(tmp_path / "rp"), "--dry-run"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return [line for line in p.stdout.splitlines() if line.startswith(("todo ", "done ", "stale "))]


@pytest.mark.parametrize("fig,n,probe", [
    ("fig4", 8, "l6-b5/seed1 --cc bbr --rtt 10,50 --buffer-bdp 5 --loss 6 --seed 1"),
    ("fig5", 2, "b0.5/seed1 --cc bbr --rtt 10,50 --buffer-bdp 0.5 --seed 1"),
    ("fig6", 14, "b100/seed1 --cc bbr --rtt 10,50 --buffer-bdp 100 --seed 1"),
    ("fig7", 10, "r70/seed1 --cc bbr --rtt 10,70 --buffer-bdp 5 --seed 1"),
    ("fig8", 14, "n100-b0.1/seed1 --cc bbr --rtt 10 --buffer-bdp 0.1 --flows-per-rtt 100 --seed 1"),
])
def test_figure_grids(tmp_path, fig, n, probe):
    jobs = dry(tmp_path, fig, "--ccs", "bbr", "--seeds", "1")
    assert len(jobs) == n
    assert any(j.rstrip().endswith(probe) for j in jobs), jobs


def test_all_is_every_figure_for_every_cc_and_seed(tmp_path):
    jobs = dry(tmp_path, "all", "--ccs", "bbr,bbr_a_fair", "--seeds", "1,2")
    assert len(jobs) == (8 + 2 + 14 + 10 + 14) * 2 * 2


@pytest.mark.parametrize("args,msg", [
    ([], "name a figure"),
    (["fig9"], "unknown argument 'fig9'"),
    (["fig6", "--ccs", "bbr,,x"], "--ccs"),
    (["fig6", "--duration", "0"], "--duration"),
    (["fig6", "--seeds"], "--seeds needs a value"),
])
def test_bad_input_exits_2(tmp_path, args, msg):
    p = subprocess.run([str(RP), "--out", str(tmp_path / "rp"), *args], capture_output=True, text=True)
    assert p.returncode == 2 and msg in p.stderr


def test_screen_rejects_a_scenario_with_too_many_fields(tmp_path):
    cfg = tmp_path / "c.txt"
    cfg.write_text("bbr bbr\n")
    p = subprocess.run([str(REPO / "testbed" / "screen.sh"), "--configs", str(cfg), "--out",
                        str(tmp_path / "s"), "--scenarios", "x:10+50:1:0:1:9", "--dry-run"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "NAME:RTTS:BDP[:LOSS[:FLOWS_PER_RTT]]" in p.stderr


def test_points_runs_only_the_named_points(tmp_path):
    """--points b50,b100: the jobs of those points only (re-running a few without making the
    figure's other jobs stale), in the grid's order; a point the figure lacks is an error."""
    jobs = dry(tmp_path, "fig6", "--ccs", "cubic", "--seeds", "1,2", "--points", "b100,b50")
    assert [j.split()[1] for j in jobs] == ["cubic/b50/seed1", "cubic/b50/seed2",
                                           "cubic/b100/seed1", "cubic/b100/seed2"]
    p = subprocess.run([str(RP), "fig6", "--points", "b7", "--out", str(tmp_path / "rp"),
                        "--dry-run"], capture_output=True, text=True)
    assert p.returncode == 2 and "fig6 has none of b7" in p.stderr and "b0.1,b0.2" in p.stderr
