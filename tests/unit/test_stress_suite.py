"""The stress suite's own checks (tests/guest/stress.py), on the host: a flow's bytes are
compared end to end, a receiver that loses or alters a byte fails the flow, and the kernel
log's reports are recognised. The suite itself runs in UML (tests/stress.sh,
tests/guest/test_uml_stress.py)."""
import hashlib
import importlib.util
import socket
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRESS = ROOT / "tests" / "guest" / "stress.py"


def load():
    spec = importlib.util.spec_from_file_location("stress", STRESS)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


stress = load()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(port, handler):
    """A listener on 127.0.0.1:port running handler(conn) for each connection."""
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port))
    srv.listen(8)

    def loop():
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            threading.Thread(target=handler, args=(conn,), daemon=True).start()
    threading.Thread(target=loop, daemon=True).start()
    return srv


def send(port, plan="send:0.3", flow=3):
    a = SimpleNamespace(host="127.0.0.1", port=port, cc="reno", deadline=10)
    res = {}
    stress.send_one(a, flow, stress.parse_plan(plan), res)
    return res


def test_a_flow_delivered_intact_passes():
    port = free_port()
    srv = serve(port, lambda c: stress.recv_one(c, 0))
    try:
        r = send(port, "send:0.2,idle:0.1,app:0.1")
    finally:
        srv.close()
    assert r["ok"], r
    assert r["sent"] == r["received"] > 0 and r["connect_retries"] == 0


@pytest.mark.parametrize("damage", ["drop", "flip"])
def test_a_receiver_that_lost_or_altered_a_byte_fails_the_flow(damage):
    """The receiver's count and SHA-256 are what is compared: one byte short, or one bit
    flipped, is a failed flow."""
    port = free_port()

    def bad_recv(conn):
        with conn:
            data = bytearray()
            while True:
                k = conn.recv(1 << 16)
                if not k:
                    break
                data += k
            if damage == "drop":
                del data[100]
            else:
                data[100] ^= 1
            conn.sendall(f"{len(data)} {hashlib.sha256(data).hexdigest()}\n".encode())
    srv = serve(port, bad_recv)
    try:
        r = send(port)
    finally:
        srv.close()
    assert not r["ok"]
    assert ("of" in r["error"]) if damage == "drop" else ("differs" in r["error"]), r


def test_a_refused_connection_is_an_error_not_a_retry():
    r = send(free_port())
    assert not r["ok"] and r["error"].startswith("never connected"), r


def test_flows_send_different_bytes():
    assert stress.flow_offset(0) != stress.flow_offset(1)
    assert stress.PERIOD % 4096 and len(stress.PATTERN) == stress.PERIOD + stress.CHUNK


@pytest.mark.parametrize("line", [
    "WARNING: CPU: 0 PID: 12 at net/ipv4/tcp_cong.c:123 tcp_ca_openreq_child+0x1/0x2",
    "BUG: KASAN: slab-out-of-bounds in bbr_main+0x40/0x900 [tcp_bbr_a]",
    "UBSAN: shift-out-of-bounds in tcp_bbr_a.c:400:12",
    "unreferenced object 0x6000abcd (size 64):",
    "WARNING: possible circular locking dependency detected",
    "rcu: INFO: rcu_sched self-detected stall on CPU",
    "watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [python3:77]",
    "INFO: task python3:55 blocked for more than 120 seconds.",
    "Oops: 0000 [#1] PREEMPT SMP",
])
def test_kernel_reports_are_findings(line):
    assert stress.findings(f"ok line\n{line}\nanother\n") == [line]


def test_ordinary_kernel_lines_are_not_findings():
    text = ("tcp_bbr_a: loading out-of-tree module taints kernel.\n"
            "KernelAddressSanitizer initialized\n"
            "kmemleak: Kernel memory leak detector initialized (mem pool available: 15)\n")
    assert stress.findings(text) == []
    # a pointer to kmemleak's file, whose objects the run judges one by one (leak_objects)
    assert stress.findings("kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/"
                           "kmemleak)\n") == []


def test_forms():
    quick = [c[0] for c in stress.cases("quick")]
    short = [c[0] for c in stress.cases("short")]
    long = stress.cases("long")
    assert set(quick) <= {n.rstrip("0123456789") for n in short} | set(short) | {"loss20"}
    assert {"loss10", "loss50", "reorder", "duplicate", "corrupt", "jitter", "rate_steps",
            "many_flows", "app_limited", "long_idle", "rwnd", "params", "rmmod",
            "cycles"} == set(short)
    many = [s for n, _, s in long if n == "many_flows"][0]
    assert many["flows"] * len(stress.CCS) == 1000
    idle = [s for n, _, s in long if n == "long_idle"][0]
    assert "idle:4000" in idle["plan"] and idle["deadline"] > 4000


