"""Option handling of the testbed scripts: bad flags/values exit 2 with a message before
anything is set up; the options of a run are checked in one place (testbed/lib/options.sh,
which rtt_fairness.sh reaches through scenario.sh --check); the guest-side scripts parse
under busybox ash and dash."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RF = REPO / "testbed" / "rtt_fairness.sh"
SCEN = REPO / "testbed" / "scenario.sh"
TOPO = REPO / "testbed" / "topology.sh"
# the pieces scenario.sh sources (lib/backend.sh is rtt_fairness.sh's, bash)
LIBS = [REPO / "testbed" / "lib" / f"{n}.sh"
        for n in ("options", "flows", "module", "record", "traffic", "paths", "hosts", "usage",
                  "bottleneck")]


def netns_list(every=False):
    """The host's namespaces; unless every, less those that
    test_topology_teardown_is_idempotent_and_scoped makes (bbratest<pid>...), which a
    parallel worker may hold at any moment."""
    if shutil.which("ip") is None:
        return None
    p = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
    return sorted(n for n in p.stdout.split("\n") if every or not n.startswith("bbratest"))


def run(*cmd):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=60)


BAD_RF = [
    (["--bogus"], "unknown option '--bogus'"),
    (["--cc"], "--cc needs a value"),
    (["--cc", "Bad-CC"], "--cc: 'Bad-CC'"),
    (["--cc", ""], "--cc is empty"),
    (["--cc", "bbr,,cubic"], "--cc: empty item"),
    (["--cc", "bbr,Bad"], "--cc: 'Bad'"),  # the second cc is named as --cc's too
    (["--rtt", "10,,50"], "--rtt: empty item"),
    (["--rtt", "10,abc"], "--rtt: 'abc'"),
    (["--rtt", "0"], "--rtt: '0'"),
    (["--rtt", "-5"], "--rtt: '-5'"),
    (["--rate", "0"], "--rate: '0'"),
    (["--rate", "fast"], "--rate: 'fast'"),
    (["--buffer-bdp", "0"], "--buffer-bdp: '0'"),
    (["--loss", "100"], "--loss: '100'"),
    (["--loss", "-1"], "--loss: '-1'"),
    (["--duration", "2.5"], "--duration: '2.5'"),
    (["--duration", "10", "--warmup", "10"], "--warmup: '10'"),
    (["--duration", "10", "--warmup", "5", "--cooldown", "5"], "--cooldown: '5'"),
    (["--cooldown", "x"], "--cooldown: 'x'"),
    (["--flows-per-rtt", "0"], "--flows-per-rtt: '0'"),
    (["--starts", "0,1,2"], "--starts: give one offset per flow (2)"),
    (["--starts", "0,x"], "--starts: 'x'"),
    (["--stagger", "x"], "--stagger: 'x'"),
    (["--flows-per-rtt", "10", "--stagger", "5", "--duration", "30"], "would start after the end"),
    (["--repeat", "0"], "--repeat: '0'"),
    (["--streams", "0"], "--streams: '0'"),
    (["--streams", "200"], "--streams: '200'"),
    (["--seed", "s"], "--seed: 's'"),
    (["--backend", "docker"], "--backend: 'docker'"),
    (["--kernel", "6.1.0"], "--kernel: '6.1.0' is not a Debian kernel series"),
    (["--module-param", "adaptive"], "--module-param: 'adaptive'"),
    (["--module-param", "a=1;reboot"], "--module-param: 'a=1;reboot'"),
    (["--interval", "0.01"], "--interval: '0.01'"),
    (["--timeout", "-3"], "--timeout: '-3'"),
    (["--trace", "yes"], "--trace: 'yes' is not on or off"),
]


@pytest.mark.parametrize("args,msg", BAD_RF, ids=[" ".join(a) or "empty" for a, _ in BAD_RF])
def test_rtt_fairness_rejects_bad_values(tmp_path, args, msg):
    before = netns_list()
    out = tmp_path / "out"
    p = run(RF, "--out", out, *args)
    assert p.returncode == 2, p.stderr
    assert msg in p.stderr
    assert "error" in p.stderr
    assert not out.exists()  # nothing created
    assert netns_list() == before  # no namespace made


def test_rtt_fairness_rejects_non_empty_out(tmp_path):
    (tmp_path / "x").write_text("keep")
    p = run(RF, "--out", tmp_path)
    assert p.returncode == 2 and "not empty" in p.stderr
    assert os.listdir(tmp_path) == ["x"]


def test_rtt_fairness_rejects_a_symlink_to_a_non_empty_out(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "x").write_text("keep")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    p = run(RF, "--out", tmp_path / "link", "--dry-run")
    assert p.returncode == 2 and "not empty" in p.stderr, p.stderr


def test_rtt_fairness_takes_an_out_that_holds_only_the_results_mark(tmp_path):
    # a run that failed before its first job leaves only results_dir's mark behind; the same
    # --out must be usable again (--dry-run passes the check and stops before any setup)
    (tmp_path / ".bbr_a-results").write_text("")
    p = run(RF, "--out", tmp_path, "--dry-run")
    assert p.returncode == 0, p.stderr


def test_rtt_fairness_help_documents_every_option():
    p = run(RF, "--help")
    assert p.returncode == 0
    for opt in ("--cc", "--rtt", "--rate", "--buffer-bdp", "--loss", "--duration", "--warmup",
                "--flows-per-rtt", "--stagger", "--repeat", "--seed", "--out", "--backend",
                "--kernel", "--module-param", "--dry-run"):
        assert opt in p.stdout, opt
    # every option the parser accepts is documented
    src = RF.read_text()
    accepted = set(__import__("re").findall(r"(--[a-z-]+)\)", src)) | set(
        __import__("re").findall(r"(--[a-z-]+) \|", src))
    for opt in accepted:
        assert opt in p.stdout, opt


def test_rtt_fairness_dry_run_prints_buffer_and_plan(tmp_path, fake_ko):
    out = tmp_path / "o"
    # --module-param is checked against the module the backend would load: a stand-in here
    ko = fake_ko([("adaptive", "bbr_a: adaptive gains [0..1, default 1]")])
    p = subprocess.run([str(RF), "--dry-run", "--backend", "host", "--out", str(out),
                        "--module-param", "adaptive=0", "--repeat", "2"], capture_output=True,
                       text=True, timeout=60, env={**os.environ, "BBR_A_KO": str(ko)})
    assert p.returncode == 0, p.stderr
    # 5 x 100 Mbit/s x 50 ms = 5 x 625000 B = 3125000 B = 2064.1 packets of 1514 B
    assert "625000 B" in p.stderr and "3125000 B" in p.stderr and "2064.1 packets" in p.stderr
    plan = [ln for ln in p.stdout.splitlines() if "scenario.sh" in ln]
    assert len(plan) == 6  # bbr_a_fair, bbr_a, bbr x 2 repeats
    assert all("--buffer 3125000" in ln and "--module-param adaptive=0" in ln for ln in plan)
    assert "--seed 2" in plan[1]
    assert not out.exists()


def test_rtt_fairness_tiny_buffer_is_one_packet():
    p = run(RF, "--dry-run", "--rate", "1", "--rtt", "10", "--buffer-bdp", "0.1")
    assert p.returncode == 0
    assert "--buffer 1514" in p.stdout and "less than one packet" in p.stderr


@pytest.mark.parametrize("args,msg", [
    (["--rtt", "10", "--rate", "10", "--buffer", "1e5", "--duration", "5", "--out", "/nonexistent/x"],
     "--buffer: '1e5'"),
    (["--rtt", "10,x", "--rate", "10", "--buffer", "1000", "--duration", "5", "--out", "/nonexistent/x"],
     "--rtt: 'x'"),
    (["--rate", "10"], "--rtt is required"),
    (["--rtt", "10", "--cc", "bbr,cubic,reno", "--rate", "1", "--buffer", "1", "--duration", "1",
      "--out", "/nonexistent/x"], "one per RTT class"),
    (["--wat", "1"], "unknown option --wat"),
    (["--rtt", "10", "--streams", "0", "--rate", "1", "--buffer", "1", "--duration", "1",
      "--out", "/nonexistent/x"], "--streams: '0' is not an integer in 1..128"),
    (["--rtt", "10", "--streams", "129", "--rate", "1", "--buffer", "1", "--duration", "1",
      "--out", "/nonexistent/x"], "--streams: '129' is not an integer in 1..128"),
    (["--rtt", "10", "--load", "bbr,Bad", "--rate", "1", "--buffer", "1", "--duration", "1",
      "--out", "/nonexistent/x"], "--load: 'Bad' is not a congestion control name"),
    # the replay schedule of --rate-trace (testbed/rate_trace.py's): missing, empty, bad lines
    (["--rtt", "10", "--rate", "1", "--buffer", "1", "--duration", "9", "--out", "/nonexistent/x",
      "--rate-trace", "/nonexistent/t"], "--rate-trace: cannot read '/nonexistent/t'"),
    (["--rtt", "10", "--rate", "1", "--buffer", "1", "--duration", "9", "--out", "/nonexistent/x",
      "--rate-trace", "/dev/null"], "--rate-trace: cannot read '/dev/null'"),
])
def test_scenario_rejects_bad_values(args, msg):
    p = run("sh", SCEN, *args)
    assert p.returncode == 2, p.stderr
    assert msg in p.stderr
    assert not Path("/nonexistent/x").exists()


# Options both scripts take, with a bad value: one implementation, so the same words.
SHARED_BAD = [
    ("--rtt", "0"), ("--rtt", "10,abc"), ("--rate", "fast"), ("--loss", "100"),
    ("--duration", "2.5"), ("--warmup", "30"), ("--flows-per-rtt", "1001"), ("--streams", "0"),
    ("--stagger", "x"), ("--jitter", "-1"), ("--seed", "s"), ("--interval", "0.01"),
    ("--sample-ms", "1.5"), ("--module-param", "a=1;reboot"), ("--starts", "0,x"),
    ("--stagger", "30"), ("--jitter", "29.5"), ("--cc", "Bad-CC"),
    # route changes: a class out of range, T outside the run, a negative or zero delay, times
    # out of order, a malformed item
    ("--delay-schedule", "3:10:20"), ("--delay-schedule", "0:10:20"),
    ("--delay-schedule", "1:30:20"), ("--delay-schedule", "1:0:20"),
    ("--delay-schedule", "1:10:-5"), ("--delay-schedule", "1:10:0"),
    ("--delay-schedule", "1:20:30,2:10:60"), ("--delay-schedule", "1:10"),
    ("--delay-schedule", "1:10:20,,2:20:60"), ("--delay-schedule", "1:10:20:5"),
    # RTT variation: no jitter, more than the smallest RTT, an unknown distribution, a
    # malformed value
    ("--delay-jitter", "0"), ("--delay-jitter", "10.5"), ("--delay-jitter", "5:gauss"),
    ("--delay-jitter", "5:normal:reorder:x"), ("--delay-jitter", "5::reorder"),
    ("--delay-jitter", ":5"), ("--delay-jitter", "5:normalreorder"),
    # ACK aggregation: no spacing, MIN above MAX, a bad packet count, malformed
    ("--ack-aggregation", "0"), ("--ack-aggregation", "8:2"), ("--ack-aggregation", "2:8:0"),
    ("--ack-aggregation", "2:8:1.5"), ("--ack-aggregation", "2::5"),
    ("--ack-aggregation", "2:8:16:1"), ("--ack-aggregation", "1001"),
    ("--offloads", "ON"), ("--offloads", "1"), ("--offloads", ""),
    # reverse flows: none, too many, a bad cc, malformed
    ("--reverse", "0"), ("--reverse", "101"), ("--reverse", "2:Bad"), ("--reverse", "1:2:3"),
    ("--reverse", "2:"), ("--reverse", ":cubic"), ("--reverse", "x"),
    # sender hosts per class: none, not a whole number, more than a class's flows (1 here),
    # more than the address plan holds
    ("--hosts-per-class", "0"), ("--hosts-per-class", "x"), ("--hosts-per-class", "1.5"),
    ("--hosts-per-class", "2"), ("--hosts-per-class", "65"), ("--hosts-per-class", ""),
]


@pytest.mark.parametrize("opt,val", SHARED_BAD, ids=[f"{o} {v}" for o, v in SHARED_BAD])
def test_scenario_and_rtt_fairness_say_the_same(tmp_path, opt, val):
    # --dry-run: should a value pass after all, nothing is run
    p = run(RF, "--dry-run", "--out", tmp_path / "o", "--duration", "30", opt, val)
    assert p.returncode == 2, p.stderr
    said = p.stderr.split("error: ", 1)[1].split("\n")[0]
    assert said.startswith(opt) or said.startswith("--stagger/--starts/--jitter"), said
    q = run("sh", SCEN, "--check", "--rtt", "10,50", "--rate", "100", "--buffer", "1",
            "--duration", "30", opt, val)
    assert q.returncode == 2, q.stderr
    assert q.stderr == f"scenario: error: {said}\n"


@pytest.mark.parametrize("args", [
    [],
    ["--starts", "0,0.5", "--jitter", "28.9"],  # ends at 29.4 s < 30 - 0.5
    ["--flows-per-rtt", "3", "--stagger", "5.799999"],
    ["--cc", "bbr_a,cubic", "--load", "bbr,bbr_a_fair", "--module-param", "adaptive=0"],
    ["--delay-schedule", "1:10:25,2:10:60,1:20.5:10"],  # up and down, two at one time
    ["--delay-jitter", "10"], ["--delay-jitter", "2.5:paretonormal"],
    ["--delay-jitter", "3:reorder"], ["--delay-jitter", "3:normal:reorder"],
    ["--ack-aggregation", "2"], ["--ack-aggregation", "0:8"], ["--ack-aggregation", "1.5:4:16"],
    ["--offloads", "on"], ["--offloads", "off"],
    ["--reverse", "1"], ["--reverse", "100:bbr"], ["--hosts-per-class", "1"],
])
def test_scenario_check_accepts_and_prints_nothing_else(args):
    p = run("sh", SCEN, "--check", "--rtt", "10,50", "--rate", "100", "--buffer", "1",
            "--duration", "30", "--warmup", "30", *args)
    assert (p.returncode, p.stdout, p.stderr) == (2, "", "scenario: error: --warmup: '30' must be "
                                                  "a number of seconds below --duration (30)\n")
    p = run("sh", SCEN, "--check", "--rtt", "10,50", "--rate", "100", "--buffer", "1",
            "--duration", "30", "--warmup", "29.5", *args)
    assert (p.returncode, p.stdout) == (0, ""), p.stderr


def test_late_starts_are_a_warning_in_both():
    p = run(RF, "--dry-run", "--flows-per-rtt", "3", "--stagger", "1.25", "--warmup", "5")
    assert p.returncode == 0, p.stderr
    assert "warning: flows start until 6.25 s, after the warm-up (5 s)" in p.stderr
    q = run("sh", SCEN, "--check", "--rtt", "10,50", "--flows-per-rtt", "3", "--stagger", "1.25",
            "--rate", "100", "--buffer", "1", "--duration", "30")
    assert q.returncode == 0
    assert q.stderr == "scenario: warning: flows start until 6.25 s, after the warm-up (5 s)\n"


@pytest.mark.parametrize("shell", ["busybox sh", "dash", "bash --posix"])
@pytest.mark.parametrize("script", [SCEN, TOPO, *LIBS], ids=lambda p: p.name)
def test_guest_scripts_parse_in_posix_shells(shell, script):
    exe = shell.split()[0]
    if shutil.which(exe) is None:
        pytest.skip(f"{exe} not installed")
    p = run(*shell.split(), "-n", script)
    assert p.returncode == 0, p.stderr


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("ip") is None, reason="needs root and ip")
def test_topology_teardown_is_idempotent_and_scoped():
    prefix = f"bbratest{os.getpid()}-"
    other = f"bbratest{os.getpid()}0-r"  # shares the digits but not the prefix
    for n in (prefix + "r", prefix + "d", other):
        subprocess.run(["ip", "netns", "add", n], check=True)
    try:
        script = f'. "{TOPO}"; TB_PREFIX={prefix}; tb_teardown; echo rc=$?; tb_teardown; echo rc=$?'
        p = run("busybox" if shutil.which("busybox") else "sh", *(["sh"] if shutil.which("busybox") else []),
                "-c", script)
        assert p.stdout.split() == ["rc=0", "rc=0"], p.stderr
        left = netns_list(every=True)
        assert prefix + "r" not in left and prefix + "d" not in left
        assert other in left
    finally:
        for n in (prefix + "r", prefix + "d", other):
            subprocess.run(["ip", "netns", "del", n], capture_output=True)


def test_plan_groups_flows_that_start_together(plan):
    flows, groups = plan("--rtt", "10,50", "--cc", "bbr_a,cubic", "--flows-per-rtt", "3",
                         "--duration", "10")
    # flows alternate between classes; one client per class, one connection per flow
    assert [f[:4] for f in flows] == [["1", "1", "10", "bbr_a"], ["2", "2", "50", "cubic"],
                                      ["3", "1", "10", "bbr_a"], ["4", "2", "50", "cubic"],
                                      ["5", "1", "10", "bbr_a"], ["6", "2", "50", "cubic"]]
    assert [(f[7], f[8]) for f in flows] == [("1", "0"), ("2", "0"), ("1", "1"), ("2", "1"),
                                             ("1", "2"), ("2", "2")]
    assert [f[4] for f in flows] == ["5201", "5202"] * 3  # the group's server port
    assert groups == [["1", "1", "bbr_a", "5201", "0.000", "10", "1,3,5"],
                      ["2", "2", "cubic", "5202", "0.000", "10", "2,4,6"]]


def test_plan_streams_limit_and_separate_starts(plan):
    _, groups = plan("--rtt", "10", "--flows-per-rtt", "5", "--duration", "10", "--streams", "2")
    assert [(g[0], g[3], g[6]) for g in groups] == [("1", "5201", "1,2"), ("3", "5203", "3,4"),
                                                     ("5", "5205", "5")]
    _, groups = plan("--rtt", "10", "--flows-per-rtt", "3", "--duration", "10", "--stagger", "2")
    assert [(g[4], g[5], g[6]) for g in groups] == [("0.000", "10", "1"), ("2.000", "8", "2"),
                                                     ("4.000", "6", "3")]
    _, groups = plan("--rtt", "10", "--flows-per-rtt", "4", "--duration", "10", "--streams", "1")
    assert [g[6] for g in groups] == ["1", "2", "3", "4"]
    _, groups = plan("--rtt", "10", "--flows-per-rtt", "200", "--duration", "10")
    assert [len(g[6].split(",")) for g in groups] == [128, 72]


@pytest.mark.parametrize("args,msg", [
    (["--flows-per-rtt", "3,1", "--hosts-per-class", "2"],
     "--hosts-per-class: 2 hosts for class 2 (50 ms), which has 1 flow(s)"),
    (["--flows-per-rtt", "100", "--hosts-per-class", "65"],
     "--hosts-per-class: 2 class(es) x 65 hosts do not fit the address plan"),
    (["--flows-per-rtt", "2", "--hosts-per-class", "2", "--flent", "tcp_nup"],
     "--hosts-per-class: not with --flent"),
    (["--flows-per-rtt", "2", "--hosts-per-class", "-1"],
     "--hosts-per-class: '-1' is not a whole number of hosts (>= 1)"),
])
def test_hosts_per_class_is_refused_in_one_line_naming_the_class(args, msg):
    p = run("sh", SCEN, "--check", "--rtt", "10,50", "--rate", "100", "--buffer", "1",
            "--duration", "30", *args)
    assert p.returncode == 2 and len(p.stderr.splitlines()) == 1, p.stderr
    assert p.stderr.startswith(f"scenario: error: {msg}"), p.stderr


def test_plan_spreads_a_class_over_its_hosts_round_robin(plan):
    """--hosts-per-class 2: each class's m-th flow on host (m - 1) mod 2 + 1, a client never
    spans two hosts, hosts.txt's addresses are each host's /30; with 1 the plan is the one
    without the option (no host table)."""
    flows, groups = plan("--rtt", "10,50", "--flows-per-rtt", "5,4", "--duration", "10")
    flows1, groups1 = plan("--rtt", "10,50", "--flows-per-rtt", "5,4", "--duration", "10",
                           "--hosts-per-class", "1")
    assert (flows1, groups1) == (flows, groups)
    p = run("sh", SCEN, "--plan", "--rate", "10", "--buffer", "1000", "--rtt", "10,50",
            "--flows-per-rtt", "5,4", "--duration", "10", "--hosts-per-class", "2")
    assert p.returncode == 0, p.stderr
    parts = p.stdout.split("# hosts: index class host namespace address\n")
    assert len(parts) == 2, p.stdout
    hosts = [ln.split() for ln in parts[1].splitlines()]
    # flow table order: classes 1 2 1 2 1 2 1 2 1
    assert [h[:4] for h in hosts] == [
        ["1", "1", "1", "s1"], ["2", "2", "1", "s2"], ["3", "1", "2", "s1h2"],
        ["4", "2", "2", "s2h2"], ["5", "1", "1", "s1"], ["6", "2", "1", "s2"],
        ["7", "1", "2", "s1h2"], ["8", "2", "2", "s2h2"], ["9", "1", "1", "s1"]]
    assert {h[3]: h[4] for h in hosts} == {"s1": "10.1.1.2", "s1h2": "10.1.1.6",
                                           "s2": "10.1.2.2", "s2h2": "10.1.2.6"}
    host_of = {h[0]: h[3] for h in hosts}
    groups = [ln.split() for ln in parts[0].split("# iperf3 clients")[1].splitlines()[1:]]
    assert [g[6] for g in groups] == ["1,5,9", "2,6", "3,7", "4,8"]
    for g in groups:
        assert len({host_of[f] for f in g[6].split(",")}) == 1, g
        assert g[0] == g[6].split(",")[0]  # a group's number is its first flow's


def fake_tools(tmp):
    """Stand-ins for ip, tc, ss and ethtool that log their words to tmp/log."""
    for t in ("ip", "tc", "ss", "ethtool"):
        f = tmp / t
        f.write_text(f'#!/bin/sh\necho "{t} $*" >> "{tmp}/log"\n')
        f.chmod(0o755)
    return (f"tb_find_tools() {{ TB_IP={tmp}/ip TB_TC={tmp}/tc TB_SS={tmp}/ss "
            f"TB_ETHTOOL={tmp}/ethtool; }}")


@pytest.mark.parametrize("hosts", ["", "1", "2"])
def test_topology_gives_each_host_its_veth_address_and_netem(tmp_path, hosts):
    """tb_setup with TB_HOSTS: one host per class (unset or 1) is the dumbbell it always was,
    a /24 per class; 2 hosts per class are a veth, a /30 and a netem each, their own
    sysctls, and a route change (tb_delay) changes every host's netem of the class."""
    script = (f'. "{TOPO}"; {fake_tools(tmp_path)}; TB_PREFIX=p- TB_RTTS="10 50" TB_RATE=10 '
              f'TB_BUF=10000 TB_HOSTS={hosts}; tb_setup && tb_delay 2 70')
    p = run("sh", "-c", script)
    assert p.returncode == 0, p.stderr
    log = (tmp_path / "log").read_text().splitlines()
    nss = [ln.split()[3] for ln in log if ln.startswith("ip netns add")]
    addrs = [ln.split()[5] for ln in log if " addr add 10.1." in ln]
    netem = [ln.split(" dev ")[1] for ln in log if "netem" in ln]
    sysctl = {ln.split()[3] for ln in log if "netns exec" in ln and "tcp_rmem" in ln}
    if hosts in ("", "1"):
        assert nss == ["p-r", "p-d", "p-s1", "p-s2"]
        assert addrs == ["10.1.1.1/24", "10.1.1.2/24", "10.1.2.1/24", "10.1.2.2/24"]
        assert netem == ["to_s1 root handle 1: netem delay 10ms limit 100000",
                         "to_s2 root handle 1: netem delay 50ms limit 100000",
                         "to_s2 root handle 1: netem delay 70ms limit 100000"]
        assert sysctl == {"p-d", "p-s1", "p-s2"}
        return
    assert nss == ["p-r", "p-d", "p-s1", "p-s1h2", "p-s2", "p-s2h2"]
    assert addrs == ["10.1.1.1/30", "10.1.1.2/30", "10.1.1.5/30", "10.1.1.6/30",
                     "10.1.2.1/30", "10.1.2.2/30", "10.1.2.5/30", "10.1.2.6/30"]
    assert [n.split(" root")[0] for n in netem] == ["to_s1", "to_s1h2", "to_s2", "to_s2h2",
                                                     "to_s2", "to_s2h2"]
    assert [n.split("delay ")[1].split()[0] for n in netem] == ["10ms"] * 2 + ["50ms"] * 2 + ["70ms"] * 2
    assert sysctl == {"p-d", "p-s1", "p-s1h2", "p-s2", "p-s2h2"}
    assert "ip -n p-s1h2 route add default via 10.1.1.5" in log


