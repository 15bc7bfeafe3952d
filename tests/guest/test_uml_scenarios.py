"""Every shipped scenario file (testbed/scenarios/*.ini) runs on UML from one command,
rtt_fairness.sh --scenario FILE, in a short form (a shorter --duration, one point, one cc),
and its run carries what the file asks for: the qdisc, the rate schedule's phases, the
finite flows' completion times, the newcomer's convergence, the loss, flent's data.

Opt-in (about 2 to 4 minutes of wall time; the full suite has no room for it):

    BBR_A_SCENARIO_TEST=1 /usr/bin/python3 -m pytest -q -p no:cacheprovider \\
        tests/guest/test_uml_scenarios.py

A scenario file added to testbed/scenarios/ without a short form here fails
test_every_shipped_scenario_has_a_short_form, so it cannot ship unchecked.
"""
import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = REPO / "testbed" / "scenarios"

# file -> (the options that shorten it, the check of its run's result)
SHORT = {
    "aqm-rate-step.ini": ["--point", "codel", "--cc", "bbr_a", "--duration", "9",
                          "--rate-schedule", "3:20,6:10"],
    "coexist-aqm.ini": ["--point", "step-codel", "--cc", "bbr_a_fair+cubic", "--duration", "9",
                        "--warmup", "1", "--rate-schedule", "3:50,6:100"],
    "coexist-aqm-solo.ini": ["--point", "fq_codel", "--duration", "6", "--warmup", "1"],
    "convergence.ini": ["--point", "rtt16", "--cc", "bbr_a", "--duration", "14"],
    "fct-mixed.ini": ["--point", "r70-b1", "--cc", "bbr_a", "--duration", "8"],
    "flent-rtt-fair.ini": ["--cc", "bbr_a", "--duration", "8", "--warmup", "2"],
    "flent-tcp-nup.ini": ["--cc", "cubic", "--duration", "8", "--warmup", "2"],
    "late-join.ini": ["--point", "short-joins", "--cc", "bbr_a_fair", "--duration", "14",
                      "--warmup", "8", "--starts", "6,0"],
    "leave.ini": ["--point", "cubic-leaves", "--cc", "bbr_a_fair", "--duration", "16",
                  "--ends", "0,8"],
    "loss-sweep.ini": ["--point", "l1", "--cc", "bbr_a", "--duration", "8"],
    "route-change.ini": ["--point", "up15", "--cc", "bbr_a_fair", "--duration", "10",
                         "--warmup", "6", "--delay-schedule", "1:3:25"],
    "route-change-loss.ini": ["--point", "up15-loss", "--cc", "bbr_a_fair", "--duration", "10",
                              "--warmup", "6", "--delay-schedule", "1:3:25"],
    "route-change-solo.ini": ["--point", "up20", "--cc", "bbr", "--duration", "8",
                              "--warmup", "5", "--delay-schedule", "1:3:40"],
    "path-conditions.ini": ["--point", "jitter5-b5", "--cc", "bbr_a_fair", "--duration", "8",
                            "--warmup", "3"],
    "path-conditions-cubic.ini": ["--point", "ackagg-b1", "--cc", "bbr_a_fair+cubic",
                                  "--duration", "8", "--warmup", "3"],
    "cellular.ini": ["--point", "verizon", "--cc", "bbr_a_fair", "--duration", "8",
                     "--warmup", "2"],
    "cellular-solo.ini": ["--point", "att", "--cc", "bbr", "--duration", "8", "--warmup", "2"],
    "peer-order.ini": ["--point", "o20-b2", "--cc", "bbr_a_fair+cubic", "--duration", "12",
                       "--warmup", "6", "--starts", "0,4"],
}


def check_aqm(r):
    assert r["params"]["qdisc"] == "codel"
    rates = [p["rate_mbit"] for p in r["evaluation"]["phases"]]
    assert rates == [10, 20, 10], rates
    # CoDel keeps the queue far below the 8 BDP tail drop would let it fill
    assert r["evaluation"]["phases"][0]["qdelay_mean_ms"] < 50


def check_coexist_aqm(r):
    # one flow of each cc under CoDel, the rate stepping down and back; both move data
    assert r["params"]["qdisc"] == "codel"
    rates = [p["rate_mbit"] for p in r["evaluation"]["phases"]]
    assert rates == [100, 50, 100], rates
    assert [f["cc"] for f in r["flows"]] == ["bbr_a_fair", "cubic"]
    assert all(0.05 < r["per_cc"][cc]["share"] < 0.95 for cc in ("bbr_a_fair", "cubic")), r["per_cc"]


def check_coexist_aqm_solo(r):
    assert r["params"]["qdisc"] == "fq_codel"
    assert [f["cc"] for f in r["flows"]] == ["cubic"]
    assert r["utilization"] > 0.5, r["utilization"]


