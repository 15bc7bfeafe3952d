"""Shared fixtures of the guest tests."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UML_SH = REPO / "scripts" / "uml.sh"


def pytest_configure(config):
    config.addinivalue_line("markers", "guest: boots QEMU guests (slow; needs scripts/setup.sh)")
    config.addinivalue_line("markers", "uml: runs User-Mode Linux guests")


def _missing_prerequisites():
    if os.uname().machine != "x86_64":
        return "UML is built for x86_64 only"
    if not Path("/usr/src/linux-source-6.1.tar.xz").exists():
        return "linux-source-6.1 not installed (scripts/setup.sh installs it)"
    tools = ["make", "gcc", "flex", "bison", "bc", "patch", "iperf3", "ethtool"]
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        return "missing tools to build/run UML: " + ", ".join(missing)
    return None


@pytest.fixture(scope="module")
def uml_kernel():
    reason = _missing_prerequisites()
    if reason:
        pytest.skip("UML kernel cannot be built on this machine: " + reason)
    # Builds once (~10 min) when not cached; a build failure is a test failure.
    p = subprocess.run([str(UML_SH), "build"], capture_output=True, text=True)
    assert p.returncode == 0, "UML build failed:\n" + p.stderr[-4000:]
    return p.stdout.strip()


@pytest.fixture
def run_testbed(uml_kernel):
    """testbed/rtt_fairness.sh on UML: run(out, *options) fails the test unless the run
    succeeds, and returns its summary.json."""
    def run(out, *options):
        p = subprocess.run(
            [str(REPO / "testbed" / "rtt_fairness.sh"), "--backend", "uml", *options,
             "--out", str(out)],
            capture_output=True, text=True, timeout=1800)
        assert p.returncode == 0, f"rtt_fairness.sh failed:\n{p.stderr[-4000:]}"
        return json.loads((out / "summary.json").read_text())
    return run


@pytest.fixture
def tree_without_probe(tmp_path):
    """tree_without_probe(probe): a copy of the module's sources in tmp_path/src whose Kbuild
    lacks the one feature probe whose line names probe (a HAVE_ macro), so that it builds as
    for a kernel without that feature; returns the copy's directory."""
    def make(probe):
        src = tmp_path / "src"
        src.mkdir()
        for name in ("Makefile", "dkms.conf", "bbr_a_core.c"):
            shutil.copy(REPO / name, src / name)
        for name in ("include", "algos"):
            shutil.copytree(REPO / name, src / name)
        kbuild = (REPO / "Kbuild").read_text()
        lines = [ln for ln in kbuild.splitlines()
                 if ln.startswith("ccflags-y += $(call bbr_a_probe,") and f",{probe}," in ln]
        assert len(lines) == 1, f"Kbuild's {probe} probe not found"
        (src / "Kbuild").write_text(kbuild.replace(lines[0] + "\n", ""))
        return src
    return make
