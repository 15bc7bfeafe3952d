"""testbed/screen.sh --slurm on a real Slurm cluster of one node, against the same screen run
locally: every job's result at the same relative path, the same job keys, the same merged
table. Opt-in (BBR_A_SLURM_TEST=1, root): installs Debian's slurm-wlm and munge when they are
missing, starts munged, slurmctld and slurmd with a configuration, key, sockets, state and
logs in a temporary directory and stops them and removes it at the end, failed or not.

    BBR_A_SLURM_TEST=1 python3 -m pytest tests/guest/test_slurm.py

The jobs run on the UML backend (same seed = same bytes), one at a time (--jobs 1, the
array's throttle): 2 seeds x 7 simulated seconds (the shortest run rtt_fairness.sh accepts
with its default 5 s warm-up and 1 s cool-down), twice.
"""
import csv
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCREEN = REPO / "testbed" / "screen.sh"
TOOLS = ("sbatch", "scancel", "sinfo", "squeue", "slurmctld", "slurmd", "munged")
SBIN_PATH = os.environ["PATH"] + ":/usr/sbin:/sbin"

pytestmark = [
    pytest.mark.uml,
    pytest.mark.skipif(os.environ.get("BBR_A_SLURM_TEST") != "1",
                       reason="opt-in: BBR_A_SLURM_TEST=1 (installs slurm-wlm and munge, "
                              "runs Slurm daemons)"),
]


def install_slurm():
    """Debian's slurm-wlm and munge, unless their commands are there already."""
    if all(shutil.which(t, path=SBIN_PATH) for t in TOOLS):
        return
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", "slurm-wlm", "munge"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:  # package lists missing or out of date
        subprocess.run(["apt-get", "update", "-q"], capture_output=True, env=env)
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert p.returncode == 0, "apt-get install slurm-wlm munge failed:\n" + p.stderr[-3000:]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, check, timeout, procs, logs):
    """Poll check() until it is true; fail with the logs' tails after timeout seconds or
    when one of the daemons has exited."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        dead = [" ".join(p.args[:1]) + f" exited ({p.returncode})" for p in procs
                if p.poll() is not None]
        if dead:
            break
        time.sleep(0.5)
    tails = "".join(f"\n--- {f}:\n" + (f.read_text()[-2000:] if f.exists() else "(none)")
                    for f in logs)
    pytest.fail(f"waiting for {what}: {', '.join(dead) or f'timed out after {timeout} s'}{tails}")


def slurm_conf(d, node):
    """A one-node cluster: everything in d, ports chosen free, the node's CPUs and memory
    as slurmd -C reports them."""
    hw = subprocess.run(["slurmd", "-C"], capture_output=True, text=True, check=True,
                        env=dict(os.environ, PATH=SBIN_PATH)).stdout.splitlines()[0]
    hw = re.sub(r"^NodeName=\S+", "", hw).strip()
    return f"""ClusterName=bbratest
