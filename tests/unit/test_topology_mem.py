"""testbed/topology.sh's sizes for deep buffers: the socket buffers and TCP's global memory
limit (net.ipv4.tcp_mem) grow with what the path holds, so cubic in a 100 BDP buffer is not
cut to 4 packets per RTT by memory pressure (a 1 GB guest's default tcp_mem was the cause of
Fig. 6's collapsed cubic runs); the old limit comes back at teardown. On a stand-in /proc."""
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TOPO = REPO / "testbed" / "topology.sh"
# a 1 GB UML guest's values (6.1.192, read in the guest)
GUEST_TCP_MEM = ["11853", "15804", "23706"]
SHELLS = [["sh"], ["bash"]] + ([["busybox", "sh"]] if shutil.which("busybox") else [])


def fake_proc(root, tcp_mem=GUEST_TCP_MEM, memtotal_kb=1017544):
    proc = root / "proc"
    (proc / "sys/net/ipv4").mkdir(parents=True)
    (proc / "sys/net/ipv4/tcp_mem").write_text("\t".join(tcp_mem) + "\n")
    (proc / "meminfo").write_text(f"MemTotal:       {memtotal_kb} kB\nMemFree:  1 kB\n")
    return proc


def sizes(proc, buf, shell=("sh",), extra=""):
    """tb_sizes of topology.sh for 10 vs 50 ms at 100 Mbit/s and a buffer of buf bytes, then
    tb_teardown: {path, sockbuf, now (the limit after tb_sizes), after (after teardown)},
    and stderr."""
    f = "$TB_PROC/sys/net/ipv4/tcp_mem"
    script = (f'. {TOPO}; TB_BUF={buf} TB_RATE=100 TB_RTTS="10 50"; {extra} tb_sizes || exit 1; '
              f'echo "$TB_PATH_BYTES"; echo "$TB_SOCKBUF"; echo $(cat {f}); '
              f'TB_IP=/bin/true; tb_teardown; echo $(cat {f})')
    p = subprocess.run([*shell, "-c", script], capture_output=True, text=True,
                       env={"PATH": "/usr/bin:/bin", "TB_PROC": str(proc)})
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    return dict(zip(["path", "sockbuf", "now", "after"],
                    [int(lines[0]), int(lines[1])] + [x.split() for x in lines[2:4]])), p.stderr


@pytest.mark.parametrize("shell", SHELLS, ids=lambda s: s[0])
def test_deep_buffer_raises_tcp_mem_and_socket_buffers(tmp_path, shell):
    out, err = sizes(fake_proc(tmp_path), 62500000, shell)  # Fig. 6's 100 BDP
    path = 62500000 + 625000  # the buffer and the 50 ms path's BDP
    assert out["path"] == path
    assert out["sockbuf"] == 6 * path  # a lone flow may fill it: its window is rmem / 2
    want = 6 * path // 4096 + 1
    # pressure at half the guest's RAM (less than twice want, more than 4/3 of it)
    pressure = 1017544 // 8
    assert want * 4 // 3 < pressure < 2 * want
    assert out["now"] == [str(want), str(pressure), str(pressure * 3 // 2)]
    assert out["after"] == GUEST_TCP_MEM  # the machine's own limit back at teardown
    assert "warning" not in err  # 2 x 361 MB fit in the guest's 1 GB


def test_twenty_bdp_of_50_ms_enters_pressure_at_twice_the_path_sizing(tmp_path):
    # 10 vs 50 ms at 20 BDP: four of five runs of bbr_a_fair against cubic entered TCP memory
    # pressure with the middle mark at 4/3 of want (about 100 MB); it is now 2 x want
    out, _ = sizes(fake_proc(tmp_path), 12500000)
    want = 6 * (12500000 + 625000) // 4096 + 1
    assert out["now"] == [str(want), str(2 * want), str(3 * want)]


def test_shallow_buffer_changes_nothing(tmp_path):
    out, _ = sizes(fake_proc(tmp_path), 3125000)  # 5 BDP, the default scenario
    assert out["sockbuf"] == 64 << 20
    assert out["now"] == out["after"] == GUEST_TCP_MEM


def test_a_larger_limit_is_kept_and_small_memory_is_warned(tmp_path):
    big = ["500000", "600000", "700000"]
    out, _ = sizes(fake_proc(tmp_path / "a", tcp_mem=big), 62500000)
    assert out["now"] == big
    _, err = sizes(fake_proc(tmp_path / "b", memtotal_kb=256 * 1024), 62500000)
    assert "warning: TCP may need up to" in err and "--mem" in err


def test_an_explicit_sockbuf_is_kept(tmp_path):
    out, _ = sizes(fake_proc(tmp_path), 62500000, extra="TB_SOCKBUF=1000000;")
    assert out["sockbuf"] == 1000000
