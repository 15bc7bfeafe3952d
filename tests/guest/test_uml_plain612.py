"""The plain 6.12 UML kernel (BBR_A_UML_SERIES=6.12, docs/backends.md): Debian's
linux-source-6.12 with the project's 6.12 patches and no user patch boots in time travel,
runs 6.12, its bbr is the kernel's BBRv1 under its own name, and the testbed runs bbr and
bbr_a_fair on it, naming the kernel in each run.

Selected with `-m uml` like the other UML tests. The kernel is built by the test only when
asked, BBR_A_UML_SERIES=6.12 in the environment (once, 5 to 15 minutes on 2 cores, cached
outside the repository); otherwise the test runs when that kernel is in the cache already
and skips, saying how to build it, when it is not.
"""
import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UML_SH = REPO / "scripts" / "uml.sh"

pytestmark = pytest.mark.uml


def env():
    e = {k: v for k, v in os.environ.items() if k != "BBR_A_UML_PATCH"}
    return {**e, "BBR_A_UML_SERIES": "6.12"}


def uml(args, timeout=1800):
    return subprocess.run([str(UML_SH), *args], capture_output=True, text=True, env=env(),
                          timeout=timeout)


@pytest.fixture(scope="module")
def plain_kernel():
    if os.uname().machine != "x86_64":
        pytest.skip("UML is built for x86_64 only")
    kid = uml(["id"], timeout=60)
    assert kid.returncode == 0, kid.stderr
    cache = Path(os.environ.get("BBR_A_CACHE") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tcp_bbr_a")
    built = (cache / "uml" / kid.stdout.strip() / ".complete").exists()
    if not built and os.environ.get("BBR_A_UML_SERIES") != "6.12":
        pytest.skip(f"the plain 6.12 UML kernel ({kid.stdout.strip()}) is not built yet: set "
                    "BBR_A_UML_SERIES=6.12 to build it (once, 5 to 15 min)")
    p = uml(["build"])
    assert p.returncode == 0, "plain 6.12 kernel build failed:\n" + p.stderr[-4000:]
    return kid.stdout.strip()


# In the guest: tests/guest/bbr_facts.sh.
FACTS = REPO / "tests" / "guest" / "bbr_facts.sh"


def test_the_plain_kernel_runs_6_12_with_bbrv1(plain_kernel, tmp_path):
    out = tmp_path / "out"
    p = uml(["run", "--seed", "1", "--timeout", "600", "--out", str(out), "--file", str(FACTS),
             "--", "sh", '"$BBR_A_FILES"/bbr_facts.sh'])
    assert p.returncode == 0, f"guest run failed ({p.returncode}):\n{p.stderr[-3000:]}"
    facts = dict(line.split("=", 1) for line in (out / "facts").read_text().splitlines())
    assert facts["release"].startswith("6.12."), facts
    # BBRv1: tcp_bbr has no version (the BBRv3 patch's is 3), and no bbr3 anywhere
    assert facts["bbr_version"] == "none", facts
    ccs = set(facts["available"].split())
    assert {"bbr", "bbr_a", "bbr_a_fair", "cubic"} <= ccs and "bbr3" not in ccs, facts
    ss = (out / "ss.txt").read_text()
    assert " bbr " in ss and "bbr:(" in ss, ss


def test_the_testbed_runs_bbr_by_its_name_on_the_plain_kernel(plain_kernel, tmp_path):
    out = tmp_path / "res"
    p = subprocess.run(
        [str(REPO / "testbed" / "rtt_fairness.sh"), "--backend", "uml", "--cc",
         "bbr,bbr_a_fair", "--rtt", "10,50", "--duration", "6", "--warmup", "2",
         "--out", str(out)],
        capture_output=True, text=True, env=env(), timeout=1800)
    assert p.returncode == 0, f"rtt_fairness.sh failed:\n{p.stderr[-4000:]}"
    s = json.loads((out / "summary.json").read_text())
    assert [a["cc"] for a in s["aggregate"]] == ["bbr", "bbr_a_fair"]
    for r in s["results"]:
        assert r["params"]["kernel_id"] == f"uml-{plain_kernel}"
        assert r["provenance"]["kernel_id"] == f"uml-{plain_kernel}"
        assert r["kernel"].startswith("6.12.")
        assert "bbr3_kernel_cc" not in r["params"]
        assert all(f["throughput_mbps"] > 1 for f in r["flows"]), r["flows"]
    bbr = next(r for r in s["results"] if r["cc"] == "bbr")
    assert {f["cc"] for f in bbr["flows"]} == {"bbr"}
