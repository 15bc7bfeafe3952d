# testbed/lib/usage.sh -- scenario.sh's --help: the text of its options.
# shellcheck shell=sh
# POSIX sh, sourced by scenario.sh only for --help (a run reads no more than it did).
{

usage() {
	cat <<'EOF'
usage: scenario.sh --rtt MS[,MS...] --rate MBIT --buffer BYTES --duration S --out DIR [options]

  --cc CC[,CC...]      congestion control: one for all flows, or one per RTT class (default bbr)
  --rtt MS[,MS...]     base RTT of each sender class, ms (0 < ms <= 10000)
  --flows-per-rtt N    flows per RTT class, 1..1000 (default 1), or a comma separated count per
                       class (1,4); flows alternate between the classes that have flows left
  --rate MBIT          bottleneck rate, Mbit/s (0 < r <= 100000)
  --buffer BYTES       bottleneck buffer (bfifo limit), bytes
  --loss PCT           random loss after the bottleneck, percent, below 100 (default 0)
  --duration S         whole seconds, 1..100000; every flow ends at about S after the first start
  --warmup S           recorded for the analysis, below --duration (default 5)
  --stagger S          seconds between consecutive flow starts (default 0)
  --starts S,S,...     explicit start offset of every flow, seconds (overrides --stagger)
  --jitter S           extra random start delay in [0,S), drawn from --seed (default 0)
  --seed N             seed for the jitter; recorded (default 1)
  --interval S         report interval of the traffic's receiver, 0.1..60 (default 1)
  --client C           the traffic: tcpflow (testbed/tcpflow.py bulk/sink, blocking writes),
                       iperf3, or auto: tcpflow where python3 is installed, else iperf3
                       (default auto); both write iperf3's JSON; recorded as client=
  --sample-ms MS       ss/tc sampling period, 0 = off (default 100)
  --trace on|off       the module's gain trace, read after the flows (default on)
  --module-param K=V   tcp_bbr_a module parameter (repeatable)
  --load CC[,CC...]    also make these congestion controls available before the run, in this
                       order (rtt_fairness.sh passes all ccs it compares, so that every run
                       of a comparison prepares the kernel with the same commands)
  --insmod KO[,KO...]  insmod these module files first, each unless loaded (congestion controls
                       the kernel lacks, dependencies first; a --module-src module); a module
                       that does not load ends the run; those loaded are unloaded at the end
  --port-base P        first receiver port (default 5201)
  --qdisc Q            the bottleneck's queue: bfifo (default), pfifo, red, codel, fq_codel, each
                       holding at most --buffer bytes (lib/bottleneck.sh's tb_aqm: RED's thresholds)
  --qdisc-opts O,O     more tc options for that qdisc, comma separated (target,10ms), appended
  --rate-schedule T:MBIT,...  the bottleneck's rate becomes MBIT at T s after the first start
                       (--rate until the first T); the changes' times in rate_changes.txt
  --delay-schedule CLASS:T:MS,...  sender class CLASS (its position in --rtt, from 1) has a
                       base RTT of MS from T s after the first start on (a route change; times
                       in order, several per class); the changes in delay_changes.txt
  --delay-jitter MS[:DIST][:reorder]  every sender path's delay varies by up to MS ms (at
                       most the smallest --rtt) around its base RTT, drawn from DIST (uniform,
                       default, normal, pareto, paretonormal); packets keep their order
                       unless 'reorder' is given (testbed/README.md, Paths that change)
  --ack-aggregation MIN_MS[:MAX_MS[:PACKETS]]  every sender path releases its ACKs in bursts:
                       at slots MIN..MAX ms apart (uniform; MAX = MIN if not given), at most
                       PACKETS per slot (default all): netem's slot
  --offloads on|off    on: GSO and GRO on at the end hosts' interfaces, as real hosts run them
                       (TSO stays off: on a veth it would cut packets after the bottleneck;
                       testbed/README.md says what a veth can model); default off
  --rate-trace FILE    the bottleneck's rate replayed from FILE, one 'T MBIT' line per change
                       (T s after the first start, from 0; testbed/rate_trace.py makes it from
                       a mahimahi trace); --rate sizes nothing else; not with --rate-schedule
  --reverse N[:CC]     N bulk flows the other way, from the receiver's namespace to the senders'
                       (flow j to class (j-1) mod classes + 1), cc CC (default cubic), on ports
                       after the forward flows'; their data shares the ACK paths; reverse.txt
  --hosts-per-class N  each class's flows spread round-robin over N sender hosts (namespaces
                       s<k>, s<k>h2..s<k>hN, each with its own veth, address and netem;
                       1..64, at most the class's flows; not with --flent) (default 1);
                       hosts.txt says which flow ran on which
  --sizes B,...        per flow: bytes it sends, then it ends (0: until its end), or a train
                       B1/B2/...: connections of these sizes in turn, each --gap s after the
                       previous one completed, until the flow's end (needs --client tcpflow)
  --gap S              a train's pause between a completion and the next start (default 0.1)
  --ends S,...         per flow: when it stops, s after the first start (0: the run's end)
  --flent TEST         the traffic is flent's TEST instead (tcp_1up, tcp_nup, rtt_fair_var_down;
                       testbed/lib/flent.sh says where each part runs); its *.flent.gz in flent/
  --streams N          at most N flows per client process (1..128, default 128): flows of one
                       RTT class that start together run as one client (iperf3 -P, tcpflow
                       --streams; its own TCP connection each); 1 = one process per flow
  --out DIR            output directory (created)
  --plan               print the flow table and the client processes, run nothing (no root)
  --check              check the options and exit: status 0, or 2 with a message (no root)
Every flow must start before the last half second. Exit status: 0 ok, 1 the run failed,
2 bad usage.
Env: BBR_A_KO = tcp_bbr_a.ko to insmod when one of its ccs (bbr_a, bbr_a_fair, bbq, da_bbr) is
asked for and it is not loaded (default: tcp_bbr_a.ko next to testbed/); a module found
loaded gets the --module-param values and has its own back at the end.
TB_PREFIX = namespace prefix (default bbra<pid>-).
EOF
}
}
