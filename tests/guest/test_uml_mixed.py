"""Mixed congestion controls on one bottleneck through rtt_fairness.sh, in User-Mode Linux:
a '+' item gives each RTT class its own cc, and the analysis names every flow's cc and each
cc's share; a module parameter the module does not have stops a real run before it starts.
Selected with `-m uml`."""
import csv
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.uml


def test_bbr_against_cubic_one_run(run_testbed, tmp_path):
    out = tmp_path / "mixed"
    summary = run_testbed(out, "--cc", "bbr+cubic", "--rtt", "20,20", "--rate", "20",
                          "--duration", "8", "--warmup", "2", "--seed", "1")
    assert len(summary["results"]) == 1
    r = summary["results"][0]
    assert r["cc"] == "bbr+cubic"
    assert r["dir"] == "bbr+cubic/run1"  # relative to summary.json
    assert r["params"]["cc"] == "bbr cubic"
    assert [(f["index"], f["class"], f["cc"], f["rtt_ms"]) for f in r["flows"]] == [
        (1, 1, "bbr", 20), (2, 2, "cubic", 20)]
    # the kernel ran what the summary says: tcp_info's cc of each flow's connection
    with open(out / "bbr+cubic" / "run1" / "ss.csv") as f:
        ca = {}
        for row in csv.DictReader(f):
            ca.setdefault(int(row["flow"]), set()).add(row["ca"])
    assert ca == {1: {"bbr"}, 2: {"cubic"}}, ca
    per = r["per_cc"]
    assert list(per) == ["bbr", "cubic"]
    assert all(per[c]["flows"] == 1 and per[c]["throughput_mbps"] > 0.5 for c in per), per
    assert per["bbr"]["share"] + per["cubic"]["share"] == pytest.approx(1, abs=1e-4)
    for c, f in zip(("bbr", "cubic"), r["flows"]):
        assert per[c]["throughput_mbps"] == pytest.approx(f["throughput_mbps"], abs=1e-3)
    assert 0.85 < r["utilization"] < 1.0  # the two together filled the link


def test_unknown_module_param_stops_a_real_run_before_it_starts(uml_kernel, tmp_path):
    """It used to run to the end: insmod ignores a parameter the module does not have."""
    out = tmp_path / "o"
    for param, msg in (("evil=1", "'evil' is not a parameter of"),
                       ("adaptive=7", "adaptive takes a whole number in 0..1")):
        p = subprocess.run([str(REPO / "testbed" / "rtt_fairness.sh"), "--backend", "uml",
                            "--cc", "bbr_a", "--duration", "4", "--warmup", "1",
                            "--module-param", param, "--out", str(out)],
                           capture_output=True, text=True, timeout=600)
        assert p.returncode == 2, p.stderr
        assert msg in p.stderr
        assert "run 1/1" not in p.stderr and not out.exists()
