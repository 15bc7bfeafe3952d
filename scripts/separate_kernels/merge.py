#!/usr/bin/python3
"""Host side of scripts/separate_kernels.sh: its guests' outputs as one testbed run directory
(what testbed/scenario.sh writes, so testbed/analyze.py makes the same summary.json), the
host's CPU while the guests run, and whether the setup held its rate.

    merge.py run GUESTS RUN KEY=VALUE...
        GUESTS/router and GUESTS/s<k> (each guest's BBR_A_OUT) -> RUN/params.env, flows.txt,
        flow<k>.json, tc.txt, ss_s<k>.txt ... on the router's clock. KEY=VALUE: rtts (space
        separated), ccs (one per class), flows, rate, buffer, buffer_bdp, bdp, duration,
        warmup, cooldown, seed, sample_ms, wall_s, rt_prio, cc_index, repeat_index, and cpu
        (the cpu CSV of the run)
    merge.py cpu FILE PREFIX
        every second until killed, a line of FILE: host time, the host's busy and total
        jiffies, and each guest's CPU ticks (its UML processes, told by the host tap names
        PREFIX... on their command line)
    merge.py compare POINT=LABEL:SUMMARY,LABEL:SUMMARY...
        a Markdown table: per point, cc and summary.json (rtt_fairness.sh's, or this
        script's DIR/runs/summary.json) the runs' Jain index, the first class's share, the
        queue delay, the utilisation and the bottleneck's load (mean and min..max)
    merge.py report OUT RATE
        OUT/separate.json and a table: per run (and the calibration run) the bottleneck's
        load and the flows' utilisation (did the guests hold the rate?), the base RTTs,
        each guest's share of a core and the host's busy share while the flows ran
"""
import glob
import json
import os
import re
import sys
import time

HZ = os.sysconf("SC_CLK_TCK")
PORT_BASE = 5201


def read_env(path):
    out = {}
    with open(path) as f:
        for line in f:
            k, sep, v = line.rstrip("\n").partition("=")
            if sep:
                out[k] = v
    return out


def shift_samples(src, dst, offset):
    """A sampler file with each '@ <uptime>' line moved by offset seconds."""
    with open(src) as f, open(dst, "w") as g:
        for line in f:
            if line.startswith("@ "):
                line = f"@ {float(line.split()[1]) + offset:.3f}\n"
            g.write(line)


def copy(src, dst):
    if os.path.exists(src):
        with open(src, "rb") as f, open(dst, "wb") as g:
            g.write(f.read())


def ping_min(path):
    m = re.search(r"= ([0-9.]+)/", open(path).read())
    if not m:
        raise SystemExit(f"merge.py: no ping summary in {path}")
    return m.group(1)


def grid_phase(offset, hz=100, period_s=10):
    """Where, on the router's clock modulo period_s, a guest whose uptime is the router's less
    offset has the boundaries of bbr_a_fair's PROBE_RTT grid: tcp_jiffies32 a multiple of
    period_s x HZ (bbr_a_grid_expired), jiffies starting at INITIAL_JIFFIES, (u32)(-300 HZ),
    at boot. UML's HZ is 100. Flows in kernels with the same phase dip together."""
    first = ((300 * hz - 2 ** 32) % (period_s * hz)) / hz  # uptime of the first boundary
    return (first + offset) % period_s


