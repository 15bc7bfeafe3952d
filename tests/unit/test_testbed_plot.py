"""plots/plot.py on the recorded runs: the PNGs are written and are real images."""
import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIX = Path(__file__).resolve().parent / "fixtures"
PLOT = REPO / "plots" / "plot.py"
ANALYZE = REPO / "testbed" / "analyze.py"
PY = "/usr/bin/python3"

pytest.importorskip("matplotlib")
sys.path.insert(0, str(REPO / "testbed"))
from analysis import figures as plot  # noqa: E402


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_timeseries_png(tmp_path):
    for name in ("run_bbr_a_loss1", "run_bbr_5bdp_noss"):
        shutil.copytree(FIX / name, tmp_path / "res" / name)
    before = sorted((tmp_path / "res").rglob("*"))
    p = subprocess.run([PY, str(PLOT), str(tmp_path / "res"), "--outdir", str(tmp_path / "png")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert sorted((tmp_path / "res").rglob("*")) == before  # drawing writes no data files
    pngs = sorted((tmp_path / "png").glob("*.png"))
    assert [x.name for x in pngs] == ["res-run_bbr_5bdp_noss-timeseries.png",
                                      "res-run_bbr_a_loss1-timeseries.png"]
    for x in pngs:
        w, h = png_size(x)
        assert w >= 800 and h >= 800
        assert x.stat().st_size > 20000  # not an empty canvas


@pytest.mark.parametrize("sweep", ["buffer", "ratio", "loss", "flows"])
def test_sweep_png(tmp_path, sweep):
    runs = []
    for name in ("run_bbr_a_loss1", "run_bbr_5bdp_noss"):
        shutil.copytree(FIX / name, tmp_path / name)
        runs.append(str(tmp_path / name))
    csv_path = tmp_path / f"{sweep}.csv"
    p = subprocess.run([PY, str(ANALYZE), "--sweep-csv", str(csv_path), "--sweep", sweep, *runs],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    with open(csv_path) as f:
        assert len(list(csv.DictReader(f))) == 2
    p = subprocess.run([PY, str(PLOT), "--sweep", str(csv_path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    w, h = png_size(tmp_path / f"sweep_{sweep}.png")
    assert w > 500 and h > 300


def test_plot_reports_missing_dir(tmp_path):
    p = subprocess.run([PY, str(PLOT), str(tmp_path / "none")], capture_output=True, text=True)
    assert p.returncode == 1
    assert "no run directories" in p.stderr and "Traceback" not in p.stderr


def test_main_job_order_and_comparison_png(tmp_path):
    """The table lists ccs in --cc order (run.env cc_index) with a run number per cc, and
    --compare draws one throughput panel per cc plus the queue panel."""
    out = tmp_path / "out"
    # --cc bbr_a,bbr: bbr_a ran first, though "bbr" sorts first by name
    for cc, idx, fix in (("bbr", 2, "run_bbr_parallel"), ("bbr_a", 1, "run_bbr_a_loss1")):
        shutil.copytree(FIX / fix, out / cc / "run1")
        with open(out / cc / "run1" / "run.env", "a") as f:
            f.write(f"cc_index={idx}\nrepeat_index=1\n")
    p = subprocess.run([PY, str(ANALYZE), str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rows = [line.split()[:2] for line in p.stdout.splitlines()
            if line.startswith(("bbr ", "bbr_a "))]
    assert rows == [["bbr_a", "1"], ["bbr", "1"]], p.stdout
    p = subprocess.run([PY, str(PLOT), "--compare", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == str(out / "comparison.png")
    w, h = png_size(out / "comparison.png")
    assert w >= 800 and h >= 700  # two cc panels and the queue panel


def test_screen_grid_png(tmp_path):
    cols = ["config", "scenario", "cc", "rtts_ms", "buffer_bdp", "jain", "jain_ci95"]
    rows = [["bbr", "b1", "bbr", "10/50", "1", "0.63", "0.01"],
            ["bbr", "b5", "bbr", "10/50", "5", "0.62", ""],
            ["bbr", "r100", "bbr", "10/100", "5", "0.58", "0.02"],
            ["bbr", "f3", "bbr", "10/50/10", "5", "0.5", "0.1"],  # 3 RTT classes: not drawn
            ["fair", "b5", "bbr_a_fair", "10/50", "5", "0.99", "0.01"]]
    path = tmp_path / "screen.csv"
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows([cols] + rows)
    pts = plot.screen_points(plot.read_csv(str(path)))
    assert pts["bbr"]["buffer"] == [(1.0, 0.63, 0.01), (5.0, 0.62, 0)]
    assert sorted(pts["bbr"]["ratio"]) == [(5.0, 0.62, 0), (10.0, 0.58, 0.02)]
    assert pts["fair"]["ratio"] == [(5.0, 0.99, 0.01)]
    p = subprocess.run([PY, str(PLOT), "--screen", str(path)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "screen_grid.png").stat().st_size > 10_000



def test_screen_grid_legend_hides_no_data():
    """The legend sits under the panel, not on the curves (fig6's legend once covered bbr's
    fall from 0.5 to 1 BDP)."""
    pts = {"bbr": {"buffer": [(0.1, 1.0, 0), (1, 0.63, 0), (100, 0.63, 0)], "ratio": []},
           "cubic": {"buffer": [(0.1, 0.68, 0), (100, 0.78, 0)], "ratio": []}}
    fig, ax = plot.plt.subplots()
    plot.draw_screen_axis(ax, pts, "buffer", plot.PAPER_BUFFER, {"bbr": "bbr", "cubic": "cubic"})
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    assert ax.get_legend().get_window_extent(r).y1 <= ax.get_window_extent(r).y0
    plot.plt.close(fig)


def test_fig5_panels_from_a_screen(tmp_path):
    # a reproduce.sh fig5 screen in miniature: DIR/<cc>/<scenario>/seed<N>/ with the job's
    # rtt_fairness.sh output (a recorded run, analysed); bbr and bbr_a at both buffers
    screen = tmp_path / "fig5"
    for cc in ("bbr", "bbr_a"):
        for scen in ("b0.5", "b5"):
            job = screen / cc / scen / "seed1"
            shutil.copytree(FIX / "run_bbr_5bdp_noss", job / "bbr" / "run1")
            p = subprocess.run([PY, str(ANALYZE), str(job), "--quiet"], capture_output=True, text=True)
            assert p.returncode == 0, p.stderr
    *pngs, table = plot.fig5(str(screen), str(tmp_path))
    assert [Path(x).name for x in pngs] == ["fig5_b0.5.png", "fig5_b5.png"]
    rows = list(csv.DictReader(open(table)))
    assert [(r["scenario"], r["cc"], r["seeds"]) for r in rows] == [
        ("b0.5", "bbr", "1"), ("b0.5", "bbr_a", "1"), ("b5", "bbr", "1"), ("b5", "bbr_a", "1")]
    summary = json.loads((screen / "bbr" / "b5" / "seed1" / "summary.json").read_text())
    flows = summary["results"][0]["flows"]
    assert float(rows[2]["ratio_50_to_10"]) == round(
        flows[1]["throughput_mbps"] / flows[0]["throughput_mbps"], 2)
    assert rows[2]["ratio_ci95"] == "" and rows[2]["paper"] == plot.PAPER_FIG5[("bbr", "b5")]
    for x in pngs:
        w, h = png_size(Path(x))
        assert w >= 800 and h >= 300 and Path(x).stat().st_size > 20000
    with pytest.raises(plot.AnalysisError):
        plot.fig5(str(tmp_path / "empty"))


def test_fig5_from_committed_results_without_raw_runs(tmp_path):
    # what a clone has of a reproduction: each job's summary.json and job.key, no run dir
    job = tmp_path / "fig5" / "bbr" / "b5" / "seed1"
    shutil.copytree(FIX / "run_bbr_5bdp_noss", job / "bbr" / "run1")
    subprocess.run([PY, str(ANALYZE), str(job), "--quiet"], check=True, capture_output=True)
    shutil.rmtree(job / "bbr")
    *pngs, table = plot.fig5(str(tmp_path / "fig5"), str(tmp_path))
    assert len(pngs) == 2 and all(Path(x).stat().st_size > 10000 for x in pngs)
    rows = list(csv.DictReader(open(table)))
    assert [(r["scenario"], r["cc"]) for r in rows] == [("b5", "bbr")]


def test_fig5_title_has_our_ratio_and_the_papers(tmp_path):
    job = tmp_path / "bbr" / "b5" / "seed1"
    shutil.copytree(FIX / "run_bbr_5bdp_noss", job / "bbr" / "run1")
    subprocess.run([PY, str(ANALYZE), str(job), "--quiet"], check=True, capture_output=True)
    fig, ax = plot.plt.subplots()
    plot.fig5_panel(ax, str(tmp_path), "bbr", "b5")
    title = ax.get_title()
    plot.plt.close(fig)
    assert "ours 50/10 ms" in title and "(1 seeds)" in title
    assert "paper: 10 ms flow ~13.8 Mbit/s, 50 ms flow 5.9x" in title


@pytest.mark.parametrize("fig,scen,metric,want", [
    ("fig4", ["l0-b1", "l6-b1", "l0-b5", "l6-b5"], "utilization", {("bbr", 1.0): [0.0, 6.0]}),
    ("fig8", ["n1-b0.1", "n100-b0.1", "n1-b1"], "retrans_rate", {("bbr", 0.1): [1.0, 100.0]}),
])
def test_fig4_fig8_from_screen_csv(tmp_path, fig, scen, metric, want):
    cols = ["config", "scenario", "cc", "utilization", "utilization_ci95", "retrans_rate",
            "retrans_rate_ci95"]
    path = tmp_path / "screen.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for cc in ("bbr", "bbr_a"):
            for i, sc in enumerate(scen):
                w.writerow([cc, sc, cc, 0.95 - i / 100, 0.002, 0.01 * (i + 1), 0.001])
        w.writerow(["bbr", "b5", "bbr", 0.9, 0.01, 0.1, 0.01])  # not a fig4/fig8 scenario
    pts = plot.fig_points(plot.read_csv(path), fig)
    for key, xs in want.items():
        assert [x for x, _, _ in sorted(pts[key])] == xs
    assert sum(len(v) for v in pts.values()) == 2 * len(scen)  # the b5 row is not one of them
    png = Path(plot.fig_plot(str(path), fig, str(tmp_path)))
    w_, h_ = png_size(png)
    assert png.name == f"{fig}.png" and w_ >= 800 and h_ >= 300
    with pytest.raises(plot.AnalysisError):
        other = "fig8" if fig == "fig4" else "fig4"
        plot.fig_plot(str(path), other, str(tmp_path))


def test_table_rows_in_grid_order_columns_in_cc_order(tmp_path):
    path = tmp_path / "screen.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["config", "scenario", "cc", "runs", "jain", "jain_ci95"])
        w.writerow(["bbr_a", "l6-b1", "bbr_a", 5, 0.7, 0.01])
        w.writerow(["bbr", "l0-b5", "bbr", 5, 0.61234, 0.002])
        w.writerow(["bbr", "l6-b1", "bbr", 3, 0.6, 0.05])
        w.writerow(["bbr", "l0-b1", "bbr", 5, 0.62, ""])
    lines = plot.table(str(path), "jain").splitlines()
    assert lines[0] == "| scenario | bbr | bbr_a |"
    assert [ln.split(" | ")[0] for ln in lines[2:]] == ["| l0-b1", "| l6-b1", "| l0-b5"]
    assert lines[2] == "| l0-b1 | 0.620 | - |"
    assert lines[3] == "| l6-b1 | 0.600 +- 0.050 (3 seeds) | 0.700 +- 0.010 |"
    assert lines[4] == "| l0-b5 | 0.612 +- 0.002 | - |"
    with pytest.raises(plot.AnalysisError):
        plot.table(str(path), "no_such_metric")


def test_table_joins_screens_and_keeps_only_named_configs(tmp_path):
    cols = ["config", "scenario", "cc", "runs", "jain", "jain_ci95"]
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    for path, rows in ((a, [["fair", "b5", "bbr_a_fair", 5, 0.998, 0.001],
                            ["bbr", "b5", "bbr", 5, 0.63, 0.003]]),
                       (b, [["fair_q", "b5", "bbr_a_fair", 5, 1.0, 0.0],
                            ["fair", "l6-b5", "bbr_a_fair", 5, 0.824, 0.058]])):
        with open(path, "w", newline="") as f:
            csv.writer(f).writerows([cols] + rows)
    out = plot.table([str(a), str(b)], "jain", only=["fair", "fair_q"])
    assert out.splitlines() == ["| scenario | fair | fair_q |", "|---|---|---|",
                                "| b5 | 0.998 +- 0.001 | 1.000 +- 0.000 |",
                                "| l6-b5 | 0.824 +- 0.058 | - |"]
    assert plot.table([str(a), str(b)], "jain", only=["fair", "fair_q"],
                      common=True).splitlines()[2:] == ["| b5 | 0.998 +- 0.001 | 1.000 +- 0.000 |"]
    p = subprocess.run([PY, str(PLOT), "--table", "jain", "--join", str(a), str(a)],
                       capture_output=True, text=True)
    assert p.returncode == 1 and "is in both" in p.stderr, p.stderr
    p = subprocess.run([PY, str(PLOT), "--table", "jain", "--only", "nope", str(a)],
                       capture_output=True, text=True)
    assert p.returncode == 1 and "no configuration nope" in p.stderr, p.stderr


def test_summary_paths_are_relative_so_results_can_move(tmp_path):
    """summary.json names each run by its path from the summary's directory (run_summary.json
    by "."), not the machine's absolute path: a results directory copied elsewhere (a
    committed job, another clone) still finds its runs."""
    out = tmp_path / "out"
    shutil.copytree(FIX / "run_bbr_a_loss1", out / "bbr_a" / "run1")
    p = subprocess.run([PY, str(ANALYZE), str(out), "--quiet"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert [r["dir"] for r in summary["results"]] == ["bbr_a/run1"]
    assert json.loads((out / "bbr_a/run1/run_summary.json").read_text())["dir"] == "."
    moved = tmp_path / "elsewhere" / "out"
    shutil.move(str(out), str(moved))
    p = subprocess.run([PY, str(PLOT), "--compare", str(moved)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert png_size(moved / "comparison.png")[0] >= 800


def grid_rows(scenarios):
    """screen.csv rows of bbr and bbr_a_fair at these (scenario, rtts, bdp)."""
    return [{"config": cc, "cc": cc, "scenario": s, "rtts_ms": rtts, "buffer_bdp": bdp,
             "jain": str(0.6 + i / 100), "jain_ci95": "0.01"}
            for cc in ("bbr", "bbr_a_fair") for i, (s, rtts, bdp) in enumerate(scenarios)]


def test_fig6_and_fig7_show_only_their_own_axis(tmp_path):
    """Fig. 6's screen (buffers at 10 vs 50 ms) has one point on the ratio axis, its 5 BDP;
    Fig. 7's (ratios at 5 BDP) one on the buffer axis: each is drawn as its one panel."""
    fig6 = grid_rows([(f"b{x}", "10/50", str(x)) for x in (0.1, 1, 5, 100)])
    fig7 = grid_rows([(f"r{x}", f"10/{x}", "5") for x in (10, 50, 100)])
    both = grid_rows([("b1", "10/50", "1"), ("b5", "10/50", "5"), ("r100", "10/100", "5")])
    for rows, axes in ((fig6, ["buffer"]), (fig7, ["ratio"]), (both, ["buffer", "ratio"])):
        pts = plot.screen_points(rows)
        assert plot.grid_axes(pts) == axes
        fig, panels = plot.grid_figure(pts, {r["config"]: r["cc"] for r in rows})
        assert list(panels) == axes and len(fig.axes) == len(axes)
        plot.plt.close(fig)
    rows = grid_rows([("b5", "10/50", "5")])  # nothing with two points on either axis
    path = tmp_path / "screen.csv"
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with pytest.raises(plot.AnalysisError, match="no two-flow scenarios"):
        plot.screen_grid(str(path))


def test_the_papers_values_are_drawn_as_it_states_them():
    """BBR-A's ~0.95 holds over the whole ratio range: a line from ratio 1 to 10, not a point
    at 10; BBR's 0.59 is a point at ratio 10; a bound over every buffer a line over all."""
    pts = plot.screen_points(grid_rows([(f"r{x}", f"10/{x}", "5") for x in (10, 50, 100)]))
    fig, panels = plot.grid_figure(pts, {"bbr": "bbr", "bbr_a_fair": "bbr_a_fair"})
    lines = {ln.get_label(): ln for ln in panels["ratio"].get_lines()}
    bbr_a = lines["paper BBR-A: ~0.95 over the whole ratio range"]
    assert list(bbr_a.get_xdata()) == [1, 10] and bbr_a.get_linestyle() == "--"
    bbr = lines["paper BBR at ratio 10: 0.59"]
    assert list(bbr.get_xdata()) == [10] and bbr.get_marker() == "s"
    plot.plt.close(fig)
    assert ("paper BBR-A: >= 0.96 at every buffer", [0.1, 100], [0.96, 0.96], "bbr_a") \
        in plot.PAPER_BUFFER


def test_route_changes_are_in_the_summary_and_marked_on_the_timeseries(tmp_path):
    """A run with --delay-schedule has delay_changes.txt (uptime, class, new RTT): its summary
    lists each change in seconds after the first start, and timeseries.png marks each one
    (a line through every panel, named on the top one); a run without it has neither."""
    from analysis.run import run_analysis
    run = tmp_path / "run"
    shutil.copytree(FIX / "run_bbr_a_loss1", run)
    with open(run / "params.env", "a") as f:
        f.write("delay_schedule=1:3:25 1:7:10\n")
    (run / "delay_changes.txt").write_text("8.48 1 25\n12.5 1 10\n")  # t0_uptime=5.47
    res, _ = run_analysis(str(run))
    assert res["delay_changes"] == [{"t_s": 3.01, "class": 1, "rtt_ms": 25.0},
                                    {"t_s": 7.03, "class": 1, "rtt_ms": 10.0}]
    assert res["params"]["delay_schedule"] == "1:3:25 1:7:10"
    assert "delay_changes" not in run_analysis(str(FIX / "run_bbr_a_loss1"))[0]

    import matplotlib.axes
    seen = []
    real = matplotlib.axes.Axes.axvline
    matplotlib.axes.Axes.axvline = lambda self, x=0, *a, **k: seen.append(x) or real(self, x, *a, **k)
    try:
        path = plot.timeseries(str(run))
    finally:
        matplotlib.axes.Axes.axvline = real
    assert png_size(Path(path))[0] > 500
    assert sorted(set(seen)) == [3.01, 7.03] and len(seen) == 2 * 5  # 5 panels each


def test_reverse_flows_and_a_rate_trace_are_summarised_apart(tmp_path):
    """A run with --reverse (reverse.txt, reverse<j>.json in the clients' JSON) has them in
    its summary's reverse, measured over the same interval, and its forward flows and
    metrics as without them; a run with --rate-trace has rate_trace (the replayed capacity
    over the interval, from rate_changes.txt) and no per-phase evaluation."""
    from analysis.run import run_analysis
    plain, _ = run_analysis(str(FIX / "run_bbr_a_loss1"))
    run = tmp_path / "run"
    shutil.copytree(FIX / "run_bbr_a_loss1", run)
    (run / "reverse.txt").write_text("1 2 cubic 5300\n")
    shutil.copy(run / "flow1.json", run / "reverse1.json")  # a client's JSON as any other
    t0 = next(ln.split("=")[1] for ln in (run / "params.env").read_text().splitlines()
              if ln.startswith("t0_uptime="))
    with open(run / "params.env", "a") as f:
        f.write(f"reverse=1:cubic\nreverse_t0_uptime={t0}\n")
    res, _ = run_analysis(str(run))
    rev = res["reverse"]
    assert rev["cc"] == "cubic" and [(f["index"], f["class"]) for f in rev["flows"]] == [(1, 2)]
    assert abs(rev["flows"][0]["throughput_mbps"] - plain["flows"][0]["throughput_mbps"]) < 1e-9
    assert rev["throughput_mbps"] == rev["flows"][0]["throughput_mbps"]
    assert [f["throughput_mbps"] for f in res["flows"]] == [f["throughput_mbps"] for f in plain["flows"]]
    assert res["utilization"] == plain["utilization"] and "reverse" not in plain

    (run / "reverse.txt").unlink()
    w0, w1 = res["interval_s"]
    rate = float(res["rate_mbit"])
    (run / "rate_changes.txt").write_text(f"{float(t0):.2f} {rate / 2}\n")  # half from t0 on
    with open(run / "params.env", "a") as f:
        f.write("rate_trace=/x/rate_trace.txt\nrate_trace_changes=1\n")
    res, _ = run_analysis(str(run))
    assert res["rate_trace"]["changes"] == 1
    assert abs(res["rate_trace"]["capacity_mbps"] - rate / 2) < 1e-9
    assert abs(res["utilization"] - 2 * plain["utilization"]) < 1e-6
    assert "phases" not in (res.get("evaluation") or {})


def test_delay_throughput_joins_screens_each_narrowed_to_its_ccs(tmp_path):
    """A panel may draw one cc from a new release's screen beside the others from an older
    one: 'old@bbr,cubic+new' keeps only bbr and cubic of old and all of new."""
    from testbed.analysis.figures.cellular import delay_points, joined_runs
    from testbed.analysis.tables import load_runs
    old = REPO / "docs" / "results" / "paths-uml" / "cellular"
    new = REPO / "docs" / "results" / "paths-uml" / "cellular-v0280"
    runs = joined_runs(f"{old}@bbr,cubic+{new}")
    fair = [r for r in runs if r["cc"] == "bbr_a_fair"]
    assert fair and all(r["module_version"] == "0.28.0" for r in fair)
    assert len(fair) == len([r for r in load_runs(str(new)) if r["cc"] == "bbr_a_fair"])
    assert {r["cc"] for r in runs} == {"bbr", "cubic", "bbr_a_fair"}
    pts = delay_points(runs)["verizon"]
    assert len(pts["bbr_a_fair"]) == 5 and len(pts["bbr"]) == 3
