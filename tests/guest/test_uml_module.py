"""The module's fixes of 0.5.0, each on UML (time travel), each with the run that showed the
bug: the RTO and the loss round, DA-BBR's recovery gain, registration when a name is taken.

Selected with `-m uml` like the other UML tests; needs the UML kernel (scripts/uml.sh build).
"""
import csv
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UML_SH = REPO / "scripts" / "uml.sh"

pytestmark = pytest.mark.uml

EVENT = re.compile(r"bbr_a_gain: (.*)$")


def trace_events(path, dport):
    """The bbr_a_gain events of one connection (its destination port), as dicts of ints."""
    events = []
    for line in path.read_text().splitlines():
        m = EVENT.search(line)
        if not m:
            continue
        e = {k: int(v) for k, v in (kv.split("=", 1) for kv in m.group(1).split())}
        if e["dport"] == dport:
            events.append(e)
    return events


def uml_run(tmp_path, name, *command, files=(), seed=2):
    out = tmp_path / name
    cmd = [str(UML_SH), "run", "--seed", str(seed), "--timeout", "900", "--out", str(out)]
    for f in files:
        cmd += ["--file", str(f)]
    p = subprocess.run(cmd + ["--", *command], capture_output=True, text=True)
    assert p.returncode == 0, f"guest run failed ({p.returncode}):\n{p.stdout}\n{p.stderr[-3000:]}"
    return out, p


@pytest.mark.parametrize("cc", ["bbr_a", "bbr_a_fair"])
def test_rto_ends_the_loss_round(uml_kernel, tmp_path, cc):
    """ACKs dropped for 1.5 s: the sender times out, and each RTO must judge the loss round
    it ends (the RTO declared the flight lost: lossy) and start counting losses afresh
    (round_lost 0 at the RTO's trace event). In 0.4.0 the RTO marked a round start but left
    the loss round running, so its losses were charged to the round after it."""
    out, _ = uml_run(tmp_path, cc, "sh", "tests/guest/rto_gap.sh", cc, "3", "1.5")
    events = trace_events(out / "trace.txt", 5300)
    rtos = [e for e in events if e["ev"] == 1]
    assert rtos, f"no RTO event in {len(events)} events"
    before = [e for e in events if e["ev"] == 0 and e["cwnd"] > 4]
    assert before and max(e["inflight"] for e in before) > 20, "no full flight before the gap"
    first = rtos[0]
    assert first["lossy"] == 1 and first["round_lost"] == 0, first
    assert all(e["round_lost"] == 0 for e in rtos), rtos
    # The transfer recovers after the gap: ACK events with data in flight again.
    assert any(e["ev"] == 0 and e["inflight"] > 4 for e in events[events.index(rtos[-1]):])


def test_rto_at_adaptive_0_takes_no_loss_verdict(uml_kernel, tmp_path):
    """bbr_a at adaptive=0: the RTO ends the loss round as the fixed variant's round end
    does, with no verdict (lossy 0 at the RTO's trace event). The RTO runs the core as
    bbr_a whatever adaptive is, and its context, loaded at adaptive=0, holds no loss_thresh
    (zero): bbr_a's round end took its verdict with that and set lossy, which a write of
    adaptive=1 before the next round's end would have let choose the first probe-down."""
    out, _ = uml_run(tmp_path, "fixed", "sh", "tests/guest/rto_gap.sh", "bbr_a", "3", "1.5",
                     "adaptive=0")
    events = trace_events(out / "trace.txt", 5300)
    rtos = [e for e in events if e["ev"] == 1]
    assert rtos, f"no RTO event in {len(events)} events"
    assert all(e["lossy"] == 0 and e["round_lost"] == 0 for e in rtos), rtos


def test_a_spurious_rto_s_cut_of_the_bound_is_undone(uml_kernel, tmp_path):
    """ACKs dropped for 0.6 s, no data lost: the RTO cuts bbr_a_fair's bound (to 0.9 of the
    bw in use), and when the first ACKs after the gap show the RTO was spurious TCP undoes
    it (TCPLossUndo) and so must the module: up to 0.21.0 undo_cwnd was BBRv1's for every
    algorithm and the bound stayed cut, 17.2 Mbit/s against the 19.1 in use, and regrew
    from there."""
    out, _ = uml_run(tmp_path, "gap", "sh", "tests/guest/rto_gap.sh", "bbr_a_fair", "8", "0.6")
    head, vals = (out / "netstat.txt").read_text().splitlines()[:2]
    assert int(dict(zip(head.split(), vals.split()))["TCPLossUndo"]) >= 1
    events = trace_events(out / "trace.txt", 5300)
    rtos = [i for i, e in enumerate(events) if e["ev"] == 1]
    assert rtos, f"no RTO event in {len(events)} events"
    before = events[rtos[0] - 1]
    assert before["ev"] == 0 and before["bw_hi_bps"] == 0 and before["bw_bps"] > 0, before
    assert 0 < events[rtos[0]]["bw_hi_bps"] < 0.95 * before["bw_bps"], events[rtos[0]]
    t_end = events[rtos[-1]]["t_us"] + 500000
    after = [e for e in events[rtos[-1] + 1:] if e["t_us"] < t_end]
    assert after and all(e["bw_hi_bps"] >= before["bw_bps"] for e in after), \
        (before["bw_bps"], [e["bw_hi_bps"] for e in after])


