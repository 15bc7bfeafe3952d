"""flent and netperf in the UML guest (its root is the host's /, read-only, so the host's
flent is the guest's): a short flent test in the testbed's namespaces through
rtt_fairness.sh --flent, its data file kept with the run, analysed, and drawn by flent's own
plotter on the host.

Selected with `-m uml` like the other UML tests; needs the UML kernel (scripts/uml.sh build)
and flent and netperf (scripts/setup.sh).
"""
import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.uml


def test_flent_rtt_fair_runs_in_the_guest(run_testbed, tmp_path):
    for tool in ("flent", "netperf", "netserver"):
        if not shutil.which(tool):
            pytest.fail(f"{tool} is missing: scripts/setup.sh installs flent and netperf")
    out = tmp_path / "flent"
    summary = run_testbed(out, "--cc", "bbr+cubic", "--rtt", "10,50", "--rate", "20",
                          "--buffer-bdp", "2", "--duration", "8", "--warmup", "2",
                          "--flent", "rtt_fair_var_down", "--seed", "1")
    run = out / "bbr+cubic" / "run1"
    files = sorted((run / "flent").glob("rtt_fair_var_down-*.flent.gz"))
    assert len(files) == 1, list(run.iterdir())
    data = json.loads(gzip.open(files[0]).read())
    meta = data["metadata"]["SERIES_META"]
    # one download stream per sender class, each from its class's netserver with its cc
    ccs = {m["COMMAND"].split(" -H ")[1].split()[0]: m.get("CONG_CONTROL")
           for m in meta.values() if m.get("RUNNER") == "NetperfDemoRunner"}
    assert ccs == {"10.1.1.2": "bbr", "10.1.2.2": "cubic"}, ccs
    r = summary["results"][0]
    assert r["problems"] == [] and r["params"]["client"] == "flent"
    assert [f["cc"] for f in r["flows"]] == ["bbr", "cubic"]
    assert 0.7 < r["utilization"] < 0.97, r["utilization"]
    assert 0 < r["flent"]["fairness_mean"] <= 1
    # the 50 ms class's pings cross the bottleneck's queue: above their base RTT
    assert r["flent"]["ping_ms"]["Ping (ms) ICMP 10.1.2.2"] >= 50
    p = subprocess.run([sys.executable, str(REPO / "plots" / "plot.py"), "--flent", str(out)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    pngs = p.stdout.split()
    assert any(x.endswith(".bar_fairness.png") for x in pngs), pngs
    assert all(Path(x).stat().st_size > 1000 for x in pngs)
