"""The testbed's traffic on UML (time travel): a run ends however long its flows take to
deliver what is left in their send buffers after the run's end.

Selected with `-m uml` like the other UML tests; needs the UML kernel (scripts/uml.sh build).
"""
import pytest

pytestmark = pytest.mark.uml


def test_many_flows_in_a_shallow_buffer_finish_their_tail(run_testbed, tmp_path):
    """100 bbr flows in a 0.1 BDP buffer (the paper's Fig. 8): after the 20 s of sending,
    the flows' send buffers take minutes of RTO backoff to drain (~205 s here). The client
    used to be killed 60 s after its run (exit 124) and the run failed: Fig. 8's 100-flow
    points could not be measured. The tail must not fail the run, and the retransmission
    rate of the run must be there."""
    out = tmp_path / "n100"
    summary = run_testbed(out, "--cc", "bbr", "--rtt", "10", "--flows-per-rtt", "100",
                          "--buffer-bdp", "0.1", "--duration", "20", "--sample-ms", "0",
                          "--trace", "off", "--seed", "1")
    env = dict(line.split("=", 1) for line in
               (out / "bbr" / "run1" / "params.env").read_text().splitlines() if "=" in line)
    assert env["flow_rc_1"] == "0"
    # the case this guards: the tail outlasted the old 60 s allowance
    assert float(env["end_uptime"]) - float(env["t0_uptime"]) > 20 + 60, env
    r = summary["results"][0]
    assert len(r["flows"]) == 100
    assert 0.05 < r["retrans_rate"] < 0.6, r["retrans_rate"]