def merge(guests, run, kv):
    rtts = kv["rtts"].split()
    ccs = kv["ccs"].split()
    flows = int(kv["flows"])
    duration = kv["duration"]
    router = read_env(os.path.join(guests, "router", "guest.env"))
    go_r = float(router["go_uptime"])
    senders = [read_env(os.path.join(guests, f"s{k}", "guest.env")) for k in range(1, len(rtts) + 1)]
    os.makedirs(run, exist_ok=True)
    first = senders[0]
    params = {
        "kernel": router["kernel"], "kernel_series": "uml-net-realtime",
        "module_version": first.get("module_version", "none"),
        "module_params_effective": first.get("module_params_effective", ""),
        "module_srcversion": first.get("module_srcversion", ""),
        "module_params": "", "cc": " ".join(ccs) if len(set(ccs)) > 1 else ccs[0],
        "rtts_ms": " ".join(rtts), "flows_per_rtt": str(flows), "rate_mbit": kv["rate"],
        "buffer_bytes": kv["buffer"], "loss_pct": "0", "duration_s": duration,
        "warmup_s": kv["warmup"], "stagger_s": "0", "starts_s": "", "jitter_s": "0",
        "seed": kv["seed"], "interval_s": "1", "sample_ms": kv["sample_ms"],
        "flows": str(flows * len(rtts)), "iperf3_clients": str(len(rtts)),
        "streams_per_client_max": str(flows), "client": "tcpflow", "sampler": "netlink",
        "t0_uptime": f"{go_r:.2f}", "trace_offset_cs": "0",
    }
    # the flow table of testbed/lib/flows.sh: classes alternate; class k's flows are one
    # client (group k, port 5200 + k), stream r - 1 of it
    table, starts = [], []
    for r in range(1, flows + 1):
        for k, rtt in enumerate(rtts, 1):
            i = (r - 1) * len(rtts) + k
            table.append(f"{i} {k} {rtt} {ccs[k - 1]} {PORT_BASE + k - 1} 0.000 {duration} {k} {r - 1}")
            # the start signal reached sender k one base RTT after the router sent it (the
            # whole RTT is on the router's egress toward it)
            starts.append(f"{i} {go_r + float(rtt) / 1e3:.2f}")
    with open(os.path.join(run, "flows.txt"), "w") as f:
        f.write("\n".join(table) + "\n")
    with open(os.path.join(run, "groups.txt"), "w") as f:
        for k, rtt in enumerate(rtts, 1):
            members = ",".join(str((r - 1) * len(rtts) + k) for r in range(1, flows + 1))
            f.write(f"{k} {k} {ccs[k - 1]} {PORT_BASE + k - 1} 0.000 {duration} {members}\n")
    with open(os.path.join(run, "flow_starts.txt"), "w") as f:
        f.write("\n".join(starts) + "\n")
    failed = 0
    for k, (rtt, s) in enumerate(zip(rtts, senders), 1):
        g = os.path.join(guests, f"s{k}")
        # sender k's clock onto the router's: its go came rtt after the router's
        offset = go_r + float(rtt) / 1e3 - float(s["go_uptime"])
        shift_samples(os.path.join(g, "ss.txt"), os.path.join(run, f"ss_s{k}.txt"), offset)
        copy(os.path.join(g, "flow.json"), os.path.join(run, f"flow{k}.json"))
        copy(os.path.join(g, "ping.txt"), os.path.join(run, f"ping_s{k}.txt"))
        for a, b in (("snmp_start", f"snmp_s{k}_start"), ("snmp_end", f"snmp_s{k}_end"),
                     ("netstat_end", f"netstat_s{k}_end")):
            copy(os.path.join(g, f"{a}.txt"), os.path.join(run, f"{b}.txt"))
        params[f"base_rtt_ms_s{k}"] = ping_min(os.path.join(g, "ping.txt"))
        params[f"flow_rc_{k}"] = s.get("flow_rc", "1")
        params[f"clock_offset_s{k}"] = f"{offset:.3f}"
        params[f"grid_phase_s{k}"] = f"{grid_phase(offset):.2f}"
        if f"boot_delay_s{k}" in kv:
            params[f"boot_delay_s{k}"] = kv[f"boot_delay_s{k}"]
        # how far its wall clock was set off the host's (--clock-offset)
        params[f"wall_clock_offset_ms_s{k}"] = s.get("clock_offset_ms", "0")
        failed += params[f"flow_rc_{k}"] != "0"
    for name in ("tc.txt", "tc_final.txt"):
        copy(os.path.join(guests, "router", name), os.path.join(run, name))
    params["end_uptime"] = router.get("end_uptime", "")
    params["flows_failed"] = str(failed)
    params["flows_not_connected"] = "0"
    with open(os.path.join(run, "params.env"), "w") as f:
        f.writelines(f"{k}={v}\n" for k, v in params.items())
    with open(os.path.join(run, "run.env"), "w") as f:
        for key in ("buffer_bdp", "bdp", "cooldown", "wall_s", "rt_prio", "cc_index",
                    "repeat_index"):
            if key not in kv:
                continue
            f.write({"bdp": "bdp_bytes", "cooldown": "cooldown_s"}.get(key, key) + f"={kv[key]}\n")
        f.write("backend=separate-uml\n")
        f.write(f"router_duration_s={float(router['end_uptime']) - go_r:.2f}\n")
    if kv.get("cpu"):
        copy(kv["cpu"], os.path.join(run, "cpu.csv"))
    return failed


