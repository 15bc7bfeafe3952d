"""Paths that change, on UML (time travel): a route change of --delay-schedule moves the
class's base RTT at its time, the run records it (delay_changes.txt, params, summary.json)
and its time series marks it.

Selected with `-m uml` like the other UML tests; needs the UML kernel (scripts/uml.sh build).
"""
import csv
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.uml


def test_a_route_change_moves_the_class_rtt_at_its_time(run_testbed, tmp_path):
    """Class 1's path goes from 10 to 40 ms at 3 s and back to 10 ms at 6 s; class 2 stays at
    30 ms. Flow 1's smoothed RTT follows (ss samples), flow 2's does not."""
    out = tmp_path / "rc"
    summary = run_testbed(out, "--cc", "bbr", "--rtt", "10,30", "--rate", "20",
                          "--buffer-bdp", "2", "--duration", "9", "--warmup", "1",
                          "--delay-schedule", "1:3:40,1:6:10", "--sample-ms", "100",
                          "--trace", "off", "--seed", "1")
    r = summary["results"][0]
    changes = r["delay_changes"]
    assert [(c["class"], c["rtt_ms"]) for c in changes] == [(1, 40.0), (1, 10.0)], changes
    assert abs(changes[0]["t_s"] - 3) < 0.2 and abs(changes[1]["t_s"] - 6) < 0.2, changes
    assert r["params"]["delay_schedule"] == "1:3:40 1:6:10"
    run = out / "bbr" / "run1"
    assert len((run / "delay_changes.txt").read_text().splitlines()) == 2

    srtt = {1: [], 2: []}
    with open(run / "ss.csv") as f:
        for row in csv.DictReader(f):
            if row["srtt_ms"]:
                srtt[int(row["flow"])].append((float(row["t_s"]), float(row["srtt_ms"])))

    def lowest(flow, a, b):
        return min(v for t, v in srtt[flow] if a <= t < b)

    # the path's RTT is the floor of the samples: 10 ms, then 40, then 10 again
    assert 9 <= lowest(1, 1, 3) < 20, srtt[1]
    assert 39 <= lowest(1, 4, 6) < 60, srtt[1]
    assert 9 <= lowest(1, 7.5, 9) < 20, srtt[1]
    assert all(29 <= lowest(2, a, a + 2) < 60 for a in (1, 4, 7)), srtt[2]
    # the run's time series draws it (the marks themselves: tests/unit/test_testbed_plot.py)
    p = subprocess.run(["/usr/bin/python3", str(REPO / "plots" / "plot.py"), str(run)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert (run / "timeseries.png").stat().st_size > 10000
