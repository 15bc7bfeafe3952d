"""Scenario files whose runs need more than the QEMU guest's small image: flent (python3,
netperf, ping) over a CoDel bottleneck, and a train of finite flows (tcpflow_fct.py).

Debian's kernels build sch_codel as a module and the small image holds neither python3 nor
flent; these runs failed in the QEMU guest until the image learnt to carry them
(scripts/lib/initramfs.sh, BBR_A_GUEST_PYTHON). Each run is short: the assertions are on
what the testbed must record, not on the algorithm.
"""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCEN = REPO / "testbed" / "scenarios"

pytestmark = pytest.mark.guest


def run_scenario(out, *args):
    if shutil.which("qemu-system-x86_64") is None:
        pytest.skip("QEMU guest runner not available (scripts/setup.sh)")
    p = subprocess.run(
        [str(REPO / "testbed" / "rtt_fairness.sh"), "--backend", "qemu", "--kernel", "6.12",
         "--cc", "bbr_a_fair", "--sample-ms", "0", "--out", str(out), *args],
        capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, f"rtt_fairness.sh failed:\n{p.stderr[-4000:]}"
    s = json.loads((out / "summary.json").read_text())
    assert len(s["results"]) == 1
    return s["results"][0]


def test_flent_over_codel(tmp_path):
    r = run_scenario(tmp_path / "nup", "--scenario", str(SCEN / "flent-tcp-nup.ini"),
                     "--qdisc", "codel", "--duration", "10")
    assert r["params"]["client"] == "flent"
    assert r["params"]["qdisc"] == "codel"
    files = r["flent"]["files"]
    assert len(files) == 1 and files[0].endswith(".flent.gz")
    assert (tmp_path / "nup" / r["dir"] / "flent" / files[0]).stat().st_size > 0
    assert len(r["flows"]) == 4
    assert all(f["throughput_mbps"] > 0.5 for f in r["flows"]), r["flows"]


def test_train_of_finite_flows(tmp_path):
    r = run_scenario(tmp_path / "fct", "--scenario", str(SCEN / "fct-mixed.ini"),
                     "--point", "r20-b1", "--duration", "10")
    assert r["params"]["client"] == "tcpflow"
    fct = r["evaluation"]["fct"]
    assert fct["100000"]["n"] >= 1 and fct["100000"]["p50_ms"] > 0
    assert sum(c["n"] for c in fct.values()) >= 3
