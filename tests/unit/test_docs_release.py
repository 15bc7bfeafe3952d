"""README.md and docs/*.md are a guide to the current release (issue 48): they name no
other release. Release history is CHANGELOG.md's and the commits'; the notebook
(docs/notebook/) is history as it was written; the data's READMEs and the blocks'
provenance files (docs/results/) name the releases their runs are of."""
import re
from pathlib import Path

from test_packaging import dkms_conf

REPO = Path(__file__).resolve().parents[2]
RELEASE = re.compile(r"(?<![\d.])[01]\.\d{1,2}\.\d{1,3}(?![.\d])")

# tools whose versions look like a release: the word before the number names them
TOOLS = ("sparse",)


def other_releases(text, now):
    """[(line number, release)] of the releases text names other than now."""
    return [(text.count("\n", 0, m.start()) + 1, m.group(0)) for m in RELEASE.finditer(text)
            if m.group(0) != now and not text[:m.start()].rstrip().endswith(TOOLS)]


def test_the_guide_names_only_the_current_release():
    now = dkms_conf()["version"]
    found = {p.relative_to(REPO).as_posix(): other_releases(p.read_text(), now)
             for p in [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))}
    found = {k: v for k, v in found.items() if v}
    assert not found, f"releases other than {now} named: {found}"


def test_a_release_is_told_from_other_numbers():
    assert other_releases("tcp_bbr_a 0.27.0 and 0.28.0, kernel 6.1.192, 6.12.117, "
                          "1.0.0; 10.0.0.1;\ntag v0.26.0, sparse\n0.6.4", "0.28.0") == [
        (1, "0.27.0"), (1, "1.0.0"), (2, "0.26.0")]


def test_the_readme_is_read_in_five_minutes():
    """Issue 48: README.md is at most 150 lines; what does not fit is in docs/."""
    lines = (REPO / "README.md").read_text().count("\n")
    assert lines <= 150, f"README.md has {lines} lines, at most 150"
