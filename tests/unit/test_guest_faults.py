"""A guest kernel that dies: scripts/lib/console.sh tells from the console whether tcp_bbr_a's
code is in the fault report, and testbed/rtt_fairness.sh runs a QEMU guest once more only
when it is not (an emulator fault), never twice, never under UML (deterministic: the same
fault again), and never when the module may be involved. rtt_fairness.sh runs here in a copy
of the tree whose scripts/guest.sh is a stand-in that replays a console."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CONSOLES = REPO / "tests" / "unit" / "fixtures" / "console"


def console_fault(path):
    p = subprocess.run(["bash", "-c", 'source "$1"; console_fault "$2"', "-",
                        str(REPO / "scripts" / "lib" / "console.sh"), str(path)],
                       capture_output=True, text=True, check=True)
    return p.stdout.strip()


@pytest.mark.parametrize("name,on_stack,first", [
    ("double_fault_no_module", "no", "traps: PANIC: double fault, error_code: 0x0"),
    ("int3_no_module", "no", "Oops: int3: 0000 [#1] PREEMPT SMP NOPTI"),
    ("null_deref_in_module", "yes", "BUG: kernel NULL pointer dereference, address: 0000000000000010"),
    ("gpf_module_frame", "yes", "general protection fault, probably for non-canonical address"),
    ("rip_unsymbolised", "yes", "BUG: unable to handle page fault for address: ffffffffc0a1f000"),
    # a fault in softirq on the way out of a read(): the report's user-space RIP (code
    # segment 0033) is no code outside the kernel image (CI of 2026-11-28, 6.12)
    ("net_rx_action_user_rip_no_module", "no",
     "BUG: kernel NULL pointer dereference, address: 0000000000000008"),
])
def test_console_fault_classifies(name, on_stack, first):
    out = console_fault(CONSOLES / f"{name}.log")
    assert out.startswith(f"fault {on_stack} {first}")


def test_console_fault_silent_without_fault(tmp_path):
    # a module that is merely loaded (taint, module list) and a WARNING are no fault
    assert console_fault(CONSOLES / "clean_boot.log") == ""
    assert console_fault(tmp_path / "missing.log") == ""


FAKE_GUEST = r'''#!/usr/bin/env bash
# stand-in for scripts/guest.sh: call K replays console $FAKE_CONSOLES[K] (exit 125), or
# succeeds when there is none
out=''
while [[ $# -gt 0 ]]; do [[ $1 == --out ]] && out=$2; [[ $1 == -- ]] && break; shift; done
n=$(( $(cat "$FAKE_CALLS" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$FAKE_CALLS"
read -ra consoles <<<"$FAKE_CONSOLES"
c=${consoles[n-1]:-}
mkdir -p "$out"
echo partial >"$out/iperf3.json"
[[ -z $c || $c == ok ]] && { echo "fake boot" >"$out/console.log"; exit 0; }
cp "$c" "$out/console.log"
exit 125
'''


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "tree"
    for d in ("scripts", "testbed"):
        shutil.copytree(REPO / d, root / d, ignore=shutil.ignore_patterns("__pycache__"))
    guest = root / "scripts" / "guest.sh"
    guest.write_text(FAKE_GUEST)
    guest.chmod(0o755)
    bindir = tmp_path / "bin"  # the qemu backend checks that QEMU is installed
    bindir.mkdir()
    (bindir / "qemu-system-x86_64").write_text("#!/bin/sh\nexit 0\n")
    (bindir / "qemu-system-x86_64").chmod(0o755)
    return root, bindir


def main_job(tree, tmp_path, backend, consoles):
    root, bindir = tree
    env = dict(os.environ, PATH=f"{bindir}:{os.environ['PATH']}", FAKE_CALLS=str(tmp_path / "calls"),
               FAKE_CONSOLES=" ".join(str(CONSOLES / f"{c}.log") if c != "ok" else c for c in consoles))
    p = subprocess.run([str(root / "testbed" / "rtt_fairness.sh"), "--backend", backend, "--cc", "bbr",
                        "--duration", "3", "--warmup", "1", "--no-analysis", "--out", str(tmp_path / "out")],
                       capture_output=True, text=True, env=env, timeout=600)  # a cold cache builds here
    calls = int((tmp_path / "calls").read_text())
    return p, calls, tmp_path / "out" / "bbr" / "run1"


def test_emulator_fault_is_retried_once_and_kept(tree, tmp_path):
    p, calls, run = main_job(tree, tmp_path, "qemu", ["double_fault_no_module", "ok"])
    assert p.returncode == 0, p.stderr
    assert calls == 2
    assert "no tcp_bbr_a code in its report" in p.stderr and "not the module" in p.stderr
    assert "PANIC: double fault" in (run / "fault1-console.log").read_text()
    assert (run / "console.log").read_text() == "fake boot\n"  # the second attempt's
    assert (run / "run.env").is_file()


def test_second_emulator_fault_fails(tree, tmp_path):
    p, calls, run = main_job(tree, tmp_path, "qemu", ["int3_no_module", "double_fault_no_module", "ok"])
    assert p.returncode == 1
    assert calls == 2
    assert "not retried twice" in p.stderr
    assert not (run / "run.env").exists()


@pytest.mark.parametrize("console", ["null_deref_in_module", "gpf_module_frame", "rip_unsymbolised"])
def test_fault_that_may_involve_the_module_is_never_retried(tree, tmp_path, console):
    p, calls, run = main_job(tree, tmp_path, "qemu", [console, "ok"])
    assert p.returncode == 1
    assert calls == 1
    assert "module bug" in p.stderr
    assert (run / "console.log").is_file() and not (run / "fault1-console.log").exists()


def test_uml_fault_is_not_retried(tree, tmp_path):
    p, calls, _ = main_job(tree, tmp_path, "uml", ["double_fault_no_module", "ok"])
    assert p.returncode == 1
    assert calls == 1


def test_progress_ticker_starts_no_process_that_outlives_it(tree, tmp_path):
    # a sleep the ticker started just before its TERM, its pid not yet kept, outlived it and
    # held the caller's pipes (a CI run under load took 15 s here): this sleep does not die
    # on TERM, so a ticker that waits with any child process fails, whatever the timing
    import time
    _, bindir = tree
    fake = bindir / "sleep"
    fake.write_text("#!/bin/bash\ntrap '' TERM\nexec /bin/sleep \"$@\"\n")
    fake.chmod(0o755)
    t0 = time.monotonic()
    p, calls, _ = main_job(tree, tmp_path, "qemu", ["ok"])
    assert p.returncode == 0 and calls == 1, p.stderr
    assert time.monotonic() - t0 < 10


def test_progress_ticker_leaves_no_sleep_holding_the_pipe(tree, tmp_path):
    # the ticker's `sleep 15` used to outlive it and hold stdout/stderr open: whoever read
    # the main job's output through a pipe waited up to 15 s after it had ended
    import time
    t0 = time.monotonic()
    p, calls, _ = main_job(tree, tmp_path, "qemu", ["ok"])
    assert p.returncode == 0 and calls == 1, p.stderr
    assert time.monotonic() - t0 < 10
