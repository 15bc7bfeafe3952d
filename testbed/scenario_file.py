#!/usr/bin/python3
"""Scenario files: one experiment as data (testbed/scenarios/*.ini), turned into the options of
testbed/rtt_fairness.sh, which runs it like any other comparison (and so do screen.sh, its
Slurm path and reproduce.sh's screens).

    scenario_file.py options FILE [--point NAME] [--cc ITEMS]
        rtt_fairness.sh's options for FILE (one 'OPTION<TAB>VALUE' a line); --cc: the run's
        items when the command line gives them (else the file's [scenario] cc)
    scenario_file.py points FILE
        the names of FILE's points, one a line (none: FILE has no [point.*] sections)
    scenario_file.py check FILE...
        check each file and each of its points; exit 0, or 2 with one line per bad file

The format is INI (Python's configparser: no dependency, and the host's Python parses it;
the guest never sees the file, only scenario.sh's options). Sections and keys:

    [scenario]    description, duration (s, 30), warmup (s, 5), cooldown (s, 1),
                  cc (rtt_fairness.sh --cc items, comma separated; the command line's win),
                  jitter (s, 0), interval (s, 1), sample_ms (100), client (auto),
                  flent (a flent test as the traffic: tcp_1up, tcp_nup, rtt_fair_var_down;
                  its streams are the classes' flows: testbed/lib/flent.sh)
    [bottleneck]  rate (Mbit/s, required), buffer_bdp (x rate x the largest RTT, 5),
                  qdisc (bfifo, pfifo, red, codel, fq_codel), qdisc_opts (tc words),
                  rate_schedule (T:MBIT, ... the rate from T s after the first start),
                  rate_trace (a mahimahi trace replayed as the rate, its path relative to
                  the file's directory; rate then sizes the buffer), loss (percent, 0)
    [flows.NAME]  one sender class (namespace) per section, in file order: rtt (ms,
                  required), count (1), cc (this class's cc, fixed: the run's item then
                  names the other classes' only), start (s: one for all its flows, or one
                  per flow), end (s after the first start; 0: the run's end), size (bytes
                  each flow sends, then it ends; 0: until its end) or train (sizes of
                  connections one after another, each gap s after the previous completed:
                  seed 001's stream of short flows), gap (s, 0.1; the same for all trains),
                  delay_schedule (T:MS, ... this class's base RTT from T s after the first
                  start on: route changes, up and down)
    [paths]       what every sender path does besides its RTT (testbed/README.md, "Paths
                  that change"): delay_jitter (MS[:DIST][:reorder], RTT variation),
                  ack_aggregation (MIN_MS[:MAX_MS[:PACKETS]], ACKs released in bursts),
                  offloads (on or off, off: GSO and GRO at the end hosts),
                  reverse (N[:CC]: N bulk flows from the receiver to the senders),
                  hosts_per_class (N, 1: each class's flows spread round-robin over N
                  sender hosts, at most its count)
    [point.NAME]  a variant of the experiment: keys SECTION.KEY = value override the
                  sections' (bottleneck.buffer_bdp = 0.5); a file with points is run one
                  point at a time (rtt_fairness.sh --point, screen.sh's @FILE items)

Sizes are bytes, with K, M, G (10^3, 10^6, 10^9) or Ki, Mi, Gi (2^10 ...) after the number.
A bad file is one line, 'FILE: [section] key: what is wrong', before anything runs.
"""
import configparser
import os
import re
import sys

import cli_frame
import rate_trace

QDISCS = ("bfifo", "pfifo", "red", "codel", "fq_codel")
FLENT_TESTS = ("tcp_1up", "tcp_nup", "rtt_fair_var_down")
CLIENTS = ("auto", "tcpflow", "iperf3")
KEYS = {
    "scenario": {"description", "duration", "warmup", "cooldown", "cc", "jitter", "interval",
                 "sample_ms", "client", "flent"},
    "bottleneck": {"rate", "buffer_bdp", "qdisc", "qdisc_opts", "rate_schedule", "rate_trace",
                   "loss"},
    "flows": {"rtt", "count", "cc", "start", "end", "size", "train", "gap", "delay_schedule"},
    "paths": {"delay_jitter", "ack_aggregation", "offloads", "reverse", "hosts_per_class"},
}
JITTER_DISTS = ("uniform", "normal", "pareto", "paretonormal")
UNITS = {"": 1, "K": 10 ** 3, "M": 10 ** 6, "G": 10 ** 9, "KI": 2 ** 10, "MI": 2 ** 20,
         "GI": 2 ** 30}
