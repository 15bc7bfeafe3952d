"""The metrics of the evaluations beside Jain and harm (scenario files, testbed/scenarios/):
flow completion times, a finite flow's throughput, the convergence time to a fair share
after a flow joins, Jain's index over sliding windows, and the queue and RTT over time with
a rate schedule. Pure functions of a run's rows (flows.txt, the finite flows' "fct"
records, throughput.csv, queue.csv, ss.csv, rate_changes.txt), so they are tested on
recorded outputs; run.py puts their results into a run's summary as "evaluation".

    fct            per connection of a finite flow or a train (tcpflow_fct.py): its bytes,
                   start, completion time (from before connect() to the receiver's last
                   read); per size: count, median, p95 (nearest rank), mean, in ms
    finite flows   a flow of one size: its throughput, bytes x 8 / completion time
    convergence    after a flow joins, the first time (s from its start) at which, over
                   window_s windows, it gets at least 80 % (95 %) of its fair share: the
                   delivered total of the window over the flows active in it (seed 004's
                   "80 % convergence time"), and the time from which it gets that in every
                   window to the run's end (settled); None if it never does
    refill         after a flow leaves before the others, the first time (s from its end)
                   at which the flows still running deliver, over a window_s window, 80 %
                   (95 %) of what all of them delivered in the 5 s before it left; and the
                   mean queueing delay of each 10 s after it left
    sliding Jain   Jain's index over the flows active in each window_s window (step step_s)
    phases         with a rate schedule: per phase of one rate, the bottleneck's queueing
                   delay (backlog over the rate in force), mean and p95, each flow's mean
                   smoothed RTT and the delivered throughput
"""
import collections
import json
import os

from .common import AnalysisError
from .stats import jain, mean, percentile

CONVERGENCE_SHARES = (0.8, 0.95)


def is_train(size):
    """A flows.txt size column of a train (B1/B2/...)."""
    return isinstance(size, str) and "/" in size


def read_fct(d, flows, t0):
    """The "fct" records of a run's finite flows and trains, one dict per connection: flow,
    class, cc, kind (train or finite), bytes, start_s (after t0), fct_s, retransmits.
    flows: read_flows' dicts (with "size"); t0: params.env t0_uptime."""
    out = []
    seen = set()
    for fl in flows:
        size = fl.get("size")
        if size in (None, "0") or fl["group"] in seen:
            continue
        seen.add(fl["group"])
        path = os.path.join(d, f"flow{fl['group']}.json")
        try:
            with open(path) as f:
                recs = json.load(f).get("fct")
        except (OSError, ValueError) as e:
            raise AnalysisError(f"{path}: no finite flows' record ({e})")
        if recs is None:
            raise AnalysisError(f"{path}: no \"fct\" (was it made by tcpflow_fct.py?)")
        members = [f for f in flows if f["group"] == fl["group"]]
        for i, r in enumerate(recs):
            owner = members[min(i, len(members) - 1)] if not is_train(size) else fl
            # a finite flow the run's end cut short has no completion time
            done = is_train(size) or r["bytes"] >= int(size)
            out.append({"flow": owner["index"], "class": owner["class"], "cc": owner["cc"],
                        "kind": "train" if is_train(size) else "finite",
                        "bytes": r["bytes"] if done else int(size),
                        "start_s": round(r["start"] - t0, 6),
                        "fct_s": r["fct_s"] if done else None,
                        "sent": r["bytes"], "retransmits": r.get("retransmits")})
    return out


