# testbed/lib/traffic.sh -- the flows' traffic: receivers and clients, iperf3 or
# testbed/tcpflow.py (sink/bulk), both writing iperf3's JSON. POSIX sh, sourced by scenario.sh.
# shellcheck shell=sh
# Uses scenario.sh's CLIENT, INTERVAL, PORT_BASE, NFLOWS, NGROUPS, SCRATCH, TB_* and die/log.
{

# traffic_tools: CLIENT auto becomes tcpflow where python3 is installed, else iperf3; the
# chosen client's tools must be there.
traffic_tools() {
	PYTHON=$(command -v /usr/bin/python3 || command -v python3) || PYTHON=''
	if [ "$CLIENT" = auto ]; then
		CLIENT=iperf3
		[ -z "$PYTHON" ] || CLIENT=tcpflow
	fi
	[ "$CLIENT" = iperf3 ] || [ -n "$PYTHON" ] || die "--client tcpflow needs python3"
	TCPFLOW="$PYTHON $TB_DIR/tcpflow.py"
	# finite flows and trains (--sizes): a program of their own, so that tcpflow.py stays the
	# program every other run was made with (tcpflow_fct.py's docstring says why)
	TCPFLOW_FCT="$PYTHON $TB_DIR/tcpflow_fct.py"
	[ "$CLIENT" = tcpflow ] || command -v iperf3 >/dev/null 2>&1 || die "iperf3 is required"
	case " $SIZES" in *" "*/*) [ "$CLIENT" = tcpflow ] || die "a train (--sizes B1/B2/...) needs --client tcpflow (python3)" ;; esac
}

# start_receivers: one receiver per client process (groups.txt), listening before it returns.
start_receivers() {
	while read -r group _ _ port _ _ members size; do
		if [ "$CLIENT" = iperf3 ]; then
			tb_exec d iperf3 -s -1 -J -p "$port" > "$SCRATCH/server$group.log" 2>&1 &
		else
			# a finite flow's sink says when it read the last byte; a train's serves its
			# connections one after another (tcpflow_fct.py)
			sink=$TCPFLOW fct=
			case $size in '' | 0) ;; */*) sink=$TCPFLOW_FCT fct=--train ;; *) sink=$TCPFLOW_FCT fct=--fct ;; esac
			# shellcheck disable=SC2086
			tb_exec d $sink sink --port "$port" --interval "$INTERVAL" \
				--streams "$(echo "$members" | awk -F, '{ print NF }')" $fct > "$SCRATCH/server$group.log" 2>&1 &
		fi
		SERVER_PIDS="$SERVER_PIDS $!"
	done < "$SCRATCH/groups.txt"
	wait_listening "$CLIENT" "$NGROUPS" receivers_listening
}
# receivers_listening: up = how many of the flows' ports listen in d
receivers_listening() {
	up=$(tb_exec d "$TB_SS" -ltnH | awk -v p0="$PORT_BASE" -v n="$NFLOWS" \
		'{ sub(/.*:/, "", $4); if ($4 >= p0 && $4 < p0 + n) c++ } END { print c + 0 }')
}

# wait_listening WHAT WANT COUNT: until COUNT (a function that sets up, how many receivers
# listen) finds WANT or more, looking every 0.1 s; after 30 s, dies naming WHAT's receivers.
wait_listening() {
	n=0
	while :; do
		"$3"
		[ "$up" -ge "$2" ] && break
		n=$((n + 1))
		[ $n -lt 300 ] || die "$1 receivers did not start ($up of $2 listening after 30 s)"
		sleep 0.1
	done
}

