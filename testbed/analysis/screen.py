"""A testbed/screen.sh tree (<config>/<scenario>/seed<N>/summary.json): one row per run
(screen_runs.csv, with what made it and whether it is a result), and per configuration and
scenario the mean and 95 % confidence interval over the seeds whose runs are results
(screen.csv, unrounded; the runs that are not are counted in "excluded"), as text or
Markdown."""
import glob
import json
import os
import re
import sys

from .checks import problems
from .common import fmt
from .mixed import HARM_METRICS, _shares, screen_harm
from .parse import read_env
from .provenance import PROVENANCE_FIELDS, job_key_of, run_provenance
from .stats import mean_ci95


_RUN_COLS = ["config", "scenario", "seed", "cc", "module_params", "rtts_ms",
             "buffer_bdp", "jain", "utilization", "retrans_rate", "qdelay_mean_ms",
             "throughputs_mbps", "cwnd_limited_shares", "probe_shares", "hold_shares",
             "drain_shares", "phi_means", "trace_queue_ms", "kernel", "module_version",
             "module_srcversion", "shares", "incumbent_mbps", "solo_mbps", "harm",
             "self_harm", "latency_harm", "latency_self_harm", "problems",
             "retrans_rate_interval", "startup_end_s", "startup_bw_mbps", "qdelay_p95_ms",
             "rtt_queueing_p95_ms"]
# what made each run (provenance.py), after the columns above (those already there once:
# rtts_ms there is "10/50")
PROVENANCE_COLS = [f for f in PROVENANCE_FIELDS if f not in _RUN_COLS]
SCREEN_RUN_COLS = _RUN_COLS + PROVENANCE_COLS


def _per_flow(flows, get):
    """'/'-joined per-flow values from the gain trace ('' for a flow without one)."""
    vals = [get(f["trace"]) if f.get("trace") else None for f in flows]
    return "" if all(v is None for v in vals) else "/".join(
        "" if v is None else f"{v:.3f}" for v in vals)


SCREEN_METRICS = ("jain", "utilization", "retrans_rate", "qdelay_mean_ms")


def job_summaries(root, config="*", scenario="*"):
    """The summary.json of every job of a screen.sh tree: <config>/<scenario>/seed<N>/ (not
    seed<N>.stale/, a job screen.sh moved aside to run it again), sorted; config and
    scenario narrow it (glob patterns)."""
    paths = glob.glob(os.path.join(root, config, scenario, "seed*", "summary.json"))
    return sorted(p for p in paths if re.fullmatch(r"seed[0-9]+", os.path.basename(os.path.dirname(p))))


def screen_jobs(root):
    """(config, scenario, summary.json path, its contents) of every job of a screen.sh tree
    (job_summaries), in path order."""
    for path in job_summaries(root):
        scen_dir = os.path.dirname(os.path.dirname(path))
        with open(path) as f:
            summ = json.load(f)
        yield os.path.basename(os.path.dirname(scen_dir)), os.path.basename(scen_dir), path, summ


def job_runs(root, name):
    """(config, scenario, seed, run directory, its params.env) of every job of a screen.sh
    tree (<config>/<scenario>/seed<N>/<cc>/run1/) whose run directory holds the file name,
    in path order; a job moved aside to run again (seed<N>.stale/) is left out."""
    for path in sorted(glob.glob(os.path.join(root, "*", "*", "seed*", "*", "run1", name))):
        where = path.split(os.sep)
        if not re.fullmatch(r"seed[0-9]+", where[-4]):
            continue
        run = os.path.dirname(path)
        yield where[-6], where[-5], where[-4][len("seed"):], run, read_env(
            os.path.join(run, "params.env"))


def _entry(config, scenario, r, key):
    return {"config": config, "scenario": scenario, "r": r, "problems": problems(r),
            "provenance": run_provenance(r, key)}


def screen_runs(root):
    """One row (SCREEN_RUN_COLS) per finished job of a screen.sh tree. A run with problems
    (checks.py) has them in its row, and serves no other run as a harm reference."""
    entries = []
    for config, scenario, path, summ in screen_jobs(root):
        key = job_key_of(path)
        entries += [_entry(config, scenario, r, key) for r in summ["results"]]
    return _rows(entries)


