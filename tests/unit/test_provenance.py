"""Provenance per run: summary.json and screen_runs.csv carry every option that shaped a
run, the kernel and the module, and a screen job's key (analysis/provenance.py)."""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIX = Path(__file__).resolve().parent / "fixtures"
ANALYZE = REPO / "testbed" / "analyze.py"
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
sys.path.insert(0, str(REPO / "testbed"))
from analysis import provenance  # noqa: E402

# what a run of today's testbed records beyond the fixture's (older) params.env
NOW = {"client": "tcpflow", "sockbuf_bytes": "67108864", "tcp_mem": "11853 15804 23706",
       "sampler": "netlink", "module_srcversion": "5768F84FEA37E05AC99C8CA",
       "module_version": "0.5.0", "starts_s": "0,0.1", "host_cpu": "AMD EPYC", "module_srchash": "1ea4856849f2",
       "host_userland": "30bdce28a563"}
KEY = ("--backend uml --duration 4 --rate 20 --flows-per-rtt 2 --sample-ms 100 --client auto "
       "--trace off --cc bbr --rtt 10,30 --buffer-bdp 5 --seed 1 module=c4f440068303 "
       "testbed=f0039dc8e601 kernel=6.1.192-2-10c4e557b052")


def test_every_field_the_provenance_reads_is_recorded_by_the_testbed():
    """A field whose params.env / run.env key no script writes would stay empty forever."""
    src = "".join((REPO / p).read_text() for p in (
        "testbed/scenario.sh", "testbed/rtt_fairness.sh", "testbed/lib/rtt_fairness_runs.sh",
        "testbed/lib/record.sh", "testbed/lib/module.sh", "testbed/lib/backend.sh"))
    written = set(re.findall(r"\bparam ([a-z_]+)", src)) | set(re.findall(r'echo "([a-z_]+)=', src))
    read = {k for _, k in provenance.PROVENANCE if isinstance(k, str)} | set(provenance.HOST_FIELDS)
    assert read - written == set()


def test_a_screen_job_carries_all_of_it(tmp_path):
    job = tmp_path / "screen" / "bbr" / "r30" / "seed1"
    run = job / "bbr" / "run1"
    shutil.copytree(FIX / "run_bbr_parallel", run)
    with open(run / "params.env", "a") as f:
        f.write("".join(f"{k}={v}\n" for k, v in NOW.items()))
    p = subprocess.run([PY, str(ANALYZE), str(job), "--quiet"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    (job / "job.key").write_text(KEY + "\n")
    res = json.loads((job / "summary.json").read_text())["results"][0]
    assert set(res["provenance"]) == set(provenance.PROVENANCE_FIELDS)
    out = tmp_path / "screen.csv"
    p = subprocess.run([PY, str(ANALYZE), "--screen", str(tmp_path / "screen"), "--screen-csv",
                        str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    row, = csv.DictReader(open(tmp_path / "screen_runs.csv"))
    empty = [k for k in provenance.PROVENANCE_FIELDS if k in row and row[k] == ""
             and k != "module_params"]  # none given: empty is its value
    missing = [k for k in provenance.PROVENANCE_FIELDS if k not in row and k != "rtts_ms"]
    assert not missing and not empty, (missing, empty)
    assert {k: row[k] for k in ("duration_s", "warmup_s", "cooldown_s", "interval_start_s",
                                "interval_end_s", "client", "sample_ms", "buffer_bytes",
                                "bdp_bytes", "buffer_bdp", "rate_mbit", "loss_pct",
                                "flows_per_class", "kernel", "module_version",
                                "module_srcversion", "trace", "module_hash", "testbed_hash",
                                "kernel_id", "backend", "sockbuf_bytes", "host_cpu",
                                "host_userland", "module_srchash")} == {
        "duration_s": "4", "warmup_s": "1", "cooldown_s": "1", "interval_start_s": "1.0",
        "interval_end_s": "3.0", "client": "tcpflow", "sample_ms": "100",
        "buffer_bytes": "375000", "bdp_bytes": "75000", "buffer_bdp": "5", "rate_mbit": "20",
        "loss_pct": "0", "flows_per_class": "2/2", "kernel": "6.1.192",
        "module_version": "0.5.0", "module_srcversion": "5768F84FEA37E05AC99C8CA",
        "trace": "off", "module_hash": "c4f440068303", "testbed_hash": "f0039dc8e601",
        "kernel_id": "6.1.192-2-10c4e557b052", "backend": "uml", "sockbuf_bytes": "67108864",
        "host_cpu": "AMD EPYC", "host_userland": "30bdce28a563", "module_srchash": "1ea4856849f2"}


def host_machine(path_prefix=None):
    env = dict(os.environ)
    if path_prefix:
        env["PATH"] = f"{path_prefix}:{env['PATH']}"
    p = subprocess.run(["bash", "-c", f"source {REPO}/scripts/lib/common.sh; "
                        f"source {REPO}/testbed/lib/backend.sh; host_machine"],
                       capture_output=True, text=True, env=env, check=True)
    return dict(line.split("=", 1) for line in p.stdout.splitlines())


def test_the_machine_is_named_by_its_cpu_and_the_programs_a_guest_runs(tmp_path):
    m = host_machine()
    assert set(m) == {"host_cpu", "host_userland"} and m["host_cpu"]
    assert re.fullmatch(r"[0-9a-f]{12}", m["host_userland"])
    assert host_machine() == m
    # another ping (any other bytes) is another userland
    (tmp_path / "ping").write_text("#!/bin/sh\nexit 0\n")
    (tmp_path / "ping").chmod(0o755)
    other = host_machine(tmp_path)
    assert other["host_cpu"] == m["host_cpu"] and other["host_userland"] != m["host_userland"]


def test_an_old_key_names_no_kernel(tmp_path):
    key = tmp_path / "job.key"
    key.write_text(KEY.replace(" --trace off", "").replace(" kernel=6.1.192-2-10c4e557b052", ""))
    assert provenance.job_key(str(key)) == {"trace": "on", "module_hash": "c4f440068303",
                                            "testbed_hash": "f0039dc8e601", "kernel_id": ""}
    assert provenance.job_key(str(tmp_path / "none")) == {}
