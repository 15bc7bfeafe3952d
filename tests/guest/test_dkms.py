"""DKMS builds and installs the module for Debian's 6.12 kernel, and that kernel autoloads
the result on `sysctl net.ipv4.tcp_congestion_control=bbr_a` (docs/operators.md).

DKMS installs the module as the kernel installs its own: compressed where the kernel's
config says so (Debian's 6.12.117+deb12 has CONFIG_MODULE_COMPRESS_XZ and _ALL, and DKMS
3.0 follows it: tcp_bbr_a.ko.xz), plain .ko where it does not. The test takes whichever
DKMS made (.ko, .ko.xz, .ko.zst, .ko.gz: the archive decides, not the test) and checks
what holds for any of them: the vermagic, the srchash, and that the kernel's modprobe loads
that very file from updates/dkms/ under its own name.

On the host, Debian's own dkms (scripts/setup.sh installs it) adds, builds and installs the
repository's DKMS source directory (the files `make dkms-install` copies) for 6.12's cached
headers, in trees of its own under tmp_path (--dkmstree, --sourcetree, --installtree): the
host's /var/lib/dkms, /usr/src and /lib/modules are not touched. A QEMU guest booted from
that 6.12 kernel then puts the installed file where DKMS puts it on a host
(/lib/modules/RELEASE/updates/dkms/), runs depmod, and sets the sysctl: the kernel loads
the module by its alias, and modinfo names the DKMS copy.

One module build and one short guest boot: 12 s of CPU, 40 s of wall time on 2 cores
shared with a load of 12.
"""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GUEST = REPO / "scripts" / "guest.sh"
KERNELS_SH = REPO / "scripts" / "kernels.sh"
SERIES = "6.12"
# what DKMS may install: plain, or compressed as the kernel's config asks
INSTALLED_NAMES = {"tcp_bbr_a.ko", "tcp_bbr_a.ko.xz", "tcp_bbr_a.ko.zst", "tcp_bbr_a.ko.gz"}

pytestmark = pytest.mark.guest

GUEST_SCRIPT = r"""
set -u
rel=$(uname -r)
mkdir -p /lib/modules/$rel/updates/dkms
cp "$BBR_A_KO" "/lib/modules/$rel/updates/dkms/${BBR_A_KO##*/}"
depmod "$rel"
echo "modprobe_path=$(cat /proc/sys/kernel/modprobe)"
echo "before=$(grep -c '^tcp_bbr_a ' /proc/modules)"
sysctl -w net.ipv4.tcp_congestion_control=bbr_a
echo "default=$(cat /proc/sys/net/ipv4/tcp_congestion_control)"
echo "loaded=$(grep -c '^tcp_bbr_a ' /proc/modules)"
echo "version=$(cat /sys/module/tcp_bbr_a/version)"
echo "file=$(modinfo -F filename tcp_bbr_a)"
echo "available=$(cat /proc/sys/net/ipv4/tcp_available_congestion_control)"
"""


def dkms_files():
    """The Makefile's DKMS_FILES: what `make dkms-install` copies to /usr/src."""
    m = re.search(r"^DKMS_FILES = (.*)$", (REPO / "Makefile").read_text(), re.M)
    return m.group(1).split()


def test_dkms_install_for_6_12_autoloads_on_sysctl(tmp_path):
    if shutil.which("dkms") is None:
        pytest.fail("dkms is not installed: sudo scripts/setup.sh")
    kdir = subprocess.run([str(KERNELS_SH), "kdir", SERIES], capture_output=True, text=True,
                          timeout=900)
    assert kdir.returncode == 0, kdir.stderr[-2000:]
    kdir = kdir.stdout.strip().splitlines()[-1]
    rel = re.search(r'UTS_RELEASE "(.*)"',
                    (Path(kdir) / "include/generated/utsrelease.h").read_text()).group(1)
    ver = subprocess.run(["make", "-s", "-C", str(REPO), "version"], capture_output=True,
                         text=True).stdout.strip()
    src = tmp_path / "src" / f"tcp_bbr_a-{ver}"
    src.mkdir(parents=True)
    for name in dkms_files():
        (shutil.copytree if (REPO / name).is_dir() else shutil.copy)(REPO / name, src / name)
    trees = ["--dkmstree", str(tmp_path / "dkms"), "--sourcetree", str(tmp_path / "src"),
             "--installtree", str(tmp_path / "install")]
    (tmp_path / "dkms").mkdir()
    # /lib/modules/RELEASE, which the kernel's package makes on a host (dkms install checks)
    (tmp_path / "install" / rel).mkdir(parents=True)
    log = []
    for action in (["add"], ["build", "-k", rel, "--kernelsourcedir", kdir],
                   ["install", "-k", rel, "--kernelsourcedir", kdir, "--no-depmod"]):
        p = subprocess.run(["dkms", *action, "-m", "tcp_bbr_a", "-v", ver, *trees],
                           capture_output=True, text=True, timeout=900)
        log.append(f"$ dkms {' '.join(action)}\n{p.stdout}{p.stderr}")
        assert p.returncode == 0, "\n".join(log)[-5000:]
    found = list((tmp_path / "install").rglob("tcp_bbr_a.ko*"))
    assert len(found) == 1, f"installed: {found}\n" + "\n".join(log)[-3000:]
    ko = found[0]
    assert ko.parent == tmp_path / "install" / rel / "updates" / "dkms", ko
    assert ko.name in INSTALLED_NAMES, f"{ko}: not a module file name DKMS gives"
    info = subprocess.run(["modinfo", "-F", "vermagic", str(ko)], capture_output=True,
                          text=True).stdout
    assert info.split()[0] == rel, info
    # the DKMS copy's srchash names the repository's sources (the testbed's module=)
    srchash = subprocess.run(["modinfo", "-F", "srchash", str(ko)], capture_output=True,
                             text=True).stdout.strip()
    assert srchash == subprocess.run(
        ["bash", "-c", f"source {REPO}/scripts/lib/common.sh; source "
         f"{REPO}/scripts/lib/module.sh; module_source_hash {REPO}"],
        capture_output=True, text=True, check=True).stdout.strip()

    out = tmp_path / "out"
    p = subprocess.run([str(GUEST), "--kernel", SERIES, "--timeout", "600", "--out", str(out),
                        "--ko", str(ko), "--", "sh", "-c", GUEST_SCRIPT],
                       cwd=REPO, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=1500)
    report = f"guest.sh exit {p.returncode}\n{p.stdout}\n{p.stderr[-3000:]}"
    assert p.returncode == 0, report
    got = dict(re.findall(r"^(\w+)=(.*)$", p.stdout, re.M))
    assert got.get("before") == "0", report
    assert got.get("default") == "bbr_a" and got.get("loaded") == "1", report
    assert got.get("version") == ver, report
    # guest.sh unpacks a .ko.gz (the guest's kmod has no zlib); other files load as they are
    name = ko.name.removesuffix(".gz")
    assert got.get("file", "").endswith(f"/updates/dkms/{name}"), report
    assert {"bbr_a", "bbr_a_fair", "bbq", "da_bbr"} <= set(got.get("available", "").split())
