"""Runs that failed do not become results (analysis/checks.py): the checks on a summary.json
result, analyze.py --check, and screens that leave such runs out of their statistics with a
count. The known case: Fig. 6's cubic at 100 BDP before topology.sh sized TCP's memory."""
import copy
import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIX = Path(__file__).resolve().parent / "fixtures"
ANALYZE = REPO / "testbed" / "analyze.py"
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
sys.path.insert(0, str(REPO / "testbed"))
from analysis import checks, screen  # noqa: E402

# docs/results/reproduce/fig6/cubic/b100/seed1/summary.json as committed before the fix
# (abridged): 0.198 of the link, no loss, no retransmission, the clients fine
COLLAPSED = {
    "cc": "cubic", "jain": 0.7851507248536521, "utilization": 0.1978038630927835,
    "retrans_rate": 0.0, "interval_s": [5.0, 199.0], "loss_pct": 0.0, "kernel": "6.1.192",
    "module_version": "none", "queue_delay_ms": {"mean": None},
    "flows": [{"index": 1, "class": 1, "rtt_ms": 10.0, "throughput_mbps": 15.0638},
              {"index": 2, "class": 2, "rtt_ms": 50.0, "throughput_mbps": 4.7166}],
    "params": {"cc": "cubic", "rtts_ms": "10 50", "duration_s": "200", "seed": "1",
               "t0_uptime": "0.46", "end_uptime": "223.32", "flow_rc_1": "0",
               "flow_rc_2": "0", "flows_failed": "0", "loss_pct": "0", "buffer_bdp": "100",
               "module_params": "", "wall_s": "18"}}


def fine():
    r = copy.deepcopy(COLLAPSED)
    r.update(utilization=0.9566, jain=0.996)
    r["flows"][0]["throughput_mbps"], r["flows"][1]["throughput_mbps"] = 44.26, 50.56
    return r


def test_the_collapsed_cubic_run_is_not_a_result():
    why = checks.problems(COLLAPSED)
    assert len(why) == 1 and why[0].startswith("delivery (0.198 of the link without loss")
    assert checks.problems(fine()) == []


def test_loss_or_retransmissions_explain_a_low_delivery():
    r = copy.deepcopy(COLLAPSED)
    r["params"]["loss_pct"], r["loss_pct"] = "1", 1.0  # cubic under 1 % random loss: 0.146
    assert checks.problems(r) == []
    r = copy.deepcopy(COLLAPSED)
    r["retrans_rate"] = 0.05
    assert checks.problems(r) == []


def test_finite_flows_leave_the_link_idle_without_a_delivery_problem():
    """fct-mixed.ini: a 30 MB flow done at 17 s of 40, the train's bytes not in the
    utilisation; cubic's run (0.308 of the link, 0.08 % retransmitted) was left out."""
    r = copy.deepcopy(COLLAPSED)
    r["params"]["sizes"] = "30000000,100000/1000000/2000000"
    assert checks.problems(r) == []


@pytest.mark.parametrize("change,reason", [
    (lambda r: r["params"].update(flow_rc_2="1", flows_failed="1"), "client failed (2: 1)"),
    (lambda r: r["params"].update(end_uptime="120.5"), "short run (120.0 of 200 s)"),
    (lambda r: r["flows"][1].update(span_s=[0.01, 150.2]), "short flow 2 (received"),
    (lambda r: r.update(tcp_memory_pressures=3), "memory (TCP memory pressure 3 times)"),
])
def test_each_check(change, reason):
    r = fine()
    r["flows"][0]["span_s"] = [0.0, 200.02]
    assert checks.problems(r) == []
    change(r)
    assert [p for p in checks.problems(r) if p.startswith(reason)], checks.problems(r)


def test_a_run_that_recorded_its_spans_and_netstat(tmp_path):
    """From raw outputs: each flow's span_s comes from its receiver intervals, memory
    pressure from the end hosts' netstat copies."""
    d = tmp_path / "run"
    shutil.copytree(FIX / "run_bbr_5bdp_noss", d)
    sys.path.insert(0, str(REPO / "testbed"))
    import analysis
    r = analysis.analyze_run(str(d), write_csv=False)
    assert [f["span_s"] for f in r["flows"]] == [[0.0, 10.083], [0.01, 10.097]]
    assert r["problems"] == [] and r["tcp_memory_pressures"] is None
    header = "TcpExt: SyncookiesSent TCPMemoryPressures TCPMemoryPressuresChrono RcvPruned\n"
    (d / "netstat_s1_end.txt").write_text(header + "TcpExt: 0 2 1490 0\n")
    (d / "netstat_d_end.txt").write_text(header + "TcpExt: 0 0 0 0\n")
    r = analysis.analyze_run(str(d), write_csv=False)
    assert r["tcp_memory_pressures"] == 2
    assert r["netstat"]["s1"] == {"TCPMemoryPressures": 2, "TCPMemoryPressuresChrono": 1490,
                                  "RcvPruned": 0}
    assert r["problems"] == ["memory (TCP memory pressure 2 times)"]
    # a flow whose receiver stopped counting early: its intervals end at 4 s of 10
    js = json.loads((d / "flow2.json").read_text())
    srv = js["server_output_json"]
    srv["intervals"] = [iv for iv in srv["intervals"] if iv["streams"][0]["end"] <= 4.1]
    (d / "flow2.json").write_text(json.dumps(js))
    r = analysis.analyze_run(str(d), write_csv=False)
    assert any(p.startswith("short flow 2 (received 0.01..") for p in r["problems"]), r["problems"]


