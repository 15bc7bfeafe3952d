# testbed/lib/options.sh -- the checks of scenario.sh's options: the only implementation of
# them (the paths' options: lib/paths.sh's check_paths, --hosts-per-class: lib/hosts.sh's
# check_hosts, called from here). rtt_fairness.sh does not repeat them; it has scenario.sh --check run them on the
# options it is about to pass (see there).
# shellcheck shell=sh
# POSIX sh (busybox ash, dash, bash), sourced by scenario.sh; defines functions only. Reads
# the variables scenario.sh's option parser set and uses its bad (exit 2) and warn.
#
# On the UML backend every process a run starts draws from the guest's seeded RNG, and so
# does every file it creates, so a run can only repeat an earlier one byte for byte if it
# creates the same ones. The checks therefore use shell builtins only; the subprocesses
# here (tr, wc) are the ones scenario.sh has always started at this point.
{

# Plain non-negative decimals, as awk, tc and iperf3 read them: 5, 5., .5, 0.25.
is_number() { case $1 in '' | *[!0-9.]* | *.*.* | .) return 1 ;; esac; }
is_whole() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }

# to_micro VALUE: MICRO = the plain decimal VALUE in millionths, an integer the shell can
# compare and add. Digits after the sixth decimal are dropped; values of 10^12 and more
# become 10^12 (every limit below is far lower; shell integers have 63 bits).
to_micro() {
	_int=${1%%.*} _frac=
	case $1 in *.*) _frac=${1#*.} ;; esac
	_frac=${_frac}000000
	_frac=${_frac%"${_frac#??????}"}
	# leading zeros would make $((...)) read octal
	while :; do case $_int in 0?*) _int=${_int#0} ;; *) break ;; esac; done
	while :; do case $_frac in 0?*) _frac=${_frac#0} ;; *) break ;; esac; done
	[ -n "$_int" ] || _int=0
	if [ ${#_int} -gt 12 ]; then MICRO=1000000000000000000; else MICRO=$((_int * 1000000 + _frac)); fi
}
# from_micro N: DECIMAL = N millionths written as a plain decimal (12.5, 3, 0.001)
from_micro() {
	_frac=$(($1 % 1000000))
	while [ ${#_frac} -lt 6 ]; do _frac=0$_frac; done
	while :; do case $_frac in *0) _frac=${_frac%0} ;; *) break ;; esac; done
	DECIMAL=$(($1 / 1000000))${_frac:+.$_frac}
}

U=1000000 # one second (or ms, Mbit/s, percent) in millionths, for the conditions below
# number_ok VALUE CONDITION: VALUE is a plain decimal and CONDITION, an arithmetic expression
# on x = VALUE in millionths, holds. whole_ok: the same for a whole number, x = VALUE.
# shellcheck disable=SC2034 # x is read by CONDITION
number_ok() { is_number "$1" && to_micro "$1" && x=$MICRO && [ $(($2)) = 1 ]; }
# shellcheck disable=SC2034
whole_ok() { is_whole "$1" && to_micro "$1" && x=$((MICRO / U)) && [ $(($2)) = 1 ]; }

# A name the kernel could register (TCP_CA_NAME_MAX is 16 with the NUL).
is_cc_name() {
	case $1 in [a-z]*) ;; *) return 1 ;; esac
	case $1 in *[!a-z0-9_]*) return 1 ;; esac
	[ ${#1} -le 15 ]
}
# check_insmod: --insmod is module files, comma separated (their existence is checked where
# the run loads them: the guest's paths are not the host's).
check_insmod() {
	no_empty_item --insmod "$INSMOD"
	for v in $(echo "$INSMOD" | tr ',' ' '); do
		case $v in *.ko | *.ko.xz | *.ko.zst) ;; *) bad "--insmod: '$v' is not a module file (.ko, .ko.xz, .ko.zst)" ;; esac
	done
}
# "10,,50" or "10," is a typo, not a shorter list: tr and the shell's word splitting would
# drop the empty item without a word.
no_empty_item() { [ -z "$2" ] || case ,$2, in *,,*) bad "$1: empty item in '$2'" ;; esac; }

