"""testbed/analyze.py: the bbr_a:bbr_a_gain trace (trace.txt) -> per-flow rows and shares."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "testbed"))
import analysis as analyze  # noqa: E402

LINES = """@ 100.0
# tracer: nop
 iperf3-90 [000] ..s1. 101.500000: bbr_a_gain: sport=40000 dport=5201 algo=0 mode=2 phase=0 why=1 gain=330 cwnd_gain=512 rtt_us=12000 rtt_max_us=24000 min_rtt_us=10000 bw_bps=20000000 cwnd=40 inflight=38 cwnd_limited=1
 iperf3-90 [000] ..s1. 102.000000: bbr_a_gain: sport=40000 dport=5201 algo=0 mode=2 phase=1 why=3 gain=200 cwnd_gain=512 rtt_us=24000 rtt_max_us=24000 min_rtt_us=10000 bw_bps=20000000 cwnd=40 inflight=40 cwnd_limited=0
 iperf3-90 [000] ..s1. 102.100000: bbr_a_gain: sport=40000 dport=5201 algo=0 mode=0 phase=0 why=0 gain=739 cwnd_gain=739 rtt_us=-1 rtt_max_us=0 min_rtt_us=10000 bw_bps=1 cwnd=10 inflight=1 cwnd_limited=0
 iperf3-91 [000] ..s1. 102.200000: bbr_a_gain: sport=40002 dport=5202 algo=0 mode=2 phase=3 why=0 gain=256 cwnd_gain=512 rtt_us=60000 rtt_max_us=70000 min_rtt_us=50000 bw_bps=80000000 cwnd=900 inflight=800 cwnd_limited=0
 iperf3-90 [000] ..s1. 109.000000: bbr_a_gain: sport=40000 dport=5201 algo=0 mode=2 phase=2 why=0 gain=256 cwnd_ga
