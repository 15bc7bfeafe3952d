"""testbed/analysis/evaluation.py on recorded outputs: three short UML runs of the shipped
scenario files (bbr, seed 1; tests/unit/fixtures/eval_*: the raw files the analysis reads),
and the metrics' arithmetic on small made-up rows.

    eval_fct_mixed_r20_b1        fct-mixed.ini r20-b1 --duration 12: a 30 MB flow (cut short
                                 at 12 s) against a train of 100 KB / 1 MB / 2 MB
    eval_convergence_rtt40       convergence.ini rtt40 --duration 20: a flow joins at 10 s
    eval_aqm_rate_step_red       aqm-rate-step.ini red --duration 24: RED, 10 -> 20 -> 10 Mbit/s
"""
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "testbed"))
from analysis import analyze_run  # noqa: E402
from analysis.evaluation import (convergence, fct_stats, queue_after, rate_phases,  # noqa: E402
                                 read_fct, refill, series, sliding_jain, window_bytes)
from analysis.parse import read_flows  # noqa: E402

FIX = Path(__file__).resolve().parent / "fixtures"


def run(tmp_path, name):
    d = tmp_path / name
    shutil.copytree(FIX / name, d)
    return analyze_run(str(d), write_csv=True), d


def test_fct_of_a_train_per_size_class(tmp_path):
    res, d = run(tmp_path, "eval_fct_mixed_r20_b1")
    ev = res["evaluation"]
    assert set(ev["fct"]) == {"100000", "1000000", "2000000", "all"}
    assert ev["fct"]["all"]["n"] == 8 and ev["connections"] == 9
    small = ev["fct"]["100000"]
    assert small["n"] == 3 and small["p50_ms"] == pytest.approx(186.316)
    assert small["p50_ms"] <= small["p95_ms"] and small["incomplete"] == 0
    # the 30 MB flow did not finish in 12 s: no completion time, counted as incomplete
    assert ev["fct_finite"]["30000000"] == {"n": 0, "p50_ms": None, "p95_ms": None,
                                            "mean_ms": None, "incomplete": 1}
    assert ev["finite_throughput_mbps"] == {}
    # the train is not a flow of the throughput statistics, and the finite flow is no problem
    assert [f["index"] for f in res["flows"]] == [1] and res["trains"][0]["index"] == 2
    assert res["flows"][0]["size"] == "30000000" and res["problems"] == []


def test_fct_records_have_the_runs_clock(tmp_path):
    d = FIX / "eval_fct_mixed_r20_b1"
    recs = read_fct(str(d), read_flows(str(d)), 0.64)
    train = [r for r in recs if r["kind"] == "train"]
    # the train starts 0.5 s after the first flow; each starts 0.1 s after the previous ended
    assert train[0]["start_s"] == pytest.approx(0.5, abs=0.05)
    for a, b in zip(train, train[1:]):
        assert b["start_s"] >= a["start_s"] + a["fct_s"] + 0.1 - 1e-6
    assert [r["bytes"] for r in train[:4]] == [100000, 1000000, 2000000, 100000]


def test_convergence_after_a_flow_joins(tmp_path):
    res, _ = run(tmp_path, "eval_convergence_rtt40")
    ev = res["evaluation"]
    conv = ev["convergence_s"]["2"]
    assert set(conv) == {"80", "95"}
    assert conv["80"]["first"] == pytest.approx(1.0)
    assert conv["80"]["settled"] is not None and conv["80"]["settled"] >= conv["80"]["first"]
    assert ev["jain_windows"]["from_s"] == pytest.approx(10.0)
    assert 0.9 < ev["jain_windows"]["mean"] <= 1.0
    assert res["problems"] == []  # the flow that joins late is planned so