def check_convergence(r):
    c = r["evaluation"]["convergence_s"]["2"]["80"]["first"]
    assert c is not None and 0 <= c <= 4, c


def check_late_join(r):
    # the newcomer is the 10 ms flow (the first class), which joins the 50 ms one at 6 s
    conv = r["evaluation"]["convergence_s"]
    assert list(conv) == ["1"], conv
    c = conv["1"]["80"]["first"]
    assert c is not None and 0 <= c <= 6, c


def check_leave(r):
    # cubic (the second flow) leaves at 8 s: bbr_a_fair refills the link within the 8 s left
    # and the queue after it is reported for the one full 10 s window there is not
    ev = r["evaluation"]
    assert list(ev["refill_s"]) == ["2"], ev["refill_s"]
    t = ev["refill_s"]["2"]["80"]
    assert t is not None and 0 < t <= 8, t
    assert ev["queue_after_leave_ms"] == [], ev["queue_after_leave_ms"]


def check_fct(r):
    fct = r["evaluation"]["fct"]
    assert fct["100000"]["n"] >= 1 and fct["100000"]["p50_ms"] >= 45, fct


def check_flent(r):
    assert r["params"]["client"] == "flent" and r["flent"]["files"]


def check_route_change(r):
    # the short class's path moved to the schedule's RTT at its time
    ch = r["delay_changes"]
    assert len(ch) == 1 and ch[0]["class"] == 1 and abs(ch[0]["t_s"] - 3) < 0.2, ch
    assert r["utilization"] > 0.5, r["utilization"]


def check_loss(r):
    # bbr_a keeps most of the link at 1 % random loss (a short window: no tighter bound)
    assert r["loss_pct"] == 1.0 and r["utilization"] > 0.3, r["utilization"]


def check_conditions(r):
    # the point's one change from the clean path reached the run
    p = r["params"]
    assert p.get("delay_jitter", "").startswith("5:") or p.get("ack_aggregation"), p
    assert r["utilization"] > 0.5, r["utilization"]


def check_peer_order(r):
    # the item's first cc runs the class that starts first, the second joins it later; both
    # move data once both run (bbr3 needs its own kernel: the short form pairs cubic)
    assert [(f["cc"], f["start_s"]) for f in r["flows"]] == [("bbr_a_fair", 0), ("cubic", 4)], \
        r["flows"]
    assert all(0.05 < r["per_cc"][cc]["share"] < 0.95 for cc in ("bbr_a_fair", "cubic")), r["per_cc"]


def check_cellular(r):
    # the trace's schedule drove the rate, and the flows' RTT delay tail is reported
    assert r["params"]["rate_trace_source"].split()[0].endswith(".down"), r["params"]
    assert r["rtt_queueing_p95_ms"] is not None, r.get("rtt_queueing_p95_ms")


CHECKS = {"aqm-rate-step.ini": check_aqm, "coexist-aqm.ini": check_coexist_aqm,
          "coexist-aqm-solo.ini": check_coexist_aqm_solo, "convergence.ini": check_convergence,
          "fct-mixed.ini": check_fct, "flent-rtt-fair.ini": check_flent,
          "flent-tcp-nup.ini": check_flent, "late-join.ini": check_late_join,
          "leave.ini": check_leave, "loss-sweep.ini": check_loss,
          "route-change.ini": check_route_change, "route-change-solo.ini": check_route_change,
          "route-change-loss.ini": check_route_change,
          "path-conditions.ini": check_conditions,
          "path-conditions-cubic.ini": check_conditions,
          "cellular.ini": check_cellular, "cellular-solo.ini": check_cellular,
          "peer-order.ini": check_peer_order}


def test_every_shipped_scenario_has_a_short_form():
    shipped = sorted(p.name for p in SCENARIOS.glob("*.ini"))
    assert shipped == sorted(SHORT) == sorted(CHECKS)


@pytest.mark.uml
@pytest.mark.skipif(os.environ.get("BBR_A_SCENARIO_TEST") != "1",
                    reason="opt-in: BBR_A_SCENARIO_TEST=1 (a UML run per scenario file)")
@pytest.mark.parametrize("name", sorted(SHORT))
def test_scenario_runs_in_the_guest(name, run_testbed, tmp_path):
    if name.startswith("flent") and not shutil.which("flent"):
        pytest.fail("flent is missing: scripts/setup.sh installs flent and netperf")
    out = tmp_path / "run"
    summary = run_testbed(out, "--scenario", f"testbed/scenarios/{name}", "--seed", "1",
                          *SHORT[name])
    r = summary["results"][0]
    assert r["problems"] == [], r["problems"]
    CHECKS[name](r)
