"""Fig. 5's table counts the jobs of a screen, not the seed<N>.stale/ copies screen.sh moves
aside when it runs a job again: a re-run of da_bbr's points read "10 seeds"."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "testbed"))
from analysis.figures.paper import fig5_rows  # noqa: E402


def summary(path, t10, t50):
    path.mkdir(parents=True)
    flows = [{"throughput_mbps": t10}, {"throughput_mbps": t50}]
    (path / "summary.json").write_text(json.dumps(
        {"results": [{"flows": flows, "jain": 0.9, "utilization": 0.95}]}))


def test_stale_copies_are_not_seeds(tmp_path):
    summary(tmp_path / "da_bbr" / "b5" / "seed1", 30.0, 60.0)
    summary(tmp_path / "da_bbr" / "b5" / "seed1.stale", 10.0, 80.0)  # the earlier run
    rows = fig5_rows(str(tmp_path))
    assert [(r[0], r[1], r[2]) for r in rows] == [("b5", "da_bbr", 1)]
    assert rows[0][3] == 30.0 and rows[0][7] == 2.0  # 10 ms flow, ratio 50/10
