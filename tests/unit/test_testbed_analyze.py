"""testbed/analyze.py on outputs recorded from real guest runs (tests/unit/fixtures/).

run_bbr_a_loss1: scripts/guest.sh --kernel 6.12 --virtual-time -- sh testbed/scenario.sh
    --cc bbr_a --rtt 10,50 --rate 20 --buffer 62500 --loss 1 --duration 6 --warmup 2
    --sample-ms 200  (raw files only: server logs, console and dmesg left out)
run_bbr_5bdp_noss: the bbr run of testbed/rtt_fairness.sh --cc bbr_a,bbr --rate 20
    --duration 10 --warmup 3 (qemu, 6.12, 5 BDP), with the ss_s*.txt files left out to
    exercise the no-ss fallback.
run_bbr_parallel: testbed/rtt_fairness.sh --backend uml --cc bbr --rtt 10,30 --flows-per-rtt 2
    --rate 20 --duration 4 --warmup 1: two iperf3 clients with -P 2 (flows 1,3 and 2,4);
    server logs, console, dmesg and softnet left out.
iperf3_connect_refused.json / iperf3_interrupted.json: iperf3 3.12 -J on the host's
    loopback, refused, and stopped by SIGTERM after 1.5 s.
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIX = Path(__file__).resolve().parent / "fixtures"
ANALYZE = REPO / "testbed" / "analyze.py"
sys.path.insert(0, str(REPO / "testbed"))
import analysis as analyze  # noqa: E402
from analysis import run as run_mod  # noqa: E402

PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


@pytest.fixture
def run_a(tmp_path):
    d = tmp_path / "run_a"
    shutil.copytree(FIX / "run_bbr_a_loss1", d)
    return d


@pytest.fixture
def run_b(tmp_path):
    d = tmp_path / "run_b"
    shutil.copytree(FIX / "run_bbr_5bdp_noss", d)
    return d


@pytest.fixture
def run_p(tmp_path):
    d = tmp_path / "run_p"
    shutil.copytree(FIX / "run_bbr_parallel", d)
    return d


def run_cli(*args):
    return subprocess.run([PY, str(ANALYZE), *map(str, args)], capture_output=True, text=True)


# ------------------------------------------------------------------------ statistics
def test_jain_equal_shares_is_one():
    assert analyze.jain([5.0, 5.0, 5.0]) == pytest.approx(1.0)


def test_jain_one_flow_takes_all_is_one_over_n():
    assert analyze.jain([10.0, 0.0, 0.0, 0.0]) == pytest.approx(0.25)


def test_jain_known_value_and_scale_invariance():
    # (1+3)^2 / (2 * (1+9)) = 0.8
    assert analyze.jain([1.0, 3.0]) == pytest.approx(0.8)
    assert analyze.jain([100.0, 300.0]) == pytest.approx(0.8)


def test_jain_single_flow_is_one():
    assert analyze.jain([42.0]) == pytest.approx(1.0)


def test_jain_undefined_cases():
    assert analyze.jain([]) is None
    assert analyze.jain([0.0, 0.0]) is None


def test_jain_rejects_negative():
    with pytest.raises(ValueError):
        analyze.jain([1.0, -1.0])


def test_utilization_arithmetic():
    # 100 Mbit/s for 10 s is 125e6 bytes
    assert analyze.utilization(125e6, 100, 10) == pytest.approx(1.0)
    assert analyze.utilization(125e6 * 1448 / 1514, 100, 10) == pytest.approx(analyze.PAYLOAD_CEILING)
    assert analyze.utilization(0, 20, 4) == 0
    with pytest.raises(ValueError):
        analyze.utilization(1, 0, 10)
    with pytest.raises(ValueError):
        analyze.utilization(1, 10, 0)


def test_bytes_in_window_prorates_edges():
    ivs = [(0.0, 1.0, 100.0), (1.0, 2.0, 200.0), (2.0, 3.0, 300.0)]
    # flow launched 0.5 s after t0: intervals cover [0.5,1.5], [1.5,2.5], [2.5,3.5]
    assert analyze.bytes_in_window(ivs, 0.5, 1.0, 3.0) == pytest.approx(50 + 200 + 150)
    assert analyze.bytes_in_window(ivs, 0.0, 0.0, 100.0) == pytest.approx(600)
    assert analyze.bytes_in_window(ivs, 0.0, 5.0, 6.0) == 0


def test_percentile_nearest_rank():
    xs = list(range(1, 101))
    assert analyze.percentile(xs, 50) == 50
    assert analyze.percentile(xs, 95) == 95
    assert analyze.percentile([], 50) is None


@pytest.mark.parametrize("text,mbps", [("12.5Mbps", 12.5), ("950Kbps", 0.95), ("1.2Gbps", 1200.0),
                                       ("74002144bps", 74.002144), ("junk", None)])
def test_parse_rate_units(text, mbps):
    got = analyze.parse_rate(text)
    assert got == (None if mbps is None else pytest.approx(mbps))


# ------------------------------------------------------------------------- ss / tc parsers
def test_ss_info_line_from_recording():
    line = next(ln for ln in open(FIX / "run_bbr_a_loss1" / "ss_s2.txt") if "bbr:(" in ln)
    m = analyze.parse_ss_info(line.strip())
    assert m["ca"] == "bbr_a"
    exp_cwnd = int(re.search(r"\bcwnd:(\d+)", line).group(1))
    exp_rtt = float(re.search(r"\brtt:([\d.]+)/", line).group(1))
    exp_gain = float(re.search(r"pacing_gain:([\d.]+)", line).group(1))
    exp_pr = int(re.search(r"pacing_rate (\d+)bps", line).group(1))
    assert m["cwnd"] == exp_cwnd
    assert m["srtt_ms"] == pytest.approx(exp_rtt)
    assert m["bbr_pacing_gain"] == pytest.approx(exp_gain)
    assert m["pacing_rate_mbps"] == pytest.approx(exp_pr / 1e6)
    assert m["bbr_mrtt"] > 0 and m["bbr_bw_mbps"] > 0


def test_ss_file_samples_and_sockets():
    samples = analyze.parse_ss_file(FIX / "run_bbr_a_loss1" / "ss_s1.txt")
    n_marks = sum(1 for ln in open(FIX / "run_bbr_a_loss1" / "ss_s1.txt") if ln.startswith("@ "))
    assert len(samples) == n_marks > 10
    times = [t for t, _ in samples]
    assert times == sorted(times)
    ports = {s["peer_port"] for _, socks in samples for s in socks}
    assert ports == {5201}  # s1 carries flow 1 (control + data connection)


def test_tc_samples_backlog_within_buffer():
    q = analyze.parse_tc_file(FIX / "run_bbr_a_loss1" / "tc.txt")
    assert len(q) > 10
    assert max(s["backlog_bytes"] for _, s in q) <= 62500
    assert max(s["backlog_bytes"] for _, s in q) > 0
    sent = [s["sent_bytes"] for _, s in q]
    assert sent == sorted(sent)  # counters only grow


# -------------------------------------------------------------------------- whole runs
def test_run_a_numbers_match_raw_files(run_a):
    r = analyze.analyze_run(str(run_a))
    assert r["cc"] == "bbr_a"
    assert [f["rtt_ms"] for f in r["flows"]] == [10, 50]
    # base RTT comes from the recorded ping output
    for k, f in enumerate(r["flows"], 1):
        ping = (run_a / f"ping_s{k}.txt").read_text()
        assert f["base_rtt_ms"] == pytest.approx(float(re.search(r"= ([\d.]+)/", ping).group(1)))
        assert abs(f["base_rtt_ms"] - f["rtt_ms"]) < 2
    # retransmits are iperf3's own count; retrans_rate from the flow's last ss sample
    for f in r["flows"]:
        js = json.loads((run_a / f"flow{f['index']}.json").read_text())
        assert f["retransmits"] == js["end"]["sum_sent"]["retransmits"] > 0
        port = js["start"]["connected"][0]["local_port"]
        text = (run_a / f"ss_s{f['index']}.txt").read_text()
        socks = re.findall(rf":{port} .*?\n\t(.*)", text)
        last = socks[-1]
        tot = int(re.search(r"retrans:\d+/(\d+)", last).group(1))
        segs = int(re.search(r"data_segs_out:(\d+)", last).group(1))
        assert f["retrans_source"] == "ss"
        assert f["retrans_rate"] == pytest.approx(tot / segs, abs=1e-6)
    assert r["retrans_rate"] == pytest.approx(
        sum(f["segs_retrans"] for f in r["flows"]) / sum(f["segs_sent"] for f in r["flows"]))


def test_run_a_throughput_and_utilization_consistent(run_a):
    r = analyze.analyze_run(str(run_a))
    w0, w1 = r["interval_s"]
    assert (w0, w1) == (2.0, 5.0)  # warmup_s, duration_s - default cool-down of 1 s
    tot = sum(f["throughput_mbps"] for f in r["flows"])
    assert r["utilization"] == pytest.approx(tot / 20, rel=1e-3)
    assert r["jain"] == pytest.approx(analyze.jain([f["throughput_mbps"] for f in r["flows"]]), rel=1e-3)
    # a 20 Mbit/s link: every flow below capacity, together close to the payload ceiling
    for f in r["flows"]:
        assert 0 < f["throughput_mbps"] < 20
    assert 0.85 < r["utilization"] < 1.0


def test_whole_window_equals_iperf3_receiver_total(run_a):
    # summing all receiver-side intervals must give the server's own total byte count
    r = analyze.analyze_run(str(run_a), warmup=0, end=1000, write_csv=False)
    for f in r["flows"]:
        js = json.loads((run_a / f"flow{f['index']}.json").read_text())
        total = js["server_output_json"]["end"]["sum_received"]["bytes"]
        assert f["bytes_in_interval"] == pytest.approx(total, abs=2)
        assert f["throughput_source"] == "receiver"


def test_queue_delay_bounded_by_buffer(run_a):
    r = analyze.analyze_run(str(run_a))
    q = r["queue_delay_ms"]
    assert q["samples"] > 5
    assert 0 < q["mean"] <= q["max"] <= 62500 * 8 / 20e6 * 1e3 + 1e-9


def test_run_b_without_ss_falls_back_to_iperf3(run_b):
    r = analyze.analyze_run(str(run_b))
    assert r["params"]["buffer_bdp"] == "5"  # from run.env written by rtt_fairness.sh
    for f in r["flows"]:
        js = json.loads((run_b / f"flow{f['index']}.json").read_text())
        mss = js["start"]["tcp_mss_default"]
        new = math.ceil(js["end"]["sum_sent"]["bytes"] / mss)
        rt = js["end"]["sum_sent"]["retransmits"]
        assert f["retrans_source"] == "iperf3"
        assert f["retrans_rate"] == pytest.approx(rt / (new + rt), abs=1e-6)
    assert r["utilization"] > 0.9


def test_parallel_client_flows_are_its_connections(run_p):
    """Flows that share an iperf3 client (-P) each get their own connection's numbers."""
    r = analyze.analyze_run(str(run_p), warmup=0, end=1000, write_csv=False)
    assert [(f["index"], f["rtt_ms"]) for f in r["flows"]] == [(1, 10), (2, 30), (3, 10), (4, 30)]
    for g, members in ((1, (1, 3)), (2, (2, 4))):
        js = json.loads((run_p / f"flow{g}.json").read_text())
        srv = js["server_output_json"]
        ports = [c["local_port"] for c in js["start"]["connected"]]
        assert len(ports) == len(set(ports)) == 2
        rcv = {c["remote_port"]: c["socket"] for c in srv["start"]["connected"]}
        totals = {e["receiver"]["socket"]: e["receiver"]["bytes"] for e in srv["end"]["streams"]}
        got = {}
        for i, port in zip(members, ports):
            f = r["flows"][i - 1]
            # the whole receiver-side series of this connection = the server's own total for it
            assert f["bytes_in_interval"] == pytest.approx(totals[rcv[port]], abs=2)
            assert f["throughput_source"] == "receiver" and f["retrans_source"] == "ss"
            got[i] = f["bytes_in_interval"]
        assert sum(got.values()) == pytest.approx(srv["end"]["sum_received"]["bytes"], abs=4)
        assert len(set(got.values())) == 2  # two connections, not one counted twice
    # each flow has its own ss time series (matched by its connection's port)
    full = analyze.analyze_run(str(run_p))
    assert full["utilization"] > 0.9
    with open(run_p / "ss.csv") as f:
        rows = [line.split(",") for line in f.read().splitlines()[1:]]
    assert {int(x[1]) for x in rows} == {1, 2, 3, 4}


