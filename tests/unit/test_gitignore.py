""".gitignore keeps a reproduction's raw runs out of the repository and lets through what a
re-run needs to skip a job (testbed/reproduce.sh's default --out, docs/results/reproduce)."""
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
JOB = "docs/results/reproduce/fig7/bbr/r20/seed3"


@pytest.mark.skipif(not shutil.which("git") or not (REPO / ".git").exists(),
                    reason="needs git and a clone")
@pytest.mark.parametrize("path, ignored", [
    (f"{JOB}/summary.json", False),
    (f"{JOB}/job.key", False),
    ("docs/results/reproduce/fig7/screen.csv", False),
    ("docs/results/reproduce/fig7/screen_runs.csv", False),
    ("docs/results/reproduce/fig5/fig5_b5.png", False),
    (f"{JOB}/comparison.png", True),
    (f"{JOB}/bbr/run1/trace.txt", True),
    (f"{JOB}/bbr/run1/summary.json", True),
    (f"{JOB}.log", True),
    (f"{JOB}.stale/summary.json", True),
    ("docs/results/reproduce/fig7/.screen.lock", True),
    ("docs/results/reproduce/fig7/slurm/jobs.txt", True),
    ("docs/results/reproduce/configs.txt", True),
    ("results/rtt_fairness-1/summary.json", True),
])
def test_reproduction_keeps_summaries_and_keys_only(path, ignored):
    p = subprocess.run(["git", "-C", str(REPO), "check-ignore", "--no-index", "-q", path])
    assert p.returncode == (0 if ignored else 1), (path, p.returncode)
