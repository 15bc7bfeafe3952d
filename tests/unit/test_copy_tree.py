"""scripts/lib/common.sh's copy_tree, the project tree a guest gets: a results directory
(results_dir's mark) inside the tree is left out, wherever it is, so a run whose --out is in
the tree neither ships earlier results into its guest nor fails on a parallel job's files."""
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bash(script):
    return subprocess.run(["bash", "-c", f"set -euo pipefail; source scripts/lib/common.sh; {script}"],
                          cwd=ROOT, capture_output=True, text=True)


def test_results_dirs_in_the_tree_are_not_copied(tmp_path):
    tree, dest = tmp_path / "tree", tmp_path / "dest"
    (tree / "testbed").mkdir(parents=True)
    (tree / "testbed" / "run.sh").write_text("x")
    (tree / "plain").mkdir()
    (tree / "plain" / "data.csv").write_text("kept")
    p = bash(f'results_dir "{tree}/out/screen"; results_dir "{tree}/testbed/mine";'
             f' echo r >"{tree}/out/screen/summary.json"; echo r >"{tree}/testbed/mine/a.json";'
             f' REPO="{tree}"; copy_tree "{dest}"')
    assert p.returncode == 0, p.stderr
    got = sorted(str(q.relative_to(dest)) for q in dest.rglob("*"))
    # out/ itself is an ordinary directory; only the marked one below it is left out
    assert got == ["out", "plain", "plain/data.csv", "testbed", "testbed/run.sh"], got


def test_results_dir_marks_and_is_idempotent(tmp_path):
    d = tmp_path / "a" / "b"
    p = bash(f'results_dir "{d}"; results_dir "{d}"; ls -A "{d}"')
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == [".bbr_a-results"]


def test_results_dir_refuses_the_tree_and_what_holds_it(tmp_path):
    # marking the tree (screen.sh --out .) would make copy_tree leave out everything
    tree = tmp_path / "tree"
    tree.mkdir()
    for target in (tree, tmp_path):
        p = bash(f'REPO="{tree}"; results_dir "{target}"')
        assert p.returncode != 0 and "holds the project tree" in p.stderr, p.stderr
        assert not (target / ".bbr_a-results").exists()
    p = bash(f'REPO="{tree}"; results_dir "{tree}/out"')
    assert p.returncode == 0, p.stderr


def test_copy_tree_fails_on_a_tree_marked_as_results(tmp_path):
    tree, dest = tmp_path / "tree", tmp_path / "dest"
    tree.mkdir()
    (tree / "run.sh").write_text("x")
    (tree / ".bbr_a-results").write_text("")
    p = bash(f'REPO="{tree}"; copy_tree "{dest}"')
    assert p.returncode != 0 and "marked as results" in p.stderr, p.stderr
