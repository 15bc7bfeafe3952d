"""What made a run: every option that shapes it, the kernel and the module, from its
summary.json result (params.env and run.env as the run recorded them) and, for a screen
job, its job.key (the hashes of the module and testbed sources, the kernel build). Written
into summary.json (each result's "provenance") and screen_runs.csv (a column each); a run
made before a field was recorded has it empty."""
import os

# (field, params.env / run.env key or a function of the result)
PROVENANCE = (
    ("duration_s", "duration_s"), ("warmup_s", "warmup_s"), ("cooldown_s", "cooldown_s"),
    ("interval_start_s", lambda r: (r.get("interval_s") or [None])[0]),
    ("interval_end_s", lambda r: (r.get("interval_s") or [None, None])[1]),
    ("client", "client"), ("sample_ms", "sample_ms"),
    ("report_interval_s", "interval_s"),
    ("rate_mbit", "rate_mbit"), ("buffer_bytes", "buffer_bytes"), ("bdp_bytes", "bdp_bytes"),
    ("buffer_bdp", "buffer_bdp"), ("loss_pct", "loss_pct"), ("rtts_ms", "rtts_ms"),
    ("flows_per_class", lambda r: "/".join(str(n) for _, n in _classes(r))),
    ("stagger_s", "stagger_s"), ("starts_s", "starts_s"), ("jitter_s", "jitter_s"),
    ("seed", "seed"), ("cc", "cc"), ("module_params", "module_params"),
    ("backend", "backend"), ("kernel", "kernel"), ("kernel_series", "kernel_series"),
    ("module_version", "module_version"), ("module_srcversion", "module_srcversion"),
    ("sockbuf_bytes", "sockbuf_bytes"), ("tcp_mem", "tcp_mem"), ("sampler", "sampler"),
    ("module_srchash", "module_srchash"),
)
JOB_KEY_FIELDS = ("trace", "module_hash", "testbed_hash", "kernel_id")
# the machine a run was made on (run.env, from 2026-11-29 on): a guest runs the host's
# userland, and one job key has given other runs in another session, on another machine
HOST_FIELDS = ("host_cpu", "host_userland")
PROVENANCE_FIELDS = tuple(f for f, _ in PROVENANCE) + JOB_KEY_FIELDS + HOST_FIELDS


def _classes(r):
    """((rtt_ms, flows) per RTT class): from the flows' classes, else params.env."""
    by = {}
    for f in r.get("flows", []):
        if "class" not in f:
            break
        by.setdefault(f["class"], [f["rtt_ms"], 0])[1] += 1
    else:
        if by:
            return [tuple(v) for _, v in sorted(by.items())]
    p = r.get("params", {})
    rtts = p.get("rtts_ms", "").split()
    counts = p.get("flows_per_rtt", "1").replace(",", " ").split()
    counts = counts * len(rtts) if len(counts) == 1 else counts
    return list(zip(rtts, counts))


def job_key(path):
    """{trace, module_hash, testbed_hash, kernel_id} of a screen job's job.key (trace: on
    unless the key says --trace off, the module's gain trace; '' for what the key does not
    name: keys before 2026-11-25 name no kernel); {} without the file."""
    try:
        with open(path) as f:
            words = f.read().split()
    except OSError:
        return {}
    kv = dict(w.split("=", 1) for w in words if "=" in w and not w.startswith("-"))
    trace = "off" if any(a == "--trace" and b == "off" for a, b in zip(words, words[1:])) else "on"
    return {"trace": trace, "module_hash": kv.get("module", ""),
            "testbed_hash": kv.get("testbed", ""), "kernel_id": kv.get("kernel", "")}


def run_provenance(r, key=None):
    """{field: value} of PROVENANCE_FIELDS for summary.json result r ('' where the run did not
    record it); key: its job.key fields (job_key), if any."""
    p = r.get("params", {})
    out = {}
    for field, src in PROVENANCE:
        v = src(r) if callable(src) else p.get(src)
        out[field] = "" if v is None else v
    out.update({k: (key or {}).get(k, "") for k in JOB_KEY_FIELDS})
    # a run on the UML kernel built with BBR_A_UML_PATCH names it in its run.env
    out["kernel_id"] = out["kernel_id"] or p.get("kernel_id") or ""
    out.update({k: p.get(k) or "" for k in HOST_FIELDS})
    return out


def job_key_of(summary_path):
    """job_key of the job.key beside a summary.json."""
    return job_key(os.path.join(os.path.dirname(summary_path), "job.key"))
