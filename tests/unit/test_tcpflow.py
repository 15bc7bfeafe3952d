"""testbed/tcpflow.py's sink/bulk, the testbed's non-polling traffic: interval accounting on
iperf3's boundaries, and a real sender/sink pair on loopback whose JSON testbed/analyze.py
reads as it reads iperf3's (receiver-side intervals that add up to what was sent)."""
import json
import socket
import time
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "testbed"))
import analysis as analyze  # noqa: E402
import tcpflow  # noqa: E402

FLOW = REPO / "testbed" / "tcpflow.py"


def ticker_with(marks, length=1.0):
    tk = tcpflow.Ticker(0.0, length)
    tk.count = [0, 0]
    tk.marks = marks
    return tk


def test_intervals_from_snapshots_with_empty_ones():
    # snapshots at 1, 2, 3 s of two streams' counters; stream 0 stalled from 1 to 3 s
    tk = ticker_with([(1.0, [15, 4]), (2.0, [15, 9]), (3.0, [15, 9])])
    assert tk.intervals(0, 3.75, 22) == [(0.0, 1.0, 15), (1.0, 2.0, 0), (2.0, 3.0, 0), (3.0, 3.75, 7)]
    assert tk.intervals(1, 3.0, 9) == [(0.0, 1.0, 4), (1.0, 2.0, 5), (2.0, 3.0, 0)]


def test_intervals_of_a_stream_added_late_start_at_zero():
    tk = ticker_with([(0.5, [3]), (1.0, [7, 2])], length=0.5)
    assert tk.intervals(1, 1.2, 5) == [(0.0, 1.0, 2), (1.0, 1.2, 3)]


def test_tick_stops_at_until_without_a_mark_there():
    tk = tcpflow.Ticker(time.monotonic(), 0.05)
    tk.add_stream()
    tk.tick(until=0.12)
    assert tk.done.is_set()
    assert [t for t, _ in tk.marks] == [0.05, 0.1]


def test_iperf3_intervals_pads_the_shorter_stream():
    out = tcpflow.iperf3_intervals([(3, [(0, 1, 10), (1, 2, 20)]), (4, [(0, 1, 30)])], "socket")
    assert [[(x["socket"], x["start"], x["end"], x["bytes"]) for x in iv["streams"]] for iv in out] == \
        [[(3, 0, 1, 10), (4, 0, 1, 30)], [(3, 1, 2, 20), (4, 1, 1, 0)]]
    # a zero-length padding interval adds nothing to any window
    assert analyze.bytes_in_window([(0, 1, 30), (1, 1, 0)], 0, 0, 5) == 30


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_bulk_and_sink_write_iperf3_json_that_analyze_reads(tmp_path):
    port = free_port()
    sink = subprocess.Popen([sys.executable, str(FLOW), "sink", "--bind", "127.0.0.1", "--port",
                             str(port), "--streams", "3", "--interval", "0.25"])
    try:
        out = tmp_path / "flow.json"
        for _ in range(50):  # until the sink listens
            p = subprocess.run([sys.executable, str(FLOW), "bulk", "--host", "127.0.0.1", "--port",
                                str(port), "--streams", "3", "--time", "1", "--interval", "0.25",
                                "--out", str(out)], capture_output=True, text=True, timeout=60)
            if p.returncode == 0 or "refused" not in p.stderr:
                break
        assert p.returncode == 0, p.stderr
        assert sink.wait(timeout=30) == 0
    finally:
        sink.kill()
    d = analyze.load_iperf3(str(out))
    assert len(d["start"]["connected"]) == 3
    assert d["end"]["sender_tcp_congestion"]
    ports = set()
    for k in range(3):
        st = analyze.iperf3_stream(d, str(out), k)
        ports.add(st["local_port"])
        assert st["source"] == "receiver"
        # the sink read everything that was written, and its intervals account for all of it
        assert st["bytes_sent"] == st["bytes_received"] > 0
        assert sum(n for _, _, n in st["intervals"]) == st["bytes_received"]
        starts = [a for a, _, _ in st["intervals"]]
        assert starts[:4] == [0.0, 0.25, 0.5, 0.75]
    assert len(ports) == 3
    assert d["end"]["sum_sent"]["bytes"] == sum(e["sender"]["bytes"] for e in d["end"]["streams"])