CC_NAME = re.compile(r"^[a-z][a-z0-9_]{0,14}$")
NUMBER = re.compile(r"^([0-9]+([.][0-9]*)?|[.][0-9]+)$")


class ScenarioError(Exception):
    """A bad scenario file: one line naming the file, section and key."""


class Field:
    """Where a value came from, for the error: its file, section and key (and point)."""

    def __init__(self, path, section, key, point=None):
        self.path, self.section, self.key, self.point = path, section, key, point

    def bad(self, what):
        where = f"[{self.section}] {self.key}" if self.key else f"[{self.section}]"
        if self.point:
            where += f" (point {self.point})"
        return ScenarioError(f"{self.path}: {where}: {what}")


def number(f, text, lo=None, hi=None, lo_open=False, whole=False):
    """A plain non-negative decimal (as the testbed's shell reads them) within [lo, hi]."""
    t = text.strip()
    if not NUMBER.match(t) or (whole and not t.isdigit()):
        raise f.bad(f"'{t}' is not a {'whole ' if whole else ''}number")
    v = float(t)
    if (lo is not None and (v <= lo if lo_open else v < lo)) or (hi is not None and v > hi):
        rng = f"{'>' if lo_open else '>='} {lo:g}" if lo is not None else ""
        rng += (" and " if rng and hi is not None else "") + (f"<= {hi:g}" if hi is not None else "")
        raise f.bad(f"'{t}' is out of range ({rng})")
    return t


def size(f, text):
    """Bytes from '30M', '100K', '1500', '64Ki'."""
    m = re.fullmatch(r"\s*([0-9]+([.][0-9]+)?)\s*([KMGkmg][Ii]?)?[Bb]?\s*", text)
    if not m:
        raise f.bad(f"'{text.strip()}' is not a size (bytes, or a number with K, M, G, Ki, Mi, Gi)")
    n = float(m.group(1)) * UNITS[(m.group(3) or "").upper()]
    if n != int(n):
        raise f.bad(f"'{text.strip()}' is not a whole number of bytes")
    return int(n)


def items(text):
    return [x.strip() for x in text.split(",")]


def cc_item(f, item, parts):
    """A --cc item: a cc, or one per class joined by '+' (parts of them)."""
    ps = item.split("+")
    if any(not CC_NAME.match(p) for p in ps):
        raise f.bad(f"'{item}' is not a congestion control name (or names joined by '+')")
    if len(ps) > 1 and len(ps) != parts:
        raise f.bad(f"'{item}' names {len(ps)} ccs; this file has {parts} class(es) without a "
                    "cc of their own")
    return ps


def read(path):
    """The file's sections as {section: {key: value}}, in file order."""
    cp = configparser.ConfigParser(interpolation=None, inline_comment_prefixes=(";", "#"),
                                   default_section="\0none")
    cp.optionxform = str
    try:
        with open(path) as fh:
            cp.read_file(fh)
    except OSError as e:
        raise ScenarioError(f"{path}: cannot read ({e.strerror})")
    except configparser.Error as e:
        raise ScenarioError(f"{path}: not an INI file: {' '.join(str(e).split())}")
    return {s: dict(cp[s]) for s in cp.sections()}


def points(path):
    """The names of the file's [point.NAME] sections, in file order."""
    return [s[len("point."):] for s in read(path) if s.startswith("point.")]


def resolve(path, point=None):
    """The file's sections with one point's overrides applied: {section: {key: value}}."""
    secs = read(path)
    names = [s[len("point."):] for s in secs if s.startswith("point.")]
    for s in secs:
        kind = s.split(".", 1)[0]
        if kind not in KEYS and kind != "point":
            raise Field(path, s, None).bad("unknown section (scenario, bottleneck, flows.NAME, "
                                           "paths, point.NAME)")
        if kind in ("flows", "point") and not s.partition(".")[2]:
            raise Field(path, s, None).bad(f"a {kind} section needs a name: [{kind}.NAME]")
        if kind in KEYS and kind != "flows" and "." in s:
            raise Field(path, s, None).bad(f"[{kind}] takes no name")
        for k in secs[s] if kind in KEYS else ():
            if k not in KEYS[kind]:
                raise Field(path, s, k).bad(f"unknown key (known: {', '.join(sorted(KEYS[kind]))})")
    if point is None and names:
        raise ScenarioError(f"{path}: has points ({', '.join(names)}): name one (--point)")
    if point is not None:
        if point not in names:
            raise ScenarioError(f"{path}: no point '{point}'"
                                + (f" (it has: {', '.join(names)})" if names else " (it has none)"))
        for k, v in secs[f"point.{point}"].items():
            sec, dot, key = k.rpartition(".")
            f = Field(path, f"point.{point}", k)
            if not dot or sec not in secs or sec.startswith("point."):
                raise f.bad("not SECTION.KEY of a section of the file (bottleneck.loss)")
            if key not in KEYS[sec.split(".", 1)[0]]:
                raise f.bad(f"[{sec}] has no key '{key}'")
            secs[sec][key] = v
    return {s: v for s, v in secs.items() if not s.startswith("point.")}