def test_rate_phases_queue_and_utilisation_at_the_rate_in_force(tmp_path):
    res, d = run(tmp_path, "eval_aqm_rate_step_red")
    ev = res["evaluation"]
    assert ev["qdisc"] == "red"
    assert [(p["t0_s"], p["rate_mbit"]) for p in ev["phases"]] == [
        (0.0, 10.0), (pytest.approx(10.0), 20.0), (pytest.approx(20.0), 10.0)]
    # the link is full in each phase, at the rate in force
    for p in ev["phases"]:
        assert 0.85 * p["rate_mbit"] < p["throughput_mbps"] < p["rate_mbit"]
        assert p["qdelay_p95_ms"] >= p["qdelay_mean_ms"] > 0
        assert p["srtt_mean_ms"]["1"] > 20  # the 20 ms base RTT and some queue
    # utilisation over the schedule's mean rate, not the first one's (which gave 1.38)
    assert 0.9 < res["utilization"] < 0.956


def test_window_bytes_prorates_and_sliding_jain():
    rows = [{"flow": 1, "t_start_s": 0, "t_end_s": 2, "bytes": 200},
            {"flow": 2, "t_start_s": 1, "t_end_s": 2, "bytes": 50}]
    assert window_bytes(rows, [1, 2], 1, 2) == {1: 100, 2: 50}
    flows = [{"index": 1, "start_s": 0, "end_s": 2}, {"index": 2, "start_s": 1, "end_s": 2}]
    out = sliding_jain(rows, flows, 1, 1, 0, 2)
    assert out[0] == (0, 1, None, 1)  # one flow active: no index
    assert out[1][2] == pytest.approx((150 ** 2) / (2 * (100 ** 2 + 50 ** 2)))


def test_convergence_first_and_settled():
    # the newcomer (2) joins at 1 s: 10 %, 90 % (first >= 80 %), 50 %, then 85 %, 90 %
    fr = [0.1, 0.9, 0.5, 0.85, 0.9]
    rows = []
    for k, x in enumerate(fr):
        t = 1 + k
        mine = 100 * x / (2 - x)  # so that mine / (total / 2) = x
        rows += [{"flow": 1, "t_start_s": t, "t_end_s": t + 1, "bytes": 100},
                 {"flow": 2, "t_start_s": t, "t_end_s": t + 1, "bytes": mine}]
    flows = [{"index": 1, "start_s": 0, "end_s": 6}, {"index": 2, "start_s": 1, "end_s": 6}]
    c = convergence(rows, flows, 2, 1.0)
    assert c[0.8] == {"first": 2.0, "settled": 4.0}
    assert c[0.95] == {"first": None, "settled": None}


def test_fct_stats_nearest_rank():
    recs = [{"bytes": 10, "fct_s": x / 1000} for x in (1, 2, 3, 4, 100)]
    recs.append({"bytes": 10, "fct_s": None})
    s = fct_stats(recs)["10"]
    assert s["n"] == 5 and s["p50_ms"] == 3 and s["p95_ms"] == 100 and s["incomplete"] == 1


def test_series_use_the_rate_in_force():
    phases = rate_phases([(10.0, 20.0)], 10.0, 30.0)
    q = [{"t_s": 9.9, "backlog_bytes": 12500}, {"t_s": 10.1, "backlog_bytes": 12500}]
    ss = [{"t_s": 9.9, "flow": 1, "srtt_ms": 30.0}]
    out = series(q, ss, phases, 0.5)
    assert out[0][1:3] == (10.0, pytest.approx(10.0)) and out[0][3] == {1: 30.0}
    assert out[1][1:3] == (20.0, pytest.approx(5.0))


