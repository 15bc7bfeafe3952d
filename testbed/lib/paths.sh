# testbed/lib/paths.sh -- the paths' options of scenario.sh: their checks (check_paths, called
# by lib/options.sh's check_options) and what a run does for them while the flows run (route
# changes). testbed/README.md, "Paths that change", says what each one models.
# shellcheck shell=sh
# POSIX sh, sourced by scenario.sh; defines functions only. The checks use shell builtins
# only, and a run without these options starts no process for them (lib/options.sh's top:
# UML's seeded random stream).
{

# check_paths: every path option; each becomes what topology.sh and the run read
# (--offloads: TB_OFFLOADS).
# shellcheck disable=SC2034 # TB_OFFLOADS is read by topology.sh
check_paths() {
	check_delay_schedule
	check_delay_jitter
	check_ack_aggregation
	check_rate_trace
	check_reverse
	case $OFFLOADS in on | off) TB_OFFLOADS=$OFFLOADS ;; *) bad "--offloads: '$OFFLOADS' is not on or off" ;; esac
}

# check_delay_schedule: --delay-schedule (CLASS:T:MS items: CLASS a sender class, 1..NCLASS,
# T within the run, times not decreasing, MS a delay as --rtt's); DELAY_SCHEDULE becomes space
# separated.
check_delay_schedule() {
	no_empty_item --delay-schedule "$DELAY_SCHEDULE"
	words "$DELAY_SCHEDULE"
	DELAY_SCHEDULE=$WORDS _prev=0
	for v in $DELAY_SCHEDULE; do
		case $v in *:*:*:* | :* | *: | *::*) bad "--delay-schedule: '$v' is not CLASS:T:MS" ;;
		*:*:*) ;; *) bad "--delay-schedule: '$v' is not CLASS:T:MS" ;; esac
		whole_ok "${v%%:*}" "x >= 1 && x <= $NCLASS" ||
			bad "--delay-schedule: '$v': '${v%%:*}' is not a sender class (1..$NCLASS, the position of its RTT in --rtt)"
		_t=${v#*:} _t=${_t%:*}
		number_ok "$_t" 'x > 0 && x < duration_us' ||
			bad "--delay-schedule: '$v': '$_t' is not a time within the run (0 < T < --duration $DURATION)"
		[ "$MICRO" -ge "$_prev" ] || bad "--delay-schedule: '$v': times must not decrease"
		_prev=$MICRO
		number_ok "${v##*:}" 'x > 0 && x <= 10000 * U' ||
			bad "--delay-schedule: '$v': '${v##*:}' is not a delay in ms (0 < ms <= 10000)"
	done
}

# check_delay_jitter: --delay-jitter MS[:DIST][:reorder]: every sender path's delay varies by
# up to MS ms around its base RTT (netem's jitter, at most the smallest --rtt), drawn from DIST
# (uniform, the default, normal, pareto, paretonormal), in order unless 'reorder' is given.
# Sets TB_JITTER_MS, TB_JITTER_DIST and TB_JITTER_REORDER (0 or 1) for topology.sh's
# tb_path_netem; DELAY_JITTER becomes MS:DIST:order|reorder.
check_delay_jitter() {
	TB_JITTER_MS='' TB_JITTER_DIST=uniform TB_JITTER_REORDER=0
	[ -n "$DELAY_JITTER" ] || return 0
	_what="--delay-jitter: '$DELAY_JITTER'"
	case $DELAY_JITTER in *:*:*:* | :* | *: | *::*) bad "$_what is not MS[:DIST][:reorder]" ;; esac
	TB_JITTER_MS=${DELAY_JITTER%%:*} _rest=${DELAY_JITTER#"$TB_JITTER_MS"} _rest=${_rest#:}
	case $_rest in reorder | *:reorder) TB_JITTER_REORDER=1 _rest=${_rest%reorder} _rest=${_rest%:} ;; esac
	case $_rest in
	'') ;; uniform | normal | pareto | paretonormal) TB_JITTER_DIST=$_rest ;;
	*) bad "$_what: '$_rest' is not a distribution (uniform, normal, pareto, paretonormal) or reorder" ;;
	esac
	_min=
	for v in $RTTS; do to_micro "$v" && { [ -n "$_min" ] && [ "$_min" -le "$MICRO" ]; } || _min=$MICRO; done
	number_ok "$TB_JITTER_MS" "x > 0 && x <= $_min" || {
		from_micro "$_min"
		bad "$_what: '$TB_JITTER_MS' is not a jitter in ms (0 < ms <= the smallest --rtt, $DECIMAL)"
	}
	_order=order
	[ "$TB_JITTER_REORDER" = 0 ] || _order=reorder
	DELAY_JITTER=$TB_JITTER_MS:$TB_JITTER_DIST:$_order
}