def fct_stats(recs):
    """Per size (bytes, as a string key) and over all: n, p50_ms, p95_ms, mean_ms of the
    completion times of recs (read_fct's), and incomplete: how many had none (a finite
    flow cut short by the run's end)."""
    by = collections.defaultdict(list)
    cut = collections.Counter()
    for r in recs:
        for k in (str(r["bytes"]), "all"):
            if r["fct_s"] is None:
                cut[k] += 1
                by.setdefault(k, [])
            else:
                by[k].append(r["fct_s"] * 1e3)
    return {k: {"n": len(v), "p50_ms": percentile(v, 50), "p95_ms": percentile(v, 95),
                "mean_ms": mean(v), "incomplete": cut[k]}
            for k, v in sorted(by.items(), key=lambda kv: (
                kv[0] == "all", int(kv[0]) if kv[0].isdigit() else 0))}


def finite_throughput(recs):
    """{flow index: Mbit/s} of the finite (non-train) flows: bytes x 8 / completion time."""
    return {r["flow"]: r["bytes"] * 8 / r["fct_s"] / 1e6 for r in recs
            if r["kind"] == "finite" and r["fct_s"]}


def window_bytes(rows, flows, t0, t1):
    """{flow: bytes delivered in [t0, t1)} from throughput.csv rows (dicts or lists in its
    column order), prorated over the intervals that straddle an edge."""
    got = collections.Counter({f: 0.0 for f in flows})
    for r in rows:
        f = int(r["flow"])
        if f not in got:
            continue
        a, b, n = float(r["t_start_s"]), float(r["t_end_s"]), float(r["bytes"])
        if b <= a:
            continue
        ov = min(b, t1) - max(a, t0)
        if ov > 0:
            got[f] += n * ov / (b - a)
    return got


def active(flows, t0, t1):
    """The flows (dicts with index, start_s and end_s) running through all of [t0, t1)."""
    return [f["index"] for f in flows if f["start_s"] <= t0 + 1e-9 and f["end_s"] >= t1 - 1e-9]


def sliding_jain(rows, flows, window_s, step_s, t_from, t_to):
    """[(t0, t1, jain, n)]: Jain's index of the flows active in each window of window_s s,
    every step_s s from t_from until t_to."""
    out, t = [], t_from
    while t + window_s <= t_to + 1e-9:
        fl = active(flows, t, t + window_s)
        got = window_bytes(rows, fl, t, t + window_s)
        out.append((round(t, 6), round(t + window_s, 6),
                    jain(got[f] for f in fl) if len(fl) > 1 else None, len(fl)))
        t += step_s
    return out


def fair_fractions(rows, flows, newcomer, window_s=1.0):
    """[(seconds after the newcomer's start at the window's end, its throughput over its
    fair share)] for consecutive window_s windows from its start: the fair share is the
    window's delivered total over the flows active in it."""
    new = next(f for f in flows if f["index"] == newcomer)
    out, t = [], new["start_s"]
    while t + window_s <= new["end_s"] + 1e-9:
        fl = active(flows, t, t + window_s)
        got = window_bytes(rows, fl, t, t + window_s)
        total = sum(got.values())
        if total > 0 and newcomer in fl:
            out.append((round(t + window_s - new["start_s"], 6), got[newcomer] / (total / len(fl))))
        t += window_s
    return out


def convergence(rows, flows, newcomer, window_s=1.0, shares=CONVERGENCE_SHARES):
    """{share: {"first": s, "settled": s}}: seconds after the newcomer's start until, over
    window_s windows, it first got at least share of its fair share (seed 004's convergence
    time; BBR's STARTUP can get there at once and fall back), and until it got that in every
    window from then to the run's end (settled); None if never."""
    fr = fair_fractions(rows, flows, newcomer, window_s)
    out = {}
    for s in shares:
        first = next((t for t, x in fr if x >= s), None)
        settled = None
        for t, x in reversed(fr):
            if x < s:
                break
            settled = t
        out[s] = {"first": first, "settled": settled}
    return out