def delay_schedule(f, text, cls, duration):
    """[(T, cls, T text, MS text)] of a class's delay_schedule (T:MS, ... times increasing
    within the run, MS a delay as rtt's); [] when there is none."""
    out, prev = [], 0.0
    for it in items(text) if text.strip() else []:
        t, colon, ms = it.partition(":")
        if not colon or ":" in ms:
            raise f.bad(f"'{it}' is not T:MS")
        tv = float(number(f, t, 0, duration, lo_open=True))
        if tv <= prev or tv >= duration:
            raise f.bad(f"'{it}': times must increase and lie within the run (< {duration:g} s)")
        number(f, ms, 0, 10000, lo_open=True)
        prev = tv
        out.append((tv, cls, t.strip(), ms.strip()))
    return out


def trace_option(F, path, bn):
    """--rate-trace of [bottleneck] rate_trace (relative to the file's directory), the trace
    checked as rtt_fairness.sh will read it; [] without one."""
    text = bn.get("rate_trace", "").strip()
    if not text:
        return []
    f = F("bottleneck", "rate_trace")
    if bn.get("rate_schedule", "").strip():
        raise f.bad("give rate_trace or rate_schedule, not both")
    trace = os.path.join(os.path.dirname(os.path.abspath(path)), text)
    try:
        rate_trace.read_trace(trace)
    except rate_trace.TraceError as e:
        raise f.bad(str(e))
    return [("--rate-trace", os.path.normpath(trace))]


def path_options(F, p, rtts):
    """rtt_fairness.sh's options of the [paths] section p (rtts: the classes' RTTs, text)."""
    out = []
    if p.get("delay_jitter", "").strip():
        f, text = F("paths", "delay_jitter"), p["delay_jitter"].strip()
        ms, *rest = text.split(":")
        if rest and rest[-1] == "reorder":
            rest.pop()
        if len(rest) > 1 or (rest and rest[0] not in JITTER_DISTS):
            raise f.bad(f"'{text}' is not MS[:DIST][:reorder] (DIST: {', '.join(JITTER_DISTS)})")
        number(f, ms, 0, min(float(r) for r in rtts), lo_open=True)
        out.append(("--delay-jitter", text))
    if p.get("ack_aggregation", "").strip():
        f, text = F("paths", "ack_aggregation"), p["ack_aggregation"].strip()
        parts = text.split(":")
        if len(parts) > 3:
            raise f.bad(f"'{text}' is not MIN_MS[:MAX_MS[:PACKETS]]")
        hi = float(number(f, parts[1] if len(parts) > 1 else parts[0], 0, 1000, lo_open=True))
        number(f, parts[0], 0, hi)
        if len(parts) == 3:
            number(f, parts[2], 1, 100000, whole=True)
        out.append(("--ack-aggregation", text))
    off = p.get("offloads", "off").strip()
    if off not in ("on", "off"):
        raise F("paths", "offloads").bad(f"'{off}' is not on or off")
    if off == "on":
        out.append(("--offloads", "on"))
    if p.get("reverse", "").strip():
        f, text = F("paths", "reverse"), p["reverse"].strip()
        n, colon, cc = text.partition(":")
        if colon and not CC_NAME.match(cc):
            raise f.bad(f"'{text}' is not N[:CC] (CC a congestion control name)")
        number(f, n, 1, 100, whole=True)
        out.append(("--reverse", text))
    return out


def hosts_option(f, p, classes, counts, flent):
    """--hosts-per-class of [paths] hosts_per_class (p: that section): a whole number of
    hosts, 1..64 (the testbed's address plan), at most the flows of any class; [] for 1."""
    text = p.get("hosts_per_class", "").strip()
    if not text:
        return []
    n = int(number(f, text, 1, 64, whole=True))
    for name, count in zip(classes, counts):
        if count < n:
            raise f.bad(f"{n} hosts for [{name}], which has {count} flow(s)")
    if n > 1 and flent:
        raise f.bad(f"flent's test {flent} makes the flows, from one host per class")
    return [] if n == 1 else [("--hosts-per-class", str(n))]


