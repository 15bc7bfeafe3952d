"""testbed/lib/module.sh against a stand-in for /sys/module/tcp_bbr_a (BBR_A_MODULE_DIR): a
run that finds the module loaded sets its --module-param values for the run and, when it
ends, also by failing half-way, puts back the values it found."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TB = REPO / "testbed"
FOUND = {"adaptive": "1", "fair_queue_us": "2000", "loss_thresh": "20"}

# What scenario.sh does around the module, in its order: the library sourced, cleanup on
# EXIT, the parameters set, the run (here: it prints what the module has), the end.
RUN = r'''
set -u
die() { echo "scenario: $*" >&2; exit 1; }
log() { echo "scenario: $*" >&2; }
TB_DIR=$1
shift
. "$TB_DIR/lib/module.sh"
trap module_cleanup EXIT
MODULE_PARAMS=
for p in "$@"; do MODULE_PARAMS="$MODULE_PARAMS $p"; done
module_set_params
for f in "$MODULE_DIR"/parameters/*; do read -r v < "$f"; echo "${f##*/}=$v"; done
'''

SHELLS = [s for s in ("dash", "busybox") if shutil.which(s)]


@pytest.fixture
def module_dir(tmp_path):
    params = tmp_path / "tcp_bbr_a" / "parameters"
    params.mkdir(parents=True)
    for k, v in FOUND.items():
        (params / k).write_text(v + "\n")
    return params.parent


def values(module_dir):
    return {f.name: f.read_text().strip() for f in (module_dir / "parameters").iterdir()}


def run(shell, module_dir, *params):
    cmd = ["busybox", "sh"] if shell == "busybox" else [shell]
    env = dict(os.environ, BBR_A_MODULE_DIR=str(module_dir))
    return subprocess.run([*cmd, "-c", RUN, "run", str(TB), *params], env=env,
                          capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("shell", SHELLS)
def test_parameters_are_set_for_the_run_and_put_back(shell, module_dir):
    p = run(shell, module_dir, "fair_queue_us=3000", "adaptive=0")
    assert p.returncode == 0, p.stderr
    during = dict(line.split("=") for line in p.stdout.split())
    assert during == {"adaptive": "0", "fair_queue_us": "3000", "loss_thresh": "20"}
    assert values(module_dir) == FOUND
    assert "set back to the values found: fair_queue_us=2000 adaptive=1" in p.stderr


@pytest.mark.parametrize("shell", SHELLS)
def test_a_parameter_given_twice_gets_the_value_found(shell, module_dir):
    p = run(shell, module_dir, "fair_queue_us=3000", "fair_queue_us=4000")
    assert p.returncode == 0, p.stderr
    assert "fair_queue_us=4000" in p.stdout.split()
    assert values(module_dir) == FOUND


@pytest.mark.parametrize("shell", SHELLS)
def test_a_run_that_fails_half_way_puts_back_what_it_changed(shell, module_dir):
    p = run(shell, module_dir, "adaptive=0", "no_such_param=1", "loss_thresh=5")
    assert p.returncode == 1
    assert "parameter no_such_param cannot be set at run time" in p.stderr
    assert p.stdout == ""  # the run did not start
    assert values(module_dir) == FOUND


@pytest.mark.parametrize("shell", SHELLS)
def test_nothing_asked_nothing_changed(shell, module_dir):
    p = run(shell, module_dir)
    assert p.returncode == 0, p.stderr
    assert values(module_dir) == FOUND
    assert "set back" not in p.stderr


def available_ccs():
    return Path("/proc/sys/net/ipv4/tcp_available_congestion_control").read_text().split()


@pytest.mark.skipif(os.geteuid() != 0, reason="scenario.sh runs as root only")
@pytest.mark.skipif(any(shutil.which(t) is None for t in ("ip", "tc", "ss", "ethtool", "iperf3")),
                    reason="scenario.sh needs iproute2, ethtool and iperf3")
def test_scenario_puts_the_parameters_back_when_it_stops(tmp_path, module_dir):
    """Through scenario.sh itself: it finds the stand-in "loaded", sets the parameter,
    then stops because the kernel has no bbr_a (the stand-in registers nothing), before any
    namespace exists; its cleanup must put the value back."""
    if "bbr_a" in available_ccs():
        pytest.skip("tcp_bbr_a is really loaded here: scenario.sh would start a real run")
    env = dict(os.environ, BBR_A_MODULE_DIR=str(module_dir))
    p = subprocess.run(["sh", str(TB / "scenario.sh"), "--cc", "bbr_a", "--rtt", "10", "--rate", "10",
                        "--buffer", "10000", "--duration", "10", "--module-param", "adaptive=0",
                        "--out", str(tmp_path / "out")],
                       env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 1, p.stderr
    assert "congestion control bbr_a is not available" in p.stderr
    assert "set back to the values found: adaptive=1" in p.stderr
    assert values(module_dir) == FOUND


RECORD = r'''
set -u
die() { echo "scenario: $*" >&2; exit 1; }
log() { echo "scenario: $*" >&2; }
PARAMS_FILE=$2
param() { printf '%s=%s\n' "$1" "$2" >> "$PARAMS_FILE"; }
TB_DIR=$1
. "$TB_DIR/lib/module.sh"
module_record
echo "version=$MODULE_VERSION"
'''


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("count", [3, 30])
def test_recording_the_parameters_starts_no_process_per_parameter(shell, tmp_path, count):
    """module_record reads every parameter with shell builtins: the processes a run starts,
    which draw from a UML guest's seeded random numbers, do not depend on how many
    parameters the module has (0.23.0's deletion of 23 moved every seeded run). A cat on
    PATH that logs its calls is never called; the record is the same words as before."""
    mod = tmp_path / "tcp_bbr_a"
    (mod / "parameters").mkdir(parents=True)
    for i in range(count):
        (mod / "parameters" / f"p{i:02d}").write_text(f"{i}\n")
    (mod / "version").write_text("9.9.9\n")
    (mod / "srcversion").write_text("ABCDEF\n")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    log = tmp_path / "calls"
    for tool in ("cat", "modinfo", "echo"):
        (bindir / tool).write_text(f"#!/bin/sh\necho {tool} >> {log}\nexec /bin/{tool} \"$@\"\n")
        (bindir / tool).chmod(0o755)
    cmd = ["busybox", "sh"] if shell == "busybox" else [shell]
    env = dict(os.environ, BBR_A_MODULE_DIR=str(mod), PATH=f"{bindir}:{os.environ['PATH']}")
    params = tmp_path / "params.env"
    p = subprocess.run([*cmd, "-c", RECORD, "run", str(TB), str(params)], env=env,
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["version=9.9.9"]
    assert not log.exists(), log.read_text()
    rec = dict(line.split("=", 1) for line in params.read_text().splitlines())
    assert rec["module_params_effective"] == " ".join(f"p{i:02d}={i}" for i in range(count))
    assert rec["module_srcversion"] == "ABCDEF"