def screen_tree(tmp_path):
    """A screen.sh tree of the recorded runs: bbr/<scenario>/seed1/bbr/run1 each, analysed."""
    import subprocess
    root = tmp_path / "screen"
    for name, scen in (("eval_aqm_rate_step_red", "red"), ("eval_fct_mixed_r20_b1", "r20-b1"),
                       ("eval_convergence_rtt40", "rtt40")):
        run = root / "bbr" / scen / "seed1" / "bbr" / "run1"
        shutil.copytree(FIX / name, run)
        p = subprocess.run([sys.executable, str(FIX.parents[2] / "testbed" / "analyze.py"),
                            "--quiet", str(run.parents[1])], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
    return root


def test_analyze_evaluation_writes_a_row_per_run_and_the_series(tmp_path):
    import csv
    import subprocess
    root = screen_tree(tmp_path)
    out = tmp_path / "eval.csv"
    p = subprocess.run([sys.executable, str(FIX.parents[2] / "testbed" / "analyze.py"),
                        "--evaluation", str(out), str(root)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rows = {r["scenario"]: r for r in csv.DictReader(open(out))}
    assert set(rows) == {"red", "r20-b1", "rtt40"}
    assert rows["red"]["qdisc"] == "red" and float(rows["red"]["ph2_rate_mbit"]) == 20
    assert float(rows["r20-b1"]["fct_100000_p50_ms"]) == pytest.approx(186.316)
    assert rows["r20-b1"]["fct_100000_p50_ms"] and rows["r20-b1"]["finite_30000000_fct_s"] == ""
    assert float(rows["rtt40"]["conv80_first_s"]) == pytest.approx(1.0)
    series = list(csv.DictReader(open(tmp_path / "eval_series.csv")))
    assert {r["scenario"] for r in series} == {"red"}
    assert len(series) > 40 and {float(r["rate_mbit"]) for r in series} == {10.0, 20.0}
    # the docs' tables read such a file as any screen's runs
    from analysis.tables import cell, load_runs
    runs = [r for r in load_runs(str(out)) if r["scenario"] == "red"]
    assert cell(runs, "ph2_qdelay_mean_ms", 1) == f"{float(rows['red']['ph2_qdelay_mean_ms']):.1f}"


def test_plots_of_the_evaluations(tmp_path):
    import subprocess
    root = screen_tree(tmp_path)
    out = tmp_path / "eval.csv"
    analyze = FIX.parents[2] / "testbed" / "analyze.py"
    plot = FIX.parents[2] / "plots" / "plot.py"
    assert subprocess.run([sys.executable, str(analyze), "--evaluation", str(out), str(root)]).returncode == 0
    p = subprocess.run([sys.executable, str(plot), "--eval-series", str(tmp_path / "eval_series.csv")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert Path(p.stdout.strip()).stat().st_size > 10000
    loss = tmp_path / "loss.csv"
    loss.write_text("config,seed,loss_pct,utilization,problems\n" + "".join(
        f"{cc},{s},{x},{u},\n" for cc in ("bbr", "cubic") for s in (1, 2)
        for x, u in ((0.001, 0.93), (1, 0.9 if cc == "bbr" else 0.1), (50, 0.3))))
    p = subprocess.run([sys.executable, str(plot), "--eval-loss", str(loss)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().endswith("eval_loss.png")


def test_refill_after_a_flow_leaves():
    # two flows of 100 bytes/s each until 10 s; flow 2 leaves at 10 s and flow 1 climbs to
    # 120, 150, 170, 190, 200: 80 % of the 200 they shared (160) is reached in the third
    # window after the leave, 95 % (190) in the fourth
    rows = [{"flow": f, "t_start_s": t, "t_end_s": t + 1, "bytes": 100}
            for t in range(10) for f in (1, 2)]
    rows += [{"flow": 1, "t_start_s": 10 + k, "t_end_s": 11 + k, "bytes": b}
             for k, b in enumerate((120, 150, 170, 190, 200))]
    rows += [{"flow": 2, "t_start_s": 10, "t_end_s": 11, "bytes": 500}]  # after it left: ignored
    flows = [{"index": 1, "start_s": 0, "end_s": 15}, {"index": 2, "start_s": 0, "end_s": 10}]
    assert refill(rows, flows, 2, 1.0) == {0.8: 3.0, 0.95: 4.0}
    # a run whose flows never get back: None
    flat = [r for r in rows if r["t_start_s"] < 10] + [
        {"flow": 1, "t_start_s": 10 + k, "t_end_s": 11 + k, "bytes": 100} for k in range(5)]
    assert refill(flat, flows, 2, 1.0) == {0.8: None, 0.95: None}


def test_queue_after_a_flow_leaves():
    # 100 Mbit/s: 125000 bytes of backlog are 10 ms; a standing queue that halves every 10 s
    rows = [{"t_s": 20 + k / 2, "backlog_bytes": 125000 * 4 / 2 ** (k // 20)} for k in range(60)]
    assert queue_after(rows, 100, 20, 50) == [pytest.approx(40), pytest.approx(20),
                                              pytest.approx(10)]
    assert queue_after(rows, 100, 50, 60) == [None]
