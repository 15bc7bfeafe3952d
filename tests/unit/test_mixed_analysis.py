"""analyze.py and plot.py on runs with a cc per RTT class: every flow's cc, per-cc and
per-class throughput and share in summary.json, the shares in the table and the comparison
PNG; in a screen, each part's share and the harm (Ware et al., HotNets 2019) a '+'
configuration does to its incumbent, against the incumbent's harm to itself, on small
synthetic screen trees whose harm is computed here by hand."""
import csv
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIX = Path(__file__).resolve().parent / "fixtures"
PY = "/usr/bin/python3"
sys.path.insert(0, str(REPO / "testbed"))
import analysis as analyze  # noqa: E402


# ------------------------------------------------------------------------------ one run
def make_mixed(d):
    """run_bbr_parallel (bbr, 10 vs 30 ms, 2 flows each) as if its 30 ms class had run
    cubic: what scenario.sh --cc bbr,cubic records."""
    shutil.copytree(FIX / "run_bbr_parallel", d)
    for name in ("flows.txt", "groups.txt"):
        lines = [ln.split() for ln in (d / name).read_text().splitlines()]
        for ln in lines:
            if ln[1] == "2":
                ln[3 if name == "flows.txt" else 2] = "cubic"
        (d / name).write_text("".join(" ".join(ln) + "\n" for ln in lines))
    env = (d / "params.env").read_text().replace("\ncc=bbr\n", "\ncc=bbr cubic\n")
    (d / "params.env").write_text(env)
    js = json.loads((d / "flow2.json").read_text())
    js["end"]["sender_tcp_congestion"] = "cubic"
    (d / "flow2.json").write_text(json.dumps(js))
    return d


def test_every_flow_has_its_cc_and_class_and_the_run_its_shares(tmp_path):
    r = analyze.analyze_run(str(make_mixed(tmp_path / "run")), write_csv=False)
    assert r["cc"] == "bbr+cubic"
    assert [(f["index"], f["class"], f["cc"]) for f in r["flows"]] == [
        (1, 1, "bbr"), (2, 2, "cubic"), (3, 1, "bbr"), (4, 2, "cubic")]
    x = {f["index"]: f["throughput_mbps"] for f in r["flows"]}
    total = sum(x.values())
    assert list(r["per_cc"]) == ["bbr", "cubic"]  # in the order of the classes
    bbr, cubic = r["per_cc"]["bbr"], r["per_cc"]["cubic"]
    assert (bbr["flows"], cubic["flows"]) == (2, 2)
    assert bbr["throughput_mbps"] == pytest.approx(x[1] + x[3], abs=1e-3)
    assert cubic["throughput_mbps"] == pytest.approx(x[2] + x[4], abs=1e-3)
    assert bbr["share"] == pytest.approx((x[1] + x[3]) / total, abs=1e-5)
    assert bbr["share"] + cubic["share"] == pytest.approx(1, abs=1e-5)
    assert 0.05 < bbr["share"] < 0.95  # both moved data
    assert [(c["class"], c["cc"], c["rtt_ms"], c["flows"]) for c in r["per_class"]] == [
        (1, "bbr", 10, 2), (2, "cubic", 30, 2)]
    assert r["per_class"][0]["share"] == bbr["share"]


def test_a_single_cc_run_has_one_per_cc_entry(tmp_path):
    d = tmp_path / "run"
    shutil.copytree(FIX / "run_bbr_parallel", d)
    r = analyze.analyze_run(str(d), write_csv=False)
    assert r["cc"] == "bbr"
    assert list(r["per_cc"]) == ["bbr"] and r["per_cc"]["bbr"]["share"] == 1.0
    assert r["per_cc"]["bbr"]["flows"] == 4
    assert sum(c["share"] for c in r["per_class"]) == pytest.approx(1, abs=1e-5)