def test_rtt_fairness_passes_hosts_per_class_on_only_when_not_1(tmp_path):
    p = run(RF, "--dry-run", "--cc", "bbr", "--flows-per-rtt", "4", "--hosts-per-class", "2")
    assert p.returncode == 0, p.stderr
    assert "--hosts-per-class 2" in p.stdout
    p = run(RF, "--dry-run", "--cc", "bbr", "--flows-per-rtt", "4", "--hosts-per-class", "1")
    assert p.returncode == 0, p.stderr
    assert "--hosts-per-class" not in p.stdout


@pytest.mark.parametrize("extra,mem", [
    (["--stagger", "0.1"], "4224 MB"),          # 100 flows one by one: 1024 + 32 x 100
    (["--jitter", "10"], "4224 MB"),
    (["--stagger", "0.1", "--mem", "2048"], None),  # --mem says
    ([], None),                                 # two clients, one per class
])
def test_rtt_fairness_gives_a_guest_memory_for_many_flows_started_one_by_one(extra, mem):
    # a hundred flows with their own processes in the runners' default 1024 MB ran for
    # tens of minutes without an end (docs/notebook/coexistence.md)
    p = run(RF, "--dry-run", "--rtt", "10,60", "--flows-per-rtt", "50", "--duration", "90",
            "--warmup", "30", *extra)
    assert p.returncode == 0, p.stderr
    line = [ln for ln in p.stderr.splitlines() if "guest memory" in ln]
    if mem is None:
        assert not line, line
    else:
        assert line and mem in line[0], p.stderr


