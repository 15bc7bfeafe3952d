"""The evaluations' committed results (docs/results/evaluations-uml/<experiment>/, and
evaluations-qemu612/ for QEMU's): each
eval.csv is what analyze.py --evaluation makes of the committed job summaries beside it, so
the docs' tables drawn from it (plots/plot.py --docs) rest on the summaries, not on a typed
or stale file."""
import csv
import io
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "testbed"))
from analysis.evaluation import evaluation_runs  # noqa: E402

RESULTS = REPO / "docs" / "results" / "evaluations-uml"
EVAL_CSVS = sorted(RESULTS.glob("*/eval.csv")) + sorted(
    (REPO / "docs" / "results" / "evaluations-qemu612").glob("*/eval.csv"))


def regenerated(root):
    cols, rows = evaluation_runs(str(root))
    buf = io.StringIO(newline="")
    w = csv.writer(buf)
    w.writerow(cols)
    w.writerows([[r.get(c) for c in cols] for r in rows])
    return buf.getvalue()


def test_there_are_evaluation_results():
    assert {p.parent.name for p in EVAL_CSVS} >= {"aqm", "convergence", "fct", "flent", "loss-60s",
                                                "scenarios"}


@pytest.mark.parametrize("path", EVAL_CSVS, ids=lambda p: p.parent.name)
def test_eval_csv_is_the_summaries(path):
    with open(path, newline="") as f:
        committed = f.read()
    assert committed == regenerated(path.parent), (
        f"{path} differs from its job summaries: testbed/analyze.py --evaluation {path} "
        f"{path.parent}")


def test_a_changed_number_is_seen(tmp_path):
    """The comparison sees one edited cell (the test above can fail)."""
    src = EVAL_CSVS[0]
    text = src.read_text()
    rows = list(csv.reader(io.StringIO(text)))
    i = rows[0].index("utilization")
    rows[1][i] = str(float(rows[1][i]) + 0.001)
    buf = io.StringIO(newline="")
    csv.writer(buf).writerows(rows)
    assert buf.getvalue() != regenerated(src.parent)
