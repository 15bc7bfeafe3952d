"""Shared fixtures of the host unit tests."""
import struct
import subprocess
from pathlib import Path

import pytest

SCENARIO = Path(__file__).resolve().parents[2] / "testbed" / "scenario.sh"


def write_fake_ko(path, params, version="9.9.9"):
    """A stand-in tcp_bbr_a.ko: an ELF object whose .modinfo section holds parm=NAME:DESC
    entries, what MODULE_PARM_DESC leaves in the built module and modinfo -p prints (so
    rtt_fairness.sh can check --module-param without a kernel build)."""
    modinfo = b"".join(f"parm={n}:{d}".encode() + b"\0" for n, d in params)
    modinfo += f"version={version}\0".encode()
    shstr = b"\0.modinfo\0.shstrtab\0"
    off_mi, off_str = 64, 64 + len(modinfo)
    off_sh = (off_str + len(shstr) + 7) // 8 * 8
    ehdr = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8) + struct.pack(
        "<HHIQQQIHHHHHH", 1, 62, 1, 0, 0, off_sh, 0, 64, 0, 0, 64, 3, 2)

    def shdr(name, typ, flags, off, size):
        return struct.pack("<IIQQQQIIQQ", name, typ, flags, 0, off, size, 0, 0, 1, 0)
    body = ehdr + modinfo + shstr
    body += bytes(off_sh - len(body)) + bytes(64)
    body += shdr(1, 1, 2, off_mi, len(modinfo)) + shdr(10, 3, 0, off_str, len(shstr))
    path.write_bytes(body)
    return path


@pytest.fixture
def fake_ko(tmp_path):
    """fake_ko(params) -> path of a stand-in tcp_bbr_a.ko with these (name, description)
    parameters (write_fake_ko)."""
    made = []

    def make(params, version="9.9.9"):
        d = tmp_path / f"fake_ko{len(made) + 1}"
        d.mkdir()
        made.append(write_fake_ko(d / "tcp_bbr_a.ko", params, version))
        return made[-1]
    return make


@pytest.fixture
def plan():
    """plan(*args) -> (flows, groups): testbed/scenario.sh --plan at 10 Mbit/s with a
    1000-packet buffer and these options, its "# flows" and "# iperf3" parts, a list of each
    line's words per part."""
    def run_plan(*args):
        p = subprocess.run(["sh", str(SCENARIO), "--plan", "--rate", "10", "--buffer", "1000",
                            *args], capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        flows, groups, part = [], [], None
        for line in p.stdout.splitlines():
            if line.startswith("# flows"):
                part = flows
            elif line.startswith("# iperf3"):
                part = groups
            else:
                part.append(line.split())
        return flows, groups
    return run_plan