# check_ack_aggregation: --ack-aggregation MIN_MS[:MAX_MS[:PACKETS]]: every ACK path releases
# what it holds only at slots MIN..MAX ms apart (uniform; MAX = MIN when not given), at most
# PACKETS per slot (default: all). Sets TB_SLOT, netem's slot words for tb_path_netem;
# ACK_AGGREGATION becomes MIN:MAX or MIN:MAX:PACKETS.
# shellcheck disable=SC2034 # TB_SLOT is read by topology.sh
check_ack_aggregation() {
	TB_SLOT=''
	[ -n "$ACK_AGGREGATION" ] || return 0
	_what="--ack-aggregation: '$ACK_AGGREGATION'"
	case $ACK_AGGREGATION in *:*:*:* | :* | *: | *::*) bad "$_what is not MIN_MS[:MAX_MS[:PACKETS]]" ;; esac
	_min=${ACK_AGGREGATION%%:*} _rest=${ACK_AGGREGATION#"$_min"} _rest=${_rest#:}
	_max=${_rest%%:*} _pk=${_rest#"$_max"} _pk=${_pk#:}
	[ -n "$_max" ] || _max=$_min
	number_ok "$_max" 'x > 0 && x <= 1000 * U' ||
		bad "$_what: '$_max' is not a slot spacing in ms (0 < ms <= 1000)"
	_hi=$MICRO
	number_ok "$_min" "x <= $_hi" || bad "$_what: '$_min' is not a spacing in ms from 0 to MAX_MS ($_max)"
	[ -z "$_pk" ] || whole_ok "$_pk" 'x >= 1 && x <= 100000' ||
		bad "$_what: '$_pk' is not a number of packets per slot (1..100000)"
	TB_SLOT="${_min}ms ${_max}ms${_pk:+ packets $_pk}"
	ACK_AGGREGATION=$_min:$_max${_pk:+:$_pk}
}

# check_rate_trace: --rate-trace FILE, the bottleneck's rate replayed from a schedule, one
# 'T MBIT' line per change (T s after the first start: from 0, increasing, within the run;
# testbed/rate_trace.py writes it from a mahimahi trace); not with --rate-schedule.
# RATE_TRACE_CHANGES = its number of lines (params.env).
# shellcheck disable=SC2034
check_rate_trace() {
	RATE_TRACE_CHANGES=0
	[ -n "$RATE_TRACE" ] || return 0
	[ -z "$RATE_SCHEDULE" ] || bad "--rate-trace: give it or --rate-schedule, not both"
	[ -f "$RATE_TRACE" ] && [ -r "$RATE_TRACE" ] || bad "--rate-trace: cannot read '$RATE_TRACE'"
	_prev=-1 _n=0
	while read -r _t _r _x || [ -n "$_t" ]; do
		_n=$((_n + 1))
		{ [ -z "$_x" ] && number_ok "$_t" 'x > _prev && x < duration_us' && { [ "$_n" -gt 1 ] || [ "$MICRO" = 0 ]; }; } ||
			bad "--rate-trace: '$RATE_TRACE' line $_n: '$_t $_r${_x:+ $_x}' is not 'T MBIT' with T from 0, increasing, below --duration $DURATION"
		_prev=$MICRO
		number_ok "$_r" 'x > 0 && x <= 100000 * U' ||
			bad "--rate-trace: '$RATE_TRACE' line $_n: '$_r' is not a rate in Mbit/s (0 < r <= 100000)"
	done < "$RATE_TRACE"
	[ "$_n" -gt 0 ] || bad "--rate-trace: '$RATE_TRACE' is empty"
	RATE_TRACE_CHANGES=$_n
}

# start_rate_trace: the bottleneck's rate from --rate-trace's schedule, one background process
# that sleeps until each line's time and sets it (tb_rate; a sleep and a tc per change, the
# time computed by the shell); each change's uptime and rate go to rate_changes.txt, as the
# rate schedule's (the analysis' rate phases). Nothing without a trace.
# shellcheck disable=SC2034,SC2154 # SCHEDULE_PID is scenario.sh's, so is t0
start_rate_trace() {
	[ -n "$RATE_TRACE" ] || return 0
	(
		to_micro "$t0" && _t0=$MICRO
		while read -r at mbit _; do
			read -r up _ < /proc/uptime
			to_micro "$at" && _at=$MICRO && to_micro "$up"
			_nap=$((_t0 + _at - MICRO))
			[ "$_nap" -le 0 ] || { from_micro "$_nap" && sleep "$DECIMAL"; }
			tb_rate "$mbit" || { log "the rate change to $mbit Mbit/s (rate trace) failed"; exit 1; }
			read -r up _ < /proc/uptime
			echo "$up $mbit" >> "$SCRATCH/rate_changes.txt"
		done < "$RATE_TRACE"
	) &
	SCHEDULE_PID="$SCHEDULE_PID $!"
}

# check_reverse: --reverse N[:CC], N bulk flows from the receiver's namespace to the senders'
# (flow j to class (j - 1) mod NCLASS + 1) with cc CC (default cubic), ports after the
# forward flows'. Sets REVERSE_N and REVERSE_CC; REVERSE becomes N:CC.
check_reverse() {
	REVERSE_N=0 REVERSE_CC=cubic
	[ -n "$REVERSE" ] || return 0
	case $REVERSE in *:*:* | :* | *:) bad "--reverse: '$REVERSE' is not N[:CC]" ;; *:*) REVERSE_CC=${REVERSE#*:} ;; esac
	whole_ok "${REVERSE%%:*}" 'x >= 1 && x <= 100' ||
		bad "--reverse: '${REVERSE%%:*}' is not a number of reverse flows in 1..100"
	REVERSE_N=$((MICRO / U))
	is_cc_name "$REVERSE_CC" || bad "--reverse: '$REVERSE_CC' is not a congestion control name"
	[ -z "$FLENT" ] || bad "--reverse: not with --flent (flent's test makes the traffic)"
	[ $((PORT_BASE + NFLOWS + REVERSE_N)) -le 65535 ] || bad "--reverse: its ports would pass 65535 (--port-base)"
	REVERSE=$REVERSE_N:$REVERSE_CC
}