SlurmctldHost={node}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={d}/munge.socket
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
PlugStackConfig={d}/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName={node} NodeAddr=127.0.0.1 {hw} State=UNKNOWN
PartitionName=test Nodes={node} Default=YES MaxTime=INFINITE State=UP
"""


@pytest.fixture(scope="module")
def slurm(request):
    """A running one-node cluster: the environment its client commands need (SLURM_CONF)."""
    if os.geteuid() != 0:
        pytest.skip("needs root (installs packages, runs the Slurm daemons as root)")
    install_slurm()
    d = Path(tempfile.mkdtemp(prefix="bbr_a-slurm-"))
    procs = []
    env = dict(os.environ, PATH=SBIN_PATH, SLURM_CONF=str(d / "slurm.conf"))

    def stop():
        if procs:  # jobs first (their processes are not the daemons' children)
            subprocess.run(["scancel", "--full", "--user=root"], env=env, capture_output=True)
            end = time.monotonic() + 30
            while time.monotonic() < end and subprocess.run(
                    ["squeue", "-h"], env=env, capture_output=True, text=True).stdout.strip():
                time.sleep(1)
        for p in reversed(procs):  # slurmd, slurmctld, munged
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(20)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        shutil.rmtree(d, ignore_errors=True)
    request.addfinalizer(stop)

    d.chmod(0o755)  # munged wants its socket's directory searchable by all
    for sub in ("state", "spool", "munge"):
        (d / sub).mkdir(mode=0o700)
    key = d / "munge" / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o400)
    (d / "plugstack.conf").write_text("")
    node = socket.gethostname().split(".")[0]
    (d / "slurm.conf").write_text(slurm_conf(d, node))

    def start(name, *cmd):
        log = open(d / f"{name}.out", "w")
        procs.append(subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                      start_new_session=True))
        log.close()

    start("munged", "munged", "--foreground", f"--key-file={key}",
          f"--socket={d}/munge.socket", f"--pid-file={d}/munge/munged.pid",
          f"--log-file={d}/munge/munged.log", f"--seed-file={d}/munge/munged.seed")
    wait_for("munged's socket", lambda: (d / "munge.socket").exists(), 30, procs,
             [d / "munged.out"])
    start("slurmctld", "slurmctld", "-D", "-f", str(d / "slurm.conf"))
    start("slurmd", "slurmd", "-D", "-f", str(d / "slurm.conf"))

    def idle():
        p = subprocess.run(["sinfo", "-h", "-N", "-o", "%T"], env=env, capture_output=True,
                           text=True)
        return p.returncode == 0 and p.stdout.strip() == "idle"
    wait_for("the node to be idle", idle, 90, procs,
             [d / "slurmctld.out", d / "slurmctld.log", d / "slurmd.out", d / "slurmd.log"])
    return {"env": env, "dir": d}


def test_screen_through_slurm_equals_local(uml_kernel, slurm):
    env, d = slurm["env"], slurm["dir"]
    cfg = d / "configs.txt"
    cfg.write_text("bbr bbr\n")
    base = [str(SCREEN), "--configs", str(cfg), "--scenarios", "s:10+50:1", "--seeds", "1,2",
            "--duration", "7", "--rate", "20", "--backend", "uml", "--jobs", "1"]
    on_slurm, local = d / "on-slurm", d / "local"

    t0 = time.monotonic()
    p = subprocess.run(base + ["--out", str(on_slurm), "--slurm"], env=env, capture_output=True,
                       text=True, timeout=1800)
    t_slurm = time.monotonic() - t0
    logs = "".join(f"\n--- {f}:\n{f.read_text()[-2000:]}"
                   for f in sorted(on_slurm.glob("slurm/task-*.log")))
    assert p.returncode == 0, f"screen.sh --slurm failed:\n{p.stderr[-4000:]}{logs}"
    assert "--array=1-2%1" in p.stderr and "ended (sbatch exit status 0)" in p.stderr, p.stderr
    assert (on_slurm / "slurm" / "jobs.txt").read_text().count("\n") == 2

    t0 = time.monotonic()
    p = subprocess.run(base + ["--out", str(local)], env=env, capture_output=True, text=True,
                       timeout=1800)
    t_local = time.monotonic() - t0
    assert p.returncode == 0, f"local screen.sh failed:\n{p.stderr[-4000:]}"
    print(f"screen of 2 jobs: {t_slurm:.0f} s through Slurm, {t_local:.0f} s here")

    def results(root):
        return sorted(str(f.relative_to(root)) for f in root.glob("*/*/seed*/*")
                      if f.name in ("summary.json", "job.key"))
    assert results(on_slurm) == results(local) == [
        "bbr/s/seed1/job.key", "bbr/s/seed1/summary.json",
        "bbr/s/seed2/job.key", "bbr/s/seed2/summary.json"]
    for k in ("bbr/s/seed1/job.key", "bbr/s/seed2/job.key"):
        assert (on_slurm / k).read_text() == (local / k).read_text(), k
    # UML runs are deterministic: the merged tables are equal to the byte
    for f in ("screen.csv", "screen_runs.csv"):
        assert (on_slurm / f).read_text() == (local / f).read_text(), f
    with open(on_slurm / "screen_runs.csv") as f:  # and the runs moved data
        rows = list(csv.DictReader(f))
    assert [r["seed"] for r in rows] == ["1", "2"], rows
    assert all(float(r["utilization"]) > 0.5 and r["jain"] for r in rows), rows

    # a re-run finds every job done and submits nothing
    p = subprocess.run(base + ["--out", str(on_slurm), "--slurm"], env=env, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0 and "2 done already, 0 to run" in p.stderr, p.stderr
    assert "submitting" not in p.stderr