def test_run_without_a_module_says_so():
    p = subprocess.run([sys.executable, str(STRESS), "run", "--quick"], capture_output=True,
                       text=True, env={"PATH": "/usr/bin:/bin"}, timeout=60)
    assert p.returncode != 0 and "BBR_A_KO is not set" in p.stderr


@pytest.mark.parametrize("form", ["quick", "short", "long"])
def test_every_rmmod_case_attempts_rmmod_while_its_flows_send(form):
    """The quick form's rmmod case sent for 1 s and attempted rmmod from 0.5 s to 0.5 s:
    never, and it passed. The window is now the middle half of the sending (and a case
    whose action never ran fails, stress.py flow_case)."""
    for name, kind, spec in stress.cases(form):
        if spec.get("action") == "rmmod":
            lo, hi = stress.rmmod_window(spec)
            assert 0 < lo and hi - lo >= 0.4 and hi < stress.send_seconds(spec), (name, lo, hi)


def test_a_case_reads_the_kernel_log_from_its_marker_even_after_the_buffer_rotated():
    """On the sanitizer kernel the ring buffer filled during long_idle (kmemleak's reports):
    the log no longer began with the copy taken before the case, and the whole log, boot's
    lines included, was charged to the case. A case now reads from its marker line."""
    boot = "[    0.000000] Call Trace:\n"
    before = boot + "[    1.0] stress.py: case a begins\n"
    after = ("[    1.0] stress.py: case a begins\n[  668.6] rcu: INFO: rcu_sched"
             " self-detected stall on CPU\n")
    assert not after.startswith(before)  # what the old comparison needed
    got = stress.findings(stress.log_since(after, "stress.py: case a begins"))
    assert got == ["[  668.6] rcu: INFO: rcu_sched self-detected stall on CPU"]
    assert stress.log_since("x\ny\n", "stress.py: gone") == "x\ny\n"


def insmod_window(*body, done=True):
    return ("[ 5.0] stress.py: insmod begins\n" + "".join(f"[ 5.1] {b}\n" for b in body)
            + ("[ 5.2] stress.py: insmod done\n" if done else ""))


SCAN = ["kmemleak: Adding scan area to unknown object at 0x6d8c1a40", "CPU: 0 PID: 91 Comm: insmod",
        "Call Trace:", " load_module+0x1a2c/0x1f30", " __do_sys_finit_module+0x9c/0xd0"]


def test_kmemleaks_module_load_report_on_uml_is_known_not_a_finding():
    """The sanitizer run's cycles case failed on kmemleak's "Adding scan area to unknown
    object" at every insmod, a stack from load_module with no frame of the module (any
    module gives it on UML 6.1). Inside an insmod's markers it is now known, not a finding;
    with a module frame, another report beside it, or no end marker, it stays one."""
    color = ["kmemleak: Trying to color unknown object at 0xa08d8000 as Grey", "Call Trace:",
             " kmemleak_not_leak+0x31/0x34", " load_module+0x140e/0x2fa9"]
    log = "[ 1.0] stress.py: case cycles begins\n" + insmod_window(*color, *SCAN) * 2
    assert stress.findings(log)  # what the old suite charged to the case
    rest, known = stress.known_load_reports(log)
    assert stress.findings(rest) == [] and len(known) == 8
    assert "stress.py: insmod done" in rest and "load_module" in rest
    for log in (insmod_window(*SCAN[:4], " bbr_init+0x10/0x40 [tcp_bbr_a]"),
                insmod_window(*SCAN, "WARNING: CPU: 0 PID: 91 at net/ipv4/tcp_cong.c:1"),
                insmod_window(*SCAN, done=False),
                insmod_window(*SCAN[:3], " do_init_module+0x50/0x1f0"),
                "[ 1.0] " + SCAN[0] + "\n[ 1.0] Call Trace:\n[ 1.0] load_module+0x1\n"):
        rest, known = stress.known_load_reports(log)
        assert known == [] and stress.findings(rest) == stress.findings(log) != [], log


