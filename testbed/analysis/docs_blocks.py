"""The generated blocks of README.md, docs/*.md and docs/results/**/README.md (docs.py):
each name, the committed data it renders from and what it shows. A block is placed in a
Markdown file by its markers alone (<!-- table:NAME --> ... <!-- /table -->), so it can
move between files."""
import collections
import csv
import os

from .cost import ack_cost_summary, cost_summary
from .docs import REPO, Col, Table, grid
from .paper_values import (PAPER_FIG4_TEXT, PAPER_FIG5, PAPER_FIG6_TEXT, PAPER_FIG7_TEXT,
                           PAPER_FIG8_TEXT)
from .stats import percentile
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


def screen_rows(sources, rows):
    """A table like analyze.py --screen --markdown's: a row per (labels, sel), its runs,
    Jain, utilisation, retransmitted %, the bottleneck's queue delay."""
    return Table(sources, ["config", "scenario"], rows, [
        Col("runs", "runs"), Col("Jain", "jain"), Col("utilisation", "utilization"),
        Col("retransmitted %", "retrans_rate", 2, 100), Col("queue delay ms", "qdelay_mean_ms", 1)],
        seed_notes=False)


GRID30 = {"g": "docs/results/fair-gains-uml/grid-30s/screen_runs.csv"}
WHERE = [("b5", "10 vs 50 ms, 5 BDP"), ("r100", "10 vs 100 ms, 5 BDP"),
         ("b0.1", "10 vs 50 ms, 0.1 BDP"), ("l6-b5", "10 vs 50 ms, 5 BDP, 6 % loss")]
GAINS_SRC = {"f6": f"{R}/fig6/screen_runs.csv", "f7": f"{R}/fig7/screen_runs.csv",
             "f4": f"{R}/fig4/screen_runs.csv",
             "q": "docs/results/fair-gains-uml/screen-200s/screen_runs.csv"}
GAINS = [("b0.1", "f6", ""), ("b0.2", "f6", ""), ("b0.5", "f6", ""), ("b1", "f6", ""),
         ("b5", "f6", ""), ("b20", "f6", ""), ("r20", "f7", " (10 vs 20 ms)"), ("r30", "f7", ""),
         ("r100", "f7", ""), ("l1-b5", "f4", " (1 % loss)"), ("l3-b5", "f4", ""),
         ("l6-b1", "f4", ""), ("l6-b5", "f4", ""), ("m3-b5", "q", " (3 flows per class)")]
GRID030 = [(cc, s) for cc in ("bbr", "bbr_a", "bbr_a_fair")
           for s in ("b0.5", "b1", "b2", "b5", "b20", "r20", "r30", "r100")]
READINGS = ["bbr_a", "bbr_a-and", "bbr_a-gate-delay", "bbr_a-nohold", "bbr_a-scope-gate",
            "bbr_a-scope-probebw", "bbr_a-win10"]
RATE_FLOWS = {"g20": "docs/results/fairness-grid-uml/rate20/screen_runs.csv",
              "gf3": "docs/results/fairness-grid-uml/fpr3/screen_runs.csv",
              "s20": "docs/results/fairness-screen-uml/rate20/screen_runs.csv",
              "sf3": "docs/results/fairness-screen-uml/fpr3/screen_runs.csv"}


def _gain_cols():
    cols = []
    for what, metric, digits, scale in (("Jain", "jain", 3, 1),
                                        ("retransmitted %", "retrans_rate", 1, 100),
                                        ("utilisation", "utilization", 3, 1)):
        cols += [Col(f"{what} 0.3.0", metric, digits, scale, config="bbr_a_fair"),
                 Col(f"{what} fair_gains=2", metric, digits, scale, src="q",
                     config="fair_qphi")]
    return cols


COEX = "docs/results/coexistence-uml"
CONV_PAIRS = [("A", "bbr_a_fair (candidate) / cubic"), ("cubic2", "cubic / cubic"),
              ("bbr", "bbr / cubic")]
CONV_SCEN = [("c20", "20 ms, 20 BDP"), ("d20", "50 ms, 20 BDP")]


def windows_table(path, pairs, scenarios, t0s, window_s):
    """The first part's share of the throughput in consecutive windows (analyze.py
    --share-windows), a row per pair and scenario, a column per window."""
    return Table({"w": path}, ["pair (first / second)", "path"], [
        ([label, slabel], {"src": "w", "config": cfg, "scenario": sc, "part": "1"})
        for sc, slabel in scenarios for cfg, label in pairs],
        [Col(f"{t0:g}..{t0 + window_s:g} s", "share", 2, t0_s=f"{float(t0)}") for t0 in t0s],
        what=f"the first flow's share of the throughput in each {window_s:g} s window, mean "
             "+- 95 % CI half-width over the seeds", seed_notes=False, unit="flow windows")


GRID200 = {"g": f"{COEX}/grid-200s/screen_runs.csv"}
MORE200 = {"m": f"{COEX}/more-200s/screen_runs.csv"}
COEX_BUFS = ("0.5", "1", "2", "5", "10", "20")
COEX_RTTS = (("c", "20 ms"), ("d", "50 ms"))
GRID_POINTS = tuple(f"{p}{b}" for p, _ in COEX_RTTS for b in COEX_BUFS)


def grid_label(sc):
    """A grid point's label: c<b> is 20 ms and <b> BDP, d<b> 50 ms."""
    return f"{20 if sc[0] == 'c' else 50} ms, {sc[1:]} BDP"


def deep(sc):
    """Is a grid point's buffer 2 BDP or more (where pilots ran deep screens of their own)?"""
    return float(sc[1:]) >= 2


def by_depth(shallow, deep_src, sc):
    """The source of a grid point's runs, where a configuration's shallow and deep points
    are in screens of their own."""
    return deep_src if deep(sc) else shallow


def coexist_cols(configs, src="g"):
    """For each (config, name) against cubic: the newcomer's share (%), Jain and its harm to
    cubic; then cubic's harm to itself (from the cubic+cubic runs at the same points)."""
    cols = []
    for cfg, name in configs:
        cols += [Col(f"{name}'s share %", "share0", 1, 100, config=cfg, src=src),
                 Col("Jain", "jain", 3, config=cfg, src=src),
                 Col("harm to cubic", "harm", 2, config=cfg, src=src)]
    return cols + [Col("cubic's self-harm", "self_harm", 2, config=configs[0][0], src=src)]


COEX_WHAT = ("mean +- 95 % CI half-width over the seeds; share: of the two flows' throughput; "
             "harm: (x_solo - x_with) / x_solo of cubic's throughput (Ware et al.), self-harm "
             "the same with cubic as the other flow")


def coexist_grid(bufs, rtts, configs):
    return Table(GRID200, ["RTT", "buffer, BDP"], [
        ([rlabel, b], {"src": "g", "scenario": f"{p}{b}"}) for p, rlabel in rtts for b in bufs],
        coexist_cols(configs), what=COEX_WHAT)


O60 = {"o": "docs/results/fairness-060-uml/grid-30s/screen_runs.csv"}
# the cut-while-competing pilot's rows at a one-against-one grid point: (source, config, label)
PILOT_GRID_ROWS = (("g", "dips2", "10 % (0.7.0)"), ("p", "cb200", "20 % (pilot)"),
                   ("p", "cb300", "30 % (pilot)"), ("g", "v080", "30 % (0.8.0)"))


WIDE = "docs/results/fairness-wide-uml"
WIDE_SRC = {"r": f"{WIDE}/rtt-60s/screen_runs.csv", "f": f"{WIDE}/flows-40s/screen_runs.csv",
            "g": f"{WIDE}/rate1000-30s/screen_runs.csv",
            "h": f"{WIDE}/rate200-30s/screen_runs.csv"}
# (source, scenario, label, configs run there)
WIDE_ALL = ("v091", "v080", "fair", "dips2", "cand", "bbr")
WIDE_SCEN = [
    ("r", "x30-b1", "5 vs 150 ms, 1 BDP", WIDE_ALL),
    ("r", "x30-b5", "5 vs 150 ms, 5 BDP", WIDE_ALL),
    ("r", "c3-b2", "10, 30, 90 ms, 2 BDP", WIDE_ALL),
    ("r", "c3-b5", "10, 30, 90 ms, 5 BDP", WIDE_ALL),
    ("r", "c4-b2", "10, 20, 50, 100 ms, 2 BDP", WIDE_ALL),
    ("h", "b2", "10 vs 50 ms, 200 Mbit/s, 2 BDP", WIDE_ALL),
    ("g", "g2", "10 vs 50 ms, 1 Gbit/s, 2 BDP", ("v081", "bbr")),
    ("f", "m10-b2", "10 vs 60 ms, 10 flows each, 2 BDP", ("v0100",) + WIDE_ALL),
    ("f", "m50-b2", "10 vs 60 ms, 50 flows each, 2 BDP", ("fair", "dips2", "cand", "bbr")),
]
WIDE_CFG = {"v0100": "0.10.0 (average, shrinking packets)", "v091": "0.9.1", "v080": "0.8.0",
            "v081": "0.8.1", "fair": "0.6 (dips=1)", "dips2": "0.7.0 (dips=2)",
            "cand": "dips=2, pkts_scale=1", "bbr": "bbr"}


def wide_table(scenarios, configs):
    """bbr_a_fair against its own kind beyond the grids it was tuned on: a row per scenario
    and configuration, the worst seed's Jain beside the mean."""
    return Table(WIDE_SRC, ["scenario", "config"], [
        ([label, WIDE_CFG[c]], {"src": src, "config": c, "scenario": sc})
        for src, sc, label, cfgs in scenarios for c in cfgs if c in configs], [
        *own_kind_cols()], seed_notes=False)


def pkts_pilot(name, header, configs):
    """A packet-allowance pilot under fairness-wide-uml/name: each (config, label) at ten
    flows per class (m10-40s) and at three per class and ratio 10 (grid-30s)."""
    return Table({"m": f"{WIDE}/{name}/m10-40s/screen_runs.csv",
                  "g": f"{WIDE}/{name}/grid-30s/screen_runs.csv"}, [header, "scenario"], [
        ([label, where], {"src": src, "config": cfg, "scenario": sc})
        for cfg, label in configs
        for src, sc, where in (("m", "m10-b2", "10 flows per class, 2 BDP"),
                               ("g", "m3-b5", "3 flows per class, 5 BDP"),
                               ("g", "r100", "10 vs 100 ms, 5 BDP"))], [
        Col("runs", "runs"), Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min"),
        Col("queue delay ms", "qdelay_mean_ms", 1)], seed_notes=False)


PACE = f"{WIDE}/pilot-pace"
PACE_SRC = {"o2": f"{PACE}/own-0102/screen_runs.csv", "o4": f"{PACE}/own-0104/screen_runs.csv",
            "o5": f"{PACE}/own-0105/screen_runs.csv", "g5": f"{PACE}/grid-0105/screen_runs.csv",
            "o6": f"{PACE}/own-0106/screen_runs.csv"}
PACE_CFG = {"def": "1: pacing and target (the default before 0.11.0)", "pace0": "cwnd target only (0)",
            "cut30": "allowance, cut at 30 ms, floor one BDP of the model's bw (0.10.4)",
            "f15": "allowance, cut at 15 ms (2)", "f30": "allowance, cut at 30 ms (2)",
            "f60": "allowance, cut at 60 ms (2)", "p3": "as 2, paced at most at the pre-cut bound"}
PACE_PICKS = (("o2", "def"), ("o2", "pace0"), ("o4", "cut30"), ("o5", "f15"), ("g5", "f30"),
              ("g5", "f60"), ("o6", "p3"))
PACE_SCEN = [("b0.1", "10 vs 50 ms, 0.1 BDP"), ("b0.2", "10 vs 50 ms, 0.2 BDP"),
             ("b0.5", "10 vs 50 ms, 0.5 BDP"), ("b1", "10 vs 50 ms, 1 BDP"),
             ("b5", "10 vs 50 ms, 5 BDP"), ("b20", "10 vs 50 ms, 20 BDP"),
             ("r20", "10 vs 20 ms, 5 BDP"), ("r100", "10 vs 100 ms, 5 BDP"),
             ("l6-b5", "10 vs 50 ms, 5 BDP, 6 % loss")]

HI_SHALLOW_SRC = {"o2": PACE_SRC["o2"], "g5": PACE_SRC["g5"],
                  "s": f"{WIDE}/pilot-shallow/own-01011/screen_runs.csv"}
HI_SHALLOW_CFG = {"def": PACE_CFG["def"], "f30": "allowance, cut at 30 ms (2, 0.10.5)",
                  "sh7": "allowance below 7 ms of queue, else 1 (0.10.11; 0.11.0's default)",
                  "sh9": "allowance below 9 ms of queue, else 1 (0.10.11)"}


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


SLOW = f"{WIDE}/pilot-slow"
SLOW_SRC = {"c1": f"{SLOW}/m10-calm/screen_runs.csv", "r2": f"{SLOW}/m10-rate/screen_runs.csv",
            "s3": f"{SLOW}/m10-slow/screen_runs.csv", "l3": f"{SLOW}/m10-90s/screen_runs.csv",
            "o3": f"{SLOW}/own-30s/screen_runs.csv", "w3": f"{SLOW}/wide-60s/screen_runs.csv",
            "f3": f"{SLOW}/m50-90s/screen_runs.csv", "h3": f"{SLOW}/rate200-30s/screen_runs.csv",
            "g3": f"{SLOW}/rate1000-30s/screen_runs.csv", "e3": f"{SLOW}/late-60s/eval.csv",
            "t3": f"{SLOW}/t12-m10-90s/screen_runs.csv", "u3": f"{SLOW}/t12-wide-60s/screen_runs.csv",
            "p3": f"{SLOW}/t12-own-30s/screen_runs.csv",
            "d3": f"{SLOW}/m50-diag-90s/screen_runs.csv"}
SLOW_COEX = f"{COEX}/pilot-slow-200s"
SLOW_CFG = {"v0112": "defaults (0.11.2, as 0.11.0)", "v0113": "defaults (0.11.3, as 0.11.0)",
            "avg": "average, packets shrink past 10 ms, ungated (0.11.1)",
            "calm1": "the same while no bound is in force (fair_calm_ms=1, 0.11.1)",
            "calm3": "the same 3 s after the bound (fair_calm_ms=3000, 0.11.1)",
            "calm10": "the same 10 s after the last cut (0.11.1)",
            "calm30": "the same 30 s after the last cut (0.11.1)",
            "rate10": "packets by rate, 10 ms (0.11.2)", "rate20": "packets by rate, 20 ms (0.11.2)",
            "rate40": "packets by rate, 40 ms (0.11.2)", "avg2": "average (0.11.2)",
            "avgr10": "average, packets by rate, 10 ms (0.11.2)",
            "avgr20": "average, packets by rate, 20 ms (0.11.2)",
            "slow10": "average for a slow flow, packets by rate, 10 ms (0.11.3)",
            "slow12": "average for a slow flow, packets by rate, 12 ms (0.11.3)",
            "slow15": "average for a slow flow, packets by rate, 15 ms (0.11.3)",
            "slow20": "average for a slow flow, packets by rate, 20 ms (0.11.3)"}


PR = f"{WIDE}/pilot-probe-rtt"
PR_COEX = f"{COEX}/pilot-probe-rtt-200s"
# the runs of 0.12.0's and of 0.13.0's defaults (0.12.1 with fair_probe_rtt_pm=250) on the
# CUBIC grid: shallow (0.5, 1 BDP) and deep points in screens of their own
K12 = {"k6": f"{SLOW_COEX}/slow12/screen_runs.csv", "k7": f"{SLOW_COEX}/slow12-deep/screen_runs.csv"}
Q250 = {"q": f"{PR_COEX}/cubic250/screen_runs.csv", "q2": f"{PR_COEX}/deep250/screen_runs.csv"}
PR_CFG = {"v0121": "defaults (0.12.1, as 0.12.0)", "def": "defaults (0.12.1, as 0.12.0)",
          "slow12": "defaults of 0.12.0 (0.11.3 with fair_cwnd_avg=2 fair_pkts_rate_us=12000)",
          "pr500": "PROBE_RTT at half the BDP (fair_probe_rtt_pm=500, 0.12.1)",
          "pr250": "PROBE_RTT at a quarter of the BDP (fair_probe_rtt_pm=250, 0.12.1)"}


# the late-join evaluation's points and columns (testbed/scenarios/late-join.ini)
LATE_POINTS = (("long-joins", "50 ms joins 10 ms at 15 s"),
               ("short-joins", "10 ms joins 50 ms at 15 s"))
LATE_COLS = [Col("runs", "runs"), Col("to 80 % s", "conv80_first_s", 1),
             Col("to 95 % s", "conv95_first_s", 1), Col("Jain 30..59 s", "jain"),
             Col("worst Jain", "jain", extreme="min"), Col("Jain, 2 s windows", "jain_win_mean"),
             Col("worst window", "jain_win_min")]
LATE_WHAT = ("mean +- 95 % CI half-width over the seeds; convergence: from the join until the "
             "newcomer first holds that share of its fair share over a 1 s window; Jain over "
             "the measured 30..59 s, and over 2 s windows after the join")

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


V090 = "0.9.0 (the defaults' algorithm before 0.11.0)"


def own_kind_cols():
    """The columns of an own-kind table: runs, Jain, worst Jain, utilisation,
    retransmissions and the worst seed's, queue delay."""
    return [Col("runs", "runs"), Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min"),
            Col("utilisation", "utilization"), Col("retransmitted %", "retrans_rate", 2, 100),
            Col("worst retransmitted %", "retrans_rate", 2, 100, extreme="max"),
            Col("queue delay ms", "qdelay_mean_ms", 1)]