def path_netem(tmp, *calls, **env):
    """The tc command lines topology.sh's tb_path_netem / tb_delay write for calls (shell
    words), with TB_* variables env, tc replaced by a stand-in that prints its words."""
    tc = tmp / "tc"
    tc.write_text('#!/bin/sh\nprintf "%s\\n" "$*"\n')
    tc.chmod(0o755)
    sets = "".join(f"{k}='{v}' " for k, v in env.items())
    script = f'. "{TOPO}"; TB_TC={tc} TB_PREFIX=p- {sets}; ' + "; ".join(calls)
    p = run("sh", "-c", script)
    assert p.returncode == 0, p.stderr
    return p.stdout.splitlines()


def test_the_ack_path_netem_keeps_its_jitter_through_route_changes(tmp_path):
    """Without jitter the netem is what it always was; with it, every add and change (a
    --delay-schedule route change) carries the jitter, its distribution and, unless
    reordering is asked for, the rate that keeps netem's queue in order; so with ACK
    aggregation its slots."""
    plain = path_netem(tmp_path, "tb_path_netem add 1 10", "tb_delay 2 40")
    assert plain == ["-n p-r qdisc add dev to_s1 root handle 1: netem delay 10ms limit 100000",
                     "-n p-r qdisc change dev to_s2 root handle 1: netem delay 40ms limit 100000"]
    jit = path_netem(tmp_path, "tb_path_netem add 1 10", "tb_delay 1 40", TB_JITTER_MS="4",
                     TB_JITTER_DIST="normal", TB_JITTER_REORDER="0")
    assert [ln.split("netem ")[1] for ln in jit] == [
        "delay 10ms 4ms distribution normal rate 100gbit limit 100000",
        "delay 40ms 4ms distribution normal rate 100gbit limit 100000"]
    reo = path_netem(tmp_path, "tb_delay 1 40", TB_JITTER_MS="2.5", TB_JITTER_DIST="uniform",
                     TB_JITTER_REORDER="1")
    assert reo[0].split("netem ")[1] == "delay 40ms 2.5ms limit 100000"
    # ACK aggregation: netem's slots, with a route change too
    agg = path_netem(tmp_path, "tb_path_netem add 1 10", "tb_delay 1 40", TB_SLOT="2ms 8ms packets 16")
    assert [ln.split("netem ")[1] for ln in agg] == [
        "delay 10ms slot 2ms 8ms packets 16 limit 100000",
        "delay 40ms slot 2ms 8ms packets 16 limit 100000"]


