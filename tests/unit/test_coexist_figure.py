"""plot.py --coexist: the newcomer's share against the buffer, from a screen's runs."""
import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "testbed"))
from analysis.figures.coexist import coexist_shares, share_points  # noqa: E402


def run(scenario, cc, shares, problems=""):
    return {"scenario": scenario, "cc": cc, "shares": shares, "problems": problems}


def test_share_points_groups_by_prefix_item_and_buffer():
    runs = [run("c0.5", "bbr_a_fair+cubic", [0.6, 0.4]),
            run("c0.5", "bbr_a_fair+cubic", [0.4, 0.6]),
            run("c0.5", "bbr_a_fair+cubic", [0.9, 0.1], problems="collapsed"),  # not a result
            run("c20", "bbr_a_fair+cubic", [0.5, 0.5]),
            run("d2", "bbr+cubic", [0.8, 0.2]),
            run("s0.5", "cubic", [1.0])]  # a solo reference: no share to draw
    pts = share_points(runs)
    assert sorted(pts) == ["c", "d"]
    (b0, m0, h0, n0), (b1, m1, _, n1) = pts["c"]["bbr_a_fair+cubic"]
    assert (b0, n0, b1, n1) == (0.5, 2, 20.0, 1)
    assert abs(m0 - 0.5) < 1e-12 and h0 > 0 and m1 == 0.5
    assert pts["d"]["bbr+cubic"] == [(2.0, 0.8, 0.0, 1)]


def test_png_from_a_runs_csv(tmp_path):
    p = tmp_path / "screen_runs.csv"
    with open(p, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["config", "scenario", "cc", "seed", "shares", "problems"])
        for seed, sh in ((1, "0.55/0.45"), (2, "0.45/0.55")):
            w.writerow(["fair", "c1", "bbr_a_fair+cubic", seed, sh, ""])
            w.writerow(["fair", "c5", "bbr_a_fair+cubic", seed, sh, ""])
    out = coexist_shares(str(p))
    assert Path(out) == tmp_path / "shares.png" and Path(out).stat().st_size > 1000


def test_configs_of_one_item_are_curves_of_their_own():
    """Two configurations that run the same item with other module parameters are two
    curves, not one mean over both."""
    runs = [dict(run("c1", "bbr_a_fair+cubic", [0.6, 0.4]), config="fair"),
            dict(run("c1", "bbr_a_fair+cubic", [0.4, 0.6]), config="dips2"),
            dict(run("c1", "bbr+cubic", [0.8, 0.2]), config="bbr")]
    pts = share_points(runs)["c"]
    assert sorted(pts) == ["bbr+cubic", "bbr_a_fair+cubic (dips2)", "bbr_a_fair+cubic (fair)"]
    assert pts["bbr_a_fair+cubic (fair)"] == [(1.0, 0.6, 0.0, 1)]


def test_join_draws_several_screens_as_one_figure(tmp_path):
    """--coexist --join --only: the chosen configurations of two screens (on two kernels)
    in one figure, each curve's legend naming its kernel."""
    from analysis.figures.coexist import kernel_labels
    paths = []
    for name, cfg, cc, kernel in (("a", "bbr", "bbr+cubic", "6.1.192"),
                                  ("b", "bbr3", "bbr3+cubic", "6.12.117")):
        p = tmp_path / name / "screen_runs.csv"
        p.parent.mkdir()
        with open(p, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["config", "scenario", "cc", "seed", "shares", "problems", "kernel"])
            for seed in (1, 2):
                w.writerow([cfg, "c1", cc, seed, "0.6/0.4", "", kernel])
                w.writerow(["other", "c1", "cubic+cubic", seed, "0.5/0.5", "", kernel])
        paths.append(str(p))
    out = coexist_shares(paths, outdir=str(tmp_path), only=["bbr", "bbr3"], name="j.png")
    assert Path(out) == tmp_path / "j.png" and Path(out).stat().st_size > 1000
    runs = [{"cc": "bbr+cubic", "kernel": "6.1.192"}, {"cc": "bbr3+cubic", "kernel": "6.12.117"}]
    assert kernel_labels(runs) == {"bbr+cubic": " on 6.1.192", "bbr3+cubic": " on 6.12.117"}
    assert kernel_labels(runs[:1]) == {}