"""


def test_parse_and_select_one_flow(tmp_path):
    p = tmp_path / "trace.txt"
    p.write_text(LINES)
    events = analyze.parse_trace_file(str(p))
    assert len(events) == 4  # header, marker and the cut-off last line are skipped
    fl = {"index": 1, "cc": "bbr_a", "rtt_ms": 10.0, "port": 5201}
    rows = analyze.trace_rows(events, fl, 40000, t0=100.0)
    assert [r[0] for r in rows] == [1.5, 2.0, 2.1]
    assert rows[0][6] == "probe" and rows[1][6] == "drain"
    assert rows[0][11] == 0.5 and rows[2][11] is None  # phi; none before an rtt_max
    assert rows[0][13] == 20.0  # Mbit/s
    stats = analyze.trace_stats(rows, 1.0, 5.0)
    # only PROBE_BW events (mode 2) count; the STARTUP event does not
    assert stats == {"events": 2, "why_share": {"drain": 0.5, "probe": 0.5},
                     "cwnd_limited_share": 0.5, "phi_mean": 0.75,
                     "queue_ms_mean": 8.0,  # (2 ms + 14 ms) / 2
                     "startup_end_s": 1.5,  # its first event out of STARTUP, any time
                     "startup_bw_mbps": 20.0}  # and its bw there
    assert analyze.trace_stats(rows, 3.0, 5.0) is None


def test_startup_ends_at_the_first_event_out_of_it():
    """startup_end_s: when the flow left STARTUP (DRAIN counts), over the whole trace and
    not only the measured interval; a flow that never left it has None."""
    def row(t, mode):
        return [t, 1, "bbr_a_fair", 50.0, mode, 0, "fixed", 256, 512, 60000, 70000, 0.5,
                50000, 20.0, 100, 90, 0, 0, 0, 0, 0.0, 0]
    rows = [row(0.1, 0), row(0.5, 0), row(0.91, 1), row(1.0, 2), row(6.0, 2)]
    assert analyze.trace_stats(rows, 5.0, 7.0)["startup_end_s"] == 0.91
    rows[2][13] = 37.5  # the DRAIN event's bw: what STARTUP ended with
    assert analyze.trace_stats(rows, 5.0, 7.0)["startup_bw_mbps"] == 37.5
    assert analyze.trace_stats([row(0.1, 0), row(6.0, 0)] + [row(6.5, 2)], 6.2, 7.0)[
        "startup_end_s"] == 6.5
    assert analyze.trace_stats([row(0.1, 0)], 0.0, 7.0) is None


def test_missing_trace_is_empty(tmp_path):
    assert analyze.parse_trace_file(str(tmp_path / "none.txt")) == []


def test_trace_bins():
    def ev(t, flow, mode="2", why="probe", rtt="12000", cl="1", gain="256", top="0"):
        return {"t_s": t, "flow": flow, "rtt_ms": "10.0", "mode": mode, "why": why,
                "bw_mbps": "10", "cwnd": "40", "inflight": "30", "rtt_us": rtt,
                "min_rtt_us": "10000", "cwnd_limited": cl, "pacing_gain": gain,
                "rtt_max_us": top}
    rows = [ev("0.5", "1", gain="320", top="30000"),
            ev("1.5", "1", why="drain", rtt="14000", cl="0", gain="192", top="26000"),
            ev("1.9", "1", why="fixed", rtt="-1", top="30000"), ev("1.2", "1", mode="0"),
            ev("0.1", "2")]
    out = analyze.trace_bins(rows, 1.0)
    # flow 1: bin 0 (one probe), bin 1 (drain + fixed; STARTUP event left out); flow 2: bin 0
    assert [r[:4] for r in out] == [[0.0, 1, "10.0", 1], [1.0, 1, "10.0", 2], [0.0, 2, "10.0", 1]]
    assert out[1][7] == 4.0  # queue: only the event with an RTT sample
    assert out[1][8:11] == [0.5, 0.0, 0.5]  # cwnd-limited, probe, drain shares
    assert out[1][11:13] == [None, None]  # no bound, no competitor flag (not bbr_a_fair)
    # the adaptive gains of probe-up and probe-down events, rtt_max's height above min_rtt
    assert out[0][13:] == [1.25, None, 20.0]
    assert out[1][13:] == [None, 0.75, 18.0]
    assert out[2][13:] == [1.0, None, None]  # no rtt_max yet


def test_bbr_a_fair_bound_and_competitor_in_rows_stats_and_bins(tmp_path):
    """bbr_a_fair's bw bound (bw_hi_bps) and competitor flag reach trace.csv, the flow's
    trace statistics (compete_share) and the time bins."""
    def line(t, compete, hi):
        return (f" x-1 [000] ..s1. {t}: bbr_a_gain: sport=40000 dport=5201 algo=1 mode=2 "
                f"phase=0 why=0 gain=256 cwnd_gain=512 rtt_us=12000 rtt_max_us=24000 "
                f"min_rtt_us=10000 bw_bps=20000000 cwnd=40 inflight=38 cwnd_limited=1 "
                f"lossy=0 round_lost=0 ev=0 bw_hi_bps={hi} compete={compete}\n")
    p = tmp_path / "trace.txt"
    p.write_text(line(101.0, 0, 0) + line(101.5, 1, 30000000) + line(102.5, 1, 40000000))
    fl = {"index": 1, "cc": "bbr_a_fair", "rtt_ms": 20.0, "port": 5201}
    rows = analyze.trace_rows(analyze.parse_trace_file(str(p)), fl, 40000, t0=100.0)
    cols = analyze.TRACE_COLS
    assert [(r[cols.index("bw_hi_mbps")], r[cols.index("compete")]) for r in rows] == \
        [(0.0, 0), (30.0, 1), (40.0, 1)]
    assert analyze.trace_stats(rows, 0.0, 5.0)["compete_share"] == round(2 / 3, 4)
    dicts = [{k: ("" if v is None else str(v)) for k, v in zip(cols, r)} for r in rows]
    bins = analyze.trace_bins(dicts, 1.0)
    assert [b[11:13] for b in bins] == [[15.0, 0.5], [40.0, 1.0]]


def test_events_dated_by_tcp_clock(tmp_path):
    """Module 0.6.1+: the trace clock is "counter" (stamps are counts) and each event's time
    is its t_us, shifted by the run's trace_offset_cs onto the uptime clock."""
    p = tmp_path / "trace.txt"
    p.write_text(
        " iperf3-90 [000] ..s1. 17: bbr_a_gain: sport=40000 dport=5201 algo=0 mode=2 "
        "phase=0 why=1 gain=330 cwnd_gain=512 rtt_us=12000 rtt_max_us=24000 "
        "min_rtt_us=10000 bw_bps=20000000 cwnd=40 inflight=38 cwnd_limited=1 lossy=0 "
        "round_lost=0 ev=0 bw_hi_bps=0 compete=0 t_us=101500000\n")
    assert [t for t, _ in analyze.parse_trace_file(str(p))] == [101.5]
    assert [t for t, _ in analyze.parse_trace_file(str(p), 2.5)] == [104.0]