# ------------------------------------------------------------------------------- cpu
def guest_ticks(prefix):
    """{guest: CPU ticks} of the UML guests whose command line names a tap PREFIX...
    (router, s1, s2 ...): every process of each one's session (UML runs a host process per
    guest process)."""
    lead, sess = {}, {}
    for d in glob.glob("/proc/[0-9]*"):
        try:
            with open(d + "/stat") as f:
                st = f.read().rsplit(")", 1)[1].split()
            with open(d + "/cmdline", "rb") as f:
                cmd = f.read().decode(errors="replace")
        except OSError:
            continue
        sid, ticks = int(st[3]), int(st[11]) + int(st[12])
        sess[sid] = sess.get(sid, 0) + ticks
        m = re.search(r"ifname=" + re.escape(prefix) + r"([rs])([0-9]+)", cmd)
        if m and int(d[6:]) == sid:  # the router's taps are <P>r<k>, sender k's <P>s<k>
            lead[sid] = "router" if m.group(1) == "r" else f"s{m.group(2)}"
    return {name: sess[sid] for sid, name in lead.items()}


def cpu(path, prefix):
    with open(path, "w") as out:
        out.write("host_time,busy,total,guests\n")
        while True:
            with open("/proc/stat") as f:
                v = [int(x) for x in f.readline().split()[1:]]
            total, idle = sum(v[:8]), v[3] + v[4]
            g = guest_ticks(prefix)
            out.write(f"{time.time():.2f},{total - idle},{total},"
                      + " ".join(f"{k}:{t}" for k, t in sorted(g.items())) + "\n")
            out.flush()
            time.sleep(1)


def cpu_window(path, start, end):
    """The host's busy share of all its cores and each guest's share of one core over the
    host times [start, end], from a cpu CSV."""
    rows = []
    with open(path) as f:
        next(f)
        for line in f:
            t, busy, total, guests = line.rstrip("\n").split(",", 3)
            rows.append((float(t), int(busy), int(total),
                         {k: int(v) for k, v in (x.split(":") for x in guests.split())}))
    rows = [r for r in rows if start <= r[0] <= end]
    if len(rows) < 2:
        return None
    a, b = rows[0], rows[-1]
    wall = b[0] - a[0]
    return {"host_busy": round((b[1] - a[1]) / (b[2] - a[2]), 3) if b[2] > a[2] else None,
            "guests": {k: round((b[3][k] - a[3].get(k, 0)) / HZ / wall, 3)
                       for k in b[3] if k in a[3]},
            "seconds": round(wall, 1)}


# ------------------------------------------------------------------------------ report
def run_report(d):
    r = json.load(open(os.path.join(d, "run_summary.json")))
    env = r["params"]
    rtts = env["rtts_ms"].split()
    out = {"dir": d, "cc": r["cc"], "seed": int(env["seed"]), "jain": r["jain"],
           "utilization": r["utilization"], "bottleneck_load": r["bottleneck_load"],
           "queue_delay_ms": r["queue_delay_ms"]["mean"],
           "throughput_mbps": [round(f["throughput_mbps"], 3) for f in r["flows"]],
           "base_rtt_ms": {rtt: float(env[f"base_rtt_ms_s{k}"]) for k, rtt in enumerate(rtts, 1)},
           "module_version": env.get("module_version")}
    cpu_csv = os.path.join(d, "cpu.csv")
    if os.path.exists(cpu_csv):
        # the flows' seconds on the host's clock: the run's end (the CSV's last line, when
        # the guests were gone) less what the router counted from its go to its end
        last = float(open(cpu_csv).read().splitlines()[-1].split(",")[0])
        span = float(read_env(os.path.join(d, "run.env"))["router_duration_s"])
        w0, w1 = float(env["warmup_s"]), float(env["duration_s"]) - 1
        end = last - 1 - span  # the go, about (the guests power off within a second)
        out["cpu"] = cpu_window(cpu_csv, end + w0, end + w1)
    return out


