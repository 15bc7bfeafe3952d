"""testbed/screen.sh (job list, resume) and analyze.py --screen (mean and 95 % CI)."""
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "testbed"))
import analysis as analyze  # noqa: E402

SCREEN = REPO / "testbed" / "screen.sh"


def test_mean_ci95():
    m, h = analyze.mean_ci95([0.9, 1.0])
    assert m == pytest.approx(0.95)
    assert h == pytest.approx(12.706 * math.sqrt(0.005) / math.sqrt(2))
    m, h = analyze.mean_ci95([0.5, 0.6, 0.7, None])  # None: a run without the metric
    assert m == pytest.approx(0.6) and h == pytest.approx(4.303 * 0.1 / math.sqrt(3))
    assert analyze.mean_ci95([0.7]) == (0.7, None)
    assert analyze.mean_ci95([]) == (None, None)


def source_hashes(root=REPO):
    """(module, testbed) source hashes of the tree at root, as screen.sh keys its jobs."""
    out = subprocess.run(["bash", "-c", f"source {root}/scripts/lib/common.sh; source "
                          f"{root}/scripts/lib/module.sh; module_source_hash {root} && "
                          f"testbed_source_hash {root}"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert len(out) == 2 and all(len(h) == 12 for h in out), out
    return tuple(out)


def kernel_id(root=REPO):
    """The kernel= of a UML job's key: scripts/uml.sh id, or unknown without kernel sources."""
    p = subprocess.run([str(root / "scripts" / "uml.sh"), "id"], capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else "unknown"


def fake_job(root, config, scen, seed, jain, cc="bbr_a"):
    d = root / config / scen / f"seed{seed}"
    d.mkdir(parents=True)
    res = {"cc": cc, "jain": jain, "utilization": 0.94, "retrans_rate": 0.001,
           "queue_delay_ms": {"mean": 12.0}, "kernel": "6.1.192", "module_version": "0.2.0",
           "flows": [{"throughput_mbps": 40.0}, {"throughput_mbps": 50.0}],
           "params": {"seed": str(seed), "module_params": "", "rtts_ms": "10 50",
                      "buffer_bdp": "5"}}
    (d / "summary.json").write_text(json.dumps({"results": [res]}))


def test_screen_table(tmp_path):
    for seed, j in ((1, 0.8), (2, 0.9), (3, 1.0)):
        fake_job(tmp_path, "a", "b5", seed, j)
    fake_job(tmp_path, "b", "b5", 1, 0.6, cc="bbr")
    rows = analyze.screen_runs(str(tmp_path))
    assert [r[:3] for r in rows] == [["a", "b5", "1"], ["a", "b5", "2"], ["a", "b5", "3"],
                                     ["b", "b5", "1"]]
    table = {t["config"]: t for t in analyze.screen_table(rows)}
    assert table["a"]["runs"] == 3 and table["a"]["jain"] == pytest.approx(0.9)
    assert table["a"]["jain_ci95"] == pytest.approx(4.303 * 0.1 / math.sqrt(3), abs=1e-5)
    assert table["b"]["jain_ci95"] is None and table["b"]["cc"] == "bbr"
    assert analyze.main(["--screen", str(tmp_path), "--screen-csv",
                         str(tmp_path / "s.csv")]) == 0
    assert (tmp_path / "s_runs.csv").read_text().count("\n") == 5
    out = subprocess.run([sys.executable, str(REPO / "testbed" / "analyze.py"), "--screen",
                          str(tmp_path), "--markdown"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "| a | b5 | 3 | 0.900 +- 0.248 | 0.940 +- 0.000 | 0.10 +- 0.00 | 12.0 +- 0.0 |" \
        in out.stdout, out.stdout


def test_screen_resume_lists_only_missing_jobs(tmp_path):
    cfg = tmp_path / "configs.txt"
    cfg.write_text("# name cc params\nbase bbr\n\nfair bbr_a_fair fair_cwnd_queue_us=10000\n")
    out = tmp_path / "out"
    cmd = [str(SCREEN), "--configs", str(cfg), "--out", str(out), "--scenarios", "b5:10+50:5",
           "--seeds", "1,2", "--dry-run"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "--module-param fair_cwnd_queue_us=10000" in p.stdout
    jobs = {ln.split()[1]: " ".join(ln.split()[2:]) for ln in p.stdout.splitlines()}
    # this job finished in an earlier, interrupted screen: its result and then its key
    fake_job(out, "fair", "b5", 2, 0.9)
    common = "--backend uml --duration 30 --rate 100 --flows-per-rtt 1 --sample-ms 0 --client auto"
    mod, tb = source_hashes()
    (out / "fair/b5/seed2/job.key").write_text(
        f"{common} {jobs['fair/b5/seed2']} module={mod} testbed={tb}\n")
    # this one was stopped after its summary, before its key: not done
    fake_job(out, "base", "b5", 1, 0.6, cc="bbr")
    p = subprocess.run(cmd, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    state = {line.split()[1]: line.split()[0] for line in p.stdout.splitlines()}
    assert state == {"base/b5/seed1": "stale", "base/b5/seed2": "todo",
                     "fair/b5/seed1": "todo", "fair/b5/seed2": "done"}


def test_screen_reruns_jobs_made_with_other_options_or_module(tmp_path):
    """A result is reused only for the same job: its job.key (rtt_fairness.sh arguments and
    the hashes of the module and testbed sources) must match; a result without job.key
    (made before keys existed, or stopped before its end) is not reused."""
    cfg = tmp_path / "configs.txt"
    cfg.write_text("fair bbr_a_fair\n")
    out = tmp_path / "out"
    cmd = [str(SCREEN), "--configs", str(cfg), "--out", str(out), "--scenarios", "b5:10+50:5",
           "--seeds", "1,2,3", "--dry-run"]

    def states(*extra):
        p = subprocess.run(cmd + list(extra), capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        return {ln.split()[1]: ln.split()[0] for ln in p.stdout.splitlines()}

    for seed in (1, 2, 3):
        fake_job(out, "fair", "b5", seed, 0.9)
    assert states() == {f"fair/b5/seed{s}": "stale" for s in (1, 2, 3)}  # no job.key
    line = [ln for ln in subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()
            if "seed1" in ln][0]
    args = " ".join(line.split()[2:])
    # the key screen.sh writes: the common options, the job's arguments, the source hashes
    common = "--backend uml --duration 30 --rate 100 --flows-per-rtt 1 --sample-ms 0 --client auto"
    mod, tb = source_hashes()
    key = f"{common} {args} module={mod} testbed={tb}\n"
    (out / "fair/b5/seed1/job.key").write_text(key)
    (out / "fair/b5/seed2/job.key").write_text(key.replace(mod, "000000000000"))
    (out / "fair/b5/seed3/job.key").write_text(key)
    st = states()
    assert st["fair/b5/seed1"] == "done" and st["fair/b5/seed2"] == "stale"
    assert st["fair/b5/seed3"] == "stale"  # seed 3's job has other arguments (--seed 3)
    # a result made with another tcpflow.py, sampler or trace reader
    (out / "fair/b5/seed2/job.key").write_text(key.replace(tb, "000000000000"))
    assert states()["fair/b5/seed2"] == "stale"
    # a result keyed before the testbed hash existed
    (out / "fair/b5/seed2/job.key").write_text(key.replace(f" testbed={tb}", ""))
    assert states()["fair/b5/seed2"] == "stale"
    assert states("--duration", "60")["fair/b5/seed1"] == "stale"
    assert states("--client", "iperf3")["fair/b5/seed1"] == "stale"
    # another warm-up is another job; the default one keeps today's keys
    assert states("--warmup", "60")["fair/b5/seed1"] == "stale"
    # flows whose starts the seed spreads are another job; without it, today's keys
    assert states("--start-jitter", "1")["fair/b5/seed1"] == "stale"
    (out / "fair/b5/seed1/job.key").write_text(key.replace(common, f"{common} --jitter 1"))
    assert states("--start-jitter", "1")["fair/b5/seed1"] == "done"
    (out / "fair/b5/seed1/job.key").write_text(key)
    # so are other hosts per class; one host per class keeps today's keys
    assert states("--hosts-per-class", "1")["fair/b5/seed1"] == "done"
    (out / "fair/b5/seed1/job.key").write_text(key.replace("--flows-per-rtt 1", "--flows-per-rtt 2"))
    assert states("--flows-per-rtt", "2")["fair/b5/seed1"] == "done"
    assert states("--flows-per-rtt", "2", "--hosts-per-class", "2")["fair/b5/seed1"] == "stale"
    (out / "fair/b5/seed1/job.key").write_text(key)
    # a result keyed before --client existed was made with iperf3: not today's default job
    old_common = common.replace(" --client auto", "")
    (out / "fair/b5/seed1/job.key").write_text(key.replace(common, old_common))
    assert states()["fair/b5/seed1"] == "stale"


def test_job_keys_name_the_kernel(tmp_path):
    """A new UML kernel build makes every job stale; a key from before keys named the kernel
    holds only where summary.json's kernel is the release this build runs."""
    kid = kernel_id()
    if kid == "unknown":
        pytest.skip("no linux-source-6.1 here: scripts/uml.sh id cannot name the kernel")
    cfg = tmp_path / "configs.txt"
    cfg.write_text("fair bbr_a_fair\n")
    out = tmp_path / "out"
    cmd = [str(SCREEN), "--configs", str(cfg), "--out", str(out), "--scenarios", "b5:10+50:5",
           "--seeds", "1", "--dry-run"]
    args = " ".join(subprocess.run(cmd, capture_output=True, text=True).stdout.split()[2:])
    common = "--backend uml --duration 30 --rate 100 --flows-per-rtt 1 --sample-ms 0 --client auto"
    mod, tb = source_hashes()
    old = f"{common} {args} module={mod} testbed={tb}"
    fake_job(out, "fair", "b5", 1, 0.9)  # its summary.json says kernel 6.1.192
    key = out / "fair/b5/seed1/job.key"

    def state():
        p = subprocess.run(cmd, capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        return p.stdout.split()[0]
    key.write_text(f"{old} kernel={kid}\n")
    assert state() == "done"
    key.write_text(f"{old} kernel=6.1.199-1-000000000000\n")
    assert state() == "stale"
    key.write_text(old + "\n")
    assert state() == ("done" if kid.startswith("6.1.192-") else "stale")
    summary = out / "fair/b5/seed1/summary.json"
    summary.write_text(summary.read_text().replace("6.1.192", "6.1.150"))
    assert state() == "stale"  # an old key whose run was made on another kernel


@pytest.mark.parametrize("args, msg", [
    ([], "--configs and --out are required"),
    (["--configs", "/nonexistent", "--out", "x"], "cannot read"),
    (["--configs", "/dev/null", "--out", "x", "--seeds", "1,a"], "--seeds"),
    (["--bogus"], "unknown option"),
    (["--configs", "/dev/null", "--out", "x", "--start-jitter", "1s"], "--start-jitter"),
])
def test_screen_bad_usage(args, msg):
    p = subprocess.run([str(SCREEN), *args], capture_output=True, text=True)
    assert p.returncode == 2 and msg in p.stderr


def stub_tree(root, runner):
    """A copy of what screen.sh needs, with testbed/rtt_fairness.sh replaced by RUNNER (a
    shell script body; --dry-run, screen.sh's option check, always passes)."""
    for rel in ("testbed/screen.sh", "testbed/analyze.py", "testbed/lib/slurm.sh",
                "testbed/lib/screen_usage.sh", "testbed/lib/screen_keys.sh",
                "testbed/lib/screen_jobs.sh", "testbed/lib/module_src.sh", "scripts/lib/common.sh",
                "scripts/lib/module.sh", "Makefile", "Kbuild"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes((REPO / rel).read_bytes())
    (root / "testbed/screen.sh").chmod(0o755)
    shutil.copytree(REPO / "testbed/analysis", root / "testbed/analysis",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for rel in ("testbed/scenario.sh", "testbed/topology.sh", "testbed/tcpflow.py",
                "testbed/tcpflow_fct.py", "testbed/sampler.c", "testbed/lib/flows.sh",
                "testbed/lib/module.sh", "testbed/lib/options.sh", "testbed/lib/record.sh",
                "testbed/lib/traffic.sh", "testbed/lib/flent.sh", "testbed/lib/paths.sh",
                "testbed/lib/hosts.sh", "testbed/lib/bottleneck.sh"):
        (root / rel).touch()  # hashed into the job keys
    run = root / "testbed/rtt_fairness.sh"
    run.write_text("#!/bin/sh\nfor a; do [ \"$a\" = --dry-run ] && exit 0; done\n" + runner)
    run.chmod(0o755)
    return root / "testbed/screen.sh"


def test_screen_stops_when_its_first_jobs_all_fail(tmp_path):
    """A screen whose first jobs fail for want of a setup step (here: kernel sources) stops
    after two, naming the cause, instead of failing every job the same way."""
    screen = stub_tree(tmp_path / "tree", "echo 'uml.sh: error: linux-source missing' >&2\n"
                       "exit 1\n")
    cfg = tmp_path / "configs.txt"
    cfg.write_text("base bbr\n")
    out = tmp_path / "out"
    p = subprocess.run([str(screen), "--configs", str(cfg), "--out", str(out), "--scenarios",
                        "b5:10+50:5", "--seeds", "1,2,3,4,5,6,7,8", "--jobs", "2"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1, p.stderr
    assert "FAILED: uml.sh: error: linux-source missing" in p.stderr, p.stderr
    assert "jobs failed and none succeeded: no more started" in p.stderr, p.stderr
    # two failed, and at most one more (started as the first was reaped) of the 8
    assert 2 <= len(list((out / "base/b5").glob("seed*.log"))) <= 3


def test_screen_runs_on_after_a_failure_once_a_job_succeeded(tmp_path):
    """Failures after a success are the jobs' own: every job runs, the screen then fails."""
    fake_job(tmp_path, "x", "b5", 1, 0.9)  # what the seed 1 run leaves
    ok = tmp_path / "x/b5/seed1/summary.json"
    screen = stub_tree(tmp_path / "tree", f'case "$*" in *"--seed 1 "*) for d; do :; done; '
                       f'mkdir -p "$d" && cp {ok} "$d/" && exit 0 ;; esac\n'
                       "echo 'rtt_fairness.sh: error: run failed' >&2\nexit 1\n")
    cfg = tmp_path / "configs.txt"
    cfg.write_text("base bbr\n")
    out = tmp_path / "out"
    p = subprocess.run([str(screen), "--configs", str(cfg), "--out", str(out), "--scenarios",
                        "b5:10+50:5", "--seeds", "1,2,3,4,5", "--jobs", "1"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "4 job(s) failed" in p.stderr, p.stderr
    assert len(list((out / "base/b5").glob("seed*.log"))) == 5


def test_screen_warns_when_its_runs_mix_kernels(tmp_path, capsys):
    """Job keys hash the sources, not the kernel: a screen resumed on another linux-source
    must say that it mixes kernels."""
    fake_job(tmp_path, "a", "b5", 1, 0.8)
    fake_job(tmp_path, "a", "b5", 2, 0.9)
    assert analyze.main(["--screen", str(tmp_path)]) == 0
    assert "kernels" not in capsys.readouterr().err
    p = tmp_path / "a/b5/seed2/summary.json"
    p.write_text(p.read_text().replace("6.1.192", "6.1.199"))
    assert analyze.main(["--screen", str(tmp_path)]) == 0
    assert "made on 2 kernels (6.1.192: 1, 6.1.199: 1)" in capsys.readouterr().err