def da_trace(run_testbed, tmp_path, *params):
    out = tmp_path / ("da" + "".join(params))
    margs = [a for p in params for a in ("--module-param", p)]
    run_testbed(out, "--cc", "da_bbr", "--rtt", "20", "--rate", "20", "--buffer-bdp", "2",
                "--loss", "1", "--duration", "12", "--warmup", "2", "--sample-ms", "0",
                "--seed", "4", *margs)
    with open(out / "da_bbr" / "run1" / "trace.csv") as f:
        return list(csv.DictReader(f))


def test_da_bbr_paces_at_three_quarters_in_recovery_in_probe_bw(run_testbed, tmp_path):
    """DA-BBR paces at 3/4 in the first round of recovery. 0.4.0 returned from PROBE_BW's
    case before applying it, so it never did in PROBE_BW (where nearly every recovery
    happens), and raised DRAIN's gain to 3/4 instead."""
    rows = da_trace(run_testbed, tmp_path)
    rec = [r for r in rows if r["why"] == "recovery"]
    assert any(r["mode"] == "2" for r in rec), "no recovery-gain event in PROBE_BW"
    assert all(int(r["pacing_gain"]) <= 192 for r in rec), rec[:3]
    drain = [r for r in rows if r["mode"] == "1"]
    assert all(int(r["pacing_gain"]) <= 88 for r in drain), drain[:3]
    # Phase logic reads the phase's gain, not the recovery gain: probe phases still occur.
    assert any(r["mode"] == "2" and int(r["pacing_gain"]) > 256 for r in rows)


def test_da_bbr_switched_off_has_no_recovery_gain(run_testbed, tmp_path):
    rows = da_trace(run_testbed, tmp_path, "da_enable=0")
    assert rows and not [r for r in rows if r["why"] == "recovery"]


def module_source_hash():
    return subprocess.run(["bash", "-c", f"source {REPO}/scripts/lib/common.sh; source "
                           f"{REPO}/scripts/lib/module.sh; module_source_hash {REPO}"],
                          capture_output=True, text=True, check=True).stdout.strip()


def test_the_module_and_its_runs_name_all_of_its_sources(run_testbed, tmp_path):
    """modinfo's srchash is the hash of every source file, algos/ and include/ with the rest
    (the testbed's module=); srcversion, which modpost sums over the module's own directory
    alone, gave 0.18.3 and 0.19.0, whose defaults differ in algos/, one value. A run
    records it."""
    ko = subprocess.run([str(UML_SH), "module"], capture_output=True, text=True, check=True)
    info = subprocess.run(["modinfo", "-F", "srchash", ko.stdout.strip()], capture_output=True,
                          text=True, check=True).stdout.strip()
    want = module_source_hash()
    assert re.fullmatch(r"[0-9a-f]{12}", want) and info == want
    da_trace(run_testbed, tmp_path)
    res = json.loads((tmp_path / "da" / "summary.json").read_text())["results"][0]
    assert res["params"]["module_srchash"] == want
    assert res["provenance"]["module_srchash"] == want


