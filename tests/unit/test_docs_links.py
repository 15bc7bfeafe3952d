"""Every relative link in the repository's Markdown files points at a file or directory that
is in the repository (committed data included), so docs read in a fresh clone resolve."""
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def tracked_markdown():
    out = subprocess.run(["git", "ls-files", "*.md"], cwd=REPO, capture_output=True,
                         text=True)
    if out.returncode != 0:  # not a git checkout: every .md file in the tree
        return sorted(p for p in REPO.rglob("*.md") if ".git" not in p.parts)
    return [REPO / line for line in out.stdout.splitlines()]


def test_relative_links_resolve():
    broken = []
    files = tracked_markdown()
    assert files, "no Markdown files found"
    for md in files:
        for target in LINK.findall(md.read_text()):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, mailto:, ...
                continue
            if not (md.parent / target).exists():
                broken.append(f"{md.relative_to(REPO)} -> {target}")
    assert not broken, "broken relative links:\n" + "\n".join(broken)