def test_kmemleak_objects_are_charged_to_the_module_only_with_its_frame():
    report = ("unreferenced object 0x6a1b2c00 (size 256):\n  comm \"ip\", pid 77, jiffies 4295\n"
              "  backtrace:\n    [<00000000a1>] __kmalloc+0x1/0x2\n"
              "    [<00000000a2>] copy_net_ns+0x3/0x4\n"
              "unreferenced object 0x6a1b3000 (size 64):\n  comm \"python3\", pid 80, jiffies 4299\n"
              "  backtrace:\n    [<00000000b1>] kmalloc_trace+0x1/0x2\n"
              "    [<00000000b2>] bbr_main+0x5/0x90 [tcp_bbr_a]\n")
    ours, others = stress.leak_objects(report)
    assert len(ours) == 1 and "bbr_main" in ours[0]
    assert len(others) == 1 and 'comm "ip"' in others[0]
    assert stress.leak_objects(None) == ([], []) and stress.leak_objects("") == ([], [])


def stress_summary(**over):
    case = {"name": "loss10", "flows": 8, "bytes": 1000, "flows_failed": 0, "connect_retries": 0,
            "errors": [], "spec": {}, "kernel_log": [], "known_load_reports": 0,
            "virtual_s": 2.5, "ok": True, "writes": 0}
    s = {"suite": "short", "kernel": "6.1.192", "version": "#1", "seed": "1", "ccs": [],
         "rtts_ms": [], "sanitizers": ["kasan", "kmemleak"],
         "module": {"version": "0.9.4", "srcversion": "ABC"}, "boot_findings": [],
         "cases": [case, {**case, "name": "cycles", "ok": False, "virtual_s": 4.0}],
         "unload": "ok", "kmemleak": "", "known_load_reports": [], "kmemleak_other": [],
         "findings": [], "ok": False, "command": "tests/stress.sh --seed 1", "wall_s": 99,
         "uml_kernel": "6.1.192-2-sanitize-x", "module_hash": "h", "commit": "c",
         "totals": {"cases": 2, "cases_failed": 1, "flows": 16, "flows_failed": 0,
                    "bytes": 2000, "findings": 0, "known_load_reports": 10,
                    "kmemleak_other": 3}}
    s.update(over)
    return s


def test_stress_rows_carry_what_ran_and_what_it_found(tmp_path):
    sys.path.insert(0, str(ROOT / "testbed"))
    from analysis.stress import STRESS_COLS, stress_row
    from analysis.common import AnalysisError
    row = stress_row("sanitize-short", stress_summary())
    assert set(row) == set(STRESS_COLS)
    assert (row["cases"], row["cases_failed"], row["bytes"], row["known_load_reports"],
            row["kmemleak_other"], row["failed_cases"], row["virtual_s"], row["ok"]) == \
        (2, 1, 2000, 10, 3, "cycles", 6.5, 0)
    assert row["sanitizers"] == "kasan kmemleak" and row["module_version"] == "0.9.4"
    with pytest.raises(AnalysisError, match="not a tests/stress.sh summary"):
        stress_row("x", {"suite": "short"})
    d = tmp_path / "quick"
    d.mkdir()
    (d / "summary.json").write_text(__import__("json").dumps(stress_summary()))
    out = tmp_path / "runs.csv"
    p = subprocess.run([sys.executable, str(ROOT / "testbed" / "analyze.py"), "--stress-csv",
                        str(out), str(d)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert out.read_text().splitlines()[1].startswith("quick,short,")
    p = subprocess.run([sys.executable, str(ROOT / "testbed" / "analyze.py"), "--stress-csv",
                        str(out), str(tmp_path / "none")], capture_output=True, text=True)
    assert p.returncode != 0 and "no " in p.stderr


def test_the_committed_stress_rows_are_their_summaries():
    """docs/results/stress-uml/runs.csv (block stress-runs) is analyze.py --stress-csv of
    the summaries committed beside it, row for row."""
    import csv
    sys.path.insert(0, str(ROOT / "testbed"))
    from analysis.stress import STRESS_COLS, stress_row
    base = ROOT / "docs" / "results" / "stress-uml"
    rows = list(csv.DictReader(open(base / "runs.csv")))
    assert rows
    for r in rows:
        s = __import__("json").loads((base / r["run"] / "summary.json").read_text())
        want = stress_row(r["run"], s)
        assert {k: r[k] for k in STRESS_COLS} == {k: str(want[k]) for k in STRESS_COLS}, r["run"]