def summary_runs(path):
    """One row (SCREEN_RUN_COLS) per run of one summary.json (testbed/analyze.py's over a
    --repeat set, committed as it is, without a screen.sh tree around it): config is the
    run's cc, scenario empty; no job key."""
    with open(path) as f:
        summ = json.load(f)
    return _rows([_entry(r["cc"], "", r, {}) for r in summ["results"]])


def _rows(entries):
    """The rows of entries (_entry), harm computed among those that are results."""
    screen_harm([e for e in entries if not e["problems"]])
    rows = []
    for e in entries:
        r = e["r"]
        p = r["params"]
        for k in HARM_METRICS:
            e.setdefault(k, None)
        rows.append([e["config"], e["scenario"], p.get("seed"), r["cc"],
                     p.get("module_params", ""), "/".join(p.get("rtts_ms", "").split()),
                     p.get("buffer_bdp", ""), r["jain"], r["utilization"],
                     r["retrans_rate"], r["queue_delay_ms"]["mean"],
                     "/".join(repr(f["throughput_mbps"]) for f in r["flows"]),
                     _per_flow(r["flows"], lambda t: t["cwnd_limited_share"]),
                     _per_flow(r["flows"], lambda t: t["why_share"].get("probe", 0)),
                     _per_flow(r["flows"], lambda t: t["why_share"].get("hold", 0)),
                     _per_flow(r["flows"], lambda t: t["why_share"].get("drain", 0)),
                     _per_flow(r["flows"], lambda t: t["phi_mean"]),
                     _per_flow(r["flows"], lambda t: t.get("queue_ms_mean")),
                     r.get("kernel"), r.get("module_version"),
                     p.get("module_srcversion", ""), _shares(r),
                     *(e[k] for k in HARM_METRICS),
                     "; ".join(e["problems"]), r.get("retrans_rate_interval"),
                     _per_flow(r["flows"], lambda t: t.get("startup_end_s")),
                     _per_flow(r["flows"], lambda t: t.get("startup_bw_mbps")),
                     r["queue_delay_ms"].get("p95"), r.get("rtt_queueing_p95_ms"),
                     *(e["provenance"][k] for k in PROVENANCE_COLS)])
    return rows


def screen_table(rows):
    """Per (config, scenario), over its runs that are results (no problems; "excluded"
    counts the others): runs, and mean / CI half-width of SCREEN_METRICS, unrounded (the
    tables round once); for '+' configurations also the mean / CI of each part's share
    ('/'-joined) and of HARM_METRICS over the seeds that have them (harm_runs: how many;
    None without)."""
    groups = {}
    for row in rows:
        groups.setdefault((row[0], row[1]), []).append(dict(zip(SCREEN_RUN_COLS, row)))
    out = []
    for (config, scen), every in sorted(groups.items()):
        runs = [r for r in every if not r.get("problems")]
        line = {"config": config, "scenario": scen, "cc": every[0]["cc"],
                "module_params": every[0]["module_params"], "rtts_ms": every[0]["rtts_ms"],
                "buffer_bdp": every[0]["buffer_bdp"], "runs": len(runs),
                "excluded": len(every) - len(runs),
                "seeds": " ".join(str(r["seed"]) for r in runs)}
        for k in SCREEN_METRICS:
            m, h = mean_ci95([r[k] for r in runs])
            line[k], line[k + "_ci95"] = m, h
        shares = [[float(x) for x in r["shares"].split("/")] for r in runs if r.get("shares")]
        line["shares"] = line["shares_ci95"] = ""
        if shares and len({len(x) for x in shares}) == 1:
            parts = [mean_ci95(col) for col in zip(*shares)]
            line["shares"] = "/".join(f"{m:.4f}" for m, _ in parts)
            line["shares_ci95"] = "" if len(shares) < 2 else "/".join(f"{h:.4f}" for _, h in parts)
        line["harm_runs"] = sum(1 for r in runs if r.get("harm") is not None)
        for k in HARM_METRICS:
            m, h = mean_ci95([r.get(k) for r in runs])
            line[k], line[k + "_ci95"] = m, h
        out.append(line)
    return out