def test_flows_of_other_hosts_are_read_from_their_hosts_files(run_p):
    """--hosts-per-class: a flow's ss samples, base RTT and snmp counters are its host's
    (hosts.txt: index class host namespace address); the summary names each flow's host
    and address and the run's hosts_per_class. Here class 2's client is moved to a host
    s2h2 of its own: the numbers are those of the run as it was."""
    before = analyze.analyze_run(str(run_p), write_csv=False)
    (run_p / "hosts.txt").write_text("1 1 1 s1 10.1.1.2\n2 2 2 s2h2 10.1.2.6\n"
                                     "3 1 1 s1 10.1.1.2\n4 2 2 s2h2 10.1.2.6\n")
    for a, b in (("ss_s2.txt", "ss_s2h2.txt"), ("snmp_s2_start.txt", "snmp_s2h2_start.txt"),
                 ("snmp_s2_end.txt", "snmp_s2h2_end.txt")):
        (run_p / a).rename(run_p / b)
    env = (run_p / "params.env").read_text().replace("base_rtt_ms_s2=", "base_rtt_ms_s2h2=")
    (run_p / "params.env").write_text(env + "hosts_per_class=2\n")
    r = analyze.analyze_run(str(run_p), write_csv=False)
    assert r["hosts_per_class"] == 2 and "hosts_per_class" not in before
    assert [(f["host"], f["address"]) for f in r["flows"]] == [
        ("s1", "10.1.1.2"), ("s2h2", "10.1.2.6"), ("s1", "10.1.1.2"), ("s2h2", "10.1.2.6")]
    assert all("host" not in f for f in before["flows"])
    for a, b in zip(before["flows"], r["flows"]):
        assert a["base_rtt_ms"] == b["base_rtt_ms"] and a["rtt_queueing_ms"] == b["rtt_queueing_ms"]
        assert a["retrans_source"] == b["retrans_source"] == "ss"
    assert set(r["snmp"]) == {"s1", "s2h2"} and r["snmp"]["s2h2"] == before["snmp"]["s2"]


