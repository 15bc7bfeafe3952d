"""The generated blocks of docs/peers.md: the peers an operator would pick instead, BBRv1 and
BBRv3 (a UML kernel built with BBR_A_UML_PATCH), beside bbr_a_fair on the same testbed
(screen.sh trees under docs/results/peers-uml/). docs_blocks.py adds PEERS_BLOCKS to its
BLOCKS; this module imports nothing from it."""
import os

from .docs import CURRENT, REPO, Col, Table
from .docs_blocks_paths import COND, CONDITIONS
from .tables import load_runs, mean_ci95, values

PEERS = "docs/results/peers-uml"
COEXIST = {"f": f"{PEERS}/coexist", "n": f"{PEERS}/coexist-v0310", "v3": f"{PEERS}/coexist-bbr3"}
COEXIST_BDP = ("0.1", "1", "2", "4", "8", "16")
# (label, source, config) of the BBR-like flow beside cubic
COEXIST_CCS = (("bbr_a_fair", "n", "bbr_a_fair"), ("bbr", "f", "bbr"), ("bbr3", "v3", "bbr3"))

# BBRv3 on the grids of the README's headline tables, beside the runs those tables show:
# bbr_a_fair's (its defaults, config def: the current release's runs) and bbr's
OWN = {"g": "docs/results/fair-gains-uml/grid-30s/screen_runs.csv",
       "p": f"{CURRENT}/own-30s/screen_runs.csv", "v3": f"{PEERS}/own-30s-bbr3"}
OWN_POINTS = (("b0.1", "10 vs 50 ms, 0.1 BDP"), ("b0.2", "10 vs 50 ms, 0.2 BDP"),
              ("b0.5", "10 vs 50 ms, 0.5 BDP"), ("b1", "10 vs 50 ms, 1 BDP"),
              ("b5", "10 vs 50 ms, 5 BDP"), ("b20", "10 vs 50 ms, 20 BDP"),
              ("r20", "10 vs 20 ms, 5 BDP"), ("r100", "10 vs 100 ms, 5 BDP"),
              ("l6-b5", "10 vs 50 ms, 5 BDP, 6 % loss"))
# (label, source, config) of each cc's own-kind runs
OWN_CCS = (("bbr_a_fair", "p", "def"), ("bbr3", "v3", "bbr3"), ("bbr", "g", "bbr"))
# the wide list: bbr_a_fair's runs of it (sl), bbr's of the wide grid (60 s points only: its
# ten-flow runs are 40 s long), bbr3's (60 s points and m10-b2 in one tree)
WIDE = {"w": f"{CURRENT}/wide-60s/screen_runs.csv",
        "m": "docs/results/paths-uml/hosts-v1000/screen_runs.csv",
        "r": "docs/results/fairness-wide-uml/rtt-60s/screen_runs.csv", "v3": f"{PEERS}/wide-bbr3"}
WIDE_POINTS = (("x30-b1", "5 vs 150 ms, 1 BDP"), ("x30-b5", "5 vs 150 ms, 5 BDP"),
               ("c3-b2", "10, 30, 90 ms, 2 BDP"), ("c3-b5", "10, 30, 90 ms, 5 BDP"),
               ("c4-b2", "10, 20, 50, 100 ms, 2 BDP"),
               ("m10-b2", "10 vs 60 ms, 10 flows each, 2 BDP"))
GRID200 = "docs/results/coexistence-uml/grid-200s/screen_runs.csv"
CUBIC = {"p": f"{CURRENT}/cubic/screen_runs.csv", "v3": f"{PEERS}/cubic-200s-bbr3", "g": GRID200}
CUBIC_POINTS = tuple((f"{p}{b}", rtt, b) for p, rtt in (("c", "20 ms"), ("d", "50 ms"))
                     for b in ("0.5", "1", "2", "5", "10", "20"))


def _references(path, scenario, metric):
    """metric's values over the runs of the reference screen at path (grid-200s: cubic
    alone and cubic against cubic) at scenario that are results."""
    return [v for v in values([r for r in load_runs(os.path.join(REPO, path))
                               if r["scenario"] == scenario and not r["problems"]], metric)
            if v is not None]