# check_options: every check of the options, in an order where a wrong value is named even
# when others are missing or wrong too; the lists become space separated (RTTS, CCS, LOAD,
# STARTS); sets NCLASS, NFLOWS. Exits through bad (status 2) at the first failure.
check_options() {
	set -f # a list item like '*' must not become file names
	[ -n "$RTTS" ] || bad "--rtt is required"
	[ -n "$OUT" ] || [ "$MODE" != run ] || bad "--out is required"
	no_empty_item --rtt "$RTTS"
	no_empty_item --cc "$CC"
	no_empty_item --load "$LOAD"
	no_empty_item --starts "$STARTS"
	RTTS=$(echo "$RTTS" | tr ',' ' ')
	CCS=$(echo "$CC" | tr ',' ' ')
	LOAD=$(echo "$LOAD" | tr ',' ' ')
	for v in $RTTS; do
		number_ok "$v" 'x > 0 && x <= 10000 * U' || bad "--rtt: '$v' is not a delay in ms (0 < ms <= 10000)"
	done
	number_ok "$RATE" 'x > 0 && x <= 100000 * U' || bad "--rate: '$RATE' is not a rate in Mbit/s (0 < r <= 100000)"
	whole_ok "$BUFFER" 'x >= 1' || bad "--buffer: '$BUFFER' is not a whole number of bytes (>= 1)"
	number_ok "$LOSS" 'x < 100 * U' || bad "--loss: '$LOSS' is not a percentage (0 <= pct < 100)"
	whole_ok "$DURATION" 'x >= 1 && x <= 100000' ||
		bad "--duration: '$DURATION' is not a whole number of seconds in 1..100000"
	check_flow_counts
	whole_ok "$STREAMS" 'x >= 1 && x <= 128' || bad "--streams: '$STREAMS' is not an integer in 1..128 (iperf3's -P limit)"
	is_number "$STAGGER" || bad "--stagger: '$STAGGER' is not a number of seconds"
	is_number "$JITTER" || bad "--jitter: '$JITTER' is not a number of seconds"
	is_whole "$SEED" || bad "--seed: '$SEED' is not a non-negative integer"
	number_ok "$INTERVAL" 'x >= U / 10 && x <= 60 * U' || bad "--interval: '$INTERVAL' is not in 0.1..60 s"
	case $CLIENT in auto | iperf3 | tcpflow) ;; *) bad "--client: '$CLIENT' is not auto, iperf3 or tcpflow" ;; esac
	case $TRACE in on | off) ;; *) bad "--trace: '$TRACE' is not on or off" ;; esac
	case $FLENT in '' | tcp_1up | tcp_nup | rtt_fair_var_down) ;;
	*) bad "--flent: '$FLENT' is not tcp_1up, tcp_nup or rtt_fair_var_down" ;; esac
	[ -z "$FLENT" ] || [ -z "$SIZES$ENDS$STARTS" ] || bad "--flent: flent's test makes the flows (no --sizes, --ends, --starts)"
	is_whole "$SAMPLE_MS" || bad "--sample-ms: '$SAMPLE_MS' is not an integer"
	whole_ok "$PORT_BASE" 'x >= 1 && x <= 65535' || bad "--port-base: '$PORT_BASE' is not a port number"
	for v in $CCS; do is_cc_name "$v" || bad "--cc: '$v' is not a congestion control name"; done
	for v in $LOAD; do is_cc_name "$v" || bad "--load: '$v' is not a congestion control name"; done
	[ -z "$INSMOD" ] || check_insmod
	for v in $MODULE_PARAMS; do
		case $v in [a-z_]*=?*) ;; *) bad "--module-param: '$v' is not key=value" ;; esac
		case ${v%%=*} in *[!a-z0-9_]*) bad "--module-param: '$v' is not key=value" ;; esac
		case ${v#*=} in *[!A-Za-z0-9_.:+-]*) bad "--module-param: '$v' is not key=value" ;; esac
	done
	STARTS=$(echo "$STARTS" | tr ',' ' ')
	for v in $STARTS; do is_number "$v" || bad "--starts: '$v' is not a number of seconds"; done
	NCLASS=$(echo $RTTS | wc -w) cc_count=$(echo $CCS | wc -w)
	if [ "$flow_counts" = 1 ]; then
		NFLOWS=$((NCLASS * flow_sum))
	else
		[ "$flow_counts" = "$NCLASS" ] ||
			bad "--flows-per-rtt: give one count or one per RTT class ($NCLASS), not $flow_counts"
		NFLOWS=$flow_sum
	fi
	[ -z "$STARTS" ] || [ "$(echo $STARTS | wc -w)" = "$NFLOWS" ] ||
		bad "--starts: give one offset per flow ($NFLOWS), not $(echo $STARTS | wc -w)"
	[ "$cc_count" = 1 ] || [ "$cc_count" = "$NCLASS" ] || bad "--cc: give one cc or one per RTT class ($NCLASS)"
	check_times
	check_bottleneck
	check_paths
	check_hosts
	check_finite
	set +f
}