def test_parallel_client_connection_count_must_match(run_p):
    lines = (run_p / "flows.txt").read_text().splitlines()
    (run_p / "flows.txt").write_text("\n".join(lines[:3]) + "\n")  # flow 4 (group 2) gone
    _one_line_error(run_cli(run_p), "flow2.json", "2 connection(s)", "1 flow(s) in group 2")


def lose_stream(run_dir, group, stream, error="Connection timed out after 127.0 s"):
    """flow<group>.json as tcpflow.py bulk writes it when the connection of `stream` was
    never made: numbered connections, that one gone, start.not_connected naming it."""
    path = run_dir / f"flow{group}.json"
    js = json.loads(path.read_text())
    conn = js["start"]["connected"]
    for k, c in enumerate(conn):
        c["stream"] = k
    gone = conn.pop(stream)
    js["end"]["streams"] = [e for e in js["end"]["streams"]
                            if e["sender"]["socket"] != gone["socket"]]
    js["start"]["not_connected"] = [{"stream": stream, "error": error}]
    path.write_text(json.dumps(js))


def test_a_flow_that_never_connected_is_reported_and_the_others_count(run_p):
    """A flow whose handshake the network never let complete (100 flows per class at 20 %
    loss: a client's connect timed out) is listed apart; the run is still a result, with the
    numbers of the flows that ran."""
    lose_stream(run_p, 1, 1)  # flow 3 (group 1, its second connection)
    r = analyze.analyze_run(str(run_p), write_csv=False)
    assert [f["index"] for f in r["flows"]] == [1, 2, 4]
    assert r["flows_not_connected"] == [{"index": 3, "class": 1, "cc": "bbr", "rtt_ms": 10.0,
                                         "error": "Connection timed out after 127.0 s"}]
    assert r["problems"] == []
    assert analyze.notes(r) == ["1 of 4 flows never connected (flow 3: Connection timed out "
                                "after 127.0 s)"]
    assert r["jain"] is not None and r["utilization"] > 0.5
    p = run_cli(run_p)
    assert p.returncode == 0, p.stderr
    assert "note: 1 of 4 flows never connected" in p.stdout


