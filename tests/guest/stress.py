#!/usr/bin/env python3
"""tests/guest/stress.py -- the stress and fault suite of tcp_bbr_a. Runs INSIDE a User-Mode
Linux guest, as root, through tests/stress.sh:

    scripts/uml.sh run --out DIR -- python3 tests/guest/stress.py run [--long] [--only CASE,...]

Every case builds the testbed's dumbbell (testbed/topology.sh) with four sender namespaces,
one per congestion control of the module (bbr_a, bbr_a_fair, bbq, da_bbr, at 5, 20, 50 and
100 ms), so all four run in every case, side by side through one bottleneck. A flow sends
a stream whose bytes are a function of its number and offset; its receiver hashes what it
reads and answers, once the sender has half-closed, with the byte count and SHA-256, which
the sender compares with its own. A case passes when every flow connected (the sender
retries a handshake the kernel gave up on), ran the congestion control it asked for,
delivered every byte it wrote intact, and the kernel log gained no WARNING, BUG, Oops,
stall, soft lockup, hung task or sanitizer report.

Forms: --quick (the test suite's: tests/guest/test_uml_stress.py) runs four cases briefly;
the default, short form every case; --long every case, longer, more flows, more values.

Cases (short form; --long: longer, more flows, more values):
  loss        random loss after the bottleneck, 10 and 50 % (long: 1, 5, 20, 50 %)
  reorder     a quarter of the packets sent ahead of the others (netem reorder)
  duplicate   20 % of the packets duplicated
  corrupt     5 % of the packets with a flipped bit (TCP's checksum must catch each)
  jitter      10 +- 8 ms of normally distributed extra delay (reorders as it goes)
  rate_steps  the bottleneck rate stepping 2 -> 20 -> 2 Mbit/s, ten times
  many_flows  1000 flows at once (long: 1000 for longer)
  app_limited writes of 1000 bytes every 10 ms, then idle restarts (send, idle 3 s, send)
  long_idle   send, idle 4000 s (more than an hour, free under time travel), send
  rwnd        receivers with an 8 KB receive buffer that read 4 KB per 10 ms
  params      every module parameter written at random, in its range, during transfers
  rmmod       rmmod attempted every 100 ms during transfers: it must fail, cleanly
  cycles      insmod, flows of every cc appearing and closing, rmmod refused while they
              run and accepted after: 5 times (long: 50)

    stress.py run [--quick|--long] [--only CASE,...] [--out DIR]
                                                         the suite; DIR/summary.json
    stress.py recv ...  /  stress.py send ...                its traffic (run starts them)

run writes summary.json into DIR (default $BBR_A_OUT): the cases with their flows, bytes
and errors, the kernel log's findings, which sanitizers the kernel has, and the totals;
exit status 0 when every case passed.
"""
import argparse
import hashlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time

TCP_CONGESTION = getattr(socket, "TCP_CONGESTION", 13)
CCS = ("bbr_a", "bbr_a_fair", "bbq", "da_bbr")
RTTS = (5, 20, 50, 100)
MODULE = "tcp_bbr_a"
PDIR = f"/sys/module/{MODULE}/parameters"
PORT0 = 6000
CHUNK = 1 << 16
PERIOD = (1 << 16) + 3  # the data pattern's period: no multiple of CHUNK or of a read
PATTERN = hashlib.shake_256(b"tcp_bbr_a stress").digest(PERIOD + CHUNK)
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.normpath(os.path.join(HERE, "..", ".."))
# What the kernel log must not gain (the integration tests' list, and the sanitizers').
BAD = re.compile(r"WARNING|BUG[: ]|Oops|\bstall|soft lockup|hung_task|blocked for more than|"
                 r"general protection|refcount_t|KASAN|UBSAN|possible circular|"
                 r"possible recursive|inconsistent lock|lock held when returning|"
                 r"suspicious RCU|unreferenced object|Call Trace|"
                 r"kmemleak: .*(unknown object|Cannot|overlaps|disabled)")
