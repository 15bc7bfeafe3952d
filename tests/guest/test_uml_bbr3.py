"""The UML peer kernel (BBR_A_UML_PATCH, docs/backends.md): Debian's linux-source-6.12 built
with a BBRv3 patch boots in time travel, its bbr is BBRv3, and tcp_bbr_a.ko, built against
that tree, loads and runs bbr_a_fair beside it through the testbed.

Selected with `-m uml` like the other UML tests. The project does not ship BBRv3, so the test
needs a patch: BBR_A_UML_PATCH=FILE (the kernel is built once, about 5 minutes on 2 cores,
and cached outside the repository), or ../shared/peers/bbr3/bbr3-6.12.patch beside the
repository when the kernel built from it is in the cache already (so that a test run never
starts a kernel build nobody asked for). Without either it skips, saying what to provide.
"""
import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UML_SH = REPO / "scripts" / "uml.sh"
SHARED = REPO.parent / "shared" / "peers" / "bbr3" / "bbr3-6.12.patch"

pytestmark = pytest.mark.uml


def peer_env(patch):
    return {**os.environ, "BBR_A_UML_PATCH": str(patch)}


def uml(args, patch, timeout=1800):
    return subprocess.run([str(UML_SH), *args], capture_output=True, text=True,
                          env=peer_env(patch), timeout=timeout)


@pytest.fixture(scope="module")
def bbr3_patch():
    if os.uname().machine != "x86_64":
        pytest.skip("UML is built for x86_64 only")
    given = os.environ.get("BBR_A_UML_PATCH")
    if given:
        patch = Path(given)
    elif SHARED.is_file():
        kid = uml(["id"], SHARED, timeout=60)
        cache = Path(os.environ.get("BBR_A_CACHE") or Path(
            os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tcp_bbr_a")
        if kid.returncode != 0 or not (cache / "uml" / kid.stdout.strip() / ".complete").exists():
            pytest.skip(f"the UML kernel of {SHARED} is not built yet: set BBR_A_UML_PATCH="
                        f"{SHARED} to build it (once, ~5 min)")
        patch = SHARED
    else:
        pytest.skip("no BBRv3 patch: set BBR_A_UML_PATCH=path to a BBRv3 patch for Linux 6.12"
                    " (docs/backends.md)")
    p = uml(["build"], patch)
    assert p.returncode == 0, "peer kernel build failed:\n" + p.stderr[-4000:]
    return patch


# In the guest: tests/guest/bbr_facts.sh.
FACTS = REPO / "tests" / "guest" / "bbr_facts.sh"


def test_the_peer_kernel_runs_bbrv3_and_loads_the_module(bbr3_patch, tmp_path):
    out = tmp_path / "out"
    p = uml(["run", "--seed", "1", "--timeout", "600", "--out", str(out), "--file", str(FACTS),
             "--", "sh", '"$BBR_A_FILES"/bbr_facts.sh'], bbr3_patch)
    assert p.returncode == 0, f"guest run failed ({p.returncode}):\n{p.stderr[-3000:]}"
    facts = dict(line.split("=", 1) for line in (out / "facts").read_text().splitlines())
    assert facts["bbr_version"] == "3", facts
    assert {"bbr", "bbr_a", "bbr_a_fair"} <= set(facts["available"].split()), facts
    ss = (out / "ss.txt").read_text()
    assert " bbr " in ss and "bbr:(" in ss, ss


def test_the_testbed_runs_bbr3_beside_bbr_a_fair(bbr3_patch, tmp_path):
    out = tmp_path / "res"
    kid = uml(["id"], bbr3_patch, timeout=60).stdout.strip()
    p = subprocess.run(
        [str(REPO / "testbed" / "rtt_fairness.sh"), "--backend", "uml", "--cc",
         "bbr3,bbr_a_fair", "--rtt", "10,50", "--duration", "6", "--warmup", "2",
         "--out", str(out)],
        capture_output=True, text=True, env=peer_env(bbr3_patch), timeout=1800)
    assert p.returncode == 0, f"rtt_fairness.sh failed:\n{p.stderr[-4000:]}"
    s = json.loads((out / "summary.json").read_text())
    assert [a["cc"] for a in s["aggregate"]] == ["bbr3", "bbr_a_fair"]
    for r in s["results"]:
        assert r["params"]["kernel_id"] == f"uml-{kid}"
        assert r["provenance"]["kernel_id"] == f"uml-{kid}"
        assert r["kernel"].startswith("6.12.")
        assert all(f["throughput_mbps"] > 1 for f in r["flows"]), r["flows"]
    bbr3 = next(r for r in s["results"] if r["cc"] == "bbr3")
    assert bbr3["params"]["bbr3_kernel_cc"] == "bbr (tcp_bbr version 3)"
    assert {f["cc"] for f in bbr3["flows"]} == {"bbr3"}
    fair = next(r for r in s["results"] if r["cc"] == "bbr_a_fair")
    assert fair["params"]["module_version"] not in ("", "none")
