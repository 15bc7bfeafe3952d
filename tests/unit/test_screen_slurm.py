"""testbed/screen.sh --slurm without Slurm: a copy of the tree whose rtt_fairness.sh is a
stand-in that writes a summary.json, and a stand-in `sbatch` on PATH that records its
arguments and runs the array's tasks one after another, as Slurm would run them. The real
thing (slurmctld, slurmd, UML jobs) is tests/guest/test_slurm.py, opt-in."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_screen  # noqa: E402

REPO = Path(__file__).resolve().parents[2]

FAKE_RTT_FAIRNESS = r'''#!/usr/bin/env bash
# stand-in for testbed/rtt_fairness.sh: a summary.json whose numbers come from the seed;
# fails for seed $FAKE_FAIL_SEED
out='' seed=1 cc='' dry=0 all="$*"
while [[ $# -gt 0 ]]; do
	case $1 in --out) out=$2 ;; --seed) seed=$2 ;; --cc) cc=$2 ;; --dry-run) dry=1 ;; esac
	shift
done
((dry)) && exit 0
[[ $seed == "${FAKE_FAIL_SEED:-}" ]] && { echo "stand-in fails for seed $seed" >&2; exit 1; }
mkdir -p "$out/$cc/run1"
echo "$all" >"$out/args.txt"
cat >"$out/summary.json" <<EOF
{"results": [{"cc": "$cc", "dir": "$out/$cc/run1", "jain": 0.$((7 + seed)), "utilization": 0.9, "retrans_rate": 0.01,
  "queue_delay_ms": {"mean": $seed.5}, "flows": [{"throughput_mbps": 9.5}],
  "params": {"seed": "$seed", "module_params": "", "rtts_ms": "10 50", "buffer_bdp": "1"}}]}
EOF
'''

FAKE_SBATCH = r'''#!/usr/bin/env bash
# stand-in for sbatch --wait --array=1-N[%M] --output=PATTERN ... SCRIPT: records its
# arguments, prints a job id (--parsable), runs tasks 1..N in order, exits with the highest
# task exit status (what sbatch --wait does for an array)
printf '%s\n' "$@" >"$FAKE_SBATCH_ARGS"
if [[ -n ${FAKE_SBATCH_FAIL:-} ]]; then
	echo "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2
	exit 1
fi
n='' output='' script=${!#}
for a in "$@"; do
	case $a in --array=1-*) n=${a#--array=1-} n=${n%%%*} ;; --output=*) output=${a#--output=} ;; esac
done
echo 4242
max=0
for ((k = 1; k <= n; k++)); do
	SLURM_ARRAY_JOB_ID=4242 SLURM_ARRAY_TASK_ID=$k bash "$script" >"${output//%a/$k}" 2>&1 ||
		{ rc=$?; ((rc > max)) && max=$rc; }
done
exit $max
'''


@pytest.fixture
def tree(tmp_path):
    """A copy of the tree with the stand-in rtt_fairness.sh, and a bin dir with the stand-in
    sbatch."""
    root = tmp_path / "tree"
    for d in ("scripts", "testbed", "include"):
        shutil.copytree(REPO / d, root / d, ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("Makefile", "Kbuild", "bbr_a_core.c"):
        shutil.copy(REPO / f, root / f)
    rf = root / "testbed" / "rtt_fairness.sh"
    rf.write_text(FAKE_RTT_FAIRNESS)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "sbatch").write_text(FAKE_SBATCH)
    (bindir / "sbatch").chmod(0o755)
    cfg = tmp_path / "configs.txt"
    cfg.write_text("base bbr\nfair bbr_a_fair fair_cwnd_queue_us=10000\n")
    return root, bindir, cfg


COMMON = "--backend uml --duration 3 --rate 20 --flows-per-rtt 1 --sample-ms 0 --client auto"


def screen(tree, tmp_path, out, *extra, fail_seed=None, path=None, sbatch_fail=False):
    root, bindir, cfg = tree
    env = dict(os.environ, PATH=path or f"{bindir}:{os.environ['PATH']}",
               FAKE_SBATCH_ARGS=str(tmp_path / "sbatch_args"))
    env.pop("FAKE_FAIL_SEED", None)
    if fail_seed:
        env["FAKE_FAIL_SEED"] = str(fail_seed)
    if sbatch_fail:
        env["FAKE_SBATCH_FAIL"] = "1"
    return subprocess.run([str(root / "testbed" / "screen.sh"), "--configs", str(cfg), "--out",
                           str(out), "--scenarios", "s:10+50:1", "--seeds", "1,2",
                           "--duration", "3", "--rate", "20", *extra],
                          capture_output=True, text=True, env=env, timeout=120)


def source_hashes(root):
    """module=... testbed=... kernel=..., the end of each job.key."""
    mod, tb = test_screen.source_hashes(root)
    return f"module={mod} testbed={tb} kernel={test_screen.kernel_id(root)}"


KEYS = ["base/s/seed1", "base/s/seed2", "fair/s/seed1", "fair/s/seed2"]


def job_args(key):
    config, _, seed = key.split("/")
    cc, mp = {"base": ("bbr", ""),
              "fair": ("bbr_a_fair", " --module-param fair_cwnd_queue_us=10000")}[config]
    return f"{COMMON} --cc {cc} --rtt 10,50 --buffer-bdp 1 --seed {seed[4:]}{mp}"


def test_slurm_dry_run_prints_the_array_and_writes_nothing(tree, tmp_path):
    out = tmp_path / "out"
    p = screen(tree, tmp_path, out, "--slurm", "--dry-run", "--slurm-opts", "--partition=p -t 10")
    assert p.returncode == 0, p.stderr
    assert [ln.split()[:2] for ln in p.stdout.splitlines()] == [["todo", k] for k in KEYS]
    assert f"would submit: sbatch --wait --parsable --array=1-4 --job-name=screen:out " \
        f"--output={out}/slurm/task-%a.log --partition=p -t 10 {out}/slurm/array.sh" in p.stderr
    assert not out.exists() and not (tmp_path / "sbatch_args").exists()


def test_slurm_array_runs_the_jobs_a_local_run_runs(tree, tmp_path):
    root = tree[0]
    out, local = tmp_path / "out", tmp_path / "local"
    p = screen(tree, tmp_path, out, "--slurm", "--jobs", "2", "--slurm-opts", "--partition=p")
    assert p.returncode == 0, p.stderr
    args = (tmp_path / "sbatch_args").read_text().splitlines()
    assert args[:4] == ["--wait", "--parsable", "--array=1-4%2", "--job-name=screen:out"]
    assert args[-2:] == ["--partition=p", str(out / "slurm" / "array.sh")]
    # one line per job, in array task order: the key and all of rtt_fairness.sh's arguments
    assert (out / "slurm" / "jobs.txt").read_text().splitlines() == \
        [f"{k} {job_args(k)}" for k in KEYS]
    h = source_hashes(root)
    for k in KEYS:
        assert (out / k / "job.key").read_text() == f"{job_args(k)} {h}\n"
        assert (out / k / "args.txt").read_text() == f"{job_args(k)} --out {out / k}\n"
        # the run directory its summary names is where the job left it
        run_dir = json.loads((out / k / "summary.json").read_text())["results"][0]["dir"]
        assert Path(run_dir).is_dir() and Path(run_dir).parent.parent == out / k, run_dir
    assert "task 3: fair/s/seed1" in (out / "slurm" / "task-3.log").read_text()
    assert "Slurm job 4242 ended" in p.stderr

    p = screen(tree, tmp_path, local, "--jobs", "2")  # the same screen, run here
    assert p.returncode == 0, p.stderr
    assert not (local / "slurm").exists()
    for k in KEYS:
        assert (local / k / "job.key").read_text() == (out / k / "job.key").read_text()
    assert (local / "screen.csv").read_text() == (out / "screen.csv").read_text()
    assert (local / "screen_runs.csv").read_text() == (out / "screen_runs.csv").read_text()

    (tmp_path / "sbatch_args").unlink()  # a re-run has nothing to submit
    p = screen(tree, tmp_path, out, "--slurm")
    assert p.returncode == 0, p.stderr
    assert "4 jobs, 4 done already, 0 to run" in p.stderr
    assert not (tmp_path / "sbatch_args").exists()


def test_slurm_failed_tasks_are_named_and_run_again(tree, tmp_path):
    out = tmp_path / "out"
    p = screen(tree, tmp_path, out, "--slurm", fail_seed=2)
    assert p.returncode == 1
    assert f"task 2 (base/s/seed2) FAILED (see {out}/slurm/task-2.log and " \
        f"{out}/base/s/seed2.log)" in p.stderr
    assert "task 4 (fair/s/seed2) FAILED" in p.stderr and "2 job(s) failed" in p.stderr
    assert "stand-in fails for seed 2" in (out / "base/s/seed2.log").read_text()
    assert (out / "screen.csv").exists()  # the jobs that ran are merged all the same
    p = screen(tree, tmp_path, out, "--slurm")
    assert p.returncode == 0, p.stderr
    assert "--array=1-2" in (tmp_path / "sbatch_args").read_text().splitlines()
    assert (out / "slurm" / "jobs.txt").read_text().split("\n")[:2] == \
        [f"base/s/seed2 {job_args('base/s/seed2')}", f"fair/s/seed2 {job_args('fair/s/seed2')}"]
    assert all((out / k / "summary.json").exists() for k in KEYS)


def test_slurm_without_sbatch_or_with_a_refused_submission(tree, tmp_path):
    nosb = tmp_path / "nosbatch"  # /usr/bin without Slurm's commands, if they are installed
    nosb.mkdir()
    for f in Path("/usr/bin").iterdir():
        if f.name not in ("sbatch", "scancel"):
            (nosb / f.name).symlink_to(f)
    p = screen(tree, tmp_path, tmp_path / "a", "--slurm", path=str(nosb))
    assert p.returncode == 1 and "sbatch not found" in p.stderr, p.stderr
    p = screen(tree, tmp_path, tmp_path / "b", "--slurm", sbatch_fail=True)
    assert p.returncode == 1
    assert "Invalid partition name" in p.stderr and "submission failed" in p.stderr, p.stderr


def test_run_job_bad_usage(tree, tmp_path):
    sh = str(tree[0] / "testbed" / "screen.sh")
    p = subprocess.run([sh, "--run-job", str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 2 and "--run-job needs DIR" in p.stderr
    p = subprocess.run([sh, "--run-job", str(tmp_path), "1"], capture_output=True, text=True)
    assert p.returncode == 1 and "cannot read" in p.stderr


def test_trace_off_is_passed_on_and_keyed_and_on_keeps_the_old_keys(tree, tmp_path):
    # the stand-in rtt_fairness.sh records its arguments (args.txt): screen.sh passes --trace
    # off on and keys it; the default (on) adds nothing, so earlier jobs' keys stay valid
    root = tree[0]
    on, off = tmp_path / "on", tmp_path / "off"
    assert screen(tree, tmp_path, on).returncode == 0
    assert screen(tree, tmp_path, off, "--trace", "off").returncode == 0
    h = source_hashes(root)
    k = "base/s/seed1"
    assert (on / k / "job.key").read_text() == f"{job_args(k)} {h}\n"
    assert "--trace" not in (on / k / "args.txt").read_text()
    assert (off / k / "args.txt").read_text().startswith(f"{COMMON} --trace off --cc bbr")
    assert (off / k / "job.key").read_text() != (on / k / "job.key").read_text()
    # reproduce.sh runs Fig. 8 (up to 100 flows) without the trace, the others with it
    rp = root / "testbed" / "reproduce.sh"
    for fig, trace in (("fig8", True), ("fig7", False)):
        p = subprocess.run([str(rp), fig, "--ccs", "bbr", "--seeds", "1", "--duration", "3",
                            "--out", str(tmp_path / "rp")], capture_output=True, text=True,
                           timeout=300)
        assert p.returncode == 0, p.stderr
        args = [f.read_text() for f in (tmp_path / "rp" / fig).glob("bbr/*/seed1/args.txt")]
        assert len(args) == {"fig8": 14, "fig7": 10}[fig]
        assert all(("--trace off" in a) == trace for a in args), args[0]