# kmemleak's periodic scans log "N new suspected memory leaks" and list the objects in its
# debugfs file, which the run reads at its end and judges object by object (leak_objects).
MODULE_FRAME = re.compile(r"\[" + MODULE + r"\]")
INSMOD_BEGIN, INSMOD_END = "stress.py: insmod begins", "stress.py: insmod done"
# kmemleak's warnings about module-load memory it does not know (load_module's
# kmemleak_load_module and kmemleak_not_leak on UML 6.1)
AT_LOAD = re.compile(r"kmemleak: (Adding scan area to|Trying to color) unknown object")


# ------------------------------------------------------------------------- traffic
def flow_offset(flow):
    return (flow * 7919) % PERIOD


def recv_one(conn, slow_us):
    """Read everything, hash it, answer 'BYTES SHA256' once the sender half-closes."""
    with conn:
        h, n = hashlib.sha256(), 0
        size = 4096 if slow_us else 1 << 16
        buf = bytearray(size)
        while True:
            k = conn.recv_into(buf, size)
            if not k:
                break
            h.update(memoryview(buf)[:k])
            n += k
            if slow_us:
                time.sleep(slow_us / 1e6)
        conn.sendall(f"{n} {h.hexdigest()}\n".encode())


def cmd_recv(a):
    """Accept connections until killed, each in its own thread."""
    threading.stack_size(256 << 10)
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if a.rcvbuf:
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, a.rcvbuf)
    srv.bind(("0.0.0.0", a.port))
    srv.listen(4096)
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=recv_one, args=(conn, a.slow_us), daemon=True).start()


def parse_plan(text):
    """'send:2,idle:3,app:1' -> [('send', 2.0), ('idle', 3.0), ('app', 1.0)]."""
    out = []
    for item in text.split(","):
        kind, _, secs = item.partition(":")
        if kind not in ("send", "idle", "app"):
            raise ValueError(f"bad plan item {item!r}")
        out.append((kind, float(secs)))
    return out


def connect(host, port, deadline):
    """Connected socket and the handshakes the kernel gave up on first (each after its SYN
    retransmissions), trying until deadline (monotonic)."""
    tries = 0
    while True:
        try:
            return socket.create_connection((host, port)), tries
        except OSError as e:
            if e.errno == 111 or time.monotonic() > deadline:  # refused: nobody listens
                raise
            tries += 1


def send_one(a, flow, plan, res):
    """One flow: connect, select the cc, follow the plan, half-close, compare the answer."""
    res.update(flow=flow, cc=a.cc, sent=0, received=None, ok=False)
    try:
        sock, res["connect_retries"] = connect(a.host, a.port, time.monotonic() + a.deadline)
    except OSError as e:
        res["error"] = f"never connected: {e}"
        return
    with sock:
        try:
            sock.setsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, a.cc.encode())
            used = sock.getsockopt(socket.IPPROTO_TCP, TCP_CONGESTION, 16).split(b"\0")[0]
            if used.decode() != a.cc:
                res["error"] = f"ran {used.decode()}, not {a.cc}"
                return
            mv, off, h, sent = memoryview(PATTERN), flow_offset(flow), hashlib.sha256(), 0
            for kind, secs in plan:
                end = time.monotonic() + secs
                if kind == "idle":
                    time.sleep(secs)
                    continue
                size = CHUNK if kind == "send" else 1000
                while time.monotonic() < end:
                    n = sock.send(mv[off:off + size])
                    h.update(mv[off:off + n])
                    off, sent = (off + n) % PERIOD, sent + n
                    if kind == "app":
                        time.sleep(0.01)
            res["sent"] = sent
            sock.shutdown(socket.SHUT_WR)
            sock.settimeout(a.deadline)
            answer = b""
            while not answer.endswith(b"\n"):
                chunk = sock.recv(128)
                if not chunk:
                    break
                answer += chunk
            n, _, digest = answer.decode().strip().partition(" ")
            res["received"] = int(n) if n.isdigit() else None
            res["ok"] = res["received"] == sent and digest == h.hexdigest()
            if not res["ok"]:
                res["error"] = (f"receiver got {n or 'nothing'} of {sent} bytes" if
                                res["received"] != sent else "content differs (SHA-256)")
        except OSError as e:
            res["error"] = f"{type(e).__name__}: {e}"