def test_bulk_reports_a_connection_that_times_out_and_runs_the_others(tmp_path, monkeypatch):
    """The kernel gives up on one handshake (ETIMEDOUT after its SYN retransmissions): that
    stream is reported on stderr and in start.not_connected, the others send, and the
    analysis reads both (before, one such connect failed the whole client)."""
    port = free_port()
    sink = subprocess.Popen([sys.executable, str(FLOW), "sink", "--bind", "127.0.0.1", "--port",
                             str(port), "--streams", "3", "--interval", "0.25"])
    real, calls = socket.create_connection, []

    def flaky(addr, *a, **kw):
        calls.append(addr)
        if len(calls) == 2:
            raise TimeoutError(110, "Connection timed out")
        return real(addr, *a, **kw)
    monkeypatch.setattr(tcpflow.socket, "create_connection", flaky)
    out = tmp_path / "flow.json"
    try:
        for _ in range(50):  # until the sink listens (refused: exit status 1)
            calls.clear()
            rc = tcpflow.main(["bulk", "--host", "127.0.0.1", "--port", str(port), "--streams",
                               "3", "--time", "0.5", "--interval", "0.25", "--out", str(out)])
            if rc == 0:
                break
            time.sleep(0.1)
        assert rc == 0
    finally:
        sink.kill()  # it waits for the third connection
    d = analyze.load_iperf3(str(out))
    assert [c["stream"] for c in d["start"]["connected"]] == [0, 2]
    assert d["start"]["not_connected"][0]["stream"] == 1
    assert "Connection timed out" in d["start"]["not_connected"][0]["error"]
    assert analyze.iperf3_stream(d, str(out), 1)["connected"] is False
    for k in (0, 2):
        st = analyze.iperf3_stream(d, str(out), k)
        assert st["connected"] and st["bytes_sent"] == st["bytes_received"] > 0


def test_bulk_with_no_connection_writes_json_naming_them(monkeypatch, tmp_path, capsys):
    def never(addr, *a, **kw):
        raise TimeoutError(110, "Connection timed out")
    monkeypatch.setattr(tcpflow.socket, "create_connection", never)
    out = tmp_path / "flow.json"
    assert tcpflow.main(["bulk", "--host", "127.0.0.1", "--port", "9", "--streams", "2",
                         "--out", str(out)]) == 0
    d = analyze.load_iperf3(str(out))
    assert d["start"]["connected"] == [] and len(d["start"]["not_connected"]) == 2
    assert capsys.readouterr().err.count("never connected") == 2


def test_bulk_fails_when_nobody_listens():
    """Refused is not the network's loss: the testbed is broken, the client fails."""
    p = subprocess.run([sys.executable, str(FLOW), "bulk", "--host", "127.0.0.1", "--port",
                        str(free_port()), "--streams", "2", "--time", "1"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and "refused" in p.stderr


def test_sink_counts_a_last_read_shorter_than_its_read_size():
    """The sink reads READ bytes at a time with MSG_WAITALL: a stream that is not a multiple
    of it must still be counted to its last byte when the sender half-closes."""
    port = free_port()
    sink = subprocess.Popen([sys.executable, str(FLOW), "sink", "--bind", "127.0.0.1", "--port",
                             str(port), "--streams", "1", "--interval", "0.25"])
    total = 3 * tcpflow.READ + 5
    try:
        for _ in range(50):  # until the sink listens
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except ConnectionRefusedError:
                time.sleep(0.1)
        with conn:
            conn.sendall(b"x" * total)
            conn.shutdown(socket.SHUT_WR)
            rec = json.loads(conn.makefile().readline())
        assert sink.wait(timeout=30) == 0
    finally:
        sink.kill()
    assert rec["bytes"] == total
    assert sum(n for _, _, n in rec["intervals"]) == total, rec["intervals"]


@pytest.mark.parametrize("args,msg", [
    (["bulk", "--host", "h", "--port", "1", "--streams", "0"], "--streams must be 1..128"),
    (["bulk", "--host", "h", "--port", "1", "--streams", "129"], "--streams must be 1..128"),
    (["bulk", "--host", "h", "--port", "1", "--time", "0"], "--time must be > 0"),
    (["sink", "--port", "70000"], "--port must be 1..65535"),
    (["sink", "--port", "1", "--interval", "0.01"], "--interval must be 0.1..60"),
])
def test_bad_arguments_exit_2(args, msg):
    p = subprocess.run([sys.executable, str(FLOW), *args], capture_output=True, text=True)
    assert p.returncode == 2 and msg in p.stderr


def test_json_is_plain_data(tmp_path):
    # what analyze reads must survive a round trip (no tuples or sockets left in it)
    streams = [{"socket": 3, "local_host": "a", "local_port": 1, "remote_host": "b", "remote_port": 2,
                "bytes": 10, "retransmits": 0, "intervals": [(0.0, 1.0, 10)],
                "server": {"socket": 4, "local_port": 2, "remote_port": 1, "bytes": 10,
                           "intervals": [[0.0, 1.0, 10]]}}]
    args = type("A", (), {"time": 1.0})
    d = tcpflow.bulk_json(streams, "bbr", 1448, args)
    assert json.loads(json.dumps(d)) == json.loads(json.dumps(d, default=str))
