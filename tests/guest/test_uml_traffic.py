"""The testbed's traffic on UML (time travel): a run ends however long its flows take to
deliver what is left in their send buffers after the run's end.

Selected with `-m uml` like the other UML tests; needs the UML kernel (scripts/uml.sh build).
"""
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.uml


def test_many_flows_in_a_shallow_buffer_finish_their_tail(run_testbed, tmp_path):
    """100 bbr flows in a 0.1 BDP buffer (the paper's Fig. 8): after the 20 s of sending,
    the flows' send buffers take minutes of RTO backoff to drain (~205 s here). The client
    used to be killed 60 s after its run (exit 124) and the run failed: Fig. 8's 100-flow
    points could not be measured. The tail must not fail the run, and the retransmission
    rate of the run must be there."""
    out = tmp_path / "n100"
    summary = run_testbed(out, "--cc", "bbr", "--rtt", "10", "--flows-per-rtt", "100",
                          "--buffer-bdp", "0.1", "--duration", "20", "--sample-ms", "0",
                          "--trace", "off", "--seed", "1")
    env = dict(line.split("=", 1) for line in
               (out / "bbr" / "run1" / "params.env").read_text().splitlines() if "=" in line)
    assert env["flow_rc_1"] == "0"
    # the case this guards: the tail outlasted the old 60 s allowance
    assert float(env["end_uptime"]) - float(env["t0_uptime"]) > 20 + 60, env
    r = summary["results"][0]
    assert len(r["flows"]) == 100
    assert 0.05 < r["retrans_rate"] < 0.6, r["retrans_rate"]


@pytest.mark.parametrize("cc,loss,seed", [("bbr", "50", "3"), ("bbr_a_fair", "30", "2")])
def test_heavy_random_loss_does_not_stop_the_run_at_its_ping(run_testbed, tmp_path, cc, loss,
                                                             seed):
    """At 50 % random loss the base-RTT check's five pings could all be lost, and the run
    stopped before it began ("ping from s1 failed"): the loss sweep's 50 % point for bbr,
    seed 3, did so every time (UML is deterministic). The check then waited for five replies
    for up to 30 s. Neighbour discovery's probes can be lost too, and ping counts the
    "unreachable" errors that follow towards its count: the loss sweep's 30 % point for
    bbr_a_fair, seed 2, stopped after 3 s ("16 packets transmitted, 0 received, +6
    errors"). ping is now run again until the 30 s are up, and after a failed try the RTT is
    taken from a try after one that succeeded: the replies of the first that succeeds waited
    for neighbour discovery (170 ms here on the 100 ms path)."""
    summary = run_testbed(tmp_path / "l", "--cc", cc, "--rtt", "100", "--loss", loss,
                          "--buffer-bdp", "1", "--duration", "5", "--warmup", "1",
                          "--sample-ms", "0", "--trace", "off", "--seed", seed)
    r = summary["results"][0]
    assert abs(r["flows"][0]["base_rtt_ms"] - 100) < 5, r["flows"][0]


def _guest_cwds(prefix):
    """PIDs of the processes whose working directory is under prefix (a UML guest's run
    directory: scripts/uml.sh starts the guest there)."""
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if os.readlink(d / "cwd").startswith(prefix):
                    pids.append(int(d.name))
            except OSError:
                pass
    return pids


def _tagged(tag):
    """PIDs of the processes whose environment carries tag (all that a run started)."""
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if tag.encode() in (d / "environ").read_bytes().split(b"\0"):
                    pids.append(int(d.name))
            except OSError:
                pass
    return pids


def _read(path):
    try:
        return path.read_text()
    except OSError:
        return ""


MARK = "--duration 617 "  # a run length no other test or screen asks for


@pytest.mark.parametrize("front, rc_term", [("rtt_fairness.sh", 143), ("screen.sh", 130)])
def test_term_to_the_front_door_stops_its_guest_at_once(uml_kernel, tmp_path, front, rc_term):
    """SIGTERM to rtt_fairness.sh or screen.sh alone (kill PID, not its process group) while
    a UML guest runs. bash runs a trap only once the foreground command has ended, so
    rtt_fairness.sh used to wait for the whole guest run (minutes for a 100-flow run) while
    the guest went on; screen.sh killed its jobs' subshells, and the runs they had started
    went on. Either must stop the guest and exit within seconds, leaving no process of the
    run (found by a variable in their environment) and no guest run directory behind."""
    cache = Path(os.environ.get("BBR_A_CACHE") or
                 Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tcp_bbr_a")
    runs = cache / "uml-run"
    before = set(runs.glob("run.*")) if runs.exists() else set()
    out = tmp_path / "term"
    common = ["--sample-ms", "0", "--trace", "off", "--out", str(out)]
    if front == "screen.sh":
        (tmp_path / "configs.txt").write_text("bbr bbr\n")
        cmd = ["screen.sh", "--configs", str(tmp_path / "configs.txt"), "--scenarios", "t:10:5",
               "--seeds", "1", "--jobs", "1", "--duration", MARK.split()[1], *common]
    else:
        cmd = ["rtt_fairness.sh", "--backend", "uml", "--cc", "bbr", "--rtt", "10",
               "--duration", MARK.split()[1], *common]
    tag = f"BBR_A_TERM_TEST={tmp_path.name}"
    env = dict(os.environ, BBR_A_TERM_TEST=tmp_path.name)
    with open(tmp_path / "stderr.txt", "w") as err:
        p = subprocess.Popen([str(REPO / "testbed" / cmd[0]), *cmd[1:]], env=env,
                             stdout=subprocess.DEVNULL, stderr=err)
    new, rc, took, left = set(), None, None, None
    try:
        # this run's guest: other guests (a screen beside the tests) come and go too
        end = time.monotonic() + 300
        while time.monotonic() < end and p.poll() is None:
            new = {d for d in (set(runs.glob("run.*")) if runs.exists() else set()) - before
                   if MARK in _read(d / "params")}
            if any(_guest_cwds(str(d)) for d in new):
                break
            time.sleep(0.5)
        assert any(_guest_cwds(str(d)) for d in new), "no guest process found"
        t0 = time.monotonic()
        p.send_signal(signal.SIGTERM)
        rc = p.wait(60)
        took = time.monotonic() - t0
        time.sleep(1)  # anything the run left would still be there; a stray exit is quick
        left = _tagged(tag)
    finally:
        # the case this guards leaves the script or its guest running: stop them here
        if p.poll() is None:
            p.kill()
            p.wait()
        for pid in _tagged(tag):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    assert rc == rc_term, (tmp_path / "stderr.txt").read_text()[-2000:]
    assert took < 30, took
    assert not left, left
    assert not [d for d in new if d.exists()]