def test_trace_dips():
    def ev(t, mode, rtt, min_rtt, compete="0"):
        return {"t_s": t, "flow": "1", "rtt_ms": "20.0", "mode": mode, "rtt_us": rtt,
                "min_rtt_us": min_rtt, "compete": compete}
    rows = [ev("1.0", "2", "20500", "20000"), ev("2.0", "2", "41000", "20000"),
            # a regular dip: min_rtt's window expired, it takes the dip's first sample
            ev("10.0", "3", "41000", "41000"), ev("10.1", "3", "27000", "27000"),
            ev("10.3", "2", "26000", "26000", "1"),
            # a dip whose window had not expired: min_rtt stays; the ending event's sample
            # is the dip's lowest
            ev("15.0", "3", "45000", "26000"), ev("15.1", "3", "-1", "26000"),
            ev("15.3", "2", "22000", "26000"),
            # under way at the trace's end: left out
            ev("20.0", "3", "30000", "26000")]
    out = analyze.trace_dips(rows)
    assert out == [[1, "20.0", 10.0, 10.3, 2, 26.0, 20.5, 5.5, 1, "1"],
                   [1, "20.0", 15.0, 15.3, 2, 22.0, 20.5, 1.5, 0, "0"]]


def screen_tree(scenario_dir, seeds, cc, cols, trace, env):
    """A screen.sh tree's jobs under scenario_dir: seed<N>/<cc>/run1/{trace.csv,params.env}."""
    for seed in seeds:
        run = scenario_dir / seed / cc / "run1"
        run.mkdir(parents=True)
        (run / "trace.csv").write_text(
            ",".join(cols) + "\n" + "".join(",".join(r) + "\n" for r in trace))
        (run / "params.env").write_text(env)


def test_screen_dips(tmp_path):
    # a screen tree: <config>/<scenario>/seed<N>/<cc>/run1/{trace.csv,params.env}; a job
    # moved aside (seed1.stale) is not read
    cols = ["t_s", "flow", "rtt_ms", "mode", "rtt_us", "min_rtt_us", "compete"]
    trace = [["1.0", "1", "20.0", "2", "30000", "20000", "0"],
             ["10.0", "1", "20.0", "3", "28000", "28000", "0"],
             ["10.3", "1", "20.0", "2", "20000", "20000", "0"]]
    screen_tree(tmp_path / "cfg" / "c2", ("seed1", "seed1.stale", "seed2"), "bbr_a_fair+bbr",
                cols, trace, "kernel=6.1.192\nmodule_version=0.13.0\nmodule_srcversion=ABC\n")
    out = analyze.screen_dips(str(tmp_path))
    assert out == [["cfg", "c2", s, 1, "20.0", 10.0, 10.3, 1, 20.0, 20.0, 0.0, 1, "0",
                    "6.1.192", "0.13.0", "ABC"] for s in ("1", "2")]
    assert len(analyze.SCREEN_DIP_COLS) == len(out[0])
    with pytest.raises(analyze.AnalysisError):
        analyze.screen_dips(str(tmp_path / "cfg" / "c2" / "seed1.stale"))


def test_trace_bounds_and_screen_bounds(tmp_path):
    # the highest bound with and without the flag, per flow; a flow never flagged has no
    # competing maximum; rows without a bound (cubic's, or older traces) are left out
    cols = ["t_s", "flow", "cc", "rtt_ms", "cwnd", "bw_hi_mbps", "compete"]
    trace = [["1.0", "1", "bbr_a_fair", "50.0", "400", "340.0", "0"],
             ["2.0", "1", "bbr_a_fair", "50.0", "1650", "249.1", "1"],
             ["3.0", "1", "bbr_a_fair", "50.0", "500", "80.5", "1"],
             ["4.0", "1", "bbr_a_fair", "50.0", "300", "0.0", "1"],
             ["1.0", "2", "bbr_a_fair", "10.0", "50", "20.0", "0"],
             ["1.0", "3", "cubic", "10.0", "60", "", ""]]
    rows = [dict(zip(cols, r)) for r in trace]
    assert analyze.trace_bounds(rows) == [
        [1, "bbr_a_fair", "50.0", 4, 0.75, 340.0, 249.1, 1650],
        [2, "bbr_a_fair", "10.0", 1, 0.0, 20.0, None, 50]]
    screen_tree(tmp_path / "hr25" / "d1", ("seed4", "seed4.stale"), "bbr_a_fair+cubic", cols,
                trace, "kernel=6.1.192\nmodule_version=0.15.0\nmodule_srcversion=ABC\n"
                "rate_mbit=100\n")
    out = analyze.screen_bounds(str(tmp_path))
    assert out == [["hr25", "d1", "4", "100", 1, "bbr_a_fair", "50.0", 4, 0.75, 340.0, 249.1,
                    1650, "6.1.192", "0.15.0", "ABC"],
                   ["hr25", "d1", "4", "100", 2, "bbr_a_fair", "10.0", 1, 0.0, 20.0, None, 50,
                    "6.1.192", "0.15.0", "ABC"]]
    assert len(analyze.SCREEN_BOUND_COLS) == len(out[0])
    with pytest.raises(analyze.AnalysisError):
        analyze.screen_bounds(str(tmp_path / "none"))
