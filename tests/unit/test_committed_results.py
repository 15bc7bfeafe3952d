"""What the committed results under docs/results must hold, whatever made them."""
import json
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def committed_json():
    out = subprocess.run(["git", "ls-files", "docs/results"], cwd=REPO, capture_output=True,
                         text=True, check=True).stdout.split()
    return [REPO / f for f in out if f.endswith(".json") and (REPO / f).exists()]


def test_run_paths_are_relative_to_their_summary():
    """No committed summary names the machine it was made on: each run's dir is its path from
    the summary's directory, <cc item>/run<N> (scripts/relative_dirs.py rewrote the older
    ones; the analysis writes them so since)."""
    files = committed_json()
    assert len(files) > 1000
    bad = []
    for path in files:
        d = json.loads(path.read_text())
        for r in d.get("results", []) if isinstance(d, dict) else []:
            if "dir" in r and not re.fullmatch(r"[^/]+/run[0-9]+", r["dir"]):
                bad.append(f"{path.relative_to(REPO)}: {r['dir']}")
    assert not bad, f"{len(bad)} run paths not relative, e.g. {bad[:3]}"