def share_cols():
    """The first columns of a table against another cc: runs, bbr_a_fair's share, Jain,
    worst Jain."""
    return [Col("runs", "runs"), Col("bbr_a_fair's share %", "share0", 1, 100),
            Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min")]


def computed_what(ref, whose="cubic's", solo="cubic", bar=True):
    """What a table whose harm is computed against the screen ref's references says."""
    text = (COEX_WHAT.split(", self-harm")[0].replace("cubic's throughput", f"{whose} throughput")
            + f", computed against the mean of {ref}'s {solo}-alone runs at the point")
    return text + (f"; bar: {ref}'s {solo}-against-{solo} self-harm there, + 0.1" if bar else "")


HR25 = f"{COEX}/pilot-aqm-200s/hr25"
HR25_LABEL = "the law at 25 ms (fair_hi_rtt_us=25000)"
M50S = "docs/results/fairness-wide-uml/m50-stagger-90s"
M50S_SRC = {"s1": f"{M50S}/summary-bbr_a_fair.json", "s2": f"{M50S}/summary-nocomp.json",
            "s3": f"{M50S}/summary-bbr.json", "s4": f"{M50S}/summary-pace.json",
            "t": f"{M50S}/together/screen_runs.csv",
            "d3": "docs/results/fairness-wide-uml/pilot-slow/m50-diag-90s/screen_runs.csv"}
BBR_RUNS = f"{COEX}/bbr-200s"
BBR_SRC = {"d20": f"{BBR_RUNS}/def20/screen_runs.csv", "d50": f"{BBR_RUNS}/def50/screen_runs.csv",
           "m": f"{BBR_RUNS}/mid/screen_runs.csv", "p": f"{BBR_RUNS}/pkts/screen_runs.csv"}
BBR_FIRST = {"def0130b": "bbr_a_fair 0.13.0 / bbr",
             "mid1b": "bbr_a_fair, an extra dip (fair_compete_mid=1, 0.13.1) / bbr",
             "pkts64b": "bbr_a_fair 0.13.0, 64 packets (fair_cwnd_pkts=64) / bbr",
             "q10b": "bbr_a_fair 0.13.0, 10 ms of queue (fair_cwnd_queue_us=10000) / bbr",
             "bbr": "bbr / bbr"}


V0150 = f"{COEX}/v0150"
V0150_SRC = {k: f"{V0150}/{d}/screen_runs.csv" for k, d in (
    ("vg", "grid"), ("vh", "hr25-d1"), ("vm", "more"), ("vb", "bbr"), ("va", "aqm"),
    ("vo", "own-30s"), ("vx", "m10-90s"), ("vw", "wide-60s"))}
V0150_LABELS = (("0.13.0", "0.13.0"), ("0.15.0", "0.15.0"))


def bound_cell(key, scale=1.0):
    """A cell function of a bounds file's rows (analyze.py --trace-bounds): the highest
    value of key over the rows that have it, "-" where none has."""
    def cell(rows):
        vals = [float(r[key]) for r in rows if r.get(key) not in ("", None)]
        return f"{max(vals) * scale:.0f}" if vals else "-"
    return cell


def dip_count(test=lambda d: True):
    """A cell function of a dips file's rows (analyze.py --trace-dips): how many pass test."""
    return lambda dips: str(sum(1 for d in dips if test(d)))


def dip_cols():
    """The columns of a table of dips (analyze.py --trace-dips rows): runs, PROBE_RTTs, the
    most begun in one second of a run, how many came within 5 ms of the path's RTT, and the
    median queue they left."""
    return [
        Col("runs", fn=lambda dips: str(len({d.get("seed") for d in dips}))),
        Col("PROBE_RTTs", fn=dip_count()),
        Col("most begun in one second of a run", fn=lambda dips: str(max(
            collections.Counter((d.get("seed"), int(float(d["start_s"])))
                                for d in dips).values()))),
        Col("came within 5 ms of the path's RTT",
            fn=dip_count(lambda d: d["lowest_rtt_ms"] != "" and
                         float(d["lowest_rtt_ms"]) - float(d["rtt_ms"]) < 5)),
        Col("median queue left, ms", fn=lambda dips: "%.1f" % percentile(
            [float(d["lowest_rtt_ms"]) - float(d["rtt_ms"]) for d in dips
             if d["lowest_rtt_ms"] != ""], 50))]


AQM200 = f"{COEX}/aqm-200s/screen_runs.csv"
AQM_POINTS = (("bfifo", "tail drop (bfifo)"), ("red", "RED"), ("codel", "CoDel"),
              ("fq_codel", "fq_codel"), ("step-bfifo", "tail drop, 100 -> 50 -> 100 Mbit/s"),
              ("step-codel", "CoDel, 100 -> 50 -> 100 Mbit/s"))


# A release's runs on the list a default must keep: label, and per kind of run
# (grid_shallow, grid_deep: the CUBIC grid's 0.5/1 and 2..20 BDP points; more: crossed RTTs
# and one against four; bbr; aqm; own: the own-kind grid; m10; wide) its screen and config.
V0130_RUNS = ("0.13.0", {
    "grid_shallow": (Q250["q"], "pr250"), "grid_deep": (Q250["q2"], "pr250"),
    "more": (f"{PR_COEX}/more250/screen_runs.csv", "pr250"),
    "bbr": (f"{BBR_RUNS}/def20/screen_runs.csv", "def0130b"), "aqm": (AQM200, "pr250"),
    "own": (f"{PR}/own250-30s/screen_runs.csv", "pr250"),
    "m10": (f"{PR}/m10-250-90s/screen_runs.csv", "pr250"),
    "wide": (f"{PR}/wide250-60s/screen_runs.csv", "pr250")})
V0150_RUNS = ("0.15.0", {
    "grid_shallow": (V0150_SRC["vg"], "v0150"), "grid_deep": (V0150_SRC["vg"], "v0150"),
    "more": (V0150_SRC["vm"], "v0150"), "bbr": (V0150_SRC["vb"], "v0150"),
    "aqm": (V0150_SRC["va"], "v0150"), "own": (V0150_SRC["vo"], "v0150"),
    "m10": (V0150_SRC["vx"], "v0150"), "wide": (V0150_SRC["vw"], "v0150")})

HR20_DIR = f"{COEX}/hr20"
HR20_RUNS = ("0.15.0, the law at 20 ms (fair_hi_rtt_us=20000)", {
    **{k: (f"{HR20_DIR}/grid/screen_runs.csv", "hr20") for k in ("grid_shallow", "grid_deep")},
    **{k: (f"{HR20_DIR}/{d}/screen_runs.csv", "hr20") for k, d in (
        ("more", "more"), ("bbr", "bbr"), ("aqm", "aqm"), ("own", "own-30s"),
        ("m10", "m10-90s"), ("wide", "wide-60s"))}})

HR20_LABEL = "0.15.1 (0.15.0's runs with its default)"


def list_runs(label, top, cfg):
    """A set's runs of the whole list laid out as all-v0163's under top (V0130_RUNS's
    shape): the CUBIC grid, crossed RTTs and one against four in one screen, cubic/."""
    return (label, {
        **{k: (f"{top}/cubic/screen_runs.csv", cfg)
           for k in ("grid_shallow", "grid_deep", "more")},
        **{k: (f"{top}/{d}/screen_runs.csv", cfg) for k, d in (
            ("bbr", "bbr"), ("aqm", "aqm"), ("own", "own-30s"), ("m10", "m10-90s"),
            ("wide", "wide-60s"))}})


# 0.16.3 with every many-flow option on the whole list a default must keep; and with the
# average-rate target for every flow as well
ALL_DIR = f"{WIDE}/m50-many/all-v0163"
ALL_CUBIC = f"{ALL_DIR}/cubic/screen_runs.csv"
ALL_RUNS = list_runs("0.16.3, every many-flow option", ALL_DIR, "manyall")
AVG1_DIR = f"{WIDE}/m50-many/avg1-v0163"
AVG1_LABEL = "0.16.3, every many-flow option, the average-rate target (fair_cwnd_avg=1)"
AVG1_RUNS = list_runs(AVG1_LABEL, AVG1_DIR, "allavg1")
AVG3_DIR = f"{WIDE}/m50-many/avg3-v0171"
AVG3_LABEL = "0.17.1, its defaults with fair_cwnd_avg=3"
AVG3_RUNS = list_runs(AVG3_LABEL, f"{AVG3_DIR}/list", "avg3")
# 0.18.3 with the competing law at 10 ms plus the queueing delay (fair_compete_rtt_us=10000,
# 0.19.0's default) on the whole list
CRTT_DIR = f"{COEX}/crtt-v0183"
CRTT_LABEL = "0.18.3, the competing law at 10 ms plus the queueing delay (fair_compete_rtt_us=10000)"
CRTT_RUNS = list_runs(CRTT_LABEL, f"{CRTT_DIR}/list", "q10")
# 0.19.2 with a lossy round ending STARTUP (fair_startup_loss=1, 0.20.0's default) on the
# whole list
V0192_DIR = f"{CRTT_DIR}/v0192"
SL_LABEL = "0.19.2, a lossy round ends STARTUP (fair_startup_loss=1)"
SL_RUNS = list_runs(SL_LABEL, V0192_DIR, "sl")
# 0.23.0's defaults (no module parameter) on the grids of the README's tables, laid out as
# list/'s (own-30s/, cubic/, wide-60s/, bbr/), config def
V0230_DIR = f"{COEX}/v0230"
V0230_RUNS = list_runs("0.23.0, its defaults", V0230_DIR, "def")
V0250_DIR = f"{COEX}/v0250"  # the current release's runs (docs/results.md, README.md)
RESULTS_OWN = (("b5", "10 vs 50 ms, 5 BDP (the paper's)"), ("b0.1", "10 vs 50 ms, 0.1 BDP"),
               ("b0.2", "10 vs 50 ms, 0.2 BDP"), ("b0.5", "10 vs 50 ms, 0.5 BDP"),
               ("b1", "10 vs 50 ms, 1 BDP"), ("b20", "10 vs 50 ms, 20 BDP"),
               ("r20", "10 vs 20 ms, 5 BDP"), ("r100", "10 vs 100 ms, 5 BDP"),
               ("l6-b5", "10 vs 50 ms, 5 BDP, 6 % random loss"))
RESULTS_WIDE = (("x30-b1", "5 vs 150 ms, 1 BDP"), ("x30-b5", "5 vs 150 ms, 5 BDP"),
                ("c3-b2", "10, 30, 90 ms, 2 BDP"), ("c3-b5", "10, 30, 90 ms, 5 BDP"),
                ("c4-b2", "10, 20, 50, 100 ms, 2 BDP"))


def release_tables(prefix, releases, extra=()):
    """The blocks <prefix>-cubic, -more, -bbr, -aqm and -own: each release's runs
    (V0130_RUNS's shape) side by side at the points a default must keep; extra: rows
    (grid point, label suffix, {release label: (screen, config)}) after the grid's."""
    def src(kind, i):  # one key per screen: a release may run its grid in one
        runs = releases[i][1]
        if kind == "grid_deep" and runs["grid_deep"][0] == runs["grid_shallow"][0]:
            kind = "grid_shallow"
        return f"r{i}{kind}"

    def sources(kinds):
        return {src(k, i): runs[k][0] for i, (_, runs) in enumerate(releases) for k in kinds}

    def row(labels, kind, scenario):
        return [(labels + [version], {"src": src(kind, i), "config": runs[kind][1],
                                      "scenario": scenario})
                for i, (version, runs) in enumerate(releases)]

    extra_src = {f"x{n}{version}": path for n, (_, _, by) in enumerate(extra)
                 for version, (path, _) in by.items()}
    grid_rows = [r for sc in GRID_POINTS
                 for r in row([grid_label(sc)], "grid_deep" if deep(sc) else "grid_shallow", sc)]
    grid_rows += [([f"{grid_label(sc)}{law}", version],
                   {"src": f"x{n}{version}", "config": cfg, "scenario": sc})
                  for n, (sc, law, by) in enumerate(extra) for version, (_, cfg) in by.items()]
    blocks = {
        f"{prefix}-cubic": cubic_pilot(
            {**sources(("grid_shallow", "grid_deep")), **extra_src}, grid_rows, [WORST_RETX]),
        f"{prefix}-more": Table(
            {**MORE200, **sources(("more",))},
            ["flows, RTT (bbr_a_fair / cubic)", "buffer, BDP", "bbr_a_fair"],
            [r for p, where in (("x", "1 / 1, 10 / 50 ms"), ("y", "1 / 1, 50 / 10 ms"),
                                ("f", "1 / 4, 20 ms"))
             for b in ("0.5", "2", "20") for r in row([where, b], "more", f"{p}{b}")], [
                *share_cols(),
                Col("harm to cubic (computed)",
                    fn=harm_against(MORE200["m"], "incumbent_mbps")),
                Col("bar: cubic's self-harm + 0.1", fn=bar_against(MORE200["m"])),
                WORST_RETX],
            what=computed_what("more-200s", "the cubic flows'"))}
    own_rows = [r for sc, where in PACE_SCEN for r in row([where], "own", sc)]
    own_rows += row(["10 flows per class, 10 vs 60 ms, 2 BDP, 90 s from 30 s"], "m10", "m10-b2")
    own_rows += [r for w, sc, label, _ in WIDE_SCEN if w == "r"
                 for r in row([f"{label}, 60 s"], "wide", sc)]
    return {
        **blocks,
        f"{prefix}-bbr": bbr_pilot(
            sources(("bbr",)),
            [(src("bbr", i), runs["bbr"][1], version)
             for i, (version, runs) in enumerate(releases)]),
        f"{prefix}-aqm": Table(
            {**sources(("aqm",))}, ["queue", "bbr_a_fair"],
            [r for pt, where in AQM_POINTS for r in row([where], "aqm", pt)], [
                *share_cols(),
                Col("harm to cubic (computed)", fn=harm_against(AQM200)),
                Col("bar: cubic's self-harm + 0.1", fn=bar_against(AQM200))],
            what=computed_what("aqm-200s")),
        f"{prefix}-own": Table(
            sources(("own", "m10", "wide")), ["scenario", "bbr_a_fair"], own_rows,
            own_kind_cols(), seed_notes=False)}


def finished_mean(metric):
    """A cell function: the mean of metric over the runs that have it (a finite flow's rate
    where it finished), and how many did where not all."""
    def cell(runs):
        vals = [r[metric] for r in runs if r.get(metric) not in ("", None)]
        text = _mean_text([float(v) for v in vals])
        return text if len(vals) == len(runs) else f"{text} ({len(vals)} of {len(runs)} finished)"
    return cell


def cubic_pilot(sources, rows, extra=()):
    """A pilot against one cubic flow beside grid-200s's default runs: each row's share,
    Jain, worst Jain, its harm to cubic computed against grid-200s's cubic-alone runs,
    and the issue's bar there (and extra columns after them)."""
    return Table({**sources, **GRID200}, ["point", "bbr_a_fair"], rows, [
        *share_cols(),
        Col("harm to cubic (computed)", fn=harm_from_grid),
        Col("bar: cubic's self-harm + 0.1", fn=self_harm_bar), *extra],
        what=computed_what("grid-200s"))


WORST_RETX = Col("worst retransmitted %", "retrans_rate", 2, 100, extreme="max")


def bbr_pilot(sources, configs):
    """A pilot against one bbr flow of 20 ms at 0.5, 2 and 20 BDP: a row per buffer and
    (source, config, label) of configs, each row's share, Jain, worst Jain and its harm to
    bbr computed against more-200s's bbr-alone runs."""
    return Table({**MORE200, **sources}, ["point", "bbr_a_fair"], [
        ([f"20 ms, {b} BDP", label], {"src": src, "config": cfg, "scenario": f"c{b}"})
        for b in ("0.5", "2", "20") for src, cfg, label in configs], [
        *share_cols(),
        Col("harm to bbr (computed)", fn=harm_against(MORE200["m"], "incumbent_mbps"))],
        what=computed_what("more-200s", "bbr's", "bbr", bar=False))


AVG_SRC = {"m4": f"{WIDE}/pilot-avg/m10-40s/screen_runs.csv",
           "g4": f"{WIDE}/pilot-avg/grid-30s/screen_runs.csv",
           "o4": f"{WIDE}/pilot-avg/own-30s/screen_runs.csv",
           "m6": f"{WIDE}/pilot-avg-096/m10-40s/screen_runs.csv",
           "o6": f"{WIDE}/pilot-avg-096/own-30s/screen_runs.csv"}
AVG_CFG = {"v094": "0.9.4's defaults (max filter, fixed packets)",
           "avg": "average (0.9.4)", "avgs5": "average, packets shrink past 5 ms (0.9.4)",
           "avgs10": "average, packets shrink past 10 ms (0.9.4)",
           "avgs15": "average, packets shrink past 15 ms (0.9.4)",
           "avg6": "average unless lossy (0.9.6)",
           "avgs6": "average unless lossy, packets shrink past 10 ms (0.9.6: 0.10.0's defaults)",
           "fl6": "floor under the cut (0.9.6)", "avgfl6": "average unless lossy, floor (0.9.6)"}
AVG_ROWS = [  # (scenario, label, [(source, config)])
    ("m10-b2", "10 flows per class, 10 vs 60 ms, 2 BDP", [
        ("m4", "v094"), ("m4", "avg"), ("m4", "avgs5"), ("m4", "avgs10"), ("m4", "avgs15"),
        ("m6", "avg6"), ("m6", "avgs6")]),
    ("m3-b5", "3 flows per class, 10 vs 50 ms, 5 BDP", [
        ("g4", "v094"), ("g4", "avg"), ("g4", "avgs5"), ("g4", "avgs10"), ("o6", "avgs6")]),
    ("r100", "10 vs 100 ms, 5 BDP", [("g4", "v094"), ("g4", "avg"), ("g4", "avgs10"),
                                     ("o6", "avgs6")]),
    ("x30-b1", "5 vs 150 ms, 1 BDP", [("g4", "v094"), ("g4", "avg"), ("g4", "avgs10"),
                                      ("o6", "avgs6")]),
    ("l6-b5", "10 vs 50 ms, 5 BDP, 6 % loss", [("o4", "avg"), ("o4", "avgs10"),
                                               ("o6", "avg6"), ("o6", "avgs6")]),
    ("b0.1", "10 vs 50 ms, 0.1 BDP", [("o4", "avg"), ("o6", "avgs6"), ("o6", "fl6"),
                                       ("o6", "avgfl6")]),
    ("b0.2", "10 vs 50 ms, 0.2 BDP", [("o6", "avgs6"), ("o6", "fl6")])]


FIGS = (4, 5, 6, 7, 8)
CLIENT = {"c": "docs/results/client-uml/runs-receive.csv", "r": "docs/results/client-uml/runs.csv",
          "f": "docs/results/client-uml/summary-tcpflow-1770b9c.json"}
CLIENT_ROWS = [  # (receiver, cc, selection) of the default scenario, 30 s, 5 seeds (3 late50)
    *(("per packet, live trace reader (1770b9c)", cc, {"src": "f", "cc": cc})
      for cc in ("bbr", "bbr_a", "bbr_a_fair")),
    ("per packet (ca51776's testbed)", "bbr", {"src": "c", "set": "G-perpacket", "cc": "bbr"}),
    ("per packet (ca51776's testbed)", "bbr_a", {"src": "c", "set": "G-perpacket", "cc": "bbr_a"}),
    ("MSG_WAITALL 16 KB (aad7e6c, the testbed's)", "bbr",
     {"src": "c", "set": "I-waitall16k", "cc": "bbr"}),
    ("MSG_WAITALL 16 KB (aad7e6c, the testbed's)", "bbr beside bbr_a",
     {"src": "c", "set": "I-waitall16k-with-bbr_a", "cc": "bbr"}),
    ("MSG_WAITALL 16 KB (aad7e6c, the testbed's)", "bbr_a",
     {"src": "c", "set": "I-waitall16k", "cc": "bbr_a"}),
    ("MSG_WAITALL 16 KB (aad7e6c, the testbed's)", "bbr_a_fair",
     {"src": "c", "set": "I-waitall16k", "cc": "bbr_a_fair"}),
    ("woken per 64 KB (SO_RCVLOWAT on ca51776's testbed)", "bbr_a",
     {"src": "c", "set": "H-rcvlowat64k", "cc": "bbr_a"}),
    ("tcpflow.py at e9f5123", "bbr", {"src": "r", "set": "tcpflow", "cc": "bbr"}),
    ("tcpflow.py at e9f5123", "bbr_a_fair", {"src": "r", "set": "tcpflow", "cc": "bbr_a_fair"}),
    ("tcpflow.py at e9f5123, the 50 ms flow 0.1 s late", "bbr",
     {"src": "r", "set": "tcpflow-late50", "cc": "bbr"}),
    ("woken per 64 KB (a086e61)", "bbr", {"src": "r", "set": "tcpflow-a086e61", "cc": "bbr"}),
    ("woken per 64 KB (a086e61)", "bbr_a_fair",
     {"src": "r", "set": "tcpflow-a086e61", "cc": "bbr_a_fair"}),
    ("woken per 64 KB (a086e61), the 50 ms flow 0.1 s late", "bbr",
     {"src": "r", "set": "tcpflow-a086e61-late50", "cc": "bbr"}),
    ("iperf3 3.12 (e9f5123)", "bbr", {"src": "r", "set": "iperf3", "cc": "bbr"}),
    ("iperf3 3.12 (e9f5123)", "bbr_a_fair", {"src": "r", "set": "iperf3", "cc": "bbr_a_fair"}),
]
EXPLORE60 = {"e": "docs/results/fair-gains-uml/explore-60s/screen_runs.csv"}
GAIN_NAMES = (("fair", "BBR-A's phi (0.3.0)"), ("fair_fixed", "BBRv1's gains (fair_gains=1)"),
              ("fair_qphi", "queueing delays' phi (fair_gains=2)"))
PHASE_COLS = [Col("Jain", "jain"), Col("retransmitted %", "retrans_rate", 1, 100),
              Col("queue delay ms", "qdelay_mean_ms", 1),
              Col("10 ms flow cwnd-limited %", "cwnd_limited0", 0, 100),
              Col("50 ms flow cwnd-limited %", "cwnd_limited1", 0, 100),
              Col("10 ms flow phi", "phi0", 2), Col("50 ms flow phi", "phi1", 2)]
GRID30_040 = (("bbr_a_fair", "0.4.0"), ("bbr_a_fair_v030", "fair_gains=0"), ("bbr", "bbr"),
              ("bbr_a", "bbr_a"))
SHALLOW = {"s": "docs/results/fair-gains-uml/shallow-30s/screen_runs.csv"}
SHALLOW_CFG = (("fair", "0.4.0"), ("cap2-16", "2 ms + 16 packets"), ("cap1-8", "1 ms + 8 packets"),
               ("fq1", "drain above 1 ms"), ("hold", "fair_probe_hold=1"))

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


def _ack_cost(what):
    """A cell of the ack-cost block, for the row's cc (sel["row"]): analyze.py --ack-cost's
    ns per ACK ("ns"), the same less the ACK model's ("net") or the ratio to bbr's."""
    def text(sel):
        with open(os.path.join(REPO, ACK_COST)) as f:
            s = ack_cost_summary(list(csv.DictReader(f)))
        if what == "ns":
            return "{1:.1f} ({0:.1f} .. {2:.1f})".format(*s["ns_per_ack"][sel["row"]])
        if what == "net":
            return f"{s['net'][sel['row']]:.1f}"
        return "{:.3f} [{:.3f} .. {:.3f}]".format(*s["ratio"][sel["row"]])
    return text


def _spread(x, digits):
    return f"{x[1]:.{digits}f} ({x[0]:.{digits}f} .. {x[2]:.{digits}f})"


BLOCKS = {
    # README.md, "Where it stands"
    "readme-where-it-stands": screen_rows(
        {"p": "docs/results/coexistence-uml/v0241/own-30s/screen_runs.csv",
         "q": f"{V0250_DIR}/own-30s/screen_runs.csv"},
        [([cc, label], {"src": src, "config": cfg, "scenario": s})
         for s, label in WHERE[:2] for cc, cfg, src in (("bbr", "bbr", "p"),
                                                        ("bbr_a", "abbr", "p"),
                                                        ("bbr_a_fair", "def", "q"))]),
    # docs/results.md: the current release's runs
    "results-own": Table({"p": f"{V0250_DIR}/own-30s/screen_runs.csv"},
                         ["scenario"], [
        ([label], {"src": "p", "config": "def", "scenario": sc}) for sc, label in RESULTS_OWN], [
        Col("runs", "runs"), Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min"),
        Col("utilisation", "utilization"), Col("retransmitted %", "retrans_rate", 2, 100),
        Col("queue delay ms", "qdelay_mean_ms", 1)],
        what="mean +- 95 % CI half-width over the seeds; one flow per RTT, 100 Mbit/s, 30 s "
             "measured from 5 s; the queue delay is the bottleneck's", seed_notes=False),
    "results-cubic": Table({"h": f"{V0250_DIR}/cubic/screen_runs.csv", **GRID200},
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
    "results-bbr": Table({"b": f"{V0250_DIR}/bbr/screen_runs.csv"}, ["buffer, BDP"], [
        ([b], {"src": "b", "config": "def", "scenario": "c" + b}) for b in COEX_BUFS], [
        Col("runs", "runs"), Col("bbr_a_fair's share %", "share0", 1, 100),
        Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min")],
        what="mean +- 95 % CI half-width over the seeds; one bbr_a_fair flow and one bbr flow, "
             "20 ms, 100 Mbit/s, 200 s measured from 60 s; share: of the two flows' "
             "throughput"),
    "results-wide": Table({"w": f"{V0250_DIR}/wide-60s/screen_runs.csv"}, ["scenario"], [
        ([label], {"src": "w", "config": "def", "scenario": sc}) for sc, label in RESULTS_WIDE], [
        Col("runs", "runs"), Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min"),
        Col("utilisation", "utilization"), Col("queue delay ms", "qdelay_mean_ms", 1)],
        what="mean +- 95 % CI half-width over the seeds; one flow per RTT class, 100 Mbit/s, "
             "60 s measured from 5 s; Jain over every flow", seed_notes=False),
    # docs/notebook/coexistence.md
    "coexist-grid": coexist_grid(COEX_BUFS, COEX_RTTS,
                                 [("v090", "0.9.0"), ("dips2", "0.7.0"), ("bbr", "bbr")]),
    "coexist-baselines": coexist_grid(COEX_BUFS, COEX_RTTS,
                                      [("abbr", "bbr_a"), ("bbq", "bbq"), ("da", "da_bbr")]),
    "coexist-qemu612": Table({"qm": "docs/results/coexistence-qemu612/screen_runs.csv",
                              **GRID200, **K12, **Q250, "vg": V0150_SRC["vg"],
                              "h20": HR20_RUNS[1]["grid_shallow"][0]}, ["bbr_a_fair", "backend", "point"], [
        ([version, backend, grid_label(sc)], {"src": src, "config": cfg, "scenario": sc})
        for version, cfgs, scens, uml in (
            ("0.7.0", ("dips2", "dips2"), ("c2", "c20"), ("g", "g")),
            ("0.8.1 (QEMU), 0.8.0 (UML)", ("v081", "v080"), ("c20",), ("g", "g")),
            ("0.9.1 (QEMU), 0.9.0 (UML)", ("v091", "v090"), ("c2", "c20"), ("g", "g")),
            ("0.12.0 (QEMU), 0.11.3 with 0.12.0's defaults (UML)", ("v0120", "slow12"),
             ("c2", "c20", "d0.5"), ("k6", "k7")),
            ("0.12.1 with fair_probe_rtt_pm=250, 0.13.0's defaults", ("pr250", "pr250"),
             ("c2", "c20", "d0.5"), ("q", "q2")),
            ("0.13.0 (QEMU), 0.12.1 with fair_probe_rtt_pm=250 (UML)", ("v0130", "pr250"),
             ("d2", "d20"), ("q", "q2")),
            ("0.14.1, the code of 0.13.0 (QEMU), 0.12.1 with fair_probe_rtt_pm=250 (UML)",
             ("v0141", "pr250"), ("d1", "d5", "d10"), ("q", "q2")),
            ("0.15.0", ("v0150", "v0150"), ("c2", "d1"), ("vg", "vg")),
            ("0.15.1 (QEMU), 0.15.0 with fair_hi_rtt_us=20000 (UML)", ("v0151", "hr20"),
             ("c0.5",), ("h20", "h20")))
        for sc in scens
        for src, backend, cfg in (("qm", "QEMU, Debian 6.12", cfgs[0]),
                                  (by_depth(*uml, sc), "UML, 6.1", cfgs[1]))], [
        *share_cols()],
        what=COEX_WHAT.split("; harm")[0], seed_notes=False),
    "coexist-own-kind": screen_rows(O60, [
        ([label, s], {"src": "o", "config": cfg, "scenario": s})
        for s in ("b0.1", "b0.2", "b0.5", "b1", "b5", "b20", "r20", "r100", "l6-b5")
        for cfg, label in (("v0100", "0.10.0"), ("v091", "0.9.1"), ("v080", "0.8.0"),
                           ("dips2", "0.7.0"), ("bbr_a_fair_off", "rules off"))]),
    "coexist-more": Table({**MORE200, **GRID200}, ["pair (first / second)", "flows, RTT",
                                                    "buffer, BDP"], [
        ([pair, where, b], {"src": src, "config": cfg, "scenario": f"{p}{b}"})
        for src, cfg, pair, scen in (
            *((("m", cfg, f"bbr_a_fair {v} / cubic", (("x", "1 / 1, 10 / 50 ms"),
                                                       ("y", "1 / 1, 50 / 10 ms"),
                                                       ("f", "1 / 4, 20 ms"))))
              for cfg, v in (("v090", "0.9.0"), ("fair070", "0.7.0"))),
            *((("m", cfg, f"bbr_a_fair {v} / bbr", (("c", "1 / 1, 20 ms"),)))
              for cfg, v in (("fairb090", "0.9.0"), ("fairb070", "0.7.0"))),
            ("g", "abbr", "bbr_a / cubic", (("c", "1 / 1, 20 ms"),)))
        for p, where in scen for b in ("0.5", "2", "20")], [
        Col("first's share %", "share0", 1, 100), Col("Jain", "jain", 3),
        Col("harm to the second", "harm", 2), Col("second's self-harm", "self_harm", 2)],
        what=COEX_WHAT.replace("cubic's throughput", "the second's throughput (all its "
                               "flows)").replace("with cubic as the other flow",
                                                 "with the second's cc as the first")),
    "wide-rtt": wide_table(WIDE_SCEN, WIDE_CFG),
    "wide-late-join": Table({"e": f"{WIDE}/late-60s/eval.csv"}, ["newcomer", "cc"], [
        ([who, WIDE_CFG[c]], {"src": "e", "config": c, "scenario": pt})
        for pt, who in LATE_POINTS
        for c in ("v091", "v081", "bbr")], LATE_COLS, what=LATE_WHAT, seed_notes=False),
    "coexist-leave": Table({"e": f"{COEX}/leave-90s/eval.csv"}, ["who leaves", "cc"], [
        ([who, label], {"src": "e", "config": c, "scenario": pt})
        for pt, who in (("cubic-leaves", "cubic"), ("own-leaves", "its own kind"))
        for c, label in (("v092", "bbr_a_fair 0.9.2"), ("c1", "bbr_a_fair, flag off after one "
                                                         "drained dip (0.8.x)"),
                         ("drop", "bbr_a_fair, bound dropped at a drained dip (0.10.9)"),
                         ("bbr", "bbr"), ("cubic", "cubic"))], [
        Col("runs", "runs"), Col("refill to 95 % s", "refill95_s", 1),
        *(Col(f"queue {k}..{k + 10} s ms", f"leave_q{k}_ms", 1) for k in (0, 10, 20, 30))],
        what="mean +- 95 % CI half-width over the seeds; refill: from the leave until the flow "
             "left delivers 95 % of what both delivered in the 5 s before, over 1 s windows; "
             "queue: the bottleneck's mean queueing delay over each 10 s after the leave",
        seed_notes=False),
    "wide-cost": Table({"h": f"{WIDE}/rate200-30s", "g": f"{WIDE}/rate1000-30s"},
                       ["rate", "config"], [
        ([rate, WIDE_CFG[c]], {"src": src, "config": c})
        for src, rate, cfgs in (("h", "200 Mbit/s", ("v080", "bbr")),
                                ("g", "1 Gbit/s", ("v081", "bbr")))
        for c in cfgs], [
        Col("runs", "runs"), Col("wall s per 30 s run", "wall_s", 0),
        Col("slowest run s", "wall_s", 0, extreme="max")],
        what="each job's own wall time (`params.wall_s` of its summary.json: the guest's "
             "boot, 30 s of traffic in virtual time, the analysis), mean +- 95 % CI "
             "half-width, with other guests sharing the machine's two cores",
        seed_notes=False),
    "pilot-clear-dips": Table(
        {"p": f"{COEX}/pilot-clear-dips-200s/screen_runs.csv", **GRID200},
        ["point", "flag clears after"], [
            ([where, label], {"src": src, "config": cfg, "scenario": sc})
            for sc, where in (("d1", "50 ms, 1 BDP"), ("d20", "50 ms, 20 BDP"))
            for src, cfg, label in (("g", "v080", "1 drained dip (0.8.0)"),
                                    ("p", "v082", "1 drained dip (0.8.2's build)"),
                                    ("p", "v082c2", "2 drained dips (0.8.2's build)"),
                                    ("g", "v090", "2 drained dips (0.9.0)"))], [
            *share_cols(),
            Col("harm to cubic", "harm", 2)],
        what=COEX_WHAT.split(", self-harm")[0] + " (-: the pilot's screen has no cubic alone "
        "to take it from)"),
    "pilot-avg-cubic": Table(
        {"p": f"{COEX}/pilot-avg-200s/screen_runs.csv", **GRID200},
        ["point", "bbr_a_fair"], [
            ([where, label], {"src": src, "config": cfg, "scenario": sc})
            for sc, where in (("c0.5", "20 ms, 0.5 BDP"), ("c1", "20 ms, 1 BDP"),
                              ("d0.5", "50 ms, 0.5 BDP"), ("d1", "50 ms, 1 BDP"),
                              ("d20", "50 ms, 20 BDP"))
            for src, cfg, label in (("g", "v090", "0.9.0 (options off)"),
                                    ("g", "v0100", "0.10.0 (average, shrinking packets)"),
                                    ("p", "noavg", "0.10.0 without the average"),
                                    ("p", "noscale", "0.10.0 without the shrinking"))
            if src == "g" or sc in ("d0.5", "d1")], [
            *share_cols(),
            Col("harm to cubic", "harm", 2)],
        what=COEX_WHAT.split(", self-harm")[0] + " (-: the pilot's screen has no cubic alone "
        "to take it from)"),
    "pilot-compete-beta": Table(
        {"p": f"{COEX}/pilot-compete-beta-200s/screen_runs.csv",
         "q": f"{COEX}/pilot-compete-beta-080-200s/screen_runs.csv", **MORE200, **GRID200},
        ["point", "cut while competing"], [
            ([where, label], {"src": src, "config": cfg, "scenario": sc})
            for sc, where, rows in (
                ("f20", "1 / 4, 20 ms, 20 BDP", (("m", "fair070", "10 % (0.7.0)"),
                                                 ("p", "cb200", "20 % (pilot)"),
                                                 ("q", "cb200", "20 % (0.8.0's build)"),
                                                 ("p", "cb300", "30 % (pilot)"),
                                                 ("m", "v080", "30 % (0.8.0)"))),
                ("c20", "1 / 1, 20 ms, 20 BDP", PILOT_GRID_ROWS),
                ("d20", "1 / 1, 50 ms, 20 BDP", PILOT_GRID_ROWS),
                ("c5", "1 / 1, 20 ms, 5 BDP", PILOT_GRID_ROWS),
                ("d1", "1 / 1, 50 ms, 1 BDP", (("g", "dips2", "10 % (0.7.0)"),
                                               ("q", "cb200", "20 % (0.8.0's build)"),
                                               ("g", "v080", "30 % (0.8.0)"))))
            for src, cfg, label in rows], [
            *share_cols()],
        what="mean +- 95 % CI half-width over the seeds (the first pilot's rows: 3 seeds on "
             "0.7.2's build; the others 5); share: of all flows' throughput",
        seed_notes=False),
    "pilot-hi-beta": screen_rows(
        {"b": "docs/results/fairness-060-uml/pilot-hi-beta-30s/screen_runs.csv"}, [
            ([label, s], {"src": "b", "config": cfg, "scenario": s})
            for s in ("b0.1", "b0.2")
            for cfg, label in (("b100", "10 % (default)"), ("b50", "5 %"), ("b30", "3 %"))]),
    "pilot-pkts-scale": pkts_pilot("pilot-pkts-scale", "threshold", (
        ("t0", "none (0.7.0)"), ("t5", "5 ms (pkts_scale=1)"), ("t10", "10 ms"),
        ("t15", "15 ms"), ("t20", "20 ms"), ("t30", "30 ms"))),
    "pilot-pkts-scale2": pkts_pilot("pilot-pkts-scale2", "shrink", (
        ("v091", "none (0.9.1)"), ("p2t10", "(10 ms / q)^2"), ("p2t15", "(15 ms / q)^2"),
        ("p2t20", "(20 ms / q)^2"))),
    "pilot-pace": Table(PACE_SRC, ["scenario", "config"], [
        ([where, PACE_CFG[cfg]], {"src": src, "config": cfg, "scenario": sc})
        for sc, where in PACE_SCEN for src, cfg in PACE_PICKS
        if sc in ("b0.1", "b0.2") or src == "g5"], [
        *own_kind_cols()], seed_notes=False),
    "pilot-shallow": Table(HI_SHALLOW_SRC, ["scenario", "config"], [
        ([where, HI_SHALLOW_CFG[cfg]], {"src": src, "config": cfg, "scenario": sc})
        for sc, where in PACE_SCEN
        for src, cfg in (("o2", "def"), ("g5", "f30"), ("s", "sh7"), ("s", "sh9"))
        if src != "o2" or sc in ("b0.1", "b0.2")], [
        *own_kind_cols()], seed_notes=False),
    "pilot-shallow-cubic": cubic_pilot(
        {"p5": f"{COEX}/pilot-pace-200s/cubic-0105/screen_runs.csv",
         "s": f"{COEX}/pilot-shallow-200s/cubic/screen_runs.csv",
         "d": f"{COEX}/pilot-shallow-200s/deep/screen_runs.csv"}, [
            ([grid_label(sc), label],
             {"src": src, "config": cfg, "scenario": sc})
            for sc in GRID_POINTS
            for src, cfg, label in (("g", "v090", V090),
                                    ("p5", "f30", HI_SHALLOW_CFG["f30"]),
                                    ("s", "sh7", HI_SHALLOW_CFG["sh7"]),
                                    ("d", "sh7", HI_SHALLOW_CFG["sh7"]),
                                    ("s", "sh9", HI_SHALLOW_CFG["sh9"]))
            if (src in ("s", "p5") and not deep(sc)) or src == "g"
            or (src == "d" and deep(sc))]),
    "pilot-shallow-below": Table(
        {"r": f"{COEX}/pilot-shallow-200s/shallow/screen_runs.csv",
         "e": f"{COEX}/pilot-shallow-200s/e10/screen_runs.csv"}, ["point", "bbr_a_fair"], [
            ([where, label], {"src": src, "config": cfg, "scenario": sc})
            for src, sc, where in (("r", "c0.2", "20 ms, 0.2 BDP (4 ms)"),
                                   ("r", "d0.1", "50 ms, 0.1 BDP (5 ms)"),
                                   ("e", "e0.5", "10 ms, 0.5 BDP (5 ms)"),
                                   ("e", "e1", "10 ms, 1 BDP (10 ms)"))
            for cfg, label in (("fair", "the default before 0.11.0 (0.10.11)"), ("sh7", HI_SHALLOW_CFG["sh7"]),
                               ("sh9", HI_SHALLOW_CFG["sh9"]))
            if src == "r" or cfg != "sh9"], [
            *share_cols(),
            Col("utilisation", "utilization"), Col("harm to cubic", "harm", 2),
            Col("cubic's self-harm", "self_harm", 2)], what=COEX_WHAT),
    "pilot-shallow-seeds": Table(
        {"s": f"{COEX}/pilot-shallow-200s/seeds/screen_runs.csv"}, ["point", "bbr_a_fair"], [
            (["20 ms, 0.5 BDP", label], {"src": "s", "config": cfg, "scenario": "c0.5"})
            for cfg, label in (("fair", "the default before 0.11.0 (0.10.11)"),
                               ("sh7", HI_SHALLOW_CFG["sh7"]))], [
            *share_cols(),
            Col("harm to cubic", "harm", 3), Col("worst harm", "harm", 3, extreme="max"),
            Col("cubic's self-harm", "self_harm", 3)], what=COEX_WHAT),
    "pilot-shallow-more": Table(
        {**MORE200, "p": f"{COEX}/pilot-shallow-200s/more/screen_runs.csv"},
        ["flows, RTT (bbr_a_fair / cubic)", "buffer, BDP", "bbr_a_fair"], [
            ([where, b, label], {"src": src, "config": cfg, "scenario": f"{p}{b}"})
            for p, where in (("x", "1 / 1, 10 / 50 ms"), ("y", "1 / 1, 50 / 10 ms"),
                             ("f", "1 / 4, 20 ms"))
            for b in ("0.5", "2", "20")
            for src, cfg, label in (("m", "v090", V090),
                                    ("p", "sh7", HI_SHALLOW_CFG["sh7"]))], [
            *share_cols(),
            Col("harm to cubic (computed)", fn=harm_against(MORE200["m"], "incumbent_mbps")),
            Col("bar: cubic's self-harm + 0.1", fn=bar_against(MORE200["m"]))],
        what=computed_what("more-200s", "the cubic flows'")),
    "pilot-shallow-wide": Table(
        {**WIDE_SRC, "n": f"{WIDE}/pilot-shallow/wide-60s/screen_runs.csv",
         "k": f"{WIDE}/pilot-shallow/flows-40s/screen_runs.csv"}, ["scenario", "config"], [
            ([label, name], {"src": s, "config": c, "scenario": sc})
            for src, sc, label, _ in WIDE_SCEN if src in ("r", "f") and sc != "m50-b2"
            for s, c, name in ((src, "v091", "0.9.1 (the defaults' algorithm before 0.11.0)"),
                               ("k" if src == "f" else "n", "v0110", "0.11.0"))], [
            *own_kind_cols()], seed_notes=False),
    "pilot-shallow-bbr": Table(
        {**MORE200, "b": f"{COEX}/pilot-shallow-200s/vsbbr/screen_runs.csv"},
        ["point", "bbr_a_fair"], [
            ([f"20 ms, {b} BDP", name], {"src": s, "config": c, "scenario": f"c{b}"})
            for b in ("0.5", "2", "20")
            for s, c, name in (("m", "fairb090", V090),
                               ("b", "fairb0110", "0.11.0"))], [
            *share_cols(),
            Col("harm to bbr (computed)", fn=harm_against(MORE200["m"], "incumbent_mbps"))],
        what=computed_what("more-200s", "bbr's", "bbr", bar=False)),
    "pilot-probe-rtt-own": Table(
        {"o": f"{PR}/own-30s/screen_runs.csv", "q": f"{PR}/own250-30s/screen_runs.csv"},
        ["scenario", "config"], [
            ([where, PR_CFG[cfg]], {"src": src, "config": cfg, "scenario": sc})
            for sc, where in PACE_SCEN
            for src, cfg in (("o", "v0121"), ("o", "pr500"), ("q", "pr250"))], [
        *own_kind_cols()], seed_notes=False),
    "pilot-probe-rtt-cubic": cubic_pilot(
        {**K12, "p": f"{PR_COEX}/cubic/screen_runs.csv", **Q250}, [
            ([grid_label(sc), PR_CFG[cfg]],
             {"src": by_depth(*srcs, sc), "config": cfg, "scenario": sc})
            for sc in GRID_POINTS
            for srcs, cfg in ((("k6", "k7"), "slow12"), (("p", "p"), "pr500"),
                              (("q", "q2"), "pr250"))]),
    "pilot-probe-rtt-rates": Table(
        {"h": f"{PR}/rate200-30s/screen_runs.csv", "g": f"{PR}/rate1000-30s/screen_runs.csv"},
        ["scenario", "config"], [
            ([where, PR_CFG[cfg]], {"src": src, "config": cfg, "scenario": sc})
            for src, sc, where in (("h", "b2", "10 vs 50 ms, 200 Mbit/s, 2 BDP"),
                                   ("g", "g2", "10 vs 50 ms, 1 Gbit/s, 2 BDP"))
            for cfg in ("def", "pr250")], [
            *own_kind_cols()], seed_notes=False),
    "pilot-probe-rtt-late": Table({"e": f"{PR}/late-60s/eval.csv"}, ["newcomer", "config"], [
        ([who, PR_CFG[c]], {"src": "e", "config": c, "scenario": pt})
        for pt, who in LATE_POINTS
        for c in ("def", "pr250")], LATE_COLS, what=LATE_WHAT, seed_notes=False),
    "coexist-aqm": Table(
        {"a": AQM200}, ["queue", "pair"], [
            ([where, label], {"src": "a", "config": c, "scenario": pt})
            for pt, where in AQM_POINTS
            for c, label in (("pr250", "bbr_a_fair 0.13.0 / cubic"),
                             ("def", "bbr_a_fair 0.12.0 / cubic"), ("bbr", "bbr / cubic"),
                             ("cubic2", "cubic / cubic"))], [
            Col("runs", "runs"), Col("first's share %", "share0", 1, 100), Col("Jain", "jain"),
            Col("worst Jain", "jain", extreme="min"), Col("harm to cubic", "harm", 2),
            Col("bar: cubic's self-harm + 0.1", fn=bar_against(AQM200)),
            Col("retransmitted %", "retrans_rate", 2, 100)],
        what=COEX_WHAT.split(", self-harm")[0] + ", against cubic alone under the same queue "
        "and rate (coexist-aqm-solo.ini), per seed; bar: cubic against cubic there, + 0.1"),
    "m50-stagger": Table(M50S_SRC, ["start", "config"], [
        ([start, label], sel) for start, label, sel in (
            ("over 10 s", "0.13.0", {"src": "s1"}),
            ("over 10 s", "0.13.0, competitor test off (fair_compete_us=0)", {"src": "s2"}),
            ("over 10 s", "0.13.3, PROBE_RTT paced at its share (fair_probe_rtt_pace=1)",
             {"src": "s4"}),
            ("over 10 s", "bbr", {"src": "s3"}),
            ("together", "0.13.3 (0.13.0's algorithm)", {"src": "t", "config": "v0133"}),
            ("together", "0.13.3, PROBE_RTT paced at its share (fair_probe_rtt_pace=1)",
             {"src": "t", "config": "pace1"}),
            ("together, seed 1", "0.12.0, competitor test off (fair_compete_us=0)",
             {"src": "d3", "config": "nocomp12"}),
            ("together, seed 1", "bbr", {"src": "d3", "config": "bbr"}))], [
        *own_kind_cols()], seed_notes=False,
        what="10 vs 60 ms, fifty flows per class, 100 Mbit/s, 2 BDP (120 ms of the longer "
             "RTT), 90 s measured from 30 s; one run (seed 1) or the mean +- 95 % CI "
             "half-width over the seeds"),
    "m50-stagger-dips": Table(
        {"x1": f"{M50S}/dips-bbr_a_fair.csv", "x4": f"{M50S}/dips-pace.csv",
         "xt": f"{M50S}/dips-together.csv"}, ["start", "config"], [
            (["over 10 s", "0.13.0"], {"src": "x1"}),
            (["over 10 s", "0.13.3, PROBE_RTT paced at its share (fair_probe_rtt_pace=1)"],
             {"src": "x4"}),
            (["together", "0.13.3 (0.13.0's algorithm)"], {"src": "xt", "config": "v0133"}),
            (["together", "0.13.3, PROBE_RTT paced at its share (fair_probe_rtt_pace=1)"],
             {"src": "xt", "config": "pace1"})], [
            *dip_cols()],
        what="each PROBE_RTT of the hundred flows in the gain traces of m50-stagger's runs "
             "(testbed/analyze.py --trace-dips, of the run directory or the screen): the queue "
             "a dip left is its lowest RTT sample above the path's RTT (the flow's class's)",
        seed_notes=False, unit="PROBE_RTTs"),
    "pilot-aqm-own": Table(
        {"q": f"{PR}/own250-30s/screen_runs.csv",
         "r": f"{COEX}/pilot-aqm-200s/own-rtt0/screen_runs.csv",
         "h": f"{COEX}/pilot-aqm-200s/own-hr/screen_runs.csv"},
        ["scenario", "bbr_a_fair 0.13.0"], [
            ([where, label], {"src": src, "config": cfg, "scenario": sc})
            for sc, where in PACE_SCEN
            for src, cfg, label in (
                ("q", "pr250", "defaults (the bound's law at 15 ms for every flow)"),
                ("r", "rtt0", "the law at the flow's own RTT (fair_hi_rtt_us=0)"),
                ("h", "hr20", "the law at 20 ms for every flow (fair_hi_rtt_us=20000)"),
                ("h", "hr25", "the law at 25 ms for every flow (fair_hi_rtt_us=25000)"))], [
        *own_kind_cols()], seed_notes=False),
    "pilot-aqm-cubic": cubic_pilot(
        {"q": Q250["q"], "h": f"{COEX}/pilot-aqm-200s/cubic-hr/screen_runs.csv"}, [
            ([grid_label(sc), label], {"src": src, "config": cfg, "scenario": sc})
            for sc in ("c0.5", "c1", "d0.5", "d1")
            for src, cfg, label in (("q", "pr250", "defaults (the law at 15 ms)"),
                                    ("h", "hr20", "the law at 20 ms (fair_hi_rtt_us=20000)"),
                                    ("h", "hr25", "the law at 25 ms (fair_hi_rtt_us=25000)"))],
        [WORST_RETX]),
    "pilot-hr25-own": Table(
        {"m2": f"{PR}/m10-250-90s/screen_runs.csv", "w2": f"{PR}/wide250-60s/screen_runs.csv",
         "m": f"{HR25}/m10-90s/screen_runs.csv", "w": f"{HR25}/wide-60s/screen_runs.csv"},
        ["scenario", "bbr_a_fair 0.13.0"], [
            ([where, label], {"src": src + two, "config": cfg, "scenario": sc})
            for src, sc, where in (
                ("m", "m10-b2", "10 flows per class, 10 vs 60 ms, 2 BDP, 90 s from 30 s"),
                *(("w", sc, f"{label}, 60 s") for r, sc, label, _ in WIDE_SCEN if r == "r"))
            for two, cfg, label in (("2", "pr250", "defaults (the law at 15 ms)"),
                                    ("", "hr25", HR25_LABEL))], [
        *own_kind_cols(), Col("worst queue ms", "qdelay_mean_ms", 1, extreme="max")],
        seed_notes=False),
    "pilot-hr25-cubic": cubic_pilot(
        {**Q250, "h": f"{HR25}/deep-200s/screen_runs.csv"}, [
            ([grid_label(sc), label], {"src": src, "config": cfg, "scenario": sc})
            for sc in GRID_POINTS if sc not in ("c0.5", "c1", "d0.5", "d1")
            for src, cfg, label in (("q2", "pr250", "defaults (the law at 15 ms)"),
                                    ("h", "hr25", HR25_LABEL))], [WORST_RETX]),
    "pilot-hr25-more": Table(
        {**MORE200, "q": f"{PR_COEX}/more250/screen_runs.csv",
         "h": f"{HR25}/more-200s/screen_runs.csv"},
        ["flows, RTT (bbr_a_fair / cubic)", "buffer, BDP", "bbr_a_fair"], [
            ([where, b, label], {"src": src, "config": cfg, "scenario": f"{p}{b}"})
            for p, where in (("x", "1 / 1, 10 / 50 ms"), ("y", "1 / 1, 50 / 10 ms"),
                             ("f", "1 / 4, 20 ms"))
            for b in ("0.5", "2", "20")
            for src, cfg, label in (("q", "pr250", "defaults (the law at 15 ms)"),
                                    ("h", "hr25", HR25_LABEL))], [
            *share_cols(),
            Col("harm to cubic (computed)", fn=harm_against(MORE200["m"], "incumbent_mbps")),
            Col("bar: cubic's self-harm + 0.1", fn=bar_against(MORE200["m"]))],
        what=computed_what("more-200s", "the cubic flows'")),
    "pilot-hr25-bbr": bbr_pilot(
        {"d": f"{BBR_RUNS}/def20/screen_runs.csv", "h": f"{HR25}/bbr-200s/screen_runs.csv"},
        (("d", "def0130b", "0.13.0 (the law at 15 ms)"), ("h", "hr25b", HR25_LABEL))),
    "bbr-split": Table(
        BBR_SRC, ["point", "first / second"], [
            ([f"{rtt} ms, {b} BDP", BBR_FIRST[c]],
             {"src": src, "config": c, "scenario": f"{p}{b}"})
            for p, rtt, bufs in (("c", 20, ("0.5", "2", "20")), ("d", 50, ("2", "20")))
            for b in bufs
            for src, c in ((f"d{rtt}", "def0130b"), ("m", "mid1b"), ("p", "pkts64b"),
                           ("p", "q10b"), ("d50", "bbr"))
            if (c != "mid1b" or p == "c") and (src != "p" or b == "2")
            and (c != "bbr" or p == "d")], [
            Col("runs", "runs"), Col("first's share %", "share0", 1, 100), Col("Jain", "jain"),
            Col("worst Jain", "jain", extreme="min"),
            Col("queueing delay bbr_a_fair's ACKs saw, ms", "trace_queue0", 1)],
        what="mean +- 95 % CI half-width over the seeds; share: of the two flows' throughput; "
             "queueing delay: rtt - min_rtt of bbr_a_fair's PROBE_BW events in its trace"),
    "bbr-dips": Table(
        {"x20": f"{BBR_RUNS}/dips-def20.csv", "xm": f"{BBR_RUNS}/dips-mid.csv"},
        ["point", "bbr_a_fair"], [
            ([f"20 ms, {b} BDP", label], {"src": src, "config": c, "scenario": f"c{b}"})
            for b in ("0.5", "2", "20")
            for src, c, label in (("x20", "def0130b", "0.13.0"),
                                  ("xm", "mid1b", "an extra dip (fair_compete_mid=1, 0.13.1)"))], [
            Col("runs", fn=lambda dips: str(len({d["seed"] for d in dips}))),
            Col("PROBE_RTTs", fn=dip_count()),
            Col("of them regular (min_rtt's window expired)",
                fn=dip_count(lambda d: d["window_expired"] == "1")),
            Col("left a queue above fair_compete_us (5 ms)",
                fn=dip_count(lambda d: float(d["queue_ms"] or 0) > 5)),
            Col("largest queue left, ms",
                fn=lambda dips: f"{max(float(d['queue_ms'] or 0) for d in dips):.1f}"),
            Col("competitor flag set after it", fn=dip_count(lambda d: d["compete_after"] == "1"))],
        what="each PROBE_RTT of the bbr_a_fair flow in the traces of bbr-split's runs "
             "(testbed/analyze.py --trace-dips): the queue a dip left is the lowest RTT sample "
             "of its trace events (one per round) and of the one that ended it, above the "
             "flow's lowest of the run", seed_notes=False, unit="PROBE_RTTs"),
    "v0150-bounds": Table(
        {"b0": f"{V0150}/bounds-v0130-shallow.csv", "b1": f"{V0150}/bounds-v0130-deep.csv",
         "bh": f"{V0150}/bounds-v0130-hr25.csv", "n": f"{V0150}/bounds-grid.csv",
         "nh": f"{V0150}/bounds-hr25-d1.csv"},
        ["point", "bbr_a_fair"], [
            ([f"{grid_label(sc)}{law}", version], {"src": src, "config": cfg, "scenario": sc})
            for sc, law, old, new in (
                *((sc, "", (by_depth("b0", "b1", sc), "pr250"), ("n", "v0150"))
                  for sc in GRID_POINTS),
                ("d1", ", the law at 25 ms (fair_hi_rtt_us=25000)", ("bh", "hr25"),
                 ("nh", "hr25")))
            for version, (src, cfg) in (("0.13.0", old), ("0.15.0", new))], [
            Col("runs", fn=lambda rows: str(len({r["seed"] for r in rows}))),
            Col("runs with the competitor flagged",
                fn=lambda rows: str(sum(1 for r in rows if float(r["compete_share"]) > 0))),
            Col("highest competing bound, % of the link",
                fn=lambda rows: bound_cell("compete_bound_max_mbps", 100 / float(
                    rows[0]["rate_mbit"]))(rows)),
            Col("highest bound with no competitor, % of the link",
                fn=lambda rows: bound_cell("bound_max_mbps", 100 / float(
                    rows[0]["rate_mbit"]))([r for r in rows
                                            if float(r["compete_share"]) == 0])),
            Col("highest cwnd, packets", fn=bound_cell("cwnd_max"))],
        what="the bbr_a_fair flow's gain trace in each run (testbed/analyze.py "
             "--trace-bounds), over the whole run: the loss-learned bound's highest value "
             "while the competitor flag was set (the flow then paces at and sizes cwnd by "
             "it) and, in runs never flagged, its highest value (it then only caps a lower "
             "bw); 0.13.0's runs are those of readme-coexistence's data before 0.15.0 "
             "(0.12.1 with fair_probe_rtt_pm=250) and pilot-aqm-cubic's hr25",
        seed_notes=False, unit="traced flows"),
    **release_tables("v0150", (V0130_RUNS, V0150_RUNS), extra=(
        ("d1", ", the law at 25 ms (fair_hi_rtt_us=25000)",
         {"0.13.0": (f"{COEX}/pilot-aqm-200s/cubic-hr/screen_runs.csv", "hr25"),
          "0.15.0": (V0150_SRC["vh"], "hr25")}),)),
    **release_tables("hr20", (V0150_RUNS, HR20_RUNS)),
    "hr20-y-flag": Table(
        {"b0": f"{V0150}/bounds-more.csv", "b1": f"{HR20_DIR}/bounds-more.csv",
         "m0": V0150_RUNS[1]["more"][0], "m1": HR20_RUNS[1]["more"][0]},
        ["bbr_a_fair", "seed"], [
            ([version, str(seed)], {"src": f"b{i}", "config": cfg, "scenario": "y0.5",
                                    "seed": str(seed)})
            for i, (version, cfg) in enumerate((("0.15.0", "v0150"),
                                                ("0.15.1 (the law at 20 ms)", "hr20")))
            for seed in range(1, 6)], [
            Col("of its trace events with the competitor flagged %",
                fn=lambda rows: f"{100 * float(rows[0]['compete_share']):.0f}"),
            Col("its share %, 0.15.0's runs", "share0", 1, 100, ci=False, src="m0"),
            Col("its share %, 0.15.1's runs", "share0", 1, 100, ci=False, src="m1")],
        what="one bbr_a_fair flow of 50 ms against one cubic flow of 10 ms, 0.5 BDP, per "
             "seed: the share of the flow's gain-trace events (one per round, the whole run) "
             "with the competitor flag set (testbed/analyze.py --trace-bounds), and its share "
             "of the throughput in the run (hr20-more's runs)", seed_notes=False,
        unit="rows"),
    "pilot-aqm": Table(
        {"p": f"{COEX}/pilot-aqm-200s/screen_runs.csv",
         "q": f"{COEX}/pilot-aqm-200s/law-rtt/screen_runs.csv",
         "h": f"{COEX}/pilot-aqm-200s/law-hr/screen_runs.csv"}, ["queue", "bbr_a_fair 0.13.0"], [
            ([where, label], {"src": src, "config": c, "scenario": pt})
            for pt, where in AQM_POINTS if pt in ("red", "codel", "step-codel")
            for src, c, label in (
                ("p", "v0130", "defaults"),
                ("p", "sh0", "every cut off the rate (fair_hi_shallow_us=0)"),
                ("p", "c2ms", "the same, competitor above 2 ms (fair_compete_us=2000)"),
                ("p", "b300", "the same, cut by 30 % (fair_hi_beta_pm=300)"),
                ("p", "phi0", "b300, every recovery a congestion loss (fair_hi_phi_pm=0)"),
                ("q", "rtt0", "the bound regrows at the flow's own RTT (fair_hi_rtt_us=0)"),
                ("q", "rtt0phi0", "rtt0, every recovery a congestion loss "
                                  "(fair_hi_phi_pm=0)"),
                ("q", "rtt0b300", "rtt0phi0, cut by 30 % (fair_hi_beta_pm=300)"),
                ("h", "hr20", "the law at 20 ms for every flow (fair_hi_rtt_us=20000)"),
                ("h", "hr25", "the law at 25 ms for every flow (fair_hi_rtt_us=25000)"))
            if pt != "step-codel" or c in ("v0130", "sh0")], [
            *share_cols(),
            Col("harm to cubic (computed)", fn=harm_against(AQM200)),
            Col("bar: cubic's self-harm + 0.1", fn=bar_against(AQM200))],
        what=computed_what("aqm-200s")),
    "coexist-short-flows": Table(
        {"e": f"{COEX}/short-flows-40s/eval.csv"}, ["point", "large flow / short flows"], [
            ([f"20 Mbit/s, {b} BDP", label], {"src": "e", "config": c, "scenario": f"r20-b{b}"})
            for b in ("0.5", "1", "2", "8")
            for c, label in (("cubic", "cubic / cubic"), ("pr250", "bbr_a_fair 0.13.0 / cubic"),
                             ("def", "bbr_a_fair 0.12.0 / cubic"), ("bbr", "bbr / cubic"))], [
            Col("runs", "runs"), Col("short flows done", "fct_all_n", 1),
            Col("100 KB p95 ms", "fct_100000_p95_ms", 0),
            Col("1 MB p95 ms", "fct_1000000_p95_ms", 0),
            Col("2 MB p95 ms", "fct_2000000_p95_ms", 0),
            Col("30 MB flow Mbit/s", fn=finished_mean("finite_flow1_mbps"))],
        what="mean +- 95 % CI half-width over the seeds of each run's 95th percentile (p95) "
             "completion time per size of the short flows; the 30 MB flow's rate while it "
             "ran, over the runs in which it finished"),
    "pilot-probe-rtt-many": Table(
        {"m": f"{PR}/m10-90s/screen_runs.csv", "w": f"{PR}/wide-60s/screen_runs.csv",
         "m2": f"{PR}/m10-250-90s/screen_runs.csv", "w2": f"{PR}/wide250-60s/screen_runs.csv"},
        ["scenario", "config"], [
            ([where, PR_CFG[cfg]], {"src": src + ("2" if cfg == "pr250" else ""), "config": cfg,
                                    "scenario": sc})
            for src, sc, where in (
                ("m", "m10-b2", "10 flows per class, 10 vs 60 ms, 2 BDP, 90 s from 30 s"),
                *(("w", sc, f"{label}, 60 s") for r, sc, label, _ in WIDE_SCEN if r == "r"))
            for cfg in ("v0121", "pr500", "pr250")], [
        *own_kind_cols(), Col("worst queue ms", "qdelay_mean_ms", 1, extreme="max")],
        seed_notes=False),
    "pilot-probe-rtt-more": Table(
        {**MORE200, "k6": f"{SLOW_COEX}/slow12/screen_runs.csv",
         "k8": f"{SLOW_COEX}/slow12-more/screen_runs.csv",
         "p": f"{PR_COEX}/more/screen_runs.csv", "q": f"{PR_COEX}/more250/screen_runs.csv"},
        ["flows, RTT (bbr_a_fair / cubic)", "buffer, BDP", "bbr_a_fair"], [
            ([where, b, PR_CFG[cfg]],
             {"src": src if src in ("p", "q") else ("k6" if p == "f" else "k8"),
              "config": cfg, "scenario": f"{p}{b}"})
            for p, where in (("x", "1 / 1, 10 / 50 ms"), ("y", "1 / 1, 50 / 10 ms"),
                             ("f", "1 / 4, 20 ms"))
            for b in ("0.5", "2", "20")
            for src, cfg in (("k", "slow12"), ("p", "pr500"), ("q", "pr250"))], [
            *share_cols(),
            Col("harm to cubic (computed)", fn=harm_against(MORE200["m"], "incumbent_mbps")),
            Col("bar: cubic's self-harm + 0.1", fn=bar_against(MORE200["m"]))],
        what=computed_what("more-200s", "the cubic flows'")),
    "pilot-probe-rtt-bbr": bbr_pilot(
        {"k9": f"{SLOW_COEX}/slow12-vsbbr/screen_runs.csv",
         "p": f"{PR_COEX}/bbr/screen_runs.csv", "q": f"{PR_COEX}/bbr250/screen_runs.csv"},
        tuple((s, c, PR_CFG[n]) for s, c, n in (("k9", "slow12b", "slow12"),
                                                ("p", "pr500b", "pr500"),
                                                ("q", "pr250b", "pr250")))),
    "rate50-cubic": Table(
        {"h": f"{COEX}/rate50-200s/screen_runs.csv"}, ["point", "bbr_a_fair"], [
            ([f"20 ms, 50 Mbit/s, {b} BDP", name], {"src": "h", "config": c, "scenario": f"h{b}"})
            for b in ("0.5", "1", "5", "20")
            for c, name in (("v0113", SLOW_CFG["v0113"]),
                            ("slow12", "average for a slow flow, packets by rate, 12 ms "
                                       "(0.11.3; 0.12.0's defaults)"),
                            ("pr250", PR_CFG["pr250"]))], [
            *share_cols(),
            Col("harm to cubic", fn=harm_against(f"{COEX}/rate50-200s/screen_runs.csv")),
            Col("bar: cubic's self-harm + 0.1",
                fn=bar_against(f"{COEX}/rate50-200s/screen_runs.csv"))],
        what=COEX_WHAT.split(", self-harm")[0]
        + "; bar: cubic's self-harm (cubic against cubic) at the point, + 0.1"),
    "pilot-slow-bbr": bbr_pilot(
        {"b": f"{COEX}/pilot-shallow-200s/vsbbr/screen_runs.csv",
         "k9": f"{SLOW_COEX}/slow12-vsbbr/screen_runs.csv"},
        (("b", "fairb0110", "0.11.0"), ("k9", "slow12b", SLOW_CFG["slow12"]))),
    "pilot-slow": Table(SLOW_SRC, ["scenario", "config"], [
        ([where, label], {"src": src, "config": cfg,
                          "scenario": "m50-b2" if where.startswith("50") else "m10-b2"})
        for where, runs in (
            ("10 flows per class, 10 vs 60 ms, 2 BDP, 40 s", [
                ("r2", "v0112", SLOW_CFG["v0112"]), ("c1", "avg", SLOW_CFG["avg"]),
                ("c1", "calm1", SLOW_CFG["calm1"]), ("c1", "calm10", SLOW_CFG["calm10"]),
                ("c1", "calm30", SLOW_CFG["calm30"]), ("r2", "rate10", SLOW_CFG["rate10"]),
                ("r2", "rate20", SLOW_CFG["rate20"]), ("r2", "rate40", SLOW_CFG["rate40"]),
                ("r2", "avg", SLOW_CFG["avg2"]), ("r2", "avgr10", SLOW_CFG["avgr10"]),
                ("r2", "avgr20", SLOW_CFG["avgr20"]), ("s3", "slow10", SLOW_CFG["slow10"]),
                ("s3", "slow20", SLOW_CFG["slow20"])]),
            ("10 flows per class, 10 vs 60 ms, 2 BDP, 90 s from 30 s", [
                ("l3", "v0113", SLOW_CFG["v0113"]), ("l3", "slow10", SLOW_CFG["slow10"]),
                ("t3", "slow12", SLOW_CFG["slow12"]), ("l3", "slow15", SLOW_CFG["slow15"])]),
            ("50 flows per class, 10 vs 60 ms, 2 BDP, 90 s from 30 s", [
                ("f3", "v0113", SLOW_CFG["v0113"]), ("f3", "slow10", SLOW_CFG["slow10"]),
                ("d3", "slow12", SLOW_CFG["slow12"] + ", seed 1"),
                ("d3", "nocomp12", "the same, competitor test off (fair_compete_us=0), seed 1"),
                ("d3", "bbr", "bbr, seed 1"), ("d3", "cubic", "cubic, seed 1")]))
        for src, cfg, label in runs], [
        *own_kind_cols()], seed_notes=False),
    "pilot-slow-own": Table(SLOW_SRC, ["scenario", "config"], [
        ([where, SLOW_CFG[cfg]], {"src": src, "config": cfg, "scenario": sc})
        for sc, where in PACE_SCEN
        for src, cfg in (("o3", "v0113"), ("o3", "slow10"), ("p3", "slow12"))], [
        *own_kind_cols()], seed_notes=False),
    "pilot-slow-wide": Table(
        {**SLOW_SRC, "n": f"{WIDE}/pilot-shallow/wide-60s/screen_runs.csv"},
        ["scenario", "config"], [
            ([label, name], {"src": s, "config": c, "scenario": sc})
            for src, sc, label, _ in WIDE_SCEN if src == "r"
            for s, c, name in (("n", "v0110", "0.11.0"), ("w3", "slow10", SLOW_CFG["slow10"]),
                               ("u3", "slow12", SLOW_CFG["slow12"]),
                               ("w3", "slow15", SLOW_CFG["slow15"]))], [
            *own_kind_cols()], seed_notes=False),
    "pilot-slow-rates": Table(SLOW_SRC, ["scenario", "config"], [
        ([where, SLOW_CFG[cfg]], {"src": src, "config": cfg, "scenario": sc})
        for src, sc, where in (("h3", "b2", "10 vs 50 ms, 200 Mbit/s, 2 BDP"),
                               ("g3", "g2", "10 vs 50 ms, 1 Gbit/s, 2 BDP"))
        for cfg in ("v0113", "slow10")], [
        *own_kind_cols()], seed_notes=False),
    "pilot-slow-late": Table(SLOW_SRC, ["newcomer", "config"], [
        ([who, SLOW_CFG[c]], {"src": "e3", "config": c, "scenario": pt})
        for pt, who in LATE_POINTS
        for c in ("v0113", "slow10")], LATE_COLS, what=LATE_WHAT, seed_notes=False),
    "pilot-slow-cubic": cubic_pilot(
        {"k1": f"{SLOW_COEX}/calm/screen_runs.csv", "k2": f"{SLOW_COEX}/rate/screen_runs.csv",
         "k3": f"{SLOW_COEX}/slow/screen_runs.csv", "k4": f"{SLOW_COEX}/slow-deep/screen_runs.csv",
         **K12}, [
            ([grid_label(sc), label],
             {"src": "k7" if src == "k6" and deep(sc) else src,
              "config": cfg, "scenario": sc})
            for sc in GRID_POINTS
            for src, cfg, label in (("g", "v090", V090), ("k2", "v0112", SLOW_CFG["v0112"]),
                                    ("k1", "calm1", SLOW_CFG["calm1"]),
                                    ("k2", "rate10", SLOW_CFG["rate10"]),
                                    ("k2", "avgr10", SLOW_CFG["avgr10"]),
                                    ("k3", "slow10", SLOW_CFG["slow10"]),
                                    ("k4", "slow10", SLOW_CFG["slow10"]),
                                    ("k6", "slow12", SLOW_CFG["slow12"]))
            if src in ("g", "k6") or (src == "k4") == (deep(sc))]),
    "pilot-slow-more": Table(
        {**MORE200, "p": f"{COEX}/pilot-shallow-200s/more/screen_runs.csv",
         "k5": f"{SLOW_COEX}/slow-more/screen_runs.csv",
         "k6": f"{SLOW_COEX}/slow12/screen_runs.csv",
         "k8": f"{SLOW_COEX}/slow12-more/screen_runs.csv"},
        ["flows, RTT (bbr_a_fair / cubic)", "buffer, BDP", "bbr_a_fair"], [
            ([where, b, label], {"src": "k8" if src == "k6" and p != "f" else src,
                                 "config": cfg, "scenario": f"{p}{b}"})
            for p, where in (("x", "1 / 1, 10 / 50 ms"), ("y", "1 / 1, 50 / 10 ms"),
                             ("f", "1 / 4, 20 ms"))
            for b in ("0.5", "2", "20")
            for src, cfg, label in (("p", "sh7", HI_SHALLOW_CFG["sh7"]),
                                    ("k5", "slow10", SLOW_CFG["slow10"]),
                                    ("k6", "slow12", SLOW_CFG["slow12"]))], [
            *share_cols(),
            Col("harm to cubic (computed)", fn=harm_against(MORE200["m"], "incumbent_mbps")),
            Col("bar: cubic's self-harm + 0.1", fn=bar_against(MORE200["m"]))],
        what=computed_what("more-200s", "the cubic flows'")),
    "pilot-drop-cubic": cubic_pilot(
        {"p": f"{COEX}/pilot-drop-200s/deep/screen_runs.csv",
         "q": f"{COEX}/pilot-drop-200s/shallow/screen_runs.csv"}, [
            ([grid_label(sc), label],
             {"src": src if src == "g" else ("q" if float(sc[1:]) <= 2 else "p"),
              "config": cfg, "scenario": sc})
            for sc in GRID_POINTS
            for src, cfg, label in (("g", "v090", V090),
                                    ("p", "drop", "bound dropped at a drained dip"))]),
    "pilot-pace-cubic": cubic_pilot(
        {"p2": f"{COEX}/pilot-pace-200s/cubic-0102/screen_runs.csv",
         "p5": f"{COEX}/pilot-pace-200s/cubic-0105/screen_runs.csv"}, [
            ([where, label], {"src": src, "config": cfg, "scenario": sc})
            for sc, where in (("c0.5", "20 ms, 0.5 BDP"), ("c1", "20 ms, 1 BDP"),
                              ("c2", "20 ms, 2 BDP"), ("d0.5", "50 ms, 0.5 BDP"),
                              ("d1", "50 ms, 1 BDP"), ("d2", "50 ms, 2 BDP"))
            for src, cfg, label in (("g", "v090", V090),
                                    ("p2", "pace0", "cwnd target only (0)"),
                                    ("p5", "f30", "allowance, cut at 30 ms (2)"),
                                    ("p5", "f60", "allowance, cut at 60 ms (2)"))]),
    "pilot-avg": Table(AVG_SRC, ["scenario", "config"], [
        ([where, AVG_CFG[cfg]], {"src": src, "config": cfg, "scenario": sc})
        for sc, where, picks in AVG_ROWS for src, cfg in picks], [
        *own_kind_cols()], seed_notes=False),
    "pkts-scale-own-kind": Table(O60, ["scenario", "config"], [
        ([s, label], {"src": "o", "config": cfg, "scenario": s})
        for s in ("b0.1", "b0.5", "b5", "r20", "r100", "l6-b5")
        for cfg, label in (("bbr_a_fair", "0.6.0"), ("cand", "dips=2, pkts_scale=1"))], [
        Col("runs", "runs"), Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min"),
        Col("retransmitted %", "retrans_rate", 2, 100), Col("queue delay ms", "qdelay_mean_ms", 1)],
        seed_notes=False),
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
    # docs/backends.md, docs/fairness.md, docs/reproduction.md
    "client-receive": Table(CLIENT, ["receiver (tree)", "cc"], [
        ([rcv, cc], sel) for rcv, cc, sel in CLIENT_ROWS],
        [Col("runs", "runs"), Col("Jain", "jain"), Col("utilisation", "utilization")],
        what="the default scenario (10 vs 50 ms, 100 Mbit/s, 5 BDP, 30 s) under each "
             "receiver, mean +- 95 % CI half-width over the seeds", seed_notes=False),
    # docs/fairness.md
    "fairness-explore-60s": Table(EXPLORE60, ["gains", "scenario"], [
        ([name, s], {"src": "e", "config": cfg, "scenario": s})
        for s in ("b0.1", "b0.2", "l6-b1", "l6-b5") for cfg, name in GAIN_NAMES], PHASE_COLS,
        what="60 s runs of bbr_a_fair with three gain rules; cwnd-limited: share of the "
             "flow's PROBE_BW rounds, phi: the flow's mean; mean +- 95 % CI half-width over "
             "the seeds"),
    "fairness-explore-mechanisms": Table(
        {"x": "docs/results/fairness-explore-uml/screen_runs.csv"}, ["config", "scenario"],
        [([c, "b5"], {"src": "x", "config": c, "scenario": "b5"})
         for c in ("bbr_a", "fair-q2-nohold")],
        [Col("Jain", "jain"), Col("queue delay ms", "qdelay_mean_ms", 1)]
        + [Col(f"{f} flow {what} %", f"{m}{i}", 1, 100) for m, what in (
            ("probe", "probe"), ("hold", "hold"), ("drain", "drain"),
            ("cwnd_limited", "cwnd-limited")) for i, f in ((0, "10 ms"), (1, "50 ms"))],
        what="the exploratory screen (2 seeds): shares of each flow's PROBE_BW rounds "
             "from its gain trace, mean +- 95 % CI half-width over the seeds"),
    "fairness-grid-30s-040": Table(GRID30, ["scenario"], [
        ([s], {"src": "g", "scenario": s})
        for s in ("b0.1", "b0.2", "b0.5", "b1", "b5", "b20", "r20", "r100", "l6-b5")],
        [Col(f"Jain {n}", "jain", config=c) for c, n in GRID30_040[:2]]
        + [Col(f"queue ms {n}", "qdelay_mean_ms", 1, config=c) for c, n in GRID30_040]),
    "fairness-shallow-30s": Table(SHALLOW, ["variant", "scenario"], [
        ([name, s], {"src": "s", "config": cfg, "scenario": s})
        for s in ("b0.1", "b0.2", "b5") for cfg, name in SHALLOW_CFG],
        [Col("Jain", "jain"), Col("retransmitted %", "retrans_rate", 2, 100),
         Col("queue delay ms", "qdelay_mean_ms", 1), Col("10 ms flow, Mbit/s", "tput0", 1),
         Col("50 ms flow, Mbit/s", "tput1", 1)]),
    # docs/fairness.md
    "fairness-gains-030-040": Table(GAINS_SRC, ["scenario"], [
        ([s + label], {"src": src, "scenario": s}) for s, src, label in GAINS], _gain_cols(),
        what="bbr_a_fair 0.3.0 (config bbr_a_fair of Figs. 4, 6, 7) and a 0.3.0 build with "
             "fair_gains=2, the gains 0.4.0 made its default (config fair_qphi of "
             "screen-200s), mean +- 95 % CI half-width over the seeds"),
    "fairness-grid-030": screen_rows(
        {"g": "docs/results/fairness-grid-uml/screen_runs.csv"},
        [([cc, s], {"src": "g", "config": cc, "scenario": s}) for cc, s in GRID030]),
    "fairness-rate-flows": screen_rows(RATE_FLOWS, [
        ([label, scen], {"src": src + kind, "config": cc, "scenario": "b5"})
        for kind, scen in (("20", "20 Mbit/s"), ("f3", "3 flows/class"))
        for label, src, cc in (("bbr", "s", "bbr"), ("bbr_a", "s", "bbr_a"),
                               ("bbr_a_fair 0.2.0", "s", "bbr_a_fair"),
                               ("bbr_a_fair 0.3.0", "g", "bbr_a_fair"))]),
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
    "ack-cost": Table({"a": ACK_COST}, ["cc"], [([name], {"src": "a", "row": label})
                                                for label, name in ACK_COST_ROWS], [
        Col("ns per ACK: 10th percentile (min .. median)", text=_ack_cost("ns")),
        Col("ns per ACK less the ACK model's", text=_ack_cost("net")),
        Col("over bbr's [95 % interval]", text=_ack_cost("ratio"))],
        what="the cc's cong_control in a counted loop of made-up ACKs (one bulk flow, "
             "100 Mbit/s, 20 ms, a bound in force), in a UML guest on the host's clock; "
             "tcp_bbr_a.ko and the kernel's tcp_bbr.c (as a module) built alike, -O2; "
             "each run 20 000 ACKs, the ccs' runs interleaved; the 10th percentile of the "
             "runs' ns per ACK, less the ACK model's alone; interval: bootstrap over the "
             "runs; scripts/bench_ack.sh, analyze.py --ack-cost", seed_notes=False,
        unit="timed runs"),
    # docs/results.md
    "results-convergence": Table(
        {"f": f"{COEX}/convergence-v0250/windows.csv",
         "w": f"{COEX}/convergence-v0230/windows.csv"}, ["flow", "path"], [
            ([label, slabel], {"src": src, "config": cfg, "scenario": sc, "part": part})
            for sc, slabel in CONV_SCEN
            for cfg, src, part, label in (("fair", "f", "1", "bbr_a_fair, against cubic"),
                                          ("cubic2", "w", "2", "the second of two cubic flows"))],
        [Col(f"{t0}..{t0 + 30} s", "share", 2, t0_s=f"{float(t0)}") for t0 in range(0, 300, 30)],
        what="the flow's share of the two flows' throughput in each 30 s window, mean +- 95 % "
             "CI half-width over the seeds; both flows start together; 100 Mbit/s, a buffer of "
             "20 BDP, 300 s", seed_notes=False, unit="flow windows"),
    # docs/notebook/coexistence.md
    "coexist-convergence": windows_table(f"{COEX}/convergence-300s/windows.csv", CONV_PAIRS,
                                         CONV_SCEN, range(0, 300, 30), 30),
    "fairness-readings": screen_rows(
        {"s": "docs/results/fairness-screen-uml/screen_runs.csv"},
        [([cc, "b5"], {"src": "s", "config": cc, "scenario": "b5"}) for cc in READINGS]),
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


def aqm_cols():
    """Per rate phase (10, 20, 10 Mbit/s): the bottleneck's queueing delay, the flow's
    smoothed RTT and its throughput."""
    cols = [Col("runs", "runs")]
    for what, key, digits in (("queue ms", "qdelay_mean_ms", 1), ("sRTT ms", "srtt_ms", 1),
                              ("Mbit/s", "tput_mbps", 2)):
        cols += [Col(f"{what}, {ph}", f"ph{i}_{key}", digits)
                 for i, ph in ((1, "10"), (2, "20"), (3, "10 again"))]
    return cols


EVAL_BLOCKS = {
    # docs/evaluations.md
    "eval-fct": Table({"e": f"{EV}/fct/eval.csv"}, ["cc (every flow)", "point"], [
        ([cc, "20 Mbit/s, 1 BDP"], {"src": "e", "config": cc, "scenario": "r20-b1"})
        for cc in EV_CCS], [
        Col("runs", "runs"), Col("100 KB p50 ms", "fct_100000_p50_ms", 0),
        Col("100 KB p95 ms", "fct_100000_p95_ms", 0), Col("1 MB p50 ms", "fct_1000000_p50_ms", 0),
        Col("2 MB p50 ms", "fct_2000000_p50_ms", 0), Col("short flows done", "fct_all_n", 1),
        Col("30 MB flow FCT s", "finite_30000000_fct_s", 2),
        Col("30 MB flow Mbit/s", "finite_flow1_mbps", 2)],
        what=EV_WHAT + " of each run's median (p50) or 95th percentile (p95) completion time "
             "per size"),
    "eval-fct-grid": Table({"e": f"{EV}/fct-grid/eval.csv"}, ["point", "cc (every flow)"], [
        ([where, cc], {"src": "e", "config": cc, "scenario": pt})
        for pt, where in (("r20-b0.5", "20 Mbit/s, 0.5 BDP"), ("r20-b1", "20 Mbit/s, 1 BDP"),
                          ("r20-b2", "20 Mbit/s, 2 BDP"), ("r20-b8", "20 Mbit/s, 8 BDP"),
                          ("r5-b1", "5 Mbit/s, 1 BDP"), ("r70-b1", "70 Mbit/s, 1 BDP"))
        for cc in EV_CCS], [
        Col("runs", "runs"), Col("100 KB p50 ms", "fct_100000_p50_ms", 0),
        Col("100 KB p95 ms", "fct_100000_p95_ms", 0), Col("1 MB p50 ms", "fct_1000000_p50_ms", 0),
        Col("2 MB p50 ms", "fct_2000000_p50_ms", 0), Col("short flows done", "fct_all_n", 1),
        Col("30 MB flow FCT s", "finite_30000000_fct_s", 2)],
        what=EV_WHAT + " of each run's median (p50) or 95th percentile (p95) completion time "
             "per size"),
    "eval-aqm": Table({"e": f"{EV}/aqm/eval.csv"}, ["qdisc", "cc"], [
        ([q, cc], {"src": "e", "config": cc, "scenario": q})
        for q in ("bfifo", "red", "codel", "fq_codel") for cc in EV_CCS], aqm_cols(),
        what=EV_WHAT + "; per phase of the rate schedule (Mbit/s), the first second of each "
             "left out"),
    "eval-loss": Table({"e": f"{EV}/loss-60s/eval.csv"}, ["random loss %"], [
        ([s[1:]], {"src": "e", "scenario": s}) for s in EV_LOSS], [
        c for cc in EV_LOSS_CCS for c in (
            Col(cc, "utilization", config=cc),
            Col(f"{cc} worst", "utilization", extreme="min", config=cc))],
        what="utilisation (goodput over the rate; ceiling (1 - loss) x 0.956), " + EV_WHAT
             + ", and the worst seed's"),
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
    "eval-nup": Table({"e4": f"{EV}/nup/eval.csv", "e8": f"{EV}/nup-8/eval.csv",
                       "e16": f"{EV}/nup-16/eval.csv"}, ["streams", "cc (every stream)"], [
        ([str(n), cc], {"src": f"e{n}", "config": cc, "scenario": "flent-tcp-nup"})
        for n in (4, 8, 16) for cc in EV_LOSS_CCS], [
        Col("runs", "runs"), Col("Jain", "jain"),
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
STRESS_RUNS = [("sanitize-0241", "short form, sanitizer kernel")]


def _field(fmt):
    """A cell of the stress block: fmt filled with the fields of its one run."""
    return lambda rs: fmt.format(**rs[0]) if len(rs) == 1 else "-"


STRESS_BLOCKS = {
    # README.md
    "stress-runs": Table(STRESS, ["run"], [([label], {"src": "s", "run": run})
                                           for run, label in STRESS_RUNS], [
        Col("sanitizers", fn=_field("{sanitizers}")),
        Col("cases (failed)", fn=_field("{cases} ({cases_failed})")),
        Col("flows (failed)", fn=_field("{flows} ({flows_failed})")),
        Col("bytes delivered intact", fn=_field("{bytes}")),
        Col("findings", fn=_field("{findings}")),
        Col("kmemleak suspects, no module frame", fn=_field("{kmemleak_other}")),
        Col("unload", fn=_field("{unload}"))],
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

# Fifty flows per class: PROBE_RTT on the host's grid, budgets by rate and a floor of two
# packets (0.15.2 .. 0.15.5, options), and those three at the points of two flows.
MANY = f"{WIDE}/m50-many"
MANY_SRC = {v: f"{MANY}/{v}/screen_runs.csv" for v in ("v0152", "v0153", "v0154", "v0155")}
MANY_SRC.update({"s": f"{MANY}/stagger/screen_runs.csv", "o": f"{MANY}/own-30s/screen_runs.csv",
                 "k": f"{MANY}/cubic/screen_runs.csv",
                 "s160": f"{MANY}/stagger-v0160/screen_runs.csv",
                 "sall": f"{MANY}/all-v0163/stagger/screen_runs.csv",
                 "savg": f"{AVG1_DIR}/stagger/screen_runs.csv",
                 "savg3": f"{AVG3_DIR}/stagger/screen_runs.csv",
                 "scrtt": f"{CRTT_DIR}/stagger/screen_runs.csv"})
MANY_OPTS = "fair_probe_rtt_sync=1 fair_slow_budget=1 fair_probe_rtt_min=2"
MANY_LABEL = f"0.15.5, the three options ({MANY_OPTS})"
MANY_LABEL_160 = "0.16.0 (dips measured against a path RTT no retransmission set), the three options"
MANY_R10 = "0.15.5, the three options, allowance by rate at 10 ms (fair_pkts_rate_us=10000)"
MANY_ROWS = (
    ("50 per class, together", [
        ("v0155", "v0155", "0.15.5"),
        ("v0152", "v0152", "0.15.2, seed 1"),
        ("v0152", "sync1", "0.15.2, dips on the grid (fair_probe_rtt_sync=1), seed 1"),
        ("v0152", "sync1nc", "0.15.2, dips on the grid, competitor test off "
                             "(fair_compete_us=0), seed 1"),
        ("v0153", "v0153", "0.15.3, seed 1"),
        ("v0153", "slow1", "0.15.3, no budgets for a slow flow (fair_slow_budget=1), seed 1"),
        ("v0153", "sync1slow1", "0.15.3, dips on the grid, no budgets for a slow flow, seed 1"),
        ("v0154", "floor2", "0.15.4, dips on the grid, no budgets for a slow flow, "
                            "PROBE_RTT at 2 packets (fair_probe_rtt_min=2)"),
        ("v0154", "floor2r8", "0.15.4, the same, allowance by rate at 8 ms "
                              "(fair_pkts_rate_us=8000)"),
        ("v0154", "floor2scale", "0.15.4, the same, allowance shrinking past 5 ms of queue "
                                 "(fair_pkts_scale=1)"),
        ("v0154", "floor2s20", "0.15.4, the same, past 20 ms (fair_pkts_scale_us=20000)"),
        ("v0154", "floor2s30", "0.15.4, the same, past 30 ms (fair_pkts_scale_us=30000)"),
        ("v0155", "many", MANY_LABEL), ("v0155", "manyr10", MANY_R10)]),
    ("50 per class, 0.1 s apart", [("s", "v0155", "0.15.5"), ("s", "many", MANY_LABEL),
                                   ("s160", "many", MANY_LABEL_160),
                                   ("sall", "manyall", ALL_RUNS[0]),
                                   ("savg", "allavg1", AVG1_LABEL),
                                   ("savg3", "avg3", AVG3_LABEL),
                                   ("scrtt", "q10", CRTT_LABEL)]),
    ("10 per class, together", [("v0155", "v0155", "0.15.5"), ("v0155", "many", MANY_LABEL),
                                ("v0155", "manyr10", MANY_R10)]))
MANY_SCEN = {"50 per class, together": "m50-b2", "50 per class, 0.1 s apart": "m50-stagger",
             "10 per class, together": "m10-b2"}
MANY_DIPS = (("v0152", "v0152", "0.15.2"), ("v0152", "sync1", "0.15.2, dips on the grid"),
             ("v0154", "floor2", "0.15.4, dips on the grid, no budgets for a slow flow, "
                                 "PROBE_RTT at 2 packets"),
             ("v0155", "many", MANY_LABEL))

PM750 = "fair_probe_rtt_pm=750"
PM_LABEL2 = f"the three options, {PM750} shrinking with a slow flow's rate"
PM_M50 = (("v", "many", MANY_LABEL),
          ("p1", "many750", f"0.16.1, the three options, {PM750} for every flow"),
          ("p2", "many750", f"0.16.2, {PM_LABEL2}"),
          ("p2", "manyr10p750", "0.16.2, the same, allowance by rate at 10 ms "
                                "(fair_pkts_rate_us=10000)"),
          ("p3", "many", "0.16.3 (with the grid a lower min_rtt keeps the filter's stamp), "
                         "the three options"),
          ("p3", "many750", f"0.16.3, {PM_LABEL2}"),
          ("p3", "manyr10", "0.16.3, the three options, allowance by rate at 10 ms "
                            "(fair_pkts_rate_us=10000)"),
          ("p3", "manyr10p750", f"0.16.3, {PM_LABEL2}, allowance by rate at 10 ms"),
          ("p3", "manyd3", "0.16.3, the three options, three dips in a row to flag a "
                           "competitor (fair_compete_dips=3)"),
          ("p3", "manyr10d3", "0.16.3, the three options, allowance by rate at 10 ms, three "
                              "dips to flag a competitor"),
          ("p3", "manyr10p750d3", f"0.16.3, {PM_LABEL2}, allowance by rate at 10 ms, three "
                                  "dips to flag a competitor"))
PM_M10 = (("v", "many", MANY_LABEL), ("p2", "many750", f"0.16.2, {PM_LABEL2}"))
PM_SEEDS = (("many", "the three options"), ("many750", f"the three options, {PM750}"),
            ("manyr10", "the three options, fair_pkts_rate_us=10000"),
            ("manyr10p750", f"the three options, fair_pkts_rate_us=10000, {PM750}"),
            ("manyd3", "the three options, three dips to flag a competitor "
                       "(fair_compete_dips=3)"),
            ("manyr10d3", "the three options, fair_pkts_rate_us=10000, "
                          "fair_compete_dips=3"),
            ("manyr10p750d3", f"the three options, fair_pkts_rate_us=10000, {PM750}, "
                              "fair_compete_dips=3"))
ALL_LABEL = ("0.16.3, every many-flow option (the three, fair_pkts_rate_us=10000, "
             "fair_probe_rtt_pm=750, fair_compete_dips=3)")
MANY_VS_CUBIC = (("h", "hr20", HR20_LABEL),
                 ("k", "many", MANY_LABEL), ("a", "manyall", ALL_LABEL))
PM_OWN = (("h", "hr20", HR20_LABEL),
          ("o", "many", MANY_LABEL),
          ("q3", "many750", f"0.16.3, {PM_LABEL2}"),
          ("q3", "manyr10p750", "0.16.3, the same, allowance by rate at 10 ms "
                                "(fair_pkts_rate_us=10000)"))


def stuck_flags(dips):
    """The (seed, flow)s of a dips file's rows whose competitor flag was still set after
    two dips in a row that came within 1 ms of the path's RTT (two drained dips clear it:
    fair_compete_clear_dips)."""
    run = collections.Counter()
    stuck = set()
    for d in sorted(dips, key=lambda d: (d.get("seed"), int(d["flow"]), float(d["start_s"]))):
        key = (d.get("seed"), d["flow"])
        drained = d["lowest_rtt_ms"] != "" and float(d["lowest_rtt_ms"]) - float(d["rtt_ms"]) < 1
        run[key] = run[key] + 1 if drained else 0
        if run[key] >= 2 and d["compete_after"] == "1":
            stuck.add(key)
    return stuck


MANY_BLOCKS = {
    "m50-many": Table({k: v for k, v in MANY_SRC.items() if k not in ("o", "k")},
                      ["flows", "config"], [
        ([flows, label], {"src": src, "config": cfg, "scenario": MANY_SCEN[flows]})
        for flows, runs in MANY_ROWS for src, cfg, label in runs], [
        *own_kind_cols()], seed_notes=False,
        what="10 vs 60 ms, fifty (or ten) flows per class, 100 Mbit/s, 2 BDP (120 ms of the "
             "longer RTT), 90 s measured from 30 s; the flows start together or 0.1 s apart "
             "(over 10 s); one run (seed 1) or the mean +- 95 % CI half-width over the seeds"),
    "m50-many-dips": Table(
        {f"x{v}": f"{MANY}/dips-{v}.csv" for v in ("v0152", "v0154", "v0155")},
        ["config"], [
            ([label], {"src": f"x{src}", "config": cfg, "scenario": "m50-b2"})
            for src, cfg, label in MANY_DIPS], [
            *dip_cols(),
            Col("flagged competing after it", fn=dip_count(lambda d: d["compete_after"] == "1"))],
        what="each PROBE_RTT of the hundred flows started together, in the gain traces of "
             "m50-many's runs (testbed/analyze.py --trace-dips of the screen): the queue a "
             "dip left is its lowest RTT sample above the path's RTT (the flow's class's)",
        seed_notes=False, unit="PROBE_RTTs"),
    "m50-many-base": Table(
        {"x": f"{MANY}/dips-stagger.csv", "y": f"{MANY}/dips-stagger-v0160.csv"},
        ["config", "seed"], [
            ([label, str(seed)], {"src": src, "config": cfg, "seed": str(seed)})
            for src, cfg, label in (("x", "v0155", "0.15.5"), ("x", "many", MANY_LABEL),
                                    ("y", "many", MANY_LABEL_160))
            for seed in (1, 2)], [
            Col("PROBE_RTTs", fn=dip_count()),
            Col("flows whose lowest RTT sample is under the path's RTT", fn=lambda dips: str(
                len({d["flow"] for d in dips
                     if float(d["base_rtt_ms"]) < float(d["rtt_ms"]) - 0.5}))),
            Col("flows still flagged after two dips in a row within 1 ms of the path's RTT",
                fn=lambda dips: str(len(stuck_flags(dips))))],
        what="each PROBE_RTT of the hundred flows started 0.1 s apart, in the gain traces of "
             "m50-many's runs (testbed/analyze.py --trace-dips of the tree): a flow's lowest "
             "RTT sample is over its whole trace; the path's RTT is its class's",
        seed_notes=False, unit="PROBE_RTTs"),
    "many-own": Table(
        {"h": HR20_RUNS[1]["own"][0], "o": MANY_SRC["o"]}, ["scenario", "bbr_a_fair"], [
            ([where, label], {"src": src, "config": cfg, "scenario": sc})
            for sc, where in PACE_SCEN
            for src, cfg, label in (("h", "hr20", HR20_LABEL),
                                    ("o", "many", MANY_LABEL))],
        own_kind_cols(), seed_notes=False),
    "many-cubic": cubic_pilot(
        {"h": HR20_RUNS[1]["grid_shallow"][0], "k": MANY_SRC["k"], "a": ALL_CUBIC}, [
            ([grid_label(sc), label], {"src": src, "config": cfg, "scenario": sc})
            for sc in ("c0.5", "d0.5", "c20")
            for src, cfg, label in MANY_VS_CUBIC], [WORST_RETX]),
    "many-more": Table(
        {**MORE200, "h": HR20_RUNS[1]["more"][0], "k": MANY_SRC["k"], "a": ALL_CUBIC},
        ["flows, RTT (bbr_a_fair / cubic)", "buffer, BDP", "bbr_a_fair"], [
            (["1 / 4, 20 ms", b, label], {"src": src, "config": cfg, "scenario": f"f{b}"})
            for b in ("0.5", "2") for src, cfg, label in MANY_VS_CUBIC], [
            *share_cols(),
            Col("harm to cubic (computed)", fn=harm_against(MORE200["m"], "incumbent_mbps")),
            Col("bar: cubic's self-harm + 0.1", fn=bar_against(MORE200["m"])), WORST_RETX],
        what=computed_what("more-200s", "the cubic flows'")),
    "many-pm": Table(
        {"v": MANY_SRC["v0155"], "o": MANY_SRC["o"], "h": HR20_RUNS[1]["own"][0],
         **{f"p{i}": f"{MANY}/p750-v016{i}/screen_runs.csv" for i in (1, 2, 3)},
         "q3": f"{MANY}/p750-v0163-own/screen_runs.csv"},
        ["scenario", "bbr_a_fair"], [
            ([where, label], {"src": src, "config": cfg, "scenario": sc})
            for sc, where, runs in (
                ("m50-b2", "50 per class, together", PM_M50),
                ("m10-b2", "10 per class, together", PM_M10),
                *((sc, where, PM_OWN) for sc, where in PACE_SCEN))
            for src, cfg, label in runs],
        [*own_kind_cols()], seed_notes=False,
        what="the three many-flow options with PROBE_RTT holding three quarters of the BDP "
             "(fair_probe_rtt_pm=750): fifty and ten flows per class (10 vs 60 ms, 100 "
             "Mbit/s, 2 BDP, 90 s measured from 30 s) and the own-kind grid of two flows "
             "(30 s), mean +- 95 % CI half-width over the seeds"),
    "many-pm-seeds": Table(
        {"p3": f"{MANY}/p750-v0163/screen_runs.csv"}, ["bbr_a_fair", "seed"], [
            ([label, str(seed)], {"src": "p3", "config": cfg, "scenario": "m50-b2",
                                  "seed": str(seed)})
            for cfg, label in PM_SEEDS for seed in range(1, 6)], [
            Col("Jain", "jain"), Col("queue delay ms", "qdelay_mean_ms", 1)],
        what="fifty flows per class started together (10 vs 60 ms, 100 Mbit/s, 2 BDP, 90 s "
             "measured from 30 s), 0.16.3, each seed's run", seed_notes=False),
}
BLOCKS.update(MANY_BLOCKS)
BLOCKS.update(release_tables("all", (HR20_RUNS, ALL_RUNS)))

# every many-flow option less one, where every option together lost Jain (four classes)
LESS_ONE = (("sync0", "fair_probe_rtt_sync=0"), ("pm250", "fair_probe_rtt_pm=250"),
            ("dips2", "fair_compete_dips=2"), ("r12", "fair_pkts_rate_us=12000"),
            ("min4", "fair_probe_rtt_min=4"), ("sb0", "fair_slow_budget=0"))
BUT_SB0 = "every option but one, fair_slow_budget=0"
BESIDE = (("h", "hr20", HR20_LABEL), ("a", "manyall", ALL_RUNS[0]))


def longest_share(runs):
    """The mean, over the runs, of the longest-RTT class's share of the throughput, % (the
    flows are listed class by class, the longest last)."""
    shares = []
    for r in runs:
        rates = [float(x) for x in r["throughputs_mbps"].split("/")]
        per_class = len(rates) // len(r["rtts_ms"].split("/"))
        shares.append(100 * sum(rates[-per_class:]) / sum(rates))
    return _mean_text(shares)


BLOCKS["all-less-one"] = Table(
    {"h": HR20_RUNS[1]["wide"][0], "a": ALL_RUNS[1]["wide"][0],
     "l": f"{ALL_DIR}/less-one/screen_runs.csv", "p3": f"{MANY}/p750-v0163/screen_runs.csv",
     "m": f"{ALL_DIR}/less-one-m50/screen_runs.csv"},
    ["scenario", "bbr_a_fair"], [
        ([where, label], {"src": src, "config": cfg, "scenario": sc})
        for sc, where, runs in (
            ("c4-b2", "10, 20, 50, 100 ms, 2 BDP, 60 s", (
                *BESIDE, *(("l", f"all{k}", f"0.16.3, every option but one, {opt}")
                           for k, opt in LESS_ONE))),
            ("c3-b2", "10, 30, 90 ms, 2 BDP, 60 s", (
                *BESIDE, ("l", "allsb0", f"0.16.3, {BUT_SB0}"))),
            ("m50-b2", "50 per class, together, 90 s from 30 s", (
                ("p3", "manyr10p750d3", ALL_RUNS[0]),
                ("m", "allsb0", f"0.16.3, {BUT_SB0}"))))
        for src, cfg, label in runs], [
        *own_kind_cols(), Col("the longest RTT class's share %", fn=longest_share)],
    what="where every many-flow option together lost Jain: each option set back to 0.16.3's "
         "default in turn, 100 Mbit/s, mean +- 95 % CI half-width over the seeds",
    seed_notes=False)


def queued_pkts(rows):
    """A trace bin's cwnd above its bw times the flow's path RTT, packets of 1448 bytes."""
    r = rows[0]
    pps = float(r["bw_mbps"]) * 1e6 / 8 / 1448
    return f"{float(r['cwnd']) - pps * float(r['rtt_ms']) / 1000:.0f}"


BLOCKS["all-c4-trace"] = Table(
    {"a": f"{ALL_DIR}/trace-c4-seed1-manyall-bins.csv",
     "b": f"{ALL_DIR}/trace-c4-seed1-allsb0-bins.csv",
     "c": f"{AVG1_DIR}/trace-c4-seed1-allavg1-bins.csv",
     "q": f"{AVG1_DIR}/qemu612/trace-c4-seed1-allavg1-bins.csv"},
    ["bbr_a_fair", "flow's RTT ms"], [
        ([label, rtt], {"src": src, "rtt_ms": rtt})
        for src, label in (("a", "every many-flow option"),
                           ("b", BUT_SB0),
                           ("c", "every many-flow option, fair_cwnd_avg=1"),
                           ("q", "every many-flow option, fair_cwnd_avg=1, on Debian's 6.12 "
                                 "under QEMU"))
        for rtt in ("10.0", "20.0", "50.0", "100.0")], [
        Col("bw Mbit/s", fn=lambda rows: f"{float(rows[0]['bw_mbps']):.1f}"),
        Col("cwnd, packets", fn=lambda rows: f"{float(rows[0]['cwnd']):.0f}"),
        Col("cwnd-limited share", fn=lambda rows: rows[0]["cwnd_limited_share"]),
        Col("cwnd above bw x the path's RTT, packets (computed)", fn=queued_pkts)],
    what="four RTT classes (10, 20, 50, 100 ms), 2 BDP, 100 Mbit/s, seed 1, tcp_bbr_a 0.16.3 "
         "on UML 6.1.192 (the last rows: on Debian's 6.12.117 under QEMU): each flow's gain "
         "trace over the whole 60 s run (testbed/analyze.py --trace-bins, one bin), the means "
         "of its PROBE_BW events: bw (the model's estimate) "
         "and cwnd; what cwnd holds above bw x the path's RTT is what the flow keeps queued",
    seed_notes=False, unit="flows")

BLOCKS.update(release_tables("avg1", (HR20_RUNS, ALL_RUNS, AVG1_RUNS)))

BLOCKS["avg1-wide"] = Table(
    {"h": HR20_RUNS[1]["wide"][0], "a": ALL_RUNS[1]["wide"][0], "v": AVG1_RUNS[1]["wide"][0],
     "p3": f"{MANY}/p750-v0163/screen_runs.csv", "m": f"{AVG1_DIR}/m50/screen_runs.csv"},
    ["scenario", "bbr_a_fair"], [
        ([where, label], {"src": src, "config": cfg, "scenario": sc})
        for sc, where, runs in (
            ("c4-b2", "10, 20, 50, 100 ms, 2 BDP, 60 s",
             (*BESIDE, ("v", "allavg1", AVG1_LABEL))),
            ("c3-b2", "10, 30, 90 ms, 2 BDP, 60 s", (*BESIDE, ("v", "allavg1", AVG1_LABEL))),
            ("m50-b2", "50 per class, together, 90 s from 30 s", (
                ("p3", "manyr10p750d3", ALL_RUNS[0]), ("m", "allavg1", AVG1_LABEL))))
        for src, cfg, label in runs], [
        *own_kind_cols(), Col("the longest RTT class's share %", fn=longest_share)],
    what="four and three RTT classes and fifty flows per class: every many-flow option with "
         "the max filter's headroom for a fast flow (fair_cwnd_avg=2, 0.16.3's default) and "
         "with the average-rate target for every flow (fair_cwnd_avg=1), 100 Mbit/s, mean +- "
         "95 % CI half-width over the seeds",
    seed_notes=False)

# allavg1's weak points against CUBIC on five more seeds, beside the set without the
# average-rate target and the defaults; fifty flows per class started over 10 s; and two
# points on Debian's 6.12 under QEMU
AVG1_MORE = {"g1": HR20_RUNS[1]["grid_deep"][0], "m1": HR20_RUNS[1]["more"][0],
             "a1": ALL_CUBIC, "v1": AVG1_RUNS[1]["grid_deep"][0],
             "s6": f"{AVG1_DIR}/cubic610/screen_runs.csv", **GRID200, **MORE200}
AVG1_SEED_SETS = (("h", "hr20", "v0163", "0.15.1 (seeds 1..5), 0.16.3 (6..10): the defaults"),
                  ("a", "manyall", "manyall", ALL_RUNS[0]),
                  ("v", "allavg1", "allavg1", AVG1_LABEL))
# the two 50 ms points where allavg1 keeps least against cubic
WEAK_POINTS = (("d20", "50 ms, 20 BDP"), ("y0.5", "50 / 10 ms (cubic), 0.5 BDP"))


def point_kind(scenario):
    """Where a set's runs of a point against cubic are (list_runs' keys): the crossed RTTs
    and one against four (x, y, f) with the more-200s points, the rest with the grid."""
    return "more" if scenario[0] in "xyf" else "grid_deep"


def ref_screen(scenario):
    """The screen of cubic's references at a point: more-200s or grid-200s."""
    return MORE200["m"] if point_kind(scenario) == "more" else GRID200["g"]


def harm_by_point(runs):
    """harm_against at the point's screen of references (ref_screen)."""
    return harm_against(ref_screen(runs[0]["scenario"]), "incumbent_mbps")(runs)


def bar_by_point(runs):
    """bar_against at the point's screen of references (ref_screen)."""
    return bar_against(ref_screen(runs[0]["scenario"]))(runs)


def cubic_point_cols(*extra):
    """The columns of a table of points against one cubic flow: share_cols, extra, harm
    and its bar at the point's references."""
    return [*share_cols(), *extra, Col("harm to cubic (computed)", fn=harm_by_point),
            Col("bar: cubic's self-harm + 0.1", fn=bar_by_point)]


def cubic_point_what(over):
    """What a table of cubic_point_cols says, its means over the seeds over says."""
    return ("one bbr_a_fair flow against one cubic flow, 100 Mbit/s, 200 s measured from 60 s, "
            f"mean +- 95 % CI half-width over {over}; harm: (x_solo - x_with) / x_solo of "
            "cubic's throughput (Ware et al.), computed against the mean of grid-200s's (same "
            "RTT) or more-200s's (crossed RTTs) cubic-alone runs at the point; bar: that "
            "screen's cubic-against-cubic self-harm there, + 0.1")


def pooled_jain(first):
    """A cell function for a row of seeds 6..10: Jain's mean +- 95 % CI half-width over
    these runs and the set's seeds 1..5 at the same point, first {config: (runs, config)}
    (the set's runs, list_runs' shape, and the configuration of its first five seeds)."""
    def cell(runs):
        if not runs or runs[0]["seed"] not in map(str, range(6, 11)):
            return "-"
        sc = runs[0]["scenario"]
        first_runs, cfg = first[runs[0]["config"]]
        path = first_runs[1][point_kind(sc)][0]
        more = [r for r in load_runs(os.path.join(REPO, path))
                if r["config"] == cfg and r["scenario"] == sc and not r["problems"]]
        m, h = mean_ci95([float(r["jain"]) for r in runs + more])
        return f"{m:.3f} +- {h:.3f} ({len(runs) + len(more)} runs)"
    return cell


BLOCKS["avg1-seeds"] = Table(
    AVG1_MORE, ["point", "bbr_a_fair", "seeds"], [
        ([where, label, seeds], {"src": src, "config": cfg, "scenario": sc})
        for sc, where in WEAK_POINTS
        for key, cfg5, cfg10, label in AVG1_SEED_SETS
        for src, cfg, seeds in (
            ({"h": "m1" if point_kind(sc) == "more" else "g1", "a": "a1", "v": "v1"}[key],
             cfg5, "1..5"),
            ("s6", cfg10, "6..10"))],
    cubic_point_cols(Col("Jain, seeds 1..10", fn=pooled_jain({
        "v0163": (HR20_RUNS, "hr20"), "manyall": (ALL_RUNS, "manyall"),
        "allavg1": (AVG1_RUNS, "allavg1")}))),
    what=cubic_point_what("each set of five seeds (and over both sets, the defaults' 0.15.1 "
                          "and 0.16.3 runs together)"),
    seed_notes=False)


def only_at(scenario, fn):
    """A cell function: fn's text of the runs at scenario, "-" at any other."""
    return lambda runs: fn(runs) if runs and runs[0]["scenario"] == scenario else "-"


QEMU_POINTS = {"d20": "against one cubic flow, 50 ms, 20 BDP, 200 s from 60 s",
               "y0.5": "against one 10 ms cubic flow, 50 ms, 0.5 BDP, 200 s from 60 s",
               "c4-b2": "its own kind, 10, 20, 50, 100 ms, 2 BDP, 60 s"}


def qemu_block(sources, rows, label, header=("point", "backend")):
    """Runs on Debian's 6.12 under QEMU beside UML's runs of the same points: rows are
    (scenario, labels after the point's, source key, config)."""
    cubic = [sc for sc, *_ in rows if sc != "c4-b2"]
    return Table(
        sources, list(header), [
            ([QEMU_POINTS[sc], *labels], {"src": src, "config": cfg, "scenario": sc})
            for sc, labels, src, cfg in rows], [
            Col("runs", "runs"), Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min"),
            Col("utilisation", "utilization"), Col("retransmitted %", "retrans_rate", 2, 100),
            Col("queue delay ms", "qdelay_mean_ms", 1),
            Col("bbr_a_fair's share % (against cubic)", fn=lambda runs: (
                _mean_text([100 * float(r["shares"][0]) for r in runs])
                if runs and runs[0]["scenario"] in cubic else "-")),
            Col("the longest RTT class's share %", fn=only_at("c4-b2", longest_share))],
        what=f"{label}, on Debian's 6.12.117 kernel binary under QEMU (TCG, virtual time, "
             "one vCPU) beside UML's runs of the same configuration, mean +- 95 % CI "
             "half-width over the seeds (QEMU: seeds 1 and 2); the queue delay is the "
             "bottleneck's, from tc samples where the run took them",
        seed_notes=False)


def qemu612_block(qemu, runs, cfg, label):
    """A set's runs on Debian's 6.12 under QEMU (qemu, a screen of d20 and c4-b2) beside its
    UML runs of the same points (runs: list_runs's)."""
    return qemu_block(
        {"q": qemu, "v": runs["grid_deep"][0], "w": runs["wide"][0]},
        [(sc, [backend], src, cfg) for sc, uml in (("d20", "v"), ("c4-b2", "w"))
         for src, backend in (("q", "QEMU, Debian 6.12"), (uml, "UML, 6.1"))], label)


BLOCKS["avg1-qemu612"] = qemu612_block(f"{AVG1_DIR}/qemu612/screen_runs.csv", AVG1_RUNS[1],
                                       "allavg1", AVG1_LABEL)
BLOCKS["avg3-qemu612"] = qemu612_block(f"{AVG3_DIR}/qemu612/screen_runs.csv", AVG3_RUNS[1],
                                       "avg3", AVG3_LABEL)

# 0.17.0's defaults against 0.16.3 with allavg1, seed 1; and what happens at the two 50 ms
# points over time: each run's share in 20 s windows, and when its competitor flag was set
IDENTITY_POINTS = (("c4-b2", "its own kind, 10, 20, 50, 100 ms, 2 BDP, 60 s", "wide"),
                   ("d20", "against one cubic flow, 50 ms, 20 BDP", "grid_deep"))


def identity_block(identity, runs, release, cfg, label, points=IDENTITY_POINTS, extra=(),
                   what="seed 1 of each, UML 6.1.192 in time travel; one run each, to six "
                        "digits"):
    """A release's defaults (release: its config in the screen identity, and its version)
    beside the runs of the option set it made its defaults (cfg in runs, list_runs's), seed
    1 at each of points (scenario, label, the list_runs key of the set's screen there);
    extra: columns after Jain, the first flow's rate and the queue delay."""
    return Table(
        {"i": identity, **{kind: runs[kind][0] for _, _, kind in points}},
        ["point", "bbr_a_fair"], [
            ([where, text], {"src": src, "config": c, "scenario": sc, "seed": "1"})
            for sc, where, kind in points
            for src, c, text in (("i", release[0], f"{release[1]}, its defaults"),
                                 (kind, cfg, label))], [
            Col("Jain", "jain", 6, ci=False), Col("first flow's Mbit/s", "tput0", 4, ci=False),
            Col("queue delay ms", "qdelay_mean_ms", 3, ci=False), *extra],
        what=what, seed_notes=False)


BLOCKS["v0170-identity"] = identity_block(f"{AVG1_DIR}/identity/screen_runs.csv", AVG1_RUNS[1],
                                          ("v0170", "0.17.0"), "allavg1", AVG1_LABEL)
BLOCKS["v0180-identity"] = identity_block(f"{AVG3_DIR}/identity/screen_runs.csv", AVG3_RUNS[1],
                                          ("v0180", "0.18.0"), "avg3", AVG3_LABEL)

V0170_WINDOWS = f"{AVG1_DIR}/cubic610/windows.csv"
V0170_DIPS = f"{AVG1_DIR}/cubic610/dips-cubic610.csv"
V0170_SETS = (("v0163", "0.16.3's defaults"), ("manyall", "every many-flow option"),
              ("allavg1", "every many-flow option, fair_cwnd_avg=1 (0.17.0's defaults)"))
BLOCKS["v0170-windows"] = Table(
    {"w": V0170_WINDOWS}, ["point", "bbr_a_fair", "seed"], [
        ([where, label, str(seed)],
         {"src": "w", "config": cfg, "scenario": sc, "seed": str(seed), "part": "1"})
        for sc, where in (("d20", "50 ms, 20 BDP"),)
        for cfg, label in V0170_SETS for seed in range(6, 11)], [
        Col(f"{t0:g}..{t0 + 20:g} s", "share", 2, ci=False, t0_s=f"{float(t0)}")
        for t0 in (20, 40, 60, 100, 140, 180)],
    what="bbr_a_fair's share of the two flows' throughput in 20 s windows of each 200 s run "
         "(testbed/analyze.py --share-windows; the measured interval starts at 60 s), one "
         "run per row",
    seed_notes=False, unit="windows")


def first_flags(dips):
    """{seed: when its run's first PROBE_RTT after which a competitor was flagged began, s}
    of the runs that flagged one."""
    first = {}
    for d in dips:
        if d["compete_after"] == "1":
            key = d.get("seed")
            first[key] = min(first.get(key, 1e9), float(d["start_s"]))
    return first


def first_flag_s(dips):
    """When the first PROBE_RTT after which a competitor was flagged began, s, per run:
    the runs' median and range (none: how many runs never flagged one)."""
    first = first_flags(dips)
    never = len({d.get("seed") for d in dips}) - len(first)
    if not first:
        return f"never ({never} runs)"
    xs = sorted(first.values())
    text = f"{xs[len(xs) // 2]:.0f} ({xs[0]:.0f} .. {xs[-1]:.0f})"
    return text + (f", never in {never} runs" if never else "")


BLOCKS["v0170-flags"] = Table(
    {"d": V0170_DIPS}, ["point", "bbr_a_fair"], [
        ([where, label], {"src": "d", "config": cfg, "scenario": sc})
        for sc, where in WEAK_POINTS
        for cfg, label in V0170_SETS], [
        Col("runs", fn=lambda dips: str(len({d.get("seed") for d in dips}))),
        Col("PROBE_RTTs", fn=dip_count()),
        Col("after which a competitor was flagged", fn=dip_count(
            lambda d: d["compete_after"] == "1")),
        Col("first flagged at, s: median (range)", fn=first_flag_s)],
    what="each PROBE_RTT of bbr_a_fair's in seeds 6..10 of avg1-seeds' runs "
         "(testbed/analyze.py --trace-dips of the screen), 200 s runs",
    seed_notes=False, unit="PROBE_RTTs")


def bin_value(key, digits=1):
    """A cell function of a trace-bins file's row (analyze.py --trace-bins): its key."""
    return lambda rows: f"{float(rows[0][key]):.{digits}f}" if rows else "-"


BLOCKS["v0170-d20-bound"] = Table(
    {f"s{seed}": f"{AVG1_DIR}/cubic610/trace-d20-seed{seed}-allavg1-bins.csv" for seed in (6, 7)},
    ["window, s"], [
        ([f"{t0}..{t0 + 20}"], {"src": "s6", "t_s": f"{float(t0)}"})
        for t0 in range(20, 200, 20)], [
        Col(f"seed {seed}: {what}", fn=bin_value(key, digits), src=f"s{seed}")
        for seed in (6, 7) for what, key, digits in (("bw Mbit/s", "bw_mbps", 1),
                                                     ("bound Mbit/s", "bw_hi_mbps", 1),
                                                     ("flagged share", "compete_share", 2))],
    what="allavg1 (0.17.0's defaults) against one cubic flow, 50 ms, 20 BDP, seeds 6 (Jain "
         "under 0.9) and 7: the means of bbr_a_fair's gain-trace events (PROBE_BW's and "
         "PROBE_RTT's) in each 20 s bin (testbed/analyze.py --trace-bins --bin-s 20): the "
         "model's bw and the loss-learned bound, and the share of events with a competitor "
         "flagged",
    seed_notes=False, unit="bins")

# 0.17.1's fair_cwnd_avg=3 (the average target waits for the dips), an option: the two 50 ms
# points against cubic on ten seeds, the share before and after the flag, and its own kind
V0170_LABEL = "0.17.0's defaults (0.16.3's allavg1 runs)"
BLOCKS["v0171-cubic"] = Table(
    {**AVG1_MORE, "a3": f"{AVG3_DIR}/cubic/screen_runs.csv"},
    ["point", "bbr_a_fair", "seeds"], [
        ([where, label, seeds], {"src": src, "config": cfg, "scenario": sc})
        for sc, where in WEAK_POINTS
        for src, cfg, label, seeds in (
            ("v1", "allavg1", V0170_LABEL, "1..5"), ("s6", "allavg1", V0170_LABEL, "6..10"),
            ("a3", "avg3", AVG3_LABEL, "1..10"))],
    cubic_point_cols(), what=cubic_point_what("the row's seeds"), seed_notes=False)

BLOCKS["v0171-windows"] = Table(
    {"w": V0170_WINDOWS, "w3": f"{AVG3_DIR}/cubic/windows.csv"},
    ["point", "bbr_a_fair", "seeds"], [
        ([where, label, seeds], {"src": src, "config": cfg, "scenario": sc, "part": "1"})
        for sc, where in WEAK_POINTS
        for src, cfg, label, seeds in (
            ("w", "v0163", "0.16.3's defaults", "6..10"),
            ("w", "manyall", "every many-flow option", "6..10"),
            ("w", "allavg1", V0170_LABEL, "6..10"), ("w3", "avg3", AVG3_LABEL, "1..10"))], [
        Col(f"{t0:g}..{t0 + 20:g} s", "share", 2, t0_s=f"{float(t0)}")
        for t0 in (20, 40, 60, 100, 140, 180)],
    what="bbr_a_fair's share of the two flows' throughput in 20 s windows of each 200 s run "
         "(testbed/analyze.py --share-windows; the measured interval starts at 60 s), mean "
         "+- 95 % CI half-width over the row's seeds",
    seed_notes=False, unit="windows")

BLOCKS["v0171-own"] = Table(
    {"w": AVG1_RUNS[1]["wide"][0], "m": f"{AVG1_DIR}/m50/screen_runs.csv",
     "w3": AVG3_RUNS[1]["wide"][0], "m3": f"{AVG3_DIR}/m50/screen_runs.csv"},
    ["scenario", "bbr_a_fair"], [
        ([where, label], {"src": src, "config": cfg, "scenario": sc})
        for sc, where, runs in (
            *((sc, where, (("w", "allavg1", V0170_LABEL), ("w3", "avg3", AVG3_LABEL)))
              for sc, where in (("c4-b2", "10, 20, 50, 100 ms, 2 BDP, 60 s"),
                                ("c3-b2", "10, 30, 90 ms, 2 BDP, 60 s"),
                                ("x30-b1", "5 vs 150 ms, 1 BDP, 60 s"))),
            ("m50-b2", "50 per class, together, 90 s from 30 s",
             (("m", "allavg1", V0170_LABEL), ("m3", "avg3", AVG3_LABEL))))
        for src, cfg, label in runs], [
        *own_kind_cols(), Col("the longest RTT class's share %", fn=longest_share)],
    what="against its own kind, 100 Mbit/s, mean +- 95 % CI half-width over the seeds",
    seed_notes=False)

# 0.17.1 with fair_cwnd_avg=3 on the whole list a default must keep, beside 0.17.0's defaults
# (list/, laid out as all-v0163's), fifty flows per class started over 10 s, and QEMU's 6.12
BLOCKS.update(release_tables("avg3", ((V0170_LABEL, AVG1_RUNS[1]), AVG3_RUNS)))


def first_flag_run(dips):
    """When a run's first PROBE_RTT after which a competitor was flagged began, s."""
    first = list(first_flags(dips).values())
    return f"{first[0]:.0f}" if first else "never"


# the columns of a table of single runs ({"c": a screen, "d": its dips file}): the run's Jain
# and bbr_a_fair's share, its PROBE_RTTs and those after which a competitor was flagged
RUN_JAIN = Col("Jain", "jain", ci=False)
RUN_SHARE = Col("bbr_a_fair's share %",
                fn=lambda runs: f"{100 * float(runs[0]['shares'][0]):.1f}")
RUN_DIPS = Col("PROBE_RTTs", fn=dip_count(), src="d")
RUN_FLAGGED_DIPS = Col("after which a competitor was flagged",
                       fn=dip_count(lambda d: d["compete_after"] == "1"), src="d")


def y_flags_block(screen, dips, sets, seeds, what):
    """The crossed 50 / 10 ms point at 0.5 BDP run by run: each seed's Jain, share and
    PROBE_RTTs of sets [(config, label)] in screen and its dips file (--trace-dips); with
    one set, no column says which."""
    many = len(sets) > 1
    return Table(
        {"c": screen, "d": dips}, ["seed"] + (["bbr_a_fair"] if many else []), [
            ([str(seed)] + ([label] if many else []),
             {"src": "c", "config": cfg, "scenario": "y0.5", "seed": str(seed)})
            for seed in seeds for cfg, label in sets], [
            RUN_JAIN, RUN_SHARE, RUN_DIPS, RUN_FLAGGED_DIPS,
            Col("first flagged, s", fn=first_flag_run, src="d")],
        what=f"{what}, one 50 ms flow against one 10 ms cubic flow, 0.5 BDP, 100 Mbit/s, "
             "200 s measured from 60 s, one run per row; its PROBE_RTTs from its gain trace "
             "(testbed/analyze.py --trace-dips of the screen)",
        seed_notes=False, unit="rows")


# The crossed 50 / 10 ms point at 0.5 BDP with fair_cwnd_avg=3, run by run: what a flag costs
BLOCKS["v0171-y-flags"] = y_flags_block(
    f"{AVG3_DIR}/cubic/screen_runs.csv", f"{AVG3_DIR}/cubic/dips-cubic.csv",
    (("avg3", None),), range(1, 11), AVG3_LABEL)

# 0.18.2 and 0.18.3's fair_compete_rtt_us (the competing law at one RTT for every flow), an
# option: the pilot at the two 50 ms points, the whole list against cubic, and the crossed
# point run by run
CRTT_SETS = (("p", "def", "0.18.3's defaults (the law at the flow's srtt)"),
             ("p", "q20", "0.18.3, the law at 20 ms plus the queueing delay"),
             ("p", "q10", "0.18.3, the law at 10 ms plus the queueing delay"),
             ("o", "crtt20", "0.18.2, the law at 20 ms alone"))
BLOCKS["crtt-pilot"] = Table(
    {**AVG1_MORE, "p": f"{CRTT_DIR}/pilot/screen_runs.csv",
     "o": f"{CRTT_DIR}/v0182/screen_runs.csv"},
    ["point", "bbr_a_fair"], [
        ([where, label], {"src": src, "config": cfg, "scenario": sc})
        for sc, where in WEAK_POINTS for src, cfg, label in CRTT_SETS],
    cubic_point_cols(), what=cubic_point_what("the seeds"))
BLOCKS.update(release_tables("crtt", (AVG3_RUNS, CRTT_RUNS)))
BLOCKS.update(release_tables("v0192", (CRTT_RUNS, SL_RUNS)))
def m50_block(sets):
    """Fifty flows per class started together, one row per set (source key, screen_runs.csv,
    config, label)."""
    return Table(
        {key: path for key, path, _, _ in sets}, ["scenario", "bbr_a_fair"], [
            (["50 per class, together, 90 s from 30 s", label],
             {"src": key, "config": cfg, "scenario": "m50-b2"})
            for key, _, cfg, label in sets], [
            *own_kind_cols(), Col("the longest RTT class's share %", fn=longest_share)],
        what="against its own kind, 10 vs 60 ms, 100 Mbit/s, 2 BDP (120 ms of the longer RTT), "
             "mean +- 95 % CI half-width over the seeds",
        seed_notes=False)


CRTT_M50 = ("m", f"{CRTT_DIR}/m50/screen_runs.csv", "q10", CRTT_LABEL)
BLOCKS["crtt-m50"] = m50_block((("m3", f"{AVG3_DIR}/m50/screen_runs.csv", "avg3", AVG3_LABEL),
                                CRTT_M50))
BLOCKS["v0192-m50"] = m50_block((CRTT_M50, ("s", f"{V0192_DIR}/m50/screen_runs.csv", "sl",
                                            SL_LABEL)))
BLOCKS["v0190-identity"] = identity_block(f"{CRTT_DIR}/identity/screen_runs.csv", CRTT_RUNS[1],
                                          ("v0190", "0.19.0"), "q10", CRTT_LABEL)
CRTT_Q = (("def", "its defaults (the law at its srtt)"), ("q10", "fair_compete_rtt_us=10000"))
BLOCKS["crtt-qemu612"] = qemu_block(
    {"q": f"{CRTT_DIR}/qemu612/screen_runs.csv", "p": f"{CRTT_DIR}/pilot/screen_runs.csv",
     "v": CRTT_RUNS[1]["grid_deep"][0], "w": CRTT_RUNS[1]["wide"][0]},
    [(sc, [backend, text], src, cfg)
     for sc, sets, uml in (("y0.5", CRTT_Q, "p"), ("d20", CRTT_Q[1:], "v"),
                           ("c4-b2", CRTT_Q[1:], "w"))
     for src, backend in (("q", "QEMU, Debian 6.12"), (uml, "UML, 6.1"))
     for cfg, text in sets], "0.18.3", header=("point", "backend", "bbr_a_fair"))
BLOCKS["crtt-qemu612-flags"] = y_flags_block(
    f"{CRTT_DIR}/qemu612/screen_runs.csv", f"{CRTT_DIR}/qemu612/dips-y.csv", CRTT_Q, (1, 2),
    "0.18.3 on Debian's 6.12.117 under QEMU")
BLOCKS["v0190-qemu612-flags"] = y_flags_block(
    f"{CRTT_DIR}/qemu612-v0190/screen_runs.csv", f"{CRTT_DIR}/qemu612-v0190/dips-y.csv",
    (("def", None),), (3, 4), "0.19.0's defaults on Debian's 6.12.117 under QEMU")


def longest_dip_run(test):
    """A cell function of a dips file's rows of one run: the most dips in a row that pass
    test."""
    def cell(dips):
        best = run = 0
        for d in sorted(dips, key=lambda d: float(d["start_s"])):
            run = run + 1 if test(d) else 0
            best = max(best, run)
        return str(best)
    return cell


def queued(d):
    """A dip that left the competitor test's 5 ms (fair_compete_us) of queue or more."""
    return float(d["queue_ms"]) >= 5


# its own kind in the shallow buffers: 0.18.3's runs of the list, the same jobs run again in
# a later session, and 0.19.0 and 0.19.1 (no code changed) there over more seeds
OWN_SHALLOW = (("o", "q10", CRTT_LABEL, "2026-11-28 (the list's)"),
               ("r", "q10", CRTT_LABEL, "2026-11-29, the same jobs again"),
               ("n", "def", "0.19.1, its defaults (0.19.0's code)", "2026-11-29"),
               ("v", "def", "0.19.0, its defaults", "2026-11-29"))
OWN_SHALLOW_SRC = {"o": CRTT_RUNS[1]["own"][0], "r": f"{CRTT_DIR}/rerun-0183/screen_runs.csv",
                   "n": f"{CRTT_DIR}/v0191-own/screen_runs.csv",
                   "v": f"{CRTT_DIR}/v0190-own/screen_runs.csv"}


def retx_over_bar(run):
    """Whether a run retransmitted more than 1 % over its whole flows."""
    return float(run["retrans_rate"]) > 0.01


def over_bar(runs):
    """How many of the runs retransmitted more than 1 %."""
    return f"{sum(map(retx_over_bar, runs))} of {len(runs)}"


def interval_retx(worst=False):
    """A cell function: the runs' retransmitted % in the measured interval (STARTUP left
    out), mean +- 95 % CI half-width or the worst run's; - where a run's file has none
    (screens summarised before the column existed)."""
    def cell(runs):
        xs = [r.get("retrans_rate_interval") for r in runs]
        if not xs or any(x in (None, "") for x in xs):
            return "-"
        xs = [100 * float(x) for x in xs]
        if worst:
            return f"{max(xs):.2f}"
        m, h = mean_ci95(xs)
        return f"{m:.2f}" if h is None else f"{m:.2f} +- {h:.2f}"
    return cell


def startup_ends(runs, flow):
    """When flow (0: the first class's) left STARTUP in each run, s; None if a run's file
    does not say (screens summarised before the column existed)."""
    xs = [(r.get("startup_end_s") or "").split("/") for r in runs]
    if not xs or any(len(x) <= flow or not x[flow] for x in xs):
        return None
    return [float(x[flow]) for x in xs]


def startup_end(flow):
    """A cell function: when flow left STARTUP, s: the median of the runs and their latest,
    or the one run's; - where a run's file has none."""
    def cell(runs):
        xs = startup_ends(runs, flow)
        if xs is None:
            return "-"
        xs.sort()
        if len(xs) == 1:
            return f"{xs[0]:.2f}"
        return f"{percentile(xs, 50):.2f} ({xs[-1]:.2f})"
    return cell


def startup_split(flow):
    """A cell function: when flow left STARTUP, s, in the runs over 1 % retransmitted (their
    earliest .. latest) and in the others (their latest); - where a run's file has none."""
    def cell(runs):
        xs = startup_ends(runs, flow)
        if xs is None:
            return "-"
        over = sorted(x for x, r in zip(xs, runs) if retx_over_bar(r))
        rest = [x for x, r in zip(xs, runs) if not retx_over_bar(r)]
        return (f"{over[0]:.2f} .. {over[-1]:.2f}" if over else "none") + " / " + (
            f"{max(rest):.2f}" if rest else "none")
    return cell


def startup_bw(flow):
    """A cell function: flow's bw when it left STARTUP (the max filter STARTUP ended with),
    Mbit/s: the median of the runs (their lowest .. highest); - where a run's file has none
    (screens summarised before the column existed)."""
    def cell(runs):
        xs = [(r.get("startup_bw_mbps") or "").split("/") for r in runs]
        if not xs or any(len(x) <= flow or not x[flow] for x in xs):
            return "-"
        xs = sorted(float(x[flow]) for x in xs)
        return f"{percentile(xs, 50):.1f} ({xs[0]:.1f} .. {xs[-1]:.1f})"
    return cell


BLOCKS["crtt-own-shallow"] = Table(
    OWN_SHALLOW_SRC, ["scenario", "bbr_a_fair", "runs of"], [
        ([f"10 vs 50 ms, {bdp} BDP", label, where],
         {"src": src, "config": cfg, "scenario": f"b{bdp}"})
        for bdp in ("0.1", "0.2") for src, cfg, label, where in OWN_SHALLOW], [
        *own_kind_cols(), Col("runs over 1 % retransmitted", fn=over_bar),
        Col("retransmitted % in the interval", fn=interval_retx()),
        Col("worst in the interval", fn=interval_retx(worst=True)),
        Col("the 50 ms flow left STARTUP, s: median (latest)", fn=startup_end(1)),
        Col("left STARTUP, s: runs over 1 % (earliest .. latest) / the others (latest)",
            fn=startup_split(1))],
    what="against its own kind, 100 Mbit/s, 30 s measured from 5 s, mean +- 95 % CI "
         "half-width over the seeds; retransmitted %: the whole flows' (STARTUP included), "
         "in the interval: from 5 s on (ss samples)", seed_notes=False)
# 0.19.2's fair_startup_loss (a lossy round ends STARTUP) beside its defaults, at the two
# shallow own-kind points, with 0.19.1's runs of the same code as its defaults
STARTUP_LOSS = (("n", "def", "0.19.1, its defaults"),
                ("s", "def", "0.19.2, its defaults (0.19.1's algorithm)"),
                ("s", "sl", "0.19.2, a lossy round ends STARTUP (fair_startup_loss=1)"))
BLOCKS["v0192-startup"] = Table(
    {**OWN_SHALLOW_SRC, "s": f"{CRTT_DIR}/v0192-own/screen_runs.csv"},
    ["scenario", "bbr_a_fair"], [
        ([f"10 vs 50 ms, {bdp} BDP", label], {"src": src, "config": cfg, "scenario": f"b{bdp}"})
        for bdp in ("0.1", "0.2") for src, cfg, label in STARTUP_LOSS], [
        *own_kind_cols(), Col("runs over 1 % retransmitted", fn=over_bar),
        Col("retransmitted % in the interval", fn=interval_retx()),
        Col("worst in the interval", fn=interval_retx(worst=True)),
        Col("the 10 ms flow left STARTUP, s: median (latest)", fn=startup_end(0)),
        Col("the 50 ms flow left STARTUP, s: median (latest)", fn=startup_end(1)),
        Col("its bw then, Mbit/s: median (lowest .. highest)", fn=startup_bw(1))],
    what="against its own kind, 100 Mbit/s, 30 s measured from 5 s, mean +- 95 % CI "
         "half-width over the seeds; retransmitted %: the whole flows' (STARTUP included), "
         "in the interval: from 5 s on (ss samples); bw: the max filter STARTUP ended with",
    seed_notes=False)
# what a run is made of, to the last digit: two runs with these equal are one trajectory
RUN_DIGITS = ("jain", "utilization", "retrans_rate", "qdelay_mean_ms", "throughputs_mbps")


def same_runs(runs):
    """A cell function: of the seeds run with both the defaults (def) and
    fair_startup_loss=1 (sl), how many gave the same run to the last digit (RUN_DIGITS)."""
    by = {}
    for r in runs:
        by.setdefault(r["seed"], {})[r["config"]] = r
    pairs = [d for d in by.values() if "def" in d and "sl" in d]
    same = sum(all(d["def"][k] == d["sl"][k] for k in RUN_DIGITS) for d in pairs)
    return f"{same} of {len(pairs)}"


V0192_SAME = (("o", "own kind, 30 s", (
    ("b0.1", "10 vs 50 ms, 0.1 BDP"), ("b0.2", "10 vs 50 ms, 0.2 BDP"),
    ("b0.5", "10 vs 50 ms, 0.5 BDP"), ("b1", "10 vs 50 ms, 1 BDP"),
    ("b5", "10 vs 50 ms, 5 BDP"), ("b20", "10 vs 50 ms, 20 BDP"),
    ("r20", "10 vs 20 ms, 5 BDP"), ("r100", "10 vs 100 ms, 5 BDP"),
    ("l6-b5", "10 vs 50 ms, 5 BDP, 6 % loss"))),
    ("c", "against cubic, 200 s", (*((sc, grid_label(sc)) for sc in GRID_POINTS), *(
        (f"{p}{b}", f"{where}, {b} BDP")
        for p, where in (("x", "10 / 50 ms (cubic)"), ("y", "50 / 10 ms (cubic)"),
                         ("f", "20 ms, one against four"))
        for b in ("0.5", "2", "20")))))
BLOCKS["v0192-same"] = Table(
    {"o": f"{V0192_DIR}/own-30s/screen_runs.csv", "c": f"{V0192_DIR}/cubic/screen_runs.csv"},
    ["runs", "point"], [([kind, where], {"src": src, "scenario": sc})
                        for src, kind, points in V0192_SAME for sc, where in points],
    [Col("seeds with the same run, defaults and fair_startup_loss=1", fn=same_runs)],
    what="0.19.2, one build, UML 6.1.192 in time travel; the same run: Jain, utilisation, "
         "retransmissions, queue delay and every flow's throughput equal to the last digit",
    seed_notes=False, unit="rows")
BLOCKS["v0200-identity"] = identity_block(
    f"{V0192_DIR}/identity/screen_runs.csv", SL_RUNS[1], ("v0200", "0.20.0"), "sl", SL_LABEL,
    points=(("b0.2", "its own kind, 10 vs 50 ms, 0.2 BDP, 30 s", "own"), *IDENTITY_POINTS),
    extra=[Col("retransmitted %", "retrans_rate", 4, 100, ci=False)],
    what="seed 1 of each, UML 6.1.192 in time travel; one run each; at 0.2 BDP the option "
         "acts, at the other two STARTUP loses nothing")
BLOCKS["v0192-qemu612"] = Table(
    {"q": f"{CRTT_DIR}/v0192/qemu612-own/screen_runs.csv"}, ["scenario", "bbr_a_fair"], [
        ([f"10 vs 50 ms, {bdp} BDP", label], {"src": "q", "config": cfg, "scenario": f"b{bdp}"})
        for bdp in ("0.1", "0.2") for _, cfg, label in STARTUP_LOSS[1:]], [
        *own_kind_cols(), Col("runs over 1 % retransmitted", fn=over_bar),
        Col("the 50 ms flow left STARTUP, s: median (latest)", fn=startup_end(1)),
        Col("its bw then, Mbit/s: median (lowest .. highest)", fn=startup_bw(1))],
    what="against its own kind on Debian's 6.12 under QEMU, 100 Mbit/s, 30 s measured "
         "from 5 s, mean +- 95 % CI half-width over the seeds; retransmitted %: the whole "
         "flows' (STARTUP included); bw: the max filter STARTUP ended with",
    seed_notes=False)
BLOCKS["crtt-rerun-seeds"] = Table(
    OWN_SHALLOW_SRC, ["seed", "bbr_a_fair", "runs of"], [
        ([str(seed), label.split(",")[0], where],
         {"src": src, "config": cfg, "scenario": "b0.1", "seed": str(seed)})
        for seed in range(1, 6) for src, cfg, label, where in OWN_SHALLOW], [
        RUN_JAIN,
        Col("Mbit/s, 10 / 50 ms", fn=lambda runs: " / ".join(
            f"{float(x):.2f}" for x in runs[0]["throughputs_mbps"].split("/"))),
        Col("retransmitted %", fn=lambda runs: f"{100 * float(runs[0]['retrans_rate']):.2f}"),
        Col("in the interval", fn=interval_retx()),
        Col("the 50 ms flow left STARTUP, s", fn=startup_end(1))],
    what="its own kind, 10 vs 50 ms, 0.1 BDP, 100 Mbit/s, 30 s measured from 5 s, one run "
         "per row; 0.18.3's two sets have the same job keys (options, seed, module and "
         "testbed hashes, UML kernel build), 0.19.0's and 0.19.1's modules the same code",
    seed_notes=False, unit="rows")


# the crossed 10 / 50 ms point at 0.5 BDP run by run: why no seed flags the cubic flow
BLOCKS["crtt-x-dips"] = Table(
    {"c": CRTT_RUNS[1]["more"][0], "d": f"{CRTT_DIR}/list/cubic/dips-x.csv"}, ["seed"], [
        ([str(seed)], {"src": "c", "config": "q10", "scenario": "x0.5", "seed": str(seed)})
        for seed in range(1, 6)], [
        RUN_JAIN, RUN_SHARE, RUN_DIPS,
        Col("leaving 5 ms of queue or more", fn=dip_count(queued), src="d"),
        Col("most such in a row", fn=longest_dip_run(queued), src="d"),
        RUN_FLAGGED_DIPS],
    what=f"{CRTT_LABEL}, one 10 ms flow against one 50 ms cubic flow, 0.5 BDP (25 ms), "
         "100 Mbit/s, 200 s measured from 60 s, one run per row; its PROBE_RTTs from its "
         "gain trace (testbed/analyze.py --trace-dips of the screen), the queue a dip left "
         "its lowest RTT sample above the path's",
    seed_notes=False, unit="rows")
# 0.19.1 (0.19.0's code, another binary) at three points against cubic, beside the runs of
# 0.18.3 with the same law the docs give: a new binary's trajectories, the same code's spread
BLOCKS["v0191-cubic"] = Table(
    {**AVG1_MORE, "p": f"{CRTT_DIR}/pilot/screen_runs.csv", "l": CRTT_RUNS[1]["more"][0],
     "n": f"{CRTT_DIR}/v0191-cubic/screen_runs.csv"},
    ["point", "bbr_a_fair"], [
        ([where, label], {"src": src, "config": cfg, "scenario": sc})
        for sc, where, old in (("c0.5", "20 ms, 0.5 BDP", "l"), *(
            (sc, where, "p") for sc, where in WEAK_POINTS))
        for src, cfg, label in ((old, "q10", CRTT_LABEL),
                                ("n", "def", "0.19.1, its defaults (0.19.0's code)"))],
    cubic_point_cols(), what=cubic_point_what("the seeds"))
# 0.19.2's fair_startup_loss against cubic at the shallow points, where its STARTUP loses,
# beside its defaults and the list's runs (0.18.3 with 0.19.0's default)
BLOCKS["v0192-cubic-shallow"] = Table(
    {**AVG1_MORE, "l": CRTT_RUNS[1]["more"][0], "s": f"{V0192_DIR}/cubic/screen_runs.csv"},
    ["point", "bbr_a_fair"], [
        ([where, label], {"src": src, "config": cfg, "scenario": sc})
        for sc, where in (("c0.5", "20 ms, 0.5 BDP"), ("d0.5", "50 ms, 0.5 BDP"),
                          ("y0.5", "50 / 10 ms (cubic), 0.5 BDP"),
                          ("x0.5", "10 / 50 ms (cubic), 0.5 BDP"))
        for src, cfg, label in (("l", "q10", CRTT_LABEL),
                                ("s", "def", "0.19.2, its defaults"),
                                ("s", "sl", "0.19.2, fair_startup_loss=1"))],
    cubic_point_cols(Col("retransmitted %", "retrans_rate", 2, 100), WORST_RETX,
                     Col("bbr_a_fair left STARTUP, s: median (latest)", fn=startup_end(0)),
                     Col("its bw then, Mbit/s: median (lowest .. highest)",
                         fn=startup_bw(0))),
    what=cubic_point_what("the seeds") + "; retransmitted %: both flows', whole flows; bw: "
    "the max filter STARTUP ended with; the list's runs of 0.18.3 (seeds 1..5) were "
    "summarised before the STARTUP columns existed")
BLOCKS["crtt-y-flags"] = y_flags_block(
    f"{CRTT_DIR}/pilot/screen_runs.csv", f"{CRTT_DIR}/pilot/dips-y.csv",
    (("def", "its defaults (the law at its srtt)"),
     ("q10", "fair_compete_rtt_us=10000")), range(1, 11), "0.18.3")
