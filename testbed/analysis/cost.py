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
