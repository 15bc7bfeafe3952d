"""The generated blocks of two results READMEs that used to type their numbers:
docs/results/fair-gains-uml/README.md (the checks, the 60 s exploration of the gains and the
shallow-buffer variants) and docs/results/convergence-uml/README.md (Jain over growing
windows of the same 200 s runs). docs_blocks.py adds RESULTS_BLOCKS to its BLOCKS; this
module imports nothing from it, so either can change without the other."""
from .docs import Col, Table
from .stats import mean_ci95
from .tables import values
from .wall import first_flow_ahead, per_run, span

FG = "docs/results/fair-gains-uml"

# checks-30s: one summary.json per directory (testbed/rtt_fairness.sh --repeat 2)
CHECKS = ("lt20", "lt1000", "cap2000-16", "cap1000-8")


def module_params(runs):
    """A cell: the module parameters the runs were made with (one text if they agree)."""
    return ", ".join(sorted({r.get("module_params") or "defaults" for r in runs})) or "-"


EXPLORE = {"e": f"{FG}/explore-60s/screen_runs.csv"}
EXPLORE_SCEN = ("b0.1", "b0.2", "b0.5", "b5", "r100", "l1-b5", "l3-b5", "l6-b1", "l6-b5",
                "m3-b5")
EXPLORE_GAINS = ("fair", "fair_fixed", "fair_qphi")

SHALLOW = {"s": f"{FG}/shallow-30s/screen_runs.csv"}
SHALLOW_CFG = ("fair", "cap2-16", "cap1-8", "fq1", "hold")

CONV = "docs/results/convergence-uml"
WINDOW_ENDS = ("29", "59", "119", "199")


def window_means_span(metric, digits=3):
    """A cell: 'lowest .. highest' of the mean of metric per window end (window_end_s) over
    the row's runs: how far the mean moves as the window grows."""
    def text(runs):
        means = []
        for end in sorted({r["window_end_s"] for r in runs}, key=float):
            m, _ = mean_ci95(values([r for r in runs if r["window_end_s"] == end], metric))
            if m is not None:
                means.append(m)
        if not means:
            return "-"
        lo, hi = f"{min(means):.{digits}f}", f"{max(means):.{digits}f}"
        return lo if lo == hi else f"{lo} .. {hi}"
    return text


def windows_jain(path, configs):
    """Mean Jain over [5, E] s per configuration and window end E (a file with one row per
    run and window), and how far the mean utilisation moves over the windows."""
    return Table({"w": path}, ["config"], [([c], {"src": "w", "config": c}) for c in configs],
                 [Col(f"E = {e} s" if i == 0 else f"{e} s", "jain", window_end_s=e)
                  for i, e in enumerate(WINDOW_ENDS)]
                 + [Col("utilisation, lowest .. highest window", fn=window_means_span(
                     "utilization"))],
                 what="Jain's index over [5, E] s, mean +- 95 % CI half-width (t) over the "
                      "seeds; utilisation: its mean over the seeds in each window, lowest .. "
                      "highest of the four; the file has a row per run and window")