def test_cc_shares_by_hand():
    flows = [{"index": 1, "class": 1, "cc": "bbr_a_fair", "rtt_ms": 20.0, "throughput_mbps": 30.0},
             {"index": 2, "class": 2, "cc": "cubic", "rtt_ms": 20.0, "throughput_mbps": 40.0},
             {"index": 3, "class": 2, "cc": "cubic", "rtt_ms": 20.0, "throughput_mbps": 20.0}]
    per_cc, per_class = analyze.cc_shares(flows)
    assert per_cc == {"bbr_a_fair": {"flows": 1, "throughput_mbps": 30.0, "share": 0.333333},
                      "cubic": {"flows": 2, "throughput_mbps": 60.0, "share": 0.666667}}
    assert [c["share"] for c in per_class] == [0.333333, 0.666667]
    # cubic against cubic: one cc, two classes
    for f in flows:
        f["cc"] = "cubic"
    per_cc, per_class = analyze.cc_shares(flows)
    assert list(per_cc) == ["cubic"] and per_cc["cubic"]["share"] == 1.0
    assert [(c["cc"], c["flows"], c["share"]) for c in per_class] == [
        ("cubic", 1, 0.333333), ("cubic", 2, 0.666667)]
    assert analyze.cc_shares([{**f, "throughput_mbps": 0.0} for f in flows])[0]["cubic"]["share"] is None