def test_a_client_none_of_whose_flows_connected(run_p):
    """Every connection of a client timed out: its JSON has none, the run the others."""
    js = {"start": {"connected": [], "tool": "tcpflow.py bulk",
                    "not_connected": [{"stream": 0, "error": "e0"}, {"stream": 1, "error": "e1"}]},
          "intervals": [], "end": {"streams": [], "sum_sent": {"bytes": 0, "retransmits": 0},
                                   "sum_received": {"bytes": 0}}}
    (run_p / "flow2.json").write_text(json.dumps(js))
    r = analyze.analyze_run(str(run_p), warmup=0, end=1000, write_csv=False)
    assert [f["index"] for f in r["flows"]] == [1, 3]
    assert [(f["index"], f["error"]) for f in r["flows_not_connected"]] == [(2, "e0"), (4, "e1")]


def test_cli_writes_summary_csvs_and_table(run_a, run_b, tmp_path):
    p = run_cli(tmp_path)
    assert p.returncode == 0, p.stderr
    d = json.loads((tmp_path / "summary.json").read_text())
    assert analyze.validate_summary(d) == []
    assert {r["cc"] for r in d["results"]} == {"bbr_a", "bbr"}
    assert d["module_version"] not in (None, "none")
    assert d["kernel"].startswith("6.12")
    for name in ("throughput.csv", "ss.csv", "queue.csv", "run_summary.json"):
        assert (run_a / name).stat().st_size > 0
    assert "jain" in p.stdout and "bbr_a" in p.stdout


