"""The structure limits of issue 48 ("A guide, not a notebook"): a Python function of the
testbed (testbed/, plots/) fits on a screen, at most 60 lines, and a shell script outside
tests/ at most 250 lines; longer ones are split (shell: sourced libraries with one job each,
testbed/lib/, scripts/lib/). Counted over the files git tracks and the new ones it does not
ignore, so that a file being written counts before its first commit."""
import ast
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MAX_FUNCTION = 60
MAX_SCRIPT = 250

pytestmark = pytest.mark.skipif(not shutil.which("git") or not (REPO / ".git").exists(),
                                reason="needs git and a clone")


def repo_files(*patterns):
    """The files git tracks or would add (not ignored) that match the pathspecs, that exist."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                          "--", *patterns], cwd=REPO, check=True, capture_output=True,
                         text=True).stdout
    return sorted({p for p in out.splitlines() if (REPO / p).is_file()})


def long_functions(source, limit=MAX_FUNCTION):
    """(name, first line, lines) of each function of the Python source over limit lines, from
    its first decorator to its last line (nested functions count in their parent too)."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            lines = node.end_lineno - first + 1
            if lines > limit:
                found.append((node.name, first, lines))
    return found


@pytest.mark.parametrize("body, over", [(57, False), (58, True)])
def test_counts_a_function_from_its_decorator(body, over):
    """The checker itself: a decorator, a def line, body lines and a return: 60 lines are
    within the limit, 61 are not; a function's nested ones count in it too."""
    lines = "".join(f"    x{i} = {i}\n" for i in range(body))
    src = f"@staticmethod\ndef f():\n{lines}    return 0\n"
    assert long_functions(src) == ([("f", 1, 61)] if over else [])
    wrapped = "def g():\n" + "".join("    " + line + "\n" for line in src.splitlines())
    assert [f[0] for f in long_functions(wrapped)] == (["g", "f"] if over else ["g"])


def test_python_functions_fit_on_a_screen():
    files = repo_files("testbed/*.py", "plots/*.py")
    assert any(f.startswith("testbed/") for f in files)
    over = [f"{f}:{line} {name}() has {n} lines" for f in files
            for name, line, n in long_functions((REPO / f).read_text())]
    assert not over, f"functions over {MAX_FUNCTION} lines (split them):\n" + "\n".join(over)


def test_shell_scripts_outside_tests_are_short():
    files = [f for f in repo_files("*.sh") if not f.startswith("tests/")]
    assert "testbed/scenario.sh" in files
    over = []
    for f in files:
        n = len((REPO / f).read_text().splitlines())
        if n > MAX_SCRIPT:
            over.append(f"{f} has {n} lines")
    assert not over, (f"shell scripts over {MAX_SCRIPT} lines (split them into sourced "
                      "libraries, testbed/lib/ or scripts/lib/):\n" + "\n".join(over))


MAX_COLUMNS = 8


def wide_tables(text, limit=MAX_COLUMNS):
    """The names of the generated blocks of a page whose table has more than limit columns
    (a block's header row is the line before its |---| row)."""
    wide, block = set(), None
    for line in text.splitlines():
        if line.startswith("<!-- table:"):
            block = line[len("<!-- table:"):].split(" ")[0].rstrip(">").rstrip("-").strip()
        elif line.startswith("|---") and line.count("|") - 1 > limit:
            wide.add(block)
    return wide


def test_wide_tables_parser_counts_columns():
    text = "<!-- table:a -->\n| x | y |\n|---|---|\n<!-- table:b -->\n|" + " z |" * 9 + "\n|" + \
        "---|" * 9 + "\n"
    assert wide_tables(text) == {"b"}


def test_tables_have_at_most_eight_columns():
    """Issue 48: a table a reader takes in at a glance has at most eight columns; README.md
    and docs/ outside the notebook, whose tables are frozen history."""
    found = set()
    for page in repo_files("README.md", "docs/*.md"):
        if page.count("/") <= 1:  # docs/notebook/ and the data's READMEs are not pages
            found |= {(page, b) for b in wide_tables((REPO / page).read_text())}
    assert not found, f"tables over {MAX_COLUMNS} columns: {sorted(found)}"
