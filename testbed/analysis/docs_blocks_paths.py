"""The generated blocks of docs/paths.md: the congestion controls on paths that change
(testbed/scenarios/route-change*.ini, run by screen.sh into docs/results/paths-uml/).
docs_blocks.py adds PATHS_BLOCKS to its BLOCKS; this module imports nothing from it."""
from .docs import Col, Table
from .tables import values

PATHS = "docs/results/paths-uml"
# bbr_a_fair's runs on the current release (v, sv); the kernel's bbr and cubic, whose packets
# the module does not change, from earlier screens (n, s)
ROUTE = {"v": f"{PATHS}/route-v0310", "n": f"{PATHS}/route"}
SOLO = {"sv": f"{PATHS}/route-solo-v0310", "s": f"{PATHS}/route-solo"}

# (point, what happens to the paths); the static-* points have the new RTTs from the start
ROUTE_POINTS = (
    ("up5", "short path 10 -> 15 ms"), ("static-15", "15 / 50 ms from the start"),
    ("up15", "short path 10 -> 25 ms"), ("static-25", "25 / 50 ms from the start"),
    ("up20", "short path 10 -> 30 ms"), ("static-30", "30 / 50 ms from the start"),
    ("up100", "short path 10 -> 110 ms"), ("static-110", "110 / 50 ms from the start"),
    ("all-up20", "both paths +20 ms"), ("static-30-70", "30 / 70 ms from the start"),
    ("down20", "short path 30 -> 10 ms"), ("static-10", "10 / 50 ms, no change"))
# (header, source, config) of the columns: bbr_a_fair, bbr, cubic
ROUTE_CCS = (("bbr_a_fair", "v", "bbr_a_fair"), ("bbr", "n", "bbr"), ("cubic", "n", "cubic"))
ROUTE_WHAT = ("mean +- 95 % CI half-width over the seeds; 10 vs 50 ms, 100 Mbit/s, a 5 BDP "
              "buffer of the starting paths, the change at 20 s, measured over 50..119 s "
              "(from 30 s after the change); '-': not run")


def route_table(metric, digits, worst=False):
    """A row per point of route-change.ini, a column per cc: metric's mean (and, with
    worst, bbr_a_fair's worst run)."""
    cols = [Col(h, metric, digits, src=src, config=cfg) for h, src, cfg in ROUTE_CCS]
    if worst:
        cols.insert(1, Col("bbr_a_fair, worst run", metric, digits, extreme="min", src="v",
                           config="bbr_a_fair"))
    return Table(ROUTE, ["paths"], [([what], {"scenario": pt}) for pt, what in ROUTE_POINTS],
                 cols, what=ROUTE_WHAT)


HOSTS = {"w": f"{PATHS}/hosts-v1000", "n": f"{PATHS}/hosts-netns"}
HOSTS_POINTS = (("b5", "10 vs 50 ms, 5 BDP"), ("b0.5", "10 vs 50 ms, 0.5 BDP"),
                ("m10-b2", "10 vs 60 ms, 2 BDP, 10 flows per class"),
                ("m50-b2", "10 vs 60 ms, 2 BDP, 50 flows per class"))
HOSTS_CFGS = (("wall clock", "w", "bbr_a_fair"), ("own phase", "n", "bbr_a_fair-netns"))


def hosts_table():
    """A row per point, Jain and queue delay with the grid on the wall clock (this release) and
    with each sender namespace on a phase of its own (commit 43a3dea4)."""
    cols = []
    for metric, name, digits in (("jain", "Jain", 3), ("qdelay_mean_ms", "queue ms", 1)):
        cols += [Col(f"{name}, {h}", metric, digits, src=src, config=cfg)
                 for h, src, cfg in HOSTS_CFGS]
    return Table(HOSTS, ["point"], [([what], {"scenario": pt}) for pt, what in HOSTS_POINTS],
                 cols, what="mean +- 95 % CI half-width over the seeds; bbr_a_fair against its "
                 "own kind, 100 Mbit/s, 90 s measured from 30 s; wall clock: this release, its grid "
                 "on the wall clock, "
                 "which hosts whose clocks agree share; own phase: each sender namespace's "
                 "grid on a phase of its own, as hosts whose clocks disagree by more than a "
                 "dip (commit 43a3dea4)")


# this release's rtt_max window beside the build whose only difference is a 10 s one: the
# label and source suffix of each, and what the caption says of them (here and evaluations.md)
FADES = (("2.5 s", ""), ("10 s", "0"))
FADE_WHAT = ("2.5 s: this release; 10 s: an earlier release's build, whose code differs from "
             "this one's in that constant only")
MANY = {"a": f"{PATHS}/hosts-v1000", "b": f"{PATHS}/hosts-many-v1000",
        "a0": f"{PATHS}/hosts-one-v0300", "b0": f"{PATHS}/hosts-many-v0300"}