def test_validate_summary_catches_bad_shapes():
    assert analyze.validate_summary({}) != []
    assert analyze.validate_summary({"results": []}) != []
    good = {"results": [{"cc": "bbr", "jain": 0.9, "utilization": 0.95,
                         "flows": [{"rtt_ms": 10, "throughput_mbps": 1.0, "retransmits": 0,
                                    "retrans_rate": 0.0}]}]}
    assert analyze.validate_summary(good) == []
    bad = json.loads(json.dumps(good))
    bad["results"][0]["flows"][0]["retransmits"] = "many"
    assert any("retransmits" in p for p in analyze.validate_summary(bad))


def test_sweep_csv(run_a, run_b, tmp_path):
    out = tmp_path / "s.csv"
    p = run_cli("--sweep-csv", out, "--sweep", "buffer", run_a, run_b)
    assert p.returncode == 0, p.stderr
    lines = out.read_text().splitlines()
    assert lines[0].split(",")[:3] == ["sweep", "cc", "rtts_ms"]
    assert len(lines) == 3
    assert all(ln.startswith("buffer,") for ln in lines[1:])


def test_cooldown_from_run_env_and_option(run_b):
    assert analyze.analyze_run(str(run_b), write_csv=False)["interval_s"] == [3.0, 9.0]
    with open(run_b / "run.env", "a") as f:
        f.write("cooldown_s=2\n")
    assert analyze.analyze_run(str(run_b), write_csv=False)["interval_s"] == [3.0, 8.0]
    assert analyze.analyze_run(str(run_b), write_csv=False, cooldown=0)["interval_s"] == [3.0, 10.0]


def test_bottleneck_load_and_acked_cross_checks(run_a, run_b):
    a = analyze.analyze_run(str(run_a), write_csv=False)
    b = analyze.analyze_run(str(run_b), write_csv=False)
    # the bottleneck was busy all the time (tc counters), and the payload share fits under it
    for r in (a, b):
        assert 0.98 < r["bottleneck_load"] < 1.02
        assert r["utilization"] < r["bottleneck_load"]
    assert a["utilization_acked"] is not None and 0.85 < a["utilization_acked"] < 1.0
    assert b["utilization_acked"] is None  # no ss samples in run_b


