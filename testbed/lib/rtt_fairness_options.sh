# testbed/lib/rtt_fairness_options.sh -- rtt_fairness.sh's options: their defaults, the
# command line, a scenario file's options under it, and one run's scenario.sh arguments.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the options' variables, read by rtt_fairness.sh
# Sourced by rtt_fairness.sh; sets the defaults and defines functions. Uses its die, bad,
# log (scripts/lib/common.sh) and REPO.
{
CCS=bbr_a_fair,bbr_a,bbr RTTS=10,50 RATE=100 BUFFER_BDP=5 LOSS=0 DURATION=30 WARMUP=5 FLOWS_PER_RTT=1
STAGGER=0 REPEAT=1 SEED=1 JITTER=0 STARTS='' COOLDOWN=1 OUT='' BACKEND=auto KERNEL=6.12 INTERVAL=1
SAMPLE_MS=100 TIMEOUT='' MEM='' ANALYSIS=1 DRY=0 STREAMS=128 CLIENT=auto TRACE=on
QDISC=bfifo QDISC_OPTS='' RATE_SCHEDULE='' SIZES='' ENDS='' GAP=0.1 SCENARIO='' POINT='' FLENT=''
DELAY_SCHEDULE='' DELAY_JITTER='' ACK_AGGREGATION='' OFFLOADS=off RATE_TRACE='' RT_SCHED='' RT_ARG=''
REVERSE='' HOSTS_PER_CLASS=1 MODULE_SRC='' INSMOD_ARG=''
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
	--reverse) REVERSE=$2 ;; --hosts-per-class) HOSTS_PER_CLASS=$2 ;; --module-src) MODULE_SRC=$2 ;;
	*) return 1 ;;
	esac
}
# parse_options ARGS...: the command line into the variables above (GIVEN: which it gave)
parse_options() {
	local opt
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
			--hosts-per-class | --module-src) ;;
		*) bad "unknown option '$opt'" ;;
		esac
		[[ $# -ge 2 ]] || bad "$opt needs a value"
		set_opt "$opt" "$2"
		GIVEN[$opt]=1
		shift 2
	done
}

# scenario_file_options: a scenario file's options under the command line's.
# testbed/scenario_file.py checks the file (one line naming the field) and turns it into
# this script's options; a class with a cc of its own makes the items name the others'.
scenario_file_options() {
	local fargs said o v
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
}

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
	[[ -z $RT_ARG ]] || SARGS+=(--rate-trace "$RT_ARG") # the schedule where the run reads it
	[[ -z $INSMOD_ARG ]] || SARGS+=(--insmod "$INSMOD_ARG") # the module files where the run reads them
	[[ -z $SIZES ]] || SARGS+=(--sizes "$SIZES" --gap "$GAP")
	[[ -z $ENDS ]] || SARGS+=(--ends "$ENDS")
	[[ -z $FLENT ]] || SARGS+=(--flent "$FLENT")
	local p
	for p in "${MODULE_PARAMS[@]}"; do SARGS+=(--module-param "$p"); done
}

# Number checks of the values rtt_fairness.sh checks itself (scenario.sh --check the rest).
NUM='^([0-9]+([.][0-9]*)?|[.][0-9]+)$'
INT='^[0-9]+$'
isnum() { [[ $1 =~ $NUM ]]; }
isint() { [[ $1 =~ $INT ]]; }
# awk-evaluated comparison of checked numbers: check "EXPR" -> true/false
check() { awk "BEGIN { exit !($1) }"; }
}
