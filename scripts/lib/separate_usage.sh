# scripts/lib/separate_usage.sh -- scripts/separate_kernels.sh's --help.
# shellcheck shell=bash
# Sourced by separate_kernels.sh; defines usage only. Uses PROG (common.sh).
{
usage() {
	cat <<EOF
Usage: scripts/$PROG [options]

The testbed's dumbbell (testbed/topology.sh) with the senders in separate kernels: sender
class k is UML guest s<k> (10.1.k.2, one default cc, tcp_bbr_a loaded), the router and the
receiver are a third guest (namespaces r and d: netem with the class's base RTT on r's link
toward s<k>, the htb bottleneck and its bfifo on r's link to d, a tcpflow.py sink per
class in d). Each link is two host taps on a host bridge. The guests run in real time, at
a rate they must hold: a calibration run (a lone cubic flow) and every run are checked for
it (the bottleneck's load, the testbed's bottleneck_load, at least 0.95). Each run's
outputs become a testbed run directory (testbed/analyze.py: summary.json as
testbed/rtt_fairness.sh's).

  --cc LIST          comma separated items, one run each (default bbr_a_fair,bbr); an item
                     is a cc for every flow, or one per class joined by '+'
  --rtt LIST         base RTTs in ms, one sender guest each, 1..4 classes (default 10,50)
  --rate MBIT        bottleneck rate, Mbit/s (default 20)
  --buffer-bdp X     buffer = X x rate x the largest RTT (default 5)
  --flows-per-rtt N  flows per class, 1..16, one client in its guest (default 1)
  --duration S       whole seconds of traffic, 10..3600 (default 60)
  --warmup S         seconds left out of the statistics at the start (default 10)
  --seeds LIST       comma separated; one run per cc item and seed (the guests' RNG; real
                     time: a run does not repeat) (default 1)
  --sample-ms MS     the router's qdisc and the senders' sockets sampled, 10..1000 (default 100)
  --calibrate S      the lone cubic flow's seconds before the runs, 0 = none (default 20);
                     the runs start only if it held the rate
  --module-param K=V tcp_bbr_a module parameter in every sender guest (repeatable)
  --boot-stagger S   sender k's guest boots a random 0..S s (from the seed) after the
                     router's, so that the senders' jiffies have phases of their own, as
                     hosts booted at other times do (bbr_a_fair's PROBE_RTT grid follows
                     the wall clock since 0.22.0: --clock-offset); 0: all at once
                     (default 10); params.env boot_delay_s<k>, grid_phase_s<k> (jiffies)
  --clock-offset MS  sender k's wall clock is set a random -MS..+MS ms (from the seed) off the
                     host's before its module loads, as NTP leaves hosts' clocks apart:
                     bbr_a_fair's PROBE_RTT grid is the wall clock's (default 0: the guests,
                     in real time, read the host's clock); params.env clock_offset_ms_s<k>
  --mem MB           each guest's memory (default 512)
  --rt-prio P        the guests run SCHED_FIFO at priority P, 1..99, 0 = the host's
                     default scheduling (default 10): on a loaded host a guest woken late
                     loses its htb's tokens (below); the kernel's RT throttling
                     (sched_rt_runtime_us) keeps a share of every core for the rest
  --out DIR          results, must be new or empty (default results/separate_kernels-<stamp>):
                     DIR/runs/<item>/run<r> and their DIR/runs/summary.json (as
                     rtt_fairness.sh's OUT), DIR/calibration/, DIR/separate.json (the
                     rate held, CPU)
  --dry-run          check the options, print the plan; set nothing up
  -h, --help         this text

Needs root (host taps and bridges), /dev/net/tun and the UML kernel's "net" variant
(BBR_A_UML_VARIANT=net scripts/uml.sh build: built here when missing). Stopping (Ctrl-C,
TERM) or a failure kills the guests and removes the taps and bridges. Exit status: 0 ok,
1 a run failed or did not hold the rate, 2 bad usage.
EOF
}
}