def test_offloads_on_are_gso_and_gro_at_the_end_hosts_only(tmp_path):
    """tb_ifup: every interface as always without TB_OFFLOADS (or off); with on, the senders'
    and the receiver's get GSO and GRO, the router's none, and TSO stays off everywhere."""
    et = tmp_path / "ethtool"
    et.write_text('#!/bin/sh\nprintf "%s\\n" "$*" >> "$LOG"\n')
    et.chmod(0o755)
    ip = tmp_path / "ip"
    ip.write_text('#!/bin/sh\n[ "$2" = exec ] && { shift 3; exec "$@"; }\nexit 0\n')
    ip.chmod(0o755)
    calls = "; ".join(f"tb_ifup {n} {d}" for n, d in (("s1", "eth0"), ("r", "to_s1"), ("d", "eth0"),
                                                       ("r", "to_rcv")))
    seen = {}
    for mode in ("", "off", "on"):
        log = tmp_path / f"log{mode}"
        p = subprocess.run(["sh", "-c", f'. "{TOPO}"; TB_IP={ip} TB_ETHTOOL={et} '
                            f'TB_OFFLOADS={mode}; {calls}'], capture_output=True, text=True,
                           env={**os.environ, "LOG": str(log)}, timeout=60)
        assert p.returncode == 0, p.stderr
        seen[mode] = log.read_text().splitlines()
    off = "-K {} tso off gso off gro off"
    assert seen[""] == seen["off"] == [off.format(d) for d in ("eth0", "to_s1", "eth0", "to_rcv")]
    assert seen["on"] == ["-K eth0 tso off gso on gro on", off.format("to_s1"),
                          "-K eth0 tso off gso on gro on", off.format("to_rcv")]


