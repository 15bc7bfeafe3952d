"""The generated blocks of README.md, docs/*.md and docs/results/**/README.md (docs.py):
each name, the committed data it renders from and what it shows. A block is placed in a
Markdown file by its markers alone (<!-- table:NAME --> ... <!-- /table -->), so it can
move between files."""
import csv
import functools
import os

from .cost import ack_cost_summary, cost_summary
from .docs import CURRENT, REPO, Col, Table, grid
from .docs_blocks_paths import FADE_WHAT, FADES
from .paper_values import (PAPER_FIG4_TEXT, PAPER_FIG5, PAPER_FIG6_TEXT, PAPER_FIG7_TEXT,
                           PAPER_FIG8_TEXT)
from .tables import TABLE_CCS, load_runs, mean_ci95, values
from .wall import (fault_bound, first_flow_ahead, marginal, per_run, soak_job_walls,
                   soak_outcomes, span, wall_span)

R = "docs/results/reproduce"
FIG4 = [f"l{x}-b{b}" for b in (1, 5) for x in (0, 1, 3, 6)]
FIG6 = [f"b{x}" for x in ("0.1", "0.2", "0.5", 1, 2, 3, 4, 5, 6, 8, 10, 20, 50, 100)]
FIG7 = [f"r{x}" for x in range(10, 101, 10)]
FIG8 = [f"n{n}-b{b}" for b in ("0.1", 1) for n in (1, 2, 5, 10, 20, 50, 100)]


def paper_row(label, text):
    """A row of the paper's values per algorithm of TABLE_CCS ('-' where it gives none)."""
    return tuple([label] + [text.get(cc, "-") for cc in TABLE_CCS])


def screen_rows(sources, rows, extra_cols=(), what=None):
    """A table like analyze.py --screen --markdown's: a row per (labels, sel), its runs,
    Jain, utilisation, retransmitted %, the bottleneck's queue delay; then extra_cols."""
    return Table(sources, ["config", "scenario"], rows, [
        Col("runs", "runs"), Col("Jain", "jain"), *extra_cols, Col("utilisation", "utilization"),
        Col("retransmitted %", "retrans_rate", 2, 100), Col("queue delay ms", "qdelay_mean_ms", 1)],
        seed_notes=False, **({"what": what} if what else {}))


WHERE = [("b5", "10 vs 50 ms, 5 BDP"), ("r100", "10 vs 100 ms, 5 BDP"),
         ("b0.1", "10 vs 50 ms, 0.1 BDP"), ("l6-b5", "10 vs 50 ms, 5 BDP, 6 % loss")]


COEX = "docs/results/coexistence-uml"
CONV_SCEN = [("c20", "20 ms, 20 BDP"), ("d20", "50 ms, 20 BDP")]
GRID200 = {"g": f"{COEX}/grid-200s/screen_runs.csv"}
COEX_BUFS = ("0.5", "1", "2", "5", "10", "20")
COEX_RTTS = (("c", "20 ms"), ("d", "50 ms"))
COEX_WHAT = ("mean +- 95 % CI half-width over the seeds; share: of the two flows' throughput; "
             "harm: (x_solo - x_with) / x_solo of cubic's throughput (Ware et al.), self-harm "
             "the same with cubic as the other flow")


def _mean_text(vals):
    m, h = mean_ci95(vals)
    return "-" if m is None else f"{m:.2f}" + ("" if h is None else f" +- {h:.2f}")


def _ref_mean(path, good, metric):
    """The mean of metric over the runs of the screen at path (its references) at the
    scenario of good (runs that are results, all of one scenario); None without any."""
    refs = [r for r in load_runs(os.path.join(REPO, path))
            if r["scenario"] == good[0]["scenario"] and not r["problems"]]
    xs = [v for v in values(refs, metric) if v is not None]
    return sum(xs) / len(xs) if xs else None


def harm_against(path, incumbent="tput1"):
    """A cell function: a pilot's harm to its incumbent, from the mean cubic-alone
    throughput of the screen at path at the runs' scenario, (x_solo - x_with) / x_solo
    per run, x_with the incumbent's throughput (the second flow's; incumbent_mbps: all of
    the last class's flows)."""
    def cell(runs):
        good = [r for r in runs if not r["problems"]]
        x = _ref_mean(path, good, "solo_mbps") if good else None
        return "-" if x is None else _mean_text([(x - t) / x for t in values(good, incumbent)])
    return cell


def bar_against(path):
    """A cell function: the issue's bar at the runs' scenario, the incumbent's self-harm
    in the screen at path + 0.1."""
    def cell(runs):
        good = [r for r in runs if not r["problems"]]
        sh = _ref_mean(path, good, "self_harm") if good else None
        return "-" if sh is None else f"{sh + 0.1:.2f}"
    return cell


harm_from_grid = harm_against(GRID200["g"])
self_harm_bar = bar_against(GRID200["g"])


def computed_what(ref, whose="cubic's", solo="cubic", bar=True):
    """What a table whose harm is computed against the screen ref's references says."""
    text = (COEX_WHAT.split(", self-harm")[0].replace("cubic's throughput", f"{whose} throughput")
            + f", computed against the mean of {ref}'s {solo}-alone runs at the point")
    return text + (f"; bar: {ref}'s {solo}-against-{solo} self-harm there, + 0.1" if bar else "")


AQM_REFS = f"{COEX}/aqm-200s/screen_runs.csv"  # cubic alone and against cubic, by queue
SHALLOW = f"{CURRENT}/cubic-shallow/screen_runs.csv"  # below the CUBIC grid, with references
SHALLOW_POINTS = (("c", "0.1"), ("c", "0.2"), ("c", "0.25"), ("d", "0.1"))  # (COEX_RTTS, BDP)
RESULTS_OWN = (("b5", "10 vs 50 ms, 5 BDP (the paper's)"), ("b0.1", "10 vs 50 ms, 0.1 BDP"),
               ("b0.2", "10 vs 50 ms, 0.2 BDP"), ("b0.5", "10 vs 50 ms, 0.5 BDP"),
               ("b1", "10 vs 50 ms, 1 BDP"), ("b20", "10 vs 50 ms, 20 BDP"),
               ("r20", "10 vs 20 ms, 5 BDP"), ("r100", "10 vs 100 ms, 5 BDP"),
               ("l6-b5", "10 vs 50 ms, 5 BDP, 6 % random loss"))