def per_flow(f, text, n, conv):
    """One value for all n flows of a class, or a comma separated one per flow."""
    vals = items(text)
    if len(vals) == 1:
        vals = vals * n
    if len(vals) != n:
        raise f.bad(f"give one value or one per flow ({n}), not {len(vals)}")
    return [conv(v) for v in vals]


def table_order(counts):
    """(class index, flow within it) of every flow, in the order scenario.sh's flow table
    numbers them: the classes alternate, a class leaving the rotation when its flows are
    placed (testbed/lib/flows.sh)."""
    return [(k, r) for r in range(max(counts)) for k, c in enumerate(counts) if r < c]


def scenario_options(F, sc):
    """rtt_fairness.sh's options of the [scenario] section sc, and what the other sections'
    checks need of it: (options, duration in s, client, flent test or '')."""
    out = []
    duration = float(number(F("scenario", "duration"), sc.get("duration", "30"), 1, 100000,
                            whole=True))
    out.append(("--duration", sc.get("duration", "30").strip()))
    for key, opt, dflt in (("warmup", "--warmup", None), ("cooldown", "--cooldown", None),
                           ("jitter", "--jitter", None), ("interval", "--interval", None)):
        if key in sc:
            number(F("scenario", key), sc[key], 0, duration)
            out.append((opt, sc[key].strip()))
    if "sample_ms" in sc:
        out.append(("--sample-ms", number(F("scenario", "sample_ms"), sc["sample_ms"], 0, 60000,
                                          whole=True)))
    client = sc.get("client", "auto").strip()
    if client not in CLIENTS:
        raise F("scenario", "client").bad(f"'{client}' is not {', '.join(CLIENTS)}")
    if "client" in sc:
        out.append(("--client", client))
    flent = sc.get("flent", "").strip()
    if flent and flent not in FLENT_TESTS:
        raise F("scenario", "flent").bad(f"'{flent}' is not {', '.join(FLENT_TESTS)}")
    if flent:
        out.append(("--flent", flent))
    return out, duration, client, flent


def bottleneck_options(F, bn, duration):
    """rtt_fairness.sh's options of the [bottleneck] section bn but its rate trace
    (trace_option)."""
    out = []
    if "rate" not in bn:
        raise F("bottleneck", "rate").bad("missing (Mbit/s)")
    out.append(("--rate", number(F("bottleneck", "rate"), bn["rate"], 0, 100000, lo_open=True)))
    if "buffer_bdp" in bn:
        out.append(("--buffer-bdp", number(F("bottleneck", "buffer_bdp"), bn["buffer_bdp"], 0,
                                           10000, lo_open=True)))
    if "loss" in bn:
        v = number(F("bottleneck", "loss"), bn["loss"], 0)
        if float(v) >= 100:
            raise F("bottleneck", "loss").bad(f"'{v}' is not a percentage below 100")
        out.append(("--loss", v))
    q = bn.get("qdisc", "bfifo").strip()
    if q not in QDISCS:
        raise F("bottleneck", "qdisc").bad(f"'{q}' is not {', '.join(QDISCS)}")
    if q != "bfifo":
        out.append(("--qdisc", q))
    if bn.get("qdisc_opts", "").strip():
        o = " ".join(bn["qdisc_opts"].split())
        if not re.fullmatch(r"[a-z0-9_. ]+", o):
            raise F("bottleneck", "qdisc_opts").bad(f"'{o}' is not tc options (letters, digits, "
                                                     ". and _)")
        out.append(("--qdisc-opts", o))
    if bn.get("rate_schedule", "").strip():
        out.append(("--rate-schedule", rate_schedule(F("bottleneck", "rate_schedule"),
                                                     bn["rate_schedule"], duration)))
    return out


def rate_schedule(f, text, duration):
    """[bottleneck] rate_schedule, T:MBIT,... in increasing times within the run, as
    rtt_fairness.sh's --rate-schedule."""
    prev, sched = -1.0, []
    for it in items(text):
        t, colon, r = it.partition(":")
        if not colon:
            raise f.bad(f"'{it}' is not T:MBIT")
        tv = float(number(f, t, 0, duration))
        if tv <= prev or tv >= duration:
            raise f.bad(f"'{it}': times must increase and lie within the run (< {duration:g} s)")
        number(f, r, 0, 100000, lo_open=True)
        prev = tv
        sched.append(f"{t.strip()}:{r.strip()}")
    return ",".join(sched)


