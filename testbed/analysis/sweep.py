"""One CSV row per run of a sweep (analyze.py --sweep-csv, for plots/plot.py --sweep)."""
import sys

from .common import AnalysisError
from .run import analyze_run, find_runs


SWEEP_COLS = ["sweep", "cc", "rtts_ms", "rtt_ratio", "buffer_bdp", "buffer_bytes", "loss_pct",
              "flows", "rate_mbit", "jain", "utilization", "retrans_rate", "qdelay_mean_ms",
              "throughputs_mbps", "seed", "dir"]


def sweep_rows(name, dirs, warmup=None, cooldown=None):
    rows = []
    for top in dirs:
        for d in find_runs(top):
            try:
                r = analyze_run(d, warmup, write_csv=False, cooldown=cooldown)
            except AnalysisError as e:
                print(f"analyze.py: warning: run skipped: {e}", file=sys.stderr)
                continue
            p = r["params"]
            rtts = [float(x) for x in p.get("rtts_ms", "").split()]
            rows.append([name, r["cc"], "/".join(f"{x:g}" for x in rtts),
                         round(max(rtts) / min(rtts), 4) if rtts and min(rtts) > 0 else "",
                         p.get("buffer_bdp", ""), r["buffer_bytes"], r["loss_pct"],
                         len(r["flows"]), r["rate_mbit"], r["jain"], r["utilization"],
                         r["retrans_rate"], r["queue_delay_ms"]["mean"],
                         "/".join(f"{f['throughput_mbps']:.3f}" for f in r["flows"]),
                         p.get("seed", ""), d])
    return rows
