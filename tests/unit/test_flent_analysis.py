"""testbed/analysis/flent.py on made-up flent data: netperf's streams as flows."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "testbed"))
from analysis.flent import flent_flows  # noqa: E402


def write_flent(d, meta, results, title="s1"):
    import gzip
    import json
    (d / "flent").mkdir(parents=True)
    data = {"metadata": {"TITLE": title, "SERIES_META": meta},
            "x_values": [0.0, 1.0, 2.0, 3.0], "results": results}
    with gzip.open(d / "flent" / "tcp_nup-1970-01-01T000000.1.s1.flent.gz", "wt") as f:
        json.dump(data, f)


def stream(idx, retx, sent=1448 * 1000):
    return {"RUNNER": "NetperfDemoRunner", "IDX": idx, "TCP_RETRANSMIT": retx,
            "BYTES_SENT": sent, "TCP_MSS": 1448, "CONG_CONTROL": "cubic",
            "COMMAND": "netperf -H 10.1.1.2 -t TCP_STREAM"}


def test_retransmits_as_netperf_printed_them(tmp_path):
    """tcp_nup's streams carry TCP_RETRANSMIT as a string ("5"): the run's analysis failed
    with a TypeError (int + str) and the run was lost."""
    write_flent(tmp_path, {"TCP upload::1": stream(1, "5"), "TCP upload::2": stream(2, 0),
                           "TCP upload sum": {"RUNNER": "SumRunner"}},
                {"TCP upload::1": [1, 2, 4, 6], "TCP upload::2": [1, 1, 1, None]})
    flows, fairness = flent_flows(str(tmp_path), {"rtts_ms": "40"}, 1.0, 3.0)
    assert [f["retransmits"] for f in flows] == [5, 0]
    assert flows[0]["segs_sent"] == 1005 and flows[0]["retrans_rate"] == pytest.approx(5 / 1005)
    assert [f["throughput_mbps"] for f in flows] == [pytest.approx(4.0), pytest.approx(1.0)]
    assert fairness == []


def test_no_retransmit_count_is_none(tmp_path):
    write_flent(tmp_path, {"TCP upload::1": stream(1, "", sent="2896")}, {"TCP upload::1": [1]})
    flow, = flent_flows(str(tmp_path), {"rtts_ms": "40"}, 0.0, 3.0)[0]
    assert flow["retransmits"] is None and flow["retrans_rate"] is None and flow["segs_sent"] == 2