# words VALUE: WORDS = the comma separated VALUE's items, space separated, N = how many
# (shell builtins only, see the top of this file).
words() {
	_rest=$1 WORDS='' N=0
	[ -n "$_rest" ] || return 0
	while :; do
		WORDS=$WORDS${WORDS:+ }${_rest%%,*} N=$((N + 1))
		case $_rest in *,*) _rest=${_rest#*,} ;; *) break ;; esac
	done
}

# check_bottleneck: --qdisc and its --qdisc-opts, --rate-schedule (T:MBIT items, times
# increasing, within the run); RATE_SCHEDULE becomes space separated.
check_bottleneck() {
	case $QDISC in bfifo | pfifo | red | codel | fq_codel) ;;
	*) bad "--qdisc: '$QDISC' is not bfifo, pfifo, red, codel or fq_codel" ;; esac
	no_empty_item --qdisc-opts "$QDISC_OPTS"
	case $QDISC_OPTS in *[!a-z0-9_.,]*) bad "--qdisc-opts: '$QDISC_OPTS' is not tc options (letters, digits, . and _; comma separated)" ;; esac
	words "$QDISC_OPTS"
	QDISC_OPTS=$WORDS
	no_empty_item --rate-schedule "$RATE_SCHEDULE"
	words "$RATE_SCHEDULE"
	RATE_SCHEDULE=$WORDS _prev=-1
	for v in $RATE_SCHEDULE; do
		case $v in *:*:* | :* | *:) bad "--rate-schedule: '$v' is not T:MBIT" ;; *:*) ;;
		*) bad "--rate-schedule: '$v' is not T:MBIT" ;; esac
		number_ok "${v%:*}" 'x > _prev && x < duration_us' ||
			bad "--rate-schedule: '$v': times must increase and lie within the run (0 < T < --duration $DURATION)"
		_prev=$MICRO
		number_ok "${v#*:}" 'x > 0 && x <= 100000 * U' ||
			bad "--rate-schedule: '$v': '${v#*:}' is not a rate in Mbit/s (0 < r <= 100000)"
	done
}

