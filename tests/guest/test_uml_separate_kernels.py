"""scripts/separate_kernels.sh end to end: three UML guests of the net variant in real time
(a sender per class, the router and receiver), joined by host taps on host bridges. A short
calibration and one run of bbr at 10 vs 50 ms; the guests held the rate, each flow came
from its own kernel, summary.json is the testbed's, and nothing is left on the host: no tap,
no bridge, no guest process. A TERM in the middle of a run leaves nothing either.

Real time and about 2 to 3 minutes of wall time (a kernel build the first time), and it
needs root: opt-in,

    BBR_A_SEPARATE_TEST=1 /usr/bin/python3 -m pytest -q -p no:cacheprovider \\
        tests/guest/test_uml_separate_kernels.py
"""
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SK = REPO / "scripts" / "separate_kernels.sh"

pytestmark = [
    pytest.mark.uml,
    pytest.mark.skipif(os.environ.get("BBR_A_SEPARATE_TEST") != "1",
                       reason="opt-in: BBR_A_SEPARATE_TEST=1 (real-time guests, minutes)"),
    pytest.mark.skipif(os.geteuid() != 0, reason="needs root (host taps and bridges)"),
]


def leftovers(prefix):
    """Host links and processes of a run whose taps are named prefix...: both must be none
    after it."""
    p = subprocess.run(["ip", "-o", "link", "show"], capture_output=True, text=True)
    links = [ln.split(": ")[1] for ln in p.stdout.splitlines() if ln.split(": ")[1].startswith(prefix)]
    procs = []
    for d in Path("/proc").glob("[0-9]*"):
        try:
            if f"ifname={prefix}".encode() in (d / "cmdline").read_bytes():
                procs.append(d.name)
        except OSError:
            pass
    return links, procs


def test_a_short_run_holds_its_rate_and_leaves_nothing(tmp_path):
    out = tmp_path / "sk"
    p = subprocess.Popen([str(SK), "--cc", "bbr", "--rtt", "10,50", "--rate", "10",
                          "--buffer-bdp", "2", "--duration", "20", "--warmup", "5",
                          "--calibrate", "10", "--out", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stdout, stderr = p.communicate(timeout=900)
    prefix = f"sk{p.pid}"
    assert p.returncode == 0, stderr[-3000:]
    assert leftovers(prefix) == ([], [])
    sep = json.loads((out / "separate.json").read_text())
    assert [r["dir"] for r in sep["runs"]] == ["calibration/cubic/run1", "runs/bbr/run1"]
    assert all(r["held_rate"] for r in sep["runs"]), sep
    summary = json.loads((out / "runs" / "summary.json").read_text())
    r = summary["results"][0]
    assert r["cc"] == "bbr" and len(r["flows"]) == 2 and not r["problems"], r["problems"]
    assert r["params"]["kernel_series"] == "uml-net-realtime"
    # each class's RTT held by its own kernel's path (ping through the router's netem)
    for f, rtt in zip(r["flows"], (10, 50)):
        assert rtt <= f["base_rtt_ms"] < rtt + 3, f
    # the two flows came from two kernels: their own guests' consoles and clocks
    run = out / "runs" / "bbr" / "run1"
    offsets = [float(r["params"][f"clock_offset_s{k}"]) for k in (1, 2)]
    assert abs(offsets[0] - offsets[1]) > 0.001, offsets
    for k in (1, 2):
        assert (run / "guests" / f"s{k}" / "console.log").exists()


def test_a_term_mid_run_kills_the_guests_and_removes_the_links(tmp_path):
    out = tmp_path / "sk"
    p = subprocess.Popen([str(SK), "--cc", "bbr", "--rate", "10", "--duration", "60",
                          "--calibrate", "0", "--out", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    prefix = f"sk{p.pid}"
    # until the three guests run (their processes name their taps)
    end = time.monotonic() + 300
    while len(leftovers(prefix)[1]) < 3 and time.monotonic() < end and p.poll() is None:
        time.sleep(1)
    links, procs = leftovers(prefix)
    assert len(links) == 6 and len(procs) >= 3, (links, procs)
    time.sleep(10)
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=120)
    assert p.returncode == 143
    assert leftovers(prefix) == ([], [])