def harm_to_cubic(ref=GRID200):
    """A cell function: the runs' harm to their cubic flow (the second), (x_solo - x_with) /
    x_solo per run, x_solo the mean of ref's cubic-alone throughput at the runs' point (as
    the README's block computes bbr_a_fair's)."""
    def cell(runs):
        good = [r for r in runs if not r["problems"]]
        solo = _references(ref, good[0]["scenario"], "solo_mbps") if good else []
        if not solo:
            return "-"
        x = sum(solo) / len(solo)
        m, h = mean_ci95([(x - t) / x for t in values(good, "tput1") if t is not None])
        return "-" if m is None else f"{m:.2f}" + ("" if h is None else f" +- {h:.2f}")
    return cell


def self_harm_bar(ref=GRID200):
    """A cell function: the harm bar at the runs' point, ref's mean cubic-against-cubic
    self-harm there + 0.1."""
    def cell(runs):
        good = [r for r in runs if not r["problems"]]
        sh = _references(ref, good[0]["scenario"], "self_harm") if good else []
        return f"{sum(sh) / len(sh) + 0.1:.2f}" if sh else "-"
    return cell


# cubic alone at the grid's points: grid-200s's on 6.1 (the harm's x_solo), and on bbr3's kernel
SOLO = {"g": GRID200, "v3": f"{PEERS}/solo-200s-bbr3"}


# the control for the kernel move (issue 49): the same module source on the default UML 6.1
# kernel (k61) and on the plain UML 6.12 one (k612: BBR_A_UML_SERIES=6.12, no patch, its bbr
# BBRv1), each kernel's own-kind screen (own) and CUBIC screen (cub)
PLAIN = f"{PEERS}/plain612"
PLAIN_SRC = {f"{kind}{k}": f"{PLAIN}/k{k}/{d}" for k in ("61", "612")
             for kind, d in (("own", "own-30s"), ("cub", "cubic-200s"))}
PLAIN_ROWS = [([label, cc], {"src": "own", "config": cc, "scenario": s})
              for s, label in (("b0.1", "10 vs 50 ms, 0.1 BDP"), ("b5", "10 vs 50 ms, 5 BDP"),
                               ("r100", "10 vs 100 ms, 5 BDP"))
              for cc in ("bbr", "bbr_a_fair")] + [
             ([label, f"{cc} vs cubic"], {"src": "cub", "config": cc, "scenario": s})
             for s, label in (("c1", "20 ms, 1 BDP"), ("c10", "20 ms, 10 BDP"))
             for cc in ("bbr_a_fair", "bbr", "cubic")]


def _plain_cols(header, metric, digits=3, scale=1):
    return [Col(f"{header}, {v}", metric, digits, scale,
                src={"own": f"own{k}", "cub": f"cub{k}"}) for k, v in (("61", "6.1"), ("612", "6.12"))]


# bbr_a_fair against bbr3 in both orders of start (testbed/scenarios/peer-order.ini): the
# config's first cc starts at 0 s, its second at 10 s; both on bbr3's kernel
ORDER = {"o": f"{PEERS}/order-bbr3"}
ORDER_POINTS = (("o20-b1", "20 ms", "1"), ("o20-b2", "20 ms", "2"), ("o20-b5", "20 ms", "5"),
                ("o20-b10", "20 ms", "10"), ("o50-b2", "50 ms", "2"), ("o50-b10", "50 ms", "10"))
FAIR_FIRST, V3_FIRST = "bbr_a_fair+bbr3", "bbr3+bbr_a_fair"


# bbr3 under the changing-paths conditions (testbed/scenarios/path-conditions.ini, own kind,
# 10 vs 50 ms), beside bbr_a_fair's runs of docs/paths.md's blocks
CONDS = {"f": COND["o"], "v3": f"{PEERS}/conditions-bbr3"}
CONDS_COLS = [Col(f"{header}, {label} at {b} BDP", metric, digits, src=src, config=cfg,
                  scenario=lambda c, b=b: f"{c}-b{b}")
              for header, metric, digits, buffers, labels in (
                  ("Jain", "jain", 3, ("5", "0.5"), ("bbr3", "bbr_a_fair")),
                  ("queue ms", "qdelay_mean_ms", 1, ("5",), ("bbr3", "bbr_a_fair")),
                  ("utilisation", "utilization", 3, ("5",), ("bbr3",)))
              for b in buffers
              for label, src, cfg in (("bbr3", "v3", "bbr3"), ("bbr_a_fair", "f", "bbr_a_fair"))
              if label in labels]


KERNELS = ("bbr3 ran on the UML 6.12.117 kernel with the BBRv3 patch, bbr_a_fair and bbr on "
           "UML 6.1.192")