def flow_times(F, s, c, n, duration):
    """The start and end (s, 0: the run's end) of each of the n flows of class s (section
    c), each flow starting before the run's last half second and lasting half a second."""
    st = per_flow(F(s, "start"), c.get("start", "0"), n,
                  lambda v, f=F(s, "start"): float(number(f, v, 0, duration)))
    en = per_flow(F(s, "end"), c.get("end", "0"), n,
                  lambda v, f=F(s, "end"): float(number(f, v, 0, duration)))
    for a, b in zip(st, en):
        if a > duration - 0.5:
            raise F(s, "start").bad(f"{a:g} s: a flow must start before the last half second "
                                    f"of the run ({duration:g} s)")
        if b and b < a + 0.5:
            raise F(s, "end").bad(f"{b:g} s: a flow must end at least half a second after "
                                  f"its start ({a:g} s)")
    return st, en


def flow_sizes(F, s, c, n, client):
    """(sizes, gap) of the n flows of class s (section c): a size each ('0': until its end),
    or one train B1/B2/... for all with its gap (None without a train)."""
    if "size" in c and "train" in c:
        raise F(s, "train").bad("give size or train, not both")
    if "train" in c:
        tr = [size(F(s, "train"), v) for v in items(c["train"])]
        if min(tr) < 1:
            raise F(s, "train").bad("a train's sizes are at least 1 byte")
        if client == "iperf3":
            raise F(s, "train").bad("a train needs client tcpflow (python3), not iperf3")
        return ["/".join(map(str, tr))] * n, number(F(s, "gap"), c.get("gap", "0.1"), 0, 60)
    if "gap" in c:
        raise F(s, "gap").bad("only a train has a gap")
    return per_flow(F(s, "size"), c.get("size", "0"), n,
                    lambda v, f=F(s, "size"): str(size(f, v))), None


def flow_class(F, s, c, cls, duration, client, flent):
    """One [flows.NAME] section s (c: its keys; cls: its position, from 1): a dict of its
    rtt, count, fixed cc (None), per-flow starts, ends and sizes, train gap (None) and its
    delay_schedule's (T, class, T text, MS text) items."""
    delays = delay_schedule(F(s, "delay_schedule"), c.get("delay_schedule", ""), cls, duration)
    if "rtt" not in c:
        raise F(s, "rtt").bad("missing (ms)")
    rtt = number(F(s, "rtt"), c["rtt"], 0, 10000, lo_open=True)
    n = int(number(F(s, "count"), c.get("count", "1"), 1, 1000, whole=True))
    cc_fixed = c.get("cc", "").strip()
    if cc_fixed and not CC_NAME.match(cc_fixed):
        raise F(s, "cc").bad(f"'{cc_fixed}' is not a congestion control name")
    st, en = flow_times(F, s, c, n, duration)
    sz, gap = flow_sizes(F, s, c, n, client)
    if flent:
        for key in ("start", "end", "size", "train", "gap"):
            if key in c:
                raise F(s, key).bad(f"flent's test {flent} makes the flows: no {key}")
        if flent != "tcp_nup" and n != 1:
            raise F(s, "count").bad(f"flent's {flent} runs one stream per class")
    return {"rtt": rtt, "count": n, "cc": cc_fixed or None, "starts": st, "ends": en,
            "sizes": sz, "gap": gap, "delays": delays}


def flow_options(F, secs, classes, flows, flent):
    """rtt_fairness.sh's options of the flows (the flow_class of each class) and of
    [paths]: RTTs, the paths', hosts, route changes, counts, starts, ends and sizes in the
    flow table's order."""
    gaps = {fl["gap"] for fl in flows if fl["gap"] is not None}
    if flent == "rtt_fair_var_down" and len(classes) < 2:
        raise F("scenario", "flent").bad("rtt_fair_var_down compares two or more [flows.*] classes")
    if len(gaps) > 1:
        raise F(classes[-1], "gap").bad("every train of a file has the same gap")
    rtts, counts = [fl["rtt"] for fl in flows], [fl["count"] for fl in flows]
    starts, ends, sizes = ([fl[k] for fl in flows] for k in ("starts", "ends", "sizes"))
    delays = [d for fl in flows for d in fl["delays"]]
    order = table_order(counts)
    out = [("--rtt", ",".join(rtts))]
    out += path_options(F, secs.get("paths", {}), rtts)
    out += hosts_option(F("paths", "hosts_per_class"), secs.get("paths", {}), classes, counts,
                        flent)
    if delays:  # one list in time order (stable: a class's own order is kept)
        out.append(("--delay-schedule", ",".join(f"{k}:{t}:{ms}" for _, k, t, ms in
                                                 sorted(delays, key=lambda d: d[0]))))
    out.append(("--flows-per-rtt", str(counts[0]) if len(set(counts)) == 1
                else ",".join(map(str, counts))))
    if any(x for st in starts for x in st):
        out.append(("--starts", ",".join(f"{starts[k][i]:g}" for k, i in order)))
    if any(x for en in ends for x in en):
        out.append(("--ends", ",".join(f"{ends[k][i]:g}" for k, i in order)))
    if any(x != "0" for sz in sizes for x in sz):
        out.append(("--sizes", ",".join(sizes[k][i] for k, i in order)))
        if gaps:
            out.append(("--gap", gaps.pop()))
    return out