def refill(rows, flows, leaver, window_s=1.0, before_s=5.0, shares=CONVERGENCE_SHARES):
    """{share: s}: seconds after the flow leaver ends until the flows still running first
    deliver, over a window_s window, at least share of what all flows delivered per second
    in the before_s s before it left (the link they shared); None if never, or if nothing
    was delivered before."""
    end = next(f for f in flows if f["index"] == leaver)["end_s"]
    t_to = max(f["end_s"] for f in flows)
    t0 = max(0.0, end - before_s)
    before = window_bytes(rows, active(flows, t0, end), t0, end)
    ref = sum(before.values()) / (end - t0) if end > t0 else 0.0
    out = {x: None for x in shares}
    t = end
    while ref > 0 and t + window_s <= t_to + 1e-9:
        fl = [i for i in active(flows, t, t + window_s) if i != leaver]
        rate = sum(window_bytes(rows, fl, t, t + window_s).values()) / window_s
        for x in shares:
            if out[x] is None and rate >= x * ref:
                out[x] = round(t + window_s - end, 6)
        t += window_s
    return out


def queue_after(queue_rows, rate_mbit, t_from, t_to, window_s=10.0):
    """[mean queueing delay (ms: backlog over the rate) of each window_s window from t_from
    until t_to], None for a window without samples: how long a standing queue outlives the
    flow that left."""
    out, t = [], t_from
    while t + window_s <= t_to + 1e-9:
        qd = [float(q["backlog_bytes"]) * 8 / (rate_mbit * 1e6) * 1e3 for q in queue_rows
              if t <= float(q["t_s"]) < t + window_s]
        out.append(mean(qd) if qd else None)
        t += window_s
    return out


def rate_phases(rate_changes, rate0, t_end):
    """[(t0, t1, rate)] of a run with rate_changes [(t after t0, rate)], the first phase at
    rate0 from 0."""
    out, t, r = [], 0.0, rate0
    for tc, rc in rate_changes:
        out.append((t, tc, r))
        t, r = tc, rc
    out.append((t, t_end, r))
    return out


def read_rate_changes(d, t0):
    """[(seconds after t0, Mbit/s)] of rate_changes.txt ([] without one)."""
    path = os.path.join(d, "rate_changes.txt")
    try:
        with open(path) as f:
            return [(float(a) - t0, float(b)) for a, b in (ln.split()[:2] for ln in f if ln.strip())]
    except FileNotFoundError:
        return []


def read_delay_changes(d, t0):
    """The route changes of delay_changes.txt (scenario.sh --delay-schedule) as
    [{"t_s": seconds after t0, "class": sender class, "rtt_ms": its base RTT from then on}]
    ([] without one)."""
    try:
        with open(os.path.join(d, "delay_changes.txt")) as f:
            rows = [ln.split()[:3] for ln in f if ln.strip()]
    except FileNotFoundError:
        return []
    return [{"t_s": round(float(up) - t0, 3), "class": int(k), "rtt_ms": float(ms)}
            for up, k, ms in rows]


def rate_at(phases, t):
    for a, b, r in phases:
        if a <= t < b:
            return r
    return phases[-1][2]


def phase_stats(phases, queue_rows, ss_rows, tput_rows, flows, skip_s=0.0):
    """Per rate phase [(t0, t1, rate)]: queueing delay (backlog bytes over the rate in
    force) mean and p95 in ms, each flow's mean srtt (ms), the delivered Mbit/s; samples in
    [t0 + skip_s, t1) (skip_s leaves out the transition)."""
    out = []
    for a, b, rate in phases:
        lo = a + skip_s
        qd = [float(q["backlog_bytes"]) * 8 / (rate * 1e6) * 1e3 for q in queue_rows
              if lo <= float(q["t_s"]) < b]
        rtt = collections.defaultdict(list)
        for s in ss_rows:
            if lo <= float(s["t_s"]) < b and s.get("srtt_ms") not in (None, ""):
                rtt[int(s["flow"])].append(float(s["srtt_ms"]))
        got = window_bytes(tput_rows, [f["index"] for f in flows], lo, b) if b > lo else {}
        out.append({"t0_s": a, "t1_s": b, "rate_mbit": rate,
                    "qdelay_mean_ms": mean(qd), "qdelay_p95_ms": percentile(qd, 95),
                    "srtt_mean_ms": {str(k): mean(v) for k, v in sorted(rtt.items())},
                    "throughput_mbps": (sum(got.values()) * 8 / (b - lo) / 1e6) if b > lo else None})
    return out