RESULTS_WIDE = (("x30-b1", "5 vs 150 ms, 1 BDP"), ("x30-b5", "5 vs 150 ms, 5 BDP"),
                ("c3-b2", "10, 30, 90 ms, 2 BDP"), ("c3-b5", "10, 30, 90 ms, 5 BDP"),
                ("c4-b2", "10, 20, 50, 100 ms, 2 BDP"))


FIGS = (4, 5, 6, 7, 8)
def _keyed_rows(src, key, pairs):
    """A table's rows from (value, label) pairs: each labelled row selects the runs of source
    src whose column key holds value."""
    return [([label], {"src": src, key: value}) for value, label in pairs]


CLIENT_NOW = {"t": "docs/results/client-uml/summary-tcpflow-v1000.json",
              "i": "docs/results/client-uml/summary-iperf3-v1000.json"}
CLIENT_NOW_ROWS = [([client, cc], {"src": src, "cc": cc})
                   for client, src in (("tcpflow.py (the testbed's)", "t"), ("iperf3", "i"))
                   for cc in ("bbr", "bbr_a", "bbr_a_fair")]

COST = "docs/results/cost-per-ack-uml/cost.csv"


def _cost(pick):
    """A cell of the per-ACK cost block: pick(summary) of analyze.py --cost's summary."""
    def text(_sel):
        with open(os.path.join(REPO, COST)) as f:
            return pick(cost_summary(list(csv.DictReader(f))))
    return text


ACK_COST = "docs/results/cost-per-ack-uml/ack-bench.csv"
ACK_COST_ROWS = (("bbr_mod", "bbr (the kernel's, as a module)"), ("bbr_mod#2", "bbr again (A/A)"),
                 ("bbr_a", "bbr_a adaptive=0"), ("bbr_a_fair", "bbr_a_fair"))


@functools.lru_cache(maxsize=None)
def _ack_cost_of(path):
    """analyze.py --ack-cost's summary of a committed bench_ack.sh CSV, once per file."""
    with open(os.path.join(REPO, path)) as f:
        return ack_cost_summary(list(csv.DictReader(f)))


def _ack_cost(what):
    """A cell of the ack-cost block, for the row's cc (sel["row"]): analyze.py --ack-cost's
    ns per ACK ("ns"), the same less the ACK model's ("net"), the ratio to bbr's in the
    first code layout ("ratio") or its median, min and max over the layouts ("layouts")."""
    def text(sel):
        s = _ack_cost_of(ACK_COST)
        if what == "ns":
            return "{1:.1f} ({0:.1f} .. {2:.1f})".format(*s["ns_per_ack"][sel["row"]])
        if what == "net":
            return f"{s['net'][sel['row']]:.1f}"
        if what == "layouts":
            if s["layouts"] < 2:
                return "-"
            lo, mid, hi = s["ratio_layouts"][sel["row"]]
            return f"{mid:.3f} ({lo:.3f} .. {hi:.3f}), {s['layouts']} layouts"
        return "{:.3f} [{:.3f} .. {:.3f}]".format(*s["ratio"][sel["row"]])
    return text


def _dip_count(test):
    """A Col fn: how many of a dips file's PROBE_RTTs pass test(row)."""
    return lambda dips: str(sum(1 for d in dips if test(d)))


def _queue_ms(d):
    return float(d["queue_ms"]) if d["queue_ms"] not in ("", None) else 0.0


def _longest_row(dips):
    """The most dips in a row, within one run, that left more than 5 ms of queue."""
    best, runs = 0, {}
    for d in dips:
        key = (d["config"], d["scenario"], d["seed"], d["flow"])
        runs[key] = runs.get(key, 0) + 1 if _queue_ms(d) > 5 else 0
        best = max(best, runs[key])
    return str(best)


def _spread(x, digits):
    return f"{x[1]:.{digits}f} ({x[0]:.{digits}f} .. {x[2]:.{digits}f})"