def cc_options(f, text, fixed):
    """The runs' --cc items: the command line's or the file's text (f: its field); a class
    with a cc of its own (fixed: one per class, None for none) keeps it, the others take the
    item's (one cc for all of them, or one each joined by '+'); [] for rtt_fairness.sh's
    default items."""
    free = fixed.count(None)
    if not text.strip():
        if free == len(fixed):
            return []  # rtt_fairness.sh's default items, for every class
        if free:
            raise f.bad(f"missing: {free} class(es) have no cc of their own")
        return [("--cc", "+".join(fixed) if len(fixed) > 1 else fixed[0])]
    if not free:
        raise f.bad("every class has a cc of its own: there is nothing for the items to name")
    its = []
    for item in items(text):
        ps = cc_item(f, item, free)
        if free == len(fixed) and len(ps) == 1:
            its.append(item)  # one cc for every flow, as rtt_fairness.sh's plain items
            continue
        free_ps = iter(ps if len(ps) > 1 else ps * free)
        its.append("+".join(x if x is not None else next(free_ps) for x in fixed))
    return [("--cc", ",".join(its))]


def options(path, point=None, cc=None):
    """rtt_fairness.sh's options for the file: [(option, value)], every value checked."""
    secs = resolve(path, point)
    F = lambda s, k: Field(path, s, k, point)  # noqa: E731
    sc, bn = secs.get("scenario", {}), secs.get("bottleneck", {})
    classes = [s for s in secs if s.startswith("flows.")]
    if not classes:
        raise ScenarioError(f"{path}: no [flows.NAME] section (one per sender class)")
    out, duration, client, flent = scenario_options(F, sc)
    out += bottleneck_options(F, bn, duration)
    out += trace_option(F, path, bn)
    flows = [flow_class(F, s, secs[s], k, duration, client, flent)
             for k, s in enumerate(classes, 1)]
    out += flow_options(F, secs, classes, flows, flent)
    if cc is not None:
        f, text = Field(path, "command line", "--cc"), cc
    else:
        f, text = F("scenario", "cc"), sc.get("cc", "")
    return out + cc_options(f, text, [fl["cc"] for fl in flows])


def command(argv, prog="scenario_file.py"):
    """scenario_file.py's commands (see the module's docstring): the exit status, None for
    arguments that name none."""
    if len(argv) >= 2 and argv[0] == "options":
        path, rest, point, cc = argv[1], argv[2:], None, None
        while rest:
            if rest[0] in ("--point", "--cc") and len(rest) >= 2:
                point, cc = (rest[1], cc) if rest[0] == "--point" else (point, rest[1])
                rest = rest[2:]
            else:
                print(f"{prog}: error: unknown argument '{rest[0]}'", file=sys.stderr)
                return 2
        for opt, val in options(path, point, cc):
            print(f"{opt}\t{val}")
        return 0
    if len(argv) == 2 and argv[0] == "points":
        for p in points(argv[1]):
            print(p)
        resolve(argv[1], (points(argv[1]) or [None])[0])
        return 0
    if len(argv) >= 2 and argv[0] == "check":
        bad = 0
        for path in argv[1:]:
            try:
                for p in points(path) or [None]:
                    options(path, p)
            except ScenarioError as e:
                print(f"{prog}: error: {e}", file=sys.stderr)
                bad += 1
        return 2 if bad else 0
    return None


def main(argv=None):
    return cli_frame.run("scenario_file.py", __doc__, ScenarioError, command, argv)


if __name__ == "__main__":
    sys.exit(main())
