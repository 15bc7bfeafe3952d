# testbed/lib/flent.sh -- flent's tests as a run's traffic (scenario.sh --flent TEST), in the
# dumbbell's namespaces, instead of the testbed's own clients.
# shellcheck shell=sh
# POSIX sh, sourced by scenario.sh only when --flent is given (so other runs read nothing
# more); defines functions only. Uses scenario.sh's die/log/param, NCLASS, FLOWS_PER_RTT,
# DURATION, SCRATCH, CLIENT_PIDS, SERVER_PIDS and topology.sh's tb_* functions.
#
# The data always flows from the sender namespaces through the bottleneck to d:
#   tcp_nup, tcp_1up   netserver in d (the receiver); one flent per sender class, in s<k>,
#                      with its class's flows as upload streams (tcp_1up: one)
#   rtt_fair_var_down  flent's RTT-fairness test with its multi-host support: flent in d,
#                      one netserver per sender class (each -H a class's address), one
#                      download stream from each, so every stream has its class's RTT;
#                      flent's own fairness series and plots cover all of them
# (rtt_fair_var_up or _var would send from d, against the data path.) flent's pings run
# from where flent runs, so their replies or requests cross the bottleneck's queue. Each
# flent writes its data file (*.flent.gz) into the run's flent/ directory; flent's plotter
# draws them (plots/plot.py --flent). Every stream uses its sender namespace's default cc,
# which scenario.sh sets per class, as for the testbed's own flows.
{

FLENT_TESTS="tcp_1up tcp_nup rtt_fair_var_down"
FLENT_STEP=0.2 # flent's sampling step, s (its default)

# flent_tools: flent, netperf and netserver must be installed (scripts/setup.sh).
flent_tools() {
	for t in flent netperf netserver; do
		command -v $t >/dev/null 2>&1 || die "--flent needs $t (scripts/setup.sh installs flent and netperf)"
	done
	case " $FLENT_TESTS " in *" $FLENT "*) ;; *) die "--flent: '$FLENT' is not one of $FLENT_TESTS" ;; esac
	[ "$FLENT" != rtt_fair_var_down ] || [ "$NCLASS" -ge 2 ] ||
		die "--flent rtt_fair_var_down compares RTT classes: give two or more (--rtt)"
	case $FLENT in rtt_fair_var_down | tcp_1up)
		for n in $FLOWS_PER_RTT; do
			[ "$n" = 1 ] || die "--flent $FLENT runs one stream per sender class: --flows-per-rtt 1"
		done ;;
	esac
}

# flent_listening NS: waits until netserver listens in namespace NS (30 s at most).
flent_listening() {
	n=0
	until tb_exec "$1" "$TB_SS" -ltnH | grep -q ':12865 '; do
		n=$((n + 1))
		[ $n -lt 300 ] || die "netserver did not start in $1"
		sleep 0.1
	done
}

# start_flent: the netservers, then flent(s) in the background (CLIENT_PIDS); HOME and
# matplotlib's configuration in the scratch directory (the guest's root is read-only).
start_flent() {
	mkdir -p "$SCRATCH/flent" "$SCRATCH/flent-home"
	export HOME="$SCRATCH/flent-home" MPLCONFIGDIR="$SCRATCH/flent-home"
	set -- -l "$DURATION" -s "$FLENT_STEP" -d 0 -4 -D "$SCRATCH/flent"
	param flent_test "$FLENT"
	param flent_args "$*"
	if [ "$FLENT" = rtt_fair_var_down ]; then
		hosts=
		k=1
		while [ $k -le "$NCLASS" ]; do
			tb_exec "s$k" netserver -D -4 > "$SCRATCH/netserver_s$k.log" 2>&1 &
			SERVER_PIDS="$SERVER_PIDS $!"
			hosts="$hosts -H 10.1.$k.2"
			k=$((k + 1))
		done
		k=1
		while [ $k -le "$NCLASS" ]; do flent_listening "s$k"; k=$((k + 1)); done
		# shellcheck disable=SC2086
		tb_exec d flent "$FLENT" $hosts "$@" -t rtt_fair > "$SCRATCH/flent_d.log" 2>&1 &
		CLIENT_PIDS="$CLIENT_PIDS $!"
		FLENT_RUNS=d
		return
	fi
	tb_exec d netserver -D -4 > "$SCRATCH/netserver_d.log" 2>&1 &
	SERVER_PIDS="$SERVER_PIDS $!"
	flent_listening d
	FLENT_RUNS=
	k=1
	for n in $FLOWS_PER_RTT; do :; done # the last count stands for every class when one is given
	while [ $k -le "$NCLASS" ]; do
		c=$n
		[ "$(echo $FLOWS_PER_RTT | wc -w)" = 1 ] || c=$(echo $FLOWS_PER_RTT | cut -d' ' -f$k)
		tb_exec "s$k" flent "$FLENT" -H "$TB_RCV_ADDR" "$@" --test-parameter upload_streams="$c" \
			-t "s$k" > "$SCRATCH/flent_s$k.log" 2>&1 &
		CLIENT_PIDS="$CLIENT_PIDS $!"
		FLENT_RUNS="$FLENT_RUNS s$k"
		k=$((k + 1))
	done
}

# wait_flent: waits for every flent; FAILED = how many failed (params flent_rc_<where>).
wait_flent() {
	FAILED=0
	set -- $FLENT_RUNS
	for pid in $CLIENT_PIDS; do
		if wait "$pid"; then rc=0; else rc=$?; FAILED=$((FAILED + 1)); fi
		param "flent_rc_$1" "$rc"
		[ "$rc" = 0 ] || log "flent in $1: exit status $rc ($(tail -c 300 "$SCRATCH/flent_$1.log"))"
		shift
	done
	CLIENT_PIDS=
	rm -rf "$SCRATCH/flent-home"
	ls "$SCRATCH"/flent/*.flent.gz >/dev/null 2>&1 || { log "flent wrote no data file"; FAILED=$((FAILED + 1)); }
}
}
