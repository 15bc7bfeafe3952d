#!/usr/bin/python3
"""Analysis of testbed runs (the only place where raw outputs become numbers).

A run directory is what testbed/scenario.sh writes: params.env, flows.txt, flow_starts.txt,
flow<g>.json (one iperf3 client's JSON with the server's JSON inside; it ran the flows of
group g of flows.txt, one TCP connection each), ss_s<k>.txt, tc.txt, ...

    analyze.py DIR [--warmup S] [--summary FILE] [--quiet]
        DIR is a run directory or a tree of them (e.g. results/rtt_fairness-<stamp>/).
        Writes per run: throughput.csv, ss.csv, queue.csv, run_summary.json; and
        summary.json (all runs) in DIR or FILE; prints a table.
    analyze.py --sweep-csv OUT.csv --sweep NAME DIR [DIR...]
        One CSV row per run found under the DIRs (for sweeps and plots/plot.py).
    analyze.py --screen DIR [--screen-csv OUT.csv]
        A testbed/screen.sh tree (DIR/<config>/<scenario>/seed<N>/summary.json): per
        configuration and scenario the mean and 95 % confidence interval (Student t) of
        Jain's index, utilisation, retransmission rate and queueing delay, and for a
        configuration with a cc per RTT class (A+B) each part's share and the harm it does
        to the incumbent B (screen_harm); OUT.csv gets them, OUT_runs.csv one row per run
        (with its provenance and problems); runs that are not results are left out of
        OUT.csv's statistics and counted ("excluded").
    analyze.py --check DIR
        Whether each run of DIR/summary.json is a result (analysis/checks.py: clients that
        finished, flows that lasted the run, a delivery the path explains, no TCP memory
        pressure): exit 0, or 1 naming the problems (screen.sh runs such a job once more).
    analyze.py --trace-bins OUT.csv RUN_DIR [--bin-s S]; analyze.py --cost CSV
        A run's gain trace in time bins; scripts/bench_cost.sh's CPU per byte.
    analyze.py --stress-csv OUT.csv DIR [DIR...]
        One row per tests/stress.sh run (DIR/summary.json): cases, flows, bytes, findings.

The code is the package testbed/analysis/ (one module per job; its __init__ says which).

Definitions (also written into summary.json):
  measured interval  [warmup, duration - cooldown] seconds after the first flow was
                     launched (cooldown: run.env cooldown_s, default 1 s).
  throughput         receiver-side payload bytes of the flow in the measured interval (the
                     iperf3 server's per-interval byte counts, returned in the client's JSON
                     by --get-server-output; intervals straddling an edge are prorated) * 8
                     / interval length.
  utilization        sum of those receiver-side bytes over all flows * 8 /
                     (bottleneck rate * interval length). TCP/IP/Ethernet headers are not
                     counted: with 1448-byte payloads in 1514-byte frames the ceiling is
                     1448/1514 = 0.956.
  jain               (sum x)^2 / (n * sum x^2) over the flows' throughputs x.
  retransmits        iperf3 sender-side retransmitted segments over the whole flow
                     (end.sum_sent.retransmits, i.e. tcpi_total_retrans).
  retrans_rate       retransmitted / sent data segments over the whole flow, both from the
                     flow's last ss snapshot (tcp_info total_retrans / data_segs_out;
                     data_segs_out counts retransmissions too). Without ss data:
                     retransmits / (bytes_sent / MSS + retransmits) from iperf3.
  queue delay        bottleneck bfifo backlog bytes * 8 / rate, from the tc -s samples in
                     the measured interval; per flow also mean(ss srtt - base RTT).
  per_cc, per_class  the flows' throughput summed per cc and per RTT class (a run of an
                     A+B item has one cc per class), and its share of all flows' throughput.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analysis.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
