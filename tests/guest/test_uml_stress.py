"""The stress and fault suite's quick form in UML (tests/stress.sh --quick): 20 % loss,
parameter writes at random during transfers, rmmod attempts under load and two load/unload
cycles, each of the module's four congestion controls in every case; every byte delivered
intact and a clean kernel log. The short and long forms, and the sanitizer kernel, run on
demand (docs/operators.md, "Stress and fault suite").

Selected with `-m uml` like the other UML tests; needs the UML kernel (scripts/uml.sh build).
"""
import json
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.uml


def test_quick_stress_form_passes(uml_kernel, tmp_path):
    out = tmp_path / "stress"
    p = subprocess.run([str(REPO / "tests" / "stress.sh"), "--quick", "--timeout", "900",
                        "--out", str(out)], capture_output=True, text=True)
    report = f"stress.sh exit {p.returncode}\n{p.stdout}\n{p.stderr[-3000:]}"
    s = json.loads((out / "summary.json").read_text())
    assert p.returncode == 0 and s["ok"], report
    assert s["suite"] == "quick" and s["unload"] == "ok", report
    names = [c["name"] for c in s["cases"]]
    assert names == ["loss20", "params", "rmmod", "cycles"], names
    by = {c["name"]: c for c in s["cases"]}
    for c in s["cases"]:
        assert set(c["per_cc"]) == {"bbr_a", "bbr_a_fair", "bbq", "da_bbr"}, c
        assert c["flows_failed"] == 0 and c["bytes"] > 0, c
    # the actions happened: writes during the transfers, refused rmmods, every cycle
    assert by["params"]["writes"] > 10, by["params"]
    assert by["rmmod"]["actions"] > 0 and by["cycles"]["cycles"] == 2
    assert s["totals"]["findings"] == 0 and s["totals"]["flows"] == sum(
        c["flows"] for c in s["cases"])