def many_hosts_table():
    """Fifty flows per class from one sender host per class and from ten, with this release
    and with a build whose rtt_max fades in 10 s, not 2.5 s."""
    return Table(MANY, ["senders", "rtt_max halves after"], [
        ([what, fade], {"src": src + sfx, "scenario": "m50-b2"})
        for src, what in (("a", "one host per class"), ("b", "10 hosts per class, 5 flows each"))
        for fade, sfx in FADES],
        [Col("Jain", "jain", 3), Col("worst Jain", "jain", 3, extreme="min"),
         Col("utilisation", "utilization", 3), Col("queue ms", "qdelay_mean_ms", 1)],
        what="mean +- 95 % CI half-width over the seeds; bbr_a_fair, 50 flows per class, 10 vs "
             "60 ms, 100 Mbit/s, 2 BDP, 90 s measured from 30 s; the PROBE_RTT grid on the "
             "wall clock; " + FADE_WHAT)


def route_loss_table():
    """The route change on a lossy link beside the same paths from the start."""
    return Table({"l": f"{PATHS}/route-loss", "f": f"{PATHS}/route-loss-v0310"}, ["paths", "cc"], [
        ([what, cc], {"src": src, "scenario": pt, "config": cc})
        for pt, what in (("up15-loss", "10 -> 25 ms at 20 s"), ("static-25-loss", "25 / 50 ms from the start"))
        for cc, src in (("bbr_a_fair", "f"), ("bbr", "l"))],
        [Col("runs", "runs"), Col("Jain", "jain", 3), Col("worst Jain", "jain", 3, extreme="min"),
         Col("the 10 (25) ms flow, Mbit/s", "tput0", 1), Col("utilisation", "utilization", 3)],
        what="mean +- 95 % CI half-width over the seeds; 10 vs 50 ms, 100 Mbit/s, a 5 BDP "
             "buffer of the starting paths, 0.5 % random loss after the bottleneck, measured "
             "over 50..119 s")


# bbr_a_fair's runs on the current release: against its own kind (o) and against cubic (y);
# the kernel's bbr and cubic, whose packets the module does not change, from earlier
# screens (c, x)
COND = {"c": f"{PATHS}/conditions", "o": f"{PATHS}/conditions-v0310",
        "x": f"{PATHS}/conditions-cubic-v0241", "y": f"{PATHS}/conditions-cubic-v0310"}
CONDITIONS = (("clean", "clean path"), ("jitter2", "jitter 2 ms"), ("jitter5", "jitter 5 ms"),
              ("jitter10", "jitter 10 ms"), ("ackagg", "ACKs in 2..8 ms slots"),
              ("offloads", "offloads on"), ("reverse", "one reverse flow per path"))
COND_CCS = ("bbr_a_fair", "bbr", "cubic")


def conditions_table(src, buffer, cols, what, conditions=CONDITIONS):
    """A row per condition of path-conditions*.ini at one buffer (BDP)."""
    return Table(COND, ["path"], [([w], {"src": src, "scenario": f"{c}-b{buffer}"})
                                  for c, w in conditions], cols, what=what)


def own_conditions(buffer):
    """Against its own kind (10 vs 50 ms): each cc's Jain, bbr_a_fair's utilisation and
    queue, bbr's queue."""
    return conditions_table("c", buffer, [
        Col(f"Jain, {cc}", "jain", 3, config=cc, **({"src": "o"} if cc == "bbr_a_fair" else {}))
        for cc in COND_CCS] + [
        Col("utilisation, bbr_a_fair", "utilization", 3, config="bbr_a_fair", src="o"),
        Col("queue ms, bbr_a_fair", "qdelay_mean_ms", 1, config="bbr_a_fair", src="o"),
        Col("queue ms, bbr", "qdelay_mean_ms", 1, config="bbr")],
        f"mean +- 95 % CI half-width over the seeds; 10 vs 50 ms, one flow each, 100 Mbit/s, "
        f"{buffer} BDP, 60 s measured from 20 s")


def worst_share(runs):
    """The share of the run farthest from an even split, and its seed ('0.284 (seed 5)'):
    the worst run whichever side of 0.5 it falls on."""
    xs = [(v, r.get("seed")) for r in runs for v in values([r], "share0") if v is not None]
    if not xs:
        return "-"
    v, seed = max(xs, key=lambda x: abs(x[0] - 0.5))
    return f"{v:.3f} (seed {seed})"


def cubic_conditions(buffer):
    """Against one CUBIC flow (20 ms): the share bbr_a_fair and bbr keep, each beside its
    worst run, and bbr_a_fair's Jain index beside cubic's against itself
    (path-conditions-cubic.ini has one jitter)."""
    cols = []
    for cc, src in (("bbr_a_fair", "y"), ("bbr", "x")):
        cols += [Col(f"share of {cc}", "share0", 3, config=cc, src=src),
                 Col(f"{cc}'s worst share", fn=worst_share, config=cc, src=src)]
    return conditions_table("x", buffer, cols + [
        Col("Jain, bbr_a_fair", "jain", 3, config="bbr_a_fair", src="y"),
        Col("Jain, cubic against cubic", "jain", 3, config="cubic")],
        f"mean +- 95 % CI half-width over the seeds; one bbr_a_fair (or bbr) flow and one "
        f"cubic flow (cubic: two), 20 ms, 100 Mbit/s, {buffer} BDP, 120 s measured from 40 s; "
        f"share: the first flow's of both flows' throughput; worst share: the run farthest "
        f"from 0.5, and its seed",
        [c for c in CONDITIONS if c[0] not in ("jitter2", "jitter5")])


