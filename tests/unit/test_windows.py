"""analyze.py --share-windows: each part's share of a mixed run in consecutive windows."""
import csv
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "testbed"))

from analysis import windows  # noqa: E402


def job(root, config, scenario, seed, per_second, duration=4):
    """A screen job with one run: flows 1 and 2 in classes 1 and 2 (cubic in both),
    per_second[i] = (bytes of flow 1, bytes of flow 2) in second i."""
    run = root / config / scenario / f"seed{seed}" / "cubic+cubic" / "run1"
    run.mkdir(parents=True)
    (run / "flows.txt").write_text("1 1 20 cubic 5201 0.000 4 1 0\n2 2 20 cubic 5202 0.000 4 2 0\n")
    (run / "params.env").write_text(f"duration_s={duration}\nkernel=6.1.192\n"
                                    "module_version=0.6.0\n")
    with open(run / "throughput.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["flow", "cc", "rtt_ms", "t_start_s", "t_end_s", "bytes", "mbps"])
        for i, (a, b) in enumerate(per_second):
            w.writerow([1, "cubic", 20, float(i), i + 1.0, a, 0])
            w.writerow([2, "cubic", 20, float(i), i + 1.0, b, 0])


def test_parts_are_told_apart_by_class_and_windows_split_time(tmp_path):
    job(tmp_path, "cubic2", "c20", 1, [(300, 100), (100, 100), (0, 100), (100, 300)])
    rows = windows.screen_windows(str(tmp_path), 2)
    by = {(r[3], r[5]): r[7] for r in rows}
    assert by[(0.0, 1)] == round(400 / 600, 6) and by[(0.0, 2)] == round(200 / 600, 6)
    assert by[(2.0, 1)] == 100 / 500 and by[(2.0, 2)] == 400 / 500
    assert {r[2] for r in rows} == {"1"} and rows[0][8:10] == ["6.1.192", "0.6.0"]


def test_the_command_writes_the_csv(tmp_path):
    job(tmp_path / "s", "A", "d20", 2, [(10, 30)] * 4)
    out = tmp_path / "w.csv"
    p = subprocess.run([sys.executable, str(ROOT / "testbed" / "analyze.py"), "--share-windows",
                        str(out), "--window-s", "4", str(tmp_path / "s")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(open(out)))
    assert [(r["part"], float(r["share"])) for r in rows] == [("1", 0.25), ("2", 0.75)]
