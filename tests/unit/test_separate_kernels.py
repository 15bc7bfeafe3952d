"""scripts/separate_kernels.sh: a bad option is one line (exit 2) before anything is set up;
--dry-run prints the plan and makes nothing; merge.py turns the guests' outputs into a
testbed run directory on the router's clock."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SK = REPO / "scripts" / "separate_kernels.sh"
MERGE = REPO / "scripts" / "separate_kernels" / "merge.py"


def run(*args):
    return subprocess.run([str(SK), *map(str, args)], capture_output=True, text=True, timeout=60)


def links():
    p = subprocess.run(["ip", "-o", "link", "show"], capture_output=True, text=True)
    return sorted(ln.split(": ")[1].split("@")[0] for ln in p.stdout.splitlines())


BAD = [
    (["--bogus"], "unknown option '--bogus'"),
    (["--cc"], "--cc needs a value"),
    (["--cc", "bbr,,cubic"], "--cc: 'bbr,,cubic' has an empty item"),
    (["--cc", "Bad"], "--cc: 'Bad' is not a congestion control name"),
    (["--cc", "bbr+cubic+reno"], "--cc: 'bbr+cubic+reno' names 3 ccs; give one, or one per class (2)"),
    (["--rtt", "10,50,20,30,40"], "--rtt: '10,50,20,30,40' is not 1 to 4"),
    (["--rtt", "10,x"], "--rtt: 'x' is not a delay in ms"),
    (["--rtt", "0"], "--rtt: '0' is not a delay in ms"),
    (["--rate", "0"], "--rate: '0' is not a rate"),
    (["--rate", "-5"], "--rate: '-5' is not a rate"),
    (["--buffer-bdp", "0"], "--buffer-bdp: '0' is not a positive multiple"),
    (["--flows-per-rtt", "17"], "--flows-per-rtt: '17' is not an integer in 1..16"),
    (["--duration", "5"], "--duration: '5' is not a whole number of seconds in 10..3600"),
    (["--duration", "20", "--warmup", "19.5"], "--warmup: '19.5' is not a number of seconds"),
    (["--seeds", "1,x"], "--seeds: '1,x' is not a comma separated list of integers"),
    (["--sample-ms", "5"], "--sample-ms: '5' is not an integer in 10..1000"),
    (["--calibrate", "5"], "--calibrate: '5' is not 0 or seconds in 10..600"),
    (["--mem", "64"], "--mem: '64' is not a size in MB"),
    (["--module-param", "a=1;x"], "--module-param: 'a=1;x' is not key=value"),
    (["--rt-prio", "100"], "--rt-prio: '100' is not a priority in 0..99"),
    (["--clock-offset", "-5"], "--clock-offset: '-5' is not an integer of ms in 0..60000"),
    (["--clock-offset", "2.5"], "--clock-offset: '2.5' is not an integer of ms in 0..60000"),
]


@pytest.mark.parametrize("args,msg", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_bad_option_is_one_line_before_anything(tmp_path, args, msg):
    before = links() if os.geteuid() == 0 else None
    p = run("--out", tmp_path / "o", *args)
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith(f"separate_kernels.sh: error: {msg}"), p.stderr
    assert p.stderr.splitlines()[1:] == ["(see separate_kernels.sh --help)"], p.stderr
    assert not (tmp_path / "o").exists()
    if before is not None:
        assert links() == before


def test_a_non_empty_out_is_refused(tmp_path):
    (tmp_path / "x").write_text("")
    p = run("--out", tmp_path)
    assert p.returncode == 2 and "is not empty" in p.stderr


def test_help_names_every_option():
    p = run("--help")
    assert p.returncode == 0
    src = SK.read_text()
    accepted = set(__import__("re").findall(r"(--[a-z-]+)\)", src))
    assert accepted and all(o in p.stdout for o in accepted), accepted


def test_dry_run_prints_the_plan_and_makes_nothing(tmp_path):
    before = links() if os.geteuid() == 0 else None
    out = tmp_path / "o"
    p = run("--dry-run", "--out", out, "--cc", "bbr_a_fair,bbr+cubic", "--seeds", "1,2",
            "--rate", "10", "--buffer-bdp", "0.5")
    assert p.returncode == 0, p.stderr
    # 0.5 x 10 Mbit/s x 50 ms = 31250 B
    assert "= 31250 B" in p.stderr and "wall clocks" not in p.stderr
    runs = [ln for ln in p.stdout.splitlines() if ln.startswith("run:")]
    assert len(runs) == 4 and runs[3].endswith(f"{out}/runs/bbr+cubic/run2")
    assert "--buffer 31250" in runs[0] and "--seed 2" in runs[1]
    assert any(ln.startswith("calibration:") for ln in p.stdout.splitlines())
    assert not out.exists()
    if before is not None:
        assert links() == before


def test_a_clock_offset_is_planned_and_said(tmp_path):
    p = run("--dry-run", "--out", tmp_path / "o", "--clock-offset", "50")
    assert p.returncode == 0, p.stderr
    assert "senders' wall clocks set -50..+50 ms off the host's (--clock-offset)" in p.stderr


def test_merge_puts_the_senders_samples_on_the_routers_clock(tmp_path):
    """Two senders whose clocks differ from the router's: their ss samples are shifted by
    go(router) + RTT - go(sender), the flows start one RTT after the router's go, and the
    run directory has what testbed/analyze.py reads."""
    g = tmp_path / "guests"
    for name, env in (("router", "kernel=6.1.192\ngo_uptime=100.00\nend_uptime=161.50\n"),
                      ("s1", "kernel=6.1.192\nmodule_version=0.21.0\ngo_uptime=40.00\nflow_rc=0\n"),
                      ("s2", "kernel=6.1.192\nmodule_version=0.21.0\ngo_uptime=7.50\nflow_rc=0\n"
                             "clock_offset_ms=-40\n")):
        (g / name).mkdir(parents=True)
        (g / name / "guest.env").write_text(env)
    for k, up in ((1, 41.0), (2, 8.0)):
        (g / f"s{k}" / "ss.txt").write_text(f"@ {up}\nESTAB 0 0 10.1.{k}.2:40000 10.0.0.2:520{k}\n")
        (g / f"s{k}" / "ping.txt").write_text("rtt min/avg/max/mdev = 10.1/10.5/11.0/0.2 ms\n")
        (g / f"s{k}" / "flow.json").write_text("{}")
    (g / "router" / "tc.txt").write_text("@ 101.0\n")
    run_dir = tmp_path / "run"
    p = subprocess.run([sys.executable, str(MERGE), "run", str(g), str(run_dir), "rtts=10 50",
                        "ccs=bbr bbr", "flows=1", "rate=20", "buffer=625000", "buffer_bdp=5",
                        "bdp=125000", "duration=60", "warmup=10", "cooldown=1", "seed=1",
                        "sample_ms=100", "wall_s=70", "rt_prio=10"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    # s1: 41 - 40 + 100 + 0.010 = 101.01; s2: 8 - 7.5 + 100 + 0.050 = 100.55
    assert (run_dir / "ss_s1.txt").read_text().splitlines()[0] == "@ 101.010"
    assert (run_dir / "ss_s2.txt").read_text().splitlines()[0] == "@ 100.550"
    assert (run_dir / "flow_starts.txt").read_text().split() == ["1", "100.01", "2", "100.05"]
    assert (run_dir / "flows.txt").read_text().splitlines() == [
        "1 1 10 bbr 5201 0.000 60 1 0", "2 2 50 bbr 5202 0.000 60 2 0"]
    env = dict(ln.split("=", 1) for ln in (run_dir / "params.env").read_text().splitlines())
    assert env["t0_uptime"] == "100.00" and env["base_rtt_ms_s2"] == "10.1"
    assert env["flows_failed"] == "0" and env["module_version"] == "0.21.0"
    assert env["wall_clock_offset_ms_s1"] == "0" and env["wall_clock_offset_ms_s2"] == "-40"
    assert "backend=separate-uml" in (run_dir / "run.env").read_text()
    json.loads((run_dir / "flow2.json").read_text())