def test_warmup_not_below_duration_is_an_error(run_a):
    p = run_cli(run_a, "--warmup", "5")
    assert p.returncode == 1
    assert "measured interval" in p.stderr and "Traceback" not in p.stderr


# ----------------------------------------------------------------- malformed iperf3 output
def _one_line_error(p, *needles):
    assert p.returncode == 1
    assert "Traceback" not in p.stderr
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, p.stderr
    for n in needles:
        assert n in lines[0], lines[0]


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.9, 0.999, 5000, 5001, 5002, 5003])
def test_truncated_iperf3_json(run_a, cut):
    f = run_a / "flow2.json"
    raw = f.read_bytes()
    f.write_bytes(raw[: cut if cut > 1 else int(len(raw) * cut)])
    _one_line_error(run_cli(run_a), "flow2.json", "truncated")


def test_malformed_iperf3_json(run_a):
    f = run_a / "flow1.json"
    raw = f.read_text()
    f.write_text(raw.replace('"intervals":', '"intervals"', 1))
    _one_line_error(run_cli(run_a), "flow1.json", "malformed")


def test_text_instead_of_json(run_a):
    # iperf3's human-readable output (what a server without -J prints)
    (run_a / "flow1.json").write_text("Connecting to host 10.0.0.2, port 5201\n"
                                      "[  5] local 10.1.1.2 port 40000 connected\n")
    _one_line_error(run_cli(run_a), "flow1.json", "iperf3 JSON")


def test_empty_iperf3_output(run_a):
    (run_a / "flow1.json").write_bytes(b"")
    (run_a / "flow1.err").write_text("iperf3: error - unable to connect to server\n")
    _one_line_error(run_cli(run_a), "flow1.json", "empty", "unable to connect")


@pytest.mark.parametrize("fixture,needle", [
    ("iperf3_connect_refused.json", "unable to connect to server"),
    ("iperf3_interrupted.json", "interrupt"),
])
def test_iperf3_reported_errors(run_a, fixture, needle):
    shutil.copy(FIX / fixture, run_a / "flow1.json")
    _one_line_error(run_cli(run_a), "flow1.json", "iperf3 reported an error", needle)


def test_incomplete_iperf3_json(run_a):
    d = json.loads((run_a / "flow2.json").read_text())
    del d["end"]["sum_sent"]
    (run_a / "flow2.json").write_text(json.dumps(d))
    _one_line_error(run_cli(run_a), "flow2.json", "incomplete", "sum_sent")


def test_wrong_congestion_control_is_reported(run_a):
    d = json.loads((run_a / "flow1.json").read_text())
    d["end"]["sender_tcp_congestion"] = "cubic"
    (run_a / "flow1.json").write_text(json.dumps(d))
    _one_line_error(run_cli(run_a), "flow1.json", "cubic", "bbr_a")


def test_missing_directory(tmp_path):
    _one_line_error(run_cli(tmp_path / "nope"), "no run directories")


def test_cost_summary_pairs_and_ratio():
    rows = [{"pair": str(p), "cc": cc, "params": par, "bytes": "1000000000", "cpu_s": str(c),
             "commit": "abc", "kernel": "uml-6.1"}
            for p, (ca, cb) in enumerate([(10.0, 10.0), (11.0, 10.0), (9.9, 10.0)], 1)
            for cc, par, c in (("bbr_a", "adaptive=0", ca), ("bbr", "", cb))]
    s = analyze.cost_summary(rows)
    assert s["items"] == ["bbr_a:adaptive=0", "bbr"] and s["pairs"] == 3
    assert s["ratio"] == [0.99, 1.0, 1.1]
    assert s["per_gb"]["bbr"] == [10.0, 10.0, 10.0]
    with pytest.raises(analyze.AnalysisError):
        analyze.cost_summary([r for r in rows if r["cc"] == "bbr"])


