"""scripts/guest_soak.sh: one outcomes.csv line per guest run (ok, a fault with or without
tcp_bbr_a in the report, a retried fault as a run of its own), and a re-run that does only
the iterations it does not have. rtt_fairness.sh is a stand-in here that replays consoles."""
import csv
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CONSOLES = REPO / "tests" / "unit" / "fixtures" / "console"

# Call 1: both ccs fine. Call 2: bbr_a fine after a retried emulator fault, bbr dies with the
# module in the report (exit 1). Later calls: fine.
FAKE = r'''#!/usr/bin/env bash
set -eu
out=''
while [[ $# -gt 0 ]]; do [[ $1 == --out ]] && out=$2; shift; done
n=$(( $(cat "$CALLS" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$CALLS"
ok() { mkdir -p "$out/$1/run1"; echo "fake boot" >"$out/$1/run1/console.log"
	echo "wall_s=$2" >"$out/$1/run1/run.env"; }
ok bbr_a 40
if [[ $n == 2 ]]; then
	cp "$FIXTURES/double_fault_no_module.log" "$out/bbr_a/run1/fault1-console.log"
	mkdir -p "$out/bbr/run1"
	cp "$FIXTURES/null_deref_in_module.log" "$out/bbr/run1/console.log"
	exit 1
fi
ok bbr 50
'''


def soak(tree, tmp_path, runs):
    env = {"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": str(tmp_path), "CALLS": str(tmp_path / "calls"),
           "FIXTURES": str(CONSOLES)}
    return subprocess.run([str(tree / "scripts" / "guest_soak.sh"), "--out", str(tmp_path / "soak"),
                           "--runs", str(runs), "--", "--backend", "qemu"],
                          capture_output=True, text=True, env=env, timeout=60)


def test_soak_counts_every_guest_run_and_resumes(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "scripts", tree / "scripts")
    (tree / "testbed").mkdir()
    fake = tree / "testbed" / "rtt_fairness.sh"
    fake.write_text(FAKE)
    fake.chmod(0o755)
    p = soak(tree, tmp_path, 3)
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(open(tmp_path / "soak" / "outcomes.csv")))
    got = [(r["iteration"], r["cc"], r["outcome"], r["module_on_stack"], r["iteration_rc"]) for r in rows]
    assert got == [
        ("i1", "bbr", "ok", "", "0"), ("i1", "bbr_a", "ok", "", "0"),
        ("i2", "bbr", "fault", "yes", "1"),
        ("i2", "bbr_a", "fault", "no", "1"), ("i2", "bbr_a", "ok", "", "1"),
        ("i3", "bbr", "ok", "", "0"), ("i3", "bbr_a", "ok", "", "0")]
    assert rows[2]["fault"].startswith("BUG: kernel NULL pointer dereference")
    assert rows[3]["fault"] == "traps: PANIC: double fault, error_code: 0x0"
    assert "fault 2" in p.stdout and "ok 5" in p.stdout
    # a re-run with more iterations runs only the new one
    p = soak(tree, tmp_path, 4)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "calls").read_text().strip() == "4"
    assert len(list(csv.DictReader(open(tmp_path / "soak" / "outcomes.csv")))) == 9