def cmd_send(a):
    """a.flows flows in parallel threads; one JSON line per flow on stdout."""
    threading.stack_size(256 << 10)
    plan = parse_plan(a.plan)
    results = [{} for _ in range(a.flows)]
    threads = [threading.Thread(target=send_one, args=(a, a.first + i, plan, results[i]))
               for i in range(a.flows)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        print(json.dumps(r))
    return 0


# ------------------------------------------------------------------------- the cases
def sh(script, check=True):
    """A POSIX sh script with testbed/topology.sh sourced and this run's TB_* variables."""
    env = {**os.environ, "TB_PREFIX": PREFIX}
    pre = f'. "{SRC}/testbed/topology.sh"; tb_find_tools || exit 1\n'
    p = subprocess.run(["sh", "-c", pre + script], env=env, capture_output=True, text=True)
    if check and p.returncode:
        raise RuntimeError(f"sh failed ({p.returncode}): {script.strip()[:200]}\n{p.stderr[-800:]}")
    return p


PREFIX = "st-"


def ns(name):
    return PREFIX + name


def tc(name, *args, check=True):
    p = subprocess.run(["tc", "-n", ns(name), *args], capture_output=True, text=True)
    if check and p.returncode:
        raise RuntimeError(f"tc -n {ns(name)} {' '.join(args)}: {p.stderr.strip()}")
    return p


def topology(rate, buf, netem=None, loss_ack=None):
    """The dumbbell: four sender classes (one per cc), the bottleneck (rate Mbit/s, buf
    bytes) and, with netem, the hop after it running that netem (loss, reorder, ...)."""
    sh(f'TB_RTTS="{" ".join(map(str, RTTS))}" TB_RATE={rate} TB_BUF={buf} '
       f'TB_LOSS={1 if netem else 0}; tb_setup')
    if netem:
        tc("l", "qdisc", "change", "dev", "to_rcv", "root", "netem", *netem.split(),
           "limit", "100000")


def teardown():
    sh("tb_teardown", check=False)


def rate_change(mbit):
    tc("r", "class", "change", "dev", "to_rcv", "parent", "1:", "classid", "1:1", "htb",
       "rate", f"{mbit}mbit", "ceil", f"{mbit}mbit", "burst", "15k", "cburst", "15k",
       "quantum", "1514")


def params():
    """{name: (lo, hi, default)} from modinfo -p's '[lo..hi, default d]'."""
    out = {}
    p = subprocess.run(["modinfo", "-p", KO], capture_output=True, text=True, check=True)
    for line in p.stdout.splitlines():
        m = re.match(r"(\w+):.*\[(\d+)\.\.(\d+), default (\d+)\]", line)
        if m:
            out[m.group(1)] = tuple(int(x) for x in m.group(2, 3, 4))
    return out


def loaded():
    with open("/proc/modules") as f:
        return any(line.split()[0] == MODULE for line in f)


def rmmod():
    return subprocess.run(["rmmod", MODULE], capture_output=True, text=True)


def insmod():
    """insmod between two marker lines (known_load_reports)."""
    mark("insmod begins")
    try:
        p = subprocess.run(["insmod", KO], capture_output=True, text=True)
    finally:
        mark("insmod done")
    if p.returncode:
        raise RuntimeError(f"insmod failed: {p.stderr.strip()}")


def rmmod_when_free(seconds=120):
    """rmmod, retried while sockets that used the module close (TIME_WAIT does not hold it,
    FIN_WAIT and LAST_ACK do)."""
    end = time.monotonic() + seconds
    while True:
        p = rmmod()
        if p.returncode == 0:
            return None
        if time.monotonic() > end:
            return f"rmmod still refused after {seconds} s: {p.stderr.strip()}"
        time.sleep(0.5)


class Actions(threading.Thread):
    """What a case does to the module or the path while its flows run: fn(case, k) every
    period seconds until stopped, or only between window[0] and window[1] seconds after the
    start (rmmod must find sockets that use the module: while every flow sends); fn's
    errors (strings) are collected."""

    def __init__(self, fn, period, case, window=None):
        super().__init__(daemon=True)
        self.fn, self.period, self.case, self.window = fn, period, case, window
        self.stop, self.errors, self.count = threading.Event(), [], 0

    def run(self):
        t0 = time.monotonic()
        while not self.stop.wait(self.period):
            t = time.monotonic() - t0
            if self.window and not self.window[0] <= t <= self.window[1]:
                if t > self.window[1]:
                    return
                continue
            err = self.fn(self.case, self.count)
            self.count += 1
            if err:
                self.errors.append(err)


def act_params(case, k):
    name = case["rng"].choice(sorted(case["params"]))
    lo, hi, _ = case["params"][name]
    v = case["rng"].choice([lo, hi, case["rng"].randint(lo, hi)])
    try:
        with open(f"{PDIR}/{name}", "w") as f:
            f.write(f"{v}\n")
        case.setdefault("writes", []).append(f"{name}={v}")
    except OSError as e:
        return f"writing {v} to {name} (range {lo}..{hi}) failed: {e}"
    return None


def act_rmmod(case, k):
    p = rmmod()
    if p.returncode == 0:
        return "rmmod succeeded while flows used the module"
    if not loaded():
        return "rmmod failed but the module is gone"
    if "in use" not in p.stderr and "busy" not in p.stderr.lower():
        return f"rmmod refused for another reason: {p.stderr.strip()}"
    return None


def act_rate(case, k):
    rate_change(20 if k % 2 == 0 else 2)
    return None


def run_flows(case, flows, plan, deadline, rcvbuf=0, slow_us=0, action=None):
    """Receivers, one sender process per cc class with `flows` flows each following plan,
    and the case's action while they run. Returns the flows' results."""
    receivers, senders = [], []
    try:
        for k in range(len(CCS)):
            args = ["ip", "netns", "exec", ns("d"), sys.executable, __file__, "recv",
                    "--port", str(PORT0 + k)]
            if rcvbuf:
                args += ["--rcvbuf", str(rcvbuf), "--slow-us", str(slow_us)]
            receivers.append(subprocess.Popen(args))
        for k in range(len(CCS)):  # until every receiver listens
            sh(f'until tb_exec d ss -Hltn "sport = :{PORT0 + k}" | grep -q .; do sleep 0.1; done')
        for k, cc in enumerate(CCS):
            senders.append(subprocess.Popen(
                ["ip", "netns", "exec", ns(f"s{k + 1}"), sys.executable, __file__, "send",
                 "--host", "10.0.0.2", "--port", str(PORT0 + k), "--cc", cc,
                 "--flows", str(flows), "--first", str(k * flows), "--plan", plan,
                 "--deadline", str(deadline)], stdout=subprocess.PIPE, text=True))
        act = None
        if action:
            act = Actions(*action[:2], case, *action[2:])
            act.start()
        results = []
        for p in senders:
            out, _ = p.communicate()
            results += [json.loads(line) for line in out.splitlines() if line.strip()]
            if p.returncode:
                case["errors"].append(f"a sender exited with status {p.returncode}")
        if act:
            act.stop.set()
            act.join()
            case["errors"] += act.errors[:20]
            case["actions"] = case.get("actions", 0) + act.count
        return results
    finally:
        for p in receivers + senders:
            if p.poll() is None:
                p.kill()
                p.wait()


def restore_params(case):
    for name, (_, _, default) in case.get("params", {}).items():
        with open(f"{PDIR}/{name}", "w") as f:
            f.write(f"{default}\n")


def send_seconds(spec):
    """How long every flow of a case is busy sending: its plan's first item."""
    kind, secs = parse_plan(spec["plan"])[0]
    return secs if kind != "idle" else 0


def rmmod_window(spec):
    """When the rmmod attempts run, in seconds after the flows start: the middle half of
    their sending, when every flow holds the module."""
    return 0.25 * send_seconds(spec), 0.75 * send_seconds(spec)


def flow_case(case, spec):
    """A case made of flows: topology, flows (and action), results into case."""
    topology(spec.get("rate", 20), spec.get("buf", 125000), spec.get("netem"))
    try:
        if spec.get("action") == "params":
            case["params"] = params()
        results = run_flows(case, spec["flows"], spec["plan"], spec.get("deadline", 900),
                            spec.get("rcvbuf", 0), spec.get("slow_us", 0),
                            {"params": (act_params, 0.02),
                             "rmmod": (act_rmmod, 0.1, rmmod_window(spec)),
                             "rate": (act_rate, spec.get("step_s", 1.0)),
                             None: None}[spec.get("action")])
    finally:
        if spec.get("action") == "params":
            restore_params(case)
        teardown()
    tally(case, results)
    if spec.get("action") and not case.get("actions"):  # a case that tested nothing
        case["errors"].append(f"its action ({spec['action']}) never ran")


def tally(case, results):
    case["flows"] += len(results)
    case["bytes"] += sum(r.get("received") or 0 for r in results)
    case["connect_retries"] += sum(r.get("connect_retries", 0) for r in results)
    bad = [r for r in results if not r.get("ok")]
    case["flows_failed"] += len(bad)
    for r in bad[:10]:
        case["errors"].append(f"flow {r.get('flow')} ({r.get('cc')}): {r.get('error')}")
    per_cc = case.setdefault("per_cc", {})
    for r in results:
        c = per_cc.setdefault(r["cc"], {"flows": 0, "bytes": 0})
        c["flows"] += 1
        c["bytes"] += r.get("received") or 0


def cycles_case(case, spec):
    """Load, flows of every cc per socket appearing and closing, rmmod refused while they
    run and accepted after; the names gone from tcp_available_congestion_control."""
    avail = "/proc/sys/net/ipv4/tcp_available_congestion_control"
    if loaded():
        err = rmmod_when_free()
        if err:
            case["errors"].append(err)
            return
    topology(spec.get("rate", 20), 125000)
    try:
        for i in range(spec["cycles"]):
            insmod()
            with open(avail) as f:
                names = f.read().split()
            if not all(cc in names for cc in CCS):
                case["errors"].append(f"cycle {i}: after insmod, available: {names}")
            results = run_flows(case, spec["flows"], spec["plan"], 300,
                                action=(act_rmmod, 0.05, (0.25, send_seconds(spec) - 0.1)))
            tally(case, results)
            err = rmmod_when_free()
            if err:
                case["errors"].append(f"cycle {i}: {err}")
                break
            with open(avail) as f:
                left = [cc for cc in f.read().split() if cc in CCS]
            if left:
                case["errors"].append(f"cycle {i}: still available after rmmod: {left}")
        case["cycles"] = spec["cycles"]
        if not case.get("actions"):
            case["errors"].append("no rmmod was attempted while flows ran")
    finally:
        teardown()
        if not loaded():
            insmod()


def cases(form="short"):
    """(name, kind, spec) of the suite in that form (quick, short, long): a flow case or the
    cycles."""
    if form == "quick":  # the test suite's: little data (5 Mbit/s), every kind of action
        return [
            ("loss20", "flows", {"netem": "loss 20%", "flows": 1, "plan": "send:1", "rate": 5}),
            ("params", "flows", {"netem": "loss 2%", "flows": 1, "plan": "send:1", "rate": 5,
                                 "action": "params"}),
            ("rmmod", "flows", {"flows": 1, "plan": "send:1", "rate": 5, "action": "rmmod"}),
            ("cycles", "cycles", {"cycles": 2, "flows": 1, "plan": "send:0.5", "rate": 5}),
        ]
    long = form == "long"
    out = []
    for p in ((1, 5, 20, 50) if long else (10, 50)):
        out.append((f"loss{p}", "flows", {"netem": f"loss {p}%", "flows": 4 if long else 1,
                                          "plan": f"send:{6 if long else 2}"}))
    n, t = (8, 8) if long else (2, 2)
    out += [
        ("reorder", "flows", {"netem": "delay 5ms reorder 25% 50%", "flows": n, "plan": f"send:{t}"}),
        ("duplicate", "flows", {"netem": "duplicate 20%", "flows": n, "plan": f"send:{t}"}),
        ("corrupt", "flows", {"netem": "corrupt 5%", "flows": n, "plan": f"send:{t}"}),
        ("jitter", "flows", {"netem": "delay 10ms 8ms distribution normal", "flows": n,
                             "plan": f"send:{t}"}),
        ("rate_steps", "flows", {"flows": n, "plan": f"send:{20 if long else 10}",
                                 "action": "rate", "step_s": 1.0}),
        ("many_flows", "flows", {"flows": 250, "rate": 100, "buf": 625000,
                                 "plan": f"send:{10 if long else 2}"}),
        ("app_limited", "flows", {"flows": n, "plan": "app:2,idle:3,send:1,idle:10,app:1,send:1"}),
        ("long_idle", "flows", {"flows": 2 if long else 1, "plan": "send:1,idle:4000,send:1",
                                "deadline": 5000}),
        ("rwnd", "flows", {"flows": n, "plan": f"send:{t}", "rcvbuf": 8192, "slow_us": 10000}),
        ("params", "flows", {"netem": "loss 2%", "flows": n, "plan": f"send:{3 * t}",
                             "action": "params"}),
        ("rmmod", "flows", {"flows": n, "plan": f"send:{t}", "action": "rmmod"}),
        ("cycles", "cycles", {"cycles": 50 if long else 5, "flows": 2, "plan": "send:0.5"}),
    ]
    return out


def kmsg():
    return subprocess.run(["dmesg"], capture_output=True, text=True).stdout


def mark(what):
    """A line in the kernel log that later reads start from (log_since)."""
    line = f"stress.py: {what}"
    with open("/dev/kmsg", "w") as f:
        f.write(line + "\n")
    return line


def log_since(text, marker):
    """The kernel log from marker's line on. The ring buffer drops its oldest lines when it
    fills (the sanitizer kernel's boot and kmemleak's reports fill it): a log is not
    compared with an earlier copy of itself. Without the marker (rotated away), all of it."""
    k = text.rfind(marker)
    return text[k:] if k >= 0 else text


def findings(text):
    """The kernel log's lines that are reports, with the line that names their source."""
    return [line for line in text.splitlines() if BAD.search(line)]


def known_load_reports(text):
    """UML 6.1's kmemleak does not know the memory that loading a module allocates: at
    every insmod of any module (tests/guest/dummy_cc.c does it too) it logs "Adding scan
    area to unknown object" and "Trying to color unknown object", each with a stack dump
    from load_module, before the module's code runs. An insmod's window (its marker lines)
    whose only reports are such lines and their "Call Trace:", with load_module in it and
    no frame of the module, has them taken out. Returns (the log without them, the lines
    taken out); anything else stays a finding."""
    lines, out, known, i = text.splitlines(keepends=True), [], [], 0
    while i < len(lines):
        if INSMOD_BEGIN not in lines[i]:
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and INSMOD_END not in lines[j]:
            j += 1
        win = lines[i:j + 1]
        body = "".join(win)
        bad = [line for line in win if BAD.search(line)]
        if (j < len(lines) and bad and "load_module" in body and not MODULE_FRAME.search(body)
                and all(AT_LOAD.search(line) or "Call Trace" in line for line in bad)
                and sum(bool(AT_LOAD.search(line)) for line in bad) >=
                sum("Call Trace" in line for line in bad)):
            known += [line.rstrip("\n") for line in bad]
            win = [line for line in win if not BAD.search(line)]
        out += win
        i = j + 1
    return "".join(out), known


def leak_objects(report):
    """kmemleak's report (its debugfs file) as (objects with a frame of the module, the
    others): an object the module's code allocated, or leaked from a call through it, has
    "[tcp_bbr_a]" in its backtrace."""
    ours, others = [], []
    for o in (report or "").split("unreferenced object")[1:]:
        (ours if MODULE_FRAME.search(o) else others).append("unreferenced object" + o)
    return ours, others


def sanitizers(log):
    """Which debugging features the running kernel has, from what they leave behind, and
    whether the module under test was built with UBSAN's checks."""
    with open("/proc/kallsyms") as f:
        syms = f.read()
    have = [name for name, there in (
        ("kasan", "KernelAddressSanitizer initialized" in log or " kasan_report" in syms),
        ("ubsan", " __ubsan_handle_" in syms),
        ("lockdep", os.path.exists("/proc/lockdep")),
        ("kmemleak", os.path.exists("/sys/kernel/debug/kmemleak")),
        ("hung_task", os.path.exists("/proc/sys/kernel/hung_task_timeout_secs")),
        ("softlockup", os.path.exists("/proc/sys/kernel/watchdog_thresh"))) if there]
    with open(KO, "rb") as f:
        if b"__ubsan_handle_" in f.read():
            have.append("module_ubsan")
    return have


def kmemleak():
    """kmemleak's suspects after a scan (None without kmemleak)."""
    path = "/sys/kernel/debug/kmemleak"
    if not os.path.exists(path):
        return None
    for _ in range(2):  # a second scan confirms the first one's suspects
        with open(path, "w") as f:
            f.write("scan\n")
    with open(path) as f:
        return f.read()


def cmd_run(a):
    global KO
    KO = os.environ.get("BBR_A_KO") or sys.exit("stress.py: BBR_A_KO is not set (run through"
                                                 " scripts/uml.sh)")
    out = a.out or os.environ.get("BBR_A_OUT") or "."
    if not os.path.ismount("/sys/kernel/debug"):
        subprocess.run(["mount", "-t", "debugfs", "none", "/sys/kernel/debug"],
                       capture_output=True)
    leak = "/sys/kernel/debug/kmemleak"
    if os.path.exists(leak):
        with open(leak, "w") as f:
            f.write("clear\n")  # boot's suspects are not ours
    boot_log = kmsg()
    run_begin = mark("run begins")
    if not loaded():
        insmod()
    form = "long" if a.long else "quick" if a.quick else "short"
    chosen = cases(form)
    if a.only:
        want = set(a.only.split(","))
        chosen = [c for c in chosen if c[0] in want or c[0].rstrip("0123456789") in want]
    summary = {"suite": form, "kernel": os.uname().release,
               "version": os.uname().version,
               "seed": os.environ.get("BBR_A_SEED"), "ccs": list(CCS),
               "rtts_ms": list(RTTS), "sanitizers": sanitizers(boot_log),
               "module": {k: open(f"/sys/module/{MODULE}/{k}").read().strip()
                          for k in ("version", "srcversion")},
               "boot_findings": findings(boot_log), "cases": []}
    rng = random.Random(int(os.environ.get("BBR_A_SEED") or 1))
    for name, kind, spec in chosen:
        begin = mark(f"case {name} begins")
        t0, w0 = time.monotonic(), time.time()
        case = {"name": name, "flows": 0, "bytes": 0, "flows_failed": 0, "connect_retries": 0,
                "errors": [], "rng": rng, "spec": {k: v for k, v in spec.items()}}
        try:
            (flow_case if kind == "flows" else cycles_case)(case, spec)
        except (RuntimeError, OSError, ValueError) as e:
            case["errors"].append(f"case aborted: {e}")
            teardown()
        log, known = known_load_reports(log_since(kmsg(), begin))
        case["kernel_log"] = findings(log)
        case["known_load_reports"] = len(known)
        case["virtual_s"] = round(time.monotonic() - t0, 3)
        case["ok"] = not case["errors"] and not case["kernel_log"] and case["flows"] > 0
        case.pop("rng")
        case["writes"] = len(case.pop("writes", []))
        case.pop("params", None)
        summary["cases"].append(case)
        print(f"stress: {name}: {'ok' if case['ok'] else 'FAILED'}: {case['flows']} flows, "
              f"{case['bytes']} bytes, {case['virtual_s']:.0f} s"
              + "".join(f"\n  {e}" for e in case["errors"] + case["kernel_log"]), flush=True)
    err = rmmod_when_free()
    end_log = kmsg()
    summary["unload"] = err or "ok"
    summary["kmemleak"] = kmemleak()
    log, known = known_load_reports(log_since(end_log, run_begin))
    ours, others = leak_objects(summary["kmemleak"])
    summary["known_load_reports"] = known
    # kmemleak's suspects without a frame of the module (on UML: network-namespace setup by
    # ip and tc) are kept and counted beside the findings, not among them
    summary["kmemleak_other"] = [o.splitlines()[1].strip() if "\n" in o else o
                                 for o in others]
    summary["findings"] = findings(log) + ours
    summary["totals"] = {"cases": len(summary["cases"]),
                         "cases_failed": sum(1 for c in summary["cases"] if not c["ok"]),
                         "flows": sum(c["flows"] for c in summary["cases"]),
                         "flows_failed": sum(c["flows_failed"] for c in summary["cases"]),
                         "bytes": sum(c["bytes"] for c in summary["cases"]),
                         "findings": len(summary["findings"]),
                         "known_load_reports": len(known),
                         "kmemleak_other": len(others)}
    summary["ok"] = (summary["totals"]["cases_failed"] == 0 and not summary["findings"]
                     and not err)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(out, "dmesg.txt"), "w") as f:
        f.write(end_log)
    t = summary["totals"]
    print(f"stress: {t['cases']} cases ({t['cases_failed']} failed), {t['flows']} flows "
          f"({t['flows_failed']} failed), {t['bytes']} bytes, {t['findings']} kernel findings"
          f"{'' if not err else '; ' + err}", flush=True)
    return 0 if summary["ok"] else 1


def main(argv=None):
    ap = argparse.ArgumentParser(prog="stress.py", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    form = r.add_mutually_exclusive_group()
    form.add_argument("--long", action="store_true")
    form.add_argument("--quick", action="store_true")
    r.add_argument("--only", help="cases, comma separated (loss: every loss case)")
    r.add_argument("--out")
    rc = sub.add_parser("recv")
    rc.add_argument("--port", type=int, required=True)
    rc.add_argument("--rcvbuf", type=int, default=0)
    rc.add_argument("--slow-us", type=int, default=0)
    s = sub.add_parser("send")
    s.add_argument("--host", required=True)
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--cc", required=True)
    s.add_argument("--flows", type=int, default=1)
    s.add_argument("--first", type=int, default=0)
    s.add_argument("--plan", default="send:2")
    s.add_argument("--deadline", type=float, default=900)
    a = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    return {"run": cmd_run, "recv": cmd_recv, "send": cmd_send}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