# one of the real LTE traces of the project's shared folder, beside the checkout
VERIZON = REPO.parent / "shared" / "traces" / "Verizon-LTE-short.down"


@pytest.mark.parametrize("text,msg", [
    (None, "cannot read"),
    ("", "empty (no packet opportunity)"),
    ("0\n5\nx\n", "line 3: 'x' is not a time in whole ms"),
    ("0\n5\n3\n", "line 3: 3 ms is before the line above (5 ms)"),
    ("0\n0\n", "all opportunities at 0 ms"),
    ("0\n1.5\n", "line 2: '1.5' is not a time in whole ms"),
])
def test_a_bad_rate_trace_is_one_line_before_anything(tmp_path, text, msg):
    """rtt_fairness.sh --rate-trace: a missing, empty or malformed mahimahi trace is refused
    with one line naming it (--dry-run: nothing would run anyway; no --out is made)."""
    trace = tmp_path / "t.down"
    if text is not None:
        trace.write_text(text)
    p = run(RF, "--dry-run", "--out", tmp_path / "o", "--rate-trace", trace)
    assert p.returncode == 2, p.stderr
    assert f"error: --rate-trace: {trace}: {msg}" in p.stderr.splitlines()[0], p.stderr
    assert not (tmp_path / "o").exists()
    p = run(RF, "--dry-run", "--rate-trace", VERIZON if VERIZON.exists() else trace,
            "--rate-schedule", "10:5")
    assert p.returncode == 2 and "give it or --rate-schedule, not both" in p.stderr, p.stderr


