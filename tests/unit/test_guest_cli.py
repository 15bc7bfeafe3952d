"""scripts/guest.sh refuses a --ko that is no module file with one line and status 2, before
it fetches, builds or boots anything; the module's compressed forms (what a kernel's
modules_install and DKMS leave on a kernel that compresses its modules) get past that check
(their loading in a guest: tests/guest/test_integration.py, test_dkms.py)."""
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GUEST = REPO / "scripts" / "guest.sh"


def guest(tmp_path, *args):
    """guest.sh with a cache of its own that must stay empty: nothing is fetched or built."""
    cache = tmp_path / "cache"
    p = subprocess.run([str(GUEST), "--kernel", "6.12", *args, "--", "true"],
                       capture_output=True, text=True, timeout=60,
                       env={"PATH": "/usr/bin:/bin", "BBR_A_CACHE": str(cache)})
    assert not cache.exists() or not any(cache.rglob("*")), sorted(cache.rglob("*"))
    return p


@pytest.mark.parametrize("name", ["tcp_bbr_a.o", "tcp_bbr_a.ko.bz2", "module.tar"])
def test_a_file_that_is_no_module_is_refused(tmp_path, name):
    (tmp_path / name).write_bytes(b"x")
    p = guest(tmp_path, "--ko", str(tmp_path / name))
    assert p.returncode == 2, p.stderr
    assert "not a module file (.ko, .ko.xz, .ko.zst or .ko.gz)" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_a_missing_module_is_refused(tmp_path):
    p = guest(tmp_path, "--ko", str(tmp_path / "tcp_bbr_a.ko.xz"))
    assert p.returncode == 2 and "no such file" in p.stderr, p.stderr