PEERS_CUBIC_WHAT = (
    "mean +- 95 % CI half-width over the seeds; one flow of each cc against one cubic flow, "
    "same RTT, 100 Mbit/s, 200 s measured from 60 s; share: of the two flows' throughput; "
    "harm: (x_solo - x_with) / x_solo of cubic's throughput (Ware et al.), computed against "
    "the mean of grid-200s's cubic-alone runs (6.1.192) at the point, bbr's against its own "
    "screen's, per seed; bar: grid-200s's cubic-against-cubic self-harm there, + 0.1; "
    "bbr_a_fair's defaults; " + KERNELS)

PLAIN_WHAT = ("mean +- 95 % CI half-width over the seeds; the same tcp_bbr_a source on the "
             "default UML 6.1 kernel and on the plain UML 6.12 one (BBR_A_UML_SERIES=6.12: "
             "Debian's 6.12.117 without the BBRv3 patch, its bbr BBRv1); own kind: two flows "
             "of one cc, one per RTT, 100 Mbit/s, 30 s measured from 5 s; against cubic: one "
             "flow of each cc (two of cubic), 20 ms, 100 Mbit/s, 200 s measured from 60 s; "
             "share: the first cc's of the two flows' throughput (- in own-kind runs); queue "
             "delay: the sampler's, which the CUBIC runs (--sample-ms 0, as peers-cubic's) "
             "do not record (-)")

