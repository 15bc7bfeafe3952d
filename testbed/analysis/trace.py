"""The module's gain trace (bbr_a:bbr_a_gain) per flow: trace.csv rows, per-flow shares of
gain reasons in the measured interval, time bins (analyze.py --trace-bins), PROBE_RTT dips
(analyze.py --trace-dips) and the loss-learned bound's highest values (analyze.py
--trace-bounds)."""
import csv
import os

from .common import AnalysisError
from .parse import GAIN_WHY
from .screen import job_runs
from .stats import mean

TRACE_COLS = ["t_s", "flow", "cc", "rtt_ms", "mode", "phase", "why", "pacing_gain",
              "cwnd_gain", "rtt_us", "rtt_max_us", "phi", "min_rtt_us", "bw_mbps", "cwnd",
              "inflight", "cwnd_limited", "lossy", "round_lost", "ev", "bw_hi_mbps", "compete",
              "spread_ms"]


def trace_rows(events, fl, sport, t0):
    """trace.csv rows of one flow (its data connection: sport -> the flow's port)."""
    rows = []
    for ts, e in events:
        if e.get("sport") != sport or e.get("dport") != fl["port"]:
            continue
        phi = e["rtt_us"] / e["rtt_max_us"] if e["rtt_max_us"] and e["rtt_us"] >= 0 else None
        why = e["why"]
        rows.append([round(ts - t0, 4), fl["index"], fl["cc"], fl["rtt_ms"], e["mode"],
                     e["phase"], GAIN_WHY[why] if why < len(GAIN_WHY) else why,
                     e["gain"], e["cwnd_gain"], e["rtt_us"], e["rtt_max_us"],
                     None if phi is None else round(phi, 4), e["min_rtt_us"],
                     round(e["bw_bps"] / 1e6, 4), e["cwnd"], e["inflight"], e["cwnd_limited"],
                     e.get("lossy"), e.get("round_lost"), e.get("ev", 0),
                     round(e["bw_hi_bps"] / 1e6, 4) if "bw_hi_bps" in e else None,
                     e.get("compete"),
                     round(e["spread_us"] / 1000, 3) if "spread_us" in e else None])
    return rows


def trace_stats(rows, w0, w1):
    """Per flow, over [w0, w1]: share of PROBE_BW events per gain reason, share of events
    that found the flow cwnd-limited, mean phi, mean queueing delay rtt - min_rtt (ms) at its
    ACKs, and (bbr_a_fair, module 0.6.0+) the share that found a competitor (compete);
    and over the whole trace the time of its first event after STARTUP (startup_end_s,
    None while it never left) and its bw there, Mbit/s (startup_bw_mbps: the max filter
    STARTUP ended with); None without events."""
    pb = [r for r in rows if w0 <= r[0] <= w1 and r[4] == 2]
    if not pb:
        return None
    why = {}
    for r in pb:
        why[r[6]] = why.get(r[6], 0) + 1
    phis = [r[11] for r in pb if r[11] is not None]
    queue = [(r[9] - r[12]) / 1000 for r in pb if r[9] >= 0]
    comp = [r[21] for r in pb if r[21] is not None]
    out = {"events": len(pb),
           "why_share": {k: round(v / len(pb), 4) for k, v in sorted(why.items())},
           "cwnd_limited_share": round(sum(r[16] for r in pb) / len(pb), 4),
           "phi_mean": round(mean(phis), 4) if phis else None,
           "queue_ms_mean": round(mean(queue), 3) if queue else None,
           "startup_end_s": None, "startup_bw_mbps": None}
    left = next((r for r in rows if r[4] != 0), None)
    if left:
        out["startup_end_s"], out["startup_bw_mbps"] = left[0], left[13]
    if comp and pb[0][2] == "bbr_a_fair":
        out["compete_share"] = round(sum(comp) / len(comp), 4)
    return out


