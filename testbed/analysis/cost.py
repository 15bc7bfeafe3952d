"""scripts/bench_cost.sh's rows: CPU seconds per GB sent of two ccs, and their ratio pair by
pair (analyze.py --cost)."""
import statistics

from .common import AnalysisError
from .stats import mean_ci95


def cost_summary(rows):
    """scripts/bench_cost.sh rows (dicts) -> {"items": [A, B], "per_gb": {item: [min, median,
    max]}, "ratio": [min, median, max] of A/B CPU per byte pair by pair, "pairs": n}."""
    def item(r):
        return r["cc"] + (":" + r["params"].replace(" ", ":") if r["params"] else "")
    order, by = [], {}
    for r in rows:
        k = item(r)
        if k not in by:
            order.append(k)
        by.setdefault(k, {})[r["pair"]] = float(r["cpu_s"]) / (int(r["bytes"]) / 1e9)
    if len(order) != 2:
        raise AnalysisError(f"cost rows name {len(order)} items, expected two (A and B)")
    a, b = (by[k] for k in order)
    pairs = sorted(set(a) & set(b), key=int)
    if not pairs:
        raise AnalysisError("no pair has both A and B")

    def spread(xs):
        xs = sorted(xs)
        return [round(xs[0], 4), round(statistics.median(xs), 4), round(xs[-1], 4)]
    ratios = [a[p] / b[p] for p in pairs]
    m, h = mean_ci95(ratios)
    return {"items": order, "pairs": len(pairs),
            "per_gb": {k: spread(by[k].values()) for k in order},
            "ratio": spread(ratios),
            "ratio_mean_ci95": [round(m, 4), None if h is None else round(h, 4)],
            "commits": sorted({r["commit"] for r in rows}),
            "kernels": sorted({r["kernel"] for r in rows})}


def _quantile(xs, q):
    xs = sorted(xs)
    i = q * (len(xs) - 1)
    lo = int(i)
    return xs[lo] + (xs[min(lo + 1, len(xs) - 1)] - xs[lo]) * (i - lo)


def ack_cost_summary(rows, q=0.1, resamples=2000):
    """scripts/bench_ack.sh rows (dicts) -> per cc the ns per ACK of its runs (min, the q
    quantile, median), the same less the ACK model's (cc '-'), and each cc's net cost over the
    first cc's, with a 95 % bootstrap interval over the runs. The low quantile rather than the
    mean: a run that the host preempted only ever takes longer. A name given twice is labelled
    NAME#2 (an A/A check: its ratio says what the method resolves within one build).

    Rows of several code layouts (bench_ack.sh --layouts; rows without the column are layout
    0): the above is layout 0's, "layouts" counts them, and "ratio_layouts" gives each cc's
    point ratio over the layouts as [min, median, max], which the A/A check does not show."""
    layouts = {}
    for r in rows:
        layouts.setdefault(int(r.get("layout") or 0), []).append(r)
    out = _ack_cost_layout(layouts[min(layouts)], q, resamples)
    out["layouts"] = len(layouts)
    if len(layouts) > 1:
        per = [out["ratio"]] + [_ack_cost_layout(layouts[k], q, resamples)["ratio"]
                                for k in sorted(layouts)[1:]]
        out["ratio_layouts"] = {}
        for k in out["ratio"]:
            x = [p[k][0] for p in per if k in p]
            out["ratio_layouts"][k] = [min(x), round(statistics.median(x), 4), max(x)]
    return out


def _ack_cost_layout(rows, q, resamples):
    """ack_cost_summary of one layout's rows."""
    import random
    runs, order = {}, []
    for r in rows:
        rep, cc = int(r["rep"]), r["cc"]
        seen = runs.setdefault(("rep", rep), [])
        label = cc if cc == "-" or cc not in seen else f"{cc}#{seen.count(cc) + 1}"
        seen.append(cc)
        if label not in order:
            order.append(label)
        runs.setdefault(label, {})[rep] = int(r["ns"]) / int(r["acks"])
    if "-" not in order or len(order) < 2:
        raise AnalysisError("ack-cost rows need the ACK model ('-') and at least one cc")
    ccs = [k for k in order if k != "-"]
    reps = sorted(set.intersection(*(set(runs[k]) for k in order)))
    if len(reps) < 5:
        raise AnalysisError(f"ack-cost rows have {len(reps)} complete runs, need at least 5")

    def net(sample):
        model = _quantile([runs["-"][i] for i in sample], q)
        return {k: _quantile([runs[k][i] for i in sample], q) - model for k in ccs}
    point = net(reps)
    rng = random.Random(1)
    boot = [net([rng.choice(reps) for _ in reps]) for _ in range(resamples)]
    ref = ccs[0]
    out = {"runs": len(reps), "quantile": q, "reference": ref, "ns_per_ack": {}, "net": {},
           "ratio": {}, "commits": sorted({r["commit"] for r in rows}),
           "kernels": sorted({r["kernel"] for r in rows}),
           "module_params": sorted({r["module_params"] for r in rows}),
           "acks": sorted({int(r["acks"]) for r in rows})}
    for k in order:
        xs = [runs[k][i] for i in reps]
        out["ns_per_ack"][k] = [round(min(xs), 2), round(_quantile(xs, q), 2),
                                round(statistics.median(xs), 2)]
    for k in ccs:
        out["net"][k] = round(point[k], 2)
        ratios = sorted(b[k] / b[ref] for b in boot if b[ref] > 0)
        out["ratio"][k] = [round(point[k] / point[ref], 4), round(_quantile(ratios, 0.025), 4),
                           round(_quantile(ratios, 0.975), 4)]
    return out
