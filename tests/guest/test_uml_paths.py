"""Paths that change, on UML (time travel): a route change of --delay-schedule moves the
class's base RTT at its time, the run records it (delay_changes.txt, params, summary.json)
and its time series marks it.

Selected with `-m uml` like the other UML tests; needs the UML kernel (scripts/uml.sh build).
"""
import csv
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.uml

EVENT = re.compile(r"bbr_a_gain: (.*)$")


def test_a_route_change_moves_the_class_rtt_at_its_time(run_testbed, tmp_path):
    """Class 1's path goes from 10 to 40 ms at 3 s and back to 10 ms at 6 s; class 2 stays at
    30 ms. Flow 1's RTT less the queue follows (ss and tc samples), flow 2's does not."""
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

    # the path's RTT: a flow's smoothed RTT less the bottleneck's queueing delay at that
    # sample (bbr keeps tens of ms of queue here), its median over a window
    qd = {}
    with open(run / "queue.csv") as f:
        for row in csv.DictReader(f):
            qd[round(float(row["t_s"]), 1)] = float(row["qdelay_ms"])
    path = {1: [], 2: []}
    with open(run / "ss.csv") as f:
        for row in csv.DictReader(f):
            t = round(float(row["t_s"]), 1)
            if row["srtt_ms"] and t in qd:
                path[int(row["flow"])].append((t, float(row["srtt_ms"]) - qd[t]))

    def median(flow, a, b):
        v = sorted(x for t, x in path[flow] if a <= t < b)
        return v[len(v) // 2]

    # class 1: 10 ms, then 40, then 10 again; class 2 30 ms throughout
    got = [round(median(1, a, b), 1) for a, b in ((1.5, 3), (4, 6), (7, 9))]
    assert [abs(m - w) < 6 for m, w in zip(got, (10, 40, 10))] == [True] * 3, (got, path[1])
    got = [round(median(2, a, b), 1) for a, b in ((1.5, 3), (4, 6), (7, 9))]
    assert all(abs(m - 30) < 6 for m in got), (got, path[2])
    # the run's time series draws it (the marks themselves: tests/unit/test_testbed_plot.py)
    p = subprocess.run(["/usr/bin/python3", str(REPO / "plots" / "plot.py"), str(run)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert (run / "timeseries.png").stat().st_size > 10000


def test_a_longer_path_is_not_a_competitor(run_testbed, tmp_path):
    """bbr_a_fair, 10 vs 50 ms, 5 BDP; the 10 ms path grows to 25 ms at 15 s (a route
    change). Every later PROBE_RTT ends 15 ms above the old path's RTT, which tcp_min_rtt
    remembers for five minutes; with no congestion loss over those dips that is the path, not
    a buffer filler's queue: neither flow is ever flagged (the trace's compete), and the
    flows share the link with a short queue. 0.20.0 flagged the 10 ms flow at its third dip
    after the change and starved the other (Jain 0.52, a 178 ms queue at 100 Mbit/s)."""
    out = tmp_path / "longer"
    summary = run_testbed(out, "--cc", "bbr_a_fair", "--rtt", "10,50", "--rate", "20",
                          "--buffer-bdp", "5", "--duration", "60", "--warmup", "45",
                          "--delay-schedule", "1:15:25", "--sample-ms", "500", "--seed", "1")
    r = summary["results"][0]
    run = out / "bbr_a_fair" / "run1"
    events = [dict(kv.split("=", 1) for kv in m.group(1).split())
              for line in (run / "trace.txt").read_text().splitlines()
              if (m := EVENT.search(line))]
    dips = [e for e in events if e["mode"] == "3"]
    assert len({(e["dport"], int(e["t_us"]) // 5_000_000) for e in dips}) >= 6, \
        "too few PROBE_RTTs after the change to test the flag"
    assert not [e for e in events if e["compete"] != "0"], "a flow was flagged"
    assert r["jain"] >= 0.9, r["jain"]
    assert r["queue_delay_ms"]["mean"] < 30, r["queue_delay_ms"]
