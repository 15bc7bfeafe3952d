"""docs/peers.md's blocks: bbr3's harm to cubic is computed as the README's block computes
bbr_a_fair's (against grid-200s's cubic-alone runs), so the columns side by side compare;
the order block reads bbr_a_fair's share in both orders, not the first flow's."""
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "testbed"))
from analysis import docs_blocks, docs_blocks_peers as peers  # noqa: E402
import scenario_file  # noqa: E402
from analysis.tables import load_runs, values  # noqa: E402


def test_harm_and_bar_cells_equal_the_readme_blocks():
    runs = load_runs(str(REPO / peers.CUBIC["p"]))
    for scenario, _, _ in peers.CUBIC_POINTS:
        rs = [r for r in runs if r["config"] == "def" and r["scenario"] == scenario]
        assert rs, scenario
        assert peers.harm_to_cubic()(rs) == docs_blocks.harm_from_grid(rs), scenario
        assert peers.self_harm_bar()(rs) == docs_blocks.self_harm_bar(rs), scenario


def test_cells_without_results_are_a_dash():
    bad = [{"scenario": "c1", "problems": "collapsed", "tputs": [90.0, 1.0]}]
    assert peers.harm_to_cubic()(bad) == "-" and peers.self_harm_bar()(bad) == "-"
    assert peers.harm_to_cubic()([]) == "-"


def test_the_peer_blocks_are_registered():
    names = {"peers-own", "peers-cubic", "peers-cubic-jain", "peers-wide", "peers-solo", "peers-coexist",
             "peers-plain612", "peers-order", "peers-conditions"}
    assert names <= set(docs_blocks.BLOCKS)


def test_the_order_block_reads_bbr_a_fairs_share_in_either_order():
    # each share column's metric, on every committed run of its order, is what the run's
    # summary gives bbr_a_fair (per_cc), whichever class it ran in
    cols = {c.sel.get("config"): c.metric for c in docs_blocks.BLOCKS["peers-order"].cols
            if c.header.startswith("bbr_a_fair's share")}
    assert set(cols) == {peers.FAIR_FIRST, peers.V3_FIRST}, cols
    tree = REPO / peers.ORDER["o"]
    runs = load_runs(str(tree))
    assert {r["config"] for r in runs} == set(cols)
    for r in runs:
        with open(tree / r["config"] / r["scenario"] / f"seed{r['seed']}" / "summary.json") as f:
            res = json.load(f)["results"][0]
        want = res["per_cc"]["bbr_a_fair"]["share"]
        assert abs(values([r], cols[r["config"]])[0] - want) < 1e-4, (r["config"], r["scenario"])
        # and the order is the item's: its first cc started first
        assert [fl["cc"] for fl in sorted(res["flows"], key=lambda fl: fl["start_s"])] == \
            r["config"].split("+"), r["config"]


def test_the_order_block_has_every_point_of_its_file():
    ini = REPO / "testbed" / "scenarios" / "peer-order.ini"
    assert [s for s, _, _ in peers.ORDER_POINTS] == scenario_file.points(str(ini))


def test_the_conditions_block_has_every_point_of_its_file():
    # its rows and buffers read every point of path-conditions.ini, and bbr_a_fair's runs
    # are those of docs/paths.md's blocks
    ini = REPO / "testbed" / "scenarios" / "path-conditions.ini"
    table = docs_blocks.BLOCKS["peers-conditions"]
    read = {c.sel["scenario"](sel["scenario"]) for _, sel in table.rows for c in table.cols}
    assert read == set(scenario_file.points(str(ini)))
    assert peers.CONDS["f"] == docs_blocks.BLOCKS["paths-conditions-b5"].sources["o"]
    # the footnote names the seeds, not the cells (seed_notes off): every cell has them all
    runs = {k: load_runs(str(REPO / path)) for k, path in table.sources.items()}
    for _, sel in table.rows:
        for c in table.cols:
            rs = [r for r in runs[c.sel["src"]] if r["config"] == c.sel["config"]
                  and r["scenario"] == c.sel["scenario"](sel["scenario"])]
            want = {"v3": {"1", "2", "3", "4", "5"}, "f": {"1", "2", "3"}}[c.sel["src"]]
            assert {r["seed"] for r in rs if not r["problems"]} == want, (c.header, sel)
