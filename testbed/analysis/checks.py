"""Whether a run is a result. A run whose traffic failed, or whose link carried far less
than it could with nothing on the path to explain it, measured the testbed, not the
congestion control: such a run is kept and reported, and the tables leave it out (with a
count). The checks read only a summary.json result, so committed results are checked too;
those made before a check's input was recorded pass that check.

    client      a traffic client exited with an error (params.env flow_rc_<g>, flows_failed)
    short run   the clients were done before the run's duration had passed
    short flow  a flow's receiver intervals do not cover the measured interval (span_s),
                unless it was planned so: a finite flow (size), one that leaves (end_s)
                or one started after the interval's start
    delivery    under half the link's payload ceiling without random loss, and with under
                1 % of segments retransmitted: nothing the path does explains it; not
                applied to runs with finite flows (--sizes), whose link idles by design
                once they complete, and whose trains' bytes the utilisation leaves out
    memory      TCP entered memory pressure (netstat TCPMemoryPressures in any end host):
                its receivers then clamp their windows to 4 segments (testbed/topology.sh)

A flow whose connection the network never let happen (tcpflow.py bulk: the kernel gave up
on the handshake, run_summary.json flows_not_connected) does not make a run fail: the run's
metrics are those of the flows that ran, and notes() names the missing ones.

Known case: Fig. 6's cubic at 50 and 100 BDP, 0.19..0.22 of the link in 18..21 s of wall
time, fell under the memory rule (docs/reproduction.md); its delivery check catches it.
"""
from .common import PAYLOAD_CEILING, num

DELIVERY_SHARE = 0.5  # of the payload ceiling
DELIVERY_RETRANS = 0.01  # retransmitted share below which loss does not explain it
SLACK_S = 1.0  # how far a flow's intervals may end short of the measured interval


def problems(r):
    """What keeps summary.json result r from being a result: a list of short reasons, empty
    for a result."""
    p = r.get("params", {})
    out = []
    failed = [f"{k.split('_rc_')[1]}: {v}" for k, v in sorted(p.items())
              if k.startswith(("flow_rc_", "flent_rc_")) and v not in ("0", "")]
    if failed or p.get("flows_failed", "0") not in ("0", ""):
        out.append("client failed (" + (", ".join(failed) or f"{p['flows_failed']} failed")
                   + ")")
    dur, t0, t1 = (num(p.get(k)) for k in ("duration_s", "t0_uptime", "end_uptime"))
    if None not in (dur, t0, t1) and t1 - t0 < dur - SLACK_S and not p.get("sizes"):
        out.append(f"short run ({t1 - t0:.1f} of {dur:g} s)")
    w0, w1 = (r.get("interval_s") or [None, None])[:2]
    for f in r.get("flows", []):
        span = f.get("span_s")
        if f.get("size") or f.get("end_s") is not None or (
                w0 is not None and (f.get("start_s") or 0) > w0 + SLACK_S):
            continue  # planned so: finite, leaving, or joining after the interval's start
        if span and w0 is not None and (span[0] > w0 + SLACK_S or span[1] < w1 - SLACK_S):
            out.append(f"short flow {f.get('index')} (received {span[0]:g}..{span[1]:g} s, "
                       f"measured {w0:g}..{w1:g} s)")
    loss = num(r.get("loss_pct", p.get("loss_pct"))) or 0
    util, retx = r.get("utilization"), r.get("retrans_rate")
    if (util is not None and util < DELIVERY_SHARE * PAYLOAD_CEILING and loss == 0
            and (retx or 0) < DELIVERY_RETRANS and not p.get("sizes")):
        out.append(f"delivery ({util:.3f} of the link without loss, "
                   f"{100 * (retx or 0):.2f} % retransmitted)")
    if r.get("tcp_memory_pressures"):
        out.append(f"memory (TCP memory pressure {r['tcp_memory_pressures']} times)")
    return out


def notes(r):
    """What a reader of summary.json result r should know that does not keep it from being a
    result: the flows that never connected (list of short remarks, empty if none)."""
    lost = r.get("flows_not_connected") or []
    if not lost:
        return []
    ran = len(r.get("flows", []))
    return [f"{len(lost)} of {ran + len(lost)} flows never connected ("
            + ", ".join(f"flow {f['index']}: {f['error']}" for f in lost[:5])
            + (", ..." if len(lost) > 5 else "") + ")"]
