"""plots/plot.py on the recorded runs: the PNGs are written and are real images."""
import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIX = Path(__file__).resolve().parent / "fixtures"
PLOT = REPO / "plots" / "plot.py"
ANALYZE = REPO / "testbed" / "analyze.py"
PY = "/usr/bin/python3"

pytest.importorskip("matplotlib")


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_timeseries_png(tmp_path):
    for name in ("run_bbr_a_loss1", "run_bbr_5bdp_noss"):
        shutil.copytree(FIX / name, tmp_path / "res" / name)
    p = subprocess.run([PY, str(PLOT), str(tmp_path / "res"), "--outdir", str(tmp_path / "png")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    pngs = sorted((tmp_path / "png").glob("*.png"))
    assert [x.name for x in pngs] == ["res-run_bbr_5bdp_noss-timeseries.png",
                                      "res-run_bbr_a_loss1-timeseries.png"]
    for x in pngs:
        w, h = png_size(x)
        assert w >= 800 and h >= 800
        assert x.stat().st_size > 20000  # not an empty canvas


@pytest.mark.parametrize("sweep", ["buffer", "ratio", "loss", "flows"])
def test_sweep_png(tmp_path, sweep):
    runs = []
    for name in ("run_bbr_a_loss1", "run_bbr_5bdp_noss"):
        shutil.copytree(FIX / name, tmp_path / name)
        runs.append(str(tmp_path / name))
    csv_path = tmp_path / f"{sweep}.csv"
    p = subprocess.run([PY, str(ANALYZE), "--sweep-csv", str(csv_path), "--sweep", sweep, *runs],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    with open(csv_path) as f:
        assert len(list(csv.DictReader(f))) == 2
    p = subprocess.run([PY, str(PLOT), "--sweep", str(csv_path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    w, h = png_size(tmp_path / f"sweep_{sweep}.png")
    assert w > 500 and h > 300


def test_plot_reports_missing_dir(tmp_path):
    p = subprocess.run([PY, str(PLOT), str(tmp_path / "none")], capture_output=True, text=True)
    assert p.returncode == 1
    assert "no run directories" in p.stderr and "Traceback" not in p.stderr