TRACE_BIN_COLS = ["t_s", "flow", "rtt_ms", "events", "bw_mbps", "cwnd", "inflight",
                  "queue_ms", "cwnd_limited_share", "probe_share", "drain_share", "bw_hi_mbps",
                  "compete_share", "probe_gain", "drain_gain", "rtt_max_queue_ms"]


def trace_bins(rows, step):
    """trace.csv rows (dicts) of PROBE_BW events -> one TRACE_BIN_COLS row per flow and
    step-second bin: means of the flow's model state, shares of its events, the mean pacing
    gain of its probe-up and probe-down events (BBR-A's and bbr_a_fair's adaptive gains:
    the further rtt_max above min_rtt, the larger both) and rtt_max's height above min_rtt
    (events with an rtt_max)."""
    bins = {}
    for r in rows:
        if r["mode"] != "2":
            continue
        key = (int(r["flow"]), int(float(r["t_s"]) // step))
        bins.setdefault(key, []).append(r)
    out = []
    for (flow, b), rs in sorted(bins.items()):
        def avg(k):
            return round(mean([float(x[k]) for x in rs]), 3)
        queue = [(float(x["rtt_us"]) - float(x["min_rtt_us"])) / 1000
                 for x in rs if float(x["rtt_us"]) >= 0]
        his = [float(x["bw_hi_mbps"]) for x in rs if x.get("bw_hi_mbps") not in (None, "")]
        comp = [float(x["compete"]) for x in rs if x.get("compete") not in (None, "")]
        tops = [(float(x["rtt_max_us"]) - float(x["min_rtt_us"])) / 1000
                for x in rs if float(x.get("rtt_max_us") or 0) > 0]
        out.append([round(b * step, 3), flow, rs[0]["rtt_ms"], len(rs), avg("bw_mbps"),
                    avg("cwnd"), avg("inflight"), _mean(queue), avg("cwnd_limited"),
                    round(sum(x["why"] == "probe" for x in rs) / len(rs), 3),
                    round(sum(x["why"] == "drain" for x in rs) / len(rs), 3),
                    _mean(his), _mean(comp), _gain(rs, "probe"), _gain(rs, "drain"),
                    _mean(tops)])
    return out


def _mean(xs):
    """The mean of xs to 3 decimals, or None for none."""
    return round(mean(xs), 3) if xs else None


def _gain(rows, why):
    """The mean pacing gain (1.0 = BBR_UNIT) of the events of rows with this why, or None."""
    return _mean([float(x["pacing_gain"]) / 256 for x in rows
                  if x["why"] == why and x.get("pacing_gain") not in (None, "")])


TRACE_DIP_COLS = ["flow", "rtt_ms", "start_s", "end_s", "events", "lowest_rtt_ms", "base_rtt_ms",
                  "queue_ms", "window_expired", "compete_after"]


def trace_dips(rows):
    """trace.csv rows (dicts) -> one TRACE_DIP_COLS row per PROBE_RTT of each flow: when it
    began and ended (its first event in mode 3, the first event after), the lowest RTT
    sample of its events and of the event that ended it, the flow's lowest RTT sample of the
    whole trace (base), their difference (the queue the dip left, ms), whether the min_rtt
    window had expired (a regular dip: min_rtt took the dip's first sample, so it changed
    from the event before) and the competitor flag after it. A dip still under way at the
    trace's end is left out. Events come once per round, so a dip's lowest sample is an
    upper bound of its lowest RTT."""
    flows = {}
    for r in rows:
        flows.setdefault(int(r["flow"]), []).append(r)
    out = []
    for flow, rs in sorted(flows.items()):
        samples = [int(r["rtt_us"]) for r in rs if int(r["rtt_us"]) >= 0]
        if not samples:
            continue
        base = min(samples)
        i = 0
        while i < len(rs):
            if rs[i]["mode"] != "3":
                i += 1
                continue
            j = i
            while j < len(rs) and rs[j]["mode"] == "3":
                j += 1
            if j == len(rs):
                break
            dip = rs[i:j + 1]
            low = [int(r["rtt_us"]) for r in dip if int(r["rtt_us"]) >= 0]
            expired = i > 0 and rs[i]["min_rtt_us"] != rs[i - 1]["min_rtt_us"]
            lowest = min(low) if low else None
            out.append([flow, rs[i]["rtt_ms"], float(rs[i]["t_s"]), float(rs[j]["t_s"]), j - i,
                        None if lowest is None else round(lowest / 1000, 3),
                        round(base / 1000, 3),
                        None if lowest is None else round((lowest - base) / 1000, 3),
                        int(expired), rs[j].get("compete") or None])
            i = j
    return out


SCREEN_DIP_COLS = ["config", "scenario", "seed"] + TRACE_DIP_COLS + [
    "kernel", "module_version", "module_srcversion"]


def screen_dips(screen_dir):
    """SCREEN_DIP_COLS rows of every job of a screen.sh tree (<config>/<scenario>/seed<N>/
    with one run directory holding trace.csv and params.env): each job's trace_dips."""
    return _screen_trace_rows(screen_dir, trace_dips, (), "PROBE_RTTs")


def _screen_trace_rows(screen_dir, per_trace, env_keys, what):
    """Every job of a screen.sh tree whose run directory holds trace.csv: per_trace's rows of
    it, each after the job's config, scenario, seed and params.env's env_keys, and before its
    kernel, module version and srcversion; an error if no job gives one."""
    rows = []
    for config, scenario, seed, run, env in job_runs(screen_dir, "trace.csv"):
        with open(os.path.join(run, "trace.csv")) as f:
            found = per_trace(list(csv.DictReader(f)))
        lead = [config, scenario, seed] + [env.get(k, "") for k in env_keys]
        rows += [lead + r + [env.get("kernel", ""), env.get("module_version", ""),
                             env.get("module_srcversion", "")] for r in found]
    if not rows:
        raise AnalysisError(f"{screen_dir}: no jobs with a trace.csv that has {what}")
    return rows


TRACE_BOUND_COLS = ["flow", "cc", "rtt_ms", "events", "compete_share", "bound_max_mbps",
                    "compete_bound_max_mbps", "cwnd_max"]


def trace_bounds(rows):
    """trace.csv rows (dicts) -> one TRACE_BOUND_COLS row per flow whose events carry the
    bound (bbr_a_fair): over the whole trace, the share of events with the competitor flag
    set, the highest bound (Mbit/s; with no competitor flagged it only caps a lower bw),
    the highest while competing (the flow then paces at and sizes cwnd by it; None if never
    flagged) and the highest cwnd."""
    flows = {}
    for r in rows:
        if r.get("bw_hi_mbps") not in (None, ""):
            flows.setdefault(int(r["flow"]), []).append(r)
    out = []
    for flow, rs in sorted(flows.items()):
        comp = [float(r["bw_hi_mbps"]) for r in rs if r.get("compete") == "1"]
        out.append([flow, rs[0]["cc"], rs[0]["rtt_ms"], len(rs), round(len(comp) / len(rs), 4),
                    max(float(r["bw_hi_mbps"]) for r in rs),
                    max(comp) if comp else None, max(int(r["cwnd"]) for r in rs)])
    return out


SCREEN_BOUND_COLS = ["config", "scenario", "seed", "rate_mbit"] + TRACE_BOUND_COLS + [
    "kernel", "module_version", "module_srcversion"]


def screen_bounds(screen_dir):
    """SCREEN_BOUND_COLS rows of every job of a screen.sh tree: each job's trace_bounds,
    with the bottleneck's rate (params.env's rate_mbit) to measure them by."""
    return _screen_trace_rows(screen_dir, trace_bounds, ("rate_mbit",), "a bound")
