"""Every commit the docs cite is in the repository's history (issue: every published number
generated from committed data): a reader must be able to check out what made a result.
Short commit ids are 7 to 10 lower-case hex digits with a letter and a digit among them;
the module and testbed source hashes (12 digits) and srcversions (upper case) are not."""
import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHORT = re.compile(r"(?<![0-9A-Za-z_/.-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,10}"
                   r"(?![0-9A-Za-z_])")


def ids(text):
    return SHORT.findall(text)


def cited():
    out = {}
    for md in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for c in ids(md.read_text()):
            out.setdefault(c, md.relative_to(ROOT).as_posix())
    return out


def test_the_pattern_finds_commit_ids_only():
    assert ids("commits 1a2b3c4 and 5d6e7f8a; hash 52bbc50bf099, 3125000 B, ABCDEF1, "
               "face0ff, sha 0123456789abc") == ["1a2b3c4", "5d6e7f8a", "face0ff"]


def test_every_cited_commit_resolves():
    commits = cited()
    assert len(commits) > 5, "no citations found: has the wording changed?"
    missing = {c: f for c, f in commits.items() if not in_history(c)}
    assert not missing, f"commits cited in docs that are not in the history: {missing}"


def in_history(commit):
    """An ancestor of HEAD, not merely an object here: a commit amended away or left on a
    local branch is still in this clone's object store but not in a fresh clone of main."""
    return subprocess.run(["git", "merge-base", "--is-ancestor", f"{commit}^{{commit}}", "HEAD"],
                          cwd=ROOT, capture_output=True).returncode == 0


def test_a_commit_only_in_the_object_store_is_not_in_the_history():
    who = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    detached = subprocess.run(["git", "commit-tree", "HEAD^{tree}", "-m", "detached"], cwd=ROOT,
                              env={**os.environ, **who}, capture_output=True, text=True,
                              check=True).stdout.strip()
    assert not in_history(detached)
    assert in_history(subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                                     text=True, check=True).stdout.strip())
