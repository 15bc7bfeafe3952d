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
# shellcheck source=testbed/lib/rtt_fairness_usage.sh
source "$REPO/testbed/lib/rtt_fairness_usage.sh" # usage
# shellcheck source=testbed/lib/rtt_fairness_options.sh
source "$REPO/testbed/lib/rtt_fairness_options.sh" # the defaults, parse_options, scenario_args
# shellcheck source=testbed/lib/rtt_fairness_runs.sh
source "$REPO/testbed/lib/rtt_fairness_runs.sh" # ticker, run_one, run_env
# shellcheck source=testbed/lib/ccs.sh
source "$REPO/testbed/lib/ccs.sh" # check_ccs
# shellcheck source=testbed/lib/module_src.sh
source "$REPO/testbed/lib/module_src.sh" # modsrc_check, modsrc_build

parse_options "$@"
scenario_file_options # a scenario file's options, under the command line's

# ---- validate everything before anything is set up ----------------------------------------
# What a run gets is checked by scenario.sh --check, the one implementation of those checks,
# on the arguments the runs will get (below); here only what scenario.sh never sees.
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
[[ -z $MODULE_SRC ]] || modsrc_check "$MODULE_SRC" # MODSRC, its ccs (lib/module_src.sh)
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
# A dry run checks a cc not every backend has against the backend's kernel here (the real
# runs do below, building what they load): that needs the backend (lib/ccs.sh).
if ((DRY)) && ccs_beyond_common; then
	[[ $BACKEND != auto ]] || choose_backend
	check_ccs
fi
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
# before anything is set up: a cc not every backend has, checked and built (CC_KOS, what the
# runs insmod); runs of the common ones check and load nothing more than before (lib/ccs.sh)
! ccs_beyond_common || check_ccs build
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
# Progress lines: lib/rtt_fairness_runs.sh's ticker.
case $BACKEND in qemu) RATIO=8 ;; uml) RATIO=2 ;; *) RATIO=1 ;; esac
NRUNS=$((${#CC_LIST[@]} * REPEAT)) DONE_RUNS=0 DONE_WALL=0 T_START=$(date +%s)
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
		run_one "$c" "$r" "$dir" "$seed"
		kill "$TICKER" 2>/dev/null
		TICKER=
		DONE_RUNS=$((DONE_RUNS + 1)) DONE_WALL=$((DONE_WALL + $(date +%s) - start))
		run_env "$cc_index" "$r" "$start" >"$dir/run.env"
	done
done

((ANALYSIS)) || { log "done (no analysis): $OUT"; exit 0; }
/usr/bin/python3 "$REPO/testbed/analyze.py" "$OUT" || die "analysis failed"
png=$(/usr/bin/python3 "$REPO/plots/plot.py" --compare "$OUT") || die "plotting failed"
log "picture: $png"
exit
}
