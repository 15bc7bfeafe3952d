"""The numbers in README.md, docs/*.md and the results READMEs are generated from committed
data (analysis/docs.py, docs_blocks.py): every block re-rendered must equal the file, so a
stale or hand-edited number fails here; and the tables round once, from the per-run values."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PLOT = REPO / "plots" / "plot.py"
sys.path.insert(0, str(REPO / "testbed"))
from analysis import docs, wall  # noqa: E402
from analysis.common import AnalysisError  # noqa: E402
from analysis.docs_blocks import BLOCKS  # noqa: E402


def test_every_block_equals_its_data():
    stale = docs.update(check=True)
    assert not stale, ("blocks that differ from their data (plots/plot.py --docs rewrites "
                       f"them): {stale}")


def test_every_block_is_in_a_doc_and_every_doc_block_is_known():
    used = [name for path in docs.doc_files()
            for name, _, _ in docs.blocks_in(Path(path).read_text())]
    assert sorted(used) == sorted(BLOCKS), "each block once, and no block without a table"


def test_the_headline_rows_are_of_one_release_and_one_build():
    """Issue 48: the tables of README.md and docs/results.md, the headline rows, come from one
    release's module and one build of it (srcversion), as each block's provenance file names
    them (fresh: test_every_block_equals_its_data), not from a mix of releases."""
    seen = {"tcp_bbr_a": set(), "srcversion": set()}
    for doc in (REPO / "README.md", REPO / "docs" / "results.md"):
        for name, _, _ in docs.blocks_in(doc.read_text()):
            facts = (REPO / docs.PROVENANCE_DIR / f"{name}.md").read_text()
            for field, values in seen.items():
                m = re.search(rf"^- {field}: (.*)$", facts, re.M)
                if m:
                    values.add(m.group(1))
    assert all(len(v) == 1 and "(" not in min(v) for v in seen.values()), seen


def test_blocks_render_from_committed_summaries_only():
    tracked = set(subprocess.run(["git", "ls-files", "docs/results"], cwd=REPO,
                                 capture_output=True, text=True, check=True).stdout.split())
    for name, table in BLOCKS.items():
        for path in table.sources.values():
            assert path.startswith("docs/results/"), (name, path)
            if path.endswith(".csv"):  # per-run rows, or per-run windows of shares, or
                # analyze.py --evaluation's per-run rows (test_evaluation_results.py: equal
                # to the summaries beside them)
                assert path.endswith(("screen_runs.csv", "windows.csv", "/eval.csv")) or path in (
                    "docs/results/client-uml/runs-receive.csv",  # the client comparison's
                    "docs/results/client-uml/runs.csv",  # per-run rows
                    "docs/results/cost-per-ack-uml/cost.csv",  # per-run CPU
                    "docs/results/cost-per-ack-uml/ack-bench.csv",  # per timed loop
                    "docs/results/sampler-cost-uml/wall.csv",  # per-run wall times
                    "docs/results/client-uml/cost-clean.csv",
                    "docs/results/client-uml/cost-aad7e6c.csv",
                    "docs/results/convergence-uml/convergence.csv",  # per run and window
                    "docs/results/convergence-uml/convergence-aad7e6c.csv",
                    "docs/results/stress-uml/runs.csv",
                    # per PROBE_RTT of the runs' gain traces (analyze.py --trace-dips)
                    "docs/results/coexistence-uml/v0310/bbr/dips.csv") or path.startswith(
                    "docs/results/guest-soak/"), (name, path)  # per guest run
                assert path in tracked, (name, path)
            elif path.endswith(".json"):  # one summary.json of a --repeat set, committed as is
                assert os.path.basename(path).startswith("summary"), (name, path)
                assert path in tracked, (name, path)
            else:  # a screen.sh tree: its jobs' summaries and keys, never their raw runs
                assert any(t.startswith(path + "/") and t.endswith("/summary.json")
                           for t in tracked), (name, path)


def test_the_results_readmes_are_docs():
    """plot.py --docs rewrites, and the check covers, the blocks of docs/results/**/README.md
    as those of README.md and docs/*.md."""
    files = [os.path.relpath(p, REPO) for p in docs.doc_files()]
    assert files[0] == "README.md" and "docs/backends.md" in files
    for readme in ("docs/results/client-uml/README.md",
                   "docs/results/fairness-qemu612/README.md",
                   "docs/results/reproduce/fig6/README.md"):
        assert readme in files, readme
    assert not [f for f in files if f.startswith("docs/results/") and
                os.path.basename(f) != "README.md"]


def test_a_summary_json_is_a_source_of_runs(tmp_path):
    """One summary.json of a --repeat set: a run per result, config its cc, the flows'
    throughputs unrounded and the run's own wall time; a run that is no result is marked."""
    src = REPO / "docs/results/fairness-qemu612/summary-0.4.0-loss6-g0.json"
    results = json.loads(src.read_text())["results"]
    runs = docs.load_runs(str(src))
    assert [r["config"] for r in runs] == [x["cc"] for x in results]
    assert [r["jain"] for r in runs] == [x["jain"] for x in results]
    assert [r["tputs"] for r in runs] == [[f["throughput_mbps"] for f in x["flows"]]
                                          for x in results]
    assert [r["wall_s"] for r in runs] == [float(x["params"]["wall_s"]) for x in results]
    assert not any(r["problems"] for r in runs)
    bad = json.loads(src.read_text())
    bad["results"][0]["params"]["flow_rc_1"] = "1"
    (tmp_path / "summary-x.json").write_text(json.dumps(bad))
    runs = docs.load_runs(str(tmp_path / "summary-x.json"))
    assert runs[0]["problems"].startswith("client failed") and not runs[1]["problems"]


def test_a_hand_edited_number_fails():
    text = (REPO / "docs" / "reproduction.md").read_text()
    a = text.index("<!-- table:fig8-retrans -->")
    i = text.index("| n1-b0.1 | ", a)
    edited = text[:i] + text[i:].replace("4.3 +- 0.0", "4.2 +- 0.0", 1)
    assert edited != text
    new, changed = docs.rewrite(edited, BLOCKS, doc="docs/reproduction.md")
    assert changed == ["fig8-retrans"] and new == text


def test_check_exits_1_naming_the_stale_block(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("# x\n\n<!-- table:fig7-jain -->\n| typed | 0.59 |\n<!-- /table -->\nprose\n")
    p = subprocess.run([sys.executable, str(PLOT), "--docs", "--check", str(doc)],
                       capture_output=True, text=True)
    assert p.returncode == 1 and "doc.md: stale: fig7-jain" in p.stderr, p.stderr
    p = subprocess.run([sys.executable, str(PLOT), "--docs", str(doc)], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    out = doc.read_text()
    assert "| 10 | 0.583 +- 0.002 |" in out and out.endswith("<!-- /table -->\nprose\n")
    assert "| typed |" not in out
    p = subprocess.run([sys.executable, str(PLOT), "--docs", "--check", str(doc)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_a_block_carries_its_own_provenance_and_can_move():
    """The caption names the block, its files and seeds and links the block's provenance
    file, which holds the rest (kernel, module, keys); the block's lines are the same
    wherever it stands but for that link, relative to its file."""
    lines, prov = docs.render_block("fig6-jain", BLOCKS["fig6-jain"], doc="docs/reproduction.md")
    line = lines[-1]
    assert line.startswith("_Block `fig6-jain`, generated by `plots/plot.py --docs`")
    for what in ("`docs/results/reproduce/fig6/screen_runs.csv` (420 runs)", "seeds 1..5",
                 "provenance: [fig6-jain](results/provenance/fig6-jain.md)"):
        assert what in line, what
    assert "tcp_bbr_a" not in line and "kernel" not in line
    for what in ("`docs/results/reproduce/fig6/screen_runs.csv` (420 runs)",
                 "kernel: 6.1.192",
                 "tcp_bbr_a: 0.3.0 (140 runs), 0.6.1 (70 runs), 1.0.0 (70 runs)",
                 "srcversion: 7C58EC10980726588B2893A (140 runs)",
                 "module 45c97f543923 testbed 7043996d2d36 (270 runs)"):
        assert what in prov, what
    assert (REPO / "docs/results/provenance/fig6-jain.md").read_text() == prov
    moved = docs.rewrite("<!-- table:fig6-jain -->\n<!-- /table -->", BLOCKS,
                         doc="README.md")[0].split("\n")[1:-1]
    assert moved[:-2] == [""] + lines[:-1] and moved[-2].endswith(
        "provenance: [fig6-jain](docs/results/provenance/fig6-jain.md)._")


def test_a_stale_or_orphan_provenance_file_fails_the_check(tmp_path):
    """update(check=True) names a provenance file that differs from its block, and one of
    no block; without check it rewrites the one and removes the other."""
    (tmp_path / "docs/results").mkdir(parents=True)
    (tmp_path / "docs/results/w.csv").write_text("config,jain,seed\na,0.9,1\na,0.8,2\n")
    table = docs.Table({"w": "docs/results/w.csv"}, ["c"], [(["a"], {"src": "w", "config": "a"})],
                       [docs.Col("Jain", "jain", 2)], what="x")
    (tmp_path / "README.md").write_text("<!-- table:t -->\n<!-- /table -->\n")
    assert docs.update(repo=str(tmp_path), blocks={"t": table}) != {}
    prov = tmp_path / "docs/results/provenance/t.md"
    assert "- from: `docs/results/w.csv` (2 runs)" in prov.read_text()
    assert "provenance: [t](docs/results/provenance/t.md)" in (tmp_path / "README.md").read_text()
    assert docs.update(repo=str(tmp_path), blocks={"t": table}, check=True) == {}
    prov.write_text("edited\n")
    orphan = tmp_path / "docs/results/provenance/gone.md"
    orphan.write_text("a block that was removed\n")
    assert docs.update(repo=str(tmp_path), blocks={"t": table}, check=True) == {
        str(orphan): ["provenance"], str(prov): ["provenance"]}
    docs.update(repo=str(tmp_path), blocks={"t": table})
    assert not orphan.exists() and prov.read_text().startswith("# Block `t`")


@pytest.mark.parametrize("text,msg", [
    ("<!-- table:fig6-jain -->\nno end\n", "no <!-- /table -->"),
    ("<!-- table:no-such -->\n<!-- /table -->\n", "unknown block 'no-such'"),
])
def test_bad_markers(text, msg):
    with pytest.raises(AnalysisError, match=re.escape(msg)):
        docs.rewrite(text, BLOCKS)


def test_a_worst_column_shows_the_worst_run_not_the_mean(tmp_path):
    """Col(extreme=...) renders the lowest (or highest) run's value of its cell's runs, and
    leaves out runs that are not results."""
    src = REPO / "docs/results/fairness-060-uml/grid-30s/screen_runs.csv"
    runs = [r for r in docs.load_runs(str(src))
            if r["config"] == "bbr_a_fair" and r["scenario"] == "b0.1"]
    jains = [r["jain"] for r in runs]
    assert len(set(jains)) > 1  # a mean would differ from both extremes
    table = docs.Table({"s": str(src.relative_to(REPO))}, ["scenario"],
                       [(["b0.1"], {"src": "s", "config": "bbr_a_fair", "scenario": "b0.1"})],
                       [docs.Col("worst", "jain", 3, extreme="min"),
                        docs.Col("best", "jain", 3, extreme="max"),
                        docs.Col("mean", "jain", 3, ci=False)])
    row = docs.render("t", table)[2]
    assert row == f"| b0.1 | {min(jains):.3f} | {max(jains):.3f} | " \
                  f"{sum(jains) / len(jains):.3f} |", row


def test_a_fn_column_renders_its_function_of_the_rows_runs(tmp_path):
    """Col(fn=...): the cell is fn's text of the runs its row and column select (any column
    of the file narrows them), and only those count in the provenance line."""
    (tmp_path / "docs/results").mkdir(parents=True)
    (tmp_path / "docs/results/w.csv").write_text(
        "traffic,commit,duration_s,wall_s\n"
        "a,c1,10,12\na,c1,30,20\nb,c2,10,8\nb,c2,30,11\n")
    seen = []
    table = docs.Table({"w": "docs/results/w.csv"}, ["traffic"],
                       [(["a"], {"src": "w", "traffic": "a"})],
                       [docs.Col("30 s", fn=lambda rs: seen.append(rs) or rs[0]["wall_s"],
                                 duration_s="30")], what="x", seed_notes=False)
    lines = docs.render("t", table, repo=str(tmp_path))
    assert lines[2] == "| a | 20 |", lines
    assert [r["commit"] for r in seen[0]] == ["c1"]
    assert lines[-1] == ("_Block `t`, generated by `plots/plot.py --docs`: x; from "
                         "`docs/results/w.csv` (1 runs); provenance: "
                         "[t](docs/results/provenance/t.md)._")
    assert "- commit: c1" in docs.render_block("t", table, repo=str(tmp_path))[1]


def test_a_column_s_src_may_follow_the_row_s(tmp_path):
    """Col(src={row src: src}): the same column reads another source per row (one kernel's
    own-kind screen or its CUBIC screen), and the provenance line counts what it read."""
    (tmp_path / "docs/results").mkdir(parents=True)
    for name, jain in (("a1", "0.9"), ("a2", "0.8"), ("b1", "0.7"), ("b2", "0.6")):
        (tmp_path / f"docs/results/{name}.csv").write_text(f"config,seed,jain\nx,1,{jain}\n")
    table = docs.Table({k: f"docs/results/{k}.csv" for k in ("a1", "a2", "b1", "b2")}, ["kind"],
                       [(["a"], {"src": "a", "config": "x"}), (["b"], {"src": "b", "config": "x"})],
                       [docs.Col("1", "jain", src={"a": "a1", "b": "b1"}),
                        docs.Col("2", "jain", src={"a": "a2", "b": "b2"})], what="x")
    lines = docs.render("t", table, repo=str(tmp_path))
    assert lines[2:4] == ["| a | 0.900 | 0.800 |", "| b | 0.700 | 0.600 |"], lines
    for k in ("a1", "a2", "b1", "b2"):
        assert f"`docs/results/{k}.csv` (1 runs)" in lines[-1], lines[-1]


def test_a_column_s_selection_may_be_a_function_of_the_row_s(tmp_path):
    """Col(scenario=f): the column reads the runs whose scenario is f of the row's (a row per
    path condition, a column per buffer), and the provenance line counts only those."""
    (tmp_path / "docs/results").mkdir(parents=True)
    (tmp_path / "docs/results/c.csv").write_text(
        "config,scenario,seed,jain\nx,clean-b5,1,0.9\nx,clean-b0.5,1,0.8\n"
        "x,jitter-b5,1,0.7\nx,jitter-b0.5,1,0.6\nx,other-b5,1,0.1\n")
    table = docs.Table({"c": "docs/results/c.csv"}, ["path"],
                       [([c], {"src": "c", "config": "x", "scenario": c}) for c in ("clean", "jitter")],
                       [docs.Col(b, "jain", scenario=lambda c, b=b: f"{c}-b{b}") for b in ("5", "0.5")],
                       what="x")
    lines = docs.render("t", table, repo=str(tmp_path))
    assert lines[2:4] == ["| clean | 0.900 | 0.800 |", "| jitter | 0.700 | 0.600 |"], lines
    assert "`docs/results/c.csv` (4 runs)" in lines[-1], lines[-1]


def test_a_table_names_what_its_rows_are(tmp_path):
    """Table(unit=...): a file whose rows are not runs (a dips file) says so in the
    provenance line."""
    (tmp_path / "docs/results").mkdir(parents=True)
    (tmp_path / "docs/results/d.csv").write_text("config,seed,queue_ms\na,1,0.5\na,1,0.0\n")
    table = docs.Table({"d": "docs/results/d.csv"}, ["config"],
                       [(["a"], {"src": "d", "config": "a"})],
                       [docs.Col("dips", fn=lambda rs: str(len(rs)))], what="x", unit="PROBE_RTTs")
    lines = docs.render("t", table, repo=str(tmp_path))
    assert lines[2] == "| a | 2 |", lines
    assert "`docs/results/d.csv` (2 PROBE_RTTs); seeds 1" in lines[-1], lines[-1]


def test_trace_queue_is_a_per_flow_value():
    runs = [{"trace_queue_ms": "23.5/"}, {"trace_queue_ms": ""}]
    assert docs.values(runs, "trace_queue0") == [23.5, None]
    assert docs.values(runs, "trace_queue1") == [None, None]


def test_wall_cells():
    """Runs timed at two durations: the span at each, and the marginal cost per repetition
    paired by rep (or by the file's order without one); soak rows summed per main job."""
    runs = [{"duration_s": d, "rep": rep, "w": w} for d, rep, w in (
        ("10", "2", "15"), ("30", "1", "30"), ("10", "1", "10"), ("30", "2", "33"))]
    assert wall.wall_span("w", "10")(runs) == "10.0 .. 15.0"
    assert wall.wall_span("w", "30")(runs[1:2]) == "30.0"
    assert wall.wall_span("w", "60")(runs) == "-"
    assert wall.marginal("w", "10", "30")(runs) == "1.00, 0.90"
    no_rep = [{"duration_s": d, "w": w} for d, w in (("10", "8"), ("30", "12"), ("10", "9"),
                                                     ("30", "11"))]
    assert wall.marginal("w", "10", "30")(no_rep) == "0.20, 0.10"
    with pytest.raises(AnalysisError):
        wall.marginal("w", "10", "30")(no_rep[:3])
    soak = [{"iteration": i, "outcome": o, "wall_s": w} for i, o, w in (
        ("i1", "ok", "20"), ("i1", "ok", "25"), ("i2", "ok", "30"), ("i2", "ok", ""))]
    assert wall.soak_job_walls(soak) == "30 .. 45"
    assert wall.soak_outcomes(soak) == "4 ok"
    assert wall.fault_bound(soak) == "0.750"
    few = [{"seed": s, "jain": j, "problems": "", "tputs": t} for s, j, t in (
        ("2", 0.5, [3.0, 1.0]), ("1", 0.75, [1.0, 3.0]), ("3", None, [2.0, 1.0]))]
    assert wall.per_run("jain", 2)(few) == "0.75, 0.50, -"
    assert wall.per_run("jain")([few[2]]) == "-"
    assert wall.span("jain", 1, 100)(few) == "50.0 .. 75.0"
    assert wall.span("jain", 2)(few[:1]) == "0.50"
    assert wall.first_flow_ahead(few) == "2 of 3"
    soak[0]["outcome"] = "fault"
    assert wall.soak_outcomes(soak) == "3 ok, 1 fault"
    assert wall.fault_bound(soak) == "-"


def test_window_means_span_is_the_range_of_the_windows_means():
    """A file with a row per run and window: the mean per window end, lowest .. highest."""
    from analysis.docs_blocks_results import window_means_span
    runs = [{"window_end_s": e, "utilization": u, "problems": ""} for e, u in (
        ("29", 0.90), ("29", 0.92), ("199", 0.95), ("199", 0.95), ("59", 0.93))]
    assert window_means_span("utilization", 2)(runs) == "0.91 .. 0.95"
    assert window_means_span("utilization", 0)(runs) == "1"
    assert window_means_span("utilization")([]) == "-"


def test_two_runs_print_their_values_not_an_interval():
    from analysis.tables import cell
    runs = [{"problems": [], "jain": 0.421}, {"problems": [], "jain": 0.375}]
    assert cell(runs, "jain") == "2 runs: 0.421, 0.375"
    assert cell(runs, "jain", ci=False) == "0.398"
    three = runs + [{"problems": [], "jain": 0.4}]
    assert cell(three, "jain").startswith("0.399 +- ")
    assert cell(runs + [{"problems": ["flow 1 silent"], "jain": 0.1}], "jain") == \
        "2 runs: 0.421, 0.375 (1 excluded)"
