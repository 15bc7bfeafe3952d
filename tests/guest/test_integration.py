"""Host driver of the guest integration tests (tests/guest/bbr_a_tests.sh).

Boots each Debian kernel in QEMU through scripts/guest.sh, runs the TAP script there and fails
on any `not ok`. Also checks that a broken module makes that script fail, quickly and clearly.

    /usr/bin/python3 -m pytest tests/guest/test_integration.py    # 6.1, 6.12, the newest series
    BBR_A_GUEST_KERNELS="6.12 oldest" /usr/bin/python3 -m pytest tests/guest/test_integration.py
    /usr/bin/python3 -m pytest tests/guest/test_integration.py -k "not broken"  # no negatives

BBR_A_GUEST_KERNELS holds Debian kernel series as scripts/kernels.sh takes them; newest and
oldest become the series they stand for when the tests are collected (today 7.3 and 5.10),
so the test ids name the series (-k 7.3). The negative tests (a module whose init fails, one
that registers nothing) use the first kernel of BBR_A_GUEST_KERNELS; the build that misses
the TX-start hook uses the newest series.

Needs the packages of scripts/setup.sh; the first run downloads the kernels (~100-300 MB
each) and, for a kernel of another Debian release than the host's, makes that release's build
environment (scripts/lib/buildenv.sh; root). Each guest run takes one to two minutes on an
idle 2-core machine.
"""
import os
import re
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GUEST = REPO / "scripts" / "guest.sh"
BUILD = REPO / "scripts" / "build_module.sh"
TESTS = "tests/guest/bbr_a_tests.sh"
KERNELS_SH = REPO / "scripts" / "kernels.sh"
TIMEOUT = int(os.environ.get("BBR_A_GUEST_TIMEOUT", "900"))  # wall s per guest run


def series(name):
    """newest/oldest as the series they stand for now (scripts/kernels.sh series); any other
    name, or one that cannot be resolved (guest.sh then says why), as it is."""
    if name not in ("newest", "oldest"):
        return name
    p = subprocess.run([str(KERNELS_SH), "series", name], capture_output=True, text=True,
                       timeout=600)
    return p.stdout.strip() if p.returncode == 0 and p.stdout.strip() else name


# the default: GUEST_SERIES of scripts/lib/common.sh (scripts/kernels.sh matrix shows it too)
DEFAULT = re.search(r'^GUEST_SERIES="([^"]*)"', (REPO / "scripts/lib/common.sh").read_text(),
                    re.M).group(1)
KERNELS = list(dict.fromkeys(
    series(k) for k in os.environ.get("BBR_A_GUEST_KERNELS", DEFAULT).split()))

pytestmark = pytest.mark.guest


def run_guest(kernel, out, *extra, only=None):
    """Run the TAP script in a guest (with BBR_A_ONLY=only, if given); return (exit status,
    stdout, stderr)."""
    cmd = [str(GUEST), "--kernel", kernel, "--timeout", str(TIMEOUT), "--out", str(out),
           *extra, "--", *([f"BBR_A_ONLY={only}"] if only else []), "sh", TESTS]
    p = subprocess.run(cmd, cwd=REPO, stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=TIMEOUT + 600)  # + kernel fetch / build
    return p.returncode, p.stdout, p.stderr


def tap(stdout):
    """(passed descriptions, failed descriptions) from TAP lines."""
    ok = re.findall(r"^ok \d+ - (.*)$", stdout, re.M)
    bad = re.findall(r"^not ok \d+ - (.*)$", stdout, re.M)
    return ok, bad


def run_guest_once_more_on_a_machine_fault(kernel, out):
    """run_guest; a guest kernel fault with none of tcp_bbr_a's code in its report (QEMU
    TCG's own, as far as anyone can tell: docs/backends.md, "Guest faults") is run once
    more, as the testbed's guest_run does, its console kept as fault1-console.log. A fault
    that may involve the module, and a second fault, stand."""
    rc, stdout, stderr = run_guest(kernel, out)
    if rc == 125 and "(tcp_bbr_a code in the report: no;" in stderr:
        for f in out.iterdir():
            if f.name == "console.log":
                f.rename(out / "fault1-console.log")
            elif f.is_file():
                f.unlink()
        rc, stdout, stderr = run_guest(kernel, out)
    return rc, stdout, stderr