@pytest.fixture(scope="module")
def dummy_ko(uml_kernel, tmp_path_factory):
    """tests/guest/dummy_cc.c built for the UML kernel."""
    d = tmp_path_factory.mktemp("dummy")
    shutil.copy(REPO / "tests" / "guest" / "dummy_cc.c", d)
    (d / "Kbuild").write_text("obj-m := dummy_cc.o\n")
    p = subprocess.run(["make", "-C", uml_kernel, "ARCH=um", f"M={d}", "modules"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    return d / "dummy_cc.ko"




@pytest.mark.parametrize("taken", ["bbq", "da_bbr"])
def test_a_taken_later_name_is_skipped_not_fatal(uml_kernel, tmp_path, dummy_ko, taken):
    """Another module holds one of the later names: tcp_bbr_a loads with the others and
    says which it skipped, and unloads cleanly. 0.4.0 failed the load after its earlier
    names had been live (sockets could have taken them)."""
    _, p = uml_run(tmp_path, taken, "sh", "tests/guest/register_names.sh", taken, files=[dummy_ko])
    out = p.stdout
    assert "insmod=0" in out, out + p.stderr
    avail = re.search(r"available=(.*)", out).group(1).split()
    for cc in ("bbr_a", "bbr_a_fair", "bbq", "da_bbr"):
        assert cc in avail, (cc, avail)
    assert avail.count(taken) == 1, avail
    assert f"{taken} not registered" in out, out
    assert "rmmod=0" in out, out
    after = re.search(r"after=(.*)", out).group(1).split()
    assert taken in after and "bbr_a" not in after and "bbr_a_fair" not in after, after


def test_a_taken_first_name_fails_the_load(uml_kernel, tmp_path, dummy_ko):
    """bbr_a itself taken: nothing of tcp_bbr_a is registered and insmod fails."""
    _, p = uml_run(tmp_path, "first", "sh", "tests/guest/register_names.sh", "bbr_a", files=[dummy_ko])
    assert "insmod=0" not in p.stdout, p.stdout
    avail = re.search(r"available=(.*)", p.stdout).group(1).split()
    assert "bbr_a_fair" not in avail and avail.count("bbr_a") == 1, avail


# What kstrtouint(buf, 0, ...) and the range check answer (tests/guest/param_parse.sh): the
# parser of every release since 0.1.0, now the kernel's param_set_uint_minmax().
PARSED = """\
insmod loss_thresh=030 -> 24
insmod loss_thresh=08 -> rejected
loss_thresh 30\\n -> 30
loss_thresh 30 -> 30
loss_thresh 030\\n -> 24
loss_thresh 0x1f\\n -> 31
loss_thresh 0X1F\\n -> 31
loss_thresh +7\\n -> 7
loss_thresh 0\\n -> 0
loss_thresh 1000\\n -> 1000
loss_thresh 1001\\n -> rejected
loss_thresh 08\\n -> rejected
loss_thresh  5\\n -> rejected
loss_thresh 5 \\n -> rejected
loss_thresh 5\\n\\n -> rejected
loss_thresh -1\\n -> rejected
loss_thresh -0\\n -> rejected
loss_thresh 4294967296\\n -> rejected
loss_thresh 0x\\n -> rejected
loss_thresh 1e3\\n -> rejected
loss_thresh abc\\n -> rejected
loss_thresh \\n -> rejected
inflight_thresh 255\\n -> rejected
inflight_thresh 256\\n -> 256
inflight_thresh 0x100\\n -> 256
inflight_thresh 0400\\n -> 256
inflight_thresh 1024\\n -> 1024
inflight_thresh 1025\\n -> rejected
"""


def fallback_ko(uml_kernel, tree_without_probe):
    """tcp_bbr_a.ko for UML built as for a kernel without param_set_uint_minmax (Kbuild's
    probe removed: include/bbr_a_compat.h's copy of it is compiled in)."""
    src = tree_without_probe("PARAM_SET_UINT_MINMAX")
    p = subprocess.run(["make", "-C", str(src), f"KDIR={uml_kernel}", "ARCH=um"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    nm = subprocess.run(["nm", str(src / "tcp_bbr_a.ko")], capture_output=True, text=True)
    assert " U param_set_uint_minmax" not in nm.stdout, "the fallback was not compiled in"
    return src / "tcp_bbr_a.ko"


@pytest.mark.parametrize("parser", ["kernel", "fallback"])
def test_parameters_parse_as_kstrtouint_with_a_range(uml_kernel, tmp_path, parser,
                                                   tree_without_probe):
    """Decimal, 0x hex, 0 octal, a leading +, one trailing newline; nothing else, and
    nothing outside the range (which leaves the value as it was). The kernel's
    param_set_uint_minmax() (Linux 5.15+) and the module's fallback for older kernels give
    the same answers."""
    extra = ["--ko", str(fallback_ko(uml_kernel, tree_without_probe))] if parser == "fallback" else []
    out = tmp_path / "out"
    p = subprocess.run([str(UML_SH), "run", "--timeout", "300", "--out", str(out), *extra,
                        "--", "sh", "tests/guest/param_parse.sh"], capture_output=True, text=True)
    assert p.returncode == 0, f"{p.returncode}\n{p.stdout}\n{p.stderr[-3000:]}"
    assert p.stdout == PARSED, p.stdout