def test_ack_cost_takes_the_low_quantile_less_the_model_and_labels_a_repeat():
    """Each cc's ns per ACK at the 10th percentile of its runs, less the ACK model's; a run
    the host preempted (one slow run in each cc) moves nothing; a name given twice is NAME#2
    (the A/A check), and its ratio to the first is 1 within the bootstrap interval."""
    rows = []
    for rep in range(40):
        slow = 50 if rep == 7 else 0
        for cc, ns in (("bbr", 30 + rep % 3 + slow), ("bbr", 30 + (rep + 1) % 3),
                       ("bbr_a_fair", 45 + rep % 3), ("-", 10 + slow)):
            rows.append({"cc": cc, "rep": str(rep), "ns": str(ns * 1000), "acks": "1000",
                         "module_params": "", "commit": "abc", "kernel": "uml-6.1"})
    s = analyze.ack_cost_summary(rows)
    assert s["reference"] == "bbr" and s["runs"] == 40
    assert list(s["ns_per_ack"]) == ["bbr", "bbr#2", "bbr_a_fair", "-"]
    assert s["net"] == {"bbr": 20.0, "bbr#2": 20.0, "bbr_a_fair": 35.0}
    assert s["ratio"]["bbr_a_fair"][0] == 1.75
    lo, hi = s["ratio"]["bbr#2"][1:]
    assert lo <= 1.0 <= hi
    with pytest.raises(analyze.AnalysisError):
        analyze.ack_cost_summary([r for r in rows if r["cc"] != "-"])
    with pytest.raises(analyze.AnalysisError):
        analyze.ack_cost_summary([r for r in rows if int(r["rep"]) < 3])


def test_ack_cost_of_several_layouts_gives_each_ccs_ratio_over_them():
    """Rows of bench_ack.sh --layouts: the summary is layout 0's, and ratio_layouts holds
    each cc's point ratio over the layouts as [min, median, max]; rows without a layout
    column are one layout."""
    rows = []
    for layout, fair in ((0, 45), (1, 51), (2, 48)):
        for rep in range(10):
            for cc, ns in (("bbr", 30), ("bbr_a_fair", fair), ("-", 10)):
                rows.append({"cc": cc, "rep": str(rep), "ns": str(ns * 1000), "acks": "1000",
                             "module_params": "", "commit": "abc", "kernel": "uml-6.1",
                             "layout": str(layout)})
    s = analyze.ack_cost_summary(rows)
    assert s["layouts"] == 3 and s["ratio"]["bbr_a_fair"][0] == 1.75
    assert s["ratio_layouts"]["bbr_a_fair"] == [1.75, 1.9, 2.05]
    assert s["ratio_layouts"]["bbr"] == [1.0, 1.0, 1.0]
    one = analyze.ack_cost_summary([{k: v for k, v in r.items() if k != "layout"}
                                    for r in rows if r["layout"] == "0"])
    assert one["layouts"] == 1 and "ratio_layouts" not in one


def test_retransmissions_in_the_interval_leave_startup_out():
    """retrans_rate_interval counts the sender's tcp_info counters between the interval's
    ends (interpolated), so a STARTUP burst before the warmup is not in it; without samples
    that span the interval it is None, and a run's rate needs every flow's."""
    fl = {"sent": [(0.5, 600, 1000), (2.0, 3000, 5000), (5.0, 3010, 15000), (9.0, 3030, 27000),
                   (10.0, 3040, 30000)]}
    run_mod.flow_retrans_window(fl, 5.0, 9.0)
    assert "sent" not in fl
    assert fl["segs_retrans_window"] == 20 and fl["segs_sent_window"] == 12000
    half = {"sent": [(0.5, 600, 1000), (7.0, 3020, 21000)]}
    run_mod.flow_retrans_window(half, 5.0, 9.0)
    assert half["segs_retrans_window"] is None and half["segs_sent_window"] is None
    other = {"sent": [(4.0, 0, 0), (9.5, 60, 11000)]}
    run_mod.flow_retrans_window(other, 5.0, 9.0)
    assert other["segs_retrans_window"] == pytest.approx(60 * 4 / 5.5)
    assert run_mod.retrans_interval([fl, other]) == pytest.approx(
        (20 + other["segs_retrans_window"]) / (12000 + other["segs_sent_window"]))
    assert run_mod.retrans_interval([fl, half]) is None
    assert run_mod.retrans_interval([]) is None
