"""testbed/sampler.c against ss and tc: on a connection that is idle (so nothing changes
between the two reads) the sampler's files must give testbed/analyze.py the same numbers as
iproute2's ss -tinH and tc -s -j. Needs root and network namespaces (not netem)."""
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "testbed"))
import analysis as analyze  # noqa: E402

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("ip") is None or shutil.which("gcc") is None,
    reason="needs root, iproute2 and gcc")


def sh(*cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


@pytest.fixture
def pair(tmp_path):
    a, b = f"smpa{os.getpid()}", f"smpb{os.getpid()}"
    try:
        sh("ip", "netns", "add", a)
        sh("ip", "netns", "add", b)
    except subprocess.CalledProcessError as e:
        pytest.skip(f"no network namespaces here: {e.stderr}")
    try:
        sh("ip", "link", "add", "va", "netns", a, "type", "veth", "peer", "name", "vb",
           "netns", b)
        sh("ip", "-n", a, "addr", "add", "10.77.0.1/24", "dev", "va")
        sh("ip", "-n", b, "addr", "add", "10.77.0.2/24", "dev", "vb")
        for ns, dev in ((a, "va"), (b, "vb")):
            sh("ip", "-n", ns, "link", "set", dev, "up")
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        sh("tc", "-n", a, "qdisc", "add", "dev", "va", "root", "handle", "1:", "htb",
           "default", "1")
        sh("tc", "-n", a, "class", "add", "dev", "va", "parent", "1:", "classid", "1:1", "htb",
           "rate", "20mbit", "ceil", "20mbit", "quantum", "1514")
        sh("tc", "-n", a, "qdisc", "add", "dev", "va", "parent", "1:1", "handle", "10:",
           "bfifo", "limit", "100000")
        yield a, b
    finally:
        for ns in (a, b):
            subprocess.run(["ip", "netns", "pids", ns], capture_output=True)
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def test_sampler_matches_ss_and_tc(pair, tmp_path):
    a, b = pair
    exe = tmp_path / "sampler"
    sh("gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", str(exe),
       str(REPO / "testbed" / "sampler.c"))
    flow = str(REPO / "testbed" / "tcpflow.py")
    srv = subprocess.Popen(["ip", "netns", "exec", b, sys.executable, flow, "server",
                            "--port", "5300"])
    time.sleep(0.5)
    cli = subprocess.Popen(["ip", "netns", "exec", a, sys.executable, flow, "client",
                            "--host", "10.77.0.2", "--port", "5300", "--plan",
                            "send:1,idle:4", "--sample-ms", "0", "--out",
                            str(tmp_path / "flow.json")])
    try:
        time.sleep(2.5)  # sent for 1 s, then idle: every counter has settled
        sh(str(exe), "100", "0.05", "10.77.0.2", "tcp", f"/run/netns/{a}",
           str(tmp_path / "ss_new.txt"), "qdisc", f"/run/netns/{a}", "va",
           str(tmp_path / "tc_new.txt"))
        (tmp_path / "ss_old.txt").write_text(
            "@ 1.00\n" + sh("ip", "netns", "exec", a, "ss", "-tinH", "dst", "10.77.0.2"))
        (tmp_path / "tc_old.txt").write_text(
            "@ 1.00\n" + sh("tc", "-n", a, "-s", "-j", "qdisc", "show", "dev", "va"))
    finally:
        cli.wait(timeout=30)
        srv.wait(timeout=30)
    old = analyze.parse_ss_file(str(tmp_path / "ss_old.txt"))
    new = analyze.parse_ss_file(str(tmp_path / "ss_new.txt"))
    assert len(old) == len(new) == 1 and len(old[0][1]) == len(new[0][1]) == 1, (old, new)
    so, sn = old[0][1][0], new[0][1][0]
    assert (so["local_port"], so["peer_port"]) == (sn["local_port"], sn["peer_port"])
    mo, mn = analyze.parse_ss_info(so["info"]), analyze.parse_ss_info(sn["info"])
    assert mo["bytes_acked"] > 1_000_000 and "bbr_bw_mbps" in mo or mo.get("ca") != "bbr"
    assert mo == mn, f"ss: {so['info']}\nsampler: {sn['info']}"
    qo = analyze.parse_tc_file(str(tmp_path / "tc_old.txt"))
    qn = analyze.parse_tc_file(str(tmp_path / "tc_new.txt"))
    assert qo[0][1]["sent_pkts"] > 500 and [q for _, q in qo] == [q for _, q in qn]
