# testbed/lib/rtt_fairness_usage.sh -- rtt_fairness.sh's --help.
# shellcheck shell=bash
# Sourced by rtt_fairness.sh; defines usage only. Uses PROG (scripts/lib/common.sh).
{
usage() {
	cat <<EOF
Usage: testbed/$PROG [options]

Runs, for each item of --cc (separately), a dumbbell with one flow per base RTT in --rtt
(times --flows-per-rtt) through an htb bottleneck of --rate with a bfifo of --buffer-bdp x
BDP, then analyses all runs (summary.json and a table in --out).

  --cc LIST          comma separated items, one run each (default bbr_a_fair,bbr_a,bbr); an item is a
                     congestion control for every flow, or one per RTT class joined by '+':
                     --cc bbr_a_fair+cubic,bbr+cubic --rtt 20,20 is two runs, each with a
                     20 ms flow of bbr_a_fair (bbr) and one of cubic; results in
                     OUT/<item>/run<r>
  --rtt LIST         base RTTs in ms, comma separated, one sender class each (default 10,50)
  --rate MBIT        bottleneck rate, Mbit/s (default 100)
  --buffer-bdp X     buffer = X x rate x largest base RTT (default 5); prints bytes/packets
  --loss PCT         random loss after the bottleneck, percent, 0 <= PCT < 100 (default 0)
  --duration S       whole seconds of traffic (default 30)
  --warmup S         seconds excluded from the statistics at the start (default 5)
  --cooldown S       seconds excluded at the end, where flows stop (default 1)
  --flows-per-rtt N  flows per RTT class (default 1), or a comma separated count per class:
                     --cc bbr_a_fair+cubic --rtt 20,20 --flows-per-rtt 1,4 is 1 against 4
  --streams N        flows per iperf3 client, 1..128: flows of a class that start together
                     share one client (-P), one TCP connection each (default 128)
  --stagger S        seconds between consecutive flow starts (default 0)
  --starts LIST      explicit start offset (s) of every flow, comma separated; flows
                     alternate between RTT classes (overrides --stagger)
  --repeat N         runs per congestion control (default 1); run r uses seed+r-1
  --seed N           seed: start-time jitter; with --backend uml also the guest's RNG
                     (repeatable runs); recorded (default 1)
  --jitter S         random extra start delay per flow in [0,S) from the seed (default 0)
  --out DIR          results directory, must be new or empty
                     (default results/rtt_fairness-<timestamp>)
  --backend B        auto|host|qemu|uml (default auto: host if root, the host kernel loads
                     modules and netem works in a scratch namespace; else uml)
  --kernel K         Debian kernel series for the qemu backend: 6.1, 6.12, newest ...
                     (scripts/kernels.sh series; default 6.12)
  --module-param K=V tcp_bbr_a module parameter, e.g. adaptive=0 (repeatable); name and
                     value are checked against the parameters of the module the runs load
                     (modinfo -p: name, [lo..hi] range), also with --dry-run
  --module-src DIR   a congestion control of your own: DIR holds its source (a .c and a
                     Kbuild, or a Makefile with obj-m), built against the kernel the runs
                     boot and loaded beside tcp_bbr_a; the names of its struct
                     tcp_congestion_ops (.name) become ccs for --cc (examples/cc: example).
                     Recorded in run.env (module_src, module_src_hash, module_src_ccs)
  --interval S       receiver report interval (default 1)
  --client C         auto|tcpflow|iperf3: the traffic's sender and receiver (default auto:
                     testbed/tcpflow.py where the guest or host has python3 (host, uml;
                     qemu for finite flows, trains and flent), else iperf3 (qemu); same
                     JSON, see testbed/README.md)
  --sample-ms MS     ss/tc sampling period, 0 = off (default 100)
  --trace on|off     the module's gain trace (bbr_a:bbr_a_gain events, read after the
                     flows; it does not change a run) (default on)
  --timeout S        wall-clock limit per guest run (default 600 + 30 x duration)
  --mem MB           guest memory (default: guest runner's)
  --no-analysis      only run; analyse later with testbed/analyze.py DIR
  --scenario FILE    a scenario file (testbed/scenarios/*.ini, testbed/scenario_file.py):
                     its options, under the ones given here (--duration 10 shortens it);
                     a relative FILE not found here is taken from the repository
  --point NAME       the file's point (variant) to run, for a file with [point.*] sections
  --qdisc Q          the bottleneck's queue: bfifo (default), pfifo, red, codel, fq_codel,
                     each of the same --buffer-bdp (testbed/lib/bottleneck.sh's tb_aqm)
  --qdisc-opts "O"   more tc options for it, appended (e.g. "target 10ms")
  --rate-schedule T:MBIT,...  the bottleneck's rate from T s after the first start on
  --delay-schedule CLASS:T:MS,...  route changes: sender class CLASS (the position of its
                     RTT in --rtt, from 1) has a base RTT of MS from T s after the first
                     start on; times in order, several per class (1:20:25,1:80:10)
  --delay-jitter MS[:DIST][:reorder]  RTT variation on every sender path: up to MS ms (at
                     most the smallest --rtt) around the base RTT, DIST uniform (default),
                     normal, pareto or paretonormal; in order unless ':reorder' (5:normal)
  --ack-aggregation MIN_MS[:MAX_MS[:PACKETS]]  ACKs released in bursts on every sender
                     path, at slots MIN..MAX ms apart, at most PACKETS each (2:8, 4:4:16)
  --offloads on|off  on: GSO and GRO on at the end hosts (TSO off: testbed/README.md,
                     Paths that change) (default off: the shaper sees 1514-byte frames)
  --rate-trace FILE  the bottleneck's rate replayed from a mahimahi trace (one line per
                     1500-byte opportunity, its ms; mahimahi's LTE traces), the
                     count per 100 ms as the htb's rate, repeated for a longer run
                     (testbed/rate_trace.py); --rate then only sizes the buffer
  --reverse N[:CC]   N bulk flows the other way, from the receiver to the senders (flow j
                     to class (j-1) mod classes + 1) with cc CC (default cubic), sharing the
                     ACK paths; summary.json's "reverse", out of every forward metric
  --hosts-per-class N  each RTT class's flows spread round-robin over N sender hosts
                     (namespaces with their own veth, address and netem: separate hosts
                     on one kernel; testbed/README.md) (default 1)
  --sizes B,...      per flow (in the flow table's order): bytes, then it ends (0: until
                     its end), or a train B1/B2/... of connections (scenario.sh --sizes)
  --gap S            a train's pause after each completion (default 0.1)
  --ends S,...       per flow: when it stops, s after the first start (0: the run's end)
  --flent TEST       the traffic is flent's TEST (tcp_1up, tcp_nup, rtt_fair_var_down) in the
                     same namespaces (testbed/lib/flent.sh); its data files in RUN/flent/,
                     plotted by flent: plots/plot.py --flent OUT
  --dry-run          validate and print the plan; set nothing up
  -h, --help         this text

Backends: host = testbed/scenario.sh run directly as root (tcp_bbr_a.ko from BBR_A_KO or
the repository root is insmod-ed if bbr_a is not loaded; a loaded module's parameter names
are those --module-param is checked against); qemu/uml = scripts/guest.sh with
--virtual-time; a QEMU guest whose kernel faults with no tcp_bbr_a code in the report is
run once more (said on screen; its console is kept).
bbr3 is BBRv3, which exists only as a kernel patch: with BBR_A_UML_PATCH=FILE (a BBRv3
patch for Linux 6.12) the uml backend runs a 6.12 kernel built with it, where the kernel's
"bbr" is BBRv3, named bbr3 in every output; plain bbr (BBRv1) is then refused (run it
without BBR_A_UML_PATCH), and each run.env names the kernel (kernel_id=). See
docs/backends.md. BBR_A_UML_SERIES=6.12 runs the same 6.12 kernel without the patch (its
bbr is BBRv1, named bbr; the control for the move from 6.1), also named in each run.env;
it and BBR_A_UML_PATCH exclude each other.
A cc of --cc is tcp_bbr_a's (bbr_a, bbr_a_fair, bbq, da_bbr), a --module-src one, bbr3 (below)
or one of the backend's kernel: on uml the UML kernel's built-in reno, cubic and bbr and the
others of its net/ipv4 (vegas, westwood, htcp, dctcp ...: built here as modules, once); on
qemu and host the Debian kernel's modules. Any other name is refused before anything starts.
Exit status: 0 ok, 1 a run or the analysis failed, 2 bad usage.
EOF
}
}