PEERS_BLOCKS = {
    "peers-plain612": Table(PLAIN_SRC, ["point", "cc"], PLAIN_ROWS, [
        *_plain_cols("Jain", "jain"), *_plain_cols("first cc's share %", "share0", 1, 100)],
        what=PLAIN_WHAT),
    "peers-plain612-queue": Table(PLAIN_SRC, ["point", "cc"], PLAIN_ROWS, [
        *_plain_cols("queue delay ms", "qdelay_mean_ms", 1),
        *_plain_cols("retransmitted %", "retrans_rate", 2, 100)],
        what=PLAIN_WHAT),
    "peers-own": Table(OWN, ["cc", "scenario"], [
        ([cc, label], {"src": src, "config": cfg, "scenario": s})
        for s, label in OWN_POINTS for cc, src, cfg in OWN_CCS], [
        Col("runs", "runs"), Col("Jain", "jain"), Col("utilisation", "utilization"),
        Col("retransmitted %", "retrans_rate", 2, 100), Col("queue delay ms", "qdelay_mean_ms", 1)],
        what="mean +- 95 % CI half-width over the seeds; two flows of one cc, one per RTT, "
             "100 Mbit/s, 30 s measured from 5 s; bbr_a_fair's defaults, bbr (the kernel's) from "
             "an earlier screen of the grid; " + KERNELS,
        seed_notes=False),
    "peers-wide": Table(WIDE, ["cc", "scenario"], [
        ([cc, label], {"src": src, "config": cfg, "scenario": s})
        for s, label in WIDE_POINTS
        for cc, src, cfg in (("bbr_a_fair", "m" if s == "m10-b2" else "w",
                              "bbr_a_fair" if s == "m10-b2" else "def"),
                             ("bbr3", "v3", "bbr3"), ("bbr", "r", "bbr"))
        if not (cc == "bbr" and s == "m10-b2")], [
        Col("runs", "runs"), Col("Jain", "jain"), Col("worst Jain", "jain", extreme="min"),
        Col("utilisation", "utilization"), Col("retransmitted %", "retrans_rate", 2, 100),
        Col("queue delay ms", "qdelay_mean_ms", 1)],
        what="mean +- 95 % CI half-width over the seeds; one flow per RTT class (ten at "
             "m10-b2), 100 Mbit/s, 60 s measured from 5 s (m10-b2: 90 s from 30 s); Jain over "
             "every flow; bbr_a_fair's defaults (m10-b2: the runs of docs/paths.md's "
             "separate-host table, 3 seeds), bbr from the wide grid (its ten-flow runs, 40 s long, not "
             "shown); " + KERNELS, seed_notes=False),
    "peers-solo": Table(SOLO, ["RTT", "buffer, BDP"], [
        ([rtt, b], {"scenario": "s" + s[1:] if s[0] == "c" else "t" + s[1:]})
        for s, rtt, b in CUBIC_POINTS], [
        Col("cubic alone on 6.1.192, Mbit/s", "tput0", 2, src="g", config="cubic"),
        Col("cubic alone on 6.12.117 with the BBRv3 patch, Mbit/s", "tput0", 2, src="v3",
            config="cubic")],
        what="mean +- 95 % CI half-width over the seeds; one cubic flow alone, 100 Mbit/s, "
             "200 s measured from 60 s; grid-200s's runs (the harm's x_solo in peers-cubic) "
             "and one seed on the kernel bbr3 ran on", seed_notes=False),
    "peers-cubic": Table(CUBIC, ["RTT", "buffer, BDP"], [
        ([rtt, b], {"scenario": s}) for s, rtt, b in CUBIC_POINTS], [
        Col("bbr_a_fair's share %", "share0", 1, 100, src="p", config="def"),
        Col("its harm to cubic (computed)", fn=harm_to_cubic(), src="p", config="def"),
        Col("bbr3's share %", "share0", 1, 100, src="v3", config="bbr3"),
        Col("its harm to cubic (computed)", fn=harm_to_cubic(), src="v3", config="bbr3"),
        Col("bar: cubic's self-harm + 0.1", fn=self_harm_bar(), src="p", config="def")],
        what=PEERS_CUBIC_WHAT),
    "peers-cubic-jain": Table(CUBIC, ["RTT", "buffer, BDP"], [
        ([rtt, b], {"scenario": s}) for s, rtt, b in CUBIC_POINTS], [
        Col("Jain, bbr_a_fair", "jain", src="p", config="def"),
        Col("Jain, bbr3", "jain", src="v3", config="bbr3"),
        Col("worst Jain, bbr3", "jain", extreme="min", src="v3", config="bbr3"),
        Col("bbr's share %", "share0", 1, 100, src="g", config="bbr"),
        Col("Jain, bbr", "jain", src="g", config="bbr"),
        Col("bbr's harm to cubic", "harm", 2, src="g", config="bbr")],
        what=PEERS_CUBIC_WHAT),

    "peers-order": Table(ORDER, ["RTT", "buffer, BDP"], [
        ([rtt, b], {"src": "o", "scenario": s}) for s, rtt, b in ORDER_POINTS], [
        Col("runs, both orders", "runs"),
        # shares are per class, in the item's order: bbr_a_fair's is the first when it
        # starts first, the second when bbr3 does
        Col("bbr_a_fair's share %, it first", "share0", 1, 100, config=FAIR_FIRST),
        Col("bbr_a_fair's share %, it second", "share1", 1, 100, config=V3_FIRST),
        Col("Jain, bbr_a_fair first", "jain", config=FAIR_FIRST),
        Col("Jain, bbr3 first", "jain", config=V3_FIRST),
        Col("worst Jain, either order", "jain", extreme="min")],
        what="mean +- 95 % CI half-width over the seeds; one flow of bbr_a_fair and one of "
             "bbr3, the same RTT, 100 Mbit/s, 120 s measured from 30 s; the flow named first "
             "starts at 0 s, the other at 10 s (testbed/scenarios/peer-order.ini); share: "
             "bbr_a_fair's of the two flows' throughput; worst Jain: the lowest run of both "
             "orders; both flows ran on the UML 6.12.117 kernel with the BBRv3 patch"),
    "peers-conditions": Table(CONDS, ["path"], [([label], {"src": "v3", "scenario": c})
                                                for c, label in CONDITIONS], CONDS_COLS,
        what="mean +- 95 % CI half-width over the seeds, bbr3's 1..5, bbr_a_fair's 1..3; two "
             "flows of one cc, one at 10 ms and one at 50 ms, 100 Mbit/s, 60 s measured from "
             "20 s (testbed/scenarios/path-conditions.ini); queue: the sampler's mean queueing "
             "delay; bbr_a_fair's runs are docs/paths.md's (on UML 6.1.192), bbr3's ran on the UML 6.12.117 kernel with the BBRv3 "
             "patch", seed_notes=False),
    "peers-coexist": Table(COEXIST, ["buffer, BDP"], [
        ([b], {"scenario": f"b{b}"}) for b in COEXIST_BDP], [
        *(Col(f"{cc}'s share %", "share0", 1, 100, src=src, config=cfg)
          for cc, src, cfg in COEXIST_CCS),
        *(Col(f"Jain, {cc}", "jain", 3, src=src, config=cfg) for cc, src, cfg in COEXIST_CCS)],
        what="mean +- 95 % CI half-width over the seeds; one flow of the BBR-like cc and one "
             "cubic flow, both 30 ms, 50 Mbit/s, 180 s measured from 30 s (nsperf's "
             "coexist test); share: the first flow's share of both flows' throughput; bbr3 "
             "ran on the UML 6.12 kernel with the BBRv3 patch, the others on UML 6.1"),
}