# check_finite: --sizes (one per flow: bytes, 0 for a flow that sends until its end, or
# B1/B2/... for a train), --gap, --ends (one per flow: its end in s after the first start, 0
# for the run's end; after its start); SIZES and ENDS become space separated.
check_finite() {
	no_empty_item --sizes "$SIZES"
	words "$SIZES"
	SIZES=$WORDS
	[ -z "$SIZES" ] || [ "$N" = "$NFLOWS" ] || bad "--sizes: give one size per flow ($NFLOWS), not $N"
	for v in $SIZES; do
		case $v in
		*/*)
			[ "$CLIENT" != iperf3 ] || bad "--sizes: '$v' is a train, which needs --client tcpflow (python3)"
			_rest=$v/
			while [ -n "$_rest" ]; do
				whole_ok "${_rest%%/*}" 'x >= 1' || bad "--sizes: '$v': a train's sizes are whole numbers of bytes (>= 1)"
				_rest=${_rest#*/}
			done ;;
		*) whole_ok "$v" 'x >= 0' || bad "--sizes: '$v' is not a whole number of bytes (0: until the end)" ;;
		esac
	done
	number_ok "$GAP" 'x <= 60 * U' || bad "--gap: '$GAP' is not a number of seconds in 0..60"
	no_empty_item --ends "$ENDS"
	words "$ENDS"
	ENDS=$WORDS
	[ -z "$ENDS" ] || [ "$N" = "$NFLOWS" ] || bad "--ends: give one end per flow ($NFLOWS), not $N"
	_i=0
	set -- $STARTS
	for v in $ENDS; do
		_i=$((_i + 1))
		if [ $# -gt 0 ]; then to_micro "$1" && shift; else to_micro "$STAGGER" && MICRO=$((MICRO * (_i - 1))); fi
		_start=$MICRO
		number_ok "$v" 'x <= duration_us' || bad "--ends: '$v' is not a number of seconds up to --duration ($DURATION)"
		[ "$MICRO" = 0 ] && continue
		_end=$MICRO
		to_micro "$JITTER"
		[ $((_end - _start - MICRO >= U / 2)) = 1 ] ||
			bad "--ends: flow $_i would end at $v s, less than half a second after its start"
	done
}

# check_flow_counts: --flows-per-rtt is one count for every RTT class or a comma separated
# count per class, each 1..1000; FLOWS_PER_RTT becomes space separated (each count as it was
# written), flow_counts = how many counts, flow_sum = their sum. Shell builtins only: the
# processes a run starts must not change (see the top of this file).
check_flow_counts() {
	no_empty_item --flows-per-rtt "$FLOWS_PER_RTT"
	_rest=$FLOWS_PER_RTT _list='' flow_counts=0 flow_sum=0
	while :; do
		_v=${_rest%%,*}
		whole_ok "$_v" 'x >= 1 && x <= 1000' || bad "--flows-per-rtt: '$_v' is not an integer in 1..1000"
		_list=$_list${_list:+ }$_v flow_counts=$((flow_counts + 1)) flow_sum=$((flow_sum + x))
		case $_rest in *,*) _rest=${_rest#*,} ;; *) break ;; esac
	done
	FLOWS_PER_RTT=$_list
}

# The checks on times, last: they compare options with each other.
check_times() {
	to_micro "$DURATION" && duration_us=$MICRO
	number_ok "$WARMUP" 'x < duration_us' ||
		bad "--warmup: '$WARMUP' must be a number of seconds below --duration ($DURATION)"
	warmup_us=$MICRO
	# The latest a flow can start (flow_table adds up to --jitter to each start). A stagger or
	# jitter of the whole duration is too much already; capping them there keeps the
	# product below 2^63.
	last_start_us=0
	if [ -n "$STARTS" ]; then
		for v in $STARTS; do to_micro "$v" && [ "$MICRO" -le "$last_start_us" ] || last_start_us=$MICRO; done
	else
		to_micro "$STAGGER" && [ "$MICRO" -le "$duration_us" ] || MICRO=$duration_us
		last_start_us=$((MICRO * (NFLOWS - 1)))
	fi
	to_micro "$JITTER" && [ "$MICRO" -le "$duration_us" ] || MICRO=$duration_us
	last_start_us=$((last_start_us + MICRO))
	[ $((last_start_us < duration_us - U / 2)) = 1 ] ||
		bad "--stagger/--starts/--jitter: the last of $NFLOWS flows would start after the end (--duration $DURATION)"
	[ $((last_start_us <= warmup_us)) = 1 ] ||
		{ from_micro "$last_start_us" && warn "flows start until $DECIMAL s, after the warm-up ($WARMUP s)"; }
}
}