def test_table_and_comparison_show_the_shares(tmp_path, monkeypatch):
    out = tmp_path / "out"
    make_mixed(out / "bbr+cubic" / "run1")
    p = subprocess.run([PY, str(REPO / "testbed" / "analyze.py"), str(out)], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    summ = json.loads((out / "summary.json").read_text())
    share = summ["results"][0]["per_cc"]["bbr"]["share"]
    line = next(ln for ln in p.stdout.splitlines() if "shares:" in ln)
    assert f"shares: bbr {100 * share:.1f} % (2 flows, " in line
    assert f"+ cubic {100 * (1 - share):.1f} % (2 flows, " in line
    pytest.importorskip("matplotlib")
    from analysis import figures as plot
    import matplotlib.axes
    titles, labels = [], []
    real_title, real_plot = matplotlib.axes.Axes.set_title, matplotlib.axes.Axes.plot
    monkeypatch.setattr(matplotlib.axes.Axes, "set_title",
                        lambda ax, t, **kw: titles.append(t) or real_title(ax, t, **kw))
    monkeypatch.setattr(matplotlib.axes.Axes, "plot",
                        lambda ax, *a, **kw: labels.append(kw.get("label")) or real_plot(ax, *a, **kw))
    png = plot.compare(str(out))
    assert Path(png).stat().st_size > 10000
    assert any("shares: bbr " in t and " + cubic " in t for t in titles), titles
    assert "flow 2, cubic 30 ms" in labels, labels


def test_repeated_runs_give_mean_shares(tmp_path):
    out = tmp_path / "out"
    for r in (1, 2):
        make_mixed(out / "bbr+cubic" / f"run{r}")
        (out / "bbr+cubic" / f"run{r}" / "run.env").write_text(f"cc_index=1\nrepeat_index={r}\n")
    # run 2's bbr flows got nothing: its shares are 0 and 1
    js = json.loads((out / "bbr+cubic/run2/flow1.json").read_text())
    for iv in js["server_output_json"]["intervals"]:
        for st in iv["streams"]:
            st["bytes"] = 0
    (out / "bbr+cubic/run2/flow1.json").write_text(json.dumps(js))
    p = subprocess.run([PY, str(REPO / "testbed" / "analyze.py"), str(out)], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    summ = json.loads((out / "summary.json").read_text())
    one = summ["results"][0]["per_cc"]["bbr"]["share"]
    assert [r["per_cc"]["bbr"]["share"] for r in summ["results"]] == [one, 0.0]
    agg = summ["aggregate"][0]
    assert agg["class_share_mean"] == pytest.approx([one / 2, 1 - one / 2], abs=1e-6)
    assert f"shares bbr {50 * one:.1f} % + cubic {100 - 50 * one:.1f} %" in p.stdout, p.stdout


# ------------------------------------------------------------------------- screen, harm
def result(cc, classes, seed, qdelay=50.0, buffer_bytes=250000, module_params="", **more):
    """A summary.json result of a screen job: classes = [(cc, rtt_ms, [throughputs])];
    more: other params.env entries (qdisc, rate_schedule, ...)."""
    flows, i = [], 0
    for k, (fcc, rtt, xs) in enumerate(classes, 1):
        for x in xs:
            i += 1
            flows.append({"index": i, "class": k, "cc": fcc, "rtt_ms": rtt, "throughput_mbps": x,
                          "retransmits": 0, "retrans_rate": 0.0})
    per_cc, per_class = analyze.cc_shares(flows)
    return {"cc": cc, "jain": analyze.jain(f["throughput_mbps"] for f in flows),
            "utilization": 0.94, "retrans_rate": 0.001, "queue_delay_ms": {"mean": qdelay},
            "kernel": "6.1.192", "module_version": "0.4.0", "rate_mbit": 100.0,
            "buffer_bytes": buffer_bytes, "loss_pct": 0.0, "interval_s": [10.0, 89.0],
            "flows": flows, "per_cc": per_cc, "per_class": per_class,
            "params": {"seed": str(seed), "module_params": module_params,
                       "cc": " ".join(c for c, _, _ in classes) if "+" in cc else cc,
                       "rtts_ms": " ".join(f"{r:g}" for _, r, _ in classes),
                       "buffer_bdp": "5", **more}}


def job(root, config, scen, seed, res):
    d = root / config / scen / f"seed{seed}"
    d.mkdir(parents=True)
    (d / "summary.json").write_text(json.dumps({"results": [res]}))


# the coexistence grid's point "1 against 4" (20 ms each) and its references, two seeds:
# Mbit/s of the bbr_a_fair flow, the 4 cubic flows; cubic alone (4 flows); cubic vs cubic
MIXED = {1: (30.0, [14.0, 16.0, 15.0, 15.0]), 2: (28.0, [16.0, 16.0, 16.0, 16.0])}
SOLO = {1: [22.0, 23.0, 22.0, 23.0], 2: [22.0, 22.0, 22.0, 22.0]}
SELF = {1: (18.0, [18.0] * 4), 2: (20.0, [17.0] * 4)}


def grid(root, seeds=(1, 2), solo_seeds=(1, 2), solo_kw=None, mixed_kw=None):
    for s in seeds:
        fair, cub = MIXED[s]
        job(root, "fair+cubic", "v4", s, result("bbr_a_fair+cubic", [
            ("bbr_a_fair", 20.0, [fair]), ("cubic", 20.0, cub)], s, **(mixed_kw or {})))
        one, four = SELF[s]
        job(root, "cubic+cubic", "v4", s, result("cubic+cubic", [
            ("cubic", 20.0, [one]), ("cubic", 20.0, four)], s))
        # cubic at the pair scenario (5 cubic flows): not the solo reference
        job(root, "cubic", "v4", s, result("cubic", [("cubic", 20.0, [10.0]),
                                                     ("cubic", 20.0, [20.0] * 4)], s))
    for s in solo_seeds:
        job(root, "cubic", "solo4", s, result("cubic", [("cubic", 20.0, SOLO[s])], s, qdelay=30.0,
                                              **(solo_kw or {})))
    rows = analyze.screen_runs(str(root))
    return rows, {(t["config"], t["scenario"]): t for t in analyze.screen_table(rows)}


def test_harm_by_hand(tmp_path):
    rows, table = grid(tmp_path)
    # seed 1: cubic alone 90 Mbit/s, 60 beside bbr_a_fair, 72 beside one cubic flow
    h1, h2 = (90 - 60) / 90, (88 - 64) / 88
    s1, s2 = (90 - 72) / 90, (88 - 68) / 88
    runs = {(r[0], r[2]): dict(zip(analyze.SCREEN_RUN_COLS, r)) for r in rows if r[1] == "v4"}
    assert runs[("fair+cubic", "1")]["harm"] == pytest.approx(h1, abs=1e-6)
    assert runs[("fair+cubic", "1")]["self_harm"] == pytest.approx(s1, abs=1e-6)
    assert runs[("fair+cubic", "1")]["incumbent_mbps"] == pytest.approx(60)
    assert runs[("fair+cubic", "1")]["solo_mbps"] == pytest.approx(90)
    t = table[("fair+cubic", "v4")]
    assert t["harm_runs"] == 2
    assert t["harm"] == pytest.approx((h1 + h2) / 2, abs=1e-5)
    # 95 % CI of two values: t(1) x sd / sqrt(2) = 12.706 x |a - b| / 2
    assert t["harm_ci95"] == pytest.approx(12.706 * abs(h1 - h2) / 2, abs=1e-5)
    assert t["self_harm"] == pytest.approx((s1 + s2) / 2, abs=1e-5)
    assert t["self_harm_ci95"] == pytest.approx(12.706 * abs(s1 - s2) / 2, abs=1e-5)
    # latency: 20 ms + 50 ms queue beside bbr_a_fair, 20 + 30 alone: (70 - 50) / 70
    assert t["latency_harm"] == pytest.approx(20 / 70, abs=1e-5)
    # the incumbent against itself harms itself as much as its row says
    assert table[("cubic+cubic", "v4")]["harm"] == pytest.approx(t["self_harm"], abs=1e-5)
    # shares per part, mean over the seeds: 30/90 and 28/92
    m = (30 / 90 + 28 / 92) / 2
    shares = [float(x) for x in t["shares"].split("/")]
    assert shares == pytest.approx([m, 1 - m], abs=1e-4)
    hw = [float(x) for x in t["shares_ci95"].split("/")]
    assert hw[0] == pytest.approx(12.706 * abs(30 / 90 - 28 / 92) / 2, abs=1e-4)
    # a configuration with one cc has no share or harm
    for key in (("cubic", "v4"), ("cubic", "solo4")):
        assert table[key]["shares"] == "" and table[key]["harm"] is None
        assert table[key]["harm_runs"] == 0


def test_harm_per_seed_only_where_the_solo_run_is(tmp_path):
    _, table = grid(tmp_path, solo_seeds=(1,))
    t = table[("fair+cubic", "v4")]
    assert t["harm_runs"] == 1
    assert t["harm"] == pytest.approx(1 / 3, abs=1e-5) and t["harm_ci95"] is None
    assert t["self_harm"] == pytest.approx(0.2, abs=1e-5)


@pytest.mark.parametrize("what", ["none", "other buffer", "other module params", "other qdisc",
                                  "other qdisc options", "other rate schedule", "other jitter"])
def test_harm_is_empty_without_its_reference(tmp_path, what):
    kw = {"none": {}, "other buffer": {"solo_kw": {"buffer_bytes": 500000}},
          "other qdisc": {"solo_kw": {"qdisc": "codel"}},
          "other qdisc options": {"solo_kw": {"qdisc": "codel", "qdisc_opts": "target 10ms"},
                                  "mixed_kw": {"qdisc": "codel"}},
          "other rate schedule": {"solo_kw": {"rate_schedule": "10:50"}},
          "other jitter": {"solo_kw": {"jitter_s": "0.5"}},
          "other module params": {"solo_kw": {"module_params": "fair_gains=1"},
                                  "mixed_kw": {"module_params": "fair_gains=2"}}}[what]
    _, table = grid(tmp_path, solo_seeds=() if what == "none" else (1, 2), **kw)
    t = table[("fair+cubic", "v4")]
    assert t["harm"] is None and t["self_harm"] is None and t["harm_runs"] == 0
    assert t["incumbent_mbps"] == pytest.approx(62)  # what the incumbent got is still there
    assert t["shares"]  # and the shares
    # screen.csv: empty cells, not zeros
    assert analyze.main(["--screen", str(tmp_path), "--screen-csv", str(tmp_path / "s.csv")]) == 0
    with open(tmp_path / "s.csv") as f:
        row = next(r for r in csv.DictReader(f) if r["config"] == "fair+cubic")
    assert row["harm"] == "" and row["harm_ci95"] == "" and row["self_harm"] == ""
    assert row["harm_runs"] == "0"


def test_each_qdisc_finds_the_solo_run_of_its_own_qdisc(tmp_path):
    """Points that differ only in their queue (an AQM screen): the harm under codel is taken
    against cubic alone under codel, not the first solo run at the same rate and buffer.
    params.env names the qdisc only when it is not bfifo, so bfifo's runs have none."""
    grid(tmp_path)
    for s in (1, 2):
        job(tmp_path, "fair+cubic", "v4-codel", s, result("bbr_a_fair+cubic", [
            ("bbr_a_fair", 20.0, [40.0]), ("cubic", 20.0, [10.0] * 4)], s, qdisc="codel"))
        job(tmp_path, "cubic", "solo4-codel", s, result("cubic", [("cubic", 20.0, [20.0] * 4)],
                                                         s, qdisc="codel"))
    table = {(t["config"], t["scenario"]): t
             for t in analyze.screen_table(analyze.screen_runs(str(tmp_path)))}
    assert table[("fair+cubic", "v4-codel")]["harm"] == pytest.approx(0.5, abs=1e-6)
    assert table[("fair+cubic", "v4-codel")]["harm_runs"] == 2
    assert table[("fair+cubic", "v4")]["harm"] == pytest.approx(
        ((90 - 60) / 90 + (88 - 64) / 88) / 2, abs=1e-5)


def test_a_solo_run_without_module_params_serves_a_config_with_some(tmp_path):
    """cubic has no module parameters: its solo run serves bbr_a_fair+cubic fair_gains=1."""
    _, table = grid(tmp_path, mixed_kw={"module_params": "fair_gains=1"})
    assert table[("fair+cubic", "v4")]["harm_runs"] == 2


def test_screen_csv_and_markdown_carry_shares_and_harm(tmp_path):
    grid(tmp_path)
    assert analyze.main(["--screen", str(tmp_path), "--screen-csv", str(tmp_path / "s.csv")]) == 0
    with open(tmp_path / "s.csv") as f:
        rows = {(r["config"], r["scenario"]): r for r in csv.DictReader(f)}
    r = rows[("fair+cubic", "v4")]
    assert float(r["harm"]) == pytest.approx(((90 - 60) / 90 + (88 - 64) / 88) / 2, abs=1e-5)
    assert r["shares"].count("/") == 1 and float(r["self_harm"]) > 0
    with open(tmp_path / "s_runs.csv") as f:
        runs = [x for x in csv.DictReader(f) if x["config"] == "fair+cubic"]
    assert [float(x["harm"]) for x in runs] == pytest.approx([1 / 3, 24 / 88], abs=1e-6)
    out = subprocess.run([PY, str(REPO / "testbed" / "analyze.py"), "--screen", str(tmp_path),
                          "--markdown"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "| harm | incumbent's self-harm |" in out.stdout
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("| fair+cubic | v4 |"))
    assert "bbr_a_fair 31.9 +- " in line and " / cubic 68.1 +- " in line, line
    assert "| 0.303 +- 0.385 | 0.214 +- 0.173 |" in line, line
    solo = next(ln for ln in out.stdout.splitlines() if ln.startswith("| cubic | solo4 |"))
    assert solo.endswith("|  |  |  |  |  |"), solo  # no share, no harm: empty cells
    text = subprocess.run([PY, str(REPO / "testbed" / "analyze.py"), "--screen", str(tmp_path)],
                          capture_output=True, text=True).stdout
    assert "harm 0.303 +- 0.385, self-harm 0.214 +- 0.173" in text, text


def test_old_screens_without_flow_classes_have_no_harm(tmp_path):
    """Summaries from before flows had a class (single-cc screens): no shares, no harm, no
    error; and a reference found through params.env rtts_ms and flows_per_rtt."""
    res = result("cubic", [("cubic", 20.0, SOLO[1])], 1, qdelay=30.0)
    for f in res["flows"]:
        del f["class"]
    del res["per_cc"], res["per_class"]
    res["params"]["flows_per_rtt"] = "4"
    job(tmp_path, "cubic", "solo4", 1, res)
    assert analyze.class_flows(res) == ((20.0, 4),)
    fair, cub = MIXED[1]
    job(tmp_path, "fair+cubic", "v4", 1, result("bbr_a_fair+cubic", [
        ("bbr_a_fair", 20.0, [fair]), ("cubic", 20.0, cub)], 1))
    table = {t["config"]: t for t in analyze.screen_table(analyze.screen_runs(str(tmp_path)))}
    assert table["cubic"]["harm"] is None and table["cubic"]["shares"] == ""
    assert table["fair+cubic"]["harm"] == pytest.approx(1 / 3, abs=1e-5)
    assert math.isclose(table["fair+cubic"]["solo_mbps"], 90)