@pytest.mark.parametrize("text,msg", [
    ("", "is empty"), ("0.1 5\n", "line 1: '0.1 5' is not 'T MBIT' with T from 0"),
    ("0 5\n0 6\n", "line 2: '0 6' is not 'T MBIT'"), ("0 5\n5 5\n", "line 2: '5 5'"),
    ("0 5 x\n", "line 1: '0 5 x'"), ("0 0\n", "line 1: '0' is not a rate in Mbit/s"),
])
def test_scenario_checks_the_rate_trace_schedule(tmp_path, text, msg):
    sched = tmp_path / "s.txt"
    sched.write_text(text)
    p = run("sh", SCEN, "--check", "--rtt", "10", "--rate", "5", "--buffer", "1", "--duration",
            "5", "--warmup", "0", "--rate-trace", sched)
    assert p.returncode == 2 and msg in p.stderr, p.stderr


def test_a_rate_trace_becomes_the_schedule_each_run_replays(tmp_path):
    """The trace's opportunities per 100 ms x one 1514-byte frame, from 0, repeated after its
    last timestamp (the period), only the changes; empty bins at the floor; scenario.sh gets
    the schedule in the run's directory and checks it."""
    trace = tmp_path / "t.down"
    # a period of 300 ms: 10 opportunities at 0, 4 in 200..240, one at 300, which the next
    # turn's 10 at 0 join (as mm-link: 11 at that ms)
    trace.write_text("".join(f"{t}\n" for t in [0] * 10 + [200, 210, 220, 240, 300]))
    p = run("/usr/bin/python3", REPO / "testbed" / "rate_trace.py", "schedule", trace, "1")
    assert p.returncode == 0, p.stderr
    f = 1514 * 8 / 100e3  # Mbit/s of one frame per 100 ms
    want = [(0.0, 10 * f), (0.1, 0.012), (0.2, 4 * f), (0.3, 11 * f), (0.4, 0.012),
            (0.5, 4 * f), (0.6, 11 * f), (0.7, 0.012), (0.8, 4 * f), (0.9, 11 * f)]
    got = [tuple(map(float, ln.split())) for ln in p.stdout.splitlines()]
    assert len(got) == len(want), got
    for (t, a), (u, b) in zip(got, want):
        assert t == u and abs(a - b) < 0.001, (got, want)
    q = run(RF, "--dry-run", "--rtt", "10", "--duration", "3", "--warmup", "1", "--rate", "5",
            "--cc", "bbr", "--out",
            tmp_path / "o", "--rate-trace", trace)
    assert q.returncode == 0, q.stderr
    assert f"--rate-trace {tmp_path / 'o'}/bbr/run1/rate_trace.txt" in q.stdout, q.stdout
    sched = tmp_path / "s.txt"
    sched.write_text(p.stdout)
    ok = run("sh", SCEN, "--check", "--rtt", "10", "--rate", "5", "--buffer", "1", "--duration",
             "1", "--warmup", "0", "--rate-trace", sched)
    assert (ok.returncode, ok.stderr) == (0, ""), ok.stderr