# start_reverse_receivers: the reverse bottleneck (bottleneck.sh's tb_reverse_link: --rate and
# --buffer on the receiver's egress, shared with the forward flows' ACKs), one receiver per
# reverse flow in its sender namespace, listening before it returns; the flows' table in
# reverse.txt (flow class cc port). Nothing without --reverse (as every function below).
start_reverse_receivers() {
	[ "$REVERSE_N" -gt 0 ] || return 0
	tb_reverse_link || die "the reverse bottleneck (htb + bfifo on the receiver's eth0) failed"
	j=1
	while [ $j -le "$REVERSE_N" ]; do
		k=$(((j - 1) % NCLASS + 1)) port=$((PORT_BASE + NFLOWS + j))
		echo "$j $k $REVERSE_CC $port" >> "$SCRATCH/reverse.txt"
		if [ "$CLIENT" = iperf3 ]; then
			tb_exec "s$k" iperf3 -s -1 -J -p "$port" > "$SCRATCH/reverse_server$j.log" 2>&1 &
		else
			# shellcheck disable=SC2086
			tb_exec "s$k" $TCPFLOW sink --port "$port" --interval "$INTERVAL" --streams 1 > "$SCRATCH/reverse_server$j.log" 2>&1 &
		fi
		SERVER_PIDS="$SERVER_PIDS $!"
		j=$((j + 1))
	done
	wait_listening reverse "$REVERSE_N" reverse_listening # lib/traffic.sh
}
# reverse_listening: up = how many of the reverse flows' ports listen in the senders' namespaces
reverse_listening() {
	up=0 k=1
	while [ $k -le "$NCLASS" ]; do
		c=$(tb_exec "s$k" "$TB_SS" -ltnH | awk -v p0=$((PORT_BASE + NFLOWS)) -v n="$REVERSE_N" \
			'{ sub(/.*:/, "", $4); if ($4 > p0 && $4 <= p0 + n) c++ } END { print c + 0 }')
		up=$((up + c)) k=$((k + 1))
	done
}

