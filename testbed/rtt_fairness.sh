#!/usr/bin/env bash
# testbed/rtt_fairness.sh -- RTT-fairness experiment: flows of different base RTT share one
# bottleneck; each congestion control is run separately; then testbed/analyze.py.
set -euo pipefail
# One compound command: the shell reads the whole script before running it, so editing
# the file during a run cannot change the run.
{
# shellcheck source=scripts/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib/common.sh" # die, bad, log, run_child; REPO
# shellcheck source=testbed/lib/backend.sh
source "$REPO/testbed/lib/backend.sh" # choose_backend, guest_run

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
                     each of the same --buffer-bdp (testbed/topology.sh's tb_aqm)
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
Exit status: 0 ok, 1 a run or the analysis failed, 2 bad usage.
EOF
}

CCS=bbr_a_fair,bbr_a,bbr RTTS=10,50 RATE=100 BUFFER_BDP=5 LOSS=0 DURATION=30 WARMUP=5 FLOWS_PER_RTT=1
STAGGER=0 REPEAT=1 SEED=1 JITTER=0 STARTS='' COOLDOWN=1 OUT='' BACKEND=auto KERNEL=6.12 INTERVAL=1
SAMPLE_MS=100 TIMEOUT='' MEM='' ANALYSIS=1 DRY=0 STREAMS=128 CLIENT=auto TRACE=on
QDISC=bfifo QDISC_OPTS='' RATE_SCHEDULE='' SIZES='' ENDS='' GAP=0.1 SCENARIO='' POINT='' FLENT=''
DELAY_SCHEDULE='' DELAY_JITTER='' ACK_AGGREGATION='' OFFLOADS=off RATE_TRACE='' RT_SCHED='' RT_ARG=''
REVERSE='' HOSTS_PER_CLASS=1
MODULE_PARAMS=()
declare -A GIVEN=() # the options of the command line, which a scenario file's do not replace
set_opt() { # set_opt OPTION VALUE
	case $1 in
	--cc) CCS=$2 ;; --rtt) RTTS=$2 ;; --rate) RATE=$2 ;; --buffer-bdp) BUFFER_BDP=$2 ;;
	--loss) LOSS=$2 ;; --duration) DURATION=$2 ;; --warmup) WARMUP=$2 ;;
	--cooldown) COOLDOWN=$2 ;; --flows-per-rtt) FLOWS_PER_RTT=$2 ;; --stagger) STAGGER=$2 ;;
	--starts) STARTS=$2 ;; --repeat) REPEAT=$2 ;; --seed) SEED=$2 ;; --jitter) JITTER=$2 ;;
	--out) OUT=$2 ;; --backend) BACKEND=$2 ;; --kernel) KERNEL=$2 ;;
	--module-param) MODULE_PARAMS+=("$2") ;; --interval) INTERVAL=$2 ;;
	--sample-ms) SAMPLE_MS=$2 ;; --timeout) TIMEOUT=$2 ;; --mem) MEM=$2 ;; --streams) STREAMS=$2 ;;
	--client) CLIENT=$2 ;; --trace) TRACE=$2 ;; --qdisc) QDISC=$2 ;; --qdisc-opts) QDISC_OPTS=$2 ;;
	--rate-schedule) RATE_SCHEDULE=$2 ;; --sizes) SIZES=$2 ;; --ends) ENDS=$2 ;; --gap) GAP=$2 ;;
	--scenario) SCENARIO=$2 ;; --point) POINT=$2 ;; --flent) FLENT=$2 ;;
	--delay-schedule) DELAY_SCHEDULE=$2 ;; --delay-jitter) DELAY_JITTER=$2 ;;
	--ack-aggregation) ACK_AGGREGATION=$2 ;; --offloads) OFFLOADS=$2 ;; --rate-trace) RATE_TRACE=$2 ;;
	--reverse) REVERSE=$2 ;; --hosts-per-class) HOSTS_PER_CLASS=$2 ;;
	*) return 1 ;;
	esac
}
while [[ $# -gt 0 ]]; do
	opt=$1
	case $opt in
	-h | --help) usage; exit 0 ;;
	--dry-run) DRY=1; shift; continue ;;
	--no-analysis) ANALYSIS=0; shift; continue ;;
	--cc | --rtt | --rate | --buffer-bdp | --loss | --duration | --warmup | --cooldown | --flows-per-rtt | \
		--stagger | --starts | --repeat | --seed | --jitter | --out | --backend | --kernel | --module-param | \
		--interval | --sample-ms | --timeout | --mem | --streams | --client | --trace | --qdisc | \
		--qdisc-opts | --rate-schedule | --sizes | --ends | --gap | --scenario | --point | --flent | \
		--delay-schedule | --delay-jitter | --ack-aggregation | --offloads | --rate-trace | --reverse | \
		--hosts-per-class) ;;
	*) bad "unknown option '$opt'" ;;
	esac
	[[ $# -ge 2 ]] || bad "$opt needs a value"
	set_opt "$opt" "$2"
	GIVEN[$opt]=1
	shift 2
done

# ---- a scenario file: its options under the command line's ---------------------------------
# testbed/scenario_file.py checks the file (one line naming the field) and turns it into
# this script's options; a class with a cc of its own makes the items name the others'.
if [[ -n $SCENARIO ]]; then
	[[ -f $SCENARIO || $SCENARIO == /* || ! -f $REPO/$SCENARIO ]] || SCENARIO=$REPO/$SCENARIO
	[[ -f $SCENARIO ]] || bad "--scenario: no file '$SCENARIO'"
	fargs=(options "$SCENARIO")
	[[ -z $POINT ]] || fargs+=(--point "$POINT")
	[[ -z ${GIVEN[--cc]:-} ]] || fargs+=(--cc "$CCS")
	said=$(/usr/bin/python3 "$REPO/testbed/scenario_file.py" "${fargs[@]}" 2>&1) ||
		bad "${said#scenario_file.py: error: }"
	while IFS=$'\t' read -r o v; do
		[[ -n $o ]] || continue
		[[ -n ${GIVEN[$o]:-} && $o != --cc ]] || set_opt "$o" "$v" ||
			die "scenario_file.py gave an unknown option '$o'"
	done <<<"$said"
elif [[ -n $POINT ]]; then
	bad "--point needs --scenario"
fi

scenario_args() { # scenario_args CC SEED OUTDIR BUFFER LOAD: SARGS = the options of one run
	SARGS=(--cc "${1//+/,}" --rtt "$RTTS" --flows-per-rtt "$FLOWS_PER_RTT" --rate "$RATE" --buffer "$4"
		--loss "$LOSS" --duration "$DURATION" --warmup "$WARMUP" --stagger "$STAGGER" --jitter "$JITTER"
		${STARTS:+--starts "$STARTS"} --seed "$2" --interval "$INTERVAL" --sample-ms "$SAMPLE_MS" --out "$3"
		--load "$5" --streams "$STREAMS" --client "$CLIENT" --trace "$TRACE")
	# the bottleneck's and the flows' variety, only when asked for: a run's arguments stay
	# what they were otherwise
	[[ $QDISC == bfifo ]] || SARGS+=(--qdisc "$QDISC")
	[[ -z $QDISC_OPTS ]] || SARGS+=(--qdisc-opts "$(tr -s ' ' , <<<"$QDISC_OPTS")")
	[[ -z $RATE_SCHEDULE ]] || SARGS+=(--rate-schedule "$RATE_SCHEDULE")
	[[ -z $DELAY_SCHEDULE ]] || SARGS+=(--delay-schedule "$DELAY_SCHEDULE")
	[[ -z $DELAY_JITTER ]] || SARGS+=(--delay-jitter "$DELAY_JITTER")
	[[ -z $ACK_AGGREGATION ]] || SARGS+=(--ack-aggregation "$ACK_AGGREGATION")
	[[ $OFFLOADS == off ]] || SARGS+=(--offloads "$OFFLOADS")
	[[ -z $REVERSE ]] || SARGS+=(--reverse "$REVERSE")
	[[ $HOSTS_PER_CLASS == 1 ]] || SARGS+=(--hosts-per-class "$HOSTS_PER_CLASS")
	[[ -z $RT_ARG ]] || SARGS+=(--rate-trace "$RT_ARG") # the schedule (below) where the run reads it
	[[ -z $SIZES ]] || SARGS+=(--sizes "$SIZES" --gap "$GAP")
	[[ -z $ENDS ]] || SARGS+=(--ends "$ENDS")
	[[ -z $FLENT ]] || SARGS+=(--flent "$FLENT")
	local p
	for p in "${MODULE_PARAMS[@]}"; do SARGS+=(--module-param "$p"); done
}

# ---- validate everything before anything is set up ----------------------------------------
# What a run gets is checked by scenario.sh --check, the one implementation of those checks,
# on the arguments the runs will get (below); here only what scenario.sh never sees.
NUM='^([0-9]+([.][0-9]*)?|[.][0-9]+)$'
INT='^[0-9]+$'
isnum() { [[ $1 =~ $NUM ]]; }
isint() { [[ $1 =~ $INT ]]; }
# awk-evaluated comparison of checked numbers: check "EXPR" -> true/false
check() { awk "BEGIN { exit !($1) }"; }

IFS=, read -r -a CC_LIST <<<"$CCS"
IFS=, read -r -a RTT_LIST <<<"$RTTS"
[[ ${#CC_LIST[@]} -gt 0 ]] || bad "--cc is empty"
[[ ,$CCS, != *,,* ]] || bad "--cc: empty item in '$CCS'"
# A '+' item names one cc per RTT class (scenario.sh's --cc A,B): its parts are checked as
# any cc, by scenario.sh --check, after their number. LOAD_CCS: every cc of every item, once,
# in order (scenario.sh --load, so that all runs prepare the kernel alike).
LOAD_CCS=''
for c in "${CC_LIST[@]}"; do
	[[ +$c+ != *++* ]] || bad "--cc: empty part in '$c' (A+B: one cc per RTT class)"
	IFS=+ read -r -a parts <<<"$c"
	if ((${#parts[@]} > 1)) && [[ ,$RTTS, != *,,* ]] && ((${#parts[@]} != ${#RTT_LIST[@]})); then
		bad "--cc: '$c' names ${#parts[@]} ccs, one per RTT class, but --rtt $RTTS has ${#RTT_LIST[@]}"
	fi
	for p in "${parts[@]}"; do [[ ,$LOAD_CCS, == *,"$p",* ]] || LOAD_CCS=$LOAD_CCS${LOAD_CCS:+,}$p; done
done
isnum "$BUFFER_BDP" && check "$BUFFER_BDP > 0 && $BUFFER_BDP <= 10000" ||
	bad "--buffer-bdp: '$BUFFER_BDP' is not a positive multiple"
isnum "$COOLDOWN" || bad "--cooldown: '$COOLDOWN' is not a number of seconds"
isint "$REPEAT" && check "$REPEAT >= 1 && $REPEAT <= 1000" || bad "--repeat: '$REPEAT' is not an integer in 1..1000"
[[ -z $TIMEOUT ]] || { isint "$TIMEOUT" && check "$TIMEOUT > 0"; } || bad "--timeout: '$TIMEOUT' is not a positive integer"
[[ -z $MEM ]] || { isint "$MEM" && check "$MEM >= 128"; } || bad "--mem: '$MEM' is not a size in MB (>= 128)"
case $BACKEND in auto | host | qemu | uml) ;; *) bad "--backend: '$BACKEND' is not auto, host, qemu or uml" ;; esac
check_bbr3 # BBR_A_UML_PATCH's kernel (lib/backend.sh)
[[ $KERNEL =~ ^([1-9][0-9]*\.[0-9]+|newest|oldest)$ ]] ||
	bad "--kernel: '$KERNEL' is not a Debian kernel series (6.1, 6.12, newest ...: scripts/kernels.sh series)"
[[ -n $OUT ]] || OUT=$REPO/results/rtt_fairness-$(date +%Y%m%d-%H%M%S)
if [[ -e $OUT && ! -d $OUT ]]; then bad "--out: '$OUT' exists and is not a directory"; fi
if [[ -d $OUT && -n $(find -H "$OUT" -mindepth 1 -maxdepth 1 ! -name "$RESULTS_TAG" -print -quit) ]]; then
	bad "--out: '$OUT' is not empty"
fi
# --rate-trace: the mahimahi trace becomes the schedule scenario.sh replays, here on the host
# (testbed/rate_trace.py; a bad trace is one line); each run gets a copy in its directory.
if [[ -n $RATE_TRACE ]] && [[ $DURATION =~ ^[0-9]+$ ]]; then
	[[ -z $RATE_SCHEDULE ]] || bad "--rate-trace: give it or --rate-schedule, not both"
	said=$(/usr/bin/python3 "$REPO/testbed/rate_trace.py" schedule "$RATE_TRACE" "$DURATION" 2>&1) ||
		bad "--rate-trace: ${said#rate_trace.py: error: }"
	RT_SCHED=$(mktemp "${TMPDIR:-/tmp}/bbra-rate-trace.XXXXXX") || die "mktemp failed"
	trap 'rm -f "$RT_SCHED"' EXIT
	printf '%s\n' "$said" >"$RT_SCHED"
	RT_ARG=$RT_SCHED
fi
# One check per cc, without --load: its names are these, and a bad one is named as --cc's.
# The buffer is derived below from checked values; a byte stands in for it here.
for c in "${CC_LIST[@]}"; do
	scenario_args "$c" "$SEED" "$OUT/$c/run1" 1 ''
	said=$(sh "$REPO/testbed/scenario.sh" --check "${SARGS[@]}" 2>&1) || bad "${said#scenario: error: }"
done
[[ -z $said ]] || log "${said#scenario: }" # a warning
check "$WARMUP + $COOLDOWN < $DURATION" ||
	bad "--cooldown: '$COOLDOWN' must be a number of seconds, warm-up + cool-down below --duration ($DURATION)"
IFS=, read -r -a FLOW_COUNTS <<<"$FLOWS_PER_RTT" # checked: one count, or one per class
if ((${#FLOW_COUNTS[@]} == 1)); then
	NFLOWS=$((${#RTT_LIST[@]} * 10#$FLOWS_PER_RTT)) FLOWS_SAID="${RTT_LIST[*]} ms x $FLOWS_PER_RTT"
else
	NFLOWS=0 FLOWS_SAID=''
	for i in "${!RTT_LIST[@]}"; do
		NFLOWS=$((NFLOWS + 10#${FLOW_COUNTS[i]}))
		FLOWS_SAID+="${FLOWS_SAID:+, }${FLOW_COUNTS[i]} x ${RTT_LIST[i]} ms"
	done
fi

# buffer: X x BDP of the largest base RTT
MAXRTT=$(printf '%s\n' "${RTT_LIST[@]}" | sort -g | tail -n1)
BDP=$(awk "BEGIN { printf \"%d\", $RATE * 1e6 / 8 * $MAXRTT / 1000 + 0.5 }")
BUFFER=$(awk "BEGIN { printf \"%d\", $BUFFER_BDP * $BDP + 0.5 }")
if ((BUFFER < 1514)); then
	log "warning: $BUFFER_BDP x BDP = $BUFFER B is less than one packet; using 1514 B"
	BUFFER=1514
fi
PKTS=$(awk "BEGIN { printf \"%.1f\", $BUFFER / 1514 }")
log "buffer: $BUFFER_BDP x BDP ($RATE Mbit/s x $MAXRTT ms = $BDP B) = $BUFFER B = $PKTS packets of 1514 B"
log "flows: $NFLOWS ($FLOWS_SAID), ${DURATION} s, measured ${WARMUP}..$(awk "BEGIN { print $DURATION - $COOLDOWN }") s, loss ${LOSS} %; cc: ${CC_LIST[*]} x $REPEAT run(s)"
[[ -n $TIMEOUT ]] || TIMEOUT=$((600 + 30 * DURATION))

# ---- backend, module parameters ------------------------------------------------------------
TICKER=''
cleanup() {
	[[ -z $RT_SCHED ]] || rm -f "$RT_SCHED"
	[[ -z $TICKER ]] || kill "$TICKER" 2>/dev/null || true
	[[ -z $PROBE_NS ]] || ip netns del "$PROBE_NS" 2>/dev/null || true
}
trap cleanup EXIT
trap 'log "interrupted"; stop_child; exit 130' INT
trap 'log "terminated"; stop_child; exit 143' TERM
trap 'log "hung up"; stop_child; exit 129' HUP

# Flows that start one by one (--stagger, --starts, --jitter) each get a client and a sink
# process of their own (lib/flows.sh); in a guest's default 1024 MB a hundred of them leave
# the guest short of memory, and the run takes several times the wall time it takes with
# more. More than 16 such flows get 32 MB each on top, unless --mem says.
if [[ -z $MEM ]] && ((NFLOWS > 16)) &&
	{ [[ -n $STARTS ]] || ! check "$STAGGER == 0 && $JITTER == 0"; }; then
	MEM=$((1024 + 32 * NFLOWS))
	log "guest memory (UML, QEMU): $MEM MB for $NFLOWS flows started one by one (--mem to set it)"
fi

if ((DRY)); then
	# --module-param is checked against the module the runs would load, so a dry run with
	# parameters needs the backend (lib/backend.sh)
	if ((${#MODULE_PARAMS[@]})); then
		[[ $BACKEND != auto ]] || choose_backend
		check_module_params "${MODULE_PARAMS[@]}"
	fi
	log "dry run: backend $BACKEND, out $OUT; would run:"
	for c in "${CC_LIST[@]}"; do
		for ((r = 1; r <= REPEAT; r++)); do
			[[ -z $RT_SCHED ]] || RT_ARG=$OUT/$c/run$r/rate_trace.txt
			scenario_args "$c" $((SEED + r - 1)) "$OUT/$c/run$r" "$BUFFER" "$LOAD_CCS"
			echo "  scenario.sh ${SARGS[*]}"
		done
	done
	exit 0
fi

choose_backend
check_bbr3 # again: auto has become a backend
# The UML kernel and the module are built once, before the runs and their time estimate
# (a first build takes minutes; the estimate would count it as the first run's).
UML_KERNEL_ID=
if [[ $BACKEND == uml ]]; then
	"$REPO/scripts/uml.sh" build >/dev/null || die "the UML kernel could not be built"
	"$REPO/scripts/uml.sh" module >/dev/null || die "tcp_bbr_a.ko could not be built for UML"
	# the kernel built with BBR_A_UML_PATCH, or of BBR_A_UML_SERIES=6.12, is named in every
	# run.env (kernel_id=); the default 6.1 kernel's runs stay as they were
	[[ -z ${BBR_A_UML_PATCH:-} && ${BBR_A_UML_SERIES:-6.1} == 6.1 ]] ||
		UML_KERNEL_ID=uml-$("$REPO/scripts/uml.sh" id) ||
		die "cannot name the UML kernel (scripts/uml.sh id)"
fi
check_module_params "${MODULE_PARAMS[@]}" # before anything is set up
# QEMU's guest image carries python3 and flent only for the runs that need them
# (scripts/lib/initramfs.sh): others keep the small image and its iperf3 client
if [[ $BACKEND == qemu && (-n $FLENT || -n $SIZES || $CLIENT == tcpflow) ]]; then
	export BBR_A_GUEST_PYTHON=1
fi
[[ $ANALYSIS -eq 0 ]] || [[ -x /usr/bin/python3 ]] || die "/usr/bin/python3 is needed for the analysis"
HOST_MACHINE=$(host_machine) # host_cpu= and host_userland= lines of every run.env
# the srchash of the module the runs load (Kbuild: a hash of all its sources, which
# srcversion is not); unknown for a module loaded on the host already
MODULE_SRCHASH=
if [[ $BACKEND != host || ! -d $MODULE_SYS ]] && ko=$(backend_module_ko 2>/dev/null); then
	MODULE_SRCHASH=$(modinfo -F srchash "$ko" 2>/dev/null) || MODULE_SRCHASH=
fi

# ---- runs ------------------------------------------------------------------------------------
results_dir "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
log "results: $OUT"
# Progress: a line every 15 s with the elapsed time and an estimate of what is left, from
# the wall time per simulated second of the runs done so far (before the first one ends:
# the backend's typical ratio, measured on a 2-core machine; see docs/backends.md).
case $BACKEND in qemu) RATIO=8 ;; uml) RATIO=2 ;; *) RATIO=1 ;; esac
NRUNS=$((${#CC_LIST[@]} * REPEAT)) DONE_RUNS=0 DONE_WALL=0 T_START=$(date +%s)
ticker() { # ticker LABEL: runs in the background during one run
	local t0 el left per tick
	t0=$(date +%s)
	# It waits with read's timeout on a pipe only it holds, not with a sleep: a sleep
	# started just before the TERM (its pid not yet kept) outlived the ticker and held the
	# caller's pipes open for 15 s. A trapped TERM interrupts the read at once.
	exec {tick}<> <(:)
	trap 'exit 0' TERM
	while :; do
		read -rt 15 -u "$tick" _ || true
		el=$(($(date +%s) - t0))
		per=$((DURATION * RATIO + 20))
		((DONE_RUNS == 0)) || per=$((DONE_WALL / DONE_RUNS))
		left=$((per - el > 0 ? per - el : 0))
		left=$((left + per * (NRUNS - DONE_RUNS - 1)))
		log "$1: ${el}s, about ${left}s left in all (total so far $(($(date +%s) - T_START))s)"
	done
}
cc_index=0
for c in "${CC_LIST[@]}"; do
	cc_index=$((cc_index + 1))
	for ((r = 1; r <= REPEAT; r++)); do
		dir=$OUT/$c/run$r
		mkdir -p "$dir"
		seed=$((SEED + r - 1))
		log "run $((DONE_RUNS + 1))/$NRUNS: $c #$r (seed $seed) -> $dir"
		start=$(date +%s)
		ticker "run $((DONE_RUNS + 1))/$NRUNS ($c #$r)" &
		TICKER=$!
		[[ -z $RT_SCHED ]] || cp "$RT_SCHED" "$dir/rate_trace.txt"
		if [[ $BACKEND == host ]]; then
			[[ -z $RT_SCHED ]] || RT_ARG=$dir/rate_trace.txt
			scenario_args "$c" "$seed" "$dir" "$BUFFER" "$LOAD_CCS"
			BBR_A_KO=${BBR_A_KO:-$REPO/tcp_bbr_a.ko} run_child sh "$REPO/testbed/scenario.sh" "${SARGS[@]}" ||
				die "run $c #$r failed (raw outputs in $dir)"
		else
			gargs=(--kernel "$KERNEL" --virtual-time --timeout "$TIMEOUT" --out "$dir")
			[[ -z $MEM ]] || gargs+=(--mem "$MEM")
			[[ $BACKEND != uml ]] || gargs+=(--seed "$seed") # UML: seeded, repeatable guest RNG
			# shellcheck disable=SC2016 # the guest's variable
			[[ -z $RT_SCHED ]] || { gargs+=(--file "$dir/rate_trace.txt"); RT_ARG='"$BBR_A_FILES"/rate_trace.txt'; }
			# shellcheck disable=SC2016
			scenario_args "$c" "$seed" '"$BBR_A_OUT"' "$BUFFER" "$LOAD_CCS"
			# shellcheck disable=SC2016
			guest_run "$dir" "${gargs[@]}" -- sh '"$BBR_A_SRC"/testbed/scenario.sh' "${SARGS[*]}" ||
				die "run $c #$r failed in the $KERNEL guest (outputs in $dir)"
		fi
		kill "$TICKER" 2>/dev/null
		TICKER=
		DONE_RUNS=$((DONE_RUNS + 1)) DONE_WALL=$((DONE_WALL + $(date +%s) - start))
		{
			echo "backend=$BACKEND"
			echo "cc_index=$cc_index"
			[[ $BACKEND == host ]] || echo "guest_series=$KERNEL"
			echo "buffer_bdp=$BUFFER_BDP"
			echo "cooldown_s=$COOLDOWN"
			echo "bdp_bytes=$BDP"
			echo "buffer_packets=$PKTS"
			echo "repeat_index=$r"
			echo "wall_s=$(($(date +%s) - start))"
			echo "$HOST_MACHINE"
			echo "module_srchash=$MODULE_SRCHASH"
			[[ -z $UML_KERNEL_ID ]] || echo "kernel_id=$UML_KERNEL_ID"
			[[ -z $SCENARIO ]] || echo "scenario=${SCENARIO#"$REPO"/}${POINT:+ $POINT}"
			[[ -z $RT_SCHED ]] || echo "rate_trace_source=$(basename "$RATE_TRACE") $(sha256sum <"$RATE_TRACE" | cut -c1-16)"
		} >"$dir/run.env"
	done
done

((ANALYSIS)) || { log "done (no analysis): $OUT"; exit 0; }
/usr/bin/python3 "$REPO/testbed/analyze.py" "$OUT" || die "analysis failed"
png=$(/usr/bin/python3 "$REPO/plots/plot.py" --compare "$OUT") || die "plotting failed"
log "picture: $png"
exit
}