# start_clients: each client process at its start time (launch times in flow_starts.txt).
start_clients() {
	: > "$SCRATCH/flow_starts.txt"
	while read -r group class _ port start_s run_s members size; do
		group_host "$group" "$class" # HOST: s<class>, or the group's (lib/hosts.sh)
		(
			[ "$start_s" = 0.000 ] || sleep "$start_s"
			read -r up _ < /proc/uptime
			for i in $(echo "$members" | tr ',' ' '); do echo "$i $up"; done >> "$SCRATCH/flow_starts.txt"
			n=$(echo "$members" | awk -F, '{ print NF }')
			if [ "$CLIENT" = iperf3 ]; then
				set -- iperf3 -c "$TB_RCV_ADDR" -p "$port" -t "$run_s" -i "$INTERVAL" -J --get-server-output
				[ "$n" = 1 ] || set -- "$@" -P "$n"
				# a finite flow: its bytes instead of a time (iperf3 -n)
				case $size in '' | 0) ;; *) set -- "$@" -n "$size" ;; esac
			else
				case $size in
				*/*)
					# shellcheck disable=SC2086
					set -- $TCPFLOW_FCT train --host "$TB_RCV_ADDR" --port "$port" --time "$run_s" \
						--sizes "$(echo "$size" | tr / ,)" --gap "$GAP" ;;
				'' | 0)
					# shellcheck disable=SC2086
					set -- $TCPFLOW bulk --host "$TB_RCV_ADDR" --port "$port" --time "$run_s" \
						--interval "$INTERVAL" --streams "$n" ;;
				*)
					# shellcheck disable=SC2086
					set -- $TCPFLOW_FCT bulk --host "$TB_RCV_ADDR" --port "$port" --time "$run_s" \
						--interval "$INTERVAL" --streams "$n" --bytes "$size" ;;
				esac
			fi
			# After its run_s a client waits for its flows' send buffers to drain: with many
			# flows in a shallow buffer that tail is minutes of RTO backoff (100 flows of
			# bbr at 0.1 BDP: 205 s after a 20 s run, 274 s after 200 s). Ten times TCP's
			# longest RTO; in a time-travel guest the wait costs no wall time.
			exec "$TB_IP" netns exec "$(tb_ns "$HOST")" timeout $((run_s + 1200)) "$@" \
				> "$SCRATCH/flow$group.json" 2> "$SCRATCH/flow$group.err"
		) &
		CLIENT_PIDS="$CLIENT_PIDS $!"
	done < "$SCRATCH/groups.txt"
}

# start_rate_schedule: the bottleneck's rate changes of --rate-schedule (T:MBIT, T seconds
# after t0, the first flow's launch), made by one background process that sleeps until each;
# each change's uptime and rate go to rate_changes.txt. Nothing without a schedule (the
# processes of other runs stay what they were).
# shellcheck disable=SC2034,SC2154 # SCHEDULE_PID is scenario.sh's, so is t0
start_rate_schedule() {
	[ -n "$RATE_SCHEDULE" ] || return 0
	(
		for item in $RATE_SCHEDULE; do
			read -r up _ < /proc/uptime
			nap=$(awk -v a="$t0" -v t="${item%:*}" -v u="$up" 'BEGIN { w = a + t - u; printf "%.3f", (w > 0 ? w : 0) }')
			sleep "$nap"
			tb_rate "${item#*:}" || { log "the rate change to ${item#*:} Mbit/s failed"; exit 1; }
			read -r up _ < /proc/uptime
			echo "$up ${item#*:}" >> "$SCRATCH/rate_changes.txt"
		done
	) &
	SCHEDULE_PID=$!
}

# wait_clients: waits for every client; FAILED = how many failed (each one's status recorded),
# NOT_CONNECTED = how many flows of the clients that ran never connected (tcpflow.py bulk
# reports each: the kernel gave up on its handshake; the run goes on without it).
wait_clients() {
	FAILED=0 NOT_CONNECTED=0
	exec 3< "$SCRATCH/groups.txt"
	for pid in $CLIENT_PIDS; do
		read -r group _ <&3
		if wait "$pid"; then rc=0; else rc=$?; FAILED=$((FAILED + 1)); fi
		param "flow_rc_$group" "$rc"
		[ "$rc" != 124 ] || log "$CLIENT client $group: still running 1200 s after its run's end: killed"
		[ "$rc" = 0 ] || log "$CLIENT client $group: exit status $rc ($(head -c 300 "$SCRATCH/flow$group.err"))"
		nc=$(grep -c 'never connected' "$SCRATCH/flow$group.err" 2>/dev/null) || nc=0
		if [ "$nc" != 0 ]; then
			NOT_CONNECTED=$((NOT_CONNECTED + nc))
			log "$CLIENT client $group: $nc flow(s) never connected ($(grep -m1 'never connected' "$SCRATCH/flow$group.err"))"
		fi
	done
	exec 3<&-
	CLIENT_PIDS=
}
}