RESULTS_BLOCKS = {
    # docs/results/fair-gains-uml/README.md, checks-30s
    "fair-gains-checks-30s": Table(
        {d: f"{FG}/checks-30s/{d}/summary.json" for d in CHECKS}, ["directory"],
        [([d], {"src": d}) for d in CHECKS], [
            Col("module parameters", fn=module_params), Col("runs", "runs"),
            Col("Jain per run", fn=per_run("jain")),
            Col("10 ms flow Mbit/s", fn=per_run("tput0", 1)),
            Col("50 ms flow Mbit/s", fn=per_run("tput1", 1)),
            Col("10 ms flow ahead", fn=first_flow_ahead)],
        what="bbr_a_fair 0.3.0, 10 vs 50 ms, 1 BDP, 6 % loss, 30 s; each run's value in seed "
             "order; ahead: the runs where the 10 ms flow got more than the 50 ms flow",
        seed_notes=False),
    # explore-60s: the screen, and the loss scenarios' rounds
    "fair-gains-explore-60s": Table(EXPLORE, ["scenario", "gains"], [
        ([s, g], {"src": "e", "config": g, "scenario": s})
        for s in EXPLORE_SCEN for g in EXPLORE_GAINS], [
        Col("Jain", "jain"), Col("utilisation", "utilization"),
        Col("retransmitted %", "retrans_rate", 1, 100), Col("queue delay ms", "qdelay_mean_ms", 1)],
        what="60 s runs of bbr_a_fair with three gain rules, mean +- 95 % CI half-width over "
             "the seeds; queue: the bottleneck's, from tc samples every 100 ms"),
    "fair-gains-explore-60s-loss": Table(EXPLORE, ["scenario", "gains"], [
        ([s, g], {"src": "e", "config": g, "scenario": s})
        for s in ("l6-b1", "l6-b5") for g in EXPLORE_GAINS], [
        Col("queue delay ms", "qdelay_mean_ms", 1),
        Col("10 ms flow cwnd-limited %", "cwnd_limited0", 0, 100),
        Col("50 ms flow cwnd-limited %", "cwnd_limited1", 0, 100)],
        what="6 % random loss; cwnd-limited: share of the flow's PROBE_BW rounds from its "
             "gain trace; mean +- 95 % CI half-width over the seeds"),
    # shallow-30s
    "fair-gains-shallow-30s": Table(SHALLOW, ["config"], [
        ([c], {"src": "s", "config": c}) for c in SHALLOW_CFG], [
        Col("b0.1 Jain", "jain", scenario="b0.1"),
        Col("b0.1 retransmitted %", "retrans_rate", 2, 100, scenario="b0.1"),
        Col("b0.1 10 ms flow Mbit/s", fn=span("tput0", 1), scenario="b0.1"),
        Col("b0.1 50 ms flow Mbit/s", fn=span("tput1", 1), scenario="b0.1"),
        Col("b0.2 Jain", "jain", scenario="b0.2"),
        Col("b0.2 retransmitted %", "retrans_rate", 2, 100, scenario="b0.2"),
        Col("b5 Jain", "jain", scenario="b5"),
        Col("b5 queue ms", "qdelay_mean_ms", 1, scenario="b5"),
        Col("utilisation, every run", fn=span("utilization"))],
        what="mean +- 95 % CI half-width over the seeds; Mbit/s: the flow's throughput, lowest "
             ".. highest run; utilisation: lowest .. highest run of the configuration in all "
             "three scenarios"),
    # docs/results/convergence-uml/README.md
    "convergence-a086e61": windows_jain(f"{CONV}/convergence.csv",
                                        ("bbr", "bbr_a", "bbr_a_fair")),
    "convergence-aad7e6c": windows_jain(f"{CONV}/convergence-aad7e6c.csv",
                                        ("bbr", "bbq", "da_bbr", "bbr_a", "bbr_a_fair",
                                         "cubic")),
    "convergence-bbr_a-clients": Table({
        "w": f"{CONV}/convergence.csv",
        "g": "docs/results/fairness-grid-uml/screen_runs.csv"}, ["traffic", "window"], [
        (["tcpflow.py, the sink woken per 64 KB (a086e61, this page)", "[5, 29] s"],
         {"src": "w", "config": "bbr_a", "window_end_s": "29"}),
        (["the same", "[5, 199] s"], {"src": "w", "config": "bbr_a", "window_end_s": "199"}),
        (["iperf3 (fairness-grid-uml)", "[5, 29] s"],
         {"src": "g", "config": "bbr_a", "scenario": "b5"})], [
        Col("runs", "runs"), Col("Jain", "jain"), Col("lowest .. highest run", fn=span("jain"))],
        what="bbr_a 0.3.0, 10 vs 50 ms, 100 Mbit/s, 5 BDP; Jain's index, mean +- 95 % CI "
             "half-width over the seeds; convergence.csv has a row per run and window",
        seed_notes=False),
}