def job(root, config, scen, seed, r):
    d = root / config / scen / f"seed{seed}"
    d.mkdir(parents=True)
    r = copy.deepcopy(r)
    r["params"]["seed"] = str(seed)
    (d / "summary.json").write_text(json.dumps({"results": [r]}))


def test_a_screen_leaves_runs_that_are_not_results_out_and_counts_them(tmp_path):
    for seed in (1, 2, 3):
        job(tmp_path, "cubic", "b100", seed, fine())
    job(tmp_path, "cubic", "b100", 4, COLLAPSED)
    # a job screen.sh moved aside to run it again is no run of the screen
    (tmp_path / "cubic/b100/seed4").rename(tmp_path / "cubic/b100/seed5.stale")
    job(tmp_path, "cubic", "b100", 4, COLLAPSED)
    out = tmp_path / "screen.csv"
    p = subprocess.run([PY, str(ANALYZE), "--screen", str(tmp_path), "--screen-csv", str(out)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "cubic/b100/seed4 is not a result, left out of the table: delivery" in p.stderr
    assert "(1 not results, excluded)" in p.stdout
    row, = csv.DictReader(open(out))
    assert (row["runs"], row["excluded"], row["seeds"]) == ("3", "1", "1 2 3")
    assert float(row["utilization"]) == pytest.approx(0.9566)  # the collapsed run left out
    runs = list(csv.DictReader(open(tmp_path / "screen_runs.csv")))
    assert [r["seed"] for r in runs] == ["1", "2", "3", "4"]  # not seed5.stale
    assert [bool(r["problems"]) for r in runs] == [False, False, False, True]
    md = subprocess.run([PY, str(ANALYZE), "--screen", str(tmp_path), "--markdown"],
                        capture_output=True, text=True).stdout
    assert "| cubic | b100 | 3 (1 excluded) | 0.996 +- 0.000 |" in md


def test_analyze_check(tmp_path):
    d = tmp_path / "job"
    d.mkdir()
    (d / "summary.json").write_text(json.dumps({"results": [dict(fine(), run=1)]}))
    p = subprocess.run([PY, str(ANALYZE), "--check", str(d)], capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout == "", p.stdout + p.stderr
    (d / "summary.json").write_text(json.dumps({"results": [dict(COLLAPSED, run=1, dir="cubic/run1")]}))
    p = subprocess.run([PY, str(ANALYZE), "--check", str(d)], capture_output=True, text=True)
    assert p.returncode == 1
    assert p.stdout.startswith("cubic run 1 (cubic/run1): not a result: delivery (0.198"), p.stdout
    p = subprocess.run([PY, str(ANALYZE), "--check", str(tmp_path / "none")],
                       capture_output=True, text=True)
    assert p.returncode == 1 and "cannot read a summary" in p.stderr


def test_screen_columns_say_what_made_each_run():
    assert {"problems", "duration_s", "warmup_s", "cooldown_s", "client", "sample_ms",
            "buffer_bytes", "bdp_bytes", "rate_mbit", "loss_pct", "flows_per_class", "kernel",
            "module_version", "module_srcversion", "trace", "module_hash", "testbed_hash",
            "kernel_id"} <= set(screen.SCREEN_RUN_COLS)


def rerun_screen(tmp_path, backend):
    """A screen of one job whose stand-in rtt_fairness.sh gives the collapsed run the first
    time and a result the second; returns (completed process, out dir)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_screen import stub_tree
    bad, good = (json.dumps({"results": [dict(r, run=1, dir="cubic/run1")]})
                 for r in (COLLAPSED, fine()))
    runner = (f'for d; do :; done\nmkdir -p "$d"\nn=$(cat "$d.count" 2>/dev/null || echo 0)\n'
              f'echo $((n + 1)) > "$d.count"\n'
              f'if [ "$n" = 0 ]; then echo \'{bad}\'; else echo \'{good}\'; fi > "$d/summary.json"\n')
    screen = stub_tree(tmp_path / "tree", runner)
    cfg = tmp_path / "configs.txt"
    cfg.write_text("cubic cubic\n")
    out = tmp_path / "out"
    p = subprocess.run([str(screen), "--configs", str(cfg), "--out", str(out), "--scenarios",
                        "b100:10+50:100", "--seeds", "1", "--backend", backend],
                       capture_output=True, text=True, timeout=120)
    return p, out


def test_screen_runs_a_job_that_is_not_a_result_once_more(tmp_path):
    p, out = rerun_screen(tmp_path, "host")
    assert p.returncode == 0, p.stderr
    assert "cubic/b100/seed1: not a result, runs once more: cubic run 1" in p.stderr, p.stderr
    assert (out / "cubic/b100/seed1.count").read_text().strip() == "2"
    assert (out / "cubic/b100/seed1.log.1").exists() and (out / "cubic/b100/seed1/job.key").exists()
    row, = csv.DictReader(open(out / "screen.csv"))
    assert (row["runs"], row["excluded"]) == ("1", "0")


def test_on_uml_it_is_kept_named_and_left_out_not_run_again(tmp_path):
    p, out = rerun_screen(tmp_path, "uml")
    assert p.returncode == 0, p.stderr
    assert "cubic/b100/seed1: NOT A RESULT, kept and left out of the tables: cubic run 1 " \
        "(cubic/run1): not a result: delivery (0.198" in p.stderr, p.stderr
    assert "(not run again: a UML run repeats byte for byte)" in p.stderr
    assert (out / "cubic/b100/seed1.count").read_text().strip() == "1"
    assert (out / "cubic/b100/seed1/job.key").exists()  # done: a re-run of the screen skips it
    row, = csv.DictReader(open(out / "screen.csv"))
    assert (row["runs"], row["excluded"], row["jain"]) == ("0", "1", "")
