"""The RTT-fairness testbed end to end in the QEMU guest (virtual time): a short two-flow
run, 10 ms vs 50 ms through a 20 Mbit/s bottleneck, for bbr and bbr_a.

Asserts what the testbed itself must get right, not how fair the algorithms are: both
flows carried data, the measured base RTTs are the requested ones, bbr fills the link,
summary.json has the documented shape and the time series exist.
"""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "testbed"))
import analysis as analyze  # noqa: E402

pytestmark = pytest.mark.guest

RTTS = (10, 50)


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    if shutil.which("qemu-system-x86_64") is None or not (REPO / "scripts" / "guest.sh").exists():
        pytest.skip("QEMU guest runner not available (scripts/setup.sh)")
    out = tmp_path_factory.mktemp("testbed") / "rf"
    p = subprocess.run(
        [str(REPO / "testbed" / "rtt_fairness.sh"), "--backend", "qemu", "--kernel", "6.12",
         "--cc", "bbr,bbr_a", "--rtt", ",".join(map(str, RTTS)), "--rate", "20",
         "--buffer-bdp", "1", "--duration", "10", "--warmup", "3", "--out", str(out)],
        capture_output=True, text=True, timeout=3600)
    assert p.returncode == 0, f"rtt_fairness.sh failed:\n{p.stderr[-4000:]}"
    return out, json.loads((out / "summary.json").read_text()), p


def by_cc(summary, cc):
    rs = [r for r in summary["results"] if r["cc"] == cc]
    assert len(rs) == 1, f"expected one {cc} run"
    return rs[0]


def test_summary_shape(result):
    _, s, _ = result
    assert analyze.validate_summary(s) == []
    assert {r["cc"] for r in s["results"]} == {"bbr", "bbr_a"}
    assert s["kernel"].startswith("6.12")
    assert s["module_version"] not in (None, "", "none", "unknown")


@pytest.mark.parametrize("cc", ["bbr", "bbr_a"])
def test_both_flows_carried_data(result, cc):
    r = by_cc(result[1], cc)
    assert [f["rtt_ms"] for f in r["flows"]] == list(RTTS)
    for f in r["flows"]:
        assert f["throughput_mbps"] > 0.2, f
        assert f["bytes_received"] > 250_000, f
        assert f["throughput_source"] == "receiver"


@pytest.mark.parametrize("cc", ["bbr", "bbr_a"])
def test_base_rtts_as_requested(result, cc):
    for f in by_cc(result[1], cc)["flows"]:
        assert abs(f["base_rtt_ms"] - f["rtt_ms"]) < 2.0, f


def test_bbr_fills_the_link(result):
    r = by_cc(result[1], "bbr")
    assert r["utilization"] > 0.90, r["utilization"]
    assert r["utilization"] < 1.0  # receiver-side payload cannot exceed the link


def test_time_series_and_table(result):
    out, s, p = result
    for r in s["results"]:
        assert not Path(r["dir"]).is_absolute()  # relative to summary.json, so it can move
        d = out / r["dir"]
        ss_rows = (d / "ss.csv").read_text().splitlines()
        q_rows = (d / "queue.csv").read_text().splitlines()
        assert len(ss_rows) > 50 and len(q_rows) > 50  # 100 ms samples over ~10 s
        assert (d / "run.env").read_text().count("backend=qemu") == 1
        # the guest runner ships testbed/sampler.c: one sampler, no ss/tc process per sample
        assert "sampler=netlink" in (d / "params.env").read_text().splitlines()
    assert "jain" in p.stdout and "bbr_a" in p.stdout
