# testbed/lib/rtt_fairness_runs.sh -- rtt_fairness.sh's runs: one run on its backend, the
# progress lines while it runs and the run.env it leaves.
# shellcheck shell=bash
# Sourced by rtt_fairness.sh; defines functions only. Uses its log, die, guest_run
# (lib/backend.sh), scenario_args (lib/rtt_fairness_options.sh), the options' variables
# and what rtt_fairness.sh derives from them (BUFFER, BDP, PKTS, LOAD_CCS, RT_SCHED, RATIO,
# NRUNS, DONE_RUNS, DONE_WALL, T_START, HOST_MACHINE, MODULE_SRCHASH, UML_KERNEL_ID, CC_KOS
# and MODSRC*: lib/ccs.sh, lib/module_src.sh).
{
# Progress: a line every 15 s with the elapsed time and an estimate of what is left, from
# the wall time per simulated second of the runs done so far (before the first one ends:
# the backend's typical ratio, RATIO, measured on a 2-core machine; see docs/backends.md).
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

# run_one CC R DIR SEED: run R of the item CC, into DIR: scenario.sh here (host) or in a
# guest; dies naming DIR when the run fails.
run_one() {
	local c=$1 r=$2 dir=$3 seed=$4 gargs ko
	if [[ $BACKEND == host ]]; then
		# shellcheck disable=SC2034 # read by scenario_args
		[[ -z $RT_SCHED ]] || RT_ARG=$dir/rate_trace.txt
		INSMOD_ARG=$(IFS=,; echo "${CC_KOS[*]}")
		scenario_args "$c" "$seed" "$dir" "$BUFFER" "$LOAD_CCS"
		BBR_A_KO=${BBR_A_KO:-$REPO/tcp_bbr_a.ko} run_child sh "$REPO/testbed/scenario.sh" "${SARGS[@]}" ||
			die "run $c #$r failed (raw outputs in $dir)"
	else
		gargs=(--kernel "$KERNEL" --virtual-time --timeout "$TIMEOUT" --out "$dir")
		[[ -z $MEM ]] || gargs+=(--mem "$MEM")
		[[ $BACKEND != uml ]] || gargs+=(--seed "$seed") # UML: seeded, repeatable guest RNG
		# shellcheck disable=SC2016,SC2034 # the guest's variable; RT_ARG: read by scenario_args
		[[ -z $RT_SCHED ]] || { gargs+=(--file "$dir/rate_trace.txt"); RT_ARG='"$BBR_A_FILES"/rate_trace.txt'; }
		# the module files the run insmods, in the guest's BBR_A_FILES (lib/ccs.sh's CC_KOS)
		INSMOD_ARG=''
		for ko in "${CC_KOS[@]}"; do
			gargs+=(--file "$ko")
			# shellcheck disable=SC2016 # the guest's variable
			INSMOD_ARG+=${INSMOD_ARG:+,}'"$BBR_A_FILES"/'${ko##*/}
		done
		# shellcheck disable=SC2016
		scenario_args "$c" "$seed" '"$BBR_A_OUT"' "$BUFFER" "$LOAD_CCS"
		# shellcheck disable=SC2016
		guest_run "$dir" "${gargs[@]}" -- sh '"$BBR_A_SRC"/testbed/scenario.sh' "${SARGS[*]}" ||
			die "run $c #$r failed in the $KERNEL guest (outputs in $dir)"
	fi
}

# run_env CC_INDEX R START: the lines of run R's run.env (CC_INDEX: the item's position in
# --cc, START: when the run started, s since the epoch).
run_env() {
	local cc_index=$1 r=$2 start=$3
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
	# a user's module (--module-src): where, its sources' hash and the ccs it brings
	[[ -z $MODSRC ]] || printf 'module_src=%s\nmodule_src_hash=%s\nmodule_src_ccs=%s\n' \
		"$MODSRC" "$MODSRC_HASH" "$MODSRC_NAMES"
	[[ -z $SCENARIO ]] || echo "scenario=${SCENARIO#"$REPO"/}${POINT:+ $POINT}"
	[[ -z $RT_SCHED ]] || echo "rate_trace_source=$(basename "$RATE_TRACE") $(sha256sum <"$RATE_TRACE" | cut -c1-16)"
}
}