def report(root, rate):
    runs = []
    for p in sorted(glob.glob(os.path.join(root, "**", "run_summary.json"), recursive=True)):
        d = os.path.dirname(p)
        runs.append({**run_report(d), "dir": os.path.relpath(d, root)})
    for r in runs:
        # held: the bottleneck was busy at the rate its htb was given (wire bytes, the
        # testbed's bottleneck_load), so the guests kept up in real time
        r["held_rate"] = r["bottleneck_load"] is not None and r["bottleneck_load"] >= 0.95
    with open(os.path.join(root, "separate.json"), "w") as f:
        json.dump({"rate_mbit": rate, "held_rule": "bottleneck_load >= 0.95", "runs": runs}, f,
                  indent=1)
    print(f"{'run':34} {'jain':>6} {'util':>6} {'load':>6} {'qdelay':>7} held  cpu (guests; host busy)")
    for r in runs:
        c = r.get("cpu") or {}
        g = " ".join(f"{k}:{v:.2f}" for k, v in sorted(c.get("guests", {}).items()))
        print(f"{r['dir']:34} {r['jain']:6.3f} {r['utilization']:6.3f} "
              f"{r['bottleneck_load'] or 0:6.3f} {r['queue_delay_ms'] or 0:6.1f}ms "
              f"{'yes' if r['held_rate'] else 'NO':4}  {g}; {c.get('host_busy')}")
    return 0 if all(r["held_rate"] for r in runs) else 1


def spread(xs, fmt):
    xs = [x for x in xs if x is not None]
    if not xs:
        return "-"
    m = sum(xs) / len(xs)
    return (fmt.format(m) + (f" ({fmt.format(min(xs))}..{fmt.format(max(xs))})" if len(xs) > 1 else ""))


def compare(items):
    """POINT=LABEL:SUMMARY,LABEL:SUMMARY,... items: a table row per point, cc and label."""
    print("| point | cc | kernels | runs | Jain | share of the first class | queue delay, ms "
          "| utilisation | bottleneck load |")
    print("|---|---|---|---|---|---|---|---|---|")
    for item in items:
        point, _, sources = item.partition("=")
        rows = {}
        for n, src in enumerate(sources.split(",")):
            label, _, path = src.partition(":")
            for r in json.load(open(path))["results"]:
                rows.setdefault(r["cc"], {}).setdefault((n, label), []).append(r)
        for cc, by in rows.items():
            for (_, label), rs in sorted(by.items()):
                print(f"| {point} | {cc} | {label} | {len(rs)} "
                      f"| {spread([r['jain'] for r in rs], '{:.3f}')} "
                      f"| {spread([r['per_class'][0]['share'] for r in rs], '{:.3f}')} "
                      f"| {spread([r['queue_delay_ms']['mean'] for r in rs], '{:.1f}')} "
                      f"| {spread([r['utilization'] for r in rs], '{:.3f}')} "
                      f"| {spread([r['bottleneck_load'] for r in rs], '{:.3f}')} |")
    return 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "run":
        kv = dict(a.split("=", 1) for a in argv[3:])
        return 1 if merge(argv[1], argv[2], kv) else 0
    if len(argv) == 3 and argv[0] == "cpu":
        cpu(argv[1], argv[2])
        return 0
    if len(argv) >= 2 and argv[0] == "compare":
        return compare(argv[1:])
    if len(argv) == 3 and argv[0] == "report":
        return report(argv[1], float(argv[2]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