BLOCKS = {
    # README.md, "Where it stands"
    "readme-where-it-stands": screen_rows(
        {"p": f"{CURRENT}/own-30s-ref/screen_runs.csv",
         "q": f"{CURRENT}/own-30s/screen_runs.csv",
         "j": f"{CURRENT}/own-30s-j1/screen_runs.csv"},
        [([cc, label], {"src": src, "config": cfg, "scenario": s})
         for s, label in WHERE[:2] for cc, cfg, src in (("bbr", "bbr", "p"),
                                                        ("bbr_a", "abbr", "p"),
                                                        ("bbr_a_fair", "def", "q"))],
        [Col("Jain, 10 seeds, starts within 1 s", "jain", src="j")],
        what="mean +- 95 % CI half-width over the seeds (5; the starts-within-1 s column: 10 "
             "seeds, each flow starting a random 0..1 s late, screen.sh --start-jitter 1)"),
    # docs/results.md: the current release's runs
    "results-own": Table({"p": f"{CURRENT}/own-30s/screen_runs.csv"},
                         ["scenario"], [
        ([label], {"src": "p", "config": "def", "scenario": sc}) for sc, label in RESULTS_OWN], [
        Col("runs", "runs"), Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min"),
        Col("utilisation", "utilization"), Col("retransmitted %", "retrans_rate", 2, 100),
        Col("queue delay ms", "qdelay_mean_ms", 1)],
        what="mean +- 95 % CI half-width over the seeds; one flow per RTT, 100 Mbit/s, 30 s "
             "measured from 5 s; the queue delay is the bottleneck's", seed_notes=False),
    "results-cubic": Table({"h": f"{CURRENT}/cubic/screen_runs.csv", **GRID200},
                           ["RTT", "buffer, BDP"], [
            ([rlabel, b], {"src": "h", "scenario": p + b})
            for p, rlabel in COEX_RTTS for b in COEX_BUFS], [
            Col("runs", "runs", config="def"),
            Col("bbr_a_fair's share %", "share0", 1, 100, config="def"),
            Col("Jain", "jain", config="def"),
            Col("worst Jain", "jain", extreme="min", config="def"),
            Col("harm to cubic (computed)", fn=harm_from_grid, config="def"),
            Col("bar: cubic's self-harm + 0.1", fn=self_harm_bar, config="def")],
        what=computed_what("grid-200s")),
    "results-cubic-shallow": Table({"s": SHALLOW}, ["RTT", "buffer, BDP"], [
            ([dict(COEX_RTTS)[p], b], {"src": "s", "scenario": p + b})
            for p, b in SHALLOW_POINTS], [
            Col("runs", "runs", config="def"),
            Col("bbr_a_fair's share %", "share0", 1, 100, config="def"),
            Col("Jain", "jain", config="def"),
            Col("harm to cubic (computed)", fn=harm_against(SHALLOW), config="def"),
            Col("bar: cubic's self-harm + 0.1", fn=bar_against(SHALLOW), config="def"),
            Col("bbr's share %", "share0", 1, 100, config="bbr")],
        what=computed_what("cubic-shallow") + "; bbr: the kernel's, against one cubic flow"),
    "results-aqm": Table({"a": f"{CURRENT}/aqm/screen_runs.csv"}, ["queue"], [
        ([label], {"src": "a", "config": "def", "scenario": sc}) for sc, label in (
            ("bfifo", "drop-tail (bfifo)"), ("red", "RED"), ("codel", "CoDel"),
            ("fq_codel", "fq_codel"), ("step-bfifo", "drop-tail, rate 100/50/100"),
            ("step-codel", "CoDel, rate 100/50/100"))], [
        Col("runs", "runs"), Col("bbr_a_fair's share %", "share0", 1, 100),
        Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min"),
        Col("harm to cubic (computed)", fn=harm_against(AQM_REFS)),
        Col("bar: cubic's self-harm + 0.1", fn=bar_against(AQM_REFS))],
        what="one bbr_a_fair flow and one cubic flow, 20 ms, 100 Mbit/s, at most 5 BDP "
             "queued, 200 s measured from 60 s; " + computed_what("aqm-200s")),
    "results-bbr": Table({"b": f"{CURRENT}/bbr/screen_runs.csv"}, ["buffer, BDP"], [
        ([b], {"src": "b", "config": "def", "scenario": "c" + b}) for b in COEX_BUFS], [
        Col("runs", "runs"), Col("bbr_a_fair's share %", "share0", 1, 100),
        Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min")],
        what="mean +- 95 % CI half-width over the seeds; one bbr_a_fair flow and one bbr flow, "
             "20 ms, 100 Mbit/s, 200 s measured from 60 s; share: of the two flows' "
             "throughput"),
    "design-bbr-dips": Table(
        {"d": f"{CURRENT}/bbr/dips.csv"},
        ["buffer, BDP"], [([b], {"src": "d", "config": "def", "scenario": "c" + b})
                          for b in COEX_BUFS], [
            Col("PROBE_RTTs", fn=_dip_count(lambda d: True)),
            Col("left over 5 ms", fn=_dip_count(lambda d: _queue_ms(d) > 5)),
            Col("most in a row", fn=_longest_row),
            Col("largest left, ms", fn=lambda dips: f"{max(map(_queue_ms, dips)):.1f}"),
            Col("flag set", fn=_dip_count(lambda d: d["compete_after"] == "1"))],
        what="each PROBE_RTT of bbr_a_fair's gain trace (analyze.py --trace-dips), one "
             "bbr_a_fair flow and one bbr flow, 20 ms, 100 Mbit/s, 200 s, summed over the "
             "seeds; left: the dip's lowest RTT sample above the flow's lowest of the run; "
             "in a row: within one run; flag set: rule 4's flag after the dip",
        seed_notes=False, unit="PROBE_RTTs"),
    "results-wide": Table({"w": f"{CURRENT}/wide-60s/screen_runs.csv"}, ["scenario"], [
        ([label], {"src": "w", "config": "def", "scenario": sc}) for sc, label in RESULTS_WIDE], [
        Col("runs", "runs"), Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min"),
        Col("utilisation", "utilization"), Col("queue delay ms", "qdelay_mean_ms", 1)],
        what="mean +- 95 % CI half-width over the seeds; one flow per RTT class, 100 Mbit/s, "
             "60 s measured from 5 s; Jain over every flow", seed_notes=False),
    # docs/reproduction.md
    "fig5-flows": Table({"s": f"{R}/fig5"}, ["buffer", "algorithm"], [
        ([f"{s[1:]} BDP", cc], {"src": "s", "scenario": s, "config": cc})
        for s in ("b0.5", "b5") for cc in TABLE_CCS], [
        Col("10 ms flow, Mbit/s", "tput0", 2), Col("50 ms flow, Mbit/s", "tput1", 2),
        Col("50/10 ratio", "ratio", 2),
        Col("paper (NS-3)", text=lambda k: PAPER_FIG5.get((k["config"], k["scenario"]), "-")),
        Col("Jain", "jain")]),
    "fig6-jain": grid(f"{R}/fig6/screen_runs.csv", "jain", TABLE_CCS, FIG6,
                      label=lambda s: s[1:], header="buffer, BDP",
                      extra=[paper_row("paper (every buffer unless said)", PAPER_FIG6_TEXT)]),
    "fig6-retrans": grid(f"{R}/fig6/screen_runs.csv", "retrans_rate", TABLE_CCS, FIG6,
                         label=lambda s: s[1:], header="buffer, BDP", digits=2, scale=100,
                         what="retransmitted over sent data segments, per cent, mean +- 95 % "
                              "CI half-width over the seeds"),
    "fig7-jain": grid(f"{R}/fig7/screen_runs.csv", "jain", TABLE_CCS, FIG7,
                      label=lambda s: f"{int(s[1:]) / 10:g}", header="RTT ratio",
                      extra=[paper_row("paper (NS-3)", PAPER_FIG7_TEXT)]),
    "fig4-utilization": grid(f"{R}/fig4/screen_runs.csv", "utilization", TABLE_CCS, FIG4,
                             extra=[paper_row("paper (NS-3)", PAPER_FIG4_TEXT)]),
    "fig4-jain": grid(f"{R}/fig4/screen_runs.csv", "jain", TABLE_CCS, FIG4),
    "fig8-retrans": grid(
        f"{R}/fig8/screen_runs.csv", "retrans_rate", TABLE_CCS, FIG8, digits=1, scale=100,
        note=lambda s, cc: f"[{PAPER_FIG8_TEXT[(s, cc)]}]" if (s, cc) in PAPER_FIG8_TEXT else "",
        what="retransmitted over sent data segments of all flows, per cent, mean +- 95 % CI "
             "half-width over the seeds; [the paper's value]"),
    "reproduce-cost": Table({f"f{n}": f"{R}/fig{n}" for n in FIGS}, ["figure"], [
        ([f"Fig. {n}"], {"src": f"f{n}"}) for n in FIGS],
        [Col("runs", "runs"), Col("wall s per run", "wall_s", 0)],
        what="each job's own wall time (`params.wall_s` of its summary.json), mean +- 95 % CI "
             "half-width over the figure's runs", seed_notes=False),
    "fig4-retrans": grid(f"{R}/fig4/screen_runs.csv", "retrans_rate", TABLE_CCS, FIG4, digits=2,
                         scale=100, what="retransmitted over sent data segments, per cent, "
                                         "mean +- 95 % CI half-width over the seeds"),
    "fig8-jain": grid(f"{R}/fig8/screen_runs.csv", "jain", TABLE_CCS, FIG8,
                      what="Jain's index over all flows, mean +- 95 % CI half-width over the "
                           "seeds"),
    # docs/backends.md, docs/reproduction.md
    "client-now": Table(CLIENT_NOW, ["client", "cc"], CLIENT_NOW_ROWS,
        [Col("runs", "runs"), Col("Jain", "jain"), Col("utilisation", "utilization"),
         Col("queue delay ms", "qdelay_mean_ms", 1)],
        what="the default scenario (10 vs 50 ms, 100 Mbit/s, 5 BDP, 30 s) with each of the "
             "testbed's two clients, mean +- 95 % CI half-width over the seeds",
        seed_notes=False),
    # docs/module.md
    "cost-per-ack": Table({"c": COST}, ["A / B"], [(["bbr_a adaptive=0 / bbr"], {"src": "c"})], [
        Col("pairs", text=_cost(lambda s: str(s["pairs"]))),
        Col("CPU s per GB, A", text=_cost(lambda s: _spread(s["per_gb"][s["items"][0]], 1))),
        Col("CPU s per GB, B", text=_cost(lambda s: _spread(s["per_gb"][s["items"][1]], 1))),
        Col("A / B, pair by pair", text=_cost(lambda s: "{:.3f} +- {:.3f}".format(
            *s["ratio_mean_ci95"]) + " ({:.3f} .. {:.3f})".format(s["ratio"][0],
                                                                  s["ratio"][2])))],
        what="CPU seconds of the whole UML guest per GB sent (median, min .. max over the "
             "runs); the ratio's mean +- 95 % CI half-width and range over the pairs; "
             "scripts/bench_cost.sh, analyze.py --cost", seed_notes=False),
    "ack-cost": Table({"a": ACK_COST}, ["cc"], _keyed_rows("a", "row", ACK_COST_ROWS), [
        Col("ns per ACK: 10th percentile (min .. median)", text=_ack_cost("ns")),
        Col("ns per ACK less the ACK model's", text=_ack_cost("net")),
        Col("over bbr's [95 % interval]", text=_ack_cost("ratio")),
        Col("over bbr's, over code layouts: median (min .. max)", text=_ack_cost("layouts"))],
        what="the cc's cong_control in a counted loop of made-up ACKs (one bulk flow, "
             "100 Mbit/s, 20 ms, a bound in force), in a UML guest on the host's clock; "
             "tcp_bbr_a.ko and the kernel's tcp_bbr.c (as a module) built alike, -O2; "
             "each run 20 000 ACKs, the ccs' runs interleaved; the 10th percentile of the "
             "runs' ns per ACK, less the ACK model's alone; the first three columns are the "
             "first code layout's, interval: bootstrap over its runs; the last, each "
             "layout's ratio (both modules' code moved by a padding object linked first); "
             "scripts/bench_ack.sh --layouts 6, analyze.py --ack-cost", seed_notes=False,
        unit="timed runs"),
    # docs/results.md
    "results-convergence": Table(
        {"f": f"{COEX}/convergence-v0310/windows.csv",
         "w": f"{COEX}/convergence-v0230/windows.csv"}, ["window"], [
            ([f"{t0}..{t0 + 30} s"], {"t0_s": f"{float(t0)}"}) for t0 in range(0, 300, 30)],
        [Col(f"{label}, {slabel}", "share", 2, src=src, config=cfg, scenario=sc, part=part)
         for sc, slabel in CONV_SCEN
         for cfg, src, part, label in (("fair", "f", "1", "bbr_a_fair"),
                                       ("cubic2", "w", "2", "second cubic"))],
        what="the flow's share of the two flows' throughput in each 30 s window, mean +- 95 % "
             "CI half-width over the seeds: bbr_a_fair against one cubic flow, and the second "
             "of two cubic flows; both flows start together; 100 Mbit/s, a buffer of 20 BDP, "
             "300 s", seed_notes=False, unit="flow windows"),
}


EV = "docs/results/evaluations-uml"
EV_CCS = ("bbr", "bbr_a", "cubic")
EV_LOSS = ("l0.001", "l0.01", "l0.1", "l1", "l2", "l5", "l10", "l20", "l30", "l50")
EV_LOSS_CCS = ("bbr", "bbr_a", "bbr_a_fair", "cubic")
EV_WHAT = "mean +- 95 % CI half-width over the seeds"
EVQ = "docs/results/evaluations-qemu612/scenarios/eval.csv"
EVQ_ROWS = [  # (file, point, cc): each shipped scenario file once on QEMU
    ("fct-mixed.ini", "r20-b1", "bbr_a_fair"), ("aqm-rate-step.ini", "codel", "bbr_a_fair"),
    ("loss-sweep.ini", "l1", "bbr_a_fair"), ("convergence.ini", "rtt40", "bbr_a_fair"),
    ("flent-rtt-fair.ini", "", "bbr_a_fair"), ("flent-tcp-nup.ini", "", "bbr_a_fair"),
    ("late-join.ini", "long-joins", "bbr_a_fair"),
    ("leave.ini", "cubic-leaves", "bbr_a_fair+cubic")]


# the completion times of a train of short flows beside one 30 MB flow (fct-mixed.ini)
FCT_COLS = (Col("100 KB p50 ms", "fct_100000_p50_ms", 0), Col("100 KB p95 ms", "fct_100000_p95_ms", 0),
            Col("1 MB p50 ms", "fct_1000000_p50_ms", 0), Col("2 MB p50 ms", "fct_2000000_p50_ms", 0),
            Col("short flows done", "fct_all_n", 1),
            Col("30 MB flow FCT s", "finite_30000000_fct_s", 2))
FCT_WHAT = (EV_WHAT + " of each run's median (p50) or 95th percentile (p95) completion time "
            "per size")


def aqm_cols(*metrics):
    """Per rate phase (10, 20, 10 Mbit/s), each of metrics: (header, key, digits) of the
    bottleneck's queueing delay, the flow's smoothed RTT or its throughput."""
    return [Col(f"{what}, {ph}", f"ph{i}_{key}", digits) for what, key, digits in metrics
            for i, ph in ((1, "10"), (2, "20"), (3, "10 again"))]


def aqm_table(*metrics):
    """A row per qdisc and cc of the rate schedule's screen, aqm_cols of metrics."""
    return Table({"e": f"{EV}/aqm/eval.csv"}, ["qdisc", "cc"], [
        ([q, cc], {"src": "e", "config": cc, "scenario": q})
        for q in ("bfifo", "red", "codel", "fq_codel") for cc in EV_CCS], aqm_cols(*metrics),
        what=EV_WHAT + "; per phase of the rate schedule (Mbit/s), the first second of each "
             "left out")


def loss_table(worst):
    """A row per random loss rate, a column per cc: its utilisation's mean, or (worst) the
    worst seed's."""
    return Table({"e": f"{EV}/loss-60s/eval.csv"}, ["random loss %"], [
        ([s[1:]], {"src": "e", "scenario": s}) for s in EV_LOSS], [
        Col(cc, "utilization", config=cc, **({"extreme": "min"} if worst else {}))
        for cc in EV_LOSS_CCS],
        what="utilisation (goodput over the rate; ceiling (1 - loss) x 0.956), " + (
            "the worst seed's" if worst else EV_WHAT))


LATE = f"{EV}/late-start"
LATE_SRC = {"f": f"{EV}/flent", "f0": f"{LATE}/flent-v0300",
            **{k + sfx: f"{LATE}/summary-{name}-{v}.json" for k, name in (
                ("s", "short20"), ("l", "long20"), ("t", "late20"), ("h", "late100"),
                ("e", "early100"))
               for sfx, v in (("", "v1000"), ("0", "v0300"))}}
LATE_RUNS = (("flent's rtt_fair: the 50 ms flow about 0.2 s late, 30 s", "f"),
             ("the 50 ms flow 0.3 s late, 30 s", "t"), ("both at once, 30 s", "s"),
             ("both at once, 120 s", "l"), ("100 Mbit/s, the 50 ms flow 0.3 s late, 30 s", "h"),
             ("100 Mbit/s, the 10 ms flow 0.3 s late, 30 s", "e"))
EVAL_BLOCKS = {
    # docs/evaluations.md
    "eval-fct": Table({"e": f"{EV}/fct/eval.csv"}, ["cc (every flow)", "point"], [
        ([cc, "20 Mbit/s, 1 BDP"], {"src": "e", "config": cc, "scenario": "r20-b1"})
        for cc in EV_CCS], [
        *FCT_COLS], what=FCT_WHAT),
    "eval-fct-grid": Table({"e": f"{EV}/fct-grid/eval.csv"}, ["point", "cc (every flow)"], [
        ([where, cc], {"src": "e", "config": cc, "scenario": pt})
        for pt, where in (("r20-b0.5", "20 Mbit/s, 0.5 BDP"), ("r20-b1", "20 Mbit/s, 1 BDP"),
                          ("r20-b2", "20 Mbit/s, 2 BDP"), ("r20-b8", "20 Mbit/s, 8 BDP"),
                          ("r5-b1", "5 Mbit/s, 1 BDP"), ("r70-b1", "70 Mbit/s, 1 BDP"))
        for cc in EV_CCS], [
        *FCT_COLS], what=FCT_WHAT),
    "eval-aqm": aqm_table(("queue ms", "qdelay_mean_ms", 1), ("Mbit/s", "tput_mbps", 2)),
    "eval-aqm-srtt": aqm_table(("sRTT ms", "srtt_ms", 1)),
    "eval-loss": loss_table(worst=False),
    "eval-loss-worst": loss_table(worst=True),
    "eval-convergence": Table({"e": f"{EV}/convergence/eval.csv"}, ["cc (both flows)"], [
        ([cc], {"src": "e", "config": cc, "scenario": "rtt40"}) for cc in EV_CCS], [
        Col("runs", "runs"), Col("to 80 % s", "conv80_first_s", 1),
        Col("to 95 % s", "conv95_first_s", 1), Col("Jain, 2 s windows", "jain_win_mean"),
        Col("worst window", "jain_win_min"), Col("first flow Mbit/s", "flow1_mbps", 2),
        Col("newcomer Mbit/s", "flow2_mbps", 2)],
        what=EV_WHAT + "; convergence: from the join until the newcomer first holds that "
             "share of its fair share over a 1 s window; Jain over the windows after the join; "
             "throughputs over the whole run"),
    "eval-flent": Table({"e": f"{EV}/flent/eval.csv"}, ["cc (both flows)"], [
        ([cc], {"src": "e", "config": cc, "scenario": "flent-rtt-fair"})
        for cc in ("bbr_a_fair", "bbr_a", "bbr")], [
        Col("runs", "runs"), Col("flent's fairness", "flent_fairness"),
        Col("Jain (testbed)", "jain"), Col("utilisation", "utilization"),
        Col("ping, 10 ms class, ms", "ping_s1_ms", 1), Col("ping, 50 ms class, ms", "ping_s2_ms", 1)],
        what=EV_WHAT + "; flent's fairness index and mean pings from its data file, Jain and "
             "utilisation from the testbed's own capture"),
    "eval-late-start": Table(LATE_SRC, ["run (10 vs 50 ms, 5 BDP, 20 Mbit/s unless said)",
                                        "rtt_max's queueing part halves after"], [
        ([run, fade], {"src": src + sfx, **({"config": "bbr_a_fair"} if src == "f" else {})})
        for run, src in LATE_RUNS for fade, sfx in FADES], [
        Col("runs", "runs"), Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min"),
        Col("10 ms flow Mbit/s", "tput0", 2), Col("50 ms flow Mbit/s", "tput1", 2)],
        what="bbr_a_fair, mean +- 95 % CI half-width over the seeds; measured from 5 s to 1 s "
             "before the end; " + FADE_WHAT + "; the testbed's client (tcpflow.py) but in the "
             "flent rows", seed_notes=False),
    "eval-nup": Table({"e4": f"{EV}/nup/eval.csv", "e8": f"{EV}/nup-8/eval.csv",
                       "e16": f"{EV}/nup-16/eval.csv"}, ["streams", "cc (every stream)"], [
        ([str(n), cc], {"src": f"e{n}", "config": cc, "scenario": "flent-tcp-nup"})
        for n in (4, 8, 16) for cc in EV_LOSS_CCS], [
        Col("Jain", "jain"),
        Col("worst Jain", "jain", extreme="min"), Col("utilisation", "utilization"),
        Col("retransmitted %", "retrans_rate", 2, 100),
        Col("queue delay ms", "qdelay_mean_ms", 1), Col("flent's ping ms", "ping_sICMP_ms", 1)],
        what=EV_WHAT + "; Jain, utilisation, retransmissions and the queue from the testbed's "
             "own capture, the ping (through the queue, 40 ms base) from flent's data file"),
    "eval-qemu": Table({"q": EVQ}, ["scenario file", "point", "cc"], [
        ([f, pt or "-", cc], {"src": "q", "scenario": pt or f.removesuffix(".ini")})
        for f, pt, cc in EVQ_ROWS], [
        Col("runs", "runs"), Col("Jain", "jain"), Col("utilisation", "utilization"),
        Col("retransmitted %", "retrans_rate", 2, 100), Col("queue delay ms", "qdelay_mean_ms", 1)],
        what="one run each (seed 1); Jain, utilisation and retransmissions over the file's "
             "measured interval, the bottleneck's mean queueing delay"),
}
BLOCKS.update(EVAL_BLOCKS)
from .docs_blocks_results import RESULTS_BLOCKS  # noqa: E402  (the results READMEs)
BLOCKS.update(RESULTS_BLOCKS)
from .docs_blocks_paths import PATHS_BLOCKS  # noqa: E402  (docs/paths.md)
BLOCKS.update(PATHS_BLOCKS)
from .docs_blocks_peers import PEERS_BLOCKS  # noqa: E402  (docs/peers.md)
BLOCKS.update(PEERS_BLOCKS)


SOAK = "docs/results/guest-soak"
SOAKS = [  # (guest, soak's commit and traffic), source, file: in the order they ran
    ("UML", "290823e, iperf3 as the traffic (stopped early)", "u1",
     "uml-main-job-fresh-clone-290823e.csv"),
    ("UML", "dc7e736, tcpflow.py", "u2", "uml-main-job-fresh-clone-dc7e736.csv"),
    ("UML", "c8b6683, tcpflow.py, the sink woken per 64 KB (since taken back)", "u3",
     "uml-main-job-fresh-clone-c8b6683.csv"),
    ("UML", "1770b9c, tcpflow.py, read per packet", "u4", "uml-main-job-fresh-clone-1770b9c.csv"),
    ("QEMU, Debian 6.12", "af38ff6, no retry after a fault", "q", "qemu612-default.csv")]
SAMPLER = {"w": "docs/results/sampler-cost-uml/wall.csv"}
CLIENT_COST = {"c": "docs/results/client-uml/cost-clean.csv",
               "a": "docs/results/client-uml/cost-aad7e6c.csv"}


def two_durations(col):
    """Columns of runs timed at 10 and 30 s: the wall time at each, and the marginal cost."""
    return [Col("wall s, D = 10 s", fn=wall_span(col, "10")),
            Col("wall s, D = 30 s", fn=wall_span(col, "30")),
            Col("marginal wall s per simulated s", fn=marginal(col, "10", "30"))]


WALL_WHAT = ("wall time per run (min .. max over the repetitions); marginal: (wall at 30 s - "
             "wall at 10 s) / 20 s, one value per repetition")
WALL_BLOCKS = {
    # docs/backends.md
    "backends-soaks": Table({src: f"{SOAK}/{f}" for _, _, src, f in SOAKS},
                            ["guest", "soak (commit, traffic)"],
                            [([g, what], {"src": src}) for g, what, src, _ in SOAKS], [
        Col("main jobs", fn=lambda rs: str(len({r["iteration"] for r in rs}))),
        Col("guest runs", fn=lambda rs: str(len(rs))), Col("outcomes", fn=soak_outcomes),
        Col("guest wall s per main job", fn=soak_job_walls),
        Col("faults per guest run, 95 % upper bound", fn=fault_bound)],
        what="scripts/guest_soak.sh's rows, one per guest run of the main job (bbr_a and bbr, "
             "30 s each) from a fresh clone (UML) or as is (QEMU); wall: the guest runs' own "
             "`wall_s` summed per main job, min .. max; upper bound: 3 / guest runs where "
             "none faulted (the rule of three, computed)", seed_notes=False),
    "backends-sampler-cost": Table(SAMPLER, ["sampling (commit)"], [
        (["ss/tc per sample (bae84dc)"], {"src": "w", "sampling": "ss-tc"}),
        (["netlink sampler (977a811)"], {"src": "w", "sampling": "netlink"}),
        (["none (`--sample-ms 0`, 977a811)"], {"src": "w", "sampling": "none"})],
        two_durations("wall_s_time") + [Col("tc samples, D = 30 s", fn=lambda rs: ", ".join(
            r["tc_samples"] for r in rs if r["duration_s"] == "30"))],
        what="wall time of the one run at each duration (/usr/bin/time's elapsed), two runs "
             "at a time on the 2-core machine; marginal: (wall at 30 s - wall at 10 s) / 20 s",
        seed_notes=False),
    "backends-client-cost": Table(CLIENT_COST, ["traffic (commit)", "sampling"], [
        (["iperf3 3.12 (e9f5123)", "100 ms"],
         {"src": "c", "traffic": "iperf3", "sampling_ms": "100"}),
        (["tcpflow.py, a clock read per read and write (e9f5123)", "100 ms"],
         {"src": "c", "traffic": "tcpflow.py", "sampling_ms": "100", "commit": "e9f5123"}),
        (["the same", "none"], {"src": "c", "traffic": "tcpflow.py", "sampling_ms": "0"}),
        (["tcpflow.py, counters snapshotted per interval (1bd1207)", "100 ms"],
         {"src": "c", "commit": "1bd1207"}),
        (["later sitting: read per packet, gain trace read after the run (ca51776)", "100 ms"],
         {"src": "a", "receiver": "per_packet"}),
        (["the same, the sink reading 16 KB at a time with MSG_WAITALL (aad7e6c, **the "
          "testbed's**)", "100 ms"], {"src": "a", "receiver": "waitall_16k"})],
        two_durations("wall_s"), what=WALL_WHAT, seed_notes=False),
}
BLOCKS.update(WALL_BLOCKS)

STRESS = {"s": "docs/results/stress-uml/runs.csv"}
STRESS_RUNS = [("sanitize-1000", "short form, sanitizer kernel")]


def _field(fmt):
    """A cell of the stress block: fmt filled with the fields of its one run."""
    return lambda rs: fmt.format(**rs[0]) if len(rs) == 1 else "-"


STRESS_BLOCKS = {
    # README.md
    "stress-runs": Table(STRESS, ["run"], _keyed_rows("s", "run", STRESS_RUNS), [
        Col(head, fn=_field(fmt)) for head, fmt in (
            ("sanitizers", "{sanitizers}"), ("cases (failed)", "{cases} ({cases_failed})"),
            ("flows (failed)", "{flows} ({flows_failed})"), ("bytes delivered intact", "{bytes}"),
            ("findings", "{findings}"),
            ("kmemleak suspects, no module frame", "{kmemleak_other}"), ("unload", "{unload}"))],
        what="one run of tests/stress.sh each (`testbed/analyze.py --stress-csv` of its "
             "summary.json, committed beside); findings: kernel-log reports and kmemleak "
             "objects with a tcp_bbr_a frame; the kernel, guest and wall times are in "
             "runs.csv", seed_notes=False),
}
BLOCKS.update(STRESS_BLOCKS)


QEMU = "docs/results/fairness-qemu612"
QEMU040_SRC = {k: f"{QEMU}/summary-0.4.0-{k}.json"
               for k in ("default", "loss6", "loss6-g0", "b0.1", "b0.1-g0", "b0.1-bbr")}
QEMU040_SRC["u"] = "docs/results/fair-gains-uml/grid-30s/screen_runs.csv"
QEMU040 = [  # (guest, scenario, config, selection)
    ("QEMU 6.12", "5 BDP", "bbr_a_fair 0.4.0", {"src": "default"}),
    ("QEMU 6.12", "5 BDP, 6 % loss", "bbr_a_fair 0.4.0", {"src": "loss6"}),
    ("QEMU 6.12", "5 BDP, 6 % loss", "fair_gains=0 (0.3.0's gains)", {"src": "loss6-g0"}),
    ("QEMU 6.12", "0.1 BDP", "bbr_a_fair 0.4.0", {"src": "b0.1"}),
    ("QEMU 6.12", "0.1 BDP", "fair_gains=0", {"src": "b0.1-g0"}),
    ("QEMU 6.12", "0.1 BDP", "bbr", {"src": "b0.1-bbr"}),
    ("UML (fair-gains-uml grid-30s)", "0.1 BDP", "bbr_a_fair 0.4.0",
     {"src": "u", "config": "bbr_a_fair", "scenario": "b0.1"}),
    ("UML (fair-gains-uml grid-30s)", "0.1 BDP", "fair_gains=0",
     {"src": "u", "config": "bbr_a_fair_v030", "scenario": "b0.1"}),
    ("UML (fair-gains-uml grid-30s)", "0.1 BDP", "bbr",
     {"src": "u", "config": "bbr", "scenario": "b0.1"})]
QEMU_DEFAULT_SRC = {"f3": f"{QEMU}/summary-bbr_a_fair-0.3.0.json",
                    "f2": f"{QEMU}/summary-bbr_a_fair.json", "a": f"{QEMU}/summary-bbr_a.json",
                    "b": f"{QEMU}/summary-bbr.json",
                    "u": "docs/results/fairness-grid-uml/screen_runs.csv"}
QEMU_DEFAULT = [  # (guest, config (commit), selection)
    ("QEMU 6.12", "bbr_a_fair 0.3.0 (d9137fc)", {"src": "f3"}),
    ("QEMU 6.12", "bbr_a_fair 0.2.0 (bae84dc)", {"src": "f2"}),
    ("QEMU 6.12", "bbr_a 0.2.0 (cfa2311)", {"src": "a"}),
    ("QEMU 6.12", "bbr (cfa2311)", {"src": "b"}),
    ("UML (fairness-grid-uml)", "bbr_a_fair 0.3.0",
     {"src": "u", "config": "bbr_a_fair", "scenario": "b5"})]
RUN_WHAT = "each run's value in seed order, or the mean +- 95 % CI half-width over the runs"
QEMU_BLOCKS = {  # docs/results/fairness-qemu612/README.md
    "qemu612-040": Table(QEMU040_SRC, ["guest", "scenario", "config"], [
        ([g, s, c], sel) for g, s, c, sel in QEMU040], [
        Col("runs", "runs"), Col("Jain per run", fn=per_run("jain")), Col("Jain", "jain"),
        Col("retransmitted %", "retrans_rate", 1, 100),
        Col("queue ms", fn=span("qdelay_mean_ms", 1)),
        Col("10 ms flow ahead", fn=first_flow_ahead),
        Col("wall s per run", fn=per_run("wall_s", 0))],
        what=RUN_WHAT + "; queue: the bottleneck's mean queueing delay, min .. max over the "
             "runs; ahead: the runs where the 10 ms flow got more than the 50 ms flow; wall: "
             "each run's own (`params.wall_s`; the UML screen's CSV has none)",
        seed_notes=False),
    "qemu612-default": Table(QEMU_DEFAULT_SRC, ["guest", "config (commit)"], [
        ([g, c], sel) for g, c, sel in QEMU_DEFAULT], [
        Col("runs", "runs"), Col("Jain per run", fn=per_run("jain")), Col("Jain", "jain"),
        Col("utilisation", "utilization"), Col("retransmitted %", "retrans_rate", 1, 100),
        Col("queue ms per run", fn=per_run("qdelay_mean_ms", 1)),
        Col("10 ms flow Mbit/s", fn=per_run("tput0", 1)),
        Col("50 ms flow Mbit/s", fn=per_run("tput1", 1)),
        Col("wall s per run", fn=per_run("wall_s", 0))],
        what="10 ms vs 50 ms, 100 Mbit/s, 5 BDP, 30 s; " + RUN_WHAT + "; wall: each run's own "
             "(`params.wall_s`; the UML screen's CSV has none)", seed_notes=False),
}
BLOCKS.update(QEMU_BLOCKS)


CU = "docs/results/client-uml"
CLIENT_SETS_SRC = {"a": f"{CU}/summary-tcpflow.json", "b": f"{CU}/summary-iperf3.json",
                   "c": f"{CU}/summary-tcpflow-late50.json",
                   "d": f"{CU}/summary-tcpflow-a086e61.json",
                   "e": f"{CU}/summary-tcpflow-a086e61-late50.json",
                   "f": f"{CU}/summary-tcpflow-1770b9c.json"}
CLIENT_SETS = [  # (set, client, when the 50 ms flow starts, source)
    ("tcpflow (A)", "tcpflow.py", "with the 10 ms flow", "a"),
    ("iperf3 (B)", "iperf3 3.12", "later by a few RTTs of its path (iperf3's control exchange; "
     "~0.1 s, estimated)", "b"),
    ("late50 (C)", "tcpflow.py", "0.1 s later (`--starts 0,0.1`)", "c"),
    ("tcpflow-a086e61 (D)", "tcpflow.py, sink per 64 KB", "with the 10 ms flow", "d"),
    ("tcpflow-a086e61-late50 (E)", "tcpflow.py, sink per 64 KB", "0.1 s later", "e"),
    ("tcpflow-1770b9c (F)", "tcpflow.py as it stays (no SO_RCVLOWAT)", "with the 10 ms flow",
     "f")]
CLIENT_BLOCKS = {  # docs/results/client-uml/README.md
    "client-sets": Table(CLIENT_SETS_SRC, ["set", "client", "50 ms flow starts"], [
        ([name, client, starts], {"src": src}) for name, client, starts, src in CLIENT_SETS], [
        Col("runs", "runs"), *(Col(f"Jain {cc}", "jain", cc=cc)
                               for cc in ("bbr", "bbr_a", "bbr_a_fair")),
        Col("utilisation bbr", "utilization", cc="bbr"),
        Col("wall s per run", fn=span("wall_s", 0))],
        what="the default scenario, 30 s; mean +- 95 % CI half-width over the seeds; wall: "
             "each run's own (`params.wall_s`), min .. max over the set's runs",
        seed_notes=False),
    "client-bbr_a-start": Table({
        "s": f"{CU}/summary-tcpflow-a086e61-bbr_a.json",
        "l": f"{CU}/summary-tcpflow-a086e61-bbr_a-late50.json",
        "g": "docs/results/fairness-grid-uml/screen_runs.csv"}, ["client", "50 ms flow starts"], [
        (["tcpflow.py (a086e61)", "with the 10 ms flow"], {"src": "s"}),
        (["tcpflow.py (a086e61)", "0.1 s later"], {"src": "l"}),
        (["iperf3 (fairness-grid-uml)", "after iperf3's control exchange"],
         {"src": "g", "config": "bbr_a", "scenario": "b5"})], [
        Col("runs", "runs"), Col("Jain", "jain"), Col("lowest .. highest", fn=span("jain")),
        Col("10 ms flow cwnd-limited %", "cwnd_limited0", 1, 100),
        Col("50 ms flow probing up %", "probe1", 1, 100)],
        what="bbr_a 0.3.0, the default scenario, 30 s; mean +- 95 % CI half-width over the "
             "seeds; cwnd-limited and probing up (Pup): shares of the flow's PROBE_BW rounds "
             "from its gain trace", seed_notes=False),
}
BLOCKS.update(CLIENT_BLOCKS)
