"""Host driver of the guest integration tests (tests/guest/bbr_a_tests.sh).

Boots each Debian kernel in QEMU through scripts/guest.sh, runs the TAP script there and fails
on any `not ok`. Also checks that a broken module makes that script fail, quickly and clearly.

    /usr/bin/python3 -m pytest tests/guest/test_integration.py                # 6.1 and 6.12
    BBR_A_GUEST_KERNELS=6.12 /usr/bin/python3 -m pytest tests/guest/test_integration.py
    /usr/bin/python3 -m pytest tests/guest/test_integration.py -k "not broken"  # no negatives

The negative tests (a module whose init fails, one that registers nothing) use the first
kernel of BBR_A_GUEST_KERNELS.

Needs the packages of scripts/setup.sh; the first run downloads the kernels (~180 MB).
Each guest run takes about one minute on an idle 2-core machine.
"""
import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GUEST = REPO / "scripts" / "guest.sh"
BUILD = REPO / "scripts" / "build_module.sh"
TESTS = "tests/guest/bbr_a_tests.sh"
KERNELS = os.environ.get("BBR_A_GUEST_KERNELS", "6.1 6.12").split()
TIMEOUT = int(os.environ.get("BBR_A_GUEST_TIMEOUT", "900"))  # wall s per guest run

pytestmark = pytest.mark.guest


def run_guest(kernel, out, *extra):
    """Run the TAP script in a guest; return (exit status, stdout, stderr)."""
    cmd = [str(GUEST), "--kernel", kernel, "--timeout", str(TIMEOUT), "--out", str(out),
           *extra, "--", "sh", TESTS]
    p = subprocess.run(cmd, cwd=REPO, stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=TIMEOUT + 600)  # + kernel fetch / build
    return p.returncode, p.stdout, p.stderr


def tap(stdout):
    """(passed descriptions, failed descriptions) from TAP lines."""
    ok = re.findall(r"^ok \d+ - (.*)$", stdout, re.M)
    bad = re.findall(r"^not ok \d+ - (.*)$", stdout, re.M)
    return ok, bad


@pytest.mark.parametrize("kernel", KERNELS)
def test_guest_integration(kernel, tmp_path):
    rc, out, err = run_guest(kernel, tmp_path)
    report = f"guest.sh exit {rc}\n--- stdout ---\n{out}\n--- stderr ---\n{err[-3000:]}"
    ok, bad = tap(out)
    assert not bad, f"{len(bad)} guest test(s) failed on {kernel}: {bad}\n{report}"
    assert rc == 0, report
    assert len(ok) >= 15 and re.search(r"^1\.\.\d+$", out, re.M), f"TAP run incomplete\n{report}"
    assert (tmp_path / "dmesg.txt").is_file() and (tmp_path / "console.log").is_file()


BROKEN_MODULES = {
    # init fails: insmod must fail and every later test must report, not hang
    "init_fails": ("static int __init m_init(void) { return -EINVAL; }", "module loads"),
    # loads fine but registers no congestion control
    "no_register": ("static int __init m_init(void) { return 0; }",
                    "bbr_a is in tcp_available_congestion_control"),
}


@pytest.mark.parametrize("variant", sorted(BROKEN_MODULES))
def test_broken_module_fails_clearly(variant, tmp_path):
    kernel = KERNELS[0]
    init, must_fail = BROKEN_MODULES[variant]
    src = tmp_path / "src"
    src.mkdir()
    (src / "Kbuild").write_text("obj-m := tcp_bbr_a.o\n")
    (src / "Makefile").write_text("all:\n\t$(MAKE) -C $(KDIR) M=$(CURDIR) modules\n")
    (src / "tcp_bbr_a.c").write_text(
        "#include <linux/module.h>\n"
        f"{init}\n"
        "static void __exit m_exit(void) { }\n"
        "module_init(m_init);\nmodule_exit(m_exit);\nMODULE_LICENSE(\"GPL\");\n")
    b = subprocess.run([str(BUILD), "--src", str(src), "--tag", f"test-{variant}", kernel],
                       cwd=REPO, capture_output=True, text=True, timeout=600)
    assert b.returncode == 0, b.stderr
    ko = b.stdout.strip().splitlines()[-1]

    rc, out, err = run_guest(kernel, tmp_path / "out", "--ko", ko)
    report = f"guest.sh exit {rc}\n--- stdout ---\n{out}\n--- stderr ---\n{err[-3000:]}"
    ok, bad = tap(out)
    assert rc == 1, f"the TAP script should fail (exit 1), not the runner\n{report}"
    assert any(d.startswith(must_fail) for d in bad), f"'{must_fail}' did not fail\n{report}"
    assert re.search(r"^# \d+ passed, [1-9]\d* failed", out, re.M), report
