# testbed/lib/screen_jobs.sh -- screen.sh's jobs: their list, from the configurations,
# scenarios and seeds, and running them: one (run_job, also a Slurm array task's) or all
# here, --jobs at once (run_local).
# shellcheck shell=bash
# shellcheck disable=SC2154 # todo (the jobs to run) and done_n: screen.sh's
# Sourced by screen.sh; defines functions only. Uses die, bad, log, run_child, stop_child
# (scripts/lib/common.sh), REPO, key_line and scenario_path (lib/screen_keys.sh), OUT and
# screen.sh's options (CONFIGS, SCEN, SEEDS, JOBS), todo and done_n.
{
# run_job KEY ARGS...: the one place a job runs, here or as a Slurm array task:
# rtt_fairness.sh ARGS into OUT/KEY (its output in OUT/KEY.log), then job.key, written last:
# a job is done only with it. A run that is not a result (analyze.py --check: a client that
# failed, flows that did not last the run, a delivery nothing on the path explains, TCP
# memory pressure) runs once more (its first log kept as KEY.log.1), but not on UML, whose
# runs repeat byte for byte; still not a result, it is kept with its key, so the screen does
# not run it again, and the analysis leaves it out of the tables and names it.
run_job() {
	local key=$1 dir=$OUT/$1 try why
	shift
	# a TERM (screen.sh's stop_jobs, scancel) stops the run this job started, then the job
	trap 'stop_child; exit 143' TERM
	for try in 1 2; do
		rm -rf "$dir"
		mkdir -p "$(dirname "$dir")"
		if ! run_child "$REPO/testbed/rtt_fairness.sh" "$@" --out "$dir" >"$dir.log" 2>&1; then
			log "$key FAILED: $(grep -m1 -E 'error:' "$dir.log" || tail -n1 "$dir.log") (see $dir.log)"
			return 1
		fi
		why=$(/usr/bin/python3 "$REPO/testbed/analyze.py" --check "$dir" 2>&1) && break
		why=${why//$'\n'/; }
		if ((try == 1)) && [[ " $* " != *" --backend uml "* ]]; then
			log "$key: not a result, runs once more: $why"
			mv "$dir.log" "$dir.log.1"
			continue
		fi
		((try == 2)) || why="$why (not run again: a UML run repeats byte for byte)"
		log "$key: NOT A RESULT, kept and left out of the tables: $why"
		break
	done
	key_line "$@" >"$dir/job.key.tmp" && mv "$dir/job.key.tmp" "$dir/job.key"
}

# add_jobs SCENARIO ARGS: the jobs of the configuration list_jobs is at (name, cc, margs: its
# name, cc item and --module-param options) at SCENARIO (ARGS: its rtt_fairness.sh options),
# one per seed; the first of each configuration and of each scenario also in CHECKS.
add_jobs() {
	local s k
	for s in "${seeds[@]}"; do
		JOBLIST+=("$name/$1/seed$s --cc $cc $2 --seed $s ${margs[*]}")
	done
	for k in "config $name" "scenario $1"; do
		[[ -n ${checked[$k]:-} ]] || { checked[$k]=1; CHECKS+=("${JOBLIST[-1]}"); }
	done
}

# file_jobs FILE[:POINT+POINT...]: add_jobs for a scenario file, a scenario per point of it
# (or per point named; checked by rtt_fairness.sh), named after the point, or after the file
# when it has none.
file_jobs() {
	local f=$1 want='' pts pt sname sargs
	[[ $f != *:* ]] || { want=${f##*:} && f=${f%:*}; }
	[[ -f $(scenario_path "$f") ]] || bad "--scenarios: no scenario file '$f'"
	# in the repository: its path from there, so that the job keys name no machine
	[[ $f != "$REPO"/* ]] || f=${f#"$REPO"/}
	pts=$(/usr/bin/python3 "$REPO/testbed/scenario_file.py" points "$(scenario_path "$f")" 2>&1) ||
		bad "--scenarios: ${pts#scenario_file.py: error: }"
	if [[ -n $want ]]; then
		for pt in ${want//+/ }; do
			[[ $'\n'$pts$'\n' == *$'\n'$pt$'\n'* ]] || bad "--scenarios: $f has no point '$pt' (it has: $(echo $pts))"
		done
		pts=${want//+/ }
	fi
	[[ -n $pts ]] || { pts=${f##*/} && pts=-${pts%.ini}; }
	for pt in $pts; do
		sname=${pt#-} sargs="--scenario $f"
		[[ $pt == -* ]] || sargs+=" --point $pt"
		[[ $sname =~ ^[A-Za-z0-9._+-]+$ ]] || bad "$f: point '$sname' is not a name for a directory"
		add_jobs "$sname" "$sargs"
	done
}

# list_jobs: JOBLIST, the jobs ("KEY rtt_fairness-args..."); CHECKS, the first job of each
# configuration and of each scenario, which rtt_fairness.sh --dry-run checks before anything
# runs; SKIPPED, the jobs of a '+' item at a scenario with another number of RTT classes.
declare -A checked=() # the configurations and scenarios with a job in CHECKS
list_jobs() {
	local name cc params p margs parts sc sname rtts bdp loss flows extra nconfigs=0
	JOBLIST=() CHECKS=() SKIPPED=0
	IFS=, read -r -a scenarios <<<"$SCEN"
	IFS=, read -r -a seeds <<<"$SEEDS"
	while read -r name cc params; do
		[[ -z $name || $name == \#* ]] && continue
		[[ $name =~ ^[A-Za-z0-9._+-]+$ ]] || bad "$CONFIGS: bad configuration name '$name'"
		[[ -n $cc ]] || bad "$CONFIGS: configuration $name has no congestion control"
		nconfigs=$((nconfigs + 1))
		margs=()
		for p in $params; do margs+=(--module-param "$p"); done
		parts=${cc//[!+]/}
		for sc in "${scenarios[@]}"; do
			if [[ $sc == @* ]]; then # a scenario file: a scenario per point
				file_jobs "${sc#@}"
				continue
			fi
			IFS=: read -r sname rtts bdp loss flows extra <<<"$sc"
			[[ -n $sname && -n $rtts && -n $bdp && -z $extra ]] ||
				bad "--scenarios: bad item '$sc' (NAME:RTTS:BDP[:LOSS[:FLOWS_PER_RTT]])"
			# a cc per RTT class: only where the scenario has that many classes
			if [[ -n $parts && ${rtts//[!+]/} != "$parts" ]]; then
				SKIPPED=$((SKIPPED + ${#seeds[@]}))
				continue
			fi
			sargs="--rtt ${rtts//+/,} --buffer-bdp $bdp${loss:+ --loss $loss}${flows:+ --flows-per-rtt ${flows//+/,}}"
			add_jobs "$sname" "$sargs"
		done
	done <"$CONFIGS"
	((nconfigs)) || bad "$CONFIGS: no configurations"
	[[ ${#JOBLIST[@]} -gt 0 ]] ||
		bad "no jobs: each configuration names a cc per RTT class ('+') for scenarios with another number of classes"
	((SKIPPED == 0)) || log "$SKIPPED job(s) skipped: a configuration's '+' item names another number of ccs than the scenario has RTT classes"
}

# On INT or TERM every running job gets a TERM; its run_job stops the run it started
# (rtt_fairness.sh stops its guest) and ends, and all are waited for.
stop_jobs() {
	local p
	for p in $(jobs -pr); do
		kill -TERM "$p" 2>/dev/null || true
	done
	wait || true
}
# reap: waits for a job to end, counts it (finished, failed) and says how far the screen is.
reap() {
	wait -n || failed=$((failed + 1))
	finished=$((finished + 1)) running=$((running - 1))
	local el=$(($(date +%s) - started))
	log "$finished/${#todo[@]} jobs finished, $failed failed, ${el}s elapsed, ~$((el * (${#todo[@]} - finished) / finished))s left"
}

# run_local: the jobs of todo here, JOBS at once (default: the cores); failed counts those
# that failed.
run_local() {
	local j
	JOBS=${JOBS:-$(nproc)}
	log "${#JOBLIST[@]} jobs, $done_n done already, ${#todo[@]} to run, $JOBS at once"
	started=$(date +%s) finished=0 running=0
	trap 'stop_jobs; exit 130' INT TERM
	for j in "${todo[@]}"; do
		while ((running >= JOBS)); do reap; done
		# Two failures and no success yet: the setup, not the jobs (a missing package, no
		# kernel sources); running the rest would only fail them all the same way.
		if ((failed >= 2 && failed == finished)); then
			while ((running > 0)); do reap; done
			((failed < finished)) || die "the first $failed jobs failed and none succeeded: no more started (the cause is in the lines above; fix it and run the same command again, which does only what is missing)"
		fi
		# shellcheck disable=SC2086
		run_job $j &
		running=$((running + 1))
	done
	while ((running > 0)); do reap; done
}
}
