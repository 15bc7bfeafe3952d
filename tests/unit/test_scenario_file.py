"""testbed/scenario_file.py: scenario files become rtt_fairness.sh's options; a bad file is one
line naming the file, section and key, before anything runs; the shipped files are good."""
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "testbed"))
import scenario_file as sf  # noqa: E402

SCENARIOS = sorted((REPO / "testbed" / "scenarios").glob("*.ini"))

GOOD = """
[scenario]
duration = 30
warmup = 0
cc = bbr,cubic

[bottleneck]
rate = 20
buffer_bdp = 1

[flows.large]
rtt = 45
size = 30M

[flows.short]
rtt = 45
start = 0.5
train = 100K, 1M, 2Mi
"""


def write(tmp_path, text, name="s.ini"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def opts(path, point=None, cc=None):
    return dict(sf.options(path, point, cc))


def test_a_file_becomes_options_in_the_flow_tables_order(tmp_path):
    o = opts(write(tmp_path, GOOD))
    assert o["--rtt"] == "45,45" and o["--flows-per-rtt"] == "1"
    assert o["--starts"] == "0,0.5"
    assert o["--sizes"] == "30000000,100000/1000000/2097152"
    assert o["--gap"] == "0.1" and o["--cc"] == "bbr,cubic"
    assert "--qdisc" not in o and "--ends" not in o  # defaults are not passed


def test_per_class_counts_starts_and_ends_follow_flows_sh(tmp_path):
    """Classes alternate in the flow table, a class leaving the rotation when its flows are
    placed (lib/flows.sh): 1,3 flows are classes 1 2 2 2."""
    p = write(tmp_path, """
[bottleneck]
rate = 10
[flows.a]
rtt = 10
[flows.b]
rtt = 50
count = 3
start = 1, 2, 3
end = 0, 20, 0
""")
    o = opts(p)
    assert o["--flows-per-rtt"] == "1,3"
    assert o["--starts"] == "0,1,2,3" and o["--ends"] == "0,0,20,0"
    assert sf.table_order([1, 3]) == [(0, 0), (1, 0), (1, 1), (1, 2)]


def test_a_class_with_its_own_cc_makes_the_items_name_the_others(tmp_path):
    p = write(tmp_path, GOOD.replace("size = 30M", "size = 30M\ncc = cubic"))
    assert opts(p)["--cc"] == "cubic+bbr,cubic+cubic"
    assert opts(p, cc="bbr_a")["--cc"] == "cubic+bbr_a"


def test_points_override_keys(tmp_path):
    p = write(tmp_path, GOOD + "\n[point.deep]\nbottleneck.buffer_bdp = 8\nflows.large.rtt = 90\n"
              "[point.plain]\n")
    assert sf.points(p) == ["deep", "plain"]
    o = opts(p, "deep")
    assert o["--buffer-bdp"] == "8" and o["--rtt"] == "90,45"
    assert opts(p, "plain")["--buffer-bdp"] == "1"


@pytest.mark.parametrize("edit,point,msg", [
    (lambda t: t.replace("rate = 20", "rate = fast"), None,
     "[bottleneck] rate: 'fast' is not a number"),
    (lambda t: t.replace("rate = 20", "rate = 0"), None, "[bottleneck] rate: '0' is out of range"),
    (lambda t: t.replace("rate = 20\n", ""), None, "[bottleneck] rate: missing"),
    (lambda t: t.replace("size = 30M", "size = 30Q"), None, "[flows.large] size: '30Q' is not a size"),
    (lambda t: t.replace("train = 100K, 1M, 2Mi", "train = 100K, , 2M"), None,
     "[flows.short] train: '' is not a size"),
    (lambda t: t.replace("start = 0.5", "start = 29.8"), None,
     "[flows.short] start: 29.8 s: a flow must start before the last half second"),
    (lambda t: t.replace("buffer_bdp = 1", "buffer_bdp = 1\nqdisc = sfq"), None,
     "[bottleneck] qdisc: 'sfq' is not bfifo"),
    (lambda t: t.replace("buffer_bdp = 1", "buffer_bdp = 1\nrate_schedule = 10:20, 5:10"), None,
     "[bottleneck] rate_schedule: '5:10': times must increase"),
    (lambda t: t.replace("buffer_bdp = 1", "buffer_bdp = 1\nrate_schedule = 10"), None,
     "[bottleneck] rate_schedule: '10' is not T:MBIT"),
    (lambda t: t.replace("rtt = 45\nsize", "rtt = 45\ndelay_schedule = 10:60, 5:45\nsize"), None,
     "[flows.large] delay_schedule: '5:45': times must increase"),
    (lambda t: t.replace("rtt = 45\nsize", "rtt = 45\ndelay_schedule = 10\nsize"), None,
     "[flows.large] delay_schedule: '10' is not T:MS"),
    (lambda t: t.replace("rtt = 45\nsize", "rtt = 45\ndelay_schedule = 10:-5\nsize"), None,
     "[flows.large] delay_schedule: '-5' is not a number"),
    (lambda t: t.replace("rtt = 45\nsize", "rtt = 45\ndelay_schedule = 30:60\nsize"), None,
     "[flows.large] delay_schedule: '30:60': times must increase and lie within the run"),
    (lambda t: t + "[paths]\ndelay_jitter = 5:gauss\n", None,
     "[paths] delay_jitter: '5:gauss' is not MS[:DIST][:reorder]"),
    (lambda t: t + "[paths]\ndelay_jitter = 50\n", None,
     "[paths] delay_jitter: '50' is out of range (> 0 and <= 45)"),
    (lambda t: t + "[paths]\ndelay_jitter = 5:normal:reorder:x\n", None,
     "[paths] delay_jitter: '5:normal:reorder:x' is not MS[:DIST][:reorder]"),
    (lambda t: t + "[paths]\njitter = 5\n", None, "[paths] jitter: unknown key"),
    (lambda t: t + "[paths]\nack_aggregation = 8:2\n", None,
     "[paths] ack_aggregation: '8' is out of range (>= 0 and <= 2)"),
    (lambda t: t + "[paths]\nack_aggregation = 2:8:0\n", None,
     "[paths] ack_aggregation: '0' is out of range (>= 1 and <= 100000)"),
    (lambda t: t + "[paths]\noffloads = yes\n", None, "[paths] offloads: 'yes' is not on or off"),
    (lambda t: t + "[paths]\nreverse = 0\n", None, "[paths] reverse: '0' is out of range"),
    (lambda t: t + "[paths]\nreverse = 2:Cubic\n", None, "[paths] reverse: '2:Cubic' is not N[:CC]"),
    (lambda t: t.replace("buffer_bdp = 1", "buffer_bdp = 1\nrate_trace = no.down"), None,
     "[bottleneck] rate_trace: "),
    (lambda t: t.replace("buffer_bdp = 1", "buffer_bdp = 1\nrate_trace = t.down\n"
                         "rate_schedule = 10:5"), None,
     "[bottleneck] rate_trace: give rate_trace or rate_schedule, not both"),
    (lambda t: t + "[paths]\nack_aggregation = 2:8:4:1\n", None,
     "[paths] ack_aggregation: '2:8:4:1' is not MIN_MS[:MAX_MS[:PACKETS]]"),
    (lambda t: t.replace("buffer_bdp = 1", "buffer_bdp = 1\nloss = 100"), None,
     "[bottleneck] loss: '100' is not a percentage below 100"),
    (lambda t: t.replace("buffer_bdp = 1", "buffer_bdp = 1\nbuffer = 3"), None,
     "[bottleneck] buffer: unknown key"),
    (lambda t: t.replace("[flows.short]", "[flow.short]"), None, "[flow.short]: unknown section"),
    (lambda t: t.replace("[flows.short]", "[flows]"), None, "[flows]: a flows section needs a name"),
    (lambda t: t.replace("cc = bbr,cubic", "cc = bbr,cubic+bbr+x"), None,
     "[scenario] cc: 'cubic+bbr+x' names 3 ccs"),
    (lambda t: t.replace("cc = bbr,cubic", "cc = BBR"), None,
     "[scenario] cc: 'BBR' is not a congestion control name"),
    (lambda t: t.replace("size = 30M", "size = 1\ntrain = 5"), None,
     "[flows.large] train: give size or train, not both"),
    (lambda t: t.replace("duration = 30", "duration = 30\nclient = iperf3"), None,
     "[flows.short] train: a train needs client tcpflow"),
    (lambda t: t.replace("rtt = 45\nsize", "rtt = 45\ncount = 2\nstart = 1,2,3\nsize"), None,
     "[flows.large] start: give one value or one per flow (2), not 3"),
    (lambda t: t + "[point.x]\nbottleneck.rat = 5\n", "x", "[point.x] bottleneck.rat: "
     "[bottleneck] has no key 'rat'"),
    (lambda t: t + "[point.x]\nrate = 5\n", "x", "[point.x] rate: not SECTION.KEY"),
    (lambda t: t + "[point.x]\nbottleneck.rate = -1\n", "x",
     "[bottleneck] rate (point x): '-1' is not a number"),
    (lambda t: t + "[point.x]\n", None, "has points (x): name one"),
    (lambda t: t, "y", "no point 'y' (it has none)"),
    (lambda t: "rate = 5\n" + t, None, "not an INI file"),
])
def test_a_bad_file_is_one_line_naming_the_field(tmp_path, edit, point, msg):
    p = write(tmp_path, edit(GOOD))
    with pytest.raises(sf.ScenarioError) as e:
        sf.options(p, point)
    text = str(e.value)
    assert "\n" not in text and text.startswith(p + ":"), text
    assert msg in text, text


def test_each_class_delay_schedule_becomes_one_list_in_time_order(tmp_path):
    """flows.NAME's delay_schedule (T:MS, this class's base RTT from T on) becomes
    --delay-schedule CLASS:T:MS items in time order, each class's own order kept."""
    p = write(tmp_path, GOOD.replace("rtt = 45\nsize", "rtt = 45\ndelay_schedule = 10:60, 20:45\nsize")
              .replace("rtt = 45\nstart", "rtt = 45\ndelay_schedule = 15:145\nstart"))
    assert opts(p)["--delay-schedule"] == "1:10:60,2:15:145,1:20:45"
    assert "--delay-schedule" not in opts(write(tmp_path, GOOD, "plain.ini"))


def test_the_paths_section_becomes_the_path_options(tmp_path):
    """[paths] delay_jitter, ack_aggregation, offloads and reverse are their options as written
    (offloads only when on); without the section nothing."""
    o = opts(write(tmp_path, GOOD + "[paths]\ndelay_jitter = 4:pareto:reorder\n"))
    assert o["--delay-jitter"] == "4:pareto:reorder"
    assert opts(write(tmp_path, GOOD + "[paths]\ndelay_jitter = 4\n"))["--delay-jitter"] == "4"
    assert "--delay-jitter" not in opts(write(tmp_path, GOOD, "plain.ini"))
    o = opts(write(tmp_path, GOOD + "[paths]\nack_aggregation = 2:8:16\n"))
    assert o["--ack-aggregation"] == "2:8:16" and "--delay-jitter" not in o
    assert opts(write(tmp_path, GOOD + "[paths]\noffloads = on\n"))["--offloads"] == "on"
    assert "--offloads" not in opts(write(tmp_path, GOOD + "[paths]\noffloads = off\n"))
    assert opts(write(tmp_path, GOOD + "[paths]\nreverse = 2:bbr\n"))["--reverse"] == "2:bbr"


def test_hosts_per_class_becomes_its_option_within_every_class_count(tmp_path):
    """[paths] hosts_per_class N: --hosts-per-class N (nothing for 1); more hosts than a
    class's flows, or than the address plan holds, is one line naming the class or key."""
    two = GOOD.replace("rtt = 45\nsize = 30M", "rtt = 45\ncount = 3\nsize = 30M").replace(
        "start = 0.5\n", "count = 2\nstart = 0.5\n")
    assert opts(write(tmp_path, two + "[paths]\nhosts_per_class = 2\n"))["--hosts-per-class"] == "2"
    assert "--hosts-per-class" not in opts(write(tmp_path, two + "[paths]\nhosts_per_class = 1\n"))
    for val, msg in (("3", "[paths] hosts_per_class: 3 hosts for [flows.short], which has 2 flow(s)"),
                     ("0", "[paths] hosts_per_class: '0' is out of range (>= 1 and <= 64)"),
                     ("65", "[paths] hosts_per_class: '65' is out of range (>= 1 and <= 64)"),
                     ("1.5", "[paths] hosts_per_class: '1.5' is not a whole number")):
        with pytest.raises(sf.ScenarioError) as e:
            opts(write(tmp_path, two + f"[paths]\nhosts_per_class = {val}\n"))
        assert msg in str(e.value), (val, str(e.value))


def test_a_rate_trace_is_found_beside_the_file_and_checked(tmp_path):
    """[bottleneck] rate_trace is a mahimahi trace relative to the file's directory, checked
    here (one line naming the key), passed on as an absolute path."""
    (tmp_path / "t.down").write_text("0\n5\n10\n")
    p = write(tmp_path, GOOD.replace("buffer_bdp = 1", "buffer_bdp = 1\nrate_trace = t.down"))
    assert opts(p)["--rate-trace"] == str(tmp_path / "t.down")
    (tmp_path / "t.down").write_text("0\n5\nx\n")
    with pytest.raises(sf.ScenarioError) as e:
        opts(p)
    assert "[bottleneck] rate_trace: " in str(e.value) and "line 3: 'x'" in str(e.value)


def test_the_command_line_says_it_in_one_line_and_exits_2(tmp_path):
    p = write(tmp_path, GOOD.replace("rate = 20", "rate = x"))
    r = subprocess.run([sys.executable, str(REPO / "testbed/scenario_file.py"), "options", p],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "[bottleneck] rate: 'x' is not a number" in r.stderr


def test_rtt_fairness_refuses_a_bad_file_before_anything_is_set_up(tmp_path):
    p = write(tmp_path, GOOD.replace("rate = 20", "rate = x"))
    r = subprocess.run([str(REPO / "testbed/rtt_fairness.sh"), "--scenario", p, "--dry-run",
                        "--out", str(tmp_path / "out")], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    assert "[bottleneck] rate: 'x' is not a number" in r.stderr.splitlines()[0]
    assert not (tmp_path / "out").exists()


def test_rtt_fairness_runs_a_file_under_its_own_options(tmp_path):
    """The file's options, the command line's above them; what scenario.sh gets."""
    p = write(tmp_path, GOOD.replace("buffer_bdp = 1", "buffer_bdp = 1\nqdisc = codel\n"
                                     "qdisc_opts = target 10ms\nrate_schedule = 10:5"))
    r = subprocess.run([str(REPO / "testbed/rtt_fairness.sh"), "--scenario", p, "--cc", "bbr",
                        "--duration", "20", "--dry-run", "--backend", "uml", "--out",
                        str(tmp_path / "out")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    runs = [ln for ln in r.stdout.splitlines() if "scenario.sh" in ln]
    assert len(runs) == 1, r.stdout
    for part in ("--cc bbr ", "--rtt 45,45 ", "--rate 20 ", "--buffer 112500 ", "--duration 20 ",
                 "--warmup 0 ", "--starts 0,0.5 ", "--qdisc codel ", "--qdisc-opts target,10ms ",
                 "--rate-schedule 10:5 ", "--sizes 30000000,100000/1000000/2097152 --gap 0.1"):
        assert part in runs[0] + " ", (part, runs[0])


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_shipped_scenarios_are_good(path):
    for p in sf.points(str(path)) or [None]:
        o = opts(str(path), p)
        assert o["--rtt"] and o["--rate"]


def test_scenario_sh_accepts_what_a_shipped_file_gives(tmp_path):
    """Every point of every shipped file passes scenario.sh --check (the buffer in bytes
    stands in for what rtt_fairness.sh derives)."""
    for path in SCENARIOS:
        for p in sf.points(str(path)) or [None]:
            args = []
            for k, v in sf.options(str(path), p):
                if k == "--buffer-bdp":
                    k, v = "--buffer", "100000"
                if k == "--qdisc-opts":
                    v = ",".join(v.split())
                if k == "--cc":
                    v = v.split(",")[0].replace("+", ",")
                if k == "--rate-trace":  # rtt_fairness.sh hands scenario.sh the schedule
                    sched = tmp_path / "schedule.txt"
                    sched.write_text(subprocess.run(
                        ["/usr/bin/python3", str(REPO / "testbed/rate_trace.py"), "schedule",
                         v, "10"], capture_output=True, text=True, check=True).stdout)
                    v = str(sched)
                args += [k, v]
            if "--buffer" not in args:
                args += ["--buffer", "100000"]
            r = subprocess.run(["sh", str(REPO / "testbed/scenario.sh"), "--check", *args,
                                "--out", str(tmp_path)], capture_output=True, text=True)
            assert r.returncode == 0, (path.name, p, r.stderr)