@pytest.mark.parametrize("kernel", KERNELS)
def test_guest_integration(kernel, tmp_path):
    rc, out, err = run_guest_once_more_on_a_machine_fault(kernel, tmp_path)
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


def test_a_kernel_that_hangs_before_init_is_booted_once_more(tmp_path):
    """A guest kernel that hangs in its own boot, before init and any project code (seen under
    TCG: docs/backends.md, 2026-12-04), is killed once BBR_A_GUEST_BOOT_TIMEOUT passes without
    init's "booted", booted again, and after a second hang fails as "did not boot" (123), long
    before the run's --timeout. Here the kernel waits for a root device that never comes."""
    env = {**os.environ, "BBR_A_GUEST_BOOT_TIMEOUT": "30",
           "BBR_A_GUEST_APPEND": "rdinit=/none root=/dev/vdz rootwait"}
    t0 = time.monotonic()
    p = subprocess.run([str(GUEST), "--kernel", KERNELS[0], "--timeout", "600", "--out",
                        str(tmp_path), "--", "true"], cwd=REPO, env=env,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=1200)
    assert p.returncode == 123, p.stderr[-3000:]
    assert p.stderr.count("booting it again") == 1, p.stderr[-3000:]
    assert "did not boot, twice" in p.stderr and "no project code had run" in p.stderr
    assert "Waiting for root device" in (tmp_path / "console-hung.log").read_text()
    assert time.monotonic() - t0 < 500, "the hang should end the run, not its --timeout"


@pytest.mark.parametrize("tool", ["zstd", "gzip"])
def test_a_compressed_module_loads(tool, tmp_path):
    """A kernel configured to compress its modules gets tcp_bbr_a compressed from
    `make install` and DKMS (docs/operators.md): guest.sh --ko takes the file as they leave
    it, and the guest loads it (.ko.zst as it is, by kmod; .ko.gz unpacked on the host, since
    the guest's kmod has no zlib). test_dkms.py covers .ko.xz, Debian's own."""
    kernel = KERNELS[0]
    b = subprocess.run([str(BUILD), kernel], cwd=REPO, capture_output=True, text=True,
                       timeout=900)
    assert b.returncode == 0, b.stderr
    suffix = {"zstd": ".zst", "gzip": ".gz"}[tool]
    ko = tmp_path / f"tcp_bbr_a.ko{suffix}"
    with open(ko, "wb") as f:
        subprocess.run([tool, "-c", b.stdout.strip().splitlines()[-1]], stdout=f, check=True)
    rc, out, err = run_guest(kernel, tmp_path / "out", "--ko", str(ko), only="load")
    report = f"guest.sh exit {rc}\n--- stdout ---\n{out}\n--- stderr ---\n{err[-3000:]}"
    ok, bad = tap(out)
    assert rc == 0 and not bad, report
    want = "/bbr_a/tcp_bbr_a.ko" + (suffix if tool == "zstd" else "")
    assert f"module loads (insmod {want})" in ok, report


def test_a_build_that_misses_the_tx_start_hook_stops(tmp_path, tree_without_probe):
    """Since Linux 7.1 the kernel sends CA_EVENT_TX_START only to .cwnd_event_tx_start. A
    module built as if the kernel had no such hook (Kbuild's probe for it removed, as when
    the header's text changes) filled only .cwnd_event and lost idle restart without a
    sound: only the guest's idle-restart checks (ev=2 in the trace) caught it. Such a build
    now stops in Kbuild with a line naming the probe. Runs on the newest series, if its
    headers have the hook."""
    kernel = series("newest")
    p = subprocess.run([str(KERNELS_SH), "kdir", kernel], capture_output=True, text=True,
                       timeout=900)
    assert p.returncode == 0, p.stderr
    kdir = Path(p.stdout.strip())
    tcp_h = [h for h in kdir.parent.glob("linux-headers-*/include/net/tcp.h")]
    if not any("cwnd_event_tx_start" in h.read_text() for h in tcp_h):
        pytest.skip(f"the {kernel} headers have no cwnd_event_tx_start (before 7.1)")
    src = tree_without_probe("CWND_EVENT_TX_START")
    b = subprocess.run([str(BUILD), "--src", str(src), "--tag", "test-no-tx-start", kernel],
                       cwd=REPO, capture_output=True, text=True, timeout=900)
    assert b.returncode != 0, "the build without the probe succeeded"
    assert "fix Kbuild's CWND_EVENT_TX_START probe" in b.stdout + b.stderr, b.stderr[-3000:]