# start_reverse_clients: the reverse flows' senders in the receiver's namespace, whose cc
# becomes CC, all at once for --duration s; their launch time is param reverse_t0_uptime.
# REVERSE_PIDS are waited for by wait_reverse (and killed by scenario.sh's cleanup).
start_reverse_clients() {
	REVERSE_PIDS=''
	[ "$REVERSE_N" -gt 0 ] || return 0
	"$TB_IP" netns exec "$(tb_ns d)" sh -c "echo $REVERSE_CC > /proc/sys/net/ipv4/tcp_congestion_control" ||
		die "cannot make $REVERSE_CC the congestion control of the receiver's namespace"
	read -r up _ < /proc/uptime
	param reverse_t0_uptime "$up"
	while read -r j k _ port; do
		if [ "$CLIENT" = iperf3 ]; then
			set -- iperf3 -c "10.1.$k.2" -p "$port" -t "$DURATION" -i "$INTERVAL" -J --get-server-output
		else
			# shellcheck disable=SC2086
			set -- $TCPFLOW bulk --host "10.1.$k.2" --port "$port" --time "$DURATION" --interval "$INTERVAL" --streams 1
		fi
		tb_exec d timeout $((DURATION + 1200)) "$@" > "$SCRATCH/reverse$j.json" 2> "$SCRATCH/reverse$j.err" &
		REVERSE_PIDS="$REVERSE_PIDS $!" SERVER_PIDS="$SERVER_PIDS $!"
	done < "$SCRATCH/reverse.txt"
}

# wait_reverse: waits for the reverse clients; each one's status is param reverse_rc_<j>, and
# a failed one counts in FAILED (the run fails, as with a forward client).
wait_reverse() {
	j=0
	for pid in $REVERSE_PIDS; do
		j=$((j + 1))
		if wait "$pid"; then rc=0; else rc=$?; FAILED=$((FAILED + 1)); fi
		param "reverse_rc_$j" "$rc"
		[ "$rc" = 0 ] || log "reverse client $j: exit status $rc ($(head -c 300 "$SCRATCH/reverse$j.err"))"
	done
	REVERSE_PIDS=''
}

# start_delay_schedule: the route changes of --delay-schedule (CLASS:T:MS: sender class CLASS
# has a base RTT of MS ms from T seconds after t0 on), made by one background process as the
# rate schedule's are (tb_delay: the netem on the class's ACK path, its jitter kept); each
# change's uptime, class and RTT go to delay_changes.txt. Nothing without a schedule.
# shellcheck disable=SC2034,SC2154 # SCHEDULE_PID is scenario.sh's, so is t0
start_delay_schedule() {
	[ -n "$DELAY_SCHEDULE" ] || return 0
	(
		for item in $DELAY_SCHEDULE; do
			class=${item%%:*} at=${item#*:} ms=${item##*:}
			at=${at%:*}
			read -r up _ < /proc/uptime
			nap=$(awk -v a="$t0" -v t="$at" -v u="$up" 'BEGIN { w = a + t - u; printf "%.3f", (w > 0 ? w : 0) }')
			sleep "$nap"
			tb_delay "$class" "$ms" || { log "the delay change of class $class to $ms ms failed"; exit 1; }
			read -r up _ < /proc/uptime
			echo "$up $class $ms" >> "$SCRATCH/delay_changes.txt"
		done
	) &
	SCHEDULE_PID="$SCHEDULE_PID $!"
}
}
