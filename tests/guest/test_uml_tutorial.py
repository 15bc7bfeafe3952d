"""docs/tutorial.md's commands run as written, in a short form: the section "bbr_a_fair
against CUBIC at three buffers" is taken from the page itself (its sh block), with a
shorter --duration and --warmup, one seed and a scratch directory for /tmp, and must print
its table and draw its figure. A tutorial whose commands no longer work fails here.

Selected with `-m uml` like the other UML tests; needs the UML kernel (scripts/uml.sh build).
"""
import json
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TUTORIAL = REPO / "docs" / "tutorial.md"

pytestmark = pytest.mark.uml


def section_script(title):
    """The first ```sh block of the tutorial's section TITLE."""
    text = TUTORIAL.read_text()
    sec = text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
    m = re.search(r"```sh\n(.*?)```", sec, re.S)
    assert m, f"no sh block in the tutorial's section {title!r}"
    return m.group(1)


def short_form(script, tmp):
    """The script with one seed, short runs and tmp for /tmp."""
    script = script.replace("--seeds 1,2,3", "--seeds 1")
    script = script.replace("--duration 120 --warmup 40", "--duration 12 --warmup 4")
    script = script.replace("--duration 60", "--duration 10")
    return script.replace("/tmp/", f"{tmp}/")


def run_section(title, tmp, must_have):
    """Runs the short form of the section's script; returns its stdout."""
    script = short_form(section_script(title), tmp)
    assert all(s in script for s in must_have), script
    p = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=REPO,
                       capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    return p.stdout


def test_the_tutorial_s_cubic_screen_gives_its_table_and_figure(uml_kernel, tmp_path):
    out = run_section("bbr_a_fair against CUBIC at three buffers", tmp_path,
                      ("--seeds 1 ", "--duration 12"))
    # plot.py --table's markdown: a row per scenario, a column per configuration
    table = [line for line in out.splitlines() if line.startswith("|")]
    assert table and all(c in table[0] for c in ("fair", "bbr", "cubic2")), out[-2000:]
    assert {row.split("|")[1].strip() for row in table[2:]} == {"c1", "c5", "c20"}
    assert (tmp_path / "vs-cubic" / "shares.png").stat().st_size > 1000


def test_the_tutorial_s_own_cc_runs_against_cubic(uml_kernel, tmp_path):
    run_section("Your own congestion control against CUBIC", tmp_path,
                ("--module-src examples/cc", "--duration 10"))
    s = json.loads((tmp_path / "mine" / "summary.json").read_text())
    assert [r["cc"] for r in s["aggregate"]] == ["example+cubic", "cubic+cubic"]
    ex = s["aggregate"][0]["class_share_mean"]
    assert len(ex) == 2 and all(x > 0.05 for x in ex), ex  # both flows carried traffic
