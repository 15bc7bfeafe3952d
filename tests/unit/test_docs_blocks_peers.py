"""docs/peers.md's blocks: bbr3's harm to cubic is computed as the README's block computes
bbr_a_fair's (against grid-200s's cubic-alone runs), so the columns side by side compare."""
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "testbed"))
from analysis import docs_blocks, docs_blocks_peers as peers  # noqa: E402
from analysis.tables import load_runs  # noqa: E402


def test_harm_and_bar_cells_equal_the_readme_blocks():
    runs = load_runs(str(REPO / peers.CUBIC["p"]))
    for scenario, _, _ in peers.CUBIC_POINTS:
        rs = [r for r in runs if r["config"] == "sl" and r["scenario"] == scenario]
        assert rs, scenario
        assert peers.harm_to_cubic()(rs) == docs_blocks.harm_from_grid(rs), scenario
        assert peers.self_harm_bar()(rs) == docs_blocks.self_harm_bar(rs), scenario


def test_cells_without_results_are_a_dash():
    bad = [{"scenario": "c1", "problems": "collapsed", "tputs": [90.0, 1.0]}]
    assert peers.harm_to_cubic()(bad) == "-" and peers.self_harm_bar()(bad) == "-"
    assert peers.harm_to_cubic()([]) == "-"


def test_the_peer_blocks_are_registered():
    names = {"peers-own", "peers-cubic", "peers-wide", "peers-solo", "peers-coexist",
             "peers-plain612"}
    assert names <= set(docs_blocks.BLOCKS)