def series(queue_rows, ss_rows, phases, step_s=0.5):
    """[(t, rate, qdelay_ms, {flow: srtt_ms})]: the queue and each flow's RTT over time, the
    last sample of each step_s bin (the queue delay at the rate in force)."""
    bins = {}
    for q in queue_rows:
        t = float(q["t_s"])
        k = int(t // step_s)
        r = rate_at(phases, t)
        bins.setdefault(k, [None, r, None, {}])
        bins[k][0], bins[k][1] = k * step_s, r
        bins[k][2] = float(q["backlog_bytes"]) * 8 / (r * 1e6) * 1e3
    for s in ss_rows:
        t = float(s["t_s"])
        k = int(t // step_s)
        if k in bins and s.get("srtt_ms") not in (None, ""):
            bins[k][3][int(s["flow"])] = float(s["srtt_ms"])
    return [tuple(v) for _, v in sorted(bins.items()) if v[0] is not None]


def flow_spans(flows, duration):
    """The flows as {index, start_s, end_s}: planned start, and end = start + its run."""
    return [{"index": f["index"], "start_s": f.get("offset_s", f["start_s"]),
             "end_s": min(duration, f["start_s"] + f["run_s"])} for f in flows]


def evaluate(run, tables, duration, window_s=1.0, jain_window_s=2.0):
    """The "evaluation" entry of a run (run.py's load_run dict, with "trains" and the finite
    flows among "flows"; tables: its throughput, ss and queue rows as dicts): fct and finite
    flows where it has them, convergence where a flow joins after the first, sliding Jain
    where flows overlap, phases and series with a rate schedule. None when it has none of
    them (a run of the classic options)."""
    env, d, t0 = run["env"], run["dir"], run["t0"]
    flows = run["flows"]
    ev = {}
    sized = [f for f in flows + run.get("trains", []) if f.get("size") not in (None, "0")]
    if sized:
        recs = read_fct(d, flows + run.get("trains", []), t0)
        ev["fct"] = fct_stats([r for r in recs if r["kind"] == "train"])
        ev["fct_finite"] = fct_stats([r for r in recs if r["kind"] == "finite"])
        ev["finite_throughput_mbps"] = {str(k): v for k, v in finite_throughput(recs).items()}
        ev["connections"] = len(recs)
    spans = flow_spans(flows, duration)
    rows = tables["throughput"]
    starts = sorted({round(s["start_s"], 3) for s in spans})
    if len(starts) > 1 and len(spans) > 1:
        conv = {}
        first = min(s["start_s"] for s in spans)
        for s in spans:
            if s["start_s"] > first + 0.5:
                conv[str(s["index"])] = {f"{round(k * 100)}": v for k, v in
                                          convergence(rows, spans, s["index"], window_s).items()}
        if conv:
            ev["convergence_s"] = conv
            last = max(s["start_s"] for s in spans)
            win = sliding_jain(rows, spans, jain_window_s, window_s, last, run["w1"])
            vals = [j for _, _, j, _ in win if j is not None]
            ev["jain_windows"] = {"window_s": jain_window_s, "from_s": last,
                                  "mean": mean(vals), "min": min(vals) if vals else None,
                                  "n": len(vals)}
    last_end = max((s["end_s"] for s in spans), default=0.0)
    leavers = [s for s in spans if s["end_s"] < last_end - 0.5]
    changes = read_rate_changes(d, t0)
    if leavers and len(spans) > 1:
        ev["refill_s"] = {str(s["index"]): {f"{round(k * 100)}": v for k, v in
                                             refill(rows, spans, s["index"], window_s).items()}
                          for s in leavers}
        if not changes and not env.get("rate_schedule"):
            ev["queue_after_leave_ms"] = queue_after(tables["queue"], run["rate"],
                                                     max(s["end_s"] for s in leavers),
                                                     last_end)
    # per phase for a rate schedule's few steps; a rate trace's hundreds are its summary's
    if (changes or env.get("rate_schedule")) and not env.get("rate_trace"):
        phases = rate_phases(changes, run["rate"], run["w1"])
        ev["phases"] = phase_stats(phases, tables["queue"], tables["ss"], rows, flows, 1.0)
        ev["qdisc"] = env.get("qdisc", "bfifo")
    return ev or None


# ---- a screen's evaluations as one CSV row per run (analyze.py --evaluation) ----------------
EVAL_COLS = ["config", "scenario", "seed", "cc", "qdisc", "rate_mbit", "loss_pct", "buffer_bdp",
             "jain", "utilization", "retrans_rate", "qdelay_mean_ms", "problems", "kernel",
             "module_version", "module_srcversion", "module_hash", "testbed_hash", "scenario_hash"]
SERIES_COLS = ["config", "scenario", "seed", "cc", "qdisc", "t_s", "rate_mbit", "qdelay_ms",
               "srtt_ms"]


def flatten(r):
    """A summary.json result's evaluation metrics as flat columns: fct_<size|all>_{n,p50_ms,
    p95_ms} (trains), finite_<size>_{fct_s,tput_mbps} (finite flows), conv<80|95>_{first,
    settled}_s, refill<80|95>_s and leave_q<10 k>_ms (after a flow leaves: the time to refill
    the link, the mean queue delay of each 10 s from then), jain_win_{mean,min}, ph<i>_{rate_mbit,qdelay_mean_ms,qdelay_p95_ms,srtt_ms,
    tput_mbps}, flent_fairness, ping_s<k>_ms; flow<i>_mbps for every run."""
    ev, out = r.get("evaluation") or {}, {}
    for f in r.get("flows", []):
        out[f"flow{f['index']}_mbps"] = f.get("throughput_mbps")
    for size, s in (ev.get("fct") or {}).items():
        for k in ("n", "p50_ms", "p95_ms"):
            out[f"fct_{size}_{k}"] = s[k]
    for size, s in (ev.get("fct_finite") or {}).items():
        if size != "all":
            out[f"finite_{size}_fct_s"] = None if s["p50_ms"] is None else s["p50_ms"] / 1e3
    for flow, v in (ev.get("finite_throughput_mbps") or {}).items():
        out[f"finite_flow{flow}_mbps"] = v
    for flow, c in (ev.get("convergence_s") or {}).items():
        for share, v in c.items():
            out[f"conv{share}_first_s"], out[f"conv{share}_settled_s"] = v["first"], v["settled"]
    for flow, c in (ev.get("refill_s") or {}).items():
        for share, v in c.items():
            out[f"refill{share}_s"] = v
    for i, v in enumerate(ev.get("queue_after_leave_ms") or []):
        out[f"leave_q{i * 10}_ms"] = v
    jw = ev.get("jain_windows") or {}
    if jw:
        out["jain_win_mean"], out["jain_win_min"] = jw["mean"], jw["min"]
    for i, p in enumerate(ev.get("phases") or [], 1):
        out[f"ph{i}_rate_mbit"] = p["rate_mbit"]
        out[f"ph{i}_qdelay_mean_ms"] = p["qdelay_mean_ms"]
        out[f"ph{i}_qdelay_p95_ms"] = p["qdelay_p95_ms"]
        out[f"ph{i}_srtt_ms"] = mean(list(p["srtt_mean_ms"].values()))
        out[f"ph{i}_tput_mbps"] = p["throughput_mbps"]
    fl = r.get("flent") or {}
    if fl:
        out["flent_fairness"] = fl.get("fairness_mean")
        for name, v in (fl.get("ping_ms") or {}).items():
            host = name.split()[-1].split(".")
            k = host[2] if len(host) == 4 and host[:2] == ["10", "1"] else name.split()[-1]
            out[f"ping_s{k}_ms"] = v
    return out


def evaluation_runs(root):
    """(columns, rows) of every job of a screen.sh tree: EVAL_COLS and the union of its runs'
    flatten columns, one row (dict) per run."""
    from .checks import problems
    from .provenance import job_key_of
    from .screen import screen_jobs
    rows = []
    for config, scenario, path, summ in screen_jobs(root):
        key = job_key_of(path) or {}
        try:
            with open(os.path.join(os.path.dirname(path), "job.key")) as f:
                sh = [w[len("scenario="):] for w in f.read().split() if w.startswith("scenario=")]
        except OSError:
            sh = []
        for r in summ["results"]:
            p = r["params"]
            row = {"config": config, "scenario": scenario, "seed": p.get("seed"), "cc": r["cc"],
                   "qdisc": p.get("qdisc", "bfifo"), "rate_mbit": r.get("rate_mbit"),
                   "loss_pct": r.get("loss_pct"), "buffer_bdp": p.get("buffer_bdp"),
                   "jain": r.get("jain"), "utilization": r.get("utilization"),
                   "retrans_rate": r.get("retrans_rate"),
                   "qdelay_mean_ms": (r.get("queue_delay_ms") or {}).get("mean"),
                   "problems": "; ".join(problems(r)), "kernel": r.get("kernel"),
                   "module_version": r.get("module_version"),
                   "module_srcversion": p.get("module_srcversion", ""),
                   "module_hash": key.get("module_hash", ""),
                   "testbed_hash": key.get("testbed_hash", ""),
                   "scenario_hash": sh[0] if sh else ""}
            row.update(flatten(r))
            rows.append(row)
    extra = sorted({k for r in rows for k in r} - set(EVAL_COLS),
                   key=lambda k: (k.split("_")[0].rstrip("0123456789"), _num_key(k), k))
    return EVAL_COLS + extra, rows


def _num_key(k):
    digits = "".join(ch for ch in k.split("_")[0] if ch.isdigit()) or "0"
    size = k.split("_")[1] if k.count("_") > 1 else ""
    return (int(digits), int(size) if size.isdigit() else 0)


def evaluation_series(root, step_s=0.5):
    """SERIES_COLS rows of every job of a screen.sh tree whose run had a rate schedule: its
    queue delay (at the rate in force) and its first flow's RTT every step_s s, from the
    run's queue.csv and ss.csv (the raw run must be there, analysed)."""
    import csv
    from .screen import screen_jobs
    out = []
    for config, scenario, path, summ in screen_jobs(root):
        seed_dir = os.path.dirname(path)
        for r in summ["results"]:
            ev = r.get("evaluation") or {}
            if not ev.get("phases"):
                continue
            run = os.path.join(seed_dir, r["dir"])
            rows = {}
            for name in ("queue", "ss"):
                try:
                    with open(os.path.join(run, f"{name}.csv")) as f:
                        rows[name] = list(csv.DictReader(f))
                except OSError:
                    raise AnalysisError(f"{run}: no {name}.csv (the raw run, analysed, is needed)")
            phases = [(p["t0_s"], p["t1_s"], p["rate_mbit"]) for p in ev["phases"]]
            first = min((f["index"] for f in r["flows"]), default=1)
            for t, rate, qd, rtt in series(rows["queue"], rows["ss"], phases, step_s):
                out.append([config, scenario, r["params"].get("seed"), r["cc"],
                            ev.get("qdisc", "bfifo"), round(t, 3), rate,
                            None if qd is None else round(qd, 3), rtt.get(first)])
    return out
