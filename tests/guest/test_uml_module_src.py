"""Congestion controls beyond the UML kernel's built-in ones: a user's module
(rtt_fairness.sh --module-src, examples/cc) and the kernel's other ccs (built as modules
against the UML tree), loaded in the guest beside tcp_bbr_a; an unknown cc refused before a
guest starts.

Selected with `-m uml` like the other UML tests; needs the UML kernel (scripts/uml.sh build).
"""
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.uml


def flows(summary):
    return summary["results"][0]["flows"]


def test_a_module_src_cc_runs_beside_cubic(run_testbed, tmp_path):
    """examples/cc's "example" (Reno, two packets more per RTT) against cubic: the summary
    names both ccs and both flows carried traffic; run.env names the module's sources."""
    out = tmp_path / "ex"
    summary = run_testbed(out, "--module-src", str(REPO / "examples" / "cc"),
                          "--cc", "example+cubic", "--rtt", "20,20", "--duration", "10")
    r = summary["results"][0]
    assert r["cc"] == "example+cubic"
    assert sorted(f["cc"] for f in flows(summary)) == ["cubic", "example"]
    assert all(f["throughput_mbps"] > 1 for f in flows(summary)), flows(summary)
    env = (out / "example+cubic" / "run1" / "run.env").read_text()
    assert f"module_src={REPO / 'examples' / 'cc'}\n" in env and "module_src_ccs=example\n" in env


def test_the_kernels_vegas_runs_on_uml(run_testbed, tmp_path):
    summary = run_testbed(tmp_path / "vegas", "--cc", "vegas", "--rtt", "20",
                          "--duration", "8", "--warmup", "2", "--sample-ms", "0")
    assert [f["cc"] for f in flows(summary)] == ["vegas"]
    assert flows(summary)[0]["throughput_mbps"] > 10, flows(summary)


def test_an_unknown_cc_is_refused_before_a_guest_starts(uml_kernel, tmp_path):
    out = tmp_path / "none"
    p = subprocess.run([str(REPO / "testbed" / "rtt_fairness.sh"), "--backend", "uml",
                        "--cc", "nosuchcc", "--rtt", "20,20", "--duration", "10",
                        "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 2
    errors = [line for line in p.stderr.splitlines() if "error" in line]
    assert errors == [line for line in p.stderr.splitlines() if "nosuchcc" in line and "error" in line]
    assert len(errors) == 1 and "--cc: 'nosuchcc' is not a congestion control the uml backend has" in errors[0]
    assert "vegas" in errors[0]  # what it has, the kernel's other ccs among them
    assert "run 1/" not in p.stderr and not out.exists()