def _mixed(table):
    """True if a screen table has '+' configurations (their share and harm columns)."""
    return any(t.get("shares") or t.get("incumbent_mbps") is not None for t in table)


def _cell(t, k, spec, scale=1, none="n/a"):
    """A table cell: the mean of k, with +- its CI half-width when there is one."""
    v, h = t.get(k), t.get(k + "_ci95")
    if v is None:
        return none
    return format(v * scale, spec) + ("" if h is None else " +- " + format(h * scale, spec))


def _shares_cell(t):
    """Each part's mean share of a '+' configuration, in %, with the CI half-width:
    "bbr 61.2 +- 1.0 / cubic 38.8 +- 1.0"."""
    if not t.get("shares"):
        return ""
    ms = t["shares"].split("/")
    hs = t["shares_ci95"].split("/") if t.get("shares_ci95") else [None] * len(ms)
    return " / ".join(f"{cc} {100 * float(m):.1f}" + ("" if h is None else f" +- {100 * float(h):.1f}")
                      for cc, m, h in zip(t["cc"].split("+"), ms, hs))


def _runs_cell(t):
    """The number of runs, and of those left out as not results: "5", "3 (2 excluded)"."""
    n = t.get("excluded") or 0
    return f"{t['runs']}" + (f" ({n} excluded)" if n else "")


def print_screen_markdown(table, out=sys.stdout):
    """The screen table as Markdown (for docs/), with the CI half-widths; with '+'
    configurations also each part's share (%), the harm to the incumbent and its harm to
    itself (empty without a reference run)."""
    mixed = _mixed(table)
    extra = " share % per cc | harm | incumbent's self-harm | latency harm | latency self-harm |"
    out.write("| config | scenario | runs | Jain | utilisation | retransmitted % | queue delay ms |"
              + (extra if mixed else "") + "\n")
    out.write("|---|---|---|---|---|---|---|" + ("---|" * 5 if mixed else "") + "\n")
    for t in table:
        out.write(f"| {t['config']} | {t['scenario']} | {_runs_cell(t)} | {_cell(t, 'jain', '.3f')} | "
                  f"{_cell(t, 'utilization', '.3f')} | {_cell(t, 'retrans_rate', '.2f', 100)} | "
                  f"{_cell(t, 'qdelay_mean_ms', '.1f')} |")
        if mixed:
            out.write(f" {_shares_cell(t)} | " + " | ".join(
                _cell(t, k, ".3f", none="") for k in ("harm", "self_harm", "latency_harm",
                                                       "latency_self_harm")) + " |")
        out.write("\n")


def print_screen(table, out=sys.stdout):
    mixed = _mixed(table)
    out.write(f"{'config':<22}{'scenario':<10}{'n':>3}  {'jain (95% CI)':<18}{'util':>7}"
              f"{'retx%':>8}{'qdelay':>9}" + ("   share % per cc; harm, self-harm" if mixed else "")
              + "\n")
    for t in table:
        ci = "" if t["jain_ci95"] is None else f" +-{t['jain_ci95']:.3f}"
        out.write(f"{t['config']:<22}{t['scenario']:<10}{t['runs']:>3}  "
                  f"{fmt(t['jain'], '.3f') + ci:<18}{fmt(t['utilization'], '.3f'):>7}"
                  f"{100 * (t['retrans_rate'] or 0):>8.3f}{fmt(t['qdelay_mean_ms'], '.1f'):>7}ms")
        if mixed and t.get("shares"):
            out.write(f"   {_shares_cell(t)}; harm {_cell(t, 'harm', '.3f', none='-')}, "
                      f"self-harm {_cell(t, 'self_harm', '.3f', none='-')}")
        if t.get("excluded"):
            out.write(f"   ({t['excluded']} not results, excluded)")
        out.write("\n")