CELL = {"c": f"{PATHS}/cellular", "ca": f"{PATHS}/cellular", "s": f"{PATHS}/cellular-solo",
        "cv": f"{PATHS}/cellular-v1000", "sv": f"{PATHS}/cellular-solo-v1000",
        "av": f"{PATHS}/cellular-att-v1000"}
CELL_ROWS = (("s", "verizon", "Verizon LTE, one 40 ms flow"), ("s", "att", "AT&T LTE, one 40 ms flow"),
             ("c", "verizon", "Verizon LTE, 20 vs 80 ms"), ("ca", "att", "AT&T LTE, 20 vs 80 ms"))
# bbr_a_fair's runs on the current release, by the row's source (its AT&T two-flow runs are
# the five seeds of cellular-att-v1000)
CELL_FAIR = {"s": "sv", "c": "cv", "ca": "av"}


def cellular_table():
    """A row per trace and flow set, per cc its throughput and the tail of the queueing
    delay its flows' RTTs show."""
    cols = []
    for cc in COND_CCS:
        src = {"src": CELL_FAIR} if cc == "bbr_a_fair" else {}
        cols += [Col(f"{cc}: Mbit/s", "tput_total", 2, config=cc, **src),
                 Col(f"{cc}: p95 delay ms", "rtt_queueing_p95_ms", 0, config=cc, **src)]
    return Table(CELL, ["trace, flows"], [([w], {"src": src, "scenario": sc})
                                          for src, sc, w in CELL_ROWS], cols,
                 what="mean +- 95 % CI half-width over the seeds; the bottleneck's rate "
                      "replayed from the trace in 100 ms bins, a 5 BDP buffer of its mean "
                      "rate (5 Mbit/s) at the longest RTT, 120 s measured from 10 s; Mbit/s: "
                      "all flows' throughput; p95 delay: the 95th percentile of srtt - base "
                      "RTT over every flow's ss samples (rtt_queueing_p95_ms)")


CELL_ATT = {"a": f"{PATHS}/cellular-att-v0241", "b": f"{PATHS}/cellular-att-v1000"}


def per_seed(metric, digits):
    """A cell function: the metric of each run (Col's fn gets the runs that are results),
    in the order of its seed."""
    def cell(runs):
        xs = values(sorted(runs, key=lambda r: int(r["seed"])), metric)
        return ", ".join(f"{x:.{digits}f}" for x in xs if x is not None) or "-"
    return cell


def cellular_att_table():
    """The AT&T two-flow row again, on the current release, five seeds: bbr_a_fair's and
    bbr's tail of the queueing delay, each seed's beside the mean."""
    return Table(CELL_ATT, ["cc"], [([cc], {"src": src, "scenario": "att", "config": cc})
                                    for cc, src in (("bbr_a_fair", "b"), ("bbr", "a"))], [
        Col("runs", "runs"), Col("Mbit/s", "tput_total", 2),
        Col("p95 delay ms", "rtt_queueing_p95_ms", 0),
        Col("p95 delay ms, by seed", fn=per_seed("rtt_queueing_p95_ms", 0))],
        what="mean +- 95 % CI half-width over the seeds; the AT&T LTE trace's rate in 100 ms "
             "bins, 20 vs 80 ms, a 5 BDP buffer of its mean rate (5 Mbit/s) at 80 ms, 120 s "
             "measured from 10 s; p95 delay: as in paths-cellular")


PATHS_BLOCKS = {
    "paths-cellular-att": cellular_att_table(),
    "paths-route-loss": route_loss_table(),
    "paths-hosts": hosts_table(),
    "paths-hosts-many": many_hosts_table(),
    "paths-conditions-b5": own_conditions(5),
    "paths-conditions-b0.5": own_conditions(0.5),
    "paths-conditions-cubic-b1": cubic_conditions(1),
    "paths-conditions-cubic-b10": cubic_conditions(10),
    "paths-cellular": cellular_table(),
    "paths-route-jain": route_table("jain", 3, worst=True),
    "paths-route-queue": route_table("qdelay_mean_ms", 1),
    "paths-route-solo": Table(SOLO, ["path"], [
        ([what], {"scenario": pt}) for pt, what in (("up20", "20 -> 40 ms at 20 s"),
                                                   ("static-40", "40 ms from the start"))],
        [Col("bbr_a_fair: queue delay ms", "qdelay_mean_ms", 1, src="sv", config="bbr_a_fair")] +
        [Col(f"{cc}: queue delay ms", "qdelay_mean_ms", 1, src="s", config=cc)
         for cc in ("bbr", "cubic")] +
        [Col("bbr_a_fair: utilisation", "utilization", 3, src="sv", config="bbr_a_fair")],
        what="mean +- 95 % CI half-width over the seeds; one flow, 50 Mbit/s, a buffer of 4 "
             "BDP of 20 ms, measured over 50..119 s"),
}
