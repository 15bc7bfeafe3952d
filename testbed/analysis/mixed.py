"""Runs with a cc per RTT class (A+B): each part's share, and the harm (Ware et al., HotNets
2019) a configuration does to its incumbent, the last cc, against reference runs found in the
same screen."""

from .common import num


# harm (Ware et al., HotNets 2019) of a '+' configuration to its incumbent, per seed, and
# what goes into it; mean and 95 % CI per configuration and scenario (screen_harm)
HARM_METRICS = ("incumbent_mbps", "solo_mbps", "harm", "self_harm", "latency_harm",
                "latency_self_harm")


def part_ccs(r):
    """The cc of each part of a result's --cc item: params.env cc ("bbr cubic"), else its
    cc split at '+'."""
    return r.get("params", {}).get("cc", "").split() or r["cc"].split("+")


def class_flows(r):
    """((rtt_ms, number of flows) of each RTT class, in class order) of a summary.json
    result: from its flows' classes, or for a summary from before flows had one, from
    params.env rtts_ms and flows_per_rtt."""
    fl = r.get("flows", [])
    if fl and all("class" in f for f in fl):
        by = {}
        for f in fl:
            by.setdefault(f["class"], [float(f["rtt_ms"]), 0])[1] += 1
        return tuple(tuple(v) for _, v in sorted(by.items()))
    p = r.get("params", {})
    rtts = [num(x) for x in p.get("rtts_ms", "").split()]
    counts = p.get("flows_per_rtt", "1").replace(",", " ").split()
    counts = counts * len(rtts) if len(counts) == 1 else counts
    try:
        return tuple((x, int(n)) for x, n in zip(rtts, counts))
    except ValueError:
        return ()


def screen_point(r):
    """What a harm reference must share with a run besides its flows: the bottleneck (rate,
    buffer in bytes, loss, queue discipline and its options, rate schedule), the paths'
    jitter, the measured interval and the seed. params.env names the qdisc, its options and
    a rate schedule only when they are not the defaults (bfifo, none, none)."""
    p = r.get("params", {})
    return (num(r.get("rate_mbit", p.get("rate_mbit"))),
            num(r.get("buffer_bytes", p.get("buffer_bytes"))),
            num(r.get("loss_pct", p.get("loss_pct", 0))),
            p.get("qdisc") or "bfifo", " ".join(str(p.get("qdisc_opts", "")).split()),
            " ".join(str(p.get("rate_schedule", "")).split()), num(p.get("jitter_s", 0)),
            tuple(num(x) for x in r.get("interval_s") or ()), str(p.get("seed")))


def _harm_more_is_better(solo, other):
    """(solo - other) / solo: the harm to a metric where more is better (throughput)."""
    return None if solo is None or other is None or solo <= 0 else (solo - other) / solo


def _harm_less_is_better(solo, other):
    """(other - solo) / other: the harm to a metric where less is better (latency)."""
    return None if solo is None or other is None or other <= 0 else (other - solo) / other


def screen_harm(entries):
    """Harm to the incumbent of every '+' run among entries (dicts: config, scenario, r =
    its summary.json result), set on the entry as HARM_METRICS (None where a reference is
    missing). The incumbent is the last cc of the item; its flows are those of the last RTT
    class, their throughput x_with. References, found among the entries by their flows
    (cc, RTT and number of flows of each class) and screen_point:
      solo  the incumbent alone: a run whose item is the incumbent, with one RTT class of
            the incumbent's RTT and number of flows; x_solo = its throughput (all flows)
      self  the incumbent against itself: a run whose item names the incumbent in every
            part, with this run's classes; x_self = its last class's throughput
    harm = (x_solo - x_with) / x_solo, self_harm = (x_solo - x_self) / x_solo; latency
    (the incumbent's base RTT + the bottleneck's mean queueing delay) likewise, as
    (d_with - d_solo) / d_with. A reference has the run's module parameters, or none (for
    cc's the module does not have); of several, the first in configuration order."""
    index = {}
    for e in entries:
        r = e["r"]
        e["ccs"], e["classes"], e["point"] = tuple(part_ccs(r)), class_flows(r), screen_point(r)
        e["mparams"] = r.get("params", {}).get("module_params", "")
        index.setdefault((e["ccs"], e["classes"], e["point"]), []).append(e)

    def ref(ccs, classes, e):
        cands = index.get((ccs, classes, e["point"]), [])
        return next((c for c in cands if c["mparams"] == e["mparams"]),
                    next((c for c in cands if not c["mparams"]), None))

    def last_class(e):
        r, k = e["r"], len(e["classes"])
        mbps = sum(f["throughput_mbps"] for f in r["flows"] if f.get("class") == k)
        q = (r.get("queue_delay_ms") or {}).get("mean")
        return mbps, None if q is None else e["classes"][-1][0] + q

    for e in entries:
        for k in HARM_METRICS:
            e[k] = None
        n = len(e["ccs"])
        if n < 2 or len(e["classes"]) != n or not all("class" in f for f in e["r"]["flows"]):
            continue
        inc = e["ccs"][-1]
        e["incumbent_mbps"], d_with = last_class(e)
        solo = ref((inc,), e["classes"][-1:], e)
        if solo is None:
            continue
        e["solo_mbps"] = sum(f["throughput_mbps"] for f in solo["r"]["flows"])
        q = (solo["r"].get("queue_delay_ms") or {}).get("mean")
        d_solo = None if q is None else e["classes"][-1][0] + q
        e["harm"] = _harm_more_is_better(e["solo_mbps"], e["incumbent_mbps"])
        e["latency_harm"] = _harm_less_is_better(d_solo, d_with)
        own = ref((inc,) * n, e["classes"], e)
        if own is not None and all("class" in f for f in own["r"]["flows"]):
            x_self, d_self = last_class(own)
            e["self_harm"] = _harm_more_is_better(e["solo_mbps"], x_self)
            e["latency_self_harm"] = _harm_less_is_better(d_solo, d_self)


def _shares(r):
    """'/'-joined throughput share of each part of a '+' result's item ('' otherwise)."""
    per = r.get("per_class")
    if "+" not in r["cc"] or not per or any(c.get("share") is None for c in per):
        return ""
    return "/".join(f"{c['share']:.4f}" for c in per)
